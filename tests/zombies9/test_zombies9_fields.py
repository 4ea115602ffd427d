"""The distance fields (``board.field_run``, ``steps_from``, Q3): every search gives the least costs.

The game's searches are a label-correcting queue (weighted fields, seeds at any value) and a
breadth-first search (unweighted fields with every seed at 0); which one runs must not matter,
since the least costs are unique. Both are checked square for square against Dijkstra's search
written here on maps grown by real turns (kernels as plain Python, see conftest).
"""

from __future__ import annotations

import heapq

import numpy as np
import pytest

from kernels.zombies9 import layout as L
from sim.rulesets.zombies9.config import default_config


def _k(name):
    import importlib

    return importlib.import_module(f"kernels.zombies9.{name}")


def _least_costs(st, seeds: dict, step: int, zc: int, no_buildings: bool) -> np.ndarray:
    """f[q] = least cost from q to a seed, entering x costing step + zc x its zombies; a building
    square (with ``no_buildings``) is reached but not walked through; BIG where unreachable."""
    board = _k("board")
    n = 9 * int(st.w_gs[L.GS_NT])
    dist = dict(seeds)
    heap = [(v, q) for q, v in seeds.items()]
    heapq.heapify(heap)
    while heap:
        d, x = heapq.heappop(heap)
        if d > dist[x] or (no_buildings and board.is_inside(st, x)):
            continue
        fx = d + step + zc * int(board.zombies_at(st, x))
        for k in range(4):
            y = int(st.w_nb[x, k])
            if y >= 0 and fx < dist.get(y, L.BIG):
                dist[y] = fx
                heapq.heappush(heap, (fx, y))
    return np.array([dist.get(q, L.BIG) for q in range(n)])


def _grown(game, z9dice, mode: str, turns: int):
    """A 4-player game after ``turns`` player turns with real dice (a map of several tiles, zombies
    on it): its state and tables."""
    st, tb, rng = game(default_config(4, mode=mode), seed=3)
    turn = _k("turn")
    with z9dice.real():
        for i in range(turns):
            if turn.is_over(st):
                break
            turn.player_turn(st, tb, rng, 0, i % 4, False)
    return st, tb


@pytest.mark.parametrize("mode", ["base", "mixed"])
def test_every_field_search_gives_the_least_costs(game, z9dice, mode):
    board = _k("board")
    st, _ = _grown(game, z9dice, mode, 24)
    n = 9 * int(st.w_gs[L.GS_NT])
    assert n >= 9 * 6 and sum(int(board.zombies_at(st, q)) for q in range(n)) > 0  # a map worth searching
    f = L.F_TMP
    for q in range(0, n, 5):  # steps from a square (the breadth-first search)
        board.steps_from(st, f, q)
        assert np.array_equal(st.w_field[f, :n], _least_costs(st, {q: 0}, 1, 0, False)), q
    pick = np.random.default_rng(7)
    for case in range(40):  # seeds anywhere, at 0 or at any value, weighted or not, buildings or not
        seeds = {int(q): 0 for q in pick.choice(n, size=1 + case % 6, replace=False)}
        if case % 2:
            seeds = {q: int(pick.integers(0, 40)) for q in seeds}
        step, zc, no_buildings = (1, 0, False) if case % 4 < 2 else (L.STEP, int(pick.integers(0, 30)), case % 8 >= 4)
        st.w_field[f, :n] = L.BIG
        for q, v in seeds.items():
            st.w_field[f, q] = v
        board.field_run(st, f, step, zc, no_buildings)
        assert np.array_equal(st.w_field[f, :n], _least_costs(st, seeds, step, zc, no_buildings)), case


def test_steps_from_never_serves_a_field_of_an_older_map(game, z9dice):
    """``steps_from`` keeps its last fields (layout.N_FC, keyed by map version and square): asked
    again on the same map it gives the search's numbers, and after a tile is laid the fields
    it kept are not served (a fresh search reaches the new tile)."""
    board = _k("board")
    st, tb = _grown(game, z9dice, "base", 12)
    n = 9 * int(st.w_gs[L.GS_NT])
    sources = [int(st.w_pl[p, L.PL_SQ]) for p in range(4)] + [0, n - 1, n // 2]
    f, g = L.F_FROM_S, L.F_FROM_L
    for _ in range(2):  # the second round is served from the cache (more sources than it holds)
        for q in sources:
            board.steps_from(st, f, q)
            assert np.array_equal(st.w_field[f, :n], _least_costs(st, {q: 0}, 1, 0, False)), q
    board.steps_from(st, g, sources[0])  # kept, then the map grows
    t = next(t for t in range(tb.tile_sq.shape[0]) if board.list_placements(st, tb, t) > 0)
    board.place_tile(st, tb, t, *st.w_cand[0])
    m = 9 * int(st.w_gs[L.GS_NT])
    for q in sources[:1] + sources:
        board.steps_from(st, g, q)
        fresh = _least_costs(st, {q: 0}, 1, 0, False)
        assert np.array_equal(st.w_field[g, :m], fresh), q
    assert (fresh[n:m] < L.BIG).any()  # the new tile is reached: a field kept from before it differs
