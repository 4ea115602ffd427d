"""Core rules of the 7th edition (kernels/w40k, played by Zombie 40,000 and Zombie Apocalypse) that a
mutant of tests/mutants/zombie40k.py breaks (named in each docstring): the pure rule functions, as
plain Python (``py_func``), at their edge cases.
"""

from __future__ import annotations

import kernels.w40k.combat as combat
from kernels.w40k.columns import NONE, RR_FAILED, RR_ONES


def py(f):
    return getattr(f, "py_func", f)


def test_a_reroll_of_ones_rerolls_only_a_one():
    """core §6.3 (core_reroll_any)."""
    may = py(combat.may_reroll)
    assert may(1, RR_ONES) and not may(2, RR_ONES) and may(2, RR_FAILED)


def test_a_six_wounds_what_cannot_be_wounded_only_with_rending():
    """core §6.5, §12 (core_wound_six_always)."""
    wounded = py(combat.is_wounded)
    assert not wounded(6, 7, 0) and wounded(6, 7, 1) and wounded(4, 4, 0) and not wounded(3, 4, 0)


def test_ap_equal_to_the_save_removes_it_and_cover_counts():
    """core §6.7: armour only if the AP is worse than the save; the best of armour, invulnerable and
    cover (core_save_ap_equal, core_save_sum)."""
    best = py(combat.best_save)
    assert best(3, 3, NONE, NONE) == NONE and best(4, 3, NONE, NONE) == 3
    assert best(2, 3, NONE, 4) == 4 and best(7, 5, 6, 4) == 4


def test_instant_death_at_double_toughness_unless_eternal_warrior():
    """core §6.8, §12 (core_id_strict, core_eternal_warrior)."""
    assert py(combat.is_instant_death)(8, 4, 0) and not py(combat.is_instant_death)(7, 4, 0)
    lost = py(combat.wounds_lost)
    assert lost(True, False, 3) == 3 and lost(True, True, 3) == 1 and lost(False, False, 3) == 1
