"""The players' Shooting and Psychic phases and Overwatch (zombie-apocalypse §6, §9.3, P4-P7, P12).

Each unit picks a target horde (P12), each of its models the weapon that kills most there (its one
weapon of the phase, core §6.1); the unit fires if that is worth its noise (P5), else it may Run
(P4). Instead of firing, one model of the unit may throw one grenade (core §6.1-§6.2: range 8",
a blast for frag and the other blast grenades; krak grenades only matter against vehicles, core
§8, and there are none) when the policy's rule says so (``POL_GRENADE``); the throw is an
Assault 1 weapon fired (catalogue §3.2) for the noise table. Re-rolls to hit are optional (Shhh!,
§6) and cost D3 zombies a phase (P6). Ordnance and Large Blasts are never fired (§2). Overwatch is
fired at full BS and makes half the noise (§6); no grenade is thrown in Overwatch (a Blast,
core §6.2).
"""

from __future__ import annotations

from kernels.apocalypse.choices import pick, plays_random
from kernels.apocalypse.columns import (
    BLIND_NONE,
    EK_PSYCHIC,
    EK_SHOOT,
    G_TURN,
    HS_BLIND,
    HS_BLIND_HIT,
    HS_LOCKED,
    MI_FIRE_POINTS,
    MI_ML,
    MI_ROLE,
    P_BLIND_ON,
    P_GRENADE_QUIET,
    P_MOO_ALL,
    P_NOISE_HEAVY_BONUS,
    P_NOISE_PER_SHOT,
    P_NOISE_TEMPLATE,
    P_PRIORITY_SHOOT,
    P_PSYCHIC,
    P_TURNS,
    PH_PSYCHIC,
    PH_SHOOTING,
    POL_BLIND,
    POL_FIRE_UNTIL,
    POL_FORCE,
    POL_GRENADE,
    POL_HEAVY_WARLORD,
    POL_REROLL,
    POL_RUN,
    POL_SHOOT,
    POL_TARGET,
    POL_THREAT,
    POL_TRAIT,
    PR_GRENADES,
    PR_ZKILLED,
    ROLE_TROOPER,
    SRC_OVERWATCH,
    SRC_PSYCHIC,
    SRC_REROLL,
    ST_FORCE,
    TRAIT_PRIORITY,
    US_ALIVE,
    US_DISEMBARKED,
    US_EMBARKED,
    US_FALLING_BACK,
    US_MOVED,
    US_NO_CHARGE,
    US_OVERWATCHED,
    US_OWNER,
    US_RAN,
    US_REROLLED,
    US_SHOT,
    US_TYPE,
)
from kernels.apocalypse.combat import gets_hot
from kernels.apocalypse.geometry import zone_distance
from kernels.apocalypse.hordes import horde_inv, horde_models, is_alive, jugg_active, remove_if_empty
from kernels.apocalypse.movement import may_run, move_unit, unit_goal, wander
from kernels.apocalypse.noise import make_noise, noise_of_weapon, overwatch_noise, psychic_noise, reroll_noise
from kernels.apocalypse.state import OUT_REROLLED, W_SHOOT
from kernels.apocalypse.strike import majority_toughness, strike_horde
from kernels.apocalypse.terrain import cover_at
from kernels.apocalypse.trace import log_event
from kernels.apocalypse.units import (
    any_rule,
    offence_rerolls,
    settle_unit,
    unit_alive,
    unit_gap_horde,
    unit_has_trait,
)
from kernels.apocalypse.vehicles import is_vehicle, may_move, snap_only
from kernels.jit import njit
from kernels.rng import d6
from kernels.w40k.attack_spec import attack_strength, hit_on_ranged, shooting_spec
from kernels.w40k.columns import (
    BS,
    G_BLAST_SMALL_MODELS,
    G_TEMPLATE_MODELS,
    K_GRENADE,
    K_HEAVY,
    K_MELEE,
    K_PISTOL,
    K_RAPID_FIRE,
    K_SALVO,
    MR_FLEET,
    MR_PSYKER,
    MR_RELENTLESS,
    MR_SLOW_AND_PURPOSEFUL,
    NONE,
    OUT_KILLED,
    OUT_ONES,
    RR_FAILED,
    RR_NONE,
    RR_ONES,
    SP_EXTRA_REROLL,
    SP_GETS_HOT,
    SP_HIT_ON2,
    SP_HIT_REROLL,
    SP_TWIN_LINKED,
    SP_WOUND_REROLL,
    W_AP,
    W_BLAST,
    W_FLAGS,
    W_KIND,
    W_RANGE,
    W_SHOTS,
    W_SHOTS_FROM_A,
    W_SHOTS_STAT,
    W_SMODE,
    W_SVAL,
    W_TEMPLATE,
    WR_BLIND,
    WR_FORCE,
    WR_NO_DAMAGE,
    A,
    S,
)
from kernels.w40k.combat import best_save, clear_out

TARGET_PRIORITY_RANGE = 12.0  # §7 trait 6 [V]

