"""`shamble rebalance` (experiments/rebalance*.py): the search on games whose fair costs are known,
the validation that refuses a proposal tuned to noise, the patch, the command line and resuming.

Two synthetic games: a pure-Python evaluate plugged into `search` (sides whose win rate is their
strength share, strength = power / cost: fair exactly when every cost is proportional to its
side's power; common random numbers as fixed uniforms), and Runner Race (tests/priced_ruleset.py),
a registered ruleset with prices whose seats are symmetric: fair exactly when every team fields
as many runners as the others, played through `sim.play` like any ruleset. Zombie 40,000's
pricing is checked on its configs (costs patched, teams refitted), never on its results.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import priced_ruleset as pr
import pytest
from typer.testing import CliRunner

from experiments import rebalance as rb
from experiments import rebalance_evaluations as rb_evaluations
from experiments import rebalance_game as rb_game
from experiments import rebalance_output as rb_output
from experiments import rebalance_patch as rb_patch
from experiments import rebalance_search as rb_search
from experiments.cli import app
from sim import ruleset as registry
from sim.ruleset import Price, load_config

ROOT = Path(__file__).resolve().parents[1]
FOUR = ROOT / "examples" / "configs" / "four_players.toml"


# ---------------------------------------------------------------------------- a pure-Python game


class StrengthShare:
    """Side j wins a game with probability w_j / c_j / sum_i (w_i / c_i) (its strength share);
    ``n`` games per evaluation, the same uniforms for every candidate (common random numbers)."""

    def __init__(self, power: dict[str, float], n: int, margin: float, seed: int = 1) -> None:
        self.power, self.margin = power, margin
        self.uniforms = np.random.default_rng(seed).random((n, len(power)))
        self.calls = 0

    def rates(self, values) -> pd.Series:
        strength = pd.Series({s: w / float(values[s]) for s, w in self.power.items()})
        return strength / strength.sum()

    def __call__(self, values) -> rb_evaluations.Standing:
        self.calls += 1
        rates = self.rates(values)
        wins = pd.Series((self.uniforms < rates.to_numpy()[None, :]).sum(axis=0), index=rates.index)
        games = pd.Series(len(self.uniforms), index=rates.index)
        return rb_evaluations.standing(values, wins, games, self.margin, played=len(self.uniforms))


def _prices(start: dict[str, Fraction]) -> list[Price]:
    return [Price(s, v, Fraction(1, 10), Fraction(1), Fraction(100), (s,)) for s, v in start.items()]


POWER = {"Ghouls": 1.0, "Wights": 1.0, "Liches": 1.5, "Bats": 0.8}


def test_search_finds_the_known_fair_costs_within_its_margin():
    margin = 0.02
    game = StrengthShare(POWER, 20_000, margin)
    prices = _prices({s: Fraction(10) for s in POWER})
    found = rb_search.search(prices, game, rb_game.Settings(margin=margin, iterations=80, budget=10**9))
    assert found.stop == "converged" and found.result.fair
    exact = game.rates(found.proposal)  # the truth, without the noise of the search's games
    assert (exact - exact.mean()).abs().max() < margin
    # within ±margin of 1/4 every cost / power lies within (1 - 4 margin, 1 + 4 margin)^-1 of 4 / S:
    ratio = pd.Series({s: float(found.proposal[s]) / w for s, w in POWER.items()})
    assert ratio.max() / ratio.min() < (1 + 4 * margin) / (1 - 4 * margin)
    assert found.proposal["Liches"] > 10 > found.proposal["Bats"]  # the strong side dearer, the weak one cheaper
    for s in POWER:
        assert found.proposal[s] % Fraction(1, 10) == 0  # on the price's steps


def test_an_already_fair_game_changes_nothing():
    margin = 0.02
    game = StrengthShare(POWER, 20_000, margin)
    start = {s: Fraction(10) * Fraction(str(w)) for s, w in POWER.items()}  # costs proportional to power
    found = rb_search.search(_prices(start), game, rb_game.Settings(margin=margin))
    assert found.stop == "converged" and len(found.history) == 1
    assert found.proposal == start and found.reverted == []


def test_only_sides_outside_the_margin_move_and_the_revert_pass_undoes_what_is_not_needed():
    margin = 0.03
    power = {"Ghouls": 1.0, "Wights": 1.0, "Liches": 1.0, "Bats": 1.0}
    game = StrengthShare(power, 40_000, margin)
    start = {s: Fraction(10) for s in power} | {"Bats": Fraction(13)}  # Bats alone too dear
    found = rb_search.search(_prices(start), game, rb_game.Settings(margin=margin, iterations=60, budget=10**9))
    assert found.result.fair
    changed = {s for s in power if found.proposal[s] != start[s]}
    assert "Bats" in changed and found.proposal["Bats"] < 13
    for side in changed:  # every change that survives helps its side, or its revert pushes another out
        trial = game(found.proposal | {side: start[side]})
        dev_with, dev_without = abs(found.result.table.deviation[side]), abs(trial.table.deviation[side])
        helps = dev_with < dev_without and not trial.table.equivalent[side]
        assert helps or not set(trial.outside) <= set(found.result.outside), side


class Humped(StrengthShare):
    """Bats' strength peaks at cost 10 (1 - |cost - 10| / 10): cheaper than 10 is weaker too, so
    the search's rule (dearer = weaker) walks the wrong way from 8."""

    def rates(self, values) -> pd.Series:
        strength = pd.Series({s: 1.0 for s in self.power})
        strength["Bats"] = 1 - abs(float(values["Bats"]) - 10) / 10
        return strength / strength.sum()


