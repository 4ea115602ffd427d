"""The game loop (zombie40k §4): roll-off, each Player Turn in order, then the Zombie Turn, until
a squad escapes, nobody can play on, or the turn cap is reached.

``play_batch`` is the one parallel driver: game g of the batch is game ``first_game + g`` of
the run, played start to finish from its own stream, so results do not depend on threads or
batch sizes. With ``check`` set, invariants are tested after every phase and violations
counted in ``state.viol``.
"""

from __future__ import annotations

import numpy as np

from kernels.jit import by_ref, njit, njit_alloc
from kernels.rng import begin_streams, d6, end_streams, stream_start
from kernels.w40k.columns import (
    MR_BATTLE_FOCUS,
    MR_IT_WILL_NOT_DIE,
    MR_PSYKER,
    MR_SPLIT_FIRE,
    ST_CONCUSSED,
    W_FLAGS,
    WR_FORCE,
    W,
)
from kernels.zombie40k.assault import (
    can_charge,
    consolidate,
    fight,
    make_charge,
    may_charge_target,
    resolve_combat,
    squad_consolidation_goal,
)
from kernels.zombie40k.casualties import after_attack
from kernels.zombie40k.choices import coin, pick, plays_random
from kernels.zombie40k.columns import (
    EK_DEFIB,
    EK_END,
    EK_ORDER,
    EK_PSYCHIC,
    EK_SNAPSHOT,
    G_MELEE0,
    G_MELEE1,
    MS_CONCUSSION_ENDING,
    MS_CONVERTED,
    P_BOSS_KILL_POWERUP,
    P_COOP,
    P_DEFIB_AS_FALLEN,
    P_EMBARK_ON_RUN,
    P_EMFH,
    P_EMFH_ALL,
    P_EMFH_FAIL_ON,
    P_EMFH_RADIUS,
    P_EMFH_STOPS_FALL_BACK,
    P_GRUDGE,
    P_MAX_RESPAWNS,
    P_MAX_TURNS,
    P_MUSH_MOVE,
    P_ORDER,
    P_PSYCHIC,
    P_PVP_ZONE,
    P_TABLE_L,
    P_TABLE_W,
    PH_ASSAULT,
    PH_END,
    PH_MOVEMENT,
    PH_PSYCHIC,
    PH_RESPAWN,
    PH_ROLLOFF,
    PH_SETUP,
    PH_SHAMBLE,
    PH_SHOOTING,
    PH_Z_ASSAULT,
    PH_Z_RESPAWN,
    PH_Z_SHOOTING,
    POL_CHARGE,
    POL_CHARGE_MAX,
    POL_MEDPACK,
    POL_MUSHROOM,
    POL_PVP,
    POL_RUN,
    POL_TARGET,
    PR_EMBARKED,
    PR_EV_DISTANCE,
    PR_MODELS_LEFT,
    PR_RESPAWNS,
    PU_CHUCK,
    PU_DEFIBS,
    PU_MEDPACK_ANY,
    PU_MUSHROOM,
    PU_MUSHROOM_ON,
    R_REASON,
    R_TURNS,
    R_WINNER,
    REASON_ALL_DEAD,
    REASON_COOP_WIN,
    REASON_ESCAPE,
    REASON_TIMEOUT,
    US_CHARGED,
    US_CHARGED_COVER,
    US_CONSOLIDATE,
    US_EMBARKED,
    US_EMFH_LOST,
    US_FALLING_BACK,
    US_FIRED_HEAVY,
    US_FORCE,
    US_LOCKS,
    US_MOVED,
    US_NO_CHARGE,
    US_OUT,
    US_OVERWATCHED,
    US_PINNED,
    US_RAN,
    US_REGROUPED,
    US_RESPAWNS,
    US_SHOT_AT,
)
from kernels.zombie40k.geometry import ev_distance, unit_radius
from kernels.zombie40k.morale import begin_shooting_phase, blind_turn_ends, blind_turn_starts, end_shooting_phase
from kernels.zombie40k.movement import (
    can_embark,
    compulsory_moves,
    may_run,
    nearest_squad_goal,
    shamble_phase,
    squad_movement,
    squad_run,
)
from kernels.zombie40k.powerups import chuck_active, roll_powerup
from kernels.zombie40k.shooting import max_reach, may_shoot_unit, shoot, split_fire, unit_gap
from kernels.zombie40k.shop import kf_shop
from kernels.zombie40k.spawning import (
    build_model,
    power_from_pain,
    respawn_horde,
    respawn_squad,
    rolloff_order,
    setup_game,
    zombie_can_respawn,
)
from kernels.zombie40k.units import (
    alive,
    all_have,
    any_has,
    boss_unit,
    dice_for,
    enter_phase,
    in_combat,
    is_squad,
    label_phase,
    locked_with_zombies,
    locks,
    log_event,
    n_players,
    on_table,
    refresh_radius,
    stale_summaries,
    touch,
)

