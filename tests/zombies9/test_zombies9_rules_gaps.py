"""Rules of Zombies!!! that the second pass of tests/mutants/zombies9.py breaks (issue 27): each test
names its rule and the mutants it kills. Hand-fed dice (``z9dice``) and hand-built maps (z9_scene).
"""

from __future__ import annotations

import importlib

from z9_scene import (
    card_id,
    centre,
    check,
    clear,
    empty_hands,
    give,
    lay,
    pawn,
    put,
    race_map,
    sq,
    stack_on_top,
    tile_id,
)

from kernels.zombies9 import layout as L
from sim.rulesets.zombies9.config import PlayerConfig, Policy, Zombies9Config, default_config


def k(name):
    return importlib.import_module(f"kernels.zombies9.{name}")


def test_a_picked_up_life_token_never_goes_beyond_five(game):
    """A4 cap, A7 pick-up: at 5 life tokens a life token on the square stays there (z9_life_cap_pickup)."""
    cfg = default_config(2)
    st, tb, rng = game(cfg)
    clear(st, tb)
    q = sq(0, 1, 0)
    st.w_sq[q, L.SQ_LIFE] = 1
    st.w_pl[0, L.PL_LIFE] = 2 * cfg.life_cap
    k("hand").pick_up(st, tb, 0, 0, q)
    assert st.w_pl[0, L.PL_LIFE] == 2 * cfg.life_cap and st.w_sq[q, L.SQ_LIFE] == 1
    st.w_pl[0, L.PL_LIFE] = 2 * cfg.life_cap - 2
    k("hand").pick_up(st, tb, 0, 0, q)
    assert st.w_pl[0, L.PL_LIFE] == 2 * cfg.life_cap and st.w_sq[q, L.SQ_LIFE] == 0


def test_the_helipad_goes_into_the_bottom_half_of_the_stack(game):
    """A4.2 (D1 default): over 30 set-ups the Helipad is always among the last half of the base stack
    (drawn from index 0 up); a Helipad shuffled anywhere would land in the top half about half the
    time (z9_helipad_anywhere)."""
    cfg = default_config(2)
    for seed in range(1, 31):
        st, tb, rng = game(cfg, seed=seed)
        n = int(st.w_gs[L.GS_N0]) - 1  # the stack before the Helipad went in
        pos = [int(t) for t in st.w_stack[0, : n + 1]].index(int(tb.ids[L.ID_HELIPAD]))
        assert n - n // 2 <= pos <= n, (seed, pos, n)


def test_a_zombie_on_the_players_square_is_fought_at_step_two(game, z9dice):
    """A5.2 / A8.5: a zombie that ended on the pawn's square is fought at the start of the turn (no tile
    left, Fear: no move, so that fight is the only one) (z9_no_step2_fight)."""
    cfg = default_config(2, event_cards=False)
    st, tb, rng = game(cfg)
    clear(st, tb)
    put(st, tb, 4)
    st.w_gs[L.GS_TOP0] = st.w_gs[L.GS_N0]
    st.w_pl[0, L.PL_FEAR] = 1
    st.w_pl[0, L.PL_BULLETS] = 10
    with z9dice.real():
        k("turn").player_turn(st, tb, rng, 0, 0, False)
    assert st.pres[0, 0, L.PR_FIGHTS] == 1 and st.w_pl[0, L.PL_KILLS] == 1


def test_each_zombie_moves_at_most_once_a_zombie_phase(game, z9dice):
    """A9: the roll moves that many *different* zombies one square each: one zombie and a roll of 3
    is one move (z9_same_zombie_twice)."""
    cfg = default_config(2)
    st, tb, rng = game(cfg)
    clear(st, tb)
    lay(st, tb, cfg, "Crossroads", 0, -1)
    put(st, tb, sq(0, 1, 0))
    st.w_gs[L.GS_TURN] = st.w_gs[L.GS_MARBLES_END] + 1
    z9dice.script(3)
    assert k("movement").zombie_phase(st, tb, rng, 0, 0) == 1
    z9dice.done()
    assert int(st.w_moved.sum()) == 1 and st.w_gs[L.GS_BOARD] == 1
    check(st, tb)


