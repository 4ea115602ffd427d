"""Rules fidelity of movement, Regroup and falling back (issue 13): core-7th-edition §5, §9;
zombie40k §5.2, §6.2, §8, §10.5, on a table set up by hand with hand-fed dice (``dice``) or the
real streams (``nojit``). Each test is named after the rule it states.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from conftest import example_config, one_game, team_config
from fidelity_helpers import GL, clear_table, kill_spec, locked_pair, put_unit, units

import kernels.zombie40k.assault
import kernels.zombie40k.geometry
import kernels.zombie40k.movement
import kernels.zombie40k.turn
from kernels.jit import entry_point

movement = kernels.zombie40k.movement
geometry = kernels.zombie40k.geometry
turn = kernels.zombie40k.turn


class ShootRecorder:
    """Stands in for ``shoot`` in the turn module: records (firer, target) and fires nothing."""

    def __init__(self):
        self.calls = []

    def __call__(self, st, g, u, v, tb, rng, snap_all, overwatch, skip):
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


# ------------------------------------------------------------------ §8 result 10 the Defibrillator


def _fallen_with_kit(config):
    """Squad 0's model 1 fell carrying a Chainsaw, the Shotgun, Duct Tape and a bought power fist."""
    from sim.rulesets.zombie40k.catalogue import catalogue
    from sim.rulesets.zombie40k.compile import weapon_index

    st, tb, rng = one_game(config)
    st.mpow[0, 0, 1] = GL.MP_CHAINSAW | GL.MP_SHOTGUN | GL.MP_DUCT_ATTACK
    st.gear[0, 0, 1, GL.G_MELEE1] = weapon_index(catalogue())["Power fist"]
    st.wounds[0, 0, 1] = 0
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    units.refresh_radius(st, 0, 0, tb)
    st.pu[0, 0, GL.PU_DEFIBS] = 1
    return st, tb, rng


def test_s8_a_defibrillated_model_comes_back_as_built(dice):
    """The Defibrillator returns a dead model with 1 Wound as it was built: what it carried when
    it fell (power-ups, Killing Floor items) was lost with it (zombie40k §8, §10.11; issue item
    17; the other reading: defib_revives = as_fallen)."""
    st, tb, rng = _fallen_with_kit(example_config("two_players"))
    turn._use_defibrillator(st, 0, 0, tb)
    assert st.wounds[0, 0, 1] == 1 and st.pu[0, 0, GL.PU_DEFIBS] == 0
    assert st.mpow[0, 0, 1] == 0 and (st.gear[0, 0, 1] == tb.squad_gear[0, 1]).all()


def test_s8_defib_revives_as_fallen_is_the_other_reading(dice):
    st, tb, rng = _fallen_with_kit(example_config("two_players", defib_revives="as_fallen"))
    kit = st.gear[0, 0, 1].copy()
    turn._use_defibrillator(st, 0, 0, tb)
    assert st.wounds[0, 0, 1] == 1 and st.mpow[0, 0, 1] & GL.MP_CHAINSAW and (st.gear[0, 0, 1] == kit).all()


def test_s10_3_a_survivor_that_rose_with_the_horde_cannot_be_defibrillated(dice):
    """Dead Men Walking: a slain survivor joins the horde; it is no longer a dead model of the
    squad, so a Defibrillator cannot bring it back too (it would exist twice; issue item 17)."""
    config = replace(example_config("two_players"), mods=frozenset({"dead_men_walking"}))
    st, tb, rng = one_game(config)
    locked_pair(st, tb, 0, 2)
    n = st.pos.shape[1]
    out = np.zeros_like(st.w_out[0])
    kernels.zombie40k.assault._strike(st, 0, 2, 0, 1, kill_spec(), np.zeros(n, np.int64), np.zeros(n, np.int64), tb,
                                      rng, out)
    assert st.wounds[0, 0, 0] == 0 and units.alive(st, 0, 2) == 6  # the sergeant rose with the horde
    st.pu[0, 0, GL.PU_DEFIBS] = 1
    turn._use_defibrillator(st, 0, 0, tb)
    dice.done()
    assert st.wounds[0, 0, 0] == 0 and st.pu[0, 0, GL.PU_DEFIBS] == 1


# ------------------------------------------------------------------ §10.5 Every Man For Himself


def _emfh_scene(**params):

    from sim.rulesets.zombie40k.config import with_mods

    config = team_config("guard", "marines", policies=[{"run": 0}, {"run": 0}], **params)
    st, tb, rng = one_game(with_mods(config, ["every_man_for_himself"]), seed=9)
    clear_table(st, keep=(0, 1))
    put_unit(st, tb, 0, 20.0, 20.0)
    put_unit(st, tb, 1, 20.0 + st.radius[0, 0] + st.radius[0, 1] + 3.0, 20.0)  # 3" apart
    st.ustate[0, 0, GL.US_FALLING_BACK] = 1
    return st, tb, rng


