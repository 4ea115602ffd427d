"""The catalogue data against the spec tables (catalogue §2, §3, §6; zombie40k §10.10-§11).

The expected values below are typed again from the spec, independently of the TOML files: a
double entry, so that a slip in either shows up here.
"""

from __future__ import annotations

import re
from fractions import Fraction
from importlib import resources
from pathlib import Path

import pytest

from sim.rulesets.zombie40k.catalogue import EXTENSIONS, catalogue, catalogue_file, killing_floor
from sim.w40k.catalogue import (
    Catalogue,
    CatalogueError,
    UnknownNameError,
    load_catalogue,
    load_catalogue_file,
)
from sim.w40k.profiles import NO_AP, NO_SAVE

N = NO_SAVE  # "-" save
D = NO_AP  # "-" AP


@pytest.fixture(scope="module")
def cat() -> Catalogue:
    return catalogue()


# ----------------------------------------------------------------------------------------------
# Units (catalogue §2)
# ----------------------------------------------------------------------------------------------

# name: (faction, pts/model, WS, BS, S, T, W, I, A, Ld, Sv, Inv)
UNITS = {
    "Tactical Marine": ("Space Marines", 14, 4, 4, 4, 4, 1, 4, 1, 8, 3, N),
    "Scout": ("Space Marines", 11, 4, 4, 4, 4, 1, 4, 1, 8, 4, N),
    "Guardsman": ("Astra Militarum", 5, 3, 3, 3, 3, 1, 3, 1, 7, 5, N),
    "Veteran": ("Astra Militarum", 6, 3, 4, 3, 3, 1, 3, 1, 7, 5, N),
    "Ork Boy": ("Orks", 6, 4, 2, 3, 4, 1, 2, 2, 7, 6, N),
    "Guardian": ("Craftworld Eldar", 9, 4, 4, 3, 3, 1, 5, 1, 8, 5, N),
    "Dire Avenger": ("Craftworld Eldar", 13, 4, 4, 3, 3, 1, 5, 1, 9, 4, N),
    "Fire Dragon": ("Craftworld Eldar", 22, 4, 4, 3, 3, 1, 5, 1, 9, 3, N),
    "Striking Scorpion": ("Craftworld Eldar", 17, 4, 4, 3, 3, 1, 5, 1, 9, 3, N),
    "Fire Warrior": ("Tau Empire", 9, 2, 3, 3, 3, 1, 2, 1, 7, 4, N),
    "Pathfinder": ("Tau Empire", 11, 2, 3, 3, 3, 1, 2, 1, 7, 5, N),
    "Necron Warrior": ("Necrons", 13, 4, 4, 4, 4, 1, 2, 1, 10, 4, N),
    "Immortal": ("Necrons", 17, 4, 4, 4, 4, 1, 2, 1, 10, 3, N),
    "Chaos Space Marine": ("Chaos Space Marines", 13, 4, 4, 4, 4, 1, 4, 1, 8, 3, N),
    "Chaos Cultist": ("Chaos Space Marines", 5, 3, 3, 3, 3, 1, 3, 1, 7, 6, N),
    "Plague Marine": ("Chaos Space Marines", 24, 4, 4, 4, 5, 1, 3, 1, 8, 3, N),
    "Termagant": ("Tyranids", 4, 3, 3, 3, 3, 1, 4, 1, 6, 6, N),
    "Hormagaunt": ("Tyranids", 5, 3, 3, 3, 3, 1, 5, 2, 6, 6, N),
    "Genestealer": ("Tyranids", 14, 6, 0, 4, 4, 1, 6, 2, 10, 5, N),
    "Kabalite Warrior": ("Dark Eldar", 8, 4, 4, 3, 3, 1, 5, 1, 8, 5, N),
    "Wych": ("Dark Eldar", 10, 4, 4, 3, 3, 1, 6, 1, 8, 6, N),
    "Battle Sister": ("Adepta Sororitas", 12, 3, 4, 3, 3, 1, 3, 1, 8, 3, 6),
    "Grey Knight": ("Grey Knights", 20, 4, 4, 4, 4, 1, 4, 1, 8, 3, N),
}
STATS = ("ws", "bs", "s", "t", "w", "i", "a", "ld", "sv", "inv")


@pytest.mark.parametrize("name", list(UNITS))
def test_unit_row_matches_catalogue_table(cat, name):
    faction, pts, *stats = UNITS[name]
    unit = cat.unit(name)
    assert (unit.faction, unit.side, unit.unit_type) == (faction, "survivors", "infantry")
    assert unit.cost_per_model == pts
    assert {s: getattr(unit.profile, s) for s in STATS} == dict(zip(STATS, stats, strict=True))


def test_every_survivor_unit_is_in_the_spec_table(cat):
    assert sorted(u.name for u in cat.units.values() if u.side == "survivors") == sorted(UNITS)


@pytest.mark.parametrize(
    ("name", "block_cost", "block_models"),
    [
        ("Tactical Marine", 70, 5),
        ("Scout", 55, 5),
        ("Guardsman", 50, 10),
        ("Veteran", 60, 10),
        ("Chaos Space Marine", 65, 5),
        ("Chaos Cultist", 50, 10),
        ("Grey Knight", 100, 5),
        ("Ork Boy", 6, 1),
    ],
)
def test_block_prices(cat, name, block_cost, block_models):
    unit = cat.unit(name)
    assert (unit.block_cost, unit.block_models) == (block_cost, block_models)
    assert isinstance(unit.cost_per_model, Fraction)


