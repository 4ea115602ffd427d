"""Zombie 40,000's table drawings for ``shamble trace --png DIR``: the table at the end of every
game turn, as the narrative tells it.

The trace events (``kernels.zombie40k.columns`` EV_*, EK_*) are first read into one `Scene` per
game turn (pure Python, no matplotlib): the units on the table at the turn's snapshot (name as the
narrative says it, models alive, position, footprint), the path each unit took this turn (from
where it stood at the previous snapshot, or where it deployed, respawned or returned, through the
end points the kernels log, to where it stands now, is wiped out or its slot on the EV), the units wiped out
(where they fell, and by whom), the squads that escaped, and the terrain. Then each scene is drawn
on a Figure (never pyplot: no global state): the table with inch rulers and a scale bar, and a
panel with the legend and the turn's lines of the narrative (``trace.narrative``, wrapped).

``write_pictures`` writes ``turn_NN.png`` per game turn, ``game.gif`` (one frame per game turn,
matplotlib's PillowWriter) and ``contact_sheet.png`` (every turn small, in a grid), each file
atomically (``sim.files.atomic_path``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, FancyArrowPatch, FancyBboxPatch, Patch, Rectangle
from matplotlib.path import Path as MplPath

from kernels.zombie40k import columns as GL
from sim.files import atomic_path
from sim.rulesets.zombie40k.config import GameConfig
from sim.rulesets.zombie40k.trace import count, narrative, unit_name  # the narrative's names and words
from sim.trace_pictures import HEADER_IN, draw_header
from sim.trace_pictures import GifWriter as _GifWriter  # the shared trace pictures' helpers, which began here
from sim.trace_pictures import Labels as _Labels
from sim.trace_pictures import sheet_grid as _sheet_grid
from sim.trace_pictures import wrap as _wrap

# ---- colours and markers ------------------------------------------------------------------
BOSS_COLOUR = "#000000"  # black: no player colour is near it (see PLAYER_COLOURS)
BOSS_MARKER = "*"
HORDE_COLOUR = "#8c8c8c"
HORDE_MARKER = "s"
PLAYER_MARKER = "o"
# tab10 without its grey (the hordes' colour); the Boss's black is far from all nine (8 players at most)
PLAYER_COLOURS = tuple(matplotlib.colors.to_hex(c) for i, c in enumerate(matplotlib.colormaps["tab10"].colors)
                       if i != 7)
WIPE_COLOUR = "#d00000"
WIPE_MARKER = "X"
ESCAPE_MARKER = "^"
EV_COLOUR = "#4d5a66"
ZONE_COLOUR = "#f2c14e"
TERRAIN_COLOUR = "#b5a27a"
DANGER_COLOUR = "#b22222"

DPI = 100  # per-turn PNGs: at least 900 px on the long side
GIF_FPS = 1.0
MOVED_IN = 0.05  # a path shorter than this is no move
ESCAPE_GAP_IN = 1.0  # an arrow to the EV stops this short of the escape's triangle (its head shows under it)


def player_colour(p: int) -> str:
    return PLAYER_COLOURS[p % len(PLAYER_COLOURS)]


# ---- the scenes: what each turn's picture shows, read from the events ----------------------
@dataclass(frozen=True)
class UnitMark:
    """A unit on the table at the turn's snapshot."""
    unit: int
    models: int
    x: float
    y: float
    radius: float  # inches: the unit's footprint


@dataclass(frozen=True)
class Move:
    """The path of one unit this turn (inches); the last point is where it ended."""
    unit: int
    points: tuple[tuple[float, float], ...]

    @property
    def length(self) -> float:
        return float(sum(math.dist(a, b) for a, b in zip(self.points, self.points[1:])))


@dataclass(frozen=True)
class Wipe:
    unit: int
    killer: int  # -1: none
    x: float
    y: float


@dataclass(frozen=True)
class Escape:
    unit: int
    models: int
    turn: int
    x: float  # inches: its marker on the Escape Vehicle (a slot per squad, in the order they board)
    y: float


@dataclass(frozen=True)
class Terrain:
    x: float
    y: float
    radius: float
    dangerous: bool


