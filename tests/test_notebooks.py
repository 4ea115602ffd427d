"""The notebooks run end to end (nbclient) at a few games per cell.

They import the library and define no logic; the first code cell (tagged ``parameters``) reads
``SHAMBLE_NB_GAMES`` and ``SHAMBLE_NB_OUT``, which this test sets. The kernel uses the compiled
game from numba's disk cache (this file runs after tests/test_game_jit.py, which compiles it).
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))

pytestmark = pytest.mark.slow


def test_there_are_at_least_three_notebooks_with_outputs():
    assert len(NOTEBOOKS) >= 3
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        code = [c for c in nb.cells if c.cell_type == "code"]
        assert all(c.get("outputs") for c in code[1:]), f"{path.name} is committed without outputs"
        assert "parameters" in code[0].metadata.get("tags", [])
        assert not any(line.lstrip().startswith(("def ", "class ")) for c in code for line in c.source.splitlines())


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path, tmp_path, monkeypatch):
    monkeypatch.setenv("SHAMBLE_NB_GAMES", "40")
    monkeypatch.setenv("SHAMBLE_NB_OUT", str(tmp_path))
    nb = nbformat.read(path, as_version=4)
    # started from a folder that is neither the checkout nor notebooks/: the paths come from experiments.paths
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors
