"""`shamble solve` on a synthetic monotone rate (known root) and on real games at tiny sizes;
the sensitivity ranges and table."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import EXAMPLES
from scipy import special

from experiments.sensitivity import chosen_parameters, sensitivity_experiment, sensitivity_table
from experiments.solve import crossing, default_range, fit_logistic, is_integer_param, solve, solve_curve, with_param
from sim.rulesets.zombie40k.config import ConfigError, load_config
from sim.rulesets.zombie40k.params import plausible_range

TWO = EXAMPLES / "configs" / "two_players.toml"


def synthetic(root: float, scale: float, seed: int = 11):
    """Game i escapes when its uniform u_i < logistic((x - root) / scale): the same u_i at every x
    (common random numbers), so the rate is monotone in x game by game."""
    def evaluate(x: float, n: int) -> np.ndarray:
        u = np.random.default_rng(seed).random(n)
        return u < special.expit((x - root) / scale)
    return evaluate


def test_logistic_fit_recovers_exact_counts():
    x = np.array([0.0, 1.0, 2.0, 3.0])
    p = special.expit(-1.5 + 0.8 * x)
    a, b = fit_logistic(x, p * 1e6, np.full(4, 1e6))
    assert (a, b) == pytest.approx((-1.5, 0.8), abs=1e-4)
    assert crossing(a, b, 0.5) == pytest.approx(1.5 / 0.8, abs=1e-3)


@pytest.mark.parametrize("root, integer", [(37.3, False), (12.0, True)])
def test_solver_finds_a_known_root(root, integer):
    """Tolerance: the interval must contain the true root and be narrower than 15% of the
    search range (400 then 800 games per point; seeded, so the test is deterministic)."""
    solution = solve_curve(synthetic(root, 6.0), 0, 60 if not integer else 30, 0.5, 400, integer=integer)
    assert solution.low <= root <= solution.high
    assert solution.high - solution.low < 0.15 * (60 if not integer else 30)
    assert abs(solution.value - root) < 3
    assert solution.points.games.eq(800).all() and solution.slope > 0


def test_solver_targets_other_rates_and_falling_curves():
    solution = solve_curve(synthetic(20, -4.0), 0, 40, 0.8, 500)
    assert solution.slope < 0
    truth = 20 - 4.0 * special.logit(0.8)  # rate(x) = expit(-(x - 20) / 4) = 0.8
    assert solution.low <= truth <= solution.high


def test_solver_refuses_a_target_out_of_range():
    with pytest.raises(ValueError, match="50% is not reached on this grid: .*between x = 0 and 20 .*; widen --lo/--hi"):
        solve_curve(synthetic(100, 3.0), 0, 20, 0.5, 200)
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        solve_curve(synthetic(1, 1.0), 0, 2, 1.0, 10)
    with pytest.raises(ValueError, match="lo < hi"):
        solve_curve(synthetic(1, 1.0), 2, 2, 0.5, 10)


def shaped(rate, seed: int = 3):
    """A synthetic rate of any shape, on common random numbers."""
    def evaluate(x: float, n: int) -> np.ndarray:
        return np.random.default_rng(seed).random(n) < rate(x)
    return evaluate


def test_solver_never_answers_outside_the_grid_it_played():
    """A slowly rising rate with a jump at 130 (issue case): the answer lies between two values the
    last round played, never beyond them, and the solver says the rates are not a logistic curve."""
    def jump(x):
        return 0.2 + 0.1 * (x - 30) / 120 + (0.5 if x >= 130 else 0.0)

    s = solve_curve(shaped(jump), 30, 150, 0.5, 400)
    assert s.points.value.min() <= s.low <= s.value <= s.high <= s.points.value.max()
    assert s.low <= 130 <= s.high and s.high - s.low < 10 and "not follow a logistic curve" in s.note


def test_solver_refuses_a_hump_and_names_both_crossings():
    """A hump that crosses 50% near 50 and near 110: refused, with both crossings and the grid."""
    def hump(x):
        return 0.8 * np.exp(-((x - 80) / 45) ** 2)

    with pytest.raises(ValueError, match="not monotone in x: it crosses 50% 2 times .*up between .*down between"):
        solve_curve(shaped(hump), 30, 150, 0.5, 400)
    with pytest.raises(ValueError, match="90% is not reached on this grid.*grid x 30: "):
        solve_curve(shaped(hump), 30, 150, 0.9, 400)


def test_a_zoom_that_misses_the_crossing_grows_toward_it():
    """The issue case (a 75-point Guard team alone under T-Virus, budget 75-225 for 10%): the
    first round's rates are not a logistic curve, so the next round looks between the two grid
    values around the target, 75 and 100; with twice the games the rate at 100 is 9.5%, the
    crossing lies above 100, and the zoomed round grows its window instead of refusing. The first
    round's rates (400 games) and the finer curve (800 games) are those measured."""
    first = {75: 0.032, 100: 0.108, 125: 0.135, 150: 0.10, 175: 0.135, 200: 0.195, 225: 0.18}
    finer = {75: 0.032, 83: 0.038, 92: 0.074, 100: 0.095, 108: 0.111, 117: 0.165, 125: 0.162}

    def evaluate(x: float, n: int) -> np.ndarray:
        table = first if n == 400 else finer  # evenly spread uniforms: the rates exactly, no sampling noise
        u = (np.random.default_rng(3).permutation(n) + 0.5) / n
        return u < float(np.interp(x, list(table), list(table.values())))

    s = solve_curve(evaluate, 75, 225, 0.1, 400, integer=True)
    assert 100 <= s.value <= 108 and s.low <= s.value <= s.high
    assert s.points.games.eq(800).all() and s.points.value.max() > 100


