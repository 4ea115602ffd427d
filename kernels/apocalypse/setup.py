"""Setting up a game (zombie-apocalypse §3): deployment roll-off, armies in the corners, spawn
points scattered from the centre, the starting zombies and the First Zombie, the first-turn roll-off.
"""

from __future__ import annotations

import math

from kernels.apocalypse.columns import (
    EK_FIRST_ZOMBIE,
    EK_ORDER,
    EK_SPAWNER,
    EK_UNIT,
    G_FIRST,
    G_N_SPAWNERS,
    G_TURN,
    MI_ROLE,
    MI_VEHICLE,
    MI_WARLORD,
    N_MI,
    P_BASE_R,
    P_CORNER,
    P_EXCHANGE_ALL,
    P_EXCLUSION,
    P_FZ_AT_CENTRE,
    P_N,
    P_RESCATTER,
    P_SCATTER_BONUS,
    P_SCATTER_DICE,
    P_SPAWN_POINTS,
    P_SPAWNER_R,
    P_SPAWNERS_FIRST,
    P_START_BONUS,
    P_START_DICE,
    P_TABLE,
    P_Z_SPACING,
    PH_SETUP,
    POL_BODYGUARD,
    POL_ESCORT,
    POL_TRAIT,
    PR_MODELS_START,
    PR_TRAIT,
    R_SP0,
    ROLE_IC,
    SIDE_PLAYERS,
    SIDE_ZOMBIES,
    SK_FIRST,
    SRC_DEPLOY,
    SS_ALIVE,
    SS_FIRST_WAVE,
    US_ALIVE,
    US_DATASHEET,
    US_EMBARKED,
    US_ESCORT,
    US_OWNER,
    US_START,
    US_TYPE,
    ZK_FIRST,
)
from kernels.apocalypse.geometry import disc_radius, gap, zone_distance
from kernels.apocalypse.hordes import add_special, spawn_batch
from kernels.apocalypse.terrain import place_terrain
from kernels.apocalypse.trace import log_event
from kernels.apocalypse.units import locate_warlords, models_alive, move_model, refresh_radius, refresh_traits
from kernels.dice import scatter_arrow, sum_d6
from kernels.jit import njit
from kernels.rng import d6
from kernels.w40k.columns import N_STATS, W
from kernels.w40k.geometry import norm

# ------------------------------------------------------------------ clearing


@njit
def clear_game(st, g):
    """Game g's state back to empty (a batch's slot is reused game after game)."""
    st.upos[g] = 0.0
    st.urad[g] = 0.0
    st.umoved[g] = 0.0
    st.ust[g] = 0
    st.wounds[g] = 0
    st.stats[g] = 0
    st.bstats[g] = 0
    st.mflags[g] = 0
    st.bflags[g] = 0
    st.mstatus[g] = 0
    st.gear[g] = -1
    st.minfo[g] = 0
    st.hpos[g] = 0.0
    st.hrad[g] = 0.0
    st.hst[g] = 0
    st.lock[g] = 0
    st.sh[g] = -1
    st.skind[g] = 0
    st.swounds[g] = 0
    st.sstats[g] = 0
    st.sflags[g] = 0
    st.sgear[g] = -1
    st.spos[g] = 0.0
    st.sst[g] = 0
    st.gst[g] = 0
    st.wl_unit[g] = -1
    st.wl_slot[g] = -1
    st.res[g] = 0
    st.pres[g] = 0
    st.n_events[g] = 0
    st.viol[g] = 0


# ------------------------------------------------------------------ roll-offs


@njit
def roll_off(rng, g):
    """Players' side against the zombie side, re-rolling ties (§3.4): the side that goes first."""
    while True:
        a, b = d6(rng, g), d6(rng, g)
        if a != b:
            return SIDE_PLAYERS if a > b else SIDE_ZOMBIES


@njit
def deployment_order(rng, g, keys, n):
    """Every player and the zombie side (index n) roll a D6, highest deploys first, ties re-rolled
    (§3.2, core "Roll-off": every side of a tie rolls again, and the new roll orders the tied sides
    among themselves only - it is not added to a total). Fills ``keys[0..n]`` with each side's
    place, 0 = deploys first (``keys`` is scratch of at least 2n + 2 numbers: a side's key is its
    first roll, each re-roll a digit after it in base 7)."""
    for i in range(n + 1):
        keys[i] = d6(rng, g)
    scale = 1.0
    for _round in range(20):
        for i in range(n + 1):  # who is tied, before anyone re-rolls (flags in the scratch after the keys)
            keys[n + 1 + i] = 0.0
            for j in range(n + 1):
                if i != j and keys[i] == keys[j]:
                    keys[n + 1 + i] = 1.0
        tied = False
        for i in range(n + 1):
            tied = tied or keys[n + 1 + i] != 0.0
        if not tied:
            break
        scale /= 7.0
        for i in range(n + 1):
            if keys[n + 1 + i] != 0.0:
                keys[i] += d6(rng, g) * scale
    for i in range(n + 1):  # keys -> places, through the scratch after them
        place = 0
        for j in range(n + 1):
            place += keys[j] > keys[i]
        keys[n + 1 + i] = place
    for i in range(n + 1):
        keys[i] = keys[n + 1 + i]


