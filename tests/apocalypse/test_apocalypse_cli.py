"""Zombie Apocalypse through the shared command line: a broken army stops `shamble play` with one
line naming the rule (issue 14's "Done when"); the four-player example plays."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from experiments.cli import app

FOUR = Path(__file__).resolve().parents[2] / "examples" / "apocalypse" / "configs" / "four_players.toml"

ARMY = '''name = "Two captains"
faction = "Space Marines"
[[units]]
unit = "Captain"
[[units]]
unit = "Captain"
[[units]]
unit = "Tactical Marine"
models = 5
'''
RHINO = '''name = "A Rhino"
faction = "Space Marines"
[[units]]
unit = "Captain"
[[units]]
unit = "Rhino"
'''


def _config(tmp_path, army_text: str):
    (tmp_path / "army.toml").write_text(army_text)
    path = tmp_path / "config.toml"
    path.write_text('ruleset = "apocalypse"\n[[players]]\nname = "A"\narmy = "army.toml"\n')
    return str(path)


def _one_line_error(tmp_path, army_text: str) -> str:
    result = CliRunner().invoke(app, ["play", _config(tmp_path, army_text), "--games", "2"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    return lines[0]


def test_play_refuses_two_hqs_in_one_line_naming_the_rule(tmp_path):
    line = _one_line_error(tmp_path, ARMY)
    assert line.startswith("error: ") and "§2 Force Organisation: 2 HQ choices; allowed: exactly 1" in line


def test_play_refuses_a_vehicle_in_one_line_naming_the_rule(tmp_path):
    line = _one_line_error(tmp_path, RHINO)
    assert "§2 Dedicated Transport: 'Rhino' follows no infantry squad" in line


def test_play_runs_the_four_player_example():
    result = CliRunner().invoke(app, ["play", str(FOUR), "--games", "20", "--json"])
    assert result.exit_code == 0, result.output
    assert '"ruleset": "apocalypse"' in result.output and '"games": 20' in result.output
