"""Rules of issue 27 (items 18-21), each on a hand-built scene with the kernels as plain Python."""

from __future__ import annotations

from z9_scene import can_lay, clear, empty_hands, give, lay, pawn, put, sq, tile_id

from kernels.zombies9 import layout as L
from sim.rulesets.zombies9.config import default_config


def _k(name):
    import importlib

    return importlib.import_module(f"kernels.zombies9.{name}")


def _alone_scene(game):
    """Alone, 3 players: a Cemetery north of the Entrance with one zombie on its centre, two
    four-way tiles south; Ann on the Entrance, Ben far south, Cat one step from the zombie."""
    cfg = default_config(3, mode="alone")
    st, tb, rng = game(cfg)
    clear(st, tb)
    empty_hands(st, tb)
    cem = lay(st, tb, cfg, "Cemetery", 0, -1)
    lay(st, tb, cfg, "Four-way path", 0, 1)
    far = lay(st, tb, cfg, "Four-way path", 0, 2)
    put(st, tb, sq(cem, 1, 1))
    pawn(st, 0, sq(0, 1, 1))
    pawn(st, 1, sq(far, 2, 1))
    pawn(st, 2, sq(cem, 2, 1))
    st.w_gs[L.GS_TOP1] = st.w_gs[L.GS_N1]  # the graveyard stack is done
    return st, tb


def test_q6_leader_alone_is_the_opponent_closest_to_the_cemeteries(game):
    """Q6 / B8: the leader is the opponent closest to winning; alone that is the one nearest the
    Cemeteries' last zombie (not the next seat), and nobody is near a win before the graveyard
    stack is done (D27)."""
    st, tb = _alone_scene(game)
    policy = _k("policy")
    st.w_gs[L.GS_TOP1] = st.w_gs[L.GS_N1]  # the graveyard stack is done
    who, turns, kind = policy.leader(st, tb, 0)
    assert (who, kind) == (2, L.G_CEMETERY)
    pawn(st, 1, sq(0, 0, 1))  # Ben steps to two squares from the zombie, Cat walks away south
    pawn(st, 2, sq(3, 2, 1))
    assert policy.leader(st, tb, 0)[0] == 1
    st.w_gs[L.GS_TOP1] = st.w_gs[L.GS_N1] - 9  # nine tiles left: three rounds at least
    who, turns, kind = policy.leader(st, tb, 0)
    assert turns >= 9 / 3


def test_d26_empty_trigger_needs_a_crematorium_that_held_zombies(game, z9dice):
    """Seed: the Crematorium is won "by killing all of the zombies" on it; under D26's
    alternative (`crematorium_trigger = "empty"`) a Crematorium laid with no zombie (the pool
    ran out, D11) wins nothing until a zombie has stood on it."""
    cfg = default_config(2, mode="mixed", crematorium_trigger="empty")
    st, tb, rng = game(cfg)
    clear(st, tb)
    st.w_gs[L.GS_POOL_ADULT] = 0  # D11: the pool is empty, the Crematorium is laid bare
    turn = _k("turn")
    c = int(tb.ids[L.ID_GRID]) // 2
    k = turn.lay(st, tb, rng, 0, 0, tile_id(cfg, "Crematorium"), c, c - 1, 0)  # north of the Town Square
    assert st.w_gs[L.GS_CREM] == k and st.w_tile[k, L.TS_Z] == 0
    turn.check_empty_wins(st, tb, 0)
    assert st.w_gs[L.GS_WINNER] == -1  # never populated: nothing to kill, no win
    st.w_gs[L.GS_POOL_ADULT] = 5
    put(st, tb, sq(k, 2, 1))  # a zombie wanders in ...
    turn.check_empty_wins(st, tb, 1)
    assert st.w_gs[L.GS_WINNER] == -1
    _k("pieces").move_zombie(st, tb, sq(k, 2, 1), sq(0, 0, 1), L.Z_ADULT)  # ... and out: empty again
    turn.check_empty_wins(st, tb, 1)
    assert (st.w_gs[L.GS_WINNER], st.w_gs[L.GS_REASON]) == (1, L.REASON_CREMATORIUM)
    z9dice.done()


