"""Game configs (zombie40k §12): the example configs, every §12 parameter with its tag,
table width by player count, dice strings, and configs that must be refused.

A refused config gives one ``ConfigError`` line naming the file and the field; random values of
known parameters give a GameConfig or a ConfigError, never another exception.
"""

from __future__ import annotations

import math
import re
from dataclasses import fields, replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.rulesets.zombie40k.config import (
    DEFAULT_POLICY,
    MODS,
    POLICY_PRESETS,
    ConfigError,
    GameConfig,
    PlayerConfig,
    Policy,
    load_config,
    make_config,
    parse_dice,
    policy_from,
    tunable_fields,
)
from sim.rulesets.zombie40k.teams import check_team, load_team
from sim.w40k.tables import Geometry

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = ROOT / "examples" / "configs"
GUARD = load_team(ROOT / "examples" / "teams" / "guard.toml")
PLAYER = PlayerConfig("Guard", GUARD, POLICY_PRESETS["advance"])

# file -> (players, table width)
EXAMPLES = {"two_players.toml": (2, 48.0), "four_players.toml": (4, 48.0), "six_players.toml": (6, 60.0),
            "guard_alone.toml": (1, 48.0)}

# zombie40k §12: key -> (default, tag)
SPEC_12 = {
    "team_budget": (75, "V"), "table_length_in": (72, "V"), "table_width_in": (0, "C"), "ev_width_in": (6, "C"),
    "ev_depth_in": (4, "C"), "deploy_depth_in": (6, "C"), "deploy_separation_in": (12, "C"),
    "hordes_per_player": (2, "C"), "horde_size": (5, "C"), "respawn_margin_in": (12, "C"), "pvp_zone_in": (18, "V"),
    "consolidate_dice": ("D6", "I"), "shamble_dice": ("2D6", "I"), "centre_scatter_dice": ("2D6", "C"),
    "pushback_dice": ("D6", "C"), "chainsaw_hit_on": (2, "C"), "shotgun_powerup_range_in": (12, "I"),
    "shotgun_powerup_hit_on": (2, "C"), "shotgun_powerup_shots": (2, "I"), "mushroom_move_bonus_in": (3, "C"),
    "mushroom_init_bonus": (1, "C"), "boss_respawns": (False, "A14"), "boss_kill_gives_powerup": (False, "A27"),
    "coop_no_respawn_radius_in": (12, "C"), "dk_start_t": (3, "C"), "dk_start_fnp": (6, "C"), "dk_max_t": (6, "C"),
    "dk_max_fnp": (3, "C"), "emfh_radius_in": (6, "C"), "emfh_fail_on": (4, "C"), "tvirus_t": (4, "C"),
    "tvirus_fnp": (4, "C"), "kf_budget": (50, "C"), "kf_points_per_kill": (1, "I"), "max_game_turns": (20, "A12"),
    "surrounded_ratio": (4, "A2"),
}


def cfg(*players: PlayerConfig, **params) -> GameConfig:
    return make_config(players or (PLAYER,), params)


# ------------------------------------------------------------------------------ example configs


def test_every_example_config_is_listed():
    assert sorted(p.name for p in CONFIGS.glob("*.toml")) == sorted(EXAMPLES)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_config_loads(name):
    n_players, width = EXAMPLES[name]
    config = load_config(CONFIGS / name)
    assert config.n_players == n_players and config.width == width
    assert config.max_game_turns == 20 and config.mods == frozenset()
    assert all(check_team(p.team) == [] for p in config.players)
    assert len({p.team.name for p in config.players}) == n_players  # mixed factions
    assert len({p.name for p in config.players}) == n_players


def test_example_configs_use_every_preset():
    policies = {p.policy for name in EXAMPLES for p in load_config(CONFIGS / name).players}
    assert {p for name, p in POLICY_PRESETS.items() if name != "random"} <= policies  # random: a baseline to compare
    assert replace(POLICY_PRESETS["hunter"], hunt_radius_in=18.0) in policies  # the policy table


def test_example_team_paths_are_relative_to_the_config():
    text = (CONFIGS / "two_players.toml").read_text()
    assert 'team = "../teams/guard.toml"' in text
    assert load_config(CONFIGS / "two_players.toml").players[0].team.source.endswith("guard.toml")


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_config_says_what_it_is_for(name):
    assert (CONFIGS / name).read_text().startswith("# ")


