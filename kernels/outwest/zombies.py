"""Zombie groups (outwest §6, §11): a group card, its actions, the six rule of movement,
recovery, the waiting "Extra zombie action" and "And the dead shall rise" cards.

A group's action (W14): Recover / get up when half or more of its figures on the table are on
the ground, else Move and attack (a Move or an Attack alone is never better: a zombie in contact
does not move, and one that ends its move in contact may attack, §6.1).
"""

from __future__ import annotations

import math

from kernels.jit import njit
from kernels.outwest.figures import (
    face_towards,
    gap_between,
    gap_to_point,
    group_range,
    horse_bolts,
    is_human,
    is_member,
    is_zombie,
    knock_down,
    log_event,
    n_groups,
    n_humans,
    nearest_creature,
    place,
    settle,
    step_towards,
    touching,
)
from kernels.outwest.layout import (
    EK_FALL,
    EK_GET_UP,
    EK_LEAVE_FEED,
    EK_RETURN,
    EK_ZACTION,
    EK_ZMOVE,
    FATE_DESTROYED,
    FATE_IN_PLAY,
    FF_HORSE_X,
    FF_HORSE_Y,
    FF_X,
    FF_Y,
    FI_ACTED,
    FI_FATE,
    FI_FEED,
    FI_GUNSLINGER,
    FI_HORSE,
    FI_STATE,
    GS_EXTRA,
    GS_GRAVE,
    GS_RETURNED,
    GS_RISE,
    GS_THREAT,
    HORSE_LOOSE,
    P_BASE_R,
    P_FALLEN_GET_UP,
    P_FEED_LEAVE_ON,
    P_RECOVER_FRACTION,
    P_SINGLE_USES_CARDS,
    P_TABLE_H,
    P_TABLE_W,
    P_Z_RECOVER_ON,
    S_DOWN,
    S_GONE,
    S_STANDING,
    ZA_MOVE_ATTACK,
    ZA_RECOVER,
)
from kernels.outwest.melee import zombie_attacks, zombie_target
from kernels.outwest.shooting import gunslinger_slot, gunslinger_target, volley
from kernels.rng import d6

# ------------------------------------------------------------------ pure rules (hand-fed dice)


@njit
def six_rule(group_roll, own_roll):
    """Zombie movement (§6.2): (inches, falls over). Below 6 the group roll is the move; on a 6
    the zombie moves 6" and its own roll more, unless its own roll is also a 6: it falls over
    instead of making the extra move."""
    if group_roll < 6:
        return float(group_roll), False
    if own_roll == 6:
        return 6.0, True
    return 6.0 + own_roll, False


@njit
def chooses_recover(tb, n_on, n_down):
    """W14: Recover / get up when half (``P_RECOVER_FRACTION``) or more of the group is down."""
    return n_down > 0 and n_down >= tb.prm[P_RECOVER_FRACTION] * n_on


# ------------------------------------------------------------------ a group's card


@njit
def graveyard_spot(tb, edge, k, n):
    """The k-th of n returned zombies along the middle of the graveyard edge (§6.6, §12)."""
    r, w, h = tb.prm[P_BASE_R], tb.prm[P_TABLE_W], tb.prm[P_TABLE_H]
    off = (k - 0.5 * (n - 1)) * (2.0 * r + 0.25)
    if edge == 0:
        return 0.5 * w + off, r
    if edge == 1:
        return w - r, 0.5 * h + off
    if edge == 2:
        return 0.5 * w + off, h - r
    return r, 0.5 * h + off


@njit
def return_destroyed(st, g, tb, q):
    """"And the dead shall rise" (§6.6): every destroyed figure of group q comes back, standing
    at the graveyard. Groups of one (risen characters) are never returned."""
    if q >= n_groups(tb):
        return
    first, stop = group_range(st, g, tb, q)
    n = 0
    for z in range(first, stop):
        n += st.fi[g, z, FI_FATE] == FATE_DESTROYED
    k = 0
    for z in range(first, stop):
        if st.fi[g, z, FI_FATE] == FATE_DESTROYED:
            x, y = graveyard_spot(tb, st.gs[g, GS_GRAVE], k, n)
            place(st, g, tb, z, x, y)
            face_towards(st, g, z, 0.5 * tb.prm[P_TABLE_W], 0.5 * tb.prm[P_TABLE_H])
            st.fi[g, z, FI_STATE] = S_STANDING
            st.fi[g, z, FI_FATE] = FATE_IN_PLAY
            st.fi[g, z, FI_FEED] = -1
            st.gs[g, GS_RETURNED] += 1
            log_event(st, g, EK_RETURN, z, q, st.ff[g, z, FF_X], st.ff[g, z, FF_Y], 0.0)
            k += 1


