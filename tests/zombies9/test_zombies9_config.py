"""Data files, configs and policies: validated, one-line errors naming file, field and value."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from sim.rulesets.zombies9.compile import compile_tables, game_of
from sim.rulesets.zombies9.config import (
    PRESETS,
    ConfigError,
    Policy,
    config_from_dict,
    default_config,
    policy_from,
    with_params,
)
from sim.rulesets.zombies9.data import BASE_CARDS, BASE_TILES, Z9_CARDS, Z9_TILES, DataError, load_cards, load_tiles

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "zombies9"


def test_packaged_data_is_the_spec():
    base = load_tiles(str(BASE_TILES))
    assert sum(t.count for t in base) == 30  # A1
    assert sum(c.copies for c in load_cards(str(BASE_CARDS))) == 50  # A11
    z9 = load_tiles(str(Z9_TILES), True)
    assert sum(t.count for t in z9) == 16 and all(t.placeholder for t in z9)  # B1, B2 placeholders
    assert {t.name for t in z9 if t.cemetery} == {"Pet Cemetery", "Cemetery"}
    florist = next(t for t in base if t.name == "Florist")
    assert (florist.zombies, florist.life, florist.bullets, florist.tag) == (3, 1, 1, "base")
    cards = load_cards(str(Z9_CARDS))
    assert all(c.automatic and c.placeholder for c in cards)


def test_stacks_of_each_mode():
    base = game_of(default_config(4))
    assert len(base.base_stack) == 28 and base.z9_stack == ()  # Town Square and the Helipad out (A4)
    mixed = game_of(default_config(4, mode="mixed"))
    assert len(mixed.base_stack) == 29 and mixed.entrance in mixed.base_stack  # B4.2
    assert len(mixed.z9_stack) == 14 and mixed.set_aside >= 0  # 16 - entrance - the four-way set aside
    alone = game_of(default_config(4, mode="alone"))
    assert alone.start == alone.entrance and len(alone.z9_stack) == 15 and alone.helipad == -1  # B3
    assert sum(mixed.copies) == 54 and sum(game_of(default_config(4, mode="mixed", z9_fillers=True)).copies) == 82
    assert sum(game_of(default_config(4, event_cards=False)).copies) == 0


def _tiles_with(tmp_path, old: str, new: str) -> str:
    text = BASE_TILES.read_text()
    assert old in text
    path = tmp_path / "tiles.toml"
    path.write_text(text.replace(old, new, 1))
    return str(path)


@pytest.mark.parametrize(("old", "new", "message"), [
    ('layout = ["BBB", "BDB", "BRB"]', 'layout = ["BBB", "BDB", "BXB"]', "layout"),
    ('exits = "S"\nlayout = ["BBB", "BDB", "BRB"]', 'exits = "N"\nlayout = ["BBB", "BDB", "BRB"]', "exits"),
    ('name = "Hospital"\ncount = 1\nzombies = 8', 'name = "Hospital"\ncount = 1\nzombies = 30', "zombies = 30"),
    ('layout = ["BBB", "BDB", "BRB"]', 'layout = ["BBB", "BBB", "BRB"]', "without a door"),
    ('role = "helipad"', 'role = "heliport"', "role"),
    ('count = 4\nzombies = 4', 'count = -1\nzombies = 4', "count"),
    ('tag = "base"', 'tag = "rumour"', "tag"),
])
def test_bad_tile_files_are_one_line_errors(tmp_path, old, new, message):
    path = _tiles_with(tmp_path, old, new)
    with pytest.raises(DataError) as err:
        load_tiles(path)
    text = str(err.value)
    assert "\n" not in text and path in text and message in text


def test_bad_card_files_are_one_line_errors(tmp_path):
    text = BASE_CARDS.read_text()
    for old, new, message in (('effect = "fear"', 'effect = "terror"', "effect"),
                              ('building = "Toy Store"', 'building = ""', "building"),
                              ('copies = 2', 'copies = "two"', "copies")):
        path = tmp_path / f"cards_{message}.toml"
        path.write_text(text.replace(old, new, 1))
        with pytest.raises(DataError) as err:
            load_cards(str(path))
        assert "\n" not in str(err.value) and message in str(err.value)
    with pytest.raises(DataError, match="no such card file"):
        load_cards(str(tmp_path / "missing.toml"))
    (tmp_path / "broken.toml").write_text("[[card]\n")
    with pytest.raises(DataError, match="not valid TOML"):
        load_cards(str(tmp_path / "broken.toml"))


def test_config_validation():
    with pytest.raises(ConfigError, match="mode = 'solo'; allowed: base, mixed, alone"):
        default_config(4, mode="solo")
    with pytest.raises(ConfigError, match="players: 7 players; allowed: 2-6"):
        default_config(7)
    with pytest.raises(ConfigError, match=r"dog_kill = 9; allowed: 1-7"):
        default_config(4, dog_kill=9)
    with pytest.raises(ConfigError, match="kid_rule = 1; allowed: true or false"):
        default_config(4, kid_rule=1)
    with pytest.raises(ConfigError, match="cards = 'always'"):
        Policy(cards="always")
    with pytest.raises(ConfigError, match="unknown parameter 'kils_to_win' .did you mean 'kills_to_win'"):
        with_params(default_config(4), {"kils_to_win": 20})


def test_config_files_and_params(tmp_path):
    data = {"ruleset": "zombies9", "players": [{"name": "Ann", "policy": "runner"},
                                                {"name": "Ben", "policy": {"preset": "hunter", "farm_kills": 10}}],
            "params": {"mode": "mixed", "dog_damage": 1, "policy_threat_turns": 5}}
    config = config_from_dict(data, "game.toml", tmp_path)
    assert config.mode == "mixed" and config.dog_damage == 1.0
    assert config.players[0].policy.goal == "helipad" and config.players[1].policy.farm_kills == 10
    assert {p.policy.threat_turns for p in config.players} == {5.0}
    assert config_from_dict({"players": 3}, "x").n_players == 3
    for bad, message in (({"players": 1}, "players = 1"), ({"players": 4, "colour": 1}, "unknown field 'colour'"),
                         ({"players": [{"name": "A", "policy": "coward"}]}, "policy = 'coward'"),
                         ({"players": [{"name": "A"}, {"name": "A"}]}, "used twice"),
                         ({"players": 4, "params": {"mode": 3}}, "mode = 3")):
        with pytest.raises(ConfigError) as err:
            config_from_dict(bad, "game.toml")
        assert "game.toml" in str(err.value) and message in str(err.value) and "\n" not in str(err.value)


def test_presets_are_distinct_policies():
    assert len({p for p in PRESETS.values()}) == len(PRESETS)
    assert policy_from("saboteur", "x").threat_turns == 1000.0
    assert PRESETS["random"].placement == "random" and PRESETS["random"].cards == "random"


def test_tables_of_every_example():
    from sim import ruleset as registry

    rs = registry.get("zombies9")
    files = sorted(EXAMPLES.glob("*.toml"))
    assert len(files) >= 6
    modes = set()
    for path in files:
        assert tomllib.loads(path.read_text())["ruleset"] == "zombies9"
        config = registry.load_config(path)  # the shared reader: the file names its ruleset
        assert config.ruleset == rs.id
        tables = compile_tables(config)
        assert tables.pol.shape[0] == config.n_players
        modes.add(config.mode)
    assert modes == {"base", "mixed", "alone"}
