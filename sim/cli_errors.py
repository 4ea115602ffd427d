"""The command line's contract for bad input, shared by the shared commands and each ruleset's:
one ``error:`` line on stderr naming the file, field or value and what is allowed, exit code 2,
no traceback, and output folders checked (and made) before any work starts."""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from difflib import get_close_matches
from pathlib import Path

import typer

USAGE_ERROR = 2


@contextlib.contextmanager
def user_errors():
    """Bad input -> 'error: ...' on one line of stderr, exit code 2, no traceback."""
    try:
        yield
    except (ValueError, FileNotFoundError) as err:  # UnknownNameError, CatalogueError, ConfigError: ValueErrors
        fail(did_you_mean(str(err) or type(err).__name__))
    except OSError as err:  # a folder that cannot be written, a path through a file
        fail(f"{err.filename}: " * bool(err.filename) + (err.strerror or type(err).__name__))


ALLOWED = re.compile(r"'(?P<value>[^']+)'[^';]*; allowed: (?P<words>[^;()]+)")


def did_you_mean(message: str) -> str:
    """A refused word and the list of allowed ones ("policy = 'huntr'; allowed: dash, advance,
    hunter or a table"): the closest allowed word added as "did you mean 'hunter'?", for every
    ruleset's errors alike. A message that already has a hint, or no close word, is left as it is."""
    found = ALLOWED.search(message)
    if found is None or "did you mean" in message:
        return message
    words = [w.strip().strip("'\"`") for w in re.split(r",\s*|\s+or\s+", found["words"].strip().rstrip("."))]
    words = [w for w in words if w and " " not in w]
    close = get_close_matches(found["value"].lower(), [w.lower() for w in words], n=1, cutoff=0.6)
    if not close or close[0] == found["value"].lower():
        return message
    return f"{message} (did you mean {words[[w.lower() for w in words].index(close[0])]!r}?)"


def fail(message: str, code: int = USAGE_ERROR):
    typer.echo(f"error: {' '.join(message.split())}", err=True)
    raise typer.Exit(code) from None


def writable(option: str, folder: Path, file: Path | None = None) -> None:
    """Refuse an output folder before the work, not after: it must be (or become) a folder that
    takes a file; a missing folder is made, a path through a file is refused."""
    allowed = "allowed: " + ("a file name in a writable folder" if file else "a writable folder")
    if file is not None and file.is_dir():
        raise ValueError(f"{option}: is a folder; {allowed}")
    blocker = next((p for p in (folder, *folder.parents) if p.exists() and not p.is_dir()), None)
    if blocker is not None:
        raise ValueError(f"{option}: {blocker} is a file, not a folder; {allowed}")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".shamble-", suffix=".tmp")
        os.close(fd)
        os.unlink(probe)
    except OSError as err:
        raise ValueError(f"{option}: cannot write in folder {folder} ({err.strerror}); {allowed}") from None
