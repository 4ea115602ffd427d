"""Zombies Out West's town drawings for ``shamble trace --png DIR``: the town at the end of every
turn, as the narrative tells it.

The trace events (``kernels.outwest.layout`` EV_* / EK_*) are first read into one `Scene` per turn
(pure Python, no matplotlib): every figure on the table at the turn's position snapshot (EK_POS:
kind, standing / down / unconscious, position, facing), the path each figure took since the last
snapshot (from where it stood then, or where it came back from the graveyard, through the ends of
the moves, shambles and carries the kernels log, to where it stands now or left the table), and
the figures that left the table this turn (escaped, devoured, destroyed, dead) where they left.
The town's buildings and woods, the graveyard edge and (Escape) the exit edge stand all game.
``sim.trace_pictures`` lays the pictures out and writes ``turn_NN.png``, ``game.gif`` and
``contact_sheet.png``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from matplotlib.patches import Patch, Rectangle

from kernels.outwest import layout as L
from sim import trace_pictures as TP
from sim.rulesets.outwest import data as D
from sim.rulesets.outwest.config import EDGES, OutwestConfig
from sim.rulesets.outwest.trace import Names, describe

TOWN_COLOURS = {"building": "#b08d57", "dense": "#3c7d3c", "loose": "#a7c77a"}
TOWN_WORDS = {"building": "building", "dense": "dense cover", "loose": "loose cover"}
HUMAN_MARKER, ZOMBIE_MARKER = "o", "s"
GRAVE_COLOUR, EXIT_COLOUR = "#6b4f7a", "#2e8b57"
LEFT_MARKERS = {"escaped": ("^", "#2e8b57"), "devoured": ("X", TP.LOSS_COLOUR), "dead": ("X", TP.LOSS_COLOUR),
                "destroyed": ("X", "#555555")}
MOVED_IN = 0.05


# ---- the scenes -----------------------------------------------------------------------------
@dataclass(frozen=True)
class FigureMark:
    """A figure on the table at the snapshot."""
    figure: int
    zombie: bool  # a human who rose keeps his slot and is a zombie now
    state: int  # layout S_STANDING, S_DOWN, S_OUT
    x: float
    y: float
    facing: float  # radians


@dataclass(frozen=True)
class Move:
    figure: int
    points: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class Left:
    """A figure that left the table this turn: 'escaped', 'devoured', 'dead' or 'destroyed'."""
    figure: int
    how: str
    x: float
    y: float


@dataclass(frozen=True)
class Scene:
    turn: int
    figures: tuple[FigureMark, ...]
    moves: tuple[Move, ...]
    left: tuple[Left, ...]
    happenings: tuple[str, ...] = field(default=())


def _snapshot_groups(events: np.ndarray) -> list[tuple[int, int, dict]]:
    """(first row, last row + 1, {figure: row}) of each run of EK_POS rows (a later row of a
    figure wins: the game's end may follow a turn's end at once)."""
    out, start = [], None
    kinds = events[:, L.EV_KIND].astype(int)
    for k, kind in enumerate([*kinds, -1]):
        if kind == L.EK_POS and start is None:
            start = k
        elif kind != L.EK_POS and start is not None:
            out.append((start, k, {int(events[j, L.EV_FIG]): j for j in range(start, k)}))
            start = None
    return out


def scenes(config: OutwestConfig, events: np.ndarray, names: Names | None = None) -> list[Scene]:
    """One `Scene` per position snapshot after the set-up's (``events``: float[n, N_EV])."""
    events = np.asarray(events)
    names = names or Names(config)
    ends = np.flatnonzero(events[:, L.EV_KIND] == L.EK_END)
    last = ends[0] if len(ends) else len(events)
    groups = [g for g in _snapshot_groups(events) if g[0] < last]  # none after the game's end
    out = []
    for (_, prev_end, prev), (start, _, rows) in zip(groups, groups[1:]):
        out.append(_read(config, names, events, prev, events[prev_end:start], rows))
    return out


