"""The players' moves (zombie-apocalypse §3, §6, §10, P3): where each unit heads, how far it gets,
what ending a move does (the Graveyard, a spawner), falling back to the closest edge, regrouping,
super squads.

A unit moves in a straight line towards its goal, stopping 1" short of every horde (core §3) or in
base contact with a horde it charges; when blocked it tries headings up to 60 degrees either side.
Among the end points it can reach it takes the one closest to its goal, never one inside a
spawner, and one within 6" of a spawner only when that saves more than ``POL_AURA_PENALTY`` inches
(P3). The extraction zone and the ruins of ``kernels.apocalypse.terrain`` are difficult terrain: a
move that touches one is at most the highest of 2D6 (3D6 with Move Through Cover, core §5).
"""

from __future__ import annotations

import math

from kernels.apocalypse.columns import (
    EK_FALL_BACK,
    EK_GRAVEYARD,
    EK_MOVE,
    EK_SPAWNER_DEATH,
    G_GRAVEYARD,
    G_TURN,
    HS_CHARGED,
    HS_LOCKED,
    MI_OWNER,
    MI_WARLORD,
    P_AURA_R,
    P_FALLBACK_DICE,
    P_FAST_MOVE,
    P_FREE_UNITS,
    P_GRAVE_BONUS,
    P_GRAVE_END_ONLY,
    P_GRAVE_J,
    P_GRAVE_Z,
    P_GRAVEYARD,
    P_INF_MOVE,
    P_SPAWNER_R,
    P_SPAWNER_S,
    P_SUPER_ANY,
    P_TABLE,
    P_TRANSPORT_MOVE,
    P_TURNS,
    P_ZONE_R,
    PLAN_STAGED,
    POL_AURA_PENALTY,
    POL_AURA_PER_MODEL,
    POL_MARGIN,
    POL_MERGE,
    POL_PLAN,
    POL_STANDOFF,
    POL_SUPER,
    POL_WARLORD_PLAN,
    PR_WL_FATE,
    R_GRAVEYARD_TURN,
    R_SP0,
    R_SPAWNER_DEATHS,
    SRC_GRAVEYARD,
    SS_ALIVE,
    US_ALIVE,
    US_DATASHEET,
    US_ESCORT,
    US_FALLING_BACK,
    US_MOVED,
    US_OWNER,
    US_START,
    US_TYPE,
    US_WAS_CHARGED,
    UT_BIKE,
    UT_JETBIKE,
    UT_JUMP,
    UT_TRANSPORT,
    WL_FLED,
    WL_SPAWNER,
)
from kernels.apocalypse.combat import blast_on_unit
from kernels.apocalypse.geometry import gap, nearest_edge, path_touches_zone, zone_distance
from kernels.apocalypse.hordes import is_alive, new_horde
from kernels.apocalypse.terrain import path_touches_terrain
from kernels.apocalypse.trace import log_event
from kernels.apocalypse.units import (
    disc_within,
    locate_warlords,
    models_alive,
    models_inside,
    move_model,
    refresh_traits,
    settle_unit,
    unit_alive,
)
from kernels.dice import highest_d6, sum_d6
from kernels.jit import njit
from kernels.rng import uniform
from kernels.w40k.columns import G_BLAST_LARGE_MODELS, MR_MOVE_THROUGH_COVER
from kernels.w40k.geometry import INF, norm, ray_circle

HEADINGS = (0.0, 0.5, -0.5, 1.0, -1.0)  # radians off the straight line
SPAWNER_INSIDE_PENALTY = 1e6

# ------------------------------------------------------------------ speeds and goals


@njit
def move_allowance(unit_type, tb):
    """Inches a unit moves in its Movement phase: 12" for Jump Infantry (on the ground, A6) and
    bikes, 6" for the rest (core §5)."""
    if unit_type == UT_JUMP or unit_type == UT_BIKE or unit_type == UT_JETBIKE:
        return tb.prm[P_FAST_MOVE]
    if unit_type == UT_TRANSPORT:  # apocalypse V11: a Dedicated Transport moves up to 12"
        return tb.prm[P_TRANSPORT_MOVE]
    return tb.prm[P_INF_MOVE]