# ------------------------------------------------------------------------ player turn


@njit
def _start_player_turn(st, g, p, tb, rng):
    """A random player (kernels.zombie40k.choices) draws this turn's Medpack use (A33)."""
    st.pu[g, p, PU_MEDPACK_ANY] = coin(rng, g) if plays_random(tb, p) else int(tb.policy[p, POL_MEDPACK])
    s = st.ustate[g, p]
    s[US_MOVED] = 0
    s[US_RAN] = 0
    s[US_NO_CHARGE] = 0
    s[US_SHOT_AT] = 0
    s[US_CHARGED] = 0
    s[US_REGROUPED] = 0
    s[US_FIRED_HEAVY] = 0
    blind_turn_starts(st, g, p)


@njit
def _may_respawn(st, g, p, tb):
    limit = tb.prm[P_MAX_RESPAWNS]
    return (st.ustate[g, p, US_OUT] == 0 and st.ustate[g, p, US_EMBARKED] == 0
            and (limit < 0 or st.ustate[g, p, US_RESPAWNS] < limit))


@njit
def respawning_phase(st, g, p, tb, rng):
    """zombie40k §5.1: a wiped-out squad comes back, then rolls for a power-up."""
    if on_table(st, g, p) or not _may_respawn(st, g, p, tb):
        return
    respawn_squad(st, g, p, tb, rng)
    st.ustate[g, p, US_RESPAWNS] += 1
    st.pres[g, p, PR_RESPAWNS] += 1
    roll_powerup(st, g, p, tb, rng)


@njit
def _use_defibrillator(st, g, p, tb):
    """A33: at the start of the owner's turn a Defibrillator returns a dead model with 1 W, as
    it was built (``defib_revives``, docs/readings.md); a model that rose with a horde (Dead Men
    Walking) is not dead, it cannot be revived."""
    if st.pu[g, p, PU_DEFIBS] <= 0:
        return
    for m in range(st.wounds.shape[2]):
        if st.wounds[g, p, m] == 0 and tb.squad_wounds[p, m] > 0 and not st.mstatus[g, p, m] & MS_CONVERTED:
            if tb.prm[P_DEFIB_AS_FALLEN] == 0:
                build_model(st, g, p, m, tb)
            st.wounds[g, p, m] = 1
            touch(st, g, p)
            st.pu[g, p, PU_DEFIBS] -= 1
            refresh_radius(st, g, p, tb)
            log_event(st, g, EK_DEFIB, p, m, 0, 0, 0)
            return


@njit
def _activate_mushroom(st, g, p, tb, rng):
    """The Speed Pack: at once (policy 0) or when it lets the squad embark this turn (1)."""
    if st.pu[g, p, PU_MUSHROOM] == 0:
        return
    if plays_random(tb, p):
        if coin(rng, g) == 0:
            return  # the random baseline keeps it this turn on a coin
    elif tb.policy[p, POL_MUSHROOM] == 1:
        allowance = 6.0 + tb.prm[P_MUSH_MOVE]
        if not can_embark(st, g, p, allowance, tb):
            return
    st.pu[g, p, PU_MUSHROOM] = 0
    st.pu[g, p, PU_MUSHROOM_ON] = st.res[g, R_TURNS]


@njit
def _every_man_for_himself(st, g, p, tb, rng):
    """zombie40k §10.5 (A38): near another squad, a D6 of ``emfh_fail_on``+ loses the turn's
    actions. Scope "active": the active squad tests at the start of its turn; scope "all": every
    squad tested at the start of the game turn (`emfh_all_test`)."""
    if tb.prm[P_EMFH] == 0:
        return False
    if tb.prm[P_EMFH_ALL] != 0:
        return st.ustate[g, p, US_EMFH_LOST] == st.res[g, R_TURNS]
    return _emfh_test(st, g, p, tb, rng)


@njit
def _emfh_test(st, g, p, tb, rng):
    for q in range(n_players(tb)):
        if q != p and on_table(st, g, q) and unit_gap(st, g, p, q) <= tb.prm[P_EMFH_RADIUS]:
            failed = d6(rng, g) >= tb.prm[P_EMFH_FAIL_ON]
            if failed and chuck_active(st, g, p):
                failed = d6(rng, g) >= tb.prm[P_EMFH_FAIL_ON]  # Chuck Norris re-rolls a failed test (A35)
            return failed
    return False


@njit
def emfh_all_test(st, g, tb, rng):
    """Every Man For Himself, scope "all" (A38): at the start of the game turn every squad within
    the radius of another tests, in player order; a failure costs its actions this game turn."""
    if tb.prm[P_EMFH] == 0 or tb.prm[P_EMFH_ALL] == 0:
        return
    for p in range(n_players(tb)):
        if on_table(st, g, p) and _emfh_test(st, g, p, tb, rng):
            st.ustate[g, p, US_EMFH_LOST] = st.res[g, R_TURNS]


