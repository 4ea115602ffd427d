"""Tidy results of Out West games: one row per (game, human of the posse).

The common columns come first (sim.ruleset.COMMON_COLUMNS): ``player`` is the character's index
in the posse, ``name`` his name, ``won`` whether he counts for the posse's win (Hold the town
and Clean-up: he survived a won game; Escape: he got off the table in a won game),
``game_winner`` "posse", "zombies" or "" (a timeout), ``reason`` one of `END_REASONS`.

Then, per human: ``class`` (at the start) and ``class_end`` (Citizens advance, §2.1), ``guns``,
``outcome`` (survived / unconscious / escaped / killed / devoured / risen), ``survived`` (on the
table at the end, alive, conscious and not a zombie), ``zombies_destroyed``, ``shots`` (shooting
rolls made; a shotgun's Fire is two), ``bites``, ``activations``; and per game (repeated on each
of its rows): ``humans_bitten``, ``zombies_risen``, ``humans_devoured``, ``humans_escaped``,
``game_zombies_destroyed``, ``zombies_returned`` and ``cards`` (cards drawn).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from kernels.outwest import layout as L
from sim.ruleset import COMMON_COLUMNS, common_frame
from sim.rulesets.outwest.config import CLASSES, RULESET_ID, OutwestConfig

END_REASONS = ("held", "escaped", "cleared", "overrun", "timeout")
REASONS = {L.REASON_HELD: "held", L.REASON_ESCAPED: "escaped", L.REASON_CLEARED: "cleared",
           L.REASON_OVERRUN: "overrun", L.REASON_TIMEOUT: "timeout"}
WINNERS = {L.WIN_NONE: "", L.WIN_POSSE: "posse", L.WIN_ZOMBIES: "zombies"}
OUTCOMES = ("survived", "unconscious", "escaped", "killed", "devoured", "risen")
PER_GAME = {"humans_bitten": L.GS_BITTEN, "zombies_risen": L.GS_RISEN, "humans_devoured": L.GS_DEVOURED,
            "humans_escaped": L.GS_ESCAPED, "game_zombies_destroyed": L.GS_DESTROYED,
            "zombies_returned": L.GS_RETURNED, "cards": L.GS_CARDS}
COLUMNS = COMMON_COLUMNS + ("class", "class_end", "guns", "outcome", "survived", "zombies_destroyed", "shots",
                            "bites", "activations") + tuple(PER_GAME)


def outcomes(fi: np.ndarray, pres: np.ndarray, n_humans: int) -> np.ndarray:
    """int[n, H] index into OUTCOMES of each human at the end of his game."""
    kind, state, fate = fi[:, :n_humans, L.FI_KIND], fi[:, :n_humans, L.FI_STATE], fi[:, :n_humans, L.FI_FATE]
    out = np.zeros(kind.shape, np.int64)
    out[state == L.S_OUT] = 1
    out[fate == L.FATE_ESCAPED] = 2
    out[fate == L.FATE_DEAD] = 3
    out[fate == L.FATE_DEVOURED] = 4
    out[pres[:, :, L.PR_RISEN] != 0] = 5
    return out


def results_frame(config: OutwestConfig, state, first_game: int, dice: np.ndarray) -> pd.DataFrame:
    """The tidy (game, human) rows of one played batch (``state`` None: an empty frame)."""
    H = config.n_humans
    if state is None:
        return pd.DataFrame({c: pd.Series(dtype=object) for c in COLUMNS})
    gs, fi, pres = state.gs, state.fi, state.pres
    n = gs.shape[0]
    outcome = outcomes(fi, pres, H)
    winner = gs[:, L.GS_WINNER]
    survived = outcome == 0
    escaped = outcome == 2
    posse_won = (winner == L.WIN_POSSE)[:, None]
    scenario_escape = config.scenario == "escape"
    won = posse_won & (escaped if scenario_escape else survived)
    cols = common_frame(RULESET_ID, [p.name for p in config.players], first_game, n, won,
                        np.array([WINNERS[int(w)] for w in winner], dtype=object),
                        np.array([REASONS.get(int(r), "?") for r in gs[:, L.GS_REASON]], dtype=object),
                        gs[:, L.GS_TURN], np.asarray(dice, np.int64)[:n])
    cls_names = np.array(CLASSES, dtype=object)
    cols["class"] = np.tile(np.array([p.cls for p in config.players], dtype=object), n)
    cols["class_end"] = cls_names[np.clip(pres[:, :, L.PR_CLASS], 0, 3)].ravel()
    cols["guns"] = np.tile(np.array(["+".join(p.guns) for p in config.players], dtype=object), n)
    cols["outcome"] = np.array(OUTCOMES, dtype=object)[outcome].ravel()
    cols["survived"] = survived.ravel()
    cols["zombies_destroyed"] = pres[:, :, L.PR_DESTROYED].ravel().astype(np.int64)
    cols["shots"] = pres[:, :, L.PR_SHOTS].ravel().astype(np.int64)
    cols["bites"] = pres[:, :, L.PR_BITES].ravel().astype(np.int64)
    cols["activations"] = pres[:, :, L.PR_ACTIONS].ravel().astype(np.int64)
    for name, k in PER_GAME.items():
        cols[name] = np.repeat(gs[:, k].astype(np.int64), H)
    return pd.DataFrame(cols, columns=list(COLUMNS))
