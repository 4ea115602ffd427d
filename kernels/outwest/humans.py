"""Human characters (outwest §4, §9, §10, §12 goals): the activation, the policy that picks one
action (P1-P4, P6 as numbers in ``tb.pol[h]``) and the actions themselves.

P1's order (spec, Policies): knocked out -> nothing; knocked down -> Recover if wounded, else
Get up; wounded or ducked back -> Recover; an empty gun with no zombie within 3" -> Reload; a
zombie in contact -> Fight with an Effective weapon, else Fire at point blank, else Reposition
away; a zombie in the gun's best band -> Fire; a zombie on the ground or feeding in range ->
Aim, then Fire; otherwise Move toward the scenario's goal keeping 7" from the nearest zombie.
"""

from __future__ import annotations

import math

from kernels.jit import njit
from kernels.outwest.bites import activation_checks, spook_test
from kernels.outwest.figures import (
    EPS,
    NO_GAP,
    centre_distance,
    clear_length,
    edge_limit,
    face_towards,
    gap_between,
    gap_to_point,
    in_cover,
    in_front_half,
    is_helpless,
    is_human,
    is_zombie,
    knock_down,
    log_event,
    n_humans,
    nearest_zombie,
    place,
    remove,
    terrain_at,
    touching,
    unit_vector,
    wrap_angle,
    zombies_touching,
)
from kernels.outwest.layout import (
    A_AIM,
    A_CARRY,
    A_DISMOUNT,
    A_DUCK_BACK,
    A_FIGHT,
    A_FIRE,
    A_FIX_GUN,
    A_GET_UP,
    A_MOUNT,
    A_MOVE,
    A_MOVE_FIRE,
    A_NONE,
    A_RECOVER,
    A_RELOAD,
    A_REPOSITION,
    CITIZEN,
    CL_MELEE_MOD,
    CL_MOVE_DICE,
    EK_ACTION,
    EK_CARRY,
    EK_ESCAPE,
    EK_FALL,
    EK_FIX,
    EK_MOVE,
    FATE_ESCAPED,
    FF_AIM_X,
    FF_AIM_Y,
    FF_FACING,
    FF_HORSE_X,
    FF_HORSE_Y,
    FF_X,
    FF_Y,
    FI_AIM,
    FI_AMMO0,
    FI_BITES,
    FI_CLASS,
    FI_DUCKED,
    FI_FEED,
    FI_GUNSLINGER,
    FI_HORSE,
    FI_LEGS,
    FI_NO_MOVE,
    FI_RECOVER,
    FI_SERIOUS,
    FI_STATE,
    GS_ESCAPED,
    GUN_BROKEN,
    GUN_EMPTY,
    GUN_JAMMED,
    HORSE_LOOSE,
    HORSE_RIDDEN,
    MELEE_EFFECTIVE,
    P_BADLY_SERIOUS,
    P_BASE_R,
    P_BUILDING_DICE,
    P_CONTACT_SHOOTING,
    P_DENSE_MINUS,
    P_ESCAPE_EDGE,
    P_FALL_TWO_ONES,
    P_FIX_BREAK_ON,
    P_FIX_CLEAR_ON,
    P_FRONT_HALF,
    P_HORSE_DICE,
    P_LOOSE_MINUS,
    P_MOVE_AHEAD,
    P_MOVE_FIRE_DICE,
    P_REPOSITION_IN,
    P_SCENARIO,
    P_TABLE_H,
    P_TABLE_W,
    P_TERRAIN_STOPS,
    P_Z_DEFEND,
    P_Z_DOWN_ON,
    POL_ADVANCE_FIRE,
    POL_AIM_AT_DOWN,
    POL_AIM_IDLE,
    POL_BLAZE_MIN,
    POL_BLAZE_MIN_CLASS,
    POL_BLAZE_RADIUS,
    POL_CHORES,
    POL_CONTACT_FIRE,
    POL_CONTACT_ODDS,
    POL_CONTACT_STANDING,
    POL_DUCK_BACK,
    POL_FACE,
    POL_FIGHT_IN_CONTACT,
    POL_FIRE_FRACTION,
    POL_FLEE_CLEAR,
    POL_GOAL_RADIUS,
    POL_GROUP_NAMING,
    POL_KEEP_AWAY,
    POL_MOVE_FIRST,
    POL_RELOAD_SAFE,
    POL_RESCUE,
    POL_RESCUE_SEEK,
    POL_RETREAT,
    POL_RIDE,
    POL_TARGET,
    POL_TARGET_VALUE,
    PR_ACTIONS,
    PROFILE_PISTOL,
    S_DOWN,
    S_OUT,
    S_STANDING,
    SCENARIO_CLEANUP,
    SCENARIO_ESCAPE,
    T_KIND,
    T_X0,
    T_X1,
    T_Y0,
    T_Y1,
    TARGET_THREAT,
    TERRAIN_BUILDING,
    TERRAIN_DENSE,
    TERRAIN_LOOSE,
    W_PROFILE,
    W_RELOAD,
    W_ROLLS,
)
from kernels.outwest.melee import (
    arc_from,
    attack_dice,
    defend_dice,
    fight_target,
    human_attacks,
    human_base,
    melee_class,
)
from kernels.outwest.shooting import (
    arms_allow,
    band_of,
    best_gun,
    blaze_ok,
    fire,
    gun_of,
    gun_reaches,
    gun_usable,
    max_band_dice,
    p_head_shot,
    p_hit,
    reload_gun,
    share_radius,
    shooting_dice,
    zombie_effect_mod,
)
from kernels.rng import d6

# ------------------------------------------------------------------ pure rules (hand-fed dice)


@njit
def falls_over(tb, citizen, n_dice, ones, lows):
    """§4 Move: a Citizen falls over if any die is a 1; anyone else if every die shows 1 or 2
    (W6; ``P_FALL_TWO_ONES``: two or more 1s)."""
    if n_dice <= 0:
        return False
    if citizen:
        return ones >= 1
    if tb.prm[P_FALL_TWO_ONES] != 0:
        return ones >= 2
    return lows == n_dice


@njit
def roll_move(rng, g, n):
    """Roll n movement dice: (total inches, 1s, dice showing 1 or 2)."""
    total, ones, lows = 0, 0, 0
    for _ in range(n):
        r = d6(rng, g)
        total += r
        ones += r == 1
        lows += r <= 2
    return total, ones, lows


@njit
def ray_box_entry(x, y, ux, uy, x0, y0, x1, y1):
    """Distance along the ray (x, y) + t (ux, uy) at which it enters the box; -1 if it never
    does (slab method)."""
    t_in, t_out = -1e18, 1e18
    for k in range(2):
        p, u, lo, hi = (x, ux, x0, x1) if k == 0 else (y, uy, y0, y1)
        if abs(u) < 1e-12:
            if p < lo or p > hi:
                return -1.0
            continue
        a, b = (lo - p) / u, (hi - p) / u
        t_in, t_out = max(t_in, min(a, b)), min(t_out, max(a, b))
    if t_in > t_out or t_out < 0.0:
        return -1.0
    return max(t_in, 0.0)


