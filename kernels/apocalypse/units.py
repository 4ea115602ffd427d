"""The players' units: models in slots, Warlords, their traits in play (§7), joining (§6 c, §7).

A unit's living models are its slots with Wounds left; wounds go to the lowest living slot
(troopers first, the sergeant, then Independent Characters: a wound that would fall on a
Character goes on to another model by Look Out, Sir, core §16, so only Precision Shots and
Strikes reach one while others live). ``refresh_traits`` recomputes every model's rules in play
from its rules as built whenever a Warlord dies, joins or leaves a unit.
"""

from __future__ import annotations

from kernels.apocalypse.columns import (
    EK_DISEMBARK,
    EK_EMBARK,
    EK_JOIN,
    EK_UNIT_LOST,
    MI_OWNER,
    MI_ROLE,
    MI_VEHICLE,
    MI_WARLORD,
    N_MI,
    P_BASE_R,
    P_SPACING,
    P_TABLE,
    POL_TRAIT,
    ROLE_IC,
    TRAIT_DEFENCE,
    TRAIT_INSPIRING,
    TRAIT_OFFENCE,
    TRAIT_TENACITY,
    US_ALIVE,
    US_DISEMBARKED,
    US_EMBARKED,
    US_MOVED,
    US_NO_CHARGE,
    US_OWNER,
)
from kernels.apocalypse.geometry import disc_radius, gap
from kernels.apocalypse.trace import log_event
from kernels.jit import njit
from kernels.w40k.columns import (
    FNP,
    LD,
    MR_ATSKNF,
    MR_COUNTER_ATTACK,
    MR_FEARLESS,
    MR_FURIOUS_CHARGE,
    MR_PSYKER,
    MR_STUBBORN,
    N_STATS,
    NONE,
)
from kernels.w40k.geometry import norm

INSPIRING_RANGE = 12.0  # §7 trait 5 [V]
DISEMBARK_IN = 3.0  # apocalypse V11: passengers get out within 3" of the hull (the 7th-edition core, as remembered)
TENACITY_FNP, TENACITY_FNP_HAD = 5, 4  # §7 trait 3 (A33: the core's standard 5+) [V]

# ------------------------------------------------------------------ counts and shape


@njit
def unit_alive(st, g, u):
    """Unit u is in play on the table: alive and not embarked in a transport (apocalypse V11, §8: a
    unit aboard is no target, is not charged, blocks no move and neither scores nor extracts)."""
    return st.ust[g, u, US_ALIVE] != 0 and st.ust[g, u, US_EMBARKED] == 0


@njit
def unit_exists(st, g, u):
    """Unit u has living models, on the table or embarked (its Warlord, traits, casualties, results)."""
    return st.ust[g, u, US_ALIVE] != 0


@njit
def carrier(st, g, u):
    """The transport unit u rides in, -1 if it is on the table."""
    return st.ust[g, u, US_EMBARKED] - 1


@njit
def passengers(st, g, v):
    """The unit embarked in transport v, -1 if none (one squad a transport, §2)."""
    for u in range(st.ust.shape[1]):
        if st.ust[g, u, US_ALIVE] != 0 and st.ust[g, u, US_EMBARKED] == v + 1:
            return u
    return -1


@njit
def models_alive(st, g, u):
    n = 0
    for m in range(st.wounds.shape[2]):
        n += st.wounds[g, u, m] > 0
    return n


@njit
def refresh_radius(st, g, u, tb):
    """The disc of the unit's living models; a unit aboard takes its transport's (its range is measured
    from the hull, §8)."""
    v = st.ust[g, u, US_EMBARKED] - 1
    if v >= 0:
        st.urad[g, u] = st.urad[g, v]
        return
    st.urad[g, u] = disc_radius(models_alive(st, g, u), tb.prm[P_BASE_R], tb.prm[P_SPACING])


@njit
def hull_reach(rv, ru, reach):
    """How far from a transport's centre (hull disc of radius ``rv``) the centre of a unit's disc
    (radius ``ru``) may stand with every model within ``reach`` of the hull: its far side at ``reach``,
    or edge to edge with the hull when the disc is wider than that (V11 [C])."""
    return rv + ru + max(0.0, reach - 2.0 * ru)


