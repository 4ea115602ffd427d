"""The game loop of Zombie Apocalypse (zombie-apocalypse §12-§13): set-up, then seven game turns of
one players' turn and one zombie turn in the order of the first-turn roll-off, until every Warlord
is gone or game turn 7 ends.

``play_batch`` is the entry point: game g of the batch is game ``first_game + g`` of the run,
played start to finish from its own stream (``rng[g]`` is left at the stream's last counter), game
after game on one thread. With ``check`` set, invariants are tested after every phase and
violations counted in ``state.viol``.
"""

from __future__ import annotations

import numpy as np

from kernels.apocalypse.assault import fight_phase, recount_locks
from kernels.apocalypse.blind import blind_tests, blind_turn_ends, blind_turn_starts
from kernels.apocalypse.choices import pick, plays_random
from kernels.apocalypse.columns import (
    BLIND_NONE,
    BLIND_THIS_TURN,
    EK_ABOARD,
    EK_CHARGE,
    EK_END,
    EK_SNAP_HORDE,
    EK_SNAP_UNIT,
    G_ACTIVE,
    G_FIRST,
    G_HELD,
    G_OVER,
    G_TURN,
    G_ZTURN,
    HS_B,
    HS_BLIND,
    HS_BLIND_HIT,
    HS_CHARGED,
    HS_FZ,
    HS_J,
    HS_JH,
    HS_K,
    HS_LOCKED,
    HS_Z,
    MI_OWNER,
    MI_VSTATUS,
    MI_ZW_TURN,
    N_SRC,
    P_BONUS_PER,
    P_CHARGE_RANGE,
    P_EMBARK_WITHIN,
    P_MOVE_NOISE_CHARGES,
    P_TABLE,
    P_TURNS,
    P_WHOLLY,
    PH_ASSAULT,
    PH_END,
    PH_MOVEMENT,
    PH_PSYCHIC,
    PH_SHOOTING,
    PH_Z_ASSAULT,
    PH_Z_MOVEMENT,
    POL_CHARGE,
    POL_CHARGE_MAX,
    POL_DISEMBARK,
    POL_REEMBARK,
    POL_THREAT,
    PR_MODELS_LOST,
    PR_MODELS_START,
    PR_WL_EXTRACTED,
    PR_WL_FATE,
    R_EXCHANGED,
    R_ON_TABLE,
    R_REASON,
    R_SP0,
    R_TURN,
    R_WARLORDS_LEFT,
    R_WINNER,
    R_ZKILLED,
    REASON_EXTRACTED,
    REASON_TIME,
    REASON_WARLORDS_DEAD,
    SIDE_PLAYERS,
    SIDE_ZOMBIES,
    SK_BRUTE,
    SK_FIRST,
    US_ALIVE,
    US_AURA_WS1,
    US_CHARGED,
    US_DIFFICULT_CHARGE,
    US_DISEMBARKED,
    US_EMBARKED,
    US_FALLING_BACK,
    US_MOVED,
    US_NO_CHARGE,
    US_NOISE6,
    US_NOISE12,
    US_OVERWATCHED,
    US_OWNER,
    US_RAN,
    US_REGROUPED,
    US_REROLLED,
    US_SHOT,
    US_START,
    US_TYPE,
    US_WAS_CHARGED,
    VST_IMMOBILISED,
    WL_ALIVE,
    WL_KILLED,
)
from kernels.apocalypse.geometry import base_on_zone, path_touches_zone, zone_distance
from kernels.apocalypse.hordes import horde_bonus, horde_models, is_alive, merge_hordes, settle_all, zombies_on_table
from kernels.apocalypse.movement import (
    fall_back,
    form_super_squad,
    merge_units,
    move_allowance,
    move_unit,
    place_unit,
    unit_goal,
    wander,
)
from kernels.apocalypse.noise import place_phase_noise, unit_movement_noise
from kernels.apocalypse.setup import setup_game
from kernels.apocalypse.shooting import psychic_phase, shooting_phase
from kernels.apocalypse.terrain import path_touches_terrain
from kernels.apocalypse.trace import log_event
from kernels.apocalypse.units import (
    DISEMBARK_IN,
    any_rule,
    disembark,
    embark,
    embark_reach,
    has_ic,
    knows_no_fear,
    locate_warlords,
    models_alive,
    passengers,
    ride_along,
    unit_alive,
    unit_exists,
    unit_gap_horde,
    unit_leadership,
    warlords_alive,
)
from kernels.apocalypse.vehicles import is_transport, keep_last_moves, may_move
from kernels.apocalypse.zombies import zombie_charges, zombie_movement_phase
from kernels.dice import sum_d6
from kernels.jit import by_ref, njit
from kernels.rng import begin_streams, d6, end_streams, stream_start, switch_stream
from kernels.w40k.columns import MR_MOVE_THROUGH_COVER, W_FLAGS, WR_ASSAULT_GRENADE, W
from kernels.w40k.geometry import norm

