"""Every rule of the attack kernels with hand-fed dice (house style: hand-fed dice per rule).

Each test builds a spec with ``kernels.w40k.attack_spec`` from a ``Weapon`` and ``Profile`` made
here (no catalogue), scripts the dice the rule sees with the ``dice`` fixture, resolves one
attack group with ``kernels.w40k.combat.resolve_attacks`` against a small target unit and asserts
the outcome counters, the target's Wounds and that exactly the scripted dice were rolled.

Dice come in the kernel's order: per attack die its to-hit die (and re-rolls), then per hit
its to-wound die (and re-rolls), the save die, then the Feel No Pain / Reanimation die.
Citations: core-7th-edition.md (§), zombie40k.md (Z§, A = its §15 ambiguities).
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import NamedTuple

import numba
import numpy as np
import pytest

import kernels
from kernels import rng as krng
from kernels.w40k import attack_spec, combat
from kernels.w40k import columns as L
from sim.w40k import tables
from sim.w40k.profiles import Profile, Weapon

NONE = L.NONE
WOUND_CHART = tables.wound_chart()
WS_CHART = tables.ws_chart()
GEOM = tables.Geometry().array()  # small blast 3 models / radius 1", large 6 / 2", template 4


# ----------------------------------------------------------------------- profiles, weapons


def profile(*, ws=4, bs=4, s=4, t=4, w=1, i=4, a=1, sv=NONE, inv=NONE, inv_melee=NONE, fnp=NONE, rules=()):
    return Profile("model", ws, bs, s, t, w, i, a, 8, sv=sv, inv=inv, inv_melee=inv_melee, fnp=fnp,
                   rules=frozenset(rules))


def gun(strength="4", ap=NONE, *, rules=(), **kw) -> Weapon:
    return Weapon("gun", 24, strength, ap, rules=frozenset(rules), **kw)


def blade(strength="User", ap=NONE, *, rules=(), **kw) -> Weapon:
    return Weapon("blade", 0, strength, ap, kind="melee", rules=frozenset(rules), **kw)


SHOOTER = profile()  # BS4: hits on 3+
FIGHTER = profile()  # WS4 S4: hits WS4 on 4+
TARGET = profile()  # T4, no save, W1
BOLTER = gun("4", 5)
PLASMA = gun("7", 2, rules={"gets_hot"})


# ------------------------------------------------------------------------- target units


@dataclass
class Unit:
    """A target unit as the kernels see it; slot 0 is the closest model."""

    wounds: np.ndarray  # int16[n], current Wounds
    stats: np.ndarray  # int16[n, N_STATS]
    flags: np.ndarray  # int64[n]
    status: np.ndarray  # int8[n]
    medpacks: np.ndarray  # int64[0] (none held) or int64[1]

    @property
    def t(self) -> int:
        return int(self.stats[0, L.T])

    @property
    def sv(self) -> int:
        return int(self.stats[0, L.SV])

    @property
    def ws(self) -> int:
        return int(self.stats[0, L.WS])


def unit(models: Profile | list[Profile] = TARGET, n: int = 1, medpacks: int | None = None) -> Unit:
    models = list(models) if isinstance(models, list) else [models] * n
    return Unit(
        wounds=np.array([m.w for m in models], dtype=np.int16),
        stats=np.array([tables.model_stats(m) for m in models], dtype=np.int16),
        flags=np.array([tables.model_flags(m) for m in models], dtype=np.int64),
        status=np.zeros(len(models), dtype=np.int8),
        medpacks=combat.no_cancels() if medpacks is None else np.array([medpacks], dtype=np.int64),
    )


class Outcome(NamedTuple):
    hits: int
    wounds: int
    unsaved: int
    killed: int
    ones: int
    fnp: int
    medpacks: int
    blind_hits: int
    pinning: int


# ------------------------------------------------------------------------ attack groups


def resolve(rng, spec, target: Unit, n_dice=1, cover=NONE, defender_chuck=0) -> Outcome:
    out = np.zeros(L.N_OUT, dtype=np.int64)
    combat.resolve_attacks(rng, 0, n_dice, spec, target.wounds, target.stats, target.flags, target.status,
                           cover, defender_chuck, target.medpacks, out)
    return Outcome(*(int(x) for x in out))


def shoot(rng, target: Unit, weapon: Weapon = BOLTER, *, n_dice=1, shooter=SHOOTER, snap=False,
          overwatch=False, chuck=0, cover=NONE, defender_chuck=0) -> Outcome:
    spec = np.zeros(L.N_SPEC, dtype=np.int64)
    attack_spec.shooting_spec(spec, tables.weapon_row(weapon), tables.model_stats(shooter),
                              tables.model_flags(shooter), target.t, target.sv, snap, overwatch, chuck,
                              WOUND_CHART, GEOM)
    return resolve(rng, spec, target, n_dice, cover, defender_chuck)


def fight(rng, target: Unit, weapon: Weapon | None = None, *, n_dice=1, attacker=FIGHTER, charged=False,
          first_round=False, chuck=0, cover=NONE, defender_chuck=0) -> Outcome:
    spec = np.zeros(L.N_SPEC, dtype=np.int64)
    attack_spec.melee_spec(spec, tables.weapon_row(weapon or blade()), tables.model_stats(attacker),
                           tables.model_flags(attacker), target.ws, target.t, target.sv, charged,
                           first_round, chuck, WS_CHART, WOUND_CHART)
    return resolve(rng, spec, target, n_dice, cover, defender_chuck)


def hammer_of_wrath(rng, target: Unit, attacker=FIGHTER) -> Outcome:
    spec = np.zeros(L.N_SPEC, dtype=np.int64)
    attack_spec.hammer_of_wrath_spec(spec, tables.model_stats(attacker), target.t, WOUND_CHART)
    return resolve(rng, spec, target)


def chainsaw(rng, target: Unit, *, n_dice=1, chuck=0) -> Outcome:
    """zombie40k §8 result 6: hits on 2+, no wound roll, no saves, no Feel No Pain."""
    spec = np.zeros(L.N_SPEC, dtype=np.int64)
    attack_spec.wound_removing_spec(spec, 2, 1, False, chuck)
    return resolve(rng, spec, target, n_dice)


def shotgun(rng, target: Unit, *, n_dice=1, cover=NONE) -> Outcome:
    """zombie40k §8 result 8: hits on 2+, no wound roll, armour/invulnerable allowed, no cover/FNP."""
    spec = np.zeros(L.N_SPEC, dtype=np.int64)
    attack_spec.wound_removing_spec(spec, 2, 0, True, 0)
    return resolve(rng, spec, target, n_dice, cover)


# =========================================================================== to hit: shooting


@pytest.mark.parametrize("bs", [1, 3, 5])
def test_natural_one_always_fails_to_hit(dice, rng, bs):
    dice.script(1)
    assert shoot(rng, unit(), shooter=profile(bs=bs)).hits == 0
    dice.done()


def test_natural_one_fails_to_hit_even_at_bs10(dice, rng):
    dice.script(1, 1)  # BS10: 2+, a failed die re-rolled at 2+
    assert shoot(rng, unit(), shooter=profile(bs=10)).hits == 0
    dice.done()


@pytest.mark.parametrize("bs", [1, 2, 3, 4, 5])
def test_shooting_hits_on_seven_minus_bs(dice, rng, bs):
    need = 7 - bs
    dice.script(need - 1)
    assert shoot(rng, unit(), shooter=profile(bs=bs)).hits == 0
    dice.script(need, 1)  # hit; the to-wound 1 fails
    assert shoot(rng, unit(), shooter=profile(bs=bs)).hits == 1
    dice.done()


@pytest.mark.parametrize(("bs", "second"), [(6, 6), (7, 5), (8, 4), (9, 3), (10, 2)])
def test_bs6_plus_rerolls_a_failed_hit_at_the_second_number(dice, rng, bs, second):
    dice.script(1, second - 1)
    assert shoot(rng, unit(), shooter=profile(bs=bs)).hits == 0
    dice.script(1, second, 1)
    assert shoot(rng, unit(), shooter=profile(bs=bs)).hits == 1
    dice.done()


def test_bs6_first_die_hits_on_two_plus_without_reroll(dice, rng):
    dice.script(2, 1)
    assert shoot(rng, unit(), shooter=profile(bs=6)).hits == 1
    dice.done()


def test_twin_linked_rerolls_a_failed_hit(dice, rng):
    dice.script(2, 3, 1)
    assert shoot(rng, unit(), gun("4", rules={"twin_linked"})).hits == 1
    dice.done()


def test_twin_linked_rerolls_only_once(dice, rng):
    dice.script(2, 2)
    assert shoot(rng, unit(), gun("4", rules={"twin_linked"})).hits == 0
    dice.done()


def test_twin_linked_keeps_a_hit(dice, rng):
    dice.script(3, 1)
    assert shoot(rng, unit(), gun("4", rules={"twin_linked"})).hits == 1
    dice.done()


def test_twin_linked_at_bs6_never_rerolls_twice(dice, rng):
    dice.script(1, 1)  # the twin-linked re-roll is the die's one re-roll: no high-BS re-roll after it
    assert shoot(rng, unit(), gun("4", rules={"twin_linked"}), shooter=profile(bs=6)).hits == 0
    dice.done()


PE_SHOOTER = profile(rules={"preferred_enemy"})


def test_preferred_enemy_rerolls_a_one_to_hit(dice, rng):
    dice.script(1, 3, 2)  # 1 re-rolled into a hit; to-wound 2 fails (not a 1: no re-roll)
    out = shoot(rng, unit(), shooter=PE_SHOOTER)
    assert (out.hits, out.wounds) == (1, 0)
    dice.done()


def test_preferred_enemy_does_not_reroll_a_failed_two_to_hit(dice, rng):
    dice.script(2)
    assert shoot(rng, unit(), shooter=PE_SHOOTER).hits == 0
    dice.done()


def test_preferred_enemy_rerolls_a_one_to_wound(dice, rng):
    dice.script(3, 1, 4)
    out = shoot(rng, unit(), shooter=PE_SHOOTER)
    assert (out.wounds, out.killed) == (1, 1)
    dice.done()


def test_preferred_enemy_does_not_reroll_a_failed_two_to_wound(dice, rng):
    dice.script(3, 2)
    assert shoot(rng, unit(), shooter=PE_SHOOTER).wounds == 0
    dice.done()


def test_preferred_enemy_reroll_replaces_the_high_bs_reroll(dice, rng):
    dice.script(1, 2, 2)  # BS7: the 1 is re-rolled by Preferred Enemy at 2+, not at 5+
    assert shoot(rng, unit(), shooter=profile(bs=7, rules={"preferred_enemy"})).hits == 1
    dice.done()


def test_snap_shots_hit_on_six_only(dice, rng):
    dice.script(5)
    assert shoot(rng, unit(), snap=True).hits == 0
    dice.script(6, 1)
    assert shoot(rng, unit(), snap=True).hits == 1
    dice.done()


def test_twin_linked_rerolls_a_failed_snap_shot(dice, rng):
    dice.script(5, 6, 1)
    assert shoot(rng, unit(), gun("4", rules={"twin_linked"}), snap=True).hits == 1
    dice.done()


def test_snap_shots_get_no_high_bs_reroll(dice, rng):
    dice.script(5)
    assert shoot(rng, unit(), shooter=profile(bs=8), snap=True).hits == 0
    dice.done()


def test_tesla_six_scores_three_hits(dice, rng):
    dice.script(6, 1, 1, 1)
    out = shoot(rng, unit(n=5), gun("6", rules={"tesla"}))
    assert (out.hits, out.wounds) == (3, 0)
    dice.done()


def test_tesla_below_six_scores_one_hit(dice, rng):
    dice.script(5, 1)
    assert shoot(rng, unit(n=5), gun("6", rules={"tesla"})).hits == 1
    dice.done()


def test_tesla_snap_shot_six_scores_one_hit(dice, rng):
    dice.script(6, 1)
    assert shoot(rng, unit(n=5), gun("6", rules={"tesla"}), snap=True).hits == 1
    dice.done()


# ========================================================================= Chuck Norris (A35)


def test_chuck_norris_rerolls_a_failed_hit_once(dice, rng):
    dice.script(2, 2)
    assert shoot(rng, unit(), chuck=1).hits == 0
    dice.script(2, 4, 4)
    assert shoot(rng, unit(), chuck=1).killed == 1
    dice.done()


def test_chuck_norris_rerolls_once_more_after_twin_linked(dice, rng):
    dice.script(1, 2, 3, 4)  # twin-linked re-roll first, then Chuck; the wound 4 needs no re-roll
    assert shoot(rng, unit(), gun("4", rules={"twin_linked"}), chuck=1).killed == 1
    dice.script(1, 2, 2)  # both re-rolls spent
    assert shoot(rng, unit(), gun("4", rules={"twin_linked"}), chuck=1).hits == 0
    dice.done()


def test_chuck_norris_rerolls_after_the_high_bs_reroll(dice, rng):
    dice.script(1, 5, 6, 4)  # BS6: 1, re-roll at 6+ gives 5, Chuck re-rolls it: 6
    assert shoot(rng, unit(), shooter=profile(bs=6), chuck=1).killed == 1
    dice.done()


def test_chuck_norris_rerolls_a_failed_wound(dice, rng):
    dice.script(3, 3, 4)
    assert shoot(rng, unit(), chuck=1).wounds == 1
    dice.script(3, 3, 3)
    assert shoot(rng, unit(), chuck=1).wounds == 0
    dice.done()


def test_chuck_norris_rerolls_once_more_after_shred(dice, rng):
    dice.script(3, 2, 3, 4)
    assert shoot(rng, unit(), gun("4", rules={"shred"}), chuck=1).wounds == 1
    dice.done()


def test_defender_chuck_norris_rerolls_a_failed_save(dice, rng):
    dice.script(3, 4, 2, 3)
    out = shoot(rng, unit(profile(sv=3)), defender_chuck=1)
    assert (out.wounds, out.unsaved) == (1, 0)
    dice.script(3, 4, 2, 2)
    assert shoot(rng, unit(profile(sv=3)), defender_chuck=1).unsaved == 1
    dice.done()


def test_defender_chuck_norris_rerolls_a_failed_feel_no_pain(dice, rng):
    dice.script(3, 4, 4, 5)
    out = shoot(rng, unit(profile(rules={"feel_no_pain"})), defender_chuck=1)
    assert (out.fnp, out.killed) == (1, 0)
    dice.done()


# =============================================================================== to wound


@pytest.mark.parametrize(("s", "t", "need"), [(4, 4, 4), (5, 4, 3), (6, 4, 2), (3, 4, 5), (2, 4, 6), (1, 4, 6)])
def test_to_wound_follows_the_chart(dice, rng, s, t, need):
    dice.script(3, need - 1)
    assert shoot(rng, unit(profile(t=t)), gun(str(s))).wounds == 0
    dice.script(3, need)
    assert shoot(rng, unit(profile(t=t)), gun(str(s))).wounds == 1
    dice.done()


def test_natural_one_always_fails_to_wound(dice, rng):
    dice.script(3, 1)
    assert shoot(rng, unit(profile(t=1)), gun("10")).wounds == 0
    dice.done()


def test_six_cannot_wound_when_the_chart_says_no(dice, rng):
    dice.script(3, 6)  # S3 vs T7: "–"
    assert shoot(rng, unit(profile(t=7)), gun("3")).wounds == 0
    dice.done()


def test_rending_six_wounds_what_cannot_be_wounded(dice, rng):
    dice.script(3, 6)
    assert shoot(rng, unit(profile(t=7)), gun("3", rules={"rending"})).wounds == 1
    dice.script(3, 5)
    assert shoot(rng, unit(profile(t=7)), gun("3", rules={"rending"})).wounds == 0
    dice.done()


def test_rending_six_is_ap2(dice, rng):
    dice.script(3, 6)  # AP2 on the 6: no 3+ armour save, so no save die
    assert shoot(rng, unit(profile(sv=3)), gun("4", 5, rules={"rending"})).unsaved == 1
    dice.done()


def test_rending_below_six_keeps_the_weapon_ap(dice, rng):
    dice.script(3, 5, 3)
    assert shoot(rng, unit(profile(sv=3)), gun("4", 5, rules={"rending"})).unsaved == 0
    dice.done()


def test_rending_six_allows_an_invulnerable_save(dice, rng):
    dice.script(3, 6, 5)
    assert shoot(rng, unit(profile(sv=3, inv=5)), gun("4", 5, rules={"rending"})).unsaved == 0
    dice.done()


def test_bladestorm_six_wounds_and_is_ap2(dice, rng):
    dice.script(3, 6)
    out = shoot(rng, unit(profile(t=8, sv=3)), gun("4", 5, rules={"bladestorm"}))
    assert (out.wounds, out.unsaved) == (1, 1)
    dice.done()


def test_gauss_six_wounds_but_keeps_the_weapon_ap(dice, rng):
    dice.script(3, 6, 3)
    out = shoot(rng, unit(profile(t=8, sv=3)), gun("4", 5, rules={"gauss"}))
    assert (out.wounds, out.unsaved) == (1, 0)
    dice.script(3, 5)
    assert shoot(rng, unit(profile(t=8, sv=3)), gun("4", 5, rules={"gauss"})).wounds == 0
    dice.done()


SNIPER = gun("X", 6, rules={"sniper"})


@pytest.mark.parametrize("t", [1, 4, 8])
def test_sniper_wounds_on_four_plus_whatever_the_toughness(dice, rng, t):
    dice.script(3, 3)
    assert shoot(rng, unit(profile(t=t)), SNIPER).wounds == 0
    dice.script(3, 4)
    assert shoot(rng, unit(profile(t=t)), SNIPER).wounds == 1
    dice.done()


def test_sniper_wounds_on_four_plus_whatever_the_strength(dice, rng):
    dice.script(3, 3)  # S8 vs T4 would need 2+
    assert shoot(rng, unit(), gun("8", 6, rules={"sniper"})).wounds == 0
    dice.done()


def test_sniper_six_is_ap2(dice, rng):
    dice.script(3, 6)
    assert shoot(rng, unit(profile(sv=3)), SNIPER).unsaved == 1
    dice.done()


def test_sniper_below_six_keeps_ap6(dice, rng):
    dice.script(3, 4, 5)
    assert shoot(rng, unit(profile(sv=5)), SNIPER).unsaved == 0
    dice.done()


def test_poisoned_wounds_on_four_plus_when_the_chart_is_worse(dice, rng):
    dice.script(3, 4)  # S3 vs T5 needs 6+ on the chart
    assert shoot(rng, unit(profile(t=5)), gun("3", rules={"poisoned"})).wounds == 1
    dice.script(3, 3)  # S < T: no re-roll
    assert shoot(rng, unit(profile(t=5)), gun("3", rules={"poisoned"})).wounds == 0
    dice.done()


def test_poisoned_uses_the_chart_when_it_is_better(dice, rng):
    dice.script(3, 2)  # S6 vs T4: 2+
    assert shoot(rng, unit(), gun("6", rules={"poisoned"})).wounds == 1
    dice.done()


def test_poisoned_rerolls_failed_wounds_when_strength_beats_toughness(dice, rng):
    dice.script(3, 2, 3)  # S5 vs T4: 3+, re-roll the failed 2
    assert shoot(rng, unit(), gun("5", rules={"poisoned"})).wounds == 1
    dice.done()


def test_poisoned_no_reroll_when_strength_equals_toughness(dice, rng):
    dice.script(3, 3)
    assert shoot(rng, unit(), gun("4", rules={"poisoned"})).wounds == 0
    dice.done()


def test_poisoned_strength_x_uses_only_the_fixed_roll(dice, rng):
    weapon = gun("X", rules={"poisoned"}, poisoned_on=2)
    dice.script(3, 2)
    assert shoot(rng, unit(profile(t=10)), weapon).wounds == 1
    dice.script(3, 1)  # natural 1; no re-roll (no Strength to beat T)
    assert shoot(rng, unit(profile(t=10)), weapon).wounds == 0
    dice.done()


def test_fleshbane_wounds_on_two_plus(dice, rng):
    dice.script(3, 2)
    assert shoot(rng, unit(profile(t=7)), gun("3", rules={"fleshbane"})).wounds == 1
    dice.script(3, 1)
    assert shoot(rng, unit(profile(t=7)), gun("3", rules={"fleshbane"})).wounds == 0
    dice.done()


def test_shred_rerolls_a_failed_wound(dice, rng):
    dice.script(3, 3, 4)
    assert shoot(rng, unit(), gun("4", rules={"shred"})).wounds == 1
    dice.script(3, 3, 3)
    assert shoot(rng, unit(), gun("4", rules={"shred"})).wounds == 0
    dice.done()


def test_shred_does_not_reroll_a_wound(dice, rng):
    dice.script(3, 4)
    assert shoot(rng, unit(), gun("4", rules={"shred"})).wounds == 1
    dice.done()


GRAVITON = gun("X", 2, rules={"graviton"})


@pytest.mark.parametrize("sv", [2, 3, 5])
def test_graviton_wounds_on_the_target_armour_save(dice, rng, sv):
    dice.script(3, sv - 1)
    assert shoot(rng, unit(profile(sv=sv)), GRAVITON).wounds == 0
    dice.script(3, sv)
    assert shoot(rng, unit(profile(sv=sv)), GRAVITON).unsaved == 1
    dice.done()


def test_graviton_wounds_on_six_without_armour(dice, rng):
    dice.script(3, 5)
    assert shoot(rng, unit(), GRAVITON).wounds == 0
    dice.script(3, 6)
    assert shoot(rng, unit(), GRAVITON).wounds == 1
    dice.done()


# ================================================================================== saves


def test_armour_save_when_ap_is_worse_than_the_save(dice, rng):
    dice.script(3, 4, 3)
    assert shoot(rng, unit(profile(sv=3)), gun("4", 5)).unsaved == 0
    dice.script(3, 4, 2)
    assert shoot(rng, unit(profile(sv=3)), gun("4", 5)).unsaved == 1
    dice.done()


@pytest.mark.parametrize(("ap", "sv"), [(3, 3), (2, 4), (1, 2)])
def test_ap_equal_to_or_better_than_the_save_removes_armour(dice, rng, ap, sv):
    dice.script(3, 4)  # no save die
    assert shoot(rng, unit(profile(sv=sv)), gun("4", ap)).unsaved == 1
    dice.done()


@pytest.mark.parametrize("sv", [2, 6])
def test_ap_dash_never_removes_armour(dice, rng, sv):
    dice.script(3, 4, sv)
    assert shoot(rng, unit(profile(sv=sv)), gun("4", NONE)).unsaved == 0
    dice.done()


def test_natural_one_always_fails_a_save(dice, rng):
    dice.script(3, 4, 1)
    assert shoot(rng, unit(profile(sv=2)), gun("4", NONE)).unsaved == 1
    dice.done()


def test_invulnerable_save_ignores_ap(dice, rng):
    dice.script(3, 4, 5)
    assert shoot(rng, unit(profile(sv=3, inv=5)), gun("4", 2)).unsaved == 0
    dice.script(3, 4, 4)
    assert shoot(rng, unit(profile(sv=3, inv=5)), gun("4", 2)).unsaved == 1
    dice.done()


def test_best_single_save_is_rolled_once(dice, rng):
    target = profile(sv=4, inv=6)
    dice.script(3, 4, 3)  # 4+ armour is the best of 4+, 6++, 5+ cover: one die, it fails
    assert shoot(rng, unit(target), gun("4", NONE), cover=5).unsaved == 1
    dice.script(3, 4, 4)
    assert shoot(rng, unit(target), gun("4", NONE), cover=5).unsaved == 0
    dice.done()


def test_cover_save_when_ap_removes_armour(dice, rng):
    dice.script(3, 4, 4)
    assert shoot(rng, unit(profile(sv=3)), gun("4", 3), cover=4).unsaved == 0
    dice.done()


def test_cover_save_better_than_armour(dice, rng):
    dice.script(3, 4, 4)  # 6+ armour would fail; 4+ cover saves
    assert shoot(rng, unit(profile(sv=6)), gun("4", NONE), cover=4).unsaved == 0
    dice.done()


def test_ignores_cover_denies_the_cover_save(dice, rng):
    dice.script(3, 4)
    assert shoot(rng, unit(profile(sv=3)), gun("4", 3, rules={"ignores_cover"}), cover=4).unsaved == 1
    dice.done()


def test_ignores_cover_keeps_the_armour_save(dice, rng):
    dice.script(3, 4, 5)  # 3+ cover would save a 5; 6+ armour does not
    assert shoot(rng, unit(profile(sv=6)), gun("4", NONE, rules={"ignores_cover"}), cover=3).unsaved == 1
    dice.done()


def test_no_cover_save_in_close_combat(dice, rng):
    dice.script(4, 4)
    assert fight(rng, unit(profile(sv=3)), blade("User", 3), cover=4).unsaved == 1
    dice.done()


def test_save_uses_the_allocated_models_own_profile(dice, rng):
    target = unit([profile(sv=5), profile(sv=3)])  # AP5: none for the closest, 3+ for the second
    dice.script(3, 4, 3, 4, 3)
    out = shoot(rng, target, gun("4", 5), n_dice=2)
    assert (out.unsaved, out.killed) == (1, 1)
    assert target.wounds.tolist() == [0, 1]
    dice.done()


def test_dodge_invulnerable_only_in_close_combat(dice, rng):
    dodger = profile(inv_melee=4, rules={"dodge"})
    dice.script(4, 4, 4)
    assert fight(rng, unit(dodger)).unsaved == 0
    dice.script(3, 4)  # shooting: no save die at all
    assert shoot(rng, unit(dodger)).unsaved == 1
    dice.done()


def test_close_combat_uses_the_better_of_invulnerable_and_dodge(dice, rng):
    dice.script(4, 4, 4)
    assert fight(rng, unit(profile(inv=5, inv_melee=4))).unsaved == 0
    dice.done()


# ===================================================================== Feel No Pain, Reanimation


def test_feel_no_pain_defaults_to_five_plus(dice, rng):
    target = profile(rules={"feel_no_pain"})
    dice.script(3, 4, 5)
    out = shoot(rng, unit(target))
    assert (out.unsaved, out.fnp, out.killed) == (0, 1, 0)
    dice.script(3, 4, 4)
    out = shoot(rng, unit(target))
    assert (out.unsaved, out.fnp, out.killed) == (1, 0, 1)
    dice.done()


def test_feel_no_pain_with_its_own_number(dice, rng):
    dice.script(3, 4, 4)
    assert shoot(rng, unit(profile(fnp=4, rules={"feel_no_pain"}))).fnp == 1
    dice.done()


def test_feel_no_pain_after_a_failed_save(dice, rng):
    dice.script(3, 4, 3, 5)
    out = shoot(rng, unit(profile(sv=4, rules={"feel_no_pain"})))
    assert (out.unsaved, out.fnp) == (0, 1)
    dice.done()


def test_feel_no_pain_not_against_instant_death(dice, rng):
    dice.script(3, 2)  # S8 vs T4: no FNP die
    target = unit(profile(w=2, rules={"feel_no_pain"}))
    out = shoot(rng, target, gun("8"))
    assert (out.fnp, out.killed) == (0, 1)
    assert target.wounds.tolist() == [0]
    dice.done()


def test_feel_no_pain_not_against_an_instant_death_weapon(dice, rng):
    dice.script(3, 4)
    assert shoot(rng, unit(profile(rules={"feel_no_pain"})), gun("4", rules={"instant_death"})).killed == 1
    dice.done()


def test_reanimation_protocols_ignore_a_wound_on_five_plus(dice, rng):
    necron = profile(rules={"reanimation_protocols"})
    dice.script(3, 4, 5)
    assert shoot(rng, unit(necron)).killed == 0
    dice.script(3, 4, 4)
    assert shoot(rng, unit(necron)).killed == 1
    dice.done()


def test_reanimation_protocols_need_six_against_instant_death(dice, rng):
    necron = profile(rules={"reanimation_protocols"})
    dice.script(3, 2, 5)
    assert shoot(rng, unit(necron), gun("8")).killed == 1
    dice.script(3, 2, 6)
    assert shoot(rng, unit(necron), gun("8")).killed == 0
    dice.done()


# ======================================================================== damage, allocation


def test_instant_death_kills_a_multi_wound_model(dice, rng):
    target = unit(profile(w=3))
    dice.script(3, 2)
    out = shoot(rng, target, gun("8"))
    assert (out.unsaved, out.killed) == (1, 1)
    assert target.wounds.tolist() == [0]
    dice.done()


def test_strength_below_double_toughness_removes_one_wound(dice, rng):
    target = unit(profile(w=3))
    dice.script(3, 2)
    assert shoot(rng, target, gun("7")).killed == 0
    assert target.wounds.tolist() == [2]
    dice.done()


def test_eternal_warrior_loses_one_wound_to_instant_death(dice, rng):
    target = unit(profile(w=3, rules={"eternal_warrior"}))
    dice.script(3, 2)
    assert shoot(rng, target, gun("8")).killed == 0
    assert target.wounds.tolist() == [2]
    dice.done()


def test_instant_death_weapon_rule_kills_outright(dice, rng):
    target = unit(profile(w=3))
    dice.script(3, 4)
    assert shoot(rng, target, gun("4", rules={"instant_death"})).killed == 1
    dice.done()


def test_wounded_model_keeps_taking_wounds_until_dead(dice, rng):
    target = unit(profile(w=2), n=2)
    dice.script(3, 4, 3, 4, 3, 4)
    out = shoot(rng, target, n_dice=3)
    assert (out.unsaved, out.killed) == (3, 1)
    assert target.wounds.tolist() == [0, 1]
    dice.done()


def test_excess_hits_are_lost_when_the_unit_is_gone(dice, rng):
    target = unit(n=2)
    dice.script(3, 1, 6, 4, 4)  # shot 1 fails to wound; shot 2: Tesla, 3 hits for 2 models
    out = shoot(rng, target, gun("6", rules={"tesla"}), n_dice=2)
    assert (out.hits, out.wounds, out.killed) == (3, 2, 2)
    assert target.wounds.tolist() == [0, 0]
    dice.done()


@pytest.mark.parametrize(("later_dice", "ones"), [((1, 1), 2), ((3, 1), 1)])
def test_gets_hot_counts_ones_of_shots_fired_after_the_target_is_gone(dice, rng, later_dice, ones):
    """§6.1/§6.3: every shot of the group rolls to hit; §6.9: each to-hit 1 Gets Hot. The first of
    three plasma shots kills the lone target; shots 2 and 3 still roll to hit (their hits are lost)."""
    dice.script(3, 2, *later_dice)
    out = shoot(rng, unit(), PLASMA, n_dice=3)
    assert (out.killed, out.ones) == (1, ones)
    dice.done()


# =================================================================== Medpack (Z§8 result 7, A33)


def test_medpack_saves_a_model_from_its_last_wound(dice, rng):
    target = unit(medpacks=1)
    dice.script(3, 4)
    out = shoot(rng, target)
    assert (out.unsaved, out.medpacks, out.killed) == (0, 1, 0)
    assert target.wounds.tolist() == [1] and target.medpacks.tolist() == [0]
    dice.done()


def test_medpack_not_spent_on_a_wound_that_does_not_kill(dice, rng):
    target = unit(profile(w=2), medpacks=1)
    dice.script(3, 4)
    assert shoot(rng, target).medpacks == 0
    assert target.wounds.tolist() == [1] and target.medpacks.tolist() == [1]
    dice.script(3, 4)
    assert shoot(rng, target).medpacks == 1
    assert target.wounds.tolist() == [1] and target.medpacks.tolist() == [0]
    dice.done()


def test_medpack_spent_after_feel_no_pain_fails(dice, rng):
    target = unit(profile(rules={"feel_no_pain"}), medpacks=2)
    dice.script(3, 4, 4)
    out = shoot(rng, target)
    assert (out.fnp, out.medpacks, out.killed) == (0, 1, 0)
    assert target.medpacks.tolist() == [1]
    dice.done()


def test_medpack_not_spent_when_feel_no_pain_passes(dice, rng):
    target = unit(profile(rules={"feel_no_pain"}), medpacks=1)
    dice.script(3, 4, 5)
    assert shoot(rng, target).medpacks == 0
    assert target.medpacks.tolist() == [1]
    dice.done()


def test_medpack_spent_against_instant_death(dice, rng):
    target = unit(profile(w=3), medpacks=1)
    dice.script(3, 2)
    assert shoot(rng, target, gun("8")).medpacks == 1
    assert target.wounds.tolist() == [3]
    dice.done()


def test_model_dies_once_the_medpacks_are_gone(dice, rng):
    target = unit(medpacks=1)
    dice.script(3, 4, 3, 4)
    out = shoot(rng, target, n_dice=2)
    assert (out.medpacks, out.killed) == (1, 1)
    dice.done()


def test_no_medpack_without_medpacks(dice, rng):
    dice.script(3, 4)
    assert shoot(rng, unit(medpacks=0)).killed == 1
    dice.script(3, 4)
    assert shoot(rng, unit()).killed == 1
    dice.done()


# ============================================================================== Gets Hot



def test_gets_hot_counts_a_natural_one_to_hit(dice, rng):
    dice.script(1)
    out = shoot(rng, unit(), PLASMA)
    assert (out.hits, out.ones) == (0, 1)
    dice.done()


def test_gets_hot_rerolled_one_does_not_count(dice, rng):
    dice.script(1, 3, 1)
    out = shoot(rng, unit(), gun("7", 2, rules={"gets_hot", "twin_linked"}))
    assert (out.hits, out.ones) == (1, 0)
    dice.done()


def test_gets_hot_counts_a_one_after_the_reroll(dice, rng):
    dice.script(1, 1)
    assert shoot(rng, unit(), gun("7", 2, rules={"gets_hot", "twin_linked"})).ones == 1
    dice.done()


def test_gets_hot_counts_the_final_die_of_the_high_bs_reroll(dice, rng):
    dice.script(1, 6, 1)
    out = shoot(rng, unit(), PLASMA, shooter=profile(bs=6))
    assert (out.hits, out.ones) == (1, 0)
    dice.script(1, 1)
    assert shoot(rng, unit(), PLASMA, shooter=profile(bs=6)).ones == 1
    dice.done()


PLASMA_CANNON = gun("7", 2, blast="small", kind="heavy", rules={"gets_hot"})


def test_blast_gets_hot_rolls_a_d6_before_firing(dice, rng):
    dice.script(1)  # no scatter die, no hits
    out = shoot(rng, unit(n=5), PLASMA_CANNON)
    assert (out.hits, out.ones) == (0, 1)
    dice.script(2, 1, 1, 1, 1)  # fires: HIT, three to-wound 1s
    out = shoot(rng, unit(n=5), PLASMA_CANNON)
    assert (out.hits, out.ones) == (3, 0)
    dice.done()


# ================================================================================= blasts


FRAG = gun("4", 6, blast="small")
BATTLE_CANNON = gun("8", 3, blast="large", kind="heavy")


@pytest.mark.parametrize("scatter_die", [1, 2])
def test_small_blast_hit_covers_three_models(dice, rng, scatter_die):
    dice.script(scatter_die, 1, 1, 1)
    assert shoot(rng, unit(n=5), FRAG).hits == 3
    dice.done()


def test_small_blast_hits_at_most_the_models_alive(dice, rng):
    dice.script(1, 1, 1)
    assert shoot(rng, unit(n=2), FRAG).hits == 2
    dice.done()


@pytest.mark.parametrize(
    ("bs", "arrow", "two_d6", "hits"),
    [
        (4, 3, (1, 1), 3),  # 2 - 4 -> 0"
        (4, 4, (2, 3), 3),  # 1": within the 1" radius
        (4, 5, (3, 3), 2),  # 2": one inch beyond
        (3, 6, (3, 3), 1),  # 3": two inches beyond
        (3, 3, (6, 6), 0),  # 9": off the unit
    ],
)
def test_blast_arrow_scatters_2d6_minus_bs_one_model_fewer_per_inch(dice, rng, bs, arrow, two_d6, hits):
    dice.script(arrow, *two_d6, *[1] * hits)
    assert shoot(rng, unit(n=5), FRAG, shooter=profile(bs=bs)).hits == hits
    dice.done()


def test_large_blast_covers_six_models(dice, rng):
    dice.script(1, *[1] * 6)
    assert shoot(rng, unit(n=8), BATTLE_CANNON).hits == 6
    dice.script(3, 4, 3, *[1] * 5)  # 7 - 4 = 3": one beyond the 2" radius
    assert shoot(rng, unit(n=8), BATTLE_CANNON).hits == 5
    dice.done()


def test_blast_hits_roll_to_wound_and_save(dice, rng):
    target = unit(profile(sv=5), n=5)
    dice.script(1, 4, 5, 4, 4, 3)  # HIT; wound + save, wound + fail, no wound
    out = shoot(rng, target, FRAG)
    assert (out.hits, out.wounds, out.unsaved, out.killed) == (3, 2, 1, 1)
    dice.done()


TL_FRAG = gun("4", 6, blast="small", rules={"twin_linked"})


def test_twin_linked_blast_rerolls_a_scatter_that_is_not_a_hit(dice, rng):
    dice.script(4, 6, 6, 1, 1, 1, 1)
    assert shoot(rng, unit(n=5), TL_FRAG).hits == 3
    dice.done()


def test_twin_linked_blast_rerolls_scatter_die_and_2d6_together(dice, rng):
    dice.script(4, 6, 6, 5, 3, 3, 1, 1)  # re-roll: arrow, 6 - 4 = 2" -> 2 models
    assert shoot(rng, unit(n=5), TL_FRAG).hits == 2
    dice.done()


def test_twin_linked_blast_rerolls_only_once(dice, rng):
    dice.script(4, 6, 6, 5, 6, 6)
    assert shoot(rng, unit(n=5), TL_FRAG).hits == 0
    dice.done()


def test_twin_linked_blast_keeps_a_hit(dice, rng):
    dice.script(2, 1, 1, 1)
    assert shoot(rng, unit(n=5), TL_FRAG).hits == 3
    dice.done()


def test_chuck_norris_rerolls_a_twin_linked_blast_once_more(dice, rng):
    dice.script(4, 6, 6, 5, 6, 6, 1, 4, 4, 4)
    assert shoot(rng, unit(n=5), TL_FRAG, chuck=1).killed == 3
    dice.done()


# ============================================================================== templates


FLAMER = gun("4", 5, template=True)


def test_template_hits_four_models_without_a_to_hit_roll(dice, rng):
    dice.script(1, 1, 1, 1)
    out = shoot(rng, unit(n=6), FLAMER)
    assert (out.hits, out.wounds, out.ones) == (4, 0, 0)
    dice.done()


def test_template_hits_every_model_of_a_small_unit(dice, rng):
    dice.script(1, 1)
    assert shoot(rng, unit(n=2), FLAMER).hits == 2
    dice.done()


def test_template_hits_allow_cover_saves(dice, rng):
    dice.script(4, 5)
    assert shoot(rng, unit(), FLAMER, cover=5).unsaved == 0
    dice.done()


@pytest.mark.parametrize(("d6", "hits"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_overwatch_template_inflicts_d3_hits(dice, rng, d6, hits):
    dice.script(d6, *[1] * hits)
    assert shoot(rng, unit(n=6), FLAMER, snap=True, overwatch=True).hits == hits
    dice.done()


def test_overwatch_template_d3_hits_can_all_land_on_one_model(dice, rng):
    """§7.2: "Template weapons inflict D3 automatic hits" on the unit, not one per model."""
    target = unit(profile(w=3))
    dice.script(6, 4, 4, 4)
    out = shoot(rng, target, FLAMER, snap=True, overwatch=True)
    assert (out.hits, out.killed) == (3, 1)
    assert target.wounds.tolist() == [0]
    dice.done()


# ============================================================================ close combat


@pytest.mark.parametrize(("att", "dfd", "need"), [(4, 4, 4), (5, 4, 3), (2, 5, 5), (3, 6, 4), (1, 3, 5), (10, 9, 3)])
def test_close_combat_to_hit_uses_the_ws_chart(dice, rng, att, dfd, need):
    dice.script(need - 1)
    assert fight(rng, unit(profile(ws=dfd)), attacker=profile(ws=att)).hits == 0
    dice.script(need, 1)
    assert fight(rng, unit(profile(ws=dfd)), attacker=profile(ws=att)).hits == 1
    dice.done()


def test_hatred_rerolls_failed_hits_in_the_first_round(dice, rng):
    dice.script(3, 4, 1)
    assert fight(rng, unit(), attacker=profile(rules={"hatred"}), first_round=True).hits == 1
    dice.done()


def test_hatred_does_not_reroll_after_the_first_round(dice, rng):
    dice.script(3)
    assert fight(rng, unit(), attacker=profile(rules={"hatred"}), first_round=False).hits == 0
    dice.done()


def test_preferred_enemy_rerolls_ones_in_close_combat(dice, rng):
    dice.script(1, 4, 1, 4)
    assert fight(rng, unit(), attacker=profile(rules={"preferred_enemy"})).killed == 1
    dice.done()


def test_furious_charge_adds_one_strength_on_the_charge(dice, rng):
    fc = profile(rules={"furious_charge"})
    dice.script(4, 3)  # S5 vs T4: 3+
    assert fight(rng, unit(), attacker=fc, charged=True).wounds == 1
    dice.script(4, 3)  # S4 vs T4: 4+
    assert fight(rng, unit(), attacker=fc, charged=False).wounds == 0
    dice.done()


POWER_FIST = blade("x2", 2)


def test_power_fist_doubles_strength(dice, rng):
    target = unit(profile(w=2))
    dice.script(4, 2)  # S8 vs T4: 2+ and Instant Death
    assert fight(rng, target, POWER_FIST).killed == 1
    dice.done()


def test_furious_charge_is_added_after_the_power_fist_multiplier(dice, rng):
    """§2: multipliers first: S4 x2 + 1 = 9, not (4 + 1) x 2 = 10, so no Instant Death on T5."""
    target = unit(profile(t=5, w=2))
    dice.script(4, 2)
    out = fight(rng, target, POWER_FIST, attacker=profile(rules={"furious_charge"}), charged=True)
    assert (out.unsaved, out.killed) == (1, 0)
    assert target.wounds.tolist() == [1]
    dice.done()


POWER_LANCE = blade("User", 4, strength_on_charge="+1", ap_on_charge=3)


def test_power_lance_on_the_charge(dice, rng):
    dice.script(4, 3)  # S5 vs T4: 3+; AP3 removes the 3+ save
    assert fight(rng, unit(profile(sv=3)), POWER_LANCE, charged=True).unsaved == 1
    dice.done()


def test_power_lance_not_on_the_charge(dice, rng):
    dice.script(4, 3)  # S4 vs T4: 4+
    assert fight(rng, unit(profile(sv=3)), POWER_LANCE).wounds == 0
    dice.script(4, 4, 3)  # AP4: the 3+ save is taken
    assert fight(rng, unit(profile(sv=3)), POWER_LANCE).unsaved == 0
    dice.done()


def test_smash_makes_close_combat_attacks_ap2(dice, rng):
    dice.script(4, 4)
    assert fight(rng, unit(profile(sv=3)), attacker=profile(rules={"smash"})).unsaved == 1
    dice.done()


def test_model_rending_works_in_close_combat(dice, rng):
    dice.script(4, 6)  # S4 vs T8 cannot wound; the 6 rends at AP2
    out = fight(rng, unit(profile(t=8, sv=3)), attacker=profile(rules={"rending"}))
    assert (out.wounds, out.unsaved) == (1, 1)
    dice.done()


def test_model_rending_is_ignored_when_shooting(dice, rng):
    dice.script(3, 6)
    assert shoot(rng, unit(profile(t=8)), shooter=profile(rules={"rending"})).wounds == 0
    dice.done()


def test_model_shred_works_in_close_combat_only(dice, rng):
    shredder = profile(rules={"shred"})
    dice.script(4, 3, 4)
    assert fight(rng, unit(), attacker=shredder).wounds == 1
    dice.script(3, 3)
    assert shoot(rng, unit(), shooter=shredder).wounds == 0
    dice.done()


def test_model_poisoned_works_in_close_combat_only(dice, rng):
    poisoner = profile(s=3, rules={"poisoned"})
    dice.script(4, 4)  # S3 vs T5: 4+ poisoned
    assert fight(rng, unit(profile(t=5)), attacker=poisoner).wounds == 1
    dice.script(3, 4)  # shooting: the chart's 6+
    assert shoot(rng, unit(profile(t=5)), gun("3"), shooter=poisoner).wounds == 0
    dice.done()


def test_model_blind_marks_hits_in_close_combat_only(dice, rng):
    blinder = profile(rules={"blind"})
    dice.script(4, 1)
    assert fight(rng, unit(), attacker=blinder).blind_hits == 1
    dice.script(3, 1)
    assert shoot(rng, unit(), shooter=blinder).blind_hits == 0
    dice.done()


def test_blind_weapon_marks_every_hit(dice, rng):
    dice.script(1, 1, 1, 1)
    assert shoot(rng, unit(n=5), gun("3", blast="small", rules={"blind"})).blind_hits == 3
    dice.done()


def test_concussive_sets_concussed_on_a_model_that_survives_an_unsaved_wound(dice, rng):
    target = unit(profile(w=2))
    dice.script(3, 4)
    shoot(rng, target, gun("4", rules={"concussive"}))
    assert target.wounds.tolist() == [1]
    assert target.status[0] & L.ST_CONCUSSED
    dice.done()


def test_concussive_not_set_when_the_wound_is_saved(dice, rng):
    target = unit(profile(w=2, sv=3))
    dice.script(3, 4, 3)
    shoot(rng, target, gun("4", rules={"concussive"}))
    assert target.status[0] == 0
    dice.done()


def test_model_concussive_works_in_close_combat_only(dice, rng):
    concusser = profile(rules={"concussive"})
    target = unit(profile(w=2))
    dice.script(4, 4)
    fight(rng, target, attacker=concusser)
    assert target.status[0] & L.ST_CONCUSSED
    target = unit(profile(w=2))
    dice.script(3, 4)
    shoot(rng, target, shooter=concusser)
    assert target.wounds.tolist() == [1] and target.status[0] == 0
    dice.done()


# ========================================================================= Hammer of Wrath


def test_hammer_of_wrath_hits_automatically_at_unmodified_strength(dice, rng):
    charger = profile(rules={"furious_charge", "rending", "hammer_of_wrath"})
    dice.script(3)  # no to-hit die; S4 (not 5) vs T4 needs 4+
    out = hammer_of_wrath(rng, unit(), charger)
    assert (out.hits, out.wounds) == (1, 0)
    dice.script(6)  # S4 vs T8: no Rending on Hammer of Wrath
    assert hammer_of_wrath(rng, unit(profile(t=8)), charger).wounds == 0
    dice.done()


def test_hammer_of_wrath_is_ap_dash(dice, rng):
    dice.script(4, 2)
    assert hammer_of_wrath(rng, unit(profile(sv=2))).unsaved == 0
    dice.done()


def test_hammer_of_wrath_is_not_smash_ap2(dice, rng):
    dice.script(4, 3)
    assert hammer_of_wrath(rng, unit(profile(sv=3)), profile(rules={"smash"})).unsaved == 0
    dice.done()


# ================================================================ chainsaw and shotgun (Z§8)


ZOMBIE = profile(ws=2, s=3, t=3, rules={"feel_no_pain", "rending"})


def test_chainsaw_hits_on_two_plus_and_removes_a_wound(dice, rng):
    dice.script(2)  # no to-wound, save or Feel No Pain die
    out = chainsaw(rng, unit(ZOMBIE))
    assert (out.hits, out.wounds, out.unsaved, out.killed, out.fnp) == (1, 1, 1, 1, 0)
    dice.done()


def test_chainsaw_allows_no_saves_of_any_kind(dice, rng):
    dice.script(2)
    assert chainsaw(rng, unit(profile(sv=2, inv=3, inv_melee=3)), n_dice=1).killed == 1
    dice.done()


def test_chainsaw_removes_one_wound_per_hit(dice, rng):
    boss = unit(profile(t=5, w=4, sv=2, rules={"eternal_warrior", "feel_no_pain"}))
    dice.script(2, 6)
    chainsaw(rng, boss, n_dice=2)
    assert boss.wounds.tolist() == [2]
    dice.done()


def test_chainsaw_natural_one_misses_and_empties_the_tank(dice, rng):
    dice.script(1)
    out = chainsaw(rng, unit(ZOMBIE))
    assert (out.hits, out.ones) == (0, 1)
    dice.done()


def test_chainsaw_one_rerolled_by_chuck_norris_counts_only_if_the_reroll_is_one(dice, rng):
    dice.script(1, 3)
    out = chainsaw(rng, unit(ZOMBIE), chuck=1)
    assert (out.killed, out.ones) == (1, 0)
    dice.script(1, 1)
    assert chainsaw(rng, unit(ZOMBIE), chuck=1).ones == 1
    dice.done()


def test_shotgun_allows_the_armour_save(dice, rng):
    dice.script(2, 2)
    assert shotgun(rng, unit(profile(sv=2))).unsaved == 0
    dice.script(2, 1)
    assert shotgun(rng, unit(profile(sv=2))).unsaved == 1
    dice.done()


def test_shotgun_allows_an_invulnerable_save(dice, rng):
    dice.script(2, 4)
    assert shotgun(rng, unit(profile(inv=4))).unsaved == 0
    dice.done()


def test_shotgun_allows_no_cover_save(dice, rng):
    dice.script(2)
    assert shotgun(rng, unit(), cover=3).killed == 1
    dice.done()


def test_shotgun_allows_no_feel_no_pain(dice, rng):
    dice.script(2)
    out = shotgun(rng, unit(ZOMBIE))
    assert (out.fnp, out.killed) == (0, 1)
    dice.done()


def test_shotgun_misses_on_one_whatever_the_bs(dice, rng):
    dice.script(1)
    assert shotgun(rng, unit(ZOMBIE)).hits == 0
    dice.done()


# ========================================================= plain Python gives the JIT results


def _shooting(weapon: Weapon, shooter: Profile, *, snap=False, overwatch=False, chuck=0):
    def build(target: Unit) -> np.ndarray:
        spec = np.zeros(L.N_SPEC, dtype=np.int64)
        attack_spec.shooting_spec(spec, tables.weapon_row(weapon), tables.model_stats(shooter),
                                  tables.model_flags(shooter), target.t, target.sv, snap, overwatch, chuck,
                                  WOUND_CHART, GEOM)
        return spec

    return build


def _melee(weapon: Weapon, attacker: Profile, *, charged=False, first_round=False):
    def build(target: Unit) -> np.ndarray:
        spec = np.zeros(L.N_SPEC, dtype=np.int64)
        attack_spec.melee_spec(spec, tables.weapon_row(weapon), tables.model_stats(attacker),
                               tables.model_flags(attacker), target.ws, target.t, target.sv, charged,
                               first_round, 0, WS_CHART, WOUND_CHART)
        return spec

    return build


EQUIVALENCE_CASES = {  # spec builder, attack dice
    "twin-linked blast, Chuck Norris": (_shooting(TL_FRAG, profile(), chuck=1), 3),
    "BS6 plasma": (_shooting(PLASMA, profile(bs=6)), 4),
    "tesla, preferred enemy": (_shooting(gun("6", rules={"tesla"}), profile(rules={"preferred_enemy"})), 3),
    "overwatch template": (_shooting(FLAMER, profile(), snap=True, overwatch=True), 1),
    "melee rending, hatred, furious charge": (
        _melee(POWER_FIST, profile(rules={"rending", "hatred", "furious_charge"}), charged=True, first_round=True),
        4,
    ),
}
EQUIVALENCE_TARGETS = {
    "T4": profile(),
    "T4 4+ FNP": profile(sv=4, rules={"feel_no_pain"}),
    "T5 W2 5+ EW": profile(t=5, w=2, sv=5, rules={"eternal_warrior"}),
}


def _play(spec, n_dice, streams, target_profile, n_models):
    outs, wounds = [], []
    for g in range(streams.shape[0]):
        target = unit(target_profile, n=n_models)
        out = np.zeros(L.N_OUT, dtype=np.int64)
        combat.resolve_attacks(streams, g, n_dice, spec, target.wounds, target.stats, target.flags,
                               target.status, NONE, 0, target.medpacks, out)
        outs.append(out)
        wounds.append(target.wounds)
    return np.array(outs), np.array(wounds)


@pytest.mark.parametrize("case", EQUIVALENCE_CASES)
@pytest.mark.parametrize("target_name", EQUIVALENCE_TARGETS)
def test_plain_python_kernels_give_the_jit_results(monkeypatch, case, target_name):
    """House style: NUMBA_DISABLE_JIT=1 gives the same results. The same streams are played by the
    jitted kernels, then by their ``py_func`` (what the ``dice`` fixture and the debugging path run)."""
    build_spec, n_dice = EQUIVALENCE_CASES[case]
    target_profile = EQUIVALENCE_TARGETS[target_name]
    n_models = 5
    spec = build_spec(unit(target_profile))
    streams = krng.new_streams(7_001, 300)
    jit_out, jit_wounds = _play(spec, n_dice, streams.copy(), target_profile, n_models)
    for info in pkgutil.walk_packages(kernels.__path__, "kernels."):
        module = importlib.import_module(info.name)
        for name, obj in list(vars(module).items()):
            if isinstance(obj, numba.core.registry.CPUDispatcher):
                monkeypatch.setattr(module, name, obj.py_func)
    with np.errstate(over="ignore"):
        py_out, py_wounds = _play(spec, n_dice, streams.copy(), target_profile, n_models)
    differ = np.flatnonzero(np.any(jit_out != py_out, axis=1))
    assert differ.size == 0, f"games {differ[:10].tolist()} differ: jit {jit_out[differ[:3]].tolist()}, " \
                             f"python {py_out[differ[:3]].tolist()}"
    assert np.array_equal(jit_wounds, py_wounds)