# ------------------------------------------------------------------------------ parameters


def test_spec_12_parameters_have_their_default_and_tag():
    by_name = {f.name: f for f in tunable_fields()}
    for key, (default, tag) in SPEC_12.items():
        assert key in by_name, key
        assert by_name[key].default == default, key
        assert by_name[key].metadata["tag"] == tag, key


def test_every_tunable_field_has_a_tag_and_a_section():
    tunables = tunable_fields()
    assert {f.name for f in tunables} == {f.name for f in fields(GameConfig)} - {"players"}
    for f in tunables:
        tag = f.metadata.get("tag", "")
        assert re.fullmatch(r"[VIC]|[A-Z]\d+|policy|mods|ablation|data", tag), (f.name, tag)
        assert f.metadata.get("spec"), f.name


def test_choice_defaults_are_among_the_choices():
    for f in tunable_fields():
        if f.metadata.get("choices"):
            assert f.default in f.metadata["choices"], f.name


def test_defaults_make_a_valid_config():
    config = cfg()
    assert config.team_budget == 75 and config.geometry == Geometry() and len(config.powerup_values) == 11


@pytest.mark.parametrize(("n_players", "width"), [(1, 48), (2, 48), (4, 48), (5, 60), (6, 60), (7, 72), (8, 72)])
def test_table_width_by_player_count(n_players, width):
    # zombie40k §3.1 (A8)
    players = [replace(PLAYER, name=f"Guard {k}") for k in range(n_players)]  # names identify players
    assert cfg(*players).width == width
    assert cfg(*players, table_width_in=30).width == 30


def test_int_given_for_a_float_parameter_is_a_float():
    config = cfg(horde_size=6, pvp_zone_in=24)
    assert config.pvp_zone_in == 24.0 and isinstance(config.pvp_zone_in, float) and config.horde_size == 6


@pytest.mark.parametrize(
    ("text", "dice"),
    [("D6", (1, 0, 0)), ("2D6", (2, 0, 0)), ("D3", (1, 0, 1)), ("2D3", (2, 0, 1)), ("3D6k2", (3, 2, 0)),
     ("2d6", (2, 0, 0)), (" 2D6 ", (2, 0, 0)), ("8D6", (8, 0, 0)), ("4D6K4", (4, 4, 0))],
)
def test_parse_dice(text, dice):
    assert parse_dice(text) == dice


@pytest.mark.parametrize("text", ["2D7", "D", "6", "", "0D6", "9D6", "2D6k3", "D6+1", "2 D6", "-1D6", None, 2])
def test_parse_dice_refuses(text):
    with pytest.raises(ConfigError, match="shamble_dice = "):
        parse_dice(text, "shamble_dice")


def test_policy_presets():
    assert set(POLICY_PRESETS) == {"dash", "advance", "hunter", "backstabber", "random"}
    assert policy_from("DASH", "p").run == 2
    assert policy_from({"preset": "hunter", "charge": 2}, "p") == replace(POLICY_PRESETS["hunter"], charge=2)
    assert policy_from({"pvp": 1}, "p") == Policy(pvp=1)  # a table starts from the default (Policy(): dash)


# ------------------------------------------------------------------------------ refused configs

PLAYERS_2 = ('[[players]]\nname = "Ann"\nteam = "{team}"\npolicy = "dash"\n\n'  # names identify players
             '[[players]]\nname = "Bob"\nteam = "{team}"\n')


def write_config(tmp_path: Path, head: str = "", players: str = "", name: str = "game.toml") -> Path:
    team = ROOT / "examples" / "teams" / "guard.toml"
    path = tmp_path / name
    path.write_text(head + "\n" + (players or PLAYERS_2).format(team=team.as_posix()))
    return path


def refused(path: Path, *words: str) -> str:
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert "\n" not in message and str(path) in message, message
    for word in words:
        assert word in message, message
    return message


