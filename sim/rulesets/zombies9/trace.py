"""`shamble trace` for Zombies!!!: one game told turn by turn, and the tile map drawn at the end of
every round (``trace_draw``)."""

from __future__ import annotations

import numpy as np

from kernels.zombies9 import layout as L
from sim.rulesets.zombies9.compile import game_of
from sim.rulesets.zombies9.config import Zombies9Config
from sim.rulesets.zombies9.results import REASONS

GOALS = {L.G_GATHER: "tokens and zombies", L.G_HELIPAD: "the Helipad", L.G_KILLS: "kills",
         L.G_CREMATORIUM: "the Crematorium", L.G_CEMETERY: "the Cemeteries"}
FIGURES = {L.Z_ADULT: "a zombie", L.Z_KID: "a zombie kid", L.Z_DOG: "a zombie dog"}
WINS = {"helipad": "reaching the Helipad", "kills": "collecting the zombies", "crematorium":
        "clearing the Crematorium", "cemeteries": "clearing the Cemeteries"}


def _tiles_from(config: Zombies9Config, events: np.ndarray) -> list[tuple[int, int, int, int]]:
    """(type, cell x, cell y, rotation) of every tile, in slot order (the start tile first)."""
    from sim.rulesets.zombies9.compile import compile_tables

    tb = compile_tables(config)
    c = int(tb.ids[L.ID_GRID]) // 2
    tiles = [(int(tb.ids[L.ID_START]), c, c, 0)]
    for ev in events:
        if int(ev[L.EV_KIND]) == L.EK_TILE:
            tiles.append((int(ev[L.EV_A]), int(ev[L.EV_B]), int(ev[L.EV_C]), int(ev[L.EV_D])))
    return tiles


def describe(config: Zombies9Config, ev: np.ndarray, tile_names: list[str], card_names: list[str]) -> str | None:
    """One line for one event (None for events that only feed the map)."""
    kind = int(ev[L.EV_KIND])
    p = int(ev[L.EV_PLAYER])
    a, b, c, d = (float(x) for x in ev[L.EV_A:L.EV_D + 1])
    who = config.players[p].name if 0 <= p < config.n_players else ""

    def name(k: float) -> str:
        return config.players[int(k)].name if 0 <= int(k) < config.n_players else "nobody"

    texts = {
        L.EK_FIRST: lambda: f"{who} plays first",
        L.EK_DEAL: lambda: f"three cards dealt to each player ({a:.0f} Automatic)",
        L.EK_STACK: lambda: f"{who} draws the {tile_names[int(b)]} from the {'graveyard' if a else 'base'} stack",
        L.EK_TILE: lambda: f"{who} lays the {tile_names[int(a)]} at cell ({b:.0f}, {c:.0f}), "
                           f"turned {90 * int(d)} degrees",
        L.EK_POPULATE: lambda: f"  {b:.0f} zombies go on it",
        L.EK_TILE_DISCARD: lambda: f"{who} cannot lay the {tile_names[int(a)]}: discarded",
        L.EK_HELI_RESHUFFLE: lambda: f"{who} cannot lay the {tile_names[int(b)] if b else 'Helipad'}: shuffled back "
                                     f"among the {a:.0f} tiles left",
        L.EK_MAP_CLOSED: lambda: f"{who}'s tile closes the last open road: the rest of the turn is lost",
        L.EK_FIGHT: lambda: f"{who} fights {FIGURES.get(int(a), 'a zombie')}: "
                    + (f"kills it ({c:g} life, {d:.0f} bullets spent)" if b else f"loses ({c:g} life spent)"),
        L.EK_DEATH: lambda: f"{who} DIES: {a:.0f} zombies lost, back to the start (3 life, 3 bullets "
                            + ("at once)" if c else "at the next turn)"),
        L.EK_MOVE: lambda: (f"{who} moves {c:.0f} squares towards {GOALS.get(int(d), '?')}" if d >= 0 else
                    f"{who} is moved {c:.0f} squares by {name(-1 - d)}"),
        L.EK_PICKUP: lambda: f"{who} picks up {a:.0f} life and {b:.0f} bullet tokens",
        L.EK_CARD: lambda: f"{who} plays {card_names[int(a)]}" + (f" on {name(b)}" if b >= 0 else ""),
        L.EK_AUTO: lambda: f"{who} draws {card_names[int(a)]} (Automatic)",
        L.EK_ZMOVES: lambda: f"{who} rolls {a:.0f} for the zombies and moves {b:.0f}",
        L.EK_DISCARD: lambda: f"{who} discards {card_names[int(a)]}",
        L.EK_WIN: lambda: f"{who} WINS by {WINS.get(REASONS.get(int(a), ''), '?')}",
        L.EK_LOST_TURN: lambda: f"{who} loses the turn" + (" (the map closed)" if a else " (Hysterical Paralysis)"),
        L.EK_GRENADE: lambda: f"{who} throws the Grenade: {b:.0f} zombies",
        L.EK_ITEM: lambda: f"{who} lets go of All the Marbles: no zombie moves until after {who}'s next turn",
        L.EK_DRAW: lambda: f"{who} draws {a:.0f} cards" if a else None,
        L.EK_ROLL: lambda: (f"{who} takes the keys: up to {b:.0f} squares" if c else
                    f"{who} rolls {a:.0f} for movement: up to {b:.0f} squares"),
        L.EK_REST: lambda: f"{who} rests instead of moving: life {a / 2:g}",
        L.EK_NOT_DEAD: lambda: f"{who} rolls for I Don't Think They're Dead: "
                               + (f"loses {b:.0f} zombies" if a else "safe")
                               + (f" (paid {c:.0f} life, {d:.0f} bullets)" if c + d else ""),
        L.EK_TIMEOUT: lambda: "no winner within the round limit",
        L.EK_REPLY: lambda: f"  (in reply to {name(c)}'s {card_names[int(b)]}; it resolves first, D21)",
        L.EK_CANCELLED: lambda: f"{who}'s {card_names[int(a)]} is cancelled by {name(b)}: it does nothing",
    }
    text = texts.get(kind)
    return text() if text else None


def narrative(config: Zombies9Config, events: np.ndarray) -> list[str]:
    game = game_of(config)
    tile_names = [t.name for t in game.tiles]
    card_names = [c.name for c in game.cards]
    lines: list[str] = []
    for ev in events:
        kind = int(ev[L.EV_KIND])
        if kind == L.EK_TURN:
            p = int(ev[L.EV_PLAYER])
            lines.append(f"Round {int(ev[L.EV_ROUND])}, turn {int(ev[L.EV_TURN])} - {config.players[p].name} "
                         f"(life {ev[L.EV_A] / 2:g}, bullets {ev[L.EV_B]:.0f}, zombies {ev[L.EV_C]:.0f})")
            continue
        text = describe(config, ev, tile_names, card_names)
        if text:
            lines.append(("  " if lines and kind not in (L.EK_FIRST, L.EK_DEAL) else "") + text)
    return lines


