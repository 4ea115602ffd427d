"""The search of a rebalance (`shamble rebalance`, `experiments.rebalance`): the proposal, found on the
search's games.

**The search**: Robbins-Monro root finding of "every side at the mean", on common random numbers
(Kleinman, Spall & Naiman 1999: CRN in stochastic approximation). Each price ``j`` moves on a log
scale, ``x_j = ln(value / value at the start)``. Candidate ``k`` is the start values times
``exp(x_j)``, rounded to the steps the rule data can express (`sim.ruleset.Price.step`) within the
price's bounds; every candidate plays the same games ``0 .. games-1`` of the search seed in every
cell, so two candidates differ by their prices, never by their dice. Then each price whose sides
are not all within the margin (only those move) takes a step::

    g_j = mean over its sides s of (rate_s - mean) / mean            (relative deviation)
    x_j <- x_j + clip(a_k g_j, -MAX_STEP, MAX_STEP),   a_k = GAIN / (k + 1 + STABILITY) ** ALPHA

with GAIN 0.5, STABILITY 1 and ALPHA 0.602 (Spall 1998's practical exponent: the slowest decay
that keeps the Robbins-Monro conditions, sum a_k infinite, sum a_k^2 finite), MAX_STEP 0.25 (a
price moves by at most about a quarter in one step). A side that wins too often gets dearer, one
that wins too rarely cheaper: a side winning twice the mean rate rises by about a quarter of its
cost in the first step. A candidate whose cells all play games the run has played already (a
cost between two that buy the same models) costs no games: cells are keyed by the tables their
kernels read.

**Stopping rule.** The search stops at the first candidate whose sides are all within the margin
on its games, or when its game budget is spent (the games of the cells it played), or after
``iterations`` candidates.

**The proposal** is the best candidate: fewest sides outside the margin, then the smallest largest
deviation, then the fewest changed prices, then the earliest. The update assumes a dearer side
is a weaker one; where a side's rate is not monotone in its cost (past some size more models can
do worse: Zombie 40,000's Guard), the search can walk past the side's best value and never come
back. So, when the best candidate is not all within the margin:

0. *polish*: each price whose sides are not all within the margin tries the two nearest values
   either side of its own that play differently (`neighbours`: for a per-model price, one model
   more or fewer in the team, and two), on the search's games; a trial is kept when it brings the
   price's own sides nearer the mean and puts no more sides outside the margin.

Then, "as few costs changed by as little as possible":

1. *least change*: each changed price goes back toward its old value as far as it can while every
   cell still plays the very same game (the same compiled tables), in the data's steps; a price
   that can go all the way back is reverted without playing a game;
2. *reverts*: each remaining change, the smallest first, is reverted on trial (on the search's
   games); the revert is kept when no side that was within the margin leaves it and the change's
   own sides are within the margin after it, or no farther from the mean than with the change (a
   change that does not help its own sides is dropped).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from experiments.rebalance_evaluations import Evaluate, SamePlay, Standing
from experiments.rebalance_game import Settings
from sim.ruleset import Price

GAIN, STABILITY, ALPHA, MAX_STEP = 0.5, 1.0, 0.602, 0.25  # the gain sequence (module docstring)
POLISH_REACH, POLISH_WALK = 2, 60  # the polish pass: distinct plays tried each way, lattice steps walked
MIN_MEAN = 0.01  # a mean rate below this is taken as this in the relative deviation


# ---------------------------------------------------------------------------- the search


@dataclass
class Search:
    """What the search evaluated and what it proposes."""

    history: list[Standing]  # every candidate of the search, in order (candidate 0: the start)
    stop: str  # "converged", "budget" or "iterations"
    best: int  # index of the best candidate in history
    proposal: dict[str, Fraction]  # after least change and reverts
    result: Standing  # the proposal on the search's games
    reverted: list[str] = field(default_factory=list)  # prices the revert pass put back
    search_games: int = 0  # games the candidates played
    revert_games: int = 0  # games the revert trials played
    polished: list[str] = field(default_factory=list)  # prices the polish pass moved
    polish_games: int = 0  # games the polish trials played

    @property
    def games(self) -> int:
        return self.search_games + self.polish_games + self.revert_games


def gain(k: int) -> float:
    """a_k of the module docstring."""
    return GAIN / (k + 1 + STABILITY) ** ALPHA


def candidate(prices: list[Price] | tuple[Price, ...], x: Mapping[str, float]) -> dict[str, Fraction]:
    """The values at log-offsets ``x`` from the start, rounded to each price's step within its bounds."""
    out = {}
    for p in prices:
        if x[p.key] == 0:
            out[p.key] = p.value
            continue
        k = math.floor(float(p.value) * math.exp(x[p.key]) / float(p.step) + 0.5)
        out[p.key] = min(max(p.step * k, p.low), p.high)
    return out