@njit
def disembark(st, g, u, v, gx, gy, reach, phase, tb):
    """Unit u gets out of transport v (apocalypse V11): its disc on the side of the hull facing (gx, gy)
    (choice), as far that way as keeps every model within ``reach`` of the hull (edge to edge when its
    disc is wider than that), on the table. It may not move further this turn: no Run, no charge
    (choice); it counts as having moved if the transport did."""
    st.ust[g, u, US_EMBARKED] = 0
    refresh_radius(st, g, u, tb)
    tx, ty = st.upos[g, v, 0], st.upos[g, v, 1]
    dx, dy = gx - tx, gy - ty
    d = norm(dx, dy)
    if d < 1e-9:
        dx, dy, d = 1.0, 0.0, 1.0
    ru = st.urad[g, u]
    out = hull_reach(st.urad[g, v], ru, reach)
    side = tb.prm[P_TABLE]
    st.upos[g, u, 0] = min(max(tx + dx / d * out, ru), side - ru)
    st.upos[g, u, 1] = min(max(ty + dy / d * out, ru), side - ru)
    st.ust[g, u, US_DISEMBARKED] = 1
    st.ust[g, u, US_NO_CHARGE] = 1
    st.ust[g, u, US_MOVED] = max(st.ust[g, u, US_MOVED], st.ust[g, v, US_MOVED])
    log_event(st, g, phase, EK_DISEMBARK, u, v, models_alive(st, g, u), st.upos[g, u, 0], st.upos[g, u, 1])


@njit
def embark_reach(st, g, u, v, within):
    """Every model of unit u is within ``within`` of transport v's hull (V11 [C]): its disc's far side
    within that of the hull, or edge to edge when the disc is wider (as ``disembark`` places it)."""
    dx, dy = st.upos[g, u, 0] - st.upos[g, v, 0], st.upos[g, u, 1] - st.upos[g, v, 1]
    return norm(dx, dy) <= hull_reach(st.urad[g, v], st.urad[g, u], within) + 1e-9


@njit
def embark(st, g, u, v, phase):
    """Unit u embarks on transport v again (V11 [C]): off the table, where the hull stands, with its disc."""
    st.ust[g, u, US_EMBARKED] = v + 1
    log_event(st, g, phase, EK_EMBARK, u, v, models_alive(st, g, u), st.upos[g, v, 0], st.upos[g, v, 1])
    ride_along(st, g, v)


@njit
def ride_along(st, g, v):
    """The squad aboard transport v stands where it does and has moved as it did (range from the hull, §8)."""
    u = passengers(st, g, v)
    if u >= 0:
        st.upos[g, u, 0], st.upos[g, u, 1] = st.upos[g, v, 0], st.upos[g, v, 1]
        st.urad[g, u] = st.urad[g, v]
        st.ust[g, u, US_MOVED] = st.ust[g, v, US_MOVED]
    return u


@njit
def unit_gap_horde(st, g, u, h):
    return gap(st.upos[g, u, 0], st.upos[g, u, 1], st.urad[g, u], st.hpos[g, h, 0], st.hpos[g, h, 1], st.hrad[g, h])


@njit
def unit_gap_unit(st, g, u, v):
    return gap(st.upos[g, u, 0], st.upos[g, u, 1], st.urad[g, u], st.upos[g, v, 0], st.upos[g, v, 1], st.urad[g, v])


@njit
def majority(st, g, u, col):
    """The unit's majority value of a characteristic (ties: the highest; core §3)."""
    best_v, best_c = 0, -1
    n = st.wounds.shape[2]
    for m in range(n):
        if st.wounds[g, u, m] <= 0:
            continue
        v = st.stats[g, u, m, col]
        c = 0
        for q in range(n):
            c += st.wounds[g, u, q] > 0 and st.stats[g, u, q, col] == v
        if c > best_c or (c == best_c and v > best_v):
            best_v, best_c = v, c
    return best_v


@njit
def highest(st, g, u, col):
    best = 0
    for m in range(st.wounds.shape[2]):
        if st.wounds[g, u, m] > 0:
            best = max(best, st.stats[g, u, m, col])
    return best


@njit
def any_rule(st, g, u, rule):
    """A unit rule: the unit has it when one of its living models does."""
    for m in range(st.wounds.shape[2]):
        if st.wounds[g, u, m] > 0 and (st.mflags[g, u, m] & rule) != 0:
            return True
    return False


@njit
def is_fearless(st, g, u):
    return any_rule(st, g, u, MR_FEARLESS)


@njit
def knows_no_fear(st, g, u):
    return any_rule(st, g, u, MR_ATSKNF)


@njit
def is_stubborn(st, g, u):
    return any_rule(st, g, u, MR_STUBBORN)


@njit
def has_ic(st, g, u):
    for m in range(st.wounds.shape[2]):
        if st.wounds[g, u, m] > 0 and st.minfo[g, u, m, MI_ROLE] == ROLE_IC:
            return True
    return False