# ------------------------------------------------------------------ turn bookkeeping


@njit
def start_turn(st, g):
    """Per-turn flags back to zero at the start of either side's turn."""
    for u in range(st.ust.shape[1]):
        st.umoved[g, u] = 0.0
        for c in (US_MOVED, US_RAN, US_SHOT, US_NO_CHARGE, US_CHARGED, US_WAS_CHARGED, US_NOISE6, US_NOISE12,
                  US_OVERWATCHED, US_REROLLED, US_REGROUPED, US_DIFFICULT_CHARGE, US_DISEMBARKED):
            st.ust[g, u, c] = 0
        for m in range(st.wounds.shape[2]):
            st.minfo[g, u, m, MI_ZW_TURN] = 0
    for h in range(st.hst.shape[1]):
        st.hst[g, h, HS_CHARGED] = 0


@njit
def mark_fates(st, g):
    """A Warlord no longer found on the table, with no other fate recorded, was killed."""
    locate_warlords(st, g)
    for p in range(st.wl_unit.shape[1]):
        if st.wl_unit[g, p] < 0 and st.pres[g, p, PR_WL_FATE] == WL_ALIVE:
            st.pres[g, p, PR_WL_FATE] = WL_KILLED


@njit
def zombies_win_now(st, g):
    """§13: the zombies win at once when no Warlord is alive as a non-zombie model."""
    mark_fates(st, g)
    if st.gst[g, G_OVER] == 0 and warlords_alive(st, g) == 0:
        st.res[g, R_WINNER] = SIDE_ZOMBIES
        st.res[g, R_REASON] = REASON_WARLORDS_DEAD
        st.res[g, R_TURN] = st.gst[g, G_TURN]
        st.gst[g, G_OVER] = 1
    return st.gst[g, G_OVER] != 0


@njit
def end_phase(rng, g, st, tb, check, phase):
    """After every phase: hordes hit by Blind test Initiative (core §12), Resilience settles (§5),
    locks are recounted, the zombies may have won; in checked mode the invariants are tested.
    Returns True when the game is over."""
    blind_tests(rng, g, st, tb, phase)
    settle_all(st, g, tb)
    recount_locks(st, g)
    over = zombies_win_now(st, g)
    if check:
        st.viol[g] += invariant_violations(st, g, tb)
    return over


# ------------------------------------------------------------------ the players' turn