def test_an_empty_deck_is_the_discards_shuffled(game, z9dice):
    """A10: when the event deck runs out the discards are shuffled into a new deck
    (z9_no_deck_reshuffle)."""
    st, tb, rng = game(default_config(2))
    cards = k("cards")
    while st.w_gs[L.GS_DECK_N] > 0:
        k("pieces").to_discard(st, cards.draw_card(st, rng, 0))
    m = int(st.w_gs[L.GS_DISC_N])
    with z9dice.real():
        c = cards.draw_card(st, rng, 0)
    assert c >= 0 and st.w_gs[L.GS_DECK_N] == m - 1 and st.w_gs[L.GS_DISC_N] == 0


def test_only_one_item_of_each_kind_in_play(game):
    """A10: a second Fire Axe cannot join the one in play (z9_two_of_a_kind)."""
    cfg = default_config(2)
    st, tb, rng = game(cfg)
    empty_hands(st, tb)
    k_ = lay(st, tb, cfg, "Fire Station", 0, -1)
    k("hand").put_in_play(st, tb, 0, 0, give(st, tb, cfg, 0, "Fire Axe"))
    slot = give(st, tb, cfg, 0, "Fire Axe")
    pawn(st, 0, sq(k_, 1, 1))
    st.w_pl[0, L.PL_PLAYED] = 0
    assert k("policy").item_in_play(st, 0, L.E_AXE)
    assert not k("hand").playable_item(st, tb, 0, slot)


def test_all_the_marbles_lasts_until_after_the_holders_next_turn(game, z9dice):
    """A11 All the Marbles: discarded at the end of the holder's turn, no zombie moves until after his
    next turn (n players: n turns on) (z9_marbles_this_turn_only)."""
    cfg = two(Policy(cards="heuristic"))  # Q6 holds All the Marbles for a racer
    st, tb, rng = game(cfg)
    empty_hands(st, tb)
    k_ = lay(st, tb, cfg, "Toy Store", 0, -1)
    pawn(st, 0, [sq(k_, r, c) for r in range(3) for c in range(3) if st.w_sq[sq(k_, r, c), L.SQ_BLD] == k_][0])
    k("hand").put_in_play(st, tb, 0, 0, give(st, tb, cfg, 0, "All the Marbles"))
    st.w_pl[0, L.PL_GOAL] = L.G_HELIPAD  # racing: the heuristic uses it (Q6)
    st.w_gs[L.GS_TURN] = 5
    k("cards").end_window(st, tb, rng, 0, 0)
    assert st.w_pl[0, L.PL_MARBLES] == -1
    for turn in (6, 7):  # the opponent's turn, then the holder's next turn
        st.w_gs[L.GS_TURN] = turn
        assert k("movement").zombie_phase(st, tb, rng, 0, turn % 2) == 0
    z9dice.done()


def test_the_molotov_counts_only_in_its_building(game):
    """A11 Molotov Cocktail: +2 to combats in the building it was used in, none elsewhere
    (z9_molotov_anywhere)."""
    cfg = default_config(2)
    st, tb, rng = game(cfg)
    k_ = lay(st, tb, cfg, "Gas Station", 0, -1)
    inside = [sq(k_, r, c) for r in range(3) for c in range(3) if st.w_sq[sq(k_, r, c), L.SQ_BLD] == k_][0]
    st.w_pl[0, L.PL_MOLOTOV_ON] = k_ + 1
    combat = k("combat")
    assert combat.weapon_bonus(st, tb, 0, inside) == cfg.molotov_bonus
    assert combat.weapon_bonus(st, tb, 0, sq(0, 1, 1)) == 0