def test_d15_first_aid_kit_in_the_hospital_and_the_drug_store(game):
    """D15 option: the First Aid Kit is played in the Hospital or the Drug Store, whichever of
    them was laid first."""
    for first in ("Hospital", "Drug Store"):
        cfg = default_config(2, first_aid_drug_store=True)
        st, tb, rng = game(cfg)
        empty_hands(st, tb)
        order = [("Hospital", 0, -1), ("Drug Store", 1, 0)]
        if first == "Drug Store":
            order.reverse()
        slots = {name: lay(st, tb, cfg, name, dx, dy) for name, dx, dy in order}
        s = give(st, tb, cfg, 0, "First Aid Kit")
        hand = _k("hand")
        pawn(st, 0, sq(slots["Hospital"], 1, 1))
        assert hand.playable_item(st, tb, 0, s), f"{first} first: not playable in the Hospital"
        pawn(st, 0, sq(slots["Drug Store"], 0, 1))
        assert hand.playable_item(st, tb, 0, s), f"{first} first: not playable in the Drug Store"
        pawn(st, 0, sq(0, 1, 1))
        assert not hand.playable_item(st, tb, 0, s)
    cfg = default_config(2)  # D15 default: the Hospital only
    st, tb, rng = game(cfg)
    empty_hands(st, tb)
    d = lay(st, tb, cfg, "Drug Store", 1, 0)
    s = give(st, tb, cfg, 0, "First Aid Kit")
    pawn(st, 0, sq(d, 0, 1))
    assert not _k("hand").playable_item(st, tb, 0, s)


def test_part_c_random_baseline_dog_moves_one_or_two_squares(game, z9dice):
    """Part C: a dog chosen to move goes 1 or 2 squares; the random baseline (Q7 `zombies =
    "random"`) draws uniformly among every legal (figure, destination), two-square ones too."""
    cfg = default_config(2, mode="mixed", pet_cemetery_dogs=True)
    st, tb, rng = game(cfg)
    clear(st, tb)
    for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
        lay(st, tb, cfg, "Crossroads", dx, dy)
    start = sq(0, 1, 1)
    put(st, tb, start, L.Z_DOG)
    one = {st.w_nb[start, d] for d in range(4) if st.w_nb[start, d] >= 0}
    two = {st.w_nb[t, e] for t in one for e in range(4) if st.w_nb[t, e] >= 0} - one - {start}
    movement = _k("movement")
    st.w_moved[:] = 0
    assert movement._count_moves(st, tb, -1) == len(one) + len(two)
    movement._count_moves(st, tb, len(one) + len(two) - 1)  # the last move listed
    ends = [q for q in range(9 * st.w_gs[L.GS_NT]) if st.w_sq[q, L.SQ_DOGS] > 0]
    assert len(ends) == 1 and ends[0] in two
    cfg1 = default_config(2, mode="mixed", pet_cemetery_dogs=True, dog_moves=1)
    st, tb, rng = game(cfg1)
    clear(st, tb)
    for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
        lay(st, tb, cfg1, "Crossroads", dx, dy)
    put(st, tb, start, L.Z_DOG)
    st.w_moved[:] = 0
    assert movement._count_moves(st, tb, -1) == len(one)  # dog_moves = 1: one square only


def test_d24_seed_reading_only_z9_tiles_are_bound_to_the_graveyard(game):
    """Seed 004 (B4.5): "Z!!!9 tiles must be attached to the graveyard"; base tiles are laid "as
    with the original rules" (A6), so by default (D24 decided for the seed) a base tile may touch
    a Z9 tile; `graveyard_separate = true` is the spec's stricter reading."""
    cfg = default_config(2, mode="mixed")
    st, tb, rng = game(cfg)
    assert not can_lay(st, tb, cfg, "Cemetery", 0, -1)  # a Z9 tile still joins only the graveyard
    lay(st, tb, cfg, "Graveyard Entrance", 0, -1, 2)
    cem = lay(st, tb, cfg, "Cemetery", 0, -2)
    assert can_lay(st, tb, cfg, "Crossroads", 1, -2)  # a base tile beside the Cemetery (A6 only)
    assert can_lay(st, tb, cfg, "Crossroads", 0, -3)
    assert st.w_tile[cem, L.TS_TYPE] == tile_id(cfg, "Cemetery")
    strict = default_config(2, mode="mixed", graveyard_separate=True)
    st, tb, rng = game(strict)
    lay(st, tb, strict, "Graveyard Entrance", 0, -1, 2)
    lay(st, tb, strict, "Cemetery", 0, -2)
    assert not can_lay(st, tb, strict, "Crossroads", 0, -3)


