"""Zombie Apocalypse's prices for `shamble rebalance` (sim/rulesets/apocalypse/pricing.py): the
prices of the example armies, the refit of every army to the points limit under the Force
Organisation chart at any legal price, the rate column (the Warlord alive at the end), and a
tiny rebalance end to end (search and validation on few games: FAILED or PASSED as the games say,
with its exit code and files).
"""

from __future__ import annotations

import json
import tomllib
from fractions import Fraction
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from experiments import rebalance as rb
from experiments import rebalance_evaluations as rb_evaluations
from experiments import rebalance_game as rb_game
from experiments import rebalance_patch as rb_patch
from experiments.cli import app
from experiments.sweep import run_cell
from sim.ruleset import get, pricing_of
from sim.rulesets.apocalypse import pricing as ap
from sim.rulesets.apocalypse.armies import Army, UnitChoice, army_cost, check_army, load_army
from sim.rulesets.apocalypse.catalogue import catalogue, slots
from sim.rulesets.apocalypse.compile import compile_tables
from sim.rulesets.apocalypse.config import POLICY_PRESETS, ConfigError, load_config

ROOT = Path(__file__).resolve().parents[2]
FOUR = ROOT / "examples" / "apocalypse" / "configs" / "four_players.toml"
MAIN = {"Black Legion": "Chaos Space Marine", "Cadians": "Guardsman", "Goffs": "Ork Boy",
        "Librarius": "Tactical Marine", "Tau Sept": "Fire Warrior", "Ulthwe": "Dire Avenger",
        "Ultramarines": "Tactical Marine"}  # each example army's Troops datasheet with the most models


@pytest.fixture(scope="module")
def base():
    return load_config(FOUR)


@pytest.fixture(scope="module")
def per_model(base):
    return rb_game.rebalance_game(base, "per-model")


@pytest.fixture(scope="module")
def multiplier(base):
    return rb_game.rebalance_game(base, "multiplier")


def _models(army: Army, unit: str) -> int:
    table = slots(catalogue())
    return sum(u.models or table[u.unit].min_models for u in army.units if catalogue().unit(u.unit).name == unit)


# ---------------------------------------------------------------------------- the prices


def test_apocalypse_has_prices_through_the_seam():
    pricing = pricing_of(get("apocalypse"))
    assert pricing is ap.PRICING and list(pricing.modes) == ["per-model", "multiplier"]
    assert pricing.side == "army" and pricing.rate == "warlord=alive" and pricing.game is ap.game


