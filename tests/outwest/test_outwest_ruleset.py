"""The Out West ruleset behind the seam: the registry finds it, every protocol member works,
configs read and refuse input with one-line errors, axes and report sections are well formed,
the trace tells and draws one game."""

from __future__ import annotations

import re
import tomllib
from dataclasses import fields
from pathlib import Path

import numpy as np
import pytest
from outwest_helpers import config, play
from typer.testing import CliRunner

from sim.ruleset import COMMON_COLUMNS, get, with_params
from sim.rulesets.outwest import RULESET
from sim.rulesets.outwest.config import (
    PARAM_FIELDS,
    POLICY_PRESETS,
    OutwestConfig,
    OutwestConfigError,
    Policy,
    policy_from,
)
from sim.rulesets.outwest.results import COLUMNS

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "outwest"
UNCONFIRMED = ("max_turns", "table_width_in", "posse_start_radius_in", "shoot_dice_citizen", "shoot_dice_legend",
               "band_point_blank_in", "band_close_in", "band_medium_in", "band_long_in", "band_extreme_in",
               "pistol_dice_point_blank", "pistol_dice_long", "rifle_dice_close", "rifle_dice_extreme", "hit_on",
               "aim_bonus", "blaze_bonus", "cover_penalty", "move_fire_penalty", "serious_wound_penalty",
               "out_of_ammo_ones", "jam_ones", "front_half_deg", "rear_half_deg", "knockout_wake_on",
               "horse_move_dice")


def test_the_registry_finds_the_ruleset():
    assert get("outwest") is RULESET
    assert RULESET.kernels_package == "outwest" and RULESET.end_reasons[0] == "held"
    assert set(RULESET.policy_help()) == {f.name for f in fields(Policy)}


def test_every_unconfirmed_number_is_a_chosen_parameter():
    params = {p.name: p for p in RULESET.parameters()}
    assert set(params) == set(PARAM_FIELDS)
    for name in UNCONFIRMED:
        assert params[name].tag == "C", name
    for p in params.values():
        assert p.tag in {"V", "I", "C", "mods", "scenario"} or re.fullmatch(r"W\d+", p.tag), p  # readings W1-W30
        assert p.spec and p.help
        if p.range is not None and p.is_numeric:
            assert p.range[0] <= p.default <= p.range[1], p.name
        if p.plausible is not None:
            assert p.range[0] <= p.plausible[0] <= p.plausible[1] <= p.range[1], p.name
        if p.choices and p.name != "mods":
            assert p.default in p.choices


def test_parameters_replace_and_validate():
    cfg = with_params(OutwestConfig(), {"max_turns": 12, "band_close_in": 7})
    assert cfg.max_turns == 12 and cfg.band_close_in == 7.0
    with pytest.raises(OutwestConfigError, match=r"^params: max_turns = 0; allowed: an integer 1-100$"):
        with_params(cfg, {"max_turns": 0})
    with pytest.raises(OutwestConfigError, match="did you mean 'max_turns'"):
        with_params(cfg, {"max_turn": 3})
    with pytest.raises(OutwestConfigError, match="range bands that do not shrink"):
        with_params(cfg, {"band_close_in": 30.0})
    with pytest.raises(OutwestConfigError, match="scenario = 'siege'; allowed: one of hold, escape, cleanup"):
        with_params(cfg, {"scenario": "siege"})


@pytest.mark.parametrize("path", sorted(p for p in EXAMPLES.glob("*.toml") if "base" not in p.read_text()),
                         ids=lambda p: p.stem)
def test_the_example_configs_read_and_play(path):
    data = tomllib.loads(path.read_text())
    assert data.pop("ruleset") == "outwest"
    cfg = RULESET.config_from_dict(data, str(path), path.parent)
    df, violations = play(cfg, 40, check=True)
    assert violations == 0 and len(df) == 40 * cfg.n_humans