@njit
def gives_powerup(st, g, v, tb):
    """Does wiping out zombie unit v give a power-up roll? A horde does; the Boss only with
    ``boss_kill_gives_powerup`` (zombie40k §8, A27)."""
    return v != boss_unit(st) or tb.prm[P_BOSS_KILL_POWERUP] != 0


@njit
def _random_target(st, g, p, skip, tb, rng):
    """The random baseline's target (kernels.zombie40k.choices): one of the units squad p may shoot
    (zombies, and rivals where the rules allow), not ``skip``, drawn uniformly; -1 if none."""
    reach = max_reach(st, g, p, tb)
    n = 0
    for v in range(st.pos.shape[1]):
        if v != skip and may_shoot_unit(st, g, p, v, tb) and unit_gap(st, g, p, v) <= reach:
            n += 1
    if n == 0:
        return -1
    k = pick(rng, g, n)
    for v in range(st.pos.shape[1]):
        if v != skip and may_shoot_unit(st, g, p, v, tb) and unit_gap(st, g, p, v) <= reach:
            if k == 0:
                return v
            k -= 1
    return -1


@njit
def _target(st, g, p, tb, rng):
    """The unit squad p shoots: the policy's, or the random baseline's draw."""
    if plays_random(tb, p):
        return _random_target(st, g, p, -1, tb, rng)
    return _choose_target(st, g, p, tb)


@njit
def _choose_target(st, g, p, tb):
    """The unit squad p shoots (policy): a rival when allowed and wanted, else the nearest
    zombies in range, or the horde closest to being wiped out (power-up hunting)."""
    reach = max_reach(st, g, p, tb)
    best, best_key = -1, 1e18
    pvp = tb.policy[p, POL_PVP] > 0
    for v in range(st.pos.shape[1]):
        if not may_shoot_unit(st, g, p, v, tb):
            continue
        d = unit_gap(st, g, p, v)
        if d > reach:
            continue
        if is_squad(v, tb):
            if not pvp:
                continue
            key = d - 1000.0  # rivals first for a backstabber
        elif tb.policy[p, POL_TARGET] == 1:  # hunting: the Boss gives no power-up (zombie40k §8, A27): last
            key = alive(st, g, v) * 100.0 + d if gives_powerup(st, g, v, tb) else 1e6 + d
        else:
            key = d
        if key < best_key:
            best, best_key = v, key
    return best


@njit
def _second_target(st, g, p, first, tb, rng):
    """For Split Fire: the nearest other unit the squad may shoot and can reach (-1: none)."""
    if plays_random(tb, p):
        return _random_target(st, g, p, first, tb, rng)
    reach = max_reach(st, g, p, tb)
    best, best_d = -1, 1e18
    for v in range(st.pos.shape[1]):
        if v != first and may_shoot_unit(st, g, p, v, tb) and (not is_squad(v, tb) or tb.policy[p, POL_PVP] > 0):
            d = unit_gap(st, g, p, v)
            if d <= reach and d < best_d:
                best, best_d = v, d
    return best


@njit
def shooting_phase(st, g, p, tb, rng):
    """zombie40k §5.4 with the player's policy: shoot, or Run (dash). True if it embarked."""
    if not on_table(st, g, p) or in_combat(st, g, p) or st.ustate[g, p, US_RAN] != 0:
        return False
    embark_on_run = tb.prm[P_EMBARK_ON_RUN] != 0
    target = _target(st, g, p, tb, rng)
    focus = all_have(st, g, p, MR_BATTLE_FOCUS)
    if plays_random(tb, p):
        wants_run = coin(rng, g) == 1  # the random baseline Runs on a coin
    else:
        wants_run = _wants_run(tb.policy[p], target >= 0, focus)
    if embark_on_run and may_run(st, g, p) and can_embark(st, g, p, 1.0, tb):
        wants_run = True
    if wants_run and may_run(st, g, p) and not focus:
        return squad_run(st, g, p, tb, rng, embark_on_run)
    if target >= 0:
        _fire_at(st, g, p, target, tb, rng)
    if focus and wants_run and may_run(st, g, p) and st.ustate[g, p, US_FIRED_HEAVY] == 0:
        dice_for(st, g, rng, p, 2)
        return squad_run(st, g, p, tb, rng, embark_on_run)  # Battle Focus: shoot, then Run (core §12)
    return False


