"""Super squads (zombie-apocalypse §7, P9, A32): Warlords join one unit, in the Movement phase only
by default, at any moment with ``super_squad_timing = "any"``."""

from __future__ import annotations

import pytest
from apocalypse_helpers import put_unit, table, warlord

import kernels.apocalypse.movement as movement
from kernels.apocalypse import columns as C
from sim.rulesets.apocalypse.compile import built_armies


def _two_warlords(gap_in: float, **params):
    """The Ultramarines' and the Cadians' Warlords alone, ``gap_in`` apart edge to edge."""
    cfg, tb, st, _ = table("two_players", **params)
    cadian_hq = len(built_armies(cfg)[0])  # the Cadians' templates follow the Ultramarines'
    a = put_unit(st, tb, 0, 20, 20)
    b = put_unit(st, tb, cadian_hq, 20, 20)
    st.upos[0, b, 0] = 20 + st.urad[0, a] + st.urad[0, b] + gap_in
    warlord(st, tb)
    assert st.wl_unit[0, 0] == a and st.wl_unit[0, 1] == b
    return tb, st


def _one_unit(st) -> bool:
    return st.wl_unit[0, 0] == st.wl_unit[0, 1]


@pytest.mark.parametrize("timing", ["movement", "any"])
def test_warlords_join_at_the_start_of_the_movement_phase_within_a_move_and_2_inches(dice, timing):
    tb, st = _two_warlords(7.5, super_squad_timing=timing)  # a 6" move + 2" reaches
    movement.form_super_squad(st, 0, tb, True)
    assert _one_unit(st)


def test_a_warlord_beyond_his_move_and_2_inches_does_not_join(dice):
    tb, st = _two_warlords(8.5)
    movement.form_super_squad(st, 0, tb, True)
    assert not _one_unit(st)


def test_by_default_warlords_never_join_outside_the_movement_phase(dice):
    tb, st = _two_warlords(1.0)
    st.ust[0, :, C.US_MOVED] = 1
    movement.form_super_squad(st, 0, tb, False)
    assert not _one_unit(st)


def test_any_timing_joins_a_warlord_within_2_inches_after_he_moved(dice):
    tb, st = _two_warlords(1.5, super_squad_timing="any")
    st.ust[0, :, C.US_MOVED] = 1  # after the moves: he joins where he stands, in coherency
    movement.form_super_squad(st, 0, tb, False)
    assert _one_unit(st)


def test_any_timing_does_not_move_a_warlord_to_join(dice):
    tb, st = _two_warlords(2.5, super_squad_timing="any")
    movement.form_super_squad(st, 0, tb, False)
    assert not _one_unit(st)


def test_the_policy_can_keep_warlords_apart(dice):
    tb, st = _two_warlords(1.0)
    tb.policy[:, C.POL_SUPER] = 0
    movement.form_super_squad(st, 0, tb, True)
    assert not _one_unit(st)