@njit
def keep_away_limit(x, y, ux, uy, length, cx, cy, reach):
    """How far along the ray one may go before coming within ``reach`` (centre distance) of a
    point (cx, cy): the keep-away distance of P1."""
    px, py = cx - x, cy - y
    b = ux * px + uy * py
    c = px * px + py * py - reach * reach
    disc = b * b - c
    if disc <= 0.0:
        return length
    t1 = b - math.sqrt(disc)
    if 0.0 < t1 < length:
        return t1
    return length


# ------------------------------------------------------------------ moving


@njit
def badly_wounded(st, g, tb, h):
    """Too badly wounded to walk: he must be carried (seed; §9, §4 Carry). A "no move/turn"
    result (§5.6), or no movement dice left on foot (-1 per serious wound and leg flesh wound,
    §4); ``P_BADLY_SERIOUS`` (the other reading): any serious wound."""
    if st.fi[g, h, FI_NO_MOVE]:
        return True
    if st.fi[g, h, FI_HORSE] == HORSE_RIDDEN:
        return False
    if tb.prm[P_BADLY_SERIOUS] != 0 and st.fi[g, h, FI_SERIOUS] > 0:
        return True
    lost = st.fi[g, h, FI_SERIOUS] + st.fi[g, h, FI_LEGS]
    return tb.cls[st.fi[g, h, FI_CLASS], CL_MOVE_DICE] - lost <= 0


@njit
def move_dice(st, g, tb, h, base):
    """Movement dice of human h (§4): ``base`` (class dice, 2D6 for Move & Fire, the horse's
    dice), -1 per serious wound and leg flesh wound; inside a building 1D6; starting in dense
    terrain -2 dice, loose -1; "no move/turn" stops him, and a man too badly wounded to walk
    must be carried (§9)."""
    if badly_wounded(st, g, tb, h):
        return 0
    n = base
    if st.fi[g, h, FI_HORSE] != HORSE_RIDDEN:
        n -= st.fi[g, h, FI_SERIOUS] + st.fi[g, h, FI_LEGS]
    kind = terrain_at(tb, st.ff[g, h, FF_X], st.ff[g, h, FF_Y])
    if kind == TERRAIN_BUILDING:
        n = min(n, int(tb.prm[P_BUILDING_DICE]))
    elif kind == TERRAIN_DENSE:
        n -= int(tb.prm[P_DENSE_MINUS])
    elif kind == TERRAIN_LOOSE:
        n -= int(tb.prm[P_LOOSE_MINUS])
    return max(0, n)


@njit
def terrain_limit(tb, x, y, ux, uy, length):
    """A figure entering scrub, brush or woods stops as soon as its whole base is inside (§4)."""
    if tb.prm[P_TERRAIN_STOPS] == 0:
        return length
    r = tb.prm[P_BASE_R]
    for k in range(tb.terrain.shape[0]):
        t = tb.terrain[k]
        if t[T_KIND] != TERRAIN_DENSE and t[T_KIND] != TERRAIN_LOOSE:
            continue
        if t[T_X0] <= x <= t[T_X1] and t[T_Y0] <= y <= t[T_Y1]:
            continue
        if t[T_X1] - t[T_X0] < 2 * r or t[T_Y1] - t[T_Y0] < 2 * r:
            continue
        entry = ray_box_entry(x, y, ux, uy, t[T_X0] + r, t[T_Y0] + r, t[T_X1] - r, t[T_Y1] - r)
        if 0.0 <= entry < length:
            length = entry
    return length


@njit
def crosses_exit(tb, x, y):
    """Escape (§12): the base reaches the exit edge."""
    r, w, hgt = tb.prm[P_BASE_R], tb.prm[P_TABLE_W], tb.prm[P_TABLE_H]
    edge = int(tb.prm[P_ESCAPE_EDGE])
    if edge == 0:
        return y <= r + EPS
    if edge == 1:
        return x >= w - r - EPS
    if edge == 2:
        return y >= hgt - r - EPS
    return x <= r + EPS


@njit
def escape(st, g, tb, h):
    remove(st, g, h, FATE_ESCAPED)
    st.gs[g, GS_ESCAPED] += 1
    log_event(st, g, EK_ESCAPE, h, -1, st.ff[g, h, FF_X], st.ff[g, h, FF_Y], 0.0)


@njit
def walk(st, g, tb, h, ux, uy, length):
    """Move h straight along (ux, uy) up to ``length`` inches (terrain stops it, the table edge
    holds it, a zombie in the way stops him in base contact: he neither passes through nor ends
    on top of it, §1; in Escape, reaching the exit edge takes him off). Returns the inches moved."""
    x, y = st.ff[g, h, FF_X], st.ff[g, h, FF_Y]
    length = terrain_limit(tb, x, y, ux, uy, max(0.0, length))
    length = clear_length(st, g, tb, h, x, y, ux, uy, edge_limit(tb, x, y, ux, uy, length))
    st.ff[g, h, FF_FACING] = math.atan2(uy, ux)
    place(st, g, tb, h, x + ux * length, y + uy * length)
    if tb.prm[P_SCENARIO] == SCENARIO_ESCAPE and crosses_exit(tb, x + ux * length, y + uy * length):
        escape(st, g, tb, h)
    log_event(st, g, EK_MOVE, h, -1, st.ff[g, h, FF_X], st.ff[g, h, FF_Y], length)
    return length


@njit
def walk_and_spook(st, g, tb, rng, h, ux, uy, length):
    """A move, then §10: a rider who ends it within 5" of a zombie tests his horse."""
    moved = walk(st, g, tb, h, ux, uy, length)
    if is_human(st, g, h):
        spook_test(st, g, tb, rng, h)
    return moved


@njit
def goal_of(st, g, tb, h):
    """Where h moves when nothing else is to be done (§12): (x, y, how near is near enough)."""
    scenario = tb.prm[P_SCENARIO]
    w, hgt = tb.prm[P_TABLE_W], tb.prm[P_TABLE_H]
    x, y = st.ff[g, h, FF_X], st.ff[g, h, FF_Y]
    if scenario == SCENARIO_ESCAPE:
        edge = int(tb.prm[P_ESCAPE_EDGE])
        if edge == 0:
            return x, -10.0, -1.0
        if edge == 1:
            return w + 10.0, y, -1.0
        if edge == 2:
            return x, hgt + 10.0, -1.0
        return -10.0, y, -1.0
    if scenario == SCENARIO_CLEANUP:
        gap, z = nearest_zombie(st, g, tb, h)
        if z >= 0:
            return st.ff[g, z, FF_X], st.ff[g, z, FF_Y], tb.pol[h, POL_KEEP_AWAY] + 2.0 * tb.prm[P_BASE_R]
    return 0.5 * w, 0.5 * hgt, tb.pol[h, POL_GOAL_RADIUS]