@njit
def group_on_table(st, g, tb, q):
    first, stop = group_range(st, g, tb, q)
    n = 0
    for z in range(first, stop):
        n += is_member(st, g, tb, q, z) and st.fi[g, z, FI_STATE] != S_GONE
    return n


@njit
def group_card(st, g, tb, rng, q):
    """Group q's card is drawn (§3.2): the waiting "And the dead shall rise" first returns its
    destroyed figures, a waiting "Extra zombie action" gives it two actions; each waiting card
    is used by this card. A risen character's card uses them only while his zombie is on the
    table (and ``P_SINGLE_USES_CARDS``)."""
    single = q >= n_groups(tb)
    uses = not single or (group_on_table(st, g, tb, q) > 0 and tb.prm[P_SINGLE_USES_CARDS] != 0)
    actions = 1
    if uses and st.gs[g, GS_RISE] != 0:
        st.gs[g, GS_RISE] = 0
        return_destroyed(st, g, tb, q)
    if uses and st.gs[g, GS_EXTRA] != 0:
        st.gs[g, GS_EXTRA] = 0
        actions = 2
    for _ in range(actions):
        zombie_action(st, g, tb, rng, q)
    st.gs[g, GS_THREAT] = int(group_threatens(st, g, tb, q))


@njit
def group_threatens(st, g, tb, q):
    """A standing zombie of group q touches a human (P5's trigger)."""
    first, stop = group_range(st, g, tb, q)
    for z in range(first, stop):
        if is_member(st, g, tb, q, z) and st.fi[g, z, FI_STATE] == S_STANDING:
            for h in range(n_humans(tb)):
                if is_human(st, g, h) and touching(gap_between(st, g, tb, z, h)):
                    return True
    return False


@njit
def zombie_action(st, g, tb, rng, q):
    """One action of group q (W14)."""
    first, stop = group_range(st, g, tb, q)
    n_on, n_down = 0, 0
    for z in range(first, stop):
        if is_member(st, g, tb, q, z) and st.fi[g, z, FI_STATE] != S_GONE:
            n_on += 1
            n_down += st.fi[g, z, FI_STATE] == S_DOWN
    if n_on == 0:
        return
    if chooses_recover(tb, n_on, n_down):
        log_event(st, g, EK_ZACTION, q, ZA_RECOVER, n_on, n_down, 0.0)
        recover_action(st, g, tb, rng, q)
    else:
        move_and_attack(st, g, tb, rng, q)


@njit
def leave_feeding(st, g, tb, rng, z):
    """A feeding zombie must roll 4+ to leave the marker (§6.5), instead of its other action."""
    roll = d6(rng, g)
    if roll >= tb.prm[P_FEED_LEAVE_ON]:
        st.fi[g, z, FI_FEED] = -1
    log_event(st, g, EK_LEAVE_FEED, z, int(roll >= tb.prm[P_FEED_LEAVE_ON]), roll, 0.0, 0.0)


@njit
def recover_action(st, g, tb, rng, q):
    """Recover / get up (§6.3): every fallen zombie of the group rolls 4+ to get up."""
    first, stop = group_range(st, g, tb, q)
    for z in range(first, stop):
        if not is_member(st, g, tb, q, z) or st.fi[g, z, FI_STATE] == S_GONE:
            continue
        if st.fi[g, z, FI_FEED] >= 0:
            leave_feeding(st, g, tb, rng, z)
        elif st.fi[g, z, FI_STATE] == S_DOWN:
            get_up(st, g, tb, rng, z)


@njit
def get_up(st, g, tb, rng, z):
    """A fallen zombie rolls 4+ to get up (§6.3)."""
    roll = d6(rng, g)
    if roll >= tb.prm[P_Z_RECOVER_ON]:
        st.fi[g, z, FI_STATE] = S_STANDING
    log_event(st, g, EK_GET_UP, z, int(roll >= tb.prm[P_Z_RECOVER_ON]), roll, 0.0, 0.0)


