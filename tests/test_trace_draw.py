"""Zombie 40,000's trace pictures (issue 20 item 15): the figures of real traced games (plain
Python, in this process) checked artist by artist against the raw events and the narrative's
names: a label per unit on the table with its models, the legend, the Boss's own marker and
colour, an arrow per unit that moved (from where it stood), a cross where each wiped-out unit
fell, the escape on the EV, terrain, rulers; then the files: one PNG per game turn, the GIF (a
frame per game turn), the contact sheet, all written atomically, no pyplot."""

from __future__ import annotations

import math
import os
import subprocess
import sys

import numpy as np
import pytest
from conftest import EXAMPLES, _kernel_modules, example_config
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import LineCollection
from matplotlib.colors import rgb_to_hsv, to_rgb
from matplotlib.figure import Figure
from matplotlib.patches import Circle, FancyArrowPatch
from PIL import Image

from kernels.zombie40k import columns as GL
from sim.rulesets.zombie40k import trace_draw as TD
from sim.rulesets.zombie40k.trace import count, narrative, unit_name

_STARTS = (GL.EK_DEPLOY, GL.EK_RESPAWN, GL.EK_ZOMBIE_ARRIVE)
_WAYPOINTS = (GL.EK_MOVE, GL.EK_RUN, GL.EK_CONSOLIDATE, GL.EK_PUSHBACK)


@pytest.fixture(scope="module")
def plain_python():
    """Whole games as plain Python in this process (no compile)."""
    import numba

    import kernels.zombie40k.turn
    from sim.ruleset import get

    with pytest.MonkeyPatch.context() as mp, np.errstate(over="ignore"):
        for module in _kernel_modules():
            for name, obj in list(vars(module).items()):
                if isinstance(obj, numba.core.registry.CPUDispatcher):
                    mp.setattr(module, name, obj.py_func)
        mp.setattr(get("zombie40k"), "play_batch", kernels.zombie40k.turn.play_batch)
        yield


def _kinds(events):
    return events[:, GL.EV_KIND].astype(int)


def _traced(config, seed, wanted, games=40):
    """The first game of stream ``seed`` whose events have what a test needs (no game hard-coded)."""
    from sim.play import trace_game

    for game in range(games):
        events, result = trace_game(config, seed, game)
        if wanted(config, events):
            return events, result
    raise AssertionError(f"none of {games} games of seed {seed} has what the test needs")


def _eventful(config, events):
    """An escape, a squad wiped out and respawned, hordes wiped out in the players' shooting."""
    kinds, units, phases = _kinds(events), events[:, GL.EV_UNIT], events[:, GL.EV_PHASE]
    wiped = kinds == GL.EK_WIPE
    return ((kinds == GL.EK_EMBARK).any() and (wiped & (units < config.n_players)).any()
            and (kinds == GL.EK_RESPAWN).any() and (wiped & (phases == GL.PH_SHOOTING)).any())


def _with_terrain(config, events):
    pieces = events[_kinds(events) == GL.EK_TERRAIN]
    return (pieces[:, GL.EV_OTHER] == 1).any() and (pieces[:, GL.EV_OTHER] == 0).any()


@pytest.fixture(scope="module")
def game(plain_python):
    config = example_config("two_players")
    return (config, *_traced(config, 3, _eventful))


@pytest.fixture(scope="module")
def terrain_game(plain_python):
    config = example_config("two_players", terrain_density=0.25, terrain_dangerous=0.5)
    return (config, *_traced(config, 3, _with_terrain))


def _figures(config, events):
    """(scene, table axes, figure) of every game turn, as ``write_pictures`` draws them."""
    scenes = TD.scenes(config, events)
    out = []
    for scene in scenes:
        fig = Figure(figsize=TD.figure_size(config), dpi=TD.DPI)
        FigureCanvasAgg(fig)
        TD.draw_turn(fig, config, scene, scenes[-1].turn)
        out.append((scene, _axes(fig, "table"), fig))
    return out


def _axes(fig, label):
    (ax,) = [ax for ax in fig.axes if ax.get_label() == label]
    return ax


@pytest.fixture(scope="module")
def drawn(game):
    return _figures(game[0], game[1])