@njit
def has_psyker(st, g, u):
    return any_rule(st, g, u, MR_PSYKER)


# ------------------------------------------------------------------ Warlords


@njit
def warlord_alive(st, g, p):
    return st.wl_unit[g, p] >= 0


@njit
def warlords_alive(st, g):
    n = 0
    for p in range(st.wl_unit.shape[1]):
        n += st.wl_unit[g, p] >= 0
    return n


@njit
def trait_of(tb, p):
    return int(tb.policy[p, POL_TRAIT])


@njit
def warlord_in_unit(st, g, u):
    """The player whose Warlord stands in unit u, -1 if none (the first found in a super squad)."""
    for p in range(st.wl_unit.shape[1]):
        if st.wl_unit[g, p] == u:
            return p
    return -1


@njit
def unit_has_trait(st, g, u, trait, tb):
    """A Warlord with ``trait`` stands in unit u (a super squad: any of them, §7)."""
    for p in range(st.wl_unit.shape[1]):
        if st.wl_unit[g, p] == u and trait_of(tb, p) == trait:
            return True
    return False


@njit
def locate_warlords(st, g):
    """Find every living Warlord's unit and slot (after a model moved or died)."""
    for p in range(st.wl_unit.shape[1]):
        st.wl_unit[g, p] = -1
        st.wl_slot[g, p] = -1
    for u in range(st.wounds.shape[1]):
        if not unit_exists(st, g, u):
            continue
        for m in range(st.wounds.shape[2]):
            if st.wounds[g, u, m] > 0 and st.minfo[g, u, m, MI_WARLORD] != 0:
                p = st.minfo[g, u, m, MI_OWNER]
                st.wl_unit[g, p] = u
                st.wl_slot[g, p] = m


@njit
def _detachment_rules(st, g, p, tb):
    """Rules every model of player p's detachment gets from its living Warlord's trait (§7)."""
    if not warlord_alive(st, g, p):
        return 0
    trait = trait_of(tb, p)
    if trait == TRAIT_DEFENCE:
        return MR_COUNTER_ATTACK
    if trait == TRAIT_OFFENCE:
        return MR_FURIOUS_CHARGE
    if trait == TRAIT_INSPIRING:
        wu, wm = st.wl_unit[g, p], st.wl_slot[g, p]
        if (st.bflags[g, wu, wm] & MR_FEARLESS) != 0:  # an HQ Warlord with Fearless: the detachment is Fearless
            return MR_FEARLESS
    return 0


@njit
def tenacity_fnp(fnp_as_built):
    """Tenacity: Feel No Pain (5+), or 4+ for a model that already had it (§7 trait 3, A33)."""
    return TENACITY_FNP_HAD if fnp_as_built < NONE else TENACITY_FNP


@njit
def refresh_traits(st, g, tb):
    """Every model's rules and Feel No Pain in play, from its rules as built and the traits."""
    locate_warlords(st, g)
    for u in range(st.wounds.shape[1]):
        if not unit_exists(st, g, u):
            continue
        tenacious = unit_has_trait(st, g, u, TRAIT_TENACITY, tb)
        for m in range(st.wounds.shape[2]):
            if st.wounds[g, u, m] <= 0:
                continue
            p = st.minfo[g, u, m, MI_OWNER]
            st.mflags[g, u, m] = st.bflags[g, u, m] | _detachment_rules(st, g, p, tb)
            fnp = st.bstats[g, u, m, FNP]
            st.stats[g, u, m, FNP] = min(fnp, tenacity_fnp(fnp)) if tenacious else fnp


@njit
def offence_rerolls(st, g, u, tb):
    """Master of Offence (§7 trait 2): a non-psyker Warlord's unit re-rolls failed To Wound rolls."""
    for p in range(st.wl_unit.shape[1]):
        if st.wl_unit[g, p] == u and trait_of(tb, p) == TRAIT_OFFENCE:
            if (st.mflags[g, u, st.wl_slot[g, p]] & MR_PSYKER) == 0:
                return True
    return False


@njit
def unit_leadership(st, g, u, tb):
    """The Leadership a unit tests on: its highest, or a Warlord's with Inspiring Presence within 12"
    of it whose detachment the unit belongs to (§7 trait 5)."""
    ld = highest(st, g, u, LD)
    owner = st.ust[g, u, US_OWNER]
    for p in range(st.wl_unit.shape[1]):
        if p != owner or not warlord_alive(st, g, p) or trait_of(tb, p) != TRAIT_INSPIRING:
            continue
        wu, wm = st.wl_unit[g, p], st.wl_slot[g, p]
        if wu == u or unit_gap_unit(st, g, u, wu) <= INSPIRING_RANGE:
            ld = max(ld, st.stats[g, wu, wm, LD])
    return ld


