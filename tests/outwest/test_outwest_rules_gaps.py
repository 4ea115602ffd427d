"""Rules of Zombies Out West that the second pass of tests/mutants/outwest.py breaks (issue 27): each
test names its rule and the mutants it kills. Hand-fed dice (``ow_dice``) or the kernels as plain
Python (``ow_nojit``) on hand-built tables (outwest_helpers.Arena).
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import outwest_helpers as H
import pytest
from outwest_helpers import Arena, config

import kernels.outwest.bites as B
import kernels.outwest.deck as K
import kernels.outwest.figures as F
import kernels.outwest.humans as Hm
import kernels.outwest.melee as M
import kernels.outwest.shooting as S
import kernels.outwest.turn as T
import kernels.rng as R
from kernels.outwest import layout as L
from sim.rulesets.outwest.config import Character, Policy

ow_dice, ow_nojit = H.ow_dice, H.ow_nojit  # the fixtures
GUNMAN, LEGEND, CITIZEN = 2, 0, 4  # slots of the default posse
HOLD_TURNS = 10  # §12 / W30: "Posse wins at the end of turn 10"


def one_man(cls: str, gun: str, **params) -> Arena:
    return Arena(config(players=(Character("Man", cls, (gun,), "fists"),), town="open", **params))


# ------------------------------------------------------------------ §2.2 weapons, W23


@pytest.mark.parametrize("gun,rolls", [("shotgun", 2), ("sawn_off", 3)])
def test_a_shotgun_shoots_twice_and_a_sawn_off_three_times_per_fire(ow_dice, gun, rolls):
    """§2.2 / W23: complete shooting rolls per Fire action, 3 pistol dice each at point blank; all
    misses, so every roll is made (ow_shotgun_one_roll, ow_sawn_off_two_rolls)."""
    a = one_man("gunman", gun)
    a.put(0, 20.0, 2.0)
    z = a.put(a.zombie(0), 22.0, 2.0, math.pi)
    ow_dice.script(*([2] * (3 * rolls)))
    S.fire(a.st, 0, a.tb, a.rng, 0, z, 0, 0, 0, 0)
    ow_dice.done()
    assert a.fi(0, L.FI_AMMO0) == L.GUN_EMPTY


def test_only_pistols_and_rifles_blaze_away(ow_nojit):
    """§2.2 / §5.3: shotguns, sawn-offs and musketoons may not blaze away (ow_shotgun_blazes)."""
    from sim.rulesets.outwest.compile import weapon_rows

    names, _ = weapon_rows()
    tb = Arena().tb
    for gun, ok in (("pistol", True), ("rifle", True), ("shotgun", False), ("sawn_off", False), ("musketoon", False)):
        assert bool(S.blaze_ok(tb, names.index(gun))) == ok, gun


def test_the_effect_modifiers_on_a_man(ow_nojit):
    """§5.6: muzzle-loader +2, any shotgun at 3" or less +1, at more than 6" -1, nothing for a pistol
    (ow_muzzle_no_plus, ow_shotgun_far_no_minus)."""
    from sim.rulesets.outwest.compile import weapon_rows

    names, _ = weapon_rows()
    tb = Arena().tb
    mod = S.human_effect_mod
    assert mod(tb, names.index("musket"), 10.0) == 2
    assert [mod(tb, names.index("shotgun"), gap) for gap in (2.0, 5.0, 8.0)] == [1, 0, -1]
    assert mod(tb, names.index("pistol"), 2.0) == 0


# ------------------------------------------------------------------ §3 the Fate deck, W7, W8


def test_the_fate_deck_holds_every_card_of_section_3_1(ow_nojit):
    """§3.1: a card per character and per zombie group, four class action cards, the Joker, "Extra
    zombie action" and "And the dead shall rise"; a fresh deck holds them all once (ow_no_rise_card)."""
    a = Arena()
    st, tb = a.st, a.tb
    H_, G_ = a.config.n_humans, len(a.config.groups)
    assert K.card_count(tb) == H_ + G_ + 4 + 3
    K.reshuffle(st, 0, tb, a.rng)
    assert sorted(st.deck[0, : st.gs[0, L.GS_DECK_N]].tolist()) == list(range(H_ + G_ + 7))
    assert K.rise_card(tb) in st.deck[0, : st.gs[0, L.GS_DECK_N]].tolist()
    T.resolve_card(st, 0, tb, a.rng, K.rise_card(tb))
    assert st.gs[0, L.GS_RISE] == 1