@dataclass(frozen=True)
class Scene:
    """The table at the end of game turn ``turn`` (the moment of the escape, on an escape turn)."""
    turn: int
    units: tuple[UnitMark, ...]
    moves: tuple[Move, ...]
    wipes: tuple[Wipe, ...]
    escapes: tuple[Escape, ...]  # every squad embarked so far (this turn's have turn == self.turn)
    terrain: tuple[Terrain, ...]
    happenings: tuple[str, ...] = field(default=())  # the narrative's lines of this turn (side panel)


def boss_unit(config: GameConfig) -> int:
    return config.n_players * (1 + config.hordes_per_player)


_STARTS = (GL.EK_DEPLOY, GL.EK_RESPAWN, GL.EK_ZOMBIE_ARRIVE)  # a, b = x, y: the unit (re)enters the table
_WAYPOINTS = (GL.EK_MOVE, GL.EK_RUN, GL.EK_CONSOLIDATE, GL.EK_PUSHBACK)  # b, c = end x, y


class _Paths:
    """The open path of every unit while a turn's events are read."""

    def __init__(self) -> None:
        self.open: dict[int, list[tuple[float, float]]] = {}
        self.done: list[Move] = []

    def start(self, u: int, x: float, y: float) -> None:
        self.open[u] = [(x, y)]

    def step(self, u: int, x: float, y: float) -> None:
        self.open.setdefault(u, [(x, y)]).append((x, y))

    def close(self, u: int, x: float, y: float) -> None:
        self.step(u, x, y)
        points = self.open.pop(u)
        move = Move(u, tuple(p for k, p in enumerate(points) if k == 0 or math.dist(p, points[k - 1]) > 1e-6))
        if move.length > MOVED_IN:
            self.done.append(move)


def scenes(config: GameConfig, events: np.ndarray) -> list[Scene]:
    """One `Scene` per game turn of a traced game (``events``: float32[n, N_EV], turn 0 = setup)."""
    events = np.asarray(events)
    terrain = tuple(Terrain(float(e[GL.EV_A]), float(e[GL.EV_B]), float(e[GL.EV_C]), bool(e[GL.EV_OTHER]))
                    for e in events if int(e[GL.EV_KIND]) == GL.EK_TERRAIN)
    where: dict[int, tuple[float, float]] = {}  # unit -> its position at the last snapshot (or deployment)
    for e in events[events[:, GL.EV_TURN] == 0]:
        if int(e[GL.EV_KIND]) in _STARTS:
            where[int(e[GL.EV_UNIT])] = (float(e[GL.EV_A]), float(e[GL.EV_B]))
    escaped: list[Escape] = []
    out = []
    for turn in np.unique(events[:, GL.EV_TURN]).astype(int):
        if turn == 0:
            continue
        scene = _read_turn(config, events[events[:, GL.EV_TURN] == turn], turn, where, escaped, terrain)
        where = {m.unit: (m.x, m.y) for m in scene.units}
        out.append(scene)
    return out


def escape_slot(config: GameConfig, k: int) -> tuple[float, float]:
    """Where the k-th squad to board (0 first) is marked on the Escape Vehicle: a slot per
    player along its lower half (the upper half says "EV")."""
    x0, y0, w, d = _ev_rect(config)
    return x0 + w * (k + 1) / (config.n_players + 1), y0 + 0.32 * d


def _read_turn(config, evs, turn, where, escaped, terrain) -> Scene:
    paths = _Paths()
    for u, xy in where.items():
        paths.start(u, *xy)
    units, wipes = [], []
    for e in evs:
        kind, u, o = int(e[GL.EV_KIND]), int(e[GL.EV_UNIT]), int(e[GL.EV_OTHER])
        a, b, c = float(e[GL.EV_A]), float(e[GL.EV_B]), float(e[GL.EV_C])
        if kind in _STARTS:
            paths.start(u, a, b)
        elif kind in _WAYPOINTS:
            paths.step(u, b, c)
        elif kind == GL.EK_WIPE:
            paths.close(u, a, b)
            wipes.append(Wipe(u, o, a, b))
        elif kind == GL.EK_EMBARK:  # a, b: where it stood when it boarded; the arrow goes on to its slot
            x, y = escape_slot(config, len(escaped))
            paths.step(u, a, b)
            paths.close(u, x, y)
            escaped.append(Escape(u, int(round(c)), turn, x, y))
        elif kind == GL.EK_SNAPSHOT:
            paths.close(u, a, b)
            units.append(UnitMark(u, o, a, b, c))
    told = tuple(line.strip() for line in narrative(config, evs)[1:])  # [1:]: the turn's heading
    return Scene(turn, tuple(units), tuple(paths.done), tuple(wipes), tuple(escaped), terrain, told)


