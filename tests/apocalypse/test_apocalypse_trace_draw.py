"""Zombie Apocalypse's trace pictures (``sim.rulesets.apocalypse.trace_draw``): the scenes read from
the trace events (expectations from the events themselves, never from a sim outcome), and the
files ``shamble trace --png`` writes."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
from apocalypse_helpers import EXAMPLES, config
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image

from experiments.trace import trace
from kernels.apocalypse import columns as C
from kernels.w40k import vehicles as VD
from sim import trace_pictures as TP
from sim.play import trace_game
from sim.rulesets.apocalypse import trace_draw as TD
from sim.rulesets.apocalypse.config import load_config
from sim.rulesets.apocalypse.trace import Names, narrative


@pytest.fixture(scope="module")
def game():
    cfg = replace(config("two_players"), game_turns=3)
    events, result = trace_game(cfg, 2, 0)
    return cfg, events, result


def _ev(turn, phase, kind, a=0, b=0, c=0, x=0.0, y=0.0):
    row = np.zeros(C.N_EV, np.float32)
    row[[C.EV_TURN, C.EV_PHASE, C.EV_KIND, C.EV_A, C.EV_B, C.EV_C, C.EV_X, C.EV_Y]] = turn, phase, kind, a, b, c, x, y
    return row


def test_a_scene_per_game_turn_holds_the_snapshot_the_kernels_logged(game):
    cfg, events, _ = game
    scenes = TD.scenes(cfg, events)
    snaps = events[events[:, C.EV_KIND] == C.EK_SNAP_UNIT]
    assert [s.turn for s in scenes] == sorted(set(events[events[:, C.EV_KIND] == C.EK_SNAP_HORDE][:, C.EV_TURN]
                                                  .astype(int)) | set(snaps[:, C.EV_TURN].astype(int)))
    for scene in scenes:
        mine = snaps[snaps[:, C.EV_TURN] == scene.turn]
        assert [(m.unit, m.models, m.player) for m in scene.units] == [
            (int(e[C.EV_A]), int(e[C.EV_B]), int(e[C.EV_C])) for e in mine]
        assert all(math.isclose(m.x, e[C.EV_X], abs_tol=1e-4) and math.isclose(m.y, e[C.EV_Y], abs_tol=1e-4)
                   for m, e in zip(scene.units, mine))


def test_every_unit_move_runs_from_where_it_stood_to_where_it_stands(game):
    cfg, events, _ = game
    scenes = TD.scenes(cfg, events)
    deployed = {int(e[C.EV_A]): (float(e[C.EV_X]), float(e[C.EV_Y])) for e in events
                if int(e[C.EV_KIND]) == C.EK_UNIT}
    before = deployed
    moved_somewhere = 0
    for scene in scenes:
        now = {m.unit: (m.x, m.y) for m in scene.units}
        lost = {loss.index: (loss.x, loss.y) for loss in scene.losses if loss.kind == "unit"}
        for move in (m for m in scene.moves if m.kind == "unit" and m.index in before):
            assert move.points[0] == pytest.approx(before[move.index], abs=1e-4)
            assert move.points[-1] == pytest.approx({**lost, **now}[move.index], abs=1e-4)
            moved_somewhere += 1
        for u, xy in now.items():  # a unit that stands elsewhere than before has an arrow
            if u in before and math.dist(xy, before[u]) > TD.MOVED_IN:
                assert any(m.kind == "unit" and m.index == u for m in scene.moves), (scene.turn, u)
        before = now
    assert moved_somewhere


def test_a_hand_made_game_gives_its_arrows_losses_and_names():
    cfg = config("two_players")
    names = Names(cfg)
    events = np.array([
        _ev(0, C.PH_SETUP, C.EK_UNIT, 0, 0, 0, 10.0, 10.0),
        _ev(0, C.PH_SETUP, C.EK_SPAWN, 1, 8, 0, 30.0, 30.0),
        _ev(1, C.PH_MOVEMENT, C.EK_MOVE, 0, 0, 0, 12.0, 14.0),
        _ev(1, C.PH_Z_MOVEMENT, C.EK_HMOVE, 0, 8, 0, 25.0, 25.0),
        _ev(1, C.PH_END, C.EK_SNAP_UNIT, 0, 5, 0, 12.0, 14.0),
        _ev(1, C.PH_END, C.EK_SNAP_HORDE, 0, 8, 0, 25.0, 25.0),
        _ev(2, C.PH_ASSAULT, C.EK_UNIT_LOST, 0, 0, 0, 13.0, 15.0),
        _ev(2, C.PH_END, C.EK_SNAP_HORDE, 0, 8, 0, 14.0, 16.0),
        _ev(3, C.PH_Z_MOVEMENT, C.EK_SPAWN, 1, 6, 0, 40.0, 40.0),  # horde 0's slot holds a new horde
        _ev(3, C.PH_Z_MOVEMENT, C.EK_HMOVE, 0, 6, 0, 38.0, 38.0),
        _ev(3, C.PH_Z_MOVEMENT, C.EK_SPAWN, 2, 4, 1, 5.0, 40.0),  # comes on and merges within the turn
        _ev(3, C.PH_Z_MOVEMENT, C.EK_HMOVE, 1, 4, 0, 6.0, 39.0),
        _ev(3, C.PH_END, C.EK_SNAP_HORDE, 0, 6, 0, 38.0, 38.0),
    ])
    one, two, three = TD.scenes(cfg, events, names)
    assert [(m.kind, m.index, m.points) for m in one.moves] == [
        ("unit", 0, ((10.0, 10.0), (12.0, 14.0))), ("horde", 0, ((30.0, 30.0), (25.0, 25.0)))]
    assert [(m.kind, m.index, m.points[0], m.points[-1]) for m in two.moves] == [
        ("unit", 0, (12.0, 14.0), (13.0, 15.0)), ("horde", 0, (25.0, 25.0), (14.0, 16.0))]
    assert two.losses == (TD.Loss("unit", 0, 13.0, 15.0),) and two.units == ()
    assert three.losses == (TD.Loss("horde", 0, 14.0, 16.0),)  # the slot's old horde is gone, not moved;
    # horde 2 (slot 1) came on and merged this turn: no mark, no arrow
    assert [(m.kind, m.index, m.points) for m in three.moves] == [("horde", 0, ((40.0, 40.0), (38.0, 38.0)))]
    fig = Figure(figsize=(12, 9), dpi=TP.DPI)
    FigureCanvasAgg(fig)
    board = TD.Board(cfg, events, names, "== result ==", 2)
    TP.draw_turn(fig, board, one, False, "apocalypse two_players.toml, game 0, seed 2")
    table = next(ax for ax in fig.axes if ax.get_label() == "table")
    texts = {t.get_gid(): t.get_text() for t in table.texts if t.get_gid()}
    assert texts["label:unit:0"].startswith(names.datasheet[0]) and texts["label:unit:0"].endswith("(5)")
    assert texts["label:horde:0"] == "horde 1 (8)" and texts["scale_bar_label"] == '12"'
    assert {p.get_gid() for p in table.patches} >= {"move:unit:0", "move:horde:0", "zone", "table"}
    assert "game 0, seed 2" in next(t.get_text() for t in fig.texts if t.get_gid() == "header")
    TP.draw_turn(fig, board, two, True)
    table = next(ax for ax in fig.axes if ax.get_label() == "table")
    assert any(t.get_text() == f"{names.unit(0)} lost" for t in table.texts)
    panel = next(ax for ax in fig.axes if ax.get_label() == "panel")
    assert next(t.get_text() for t in panel.texts if t.get_gid() == "happenings").endswith("== result ==")


def test_the_trace_writes_a_png_per_turn_a_gif_and_a_contact_sheet(game, tmp_path):
    cfg, events, result = game
    lines, pictures = trace(cfg, 2, 0, tmp_path, played="apocalypse two_players.toml, game 0, seed 2")
    turns = [s.turn for s in TD.scenes(cfg, events)]
    assert [p.name for p in pictures] == [f"turn_{t:02d}.png" for t in turns] + ["game.gif", "contact_sheet.png"]
    assert all(p.exists() and p.stat().st_size > 1000 for p in pictures)
    with Image.open(tmp_path / "game.gif") as gif:
        assert gif.n_frames == len(turns) == int(result.turns.iloc[0])
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary left
    assert lines[-1].startswith("== result:")
    plural = [p.name for p in cfg.players if p.name.endswith("s")]  # 'Cadians' Guardsman', not 'Cadians's'
    assert plural and any(f"{name}' " in line for line in lines for name in plural)
    assert not any("s's " in line for line in lines)


# ------------------------------------------------------------------ walkers (issue 32)


def test_a_walker_is_drawn_as_a_vehicle_with_its_hull_points_and_its_wreck_marked():
    cfg = load_config(EXAMPLES / "vehicles" / "helbrute.toml")
    names = Names(cfg)
    (u,) = [k for k, n in enumerate(names.hull) if n > 0]
    hp = names.hull[u]
    events = np.array([
        _ev(0, C.PH_SETUP, C.EK_UNIT, u, 0, 1, 10.0, 10.0),
        _ev(1, C.PH_Z_ASSAULT, C.EK_VEHICLE, u, C.VEV_HULL, hp - 1, 1.0),
        _ev(1, C.PH_Z_ASSAULT, C.EK_VEHICLE, u, VD.DMG_CREW_SHAKEN, hp - 1),
        _ev(1, C.PH_END, C.EK_SNAP_UNIT, u, 1, 0, 10.0, 10.0),
        _ev(2, C.PH_ASSAULT, C.EK_VEHICLE, u, VD.DMG_EXPLODES, hp - 1),
        _ev(2, C.PH_ASSAULT, C.EK_VEHICLE, u, C.VEV_HULL, 0, float(hp - 1)),
        _ev(2, C.PH_ASSAULT, C.EK_VEHICLE, u, C.VEV_WRECKED, 0),
        _ev(2, C.PH_ASSAULT, C.EK_UNIT_LOST, u, 0, 0, 10.0, 10.0),
        _ev(2, C.PH_END, C.EK_SNAP_UNIT, 0, 5, 0, 3.0, 3.0),
    ])
    told = "\n".join(narrative(names, events))
    for words in (f"{names.unit(u)} loses 1 Hull Point ({hp - 1}/{hp} HP)", "Crew Shaken", "Explodes!",
                  f"{names.unit(u)} is wrecked", f"loses {hp - 1} Hull Points (0/{hp} HP)"):
        assert words in told, words
    one, two = TD.scenes(cfg, events, names)
    assert [(m.unit, m.hull) for m in one.units] == [(u, hp - 1)]
    assert two.losses == (TD.Loss("unit", u, 10.0, 10.0),)
    fig = Figure(figsize=(12, 9), dpi=TP.DPI)
    FigureCanvasAgg(fig)
    board = TD.Board(cfg, events, names, "", 2)
    TP.draw_turn(fig, board, one, False)
    table = next(ax for ax in fig.axes if ax.get_label() == "table")
    texts = {t.get_gid(): t.get_text() for t in table.texts if t.get_gid()}
    assert texts[f"label:unit:{u}"] == f"{names.datasheet[u]} {hp - 1}/{hp} HP" == f"Helbrute {hp - 1}/{hp} HP"
    (mark,) = [line for line in table.lines if line.get_gid() == f"vehicle:{u}"]
    assert mark.get_marker() == TD.VEHICLE_MARKER != TD.UNIT_MARKER
    walker = "a walker (Hull Points left)"  # the legend names the marker only where a walker plays
    assert walker in [h.get_label() for h in board.legend(one)]
    assert walker not in [h.get_label() for h in TD.Board(config("two_players"), events[:1], Names(
        config("two_players"))).legend(TD.Scene(1, (), (), (), ()))]
    TP.draw_turn(fig, board, two, True)
    table = next(ax for ax in fig.axes if ax.get_label() == "table")
    assert any(t.get_text() == f"{names.unit(u)} wrecked" for t in table.texts)


def test_a_traced_walker_game_logs_every_hull_point_and_its_wreck():
    """The kernels' EK_VEHICLE events add up (no dice of their own: tests/test_ruleset_contract.py
    checks that a traced game plays as the batch does): each Hull Point event leaves the previous
    count minus the points lost, from the datasheet's; a wreck comes at 0 and only then."""
    cfg = load_config(EXAMPLES / "vehicles" / "helbrute.toml")
    names = Names(cfg)
    seen = 0
    for game in range(3):
        events, _ = trace_game(cfg, 1, game)
        left = {u: n for u, n in enumerate(names.hull) if n > 0}
        for e in events[events[:, C.EV_KIND] == C.EK_VEHICLE]:
            u, what, now = int(e[C.EV_A]), int(e[C.EV_B]), int(e[C.EV_C])
            assert u in left
            if what == C.VEV_HULL:
                assert now == left[u] - int(e[C.EV_X]) >= 0
                left[u] = now
                seen += 1
            elif what == C.VEV_WRECKED:
                assert now == left[u] == 0
            else:
                assert now == left[u] > 0  # a damage result on a vehicle still standing
    assert seen > 0  # the walker lost Hull Points in at least one of the games