@njit
def regroup(rng, g, st, u, tb):
    """A falling-back unit tests Leadership at the start of its Movement phase (core §9.2): below
    25% of its models only a double 1 passes, unless an IC is with it; ATSKNF always regroups and
    acts normally; a unit that regroups otherwise moves at most 3" and may not run or charge."""
    if knows_no_fear(st, g, u):
        st.ust[g, u, US_FALLING_BACK] = 0
        return
    d1, d2 = d6(rng, g), d6(rng, g)
    few = models_alive(st, g, u) * 4 < st.ust[g, u, US_START]
    passed = d1 == 1 and d2 == 1 if few and not has_ic(st, g, u) else d1 + d2 <= unit_leadership(st, g, u, tb)
    if not passed:
        fall_back(rng, g, st, u, tb, PH_MOVEMENT)
        return
    st.ust[g, u, US_FALLING_BACK] = 0
    st.ust[g, u, US_REGROUPED] = 1
    st.ust[g, u, US_NO_CHARGE] = 1
    if plays_random(st, g, u, tb):
        st.umoved[g, u] += wander(rng, g, st, u, 3.0, True, tb, PH_MOVEMENT)
        st.ust[g, u, US_MOVED] = 1
        return
    hold, gx, gy = unit_goal(st, g, u, tb)
    if not hold:
        st.umoved[g, u] += move_unit(rng, g, st, u, gx, gy, 3.0, -1, True, tb, PH_MOVEMENT)
        st.ust[g, u, US_MOVED] = 1


@njit
def _locked(st, g, u):
    for h in range(st.lock.shape[2]):
        if st.lock[g, u, h] != 0:
            return True
    return False


@njit
def movement_phase(rng, g, st, tb):
    """§12 players' Movement phase: regroup, super squads (P9), every free unit moves (P3), then
    movement noise (§9.3)."""
    for u in range(st.ust.shape[1]):
        if unit_alive(st, g, u) and st.ust[g, u, US_FALLING_BACK] != 0:
            regroup(rng, g, st, u, tb)
    form_super_squad(st, g, tb, True)
    merge_units(st, g, tb)
    for u in range(st.ust.shape[1]):
        if not unit_alive(st, g, u) or _locked(st, g, u) or st.ust[g, u, US_FALLING_BACK] != 0:
            continue
        if st.ust[g, u, US_REGROUPED] != 0 or not may_move(st, g, u):  # apocalypse V5: Immobilised, Crew Stunned
            continue
        allowance = move_allowance(st.ust[g, u, US_TYPE], tb)
        if plays_random(st, g, u, tb):
            moved = wander(rng, g, st, u, allowance, True, tb, PH_MOVEMENT)
        else:
            w = passengers(st, g, u)  # apocalypse V11: a transport drives where its squad heads (choice)
            hold, gx, gy = unit_goal(st, g, w if w >= 0 else u, tb)
            if hold:
                continue
            moved = move_unit(rng, g, st, u, gx, gy, allowance, -1, True, tb, PH_MOVEMENT)
        st.umoved[g, u] += moved
        st.ust[g, u, US_MOVED] = int(moved > 1e-9)
    transports_moved(st, g, tb)
    form_super_squad(st, g, tb, False)  # A32 'any': Warlords that ended their moves within 2"
    movement_noise_all(rng, g, st, tb)


@njit
def transports_moved(st, g, tb):
    """apocalypse V11: after the moves, each squad aboard stands where its transport does, and gets out
    (3" of the hull, towards its goal) when the transport ended its move within ``disembark_in`` of that
    goal (the extraction zone's edge, or the standoff point while it waits for the escort) or is
    Immobilised."""
    c = 0.5 * tb.prm[P_TABLE]
    for v in range(st.ust.shape[1]):
        if not unit_alive(st, g, v) or not is_transport(st, g, v):
            continue
        u = ride_along(st, g, v)
        if u < 0:
            continue
        _hold, gx, gy = unit_goal(st, g, u, tb)
        tx, ty = st.upos[g, v, 0], st.upos[g, v, 1]
        d = zone_distance(tx, ty, tb.prm) if gx == c and gy == c else norm(gx - tx, gy - ty)
        stuck = (st.minfo[g, v, 0, MI_VSTATUS] & VST_IMMOBILISED) != 0
        if d <= tb.policy[st.ust[g, u, US_OWNER], POL_DISEMBARK] or stuck:
            disembark(st, g, u, v, gx, gy, DISEMBARK_IN, PH_MOVEMENT, tb)
    for v in range(st.ust.shape[1]):
        u = reembarks(st, g, v, tb)
        if u >= 0:
            embark(st, g, u, v, PH_MOVEMENT)


