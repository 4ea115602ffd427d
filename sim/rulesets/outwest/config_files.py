"""Zombies Out West's config files as data (`sim.config_files`): what each accepts, for `shamble
config-ref`; tests/test_config_ref.py checks the fields against the loaders."""

from __future__ import annotations

from sim.config_files import Field, FileKind, default_policy, heading, words
from sim.ruleset import get
from sim.rulesets.outwest import config as C
from sim.rulesets.outwest import data as D


def config_files() -> list[FileKind]:
    """What each config file of the ruleset accepts."""
    rs = get("outwest")
    weapons, kits = D.weapons(), D.posse().kits
    policy = default_policy("outwest", {})
    size = len(C.default_posse())
    return [
        FileKind("Game config file", "`shamble play examples/outwest/hold.toml`: the posse, the zombies and the "
                 "scenario. Any parameter may also be written at the top level.", (
            *heading("outwest"),
            Field("scenario", "string", words(C.SCENARIOS), "hold", "the scenario (§12; also a parameter)"),
            Field("groups", "list of integers", f"1-{C.MAX_GROUPS} group sizes, each 3-6", "[5, 5, 5, 5]",
                  "zombie groups, one per table edge in turn"),
            Field("town", "string", "default, open or a town file (relative to the config)", "default",
                  "the buildings and fences"),
            Field("mods", "list of strings", words(C.MODS), "[]", "the advanced rules (§7.4, §8, §11)"),
            Field("posse", "string or integer", f"default; class letters (1-{C.MAX_HUMANS} of L S G C, each with "
                  f"its class kit); or a size n (the first n of {C.SIZE_ORDER}, repeating)", "default",
                  f"the posse (the default: {size} men, L S G G C). Not with [[players]]. The experiment axes "
                  "`posse_size` and `class_mix` replace it (and [[players]]) in every cell, keeping the first "
                  "character's policy; `posse_size` caps escape_needed at the posse's size"),
            Field("policy", "string or table", f"{words(rs.policy_presets())}, or a table of policy fields", policy,
                  "every character's policy unless his row names one (`shamble policies --ruleset outwest`)"),
            Field("players", "list of [[players]] tables", f"1-{C.MAX_HUMANS} characters, distinct names",
                  "the posse above", "the characters, instead of posse = ..."),
            Field("params", "table", "any parameter below", "{}", "rule numbers (`shamble params --ruleset "
                  "outwest`)"),
        ), lambda extra: rs.config_from_dict({extra: 1}, "probe", None)),
        FileKind("[[players]] (each character)", "", (
            Field("name", "string", "non-empty, distinct", "the class, titled", "the character's name"),
            Field("class", "string", words(C.CLASSES), "gunman", "his class (§2.1)"),
            Field("guns", "list of strings", f"at most two of {words(weapons.guns)}", _kit(kits, "guns"),
                  "his guns (§2.2)"),
            Field("melee", "string", words(weapons.melee), _kit(kits, "melee"), "his hand weapon (§2.2)"),
            Field("horse", "boolean", "true, false", "false", "mounted"),
            Field("policy", "string or table", "as the config's policy", "the config's policy", "his own policy"),
        ), lambda extra: rs.config_from_dict({"players": [{"name": "A", extra: 1}]}, "probe", None)),
    ]


def _kit(kits: dict, item: str) -> str:
    """'the class kit (legend: pistol + pistol; ...)'."""
    def shown(value) -> str:
        return " + ".join(value) if isinstance(value, list | tuple) else str(value)
    return "the class kit (" + "; ".join(f"{cls}: {shown(kit[item])}" for cls, kit in kits.items() if item in kit) + ")"