# ---- drawing ----------------------------------------------------------------------------
def _colour(config: GameConfig, u: int) -> str:
    if u < config.n_players:
        return player_colour(u)
    return BOSS_COLOUR if u == boss_unit(config) else HORDE_COLOUR


def _marker(config: GameConfig, u: int) -> str:
    if u < config.n_players:
        return PLAYER_MARKER
    return BOSS_MARKER if u == boss_unit(config) else HORDE_MARKER


def _ev_rect(config: GameConfig) -> tuple[float, float, float, float]:
    """x0, y0, width, depth of the Escape Vehicle: the middle of the far short edge (zombie40k §3.2)."""
    return ((config.width - config.ev_width_in) / 2, config.table_length_in - config.ev_depth_in,
            config.ev_width_in, config.ev_depth_in)


def zone_meaning(config: GameConfig) -> str:
    if "coop" in config.mods:  # zombie40k §10.1
        return f'{config.pvp_zone_in:g}" zone: once a squad enters it, hordes return on the EV edge'
    return f'{config.pvp_zone_in:g}" zone: rivals may shoot and charge a squad in it'  # zombie40k §5.4, §5.5


def _draw_board(ax, config: GameConfig, scene: Scene, small: bool) -> None:
    width, length = config.width, config.table_length_in
    ax.add_patch(Rectangle((0, 0), width, length, fc="#fbfaf6", ec="black", lw=1.5, zorder=0, gid="table"))
    x0, y0, w, d = _ev_rect(config)
    if config.pvp_zone_in > 0:
        zone = FancyBboxPatch((x0, y0), w, d, boxstyle=f"round,pad={config.pvp_zone_in}", fc=ZONE_COLOUR,
                              alpha=0.18, ec="#b8860b", ls="--", lw=1.0, zorder=0.5, gid="zone")
        ax.add_patch(zone)
        zone.set_clip_path(ax.patches[0])
    for k, piece in enumerate(scene.terrain):
        ax.add_patch(Circle((piece.x, piece.y), piece.radius, fc=TERRAIN_COLOUR, alpha=0.45, zorder=1,
                            ec=DANGER_COLOUR if piece.dangerous else "#7a6a45", lw=1.2 if piece.dangerous else 0.8,
                            hatch="xx" if piece.dangerous else None, gid=f"terrain:{k}"))
    ax.add_patch(Rectangle((x0, y0), w, d, fc=EV_COLOUR, ec="black", lw=1.2, zorder=2, gid="ev"))
    if not small:
        ax.text(x0 + w / 2, y0 + 0.74 * d, "EV", ha="center", va="center", color="white", fontsize=8, fontweight="bold",
                zorder=2.5)


def _draw_units(ax, config: GameConfig, scene: Scene, small: bool) -> None:
    boss = boss_unit(config)
    for m in scene.units:
        colour, big = _colour(config, m.unit), m.unit == boss
        ax.add_patch(Circle((m.x, m.y), max(m.radius, 0.4), fc=colour, ec=colour, alpha=0.25 if big else 0.4,
                            lw=1.2, zorder=3))
        ax.plot([m.x], [m.y], ls="none", marker=_marker(config, m.unit), ms=(15 if big else 6) * (0.6 if small else 1),
                mfc=colour, mec="#ffd700" if big else "white", mew=0.8, zorder=5, gid=f"unit:{m.unit}")


def _label_units(labels: _Labels, config: GameConfig, scene: Scene) -> None:
    for m in sorted(scene.units, key=lambda m: m.unit):  # players first: their labels get the best spots
        colour = _colour(config, m.unit)
        labels.put(m.x, m.y, max(m.radius, 0.4) + 0.4, f"{unit_name(config, m.unit)} ({m.models})", 7.5,
                   gid=f"label:{m.unit}", color="black",
                   bbox=dict(boxstyle="round,pad=0.12", fc="white", ec=colour, lw=0.6, alpha=0.85))


