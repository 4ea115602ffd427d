"""Zombie 40,000's own rules (zombie40k §3-§11) that no mutant of tests/mutants/zombie40k.py reached
before (issue 27): setup, the roll-off, respawning, embarking, who may shoot or charge a rival, the
Shamble's targets, the Zombie Respawn Table, the Power-Ups, the mods. Each test names its rule and
the mutants it kills; scenes of one game (tests/conftest.py ``one_game``) with hand-fed dice
(``dice``: a test fails if the code rolls more or fewer dice than scripted), or the pure rule
functions as plain Python.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

# the root conftest at collection (tests/zombies9/conftest.py takes the module name later in a whole run)
from conftest import EXAMPLES, clear_table, example_config, one_game, put_unit, team_config
from fidelity_helpers import GL, L, gap, keep_models, units

import kernels.zombie40k.assault as assault
import kernels.zombie40k.casualties as casualties
import kernels.zombie40k.geometry as geometry
import kernels.zombie40k.movement as movement
import kernels.zombie40k.powerups as powerups
import kernels.zombie40k.shooting as shooting
import kernels.zombie40k.shop as shop
import kernels.zombie40k.spawning as spawning
import kernels.zombie40k.turn as turn
from kernels.zombie40k.state import ID_AUTOGUN, X_BOSS, X_ORK_BOY, X_ZOMBIE
from sim.rulesets.zombie40k.compile import compile_tables
from sim.rulesets.zombie40k.config import parse_dice


def py(f):
    return getattr(f, "py_func", f)


def _game(name="two_players", **params):
    return one_game(example_config(name, **params))


def _mods(*mods, name="two_players"):
    return example_config(name, mods=frozenset(mods))


def _ev_gap(st, u, tb):
    return geometry.ev_distance(st.pos[0, u, 0], st.pos[0, u, 1], st.radius[0, u], tb.prm)


def _boss(st):
    return units.boss_unit(st)


def _first_horde(tb):
    return units.n_players(tb)


# ------------------------------------------------------------------ §3 setup


def test_s3_3_s3_4_setup_deploys_squads_at_their_edge_apart_and_hordes_in_the_band(dice):
    """§3.3: every squad within the deployment depth of the player edge, the deployment separation
    from the others; §3.4, A10: every horde between the bands 12" clear of each short edge; the Boss
    within 2" of the EV hull on its table side (z40k_deploy_depth, z40k_deploy_separation,
    z40k_zombie_band, z40k_boss_post). Ten set-ups: random x would put two squads 12" apart in
    about a third of them (0.37^10 < 1e-4)."""
    config = example_config("two_players")
    for seed in range(10):
        st, tb, _ = one_game(config, seed=seed)
        depth, band, length = config.deploy_depth_in, config.zombie_deploy_band_in, tb.prm[GL.P_TABLE_L]
        for p in range(2):
            assert st.pos[0, p, 1] + st.radius[0, p] <= depth + 1e-9
        assert gap(st, 0, 1) >= config.deploy_separation_in - 1e-9
        for h in range(_first_horde(tb), _boss(st)):
            assert band - 1e-9 <= st.pos[0, h, 1] <= length - band + 1e-9
        b = _boss(st)
        x0, x1, y0, _ = geometry.ev_rect(tb.prm)
        assert st.pos[0, b, 1] < y0 and _ev_gap(st, b, tb) <= 2.0 + 1e-9


def test_s3_4_a_horde_is_horde_size_zombies_one_with_an_autogun(dice):
    """§3.4: hordes_per_player hordes of horde_size Zombies, one carrying an autogun (z40k_horde_autogun)."""
    config = example_config("two_players")
    st, tb, _ = one_game(config)
    assert _boss(st) - _first_horde(tb) == config.hordes_per_player * 2
    h = _first_horde(tb)
    assert units.alive(st, 0, h) == config.horde_size
    guns = [m for m in range(st.wounds.shape[2]) if st.wounds[0, h, m] > 0
            and st.gear[0, h, m, GL.G_RANGED0] == tb.ids[ID_AUTOGUN]]
    assert len(guns) == 1


# ------------------------------------------------------------------ §4 the roll-off


def test_s4_a_tied_roll_off_is_re_rolled_among_the_tied_only(dice):
    """§4, A7: D6 each, ties re-rolled among the tied players only, place by place (z40k_rolloff_ties)."""
    st, tb, rng = _game("four_players")
    dice.script(6, 6, 3, 2,  # first place: 0 and 1 tie
                2, 5,  # only 0 and 1 roll again: 1 wins
                5, 3, 1,  # second place among 0, 2, 3: 0
                2, 6,  # third among 2, 3: 3
                1)  # last: 2 rolls alone
    spawning.rolloff_order(st, 4, rng, 0)
    dice.done()
    assert list(st.w_turn[:4]) == [1, 0, 3, 2]


# ------------------------------------------------------------------ §5 the player turn


def test_s5_1_a_squad_respawns_respawn_margin_further_from_the_ev_than_the_furthest_squad(dice):
    """§5.1: at least respawn_margin_in further from the EV than the squad furthest from it
    (z40k_respawn_margin)."""
    config = example_config("two_players")
    st, tb, rng = one_game(config)
    clear_table(st, keep=(1,))
    put_unit(st, tb, 1, 24.0, 40.0)
    spawning.respawn_squad(st, 0, 0, tb, rng)
    dice.done()
    assert units.on_table(st, 0, 0)
    assert _ev_gap(st, 0, tb) >= _ev_gap(st, 1, tb) + config.respawn_margin_in - 1e-6


def test_s5_2_a6_a_squad_embarks_when_its_move_ends_within_2_inches_of_the_hull(dice):
    """§5.2, A6: every model within 2" of the EV hull at the end of the move (z40k_embark_2in)."""
    st, tb, _ = _game()
    clear_table(st, keep=(0,))
    x0, x1, y0, _ = geometry.ev_rect(tb.prm)
    r = st.radius[0, 0]
    put_unit(st, tb, 0, 0.5 * (x0 + x1), y0 - (7.5 - r))  # its farthest model 7.5" from the hull
    assert movement.can_embark(st, 0, 0, 6.0, tb)
    put_unit(st, tb, 0, 0.5 * (x0 + x1), y0 - (8.5 - r))
    assert not movement.can_embark(st, 0, 0, 6.0, tb)


