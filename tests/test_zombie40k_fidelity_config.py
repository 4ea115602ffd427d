"""Rules fidelity of the options and the zombie side (issue 13): the Boss's respawn (A14), who
has Rending (A4), Coop Mode's 18" trigger (§10.1), Death Korps' escalation (§10.4), player names,
on a table set up by hand with hand-fed dice (``dice``) or the real streams (``nojit``). Each test
is named after the rule it states.
"""

from __future__ import annotations

import pytest
from conftest import example_config, one_game
from fidelity_helpers import GL, L, units

import kernels.zombie40k.casualties
import kernels.zombie40k.spawning
import kernels.zombie40k.turn

turn = kernels.zombie40k.turn


def _kill_the_boss(st, tb, rng, killer=0):
    boss = units.boss_unit(st)
    st.wounds[0, boss] = 0
    kernels.zombie40k.casualties.wipe(st, 0, boss, killer, tb, rng, GL.PH_ASSAULT)
    assert not units.on_table(st, 0, boss)
    return boss


# ------------------------------------------------------------------ A14 the Boss's respawn


def test_a14_boss_respawns_true_brings_the_boss_back_by_the_respawn_table(dice):
    """With ``boss_respawns`` a destroyed Boss returns in the next Zombie Respawning phase, like
    a destroyed horde: one D6 on the Zombie Respawn Table (zombie40k §6.1, §7; issue item 9)."""
    st, tb, rng = one_game(example_config("two_players", boss_respawns=True))
    boss = _kill_the_boss(st, tb, rng)
    dice.script(4)  # result 4: the Escape Vehicle edge
    turn.zombie_respawning(st, 0, tb, rng)
    dice.done()
    assert units.on_table(st, 0, boss) and units.alive(st, 0, boss) == 1
    assert st.wounds[0, boss, 0] == st.stats[0, boss, 0, L.W]  # at full Wounds
    assert st.pos[0, boss, 1] == pytest.approx(tb.prm[GL.P_TABLE_L] - st.radius[0, boss])


def test_a14_by_default_the_boss_stays_dead(dice):
    st, tb, rng = one_game(example_config("two_players"))
    boss = _kill_the_boss(st, tb, rng)
    turn.zombie_respawning(st, 0, tb, rng)
    dice.done()  # no roll
    assert not units.on_table(st, 0, boss)
