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


class _Cells:
    """The rows of each cell of ``axis`` (its label as text), split once, and each cell's first
    ``n`` games as `paired_table` compares them, made once."""

    def __init__(self, results: pd.DataFrame, axis: str):
        self.results, self.axis = results, axis
        self.rows = dict(iter(results.groupby(results[axis].astype(str), sort=False)))
        self.keep = [c for c in results.columns if c != "cell" and not c.startswith("axis_")]
        self._games: dict[tuple[str, int], pd.DataFrame] = {}

    def wins(self, label: str) -> pd.DataFrame:
        """`wins_by_game` of the cell."""
        rows = self.rows.get(str(label))
        if rows is None:
            raise ValueError(f"no cell with {self.axis} = {label!r}")
        return rows.pivot(index="game", columns="player", values="won").sort_index()

    def games(self, label: str, n: int) -> pd.DataFrame:
        """The (game, player) rows of the cell's first ``n`` games, without the cell's own columns."""
        key = (str(label), n)
        if key not in self._games:
            rows = self.rows.get(str(label), self.results.iloc[:0])
            rows = rows[rows.game < rows.game.min() + n] if len(rows) else rows
            self._games[key] = rows.sort_values(["game", "player"])[self.keep].reset_index(drop=True)
        return self._games[key]

    def same_games(self, label: str, reference: str, n: int) -> bool:
        """True when every one of the first ``n`` games of the cell is the reference cell's game to
        the last column (the cell's change has no effect on play, like a team check that every team
        passes)."""
        return self.games(label, n).equals(self.games(reference, n))


def paired_table(results: pd.DataFrame, axis: str, reference: str, labels=None) -> pd.DataFrame:
    """Each cell of ``axis`` minus the ``reference`` cell, per player, on the same games.

    Every number of a row is computed on one set of games: the games the two cells have in common
    (the first ``n`` of each; with sequential sampling cells may have played more). Returns one row
    per (label, player): games, rate, reference rate, diff, 95% score interval, p (score test),
    p_exact (McNemar), the variance ratio of the pairing, ``no_effect`` (the cell played the
    reference's games exactly), the Holm-adjusted p over the rows with an effect, and ``flagged``
    (adjusted p < ALPHA).
    """
    labels = [v for v in pd.unique(results[axis].astype(str)) if v != str(reference)] if labels is None else labels
    cells = _Cells(results, axis)
    ref = cells.wins(reference)
    names = player_names(results)
    rows = []
    for label in labels:
        cell = cells.wins(label)
        n = min(len(cell), len(ref))
        same = cells.same_games(label, reference, n)
        for p in ref.columns.intersection(cell.columns):  # a cell with fewer seats compares the seats both have
            a, b = cell[p].to_numpy()[:n], ref[p].to_numpy()[:n]
            d = paired_difference(a, b)
            rows.append({"label": label, "player": p, "name": names[p], "games": n, "rate": a.mean(),
                         "reference_rate": b.mean(), "diff": d.diff, "ci_low": d.low, "ci_high": d.high,
                         "p_value": d.p_value, "p_exact": d.p_exact, "variance_ratio": d.variance_ratio,
                         "no_effect": same})
    table = pd.DataFrame(rows)
    if not table.empty:
        tested = ~table.no_effect
        table["same_as"] = table.label.map(_same_games(cells, list(labels), len(ref)))
        family = tested & table.same_as.isna()  # a cell that plays another cell's games counts once
        table["p_holm"] = np.nan
        table.loc[family, "p_holm"] = holm(table.p_exact[family])  # the exact McNemar p (docs/experiments.md)
        first = table[family].set_index(["label", "player"]).p_holm
        twins = tested & table.same_as.notna()
        table.loc[twins, "p_holm"] = [first.get((a, p), np.nan) for a, p in zip(table.same_as[twins],
                                                                               table.player[twins])]
        table["flagged"] = tested & (table.p_holm < ALPHA)
    return table


def _same_games(cells: _Cells, labels: list, n: int) -> dict:
    """label -> the earlier label whose first ``n`` games this cell plays exactly (None if none).
    Such cells (every player choosing the same option) are the same games named twice: they are
    counted once in Holm's family and share its adjusted p."""
    kept: dict[int, list] = {}
    out = {}
    for label in labels:
        games = cells.games(label, n)
        key = int(pd.util.hash_pandas_object(games, index=False).sum())
        twin = next((first for first, seen in kept.get(key, []) if seen.equals(games)), None)
        if twin is None:
            kept.setdefault(key, []).append((label, games))
        out[label] = twin
    return out


def win_outcomes(df: pd.DataFrame, player: int | None) -> np.ndarray:
    """Per game: did ``player`` win (None: did anyone win)?"""
    if player is None:
        return df.groupby("game", sort=True).won.any().to_numpy()
    return df[df.player == player].sort_values("game").won.to_numpy()


def anyone(results: pd.DataFrame, name: str = "anyone") -> pd.DataFrame:
    """One row per (cell, game) as if one player, ``name``, won whenever anyone did: for a
    cooperative game, the side's rate (the posse holds the town) rather than each seat's."""
    keys = [c for c in results.columns if c == "cell" or c.startswith("axis_")] + ["game"]
    first = results.groupby(keys, sort=False).agg(won=("won", "any"), turns=("turns", "first"),
                                                  reason=("reason", "first")).reset_index()
    return first.assign(player=0, name=name)


def game_outcomes(df: pd.DataFrame, outcome: str = "anyone") -> np.ndarray:
    """Per game, a yes/no outcome named by ``outcome``: ``"anyone"`` (somebody won), ``"player=K"``
    (seat K won, 0-based) or ``"reason=R"`` (the game ended by reason R)."""
    kind, _, value = outcome.partition("=")
    if kind == "anyone":
        return win_outcomes(df, None)
    if kind == "player":
        return win_outcomes(df, int(value))
    if kind == "reason":
        return (df.groupby("game", sort=True).reason.first() == value).to_numpy()
    raise ValueError(f"outcome {outcome!r}; allowed: anyone, player=K, reason=R")


def outcome_words(outcome: str, word: str) -> str:
    """'anyone escapes', 'seat 1 wins', 'a game ends in helipad'."""
    kind, _, value = outcome.partition("=")
    if kind == "player":
        return f"seat {int(value) + 1} {word}s"
    if kind == "reason":
        return f"a game ends in {value}"
    return f"anyone {word}s"


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


def in_play_curves(results: pd.DataFrame, axis: str, max_turn: int) -> pd.DataFrame:
    """Share of games still in play at the end of turn t (not yet won or lost), per cell: where every
    win comes on one turn (Apocalypse's extraction at the end of turn 7, §13), the curve that varies."""
    games = per_game(results, axis)
    rows = []
    for label, group in games.groupby("label", sort=False):
        turns = group.turns.to_numpy()
        rows += [{"label": label, "turn": t, "share": float(np.mean(turns > t))} for t in range(1, max_turn + 1)]
    return pd.DataFrame(rows)


def faction_matrix(summary: pd.DataFrame, row_axis: str, col_axis: str, player: int = 0) -> pd.DataFrame:
    """Win rate of ``player`` with the row team against the column team (from a sweep summary)."""
    rows = summary[summary.player == player]
    return rows.pivot(index=row_axis, columns=col_axis, values="rate")
