"""Exact odds of attacks against a vehicle (the mathhammer of V3-V6): the oracle of
``kernels.w40k.vehicles``.

``vehicle_odds(attack)`` enumerates every die face by face, with no kernel code and no random
draw: the to-hit die (and its re-roll), the penetration dice (Melta, Armourbane: two D6; each 6 a
D3 more with Rending), Haywire's D6, and the damage roll with its modifiers, read off
``VehicleRules``. One attack die is a distribution over (kind of hit, damage result); ``n_dice``
of them are a Markov chain over (Hull Points removed, worst result so far). Probabilities are
``fractions.Fraction`` with ``exact=True`` (a test can assert 1/6), floats otherwise.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from kernels.w40k import vehicles as V
from sim.w40k.exact import hit_probability
from sim.w40k.vehicle_attack import VehicleAttack

FACES = (1, 2, 3, 4, 5, 6)


def _penetration_totals(attack: VehicleAttack, one) -> dict[int, object]:
    """{S + penetration dice (+ Rending's D3s): p}."""
    sixth, third = one / 6, one / 3
    totals: dict[int, object] = {attack.strength: one}
    for _ in range(attack.pen_dice):
        nxt: dict[int, object] = defaultdict(lambda: 0 * one)
        for total, p in totals.items():
            for face in FACES:
                if attack.rending and face == 6:
                    for extra in (1, 2, 3):
                        nxt[total + face + extra] += p * sixth * third
                else:
                    nxt[total + face] += p * sixth
        totals = dict(nxt)
    return totals


def hit_kinds(attack: VehicleAttack, exact: bool = False) -> dict[int, object]:
    """{HIT_NONE / HIT_GLANCING / HIT_PENETRATING: p} for one hit (V3, V6)."""
    one = Fraction(1) if exact else 1.0
    kinds: dict[int, object] = defaultdict(lambda: 0 * one)
    if attack.haywire:
        for face in FACES:
            kinds[_haywire(face)] += one / 6
        return dict(kinds)
    for total, p in _penetration_totals(attack, one).items():
        kinds[_kind(total, attack.armour_rolled)] += p
    return dict(kinds)


def _haywire(face: int) -> int:
    return V.HIT_PENETRATING if face == 6 else (V.HIT_GLANCING if face >= 2 else V.HIT_NONE)


def _kind(total: int, armour: int) -> int:
    return V.HIT_PENETRATING if total > armour else (V.HIT_GLANCING if total == armour else V.HIT_NONE)


def damage_results(attack: VehicleAttack, exact: bool = False) -> dict[int, object]:
    """{damage result: p} of one penetrating hit's roll on the damage table (V5)."""
    one = Fraction(1) if exact else 1.0
    modifier = attack.rules.ap_modifier(attack.ap) + (1 if attack.open_topped else 0)
    out: dict[int, object] = defaultdict(lambda: 0 * one)
    for face in FACES:
        out[attack.rules.result(face + modifier)] += one / 6
    return dict(out)


def attack_die(attack: VehicleAttack, exact: bool = False) -> dict[tuple[int, int], object]:
    """{(kind of hit, damage result): p} of one attack die, a miss being (HIT_NONE, DMG_NONE)."""
    one = Fraction(1) if exact else 1.0
    p_hit = hit_probability(attack.hit_on, attack.hit_reroll, one)  # automatic at 1 or less
    out: dict[tuple[int, int], object] = defaultdict(lambda: 0 * one)
    out[V.HIT_NONE, V.DMG_NONE] += one - p_hit
    kinds = hit_kinds(attack, exact)
    out[V.HIT_NONE, V.DMG_NONE] += p_hit * kinds.get(V.HIT_NONE, 0 * one)
    out[V.HIT_GLANCING, V.DMG_NONE] += p_hit * kinds.get(V.HIT_GLANCING, 0 * one)
    for result, p in damage_results(attack, exact).items():
        out[V.HIT_PENETRATING, result] += p_hit * kinds.get(V.HIT_PENETRATING, 0 * one) * p
    return {k: p for k, p in out.items() if p != 0}


@dataclass(frozen=True)
class VehicleOdds:
    """Exact odds of ``n_dice`` attacks at one vehicle.

    ``p_glancing``, ``p_penetrating``: of one attack die; ``hull_points``: pmf of Hull Points
    removed, index 0..n_dice; ``worst``: pmf of the worst damage result, index DMG_NONE..
    DMG_EXPLODES; ``expected_results``: the mean count of each result (same index);
    ``p_wrecked``: P(Hull Points removed >= the target's, or an Explodes! result).
    """

    p_glancing: object
    p_penetrating: object
    hull_points: tuple
    worst: tuple
    expected_results: tuple
    p_wrecked: object

    def hull_points_array(self) -> np.ndarray:
        return np.array([float(p) for p in self.hull_points])

    def worst_array(self) -> np.ndarray:
        return np.array([float(p) for p in self.worst])


def vehicle_odds(attack: VehicleAttack, exact: bool = False) -> VehicleOdds:
    """The exact odds of ``attack`` (see `VehicleOdds`)."""
    one = Fraction(1) if exact else 1.0
    die = attack_die(attack, exact)
    states: dict[tuple[int, int], object] = {(0, V.DMG_NONE): one}
    for _ in range(attack.n_dice):
        nxt: dict[tuple[int, int], object] = defaultdict(lambda: 0 * one)
        for (hp, worst), p in states.items():
            for (kind, result), q in die.items():
                nxt[hp + (kind != V.HIT_NONE), max(worst, result)] += p * q
        states = dict(nxt)
    hull = [0 * one] * (attack.n_dice + 1)
    worst = [0 * one] * V.N_DAMAGE
    wrecked = 0 * one
    for (hp, w), p in states.items():
        hull[hp] += p
        worst[w] += p
        if hp >= attack.hull_points or w == V.DMG_EXPLODES:
            wrecked += p
    per_die = [sum((q for (_, r), q in die.items() if r == result), 0 * one) for result in range(V.N_DAMAGE)]
    p_hit = hit_probability(attack.hit_on, attack.hit_reroll, one)  # automatic at 1 or less
    kinds = hit_kinds(attack, exact)
    return VehicleOdds(p_glancing=p_hit * kinds.get(V.HIT_GLANCING, 0 * one),
                       p_penetrating=p_hit * kinds.get(V.HIT_PENETRATING, 0 * one), hull_points=tuple(hull),
                       worst=tuple(worst), expected_results=tuple(attack.n_dice * p for p in per_die),
                       p_wrecked=wrecked)
