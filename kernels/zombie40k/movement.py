"""Movement: squads (zombie40k §5.2: regroup, move, embark; core §6.10 Run) and the zombie Shamble
(§6.2), with the zombies' targeting rules.

Embarking (A6, docs/space.md): a squad embarks when every model can end its move within 2" of
the Escape Vehicle hull: its farthest model (centre distance + radius) is within the move
allowance + 2". With ``embark_any_model`` the nearest model is enough.
"""

from __future__ import annotations

import math

from kernels.dice import highest_d6
from kernels.jit import njit
from kernels.rng import d6, uniform
from kernels.w40k.columns import (
    MR_ATSKNF,
    MR_BOUNDING_LEAP,
    MR_CRUSADER,
    MR_FLEET,
    MR_MOVE_THROUGH_COVER,
    MR_SLOW_AND_PURPOSEFUL,
)
from kernels.w40k.geometry import norm
from kernels.zombie40k.assault import overwatch
from kernels.zombie40k.casualties import dangerous_terrain
from kernels.zombie40k.choices import course, plays_random
from kernels.zombie40k.columns import (
    EK_EMBARK,
    EK_MOVE,
    EK_REGROUP,
    EK_RUN,
    EK_SHAMBLE,
    P_BASE_R,
    P_BILE_CORRIDOR,
    P_BOSS_BLOCKS_EV,
    P_BOSS_GUARD,
    P_BOSS_GUARD_NEAREST,
    P_EDGE_ARRIVAL,
    P_EMBARK_ANY,
    P_MUSH_MOVE,
    P_SHAMBLE_N,
    P_SHAMBLE_PREFERS_UNENGAGED,
    P_SURROUNDED_GEOMETRIC,
    P_SURROUNDED_RATIO,
    POL_HUNT_RADIUS,
    PU_BANANA,
    PU_BILE,
    PU_MUSHROOM_ON,
    PU_SHADES,
    R_TURNS,
    US_ARRIVED_EDGE,
    US_CHARGED,
    US_EMBARKED,
    US_FALLING_BACK,
    US_MOVED,
    US_NO_CHARGE,
    US_ON_TABLE,
    US_PINNED,
    US_RAN,
    US_REGROUPED,
)
from kernels.zombie40k.geometry import (
    edge_distance,
    ev_distance,
    ev_nearest_point,
    ev_rect,
    free_travel,
    move_towards,
    near_circles,
    rect_distance,
    walls_in_reach,
)
from kernels.zombie40k.morale import fall_back, leadership_test
from kernels.zombie40k.powerups import chuck_active
from kernels.zombie40k.spawning import roll_expr_prm
from kernels.zombie40k.terrain import crosses_terrain, has_terrain
from kernels.zombie40k.units import (
    alive,
    all_have,
    any_has,
    boss_unit,
    close_event,
    dice_for,
    in_combat,
    lock,
    log_event,
    n_players,
    note_ev_zone,
    on_table,
    open_event,
    unlock_all,
)

MOVE_IN = 6.0
REGROUP_IN = 3.0


# ------------------------------------------------------------------------ embarking


@njit
def hull_distance(st, g, u, tb):
    x0, x1, y0, y1 = ev_rect(tb.prm)
    return rect_distance(st.pos[g, u, 0], st.pos[g, u, 1], x0, x1, y0, y1)


@njit
def can_embark(st, g, p, allowance, tb):
    """A6: not locked, not falling back, every model (or, optionally, one) can end within 2"."""
    if in_combat(st, g, p) or not on_table(st, g, p):
        return False
    if tb.prm[P_BOSS_BLOCKS_EV] != 0 and on_table(st, g, boss_unit(st)):
        return False  # Coop Mode: nobody boards while the Boss lives (§10.1)
    reach = hull_distance(st, g, p, tb)
    reach += -st.radius[g, p] if tb.prm[P_EMBARK_ANY] != 0 else st.radius[g, p]
    return reach <= allowance + 2.0


