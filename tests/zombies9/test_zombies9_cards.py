"""Every event card's rule with scripted dice and decks (spec A11, Q6)."""

from __future__ import annotations

import importlib

import pytest
from z9_scene import check, clear, empty_hands, give, lay, pawn, put, race_map, sq

from kernels.zombies9 import layout as L
from sim.rulesets.zombies9.config import PlayerConfig, Policy, Zombies9Config, default_config


def k(name):
    return importlib.import_module(f"kernels.zombies9.{name}")


def two(opponent: Policy | None = None, **params):
    return Zombies9Config(players=(PlayerConfig("Ann"), PlayerConfig("Ben", opponent or Policy())), **params)


def test_hysterical_paralysis_loses_the_whole_turn(game, z9dice):
    st, tb, rng = game(default_config(2))
    top = st.w_gs[L.GS_TOP0]
    st.w_pl[0, L.PL_PARALYSED] = 1
    k("turn").player_turn(st, tb, rng, 0, 0, False)
    assert st.w_gs[L.GS_TOP0] == top and st.pres[0, 0, L.PR_TURNS_LOST] == 1 and st.w_pl[0, L.PL_PARALYSED] == 0
    z9dice.done()  # no tile, no fight, no movement roll, no zombie roll


def test_fear_stops_the_move_but_not_much_needed_rest(game, z9dice):
    cfg = default_config(2)
    st, tb, rng = game(cfg)
    empty_hands(st, tb)
    cards = k("cards")
    assert cards.movement_roll(st, tb, rng, 0, 0, L.G_GATHER, True) == -1  # Fear: no roll at all
    give(st, tb, cfg, 0, "Much Needed Rest")
    st.w_pl[0, L.PL_LIFE] = 2
    assert cards.movement_roll(st, tb, rng, 0, 0, L.G_GATHER, True) == -1
    assert st.w_pl[0, L.PL_LIFE] == 6 and st.w_pl[0, L.PL_PLAYED] == 1  # +2 life tokens instead of moving
    z9dice.done()


def test_keys_adrenaline_and_shoe(game, z9dice):
    cfg = default_config(2)
    st, tb, rng = game(cfg)
    heli = race_map(st, tb, cfg)
    assert st.w_field[L.F_HELI, 4] == 9
    cards = k("cards")
    give(st, tb, cfg, 0, "The Keys Are Still In It")
    assert cards.movement_roll(st, tb, rng, 0, 0, L.G_HELIPAD, False) == 10  # no roll, no Skateboard
    st.w_pl[0, L.PL_PLAYED] = 0
    give(st, tb, cfg, 0, "Adrenaline Rush")
    z9dice.script(3)
    assert cards.movement_roll(st, tb, rng, 0, 0, L.G_HELIPAD, False) == 6  # 3 short of 9: doubled
    st.w_pl[0, L.PL_PLAYED] = 0
    st.w_pl[0, L.PL_SHOE] = 1
    z9dice.script(5)
    assert cards.movement_roll(st, tb, rng, 0, 0, L.G_HELIPAD, False) == 2  # halved, rounded down
    assert st.w_pl[0, L.PL_SHOE] == 0
    assert heli == 3
    z9dice.done()
    check(st, tb)


def test_alternate_food_source_skips_the_step_two_fight(game, z9dice):
    cfg = default_config(2)
    st, tb, rng = game(cfg)
    clear(st, tb)
    empty_hands(st, tb)
    put(st, tb, 4)  # a zombie on the Town Square centre with both pawns
    give(st, tb, cfg, 0, "Alternate Food Source")
    st.w_pl[0, L.PL_LIFE] = 2
    st.w_gs[L.GS_TURN] = 5
    k("cards").start_window(st, tb, rng, 0, 0)
    assert st.w_gs[L.GS_AFS_END] == 7  # the end of Ann's next turn (two players)
    assert k("policy").afs_on(st)
    z9dice.done()


