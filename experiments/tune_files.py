"""tuned.toml: the user's config file with tuned policies written in, playable as it is.

The file is the original config file's table with each tuned seat's policy written in, as a
preset name when the policy is a preset, else a table of the fields that differ from the nearest
preset (``{ preset = "...", field = value, ... }``; every ruleset's ``policy_from`` reads that).
Where it goes depends on how the file names its players, tried in this order, the first one that
reads back as the tuned config wins:

1. a list of ``[[players]]`` tables: each tuned seat gets ``policy`` in its table;
2. every seat tuned to one policy: the top-level ``policy`` (Zombies Out West's posse-wide policy);
3. a player count (``players = 4``, Zombies!!!): one ``[[players]]`` table per seat, with its name
   and policy.

Relative file paths in the original (a team, an army, a town) are rewritten relative to the new
file's folder. The file is checked by reading it back with `sim.ruleset.load_config`: it must give
the tuned config (equal, or compiling to the same tables), else the run stops with one line
(`experiments.tune` checks the layout with the start policy before it searches). The comments of
the original are not kept; a header says what was tuned and the verdict.
"""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path
from typing import Any

from experiments.tune_space import TuneError
from sim.files import atomic_path, read_toml
from sim.ruleset import RulesetError, load_config, ruleset_of


def policy_table(ruleset, policy: Any) -> str | dict:
    """A preset's name, or ``{"preset": nearest preset, changed fields...}``."""
    from dataclasses import fields

    presets = ruleset.policy_presets()
    for name, preset in presets.items():
        if preset == policy:
            return name

    def diff(preset) -> dict:
        return {f.name: getattr(policy, f.name) for f in fields(policy)
                if getattr(policy, f.name) != getattr(preset, f.name)}

    name = min(presets, key=lambda n: len(diff(presets[n])))
    return {"preset": name, **{k: _plain(v) for k, v in diff(presets[name]).items()}}


def _plain(value: Any) -> Any:
    return value.item() if hasattr(value, "item") else value


def write_tuned_toml(source: Path, tuned, policies: dict[int, Any], path: Path, header: str = "") -> Path:
    """Write ``path`` (module docstring): ``policies`` maps seats to their new policy; check it
    reads back as ``tuned``."""
    data = read_toml(source, "config", TuneError)
    path.parent.mkdir(parents=True, exist_ok=True)
    rs = ruleset_of(tuned)
    tables = {k: policy_table(rs, policy) for k, policy in policies.items()}
    data = _rebased(data, Path(source).resolve().parent, path.resolve().parent)
    for placed in _placements(data, tuned, tables):
        text = header + toml_text(placed)
        with atomic_path(path) as tmp:
            tmp.write_text(text)
        if _reads_back(path, tuned):
            return path
    path.unlink(missing_ok=True)
    raise TuneError(f"{source}: cannot write the tuned policies into this config's layout (tuned.toml would not "
                    "read back as the tuned config); see tune.json for the policies")


def _placements(data: dict, tuned, tables: dict[int, Any]):
    rows = data.get("players")
    n = len(tuned.players)
    if isinstance(rows, list) and len(rows) == n and all(isinstance(r, dict) for r in rows):
        yield data | {"players": [r | {"policy": tables[k]} if k in tables else r for k, r in enumerate(rows)]}
    shared = list({json.dumps(t, sort_keys=True): t for t in tables.values()}.values())
    if len(tables) == n and len(shared) == 1:
        yield data | {"policy": shared[0]}
    if isinstance(rows, int):
        rs = ruleset_of(tuned)
        yield data | {"players": [{"name": p.name, "policy": tables.get(k, policy_table(rs, p.policy))}
                                  for k, p in enumerate(tuned.players)]}


def _reads_back(path: Path, tuned) -> bool:
    from experiments.solve import tables_fingerprint

    try:
        loaded = load_config(path)
    except (ValueError, RulesetError):
        return False
    return loaded == tuned or tables_fingerprint(loaded) == tables_fingerprint(tuned)


def _rebased(value: Any, old: Path, new: Path) -> Any:
    """Relative paths to files beside the original, rewritten relative to the new folder."""
    if isinstance(value, dict):
        return {k: _rebased(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [_rebased(v, old, new) for v in value]
    if isinstance(value, str) and value and not Path(value).is_absolute() and (old / value).is_file():
        return os.path.relpath(old / value, new)
    return value


# ---------------------------------------------------------------------------- TOML


_BARE = re.compile(r"[A-Za-z0-9_-]+")


def _key(key: str) -> str:
    return key if _BARE.fullmatch(key) else json.dumps(key)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return ("inf" if value > 0 else "-inf") if math.isinf(value) else "nan" if math.isnan(value) else repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(str(k))} = {_value(v)}" for k, v in value.items()) + " }"
    raise TuneError(f"cannot write {value!r} in TOML")


def _is_tables(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def toml_text(data: dict) -> str:
    """A TOML document of a parsed table: plain keys first, then ``[tables]`` and ``[[arrays of
    tables]]`` (deeper tables inline)."""
    lines = [f"{_key(k)} = {_value(v)}" for k, v in data.items() if not isinstance(v, dict) and not _is_tables(v)]
    for k, v in data.items():
        if isinstance(v, dict):
            lines += ["", f"[{_key(k)}]", *(f"{_key(str(a))} = {_value(b)}" for a, b in v.items())]
    for k, v in data.items():
        if _is_tables(v):
            for row in v:
                lines += ["", f"[[{_key(k)}]]", *(f"{_key(str(a))} = {_value(b)}" for a, b in row.items())]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- tuned play elsewhere


def load_tuned(config, path: str | Path):
    """The tuned config of ``path``, refused (one line) when it is of another ruleset than ``config``."""
    tuned = load_config(path)
    if ruleset_of(tuned).id != ruleset_of(config).id:
        raise TuneError(f"{path}: a {ruleset_of(tuned).id} config; allowed: a tuned.toml of {ruleset_of(config).id}")
    return tuned


def take_policies(config, tuned) -> tuple[Any, set[int]]:
    """``config`` with each player on the policy of ``tuned``'s player of the same name, else of the
    first one fielding the same team or army (`experiments.tune_search.team_of`), else his own;
    and the indices of ``tuned``'s players whose policy some player took."""
    from dataclasses import replace

    from experiments.tune_search import team_of

    by_name = {p.name: k for k, p in enumerate(tuned.players)}
    by_team: dict[str, int] = {}
    for k, p in enumerate(tuned.players):
        by_team.setdefault(team_of(p), k)
    players, used = [], set()
    for p in config.players:
        k = by_name.get(p.name, by_team.get(team_of(p)))
        players.append(p if k is None else replace(p, policy=tuned.players[k].policy))
        used |= {k} - {None}
    return replace(config, players=tuple(players)), used


def with_tuned_policies(config, path: str | Path):
    """``config`` with the policies of a tuned.toml (for ``shamble rebalance --policies``, issue
    28 item 4): each player takes the policy of the tuned file's player of the same name, else of
    the first one fielding the same team or army (`take_policies`), else keeps his own. A file of
    another ruleset, or one that matches no player, is one line."""
    tuned = load_tuned(config, path)
    out, used = take_policies(config, tuned)
    if not used:
        raise TuneError(f"{path}: no player or team of it plays in this config; allowed: a tuned.toml naming "
                        f"{', '.join(p.name for p in config.players)} or their teams")
    return out