def _end_radius(scene: Scene, move: Move) -> float:
    """How far short of its end a move's arrow stops: the footprint's edge of the unit standing there."""
    end = move.points[-1]
    for m in scene.units:
        if m.unit == move.unit and math.dist((m.x, m.y), end) < 1e-3:
            return m.radius
    if any(e.unit == move.unit and math.dist((e.x, e.y), end) < 1e-3 for e in scene.escapes):
        return ESCAPE_GAP_IN
    return 0.6 if any(w.unit == move.unit and math.dist((w.x, w.y), end) < 1e-3 for w in scene.wipes) else 0.0


def _arrow_points(move: Move, short: float) -> list[tuple[float, float]]:
    points = list(move.points)
    (ax_, ay), (bx, by) = points[-2], points[-1]
    last = math.dist(points[-2], points[-1])
    if last > short + 0.5:  # the head stops at the footprint's edge, where it is seen
        k = (last - short) / last
        points[-1] = (ax_ + (bx - ax_) * k, ay + (by - ay) * k)
    return points


def _draw_moves(ax, config: GameConfig, scene: Scene, small: bool) -> None:
    for move in scene.moves:
        colour = _colour(config, move.unit)
        points = _arrow_points(move, _end_radius(scene, move))
        ax.add_patch(FancyArrowPatch(path=MplPath(points), arrowstyle="-|>", mutation_scale=7 if small else 12,
                                     color=colour, lw=1.0 if small else 1.6, alpha=0.9, zorder=5.5,
                                     gid=f"move:{move.unit}"))
        ax.plot([points[0][0]], [points[0][1]], ls="none", marker="o", ms=2 if small else 3.5,
                mfc="white", mec=colour, mew=1.0, zorder=5.5)


def _draw_wipes(ax, config: GameConfig, scene: Scene, small: bool) -> None:
    for k, wipe in enumerate(scene.wipes):
        ax.plot([wipe.x], [wipe.y], ls="none", marker=WIPE_MARKER, ms=6 if small else 12, mfc=WIPE_COLOUR,
                mec="white", mew=0.8, zorder=6, gid=f"wipe:{wipe.unit}:{k}")


def _label_wipes(labels: _Labels, config: GameConfig, scene: Scene) -> None:
    for k, wipe in enumerate(scene.wipes):
        by = f" by {unit_name(config, wipe.killer)}" if wipe.killer >= 0 else ""
        labels.put(wipe.x, wipe.y, 1.0, f"{unit_name(config, wipe.unit)} wiped out{by}", 7, below_first=True,
                   color=WIPE_COLOUR, style="italic", gid=f"wipe_label:{wipe.unit}:{k}",
                   bbox=dict(boxstyle="round,pad=0.1", fc="white", ec="none", alpha=0.8))


def _draw_escapes(ax, config: GameConfig, scene: Scene, small: bool) -> None:
    for esc in scene.escapes:
        ax.plot([esc.x], [esc.y], ls="none", marker=ESCAPE_MARKER, ms=6 if small else 11, mfc=player_colour(esc.unit),
                mec="white", mew=1.0, zorder=6, gid=f"escape:{esc.unit}")


def _label_escapes(labels: _Labels, config: GameConfig, scene: Scene) -> None:
    """This turn's escapes (the earlier ones, in Coop Mode, are listed beside the table)."""
    _, y0, _, _ = _ev_rect(config)
    for esc in scene.escapes:
        if esc.turn == scene.turn:
            text = f"{unit_name(config, esc.unit)} escaped ({count(esc.models, 'model')})"
            labels.put(esc.x, y0, 0.6, text, 8, below_first=True, fontweight="bold", color=player_colour(esc.unit),
                       gid=f"escape_label:{esc.unit}",
                       bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="none", alpha=0.85))


def _label_table(ax, config: GameConfig, scene: Scene) -> None:
    """Every label, placed so that none hides another: escapes, players, hordes and Boss, wipes."""
    labels = _Labels(ax)
    x0, y0, w, d = _ev_rect(config)
    labels.block(x0, y0, x0 + w, y0 + d)
    for m in scene.units:
        labels.block(m.x - 0.7, m.y - 0.7, m.x + 0.7, m.y + 0.7)
    for wipe in scene.wipes:
        labels.block(wipe.x - 0.8, wipe.y - 0.8, wipe.x + 0.8, wipe.y + 0.8)
    for x, y in _along_moves(scene):  # a label would hide the arrow under its white box
        labels.block(x - 0.3, y - 0.3, x + 0.3, y + 0.3)
    _label_escapes(labels, config, scene)
    _label_units(labels, config, scene)
    _label_wipes(labels, config, scene)


