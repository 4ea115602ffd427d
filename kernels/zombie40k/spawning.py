"""Setup and respawning: squads (zombie40k §3.3, §5.1), hordes and the Boss (§3.4, §6.1, §7).

Placement needs a legal spot (on the table, off the Escape Vehicle, more than 1" from every
unit). Deep Strikes use the Drop Pod rule (core-7th-edition §10.2): when the scatter would
land illegally the distance is cut along the same direction to the longest legal one; if even
the aim point is illegal, the horde lands at the nearest legal spot around it.
"""

from __future__ import annotations

import math

from kernels.dice import roll_expr, scatter_arrow, scatter_die, sum_d6
from kernels.jit import njit
from kernels.rng import d6, uniform
from kernels.w40k.columns import (
    FNP,
    LD,
    MR_COMBAT_DRUGS,
    MR_FEARLESS,
    MR_FURIOUS_CHARGE,
    MR_POWER_FROM_PAIN,
    MR_RAGE,
    N_STATS,
    WS,
    A,
    I,
    S,
    T,
    W,
)
from kernels.w40k.geometry import norm
from kernels.zombie40k.columns import (
    EK_DEPLOY,
    EK_RESPAWN,
    EK_ZOMBIE_ARRIVE,
    G_RANGED0,
    P_BOSS_RESPAWNS,
    P_COOP,
    P_CSCATTER_N,
    P_DEPLOY_DEPTH,
    P_DEPLOY_SEP,
    P_DK,
    P_DK_FAILED_ARRIVALS,
    P_DK_GLOBAL,
    P_DK_MAX_FNP,
    P_DK_MAX_T,
    P_DK_START_FNP,
    P_DK_START_T,
    P_EV_EDGE_ARRIVALS,
    P_RESPAWN_LINE,
    P_RESPAWN_MARGIN,
    P_RESULT6,
    P_RESULT6_GAP,
    P_TABLE_L,
    P_TABLE_W,
    P_ZOMBIE_BAND,
    R_TURNS,
    US_ARRIVED_EDGE,
    US_DK_LEVEL,
    US_DRUGS,
    US_ON_TABLE,
    US_OUT,
    US_REACHED_ZONE,
    US_START_MODELS,
)
from kernels.zombie40k.geometry import edge_distance, ev_distance, ev_nearest_point, ev_rect, is_legal_spot, unit_radius
from kernels.zombie40k.state import ID_AUTOGUN, X_BOSS, X_ZOMBIE
from kernels.zombie40k.terrain import place_terrain
from kernels.zombie40k.units import (
    alive,
    boss_unit,
    dice_for,
    in_combat,
    locked_with_zombies,
    log_event,
    n_players,
    note_ev_zone,
    on_table,
    refresh_radius,
    touch,
)

N_TRIES = 40


# ------------------------------------------------------------------ models of a unit


@njit
def _clear_unit(st, g, u):
    for m in range(st.wounds.shape[2]):
        st.wounds[g, u, m] = 0
        st.mflags[g, u, m] = 0
        st.mstatus[g, u, m] = 0
        st.mpow[g, u, m] = 0
        for k in range(st.gear.shape[3]):
            st.gear[g, u, m, k] = -1
    touch(st, g, u)


@njit
def build_squad(st, g, p, tb):
    """The squad exactly as built at the start (A16): models, wargear and USR; no power-ups."""
    _clear_unit(st, g, p)
    for m in range(tb.squad_wounds.shape[1]):
        st.wounds[g, p, m] = tb.squad_wounds[p, m]
        build_model(st, g, p, m, tb)
    touch(st, g, p)
    st.ustate[g, p, US_START_MODELS] = alive(st, g, p)


