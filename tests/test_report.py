"""`shamble report` end to end at a tiny scale (the compiled game: this file runs after
tests/test_game_jit.py; the report itself is conftest's session fixture ``tiny_report``, which the
docs' report commands resume too), the charts, and the words of the report."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from conftest import REPORT_SCALE

from experiments import charts
from experiments.findings import points
from experiments.report import markdown_table, run_report, suite

pytestmark = pytest.mark.slow
SCALE = REPORT_SCALE  # at least 10 games per cell; the tiny report (conftest.tiny_report) is played at it
SECTIONS = ("standard", "playstyles", "mods", "budget", "powerups", "matchups", "sensitivity")


def test_page_is_one_self_contained_file(tiny_report):
    html = (tiny_report / "index.html").read_text()
    assert html.count("data:image/png;base64,") >= 6
    assert not re.search(r'(src|href)="(?!data:)', html)  # nothing loaded from elsewhere
    for title in ("Verdict", "The standard game: factions and seats", "Ways of playing", "The base game and the mods",
                  "Points budget", "Power-up ablation", "Faction against faction", "Sensitivity of the chosen numbers"):
        assert title in html
    assert "<table" in html and not re.search(r"\bnan\b", (tiny_report / "README.md").read_text(), re.I)


def test_readme_figures_tables_and_data(tiny_report):
    readme = (tiny_report / "README.md").read_text()
    for png in re.findall(r"\]\((\w+\.png)\)", readme):
        assert (tiny_report / png).exists() and (tiny_report / png.replace(".png", ".svg")).exists()
    assert len(re.findall(r"^\*\*.+\*\*$", readme, re.M)) >= 5  # a sentence over every table
    assert len(re.findall(r"^\*[^*].+\*$", readme, re.M)) >= 5  # a sentence under every chart
    for section in SECTIONS:
        data = tiny_report / "data" / "zombie40k" / section
        assert (data / "results.parquet").exists() and (data / "summary.csv").exists()
        assert json.loads((data / "meta.json").read_text())["finished"]
    meta = json.loads((tiny_report / "meta.json").read_text())
    assert meta["scale"] == SCALE and meta["calibration_games_per_s"]["zombie40k"] > 0 and meta["versions"]["numba"]
    assert set(meta["sections"]) >= {f"zombie40k/{k}" for k in SECTIONS}


def test_rerun_resumes_every_section(tiny_report):
    first = (tiny_report / "data" / "zombie40k" / "budget" / "results.parquet").read_bytes()
    stale = [tiny_report / "zombie40k_dropped_chart.png", tiny_report / "zombie40k_dropped_chart.svg",
             tiny_report / "zombie40k_gone_table9.csv"]  # what an older report wrote and this one does not
    for path in stale:
        path.write_bytes(b"old")
    run_report("tiny", tiny_report.parent, scale=SCALE)
    assert not any(path.exists() for path in stale)
    readme = (tiny_report / "README.md").read_text()
    assert all((tiny_report / png).exists() for png in re.findall(r"\]\((\w+\.png)\)", readme))
    meta = json.loads((tiny_report / "meta.json").read_text())
    assert all(s["played_now"] == 0 for s in meta["sections"].values())
    pd.testing.assert_frame_equal(pd.read_parquet(tiny_report / "data" / "zombie40k" / "budget" / "results.parquet"),
                                  pd.read_parquet(__import__("io").BytesIO(first)))


def test_mod_section_compares_every_mod(tiny_report):
    from sim.rulesets.zombie40k.config import MODS, load_config
    from sim.rulesets.zombie40k.report import BASE_CONFIG, playable_mods

    mods, missing = playable_mods(load_config(BASE_CONFIG))
    assert mods == list(MODS) and not missing
    readme = (tiny_report / "README.md").read_text()
    assert "zombie40k_mods_forest.png" in readme and "Not playable" not in readme
    for title in ("T-Virus", "Hardcore Mode", "Dead Men Walking", "Killing Floor", "Coop Mode"):
        assert title in readme


def test_suite_sizes_scale_and_share_one_seed():
    parts = {part.ruleset.id: part for part in suite(scale=0.5)}
    sections = parts["zombie40k"].sections
    assert len({s.experiment.seed for s in sections}) == 1
    assert all(s.experiment.games >= 10 for s in sections)
    assert {s.spec.key for s in sections} == set(SECTIONS)


def test_points_in_words():
    assert points(-0.091, 0.031) == "9 points less often (±3)"
    assert points(0.012, 0.02) == "1 point more often (±2)"
    assert points(0.001, 0.002) == "0.1 points more often (±0.2)"  # a small change is a small number, not "about as"


def test_remove_stale_keeps_what_was_written_and_the_data(tmp_path):
    from experiments.report import remove_stale

    for name in ("a.png", "a.svg", "b.png", "x_table1.csv", "x_table2.csv", "notes.txt", "meta.json"):
        (tmp_path / name).write_text("")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "old.png").write_text("")
    gone = remove_stale(tmp_path, {tmp_path / "a.png", tmp_path / "a.svg", tmp_path / "x_table1.csv"})
    assert sorted(p.name for p in gone) == ["b.png", "x_table2.csv"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.png", "a.svg", "data", "meta.json", "notes.txt",
                                                            "x_table1.csv"]
    assert (tmp_path / "data" / "old.png").exists()


def test_markdown_table():
    text = markdown_table(pd.DataFrame({"a": ["x"], "b": ["1%"]}))
    assert text == "| a | b |\n|---|---|\n| x | 1% |"


def test_charts_write_png_and_svg(tmp_path):
    summary = pd.DataFrame({"budget": [50, 75, 50, 75], "name": ["A", "A", "B", "B"], "rate": [0.2, 0.3, 0.5, 0.6],
                            "ci_low": [0.1, 0.2, 0.4, 0.5], "ci_high": [0.3, 0.4, 0.6, 0.7]})
    figures = {
        "budget": charts.rate_vs_value(summary, "budget", "t", "x"),
        "forest": charts.forest(pd.DataFrame({"label": ["m1", "m1"], "name": ["A", "B"], "diff": [0.1, -0.1],
                                              "ci_low": [0.0, -0.2], "ci_high": [0.2, 0.0],
                                              "flagged": [True, False]}), "t", "x"),
        "length": charts.game_length(pd.DataFrame({"label": ["a"] * 3, "turns": [3, 5, 5]}), "t"),
        "curves": charts.win_curves(pd.DataFrame({"label": ["a", "a"], "turn": [1, 2], "share": [0.1, 0.4]}), "t"),
        "heat": charts.heatmap(pd.DataFrame(np.eye(2), index=["A", "B"], columns=["A", "B"]), "t", "x", "y"),
    }
    for name, fig in figures.items():
        png, svg = charts.save(fig, tmp_path / name)
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and svg.read_text().lstrip().startswith("<?xml")
        assert charts.svg_bytes(fig) == svg.read_bytes()  # the same drawing, the same bytes (salted ids)
        assert "clip-path" in svg.read_text()  # a drawing with ids to salt


def _ticks(fig, axis: str = "x") -> list[float]:
    fig.canvas.draw()
    ax = fig.axes[0]
    lo, hi = ax.get_xlim() if axis == "x" else ax.get_ylim()
    return [t for t in (ax.get_xticks() if axis == "x" else ax.get_yticks()) if lo <= t <= hi]


def test_chart_axes_read_as_labelled():
    """Issue 29 item 15: turns and player counts tick on whole numbers; a forest labelled in points
    ticks in points (+10, not 10%); a matchup square carries its 95% half-width."""
    length = charts.game_length(pd.DataFrame({"label": ["a"] * 3, "turns": [1, 2, 3]}), "t")
    curves = charts.win_curves(pd.DataFrame({"label": ["a", "a"], "turn": [1, 2], "share": [0.1, 0.4]}), "t")
    players = pd.DataFrame({"players": [1, 2, 3], "name": ["A"] * 3, "rate": [0.2, 0.3, 0.4],
                            "ci_low": [0.1, 0.2, 0.3], "ci_high": [0.3, 0.4, 0.5]})
    for fig in (length, curves, charts.rate_vs_value(players, "players", "t", "players")):
        ticks = _ticks(fig)
        assert ticks and all(float(t).is_integer() for t in ticks), ticks
    forest = charts.forest(pd.DataFrame({"label": ["m"], "name": ["A"], "diff": [0.1], "ci_low": [0.05],
                                         "ci_high": [0.15]}), "t", "change (points)")
    forest.canvas.draw()
    words = [t.get_text() for t in forest.axes[0].get_xticklabels() if t.get_text()]
    assert words and not any("%" in w for w in words) and "+10" in words, words
    rates = pd.DataFrame([[0.5, 0.25]], index=["A"], columns=["B", "C"])
    heat = charts.heatmap(rates, "t", "x", "y", pd.DataFrame([[0.031, 0.02]], index=["A"], columns=["B", "C"]))
    assert {t.get_text() for t in heat.axes[0].texts} == {"50%\n±3", "25%\n±2"}


def test_games_in_play_by_turn_where_every_win_comes_on_one_turn():
    """Issue 29 item 15: Apocalypse extracts only at the end of turn 7, so its win-turn curve is one
    step; the share of games still in play varies: 4 games ending on turns 2, 3, 7, 7 leave 3/4 in
    play after turn 2, 1/2 after turn 3 and none after turn 7."""
    from experiments.compare import in_play_curves

    results = pd.DataFrame({"cell": ["a"] * 4, "game": range(4), "turns": [2, 3, 7, 7], "reason": ["dead"] * 2 +
                            ["extracted"] * 2, "won": [False, False, True, True]})
    curve = in_play_curves(results, "cell", 7).set_index("turn").share
    assert curve.to_dict() == {1: 1.0, 2: 0.75, 3: 0.5, 4: 0.5, 5: 0.5, 6: 0.5, 7: 0.0}


def test_a_forest_with_no_comparison_draws_and_says_so(tmp_path):
    """A section whose every comparison was left out (a scenario held in every game) still draws."""
    empty = pd.DataFrame({"label": [], "name": [], "diff": [], "ci_low": [], "ci_high": []})
    fig = charts.forest(empty, "t", "x")
    assert any(t.get_text() == "no comparison to draw" for t in fig.axes[0].texts)
    png, _ = charts.save(fig, tmp_path / "empty")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_report_and_solve_errors(tmp_path):
    run = [sys.executable, "-c", "from experiments.cli import app; app()"]
    bad = subprocess.run([*run, "report", "--scale", "0", "--out", str(tmp_path)], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.startswith("error: --scale 0")
    bad = subprocess.run([*run, "solve", "examples/configs/two_players.toml", "--param", "budget", "--target", "1.5"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "strictly between 0 and 1" in bad.stderr


def test_every_ruleset_ends_with_the_strong_play_section(tiny_report):
    """issue 28 item 3: each ruleset's last section is "Under stronger play", with its three rates
    per side, and the competitive games' seats re-judged in the verdict."""
    readme = (tiny_report / "README.md").read_text()
    meta = json.loads((tiny_report / "meta.json").read_text())
    for part in suite(scale=SCALE):
        assert f"{part.ruleset.id}/strong_play" in meta["sections"]
        assert (tiny_report / f"{part.ruleset.id}_strong_play_table1.csv").exists()
    assert readme.count("### Under stronger play") == len(suite(scale=SCALE))
    for column in ("random-legal", "default", "tuned", "tuned - default (points)", "tune on fresh games"):
        assert column in readme
    assert "Under tuned play (one round of best responses): Seats" in readme