@pytest.mark.parametrize(
    ("name", "rules"),
    [
        ("Tactical Marine", {"and_they_shall_know_no_fear", "chapter_tactics", "combat_squads"}),
        ("Ork Boy", {"furious_charge", "mob_rule", "ere_we_go"}),
        ("Plague Marine", {"fearless", "feel_no_pain", "mark_of_nurgle"}),
        ("Wych", {"combat_drugs", "dodge", "fleet", "night_vision", "power_from_pain"}),
        ("Necron Warrior", {"reanimation_protocols"}),
        ("Genestealer", {"fleet", "infiltrate", "move_through_cover"}),
        (
            "Grey Knight",
            {"and_they_shall_know_no_fear", "psyker", "brotherhood_of_psykers", "deep_strike", "the_aegis"},
        ),
    ],
)
def test_unit_rules(cat, name, rules):
    assert cat.unit(name).profile.rules == rules


def test_special_saves_and_psykers(cat):
    assert cat.unit("Wych").profile.inv_melee == 4 and cat.unit("Wych").profile.inv == NO_SAVE
    assert cat.unit("Plague Marine").profile.fnp == 5
    assert cat.unit("Battle Sister").profile.inv == 6
    assert cat.unit("Grey Knight").mastery_level == 1
    assert all(u.mastery_level == 0 for u in cat.units.values() if u.name != "Grey Knight")


@pytest.mark.parametrize(
    ("unit", "wargear"),
    [
        ("Tactical Marine", ("Boltgun", "Bolt pistol", "Frag grenade", "Krak grenade")),
        ("Guardsman", ("Lasgun", "Frag grenade")),
        ("Ork Boy", ("Slugga", "Choppa", "Stikkbomb")),
        ("Striking Scorpion", ("Shuriken pistol", "Scorpion chainsword", "Plasma grenade")),
        ("Pathfinder", ("Pulse carbine", "Markerlight", "Photon grenade")),
        ("Plague Marine", ("Boltgun", "Bolt pistol", "Plague knife", "Blight grenade", "Krak grenade")),
        (
            "Grey Knight",
            ("Storm bolter", "Nemesis force sword", "Frag grenade", "Krak grenade", "Psyk-out grenade"),
        ),
    ],
)
def test_default_wargear(cat, unit, wargear):
    assert cat.unit(unit).wargear == wargear


# ----------------------------------------------------------------------------------------------
# Leaders and swaps (catalogue §2.1-§2.2)
# ----------------------------------------------------------------------------------------------

# (unit, leader, extra cost, {changed stat: value})
LEADERS = [
    ("Tactical Marine", "Space Marine Sergeant", 0, {}),
    ("Tactical Marine", "Veteran Sergeant", 10, {"a": 2, "ld": 9}),
    ("Scout", "Veteran Scout Sergeant", 10, {"a": 2, "ld": 9}),
    ("Guardsman", "Sergeant", 0, {"a": 2, "ld": 8}),
    ("Veteran", "Veteran Sergeant", 0, {"a": 2, "ld": 8}),
    ("Ork Boy", "Boss Nob", 10, {"s": 4, "w": 2, "i": 3, "a": 3, "ld": 7}),
    ("Dire Avenger", "Exarch", 10, {"ws": 5, "bs": 5, "w": 2, "i": 6, "a": 2}),
    ("Fire Dragon", "Exarch", 10, {"ws": 5, "bs": 5, "w": 2, "i": 6, "a": 2}),
    ("Striking Scorpion", "Exarch", 10, {"ws": 5, "bs": 5, "w": 2, "i": 6, "a": 2}),
    ("Fire Warrior", "Shas'ui", 10, {"a": 2, "ld": 8}),
    ("Pathfinder", "Shas'ui", 10, {"a": 2, "ld": 8}),
    ("Chaos Space Marine", "Aspiring Champion", 0, {"a": 2, "ld": 9}),
    ("Chaos Cultist", "Cultist Champion", 0, {"a": 2, "ld": 8}),
    ("Plague Marine", "Plague Champion", 0, {"a": 2, "ld": 9}),
    ("Kabalite Warrior", "Sybarite", 10, {"a": 2, "ld": 9}),
    ("Wych", "Hekatrix", 10, {"a": 2, "ld": 9}),
    ("Battle Sister", "Sister Superior", 0, {"a": 2, "ld": 8}),
    ("Grey Knight", "Justicar", 0, {"a": 2, "ld": 9}),
    ("Guardian", "Warlock Leader", 35, {"inv": 4}),
    ("Genestealer", "Broodlord", 46, {"ws": 7, "bs": 0, "s": 5, "t": 5, "w": 3, "i": 7, "a": 4, "sv": 4}),
]


@pytest.mark.parametrize(("unit", "leader", "cost", "changes"), LEADERS)
def test_leader_upgrades(cat, unit, leader, cost, changes):
    entry = cat.unit(unit)
    profile = entry.leader_profile(leader)
    assert entry.leader(leader).cost == cost
    assert profile.name == leader
    for stat in STATS:
        assert getattr(profile, stat) == changes.get(stat, getattr(entry.profile, stat)), stat


def test_necrons_and_gaunts_have_no_leader(cat):
    for name in ("Necron Warrior", "Immortal", "Termagant", "Hormagaunt"):
        assert cat.unit(name).leaders == ()


def test_psyker_leaders(cat):
    warlock = cat.unit("Guardian").leader("Warlock Leader")
    assert (
        warlock.mastery_level == 1 and "psyker" in cat.unit("Guardian").leader_profile("Warlock Leader").rules
    )
    assert cat.unit("Guardian").leader_wargear("warlock leader") == (
        "Witchblade",
        "Shuriken pistol",
        "Plasma grenade",
    )
    assert cat.unit("Genestealer").leader("Broodlord").mastery_level == 1
    assert cat.unit("Genestealer").cost_per_model + cat.unit("Genestealer").leader("Broodlord").cost == 60