@njit
def _wants_run(policy, has_target, battle_focus):
    """The policy's Run (docs/policies.md): "dash" always; "advance" when nothing is in range;
    with Battle Focus, which keeps the shooting, also when the squad means to charge nobody."""
    run = policy[POL_RUN]
    if run == 2:
        return True
    if run == 0:
        return False
    charges = policy[POL_CHARGE] > 0 or policy[POL_PVP] >= 2
    return not has_target or (battle_focus and not charges)


@njit
def _fire_at(st, g, p, target, tb, rng):
    """The squad's Shooting phase at its target (Split Fire's model first), then Morale."""
    begin_shooting_phase(st, g, tb)
    snap = st.ustate[g, p, US_PINNED] != 0 or st.ustate[g, p, US_FALLING_BACK] != 0  # Snap Shots
    skip = -1
    second = _second_target(st, g, p, target, tb, rng) if any_has(st, g, p, MR_SPLIT_FIRE) else -1
    if second >= 0:
        skip = split_fire(st, g, p, target, second, tb, rng, snap)
    shoot(st, g, p, target, tb, rng, snap, False, skip)
    dice_for(st, g, rng, p, 1)  # the tests after the volley roll their own dice
    end_shooting_phase(st, g, tb, rng)


@njit
def _chargeable(st, g, p, v, tb):
    """May squad p charge unit v: in charge range, and a rival only within the PvP zone (§5.4, §5.5)?"""
    if v == p or not may_charge_target(st, g, p, v, tb):
        return False
    return not is_squad(v, tb) or (may_shoot_unit(st, g, p, v, tb) and ev_distance(
        st.pos[g, v, 0], st.pos[g, v, 1], st.radius[g, v], tb.prm) <= tb.prm[P_PVP_ZONE])


@njit
def _random_charge(st, g, p, tb, rng):
    """The random baseline's charge (kernels.zombie40k.choices): no charge or one of the units
    squad p may charge, each as likely; -1 = no charge."""
    n = 0
    for v in range(st.pos.shape[1]):
        n += _chargeable(st, g, p, v, tb)
    if n == 0:
        return -1
    k = pick(rng, g, n + 1)
    for v in range(st.pos.shape[1]):
        if _chargeable(st, g, p, v, tb):
            if k == 0:
                return v
            k -= 1
    return -1


@njit
def _charge_target(st, g, p, tb):
    """The unit squad p charges (policy), or -1."""
    mode = tb.policy[p, POL_CHARGE]
    best, best_d = -1, 1e18
    for v in range(st.pos.shape[1]):
        if not _chargeable(st, g, p, v, tb):
            continue
        if is_squad(v, tb):
            if tb.policy[p, POL_PVP] < 2:
                continue
        elif mode == 0 or (mode == 1 and (alive(st, g, v) > tb.policy[p, POL_CHARGE_MAX]
                                          or not gives_powerup(st, g, v, tb))):
            continue  # charge = 1 hunts hordes for their power-ups; the Boss gives none (§8, A27)
        d = unit_gap(st, g, p, v)
        if d < best_d:
            best, best_d = v, d
    return best


@njit
def assault_phase(st, g, p, tb, rng):
    """zombie40k §5.5: charge (policy), then fight the squad's combat."""
    if not on_table(st, g, p):
        return
    begin_assault_phase(st, g)
    _reset_overwatch(st, g)
    if can_charge(st, g, p):
        v = _random_charge(st, g, p, tb, rng) if plays_random(tb, p) else _charge_target(st, g, p, tb)
        if v >= 0:
            make_charge(st, g, p, v, tb, rng)
    dice_for(st, g, rng, p, 1)  # the fight's dice apart from the charge's
    _fight_combat(st, g, p, tb, rng)
    end_assault_phase(st, g)


@njit
def begin_assault_phase(st, g):
    """The start of an Assault phase (a player's or the zombies'): a model concussed before it
    is Initiative 1 until its end (core §12 Concussive: until the end of the next Assault phase)."""
    for u in range(st.pos.shape[1]):
        for m in range(st.mstatus.shape[2]):
            if st.mstatus[g, u, m] & ST_CONCUSSED:
                st.mstatus[g, u, m] |= MS_CONCUSSION_ENDING


@njit
def end_assault_phase(st, g):
    """The end of an Assault phase: a charge's bonuses were for this phase's fight only (core
    §7.3); concussions from before the phase end (core §12), those it dealt last one more."""
    for u in range(st.pos.shape[1]):
        st.ustate[g, u, US_CHARGED] = 0
        st.ustate[g, u, US_CHARGED_COVER] = 0
        for m in range(st.mstatus.shape[2]):
            if st.mstatus[g, u, m] & MS_CONCUSSION_ENDING:
                st.mstatus[g, u, m] &= ~(ST_CONCUSSED | MS_CONCUSSION_ENDING)