def _mixed_on_top(st, tb, cfg, name, stack=0):
    """Put tile ``name`` on top of a tile stack."""
    top = st.w_gs[L.GS_TOP0 + 2 * stack]
    t = tile_id(cfg, name)
    row = [int(x) for x in st.w_stack[stack, top:st.w_gs[L.GS_N0 + 2 * stack]]]
    j = top + row.index(t)
    st.w_stack[stack, top], st.w_stack[stack, j] = st.w_stack[stack, j], st.w_stack[stack, top]


def test_the_set_aside_four_way_joins_the_graveyard_entrance(game, z9dice):
    """B4.4: when the Graveyard Entrance is laid the set-aside four-way tile is attached to it at once
    (z9_no_set_aside)."""
    cfg = default_config(2, mode="mixed")
    st, tb, rng = game(cfg)
    _mixed_on_top(st, tb, cfg, "Graveyard Entrance")
    nt = st.w_gs[L.GS_NT]
    with z9dice.real():
        assert k("turn").draw_and_lay(st, tb, rng, 0, 0, 0)
    assert st.w_gs[L.GS_NT] == nt + 2
    assert st.w_tile[nt + 1, L.TS_TYPE] == tb.ids[L.ID_SET_ASIDE]
    check(st, tb)


def test_an_empty_stack_sends_the_draw_to_the_other(game):
    """B4.5: when the stack a player would draw from is empty he draws from the other
    (z9_empty_stack_stops)."""
    cfg = default_config(2, mode="mixed")
    st, tb, rng = game(cfg)
    st.w_gs[L.GS_ENTRANCE] = 1
    st.w_gs[L.GS_HELI] = 1  # the default rule (Q9) would draw from the base stack now
    turn = k("turn")
    assert turn.choose_stack(st, tb, rng, 0, 0) == 0
    st.w_gs[L.GS_TOP0] = st.w_gs[L.GS_N0]
    assert turn.choose_stack(st, tb, rng, 0, 0) == 1
    st.w_gs[L.GS_TOP0 + 2] = st.w_gs[L.GS_N1]
    assert turn.choose_stack(st, tb, rng, 0, 0) == -1


def test_the_stack_rule_draws_from_the_graveyard_until_a_goal_is_out(game):
    """Q9 / D25 default: the graveyard stack while neither the Crematorium nor the Helipad is on the map
    (z9_q9_base_first)."""
    cfg = default_config(2, mode="mixed")
    st, tb, rng = game(cfg)
    st.w_gs[L.GS_ENTRANCE] = 1
    assert k("turn").choose_stack(st, tb, rng, 0, 0) == 1


def test_the_leader_is_never_the_player_himself(game):
    """Q6 / A10 ("an opponent" cannot be yourself): the leader o attacks is another player, even when o
    is nearest a win (z9_q6_leader_self)."""
    cfg = default_config(3)
    st, tb, rng = game(cfg)
    st.w_pl[0, L.PL_KILLS] = cfg.kills_to_win - 1
    st.w_pl[2, L.PL_KILLS] = 10
    who, turns, kind = k("policy").leader(st, tb, 0)
    assert who == 2 and kind == L.G_KILLS


# ------------------------------------------------------------------ Q1-Q8 policies (their rule, read explicitly)


def two(ann: Policy, ben: Policy | None = None, **params) -> Zombies9Config:
    return Zombies9Config(players=(PlayerConfig("Ann", ann), PlayerConfig("Ben", ben or Policy())), **params)


def test_q1_goes_for_the_helipad_within_the_margin(game):
    """Q1: the Helipad if p's turns to it are at most the best opponent's plus ``margin_turns``, else farm
    kills (z9_q1_no_margin). Ann is 9 steps off (2.6 turns), Ben 1 step (0.3): within a 3-turn margin."""
    cfg = two(Policy(goal="heuristic", margin_turns=3.0, farm_kills=0))
    st, tb, rng = game(cfg)
    heli = race_map(st, tb, cfg)
    pawn(st, 1, sq(heli, 2, 1))
    put(st, tb, sq(0, 1, 0))  # a zombie to farm
    assert k("policy").choose_goal(st, tb, 0) == L.G_HELIPAD
    cfg2 = two(Policy(goal="heuristic", margin_turns=2.0, farm_kills=0))
    st, tb, rng = game(cfg2)
    heli = race_map(st, tb, cfg2)
    pawn(st, 1, sq(heli, 2, 1))
    put(st, tb, sq(0, 1, 0))
    assert k("policy").choose_goal(st, tb, 0) == L.G_KILLS