@njit
def may_run(unit_type):
    """Bikes do not run (core §6.10), nor does a Dedicated Transport (apocalypse V11: no Flat Out)."""
    return unit_type != UT_BIKE and unit_type != UT_JETBIKE and unit_type != UT_TRANSPORT


@njit
def turns_to_reach(distance, speed):
    return int(math.ceil(max(0.0, distance) / max(speed, 1e-9) - 1e-9))


@njit
def departure_turn(turns, distance, speed, margin):
    """P3 staged: the last game turn from which the unit still reaches the zone by the last turn,
    less a safety margin of whole turns."""
    return turns - turns_to_reach(distance, speed) - margin


@njit
def any_escort_alive(st, g):
    for u in range(st.ust.shape[1]):
        if st.ust[g, u, US_ALIVE] != 0 and st.ust[g, u, US_ESCORT] != 0:
            return True
    return False


@njit
def standoff_point(st, g, u, tb):
    """Where a unit waits for the escort to spring the Graveyard: outside the zone on its bearing."""
    c = 0.5 * tb.prm[P_TABLE]
    p = st.ust[g, u, US_OWNER]
    dx, dy = st.upos[g, u, 0] - c, st.upos[g, u, 1] - c
    d = norm(dx, dy)
    if d < 1e-9:
        dx, dy, d = 1.0, 0.0, 1.0
    ring = tb.prm[P_ZONE_R] + tb.policy[p, POL_STANDOFF] + st.urad[g, u]
    return c + dx / d * ring, c + dy / d * ring


@njit
def holds_warlord(st, g, u):
    for p in range(st.wl_unit.shape[1]):
        if st.wl_unit[g, p] == u:
            return True
    return False


@njit
def unit_goal(st, g, u, tb):
    """(hold, x, y): where unit u heads this turn under its owner's plan (P3, P10): staged units hold
    until their departure turn; under every plan (rush too) a unit that is not the escort waits
    outside the zone while an escort (policy ``escort``) lives to spring the Graveyard. A unit
    holding a Warlord follows ``warlord_plan`` when it is set (a role of its own)."""
    c = 0.5 * tb.prm[P_TABLE]
    p = st.ust[g, u, US_OWNER]
    turn, last = st.gst[g, G_TURN], int(tb.prm[P_TURNS])
    if zone_distance(st.upos[g, u, 0], st.upos[g, u, 1], tb.prm) <= 0.0:
        return True, c, c  # its centre is on the zone: it stays
    plan = int(tb.policy[p, POL_PLAN])
    if tb.policy[p, POL_WARLORD_PLAN] >= 0 and holds_warlord(st, g, u):
        plan = int(tb.policy[p, POL_WARLORD_PLAN])  # the Warlord's own role: e.g. run in late behind a screen
    if turn >= last:
        return False, c, c
    if plan == PLAN_STAGED:
        speed = move_allowance(st.ust[g, u, US_TYPE], tb)
        d = zone_distance(st.upos[g, u, 0], st.upos[g, u, 1], tb.prm)
        if turn < departure_turn(last, d, speed, int(tb.policy[p, POL_MARGIN])):
            return True, c, c
    waiting = (tb.prm[P_GRAVEYARD] != 0 and st.gst[g, G_GRAVEYARD] == 0 and st.ust[g, u, US_ESCORT] == 0
               and any_escort_alive(st, g))
    if waiting:
        x, y = standoff_point(st, g, u, tb)
        return False, x, y
    return False, c, c


# ------------------------------------------------------------------ travel


@njit
def _exit_table(px, py, dx, dy, r, side):
    """Travel along (dx, dy) before a disc of radius r would leave the table (start on it)."""
    t = INF
    lo, hi = r, side - r
    if dx > 1e-12:
        t = min(t, (hi - px) / dx)
    elif dx < -1e-12:
        t = min(t, (lo - px) / dx)
    if dy > 1e-12:
        t = min(t, (hi - py) / dy)
    elif dy < -1e-12:
        t = min(t, (lo - py) / dy)
    return max(0.0, t)