@njit
def embark(st, g, p, tb):
    """The squad boards the Escape Vehicle: it leaves the table with its models, which stand
    at the vehicle's access point (Coop Mode squads keep shooting from there, zombie40k §10.1)."""
    note_ev_zone(st, g, p, tb)
    log_event(st, g, EK_EMBARK, p, -1, st.pos[g, p, 0], st.pos[g, p, 1], alive(st, g, p))
    st.ustate[g, p, US_EMBARKED] = 1
    st.ustate[g, p, US_ON_TABLE] = 0
    st.ustate[g, p, US_FALLING_BACK] = 0
    unlock_all(st, g, p)
    x0, x1, y0, y1 = ev_rect(tb.prm)
    st.pos[g, p, 0], st.pos[g, p, 1], st.radius[g, p] = 0.5 * (x0 + x1), y0, 0.0


# --------------------------------------------------------------------- squad movement


@njit
def _speed_bonus(st, g, p, tb):
    """+3" with the Speed Pack in the turn it is used (zombie40k §8 result 9)."""
    return tb.prm[P_MUSH_MOVE] if st.pu[g, p, PU_MUSHROOM_ON] == st.res[g, R_TURNS] else 0.0


@njit
def move_allowance(st, g, p, tb, rng, dx, dy, want):
    """6", or as through difficult terrain under a Banana Peel (2D6 highest, 3D6 with Move
    Through Cover, never above 6"); +3" with the Speed Pack (zombie40k §8; core §5). The move
    checked for terrain is the one towards the squad's goal, or the random baseline's course
    (``want`` >= 0 inches along (dx, dy); -1: the goal's)."""
    allowance = MOVE_IN
    bonus = _speed_bonus(st, g, p, tb)
    if want >= 0.0:
        crosses = _course_crosses_terrain(st, g, p, dx, dy, want, tb)
    else:
        crosses = _move_crosses_terrain(st, g, p, MOVE_IN + bonus, tb)
    if st.pu[g, p, PU_BANANA] == st.res[g, R_TURNS] or crosses:
        dice = 3 if any_has(st, g, p, MR_MOVE_THROUGH_COVER) else 2
        allowance = min(MOVE_IN, float(highest_d6(rng, g, dice)))
    return allowance + bonus


@njit
def _course_crosses_terrain(st, g, p, dx, dy, want, tb):
    """Would ``want`` inches along (dx, dy) enter, leave or cross difficult terrain (core §5)?"""
    if not has_terrain(tb):
        return False
    x, y = st.pos[g, p, 0], st.pos[g, p, 1]
    return crosses_terrain(st, g, x, y, x + want * dx, y + want * dy, st.radius[g, p], tb, False)


@njit
def _move_crosses_terrain(st, g, p, reach, tb):
    """Would the squad's straight move of up to ``reach`` towards its goal enter, leave or cross
    difficult terrain (zombie40k §3.1, core §5)?"""
    if not has_terrain(tb):
        return False
    gx, gy, target = movement_goal(st, g, p, tb)
    x, y = st.pos[g, p, 0], st.pos[g, p, 1]
    dist = norm(gx - x, gy - y)
    stop = st.radius[g, p] + st.radius[g, target] + 1.0 if target >= 0 else 0.0
    t = max(0.0, min(reach, dist - stop)) / max(dist, 1e-9)
    return crosses_terrain(st, g, x, y, x + t * (gx - x), y + t * (gy - y), st.radius[g, p], tb, False)


@njit
def movement_goal(st, g, p, tb):
    """(x, y, target unit or -1): the nearest horde within the hunt radius (policy), else the
    Escape Vehicle."""
    radius = tb.policy[p, POL_HUNT_RADIUS]
    best, best_d = -1, radius
    for v in range(n_players(tb), boss_unit(st)):
        if on_table(st, g, v) and not in_combat(st, g, v):
            d = edge_distance(st.pos[g, p, 0], st.pos[g, p, 1], st.radius[g, p], st.pos[g, v, 0], st.pos[g, v, 1],
                              st.radius[g, v])
            if d <= best_d:
                best, best_d = v, d
    if best >= 0:
        return st.pos[g, best, 0], st.pos[g, best, 1], best
    x, y = ev_nearest_point(st.pos[g, p, 0], st.pos[g, p, 1], tb.prm)
    return x, y, -1


