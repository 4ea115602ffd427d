"""The ruleset behind the seam: what the shared layers call (sim.ruleset.Ruleset)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from experiments.analyses import ANALYSES  # the analyses the report knows
from sim import ruleset as registry
from sim.rulesets.zombies9.config import PRESETS, ConfigError, Policy, Zombies9Config, default_config
from sim.rulesets.zombies9.results import COLUMNS

RS = registry.get("zombies9")


def test_discovered_and_complete():
    assert "zombies9" in registry.ids()
    from kernels.jit import package_of
    from kernels.zombies9 import turn

    assert RS.kernels_package == package_of(turn.__file__) == "zombies9"  # its compiled-code cache folder
    assert set(RS.play_columns) <= set(COLUMNS) and RS.description
    assert set(RS.end_reasons) == {"helipad", "kills", "crematorium", "cemeteries", "timeout"}
    assert RS.example_config(6).n_players == 6 and RS.example_config().n_players == 4
    assert default_config(4).ruleset == "zombies9"


def test_parameters_describe_every_field():
    params = RS.parameters()
    names = [p.name for p in params]
    assert len(names) == len(set(names))
    config = default_config(4)
    for p in params:
        if p.name.startswith("policy_"):
            assert getattr(config.players[0].policy, p.name[7:]) == p.default
            assert p.tag == "policy"
            continue
        assert getattr(config, p.name) == p.default, p.name
        assert p.tag in {"V", "C", "mode", "data", "option", "sim"} or p.tag.startswith("D"), (p.name, p.tag)
        if p.tag == "C" and p.name not in {"first_player", "kid_first", "butter_bullets_lost"}:
            assert p.plausible is not None, p.name  # sensitivity plays it
    tags = {p.name: p.tag for p in params}
    assert tags["kills_to_win"] == "V" and tags["dog_kill"] == "C" and tags["helipad_position"] == "D1"


@pytest.mark.parametrize("p", [p for p in registry.get("zombies9").parameters() if p.tag == "C"],
                         ids=lambda p: p.name)
def test_sensitivity_values_are_valid_configs(p):
    """Every [fan]/[default] number at its plausible low and high (or x0.5 / x1.5) compiles."""
    assert p.plausible is not None or p.name in {"first_player", "kid_first", "butter_bullets_lost"}
    for value in p.plausible or ():
        enable = {k: list(v) for k, v in p.enable.items()}
        RS.compile(RS.with_params(default_config(4, mode="mixed"), {**enable, p.name: value}))


def test_mods_switch_the_optional_rules():
    assert set(RS.mods()) == {"kids", "dogs", "any_door", "two_dice", "no_cards", "first_edition"}
    config = RS.with_mods(default_config(4, mode="mixed"), ["kids", "no-cards"])
    assert config.mods == {"kids", "no_cards"}
    tables = RS.compile(config)
    from kernels.zombies9 import layout as L

    assert tables.prm[L.P_KIDS_RULE] == 1 and tables.deck.shape[0] == 0
    with pytest.raises(ConfigError, match="allowed: kids"):
        RS.with_mods(config, ["zombie_bears"])
    assert registry.with_params(config, {"mods": ["dogs"]}).mods == {"kids", "no_cards", "dogs"}


def test_parse_params_gives_fields_for_replace():
    config = default_config(4)
    assert RS.parse_params(config, {"mode": "mixed", "dog_damage": 1}) == {"mode": "mixed", "dog_damage": 1.0}
    changed = RS.parse_params(config, {"policy_threat_turns": 3})
    assert set(changed) == {"players"} and {p.policy.threat_turns for p in changed["players"]} == {3.0}
    with pytest.raises(ConfigError, match="value: mode = 'solo'"):
        RS.parse_params(config, {"mode": "solo"}, "value")
    assert set(RS.policy_help()) == {f.name for f in dataclasses.fields(Policy)}


def test_shared_axes_drive_the_configs(tmp_path):
    """The experiments' own axes (players, policy, params, any parameter) on zombies9 configs."""
    from experiments.experiment import apply_axis, parse_axes

    base = RS.with_params(default_config(4), {"policy_threat_turns": 3})
    axes = parse_axes({"players": [2, 6], "mode": ["base", "alone"],
                       "policy": {"Ann": ["runner", {"preset": "hunter", "farm_kills": 3}]}}, base, tmp_path)
    by_name = {a.name: a for a in axes}
    six = apply_axis(base, by_name["players"], by_name["players"].values[1])
    assert six.n_players == 6
    alone = apply_axis(base, by_name["mode"], "alone")
    assert alone.mode == "alone"
    pol = by_name["policy.Ann"]
    assert apply_axis(base, pol, pol.values[0]).players[0].policy == PRESETS["runner"]
    assert apply_axis(base, pol, pol.values[1]).players[0].policy.farm_kills == 3


