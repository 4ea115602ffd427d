"""The combat kernels against the exact odds of `sim.w40k.exact`, one exchange at a time.

Each case plays an exchange (attacker, weapon, dice, target, situation) in 40,000 games of
the jitted kernels and compares the histogram of (unsaved wounds, models removed) with the
exact joint pmf: chi-square at alpha = 1e-4, bins pooled below an expected count of 5
(tests/helpers.py says why). The cases span every rule of the combat engine; each names the
rules it exercises.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import icepool
import numpy as np
import pytest
from helpers import assert_matches_pmf

from kernels.w40k import columns as L
from sim.rulesets.zombie40k.catalogue import catalogue
from sim.w40k.exact import exchange_odds
from sim.w40k.exchange import Exchange, simulate_exchange
from sim.w40k.profiles import Profile, Weapon

N_GAMES = 40_000
CAT = catalogue()


def unit(name: str, **changes) -> Profile:
    return replace(CAT.unit(name).profile, **changes)


def weapon(name: str) -> Weapon:
    return CAT.weapon(name)


def with_rules(profile: Profile, *rules: str) -> Profile:
    return replace(profile, rules=profile.rules | set(rules))


ZOMBIE = unit("Zombie")
BOSS = unit("Zombie Boss")
TVIRUS = unit("Zombie", t=4, fnp=4)
MARINE = unit("Tactical Marine")
GUARD = unit("Guardsman")
NOB = CAT.unit("Ork Boy").leader_profile("Boss Nob")

# (id, attacker, weapon, dice, target models, options)
CASES = [
    ("boltgun-zombies", MARINE, "Boltgun", 10, (ZOMBIE,) * 10, {}),
    ("boltgun-tvirus", MARINE, "Boltgun", 10, (TVIRUS,) * 10, {}),
    ("lasgun-zombies", GUARD, "Lasgun", 20, (ZOMBIE,) * 10, {}),
    ("lasgun-cover", GUARD, "Lasgun", 20, (ZOMBIE,) * 5, {"cover": 5}),
    ("sniper-boss", unit("Veteran"), "Sniper rifle", 6, (BOSS,), {}),
    ("lascannon-boss-eternal-warrior", MARINE, "Lascannon", 6, (BOSS,), {}),
    ("meltagun-instant-death", MARINE, "Meltagun", 4, (MARINE,) * 3, {}),
    ("plasma-gets-hot-plague", MARINE, "Plasma gun", 8, (unit("Plague Marine"),) * 3, {}),
    ("krak-missile-nob-instant-death", MARINE, "Missile launcher (krak)", 3, (NOB, NOB), {}),
    ("frag-missile-blast", MARINE, "Missile launcher (frag)", 3, (GUARD,) * 10, {}),
    ("flamer-template", MARINE, "Flamer", 2, (ZOMBIE,) * 10, {}),
    ("flamer-overwatch-d3", MARINE, "Flamer", 1, (ZOMBIE,) * 5, {"overwatch": True}),
    ("heavy-bolter-snap", MARINE, "Heavy bolter", 3, (ZOMBIE,) * 10, {"snap": True}),
    ("bladestorm-marines", unit("Dire Avenger"), "Avenger shuriken catapult", 10, (MARINE,) * 5, {}),
    ("gauss-boss", unit("Necron Warrior"), "Gauss flayer", 10, (BOSS,), {}),
    ("tesla-zombies", unit("Immortal"), "Tesla carbine", 6, (ZOMBIE,) * 10, {}),
    ("splinter-poisoned-boss", unit("Kabalite Warrior"), "Splinter rifle", 10, (BOSS,), {}),
    ("pulse-rifle-tvirus", unit("Fire Warrior"), "Pulse rifle", 10, (TVIRUS,) * 10, {}),
    ("autopistol-zombies", unit("Chaos Cultist"), "Autopistol", 8, (ZOMBIE,) * 5, {}),
    ("plasma-cannon-large-blast-gets-hot", MARINE, "Plasma cannon", 2, (GUARD,) * 10, {}),
    ("graviton-marines", MARINE, "Grav-gun", 6, (MARINE,) * 5, {}),
    ("twin-linked-combi-bolter", unit("Chaos Space Marine"), "Combi-bolter", 8, (ZOMBIE,) * 10, {}),
    ("grenade-launcher-frag-blast", GUARD, "Grenade launcher (frag)", 3, (ZOMBIE,) * 10, {}),
    ("fusion-gun-boss", unit("Fire Dragon"), "Fusion gun", 4, (BOSS,), {}),
    ("storm-bolter-chuck-norris", unit("Grey Knight"), "Storm bolter", 8, (ZOMBIE,) * 10, {"extra_reroll": True}),
    ("blight-grenade-guard", BOSS, "Blight Grenade", 2, (GUARD,) * 8, {}),
    ("zombie-autogun-marines", ZOMBIE, "Autogun", 6, (MARINE,) * 5, {}),
    ("psycannon-rending-shooting", unit("Grey Knight"), "Psycannon", 8, (BOSS,), {}),
    ("patriarch-assault-cannon", unit("Patriarch"), "Assault cannon", 8, (MARINE,) * 5, {}),
    ("medpacks-marines", GUARD, "Lasgun", 20, (MARINE,) * 3, {"cancels": 2}),  # Medpacks (zombie40k §8 result 7)
    ("defender-chuck-norris", MARINE, "Boltgun", 10, (GUARD,) * 5, {"save_reroll": True}),
    ("reanimation-vs-instant-death", MARINE, "Lascannon", 6, (unit("Necron Warrior"),) * 3, {}),
    ("bs7-high-ballistic-reroll", unit("Tactical Marine", bs=7), "Boltgun", 10, (ZOMBIE,) * 10, {}),
    ("preferred-enemy-shooting", with_rules(GUARD, "preferred_enemy"), "Lasgun", 20, (ZOMBIE,) * 10, {}),
    ("mixed-saves-allocation", MARINE, "Boltgun", 10,
     (unit("Fire Dragon"), unit("Striking Scorpion"), unit("Dire Avenger"), unit("Dire Avenger")), {}),
    ("multi-wound-nob-first", MARINE, "Heavy bolter", 6, (NOB, unit("Ork Boy"), unit("Ork Boy")), {}),
    ("krak-missile-zombies-instant-death-no-fnp", MARINE, "Missile launcher (krak)", 6, (ZOMBIE,) * 6, {}),
    ("meltagun-t4-boss-eternal-warrior", MARINE, "Meltagun", 6, (unit("Zombie Boss", t=4),) * 2, {}),
    ("damaged-boss", MARINE, "Boltgun", 10, (BOSS,), {"wounds": (2,)}),
    # close combat
    ("zombies-rending-guard", ZOMBIE, "Close combat weapon", 10, (GUARD,) * 5, {"melee": True}),
    ("zombies-rending-marines", ZOMBIE, "Close combat weapon", 15, (MARINE,) * 5, {"melee": True, "charged": True}),
    ("ork-furious-charge", unit("Ork Boy"), "Choppa", 12, (ZOMBIE,) * 10, {"melee": True, "charged": True}),
    ("genestealer-rending-boss", unit("Genestealer"), "Rending claws", 8, (BOSS,), {"melee": True}),
    ("power-fist-boss", MARINE, "Power fist", 3, (BOSS,), {"melee": True}),
    ("thunder-hammer-concussive-boss", MARINE, "Thunder hammer", 3, (BOSS,), {"melee": True}),
    ("power-fist-tvirus-instant-death", MARINE, "Power fist", 4, (TVIRUS,) * 4, {"melee": True}),
    ("lightning-claw-shred", MARINE, "Lightning claw", 6, (TVIRUS,) * 5, {"melee": True}),
    ("zombies-vs-dodge-wyches", ZOMBIE, "Close combat weapon", 12, (unit("Wych"),) * 5, {"melee": True}),
    ("power-lance-on-charge", MARINE, "Power lance", 4, (MARINE,) * 3, {"melee": True, "charged": True}),
    ("plague-knife-poisoned-boss", unit("Plague Marine"), "Plague knife", 6, (BOSS,), {"melee": True}),
    ("manreaper-rending-marines", BOSS, "Manreaper", 4, (MARINE,) * 5, {"melee": True}),
    ("hatred-first-round", with_rules(GUARD, "hatred"), "Close combat weapon", 10, (ZOMBIE,) * 5,
     {"melee": True, "first_round": True}),
    ("hatred-later-round", with_rules(GUARD, "hatred"), "Close combat weapon", 10, (ZOMBIE,) * 5,
     {"melee": True, "first_round": False}),
    ("smash-marines", with_rules(MARINE, "smash"), "Close combat weapon", 6, (MARINE,) * 3, {"melee": True}),
    ("fleshbane-usr-boss", with_rules(GUARD, "fleshbane"), "Close combat weapon", 10, (BOSS,), {"melee": True}),
    ("poisoned-usr-tvirus", with_rules(GUARD, "poisoned"), "Close combat weapon", 10, (TVIRUS,) * 5,
     {"melee": True}),
    ("witchblade-fleshbane-weapon", MARINE, "Witchblade", 6, (BOSS,), {"melee": True}),
]


def _exchange(attacker, weapon_name, n_dice, target, options) -> Exchange:
    return Exchange(attacker, weapon(weapon_name), n_dice, tuple(target), **options)


def test_at_least_forty_cases_span_shooting_and_melee():
    melee = sum(1 for case in CASES if case[5].get("melee"))
    assert len(CASES) >= 40 and melee >= 10 and len(CASES) - melee >= 25


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_kernel_matches_exact_joint_distribution(case):
    name, attacker, weapon_name, n_dice, target, options = case
    exchange = _exchange(attacker, weapon_name, n_dice, target, options)
    odds = exchange_odds(exchange)
    seed = 20261129 + CASES.index(case)
    out = simulate_exchange(exchange, N_GAMES, seed)
    n_killed = odds.joint.shape[1]
    assert out[:, L.OUT_UNSAVED].max() < odds.joint.shape[0], "more unsaved wounds than the pmf allows"
    cells = out[:, L.OUT_UNSAVED] * n_killed + out[:, L.OUT_KILLED]
    assert_matches_pmf(cells, odds.joint.ravel(), what=name)


def test_ten_boltgun_shots_at_zombies_closed_form():
    """10 BS4 boltgun shots at T3 FNP 5+ zombies: P(kill per shot) = 2/3 x 2/3 x 2/3 = 8/27."""
    odds = exchange_odds(_exchange(MARINE, "Boltgun", 10, (ZOMBIE,) * 10, {}), exact=True)
    p = Fraction(8, 27)
    from math import comb

    for k in range(11):
        assert odds.exact[(k, k)] == comb(10, k) * p**k * (1 - p) ** (10 - k)


def test_tvirus_halves_boltgun_kills_closed_form():
    """T-Virus zombies (T4, FNP 4+): 2/3 to hit x 1/2 to wound x 1/2 FNP fails = 1/6 per shot."""
    odds = exchange_odds(_exchange(MARINE, "Boltgun", 1, (TVIRUS,), {}), exact=True)
    assert odds.exact[(1, 1)] == Fraction(1, 6)


def test_lascannon_on_eternal_warrior_boss_removes_one_wound_closed_form():
    """S9 vs the Boss's T5: wounds on 2+; no Instant Death (9 < 2 x 5); AP2 equal to the 2+
    save removes it, so the 5++ is taken; then Feel No Pain 5+: 2/3 x 5/6 x 2/3 x 2/3."""
    odds = exchange_odds(_exchange(MARINE, "Lascannon", 1, (BOSS,), {}), exact=True)
    p = Fraction(2, 3) * Fraction(5, 6) * Fraction(2, 3) * Fraction(2, 3)
    assert odds.exact[(1, 0)] == p


def test_meltagun_instant_death_ignores_feel_no_pain_closed_form():
    """S8 vs T4 FNP: Instant Death, so Feel No Pain is not taken (core-7th-edition §6.8)."""
    target = (with_rules(MARINE, "feel_no_pain"),)
    odds = exchange_odds(_exchange(MARINE, "Meltagun", 1, target, {}), exact=True)
    assert odds.exact[(1, 1)] == Fraction(2, 3) * Fraction(5, 6)


def test_simulation_is_reproducible_and_chunkable():
    exchange = _exchange(MARINE, "Boltgun", 10, (ZOMBIE,) * 10, {})
    whole = simulate_exchange(exchange, 1000, 5)
    parts = np.vstack([simulate_exchange(exchange, 300, 5, 0), simulate_exchange(exchange, 700, 5, 300)])
    assert np.array_equal(whole, parts)
    assert not np.array_equal(whole, simulate_exchange(exchange, 1000, 6))


# --- icepool as a second, independent oracle for the per-die procedures ----------------------


def _p(die_expr) -> Fraction:
    return Fraction(die_expr.probability(True))


@pytest.mark.parametrize(
    ("attacker", "weapon_name", "target", "hit", "wound", "save", "fnp"),
    [
        # lasgun BS3 at a zombie: 4+ to hit, 4+ to wound, no save, FNP 5+
        (GUARD, "Lasgun", ZOMBIE, icepool.d6 >= 4, icepool.d6 >= 4, None, icepool.d6 >= 5),
        # twin-linked combi-bolter BS4 at a zombie: 3+ re-rolling misses
        (unit("Chaos Space Marine"), "Combi-bolter", ZOMBIE, icepool.d6.reroll([1, 2], depth=1) >= 3,
         icepool.d6 >= 3, None, icepool.d6 >= 5),
        # BS7 boltgun: 2+, a 1 re-rolled needing 5+
        (unit("Tactical Marine", bs=7), "Boltgun", ZOMBIE, None, icepool.d6 >= 3, None, icepool.d6 >= 5),
        # boltgun at a Guardsman: S4 vs T3 wounds on 3+, AP5 removes the 5+ save
        (MARINE, "Boltgun", GUARD, icepool.d6 >= 3, icepool.d6 >= 3, None, None),
        # boltgun at a Tactical Marine: 3+ armour
        (MARINE, "Boltgun", MARINE, icepool.d6 >= 3, icepool.d6 >= 4, icepool.d6 >= 3, None),
    ],
)
def test_single_shot_kill_probability_matches_icepool(attacker, weapon_name, target, hit, wound, save, fnp):
    odds = exchange_odds(_exchange(attacker, weapon_name, 1, (target,), {}), exact=True)
    p_hit = _p(hit) if hit is not None else Fraction(5, 6) + Fraction(1, 6) * Fraction(2, 6)
    p = p_hit * _p(wound) * (1 - (_p(save) if save is not None else 0)) * (1 - (_p(fnp) if fnp is not None else 0))
    assert odds.exact[(1, 1)] == p
