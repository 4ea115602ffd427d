"""Rules of issue 27 (items 18-21), each on a hand-built scene with the kernels as plain Python."""

from __future__ import annotations

from z9_scene import clear, empty_hands, lay, pawn, put, sq

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
