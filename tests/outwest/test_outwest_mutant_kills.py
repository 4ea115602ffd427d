"""Rules of Zombies Out West that no other rules test guarded: each test here fails on at least one
mutant of tests/mutants/outwest.py (named in its docstring) and passes on the real code.

Hand-fed dice (``ow_dice``: a test fails if the code rolls more dice than scripted, or fewer) or
the pure rule functions as plain Python (``ow_nojit``), on tables set up by hand (Arena).
"""

from __future__ import annotations

import math

import outwest_helpers as H
import pytest
from outwest_helpers import Arena, config

import kernels.outwest.bites as B
import kernels.outwest.deck as K
import kernels.outwest.humans as Hm
import kernels.outwest.melee as M
import kernels.outwest.shooting as S
import kernels.outwest.zombies as Z
from kernels.outwest import layout as L
from sim.rulesets.outwest.config import Character

GUNMAN, LEGEND, CITIZEN, SHOOTIST = 2, 0, 4, 1  # slots of the default posse
PISTOL, RIFLE, SHOTGUN, SAWN, MUSKETOON = 0, 1, 3, 4, 5  # rows of sim/data/outwest/weapons.toml
ow_dice, ow_nojit = H.ow_dice, H.ow_nojit  # the fixtures


def spot_of(a: Arena, kind: int) -> tuple[float, float]:
    """The centre of the first terrain rectangle of this kind in the default town."""
    for t in a.tb.terrain:
        if int(t[L.T_KIND]) == kind:
            return 0.5 * (t[L.T_X0] + t[L.T_X1]), 0.5 * (t[L.T_Y0] + t[L.T_Y1])
    raise AssertionError(f"no terrain of kind {kind} in the default town")


# ------------------------------------------------------------------ §1 arcs, front half


def test_arcs_are_ninety_degrees_front_and_rear(ow_nojit):
    """§1/W11: front within 45 degrees of ahead, rear within 45 of behind (ow_front_arc_wide,
    ow_rear_arc_narrow)."""
    a = Arena()
    h = a.put(GUNMAN, 18.0, 18.0, 0.0)
    arcs = []
    for deg in (40.0, 50.0, 130.0, 140.0, 180.0):
        r = math.radians(deg)
        z = a.put(a.zombie(0), 18.0 + math.cos(r), 18.0 + math.sin(r))
        arcs.append(M.arc_from(a.st, 0, a.tb, h, z))
    assert arcs == [0, 1, 1, 2, 2]


def test_a_gun_retargets_only_zombies_in_front(ow_nojit):
    """§1: shooting needs the target in the front 180 degrees (ow_shoot_front_half)."""
    a = Arena(config(town="open"))
    a.put(GUNMAN, 18.0, 18.0, 0.0)  # facing east
    was = a.put(a.zombie(0), 20.0, 18.0)
    a.put(a.zombie(1), 16.0, 18.0)  # behind him, 1" gap
    assert S.retarget(a.st, 0, a.tb, GUNMAN, PISTOL, was) == -1


# ------------------------------------------------------------------ §2.1, §11 classes


def test_class_shooting_dice_and_the_modifiers(ow_nojit):
    """§2.1, §5.2, §5.3 (ow_legend_shoot_mod, ow_pistol_long_dice, ow_blaze_bonus,
    ow_serious_no_penalty, ow_move_fire_no_penalty, ow_aim_bonus)."""
    tb = Arena().tb
    close = 1
    assert [S.shooting_dice(tb, PISTOL, close, c, 0, 0, 0, 0, 0) for c in range(4)] == [2, 3, 4, 5]
    assert S.shooting_dice(tb, PISTOL, 3, L.GUNMAN, 0, 0, 0, 0, 0) == 1  # long: 1 die
    assert S.shooting_dice(tb, PISTOL, close, L.GUNMAN, 1, 0, 0, 0, 0) == 4  # aimed +1
    assert S.shooting_dice(tb, PISTOL, close, L.GUNMAN, 0, 1, 0, 0, 0) == 5  # blazing +2
    assert S.shooting_dice(tb, PISTOL, close, L.GUNMAN, 0, 0, 0, 1, 0) == 2  # Move & Fire -1
    assert S.shooting_dice(tb, PISTOL, close, L.GUNMAN, 0, 0, 0, 0, 1) == 2  # a serious wound -1