def test_bad_sense_of_direction_and_where_did_everybody_go(game, z9dice):
    saboteur = Policy(threat_turns=1000.0)
    cfg = two(saboteur)
    st, tb, rng = game(cfg)
    heli = race_map(st, tb, cfg)
    cards = k("cards")
    near = sq(heli, 2, 1)
    pawn(st, 0, near)
    give(st, tb, cfg, 1, "Bad Sense of Direction")
    cards.pre_turn_window(st, tb, rng, 0, 0)
    assert st.w_pl[0, L.PL_SQ] == 4 and st.w_pl[1, L.PL_LIFE] == 4  # Ann back to the centre; Ben pays a life
    k("turn").start_turn(st, tb, 1)
    pawn(st, 0, near)
    put(st, tb, sq(2, 1, 1))
    give(st, tb, cfg, 1, "Where Did Everybody Go?")
    z9dice.script(6)  # Ann fights the zombie on her way and goes on
    cards.pre_turn_window(st, tb, rng, 0, 0)
    assert st.w_pl[0, L.PL_SQ] == sq(1, 1, 1)  # five squares, to the farthest from the Helipad
    assert st.w_pl[0, L.PL_KILLS] == 1
    z9dice.done()
    check(st, tb)


def test_brain_cramp_moves_the_racer_away(game, z9dice):
    cfg = two(Policy(threat_turns=1000.0))
    st, tb, rng = game(cfg)
    heli = race_map(st, tb, cfg)
    pawn(st, 0, sq(heli, 2, 1))
    st.w_pl[0, L.PL_GOAL] = L.G_HELIPAD
    give(st, tb, cfg, 1, "Brain Cramp")
    assert k("cards").brain_cramp_window(st, tb, rng, 0, 0, 3)
    assert st.w_pl[0, L.PL_SQ] == sq(2, 2, 1) and st.w_field[L.F_HELI, st.w_pl[0, L.PL_SQ]] == 4
    z9dice.done()


@pytest.mark.parametrize("bullets_option", [False, True])
def test_butter_fingers(game, bullets_option):
    cfg = default_config(2, butter_fingers_bullets=bullets_option)
    st, tb, rng = game(cfg)
    empty_hands(st, tb)
    hand, cards = k("hand"), k("cards")
    hand.put_in_play(st, tb, 0, 0, give(st, tb, cfg, 0, "Skateboard"))
    hand.put_in_play(st, tb, 0, 0, give(st, tb, cfg, 0, "Fire Axe"))
    assert cards.butter_fingers(st, tb, 0) and st.w_pl[0, L.PL_AXE] == -1 and st.w_pl[0, L.PL_SKATEBOARD] >= 0
    assert cards.butter_fingers(st, tb, 0) and st.w_pl[0, L.PL_SKATEBOARD] == -1
    assert cards.butter_fingers(st, tb, 0) == bullets_option  # nothing left in play (D13)
    assert st.w_pl[0, L.PL_BULLETS] == (1 if bullets_option else 3)
    check(st, tb)


# I Don't Think They're Dead (A11): "may modify each [die] with bullets/life as in combat". Rows: the
# target's policy (Q4 rule), life tokens, bullets, scripted dice (the two dice, then the re-rolls),
# zombies lost, life tokens and bullets left. The lower die is worked on first.
NOT_DEAD_CASES = [
    ("rule", 1, 0, (4, 2), 2, 1, 0),  # 2 short, no bullets, only the last life: the die fails
    ("rule", 3, 1, (3, 5), 0, 3, 0),  # 1 short: one bullet buys it
    ("rule", 1, 2, (2, 3), 2, 1, 0),  # at the last life the 2 is bought, the 3 then finds no bullet left
    ("rule", 3, 0, (4, 2, 5), 0, 2, 0),  # no bullets: a life token re-rolls the 2 into a 5
    ("rule", 3, 5, (1, 6, 3), 0, 2, 4),  # 3 short at 3 life: re-roll (a life), then buy the 3 with a bullet
    ("rule", 1, 3, (1, 5), 0, 1, 0),  # 3 short at the last life: three bullets buy it
    ("rule", 1, 2, (1, 3), 2, 1, 2),  # the 1 cannot be saved: nothing is spent on the 3
    ("rule", 2, 0, (2, 2, 1), 2, 1, 0),  # re-roll once (2 -> 1), then only the last life is left
    ("hearts", 2, 5, (3, 6, 2), 0, 1, 3),  # hearts first: a life re-rolls, then at the last life bullets buy
    ("bullets", 3, 5, (1, 6), 0, 3, 2),  # bullets first: three bullets at once
]


