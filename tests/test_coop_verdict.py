"""A cooperative game's verdict (issue 29, item 12): winnable against a target band, who carries
the team, a smooth difficulty curve. Constructed frames whose verdict is known; the games are
written out so that each rate is exact (game g is won when g < rate x games), except the carry
frames, drawn at a fixed seed."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from experiments import coop
from experiments.analyses import ANALYSES
from experiments.coop import band_verdict, parse_band, parse_jump
from experiments.findings import Played, View
from experiments.stats import paired_mean_difference


def _played(options: dict, results: pd.DataFrame, axis: str = "points") -> Played:
    spec = type("Spec", (), {"key": "s", "options": options})()
    experiment = type("Exp", (), {"axes": [type("Axis", (), {"name": axis})()]})()
    return Played(spec, experiment, View("extract"), type("R", (), {"results": results})())


def _side(rates: dict, n: int, axis: str = "points", seats: int = 2) -> pd.DataFrame:
    """Every seat of a game shares its result: game g of the cell at ``value`` is won when
    g < rate x n (so the cell's rate is exact and the cells are nested game by game)."""
    rows = [{"cell": f"{axis}={v}", f"axis_{axis}": v, "game": g, "player": p, "name": f"P{p}",
             "won": g < round(rate * n), "turns": 7, "reason": "extracted" if g < round(rate * n) else "time"}
            for v, rate in rates.items() for g in range(n) for p in range(seats)]
    return pd.DataFrame(rows)


def _winnable(rate: float, n: int, band=None):
    s = _played({"winnable": {"cell": "400", "at": "400 points"}, "who": "the players"}, _side({400: rate}, n))
    s.band = band
    ANALYSES["winnable"](s)
    return s.findings[0]


@pytest.mark.parametrize("rate, n, verdict", [(0.10, 1000, "too hard"), (0.85, 1000, "too easy"),
                                              (0.50, 1000, "inside the band"), (0.32, 200, "undecided")])
def test_the_scenario_is_judged_against_the_band_by_its_interval(rate, n, verdict):
    """At 30-70%: 10% of 1,000 (95% interval 8.3-12.0%) lies below, 85% above, 50% inside; 32% of
    200 (25.9-38.7%) straddles 30%."""
    finding = _winnable(rate, n)
    assert finding.label == verdict and finding.kind == "winnable"
    assert f"Winnable at 400 points: {verdict}." in finding.sentence and "30-70%" in finding.sentence


def test_the_verdict_names_the_cells_inside_the_band():
    s = _played({"winnable": {"cell": "400", "at": "400 points"}, "unit": " points"},
                _side({200: 0.02, 400: 0.10, 1200: 0.45}, 1000))
    ANALYSES["winnable"](s)
    assert s.findings[0].label == "too hard"
    assert s.findings[0].sentence.endswith("Of this section's cells, inside the band: 1200 points (45.0%).")
    s = _played({"winnable": {"cell": "400"}, "unit": " points"}, _side({200: 0.02, 400: 0.10}, 1000))
    ANALYSES["winnable"](s)
    assert "No cell of this section (200, 400 points) lies inside the band." in s.findings[0].sentence


def test_the_band_is_the_designers():
    finding = _winnable(0.10, 1000, band=(0.05, 0.15))
    assert finding.label == "inside the band" and "5-15%" in finding.sentence
    assert band_verdict(0.29, 0.71, (0.3, 0.7)) == "undecided"  # wider than the band: both edges


@pytest.mark.parametrize("bad", ["0.7,0.3", "0.3", "x,y", "-0.1,0.5", "0.3,1.2", "0.3,0.3"])
def test_a_bad_band_is_refused_in_one_line(bad):
    with pytest.raises(ValueError, match=f"--band '{bad}'; allowed: two rates lo,hi"):
        parse_band(bad)


def test_band_and_jump_parse():
    assert parse_band("0.3,0.7") == (0.3, 0.7) and parse_band(" 0.2, 0.5") == (0.2, 0.5)
    assert parse_jump("0.15") == 0.15
    for bad in ("0", "1.5", "x"):
        with pytest.raises(ValueError, match=f"--jump '{bad}'; allowed: points of rate"):
            parse_jump(bad)


def test_the_report_command_refuses_a_bad_band(tmp_path):
    run = [sys.executable, "-c", "from experiments.cli import run; run()"]
    bad = subprocess.run([*run, "report", "--band", "0.7,0.3", "--out", str(tmp_path)], capture_output=True,
                         text=True)
    assert bad.returncode == 2 and bad.stderr.startswith("error: --band '0.7,0.3'; allowed: two rates lo,hi")
    assert len(bad.stderr.strip().splitlines()) == 1 and not any(tmp_path.iterdir())


def _curve(rates: dict, n: int, jump=None):
    s = _played({"curve": {"axis": "points", "over": "points", "unit": " points"}}, _side(rates, n))
    s.jump = jump
    ANALYSES["curve"](s)
    return s.findings[0], s.tables[0].frame


def test_a_jump_between_neighbours_breaks_the_curve_and_is_named():
    """10% -> 20% -> 60% -> 65%: the step 2 -> 3 is +40 points, its interval wholly beyond ±20."""
    finding, frame = _curve({1: 0.10, 2: 0.20, 3: 0.60, 4: 0.65}, 2000)
    assert finding.label == "not smooth" and finding.fair is False
    assert "not smooth at 2 to 3 points: +40.0 points" in finding.sentence
    assert list(frame["within ±20"]) == ["within", "jump", "within"]


def test_a_step_against_the_curve_breaks_it():
    """10% -> 30% -> 15% -> 40%: the curve rises, the step 2 -> 3 falls 15 points (shown)."""
    finding, frame = _curve({1: 0.10, 2: 0.30, 3: 0.15, 4: 0.40}, 2000)
    assert finding.label == "not smooth" and "at 2 to 3 points: the extract rate goes the other way, -15.0 points" \
        in finding.sentence and "where the curve rises" in finding.sentence
    assert frame["within ±20"].iloc[1] == "reversal"


def test_one_value_is_no_curve():
    s = _played({"curve": {"axis": "points"}}, _side({400: 0.3}, 100))
    ANALYSES["curve"](s)
    assert s.findings == [] and s.tables == []


def test_a_smooth_curve_and_one_too_thin_to_tell():
    rates = {1: 0.10, 2: 0.20, 3: 0.30, 4: 0.40}
    finding, _ = _curve(rates, 2000)
    assert finding.label == "smooth" and finding.fair is True and "Bonferroni over 3 steps" in finding.sentence
    thin, _ = _curve(rates, 30)  # +10 points on 30 games: the intervals reach past ±20
    assert thin.label == "not shown smooth" and "more games would tell" in thin.sentence
    strict, _ = _curve(rates, 2000, jump=0.05)  # the designer's limit: 10-point steps are jumps at ±5
    assert strict.label == "not smooth" and "±5 points" in strict.sentence


def test_a_grid_is_judged_along_each_line_and_names_the_broken_step():
    """Points x players: 10/20% at 1 player, 15/60% at 2 (a +45-point jump from 400 to 800 points
    with 2 players); the players lines rise by 5 and 40."""
    rates = {(400, 1): 0.10, (800, 1): 0.20, (400, 2): 0.15, (800, 2): 0.60}
    labels = {c: f"{c[0]} pts, {c[1]} players" for c in rates}
    results = _side({labels[c]: r for c, r in rates.items()}, 2000, axis="points_players")
    s = _played({"curve": {"axis": "points_players", "grid": (" points", " players"), "over": "the grid"}},
                results, axis="points_players")
    s.experiment.axes[0].values, s.experiment.axes[0].labels = tuple(rates), tuple(labels.values())
    ANALYSES["curve"](s)
    finding, frame = s.findings[0], s.tables[0].frame
    assert len(frame) == 4 and "Bonferroni over 4 steps" in finding.sentence
    assert finding.label == "not smooth" and "not smooth at 400 to 800 points (2 players): +45.0 points" \
        in finding.sentence and "rises along 4 of the grid's 4 lines" in finding.sentence


def _armies(shares: dict, n: int = 1500, seed: int = 5) -> pd.DataFrame:
    """Four armies in every game, every game won; each army's Warlord aboard with its share."""
    rng = np.random.default_rng(seed)
    rows = []
    for g in range(n):
        for p, (army, share) in enumerate(shares.items()):
            rows.append({"cell": "trait=auto", "axis_trait": "auto", "game": g, "player": p, "name": army,
                         "army": army, "won": True, "extracted": int(rng.random() < share),
                         "zombies_killed": int(rng.poisson(40 + 20 * share))})
    return pd.DataFrame(rows)


CARRY = {"carry": {"by": "army", "cell": "auto", "share": "extracted", "given_win": True, "what": "army",
                   "kills": "zombies_killed", "per": "army", "share_words": "its Warlord aboard"}}


def test_the_army_that_carries_the_team_is_named_after_a_correction():
    s = _played(CARRY, _armies({"Ultramarines": 0.3, "Cadians": 0.3, "Goffs": 0.3, "Black Legion": 0.6}),
                axis="trait")
    ANALYSES["carry"](s)
    finding, frame = s.findings[0], s.tables[0].frame
    assert finding.label == "carried by Black Legion" and "ahead of every other army" in finding.sentence
    assert frame.army.iloc[0] == "Black Legion" and frame["vs Black Legion (points)"].iloc[1].endswith("*")


def test_equal_armies_have_no_carrier():
    """Four armies at 40%: the leader of 1,500 games is a chance leader, not shown ahead of all
    three others after Holm's correction (the family-wise error is at most 5%; seed fixed)."""
    s = _played(CARRY, _armies(dict.fromkeys(["Ultramarines", "Cadians", "Goffs", "Black Legion"], 0.4)),
                axis="trait")
    ANALYSES["carry"](s)
    assert s.findings[0].label == "no single army carries it" and "not shown ahead of" in s.findings[0].sentence


def test_a_class_of_several_men_is_one_share_per_game():
    """Two Gunmen alive in one game of two and dead in the other: the class's share is 50%."""
    rows = pd.DataFrame({"game": [0, 0, 1, 1], "class": "gunman", "survived": [1, 1, 0, 0]})
    assert coop.per_game_sides(rows, "class", "survived").gunman.tolist() == [1.0, 0.0]


def test_a_constant_difference_on_few_games_is_not_shown():
    """One game where the leader lived and the other died: the normal interval collapses, so the
    sign test decides (p = 1 for one game, 2 / 2^n for n)."""
    assert paired_mean_difference([1], [0]).p_value == 1.0
    assert paired_mean_difference([1] * 10, [0] * 10).p_value == pytest.approx(2 / 2**10)


def test_the_cooperative_sections_name_cells_they_play():
    """The verdict's cells are cells of their sections (a renamed cell would judge nothing)."""
    from experiments.report import suite
    from sim.ruleset import get

    judged = 0
    for rs in ("apocalypse", "outwest"):
        for s in suite(0.01, [get(rs)])[0].sections:
            labels = set(s.experiment.axes[0].labels)
            for name in ("winnable", "carry"):
                if name in s.spec.analyses:
                    assert str(s.spec.options[name]["cell"]) in labels
                    judged += 1
            if "curve" in s.spec.analyses:
                axis, grid = s.experiment.axes[0], "grid" in s.spec.options["curve"]
                assert s.spec.options["curve"]["axis"] == axis.name
                assert all(isinstance(x, int | float) for v in axis.values for x in (v if grid else (v,)))
                judged += 1
    assert judged == 8  # Apocalypse: winnable, the points, players and grid curves, carry; Out West: all three
