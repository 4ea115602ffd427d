"""Zombie Apocalypse configs: every spec number a parameter with its tag, every ambiguity's default
with its alternative, policies as numbers with presets, one-line errors, the experiment axes."""

from __future__ import annotations

from dataclasses import fields, replace
from pathlib import Path

import pytest
from apocalypse_helpers import EXAMPLES, config

from experiments.experiment import apply_axis, parse_axes
from kernels.apocalypse import columns as C
from sim import ruleset as registry
from sim.rulesets.apocalypse.armies import army_cost
from sim.rulesets.apocalypse.compile import compile_tables, sizes, sizes_of
from sim.rulesets.apocalypse.config import (
    POLICY_PRESETS,
    TRAITS,
    ApocalypseConfig,
    ConfigError,
    Policy,
    config_from_dict,
    policy_from,
)

RS = registry.get("apocalypse")
SPEC = ROOT = Path(__file__).resolve().parents[2]


def test_the_ruleset_implements_the_protocol():
    assert RS.id == "apocalypse" and RS.kernels_package == "apocalypse"
    assert RS.end_reasons == ("extracted", "warlords_dead", "time") and RS.mods() == {}
    with pytest.raises(ValueError, match="no mods"):
        RS.with_mods(config(), ["t_virus"])


def test_printed_numbers_are_parameters_at_the_spec_values():
    p = {q.name: q for q in RS.parameters()}
    printed = {"points_limit": 400, "game_turns": 7, "table_in": 48.0, "corner_in": 10.0, "scatter_dice": 3,
               "exclusion_in": 6.0, "start_dice": 2, "wave_start": 8, "edge_dice": 1, "exchange_cost": 3,
               "graveyard_zombies": 20, "graveyard_juggernauts": 2, "aura_in": 6.0, "aura_fear_modifier": 1,
               "spawner_blast_s": 5, "merge_in": 2.0, "bonus_per": 10, "split_min": 20, "plague_on": 5,
               "plague_ic_on": 6, "resilience_inv": 6, "first_zombie_inv": 5, "juggernaut_ratio": 10,
               "juggernaut_fnp": 6, "noise_pistol": 1, "noise_assault": 2, "noise_rapid_fire_d3": 1,
               "noise_heavy_d3": 2, "noise_template": 4, "noise_reroll_d3": 1, "noise_psychic_untyped": 2,
               "infantry_noise_per": 2, "jump_noise_d3": 1, "bike_noise_d3": 3, "over12_noise_d3": 1, "t_cap": 6,
               "w_cap": 4, "legendary_cost": 180}
    for name, value in printed.items():
        assert p[name].default == value and p[name].tag == "V", name
    assert {q.name for q in RS.parameters()} == {f.name for f in fields(ApocalypseConfig)} - {"players"}


def test_every_ambiguity_has_its_default_first_and_an_alternative():
    ambiguities = [q for q in RS.parameters() if q.tag.startswith(("A", "P"))]
    assert len(ambiguities) >= 20
    for q in ambiguities:
        assert isinstance(q.default, bool) or len(q.choices) >= 2 or q.range, q.name
        if q.choices:
            assert q.default == q.choices[0], q.name
    tags = {q.spec.split()[-1] if q.tag == "C" else q.tag for q in RS.parameters()}
    for entry in ("A1", "A7", "A8", "A9", "A10", "A11", "A12", "A14", "A15", "A16", "A17", "A18", "A19", "A21",
                  "A22", "A24", "A25", "A27", "A29", "A30", "A31", "A32", "A36", "A37"):
        assert entry in tags, entry


def test_chosen_numbers_have_a_plausible_range():
    chosen = [q for q in RS.parameters() if q.tag == "C" and q.is_numeric]
    assert len(chosen) >= 8
    for q in chosen:
        lo, hi = q.plausible
        assert lo < hi and (lo <= q.default <= hi or q.default in q.meaning), q.name  # 0 spawn points = one each