# ------------------------------------------------------------------ cover of a horde


@njit
def horde_cover(st, g, h, tb):
    """A horde's cover save against shooting (``terrain.cover_at``: the zone and ruins 4+, Foggy's
    Shrouded +2 or 5+ in the open, §3.1, §6)."""
    return cover_at(st, g, st.hpos[g, h, 0], st.hpos[g, h, 1], tb, NONE)


# ------------------------------------------------------------------ weapons and shots


@njit
def is_stationary(st, g, u, m):
    moved = st.ust[g, u, US_MOVED] != 0
    return not moved or (st.mflags[g, u, m] & (MR_RELENTLESS | MR_SLOW_AND_PURPOSEFUL)) != 0


@njit
def shots_of(weapon, attacks, distance, stationary):
    """Attack dice of one model's weapon at ``distance`` (core §6.2): Rapid Fire doubles within half
    range; Salvo fires its moving count at half range after a move; 0 = it cannot fire."""
    rng_in = weapon[W_RANGE]
    if distance > rng_in:
        return 0
    if weapon[W_TEMPLATE] != 0 or weapon[W_BLAST] != 0:
        return 1
    if weapon[W_SHOTS_FROM_A] != 0:
        return attacks
    kind = weapon[W_KIND]
    if kind == K_RAPID_FIRE:
        return weapon[W_SHOTS] * (2 if distance <= 0.5 * rng_in else 1)
    if kind == K_SALVO:
        if stationary:
            return weapon[W_SHOTS_STAT]
        return weapon[W_SHOTS] if distance <= 0.5 * rng_in else 0
    return weapon[W_SHOTS]


@njit
def may_fire(weapon, snap, overwatch):
    """Never fired: melee weapons, grenades (not thrown), markerlights, Ordnance and Large Blasts
    (§2); Blasts never as Snap Shots or in Overwatch (core §6.2, §7.2)."""
    kind = weapon[W_KIND]
    if kind == K_MELEE or kind == K_GRENADE or (weapon[W_FLAGS] & WR_NO_DAMAGE) != 0 or weapon[W_BLAST] == 2:
        return False
    if weapon[W_BLAST] != 0 and (snap or overwatch):
        return False
    return True


@njit
def may_throw(weapon):
    """A grenade a model may throw in the Shooting phase (core §6.1, §6.2): one with a blast (frag,
    plasma, defensive, psyk-out, blight; catalogue §3.2). Krak grenades and melta bombs only matter
    against vehicles (core §8) and the simulator has none, so they are never thrown."""
    return weapon[W_KIND] == K_GRENADE and weapon[W_BLAST] == 1 and (weapon[W_FLAGS] & WR_NO_DAMAGE) == 0


@njit
def is_snap(weapon, stationary, falling_back):
    """Heavy weapons after a move (not Relentless) and a falling-back unit fire Snap Shots."""
    return falling_back or (weapon[W_KIND] == K_HEAVY and not stationary)


@njit
def expected_kills(weapon, bs, user_s, shots, snap, alive, t, inv, cover, fnp, tb):
    """Rough expected zombies killed by one model's weapon (P5's yardstick, not a rule)."""
    if shots <= 0:
        return 0.0
    if weapon[W_TEMPLATE] != 0:
        per, p_hit = float(min(alive, tb.geom[G_TEMPLATE_MODELS])), 1.0
    elif weapon[W_BLAST] != 0:
        per, p_hit = 0.6 * min(alive, tb.geom[G_BLAST_SMALL_MODELS]), 1.0
    else:
        need, _ = hit_on_ranged(bs, snap)
        per, p_hit = 1.0, max(0.0, (7.0 - need) / 6.0)
    strength = attack_strength(weapon[W_SMODE], weapon[W_SVAL], user_s, 0)
    wound_on = tb.wound_chart[min(max(strength, 1), 10), t] if strength > 0 else 4
    p_wound = max(0.0, (7.0 - wound_on) / 6.0)
    save = best_save(weapon[W_AP], NONE, inv, cover)
    p_fail = min(1.0, (save - 1.0) / 6.0)
    p_fnp = 1.0 if fnp >= NONE else (fnp - 1.0) / 6.0
    return shots * p_hit * per * p_wound * p_fail * p_fnp


@njit
def noise_estimate(weapon, tb):
    """The mean noise of firing one weapon (§9.3): 1, 2, D3 = 2, 2D3 + N = 4 + N; template + 4."""
    kind = weapon[W_KIND]
    if kind == K_PISTOL:
        base = 1.0
    elif kind == K_RAPID_FIRE:
        base = 2.0
    elif kind == K_HEAVY or kind == K_SALVO:
        base = 4.0 + tb.prm[P_NOISE_HEAVY_BONUS]
    elif kind == K_GRENADE and tb.prm[P_GRENADE_QUIET] != 0:
        base = 0.0
    else:
        base = 2.0  # Assault (a thrown grenade is Assault 1)
    if weapon[W_TEMPLATE] != 0:
        base += tb.prm[P_NOISE_TEMPLATE]
    return base


