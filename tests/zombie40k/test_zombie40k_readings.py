"""Readings of Zombie 40,000 where the spec leaves a choice (issue 27; docs/readings.md): the
Boss's guard (A14) and the band a squad respawns on (§5.1). Tables set up by hand, hand-fed dice
(``dice``); each reading's default and its other reading are tested."""

from __future__ import annotations

import pytest
from conftest import example_config, one_game
from fidelity_helpers import GL, clear_table, gap, put_unit, units

import kernels.zombie40k.geometry
import kernels.zombie40k.movement
import kernels.zombie40k.spawning

geometry = kernels.zombie40k.geometry
movement = kernels.zombie40k.movement
spawning = kernels.zombie40k.spawning


def _ev_gap(st, tb, u):
    return geometry.ev_distance(st.pos[0, u, 0], st.pos[0, u, 1], st.radius[0, u], tb.prm)


# ------------------------------------------------------------------ A14 the Boss's guard


def _guard_scene(reading, guard=17.0):
    """The Boss at its post; the Marines 16" from the EV (inside a 17" guard radius) off to one
    side, the Guard 18" out (outside it) but nearer the Boss."""
    st, tb, rng = one_game(example_config("two_players", boss_guard_radius_in=guard, boss_guard_reading=reading))
    boss = units.boss_unit(st)
    clear_table(st, keep=(0, 1, boss))
    hull = tb.prm[GL.P_TABLE_L] - tb.prm[GL.P_EV_D]
    put_unit(st, tb, 0, 24.0, hull - 18.0 - st.radius[0, 0])
    put_unit(st, tb, 1, 4.0 + st.radius[0, 1], hull - 10.0)
    assert 16.0 < _ev_gap(st, tb, 1) < 17.0 and gap(st, boss, 0) < gap(st, boss, 1)
    return st, tb, rng, boss


def test_a14_a_guarding_boss_goes_for_the_nearest_squad_within_its_radius(dice):
    """boss_guard_reading = "intruders" (default): the Boss goes for the Marines inside the
    radius although the Guard outside it are nearer to it (docs/readings.md)."""
    st, tb, rng, boss = _guard_scene("intruders")
    before = gap(st, boss, 1)
    dice.script(3, 3)  # the Shamble roll: 6"
    movement.shamble_phase(st, 0, tb, rng)
    dice.done()
    assert gap(st, boss, 1) == pytest.approx(before - 6.0, abs=0.05)


def test_a14_nearest_reading_the_boss_stays_while_its_nearest_squad_is_outside(dice):
    st, tb, rng, boss = _guard_scene("nearest")
    pos = tuple(st.pos[0, boss])
    dice.script(3, 3)
    movement.shamble_phase(st, 0, tb, rng)
    dice.done()
    assert tuple(st.pos[0, boss]) == pytest.approx(pos)


def test_a14_a_guarding_boss_with_nobody_inside_walks_back_to_its_post(dice):
    st, tb, rng, boss = _guard_scene("intruders", guard=12.0)
    post = tuple(st.pos[0, boss])
    put_unit(st, tb, boss, post[0], post[1] - 10.0)
    dice.script(3, 3)
    movement.shamble_phase(st, 0, tb, rng)
    dice.done()
    assert tuple(st.pos[0, boss]) == pytest.approx((post[0], post[1] - 4.0), abs=0.05)


# ------------------------------------------------------------------ §5.1 the respawn band


@pytest.mark.parametrize("band", ["curve", "line"])
def test_s5_1_a_squad_respawns_on_the_curve_of_equal_distance_from_the_ev(dice, band):
    """A wiped-out squad comes back "at least 12" further from the EV than the squad furthest from
    it", measured hull to nearest model: the band is the curve of points at exactly that distance
    (respawn_band = "curve", default), not the straight line in front of the EV ("line"), which
    puts a squad off to the side farther back than the rule asks (docs/readings.md)."""
    st, tb, rng = one_game(example_config("two_players", respawn_band=band))
    clear_table(st, keep=(1,))
    hull = tb.prm[GL.P_TABLE_L] - tb.prm[GL.P_EV_D]
    put_unit(st, tb, 1, 24.0, hull - 20.0 - st.radius[0, 1])
    reach = _ev_gap(st, tb, 1) + tb.prm[GL.P_RESPAWN_MARGIN]
    units.remove_unit(st, 0, 0)
    dice.script()  # no zombies on the table: the first legal point across the table, no dice
    spawning.respawn_squad(st, 0, 0, tb, rng)
    dice.done()
    line_y = hull - reach - st.radius[0, 0]
    x0 = 0.5 * (tb.prm[GL.P_TABLE_W] - tb.prm[GL.P_EV_W])
    assert st.pos[0, 0, 0] < x0  # off to the side of the EV
    if band == "curve":
        assert _ev_gap(st, tb, 0) == pytest.approx(reach) and st.pos[0, 0, 1] > line_y + 1.0
    else:
        assert st.pos[0, 0, 1] == pytest.approx(line_y) and _ev_gap(st, tb, 0) > reach + 1.0
