"""Hand-fed dice and hand-built maps for the rules of Zombies!!! (spec A6-A12, B5-B8, Part C)."""

from __future__ import annotations

import numpy as np
import pytest
from z9_scene import can_lay, card_id, clear, empty_hands, give, lay, pawn, put, sq, stack_on_top, tile_id

from kernels.zombies9 import layout as L
from sim.rulesets.zombies9.config import Policy, default_config


def _k(name):
    import importlib

    return importlib.import_module(f"kernels.zombies9.{name}")


def test_placement_joins_roads_to_roads_and_sides_to_sides(game):
    cfg = default_config(2)
    st, tb, rng = game(cfg)
    assert can_lay(st, tb, cfg, "Straight road", 0, -1, 0)  # N-S road on the Town Square's north exit
    assert not can_lay(st, tb, cfg, "Straight road", 1, 0, 0)  # its west side against a road exit
    assert can_lay(st, tb, cfg, "Straight road", 1, 0, 1)  # turned a quarter: E-W
    assert can_lay(st, tb, cfg, "Hospital", 0, -1, 0)  # its exit (S) joins the road
    assert not can_lay(st, tb, cfg, "Hospital", 0, -1, 2)  # exit away: a building side against a road
    assert not can_lay(st, tb, cfg, "Crossroads", 2, 0, 0)  # touches no tile
    assert not can_lay(st, tb, cfg, "Crossroads", 0, 0, 0)  # the cell is taken
    assert _k("board").list_placements(st, tb, tile_id(cfg, "Straight road")) == 8  # 4 sides x 2 turns


def test_every_touching_edge_must_match_and_one_road_join(game):
    cfg = default_config(2)
    st, tb, rng = game(cfg)
    lay(st, tb, cfg, "Crossroads", 0, -1)
    lay(st, tb, cfg, "Crossroads", 1, 0)
    assert can_lay(st, tb, cfg, "Right-angle bend", 1, -1, 2)  # exits S and W meet both crossroads
    assert not can_lay(st, tb, cfg, "Right-angle bend", 1, -1, 1)  # S joins, but its W side meets a road
    st, tb, rng = game(cfg)
    lay(st, tb, cfg, "Hospital", 0, -1, 0)
    assert not can_lay(st, tb, cfg, "Right-angle bend", 1, -1, 0)  # sides match, but no road joins


def test_buildings_are_entered_by_their_door(game):
    cfg = default_config(2)
    st, tb, rng = game(cfg)
    k = lay(st, tb, cfg, "Hospital", 0, -1, 0)
    road, door = sq(k, 2, 1), sq(k, 1, 1)
    assert st.w_nb[road, L.N] == door and st.w_nb[door, L.S] == road
    assert st.w_nb[road, L.W] == -1  # the building square beside the road: no way in
    assert st.w_nb[road, L.S] == sq(0, 0, 1)  # across the edge, road exit to road exit
    assert st.w_nb[door, L.W] == sq(k, 1, 0)  # inside the building, any square to any
    cfg2 = default_config(2, enter_any_side=True)  # D5 / B9
    st, tb, rng = game(cfg2)
    k = lay(st, tb, cfg2, "Hospital", 0, -1, 0)
    assert st.w_nb[sq(k, 2, 1), L.W] == sq(k, 2, 0)


def test_failed_roll_choice_q4():
    from kernels.zombies9.combat import choose_spend

    cs = getattr(choose_spend, "py_func", choose_spend)
    assert cs(1, 6, 1, 0, 2, L.COMBAT_RULE)  # one short, a bullet: spend it
    assert not cs(3, 6, 3, 0, 2, L.COMBAT_RULE)  # three lives, three short: pay a life, re-roll
    assert cs(3, 4, 3, 0, 2, L.COMBAT_RULE)  # two lives: spend
    assert not cs(2, 2, 1, 0, 2, L.COMBAT_RULE)  # not enough bullets
    assert cs(3, 10, 3, 0, 2, L.COMBAT_BULLETS)
    assert not cs(1, 4, 5, 0, 2, L.COMBAT_HEARTS)  # a loss is survivable: re-roll
    assert cs(1, 2, 5, 0, 2, L.COMBAT_HEARTS)  # the last life: spend
    assert not cs(2, 4, 3, 1, 2, L.COMBAT_RULE)  # a First Aid Kit counts as a life (2 + 1 > 2)