@pytest.mark.parametrize(("rule", "life", "bullets", "dice", "lost", "life_left", "bullets_left"), NOT_DEAD_CASES)
def test_i_dont_think_theyre_dead(game, z9dice, rule, life, bullets, dice, lost, life_left, bullets_left):
    cfg = Zombies9Config(players=(PlayerConfig("Ann", Policy(combat=rule)), PlayerConfig("Ben")))
    st, tb, rng = game(cfg)
    st.w_pl[0, L.PL_KILLS], st.w_pl[0, L.PL_BULLETS], st.w_pl[0, L.PL_LIFE] = 5, bullets, 2 * life
    st.w_gs[L.GS_POOL_ADULT] -= 5
    z9dice.script(*dice)
    assert k("cards").not_dead(st, tb, rng, 0, 0) == lost
    assert st.w_pl[0, L.PL_KILLS] == 5 - lost
    assert (st.w_pl[0, L.PL_LIFE], st.w_pl[0, L.PL_BULLETS]) == (2 * life_left, bullets_left)
    assert st.pres[0, 0, L.PR_HEARTS] == life - life_left and st.pres[0, 0, L.PR_BULLETS] == bullets - bullets_left
    z9dice.done()
    check(st, tb)


@pytest.mark.parametrize(("short", "life_h", "bullets", "rule", "choice"), [
    (0, 6, 0, L.COMBAT_RULE, 0), (-2, 2, 0, L.COMBAT_RULE, 0),  # the die stands
    (1, 6, 1, L.COMBAT_RULE, 1), (2, 6, 2, L.COMBAT_RULE, 2), (2, 4, 2, L.COMBAT_RULE, 1),  # Q4's rule
    (3, 2, 2, L.COMBAT_RULE, 3), (3, 3, 0, L.COMBAT_RULE, 2),  # the last life is never paid; 1.5 tokens may pay one
    (1, 6, 1, L.COMBAT_HEARTS, 2), (1, 2, 1, L.COMBAT_HEARTS, 1), (3, 6, 3, L.COMBAT_BULLETS, 1),
    (1, 0, 0, L.COMBAT_RULE, 3), (1, 0, 1, L.COMBAT_RULE, 1),  # no life at all: only bullets
])
def test_not_dead_choice_is_q4_without_the_last_life(short, life_h, bullets, rule, choice):
    fn = k("cards").not_dead_choice
    assert getattr(fn, "py_func", fn)(short, life_h, bullets, rule) == choice


def test_zombie_cards_fill_and_double_buildings(game):
    cfg = default_config(2)
    st, tb, rng = game(cfg)
    hosp = lay(st, tb, cfg, "Hospital", 0, -1)
    for dx, dy in ((1, 0), (-1, 0), (0, 1)):
        lay(st, tb, cfg, "Crossroads", dx, dy)
    clear(st, tb)
    cards = k("cards")
    inside = [sq(hosp, r, c) for r in range(3) for c in range(3) if st.w_sq[sq(hosp, r, c), L.SQ_BLD] == hosp]
    put(st, tb, inside[0])
    put(st, tb, inside[1])
    cards.score_squares(st, tb, 1)
    assert cards.zombie_card(st, tb, 1, L.E_MISCALC) == 2  # doubled
    assert cards.zombie_card(st, tb, 1, L.E_WORSE) == len(inside) - 4  # every empty square of it
    assert all(st.w_sq[q, L.SQ_ADULT] == 1 for q in inside)
    before = st.w_gs[L.GS_BOARD]
    assert cards.zombie_card(st, tb, 1, L.E_SCREWED) == 10 and st.w_gs[L.GS_BOARD] == before + 10
    assert cards.zombie_card(st, tb, 1, L.E_MASTER) == 5
    assert st.w_sq[4, L.SQ_ADULT] == 0  # never on the pawns' square
    check(st, tb)