@njit
def safe_length(st, g, tb, h, ux, uy, length):
    """How far h may go along (ux, uy) keeping ``POL_KEEP_AWAY`` from every zombie (P1)."""
    reach = tb.pol[h, POL_KEEP_AWAY] + 2.0 * tb.prm[P_BASE_R]
    x, y = st.ff[g, h, FF_X], st.ff[g, h, FF_Y]
    for z in range(st.fi.shape[1]):
        if is_zombie(st, g, z):
            length = keep_away_limit(x, y, ux, uy, length, st.ff[g, z, FF_X], st.ff[g, z, FF_Y], reach)
    return length


FLIGHT_HEADINGS = 24  # headings a man who runs looks at (15 degrees apart)
DOWN_HEADSTART = 4.0  # inches: a zombie on the ground must get up before it comes on


@njit
def flight_score(st, g, tb, h, x, y):
    """How clear of every zombie a base at (x, y) is: the smallest gap to a zombie, a zombie on
    the ground counted DOWN_HEADSTART further (it must get up first)."""
    best = NO_GAP
    for z in range(st.fi.shape[1]):
        if is_zombie(st, g, z) and z != h:
            d = centre_distance(x, y, st.ff[g, z, FF_X], st.ff[g, z, FF_Y]) - 2.0 * tb.prm[P_BASE_R]
            if st.fi[g, z, FI_STATE] == S_DOWN:
                d += DOWN_HEADSTART
            best = min(best, d)
    return best


@njit
def clear_heading(st, g, tb, h, z):
    """``POL_FLEE_CLEAR``: the heading whose end (the mean roll, stopped by terrain, the table
    edge and any zombie in the way) keeps the man clearest of every zombie, not only of the
    nearest one z; ties go to the heading straight away from z."""
    x, y = st.ff[g, h, FF_X], st.ff[g, h, FF_Y]
    ax, ay = unit_vector(st.ff[g, z, FF_X], st.ff[g, z, FF_Y], x, y)
    reach = 3.5 * move_dice(st, g, tb, h, base_move_dice(st, g, tb, h))
    a0 = math.atan2(ay, ax)
    best, bx, by = -1e30, ax, ay
    for k in range(FLIGHT_HEADINGS):
        step = (k + 1) // 2 * (1 if k % 2 == 1 else -1)  # 0, +1, -1, +2, -2 ... from straight away
        a = a0 + step * 2.0 * math.pi / FLIGHT_HEADINGS
        ux, uy = math.cos(a), math.sin(a)
        length = terrain_limit(tb, x, y, ux, uy, reach)
        length = clear_length(st, g, tb, h, x, y, ux, uy, edge_limit(tb, x, y, ux, uy, length))
        score = flight_score(st, g, tb, h, x + ux * length, y + uy * length)
        if score > best + 1e-9:
            best, bx, by = score, ux, uy
    return bx, by


@njit
def away_direction(st, g, tb, h, z):
    """Straight away from zombie z, turned off a table edge that is near (``POL_FLEE_CLEAR``:
    the heading that keeps clearest of every zombie)."""
    if tb.pol[h, POL_FLEE_CLEAR] != 0:
        return clear_heading(st, g, tb, h, z)
    ux, uy = unit_vector(st.ff[g, z, FF_X], st.ff[g, z, FF_Y], st.ff[g, h, FF_X], st.ff[g, h, FF_Y])
    x, y = st.ff[g, h, FF_X], st.ff[g, h, FF_Y]
    w, hgt, margin = tb.prm[P_TABLE_W], tb.prm[P_TABLE_H], 3.0
    if (x < margin and ux < 0) or (x > w - margin and ux > 0):
        ux = 0.0
    if (y < margin and uy < 0) or (y > hgt - margin and uy > 0):
        uy = 0.0
    n = math.sqrt(ux * ux + uy * uy)
    if n < 1e-9:
        return unit_vector(x, y, 0.5 * w, 0.5 * hgt)
    return ux / n, uy / n


@njit
def move_roll(st, g, tb, rng, h, base, full):
    """Roll the move (§4) and decide a fall: (inches, falls over). Citizens must move the whole
    roll (``full``) and fall on any 1; a rider never falls."""
    n = move_dice(st, g, tb, h, base)
    total, ones, lows = roll_move(rng, g, n)
    mounted = st.fi[g, h, FI_HORSE] == HORSE_RIDDEN
    citizen = st.fi[g, h, FI_CLASS] == CITIZEN and not mounted
    return float(total), (not mounted) and falls_over(tb, citizen, n, ones, lows) and full


@njit
def base_move_dice(st, g, tb, h):
    if st.fi[g, h, FI_HORSE] == HORSE_RIDDEN:
        return int(tb.prm[P_HORSE_DICE])
    return int(tb.cls[st.fi[g, h, FI_CLASS], CL_MOVE_DICE])


@njit
def ahead(st, g, tb, h, ux, uy):
    """A Move goes "straight ahead" (§4): with ``P_MOVE_AHEAD`` only a heading within his front
    arc (W11) is ahead; otherwise he picks any heading (and ends facing it)."""
    if tb.prm[P_MOVE_AHEAD] == 0:
        return True
    off = abs(wrap_angle(math.atan2(uy, ux) - st.ff[g, h, FF_FACING]))
    return off <= tb.prm[P_FRONT_HALF] + EPS


@njit
def turn_instead(st, g, tb, h, ux, uy):
    """``P_MOVE_AHEAD``: the heading is not ahead of him, so he Repositions (§4: up to 2" in any
    direction, ending with any facing) along it, ending facing it; his Move can come next time."""
    log_event(st, g, EK_ACTION, h, -1, A_REPOSITION, 0.0, 0.0)
    walk(st, g, tb, h, ux, uy, tb.prm[P_REPOSITION_IN])


@njit
def move_along(st, g, tb, rng, h, ux, uy, limit, action):
    """The Move action (§4) along (ux, uy): up to the roll (a Citizen the whole roll), at most
    ``limit`` inches unless a Citizen; a fall leaves him knocked down where he stops."""
    if not ahead(st, g, tb, h, ux, uy):
        turn_instead(st, g, tb, h, ux, uy)
        return
    citizen = st.fi[g, h, FI_CLASS] == CITIZEN and st.fi[g, h, FI_HORSE] != HORSE_RIDDEN
    roll, falls = move_roll(st, g, tb, rng, h, base_move_dice(st, g, tb, h), True)
    log_event(st, g, EK_ACTION, h, -1, action, roll, 0.0)
    walk_and_spook(st, g, tb, rng, h, ux, uy, roll if citizen else min(roll, limit))
    if falls and is_human(st, g, h):
        knock_down(st, g, tb, h)
        log_event(st, g, EK_FALL, h, -1, st.ff[g, h, FF_X], st.ff[g, h, FF_Y], 0.0)


