"""Zombie 40,000's config files as data (`sim.config_files`): what each accepts, for `shamble
config-ref`; tests/test_config_ref.py checks the fields against the loaders."""

from __future__ import annotations

from sim.config_files import EXAMPLES, Field, FileKind, default_policy, heading, read_toml, words
from sim.ruleset import get
from sim.rulesets.zombie40k import teams as T


def config_files() -> list[FileKind]:
    """What each config file of the ruleset accepts."""
    rs = get("zombie40k")
    team = read_toml(EXAMPLES / "teams" / "marines.toml")
    game = {"players": [{"team": "../teams/marines.toml"}]}
    base = EXAMPLES / "configs"
    policy = default_policy("zombie40k", game, base)
    return [
        FileKind("Game config file", "`shamble play examples/configs/two_players.toml`: the players and the rules.", (
            *heading("zombie40k"),
            Field("players", "list of [[players]] tables", "1-8 players (see below)", "required",
                  "the players, in seat order"),
            Field("mods", "list of strings", words(rs.mods()), "[]", "optional rules (`shamble mods`)"),
            Field("max_game_turns", "integer", "as the parameter", "as the parameter",
                  "a shortcut for [params] max_game_turns"),
            Field("params", "table", "any parameter below", "{}", "rule numbers (`shamble params`)"),
        ), lambda extra: rs.config_from_dict(game | {extra: 1}, "probe", base)),
        FileKind("[[players]] (each player of a game config)", "", (
            Field("name", "string", "non-empty", "the team's name", "the player's name in tables"),
            Field("team", "string or table", "a team file path (relative to the config) or an inline team table",
                  "required", "the player's models (see the team file)"),
            Field("policy", "string or table", f"{words(rs.policy_presets())}, or a table of policy fields "
                  "(`preset = ...` plus fields)", policy, "how the player plays (`shamble policies`)"),
        ), lambda extra: rs.config_from_dict({"players": [{"team": "../teams/marines.toml", extra: 1}]}, "probe",
                                             base)),
        FileKind("Team file", "`examples/teams/marines.toml`: one player's models (zombie40k §2).", (
            Field("name", "string", "any", "the file's stem", "the team's name"),
            Field("usr", "string", words(T.USR_CHOICES), '""', "the team's Unit Rule (zombie40k §9)"),
            Field("usr_model", "integer", "a model index", "0", "the model that carries the Unit Rule"),
            Field("models", "list of [[models]] tables", "1 or more", "required", "the models, in removal order"),
        ), lambda extra: T.team_from_dict(team | {extra: 1}, "probe")),
        FileKind("[[models]] (each model row of a team file)", "", (
            Field("unit", "string", "a catalogue unit (`shamble units`)", "required", "the model's datasheet"),
            Field("count", "integer", "1-50", "1", "how many of this model"),
            Field("leader", "string", "the unit's leader", '""', "make this model the unit's leader"),
            Field("options", "list of strings", "the datasheet's wargear options", "[]", "wargear bought"),
            Field("swap", "string", f"a weapon of the team (at most {T.MAX_SWAPS} swaps a team, zombie40k §2)", '""',
                  "swap weapons with another model"),
        ), lambda extra: T.team_from_dict(team | {"models": [dict(team["models"][0]) | {extra: 1}]}, "probe")),
    ]