def _turn(events, turn):
    return events[events[:, GL.EV_TURN] == turn]


def _snapshot(events, turn):
    evs = _turn(events, turn)
    return {int(e[GL.EV_UNIT]): e for e in evs[_kinds(evs) == GL.EK_SNAPSHOT]}


def _by_gid(artists, prefix):
    return [a for a in artists if (a.get_gid() or "").startswith(prefix)]


def _events(*rows):
    """Hand-written events: (turn, phase, kind, unit, other, a, b, c, models, other's models)."""
    out = np.array(rows, np.float32)
    assert out.shape[1] == GL.N_EV
    return out


def test_scenes_read_a_hand_written_game():
    """Guard (unit 0) moves and runs; horde 1 (unit 2) is shot where it stood and returns from the
    right edge; Marines (unit 1) board the EV in turn 1 from where they stood and stay aboard
    (Coop Mode); nothing moves in turn 2."""
    config = example_config("two_players")
    events = _events(
        (0, GL.PH_SETUP, GL.EK_DEPLOY, 0, -1, 10, 3, 0, 10, -1),
        (0, GL.PH_SETUP, GL.EK_DEPLOY, 1, -1, 22, 62, 0, 4, -1),
        (0, GL.PH_SETUP, GL.EK_DEPLOY, 2, -1, 10, 20, 0, 5, -1),
        (1, GL.PH_ROLLOFF, GL.EK_ORDER, 0, 1, 0, 0, 0, 10, 4),
        (1, GL.PH_MOVEMENT, GL.EK_MOVE, 0, -1, 6, 10, 9, 10, -1),
        (1, GL.PH_SHOOTING, GL.EK_RUN, 0, -1, 3, 10, 12, 10, -1),
        (1, GL.PH_SHOOTING, GL.EK_SHOOT, 0, 2, 10, 5, 0, 10, 0),
        (1, GL.PH_SHOOTING, GL.EK_WIPE, 2, 0, 10, 20, 0, 0, 10),
        (1, GL.PH_Z_RESPAWN, GL.EK_ZOMBIE_ARRIVE, 2, 3, 47, 10, 0, 5, -1),
        (1, GL.PH_MOVEMENT, GL.EK_EMBARK, 1, -1, 22, 62, 4, 4, -1),
        (1, GL.PH_END, GL.EK_SNAPSHOT, 0, 10, 10, 12, 3, 10, -1),
        (1, GL.PH_END, GL.EK_SNAPSHOT, 2, 5, 45, 10, 2, 5, -1),
        (2, GL.PH_ROLLOFF, GL.EK_ORDER, 0, 1, 0, 0, 0, 10, 4),
        (2, GL.PH_END, GL.EK_SNAPSHOT, 0, 10, 10, 12, 3, 10, -1),
        (2, GL.PH_END, GL.EK_SNAPSHOT, 2, 5, 45, 10, 2, 5, -1),
    )
    first, second = TD.scenes(config, events)
    slot = TD.escape_slot(config, 0)
    x0, y0, w, d = TD._ev_rect(config)
    assert x0 < slot[0] < x0 + w and y0 < slot[1] < y0 + d
    paths = sorted((m.unit, m.points) for m in first.moves)
    assert paths == [(0, ((10, 3), (10, 9), (10, 12))), (1, ((22, 62), slot)),  # on to its slot on the EV
                     (2, ((47, 10), (45, 10)))]  # no move to where horde 1 was shot: it stood there
    assert first.wipes == (TD.Wipe(2, 0, 10.0, 20.0),) and first.escapes == (TD.Escape(1, 4, 1, *slot),)
    assert [(m.unit, m.models, m.x, m.y) for m in first.units] == [(0, 10, 10, 12), (2, 5, 45, 10)]
    told = narrative(config, events)
    assert first.happenings == tuple(line.strip() for line in told[told.index("== game turn 1 ==") + 1:
                                                                     told.index("== game turn 2 ==")])
    assert "[shooting] horde 1 is wiped out by Guard" in first.happenings
    assert second.moves == () and second.wipes == () and second.escapes == first.escapes
    assert "Marines is aboard the EV since turn 1 (4 models)" in TD._panel_text(config, second, "").splitlines()


