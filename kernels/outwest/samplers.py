"""Many independent trials of one rule, each from its own stream (the exact-odds tests, and
``shamble outwest simulate``): a zombie's attack, a Fire, a zombie's move, the bite tests.

Each sampler takes a state of two games prepared by the caller: game 1 is the template (the
figures placed by hand), game 0 is played on. Trial k copies game 1 to game 0, starts stream
``stream_start(seed, k)`` and resolves the rule once; what the caller needs is written into
``out[k]``. The state must be traced (its ``events`` hold the trial's events), so that the
melee's sixes can be read back.
"""

from __future__ import annotations

import numpy as np

from kernels.jit import njit
from kernels.outwest.bites import activation_checks
from kernels.outwest.layout import (
    EK_MELEE,
    EK_SHOT,
    EV_A,
    EV_B,
    EV_C,
    EV_KIND,
    FF_X,
    FF_Y,
    FI_AMMO0,
    FI_BITES,
    FI_FATE,
    FI_KIND,
    FI_STATE,
)
from kernels.outwest.melee import human_attacks, zombie_attacks
from kernels.outwest.shooting import volley
from kernels.outwest.zombies import shamble
from kernels.rng import d6, stream_start


@njit
def restore(st):
    """Game 0 becomes a copy of the template, game 1 (element by element: no temporary)."""
    for f in range(st.fi.shape[1]):
        for k in range(st.fi.shape[2]):
            st.fi[0, f, k] = st.fi[1, f, k]
        for k in range(st.ff.shape[2]):
            st.ff[0, f, k] = st.ff[1, f, k]
    for k in range(st.gs.shape[1]):
        st.gs[0, k] = st.gs[1, k]
    for m in range(st.mk.shape[1]):
        for k in range(st.mk.shape[2]):
            st.mk[0, m, k] = st.mk[1, m, k]
    for h in range(st.pres.shape[1]):
        for k in range(st.pres.shape[2]):
            st.pres[0, h, k] = st.pres[1, h, k]
    st.n_events[0] = 0


@njit
def first_event(st, kind):
    """Index of the trial's first event of this kind; -1 none."""
    for k in range(st.n_events[0]):
        if st.events[0, k, EV_KIND] == kind:
            return k
    return -1


@njit
def melee_record(st, a, b, k, out):
    """out[k] = (a's sixes, b's sixes, hits, a's state, a's fate, b's kind, b's state, b's fate,
    b's bites, b moved x1000)."""
    e = first_event(st, EK_MELEE)
    if e >= 0:
        out[k, 0], out[k, 1], out[k, 2] = st.events[0, e, EV_A], st.events[0, e, EV_B], st.events[0, e, EV_C]
    out[k, 3], out[k, 4] = st.fi[0, a, FI_STATE], st.fi[0, a, FI_FATE]
    out[k, 5], out[k, 6], out[k, 7] = st.fi[0, b, FI_KIND], st.fi[0, b, FI_STATE], st.fi[0, b, FI_FATE]
    out[k, 8] = st.fi[0, b, FI_BITES]
    dx, dy = st.ff[0, b, FF_X] - st.ff[1, b, FF_X], st.ff[0, b, FF_Y] - st.ff[1, b, FF_Y]
    out[k, 9] = int(1000.0 * np.sqrt(dx * dx + dy * dy))


@njit
def sample_zombie_attack(st, tb, seed, z, h, rng, out):
    """Zombie z attacks human h once per trial (§7.3, §7.4)."""
    for k in range(out.shape[0]):
        restore(st)
        rng[0] = stream_start(np.uint64(seed), np.uint64(k))
        zombie_attacks(st, 0, tb, rng, z, h)
        melee_record(st, z, h, k, out)


@njit
def sample_human_attack(st, tb, seed, h, z, rng, out):
    """Human h fights zombie z once per trial (§7.3, §7.5)."""
    for k in range(out.shape[0]):
        restore(st)
        rng[0] = stream_start(np.uint64(seed), np.uint64(k))
        human_attacks(st, 0, tb, rng, h, z)
        melee_record(st, h, z, k, out)


@njit
def sample_fire(st, tb, seed, s, t, slot, aimed, blaze, moved, rng, out):
    """Human s fires the gun in ``slot`` at t once per trial (§5). out[k] = (hits of the first
    roll, dice, t's state, t's fate, the gun's state)."""
    for k in range(out.shape[0]):
        restore(st)
        rng[0] = stream_start(np.uint64(seed), np.uint64(k))
        volley(st, 0, tb, rng, s, t, slot, aimed, blaze, moved)
        e = first_event(st, EK_SHOT)
        out[k, 0] = st.events[0, e, EV_B] if e >= 0 else -1
        out[k, 1] = st.events[0, e, EV_A] if e >= 0 else -1
        out[k, 2], out[k, 3] = st.fi[0, t, FI_STATE], st.fi[0, t, FI_FATE]
        out[k, 4] = st.fi[0, s, FI_AMMO0 + slot]


@njit
def sample_shamble(st, tb, seed, z, rng, out):
    """Zombie z moves on a fresh group D6 once per trial (§6.2). out[k] = (inches x1000, state)."""
    for k in range(out.shape[0]):
        restore(st)
        rng[0] = stream_start(np.uint64(seed), np.uint64(k))
        shamble(st, 0, tb, rng, z, d6(rng, 0))
        dx, dy = st.ff[0, z, FF_X] - st.ff[1, z, FF_X], st.ff[0, z, FF_Y] - st.ff[1, z, FF_Y]
        out[k, 0] = int(round(1000.0 * np.sqrt(dx * dx + dy * dy)))
        out[k, 1] = st.fi[0, z, FI_STATE]


@njit
def sample_activation_checks(st, tb, seed, h, rng, out):
    """Human h's start-of-activation checks once per trial (§8). out[k] = (may act, state, kind)."""
    for k in range(out.shape[0]):
        restore(st)
        rng[0] = stream_start(np.uint64(seed), np.uint64(k))
        ok, _ = activation_checks(st, 0, tb, rng, h)
        out[k, 0], out[k, 1], out[k, 2] = int(ok), st.fi[0, h, FI_STATE], st.fi[0, h, FI_KIND]
