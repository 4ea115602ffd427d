"""The shared machinery of ``shamble trace --png DIR``: a ruleset reads its trace events into one
scene per turn (pure Python) and supplies a `Board` that draws a scene on a matplotlib Axes; this
module lays every picture out and writes the files.

A turn's picture: the line naming what was played (ruleset, config, mods, game, seed, version and
commit) across the top, the table on the left under its title, and beside it a panel with the
legend and the turn's text wrapped under it. ``write_pictures`` writes ``turn_NN.png`` per scene,
``game.gif`` (one frame per scene) and ``contact_sheet.png`` (every scene small, in a grid), each
file atomically (``sim.files.atomic_path``). Figures only, never pyplot (no global state).

Helpers a board uses: `Labels` (greedy placement of names so that none hides another), `arrow`
(a move along its path, with the point it left from), `inch_rulers` (ticks, numbers every few
inches and a scale bar), `marker_handle` (a legend entry).

Zombie 40,000's pictures (``sim.rulesets.zombie40k.trace_draw``) came first and keep their own
code; these are theirs made general.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import matplotlib
import numpy as np
from matplotlib.animation import PillowWriter
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch
from matplotlib.path import Path as MplPath
from PIL import Image

from sim.files import atomic_path

DPI = 100  # per-turn PNGs: at least 900 px on the long side
GIF_FPS = 1.0
PANEL_FONT = 7.0  # points: the turn's text beside the table
PANEL_CHARS = 78  # characters a line of it holds before it wraps
TABLE_HEIGHT_IN = 8.0  # figure inches of the table's axes (long side); the panel is beside it
PANEL_WIDTH_IN = 4.6
HEADER_IN = 0.45  # figure inches above everything for the line naming what was played
HEADER_FONT = 8.0
# tab10 without its grey (zombies' colour): a colour per player, 9 at most before they repeat
PLAYER_COLOURS = tuple(matplotlib.colors.to_hex(c) for i, c in enumerate(matplotlib.colormaps["tab10"].colors)
                       if i != 7)
ZOMBIE_COLOUR = "#8c8c8c"
LOSS_COLOUR = "#d00000"
TERRAIN_COLOUR = "#b5a27a"


def player_colour(p: int) -> str:
    return PLAYER_COLOURS[p % len(PLAYER_COLOURS)]


class Board(Protocol):
    """What a ruleset's pictures supply. A scene is any object with an int ``turn``."""

    extent: tuple[float, float, float, float]  # x0, x1, y0, y1: data limits of a full table (rulers included)
    sheet_extent: tuple[float, float, float, float]  # the same for the contact sheet's small tables

    def draw(self, ax: Any, scene: Any, small: bool) -> None:
        """The table of ``scene`` on ``ax`` (limits and aspect already set); ``small``: no texts."""

    def title(self, scene: Any, last: Any) -> str:
        """The table's title, e.g. 'Game turn 3 of 7 (end of the turn)' (``last``: the last scene)."""

    def legend(self, scene: Any) -> list:
        """The legend's handles beside the table."""

    def text(self, scene: Any, last: bool) -> list[str]:
        """The turn's lines as the narrative tells them (unwrapped), then what the panel adds."""

    def sheet_label(self, scene: Any) -> str:
        """The contact sheet's label of a scene ('turn 3')."""

    def sheet_legend(self) -> list:
        """The contact sheet's one legend."""


# ---- helpers a board draws with -----------------------------------------------------------
def marker_handle(marker: str, colour: str, label: str, ms: float = 8, mec: str = "white") -> Line2D:
    return Line2D([], [], ls="none", marker=marker, ms=ms, mfc=colour, mec=mec, label=label)


def move_handle(label: str = "this turn's move (from o)") -> Line2D:
    return Line2D([], [], color="#555555", lw=1.6, marker=">", ms=5, label=label)


def path_length(points: Sequence[tuple[float, float]]) -> float:
    return float(sum(math.dist(a, b) for a, b in zip(points, points[1:])))