# ------------------------------------------------------------------ removing and moving models


@njit
def remove_unit(st, g, u, phase):
    """The unit leaves play: every model is dead, every lock ends."""
    for m in range(st.wounds.shape[2]):
        st.wounds[g, u, m] = 0
    st.ust[g, u, US_ALIVE] = 0
    st.ust[g, u, US_EMBARKED] = 0
    st.urad[g, u] = 0.0
    for h in range(st.lock.shape[2]):
        st.lock[g, u, h] = 0
    log_event(st, g, phase, EK_UNIT_LOST, u, st.ust[g, u, US_OWNER], 0, st.upos[g, u, 0], st.upos[g, u, 1])


@njit
def settle_unit(st, g, u, tb, phase):
    """After casualties: a unit with no model left is gone; else its disc shrinks."""
    if not unit_exists(st, g, u):
        return
    if models_alive(st, g, u) == 0:
        remove_unit(st, g, u, phase)
    else:
        refresh_radius(st, g, u, tb)


@njit
def free_slot(st, g, u):
    for m in range(st.wounds.shape[2] - 1, -1, -1):
        if st.wounds[g, u, m] <= 0 and (m == 0 or st.wounds[g, u, m - 1] > 0):
            return m
    return -1


@njit
def move_model(st, g, u, m, v, tb):
    """Model m of unit u joins unit v (an IC joining, a super squad): its slot data move to v's
    first free slot after v's living models. Returns the new slot, -1 if v is full or a vehicle (a
    model never joins a vehicle's unit, apocalypse V1)."""
    if st.minfo[g, v, 0, MI_VEHICLE] != 0:
        return -1
    k = free_slot(st, g, v)
    if k < 0:
        return -1
    st.wounds[g, v, k] = st.wounds[g, u, m]
    for c in range(N_STATS):
        st.stats[g, v, k, c] = st.stats[g, u, m, c]
        st.bstats[g, v, k, c] = st.bstats[g, u, m, c]
    st.mflags[g, v, k] = st.mflags[g, u, m]
    st.bflags[g, v, k] = st.bflags[g, u, m]
    st.mstatus[g, v, k] = st.mstatus[g, u, m]
    for c in range(st.gear.shape[3]):
        st.gear[g, v, k, c] = st.gear[g, u, m, c]
    for c in range(N_MI):
        st.minfo[g, v, k, c] = st.minfo[g, u, m, c]
    st.wounds[g, u, m] = 0
    refresh_radius(st, g, v, tb)
    settle_unit(st, g, u, tb, 0)
    log_event(st, g, 1, EK_JOIN, u, v, m, st.upos[g, v, 0], st.upos[g, v, 1])
    return k


@njit
def models_within(st, g, u, x, y, r, reach):
    """How many of unit u's living models stand within ``reach`` of a disc at (x, y) of radius r:
    all of them if the whole disc is, none if none of it is, in proportion to the depth of the
    overlap otherwise (the disc abstraction, docs/apocalypse.md)."""
    return disc_within(models_alive(st, g, u), st.upos[g, u, 0], st.upos[g, u, 1], st.urad[g, u], x, y, r, reach)


@njit
def disc_within(n, ux, uy, ur, x, y, r, reach):
    """How many of ``n`` models in a disc at (ux, uy) of radius ur stand within ``reach`` of a disc at
    (x, y) of radius r (``models_within`` of a unit standing there)."""
    d = gap(ux, uy, ur, x, y, r)
    if d > reach or n == 0:
        return 0
    width = 2.0 * ur
    if width <= 0.0 or d + width <= reach:
        return n
    return max(1, min(n, int(n * (reach - d) / width + 0.5)))


@njit
def models_inside(st, g, u, x, y, r):
    """How many of unit u's living models stand inside a disc at (x, y) of radius r: in proportion
    to how deep the unit's disc reaches into it (all when it is wholly inside)."""
    n = models_alive(st, g, u)
    ru = st.urad[g, u]
    depth = r + ru - gap(st.upos[g, u, 0], st.upos[g, u, 1], 0.0, x, y, 0.0)
    if depth <= 0.0 or n == 0:
        return 0
    if ru <= 0.0 or depth >= 2.0 * ru:
        return n
    return max(1, min(n, int(n * depth / (2.0 * ru) + 0.5)))
