"""What a ruleset's config files accept, as data (issue 29, item 19): each ruleset's
``config_files()`` lists its files (a game config, a player table, an army or team file and its
rows) as `FileKind` records of `Field` rows; ``shamble config-ref`` (experiments.config_ref)
renders them with the policy fields and parameters, and tests/test_config_ref.py checks each
file's fields against what its loader accepts (``probe``: the loader's refusal of an unknown
field names the fields it allows).
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sim.ruleset import get

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@dataclass(frozen=True)
class Field:
    """One field of a config file: its name, type, allowed values, default and meaning."""

    name: str
    type: str
    allowed: str
    default: str
    meaning: str


@dataclass(frozen=True)
class FileKind:
    """A file (or a table of one) a ruleset reads; ``probe(extra)`` loads one with the unknown field
    ``extra`` (the loader refuses it, naming the fields it allows)."""

    title: str
    intro: str
    fields: tuple[Field, ...]
    probe: Callable[[str], object]


def words(names) -> str:
    return ", ".join(str(n) for n in names)


def read_toml(path: Path) -> dict:
    return tomllib.loads(path.read_text())


def heading(ruleset_id: str) -> tuple[Field, ...]:
    """The fields every game config has: ruleset, name, description."""
    return (Field("ruleset", "string", f'"{ruleset_id}"', f'"{ruleset_id}"', "which rules the file is for"),
            Field("name", "string", "any", "-", "the config's title"),
            Field("description", "string", "any", "-", "free text"))


def default_policy(ruleset_id: str, data: dict, base_dir: Path | None = None) -> str:
    """The preset a config that names no policy plays (read by loading it)."""
    rs = get(ruleset_id)
    config = rs.config_from_dict(data, "probe", base_dir)
    policy = config.players[0].policy
    return next((name for name, preset in rs.policy_presets().items() if preset == policy), "custom")


