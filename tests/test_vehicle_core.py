"""Attacks against vehicles (V3-V6, docs/apocalypse.md): the kernels of
``kernels.w40k.vehicles`` against the exact odds of ``sim.w40k.exact_vehicles``, hand-fed dice for
each rule's edge, and icepool as a second, independent oracle.

The Monte Carlo cases play 40,000 games each at a fixed seed and compare three histograms with the
exact pmfs by chi-square at alpha = 1e-4 (tests/helpers.py: an honest kernel fails one run in
10,000; a rule bug that moves a probability by a percent or more gives p far below 1e-10): the
Hull Points removed, the worst damage result, and for one die the joint (kind of hit, result).
"""

from __future__ import annotations

from fractions import Fraction

import icepool
import numpy as np
import pytest
from helpers import assert_matches_pmf

from kernels.w40k import vehicles as V
from sim.w40k.exact_vehicles import attack_die, damage_results, hit_kinds, vehicle_odds
from sim.w40k.profiles import NO_AP
from sim.w40k.vehicle_attack import VehicleAttack, VehicleRules, simulate_vehicle_attacks

N_GAMES = 40_000
SEVENTH = VehicleRules()
AP_MODS, TABLE = SEVENTH.arrays()

# (id, attack): the rules each case exercises are in its id
CASES = [
    ("lascannon-bs4-rhino-front", VehicleAttack(9, 11, ap=2, n_dice=5, hit_on=3)),
    ("meltagun-half-range-av12", VehicleAttack(8, 12, ap=1, n_dice=3, hit_on=3, melta_half_range=True)),
    ("meltagun-long-range-av12", VehicleAttack(8, 12, ap=1, n_dice=3, hit_on=3)),
    ("krak-grenades-rear-auto", VehicleAttack(6, 10, ap=4, n_dice=10)),
    ("zombies-s5-rear-4up", VehicleAttack(5, 10, n_dice=30, hit_on=4)),
    ("rending-claws-rear", VehicleAttack(4, 10, ap=NO_AP, n_dice=12, hit_on=4, rending=True)),
    ("melta-bomb-armourbane", VehicleAttack(8, 12, ap=1, n_dice=2, hit_on=4, armourbane=True)),
    ("haywire-grenades", VehicleAttack(2, 14, n_dice=6, hit_on=4, haywire=True)),
    ("bright-lance-av14", VehicleAttack(8, 14, ap=2, n_dice=4, hit_on=3, lance=True)),
    ("twin-linked-heavy-bolter-open-topped", VehicleAttack(5, 10, ap=4, n_dice=9, hit_on=3, hit_reroll=True,
                                                           open_topped=True, hull_points=2)),
    ("sixth-edition-table", VehicleAttack(9, 11, ap=2, n_dice=5, hit_on=3,
                                          rules=VehicleRules(damage_table="6th", ap_modifiers="5th"))),
    ("one-die-lascannon", VehicleAttack(9, 11, ap=2, n_dice=1, hit_on=3)),
]


@pytest.mark.parametrize("attack", [c[1] for c in CASES], ids=[c[0] for c in CASES])
def test_kernel_matches_exact_odds(attack):
    out = simulate_vehicle_attacks(attack, N_GAMES, seed=20261207)
    odds = vehicle_odds(attack)
    assert_matches_pmf(out[:, V.VO_HULL_POINTS], odds.hull_points_array(), "hull points")
    assert_matches_pmf(out[:, V.VO_WORST], odds.worst_array(), "worst result")
    assert (out[:, V.VO_HULL_POINTS] == out[:, V.VO_GLANCING] + out[:, V.VO_PENETRATING]).all()
    assert (out[:, V.VO_RESULT:V.VO_RESULT + V.N_DAMAGE - 1].sum(axis=1) == out[:, V.VO_PENETRATING]).all()


def test_one_die_joint_kind_and_result():
    """For one die the kernel's (kind of hit, damage result) against attack_die, cell by cell."""
    attack = VehicleAttack(8, 11, ap=1, n_dice=1, hit_on=3, melta_half_range=True)
    out = simulate_vehicle_attacks(attack, N_GAMES, seed=7)
    category = np.where(out[:, V.VO_PENETRATING] > 0, 1 + out[:, V.VO_WORST], out[:, V.VO_GLANCING])
    pmf = np.zeros(2 + V.N_DAMAGE - 1)
    for (kind, result), p in attack_die(attack).items():
        pmf[1 + result if kind == V.HIT_PENETRATING else kind] += p
    assert_matches_pmf(category, pmf, "kind and result")


# ------------------------------------------------------------------ exact values by hand