# ------------------------------------------------------------------ targets (P2, P3)


@njit
def aim_valid(st, g, h, t):
    """The aim holds while the target stands where it was aimed at (§4 Aim)."""
    return st.fi[g, h, FI_AIM] == t and abs(st.ff[g, t, FF_X] - st.ff[g, h, FF_AIM_X]) < 1e-9 \
        and abs(st.ff[g, t, FF_Y] - st.ff[g, h, FF_AIM_Y]) < 1e-9 and is_zombie(st, g, t)


@njit
def zombies_within(st, g, tb, f, radius):
    n = 0
    for z in range(st.fi.shape[1]):
        if z != f and is_zombie(st, g, z) and gap_between(st, g, tb, f, z) <= radius + EPS:
            n += 1
    return n


@njit
def threat_gap(st, g, tb, z):
    """Gap from zombie z to the nearest human who is on the ground, unconscious or in contact
    with a zombie (P2's tie-break and its "threat" choice); capped at 1000."""
    best = 1000.0
    for h in range(n_humans(tb)):
        if is_human(st, g, h) and (is_helpless(st, g, h) or zombies_touching(st, g, tb, h) > 0):
            best = min(best, gap_between(st, g, tb, z, h))
    return best


CHARGE_IN = 6.0  # a standing zombie this near a man can reach him at its next activation (§6.2: 1D6")


@njit
def zombie_threat(st, g, tb, z):
    """What a hit on zombie z is worth (``POL_TARGET_VALUE``): standing and touching a man 4,
    standing within a zombie's move of one 2, farther 1; on the ground (it must get up first)
    1.5 touching a man, else 0.5."""
    gap = NO_GAP
    for h in range(n_humans(tb)):
        if is_human(st, g, h):
            gap = min(gap, gap_between(st, g, tb, z, h))
    standing = st.fi[g, z, FI_STATE] == S_STANDING
    if touching(gap):
        return 4.0 if standing else 1.5
    if standing:
        return 2.0 if gap <= CHARGE_IN + EPS else 1.0
    return 0.5


@njit
def fire_odds(st, g, tb, h, t, gap):
    """(destroyed, destroyed or knocked over) after one Fire of h's best gun at zombie t: the
    exact odds of sim.rulesets.outwest.exact.shot_fate for a lone zombie, 1 - (1 - p)^n over
    the n dice of every shooting roll (§5.1-§5.3, §5.7)."""
    slot = best_gun(st, g, tb, h, gap)
    if slot < 0:
        return 0.0, 0.0
    w = gun_of(st, g, h, slot)
    band = band_of(tb, gap)
    if not gun_reaches(tb, w, band):
        return 0.0, 0.0
    aimed = aim_valid(st, g, h, t)
    blaze = wants_blaze(st, g, tb, h, w, aimed)
    n = shooting_dice(tb, w, band, st.fi[g, h, FI_CLASS], int(aimed), int(blaze), int(in_cover(st, g, tb, t)), 0,
                      st.fi[g, h, FI_SERIOUS]) * tb.weapons[w, W_ROLLS]
    mod = zombie_effect_mod(tb, w, band, gap)
    kill = p_head_shot(tb, mod)
    stop = min(1.0, max(0.0, (7.0 - tb.prm[P_Z_DOWN_ON] + mod) / 6.0))
    hit = p_hit(tb, band)
    return 1.0 - (1.0 - hit * kill) ** n, 1.0 - (1.0 - hit * stop) ** n


@njit
def shot_value(st, g, tb, h, z, gap, share):
    """``POL_TARGET_VALUE``: the threat of z times the odds of stopping it (a knock-over counts
    half, and nothing on a zombie already down), plus a quarter of the threat of the zombies the
    hits may be shared with (§5.4). Threats are read from ``st.w_key`` (threats_into)."""
    kill, stop = fire_odds(st, g, tb, h, z, gap)
    odds = kill + 0.5 * (stop - kill) if st.fi[g, z, FI_STATE] == S_STANDING else kill
    value = st.w_key[z] * odds
    if share > 0.0:
        for o in range(st.fi.shape[1]):
            if o != z and is_zombie(st, g, o) and gap_between(st, g, tb, o, z) <= share + EPS:
                value += 0.25 * st.w_key[o] * kill
    return value


@njit
def threats_into(st, g, tb):
    """Every zombie's threat (zombie_threat) into the scratch ``st.w_key``, once per target choice."""
    for z in range(st.fi.shape[1]):
        if is_zombie(st, g, z):
            st.w_key[z] = zombie_threat(st, g, tb, z)


@njit
def choose_target(st, g, tb, h, front_only):
    """P2: the zombie nearest the shooter that a usable gun reaches (ties: nearest a helpless
    human); ``POL_TARGET`` = threat: the one nearest a helpless or grappled human first;
    Shootists and Legends name the zombie with most others within their sharing radius
    (``POL_GROUP_NAMING``). -1 when none."""
    share = share_radius(tb, st.fi[g, h, FI_CLASS]) if tb.pol[h, POL_GROUP_NAMING] != 0 else -1.0
    front_only = front_only or st.fi[g, h, FI_NO_MOVE] != 0
    if tb.pol[h, POL_TARGET_VALUE] != 0:
        threats_into(st, g, tb)
    best, who = 1e30, -1
    for z in range(st.fi.shape[1]):
        if not is_zombie(st, g, z):
            continue
        gap = gap_between(st, g, tb, h, z)
        if best_gun(st, g, tb, h, gap) < 0:
            continue
        if front_only and not in_front_half(st, g, h, st.ff[g, z, FF_X], st.ff[g, z, FF_Y]):
            continue
        if tb.pol[h, POL_TARGET_VALUE] != 0:
            key = -shot_value(st, g, tb, h, z, gap, share) + 1e-6 * gap
            if key < best:
                best, who = key, z
            continue
        if tb.pol[h, POL_TARGET] == TARGET_THREAT:
            key = threat_gap(st, g, tb, z) * 100.0 + gap
        else:
            key = gap + 1e-4 * threat_gap(st, g, tb, z)
        if share > 0.0:
            key -= 1e5 * zombies_within(st, g, tb, z, share)
        if key < best:
            best, who = key, z
    return who


@njit
def wants_blaze(st, g, tb, h, w, aimed):
    """P3: blaze away only with a pistol, a Gunman or better, two or more zombies within 6"."""
    if aimed or tb.pol[h, POL_BLAZE_MIN] <= 0 or not blaze_ok(tb, w):
        return False
    if tb.weapons[w, W_PROFILE] != PROFILE_PISTOL or st.fi[g, h, FI_CLASS] < tb.pol[h, POL_BLAZE_MIN_CLASS]:
        return False
    return zombies_within(st, g, tb, h, tb.pol[h, POL_BLAZE_RADIUS]) >= tb.pol[h, POL_BLAZE_MIN]


