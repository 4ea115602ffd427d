"""Sequential sampling of an experiment's cells to a target half-width (design.md decision 8).

A cell plays games in growing rounds from game 0 on (`schedule`: ``FIRST_BATCH``, then half again
the games so far, up to the cap ``Experiment.games``) and stops after the first round at which the
interval of *its question* is at most ``Experiment.target_halfwidth`` wide on each side:

- a cell on its own (a fairness grid's cell): the Wilson half-width of each of its rates;
- a cell compared with a reference cell on the same games (``Experiment.pairs``: a paired
  section's cells, a sensitivity section's low and high cells): the half-width of Tango's score
  interval of the paired difference, cell minus reference, on their common games, for each
  outcome compared. A reference plays on while any cell compared with it does, so the comparison
  always has all of the cell's games.

What is compared is ``Experiment.outcome`` (`outcome_columns`): ``"seats"`` (each seat's win, as
the paired and outcomes analyses compare them), ``"anyone"`` (anyone wins: a cooperative side, a
sensitivity's measure), ``"player=K"`` or ``"reason=R"``.

The rule reads only the games of the rounds already played, and a round's games are games
``done .. done + step - 1`` of the seed, which depend only on (seed, game index): where a cell
stops, and so every result, is the same for any batch size, thread count or runner, and for a
resumed sweep (an unfinished cell replays its rounds from game 0). It looks at the *width* of an
interval only, never at a difference or a p-value (fixed-width, Chow-Robbins: it targets
precision and cannot "run until significant").
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import pandas as pd

from experiments.stats import tango_interval, wilson_halfwidth

FIRST_BATCH = 400  # games before the first look at the interval width


def schedule(cap: int, first: int | None = None) -> Iterator[tuple[int, int]]:
    """(first game, games) of each round up to ``cap`` games: ``first`` (default ``FIRST_BATCH``),
    then half again the games so far."""
    done, first = 0, FIRST_BATCH if first is None else first
    while done < cap:
        step = min(cap - done, max(first, done // 2))
        yield done, step
        done += step


def outcome_columns(df: pd.DataFrame, outcome: str = "seats") -> dict:
    """Per game (in game order), the yes/no outcomes a cell's question reads: ``"seats"``: column
    per seat (player index), its win; ``"anyone"``, ``"player=K"``, ``"reason=R"``: one column
    (`experiments.compare.game_outcomes`)."""
    from experiments.compare import game_outcomes

    if outcome == "seats":
        wide = df.pivot(index="game", columns="player", values="won").sort_index()
        return {p: wide[p].to_numpy(bool) for p in wide.columns}
    return {outcome: np.asarray(game_outcomes(df, outcome), bool)}


def wilson_widest(df: pd.DataFrame, outcome: str = "seats") -> float:
    """The widest Wilson half-width of a cell's outcomes."""
    columns = outcome_columns(df, outcome)
    return max(float(wilson_halfwidth(int(v.sum()), v.size)) for v in columns.values())


def paired_widest(df: pd.DataFrame, reference: pd.DataFrame, outcome: str = "seats") -> float:
    """The widest half-width of Tango's interval of cell minus reference, over the outcomes both
    have, on their common games (the first ``n`` of each)."""
    a, b = outcome_columns(df, outcome), outcome_columns(reference, outcome)
    widest = 0.0
    for key in a.keys() & b.keys():
        n = min(a[key].size, b[key].size)
        x, y = a[key][:n], b[key][:n]
        low, high = tango_interval(int(np.sum(x & ~y)), int(np.sum(~x & y)), n)
        widest = max(widest, (high - low) / 2)
    return widest


Play = Callable[[list[tuple[str, int, int]]], dict[str, pd.DataFrame]]


def play_rounds(labels: list[str], cap: int, target: float, play: Play, pairs: dict[str, str] | None = None,
                outcome: str = "seats", finished: dict[str, pd.DataFrame] | None = None,
                on_done: Callable[[str, pd.DataFrame], None] | None = None) -> dict[str, pd.DataFrame]:
    """Play ``labels`` (cells) in rounds until each one's question is answered to ``target`` or
    ``cap`` games (module docstring).

    ``play(tasks)`` plays a round: ``tasks`` = [(label, first game, games)], returns label -> rows.
    ``pairs``: cell label -> its reference's label. ``finished``: cells already done (read from
    checkpoints: their rows are final, and a reference among them is not played again).
    ``on_done(label, rows)`` is called the moment a cell stops. Returns label -> rows of every cell.
    """
    pairs, done = dict(pairs or {}), dict(finished or {})
    frames: dict[str, list[pd.DataFrame]] = {label: [] for label in labels if label not in done}
    dependants: dict[str, set[str]] = {}
    for cell, ref in pairs.items():
        dependants.setdefault(ref, set()).add(cell)

    def rows(label: str) -> pd.DataFrame:
        return done[label] if label in done else pd.concat(frames[label], ignore_index=True)

    def stop(label: str) -> None:
        done[label] = pd.concat(frames.pop(label), ignore_index=True)
        if on_done is not None:
            on_done(label, done[label])

    for first, step in schedule(cap):
        if not frames:
            break
        for label, df in play([(label, first, step) for label in frames]).items():
            frames[label].append(df)
        played = first + step
        # decide on the rows of this round; a reference stops only once every cell compared with it
        # has stopped (this round included), so the cells' own rules are read first
        answered = {}
        for label in frames:
            ref = pairs.get(label)
            if played >= cap:
                answered[label] = True
            elif ref is not None:
                answered[label] = paired_widest(rows(label), rows(ref), outcome) <= target
            elif label not in dependants:
                answered[label] = wilson_widest(rows(label), outcome) <= target
        for label in [lb for lb in frames if answered.get(lb)]:
            stop(label)
        for label in [lb for lb in frames if lb in dependants and lb not in pairs]:
            # as long as the longest of its cells (one read from a checkpoint, when resumed)
            if all(c not in frames for c in dependants[label]) and \
                    played >= max((done[c].game.nunique() for c in dependants[label] if c in done), default=0):
                stop(label)
    for label in list(frames):  # only when the cap was reached with nothing left to play
        stop(label)
    return done


def widest_paired(results: pd.DataFrame, exp) -> float | None:
    """The widest half-width of an experiment's paired differences (``exp.pairs``, on ``exp.outcome``)
    in a sweep's results (None without pairs): the precision its paired question reached."""
    if not exp.pairs:
        return None
    key_of = {c.label: c.key for c in exp.cells()}
    cells = dict(iter(results.groupby("cell", sort=False)))
    widths = [paired_widest(cells[key_of[a]], cells[key_of[b]], exp.outcome) for a, b in exp.pairs
              if key_of.get(a) in cells and key_of.get(b) in cells]
    return max(widths, default=None)
