"""Experiments and report of Zombies Out West: its axes (`AxisKind`) and report sections.

Axes (an experiment file's ``[axes]`` keys, beside every parameter, ``mods`` and ``params``)::

    posse_size = [1, 2, 3, 5, 8]                # the default posse's classes, then G C S G C (config.SIZE_ORDER)
    class_mix = ["LSGGC", "LLGG", "SSSS"]       # class letters, each with its class's kit
    weapon_mix = ["default", "rifles", "shotguns", "pistols"]  # every long gun made one kind
    zombie_groups = [2, 4, 6]                   # that many groups of 5 (or a list of sizes)
    group_size = [3, 5, 6]                      # every group this size
    advanced = ["basic", "plague", "gunslingers", "both"]     # the advanced rules
    posse_policy = ["stand_and_shoot", "fighting_retreat", "rescue_everyone", "veteran"]  # every character's policy

Report sections (analysed by the experiments layer): survival against posse size (``by_value``;
the cooperative verdict, experiments.coop: the default posse of five against the target band, the
smoothness of the curve, the class that carries the posse)
and class mix at equal points (``outcomes``), shotguns against rifles (``paired``), the Zombie
Plague and Zombie Gunslingers on and off (``paired``), and every [C] number (``sensitivity``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sim.ruleset import AxisKind, ReportSection
from sim.rulesets.outwest.config import (
    MAX_GROUPS,
    OutwestConfig,
    OutwestConfigError,
    mod_set,
    policy_from,
    policy_name,
    posse_of_mix,
    posse_of_size,
    with_exact_mods,
    with_policy,
)

LONG_GUNS = ("rifle", "carbine", "shotgun", "sawn_off", "musketoon", "musket")
WEAPON_MIXES = {"default": None, "rifles": "rifle", "shotguns": "shotgun", "carbines": "carbine",
                "sawn_offs": "sawn_off", "musketoons": "musketoon", "muskets": "musket", "pistols": "pistol"}
ADVANCED = {"basic": (), "plague": ("zombie_plague",), "gunslingers": ("zombie_gunslingers",),
            "both": ("zombie_plague", "zombie_gunslingers")}
# class mixes of 12 points on an assumed 1-2-3-4 scale (Citizen, Gunman, Shootist, Legend): the
# rules give no points; the scale is the class order, so "equal points" is a question, not a rule
# smallest posse first: the sweep's summary pairs every cell with the first one seat by seat, and
# a later cell with fewer seats than the first would lack some (experiments.sweep._versus_first)
EQUAL_POINTS_MIXES = ("LLL", "LLSC", "LLGG", "SSSS", "LSGGC", "LSSGC", "GGGGGG", "CCCCCCCCCCCC")
ADVANCED_CELLS = {  # title -> the params of the cell (the shared "params" axis)
    "the basic game": {},
    "Zombie Plague": {"mods": ["zombie_plague"]},
    "Zombie Plague + Gunslingers": {"mods": ["zombie_plague", "zombie_gunslingers"]},
    "Gunslingers, one per group from the start": {"mods": ["zombie_gunslingers"], "start_gunslingers": 4},
}
CLASS_POINTS = {"citizen": 1, "gunman": 2, "shootist": 3, "legend": 4}
MIX_TITLES = {"LSGGC": "the default posse", "CCCCCCCCCCCC": "12 Citizens", "GGGGGG": "6 Gunmen", "SSSS": "4 Shootists",
              "LLL": "3 Legends"}
SEED = 2024


def _cell_label(params: dict) -> str:
    """The shared params axis's label of a cell (experiments.experiment._params_label)."""
    return ";".join(f"{k}={'+'.join(v) if k == 'mods' else v}" for k, v in params.items()) or "base"


def points(config: OutwestConfig) -> int:
    """The posse's cost on the assumed 1-2-3-4 class scale."""
    return sum(CLASS_POINTS[p.cls] for p in config.players)


def _first_policy(config: OutwestConfig):
    return config.players[0].policy


