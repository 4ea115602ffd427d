"""Rules of Zombie Apocalypse that a mutant of tests/mutants/apocalypse.py breaks (named in each
docstring): the pure rule functions as plain Python (``py_func``), at their edge cases.
"""

from __future__ import annotations

from apocalypse_helpers import put_unit, table

import kernels.apocalypse.assault as assault
import kernels.apocalypse.hordes as hordes
import kernels.apocalypse.movement as movement
import kernels.apocalypse.shooting as shooting
import kernels.apocalypse.strike as strike
from kernels.w40k.columns import MR_ATSKNF, MR_FEARLESS
from sim.rulesets.apocalypse.catalogue import catalogue
from sim.w40k.tables import weapon_row


def py(f):
    return getattr(f, "py_func", f)


def test_an_independent_character_adds_only_the_wounds_after_the_first():
    """§5, A23: D6 + (unsaved wounds - 1) >= 6 (ap_plague_ic_first_wound, ap_plague_on)."""
    turns = py(assault.plague_turns)
    assert not turns(4, True, 2, 5, 6) and turns(4, True, 3, 5, 6)
    assert turns(5, False, 0, 5, 6) and not turns(4, False, 0, 5, 6)


def test_sweeping_advance_tie_and_morale_edges():
    """core §7.5, §9.1, §12 (ap_sweep_tie, ap_morale_double_one, ap_morale_stubborn)."""
    assert py(assault.sweep_caught)(7, 7) and not py(assault.sweep_caught)(6, 7)
    passes = py(assault.morale_passes)
    assert passes(1, 1, 2, 5, False, False) and passes(4, 4, 8, 3, True, False)
    assert not passes(4, 4, 8, 3, False, False)


def test_dull_witted_only_against_a_higher_ws():
    """§5 (ap_dull_witted_equal)."""
    six = py(strike.hits_only_on_six)
    assert six(True, 2, 3) and not six(True, 3, 3) and not six(False, 2, 4)


def test_resilience_and_the_first_zombie_save():
    """§5, A22, A24 (ap_resilience_cap, ap_first_zombie_inv, ap_juggernaut_ratio)."""
    assert py(hordes.resilience_inv)(2, 6, 2) == 4 and py(hordes.resilience_inv)(9, 6, 2) == 2
    assert py(hordes.first_zombie_inv)(1, 5, 2, False) == 4 and py(hordes.first_zombie_inv)(1, 5, 2, True) == 3
    bonus = py(hordes.juggernaut_bonus)
    assert bonus(10, 0, 1, 10) and not bonus(11, 0, 1, 10) and not bonus(0, 0, 0, 10)


def test_falling_back_a_little_past_the_edge_loses_only_some_models():
    """core §9.3 (ap_off_table_all)."""
    off = py(movement.models_off_table)
    assert 0 < off(10, 2.0, 0.0, 1.0) < 10 and off(10, 2.0, 0.0, 4.0) == 10 and off(10, 2.0, 1.0, 1.0) == 0


def test_fear_is_passed_without_dice_by_and_they_shall_know_no_fear(dice):
    """core §9.4, §12: Fearless and ATSKNF units pass the Fear test, rolling nothing
    (ap_fear_atsknf)."""
    for rule in (MR_ATSKNF, MR_FEARLESS):
        _, tb, st, rng = table()
        u = put_unit(st, tb, 0, 20, 20)
        st.mflags[0, u] = (st.mflags[0, u] & ~(MR_ATSKNF | MR_FEARLESS)) | rule
        assert assault.fear_test(rng, 0, st, u, tb)
        dice.done()


def test_the_policys_noise_estimate_is_the_mean_of_the_noise_table():
    """§9.3 (P5 weighs a shot against its noise): pistol 1, Assault 2, Rapid Fire D3 = 2, a template +4
    (ap_noise_pistol, ap_noise_template)."""
    _, tb, _, _ = table()
    est = py(shooting.noise_estimate)
    rows = {name: weapon_row(catalogue().weapon(name)) for name in ("Bolt pistol", "Storm bolter", "Boltgun",
                                                                      "Flamer", "Hand flamer")}
    assert [est(rows[n], tb) for n in rows] == [1.0, 2.0, 2.0, 6.0, 5.0]