def clean_path(points: Sequence[tuple[float, float]]) -> tuple[tuple[float, float], ...]:
    """The points of a path without repeats (a waypoint where the unit already stood)."""
    return tuple(p for k, p in enumerate(points) if k == 0 or math.dist(p, points[k - 1]) > 1e-6)


def shortened(points: Sequence[tuple[float, float]], short: float) -> list[tuple[float, float]]:
    """The path with its last leg stopped ``short`` before its end (a head at a footprint's edge)."""
    points = list(points)
    (ax_, ay), (bx, by) = points[-2], points[-1]
    last = math.dist(points[-2], points[-1])
    if short > 0 and last > short + 0.5:  # the head stops at the footprint's edge, where it is seen
        k = (last - short) / last
        points[-1] = (ax_ + (bx - ax_) * k, ay + (by - ay) * k)
    return points


def arrow(ax, points: Sequence[tuple[float, float]], colour: str, small: bool, gid: str, short: float = 0.0,
          lw: float = 1.6) -> None:
    """A move along ``points`` (two or more) with its head ``short`` before the end and a white dot
    where it started."""
    points = shortened(points, short)
    ax.add_patch(FancyArrowPatch(path=MplPath(points), arrowstyle="-|>", mutation_scale=7 if small else 12,
                                 color=colour, lw=lw * (0.6 if small else 1.0), alpha=0.9, zorder=5.5, gid=gid))
    ax.plot([points[0][0]], [points[0][1]], ls="none", marker="o", ms=2 if small else 3.5, mfc="white", mec=colour,
            mew=1.0, zorder=5.5)


def along(paths: Sequence[Sequence[tuple[float, float]]], step: float = 0.6):
    """Points every ``step`` along each path (where a label would hide an arrow)."""
    for points in paths:
        for (ax_, ay), (bx, by) in zip(points, points[1:]):
            n = max(1, math.ceil(math.dist((ax_, ay), (bx, by)) / step))
            for k in range(n + 1):
                yield ax_ + (bx - ax_) * k / n, ay + (by - ay) * k / n


def inch_rulers(ax, width: float, length: float, label_every: int = 6, bar: float = 12.0, bar_y: float = -5.0,
                note: str = "ticks every inch", unit: str = '"') -> None:
    """Ticks every unit along the bottom and left edges (numbered every ``label_every``) and a
    scale bar ``bar`` long under the table's right end (plain lines: matplotlib's ticks are slow)."""
    big, tick = 0.9 * label_every / 6, 0.45 * label_every / 6
    segments = [[(x, 0), (x, -(big if x % label_every == 0 else tick))] for x in range(int(width) + 1)]
    segments += [[(0, y), (-(big if y % label_every == 0 else tick), y)] for y in range(int(length) + 1)]
    ax.add_collection(LineCollection(segments, colors="black", linewidths=0.6, gid="inch_ticks"))
    off = 1.1 * label_every / 6
    for x in range(0, int(width) + 1, label_every):
        ax.text(x, -off, f"{x}", ha="center", va="top", fontsize=6.5)
    for y in range(0, int(length) + 1, label_every):
        ax.text(-off, y, f"{y}", ha="right", va="center", fontsize=6.5)
    ax.plot([width - bar, width], [bar_y, bar_y], color="black", lw=3, solid_capstyle="butt", gid="scale_bar")
    ax.text(width - bar / 2, bar_y + 0.7 * label_every / 6, f"{bar:g}{unit}", ha="center", va="bottom", fontsize=8,
            gid="scale_bar_label")
    ax.text(0, bar_y, note, ha="left", va="center", fontsize=7.5, color="#444444")


