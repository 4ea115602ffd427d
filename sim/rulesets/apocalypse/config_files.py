"""Zombie Apocalypse's config files as data (`sim.config_files`): what each accepts, for `shamble
config-ref`; tests/test_config_ref.py checks the fields against the loaders."""

from __future__ import annotations

from sim.config_files import EXAMPLES, Field, FileKind, default_policy, heading, read_toml, words
from sim.ruleset import get
from sim.rulesets.apocalypse import armies as A
from sim.rulesets.apocalypse import config as C


def config_files() -> list[FileKind]:
    """What each config file of the ruleset accepts."""
    rs = get("apocalypse")
    army = read_toml(EXAMPLES / "apocalypse" / "armies" / "ultramarines.toml")
    base = EXAMPLES / "apocalypse" / "configs"
    game = {"players": [{"army": "../armies/ultramarines.toml"}]}
    policy = default_policy("apocalypse", game, base)
    return [
        FileKind("Game config file", "`shamble play examples/apocalypse/configs/four_players.toml`.", (
            *heading("apocalypse"),
            Field("players", "list of [[players]] tables", "1-4 (1-8 with corner_sharing)", "required",
                  "the players, one corner each (§3)"),
            Field("params", "table", "any parameter below", "{}", "rule numbers (`shamble params --ruleset "
                  "apocalypse`); points_limit refits every army (fit_armies)"),
        ), lambda extra: rs.config_from_dict(game | {extra: 1}, "probe", base)),
        FileKind("[[players]] (each player of a game config)", "", (
            Field("name", "string", "non-empty", "the army's name", "the player's name"),
            Field("army", "string or table", "an army file path (relative to the config) or an inline army table",
                  "required", "the player's detachment (see the army file)"),
            Field("trait", "string", f"auto, {words(C.TRAITS)}", "auto", "the Warlord trait (auto: P8's choice)"),
            Field("policy", "string or table", f"{words(rs.policy_presets())}, or a table of policy fields", policy,
                  "how the player plays (`shamble policies --ruleset apocalypse`)"),
        ), lambda extra: rs.config_from_dict({"players": [game["players"][0] | {extra: 1}]}, "probe", base)),
        FileKind("Army file", "`examples/apocalypse/armies/ultramarines.toml`: one detachment (§2).", (
            Field("name", "string", "non-empty", "the file's stem", "the army's name"),
            Field("faction", "string", "a faction of the catalogue", "required", "the army's faction"),
            Field("description", "string", "any", "-", "free text"),
            Field("units", "list of [[units]] tables", "1 or more", "required", "the units"),
        ), lambda extra: A.army_from_dict(army | {extra: 1}, "probe")),
        FileKind("[[units]] (each unit of an army file)", "", (
            Field("unit", "string", "a datasheet with a Force Organisation slot (no vehicles, §2)", "required",
                  "the unit"),
            Field("models", "integer", "1-100 (0 = the minimum size)", "0", "models in the unit"),
            Field("leader", "string", "the unit's leader upgrade", '""', "the leader model"),
            Field("leader_options", "list of strings", "the leader's wargear options", "[]", "the leader's wargear"),
            Field("swaps", "table", "weapon = replacement of the datasheet's options", "{}", "weapons swapped"),
        ), lambda extra: A.army_from_dict(army | {"units": [dict(army["units"][0]) | {extra: 1}]}, "probe")),
    ]