def test_s10_5_a_squad_that_loses_its_turn_still_falls_back(dice):
    """Every Man For Himself forbids moving, shooting, running and charging, not the compulsory:
    a falling-back squad still takes its Regroup test and a fail falls back (core §9.2, §9.3;
    issue item 18; the other reading: emfh_stops_fall_back = true)."""
    st, tb, rng = _emfh_scene()
    y = st.pos[0, 0, 1]
    dice.script(4,  # Every Man For Himself: 4+, the turn is lost
                6, 6,  # Regroup: failed
                3, 4)  # falls back 7"
    turn.player_turn(st, 0, 0, tb, rng, False)
    dice.done()
    assert st.ustate[0, 0, GL.US_FALLING_BACK] == 1 and st.pos[0, 0, 1] == pytest.approx(y - 7.0)


def test_s10_5_a_squad_that_loses_its_turn_regroups_but_does_not_move(dice):
    st, tb, rng = _emfh_scene()
    pos = st.pos[0, 0].copy()
    dice.script(4, 1, 2)  # lost turn; Regroup passed
    turn.player_turn(st, 0, 0, tb, rng, False)
    dice.done()
    assert st.ustate[0, 0, GL.US_FALLING_BACK] == 0 and tuple(st.pos[0, 0]) == pytest.approx(tuple(pos))


def test_s10_5_emfh_stops_fall_back_is_the_other_reading(dice):
    st, tb, rng = _emfh_scene(emfh_stops_fall_back=True)
    dice.script(4)
    turn.player_turn(st, 0, 0, tb, rng, False)
    dice.done()
    assert st.ustate[0, 0, GL.US_FALLING_BACK] == 1


# ------------------------------------------------------------------ A28 the push-back


def test_a28_the_push_back_stops_1_inch_short_of_other_units(dice):
    """A28: push-back moves the squad (and the zombies locked with it) straight away from the EV,
    stopping 1" short of enemies: a horde 3" behind the Marines stops them after 2" (issue item
    18; the other reading: pushback_through_units = true)."""
    import kernels.zombie40k.powerups

    st, tb, rng = one_game(example_config("two_players"))
    clear_table(st, keep=(1, 2))
    put_unit(st, tb, 1, 24.0, 50.0)
    put_unit(st, tb, 2, 24.0, 50.0 - st.radius[0, 1] - st.radius[0, 2] - 3.0)
    kernels.zombie40k.powerups.push_back(st, 0, 1, 6.0, tb)
    assert st.pos[0, 1, 1] == pytest.approx(48.0)
    assert kernels.zombie40k.geometry.edge_distance(*st.pos[0, 1], st.radius[0, 1], *st.pos[0, 2],
                                                     st.radius[0, 2]) == pytest.approx(1.0)


def test_a28_pushback_through_units_is_the_other_reading(dice):
    import kernels.zombie40k.powerups

    st, tb, rng = one_game(example_config("two_players", pushback_through_units=True))
    clear_table(st, keep=(1, 2))
    put_unit(st, tb, 1, 24.0, 50.0)
    put_unit(st, tb, 2, 24.0, 50.0 - st.radius[0, 1] - st.radius[0, 2] - 3.0)
    kernels.zombie40k.powerups.push_back(st, 0, 1, 6.0, tb)
    assert st.pos[0, 1, 1] == pytest.approx(44.0)


def test_a28_the_push_back_carries_the_zombies_locked_with_the_squad(dice):
    import kernels.zombie40k.powerups

    st, tb, rng = one_game(example_config("two_players"))
    locked_pair(st, tb, 1, 2, y=50.0)  # the horde on the Marines' EV side
    y1, y2 = st.pos[0, 1, 1], st.pos[0, 2, 1]
    kernels.zombie40k.powerups.push_back(st, 0, 1, 4.0, tb)
    assert st.pos[0, 1, 1] == pytest.approx(y1 - 4.0) and st.pos[0, 2, 1] == pytest.approx(y2 - 4.0)


# ------------------------------------------------------------------ core §3: the 1" rule and going around


def _squad_behind_a_horde(config, gap=0.5):
    """The Marines (squad 1) with a horde ``gap`` inches in front of them, between them and the EV."""
    st, tb, rng = one_game(config)
    clear_table(st, keep=(1, 2))
    put_unit(st, tb, 1, 24.0, 40.0)
    put_unit(st, tb, 2, 24.0, 40.0 + st.radius[0, 1] + st.radius[0, 2] + gap)
    return st, tb, rng


def _ev(st, tb, u):
    return kernels.zombie40k.geometry.ev_distance(*st.pos[0, u], st.radius[0, u], tb.prm)


def test_core_3_a_squad_within_1_inch_of_a_horde_goes_around_it(dice):
    """A squad that ended within 1" of a horde lying towards the EV may not move closer to it,
    but it may move around it: it does, and gains ground (issue item 16; the other reading:
    move_planner = straight, which leaves it where it stands)."""
    st, tb, rng = _squad_behind_a_horde(example_config("two_players"))
    before = _ev(st, tb, 1)
    movement.squad_movement(st, 0, 1, tb, rng)
    dice.done()
    assert _ev(st, tb, 1) < before - 1.0
    assert kernels.zombie40k.geometry.edge_distance(*st.pos[0, 1], st.radius[0, 1], *st.pos[0, 2],
                                                     st.radius[0, 2]) >= 0.5 - 1e-6


