"""Zombies!!!'s map drawings for ``shamble trace --png DIR``: the tile map at the end of every
round (every player's turn once), as the narrative tells it.

The trace events (``kernels.zombies9.layout`` EV_* / EK_*) are first read into one `Scene` per
round (pure Python, no matplotlib): the tiles laid so far (EK_TILE, in slot order after the start
tile; this round's outlined), every pawn's square (where its turn began, EK_TURN, moved by EK_MOVE,
sent back by EK_DEATH), the round's moves as arrows from the square a move began on to the square
it ended on (the kernels log the two ends, not the squares between: the arrow is straight), the
deaths (where the pawn stood when its move began or ended), and the zombie figures and the life and
bullet tokens on every square as the round ends (EK_SNAP_Z, logged after every round of a traced
game and at its end). Coordinates are the map's own: squares (three to a tile side), the tiles numbered by
their cell of the tile grid. ``sim.trace_pictures`` lays the pictures out and writes
``turn_NN.png`` (NN the round), ``game.gif`` and ``contact_sheet.png``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.patches import Circle, Patch, Rectangle

from kernels.zombies9 import layout as L
from sim import trace_pictures as TP
from sim.rulesets.zombies9.config import Zombies9Config
from sim.rulesets.zombies9.trace import _tiles_from, narrative

SQUARE_COLOURS = {L.K_BLOCKED: "#5b7f4f", L.K_ROAD: "#b4b4b4", L.K_BUILDING: "#d8b98a", L.K_DOOR: "#8b5a2b"}
SQUARE_WORDS = {L.K_BLOCKED: "blocked", L.K_ROAD: "road", L.K_BUILDING: "building", L.K_DOOR: "door"}
FIGURE_COLOURS = (("zombie", "#b00000"), ("zombie kid", "#ff69b4"), ("zombie dog", "#ff8c00"))
NEW_TILE_COLOUR = "#e6a700"
PAWN_MARKER, DEATH_MARKER = "o", "X"


# ---- the scenes -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Pawn:
    player: int
    square: int  # the map's square index: tile slot * 9 + square of the tile (row-major, 3 x 3)
    x: float  # squares, from the map's left edge
    y: float  # squares, from the map's top edge (down the picture)


@dataclass(frozen=True)
class Step:
    """A pawn's move this round, from the square it began on to the one it ended on."""
    player: int
    start: int
    end: int
    points: tuple[tuple[float, float], tuple[float, float]]
    by: int  # -1: its own move; else the player whose card moved it


@dataclass(frozen=True)
class Death:
    player: int
    x: float
    y: float


@dataclass(frozen=True)
class Figures:
    """What stands on one square as a round ends (EK_SNAP_Z)."""
    square: int
    adults: int
    kids: int
    dogs: int
    life: int
    bullets: int


@dataclass(frozen=True)
class Scene:
    turn: int  # the round
    n_tiles: int  # tiles on the map (slots 0 .. n_tiles - 1)
    new_tiles: tuple[int, ...]  # slots laid this round
    pawns: tuple[Pawn, ...]
    steps: tuple[Step, ...]
    deaths: tuple[Death, ...]
    figures: tuple[Figures, ...]  # as the round ends
    happenings: tuple[str, ...] = field(default=())


