"""Zombie Apocalypse's trace renderer (``shamble trace``): one game told turn by turn from its
events (``kernels.apocalypse.columns`` EV_* / EK_*), and the table drawn at the end of each game
turn (``trace_draw``: the extraction zone, the ruins of the terrain option, the spawn points with
their 6" auras, the players' units and the hordes by name, each disc sized by its model count, the
turn's moves as arrows, the units lost; a GIF and a contact sheet)."""

from __future__ import annotations

import numpy as np

from kernels.apocalypse import columns as C
from kernels.w40k import vehicles as VD
from sim.rulesets.apocalypse.config import ApocalypseConfig
from sim.rulesets.apocalypse.results import SOURCES

PHASES = {C.PH_SETUP: "setup", C.PH_MOVEMENT: "movement", C.PH_PSYCHIC: "psychic", C.PH_SHOOTING: "shooting",
          C.PH_ASSAULT: "assault", C.PH_Z_MOVEMENT: "zombie movement", C.PH_Z_ASSAULT: "zombie assault",
          C.PH_END: "end"}
FALL_EDGES = ("the bottom edge", "the right edge", "the top edge", "the left edge")
REASONS = {C.REASON_EXTRACTED: "every living Warlord on the extraction zone",
           C.REASON_WARLORDS_DEAD: "no Warlord left", C.REASON_TIME: "time: a living Warlord off the zone"}


class Names:
    """Unit slots and hordes in words: unit t is the t-th unit of the armies, HQs first."""

    def __init__(self, config: ApocalypseConfig) -> None:
        from sim.rulesets.apocalypse.compile import built_armies

        self.units: list[str] = []
        self.owner: list[int] = []  # unit slot -> its player
        self.datasheet: list[str] = []
        self.hq: list[bool] = []  # the Warlord's unit (an HQ)
        self.hull: list[int] = []  # a vehicle's Hull Points (a Walker, issue 32); 0 for any other unit
        for p, (player, army) in enumerate(zip(config.players, built_armies(config))):
            for unit in army:
                owner = f"{player.name}'" if player.name.endswith("s") else f"{player.name}'s"  # Cadians', Ork's
                self.units.append(f"{owner} {unit.datasheet}" + (" (Warlord)" if unit.is_hq else ""))
                self.owner.append(p)
                self.datasheet.append(unit.datasheet)
                self.hq.append(bool(unit.is_hq))
                self.hull.append(unit.vehicle.hull_points if unit.vehicle is not None else 0)
        self.players = [p.name for p in config.players]

    def unit(self, u: int) -> str:
        return self.units[u] if 0 <= u < len(self.units) else f"unit {u}"

    def is_vehicle(self, u: int) -> bool:
        return 0 <= u < len(self.hull) and self.hull[u] > 0

    def hull_points(self, u: int, left: int) -> str:
        """'2/3 HP': a vehicle's Hull Points left of its datasheet's."""
        return f"{left}/{self.hull[u] if 0 <= u < len(self.hull) else '?'} HP"

    @staticmethod
    def horde(h: int) -> str:
        return f"horde {h + 1}"


def _models(n: int) -> str:
    """Zombie models placed (a Juggernaut taken in exchange for three Zombies counts one)."""
    return f"{n} zombie model{'s' if n != 1 else ''}"


def _source(k: int) -> str:
    return SOURCES[k] if 0 <= k < len(SOURCES) else "noise"


DAMAGE = {VD.DMG_CREW_SHAKEN: "Crew Shaken", VD.DMG_CREW_STUNNED: "Crew Stunned",
          VD.DMG_WEAPON_DESTROYED: "Weapon Destroyed", VD.DMG_IMMOBILISED: "Immobilised", VD.DMG_EXPLODES: "Explodes!"}


def _vehicle(names: Names, u: int, what: int, left: int, lost: int) -> str:
    """An EK_VEHICLE event: Hull Points lost, a damage result (V5) or the wreck (V4)."""
    if what == C.VEV_HULL:
        return f"{names.unit(u)} loses {lost} Hull Point{'s' if lost != 1 else ''} ({names.hull_points(u, left)})"
    if what == C.VEV_WRECKED:
        return f"{names.unit(u)} is wrecked"
    return f"{names.unit(u)} suffers a penetrating hit: {DAMAGE.get(what, f'damage result {what}')}"


