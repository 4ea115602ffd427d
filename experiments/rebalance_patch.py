"""A rebalance's proposal as a patch file (``proposal.toml``): written, read back and applied to a
config (``shamble play CONFIG --patch proposal.toml``).
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from experiments.rebalance_game import Game, RebalanceError, Settings
from sim.files import atomic_path
from sim.ruleset import pricing_of, ruleset_of

# ---------------------------------------------------------------------------- patches


@dataclass(frozen=True)
class Patch:
    """A proposal read back: the ruleset and mode it prices, and the new values."""

    ruleset: str
    mode: str
    values: dict[str, Fraction]
    old: dict[str, Fraction]
    validated: bool | None = None


def patch_text(game: Game, proposal: Mapping[str, Fraction], settings: Settings, validated: bool | None,
               source: str | None) -> str:
    """proposal.toml: each changed price with its old and new value (exact: "93/5" is 18.6)."""
    word = {True: "passed", False: "FAILED", None: "not validated"}[validated]
    lines = [f"# shamble rebalance proposal for {source or 'a config'} ({game.title}): {word} validation "
             f"within ±{settings.margin * 100:g} points", "# apply it: shamble play CONFIG --patch proposal.toml",
             f'ruleset = "{game.ruleset.id}"', f'mode = "{game.mode}"', f"margin = {settings.margin!r}",
             *([] if validated is None else [f"validated = {'true' if validated else 'false'}"]), ""]
    for p in game.prices:
        if proposal[p.key] != p.value:
            sides = ", ".join(json.dumps(s) for s in p.sides)
            lines += ["[[change]]", f"key = {json.dumps(p.key)}", f'old = "{p.value}"', f'new = "{proposal[p.key]}"',
                      f"what = {json.dumps(p.what)}", f"sides = [{sides}]",
                      f"# {float(p.value):g} -> {float(proposal[p.key]):g} ({percent(p.value, proposal[p.key])})", ""]
    return "\n".join(lines)


def percent(old: Fraction, new: Fraction) -> str:
    """The change from ``old`` to ``new`` in whole percent, signed ("+12%")."""
    return f"{(float(new) / float(old) - 1) * 100:+.0f}%"


def load_patch(path: str | Path) -> Patch:
    """Read a proposal.toml; anything wrong is one RebalanceError line naming the file."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, UnicodeDecodeError) as err:
        raise RebalanceError(f"{path}: cannot read the patch ({getattr(err, 'strerror', None) or err})") from None
    except tomllib.TOMLDecodeError as err:
        raise RebalanceError(f"{path}: invalid TOML: {err}") from None
    for name in ("ruleset", "mode"):
        if not isinstance(data.get(name), str):
            raise RebalanceError(f"{path}: field {name!r} is missing; a patch names its ruleset and mode")
    values, old = {}, {}
    for k, row in enumerate(data.get("change", [])):
        where = f"{path}: change[{k}]"
        if not isinstance(row, dict) or not isinstance(row.get("key"), str):
            raise RebalanceError(f"{where}: needs key, old and new")
        values[row["key"]], old[row["key"]] = _exact(row.get("new"), f"{where}.new"), _exact(row.get("old"),
                                                                                          f"{where}.old")
    return Patch(data["ruleset"], data["mode"], values, old, data.get("validated"))


def _exact(value: Any, where: str) -> Fraction:
    try:
        out = Fraction(str(value)) if isinstance(value, int | str) and not isinstance(value, bool) else None
    except (ValueError, ZeroDivisionError):
        out = None
    if out is None or out <= 0:
        raise RebalanceError(f"{where} = {value!r}; allowed: a number above 0 or a fraction such as \"93/5\"")
    return out


def apply_patch(config, patch: Patch | str | Path):
    """``config`` playing a proposal's costs (every side refitted to its budget), through its
    ruleset's `Pricing`; a patch of another ruleset is a one-line error."""
    patch = patch if isinstance(patch, Patch) else load_patch(patch)
    rs = ruleset_of(config)
    if patch.ruleset != rs.id:
        raise RebalanceError(f"the patch prices {patch.ruleset}; the config is {rs.id}")
    pricing = pricing_of(rs)
    if pricing is None:
        raise RebalanceError(f"{rs.id} has nothing to price")
    if patch.mode not in pricing.modes:
        raise RebalanceError(f"patch mode {patch.mode!r}; allowed: {', '.join(pricing.modes)}")
    return pricing.apply(config, patch.mode, patch.values)


def write_patch(path: Path, game: Game, proposal: Mapping[str, Fraction], settings: Settings,
                validated: bool | None, source: str | None) -> None:
    """Write `patch_text` to ``path`` atomically."""
    with atomic_path(path) as tmp:
        tmp.write_text(patch_text(game, proposal, settings, validated, source))
