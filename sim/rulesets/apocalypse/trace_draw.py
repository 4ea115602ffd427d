"""Zombie Apocalypse's table drawings for ``shamble trace --png DIR``: the table at the end of
every game turn, as the narrative tells it.

The trace events (``kernels.apocalypse.columns`` EV_* / EK_*) are first read into one `Scene` per
game turn (pure Python, no matplotlib): the units and hordes standing at the turn's snapshot
(EK_SNAP_UNIT / EK_SNAP_HORDE: models, position), the path each took this turn (from where it stood
at the previous snapshot, or where it deployed or spawned, through the moves, charges and falls
back the kernels log, to where it stands now or was lost), the units lost (EK_UNIT_LOST, where)
and the hordes gone (in the last snapshot, not in this one: destroyed or merged; a horde that comes
on and merges or dies within one turn is not drawn, its models counted in the horde it joined).
Spawn points and ruins stand all game. ``sim.trace_pictures`` lays the pictures out and
writes ``turn_NN.png``, ``game.gif`` and ``contact_sheet.png``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from matplotlib.patches import Circle, Patch, Rectangle

from kernels.apocalypse import columns as C
from sim import trace_pictures as TP
from sim.rulesets.apocalypse.config import ApocalypseConfig, fields_vehicles
from sim.rulesets.apocalypse.trace import Names, narrative, result_line

SPAWNER_COLOUR = "#7b2d8e"
ZONE_COLOUR = "tab:green"
HORDE_MARKER, UNIT_MARKER, WARLORD_MARKER, VEHICLE_MARKER = "s", "o", "*", "D"
VEHICLE_EDGE = "#222222"  # a vehicle's disc is ringed dark: one model, its Hull Points in its label
LOSS_MARKER = "X"
MOVED_IN = 0.05  # a path shorter than this is no move


# ---- the scenes -----------------------------------------------------------------------------
@dataclass(frozen=True)
class UnitMark:
    """A player's unit on the table at the turn's snapshot."""
    unit: int
    player: int
    models: int
    x: float
    y: float
    radius: float  # inches: the unit's footprint (its models' disc)
    hull: int = -1  # a vehicle's Hull Points left (EK_VEHICLE); -1 for any other unit
    aboard: int = 0  # a transport: the models aboard it (EK_ABOARD)


@dataclass(frozen=True)
class HordeMark:
    horde: int
    models: int
    juggernauts: int
    x: float
    y: float
    radius: float


@dataclass(frozen=True)
class Move:
    """The path of a unit (``kind`` 'unit') or horde ('horde') this turn; the last point is where it ended."""
    kind: str
    index: int
    points: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class Loss:
    """A unit lost this turn (where it stood) or a horde gone (where it was last seen)."""
    kind: str
    index: int
    x: float
    y: float


@dataclass(frozen=True)
class Scene:
    turn: int
    units: tuple[UnitMark, ...]
    hordes: tuple[HordeMark, ...]
    moves: tuple[Move, ...]
    losses: tuple[Loss, ...]
    happenings: tuple[str, ...] = field(default=())


def _disc(count: int, base: float, spacing: float) -> float:
    """The radius of ``count`` models on bases of ``base`` at ``spacing`` (docs/apocalypse.md)."""
    return 0.0 if count <= 0 else base + spacing * float(np.sqrt((count - 1) * 0.2757))


def unit_radius(config: ApocalypseConfig, models: int) -> float:
    return max(0.4, _disc(models, config.base_radius_in, config.model_spacing_in))


def horde_radius(config: ApocalypseConfig, models: int) -> float:
    return max(0.4, _disc(models, config.base_radius_in, config.zombie_spacing_in))


class _Paths:
    """The open path of every unit or horde ((kind, index) keys) while a turn's events are read."""

    def __init__(self, where: dict) -> None:
        self.open = {key: [xy] for key, xy in where.items()}
        self.done: list[Move] = []
        self.ends: dict = {}  # key -> its last point (a horde gone is marked there)
        self.fresh: set = set()  # keys that came onto the table this turn

    def start(self, key, x: float, y: float) -> None:
        self.open[key] = [(x, y)]
        self.fresh.add(key)

    def drop(self, key) -> tuple[float, float] | None:
        """A horde gone before the snapshot: its last point if it stood at the last turn's end (it
        is marked, its path drawn); None if it came on this turn (it spawned and merged or died
        within the turn: its models are in another horde's count, or dead; nothing is drawn)."""
        if key in self.fresh:
            self.open.pop(key, None)
            self.fresh.discard(key)
            return None
        end = self.open[key][-1]
        self.close(key)
        return end

    def step(self, key, x: float, y: float) -> None:
        self.open.setdefault(key, [(x, y)]).append((x, y))

    def close(self, key, x: float | None = None, y: float | None = None) -> None:
        if x is not None:
            self.step(key, x, y)
        points = TP.clean_path(self.open.pop(key, []))
        if points:
            self.ends[key] = points[-1]
        if len(points) > 1 and TP.path_length(points) > MOVED_IN:
            self.done.append(Move(key[0], key[1], points))


