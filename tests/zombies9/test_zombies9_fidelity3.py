"""Rules of issue 27 (items 18-21), each on a hand-built scene with the kernels as plain Python."""

from __future__ import annotations

from z9_scene import clear, empty_hands, give, lay, pawn, put, sq, tile_id

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
