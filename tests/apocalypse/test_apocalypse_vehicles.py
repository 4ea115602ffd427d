"""The vehicle datasheets of the Apocalypse catalogue (sim/data/apocalypse/vehicles.toml, V1):
every faction has a dedicated transport and, where its codex has one, a walker; the profiles are the
codex's (BSData's 7th-edition files, as the data file cites); bad entries fail in one line naming
the field."""

from __future__ import annotations

import re

import pytest

from sim.rulesets.apocalypse.catalogue import catalogue, catalogue_file, vehicles
from sim.w40k.catalogue import CatalogueError

CAT = catalogue()
VEHICLES = vehicles(CAT)


def test_every_faction_has_a_transport_and_a_walker():
    factions = {u.faction for u in CAT.units.values() if u.side == "survivors"}
    army_factions = {v.faction for v in VEHICLES.values()}
    for faction in ("Space Marines", "Astra Militarum", "Orks", "Chaos Space Marines", "Craftworld Eldar",
                    "Tau Empire"):
        assert faction in factions
        kinds = {v.kind for v in VEHICLES.values() if v.faction == faction}
        assert "transport" in kinds, faction
        if faction != "Tau Empire":  # the Tau Empire codex has no walker vehicle (its battlesuits are infantry)
            assert "walker" in kinds, faction
    assert army_factions <= factions


# (name, BS, front, side, rear, HP, (WS, S, I, A) or None, capacity, cost): BSData 7th edition, as cited
PROFILES = [
    ("Rhino", 4, 11, 11, 10, 3, None, 10, 35),
    ("Razorback", 4, 11, 11, 10, 3, None, 6, 55),
    ("Dreadnought", 4, 12, 12, 10, 3, (4, 6, 4, 4), 0, 100),
    ("Chimera", 3, 12, 10, 10, 3, None, 12, 65),
    ("Scout Sentinel", 3, 10, 10, 10, 2, (3, 5, 3, 1), 0, 35),
    ("Trukk", 2, 10, 10, 10, 3, None, 12, 30),
    ("Deff Dread", 2, 12, 12, 10, 3, (4, 5, 2, 3), 0, 80),
    ("Killa Kan", 3, 11, 11, 10, 2, (2, 5, 2, 2), 0, 50),
    ("Chaos Rhino", 4, 11, 11, 10, 3, None, 10, 35),
    ("Helbrute", 4, 12, 12, 10, 3, (4, 6, 4, 4), 0, 100),
    ("Wave Serpent", 4, 12, 12, 10, 3, None, 12, 110),
    ("War Walker", 4, 10, 10, 10, 2, (4, 5, 5, 2), 0, 60),
    ("Devilfish", 3, 12, 11, 10, 3, None, 12, 80),
]


@pytest.mark.parametrize("name, bs, front, side, rear, hp, walker, capacity, cost", PROFILES,
                         ids=[p[0] for p in PROFILES])
def test_profiles_are_the_codex_values(name, bs, front, side, rear, hp, walker, capacity, cost):
    v = VEHICLES[name]
    assert (v.bs, v.front, v.side, v.rear, v.hull_points, v.capacity, v.cost) == (bs, front, side, rear, hp,
                                                                                    capacity, cost)
    assert v.is_walker == (walker is not None)
    if walker:
        assert (v.ws, v.s, v.i, v.a) == walker
    assert v.source and all(CAT.weapons.get(w) or CAT.items.get(w) for w in v.weapons)


def test_types():
    assert VEHICLES["Trukk"].types == {"fast", "open_topped", "transport"}
    assert VEHICLES["Wave Serpent"].types == {"tank", "fast", "skimmer", "transport"}
    assert VEHICLES["War Walker"].open_topped and not VEHICLES["Dreadnought"].open_topped
    assert VEHICLES["Rhino"].armour("rear") == 10
    with pytest.raises(ValueError, match="facing = 'top'"):
        VEHICLES["Rhino"].armour("top")


GOOD = dict(name="Test Tank", faction="Space Marines", kind="transport", cost=40, bs=4, front=11, side=11, rear=10,
            hull_points=3, types=["tank", "transport"], capacity=10, fire_points=2, weapons=["Storm bolter"],
            source="test")


def _toml(fields: dict) -> str:
    def value(v):
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return f'"{v}"' if isinstance(v, str) else str(v)
    return "[[vehicle]]\n" + "\n".join(f"{k} = {value(v)}" for k, v in fields.items()) + "\n"