@njit
def reembarks(st, g, v, tb):
    """The squad bought with transport v if it embarks again at the end of the Movement phase's moves
    (V11 [C]), else -1: v lives, may move and carries nobody; the squad is on the table, not locked,
    falling back or just out of it, has no more models than it started with (room, choice), stands
    off the zone with every model within ``embark_within`` of the hull; and policy ``reembark`` N > 0:
    a horde of at least N models is within the policy's ``threat_in`` of it."""
    if not unit_alive(st, g, v) or not is_transport(st, g, v) or not may_move(st, g, v) or passengers(st, g, v) >= 0:
        return -1
    for u in range(st.ust.shape[1]):
        if tb.ut_carrier[u] != v or not unit_alive(st, g, u) or _locked(st, g, u):
            continue
        p = st.ust[g, u, US_OWNER]
        n = tb.policy[p, POL_REEMBARK]
        if n <= 0 or st.ust[g, u, US_FALLING_BACK] != 0 or st.ust[g, u, US_DISEMBARKED] != 0:
            continue
        if models_alive(st, g, u) > st.ust[g, u, US_START] or zone_distance(st.upos[g, u, 0], st.upos[g, u, 1],
                                                                             tb.prm) <= 0.0:
            continue
        if not embark_reach(st, g, u, v, tb.prm[P_EMBARK_WITHIN]):
            continue
        for h in range(st.hst.shape[1]):
            if (is_alive(st, g, h) and horde_models(st, g, h) >= n
                    and unit_gap_horde(st, g, u, h) <= tb.policy[p, POL_THREAT]):
                return u
    return -1


@njit
def movement_noise_all(rng, g, st, tb):
    for u in range(st.ust.shape[1]):
        if unit_alive(st, g, u):
            unit_movement_noise(rng, g, st, u, models_alive(st, g, u), tb)


@njit
def charge_target(st, g, u, tb):
    """P: a horde of at most ``charge_max`` models within 12" the unit may charge (the one it shot
    at, if it shot), -1 if none."""
    p = st.ust[g, u, US_OWNER]
    shot = st.ust[g, u, US_SHOT] - 1
    best, best_d = -1, 1e18
    for h in range(st.hst.shape[1]):
        if not is_alive(st, g, h) or horde_models(st, g, h) > tb.policy[p, POL_CHARGE_MAX]:
            continue
        if shot >= 0 and h != shot:
            continue
        d = unit_gap_horde(st, g, u, h)
        if d <= tb.prm[P_CHARGE_RANGE] and d < best_d:
            best, best_d = h, d
    return best


@njit
def random_charge(rng, g, st, u, tb):
    """The random baseline's charge (kernels.apocalypse.choices): no charge, or one of the hordes
    within charge range (the one it shot at, if it shot; core §7.1), each as likely; -1 = none."""
    shot = st.ust[g, u, US_SHOT] - 1
    n = 0
    for h in range(st.hst.shape[1]):
        n += _chargeable(st, g, u, h, shot, tb)
    k = pick(rng, g, n + 1)
    for h in range(st.hst.shape[1]):
        if _chargeable(st, g, u, h, shot, tb):
            if k == 0:
                return h
            k -= 1
    return -1


@njit
def _chargeable(st, g, u, h, shot, tb):
    return is_alive(st, g, h) and (shot < 0 or h == shot) and unit_gap_horde(st, g, u, h) <= tb.prm[P_CHARGE_RANGE]


@njit
def charge_reach(roll, through_difficult, move_through_cover):
    """A charge's range (core §7.1.4): the 2D6 rolled, less 2" if a charging model must move through
    difficult terrain (Move Through Cover ignores it)."""
    return roll - 2 if through_difficult and not move_through_cover else roll


