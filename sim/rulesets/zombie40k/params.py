"""Zombie 40,000's parameters as `sim.ruleset.Parameter` records (zombie40k §12-§13).

Every ``GameConfig`` field but ``players`` is a parameter: its default, tag and spec section come
from the field's metadata, its range from the validator (``sim.rulesets.zombie40k.config``).

**Plausible range** (what ``shamble sensitivity`` plays): the default x0.5 and x1.5 (integers
rounded half up) within the validator's range, except where ``PLAUSIBLE`` gives a range: to-hit
and Feel No Pain rolls and Toughness move by one step, the lost single digits (the seed lost the
digits 1-6) stay within 1-6, dice expressions go one die size down and up. A mod's parameters
(``tvirus_t``, ``dk_*``...) matter only with their mod, the terrain's own numbers only on a table
with terrain (``terrain_density`` 0.25): ``enable`` says so.
"""

from __future__ import annotations

import math
from dataclasses import MISSING, fields

from sim.ruleset import Parameter
from sim.rulesets.zombie40k.config import GameConfig, int_range, share_range
from sim.rulesets.zombie40k.mods import MOD_LIST

PLAUSIBLE = {  # name: (low, high), where x0.5 / x1.5 would not be plausible
    "table_width_in": (36.0, 60.0),  # default 0 = 48" for up to 4 players (§3.1 A8)
    "hordes_per_player": (1, 3),  # a lost digit: 1-6; 3 per player already crowds a 48" table
    "horde_size": (3, 6),  # a lost digit: 1-6 (zombie40k §13 #21)
    "chainsaw_hit_on": (2, 3), "shotgun_powerup_hit_on": (2, 3),  # one step of a D6 to-hit roll
    "mushroom_init_bonus": (0, 2),
    "model_spacing_in": (1.0, 2.0),  # bases touch at 1.0" (25 mm)
    "centre_scatter_dice": ("D6", "3D6"), "pushback_dice": ("D3", "2D6"),  # one die size down and up
    "tvirus_t": (3, 5), "tvirus_fnp": (3, 5), "dk_start_t": (2, 4), "dk_start_fnp": (5, 7),
    "dk_max_t": (5, 7), "dk_max_fnp": (2, 4), "emfh_fail_on": (3, 5),
    "terrain_density": (0.0, 0.25),  # default 0 = the open table (§3.1); about 0.25 is a usual 40k table
    "terrain_dangerous": (0.0, 0.5),  # default 0: no dangerous ruins
    "terrain_piece_radius_in": (2.5, 4.5),  # ruins 5-9" across (smaller makes over MAX_TERRAIN pieces)
}
TERRAIN_ON = {"terrain_density": (0.25,)}  # what the terrain's own numbers need to matter
MEANING = {  # what special values of a parameter mean
    "table_width_in": {0.0: "by player count (48\" for 1-4 players, 60\" for 5-6, 72\" for 7-8)"},
    "max_respawns": {-1: "unlimited"},
    "zombie_t": {0: "the catalogue's"}, "zombie_fnp": {0: "the catalogue's", 7: "none"},
    "boss_t": {0: "the profile's"}, "boss_fnp": {0: "the profile's", 7: "none"},
    "dk_start_fnp": {7: "none"}, "dk_max_fnp": {7: "none"}, "tvirus_fnp": {7: "none"}, "dmw_fnp": {7: "none"},
    "emfh_fail_on": {7: "never fails"}, "boss_guard_radius_in": {0.0: "the Boss shambles like any zombie unit"},
    "terrain_density": {0.0: "an open table, no terrain"}, "terrain_dangerous": {0.0: "no dangerous terrain"},
}
MOD_OF = {name: mod.key for mod in MOD_LIST for name in mod.params}  # a mod's own parameters
INCHES = (0.0, 1000.0)


def _default(f):
    return f.default_factory() if f.default is MISSING else f.default


def plausible_range(name: str, default) -> tuple:
    """(low, high) of a parameter (module docstring: the range rule)."""
    if name in PLAUSIBLE:
        return PLAUSIBLE[name]
    if isinstance(default, int):
        lo, hi = int_range(name) or (0, 10**6)
        return max(lo, math.floor(default * 0.5 + 0.5)), min(hi, math.floor(default * 1.5 + 0.5))
    return default * 0.5, min(default * 1.5, 1000.0)


def _range(f, default) -> tuple | None:
    if share_range(f.name):
        return share_range(f.name)
    if int_range(f.name):
        return int_range(f.name)
    if isinstance(default, float):
        return INCHES
    return None


def parameters() -> list[Parameter]:
    """Every parameter a config may set, in the order of ``GameConfig``."""
    out = []
    for f in fields(GameConfig):
        if f.name == "players":
            continue
        default, meta = _default(f), f.metadata
        numeric = isinstance(default, int | float) and not isinstance(default, bool)
        chosen = meta.get("tag") == "C" and (numeric or f.name.endswith("_dice"))
        out.append(Parameter(
            name=f.name, default=default, tag=meta.get("tag", ""), spec=meta.get("spec", ""),
            help=meta.get("help", ""), range=_range(f, default), choices=tuple(meta.get("choices", ())),
            plausible=plausible_range(f.name, default) if chosen else None,
            enable={"mods": (MOD_OF[f.name],)} if f.name in MOD_OF else
            TERRAIN_ON if f.name in ("terrain_piece_radius_in", "terrain_dangerous") else {},
            meaning=MEANING.get(f.name, {}),
        ))
    return out