def test_per_model_prices_are_the_main_units_of_the_example_armies(per_model):
    cat = catalogue()
    sides = {p.key: set(p.sides) for p in per_model.prices}
    expected: dict[str, set] = {}
    for army, unit in MAIN.items():
        expected.setdefault(unit, set()).add(army)
    assert sides == expected  # the Tactical Marine is one price of Ultramarines and Librarius
    for p in per_model.prices:
        entry = cat.unit(p.key)
        assert p.value == entry.cost_per_model and p.step == Fraction(1, entry.block_models)
        assert p.low == p.step * -(-(entry.cost_per_model / 3) // p.step)  # cost / 3, up to the grid
        assert p.high == entry.cost_per_model * 3 and p.what == "points per model"
    assert {p.key: p.step for p in per_model.prices}["Tactical Marine"] == Fraction(1, 5)  # sold 5 for 70


def test_multiplier_prices_one_factor_per_army(multiplier):
    assert [p.key for p in multiplier.prices] == sorted(MAIN)
    for p in multiplier.prices:
        assert (p.value, p.step, p.low, p.high, p.sides) == (1, Fraction(1, 100), Fraction(1, 2), 2, (p.key,))


def test_main_unit_rules():
    cat = catalogue()
    ulthwe = load_army(ROOT / "examples" / "apocalypse" / "armies" / "ulthwe.toml")
    assert ap.main_unit(ulthwe, cat) == "Dire Avenger"  # 10 Dire Avengers and 10 Guardians: the first listed
    bigger = Army("x", "Craftworld Eldar", (UnitChoice("Autarch"), UnitChoice("Dire Avenger", 5),
                                            UnitChoice("Guardian", 12)))
    assert ap.main_unit(bigger, cat) == "Guardian"
    no_troops = Army("y", "Craftworld Eldar", (UnitChoice("Autarch"), UnitChoice("Fire Dragon", 5)))
    assert ap.main_unit(no_troops, cat) == "Fire Dragon"
    assert ap.main_unit(Army("z", "Craftworld Eldar", (UnitChoice("Autarch"),)), cat) == "Autarch"


# ---------------------------------------------------------------------------- the default game


def test_default_game_rotates_every_example_army_through_every_seat(per_model, base):
    spec = ap.game(base)
    assert spec.base.players[0].policy == POLICY_PRESETS["stealth"] and spec.analyses == ("sides", "seats")
    assert list(spec.axes) == ["lineup"] and spec.axes["lineup"][0] == ["black_legion", "cadians", "goffs", "librarius"]
    assert (spec.games, spec.options["search_games"], spec.options["search_budget"]) == (ap.GAMES, ap.GAMES, ap.BUDGET)
    cells = per_model.cells
    armies = sorted(MAIN)
    assert len(cells) == len(armies)
    assert [c.coords for c in cells][:2] == [(("lineup", "black_legion+cadians+goffs+librarius"),),
                                             (("lineup", "cadians+goffs+librarius+sept"),)]
    seats = [[p.army.name for p in c.config.players] for c in cells]
    for s in range(base.n_players):
        assert sorted(row[s] for row in seats) == armies  # each army once in every seat
    for c in cells:
        assert c.config.points_limit == 400 and c.config.foggy == base.foggy
        for p in c.config.players:
            assert p.name == p.army.name and p.policy == POLICY_PRESETS["stealth"]
            check_army(p.army, 400)
        assert ap.apply(c.config, "per-model", {}) == c.config  # refitted to the limit already


def test_start_prices_play_the_default_game_unchanged(per_model, multiplier):
    for game in (per_model, multiplier):
        for cell in game.cells:
            assert game.priced(cell, game.start) == cell.config


# ---------------------------------------------------------------------------- apply


def _grid(price) -> list[Fraction]:
    """The lowest and highest legal values and four between them, on the price's steps."""
    span = (price.high - price.low) / price.step
    return sorted({price.low + price.step * round(span * f) for f in (0, 0.1, 0.3, 0.6, 0.85, 1)})


def test_every_legal_price_refits_every_army_to_the_budget_under_the_force_organisation(per_model):
    cat = catalogue()
    seen = set()
    for price in per_model.prices:
        for value in _grid(price):
            priced_cat = ap.priced_catalogue({price.key: value})
            for cell in per_model.cells:
                before = {p.army.name: p.army for p in cell.config.players}
                config = per_model.priced(cell, per_model.start | {price.key: value})
                fielded = any(price.key == cat.unit(u.unit).name for p in cell.config.players for u in p.army.units)
                assert config.unit_costs == (((price.key, str(value)),) if value != price.value and fielded else ())
                assert config.points_limit == 400 and config.army_cost_factors == ()
                for p in config.players:
                    check_army(p.army, 400, priced_cat)  # Force Organisation, sizes, points at the new price
                    if p.army.name in price.sides:
                        assert army_cost(p.army, priced_cat) <= 400
                        if value < price.value:  # cheaper: nothing is dropped, the main unit never shrinks
                            assert _models(p.army, price.key) >= _models(before[p.army.name], price.key)
                        seen.add((p.army.name, value < price.value, p.army != before[p.army.name]))
                    else:
                        assert p.army == before[p.army.name]  # a price of another army changes nothing
                patch = rb_patch.Patch("apocalypse", "per-model", {price.key: value}, {})
                assert rb_patch.apply_patch(cell.config, patch) == config  # that one price plays the same config
    assert ("Goffs", True, True) in seen and ("Goffs", False, True) in seen  # the refit does move models


def test_priced_configs_compile(per_model, multiplier):
    cell = per_model.cells[0]
    for price in per_model.prices:
        for value in (price.low, price.high):
            compile_tables(per_model.priced(cell, per_model.start | {price.key: value}))
    for factor in (Fraction(1, 2), Fraction(2)):
        compile_tables(multiplier.priced(cell, {p.key: factor for p in multiplier.prices}))


def test_a_multiplier_refits_the_army_to_the_budget_over_its_factor(multiplier):
    cat = catalogue()
    for factor in (Fraction(1, 2), Fraction(77, 100), Fraction(13, 10), Fraction(2)):
        for cell in multiplier.cells[:3]:
            config = multiplier.priced(cell, {p.army.name: factor for p in cell.config.players})
            assert config.points_limit == 400
            assert config.army_cost_factors == (() if factor == 1 else tuple(sorted(
                (p.army.name, str(factor)) for p in cell.config.players)))
            for p, old in zip(config.players, cell.config.players):
                cost = army_cost(p.army, cat)
                assert cost * factor <= 400
                check_army(p.army, Fraction(400) / factor, cat)
                assert (cost >= army_cost(old.army, cat)) if factor < 1 else (cost <= army_cost(old.army, cat))
    cheap = multiplier.priced(multiplier.cells[0], {"Goffs": Fraction(1, 2)})
    assert cheap.points_limit == 400 and cheap.army_cost_factors == (("Goffs", "1/2"),)
    assert ap.describe(cheap, "multiplier", "Goffs").endswith(" points x 1/2")
    assert ap.describe(multiplier.cells[0].config, "multiplier", "Goffs").endswith(" points")


def test_prices_apply_errors_are_one_line(base):
    with pytest.raises(ConfigError, match=r"^--mode 'tiles'; allowed: per-model, multiplier$"):
        ap.apply(base, "tiles", {})
    with pytest.raises(ConfigError, match="^--mode"):
        ap.prices(base, "tiles")


# ---------------------------------------------------------------------------- the rate


def test_rate_of_reads_a_boolean_column_or_a_column_of_words():
    rows = pd.DataFrame({"won": [True, False, True], "warlord": ["alive", "killed", "brute"]})
    assert rb_game.rate_of(rows, "won").tolist() == [True, False, True]
    assert rb_game.rate_of(rows, "warlord=alive").tolist() == [True, False, False]
    with pytest.raises(rb_game.RebalanceError, match="^rate 'extracted': the results have no column 'extracted'$"):
        rb_game.rate_of(rows, "extracted")


def test_the_evaluator_counts_warlords_alive_per_army(per_model):
    games, seed = 40, 7
    evaluate = rb_evaluations.Evaluator(per_model, seed, games, 0.03)
    result = evaluate(per_model.start)
    rows = pd.concat([run_cell(c.config, games, seed) for c in per_model.cells])
    alive = rows.assign(alive=rows.warlord.eq("alive")).groupby("army").alive.agg(["sum", "size"])
    assert result.table.wins.sort_index().tolist() == alive["sum"].sort_index().tolist()
    assert result.table.games.sort_index().tolist() == alive["size"].sort_index().tolist()
    assert set(result.table.index) == set(MAIN) and result.played == games * len(per_model.cells)


# ---------------------------------------------------------------------------- end to end


def _rebalance(tmp_path: Path, *args: str):
    out = tmp_path / "r"
    result = CliRunner().invoke(app, ["rebalance", str(FOUR), "--out", str(out), "--games", "20",
                                      "--iterations", "2", "--budget", "300", *args])
    return result, out


def test_a_tiny_rebalance_fails_honestly_on_a_narrow_margin(tmp_path):
    """±1 point on 20 games per cell (80 to validate): no side can be shown within it."""
    result, out = _rebalance(tmp_path, "--margin", "0.01")
    assert result.exit_code == rb.FAILED, result.output
    assert "FAILED:" in result.output and "PASSED" not in result.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["ruleset"] == "apocalypse" and summary["status"] == "FAILED" and not summary["passed"]
    assert summary["rate"] == "warlord=alive" and summary["validation"]["games_per_cell"] == 80
    patch = tomllib.loads((out / "proposal.toml").read_text())
    assert patch["ruleset"] == "apocalypse" and patch["mode"] == "per-model" and patch["validated"] is False
    for name in ("before_after.csv", "matchups_before.csv", "matchups_after.csv", "search.csv", "search_prices.csv",
                 "search.png", "search.svg", "meta.json"):
        assert (out / name).is_file(), name
    table = pd.read_csv(out / "before_after.csv")
    assert sorted(table.side) == sorted(MAIN) and (table.games == 80 * 4).all()  # 4 of the 7 lineups seat each
    assert (table.within_after != "yes").any()


def test_a_tiny_rebalance_passes_a_wide_margin_without_a_change(tmp_path):
    """±30 points around rates of a few percent: every army is within it at the start prices."""
    result, out = _rebalance(tmp_path, "--margin", "0.3", "--mode", "multiplier")
    assert result.exit_code == 0, result.output
    assert "PASSED: with no change" in result.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["passed"] and summary["changes"] == [] and summary["candidates"] == 1
    assert summary["mode"] == "multiplier" and summary["stop"] == "converged"
    assert "Warlord-alive rate" in result.output
    patch = rb_patch.load_patch(out / "proposal.toml")
    assert patch.values == {} and patch.validated is True
