"""`shamble notebooks`: run the checkout's notebooks end to end into a copy (issue 29, item 6).

Each notebook of ``notebooks/`` is read, executed with nbclient (a fresh Python kernel; its
working folder is the output folder) and written to ``<out>/<name>.ipynb`` with its outputs; the
tracked notebooks are never rewritten (an ``--out`` that is the notebooks folder itself is
refused). The notebooks read ``SHAMBLE_NB_GAMES`` (games per cell; their own default 2000) and
``SHAMBLE_NB_OUT`` (their sweep folders: ``<out>/data``), which this sets for the kernel.
nbclient and ipykernel come with the ``notebooks`` (and ``test``) extras; without them the command
stops with one line saying how to install them.
"""

from __future__ import annotations

import importlib.util
import os
import time
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

from experiments.paths import REPO

NOTEBOOKS = REPO / "notebooks"
NEEDED = ("nbclient", "nbformat", "ipykernel")
INSTALL = 'pip install -e ".[notebooks]"'


class NotebookError(ValueError):
    """A notebook that cannot be run (a missing dependency, a bad --out or --only): one line."""


def check_dependencies() -> None:
    missing = [name for name in NEEDED if importlib.util.find_spec(name) is None]
    if missing:
        raise NotebookError(f"shamble notebooks needs {', '.join(missing)}; install the notebook extra: {INSTALL}")


def chosen(only: list[str] | None = None) -> list[Path]:
    """The notebooks to run: all, or those whose name starts with one of ``only`` ('01', '02_t_virus')."""
    found = sorted(NOTEBOOKS.glob("*.ipynb"))
    if not only:
        return found
    picked = [p for p in found if any(p.stem.startswith(o.removesuffix(".ipynb")) for o in only)]
    if not picked:
        raise NotebookError(f"--only {' '.join(only)}; allowed: {', '.join(p.stem for p in found)} (or a prefix)")
    return picked


def output_folder(out: Path) -> Path:
    if out.resolve() == NOTEBOOKS.resolve():
        raise NotebookError(f"--out {out}: the tracked notebooks' own folder; allowed: any other folder "
                            "(the default notebooks/out is git-ignored)")
    out.mkdir(parents=True, exist_ok=True)
    return out


@contextmanager
def _environment(values: dict[str, str]):
    """Environment variables for the kernel (it inherits this process's environment)."""
    old = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def run_notebook(path: Path, out: Path, games: int | None = None, timeout: int = 1800) -> tuple[Path, str | None]:
    """Execute one notebook into ``out``; returns the written copy and the error of the cell that
    failed (None when every cell ran)."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    nb = nbformat.read(path, as_version=4)
    env = {"SHAMBLE_NB_OUT": str((out / "data").resolve())} | ({"SHAMBLE_NB_GAMES": str(games)} if games else {})
    error = None
    with _environment(env):
        try:
            NotebookClient(nb, timeout=timeout, kernel_name="python3",
                           resources={"metadata": {"path": str(out.resolve())}}).execute()
        except CellExecutionError as err:
            error = str(err).strip().splitlines()[-1] if str(err).strip() else type(err).__name__
    copy = out / path.name
    nbformat.write(nb, copy)
    return copy, error


def run_notebooks(out: Path, games: int | None = None, only: list[str] | None = None,
                  say: Callable[[str], None] = print) -> list[tuple[Path, str | None]]:
    """Run the chosen notebooks into ``out`` (a line each as it finishes); returns (copy, error)."""
    check_dependencies()
    if games is not None and games < 1:
        raise NotebookError(f"--games {games}; allowed: an integer of at least 1")
    paths = chosen(only)
    out = output_folder(out)
    done = []
    for path in paths:
        start = time.perf_counter()
        copy, error = run_notebook(path, out, games)
        took = time.perf_counter() - start
        say(f"{path.name}: {'FAILED: ' + error if error else 'ran'} in {took:.0f} s -> {copy}")
        done.append((copy, error))
    return done