def test_exact_values_by_hand():
    # S4 vs AV10: only a 6 glances, nothing penetrates
    kinds = hit_kinds(VehicleAttack(4, 10), exact=True)
    assert kinds[V.HIT_GLANCING] == Fraction(1, 6) and V.HIT_PENETRATING not in kinds
    # S8 vs AV11 with Melta at half range: 2D6 + 8 > 11 unless the dice total 3 or less
    kinds = hit_kinds(VehicleAttack(8, 11, melta_half_range=True), exact=True)
    assert kinds[V.HIT_GLANCING] == Fraction(2, 36) and kinds[V.HIT_PENETRATING] == Fraction(33, 36)
    # AP1 (+2) on the 7th-edition table: 5+ explodes; AP- (-1): 1-4 Crew Shaken, 5 Stunned, 6 Weapon
    assert damage_results(VehicleAttack(8, 11, ap=1), exact=True)[V.DMG_EXPLODES] == Fraction(2, 6)
    low = damage_results(VehicleAttack(8, 11), exact=True)
    assert low == {V.DMG_CREW_SHAKEN: Fraction(4, 6), V.DMG_CREW_STUNNED: Fraction(1, 6),
                   V.DMG_WEAPON_DESTROYED: Fraction(1, 6)}
    # Haywire: 1 nothing, 2-5 glancing, 6 penetrating, whatever the S and AV
    assert hit_kinds(VehicleAttack(1, 14, haywire=True), exact=True) == {
        V.HIT_NONE: Fraction(1, 6), V.HIT_GLANCING: Fraction(4, 6), V.HIT_PENETRATING: Fraction(1, 6)}
    # three S8 hits on an AV12 vehicle: each glances or penetrates on a 4+, so all three take 3 Hull Points
    odds = vehicle_odds(VehicleAttack(8, 12, ap=1, n_dice=3), exact=True)
    assert odds.hull_points[3] == Fraction(1, 8)


# ------------------------------------------------------------------ icepool, a second oracle


@pytest.mark.parametrize("strength, armour, melta", [(4, 10, False), (6, 10, False), (8, 12, True), (9, 11, False),
                                                     (7, 14, True)])
def test_penetration_odds_match_icepool(strength, armour, melta):
    roll = (2 @ icepool.d6 if melta else icepool.d6) + strength
    kinds = hit_kinds(VehicleAttack(strength, armour, melta_half_range=melta), exact=True)
    assert kinds.get(V.HIT_GLANCING, 0) == roll.probability("==", armour)
    assert kinds.get(V.HIT_PENETRATING, 0) == roll.probability(">", armour)


def test_damage_table_matches_icepool():
    """AP2 against an Open-topped vehicle: D6 + 2, 7+ Explodes!, 6 Immobilised, 5 Weapon Destroyed."""
    roll = icepool.d6 + 2
    results = damage_results(VehicleAttack(9, 10, ap=2, open_topped=True), exact=True)
    assert results[V.DMG_EXPLODES] == roll.probability(">=", 7)
    assert results[V.DMG_IMMOBILISED] == roll.probability("==", 6)
    assert results[V.DMG_WEAPON_DESTROYED] == roll.probability("==", 5)


# ------------------------------------------------------------------ hand-fed dice, each edge


def _spec(**kw) -> np.ndarray:
    return VehicleAttack(**kw).spec()


def _hit(spec, rng):
    out = np.zeros(V.N_VOUT, dtype=np.int64)
    result = V.resolve_vehicle_hit(rng, 0, spec, AP_MODS, TABLE, out)
    return out, result


def test_equal_roll_is_a_glancing_hit_and_rolls_no_damage(dice, rng):
    dice.script(6)  # S4 + 6 = 10 against AV10
    out, result = _hit(_spec(strength=4, armour=10), rng)
    dice.done()
    assert (out[V.VO_GLANCING], out[V.VO_PENETRATING], out[V.VO_HULL_POINTS], result) == (1, 0, 1, V.DMG_NONE)


def test_a_roll_under_the_armour_does_nothing(dice, rng):
    dice.script(5)  # S4 + 5 = 9 < AV10
    out, result = _hit(_spec(strength=4, armour=10), rng)
    dice.done()
    assert out.sum() == 0 and result == V.DMG_NONE


def test_higher_roll_penetrates_and_rolls_on_the_table(dice, rng):
    dice.script(6, 4)  # S5 + 6 = 11 > AV10; damage 4, AP- (-1): 3 = Crew Shaken
    out, result = _hit(_spec(strength=5, armour=10), rng)
    dice.done()
    assert (out[V.VO_PENETRATING], out[V.VO_HULL_POINTS], result) == (1, 1, V.DMG_CREW_SHAKEN)