# ------------------------------------------------------------------ the actions


@njit
def do_fire(st, g, tb, rng, h, t, moved):
    """Fire (§4): turn to face the target (unless he may not turn), shoot the best gun."""
    slot = best_gun(st, g, tb, h, gap_between(st, g, tb, h, t))
    if slot < 0:
        return
    aimed = aim_valid(st, g, h, t)
    fire_gun(st, g, tb, rng, h, t, slot, aimed, wants_blaze(st, g, tb, h, gun_of(st, g, h, slot), aimed), moved)


@njit
def fire_gun(st, g, tb, rng, h, t, slot, aimed, blaze, moved):
    """Fire (or the shot of Move & Fire, §4) with the gun in ``slot`` at t: the facing kept by a
    man who may not turn."""
    log_event(st, g, EK_ACTION, h, t, A_MOVE_FIRE if moved else A_FIRE, slot, blaze)
    st.fi[g, h, FI_AIM] = -1
    facing = st.ff[g, h, FF_FACING]
    fire(st, g, tb, rng, h, t, slot, int(aimed), int(blaze), moved)
    if st.fi[g, h, FI_NO_MOVE]:
        st.ff[g, h, FF_FACING] = facing


@njit
def do_aim(st, g, tb, h, t):
    log_event(st, g, EK_ACTION, h, t, A_AIM, 0.0, 0.0)
    st.fi[g, h, FI_AIM] = t
    st.ff[g, h, FF_AIM_X], st.ff[g, h, FF_AIM_Y] = st.ff[g, t, FF_X], st.ff[g, t, FF_Y]
    if st.fi[g, h, FI_NO_MOVE] == 0:
        face_towards(st, g, h, st.ff[g, t, FF_X], st.ff[g, t, FF_Y])


@njit
def reloadable(st, g, tb, h):
    """The gun a Reload would load (§4): an empty one his arms can load; -1 none."""
    for k in range(2):
        w = gun_of(st, g, h, k)
        if w >= 0 and st.fi[g, h, FI_AMMO0 + k] == GUN_EMPTY and arms_allow(st, g, tb, h, w):
            return k
    return -1


@njit
def jammed(st, g, h):
    for k in range(2):
        if gun_of(st, g, h, k) >= 0 and st.fi[g, h, FI_AMMO0 + k] == GUN_JAMMED:
            return k
    return -1


@njit
def any_gun_ready(st, g, tb, h):
    return gun_usable(st, g, tb, h, 0) or gun_usable(st, g, tb, h, 1)


@njit
def fix_gun(st, g, tb, rng, h, slot):
    """Fix gun (§4): D6 1-2 broken for the rest of the game, 3-4 still jammed, 5-6 cleared."""
    roll = d6(rng, g)
    log_event(st, g, EK_FIX, h, slot, roll, 0.0, 0.0)
    if roll <= tb.prm[P_FIX_BREAK_ON]:
        st.fi[g, h, FI_AMMO0 + slot] = GUN_BROKEN
    elif roll >= tb.prm[P_FIX_CLEAR_ON]:
        reload_gun(st, g, tb, h, slot)


@njit
def reposition_away(st, g, tb, h):
    """Reposition (§4): up to 2" away from the zombies touching him, ending facing the nearest."""
    sx, sy = 0.0, 0.0
    x, y = st.ff[g, h, FF_X], st.ff[g, h, FF_Y]
    for z in range(st.fi.shape[1]):
        if is_zombie(st, g, z) and touching(gap_between(st, g, tb, h, z)):
            ux, uy = unit_vector(st.ff[g, z, FF_X], st.ff[g, z, FF_Y], x, y)
            sx, sy = sx + ux, sy + uy
    n = math.sqrt(sx * sx + sy * sy)
    log_event(st, g, EK_ACTION, h, -1, A_REPOSITION, 0.0, 0.0)
    if n < 1e-9 or badly_wounded(st, g, tb, h):
        return
    walk(st, g, tb, h, sx / n, sy / n, tb.prm[P_REPOSITION_IN])
    if is_human(st, g, h):
        _, z = nearest_zombie(st, g, tb, h)
        if z >= 0:
            face_towards(st, g, h, st.ff[g, z, FF_X], st.ff[g, z, FF_Y])


@njit
def needs_carrying(st, g, tb, h, c):
    """P4: comrade c must be carried (§9: unconscious, or too badly wounded to walk); a man
    still conscious is carried only away from a zombie within h's keep-away distance of him, or
    toward the goal when he is not there yet."""
    if st.fi[g, c, FI_STATE] == S_OUT:
        return True
    if not badly_wounded(st, g, tb, c):
        return False
    gap, _ = nearest_zombie(st, g, tb, c)
    if gap < tb.pol[h, POL_KEEP_AWAY]:
        return True
    if tb.prm[P_SCENARIO] == SCENARIO_CLEANUP:
        return False
    gx, gy, near = goal_of(st, g, tb, c)
    return near < 0.0 or centre_distance(st.ff[g, c, FF_X], st.ff[g, c, FF_Y], gx, gy) > near + EPS


@njit
def unconscious_comrade(st, g, tb, h, reach):
    """The nearest comrade who needs carrying within ``reach`` of h (0: in base contact); -1
    none."""
    best, who = NO_GAP, -1
    for c in range(n_humans(tb)):
        if c != h and is_human(st, g, c) and needs_carrying(st, g, tb, h, c):
            d = gap_between(st, g, tb, h, c)
            if d <= reach + EPS and d < best:
                best, who = d, c
    return who


@njit
def carry(st, g, tb, rng, h, c):
    """Carry / drag (§4, seed, §9): h and the unconscious or badly wounded c move together at
    half distance, toward the goal or, with a zombie within the keep-away distance, away from
    it (a man who may not turn keeps his facing)."""
    gap, z = nearest_zombie(st, g, tb, h)
    if z >= 0 and gap < tb.pol[h, POL_KEEP_AWAY]:
        ux, uy = away_direction(st, g, tb, h, z)
    else:
        gx, gy, _ = goal_of(st, g, tb, h)
        ux, uy = unit_vector(st.ff[g, h, FF_X], st.ff[g, h, FF_Y], gx, gy)
    carry_along(st, g, tb, rng, h, c, ux, uy)


@njit
def carry_along(st, g, tb, rng, h, c, ux, uy):
    """Carry / drag (§4) along (ux, uy): both at half the roll."""
    roll, falls = move_roll(st, g, tb, rng, h, base_move_dice(st, g, tb, h), True)
    log_event(st, g, EK_ACTION, h, c, A_CARRY, roll, 0.0)
    cx, cy = st.ff[g, c, FF_X], st.ff[g, c, FF_Y]
    # both move together (§4): the comrade's base may not pass through a zombie either (§1)
    length = clear_length(st, g, tb, c, cx, cy, ux, uy, 0.5 * roll)
    moved = walk_and_spook(st, g, tb, rng, h, ux, uy, length)
    if not is_human(st, g, h):  # he went off the exit edge: the carried comrade too
        escape(st, g, tb, c)
        return
    place(st, g, tb, c, cx + ux * moved, cy + uy * moved)
    log_event(st, g, EK_CARRY, h, c, st.ff[g, c, FF_X], st.ff[g, c, FF_Y], 0.0)
    if falls:
        knock_down(st, g, tb, h)


