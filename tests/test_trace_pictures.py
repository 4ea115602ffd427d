"""The shared layout of the trace pictures (``sim.trace_pictures``): the header naming what was
played, the panel's text cut to its room, the contact sheet's grid (pure Python; the rulesets'
pictures are tested in their folders)."""

from __future__ import annotations

import pandas as pd

from sim import trace_pictures as TP
from sim.ruleset import get, source_commit


def _result(game: int) -> pd.DataFrame:
    return pd.DataFrame({"game": [game, game], "won": [False, True]})


def test_the_header_is_the_line_shamble_trace_sets_else_what_config_and_result_say():
    config = get("outwest").example_config()
    result = _result(7)
    line = TP.header_of(config, result)
    assert line.startswith("outwest") and "game 7" in line and "shamble " in line and "seed -1" not in line
    if source_commit():
        assert f"(commit {source_commit()})" in line
    result.attrs["played"] = "outwest hold.toml; game 7, seed 3; shamble 0.1.0"
    assert TP.header_of(config, result) == "outwest hold.toml; game 7, seed 3; shamble 0.1.0"


def test_the_panel_keeps_the_result_when_the_turn_is_cut():
    lines = [f"line {k}" for k in range(50)] + ["== result: nobody =="]
    text = TP.panel_text(lines, 10, keep_last=1).split("\n")
    assert len(text) == 10 and text[-1] == "== result: nobody ==" and text[-2].startswith("... 42 more lines")
    assert TP.panel_text(["a " * 60], 10).count("\n") == 1  # a long line wraps (PANEL_CHARS), not cut


def test_the_sheet_grid_holds_every_scene_near_square():
    for n in range(1, 40):
        cols, rows = TP.sheet_grid(n, 1.0)
        assert cols * rows >= n and cols * (rows - 1) < n and abs(cols - rows) <= 2


def test_shamble_trace_s_line_heads_every_picture(tmp_path, monkeypatch):
    """The line `shamble trace` prints first reaches every picture it draws (experiments.trace)."""
    from dataclasses import replace

    from experiments.trace import trace

    config = replace(get("outwest").example_config(), max_turns=2)
    seen = []
    monkeypatch.setattr(TP, "draw_header", lambda fig, header, *a, **k: seen.append(header))
    _, pictures = trace(config, 5, 0, tmp_path, played="outwest hold.toml; game 0, seed 5; shamble x (commit y)")
    assert len(seen) == len(pictures) - 1  # a turn's picture each (the GIF is their frames) and the contact sheet
    assert set(seen) == {"outwest hold.toml; game 0, seed 5; shamble x (commit y)"}


def test_zombie40k_s_pictures_carry_the_header_only_when_given():
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from sim.rulesets.zombie40k import trace_draw as TD

    config = get("zombie40k").example_config()
    scene = TD.Scene(1, (TD.UnitMark(0, 10, 24.0, 30.0, 2.0),), (), (), (), ())
    fig = Figure(figsize=TD.figure_size(config), dpi=TD.DPI)
    FigureCanvasAgg(fig)
    TD.draw_turn(fig, config, scene, 1)
    assert not [t for t in fig.texts if t.get_gid() == "header"]
    TD.draw_turn(fig, config, scene, 1, header="zombie40k x.toml; game 2, seed 3; shamble 0.1.0")
    assert [t.get_text() for t in fig.texts if t.get_gid() == "header"] == ["zombie40k x.toml; game 2, seed 3; "
                                                                           "shamble 0.1.0"]
    sheet = TD.draw_sheet(config, [scene], header="zombie40k x.toml; game 2, seed 3")
    assert [t.get_text() for t in sheet.texts if t.get_gid() == "header"] == ["zombie40k x.toml; game 2, seed 3"]
