"""`shamble tune` and `shamble optimality` as commands: bad input is one line and exit 2 before
any game is played (the searches themselves are tested in test_tune.py and test_optimality.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HOLD = ROOT / "examples" / "outwest" / "hold.toml"
RUN = [sys.executable, "-c", "from experiments.cli import run; run()"]


@pytest.mark.parametrize(("args", "needle"), [
    (["tune", str(HOLD), "--side", "nobody"], "--side 'nobody'"),
    (["tune", str(HOLD)], "--side NAME or --all-sides"),
    (["tune", str(HOLD), "--side", "posse", "--fields", "no_such_field"], "no_such_field"),
    (["tune", "missing.toml", "--side", "posse"], "missing.toml"),
    (["optimality", str(HOLD), "--games", "10"], "games = 10; allowed: 100 or more"),
    (["optimality", str(HOLD), "--fields", "no_such_field", "--games", "200"], "no_such_field"),
])
def test_bad_input_is_one_line_and_exit_2(args, needle, tmp_path):
    result = subprocess.run([*RUN, *args], capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert result.returncode == 2, result.stderr
    assert needle in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not any(tmp_path.iterdir())  # nothing half-written


def test_both_commands_are_listed_with_their_options():
    listing = subprocess.run([*RUN, "--help"], capture_output=True, text=True, timeout=600).stdout
    assert "tune" in listing and "optimality" in listing
    for command, option in (("tune", "--all-sides"), ("optimality", "--threshold")):
        text = subprocess.run([*RUN, command, "--help"], capture_output=True, text=True, timeout=600,
                              env={"COLUMNS": "200", "PATH": ""}).stdout
        assert option in text