def test_polish_finds_the_best_value_of_a_side_whose_rate_is_not_monotone_in_its_cost():
    margin = 0.02
    game = Humped(dict.fromkeys(["Ghouls", "Wights", "Liches", "Bats"], 1.0), 20_000, margin)
    start = {"Ghouls": Fraction(10), "Wights": Fraction(10), "Liches": Fraction(10), "Bats": Fraction(8)}
    prices = [Price(s, v, Fraction(1), Fraction(1), Fraction(30), (s,)) for s, v in start.items()]
    same = lambda a, b: a == b  # noqa: E731 - every value plays differently
    assert rb_search.neighbours(prices[3], start, same) == [7, 6, 9, 10]
    values, result, polished, games = rb_search.polish(prices, start, game(start), game, same)
    assert values["Bats"] == 10 and polished == ["Bats"] and result.fair and games == 4 * 20_000
    found = rb_search.search(prices, game, rb_game.Settings(margin=margin, iterations=20, budget=10**9), same)
    assert found.result.fair and found.proposal["Bats"] == 10, found.proposal
    runs = lambda a, b: a["Bats"] // 2 == b["Bats"] // 2  # noqa: E731 - values play alike in pairs
    assert rb_search.neighbours(prices[3], start, runs) == [7, 5, 10, 12]


def test_polish_keeps_only_trials_that_bring_the_price_own_sides_nearer_the_mean():
    """At A = 9 fewer sides are outside (B and C come in) but A itself goes farther out: refused;
    A = 11 brings A nearer and puts no more sides out: kept (8 and 12 are worse for A)."""
    table = {8: (.45, .20, .20, .15), 9: (.35, .25, .25, .15), 10: (.30, .20, .20, .30), 11: (.29, .21, .21, .29),
             12: (.10, .30, .30, .30)}
    n = 100_000

    def evaluate(values):
        rates = pd.Series(table[int(values["A"])], index=list("ABCD"))
        return rb_evaluations.standing(values, (rates * n).round(), pd.Series(n, index=rates.index), 0.03, played=n)

    prices = [Price("A", Fraction(10), Fraction(1), Fraction(1), Fraction(20), ("A",))]
    start = {"A": Fraction(10)}
    values, result, polished, _ = rb_search.polish(prices, start, evaluate(start), evaluate, lambda a, b: a == b)
    assert values == {"A": 11} and polished == ["A"] and len(result.outside) == 4