@njit
def best_weapon(st, g, u, m, h, distance, overwatch, heavy_ok, tb):
    """(gear slot, shots, snap, expected kills, expected noise) of model m's best weapon at horde h;
    gear slot -1 when it has none that can fire."""
    stationary = is_stationary(st, g, u, m)
    falling = st.ust[g, u, US_FALLING_BACK] != 0
    alive = horde_models(st, g, h)
    t = majority_toughness(st, g, h, tb)
    inv = horde_inv(st, g, h, tb)
    cover = horde_cover(st, g, h, tb)
    fnp = 6 if jugg_active(st, g, h, tb) else NONE
    best, best_shots, best_snap, best_ev, best_noise = -1, 0, False, 0.0, 0.0
    for k in range(st.gear.shape[3]):
        w = st.gear[g, u, m, k]
        if w < 0:
            continue
        weapon = tb.weapons[w]
        snap = (is_snap(weapon, stationary, falling) and not overwatch) or snap_only(st, g, u)  # apocalypse V5, §10
        if not may_fire(weapon, snap, overwatch) or (weapon[W_KIND] == K_HEAVY and not heavy_ok):
            continue
        shots = shots_of(weapon, st.stats[g, u, m, A], distance, stationary or overwatch)
        ev = expected_kills(weapon, st.stats[g, u, m, BS], st.stats[g, u, m, S], shots, snap, alive, t, inv, cover,
                            fnp, tb)
        if shots > 0 and ev > best_ev:
            best, best_shots, best_snap, best_ev, best_noise = k, shots, snap, ev, noise_estimate(weapon, tb)
    return best, best_shots, best_snap, best_ev, best_noise


@njit
def best_grenade(st, g, u, m, h, distance, tb):
    """(gear slot, expected kills) of model m's best grenade thrown at horde h; slot -1 when it has
    none it may throw or the horde is beyond the throw's 8" (core §6.2)."""
    alive = horde_models(st, g, h)
    t = majority_toughness(st, g, h, tb)
    inv = horde_inv(st, g, h, tb)
    cover = horde_cover(st, g, h, tb)
    fnp = 6 if jugg_active(st, g, h, tb) else NONE
    best, best_ev = -1, 0.0
    for k in range(st.gear.shape[3]):
        w = st.gear[g, u, m, k]
        if w < 0 or not may_throw(tb.weapons[w]):
            continue
        weapon = tb.weapons[w]
        shots = shots_of(weapon, st.stats[g, u, m, A], distance, True)
        ev = expected_kills(weapon, st.stats[g, u, m, BS], st.stats[g, u, m, S], shots, False, alive, t, inv, cover,
                            fnp, tb)
        if shots > 0 and ev > best_ev:
            best, best_ev = k, ev
    return best, best_ev


@njit
def throw_gain(mode, ev_throw, ev_weapon):
    """How much better model's throw is than its own weapon, or -1 if it should not throw: policy 0
    never, 1 only when the throw's expected kills beat the weapon's, 2 whenever it can throw."""
    if mode == 0 or ev_throw <= 0.0:
        return -1.0
    gain = ev_throw - ev_weapon
    if mode == 1 and gain <= 0.0:
        return -1.0
    return gain + 1e9 if mode == 2 else gain  # mode 2: any thrower beats no thrower


@njit
def is_blind_grenade(weapon):
    """A defensive grenade: thrown as a Blind blast (core §8, §12; catalogue §3.2)."""
    return may_throw(weapon) and (weapon[W_FLAGS] & WR_BLIND) != 0


@njit
def wants_blind(st, g, u, h, distance, tb):
    """POL_BLIND 1: a unit throws a Blind grenade at a horde that could charge it next turn (within
    ``threat_in``) and is not Blind already nor hit by Blind this phase; 0: a Blind grenade is
    weighed by its expected kills only, like any other."""
    p = st.ust[g, u, US_OWNER]
    if tb.policy[p, POL_BLIND] == 0 or tb.prm[P_BLIND_ON] == 0 or distance > tb.policy[p, POL_THREAT]:
        return False
    return st.hst[g, h, HS_BLIND] == BLIND_NONE and st.hst[g, h, HS_BLIND_HIT] == 0