@njit
def free_travel(st, g, u, px, py, dx, dy, target_h, tb):
    """How far unit u may travel from (px, py) along (dx, dy): on the table, never within 1" of a
    horde (base contact with ``target_h``, a horde it charges)."""
    r = st.urad[g, u]
    t = _exit_table(px, py, dx, dy, r, tb.prm[P_TABLE])
    for h in range(st.hst.shape[1]):
        if not is_alive(st, g, h):
            continue
        keep = 0.0 if h == target_h else 1.0
        t = min(t, ray_circle(px, py, dx, dy, st.hpos[g, h, 0], st.hpos[g, h, 1], r + st.hrad[g, h] + keep))
    return t


@njit
def spawner_penalty(st, g, u, x, y, r, aura_penalty, tb):
    """Score of unit u ending at (x, y): inside a spawner is never taken; within a spawner's 6" aura
    costs ``aura_penalty`` inches (P3) for every model that would stand within it (each takes an
    automatic wound at the start of the zombie Movement phase, §10: one a model, however many
    auras), or once per spawner under ``aura_per_model = 0`` (the old flat cost)."""
    cost, worst = 0.0, 0
    per_model = tb.policy[st.ust[g, u, US_OWNER], POL_AURA_PER_MODEL] != 0
    n = models_alive(st, g, u)
    for s in range(st.spos.shape[1]):
        if st.sst[g, s, SS_ALIVE] == 0:
            continue
        d = gap(x, y, r, st.spos[g, s, 0], st.spos[g, s, 1], tb.prm[P_SPAWNER_R])
        if norm(x - st.spos[g, s, 0], y - st.spos[g, s, 1]) < r + tb.prm[P_SPAWNER_R]:
            cost += SPAWNER_INSIDE_PENALTY
        elif d <= tb.prm[P_AURA_R]:
            if per_model:
                worst = max(worst, disc_within(n, x, y, r, st.spos[g, s, 0], st.spos[g, s, 1], tb.prm[P_SPAWNER_R],
                                               tb.prm[P_AURA_R]))
            else:
                cost += aura_penalty
    return cost + aura_penalty * worst


@njit
def plan_move(st, g, u, gx, gy, budget, target_h, tb):
    """(x, y) of the best end point of a move of up to ``budget`` inches towards (gx, gy)."""
    px, py = st.upos[g, u, 0], st.upos[g, u, 1]
    r = st.urad[g, u]
    penalty = tb.policy[st.ust[g, u, US_OWNER], POL_AURA_PENALTY]
    dist = norm(gx - px, gy - py)
    best_x, best_y = px, py
    best = dist + spawner_penalty(st, g, u, px, py, r, penalty, tb)
    if dist < 1e-9 or budget <= 0.0:
        return best_x, best_y
    base = math.atan2(gy - py, gx - px)
    for turn in HEADINGS:
        dx, dy = math.cos(base + turn), math.sin(base + turn)
        reach = min(min(budget, dist), free_travel(st, g, u, px, py, dx, dy, target_h, tb))
        for frac in (1.0, 0.5):
            t = reach * frac
            nx, ny = px + t * dx, py + t * dy
            score = norm(gx - nx, gy - ny) + spawner_penalty(st, g, u, nx, ny, r, penalty, tb)
            if score < best - 1e-9:
                best_x, best_y, best = nx, ny, score
    return best_x, best_y


@njit
def difficult_budget(rng, g, st, u, tb):
    """The zone and the ruins are difficult terrain (§3.1, core §5): the highest of 2D6 (3D6 with
    Move Through Cover)."""
    mtc = False
    for m in range(st.wounds.shape[2]):
        if st.wounds[g, u, m] > 0 and (st.mflags[g, u, m] & MR_MOVE_THROUGH_COVER) != 0:
            mtc = True
    return float(highest_d6(rng, g, 3 if mtc else 2))


@njit
def move_unit(rng, g, st, u, gx, gy, budget, target_h, difficult, tb, phase):
    """Move unit u up to ``budget`` inches towards (gx, gy) (difficult terrain tested when
    ``difficult`` and the path touches the zone or a ruin), then what ending the move does. Returns the
    distance moved."""
    px, py = st.upos[g, u, 0], st.upos[g, u, 1]
    x, y = plan_move(st, g, u, gx, gy, budget, target_h, tb)
    r = st.urad[g, u]
    if difficult and (path_touches_zone(px, py, x, y, r, tb.prm) or path_touches_terrain(st, g, px, py, x, y, r)):
        slow = difficult_budget(rng, g, st, u, tb)
        if slow < norm(x - px, y - py):
            x, y = plan_move(st, g, u, gx, gy, min(budget, slow), target_h, tb)
    return place_unit(rng, g, st, u, px, py, x, y, tb, phase)