def test_this_isnt_so_bad_moves_two_zombies(game):
    cfg = default_config(2)
    st, tb, rng = game(cfg)
    clear(st, tb)
    put(st, tb, sq(0, 0, 1))
    put(st, tb, sq(0, 1, 0))
    put(st, tb, sq(0, 2, 1))
    st.w_score[:] = 0.0
    st.w_score[sq(0, 0, 1)] = -5.0
    st.w_score[sq(0, 1, 0)] = -3.0
    st.w_score[sq(0, 1, 2)] = 8.0
    assert k("cards").zombie_card(st, tb, 0, L.E_NOT_SO_BAD) == 1  # the second best spot is no better
    assert st.w_sq[sq(0, 1, 2), L.SQ_ADULT] == 1 and st.w_sq[sq(0, 0, 1), L.SQ_ADULT] == 0
    check(st, tb)


def test_grenade(game):
    cfg = default_config(2)
    st, tb, rng = game(cfg)
    k_ = lay(st, tb, cfg, "Police Station", 0, -1)
    clear(st, tb)
    empty_hands(st, tb)
    for q in (sq(k_, 0, 0), sq(k_, 0, 1), sq(k_, 1, 0)):
        put(st, tb, q)
    put(st, tb, sq(k_, 2, 1))  # on the road in front of the door: not in the building
    k("hand").put_in_play(st, tb, 0, 0, give(st, tb, cfg, 0, "Grenade"))
    pawn(st, 0, sq(k_, 2, 1))  # in front of the door (A11)
    st.w_pl[0, L.PL_LIFE] = 2
    k("cards").use_grenade(st, tb, 0, 0)
    assert st.w_pl[0, L.PL_GRENADE] >= 0  # not at the last life (Q6)
    st.w_pl[0, L.PL_LIFE] = 6
    k("cards").use_grenade(st, tb, 0, 0)
    assert st.w_pl[0, L.PL_GRENADE] == -1 and st.w_pl[0, L.PL_KILLS] == 3 and st.w_pl[0, L.PL_LIFE] == 4
    assert st.w_tile[k_, L.TS_Z] == 1  # the road zombie is left
    check(st, tb)


def test_items_go_in_play_in_their_building_only(game, z9dice):
    cfg = default_config(2)
    st, tb, rng = game(cfg)
    k_ = lay(st, tb, cfg, "Sporting Goods Store", 0, -1)
    clear(st, tb)
    empty_hands(st, tb)
    hand = k("hand")
    give(st, tb, cfg, 0, "Lots of Ammo")
    give(st, tb, cfg, 0, "Fire Axe")
    assert not k("replies").try_items(st, tb, rng, 0, 0)  # on the Town Square
    pawn(st, 0, sq(k_, 2, 1))
    assert not k("replies").try_items(st, tb, rng, 0, 0)  # the road in front of the door is not inside (D16)
    pawn(st, 0, sq(k_, 1, 1))
    assert k("replies").try_items(st, tb, rng, 0, 0)
    assert st.w_pl[0, L.PL_BULLETS] == 6 and hand.hand_count(st, tb, 0) == 1  # Lots of Ammo spent at once
    assert not k("replies").try_items(st, tb, rng, 0, 0)  # one card a round
    z9dice.done()
    check(st, tb)


def test_all_the_marbles_stops_zombie_movement(game, z9dice):
    st, tb, rng = game(default_config(2))
    st.w_gs[L.GS_TURN] = 4
    st.w_gs[L.GS_MARBLES_END] = 4
    assert k("movement").zombie_phase(st, tb, rng, 0, 0) == 0
    z9dice.done()  # not even the roll


def test_claustrophobia_leaves_the_building_by_the_shortest_way(game, z9dice):
    cfg = default_config(2)
    st, tb, rng = game(cfg)
    h = lay(st, tb, cfg, "Hospital", 0, -1)
    clear(st, tb)
    pawn(st, 0, sq(h, 0, 0))
    k("movement").walk(st, tb, rng, 0, 0, 3, L.G_GATHER, True)
    assert st.w_pl[0, L.PL_SQ] == sq(h, 2, 1)  # three steps: out by the door onto the road
    z9dice.done()
