"""Scenes shared by the rules-fidelity tests (tests/zombie40k/test_zombie40k_fidelity_*.py, issue 13).

Kernel functions are looked up on their module at call time, so the ``dice`` / ``nojit``
fixtures' swaps apply. Units: squads 0..P-1, hordes P.., the Boss last (kernels.zombie40k.columns).
"""

from __future__ import annotations

import numpy as np
from conftest import clear_table, put_unit

import kernels.zombie40k.geometry
import kernels.zombie40k.units
from kernels.w40k import columns as L
from kernels.zombie40k import columns as GL

units = kernels.zombie40k.units


def gap(st, u, v):
    return kernels.zombie40k.geometry.edge_distance(*st.pos[0, u], st.radius[0, u], *st.pos[0, v], st.radius[0, v])


def keep_models(st, tb, u, n):
    """Unit u keeps its first ``n`` models (the others die off the table's books)."""
    st.wounds[0, u, n:] = 0
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    units.refresh_radius(st, 0, u, tb)


def locked_pair(st, tb, u, v, x=24.0, y=30.0, keep=()):
    """Only u and v (and the units in ``keep``, where they stand) on the table, v in base
    contact with u on its EV side, locked."""
    clear_table(st, keep=(u, v, *keep))
    put_unit(st, tb, u, x, y)
    put_unit(st, tb, v, x, y + st.radius[0, u] + st.radius[0, v])
    units.lock(st, 0, u, v)


def combat_arrays(st, *members):
    n = st.pos.shape[1]
    member = np.zeros(n, np.bool_)
    member[list(members)] = True
    return member, np.zeros(n, np.int64), np.zeros(n, np.int64)


def kill_spec():
    """One automatic hit that wounds automatically, no save, no Feel No Pain, S1: each attack
    die removes one Wound and rolls no die."""
    spec = np.zeros(L.N_SPEC, np.int64)
    spec[L.SP_HIT_MODE], spec[L.SP_AUTO_WOUND], spec[L.SP_NO_SAVES], spec[L.SP_NO_FNP] = L.HM_AUTO, 1, 1, 1
    spec[L.SP_STRENGTH], spec[L.SP_AP], spec[L.SP_AP_ON_6], spec[L.SP_MELEE] = 1, 7, 7, 1
    return spec


class StrikeRecorder:
    """Stands in for ``kernels.zombie40k.assault._strike``: records (attacker, target, attack dice)
    and rolls nothing; the ``wipe_on``-th call (1-based, 0 = never) destroys the whole target."""

    def __init__(self, wipe_on=0):
        self.calls: list[tuple[int, int, int]] = []
        self.specs: list[np.ndarray] = []
        self.wipe_on = wipe_on

    def __call__(self, st, g, u, v, dice, spec, inflicted, suffered, tb, rng, out):
        import kernels.zombie40k.casualties

        self.calls.append((int(u), int(v), int(dice)))
        self.specs.append(spec.copy())
        out[:] = 0
        if len(self.calls) != self.wipe_on:
            return
        before = units.alive(st, g, v)
        inflicted[u] += before
        suffered[v] += before
        st.wounds[g, v] = 0
        st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
        kernels.zombie40k.casualties.after_attack(st, g, v, u, before, tb, rng)

    def dice_of(self, u):
        return [d for a, _, d in self.calls if a == u]


__all__ = ["GL", "L", "clear_table", "combat_arrays", "gap", "keep_models", "kill_spec", "locked_pair", "put_unit",
           "units", "StrikeRecorder"]