def test_guard_sergeant_carries_laspistol_and_close_combat_weapon(cat):
    guard = cat.unit("Guardsman")
    assert guard.leader_wargear("Sergeant") == ("Laspistol", "Close combat weapon", "Frag grenade")
    assert guard.leader_wargear("Sergeant") != guard.wargear


def _option(options, item):
    (found,) = [o for o in options if o.item == item]
    return found


# (unit, leader or None for a swap, item, cost, replaces)
OPTIONS = [
    ("Tactical Marine", "Space Marine Sergeant", "Power fist", 25, ("Boltgun",)),
    ("Tactical Marine", "Veteran Sergeant", "Thunder hammer", 30, ("Boltgun",)),
    ("Tactical Marine", "Space Marine Sergeant", "Melta bomb", 5, ()),
    ("Tactical Marine", "Space Marine Sergeant", "Combi-plasma", 10, ("Boltgun",)),
    ("Tactical Marine", "Space Marine Sergeant", "Hand flamer", 10, ("Bolt pistol",)),
    ("Scout", "Scout Sergeant", "Sniper rifle", 1, ("Boltgun",)),
    ("Guardsman", "Sergeant", "Plasma pistol", 15, ("Laspistol",)),
    ("Ork Boy", "Boss Nob", "Power klaw", 25, ("Choppa",)),
    ("Dire Avenger", "Exarch", "Diresword and shuriken pistol", 20, ("Avenger shuriken catapult",)),
    ("Fire Dragon", "Exarch", "Firepike", 15, ("Fusion gun",)),
    ("Striking Scorpion", "Exarch", "Scorpion's claw", 30, ("Shuriken pistol",)),
    ("Fire Warrior", "Shas'ui", "Markerlight and target lock", 15, ()),
    ("Chaos Space Marine", "Aspiring Champion", "Chainaxe", 8, ("Close combat weapon",)),
    ("Chaos Cultist", "Cultist Champion", "Shotgun", 2, ("Autopistol",)),
    ("Kabalite Warrior", "Sybarite", "Agoniser", 25, ("Close combat weapon",)),
    ("Grey Knight", "Justicar", "Nemesis Daemon hammer", 10, ("Nemesis force sword",)),
    ("Tactical Marine", None, "Flamer", 5, ("Boltgun",)),
    ("Tactical Marine", None, "Meltagun", 10, ("Boltgun",)),
    ("Tactical Marine", None, "Grav-gun", 15, ("Boltgun",)),
    ("Tactical Marine", None, "Lascannon", 20, ("Boltgun",)),
    ("Tactical Marine", None, "Missile launcher", 15, ("Boltgun",)),
    ("Guardsman", None, "Plasma gun", 15, ("Lasgun",)),
    ("Guardsman", None, "Sniper rifle", 2, ("Lasgun",)),
    ("Guardsman", None, "Vox-caster", 5, ()),
    ("Veteran", None, "Heavy flamer", 10, ("Lasgun",)),
    ("Ork Boy", None, "Rokkit launcha", 5, ("Slugga",)),
    ("Pathfinder", None, "Rail rifle", 15, ("Pulse carbine",)),
    ("Immortal", None, "Tesla carbine", 0, ("Gauss blaster",)),
    ("Chaos Space Marine", None, "Autocannon", 10, ("Boltgun",)),
    ("Chaos Cultist", None, "Autogun", 1, ("Autopistol", "Close combat weapon")),
    ("Termagant", None, "Devourer", 4, ("Fleshborer",)),
    ("Genestealer", None, "Scything talons", 4, ()),
    ("Kabalite Warrior", None, "Dark lance", 20, ("Splinter rifle",)),
    ("Wych", None, "Hydra gauntlets", 5, ("Splinter pistol", "Close combat weapon")),
    ("Battle Sister", None, "Multi-melta", 10, ("Boltgun",)),
    ("Grey Knight", None, "Psycannon", 0, ("Storm bolter",)),
]


@pytest.mark.parametrize(("unit", "leader", "item", "cost", "replaces"), OPTIONS)
def test_options(cat, unit, leader, item, cost, replaces):
    entry = cat.unit(unit)
    options = entry.swaps if leader is None else entry.leader(leader).options
    option = _option(options, item)
    assert (option.cost, option.replaces) == (cost, replaces)


@pytest.mark.parametrize(
    ("unit", "cost", "rules"),
    [("Termagant", 2, {"poisoned"}), ("Hormagaunt", 3, {"poisoned"}), ("Genestealer", 3, {"poisoned"})],
)
def test_biomorphs_grant_rules(cat, unit, cost, rules):
    swaps = cat.unit(unit).swaps
    assert _option(swaps, "Toxin sacs").cost == cost and _option(swaps, "Toxin sacs").grants_rules == rules
    assert _option(swaps, "Adrenal glands").grants_rules == {"furious_charge"}
    assert cat.profiles_of("Toxin sacs") == ()


def test_guardian_eldar_have_no_swaps(cat):
    for name in ("Guardian", "Dire Avenger", "Fire Dragon", "Striking Scorpion", "Necron Warrior"):
        assert cat.unit(name).swaps == ()


# ----------------------------------------------------------------------------------------------
# Zombie side (zombie40k §10.10, §11)
# ----------------------------------------------------------------------------------------------

