"""The exchange driver: one attack group per game, over games with ``prange`` (odds, tests,
bench). Each game copies the target, resolves its dice from its own stream and writes its
counters; nothing depends on which thread plays it."""

from __future__ import annotations

import numpy as np

from kernels.jit import njit_parallel, prange
from kernels.w40k.columns import N_OUT
from kernels.w40k.combat import resolve_attacks


@njit_parallel
def attack_group_batch(rng, n_dice, spec, wounds0, stats, flags, cover, save_reroll, cancels0, out):
    """For every game g: resolve ``n_dice`` dice of ``spec`` at a fresh copy of the target
    (``wounds0``, ``stats``, ``flags``) and write the counters to ``out[g]`` (int64[n, N_OUT])."""
    for g in prange(rng.shape[0]):
        wounds = wounds0.copy()
        status = np.zeros(wounds.shape[0], dtype=np.int8)
        cancels = cancels0.copy()
        for k in range(N_OUT):
            out[g, k] = 0
        resolve_attacks(rng, g, n_dice, spec, wounds, stats, flags, status, cover, save_reroll, cancels, out[g])