class Grid:
    """Where each square of the map is drawn: the tiles' cells, shifted so the map starts at (0, 0)."""

    def __init__(self, config: Zombies9Config, events: np.ndarray) -> None:
        self.tiles = _tiles_from(config, events)  # (type, cell x, cell y, rotation) by slot
        xs, ys = [t[1] for t in self.tiles], [t[2] for t in self.tiles]
        self.x0, self.y0 = min(xs), min(ys)
        self.w, self.h = max(xs) - self.x0 + 1, max(ys) - self.y0 + 1

    def corner(self, slot: int) -> tuple[int, int]:
        _, x, y, _ = self.tiles[slot]
        return 3 * (x - self.x0), 3 * (y - self.y0)

    def centre(self, q: int, player: int = -1) -> tuple[float, float]:
        """A square's centre; a player's pawn sits a little off it, each its own spot."""
        cx, cy = self.corner(q // 9)
        x, y = cx + (q % 9) % 3 + 0.5, cy + (q % 9) // 3 + 0.5
        if player >= 0:
            x, y = x + 0.22 * (player % 3) - 0.22, y - 0.18 + 0.3 * (player // 3)
        return x, y


def scenes(config: Zombies9Config, events: np.ndarray, grid: Grid | None = None) -> list[Scene]:
    """One `Scene` per round of a traced game (``events``: float[n, N_EV])."""
    events = np.asarray(events)
    grid = grid or Grid(config, events)
    kinds = events[:, L.EV_KIND].astype(int)
    turns = np.flatnonzero(kinds == L.EK_TURN)
    if not len(turns):
        return []
    rounds = events[:, L.EV_ROUND].astype(int)
    where: dict[int, int] = {}  # player -> square (none: off the map, dead until its next turn)
    for e in events:  # every pawn starts where its first position is logged
        p, kind = int(e[L.EV_PLAYER]), int(e[L.EV_KIND])
        if 0 <= p < config.n_players and p not in where and kind in (L.EK_TURN, L.EK_MOVE):
            q = int(e[L.EV_D] if kind == L.EK_TURN else e[L.EV_A])
            if q >= 0:
                where[p] = q
    tiles, out = 1, []
    bounds = [*turns[np.r_[True, np.diff(rounds[turns]) != 0]], len(events)]  # each round's first EK_TURN
    bounds[0] = 0  # the set-up belongs to the first round
    for start, end in zip(bounds, bounds[1:]):
        scene, tiles = _read_round(config, grid, events[start:end], int(rounds[turns[0] if start == 0 else start]),
                                   where, tiles)
        out.append(scene)
    return out


def _read_round(config, grid, evs, rnd, where, tiles):
    steps, deaths, new, figures = [], [], [], []
    for e in evs:
        kind, p = int(e[L.EV_KIND]), int(e[L.EV_PLAYER])
        a, b, c, d = (int(e[k]) for k in (L.EV_A, L.EV_B, L.EV_C, L.EV_D))
        if kind == L.EK_TILE:
            new.append(tiles)
            tiles += 1
        elif kind == L.EK_TURN and d >= 0:
            where[p] = d
        elif kind == L.EK_MOVE:
            if a >= 0 and b >= 0 and a != b:
                steps.append(Step(p, a, b, (grid.centre(a, p), grid.centre(b, p)), -1 - d if d < 0 else -1))
            where[p] = b
        elif kind == L.EK_DEATH:
            if p in where:
                deaths.append(Death(p, *grid.centre(where[p], p)))
            if c:  # back to the start at once
                where[p] = b
            else:
                where.pop(p, None)
        elif kind == L.EK_SNAP_P:
            where[p] = a
        elif kind == L.EK_SNAP_Z:
            figures.append(Figures(a, b % 10, b // 10 % 10, b // 100, c, d))
    pawns = tuple(Pawn(p, q, *grid.centre(q, p)) for p, q in sorted(where.items()) if q >= 0)
    told = tuple(line.strip() for line in narrative(config, evs))
    return Scene(rnd, tiles, tuple(new), pawns, tuple(steps), tuple(deaths), tuple(figures), told), tiles


# ---- drawing ----------------------------------------------------------------------------
class Board:
    """The tile map for ``sim.trace_pictures``: squares as units, the top row first."""

    def __init__(self, config: Zombies9Config, grid: Grid, result_line: str, n_rounds: int) -> None:
        from sim.rulesets.zombies9.compile import compile_tables, game_of

        self.config, self.grid, self.result_line, self.n_rounds = config, grid, result_line, n_rounds
        self.tile_sq = compile_tables(config).tile_sq
        self.tile_names = [t.name for t in game_of(config).tiles]
        w, h = 3 * grid.w, 3 * grid.h
        self.extent = (-2.0, w + 0.8, h + 3.2, -0.8)  # y down: the map as laid on the table
        self.sheet_extent = (-0.3, w + 0.3, h + 0.3, -0.3)

    def draw(self, ax, scene: Scene, small: bool) -> None:
        grid = self.grid
        squares, colours = [], []
        for slot in range(scene.n_tiles):
            t, _, _, r = grid.tiles[slot]
            cx, cy = grid.corner(slot)
            for i in range(9):
                x, y = cx + i % 3, cy + i // 3
                squares.append([(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)])
                colours.append(SQUARE_COLOURS[int(self.tile_sq[t, r, i])])
        ax.add_collection(PolyCollection(squares, facecolors=colours, edgecolors="#444444", linewidths=0.3,
                                         zorder=0.5, gid="squares"))
        for slot in range(scene.n_tiles):
            t = grid.tiles[slot][0]
            cx, cy = grid.corner(slot)
            new = slot in scene.new_tiles
            ax.add_patch(Rectangle((cx, cy), 3, 3, fill=False, ec=NEW_TILE_COLOUR if new else "black",
                                   lw=(1.6 if small else 2.4) if new else 1.0, zorder=1, gid=f"tile:{slot}"))
            if not small:
                ax.text(cx + 1.5, cy + 0.2, self.tile_names[t][:16], ha="center", va="center", fontsize=5, zorder=1.1)
        for f in scene.figures:
            x, y = grid.centre(f.square)
            for k, (count, (_, colour)) in enumerate(zip((f.adults, f.kids, f.dogs), FIGURE_COLOURS)):
                for j in range(count):
                    ax.add_patch(Circle((x - 0.25 + 0.25 * k, y + 0.05 + 0.14 * j), 0.1, fc=colour, ec="white",
                                        lw=0.3, zorder=2, gid=f"zombie:{f.square}:{k}:{j}"))
            if (f.life or f.bullets) and not small:
                ax.text(x + 0.3, y - 0.3, " ".join(s for s in (f"L{f.life}" if f.life else "",
                                                              f"B{f.bullets}" if f.bullets else "") if s),
                        fontsize=4.5, color="#003300", zorder=2)
        for s in scene.steps:
            TP.arrow(ax, s.points, TP.player_colour(s.player), small, f"move:{s.player}:{s.start}:{s.end}", short=0.2,
                     lw=1.4)
        for pawn in scene.pawns:
            ax.plot([pawn.x], [pawn.y], ls="none", marker=PAWN_MARKER, ms=4 if small else 8,
                    mfc=TP.player_colour(pawn.player), mec="white", mew=0.8, zorder=5, gid=f"pawn:{pawn.player}")
        for k, death in enumerate(scene.deaths):
            ax.plot([death.x], [death.y], ls="none", marker=DEATH_MARKER, ms=6 if small else 11, mfc=TP.LOSS_COLOUR,
                    mec="white", mew=0.8, zorder=6, gid=f"death:{death.player}:{k}")
        if not small:
            self._labels(ax, scene)
            self._rulers(ax)

    def _labels(self, ax, scene: Scene) -> None:
        labels = TP.Labels(ax)
        for pawn in scene.pawns:
            labels.block(pawn.x - 0.15, pawn.y - 0.15, pawn.x + 0.15, pawn.y + 0.15)
        for x, y in TP.along([s.points for s in scene.steps], 0.3):
            labels.block(x - 0.1, y - 0.1, x + 0.1, y + 0.1)
        for pawn in scene.pawns:
            labels.put(pawn.x, pawn.y, 0.25, self.config.players[pawn.player].name, 6.5, gid=f"label:{pawn.player}",
                       color="black", bbox=dict(boxstyle="round,pad=0.12", fc="white",
                                                ec=TP.player_colour(pawn.player), lw=0.6, alpha=0.85))
        for k, death in enumerate(scene.deaths):
            labels.put(death.x, death.y, 0.35, f"{self.config.players[death.player].name} dies", 6.5,
                       below_first=True, style="italic", color=TP.LOSS_COLOUR, gid=f"death_label:{k}",
                       bbox=dict(boxstyle="round,pad=0.1", fc="white", ec="none", alpha=0.8))

    def _rulers(self, ax) -> None:
        """The tile grid's own coordinates: each tile column and row numbered by its cell, a tick
        every square, and a scale bar of one tile (three squares)."""
        grid = self.grid
        w, h = 3 * grid.w, 3 * grid.h
        ticks = [[(x, h), (x, h + (0.35 if x % 3 == 0 else 0.18))] for x in range(w + 1)]
        ticks += [[(0, y), (-(0.35 if y % 3 == 0 else 0.18), y)] for y in range(h + 1)]
        ax.add_collection(LineCollection(ticks, colors="black", linewidths=0.6, gid="square_ticks"))
        for k in range(grid.w):
            ax.text(3 * k + 1.5, h + 0.45, f"x {grid.x0 + k}", ha="center", va="top", fontsize=6.5)
        for k in range(grid.h):
            ax.text(-0.45, 3 * k + 1.5, f"y {grid.y0 + k}", ha="right", va="center", fontsize=6.5)
        bar_y = h + 2.0
        ax.plot([w - 3, w], [bar_y, bar_y], color="black", lw=3, solid_capstyle="butt", gid="scale_bar")
        ax.text(w - 1.5, bar_y - 0.25, "1 tile = 3 squares", ha="center", va="bottom", fontsize=7.5,
                gid="scale_bar_label")
        ax.text(0, bar_y, "tile cells of the map grid; ticks every square", ha="left", va="center", fontsize=7,
                color="#444444")

    def title(self, scene: Scene, last: bool) -> str:
        return f"Round {scene.turn} of {self.n_rounds} ({'the game ends' if last else 'end of the round'})"

    def legend(self, scene: Scene) -> list:
        handles = [TP.marker_handle(PAWN_MARKER, TP.player_colour(p), f"{pl.name}'s pawn")
                   for p, pl in enumerate(self.config.players)]
        handles += [Patch(fc=colour, ec="#444444", lw=0.3, label=SQUARE_WORDS[k]) for k, colour in
                    SQUARE_COLOURS.items()]
        handles += [Patch(fill=False, ec=NEW_TILE_COLOUR, lw=2.0, label="tile laid this round"),
                    TP.move_handle("this round's move (start to end square)"),
                    TP.marker_handle(DEATH_MARKER, TP.LOSS_COLOUR, "died this round", ms=10)]
        handles += [TP.marker_handle("o", colour, name, ms=6) for name, colour in FIGURE_COLOURS]
        handles.append(Patch(fc="white", ec="none", label="L/B: life / bullet tokens on the square"))
        return handles

    def text(self, scene: Scene, last: bool) -> list[str]:
        return [f"Round {scene.turn}:", *scene.happenings, *([self.result_line] if last and self.result_line else [])]

    def sheet_label(self, scene: Scene) -> str:
        return f"round {scene.turn}"

    def sheet_legend(self) -> list:
        handles = [TP.marker_handle(PAWN_MARKER, TP.player_colour(p), pl.name, ms=7)
                   for p, pl in enumerate(self.config.players)]
        return handles + [TP.marker_handle("o", FIGURE_COLOURS[0][1], "zombies", ms=5),
                          TP.marker_handle(DEATH_MARKER, TP.LOSS_COLOUR, "died", ms=8),
                          Patch(fill=False, ec=NEW_TILE_COLOUR, lw=2.0, label="new tile")]


def result_line(result) -> str:
    if result is None or not len(result):
        return ""
    row = result.iloc[0]
    return f"== result: {row['game_winner'] or 'nobody'} ({row['reason']}) in round {row['turns']} =="


def write_pictures(config: Zombies9Config, events: np.ndarray, result, out_dir: Path) -> list[Path]:
    """``turn_NN.png`` per round, ``game.gif`` and ``contact_sheet.png`` in ``out_dir``."""
    events = np.asarray(events)
    grid = Grid(config, events)
    all_scenes = scenes(config, events, grid)
    if not all_scenes:
        return []
    board = Board(config, grid, result_line(result), all_scenes[-1].turn)
    return TP.write_pictures(board, all_scenes, out_dir, TP.header_of(config, result), keep_last=1)