def test_combat_rolls_pays_and_rerolls(z9dice, rng):
    core = _k("combat").combat_core
    z9dice.script(1, 5)  # 1: three short with three lives: a life, then 5 kills
    assert core(rng, 0, 4, 0, 2, 6, 3, 0, L.COMBAT_RULE) == (True, 4, 3, 0, 2)
    z9dice.script(3)  # one short: a bullet
    assert core(rng, 0, 4, 0, 2, 6, 3, 0, L.COMBAT_RULE) == (True, 6, 2, 0, 1)
    z9dice.script(2)  # the last life, no bullets: death
    assert core(rng, 0, 4, 0, 2, 2, 0, 0, L.COMBAT_RULE)[0] is False
    z9dice.script(1, 4)  # a First Aid Kit instead of the life
    assert core(rng, 0, 4, 0, 2, 2, 0, 1, L.COMBAT_RULE) == (True, 2, 0, 0, 2)
    z9dice.script(1)  # a bonus of +3 always kills
    assert core(rng, 0, 4, 3, 2, 2, 0, 0, L.COMBAT_RULE) == (True, 2, 0, 0, 1)
    z9dice.script(4, 5)  # a dog (Part C): 5+, half a life per lost roll
    assert core(rng, 0, 5, 0, 1, 2, 0, 0, L.COMBAT_RULE) == (True, 1, 0, 0, 2)
    z9dice.done()


def _check(st, tb):
    assert _k("turn").count_violations(st, tb) == 0


@pytest.mark.parametrize("tokens", ["next_turn", "at_once"])
def test_death_returns_the_pawn_and_halves_the_collection(game, z9dice, tokens):
    cfg = default_config(2, death_tokens=tokens)
    st, tb, rng = game(cfg)
    clear(st, tb)
    empty_hands(st, tb)
    k = lay(st, tb, cfg, "Crossroads", 0, -1)
    q = sq(k, 1, 1)
    put(st, tb, q)
    pawn(st, 0, q)
    st.w_pl[0, L.PL_LIFE], st.w_pl[0, L.PL_BULLETS], st.w_pl[0, L.PL_KILLS] = 2, 0, 5
    st.w_gs[L.GS_POOL_ADULT] -= 5  # the five are in the collection
    _k("hand").put_in_play(st, tb, 0, 0, give(st, tb, cfg, 0, "Fire Axe"))
    z9dice.script(2)  # 2 + 1 (axe) = 3: one short, no bullets, the last life
    assert not _k("combat").fight(st, tb, rng, 0, 0, q, L.Z_ADULT, 1)
    z9dice.done()
    pl = st.w_pl[0]
    assert pl[L.PL_KILLS] == 2  # half of 5 lost, rounded up (D8)
    assert pl[L.PL_AXE] == -1 and pl[L.PL_SQ] == 4  # items lost; back on the Town Square centre
    # A8.4 "You start your next turn with 3 life and 3 bullet tokens"; the option: at once
    assert (pl[L.PL_LIFE], pl[L.PL_BULLETS]) == ((0, 0) if tokens == "next_turn" else (6, 3))
    assert st.w_sq[q, L.SQ_ADULT] == 1 and st.pres[0, 0, L.PR_DEATHS] == 1
    _check(st, tb)
    _k("turn").start_turn(st, tb, 0)
    assert (pl[L.PL_LIFE], pl[L.PL_BULLETS], pl[L.PL_DEAD]) == (6, 3, 0)
    _check(st, tb)