@njit
def advance(st, g, p, allowance, tb, rng, kind):
    """Move squad p towards its goal; a hunted horde is approached to 1" (no contact)."""
    gx, gy, target = movement_goal(st, g, p, tb)
    stop = 0.0
    if target >= 0:
        stop = st.radius[g, p] + st.radius[g, target] + 1.0
    ax, ay = st.pos[g, p, 0], st.pos[g, p, 1]
    moved = move_towards(st.pos, st.radius[g], st.ustate, g, p, gx, gy, allowance, -1, stop, tb.prm, st.w_near)
    if moved > 0.0:
        st.ustate[g, p, US_MOVED] = 1
    note_ev_zone(st, g, p, tb)
    dangerous_terrain(st, g, p, ax, ay, tb, rng)
    log_event(st, g, kind, p, target, moved, st.pos[g, p, 0], st.pos[g, p, 1])
    return moved


@njit
def wander(st, g, p, dx, dy, want, allowance, tb, rng, kind):
    """The random baseline's move (kernels.zombie40k.choices): straight along (dx, dy), as far as
    it wants, its allowance and the way allow (the table edge, the Escape Vehicle, 1" from every
    other unit: ``free_travel``)."""
    ax, ay = st.pos[g, p, 0], st.pos[g, p, 1]
    reach = min(want, allowance)
    n = near_circles(st.pos, st.radius[g], st.ustate, g, p, ax, ay, reach, -1, tb.prm, st.w_near)
    edges, ev = walls_in_reach(ax, ay, st.radius[g, p], reach, tb.prm)
    moved = max(0.0, min(reach, free_travel(st.w_near, n, st.radius[g, p], ax, ay, dx, dy, tb.prm, edges, ev)))
    st.pos[g, p, 0], st.pos[g, p, 1] = ax + moved * dx, ay + moved * dy
    if moved > 0.0:
        st.ustate[g, p, US_MOVED] = 1
    note_ev_zone(st, g, p, tb)
    dangerous_terrain(st, g, p, ax, ay, tb, rng)
    log_event(st, g, kind, p, -1, moved, st.pos[g, p, 0], st.pos[g, p, 1])
    return moved


@njit
def squad_movement(st, g, p, tb, rng):
    """zombie40k §5.2. Returns True if the squad embarked (its player wins). A random player
    (kernels.zombie40k.choices) moves on a course it draws; it boards whenever it can."""
    if not on_table(st, g, p) or in_combat(st, g, p) or st.ustate[g, p, US_PINNED] != 0:
        return False
    dx, dy, want = 0.0, 0.0, -1.0
    if plays_random(tb, p):
        dx, dy, want = course(rng, g, MOVE_IN + _speed_bonus(st, g, p, tb))
    allowance = move_allowance(st, g, p, tb, rng, dx, dy, want)
    if st.ustate[g, p, US_FALLING_BACK] != 0:
        if not _regroup(st, g, p, tb, rng):
            return False
        if not any_has(st, g, p, MR_ATSKNF):
            allowance = REGROUP_IN
            _mark_regrouped(st, g, p)
    if can_embark(st, g, p, allowance, tb):
        embark(st, g, p, tb)
        return True
    if want >= 0.0:
        wander(st, g, p, dx, dy, want, allowance, tb, rng, EK_MOVE)
    else:
        advance(st, g, p, allowance, tb, rng, EK_MOVE)
    return False


@njit
def compulsory_moves(st, g, p, tb, rng):
    """What a squad that may not move this turn still does in its Movement phase: a falling-back
    squad takes its Regroup test and, if it fails, falls back again (core §9.2, §9.3)."""
    if on_table(st, g, p) and not in_combat(st, g, p) and st.ustate[g, p, US_FALLING_BACK] != 0:
        _regroup(st, g, p, tb, rng)


@njit
def _mark_regrouped(st, g, p):
    """core §9.2: a unit that regroups counts as having moved and may not Run or charge this
    turn; it may shoot."""
    st.ustate[g, p, US_REGROUPED] = 1
    st.ustate[g, p, US_MOVED] = 1
    st.ustate[g, p, US_NO_CHARGE] = 1