def describe(names: Names, ev: np.ndarray) -> str | None:
    """One line for one event (None for bookkeeping events)."""
    kind = int(ev[C.EV_KIND])
    a, b, c, x, y = int(ev[C.EV_A]), int(ev[C.EV_B]), int(ev[C.EV_C]), float(ev[C.EV_X]), float(ev[C.EV_Y])
    texts = {
        C.EK_UNIT: lambda: f"{names.unit(a)} deploys with {c} model{'s' if c != 1 else ''} at ({x:.1f}, {y:.1f})",
        C.EK_ORDER: lambda: f"{names.players[a]} deploys in place {b + 1}",
        C.EK_SPAWNER: lambda: f"spawn point {a + 1} lands at ({x:.1f}, {y:.1f})",
        C.EK_SPAWN: lambda: (f"{_models(b)} come on ({_source(a)})" if a >= 0 else f"{_models(b)} come on") +
        f" as {names.horde(c)} at ({x:.1f}, {y:.1f})",
        C.EK_NOISE: lambda: f"{names.unit(a)} attracts {b} zombies",
        C.EK_MOVE: lambda: f"{names.unit(a)} moves to ({x:.1f}, {y:.1f})",
        C.EK_HMOVE: lambda: f"{names.horde(a)} ({b} models) heads for {names.unit(c)}, to ({x:.1f}, {y:.1f})",
        C.EK_SHOOT: lambda: (f"{names.unit(a)} {'fires Overwatch at' if y else 'shoots'} {names.horde(b)}: "
                             f"{c} zombies killed, noise {x:.0f}"),
        C.EK_CHARGE: lambda: (f"{names.unit(a)} {'charges' if c == 11 else 'fails to charge'} {names.horde(b)}"
                              if c >= 10 else f"{names.horde(a)} {'charges' if c else 'fails to charge'} "
                              f"{names.unit(b)}"),
        C.EK_FIGHT: lambda: (f"combat of {names.unit(a)} and {b} horde(s): players cause {c}, zombies {x:.0f} "
                             "unsaved wounds"),
        C.EK_FALL_BACK: lambda: f"{names.unit(a)} falls back {b}\" towards {FALL_EDGES[c]}",
        C.EK_UNIT_LOST: lambda: f"{names.unit(a)} is gone",
        C.EK_BRUTE: lambda: f"a model of {names.unit(a)} rises as a Zombie Brute in {names.horde(c)}",
        C.EK_GRAVEYARD: lambda: (f"GRAVEYARD: {names.unit(a)} enters the zone; {c} zombies rise around it "
                                 f"({names.horde(b)})"),
        C.EK_AURA: lambda: f"a spawner's aura wounds {b} models of {names.unit(a)}",
        C.EK_SPAWNER_DEATH: lambda: f"{c} models of {names.unit(a)} stop in spawn point {b + 1} and are torn apart",
        C.EK_JOIN: lambda: f"a model of {names.unit(a)} joins {names.unit(b)}",
        C.EK_FIRST_ZOMBIE: lambda: f"the First Zombie joins {names.horde(a)} at ({x:.1f}, {y:.1f})",
        C.EK_PSYCHIC: lambda: f"{names.unit(a)} manifests Force" + (" (denied)" if c else ""),
        C.EK_BLIND: lambda: (f"{names.horde(a)}, hit by Blind, tests Initiative: {b}, "
                             + ("fails: WS 1 and BS 1 to the end of its next turn" if c else "passes")),
        C.EK_TERRAIN: lambda: f"a ruin (difficult terrain, cover) stands at ({x:.1f}, {y:.1f})",
        C.EK_VEHICLE: lambda: _vehicle(names, a, b, c, round(x)),
        C.EK_DISEMBARK: lambda: f"{names.unit(a)} ({c} models) gets out of {names.unit(b)} at ({x:.1f}, {y:.1f})",
    }
    text = texts.get(kind)
    return text() if text else None


def narrative(names: Names, events: np.ndarray) -> list[str]:
    lines, turn = [], -1
    for ev in events:
        if int(ev[C.EV_TURN]) != turn:
            turn = int(ev[C.EV_TURN])
            lines.append("== setup ==" if turn == 0 else f"== game turn {turn} ==")
        text = describe(names, ev)
        if text:
            lines.append(f"  [{PHASES.get(int(ev[C.EV_PHASE]), '?')}] {text}")
    return lines


def told(config: ApocalypseConfig, events: np.ndarray, result) -> list[str]:
    """The narrative of one game, its result last (the pictures are ``trace_draw``'s, which reads
    this module: the ruleset's ``trace`` calls both, so neither imports the other back)."""
    return [*narrative(Names(config), events), result_line(result)]


def result_line(result) -> str:
    """The narrative's last line: who won, how, in which game turn."""
    if result is None or not len(result):
        return ""
    return (f"== result: the {result.game_winner.iloc[0]} win ({result.reason.iloc[0]}) in game turn "
            f"{result.turns.iloc[0]} ==")
