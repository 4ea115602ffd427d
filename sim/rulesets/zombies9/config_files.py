"""Zombies!!!'s config files as data (`sim.config_files`): what each accepts, for `shamble
config-ref`; tests/test_config_ref.py checks the fields against the loaders."""

from __future__ import annotations

from sim.config_files import Field, FileKind, default_policy, heading, words
from sim.ruleset import get
from sim.rulesets.zombies9 import config as C


def config_files() -> list[FileKind]:
    """What each config file of the ruleset accepts."""
    rs = get("zombies9")
    policy = default_policy("zombies9", {"players": [{"name": "A"}, {"name": "B"}]})
    return [
        FileKind("Game config file", "`shamble play examples/zombies9/four_players_base.toml`: the players and the "
                 "rules.", (
            *heading("zombies9"),
            Field("players", "integer or list of [[players]] tables", "2-6", "4",
                  f"a count (named {words(C.DEFAULT_NAMES)}) or the players in seat order"),
            Field("mods", "list of strings", words(C.MODS), "[]", "optional rules of the books (`shamble mods "
                  "--ruleset zombies9`)"),
            Field("params", "table", "any parameter below; `policy_<field>` sets a policy field of every player",
                  "{}", "rule numbers and data files (`shamble params --ruleset zombies9`)"),
        ), lambda extra: rs.config_from_dict({"players": 2, extra: 1}, "probe", None)),
        FileKind("[[players]] (the player table)", "", (
            Field("name", "string", "non-empty", "Ann, Ben, ... by seat", "the player's name"),
            Field("policy", "string or table", f"{words(rs.policy_presets())}, or a table of policy fields", policy,
                  "how the player plays (`shamble policies --ruleset zombies9`)"),
        ), lambda extra: rs.config_from_dict({"players": [{"name": "A", extra: 1}, {"name": "B"}]}, "probe", None)),
    ]