@njit
def blind_thrower(st, g, u, h, distance, heavy_ok, tb):
    """(model, grenade slot, expected kills of the throw, expected kills given up, noise given up)
    of the model carrying a Blind grenade whose own weapon would kill least; model -1 if none."""
    best_m, best_k, best_ev, best_lost, best_noise = -1, -1, 0.0, 0.0, 0.0
    for m in range(st.wounds.shape[2]):
        if st.wounds[g, u, m] <= 0:
            continue
        for k in range(st.gear.shape[3]):
            w = st.gear[g, u, m, k]
            if w < 0 or not is_blind_grenade(tb.weapons[w]):
                continue
            wk, _s, _sn, ev_w, nz_w = best_weapon(st, g, u, m, h, distance, False, heavy_ok, tb)
            if wk < 0:
                ev_w, nz_w = 0.0, 0.0
            if best_m < 0 or ev_w < best_lost:
                ev = expected_kills(tb.weapons[w], st.stats[g, u, m, BS], st.stats[g, u, m, S], 1, False,
                                    horde_models(st, g, h), majority_toughness(st, g, h, tb), horde_inv(st, g, h, tb),
                                    horde_cover(st, g, h, tb), 6 if jugg_active(st, g, h, tb) else NONE, tb)
                best_m, best_k, best_ev, best_lost, best_noise = m, k, ev, ev_w, nz_w
            break
    return best_m, best_k, best_ev, best_lost, best_noise


@njit
def choose_thrower(st, g, u, h, distance, heavy_ok, tb):
    """(model, grenade slot, expected kills of the throw, expected kills given up, noise of the
    weapon given up) of the one model of unit u that throws a grenade at horde h instead of firing
    (core §6.1): a Blind grenade at a threatening horde (``wants_blind``), else the one whose throw
    gains most; model -1 when none throws (``POL_GRENADE``)."""
    mode = int(tb.policy[st.ust[g, u, US_OWNER], POL_GRENADE])
    best_m, best_k, best_ev, best_lost, best_noise, best_gain = -1, -1, 0.0, 0.0, 0.0, -1.0
    if mode == 0 or distance > 8.0 or st.ust[g, u, US_EMBARKED] != 0:  # none thrown from a transport (choice)
        return best_m, best_k, best_ev, best_lost, best_noise
    if wants_blind(st, g, u, h, distance, tb):
        bm, bk, bev, blost, bnoise = blind_thrower(st, g, u, h, distance, heavy_ok, tb)
        if bm >= 0:
            return bm, bk, bev, blost, bnoise
    for m in range(st.wounds.shape[2]):
        if st.wounds[g, u, m] <= 0:
            continue
        k, ev = best_grenade(st, g, u, m, h, distance, tb)
        if k < 0:
            continue
        wk, _s, _sn, ev_w, nz_w = best_weapon(st, g, u, m, h, distance, False, heavy_ok, tb)
        if wk < 0:
            ev_w, nz_w = 0.0, 0.0
        gain = throw_gain(mode, ev, ev_w)
        if gain > best_gain:
            best_m, best_k, best_ev, best_lost, best_noise, best_gain = m, k, ev, ev_w, nz_w, gain
    return best_m, best_k, best_ev, best_lost, best_noise


# ------------------------------------------------------------------ targets (P12, trait 6)


@njit
def max_range(st, g, u, tb):
    best = 0.0
    for m in range(st.wounds.shape[2]):
        if st.wounds[g, u, m] <= 0:
            continue
        for k in range(st.gear.shape[3]):
            w = st.gear[g, u, m, k]
            if w >= 0 and may_fire(tb.weapons[w], False, False):
                best = max(best, float(tb.weapons[w, W_RANGE]))
    return best


@njit
def warlord_distance(st, g, h):
    """Gap from horde h to the nearest unit holding a Warlord."""
    best = 1e18
    for p in range(st.wl_unit.shape[1]):
        u = st.wl_unit[g, p]
        if u >= 0:
            best = min(best, unit_gap_horde(st, g, u, h))
    return best


@njit
def choose_target(st, g, u, tb):
    """The horde unit u shoots (P12): one within 12" if a Target Priority Warlord is with it (A34);
    else the horde closest to a Warlord if one threatens it, then one with the Juggernaut bonus,
    then the closest; policy 0: the closest. -1 when none is in range. Hordes locked in combat
    cannot be targeted (core §6.1)."""
    p = st.ust[g, u, US_OWNER]
    reach = max_range(st, g, u, tb)
    priority = unit_has_trait(st, g, u, TRAIT_PRIORITY, tb)
    threat = tb.policy[p, POL_THREAT]
    by_policy = tb.policy[p, POL_TARGET] != 0
    best, best_key = -1, 1e18
    for h in range(st.hst.shape[1]):
        if not is_alive(st, g, h) or st.hst[g, h, HS_LOCKED] > 0:
            continue
        d = unit_gap_horde(st, g, u, h)
        if d > reach:
            continue
        key = d
        if priority and d <= TARGET_PRIORITY_RANGE:
            key = -1e9 + d
        elif by_policy:
            wd = warlord_distance(st, g, h)
            if wd <= threat:
                key = -1e6 + wd
            elif jugg_active(st, g, h, tb):
                key = -1e3 + d
        if key < best_key:
            best, best_key = h, key
    return best


@njit
def threatened(st, g, u, tb):
    """A horde could charge unit u next turn (within the policy's threat range, P5)."""
    threat = tb.policy[st.ust[g, u, US_OWNER], POL_THREAT]
    for h in range(st.hst.shape[1]):
        if is_alive(st, g, h) and st.hst[g, h, HS_LOCKED] == 0 and unit_gap_horde(st, g, u, h) <= threat:
            return True
    return False


