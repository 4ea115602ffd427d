"""Rules fidelity of the Shooting phase (issue 13): Morale and Pinning after shooting, shots
into a combat, the Shotgun power-up, grudges (core-7th-edition §6, §9; zombie40k §5.4, §6.3, §8,
A19, A20), on a table set up by hand with hand-fed dice (``dice``) or the real streams
(``nojit``). Each test is named after the rule it states.
"""

from __future__ import annotations

import pytest
from conftest import example_config, one_game
from fidelity_helpers import GL, locked_pair, units

import kernels.zombie40k.morale
import kernels.zombie40k.shooting
import kernels.zombie40k.turn

morale = kernels.zombie40k.morale
shooting = kernels.zombie40k.shooting
turn = kernels.zombie40k.turn


# ------------------------------------------------------------------ core §9.1 falling back


def test_core_9_1_a_squad_shot_out_of_its_combat_falls_back_and_is_no_longer_locked(dice):
    """A squad locked in combat that zombie shooting breaks falls back 2D6" and leaves the
    combat: it is no longer locked (zombie40k §6.3; core §9.1, §9.3; issue item 5)."""
    st, tb, rng = one_game(example_config("two_players"))
    locked_pair(st, tb, 0, 2)
    before = units.alive(st, 0, 0)
    st.wounds[0, 0, :3] = 0  # 3 of 11 shot down: 25% or more
    units.refresh_radius(st, 0, 0, tb)
    y = st.pos[0, 0, 1]
    dice.script(6, 6,  # Morale: failed
                3, 3)  # fall back 2D6 = 6"
    morale.leadership_after_shooting(st, 0, 0, before, False, tb, rng)
    dice.done()
    assert st.ustate[0, 0, GL.US_FALLING_BACK] == 1 and st.pos[0, 0, 1] == pytest.approx(y - 6.0)
    assert not units.in_combat(st, 0, 0) and not units.in_combat(st, 0, 2)
