"""Batch state and rule tables of Zombies!!! games (design.md decision 1; house style: pgx).

A batch is played by one thread, game after game (``turn.play_batch``), so the map of the game
in play is scratch (the ``w_*`` fields, no game axis, preallocated: no kernel allocates); the
per-game fields (axis 0 = game) hold only what a game leaves behind: results, trace events and
invariant violations. Squares are numbered ``slot * 9 + row * 3 + column`` (north up), slot =
the order the tile was laid in, so every per-square array is small and dense.
``Tables`` holds the compiled rules of one configuration (``sim.rulesets.zombies9.compile``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from kernels.zombies9.layout import (
    MAX_HAND,
    MAX_STACK,
    N_EV,
    N_F,
    N_GS,
    N_PL,
    N_PRES,
    N_RES,
    N_RS,
    N_SQ,
    N_TS,
)


class GameState(NamedTuple):
    """Every game of a batch; axis 0 is the game; T tile slots, Q = 9 T squares, P players."""

    res: np.ndarray  # int32[n, N_RES] winner seat (-1 none), end reason, rounds, turns... (layout RES_*)
    pres: np.ndarray  # float64[n, P, N_PRES] per-player tallies: kills, deaths, spent tokens... (PR_*)
    events: np.ndarray  # float32[n_traced, E, N_EV] trace events (n_traced = 0: no trace)
    n_events: np.ndarray  # int32[n] events written
    viol: np.ndarray  # int32[n] invariant violations found (checked mode only)
    # scratch of the one game being played (see module docstring); never results
    w_grid: np.ndarray  # int16[G, G] slot of the tile in each grid cell, -1 empty; start tile at the centre
    w_tile: np.ndarray  # int32[T, N_TS] placed tiles: type, cell x, cell y, rotation (quarter turns), zombies
    w_sq: np.ndarray  # int32[Q, N_SQ] squares: kind, building, adults, kids, dogs, life, bullets, pawns (SQ_*)
    w_nb: np.ndarray  # int32[Q, 4] square one step N/E/S/W that a pawn or zombie may enter, -1 none
    w_pl: np.ndarray  # int32[P, N_PL] players: square, life (halves), bullets, kills, effects, items, hand
    w_gs: np.ndarray  # int64[N_GS] the game's scalars (GS_*): tiles laid, turn, pools, stacks, effects...
    w_stack: np.ndarray  # int16[2, S] tile types of the base and graveyard stacks, drawn from index GS_TOP*
    w_deck: np.ndarray  # int16[C] event draw pile, top = index GS_DECK_N - 1
    w_discard: np.ndarray  # int16[C] event discard pile (GS_DISC_N cards)
    w_field: np.ndarray  # int32[N_F, Q] distance fields over the squares (F_*), layout.BIG = unreachable
    w_queue: np.ndarray  # int32[Q + 1] circular queue of the field search
    w_inq: np.ndarray  # uint8[Q] 1: the square is in the queue
    w_cand: np.ndarray  # int32[16 T, 3] legal placements of the drawn tile: cell x, cell y, rotation
    w_stamp: np.ndarray  # int32[G, G] cells already listed as candidates (stamp = GS_STAMP)
    w_moved: np.ndarray  # int8[Q, 3] figures (adult, kid, dogs) already moved this zombie phase
    w_pick: np.ndarray  # int32[Q] a list of squares (placement choices, paths)
    w_score: np.ndarray  # float64[max(Q, 16 T)] scores of candidates
    w_reply: np.ndarray  # int32[MAX_STACK, N_RS] the response stack (D21): level 0 the card played, then replies


class Tables(NamedTuple):
    """The compiled rules of one configuration; T types of tile, C cards in the deck, P players."""

    tile_sq: np.ndarray  # int8[T, 4, 9] square kinds (K_*) of each tile type in each rotation
    tile_exits: np.ndarray  # int8[T, 4] road-exit bitmask (bit d = edge d) per rotation
    tile_info: np.ndarray  # int32[T, N_TI] printed numbers and roles (TI_*)
    tile_zorder: np.ndarray  # int8[T, 4, 9] local squares for zombies, in the placer's order (D4), -1 end
    tile_torder: np.ndarray  # int8[T, 4, 9] local squares for tokens, in the placer's order, -1 end
    stacks: np.ndarray  # int16[2, S] tile types of the base and graveyard stacks before shuffling, -1 pad
    cards: np.ndarray  # int32[n_kinds, N_CI] effect, building, value, automatic (CI_*)
    deck: np.ndarray  # int16[C] the event deck, one entry per card (card kind ids)
    ids: np.ndarray  # int64[N_IDS] tile types and sizes (ID_*)
    prm: np.ndarray  # float64[N_PRM] rule parameters (P_*)
    pol: np.ndarray  # float64[P, N_POL] each player's policy (POL_*)


PER_GAME = ("res", "pres", "events", "n_events", "viol")


def new_state(n_games: int, tables: Tables, trace_events: int = 0) -> GameState:
    """Allocate the state of ``n_games`` games (the kernels set every game up)."""
    n, p = n_games, tables.pol.shape[0]
    t = int(tables.ids[6])  # ID_MAX_TILES
    g = int(tables.ids[7])  # ID_GRID
    q = 9 * t
    c = max(1, tables.deck.shape[0])
    assert N_PL >= MAX_HAND
    return GameState(
        res=np.zeros((n, N_RES), np.int32),
        pres=np.zeros((n, p, N_PRES)),
        events=np.zeros((n if trace_events else 0, trace_events, N_EV), np.float32),
        n_events=np.zeros(n, np.int32),
        viol=np.zeros(n, np.int32),
        w_grid=np.full((g, g), -1, np.int16),
        w_tile=np.zeros((t, N_TS), np.int32),
        w_sq=np.zeros((q, N_SQ), np.int32),
        w_nb=np.full((q, 4), -1, np.int32),
        w_pl=np.zeros((p, N_PL), np.int32),
        w_gs=np.zeros(N_GS, np.int64),
        w_stack=np.full((2, max(1, tables.stacks.shape[1] + 1)), -1, np.int16),
        w_deck=np.zeros(c, np.int16),
        w_discard=np.zeros(c, np.int16),
        w_field=np.zeros((N_F, q), np.int32),
        w_queue=np.zeros(q + 1, np.int32),
        w_inq=np.zeros(q, np.uint8),
        w_cand=np.zeros((16 * t, 3), np.int32),
        w_stamp=np.zeros((g, g), np.int32),
        w_moved=np.zeros((q, 3), np.int8),
        w_pick=np.zeros(q, np.int32),
        w_score=np.zeros(max(q, 16 * t)),
        w_reply=np.full((MAX_STACK, N_RS), -1, np.int32),
    )