def test_the_panel_wraps_the_text_and_cuts_it_with_a_pointer_to_the_rest():
    config = example_config("two_players")
    long = "horde 2 shambles 6.0\" (roll 6) at Guard and reaches it; " * 3
    scene = TD.Scene(4, (), (), (), (), (), tuple(f"[shamble] {k}: {long}" for k in range(30)))
    text = TD._panel_text(config, scene, "result: Guard (escape) after 4 turns", max_lines=20).splitlines()
    assert len(text) == 20 and all(len(row) <= TD.PANEL_CHARS for row in text)
    assert text[0] == "Game turn 4:" and text[1].startswith("[shamble] 0: horde 2")
    assert text[-2].startswith("... ") and "see the text" in text[-2]
    assert text[-1] == "== result: Guard (escape) after 4 turns =="
    whole = TD._panel_text(config, scene, "", max_lines=10**6).splitlines()
    assert len(whole) > 30 and text[:-2] == whole[:18]  # what is shown is the start, wrapped the same
    assert text[-2].split()[1] == str(len(whole) - 18)


def test_there_is_a_picture_for_every_game_turn(game, drawn):
    config, events, _ = game
    turns = sorted(set(events[:, GL.EV_TURN].astype(int)) - {0})
    assert [scene.turn for scene, _, _ in drawn] == turns == list(range(1, len(turns) + 1))


def test_every_unit_on_the_table_is_labelled_as_the_narrative_names_it_with_its_models(game, drawn):
    config, events, _ = game
    told = "\n".join(narrative(config, events))
    for scene, ax, _ in drawn:
        snap = _snapshot(events, scene.turn)
        labels = {t.get_gid(): t.get_text() for t in _by_gid(ax.texts, "label:")}
        assert labels == {f"label:{u}": f"{unit_name(config, u)} ({int(e[GL.EV_OTHER])})" for u, e in snap.items()}
        assert all(unit_name(config, u) in told for u in snap)
    boss = TD.boss_unit(config)
    assert any(f"label:{boss}" in {t.get_gid() for t in ax.texts} for _, ax, _ in drawn)
    assert unit_name(config, boss) == "the Zombie Boss"


def test_the_legend_explains_every_colour_marker_and_area(game, terrain_game, drawn):
    config = game[0]
    _, table, fig = drawn[0]
    legend = _axes(fig, "panel").get_legend()
    texts = [t.get_text() for t in legend.get_texts()]
    handles = dict(zip(texts, legend.legend_handles))
    for p, player in enumerate(config.players):
        (entry,) = [t for t in texts if t.startswith(f"{player.name} (")]
        (dot,) = _by_gid(table.lines, f"unit:{p}")
        assert to_rgb(handles[entry].get_markerfacecolor()) == to_rgb(dot.get_markerfacecolor())
    zone = '18" zone: rivals may shoot and charge a squad in it'
    for wanted in ("horde N", "the Zombie Boss", "Escape Vehicle", zone, "this turn's move", "wiped out this turn",
                   "escaped"):
        assert any(wanted in t for t in texts), (wanted, texts)
    assert not any("terrain" in t for t in texts)  # this table has none
    t_config, t_events, _ = terrain_game
    scene = TD.scenes(t_config, t_events)[0]
    t_texts = [h.get_label() for h in TD.legend_handles(t_config, scene)]
    assert any("ruins" in t for t in t_texts) and "dangerous terrain" in t_texts


def test_the_coop_legend_says_what_the_zone_does_there(game):
    from dataclasses import replace

    coop = replace(game[0], mods=frozenset({"coop"}))
    assert "hordes return on the EV edge" in TD.zone_meaning(coop) and "rivals" not in TD.zone_meaning(coop)


