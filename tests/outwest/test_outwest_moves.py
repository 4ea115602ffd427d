"""Human Moves and the table (outwest §1, §4, §9; issue 27 items 16-17), with hand-fed dice:
a man who moves stops in base contact with a zombie in his way (he neither passes through nor
ends on top of one), whether he runs away, carries a comrade or walks to a rescue; badly wounded
men are carried, not walking."""

from __future__ import annotations

import math

import outwest_helpers as H
import pytest
from outwest_helpers import Arena, config

import kernels.outwest.humans as Hm
from kernels.outwest import layout as L
from sim.rulesets.outwest.config import POLICY_PRESETS, with_policy


def policy_config(preset: str = "stand_and_shoot", **fields):
    """The default config on the open table, every man playing ``preset`` with fields changed."""
    from dataclasses import replace

    return with_policy(config(town="open"), replace(POLICY_PRESETS[preset], **fields))

GUNMAN, LEGEND, CITIZEN, SHOOTIST = 2, 0, 4, 1  # slots of the default posse
ow_dice, ow_nojit = H.ow_dice, H.ow_nojit  # the fixtures
R2 = 1.0  # two base radii (25 mm bases)


def clear_of_zombies(a: Arena, f: int) -> float:
    """The smallest centre distance from figure f to a zombie on the table."""
    x, y = a.pos(f)
    best = math.inf
    for z in range(a.H, a.st.fi.shape[1]):
        if a.fi(z, L.FI_KIND) == L.K_ZOMBIE and a.fi(z, L.FI_STATE) != L.S_GONE:
            zx, zy = a.pos(z)
            best = min(best, math.hypot(zx - x, zy - y))
    return best


def test_a_move_stops_in_base_contact_with_a_zombie_in_the_way(ow_dice):
    """§1: a Move of 12" east with a zombie 4" ahead ends in base contact with it."""
    a = Arena(config(town="open"))
    a.put(GUNMAN, 10.0, 18.0, 0.0)
    z = a.put(a.zombie(0), 14.0, 18.0)
    ow_dice.script(4, 4, 4)
    Hm.move_along(a.st, 0, a.tb, a.rng, GUNMAN, 1.0, 0.0, 1e9, L.A_MOVE)
    ow_dice.done()
    assert a.pos(GUNMAN) == pytest.approx((14.0 - R2, 18.0), abs=1e-5)
    assert clear_of_zombies(a, GUNMAN) >= R2 - 1e-5 and a.pos(z) == (14.0, 18.0)


def test_a_move_grazing_a_zombie_stops_where_the_bases_meet(ow_dice):
    a = Arena(config(town="open"))
    a.put(GUNMAN, 10.0, 18.0, 0.0)
    a.put(a.zombie(0), 16.0, 18.6)  # 0.6" off his line: the bases would overlap in passing
    ow_dice.script(4, 4, 4)
    Hm.move_along(a.st, 0, a.tb, a.rng, GUNMAN, 1.0, 0.0, 1e9, L.A_MOVE)
    ow_dice.done()
    assert a.pos(GUNMAN)[0] == pytest.approx(16.0 - math.sqrt(1.0 - 0.36), abs=1e-5)
    assert clear_of_zombies(a, GUNMAN) >= R2 - 1e-5


def test_a_move_away_from_a_zombie_he_touches_is_allowed(ow_dice):
    a = Arena(config(town="open"))
    a.put(GUNMAN, 10.0, 18.0, 0.0)
    a.put(a.zombie(0), 9.0, 18.0)  # in base contact behind him
    ow_dice.script(2, 3, 4)
    Hm.move_along(a.st, 0, a.tb, a.rng, GUNMAN, 1.0, 0.0, 1e9, L.A_MOVE)
    ow_dice.done()
    assert a.pos(GUNMAN) == pytest.approx((19.0, 18.0))


def test_a_man_running_from_the_nearest_zombie_does_not_run_through_another(ow_dice):
    """The flight of P1 (a zombie within the keep-away distance): away from the nearest zombie
    to the west, toward a second one 5" east; he stops touching it, never beyond or on it."""
    a = Arena(config(town="open"))
    a.put(GUNMAN, 10.0, 18.0, 0.0)
    a.st.fi[0, GUNMAN, L.FI_AMMO0] = L.GUN_EMPTY
    a.st.fi[0, GUNMAN, L.FI_AMMO1] = L.GUN_EMPTY
    a.put(a.zombie(0), 7.5, 18.0)
    east = a.put(a.zombie(1), 15.0, 18.0)
    ow_dice.script(5, 5, 5)
    Hm.act(a.st, 0, a.tb, a.rng, GUNMAN, True)  # a failed nerve test: he must move away
    ow_dice.done()
    assert clear_of_zombies(a, GUNMAN) >= R2 - 1e-5
    assert a.pos(GUNMAN)[0] < a.pos(east)[0]


def test_a_carried_comrade_does_not_pass_through_a_zombie_either(ow_dice):
    """Carry (§4): both move together; the comrade's base stops at the zombie in its way."""
    a = Arena(policy_config(keep_away_in=0.0))
    a.put(GUNMAN, 10.0, 18.0, 0.0)
    c = a.put(CITIZEN, 10.0, 19.0, 0.0, L.S_OUT)
    a.put(a.zombie(0), 13.0, 19.0)  # in the comrade's path, not the carrier's
    ow_dice.script(3, 3, 4)  # 10" halved: 5"
    Hm.act(a.st, 0, a.tb, a.rng, GUNMAN, False)  # toward the centre (18, 18)
    ow_dice.done()
    assert clear_of_zombies(a, c) >= R2 - 1e-5 and clear_of_zombies(a, GUNMAN) >= R2 - 1e-5
    assert a.pos(c)[0] < 13.0