def test_zombie_cards_never_claim_action_cards(ow_nojit):
    """W8 default: a zombie group card leaves the face-up action cards for the posse; the option lets
    it claim them for one more action each (ow_zombies_claim)."""
    a = Arena()
    a.st.gs[0, L.GS_SHOWN] = 0b0011
    assert T.zombies_claim(a.st, 0, a.tb, a.config.n_humans) == 0 and a.st.gs[0, L.GS_SHOWN] == 0b0011
    b = Arena(config(zombies_claim=True))
    b.st.gs[0, L.GS_SHOWN] = 0b0011
    assert T.zombies_claim(b.st, 0, b.tb, b.config.n_humans) == 2 and b.st.gs[0, L.GS_SHOWN] == 0


def _threatened_legend(timing: str) -> Arena:
    on_contact = replace(Policy(), spend_when=0, spend_on=0)  # P5 read explicitly: the threatened man
    a = Arena(config(players=(Character("Leg", "legend", ("pistol",), "sabre", False, on_contact),), town="open",
                     spend_timing=timing))
    a.put(0, 18.0, 18.0, 0.0)
    a.put(a.zombie(0), 19.0, 18.0, math.pi)  # touching him
    a.st.gs[0, L.GS_HELD] = 1 << L.LEGEND
    a.st.gs[0, L.GS_THREAT] = 1
    return a


@pytest.mark.parametrize("timing,after_character,spent", [("between_draws", False, True),
                                                          ("after_character", False, False),
                                                          ("after_character", True, True)])
def test_held_cards_are_spent_between_any_two_draws(ow_nojit, timing, after_character, spent):
    """W8 default: a held action card may be spent after any card (here a zombie card), not only right
    after a character card; a spent card leaves the hand (ow_spend_after_character_only,
    ow_spent_card_kept)."""
    a = _threatened_legend(timing)
    T.spend_cards(a.st, 0, a.tb, a.rng, after_character)
    assert (a.st.gs[0, L.GS_HELD] == 0) == spent


def test_a_free_action_makes_the_bite_tests_too(ow_dice):
    """W19: bite tests at each activation, a spent action card's included: a 6 puts him out and he
    takes no action (ow_spent_card_no_bite_test)."""
    a = _threatened_legend("between_draws")
    a.st.fi[0, 0, L.FI_BITES] = 1
    ow_dice.script(6)
    assert T.spend_one(a.st, 0, a.tb, a.rng, 0)
    ow_dice.done()
    assert a.fi(0, L.FI_STATE) == L.S_OUT and a.fi(0, L.FI_LAPSED) == 1 and a.st.gs[0, L.GS_HELD] == 0


# ------------------------------------------------------------------ §12 scenario and victory, W30


def _set_up(cfg, seed: int) -> Arena:
    a = Arena(cfg)
    T.reset_game(a.st, 0)
    a.rng[0] = R.stream_start(np.uint64(seed), np.uint64(0))
    T.setup_game(a.st, 0, a.tb, a.rng)
    return a


def test_hold_the_town_set_up(ow_nojit):
    """§12: the posse starts within 6" of the table centre; the four groups of 5 start one on each table
    edge; the graveyard is the middle of a random edge, each of the four drawn in 40 set-ups (a fixed
    rule drawing from fewer edges fails) (ow_posse_start_far, ow_groups_share_edges, ow_grave_two_edges)."""
    cfg = config()
    assert cfg.groups == (5, 5, 5, 5)
    graves = set()
    for seed in range(1, 41):
        a = _set_up(cfg, seed)
        for h in range(cfg.n_humans):
            x, y = a.pos(h)
            assert math.hypot(x - 18.0, y - 18.0) <= 6.0 + 1e-9
        graves.add(int(a.st.gs[0, L.GS_GRAVE]))
    assert sorted(int(e) for e in a.tb.groups[:, L.GR_EDGE]) == [0, 1, 2, 3]
    assert graves == {0, 1, 2, 3}