def test_q1_takes_on_a_crematorium_of_exactly_its_means(game):
    """Q1: the Crematorium when its zombies are at most factor x (life + bullets / 2) and it is near
    (z9_q1_crematorium_strict)."""
    cfg = two(Policy(goal="heuristic", crematorium_factor=1.0, crematorium_turns=2.0), mode="mixed")
    st, tb, rng = game(cfg)
    crem = lay(st, tb, cfg, "Straight road", 0, -1)  # stands in for the Crematorium (only its place counts)
    st.w_gs[L.GS_CREM] = crem
    st.w_tile[crem, L.TS_Z] = 3
    st.w_pl[0, L.PL_LIFE], st.w_pl[0, L.PL_BULLETS] = 4, 2  # 2 life + 2 bullets / 2 = 3
    policy = k("policy")
    policy.ensure_fields(st)
    assert policy._crematorium_within_reach(st, tb, 0)
    st.w_tile[crem, L.TS_Z] = 4
    assert not policy._crematorium_within_reach(st, tb, 0)


def test_q3_a_zombie_square_costs_fight_steps_at_three_and_three(game):
    """Q3: at 3 life and 3 bullets a zombie square costs ``fight_steps`` steps (z9_q3_zombies_free)."""
    cfg = two(Policy(fight_steps=3.0))
    st, tb, rng = game(cfg)
    assert k("policy").fight_cost(st, tb, 0) == 3 * L.STEP


def test_q5_discards_the_chainsaw_at_multi_zombies(game):
    """Q5: the Chainsaw goes on when ``multi_zombies`` zombies are ahead, whatever the life (z9_q5_strict)."""
    cfg = two(Policy(multi_zombies=2, danger_life=0))
    st, tb, rng = game(cfg)
    empty_hands(st, tb)
    k_ = lay(st, tb, cfg, "Lawn & Garden Center", 0, -1)
    pawn(st, 0, [sq(k_, r, c) for r in range(3) for c in range(3) if st.w_sq[sq(k_, r, c), L.SQ_BLD] == k_][0])
    k("hand").put_in_play(st, tb, 0, 0, give(st, tb, cfg, 0, "Chainsaw"))
    combat = k("combat")
    combat.arm_for_fight(st, tb, 0, st.w_pl[0, L.PL_SQ], 1)
    assert st.w_pl[0, L.PL_CHAINSAW_ON] == 0
    combat.arm_for_fight(st, tb, 0, st.w_pl[0, L.PL_SQ], 2)
    assert st.w_pl[0, L.PL_CHAINSAW_ON] == 1 and st.w_pl[0, L.PL_CHAINSAW] == -1


def test_q6_bad_sense_of_direction_only_from_two_life_tokens(game):
    """Q6 as the model reads it (cards._wise_attack): Bad Sense of Direction costs its player a life
    token, so it is played from 2 tokens, never from the last one (z9_q6_bad_sense_low)."""
    st, tb, rng = game(default_config(2))
    wise = k("cards")._wise_attack
    st.w_pl[0, L.PL_LIFE] = 2
    assert not wise(st, tb, 0, 1, L.G_HELIPAD, L.E_BAD_SENSE)
    st.w_pl[0, L.PL_LIFE] = 4
    assert wise(st, tb, 0, 1, L.G_HELIPAD, L.E_BAD_SENSE)


