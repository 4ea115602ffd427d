"""The shared command line on Out West configs: `shamble play`, `trace`, `sweep`, `params`,
`policies` and `shamble outwest odds` end to end, at tiny sizes."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from experiments.cli import app

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "outwest"
RUNNER = CliRunner()


def test_play_reports_each_character_and_the_end_reasons():
    result = RUNNER.invoke(app, ["play", str(EXAMPLES / "hold.toml"), "--games", "200", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output[result.output.index("{"):])
    assert data["ruleset"] == "outwest" and [p["name"] for p in data["players"]][0] == "Legend"
    assert set(data["reasons"]) <= {"held", "overrun"} and sum(data["reasons"].values()) == 200
    assert all(0 <= p["rate"] <= 1 and "zombies_destroyed_per_game" in p for p in data["players"])


def test_play_with_a_mod_and_trace_with_pictures(tmp_path):
    result = RUNNER.invoke(app, ["play", str(EXAMPLES / "escape.toml"), "--games", "50", "--mod", "zombie_plague"])
    assert result.exit_code == 0, result.output
    result = RUNNER.invoke(app, ["trace", str(EXAMPLES / "cleanup.toml"), "--game", "2", "--png", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "Marshal Kane" in result.output and "== turn 1" in result.output
    assert all((tmp_path / name).exists() for name in ("turn_01.png", "game.gif", "contact_sheet.png"))
    assert "wrote " in result.output and "== outwest " in result.output  # the line naming what was played first


def test_sweep_of_an_example_experiment(tmp_path):
    result = RUNNER.invoke(app, ["sweep", str(EXAMPLES / "shotguns_vs_rifles.toml"), "--games", "20", "--out",
                                 str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "results.parquet").exists()


def test_params_policies_and_odds():
    result = RUNNER.invoke(app, ["params", "--ruleset", "outwest", "--json"])
    assert result.exit_code == 0 and "band_point_blank_in" in result.output
    result = RUNNER.invoke(app, ["policies", "--ruleset", "outwest"])
    assert result.exit_code == 0 and "reload_safe_in" in result.output and "rescue_seek_in" in result.output
    result = RUNNER.invoke(app, ["outwest", "odds"])
    assert result.exit_code == 0 and "zombie knocked over" in result.output
