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
