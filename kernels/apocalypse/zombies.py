"""The zombie turn (zombie-apocalypse §9-§12): spawner auras, held-back zombies, waves, merging,
every free horde moving and running towards the closest player model, charges with the players'
Overwatch, then the fights.
"""

from __future__ import annotations

import math

from kernels.apocalypse.assault import make_brute, melee_choice
from kernels.apocalypse.choices import pick, plays_random
from kernels.apocalypse.columns import (
    EK_AURA,
    EK_CHARGE,
    EK_HMOVE,
    EK_SPAWNER,
    G_HELD,
    G_ZTURN,
    HS_CHARGED,
    HS_LOCKED,
    HS_Z,
    MI_OWNER,
    MI_WARLORD,
    P_AURA_ATSKNF,
    P_AURA_LD,
    P_AURA_MORALE,
    P_AURA_R,
    P_BASE_R,
    P_CHARGE_RANGE,
    P_EDGE_BONUS,
    P_EDGE_DICE,
    P_EDGE_RANDOM,
    P_EXCHANGE_ALL,
    P_SPAWNER_R,
    P_SPLIT_CHARGE,
    P_SPLIT_MIN,
    P_TABLE,
    P_WAVE_START,
    P_WRECK_WAVES,
    P_Z_MOVE,
    P_Z_RUN_DICE,
    P_Z_SPACING,
    PH_Z_ASSAULT,
    PH_Z_MOVEMENT,
    POL_OVERWATCH,
    PR_HORDE_WRECKS,
    PR_PASSENGERS_LOST,
    PR_WL_FATE,
    PR_WRECK_SPAWNERS,
    PR_ZKILLED,
    R_AURA_WOUNDS,
    R_HELD_MAX,
    R_SP0,
    SRC_EDGE,
    SRC_WAVE,
    SS_ALIVE,
    SS_FIRST_WAVE,
    SS_WRECK,
    US_AURA_WS1,
    US_FALLING_BACK,
    US_OWNER,
    US_WAS_CHARGED,
    WL_KILLED,
    ZK_ZOMBIE,
)
from kernels.apocalypse.combat import release_passengers
from kernels.apocalypse.geometry import along_edge, disc_radius
from kernels.apocalypse.hordes import (
    horde_models,
    is_alive,
    merge_hordes,
    new_horde,
    refresh_radius,
    remove_if_empty,
    spawn_batch,
)
from kernels.apocalypse.movement import fall_back
from kernels.apocalypse.noise import edge_spot, place_phase_noise, spot_is_free
from kernels.apocalypse.shooting import fire_overwatch
from kernels.apocalypse.state import W_FIGHT
from kernels.apocalypse.strike import majority_toughness, strike_horde
from kernels.apocalypse.trace import log_event
from kernels.apocalypse.units import (
    disembark,
    knows_no_fear,
    locate_warlords,
    models_alive,
    models_within,
    passengers,
    settle_unit,
    unit_alive,
    unit_gap_horde,
    unit_gap_unit,
    unit_leadership,
)
from kernels.apocalypse.vehicles import aura_on_vehicle, is_transport, is_vehicle, lose_hull_points
from kernels.dice import sum_d6
from kernels.jit import njit
from kernels.rng import uniform
from kernels.w40k.attack_spec import melee_spec
from kernels.w40k.columns import NONE, OUT_KILLED, WS
from kernels.w40k.combat import clear_out
from kernels.w40k.geometry import INF, norm, ray_circle


@njit
def _locked(st, g, u):
    for h in range(st.lock.shape[2]):
        if st.lock[g, u, h] != 0:
            return True
    return False


# ------------------------------------------------------------------ 1. spawner auras (§10, A18)


@njit
def aura_wounds(st, g, u, n):
    """``n`` models of unit u each take one automatic wound, no saves, no Feel No Pain (§10)."""
    done = 0
    for m in range(st.wounds.shape[2]):
        if done >= n:
            break
        if st.wounds[g, u, m] > 0:
            st.wounds[g, u, m] -= 1
            if st.wounds[g, u, m] == 0 and st.minfo[g, u, m, MI_WARLORD] != 0:
                st.pres[g, st.minfo[g, u, m, MI_OWNER], PR_WL_FATE] = WL_KILLED
            done += 1