@pytest.mark.parametrize("tokens", ["next_turn", "at_once"])
def test_a_dead_player_fights_without_life_until_his_turn(game, z9dice, tokens):
    """Between a death and the dead player's next turn (A8.4) a fight finds him with no life token:
    a failed roll bullets cannot buy is a second death (half the collection again)."""
    cfg = default_config(2, death_tokens=tokens)
    st, tb, rng = game(cfg)
    clear(st, tb)
    empty_hands(st, tb)
    st.w_pl[0, L.PL_LIFE], st.w_pl[0, L.PL_BULLETS], st.w_pl[0, L.PL_KILLS] = 2, 0, 8
    st.w_gs[L.GS_POOL_ADULT] -= 8
    combat = _k("combat")
    combat.death(st, tb, 0, 0)  # 8 -> 4 zombies
    put(st, tb, 4)
    z9dice.script(2, 3) if tokens == "at_once" else z9dice.script(2)  # at once: 3 life, a re-roll, bullets buy the 3
    won = combat.fight(st, tb, rng, 0, 0, 4, L.Z_ADULT, 1)
    z9dice.done()
    pl = st.w_pl[0]
    if tokens == "next_turn":
        assert not won and pl[L.PL_KILLS] == 2 and st.pres[0, 0, L.PR_DEATHS] == 2 and pl[L.PL_LIFE] == 0
    else:
        assert won and pl[L.PL_KILLS] == 5 and st.pres[0, 0, L.PR_DEATHS] == 1 and pl[L.PL_LIFE] == 4
    _check(st, tb)


def test_a_dead_player_cannot_pay_life_on_i_dont_think_theyre_dead(game, z9dice):
    for tokens, dice, lost in (("next_turn", (4, 2), 2), ("at_once", (4, 2, 5), 0)):
        st, tb, rng = game(default_config(2, death_tokens=tokens))
        st.w_pl[0, L.PL_KILLS], st.w_pl[0, L.PL_BULLETS] = 10, 0
        st.w_gs[L.GS_POOL_ADULT] -= 10
        _k("combat").death(st, tb, 0, 0)  # 5 zombies left; no bullets under next_turn, 3 under at_once
        st.w_pl[0, L.PL_BULLETS] = 0
        z9dice.script(*dice)
        assert _k("cards").not_dead(st, tb, rng, 0, 0) == lost
        z9dice.done()
        _check(st, tb)


def test_weapons_axe_and_shotgun_charges(game, z9dice):
    cfg = default_config(2)
    st, tb, rng = game(cfg)
    clear(st, tb)
    empty_hands(st, tb)
    hand, combat = _k("hand"), _k("combat")
    hand.put_in_play(st, tb, 0, 0, give(st, tb, cfg, 0, "Hey, Look! A Shotgun!"))
    hand.put_in_play(st, tb, 0, 0, give(st, tb, cfg, 0, "Fire Axe"))
    q = 4
    assert combat.weapon_bonus(st, tb, 0, q) == 2  # one weapon plus the Shotgun (A10)
    for left in (2, 1, 0):
        put(st, tb, q)
        z9dice.script(2)  # 2 + 2 kills
        assert combat.fight(st, tb, rng, 0, 0, q, L.Z_ADULT, 1)
        assert st.w_pl[0, L.PL_SHOTGUN] == left
    assert st.w_pl[0, L.PL_SHOTGUN_CARD] == -1 and combat.weapon_bonus(st, tb, 0, q) == 1
    assert st.w_pl[0, L.PL_KILLS] == 3
    z9dice.done()
    _check(st, tb)


