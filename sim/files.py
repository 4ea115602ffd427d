"""The user's files: reading TOML with one-line errors (configs, teams, experiments of every ruleset)
and writing results atomically."""

from __future__ import annotations

import contextlib
import os
import tempfile
import tomllib
from collections.abc import Iterator
from pathlib import Path


def read_toml(path: str | Path, kind: str, error: type[ValueError]) -> dict:
    """Parse a TOML file; a missing, unreadable or malformed file raises ``error`` with one line
    naming the file."""
    path = Path(path)
    try:
        return tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise error(f"{path}: no such {kind} file") from None
    except IsADirectoryError:
        raise error(f"{path}: is a folder, not a {kind} file") from None
    except OSError as err:
        raise error(f"{path}: cannot be read ({err.strerror or type(err).__name__})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise error(f"{path}: not valid TOML ({str(err).splitlines()[0]})") from None
    except ValueError:  # a NUL in the name
        raise error(f"{str(path)!r}: not a usable file name; allowed: a path without NUL characters") from None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """A temporary path beside ``path``, renamed onto it when the block succeeds (removed if it
    fails), so a reader never sees half a file. The file gets the permissions a plain ``open``
    would give it (0666 less the user's umask), not the temporary file's owner-only 0600."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        yield Path(tmp)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