class Labels:
    """Greedy placement of a table's labels: each goes to the first spot around its point that
    overlaps no label or marker placed before it (text boxes estimated from the text's length), a
    thin leader line joining a label pushed away from its point."""

    def __init__(self, ax) -> None:
        bbox, (x0, x1), (y0, y1) = ax.get_position(), ax.get_xlim(), ax.get_ylim()
        self.ax, self.limits = ax, (x0, min(y0, y1), x1, max(y0, y1))
        self.flip = y1 < y0  # y runs down the picture: a box's data "bottom" is drawn at its top
        fig_w, fig_h = ax.figure.get_size_inches()
        self.inch_per_pt = max((x1 - x0) / (bbox.width * fig_w * 72), abs(y1 - y0) / (bbox.height * fig_h * 72))
        self.boxes: list[tuple[float, float, float, float]] = []

    def block(self, x0: float, y0: float, x1: float, y1: float) -> None:
        self.boxes.append((x0, y0, x1, y1))

    def _cost(self, box) -> float:
        def overlap(b):
            return max(0.0, min(box[2], b[2]) - max(box[0], b[0])) * max(0.0, min(box[3], b[3]) - max(box[1], b[1]))
        x0, y0, x1, y1 = self.limits
        outside = (max(0.0, x0 - box[0]) + max(0.0, box[2] - x1) + max(0.0, y0 - box[1]) + max(0.0, box[3] - y1))
        return sum(overlap(b) for b in self.boxes) + 100.0 * outside

    def put(self, x: float, y: float, gap: float, text: str, fontsize: float, below_first: bool = False, **kw):
        w = (0.6 * max(len(line) for line in text.split("\n")) + 0.4) * fontsize * self.inch_per_pt
        h = 1.45 * fontsize * self.inch_per_pt * (1 + text.count("\n"))
        best = None
        for ring, dx, dy, ha, va in _spots(gap, h, below_first):
            box = _box(x + dx, y + dy, ha, va, w, h)
            cost = self._cost(box)
            if best is None or cost < best[0]:
                best = (cost, ring, dx, dy, ha, va, box)
            if cost == 0.0:
                break
        _, ring, dx, dy, ha, va, box = best
        self.boxes.append(box)
        if ring > 0:
            self.ax.plot([x, x + dx], [y, y + dy], color="#555555", lw=0.6, zorder=6.5)
        if self.flip:
            va = {"bottom": "top", "top": "bottom"}.get(va, va)
        return self.ax.text(x + dx, y + dy, text, ha=ha, va=va, fontsize=fontsize, zorder=7, **kw)


def _spots(gap: float, h: float, below_first: bool):
    """(ring, dx, dy, ha, va): above, below, right, left and the corners, then further out."""
    for ring in range(5):
        d = gap + ring * 1.2 * h
        spots = [(0, d, "center", "bottom"), (0, -d, "center", "top"), (d, 0, "left", "center"),
                 (-d, 0, "right", "center"), (d, d, "left", "bottom"), (-d, d, "right", "bottom"),
                 (d, -d, "left", "top"), (-d, -d, "right", "top")]
        if below_first:
            spots[0], spots[1] = spots[1], spots[0]
        for spot in spots:
            yield (ring, *spot)


def _box(x, y, ha, va, w, h):
    x0 = {"left": x, "center": x - w / 2, "right": x - w}[ha]
    y0 = {"bottom": y, "center": y - h / 2, "top": y - h}[va]
    return x0, y0, x0 + w, y0 + h


# ---- one turn's picture -------------------------------------------------------------------
def wrap(line: str, width: int = PANEL_CHARS) -> list[str]:
    return textwrap.wrap(line, width, subsequent_indent="      ", break_on_hyphens=False) or [""]


def panel_text(lines: Sequence[str], max_lines: int, keep_last: int = 0) -> str:
    """``lines`` wrapped to the panel; past ``max_lines`` rows, cut with a pointer to the text (the
    last ``keep_last`` lines, a result or a tally, are always kept)."""
    head = [row for line in lines[:len(lines) - keep_last] for row in wrap(line)]
    tail = [row for line in lines[len(lines) - keep_last:] for row in wrap(line)] if keep_last else []
    room = max(max_lines - len(tail), 2)
    if len(head) > room:
        cut = len(head) - room + 1
        head = head[:room - 1] + [f"... {cut} more lines: see the text (shamble trace)"]
    return "\n".join(head + tail)