def test_q7_a_zombie_on_the_leaders_square_hinders_him(game):
    """Q7: a zombie on the leader's square (or path) scores for the active player, one on his own square
    against him (z9_q7_helps_leader)."""
    cfg = two(Policy(block_weight=1.0, self_weight=1.0, near_weight=0.0))
    st, tb, rng = game(cfg)
    heli = race_map(st, tb, cfg)
    pawn(st, 1, sq(heli, 2, 1))
    st.w_pl[1, L.PL_GOAL] = L.G_HELIPAD
    policy = k("policy")
    who, goal_l, goal_s = policy.prepare_hindrance(st, tb, 0)
    assert who == 1
    assert policy.hindrance(st, tb, 0, who, goal_l, goal_s, sq(heli, 2, 1)) > 0
    assert policy.hindrance(st, tb, 0, who, goal_l, goal_s, 4) < 0


def test_q8_an_item_whose_building_is_gone_ranks_zero(game):
    """Q8: an item whose building is neither on the map nor in a stack is worth 0 (discarded first)
    (z9_q8_keeps_dead_items)."""
    cfg = default_config(2)
    st, tb, rng = game(cfg)
    empty_hands(st, tb)
    slot = give(st, tb, cfg, 0, "Fire Axe")
    c = st.w_pl[0, slot]
    policy = k("policy")
    assert policy.card_value_now(st, tb, 0, c) == tb.cards[c, L.CI_VALUE] > 0  # the Fire Station may come
    st.w_gs[L.GS_TOP0], st.w_gs[L.GS_TOP1] = st.w_gs[L.GS_N0], st.w_gs[L.GS_N1]  # no tile left
    assert policy.card_value_now(st, tb, 0, c) == 0


# ------------------------------------------------------------------ B6 kids, Part C dogs


def test_the_adult_is_fought_before_the_kid(game):
    """B6 default: a square of one adult and one kid is fought adult first (z9_kid_fought_first)."""
    cfg = default_config(2, mode="mixed", kid_rule=True)
    st, tb, rng = game(cfg)
    clear(st, tb)
    q = sq(0, 1, 0)
    put(st, tb, q, L.Z_KID)
    put(st, tb, q, L.Z_ADULT)
    pieces = k("pieces")
    assert pieces.first_figure(st, tb, q, False) == L.Z_ADULT
    assert pieces.first_figure(st, tb, q, True) == L.Z_KID


def test_dogs_stack_two_high_and_only_with_dogs(game):
    """Part C / D36 default: up to two dogs on a square, never beside an adult zombie (z9_three_dogs,
    z9_dogs_mix)."""
    cfg = default_config(2, mode="mixed", pet_cemetery_dogs=True)
    st, tb, rng = game(cfg)
    clear(st, tb)
    pieces = k("pieces")
    q, r = sq(0, 1, 0), sq(0, 1, 2)
    put(st, tb, q, L.Z_DOG, 2)
    assert not pieces.can_hold(st, tb, q, L.Z_DOG)
    put(st, tb, r, L.Z_ADULT)
    assert not pieces.can_hold(st, tb, r, L.Z_DOG)


def test_a_dog_dies_on_five_and_bites_for_half_a_life(game, z9dice):
    """Part C (D37 default 5+): a 4 fails against a dog and costs half a life token; the 5 kills it
    (z9_dog_kill_4, z9_dog_full_damage)."""
    cfg = default_config(2, mode="mixed", pet_cemetery_dogs=True)
    st, tb, rng = game(cfg)
    clear(st, tb)
    empty_hands(st, tb)
    q = sq(0, 1, 0)
    put(st, tb, q, L.Z_DOG)
    pawn(st, 0, q)
    st.w_pl[0, L.PL_LIFE], st.w_pl[0, L.PL_BULLETS] = 6, 0
    z9dice.script(4, 5)
    assert k("combat").fight(st, tb, rng, 0, 0, q, L.Z_DOG, 1)
    z9dice.done()
    assert st.w_pl[0, L.PL_LIFE] == 5 and st.w_pl[0, L.PL_KILLS] == 1


# ------------------------------------------------------------------ A11 card effects the card tests leave open


