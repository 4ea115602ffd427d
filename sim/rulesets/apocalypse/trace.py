"""Zombie Apocalypse's trace renderer (``shamble trace``): one game told turn by turn from its
events (``kernels.apocalypse.columns`` EV_* / EK_*), and the table drawn at the end of each game
turn: the extraction zone, the ruins of the terrain option, the spawn points with their 6" auras,
the players' units by player and the hordes, each disc sized by its model count."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import matplotlib
import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import Circle, Patch, Rectangle

from kernels.apocalypse import columns as C
from sim.rulesets.apocalypse.config import ApocalypseConfig
from sim.rulesets.apocalypse.results import SOURCES

PHASES = {C.PH_SETUP: "setup", C.PH_MOVEMENT: "movement", C.PH_PSYCHIC: "psychic", C.PH_SHOOTING: "shooting",
          C.PH_ASSAULT: "assault", C.PH_Z_MOVEMENT: "zombie movement", C.PH_Z_ASSAULT: "zombie assault",
          C.PH_END: "end"}
RUIN_COLOUR = "#b5a27a"
FALL_EDGES = ("the bottom edge", "the right edge", "the top edge", "the left edge")
REASONS = {C.REASON_EXTRACTED: "every living Warlord on the extraction zone",
           C.REASON_WARLORDS_DEAD: "no Warlord left", C.REASON_TIME: "time: a living Warlord off the zone"}


class Names:
    """Unit slots and hordes in words: unit t is the t-th unit of the armies, HQs first."""

    def __init__(self, config: ApocalypseConfig) -> None:
        from sim.rulesets.apocalypse.compile import built_armies

        self.units: list[str] = []
        for player, army in zip(config.players, built_armies(config)):
            for unit in army:
                self.units.append(f"{player.name}'s {unit.datasheet}" + (" (Warlord)" if unit.is_hq else ""))
        self.players = [p.name for p in config.players]

    def unit(self, u: int) -> str:
        return self.units[u] if 0 <= u < len(self.units) else f"unit {u}"

    @staticmethod
    def horde(h: int) -> str:
        return f"horde {h + 1}"


def _models(n: int) -> str:
    """Zombie models placed (a Juggernaut taken in exchange for three Zombies counts one)."""
    return f"{n} zombie model{'s' if n != 1 else ''}"


def _source(k: int) -> str:
    return SOURCES[k] if 0 <= k < len(SOURCES) else "noise"


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


def _disc(count: int, base: float, spacing: float) -> float:
    return 0.0 if count <= 0 else base + spacing * float(np.sqrt((count - 1) * 0.2757))


def draw_turn(config: ApocalypseConfig, names: Names, spawners: np.ndarray, units: np.ndarray, hordes: np.ndarray,
              turn: int, path: Path, ruins: np.ndarray | None = None) -> None:
    """The table at the end of a game turn (module docstring)."""
    side = config.table_in
    fig = Figure(figsize=(5, 5.6))  # no pyplot: no global state
    ax = fig.subplots()
    ax.add_patch(Rectangle((0, 0), side, side, fill=False, lw=1.5))
    for ev in () if ruins is None else ruins:
        ax.add_patch(Circle((float(ev[C.EV_X]), float(ev[C.EV_Y])), config.terrain_piece_radius_in,
                            color=RUIN_COLOUR, alpha=0.6))
    c, r = side / 2, config.zone_radius_in
    if config.zone_shape == "square":
        ax.add_patch(Rectangle((c - r, c - r), 2 * r, 2 * r, color="tab:green", alpha=0.25))
    else:
        ax.add_patch(Circle((c, c), r, color="tab:green", alpha=0.25))
    ax.annotate("extraction", (c, c), ha="center", va="center", fontsize=7, color="darkgreen")
    for ev in spawners:
        x, y = float(ev[C.EV_X]), float(ev[C.EV_Y])
        ax.add_patch(Circle((x, y), config.spawner_radius_in + config.aura_in, fill=False, ls=":", color="purple"))
        ax.add_patch(Circle((x, y), config.spawner_radius_in, color="purple", alpha=0.6))
    colours = matplotlib.colormaps["tab10"]
    for ev in hordes:
        n = int(ev[C.EV_B])
        ax.add_patch(Circle((float(ev[C.EV_X]), float(ev[C.EV_Y])),
                            max(0.4, _disc(n, config.base_radius_in, config.zombie_spacing_in)),
                            color="dimgray", alpha=0.7))
        ax.annotate(str(n), (float(ev[C.EV_X]), float(ev[C.EV_Y])), ha="center", va="center", fontsize=6,
                    color="white")
    for ev in units:
        p, n = int(ev[C.EV_C]), int(ev[C.EV_B])
        x, y = float(ev[C.EV_X]), float(ev[C.EV_Y])
        ax.add_patch(Circle((x, y), max(0.4, _disc(n, config.base_radius_in, config.model_spacing_in)),
                            color=colours(p % 10)))
        if "(Warlord)" in names.unit(int(ev[C.EV_A])):
            ax.annotate("W", (x, y), ha="center", va="center", fontsize=7, color="white", weight="bold")
    handles = [Patch(color=colours(p % 10), label=player.name) for p, player in enumerate(config.players)]
    if ruins is not None and len(ruins):
        handles.append(Patch(color=RUIN_COLOUR, alpha=0.6, label="ruin (difficult, cover)"))
    handles += [Patch(color="dimgray", alpha=0.7, label="horde (models)"),
                Patch(color="purple", alpha=0.6, label=f"spawn point, its {config.aura_in:g}\" aura dotted")]
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.01), ncol=3, fontsize=6, frameon=False)
    ax.set_xlim(-1, side + 1)
    ax.set_ylim(-1, side + 1)
    ax.set_aspect("equal")
    ax.set_title(f"end of game turn {turn}", fontsize=9)
    ax.set_xticks([])
    ax.set_yticks([])
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".png")
    os.close(fd)
    fig.savefig(tmp, dpi=90)
    os.replace(tmp, path)


def render(config: ApocalypseConfig, events: np.ndarray, result, out_dir: Path | None) -> tuple[list[str], list[Path]]:
    """The narrative of one game and, with ``out_dir``, a PNG of the table per game turn."""
    names = Names(config)
    lines = narrative(names, events)
    lines.append(f"== result: the {result.game_winner.iloc[0]} win ({result.reason.iloc[0]}) in game turn "
                 f"{result.turns.iloc[0]} ==")
    pictures: list[Path] = []
    if out_dir is not None:
        out_dir = Path(out_dir)
        kinds = events[:, C.EV_KIND]
        spawners = events[kinds == C.EK_SPAWNER]
        ruins = events[kinds == C.EK_TERRAIN]
        units, hordes = events[kinds == C.EK_SNAP_UNIT], events[kinds == C.EK_SNAP_HORDE]
        for turn in np.unique(np.concatenate([units[:, C.EV_TURN], hordes[:, C.EV_TURN]])).astype(int):
            path = out_dir / f"turn_{turn:02d}.png"
            draw_turn(config, names, spawners, units[units[:, C.EV_TURN] == turn],
                      hordes[hordes[:, C.EV_TURN] == turn], turn, path, ruins)
            pictures.append(path)
    return lines, pictures