def test_policies_are_numbers_with_at_least_three_presets():
    assert {"staged", "rush", "escort_first"} <= set(RS.policy_presets())
    assert POLICY_PRESETS["staged"] == Policy()  # the spec's P3-P12 defaults
    for f in fields(Policy):
        assert isinstance(getattr(Policy(), f.name), int | float) and RS.policy_help()[f.name], f.name
    assert policy_from({"preset": "rush", "threat_in": 12}, "x").threat_in == 12.0
    with pytest.raises(ConfigError, match=r"^x: unknown policy field 'shot'; allowed: plan"):
        policy_from({"shot": 1}, "x")
    with pytest.raises(ConfigError, match=r"^x: policy: run = 3; allowed: an integer 0-2$"):
        policy_from({"run": 3}, "x")


def test_traits_auto_takes_tenacity_unless_the_warlord_has_feel_no_pain():
    tb = compile_tables(config("four_players"))
    assert list(tb.policy[:, C.POL_TRAIT]) == [C.TRAIT_TENACITY] * 4
    cfg = config("one_player")
    cfg = replace(cfg, players=(replace(cfg.players[0], trait="legendary_fighter"),))
    assert compile_tables(cfg).policy[0, C.POL_TRAIT] == C.TRAIT_LEGENDARY
    assert TRAITS.index("target_priority") == C.TRAIT_PRIORITY


def _data(**extra):
    return {"players": [{"name": "A", "army": "../armies/ultramarines.toml"}], **extra}


@pytest.mark.parametrize("data, pattern", [
    (_data(params={"foggy": 1}), r"^c\.toml: foggy = 1; allowed: true or false$"),
    (_data(params={"zone_radius_in": 30}), r"^c\.toml: zone_radius_in = 30\.0; allowed: a number 2-20$"),
    (_data(params={"illegal_scatter": "bounce"}), r"allowed: move_along_line, rescatter$"),
    (_data(params={"hellhounds": True}), r"hellhounds = true; allowed: false \(A36"),
    (_data(params={"zone_radiuss": 5}), r"unknown parameter 'zone_radiuss' \(did you mean 'zone_radius_in'\?\)"),
    (_data(params={"points_limit": 300, "fit_armies": False}),
     r"players\[0\]: .*§2 Points limit: the army costs 400 points; allowed: up to 300$"),
    (_data(params={"points_limit": 60}), r"^c\.toml: players\[0\]: points_limit = 60: .*cannot fit 60 points \(the HQ "
                                         r"alone costs more\)$"),
    ({"players": [{"name": "A", "army": "../armies/ultramarines.toml", "trait": "cowardice"}]},
     r"players\[0\]: trait = 'cowardice'; allowed: auto, none, master_of_defence"),
    ({"players": [{"name": "A", "army": "nope.toml"}]}, r"players\[0\]: .*nope\.toml: no such army file$"),
    ({"players": [{"name": f"P{k}", "army": "../armies/goffs.toml"} for k in range(5)]},
     r"players: 5 given; allowed: 1-4 \(A8: set corner_sharing = true for more\)$"),
    ({"players": []}, r"field 'players' must be a non-empty list"),
    (_data(teams=1), r"unknown field 'teams'"),
])
def test_config_errors_are_one_line(data, pattern):
    with pytest.raises(ConfigError, match=pattern) as err:
        config_from_dict(data, "c.toml", EXAMPLES / "configs")
    assert "\n" not in str(err.value)


def test_jump_packs_may_be_refused():
    with pytest.raises(ConfigError, match=r"A6 jump_packs = refused: 'Assault Marine' is jump infantry"):
        compile_tables(replace(config("one_player"), jump_packs="refused"))
    compile_tables(replace(config("two_players"), players=config("two_players").players[1:], jump_packs="refused"))


def test_more_than_four_players_may_share_corners():
    data = {"players": [{"name": f"P{k}", "army": "../armies/goffs.toml"} for k in range(5)],
            "params": {"corner_sharing": True}}
    assert config_from_dict(data, "c.toml", EXAMPLES / "configs").n_players == 5