@njit
def _fight_combat(st, g, p, tb, rng):
    """The squad's combat, if it is locked in one, is fought in its Assault phase."""
    if on_table(st, g, p) and in_combat(st, g, p):
        fight(st, g, p, tb, rng)
        resolve_combat(st, g, st.w_member, st.w_inflicted, st.w_suffered, tb, rng)
        dice_for(st, g, rng, p, 2)
        _consolidations(st, g, tb, rng)


@njit
def _consolidations(st, g, tb, rng):
    for u in range(st.pos.shape[1]):
        if st.ustate[g, u, US_CONSOLIDATE] != 0:
            if is_squad(u, tb):
                gx, gy = squad_consolidation_goal(st, g, u, tb)
            else:
                gx, gy = nearest_squad_goal(st, g, u, tb, rng)
            consolidate(st, g, u, gx, gy, tb, rng)


@njit
def _has_force_psyker(st, g, p, tb):
    """Index of a living psyker carrying a Force weapon, or -1."""
    for m in range(st.wounds.shape[2]):
        if st.wounds[g, p, m] > 0 and st.mflags[g, p, m] & MR_PSYKER:
            for slot in (G_MELEE0, G_MELEE1):
                w = st.gear[g, p, m, slot]
                if w >= 0 and tb.weapons[w, W_FLAGS] & WR_FORCE:
                    return m
    return -1


@njit
def _mastery(st, g, p):
    """Mastery Levels of the squad's psykers (every catalogue psyker is ML 1)."""
    n = 0
    for m in range(st.wounds.shape[2]):
        n += st.wounds[g, p, m] > 0 and (st.mflags[g, p, m] & MR_PSYKER) != 0
    return n


@njit
def psychic_phase(st, g, p, tb, rng):
    """zombie40k §5.3, A17, core §13: the Force power (Warp Charge 1), cast when the squad is
    in combat or zombies are within charge range. Pool D6 + Mastery; two dice are thrown, each
    4+ a success, two 6s Perils of the Warp (1 Wound, no save); the zombies deny with the same
    D6 in dice, each 6 a success, cancelling when they match the caster's successes."""
    if tb.prm[P_PSYCHIC] == 0 or not on_table(st, g, p):
        return
    m = _has_force_psyker(st, g, p, tb)
    if m < 0 or not (in_combat(st, g, p) or _zombies_within(st, g, p, 12.0, tb)):
        return
    roll = d6(rng, g)
    dice = min(2, roll + _mastery(st, g, p))
    successes, sixes = 0, 0
    for _ in range(dice):
        die = d6(rng, g)
        successes += die >= 4
        sixes += die == 6
    if sixes >= 2:
        before = alive(st, g, p)
        st.wounds[g, p, m] -= 1
        touch(st, g, p)
        after_attack(st, g, p, -1, before, tb, rng)
    denied = 0
    for _ in range(roll):
        denied += d6(rng, g) == 6
    manifested = successes >= 1 and denied < successes and st.wounds[g, p, m] > 0
    if manifested:
        st.ustate[g, p, US_FORCE] = st.res[g, R_TURNS]
    log_event(st, g, EK_PSYCHIC, p, m, successes, denied, manifested)


@njit
def _zombies_within(st, g, p, distance, tb):
    for v in range(n_players(tb), st.pos.shape[1]):
        if on_table(st, g, v) and unit_gap(st, g, p, v) <= distance:
            return True
    return False


@njit
def _end_player_turn(st, g, p, rng):
    turn = st.res[g, R_TURNS]
    st.pu[g, p, PU_MUSHROOM_ON] = 0  # the Speed Pack lasts for that (player) turn only (zombie40k §8 result 9)
    if st.pu[g, p, PU_CHUCK] == turn:
        st.pu[g, p, PU_CHUCK] = 0  # the Blessing lasts until the end of the squad's next turn
    if st.ustate[g, p, US_PINNED] == 1:
        st.ustate[g, p, US_PINNED] = 0
    dice_for(st, g, rng, p, 3)
    _it_will_not_die(st, g, p, rng)
    blind_turn_ends(st, g, p)