def test_a_zombie_gunslinger_shoots_as_a_gunman(ow_nojit):
    """§11 (ow_gunslinger_own_class)."""
    a = Arena()
    z = a.put(a.zombie(0), 10.0, 10.0)
    a.st.fi[0, z, L.FI_CLASS] = L.LEGEND
    assert S.shooter_class(a.st, 0, z) == L.GUNMAN


# ------------------------------------------------------------------ §3.2 action cards


def test_action_cards_are_claimed_and_spent_up_to_the_characters_class(ow_nojit):
    """§3.2: a character claims face-up cards of his class or lower and spends one of at most his
    class (ow_claim_higher_class, ow_spend_any_card)."""
    everything = 0b1111
    assert K.claimable(everything, L.GUNMAN) == 0b0011
    assert K.claimable(everything, L.CITIZEN) == 0b0001
    assert K.card_for(1 << L.SHOOTIST, L.GUNMAN) == -1
    assert K.card_for(1 << L.GUNMAN, L.LEGEND) == L.GUNMAN


# ------------------------------------------------------------------ §4 movement and actions


def test_movement_dice_wounds_and_terrain(ow_nojit):
    """§4: -1 die per serious and leg wound, 1D6 in a building, -2 starting in woods, -1 in scrub,
    none with "no move/turn" (ow_wounds_no_slow, ow_building_dice, ow_dense_minus, ow_no_move_ignored,
    ow_move_dice)."""
    a = Arena()
    h = a.put(GUNMAN, 18.0, 5.0)
    assert Hm.base_move_dice(a.st, 0, a.tb, h) == 3
    assert Hm.move_dice(a.st, 0, a.tb, h, 3) == 3
    a.st.fi[0, h, L.FI_SERIOUS], a.st.fi[0, h, L.FI_LEGS] = 1, 1
    assert Hm.move_dice(a.st, 0, a.tb, h, 3) == 1
    a.st.fi[0, h, L.FI_SERIOUS], a.st.fi[0, h, L.FI_LEGS] = 0, 0
    for kind, dice in ((L.TERRAIN_BUILDING, 1), (L.TERRAIN_DENSE, 1), (L.TERRAIN_LOOSE, 2)):
        a.put(h, *spot_of(a, kind))
        assert Hm.move_dice(a.st, 0, a.tb, h, 3) == dice, kind
    a.put(h, 18.0, 5.0)
    a.st.fi[0, h, L.FI_NO_MOVE] = 1
    assert Hm.move_dice(a.st, 0, a.tb, h, 3) == 0


def test_a_figure_entering_woods_stops_inside(ow_nojit):
    """§4: entering scrub or woods stops a figure once its whole base is in (ow_woods_no_stop)."""
    a = Arena()
    t = next(t for t in a.tb.terrain if int(t[L.T_KIND]) == L.TERRAIN_DENSE)
    y = 0.5 * (t[L.T_Y0] + t[L.T_Y1])
    x = t[L.T_X0] - 3.0  # 3" west of the woods, walking east
    assert Hm.terrain_limit(a.tb, x, y, 1.0, 0.0, 20.0) == pytest.approx(3.0 + a.tb.prm[L.P_BASE_R])


def test_a_citizen_moves_the_whole_roll_whatever_the_limit(ow_dice):
    """§4: a Citizen must move the full 2D6 (ow_citizen_part_move)."""
    a = Arena(config(town="open"))
    a.put(CITIZEN, 10.0, 18.0, 0.0)
    ow_dice.script(3, 4)
    Hm.move_along(a.st, 0, a.tb, a.rng, CITIZEN, 1.0, 0.0, 2.0, L.A_MOVE)
    ow_dice.done()
    assert a.pos(CITIZEN) == pytest.approx((17.0, 18.0))