def test_s5_4_a_rival_may_be_shot_only_near_the_ev_or_on_a_grudge(dice):
    """§5.4, A19: the target within 18" of the EV, or it has shot at the firer (z40k_pvp_zone_target,
    z40k_grudge_ignored)."""
    config = example_config("two_players")
    st, tb, _ = one_game(config)
    clear_table(st, keep=(0, 1))
    x0, x1, y0, _ = geometry.ev_rect(tb.prm)
    put_unit(st, tb, 1, 24.0, y0 - st.radius[0, 1] - (config.pvp_zone_in - 2.0))
    put_unit(st, tb, 0, 24.0, 10.0)
    assert shooting.may_attack_squad(st, 0, 0, 1, tb)
    assert not shooting.may_attack_squad(st, 0, 1, 0, tb)
    st.grudge[0, 1, 0] = 1  # 0 has shot at 1
    assert shooting.may_attack_squad(st, 0, 1, 0, tb)


def test_s5_5_no_charge_at_a_unit_locked_with_another_squad_nor_at_a_rival_in_combat(dice):
    """§5.5: a squad may not join another player's assault, and may charge a rival only when it is not
    locked (z40k_charge_join_assault, z40k_charge_locked_rival)."""
    st, tb, _ = _game()
    h = _first_horde(tb)
    clear_table(st, keep=(0, 1, h))
    put_unit(st, tb, 0, 24.0, 40.0)
    put_unit(st, tb, 1, 24.0, 50.0)
    put_unit(st, tb, h, 24.0, 50.0 + st.radius[0, 1] + st.radius[0, h])
    assert assault.may_charge_target(st, 0, 0, h, tb) and assault.may_charge_target(st, 0, 0, 1, tb)
    units.lock(st, 0, 1, h)
    assert not assault.may_charge_target(st, 0, 0, h, tb)
    assert not assault.may_charge_target(st, 0, 0, 1, tb)


def test_s5_5_a21_consolidation_is_d6_inches():
    """§5.5, A21: consolidate D6" (the 7th-edition D3" replaced) (z40k_consolidate_d3)."""
    assert example_config("two_players").consolidate_dice == "D6"
    tb = compile_tables(example_config("two_players"))
    assert tuple(int(tb.prm[GL.P_CONSOL_N + k]) for k in range(3)) == parse_dice("D6")


# ------------------------------------------------------------------ §6 the zombie turn


def _ring(st, tb, h, p, x, y):
    """Horde h set down at (x, y); returns its gap to squad p."""
    put_unit(st, tb, h, x, y)
    return gap(st, h, p)


def test_s6_2_a2_a_completely_surrounded_squad_is_ignored(dice):
    """§6.2 step 2, A2: zombies locked with a squad numbering surrounded_ratio x its models surround it;
    the next horde goes for the other squad (z40k_surrounded_ignored, z40k_surrounded_ratio)."""
    config = example_config("two_players")
    st, tb, rng = one_game(config)
    h, h2 = _first_horde(tb), _first_horde(tb) + 1
    clear_table(st, keep=(0, 1, h, h2))
    keep_models(st, tb, 0, 1)
    keep_models(st, tb, h, int(config.surrounded_ratio))
    put_unit(st, tb, 0, 10.0, 30.0)
    put_unit(st, tb, h, 10.0, 30.0 + st.radius[0, 0] + st.radius[0, h])
    units.lock(st, 0, 0, h)
    put_unit(st, tb, 1, 40.0, 30.0)
    put_unit(st, tb, h2, 16.0, 30.0)
    assert movement.surrounded(st, 0, 0, tb)
    assert movement.shamble_target(st, 0, h2, tb, rng) == 1
    keep_models(st, tb, h, int(config.surrounded_ratio) - 1)
    assert not movement.surrounded(st, 0, 0, tb)
    assert movement.shamble_target(st, 0, h2, tb, rng) == 0
    dice.done()


def _two_squads_and_a_horde(dice):
    st, tb, rng = _game()
    h = _first_horde(tb)
    clear_table(st, keep=(0, 1, h))
    keep_models(st, tb, 0, 3)
    keep_models(st, tb, 1, 3)
    return st, tb, rng, h


def test_s8_shades_hide_a_squad_and_bile_draws_every_horde(dice):
    """§8 results 2 and 11: under Sweet Aviator Shades the nearest squad is ignored; under Zombie
    Bile the farther squad is the only target (z40k_shades_ignored, z40k_bile_ignored)."""
    st, tb, rng, h = _two_squads_and_a_horde(dice)
    put_unit(st, tb, h, 24.0, 30.0)
    put_unit(st, tb, 0, 24.0, 24.0)
    put_unit(st, tb, 1, 24.0, 50.0)
    assert movement.shamble_target(st, 0, h, tb, rng) == 0
    st.pu[0, 0, GL.PU_SHADES] = 1
    assert movement.shamble_target(st, 0, h, tb, rng) == 1
    st.pu[0, 0, GL.PU_SHADES] = 0
    st.pu[0, 1, GL.PU_BILE] = 1
    assert movement.shamble_target(st, 0, h, tb, rng) == 1
    dice.done()


def test_a29_a_squad_in_the_path_of_bile_seekers_is_charged_instead(dice):
    """§8 result 2, A29 (z40k_bile_path)."""
    st, tb, rng, h = _two_squads_and_a_horde(dice)
    put_unit(st, tb, h, 24.0, 20.0)
    put_unit(st, tb, 0, 24.0, 35.0)
    put_unit(st, tb, 1, 24.0, 55.0)
    st.pu[0, 1, GL.PU_BILE] = 1
    assert movement.shamble_target(st, 0, h, tb, rng) == 0
    dice.done()


