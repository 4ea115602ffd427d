"""Paired comparisons of sweep cells (experiments.compare): one set of games per row, cells that
play the reference's games exactly, and the variance ratio of the pairing."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from experiments.compare import paired_table


def _cells(outcomes: dict[str, np.ndarray]) -> pd.DataFrame:
    """A results frame of one player: one cell per label, game i of each cell its outcome i."""
    frames = []
    for label, won in outcomes.items():
        n = len(won)
        frames.append(pd.DataFrame({"cell": label, "axis_mods": label, "game": np.arange(n), "player": 0,
                                    "name": "Solo", "won": won, "turns": 10 + np.arange(n) % 3}))
    return pd.concat(frames, ignore_index=True)


def test_every_number_of_a_row_is_on_the_same_games():
    """With sequential sampling a cell may have played more games than the reference: the rates,
    the difference and its interval all use the games both played (the first 60 here)."""
    rng = np.random.default_rng(5)
    base, more = rng.random(60) < 0.5, rng.random(100) < 0.5
    more[60:] = True  # the extra 40 games, all won: the whole cell's rate would be far above its first 60
    table = paired_table(_cells({"base": base, "t_virus": more}), "axis_mods", "base")
    row = table.iloc[0]
    assert row.games == 60 and row.rate == pytest.approx(more[:60].mean())
    assert row["diff"] == pytest.approx(more[:60].mean() - base.mean())


def test_a_cell_that_plays_the_reference_games_is_no_effect_and_leaves_the_holm_family():
    rng = np.random.default_rng(6)
    base = rng.random(200) < 0.4
    changed = base.copy()
    changed[:30] = ~changed[:30]
    table = paired_table(_cells({"base": base, "lore_friendly": base.copy(), "hardcore": changed}), "axis_mods",
                         "base").set_index("label")
    assert bool(table.loc["lore_friendly", "no_effect"]) and not table.loc["lore_friendly", "flagged"]
    assert np.isnan(table.loc["lore_friendly", "p_holm"])
    assert table.loc["hardcore", "p_holm"] == pytest.approx(table.loc["hardcore", "p_exact"])  # a family of one
    assert not bool(table.loc["hardcore", "no_effect"])


def test_equal_outcomes_with_other_games_are_not_no_effect():
    """Same wins but games that went otherwise (other lengths): an effect on play, tested as usual."""
    base = np.array([True, False] * 50)
    frame = _cells({"base": base, "other": base.copy()})
    frame.loc[frame.cell == "other", "turns"] += 1
    row = paired_table(frame, "axis_mods", "base").iloc[0]
    assert not row.no_effect and row.p_holm == pytest.approx(1.0)


def test_the_variance_ratio_says_what_the_pairing_gains():
    rng = np.random.default_rng(7)
    u = rng.random(4000)
    paired = paired_table(_cells({"base": u < 0.5, "near": u < 0.52}), "axis_mods", "base").iloc[0]
    independent = paired_table(_cells({"base": u < 0.5, "far": rng.random(4000) < 0.52}), "axis_mods",
                               "base").iloc[0]
    assert paired.variance_ratio < 0.1 and 0.9 < independent.variance_ratio < 1.1


def test_a_cell_with_fewer_seats_compares_the_seats_both_have():
    """players = [4, 2]: the paired table pairs the two seats both cells have; the sweep summary
    pairs the seats a cell shares with the first, the same player in the same place (a posse_size
    sweep's 'vs first' was blank in every row, issue 29 item 18), and leaves a seat whose player
    differs blank (outwest's class mixes once crashed it)."""
    from experiments.sweep import summarise_cells

    def name(cell, p):
        return f"Q{p}" if cell == "d" and p == 1 else f"P{p}"

    rows = [{"cell": cell, "axis_players": f"{seats}{cell}", "game": g, "player": p, "name": name(cell, p),
             "won": (g + p) % 3 == 0, "turns": 5, "reason": "x"}
            for cell, seats in (("a", 4), ("b", 2), ("c", 4), ("d", 2)) for g in range(50) for p in range(seats)]
    frame = pd.DataFrame(rows)
    assert list(paired_table(frame[frame.cell.isin(["a", "b"])], "axis_players", "4a").player) == [0, 1]
    summary = summarise_cells(frame).set_index("cell")
    assert summary.loc["a", "vs_first"].isna().all()
    assert (summary.loc["b", "vs_first"] == 0).all() and summary.loc["b", "vs_first_low"].notna().all()
    assert (summary.loc["c", "vs_first"] == 0).all() and summary.loc["c", "vs_first_low"].notna().all()
    d = summary.loc["d"].set_index("player")
    assert d.loc[0, "vs_first"] == 0 and pd.isna(d.loc[1, "vs_first"])  # Q1 is not the first cell's P1


def test_holm_is_fed_the_exact_mcnemar_p_the_docs_name():
    """docs/experiments.md names the exact McNemar p; the code fed Holm the asymptotic score p, so
    a row could carry a star its exact p does not earn (Boss/Dark Eldar, stats review F4)."""
    rng = np.random.default_rng(8)
    base = rng.random(3000) < 0.3
    rows = {"base": base}
    for k, flips in enumerate((4, 9, 14)):  # few discordant games: exact and asymptotic p differ
        changed = base.copy()
        changed[np.flatnonzero(~base)[:flips]] = True
        rows[f"m{k}"] = changed
    table = paired_table(_cells(rows), "axis_mods", "base")
    from experiments.stats import holm

    assert np.allclose(table.p_holm, holm(table.p_exact)) and not np.allclose(table.p_holm, holm(table.p_value))


def test_cells_that_play_the_same_games_count_once_in_holms_family():
    """'P8's choice' and Tenacity were the same games named twice and counted twice: the twin
    shares the first's adjusted p, and the family has one member fewer."""
    rng = np.random.default_rng(9)
    base = rng.random(2000) < 0.4
    a, b = base.copy(), base.copy()
    a[:40] = ~a[:40]
    b[100:160] = ~b[100:160]
    table = paired_table(_cells({"base": base, "tenacity": a, "p8_choice": a.copy(), "other": b}), "axis_mods",
                         "base").set_index("label")
    from experiments.stats import holm

    once = holm(table.loc[["tenacity", "other"], "p_exact"])
    assert table.loc["p8_choice", "same_as"] == "tenacity" and pd.isna(table.loc["tenacity", "same_as"])
    assert table.loc[["tenacity", "other"], "p_holm"].to_numpy() == pytest.approx(once)
    assert table.loc["p8_choice", "p_holm"] == pytest.approx(table.loc["tenacity", "p_holm"])