def test_reposition_moves_two_inches_away(ow_nojit):
    """§4 Reposition: up to 2" (ow_reposition_far)."""
    a = Arena(config(town="open"))
    a.put(GUNMAN, 18.0, 18.0, 0.0)
    a.put(a.zombie(0), 19.0, 18.0)
    Hm.reposition_away(a.st, 0, a.tb, GUNMAN)
    assert a.pos(GUNMAN) == pytest.approx((16.0, 18.0))


def test_the_aim_is_lost_when_the_target_moves(ow_nojit):
    """§4 Aim (ow_aim_survives_move)."""
    a = Arena(config(town="open"))
    a.put(GUNMAN, 10.0, 10.0, 0.0)
    z = a.put(a.zombie(0), 15.0, 10.0)
    a.st.fi[0, GUNMAN, L.FI_AIM] = z
    a.st.ff[0, GUNMAN, L.FF_AIM_X], a.st.ff[0, GUNMAN, L.FF_AIM_Y] = 15.0, 10.0
    assert Hm.aim_valid(a.st, 0, GUNMAN, z)
    a.put(z, 14.0, 10.0)
    assert not Hm.aim_valid(a.st, 0, GUNMAN, z)


@pytest.mark.parametrize("roll,state", [(3, L.GUN_JAMMED), (6, L.GUN_READY)])
def test_fix_gun_three_stays_jammed(ow_dice, roll, state):
    """§4 Fix gun: 3-4 still jammed, 5-6 cleared (ow_fix_break_high)."""
    a = Arena()
    a.put(GUNMAN, 18.0, 18.0)
    a.st.fi[0, GUNMAN, L.FI_AMMO0] = L.GUN_JAMMED
    ow_dice.script(roll)
    Hm.fix_gun(a.st, 0, a.tb, a.rng, GUNMAN, 0)
    ow_dice.done()
    assert a.fi(GUNMAN, L.FI_AMMO0) == state


def test_recover_clears_the_duck_back(ow_nojit):
    """§4 Recover clears the duck-back state and a ducked-back man cannot be shot
    (ow_recover_keeps_duck, ow_ducked_visible)."""
    a = Arena()
    a.put(GUNMAN, 18.0, 18.0)
    a.st.fi[0, GUNMAN, L.FI_DUCKED] = 1
    assert not S.visible_target(a.st, 0, a.tb, GUNMAN)
    Hm.act(a.st, 0, a.tb, a.rng, GUNMAN, False)
    assert a.fi(GUNMAN, L.FI_DUCKED) == 0 and S.visible_target(a.st, 0, a.tb, GUNMAN)


# ------------------------------------------------------------------ §5 shooting


def test_only_sixes_hit(ow_dice):
    """§5.1 step 3 (ow_hit_on_five)."""
    ow_dice.script(5, 6, 1)
    assert S.roll_shooting(None, 0, 3, 6) == (1, 1)
    ow_dice.done()


def test_cover_costs_the_shooter_a_die(ow_dice):
    """§5.3: a target in cover, -1 die (ow_cover_ignored)."""
    a = Arena()
    x, y = spot_of(a, L.TERRAIN_BUILDING)
    z = a.put(a.zombie(0), x, y)
    a.put(GUNMAN, x - 5.0, y, 0.0)  # gap 4: close, pistol 3 dice - 1
    ow_dice.script(2, 3)
    S.fire(a.st, 0, a.tb, a.rng, GUNMAN, z, 0, 0, 0, 0)
    ow_dice.done()


