"""The combat kernel against the exact Markov chain (sim.rulesets.zombies9.exact), and the
set-up's chance events against their exact distributions; chi-square at alpha = 1e-4."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from helpers import assert_matches_pmf

from kernels.zombies9 import layout as L
from kernels.zombies9.combat import sample_combats
from sim.rulesets.zombies9.exact import combat_odds, outcome_pmf

RULE = {"rule": L.COMBAT_RULE, "bullets": L.COMBAT_BULLETS, "hearts": L.COMBAT_HEARTS}


def test_exact_values_by_hand():
    assert combat_odds(0, 1).win == Fraction(1, 2)  # one roll of 4+
    assert combat_odds(0, 3).win == Fraction(7, 8)  # three rolls
    o = combat_odds(1, 1)  # 4+ wins; a 3 is bought with the bullet; 1-2 kill the player
    assert (o.win, o.bullets_spent, o.hearts_spent) == (Fraction(2, 3), Fraction(1, 6), Fraction(1, 3))
    assert combat_odds(3, 3).win == 1  # at two lives the bullets buy any roll
    assert combat_odds(0, 1, kill_number=5, damage=0.5).win == 1 - Fraction(2, 3) ** 2  # a dog: two half-lives
    assert combat_odds(0, 1, first_aid=1).win == Fraction(3, 4)  # the kit is a second roll
    assert combat_odds(0, 1, bonus=3).win == 1
    for b, life in ((0, 1), (2, 2.5), (6, 5)):
        ends = combat_odds(b, life, first_aid=1).ends
        assert sum(p for _, p in ends) == 1


CASES = [  # bullets, life, bonus, kill number, damage (tokens), kits, rule
    (3, 3, 0, 4, 1.0, 0, "rule"),
    (0, 3, 0, 4, 1.0, 0, "rule"),
    (2, 2, 1, 4, 1.0, 1, "rule"),
    (5, 5, 0, 4, 1.0, 0, "bullets"),
    (5, 5, 0, 4, 1.0, 0, "hearts"),
    (1, 1, 0, 5, 0.5, 0, "rule"),
    (4, 1, 0, 4, 1.0, 0, "rule"),
    (2, 4, 2, 4, 1.0, 0, "rule"),
    (1, 2, 0, 4, 1.0, 0, "rule"),
    (2, 3, 0, 4, 1.0, 0, "hearts"),
    (0, 2, 0, 5, 0.5, 1, "rule"),
]


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES)
def test_combat_kernel_matches_the_markov_chain(case):
    bullets, life, bonus, kill, damage, kits, rule = case
    life_h, dmg = round(2 * life), round(2 * damage)
    out = np.zeros(200_000, np.int64)
    sample_combats(np.uint64(2024), kill, bonus, dmg, life_h, bullets, kits, RULE[rule], np.zeros(1, np.uint64), out)
    pmf = outcome_pmf(combat_odds(bullets, life, bonus, kill, damage, kits, rule), life_h, bullets, kits)
    assert_matches_pmf(out, np.array(pmf), what=f"combat {case}")


@pytest.mark.slow
def test_setup_chance_events_match_their_distributions():
    """A4: the Helipad uniformly in the bottom half of the base stack; a uniform first player."""
    from kernels.rng import new_streams
    from kernels.zombies9.state import new_state
    from kernels.zombies9.turn import setup
    from sim.rulesets.zombies9.compile import compile_tables
    from sim.rulesets.zombies9.config import default_config

    cfg = default_config(4)
    tb = compile_tables(cfg)
    st = new_state(1, tb)
    n_games = 15_000
    streams = new_streams(5, n_games)
    where, first = np.zeros(n_games, np.int64), np.zeros(n_games, np.int64)
    heli = int(tb.ids[L.ID_HELIPAD])
    for g in range(n_games):
        rng = streams[g: g + 1].copy()
        setup(st, tb, rng, 0)
        where[g] = int(np.flatnonzero(st.w_stack[0] == heli)[0])
        first[g] = st.w_gs[L.GS_FIRST]
    n = int(tb.ids[L.ID_N_BASE])  # 28 other tiles: the Helipad is drawn 15th to 29th
    pmf = np.zeros(n + 1)
    pmf[n - n // 2:] = 1.0 / (n // 2 + 1)
    assert_matches_pmf(where, pmf, "Helipad position")
    assert_matches_pmf(first, np.full(4, 0.25), "first player")
