"""`shamble sweep`: checkpoints, resume after Ctrl-C or SIGKILL, refusal of foreign or corrupted
checkpoints and of a changed experiment, sequential sampling. Games run as plain Python
(``plain_python`` in this process, ``NUMBA_DISABLE_JIT=1`` in subprocesses), a few per cell."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from conftest import EXAMPLES, _kernel_modules
from helpers import default_sigint

from experiments.experiment import ExperimentError, load_experiment
from experiments.sweep import CheckpointError, read_checkpoint, sweep

GAMES = 4
EXPERIMENT = f"""
name = "tiny"
base = "{EXAMPLES / 'configs' / 'two_players.toml'}"
games = {GAMES}
seed = 5
[axes]
budget = [60, 75]
horde_size = [3, 4, 5]
"""
SHAMBLE = [sys.executable, "-c", "from experiments.cli import app; app()"]
PLAIN_PYTHON = os.environ | {"NUMBA_DISABLE_JIT": "1", "COLUMNS": "120"}


@pytest.fixture
def exp_file(tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text(EXPERIMENT)
    return path


@pytest.fixture(scope="module")
def plain_python():
    """``plain_python`` for the whole module (whole games as plain Python, in this process)."""
    import numba
    import numpy as np

    import kernels.zombie40k.turn
    from sim.ruleset import get

    with pytest.MonkeyPatch.context() as mp, np.errstate(over="ignore"):
        for module in _kernel_modules():
            for name, obj in list(vars(module).items()):
                if isinstance(obj, numba.core.registry.CPUDispatcher):
                    mp.setattr(module, name, obj.py_func)
        mp.setattr(get("zombie40k"), "play_batch", kernels.zombie40k.turn.play_batch)
        yield


@pytest.fixture(scope="module")
def reference(tmp_path_factory, plain_python):
    """The uninterrupted sweep's tables (once for the module)."""
    folder = tmp_path_factory.mktemp("reference")
    (folder / "tiny.toml").write_text(EXPERIMENT)
    sweep(load_experiment(folder / "tiny.toml"), folder / "out", show_progress=False)
    return pd.read_parquet(folder / "out" / "results.parquet"), pd.read_csv(folder / "out" / "summary.csv")


def _same_tables(out: Path, reference) -> None:
    pd.testing.assert_frame_equal(pd.read_parquet(out / "results.parquet"), reference[0])
    pd.testing.assert_frame_equal(pd.read_csv(out / "summary.csv"), reference[1])


def _cells(out: Path) -> list[Path]:
    return sorted((out / "cells").glob("*.parquet"))


def test_sweep_writes_tidy_tables_and_meta(exp_file, tmp_path, reference, plain_python):
    results, summary = reference
    assert len(results) == 6 * GAMES * 2 and len(summary) == 6 * 2
    assert list(summary.columns[:4]) == ["cell", "axis_budget", "axis_horde_size", "player"]
    assert summary.games.eq(GAMES).all() and (summary.ci_low <= summary.rate).all()
    out = tmp_path / "again"
    result = sweep(load_experiment(exp_file), out, show_progress=False)
    meta = json.loads((out / "meta.json").read_text())
    assert meta["seed"] == 5 and meta["experiment_hash"] == load_experiment(exp_file).fingerprint()
    assert {"numpy", "numba", "pandas", "scipy", "dask"} <= set(meta["versions"]) and meta["finished"]
    assert meta["python"] and meta["platform"] and "git_commit" in meta
    assert result.played == 6 and len(_cells(out)) == 6


def test_rerun_resumes_without_playing(exp_file, tmp_path, reference, plain_python):
    out = tmp_path / "out"
    exp = load_experiment(exp_file)
    sweep(exp, out, show_progress=False)
    _cells(out)[2].unlink()
    (out / "cells" / ".leftover.parquet.x.tmp").write_bytes(b"half a file")  # a write cut by SIGKILL
    again = sweep(exp, out, show_progress=False)
    assert (again.played, again.reused) == (1, 5)
    _same_tables(out, reference)


def test_changed_experiment_is_refused_unless_fresh(exp_file, tmp_path, plain_python):
    out = tmp_path / "out"
    sweep(load_experiment(exp_file), out, show_progress=False)
    changed = load_experiment(exp_file).resized(games=GAMES - 1)
    with pytest.raises(ExperimentError, match="holds results of another experiment.*--fresh"):
        sweep(changed, out, show_progress=False)
    result = sweep(changed, out, fresh=True, show_progress=False)
    assert result.played == 6 and result.summary.games.eq(GAMES - 1).all()


def test_a_folder_played_by_other_rules_is_not_resumed(exp_file, tmp_path, plain_python, monkeypatch):
    """Edited kernels or rule files (another rules_version) give other cell keys, and the folder
    of the old rules is refused with the reason, never resumed as if its games were this version's."""
    import experiments.experiment as E
    import experiments.sweep as S

    out = tmp_path / "out"
    exp = load_experiment(exp_file)
    sweep(exp, out, show_progress=False)
    assert json.loads((out / "meta.json").read_text())["rules_version"] == S.rules_version("zombie40k")
    keys = [c.key for c in exp.cells()]
    for module in (E, S):
        monkeypatch.setattr(module, "rules_version", lambda ruleset_id: "0123456789abcdef")
    exp = load_experiment(exp_file)  # as a new process loads it (an experiment makes its cells once)
    assert all(a != b for a, b in zip(keys, [c.key for c in exp.cells()], strict=True))
    with pytest.raises(ExperimentError, match="played by other rules of zombie40k.*--fresh"):
        sweep(exp, out, show_progress=False)
    assert sweep(exp, out, fresh=True, show_progress=False).played == 6