@njit
def player_turn(st, g, p, tb, rng, check):
    """zombie40k §5. Returns True if the squad escaped (its player wins)."""
    _start_player_turn(st, g, p, tb, rng)
    enter_phase(st, g, rng, PH_RESPAWN, p)
    respawning_phase(st, g, p, tb, rng)
    _check(st, g, tb, check)
    if st.ustate[g, p, US_EMBARKED] != 0 and tb.prm[P_COOP] != 0:
        enter_phase(st, g, rng, PH_SHOOTING, p)
        _fire_from_vehicle(st, g, p, tb, rng)
        _check(st, g, tb, check)
    if not on_table(st, g, p):
        return False
    enter_phase(st, g, rng, PH_MOVEMENT, p)
    kf_shop(st, g, p, tb)
    _use_defibrillator(st, g, p, tb)
    if _every_man_for_himself(st, g, p, tb, rng):
        if tb.prm[P_EMFH_STOPS_FALL_BACK] == 0:
            compulsory_moves(st, g, p, tb, rng)  # falling back is not a move it chose (§10.5, docs/readings.md)
        enter_phase(st, g, rng, PH_ASSAULT, p)
        begin_assault_phase(st, g)
        _fight_combat(st, g, p, tb, rng)  # it still fights in close combat (A38)
        end_assault_phase(st, g)
        _check(st, g, tb, check)
        _end_player_turn(st, g, p, rng)
        return False
    _activate_mushroom(st, g, p, tb, rng)
    if squad_movement(st, g, p, tb, rng):
        return True
    _check(st, g, tb, check)
    enter_phase(st, g, rng, PH_PSYCHIC, p)
    psychic_phase(st, g, p, tb, rng)
    enter_phase(st, g, rng, PH_SHOOTING, p)
    if shooting_phase(st, g, p, tb, rng):
        return True
    _check(st, g, tb, check)
    enter_phase(st, g, rng, PH_ASSAULT, p)
    assault_phase(st, g, p, tb, rng)
    _check(st, g, tb, check)
    _end_player_turn(st, g, p, rng)
    return False


@njit
def _fire_from_vehicle(st, g, p, tb, rng):
    """Coop Mode (zombie40k §10.1): an embarked squad fires from the Escape Vehicle's access
    points, as from Fire Points, at the nearest zombies it may shoot."""
    reach = max_reach(st, g, p, tb)
    best, best_d = -1, 1e18
    for v in range(n_players(tb), st.pos.shape[1]):
        if may_shoot_unit(st, g, p, v, tb):
            d = unit_gap(st, g, p, v)
            if d <= reach and d < best_d:
                best, best_d = v, d
    if best >= 0:
        shoot(st, g, p, best, tb, rng, False, False, -1)


# ------------------------------------------------------------------------ zombie turn


@njit
def _reset_overwatch(st, g):
    for u in range(st.pos.shape[1]):
        st.ustate[g, u, US_OVERWATCHED] = 0


@njit
def zombie_respawning(st, g, tb, rng):
    """zombie40k §6.1: every destroyed horde returns (one roll each on the §7 table), and the
    Boss with ``boss_respawns`` (A14)."""
    for h in range(n_players(tb), st.pos.shape[1]):
        if zombie_can_respawn(st, g, h, tb):
            dice_for(st, g, rng, h, 0)  # each horde's return its own dice
            respawn_horde(st, g, h, tb, rng)


@njit
def _zombie_shooting_target(st, g, z, tb):
    """zombie40k §6.3: the nearest unengaged squad in range, else the nearest squad in range."""
    reach = max_reach(st, g, z, tb)
    best, best_d, best_free = -1, 1e18, False
    for p in range(n_players(tb)):
        if not on_table(st, g, p):
            continue
        d = unit_gap(st, g, z, p)
        free = not in_combat(st, g, p)
        if d > reach:
            continue
        if (free and not best_free) or (free == best_free and d < best_d):
            best, best_d, best_free = p, d, free
    return best


@njit
def zombie_shooting(st, g, tb, rng):
    """zombie40k §6.3: each zombie unit with a ranged weapon fires; Morale and Pinning at the
    end of the phase (core §6.1 step 6)."""
    begin_shooting_phase(st, g, tb)
    for z in range(n_players(tb), st.pos.shape[1]):
        if on_table(st, g, z) and not in_combat(st, g, z) and max_reach(st, g, z, tb) > 0.0:
            p = _zombie_shooting_target(st, g, z, tb)
            if p >= 0:
                dice_for(st, g, rng, z, 0)
                shoot(st, g, z, p, tb, rng, False, False, -1)
    dice_for(st, g, rng, -1, 1)
    end_shooting_phase(st, g, tb, rng)


@njit
def zombie_assault(st, g, tb, rng):
    """zombie40k §6.4: every combat with zombies in it is fought once."""
    begin_assault_phase(st, g)
    _reset_overwatch(st, g)
    fought, member = st.w_fought, st.w_member
    fought[:] = False
    for p in range(n_players(tb)):
        if fought[p] or not on_table(st, g, p) or not locked_with_zombies(st, g, p, tb):
            continue
        dice_for(st, g, rng, p, 0)  # each combat its own dice, keyed by the first squad in it
        fight(st, g, p, tb, rng)
        for u in range(member.shape[0]):
            fought[u] = fought[u] or member[u]
        resolve_combat(st, g, member, st.w_inflicted, st.w_suffered, tb, rng)
    dice_for(st, g, rng, -1, 1)
    _consolidations(st, g, tb, rng)
    end_assault_phase(st, g)


