"""Zombies Out West's trace pictures (``sim.rulesets.outwest.trace_draw``): the scenes read from the
trace events (expectations from the events themselves, never from a sim outcome), and the files
``shamble trace --png`` writes."""

from __future__ import annotations

import math

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from outwest_helpers import config
from PIL import Image

from experiments.trace import trace
from kernels.outwest import layout as L
from sim import trace_pictures as TP
from sim.play import trace_game
from sim.rulesets.outwest import trace_draw as TD
from sim.rulesets.outwest.trace import Names


@pytest.fixture(scope="module")
def game():
    cfg = config(max_turns=3)
    events, result = trace_game(cfg, 4, 1)
    return cfg, events, result


def _snapshots(events):
    """Each run of position rows: {figure: (code, x, y)} (a later row of a figure wins)."""
    out, current = [], {}
    for e in [*events, None]:
        if e is not None and int(e[L.EV_KIND]) == L.EK_POS:
            current[int(e[L.EV_FIG])] = (int(e[L.EV_OTHER]), float(e[L.EV_A]), float(e[L.EV_B]))
        elif current:
            out.append(current)
            current = {}
    return out


def _ev(kind, fig=-1, other=-1, a=0.0, b=0.0, c=0.0, turn=1):
    row = np.zeros(8, np.float32)
    row[[L.EV_TURN, L.EV_KIND, L.EV_FIG, L.EV_OTHER, L.EV_A, L.EV_B, L.EV_C]] = turn, kind, fig, other, a, b, c
    return row


def test_a_scene_per_snapshot_after_the_set_up_holds_every_figure_on_the_table(game):
    cfg, events, _ = game
    scenes = TD.scenes(cfg, events)
    shots = _snapshots(events[:np.flatnonzero(events[:, L.EV_KIND] == L.EK_END)[0]])
    assert len(scenes) == len(shots) - 1 >= 1
    for scene, shot in zip(scenes, shots[1:]):
        standing = {f: (x, y) for f, (code, x, y) in shot.items() if code % 10 != L.S_GONE}
        drawn = {m.figure: (m.x, m.y) for m in scene.figures}
        assert drawn.keys() == standing.keys()
        assert all(drawn[f] == pytest.approx(xy, abs=1e-4) for f, xy in standing.items())


def test_every_move_runs_from_the_last_snapshot_to_this_one(game):
    cfg, events, _ = game
    scenes = TD.scenes(cfg, events)
    shots = _snapshots(events)
    arrows = 0
    for scene, before, now in zip(scenes, shots, shots[1:]):
        for move in scene.moves:
            if move.figure in before and before[move.figure][0] % 10 != L.S_GONE:
                assert move.points[0] == pytest.approx(before[move.figure][1:], abs=1e-4)
            if now[move.figure][0] % 10 != L.S_GONE:
                assert move.points[-1] == pytest.approx(now[move.figure][1:], abs=1e-4)
            arrows += 1
        for f, (code, x, y) in now.items():  # a figure standing elsewhere than before has an arrow
            if code % 10 != L.S_GONE and f in before and before[f][0] % 10 != L.S_GONE \
                    and math.dist((x, y), before[f][1:]) > TD.MOVED_IN:
                assert any(m.figure == f for m in scene.moves), (scene.turn, f)
    assert arrows


def test_a_hand_made_turn_gives_its_arrows_the_figures_that_left_and_names():
    cfg = config()
    names = Names(cfg)
    H = cfg.n_humans
    pos = L.K_HUMAN * 10 + L.S_STANDING
    events = np.array([
        _ev(L.EK_POS, 0, pos, 10.0, 10.0), _ev(L.EK_POS, H, L.K_ZOMBIE * 10 + L.S_STANDING, 20.0, 20.0),
        _ev(L.EK_POS, 1, pos, 5.0, 5.0),
        _ev(L.EK_CARD, 0), _ev(L.EK_MOVE, 0, -1, 12.0, 13.0, 3.6), _ev(L.EK_ZMOVE, H, 0, 18.0, 18.0, 2.8),
        _ev(L.EK_DEVOURED, 1, -1, 5.0, 5.0),
        _ev(L.EK_TURN_END, -1, -1, 1.0),
        _ev(L.EK_POS, 0, L.K_HUMAN * 10 + L.S_DOWN, 12.0, 13.0), _ev(L.EK_POS, H, L.K_ZOMBIE * 10 + L.S_STANDING,
                                                                       18.0, 18.0),
        _ev(L.EK_POS, 1, L.K_HUMAN * 10 + L.S_GONE, 5.0, 5.0),
    ])
    (scene,) = TD.scenes(cfg, events, names)
    assert [(m.figure, m.points) for m in scene.moves] == [(0, ((10.0, 10.0), (12.0, 13.0))),
                                                           (H, ((20.0, 20.0), (18.0, 18.0)))]
    assert scene.left == (TD.Left(1, "devoured", 5.0, 5.0),)
    assert [(m.figure, m.state) for m in scene.figures] == [(0, L.S_DOWN), (H, L.S_STANDING)]
    fig = Figure(figsize=(12, 9), dpi=TP.DPI)
    FigureCanvasAgg(fig)
    TP.draw_turn(fig, TD.Board(cfg, events, names, ["== the end =="], 1), scene, True, "outwest, game 1, seed 4",
                 keep_last=1)
    table = next(ax for ax in fig.axes if ax.get_label() == "table")
    texts = {t.get_gid(): t.get_text() for t in table.texts if t.get_gid()}
    assert texts["label:0"] == f"{cfg.players[0].name}, down" and texts[f"label:{H}"] == "z1.1"
    assert texts["left_label:0"] == f"{cfg.players[1].name} devoured" and texts["scale_bar_label"] == '12"'
    assert {p.get_gid() for p in table.patches} >= {"move:0", f"move:{H}", "table"}
    panel = next(ax for ax in fig.axes if ax.get_label() == "panel")
    told = next(t.get_text() for t in panel.texts if t.get_gid() == "happenings")
    assert told.startswith("Turn 1:") and "TORN APART AND DEVOURED" in told and told.endswith("== the end ==")


def test_the_trace_writes_a_png_per_turn_a_gif_and_a_contact_sheet(game, tmp_path):
    cfg, events, result = game
    lines, pictures = trace(cfg, 4, 1, tmp_path, played="outwest, game 1, seed 4")
    turns = [s.turn for s in TD.scenes(cfg, events)]
    assert turns == sorted(set(turns)) and turns[-1] == int(result.turns.iloc[0])
    assert [p.name for p in pictures] == [f"turn_{t:02d}.png" for t in turns] + ["game.gif", "contact_sheet.png"]
    assert all(p.exists() and p.stat().st_size > 1000 for p in pictures)
    with Image.open(tmp_path / "game.gif") as gif:
        assert gif.n_frames == len(turns)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]
    assert lines[0].startswith("Zombies Out West")
