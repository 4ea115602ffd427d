"""Zombie Apocalypse armies (zombie-apocalypse §2): the catalogue's data, every example army, and
the army check's one-line errors naming the rule."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from sim.rulesets.apocalypse.armies import (
    POINTS_LIMIT,
    Army,
    ArmyError,
    UnitChoice,
    army_cost,
    army_from_dict,
    build_army,
    check_army,
    fit_army,
    load_army,
)
from sim.rulesets.apocalypse.catalogue import SLOTS, catalogue, slots, vehicles

ARMIES = Path(__file__).resolve().parents[2] / "examples" / "apocalypse" / "armies"
EXAMPLES = sorted(ARMIES.glob("*.toml"))


def test_six_factions_have_hq_characters_and_elites_fast_attack_heavy_support():
    cat = catalogue()
    by_faction: dict[str, set[str]] = {}
    for slot in slots(cat).values():
        by_faction.setdefault(cat.unit(slot.unit).faction, set()).add(slot.slot)
        assert slot.source, slot.unit
        if slot.slot == "hq":
            assert slot.character == "independent", slot.unit
    full = [f for f, s in by_faction.items() if {"hq", "troops", "elites", "heavy_support"} <= s]
    assert len(full) >= 6, by_faction
    with_fast = [f for f in full if "fast_attack" in by_faction[f]]
    assert len(with_fast) >= 5  # the 2014 Astra Militarum codex has no infantry Fast Attack


def test_every_slot_is_a_known_force_organisation_slot():
    assert {s.slot for s in slots(catalogue()).values()} <= set(SLOTS)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_armies_pass_the_army_check(path):
    army = load_army(path)
    check_army(army)
    built = build_army(army)
    assert built[0].is_hq and len(built[0].models) == 1  # the HQ (the Warlord) first
    assert army_cost(army) <= POINTS_LIMIT


def test_examples_cover_six_factions():
    assert len({load_army(p).faction for p in EXAMPLES}) >= 6


def test_costs_are_exact():
    army = load_army(ARMIES / "ultramarines.toml")
    # Captain 90 + power sword 15, Tactical 10 x 14, Assault 5 x 14, Devastator 5 x 14 + missile launcher 15
    assert army_cost(army) == Fraction(90 + 15 + 140 + 70 + 70 + 15)


def test_fearless_is_removed_from_every_model_but_the_hq():
    cat = catalogue()
    plague = Army("p", "Chaos Space Marines", (UnitChoice("Chaos Lord"), UnitChoice("Plague Marine", 5)))
    built = build_army(plague, cat=cat)
    assert "fearless" in cat.unit("Plague Marine").profile.rules
    assert all("fearless" not in m.profile.rules for m in built[1].models)
    chaplain = build_army(Army("c", "Space Marines", (UnitChoice("Chaplain"),)), cat=cat)
    assert "fearless" in chaplain[0].models[0].profile.rules  # the HQ keeps it


def test_a_model_without_a_melee_weapon_fights_with_a_close_combat_weapon():
    built = build_army(Army("t", "Tau Empire", (UnitChoice("Cadre Fireblade"), UnitChoice("Fire Warrior", 6))))
    assert "Close combat weapon" in built[1].models[0].weapons


def _army(*units, faction="Space Marines"):
    return Army("broken", faction, tuple(units), source="broken.toml")


@pytest.mark.parametrize("army, pattern", [
    (_army(UnitChoice("Tactical Marine", 5)),
     r"^broken\.toml: §2 Force Organisation: 0 HQ choices; allowed: exactly 1$"),
    (_army(UnitChoice("Captain"), UnitChoice("Chaplain")),
     r"^broken\.toml: §2 Force Organisation: 2 HQ choices; allowed: exactly 1$"),
    (_army(UnitChoice("Captain"), *[UnitChoice("Assault Marine", 5)] * 4),
     r"^broken\.toml: §2 Force Organisation: 4 Fast Attack choices; allowed: 0-3$"),
    (_army(UnitChoice("Captain"), UnitChoice("Terminator", 10)),
     r"^broken\.toml: §2 Points limit: the army costs 490 points; allowed: up to 400$"),
    (_army(UnitChoice("Captain"), UnitChoice("Rhino")),
     r"^broken\.toml: units\[1\]: §2 Dedicated Transport: 'Rhino' follows no infantry squad; allowed: list it "
     r"right after the infantry squad it is bought with$"),
    (_army(UnitChoice("Captain"), UnitChoice("Tactical Marine", 10), UnitChoice("Razorback")),
     r"^broken\.toml: units\[2\]: §2 Dedicated Transport: 'Razorback' carries 6 models; 'Tactical Marine' has 10; "
     r"allowed: up to 6$"),
    (_army(UnitChoice("Captain"), UnitChoice("Stormraven")),
     r"^broken\.toml: units\[1\]: §2 Vehicles: 'Stormraven' is a vehicle \(flyer\); allowed: Walkers, and "
     r"Dedicated Transports that are not Flyers$"),
    (_army(UnitChoice("Chaos Lord"), UnitChoice("Dreadnought"), faction="Chaos Space Marines"),
     r"^broken\.toml: units\[1\]: §2 detachment: 'Dreadnought' is a Space Marines unit; allowed: Chaos Space Marines"),
    (_army(UnitChoice("Cadre Fireblade"), UnitChoice("Riptide"), faction="Tau Empire"),
     r"^broken\.toml: units\[1\]: §2 Wounds cap: 'Riptide' has 5 W; a model with more than 4 W cannot be taken$"),
    (_army(UnitChoice("Autarch"), UnitChoice("Wraithlord"), faction="Craftworld Eldar"),
     r"^broken\.toml: units\[1\]: §2 Toughness cap: 'Wraithlord' has T8; a model with T7 or more cannot be taken$"),
    (_army(UnitChoice("Captain"), UnitChoice("Tactical Marine", 12)),
     r"^broken\.toml: units\[1\]: unit size: 'Tactical Marine' with 12 models; allowed: 5-10"),
    (_army(UnitChoice("Captain"), UnitChoice("Guardsman", 10)),
     r"^broken\.toml: units\[1\]: §2 detachment: 'Guardsman' is a Astra Militarum unit; allowed: Space Marines"),
    (_army(UnitChoice("Captain"), UnitChoice("Devastator Marine", 5, swaps=("Lascannon",) * 5)),
     r"^broken\.toml: units\[1\]: weapon swaps: 5 for 'Devastator Marine'; allowed: up to 4$"),
    (_army(UnitChoice("Captain", swaps=("Lascannon",))),
     r"^broken\.toml: units\[0\]: weapon swap 'Lascannon' is not an option of 'Captain'"),
    (_army(UnitChoice("Captain"), UnitChoice("Zombie")),
     r"^broken\.toml: units\[1\]: unit 'Zombie' has no Force Organisation slot"),
])
def test_a_broken_army_gets_one_line_naming_the_rule(army, pattern):
    with pytest.raises(ArmyError, match=pattern) as err:
        check_army(army)
    assert "\n" not in str(err.value)


HQ_OF = {"Space Marines": "Captain", "Astra Militarum": "Lord Commissar", "Orks": "Warboss",
         "Chaos Space Marines": "Chaos Lord", "Craftworld Eldar": "Farseer", "Tau Empire": "Cadre Fireblade"}


def test_walkers_are_taken_transports_only_with_a_squad_and_every_other_vehicle_refused():
    """§2 Vehicles: "only Walkers"; a Dedicated Transport is allowed unless a Flyer, bought with a
    squad (after an HQ alone it is refused as bought with none; tests/apocalypse/test_apocalypse_transports.py)."""
    for name, v in vehicles(catalogue()).items():
        army = _army(UnitChoice(HQ_OF[v.faction]), UnitChoice(name), faction=v.faction)
        if v.kind == "walker":
            check_army(army)
        elif v.kind == "transport" and "flyer" not in v.types:
            with pytest.raises(ArmyError, match="§2 Dedicated Transport: .* follows no infantry squad"):
                check_army(army)
        else:
            with pytest.raises(ArmyError, match="§2 Vehicles"):
                check_army(army)


def test_the_points_limit_is_a_parameter():
    army = load_army(ARMIES / "ultramarines.toml")
    check_army(army, 400)
    with pytest.raises(ArmyError, match="allowed: up to 300$"):
        check_army(army, 300)


@pytest.mark.parametrize("points", [200, 300, 500, 600])
def test_fit_army_meets_the_points_and_keeps_the_hq(points):
    army = load_army(ARMIES / "ultramarines.toml")
    fitted = fit_army(army, points)
    check_army(fitted, points)
    assert fitted.units[0].unit == "Captain"
    if points < 400:
        assert army_cost(fitted) < army_cost(army)
    else:
        assert army_cost(fitted) > army_cost(army)


@pytest.mark.parametrize("data, pattern", [
    ({"faction": "Orks"}, r"field 'units' must be a non-empty list"),
    ({"faction": "Orks", "units": [{"unit": "Warboss", "modles": 1}]}, r"units\[0\]: unknown field 'modles'"),
    ({"faction": "Orks", "units": [{"unit": "Warboss", "models": -1}]}, r"field 'models' = -1"),
    ({"units": [{"unit": "Warboss"}]}, r"field 'faction' = None"),
])
def test_army_files_are_read_with_one_line_errors(data, pattern):
    with pytest.raises(ArmyError, match=pattern):
        army_from_dict(data, "x.toml")