def test_written_config_loads(tmp_path):
    config = load_config(write_config(tmp_path, 'mods = ["T-Virus", "hardcore"]\nmax_game_turns = 30\n'
                                                 '[params]\nhorde_size = 6\nshamble_dice = "3D6k2"\n'))
    assert config.mods == {"t_virus", "hardcore"} and config.max_game_turns == 30
    assert config.horde_size == 6 and config.shamble_dice == "3D6k2"
    assert [p.policy for p in config.players] == [POLICY_PRESETS["dash"], POLICY_PRESETS[DEFAULT_POLICY]]


@pytest.mark.parametrize(
    ("head", "words"),
    [
        ("[params]\nhorde_sise = 6\n", ("unknown parameter 'horde_sise'", "did you mean 'horde_size'?")),
        ("[params]\nmods = []\n", ("unknown parameter 'mods'",)),
        ('[params]\nhorde_size = "6"\n', ("horde_size = '6'", "an integer 1-30")),
        ("[params]\nhorde_size = 6.0\n", ("horde_size = 6.0",)),
        ("[params]\nhorde_size = 99\n", ("horde_size = 99", "an integer 1-30")),
        ("[params]\nchainsaw_hit_on = 1\n", ("chainsaw_hit_on = 1", "2-6")),
        ("max_game_turns = 0\n", ("max_game_turns = 0",)),
        ("[params]\npvp_zone_in = -1\n", ("pvp_zone_in = -1.0",)),
        ("[params]\npvp_zone_in = nan\n", ("pvp_zone_in = nan",)),
        ("[params]\npvp_zone_in = inf\n", ("pvp_zone_in = inf",)),
        ('[params]\nboss_respawns = "yes"\n', ("boss_respawns = 'yes'", "true or false")),
        ('[params]\norder = "random"\n', ("order = 'random'", "rolloff, fixed, rotate")),
        ('[params]\nshamble_dice = "2D7"\n', ("shamble_dice = '2D7'", "'2D6'")),
        ('[params]\ncentre_scatter_dice = "D3"\n', ("centre_scatter_dice = 'D3'", "'D6' to '8D6'")),
        ('[params]\ncentre_scatter_dice = "3D6k2"\n', ("centre_scatter_dice = '3D6k2'", "a number of D6")),
        ("[params]\nsurrounded_ratio = 0\n", ("surrounded_ratio = 0.0",)),
        ("[params]\npowerup_values = [1, 2]\n", ("powerup_values", "11 numbers")),
        ('[params]\npowerup_values = ["a"]\n', ("powerup_values",)),
        ("[params]\ngeometry = { blast_small_models = 40 }\n", ("geometry", "blast_small_models = 40")),
        ("[params]\ngeometry = { blast_tiny = 1 }\n", ("geometry",)),
        ('mods = ["zombie_dogs"]\n', ("unknown mod 'zombie_dogs'", "t_virus")),
        ('mods = ["t_virrus"]\n', ("unknown mod 't_virrus' (did you mean 't_virus'?)",)),
        ('mods = "t_virus"\n', ("'mods' must be a list",)),
        ('params = "horde_size"\n', ("'params' must be a table",)),
        ('colour = "red"\n', ("unknown field 'colour'",)),
    ],
)
def test_bad_parameter(tmp_path, head, words):
    refused(write_config(tmp_path, head), *words)


@pytest.mark.parametrize(
    ("players", "words"),
    [
        ('[[players]]\nteam = "{team}"\npolicy = "camper"\n', ("players[0]", "policy = 'camper'", "hunter")),
        ('[[players]]\nteam = "{team}"\npolicy = {{ preset = "camper" }}\n', ("players[0]", "'camper'")),
        ('[[players]]\nteam = "{team}"\npolicy = {{ hide = 1 }}\n', ("unknown policy field 'hide'", "hunt_radius_in")),
        ('[[players]]\nteam = "{team}"\npolicy = {{ run = 3 }}\n', ("players[0]", "run = 3", "0-2")),
        ('[[players]]\nteam = "{team}"\npolicy = 3\n', ("players[0]", "policy must be")),
        ('[[players]]\nteam = "no_such_team.toml"\n', ("players[0]", "no_such_team.toml", "no such team file")),
        ('[[players]]\nteam = 5\n', ("players[0]", "'team'")),
        ('[[players]]\nteam = {{ models = [] }}\n', ("players[0].team", "'models'")),
        ('[[players]]\nteam = "{team}"\ncolour = "red"\n', ("players[0]", "unknown field 'colour'")),
        ("players = []\n", ("'players' must be a non-empty list",)),
        ("name = 'no players'\n", ("'players' must be a non-empty list",)),
        ('[[players]]\nteam = "{team}"\n' * 9, ("players: 9 given", "1-8")),
    ],
)
def test_bad_player(tmp_path, players, words):
    refused(write_config(tmp_path, players=players), *words)