# ------------------------------------------------------------------ the players' armies


@njit
def corner_of(p):
    """Corner of player p: 0 bottom-left, 1 bottom-right, 2 top-right, 3 top-left (more than four
    players share corners in turn, A8)."""
    return p % 4


@njit
def corner_point(corner, side):
    if corner == 0:
        return 0.0, 0.0
    if corner == 1:
        return side, 0.0
    if corner == 2:
        return side, side
    return 0.0, side


@njit
def deploy_spot(corner, k, n_units, r, prm):
    """Centre of the k-th of ``n_units`` units of radius r wholly within 10" of the corner and on
    the table: spread on the arc of radius 10" - r about the corner (§3.2)."""
    side = prm[P_TABLE]
    reach = max(prm[P_CORNER] - r, r * 1.4143)
    lo = math.asin(min(1.0, r / reach))
    hi = 0.5 * math.pi - lo
    theta = lo + (hi - lo) * (k + 0.5) / n_units if hi > lo else 0.25 * math.pi
    cx, cy = corner_point(corner, side)
    sx = 1.0 if cx == 0.0 else -1.0
    sy = 1.0 if cy == 0.0 else -1.0
    return cx + sx * reach * math.cos(theta), cy + sy * reach * math.sin(theta)


@njit
def _copy_template(st, g, u, t, tb):
    for m in range(st.wounds.shape[2]):
        st.wounds[g, u, m] = tb.ut_wounds[t, m]
        for c in range(N_STATS):
            st.stats[g, u, m, c] = tb.ut_stats[t, m, c]
            st.bstats[g, u, m, c] = tb.ut_stats[t, m, c]
        st.mflags[g, u, m] = tb.ut_flags[t, m]
        st.bflags[g, u, m] = tb.ut_flags[t, m]
        for c in range(st.gear.shape[3]):
            st.gear[g, u, m, c] = tb.ut_gear[t, m, c]
        for c in range(N_MI):
            st.minfo[g, u, m, c] = tb.ut_info[t, m, c]
    st.ust[g, u, US_ALIVE] = 1
    st.ust[g, u, US_OWNER] = tb.ut_owner[t]
    st.ust[g, u, US_TYPE] = tb.ut_type[t]
    st.ust[g, u, US_DATASHEET] = tb.ut_datasheet[t]
    refresh_radius(st, g, u, tb)
    st.ust[g, u, US_START] = models_alive(st, g, u)


@njit
def deploy_player(st, g, p, tb):
    """Player p's units, as bought, in p's corner (§3.2)."""
    n_units = 0
    for t in range(tb.ut_owner.shape[0]):
        n_units += tb.ut_owner[t] == p and tb.ut_carrier[t] < 0
    k = 0
    for t in range(tb.ut_owner.shape[0]):
        if tb.ut_owner[t] != p or tb.ut_carrier[t] >= 0:
            continue
        _copy_template(st, g, t, t, tb)
        x, y = deploy_spot(corner_of(p), k, n_units, st.urad[g, t], tb.prm)
        st.upos[g, t, 0], st.upos[g, t, 1] = x, y
        st.pres[g, p, PR_MODELS_START] += st.ust[g, t, US_START]
        log_event(st, g, PH_SETUP, EK_UNIT, t, p, st.ust[g, t, US_START], x, y)
        k += 1
    for t in range(tb.ut_owner.shape[0]):  # apocalypse V11: a squad bought with a transport deploys inside it
        v = tb.ut_carrier[t]
        if tb.ut_owner[t] != p or v < 0:
            continue
        _copy_template(st, g, t, t, tb)
        st.ust[g, t, US_EMBARKED] = v + 1
        st.upos[g, t, 0], st.upos[g, t, 1] = st.upos[g, v, 0], st.upos[g, v, 1]
        refresh_radius(st, g, t, tb)
        st.pres[g, p, PR_MODELS_START] += st.ust[g, t, US_START]
        log_event(st, g, PH_SETUP, EK_UNIT, t, p, st.ust[g, t, US_START], st.upos[g, t, 0], st.upos[g, t, 1])
    st.pres[g, p, PR_TRAIT] = int(tb.policy[p, POL_TRAIT])