@njit
def mount(st, g, tb, h):
    """Mount (§4): within 3" of his horse, he climbs on."""
    log_event(st, g, EK_ACTION, h, -1, A_MOUNT, 0.0, 0.0)
    place(st, g, tb, h, st.ff[g, h, FF_HORSE_X], st.ff[g, h, FF_HORSE_Y])
    st.fi[g, h, FI_HORSE] = HORSE_RIDDEN


@njit
def dismount(st, g, tb, h):
    """Dismount (§4): the horse stays, loose, beside him (within 3")."""
    log_event(st, g, EK_ACTION, h, -1, A_DISMOUNT, 0.0, 0.0)
    r2 = 2.0 * tb.prm[P_BASE_R]
    f = st.ff[g, h, FF_FACING]
    x, y = st.ff[g, h, FF_X] - math.cos(f) * r2, st.ff[g, h, FF_Y] - math.sin(f) * r2
    w, hgt, r = tb.prm[P_TABLE_W], tb.prm[P_TABLE_H], tb.prm[P_BASE_R]
    st.ff[g, h, FF_HORSE_X], st.ff[g, h, FF_HORSE_Y] = min(max(x, r), w - r), min(max(y, r), hgt - r)
    st.fi[g, h, FI_HORSE] = HORSE_LOOSE


@njit
def gunslinger_near(st, g, tb, h, reach):
    for z in range(st.fi.shape[1]):
        if is_zombie(st, g, z) and st.fi[g, z, FI_GUNSLINGER] and gap_between(st, g, tb, h, z) <= reach:
            return True
    return False


@njit
def move_to_goal(st, g, tb, rng, h, t):
    """P1's last step: Move (or, with ``POL_ADVANCE_FIRE`` and a target, Move & Fire) toward
    the goal, keeping ``POL_KEEP_AWAY`` from every zombie; a zombie already nearer than that:
    move straight away from it. False when he stays where he is."""
    gap, z = nearest_zombie(st, g, tb, h)
    if badly_wounded(st, g, tb, h):
        return False
    if z >= 0 and gap < tb.pol[h, POL_KEEP_AWAY] - EPS:
        ux, uy = away_direction(st, g, tb, h, z)
        move_along(st, g, tb, rng, h, ux, uy, 1e9, A_MOVE)
        return True
    gx, gy, near = goal_of(st, g, tb, h)
    x, y = st.ff[g, h, FF_X], st.ff[g, h, FF_Y]
    dist = centre_distance(x, y, gx, gy)
    if near >= 0.0 and dist <= near + EPS:
        return False
    ux, uy = unit_vector(x, y, gx, gy)
    limit = safe_length(st, g, tb, h, ux, uy, dist - max(near, 0.0))
    if limit < 0.5:
        return False
    if tb.pol[h, POL_ADVANCE_FIRE] != 0 and t >= 0 and zombies_touching(st, g, tb, h) == 0:
        move_and_fire(st, g, tb, rng, h, ux, uy, limit)
        return True
    move_along(st, g, tb, rng, h, ux, uy, limit, A_MOVE)
    return True


@njit
def move_and_fire(st, g, tb, rng, h, ux, uy, limit):
    """Move & Fire (§4): up to 2D6" (a Citizen the whole 2D6", and he may fall), then shoot at
    the best target in front, at -1 die."""
    if not fire_move(st, g, tb, rng, h, ux, uy, limit):
        return
    t = choose_target(st, g, tb, h, True)
    if t >= 0:
        do_fire(st, g, tb, rng, h, t, 1)


@njit
def fire_move(st, g, tb, rng, h, ux, uy, limit):
    """The move of Move & Fire (§4): up to 2D6" along (ux, uy), at most ``limit`` (a Citizen the
    whole 2D6", and he may fall). True when he may shoot after it (still on the table, standing)."""
    if not ahead(st, g, tb, h, ux, uy):
        turn_instead(st, g, tb, h, ux, uy)
        return False
    citizen = st.fi[g, h, FI_CLASS] == CITIZEN and st.fi[g, h, FI_HORSE] != HORSE_RIDDEN
    roll, falls = move_roll(st, g, tb, rng, h, int(tb.prm[P_MOVE_FIRE_DICE]), citizen)
    walk_and_spook(st, g, tb, rng, h, ux, uy, roll if citizen else min(roll, limit))
    if not is_human(st, g, h):
        return False
    if falls:
        knock_down(st, g, tb, h)
        log_event(st, g, EK_FALL, h, -1, st.ff[g, h, FF_X], st.ff[g, h, FF_Y], 0.0)
        return False
    return True


@njit
def contact_target(st, g, tb, h):
    """The zombie to shoot at point blank when in contact: the one he would fight (P1);
    ``POL_CONTACT_STANDING``: a standing one first (it attacks him; one on the ground does not),
    then one he stands behind."""
    if tb.pol[h, POL_CONTACT_STANDING] == 0:
        return fight_target(st, g, tb, h)
    best, who = 1 << 30, -1
    for z in range(st.fi.shape[1]):
        if is_zombie(st, g, z) and touching(gap_between(st, g, tb, h, z)):
            key = (0 if st.fi[g, z, FI_STATE] == S_STANDING else 10) + (0 if arc_from(st, g, tb, z, h) == 2 else 1)
            if key < best:
                best, who = key, z
    return who


@njit
def fight_odds(st, g, tb, h, z):
    """(zombie destroyed, human knocked over) of h fighting z now: the exact odds of
    ``Tables.fight_odds`` (§7.3, §7.5) at the dice human_attacks would roll."""
    arc = arc_from(st, g, tb, z, h)
    a = attack_dice(tb, human_base(st, g, tb, h), tb.cls[st.fi[g, h, FI_CLASS], CL_MELEE_MOD],
                    st.fi[g, h, FI_BITES], int(st.fi[g, z, FI_STATE] == S_DOWN), int(arc == 2))
    d = defend_dice(tb, tb.prm[P_Z_DEFEND], 0, 0, int(st.fi[g, h, FI_STATE] == S_DOWN), arc)
    top = tb.fight_odds.shape[2] - 1
    row = tb.fight_odds[melee_class(st, g, tb, h), int(st.fi[g, z, FI_STATE] == S_DOWN), min(a, top), min(d, top)]
    return row[0], row[2]


