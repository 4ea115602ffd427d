"""Files the user gets: written atomically, with the permissions the user's umask gives."""

from __future__ import annotations

import os
import stat

import pandas as pd
import pytest

from experiments.play_summary import write_atomic
from sim.files import atomic_path


@pytest.mark.parametrize("umask", [0o022, 0o002])
def test_results_keep_the_users_umask(tmp_path, umask):
    old = os.umask(umask)
    try:
        write_atomic(pd.DataFrame({"a": [1, 2]}), tmp_path / "results.csv")
        with atomic_path(tmp_path / "plain.txt") as tmp:
            tmp.write_text("x")
    finally:
        os.umask(old)
    for name in ("results.csv", "plain.txt"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o666 & ~umask  # not mkstemp's 0600


def test_a_failed_write_leaves_nothing(tmp_path):
    with pytest.raises(RuntimeError), atomic_path(tmp_path / "x.csv") as tmp:
        tmp.write_text("half")
        raise RuntimeError("interrupted")
    assert list(tmp_path.iterdir()) == []