# ------------------------------------------------------------------ firing


@njit
def _rerolls_wanted(st, g, u, h, overwatch, tb):
    """P6: use optional to-hit re-rolls 0 never, 1 only at a horde within 12" of a Warlord, 2 always.
    In Overwatch (the Assault phase) re-rolls are not optional."""
    if overwatch:
        return True
    mode = int(tb.policy[st.ust[g, u, US_OWNER], POL_REROLL])
    if mode == 2:
        return True
    return mode == 1 and warlord_distance(st, g, h) <= TARGET_PRIORITY_RANGE


@njit
def _apply_rerolls(spec, use, priority_hit, priority_all):
    """Shhh! (§6): without re-rolls the to-hit re-roll, BS 6+ re-roll and blast re-roll go; Target
    Priority adds re-rolls of 1s (all failures for a BS 5+ Warlord)."""
    if priority_all:
        spec[SP_HIT_REROLL] = RR_FAILED
    elif priority_hit and spec[SP_HIT_REROLL] == RR_NONE:
        spec[SP_HIT_REROLL] = RR_ONES
    if not use:
        spec[SP_HIT_REROLL] = RR_NONE
        spec[SP_HIT_ON2] = 0
        spec[SP_TWIN_LINKED] = 0
        spec[SP_EXTRA_REROLL] = 0


@njit
def _priority(st, g, u, distance, tb):
    """(re-roll 1s to hit and wound, re-roll every failed hit): Target Priority (§7 trait 6)."""
    for p in range(st.wl_unit.shape[1]):
        if st.wl_unit[g, p] == u and int(tb.policy[p, POL_TRAIT]) == TRAIT_PRIORITY:
            wm = st.wl_slot[g, p]
            return distance <= TARGET_PRIORITY_RANGE, st.stats[g, u, wm, BS] >= 5
    return False, False


@njit
def vehicle_weapon_shots(st, g, u, k, distance, overwatch, heavy_ok, tb):
    """(shots, snap) of gear slot k of vehicle u's model at ``distance`` (0 shots: it cannot fire)."""
    w = st.gear[g, u, 0, k]
    if w < 0:
        return 0, False
    weapon = tb.weapons[w]
    snap = (is_snap(weapon, True, st.ust[g, u, US_FALLING_BACK] != 0) and not overwatch) or snap_only(st, g, u)
    if not may_fire(weapon, snap, overwatch) or (weapon[W_KIND] == K_HEAVY and not heavy_ok):
        return 0, False
    return shots_of(weapon, st.stats[g, u, 0, A], distance, True), snap


@njit
def _fire_weapon(rng, g, st, u, m, h, k, shots, snap, overwatch, use_rerolls, prio_hit, prio_all, offence_all, tb):
    """Model m of unit u fires gear slot k at horde h: (zombies killed, to-hit re-rolls, noise rolled)."""
    spec, out = st.w_spec[W_SHOOT], st.w_out[W_SHOOT]
    weapon = tb.weapons[st.gear[g, u, m, k]]
    t = majority_toughness(st, g, h, tb)
    shooting_spec(spec, weapon, st.stats[g, u, m], st.mflags[g, u, m], t, NONE, snap, overwatch, 0,
                  tb.wound_chart, tb.geom)
    _apply_rerolls(spec, use_rerolls, prio_hit and not overwatch, prio_all and not overwatch)
    if prio_hit and not overwatch and spec[SP_WOUND_REROLL] == RR_NONE:
        spec[SP_WOUND_REROLL] = RR_ONES
    if offence_all:
        spec[SP_WOUND_REROLL] = RR_FAILED  # A30 'all': Master of Offence in every phase
    clear_out(out)
    strike_horde(rng, g, shots, spec, st, h, horde_cover(st, g, h, tb),
                 st.minfo[g, u, m, MI_ROLE] != ROLE_TROOPER, tb, out)
    killed, rerolled = out[OUT_KILLED], out[OUT_REROLLED]
    if spec[SP_GETS_HOT] != 0 and weapon[W_BLAST] == 0:
        gets_hot(rng, g, st, u, m, out[OUT_ONES])
    amount, source = noise_of_weapon(rng, g, weapon, tb)
    amount *= shots if tb.prm[P_NOISE_PER_SHOT] != 0 else 1  # A16: per weapon, or per shot
    if not overwatch:
        make_noise(st, g, u, amount, source)
    if weapon[W_KIND] == K_HEAVY or weapon[W_KIND] == K_RAPID_FIRE or weapon[W_KIND] == K_SALVO:
        if (st.mflags[g, u, m] & (MR_RELENTLESS | MR_SLOW_AND_PURPOSEFUL)) == 0:
            st.ust[g, u, US_NO_CHARGE] = 1
    return killed, rerolled, amount