@njit
def charge_through_difficult(st, g, u, h, distance, tb):
    """Unit u's charge at horde h - straight at it, ``distance`` inches - enters, leaves or crosses
    the zone or a ruin (difficult terrain, §3.1, core §5)."""
    px, py, r = st.upos[g, u, 0], st.upos[g, u, 1], st.urad[g, u]
    dx, dy = st.hpos[g, h, 0] - px, st.hpos[g, h, 1] - py
    d = norm(dx, dy)
    step = max(0.0, distance) / d if d > 1e-9 else 0.0
    qx, qy = px + dx * step, py + dy * step
    return path_touches_zone(px, py, qx, qy, r, tb.prm) or path_touches_terrain(st, g, px, py, qx, qy, r)


@njit
def has_assault_grenades(st, g, u, tb):
    """A living model of unit u carries assault grenades (frag, plasma, psyk-out, blight; core §8)."""
    for m in range(st.wounds.shape[2]):
        if st.wounds[g, u, m] <= 0:
            continue
        for k in range(st.gear.shape[3]):
            w = st.gear[g, u, m, k]
            if w >= 0 and (tb.weapons[w, W_FLAGS] & WR_ASSAULT_GRENADE) != 0:
                return True
    return False


@njit
def player_charges(rng, g, st, tb):
    """Units that may charge (not after running, falling back, or firing Heavy / Rapid Fire weapons
    without Relentless; core §7.1) charge small hordes when their policy says so: 2D6, less 2" when
    the charge crosses the zone (difficult terrain) without Move Through Cover."""
    for u in range(st.ust.shape[1]):
        if not unit_alive(st, g, u) or _locked(st, g, u) or st.ust[g, u, US_FALLING_BACK] != 0:
            continue
        random = plays_random(st, g, u, tb)
        if not random and tb.policy[st.ust[g, u, US_OWNER], POL_CHARGE] == 0:
            continue
        if st.ust[g, u, US_RAN] != 0 or st.ust[g, u, US_NO_CHARGE] != 0 or is_transport(st, g, u):
            continue  # apocalypse V7: a transport does not fight, so it never charges
        h = random_charge(rng, g, st, u, tb) if random else charge_target(st, g, u, tb)
        if h < 0:
            continue
        distance = unit_gap_horde(st, g, u, h)
        through = charge_through_difficult(st, g, u, h, distance, tb)
        mtc = any_rule(st, g, u, MR_MOVE_THROUGH_COVER)
        roll = sum_d6(rng, g, 2)
        success = charge_reach(roll, through, mtc) >= distance
        if success:
            if through and not has_assault_grenades(st, g, u, tb):
                st.ust[g, u, US_DIFFICULT_CHARGE] = 1  # core §7.1.6: it fights at Initiative 1 this turn
            px, py = st.upos[g, u, 0], st.upos[g, u, 1]
            dx, dy = st.hpos[g, h, 0] - px, st.hpos[g, h, 1] - py
            d = norm(dx, dy)
            if d > 1e-9:
                step = max(0.0, distance) / d
                moved = place_unit(rng, g, st, u, px, py, px + dx * step, py + dy * step, tb, PH_ASSAULT)
                if tb.prm[P_MOVE_NOISE_CHARGES] != 0 and unit_alive(st, g, u):  # A17's other reading
                    st.umoved[g, u] += moved
                    unit_movement_noise(rng, g, st, u, models_alive(st, g, u), tb)
            if unit_alive(st, g, u) and is_alive(st, g, h):
                st.lock[g, u, h] = 1
                st.ust[g, u, US_CHARGED] = 1
        log_event(st, g, PH_ASSAULT, EK_CHARGE, u, h, 10 + int(success), st.upos[g, u, 0], st.upos[g, u, 1])


@njit
def phase_dice(rng, g, st, phase):
    """Each phase of each game turn rolls from its own stream, a pure function of (seed, game, game
    turn, phase) (kernels.rng, streams by purpose): a rule that rolls more dice in one phase leaves
    the dice of the later phases as they were (common random numbers that stay in step)."""
    switch_stream(rng, g, st.w_stream, st.gst[g, G_TURN] * 16 + phase)