def test_parse_params_validates_against_the_config():
    base = config("two_players")
    assert RS.parse_params(base, {"foggy": False, "zone_radius_in": 8}) == {"foggy": False, "zone_radius_in": 8.0}
    assert registry.with_params(base, {"graveyard": False}).graveyard is False
    with pytest.raises(ValueError, match=r"^p: extraction = 'mostly'; allowed: partly, wholly$"):
        RS.parse_params(base, {"extraction": "mostly"}, "p")


def test_the_a1_reading_adds_n_where_the_seed_says_players():
    cfg = config("three_players")
    assert cfg.bonus == (3, 3)
    assert replace(cfg, players_bonus="zombie_counts").bonus == (0, 3)
    assert replace(cfg, players_bonus="none").bonus == (0, 0)


def test_sizes_come_from_the_armies():
    cfg = config("four_players")
    s, tb = sizes(cfg), compile_tables(cfg)
    assert s == sizes_of(cfg, tb)
    assert s.units == sum(len(p.army.units) for p in cfg.players) and s.spawners == 4
    assert s.models >= max(tb.ut_wounds.astype(bool).sum(axis=1)) + cfg.n_players


def test_experiment_axes(tmp_path):
    base = config("four_players")
    axes = parse_axes({"points": [200, 800], "trait": ["none", "tenacity"], "player_count": [2],
                       "policy_all": ["stealth"], "foggy": [True, False]}, base, tmp_path)
    by_name = {a.name: a for a in axes}
    small = apply_axis(base, by_name["points"], 200)
    assert small.points_limit == 200 and all(army_cost(p.army) <= 200 for p in small.players)
    big = apply_axis(base, by_name["points"], 800)
    assert all(army_cost(p.army) > 600 for p in big.players)
    assert {p.trait for p in apply_axis(base, by_name["trait"], "tenacity").players} == {"tenacity"}
    assert apply_axis(base, by_name["player_count"], 2).n_players == 2
    assert {p.policy for p in apply_axis(base, by_name["policy_all"], POLICY_PRESETS["stealth"]).players} == {
        POLICY_PRESETS["stealth"]}
    per_player = parse_axes({"army": {"Goffs": ["ulthwe"]}, "warlord_trait": {"0": ["legendary_fighter"]}}, base,
                            tmp_path)
    changed = apply_axis(base, per_player[0], per_player[0].values[0])
    assert changed.players[2].army.name == "Ulthwe"


def test_the_points_players_axis_sets_both_and_labels_each_cell(tmp_path):
    base = config("four_players")
    (axis,) = parse_axes({"points_players": ["800x2", "400X4", [1200, 1]]}, base, tmp_path)
    cells = [apply_axis(base, axis, v) for v in axis.values]
    assert [(c.points_limit, c.n_players) for c in cells] == [(800, 2), (400, 4), (1200, 1)]
    assert all(army_cost(p.army) > 600 for p in cells[0].players)
    assert [p.name for p in cells[0].players] == [p.name for p in base.players[:2]]
    assert axis.labels == ("800 pts, 2 players", "400 pts, 4 players", "1200 pts, 1 player")
    for bad in ("800", "800x5", "20x2", "manyx2"):
        with pytest.raises(Exception, match=r"points_players.*allowed"):
            parse_axes({"points_players": [bad]}, base, tmp_path)


def test_report_sections_are_data_and_scale():
    sections = RS.report_sections(0.01)
    assert [s.key for s in sections] == ["policies", "points", "players", "grid", "traits", "missions",
                                         "sensitivity", "walkers", "transports"]
    assert all(s.games >= 10 for s in sections)
    assert {a for s in sections for a in s.analyses} == {"outcomes", "paired", "by_value", "sensitivity", "winnable",
                                                          "curve", "carry"}  # the cooperative verdict (issue 29)
    by_key = {s.key: s for s in sections}
    assert RS.report_sections(2.0)[0].games == 2 * RS.report_sections(1.0)[0].games  # games scale with --scale
    assert sum(s.games * _cells(s) for s in RS.report_sections(1.0)) < 60_000
    # The players win together: the paired and by-value sections speak of one side
    assert all(s.options.get("who") == "players" for s in sections if set(s.analyses) & {"paired", "by_value"})
    # Foggy shrouds the targets of shooting: its section plays a preset that shoots
    assert all(p.policy.shoot > 0 for p in by_key["missions"].base.players)
    assert list(by_key["grid"].axes) == ["points_players"]