def test_a_useless_arm_stops_a_rifle_but_not_a_pistol(ow_nojit):
    """§5.3, §5.6 arm useless (ow_useless_arm_ignored)."""
    a = Arena()
    a.put(GUNMAN, 18.0, 18.0)
    a.st.fi[0, GUNMAN, L.FI_ARMS] = 1
    assert S.arms_allow(a.st, 0, a.tb, GUNMAN, PISTOL) and not S.arms_allow(a.st, 0, a.tb, GUNMAN, RIFLE)
    a.st.fi[0, GUNMAN, L.FI_ARMS] = 2
    assert not S.arms_allow(a.st, 0, a.tb, GUNMAN, PISTOL)


def test_share_radii(ow_nojit):
    """§5.4: Shootist 3", Legend 4", anyone else none (ow_shootist_share_4, ow_gunman_shares)."""
    tb = Arena().tb
    assert S.share_radius(tb, L.SHOOTIST) == 3.0 and S.share_radius(tb, L.LEGEND) == 4.0
    assert S.share_radius(tb, L.GUNMAN) < 0 and S.share_radius(tb, L.CITIZEN) < 0


@pytest.mark.parametrize("gap,splash_dice", [(0.5, 3), (1.5, 0)])
def test_the_musketoon_splash_rolls_pistol_dice_within_an_inch(ow_dice, gap, splash_dice):
    """§5.5, W24: one pistol roll at the same band, no class modifier, within 1" only
    (ow_splash_radius, ow_splash_class_mod)."""
    a = Arena(config(players=(Character("Musk", "legend", ("musketoon",), "knife"),), town="open"))
    a.put(0, 20.0, 2.0, 0.0)
    z = a.put(a.zombie(0), 22.0, 2.0, math.pi)  # point blank: 3 + 2 dice per roll
    a.put(a.zombie(1), 23.0 + gap, 2.0)
    ow_dice.script(*([2] * (20 + splash_dice)))  # four rolls of 5 dice and the splash: all misses
    S.fire(a.st, 0, a.tb, a.rng, 0, z, 0, 0, 0, 0)
    ow_dice.done()


@pytest.mark.parametrize("bits,col", [(L.R_FLESH | L.R_LEG, L.FI_LEGS), (L.R_FLESH | L.R_NO_MOVE, L.FI_NO_MOVE)])
def test_leg_and_no_move_wounds_are_kept(ow_nojit, bits, col):
    """§5.6 (ow_leg_wound_ignored, ow_no_move_flag)."""
    a = Arena()
    a.put(GUNMAN, 18.0, 5.0)
    S.apply_wound(a.st, 0, a.tb, GUNMAN, bits)
    assert a.fi(GUNMAN, col) == 1


def test_a_graze_in_cover_ducks_him_back(ow_nojit):
    """§5.6 Graze (ow_cover_no_duck)."""
    a = Arena()
    a.put(GUNMAN, *spot_of(a, L.TERRAIN_BUILDING))
    S.apply_wound(a.st, 0, a.tb, GUNMAN, L.R_GRAZE)
    assert a.fi(GUNMAN, L.FI_DUCKED) == 1


# ------------------------------------------------------------------ §6 zombies


def test_half_the_group_down_recovers_and_a_three_stays_down(ow_dice):
    """§6.3, W14 (ow_recover_fraction, ow_recover_on_3)."""
    tb = Arena().tb
    assert Z.chooses_recover(tb, 4, 2) and not Z.chooses_recover(tb, 5, 2)
    a = Arena()
    z = a.put(a.zombie(0), 10.0, 10.0, 0.0, L.S_DOWN)
    ow_dice.script(3)
    Z.recover_action(a.st, 0, a.tb, a.rng, 0)
    ow_dice.done()
    assert a.fi(z, L.FI_STATE) == L.S_DOWN


def test_only_the_activated_groups_zombies_attack(ow_dice):
    """§6.1, W15: a zombie of another group in contact does not attack (ow_all_contact_attack)."""
    a = Arena(config(town="open"))
    a.put(GUNMAN, 18.0, 18.0)
    a.put(a.zombie(0, group=1), 19.0, 18.0, math.pi)
    ow_dice.script(3)  # group 0's movement die; group 0 has nobody on the table
    Z.move_and_attack(a.st, 0, a.tb, a.rng, 0)
    ow_dice.done()