def test_walking_to_a_rescue_stops_at_a_zombie_on_the_way(ow_dice):
    a = Arena(policy_config(rescue_seek_in=20.0, keep_away_in=0.0))
    a.put(GUNMAN, 10.0, 18.0, 0.0)
    a.put(CITIZEN, 22.0, 18.0, 0.0, L.S_OUT)
    z = a.put(a.zombie(0), 14.0, 18.0, 0.0, L.S_DOWN)  # lying in the way, no shot at it first
    a.st.fi[0, GUNMAN, L.FI_AMMO0] = L.GUN_BROKEN
    a.st.fi[0, GUNMAN, L.FI_AMMO1] = L.GUN_BROKEN
    ow_dice.script(4, 4, 4)
    Hm.act(a.st, 0, a.tb, a.rng, GUNMAN, False)
    ow_dice.done()
    assert a.pos(GUNMAN)[0] == pytest.approx(14.0 - R2, abs=1e-5) and a.pos(z) == (14.0, 18.0)


# ------------------------------------------------------------------ §9: the badly wounded are carried


def test_a_man_with_no_move_turn_can_be_carried_away_from_a_zombie(ow_dice):
    """§5.6 "no move/turn" stops him; §9: a badly wounded man must be carried - so he can be."""
    a = Arena(config(town="open"))
    a.put(GUNMAN, 10.0, 18.0, 0.0)
    c = a.put(CITIZEN, 11.0, 18.0, 0.0)
    a.st.fi[0, c, L.FI_NO_MOVE] = 1
    a.put(a.zombie(0), 16.0, 18.0, math.pi)  # within 7" of both: carried west, away from it
    ow_dice.script(3, 3, 4)  # 10" halved
    Hm.act(a.st, 0, a.tb, a.rng, GUNMAN, False)
    ow_dice.done()
    assert a.pos(GUNMAN) == pytest.approx((5.0, 18.0)) and a.pos(c) == pytest.approx((6.0, 18.0))
    assert a.st.ff[0, c, L.FF_FACING] == 0.0  # he may not turn


@pytest.mark.parametrize("serious,legs,walks", [(1, 0, True), (2, 0, True), (2, 1, False), (3, 0, False)])
def test_a_man_without_movement_dice_does_not_walk(ow_dice, serious, legs, walks):
    """-1 movement die per serious wound and leg flesh wound (§4): with none left he is too
    badly wounded to walk (§9) and does not run from a zombie."""
    a = Arena(config(town="open"))
    a.put(GUNMAN, 10.0, 18.0, 0.0)
    a.st.fi[0, GUNMAN, L.FI_SERIOUS], a.st.fi[0, GUNMAN, L.FI_LEGS] = serious, legs
    a.st.fi[0, GUNMAN, L.FI_AMMO0] = a.st.fi[0, GUNMAN, L.FI_AMMO1] = L.GUN_BROKEN  # no shot instead
    a.put(a.zombie(0), 13.0, 18.0)
    assert Hm.badly_wounded(a.st, 0, a.tb, GUNMAN) == (not walks)
    if walks:
        ow_dice.script(*([4] * (3 - serious - legs)))
    Hm.act(a.st, 0, a.tb, a.rng, GUNMAN, True)  # must move away (a failed nerve test)
    ow_dice.done()
    assert (a.pos(GUNMAN) != (10.0, 18.0)) == walks


def test_the_serious_reading_makes_any_serious_wound_a_carry(ow_dice):
    """``badly_wounded = "serious"``: one serious wound and he no longer walks."""
    a = Arena(config(town="open", badly_wounded="serious"))
    a.put(GUNMAN, 10.0, 18.0, 0.0)
    a.st.fi[0, GUNMAN, L.FI_SERIOUS] = 1
    a.st.fi[0, GUNMAN, L.FI_AMMO0] = a.st.fi[0, GUNMAN, L.FI_AMMO1] = L.GUN_BROKEN  # no shot instead
    a.put(a.zombie(0), 13.0, 18.0)
    Hm.act(a.st, 0, a.tb, a.rng, GUNMAN, True)
    ow_dice.done()
    assert a.pos(GUNMAN) == (10.0, 18.0)
    b = Arena(config(town="open"))
    b.st.fi[0, GUNMAN, L.FI_SERIOUS] = 1
    b.put(GUNMAN, 10.0, 18.0, 0.0)
    assert not Hm.badly_wounded(b.st, 0, b.tb, GUNMAN)


def test_a_badly_wounded_man_at_the_goal_and_clear_of_zombies_is_left_where_he_is(ow_dice):
    a = Arena(config(town="open"))
    a.put(GUNMAN, 18.0, 18.0, 0.0)
    c = a.put(CITIZEN, 19.0, 18.0, 0.0)
    a.st.fi[0, c, L.FI_NO_MOVE] = 1
    assert Hm.unconscious_comrade(a.st, 0, a.tb, GUNMAN, 0.0) == -1