def test_the_skateboard_adds_two_before_adrenaline_doubles(game, z9dice):
    """A11: Skateboard +2 to the movement roll, added before Adrenaline Rush doubles it: a roll of 2 is
    (2 + 2) x 2 = 8 squares (z9_skateboard_after_double, z9_skateboard_one)."""
    cfg = two(Policy(cards="heuristic"))  # Q6 plays Adrenaline Rush when the roll falls short
    st, tb, rng = game(cfg)
    race_map(st, tb, cfg)
    st.w_pl[0, L.PL_SKATEBOARD] = card_id(cfg, "Skateboard")  # in play (the card itself is not moved)
    give(st, tb, cfg, 0, "Adrenaline Rush")
    z9dice.script(2)
    assert k("cards").movement_roll(st, tb, rng, 0, 0, L.G_HELIPAD, False) == (2 + 2) * 2
    z9dice.done()


def test_much_needed_rest_stops_at_five_life_tokens(game, z9dice):
    """A11 / A4: Much Needed Rest gains 2 life tokens, capped at 5 (z9_rest_over_cap)."""
    cfg = two(Policy(rest_life=4, cards="heuristic"))
    st, tb, rng = game(cfg)
    empty_hands(st, tb)
    give(st, tb, cfg, 0, "Much Needed Rest")
    st.w_pl[0, L.PL_LIFE] = 8
    assert k("cards").movement_roll(st, tb, rng, 0, 0, L.G_GATHER, False) == -1
    assert st.w_pl[0, L.PL_LIFE] == 10
    z9dice.done()


def test_zombie_cards_keep_off_the_players_squares(game):
    """A11: We're Screwed puts zombies on empty squares and Zombie Master on squares not occupied by
    players, however much the placer would like a pawn's square (z9_screwed_on_pawns, z9_master_on_pawns)."""
    cfg = default_config(2)
    st, tb, rng = game(cfg)
    clear(st, tb)
    pawn(st, 1, sq(0, 1, 0))
    cards = k("cards")
    for effect in (L.E_SCREWED, L.E_MASTER):
        st.w_score[:] = 0.0
        st.w_score[sq(0, 1, 0)] = st.w_score[4] = 100.0  # the pawns' squares score best
        cards.zombie_card(st, tb, 0, effect)
        assert st.w_sq[sq(0, 1, 0), L.SQ_ADULT] == 0 and st.w_sq[4, L.SQ_ADULT] == 0
        clear(st, tb)


def test_this_isnt_so_bad_moves_exactly_two_zombies(game):
    """A11: This Isn't So Bad moves 2 zombies, even when a third move would help too
    (z9_not_so_bad_three)."""
    cfg = default_config(2)
    st, tb, rng = game(cfg)
    clear(st, tb)
    lay(st, tb, cfg, "Crossroads", 0, -1)
    for q in (sq(0, 0, 1), sq(0, 1, 0), sq(0, 2, 1)):
        put(st, tb, q)
    st.w_score[:] = 0.0
    for q in (sq(0, 0, 1), sq(0, 1, 0), sq(0, 2, 1)):
        st.w_score[q] = -5.0
    for q in (sq(1, 1, 0), sq(1, 1, 1), sq(1, 1, 2)):
        st.w_score[q] = 8.0
    assert k("cards").zombie_card(st, tb, 0, L.E_NOT_SO_BAD) == 2
    check(st, tb)


def test_claustrophobia_takes_hold_on_the_targets_move(game, z9dice):
    """A11 Claustrophobia on the turn it hits (PL_CLAUS = 2): the pawn leaves the building by the
    shortest way with his roll (z9_claustro_ignored)."""
    cfg = two(Policy(goal="heuristic", cards="heuristic"))
    st, tb, rng = game(cfg)
    h = lay(st, tb, cfg, "Hospital", 0, -1)
    clear(st, tb)
    empty_hands(st, tb)
    pawn(st, 0, sq(h, 0, 0))
    st.w_sq[sq(h, 0, 2), L.SQ_LIFE] = 1  # a life token inside: where he would go otherwise
    st.w_pl[0, L.PL_LIFE] = 4
    st.w_pl[0, L.PL_CLAUS] = 2
    z9dice.script(3)
    k("turn")._movement(st, tb, rng, 0, 0)
    z9dice.done()
    assert st.w_pl[0, L.PL_SQ] == sq(h, 2, 1)


