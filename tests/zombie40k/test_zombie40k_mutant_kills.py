"""Rules of the 7th-edition core (kernels/w40k, played by Zombie 40,000 and Zombie Apocalypse) and of
Zombie 40,000's morale, charges and close combat that a mutant of tests/mutants/zombie40k.py breaks
(named in each docstring): pure rule functions as plain Python (``py_func``), and scenes of one game
(tests/conftest.py ``one_game``) with hand-fed dice (``dice``), at the rules' edge cases.
"""

from __future__ import annotations

# the root conftest at collection, as the fidelity tests import it (tests/zombies9/conftest.py takes the
# module name ``conftest`` once that directory is collected, so a later import would find that one)
from conftest import example_config, one_game
from fidelity_helpers import keep_models

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


# ------------------------------------------------------------------ Zombie 40,000's morale (core §6.1, §9.1)


def _game():
    return one_game(example_config("two_players"))


def test_a_double_one_always_passes_leadership(dice):
    """core §9.1 (z40k_double_one)."""
    import kernels.zombie40k.morale as morale

    st, tb, rng = _game()
    dice.script(1, 1)
    assert morale.leadership_test(st, 0, 0, -20, tb, rng)
    dice.done()


def test_a_fearless_squad_rolls_no_leadership_test(dice):
    """core §9.1: Fearless always passes, no dice (z40k_fearless)."""
    import kernels.zombie40k.morale as morale
    from kernels.w40k.columns import MR_FEARLESS

    st, tb, rng = _game()
    st.mflags[0, 0] |= MR_FEARLESS
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale
    assert morale.leadership_test(st, 0, 0, -20, tb, rng)
    dice.done()


def test_a_quarter_of_the_squad_lost_tests_morale(dice):
    """core §6.1 step 6: 25% lost in the phase (2 of 8) makes the squad test (z40k_quarter_losses)."""
    import kernels.zombie40k.morale as morale

    st, tb, rng = _game()
    keep_models(st, tb, 0, 6)
    dice.script(2, 3)  # passes
    morale.leadership_after_shooting(st, 0, 0, 8, False, tb, rng)
    dice.done()


# ------------------------------------------------------------------ Zombie 40,000's charges (core §7.1, §12)


def test_fleet_rerolls_a_failed_charge_roll(dice):
    """core §12 Fleet: both charge dice re-rolled when the roll falls short (z40k_charge_fleet)."""
    import kernels.zombie40k.assault as assault
    from kernels.w40k.columns import MR_FLEET

    st, tb, rng = _game()
    st.mflags[0, 0] |= MR_FLEET
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale
    bonus = assault._charge_bonus(st, 0, 0, tb)
    dice.script(1, 1, 6, 6)
    assert assault.charge_roll(st, 0, 0, 6.0, tb, rng) == 12 + bonus
    dice.done()


def test_a_squad_that_ran_may_not_charge(dice):
    """core §7.1 (z40k_charge_after_run)."""
    import kernels.zombie40k.assault as assault
    from kernels.zombie40k import columns as GL

    st, tb, rng = _game()
    assert assault.can_charge(st, 0, 0)
    st.ustate[0, 0, GL.US_RAN] = 1
    assert not assault.can_charge(st, 0, 0)


# ------------------------------------------------------------------ weapons in close combat (core §12)


def _weapon(kind, flags=0):
    import numpy as np

    from kernels.w40k.columns import N_WFIELDS, W_FLAGS, W_KIND

    row = np.zeros(N_WFIELDS, np.int64)
    row[W_KIND], row[W_FLAGS] = kind, flags
    return row


def test_a_two_handed_weapon_gets_no_second_weapon_attack():
    """core §12 Two-handed (z40k_two_handed_pair)."""
    import kernels.zombie40k.assault as assault
    from kernels.w40k.columns import K_MELEE, K_PISTOL, WR_TWO_HANDED

    bonus = py(assault._two_weapon_bonus)
    assert bonus(_weapon(K_MELEE), _weapon(K_PISTOL), True) == 1
    assert bonus(_weapon(K_MELEE, WR_TWO_HANDED), _weapon(K_PISTOL), True) == 0
    assert bonus(_weapon(K_MELEE), _weapon(K_MELEE), False) == 0


def test_an_unwieldy_weapon_strikes_at_initiative_one(dice):
    """core §12 Unwieldy (z40k_unwieldy)."""
    import kernels.zombie40k.assault as assault
    from kernels.w40k.columns import K_MELEE, WR_UNWIELDY

    st, tb, rng = _game()
    assert assault._base_initiative(st, 0, 0, 0, _weapon(K_MELEE), tb) > 1
    assert assault._base_initiative(st, 0, 0, 0, _weapon(K_MELEE, WR_UNWIELDY), tb) == 1


def test_charging_through_cover_without_assault_grenades_strikes_at_initiative_one(dice):
    """core §7.1 step 6 (z40k_cover_charge_i1)."""
    import kernels.zombie40k.assault as assault
    from kernels.w40k.columns import K_MELEE
    from kernels.zombie40k import columns as GL

    st, tb, rng = _game()
    st.ustate[0, 0, GL.US_CHARGED], st.ustate[0, 0, GL.US_CHARGED_COVER] = 1, 1
    st.gear[0, 0, 0, GL.G_GRENADE] = -1
    assert assault._slowed_by_cover(st, 0, 0, 0, tb)
    assert assault._base_initiative(st, 0, 0, 0, _weapon(K_MELEE), tb) == 1


def test_stubborn_ignores_the_negative_modifier(dice):
    """core §12 Stubborn (z40k_stubborn)."""
    import kernels.zombie40k.morale as morale
    from kernels.w40k.columns import MR_STUBBORN

    st, tb, rng = _game()
    st.mflags[0, 0] |= MR_STUBBORN
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale
    ld = int(morale.leadership(st, 0, 0))
    a = min(6, ld - 1)
    dice.script(a, ld - a)  # exactly the unit's Leadership
    assert morale.leadership_test(st, 0, 0, -3, tb, rng)
    dice.done()
