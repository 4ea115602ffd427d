"""Tidy results: one row per (game, player), the common columns first (``sim.ruleset``)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from kernels.zombies9 import layout as L
from sim.ruleset import COMMON_COLUMNS, common_frame
from sim.rulesets.zombies9.config import Zombies9Config, preset_name

RULESET_ID = "zombies9"
REASONS = {L.REASON_HELIPAD: "helipad", L.REASON_KILLS: "kills", L.REASON_CREMATORIUM: "crematorium",
           L.REASON_CEMETERIES: "cemeteries", L.REASON_TIMEOUT: "timeout"}
END_REASONS = tuple(REASONS.values())
PLAYER_COLUMNS = {  # per-player tallies (GameState.pres) -> column
    L.PR_ORDER: "turn_order", L.PR_KILLS: "kills", L.PR_KILLED: "zombies_killed", L.PR_DEATHS: "deaths",
    L.PR_HEARTS: "hearts_spent", L.PR_BULLETS: "bullets_spent", L.PR_CARDS: "cards_played",
    L.PR_TILES: "tiles_laid", L.PR_FIGHTS: "fights", L.PR_TOKENS: "tokens", L.PR_LOST: "zombies_lost",
    L.PR_TURNS_LOST: "turns_lost", L.PR_HELI_LAID: "laid_helipad", L.PR_CREM_LAID: "laid_crematorium",
    L.PR_REPLIES: "replies", L.PR_CANCELLED: "cancelled",
}
INTEGER = {"turn_order", "kills", "zombies_killed", "deaths", "bullets_spent", "cards_played", "tiles_laid", "fights",
           "tokens", "zombies_lost", "turns_lost", "laid_helipad", "laid_crematorium", "replies", "cancelled"}
GAME_COLUMNS = {L.RES_TURNS: "player_turns", L.RES_HELI_ROUND: "helipad_round",
                L.RES_CREM_ROUND: "crematorium_round", L.RES_HELI_GONE: "helipad_gone", L.RES_TILES: "tiles"}
COLUMNS = COMMON_COLUMNS + ("policy", "mode") + tuple(PLAYER_COLUMNS.values()) + tuple(GAME_COLUMNS.values())


def results_frame(config: Zombies9Config, state, first_game: int, dice: np.ndarray | None) -> pd.DataFrame:
    """The rows of one played batch (``state`` None: an empty frame with every column)."""
    n_p = config.n_players
    names = [p.name for p in config.players]
    if state is None:
        return pd.DataFrame({c: pd.Series(dtype=object) for c in COLUMNS})
    res, pres = state.res, state.pres
    n = res.shape[0]
    winner = res[:, L.RES_WINNER]
    won = winner[:, None] == np.arange(n_p)[None, :]
    winner_names = np.where(winner >= 0, np.array(names, dtype=object)[np.maximum(winner, 0)], "")
    reasons = np.array([REASONS.get(int(r), "?") for r in res[:, L.RES_REASON]], dtype=object)
    dice = np.zeros(n, np.int64) if dice is None else dice
    cols = common_frame(RULESET_ID, names, first_game, n, won, winner_names, reasons, res[:, L.RES_ROUNDS], dice)
    cols["policy"] = np.tile(np.array([preset_name(p.policy) for p in config.players], dtype=object), n)
    cols["mode"] = np.full(n * n_p, config.mode, dtype=object)
    for k, name in PLAYER_COLUMNS.items():
        values = pres[:, :, k].reshape(n * n_p)
        cols[name] = values.astype(np.int64) if name in INTEGER else values
    for k, name in GAME_COLUMNS.items():
        cols[name] = np.repeat(res[:, k].astype(np.int64), n_p)
    return pd.DataFrame(cols, columns=list(COLUMNS))