def test_gain_sequence_and_rounding():
    assert rb_search.gain(0) > rb_search.gain(1) > rb_search.gain(100) > 0
    assert rb_search.gain(0) == pytest.approx(rb_search.GAIN / (1 + rb_search.STABILITY) ** rb_search.ALPHA)
    price = Price("Grey Knight", Fraction(20), Fraction(1, 5), Fraction(7), Fraction(60), ("Grey Knights",))
    up = rb_search.candidate([price], {"Grey Knight": 0.07})["Grey Knight"]
    assert up == Fraction(107, 5)  # 20 x e^0.07 = 21.45 -> 21.4 on fifths of a point
    assert rb_search.candidate([price], {"Grey Knight": 5.0})["Grey Knight"] == 60  # within the price's bounds
    assert rb_search._steps_between(Fraction(20), Fraction(21), Fraction(1, 2)) == [Fraction(41, 2), Fraction(21)]
    assert rb_search._steps_between(Fraction(20), Fraction(19), Fraction(1, 2)) == [Fraction(39, 2), Fraction(19)]


def test_least_change_moves_a_price_back_while_the_game_stays_the_same():
    price = Price("A", Fraction(3), Fraction(1), Fraction(1), Fraction(12), ("A",))
    plays = lambda v: 12 // v  # noqa: E731 - runners bought with 12 points
    same = lambda a, b: plays(a["A"]) == plays(b["A"])  # noqa: E731
    assert rb_search.least_change([price], {"A": Fraction(6)}, same) == {"A": Fraction(5)}  # 5 and 6 both buy 2
    assert rb_search.least_change([price], {"A": Fraction(4)}, same) == {"A": Fraction(4)}


def test_settings_refuse_bad_values_in_one_line():
    for kwargs, words in (({"margin": 0}, "--margin 0"), ({"games": 0}, "--games 0"),
                          ({"seed": 5, "validate_seed": 5}, "--validate-seed 5"), ({"budget": -1}, "--budget -1")):
        with pytest.raises(rb_game.RebalanceError, match=words) as err:
            rb_game.Settings(**kwargs)
        assert "\n" not in str(err.value)


# ---------------------------------------------------------------------------- Runner Race, played


@pytest.fixture
def runner_race():
    registry.register(pr.RULESET)
    yield pr.RULESET
    registry.unregister(pr.ID)


def race(costs: dict[str, int], teams: str = "ABC") -> pr.Config:
    return pr.Config(tuple(pr.Player(f"P{k + 1}", t) for k, t in enumerate(teams)), costs=costs)


def race_file(tmp_path: Path, costs: dict[str, int], teams: str = "ABC") -> Path:
    lines = ['ruleset = "runner_race"', "[params]",
             "costs = { " + ", ".join(f"{t} = {c}" for t, c in costs.items()) + " }"]
    for k, t in enumerate(teams):
        lines += ["[[players]]", f'name = "P{k + 1}"', f'team = "{t}"']
    path = tmp_path / "race.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def runners(config: pr.Config) -> dict[str, int]:
    return {p.team: config.runners(p.team) for p in config.players}


UNFAIR = {"A": 3, "B": 4, "C": 6}  # 4, 3 and 2 runners
SETTINGS = rb_game.Settings(margin=0.05, games=1500, iterations=30, budget=60_000, seed=11)