@njit
def wander(rng, g, st, u, budget, difficult, tb, phase):
    """The random baseline's move (kernels.apocalypse.choices): straight on a heading drawn round the
    compass, a distance drawn in 0..``budget``, as far as the way allows (on the table, 1" from every
    horde: ``free_travel``); difficult terrain slows it as any move (``difficult``). It may stop in a
    spawner, as the rules allow (§10). Returns the distance moved."""
    px, py, r = st.upos[g, u, 0], st.upos[g, u, 1], st.urad[g, u]
    angle = 2.0 * math.pi * uniform(rng, g)
    dx, dy = math.cos(angle), math.sin(angle)
    t = min(budget * uniform(rng, g), free_travel(st, g, u, px, py, dx, dy, -1, tb))
    if difficult and (path_touches_zone(px, py, px + t * dx, py + t * dy, r, tb.prm)
                      or path_touches_terrain(st, g, px, py, px + t * dx, py + t * dy, r)):
        t = min(t, difficult_budget(rng, g, st, u, tb))
    return place_unit(rng, g, st, u, px, py, px + t * dx, py + t * dy, tb, phase)


@njit
def place_unit(rng, g, st, u, px, py, x, y, tb, phase):
    """Unit u ends a move from (px, py) at (x, y): it may spring the Graveyard or stop in a
    spawner. Returns the distance moved."""
    st.upos[g, u, 0], st.upos[g, u, 1] = x, y
    moved = norm(x - px, y - py)
    if moved > 1e-9:
        log_event(st, g, phase, EK_MOVE, u, 0, 0, x, y)
    check_graveyard(rng, g, st, u, px, py, tb, phase)
    spawner_deaths(rng, g, st, u, tb, phase)
    return moved


# ------------------------------------------------------------------ the Graveyard (§6, A27)


@njit
def check_graveyard(rng, g, st, u, px, py, tb, phase):
    """The first unit to enter the zone is locked in combat at once with 20 + N Zombies and 2
    Juggernauts in one new horde, and counts as having been charged (§6 Graveyard, A27)."""
    if tb.prm[P_GRAVEYARD] == 0 or st.gst[g, G_GRAVEYARD] != 0 or not unit_alive(st, g, u):
        return
    x, y, r = st.upos[g, u, 0], st.upos[g, u, 1], st.urad[g, u]
    if tb.prm[P_GRAVE_END_ONLY] != 0:
        entered = zone_distance(x, y, tb.prm) <= r
    else:
        entered = path_touches_zone(px, py, x, y, r, tb.prm)
    if not entered:
        return
    st.gst[g, G_GRAVEYARD] = st.gst[g, G_TURN]
    st.res[g, R_GRAVEYARD_TURN] = st.gst[g, G_TURN]
    zombies = int(tb.prm[P_GRAVE_Z] + tb.prm[P_GRAVE_BONUS])
    juggs = int(tb.prm[P_GRAVE_J])
    st.res[g, R_SP0 + SRC_GRAVEYARD] += zombies + juggs
    h = new_horde(st, g, x, y, zombies, juggs, tb)
    c = 0.5 * tb.prm[P_TABLE]
    dx, dy = c - x, c - y
    d = norm(dx, dy)
    if d < 1e-9:
        dx, dy, d = 1.0, 0.0, 1.0
    st.hpos[g, h, 0] = x + dx / d * (r + st.hrad[g, h])
    st.hpos[g, h, 1] = y + dy / d * (r + st.hrad[g, h])
    st.lock[g, u, h] = 1
    st.hst[g, h, HS_LOCKED] = 1
    st.hst[g, h, HS_CHARGED] = 1
    st.ust[g, u, US_WAS_CHARGED] = 1
    log_event(st, g, phase, EK_GRAVEYARD, u, h, zombies + juggs, st.hpos[g, h, 0], st.hpos[g, h, 1])


