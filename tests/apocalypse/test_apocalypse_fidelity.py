"""Zombie Apocalypse rules of the third fidelity pass (issue 27, items 9-15), each with hand-fed dice
under the root conftest's ``dice`` fixture: split charges (§5, A25), Counter-attack only for a unit
not already locked (core §12), The Plague counting unsaved wounds (§5), a Brute's two-weapon
Attack (§4), every unit of a combat striking at its Initiative step (core §7.3), the spawner's
blast under Foggy (§6, §10) and the deployment roll-off's ties (§3.2)."""

from __future__ import annotations

import numpy as np
from apocalypse_helpers import put_horde, put_unit, table

import kernels.apocalypse.zombies as zombies
from kernels.apocalypse import columns as C
from kernels.apocalypse.state import N_OUT_A


def _out() -> np.ndarray:
    return np.zeros(N_OUT_A, np.int64)


def _no_overwatch(tb) -> None:
    tb.policy[:, C.POL_OVERWATCH] = 0


def _locked_with(st, u) -> list[int]:
    return [h for h in range(st.lock.shape[2]) if st.lock[0, u, h] != 0]


def _template(tb, owner: int, k: int) -> int:
    """The k-th unit template (0 = the HQ) of player ``owner``."""
    hq = [t for t in range(tb.ut_owner.shape[0]) if tb.ut_owner[t] == owner]
    return hq[k]


# ------------------------------------------------------------------ 9. split charges (§5, A25)


def test_split_charges_send_one_group_at_each_other_unit_never_a_second_at_a_charged_one(dice):
    """§5 Hordes: a horde "may split up to [charge more than one unit]" with 20+ models a group;
    A25: the most models stay on the closest. An 80-model horde with two units in range makes two
    charges: one group of 20 at the farther unit, the rest at the closest (the old code sent four,
    two at each unit, the main target included)."""
    _, tb, st, rng = table()
    _no_overwatch(tb)
    h = put_horde(st, tb, 24, 30, 80)
    near = put_unit(st, tb, 1, 24, 30 - st.hrad[0, h] - 4.0)  # the Tactical Squad, 3-4" away
    far = put_unit(st, tb, 3, 24 + st.hrad[0, h] + 8.0, 30)  # the Devastators, about 7" away
    assert zombies.unit_gap_horde(st, 0, near, h) < zombies.unit_gap_horde(st, 0, far, h) <= 12.0
    assert zombies.closest_unit(st, 0, h) == near
    dice.script(6, 6, 6, 6)  # two charges of 2D6, both made
    zombies.split_charges(rng, 0, st, h, near, tb)
    zombies.charge(rng, 0, st, h, near, tb)
    dice.done()
    assert _locked_with(st, near) == [h] and len(_locked_with(st, far)) == 1
    group = _locked_with(st, far)[0]
    assert st.hst[0, group, C.HS_Z] == 20 and st.hst[0, h, C.HS_Z] == 60


def test_split_charges_reach_each_unit_in_range_once(dice):
    """Three units in range of an 80-model horde: one group at each of the two others, the rest at
    the closest (three charges, one per unit)."""
    _, tb, st, rng = table()
    _no_overwatch(tb)
    h = put_horde(st, tb, 24, 30, 80)
    r = st.hrad[0, h]
    near = put_unit(st, tb, 1, 24, 30 - r - 4.0)
    right = put_unit(st, tb, 3, 24 + r + 8.0, 30)
    left = put_unit(st, tb, 2, 24 - r - 9.0, 30)
    dice.script(*[6] * 6)
    zombies.split_charges(rng, 0, st, h, near, tb)
    zombies.charge(rng, 0, st, h, near, tb)
    dice.done()
    assert [len(_locked_with(st, u)) for u in (near, right, left)] == [1, 1, 1]
    assert st.hst[0, h, C.HS_Z] == 40