def test_runner_race_search_finds_equal_teams_and_passes_validation(runner_race, tmp_path):
    config = race(UNFAIR)
    done = rb.rebalance(config, SETTINGS, tmp_path / "out")
    assert done.search.stop == "converged" and done.passed
    patched = rb_patch.apply_patch(config, tmp_path / "out" / "proposal.toml")
    assert len(set(runners(patched).values())) == 1, runners(patched)  # the known fair costs: equal teams
    assert dict(patched.costs) == {k: str(v) for k, v in done.search.proposal.items() if v != pr.DEFAULT_COST}
    assert done.validation.seed != SETTINGS.seed
    assert done.validation.games_per_cell == rb_game.VALIDATE_FACTOR * SETTINGS.games
    assert done.validation.before.outside  # before: unfair on the fresh games too
    patch = tomllib.loads((tmp_path / "out" / "proposal.toml").read_text())
    assert patch["validated"] is True and patch["ruleset"] == pr.ID
    assert {c["key"]: (Fraction(c["old"]), Fraction(c["new"])) for c in patch["change"]} == {
        p.key: (p.value, new) for p, new in done.changes}
    for name in ("before_after.csv", "matchups_before.csv", "matchups_after.csv", "search.csv", "search_prices.csv",
                 "search.png", "search.svg", "summary.json", "meta.json"):
        assert (tmp_path / "out" / name).stat().st_size > 0, name
    table = pd.read_csv(tmp_path / "out" / "before_after.csv")
    assert set(table.side) == set("ABC") and (table.within_after == "yes").all()
    assert (table.ci_low_after <= table.rate_after).all() and (table.rate_after <= table.ci_high_after).all()
    matchups = pd.read_csv(tmp_path / "out" / "matchups_after.csv")
    assert set(zip(matchups.side, matchups.opponent)) == {(a, b) for a in "ABC" for b in "ABC" if a != b}
    search = pd.read_csv(tmp_path / "out" / "search.csv")
    assert search.candidate.nunique() == len(done.search.history)


def test_runner_race_already_fair_changes_nothing(runner_race, tmp_path):
    done = rb.rebalance(race({"A": 4, "B": 4, "C": 4}), SETTINGS, tmp_path / "out")
    assert done.passed and done.changes == [] and len(done.search.history) == 1
    assert "[[change]]" not in (tmp_path / "out" / "proposal.toml").read_text()
    assert done.validation.after.table.equals(done.validation.before.table)


TINY = rb_game.Settings(margin=0.05, games=20, iterations=1, budget=10_000, seed=11, validate_games=3000)
FAR = {"A": 1, "B": 4, "C": 12}  # 12, 3 and 1 runners: one candidate and the polish pass (two plays each way:
# A at most 3, 4 runners; C at least 4, 3 runners) cannot even them


def test_a_tiny_search_budget_is_caught_by_validation(runner_race, tmp_path):
    """20 games per candidate and 1 candidate: the search proposes changes (its polish follows its
    noise) that do not make the teams equal; the fresh games refuse them: FAILED."""
    done = rb.rebalance(race(FAR), TINY, tmp_path / "out")
    assert done.changes and done.search.stop != "converged"
    assert len(set(runners(rb_patch.apply_patch(race(FAR), tmp_path / "out" / "proposal.toml")).values())) > 1
    assert not done.passed and done.validation.after.outside
    assert rb_output.verdict_line(done).startswith("FAILED") and rb_output.summary(done)["status"] == "FAILED"
    assert tomllib.loads((tmp_path / "out" / "proposal.toml").read_text())["validated"] is False


def test_validation_ignores_what_the_search_claims(runner_race, monkeypatch):
    """A search that says its proposal is fair on its own games (here forced: even rates) is still
    judged on the fresh games only: unequal teams FAIL."""
    unfair = {k: Fraction(v) for k, v in UNFAIR.items()}
    even = pd.Series(500, index=list("ABC"))
    claim = rb_evaluations.standing(unfair, even, even * 3, 0.05)
    assert claim.fair
    monkeypatch.setattr(rb, "search", lambda *a, **k: rb_search.Search([claim], "converged", 0, unfair, claim))
    done = rb.rebalance(race({"A": 4, "B": 4, "C": 4}), SETTINGS)
    assert done.changes and done.search.stop == "converged"
    assert not done.passed and rb_output.verdict_line(done).startswith("FAILED")


def test_cli_prints_a_failed_proposal_and_exits_1(runner_race, tmp_path):
    config = race_file(tmp_path, FAR)
    result = CliRunner().invoke(app, ["rebalance", str(config), "--margin", "0.05", "-n", "20", "--iterations", "1",
                                      "--seed", "11", "--validate-games", "3000", "--out", str(tmp_path / "o")])
    assert result.exit_code == rb.FAILED == 1, result.output
    assert "FAILED" in result.stdout and "PASSED" not in result.stdout