def _table_box(board: Board) -> tuple[float, float]:
    """Figure inches (width, height) of the table's axes: its data limits at one scale."""
    x0, x1, y0, y1 = board.extent
    wd, ld = x1 - x0, abs(y1 - y0)
    scale = TABLE_HEIGHT_IN / max(wd, ld)
    return wd * scale, ld * scale


def figure_size(board: Board) -> tuple[float, float]:
    w, h = _table_box(board)
    return 0.5 + w + 0.2 + PANEL_WIDTH_IN, max(h, 6.0) + 0.8 + HEADER_IN


def draw_header(fig: Figure, header: str, top_in: float, fontsize: float = HEADER_FONT) -> None:
    """``header`` (what was played) across the top of ``fig``, ``top_in`` inches below its edge,
    wrapped to the figure's width."""
    fw, fh = fig.get_size_inches()
    chars = int((fw - 0.4) * 72 / (0.55 * fontsize))
    fig.text(0.2 / fw, 1 - top_in / fh, "\n".join(textwrap.wrap(header, chars)), ha="left", va="top",
             fontsize=fontsize, color="#333333", gid="header")


def _set_limits(ax, extent: tuple[float, float, float, float]) -> None:
    ax.set_aspect("equal")
    ax.set_axis_off()
    ax.set_xlim(extent[0], extent[1])
    ax.set_ylim(extent[2], extent[3])


def draw_turn(fig: Figure, board: Board, scene: Any, last: bool, header: str = "", keep_last: int = 0) -> None:
    """One scene's picture on ``fig`` (cleared first): the header, the table and its title, the
    legend and the turn's text."""
    fig.clear()
    fw, fh = fig.get_size_inches()
    w, h = _table_box(board)
    draw_header(fig, header, 0.12)
    top = HEADER_IN + 0.5
    table = fig.add_axes((0.5 / fw, (fh - top - h) / fh, w / fw, h / fh), label="table")
    _set_limits(table, board.extent)
    board.draw(table, scene, False)
    table.text(0.0, 1.01, board.title(scene, last), fontsize=11, transform=table.transAxes, gid="title")
    panel_h = fh - 0.8 - HEADER_IN
    panel = fig.add_axes(((0.5 + w + 0.2) / fw, 0.3 / fh, PANEL_WIDTH_IN / fw, panel_h / fh), label="panel")
    panel.set_axis_off()
    legend = panel.legend(handles=board.legend(scene), loc="upper left", fontsize=7.5, frameon=True,
                          title="legend", title_fontsize=8, borderaxespad=0.0, handlelength=1.8)
    box = legend.get_window_extent(fig.canvas.get_renderer()).transformed(panel.transAxes.inverted())
    room = int((box.y0 - 0.03) * panel_h * 72 / (1.2 * PANEL_FONT))  # lines of text under the legend
    text = panel_text(board.text(scene, last), room, keep_last if last else 0)
    panel.text(0.0, box.y0 - 0.03, text, ha="left", va="top", fontsize=PANEL_FONT, transform=panel.transAxes,
               gid="happenings")


# ---- the contact sheet ----------------------------------------------------------------------
def sheet_grid(n: int, aspect: float) -> tuple[int, int]:
    """(columns, rows) for n panels of height/width ``aspect``: a sheet near square, few empty cells."""
    def score(cols: int) -> float:
        rows = math.ceil(n / cols)
        return abs(math.log(rows * aspect / cols)) + 0.15 * (rows * cols - n)

    cols = min(range(1, n + 1), key=score)
    return cols, math.ceil(n / cols)


SHEET_TITLE_IN, SHEET_GAP_IN, SHEET_TOP_IN = 0.2, 0.12, 0.45