@njit
def aura_fear_passes(die_total, ld, modifier, atsknf):
    """The aura's Fear test: 2D6 against Ld - 1, even if Fearless (§10); ``atsknf``: the unit passes
    by And They Shall Know No Fear (only under ``aura_fear_atsknf = "passes"``: by default the
    seed's "even the mightiest warriors tremble" makes it test too)."""
    return atsknf or die_total <= ld - modifier


@njit
def spawner_aura(rng, g, st, tb):
    """Start of the zombie Movement phase: every player model within 6" of a spawner, not falling
    back and not locked, takes an automatic wound; each unit hit tests Fear at Ld - 1 and, failing,
    is WS 1 until the end of the zombie turn (A18; or falls back with ``P_AURA_MORALE``)."""
    for u in range(st.ust.shape[1]):
        if not unit_alive(st, g, u) or st.ust[g, u, US_FALLING_BACK] != 0 or _locked(st, g, u):
            continue
        hit = 0
        for s in range(st.spos.shape[1]):
            if st.sst[g, s, SS_ALIVE] != 0:
                hit = max(hit, models_within(st, g, u, st.spos[g, s, 0], st.spos[g, s, 1], tb.prm[P_SPAWNER_R],
                                             tb.prm[P_AURA_R]))
        if hit == 0:
            continue
        if is_vehicle(st, g, u):  # §10: a Hull Point, no damage roll, Snap Shots; no Fear test
            st.res[g, R_AURA_WOUNDS] += 1
            log_event(st, g, PH_Z_MOVEMENT, EK_AURA, u, 1, 0, st.upos[g, u, 0], st.upos[g, u, 1])
            if aura_on_vehicle(st, g, u):
                release_passengers(rng, g, st, u, tb)  # apocalypse V11: they get out of the wreck
                wreck_spawner(st, g, u, tb)  # §10: a vehicle destroyed by the aura is replaced by a spawner
            settle_unit(st, g, u, tb, PH_Z_MOVEMENT)
            continue
        aura_wounds(st, g, u, hit)
        st.res[g, R_AURA_WOUNDS] += hit
        log_event(st, g, PH_Z_MOVEMENT, EK_AURA, u, hit, 0, st.upos[g, u, 0], st.upos[g, u, 1])
        settle_unit(st, g, u, tb, PH_Z_MOVEMENT)
        if not unit_alive(st, g, u):
            continue
        total = sum_d6(rng, g, 2)
        if not aura_fear_passes(total, unit_leadership(st, g, u, tb), int(tb.prm[P_AURA_LD]),
                                tb.prm[P_AURA_ATSKNF] != 0 and knows_no_fear(st, g, u)):
            if tb.prm[P_AURA_MORALE] != 0:
                fall_back(rng, g, st, u, tb, PH_Z_MOVEMENT)
            else:
                st.ust[g, u, US_AURA_WS1] = 1
    locate_warlords(st, g)


@njit
def wreck_spawner(st, g, u, tb):
    """§8, §10: the wreck of vehicle u becomes a zombie spawner where it stood (a free spawner slot:
    the state holds one for every vehicle); it waves from the next zombie turn (A14)."""
    for s in range(st.spos.shape[1]):
        if st.sst[g, s, SS_ALIVE] == 0:
            st.spos[g, s, 0], st.spos[g, s, 1] = st.upos[g, u, 0], st.upos[g, u, 1]
            st.sst[g, s, SS_ALIVE] = 1
            st.sst[g, s, SS_FIRST_WAVE] = 0
            st.sst[g, s, SS_WRECK] = st.gst[g, G_ZTURN] + 1
            st.pres[g, st.minfo[g, u, 0, MI_OWNER], PR_WRECK_SPAWNERS] += 1
            log_event(st, g, PH_Z_MOVEMENT, EK_SPAWNER, s, 1, 0, st.spos[g, s, 0], st.spos[g, s, 1])
            return s
    return -1


