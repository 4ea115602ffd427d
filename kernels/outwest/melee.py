"""Melee between humans and zombies (outwest §7), bites (§7.4, §8) and the feeding frenzy (§6.5).

Each melee is one attacker against one defender (§7.3): the attacker rolls its modified attack
value in dice, the defender its modified defend value; sixes are counted. More sixes for the
defender knock the attacker over; otherwise every six of the attacker beyond the defender's is
a hit, rolled on the table of §7.4 (zombies on humans, basic or Zombie Plague) or §7.5 (humans
on zombies, Effective or Limited weapon).
"""

from __future__ import annotations

from kernels.jit import njit
from kernels.outwest.figures import (
    EPS,
    arc_of,
    destroy_zombie,
    face_towards,
    gap_between,
    gap_to_point,
    is_human,
    is_zombie,
    knock_down,
    log_event,
    n_humans,
    nearest_creature,
    push_back,
    remove,
    rise,
    settle,
    step_towards,
    touching,
)
from kernels.outwest.layout import (
    CL_MELEE_MOD,
    EK_BITE,
    EK_DEVOURED,
    EK_FEED,
    EK_MELEE,
    EK_PUSH,
    EK_ZOMBIE_HIT,
    FATE_DEVOURED,
    FF_FACING,
    FF_X,
    FF_Y,
    FI_BITES,
    FI_CLASS,
    FI_FEED,
    FI_GUN0,
    FI_MELEE,
    FI_NO_MOVE,
    FI_STATE,
    GS_BITTEN,
    GS_DEVOURED,
    HZ_DESTROY,
    HZ_DOWN,
    HZ_PUSH,
    MELEE_EFFECTIVE,
    MELEE_LIMITED,
    MK_ON,
    MK_X,
    MK_Y,
    P_BEHIND_ATT,
    P_BEHIND_DEF,
    P_BITE_CAN_KILL,
    P_BITE_DEATH_RISES,
    P_CLUB_LONG_GUNS,
    P_EFF_DICE,
    P_FEED_RADIUS,
    P_FRONT_HALF,
    P_GROUND,
    P_LIM_DICE,
    P_PER_BITE,
    P_PLAGUE,
    P_PUSH_IN,
    P_REAR_HALF,
    P_SIDE,
    P_Z_ATTACK,
    P_Z_DEFEND,
    P_Z_TARGET_HELPLESS,
    PR_BITES,
    R_DEAD,
    R_SERIOUS,
    S_DOWN,
    S_GONE,
    S_OUT,
    S_STANDING,
    W_TWO_HANDS,
    ZH_BITE,
    ZH_DEVOUR,
    ZH_DOWN,
    ZH_PLAGUE,
    ZH_PUSH,
)
from kernels.outwest.shooting import apply_wound, location_result
from kernels.rng import d6

# ------------------------------------------------------------------ pure rules (hand-fed dice)


@njit
def attack_dice(tb, base, class_mod, bites, opponent_down, from_behind):
    """Modified attack value (§7.1, §7.2): opponent on the ground +3, per bite -1, attacking
    from behind +2, class modifier; never below 0."""
    n = base + class_mod - bites * tb.prm[P_PER_BITE] + opponent_down * tb.prm[P_GROUND] \
        + from_behind * tb.prm[P_BEHIND_ATT]
    return max(0, int(n))


@njit
def defend_dice(tb, base, class_mod, bites, opponent_down, arc):
    """Modified defend value (§7.2): attacked from the side -2, from behind -2, per bite -1,
    class modifier, opponent on the ground +3; never below 0."""
    n = base + class_mod - bites * tb.prm[P_PER_BITE] + opponent_down * tb.prm[P_GROUND]
    n -= (arc == 1) * tb.prm[P_SIDE] + (arc == 2) * tb.prm[P_BEHIND_DEF]
    return max(0, int(n))


@njit
def melee_outcome(attacker_sixes, defender_sixes):
    """§7.3 steps 3-4: (attacker knocked over, hits)."""
    if defender_sixes > attacker_sixes:
        return True, 0
    return False, attacker_sixes - defender_sixes


@njit
def count_sixes(rng, g, n):
    sixes = 0
    for _ in range(n):
        sixes += d6(rng, g) == 6
    return sixes


@njit
def melee_class(st, g, tb, h):
    """Effective or Limited (§2.2): the character's melee weapon; with ``P_CLUB_LONG_GUNS`` a
    rifle, shotgun or musketoon used as a club is Effective."""
    if st.fi[g, h, FI_MELEE] == MELEE_EFFECTIVE:
        return MELEE_EFFECTIVE
    if tb.prm[P_CLUB_LONG_GUNS] != 0:
        for k in range(2):
            w = st.fi[g, h, FI_GUN0 + k]
            if w >= 0 and tb.weapons[w, W_TWO_HANDS]:
                return MELEE_EFFECTIVE
    return MELEE_LIMITED


@njit
def human_base(st, g, tb, h):
    return tb.prm[P_EFF_DICE] if melee_class(st, g, tb, h) == MELEE_EFFECTIVE else tb.prm[P_LIM_DICE]