ZOMBIE_SIDE = {
    # name: (WS, BS, S, T, W, I, A, Ld, Sv, Inv, FNP, rules, wargear)
    "Zombie": (
        2,
        2,
        3,
        3,
        1,
        1,
        1,
        0,
        N,
        N,
        5,
        {"fearless", "feel_no_pain", "slow_and_purposeful", "rending", "sweeping_advance_allowed"},
        ("Close combat weapon",),
    ),
    "Zombie Boss": (
        6,
        5,
        4,
        5,
        4,
        5,
        3,
        10,
        2,
        5,
        5,
        {
            "fearless",
            "feel_no_pain",
            "slow_and_purposeful",
            "rending",
            "eternal_warrior",
            "sweeping_advance_allowed",
        },
        ("Manreaper", "Blight grenade"),
    ),
    "Patriarch": (
        5,
        4,
        6,
        6,
        6,
        3,
        4,
        10,
        N,
        N,
        4,
        {
            "concussive",
            "eternal_warrior",
            "fearless",
            "feel_no_pain",
            "it_will_not_die",
            "relentless",
            "rending",
        },
        ("Assault cannon", "Missile launcher", "Close combat weapon"),
    ),
    "Ork Boy (power-up)": (
        4,
        2,
        3,
        4,
        1,
        2,
        2,
        7,
        6,
        N,
        N,
        {"ere_we_go", "furious_charge", "mob_rule"},
        ("Slugga", "Choppa"),
    ),
}


@pytest.mark.parametrize("name", list(ZOMBIE_SIDE))
def test_zombie_side_profiles(cat, name):
    *stats, fnp, rules, wargear = ZOMBIE_SIDE[name]
    unit = cat.unit(name)
    assert unit.side == "zombies"
    assert {s: getattr(unit.profile, s) for s in STATS} == dict(zip(STATS, stats, strict=True))
    assert (unit.profile.fnp, unit.profile.rules, unit.wargear) == (fnp, rules, wargear)


def test_sides_and_factions(cat):
    assert cat.unit("Zombie").faction == "Zombies" and cat.unit("Zombie").block_models == 5
    assert "Zombies" not in cat.factions(side="survivors")
    assert cat.factions(side="survivors") == [
        "Space Marines",
        "Astra Militarum",
        "Orks",
        "Craftworld Eldar",
        "Tau Empire",
        "Necrons",
        "Chaos Space Marines",
        "Tyranids",
        "Dark Eldar",
        "Adepta Sororitas",
        "Grey Knights",
    ]
    assert "Zombies" in cat.factions()


def test_zombie_weapons(cat):
    assert cat.weapon("Autogun") == cat.weapon("autogun")
    blight = cat.weapon("Blight Grenade")
    assert (blight.strength, blight.ap, blight.kind, blight.shots, blight.blast) == (
        "3",
        D,
        "grenade",
        1,
        "small",
    )
    assert blight.rules == {"assault_grenade", "defensive_grenade"}
    reaper = cat.weapon("Manreaper")
    assert (reaper.strength, reaper.ap, reaper.kind) == ("+2", 2, "melee")
    assert [w.name for w in cat.profiles_of("Missile launcher")] == [
        "Missile launcher (frag)",
        "Missile launcher (krak)",
    ]


# ----------------------------------------------------------------------------------------------
# Weapons (catalogue §3)
# ----------------------------------------------------------------------------------------------

