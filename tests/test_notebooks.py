"""The notebooks run end to end (nbclient) at a few games per cell, through `shamble notebooks`'
own function, into a copy: the tracked notebooks are never rewritten.

They import the library and define no logic; the first code cell (tagged ``parameters``) reads
``SHAMBLE_NB_GAMES`` and ``SHAMBLE_NB_OUT``, which the command sets. The kernel uses the compiled
game from numba's disk cache (this file runs after tests/test_game_jit.py, which compiles it).
"""

from __future__ import annotations

import nbformat
import pytest
from typer.testing import CliRunner

from experiments import notebooks as nbs
from experiments.cli import app

NOTEBOOKS = sorted(nbs.NOTEBOOKS.glob("*.ipynb"))


@pytest.mark.slow
def test_there_are_at_least_three_notebooks_with_outputs():
    assert len(NOTEBOOKS) >= 3
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        code = [c for c in nb.cells if c.cell_type == "code"]
        assert all(c.get("outputs") for c in code[1:]), f"{path.name} is committed without outputs"
        assert "parameters" in code[0].metadata.get("tags", [])
        assert not any(line.lstrip().startswith(("def ", "class ")) for c in code for line in c.source.splitlines())


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_into_a_copy(path, tmp_path):
    tracked = path.read_bytes()
    # run from a folder that is neither the checkout nor notebooks/: the paths come from experiments.paths
    copy, error = nbs.run_notebook(path, tmp_path, games=40, timeout=600)
    assert error is None
    assert path.read_bytes() == tracked  # the tracked notebook is not rewritten
    nb = nbformat.read(copy, as_version=4)
    assert copy.parent == tmp_path and any(c.get("outputs") for c in nb.cells if c.cell_type == "code")
    assert not [o for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert (tmp_path / "data").is_dir()  # SHAMBLE_NB_OUT: the notebooks' sweeps beside the copies


def test_the_command_refuses_in_one_line(tmp_path, monkeypatch):
    runner = CliRunner()
    own = runner.invoke(app, ["notebooks", "--out", str(nbs.NOTEBOOKS)])
    assert own.exit_code == 2 and "the tracked notebooks' own folder" in own.output
    only = runner.invoke(app, ["notebooks", "--only", "99", "--out", str(tmp_path)])
    assert only.exit_code == 2 and "allowed: 01_quick_start" in only.output
    real = nbs.importlib.util.find_spec
    monkeypatch.setattr(nbs.importlib.util, "find_spec", lambda name: None if name == "ipykernel" else real(name))
    missing = runner.invoke(app, ["notebooks", "--out", str(tmp_path)])
    assert missing.exit_code == 2 and len(missing.output.strip().splitlines()) == 1
    assert missing.output.startswith("error: shamble notebooks needs ipykernel; install the notebook extra: pip")
    assert not any(tmp_path.iterdir())  # refused before anything was written
