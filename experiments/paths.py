"""Where the checkout's folders are, whatever the working directory: the notebooks and scripts
find ``examples/`` from here, not from where they were started (an editable install, ``pip
install -e .``, keeps the package in the checkout)."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"


def example(relative: str) -> Path:
    """A file under the checkout's ``examples/`` (e.g. ``"configs/two_players.toml"``), or a
    clear error when the package was installed without its checkout."""
    path = EXAMPLES / relative
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such example; the examples come with a checkout of the repository "
                                "(install it with `pip install -e .` from the checkout)")
    return path


def notebook_out() -> Path:
    """The notebooks' sweep folders: ``$SHAMBLE_NB_OUT``, or ``notebooks/out`` of the checkout (git-ignored)."""
    return Path(os.environ.get("SHAMBLE_NB_OUT", REPO / "notebooks" / "out"))