def _end_turn_at(a: Arena, turn: int) -> None:
    a.st.gs[0, L.GS_TURN] = turn
    T.end_turn(a.st, 0, a.tb, a.rng)


def test_the_posse_holds_the_town_at_the_end_of_turn_ten(ow_nojit):
    """§12 / W30: the posse wins at the end of turn 10, not before or after (ow_hold_nine_turns,
    ow_hold_one_turn_more)."""
    a = Arena()
    a.put(0, 18.0, 18.0)
    _end_turn_at(a, HOLD_TURNS - 1)
    assert a.st.gs[0, L.GS_OVER] == 0 and a.st.gs[0, L.GS_TURN] == HOLD_TURNS
    _end_turn_at(a, HOLD_TURNS)
    assert a.st.gs[0, L.GS_OVER] == 1 and a.st.gs[0, L.GS_WINNER] == L.WIN_POSSE


def test_the_zombies_win_when_only_unconscious_men_are_left(ow_nojit):
    """§12: "at least one human alive, conscious and not a zombie" (ow_unconscious_holds)."""
    a = Arena()
    a.put(0, 18.0, 18.0, 0.0, L.S_OUT)
    T.victory(a.st, 0, a.tb)
    assert a.st.gs[0, L.GS_OVER] == 1 and a.st.gs[0, L.GS_WINNER] == L.WIN_ZOMBIES


def test_escape_is_won_by_the_nth_man_off_the_table(ow_nojit):
    """§12 Escape: N humans off the edge win (ow_escape_one_more)."""
    a = Arena(config(scenario="escape"))
    a.put(0, 18.0, 18.0)
    a.st.gs[0, L.GS_ESCAPED] = a.config.escape_needed - 1
    T.victory(a.st, 0, a.tb)
    assert a.st.gs[0, L.GS_OVER] == 0
    a.st.gs[0, L.GS_ESCAPED] = a.config.escape_needed
    T.victory(a.st, 0, a.tb)
    assert a.st.gs[0, L.GS_OVER] == 1 and a.st.gs[0, L.GS_WINNER] == L.WIN_POSSE


def test_clean_up_needs_every_zombie_figure_gone(ow_nojit):
    """§12 Clean-up: a knocked-down zombie is still a zombie figure on the table (ow_cleanup_down_zombies)."""
    a = Arena(config(scenario="cleanup"))
    a.put(0, 18.0, 18.0)
    z = a.put(a.zombie(0), 5.0, 5.0, 0.0, L.S_DOWN)
    _end_turn_at(a, 2)
    assert a.st.gs[0, L.GS_OVER] == 0
    a.st.fi[0, z, L.FI_STATE], a.st.fi[0, z, L.FI_FATE] = L.S_GONE, L.FATE_DESTROYED
    _end_turn_at(a, 3)
    assert a.st.gs[0, L.GS_OVER] == 1 and a.st.gs[0, L.GS_WINNER] == L.WIN_POSSE


# ------------------------------------------------------------------ §6 zombies


def test_zombies_go_for_unconscious_men_and_loose_horses(ow_nojit):
    """§6.2 / W13: the nearest living creature includes unconscious humans and loose horses
    (ow_unconscious_no_target, ow_loose_horse_no_target)."""
    a = Arena(config(town="open"))
    z = a.put(a.zombie(0), 10.0, 10.0)
    a.put(0, 20.0, 10.0)
    a.put(1, 13.0, 10.0, 0.0, L.S_OUT)
    assert F.nearest_creature(a.st, 0, a.tb, z)[3] == 1
    a.st.fi[0, 2, L.FI_HORSE] = L.HORSE_LOOSE
    a.st.ff[0, 2, L.FF_HORSE_X], a.st.ff[0, 2, L.FF_HORSE_Y] = 10.0, 12.0
    assert F.nearest_creature(a.st, 0, a.tb, z)[3] == -1 - 2


