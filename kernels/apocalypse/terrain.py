"""Area terrain beside the extraction zone (zombie-apocalypse §3.1: "Terrain as the core document
prescribes"; core-7th-edition §5, §6.7): ruins as discs on the table.

The core prescribes no layout, so the default table has none (``P_TERRAIN_LAYOUT`` 0: only the
zone). Layout 1 (``terrain = "random"``) places ``P_TERRAIN_N`` discs of radius ``P_TERRAIN_R`` at
uniform points of the table, each wholly on it and clear of the zone, before deployment (§3.2
step 1; 40 tries a piece, as Zombie 40,000's random ruins). Layout 2 (``"city"``) is a fixed table
of eight ruins: four on the diagonals between the corners and the zone, four towards the middle of
each edge (a piece that would touch the zone is left out). Every piece is a ruin, as the zone is:
difficult terrain and a ``P_TERRAIN_COVER`` (4+) cover save (core §6.7 "ruins 4+").

A disc of a unit *enters, leaves or crosses* a piece when it touches the piece anywhere along its
straight path (the move then is at most the highest of 2D6, 3D6 with Move Through Cover: core §5,
``kernels.apocalypse.movement``; Zombie! is never slowed, §5). A horde *stands in* a piece when its
centre does (most of its models: the cover a unit has, core §6.7). Pieces do not block sight or
movement. ``GameState.terrain`` holds each game's pieces: (x, y, radius), radius 0 = no piece.
"""

from __future__ import annotations

from kernels.apocalypse.columns import (
    EK_TERRAIN,
    P_FOGGY,
    P_TABLE,
    P_TERRAIN_COVER,
    P_TERRAIN_LAYOUT,
    P_TERRAIN_N,
    P_TERRAIN_R,
    P_ZONE_COVER,
)
from kernels.apocalypse.geometry import segment_near, zone_distance
from kernels.apocalypse.state import TR, TX, TY
from kernels.apocalypse.trace import log_event
from kernels.jit import njit
from kernels.rng import uniform
from kernels.w40k.geometry import norm

LAYOUT_NONE, LAYOUT_RANDOM, LAYOUT_CITY = 0, 1, 2
N_TRIES = 40
N_CITY = 8


@njit
def city_piece(k, side):
    """Centre of piece k of the fixed 'city' layout, as fractions of the table side."""
    if k < 4:
        fx = 0.3 if k % 2 == 0 else 0.7
        fy = 0.3 if k < 2 else 0.7
    else:
        fx = (0.5, 0.19, 0.81, 0.5)[k - 4]
        fy = (0.19, 0.5, 0.5, 0.81)[k - 4]
    return fx * side, fy * side


@njit
def fits(x, y, r, prm):
    """A piece at (x, y) of radius r lies wholly on the table and clear of the zone."""
    side = prm[P_TABLE]
    return r <= x <= side - r and r <= y <= side - r and zone_distance(x, y, prm) >= r


@njit
def _put(st, g, k, x, y, r, phase):
    st.terrain[g, k, TX], st.terrain[g, k, TY], st.terrain[g, k, TR] = x, y, r
    log_event(st, g, phase, EK_TERRAIN, k, 0, 0, x, y)


@njit
def place_terrain(rng, g, st, tb, phase):
    """Set up the game's area terrain before deployment (§3.2 step 1; module docstring)."""
    for k in range(st.terrain.shape[1]):
        for c in range(st.terrain.shape[2]):
            st.terrain[g, k, c] = 0.0
    layout = int(tb.prm[P_TERRAIN_LAYOUT])
    r = tb.prm[P_TERRAIN_R]
    side = tb.prm[P_TABLE]
    if layout == LAYOUT_CITY:
        for k in range(min(N_CITY, st.terrain.shape[1])):
            x, y = city_piece(k, side)
            if fits(x, y, r, tb.prm):
                _put(st, g, k, x, y, r, phase)
    elif layout == LAYOUT_RANDOM:
        for k in range(min(int(tb.prm[P_TERRAIN_N]), st.terrain.shape[1])):
            for _ in range(N_TRIES):
                x = r + uniform(rng, g) * (side - 2 * r)
                y = r + uniform(rng, g) * (side - 2 * r)
                if fits(x, y, r, tb.prm):
                    _put(st, g, k, x, y, r, phase)
                    break


@njit
def path_touches_terrain(st, g, px, py, qx, qy, radius):
    """A disc of ``radius`` moving straight from p to q enters, leaves or crosses a piece."""
    for k in range(st.terrain.shape[1]):
        r = st.terrain[g, k, TR]
        if r > 0.0 and segment_near(px, py, qx, qy, st.terrain[g, k, TX], st.terrain[g, k, TY], r + radius):
            return True
    return False


@njit
def in_terrain(st, g, x, y):
    """The point (x, y) - a unit's or a horde's centre - stands in a piece."""
    for k in range(st.terrain.shape[1]):
        r = st.terrain[g, k, TR]
        if r > 0.0 and norm(x - st.terrain[g, k, TX], y - st.terrain[g, k, TY]) <= r:
            return True
    return False


@njit
def terrain_cover(st, g, x, y, tb, none):
    """The cover save of a horde or unit centred at (x, y) from a ruin (core §6.7), else ``none``."""
    if tb.prm[P_TERRAIN_LAYOUT] != LAYOUT_NONE and in_terrain(st, g, x, y):
        return int(tb.prm[P_TERRAIN_COVER])
    return none


@njit
def cover_at(st, g, x, y, tb, none):
    """The cover save of models centred at (x, y): the zone is a ruin (4+, §3.1), and so is each
    piece of area terrain (core §6.7); Foggy gives every model Shrouded (+2, at least 5+ in the
    open; §6). ``none`` (7): no cover."""
    cover = int(tb.prm[P_ZONE_COVER]) if zone_distance(x, y, tb.prm) <= 0.0 else none
    cover = min(cover, terrain_cover(st, g, x, y, tb, none))
    if tb.prm[P_FOGGY] != 0:
        cover = max(2, cover - 2) if cover < none else 5
    return cover
