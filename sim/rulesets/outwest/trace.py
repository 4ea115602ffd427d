"""`shamble trace` for Zombies Out West: one game told card by card, and the town drawn.

``trace_lines(config, events)`` turns the kernels' trace events (kernels.outwest.layout EK_*)
into sentences; ``trace_draw.write_pictures`` draws the town at the end of every turn from the
position snapshots (the posse and the zombies by name, the turn's moves as arrows, the text beside
it; a GIF and a contact sheet, each file written atomically).
"""

from __future__ import annotations

import numpy as np

from kernels.outwest import layout as L
from sim.rulesets.outwest.config import EDGES, OutwestConfig
from sim.rulesets.outwest.results import REASONS, WINNERS

ACTIONS = {L.A_NONE: "waits", L.A_REPOSITION: "repositions", L.A_MOVE: "moves", L.A_MOVE_FIRE: "moves and fires",
           L.A_FIRE: "fires", L.A_AIM: "aims", L.A_RELOAD: "reloads", L.A_RECOVER: "recovers",
           L.A_GET_UP: "gets up", L.A_DUCK_BACK: "ducks back", L.A_FIX_GUN: "fixes his gun", L.A_MOUNT: "mounts",
           L.A_DISMOUNT: "dismounts", L.A_FIGHT: "fights", L.A_CARRY: "carries"}
LOCATIONS = ("head", "chest", "right arm", "left arm", "belly", "legs")
ZH_WORDS = ("pushed back", "knocked down", "bitten", "bitten and dies of the plague", "torn apart and devoured")
HZ_WORDS = ("pushed back", "knocked down", "destroyed")
SHOT_WORDS = ("no effect", "knocked over", "head shot")
GUN_WORDS = ("ready", "out of ammunition", "jammed", "broken")
RESULT_WORDS = ("graze", "flesh wound", "serious wound", "knocked down", "knocked out", "arm useless",
                "no move/turn", "-1 move die", "DEAD")


class Names:
    """Names of the figures and cards of one config."""

    def __init__(self, config: OutwestConfig) -> None:
        self.config = config
        self.H, self.G = config.n_humans, len(config.groups)
        self.group_of: dict[int, tuple[int, int]] = {}
        first = self.H
        for q, size in enumerate(config.groups):
            for k in range(size):
                self.group_of[first + k] = (q, k)
            first += size

    def figure(self, f: int) -> str:
        if f < 0:
            return "nobody"
        if f < self.H:
            return self.config.players[f].name
        q, k = self.group_of.get(f, (-1, -1))
        return f"zombie {q + 1}.{k + 1}"

    def group(self, q: int) -> str:
        if q < self.G:
            return f"zombie group {q + 1}"
        return f"zombie {self.config.players[q - self.G].name}"

    def card(self, c: int) -> str:
        H, G = self.H, self.G
        if c < 0:
            return "-"
        if c < H:
            return f"{self.config.players[c].name}'s card"
        if c < H + G:
            return f"zombie group {c - H + 1}"
        rest = ("Citizen action card", "Gunman action card", "Shootist action card", "Legend action card", "Joker",
                "Extra zombie action", "And the dead shall rise")
        return rest[c - H - G] if c - H - G < len(rest) else f"card {c}"


def _bits(bits: int) -> str:
    words = [w for k, w in enumerate(RESULT_WORDS) if int(bits) & (1 << k)]
    return ", ".join(words) or "nothing"