def _along_moves(scene: Scene, step: float = 0.6):
    """Points every ``step`` inches along this turn's arrows."""
    for move in scene.moves:
        for (ax_, ay), (bx, by) in zip(move.points, move.points[1:]):
            n = max(1, math.ceil(math.dist((ax_, ay), (bx, by)) / step))
            for k in range(n + 1):
                yield ax_ + (bx - ax_) * k / n, ay + (by - ay) * k / n


def _draw_rulers(ax, config: GameConfig) -> None:
    """Inch ticks along the table's bottom and left edges (labelled every 6"), and a scale bar
    under the table (plain lines: matplotlib's 150 ticks took more than half of the drawing time)."""
    width, length = config.width, config.table_length_in
    segments = [[(x, 0), (x, -(0.9 if x % 6 == 0 else 0.45))] for x in range(int(width) + 1)]
    segments += [[(0, y), (-(0.9 if y % 6 == 0 else 0.45), y)] for y in range(int(length) + 1)]
    ax.add_collection(LineCollection(segments, colors="black", linewidths=0.6, gid="inch_ticks"))
    for x in range(0, int(width) + 1, 6):
        ax.text(x, -1.1, f"{x}", ha="center", va="top", fontsize=6.5)
    for y in range(0, int(length) + 1, 6):
        ax.text(-1.1, y, f"{y}", ha="right", va="center", fontsize=6.5)
    bar = 12.0 if width >= 36 else 6.0
    y = -5.0
    ax.plot([width - bar, width], [y, y], color="black", lw=3, solid_capstyle="butt", gid="scale_bar")
    ax.text(width - bar / 2, y + 0.7, f'{bar:g}"', ha="center", va="bottom", fontsize=8, gid="scale_bar_label")
    ax.text(0, y, 'player starting edge; ticks every inch', ha="left", va="center", fontsize=7.5,
            color="#444444")


def draw_table(ax, config: GameConfig, scene: Scene, small: bool = False) -> None:
    """The table of one scene on ``ax``: board, terrain, EV and zone, moves, units, wipes, escapes,
    their labels and the rulers. ``small`` (the contact sheet): no texts, no rulers."""
    ax.set_aspect("equal")
    ax.set_axis_off()
    if small:
        ax.set_xlim(-0.5, config.width + 0.5)
        ax.set_ylim(-0.5, config.table_length_in + 0.5)
    else:
        ax.set_xlim(-3, config.width + 1.5)
        ax.set_ylim(-7, config.table_length_in + 1.5)
    _draw_board(ax, config, scene, small)
    _draw_moves(ax, config, scene, small)
    _draw_units(ax, config, scene, small)
    _draw_wipes(ax, config, scene, small)
    _draw_escapes(ax, config, scene, small)
    if not small:
        _label_table(ax, config, scene)
        _draw_rulers(ax, config)


def legend_handles(config: GameConfig, scene: Scene) -> list:
    """The legend's entries: players' colours, hordes, Boss, EV, zone, terrain, markers."""
    def dot(marker, colour, label, ms=8, mec="white"):
        return Line2D([], [], ls="none", marker=marker, ms=ms, mfc=colour, mec=mec, label=label)

    handles = [dot(PLAYER_MARKER, player_colour(p), f"{player.name} (squad; models alive)")
               for p, player in enumerate(config.players)]
    handles += [dot(HORDE_MARKER, HORDE_COLOUR, "horde N (zombies alive)"),
                dot(BOSS_MARKER, BOSS_COLOUR, "the Zombie Boss", ms=13, mec="#ffd700"),
                Patch(fc=EV_COLOUR, ec="black", label="Escape Vehicle")]
    if config.pvp_zone_in > 0:
        handles.append(Patch(fc=ZONE_COLOUR, alpha=0.4, ec="#b8860b", ls="--", label=zone_meaning(config)))
    if scene.terrain:
        handles.append(Patch(fc=TERRAIN_COLOUR, alpha=0.6, ec="#7a6a45", label="ruins (area terrain, cover)"))
    if any(piece.dangerous for piece in scene.terrain):
        handles.append(Patch(fc=TERRAIN_COLOUR, alpha=0.6, ec=DANGER_COLOUR, hatch="xx", label="dangerous terrain"))
    handles += [Line2D([], [], color="#555555", lw=1.6, marker=">", ms=5, label="this turn's move (from o)"),
                dot(WIPE_MARKER, WIPE_COLOUR, "wiped out this turn (where it fell)", ms=10),
                dot(ESCAPE_MARKER, "#555555", "escaped: embarked on the EV", ms=9)]
    return handles


