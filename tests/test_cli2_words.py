"""The report's sentences (issue 29, item 14): each case the review quoted."""

from __future__ import annotations

import pandas as pd

from experiments import analyses, findings
from experiments.analyses import equivalence
from experiments.findings import change_text, rate_interval, the
from experiments.stats import wilson_interval
from sim.ruleset import get, players_are_people_of


def test_a_change_from_almost_nothing_is_a_factor_not_plus_1887_percent():
    assert change_text(0.001, 0.0197, 0.01, 0.03).endswith("; ×20)")
    assert change_text(0.014, 0.002, -0.016, -0.008).endswith("; -86%)")


def test_seats_take_no_article_and_possessives_of_plurals_take_an_apostrophe():
    assert the("Seat 1") == "Seat 1" and the("seat 2") == "seat 2" and the("Marines") == "the Marines"
    wins = pd.Series([300, 310, 330], index=["Cadians", "Tau", "Orks"])
    games = pd.Series([1000] * 3, index=wins.index)
    sentence = analyses._verdict_of(equivalence(wins / games, wins, games, 0.03), "factions", 0.03, "win").sentence
    assert "'s interval" not in sentence.replace("Orks's", "") and "s's" not in sentence


def test_a_rate_near_0_or_1_shows_its_lopsided_interval():
    low, high = wilson_interval(3, 750)
    assert rate_interval(0.004, float(low), float(high)) == f"0.4% ({low:.1%}-{high:.1%})"
    assert rate_interval(0.34, 0.32, 0.36) == "34% (±2)"


def _rows(values, rates, n=2000):
    wins = [round(r * n) for r in rates]
    low, high = wilson_interval(wins, n)
    return pd.DataFrame({"value": values, "rate": rates, "ci_low": low, "ci_high": high})


def test_a_side_that_plays_part_of_the_range_is_named_with_its_values():
    """'Going from 2 to 6 players moves the Cat from 34% to 17%': the Cat plays from 3 players."""
    text = analyses._moves("Cat", _rows([3, 4, 5, 6], [0.34, 0.28, 0.22, 0.17]), 2, 6, " players")
    assert text == "the Cat from 34% at 3 to 17% at 6 players (it plays only those)"


def test_a_peak_between_the_ends_is_said():
    """'moves the Boyz from 17% to 9.4%' hid a peak of 24% at 75 points."""
    text = analyses._moves("Boyz", _rows([50, 75, 100, 150], [0.17, 0.24, 0.15, 0.094]), 50, 150, " points")
    assert text == "the Boyz from 17% to 9.4%, peaking at 24% at 75"
    flat = analyses._moves("Tau", _rows([50, 75, 100], [0.20, 0.205, 0.19]), 50, 100, " points")
    assert "peaking" not in flat and "down to" not in flat


def test_the_end_split_does_not_call_a_0_percent_end_usual():
    split = pd.DataFrame({"helipad": [0.6, 0.0], "cemetery": [0.1, 0.974]}, index=["base", "alone"])
    spec = type("Spec", (), {"key": "s", "options": {"titles": {"alone": "Ashes to Ashes alone"}}})()
    sentence = analyses._split_sentence(split, analyses.Played(spec, None, analyses.View("win")))
    assert "the usual" not in sentence and "apart from helipad (the most common end over all cells; 0.0% of these" \
        in sentence


def test_the_report_shows_auto_where_0_means_worked_out():
    from pathlib import Path

    from sim.ruleset import load_config

    base = load_config(Path(__file__).resolve().parents[1] / "examples" / "configs" / "two_players.toml")
    s = analyses.Played(type("Spec", (), {"key": "s", "options": {}})(), type("E", (), {"base": base})(),
                        analyses.View("escape"))
    assert analyses.shown_value(s, "table_width_in", 0.0) == "auto"
    assert analyses.shown_value(s, "table_width_in", 60.0) == "60.0"


def test_the_end_split_table_has_no_empty_reason_column():
    """11 of 40 HTML tables had an empty first column headed `reason` (the crosstab's column name)."""
    games = pd.DataFrame({"label": ["a", "a", "b"], "reason": ["helipad", "dead", "helipad"]})
    html = analyses.outcome_split(games).reset_index(names="mode").to_html(index=False)
    assert "reason" not in html and html.count("<tr") == 3


def test_people_take_no_article(monkeypatch):
    """'moves the Cat from 34% to 17%': Zombies!!!'s players are people. A ruleset that says
    `players_are_people` has its players' names left bare."""
    monkeypatch.setattr(findings, "PEOPLE", {"Cat"})
    assert the("Cat") == "Cat" and the("Marines") == "the Marines"
    assert players_are_people_of(get("zombies9")) and not players_are_people_of(get("zombie40k"))


def test_a_side_at_one_value_is_said_once():
    """'the Fay from 17% at 6 to 17% at 6 players (it plays only those)' says one number twice."""
    one = pd.DataFrame({"value": [6], "rate": [0.17], "ci_low": [0.15], "ci_high": [0.19]})
    assert analyses._moves("Fay", one, 2, 6, " players") == "the Fay 17% at 6 players (the only value it plays)"