def test_corrupted_and_foreign_checkpoints_are_refused(exp_file, tmp_path, plain_python):
    out = tmp_path / "out"
    exp = load_experiment(exp_file)
    sweep(exp, out, show_progress=False)
    first, second = _cells(out)[:2]
    saved = first.read_bytes()
    first.write_bytes(saved[: len(saved) // 2])
    with pytest.raises(CheckpointError, match="corrupted checkpoint.*--fresh"):
        sweep(exp, out, show_progress=False)
    shutil.copy(second, first)  # another cell's file under this cell's name
    with pytest.raises(CheckpointError, match="checkpoint of another experiment"):
        sweep(exp, out, show_progress=False)


def test_checkpoint_rows_are_checked(exp_file, tmp_path, plain_python):
    """A file whose rows were edited (the parquet still reads) fails its checksum."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    out = tmp_path / "out"
    exp = load_experiment(exp_file)
    sweep(exp, out, show_progress=False)
    path = _cells(out)[0]
    table = pq.read_table(path)
    edited = table.set_column(table.schema.get_field_index("won"), "won", pa.array([True] * table.num_rows))
    pq.write_table(edited, path)
    stamp = json.loads(table.schema.metadata[b"shamble"])
    with pytest.raises(CheckpointError, match="do not match its checksum"):
        read_checkpoint(path, {k: stamp[k] for k in ("experiment", "cell")})


def test_sequential_sampling_stops_at_the_target_or_the_cap(exp_file, tmp_path, plain_python, monkeypatch):
    import experiments.sweep as sw

    monkeypatch.setattr(sw, "FIRST_BATCH", 4)
    exp = load_experiment(exp_file).resized(games=10, target_halfwidth=0.35)
    result = sweep(exp, tmp_path / "out", show_progress=False)
    per_cell = result.summary.groupby("cell").agg(games=("games", "first"), widest=("halfwidth", "max"))
    assert ((per_cell.widest <= 0.35) | (per_cell.games == 10)).all()
    assert per_cell.games.min() >= 4 and per_cell.games.max() <= 10
    by_cell = result.summary.groupby("cell").games.nunique()
    assert by_cell.eq(1).all()  # every player of a cell has the same games
    # a sequential cell is a prefix of the fixed-size cell's games (same seed, same game indices)
    fixed = sweep(load_experiment(exp_file).resized(games=10), tmp_path / "fixed", show_progress=False).results
    seq = result.results
    cell = seq.cell.iloc[0]
    n = int(seq[seq.cell == cell].game.max()) + 1
    label = seq.axis_budget.iloc[0], seq.axis_horde_size.iloc[0]
    same = fixed[(fixed.axis_budget == label[0]) & (fixed.axis_horde_size == label[1]) & (fixed.game < n)]
    cols = [c for c in seq.columns if c != "cell"]
    pd.testing.assert_frame_equal(seq[seq.cell == cell][cols].reset_index(drop=True), same[cols].reset_index(drop=True))


# ---------------------------------------------------------------------------- interrupted runs


def _start(exp_file: Path, out: Path) -> subprocess.Popen:
    return subprocess.Popen([*SHAMBLE, "sweep", str(exp_file), "--out", str(out)], env=PLAIN_PYTHON,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint)


def _wait_for_cells(proc: subprocess.Popen, out: Path, n: int, timeout: float = 120) -> None:
    """Poll the folder until ``n`` cells are checkpointed (not a timing assertion: a guard)."""
    deadline = time.monotonic() + timeout
    while len(_cells(out)) < n if (out / "cells").exists() else True:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the sweep wrote no checkpoint"
        time.sleep(0.05)


def _finish(exp_file: Path, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*SHAMBLE, "sweep", str(exp_file), "--out", str(out)], env=PLAIN_PYTHON,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_ctrl_c_keeps_finished_cells_and_the_rerun_gives_the_same_table(exp_file, tmp_path, reference):
    for attempt in range(5):  # a run that finishes before the signal lands is tried again, never skipped
        out = tmp_path / f"out{attempt}"
        proc = _start(exp_file, out)
        _wait_for_cells(proc, out, 1)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
        if proc.returncode != 0:
            break
    else:
        pytest.fail("the sweep finished before Ctrl-C arrived, five times")
    assert proc.returncode == 130 and "interrupted: finished cells are kept" in err
    assert "Traceback" not in err and 1 <= len(_cells(out)) < 6
    rerun = _finish(exp_file, out)
    assert rerun.returncode == 0, rerun.stderr
    assert "resumed from checkpoints" in rerun.stdout
    _same_tables(out, reference)


@pytest.mark.slow
@pytest.mark.parametrize("after_cells", [1, 4])
def test_sigkill_loses_only_the_cell_in_flight(exp_file, tmp_path, reference, after_cells):
    out = tmp_path / "out"
    proc = _start(exp_file, out)
    _wait_for_cells(proc, out, after_cells)
    proc.kill()
    proc.communicate(timeout=60)
    assert len(_cells(out)) >= after_cells
    rerun = _finish(exp_file, out)
    assert rerun.returncode == 0, rerun.stderr
    _same_tables(out, reference)


def test_cli_errors_are_one_line(exp_file, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(EXPERIMENT.replace("horde_size = [3, 4, 5]", "hord_size = [3]"))
    run = subprocess.run([*SHAMBLE, "sweep", str(bad), "--out", str(tmp_path / "o")], env=PLAIN_PYTHON,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and run.stderr.count("\n") == 1
    assert run.stderr.startswith(f"error: {bad}: axes: unknown axis 'hord_size' (did you mean 'horde_size'?)")