def test_cli_json_passes_and_resumes_to_the_same_proposal(runner_race, tmp_path, monkeypatch):
    config = race_file(tmp_path, UNFAIR)
    args = ["rebalance", str(config), "--margin", "0.05", "-n", "1500", "--iterations", "30", "--budget", "60000",
            "--seed", "11", "--json"]
    whole = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "whole")])
    assert whole.exit_code == 0, whole.output
    summary = __import__("json").loads(whole.stdout)
    assert summary["passed"] and summary["status"] == "passed" and summary["changes"]

    import experiments.rebalance_evaluations as module

    real, calls = module.run_cell, []

    def interrupted(*a, **k):  # Ctrl-C after the third cell played
        calls.append(1)
        if len(calls) > 3:
            raise KeyboardInterrupt
        return real(*a, **k)

    monkeypatch.setattr(module, "run_cell", interrupted)
    cut = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "cut")])
    assert cut.exit_code == 130 and "rerun the same command to resume" in cut.stderr
    kept = sorted(p.name for p in (tmp_path / "cut" / "evaluations").iterdir())
    assert len(kept) == 3
    monkeypatch.setattr(module, "run_cell", real)
    played = []
    monkeypatch.setattr(module, "run_cell", lambda *a, **k: played.append(1) or real(*a, **k))
    again = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "cut")])
    assert again.exit_code == 0, again.output
    assert len(played) == len(list((tmp_path / "whole" / "evaluations").iterdir())) - 3  # the kept cells reused
    assert (tmp_path / "cut" / "proposal.toml").read_text() == (tmp_path / "whole" / "proposal.toml").read_text()


def test_cli_errors_are_one_line_exit_2(runner_race, tmp_path):
    config = race_file(tmp_path, UNFAIR)
    for args, words in ((["--margin", "0.7"], "error: --margin 0.7"), (["--mode", "multiplier"], "error: --mode"),
                        (["-n", "0"], "error: --games 0"), (["--seed", "3", "--validate-seed", "3"],
                                                             "error: --validate-seed 3")):
        result = CliRunner().invoke(app, ["rebalance", str(config), *args, "--out", str(tmp_path / "o")])
        assert result.exit_code == 2, (args, result.output)
        assert result.stderr.startswith(words) and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("config", ["examples/outwest/hold.toml", "examples/zombies9/four_players_base.toml"])
