"""Zombies!!!'s trace pictures (``sim.rulesets.zombies9.trace_draw``): the scenes read from the
trace events (expectations from the events themselves, never from a sim outcome), and the files
``shamble trace --png`` writes."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image

from experiments.trace import trace
from kernels.zombies9 import layout as L
from sim import trace_pictures as TP
from sim.play import trace_game
from sim.rulesets.zombies9 import trace_draw as TD
from sim.rulesets.zombies9.config import default_config


@pytest.fixture(scope="module")
def game():
    cfg = default_config(3, max_rounds=5)
    events, result = trace_game(cfg, 8, 2)
    return cfg, events, result


def _ev(kind, p=-1, a=0, b=0, c=0, d=0, turn=1, rnd=1):
    row = np.zeros(L.N_EV, np.float32)
    columns = [L.EV_TURN, L.EV_ROUND, L.EV_PLAYER, L.EV_KIND, L.EV_A, L.EV_B, L.EV_C, L.EV_D]
    row[columns] = turn, rnd, p, kind, a, b, c, d
    return row


def test_a_scene_per_round_and_the_pawns_end_where_the_kernels_last_saw_them(game):
    cfg, events, _ = game
    scenes = TD.scenes(cfg, events)
    turns = events[events[:, L.EV_KIND] == L.EK_TURN]
    assert [s.turn for s in scenes] == sorted(set(turns[:, L.EV_ROUND].astype(int)))
    snap = {int(e[L.EV_PLAYER]): int(e[L.EV_A]) for e in events if int(e[L.EV_KIND]) == L.EK_SNAP_P}
    assert {p.player: p.square for p in scenes[-1].pawns} == snap
    assert scenes[-1].n_tiles == 1 + int((events[:, L.EV_KIND] == L.EK_TILE).sum())
    snaps = events[events[:, L.EV_KIND] == L.EK_SNAP_Z]
    for scene in scenes:  # every round's zombies and tokens, square by square, as the kernels logged them
        mine = snaps[snaps[:, L.EV_ROUND] == scene.turn]
        assert [(f.square, f.adults + 10 * f.kids + 100 * f.dogs, f.life, f.bullets) for f in scene.figures] == [
            (int(e[L.EV_A]), int(e[L.EV_B]), int(e[L.EV_C]), int(e[L.EV_D])) for e in mine]
    assert all(scene.figures for scene in scenes)  # zombies stand on the map from the first tile on


def test_each_round_ends_with_the_pawns_where_their_next_turns_begin(game):
    cfg, events, _ = game
    scenes = TD.scenes(cfg, events)
    checked = 0
    for scene, after in zip(scenes, scenes[1:]):
        at = {p.player: p.square for p in scene.pawns}
        mine = events[events[:, L.EV_ROUND] == after.turn]
        for p in range(cfg.n_players):
            rows = mine[mine[:, L.EV_PLAYER] == p]
            kinds = rows[:, L.EV_KIND].astype(int)
            if not (kinds == L.EK_TURN).any():
                continue
            k = int(np.flatnonzero(kinds == L.EK_TURN)[0])
            moved_before = np.isin(kinds[:k], (L.EK_MOVE, L.EK_DEATH)).any()  # by another's card
            q = int(rows[k, L.EV_D])
            if q >= 0 and not moved_before:
                assert at.get(p) == q, (scene.turn, p)
                checked += 1
    assert checked


def test_a_hand_made_round_gives_its_tiles_arrows_deaths_and_names():
    cfg = default_config(2)
    events = np.array([
        _ev(L.EK_FIRST, 0, rnd=0),
        _ev(L.EK_TURN, 0, 6, 3, 0, 4), _ev(L.EK_TILE, 0, 1, 4, 3, 0), _ev(L.EK_MOVE, 0, 4, 12, 2, L.G_HELIPAD),
        _ev(L.EK_TURN, 1, 6, 3, 0, 4, turn=2), _ev(L.EK_DEATH, 1, 0, 4, 1, 0, turn=2),
        _ev(L.EK_TURN, 0, 6, 3, 0, 12, turn=3, rnd=2), _ev(L.EK_MOVE, 1, 4, 3, 1, -1, turn=3, rnd=2),
        _ev(L.EK_SNAP_Z, -1, 13, 21, 2, 0, turn=3, rnd=2), _ev(L.EK_SNAP_P, 0, 12, 0, 6, turn=3, rnd=2),
        _ev(L.EK_SNAP_P, 1, 3, 0, 6, turn=3, rnd=2),
    ])
    grid = TD.Grid(cfg, events)
    one, two = TD.scenes(cfg, events, grid)
    assert (one.turn, one.n_tiles, one.new_tiles) == (1, 2, (1,)) and (two.n_tiles, two.new_tiles) == (2, ())
    assert [(s.player, s.start, s.end, s.by) for s in one.steps] == [(0, 4, 12, -1)]
    assert [(s.player, s.start, s.end, s.by) for s in two.steps] == [(1, 4, 3, 0)]  # moved by player 0's card
    assert one.steps[0].points == (grid.centre(4, 0), grid.centre(12, 0))
    assert [d.player for d in one.deaths] == [1] and one.deaths[0].x == grid.centre(4, 1)[0]
    assert {p.player: p.square for p in one.pawns} == {0: 12, 1: 4}
    assert {p.player: p.square for p in two.pawns} == {0: 12, 1: 3}
    assert two.figures == (TD.Figures(13, 1, 2, 0, 2, 0),) and one.figures == ()
    fig = Figure(figsize=(12, 9), dpi=TP.DPI)
    FigureCanvasAgg(fig)
    TP.draw_turn(fig, TD.Board(cfg, grid, "== result ==", 2), two, True, "zombies9, game 0, seed 1", keep_last=1)
    table = next(ax for ax in fig.axes if ax.get_label() == "table")
    texts = {t.get_gid(): t.get_text() for t in table.texts if t.get_gid()}
    assert texts["label:0"] == cfg.players[0].name and texts["scale_bar_label"] == "1 tile = 3 squares"
    assert {p.get_gid() for p in table.patches} >= {"tile:0", "tile:1", "move:1:4:3", "zombie:13:0:0",
                                                    "zombie:13:1:1"}
    panel = next(ax for ax in fig.axes if ax.get_label() == "panel")
    assert next(t.get_text() for t in panel.texts if t.get_gid() == "happenings").startswith("Round 2:")


def test_the_trace_writes_a_png_per_round_a_gif_and_a_contact_sheet(game, tmp_path):
    cfg, events, result = game
    lines, pictures = trace(cfg, 8, 2, tmp_path, played="zombies9, game 2, seed 8")
    rounds = [s.turn for s in TD.scenes(cfg, events)]
    assert rounds[-1] == int(result.turns.iloc[0])
    assert [p.name for p in pictures] == [f"turn_{r:02d}.png" for r in rounds] + ["game.gif", "contact_sheet.png"]
    assert all(p.exists() and p.stat().st_size > 1000 for p in pictures)
    with Image.open(tmp_path / "game.gif") as gif:
        assert gif.n_frames == len(rounds)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]