def test_a_feeding_marker_goes_when_no_zombie_feeds_at_it(ow_nojit):
    """§6.5: the marker is removed when no zombie touches it (ow_marker_stays)."""
    a = Arena()
    a.st.mk[0, 0, L.MK_ON] = 1.0
    z = a.put(a.zombie(0), 5.0, 5.0)
    a.st.fi[0, z, L.FI_FEED] = 0
    M.clear_markers(a.st, 0)
    assert a.st.mk[0, 0, L.MK_ON] == 1.0
    a.st.fi[0, z, L.FI_FEED] = -1
    M.clear_markers(a.st, 0)
    assert a.st.mk[0, 0, L.MK_ON] == 0.0


# ------------------------------------------------------------------ §4, W9, W12, W26


def test_reload_makes_an_empty_gun_usable(ow_nojit):
    """§4 Reload (ow_reload_nothing)."""
    a = Arena()
    a.st.fi[0, GUNMAN, L.FI_AMMO0] = L.GUN_EMPTY
    S.reload_gun(a.st, 0, a.tb, GUNMAN, 0)
    assert a.fi(GUNMAN, L.FI_AMMO0) == L.GUN_READY


def test_the_serious_wound_cap_kills_on_the_capping_wound(ow_nojit):
    """W9 option: with ``serious_wounds_to_die = 2`` the second serious wound kills
    (ow_serious_kill_off_by_one)."""
    a = Arena(config(serious_wounds_to_die=2, town="open"))
    a.put(0, 18.0, 18.0)
    assert not S.apply_wound(a.st, 0, a.tb, 0, L.R_SERIOUS)
    assert S.apply_wound(a.st, 0, a.tb, 0, L.R_SERIOUS) and a.fi(0, L.FI_FATE) == L.FATE_DEAD


@pytest.mark.parametrize("roll,fails", [(2, True), (3, False)])
def test_the_citizens_nerve_fails_on_one_or_two(ow_dice, roll, fails):
    """W12 option: a Citizen with a zombie within 3" rolls a D6, 1-2 he must move away (ow_nerve_fails_on_3)."""
    a = Arena(config(citizen_nerve=True, town="open"))
    a.put(CITIZEN, 18.0, 18.0)
    a.put(a.zombie(0), 20.0, 18.0)
    ow_dice.script(roll)
    assert B.nerve_test(a.st, 0, a.tb, a.rng, CITIZEN) == fails
    ow_dice.done()


def test_friendly_fire_hits_the_man_in_contact_on_every_one(ow_dice):
    """W26: each die showing 1 is a hit on the human touching the target: two 1s, two hits, each a
    location and an effect die (graze) (ow_friendly_fire_once)."""
    a = Arena(config(town="open"))
    a.put(GUNMAN, 20.0, 2.0, 0.0)
    z = a.put(a.zombie(0), 25.0, 2.0, math.pi)
    a.put(LEGEND, 25.0, 3.0)  # touching the target
    ow_dice.script(1, 1, 2, 3, 1, 3, 1)  # 3 pistol dice at Close: no hit, two 1s; two grazes on the Legend
    S.fire(a.st, 0, a.tb, a.rng, GUNMAN, z, 0, 0, 0, 0)
    ow_dice.done()
    assert a.fi(LEGEND, L.FI_STATE) == L.S_STANDING


def test_the_zombies_win_is_checked_after_every_card(ow_nojit):
    """§13 / §12: "after every card: victory check": the card that leaves no conscious man ends the game
    (ow_no_victory_after_card)."""
    a = Arena()
    a.put(0, 18.0, 18.0, 0.0, L.S_OUT)
    T.after_card(a.st, 0, a.tb, a.rng, a.config.n_humans, False)
    assert a.st.gs[0, L.GS_OVER] == 1 and a.st.gs[0, L.GS_WINNER] == L.WIN_ZOMBIES