@njit
def fire_unit(rng, g, st, u, h, overwatch, tb, phase):
    """Every model of unit u fires its best weapon at horde h. Returns (zombies killed, noise rolled):
    the noise is made here, except in Overwatch where the caller halves the total (§6)."""
    distance = unit_gap_horde(st, g, u, h)
    p = st.ust[g, u, US_OWNER]
    heavy_ok = overwatch or tb.policy[p, POL_HEAVY_WARLORD] == 0 or warlord_distance(st, g, h) <= tb.policy[
        p, POL_THREAT]
    use_rerolls = _rerolls_wanted(st, g, u, h, overwatch, tb)
    prio_hit, prio_all = _priority(st, g, u, distance, tb)
    offence_all = tb.prm[P_MOO_ALL] != 0 and offence_rerolls(st, g, u, tb)
    killed, noise, rerolled = 0, 0, 0
    enough = tb.policy[p, POL_FIRE_UNTIL] * horde_models(st, g, h)
    expected = 0.0
    thrower, grenade, ev_throw = -1, -1, 0.0
    if not overwatch:  # a grenade is a Blast: never in Overwatch (core §6.2)
        thrower, grenade, ev_throw, _lost, _nz = choose_thrower(st, g, u, h, distance, heavy_ok, tb)
    for m in range(st.wounds.shape[2]):
        if st.wounds[g, u, m] <= 0 or horde_models(st, g, h) <= 0:
            continue
        if enough > 0.0 and expected >= enough and not overwatch:
            break  # P5: the models still to fire would only add noise
        if m == thrower:  # core §6.1: it throws one grenade instead of firing
            k, shots, snap, ev = grenade, 1, False, ev_throw
            st.pres[g, p, PR_GRENADES] += 1
        else:
            k, shots, snap, ev, _n = best_weapon(st, g, u, m, h, distance, overwatch, heavy_ok, tb)
        if k < 0:
            continue
        expected += ev
        kk, rr, nn = _fire_weapon(rng, g, st, u, m, h, k, shots, snap, overwatch, use_rerolls, prio_hit, prio_all,
                                  offence_all, tb)
        killed, rerolled, noise = killed + kk, rerolled + rr, noise + nn
        if is_vehicle(st, g, u):  # apocalypse V1: a vehicle fires every weapon it has (Relentless: after moving too)
            for k2 in range(st.gear.shape[3]):
                if k2 == k or horde_models(st, g, h) <= 0:
                    continue
                shots2, snap2 = vehicle_weapon_shots(st, g, u, k2, distance, overwatch, heavy_ok, tb)
                if shots2 > 0:
                    kk, rr, nn = _fire_weapon(rng, g, st, u, m, h, k2, shots2, snap2, overwatch, use_rerolls,
                                              prio_hit, prio_all, offence_all, tb)
                    killed, rerolled, noise = killed + kk, rerolled + rr, noise + nn
    if rerolled > 0 and st.ust[g, u, US_REROLLED] == 0:
        extra = reroll_noise(rng, g, tb)
        st.ust[g, u, US_REROLLED] = 1
        noise += extra
        if not overwatch:
            make_noise(st, g, u, extra, SRC_REROLL)
    st.pres[g, p, PR_ZKILLED] += killed
    remove_if_empty(st, g, h)
    log_event(st, g, phase, EK_SHOOT, u, h, killed, float(noise), 1.0 if overwatch else 0.0)
    settle_unit(st, g, u, tb, phase)  # Gets Hot may have killed its last model
    return killed, noise


@njit
def fire_overwatch(rng, g, st, u, h, tb, phase):
    """Overwatch at a charging horde (§6): full BS, half the noise, made as the charge resolves."""
    if st.ust[g, u, US_OVERWATCHED] != 0 or not unit_alive(st, g, u):
        return 0
    st.ust[g, u, US_OVERWATCHED] = 1
    _killed, noise = fire_unit(rng, g, st, u, h, True, tb, phase)
    half = overwatch_noise(noise)
    make_noise(st, g, u, half, SRC_OVERWATCH)
    return half


# ------------------------------------------------------------------ the phase


@njit
def must_shoot(st, g, u, h, tb):
    """Target Priority (§7 trait 6, A34): "if there is a unit within 12\" they must shoot at it" - the
    Warlord's unit shoots its target within 12" whatever the policy (``target_priority =
    "target_only"``: the trait only forbids another target)."""
    return (tb.prm[P_PRIORITY_SHOOT] != 0 and unit_has_trait(st, g, u, TRAIT_PRIORITY, tb)
            and unit_gap_horde(st, g, u, h) <= TARGET_PRIORITY_RANGE)