def test_s8_bile_and_shades_last_one_shamble_phase(dice):
    """§8 results 2 and 11: consumed after the next Shamble phase (z40k_bile_kept)."""
    st, tb, rng = _game()
    clear_table(st, keep=(0, 1))
    st.pu[0, 0, GL.PU_BILE] = st.pu[0, 1, GL.PU_SHADES] = 1
    dice.script(3, 4)  # the phase's one 2D6 roll
    movement.shamble_phase(st, 0, tb, rng)
    dice.done()
    assert st.pu[0, 0, GL.PU_BILE] == 0 and st.pu[0, 1, GL.PU_SHADES] == 0


def test_a3_equally_near_squads_the_one_closer_to_the_ev_is_the_target(dice):
    """A3: ties broken by the squad closer to the EV, no coin (z40k_tie_ev)."""
    st, tb, rng, h = _two_squads_and_a_horde(dice)
    put_unit(st, tb, h, 24.0, 30.0)
    put_unit(st, tb, 0, 14.0, 31.0)  # as near as squad 1, nearer the EV
    put_unit(st, tb, 1, 34.0, 29.0)
    assert movement.shamble_target(st, 0, h, tb, rng) == 0
    dice.done()


def test_a3_hordes_shamble_closest_to_their_target_first(dice):
    """A3: resolved one by one, the horde closest to its target first (z40k_shamble_order)."""
    st, tb, rng = _game()
    h = _first_horde(tb)
    clear_table(st, keep=(0, h, h + 1))
    put_unit(st, tb, 0, 24.0, 10.0)
    put_unit(st, tb, h, 24.0, 50.0)
    put_unit(st, tb, h + 1, 24.0, 25.0)
    movement._shamble_order(st, 0, tb, rng)
    order = [int(z) for z in st.w_order if st.w_keys[z] < 1e17]
    assert order == [h + 1, h]
    dice.done()


def test_s6_2_a_shamble_into_contact_is_a_charge_after_overwatch(dice, monkeypatch):
    """§6.2 step 4: the target fires Overwatch when the roll reaches it, and the horde that reaches base
    contact has charged (+1 Attack) (z40k_shamble_no_overwatch, z40k_shamble_no_charge)."""
    st, tb, rng = _game()
    h = _first_horde(tb)
    clear_table(st, keep=(0, h))
    put_unit(st, tb, 0, 24.0, 20.0)
    put_unit(st, tb, h, 24.0, 20.0 + st.radius[0, 0] + st.radius[0, h] + 4.0)
    fired = []
    monkeypatch.setattr(movement, "overwatch", lambda st, g, p, z, tb, rng: fired.append((p, z)))
    movement._shamble_unit(st, 0, h, 0, 3.0, tb, rng)  # short: no Overwatch, no contact
    assert fired == [] and st.ustate[0, h, GL.US_CHARGED] == 0
    movement._shamble_unit(st, 0, h, 0, 6.0, tb, rng)
    dice.done()
    assert fired == [(0, h)] and st.locked[0, h, 0] and st.ustate[0, h, GL.US_CHARGED] == 1


def test_core_7_2_overwatch_is_fired_once_a_phase(dice, monkeypatch):
    """§6.2 step 4, core §7.2: a squad fires Overwatch at most once a phase (z40k_overwatch_twice)."""
    st, tb, rng = _game()
    h = _first_horde(tb)
    shots = []
    monkeypatch.setattr(assault, "shoot", lambda *a: shots.append(a[3]) or (1, 0, False))
    assault.overwatch(st, 0, 0, h, tb, rng)
    assault.overwatch(st, 0, 0, h + 1, tb, rng)
    assert shots == [h]


def test_s6_3_zombies_shoot_the_nearest_unengaged_squad_first(dice):
    """§6.3: the nearest unengaged squad in range before a nearer squad locked in combat
    (z40k_zombie_shoot_engaged)."""
    st, tb, rng = _game()
    h = _first_horde(tb)
    clear_table(st, keep=(0, 1, h, h + 1))
    put_unit(st, tb, h, 24.0, 30.0)
    put_unit(st, tb, 0, 24.0, 22.0)
    put_unit(st, tb, h + 1, 24.0, 22.0 - st.radius[0, 0] - st.radius[0, h + 1])
    units.lock(st, 0, 0, h + 1)
    put_unit(st, tb, 1, 24.0, 45.0)
    assert turn._zombie_shooting_target(st, 0, h, tb) == 1


def test_s6_4_zombies_always_may_sweep_though_slow_and_purposeful(dice):
    """§6.4, §11.3: zombies are Slow and Purposeful yet always attempt the Sweeping Advance
    (z40k_zombie_no_sweep)."""
    st, tb, _ = _game()
    h = _first_horde(tb)
    clear_table(st, keep=(0, h))
    put_unit(st, tb, 0, 24.0, 30.0)
    put_unit(st, tb, h, 24.0, 30.0 + st.radius[0, 0] + st.radius[0, h])
    units.lock(st, 0, 0, h)
    assert units.any_has(st, 0, h, L.MR_SLOW_AND_PURPOSEFUL)
    assert assault._may_sweep(st, 0, 0, h, tb, True)


def test_s6_5_an_edge_arrival_comes_in_by_the_nearest_squad_not_locked_with_zombies(dice):
    """§6.5: at the point of the edge closest to the nearest squad not locked with zombies
    (z40k_edge_locked_squad)."""
    st, tb, _ = _game()
    h = _first_horde(tb)
    clear_table(st, keep=(0, 1, h + 1))
    put_unit(st, tb, 0, 8.0, 10.0)
    put_unit(st, tb, h + 1, 8.0, 10.0 + st.radius[0, 0] + st.radius[0, h + 1])
    units.lock(st, 0, 0, h + 1)
    put_unit(st, tb, 1, 40.0, 30.0)
    spawning.build_horde(st, 0, h, tb)
    st.radius[0, h] = spawning.unit_radius(units.alive(st, 0, h), tb.prm)
    assert spawning.arrive_from_edge(st, 0, h, 0, tb)
    assert abs(st.pos[0, h, 0] - 40.0) < 1.5 and st.pos[0, h, 1] == pytest.approx(st.radius[0, h])