def _where(events: np.ndarray, rows: dict) -> dict[int, tuple[float, float]]:
    return {f: (float(events[j, L.EV_A]), float(events[j, L.EV_B])) for f, j in rows.items()
            if int(events[j, L.EV_OTHER]) % 10 != L.S_GONE}


def _read(config, names, events, prev: dict, between: np.ndarray, rows: dict) -> Scene:
    paths = {f: [xy] for f, xy in _where(events, prev).items()}
    left, moves = [], []
    gone_how: dict[int, tuple[str, float, float]] = {}
    for e in between:
        kind, f, o = int(e[L.EV_KIND]), int(e[L.EV_FIG]), int(e[L.EV_OTHER])
        a, b = float(e[L.EV_A]), float(e[L.EV_B])
        if kind in (L.EK_MOVE, L.EK_ZMOVE):
            paths.setdefault(f, []).append((a, b))
        elif kind == L.EK_CARRY:  # o is carried to (a, b)
            paths.setdefault(o, []).append((a, b))
        elif kind == L.EK_RETURN:  # back from the graveyard: a new path
            paths[f] = [(a, b)]
        elif kind in (L.EK_ESCAPE, L.EK_DEVOURED):
            paths.setdefault(f, []).append((a, b))
            gone_how[f] = ("escaped" if kind == L.EK_ESCAPE else "devoured", a, b)
    figures = []
    for f in sorted(rows):
        j = rows[f]
        code, x, y, facing = int(events[j, L.EV_OTHER]), *(float(events[j, c]) for c in (L.EV_A, L.EV_B, L.EV_C))
        kind, state = code // 10, code % 10
        if state == L.S_GONE:
            if f in paths:  # on the table at the last snapshot or came back since: it left this turn
                how, gx, gy = gone_how.get(f, ("destroyed" if kind == L.K_ZOMBIE else "dead", *paths[f][-1]))
                left.append(Left(f, how, gx, gy))
            end = None
        else:
            figures.append(FigureMark(f, kind == L.K_ZOMBIE, state, x, y, facing))
            end = (x, y)
        points = paths.get(f, [])
        if end is not None:
            points = [*points, end]
        points = TP.clean_path(points)
        if len(points) > 1 and TP.path_length(points) > MOVED_IN:
            moves.append(Move(f, points))
    told = []
    for e in between:
        if int(e[L.EV_KIND]) in (L.EK_POS, L.EK_TURN_END, L.EK_END):
            continue
        text = describe(names, e)
        if text:
            told.append(text.strip())
    turn = int(events[min(rows.values()), L.EV_TURN])
    return Scene(turn, tuple(figures), tuple(moves), tuple(left), tuple(told))


# ---- drawing ----------------------------------------------------------------------------
def _edge_band(config: OutwestConfig, edge: int, depth: float) -> tuple[float, float, float, float]:
    """x, y, width, height of a band ``depth`` deep along an edge (EDGES: south, east, north, west)."""
    w, h = config.table_width_in, config.table_height_in
    return [(0, 0, w, depth), (w - depth, 0, depth, h), (0, h - depth, w, depth), (0, 0, depth, h)][edge]