# name: (range, S, AP, kind, shots, shots_stationary, blast, template, rules)
RANGED = {
    "Lasgun": (24, "3", D, "rapid_fire", 1, 0, "", False, set()),
    "Laspistol": (12, "3", D, "pistol", 1, 0, "", False, set()),
    "Autogun": (24, "3", D, "rapid_fire", 1, 0, "", False, set()),
    "Autopistol": (12, "3", D, "pistol", 1, 0, "", False, set()),
    "Shotgun": (12, "3", D, "assault", 2, 0, "", False, set()),
    "Boltgun": (24, "4", 5, "rapid_fire", 1, 0, "", False, set()),
    "Bolt pistol": (12, "4", 5, "pistol", 1, 0, "", False, set()),
    "Storm bolter": (24, "4", 5, "assault", 2, 0, "", False, set()),
    "Combi-bolter": (24, "4", 5, "rapid_fire", 1, 0, "", False, {"twin_linked"}),
    "Space Marine shotgun": (12, "4", D, "assault", 2, 0, "", False, set()),
    "Sniper rifle": (36, "X", 6, "heavy", 1, 0, "", False, {"sniper"}),
    "Flamer": (8, "4", 5, "assault", 1, 0, "", True, set()),
    "Hand flamer": (8, "3", 6, "pistol", 1, 0, "", True, set()),
    "Heavy flamer": (8, "5", 4, "assault", 1, 0, "", True, set()),
    "Meltagun": (12, "8", 1, "assault", 1, 0, "", False, {"melta"}),
    "Inferno pistol": (6, "8", 1, "pistol", 1, 0, "", False, {"melta"}),
    "Plasma gun": (24, "7", 2, "rapid_fire", 1, 0, "", False, {"gets_hot"}),
    "Plasma pistol": (12, "7", 2, "pistol", 1, 0, "", False, {"gets_hot"}),
    "Grav-gun": (18, "X", 2, "salvo", 2, 3, "", False, {"concussive", "graviton"}),
    "Grenade launcher (frag)": (24, "3", 6, "assault", 1, 0, "small", False, set()),
    "Grenade launcher (krak)": (24, "6", 4, "assault", 1, 0, "", False, set()),
    "Heavy bolter": (36, "5", 4, "heavy", 3, 0, "", False, set()),
    "Heavy stubber": (36, "4", 6, "heavy", 3, 0, "", False, set()),
    "Missile launcher (frag)": (48, "4", 6, "heavy", 1, 0, "small", False, set()),
    "Missile launcher (krak)": (48, "8", 3, "heavy", 1, 0, "", False, set()),
    "Multi-melta": (24, "8", 1, "heavy", 1, 0, "", False, {"melta"}),
    "Plasma cannon": (36, "7", 2, "heavy", 1, 0, "small", False, {"gets_hot"}),
    "Lascannon": (48, "9", 2, "heavy", 1, 0, "", False, set()),
    "Autocannon": (48, "7", 4, "heavy", 2, 0, "", False, set()),
    "Assault cannon": (24, "6", 4, "heavy", 4, 0, "", False, {"rending"}),
    "Multi-laser": (36, "6", 6, "heavy", 3, 0, "", False, set()),
    "Slugga": (12, "4", 6, "pistol", 1, 0, "", False, set()),
    "Shoota": (18, "4", 6, "assault", 2, 0, "", False, set()),
    "Big shoota": (36, "5", 5, "assault", 3, 0, "", False, set()),
    "Rokkit launcha": (24, "8", 3, "assault", 1, 0, "", False, set()),
    "Shuriken catapult": (12, "4", 5, "assault", 2, 0, "", False, {"bladestorm"}),
    "Avenger shuriken catapult": (18, "4", 5, "assault", 2, 0, "", False, {"bladestorm"}),
    "Shuriken pistol": (12, "4", 5, "pistol", 1, 0, "", False, {"bladestorm"}),
    "Fusion gun": (12, "8", 1, "assault", 1, 0, "", False, {"melta"}),
    "Pulse rifle": (30, "5", 5, "rapid_fire", 1, 0, "", False, set()),
    "Pulse carbine": (18, "5", 5, "assault", 2, 0, "", False, {"pinning"}),
    "Markerlight": (36, "X", D, "heavy", 1, 0, "", False, {"target_acquired", "no_damage"}),
    "Gauss flayer": (24, "4", 5, "rapid_fire", 1, 0, "", False, {"gauss"}),
    "Gauss blaster": (24, "5", 4, "rapid_fire", 1, 0, "", False, {"gauss"}),
    "Tesla carbine": (24, "5", D, "assault", 1, 0, "", False, {"tesla"}),
    "Splinter rifle": (24, "X", 5, "rapid_fire", 1, 0, "", False, {"poisoned"}),
    "Splinter pistol": (12, "X", 5, "pistol", 1, 0, "", False, {"poisoned"}),
    "Fleshborer": (12, "4", 5, "assault", 1, 0, "", False, set()),
    "Devourer": (18, "4", D, "assault", 3, 0, "", False, set()),
    "Spinefists": (12, "3", 5, "assault", 1, 0, "", False, {"twin_linked"}),
    "Spike rifle": (18, "3", D, "assault", 1, 0, "", False, set()),
    "Psycannon": (24, "7", 4, "salvo", 2, 4, "", False, {"rending"}),
    "Incinerator": (8, "6", 4, "assault", 1, 0, "", True, {"soul_blaze"}),
    "Psilencer": (24, "4", D, "heavy", 6, 0, "", False, {"force"}),
}
GRENADES = {
    "Frag grenade": (8, "3", D, "grenade", 1, 0, "small", False, {"assault_grenade"}),
    "Krak grenade": (8, "6", 4, "grenade", 1, 0, "", False, set()),
    "Plasma grenade": (8, "4", 4, "grenade", 1, 0, "small", False, {"assault_grenade"}),
    "Defensive grenade": (8, "1", D, "grenade", 1, 0, "small", False, {"blind", "defensive_grenade"}),
    "Psyk-out grenade": (8, "2", D, "grenade", 1, 0, "small", False, {"psi_shock", "assault_grenade"}),
    "Blight grenade": (8, "3", D, "grenade", 1, 0, "small", False, {"assault_grenade", "defensive_grenade"}),
}
# name: (S, AP, rules)
MELEE = {
    "Close combat weapon": ("User", D, set()),
    "Chainsword": ("User", D, set()),
    "Choppa": ("User", D, set()),
    "Plague knife": ("User", D, {"poisoned"}),
    "Scything talons": ("User", 6, set()),
    "Rending claws": ("User", 5, {"rending"}),
    "Scorpion chainsword": ("+1", 6, set()),
    "Biting blade": ("+2", 4, {"two_handed"}),
    "Chainaxe": ("User", 4, set()),
    "Power sword": ("User", 3, set()),
    "Power axe": ("+1", 2, {"unwieldy"}),
    "Power maul": ("+2", 4, {"concussive"}),
    "Power lance": ("User", 4, set()),
    "Power fist": ("x2", 2, {"specialist", "unwieldy"}),
    "Thunder hammer": ("x2", 2, {"concussive", "specialist", "unwieldy"}),
    "Lightning claw": ("User", 3, {"shred", "specialist"}),
    "Big choppa": ("+2", 5, {"two_handed"}),
    "Heavy chainsword": ("+2", 5, {"two_handed"}),
    "Eviscerator": ("x2", 2, {"armourbane", "two_handed", "unwieldy"}),
    "Force sword": ("User", 3, {"force"}),
    "Force axe": ("+1", 2, {"force", "unwieldy"}),
    "Force staff": ("+2", 4, {"force", "concussive"}),
    "Witchblade": ("User", D, {"armourbane", "fleshbane"}),
    "Nemesis force sword": ("User", 3, {"force", "daemonbane"}),
    "Hydra gauntlets": ("User", 5, {"shred", "specialist"}),
    "Agoniser": ("User", D, {"poisoned"}),
    "Manreaper": ("+2", 2, set()),
    "Melta bomb": ("8", 1, {"armourbane", "unwieldy"}),
}
WEAPON_FIELDS = (
    "range_in",
    "strength",
    "ap",
    "kind",
    "shots",
    "shots_stationary",
    "blast",
    "template",
    "rules",
)


@pytest.mark.parametrize("name", list(RANGED) + list(GRENADES))
def test_ranged_weapon_and_grenade_profiles(cat, name):
    expected = {**RANGED, **GRENADES}[name]
    weapon = cat.weapon(name)
    assert {f: getattr(weapon, f) for f in WEAPON_FIELDS} == dict(zip(WEAPON_FIELDS, expected, strict=True))


