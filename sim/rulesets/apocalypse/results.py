"""Zombie Apocalypse's result rows: one per (game, player), the common columns, then its own.

Common columns (`sim.ruleset.COMMON_COLUMNS`): ``won`` is True for every player of a game the
players won (a cooperative win: all or none); ``game_winner`` is "players" or "zombies";
``reason`` extracted / warlords_dead / time (§13); ``turns`` the game turn of the result.

Per player: ``army``, ``trait`` (the Warlord trait in play), ``policy`` (the preset the player's policy
equals, or "custom"), ``warlord`` (the Warlord's fate:
alive / killed / brute / spawner / fled), ``extracted`` (1 if this Warlord stood on the zone at
the end), ``models_start``, ``models_lost``, ``brutes`` (this player's models that rose as
Brutes), ``zombies_killed`` (by this player's models), ``noise`` (zombies this player's units
attracted), ``grenades`` (grenades this player's models threw, core §6.1); when some army fields a vehicle
(issue 32), also ``hull_points_lost`` (Hull Points its vehicles lost), ``vehicles_lost`` (its
vehicles wrecked) and ``wreck_spawners`` (its wrecks that became spawners, §10); when some army fields a
Dedicated Transport, also ``transports_wrecked_by_horde`` (its transports wrecked at once by a charge of 30 or
more zombies, §8) and ``passengers_lost`` (its models lost aboard: an explosion's hits, §8's Brutes).
Per game (the same on every row of a game): ``warlords_left``, ``brutes_created``,
``zombies_killed_total``, ``juggernauts``, ``largest_horde``, ``graveyard_turn`` (0 = not sprung),
``first_zombie_killed``, ``spawner_deaths``, ``aura_wounds``, ``zombies_on_table``,
``held_back_max`` (the most zombies waiting off the table, A37), ``slot_overflow`` (spawns that
found no free horde slot and joined the nearest horde: 0 unless the state is sized too small), and the
zombies spawned by source, ``spawned_<source>`` (deployment, waves, edges, graveyard, pistol,
assault, rapid_fire, heavy, template, reroll, psychic, overwatch, movement, brute; counted as
rolled, before Juggernaut exchanges) with their total ``spawned_total`` and ``spawned_noise``
(the gunfire, psychic, re-roll, Overwatch and movement lines).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from kernels.apocalypse import columns as C
from sim.ruleset import common_frame
from sim.rulesets.apocalypse.config import POLICY_PRESETS, RULESET_ID, TRAITS, fields_vehicles

REASONS = {C.REASON_EXTRACTED: "extracted", C.REASON_WARLORDS_DEAD: "warlords_dead", C.REASON_TIME: "time"}
FATES = ("alive", "killed", "brute", "spawner", "fled")
SOURCES = ("deployment", "waves", "edges", "graveyard", "pistol", "assault", "rapid_fire", "heavy", "template",
           "reroll", "psychic", "overwatch", "movement", "brute")  # index = kernels.apocalypse.columns SRC_*
NOISE = ("pistol", "assault", "rapid_fire", "heavy", "template", "reroll", "psychic", "overwatch", "movement")
GAME_COLUMNS = {C.R_WARLORDS_LEFT: "warlords_left", C.R_BRUTES: "brutes_created", C.R_ZKILLED: "zombies_killed_total",
                C.R_JUGGERNAUTS: "juggernauts", C.R_MAX_HORDE: "largest_horde", C.R_GRAVEYARD_TURN: "graveyard_turn",
                C.R_FZ_KILLED: "first_zombie_killed", C.R_SPAWNER_DEATHS: "spawner_deaths",
                C.R_AURA_WOUNDS: "aura_wounds", C.R_ON_TABLE: "zombies_on_table", C.R_HELD_MAX: "held_back_max",
                C.R_OVERFLOW: "slot_overflow"}
PLAYER_COLUMNS = {C.PR_WL_EXTRACTED: "extracted", C.PR_MODELS_START: "models_start", C.PR_MODELS_LOST: "models_lost",
                  C.PR_BRUTES: "brutes", C.PR_ZKILLED: "zombies_killed", C.PR_NOISE: "noise",
                  C.PR_GRENADES: "grenades"}
VEHICLE_COLUMNS = {C.PR_HULL_LOST: "hull_points_lost", C.PR_VEHICLES_LOST: "vehicles_lost",
                   C.PR_WRECK_SPAWNERS: "wreck_spawners"}
TRANSPORT_COLUMNS = {C.PR_HORDE_WRECKS: "transports_wrecked_by_horde", C.PR_PASSENGERS_LOST: "passengers_lost"}


def preset_name(policy) -> str:
    """The preset a policy equals, or "custom"."""
    return next((name for name, preset in POLICY_PRESETS.items() if preset == policy), "custom")


def results_frame(config, state, first_game: int, dice: np.ndarray) -> pd.DataFrame:
    """The tidy (game, player) rows of one played batch (``state`` None: no rows)."""
    n_p = config.n_players
    n = 0 if state is None else state.res.shape[0]
    res = np.zeros((0, C.N_RES), np.int32) if state is None else state.res
    pres = np.zeros((0, n_p, C.N_PRES), np.int32) if state is None else state.pres
    names = [p.name for p in config.players]
    players_won = res[:, C.R_WINNER] == C.SIDE_PLAYERS
    won = np.repeat(players_won[:, None], n_p, axis=1)
    winner = np.where(players_won, "players", "zombies").astype(object)
    reasons = np.array([REASONS.get(int(r), "?") for r in res[:, C.R_REASON]], dtype=object)
    cols = common_frame(RULESET_ID, names, first_game, n, won, winner, reasons, res[:, C.R_TURN],
                        np.asarray(dice, np.int64)[:n])
    cols["army"] = np.tile(np.array([p.army.name for p in config.players], dtype=object), n)
    cols["trait"] = np.array([TRAITS[int(t)] for t in pres[:, :, C.PR_TRAIT].ravel()], dtype=object)
    cols["policy"] = np.tile(np.array([preset_name(p.policy) for p in config.players], dtype=object), n)
    cols["warlord"] = np.array([FATES[int(f)] for f in pres[:, :, C.PR_WL_FATE].ravel()], dtype=object)
    for k, name in PLAYER_COLUMNS.items():
        cols[name] = pres[:, :, k].ravel().astype(np.int64)
    if fields_vehicles(config):  # only then: the frames of armies without vehicles keep their columns
        for k, name in VEHICLE_COLUMNS.items():
            cols[name] = pres[:, :, k].ravel().astype(np.int64)
    if fields_vehicles(config, "transport"):  # only then: the Walker armies' frames keep theirs
        for k, name in TRANSPORT_COLUMNS.items():
            cols[name] = pres[:, :, k].ravel().astype(np.int64)
    for k, name in GAME_COLUMNS.items():
        cols[name] = np.repeat(res[:, k].astype(np.int64), n_p)
    spawned = res[:, C.R_SP0:C.R_SP0 + len(SOURCES)].astype(np.int64)
    for k, name in enumerate(SOURCES):
        cols[f"spawned_{name}"] = np.repeat(spawned[:, k], n_p)
    cols["spawned_total"] = np.repeat(spawned.sum(axis=1), n_p)
    noise = [SOURCES.index(s) for s in NOISE]
    cols["spawned_noise"] = np.repeat(spawned[:, noise].sum(axis=1), n_p)
    return pd.DataFrame(cols)