HORDE_WRECKS = 30  # §8: a zombie unit of 30 or more models wrecks the transport it charges [V]
EMERGENCY_IN = 6.0  # §8: the passengers' emergency disembarkation within 6" of the wreck [V]


# ------------------------------------------------------------------ 2-3. spawning (§9.1-§9.2)


@njit
def _nearest_unit_to_edge(st, g, edge, tb):
    """The along-edge coordinate of the player model nearest to ``edge`` (A15), -1 if none."""
    side = tb.prm[P_TABLE]
    best, best_d = -1.0, INF
    for u in range(st.ust.shape[1]):
        if not unit_alive(st, g, u):
            continue
        x, y, r = st.upos[g, u, 0], st.upos[g, u, 1], st.urad[g, u]
        d = (y, side - x, side - y, x)[edge] - r
        if d < best_d:
            best, best_d = along_edge(edge, x, y), d
    return best


@njit
def place_held_back(st, g, tb):
    """Held-back zombies come on at the edge nearest to the nearest player model (§9.1, A37)."""
    count = st.gst[g, G_HELD]
    if count <= 0:
        return
    st.gst[g, G_HELD] = 0
    best_e, best_d = 0, INF
    for e in range(4):
        a = _nearest_unit_to_edge(st, g, e, tb)
        if a >= 0.0:
            found, x, y = edge_spot(st, g, e, a, count, tb)
            if found:
                d = norm(x - 0.5 * tb.prm[P_TABLE], y - 0.5 * tb.prm[P_TABLE])
                if d < best_d:
                    best_e, best_d = e, d
    a = _nearest_unit_to_edge(st, g, best_e, tb)
    found, x, y = edge_spot(st, g, best_e, max(a, 0.0), count, tb)
    if found:
        spawn_batch(st, g, x, y, count, -1, tb.prm[P_EXCHANGE_ALL] != 0, tb, PH_Z_MOVEMENT)
    else:
        st.gst[g, G_HELD] += count
    st.res[g, R_HELD_MAX] = max(st.res[g, R_HELD_MAX], st.gst[g, G_HELD])


@njit
def wave_dice(zombie_turn, start):
    """(8 - t)D6 on the zombie side's t-th turn (§9.1, A35): 7D6, 6D6, ... 1D6."""
    return max(0, start - zombie_turn)


@njit
def spawner_spot(st, g, s, count, tb):
    """(found, x, y): on spawner s, else the nearest free spot within 3" of its edge."""
    x0, y0 = st.spos[g, s, 0], st.spos[g, s, 1]
    r = disc_radius(count, tb.prm[P_BASE_R], tb.prm[P_Z_SPACING])
    if spot_is_free(st, g, x0, y0, r):
        return True, x0, y0
    reach = tb.prm[P_SPAWNER_R] + 1.5
    for k in range(16):
        a = 2.0 * math.pi * k / 16.0
        x, y = x0 + reach * math.cos(a), y0 + reach * math.sin(a)
        if spot_is_free(st, g, x, y, r):
            return True, x, y
    return False, x0, y0


@njit
def spawn_waves(rng, g, st, tb):
    """Each spawn point spawns (8 - t)D6 zombies and each table edge D6 + N, every batch with the
    Juggernaut exchange (§9.1, P2)."""
    dice = wave_dice(st.gst[g, G_ZTURN], int(tb.prm[P_WAVE_START]))
    for s in range(st.spos.shape[1]):
        if st.sst[g, s, SS_ALIVE] == 0 or dice <= 0:
            continue
        if st.sst[g, s, SS_WRECK] != 0 and (tb.prm[P_WRECK_WAVES] == 0 or st.gst[g, G_ZTURN] < st.sst[g, s, SS_WRECK]):
            continue  # A14: a wreck's spawner waves from the zombie turn after it appeared (wreck_waves)
        count = sum_d6(rng, g, dice)
        found, x, y = spawner_spot(st, g, s, count, tb)
        if found:
            spawn_batch(st, g, x, y, count, SRC_WAVE, True, tb, PH_Z_MOVEMENT)
        else:
            st.res[g, R_SP0 + SRC_WAVE] += count
            st.gst[g, G_HELD] += count
    side = tb.prm[P_TABLE]
    for e in range(4):
        count = sum_d6(rng, g, int(tb.prm[P_EDGE_DICE])) + int(tb.prm[P_EDGE_BONUS])
        along = uniform(rng, g) * side if tb.prm[P_EDGE_RANDOM] != 0 else _nearest_unit_to_edge(st, g, e, tb)
        found, x, y = edge_spot(st, g, e, max(along, 0.0), count, tb)
        if found:
            spawn_batch(st, g, x, y, count, SRC_EDGE, True, tb, PH_Z_MOVEMENT)
        else:
            st.res[g, R_SP0 + SRC_EDGE] += count
            st.gst[g, G_HELD] += count