def draw_sheet(board: Board, scenes: Sequence[Any], header: str = "") -> Figure:
    """Every scene small, in a grid, under the header and one legend."""
    n = max(len(scenes), 1)
    x0, x1, y0, y1 = board.sheet_extent
    aspect = abs(y1 - y0) / (x1 - x0)
    cols, rows = sheet_grid(n, aspect)
    cell = min(2.4, 18.0 / cols)
    row_h = cell * aspect + SHEET_TITLE_IN + SHEET_GAP_IN
    top = SHEET_TOP_IN + HEADER_IN
    fw, fh = max(cols * (cell + SHEET_GAP_IN) + SHEET_GAP_IN, 7.0), top + rows * row_h
    fig = Figure(figsize=(fw, fh), dpi=DPI)
    draw_header(fig, header, 0.08)
    for k, scene in enumerate(scenes):
        row, col = divmod(k, cols)
        left, bottom = SHEET_GAP_IN + col * (cell + SHEET_GAP_IN), fh - top - (row + 1) * row_h
        ax = fig.add_axes((left / fw, (bottom + SHEET_GAP_IN) / fh, cell / fw, cell * aspect / fh),
                          label=f"scene {k}")
        _set_limits(ax, board.sheet_extent)
        board.draw(ax, scene, True)
        ax.text(0.5, 1.01, board.sheet_label(scene), ha="center", va="bottom", fontsize=7, transform=ax.transAxes)
    handles = board.sheet_legend()
    fig.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 1 - HEADER_IN / fh),
               ncols=min(len(handles), 6), fontsize=7, frameon=False)
    return fig


# ---- the files ----------------------------------------------------------------------------
class GifWriter(PillowWriter):
    """matplotlib's PillowWriter, which takes each frame as the figure was just drawn for its PNG
    (same size: a second drawing would cost a third of the time) and names the format (the atomic
    temporary file has no .gif suffix)."""

    def grab_drawn_frame(self) -> None:
        frame = Image.fromarray(np.asarray(self.fig.canvas.buffer_rgba()), "RGBA")
        assert frame.size == tuple(self.frame_size), "every frame has the figure's size"
        self._frames.append(frame.convert("RGB").quantize(255, method=Image.Quantize.FASTOCTREE))

    def finish(self) -> None:
        self._frames[0].save(self.outfile, format="GIF", save_all=True, append_images=self._frames[1:],
                             duration=int(1000 / self.fps), loop=0)


def write_pictures(board: Board, scenes: Sequence[Any], out_dir: Path, header: str = "",
                   keep_last: int = 0) -> list[Path]:
    """``turn_NN.png`` per scene (NN its ``turn``), ``game.gif`` (a frame per scene) and
    ``contact_sheet.png`` in ``out_dir`` (which exists), each written atomically; their paths.
    ``keep_last``: lines at the end of the last scene's text never cut (the result)."""
    out_dir = Path(out_dir)
    if not scenes:
        return []
    fig = Figure(figsize=figure_size(board), dpi=DPI)
    FigureCanvasAgg(fig)  # the legend's size is measured to place the text under it
    written = []
    gif = out_dir / "game.gif"
    with atomic_path(gif) as gif_tmp:
        writer = GifWriter(fps=GIF_FPS)
        writer.setup(fig, gif_tmp, dpi=DPI)
        for k, scene in enumerate(scenes):
            draw_turn(fig, board, scene, k == len(scenes) - 1, header, keep_last)
            path = out_dir / f"turn_{scene.turn:02d}.png"
            with atomic_path(path) as tmp:
                fig.savefig(tmp, dpi=DPI, format="png")
            written.append(path)
            writer.grab_drawn_frame()
        writer.finish()
    sheet = out_dir / "contact_sheet.png"
    with atomic_path(sheet) as tmp:
        draw_sheet(board, scenes, header).savefig(tmp, dpi=DPI, format="png")
    return [*written, gif, sheet]


def header_of(config: Any, result: Any) -> str:
    """The line naming what was played: ``result.attrs['played']`` when the caller set it
    (``shamble trace`` does: ruleset, config file, mods, changed numbers, game, seed, version and
    commit), else what the config and result say (ruleset, mods, game, version and commit)."""
    played = getattr(result, "attrs", {}).get("played") if result is not None else None
    if played:
        return str(played)
    from sim.ruleset import played as played_info
    from sim.ruleset import played_line

    info = played_info(config, 0, -1)
    game = int(result.game.iloc[0]) if result is not None and len(result) and "game" in result else None
    return played_line(info, f"game {game}" if game is not None else "one game")