def test_rulesets_without_prices_say_so_in_one_line(config, tmp_path):
    run = subprocess.run([sys.executable, "-c", "from experiments.cli import run; run()", "rebalance",
                          str(ROOT / config)], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    rid = load_config(ROOT / config).ruleset
    assert run.returncode == 2 and run.stderr == f"error: {rid} has nothing to price\n", run.stderr
    assert not run.stdout and not any(tmp_path.iterdir())  # nothing played, no folder made


def test_a_patch_of_another_ruleset_or_a_bad_patch_is_one_line(runner_race, tmp_path):
    patch = tmp_path / "p.toml"
    patch.write_text('ruleset = "zombie40k"\nmode = "per-model"\n')
    with pytest.raises(rb_game.RebalanceError, match="the patch prices zombie40k; the config is runner_race"):
        rb_patch.apply_patch(race(UNFAIR), patch)
    patch.write_text('ruleset = "runner_race"\nmode = "per-model"\n[[change]]\nkey = "A"\nold = "3"\nnew = "-1"\n')
    with pytest.raises(rb_game.RebalanceError, match=r"change\[0\].new = '-1'"):
        rb_patch.load_patch(patch)


def test_report_rebalance_section_is_off_by_default(runner_race, tmp_path, monkeypatch):
    from experiments.report import run_report

    monkeypatch.setattr(pr.RunnerRace, "report_sections", lambda self, scale=1.0: [pr._game(race(UNFAIR))],
                        raising=False)
    plain = run_report("plain", tmp_path, scale=1.0, rulesets=[pr.ID])
    assert "Rebalance" not in (plain / "README.md").read_text() and not (plain / "data" / pr.ID / "rebalance").exists()
    with_it = run_report("priced", tmp_path, scale=0.05, rulesets=[pr.ID], rebalance=True)
    readme = (with_it / "README.md").read_text()
    assert "Rebalance: the costs that would make the sides fair" in readme
    assert "PASSED" in readme or "FAILED" in readme
    assert (with_it / "data" / pr.ID / "rebalance" / "proposal.toml").exists()


# ---------------------------------------------------------------------------- Zombie 40,000's prices


def test_zombie40k_per_model_patch_prices_the_main_unit_and_refits_the_teams(tmp_path):
    from sim.rulesets.zombie40k.compile import catalogue_for
    from sim.rulesets.zombie40k.pricing import PRICING
    from sim.rulesets.zombie40k.teams import fill_model, team_cost

    config = load_config(FOUR)
    prices = {p.key: p for p in PRICING.prices(config, "per-model")}
    main = {p.team.name: catalogue_for(config).unit(fill_model(p.team).unit).name for p in config.players}
    assert set(prices) == set(main.values())
    unit = main[config.players[0].team.name]
    old = prices[unit].value
    new = old - 1 if old > 2 else old + 1
    patch = tmp_path / "proposal.toml"
    patch.write_text(f'ruleset = "zombie40k"\nmode = "per-model"\n[[change]]\nkey = "{unit}"\nold = "{old}"\n'
                     f'new = "{new}"\n')
    patched = rb_patch.apply_patch(config, patch)
    assert dict(patched.unit_costs) == {unit: str(new)}
    cat = catalogue_for(patched)
    assert cat.unit(unit).cost_per_model == new
    for before, after in zip(config.players, patched.players):
        assert team_cost(after.team, cat) <= patched.team_budget  # refitted to the budget at the new costs
        if main[before.team.name] != unit:
            assert after.team == before.team  # a price of another unit changes nothing here
        elif new < old:
            assert len(after.team.models) >= len(before.team.models)
        else:
            assert len(after.team.models) <= len(before.team.models)
    assert rb_patch.apply_patch(config, tmp_path / "proposal.toml") == patched  # a patch applies the same way twice


def test_zombie40k_multiplier_refits_a_team_to_its_budget_over_its_factor():
    from sim.rulesets.zombie40k.compile import catalogue_for
    from sim.rulesets.zombie40k.pricing import PRICING
    from sim.rulesets.zombie40k.teams import team_cost

    config = load_config(FOUR)
    name = config.players[0].team.name
    patched = PRICING.apply(config, "multiplier", {name: Fraction(3, 2)})
    assert dict(patched.team_cost_factors) == {name: "3/2"}
    cost = team_cost(patched.players[0].team, catalogue_for(patched))
    assert cost * Fraction(3, 2) <= patched.team_budget < team_cost(config.players[0].team, catalogue_for(config)) \
        * Fraction(3, 2)
    assert patched.players[1:] == config.players[1:]
    assert PRICING.apply(config, "multiplier", {name: Fraction(1)}) == config


def test_zombie40k_unpriced_configs_are_unchanged_and_bad_tables_are_one_line():
    from sim.rulesets.zombie40k.config import ConfigError, make_config
    from sim.rulesets.zombie40k.pricing import PRICING

    config = load_config(FOUR)
    assert config.unit_costs == () and config.team_cost_factors == ()
    assert PRICING.apply(config, "per-model", {}) == config  # the example teams already fit their budget
    player = config.players[0]
    for bad in ({"Hormagaunt": 0}, {"Hormagaunt": "x"}, [1, 2], {"Hormagaunt": True}):
        with pytest.raises(ConfigError) as err:
            make_config((player,), {"unit_costs": bad}, source="f.toml")
        assert str(err.value).startswith("f.toml: unit_costs") and "\n" not in str(err.value)
    assert make_config((player,), {"unit_costs": {"Grey Knight": "93/5"}}).unit_costs == (("Grey Knight", "93/5"),)
    assert make_config((player,), {"team_cost_factors": {"Tau": 1.15}}).team_cost_factors == (("Tau", "23/20"),)


def test_zombie40k_rates_are_wins_and_its_game_is_a_report_section():
    from sim.rulesets.zombie40k.pricing import PRICING

    assert (PRICING.rate, PRICING.rate_word) == ("won", "")
    game = rb_game.rebalance_game(load_config(FOUR))
    assert (game.games, game.budget) == (rb_game.GAMES, rb_game.BUDGET)  # its section names no sizes: the command's


# ---------------------------------------------------------------------------- the report's section


APOCALYPSE_FOUR = ROOT / "examples" / "apocalypse" / "configs" / "four_players.toml"


def test_rebalance_fingerprint_covers_every_cell_of_the_game():
    """The key of the report's rebalance section: every cell of the game (not only its base), the
    validation's seed and games and the proposal's changes."""
    config = load_config(APOCALYPSE_FOUR)
    game = rb_game.rebalance_game(config)
    assert len(game.cells) == 7
    key = rb_game.fingerprint(game, game.start, 5, 100)
    assert key == rb_game.fingerprint(rb_game.rebalance_game(config), dict(game.start), 5, 100)
    for k in (0, 3, 6):
        cell = game.cells[k]
        other = replace(cell, config=replace(cell.config, foggy=not cell.config.foggy))
        assert rb_game.fingerprint(replace(game, cells=game.cells[:k] + (other,) + game.cells[k + 1:]), game.start, 5,
                              100) != key, k
    price = game.prices[0]
    assert rb_game.fingerprint(game, game.start | {price.key: price.value + price.step}, 5, 100) != key
    assert rb_game.fingerprint(game, game.start, 6, 100) != key and rb_game.fingerprint(game, game.start, 5, 101) != key


def test_report_rebalance_section_takes_its_sizes_from_the_game_and_keys_every_cell(runner_race, tmp_path,
                                                                                   monkeypatch):
    from experiments.findings import Played, View
    from experiments.report import Part, rebalance_section
    from experiments.sections import experiment_of

    def sized(config):
        return replace(pr._game(config), options={"search_games": 12, "search_budget": 700})

    monkeypatch.setattr(pr.RunnerRace, "pricing", lambda self: replace(pr.PRICING, game=sized))
    config = race(UNFAIR)
    game = rb_game.rebalance_game(config)
    assert (game.games, game.budget) == (12, 700)
    spec = pr._game(config)
    part = Part(pr.RULESET, [Played(spec, experiment_of(spec), View("win"))])
    section = rebalance_section(part, 1.0, tmp_path / "r")
    summary = json.loads((tmp_path / "r" / "summary.json").read_text())
    assert (summary["settings"]["games"], summary["settings"]["budget"]) == (12, 700)  # not the command's 800
    v = summary["validation"]
    proposal = game.start | rb_patch.load_patch(tmp_path / "r" / "proposal.toml").values
    assert section.result.meta["experiment_hash"] == rb_game.fingerprint(game, proposal, v["seed"], v["games_per_cell"])
    rebalance_section(part, 0.5, tmp_path / "half")
    half = json.loads((tmp_path / "half" / "summary.json").read_text())
    assert (half["settings"]["games"], half["settings"]["budget"]) == (10, 350)  # times the scale, at least 10


def test_zombie40k_standard_game_is_the_default_game():
    game = rb_game.rebalance_game(load_config(FOUR))
    assert game.mode == "per-model" and len(game.cells) == 13 and game.side == "team"
    teams = {s for p in game.prices for s in p.sides}
    assert len(teams) == 13
    assert rb_game.rebalance_game(load_config(FOUR), "multiplier").prices[0].what == "cost multiplier"
    with pytest.raises(rb_game.RebalanceError, match="--mode 'bogus'; allowed: per-model, multiplier"):
        rb_game.rebalance_game(load_config(FOUR), "bogus")