def test_the_cleanup_example_reads_characters_and_policies():
    data = tomllib.loads((EXAMPLES / "cleanup.toml").read_text())
    cfg = RULESET.config_from_dict(data, "cleanup.toml")
    assert [p.name for p in cfg.players][0] == "Marshal Kane" and cfg.groups == (3, 3) and cfg.max_turns == 30
    assert cfg.players[3].policy == POLICY_PRESETS["brawlers"] and cfg.players[0].policy == POLICY_PRESETS[
        "gunfighters"]


@pytest.mark.parametrize("data,message", [
    ({"posse": "LSX"}, "posse = 'LSX'; allowed: 1-12 class letters"),
    ({"groups": [5, 7]}, "groups = [5, 7]; allowed: 1-12 group sizes, each 3-6"),
    ({"mods": ["plague"]}, "mod 'plague'; allowed: zombie_plague, zombie_gunslingers"),
    ({"players": [{"name": "A", "class": "sheriff"}]}, "class = 'sheriff'; allowed: citizen"),
    ({"players": [{"name": "A", "guns": ["laser"]}]}, "guns = ['laser']; allowed: at most two of pistol"),
    ({"policy": {"blaze_min": -1}}, "blaze_min = -1; allowed: an integer 0-50"),
    ({"policy": "cowboy"}, "policy = 'cowboy'; allowed: stand_and_shoot"),
    ({"turns": 3}, "unknown field 'turns'"),
    ({"scenario": "escape", "posse": "GG", "escape_needed": 3}, "escape_needed = 3; allowed: 1-2"),
    ({"players": [{"name": "A"}, {"name": "A"}]}, "the name 'A' is used twice"),
])
def test_bad_configs_are_one_line_errors_naming_the_field(data, message):
    with pytest.raises(OutwestConfigError) as err:
        RULESET.config_from_dict(data, "bad.toml")
    text = str(err.value)
    assert "\n" not in text and text.startswith("bad.toml") and message in text


def test_policies_are_numbers_with_presets():
    assert {"stand_and_shoot", "fighting_retreat", "rescue_everyone"} <= set(RULESET.policy_presets())
    for f in fields(Policy):
        assert isinstance(f.default, int | float) and not isinstance(f.default, bool)
    pol = policy_from({"preset": "fighting_retreat", "keep_away_in": 5}, "x")
    assert pol.retreat_in == POLICY_PRESETS["fighting_retreat"].retreat_in and pol.keep_away_in == 5.0
    assert len(Policy().row()) == len(fields(Policy))


def test_example_configs_by_size_and_mods():
    assert RULESET.example_config().n_humans == 5
    assert RULESET.example_config(8).n_humans == 8
    cfg = RULESET.with_mods(OutwestConfig(), ["zombie-plague"])
    assert cfg.zombie_plague and not cfg.zombie_gunslingers and cfg.mods == {"zombie_plague"}
    both = RULESET.with_mods(cfg, ["zombie_gunslingers"])
    assert both.mods == {"zombie_plague", "zombie_gunslingers"}  # --mod adds to the config's mods
    assert set(RULESET.mods()) == {"zombie_plague", "zombie_gunslingers"}


@pytest.mark.parametrize("axis,value,check", [
    ("posse_size", 3, lambda c: [p.cls for p in c.players] == ["legend", "shootist", "gunman"]),
    ("class_mix", "llgg", lambda c: [p.cls for p in c.players] == ["legend"] * 2 + ["gunman"] * 2),
    ("weapon_mix", "shotguns", lambda c: all(g in ("pistol", "shotgun") for p in c.players for g in p.guns)),
    ("weapon_mix", "rifles", lambda c: c.players[4].guns == ("rifle",)),
    ("zombie_groups", 6, lambda c: c.groups == (5,) * 6),
    ("zombie_groups", [3, 6], lambda c: c.groups == (3, 6)),
    ("group_size", 3, lambda c: c.groups == (3,) * 4),
    ("advanced", "both", lambda c: c.zombie_plague and c.zombie_gunslingers),
    ("mods", ["zombie_gunslingers"], lambda c: c.mods == {"zombie_gunslingers"}),
    ("mods", [], lambda c: c.mods == frozenset()),
    ("posse_policy", "rescue_everyone", lambda c: all(p.policy == POLICY_PRESETS["rescue_everyone"]
                                                      for p in c.players)),
])
def test_axes_parse_apply_and_label(axis, value, check):
    kind = RULESET.axes()[axis]
    base = OutwestConfig()
    parsed = kind.parse(value, base, None, None)
    cfg = kind.apply(base, parsed, None)
    assert check(cfg) and kind.label(parsed) and kind.label(value) == kind.label(parsed)
    RULESET.compile(cfg)


