"""Batch state and rule tables of whole games (design.md decision 1; house style: pgx).

``GameState`` holds fixed-shape arrays, axis 0 = game: padded model slots with Wounds 0 for
dead or empty slots, and a unit axis for squads, hordes and the Boss (kernels.zombie40k.columns).
Its ``w_*`` fields are the scratch of the game being played (no game axis: one thread plays a
batch game after game), preallocated so that no kernel allocates (kernels.jit).
``Tables`` holds the compiled rules every game of a batch shares. Both are plain NamedTuples
of numpy arrays, passed to every kernel; nothing is a module global.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from kernels.w40k.columns import N_OUT, N_SPEC, N_STATS
from kernels.zombie40k.columns import N_CHOICE, N_EV, N_GEAR, N_NOW, N_PRES, N_PU, N_RES, N_SU, N_US

# rows of GameState.w_spec / w_out: each user its own, as one may run inside another (a shot
# into a combat resolves each hit with its own spec while the volley's spec is in use)
W_FIGHT, W_HAMMER, W_SHOOT, W_SPLIT, W_INTO_COMBAT, W_MOB, W_DANGER = range(7)
N_WORK = 7
X_ZOMBIE, X_BOSS, X_ORK_BOY = 0, 1, 2  # rows of Tables.extra_*
MAX_TERRAIN = 64  # pieces of area terrain a game may have (zombie40k §3.1; sim checks terrain_density)
ID_AUTOGUN, ID_CCW, ID_SHOTGUN, N_IDS = 0, 1, 2, 3  # rows of Tables.ids


class GameState(NamedTuple):
    """Every game of a batch; axis 0 is the game, U units, M model slots per unit."""

    pos: np.ndarray  # float64[n, U, 2] unit centre, inches (x across, y towards the EV)
    radius: np.ndarray  # float64[n, U] radius of the unit's blob of living models, inches
    wounds: np.ndarray  # int16[n, U, M] Wounds left; 0 = dead or empty slot; slot 0 is closest
    stats: np.ndarray  # int16[n, U, M, N_STATS] characteristics (kernels.w40k.columns WS..RP)
    mflags: np.ndarray  # int64[n, U, M] special rules (kernels.w40k.columns MR_*)
    mstatus: np.ndarray  # int8[n, U, M] status bits (ST_CONCUSSED)
    gear: np.ndarray  # int16[n, U, M, N_GEAR] weapon-table rows, -1 = none
    mpow: np.ndarray  # int8[n, U, M] power-ups on the model (MP_*)
    ustate: np.ndarray  # int32[n, U, N_US] unit state (US_*)
    usum: np.ndarray  # int64[n, U, N_SU] unit summaries kept between changes (SU_*; kernels.zombie40k.units)
    locked: np.ndarray  # int8[n, U, U] 1 if the two units are locked in the same combat
    grudge: np.ndarray  # int8[n, P, P] grudge[a, b] = 1: b has shot at a, so a may shoot b
    pu: np.ndarray  # int32[n, P, N_PU] power-ups each squad holds (PU_*)
    terrain: np.ndarray  # float64[n, MAX_TERRAIN, 4] area terrain: x, y, radius (0 = none), dangerous (0/1)
    res: np.ndarray  # int32[n, N_RES] winner (-1 none), end reason, game turns
    pres: np.ndarray  # float64[n, P, N_PRES] per-player tallies (PR_*)
    events: np.ndarray  # float32[n_traced, E, N_EV] trace events (n_traced = 0: no trace)
    n_events: np.ndarray  # int32[n] events written
    viol: np.ndarray  # int32[n] invariant violations found (checked mode only)
    # scratch of the one game being played (a batch is played by one thread, game after game):
    # preallocated so that the kernels never allocate (kernels.jit); not per game, never results
    w_member: np.ndarray  # bool[U] units of the combat being fought
    w_inflicted: np.ndarray  # int64[U] unsaved wounds each unit inflicted this combat round
    w_suffered: np.ndarray  # int64[U] unsaved wounds each unit suffered
    w_target: np.ndarray  # int64[U] the unit each unit attacks (-1 none)
    w_rampage: np.ndarray  # int64[U] Rampage bonus attacks
    w_fought: np.ndarray  # bool[U] units whose combat was fought this Zombie Assault phase
    w_combat: np.ndarray  # bool[U] units of the combat a shot is fired into
    w_fuel_out: np.ndarray  # bool[U, M] chainsaws that rolled a 1
    w_choice: np.ndarray  # int64[U, M, N_CHOICE] melee choice kept for the round (kernels.zombie40k.assault)
    w_step: np.ndarray  # int64[U, M] the Initiative step each model strikes at (assault._next_step)
    w_dice: np.ndarray  # int64[U, M] attacks at this Initiative step
    w_weapon: np.ndarray  # int64[U, M] weapon row of those attacks
    w_was: np.ndarray  # int16[M] Wounds of the defender before a strike (Dead Men Walking)
    w_attacker: np.ndarray  # int16[N_STATS] the striking model's profile as modified
    w_spec: np.ndarray  # int64[N_WORK, N_SPEC] attack specs, one row per user (W_*)
    w_out: np.ndarray  # int64[N_WORK, N_OUT] their outcome counters
    w_order: np.ndarray  # int64[U] the order zombie units shamble in
    w_turn: np.ndarray  # int64[P] the players' order this game turn (turn.turn_order; set-up's roll-off)
    w_left: np.ndarray  # bool[P] players not yet placed by a roll-off (spawning.rolloff_order)
    w_contenders: np.ndarray  # bool[P] players still rolling in one roll-off
    w_rolls: np.ndarray  # int64[P] their dice
    w_keys: np.ndarray  # float64[U] their distances to their targets
    w_queue: np.ndarray  # int64[U] units of a combat still to visit (units.combat_members)
    w_near: np.ndarray  # float64[U, 4] the keep-away circles a move may touch (geometry.near_circles)
    w_now: np.ndarray  # int64[N_NOW] the phase being played and whose it is (units.enter_phase)
    w_stream: np.ndarray  # uint64[3] the game's dice streams by purpose (kernels.rng.begin_streams)
    w_usum: np.ndarray  # int64[1, 1, N_SU] a recount of one unit's summaries (checked mode: units.stale_summaries)


class Tables(NamedTuple):
    """The compiled rules of one game configuration (sim.rulesets.zombie40k.compile builds it)."""

    weapons: np.ndarray  # int64[n_weapons, N_WFIELDS]
    wound_chart: np.ndarray  # int64[11, 11]
    ws_chart: np.ndarray  # int64[11, 11]
    geom: np.ndarray  # int64[N_GEOM] blast/template abstraction
    prm: np.ndarray  # float64[N_PRM] scalar parameters (P_*)
    policy: np.ndarray  # float64[P, N_POL] each player's behaviour
    squad_stats: np.ndarray  # int16[P, M, N_STATS] each squad as built (respawns restore it)
    squad_wounds: np.ndarray  # int16[P, M] starting Wounds, 0 = empty slot
    squad_flags: np.ndarray  # int64[P, M]
    squad_gear: np.ndarray  # int16[P, M, N_GEAR]
    extra_stats: np.ndarray  # int16[3, N_STATS] Zombie, Zombie Boss, Ork Boy
    extra_flags: np.ndarray  # int64[3]
    extra_gear: np.ndarray  # int16[3, N_GEAR]
    ids: np.ndarray  # int64[N_IDS] weapon rows: the horde's autogun, the close combat weapon, the appendix Shotgun
    pu_value: np.ndarray  # float64[13] how much a squad values each power-up (roll twice, keep one)
    horde_size: np.ndarray  # int64[1] models per horde
    shop: np.ndarray  # int64[n_items, N_SHOP] Killing Floor items in wish-list order (0 rows: no shop)


PER_GAME = tuple(name for name in GameState._fields if not name.startswith("w_"))  # axis 0 is the game


def new_state(n_games: int, n_players: int, n_units: int, max_models: int, trace_events: int = 0) -> GameState:
    """Allocate the state of ``n_games`` games (zeros; the kernels set them up)."""
    n, u, m, p = n_games, n_units, max_models, n_players
    return GameState(
        pos=np.zeros((n, u, 2)),
        radius=np.zeros((n, u)),
        wounds=np.zeros((n, u, m), np.int16),
        stats=np.zeros((n, u, m, N_STATS), np.int16),
        mflags=np.zeros((n, u, m), np.int64),
        mstatus=np.zeros((n, u, m), np.int8),
        gear=np.full((n, u, m, N_GEAR), -1, np.int16),
        mpow=np.zeros((n, u, m), np.int8),
        ustate=np.zeros((n, u, N_US), np.int32),
        usum=np.zeros((n, u, N_SU), np.int64),
        locked=np.zeros((n, u, u), np.int8),
        grudge=np.zeros((n, p, p), np.int8),
        pu=np.zeros((n, p, N_PU), np.int32),
        terrain=np.zeros((n, MAX_TERRAIN, 4)),
        res=np.zeros((n, N_RES), np.int32),
        pres=np.zeros((n, p, N_PRES)),
        events=np.zeros((n if trace_events else 0, trace_events, N_EV), np.float32),
        n_events=np.zeros(n, np.int32),
        viol=np.zeros(n, np.int32),
        w_member=np.zeros(u, np.bool_),
        w_inflicted=np.zeros(u, np.int64),
        w_suffered=np.zeros(u, np.int64),
        w_target=np.zeros(u, np.int64),
        w_rampage=np.zeros(u, np.int64),
        w_fought=np.zeros(u, np.bool_),
        w_combat=np.zeros(u, np.bool_),
        w_fuel_out=np.zeros((u, m), np.bool_),
        w_choice=np.zeros((u, m, N_CHOICE), np.int64),
        w_step=np.zeros((u, m), np.int64),
        w_dice=np.zeros((u, m), np.int64),
        w_weapon=np.zeros((u, m), np.int64),
        w_was=np.zeros(m, np.int16),
        w_attacker=np.zeros(N_STATS, np.int16),
        w_spec=np.zeros((N_WORK, N_SPEC), np.int64),
        w_out=np.zeros((N_WORK, N_OUT), np.int64),
        w_order=np.zeros(u, np.int64),
        w_turn=np.zeros(p, np.int64),
        w_left=np.zeros(p, np.bool_),
        w_contenders=np.zeros(p, np.bool_),
        w_rolls=np.zeros(p, np.int64),
        w_keys=np.zeros(u),
        w_queue=np.zeros(u, np.int64),
        w_near=np.zeros((u, 4)),
        w_now=np.zeros(N_NOW, np.int64),
        w_stream=np.zeros(3, np.uint64),
        w_usum=np.zeros((1, 1, N_SU), np.int64),
    )


def head(state: GameState, count: int) -> GameState:
    """The first ``count`` games of a batch (views), with the batch's scratch."""
    return state._replace(**{name: getattr(state, name)[:count] for name in PER_GAME})