def test_q2_lays_a_good_tile_near_itself_and_away_from_the_leader(game, z9dice):
    """Q2: maximise value x (leader's steps - own steps): the Helipad goes on Ann's side of the Town
    Square, away from Ben (z9_q2_own_side)."""
    cfg = two(Policy(helipad_value=20.0, zombie_value=0.0, token_value=0.0, frontier_value=0.0))
    st, tb, rng = game(cfg)
    clear(st, tb)
    empty_hands(st, tb)
    pawn(st, 0, sq(0, 1, 0))  # west
    pawn(st, 1, sq(0, 1, 2))  # east
    t = tile_id(cfg, "Helipad")
    n = k("board").list_placements(st, tb, t)
    with z9dice.real():
        i = k("policy").choose_placement(st, tb, rng, 0, 0, t, n)
    assert st.w_cand[i, 0] < centre(tb)  # west of the Town Square


# ------------------------------------------------------------------ A1 / D11 pools, B3 alone


def test_an_empty_pool_places_no_figure(game):
    """A1 / D11 default: a placement beyond the figures is skipped (z9_empty_pool_places)."""
    cfg = default_config(2)
    st, tb, rng = game(cfg)
    clear(st, tb)
    st.w_gs[L.GS_POOL_ADULT] = 0
    assert not k("pieces").add_zombie(st, tb, sq(0, 1, 0), L.Z_ADULT)
    assert st.w_sq[sq(0, 1, 0), L.SQ_ADULT] == 0


def test_alone_the_pawns_start_on_the_graveyard_entrance(game):
    """B3: playing Zombies!!! 9 alone, the Graveyard Entrance replaces the Town Square
    (z9_alone_starts_four_way)."""
    cfg = default_config(2, mode="alone")
    st, tb, rng = game(cfg)
    assert st.w_tile[0, L.TS_TYPE] == tile_id(cfg, "Graveyard Entrance")
    assert st.w_pl[0, L.PL_SQ] == st.w_pl[1, L.PL_SQ] == 4


# ------------------------------------------------------------------ D readings (defaults)


def test_the_helipad_gets_a_zombie_on_every_square(game, z9dice):
    """D2 default: 9 zombies on the Helipad, one a square (z9_helipad_eight)."""
    cfg = default_config(2)
    st, tb, rng = game(cfg)
    clear(st, tb)
    heli = lay(st, tb, cfg, "Helipad", 0, -1)
    assert k("pieces").populate(st, tb, rng, 0, heli) == 9
    z9dice.done()


def test_a_death_keeps_the_hand(game):
    """D9 default: cards in hand are kept on death (z9_death_discards_hand)."""
    cfg = default_config(2)
    st, tb, rng = game(cfg)
    hand = k("hand").hand_count(st, tb, 0)
    assert hand > 0
    k("combat").death(st, tb, 0, 0)
    assert k("hand").hand_count(st, tb, 0) == hand


def test_the_helipad_is_placed_by_its_drawer(game):
    """D19 default: the drawer places the Helipad, whoever has most kills; the option gives it to the
    most kills (z9_helipad_most_kills)."""
    for option, placer in ((False, 0), (True, 1)):
        cfg = default_config(2, helipad_placer="most_kills" if option else "drawer")
        st, tb, rng = game(cfg)
        st.w_pl[1, L.PL_KILLS] = 5
        assert k("turn")._placer(st, tb, 0, tile_id(cfg, "Helipad")) == placer


def test_kills_do_not_win_alone(game):
    """D28 / B8 default: playing Zombies!!! 9 alone, 25 kills do not win (z9_alone_kills_win)."""
    combat = k("combat")
    for mode, wins in (("alone", False), ("base", True)):
        st, tb, rng = game(default_config(2, mode=mode))
        assert bool(combat.kills_win_on(tb)) == wins


