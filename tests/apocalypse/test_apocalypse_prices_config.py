"""Zombie Apocalypse prices as config fields (``unit_costs``, ``army_cost_factors``; §2): their
validation (one-line errors), the army check and the compile at them, the refit of a config
file's [params], the ``points`` and ``lineup`` axes at them, and a rebalance's proposal applied by
``shamble play --patch`` (the priced armies played, the prices shown).
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from experiments import rebalance as rb
from experiments import rebalance_game as rb_game
from experiments import rebalance_patch as rb_patch
from experiments.cli import app
from experiments.experiment import Experiment, parse_axes
from experiments.play_summary import run_play
from sim.ruleset import get
from sim.rulesets.apocalypse import pricing as ap
from sim.rulesets.apocalypse.armies import army_cost, check_army, load_army
from sim.rulesets.apocalypse.axes import with_lineup, with_points
from sim.rulesets.apocalypse.catalogue import catalogue, catalogue_at
from sim.rulesets.apocalypse.compile import compile_tables
from sim.rulesets.apocalypse.config import ConfigError, config_from_dict, load_config, make_config

ROOT = Path(__file__).resolve().parents[2]
FOUR = ROOT / "examples" / "apocalypse" / "configs" / "four_players.toml"


@pytest.fixture(scope="module")
def base():
    return load_config(FOUR)


def _error(players, params) -> str:
    with pytest.raises(ConfigError) as err:
        make_config(players, params, source="f.toml")
    text = str(err.value)
    assert "\n" not in text and text.startswith("f.toml: ")
    return text


def _boys(config, army: str = "Goffs") -> int:
    cat = catalogue()
    army_ = next(p.army for p in config.players if p.army.name == army)
    return sum(u.models or 1 for u in army_.units if cat.unit(u.unit).name == "Ork Boy")


# ---------------------------------------------------------------------------- validation


def test_price_tables_are_normalised_to_catalogue_names_and_exact_text(base):
    config = make_config(base.players, {"unit_costs": {"ork boy": 7, "Tactical Marine": "71/5"},
                                        "army_cost_factors": {"Goffs": 1.15}})
    assert config.unit_costs == (("Ork Boy", "7"), ("Tactical Marine", "71/5"))
    assert config.army_cost_factors == (("Goffs", "23/20"),)
    assert replace(config, unit_costs={"Guardsman": 4.5}).unit_costs == (("Guardsman", "9/2"),)  # sold 10 for 50
    assert base.unit_costs == () and base.army_cost_factors == ()


@pytest.mark.parametrize("params, words", [
    ({"unit_costs": {"Space Pony": 5}}, "unit_costs: "),
    ({"unit_costs": {"Ork Boy": 6.5}}, "unit_costs: Ork Boy = 13/2; allowed: a multiple of 1 above 0, at most 1000"),
    ({"unit_costs": {"Tactical Marine": "14.1"}}, "unit_costs: Tactical Marine = 141/10; allowed: sold 5 for a block, "
                                                  "a multiple of 1/5"),
    ({"unit_costs": {"Ork Boy": 1001}}, "unit_costs: Ork Boy = 1001; allowed:"),
    ({"unit_costs": {"Ork Boy": 0}}, "unit_costs: Ork Boy = 0; allowed: a table of unit = points per model"),
    ({"unit_costs": {"Ork Boy": True}}, "unit_costs: Ork Boy = True; allowed:"),
    ({"unit_costs": {"Ork Boy": "x"}}, "unit_costs: Ork Boy = 'x'; allowed:"),
    ({"unit_costs": [1, 2]}, "unit_costs = [1, 2]; allowed: a table of unit = points per model"),
    ({"unit_costs": {"Ork Boy": 7, "ork boy": 8}}, "name one unit (Ork Boy)"),
    ({"army_cost_factors": {"Goffs": 2.5}}, "army_cost_factors: Goffs = 5/2; allowed: a factor 1/2-2"),
    ({"army_cost_factors": {"Goffs": 0.49}}, "army_cost_factors: Goffs = 49/100; allowed: a factor 1/2-2"),
    ({"army_cost_factors": {"Tyranids": 1.1}}, "army_cost_factors: no player fields an army 'Tyranids'; allowed: "
                                               "Ultramarines, Cadians, Goffs, Black Legion"),
    ({"army_cost_factors": {"Goffs": -1}}, "army_cost_factors: Goffs = -1; allowed: a table of army = factor"),
])
def test_bad_price_tables_are_one_line_errors(base, params, words):
    assert words in _error(base.players, params)


def test_a_parameter_set_cannot_set_prices_while_the_armies_are_fitted(base):
    rs = get("apocalypse")
    with pytest.raises(ConfigError, match=r"^p: unit_costs = \{'Ork Boy': 5\}: a parameter set cannot refit"):
        rs.parse_params(base, {"unit_costs": {"Ork Boy": 5}}, "p")
    with pytest.raises(ConfigError, match="^p: army_cost_factors"):
        rs.parse_params(base, {"army_cost_factors": {"Goffs": 1.1}}, "p")
    loose = replace(base, fit_armies=False)
    assert rs.parse_params(loose, {"unit_costs": {"Ork Boy": 5}}, "p") == {"unit_costs": {"Ork Boy": 5}}


# ---------------------------------------------------------------------------- the army check and the compile


def test_the_army_check_and_the_compile_read_the_prices(base):
    assert army_cost(base.players[2].army) == 399  # the Goffs at catalogue prices
    dearer = replace(base, fit_armies=False, unit_costs=(("Ork Boy", "7"),))  # 30 Boyz: +30 points, no refit
    with pytest.raises(ConfigError, match=r"^players\[2\] \(Goffs\): .*§2 Points limit: the army costs 429 points; "
                                          r"allowed: up to 400$"):
        compile_tables(dearer)
    factor = replace(base, army_cost_factors=(("Goffs", "11/10"),))
    with pytest.raises(ConfigError, match=r"^players\[2\] \(Goffs\): army_cost_factors: Goffs = 11/10 \(limit 400\): "
                                          r".*the army costs 399 points; allowed: up to 363.64$"):
        compile_tables(factor)
    with pytest.raises(ConfigError, match=r"^f.toml: players\[2\]: army_cost_factors: Goffs = 11/10"):
        make_config(base.players, {"army_cost_factors": {"Goffs": 1.1}, "fit_armies": False}, source="f.toml")


def test_prices_that_buy_the_same_armies_compile_the_same_tables(base):
    """The compile reads, of the points, only the Warlord's printed ones (Legendary Fighter): a
    cheaper Ork Boy that buys the same models is the same game (a rebalance plays it once)."""
    same = replace(base, unit_costs=(("Ork Boy", "5"), ("Tactical Marine", "67/5")),
                   army_cost_factors=(("Cadians", "1/2"),))
    a, b = compile_tables(base), compile_tables(same)
    for name in a._fields:
        assert np.array_equal(getattr(a, name), getattr(b, name)), name


def test_a_config_file_with_prices_refits_its_armies_as_a_patch_does(base):
    data = tomllib.loads(FOUR.read_text())
    data["params"] = {"unit_costs": {"Ork Boy": 5}, "army_cost_factors": {"Cadians": 1.25}}
    from_file = config_from_dict(data, "f.toml", FOUR.parent)
    patched = ap.apply(ap.apply(base, "per-model", {"Ork Boy": Fraction(5)}), "multiplier",
                       {"Cadians": Fraction(5, 4)})
    assert from_file == patched
    assert _boys(from_file) > _boys(base)  # cheaper Boyz: more of them at 400 points
    cadians = from_file.players[1].army
    assert army_cost(cadians) * Fraction(5, 4) <= 400 < army_cost(base.players[1].army) * Fraction(5, 4)
    data["params"]["fit_armies"] = False  # as listed: the armies are only checked at the prices
    with pytest.raises(ConfigError, match=r"^f.toml: players\[1\]: army_cost_factors: Cadians = 5/4 \(limit 400\): "
                                          r".*costs 395 points; allowed: up to 320$"):
        config_from_dict(data, "f.toml", FOUR.parent)
    del data["params"]["army_cost_factors"]
    assert config_from_dict(data, "f.toml", FOUR.parent).players == base.players


# ---------------------------------------------------------------------------- the axes


def test_points_and_lineup_axes_refit_at_the_config_prices(base):
    cheap = ap.apply(base, "per-model", {"Ork Boy": Fraction(4)})
    for config in (with_points(cheap, 600), with_points(cheap, 400)):
        cat = catalogue_at(cheap.unit_costs)
        for p in config.players:
            check_army(p.army, config.points_limit, cat)
    assert _boys(with_points(cheap, 300)) > _boys(with_points(base, 300))  # 45 Boyz at 4 points, 30 at 6
    armies = [load_army(ap.ARMIES / f"{n}.toml") for n in ("goffs", "cadians", "sept", "ulthwe")]
    seated = with_lineup(cheap, tuple(armies))
    assert [p.name for p in seated.players] == ["Goffs", "Cadians", "Tau Sept", "Ulthwe"]
    assert [p.policy for p in seated.players] == [p.policy for p in base.players]  # policies stay with the seats
    assert _boys(seated) == _boys(cheap)  # the Goffs refitted at 4 points a Boy, wherever they sit
    factors = ap.apply(base, "multiplier", {"Goffs": Fraction(3, 2), "Cadians": Fraction(1, 2)})
    moved = with_lineup(factors, tuple(armies[:1] + armies[2:] + [armies[0]]))  # no Cadians here
    assert moved.army_cost_factors == (("Goffs", "3/2"),)  # a factor of an army not fielded is dropped
    assert army_cost(moved.players[0].army) * Fraction(3, 2) <= 400


def test_the_lineup_axis_parses_a_list_per_seat_and_refuses_anything_else(base):
    cells = Experiment("x", base, 1, 1, tuple(parse_axes({"lineup": [["goffs", "cadians", "sept", "ulthwe"],
                                                                     ["ulthwe", "sept", "cadians", "goffs"]]},
                                                         base, ROOT))).cells()
    assert [c.label for c in cells] == ["lineup=goffs+cadians+sept+ulthwe", "lineup=ulthwe+sept+cadians+goffs"]
    assert [p.army.name for p in cells[1].config.players] == ["Ulthwe", "Tau Sept", "Cadians", "Goffs"]
    for bad, words in ((["goffs", "cadians"], "allowed: a list of 4 armies"), ("goffs", "allowed: a list of 4"),
                       (["goffs", "cadians", "sept", "orcs"], "no army 'orcs'")):
        with pytest.raises(ValueError, match=words) as err:
            Experiment("x", base, 1, 1, tuple(parse_axes({"lineup": [bad]}, base, ROOT))).cells()
        assert "\n" not in str(err.value)


# ---------------------------------------------------------------------------- play --patch


def _proposal(tmp_path: Path, game: rb_game.Game, values: dict) -> Path:
    path = tmp_path / "proposal.toml"
    path.write_text(rb_patch.patch_text(game, game.start | values, rb_game.Settings(), None, str(FOUR)))
    return path


@pytest.mark.parametrize("mode, values, table", [
    ("per-model", {"Ork Boy": Fraction(4), "Dire Avenger": Fraction(10)}, {"unit_costs": [["Ork Boy", "4"]]}),
    ("multiplier", {"Goffs": Fraction(3, 2), "Ulthwe": Fraction(1, 2)}, {"army_cost_factors": [["Goffs", "3/2"]]}),
])
def test_play_patch_plays_the_priced_armies_and_shows_the_prices(base, tmp_path, mode, values, table):
    game = rb_game.rebalance_game(base, mode)
    path = _proposal(tmp_path, game, values)
    patch = rb_patch.load_patch(path)
    assert patch.values == values  # read back as prices (Dire Avenger, Ulthwe: no army here fields them)
    expected = rb_patch.apply_patch(base, patch)
    assert expected.points_limit == 400 and expected.players != base.players
    out = tmp_path / "rows.parquet"
    result = CliRunner().invoke(app, ["play", str(FOUR), "--patch", str(path), "-n", "24", "--json", "--out",
                                      str(out)])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["played"]["changed"] == table  # the prices, not a points_limit
    pd.testing.assert_frame_equal(pd.read_parquet(out), run_play(expected, 24, 1, show_progress=False),
                                  check_dtype=False)


def test_a_tiny_rebalance_proposal_applies_with_play_patch(tmp_path):
    """A proposal.toml written by `shamble rebalance` (multiplier: every change is an army's
    factor), read back and played by `shamble play --patch` on a config that fields the armies it
    changes: its factors are the config's, the armies refitted to them, the prices shown."""
    out = tmp_path / "r"
    result = CliRunner().invoke(app, ["rebalance", str(FOUR), "--out", str(out), "--games", "20", "--iterations",
                                      "2", "--budget", "300", "--margin", "0.005", "--mode", "multiplier"])
    assert result.exit_code in (0, rb.FAILED), result.output
    patch = rb_patch.load_patch(out / "proposal.toml")
    assert patch.values  # ±0.5 points on 20 games: the search moves some factor
    files = {load_army(path).name: path for path in sorted(ap.ARMIES.glob("*.toml"))}
    seats = (list(patch.values) + [n for n in files if n not in patch.values])[:4]
    config_file = tmp_path / "changed.toml"
    config_file.write_text('ruleset = "apocalypse"\n' + "".join(
        f'[[players]]\narmy = "{files[name]}"\npolicy = "stealth"\n' for name in seats))
    config = load_config(config_file)
    expected = {k: str(v) for k, v in patch.values.items() if k in seats}
    patched = rb_patch.apply_patch(config, patch)
    assert dict(patched.army_cost_factors) == expected and patched.points_limit == 400
    for p in patched.players:
        assert army_cost(p.army) * Fraction(expected.get(p.army.name, 1)) <= 400
    rows = tmp_path / "rows.csv"
    played = CliRunner().invoke(app, ["play", str(config_file), "--patch", str(out / "proposal.toml"), "-n", "10",
                                      "--json", "--out", str(rows)])
    assert played.exit_code == 0, played.output
    assert json.loads(played.stdout)["played"]["changed"] == {
        "army_cost_factors": [list(kv) for kv in sorted(expected.items())]}
    pd.testing.assert_frame_equal(pd.read_csv(rows), run_play(patched, 10, 1, show_progress=False)
                                  .reset_index(drop=True), check_dtype=False)
