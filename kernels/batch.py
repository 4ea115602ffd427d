"""The dice ceiling: bare D6 rolled over every thread (``shamble bench``'s yardstick)."""

from __future__ import annotations

from kernels.dice import sum_d6
from kernels.jit import njit_parallel, prange


@njit_parallel
def d6_ceiling(rng, n_per_game, out):
    """The dice ceiling: ``n_per_game`` bare D6 per stream, summed into ``out[g]``."""
    for g in prange(rng.shape[0]):
        out[g] = sum_d6(rng, g, n_per_game)
