"""Sensitivity ranks (issue 29, item 5): a rank's interval holds the rank it is about, and numbers
that move the rate equally (most often: not at all) share a rank, as the bootstrap counts them."""

from __future__ import annotations

import numpy as np
import pandas as pd

from experiments.sensitivity import ranked


def test_tied_numbers_share_a_rank_and_every_interval_holds_its_rank():
    """Three numbers move the rate (by 20, 10 and 5 points), three move no game at all. The old
    table numbered the three ties 4, 5, 6 while the bootstrap ranked them all 4, so rank 5 and 6
    came out as '5 (4-4)' and '6 (4-4)': intervals that leave out their own rank."""
    rng = np.random.default_rng(5)
    n = 2000
    base = rng.random(n) < 0.3
    u = rng.random(n)
    effects = []
    for push in (0.2, 0.1, 0.05, 0.0, 0.0, 0.0):
        high = base | (u < push)  # a rate push points higher on the same games
        effects.append((base, base.copy(), high))
    rank, low, high = ranked(effects, seed=0)
    assert list(rank) == [1, 2, 3, 4, 4, 4]
    assert (low <= rank).all() and (rank <= high).all()
    assert list(low[3:]) == [4, 4, 4] and list(high[:1]) == [1]  # the big effect is told apart


def _frame(labels_games: dict) -> pd.DataFrame:
    rows = []
    for label, (won, dice) in labels_games.items():
        for g, (w, d) in enumerate(zip(won, dice)):
            rows.append({"cell": label, "axis_params": label, "game": g, "player": 0, "won": bool(w), "dice": d})
    return pd.DataFrame(rows)


def test_a_number_that_changes_no_game_is_not_exercised_not_ranked():
    """issue 27: `horse_move_dice` with no horse was ranked as measured and unimportant. Here
    `idle`'s low and high cells play the base games exactly (dice counts too): it is listed as not
    exercised, after the ranked numbers, with no rank and no Holm p; `flat` changes dice but no
    outcome: it is exercised, ranked, with a zero effect."""
    from types import SimpleNamespace

    from experiments.sensitivity import sensitivity_table

    rng = np.random.default_rng(3)
    n = 400
    won, dice = rng.random(n) < 0.3, rng.integers(50, 90, n)
    moved = won | (rng.random(n) < 0.2)
    games = {"base": (won, dice), ":live=1": (won, dice), ":live=9": (moved, dice),
             ":idle=1": (won, dice), ":idle=9": (won, dice), ":flat=1": (won, dice + 1), ":flat=9": (won, dice)}
    exp = SimpleNamespace(axes=[SimpleNamespace(labels=list(games), values=[{}, {"live": 1}, {"live": 9},
                                                                         {"idle": 1}, {"idle": 9}, {"flat": 1},
                                                                         {"flat": 9}])],
                          base=SimpleNamespace(live=5, idle=5, flat=5))
    table = sensitivity_table(_frame(games), exp)
    assert list(table.param) == ["live", "flat", "idle"]
    assert list(table.exercised) == [True, True, False]
    assert table["rank"].iloc[:2].tolist() == [1, 2] and table["rank"].isna().iloc[2]
    assert np.isnan(table.p_holm.iloc[2]) and not np.isnan(table.p_holm.iloc[:2]).any()
    assert table.effect.iloc[0] > 0.1 and table.effect.iloc[2] == 0