def test_core_3_move_planner_straight_is_the_other_reading(dice):
    st, tb, rng = _squad_behind_a_horde(example_config("two_players", move_planner="straight"))
    pos = st.pos[0, 1].copy()
    movement.squad_movement(st, 0, 1, tb, rng)
    assert tuple(st.pos[0, 1]) == pytest.approx(tuple(pos))


def test_core_3_a_squad_runs_around_a_horde_too(dice):
    st, tb, rng = _squad_behind_a_horde(example_config("two_players"))
    before = _ev(st, tb, 1)
    dice.script(6)
    movement.squad_run(st, 0, 1, tb, rng, False)
    dice.done()
    assert _ev(st, tb, 1) < before - 1.0


def _free_travel(st, tb, u, x, y, dx, dy, reach=1e9):
    """How far unit u may travel from (x, y) along (dx, dy), past the keep-away circles in reach."""
    near = np.zeros((st.pos.shape[1], 4))
    n = geometry.near_circles(st.pos, st.radius[0], st.ustate, 0, u, x, y, reach, -1, tb.prm, near)
    return geometry.free_travel(near, n, st.radius[0, u], x, y, dx, dy, tb.prm, True, True)


def test_core_3_the_1_inch_rule_is_for_enemies_zombie_units_may_touch(dice):
    """core §3: a model may not move within 1" of an *enemy* model; zombie units may come into
    base contact with each other (issue item 16; the other reading: zombie_unit_gap_in = 1)."""
    for gap_in, stop in ((0.0, 0.0), (1.0, 1.0)):
        st, tb, rng = one_game(example_config("two_players", zombie_unit_gap_in=gap_in))
        clear_table(st, keep=(1, 2, 3))
        put_unit(st, tb, 2, 24.0, 30.0)
        put_unit(st, tb, 3, 24.0, 30.0 + st.radius[0, 2] + st.radius[0, 3] + 4.0)
        assert _free_travel(st, tb, 2, 24.0, 30.0, 0.0, 1.0) == pytest.approx(4.0 - stop)
    put_unit(st, tb, 1, 24.0, 30.0 + st.radius[0, 2] + st.radius[0, 1] + 4.0)  # a squad: an enemy
    kernels.zombie40k.units.remove_unit(st, 0, 3)
    assert _free_travel(st, tb, 2, 24.0, 30.0, 0.0, 1.0) == pytest.approx(3.0)


def test_a_move_is_the_same_without_the_circles_out_of_its_reach():
    """The planner leaves out the keep-away circles more than the move's reach + 1" away
    (``near_circles``): on the tables of real games, at random points and headings, every move
    of up to ``reach`` is as far as with every circle (exact equality: the same floating point
    numbers), and some circles are left out (else the test would test nothing)."""
    st, tb, rng = one_game(example_config("four_players"))
    # a table where the game ended, played by the game's own entry point (compiled once, cached)
    entry_point(kernels.zombie40k.turn.play_batch)(st, tb, np.uint64(1), np.int64(0), False, rng)
    gen = np.random.default_rng(7)
    on = [u for u in range(st.pos.shape[1]) if st.ustate[0, u, GL.US_ON_TABLE]]
    left_out = 0
    for _ in range(400):
        u = int(gen.choice(on))
        reach = float(gen.uniform(0.5, 12.0))
        x, y = st.pos[0, u] + gen.uniform(-2.0, 2.0, 2)
        a = gen.uniform(0.0, 2 * np.pi)
        near = np.zeros((st.pos.shape[1], 4))
        n = geometry.near_circles(st.pos, st.radius[0], st.ustate, 0, u, x, y, reach, -1, tb.prm, near)
        left_out += len(on) - 1 - n
        cap = float(gen.uniform(0.0, reach))
        assert min(cap, _free_travel(st, tb, u, x, y, np.cos(a), np.sin(a), reach)) == \
            min(cap, _free_travel(st, tb, u, x, y, np.cos(a), np.sin(a)))
    assert left_out > 0


def test_a35_chuck_norris_re_rolls_a_failed_every_man_for_himself_test(dice):
    """Under the Blessing of Chuck Norris a failed Every Man For Himself test is re-rolled (A35,
    every failed roll; zombie40k §10.5; issue 27 item 6)."""
    st, tb, rng = _emfh_scene()
    st.pu[0, 0, GL.PU_CHUCK] = st.res[0, GL.R_TURNS]
    dice.script(4,  # failed: 4+ loses the turn...
                2)  # ...re-rolled: the squad keeps its turn
    assert not turn._every_man_for_himself(st, 0, 0, tb, rng)
    dice.done()