@njit
def zombie_turn(st, g, tb, rng, check):
    for z in range(n_players(tb), st.pos.shape[1]):
        st.ustate[g, z, US_CHARGED] = 0
        blind_turn_starts(st, g, z)
    enter_phase(st, g, rng, PH_Z_RESPAWN, -1)
    zombie_respawning(st, g, tb, rng)
    _check(st, g, tb, check)
    _reset_overwatch(st, g)
    enter_phase(st, g, rng, PH_SHAMBLE, -1)
    shamble_phase(st, g, tb, rng)
    _check(st, g, tb, check)
    enter_phase(st, g, rng, PH_Z_SHOOTING, -1)
    zombie_shooting(st, g, tb, rng)
    _check(st, g, tb, check)
    enter_phase(st, g, rng, PH_Z_ASSAULT, -1)
    zombie_assault(st, g, tb, rng)
    dice_for(st, g, rng, -1, 2)
    for z in range(n_players(tb), st.pos.shape[1]):
        _it_will_not_die(st, g, z, rng)
        blind_turn_ends(st, g, z)
    _check(st, g, tb, check)


@njit
def _it_will_not_die(st, g, u, rng):
    """At the end of each of its turns a wounded model with It Will Not Die regains 1 Wound
    on a 5+ (core §12)."""
    for m in range(st.wounds.shape[2]):
        if 0 < st.wounds[g, u, m] < st.stats[g, u, m, W] and st.mflags[g, u, m] & MR_IT_WILL_NOT_DIE:
            if d6(rng, g) >= 5:
                st.wounds[g, u, m] += 1
                touch(st, g, u)


# -------------------------------------------------------------------------- the game


@njit
def start_game_turn(st, g, tb):
    """What the new game turn changes before the roll-off: Power from Pain grows (core §12)."""
    for u in range(st.pos.shape[1]):
        power_from_pain(st, g, u, st.res[g, R_TURNS])


@njit
def turn_order(st, g, tb, rng):
    """A7: roll-off each game turn (default), fixed, or rotating; the order in ``st.w_turn``."""
    n = n_players(tb)
    mode = int(tb.prm[P_ORDER])
    if mode == 0:
        rolloff_order(st, n, rng, g)
        return
    for k in range(n):
        st.w_turn[k] = k if mode == 1 else (k + st.res[g, R_TURNS] - 1) % n


@njit
def _game_over(st, g, tb):
    """A11: Coop players win when every squad still able to play is embarked; the zombies win
    when no squad is on the table and none may come back."""
    if tb.prm[P_COOP] != 0 and _coop_won(st, g, tb):
        _snapshot(st, g)
        _finish(st, g, tb, -1, REASON_COOP_WIN)
        return True
    if _nobody_can_play(st, g, tb):
        _snapshot(st, g)
        _finish(st, g, tb, -1, REASON_ALL_DEAD)
        return True
    return False


@njit
def _coop_won(st, g, tb):
    boarded = False
    for p in range(n_players(tb)):
        if st.ustate[g, p, US_EMBARKED] != 0:
            boarded = True
        elif on_table(st, g, p) or _may_respawn(st, g, p, tb):
            return False
    return boarded


@njit
def _nobody_can_play(st, g, tb):
    """A11: every squad is gone and none may come back."""
    for p in range(n_players(tb)):
        if on_table(st, g, p) or _may_respawn(st, g, p, tb):
            return False
    return True


@njit
def _reset_game(st, g):
    st.pos[g] = 0.0
    st.radius[g] = 0.0
    st.wounds[g] = 0
    st.stats[g] = 0
    st.mflags[g] = 0
    st.mstatus[g] = 0
    st.gear[g] = -1
    st.mpow[g] = 0
    st.ustate[g] = 0
    st.usum[g] = 0
    st.locked[g] = 0
    st.grudge[g] = 0
    st.pu[g] = 0
    st.terrain[g] = 0.0
    st.res[g] = 0
    st.pres[g] = 0.0
    st.n_events[g] = 0
    st.viol[g] = 0
    st.res[g, R_WINNER] = -1