def test_parameter_kinds_and_errors():
    config = load_config(TWO)
    assert is_integer_param(config, "budget") and is_integer_param(config, "horde_size")
    assert not is_integer_param(config, "ev_width_in")
    assert with_param(config, "horde_size", 6.0).horde_size == 6
    assert with_param(config, "budget", 100).team_budget == 100
    assert with_param(config, "team_budget", 100).players[0].team != config.players[0].team  # refitted, as budget
    assert default_range(config, "budget") == (30, 150) and default_range(config, "horde_size") == (3, 6)
    with pytest.raises(ConfigError, match="did you mean 'horde_size'"):
        is_integer_param(config, "hord_size")
    with pytest.raises(ValueError, match="not a numeric parameter"):
        is_integer_param(config, "order")
    with pytest.raises(ValueError, match="horde_size = 5.5: a whole-number parameter"):
        with_param(config, "horde_size", 5.5)  # never truncated to 5


def test_solver_on_real_games(nojit):
    """Tiny sizes as plain Python: the solver runs end to end and answers inside its range."""
    solution = solve(load_config(TWO), "horde_size", target=0.5, lo=1, hi=12, games=8, rounds=1)
    assert 1 <= solution.value <= 12 and 1 <= solution.low <= solution.high <= 12
    assert list(solution.points.columns) == ["value", "games", "wins", "rate", "ci_low", "ci_high"]
    assert solution.word == "escape"


def test_an_integer_answer_names_the_values_that_really_differ(nojit):
    """A budget changes a team only at some values: the answer lists the runs of budgets that
    compile to the same tables around it, with their rates, never a fractional budget alone."""
    from experiments.solve import tables_fingerprint

    config = load_config(TWO)
    solution = solve(config, "budget", target=0.5, player="Marines", lo=40, hi=100, games=6, rounds=1)
    steps = solution.steps
    assert steps is not None and 1 <= len(steps) <= 2 and (steps["from"] <= steps["to"]).all()
    for row in steps.itertuples():
        same = {tables_fingerprint(with_param(config, "budget", v)) for v in range(row._1, row.to + 1)}
        assert len(same) == 1  # one run: one game
    if len(steps) == 2:
        a, b = steps.itertuples()
        assert a.to + 1 == b._1 and tables_fingerprint(with_param(config, "budget", a.to)) != \
            tables_fingerprint(with_param(config, "budget", b._1))


def test_plausible_ranges_follow_the_rule():
    config = load_config(TWO)
    names = [p.name for p, _ in chosen_parameters(config)]
    assert "horde_size" in names and "tvirus_t" not in names  # a mod's numbers only with the mod
    assert plausible_range("deploy_separation_in", 12.0) == (6.0, 18.0)  # x0.5, x1.5
    assert plausible_range("hordes_per_player", 2) == (1, 3)
    assert plausible_range("emfh_radius_in", 6.0) == (3.0, 9.0)
    assert plausible_range("kf_budget", 50) == (25, 75)


def test_sensitivity_table_ranks_by_size(nojit):
    from dataclasses import replace

    config = load_config(TWO)
    exp = sensitivity_experiment(config, 3, 1)
    exp = replace(exp, axes=(replace(exp.axes[0], values=exp.axes[0].values[:5], labels=exp.axes[0].labels[:5]),))
    from experiments.sweep import combine, run_cell

    cells = exp.cells()
    results = combine(exp, cells, {c.key: run_cell(c.config, 3, exp.seed) for c in cells})
    table = sensitivity_table(results, exp)
    assert list(table.param) == sorted(table.param, key=lambda p: -abs(table.set_index("param").loc[p, "effect"]))
    assert set(table.param) == {"table_width_in", "ev_width_in"} and (table.p_holm >= table.p_value).all()
    for row in table.itertuples():  # the effect is the larger move from the default, signed
        moves = {row.low: row.rate_low - row.rate_default, row.high: row.rate_high - row.rate_default}
        assert row.effect == pytest.approx(max(moves.values(), key=abs)) and row.extreme in moves
        assert row.effect_low <= row.effect <= row.effect_high and 1 <= row.rank_low <= row.rank <= len(table)