def push(result: Standing, price: Price) -> float | None:
    """g_j of the module docstring: the mean relative deviation of the price's sides, or None when
    they are all within the margin (the price stays)."""
    sides = [s for s in price.sides if s in result.table.index]
    if not sides or result.table.equivalent[sides].all():
        return None
    return float(result.table.deviation[sides].mean()) / max(result.mean, MIN_MEAN)


def _changed(values: Mapping[str, Fraction], prices) -> int:
    return sum(values[p.key] != p.value for p in prices)


def _rank(result: Standing, k: int, prices) -> tuple:
    return len(result.outside), round(result.worst, 12), _changed(result.values, prices), k


def search(prices: list[Price] | tuple[Price, ...], evaluate: Evaluate, settings: Settings,
           same_play: SamePlay | None = None, say: Callable[[int, Standing], None] | None = None) -> Search:
    """Robbins-Monro on the prices until every side is within the margin or the budget is spent,
    then the least-change and revert passes (module docstring).

    Parameters
    ----------
    prices : list of Price
        What may change, at their start values.
    evaluate : callable
        ``evaluate(values)`` -> `Standing` of every side at those values, on the same games for
        every call (common random numbers); its ``played`` counts against the budget.
    same_play : callable, optional
        ``same_play(a, b)``: whether two candidates play the very same games (the least-change
        pass moves a price back only as far as that holds); None skips that pass.
    """
    x = {p.key: 0.0 for p in prices}
    bounds = {p.key: (math.log(p.low / p.value), math.log(p.high / p.value)) for p in prices}
    history, used, stop = [], 0, "iterations"
    for k in range(settings.iterations):
        result = evaluate(candidate(prices, x))
        used += result.played
        history.append(result)
        if say is not None:
            say(k, result)
        if result.fair:
            stop = "converged"
            break
        if used >= settings.budget:
            stop = "budget"
            break
        for p in prices:
            g = push(result, p)
            if g is not None:
                step = min(max(gain(k) * g, -MAX_STEP), MAX_STEP)
                x[p.key] = min(max(x[p.key] + step, bounds[p.key][0]), bounds[p.key][1])
    best = min(range(len(history)), key=lambda k: _rank(history[k], k, prices))
    proposal, polished, polish_games = history[best].values, [], 0
    if same_play is not None and not history[best].fair:
        proposal, _, polished, polish_games = polish(prices, proposal, history[best], evaluate, same_play)
    if same_play is not None:
        proposal = least_change(prices, proposal, same_play)
    result = evaluate(proposal)
    proposal, result, reverted, revert_games = revert_pass(prices, proposal, result, evaluate)
    return Search(history, stop, best, proposal, result, reverted, used, result.played + revert_games, polished,
                  polish_games)


