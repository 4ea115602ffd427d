"""Hand-fed dice for the rules of Zombies Out West (the kernels as plain Python, ``ow_dice``).

Each test sets a small table up by hand (outwest_helpers.Arena), scripts the dice the rule sees
and asserts its outcome; ``dice.done()`` checks that no scripted die was left over (a rule that
rolls too few dice fails, one that rolls too many raises).
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
import kernels.outwest.turn as T
import kernels.outwest.zombies as Z
from kernels.outwest import layout as L
from sim.rulesets.outwest.config import Character

GUNMAN, LEGEND, CITIZEN, SHOOTIST = 2, 0, 4, 1  # slots of the default posse
ow_dice, ow_nojit = H.ow_dice, H.ow_nojit  # the fixtures


def far_human(a: Arena, h: int = 0) -> int:
    return a.put(h, 35.0, 35.0)


# ------------------------------------------------------------------ zombie movement (§6.2)


def test_the_six_rule_as_a_pure_rule(ow_nojit):
    assert Z.six_rule(3, 6) == (3.0, False)
    assert Z.six_rule(6, 4) == (10.0, False)
    assert Z.six_rule(6, 6) == (6.0, True)


@pytest.mark.parametrize("roll,own,inches,falls", [(4, None, 4.0, False), (6, 3, 9.0, False), (6, 6, 6.0, True),
                                                    (6, 1, 7.0, False)])
def test_a_zombie_moves_straight_at_the_nearest_creature(ow_dice, roll, own, inches, falls):
    a = Arena(config(town="open"))
    a.put(GUNMAN, 30.0, 10.0)
    a.put(LEGEND, 10.0, 32.0)  # further away
    z = a.put(a.zombie(0), 10.0, 10.0, math.pi)
    if own is not None:
        ow_dice.script(own)
    Z.shamble(a.st, 0, a.tb, a.rng, z, roll)
    ow_dice.done()
    assert a.pos(z) == pytest.approx((10.0 + inches, 10.0))
    assert a.fi(z, L.FI_STATE) == (L.S_DOWN if falls else L.S_STANDING)
    assert a.st.ff[0, z, L.FF_FACING] == pytest.approx(0.0)


def test_a_zombie_stops_on_contact_and_does_not_roll_on(ow_dice):
    a = Arena(config(town="open"))
    a.put(GUNMAN, 16.0, 10.0)  # gap 5
    z = a.put(a.zombie(0), 10.0, 10.0)
    Z.shamble(a.st, 0, a.tb, a.rng, z, 6)  # no own roll: it touches the Gunman within its first 6"
    ow_dice.done()
    assert a.pos(z) == pytest.approx((15.0, 10.0))


def test_knocked_down_and_feeding_zombies_do_not_move(ow_dice):
    a = Arena(config(town="open"))
    a.put(GUNMAN, 30.0, 10.0)
    z0 = a.put(a.zombie(0), 10.0, 10.0, 0.0, L.S_DOWN)
    z1 = a.put(a.zombie(1), 10.0, 14.0)
    z2 = a.put(a.zombie(2), 10.0, 18.0)
    a.st.fi[0, z2, L.FI_FEED] = 3
    a.st.mk[0, 3] = (10.0, 19.0, 1.0)
    ow_dice.script(5, 3)  # the group's roll; the feeding zombie's 3 keeps it at the marker
    Z.move_and_attack(a.st, 0, a.tb, a.rng, 0)
    ow_dice.done()
    assert a.pos(z0) == (10.0, 10.0) and a.pos(z2) == (10.0, 18.0)
    assert a.pos(z1) != (10.0, 14.0)
    assert a.fi(z2, L.FI_FEED) == 3


def test_half_the_group_down_takes_recover_and_gets_up_on_four(ow_dice):
    a = Arena(config(town="open"))
    a.put(GUNMAN, 30.0, 10.0)
    zs = [a.put(a.zombie(k), 10.0, 4.0 * k + 2, 0.0, L.S_DOWN if k < 2 else L.S_STANDING) for k in range(4)]
    ow_dice.script(4, 3)  # W14: two of four down -> Recover / get up: 4 gets up, 3 stays down
    Z.zombie_action(a.st, 0, a.tb, a.rng, 0)
    ow_dice.done()
    assert [a.fi(z, L.FI_STATE) for z in zs] == [L.S_STANDING, L.S_DOWN, L.S_STANDING, L.S_STANDING]
    assert a.pos(zs[2]) == (10.0, 10.0)  # nobody moved


# ------------------------------------------------------------------ zombies attack (§7.3, §7.4)


def contact(a: Arena, h: int = GUNMAN, arc: str = "front"):
    a.put(h, 18.0, 18.0, 0.0)
    dx, dy = {"front": (1.0, 0.0), "side": (0.0, 1.0), "rear": (-1.0, 0.0)}[arc]
    z = a.put(a.zombie(0), 18.0 + dx, 18.0 + dy, math.atan2(-dy, -dx))
    return h, z


def test_more_defender_sixes_knock_the_zombie_over(ow_dice):
    a = Arena()
    h, z = contact(a)
    ow_dice.script(1, 2, 3, 4, 6, 5)  # zombie 4 dice: no six; Gunman 2 dice: one six
    M.zombie_attacks(a.st, 0, a.tb, a.rng, z, h)
    ow_dice.done()
    assert a.fi(z, L.FI_STATE) == L.S_DOWN and a.fi(h, L.FI_STATE) == L.S_STANDING


def test_equal_sixes_do_nothing(ow_dice):
    a = Arena()
    h, z = contact(a)
    ow_dice.script(6, 1, 1, 1, 6, 1)
    M.zombie_attacks(a.st, 0, a.tb, a.rng, z, h)
    ow_dice.done()
    assert a.fi(z, L.FI_STATE) == L.S_STANDING and a.fi(h, L.FI_STATE) == L.S_STANDING and a.pos(h) == (18.0, 18.0)


def test_push_back_comes_after_the_other_hits(ow_dice):
    a = Arena()
    h, z = contact(a)
    ow_dice.script(6, 6, 6, 1, 6, 2, 1, 2)  # 3 sixes v 1: two hits, a push (1) then a knock-down (2)
    M.zombie_attacks(a.st, 0, a.tb, a.rng, z, h)
    ow_dice.done()
    assert a.fi(h, L.FI_STATE) == L.S_DOWN and a.fi(h, L.FI_RECOVER) == 1  # §9: Recover, then Get up
    assert a.pos(h) == pytest.approx((16.0, 18.0))  # pushed 2" straight away from the zombie
    assert a.pos(z) == (19.0, 18.0)  # the zombie does not follow


def test_attacked_from_behind_the_defender_loses_two_dice_and_the_zombie_gains_two(ow_dice):
    front, a = Arena(), Arena()
    hf, zf = contact(front)
    h, z = contact(a, arc="rear")
    assert M.zombie_attack_value(a.st, 0, a.tb, z, h) == M.zombie_attack_value(front.st, 0, front.tb, zf, hf) + 2
    assert M.human_defence(a.st, 0, a.tb, h, z) == M.human_defence(front.st, 0, front.tb, hf, zf) - 2 == 0
    ow_dice.script(1, 1, 1, 1, 1, 6,  # six attack dice, the sixth a six; no defend dice: one hit
                   2)  # the hit: knocked down
    M.zombie_attacks(a.st, 0, a.tb, a.rng, z, h)
    ow_dice.done()
    assert a.fi(h, L.FI_STATE) == L.S_DOWN and a.fi(z, L.FI_STATE) == L.S_STANDING


def test_devoured_marks_the_spot_and_starts_a_feeding_frenzy(ow_dice):
    a = Arena(config(town="open"))
    h, z = contact(a)
    near = a.put(a.zombie(0, group=1), 18.0, 21.0)  # gap 2 from the victim
    far = a.put(a.zombie(1, group=1), 18.0, 23.5)  # gap 4.5: too far
    busy = a.put(a.zombie(2, group=1), 15.0, 18.0)  # gap 2, but touching the Legend
    a.put(LEGEND, 14.0, 18.0)
    ow_dice.script(6, 1, 1, 1, 1, 1, 6)  # one hit: torn apart and devoured
    M.zombie_attacks(a.st, 0, a.tb, a.rng, z, h)
    ow_dice.done()
    assert a.fi(h, L.FI_STATE) == L.S_GONE and a.fi(h, L.FI_FATE) == L.FATE_DEVOURED
    assert tuple(a.st.mk[0, h]) == (18.0, 18.0, 1.0)
    assert a.fi(near, L.FI_FEED) == h and a.fi(z, L.FI_FEED) == h
    assert a.pos(near) == pytest.approx((18.0, 19.0))  # moved into contact with the marker
    assert a.fi(far, L.FI_FEED) == -1 and a.fi(busy, L.FI_FEED) == -1
    ow_dice.script(3, 4)
    Z.leave_feeding(a.st, 0, a.tb, a.rng, near)
    Z.leave_feeding(a.st, 0, a.tb, a.rng, z)
    ow_dice.done()
    assert a.fi(near, L.FI_FEED) == h and a.fi(z, L.FI_FEED) == -1
    M.clear_markers(a.st, 0)
    assert a.st.mk[0, h, L.MK_ON] == 1.0  # one zombie still feeds
    a.st.fi[0, near, L.FI_FEED] = -1
    M.clear_markers(a.st, 0)
    assert a.st.mk[0, h, L.MK_ON] == 0.0


@pytest.mark.parametrize("can_kill,fate,serious", [(True, L.FATE_DEAD, 0), (False, L.FATE_IN_PLAY, 1)])
def test_a_bite_is_rolled_on_the_location_table(ow_dice, can_kill, fate, serious):
    a = Arena(config(bite_can_kill=can_kill))
    h, z = contact(a)
    ow_dice.script(6, 1, 1, 1, 1, 1, 4, 1, 5)  # a hit, 4: bitten; location 1 (head), effect 5: dead (W21)
    M.zombie_attacks(a.st, 0, a.tb, a.rng, z, h)
    ow_dice.done()
    assert a.fi(h, L.FI_BITES) == 1 and a.st.gs[0, L.GS_BITTEN] == 1
    assert a.fi(h, L.FI_FATE) == fate and a.fi(h, L.FI_SERIOUS) == serious


@pytest.mark.parametrize("h,gunslingers,slinger", [(GUNMAN, True, 1), (CITIZEN, True, 0), (GUNMAN, False, 0)])
def test_the_plague_five_kills_and_raises_the_victim(ow_dice, h, gunslingers, slinger):
    a = Arena(config(zombie_plague=True, zombie_gunslingers=gunslingers))
    h, z = contact(a, h)
    dice = (6, 1, 1, 1, 1) if h == CITIZEN else (6, 1, 1, 1, 1, 1)  # a Citizen defends with one die
    ow_dice.script(*dice, 5)
    M.zombie_attacks(a.st, 0, a.tb, a.rng, z, h)
    ow_dice.done()
    assert a.fi(h, L.FI_KIND) == L.K_ZOMBIE and a.fi(h, L.FI_STATE) == L.S_STANDING
    assert a.fi(h, L.FI_GROUP) == len(a.config.groups) + h and a.st.pres[0, h, L.PR_RISEN] == 1
    assert a.fi(h, L.FI_GUNSLINGER) == slinger and a.st.gs[0, L.GS_RISEN] == 1
    assert a.violations() == 0


# ------------------------------------------------------------------ bites and waking (§8, §5.6)


def test_a_bite_test_six_lapses_for_the_rest_of_the_game(ow_dice):
    a = Arena()
    h = a.put(GUNMAN, 18.0, 18.0)
    a.st.fi[0, h, L.FI_BITES] = 2
    ow_dice.script(3, 6)
    assert B.activation_checks(a.st, 0, a.tb, a.rng, h) == (False, False)
    assert a.fi(h, L.FI_STATE) == L.S_OUT and a.fi(h, L.FI_LAPSED) == 1
    assert B.activation_checks(a.st, 0, a.tb, a.rng, h) == (False, False)  # basic game: no roll ever again
    ow_dice.done()


@pytest.mark.parametrize("roll,state,kind", [(6, L.S_STANDING, L.K_HUMAN), (1, L.S_STANDING, L.K_ZOMBIE),
                                             (3, L.S_OUT, L.K_HUMAN)])
def test_plague_unconscious_wakes_on_six_and_dies_on_one(ow_dice, roll, state, kind):
    a = Arena(config(zombie_plague=True))
    h = a.put(GUNMAN, 18.0, 18.0)
    a.st.fi[0, h, L.FI_BITES] = 1
    ow_dice.script(2, 6)  # 2 D6 for the bite, either a 6: lapses (W20)
    B.activation_checks(a.st, 0, a.tb, a.rng, h)
    ow_dice.script(roll)
    B.activation_checks(a.st, 0, a.tb, a.rng, h)
    ow_dice.done()
    assert a.fi(h, L.FI_STATE) == state and a.fi(h, L.FI_KIND) == kind


def test_plague_total_of_six_reading(ow_dice):
    a = Arena(config(zombie_plague=True, plague_test="total"))
    h = a.put(GUNMAN, 18.0, 18.0)
    a.st.fi[0, h, L.FI_BITES] = 2
    ow_dice.script(6, 5, 2, 4)  # 6+5 passes under "total"; 2+4 = 6 lapses
    assert B.activation_checks(a.st, 0, a.tb, a.rng, h)[0] is False
    ow_dice.done()
    assert a.fi(h, L.FI_STATE) == L.S_OUT


@pytest.mark.parametrize("roll,state", [(6, L.S_DOWN), (5, L.S_OUT)])
def test_knocked_out_comes_round_on_six_still_knocked_down(ow_dice, roll, state):
    a = Arena()
    h = a.put(GUNMAN, 18.0, 18.0, state=L.S_OUT)
    ow_dice.script(roll)
    assert B.activation_checks(a.st, 0, a.tb, a.rng, h) == (False, False)
    ow_dice.done()
    assert a.fi(h, L.FI_STATE) == state


def test_a_knocked_down_human_recovers_then_gets_up(ow_dice):
    a = Arena()
    h = a.put(GUNMAN, 18.0, 18.0, state=L.S_DOWN)
    a.st.fi[0, h, L.FI_RECOVER] = 1
    Hm.act(a.st, 0, a.tb, a.rng, h, False)
    assert a.fi(h, L.FI_STATE) == L.S_DOWN and a.fi(h, L.FI_RECOVER) == 0
    Hm.act(a.st, 0, a.tb, a.rng, h, False)
    assert a.fi(h, L.FI_STATE) == L.S_STANDING
    ow_dice.done()


def test_a_spooked_horse_throws_its_rider_on_five(ow_dice):
    a = Arena(config(players=(Character("Rider", "gunman", ("pistol",), "knife", True),)))
    h = a.put(0, 18.0, 18.0)
    a.put(a.zombie(0), 22.0, 18.0)  # gap 3: within 5"
    ow_dice.script(5)
    assert B.spook_test(a.st, 0, a.tb, a.rng, h)
    ow_dice.done()
    assert a.fi(h, L.FI_STATE) == L.S_DOWN and a.fi(h, L.FI_HORSE) == L.HORSE_NONE


# ------------------------------------------------------------------ humans fight (§7.5)


def test_a_knock_down_on_a_zombie_already_down_destroys_it(ow_dice):
    a = Arena()
    a.put(LEGEND, 18.0, 18.0, 0.0)
    z = a.put(a.zombie(0), 19.0, 18.0, math.pi)
    ow_dice.script(6, 6, 1, 1, 1, 1, 1, 1, 1, 3, 4)  # Legend 5 dice (3 + 2), zombie 4: two hits; 3 down, 4 down
    M.human_attacks(a.st, 0, a.tb, a.rng, LEGEND, z)
    ow_dice.done()
    assert a.fi(z, L.FI_FATE) == L.FATE_DESTROYED and a.st.pres[0, LEGEND, L.PR_DESTROYED] == 1


def test_a_limited_weapon_only_pushes_and_knocks_down(ow_dice):
    a = Arena()
    a.put(GUNMAN, 18.0, 18.0, 0.0)
    z = a.put(a.zombie(0), 19.0, 18.0, 0.0)  # facing away: the Gunman attacks from behind (+2, zombie -2)
    ow_dice.script(6, 6, 1, 1, 1, 1, 2, 6)  # 4 attack dice, 2 defend dice; hits: 2 push, 6 knocked down
    M.human_attacks(a.st, 0, a.tb, a.rng, GUNMAN, z)
    ow_dice.done()
    assert a.fi(z, L.FI_STATE) == L.S_DOWN and a.pos(z) == pytest.approx((21.0, 18.0))


# ------------------------------------------------------------------ shooting (§5)


def test_range_bands_and_the_shooting_dice(ow_nojit):
    a = Arena()
    tb = a.tb
    assert [S.band_of(tb, d) for d in (0.0, 2.0, 2.01, 6.0, 12.0, 18.0, 24.0, 24.5)] == [0, 0, 1, 1, 2, 3, 4, 5]
    pistol, rifle, shotgun, sawn, musketoon = 0, 1, 3, 4, 5  # rows of sim/data/outwest/weapons.toml
    assert S.shooting_dice(tb, pistol, 0, L.CITIZEN, 0, 0, 0, 0, 0) == 2
    assert S.shooting_dice(tb, pistol, 1, L.LEGEND, 1, 0, 1, 0, 0) == 5  # 3 + 2 + aim 1 - cover 1
    assert S.shooting_dice(tb, rifle, 3, L.CITIZEN, 0, 0, 1, 1, 2) == 1  # never below 1 in range
    assert not S.gun_reaches(tb, pistol, 4) and S.gun_reaches(tb, rifle, 4)
    assert S.gun_reaches(tb, sawn, 1) and not S.gun_reaches(tb, sawn, 2) and not S.gun_reaches(tb, musketoon, 2)
    assert S.gun_reaches(tb, shotgun, 3)
    assert S.ammo_after(tb, 2, 0) == L.GUN_EMPTY and S.ammo_after(tb, 3, 1) == L.GUN_JAMMED
    assert S.ammo_after(tb, 3, 0) == L.GUN_EMPTY and S.ammo_after(tb, 1, 1) == L.GUN_READY
    assert S.zombie_effect_mod(tb, pistol, 0, 1.0) == 2 and S.zombie_effect_mod(tb, shotgun, 0, 1.0) == 2
    assert S.zombie_effect_mod(tb, rifle, 1, 4.0) == 1 and S.zombie_effect_mod(tb, rifle, 0, 1.0) == 0
    assert [S.zombie_effect(tb, d, 0) for d in (4, 5, 6)] == [0, 1, 2]
    assert S.human_effect_mod(tb, shotgun, 3.0) == 1 and S.human_effect_mod(tb, shotgun, 7.0) == -1
    assert S.location_result(tb, 1, 5, 0) == L.R_DEAD
    assert S.location_result(tb, 2, 3, 0) == L.R_FLESH | L.R_DOWN
    assert S.location_result(tb, 6, 9, -1) == L.R_SERIOUS | L.R_OUT | L.R_NO_MOVE  # the die is clamped to 6


def shooter(a: Arena, h: int, gap: float, y: float = 2.0, target_state: int = L.S_STANDING):
    a.put(h, 20.0, y, 0.0)
    return a.put(a.zombie(0), 21.0 + gap, y, math.pi, target_state)


def test_a_citizen_who_destroys_a_zombie_becomes_a_gunman(ow_dice):
    a = Arena(config(players=(Character("Cit", "citizen", ("pistol",), "fists"),)))
    z = shooter(a, 0, 1.0)
    ow_dice.script(6, 2, 4)  # 2 dice (3 - 1): a hit; effect 4 + 2 at point blank: head shot
    S.fire(a.st, 0, a.tb, a.rng, 0, z, 0, 0, 0, 0)
    ow_dice.done()
    assert a.fi(z, L.FI_FATE) == L.FATE_DESTROYED and a.fi(0, L.FI_CLASS) == L.GUNMAN
    assert a.st.pres[0, 0, L.PR_DESTROYED] == 1 and a.st.pres[0, 0, L.PR_SHOTS] == 1


def test_two_ones_empty_a_pistol_three_jam_it_blazing(ow_dice):
    a = Arena()
    z = shooter(a, GUNMAN, 1.0)
    ow_dice.script(1, 1, 6, 2)  # a hit (effect 2 + 2: nothing); two 1s: out of ammunition
    S.fire(a.st, 0, a.tb, a.rng, GUNMAN, z, 0, 0, 0, 0)
    assert a.fi(GUNMAN, L.FI_AMMO0) == L.GUN_EMPTY and a.fi(z, L.FI_STATE) == L.S_STANDING
    ow_dice.script(1, 1, 1)  # the rifle, blazing at point blank: 1 + 2 dice; three 1s jam it
    S.fire(a.st, 0, a.tb, a.rng, GUNMAN, z, 1, 0, 1, 0)
    ow_dice.done()
    assert a.fi(GUNMAN, L.FI_AMMO1) == L.GUN_JAMMED


def test_a_shotgun_is_empty_after_every_fire_and_stops_when_its_target_falls(ow_dice):
    a = Arena()
    z = shooter(a, CITIZEN, 0.0)
    ow_dice.script(6, 3, 4)  # first roll: 2 dice, a hit, 4 + 2: destroyed; no second roll (nothing else in range)
    S.fire(a.st, 0, a.tb, a.rng, CITIZEN, z, 0, 0, 0, 0)
    ow_dice.done()
    assert a.fi(z, L.FI_FATE) == L.FATE_DESTROYED and a.fi(CITIZEN, L.FI_AMMO0) == L.GUN_EMPTY


@pytest.mark.parametrize("h,second_destroyed", [(LEGEND, True), (GUNMAN, False)])
def test_a_legend_shares_hits_among_zombies_within_four_inches(ow_dice, h, second_destroyed):
    a = Arena()
    z = shooter(a, h, 4.0)
    other = a.put(a.zombie(1), 25.0 + 3.0, 2.0)  # gap 2 from the named zombie
    dice = (6, 6, 2, 3, 4) if h == LEGEND else (6, 6, 2)
    ow_dice.script(*dice, 6, *((6,) if h == LEGEND else ()))
    S.fire(a.st, 0, a.tb, a.rng, h, z, 0, 0, 0, 0)
    ow_dice.done()
    assert a.fi(z, L.FI_FATE) == L.FATE_DESTROYED
    assert (a.fi(other, L.FI_FATE) == L.FATE_DESTROYED) == second_destroyed


def test_the_musketoon_splashes_figures_within_an_inch(ow_dice):
    a = Arena(config(players=(Character("Musk", "gunman", ("musketoon",), "knife"),), musketoon_splash="hit"))
    z = shooter(a, 0, 1.0)
    by = a.put(a.zombie(1), 23.5, 2.0)  # gap 0.5 from the target
    ow_dice.script(*([2] * 12), 6)  # four rolls of 3 dice, all misses; the splash: one hit, 6 + 2
    S.fire(a.st, 0, a.tb, a.rng, 0, z, 0, 0, 0, 0)
    ow_dice.done()
    assert a.fi(z, L.FI_STATE) == L.S_STANDING and a.fi(by, L.FI_FATE) == L.FATE_DESTROYED
    assert a.fi(0, L.FI_AMMO0) == L.GUN_EMPTY


def test_friendly_fire_hits_the_human_in_contact_on_each_one(ow_dice):
    a = Arena()
    z = shooter(a, GUNMAN, 4.0)
    friend = a.put(LEGEND, 25.0, 3.0)  # touching the target at (25, 2)
    ow_dice.script(1, 2, 3, 3, 1)  # no hit, one 1: the Legend is hit in the right arm (3), graze (1)
    S.fire(a.st, 0, a.tb, a.rng, GUNMAN, z, 0, 0, 0, 0)
    ow_dice.done()
    assert a.fi(friend, L.FI_STATE) == L.S_STANDING and a.fi(GUNMAN, L.FI_AMMO0) == L.GUN_READY


def test_a_gunslinger_shot_at_returns_fire(ow_dice):
    a = Arena(config(zombie_gunslingers=True, start_gunslingers=1))
    z = shooter(a, GUNMAN, 1.0)
    a.st.fi[0, z, L.FI_GUNSLINGER], a.st.fi[0, z, L.FI_GUN0] = 1, 0
    ow_dice.script(2, 3, 4, 6, 2, 2, 3, 2)  # Gunman: 3 dice, no hit; the gunslinger: 3, a hit: right arm, flesh
    S.fire(a.st, 0, a.tb, a.rng, GUNMAN, z, 0, 0, 0, 0)
    ow_dice.done()
    assert a.fi(GUNMAN, L.FI_FLESH) == 1 and a.fi(GUNMAN, L.FI_RECOVER) == 1


def test_a_gunslinger_shoots_on_a_group_roll_of_one(ow_dice):
    a = Arena(config(zombie_gunslingers=True, start_gunslingers=1, town="open"))
    a.put(GUNMAN, 20.0, 10.0)
    z = a.put(a.zombie(0), 10.0, 10.0)  # gap 9: the pistol's medium band, 2 dice
    a.st.fi[0, z, L.FI_GUNSLINGER], a.st.fi[0, z, L.FI_GUN0] = 1, 0
    ow_dice.script(2, 2)
    Z.shamble(a.st, 0, a.tb, a.rng, z, 1)
    ow_dice.done()
    assert a.pos(z) == (10.0, 10.0)


# ------------------------------------------------------------------ cards (§3)


def test_the_dead_shall_rise_returns_a_groups_destroyed_zombies(ow_dice):
    a = Arena(config(town="open"))
    a.put(GUNMAN, 18.0, 30.0)
    for k in range(5):
        a.put(a.zombie(k), 5.0 + 2 * k, 30.0)
    for k in (1, 3):
        a.st.fi[0, a.zombie(k), L.FI_STATE], a.st.fi[0, a.zombie(k), L.FI_FATE] = L.S_GONE, L.FATE_DESTROYED
    a.st.gs[0, L.GS_RISE] = 1
    a.st.gs[0, L.GS_EXTRA] = 1
    ow_dice.script(1, 1)  # two actions (the Extra card), a group roll of 1 each
    Z.group_card(a.st, 0, a.tb, a.rng, 0)
    ow_dice.done()
    assert a.st.gs[0, L.GS_RISE] == 0 and a.st.gs[0, L.GS_EXTRA] == 0 and a.st.gs[0, L.GS_RETURNED] == 2
    for k in (1, 3):
        assert a.fi(a.zombie(k), L.FI_STATE) == L.S_STANDING
        assert a.pos(a.zombie(k))[1] == pytest.approx(0.5 + 2.0, abs=0.01)  # south edge, then 1" north twice


def test_a_risen_characters_card_uses_the_waiting_card_but_returns_nobody(ow_dice):
    a = Arena(config(zombie_plague=True, town="open"))
    a.put(LEGEND, 30.0, 30.0)
    h = a.put(GUNMAN, 10.0, 10.0)
    a.st.fi[0, h, L.FI_KIND], a.st.fi[0, h, L.FI_GROUP] = L.K_ZOMBIE, len(a.config.groups) + h
    a.st.pres[0, h, L.PR_RISEN], a.st.gs[0, L.GS_RISEN] = 1, 1
    a.st.gs[0, L.GS_RISE] = 1
    ow_dice.script(2)
    T.resolve_card(a.st, 0, a.tb, a.rng, h)  # his own card is now a group of one's
    ow_dice.done()
    assert a.st.gs[0, L.GS_RISE] == 0 and a.st.gs[0, L.GS_RETURNED] == 0
    assert a.violations() == 0


def test_reshuffles_keep_held_and_waiting_cards_out(ow_nojit):
    a = Arena()
    st, tb = a.st, a.tb
    st.gs[0, L.GS_HELD] = 0b0101  # Citizen and Shootist action cards held
    st.gs[0, L.GS_EXTRA] = 1
    st.gs[0, L.GS_SHOWN] = 0b0010  # Gunman face up: back into the deck
    rng = a.rng
    K.reshuffle(st, 0, tb, rng)
    deck = sorted(st.deck[0, : st.gs[0, L.GS_DECK_N]].tolist())
    n = K.card_count(tb)
    out = {K.action_card(tb, 0), K.action_card(tb, 2), K.extra_card(tb)}
    assert deck == sorted(set(range(n)) - out) and st.gs[0, L.GS_SHOWN] == 0


def test_a_character_claims_every_face_up_card_of_his_class_or_lower(ow_nojit):
    assert K.claimable(0b1111, L.GUNMAN) == 0b0011
    assert K.claimable(0b1000 | 1 << K.WILD_BIT, L.CITIZEN) == 1 << K.WILD_BIT
    assert K.card_for(0b1100, L.SHOOTIST) == 2 and K.card_for(0b1000, L.SHOOTIST) == -1


def test_the_joker_ends_the_turn_or_is_wild(ow_nojit):
    a = Arena()
    assert T.resolve_card(a.st, 0, a.tb, a.rng, K.joker(a.tb))
    b = Arena(config(joker="wild"))
    assert not T.resolve_card(b.st, 0, b.tb, b.rng, K.joker(b.tb))
    assert b.st.gs[0, L.GS_SHOWN] == 1 << K.WILD_BIT


# ------------------------------------------------------------------ human actions (§4)


def test_a_citizen_moves_the_whole_roll_and_falls_on_a_one(ow_dice):
    a = Arena(config(town="open"))
    a.put(CITIZEN, 10.0, 18.0, 0.0)
    ow_dice.script(1, 4)
    Hm.move_along(a.st, 0, a.tb, a.rng, CITIZEN, 1.0, 0.0, 2.0, L.A_MOVE)
    ow_dice.done()
    assert a.pos(CITIZEN) == pytest.approx((15.0, 18.0)) and a.fi(CITIZEN, L.FI_STATE) == L.S_DOWN


@pytest.mark.parametrize("dice,falls", [((1, 2, 2), True), ((1, 2, 3), False)])
def test_others_fall_when_every_die_shows_one_or_two(ow_dice, dice, falls):
    a = Arena(config(town="open"))
    a.put(GUNMAN, 10.0, 18.0, 0.0)
    ow_dice.script(*dice)
    Hm.move_along(a.st, 0, a.tb, a.rng, GUNMAN, 1.0, 0.0, 3.0, L.A_MOVE)
    ow_dice.done()
    assert a.pos(GUNMAN) == pytest.approx((13.0, 18.0))  # up to the roll, no further than asked
    assert (a.fi(GUNMAN, L.FI_STATE) == L.S_DOWN) == falls


@pytest.mark.parametrize("roll,state", [(2, L.GUN_BROKEN), (4, L.GUN_JAMMED), (5, L.GUN_READY)])
def test_fix_gun(ow_dice, roll, state):
    a = Arena()
    a.put(GUNMAN, 18.0, 18.0)
    a.st.fi[0, GUNMAN, L.FI_AMMO0] = L.GUN_JAMMED
    ow_dice.script(roll)
    Hm.fix_gun(a.st, 0, a.tb, a.rng, GUNMAN, 0)
    ow_dice.done()
    assert a.fi(GUNMAN, L.FI_AMMO0) == state


def test_a_rescuer_carries_an_unconscious_comrade_at_half_distance(ow_dice):
    a = Arena(config(town="open"))
    a.put(GUNMAN, 10.0, 18.0, 0.0)
    c = a.put(CITIZEN, 9.0, 18.0, 0.0, L.S_OUT)
    ow_dice.script(3, 3, 4)  # 10" halved
    Hm.act(a.st, 0, a.tb, a.rng, GUNMAN, False)  # Hold the town: toward the centre (18, 18)
    ow_dice.done()
    assert a.pos(GUNMAN) == pytest.approx((15.0, 18.0)) and a.pos(c) == pytest.approx((14.0, 18.0))


def test_a_human_in_contact_with_a_limited_weapon_fires_at_point_blank(ow_dice):
    a = Arena()
    h, z = contact(a)
    ow_dice.script(2, 2, 2)  # pistol, 3 dice, misses
    Hm.act(a.st, 0, a.tb, a.rng, h, False)
    ow_dice.done()
    assert a.st.pres[0, h, L.PR_SHOTS] == 1


def test_in_contact_with_an_effective_weapon_the_legend_fights(ow_dice):
    a = Arena()
    h, z = contact(a, LEGEND)
    ow_dice.script(1, 1, 1, 1, 1, 1, 1, 1, 1)  # 5 attack dice, 4 defend dice
    Hm.act(a.st, 0, a.tb, a.rng, h, False)
    ow_dice.done()
    assert a.st.pres[0, h, L.PR_SHOTS] == 0


def test_a_rider_moves_on_the_horses_dice_and_tests_it_when_he_stops_near_a_zombie(ow_dice):
    a = Arena(config(players=(Character("Rider", "citizen", ("pistol",), "knife", True),), town="open"))
    a.put(0, 10.0, 18.0, 0.0)
    a.put(a.zombie(0), 24.0, 18.0)
    ow_dice.script(1, 2, 2, 3, 6)  # four horse dice (a rider never falls, a Citizen neither), then the spook test
    Hm.move_along(a.st, 0, a.tb, a.rng, 0, 1.0, 0.0, 8.0, L.A_MOVE)
    ow_dice.done()
    assert a.pos(0) == pytest.approx((18.0, 18.0)) and a.fi(0, L.FI_STATE) == L.S_DOWN
    assert a.fi(0, L.FI_HORSE) == L.HORSE_NONE


def test_zombies_in_contact_take_free_places_around_their_victim(ow_dice):
    """Bases do not overlap: a zombie reaching a human where another zombie stands goes round to
    the nearest free place; with six around him a seventh stays a base behind, out of contact."""
    a = Arena(config(town="open", groups=(6, 3)))
    a.put(GUNMAN, 18.0, 18.0)
    first = a.put(a.zombie(0), 19.0, 18.0)
    second = a.put(a.zombie(1), 24.0, 18.0)
    Z.shamble(a.st, 0, a.tb, a.rng, second, 5)
    assert a.pos(second) == pytest.approx((18.5, 18.0 + math.sqrt(3) / 2))
    for k in range(2, 6):
        a.put(a.zombie(k), 18.0 + math.cos(k * math.pi / 3 + 1e-3), 18.0 + math.sin(k * math.pi / 3 + 1e-3))
    seventh = a.put(a.zombie(0, group=1), 24.0, 18.0)
    Z.shamble(a.st, 0, a.tb, a.rng, seventh, 5)
    ow_dice.done()
    assert a.pos(seventh) == pytest.approx((20.0, 18.0)) and a.pos(first) == (19.0, 18.0)


@pytest.mark.parametrize("reading,attacked", [("helpless_first", LEGEND), ("weakest", CITIZEN)])
def test_a_zombie_touching_two_men_picks_its_victim(reading, attacked):
    """W16: a knocked-down Legend (more defend dice) and a standing Citizen (one die) both touch the
    zombie; by default the man on the ground is attacked, under 'weakest' the Citizen."""
    a = Arena(config(zombie_target=reading))
    a.put(LEGEND, 18.0, 18.0, state=L.S_DOWN)
    a.put(CITIZEN, 18.0, 20.0)
    z = a.put(a.zombie(0), 18.0, 19.0)
    legend_dice = M.human_defence(a.st, 0, a.tb, LEGEND, z)
    assert legend_dice > M.human_defence(a.st, 0, a.tb, CITIZEN, z)
    assert M.zombie_target(a.st, 0, a.tb, z) == attacked
