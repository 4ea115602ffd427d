"""The map: tiles on a grid, legal placement with rotations, squares, doors, distance fields.

A tile is a 3 x 3 grid of squares (A2); tile types come precomputed in all four rotations
(``Tables.tile_sq``, ``tile_exits``; rotation r turns the printed tile r quarter turns
clockwise). Squares of a placed tile get their steps (``GameState.w_nb``) when it is laid: inside a
tile road to road and road to door, door and building squares of the one building among
themselves (A7: buildings are entered through their doors; D5 lets any road square enter), and
across a tile edge only where both edges have a road exit (A2).
"""

from __future__ import annotations

from kernels.jit import njit
from kernels.zombies9.layout import (
    BIG,
    F_CACHE,
    GS_FC_KEY,
    GS_FC_NEXT,
    GS_NT,
    GS_OPEN0,
    GS_OPEN1,
    GS_STAMP,
    GS_VERSION,
    K_BLOCKED,
    K_BUILDING,
    K_DOOR,
    K_ROAD,
    MODE_MIXED,
    N_FC,
    P_ANY_SIDE,
    P_MODE,
    P_SEPARATE,
    R_ENTRANCE,
    SQ_ADULT,
    SQ_BLD,
    SQ_DOGS,
    SQ_KID,
    SQ_KIND,
    TI_NAMED,
    TI_ROLE,
    TI_TOWN_SIDE,
    TI_Z9,
    TS_ROT,
    TS_TYPE,
    TS_X,
    TS_Y,
    TS_Z,
)


@njit
def dx(d):
    return int(d == 1) - int(d == 3)


@njit
def dy(d):
    return int(d == 2) - int(d == 0)


@njit
def mid_square(d):
    """The local square in the middle of edge d (N 1, E 5, S 7, W 3): where a road exit is."""
    return 1 + 4 * (d == 1) + 6 * (d == 2) + 2 * (d == 3)


@njit
def has_exit(tb, t, r, d):
    return (tb.tile_exits[t, r] >> d) & 1


@njit
def edge_region(tb, t, r, d):
    """0 town, 1 graveyard: a Z9 tile's edges are the graveyard's, except the Graveyard
    Entrance's town side (B4, D24)."""
    if tb.tile_info[t, TI_ROLE] == R_ENTRANCE and d == (tb.tile_info[t, TI_TOWN_SIDE] + r) % 4:
        return 0
    return tb.tile_info[t, TI_Z9]


@njit
def _edges_match(st, tb, t, r, d, k):
    """A6: road exit against road exit, side against side; D24: town against town."""
    nt, nr = st.w_tile[k, TS_TYPE], st.w_tile[k, TS_ROT]
    back = (d + 2) % 4
    if has_exit(tb, t, r, d) != has_exit(tb, nt, nr, back):
        return False
    if tb.prm[P_MODE] != MODE_MIXED or tb.prm[P_SEPARATE] == 0:
        return True
    return edge_region(tb, t, r, d) == edge_region(tb, nt, nr, back)


@njit
def can_place(st, tb, t, x, y, r):
    """A6: the tile touches the map, every touching edge matches, at least one road joins; a
    Z9 tile joins the graveyard (B4.5, D24); the Graveyard Entrance leaves room for the
    four-way tile set aside (B4.4)."""
    if st.w_grid[y, x] >= 0:
        return False
    touching = roads = graveyard = 0
    for d in range(4):
        k = st.w_grid[y + dy(d), x + dx(d)]
        if k < 0:
            continue
        if not _edges_match(st, tb, t, r, d, k):
            return False
        touching += 1
        roads += has_exit(tb, t, r, d)
        graveyard += tb.tile_info[st.w_tile[k, TS_TYPE], TI_Z9]
    if touching == 0 or roads == 0:
        return False
    if tb.prm[P_MODE] != MODE_MIXED or tb.tile_info[t, TI_Z9] == 0:
        return True
    if tb.tile_info[t, TI_ROLE] == R_ENTRANCE:
        return _room_for_set_aside(st, tb, t, x, y, r)
    return graveyard > 0


@njit
def _room_for_set_aside(st, tb, t, x, y, r):
    """The cell beyond the Entrance's graveyard side, and every cell around it, are empty."""
    d = (tb.tile_info[t, TI_TOWN_SIDE] + r + 2) % 4
    cx, cy = x + dx(d), y + dy(d)
    if st.w_grid[cy, cx] >= 0 or not has_exit(tb, t, r, d):
        return False
    for e in range(4):
        if (cx + dx(e) != x or cy + dy(e) != y) and st.w_grid[cy + dy(e), cx + dx(e)] >= 0:
            return False
    return True