# ------------------------------------------------------------------ §7 the Zombie Respawn Table


def _respawning_horde(dice):
    st, tb, rng = _game()
    h = _first_horde(tb)
    clear_table(st, keep=(0, 1))
    put_unit(st, tb, 0, 12.0, 20.0)
    put_unit(st, tb, 1, 36.0, 30.0)
    return st, tb, rng, h


@pytest.mark.parametrize("die, where", [(1, "player"), (2, "left"), (3, "right"), (4, "ev")])
def test_s7_results_1_to_4_bring_the_horde_on_their_edge(dice, die, where):
    """§7, A24: 1 the player edge, 2 the left edge, 3 the right one (facing the EV), 4 the EV edge
    (z40k_respawn_edges, z40k_left_right)."""
    st, tb, rng, h = _respawning_horde(dice)
    dice.script(die)
    assert spawning.respawn_horde(st, 0, h, tb, rng)
    dice.done()
    x, y, r = st.pos[0, h, 0], st.pos[0, h, 1], st.radius[0, h]
    w, length = tb.prm[GL.P_TABLE_W], tb.prm[GL.P_TABLE_L]
    expect = {"player": y == pytest.approx(r), "left": x == pytest.approx(r), "right": x == pytest.approx(w - r),
              "ev": y == pytest.approx(length - r)}
    assert expect[where], (x, y)


def test_s7_result_5_deep_strikes_from_the_centre_2d6_along_an_arrow(dice):
    """§7 result 5, A25: a HIT is re-rolled until an arrow shows; 2D6" scatter (centre_scatter_dice)
    (z40k_centre_one_die, z40k_centre_hit)."""
    st, tb, rng, h = _respawning_horde(dice)
    dice.script(5, 1, 4, 0.25, 2, 3)  # result 5; HIT re-rolled, an arrow; direction +y; 2D6 = 5
    assert spawning.respawn_horde(st, 0, h, tb, rng)
    dice.done()
    w, length = tb.prm[GL.P_TABLE_W], tb.prm[GL.P_TABLE_L]
    assert st.pos[0, h, 0] == pytest.approx(0.5 * w) and st.pos[0, h, 1] == pytest.approx(0.5 * length + 5.0)


def test_s7_result_6_a_hit_lands_on_the_aim_in_front_of_the_leader(dice):
    """§7 result 6, A26: the scatter die's HIT does not scatter; the aim is result6_gap_in in front of
    the squad closest to the EV (z40k_result6_hit_scatters, z40k_result6_aims_at_chooser)."""
    config = example_config("two_players")
    st, tb, rng, h = _respawning_horde(dice)
    dice.script(6, 1, 0.5)  # result 6; the scatter die: HIT (its direction drawn, unused)
    assert spawning.respawn_horde(st, 0, h, tb, rng)
    dice.done()
    assert _ev_gap(st, 1, tb) < _ev_gap(st, 0, tb)
    assert gap(st, h, 1) == pytest.approx(config.result6_gap_in, abs=1e-6)


def test_s6_1_a14_a_horde_returns_the_boss_does_not(dice):
    """§6.1, A14: destroyed hordes come back; the Boss by default not (z40k_boss_respawns)."""
    st, tb, _ = _game()
    clear_table(st)
    assert spawning.zombie_can_respawn(st, 0, _first_horde(tb), tb)
    assert not spawning.zombie_can_respawn(st, 0, _boss(st), tb)


# ------------------------------------------------------------------ §8 Power-Ups


def _race(dice, leader_gap, name="two_players", **params):
    """Squad 1 leads, ``leader_gap`` inches from the EV; squad 0 is furthest."""
    config = example_config(name, **params)
    st, tb, rng = one_game(config)
    clear_table(st, keep=(0, 1))
    x0, x1, y0, _ = geometry.ev_rect(tb.prm)
    put_unit(st, tb, 1, 24.0, y0 - st.radius[0, 1] - leader_gap)
    put_unit(st, tb, 0, 24.0, 8.0)
    return st, tb, rng


def test_s8_a_squad_not_furthest_rolls_2d6_once(dice):
    """§8: 2D6 on the table; 7 is a Medpack (z40k_powerup_one_die)."""
    st, tb, rng = _race(dice, 30.0)
    dice.script(3, 4)
    powerups.roll_powerup(st, 0, 1, tb, rng)
    dice.done()
    assert st.pu[0, 1, GL.PU_MEDPACKS] == 1 and st.pres[0, 1, GL.PR_POWERUP0 + GL.MEDPACK] == 1


def test_s8_a28_the_furthest_squad_pushes_a_leader_in_the_zone_back(dice):
    """§8, A28: the leader within 18" of the EV is pushed D6" away (z40k_catchup_zone)."""
    config = example_config("two_players")
    st, tb, rng = _race(dice, config.pvp_zone_in - 8.0)
    before = _ev_gap(st, 1, tb)
    dice.script(4)  # the push-back D6
    powerups.roll_powerup(st, 0, 0, tb, rng)
    dice.done()
    assert _ev_gap(st, 1, tb) == pytest.approx(before + 4.0)


def test_s8_a28_the_furthest_squad_rolls_twice_and_keeps_the_better(dice):
    """§8, A28: a leader outside the zone: roll twice, keep the result the policy ranks higher
    (z40k_catchup_keeps_first)."""
    st, tb, rng = _race(dice, 30.0)
    results = [(a, b) for a in range(2, 13) for b in range(2, 13) if tb.pu_value[b] > tb.pu_value[a]]
    first, second = results[0]
    dice.script(1, first - 1, 1, second - 1)
    powerups.roll_powerup(st, 0, 0, tb, rng)
    dice.done()
    assert st.pres[0, 0, GL.PR_POWERUP0 + second] == 1 and st.pres[0, 0, GL.PR_POWERUP0 + first] == 0