def scenes(config: ApocalypseConfig, events: np.ndarray, names: Names | None = None) -> list[Scene]:
    """One `Scene` per game turn of a traced game (``events``: float32[n, N_EV], turn 0 = setup)."""
    events = np.asarray(events)
    names = names or Names(config)
    where: dict = {}
    for e in events[events[:, C.EV_TURN] == 0]:
        kind, a = int(e[C.EV_KIND]), int(e[C.EV_A])
        if kind == C.EK_UNIT:
            where[("unit", a)] = (float(e[C.EV_X]), float(e[C.EV_Y]))
        elif kind == C.EK_SPAWN and int(e[C.EV_C]) >= 0:
            where[("horde", int(e[C.EV_C]))] = (float(e[C.EV_X]), float(e[C.EV_Y]))
    for e in events[events[:, C.EV_TURN] == 0]:  # the snapshot at the set-up's end, if any, wins
        if int(e[C.EV_KIND]) in (C.EK_SNAP_UNIT, C.EK_SNAP_HORDE):
            where[("unit" if int(e[C.EV_KIND]) == C.EK_SNAP_UNIT else "horde", int(e[C.EV_A]))] = (
                float(e[C.EV_X]), float(e[C.EV_Y]))
    out = []
    hull = {u: n for u, n in enumerate(names.hull) if n > 0}  # a vehicle's Hull Points left, turn by turn
    for turn in np.unique(events[:, C.EV_TURN]).astype(int):
        evs = events[events[:, C.EV_TURN] == turn]
        for e in evs[evs[:, C.EV_KIND] == C.EK_VEHICLE]:
            hull[int(e[C.EV_A])] = int(e[C.EV_C])
        if turn == 0 or not np.isin(evs[:, C.EV_KIND], (C.EK_SNAP_UNIT, C.EK_SNAP_HORDE)).any():
            continue
        scene = _read_turn(config, names, evs, turn, where, hull)
        where = {("unit", m.unit): (m.x, m.y) for m in scene.units}
        where.update({("horde", h.horde): (h.x, h.y) for h in scene.hordes})
        out.append(scene)
    return out