@njit
def list_placements(st, tb, t):
    """Every legal (cell x, cell y, rotation) of tile type t into ``w_cand``; returns how many."""
    st.w_gs[GS_STAMP] += 1
    stamp = st.w_gs[GS_STAMP]
    n = 0
    for k in range(st.w_gs[GS_NT]):
        for d in range(4):
            x, y = st.w_tile[k, TS_X] + dx(d), st.w_tile[k, TS_Y] + dy(d)
            if st.w_grid[y, x] >= 0 or st.w_stamp[y, x] == stamp:
                continue
            st.w_stamp[y, x] = stamp
            for r in range(4):
                if can_place(st, tb, t, x, y, r):
                    st.w_cand[n, 0], st.w_cand[n, 1], st.w_cand[n, 2] = x, y, r
                    n += 1
    return n


@njit
def passable(a, b, any_side):
    """A7/A9: may a pawn or zombie step between two squares of one tile?"""
    if a == K_BLOCKED or b == K_BLOCKED:
        return False
    if a == K_ROAD and b == K_ROAD:
        return True
    if a == K_ROAD or b == K_ROAD:
        return any_side != 0 or a == K_DOOR or b == K_DOOR  # D5: doors only, by default
    return True  # door and building squares of the tile's one building


@njit
def place_tile(st, tb, t, x, y, r):
    """Lay tile type t at cell (x, y) in rotation r; returns its slot. Squares, steps and the
    count of open road edges are updated; pieces are put on it by ``pieces.populate``."""
    k = st.w_gs[GS_NT]
    st.w_gs[GS_NT] = k + 1
    st.w_gs[GS_VERSION] += 1
    st.w_grid[y, x] = k
    st.w_tile[k, TS_TYPE], st.w_tile[k, TS_X], st.w_tile[k, TS_Y], st.w_tile[k, TS_ROT] = t, x, y, r
    st.w_tile[k, TS_Z] = 0
    named = tb.tile_info[t, TI_NAMED]
    for i in range(9):
        q = 9 * k + i
        st.w_sq[q, :] = 0
        kind = tb.tile_sq[t, r, i]
        st.w_sq[q, SQ_KIND] = kind
        st.w_sq[q, SQ_BLD] = k if named and (kind == K_BUILDING or kind == K_DOOR) else -1
        st.w_nb[q, :] = -1
    _link_inside(st, tb, k, t, r)
    _link_edges(st, tb, k, t, x, y, r)
    return k


@njit
def _link_inside(st, tb, k, t, r):
    any_side = tb.prm[P_ANY_SIDE]
    for i in range(9):
        row, col = i // 3, i % 3
        for d in range(4):
            rr, cc = row + dy(d), col + dx(d)
            if 0 <= rr < 3 and 0 <= cc < 3 and passable(tb.tile_sq[t, r, i], tb.tile_sq[t, r, rr * 3 + cc], any_side):
                st.w_nb[9 * k + i, d] = 9 * k + rr * 3 + cc


@njit
def _link_edges(st, tb, k, t, x, y, r):
    """Join road exits to the neighbours' and count the open road edges by region (A6)."""
    for d in range(4):
        j = st.w_grid[y + dy(d), x + dx(d)]
        mine = has_exit(tb, t, r, d)
        if j < 0:
            if mine:
                _count_open(st, edge_region(tb, t, r, d), 1)
            continue
        if not mine:
            continue
        nt, nr, back = st.w_tile[j, TS_TYPE], st.w_tile[j, TS_ROT], (d + 2) % 4
        a, b = 9 * k + mid_square(d), 9 * j + mid_square(back)
        st.w_nb[a, d], st.w_nb[b, back] = b, a
        _count_open(st, edge_region(tb, nt, nr, back), -1)


@njit
def _count_open(st, region, delta):
    if region == 0:
        st.w_gs[GS_OPEN0] += delta
    else:
        st.w_gs[GS_OPEN1] += delta


@njit
def open_edges(st):
    return st.w_gs[GS_OPEN0] + st.w_gs[GS_OPEN1]


@njit
def square_xy(st, q):
    """World coordinates of square q (squares east and south of the grid's corner)."""
    k, i = q // 9, q % 9
    return 3 * st.w_tile[k, TS_X] + i % 3, 3 * st.w_tile[k, TS_Y] + i // 3


@njit
def is_walkable(st, q):
    return st.w_sq[q, SQ_KIND] != K_BLOCKED


@njit
def is_inside(st, q):
    """A building square (door included)."""
    return kind_inside(st.w_sq[q, SQ_KIND])


@njit
def kind_inside(kind):
    return kind == K_BUILDING or kind == K_DOOR


@njit
def zombies_at(st, q):
    return zombies_on(st.w_sq, q)


@njit
def zombies_on(sq, q):
    """The zombie figures on square q of the squares' table ``sq`` (`zombies_at` of a state)."""
    return sq[q, SQ_ADULT] + sq[q, SQ_KID] + sq[q, SQ_DOGS]


# ---------------------------------------------------------------- distance fields