def test_the_boss_has_its_own_marker_and_a_colour_no_player_has(game, drawn):
    config = game[0]
    boss = TD.boss_unit(config)
    marks = {}
    for _, ax, _ in drawn:
        for line in _by_gid(ax.lines, "unit:"):
            marks[int(line.get_gid()[5:])] = (line.get_marker(), to_rgb(line.get_markerfacecolor()))
    assert boss in marks and all(p in marks for p in range(config.n_players))
    for p in range(config.n_players):
        assert marks[p][0] != marks[boss][0]
        assert math.dist(marks[p][1], marks[boss][1]) > 0.5
    assert len(set(TD.PLAYER_COLOURS)) >= 8  # 8 players at most (config)
    for colour in TD.PLAYER_COLOURS:  # any player's, in any game
        assert math.dist(to_rgb(colour), to_rgb(TD.BOSS_COLOUR)) > 0.5
        assert rgb_to_hsv(to_rgb(colour))[1] > 0.4  # a colour, not a grey: the hordes are the only grey
    assert rgb_to_hsv(to_rgb(TD.HORDE_COLOUR))[1] == 0


def test_every_unit_that_moved_has_an_arrow_from_where_it_stood(game, drawn):
    """Where a unit stood (its last snapshot, or where it deployed, respawned or returned this turn)
    to where it stands at this turn's snapshot: an arrow with its tail there and its head at the
    unit's footprint; a unit that stayed put has none."""
    config, events, _ = game
    origin = {int(e[GL.EV_UNIT]): (e[GL.EV_A], e[GL.EV_B]) for e in _turn(events, 0) if e[GL.EV_KIND] in _STARTS}
    checked, still = 0, 0
    for scene, ax, _ in drawn:
        arrows = _by_gid(ax.patches, "move:")
        assert all(isinstance(a, FancyArrowPatch) for a in arrows)
        evs = _turn(events, scene.turn)
        placed = {int(e[GL.EV_UNIT]) for e in evs if e[GL.EV_KIND] in (*_STARTS, *_WAYPOINTS, GL.EK_WIPE)}
        for e in evs:
            kind, u = int(e[GL.EV_KIND]), int(e[GL.EV_UNIT])
            if kind in _STARTS:
                origin[u] = (e[GL.EV_A], e[GL.EV_B])
            elif kind in (GL.EK_WIPE, GL.EK_EMBARK):
                origin.pop(u, None)
            elif kind == GL.EK_SNAPSHOT and u in origin:
                now, radius = (e[GL.EV_A], e[GL.EV_B]), e[GL.EV_C]
                mine = [a.get_path().vertices for a in arrows if a.get_gid() == f"move:{u}"]
                if math.dist(origin[u], now) > 0.1:
                    assert any(min(math.dist(origin[u], v) for v in path) < 0.05  # the tail where it stood
                               and min(math.dist(now, v) for v in path) <= radius + 0.5  # the head at its edge
                               for path in mine), (scene.turn, u)
                    checked += 1
                elif u not in placed:
                    assert not mine, (scene.turn, u)
                    still += 1
                origin[u] = now
    assert checked >= 10 and still >= 0


def test_a_cross_marks_every_wipe_where_the_unit_last_stood(game, drawn):
    config, events, _ = game
    last = {int(e[GL.EV_UNIT]): (e[GL.EV_A], e[GL.EV_B]) for e in _turn(events, 0) if e[GL.EV_KIND] in _STARTS}
    at_last_snapshot = 0
    for scene, ax, _ in drawn:
        evs = _turn(events, scene.turn)
        wipes = evs[_kinds(evs) == GL.EK_WIPE]
        assert len(_by_gid(ax.lines, "wipe:")) == len(wipes)
        placed = set()  # units that moved or came back this turn before the wipe
        for e in evs:
            kind, u = int(e[GL.EV_KIND]), int(e[GL.EV_UNIT])
            if kind != GL.EK_WIPE:
                if kind in _STARTS or kind in _WAYPOINTS:
                    placed.add(u)
                continue
            n = int(np.flatnonzero((wipes == e).all(axis=1))[0])
            (cross,) = _by_gid(ax.lines, f"wipe:{u}:{n}")
            assert cross.get_marker() == TD.WIPE_MARKER
            assert (cross.get_xdata()[0], cross.get_ydata()[0]) == pytest.approx((e[GL.EV_A], e[GL.EV_B]))
            (label,) = _by_gid(ax.texts, f"wipe_label:{u}:{n}")
            killer = int(e[GL.EV_OTHER])
            assert label.get_text() == f"{unit_name(config, u)} wiped out" + (
                f" by {unit_name(config, killer)}" if killer >= 0 else "")
            if e[GL.EV_PHASE] == GL.PH_SHOOTING and u not in placed and u in last:  # shot where it stood
                assert (e[GL.EV_A], e[GL.EV_B]) == pytest.approx(last[u], abs=1e-4)
                at_last_snapshot += 1
            placed.add(u)
        last = {u: (e[GL.EV_A], e[GL.EV_B]) for u, e in _snapshot(events, scene.turn).items()}
    assert at_last_snapshot >= 1