@njit
def players_turn(rng, g, st, tb, check):
    """§12 players' turn: Movement, Psychic, Shooting, Assault. Returns True when the game is over."""
    start_turn(st, g)
    st.gst[g, G_ACTIVE] = SIDE_PLAYERS
    phase_dice(rng, g, st, PH_MOVEMENT)
    movement_phase(rng, g, st, tb)
    place_phase_noise(st, g, tb, PH_MOVEMENT)
    if end_phase(rng, g, st, tb, check, PH_MOVEMENT):
        return True
    phase_dice(rng, g, st, PH_PSYCHIC)
    psychic_phase(rng, g, st, tb)
    place_phase_noise(st, g, tb, PH_PSYCHIC)
    if end_phase(rng, g, st, tb, check, PH_PSYCHIC):
        return True
    phase_dice(rng, g, st, PH_SHOOTING)
    shooting_phase(rng, g, st, tb)
    movement_noise_all(rng, g, st, tb)  # runs count towards 'more than 6"' (A17)
    place_phase_noise(st, g, tb, PH_SHOOTING)
    if end_phase(rng, g, st, tb, check, PH_SHOOTING):
        return True
    form_super_squad(st, g, tb, False)  # A32 'any': after the runs
    phase_dice(rng, g, st, PH_ASSAULT)
    player_charges(rng, g, st, tb)
    place_phase_noise(st, g, tb, PH_ASSAULT)  # charge moves, with A17's 'include_charges'
    fight_phase(rng, g, st, tb, PH_ASSAULT)
    merge_hordes(st, g, tb)
    form_super_squad(st, g, tb, False)  # A32 'any': after the fights
    return end_phase(rng, g, st, tb, check, PH_ASSAULT)


# ------------------------------------------------------------------ the zombie turn


@njit
def zombie_turn(rng, g, st, tb, check):
    """§12 zombie turn: Movement (auras, spawning, merging, moves), then Assault (charges, fights)."""
    keep_last_moves(st, g)  # apocalypse V7: a transport is hit by how far it moved in the players' turn
    start_turn(st, g)
    st.gst[g, G_ACTIVE] = SIDE_ZOMBIES
    st.gst[g, G_ZTURN] += 1
    blind_turn_starts(st, g)
    phase_dice(rng, g, st, PH_Z_MOVEMENT)
    zombie_movement_phase(rng, g, st, tb)
    if end_phase(rng, g, st, tb, check, PH_Z_MOVEMENT):
        return True
    phase_dice(rng, g, st, PH_Z_ASSAULT)
    zombie_charges(rng, g, st, tb)
    fight_phase(rng, g, st, tb, PH_Z_ASSAULT)
    merge_hordes(st, g, tb)
    for u in range(st.ust.shape[1]):
        st.ust[g, u, US_AURA_WS1] = 0
    over = end_phase(rng, g, st, tb, check, PH_Z_ASSAULT)
    blind_turn_ends(st, g)  # after the phase's own Blind tests: a horde blinded now stays pending
    return over


# ------------------------------------------------------------------ the end (§13)


@njit
def end_of_game(st, g, tb):
    """End of game turn 7: the players win if every living Warlord is on the zone (A29) and at least
    one lives; else the zombies win on time."""
    mark_fates(st, g)
    if st.gst[g, G_OVER] != 0:
        return
    alive, on_zone = 0, 0
    for p in range(st.wl_unit.shape[1]):
        u = st.wl_unit[g, p]
        if u < 0:
            continue
        alive += 1
        if base_on_zone(st.upos[g, u, 0], st.upos[g, u, 1], tb.prm, tb.prm[P_WHOLLY] != 0):
            on_zone += 1
            st.pres[g, p, PR_WL_EXTRACTED] = 1
    players = alive >= 1 and on_zone == alive
    st.res[g, R_WINNER] = SIDE_PLAYERS if players else SIDE_ZOMBIES
    st.res[g, R_REASON] = REASON_EXTRACTED if players else REASON_TIME
    st.res[g, R_TURN] = int(tb.prm[P_TURNS])
    st.gst[g, G_OVER] = 1


