"""Rules of Zombies!!! that a mutant of tests/mutants/zombies9.py breaks (named in each docstring):
hand-fed dice (``z9dice``) and hand-built maps (z9_scene), at the rules' edge cases.
"""

from __future__ import annotations

from z9_scene import can_lay, clear, empty_hands, give, lay, pawn, put, sq

from kernels.zombies9 import layout as L
from sim.rulesets.zombies9.config import default_config


def _k(name):
    import importlib

    return importlib.import_module(f"kernels.zombies9.{name}")


def test_a_roll_equal_to_the_kill_number_kills(z9dice, rng):
    """A8: 4 or more kills, with no bullet and no life lost, under every Q4 rule (z9_kill_strict: under
    the default rule a shortfall of 0 would be bought for 0 bullets, so it shows under hearts-first)."""
    for rule in (L.COMBAT_RULE, L.COMBAT_HEARTS, L.COMBAT_BULLETS):
        z9dice.script(4)
        assert _k("combat").combat_core(rng, 0, 4, 0, 2, 6, 0, 0, rule) == (True, 6, 0, 0, 1)
        z9dice.done()


def test_bullets_buy_exactly_the_shortfall_and_a_lost_roll_costs_a_whole_life(z9dice, rng):
    """A8, D17: one bullet per point short; a failed roll costs one life token (two halves)
    (z9_bullets_short, z9_life_loss)."""
    core = _k("combat").combat_core
    z9dice.script(2)  # two short, two lives, two bullets: Q4 spends both
    assert core(rng, 0, 4, 0, 2, 4, 2, 0, L.COMBAT_RULE) == (True, 4, 0, 0, 1)
    z9dice.script(1, 6)  # three short, three lives: a life, then a kill
    assert core(rng, 0, 4, 0, 2, 6, 0, 0, L.COMBAT_RULE) == (True, 4, 0, 0, 2)
    z9dice.done()


def test_q4_spends_at_two_lives(z9dice):
    """Q4: spend when life + kits <= 2 (z9_q4_rule)."""
    cs = getattr(_k("combat").choose_spend, "py_func", _k("combat").choose_spend)
    assert cs(2, 4, 2, 0, 2, L.COMBAT_RULE) and not cs(2, 6, 2, 0, 2, L.COMBAT_RULE)


def test_a_z9_tile_must_join_the_graveyard_even_where_town_and_graveyard_may_touch(game):
    """B4.5 / D24: with ``graveyard_separate = false`` (town and graveyard tiles may touch) a Zombies!!! 9
    tile still needs a placed Z9 tile beside it (z9_graveyard_join)."""
    cfg = default_config(2, mode="mixed", graveyard_separate=False)
    st, tb, rng = game(cfg)
    assert not any(can_lay(st, tb, cfg, "Cemetery", 0, -1, r) for r in range(4))  # beside the town only
    lay(st, tb, cfg, "Graveyard Entrance", 0, -1, 2)
    assert any(can_lay(st, tb, cfg, "Cemetery", 0, -2, r) for r in range(4))


def test_one_weapon_per_combat(game):
    """A10: the best weapon in play, not the sum (z9_weapons_stack)."""
    cfg = default_config(2)
    st, tb, rng = game(cfg)
    clear(st, tb)
    empty_hands(st, tb)
    _k("hand").put_in_play(st, tb, 0, 0, give(st, tb, cfg, 0, "Fire Axe"))
    st.w_pl[0, L.PL_CHAINSAW_ON] = 1
    assert _k("combat").weapon_bonus(st, tb, 0, 4) == 2  # the Chainsaw's +2, not +3


def test_players_start_with_three_life_three_bullets_and_three_cards(game):
    """A4, A5 (z9_start_life, z9_hand_size)."""
    st, tb, rng = game(default_config(2))
    for p in range(2):
        pl = st.w_pl[p]
        assert (pl[L.PL_LIFE], pl[L.PL_BULLETS]) == (6, 3)  # life in halves
        assert sum(pl[i] >= 0 for i in range(L.PL_HAND, L.PL_HAND + L.MAX_HAND)) == 3


def test_a_pawn_passing_through_takes_the_tokens_and_goes_on_after_a_won_fight(game, z9dice):
    """D7: tokens are picked up when passing through; D6: a won fight does not end the move
    (z9_pickup_never, z9_no_continue)."""
    cfg = default_config(2)
    st, tb, rng = game(cfg)
    clear(st, tb)
    empty_hands(st, tb)
    k = lay(st, tb, cfg, "Straight road", 0, -1, 0)
    q = sq(k, 1, 1)
    st.w_sq[q, L.SQ_LIFE] = 1
    put(st, tb, q)
    pawn(st, 0, sq(k, 2, 1))
    z9dice.script(6)
    status = _k("movement").enter_square(st, tb, rng, 0, 0, q, False, False)
    z9dice.done()
    assert st.w_sq[q, L.SQ_LIFE] == 0 and status != _k("movement").STOPPED


def test_a_zombie_sharing_a_pawns_square_may_be_moved(game):
    """D10 default: allowed (z9_shared_square)."""
    st, tb, rng = game(default_config(2))
    clear(st, tb)
    put(st, tb, 4)
    pawn(st, 0, 4)
    assert _k("movement")._movable(st, tb, 4, L.Z_ADULT) == 1


def test_the_zombie_roll_moves_that_many_figures(game, z9dice):
    """A9: a D6 of 1 moves one figure one square, however many moves would help (z9_zombie_moves_all)."""
    cfg = default_config(2)
    st, tb, rng = game(cfg)
    clear(st, tb)
    k = lay(st, tb, cfg, "Crossroads", 0, -1)
    for q in (sq(k, 0, 1), sq(k, 1, 0), sq(k, 1, 2), sq(0, 2, 1), sq(0, 1, 0)):
        put(st, tb, q)
    pawn(st, 0, sq(0, 1, 1))
    pawn(st, 1, sq(k, 1, 1))
    st.w_gs[L.GS_TURN] = st.w_gs[L.GS_MARBLES_END] + 1
    z9dice.script(1)
    assert _k("movement").zombie_phase(st, tb, rng, 0, 0) == 1
    z9dice.done()
    assert int(st.w_moved.sum()) == 1


def test_only_the_helipad_centre_wins(game, z9dice):
    """A12, D18: the centre square of the Helipad, not any of its squares (z9_helipad_any_square)."""
    cfg = default_config(2)
    st, tb, rng = game(cfg)
    clear(st, tb)
    empty_hands(st, tb)
    movement = _k("movement")
    k = lay(st, tb, cfg, "Helipad", 0, -1)
    st.w_gs[L.GS_HELI] = k
    pawn(st, 0, sq(0, 0, 1))
    assert movement.enter_square(st, tb, rng, 0, 0, sq(k, 2, 1), True, False) != movement.WON
    assert st.w_gs[L.GS_WINNER] == -1
    assert movement.enter_square(st, tb, rng, 0, 0, sq(k, 1, 1), True, False) == movement.WON
    z9dice.done()