@njit
def play_game(st, g, tb, rng, check):
    """Play game g of the batch from its stream ``rng[g]`` to the end."""
    _reset_game(st, g)
    enter_phase(st, g, rng, PH_SETUP, -1)
    setup_game(st, g, tb, rng)
    for p in range(n_players(tb)):
        st.pu[g, p, PU_MEDPACK_ANY] = int(tb.policy[p, POL_MEDPACK])
    _check(st, g, tb, check)
    max_turns = int(tb.prm[P_MAX_TURNS])
    for turn in range(1, max_turns + 1):
        st.res[g, R_TURNS] = turn
        start_game_turn(st, g, tb)
        enter_phase(st, g, rng, PH_ROLLOFF, -1)
        turn_order(st, g, tb, rng)
        order = st.w_turn
        log_event(st, g, EK_ORDER, order[0], order[-1], 0, 0, 0)
        emfh_all_test(st, g, tb, rng)
        for k in range(order.shape[0]):
            if player_turn(st, g, order[k], tb, rng, check) and tb.prm[P_COOP] == 0:
                _snapshot(st, g)  # the table as the squad escapes
                _finish(st, g, tb, order[k], REASON_ESCAPE)
                return
            if _game_over(st, g, tb):
                return
        zombie_turn(st, g, tb, rng, check)
        if tb.prm[P_GRUDGE] == 2:
            st.grudge[g] = 0  # A19 one_turn: a grudge lasts until the end of the game turn
        if _game_over(st, g, tb):
            return
        _snapshot(st, g)
    _finish(st, g, tb, -1, REASON_TIMEOUT)


@njit
def _snapshot(st, g):
    label_phase(st, g, PH_END, -1)
    for u in range(st.pos.shape[1]):
        if on_table(st, g, u):
            log_event(st, g, EK_SNAPSHOT, u, alive(st, g, u), st.pos[g, u, 0], st.pos[g, u, 1],
                      st.radius[g, u])


@njit
def _finish(st, g, tb, winner, reason):
    label_phase(st, g, PH_END, -1)
    st.res[g, R_WINNER] = winner
    st.res[g, R_REASON] = reason
    for p in range(n_players(tb)):
        st.pres[g, p, PR_MODELS_LEFT] = alive(st, g, p)
        st.pres[g, p, PR_EMBARKED] = st.ustate[g, p, US_EMBARKED]
        if on_table(st, g, p):
            st.pres[g, p, PR_EV_DISTANCE] = ev_distance(st.pos[g, p, 0], st.pos[g, p, 1], st.radius[g, p], tb.prm)
        else:
            st.pres[g, p, PR_EV_DISTANCE] = 0.0 if st.ustate[g, p, US_EMBARKED] else np.nan
    log_event(st, g, EK_END, winner, reason, 0, 0, 0)


# ------------------------------------------------------------------------- invariants


@njit
def count_violations(st, g, tb):
    """Invariants that hold after every phase: kept unit summaries equal a recount; Wounds within
    0..W; a unit on the table has a living model and an off-table unit none; units on the table
    stand on it; combat links are symmetric, between units on the table, never with itself; no
    squad is locked with itself."""
    bad = 0
    w_max, length = tb.prm[P_TABLE_W], tb.prm[P_TABLE_L]
    for u in range(st.pos.shape[1]):
        bad += stale_summaries(st, g, u, st.w_usum)  # kept summaries equal a recount
        n = alive(st, g, u)
        for m in range(st.wounds.shape[2]):
            w = st.wounds[g, u, m]
            bad += w < 0 or (w > 0 and w > st.stats[g, u, m, W])
        if on_table(st, g, u):
            bad += n == 0
            x, y = st.pos[g, u, 0], st.pos[g, u, 1]
            bad += not (-1e-6 <= x <= w_max + 1e-6 and -1e-6 <= y <= length + 1e-6)
            bad += abs(st.radius[g, u] - unit_radius(n, tb.prm)) > 1e-9
        else:
            bad += n != 0 and st.ustate[g, u, US_EMBARKED] == 0  # embarked squads keep their models
            bad += in_combat(st, g, u)
        bad += st.locked[g, u, u] != 0
        bad += st.ustate[g, u, US_LOCKS] != locks(st, g, u)  # the kept count of its combat links
        for v in range(st.pos.shape[1]):
            bad += st.locked[g, u, v] != st.locked[g, v, u]
    bad += st.res[g, R_TURNS] > tb.prm[P_MAX_TURNS]
    return bad


@njit
def _check(st, g, tb, check):
    if check:
        st.viol[g] += count_violations(st, g, tb)


@njit_alloc
def play_batch(st, tb, seed, first_game, check, rng):
    """Play every game of the batch; game g is game ``first_game + g`` of stream ``seed``.
    ``rng[g]`` is left at the stream's final counter (the caller counts the dice rolled).

    One thread plays a batch (the GIL is released): ``sim.play`` runs batches on a thread pool,
    each thread with its own state and its own copy of the tables, so no two threads share an
    array (numba's reference counts on shared arrays serialise threads)."""
    state, tables = by_ref(st), by_ref(tb)  # one pointer each down the call tree (kernels.jit.ByRef)
    for g in range(st.pos.shape[0]):
        rng[g] = stream_start(np.uint64(seed), np.uint64(first_game + g))
        begin_streams(rng, g, st.w_stream)  # each phase of each unit its own dice (units.dice_for)
        play_game(state, g, tables, rng, check)
        end_streams(rng, g, st.w_stream)