@pytest.mark.parametrize("change, pattern", [
    ({"front": 20}, r"field 'front' = 20; allowed: an integer 9-14"),
    ({"hull_points": 0}, r"field 'hull_points' = 0; allowed: an integer 1-9"),
    ({"types": ["tank", "hovertank"]}, r"field 'types' = .*; allowed: a non-empty list of tank, transport"),
    ({"types": ["tank"]}, r"field 'types' = \['tank'\]; allowed: a list holding 'transport'"),
    ({"capacity": 0}, r"field 'capacity' = 0; allowed: more than 0 for a transport"),
    ({"weapons": ["Storm boltr"]}, r"field 'weapons' = 'Storm boltr'; allowed: a weapon or item of the catalogue "
                                   r"\(closest: 'Storm bolter'\)"),
    ({"ws": 4}, r"field 'ws' = 4; allowed: only for a vehicle whose types list 'walker'"),
    ({"kind": "walker", "types": ["walker"], "capacity": 0}, r"missing field 'ws'"),
    ({"kind": "boat"}, r"field 'kind' = 'boat'; allowed: 'walker', 'transport', 'tank', 'flyer'"),
    ({"armour": 11}, r"unknown field 'armour'"),
    ({"name": "Rhino"}, r"vehicle 'Rhino': given twice, or also a unit"),
])
def test_bad_entries_fail_in_one_line_naming_the_field(tmp_path, change, pattern):
    path = tmp_path / "bad.toml"
    path.write_text(_toml({**GOOD, **change}))
    with pytest.raises(CatalogueError) as err:
        catalogue_file(path)
    message = str(err.value)
    assert "\n" not in message and re.search(pattern, message), message


def test_a_good_entry_loads(tmp_path):
    path = tmp_path / "good.toml"
    path.write_text(_toml(GOOD))
    assert vehicles(catalogue_file(path))["Test Tank"].capacity == 10


def test_unconfirmed_readings_are_choice_parameters():
    """Every number of the vehicle core the sources did not confirm is a [C] parameter (V5, V7, V8, V10),
    and the damage-table readings are the ones the core compiles."""
    from sim.rulesets.apocalypse.params import parameters
    from sim.w40k.vehicle_attack import VehicleRules

    found = {p.name: p for p in parameters() if p.name.startswith("vehicle_")}
    assert {p.spec for p in found.values()} == {"V5", "V7", "V8", "V10"}
    assert all(p.tag == "C" and p.default == p.choices[0] and len(p.choices) >= 2 for p in found.values())
    for table in found["vehicle_damage_table"].choices:
        assert VehicleRules(damage_table=table).result(7) == 5
    for mods in found["vehicle_ap_modifiers"].choices:
        assert VehicleRules(ap_modifiers=mods).ap_modifier(7) == -1


@pytest.mark.parametrize("name, value", [("vehicle_damage_table", "6th"), ("vehicle_ap_modifiers", "5th"),
                                         ("vehicle_assault_hits", "all_4"), ("vehicle_grenade_attacks", "attacks"),
                                         ("vehicle_explosion", "d6_s3")])
def test_another_vehicle_reading_is_refused_where_it_plays_no_game(name, value):
    """A reading that could change no game is refused in one line (issue 27's rule): a Walker's
    readings without a vehicle in the armies, a transport's without one, the grenades' until they are thrown."""
    from apocalypse_helpers import config

    from sim.rulesets.apocalypse.config import ConfigError

    why = {"vehicle_assault_hits": r"no army here fields a Dedicated Transport",
           "vehicle_grenade_attacks": r"grenades are not thrown at vehicles yet"}.get(name,
                                                                                     r"no army here fields a vehicle")
    with pytest.raises(ConfigError, match=rf"^{name} = '{value}'; allowed: \S+ \({why}") as err:
        config(**{name: value})
    assert "\n" not in str(err.value)


def test_a_catalogue_weapon_at_a_catalogue_vehicle():
    """vehicle_attack reads the weapon's rules, the user's Strength and the facing's Armour Value."""
    from sim.w40k.exact_vehicles import vehicle_odds
    from sim.w40k.vehicle_attack import vehicle_attack

    melta = vehicle_attack(CAT.weapon("Meltagun"), 4, VEHICLES["Rhino"], "front", half_range=True)
    assert (melta.strength, melta.armour, melta.ap, melta.pen_dice) == (8, 11, 1, 2)
    assert vehicle_attack(CAT.weapon("Meltagun"), 4, VEHICLES["Rhino"], "front").pen_dice == 1
    bomb = vehicle_attack(CAT.weapon("Melta bomb"), 4, VEHICLES["Trukk"], "rear")
    assert bomb.armourbane and bomb.open_topped and bomb.armour == 10
    fist = vehicle_attack(CAT.weapon("Power fist"), 4, VEHICLES["Dreadnought"], "front")
    assert (fist.strength, fist.armour) == (8, 12)
    assert vehicle_attack(CAT.weapon("Twin-linked heavy bolter"), 4, VEHICLES["Rhino"], "side").hit_reroll
    # V9: thirty zombies (S2, Hordes +3) hit a Rhino's rear at S5: a 5 glances, a 6 penetrates
    horde = vehicle_attack(CAT.weapon("Close combat weapon"), 2, VEHICLES["Rhino"], "rear", 90, 4, strength_bonus=3)
    assert horde.strength == 5 and vehicle_odds(horde).p_glancing == pytest.approx(1 / 12)