def test_automatic_card_resolves_and_counts_as_drawn(game, z9dice):
    cfg = default_config(2, mode="mixed")
    st, tb, rng = game(cfg)
    empty_hands(st, tb)
    give(st, tb, cfg, 0, "Fear")
    stack_on_top(st, cfg, "Fear")
    stack_on_top(st, cfg, "Dust to Dust")
    st.w_pl[1, L.PL_LIFE], st.w_pl[1, L.PL_BULLETS] = 10, 9
    assert _k("cards").draw_up(st, tb, rng, 0, 0) == 2  # Dust to Dust and one Fear
    assert _k("hand").hand_count(st, tb, 0) == 2  # the Automatic card is not replaced (B5)
    assert (st.w_pl[1, L.PL_LIFE], st.w_pl[1, L.PL_BULLETS]) == (6, 3)  # every player to 3 and 3
    assert st.w_discard[st.w_gs[L.GS_DISC_N] - 1] == card_id(cfg, "Dust to Dust")
    assert st.w_pl[0, L.PL_PLAYED] == 0  # not the card of the round (D31)
    z9dice.done()
    _check(st, tb)


@pytest.mark.parametrize(("scope", "expected"), [("cemetery", (1, 0)), ("graveyard", (1, 1))])
def test_we_have_a_little_problem(game, z9dice, scope, expected):
    cfg = default_config(2, mode="mixed", little_problem_scope=scope)
    st, tb, rng = game(cfg)
    empty_hands(st, tb)
    cem = lay(st, tb, cfg, "Cemetery", 0, -1)
    four = lay(st, tb, cfg, "Four-way path", 0, -2)
    clear(st, tb)
    give(st, tb, cfg, 0, "Fear")
    give(st, tb, cfg, 0, "Fear")
    stack_on_top(st, cfg, "We Have a Little Problem")
    _k("cards").draw_up(st, tb, rng, 0, 0)
    assert (st.w_tile[cem, L.TS_Z], st.w_tile[four, L.TS_Z]) == expected  # one on each Cemetery (D29)
    assert st.w_gs[L.GS_CEM_Z] == 1
    z9dice.done()
    _check(st, tb)


def test_kids_share_a_square_with_an_adult(game, z9dice, tmp_path):
    cfg = default_config(2, mode="mixed", kid_rule=True, kid_placement="aggressive")
    st, tb, rng = game(cfg)
    clear(st, tb)
    pieces = _k("pieces")
    k = lay(st, tb, cfg, "Crossroads", 0, -1)
    assert pieces.populate(st, tb, rng, 0, k) == 4  # aggressive (D32): two squares of adult + kid
    adults = st.w_sq[9 * k: 9 * k + 9, L.SQ_ADULT]
    kids = st.w_sq[9 * k: 9 * k + 9, L.SQ_KID]
    assert adults.sum() == 2 and kids.sum() == 2 and np.array_equal(adults, kids)
    q = 9 * k + int(np.flatnonzero(kids)[0])
    assert not pieces.can_hold(st, tb, q, L.Z_KID) and not pieces.can_hold(st, tb, q, L.Z_ADULT)
    pawn(st, 0, q)
    z9dice.script(4, 6)  # two combats on one square: the adult, then the kid
    assert _k("movement").fight_all(st, tb, rng, 0, 0, q)
    assert st.w_pl[0, L.PL_KILLS] == 2 and st.w_sq[q, L.SQ_ADULT] + st.w_sq[q, L.SQ_KID] == 0
    z9dice.done()
    _check(st, tb)


