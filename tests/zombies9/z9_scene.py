"""Hand-built Zombies!!! scenes for the rule tests (kernels as plain Python, see conftest)."""

from __future__ import annotations

import importlib

from kernels.zombies9 import board, pieces
from kernels.zombies9 import layout as L
from sim.rulesets.zombies9.compile import game_of


def tile_id(config, name: str) -> int:
    return [t.name for t in game_of(config).tiles].index(name)


def centre(tb) -> int:
    return int(tb.ids[L.ID_GRID]) // 2


def lay(st, tb, config, name: str, dx: int, dy: int, r: int = 0) -> int:
    """Lay tile ``name`` dx cells east and dy cells south of the start tile; returns its slot."""
    c = centre(tb)
    return board.place_tile(st, tb, tile_id(config, name), c + dx, c + dy, r)


def can_lay(st, tb, config, name: str, dx: int, dy: int, r: int = 0) -> bool:
    c = centre(tb)
    return bool(board.can_place(st, tb, tile_id(config, name), c + dx, c + dy, r))


def sq(slot: int, row: int, col: int) -> int:
    return 9 * slot + 3 * row + col


def clear(st, tb) -> None:
    """No figure and no token anywhere (figures back to their pools)."""
    for q in range(9 * st.w_gs[L.GS_NT]):
        for kind in (L.Z_ADULT, L.Z_KID, L.Z_DOG):
            col = pieces.figure_column(kind)
            while st.w_sq[q, col] > 0:
                pieces.take_zombie(st, tb, q, kind)
                pieces.return_to_pool(st, kind, 1)
        st.w_sq[q, L.SQ_LIFE] = st.w_sq[q, L.SQ_BULLET] = 0


def put(st, tb, q: int, kind: int = L.Z_ADULT, n: int = 1) -> None:
    for _ in range(n):
        assert pieces.add_zombie(st, tb, q, kind), f"no room for a figure on square {q}"


def pawn(st, p: int, q: int) -> None:
    pieces.set_pawn(st, p, q)


def empty_hands(st, tb) -> None:
    """Every hand card back on the discard pile."""
    for p in range(st.w_pl.shape[0]):
        for i in range(L.PL_HAND, L.PL_HAND + L.MAX_HAND):
            if st.w_pl[p, i] >= 0:
                pieces.to_discard(st, st.w_pl[p, i])
                st.w_pl[p, i] = -1


def card_id(config, name: str) -> int:
    return [c.name for c in game_of(config).cards].index(name)


def give(st, tb, config, p: int, name: str) -> int:
    """Move one copy of card ``name`` from the draw pile or discards into p's hand."""
    c = card_id(config, name)
    for pile, key in ((st.w_deck, L.GS_DECK_N), (st.w_discard, L.GS_DISC_N)):
        n = st.w_gs[key]
        for i in range(n):
            if pile[i] == c:
                pile[i] = pile[n - 1]
                st.w_gs[key] = n - 1
                for s in range(L.PL_HAND, L.PL_HAND + L.MAX_HAND):
                    if st.w_pl[p, s] < 0:
                        st.w_pl[p, s] = c
                        return s
    raise AssertionError(f"no {name!r} left to give")


def stack_on_top(st, config, name: str) -> None:
    """Put a copy of card ``name`` on top of the draw pile (taken from wherever it is)."""
    c = card_id(config, name)
    for pile, key in ((st.w_deck, L.GS_DECK_N), (st.w_discard, L.GS_DISC_N)):
        n = st.w_gs[key]
        for i in range(n):
            if pile[i] == c:
                if pile is st.w_deck:
                    st.w_deck[i], st.w_deck[n - 1] = st.w_deck[n - 1], st.w_deck[i]
                    return
                pile[i] = pile[n - 1]
                st.w_gs[key] = n - 1
                st.w_deck[st.w_gs[L.GS_DECK_N]] = c
                st.w_gs[L.GS_DECK_N] += 1
                return
    raise AssertionError(f"no {name!r} in the piles")


def _kernel(name: str):
    """The kernels module by name at call time (a fixture may have swapped its kernels)."""
    return importlib.import_module(f"kernels.zombies9.{name}")


def race_map(st, tb, cfg) -> int:
    """Town Square, two straight roads north, the Helipad: its centre 9 steps from the Town
    Square's; hands empty, no zombies. Returns the Helipad's tile."""
    lay(st, tb, cfg, "Straight road", 0, -1)
    lay(st, tb, cfg, "Straight road", 0, -2)
    heli = lay(st, tb, cfg, "Helipad", 0, -3)
    st.w_gs[L.GS_HELI] = heli
    clear(st, tb)
    empty_hands(st, tb)
    _kernel("policy").ensure_fields(st)
    return heli


def check(st, tb) -> None:
    """Every invariant holds (kernels.zombies9.turn.count_violations)."""
    assert _kernel("turn").count_violations(st, tb) == 0