def test_a_feeding_zombie_leaves_only_on_four(ow_dice):
    """§6.5 (ow_feed_leave_on_2)."""
    a = Arena()
    z = a.put(a.zombie(0), 10.0, 10.0)
    a.st.fi[0, z, L.FI_FEED] = 0
    ow_dice.script(3)
    Z.leave_feeding(a.st, 0, a.tb, a.rng, z)
    ow_dice.done()
    assert a.fi(z, L.FI_FEED) == 0


def test_a_zombie_nearer_another_creature_does_not_join_the_feeding(ow_nojit):
    """§6.5 "not closer to another living creature", and the 3" radius (ow_feed_closer_other,
    ow_feed_radius)."""
    a = Arena(config(town="open"))
    a.put(GUNMAN, 10.0, 14.5)  # 0.5" from the zombie below, which is 2" from the marker
    z = a.put(a.zombie(0), 10.0, 13.0)
    far = a.put(a.zombie(1), 10.0, 5.0)  # gap 4 from the marker
    a.st.mk[0, LEGEND, L.MK_X], a.st.mk[0, LEGEND, L.MK_Y], a.st.mk[0, LEGEND, L.MK_ON] = 10.0, 10.0, 1.0
    M.feeding_frenzy(a.st, 0, a.tb, LEGEND)
    assert a.fi(z, L.FI_FEED) == -1 and a.fi(far, L.FI_FEED) == -1 and a.pos(z) == (10.0, 13.0)


def test_a_risen_characters_group_of_one_is_never_returned(ow_nojit):
    """§6.6 (ow_rise_returns_singles)."""
    a = Arena(config(zombie_plague=True))
    a.put(GUNMAN, 18.0, 18.0)
    a.st.fi[0, GUNMAN, L.FI_KIND] = L.K_ZOMBIE
    a.st.fi[0, GUNMAN, L.FI_GROUP] = int(a.tb.prm[L.P_N_GROUPS]) + GUNMAN
    a.st.fi[0, GUNMAN, L.FI_STATE], a.st.fi[0, GUNMAN, L.FI_FATE] = L.S_GONE, L.FATE_DESTROYED
    Z.return_destroyed(a.st, 0, a.tb, int(a.tb.prm[L.P_N_GROUPS]) + GUNMAN)
    assert a.fi(GUNMAN, L.FI_STATE) == L.S_GONE


# ------------------------------------------------------------------ §7 melee


def test_melee_values_and_modifiers(ow_nojit):
    """§7.1, §7.2 (ow_zombie_attack_3, ow_limited_dice_3, ow_ground_bonus, ow_bite_penalty,
    ow_side_penalty, ow_behind_attack, ow_melee_shootist)."""
    tb = Arena().tb
    assert tb.prm[L.P_Z_ATTACK] == 4 and tb.prm[L.P_LIM_DICE] == 2 and tb.prm[L.P_EFF_DICE] == 3
    assert M.attack_dice(tb, 4, 0, 0, 1, 0) == 7  # opponent on the ground +3
    assert M.attack_dice(tb, 4, 0, 0, 0, 1) == 6  # from behind +2
    assert M.attack_dice(tb, 3, 0, 2, 0, 0) == 1  # two bites -2
    assert M.defend_dice(tb, 3, 0, 0, 0, 1) == 1 and M.defend_dice(tb, 3, 0, 0, 0, 2) == 1  # side, rear -2
    assert [int(tb.cls[c, L.CL_MELEE_MOD]) for c in range(4)] == [-1, 0, 1, 2]