# ------------------------------------------------------------------ spawners (§10)


@njit
def spawner_deaths(rng, g, st, u, tb, phase):
    """Models that stop inside a spawner are removed with no saves of any kind, each after a large
    blast at S5 AP- centred on it hits its unit (§10); they never become Brutes."""
    if not unit_alive(st, g, u):
        return
    for s in range(st.spos.shape[1]):
        if st.sst[g, s, SS_ALIVE] == 0:
            continue
        inside = models_inside(st, g, u, st.spos[g, s, 0], st.spos[g, s, 1], tb.prm[P_SPAWNER_R])
        for _ in range(inside):
            _spawner_kill(rng, g, st, u, tb)
        if inside > 0:
            st.res[g, R_SPAWNER_DEATHS] += inside
            log_event(st, g, phase, EK_SPAWNER_DEATH, u, s, inside, st.upos[g, u, 0], st.upos[g, u, 1])
    settle_unit(st, g, u, tb, phase)
    locate_warlords(st, g)


@njit
def _spawner_kill(rng, g, st, u, tb):
    for m in range(st.wounds.shape[2]):
        if st.wounds[g, u, m] > 0:
            if st.minfo[g, u, m, MI_WARLORD] != 0:
                st.pres[g, st.minfo[g, u, m, MI_OWNER], PR_WL_FATE] = WL_SPAWNER
            st.wounds[g, u, m] = 0
            _spawner_blast(rng, g, st, u, tb)
            return


@njit
def _spawner_blast(rng, g, st, u, tb):
    """The large blast (S5, AP -, Barrage, no scatter) on the unit the removed model stood in."""
    hits = min(models_alive(st, g, u), tb.geom[G_BLAST_LARGE_MODELS])
    blast_on_unit(rng, g, st, u, hits, int(tb.prm[P_SPAWNER_S]), tb)


# ------------------------------------------------------------------ falling back (§3.4, core §9)