def test_kids_used_only_when_needed(game, tmp_path):
    from sim.rulesets.zombies9.data import BASE_TILES

    tiles = tmp_path / "tiles.toml"
    tiles.write_text(BASE_TILES.read_text() + '''
[[tile]]
name = "Packed road"
count = 2
zombies = 5
life = 0
bullets = 0
exits = "NS"
layout = ["#R#", "#R#", "#R#"]
''')
    cfg = default_config(2, mode="mixed", kid_rule=True, tiles_file=str(tiles))
    st, tb, rng = game(cfg)
    k = lay(st, tb, cfg, "Packed road", 0, -1)
    assert _k("pieces").populate(st, tb, rng, 0, k) == 5  # 5 zombies on 3 squares: 3 adults + 2 kids
    assert st.w_sq[9 * k: 9 * k + 9, L.SQ_ADULT].sum() == 3 and st.w_sq[9 * k: 9 * k + 9, L.SQ_KID].sum() == 2
    cfg = default_config(2, mode="mixed", tiles_file=str(tiles))  # no kid rule: 3 placed, 2 skipped
    st, tb, rng = game(cfg)
    k = lay(st, tb, cfg, "Packed road", 0, -1)
    assert _k("pieces").populate(st, tb, rng, 0, k) == 3


def test_pet_cemetery_dogs(game, z9dice):
    cfg = default_config(2, mode="mixed", pet_cemetery_dogs=True)
    st, tb, rng = game(cfg)
    clear(st, tb)
    pieces, movement = _k("pieces"), _k("movement")
    k = lay(st, tb, cfg, "Pet Cemetery", 0, -1)
    pool = st.w_gs[L.GS_POOL_DOG]
    assert pieces.populate(st, tb, rng, 0, k) == 4
    assert st.w_sq[9 * k: 9 * k + 9, L.SQ_DOGS].sum() == 4 and st.w_sq[9 * k: 9 * k + 9, L.SQ_ADULT].sum() == 0
    assert st.w_gs[L.GS_POOL_DOG] == pool - 4
    assert pieces.can_hold(st, tb, sq(k, 0, 1), L.Z_DOG) and not pieces.can_hold(st, tb, sq(k, 0, 1), L.Z_ADULT)
    # a dog moves up to two squares when chosen (C): it reaches the one square worth going to
    clear(st, tb)
    put(st, tb, sq(k, 0, 1), L.Z_DOG)
    put(st, tb, sq(0, 1, 0), L.Z_ADULT)
    st.w_moved[:] = 0
    st.w_score[:] = 0.0
    st.w_score[sq(k, 2, 1)] = 10.0  # two steps from the dog, two from the adult
    assert movement._best_move(st, tb, 0)
    assert st.w_sq[sq(k, 2, 1), L.SQ_DOGS] == 1 and st.w_sq[sq(k, 0, 1), L.SQ_DOGS] == 0
    _check(st, tb)


def test_helipad_centre_wins_after_its_zombie(game, z9dice):
    cfg = default_config(2)
    st, tb, rng = game(cfg)
    clear(st, tb)
    movement = _k("movement")
    k = lay(st, tb, cfg, "Helipad", 0, -1)
    st.w_gs[L.GS_HELI] = k
    put(st, tb, sq(k, 1, 1))
    pawn(st, 0, sq(k, 2, 1))
    st.w_pl[0, L.PL_BULLETS] = 0
    z9dice.script(2, 1, 6)  # no bullets: a life, a life, then the kill
    assert movement.enter_square(st, tb, rng, 0, 0, sq(k, 1, 1), True, False) == movement.WON
    assert (st.w_gs[L.GS_WINNER], st.w_gs[L.GS_REASON]) == (0, L.REASON_HELIPAD)
    z9dice.done()


def test_alternate_food_source_wins_without_the_kill(game, z9dice):
    cfg = default_config(2)
    st, tb, rng = game(cfg)
    clear(st, tb)
    k = lay(st, tb, cfg, "Helipad", 0, -1)
    st.w_gs[L.GS_HELI] = k
    put(st, tb, sq(k, 1, 1))
    st.w_gs[L.GS_TURN] = 3
    st.w_gs[L.GS_AFS_END] = 5
    assert _k("movement").enter_square(st, tb, rng, 0, 1, sq(k, 1, 1), True, False) == _k("movement").WON
    assert st.w_gs[L.GS_WINNER] == 1 and st.w_sq[sq(k, 1, 1), L.SQ_ADULT] == 1  # no combat (A11)
    z9dice.done()