@pytest.mark.parametrize("name", list(MELEE))
def test_melee_weapon_profiles(cat, name):
    strength, ap, rules = MELEE[name]
    weapon = cat.weapon(name)
    assert (weapon.kind, weapon.range_in, weapon.strength, weapon.ap, weapon.rules) == (
        "melee",
        0,
        strength,
        ap,
        rules,
    )


def test_weapon_special_fields(cat):
    lance = cat.weapon("Power lance")
    assert (lance.strength_on_charge, lance.ap_on_charge) == ("+1", 3)
    assert cat.weapon("Spinefists").shots_from_attacks
    assert all(cat.weapon(n).poisoned_on == 4 for n in ("Splinter rifle", "Plague knife", "Agoniser"))
    assert sum(w.shots_from_attacks for w in cat.weapons.values()) == 1


def test_item_aliases(cat):
    assert [w.name for w in cat.profiles_of("Grenade launcher")] == [
        "Grenade launcher (frag)",
        "Grenade launcher (krak)",
    ]
    assert cat.profiles_of("Power klaw") == (cat.weapon("Power fist"),)
    assert cat.profiles_of("Stikkbomb") == (cat.weapon("Frag grenade"),)
    assert cat.profiles_of("Photon grenade") == (cat.weapon("Defensive grenade"),)
    assert cat.profiles_of("  lasgun ") == (cat.weapon("Lasgun"),)
    assert all(cat.items[name] == (name,) for name in cat.weapons)
    assert "Chainsaw (power-up)" not in cat.items


# ----------------------------------------------------------------------------------------------
# Killing Floor (zombie40k §10.11)
# ----------------------------------------------------------------------------------------------

KILLING_FLOOR = {
    "pistols": {"Inferno pistol": 3, "Hand flamer": 2, "Plasma pistol": 3},
    "melee": {
        "Power sword": 3,
        "Force sword": 3,
        "Power maul": 3,
        "Force axe": 3,
        "Heavy chainsword": 2,
        "Power axe": 3,
        "Power fist": 5,
        "Eviscerator": 5,
        "Force staff": 3,
        "Thunder hammer": 6,
        "Witchblade": 2,
    },
    "basic": {
        "Shotgun": 1,
        "Space Marine shotgun": 1,
        "Boltgun": 1,
        "Flamer": 1,
        "Sniper rifle": 1,
        "Storm bolter": 1,
        "Grenade launcher": 1,
        "Meltagun": 2,
        "Plasma gun": 3,
    },
    "heavy": {
        "Assault cannon": 4,
        "Autocannon": 2,
        "Heavy bolter": 2,
        "Missile launcher": 3,
        "Multi-laser": 2,
        "Heavy flamer": 2,
        "Multi-melta": 2,
        "Plasma cannon": 3,
    },
    "grenades": {"Krak grenade": 2, "Defensive grenade": 1, "Plasma grenade": 2},
}


def test_killing_floor_price_list(cat):
    got: dict[str, dict[str, Fraction]] = {}
    for line in killing_floor(cat):
        got.setdefault(line.table, {})[line.item] = line.cost
    assert got == KILLING_FLOOR
    psyker = {line.item for line in killing_floor(cat) if line.psyker_only}
    assert psyker == {"Force sword", "Force axe", "Force staff", "Witchblade"}


# ----------------------------------------------------------------------------------------------
# Example teams (catalogue §6)
# ----------------------------------------------------------------------------------------------


def _team_cost(cat, models, leader=None, swaps=()):
    """Points of a team: models [(unit, count)], one leader (unit, name), swaps [(unit, item)]."""
    total = sum(cat.unit(u).cost_per_model * n for u, n in models)
    if leader is not None:
        total += cat.unit(leader[0]).leader(leader[1]).cost
    return total + sum(_option(cat.unit(u).swaps, item).cost for u, item in swaps)


TEAMS = [
    (
        "Marines",
        [("Tactical Marine", 4)],
        ("Tactical Marine", "Space Marine Sergeant"),
        [("Tactical Marine", "Meltagun")],
        66,
    ),
    ("Marines (bolters)", [("Tactical Marine", 5)], None, [], 70),
    (
        "Guard",
        [("Guardsman", 11)],
        ("Guardsman", "Sergeant"),
        [("Guardsman", "Flamer"), ("Guardsman", "Plasma gun")],
        75,
    ),
    ("Boyz", [("Ork Boy", 12)], None, [], 72),
    ("Eldar mix", [("Fire Dragon", 1), ("Striking Scorpion", 1), ("Dire Avenger", 2)], None, [], 65),
    ("Tau", [("Fire Warrior", 8)], None, [], 72),
    ("Necrons", [("Immortal", 4)], None, [], 68),
    ("Plague", [("Plague Marine", 3)], ("Plague Marine", "Plague Champion"), [], 72),
    ("Tyranids", [("Hormagaunt", 15)], None, [], 75),
    ("Genestealers", [("Genestealer", 5)], None, [], 70),
    ("Dark Eldar", [("Wych", 7)], None, [], 70),
    ("Sisters", [("Battle Sister", 6)], None, [], 72),
    ("Grey Knights", [("Grey Knight", 3)], ("Grey Knight", "Justicar"), [], 60),
]


@pytest.mark.parametrize(("team", "models", "leader", "swaps", "points"), TEAMS, ids=[t[0] for t in TEAMS])
def test_example_teams(cat, team, models, leader, swaps, points):
    assert _team_cost(cat, models, leader, swaps) == points <= 75


