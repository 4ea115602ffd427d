"""Rules fidelity of the Assault phase (issue 13): charges, the fight, combat resolution,
Sweeping Advance, falling back and consolidation (core-7th-edition §7, §9, §12; zombie40k §5.5,
§6.4), on a table set up by hand with hand-fed dice (``dice``) or the real streams (``nojit``).

Every test is named after the rule it states; each failed on the code before its fix (or, for
rules that had no test, fails when the rule is broken on purpose).
"""

from __future__ import annotations

import pytest
from conftest import example_config, one_game
from fidelity_helpers import GL, combat_arrays, locked_pair

import kernels.zombie40k.assault
import kernels.zombie40k.turn

assault = kernels.zombie40k.assault
turn = kernels.zombie40k.turn


# ------------------------------------------------------------------ core §7.5 consolidation


def test_core_7_5_a_squad_that_falls_back_does_not_consolidate(dice):
    """Only a unit whose enemies are all destroyed or falling back consolidates: the horde
    does, the squad that broke and fell back does not (issue item 1)."""
    st, tb, rng = one_game(example_config("two_players"))
    locked_pair(st, tb, 0, 2)  # Guard (no ATSKNF) and a horde
    member, inflicted, suffered = combat_arrays(st, 0, 2)
    suffered[0], inflicted[2] = 3, 3
    y = st.pos[0, 0, 1]
    dice.script(6, 6,  # Morale at Ld - 3: failed
                6, 1,  # Sweeping Advance: Guard 6 + I3 beats the zombies' 1 + I1
                4, 3,  # fall back 2D6 = 7"
                2)  # the horde consolidates D6 = 2" (and nobody else rolls)
    assault.resolve_combat(st, 0, member, inflicted, suffered, tb, rng, GL.PH_Z_ASSAULT)
    assert st.ustate[0, 0, GL.US_CONSOLIDATE] == 0 and st.ustate[0, 2, GL.US_CONSOLIDATE] == 1
    turn._consolidations(st, 0, tb, rng, GL.PH_Z_ASSAULT)
    dice.done()
    assert st.pos[0, 0, 1] == pytest.approx(y - 7.0)  # the fall-back move only
    assert st.ustate[0, 0, GL.US_FALLING_BACK] == 1