@njit
def finish(st, g, tb):
    st.res[g, R_WARLORDS_LEFT] = warlords_alive(st, g)
    st.res[g, R_ON_TABLE] = zombies_on_table(st, g)
    for p in range(st.pres.shape[1]):
        st.pres[g, p, PR_MODELS_LOST] = st.pres[g, p, PR_MODELS_START]
    for u in range(st.ust.shape[1]):
        if not unit_exists(st, g, u):  # a squad aboard its transport survives too
            continue
        for m in range(st.wounds.shape[2]):
            if st.wounds[g, u, m] > 0:
                st.pres[g, st.minfo[g, u, m, MI_OWNER], PR_MODELS_LOST] -= 1
    log_event(st, g, PH_END, EK_END, st.res[g, R_WINNER], st.res[g, R_REASON], st.res[g, R_TURN], 0.0, 0.0)


@njit
def snapshot(st, g):
    """Trace: every unit and horde as the game turn ends (``shamble trace`` draws these)."""
    if g >= st.events.shape[0]:
        return
    for u in range(st.ust.shape[1]):
        if unit_alive(st, g, u):
            w = passengers(st, g, u)
            if w >= 0:  # before its transport's snapshot: the trace labels it "(N aboard)"
                log_event(st, g, PH_END, EK_ABOARD, u, models_alive(st, g, w), w, st.upos[g, u, 0], st.upos[g, u, 1])
            log_event(st, g, PH_END, EK_SNAP_UNIT, u, models_alive(st, g, u), st.ust[g, u, US_OWNER],
                      st.upos[g, u, 0], st.upos[g, u, 1])
    for h in range(st.hst.shape[1]):
        if is_alive(st, g, h):
            log_event(st, g, PH_END, EK_SNAP_HORDE, h, horde_models(st, g, h), st.hst[g, h, HS_J],
                      st.hpos[g, h, 0], st.hpos[g, h, 1])


@njit
def play_game(st, g, tb, rng, check):
    setup_game(st, g, tb, rng)
    if check:
        st.viol[g] += invariant_violations(st, g, tb)
    first = st.gst[g, G_FIRST]
    over = False
    for turn in range(1, int(tb.prm[P_TURNS]) + 1):
        st.gst[g, G_TURN] = turn
        for k in range(2):
            side = first if k == 0 else 1 - first
            over = players_turn(rng, g, st, tb, check) if side == SIDE_PLAYERS else zombie_turn(rng, g, st, tb,
                                                                                                    check)
            if over:
                break
        snapshot(st, g)
        if over:
            break
    end_of_game(st, g, tb)
    finish(st, g, tb)
    if check:
        st.viol[g] += outcome_violations(st, g, tb)


@njit
def play_batch(st, tb, seed, first_game, check, rng):
    """Play every game of the batch: game g is game ``first_game + g`` of stream ``seed``."""
    state, tables = by_ref(st), by_ref(tb)  # one pointer each down the call tree (kernels.jit.ByRef)
    for g in range(st.res.shape[0]):
        rng[g] = stream_start(np.uint64(seed), np.uint64(first_game + g))
        begin_streams(rng, g, st.w_stream)  # the set-up rolls from the game's stream, each phase from its own
        play_game(state, g, tables, rng, check)
        end_streams(rng, g, st.w_stream)


# ------------------------------------------------------------------ invariants (checked mode)


