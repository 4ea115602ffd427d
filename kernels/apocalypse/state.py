"""Batch state and rule tables of Zombie Apocalypse games (design.md decision 1; house style: pgx).

Axis 0 of every per-game field is the game. The players' side is U unit slots of K model slots
each (a super squad or an Independent Character joining a unit moves a model into another unit's
free slot). The zombie side is **counts per horde plus slots for the models that differ**: a horde
holds plain Zombies and Juggernauts as counts (every plain Zombie has 1 Wound; a Juggernaut that
has lost a Wound is counted in ``HS_JH``, wounds go to it first), and the Brutes and the First
Zombie - each with a profile of its own - sit in S special slots that name their horde. A 4-player
game spawns hundreds of zombies in a few dozen hordes; the state stays a few kilobytes per game.

The ``w_*`` fields are the scratch of the one game being played (a batch is played game after
game by one thread), preallocated so that no kernel allocates (kernels.jit).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from kernels.apocalypse.columns import N_EV, N_GS, N_HS, N_MI, N_PRES, N_RES, N_SS, N_US
from kernels.w40k.columns import N_OUT, N_SPEC, N_STATS
from kernels.w40k.vehicles import N_VOUT, N_VSPEC

N_GEAR = 8  # weapon profiles a model carries
W_SHOOT, W_FIGHT, W_AUTO, W_SPARE = range(4)  # rows of w_spec / w_out: each user its own
N_WORK = 4
OUT_SIXES, OUT_REROLLED = N_OUT, N_OUT + 1  # counters this ruleset adds after the core's (natural 6s, re-rolls)
N_OUT_A = N_OUT + 2
MAX_TERRAIN = 12  # area terrain pieces a table may hold (kernels.apocalypse.terrain)
TX, TY, TR = range(3)  # columns of GameState.terrain


class GameState(NamedTuple):
    """Every game of a batch: U player units x K model slots, H hordes, S special zombies, SP spawners."""

    upos: np.ndarray  # float64[n, U, 2] unit centre, inches from the bottom-left corner
    urad: np.ndarray  # float64[n, U] radius of the unit's disc of living models, inches
    umoved: np.ndarray  # float64[n, U] inches the unit moved this turn (Movement phase + run; A17)
    ust: np.ndarray  # int32[n, U, N_US] unit state (kernels.apocalypse.columns US_*)
    wounds: np.ndarray  # int16[n, U, K] Wounds left; 0 = dead or empty slot; allocation takes the lowest slot
    stats: np.ndarray  # int16[n, U, K, N_STATS] characteristics in play (Warlord traits applied)
    bstats: np.ndarray  # int16[n, U, K, N_STATS] characteristics as built (traits recomputed from these)
    mflags: np.ndarray  # int64[n, U, K] special rules in play (kernels.w40k.columns MR_*)
    bflags: np.ndarray  # int64[n, U, K] special rules as built
    mstatus: np.ndarray  # int8[n, U, K] status bits (ST_CONCUSSED, ST_FORCE)
    gear: np.ndarray  # int16[n, U, K, N_GEAR] weapon-table rows, -1 = none
    minfo: np.ndarray  # int16[n, U, K, N_MI] owner, role, points, model id, wounds from zombies (MI_*)
    hpos: np.ndarray  # float64[n, H, 2] horde centre, inches
    hrad: np.ndarray  # float64[n, H] horde disc radius, inches
    hst: np.ndarray  # int32[n, H, N_HS] horde counts and state (HS_*)
    lock: np.ndarray  # int8[n, U, H] 1 = the unit and the horde are locked in combat
    sh: np.ndarray  # int16[n, S] horde of each special zombie model, -1 = free slot
    skind: np.ndarray  # int8[n, S] SK_BRUTE or SK_FIRST (SK_NONE for a free slot)
    swounds: np.ndarray  # int16[n, S] Wounds left
    sstats: np.ndarray  # int16[n, S, N_STATS] its profile (a Brute: its host's, changed by §4)
    sflags: np.ndarray  # int64[n, S] its special rules (a Brute keeps none of its host's, §4)
    sgear: np.ndarray  # int16[n, S, N_GEAR] its weapons (a Brute keeps its host's wargear)
    spos: np.ndarray  # float64[n, SP, 2] spawner centres, inches
    sst: np.ndarray  # int32[n, SP, N_SS] spawner state (SS_*)
    terrain: np.ndarray  # float64[n, MAX_TERRAIN, 3] area terrain pieces: x, y, radius (inches); radius 0 = none
    gst: np.ndarray  # int32[n, N_GS] game turn, zombie turn, who went first, Graveyard, held-back zombies (G_*)
    wl_unit: np.ndarray  # int32[n, P] unit slot of each player's Warlord, -1 = gone
    wl_slot: np.ndarray  # int32[n, P] its model slot in that unit
    res: np.ndarray  # int32[n, N_RES] result and tallies of the game (R_*)
    pres: np.ndarray  # int32[n, P, N_PRES] per-player results (PR_*)
    events: np.ndarray  # float32[n_traced, E, N_EV] trace events (n_traced = 0: no trace)
    n_events: np.ndarray  # int32[n] events written
    viol: np.ndarray  # int32[n] invariant violations found (checked mode only)
    # scratch of the one game being played (no game axis; never results)
    w_attacker: np.ndarray  # int16[N_STATS] the striking model's profile as modified
    w_spec: np.ndarray  # int64[N_WORK, N_SPEC] attack specs, one row per user (W_*)
    w_out: np.ndarray  # int64[N_WORK, N_OUT_A] their outcome counters
    w_cu: np.ndarray  # int64[U] player units of the combat being fought
    w_ch: np.ndarray  # int64[H] hordes of that combat
    w_mark_u: np.ndarray  # bool[U] units already gathered into a combat this phase
    w_mark_h: np.ndarray  # bool[H] hordes already gathered
    w_charged: np.ndarray  # bool[U] units the horde splitting its charge already charges (A25)
    w_cap: np.ndarray  # int64[U] engaged zombie places left around each unit this Initiative step
    w_eng: np.ndarray  # int64[H, U, 3] engaged plain Zombies, Juggernauts and specials of a horde per unit
    w_noise: np.ndarray  # int64[U] noise zombies each unit made this phase (placed at its end, §9.3)
    w_dealt: np.ndarray  # int64[2] unsaved wounds the players (0) and the zombies (1) caused in this combat
    w_order: np.ndarray  # int64[H] an order of hordes (movement)
    w_keys: np.ndarray  # float64[H] their sort keys
    w_sixes: np.ndarray  # int64[P] natural 6s to hit of each Warlord's unit this combat (Legendary Fighter)
    w_mw: np.ndarray  # int64[U, K] each model's close combat weapon row in the combat being fought, -1 none
    w_ma: np.ndarray  # int64[U, K] its attacks
    w_mi: np.ndarray  # int64[U, K] the Initiative step it strikes at
    w_mt: np.ndarray  # int64[U] the horde each unit attacks
    w_stream: np.ndarray  # uint64[3] the game's dice streams by purpose (kernels.rng.begin_streams)
    w_vspec: np.ndarray  # int64[N_VSPEC] an attack at a vehicle (kernels.w40k.vehicles VS_*)
    w_vout: np.ndarray  # int64[N_VOUT] its counters


class Tables(NamedTuple):
    """The compiled rules of one configuration (sim.rulesets.apocalypse.compile builds it)."""

    weapons: np.ndarray  # int64[n_weapons, N_WFIELDS] (kernels.w40k.columns W_*)
    wound_chart: np.ndarray  # int64[11, 11]
    ws_chart: np.ndarray  # int64[11, 11]
    geom: np.ndarray  # int64[N_GEOM] blast/template abstraction (docs/space.md)
    prm: np.ndarray  # float64[N_PRM] scalar parameters (P_*)
    policy: np.ndarray  # float64[P, N_POL] each player's behaviour (POL_*)
    ut_owner: np.ndarray  # int64[T] player of each unit as bought (T units of all armies, HQs first)
    ut_type: np.ndarray  # int64[T] unit type (UT_*)
    ut_datasheet: np.ndarray  # int64[T] datasheet id (the same id: the same datasheet)
    ut_stats: np.ndarray  # int16[T, K, N_STATS] its models as built
    ut_wounds: np.ndarray  # int16[T, K] starting Wounds, 0 = empty slot
    ut_flags: np.ndarray  # int64[T, K]
    ut_gear: np.ndarray  # int16[T, K, N_GEAR]
    ut_info: np.ndarray  # int16[T, K, N_MI] owner, role, points, id, mastery level, Warlord flag
    ut_carrier: np.ndarray  # int64[T] the Dedicated Transport a unit is bought with and starts in, -1 none (V11)
    zstats: np.ndarray  # int16[N_ZK, N_STATS] Zombie, Juggernaut, First Zombie, Brute changes
    zflags: np.ndarray  # int64[N_ZK] their special rules
    ids: np.ndarray  # int64[N_IDS] weapon rows the kernels need (the close combat weapon)
    v_ap_mods: np.ndarray  # int64[8] the damage roll's modifier by AP (V5; sim.w40k.vehicle_attack.VehicleRules)
    v_damage: np.ndarray  # int64[8] the damage result of a modified roll 0..7+ (V5)


PER_GAME = ("upos", "urad", "umoved", "ust", "wounds", "stats", "bstats", "mflags", "bflags", "mstatus", "gear",
            "minfo", "hpos", "hrad", "hst", "lock", "sh", "skind", "swounds", "sstats", "sflags", "sgear", "spos",
            "sst", "terrain", "gst", "wl_unit", "wl_slot", "res", "pres", "events", "n_events", "viol")


def new_state(n_games: int, n_players: int, n_units: int, max_models: int, n_hordes: int, n_specials: int,
              n_spawners: int, trace_events: int = 0) -> GameState:
    """Allocate the state of ``n_games`` games (zeros; the kernels set them up)."""
    n, u, k, h, s, p = n_games, n_units, max_models, n_hordes, n_specials, n_players
    return GameState(
        upos=np.zeros((n, u, 2)), urad=np.zeros((n, u)), umoved=np.zeros((n, u)),
        ust=np.zeros((n, u, N_US), np.int32), wounds=np.zeros((n, u, k), np.int16),
        stats=np.zeros((n, u, k, N_STATS), np.int16), bstats=np.zeros((n, u, k, N_STATS), np.int16),
        mflags=np.zeros((n, u, k), np.int64), bflags=np.zeros((n, u, k), np.int64),
        mstatus=np.zeros((n, u, k), np.int8), gear=np.full((n, u, k, N_GEAR), -1, np.int16),
        minfo=np.zeros((n, u, k, N_MI), np.int16),
        hpos=np.zeros((n, h, 2)), hrad=np.zeros((n, h)), hst=np.zeros((n, h, N_HS), np.int32),
        lock=np.zeros((n, u, h), np.int8),
        sh=np.full((n, s), -1, np.int16), skind=np.zeros((n, s), np.int8), swounds=np.zeros((n, s), np.int16),
        sstats=np.zeros((n, s, N_STATS), np.int16), sflags=np.zeros((n, s), np.int64),
        sgear=np.full((n, s, N_GEAR), -1, np.int16),
        spos=np.zeros((n, n_spawners, 2)), sst=np.zeros((n, n_spawners, N_SS), np.int32),
        terrain=np.zeros((n, MAX_TERRAIN, 3)),
        gst=np.zeros((n, N_GS), np.int32), wl_unit=np.full((n, p), -1, np.int32),
        wl_slot=np.full((n, p), -1, np.int32), res=np.zeros((n, N_RES), np.int32),
        pres=np.zeros((n, p, N_PRES), np.int32),
        events=np.zeros((n if trace_events else 0, trace_events, N_EV), np.float32),
        n_events=np.zeros(n, np.int32), viol=np.zeros(n, np.int32),
        w_attacker=np.zeros(N_STATS, np.int16),
        w_spec=np.zeros((N_WORK, N_SPEC), np.int64), w_out=np.zeros((N_WORK, N_OUT_A), np.int64),
        w_cu=np.zeros(u, np.int64), w_ch=np.zeros(h, np.int64), w_mark_u=np.zeros(u, np.bool_),
        w_mark_h=np.zeros(h, np.bool_), w_charged=np.zeros(u, np.bool_), w_cap=np.zeros(u, np.int64),
        w_eng=np.zeros((h, u, 3), np.int64),
        w_noise=np.zeros(u, np.int64), w_dealt=np.zeros(2, np.int64), w_order=np.zeros(h, np.int64),
        w_keys=np.zeros(max(h, 2 * p + 2)), w_sixes=np.zeros(p, np.int64), w_mw=np.zeros((u, k), np.int64),
        w_ma=np.zeros((u, k), np.int64), w_mi=np.zeros((u, k), np.int64), w_mt=np.zeros(u, np.int64),
        w_stream=np.zeros(3, np.uint64), w_vspec=np.zeros(N_VSPEC, np.int64), w_vout=np.zeros(N_VOUT, np.int64),
    )


def head(state: GameState, count: int) -> GameState:
    """The first ``count`` games of a batch (views), with the batch's scratch."""
    return state._replace(**{name: getattr(state, name)[:count] for name in PER_GAME})