def test_report_sections_are_well_formed():
    sections = RULESET.report_sections(0.1)
    from experiments.analyses import ANALYSES

    assert {a for s in sections for a in s.analyses} == {"by_value", "outcomes", "paired", "sensitivity", "winnable",
                                                          "curve", "carry"}  # the cooperative verdict (issue 29)
    assert all(a in ANALYSES for s in sections for a in s.analyses)
    from experiments.experiment import Experiment, parse_axis

    for s in sections:
        assert s.games >= 10 and s.key.isidentifier()
        axes = tuple(parse_axis(name, values, s.base, EXAMPLES) for name, values in s.axes.items())
        cells = Experiment(s.key, s.base, s.games, s.seed, axes).cells()
        for cell in cells:
            RULESET.compile(cell.config)
        if "paired" in s.analyses:
            assert s.options["reference"] in [label for a in axes for label in a.labels]
            assert set(s.options["titles"]) == {label for a in axes for label in a.labels}


def test_results_of_nothing_have_the_columns():
    df = RULESET.results(OutwestConfig(), None, 0, np.zeros(0, np.int64))
    assert tuple(df.columns) == COLUMNS and tuple(df.columns[:9]) == COMMON_COLUMNS and len(df) == 0


def test_bench_and_cli():
    assert list(RULESET.bench_configs().values())[0] == OutwestConfig()
    result = CliRunner().invoke(RULESET.cli(), ["odds", "--class", "legend", "--plague"])
    assert result.exit_code == 0 and "musketoon" in result.output and "risen" in result.output


def test_trace_tells_and_draws_one_game(tmp_path):
    cfg = config(zombie_plague=True)
    tables = RULESET.compile(cfg)
    state = RULESET.new_state(cfg, tables, 1, trace_events=20_000)
    rng = np.empty(1, np.uint64)
    RULESET.play_batch(state, tables, np.uint64(4), np.int64(2), False, rng)
    events = RULESET.events(state)
    result = RULESET.results(cfg, state, 2, np.array([1]))
    lines, paths = RULESET.trace(cfg, events, result, tmp_path)
    assert len(events) < 20_000 and lines[0].startswith("Zombies Out West")
    assert any(line.startswith("== turn 1") for line in lines) and any("the game ends" in line for line in lines)
    assert any("'s card" in line for line in lines) and any("zombie group" in line for line in lines)
    assert [p.name for p in paths[-2:]] == ["game.gif", "contact_sheet.png"]  # after turn_NN.png per turn
    assert paths[0].name == "turn_01.png" and all(p.stat().st_size > 10_000 for p in paths)
    untraced = RULESET.new_state(cfg, tables, 3)
    RULESET.play_batch(untraced, tables, np.uint64(4), np.int64(0), False, np.empty(3, np.uint64))
    assert RULESET.events(untraced).shape[0] == 0


@pytest.mark.slow
def test_the_out_west_part_of_the_report_plays_and_writes(tmp_path):
    """Every section end to end at a tiny scale (at least 10 games a cell), through the shared
    report: tables, charts, sentences, no nan."""
    from experiments.report import run_report

    folder = run_report("tiny", tmp_path, scale=0.002, rulesets=["outwest"])
    readme = (folder / "README.md").read_text()
    for s in RULESET.report_sections(1.0):
        assert s.title in readme
    assert not re.search(r"\bnan\b", readme, re.I)
    assert len(list(folder.glob("outwest_*.png"))) >= 5
