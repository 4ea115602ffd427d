"""The whole ``fight`` as games call it (weapons, the Shotgun, the First Aid Kit, Q5's Chainsaw and
Molotov, a dog, a kid, death's losses) against the exact chain extended for it
(``sim.rulesets.zombies9.exact.fight_odds``); chi-square at alpha = 1e-4, end states whose
expected count is under 5 pooled (``helpers.assert_matches_pmf``)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from helpers import assert_matches_pmf
from z9_scene import clear, empty_hands, give, lay, pawn, put, sq

from kernels.rng import new_streams
from kernels.zombies9 import layout as L
from kernels.zombies9.combat import sample_fights
from kernels.zombies9.hand import put_in_play
from kernels.zombies9.state import new_state
from kernels.zombies9.turn import setup
from sim.rulesets.zombies9.compile import compile_tables
from sim.rulesets.zombies9.config import PlayerConfig, Policy, Zombies9Config
from sim.rulesets.zombies9.exact import FIGHT_END, FightStart, fight_odds

KIND = {"adult": L.Z_ADULT, "kid": L.Z_KID, "dog": L.Z_DOG}


def test_fight_odds_by_hand():
    def win(**kw):
        return sum(p for end, p in fight_odds(FightStart(**kw)).items() if end[0])

    assert win(life=1, bullets=0, fire_axe=True) == Fraction(2, 3)  # 3+ with the axe's +1
    assert win(life=1, bullets=0, fire_axe=True, shotgun=2) == Fraction(5, 6)  # the Shotgun combines
    assert win(life=3, bullets=0, chainsaw=True, ahead=2) == 1 - Fraction(1, 6) ** 3  # Q5: Chainsaw +2
    assert win(life=1, bullets=0, fire_axe=True, chainsaw=True, ahead=2) == Fraction(5, 6)  # one weapon: the +2
    assert win(life=1, bullets=0, figure="dog", fire_axe=True) == Fraction(3, 4)  # 4+ on 5+, two half-lives
    assert win(life=1, bullets=0, figure="kid") == Fraction(1, 2)  # as an adult
    assert win(life=1, bullets=0, molotov=True, ahead=2) == Fraction(1, 2)  # no Molotov on the road
    ends = fight_odds(FightStart(life=1, bullets=0, fire_axe=True, first_aid=True, shotgun=3))
    assert ends[(0,) * len(FIGHT_END)] == Fraction(1, 6) ** 2  # kit, then death: everything in play lost
    assert ends[(1, 2, 0, 1, 1, 0, 0, 0, 0, 2)] == Fraction(5, 6)  # first roll: kit kept, a charge spent
    assert sum(ends.values()) == 1


CASES = {  # FightStart fields (the Q4 rule "rule" unless given)
    "fire axe": dict(life=3, bullets=2, fire_axe=True),
    "shotgun and axe": dict(life=2, bullets=0, fire_axe=True, shotgun=3),
    "kit, axe, shotgun, death": dict(life=1, bullets=0, fire_axe=True, first_aid=True, shotgun=1),
    "chainsaw ahead": dict(life=3, bullets=0, chainsaw=True, ahead=2),
    "chainsaw and axe, low life": dict(life=2, bullets=0, chainsaw=True, fire_axe=True, ahead=1),
    "chainsaw kept": dict(life=4, bullets=3, chainsaw=True, fire_axe=True, ahead=1),
    "molotov in its building": dict(life=2, bullets=0, molotov=True, in_building=True, ahead=3),
    "molotov on the road": dict(life=3, bullets=2, molotov=True, ahead=3),
    "dog, axe, shotgun, hearts": dict(life=1, bullets=1, figure="dog", fire_axe=True, shotgun=2, rule="hearts"),
    "dog, kit": dict(life=1.5, bullets=2, figure="dog", first_aid=True),
    "kid, axe": dict(life=2, bullets=1, figure="kid", fire_axe=True),
    "bullets first, kit, last charge": dict(life=1, bullets=1, first_aid=True, shotgun=1, rule="bullets"),
}

ITEMS = (("fire_axe", "Fire Axe"), ("chainsaw", "Chainsaw"), ("molotov", "Molotov Cocktail"),
         ("first_aid", "First Aid Kit"))


def scene(start: FightStart):
    """One game set up, the player's figure on a square of its own, the items in play."""
    policy = Policy(combat=start.rule, multi_zombies=start.multi_zombies, danger_life=start.danger_life)
    cfg = Zombies9Config(players=(PlayerConfig("Ann", policy), PlayerConfig("Ben")),
                         kid_rule=start.figure == "kid", pet_cemetery_dogs=start.figure == "dog",
                         mode="base" if start.figure == "adult" else "mixed")  # kids and dogs come with Z9
    tb = compile_tables(cfg)
    st = new_state(1, tb)
    setup(st, tb, new_streams(3, 1).copy(), 0)
    q = sq(lay(st, tb, cfg, "Hospital", 0, -1), 0, 0) if start.in_building else 4
    clear(st, tb)
    empty_hands(st, tb)
    put(st, tb, q, KIND[start.figure])
    pawn(st, 0, q)
    for field, card in ITEMS:
        if getattr(start, field):
            put_in_play(st, tb, 0, 0, give(st, tb, cfg, 0, card))
    if start.shotgun:
        put_in_play(st, tb, 0, 0, give(st, tb, cfg, 0, "Hey, Look! A Shotgun!"))
        st.w_pl[0, L.PL_SHOTGUN] = start.shotgun
    st.w_pl[0, L.PL_LIFE], st.w_pl[0, L.PL_BULLETS] = round(2 * start.life), start.bullets
    return st, tb, q


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CASES))
def test_fight_kernel_matches_the_extended_chain(name):
    start = FightStart(**CASES[name])
    st, tb, q = scene(start)
    out = np.zeros((200_000, len(FIGHT_END)), np.int64)
    seed = np.uint64(77 + sorted(CASES).index(name))
    sample_fights(st, tb, seed, 0, q, KIND[start.figure], start.ahead, st.w_pl.copy(), st.w_sq.copy(),
                  st.w_tile.copy(), st.w_gs.copy(), np.zeros(1, np.uint64), out)
    exact = fight_odds(start)
    support = sorted(exact)
    index = {end: i for i, end in enumerate(support)}
    samples = np.array([index.get(row, len(support)) for row in map(tuple, out.tolist())], np.int64)
    pmf = np.array([float(exact[end]) for end in support] + [0.0])  # the last bin: an end the chain never has
    assert_matches_pmf(samples, pmf, what=f"fight {name}")