PANEL_FONT = 7.0  # points: the turn's text beside the table
PANEL_CHARS = 78  # characters a line of it holds before it wraps


def _panel_text(config: GameConfig, scene: Scene, outcome: str, max_lines: int = 60) -> str:
    """The turn as the narrative tells it (wrapped to the panel; past ``max_lines`` lines, cut with
    a pointer to the text), who is already aboard the EV, and the result on the last turn."""
    tail = [f"{unit_name(config, e.unit)} is aboard the EV since turn {e.turn} ({count(e.models, 'model')})"
            for e in scene.escapes if e.turn < scene.turn] + ([f"== {outcome} =="] if outcome else [])
    lines = [f"Game turn {scene.turn}:"] + [row for line in scene.happenings for row in _wrap(line)]
    room = max_lines - len(tail)
    if len(lines) > room:
        cut = len(lines) - room + 1
        lines = lines[:room - 1] + [f"... {cut} more lines: see the text (shamble trace)"]
    return "\n".join(lines + [row for line in tail for row in _wrap(line)])


TABLE_HEIGHT_IN = 8.0  # figure inches of the table's axes (long side); the panel is beside it
PANEL_WIDTH_IN = 4.6


def _table_box(config: GameConfig) -> tuple[float, float]:
    """Figure inches (width, height) of the table's axes: its data limits at one scale."""
    wd, ld = config.width + 4.5, config.table_length_in + 8.5
    scale = TABLE_HEIGHT_IN / max(wd, ld)
    return wd * scale, ld * scale


def figure_size(config: GameConfig) -> tuple[float, float]:
    w, h = _table_box(config)
    return 0.5 + w + 0.2 + PANEL_WIDTH_IN, max(h, 6.0) + 0.8


def draw_turn(fig: Figure, config: GameConfig, scene: Scene, n_turns: int, outcome: str = "",
              header: str = "") -> None:
    """One turn's picture on ``fig`` (cleared first): the table, the legend and the turn as the narrative
    tells it; ``header`` (what was played) across the top, in the margin above the title."""
    fig.clear()
    if header:
        draw_header(fig, header, 0.06, fontsize=7.0)
    fw, fh = fig.get_size_inches()
    w, h = _table_box(config)
    table = fig.add_axes((0.5 / fw, (fh - 0.5 - h) / fh, w / fw, h / fh), label="table")
    draw_table(table, config, scene)
    escaping = (scene.turn == n_turns and "coop" not in config.mods  # Coop Mode plays on (zombie40k §10.1)
                and any(e.turn == scene.turn for e in scene.escapes))
    moment = "as the squad escapes" if escaping else "end of the turn"
    table.text(0.0, 1.01, f"Game turn {scene.turn} of {n_turns} ({moment})", fontsize=11, transform=table.transAxes,
               gid="title")  # not set_title: placing a title measures the (hidden) axes, 50 ms a picture
    panel_h = fh - 0.8
    panel = fig.add_axes(((0.5 + w + 0.2) / fw, 0.3 / fh, PANEL_WIDTH_IN / fw, panel_h / fh), label="panel")
    panel.set_axis_off()
    legend = panel.legend(handles=legend_handles(config, scene), loc="upper left", fontsize=7.5, frameon=True,
                          title="legend", title_fontsize=8, borderaxespad=0.0, handlelength=1.8)
    box = legend.get_window_extent(fig.canvas.get_renderer()).transformed(panel.transAxes.inverted())
    room = int((box.y0 - 0.03) * panel_h * 72 / (1.2 * PANEL_FONT))  # lines of text under the legend
    text = _panel_text(config, scene, outcome if scene.turn == n_turns else "", max_lines=room)
    panel.text(0.0, box.y0 - 0.03, text, ha="left", va="top", fontsize=PANEL_FONT, transform=panel.transAxes,
               gid="happenings")