@njit
def arc_from(st, g, tb, defender, attacker):
    """The arc of ``defender`` that ``attacker`` stands in (0 front, 1 side, 2 rear; §1, W11)."""
    return arc_of(st.ff[g, defender, FF_FACING], st.ff[g, defender, FF_X], st.ff[g, defender, FF_Y],
                  st.ff[g, attacker, FF_X], st.ff[g, attacker, FF_Y], tb.prm[P_FRONT_HALF], tb.prm[P_REAR_HALF])


@njit
def human_defence(st, g, tb, h, z):
    """Defend dice of human h against zombie z; an unconscious human rolls none."""
    if st.fi[g, h, FI_STATE] == S_OUT:
        return 0
    return defend_dice(tb, human_base(st, g, tb, h), tb.cls[st.fi[g, h, FI_CLASS], CL_MELEE_MOD],
                       st.fi[g, h, FI_BITES], int(st.fi[g, z, FI_STATE] == S_DOWN), arc_from(st, g, tb, h, z))


@njit
def zombie_attack_value(st, g, tb, z, h):
    on_ground = st.fi[g, h, FI_STATE] == S_DOWN or st.fi[g, h, FI_STATE] == S_OUT
    return attack_dice(tb, tb.prm[P_Z_ATTACK], 0, 0, int(on_ground), int(arc_from(st, g, tb, h, z) == 2))


# ------------------------------------------------------------------ zombies attack humans


@njit
def zombie_target(st, g, tb, z):
    """The human zombie z attacks among those it touches (W16): one on the ground or
    unconscious first (``P_Z_TARGET_HELPLESS``; off: the other reading, the fewest defend dice
    whoever stands), then the one with the fewest defend dice; -1 none."""
    best, who = 1 << 30, -1
    helpless_first = tb.prm[P_Z_TARGET_HELPLESS] != 0
    for h in range(n_humans(tb)):
        if is_human(st, g, h) and touching(gap_between(st, g, tb, z, h)):
            helpless = helpless_first and (st.fi[g, h, FI_STATE] == S_DOWN or st.fi[g, h, FI_STATE] == S_OUT)
            key = (0 if helpless else 1000) + human_defence(st, g, tb, h, z)
            if key < best:
                best, who = key, h
    return who


@njit
def bite(st, g, tb, rng, h, z):
    """Bitten and wounded (§7.4, §8): one more bite, rolled on the location table with no
    modifiers. W21: a "Dead" result kills (or, with ``P_BITE_CAN_KILL`` off, is a serious
    wound). True when the human leaves the table or rises."""
    if st.fi[g, h, FI_BITES] == 0:
        st.gs[g, GS_BITTEN] += 1
    st.fi[g, h, FI_BITES] += 1
    st.pres[g, h, PR_BITES] += 1
    loc = d6(rng, g)
    eff = d6(rng, g)
    bits = location_result(tb, loc, eff, 0)
    log_event(st, g, EK_BITE, h, z, loc, eff, bits)
    if bits & R_DEAD:
        if tb.prm[P_BITE_CAN_KILL] == 0:
            bits = R_SERIOUS
        elif tb.prm[P_PLAGUE] != 0 and tb.prm[P_BITE_DEATH_RISES] != 0:
            rise(st, g, tb, h)
            return True
    return apply_wound(st, g, tb, h, bits)


@njit
def zombie_hit(st, g, tb, rng, h, z, result):
    """One hit on human h (§7.4); returns True when he is gone or risen (no more hits)."""
    if result == ZH_DOWN:
        knock_down(st, g, tb, h)
        return False
    if result == ZH_BITE:
        return bite(st, g, tb, rng, h, z)
    if result == ZH_PLAGUE:  # bitten and dies, succumbing to the plague
        if st.fi[g, h, FI_BITES] == 0:
            st.gs[g, GS_BITTEN] += 1
        st.fi[g, h, FI_BITES] += 1
        st.pres[g, h, PR_BITES] += 1
        rise(st, g, tb, h)
        return True
    if result == ZH_DEVOUR:
        devour(st, g, tb, h)
        return True
    return False


@njit
def zombie_attacks(st, g, tb, rng, z, h):
    """Zombie z attacks human h (§7.3, §7.4). Push-backs come after all the other hits."""
    a = zombie_attack_value(st, g, tb, z, h)
    d = human_defence(st, g, tb, h, z)
    a6 = count_sixes(rng, g, a)
    d6n = count_sixes(rng, g, d)
    over, hits = melee_outcome(a6, d6n)
    log_event(st, g, EK_MELEE, z, h, a6, d6n, hits)
    if over:
        knock_down(st, g, tb, z)
        return
    row = 1 if tb.prm[P_PLAGUE] != 0 else 0
    pushes = 0
    for _ in range(hits):
        r = d6(rng, g)
        result = tb.zombie_hits[row, r - 1]
        log_event(st, g, EK_ZOMBIE_HIT, z, h, r, result, 0.0)
        if result == ZH_PUSH:
            pushes += 1
        elif zombie_hit(st, g, tb, rng, h, z, result):
            return
    if pushes > 0 and is_human(st, g, h):
        push_back(st, g, tb, h, st.ff[g, z, FF_X], st.ff[g, z, FF_Y], pushes * tb.prm[P_PUSH_IN])
        log_event(st, g, EK_PUSH, h, z, pushes * tb.prm[P_PUSH_IN], 0.0, 0.0)