@njit
def shooting_decision(st, g, u, h, tb):
    """P5: 0 never shoot, 1 shoot when the expected kills beat the expected noise or a horde
    threatens the unit, 2 always; a Target Priority unit with its target within 12" always does."""
    mode = int(tb.policy[st.ust[g, u, US_OWNER], POL_SHOOT])
    if h < 0:
        return False
    if must_shoot(st, g, u, h, tb):
        return True
    if mode == 0:
        return False
    if mode == 2:
        return True
    if threatened(st, g, u, tb):
        return True
    p = st.ust[g, u, US_OWNER]
    heavy_ok = tb.policy[p, POL_HEAVY_WARLORD] == 0 or warlord_distance(st, g, h) <= tb.policy[p, POL_THREAT]
    distance = unit_gap_horde(st, g, u, h)
    kills, noise = 0.0, 0.0
    for m in range(st.wounds.shape[2]):
        if st.wounds[g, u, m] > 0:
            k, _s, _sn, ev, nz = best_weapon(st, g, u, m, h, distance, False, heavy_ok, tb)
            if k >= 0:
                kills += ev
                noise += nz
    thrower, grenade, ev_throw, lost, nz_lost = choose_thrower(st, g, u, h, distance, heavy_ok, tb)
    if thrower >= 0:  # the throw replaces that model's own shot (core §6.1)
        kills += ev_throw - lost
        noise += noise_estimate(tb.weapons[st.gear[g, u, thrower, grenade]], tb) - nz_lost
    return kills > noise


@njit
def run_decision(st, g, u, tb):
    """P4: 0 never run, 1 run when behind the plan's schedule, 2 always (a unit that holds never runs)."""
    mode = int(tb.policy[st.ust[g, u, US_OWNER], POL_RUN])
    if mode == 0 or not may_run(st.ust[g, u, US_TYPE]) or not may_move(st, g, u):  # apocalypse V5
        return False
    if stays_put(st, g, u):
        return False
    hold, gx, gy = unit_goal(st, g, u, tb)
    if hold:
        return False
    if mode == 2:
        return True
    left = max(0, int(tb.prm[P_TURNS]) - st.gst[g, G_TURN])  # Movement phases to come
    d = zone_distance(st.upos[g, u, 0], st.upos[g, u, 1], tb.prm)
    return d > 6.0 * left


@njit
def run_unit(rng, g, st, u, tb):
    """Run D6" towards the goal (Fleet re-rolls a 1-3; core §6.10); the zone does not slow a Run. The
    random baseline runs on a course it draws (``wander``)."""
    roll = d6(rng, g)
    if any_rule(st, g, u, MR_FLEET) and roll <= 3:
        roll = d6(rng, g)
    if plays_random(st, g, u, tb):
        moved = wander(rng, g, st, u, float(roll), False, tb, PH_SHOOTING)
    else:
        _hold, gx, gy = unit_goal(st, g, u, tb)
        moved = move_unit(rng, g, st, u, gx, gy, float(roll), -1, False, tb, PH_SHOOTING)
    st.umoved[g, u] += moved
    st.ust[g, u, US_RAN] = 1


@njit
def stays_put(st, g, u):
    """A unit aboard a transport, or that got out of one this turn, does not Run (apocalypse V11, choice)."""
    return st.ust[g, u, US_EMBARKED] != 0 or st.ust[g, u, US_DISEMBARKED] != 0


@njit
def _is_locked(st, g, u):
    for h in range(st.lock.shape[2]):
        if st.lock[g, u, h] != 0:
            return True
    return False


@njit
def shooting_phase(rng, g, st, tb):
    """Every free unit shoots (P5, P12) or runs (P4)."""
    for u in range(st.ust.shape[1]):
        if st.ust[g, u, US_ALIVE] == 0 or _is_locked(st, g, u) or st.ust[g, u, US_FALLING_BACK] != 0:
            continue
        v = st.ust[g, u, US_EMBARKED] - 1  # §8: aboard, every model fires from the hull if it has a fire point
        if v >= 0 and st.minfo[g, v, 0, MI_FIRE_POINTS] <= 0:
            continue
        if plays_random(st, g, u, tb):
            _random_shooting(rng, g, st, u, tb)
            continue
        h = choose_target(st, g, u, tb)
        if shooting_decision(st, g, u, h, tb):
            st.ust[g, u, US_SHOT] = h + 1
            fire_unit(rng, g, st, u, h, False, tb, PH_SHOOTING)
        elif run_decision(st, g, u, tb):
            run_unit(rng, g, st, u, tb)


@njit
def _may_target(st, g, u, h, reach, within):
    """Horde h is alive, not locked in combat (core §6.1), within ``reach`` (and 12" with ``within``)."""
    if not is_alive(st, g, h) or st.hst[g, h, HS_LOCKED] > 0:
        return False
    d = unit_gap_horde(st, g, u, h)
    return d <= reach and (not within or d <= TARGET_PRIORITY_RANGE)