def _read_turn(config, names, evs, turn, where, hull) -> Scene:
    paths = _Paths(where)
    units, hordes, losses = [], [], []
    aboard = {int(e[C.EV_A]): int(e[C.EV_B]) for e in evs if int(e[C.EV_KIND]) == C.EK_ABOARD}
    for e in evs:
        kind, a, b, c = int(e[C.EV_KIND]), int(e[C.EV_A]), int(e[C.EV_B]), int(e[C.EV_C])
        x, y = float(e[C.EV_X]), float(e[C.EV_Y])
        if kind == C.EK_MOVE:
            paths.step(("unit", a), x, y)
        elif kind == C.EK_CHARGE and c == 11:  # a unit charged a horde: where it ended (x, y)
            paths.step(("unit", a), x, y)
        elif kind == C.EK_CHARGE and c == 1:  # a horde charged a unit
            paths.step(("horde", a), x, y)
        elif kind == C.EK_HMOVE:
            paths.step(("horde", a), x, y)
        elif kind in (C.EK_SPAWN, C.EK_GRAVEYARD):  # a new horde: its slot's last horde, if open, is gone
            h = c if kind == C.EK_SPAWN else b
            if h >= 0 and ("horde", h) in paths.open and (end := paths.drop(("horde", h))):
                losses.append(Loss("horde", h, *end))
            if h >= 0:
                paths.start(("horde", h), x, y)
        elif kind in (C.EK_BRUTE, C.EK_FIRST_ZOMBIE):  # joins a horde (a new one if none stands there)
            h = c if kind == C.EK_BRUTE else a
            if h >= 0 and ("horde", h) not in paths.open:
                paths.start(("horde", h), x, y)
        elif kind == C.EK_DISEMBARK:  # a squad comes onto the table beside its transport
            paths.start(("unit", a), x, y)
        elif kind == C.EK_UNIT_LOST:
            paths.close(("unit", a), x, y)
            losses.append(Loss("unit", a, x, y))
        elif kind == C.EK_SNAP_UNIT:
            paths.close(("unit", a), x, y)
            units.append(UnitMark(a, c, b, x, y, unit_radius(config, b), hull.get(a, -1), aboard.get(a, 0)))
        elif kind == C.EK_SNAP_HORDE:
            paths.close(("horde", a), x, y)
            hordes.append(HordeMark(a, b, c, x, y, horde_radius(config, b)))
    for key in sorted(k for k in paths.open if k[0] == "horde"):  # not in this snapshot: destroyed or merged
        if end := paths.drop(key):
            losses.append(Loss("horde", key[1], *end))
    told = tuple(line.strip() for line in narrative(names, evs)[1:])  # [1:]: the turn's heading
    return Scene(turn, tuple(units), tuple(hordes), tuple(paths.done), tuple(losses), told)


def unit_label(names: Names, m: UnitMark) -> str:
    """'Tactical Marine (10)', 'Captain Warlord (1)', 'Rhino 2/3 HP (10 aboard)'."""
    warlord = " Warlord" if names.hq[m.unit] else ""
    if names.is_vehicle(m.unit):
        count = f" {names.hull_points(m.unit, m.hull)}" + (f" ({m.aboard} aboard)" if m.aboard else "")
    else:
        count = f" ({m.models})"
    return f"{names.datasheet[m.unit]}{warlord}{count}"


