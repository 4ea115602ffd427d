"""Dice of the 7th-edition rules (core-7th-edition §1, §6.4, §10.1), drawn from a game's stream.

Every function takes ``(rng, g)``: the stream array and the game's slot in it.
A dice expression is three integers ``(count, keep, d3)``: ``count`` D6 (or D3 when ``d3``),
summing the ``keep`` highest (0 = all). So D6 = (1, 0, 0), 2D6 = (2, 0, 0), D3 = (1, 0, 1),
"3D6 keep the two highest" = (3, 2, 0), "2D6 pick the highest" = (2, 1, 0).
"""

from __future__ import annotations

import math

import numpy as np

from kernels.jit import njit, njit_alloc
from kernels.rng import d6, uniform

TWO_PI = 2.0 * math.pi
MAX_DICE = 8


@njit
def d3(rng, g):
    """D3: a D6 halved, rounding up (core-7th-edition §1)."""
    return (d6(rng, g) + 1) // 2


@njit
def sum_d6(rng, g, n):
    """nD6, summed."""
    total = 0
    for _ in range(n):
        total += d6(rng, g)
    return total


@njit
def highest_d6(rng, g, n):
    """Roll n D6 and keep the single highest (difficult terrain, Crusader runs)."""
    best = 0
    for _ in range(n):
        best = max(best, d6(rng, g))
    return best


@njit_alloc
def sum_highest(rolls, keep):
    """Sum of the ``keep`` highest values of ``rolls`` (0 = all); a pure helper."""
    n = rolls.shape[0]
    if keep <= 0 or keep >= n:
        return rolls.sum()
    ordered = np.sort(rolls)
    return ordered[n - keep :].sum()


@njit_alloc
def roll_expr(rng, g, count, keep, is_d3):
    """Roll a dice expression ``(count, keep, d3)`` (see module docstring)."""
    if keep == 0 or keep >= count:
        total = 0
        for _ in range(count):
            total += d3(rng, g) if is_d3 else d6(rng, g)
        return total
    rolls = np.empty(count, dtype=np.int64)
    for k in range(count):
        rolls[k] = d3(rng, g) if is_d3 else d6(rng, g)
    return sum_highest(rolls, keep)


@njit
def scatter_die(rng, g):
    """The scatter die: (is_hit, direction in radians). Two faces of six show HIT (P = 1/3);
    every face bears an arrow, so a direction is drawn either way (core-7th-edition §1)."""
    hit = d6(rng, g) <= 2
    return hit, uniform(rng, g) * TWO_PI


@njit
def scatter_arrow(rng, g):
    """Direction of a scatter that must move: the die is re-rolled until an arrow shows
    (zombie40k §7 result 5, A25)."""
    while d6(rng, g) <= 2:
        pass
    return uniform(rng, g) * TWO_PI


@njit
def scatter_distance(rng, g, n_dice, minus):
    """Scatter distance: ``n_dice`` D6 minus ``minus`` (the firer's BS for blasts), at least 0
    (core-7th-edition §6.4)."""
    return max(0, sum_d6(rng, g, n_dice) - minus)