@njit
def field_clear(st, f):
    field = st.w_field
    for q in range(9 * st.w_gs[GS_NT]):
        field[f, q] = BIG


@njit
def field_run(st, f, step, zc, no_buildings):
    """Complete field f from its seeds (the squares already below BIG): f[q] becomes the least
    cost of walking from q to a seed, entering a square costing ``step`` plus ``zc`` per zombie
    figure on it (Q3). With ``no_buildings`` no building square may be entered (Claustrophobia).
    A label-correcting search (seeds may start at different values); the least costs are unique,
    so any exact search (`_bfs`) gives the same field. The arrays are read into locals once (a
    state passed by reference would load each one again at every use)."""
    if step == 1 and zc == 0 and not no_buildings and _seeds_at_zero(st, f):
        _bfs(st, f)
        return
    field, nb, sq, queue, inq = st.w_field, st.w_nb, st.w_sq, st.w_queue, st.w_inq
    n = 9 * st.w_gs[GS_NT]
    size = n + 1
    head = tail = 0
    for q in range(n):
        inq[q] = 0
        if field[f, q] < BIG:
            queue[tail] = q
            tail += 1
            inq[q] = 1
    while head != tail:
        x = queue[head]
        head += 1
        if head == size:
            head = 0
        inq[x] = 0
        if no_buildings and kind_inside(sq[x, SQ_KIND]):
            continue
        fx = field[f, x] + step
        if zc != 0:
            fx += zc * zombies_on(sq, x)
        for d in range(4):
            y = nb[x, d]
            if y >= 0 and fx < field[f, y]:
                field[f, y] = fx
                if not inq[y]:
                    inq[y] = 1
                    queue[tail] = y
                    tail += 1
                    if tail == size:
                        tail = 0


@njit
def _seeds_at_zero(st, f):
    """Every seed of field f (a square below BIG) at 0."""
    field = st.w_field
    for q in range(9 * st.w_gs[GS_NT]):
        if field[f, q] != 0 and field[f, q] < BIG:
            return False
    return True


@njit
def _bfs(st, f):
    """`field_run` of unweighted steps (step 1, no zombie cost, buildings entered) from seeds all
    at 0: a breadth-first search, where the first value a square gets is its least (its steps to
    the nearest seed), so each square is queued once and no wrap or mark is needed."""
    field, nb, queue = st.w_field, st.w_nb, st.w_queue
    n = 9 * st.w_gs[GS_NT]
    tail = 0
    for q in range(n):
        if field[f, q] == 0:
            queue[tail] = q
            tail += 1
    _bfs_from(field, nb, queue, f, 0, tail)


@njit
def _bfs_from(field, nb, queue, f, head, tail):
    """The breadth-first search of `_bfs` from ``queue[head:tail]`` (squares at their least)."""
    while head < tail:
        x = queue[head]
        head += 1
        fx = field[f, x] + 1
        for d in range(4):
            y = nb[x, d]
            if y >= 0 and fx < field[f, y]:
                field[f, y] = fx
                queue[tail] = y
                tail += 1


@njit
def steps_from(st, f, q):
    """Field f = unweighted steps from square q (to q, by symmetry). Such a field depends only on
    q and the steps ``w_nb``, which change only when a tile is laid (`place_tile`, the one
    writer, bumps GS_VERSION): the last N_FC fields searched are kept in rows F_CACHE.. keyed by
    (map version, q) and copied when asked for again (about half of a game's searches), the
    same numbers a search gives."""
    field, n = st.w_field, 9 * st.w_gs[GS_NT]
    if not 0 <= q < n:
        field_clear(st, f)
        field[f, q] = 0
        field_run(st, f, 1, 0, False)  # not a square of the map: as the seeds are found there
        return
    key = 1 + st.w_gs[GS_VERSION] * field.shape[1] + q
    for i in range(N_FC):
        if st.w_gs[GS_FC_KEY + i] == key:
            _copy_row(field, F_CACHE + i, f, n)
            return
    field_clear(st, f)
    field[f, q] = 0
    st.w_queue[0] = q
    _bfs_from(field, st.w_nb, st.w_queue, f, 0, 1)
    i = st.w_gs[GS_FC_NEXT]
    st.w_gs[GS_FC_NEXT] = (i + 1) % N_FC
    st.w_gs[GS_FC_KEY + i] = key
    _copy_row(field, f, F_CACHE + i, n)


@njit
def _copy_row(field, a, b, n):
    """Row b of the fields = row a, over the map's n squares."""
    for k in range(n):
        field[b, k] = field[a, k]


@njit
def steps_to_tile(st, f, k):
    """Field f = unweighted steps to the nearest walkable square of tile slot k."""
    field_clear(st, f)
    if k >= 0:
        for i in range(9):
            if is_walkable(st, 9 * k + i):
                st.w_field[f, 9 * k + i] = 0
    _bfs(st, f)
