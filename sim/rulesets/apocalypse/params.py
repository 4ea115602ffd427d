"""Zombie Apocalypse's parameters as `sim.ruleset.Parameter` records.

Every ``ApocalypseConfig`` field but ``players`` is a parameter: its default, tag, spec section,
range, choices and plausible range come from the field's metadata (``sim.rulesets.apocalypse.
config``). The [C] numbers have a plausible range that ``shamble sensitivity`` plays; the
ambiguity options (tags ``A1``... ``A38``, ``P2``) and the mission rules are switches a sweep
turns (``params = [{foggy = false}]``).
"""

from __future__ import annotations

import math
from dataclasses import MISSING, fields
from typing import Any

from sim.ruleset import Parameter
from sim.rulesets.apocalypse.config import PRICE_TABLES, ApocalypseConfig, ConfigError, _coerce, _validate

MEANING = {"spawn_points": {0: "one per player (A10)"}, "max_zombies": {0: "no cap (A4, A37)"}}
# the terrain's own numbers matter only on a table with ruins (a config whose ``has_terrain`` holds)
ENABLE = {"terrain_pieces": {"has_terrain": (True,)}, "terrain_piece_radius_in": {"has_terrain": (True,)},
          "terrain_cover": {"has_terrain": (True,)},
          "legendary_multiplier": {"legendary_live": (True,)}}  # a Warlord of legendary_cost points (A31)


def _default(f):
    return f.default_factory() if f.default is MISSING else f.default


def _plausible(f, default) -> tuple | None:
    meta = f.metadata
    if meta.get("tag") != "C" or isinstance(default, bool) or not isinstance(default, int | float):
        return None
    if meta.get("plausible"):
        return tuple(meta["plausible"])
    lo, hi = meta.get("range") or (0, 1e9)
    if isinstance(default, int):
        return max(lo, math.floor(default * 0.5 + 0.5)), min(hi, math.floor(default * 1.5 + 0.5))
    return max(lo, default * 0.5), min(hi, default * 1.5)


def parameters() -> list[Parameter]:
    """Every parameter a config may set, in the order of ``ApocalypseConfig``."""
    out = []
    for f in fields(ApocalypseConfig):
        if f.name == "players":
            continue
        default, meta = _default(f), f.metadata
        out.append(Parameter(name=f.name, default=default, tag=meta.get("tag", ""), spec=meta.get("spec", ""),
                             help=meta.get("help", ""), range=meta.get("range"),
                             choices=tuple(meta.get("choices", ())), plausible=_plausible(f, default),
                             enable=ENABLE.get(f.name, {}), meaning=MEANING.get(f.name, {})))
    return out


def parse_params(config: ApocalypseConfig, params: Any, source: str = "params") -> dict[str, Any]:
    """The fields ``params`` sets, validated against ``config``: ``{name: value}``. ``points_limit``,
    ``unit_costs`` and ``army_cost_factors`` are refused while ``fit_armies`` holds: a field change
    cannot refit the armies of whatever config it is later applied to (the 'points' axis and a
    config file's [params] do)."""
    if not isinstance(params, dict):
        raise ConfigError(f"{source}: {params!r}; allowed: a table of parameters, e.g. {{foggy = false}}")
    known = {f.name: f for f in fields(ApocalypseConfig) if f.name != "players"}
    out = {}
    for key, value in params.items():
        if key not in known:
            from difflib import get_close_matches

            close = get_close_matches(str(key), list(known), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ConfigError(f"{source}: unknown parameter {key!r}{hint}; see `shamble params --ruleset apocalypse`")
        if key == "points_limit" and config.fit_armies:
            raise ConfigError(f"{source}: points_limit = {value!r}: a parameter set cannot refit the armies (§2); use "
                              "the 'points' axis (axes.points = [...]) or points_limit in a config file's [params]")
        if key in PRICE_TABLES and config.fit_armies:
            raise ConfigError(f"{source}: {key} = {value!r}: a parameter set cannot refit the armies to new prices "
                              "(§2); use a config file's [params] or `shamble play --patch`")
        out[key] = _coerce(known[key], value, source)
        if key != "geometry":
            try:
                _validate(_Probe(key, out[key]), known[key])
            except ConfigError as err:
                raise ConfigError(f"{source}: {err}") from None
    return out


class _Probe:
    """One field's value, for the field validator."""

    def __init__(self, name: str, value: Any) -> None:
        setattr(self, name, value)