@njit
def _warlord_home(st, g, p):
    """(unit, slot) of player p's Warlord as deployed."""
    for u in range(st.wounds.shape[1]):
        if st.ust[g, u, US_ALIVE] == 0 or st.ust[g, u, US_OWNER] != p:
            continue
        for m in range(st.wounds.shape[2]):
            if st.wounds[g, u, m] > 0 and st.minfo[g, u, m, MI_WARLORD] != 0:
                return u, m
    return -1, -1


@njit
def _biggest_unit(st, g, p, skip1, skip2):
    """Player p's unit with the most Wounds other than ``skip1`` and ``skip2`` (P10), -1 if none."""
    best, best_w = -1, 0
    for u in range(st.wounds.shape[1]):
        if u == skip1 or u == skip2 or st.ust[g, u, US_ALIVE] == 0 or st.ust[g, u, US_OWNER] != p:
            continue
        if st.minfo[g, u, 0, MI_VEHICLE] != 0:  # a vehicle is no escort and no bodyguard (apocalypse V1)
            continue
        if st.ust[g, u, US_EMBARKED] != 0:  # nor a squad aboard its transport (apocalypse V11, choice)
            continue
        total = 0
        for m in range(st.wounds.shape[2]):
            total += st.wounds[g, u, m]
        if total > best_w:
            best, best_w = u, total
    return best


@njit
def escort_and_bodyguard(st, g, p, tb):
    """P10: the non-Warlord unit with the most Wounds enters the zone first (the escort); with the
    bodyguard policy the Warlord deploys joined to the biggest of the others (core §16: an IC may
    deploy with a unit)."""
    wu, wm = _warlord_home(st, g, p)
    bodyguard = -1
    if tb.policy[p, POL_BODYGUARD] != 0 and wu >= 0 and st.minfo[g, wu, wm, MI_ROLE] == ROLE_IC:
        bodyguard = _biggest_unit(st, g, p, wu, -1)
        escort = _biggest_unit(st, g, p, wu, bodyguard)
        if escort < 0 and bodyguard >= 0:  # one unit only: it escorts; the Warlord stays alone
            escort, bodyguard = bodyguard, -1
    else:
        escort = _biggest_unit(st, g, p, wu, -1)
    if tb.policy[p, POL_ESCORT] != 0 and escort >= 0:
        st.ust[g, escort, US_ESCORT] = 1
    if bodyguard >= 0:
        move_model(st, g, wu, wm, bodyguard, tb)


# ------------------------------------------------------------------ spawn points (§3.3)


@njit
def spawner_is_legal(st, g, x, y, tb):
    """A spawn point may not be on the extraction zone, off the table, or within 6" of a player
    model on the table (§3.3)."""
    r = tb.prm[P_SPAWNER_R]
    side = tb.prm[P_TABLE]
    if x < r or y < r or x > side - r or y > side - r:
        return False
    if zone_distance(x, y, tb.prm) <= r:
        return False
    for u in range(st.upos.shape[1]):
        if st.ust[g, u, US_ALIVE] != 0:
            if gap(x, y, r, st.upos[g, u, 0], st.upos[g, u, 1], st.urad[g, u]) < tb.prm[P_EXCLUSION]:
                return False
    return True


@njit
def nearest_legal_on_line(st, g, angle, distance, tb):
    """(found, distance): the legal point of the scatter line nearest to ``distance`` (A11: the
    minimum move along the line, usually back towards the centre)."""
    c = 0.5 * tb.prm[P_TABLE]
    dx, dy = math.cos(angle), math.sin(angle)
    step = 0.25
    for k in range(int(2.0 * c / step) + 1):
        for sign in (-1.0, 1.0):
            d = distance + sign * k * step
            if d >= 0.0 and spawner_is_legal(st, g, c + d * dx, c + d * dy, tb):
                return True, d
    return False, 0.0


@njit
def scatter_spawner(rng, g, st, tb):
    """(x, y): the table centre scattered 3D6 + N inches; a Hit is rolled again until an arrow
    shows; an illegal result moves along the line or scatters again (§3.3, A11)."""
    c = 0.5 * tb.prm[P_TABLE]
    for _attempt in range(100):
        distance = sum_d6(rng, g, int(tb.prm[P_SCATTER_DICE])) + tb.prm[P_SCATTER_BONUS]
        angle = scatter_arrow(rng, g)
        x, y = c + distance * math.cos(angle), c + distance * math.sin(angle)
        if spawner_is_legal(st, g, x, y, tb):
            return x, y
        if tb.prm[P_RESCATTER] == 0:
            found, d = nearest_legal_on_line(st, g, angle, distance, tb)
            if found:
                return c + d * math.cos(angle), c + d * math.sin(angle)
    return x, y