@njit
def _regroup(st, g, p, tb, rng):
    """Regroup test at full Leadership even below 25% (zombie40k §5.2); a fail falls back."""
    passed = any_has(st, g, p, MR_ATSKNF) or leadership_test(st, g, p, 0, tb, rng)
    log_event(st, g, EK_REGROUP, p, -1, passed, 0, 0)
    if passed:
        st.ustate[g, p, US_FALLING_BACK] = 0
        return True
    fall_back(st, g, p, tb, rng)
    return False


@njit
def run_distance(st, g, p, tb, rng):
    """Run: D6 (Fleet re-rolls a low one, Crusader takes the higher of 2D6), Bounding Leap +3",
    Speed Pack +3" (core §6.10; zombie40k §8)."""
    if any_has(st, g, p, MR_CRUSADER):
        distance = highest_d6(rng, g, 2)
    else:
        distance = d6(rng, g)
        if distance <= 3 and all_have(st, g, p, MR_FLEET):
            distance = d6(rng, g)
        if distance <= 3 and chuck_active(st, g, p):
            distance = d6(rng, g)
    bonus = 3.0 if all_have(st, g, p, MR_BOUNDING_LEAP) else 0.0
    if st.pu[g, p, PU_MUSHROOM_ON] == st.res[g, R_TURNS]:
        bonus += tb.prm[P_MUSH_MOVE]
    return float(distance) + bonus


@njit
def may_run(st, g, p):
    return (on_table(st, g, p) and not in_combat(st, g, p) and st.ustate[g, p, US_FALLING_BACK] == 0
            and st.ustate[g, p, US_RAN] == 0 and st.ustate[g, p, US_PINNED] == 0
            and st.ustate[g, p, US_REGROUPED] == 0
            and not any_has(st, g, p, MR_SLOW_AND_PURPOSEFUL))


@njit
def squad_run(st, g, p, tb, rng, embark_on_run):
    """Run instead of shooting; embarking at the end of a Run only with ``embark_on_run``."""
    distance = run_distance(st, g, p, tb, rng)
    st.ustate[g, p, US_RAN] = 1
    if embark_on_run and can_embark(st, g, p, distance, tb):
        embark(st, g, p, tb)
        return True
    if plays_random(tb, p):
        dx, dy, want = course(rng, g, distance)
        wander(st, g, p, dx, dy, want, distance, tb, rng, EK_RUN)
    else:
        advance(st, g, p, distance, tb, rng, EK_RUN)
    return False


# ------------------------------------------------------------------------ the Shamble


@njit
def surrounded(st, g, p, tb):
    """A2: a locked squad that zombies have completely surrounded. Default: the zombie models
    locked with it number at least ``surrounded_ratio`` times its models (every model of a
    locked unit is in contact in the abstraction); geometric: their bases fill the whole
    circumference of the squad's disc (no base-contact spot left)."""
    if not in_combat(st, g, p):
        return False
    zombies = 0
    for v in range(n_players(tb), st.pos.shape[1]):
        if st.locked[g, p, v]:
            zombies += alive(st, g, v)
    if tb.prm[P_SURROUNDED_GEOMETRIC] != 0:
        base = 2.0 * tb.prm[P_BASE_R]
        return zombies * base >= 2.0 * math.pi * (st.radius[g, p] + 0.5 * base)
    return zombies >= tb.prm[P_SURROUNDED_RATIO] * alive(st, g, p)


@njit
def _gap(st, g, u, v):
    return edge_distance(st.pos[g, u, 0], st.pos[g, u, 1], st.radius[g, u], st.pos[g, v, 0], st.pos[g, v, 1],
                         st.radius[g, v])


@njit
def _candidate(st, g, p, tb):
    """A squad the zombies may pick: on the table, not surrounded, not wearing Shades."""
    return on_table(st, g, p) and st.pu[g, p, PU_SHADES] == 0 and not surrounded(st, g, p, tb)


@njit
def _closer(st, g, d, best_d, p, best, tb, rng):
    """Nearer squad; within 0.1" the one closer to the EV, then a coin (A3, A45)."""
    if best < 0 or d < best_d - 0.1:
        return True
    if d > best_d + 0.1:
        return False
    mine = ev_distance(st.pos[g, p, 0], st.pos[g, p, 1], st.radius[g, p], tb.prm)
    theirs = ev_distance(st.pos[g, best, 0], st.pos[g, best, 1], st.radius[g, best], tb.prm)
    if abs(mine - theirs) > 1e-9:
        return mine < theirs
    return uniform(rng, g) < 0.5