@njit
def _unit_violations(st, g, tb):
    bad = 0
    side = tb.prm[P_TABLE]
    for u in range(st.ust.shape[1]):
        n = 0
        for m in range(st.wounds.shape[2]):
            w = st.wounds[g, u, m]
            bad += w < 0 or (w > 0 and w > st.stats[g, u, m, W])
            n += w > 0
        if st.ust[g, u, US_ALIVE] != 0:
            bad += n == 0
            x, y = st.upos[g, u, 0], st.upos[g, u, 1]
            bad += x < -1e-6 or y < -1e-6 or x > side + 1e-6 or y > side + 1e-6
            v = st.ust[g, u, US_EMBARKED] - 1  # apocalypse V11: aboard a living transport, standing where it does
            if v >= 0:
                bad += not unit_alive(st, g, v) or not is_transport(st, g, v) or st.wounds[g, v, 0] <= 0
                bad += abs(st.upos[g, v, 0] - x) > 1e-9 or abs(st.upos[g, v, 1] - y) > 1e-9
                for h in range(st.lock.shape[2]):
                    bad += st.lock[g, u, h] != 0
        else:
            bad += n > 0 or st.ust[g, u, US_EMBARKED] != 0
    return bad


@njit
def _horde_violations(st, g, tb):
    bad = 0
    per = int(tb.prm[P_BONUS_PER])
    for h in range(st.hst.shape[1]):
        s = st.hst[g, h]
        if s[0] == 0:  # HS_ALIVE
            continue
        n = horde_models(st, g, h)
        bad += s[HS_Z] < 0 or s[HS_J] < 0 or s[HS_JH] < 0 or s[HS_JH] > s[HS_J] or n <= 0
        bad += s[HS_K] != horde_bonus(n, per)  # every phase ends with losses settled (§5)
        bad += s[HS_BLIND_HIT] != 0 or s[HS_BLIND] < BLIND_NONE or s[HS_BLIND] > BLIND_THIS_TURN  # tested (core §12)
        brutes = fz = 0
        for k in range(st.sh.shape[1]):
            if st.sh[g, k] == h:
                brutes += st.skind[g, k] == SK_BRUTE
                fz += st.skind[g, k] == SK_FIRST
                bad += st.swounds[g, k] <= 0
        bad += brutes != s[HS_B] or fz != s[HS_FZ]
        locks = 0
        for u in range(st.lock.shape[1]):
            locks += st.lock[g, u, h]
            bad += st.lock[g, u, h] != 0 and st.ust[g, u, US_ALIVE] == 0
        bad += locks != s[HS_LOCKED]
    for k in range(st.sh.shape[1]):
        h = st.sh[g, k]
        bad += h >= 0 and st.hst[g, h, 0] == 0
    return bad


@njit
def _conservation(st, g):
    """Every zombie ever spawned is on the table, killed, or held back."""
    spawned = 0
    for k in range(N_SRC):
        spawned += st.res[g, R_SP0 + k]
    spawned -= st.res[g, R_EXCHANGED]
    return int(spawned != zombies_on_table(st, g) + st.res[g, R_ZKILLED] + st.gst[g, G_HELD])


@njit
def invariant_violations(st, g, tb):
    bad = _unit_violations(st, g, tb) + _horde_violations(st, g, tb) + _conservation(st, g)
    bad += st.gst[g, G_TURN] < 1 or st.gst[g, G_TURN] > int(tb.prm[P_TURNS])
    for p in range(st.wl_unit.shape[1]):
        u = st.wl_unit[g, p]
        bad += u >= 0 and (st.ust[g, u, US_ALIVE] == 0 or st.wounds[g, u, st.wl_slot[g, p]] <= 0)
    return bad


@njit
def outcome_violations(st, g, tb):
    """Exactly one outcome: a winner, a reason that fits it, a turn within the game."""
    bad = invariant_violations(st, g, tb)
    winner, reason = st.res[g, R_WINNER], st.res[g, R_REASON]
    bad += not (winner == SIDE_PLAYERS and reason == REASON_EXTRACTED) and not (
        winner == SIDE_ZOMBIES and (reason == REASON_WARLORDS_DEAD or reason == REASON_TIME))
    bad += st.res[g, R_TURN] < 1 or st.res[g, R_TURN] > int(tb.prm[P_TURNS])
    bad += reason == REASON_WARLORDS_DEAD and warlords_alive(st, g) != 0
    return bad