def test_a_number_whose_low_end_is_its_default_is_measured_from_the_default():
    """chainsaw_hit_on plays 2 (its default) and 3: its effect is rate(3) - rate(default), and a mod's
    number is measured against a default cell with that mod on, not against the base game."""
    config = load_config(TWO)
    exp = sensitivity_experiment(config, 3, 1, enable={"mods": ("t_virus",)})
    labels = exp.axes[0].labels
    assert "t_virus:default" in labels and labels.index("t_virus:default") < labels.index("t_virus:tvirus_t=3")
    assert "chainsaw_hit_on=2" in labels and "chainsaw_hit_on=3" in labels


def test_mod_numbers_play_with_their_mod_on():
    config = load_config(TWO)
    exp = sensitivity_experiment(config, 10, 1, enable={"mods": ("t_virus",)})
    virus = [v for v in exp.axes[0].values if "tvirus_t" in v]
    assert virus == [{"mods": frozenset({"t_virus"}), "tvirus_t": 3}, {"mods": frozenset({"t_virus"}), "tvirus_t": 5}]
    assert not any("dk_max_t" in v for v in exp.axes[0].values)


def exact(table: dict, seed: int = 3):
    """A rate read off a table (linear between its values), on evenly spread uniforms: each grid
    point's rate is the table's exactly, with no sampling noise."""
    def evaluate(x: float, n: int) -> np.ndarray:
        u = (np.random.default_rng(seed).permutation(n) + 0.5) / n
        return u < float(np.interp(x, list(table), list(table.values())))
    return evaluate


def test_a_target_above_every_grid_rate_is_an_error_not_an_extrapolation():
    """The issue case (budget 30-150 for an 88% escape rate; the grid tops out at 87%): the old
    solver took the first grid step (np.argmax of no crossing) and extrapolated to 1290. Now the
    target is 'not reached on this grid', whichever path (logistic or bracket) the grid takes."""
    grid = {30: 0.48625, 50: 0.4925, 70: 0.50, 90: 0.52, 110: 0.80, 130: 0.86, 150: 0.87}
    with pytest.raises(ValueError, match="88% is not reached on this grid: the rate goes from 48.5% to 87.0%"):
        solve_curve(exact(grid), 30, 150, 0.88, 400)


def test_the_bracket_never_leaves_the_grid():
    from experiments.solve import _bracketed

    x, n = np.array([30, 50, 70]), 400
    with pytest.raises(ValueError, match="not reached on this grid"):
        _bracketed("budget", 0.88, x, np.array([194, 197, 200]), n, 0.1, True, 30, 70)
    s = _bracketed("budget", 0.49, x, np.array([194, 197, 200]), n, 0.1, True, 30, 70)
    assert 30 <= s.low <= s.value <= s.high <= 70


def test_a_hump_that_reaches_the_target_on_the_grid_is_named_not_called_out_of_range():
    """The issue's Boyz grid (8.2, 16.0, 23.2, 21.0, 17.0, 15.0, 9.2% over budget 30-150) for 20%:
    every rate above 20% has a Wilson interval that holds 20%, so the old check saw no crossing and
    advised 'widen --lo/--hi' though 23.2% is on the grid. Now: not monotone, the peak, and the
    two sub-ranges that hold one crossing each."""
    grid = {30: 0.082, 50: 0.16, 70: 0.232, 90: 0.21, 110: 0.17, 130: 0.15, 150: 0.092}
    with pytest.raises(ValueError, match=r"not monotone in x: it reaches 20% on this grid \(peak 23.2% at 70\) "
                       r"and crosses it 2 times .*--lo 30 --hi 70 or --lo 70 --hi 150"):
        solve_curve(exact(grid), 30, 150, 0.20, 400)
    s = solve_curve(exact(grid), 30, 70, 0.20, 400)  # the advice works: one side of the peak
    assert 50 <= s.low <= s.value <= s.high <= 70


def test_an_integer_parameters_interval_holds_only_whole_values():
    """The issue case: 'horde_size = 5.5 (95% interval 5.33-5.59)' holds no value horde_size can
    take. A whole-number parameter's interval ends on whole numbers around the fitted crossing."""
    from rich.console import Console

    from experiments.solve import render_solution

    s = solve_curve(synthetic(5.5, 0.3), 1, 12, 0.5, 400, integer=True)
    assert float(s.low).is_integer() and float(s.high).is_integer() and s.low <= 5 and s.high >= 6
    console = Console(record=True, width=200)
    render_solution(s, console)
    text = " ".join(console.export_text().split())
    assert "fitted between whole numbers" in text and f"95% interval {s.low:g} - {s.high:g};" in text