# ------------------------------------------------------------------ 5. moving (§11, P1)


@njit
def closest_unit(st, g, h):
    """The unit holding the player model closest to horde h (P1; ties: the unit with more models)."""
    best, best_d, best_n = -1, INF, 0
    for u in range(st.ust.shape[1]):
        if not unit_alive(st, g, u):
            continue
        d = unit_gap_horde(st, g, u, h)
        n = models_alive(st, g, u)
        if d < best_d - 1e-9 or (abs(d - best_d) <= 1e-9 and n > best_n):
            best, best_d, best_n = u, d, n
    return best


@njit
def horde_travel(st, g, h, dx, dy, tb):
    """How far horde h may go along (dx, dy): never within 1" of a player unit (core §3); zombies
    are never slowed by terrain (Zombie!, §5)."""
    px, py, r = st.hpos[g, h, 0], st.hpos[g, h, 1], st.hrad[g, h]
    side = tb.prm[P_TABLE]
    t = INF
    for lo, p, d in ((r, px, dx), (r, py, dy)):
        if d > 1e-12:
            t = min(t, (side - lo - p) / d)
        elif d < -1e-12:
            t = min(t, (lo - p) / d)
    t = max(0.0, t)
    for u in range(st.ust.shape[1]):
        if unit_alive(st, g, u):
            t = min(t, ray_circle(px, py, dx, dy, st.upos[g, u, 0], st.upos[g, u, 1], r + st.urad[g, u] + 1.0))
    return t


@njit
def move_horde(rng, g, st, h, tb):
    """Horde h moves 6" and runs D6" straight at the closest player model (Zombie!: move, run and
    charge, §5, §11)."""
    u = closest_unit(st, g, h)
    if u < 0:
        return
    budget = tb.prm[P_Z_MOVE] + sum_d6(rng, g, int(tb.prm[P_Z_RUN_DICE]))
    dx, dy = st.upos[g, u, 0] - st.hpos[g, h, 0], st.upos[g, u, 1] - st.hpos[g, h, 1]
    d = norm(dx, dy)
    if d < 1e-9:
        return
    dx, dy = dx / d, dy / d
    t = min(budget, horde_travel(st, g, h, dx, dy, tb))
    st.hpos[g, h, 0] += t * dx
    st.hpos[g, h, 1] += t * dy
    log_event(st, g, PH_Z_MOVEMENT, EK_HMOVE, h, horde_models(st, g, h), u, st.hpos[g, h, 0], st.hpos[g, h, 1])


@njit
def zombie_movement_phase(rng, g, st, tb):
    """§12 zombie Movement phase, steps 1 to 5."""
    spawner_aura(rng, g, st, tb)
    place_held_back(st, g, tb)
    spawn_waves(rng, g, st, tb)
    merge_hordes(st, g, tb)
    for h in range(st.hst.shape[1]):
        if is_alive(st, g, h) and st.hst[g, h, HS_LOCKED] == 0:
            move_horde(rng, g, st, h, tb)
    merge_hordes(st, g, tb)


# ------------------------------------------------------------------ charges (§6, §11, A25)