# ------------------------------------------------------------------ the feeding frenzy (§6.5)


@njit
def devour(st, g, tb, h):
    """Torn apart and devoured: the human is dead and a marker goes down where he fell."""
    x, y = st.ff[g, h, FF_X], st.ff[g, h, FF_Y]
    remove(st, g, h, FATE_DEVOURED)
    st.gs[g, GS_DEVOURED] += 1
    log_event(st, g, EK_DEVOURED, h, -1, x, y, 0.0)
    st.mk[g, h, MK_X], st.mk[g, h, MK_Y], st.mk[g, h, MK_ON] = x, y, 1.0
    feeding_frenzy(st, g, tb, h)


@njit
def feeding_frenzy(st, g, tb, m):
    """Every standing zombie within 3" of the victim, not closer to another living creature,
    moves into contact with the marker at once and feeds (§6.5, W18)."""
    x, y = st.mk[g, m, MK_X], st.mk[g, m, MK_Y]
    for z in range(st.fi.shape[1]):
        if not is_zombie(st, g, z) or st.fi[g, z, FI_STATE] != S_STANDING or st.fi[g, z, FI_FEED] >= 0:
            continue
        d = gap_to_point(st, g, tb, z, x, y)
        if d > tb.prm[P_FEED_RADIUS] + EPS:
            continue
        near, _, _, _ = nearest_creature(st, g, tb, z)
        if near + EPS >= d:
            step_towards(st, g, tb, z, x, y, d + 1.0)
            settle(st, g, tb, z, x, y)
            st.fi[g, z, FI_FEED] = m
            log_event(st, g, EK_FEED, z, m, st.ff[g, z, FF_X], st.ff[g, z, FF_Y], 0.0)


@njit
def clear_markers(st, g):
    """A marker is removed when no zombie feeds at it (§6.5)."""
    for m in range(st.mk.shape[1]):
        if st.mk[g, m, MK_ON] != 0.0:
            fed = False
            for z in range(st.fi.shape[1]):
                if st.fi[g, z, FI_STATE] != S_GONE and st.fi[g, z, FI_FEED] == m:
                    fed = True
                    break
            if not fed:
                st.mk[g, m, MK_ON] = 0.0


# ------------------------------------------------------------------ humans attack zombies (Fight)


@njit
def human_attacks(st, g, tb, rng, h, z):
    """Human h fights zombie z in base contact (§7.3, §7.5), turning to face it first (unless he
    may not turn). A zombie already on the ground is destroyed by a "knocked down" result."""
    if st.fi[g, h, FI_NO_MOVE] == 0:
        face_towards(st, g, h, st.ff[g, z, FF_X], st.ff[g, z, FF_Y])
    arc = arc_from(st, g, tb, z, h)
    a = attack_dice(tb, human_base(st, g, tb, h), tb.cls[st.fi[g, h, FI_CLASS], CL_MELEE_MOD],
                    st.fi[g, h, FI_BITES], int(st.fi[g, z, FI_STATE] == S_DOWN), int(arc == 2))
    d = defend_dice(tb, tb.prm[P_Z_DEFEND], 0, 0, int(st.fi[g, h, FI_STATE] == S_DOWN), arc)
    a6 = count_sixes(rng, g, a)
    d6n = count_sixes(rng, g, d)
    over, hits = melee_outcome(a6, d6n)
    log_event(st, g, EK_MELEE, h, z, a6, d6n, hits)
    if over:
        knock_down(st, g, tb, h)
        return
    row = melee_class(st, g, tb, h)
    for _ in range(hits):
        r = d6(rng, g)
        result = tb.human_hits[row, r - 1]
        log_event(st, g, EK_ZOMBIE_HIT, h, z, r, result, 1.0)
        if result == HZ_DESTROY or (result == HZ_DOWN and st.fi[g, z, FI_STATE] == S_DOWN):
            destroy_zombie(st, g, tb, z, h)
            return
        if result == HZ_DOWN:
            knock_down(st, g, tb, z)
        elif result == HZ_PUSH:
            push_back(st, g, tb, z, st.ff[g, h, FF_X], st.ff[g, h, FF_Y], tb.prm[P_PUSH_IN])


@njit
def fight_target(st, g, tb, h):
    """The zombie h fights among those touching him: one on the ground first (+3 dice, and a
    knock-down destroys it), then one he stands behind, then the nearest slot; -1 none."""
    best, who = 1 << 30, -1
    for z in range(st.fi.shape[1]):
        if is_zombie(st, g, z) and touching(gap_between(st, g, tb, h, z)):
            key = (0 if st.fi[g, z, FI_STATE] == S_DOWN else 10) + (0 if arc_from(st, g, tb, z, h) == 2 else 1)
            if key < best:
                best, who = key, z
    return who