def describe(names: Names, ev: np.ndarray) -> str | None:
    """One sentence for one event (None for bookkeeping)."""
    kind, f, o = int(ev[L.EV_KIND]), int(ev[L.EV_FIG]), int(ev[L.EV_OTHER])
    a, b, c = float(ev[L.EV_A]), float(ev[L.EV_B]), float(ev[L.EV_C])
    who, other = names.figure(f), names.figure(o)
    if kind == L.EK_CARD:
        return f"-- {names.card(f)}"
    if kind == L.EK_ACTION:
        act = ACTIONS.get(int(a), "acts")
        if int(a) in (L.A_MOVE, L.A_CARRY) and b:
            return f"{who} {act} (rolled {b:.0f}\")" + (f" {other}" if int(a) == L.A_CARRY else "")
        target = f" at {other}" if o >= 0 and int(a) in (L.A_FIRE, L.A_MOVE_FIRE, L.A_AIM) else \
            (f" {other}" if o >= 0 and int(a) == L.A_FIGHT else "")
        extra = ", blazing away" if int(a) in (L.A_FIRE, L.A_MOVE_FIRE) and c else ""
        return f"{who} {act}{target}{extra}"
    texts = {
        L.EK_MOVE: lambda: f"   {who} ends at ({a:.1f}, {b:.1f}) after {c:.1f}\"",
        L.EK_SHOT: lambda: f"   {who} shoots at {other}: {a:.0f} dice, {b:.0f} hit(s), {c:.0f} one(s)",
        L.EK_HIT_HUMAN: lambda: f"   {who} is hit in the {LOCATIONS[max(0, min(5, int(a) - 1))]} "
                                f"(effect {b:.0f}): {_bits(c)}",
        L.EK_BITE: lambda: f"   {who}'s bite wound: {LOCATIONS[max(0, min(5, int(a) - 1))]} (effect {b:.0f}): "
                           f"{_bits(c)}",
        L.EK_HIT_ZOMBIE: lambda: f"   {who} is hit (effect {a:.0f}{b:+.0f}): {SHOT_WORDS[int(c)]}",
        L.EK_MELEE: lambda: f"   {who} attacks {other}: {a:.0f} six(es) against {b:.0f}" +
                    (f", {c:.0f} hit(s)" if b <= a else f": {who} is knocked over"),
        L.EK_ZOMBIE_HIT: lambda: f"   {other} is " + (HZ_WORDS[int(b)] if c else ZH_WORDS[int(b)]) +
                                 f" (rolled {a:.0f})",
        L.EK_DEVOURED: lambda: f"   {who} is TORN APART AND DEVOURED at ({a:.1f}, {b:.1f})",
        L.EK_FEED: lambda: f"   {who} joins the feeding frenzy",
        L.EK_LEAVE_FEED: lambda: f"   {who} " + ("leaves the feeding" if o else "keeps feeding") + f" (rolled {a:.0f})",
        L.EK_BITE_TEST: lambda: f"   {who} tests a bite: {a:.0f}" + (f" and {b:.0f}" if b else "") +
                        (" - he lapses" if o else ""),
        L.EK_LAPSE: lambda: f"   {who} lapses into unconsciousness",
        L.EK_WAKE: lambda: f"   {who}, unconscious, rolls {a:.0f}: " +
                   ("no change", "comes round, knocked down", "wakes", "DIES AND RISES")[max(0, min(3, o))],
        L.EK_RISE: lambda: f"   {who} RISES AS A ZOMBIE" + (" gunslinger" if o else ""),
        L.EK_RETURN: lambda: f"   {who} returns from the graveyard at ({a:.1f}, {b:.1f})",
        L.EK_ZACTION: lambda: f"{names.group(f)} " + (f"moves and attacks (rolled {a:.0f})" if o == L.ZA_MOVE_ATTACK
                                               else f"recovers ({b:.0f} of {a:.0f} down)"),
        L.EK_ZMOVE: lambda: f"   {who} shambles {c:.1f}\" to ({a:.1f}, {b:.1f})" if c > 1e-6 else None,
        L.EK_FALL: lambda: f"   {who} falls over",
        L.EK_GET_UP: lambda: f"   {who} " + ("gets up" if o else "stays down") + f" (rolled {a:.0f})",
        L.EK_PUSH: lambda: f"   {who} is pushed back {a:.0f}\"",
        L.EK_AMMO: lambda: f"   {who}'s gun {int(o) + 1} is {GUN_WORDS[int(a)]}",
        L.EK_CLAIM: lambda: f"   {who} claims action cards" if f < names.H else
                            f"   {names.card(f)} takes the action cards",
        L.EK_SPEND: lambda: f"** an action card is spent on {who}",
        L.EK_TURN_END: lambda: f"== end of turn {a:.0f}",
        L.EK_SPOOK: lambda: f"   {who}'s horse is spooked ({a:.0f})" + (": he is thrown" if o else ""),
        L.EK_ADVANCE: lambda: f"   {who} has destroyed a zombie and becomes a Gunman",
        L.EK_SPLASH: lambda: f"   the musketoon's splash hits {who} {a:.0f} time(s)",
        L.EK_RETURN_FIRE: lambda: f"   {who} turns and returns fire at {other}",
        L.EK_ESCAPE: lambda: f"   {who} gets off the table",
        L.EK_FIX: lambda: f"   {who} works on his gun: {a:.0f}",
        L.EK_HORSE_BOLT: lambda: f"   {who}'s horse bolts off the table",
        L.EK_NERVE: lambda: f"   {who} tests his nerve: {a:.0f}",
        L.EK_CARRY: lambda: f"   {other} is carried to ({a:.1f}, {b:.1f})",
        L.EK_GRAVE: lambda: f"the graveyard is on the {EDGES[int(a)]} edge",
    }
    if kind == L.EK_END:
        return f"== the game ends in turn {a:.0f}: " + (WINNERS.get(f) or "nobody") + " win(s) (" + \
            REASONS.get(o, "?") + ")"
    text = texts.get(kind)
    return text() if text else None


def trace_lines(config: OutwestConfig, events: np.ndarray) -> list[str]:
    names = Names(config)
    lines = [f"Zombies Out West - {config.scenario}: " + ", ".join(
        f"{p.name} ({p.cls}, {'+'.join(p.guns) or 'no gun'})" for p in config.players) +
        f" against {len(config.groups)} zombie groups of " + "/".join(map(str, config.groups)) +
        (f"; advanced rules: {', '.join(sorted(config.mods))}" if config.mods else "")]
    turn = 0
    for ev in events:
        if int(ev[L.EV_TURN]) != turn and int(ev[L.EV_KIND]) == L.EK_CARD:
            turn = int(ev[L.EV_TURN])
            lines.append(f"== turn {turn}")
        text = describe(names, ev)
        if text:
            lines.append(text)
    return lines


def tally(result) -> list[str]:
    """A line per character of the game's result: outcome, zombies destroyed, shots, bites."""
    if result is None or not len(result):
        return []
    return [f"   {row['name']}: {row['outcome']}, {row['zombies_destroyed']} zombie(s) destroyed, "
            f"{row['shots']} shooting roll(s), {row['bites']} bite(s)" for _, row in result.iterrows()]


def ending(config: OutwestConfig, events: np.ndarray) -> list[str]:
    """How the game ended, in words (the first end event), or nothing."""
    ends = [describe(Names(config), ev) for ev in events if int(ev[L.EV_KIND]) == L.EK_END]
    return ends[:1]