def test_report_sections_are_playable_data():
    sections = RS.report_sections(0.01)
    assert len({s.key for s in sections}) == len(sections)
    params = {p.name for p in RS.parameters()}
    for s in sections:
        assert set(s.analyses) <= set(ANALYSES) and s.games >= 10
        assert isinstance(s.base, Zombies9Config)
        RS.compile(s.base)
        for axis, values in s.axes.items():
            assert axis in params or axis in ("players", "policy"), axis
            if axis in params:
                for v in values:
                    RS.compile(RS.with_params(s.base, {axis: v}))
        if "by_value" in s.analyses:
            assert s.options["axis"] in s.axes
        if "matchups" in s.analyses:
            assert s.options["axes"] == tuple(f"policy.{name}" for name in s.axes["policy"])
    assert any("seats" in s.title for s in sections)


def test_bench_configs_compile():
    configs = RS.bench_configs()
    assert any(c.n_players == 4 and c.mode == "base" for c in configs.values())
    for c in configs.values():
        RS.compile(c)


def test_results_columns_and_empty_frame():
    config = default_config(3)
    empty = RS.results(config, None, 0, np.zeros(0, np.int64))
    assert list(empty.columns) == list(COLUMNS) and len(empty) == 0
    tables = RS.compile(config)
    st = RS.new_state(config, tables, 4)
    RS.play_batch(st, tables, np.uint64(1), np.int64(10), False, np.zeros(4, np.uint64))
    df = RS.results(config, st, 10, np.arange(4))
    assert list(df.columns) == list(COLUMNS) and len(df) == 12
    assert list(df["game"].unique()) == [10, 11, 12, 13] and list(df["dice"][::3]) == [0, 1, 2, 3]
    assert (df.groupby("game")["won"].sum() <= 1).all()
    head = RS.head(st, 2)
    assert head.res.shape[0] == 2 and head.w_grid is st.w_grid


def test_trace_tells_the_game_and_draws_the_map(tmp_path):
    config = default_config(3, mode="mixed")
    tables = RS.compile(config)
    st = RS.new_state(config, tables, 1, trace_events=30_000)
    rng = np.zeros(1, np.uint64)
    RS.play_batch(st, tables, np.uint64(8), np.int64(2), False, rng)
    df = RS.results(config, st, 2, np.zeros(1, np.int64))
    lines, paths = RS.trace(config, RS.events(st), df, tmp_path)
    assert lines[0].endswith("plays first") and any(line.startswith("Round 1, turn 1") for line in lines)
    assert any("lays the" in line for line in lines)
    last = lines[-1]
    assert "WINS" in last or "no winner" in last
    assert [p.name for p in paths[-2:]] == ["game.gif", "contact_sheet.png"]  # after turn_NN.png per round
    assert paths[0].name == "turn_01.png" and all(p.stat().st_size > 10_000 for p in paths)
    assert RS.trace(config, RS.events(st), df, None)[1] == []


def test_odds_command():
    from typer.testing import CliRunner

    runner = CliRunner()
    out = runner.invoke(RS.cli(), ["odds", "--bullets", "1", "--life", "1"])
    assert out.exit_code == 0 and "win 0.6667 (2/3)" in out.output
    table = runner.invoke(RS.cli(), ["odds"])
    assert table.exit_code == 0 and "0.500" in table.output  # 1 life, no bullets


def test_configs_hash_for_cell_keys():
    a, b = default_config(4), default_config(4)
    assert a == b and hash(a) == hash(b)
    assert dataclasses.replace(a, mode="mixed") != a
