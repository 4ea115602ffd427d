"""Rules fidelity of movement, Regroup and falling back (issue 13): core-7th-edition §5, §9;
zombie40k §5.2, §6.2, §8, §10.5, on a table set up by hand with hand-fed dice (``dice``) or the
real streams (``nojit``). Each test is named after the rule it states.
"""

from __future__ import annotations

import pytest
from conftest import example_config, one_game
from fidelity_helpers import GL, clear_table, put_unit, units

import kernels.zombie40k.assault
import kernels.zombie40k.movement
import kernels.zombie40k.turn

movement = kernels.zombie40k.movement
turn = kernels.zombie40k.turn


class ShootRecorder:
    """Stands in for ``shoot`` in the turn module: records (firer, target) and fires nothing."""

    def __init__(self):
        self.calls = []

    def __call__(self, st, g, u, v, tb, rng, phase, snap_all, overwatch, skip):
        self.calls.append((int(u), int(v)))
        return 0, 0, False


def _falling_back_guard(st, tb):
    """Squad 0 (Guard, Ld 8) falling back in mid-table, a horde 6" in front of it."""
    clear_table(st, keep=(0, 2))
    put_unit(st, tb, 0, 24.0, 20.0)
    put_unit(st, tb, 2, 24.0, 20.0 + st.radius[0, 0] + st.radius[0, 2] + 6.0)
    st.ustate[0, 0, GL.US_FALLING_BACK] = 1


# ------------------------------------------------------------------ core §9.2 Regroup


def test_core_9_2_a_squad_that_regroups_moves_3_inches_and_may_shoot(dice, monkeypatch):
    """A unit that regroups moves up to 3", counts as having moved and may not Run or charge,
    but it may shoot (issue item 2)."""
    st, tb, rng = one_game(example_config("two_players"))
    _falling_back_guard(st, tb)
    y = st.pos[0, 0, 1]
    dice.script(3, 4)  # Regroup: 7 <= Ld 8
    assert not movement.squad_movement(st, 0, 0, tb, rng)
    dice.done()
    assert st.ustate[0, 0, GL.US_FALLING_BACK] == 0
    assert st.pos[0, 0, 1] == pytest.approx(y + 3.0)  # the 3" regroup move, towards the horde (hunter)
    assert st.ustate[0, 0, GL.US_MOVED] == 1
    assert not movement.may_run(st, 0, 0) and not kernels.zombie40k.assault.can_charge(st, 0, 0)
    recorder = ShootRecorder()
    monkeypatch.setattr(turn, "shoot", recorder)
    turn.shooting_phase(st, 0, 0, tb, rng)
    assert recorder.calls == [(0, 2)]


def test_core_9_2_a_failed_regroup_falls_back_again(dice):
    st, tb, rng = one_game(example_config("two_players"))
    _falling_back_guard(st, tb)
    y = st.pos[0, 0, 1]
    dice.script(5, 6,  # Regroup: 11 > Ld 8, failed
                2, 3)  # falls back again 2D6 = 5"
    movement.squad_movement(st, 0, 0, tb, rng)
    dice.done()
    assert st.ustate[0, 0, GL.US_FALLING_BACK] == 1 and st.pos[0, 0, 1] == pytest.approx(y - 5.0)
    assert units.on_table(st, 0, 0)