def polish(prices, values: Mapping[str, Fraction], result: Standing, evaluate: Evaluate,
           same_play: SamePlay) -> tuple[dict[str, Fraction], Standing, list[str], int]:
    """Each price whose sides are not all within the margin tries the ``POLISH_REACH`` nearest
    values either side of its own that play differently (`neighbours`), on the search's games; a
    trial is kept when it brings its own sides nearer the mean and puts no more sides outside the
    margin (module docstring: the search assumes a dearer side is a weaker one)."""
    values, polished, games = dict(values), [], 0
    for p in prices:
        if push(result, p) is None:
            continue
        for value in neighbours(p, values, same_play):
            trial = evaluate(values | {p.key: value})
            games += trial.played
            if len(trial.outside) <= len(result.outside) and _local(trial, p) < _local(result, p):
                values, result = dict(trial.values), trial
                polished = [*dict.fromkeys([*polished, p.key])]
    return values, result, polished, games


def _local(result: Standing, price: Price) -> float:
    """The largest distance from the mean of the price's sides."""
    sides = [s for s in price.sides if s in result.table.index]
    return round(float(result.table.deviation[sides].abs().max()), 12)


def neighbours(price: Price, values: Mapping[str, Fraction], same_play: SamePlay,
               reach: int = POLISH_REACH, walk: int = POLISH_WALK) -> list[Fraction]:
    """Up to ``reach`` values each way from the price's value (on its steps, within its bounds,
    at most ``walk`` steps away) that each play differently from the one before (the first value
    of each run of equal plays), nearest first."""
    found = []
    for sign in (-1, 1):
        last, kept = dict(values), 0
        for i in range(1, walk + 1):
            value = values[price.key] + sign * i * price.step
            if not price.low <= value <= price.high or kept == reach:
                break
            trial = dict(values) | {price.key: value}
            if not same_play(trial, last):
                found.append(value)
                last, kept = trial, kept + 1
    return found


def least_change(prices, values: Mapping[str, Fraction], same_play: SamePlay) -> dict[str, Fraction]:
    """Each changed price moved back toward its old value as far as the game stays the same (in
    its steps; the plays of a price are an interval of values, so a bisection finds the end)."""
    out = dict(values)
    for p in prices:
        new = out[p.key]
        if new == p.value:
            continue
        if same_play(out | {p.key: p.value}, out):
            out[p.key] = p.value
            continue
        grid = _steps_between(p.value, new, p.step)
        lo, hi = 0, len(grid) - 1  # grid[hi] == new plays as new
        while lo < hi:
            mid = (lo + hi) // 2
            if same_play(out | {p.key: grid[mid]}, out):
                hi = mid
            else:
                lo = mid + 1
        out[p.key] = grid[hi]
    return out


def _steps_between(old: Fraction, new: Fraction, step: Fraction) -> list[Fraction]:
    """The values on the step lattice after ``old`` (exclusive) up to ``new`` (inclusive), from
    ``old``'s side; ``new`` is on the lattice."""
    if new > old:
        first = step * (math.floor(old / step) + 1)
        return [first + step * i for i in range(int((new - first) / step) + 1)]
    first = step * (math.ceil(old / step) - 1)
    return [first - step * i for i in range(int((first - new) / step) + 1)]


def revert_pass(prices, proposal: dict[str, Fraction], result: Standing,
                evaluate: Evaluate) -> tuple[dict[str, Fraction], Standing, list[str], int]:
    """Each change, the smallest first, reverted on trial; kept reverted when no side within the
    margin leaves it and the change's own sides are within the margin after it, or no farther
    from the mean (a change that does not help its sides is dropped; module docstring)."""
    changed = sorted((p for p in prices if proposal[p.key] != p.value),
                     key=lambda p: abs(math.log(proposal[p.key] / p.value)))
    reverted, games = [], 0
    for p in changed:
        trial = evaluate(proposal | {p.key: p.value})
        games += trial.played
        sides = [s for s in p.sides if s in trial.table.index]
        helps = _local(result, p) < _local(trial, p) and not trial.table.equivalent[sides].all()
        if not helps and set(trial.outside) <= set(result.outside):
            proposal, result = trial.values, trial
            reverted.append(p.key)
    return dict(proposal), result, reverted, games
