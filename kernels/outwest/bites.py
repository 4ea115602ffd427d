"""What happens to a human as his card comes up, before he acts (outwest §8, §10, §5.6, W12).

Order (§13): an unconscious character rolls to come round (knocked out, §5.6) or, bitten into
unconsciousness under the Zombie Plague, to wake or to die and rise (§8); a conscious one rolls
for every bite he carries (§8, W19: at every activation, card drawn or action card spent); a
rider near a zombie tests whether his horse throws him (§10); a Citizen near a zombie may lose
his nerve (W12, off by default).
"""

from __future__ import annotations

from kernels.jit import njit
from kernels.outwest.figures import horse_bolts, knock_down, log_event, nearest_zombie, rise
from kernels.outwest.layout import (
    CITIZEN,
    EK_BITE_TEST,
    EK_LAPSE,
    EK_NERVE,
    EK_SPOOK,
    EK_WAKE,
    FI_BITES,
    FI_CLASS,
    FI_HORSE,
    FI_LAPSED,
    FI_RECOVER,
    FI_STATE,
    HORSE_RIDDEN,
    P_BITE_LAPSE_ON,
    P_CITIZEN_NERVE,
    P_KO_WAKE_ON,
    P_NERVE_ON,
    P_NERVE_RADIUS,
    P_PLAGUE,
    P_PLAGUE_DIE_ON,
    P_PLAGUE_TOTAL,
    P_PLAGUE_WAKE_ON,
    P_SPOOK_RADIUS,
    P_THROWN_ON,
    S_DOWN,
    S_OUT,
    S_STANDING,
)
from kernels.rng import d6

# ------------------------------------------------------------------ pure rules (hand-fed dice)


@njit
def plague_lapses(tb, a, b):
    """Zombie Plague bite test of two dice (§8, W20): either die a 6 (default), or a total of 6."""
    if tb.prm[P_PLAGUE_TOTAL] != 0:
        return a + b == 6
    return a == 6 or b == 6


@njit
def unconscious_outcome(tb, roll, lapsed, plague):
    """An unconscious character's roll: 1 comes round knocked down (knocked out, W10: a 6),
    2 wakes with no ill effect (plague bite: 6), 3 dies and rises (plague bite: 1), 0 no change."""
    if not lapsed:
        return 1 if roll >= tb.prm[P_KO_WAKE_ON] else 0
    if not plague:
        return 0
    if roll >= tb.prm[P_PLAGUE_WAKE_ON]:
        return 2
    if roll <= tb.prm[P_PLAGUE_DIE_ON]:
        return 3
    return 0


# ------------------------------------------------------------------ the checks


@njit
def unconscious_roll(st, g, tb, rng, h):
    """§5.6 "knocked out" and §8: the roll of an unconscious character at his activation. In the
    basic game a bite's unconsciousness lasts the rest of the game: no roll."""
    lapsed = st.fi[g, h, FI_LAPSED] != 0
    plague = tb.prm[P_PLAGUE] != 0
    if lapsed and not plague:
        return
    roll = d6(rng, g)
    out = unconscious_outcome(tb, roll, lapsed, plague)
    log_event(st, g, EK_WAKE, h, out, roll, 0.0, 0.0)
    if out == 1:
        st.fi[g, h, FI_STATE] = S_DOWN  # comes round, still knocked down
        st.fi[g, h, FI_RECOVER] = 1
    elif out == 2:
        st.fi[g, h, FI_STATE] = S_STANDING
        st.fi[g, h, FI_LAPSED] = 0
        st.fi[g, h, FI_RECOVER] = 0
    elif out == 3:
        rise(st, g, tb, h)


@njit
def bite_tests(st, g, tb, rng, h):
    """For every bite, 1 D6 (a 6 lapses into unconsciousness for the rest of the game), or
    under the Zombie Plague 2 D6 (W20); True when he lapses (the tests stop there)."""
    for _ in range(st.fi[g, h, FI_BITES]):
        if tb.prm[P_PLAGUE] != 0:
            a, b = d6(rng, g), d6(rng, g)
            lapses = plague_lapses(tb, a, b)
        else:
            a, b = d6(rng, g), 0
            lapses = a >= tb.prm[P_BITE_LAPSE_ON]
        log_event(st, g, EK_BITE_TEST, h, int(lapses), a, b, 0.0)
        if lapses:
            st.fi[g, h, FI_STATE] = S_OUT
            st.fi[g, h, FI_LAPSED] = 1
            log_event(st, g, EK_LAPSE, h, -1, 0.0, 0.0, 0.0)
            return True
    return False


@njit
def spook_test(st, g, tb, rng, h):
    """§10: a horse within 5" of a zombie is spooked; on 5-6 the rider is thrown (knocked down
    beside it) and the horse bolts off the table. True when thrown."""
    if st.fi[g, h, FI_HORSE] != HORSE_RIDDEN:
        return False
    gap, _ = nearest_zombie(st, g, tb, h)
    if gap > tb.prm[P_SPOOK_RADIUS]:
        return False
    roll = d6(rng, g)
    thrown = roll >= tb.prm[P_THROWN_ON]
    log_event(st, g, EK_SPOOK, h, int(thrown), roll, gap, 0.0)
    if thrown:
        horse_bolts(st, g, h)
        knock_down(st, g, tb, h)
    return thrown


@njit
def nerve_test(st, g, tb, rng, h):
    """W12 (off by default): a Citizen with a zombie within 3" rolls a D6; 1-2 he must move away."""
    if tb.prm[P_CITIZEN_NERVE] == 0 or st.fi[g, h, FI_CLASS] != CITIZEN:
        return False
    gap, _ = nearest_zombie(st, g, tb, h)
    if gap > tb.prm[P_NERVE_RADIUS]:
        return False
    roll = d6(rng, g)
    log_event(st, g, EK_NERVE, h, -1, roll, gap, 0.0)
    return roll <= tb.prm[P_NERVE_ON]


@njit
def activation_checks(st, g, tb, rng, h):
    """The start of an activation (§13). Returns (may act, must move away)."""
    if st.fi[g, h, FI_STATE] == S_OUT:
        unconscious_roll(st, g, tb, rng, h)
        return False, False
    if bite_tests(st, g, tb, rng, h):
        return False, False
    spook_test(st, g, tb, rng, h)
    return True, nerve_test(st, g, tb, rng, h)