def test_twenty_fifth_zombie_wins(game, z9dice):
    cfg = default_config(2)
    st, tb, rng = game(cfg)
    clear(st, tb)
    put(st, tb, 4)
    st.w_pl[1, L.PL_KILLS] = 24
    st.w_gs[L.GS_POOL_ADULT] -= 24
    z9dice.script(5)
    assert _k("combat").fight(st, tb, rng, 0, 1, 4, L.Z_ADULT, 1)
    assert (st.w_gs[L.GS_WINNER], st.w_gs[L.GS_REASON]) == (1, L.REASON_KILLS)
    _check(st, tb)


@pytest.mark.parametrize("trigger", ["kill", "empty"])
def test_crematorium_is_won_by_the_emptying_kill(game, z9dice, trigger):
    cfg = default_config(2, mode="mixed", crematorium_trigger=trigger)
    st, tb, rng = game(cfg)
    clear(st, tb)
    k = lay(st, tb, cfg, "Crematorium", 0, -1)
    st.w_gs[L.GS_CREM] = k
    a, b = sq(k, 1, 1), sq(k, 0, 0)
    put(st, tb, a)
    put(st, tb, b)
    pawn(st, 0, a)
    z9dice.script(6)
    assert _k("combat").fight(st, tb, rng, 0, 0, a, L.Z_ADULT, 1)
    assert st.w_gs[L.GS_WINNER] == -1  # one zombie is left on the tile
    _k("pieces").move_zombie(st, tb, b, sq(0, 1, 1), L.Z_ADULT)  # it walks off: the tile is empty
    _k("turn").check_empty_wins(st, tb, 1)
    if trigger == "kill":  # D26: emptied without a kill wins nothing
        assert st.w_gs[L.GS_WINNER] == -1
        put(st, tb, b)
        z9dice.script(6)
        _k("combat").fight(st, tb, rng, 0, 0, b, L.Z_ADULT, 1)
        assert (st.w_gs[L.GS_WINNER], st.w_gs[L.GS_REASON]) == (0, L.REASON_CREMATORIUM)
    else:
        assert (st.w_gs[L.GS_WINNER], st.w_gs[L.GS_REASON]) == (1, L.REASON_CREMATORIUM)
    z9dice.done()


def test_cemeteries_win_only_after_the_last_z9_tile(game, z9dice):
    cfg = default_config(2, mode="alone")
    st, tb, rng = game(cfg)
    clear(st, tb)
    k = lay(st, tb, cfg, "Cemetery", 0, -1)
    st.w_gs[L.GS_CEM_PLACED] = 1
    put(st, tb, sq(k, 1, 1))
    combat = _k("combat")
    z9dice.script(6)
    combat.fight(st, tb, rng, 0, 0, sq(k, 1, 1), L.Z_ADULT, 1)
    assert st.w_gs[L.GS_CEM_Z] == 0 and st.w_gs[L.GS_WINNER] == -1  # tiles are left in the stack
    put(st, tb, sq(k, 0, 1))
    st.w_gs[L.GS_TOP1] = st.w_gs[L.GS_N1]  # the graveyard stack is done
    z9dice.script(6)
    combat.fight(st, tb, rng, 0, 0, sq(k, 0, 1), L.Z_ADULT, 1)
    assert (st.w_gs[L.GS_WINNER], st.w_gs[L.GS_REASON]) == (0, L.REASON_CEMETERIES)
    assert st.w_pl[0, L.PL_KILLS] == 2
    z9dice.done()


