"""Reading the user's files: TOML with one-line errors (configs, teams, experiments of every ruleset)."""

from __future__ import annotations

import tomllib
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
