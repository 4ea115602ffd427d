"""Zombie 40,000's trace renderer (``shamble trace``): one game told turn by turn from its events
(``kernels.zombie40k.columns`` EV_*), and the table drawn at the end of each game turn."""

from __future__ import annotations

import numpy as np

from kernels.zombie40k import columns as GL
from sim.rulesets.zombie40k.config import GameConfig
from sim.rulesets.zombie40k.results import POWERUP_NAMES

PHASES = {GL.PH_SETUP: "setup", GL.PH_ROLLOFF: "start of turn", GL.PH_RESPAWN: "respawn", GL.PH_MOVEMENT: "movement",
          GL.PH_PSYCHIC: "psychic", GL.PH_SHOOTING: "shooting", GL.PH_ASSAULT: "assault",
          GL.PH_Z_RESPAWN: "zombie respawn", GL.PH_SHAMBLE: "shamble", GL.PH_Z_SHOOTING: "zombie shooting",
          GL.PH_Z_ASSAULT: "zombie assault", GL.PH_END: "end"}
ARRIVALS = {1: "the player edge", 2: "the left edge", 3: "the right edge", 4: "the Escape Vehicle edge",
            5: "a deep strike at the centre", 6: "a deep strike placed by the furthest player"}


def unit_name(config: GameConfig, u: int) -> str:
    n_p = config.n_players
    if u < 0:
        return "nobody"
    if u < n_p:
        return config.players[u].name
    if u == n_p * (1 + config.hordes_per_player):
        return "the Zombie Boss"
    return f"horde {u - n_p + 1}"


def count(n: float, word: str) -> str:
    """'1 model', '3 models', '1 unsaved wound'."""
    n = int(n)
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _left(name: str, n: float) -> str:
    """'; horde 2 has 3 models left' (nothing when the count is not known)."""
    return "" if n < 0 else f"; {name} has {count(n, 'model')} left" if n else f"; {name} has no model left"


def describe(config: GameConfig, ev: np.ndarray) -> str | None:
    """One line for one event (None for bookkeeping events)."""
    kind, u, o = int(ev[GL.EV_KIND]), int(ev[GL.EV_UNIT]), int(ev[GL.EV_OTHER])
    a, b, c = float(ev[GL.EV_A]), float(ev[GL.EV_B]), float(ev[GL.EV_C])
    mine, theirs = float(ev[GL.EV_MODELS]), float(ev[GL.EV_OTHER_MODELS])
    who, other = unit_name(config, u), unit_name(config, o)
    with_models = f" with {count(mine, 'model')}" if mine > 0 else ""
    texts = {
        GL.EK_DEPLOY: f"{who} deploys at ({a:.1f}, {b:.1f}){with_models}",
        GL.EK_TERRAIN: f"a ruin{' (dangerous terrain)' if o else ''} {2 * c:.0f}\" across at ({a:.1f}, {b:.1f})",
        GL.EK_ORDER: f"roll-off: {who} goes first, {other} last",
        GL.EK_RESPAWN: f"{who} respawns at ({a:.1f}, {b:.1f}){with_models}",
        GL.EK_MOVE: f"{who} moves {a:.1f}\" to ({b:.1f}, {c:.1f})" + (f" after {other}" if o >= 0 else ""),
        GL.EK_RUN: f"{who} runs {a:.1f}\" to ({b:.1f}, {c:.1f})",
        GL.EK_EMBARK: f"{who} EMBARKS on the Escape Vehicle with {count(c, 'model')}",
        GL.EK_SHOOT: f"{who} {'fires Overwatch at' if c else 'shoots'} {other}: {count(a, 'model')} "
                     f"{'fires' if int(a) == 1 else 'fire'}, {count(b, 'unsaved wound')}" + _left(other, theirs),
        GL.EK_WIPE: f"{who} is wiped out" + (f" by {other}" if o >= 0 else ""),
        GL.EK_CHARGE: f"{who} declares a charge at {other}, which ends before the roll" if c else
                      f"{who} charges {other} (rolled {a:.0f}\" for {b:.1f}\")",
        GL.EK_CHARGE_FAIL: f"{who} fails to charge {other} (rolled {a:.0f}\" for {b:.1f}\")",
        GL.EK_FIGHT: f"{who} fights: inflicts {count(a, 'unsaved wound')}, suffers {b:.0f}"
                     + ("" if mine < 0 else f"; {who} has {count(mine, 'model')} left"),
        GL.EK_MORALE: f"{who} lost the combat by {a:.0f} and {'passes' if b else 'fails'} its Morale check",
        GL.EK_FALL_BACK: f"{who} falls back {a:.0f}\"",
        GL.EK_SWEEP: f"{who} tries a Sweeping Advance on {other}: {a:.0f} vs {b:.0f}",
        GL.EK_POWERUP: f"{who} draws a power-up: {POWERUP_NAMES.get(int(a), '?').replace('_', ' ')}",
        GL.EK_ZOMBIE_ARRIVE: f"{who} returns from {ARRIVALS.get(o, '?')} at ({a:.1f}, {b:.1f}){with_models}",
        GL.EK_SHAMBLE: f"{who} shambles {a:.1f}\" (roll {c:.0f}) at {other}" + (" and reaches it" if b else ""),
        GL.EK_CONSOLIDATE: f"{who} consolidates {a:.1f}\"",
        GL.EK_REGROUP: f"{who} {'regroups' if a else 'fails to regroup'}",
        GL.EK_PUSHBACK: f"{who} is pushed {a:.0f}\" back from the Escape Vehicle",
        GL.EK_GETS_HOT: f"{who}'s weapon Gets Hot",
        GL.EK_DEFIB: f"{who} uses a Defibrillator",
        GL.EK_CONVERT: f"a slain model of {who} rises and joins {other} (Dead Men Walking)",
        GL.EK_SHOP: f"{who} buys an item for {b:.0f} points" + (f" (sold one for {c:.0f})" if c else ""),
        GL.EK_MOB_RULE: f"{who} fails a test; the Mob Rule deals {count(a, 'hit')} ({b:.0f} unsaved)",
    }
    return texts.get(kind)  # EK_NONE, EK_OVERWATCH (told by its volley), snapshots, psychic, end: nothing


def narrative(config: GameConfig, events: np.ndarray) -> list[str]:
    """The game turn by turn, each line labelled with the phase it happened in."""
    lines, turn = [], -1
    for ev in events:
        if int(ev[GL.EV_TURN]) != turn:
            turn = int(ev[GL.EV_TURN])
            lines.append("== setup ==" if turn == 0 else f"== game turn {turn} ==")
        text = describe(config, ev)
        if text:
            lines.append(f"  [{PHASES.get(int(ev[GL.EV_PHASE]), '?')}] {text}")
    return lines


def result_line(result) -> str:
    """The last line of a game's narrative: who won, how, after how many turns."""
    winner = result.game_winner.iloc[0] or "nobody"
    return f"== result: {winner} ({result.reason.iloc[0]}) after {result.turns.iloc[0]} turns =="