def test_s10_1_coop_the_furthest_squad_neither_rolls_twice_nor_pushes(dice):
    """§10.1 (z40k_coop_catchup)."""
    config = _mods("coop")
    st, tb, rng = one_game(config)
    clear_table(st, keep=(0, 1))
    x0, x1, y0, _ = geometry.ev_rect(tb.prm)
    put_unit(st, tb, 1, 24.0, y0 - st.radius[0, 1] - 5.0)
    put_unit(st, tb, 0, 24.0, 8.0)
    dice.script(3, 4)
    powerups.roll_powerup(st, 0, 0, tb, rng)
    dice.done()
    assert st.pu[0, 0, GL.PU_MEDPACKS] == 1


def test_s8_a_squad_wiped_out_loses_every_power_up(dice):
    """§8 (z40k_keeps_powerups)."""
    st, tb, rng = _game()
    st.pu[0, 0, GL.PU_MEDPACKS] = st.pu[0, 0, GL.PU_MUSHROOM] = st.pu[0, 0, GL.PU_DEFIBS] = 1
    casualties.wipe(st, 0, 0, _first_horde(tb), tb, rng)
    dice.done()
    assert not st.pu[0, 0].any()


def test_s8_destroying_a_horde_rolls_a_power_up_the_boss_does_not(dice):
    """§8, A27: the squad that removes a horde's last model rolls; the Boss gives none
    (z40k_boss_powerup)."""
    st, tb, rng = _race(dice, 30.0)
    casualties.wipe(st, 0, _boss(st), 1, tb, rng)
    dice.done()
    dice.script(3, 4)
    casualties.wipe(st, 0, _first_horde(tb), 1, tb, rng)
    dice.done()
    assert st.pu[0, 1, GL.PU_MEDPACKS] == 1


def test_s8_banana_peel_slows_the_next_turn(dice):
    """§8 result 3, A30: in the player's next turn the squad moves as through difficult terrain
    (2D6, the highest) (z40k_banana_this_turn)."""
    st, tb, rng = _game()
    powerups.apply_powerup(st, 0, 0, GL.BANANA, tb)
    st.res[0, GL.R_TURNS] += 1
    dice.script(2, 5)
    assert movement.move_allowance(st, 0, 0, tb, rng, 0.0, 0.0, -1.0) == 5.0  # the move towards its goal
    dice.done()


def test_s8_chuck_norris_lasts_until_the_end_of_the_squads_next_turn(dice):
    """§8 result 12 (z40k_chuck_this_turn)."""
    st, tb, rng = _game()
    powerups.apply_powerup(st, 0, 0, GL.CHUCK, tb)
    st.res[0, GL.R_TURNS] += 1
    assert powerups.chuck_active(st, 0, 0)
    turn._end_player_turn(st, 0, 0, rng)
    assert not powerups.chuck_active(st, 0, 0)


def test_s8_the_ork_boy_joins_with_his_profile_and_rules(dice):
    """§8 result 4, §11: one more model, the Ork Boy (WS4 BS2 S3 T4 W1 I2 A2 Ld7 6+, Furious Charge)
    (z40k_ork_boy_rules)."""
    st, tb, _ = _game()
    p = next(q for q in range(2) if (tb.squad_wounds[q] == 0).any())
    before = units.alive(st, 0, p)
    powerups.add_ork_boy(st, 0, p, tb)
    assert units.alive(st, 0, p) == before + 1
    m = next(m for m in range(st.wounds.shape[2]) if tb.squad_wounds[p, m] == 0 and st.wounds[0, p, m] > 0)
    assert list(st.stats[0, p, m]) == list(tb.extra_stats[X_ORK_BOY])
    assert st.mflags[0, p, m] & L.MR_FURIOUS_CHARGE


def test_s8_the_shotgun_hits_on_2_removes_wounds_and_allows_armour_saves(dice):
    """§8 result 8, A34: hits on 2+, a Wound per hit, no Feel No Pain, no cover; armour and
    invulnerable saves allowed (z40k_shotgun_no_saves)."""
    import numpy as np

    tb = compile_tables(example_config("two_players"))
    spec = np.zeros(L.N_SPEC, np.int64)
    shooting._shotgun_spec(spec, tb, 0)  # plain Python under ``dice``: nothing compiled
    assert spec[L.SP_HIT_ON] == tb.prm[GL.P_SHOTGUN_HIT_ON] and spec[L.SP_NO_SAVES] == 0 and spec[L.SP_NO_FNP] == 1
    assert spec[L.SP_NO_COVER] == 1 and spec[L.SP_AUTO_WOUND] == 1


def test_s8_the_chainsaw_allows_no_save(dice):
    """§8 result 6, A32 (z40k_chainsaw_saves)."""
    import numpy as np

    st, tb, _ = _game()
    spec = np.zeros(L.N_SPEC, np.int64)
    assault._model_spec(st, 0, 0, 0, _first_horde(tb), -2, tb, spec)
    assert spec[L.SP_HIT_ON] == tb.prm[GL.P_CHAINSAW_HIT_ON] and spec[L.SP_NO_SAVES] == 1
    assert spec[L.SP_NO_FNP] == 1 and spec[L.SP_MELEE] == 1


# ------------------------------------------------------------------ §10 mods


def test_s10_2_four_weeks_later_zombies_shamble_3d6_keep_two_no_fnp_furious_charge_and_rage():
    """§10.2 (z40k_fwl_shamble, z40k_fwl_fnp)."""
    config = _mods("four_weeks_later")
    tb = compile_tables(config)
    assert tuple(int(tb.prm[GL.P_SHAMBLE_N + k]) for k in range(3)) == parse_dice(config.fwl_shamble_dice) == (3, 2, 0)
    assert tb.extra_stats[X_ZOMBIE, L.FNP] == 7
    assert tb.extra_flags[X_ZOMBIE] & L.MR_FURIOUS_CHARGE and tb.extra_flags[X_ZOMBIE] & L.MR_RAGE