@njit
def overwatch_against(rng, g, st, u, h, tb):
    """The charged unit and every friendly unit within 6" of it (Supporting the Team (b)) may fire
    Overwatch at the charging horde, once a phase each (P7)."""
    for v in range(st.ust.shape[1]):
        if not unit_alive(st, g, v) or _locked(st, g, v) or st.ust[g, v, US_FALLING_BACK] != 0:
            continue
        if v != u and unit_gap_unit(st, g, u, v) > 6.0:
            continue
        if horde_models(st, g, h) <= 0:
            continue
        if plays_random(st, g, v, tb):
            if pick(rng, g, 2) == 0:
                continue  # the random baseline fires Overwatch on a coin (kernels.apocalypse.choices)
        elif tb.policy[st.ust[g, v, US_OWNER], POL_OVERWATCH] == 0:
            continue
        fire_overwatch(rng, g, st, v, h, tb, PH_Z_ASSAULT)


@njit
def charge(rng, g, st, h, u, tb):
    """Horde h charges unit u: Overwatch, then 2D6 against the gap, no terrain penalty (Zombie!);
    a success puts it in base contact, locked (core §7.1). Overwatch noise comes on at once."""
    overwatch_against(rng, g, st, u, h, tb)
    refresh_radius(st, g, h, tb)
    success = False
    if horde_models(st, g, h) > 0 and unit_alive(st, g, u):
        roll = sum_d6(rng, g, 2)
        distance = unit_gap_horde(st, g, u, h)
        success = roll >= distance
        if success:
            dx, dy = st.hpos[g, h, 0] - st.upos[g, u, 0], st.hpos[g, h, 1] - st.upos[g, u, 1]
            d = norm(dx, dy)
            if d < 1e-9:
                dx, dy, d = 1.0, 0.0, 1.0
            reach = st.urad[g, u] + st.hrad[g, h]
            st.hpos[g, h, 0] = st.upos[g, u, 0] + dx / d * reach
            st.hpos[g, h, 1] = st.upos[g, u, 1] + dy / d * reach
            if not _locked(st, g, u):  # core §12 Counter-attack: "charged (and was not already locked)"
                st.ust[g, u, US_WAS_CHARGED] = 1
            st.lock[g, u, h] = 1
            st.hst[g, h, HS_LOCKED] += 1
            st.hst[g, h, HS_CHARGED] = 1
        log_event(st, g, PH_Z_ASSAULT, EK_CHARGE, h, u, int(success), st.hpos[g, h, 0], st.hpos[g, h, 1])
        if success and is_transport(st, g, u) and horde_models(st, g, h) >= HORDE_WRECKS:
            horde_wrecks_transport(rng, g, st, h, u, tb)
    place_phase_noise(st, g, tb, PH_Z_ASSAULT)
    return success


@njit
def horde_wrecks_transport(rng, g, st, h, v, tb):
    """§8: transport v, charged successfully by horde h of 30 or more models, is wrecked at once (the
    horde is locked with nothing). Each passenger makes its close combat attacks against the chargers
    (its best weapon and Attacks, not charging, no strikes back); if they kill more than half of them
    (half rounded up, A-reading: more than ceil(n / 2)), the squad makes an emergency disembarkation
    within 6" of the wreck; otherwise every passenger dies and rises as a Zombie Brute in the horde
    (§4). The wreck becomes a zombie spawner (§10)."""
    n = horde_models(st, g, h)
    owner = st.minfo[g, v, 0, MI_OWNER]
    st.lock[g, v, h] = 0
    st.hst[g, h, HS_LOCKED] -= 1
    lose_hull_points(st, g, v, st.wounds[g, v, 0])
    st.pres[g, owner, PR_HORDE_WRECKS] += 1
    u = passengers(st, g, v)
    if u >= 0:
        killed = passengers_strike(rng, g, st, u, h, tb)
        st.pres[g, owner, PR_ZKILLED] += killed
        if killed > (n + 1) // 2:
            c = 0.5 * tb.prm[P_TABLE]
            disembark(st, g, u, v, c, c, EMERGENCY_IN, PH_Z_ASSAULT, tb)
        else:
            lost = models_alive(st, g, u)
            for m in range(st.wounds.shape[2]):
                if st.wounds[g, u, m] > 0:
                    make_brute(st, g, u, m, h, tb, PH_Z_ASSAULT)
            st.pres[g, owner, PR_PASSENGERS_LOST] += lost
            settle_unit(st, g, u, tb, PH_Z_ASSAULT)
    remove_if_empty(st, g, h)
    wreck_spawner(st, g, v, tb)
    settle_unit(st, g, v, tb, PH_Z_ASSAULT)