def test_a_horse_is_spooked_within_five_inches_not_beyond(ow_dice):
    """§10: a horse within 5" of any zombie is spooked: at a gap of 4.5" the test is rolled, at 5.5"
    not (ow_spook_radius_4)."""
    a = Arena(config(town="open", players=(Character("Rider", "gunman", ("pistol",), "fists", True),)))
    a.put(0, 18.0, 18.0)
    a.st.fi[0, 0, L.FI_HORSE] = L.HORSE_RIDDEN
    z = a.put(a.zombie(0), 18.0 + 1.0 + 5.5, 18.0)
    assert not B.spook_test(a.st, 0, a.tb, a.rng, 0)
    a.put(z, 18.0 + 1.0 + 4.5, 18.0)
    ow_dice.script(4)
    assert not B.spook_test(a.st, 0, a.tb, a.rng, 0)
    ow_dice.done()


def test_returned_zombies_stand_at_the_middle_of_the_graveyard_edge(ow_nojit):
    """§6.6 / §12: "the middle of one randomly chosen table edge": the returned figures are centred on
    the middle of the east edge (ow_grave_off_middle)."""
    from kernels.outwest import zombies as Z

    a = Arena(config(town="open"))
    a.put(0, 18.0, 18.0)
    a.st.gs[0, L.GS_GRAVE] = 1  # east
    Z.return_destroyed(a.st, 0, a.tb, 0)
    size = a.config.groups[0]
    ys = [a.pos(a.zombie(k))[1] for k in range(size)]
    xs = {round(a.pos(a.zombie(k))[0], 6) for k in range(size)}
    assert xs == {36.0 - 0.5} and sum(ys) / size == pytest.approx(18.0)


def test_a_push_back_moves_two_inches_straight_away(ow_nojit):
    """§7.4 / W17: pushed back 2" straight away from the attacker (ow_push_half)."""
    a = Arena(config(town="open"))
    a.put(0, 18.0, 18.0)
    F.push_back(a.st, 0, a.tb, 0, 17.0, 18.0, 2.0)
    assert a.pos(0) == pytest.approx((20.0, 18.0))


def test_a_zombie_touching_two_men_attacks_one(ow_dice):
    """§7.3 step 1: a figure touching two enemies attacks only one of them: the Gunman it faces
    (W16: the fewest defend dice), not also the Legend whose back it touches (ow_zombie_attacks_everyone)."""
    from kernels.outwest import zombies as Z

    a = Arena(config(town="open"))
    a.put(GUNMAN, 18.0, 18.0)
    a.put(LEGEND, 20.0, 18.0)
    a.put(a.zombie(0), 19.0, 18.0, math.pi)
    ow_dice.script(1, *([2] * (4 + 2)))  # the group's roll (already in contact); 4 attack and 2 defend dice
    Z.move_and_attack(a.st, 0, a.tb, a.rng, 0)
    ow_dice.done()


# ------------------------------------------------------------------ §4 Mount / dismount


def test_s4_mount_within_3_of_the_horse_and_dismount_leaves_it_within_3(ow_dice):
    """§4 Mount / dismount: he must be within 3" of his horse to climb on; dismounting leaves the
    horse loose within 3" of him (ow_mount_reach, ow_dismount_far)."""
    a = one_man("gunman", "pistol")
    a.put(0, 20.0, 18.0)
    a.st.fi[0, 0, L.FI_HORSE] = L.HORSE_LOOSE
    r2 = 2.0 * a.tb.prm[L.P_BASE_R]
    a.st.ff[0, 0, L.FF_HORSE_X], a.st.ff[0, 0, L.FF_HORSE_Y] = 20.0 + r2 + 3.5, 18.0  # a 3.5" gap
    assert not Hm.horse_chores(a.st, 0, a.tb, 0, 99.0) and a.fi(0, L.FI_HORSE) == L.HORSE_LOOSE
    a.st.ff[0, 0, L.FF_HORSE_X] = 20.0 + r2 + 2.5
    assert Hm.horse_chores(a.st, 0, a.tb, 0, 99.0) and a.fi(0, L.FI_HORSE) == L.HORSE_RIDDEN
    Hm.dismount(a.st, 0, a.tb, 0)
    ow_dice.done()
    assert a.fi(0, L.FI_HORSE) == L.HORSE_LOOSE
    assert 0.0 <= F.gap_to_point(a.st, 0, a.tb, 0, a.st.ff[0, 0, L.FF_HORSE_X], a.st.ff[0, 0, L.FF_HORSE_Y]) <= 3.0