@njit
def random_target(rng, g, st, u, tb):
    """The random baseline's target (kernels.apocalypse.choices): a horde unit u may shoot, drawn
    uniformly; one within 12" when a Target Priority Warlord is with it and one is there (A34).
    -1 when none is in range (no draw)."""
    reach = max_range(st, g, u, tb)
    within = False
    if unit_has_trait(st, g, u, TRAIT_PRIORITY, tb):
        for h in range(st.hst.shape[1]):
            within = within or _may_target(st, g, u, h, reach, True)
    n = 0
    for h in range(st.hst.shape[1]):
        n += _may_target(st, g, u, h, reach, within)
    if n == 0:
        return -1
    k = pick(rng, g, n)
    for h in range(st.hst.shape[1]):
        if _may_target(st, g, u, h, reach, within):
            if k == 0:
                return h
            k -= 1
    return -1


@njit
def _random_shooting(rng, g, st, u, tb):
    """The random baseline's Shooting phase for unit u: shoot its drawn target, Run, or neither, each
    as likely among those the rules allow (a Target Priority unit with its target within 12" shoots)."""
    h = random_target(rng, g, st, u, tb)
    shoot_ok = h >= 0
    run_ok = may_run(st.ust[g, u, US_TYPE]) and may_move(st, g, u) and not stays_put(st, g, u)  # apocalypse V5
    if shoot_ok and must_shoot(st, g, u, h, tb):
        k = 0
    else:
        k = pick(rng, g, 1 + int(shoot_ok) + int(run_ok)) + (0 if shoot_ok else 1)  # 0 shoot, 1 Run, 2 neither
        if k == 1 and not run_ok:
            k = 2
    if k == 0:
        st.ust[g, u, US_SHOT] = h + 1
        fire_unit(rng, g, st, u, h, False, tb, PH_SHOOTING)
    elif k == 1:
        run_unit(rng, g, st, u, tb)


# ------------------------------------------------------------------ the Psychic phase (core §13)


@njit
def _force_weapon(st, g, u, m, tb):
    for k in range(st.gear.shape[3]):
        w = st.gear[g, u, m, k]
        if w >= 0 and (tb.weapons[w, W_FLAGS] & WR_FORCE) != 0:
            return True
    return False


@njit
def _wants_force(rng, g, st, u, tb):
    """POL_FORCE: cast Force when the psyker's unit is locked or a horde is within 12" of it; the
    random baseline casts on a coin."""
    if plays_random(st, g, u, tb):
        return pick(rng, g, 2) == 1
    if tb.policy[st.ust[g, u, US_OWNER], POL_FORCE] == 0:
        return False
    if _is_locked(st, g, u):
        return True
    for h in range(st.hst.shape[1]):
        if is_alive(st, g, h) and unit_gap_horde(st, g, u, h) <= 12.0:
            return True
    return False


@njit
def psychic_phase(rng, g, st, tb):
    """The players' Warp Charge pool is D6 + their psykers' Mastery Levels, the zombies' Deny pool
    the same D6 (they have no psykers). A psyker with a force weapon may manifest Force (Warp Charge
    1) with two dice (two 6s: Perils, a Wound with no save); the zombies deny it on a 6 with one
    die while their pool lasts. Each power cast attracts 2 zombies (A19: no weapon type)."""
    for u in range(st.ust.shape[1]):
        for m in range(st.wounds.shape[2]):
            st.mstatus[g, u, m] &= ~ST_FORCE
    if tb.prm[P_PSYCHIC] == 0:
        return
    roll = d6(rng, g)
    pool, deny = roll, roll
    for u in range(st.ust.shape[1]):
        if st.ust[g, u, US_ALIVE] == 0:
            continue
        for m in range(st.wounds.shape[2]):
            if st.wounds[g, u, m] > 0 and (st.mflags[g, u, m] & MR_PSYKER) != 0:
                pool += st.minfo[g, u, m, MI_ML]
    for u in range(st.ust.shape[1]):
        if st.ust[g, u, US_ALIVE] == 0 or not _wants_force(rng, g, st, u, tb):
            continue
        for m in range(st.wounds.shape[2]):
            if pool <= 0:
                break
            if st.wounds[g, u, m] <= 0 or (st.mflags[g, u, m] & MR_PSYKER) == 0 or not _force_weapon(st, g, u, m, tb):
                continue
            dice = min(2, pool)
            pool -= dice
            successes, sixes = 0, 0
            for _ in range(dice):
                die = d6(rng, g)
                successes += die >= 4
                sixes += die == 6
            if sixes >= 2:
                st.wounds[g, u, m] -= 1  # Perils of the Warp: one Wound, no save (core §13 default)
            if successes == 0 or st.wounds[g, u, m] <= 0:
                continue
            make_noise(st, g, u, psychic_noise(rng, g, 0, False, tb), SRC_PSYCHIC)
            denied = False
            if deny > 0:
                deny -= 1
                denied = d6(rng, g) == 6 and successes <= 1
            if not denied:
                st.mstatus[g, u, m] |= ST_FORCE
            log_event(st, g, PH_PSYCHIC, EK_PSYCHIC, u, m, int(denied), 0.0, 0.0)
        settle_unit(st, g, u, tb, PH_PSYCHIC)  # Perils may have killed the psyker