def _int(value: Any, lo: int, hi: int, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise OutwestConfigError(f"{where} = {value!r}; allowed: an integer {lo}-{hi}")
    return value


def _parse_size(value, base, base_dir=None, player=None):
    return _int(value, 1, 12, "posse_size")


def _apply_size(config: OutwestConfig, n: int, player=None) -> OutwestConfig:
    return _fit(config, posse_of_size(n, _first_policy(config)))


def _fit(config: OutwestConfig, players) -> OutwestConfig:
    return replace(config, players=players, escape_needed=min(config.escape_needed, len(players)))


def _parse_mix(value, base, base_dir=None, player=None):
    posse_of_mix(value)  # validates
    return str(value).upper()


def _apply_mix(config: OutwestConfig, mix: str, player=None) -> OutwestConfig:
    return _fit(config, posse_of_mix(mix, _first_policy(config)))


def _parse_weapons(value, base, base_dir=None, player=None):
    if value not in WEAPON_MIXES:
        raise OutwestConfigError(f"weapon_mix = {value!r}; allowed: {', '.join(WEAPON_MIXES)}")
    return value


def with_weapon_mix(config: OutwestConfig, mix: str) -> OutwestConfig:
    """Every long gun (rifle, carbine, shotgun, sawn-off, musketoon) of the posse made ``mix``'s
    gun; pistols stay."""
    gun = WEAPON_MIXES[mix]
    if gun is None:
        return config
    players = tuple(replace(p, guns=tuple(gun if g in LONG_GUNS else g for g in p.guns)) for p in config.players)
    return replace(config, players=players)


def _parse_groups(value, base, base_dir=None, player=None):
    if isinstance(value, list | tuple):
        return tuple(value)
    return (5,) * _int(value, 1, MAX_GROUPS, "zombie_groups")


def _apply_groups(config: OutwestConfig, groups: tuple, player=None) -> OutwestConfig:
    return replace(config, groups=tuple(groups), start_gunslingers=min(config.start_gunslingers, len(groups)))


def _parse_group_size(value, base, base_dir=None, player=None):
    return _int(value, 3, 6, "group_size")


def _parse_advanced(value, base, base_dir=None, player=None):
    if value not in ADVANCED:
        raise OutwestConfigError(f"advanced = {value!r}; allowed: {', '.join(ADVANCED)}")
    return value


def _parse_policy(value, base, base_dir=None, player=None):
    return policy_from(value, "posse_policy")


def _groups_label(value) -> str:
    """"6" for six groups of 5 (raw or parsed), else the sizes "3-6"."""
    if isinstance(value, int):
        return str(value)
    value = tuple(value)
    return str(len(value)) if set(value) == {5} else "-".join(map(str, value))


def _mods_label(value) -> str:
    return "+".join(sorted(mod_set(value))) or "base"


def _policy_label(value) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return ";".join(f"{k}:{v}" for k, v in value.items())
    return policy_name(value)


def axis_kinds() -> dict[str, AxisKind]:
    """Labels take the value as written or as parsed."""
    return {
        "posse_size": AxisKind("posse_size", _parse_size, _apply_size, str,
                               "posse of n, replacing the config's posse (posse = or [[players]]) in every cell: "
                               "the default posse's classes first (L S G G C), then G C S G C, each with its class "
                               "kit and the first character's policy; escape_needed capped at n",
                               order=1.0, numeric=True, default_range=(1, 12)),
        "class_mix": AxisKind("class_mix", _parse_mix, _apply_mix, lambda v: str(v).upper(),
                              "the posse as class letters (L Legend, S Shootist, G Gunman, C Citizen)", order=1.0),
        "weapon_mix": AxisKind("weapon_mix", _parse_weapons, lambda c, v, p=None: with_weapon_mix(c, v), str,
                               "every long gun of the posse made one kind: " + ", ".join(WEAPON_MIXES), order=2.0),
        "zombie_groups": AxisKind("zombie_groups", _parse_groups, _apply_groups, _groups_label,
                                  "that many zombie groups of 5 (or a list of group sizes)", order=1.5),
        "group_size": AxisKind("group_size", _parse_group_size,
                               lambda c, s, p=None: replace(c, groups=(s,) * len(c.groups)), str,
                               "every zombie group this size (3-6)", order=1.6, numeric=True, default_range=(3, 6)),
        "mods": AxisKind("mods", lambda v, base, d=None, p=None: mod_set(v, "mods"),
                         lambda c, mods, p=None: with_exact_mods(c, mods), _mods_label,
                         "sets of advanced rules ([] = the basic game)", order=3.0),
        "advanced": AxisKind("advanced", _parse_advanced, lambda c, v, p=None: with_exact_mods(c, ADVANCED[v]), str,
                             "the advanced rules: basic, plague, gunslingers, both", order=3.0),
        "posse_policy": AxisKind("posse_policy", _parse_policy, lambda c, pol, p=None: with_policy(c, pol),
                                 _policy_label, "every character's policy (a preset or a table)", order=2.5),
    }


# The half-width (95%, scale 1) each paired difference of the weapon and advanced-rules sections is played to
# (`experiments.sections`: the cap is their games): the posse holds the town in about 98% of games, and the
# weapons and rules move that by a point or two, so these questions need half a point, not the two points of a
# paired question in a game whose rates sit mid-range.
SMALL_DIFFERENCES = 0.005


def report_sections(scale: float = 1.0) -> list[ReportSection]:
    """The Out West part of the balance report (sized in games per cell times ``scale``)."""
    base = OutwestConfig()

    def games(n: int) -> int:
        return max(10, int(round(n * scale)))

    return [
        ReportSection(
            "posse_size", "Out West: how big a posse holds the town",
            "Hold the town (§12) against four groups of five, the posse grown from the default's classes "
            "(Legend, Shootist, Gunman, Gunman, Citizen, then Gunman, Citizen, Shootist...). A posse wins if "
            "one man is alive, conscious and not a zombie at the end of turn 10.",
            base, games(3600), {"posse_size": [1, 2, 3, 4, 5, 6, 8, 10]}, ("by_value", "winnable", "curve", "carry"),
            {"axis": "posse_size", "value_label": "posse size", "x_label": "men in the posse",
             "chart_title": "The town held, by posse size", "unit": " men", "who": "the posse",
             "winnable": {"cell": str(len(base.players)), "at": f"the spec's default: Hold the town (§12), the "
                          f"default posse of {len(base.players)} against four groups of five"},
             "curve": {"axis": "posse_size", "over": "posse size (Hold the town)", "unit": " men"},
             "carry": {"by": "class", "cell": str(len(base.players)), "share": "survived", "what": "class",
                       "share_words": "its men alive at the end", "kills": "zombies_destroyed",
                       "at": f"the default posse of {len(base.players)}"}}, SEED,
            notes=("The rate is the posse's: the town held (somebody still standing at the end).",)),
        ReportSection(
            "class_mix", "Out West: which class mix is best for the points",
            "Posses of 12 points on a 1-2-3-4 scale (Citizen, Gunman, Shootist, Legend; the rules give no "
            "points, so the scale is an assumption), each class with its default kit. Each character's rate is "
            "his own survival in a held town.",
            base, games(2700), {"class_mix": list(EQUAL_POINTS_MIXES)}, ("outcomes",),
            {"value_label": "class mix", "reference": "LSGGC", "titles": MIX_TITLES}, SEED),
        ReportSection(
            "shotguns_vs_rifles", "Out West: are shotguns worth more than rifles",
            "The default posse with every long gun a rifle, then every long gun a shotgun (pistols kept), on "
            "the same games. A shotgun shoots twice with pistol dice and the pistol's +2 at point blank, but "
            "must reload after every Fire (§2.2, §5.7); a rifle reaches 24\" with two dice from 2\" to 18\".",
            base, games(9000), {"weapon_mix": ["rifles", "shotguns", "pistols"]}, ("paired",),
            {"reference": "rifles", "compare_label": "every long gun", "chart_title": "Against every long gun a rifle",
             "titles": {"rifles": "rifles", "shotguns": "shotguns", "pistols": "no long guns"}, "who": "the posse",
             "target": SMALL_DIFFERENCES},
            SEED),
        ReportSection(
            "advanced", "Out West: the Zombie Plague and the Zombie Gunslingers",
            "The basic game against the advanced rules on the same games: the Zombie Plague (§7.4 plague "
            "table: a hit of 5 kills and raises the victim; §8: bite tests lapse more often, and the unconscious "
            "may die and rise), with Zombie Gunslingers as well (§11: risen characters above Citizen shoot), "
            "and Zombie Gunslingers alone with one gunslinger in every group from the start.",
            base, games(9000), {"params": [dict(v) for v in ADVANCED_CELLS.values()]}, ("paired",),
            {"reference": "base", "compare_label": "advanced rules", "chart_title": "Against the basic game",
             "titles": {_cell_label(v): k for k, v in ADVANCED_CELLS.items()}, "who": "the posse",
             "target": SMALL_DIFFERENCES}, SEED,
            notes=("Zombie Gunslingers without the plague and without starting gunslingers change nothing "
                   "(the risen come only from the plague), so that cell starts one gunslinger in every group.",)),
        ReportSection(
            "sensitivity", "Out West: which unrecovered numbers matter most",
            "Every number the spec had to choose ([default] (unconfirmed): range bands, dice per band, class "
            "shooting modifiers, aim, blaze and cover dice, ammunition, the turn count...) at its low and high "
            "plausible value, each against the default on the same games.",
            base, games(1800), {}, ("sensitivity",),
            {"enable": {"mods": ("zombie_plague", "zombie_gunslingers")},
             "titles": {"zombie_plague": "Zombie Plague", "zombie_gunslingers": "Zombie Gunslingers"}}, SEED),
    ]


def bench_configs() -> dict[str, OutwestConfig]:
    """Hold the town, the default posse against four groups of five: the basic game first (the
    headline), then with both advanced rules."""
    base = OutwestConfig()
    return {"hold_the_town": base,
            "hold_the_town_plague_gunslingers": replace(base, mods=frozenset(("zombie_plague", "zombie_gunslingers")))}