@njit
def fight_is_better(st, g, tb, h, zf, zs):
    """``POL_CONTACT_ODDS``: Fight zf rather than Fire at zs when its odds of destroying a
    zombie, less half the odds of being knocked over, beat the Fire's odds of destroying zs."""
    kill_f, over = fight_odds(st, g, tb, h, zf)
    kill_s = 0.0
    if tb.pol[h, POL_CONTACT_FIRE] != 0 and tb.prm[P_CONTACT_SHOOTING] != 0 and best_gun(st, g, tb, h, 0.0) >= 0:
        kill_s, _ = fire_odds(st, g, tb, h, zs, 0.0)
    return kill_f - 0.5 * over > kill_s


@njit
def act(st, g, tb, rng, h, flee):
    """Pick and perform one action for human h (P1-P4, P6)."""
    if forced_action(st, g, tb, rng, h, flee):
        return
    pol = tb.pol[h]
    gap, z = nearest_zombie(st, g, tb, h)
    contact = z >= 0 and touching(gap)
    if pol[POL_DUCK_BACK] > 0 and not contact and gunslinger_near(st, g, tb, h, pol[POL_DUCK_BACK]):
        log_event(st, g, EK_ACTION, h, -1, A_DUCK_BACK, 0.0, 0.0)
        st.fi[g, h, FI_DUCKED] = 1
        return
    # no zombie within POL_RELOAD_SAFE (P1): Reload, or Fix a jammed gun when no other is ready
    if gap > pol[POL_RELOAD_SAFE] and chores(st, g, tb, rng, h, pol[POL_CHORES] != 0):
        return
    if not contact and horse_chores(st, g, tb, h, gap):
        return
    if contact:
        in_contact(st, g, tb, rng, h)
        return
    if rescue(st, g, tb, rng, h, gap):
        return
    if pol[POL_RETREAT] > 0 and gap <= pol[POL_RETREAT] and not badly_wounded(st, g, tb, h):
        ux, uy = away_direction(st, g, tb, h, z)
        move_along(st, g, tb, rng, h, ux, uy, 1e9, A_MOVE)
        return
    t = choose_target(st, g, tb, h, False)
    if pol[POL_MOVE_FIRST] != 0 and move_to_goal(st, g, tb, rng, h, t):
        return  # run for it: the goal before any shot
    if t >= 0 and shoot_or_aim(st, g, tb, rng, h, t):
        return
    if move_to_goal(st, g, tb, rng, h, t):
        return
    idle(st, g, tb, rng, h, t)


@njit
def forced_action(st, g, tb, rng, h, flee):
    """The actions the rules force (§4, §9): knocked down -> Recover if wounded, else Get up;
    wounded or ducked back -> Recover; a failed nerve test (W12) -> Move away from the nearest
    zombie. True when one was taken."""
    if st.fi[g, h, FI_STATE] == S_DOWN:
        action = A_RECOVER if st.fi[g, h, FI_RECOVER] else A_GET_UP
        log_event(st, g, EK_ACTION, h, -1, action, 0.0, 0.0)
        if action == A_RECOVER:
            st.fi[g, h, FI_RECOVER], st.fi[g, h, FI_DUCKED] = 0, 0
        else:
            st.fi[g, h, FI_STATE] = S_STANDING
        return True
    if st.fi[g, h, FI_RECOVER] or st.fi[g, h, FI_DUCKED]:
        log_event(st, g, EK_ACTION, h, -1, A_RECOVER, 0.0, 0.0)
        st.fi[g, h, FI_RECOVER], st.fi[g, h, FI_DUCKED] = 0, 0
        return True
    gap, z = nearest_zombie(st, g, tb, h)
    if flee and z >= 0 and not badly_wounded(st, g, tb, h):
        ux, uy = away_direction(st, g, tb, h, z)
        move_along(st, g, tb, rng, h, ux, uy, 1e9, A_MOVE)
        return True
    return False


@njit
def horse_chores(st, g, tb, h, gap):
    """Mount a loose horse within 3" (``POL_RIDE``), or dismount when the policy walks."""
    ride = tb.pol[h, POL_RIDE] != 0
    if st.fi[g, h, FI_HORSE] == HORSE_LOOSE and ride and \
            gap_to_point(st, g, tb, h, st.ff[g, h, FF_HORSE_X], st.ff[g, h, FF_HORSE_Y]) <= 3.0 + EPS:
        mount(st, g, tb, h)
        return True
    if st.fi[g, h, FI_HORSE] == HORSE_RIDDEN and not ride:
        dismount(st, g, tb, h)
        return True
    return False


@njit
def in_contact(st, g, tb, rng, h):
    """A zombie touches him (P1): Fight with an Effective weapon (``POL_FIGHT_IN_CONTACT`` 2:
    with any weapon), else Fire at point blank (W25), else Reposition away; ``POL_CONTACT_ODDS``:
    Fight (with any weapon the policy fights with) only when its odds beat the Fire's."""
    pol = tb.pol[h]
    effective = melee_class(st, g, tb, h) == MELEE_EFFECTIVE
    z = contact_target(st, g, tb, h)
    may_fight = pol[POL_FIGHT_IN_CONTACT] >= 2 or (pol[POL_FIGHT_IN_CONTACT] >= 1 and effective)
    if pol[POL_CONTACT_ODDS] != 0 and may_fight:
        zf = fight_target(st, g, tb, h)
        if fight_is_better(st, g, tb, h, zf, z):
            log_event(st, g, EK_ACTION, h, zf, A_FIGHT, 0.0, 0.0)
            human_attacks(st, g, tb, rng, h, zf)
            return
        effective = False  # the better odds are the gun's (or no Fight is worth it)
    if pol[POL_FIGHT_IN_CONTACT] >= 1 and effective:
        log_event(st, g, EK_ACTION, h, z, A_FIGHT, 0.0, 0.0)
        human_attacks(st, g, tb, rng, h, z)
        return
    if pol[POL_CONTACT_FIRE] != 0 and tb.prm[P_CONTACT_SHOOTING] != 0 and best_gun(st, g, tb, h, 0.0) >= 0:
        do_fire(st, g, tb, rng, h, z, 0)
        return
    if pol[POL_FIGHT_IN_CONTACT] >= 2:
        log_event(st, g, EK_ACTION, h, z, A_FIGHT, 0.0, 0.0)
        human_attacks(st, g, tb, rng, h, z)
        return
    reposition_away(st, g, tb, h)