def test_s10_3_a_survivor_slain_by_a_horde_rises_with_feel_no_pain(dice):
    """§10.3, A36: it joins the horde with its profile and wargear, Feel No Pain (dmw_fnp) at worst
    (z40k_dmw_no_fnp)."""
    config = _mods("dead_men_walking")
    st, tb, _ = one_game(config)
    h = _first_horde(tb)
    m = next(m for m in range(st.wounds.shape[2]) if st.wounds[0, 1, m] > 0 and st.stats[0, 1, m, L.FNP] > 6)
    slots = units.alive(st, 0, h)
    assault.join_horde(st, 0, 1, m, h, tb)
    k = slots  # the first free slot
    assert st.stats[0, h, k, L.FNP] == config.dmw_fnp and st.stats[0, h, k, L.WS] == st.stats[0, 1, m, L.WS]
    assert st.mflags[0, h, k] & L.MR_ZOMBIE and units.alive(st, 0, h) == slots + 1


def test_s10_4_death_korps_each_respawn_adds_toughness_and_better_fnp_up_to_the_caps(dice):
    """§10.4, A37 (z40k_dk_fnp_cap, z40k_dk_no_escalation)."""
    config = _mods("death_korps")
    tb = compile_tables(config)
    profile = py(spawning.death_korps_profile)
    assert profile(0, tb.prm) == (config.dk_start_t, config.dk_start_fnp)
    assert profile(1, tb.prm) == (config.dk_start_t + 1, config.dk_start_fnp - 1)
    assert profile(10, tb.prm) == (config.dk_max_t, config.dk_max_fnp)
    st, tb, rng = one_game(config)
    h = _first_horde(tb)
    clear_table(st, keep=(0, 1))
    dice.script(4)
    assert spawning.respawn_horde(st, 0, h, tb, rng)
    dice.done()
    assert st.stats[0, h, 0, L.T] == config.dk_start_t + 1 and st.stats[0, h, 0, L.FNP] == config.dk_start_fnp - 1


@pytest.mark.parametrize("die, lost", [(3, False), (4, True)])
def test_s10_5_every_man_for_himself_loses_the_turn_on_a_4_plus(dice, die, lost):
    """§10.5, A38: within emfh_radius_in of a rival, a D6 of emfh_fail_on+ (z40k_emfh_strict)."""
    config = _mods("every_man_for_himself")
    assert config.emfh_fail_on == 4
    st, tb, rng = one_game(config)
    clear_table(st, keep=(0, 1))
    put_unit(st, tb, 0, 20.0, 20.0)
    put_unit(st, tb, 1, 20.0, 20.0 + st.radius[0, 0] + st.radius[0, 1] + config.emfh_radius_in - 1.0)
    dice.script(die)
    assert turn._emfh_test(st, 0, 0, tb, rng) == lost
    dice.done()


def test_s10_6_s10_7_hardcore_respawns_once_without_power_ups_instant_death_never(dice):
    """§10.6, §10.7 (z40k_hardcore_respawns, z40k_hardcore_powerups, z40k_instant_death, z40k_respawn_limit)."""
    hard = compile_tables(_mods("hardcore"))
    assert hard.prm[GL.P_MAX_RESPAWNS] == 1 and hard.prm[GL.P_POWERUPS] == 0
    assert compile_tables(_mods("instant_death")).prm[GL.P_MAX_RESPAWNS] == 0
    st, tb, _ = one_game(_mods("hardcore"))
    assert turn._may_respawn(st, 0, 0, tb)
    st.ustate[0, 0, GL.US_RESPAWNS] = 1
    assert not turn._may_respawn(st, 0, 0, tb)


def test_s10_9_t_virus_zombies_are_t4_with_feel_no_pain_4_the_boss_unchanged():
    """§10.9 (z40k_tvirus_t, z40k_tvirus_boss)."""
    config = _mods("t_virus")
    base, tb = compile_tables(example_config("two_players")), compile_tables(config)
    assert tb.extra_stats[X_ZOMBIE, L.T] == config.tvirus_t and tb.extra_stats[X_ZOMBIE, L.FNP] == config.tvirus_fnp
    assert list(tb.extra_stats[X_BOSS]) == list(base.extra_stats[X_BOSS])


def test_s10_1_coop_a_squad_wiped_near_the_ev_is_out_measured_to_its_nearest_model(dice):
    """§10.1: wiped out within coop_no_respawn_radius_in of the EV (nearest model) it never returns
    (z40k_coop_radius_centre)."""
    config = _mods("coop")
    st, tb, rng = one_game(config)
    x0, x1, y0, _ = geometry.ev_rect(tb.prm)
    r = st.radius[0, 0]
    assert r > 1.0
    put_unit(st, tb, 0, 24.0, y0 - r - config.coop_no_respawn_radius_in + 0.5)  # its centre beyond the radius
    casualties.wipe(st, 0, 0, _first_horde(tb), tb, rng)
    assert st.ustate[0, 0, GL.US_OUT] == 1
    put_unit(st, tb, 1, 24.0, 10.0)
    casualties.wipe(st, 0, 1, _first_horde(tb), tb, rng)
    assert st.ustate[0, 1, GL.US_OUT] == 0


def test_s10_1_coop_nobody_boards_while_the_boss_lives(dice):
    """§10.1 (z40k_coop_boss_blocks)."""
    st, tb, _ = one_game(_mods("coop"))
    x0, x1, y0, _ = geometry.ev_rect(tb.prm)
    put_unit(st, tb, 0, 0.5 * (x0 + x1), y0 - st.radius[0, 0] - 1.0)
    assert units.on_table(st, 0, _boss(st)) and not movement.can_embark(st, 0, 0, 6.0, tb)
    units.remove_unit(st, 0, _boss(st))
    assert movement.can_embark(st, 0, 0, 6.0, tb)