class Board:
    """The town for ``sim.trace_pictures``: the table in inches, x east, y north."""

    def __init__(self, config: OutwestConfig, events: np.ndarray, names: Names, result_lines: list[str],
                 n_turns: int) -> None:
        self.config, self.names, self.result_lines, self.n_turns = config, names, result_lines, n_turns
        graves = events[events[:, L.EV_KIND] == L.EK_GRAVE]
        self.grave = int(graves[0, L.EV_A]) if len(graves) else -1
        self.town = D.town(config.town)
        w, h = config.table_width_in, config.table_height_in
        self.extent = (-3.0, w + 1.5, -7.0, h + 1.5)
        self.sheet_extent = (-0.5, w + 0.5, -0.5, h + 0.5)

    def _colour(self, f: int) -> str:
        return TP.player_colour(f) if f < self.names.H else TP.ZOMBIE_COLOUR

    def draw(self, ax, scene: Scene, small: bool) -> None:
        cfg = self.config
        w, h = cfg.table_width_in, cfg.table_height_in
        ax.add_patch(Rectangle((0, 0), w, h, fc="#efe3c2", ec="black", lw=1.5, zorder=0, gid="table"))
        for t in self.town:
            x0, y0, x1, y1 = t.rect
            ax.add_patch(Rectangle((x0, y0), x1 - x0, y1 - y0, fc=TOWN_COLOURS.get(t.kind, "#999999"), alpha=0.8,
                                   lw=0, zorder=0.5, gid=f"town:{t.name}"))
        if self.grave >= 0:
            ax.add_patch(Rectangle(*_split(_edge_band(cfg, self.grave, 1.0)), fc=GRAVE_COLOUR, alpha=0.5, lw=0,
                                   zorder=0.6, gid="graveyard"))
        if cfg.scenario == "escape":
            ax.add_patch(Rectangle(*_split(_edge_band(cfg, EDGES.index(cfg.escape_edge), 0.6)), fc=EXIT_COLOUR,
                                   alpha=0.6, lw=0, zorder=0.6, gid="exit"))
        r = cfg.base_radius_in
        for move in scene.moves:
            TP.arrow(ax, move.points, self._colour(move.figure), small, f"move:{move.figure}", short=r + 0.1,
                     lw=1.0 if move.figure >= self.names.H else 1.6)
        for m in scene.figures:
            colour = self._colour(m.figure)
            face = colour if m.state == L.S_STANDING else "white"
            marker = ZOMBIE_MARKER if m.zombie else HUMAN_MARKER
            ax.plot([m.x], [m.y], ls="none", marker=marker, ms=(7 if m.zombie else 8) * (0.6 if small else 1),
                    mfc=face, mec=TP.player_colour(m.figure) if m.figure < self.names.H else "#444444", mew=1.2,
                    zorder=5, gid=f"figure:{m.figure}")
            if m.state == L.S_STANDING and not small:
                ax.plot([m.x, m.x + 1.3 * r * math.cos(m.facing)], [m.y, m.y + 1.3 * r * math.sin(m.facing)],
                        color="black", lw=0.7, zorder=5.2)
            if m.state == L.S_OUT:
                ax.plot([m.x - r, m.x + r], [m.y - r, m.y + r], color=TP.LOSS_COLOUR, lw=1.0, zorder=5.3)
        for k, gone in enumerate(scene.left):
            marker, colour = LEFT_MARKERS[gone.how]
            ax.plot([gone.x], [gone.y], ls="none", marker=marker, ms=6 if small else 11, mfc=colour, mec="white",
                    mew=0.8, zorder=6, gid=f"left:{gone.figure}:{k}")
        if not small:
            self._labels(ax, scene)
            TP.inch_rulers(ax, w, h, bar=12.0 if w >= 24 else 6.0,
                           note="inches from the south-west corner (north up); ticks every inch")

    def _labels(self, ax, scene: Scene) -> None:
        labels = TP.Labels(ax)
        for m in scene.figures:
            labels.block(m.x - 0.5, m.y - 0.5, m.x + 0.5, m.y + 0.5)
        for x, y in TP.along([m.points for m in scene.moves]):
            labels.block(x - 0.25, y - 0.25, x + 0.25, y + 0.25)
        for m in sorted(scene.figures, key=lambda m: m.figure):  # the posse first: the best spots
            name = self.names.figure(m.figure)
            state = {L.S_DOWN: ", down", L.S_OUT: ", out"}.get(m.state, "")
            if m.figure < self.names.H:
                text = f"{'zombie ' if m.zombie else ''}{name}{state}"
                labels.put(m.x, m.y, 0.7, text, 7, gid=f"label:{m.figure}", color="black",
                           bbox=dict(boxstyle="round,pad=0.12", fc="white", ec=TP.player_colour(m.figure), lw=0.6,
                                     alpha=0.85))
            else:
                labels.put(m.x, m.y, 0.55, name.replace("zombie ", "z") + state, 5.5, gid=f"label:{m.figure}",
                           color="#333333")
        for k, gone in enumerate(scene.left):
            labels.put(gone.x, gone.y, 0.9, f"{self.names.figure(gone.figure)} {gone.how}", 6.5, below_first=True,
                       style="italic", color=LEFT_MARKERS[gone.how][1], gid=f"left_label:{k}",
                       bbox=dict(boxstyle="round,pad=0.1", fc="white", ec="none", alpha=0.8))

    def title(self, scene: Scene, last: bool) -> str:
        return f"Turn {scene.turn} of {self.n_turns} ({'the game ends' if last else 'end of the turn'})"

    def legend(self, scene: Scene) -> list:
        cfg = self.config
        handles = [TP.marker_handle(HUMAN_MARKER, TP.player_colour(h), f"{p.name} ({p.cls})")
                   for h, p in enumerate(cfg.players)]
        handles += [TP.marker_handle(ZOMBIE_MARKER, TP.ZOMBIE_COLOUR, "zombie zG.N (group G)", ms=7, mec="#444444"),
                    TP.marker_handle(HUMAN_MARKER, "white", "hollow: down (knocked over)", mec="#444444"),
                    TP.marker_handle(HUMAN_MARKER, "white", "red slash: unconscious", mec=TP.LOSS_COLOUR)]
        kinds = sorted({t.kind for t in self.town})
        handles += [Patch(fc=TOWN_COLOURS.get(k, "#999999"), alpha=0.8, label=TOWN_WORDS.get(k, k)) for k in kinds]
        if self.grave >= 0:
            handles.append(Patch(fc=GRAVE_COLOUR, alpha=0.5, label=f"graveyard: the {EDGES[self.grave]} edge"))
        if cfg.scenario == "escape":
            handles.append(Patch(fc=EXIT_COLOUR, alpha=0.6, label=f"exit: the {cfg.escape_edge} edge"))
        handles += [TP.move_handle("this turn's move (from o)"),
                    *(TP.marker_handle(LEFT_MARKERS[how][0], LEFT_MARKERS[how][1], f"{words} this turn", ms=9)
                      for how, words in (("escaped", "escaped"), ("devoured", "devoured or dead"),
                                         ("destroyed", "destroyed (a zombie)")))]
        return handles

    def text(self, scene: Scene, last: bool) -> list[str]:
        return [f"Turn {scene.turn}:", *scene.happenings, *(self.result_lines if last else [])]

    def sheet_label(self, scene: Scene) -> str:
        return f"turn {scene.turn}"

    def sheet_legend(self) -> list:
        handles = [TP.marker_handle(HUMAN_MARKER, TP.player_colour(h), p.name, ms=7)
                   for h, p in enumerate(self.config.players)]
        return handles + [TP.marker_handle(ZOMBIE_MARKER, TP.ZOMBIE_COLOUR, "zombies", ms=6, mec="#444444"),
                          TP.marker_handle("X", TP.LOSS_COLOUR, "devoured / dead", ms=8)]


def _split(band: tuple[float, float, float, float]) -> tuple[tuple[float, float], float, float]:
    x, y, w, h = band
    return (x, y), w, h


def write_pictures(config: OutwestConfig, events: np.ndarray, result, out_dir: Path,
                   result_lines: list[str] | None = None) -> list[Path]:
    """``turn_NN.png`` per turn, ``game.gif`` and ``contact_sheet.png`` in ``out_dir``."""
    events = np.asarray(events)
    names = Names(config)
    all_scenes = scenes(config, events, names)
    if not all_scenes:
        return []
    lines = list(result_lines or [])
    board = Board(config, events, names, lines, all_scenes[-1].turn)
    return TP.write_pictures(board, all_scenes, out_dir, TP.header_of(config, result), keep_last=len(lines))