def test_q2_never_closes_the_map_while_another_placement_fits(game, z9dice):
    """Q2 / A6: a placement that leaves no open road edge (it costs the rest of the turn) is taken only
    when nothing else fits. The Town Square's south exit is the map's last open edge; a dead end laid
    there closes the map and scores best (Ann beside it, Ben across the square); the other candidate
    (a cell off the map's edge, scored 0: the rule looks only at scores and open edges) must win
    (z9_q2_closes_map)."""
    cfg = two(Policy(zombie_value=-1.0, token_value=1.0, item_value=0.0, helipad_value=0.0, frontier_value=0.0))
    st, tb, rng = game(cfg)
    for dx, dy, r in ((0, -1, 0), (1, 0, 1), (-1, 0, 3)):  # dead ends facing the Town Square
        lay(st, tb, cfg, "Police Station", dx, dy, r)
    clear(st, tb)
    empty_hands(st, tb)
    board = k("board")
    assert board.open_edges(st) == 1
    pawn(st, 0, sq(0, 2, 1))
    pawn(st, 1, sq(0, 0, 1))
    c = centre(tb)
    st.w_cand[0, :3] = (c, c + 1, 2)  # joins the last open edge: closes the map
    st.w_cand[1, :3] = (c + 3, c + 3, 0)
    with z9dice.real():
        assert k("policy").choose_placement(st, tb, rng, 0, 0, tile_id(cfg, "Police Station"), 2) == 1


def test_where_did_everybody_go_fights_through_even_where_a_won_fight_ends_a_move(game, z9dice):
    """A11 Where Did Everybody Go?: the target fights every zombie met and goes on, also under D6's
    option ``continue_after_fight = false`` (under the default a won fight never stops a move, so only
    the option shows it) (z9_everybody_stops)."""
    cfg = two(Policy(), Policy(threat_turns=1000.0, cards="heuristic"), continue_after_fight=False)
    st, tb, rng = game(cfg)
    heli = race_map(st, tb, cfg)
    pawn(st, 0, sq(heli, 2, 1))
    put(st, tb, sq(2, 1, 1))
    give(st, tb, cfg, 1, "Where Did Everybody Go?")
    z9dice.script(6)
    k("cards").pre_turn_window(st, tb, rng, 0, 0)
    z9dice.done()
    assert st.w_pl[0, L.PL_SQ] == sq(1, 1, 1) and st.w_pl[0, L.PL_KILLS] == 1  # five squares, as without the option


def test_kids_only_where_the_squares_run_out(game, z9dice):
    """B6 / D32 default: with the kid rule a tile whose zombies fit one a square gets no kid (the
    aggressive placement would stack two pairs on the Crossroads' 4) (z9_kids_aggressive)."""
    cfg = default_config(2, mode="mixed", kid_rule=True)
    st, tb, rng = game(cfg)
    clear(st, tb)
    t = lay(st, tb, cfg, "Crossroads", 0, -1)
    assert k("pieces").populate(st, tb, rng, 0, t) == 4
    assert st.w_sq[9 * t: 9 * t + 9, L.SQ_KID].sum() == 0
    z9dice.done()


def test_an_automatic_card_dealt_at_the_set_up_resolves_and_is_not_replaced(game, z9dice):
    """D30 / B5: an Automatic card among the first three resolves after the deal, and the hand stays
    one short (z9_deal_keeps_automatic)."""
    cfg = default_config(2, mode="mixed")
    st, tb, rng = game(cfg)
    empty_hands(st, tb)
    stack_on_top(st, cfg, "Dust to Dust")
    st.w_pl[1, L.PL_LIFE] = 10
    k("cards").deal(st, tb, rng, 0, 0)
    z9dice.done()
    hand = k("hand")
    assert hand.hand_count(st, tb, 0) == cfg.hand_size - 1 and hand.hand_count(st, tb, 1) == cfg.hand_size
    assert st.w_pl[1, L.PL_LIFE] == 2 * cfg.start_life  # Dust to Dust resolved
