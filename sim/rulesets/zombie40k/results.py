"""Zombie 40,000's result rows: one per (game, player), the common columns, then its own.

Its own columns, after `sim.ruleset.COMMON_COLUMNS` (``won``: the player escaped, or in Coop Mode
every embarked player of a game won by the players; ``game_winner``: the escapee's name, "all
players" for a Coop win, "" for none; ``reason``: escape / timeout / all_dead / coop_win):

team, policy (the preset the player's policy equals, or "custom"), wipes, respawns, zombies_killed,
hordes_killed, boss_killed, models_lost, models_left,
ev_distance_in (inches from the Escape Vehicle at the end; NaN off the table, 0 embarked),
rivals_killed, escaped (1 if embarked on the Escape Vehicle), and ``pu_<power-up>``: power-ups
drawn, by type.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from kernels.zombie40k import columns as GL
from sim.ruleset import common_frame
from sim.rulesets.zombie40k.config import POLICY_PRESETS

RULESET = "zombie40k"
REASONS = {GL.REASON_ESCAPE: "escape", GL.REASON_TIMEOUT: "timeout", GL.REASON_ALL_DEAD: "all_dead",
           GL.REASON_COOP_WIN: "coop_win"}
POWERUP_NAMES = {2: "zombie_bile", 3: "banana_peel", 4: "ork_boy", 5: "duct_tape", 6: "chainsaw", 7: "medpack",
                 8: "shotgun", 9: "mushroom", 10: "defibrillator", 11: "shades", 12: "chuck_norris"}
PLAYER_COLUMNS = {
    GL.PR_WIPES: "wipes", GL.PR_RESPAWNS: "respawns", GL.PR_ZOMBIES_KILLED: "zombies_killed",
    GL.PR_HORDES_KILLED: "hordes_killed", GL.PR_BOSS_KILLED: "boss_killed", GL.PR_MODELS_LOST: "models_lost",
    GL.PR_MODELS_LEFT: "models_left", GL.PR_EV_DISTANCE: "ev_distance_in", GL.PR_RIVALS_KILLED: "rivals_killed",
    GL.PR_EMBARKED: "escaped",
}


def policy_name(policy) -> str:
    """The preset a policy equals (``dash``...), or "custom"."""
    return next((name for name, preset in POLICY_PRESETS.items() if preset == policy), "custom")


def results_frame(config, state, first_game: int, dice: np.ndarray) -> pd.DataFrame:
    """The tidy (game, player) rows of one played batch (``state`` None: no rows)."""
    n_p = config.n_players
    n = 0 if state is None else state.res.shape[0]
    res = np.zeros((0, GL.N_RES), np.int32) if state is None else state.res
    pres = np.zeros((0, n_p, GL.N_PRES)) if state is None else state.pres
    names = np.array([p.name for p in config.players], dtype=object)
    winner, reason = res[:, GL.R_WINNER], res[:, GL.R_REASON]
    coop_win = reason == GL.REASON_COOP_WIN
    won = (winner[:, None] == np.arange(n_p)[None, :]) | (coop_win[:, None] & (pres[:, :, GL.PR_EMBARKED] > 0))
    winner_names = np.where(coop_win, "all players", np.where(winner >= 0, names[np.maximum(winner, 0)], ""))
    reasons = np.array([REASONS.get(int(r), "?") for r in reason], dtype=object)
    cols = common_frame(RULESET, names, first_game, n, won, winner_names, reasons, res[:, GL.R_TURNS],
                        np.asarray(dice, np.int64)[:n])
    cols["team"] = np.tile(np.array([p.team.name for p in config.players], dtype=object), n)
    cols["policy"] = np.tile(np.array([policy_name(p.policy) for p in config.players], dtype=object), n)
    for k, name in PLAYER_COLUMNS.items():  # counts are integers; only the distance is a measure
        values = pres[:, :, k].ravel()
        cols[name] = values if k == GL.PR_EV_DISTANCE else values.astype(np.int64)
    for r, name in POWERUP_NAMES.items():
        cols[f"pu_{name}"] = pres[:, :, GL.PR_POWERUP0 + r].ravel().astype(np.int64)
    return pd.DataFrame(cols)
