"""Dask distributed runs the same cell tasks as the in-process default, with identical results.

A LocalCluster of two spawned worker processes (the multiprocessing method dask.distributed uses
by default; a fork after numba's OpenMP threads could hang, design.md) plays a tiny experiment;
the workers run the kernels as plain Python (``NUMBA_DISABLE_JIT=1`` in their environment), as
does this process (``nojit``), so no compile is needed.
"""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import EXAMPLES

from experiments.experiment import experiment_from_dict
from experiments.sweep import sweep

pytestmark = pytest.mark.slow


def test_local_cluster_equals_in_process(tmp_path, nojit, monkeypatch):
    import dask
    import distributed  # noqa: F401  (loads its config)

    monkeypatch.setenv("NUMBA_DISABLE_JIT", "1")  # inherited by the spawned workers
    exp = experiment_from_dict({"base": str(EXAMPLES / "configs" / "two_players.toml"), "games": 3, "seed": 9,
                                "axes": {"horde_size": [3, 5], "budget": [60, 90]}}, tmp_path)
    here = sweep(exp, tmp_path / "here", show_progress=False)
    assert dask.config.get("distributed.worker.multiprocessing-method") == "spawn"
    there = sweep(exp, tmp_path / "dask", dask="local", show_progress=False)
    pd.testing.assert_frame_equal(there.results, here.results)
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "dask" / "summary.csv"),
                                  pd.read_csv(tmp_path / "here" / "summary.csv"))
    assert there.played == 4


def test_scheduler_address_runs_the_same_tasks(tmp_path, nojit):
    """``--dask ADDRESS``: an existing scheduler (here an in-process cluster of threads, so the
    ``nojit`` kernels of this process are the ones played) gives the in-process results."""
    from distributed import LocalCluster

    exp = experiment_from_dict({"base": str(EXAMPLES / "configs" / "two_players.toml"), "games": 2, "seed": 4,
                                "axes": {"horde_size": [3, 5]}}, tmp_path)
    here = sweep(exp, tmp_path / "here", show_progress=False)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        there = sweep(exp, tmp_path / "there", dask=cluster.scheduler_address, show_progress=False)
    pd.testing.assert_frame_equal(there.results, here.results)