def test_team_file_relative_to_the_config(tmp_path):
    (tmp_path / "teams").mkdir()
    (tmp_path / "teams" / "mine.toml").write_text('[[models]]\nunit = "Immortal"\ncount = 2\n')
    config = load_config(write_config(tmp_path, players='[[players]]\nteam = "teams/mine.toml"\n'))
    assert len(config.players[0].team.models) == 2 and config.players[0].name == "mine"
    refused(write_config(tmp_path, players='[[players]]\nteam = "../teams/mine.toml"\n'), "no such team file")


def test_inline_team(tmp_path):
    players = ('[[players]]\nname = "Ann"\n'
               'team = {{ name = "Gaunts", models = [{{ unit = "Hormagaunt", count = 4 }}] }}\n')
    config = load_config(write_config(tmp_path, players=players))
    assert config.players[0].name == "Ann" and config.players[0].team.name == "Gaunts"


def test_players_zero_and_nine():
    with pytest.raises(ConfigError, match="players: 0 given; allowed: 1-8"):
        make_config((), {})
    with pytest.raises(ConfigError, match="players: 9 given; allowed: 1-8"):
        make_config((PLAYER,) * 9, {})


@pytest.mark.parametrize(
    ("path_of", "words"),
    [
        (lambda tmp: tmp / "nope.toml", ("no such config file",)),
        (lambda tmp: tmp, ("is a folder",)),
        (lambda tmp: _write(tmp / "cut.toml", '[[players]]\nteam = "gua'), ("not valid TOML",)),
        (lambda tmp: _write(tmp / "list.toml", "players = 3\n"), ("'players'",)),
    ],
)
def test_unreadable_config(tmp_path, path_of, words):
    refused(path_of(tmp_path), *words)


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_huge_int_is_out_of_range_not_an_overflow():
    with pytest.raises(ConfigError, match="pvp_zone_in = 1000000000"):
        make_config((PLAYER,), {"pvp_zone_in": 10**400})


def test_no_hint_that_names_the_refused_key(tmp_path):
    assert "did you mean" not in refused(write_config(tmp_path, "[params]\nmods = []\n"), "unknown parameter 'mods'")


def test_unknown_mod_in_make_config():
    with pytest.raises(ConfigError, match="unknown mod 'zombies_with_hats'"):
        make_config((PLAYER,), {}, mods=["Zombies with hats"])
    assert make_config((PLAYER,), {}, mods=["Every Man For Himself"]).mods == {"every_man_for_himself"}
    assert set(MODS) == set(make_config((PLAYER,), {}, mods=MODS).mods)


# ------------------------------------------------------------------------------ fuzz

TUNABLE = [f.name for f in tunable_fields()]
CHOICES = sorted({c for f in tunable_fields() for c in f.metadata.get("choices", ())})
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(-5, 40), st.floats(allow_nan=True, allow_infinity=True),
    st.floats(0, 100), st.text(max_size=8), st.sampled_from(["D6", "2D6", "D3", "3D6k2", "2D7", "9D6", *CHOICES]),
)
VALUES = st.one_of(
    SCALARS,
    st.lists(SCALARS, max_size=12),
    st.lists(st.floats(0, 10), min_size=11, max_size=11),
    st.dictionaries(st.sampled_from([f.name for f in fields(Geometry)] + ["x"]), SCALARS, max_size=3),
)


@settings(max_examples=400, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(TUNABLE), VALUES, max_size=5))
def test_make_config_gives_a_config_or_a_config_error(params):
    try:
        config = make_config((PLAYER,), params, source="fuzz.toml")
    except ConfigError as err:
        assert "\n" not in str(err) and str(err).startswith("fuzz.toml: ")
        return
    assert isinstance(config, GameConfig)
    assert config.width > 0 and len(config.powerup_values) == 11
    for key, value in params.items():
        if isinstance(value, float) and not math.isnan(value):
            assert getattr(config, key) == value