# ---- drawing ----------------------------------------------------------------------------
class Board:
    """The Apocalypse table for ``sim.trace_pictures``: square, the extraction zone at its centre."""

    def __init__(self, config: ApocalypseConfig, events: np.ndarray, names: Names, result_line: str = "",
                 n_turns: int = 0) -> None:
        self.config, self.names, self.result_line, self.n_turns = config, names, result_line, n_turns
        self.transports = fields_vehicles(config, "transport")  # the legend's words for a vehicle
        kinds = events[:, C.EV_KIND]
        self.spawners = [(float(e[C.EV_X]), float(e[C.EV_Y])) for e in events[kinds == C.EK_SPAWNER]]
        self.ruins = [(float(e[C.EV_X]), float(e[C.EV_Y])) for e in events[kinds == C.EK_TERRAIN]]
        side = config.table_in
        self.extent = (-3.0, side + 1.5, -7.0, side + 1.5)
        self.sheet_extent = (-0.5, side + 0.5, -0.5, side + 0.5)

    def _colour(self, kind: str, index: int) -> str:
        return TP.player_colour(self.names.owner[index]) if kind == "unit" else TP.ZOMBIE_COLOUR

    def draw(self, ax, scene: Scene, small: bool) -> None:
        cfg, side = self.config, self.config.table_in
        ax.add_patch(Rectangle((0, 0), side, side, fc="#fbfaf6", ec="black", lw=1.5, zorder=0, gid="table"))
        for k, (x, y) in enumerate(self.ruins):
            ax.add_patch(Circle((x, y), cfg.terrain_piece_radius_in, fc=TP.TERRAIN_COLOUR, alpha=0.45, ec="#7a6a45",
                                lw=0.8, zorder=1, gid=f"ruin:{k}"))
        c, r = side / 2, cfg.zone_radius_in
        look = dict(fc=ZONE_COLOUR, alpha=0.25, zorder=0.5, gid="zone")
        ax.add_patch(Rectangle((c - r, c - r), 2 * r, 2 * r, **look) if cfg.zone_shape == "square"
                     else Circle((c, c), r, **look))
        for k, (x, y) in enumerate(self.spawners):
            ax.add_patch(Circle((x, y), cfg.spawner_radius_in + cfg.aura_in, fill=False, ls=":", ec=SPAWNER_COLOUR,
                                lw=0.8, zorder=1))
            ax.add_patch(Circle((x, y), cfg.spawner_radius_in, fc=SPAWNER_COLOUR, alpha=0.6, zorder=1.5,
                                gid=f"spawner:{k}"))
            if not small:
                ax.text(x, y, f"{k + 1}", ha="center", va="center", fontsize=7, color="white", zorder=1.6)
        for move in scene.moves:
            TP.arrow(ax, move.points, self._colour(move.kind, move.index), small, f"move:{move.kind}:{move.index}",
                     short=self._end_radius(scene, move), lw=1.0 if move.kind == "horde" else 1.6)
        for h in scene.hordes:
            ax.add_patch(Circle((h.x, h.y), h.radius, fc=TP.ZOMBIE_COLOUR, alpha=0.55, ec="#555555", lw=0.6,
                                zorder=3))
            ax.plot([h.x], [h.y], ls="none", marker=HORDE_MARKER, ms=3 if small else 5, mfc="#555555", mec="white",
                    mew=0.5, zorder=5, gid=f"horde:{h.horde}")
        for m in scene.units:
            colour, warlord = TP.player_colour(m.player), self.names.hq[m.unit]
            if self.names.is_vehicle(m.unit):  # a Walker: its own marker, a dark ring
                ax.add_patch(Circle((m.x, m.y), m.radius, fc=colour, ec=VEHICLE_EDGE, alpha=0.5, lw=1.6, zorder=3.5))
                ax.plot([m.x], [m.y], ls="none", marker=VEHICLE_MARKER, ms=8 * (0.6 if small else 1), mfc=colour,
                        mec=VEHICLE_EDGE, mew=0.9, zorder=5, gid=f"vehicle:{m.unit}")
                continue
            ax.add_patch(Circle((m.x, m.y), m.radius, fc=colour, ec=colour, alpha=0.4, lw=1.2, zorder=3.5))
            ax.plot([m.x], [m.y], ls="none", marker=WARLORD_MARKER if warlord else UNIT_MARKER,
                    ms=(11 if warlord else 6) * (0.6 if small else 1), mfc=colour, mec="black" if warlord else "white",
                    mew=0.6, zorder=5, gid=f"unit:{m.unit}")
        for k, loss in enumerate(scene.losses):
            ax.plot([loss.x], [loss.y], ls="none", marker=LOSS_MARKER, ms=6 if small else 11,
                    mfc=TP.LOSS_COLOUR if loss.kind == "unit" else "#555555", mec="white", mew=0.8, zorder=6,
                    gid=f"loss:{loss.kind}:{loss.index}:{k}")
        if not small:
            ax.text(c, c - r - 0.3, "extraction zone", ha="center", va="top", fontsize=7, color="darkgreen", zorder=2)
            self._labels(ax, scene)
            TP.inch_rulers(ax, side, side, bar=12.0 if side >= 36 else 6.0,
                           note="inches from the bottom-left corner; ticks every inch")

    def _end_radius(self, scene: Scene, move: Move) -> float:
        end = move.points[-1]
        marks = scene.units if move.kind == "unit" else scene.hordes
        for m in marks:
            if getattr(m, move.kind) == move.index and math.dist((m.x, m.y), end) < 1e-3:
                return m.radius
        return 0.6

    def _labels(self, ax, scene: Scene) -> None:
        labels = TP.Labels(ax)
        for m in (*scene.units, *scene.hordes):
            labels.block(m.x - 0.7, m.y - 0.7, m.x + 0.7, m.y + 0.7)
        for loss in scene.losses:
            labels.block(loss.x - 0.8, loss.y - 0.8, loss.x + 0.8, loss.y + 0.8)
        for x, y in TP.along([m.points for m in scene.moves]):
            labels.block(x - 0.3, y - 0.3, x + 0.3, y + 0.3)
        for m in scene.units:
            labels.put(m.x, m.y, m.radius + 0.3, unit_label(self.names, m), 6.5,
                       gid=f"label:unit:{m.unit}", color="black",
                       bbox=dict(boxstyle="round,pad=0.12", fc="white", ec=TP.player_colour(m.player), lw=0.6,
                                 alpha=0.85))
        for h in scene.hordes:
            labels.put(h.x, h.y, h.radius + 0.3, f"{Names.horde(h.horde)} ({h.models})", 6.5,
                       gid=f"label:horde:{h.horde}", color="#333333",
                       bbox=dict(boxstyle="round,pad=0.1", fc="white", ec="none", alpha=0.7))
        for k, loss in enumerate(scene.losses):
            wrecked = loss.kind == "unit" and self.names.is_vehicle(loss.index)
            text = (f"{self.names.unit(loss.index)} {'wrecked' if wrecked else 'lost'}" if loss.kind == "unit"
                    else f"{Names.horde(loss.index)} gone")
            labels.put(loss.x, loss.y, 1.0, text, 6.5, below_first=True, style="italic",
                       color=TP.LOSS_COLOUR if loss.kind == "unit" else "#555555", gid=f"loss_label:{k}",
                       bbox=dict(boxstyle="round,pad=0.1", fc="white", ec="none", alpha=0.8))

    def title(self, scene: Scene, last: bool) -> str:
        return f"Game turn {scene.turn} of {self.n_turns} ({'the game ends' if last else 'end of the turn'})"

    def legend(self, scene: Scene) -> list:
        cfg = self.config
        handles = [TP.marker_handle(UNIT_MARKER, TP.player_colour(p), f"{player.name} (unit; models alive)")
                   for p, player in enumerate(cfg.players)]
        if any(self.names.is_vehicle(m.unit) for m in scene.units) or any(
                loss.kind == "unit" and self.names.is_vehicle(loss.index) for loss in scene.losses):
            what = "a vehicle (Hull Points left; models aboard)" if self.transports else "a walker (Hull Points left)"
            handles.append(TP.marker_handle(VEHICLE_MARKER, "#777777", what, ms=8, mec=VEHICLE_EDGE))
        handles += [TP.marker_handle(WARLORD_MARKER, "#777777", "a Warlord's unit", ms=11, mec="black"),
                    TP.marker_handle(HORDE_MARKER, TP.ZOMBIE_COLOUR, "horde N (zombie models)"),
                    Patch(fc=ZONE_COLOUR, alpha=0.4,
                          label=f"extraction zone ({cfg.zone_shape}, {cfg.zone_radius_in:g}\")"),
                    Patch(fc=SPAWNER_COLOUR, alpha=0.6, label=f"spawn point N, its {cfg.aura_in:g}\" aura dotted")]
        if self.ruins:
            handles.append(Patch(fc=TP.TERRAIN_COLOUR, alpha=0.6, ec="#7a6a45", label="ruin (difficult, cover)"))
        wrecked = "vehicle" if self.transports else "walker"
        handles += [TP.move_handle(),
                    TP.marker_handle(LOSS_MARKER, TP.LOSS_COLOUR, f"unit lost ({wrecked} wrecked) this turn", ms=10),
                    TP.marker_handle(LOSS_MARKER, "#555555", "horde gone (destroyed or merged)", ms=10)]
        return handles

    def text(self, scene: Scene, last: bool) -> list[str]:
        return [f"Game turn {scene.turn}:", *scene.happenings, *([self.result_line] if last and self.result_line
                                                                 else [])]

    def sheet_label(self, scene: Scene) -> str:
        return f"turn {scene.turn}"

    def sheet_legend(self) -> list:
        handles = [TP.marker_handle(UNIT_MARKER, TP.player_colour(p), pl.name, ms=7)
                   for p, pl in enumerate(self.config.players)]
        return handles + [TP.marker_handle(HORDE_MARKER, TP.ZOMBIE_COLOUR, "hordes", ms=7),
                          TP.marker_handle(LOSS_MARKER, TP.LOSS_COLOUR, "unit lost", ms=8),
                          Patch(fc=SPAWNER_COLOUR, alpha=0.6, label="spawn points")]


def write_pictures(config: ApocalypseConfig, events: np.ndarray, result, out_dir: Path) -> list[Path]:
    """``turn_NN.png`` per game turn, ``game.gif`` and ``contact_sheet.png`` in ``out_dir``."""
    names = Names(config)
    all_scenes = scenes(config, events, names)
    if not all_scenes:
        return []
    board = Board(config, np.asarray(events), names, result_line(result), all_scenes[-1].turn)
    return TP.write_pictures(board, all_scenes, out_dir, TP.header_of(config, result), keep_last=1)