def test_closing_the_map_costs_the_rest_of_the_turn(game, z9dice):
    cfg = default_config(2)
    st, tb, rng = game(cfg)
    for dx, dy, r in ((0, -1, 0), (1, 0, 1), (-1, 0, 3)):  # dead ends on three sides of the Town Square
        lay(st, tb, cfg, "Hospital", dx, dy, r)
    assert _k("board").open_edges(st) == 1
    st.w_stack[0, st.w_gs[L.GS_TOP0]] = tile_id(cfg, "Police Station")
    st.w_gs[L.GS_TURN] = 1
    _k("turn").player_turn(st, tb, rng, 0, 0, False)
    assert _k("board").open_edges(st) == 0 and st.w_gs[L.GS_CLOSED] == 1
    assert st.pres[0, 0, L.PR_TURNS_LOST] == 1
    z9dice.done()


def test_an_unplaceable_helipad_goes_back_into_the_stack(game, z9dice):
    cfg = default_config(2)
    st, tb, rng = game(cfg)
    for dx, dy, r in ((0, -1, 0), (1, 0, 1), (-1, 0, 3), (0, 1, 2)):
        lay(st, tb, cfg, "Hospital", dx, dy, r)
    heli = tile_id(cfg, "Helipad")
    top = st.w_gs[L.GS_TOP0]
    st.w_stack[0, top] = heli
    z9dice.script(0.0)  # where it goes back among the tiles left: on top
    _k("turn").tile_phase(st, tb, rng, 0, 0)
    assert st.w_gs[L.GS_TOP0] == top and st.w_stack[0, top] == heli and st.w_gs[L.GS_HELI_GONE] == 0
    st.w_gs[L.GS_N0] = top + 1  # nothing left below it: the Helipad leaves the game (D20)
    _k("turn").tile_phase(st, tb, rng, 0, 0)
    assert st.w_gs[L.GS_HELI_GONE] == 1
    z9dice.done()


def test_one_card_per_round(game, z9dice):
    cfg = default_config(2)
    cfg = cfg.__class__(players=(cfg.players[0], cfg.players[1].__class__("Ben", Policy(threat_turns=1000.0))))
    st, tb, rng = game(cfg)
    empty_hands(st, tb)
    cards, turn = _k("cards"), _k("turn")
    give(st, tb, cfg, 1, "Fear")
    give(st, tb, cfg, 1, "Your Shoe's Untied")
    cards.pre_turn_window(st, tb, rng, 0, 0)
    assert st.w_pl[0, L.PL_FEAR] == 1 and st.w_pl[1, L.PL_PLAYED] == 1
    cards.pre_turn_window(st, tb, rng, 0, 0)
    assert st.w_pl[0, L.PL_SHOE] == 0  # Ben's card of the round is spent
    turn.start_turn(st, tb, 1)
    cards.pre_turn_window(st, tb, rng, 0, 0)
    assert st.w_pl[0, L.PL_SHOE] == 1
    turn.start_turn(st, tb, 0)
    assert st.w_pl[0, L.PL_FEAR] == 2  # Fear holds during this turn
    z9dice.done()
    _check(st, tb)


def test_graveyard_tiles_join_only_the_graveyard(game):
    cfg = default_config(2, mode="mixed", graveyard_separate=True)  # D24, the spec's reading
    st, tb, rng = game(cfg)
    assert not can_lay(st, tb, cfg, "Cemetery", 0, -1)  # a Z9 tile on the town (B4.5, D24)
    assert can_lay(st, tb, cfg, "Graveyard Entrance", 0, -1, 2)  # its town side (N, turned to S) on the town
    assert not can_lay(st, tb, cfg, "Graveyard Entrance", 0, -1, 0)  # the graveyard side on the town
    e = lay(st, tb, cfg, "Graveyard Entrance", 0, -1, 2)
    assert can_lay(st, tb, cfg, "Cemetery", 0, -2)
    assert not can_lay(st, tb, cfg, "Crossroads", 0, -2)  # a base tile on the graveyard side
    assert st.w_tile[e, L.TS_TYPE] == tile_id(cfg, "Graveyard Entrance")