def test_guard_team_breakdown(cat):
    assert cat.unit("Guardsman").cost_per_model * 11 == 55
    assert _option(cat.unit("Guardsman").swaps, "Flamer").cost == 5
    assert _option(cat.unit("Guardsman").swaps, "Plasma gun").cost == 15


# ----------------------------------------------------------------------------------------------
# Every name resolves
# ----------------------------------------------------------------------------------------------


def _all_wargear_names(cat):
    for unit in cat.units.values():
        yield from unit.wargear
        for option in unit.swaps:
            yield option.item
            yield from option.replaces
        for lead in unit.leaders:
            yield from lead.wargear or ()
            for option in lead.options:
                yield option.item
                yield from option.replaces
    yield from (line.item for line in killing_floor(cat))


def test_every_name_resolves(cat):
    names = list(_all_wargear_names(cat))
    assert len(names) > 300
    for name in names:
        assert name in cat.items, name
        assert all(p in cat.weapons for p in cat.items[name])
        cat.profiles_of(name)


def test_options_replace_default_wargear(cat):
    for unit in cat.units.values():
        for option in unit.swaps:
            assert set(option.replaces) <= set(unit.wargear), (unit.name, option.item)
        for lead in unit.leaders:
            for option in lead.options:
                assert set(option.replaces) <= set(unit.leader_wargear(lead.name)), (unit.name, option.item)


def test_every_profile_is_used_somewhere(cat):
    used = {p for name in _all_wargear_names(cat) for p in cat.items[name]}
    assert set(cat.weapons) - used == set()


# ----------------------------------------------------------------------------------------------
# Lookups and errors
# ----------------------------------------------------------------------------------------------


def test_lookup_ignores_case_and_spaces(cat):
    assert cat.unit("  tactical MARINE ") is cat.unit("Tactical Marine")
    assert cat.weapon("PLASMA GUN").name == "Plasma gun"
    assert cat.unit("Tactical Marine").leader("veteran sergeant").name == "Veteran Sergeant"


@pytest.mark.parametrize(
    ("lookup", "message"),
    [
        (lambda c: c.unit("Tactical Marin"), "unknown unit 'Tactical Marin'; closest: 'Tactical Marine'"),
        (lambda c: c.weapon("Plasma gn"), "unknown weapon 'Plasma gn'; closest: 'Plasma gun'"),
        (
            lambda c: c.profiles_of("Missle launcher"),
            "unknown item 'Missle launcher'; closest: 'Missile launcher'",
        ),
        (
            lambda c: c.unit("Tactical Marine").leader("Sergent"),
            "unknown leader 'Sergent'; closest: 'Veteran Sergeant'",
        ),
    ],
)
def test_misspelt_names_give_the_closest(cat, lookup, message):
    with pytest.raises(UnknownNameError) as err:
        lookup(cat)
    assert str(err.value).startswith(message)
    assert "\n" not in str(err.value)


def test_unknown_name_without_close_match(cat):
    with pytest.raises(UnknownNameError, match=r"^unknown unit 'qqqq'; see `shamble units`$"):
        cat.unit("qqqq")
    with pytest.raises(UnknownNameError, match=r"^unknown weapon 'qqqq'; see `shamble weapons`$"):
        cat.weapon("qqqq")
    assert isinstance(UnknownNameError("x"), ValueError) and isinstance(CatalogueError("x"), ValueError)


def test_unknown_data_folder():
    with pytest.raises(UnknownNameError, match="unknown catalogue folder 'w40'"):
        load_catalogue(("w40",))


def test_load_is_cached():
    assert catalogue() is catalogue() and load_catalogue() is load_catalogue(("w40k",))
    assert "Zombie" in catalogue().units and "Zombie" not in load_catalogue().units  # the zombie side is zombie40k's


def test_catalogue_is_read_only(cat):
    with pytest.raises(TypeError):
        cat.units["Tactical Marine"] = None  # type: ignore[index]


# ----------------------------------------------------------------------------------------------
# Broken data: one bad field -> one line naming file, entry and field
# ----------------------------------------------------------------------------------------------


def _copy_data(tmp_path: Path) -> Path:
    for folder in ("w40k", "zombie40k"):
        for entry in (resources.files("sim") / "data" / folder).iterdir():
            if entry.name.endswith(".toml"):
                (tmp_path / entry.name).write_text(entry.read_text(encoding="utf-8"), encoding="utf-8")
    return tmp_path


def _break(folder: Path, file: str, anchor: str, old: str, new: str) -> None:
    """Replace the first ``old`` after ``anchor`` in ``file``."""
    path = folder / file
    text = path.read_text(encoding="utf-8")
    at = text.index(anchor)
    start = text.index(old, at)
    path.write_text(text[:start] + new + text[start + len(old) :], encoding="utf-8")


def test_unchanged_copy_loads(tmp_path):
    copy = load_catalogue_file(_copy_data(tmp_path), base=None, extensions=EXTENSIONS)
    assert copy.units == catalogue().units and copy.weapons == catalogue().weapons