@njit
def models_off_table(n_models, radius, gap_to_edge, roll):
    """Models of a falling-back unit that would leave the table (core §9.3): those whose place in
    the unit's disc is less than ``roll`` inches from the edge - in proportion to how far the move
    takes the disc past the edge (all of them when it takes it wholly past)."""
    over = roll - gap_to_edge
    if over <= 0.0 or n_models <= 0:
        return 0
    if radius <= 0.0 or over >= 2.0 * radius:
        return n_models
    return min(n_models, int(-(-n_models * over // (2.0 * radius))))


@njit
def fall_back(rng, g, st, u, tb, phase):
    """2D6" straight towards the table edge closest to the unit (§3.4); the models that would go
    past it leave the table as casualties (troopers first: the lowest slots), the rest stop at it."""
    px, py = st.upos[g, u, 0], st.upos[g, u, 1]
    edge, dist = nearest_edge(px, py, tb.prm)
    roll = sum_d6(rng, g, int(tb.prm[P_FALLBACK_DICE]))
    st.ust[g, u, US_FALLING_BACK] = 1
    for h in range(st.lock.shape[2]):
        st.lock[g, u, h] = 0
    log_event(st, g, phase, EK_FALL_BACK, u, roll, edge, px, py)
    gone = models_off_table(models_alive(st, g, u), st.urad[g, u], dist - st.urad[g, u], float(roll))
    for m in range(st.wounds.shape[2]):
        if gone <= 0:
            break
        if st.wounds[g, u, m] > 0:
            if st.minfo[g, u, m, MI_WARLORD] != 0:
                st.pres[g, st.minfo[g, u, m, MI_OWNER], PR_WL_FATE] = WL_FLED
            st.wounds[g, u, m] = 0
            gone -= 1
    settle_unit(st, g, u, tb, phase)
    locate_warlords(st, g)
    if not unit_alive(st, g, u):
        return
    step = min(float(roll), max(0.0, dist - st.urad[g, u]))
    dx, dy = 0.0, 0.0
    if edge == 0:
        dy = -1.0
    elif edge == 1:
        dx = 1.0
    elif edge == 2:
        dy = 1.0
    else:
        dx = -1.0
    place_unit(rng, g, st, u, px, py, px + dx * step, py + dy * step, tb, phase)


# ------------------------------------------------------------------ super squads (§7, P9)


@njit
def _host_unit(st, g):
    """The Warlords' unit with the most models (the super squad forms in it), -1 if none."""
    best, best_n = -1, 0
    for p in range(st.wl_unit.shape[1]):
        u = st.wl_unit[g, p]
        if u >= 0 and st.ust[g, u, US_FALLING_BACK] == 0:
            n = models_alive(st, g, u)
            if n > best_n:
                best, best_n = u, n
    return best


@njit
def _is_locked(st, g, u):
    for h in range(st.lock.shape[2]):
        if st.lock[g, u, h] != 0:
            return True
    return False


@njit
def form_super_squad(st, g, tb, movement_phase):
    """P9: a Warlord within reach of the Warlords' biggest unit joins it: at the start of the
    Movement phase a Warlord that has not moved reaches his move plus 2"; at any other moment
    (A32's 'any' reading, ``P_SUPER_ANY``; the default joins in the Movement phase only) a
    Warlord within 2" (coherency) joins where he stands."""
    if not movement_phase and tb.prm[P_SUPER_ANY] == 0:
        return
    host = _host_unit(st, g)
    if host < 0 or _is_locked(st, g, host):
        return
    joined = False
    for p in range(st.wl_unit.shape[1]):
        u = st.wl_unit[g, p]
        if u < 0 or u == host or tb.policy[p, POL_SUPER] == 0 or _is_locked(st, g, u):
            continue
        if st.ust[g, u, US_FALLING_BACK] != 0 or (movement_phase and st.ust[g, u, US_MOVED] != 0):
            continue
        reach = move_allowance(st.ust[g, u, US_TYPE], tb) + 2.0 if movement_phase else 2.0
        if gap(st.upos[g, u, 0], st.upos[g, u, 1], st.urad[g, u], st.upos[g, host, 0], st.upos[g, host, 1],
               st.urad[g, host]) <= reach:
            if move_model(st, g, u, st.wl_slot[g, p], host, tb) >= 0:
                joined = True
                locate_warlords(st, g)
    if joined:
        refresh_traits(st, g, tb)


# ------------------------------------------------------------------ regrouping models (§2, A3)


@njit
def _free(st, g, u):
    return unit_alive(st, g, u) and st.ust[g, u, US_FALLING_BACK] == 0 and not _is_locked(st, g, u)


@njit
def _slots_left(st, g, u):
    last = -1
    for m in range(st.wounds.shape[2]):
        if st.wounds[g, u, m] > 0:
            last = m
    return st.wounds.shape[2] - 1 - last


@njit
def merge_units(st, g, tb):
    """A3: at the start of the Movement phase two depleted units of one player and datasheet
    within 2" of each other (coherency) merge into the first, when their models fit its slots
    and the owner's policy says so."""
    if tb.prm[P_FREE_UNITS] == 0:
        return
    n = st.ust.shape[1]
    for u in range(n):
        if not _free(st, g, u) or models_alive(st, g, u) >= st.ust[g, u, US_START]:
            continue
        p = st.ust[g, u, US_OWNER]
        if tb.policy[p, POL_MERGE] == 0 or warlord_here(st, g, u):
            continue
        for v in range(u + 1, n):
            if not _free(st, g, v) or st.ust[g, v, US_OWNER] != p or warlord_here(st, g, v):
                continue
            if st.ust[g, v, US_DATASHEET] != st.ust[g, u, US_DATASHEET]:
                continue
            if models_alive(st, g, v) >= st.ust[g, v, US_START] or models_alive(st, g, v) > _slots_left(st, g, u):
                continue
            if gap(st.upos[g, u, 0], st.upos[g, u, 1], st.urad[g, u], st.upos[g, v, 0], st.upos[g, v, 1],
                   st.urad[g, v]) > 2.0:
                continue
            st.ust[g, u, US_START] += st.ust[g, v, US_START]
            for m in range(st.wounds.shape[2]):
                if st.wounds[g, v, m] > 0:
                    move_model(st, g, v, m, u, tb)


@njit
def warlord_here(st, g, u):
    for p in range(st.wl_unit.shape[1]):
        if st.wl_unit[g, p] == u:
            return True
    return False