def test_the_reports_first_section_starts_from_the_strongest_preset():
    """Every cell of the policies section names its preset (the spec's `staged` is its reference);
    its base, which "Under stronger play" tunes from, plays `stealth`, the strongest preset
    (issue 26; docs/apocalypse.md), like the sections that judge the game."""
    sections = {s.key: s for s in RS.report_sections(0.01)}
    stealth = RS.policy_presets()["stealth"]
    policies = sections["policies"]
    assert policies.options["reference"] == "staged" and "stealth" in policies.axes["policy_all"]
    for key in ("policies", "points", "players", "traits", "sensitivity"):
        assert {p.policy for p in sections[key].base.players} == {stealth}, key


def _cells(section) -> int:
    if section.key == "sensitivity":  # the default, then each plausible number low and high
        return 1 + 2 * sum(1 for p in RS.parameters() if p.plausible)
    n = 1
    for values in section.axes.values():
        for per_seat in values.values() if isinstance(values, dict) else [values]:  # a per-player axis
            n *= len(per_seat)
    return n
    assert list(RS.bench_configs())[0] == "four_players"


# ------------------------------------------------------------------ points_limit in [params] (§2)


def _four(params):
    return config_from_dict({"players": [{"name": p.name, "army": f"../armies/{a}.toml"} for p, a in zip(
        config("four_players").players, ("ultramarines", "cadians", "goffs", "black_legion"))], "params": params},
        "c.toml", EXAMPLES / "configs")


def test_points_limit_in_params_refits_the_armies_as_the_points_axis_does(tmp_path):
    base = config("four_players")
    (axis,) = parse_axes({"points": [800]}, base, tmp_path)
    by_axis = apply_axis(base, axis, 800)
    by_params = _four({"points_limit": 800})
    assert by_params.points_limit == 800
    assert [p.army for p in by_params.players] == [p.army for p in by_axis.players]
    assert all(600 < army_cost(p.army) <= 800 for p in by_params.players)
    assert _four({}).players == base.players  # no points_limit: the armies as listed


def test_fit_armies_false_keeps_the_armies_as_listed():
    capped = _four({"points_limit": 800, "fit_armies": False})
    assert [p.army for p in capped.players] == [p.army for p in config("four_players").players]


def test_a_parameter_set_refuses_points_limit_and_names_the_axis(tmp_path):
    base = config("four_players")
    with pytest.raises(ConfigError, match=r"^p: points_limit = 800: a parameter set cannot refit the armies "
                                          r"\(§2\); use the 'points' axis"):
        RS.parse_params(base, {"points_limit": 800}, "p")
    with pytest.raises(Exception, match="the 'points' axis"):
        parse_axes({"params": [{"points_limit": 800}]}, base, tmp_path)
    uncapped = replace(base, fit_armies=False)
    assert RS.parse_params(uncapped, {"points_limit": 800}) == {"points_limit": 800}


def test_the_terrain_numbers_are_played_by_sensitivity_only_on_a_table_with_ruins():
    from experiments.sensitivity import chosen_parameters

    terrain_numbers = {"terrain_pieces", "terrain_piece_radius_in", "terrain_cover"}
    base = config("four_players")
    assert not base.has_terrain and not terrain_numbers & {p.name for p, _ in chosen_parameters(base)}
    city = replace(base, terrain="city")
    assert city.has_terrain and terrain_numbers <= {p.name for p, _ in chosen_parameters(city)}
