"""Interrupted runs at scale (issue 7 part 2): one sweep killed again and again at random points.

A 24-cell experiment is started in a subprocess (games as plain Python, so cells take about a
second and a kill can land anywhere: during start-up, in a cell, between cells, while a
checkpoint or the final tables are written). Each run is killed after a delay drawn from a
seeded generator, alternately with SIGKILL and SIGINT (Ctrl-C), at least ``KILLS`` times; then
the same command finishes the sweep. After every kill no finished cell may be lost and every
checkpoint left behind must be whole; at the end the tables must equal an uninterrupted run's,
with no cell missing or duplicated.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import EXAMPLES
from helpers import default_sigint

from experiments.experiment import load_experiment
from experiments.sweep import _stamp, read_checkpoint

pytestmark = pytest.mark.slow

KILLS = 10
GAMES = 2
EXPERIMENT = f"""
name = "kill_points"
base = "{EXAMPLES / 'configs' / 'two_players.toml'}"
games = {GAMES}
seed = 11
[axes]
budget = [60, 75]
horde_size = [3, 4, 5]
hordes_per_player = [1, 2]
mods = [[], ["t_virus"]]
"""
N_CELLS = 24
SHAMBLE = [sys.executable, "-c", "from experiments.cli import run; run()"]
PLAIN_PYTHON = os.environ | {"NUMBA_DISABLE_JIT": "1", "COLUMNS": "120"}


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The uninterrupted sweep's tables, played in a subprocess the same way."""
    folder = tmp_path_factory.mktemp("reference")
    (folder / "exp.toml").write_text(EXPERIMENT)
    done = subprocess.run([*SHAMBLE, "sweep", str(folder / "exp.toml"), "--out", str(folder / "out")],
                          env=PLAIN_PYTHON, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return pd.read_parquet(folder / "out" / "results.parquet"), pd.read_csv(folder / "out" / "summary.csv")


def _checkpoints(out: Path) -> list[Path]:
    return sorted((out / "cells").glob("*.parquet")) if (out / "cells").exists() else []


def _whole(out: Path, exp_file: Path) -> set[str]:
    """Keys of the checkpoints left behind, each read back and verified (stamp and checksum)."""
    exp = load_experiment(exp_file)
    cells = {cell.key: cell for cell in exp.cells()}
    for path in _checkpoints(out):
        assert path.stem in cells, f"a checkpoint of no cell: {path.name}"
        read_checkpoint(path, _stamp(exp.fingerprint(), cells[path.stem], exp))
    return {path.stem for path in _checkpoints(out)}


def test_killed_at_random_points_then_resumed_gives_the_same_table(tmp_path, reference):
    exp_file = tmp_path / "exp.toml"
    exp_file.write_text(EXPERIMENT)
    out = tmp_path / "out"
    rng = np.random.default_rng(20261129)
    kills, done_before = 0, set()
    while kills < KILLS:
        proc = subprocess.Popen([*SHAMBLE, "sweep", str(exp_file), "--out", str(out)], env=PLAIN_PYTHON,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint)
        killed_by = None
        try:
            proc.wait(timeout=float(rng.uniform(1.0, 6.0)))
        except subprocess.TimeoutExpired:
            killed_by = signal.SIGKILL if kills % 2 == 0 else signal.SIGINT
            proc.send_signal(killed_by)
            kills += 1
        _, err = proc.communicate(timeout=120)
        if killed_by is None:
            assert proc.returncode == 0, err
        done_now = _whole(out, exp_file)
        if killed_by is not None:  # Ctrl-C: exit 130 (or, during start-up, Python's own KeyboardInterrupt); SIGKILL: -9
            allowed = (130, -signal.SIGINT) if killed_by == signal.SIGINT else (-signal.SIGKILL,)
            too_late = proc.returncode == 0 and len(done_now) == N_CELLS  # the signal met a sweep that had finished
            assert proc.returncode in allowed or too_late or _interrupted_import(killed_by, proc.returncode, err), err
        assert done_before <= done_now, "a finished cell was lost"
        done_before = done_now
        if proc.returncode == 0:  # it finished before the kill: start over to keep killing
            assert len(done_now) == N_CELLS
            for path in _checkpoints(out):
                path.unlink()
            (out / "results.parquet").unlink(missing_ok=True)
            done_before = set()
    final = subprocess.run([*SHAMBLE, "sweep", str(exp_file), "--out", str(out)], env=PLAIN_PYTHON,
                           capture_output=True, text=True, timeout=600)
    assert final.returncode == 0, final.stderr
    results = pd.read_parquet(out / "results.parquet")
    assert not results.duplicated(["cell", "game", "player"]).any()
    assert results.groupby("cell").game.nunique().eq(GAMES).all() and results.cell.nunique() == N_CELLS
    pd.testing.assert_frame_equal(results, reference[0])
    pd.testing.assert_frame_equal(pd.read_csv(out / "summary.csv"), reference[1])


def _interrupted_import(killed_by, returncode: int, err: str) -> bool:
    """A Ctrl-C that met the start-up inside a compiled module's import (on a loaded machine the
    imports take seconds): the extension turns the KeyboardInterrupt into its ImportError
    ("initialization failed", exit 1) before any of Shamble's code runs, so nothing was written."""
    return (killed_by == signal.SIGINT and returncode == 1 and "KeyboardInterrupt" in err
            and "ImportError" in err and "experiments/cli.py" in err.replace("\\", "/"))


def test_the_experiment_has_the_cells_it_says(tmp_path):
    (tmp_path / "exp.toml").write_text(EXPERIMENT)
    assert len(load_experiment(tmp_path / "exp.toml").cells()) == N_CELLS

