"""Issue 29 item 23: `sweep` and `sensitivity` have a default --out (git-ignored, as every folder the README's
commands write by default), and `shamble play --patch` warns when the proposal it plays FAILED validation."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from experiments import rebalance_game as rb_game
from experiments import rebalance_patch as rb_patch
from experiments.cli import app
from sim.ruleset import load_config

ROOT = Path(__file__).resolve().parents[1]
TWO = ROOT / "examples" / "configs" / "two_players.toml"
WARNING = "FAILED its validation"


def _proposal(tmp_path: Path, validated: bool | None) -> Path:
    game = rb_game.rebalance_game(load_config(TWO))
    path = tmp_path / f"proposal-{validated}.toml"
    path.write_text(rb_patch.patch_text(game, dict(game.start), rb_game.Settings(), validated, str(TWO)))
    return path


@pytest.mark.parametrize("validated", [False, True, None])
def test_play_patch_warns_only_when_the_proposal_failed(tmp_path, validated):
    result = CliRunner().invoke(app, ["play", str(TWO), "--patch", str(_proposal(tmp_path, validated)), "-n", "2",
                                      "--json"])
    assert result.exit_code == 0, result.output
    assert (WARNING in result.stderr) is (validated is False)
    assert WARNING not in result.stdout  # the JSON on stdout stays parseable


def test_sweep_writes_to_its_default_folder(tmp_path, monkeypatch):
    experiment = ROOT / "examples" / "experiments" / "budget_sweep.toml"
    copy = tmp_path / experiment.name
    copy.write_text(experiment.read_text().replace('"../', f'"{ROOT / "examples"}/'))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["sweep", str(copy), "--games", "2"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "sweeps" / "budget_sweep" / "results.parquet").is_file()


@pytest.mark.parametrize("folder", ["sweeps/x", "sensitivity/x", "rebalance/x", "tune/x", "turns/x.png",
                                    "reports/latest/index.html"])
def test_the_default_output_folders_are_git_ignored(folder):
    ignored = subprocess.run(["git", "check-ignore", "-q", folder], cwd=ROOT, check=False)  # CI runs in a clone
    assert ignored.returncode == 0, f"{folder} is not git-ignored"