SHEET_TITLE_IN, SHEET_GAP_IN, SHEET_TOP_IN = 0.2, 0.12, 0.45


def draw_sheet(config: GameConfig, all_scenes: list[Scene], header: str = "") -> Figure:
    """Every turn small, in a grid, with one legend of the players' colours (under ``header``, what was played)."""
    n = max(len(all_scenes), 1)
    aspect = config.table_length_in / config.width
    cols, rows = _sheet_grid(n, aspect)
    cell = min(2.4, 18.0 / cols)
    row_h = cell * aspect + SHEET_TITLE_IN + SHEET_GAP_IN
    top = SHEET_TOP_IN + (HEADER_IN if header else 0.0)
    fw, fh = cols * (cell + SHEET_GAP_IN) + SHEET_GAP_IN, top + rows * row_h
    if header:
        fw = max(fw, 7.0)
    fig = Figure(figsize=(fw, fh), dpi=DPI)
    if header:
        draw_header(fig, header, 0.08)
    for k, scene in enumerate(all_scenes):
        row, col = divmod(k, cols)
        left, bottom = SHEET_GAP_IN + col * (cell + SHEET_GAP_IN), fh - top - (row + 1) * row_h
        ax = fig.add_axes((left / fw, (bottom + SHEET_GAP_IN) / fh, cell / fw, cell * aspect / fh),
                          label=f"turn {scene.turn}")
        draw_table(ax, config, scene, small=True)
        ax.text(0.5, 1.01, f"turn {scene.turn}", ha="center", va="bottom", fontsize=7, transform=ax.transAxes)
    handles = [Line2D([], [], ls="none", marker=PLAYER_MARKER, mfc=player_colour(p), mec="white", ms=7, label=pl.name)
               for p, pl in enumerate(config.players)]
    handles += [Line2D([], [], ls="none", marker=HORDE_MARKER, mfc=HORDE_COLOUR, mec="white", ms=7, label="hordes"),
                Line2D([], [], ls="none", marker=BOSS_MARKER, mfc=BOSS_COLOUR, mec="#ffd700", ms=10,
                       label="the Zombie Boss"),
                Line2D([], [], ls="none", marker=WIPE_MARKER, mfc=WIPE_COLOUR, mec="white", ms=8, label="wiped out"),
                Line2D([], [], ls="none", marker=ESCAPE_MARKER, mfc="#555555", mec="white", ms=8, label="escaped")]
    where = dict(bbox_to_anchor=(0.5, 1 - HEADER_IN / fh)) if header else {}
    fig.legend(handles=handles, loc="upper center", ncols=min(len(handles), 6), fontsize=7, frameon=False, **where)
    return fig


def write_pictures(config: GameConfig, events: np.ndarray, out_dir: Path, outcome: str = "",
                   header: str = "") -> list[Path]:
    """``turn_NN.png`` per game turn, ``game.gif`` (a frame per game turn) and ``contact_sheet.png``
    in ``out_dir`` (which exists), each written atomically, under ``header`` (what was played, none
    when empty); returns their paths."""
    out_dir = Path(out_dir)
    all_scenes = scenes(config, events)
    if not all_scenes:
        return []
    n_turns = all_scenes[-1].turn
    fig = Figure(figsize=figure_size(config), dpi=DPI)
    FigureCanvasAgg(fig)  # the legend's size is measured to place the text under it
    written = []
    gif = out_dir / "game.gif"
    with atomic_path(gif) as gif_tmp:
        writer = _GifWriter(fps=GIF_FPS)
        writer.setup(fig, gif_tmp, dpi=DPI)
        for scene in all_scenes:
            draw_turn(fig, config, scene, n_turns, outcome, header)
            path = out_dir / f"turn_{scene.turn:02d}.png"
            with atomic_path(path) as tmp:
                fig.savefig(tmp, dpi=DPI, format="png")
            written.append(path)
            writer.grab_drawn_frame()
        writer.finish()
    sheet = out_dir / "contact_sheet.png"
    with atomic_path(sheet) as tmp:
        draw_sheet(config, all_scenes, header).savefig(tmp, dpi=DPI, format="png")
    return [*written, gif, sheet]
