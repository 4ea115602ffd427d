"""Comparisons between the cells of a sweep (tidy tables in, tidy tables out).

Cells of one sweep share their games (common random numbers), so two cells are compared game by
game with ``stats.paired_difference``; a family of comparisons is Holm-corrected and a row is
flagged only when its adjusted p-value is below ``ALPHA``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from experiments.stats import holm, paired_difference

ALPHA = 0.05


def wins_by_game(results: pd.DataFrame, axis: str, label: str) -> pd.DataFrame:
    """bool[game, player]: who won each game of the cell where ``axis == label``."""
    rows = results[results[axis].astype(str) == str(label)]
    if rows.empty:
        raise ValueError(f"no cell with {axis} = {label!r}")
    return rows.pivot(index="game", columns="player", values="won").sort_index()


def player_names(results: pd.DataFrame) -> dict[int, str]:
    return dict(results.groupby("player").name.first())


def paired_table(results: pd.DataFrame, axis: str, reference: str, labels=None) -> pd.DataFrame:
    """Each cell of ``axis`` minus the ``reference`` cell, per player, on the same games.

    Returns one row per (label, player): rate, reference rate, diff, 95% interval, McNemar p,
    Holm-adjusted p over the whole table, and ``flagged`` (adjusted p < ALPHA).
    """
    labels = [v for v in pd.unique(results[axis].astype(str)) if v != str(reference)] if labels is None else labels
    ref = wins_by_game(results, axis, reference)
    names = player_names(results)
    rows = []
    for label in labels:
        cell = wins_by_game(results, axis, label)
        n = min(len(cell), len(ref))
        for p in ref.columns:
            d = paired_difference(cell[p].to_numpy()[:n], ref[p].to_numpy()[:n])
            rows.append({"label": label, "player": p, "name": names[p], "rate": cell[p].mean(),
                         "reference_rate": ref[p].mean(), "diff": d.diff, "ci_low": d.low, "ci_high": d.high,
                         "p_value": d.p_value, "games": d.games})
    table = pd.DataFrame(rows)
    if not table.empty:
        table["p_holm"] = holm(table.p_value)
        table["flagged"] = table.p_holm < ALPHA
    return table


def win_outcomes(df: pd.DataFrame, player: int | None) -> np.ndarray:
    """Per game: did ``player`` win (None: did anyone win)?"""
    if player is None:
        return df.groupby("game", sort=True).won.any().to_numpy()
    return df[df.player == player].sort_values("game").won.to_numpy()


def per_game(results: pd.DataFrame, axis: str) -> pd.DataFrame:
    """One row per (cell label, game): turns, reason, and whether anyone won."""
    first = results.groupby([axis, "game"], sort=False).agg(turns=("turns", "first"), reason=("reason", "first"),
                                                             won=("won", "any"))
    return first.reset_index().rename(columns={axis: "label"})


def win_turn_curves(results: pd.DataFrame, axis: str, max_turn: int) -> pd.DataFrame:
    """Cumulative share of games won (by anyone) by the end of turn t, per cell."""
    games = per_game(results, axis)
    rows = []
    for label, group in games.groupby("label", sort=False):
        won = np.bincount(group.turns[group.won], minlength=max_turn + 1)[: max_turn + 1]
        share = np.cumsum(won) / len(group)
        rows += [{"label": label, "turn": t, "share": share[t]} for t in range(1, max_turn + 1)]
    return pd.DataFrame(rows)


def faction_matrix(summary: pd.DataFrame, row_axis: str, col_axis: str, player: int = 0) -> pd.DataFrame:
    """Win rate of ``player`` with the row team against the column team (from a sweep summary)."""
    rows = summary[summary.player == player]
    return rows.pivot(index=row_axis, columns=col_axis, values="rate")