def test_melta_at_half_range_rolls_2d6(dice, rng):
    dice.script(2, 2, 3)  # S8 + 2 + 2 = 12 > AV11; damage 3 + 2 (AP1) = 5 Weapon Destroyed
    out, result = _hit(_spec(strength=8, armour=11, ap=1, melta_half_range=True), rng)
    dice.done()
    assert (out[V.VO_PENETRATING], result) == (1, V.DMG_WEAPON_DESTROYED)
    dice.script(2)  # beyond half range one D6: 8 + 2 = 10 < AV11
    out, _ = _hit(_spec(strength=8, armour=11, ap=1), rng)
    dice.done()
    assert out.sum() == 0


def test_armourbane_rolls_2d6(dice, rng):
    dice.script(1, 3, 6)  # melta bomb S8 + 1 + 3 = 12 = AV12: glancing (no damage die rolled)
    out, _ = _hit(_spec(strength=8, armour=12, ap=1, armourbane=True), rng)
    assert out[V.VO_GLANCING] == 1
    assert dice.rolled == 2


@pytest.mark.parametrize("ap, die, expected", [
    (1, 5, V.DMG_EXPLODES),           # 5 + 2
    (2, 5, V.DMG_IMMOBILISED),        # 5 + 1
    (3, 5, V.DMG_WEAPON_DESTROYED),   # 5 + 0
    (NO_AP, 5, V.DMG_CREW_STUNNED),   # 5 - 1
    (NO_AP, 1, V.DMG_CREW_SHAKEN),    # 1 - 1 = 0 reads as Crew Shaken
    (1, 6, V.DMG_EXPLODES),           # 8 reads as 7+
])
def test_ap_modifiers_on_the_damage_roll(ap, die, expected):
    assert V.damage_result(die, V.damage_modifier(ap, 0, AP_MODS), TABLE) == expected


def test_open_topped_adds_one():
    assert V.damage_result(6, V.damage_modifier(3, 1, AP_MODS), TABLE) == V.DMG_EXPLODES
    assert V.damage_result(6, V.damage_modifier(3, 0, AP_MODS), TABLE) == V.DMG_IMMOBILISED


def test_rending_six_adds_a_d3(dice, rng):
    dice.script(6, 5, 1)  # S3 + 6 + D3 (a 5: 3) = 12 > AV11; damage 1 - 1 (AP-): Crew Shaken
    out, result = _hit(_spec(strength=3, armour=11, rending=True), rng)
    dice.done()
    assert (out[V.VO_PENETRATING], result) == (1, V.DMG_CREW_SHAKEN)
    dice.script(6)  # without Rending: 3 + 6 = 9 < AV11
    out, _ = _hit(_spec(strength=3, armour=11), rng)
    dice.done()
    assert out.sum() == 0


@pytest.mark.parametrize("die, kind", [(1, V.HIT_NONE), (2, V.HIT_GLANCING), (5, V.HIT_GLANCING),
                                       (6, V.HIT_PENETRATING)])
def test_haywire_rolls_its_own_d6(dice, rng, die, kind):
    dice.script(die, *([3] if kind == V.HIT_PENETRATING else []))
    out, _ = _hit(_spec(strength=1, armour=14, haywire=True), rng)
    dice.done()
    assert (out[V.VO_GLANCING], out[V.VO_PENETRATING]) == (kind == V.HIT_GLANCING, kind == V.HIT_PENETRATING)


def test_lance_counts_armour_above_12_as_12(dice, rng):
    dice.script(4)  # S8 + 4 = 12: nothing against AV14, a glancing hit with Lance (AV 12)
    out, _ = _hit(_spec(strength=8, armour=14, lance=True), rng)
    dice.done()
    assert out[V.VO_GLANCING] == 1
    assert V.lance_armour(14, 1) == 12 and V.lance_armour(11, 1) == 11 and V.lance_armour(14, 0) == 14


def test_to_hit_roll_and_twin_linked_reroll(dice, rng):
    assert V.roll_hit(rng, 0, 1, 0)  # automatic: no die
    dice.script(2, 4)  # 2 fails a 3+, the twin-linked re-roll of 4 hits
    assert V.roll_hit(rng, 0, 3, 1)
    dice.script(2)
    assert not V.roll_hit(rng, 0, 3, 0)
    dice.done()


def test_vehicle_attack_rejects_bad_values():
    with pytest.raises(ValueError, match="armour = 8; allowed: an integer 9-14"):
        VehicleAttack(4, 8)
    with pytest.raises(ValueError, match="damage_table = '8th'"):
        VehicleRules(damage_table="8th")