def test_an_escape_is_marked_on_the_escape_vehicle_with_who_embarked(game, drawn):
    config, events, _ = game
    x0, y0, w, d = TD._ev_rect(config)
    embarks = events[_kinds(events) == GL.EK_EMBARK]
    assert len(embarks) >= 1
    for e in embarks:
        u, turn = int(e[GL.EV_UNIT]), int(e[GL.EV_TURN])
        _, ax, _ = drawn[turn - 1]
        (mark,) = _by_gid(ax.lines, f"escape:{u}")
        assert x0 <= mark.get_xdata()[0] <= x0 + w and y0 <= mark.get_ydata()[0] <= y0 + d
        assert mark.get_markerfacecolor() == TD.player_colour(u)
        (label,) = _by_gid(ax.texts, f"escape_label:{u}")
        assert label.get_text() == f"{unit_name(config, u)} escaped ({count(e[GL.EV_C], 'model')})"
        stood = _stood_before(events, u, int(np.flatnonzero((events == e).all(axis=1))[0]))
        (arrow,) = [a.get_path().vertices for a in _by_gid(ax.patches, f"move:{u}")]
        assert min(math.dist(v, stood) for v in arrow) < 0.05  # from where it stood before this turn
        spot = (mark.get_xdata()[0], mark.get_ydata()[0])
        assert min(math.dist(v, spot) for v in arrow) <= TD.ESCAPE_GAP_IN + 0.5  # to its mark on the EV
    for _, ax, _ in drawn[:int(embarks[0, GL.EV_TURN]) - 1]:
        assert not _by_gid(ax.lines, "escape:")


def _stood_before(events, u, k):
    """Where unit u stood at the start of event k's turn: its last snapshot, deployment or arrival."""
    turn, where = events[k, GL.EV_TURN], None
    for e in events[:k]:
        kind = int(e[GL.EV_KIND])
        if int(e[GL.EV_UNIT]) == u and ((kind == GL.EK_SNAPSHOT and e[GL.EV_TURN] < turn) or kind in _STARTS):
            where = (e[GL.EV_A], e[GL.EV_B])
    return where


def test_terrain_is_drawn_as_discs_and_the_dangerous_ones_are_hatched(terrain_game):
    config, events, _ = terrain_game
    (_, ax, _), *_ = _figures(config, events[events[:, GL.EV_TURN] <= 1])
    pieces = events[_kinds(events) == GL.EK_TERRAIN]
    discs = _by_gid(ax.patches, "terrain:")
    assert len(discs) == len(pieces) == config.terrain_pieces
    for disc, e in zip(sorted(discs, key=lambda p: int(p.get_gid()[8:])), pieces):
        assert isinstance(disc, Circle)
        assert disc.center == pytest.approx((e[GL.EV_A], e[GL.EV_B])) and disc.radius == pytest.approx(e[GL.EV_C])
        assert (disc.get_hatch() == "xx") == bool(e[GL.EV_OTHER])


def test_the_table_has_inch_ticks_and_a_scale_bar(game, drawn):
    config = game[0]
    _, ax, _ = drawn[0]
    (ticks,) = _by_gid(ax.collections, "inch_ticks")
    assert isinstance(ticks, LineCollection)
    starts = [tuple(seg[0]) for seg in ticks.get_segments()]
    assert starts == [(x, 0) for x in range(int(config.width) + 1)] + [(0, y) for y in
                                                                      range(int(config.table_length_in) + 1)]
    (bar,) = _by_gid(ax.lines, "scale_bar")
    (bar_label,) = _by_gid(ax.texts, "scale_bar_label")
    length = float(np.ptp(bar.get_xdata()))
    assert bar_label.get_text() == f'{length:g}"' and length == 12  # a 48" table