@njit
def passengers_strike(rng, g, st, u, h, tb):
    """§8: every model of squad u makes its close combat attacks at horde h (``melee_choice``'s weapon
    and Attacks, WS against the zombies' WS, not charging); the zombies do not strike back. Returns
    the zombies killed."""
    spec, out = st.w_spec[W_FIGHT], st.w_out[W_FIGHT]
    killed = 0
    for m in range(st.wounds.shape[2]):
        if st.wounds[g, u, m] <= 0 or horde_models(st, g, h) <= 0:
            continue
        t = majority_toughness(st, g, h, tb)
        w, attacks, _init = melee_choice(st, g, u, m, t, NONE, tb)
        melee_spec(spec, tb.weapons[w], st.stats[g, u, m], st.mflags[g, u, m], tb.zstats[ZK_ZOMBIE, WS], t, NONE,
                   False, True, 0, tb.ws_chart, tb.wound_chart)
        clear_out(out)
        strike_horde(rng, g, attacks, spec, st, h, NONE, False, tb, out)
        killed += out[OUT_KILLED]
    return killed


@njit
def _second_target(st, g, h, tb):
    """The closest unit horde h could charge (within 12") that no group of it charges yet (A25:
    a horde splits to charge *more* units), -1 if none."""
    best, best_d = -1, INF
    for u in range(st.ust.shape[1]):
        if st.w_charged[u] or not unit_alive(st, g, u):
            continue
        d = unit_gap_horde(st, g, u, h)
        if d <= tb.prm[P_CHARGE_RANGE] and d < best_d:
            best, best_d = u, d
    return best


@njit
def split_charges(rng, g, st, h, u, tb):
    """A25: a horde that could charge several units splits off groups of 20 plain Zombies, one for
    each other unit (§5: "split up to charge more than one unit"; never a second group at a unit it
    already charges, the main target u included), the most models staying on the closest; every
    group keeps at least 20."""
    if tb.prm[P_SPLIT_CHARGE] == 0:
        return
    least = int(tb.prm[P_SPLIT_MIN])
    for v in range(st.w_charged.shape[0]):
        st.w_charged[v] = False
    st.w_charged[u] = True
    for _ in range(st.w_charged.shape[0]):
        if st.hst[g, h, HS_Z] < least or horde_models(st, g, h) - least < least:
            return
        v = _second_target(st, g, h, tb)
        if v < 0:
            return
        st.w_charged[v] = True
        st.hst[g, h, HS_Z] -= least
        refresh_radius(st, g, h, tb)
        group = new_horde(st, g, st.hpos[g, h, 0], st.hpos[g, h, 1], least, 0, tb)
        charge(rng, g, st, group, v, tb)


@njit
def zombie_charges(rng, g, st, tb):
    """Every free horde charges the unit holding the closest player model if it is within 12" (P1)."""
    n = st.hst.shape[1]
    for h in range(n):
        st.w_mark_h[h] = is_alive(st, g, h) and st.hst[g, h, HS_LOCKED] == 0
    for h in range(n):
        if not st.w_mark_h[h] or not is_alive(st, g, h) or st.hst[g, h, HS_LOCKED] != 0:
            continue
        u = closest_unit(st, g, h)
        if u < 0 or unit_gap_horde(st, g, u, h) > tb.prm[P_CHARGE_RANGE]:
            continue
        split_charges(rng, g, st, h, u, tb)
        charge(rng, g, st, h, u, tb)
    merge_hordes(st, g, tb)