@njit
def shamble_target(st, g, z, tb, rng):
    """zombie40k §6.2 step 2: the nearest squad (engaged or not, A3), Zombie Bile first (and a
    squad in the bile-seekers' path instead, A29); -1 if every squad is ignored."""
    bile = False
    for p in range(n_players(tb)):
        bile = bile or (st.pu[g, p, PU_BILE] != 0 and _candidate(st, g, p, tb))
    prefer_free = tb.prm[P_SHAMBLE_PREFERS_UNENGAGED] != 0
    best, best_d, best_free = -1, 1e18, False
    for p in range(n_players(tb)):
        if not _candidate(st, g, p, tb) or (bile and st.pu[g, p, PU_BILE] == 0):
            continue
        free = not in_combat(st, g, p)
        d = _gap(st, g, z, p)
        if prefer_free and best >= 0 and free != best_free:
            if free:
                best, best_d, best_free = p, d, free
            continue
        if _closer(st, g, d, best_d, p, best, tb, rng):
            best, best_d, best_free = p, d, free
    if bile and best >= 0:
        best = _squad_in_path(st, g, z, best, tb)
    return best


@njit
def _squad_in_path(st, g, z, target, tb):
    """A29: another squad within ``bile_corridor_in`` of the straight path to the bile target is
    charged instead."""
    ax, ay = st.pos[g, z, 0], st.pos[g, z, 1]
    bx, by = st.pos[g, target, 0], st.pos[g, target, 1]
    length = max(1e-9, norm(bx - ax, by - ay))
    ux, uy = (bx - ax) / length, (by - ay) / length
    best, best_t = target, length
    for p in range(n_players(tb)):
        if p == target or not on_table(st, g, p):
            continue
        t = (st.pos[g, p, 0] - ax) * ux + (st.pos[g, p, 1] - ay) * uy
        off = abs((st.pos[g, p, 0] - ax) * uy - (st.pos[g, p, 1] - ay) * ux)
        if 0.0 < t < best_t and off <= st.radius[g, p] + st.radius[g, z] + tb.prm[P_BILE_CORRIDOR]:
            best, best_t = p, t
    return best


@njit
def _shamble_order(st, g, tb, rng):
    """Zombie units that may shamble, closest to its target first (A3): fills ``st.w_order``
    (ties in unit order) and ``st.w_keys`` (1e18: does not shamble)."""
    first, n = n_players(tb), st.pos.shape[1]
    order, keys = st.w_order, st.w_keys
    for z in range(n):
        keys[z] = 1e18
        if z >= first and on_table(st, g, z) and not in_combat(st, g, z):
            p = shamble_target(st, g, z, tb, rng)
            if p >= 0:
                keys[z] = _gap(st, g, z, p)
    for k in range(n):  # a stable insertion sort: a dozen units
        z = k
        while z > 0 and keys[order[z - 1]] > keys[k]:
            order[z] = order[z - 1]
            z -= 1
        order[z] = k


@njit
def shamble_phase(st, g, tb, rng):
    """zombie40k §6.2: one roll for every zombie unit; each moves straight at its target and a
    move that reaches base contact is a charge (Overwatch first, then the survivors go on)."""
    roll = float(roll_expr_prm(rng, g, tb.prm, P_SHAMBLE_N))
    _shamble_order(st, g, tb, rng)
    order, keys = st.w_order, st.w_keys
    for k in range(order.shape[0]):
        z = order[k]
        if keys[z] >= 1e17 or not on_table(st, g, z) or in_combat(st, g, z):
            continue
        dice_for(st, g, rng, z, 0)  # each zombie unit's move its own dice (the roll is the phase's)
        p = shamble_target(st, g, z, tb, rng)
        if z == boss_unit(st) and tb.prm[P_BOSS_GUARD] > 0.0 and tb.prm[P_BOSS_GUARD_NEAREST] == 0:
            p = _intruder(st, g, z, tb, rng)
            if p < 0:
                _back_to_post(st, g, z, roll, tb, rng)
                continue
        if p < 0 or not _boss_may_go(st, g, z, p, tb):
            continue
        _shamble_unit(st, g, z, p, roll, tb, rng)
    for p in range(n_players(tb)):
        st.pu[g, p, PU_BILE] = 0
        st.pu[g, p, PU_SHADES] = 0
    for z in range(n_players(tb), st.pos.shape[1]):
        st.ustate[g, z, US_ARRIVED_EDGE] = 0


