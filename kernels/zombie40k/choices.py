"""The random-legal baseline (policy ``decisions`` = 1, docs/policies.md): where a player's policy
has a choice (where to move, Run or not, which unit to shoot, whether to charge and whom, the
power-ups' uses), a random player draws it uniformly among the choices the rules allow. The
draws come from the game's own dice stream (the stream of the phase being played), so game i
still depends only on (seed, i); a heuristic player (0) draws nothing.
"""

from __future__ import annotations

import math

from kernels.jit import njit
from kernels.rng import uniform
from kernels.zombie40k.columns import POL_DECISIONS

TWO_PI = 2.0 * math.pi


@njit
def plays_random(tb, p):
    """Does unit p belong to a player of the random-legal baseline (zombie units never do)?"""
    return p < tb.policy.shape[0] and tb.policy[p, POL_DECISIONS] == 1


@njit
def pick(rng, g, n):
    """A uniform whole number 0..n-1 (n >= 1)."""
    return min(int(uniform(rng, g) * n), n - 1)


@njit
def coin(rng, g):
    """Heads (1) or tails (0), even odds."""
    return pick(rng, g, 2)


@njit
def course(rng, g, reach):
    """A random move of up to ``reach`` inches: (dx, dy) of a heading drawn uniformly round the
    compass, and the distance wanted, drawn uniformly in 0..reach."""
    angle = TWO_PI * uniform(rng, g)
    return math.cos(angle), math.sin(angle), reach * uniform(rng, g)