def test_the_contact_sheet_has_every_turn_small(game):
    config, events, _ = game
    scenes = TD.scenes(config, events)
    sheet = TD.draw_sheet(config, scenes)
    assert [ax.get_label() for ax in sheet.axes] == [f"turn {s.turn}" for s in scenes]
    assert [ax.texts[-1].get_text() for ax in sheet.axes] == [f"turn {s.turn}" for s in scenes]
    assert all(len(_by_gid(ax.lines, "wipe:")) == len(s.wipes) for ax, s in zip(sheet.axes, scenes))


def test_the_files_a_turn_each_the_gif_and_the_sheet_written_atomically(game, tmp_path, monkeypatch):
    config, events, _ = game
    through = []
    real = TD.atomic_path

    def recording(path):
        through.append(path)
        return real(path)

    monkeypatch.setattr(TD, "atomic_path", recording)
    written = TD.write_pictures(config, events, tmp_path)
    n_turns = len(set(events[:, GL.EV_TURN].astype(int)) - {0})
    names = [f"turn_{t:02d}.png" for t in range(1, n_turns + 1)] + ["game.gif", "contact_sheet.png"]
    assert [p.name for p in written] == names
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names)  # no temporary file left
    assert sorted(p.name for p in through) == sorted(names)
    with Image.open(tmp_path / "game.gif") as gif:
        assert gif.format == "GIF" and gif.n_frames == n_turns
    with Image.open(tmp_path / "turn_01.png") as png:
        assert png.format == "PNG" and max(png.size) >= 800
    assert all((os.stat(p).st_mode & 0o777) == 0o666 & ~_umask() for p in written)


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_a_failed_drawing_leaves_no_half_written_file(game, tmp_path, monkeypatch):
    config, events, _ = game
    real, calls = TD.draw_turn, []

    def failing(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise RuntimeError("the disk is full")
        return real(*args, **kwargs)

    monkeypatch.setattr(TD, "draw_turn", failing)
    with pytest.raises(RuntimeError):
        TD.write_pictures(config, events, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["turn_01.png", "turn_02.png"]  # no GIF, no temporary


def test_the_pictures_use_no_pyplot(tmp_path):
    """Figure objects only: pyplot's global state is never imported (a fresh interpreter)."""
    code = (
        "import sys; from pathlib import Path\n"
        "from experiments.trace import trace\n"
        "from sim.rulesets.zombie40k.config import load_config\n"
        f"lines, pictures = trace(load_config({str(EXAMPLES / 'configs' / 'two_players.toml')!r}), 3, 2, "
        f"Path({str(tmp_path)!r}))\n"
        "assert len(pictures) >= 3, pictures\n"
        "assert 'matplotlib.pyplot' not in sys.modules\n"
    )
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr


def test_a_label_is_not_put_over_an_arrow():
    """Guard came down from 10" above: the first spot for its label (above it) lies on its arrow,
    so the label goes where the arrow is not."""
    config = example_config("two_players")
    scene = TD.Scene(1, (TD.UnitMark(0, 10, 24.0, 30.0, 2.0),), (TD.Move(0, ((24.0, 40.0), (24.0, 30.0))),), (), (), ())
    fig = Figure(figsize=TD.figure_size(config), dpi=TD.DPI)
    FigureCanvasAgg(fig)
    TD.draw_turn(fig, config, scene, 1)
    table = _axes(fig, "table")
    (label,) = _by_gid(table.texts, "label:0")
    box = label.get_window_extent(fig.canvas.get_renderer()).transformed(table.transData.inverted())
    on_arrow = [(24.0, 30.0 + k * 0.25) for k in range(9, 41)]  # beyond the footprint, up to the tail
    assert not any(box.x0 <= x <= box.x1 and box.y0 <= y <= box.y1 for x, y in on_arrow), box
