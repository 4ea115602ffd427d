"""The random-legal baseline (policy ``decisions`` = 1, docs/apocalypse.md): where a player's policy
has a choice (where each unit moves, whether it shoots, Runs or neither, at which horde, whether it
charges and which horde, whether it fires Overwatch and casts Force), a random player draws it
uniformly among the choices the rules allow. The draws come from the game's own dice stream (the
stream of the phase being played), so game i still depends only on (seed, i); a player of the
rules P3-P12 (0) draws nothing. What each model fires (P5 ``fire_until``, grenades, P6 re-rolls),
casualties, merges and super squads stay the preset's rules.
"""

from __future__ import annotations

from kernels.apocalypse.columns import POL_DECISIONS, US_OWNER
from kernels.jit import njit
from kernels.rng import uniform


@njit
def plays_random(st, g, u, tb):
    """Does unit u belong to a player of the random-legal baseline?"""
    return tb.policy[st.ust[g, u, US_OWNER], POL_DECISIONS] == 1


@njit
def pick(rng, g, n):
    """A uniform whole number 0..n-1 (n >= 1)."""
    return min(int(uniform(rng, g) * n), n - 1)