@njit
def build_model(st, g, p, m, tb):
    """Model m of squad p as built (profile, rules, wargear; its Combat Drugs and Power from
    Pain), with no power-ups; its Wounds are left as they are."""
    st.mflags[g, p, m] = tb.squad_flags[p, m]
    st.mstatus[g, p, m] = 0
    st.mpow[g, p, m] = 0
    for k in range(N_STATS):
        st.stats[g, p, m, k] = tb.squad_stats[p, m, k]
    for k in range(st.gear.shape[3]):
        st.gear[g, p, m, k] = tb.squad_gear[p, m, k]
    _combat_drugs(st, g, p, m, st.ustate[g, p, US_DRUGS])
    _pain_model(st, g, p, m, st.res[g, R_TURNS])
    touch(st, g, p)


DRUG_STATS = (A, S, I, T, WS, LD)  # Combat Drugs results 1-6 (core §12)


@njit
def _combat_drugs(st, g, p, m, result):
    """Combat Drugs result 1-6 (0 = none): +1 A, S, I, T, WS or Ld if the model has the rule."""
    if result > 0 and st.mflags[g, p, m] & MR_COMBAT_DRUGS:
        col = DRUG_STATS[result - 1]
        st.stats[g, p, m, col] = min(10, st.stats[g, p, m, col] + 1)


@njit
def roll_combat_drugs(st, g, p, tb, rng):
    """Combat Drugs (core §12): before the game a squad with them rolls a D6 (the squad keeps the
    result when it respawns, A16)."""
    for m in range(st.wounds.shape[2]):
        if st.wounds[g, p, m] > 0 and st.mflags[g, p, m] & MR_COMBAT_DRUGS:
            st.ustate[g, p, US_DRUGS] = d6(rng, g)
            build_squad(st, g, p, tb)
            return


@njit
def power_from_pain(st, g, u, turn):
    """Power from Pain (core §12, the turn schedule): from game turn 2 Feel No Pain (6+), 3 (5+),
    4 Furious Charge, 5 Fearless, 6 Rage, for the models with the rule."""
    for m in range(st.wounds.shape[2]):
        _pain_model(st, g, u, m, turn)


@njit
def _pain_model(st, g, u, m, turn):
    if st.mflags[g, u, m] & MR_POWER_FROM_PAIN:
        if turn >= 2:
            st.stats[g, u, m, FNP] = min(st.stats[g, u, m, FNP], 6 if turn == 2 else 5)
        st.mflags[g, u, m] |= _pain_rules(turn)
        touch(st, g, u)


@njit
def _pain_rules(turn):
    rules = MR_FURIOUS_CHARGE if turn >= 4 else 0
    rules |= MR_FEARLESS if turn >= 5 else 0
    return rules | (MR_RAGE if turn >= 6 else 0)


@njit
def _copy_extra(st, g, u, m, tb, row):
    st.wounds[g, u, m] = tb.extra_stats[row, W]
    st.mflags[g, u, m] = tb.extra_flags[row]
    for k in range(N_STATS):
        st.stats[g, u, m, k] = tb.extra_stats[row, k]
    for k in range(st.gear.shape[3]):
        st.gear[g, u, m, k] = tb.extra_gear[row, k]
    touch(st, g, u)


@njit
def death_korps_profile(level, prm):
    """(T, FNP) of a Death Korps horde after ``level`` respawns (zombie40k §10.4)."""
    t = min(prm[P_DK_MAX_T], prm[P_DK_START_T] + level)
    fnp = max(prm[P_DK_MAX_FNP], prm[P_DK_START_FNP] - level)
    return int(t), int(fnp)