@njit
def place_spawners(rng, g, st, tb):
    n = min(int(tb.prm[P_SPAWN_POINTS]), st.spos.shape[1])
    for s in range(n):
        x, y = scatter_spawner(rng, g, st, tb)
        st.spos[g, s, 0], st.spos[g, s, 1] = x, y
        st.sst[g, s, SS_ALIVE] = 1
        st.sst[g, s, SS_FIRST_WAVE] = 1
        log_event(st, g, PH_SETUP, EK_SPAWNER, s, 0, 0, x, y)
    st.gst[g, G_N_SPAWNERS] = n


@njit
def _horde_spot_ok(st, g, x, y, r, tb):
    """A13: starting zombies never within 6" of a player model, never on the zone, on the table."""
    side = tb.prm[P_TABLE]
    if x < r or y < r or x > side - r or y > side - r or zone_distance(x, y, tb.prm) <= r:
        return False
    for u in range(st.upos.shape[1]):
        if st.ust[g, u, US_ALIVE] != 0:
            if gap(x, y, r, st.upos[g, u, 0], st.upos[g, u, 1], st.urad[g, u]) < tb.prm[P_EXCLUSION]:
                return False
    return True


@njit
def starting_spot(st, g, s, count, tb):
    """Where spawn point s's starting horde stands: on the spawner, else the nearest legal spot
    touching or within 3" of its edge (A13)."""
    r = disc_radius(count, tb.prm[P_BASE_R], tb.prm[P_Z_SPACING])
    x0, y0 = st.spos[g, s, 0], st.spos[g, s, 1]
    if _horde_spot_ok(st, g, x0, y0, r, tb):
        return x0, y0
    reach = tb.prm[P_SPAWNER_R] + 3.0 + r
    for ring in range(1, 9):
        d = reach * ring / 8.0
        for k in range(16):
            a = 2.0 * math.pi * k / 16.0
            x, y = x0 + d * math.cos(a), y0 + d * math.sin(a)
            if _horde_spot_ok(st, g, x, y, r, tb):
                return x, y
    return x0, y0


@njit
def starting_zombies(rng, g, st, tb):
    """2D6 + N zombies at each spawn point (§3.3); the First Zombie joins the horde of the spawn
    point nearest the table centre (A13)."""
    centre = 0.5 * tb.prm[P_TABLE]
    best_d, best_h = 1e18, -1
    for s in range(st.gst[g, G_N_SPAWNERS]):
        count = sum_d6(rng, g, int(tb.prm[P_START_DICE])) + int(tb.prm[P_START_BONUS])
        x, y = starting_spot(st, g, s, count, tb)
        h = spawn_batch(st, g, x, y, count, SRC_DEPLOY, tb.prm[P_EXCHANGE_ALL] != 0, tb, PH_SETUP)
        d = norm(st.spos[g, s, 0] - centre, st.spos[g, s, 1] - centre)
        if tb.prm[P_FZ_AT_CENTRE] == 0:
            d = -s  # the last spawn point (the alternative reading: any one)
        if d < best_d and h >= 0:
            best_d, best_h = d, h
    if best_h >= 0:
        _first_zombie(st, g, best_h, tb)


@njit
def _first_zombie(st, g, h, tb):
    s = add_special(st, g, h, SK_FIRST, tb.zstats[ZK_FIRST], tb.zflags[ZK_FIRST], tb.zstats[ZK_FIRST, W], tb)
    if s >= 0:
        st.sgear[g, s, 0] = tb.ids[0]  # his claws: a close combat weapon
        st.res[g, R_SP0 + SRC_DEPLOY] += 1
        log_event(st, g, PH_SETUP, EK_FIRST_ZOMBIE, h, 0, 0, st.hpos[g, h, 0], st.hpos[g, h, 1])
    return s


# ------------------------------------------------------------------ the whole set-up (§12)


@njit
def setup_game(st, g, tb, rng):
    """Terrain, deployment roll-off, armies, spawn points and starting zombies, first-turn roll-off."""
    clear_game(st, g)
    place_terrain(rng, g, st, tb, PH_SETUP)  # §3.2 step 1: terrain and the zone first
    n_players = int(tb.prm[P_N])
    deployment_order(rng, g, st.w_keys, n_players)
    zombie_place = st.w_keys[n_players]
    first = tb.prm[P_SPAWNERS_FIRST] != 0
    placed = False
    for place in range(n_players + 1):
        if place == zombie_place:
            if first:
                place_spawners(rng, g, st, tb)
                placed = True
            continue
        for p in range(n_players):
            if st.w_keys[p] == place:
                deploy_player(st, g, p, tb)
                log_event(st, g, PH_SETUP, EK_ORDER, p, place, 0, 0.0, 0.0)
    if not placed:
        place_spawners(rng, g, st, tb)
    for p in range(n_players):
        escort_and_bodyguard(st, g, p, tb)
    locate_warlords(st, g)
    refresh_traits(st, g, tb)
    starting_zombies(rng, g, st, tb)
    st.gst[g, G_FIRST] = roll_off(rng, g)
    st.gst[g, G_TURN] = 1
