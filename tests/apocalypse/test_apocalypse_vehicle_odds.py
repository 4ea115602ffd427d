"""`shamble apocalypse odds ATTACKER --target VEHICLE`: the attack the rules describe, and its odds.

Every expected number is worked out here by hand from the rules (V1-V9, apocalypse §4-§5), never
read from the code under test; the kernels' side (`--simulate`) is held to the exact odds by a
z-score: |z| < 4.5 over 20,000 games at a fixed seed (a two-sided chance of about 7e-6 for a
correct kernel), while a wrong rule moves the means by many standard errors.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from experiments.cli import app
from sim.rulesets.apocalypse.odds import build_vehicle_attack, vehicle_odds_report

RUNNER = CliRunner()


def test_a_krak_grenade_strikes_a_rhinos_rear_once_a_model_and_hits_a_stationary_one_automatically():
    """V7: close combat strikes a non-walker's rear, automatic hits if it did not move; V8: one
    grenade attack a model; krak S6 AP4 against Armour 10: D6 + 6 equal 10 (a 4) glances, 5-6 penetrate."""
    r = vehicle_odds_report("Tactical Marine", "Rhino", weapon="Krak grenade", models=5, melee=True)
    assert (r["facing"], r["armour"], r["n_dice"], r["hit_on"], r["strength"], r["ap"]) == ("rear", 10, 5, 1, 6, 4)
    assert r["p_glancing"] == pytest.approx(1 / 6) and r["p_penetrating"] == pytest.approx(2 / 6)


@pytest.mark.parametrize(("moved", "hit_on"), [("stationary", 1), ("combat", 4), ("fast", 6)])
def test_close_combat_hits_on_a_vehicle_depend_on_its_last_move(moved, hit_on):
    """V7 (auto_4_6): did not move automatic, up to 6" a 4+, more a 6+."""
    attack = build_vehicle_attack("Tactical Marine", "Rhino", weapon="Krak grenade", melee=True, vehicle_moved=moved)
    assert attack.hit_on == hit_on


def test_a_horde_strikes_with_its_hordes_bonus_and_no_charge_attack():
    """Apocalypse §4: a Zombie is S2 A2; §5 Hordes: +1 S a full ten (30: +3); Zombie!: never the +1
    Attack for charging, so 30 zombies roll 60 dice charged or not."""
    for charge in (False, True):
        attack = build_vehicle_attack("Zombie", "Rhino", models=30, melee=True, charge=charge)
        assert (attack.n_dice, attack.strength, attack.armour) == (60, 5, 10)
    assert build_vehicle_attack("Zombie", "Rhino", models=29, melee=True).strength == 4


def test_a_walker_is_struck_on_its_front_and_dull_witted_zombies_hit_it_only_on_a_six():
    """V7: a Walker fights as a model, struck on its front; §5 Dull Witted: WS2 against a higher WS
    hits only on a 6. A WS4 Marine against the WS4 Dreadnought: 4+ (core §7.3)."""
    zombies = build_vehicle_attack("Zombie", "Dreadnought", models=10, melee=True)
    assert (zombies.hit_on, zombies.armour) == (6, 12)
    marine = build_vehicle_attack("Tactical Marine", "Dreadnought", weapon="Krak grenade", melee=True)
    assert marine.hit_on == 4


def test_a_lascannon_at_a_dreadnoughts_front():
    """BS4 hits on 3+; S9 + D6 against Armour 12: a 3 glances, 4-6 penetrate."""
    r = vehicle_odds_report("Devastator Marine", "Dreadnought", weapon="Lascannon")
    assert r["hit_on"] == 3 and r["n_dice"] == 1
    assert Fraction(r["p_glancing"]).limit_denominator(100) == Fraction(2, 3) * Fraction(1, 6)
    assert Fraction(r["p_penetrating"]).limit_denominator(100) == Fraction(2, 3) * Fraction(1, 2)
    assert r["hull_points_removed"]["pmf"] == pytest.approx([1 - 4 / 9, 4 / 9])


def test_the_kernels_agree_with_the_exact_odds():
    r = vehicle_odds_report("Zombie", "Rhino", models=20, melee=True, vehicle_moved="combat", simulate=20_000, seed=3)
    sim = r["simulated"]
    assert abs(sim["hull_points_z"]) < 4.5 and abs(sim["p_wrecked_z"]) < 4.5
    assert 0.05 < r["p_wrecked"] < 0.95  # a case where both outcomes happen, so the check has power


@pytest.mark.parametrize(("args", "words"), [
    (["Zombie", "--target", "Tank"], "--target 'Tank': not a vehicle of the catalogue; allowed: "),
    (["Zombie", "--target", "Stormraven"], "--target 'Stormraven': a Flyer"),
    (["Tactical Marine", "--facing", "top"], "--facing 'top'; allowed: front, side, rear"),
    (["Zombie", "--melee", "--facing", "side"], "--facing: close combat strikes a vehicle's rear"),
    (["Zombie", "--melee", "--vehicle-moved", "flat"], "--vehicle-moved 'flat'; allowed: stationary, combat, fast"),
])
def test_bad_input_is_one_line(args, words):
    result = RUNNER.invoke(app, ["apocalypse", "odds", *args])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0]


def test_the_command_prints_the_report_as_json():
    result = RUNNER.invoke(app, ["apocalypse", "odds", "Zombie", "--models", "30", "--melee", "--json"])
    assert result.exit_code == 0
    got = json.loads(result.stdout)
    assert (got["n_dice"], got["strength"], got["facing"]) == (60, 5, "rear")
    assert sum(got["hull_points_removed"]["pmf"]) == pytest.approx(1)