@njit
def build_horde(st, g, h, tb):
    """A full horde: ``horde_size`` Zombies, the middle one with an Autogun (zombie40k §3.4)."""
    _clear_unit(st, g, h)
    size = tb.horde_size[0]
    for m in range(size):
        _copy_extra(st, g, h, m, tb, X_ZOMBIE)
    st.gear[g, h, size // 2, G_RANGED0] = tb.ids[ID_AUTOGUN]
    if tb.prm[P_DK] != 0:
        t, fnp = death_korps_profile(st.ustate[g, h, US_DK_LEVEL], tb.prm)
        for m in range(size):
            st.stats[g, h, m, T] = t
            st.stats[g, h, m, FNP] = fnp
        touch(st, g, h)
    st.ustate[g, h, US_START_MODELS] = size


@njit
def build_boss(st, g, tb):
    b = boss_unit(st)
    _clear_unit(st, g, b)
    _copy_extra(st, g, b, 0, tb, X_BOSS)
    st.ustate[g, b, US_START_MODELS] = 1


# ------------------------------------------------------------------------ placement


@njit
def _place(st, g, u, x, y, tb):
    st.pos[g, u, 0], st.pos[g, u, 1] = x, y
    st.ustate[g, u, US_ON_TABLE] = 1
    refresh_radius(st, g, u, tb)


@njit
def _start_edge_spot(st, g, p, tb, rng, separation):
    """A spot within the deployment depth of the player edge, ``separation`` inches (edge to
    edge) from every squad on the table, more than 1" from every unit (zombie40k §3.3)."""
    prm = tb.prm
    r = st.radius[g, p]
    y = max(r, prm[P_DEPLOY_DEPTH] - r)
    for _ in range(N_TRIES):
        x = r + uniform(rng, g) * (prm[P_TABLE_W] - 2 * r)
        if not is_legal_spot(st.pos, st.radius[g], st.ustate, g, p, x, y, prm):
            continue
        ok = True
        for q in range(n_players(tb)):
            if q != p and on_table(st, g, q):
                ok = ok and edge_distance(x, y, r, st.pos[g, q, 0], st.pos[g, q, 1], st.radius[g, q]) >= separation
        if ok:
            return x, y, True
    return 0.0, y, False


@njit
def deploy_at_start_edge(st, g, p, tb, rng, slot):
    """Deploy squad p at the player edge (zombie40k §3.3): ``deploy_separation_in`` from the
    others when the table allows it; else, at setup, in the ``slot``-th of P equal sections of
    the edge (many squads on a narrow table), or as far apart as random tries find."""
    st.radius[g, p] = unit_radius(alive(st, g, p), tb.prm)
    x, y, ok = _start_edge_spot(st, g, p, tb, rng, tb.prm[P_DEPLOY_SEP])
    if ok:
        _place(st, g, p, x, y, tb)
        return
    if slot >= 0:
        x = (slot + 0.5) * tb.prm[P_TABLE_W] / n_players(tb)
        if is_legal_spot(st.pos, st.radius[g], st.ustate, g, p, x, y, tb.prm):
            _place(st, g, p, x, y, tb)
            return
    for separation in (6.0, 1.0, 0.0):
        x, y, ok = _start_edge_spot(st, g, p, tb, rng, separation)
        if ok:
            _place(st, g, p, x, y, tb)
            return
    _place(st, g, p, st.radius[g, p] + uniform(rng, g) * (tb.prm[P_TABLE_W] - 2 * st.radius[g, p]),
           max(st.radius[g, p], tb.prm[P_DEPLOY_DEPTH] - st.radius[g, p]), tb)


@njit
def _nearest_zombie_gap(st, g, x, y, r, tb):
    best = 1e18
    for v in range(n_players(tb), st.pos.shape[1]):
        if on_table(st, g, v):
            best = min(best, edge_distance(x, y, r, st.pos[g, v, 0], st.pos[g, v, 1], st.radius[g, v]))
    return best


@njit
def respawn_squad(st, g, p, tb, rng):
    """zombie40k §5.1: back at full strength, at least ``respawn_margin`` further from the EV
    than the squad furthest from it, at the lateral position farthest from any zombie."""
    build_squad(st, g, p, tb)
    st.radius[g, p] = unit_radius(alive(st, g, p), tb.prm)
    prm = tb.prm
    furthest = -1.0
    for q in range(n_players(tb)):
        if q != p and on_table(st, g, q):
            furthest = max(furthest, ev_distance(st.pos[g, q, 0], st.pos[g, q, 1], st.radius[g, q], prm))
    reach = furthest + prm[P_RESPAWN_MARGIN]  # the band: this far from the EV hull to the nearest model
    if furthest < 0.0 or not _respawn_on_band(st, g, p, reach, tb):
        deploy_at_start_edge(st, g, p, tb, rng, -1)  # A15: no legal spot on the band
    log_event(st, g, EK_RESPAWN, p, -1, st.pos[g, p, 0], st.pos[g, p, 1], 0)


@njit
def _respawn_on_band(st, g, p, reach, tb):
    """13 points across the table on the band, the one farthest from any zombie (§5.1). The band
    is the curve of points whose nearest model is ``reach`` from the EV hull (docs/readings.md;
    ``respawn_band = "line"``: the straight line at that distance in front of the EV)."""
    r, prm = st.radius[g, p], tb.prm
    best_x, best_y, best_gap = -1.0, -1.0, -1.0
    n = 13
    for k in range(n):
        x = r + (prm[P_TABLE_W] - 2 * r) * k / (n - 1)
        y = _band_y(x, r, reach, prm)
        if y < r or not is_legal_spot(st.pos, st.radius[g], st.ustate, g, p, x, y, prm):
            continue
        gap = _nearest_zombie_gap(st, g, x, y, r, tb)
        if gap > best_gap:
            best_x, best_y, best_gap = x, y, gap
    if best_gap < 0.0:
        return False
    _place(st, g, p, best_x, best_y, tb)
    return True


@njit
def _band_y(x, r, reach, prm):
    """The centre's y at lateral position x on the band: ``reach`` + r from the EV hull, in front
    of it or around its corner; beside the EV, where every point is far enough, as near the EV
    edge as the table allows."""
    x0, x1, y0, _ = ev_rect(prm)
    line = y0 - reach - r
    if prm[P_RESPAWN_LINE] != 0 or x0 <= x <= x1:
        return line
    side = x0 - x if x < x0 else x - x1
    if side >= reach + r:
        return prm[P_TABLE_L] - r
    return y0 - math.sqrt((reach + r) ** 2 - side * side)


@njit
def _place_in_band(st, g, h, tb, rng):
    """A horde at a uniformly random legal point between the zombie deployment bands (A10)."""
    prm = tb.prm
    r = st.radius[g, h]
    band = prm[P_ZOMBIE_BAND]
    for _ in range(N_TRIES * 5):
        x = r + uniform(rng, g) * (prm[P_TABLE_W] - 2 * r)
        y = band + uniform(rng, g) * (prm[P_TABLE_L] - 2 * band)
        if is_legal_spot(st.pos, st.radius[g], st.ustate, g, h, x, y, prm):
            _place(st, g, h, x, y, tb)
            return True
    return False


@njit
def setup_game(st, g, tb, rng):
    """zombie40k §3: the terrain (if any), squads at the player edge (in roll-off order: the order is a uniform
    random permutation), hordes at random, the Boss beside the Escape Vehicle."""
    n_p = n_players(tb)
    place_terrain(st, g, tb, rng)
    for p in range(n_p):
        build_squad(st, g, p, tb)
        dice_for(st, g, rng, p, 0)  # each unit's set-up its own dice (units.dice_for)
        roll_combat_drugs(st, g, p, tb, rng)
    dice_for(st, g, rng, -1, 1)
    rolloff_order(st, n_p, rng, g)
    order = st.w_turn
    for k in range(n_p):
        dice_for(st, g, rng, order[k], 1)
        deploy_at_start_edge(st, g, order[k], tb, rng, k)
        log_event(st, g, EK_DEPLOY, order[k], -1, st.pos[g, order[k], 0], st.pos[g, order[k], 1], 0)
    for h in range(n_p, boss_unit(st)):
        build_horde(st, g, h, tb)
        st.radius[g, h] = unit_radius(alive(st, g, h), tb.prm)
        dice_for(st, g, rng, h, 0)
        _place_in_band(st, g, h, tb, rng)
        log_event(st, g, EK_DEPLOY, h, -1, st.pos[g, h, 0], st.pos[g, h, 1], 0)
    _place_boss(st, g, tb)


@njit
def _place_boss(st, g, tb):
    """The Boss within 2" of the EV hull, on its table side (zombie40k §3.4)."""
    b = boss_unit(st)
    build_boss(st, g, tb)
    st.radius[g, b] = unit_radius(1, tb.prm)
    x0, x1, y0, y1 = ev_rect(tb.prm)
    _place(st, g, b, 0.5 * (x0 + x1), y0 - 1.0 - st.radius[g, b], tb)
    log_event(st, g, EK_DEPLOY, b, -1, st.pos[g, b, 0], st.pos[g, b, 1], 0)


@njit
def rolloff_order(st, n, rng, g):
    """A roll-off order into ``st.w_turn[:n]``: D6 each, ties re-rolled among the tied
    (core-7th-edition §1) - as a permutation, by repeated roll-offs for each place."""
    order, left = st.w_turn, st.w_left
    for p in range(n):
        left[p] = True
    for k in range(n):
        order[k] = _rolloff_winner(left[:n], st.w_contenders[:n], st.w_rolls[:n], rng, g)
        left[order[k]] = False


@njit
def _rolloff_winner(left, contenders, rolls, rng, g):
    """Roll-off among the players still in ``left``: highest D6 wins, ties roll again."""
    for p in range(left.shape[0]):
        contenders[p] = left[p]
    while True:
        best, count, winner = 0, 0, -1
        for p in range(contenders.shape[0]):
            rolls[p] = 0
            if contenders[p]:
                rolls[p] = sum_d6(rng, g, 1)
                if rolls[p] > best:
                    best, count, winner = rolls[p], 1, p
                elif rolls[p] == best:
                    count += 1
        if count == 1:
            return winner
        for p in range(contenders.shape[0]):
            contenders[p] = contenders[p] and rolls[p] == best


# --------------------------------------------------------------- zombie respawn table


@njit
def _nearest_free_squad_to(st, g, tb, px, py, dx, dy):
    """Squad nearest to an edge line (through (px, py), along (dx, dy)) that is not locked with
    zombies; if every squad is, the nearest squad (zombie40k §6.5)."""
    best, best_d, best_locked = -1, 1e18, True
    for p in range(n_players(tb)):
        if not on_table(st, g, p):
            continue
        locked = locked_with_zombies(st, g, p, tb)
        d = abs((st.pos[g, p, 0] - px) * dy - (st.pos[g, p, 1] - py) * dx)
        if (best_locked and not locked) or (locked == best_locked and d < best_d):
            best, best_d, best_locked = p, d, locked
    return best


@njit
def arrive_from_edge(st, g, h, edge, tb):
    """Place horde h touching ``edge`` (0 player edge, 1 left, 2 right, 3 EV edge) at the point
    closest to the nearest squad not locked with zombies (zombie40k §6.5, A23, A24)."""
    prm = tb.prm
    r = st.radius[g, h]
    w, ln = prm[P_TABLE_W], prm[P_TABLE_L]
    if edge == 0:
        px, py, dx, dy = 0.0, r, 1.0, 0.0
    elif edge == 1:
        px, py, dx, dy = r, 0.0, 0.0, 1.0
    elif edge == 2:
        px, py, dx, dy = w - r, 0.0, 0.0, 1.0
    else:
        px, py, dx, dy = 0.0, ln - r, 1.0, 0.0
    p = _nearest_free_squad_to(st, g, tb, px, py, dx, dy)
    along = 0.5 * (w if dx > 0 else ln) if p < 0 else (st.pos[g, p, 0] if dx > 0 else st.pos[g, p, 1])
    return _slide_along_edge(st, g, h, px, py, dx, dy, along, tb)


@njit
def _slide_along_edge(st, g, h, px, py, dx, dy, along, tb):
    length = tb.prm[P_TABLE_W] if dx > 0 else tb.prm[P_TABLE_L]
    for k in range(2 * int(length) + 2):
        offset = (k + 1) // 2 * (1.0 if k % 2 == 0 else -1.0)
        s = along + offset
        x, y = px + dx * s, py + dy * s
        if is_legal_spot(st.pos, st.radius[g], st.ustate, g, h, x, y, tb.prm):
            _place(st, g, h, x, y, tb)
            return True
    return False


@njit
def land_with_guidance(st, g, h, ax, ay, angle, distance, tb):
    """Drop Pod inertial guidance (core-7th-edition §10.2): the longest legal scatter up to
    ``distance`` along ``angle``; if none, the nearest legal spot around the aim point."""
    steps = int(distance * 4)
    for k in range(steps, -1, -1):
        d = k * 0.25
        x, y = ax + d * math.cos(angle), ay + d * math.sin(angle)
        if is_legal_spot(st.pos, st.radius[g], st.ustate, g, h, x, y, tb.prm):
            _place(st, g, h, x, y, tb)
            return True
    for ring in range(1, 73):
        for k in range(16):
            a = angle + k * math.pi / 8
            x, y = ax + 0.5 * ring * math.cos(a), ay + 0.5 * ring * math.sin(a)
            if is_legal_spot(st.pos, st.radius[g], st.ustate, g, h, x, y, tb.prm):
                _place(st, g, h, x, y, tb)
                return True
    return False


@njit
def _leader_squad(st, g, tb, skip):
    """The squad closest to the Escape Vehicle (not ``skip``); -1 if none is on the table."""
    best, best_d = -1, 1e18
    for p in range(n_players(tb)):
        if p != skip and on_table(st, g, p):
            d = ev_distance(st.pos[g, p, 0], st.pos[g, p, 1], st.radius[g, p], tb.prm)
            if d < best_d:
                best, best_d = p, d
    return best


@njit
def furthest_squad(st, g, tb):
    best, best_d = -1, -1.0
    for p in range(n_players(tb)):
        if on_table(st, g, p):
            d = ev_distance(st.pos[g, p, 0], st.pos[g, p, 1], st.radius[g, p], tb.prm)
            if d > best_d:
                best, best_d = p, d
    return best


@njit
def _aim_in_front(st, g, h, p, tb):
    """The point ``result6_gap`` inches in front of squad p, on its line to the EV (A26)."""
    ex, ey = ev_nearest_point(st.pos[g, p, 0], st.pos[g, p, 1], tb.prm)
    dx, dy = ex - st.pos[g, p, 0], ey - st.pos[g, p, 1]
    length = max(1e-9, norm(dx, dy))
    reach = st.radius[g, p] + st.radius[g, h] + tb.prm[P_RESULT6_GAP]
    return st.pos[g, p, 0] + dx / length * reach, st.pos[g, p, 1] + dy / length * reach


@njit
def _result6_aim(st, g, h, tb, rng):
    """Where the furthest player (an adversary of the leader) aims result 6 (A26). Coop Mode fixes
    it: in front of the squad closest to the EV, whatever ``result6_policy`` says (zombie40k §10.1)."""
    policy = int(tb.prm[P_RESULT6]) if tb.prm[P_COOP] == 0 else 0
    chooser = furthest_squad(st, g, tb)
    leader = _leader_squad(st, g, tb, -1)
    if leader == chooser and policy == 0 and tb.prm[P_COOP] == 0:
        leader = _leader_squad(st, g, tb, chooser)
    if policy == 1 or leader < 0:
        return uniform(rng, g) * tb.prm[P_TABLE_W], uniform(rng, g) * tb.prm[P_TABLE_L]
    if policy == 2:
        x0, x1, y0, y1 = ev_rect(tb.prm)
        return 0.5 * (x0 + x1), y0 - st.radius[g, h] - 1.5
    return _aim_in_front(st, g, h, leader, tb)


@njit
def _zone_reached(st, g, tb):
    """Has any squad come within 18" of the EV this game (zombie40k §10.1 "once any squad has
    come within 18"")? Squads there now count too."""
    reached = False
    for p in range(n_players(tb)):
        note_ev_zone(st, g, p, tb)
        reached = reached or st.ustate[g, p, US_REACHED_ZONE] != 0
    return reached


@njit
def respawn_horde(st, g, h, tb, rng):
    """zombie40k §6.1 and §7: a destroyed horde returns at full size (Death Korps: one step
    tougher) and arrives by the D6 Zombie Respawn Table; so does a destroyed Boss that
    respawns (``boss_respawns``, A14), with its profile."""
    if h == boss_unit(st):
        build_boss(st, g, tb)
    else:
        if tb.prm[P_DK] != 0:
            _escalate(st, g, h, tb, 1)
        build_horde(st, g, h, tb)
    st.radius[g, h] = unit_radius(alive(st, g, h), tb.prm)
    result = sum_d6(rng, g, 1)
    if tb.prm[P_EV_EDGE_ARRIVALS] != 0 and _zone_reached(st, g, tb):
        result = 4  # Coop Mode: once a squad has come near the EV, hordes come from its edge
    placed = _arrive(st, g, h, result, tb, rng)
    st.ustate[g, h, US_ARRIVED_EDGE] = 1 if result <= 4 else 0
    if placed:
        log_event(st, g, EK_ZOMBIE_ARRIVE, h, result, st.pos[g, h, 0], st.pos[g, h, 1], 0)
    else:
        _clear_unit(st, g, h)  # no room on the table: it tries again next Zombie Turn
        if tb.prm[P_DK] != 0 and tb.prm[P_DK_FAILED_ARRIVALS] == 0 and h != boss_unit(st):
            _escalate(st, g, h, tb, -1)  # that respawn did not happen (§10.4, docs/readings.md)
    return placed


@njit
def _escalate(st, g, h, tb, step):
    """Death Korps (zombie40k §10.4, A37): a respawn escalates the horde, or every horde."""
    for k in range(n_players(tb), boss_unit(st)):
        if k == h or tb.prm[P_DK_GLOBAL] != 0:
            st.ustate[g, k, US_DK_LEVEL] += step


@njit
def _arrive(st, g, h, result, tb, rng):
    if result <= 4:
        return arrive_from_edge(st, g, h, result - 1, tb)
    if result == 5:  # centre Deep Strike: a HIT is re-rolled until an arrow shows (A25)
        angle = scatter_arrow(rng, g)
        dist = sum_d6(rng, g, int(tb.prm[P_CSCATTER_N]))
        return land_with_guidance(st, g, h, 0.5 * tb.prm[P_TABLE_W], 0.5 * tb.prm[P_TABLE_L], angle, dist, tb)
    ax, ay = _result6_aim(st, g, h, tb, rng)
    hit, angle = scatter_die(rng, g)
    dist = 0 if hit else sum_d6(rng, g, 2)
    return land_with_guidance(st, g, h, ax, ay, angle, dist, tb)


@njit
def zombie_can_respawn(st, g, u, tb):
    """A destroyed horde comes back; the Boss only with ``boss_respawns`` (zombie40k §6.1, A14)."""
    if on_table(st, g, u):
        return False
    return u != boss_unit(st) or (tb.prm[P_BOSS_RESPAWNS] != 0 and st.ustate[g, u, US_OUT] == 0)


@njit
def unit_ready_squad(st, g, p):
    return on_table(st, g, p) and not in_combat(st, g, p)


@njit
def roll_expr_prm(rng, g, prm, base):
    """Roll the dice expression stored at prm[base : base + 3] (count, keep, d3)."""
    return roll_expr(rng, g, int(prm[base]), int(prm[base + 1]), prm[base + 2] != 0)

