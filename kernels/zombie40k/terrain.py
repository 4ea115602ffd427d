"""Random area terrain (zombie40k §3.1, docs/space.md): ruins as discs on the table.

With ``terrain_density`` above 0 each game is set up on its own random table: ``P_TERRAIN_N``
pieces of area terrain, discs of radius ``P_TERRAIN_R``, centres uniform on the table clear of
the Escape Vehicle; a share ``P_TERRAIN_DANGEROUS`` of them is also dangerous terrain. Every
piece is a ruin: difficult terrain and a 4+ cover save (``P_TERRAIN_COVER``; core §5, §6.7).

A unit is *in* a piece when its centre is (most of its models are: core §6.7's majority); a
move *enters, leaves or crosses* a piece when the disc of the unit swept along the move's
straight path touches it. Pieces do not block movement or sight. ``GameState.terrain`` holds
the pieces of each game: (x, y, radius, dangerous), radius 0 = no piece.
"""

from __future__ import annotations

from kernels.jit import njit
from kernels.rng import uniform
from kernels.w40k.geometry import norm
from kernels.zombie40k.columns import (
    EK_TERRAIN,
    P_TABLE_L,
    P_TABLE_W,
    P_TERRAIN_COVER,
    P_TERRAIN_DANGEROUS,
    P_TERRAIN_N,
    P_TERRAIN_R,
)
from kernels.zombie40k.geometry import ev_rect, rect_distance
from kernels.zombie40k.units import log_event

TX, TY, TR, TDANGER = 0, 1, 2, 3  # columns of GameState.terrain
N_TRIES = 40


@njit
def place_terrain(st, g, tb, rng):
    """Set up the game's area terrain before deployment (zombie40k §3.1): each piece at a
    uniform random point with the piece wholly on the table and off the Escape Vehicle."""
    n = int(tb.prm[P_TERRAIN_N])
    r = tb.prm[P_TERRAIN_R]
    x0, x1, y0, y1 = ev_rect(tb.prm)
    for k in range(n):
        for _ in range(N_TRIES):
            x = r + uniform(rng, g) * (tb.prm[P_TABLE_W] - 2 * r)
            y = r + uniform(rng, g) * (tb.prm[P_TABLE_L] - 2 * r)
            if rect_distance(x, y, x0, x1, y0, y1) >= r:
                st.terrain[g, k, TX], st.terrain[g, k, TY], st.terrain[g, k, TR] = x, y, r
                st.terrain[g, k, TDANGER] = 1.0 if uniform(rng, g) < tb.prm[P_TERRAIN_DANGEROUS] else 0.0
                log_event(st, g, EK_TERRAIN, k, int(st.terrain[g, k, TDANGER]), x, y, r)  # for the trace
                break


@njit
def segment_gap(px, py, ax, ay, bx, by):
    """Distance from point (px, py) to the segment from (ax, ay) to (bx, by)."""
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 <= 0.0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    return norm(px - ax - t * dx, py - ay - t * dy)


@njit
def _touches(st, g, k, ax, ay, bx, by, radius):
    r = st.terrain[g, k, TR]
    return r > 0.0 and segment_gap(st.terrain[g, k, TX], st.terrain[g, k, TY], ax, ay, bx, by) <= r + radius


@njit
def crosses_terrain(st, g, ax, ay, bx, by, radius, tb, dangerous_only):
    """Does a unit of ``radius`` moving straight from (ax, ay) to (bx, by) enter, leave or cross
    a piece (a dangerous one with ``dangerous_only``)?"""
    for k in range(int(tb.prm[P_TERRAIN_N])):
        if (not dangerous_only or st.terrain[g, k, TDANGER] != 0.0) and _touches(st, g, k, ax, ay, bx, by, radius):
            return True
    return False


@njit
def is_in_terrain(st, g, u, tb):
    """Unit u stands in a piece of area terrain: its centre (most of its models) inside it."""
    for k in range(int(tb.prm[P_TERRAIN_N])):
        r = st.terrain[g, k, TR]
        if r > 0.0 and norm(st.pos[g, u, 0] - st.terrain[g, k, TX], st.pos[g, u, 1] - st.terrain[g, k, TY]) <= r:
            return True
    return False


@njit
def terrain_cover(st, g, u, tb, none):
    """The cover save unit u's terrain gives (ruins: ``P_TERRAIN_COVER``, core §6.7); ``none``
    if it stands in the open."""
    if tb.prm[P_TERRAIN_N] > 0 and is_in_terrain(st, g, u, tb):
        return int(tb.prm[P_TERRAIN_COVER])
    return none


@njit
def has_terrain(tb):
    return tb.prm[P_TERRAIN_N] > 0