def test_a6_unplaceable_graveyard_entrance_discarded_or_shuffled_back(game, z9dice):
    """A6: a tile that fits nowhere is discarded (the default, the Entrance too); with
    `entrance_reshuffle` the Graveyard Entrance goes back among the base tiles left, as the
    Helipad does, so the expansion is not lost."""
    for reshuffle in (False, True):
        cfg = default_config(2, mode="mixed", entrance_reshuffle=reshuffle)
        st, tb, rng = game(cfg)
        for dx, dy, r in ((0, -1, 0), (1, 0, 1), (-1, 0, 3), (0, 1, 2)):
            lay(st, tb, cfg, "Hospital", dx, dy, r)  # four dead ends: nothing fits
        entrance = tile_id(cfg, "Graveyard Entrance")
        top = st.w_gs[L.GS_TOP0]
        at = top + list(st.w_stack[0, top: st.w_gs[L.GS_N0]]).index(entrance)
        st.w_stack[0, top], st.w_stack[0, at] = entrance, st.w_stack[0, top]  # the Entrance on top
        if reshuffle:
            z9dice.script(0.0)  # where it goes back among the tiles left: on top
        _k("turn").tile_phase(st, tb, rng, 0, 0)
        if reshuffle:
            assert st.w_gs[L.GS_TOP0] == top and st.w_stack[0, top] == entrance
        else:
            assert st.w_gs[L.GS_TOP0] == top + 1 and entrance not in st.w_stack[0, top + 1: st.w_gs[L.GS_N0]]
        assert st.w_gs[L.GS_ENTRANCE] == -1
    z9dice.done()


def test_b6_kid_rule_alone_is_refused_when_it_cannot_change_anything():
    """Issue 27 (inert options): alone, D32's default placement never uses a kid with these
    tiles (none prints more zombies than squares), so `kid_rule` is refused in one line; it is
    accepted where it plays (mixed; alone with `kid_placement = "aggressive"`)."""
    import pytest

    from sim.rulesets.zombies9.compile import compile_tables
    from sim.rulesets.zombies9.config import ConfigError

    with pytest.raises(ConfigError, match=r"^kid_rule = true with mode = 'alone' changes nothing.*allowed:"):
        compile_tables(default_config(4, mode="alone", kid_rule=True))
    compile_tables(default_config(4, mode="alone", kid_rule=True, kid_placement="aggressive"))
    compile_tables(default_config(4, mode="mixed", kid_rule=True))


def test_d28_alone_kills_win_is_a_goal_the_policy_pursues(game):
    """D28's option: with `alone_kills_win` the 25-kill win counts alone, so the Q1 goal turns to
    kills from `farm_kills` on and the threat estimate (Q6) counts the collection."""
    for option in (False, True):
        st, tb = _alone_scene_cfg(game, default_config(3, mode="alone", alone_kills_win=option))
        st.w_pl[1, L.PL_KILLS] = 24
        policy = _k("policy")
        goal = policy.choose_goal(st, tb, 1)
        assert goal == (L.G_KILLS if option else L.G_CEMETERY)
        who, turns, kind = policy.leader(st, tb, 0)
        assert (who, kind) == ((1, L.G_KILLS) if option else (2, L.G_CEMETERY))


def _alone_scene_cfg(game, cfg):
    st, tb, rng = game(cfg)
    clear(st, tb)
    empty_hands(st, tb)
    cem = lay(st, tb, cfg, "Cemetery", 0, -1)
    put(st, tb, sq(cem, 1, 1))
    pawn(st, 0, sq(0, 1, 1))
    pawn(st, 1, sq(0, 2, 1))
    pawn(st, 2, sq(cem, 2, 1))
    st.w_gs[L.GS_TOP1] = st.w_gs[L.GS_N1]  # the graveyard stack is done
    return st, tb