@njit
def shamble(st, g, tb, rng, z, group_roll):
    """Zombie z moves on the group's roll (§6.2), straight at the nearest living creature and
    stopping on contact; gunslingers shoot on a 1 instead (§11, W29). A zombie that reaches
    contact in its first 6" does not roll on."""
    gap, tx, ty, who = nearest_creature(st, g, tb, z)
    if who == -1 and gap > 1e8:
        return
    if touching(gap):
        return
    if st.fi[g, z, FI_GUNSLINGER] and group_roll == 1 and shoots_instead(st, g, tb, rng, z, 0):
        return
    x0, y0 = st.ff[g, z, FF_X], st.ff[g, z, FF_Y]
    if group_roll < 6:
        step_towards(st, g, tb, z, tx, ty, float(group_roll))
    else:
        step_towards(st, g, tb, z, tx, ty, 6.0)
        gap, tx, ty, who = nearest_creature(st, g, tb, z)
        if not touching(gap):
            own = d6(rng, g)
            dist, falls = six_rule(group_roll, own)
            if falls:
                knock_down(st, g, tb, z)
                log_event(st, g, EK_FALL, z, -1, st.ff[g, z, FF_X], st.ff[g, z, FF_Y], 0.0)
            elif st.fi[g, z, FI_GUNSLINGER] and own == 1 and shoots_instead(st, g, tb, rng, z, 1):
                pass
            else:
                step_towards(st, g, tb, z, tx, ty, dist - 6.0)
    gap, tx, ty, who = nearest_creature(st, g, tb, z)
    if touching(gap):
        settle(st, g, tb, z, tx, ty)
    log_event(st, g, EK_ZMOVE, z, who, st.ff[g, z, FF_X], st.ff[g, z, FF_Y],
              math.sqrt((st.ff[g, z, FF_X] - x0) ** 2 + (st.ff[g, z, FF_Y] - y0) ** 2))


@njit
def shoots_instead(st, g, tb, rng, z, moved):
    """A gunslinger's 1 (§11): it shoots the nearest human it can (True); with nobody in range
    or sight it moves instead (False)."""
    h = gunslinger_target(st, g, tb, z)
    if h < 0:
        return False
    volley(st, g, tb, rng, z, h, gunslinger_slot(st, g, tb, z, gap_between(st, g, tb, z, h)), 0, 0, moved)
    return True


@njit
def touch_horses(st, g, tb, z):
    """A zombie touching a loose horse makes it bolt (a reading: the rules give horses no fight)."""
    for h in range(n_humans(tb)):
        if st.fi[g, h, FI_HORSE] == HORSE_LOOSE and \
                touching(gap_to_point(st, g, tb, z, st.ff[g, h, FF_HORSE_X], st.ff[g, h, FF_HORSE_Y])):
            horse_bolts(st, g, h)


@njit
def in_contact_with_human(st, g, tb, z):
    for h in range(n_humans(tb)):
        if is_human(st, g, h) and touching(gap_between(st, g, tb, z, h)):
            return True
    return False


@njit
def move_and_attack(st, g, tb, rng, q):
    """Move and attack (§6.1, §6.2): one D6 for the group, every zombie moves; then every
    zombie of the group that began in contact or moved into contact attacks (§6.1, W15)."""
    roll = d6(rng, g)
    log_event(st, g, EK_ZACTION, q, ZA_MOVE_ATTACK, roll, 0.0, 0.0)
    first, stop = group_range(st, g, tb, q)
    for z in range(first, stop):
        if not is_member(st, g, tb, q, z) or st.fi[g, z, FI_STATE] == S_GONE:
            continue
        st.fi[g, z, FI_ACTED] = 0
        if st.fi[g, z, FI_FEED] >= 0:
            leave_feeding(st, g, tb, rng, z)
            continue
        if st.fi[g, z, FI_STATE] != S_STANDING:
            if tb.prm[P_FALLEN_GET_UP] != 0:
                get_up(st, g, tb, rng, z)  # the other reading of W14: it rolls instead of moving
            continue  # knocked down: does not move (§6.2)
        shamble(st, g, tb, rng, z, roll)
        if is_zombie(st, g, z):
            touch_horses(st, g, tb, z)
            st.fi[g, z, FI_ACTED] = int(st.fi[g, z, FI_STATE] == S_STANDING and in_contact_with_human(st, g, tb, z))
    for z in range(first, stop):
        if is_member(st, g, tb, q, z) and st.fi[g, z, FI_ACTED] and st.fi[g, z, FI_STATE] == S_STANDING \
                and st.fi[g, z, FI_FEED] < 0:
            h = zombie_target(st, g, tb, z)
            if h >= 0:
                zombie_attacks(st, g, tb, rng, z, h)
        st.fi[g, z, FI_ACTED] = 0