def test_s10_1_coop_hordes_arrive_on_the_ev_edge_once_a_squad_came_within_18(dice):
    """§10.1 (z40k_coop_ev_edge)."""
    st, tb, rng = one_game(_mods("coop"))
    h = _first_horde(tb)
    clear_table(st, keep=(0, 1))
    st.ustate[0, 1, GL.US_REACHED_ZONE] = 1
    dice.script(1)
    assert spawning.respawn_horde(st, 0, h, tb, rng)
    dice.done()
    assert st.pos[0, h, 1] == pytest.approx(tb.prm[GL.P_TABLE_L] - st.radius[0, h])


def test_s10_11_killing_floor_points_per_kill_and_half_price_rounded_up(dice):
    """§10.11, A41 (z40k_kf_no_points, z40k_kf_sell_round_down)."""
    config = _mods("killing_floor")
    st, tb, rng = one_game(config)
    h = _first_horde(tb)
    before = units.alive(st, 0, h)
    keep_models(st, tb, h, before - 2)
    casualties.after_attack(st, 0, h, 0, before, tb, rng)
    assert st.ustate[0, 0, GL.US_KF_POINTS] == 2 * config.kf_points_per_kill
    sale = py(shop.sale_price)
    assert [sale(c) for c in (1, 2, 3, 5)] == [1, 1, 2, 3]



def test_s5_1_a_respawned_squad_rolls_for_a_power_up(dice):
    """§5.1: after respawning the player rolls on the Power-Up table; respawned furthest from the EV
    with the leader outside the zone, it rolls twice (A28) (z40k_respawn_no_powerup)."""
    st, tb, rng = _game()
    clear_table(st, keep=(1,))
    x0, x1, y0, _ = geometry.ev_rect(tb.prm)
    put_unit(st, tb, 1, 24.0, y0 - st.radius[0, 1] - 30.0)
    dice.script(3, 4, 3, 4)
    turn.respawning_phase(st, 0, 0, tb, rng)
    dice.done()
    assert units.on_table(st, 0, 0) and st.pu[0, 0, GL.PU_MEDPACKS] == 1


# ------------------------------------------------------------------ §1, §2, §3.1 and A11


def test_s1_s5_2_a_squad_that_embarks_ends_the_game_for_its_player(dice):
    """§1, §5.2: the squad that embarks in its Movement phase wins at once (z40k_embark_no_win)."""
    st, tb, rng = _game()
    clear_table(st, keep=(0,))
    x0, x1, y0, _ = geometry.ev_rect(tb.prm)
    put_unit(st, tb, 0, 0.5 * (x0 + x1), y0 - 4.0)
    assert movement.squad_movement(st, 0, 0, tb, rng)
    dice.done()
    assert st.ustate[0, 0, GL.US_EMBARKED] == 1 and not units.on_table(st, 0, 0)


def test_s2_one_leader_two_weapon_swaps_and_the_budget_inclusive():
    """§2: at most one leader, two weapon swaps; a team costing exactly the budget is legal
    (z40k_two_leaders, z40k_three_swaps, z40k_budget_inclusive)."""
    from sim.rulesets.zombie40k.teams import ModelChoice, check_team, load_team, team_cost

    team = load_team(EXAMPLES / "teams" / "marines.toml")
    cost = team_cost(team)
    assert check_team(team, cost) == [] and check_team(team, cost - 1) != []
    models = list(team.models)
    two = replace(team, models=[models[0], ModelChoice(models[1].unit, leader=models[0].leader), *models[2:]])
    assert any("leaders" in p for p in check_team(two, 1000))
    swap = next(m.swap for m in models if m.swap)
    three = replace(team, models=[models[0]] + [ModelChoice(m.unit, swap=swap) for m in models[1:]])
    assert len(models) >= 4 and any("weapon swaps" in p for p in check_team(three, 1000))


def test_s3_1_the_table_is_48_wide_up_to_4_players_60_for_5_6():
    """§3.1, A8 (z40k_table_width)."""
    assert example_config("four_players").width == 48.0 and example_config("six_players").width == 60.0


def test_a11_coop_is_won_only_when_no_squad_can_still_play(dice):
    """A11: Coop players win when every squad still able to play is embarked; one wiped out that may
    respawn still plays (z40k_coop_win_early)."""
    st, tb, _ = one_game(_mods("coop"))
    units.remove_unit(st, 0, 0)
    st.ustate[0, 0, GL.US_EMBARKED] = 1
    units.remove_unit(st, 0, 1)
    assert turn._may_respawn(st, 0, 1, tb) and not turn._coop_won(st, 0, tb)
    st.ustate[0, 1, GL.US_OUT] = 1
    assert turn._coop_won(st, 0, tb)


def test_a11_nobody_can_play_only_when_no_squad_may_come_back(dice):
    """A11, §10.7 (z40k_nobody_respawns)."""
    st, tb, _ = _game()
    clear_table(st)
    assert not turn._nobody_can_play(st, 0, tb)
    st, tb, _ = one_game(_mods("instant_death"))
    clear_table(st)
    assert turn._nobody_can_play(st, 0, tb)


def test_s5_3_a17_the_warp_charge_pool_is_d6_plus_mastery_the_zombies_deny_on_6s(dice):
    """§5.3, A17: the pool is D6 + the Mastery Levels (two dice thrown for Warp Charge 1, 4+ each);
    the zombies deny with as many dice as the D6, each 6 a success (z40k_warp_no_mastery,
    z40k_deny_on_5)."""
    st, tb, rng = one_game(team_config("grey_knights", "guard"))
    h = _first_horde(tb)
    clear_table(st, keep=(0, h))
    put_unit(st, tb, 0, 24.0, 20.0)
    put_unit(st, tb, h, 24.0, 20.0 + st.radius[0, 0] + st.radius[0, h] + 6.0)
    dice.script(1, 4, 1, 5)  # the pool D6 = 1 (+3 Mastery: two dice), one success; the deny die: a 5
    turn.psychic_phase(st, 0, 0, tb, rng)
    dice.done()
    assert st.ustate[0, 0, GL.US_FORCE] == st.res[0, GL.R_TURNS]