@njit
def _intruder(st, g, z, tb, rng):
    """A14 ``boss_guard_radius_in`` (docs/readings.md): the guarding Boss goes for the nearest squad
    within the guard radius of the EV (by the Shamble rules, §6.2 step 2), whatever squads
    farther out are nearer to it; -1 if none."""
    best, best_d = -1, 1e18
    for p in range(n_players(tb)):
        if not _candidate(st, g, p, tb) or ev_distance(st.pos[g, p, 0], st.pos[g, p, 1], st.radius[g, p],
                                                        tb.prm) > tb.prm[P_BOSS_GUARD]:
            continue
        d = _gap(st, g, z, p)
        if _closer(st, g, d, best_d, p, best, tb, rng):
            best, best_d = p, d
    return best


@njit
def _back_to_post(st, g, z, roll, tb, rng):
    """With no squad within the guard radius the Boss walks back to its post by the EV (where it
    was deployed, zombie40k §3.4), by the Shamble roll."""
    x0, x1, y0, _ = ev_rect(tb.prm)
    ax, ay = st.pos[g, z, 0], st.pos[g, z, 1]
    move_towards(st.pos, st.radius[g], st.ustate, g, z, 0.5 * (x0 + x1), y0 - 1.0 - st.radius[g, z], roll, -1,
                 0.0, tb.prm, st.w_near)
    dangerous_terrain(st, g, z, ax, ay, tb, rng)


@njit
def _boss_may_go(st, g, z, p, tb):
    """A14 reading "nearest": a guarding Boss only leaves for its nearest squad, and only when that
    squad is within the guard radius of the EV."""
    guard = tb.prm[P_BOSS_GUARD]
    if z != boss_unit(st) or guard <= 0.0:
        return True
    return ev_distance(st.pos[g, p, 0], st.pos[g, p, 1], st.radius[g, p], tb.prm) <= guard


@njit
def _shamble_unit(st, g, z, p, roll, tb, rng):
    if st.ustate[g, z, US_ARRIVED_EDGE] != 0:
        st.ustate[g, z, US_ARRIVED_EDGE] = 0
        if tb.prm[P_EDGE_ARRIVAL] != 0:  # A23: moving on from the edge, not placed on the table
            roll = max(0.0, roll - 2.0 * st.radius[g, z])
    told = open_event(st, g, EK_SHAMBLE, z, p)  # told before the Overwatch it draws
    if _gap(st, g, z, p) <= roll:
        overwatch(st, g, p, z, tb, rng)  # once per phase per squad (§6.2 step 4)
        if not on_table(st, g, z) or not on_table(st, g, p):
            close_event(st, g, told, 0.0, 0, roll)
            return
    ax, ay = st.pos[g, z, 0], st.pos[g, z, 1]
    moved = move_towards(st.pos, st.radius[g], st.ustate, g, z, st.pos[g, p, 0], st.pos[g, p, 1], roll, p, 0.0,
                         tb.prm, st.w_near)
    dangerous_terrain(st, g, z, ax, ay, tb, rng)  # zombies ignore difficult terrain, not dangerous (A22)
    if not on_table(st, g, z):
        close_event(st, g, told, moved, 0, roll)
        return
    contact = _gap(st, g, z, p) <= 1e-6
    if contact:
        lock(st, g, z, p)
        st.ustate[g, z, US_CHARGED] = 1
    close_event(st, g, told, moved, contact, roll)


@njit
def nearest_squad_goal(st, g, z, tb, rng):
    """Where a zombie unit consolidates: towards its Shamble target (zombie40k §6.4)."""
    p = shamble_target(st, g, z, tb, rng)
    if p < 0:
        return st.pos[g, z, 0], st.pos[g, z, 1]
    return st.pos[g, p, 0], st.pos[g, p, 1]



