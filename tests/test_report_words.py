"""The report's words and judgements on synthetic tables: rounding that keeps small rates
visible, headlines that name a significant result or say none is, the equivalence test of the
verdict, seats, the matchup matrix with intervals."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from experiments import analyses
from experiments.analyses import equivalence
from experiments.findings import Played, View, change_text, points_text, rate_text


def test_small_rates_keep_a_decimal_and_a_relative_change():
    assert rate_text(0.014) == "1.4%" and rate_text(0.34) == "34%" and rate_text(0.955) == "95.5%"
    assert points_text(0.003) == "±0.3" and points_text(0.021) == "±2"
    assert change_text(0.014, 0.002, -0.016, -0.008) == \
        "from 1.4% to 0.2% (-1.2 points, 95% CI -1.6 to -0.8; -86%)"
    assert "%;" not in change_text(0.40, 0.45, 0.01, 0.09) and "; " not in change_text(0.40, 0.45, 0.01, 0.09)


def _played(options: dict) -> Played:
    spec = type("Spec", (), {"key": "s", "options": options})()
    return Played(spec, None, View("escape"))


def _table(diffs, flagged, no_effect=None) -> pd.DataFrame:
    n = len(diffs)
    return pd.DataFrame({"label": [f"m{k}" for k in range(n)], "name": "Guard", "rate": 0.5 + np.array(diffs),
                         "reference_rate": 0.5, "diff": diffs, "ci_low": np.array(diffs) - 0.02,
                         "ci_high": np.array(diffs) + 0.02, "flagged": flagged,
                         "no_effect": no_effect if no_effect is not None else [False] * n})


def test_a_headline_names_the_largest_significant_change():
    table = _table([0.30, -0.10, 0.05], [False, True, True])
    words = analyses._headline(table, False, _played({}))
    assert words.startswith("Under m1 the Guard escape from 50% to 40%")  # m0 is larger but not significant


def test_a_headline_says_when_nothing_is_significant():
    words = analyses._headline(_table([0.03, -0.01], [False, False]), False, _played({}))
    assert words.startswith("No change is significant after Holm's correction; the largest estimate is m0")


def test_equivalence_against_the_margin():
    """Rates 0.30 .. 0.33 and 0.44 over 10,000 games each: the mean is 0.34; the first four lie
    within ±5 points at 90% (equivalent; their half-widths are under a point), the last one's 95%
    interval lies wholly above +5 (outside)."""
    wins = pd.Series([3000, 3100, 3200, 3300, 4400], index=list("abcde"))
    games = pd.Series([10_000] * 5, index=wins.index)
    eq = equivalence(wins / games, wins, games, 0.05)
    assert eq.attrs["mean"] == pytest.approx(0.34)
    assert list(eq.equivalent) == [True] * 4 + [False] and list(eq.outside) == [False] * 4 + [True]
    finding = analyses._verdict_of(eq, "factions", 0.05, "escape")
    assert finding.fair is False and finding.sentence.startswith("Factions: not fair. e: escape rate 44%")
    fair = analyses._verdict_of(eq.drop(index="e").assign(), "factions", 0.05, "escape")
    assert fair.fair is True


def test_too_few_games_cannot_show_fairness():
    wins = pd.Series([30, 31, 33], index=["a", "b", "c"])
    games = pd.Series([100] * 3, index=wins.index)
    finding = analyses._verdict_of(equivalence(wins / games, wins, games, 0.05), "seats", 0.05, "win")
    assert finding.fair is None and "not shown fair" in finding.sentence


def _results(rates: dict, n: int, seed: int = 1) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for cell, (a_rate, b_rate) in rates.items():
        a = rng.random(n) < a_rate
        b = ~a & (rng.random(n) < b_rate / max(1e-9, 1 - a_rate))
        for g in range(n):
            rows += [{"cell": cell, "game": g, "player": 0, "won": a[g]}, {"cell": cell, "game": g, "player": 1,
                                                                           "won": b[g]}]
    return pd.DataFrame(rows)


def test_seat_advantage_is_measured_with_a_test():
    res = _results({"x": (0.30, 0.20)}, 3000)
    s = _played({})
    s.result = type("R", (), {"results": res})()
    analyses.seats(s)
    table, finding = s.tables[0], s.findings[0]
    assert list(table.frame.seat) == ["seat 1", "seat 2"] and finding.what == "seats"
    assert "exact binomial test of equal seats: p = " in table.sentence and finding.fair is not True
    assert list(table.frame.players) == [2, 2] and "share of one-winner games" in table.frame


def test_a_name_with_its_article_is_not_given_a_second():
    """Out West's side is "the posse": headlines said "for the the posse" and "the the posse survive"."""
    assert analyses.the("the posse") == "the posse" and analyses.the("Marines") == "the Marines"
    assert analyses.capital(analyses.the("the posse")) == "The posse"
    for flagged in ([False, False], [True, False]):
        words = analyses._headline(_table([0.03, -0.01], flagged).assign(name="the posse"), False, _played({}))
        assert "the the" not in words and "the posse" in words


def test_a_side_that_wins_together_has_one_row_per_cell():
    """A cooperative game (option ``who``): every player of a game shares its result, so the
    outcomes table shows the side's rate once per cell, not four identical rows (Apocalypse)."""
    from experiments.sweep import summarise_cells

    rng = np.random.default_rng(3)
    rows = []
    for cell, p_win in (("a", 0.3), ("b", 0.6)):
        for game in range(200):
            won = bool(rng.random() < p_win)
            for seat in range(4):
                rows.append({"cell": cell, "axis_x": cell, "game": game, "player": seat, "name": f"P{seat}",
                             "won": won, "reason": "extracted" if won else "time", "turns": 7})
    results = pd.DataFrame(rows)
    spec = type("Spec", (), {"key": "s", "options": {"who": "the players"}})()
    experiment = type("Exp", (), {"axes": [type("Axis", (), {"name": "x"})()]})()
    result = type("Result", (), {"results": results, "summary": summarise_cells(results)})()
    played = Played(spec, experiment, View("extract"), result)
    analyses.outcomes(played)
    assert len(played.tables[0].frame) == 2 and "the players" in played.tables[0].sentence