def test_s10_1_coop_no_rival_fire_and_result_6_in_front_of_the_leader_whatever_the_policy(dice):
    """§10.1: nobody shoots another player's squad, not even near the EV; Respawn result 6 Deep
    Strikes in front of the squad closest to the EV whatever result6_policy says (no die for the aim)
    (z40k_coop_pvp, z40k_coop_result6_policy)."""
    config = example_config("two_players", result6_policy="random", mods=frozenset({"coop"}))
    st, tb, rng = one_game(config)
    clear_table(st, keep=(0, 1))
    x0, x1, y0, _ = geometry.ev_rect(tb.prm)
    put_unit(st, tb, 1, 24.0, y0 - st.radius[0, 1] - 5.0)
    put_unit(st, tb, 0, 24.0, 8.0)
    assert not shooting.may_attack_squad(st, 0, 0, 1, tb)
    put_unit(st, tb, 1, 24.0, y0 - st.radius[0, 1] - 25.0)  # no squad near the EV yet: the table's result counts
    assert st.ustate[0, 1, GL.US_REACHED_ZONE] == 0
    h = _first_horde(tb)
    dice.script(6, 1, 0.5)  # result 6; the scatter die: HIT
    assert spawning.respawn_horde(st, 0, h, tb, rng)
    dice.done()
    assert gap(st, h, 1) == pytest.approx(config.result6_gap_in, abs=1e-6)


def test_s6_4_a_horde_whose_combat_ended_consolidates_d6_towards_the_nearest_squad(dice):
    """§6.4, A21: D6" towards its Shamble target (z40k_zombie_consolidate_still)."""
    st, tb, rng = _game()
    h = _first_horde(tb)
    clear_table(st, keep=(0, h))
    put_unit(st, tb, h, 24.0, 30.0)
    put_unit(st, tb, 0, 24.0, 50.0)
    st.ustate[0, h, GL.US_CONSOLIDATE] = 1
    dice.script(4)
    turn._consolidations(st, 0, tb, rng)
    dice.done()
    assert st.pos[0, h, 0] == pytest.approx(24.0) and st.pos[0, h, 1] == pytest.approx(34.0)


# ------------------------------------------------------------------ combat resolution (core §7.4)


def test_core_7_4_a_wound_feel_no_pain_ignores_is_not_in_the_combat_result(dice):
    """core §7.4: each side totals the unsaved Wounds it inflicted, "wounds ignored by Feel No Pain
    do not count" - the measure Zombie Apocalypse's combats use too. Two automatic wounds on a horde
    (Feel No Pain, zombie40k §10.4; no armour): Feel No Pain ignores the first, not the second
    (z40k_result_fnp_counts)."""
    import numpy as np

    from kernels.w40k.attack_spec import automatic_wound_spec

    st, tb, rng = _game()
    h = _first_horde(tb)
    fnp = int(st.stats[0, h, 0, L.FNP])
    assert 1 < fnp < L.NONE and st.stats[0, h, 0, L.SV] == L.NONE and st.stats[0, h, 0, L.INV] == L.NONE
    spec = np.zeros_like(st.w_spec[0])
    automatic_wound_spec(spec)
    inflicted, suffered = np.zeros_like(st.w_inflicted), np.zeros_like(st.w_suffered)
    n = units.alive(st, 0, h)
    dice.script(fnp, 1)  # the first wound's Feel No Pain passes, the second's fails
    assault._strike(st, 0, 0, h, 2, spec, inflicted, suffered, tb, rng, np.zeros_like(st.w_out[0]))
    dice.done()
    assert units.alive(st, 0, h) == n - 1
    assert inflicted[0] == 1 and suffered[h] == 1


# ------------------------------------------------------------------ the second pass's unmutated rules (§10.1, §11.5)


def test_s10_1_coop_an_embarked_squad_fires_from_the_ev_at_the_nearest_zombies(dice, monkeypatch):
    """§10.1: in Coop Mode an embarked squad shoots from the EV's access point at the nearest
    zombies in reach (z40k_coop_no_ev_fire, z40k_coop_ev_fire_any)."""
    st, tb, rng = one_game(_mods("coop"))
    near, far = _first_horde(tb), _first_horde(tb) + 1
    clear_table(st, keep=(0, near, far))
    movement.embark(st, 0, 0, tb)
    x, y = st.pos[0, 0]
    put_unit(st, tb, far, x, y - st.radius[0, far] - 6.0)
    put_unit(st, tb, near, x + 4.0, y - st.radius[0, near] - 2.0)
    fired = []
    monkeypatch.setattr(turn, "shoot", lambda st, g, u, v, *rest: fired.append((u, v)))
    turn._fire_from_vehicle(st, 0, 0, tb, rng)
    assert fired == [(0, near)]


def test_s11_5_blight_grenades_count_as_assault_and_defensive_grenades_and_terminator_armour_is_2_plus_5_inv(dice):
    """§11.5, A43: the Boss's Blight grenade is both an assault and a defensive grenade; his
    Terminator armour gives 2+ and 5++ (z40k_blight_not_defensive, z40k_terminator_inv)."""
    from sim.rulesets.zombie40k.compile import catalogue_for, weapon_index

    config = example_config("two_players")
    st, tb, _ = one_game(config)
    row = weapon_index(catalogue_for(config))["Blight grenade"]
    flags = tb.weapons[row, L.W_FLAGS]
    assert flags & L.WR_ASSAULT_GRENADE and flags & L.WR_DEFENSIVE_GRENADE
    boss = _boss(st)
    assert st.stats[0, boss, 0, L.SV] == 2 and st.stats[0, boss, 0, L.INV] == 5