BROKEN = [
    (
        "units.toml",
        'name = "Guardsman"',
        "ws = 3",
        "ws = 11",
        r"units\.toml: unit 'Guardsman': field 'ws' = 11; allowed: an integer 0-10$",
    ),
    (
        "units.toml",
        'name = "Guardsman"',
        "block_cost = 50\n",
        "",
        r"units\.toml: unit 'Guardsman': missing field 'block_cost'$",
    ),
    (
        "units.toml",
        'name = "Plague Marine"',
        '"fearless"',
        '"fearles"',
        r"units\.toml: unit 'Plague Marine': field 'rules' = 'fearles'; allowed: .*closest: 'fearless'",
    ),
    (
        "units.toml",
        'name = "Guardsman"',
        '"Lasgun", "Frag',
        '"Lasgn", "Frag',
        r"units\.toml: unit 'Guardsman': field 'wargear' = 'Lasgn'; allowed: .*closest: 'Lasgun'",
    ),
    (
        "units.toml",
        'name = "Guardsman"',
        "sv = 5",
        "save = 5",
        r"units\.toml: unit 'Guardsman': unknown field 'save'",
    ),
    (
        "units.toml",
        'name = "Guardsman"',
        "block_cost = 50",
        "block_cost = 50.5",
        r"units\.toml: unit 'Guardsman': field 'block_cost' = 50\.5; allowed: a non-negative integer",
    ),
    (
        "units.toml",
        'name = "Immortal"',
        'replaces = ["Gauss blaster"]',
        'replaces = ["Gauss flayer"]',
        r"units\.toml: unit 'Immortal': option 'Tesla carbine': field 'replaces' = 'Gauss flayer'",
    ),
    (
        "units.toml",
        'name = "Ork Boy"',
        "a = 3",
        "a = 12",
        r"units\.toml: unit 'Ork Boy': leader 'Boss Nob': field 'a' = 12; allowed: an integer 0-10$",
    ),
    (
        "units.toml",
        'name = "Plague Marine"',
        "fnp = 5",
        "fnp = 7",
        r"units\.toml: unit 'Plague Marine': field 'fnp' = 7; allowed: .*feel_no_pain",
    ),
    (
        "weapons.toml",
        'name = "Lasgun"',
        'kind = "rapid_fire"',
        'kind = "rapidfire"',
        r"weapons\.toml: weapon 'Lasgun': field 'kind' = 'rapidfire'; allowed: 'assault', 'rapid_fire'",
    ),
    (
        "weapons.toml",
        'name = "Plasma gun"',
        'strength = "7"',
        "strength = 7.5",
        r"weapons\.toml: weapon 'Plasma gun': field 'strength' = 7\.5; allowed: 1-10",
    ),
    (
        "weapons.toml",
        'name = "Meltagun"',
        '"melta"',
        '"meltaa"',
        r"weapons\.toml: weapon 'Meltagun': field 'rules' = 'meltaa'; allowed: a name of WEAPON_RULES",
    ),
    (
        "weapons.toml",
        'name = "Grav-gun"',
        "shots_stationary = 3",
        "shots_stationary = 0",
        r"weapons\.toml: weapon 'Grav-gun': .*salvo weapon needs shots_stationary",
    ),
    (
        "weapons.toml",
        'name = "Missile launcher"',
        '"Missile launcher (krak)"',
        '"Missile launcher (krack)"',
        r"weapons\.toml: item 'Missile launcher': field 'profiles' = 'Missile launcher \(krack\)'",
    ),
    (
        "killing_floor.toml",
        'item = "Power sword"',
        '"Power sword"',
        '"Power swrd"',
        r"killing_floor\.toml: killing-floor item 'Power swrd': field 'item' = 'Power swrd'; .*'Power sword'",
    ),
    (
        "killing_floor.toml",
        'item = "Power sword"',
        '"melee"',
        '"hand"',
        r"killing_floor\.toml: killing-floor item 'Force sword': field 'table' = 'hand'; allowed: 'pistols'",
    ),
    (
        "units.toml",
        "[[unit]]",
        'name = "Guardsman"',
        'name = "Tactical marine"',
        r"units\.toml: unit 'Tactical marine': duplicate name 'Tactical marine'$",
    ),
    ("units.toml", 'name = "Guardsman"', "[[unit.leader]]", "[[unit.leader]\n", r"units\.toml: invalid TOML"),
]


@pytest.mark.parametrize(("file", "anchor", "old", "new", "pattern"), BROKEN, ids=[b[4][:40] for b in BROKEN])
def test_broken_data_names_file_entry_and_field(tmp_path, file, anchor, old, new, pattern):
    _break(_copy_data(tmp_path), file, anchor, old, new)
    with pytest.raises(CatalogueError) as err:
        load_catalogue_file(tmp_path, base=None, extensions=EXTENSIONS)
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith(str(tmp_path / file))
    assert re.search(pattern, message), message


# ----------------------------------------------------------------------------------------------
# User extensions
# ----------------------------------------------------------------------------------------------

EXTRA_UNIT = """
[[unit]]
faction = "Chaos Space Marines"
name = "Printed Cultist"
block_cost = 50
block_models = 8
profile = { ws = 3, bs = 3, s = 3, t = 3, w = 1, i = 3, a = 1, ld = 7, sv = 6 }
wargear = ["autopistol", "Close Combat Weapon"]
swaps = [{ item = "autogun", cost = "1/2", replaces = ["Autopistol"] }]
"""


def test_user_file_extends_the_base(tmp_path):
    path = tmp_path / "extra.toml"
    path.write_text(EXTRA_UNIT, encoding="utf-8")
    cat = catalogue_file(path)
    unit = cat.unit("printed cultist")
    assert unit.cost_per_model == Fraction(25, 4)
    assert unit.wargear == ("Autopistol", "Close combat weapon")
    assert unit.swaps[0].cost == Fraction(1, 2)
    assert "Tactical Marine" in cat.units


def test_user_file_cannot_redefine_a_base_name(tmp_path):
    path = tmp_path / "extra.toml"
    path.write_text(EXTRA_UNIT.replace("Printed Cultist", "chaos cultist"), encoding="utf-8")
    with pytest.raises(
        CatalogueError, match=r"extra\.toml: unit 'chaos cultist': duplicate name 'chaos cultist'"
    ):
        catalogue_file(path)


def test_missing_user_path(tmp_path):
    with pytest.raises(CatalogueError, match="no such TOML file"):
        catalogue_file(tmp_path / "nope.toml")