def test_a_push_back_comes_after_a_devouring_hit(ow_dice):
    """§7.4: the push-back is applied after all other hits, so a man pushed (1) then devoured (6) is
    devoured where he stood (ow_push_first)."""
    a = Arena(config(town="open"))
    h = a.put(GUNMAN, 18.0, 18.0, 0.0)
    z = a.put(a.zombie(0), 19.0, 18.0, math.pi)
    ow_dice.script(6, 6, 1, 1, 1, 1, 1, 6)  # zombie 4 dice: two sixes; Gunman 2: none; hits 1 (push), 6 (devour)
    M.zombie_attacks(a.st, 0, a.tb, a.rng, z, h)
    ow_dice.done()
    assert a.fi(h, L.FI_FATE) == L.FATE_DEVOURED
    assert tuple(a.st.mk[0, h, :2]) == (18.0, 18.0)


def test_the_hit_tables(ow_nojit):
    """§7.4 basic and plague, §7.5 Effective and Limited (ow_basic_table_bite, ow_plague_table,
    ow_effective_table, ow_limited_table)."""
    tb = Arena().tb
    assert list(tb.zombie_hits[0]) == [L.ZH_PUSH, L.ZH_DOWN, L.ZH_DOWN, L.ZH_BITE, L.ZH_BITE, L.ZH_DEVOUR]
    assert list(tb.zombie_hits[1]) == [L.ZH_PUSH, L.ZH_PUSH, L.ZH_DOWN, L.ZH_BITE, L.ZH_PLAGUE, L.ZH_DEVOUR]
    hh = tb.human_hits
    assert list(hh[L.MELEE_EFFECTIVE]) == [L.HZ_PUSH] * 2 + [L.HZ_DOWN] * 2 + [L.HZ_DESTROY] * 2
    assert list(hh[L.MELEE_LIMITED]) == [L.HZ_PUSH] * 4 + [L.HZ_DOWN] * 2


# ------------------------------------------------------------------ §8 bites, §5.6 knocked out, §10


def test_two_bites_two_tests_a_five_does_not_lapse(ow_dice):
    """§8: a test per bite carried, 6 to lapse (ow_bite_tests_once, ow_bite_lapse_5)."""
    a = Arena()
    a.put(GUNMAN, 18.0, 18.0)
    a.st.fi[0, GUNMAN, L.FI_BITES] = 2
    ow_dice.script(5, 6)
    assert B.bite_tests(a.st, 0, a.tb, a.rng, GUNMAN)
    ow_dice.done()


def test_the_plague_test_and_waking(ow_nojit):
    """§8, W20: either die a 6; unconscious, 6 wakes (ow_plague_both_dice, ow_plague_wake)."""
    tb = Arena(config(zombie_plague=True)).tb
    assert B.plague_lapses(tb, 6, 1) and B.plague_lapses(tb, 2, 6) and not B.plague_lapses(tb, 5, 5)
    assert B.unconscious_outcome(tb, 6, True, True) == 2 and B.unconscious_outcome(tb, 1, True, True) == 3


def test_a_bite_is_carried(ow_dice):
    """§8 (ow_bite_no_count)."""
    a = Arena()
    a.put(GUNMAN, 18.0, 18.0)
    ow_dice.script(2, 1)  # chest, graze
    M.bite(a.st, 0, a.tb, a.rng, GUNMAN, a.zombie(0))
    ow_dice.done()
    assert a.fi(GUNMAN, L.FI_BITES) == 1


def test_a_spooked_horse_keeps_its_rider_on_four(ow_dice):
    """§10: thrown on 5-6 only (ow_spook_on_4)."""
    a = Arena(config(town="open", players=(Character("Rider", "gunman", ("pistol",), "fists", True),)))
    a.put(0, 18.0, 18.0)
    a.st.fi[0, 0, L.FI_HORSE] = L.HORSE_RIDDEN
    a.put(a.zombie(0), 21.0, 18.0)
    ow_dice.script(4)
    assert not B.spook_test(a.st, 0, a.tb, a.rng, 0)
    ow_dice.done()