@njit
def rescue(st, g, tb, rng, h, gap):
    """P4: carry an unconscious comrade in contact; with ``POL_RESCUE_SEEK`` walk to one within
    that many inches when no zombie is within the keep-away distance."""
    if tb.pol[h, POL_RESCUE] == 0 or badly_wounded(st, g, tb, h):
        return False
    c = unconscious_comrade(st, g, tb, h, 0.0)
    if c >= 0:
        carry(st, g, tb, rng, h, c)
        return True
    seek = tb.pol[h, POL_RESCUE_SEEK]
    if seek > 0 and gap >= tb.pol[h, POL_KEEP_AWAY] and not badly_wounded(st, g, tb, h):
        c = unconscious_comrade(st, g, tb, h, seek)
        if c >= 0:
            x, y = st.ff[g, h, FF_X], st.ff[g, h, FF_Y]
            ux, uy = unit_vector(x, y, st.ff[g, c, FF_X], st.ff[g, c, FF_Y])
            move_along(st, g, tb, rng, h, ux, uy, max(0.0, gap_between(st, g, tb, h, c)), A_MOVE)
            return True
    return False


@njit
def shoot_or_aim(st, g, tb, rng, h, t):
    """P1: Fire at a zombie in the gun's best band (``POL_FIRE_FRACTION`` of its most dice) or
    already aimed at; Aim at one on the ground or feeding."""
    gap = gap_between(st, g, tb, h, t)
    slot = best_gun(st, g, tb, h, gap)
    w = gun_of(st, g, h, slot)
    here = tb.band_dice[tb.weapons[w, W_PROFILE], band_of(tb, gap)]
    if aim_valid(st, g, h, t) or here >= tb.pol[h, POL_FIRE_FRACTION] * max_band_dice(tb, w) - EPS:
        do_fire(st, g, tb, rng, h, t, 0)
        return True
    if tb.pol[h, POL_AIM_AT_DOWN] != 0 and (st.fi[g, t, FI_STATE] == S_DOWN or st.fi[g, t, FI_FEED] >= 0):
        do_aim(st, g, tb, h, t)
        return True
    return False


@njit
def idle(st, g, tb, rng, h, t):
    """Nothing better to do (at the goal, or held back by the keep-away distance): Fire at any
    zombie in range - but a gun that must reload after every Fire is kept for its best band and
    Aims instead (``POL_AIM_IDLE``) -, else Aim at the nearest zombie, else nothing.
    ``POL_CHORES``: first Reload an empty gun or Fix a jammed one, whatever zombie is near (not in
    contact: that is in_contact's); ``POL_FACE``: Aim at (turning to face) the nearest standing
    zombie that could reach him and stands outside his front arc, before any other."""
    if tb.pol[h, POL_CHORES] != 0 and chores(st, g, tb, rng, h, True):
        return
    if t >= 0 and not keep_the_charge(st, g, tb, h, t):
        do_fire(st, g, tb, rng, h, t, 0)
        return
    _, z = nearest_zombie(st, g, tb, h)
    if t >= 0:
        z = t
    if tb.pol[h, POL_FACE] != 0:
        behind = unfaced_zombie(st, g, tb, h)
        if behind >= 0:
            do_aim(st, g, tb, h, behind)
            return
    if tb.pol[h, POL_AIM_IDLE] != 0 and z >= 0 and not aim_valid(st, g, h, z):
        do_aim(st, g, tb, h, z)
        return
    log_event(st, g, EK_ACTION, h, -1, A_NONE, 0.0, 0.0)


@njit
def chores(st, g, tb, rng, h, fix_any):
    """Reload an empty gun (§4, P1), else Fix a jammed one (§4 Fix gun): when ``fix_any``, or when
    no other gun is ready. False when neither was done."""
    slot = reloadable(st, g, tb, h)
    if slot >= 0:
        log_event(st, g, EK_ACTION, h, slot, A_RELOAD, 0.0, 0.0)
        reload_gun(st, g, tb, h, slot)
        return True
    slot = jammed(st, g, h)
    if slot >= 0 and (fix_any or not any_gun_ready(st, g, tb, h)):
        log_event(st, g, EK_ACTION, h, slot, A_FIX_GUN, 0.0, 0.0)
        fix_gun(st, g, tb, rng, h, slot)
        return True
    return False


@njit
def unfaced_zombie(st, g, tb, h):
    """The nearest standing zombie within a zombie's move of h (CHARGE_IN) that is outside his
    front arc (§1: attacks from the side or rear cost him defend dice, §7.2); -1 none, or when
    he may not turn."""
    if st.fi[g, h, FI_NO_MOVE]:
        return -1
    best, who = NO_GAP, -1
    for z in range(st.fi.shape[1]):
        if is_zombie(st, g, z) and st.fi[g, z, FI_STATE] == S_STANDING and st.fi[g, z, FI_FEED] < 0:
            d = gap_between(st, g, tb, h, z)
            if d <= CHARGE_IN + EPS and d < best and arc_from(st, g, tb, h, z) != 0:
                best, who = d, z
    return who


@njit
def wants_free_action(st, g, tb, h):
    """``SPEND_USEFUL`` (P5): a free action helps h - a standing zombie touches him, he is down
    with a zombie within a zombie's move, or he has a Fire at a zombie in his gun's best band."""
    if not is_human(st, g, h) or st.fi[g, h, FI_STATE] == S_OUT:
        return False
    gap, _ = nearest_zombie(st, g, tb, h)
    if st.fi[g, h, FI_STATE] == S_DOWN or st.fi[g, h, FI_RECOVER] or st.fi[g, h, FI_DUCKED]:
        return gap <= CHARGE_IN + EPS
    if zombies_touching(st, g, tb, h) > 0:
        return True
    t = choose_target(st, g, tb, h, False)
    if t < 0:
        return False
    gap = gap_between(st, g, tb, h, t)
    w = gun_of(st, g, h, best_gun(st, g, tb, h, gap))
    here = tb.band_dice[tb.weapons[w, W_PROFILE], band_of(tb, gap)]
    return aim_valid(st, g, h, t) or here >= max_band_dice(tb, w)


@njit
def keep_the_charge(st, g, tb, h, t):
    """A shotgun, sawn-off or musketoon (empty after every Fire) outside its best band, with a
    policy that aims when idle."""
    gap = gap_between(st, g, tb, h, t)
    w = gun_of(st, g, h, best_gun(st, g, tb, h, gap))
    here = tb.band_dice[tb.weapons[w, W_PROFILE], band_of(tb, gap)]
    return tb.pol[h, POL_AIM_IDLE] != 0 and tb.weapons[w, W_RELOAD] != 0 and here < max_band_dice(tb, w)


@njit
def activate(st, g, tb, rng, h):
    """One activation of human h (§3.2 character card or a spent action card, §13): the
    start-of-activation checks, then one action."""
    acts, flee = activation_start(st, g, tb, rng, h)
    if acts:
        act(st, g, tb, rng, h, flee)


@njit
def activation_start(st, g, tb, rng, h):
    """The start of an activation of human h (§13): (he may act, he must move away)."""
    if not is_human(st, g, h):
        return False, False
    st.pres[g, h, PR_ACTIONS] += 1
    ok, flee = activation_checks(st, g, tb, rng, h)
    return ok and is_human(st, g, h) and st.fi[g, h, FI_STATE] != S_OUT, flee
