"""Figures on the table: measuring, facing, moving, and the changes of state every rule shares.

Distances are measured between bases (outwest §1): the gap between two round bases of radius
``r`` (``P_BASE_R``) is the distance of their centres minus ``2r``; a gap of 0 is base contact.
Range bands, "within 3"" and the like are gaps. Zombies stop on contact (§1, §6.2).
"""

from __future__ import annotations

import math

from kernels.jit import as_float64, njit
from kernels.outwest.layout import (
    CITIZEN,
    EK_ADVANCE,
    EK_HORSE_BOLT,
    EK_RISE,
    EV_A,
    EV_B,
    EV_C,
    EV_CARD,
    EV_FIG,
    EV_KIND,
    EV_OTHER,
    EV_TURN,
    FATE_DESTROYED,
    FATE_IN_PLAY,
    FF_FACING,
    FF_HORSE_X,
    FF_HORSE_Y,
    FF_X,
    FF_Y,
    FI_ACTED,
    FI_AIM,
    FI_CLASS,
    FI_DUCKED,
    FI_FATE,
    FI_FEED,
    FI_GROUP,
    FI_GUNSLINGER,
    FI_HORSE,
    FI_KIND,
    FI_LAPSED,
    FI_RECOVER,
    FI_STATE,
    GS_CARD,
    GS_DESTROYED,
    GS_RISEN,
    GS_TURN,
    GUNMAN,
    HORSE_LOOSE,
    HORSE_NONE,
    HORSE_RIDDEN,
    K_HUMAN,
    K_ZOMBIE,
    P_BASE_R,
    P_GUNSLINGERS,
    P_KD_NEEDS_RECOVER,
    P_N_GROUPS,
    P_N_HUMANS,
    P_TABLE_H,
    P_TABLE_W,
    PR_DESTROYED,
    PR_RISEN,
    S_DOWN,
    S_GONE,
    S_OUT,
    S_STANDING,
    T_KIND,
    T_X0,
    T_X1,
    T_Y0,
    T_Y1,
    TERRAIN_OPEN,
)

EPS = 1e-6
NO_GAP = 1e9  # "nothing found": a gap larger than any table


@as_float64("a", "b", "c")  # stored as float32: one version for every number type
@njit
def log_event(st, g, kind, fig, other, a, b, c):
    """Append a trace event (only when the batch is traced)."""
    if st.events.shape[0] == 0:
        return
    k = st.n_events[g]
    if k >= st.events.shape[1]:
        return
    ev = st.events[g, k]
    ev[EV_TURN], ev[EV_CARD], ev[EV_KIND], ev[EV_FIG] = st.gs[g, GS_TURN], st.gs[g, GS_CARD], kind, fig
    ev[EV_OTHER], ev[EV_A], ev[EV_B], ev[EV_C] = other, a, b, c
    st.n_events[g] = k + 1


@njit
def n_humans(tb):
    return int(tb.prm[P_N_HUMANS])


@njit
def n_groups(tb):
    return int(tb.prm[P_N_GROUPS])


# ------------------------------------------------------------------ who is what


@njit
def is_human(st, g, f):
    """A human character on the table (standing, down or unconscious)."""
    return st.fi[g, f, FI_KIND] == K_HUMAN and st.fi[g, f, FI_STATE] != S_GONE


@njit
def is_conscious(st, g, f):
    """A human on the table, alive, conscious and not a zombie (the victory test, §12)."""
    return st.fi[g, f, FI_KIND] == K_HUMAN and (st.fi[g, f, FI_STATE] == S_STANDING
                                                 or st.fi[g, f, FI_STATE] == S_DOWN)


@njit
def is_zombie(st, g, f):
    return st.fi[g, f, FI_KIND] == K_ZOMBIE and st.fi[g, f, FI_STATE] != S_GONE


@njit
def is_helpless(st, g, f):
    """A human on the ground or unconscious (P2's tie-break, W16's first choice)."""
    return st.fi[g, f, FI_KIND] == K_HUMAN and (st.fi[g, f, FI_STATE] == S_DOWN or st.fi[g, f, FI_STATE] == S_OUT)


# ------------------------------------------------------------------ measuring


@njit
def centre_distance(ax, ay, bx, by):
    return math.sqrt((ax - bx) * (ax - bx) + (ay - by) * (ay - by))


@njit
def gap_between(st, g, tb, a, b):
    """Gap between the bases of figures a and b, inches (0 = base contact)."""
    return centre_distance(st.ff[g, a, FF_X], st.ff[g, a, FF_Y], st.ff[g, b, FF_X], st.ff[g, b, FF_Y]) \
        - 2.0 * tb.prm[P_BASE_R]


@njit
def gap_to_point(st, g, tb, a, x, y):
    """Gap between figure a and a base centred at (x, y) (a marker, a horse)."""
    return centre_distance(st.ff[g, a, FF_X], st.ff[g, a, FF_Y], x, y) - 2.0 * tb.prm[P_BASE_R]


@njit
def touching(gap):
    return gap <= EPS


@njit
def wrap_angle(a):
    """An angle in (-pi, pi]."""
    while a > math.pi:
        a -= 2.0 * math.pi
    while a <= -math.pi:
        a += 2.0 * math.pi
    return a


@njit
def arc_of(facing, fx, fy, ax, ay, front_half, rear_half):
    """Which arc of a figure at (fx, fy) facing ``facing`` the point (ax, ay) lies in (§1, W11):
    0 front (within ``front_half`` of straight ahead), 2 rear (within ``rear_half`` of straight
    behind), 1 side."""
    off = abs(wrap_angle(math.atan2(ay - fy, ax - fx) - facing))
    if off <= front_half + EPS:
        return 0
    if off >= math.pi - rear_half - EPS:
        return 2
    return 1


@njit
def in_front_half(st, g, f, x, y):
    """The point lies in the front 180 degrees of figure f (shooting needs it, §1)."""
    off = abs(wrap_angle(math.atan2(y - st.ff[g, f, FF_Y], x - st.ff[g, f, FF_X]) - st.ff[g, f, FF_FACING]))
    return off <= 0.5 * math.pi + EPS


@njit
def face_towards(st, g, f, x, y):
    dx, dy = x - st.ff[g, f, FF_X], y - st.ff[g, f, FF_Y]
    if dx * dx + dy * dy > 1e-12:
        st.ff[g, f, FF_FACING] = math.atan2(dy, dx)


@njit
def terrain_at(tb, x, y):
    """Kind of terrain at a point (the first rectangle of the town that holds it; TERRAIN_OPEN)."""
    for k in range(tb.terrain.shape[0]):
        t = tb.terrain[k]
        if t[T_X0] <= x <= t[T_X1] and t[T_Y0] <= y <= t[T_Y1]:
            return int(t[T_KIND])
    return TERRAIN_OPEN


@njit
def in_cover(st, g, tb, f):
    """A figure inside a building, woods or scrub is in cover (§5.3; the town abstraction of docs/outwest.md)."""
    return terrain_at(tb, st.ff[g, f, FF_X], st.ff[g, f, FF_Y]) != TERRAIN_OPEN


# ------------------------------------------------------------------ nearest


@njit
def nearest_creature(st, g, tb, z):
    """The living creature nearest zombie z (§6.2: humans of any state, loose horses; a
    ridden horse stands under its rider). Returns (gap, x, y, figure), figure = -1 - h for
    the loose horse of human h, and gap NO_GAP when there is none."""
    best, bx, by, who = NO_GAP, 0.0, 0.0, -1
    for h in range(n_humans(tb)):
        if is_human(st, g, h):
            d = gap_between(st, g, tb, z, h)
            if d < best:
                best, bx, by, who = d, st.ff[g, h, FF_X], st.ff[g, h, FF_Y], h
        if st.fi[g, h, FI_HORSE] == HORSE_LOOSE:
            x, y = st.ff[g, h, FF_HORSE_X], st.ff[g, h, FF_HORSE_Y]
            d = gap_to_point(st, g, tb, z, x, y)
            if d < best:
                best, bx, by, who = d, x, y, -1 - h
    return best, bx, by, who


@njit
def nearest_zombie(st, g, tb, f):
    """(gap, zombie) of the zombie nearest figure f; (NO_GAP, -1) when there is none."""
    best, who = NO_GAP, -1
    for z in range(st.fi.shape[1]):
        if is_zombie(st, g, z):
            d = gap_between(st, g, tb, f, z)
            if d < best:
                best, who = d, z
    return best, who


@njit
def zombies_touching(st, g, tb, f):
    """How many zombies (standing or down) are in base contact with figure f."""
    n = 0
    for z in range(st.fi.shape[1]):
        if z != f and is_zombie(st, g, z) and touching(gap_between(st, g, tb, f, z)):
            n += 1
    return n


# ------------------------------------------------------------------ moving


@njit
def clamp_to_table(tb, x, y):
    r = tb.prm[P_BASE_R]
    return min(max(x, r), tb.prm[P_TABLE_W] - r), min(max(y, r), tb.prm[P_TABLE_H] - r)


@njit
def place(st, g, tb, f, x, y):
    """Put figure f at (x, y), kept on the table; a ridden horse moves with its rider."""
    x, y = clamp_to_table(tb, x, y)
    st.ff[g, f, FF_X], st.ff[g, f, FF_Y] = x, y


@njit
def contact_limit(x, y, ux, uy, length, cx, cy, reach):
    """How far a base at (x, y) may go along the unit ray (ux, uy) before its centre comes
    within ``reach`` (two base radii: base contact) of a base centred at (cx, cy); it may
    always move away from a base it touches. ``length`` when the ray never closes in."""
    px, py = cx - x, cy - y
    b = ux * px + uy * py
    if b <= 0.0:
        return length  # moving away (or across behind it)
    c = px * px + py * py - reach * reach
    disc = b * b - c
    if disc <= 0.0:
        return length  # passes clear of it
    return min(length, max(0.0, b - math.sqrt(disc)))


@njit
def edge_limit(tb, x, y, ux, uy, length):
    """How far a base at (x, y) may go along (ux, uy) before its rim reaches a table edge."""
    r = tb.prm[P_BASE_R]
    lo_x, lo_y, hi_x, hi_y = r, r, tb.prm[P_TABLE_W] - r, tb.prm[P_TABLE_H] - r
    if ux > 1e-12:
        length = min(length, max(0.0, (hi_x - x) / ux))
    elif ux < -1e-12:
        length = min(length, max(0.0, (lo_x - x) / ux))
    if uy > 1e-12:
        length = min(length, max(0.0, (hi_y - y) / uy))
    elif uy < -1e-12:
        length = min(length, max(0.0, (lo_y - y) / uy))
    return length


@njit
def clear_length(st, g, tb, f, x, y, ux, uy, length):
    """How far figure f's base, standing at (x, y), may move along (ux, uy): it stops at base
    contact with the first zombie in its way (it may neither pass through a zombie nor end on
    top of one, §1)."""
    reach = 2.0 * tb.prm[P_BASE_R] - EPS
    length = max(0.0, length)
    for z in range(st.fi.shape[1]):
        if z != f and is_zombie(st, g, z):
            length = contact_limit(x, y, ux, uy, length, st.ff[g, z, FF_X], st.ff[g, z, FF_Y], reach)
    return length


@njit
def step_towards(st, g, tb, f, tx, ty, d):
    """Move f straight towards a base at (tx, ty) by up to d inches, stopping in base contact
    (§6.2); it ends facing the way it moved. Returns the distance moved."""
    x, y = st.ff[g, f, FF_X], st.ff[g, f, FF_Y]
    dist = centre_distance(x, y, tx, ty)
    if dist < 1e-12:
        return 0.0
    move = min(d, max(0.0, dist - 2.0 * tb.prm[P_BASE_R]))
    ux, uy = (tx - x) / dist, (ty - y) / dist
    st.ff[g, f, FF_FACING] = math.atan2(uy, ux)
    place(st, g, tb, f, x + ux * move, y + uy * move)
    return move


@njit
def crowded(st, g, tb, z, x, y):
    """A base at (x, y) would overlap another zombie on the table, or leave the table."""
    r = tb.prm[P_BASE_R]
    if x < r - EPS or y < r - EPS or x > tb.prm[P_TABLE_W] - r + EPS or y > tb.prm[P_TABLE_H] - r + EPS:
        return True
    for k in range(st.fi.shape[1]):
        if k != z and st.fi[g, k, FI_KIND] == K_ZOMBIE and st.fi[g, k, FI_STATE] != S_GONE \
                and centre_distance(x, y, st.ff[g, k, FF_X], st.ff[g, k, FF_Y]) < 2.0 * r - EPS:
            return True
    return False


@njit
def settle(st, g, tb, z, tx, ty):
    """Zombie z has reached base contact with a base at (tx, ty): if another zombie already
    stands there, it takes the nearest free place around the target (30 degrees apart); with
    none free it stays one base behind, out of contact (bases do not overlap, §1)."""
    x, y = st.ff[g, z, FF_X], st.ff[g, z, FF_Y]
    if not crowded(st, g, tb, z, x, y):
        return
    r2 = 2.0 * tb.prm[P_BASE_R]
    a0 = math.atan2(y - ty, x - tx)
    for k in range(1, 7):
        for side in (1.0, -1.0):
            a = a0 + side * k * math.pi / 6.0
            nx, ny = tx + r2 * math.cos(a), ty + r2 * math.sin(a)
            if not crowded(st, g, tb, z, nx, ny):
                st.ff[g, z, FF_X], st.ff[g, z, FF_Y] = nx, ny
                face_towards(st, g, z, tx, ty)
                return
    place(st, g, tb, z, tx + 2.0 * r2 * math.cos(a0), ty + 2.0 * r2 * math.sin(a0))


@njit
def push_back(st, g, tb, f, fx, fy, d):
    """Push f d inches straight away from a figure at (fx, fy), as far as the table edge
    allows (W17); facing unchanged."""
    x, y = st.ff[g, f, FF_X], st.ff[g, f, FF_Y]
    dist = centre_distance(x, y, fx, fy)
    if dist < 1e-12:
        return
    place(st, g, tb, f, x + (x - fx) / dist * d, y + (y - fy) / dist * d)


# ------------------------------------------------------------------ changes of state


@njit
def knock_down(st, g, tb, f):
    """Knocked down / falls over (§5.6, §6.2, §7): on the ground. A human knocked down needs a
    Recover and a Get up (§9, ``P_KD_NEEDS_RECOVER``)."""
    if st.fi[g, f, FI_STATE] == S_STANDING:
        st.fi[g, f, FI_STATE] = S_DOWN
    if st.fi[g, f, FI_KIND] == K_HUMAN and tb.prm[P_KD_NEEDS_RECOVER] != 0 and st.fi[g, f, FI_STATE] != S_OUT:
        st.fi[g, f, FI_RECOVER] = 1


@njit
def remove(st, g, f, fate):
    """f leaves the table (dead, devoured, destroyed, escaped); a ridden horse bolts."""
    st.fi[g, f, FI_STATE] = S_GONE
    st.fi[g, f, FI_FATE] = fate
    st.fi[g, f, FI_FEED] = -1
    st.fi[g, f, FI_ACTED] = 0
    st.fi[g, f, FI_LAPSED] = 0
    if st.fi[g, f, FI_HORSE] == HORSE_RIDDEN:
        st.fi[g, f, FI_HORSE] = HORSE_NONE


@njit
def destroy_zombie(st, g, tb, z, by):
    """Zombie z is destroyed (§5.7, §7.5) by figure ``by`` (-1 none). A Citizen who destroys a
    zombie becomes a Gunman at once (§2.1, W28)."""
    remove(st, g, z, FATE_DESTROYED)
    st.gs[g, GS_DESTROYED] += 1
    if by >= 0 and by < n_humans(tb) and st.fi[g, by, FI_KIND] == K_HUMAN:
        st.pres[g, by, PR_DESTROYED] += 1
        if st.fi[g, by, FI_CLASS] == CITIZEN:
            st.fi[g, by, FI_CLASS] = GUNMAN
            log_event(st, g, EK_ADVANCE, by, z, 0.0, 0.0, 0.0)


@njit
def rise(st, g, tb, h):
    """Human h succumbs to the Zombie Plague (§7.4 result 5, §8): his figure becomes a zombie,
    a group of one whose card is his character card; above Citizen he is a zombie gunslinger
    under the Zombie Gunslinger rule (§11)."""
    if st.fi[g, h, FI_HORSE] == HORSE_RIDDEN:
        st.fi[g, h, FI_HORSE] = HORSE_NONE
        log_event(st, g, EK_HORSE_BOLT, h, -1, 0.0, 0.0, 0.0)
    st.fi[g, h, FI_KIND] = K_ZOMBIE
    st.fi[g, h, FI_STATE] = S_STANDING
    st.fi[g, h, FI_FATE] = FATE_IN_PLAY
    st.fi[g, h, FI_GROUP] = n_groups(tb) + h
    st.fi[g, h, FI_GUNSLINGER] = int(tb.prm[P_GUNSLINGERS] != 0 and st.fi[g, h, FI_CLASS] > CITIZEN)
    st.fi[g, h, FI_LAPSED] = 0
    st.fi[g, h, FI_RECOVER] = 0
    st.fi[g, h, FI_DUCKED] = 0
    st.fi[g, h, FI_AIM] = -1
    st.fi[g, h, FI_FEED] = -1
    st.pres[g, h, PR_RISEN] = 1
    st.gs[g, GS_RISEN] += 1
    log_event(st, g, EK_RISE, h, st.fi[g, h, FI_GUNSLINGER], st.ff[g, h, FF_X], st.ff[g, h, FF_Y], 0.0)


@njit
def group_range(st, g, tb, q):
    """Slots (first, stop) of zombie group q: a group of the scenario, or the group of one of a
    risen character (q >= n_groups)."""
    G = n_groups(tb)
    if q < G:
        first = int(tb.groups[q, 0])
        return first, first + int(tb.groups[q, 1])
    return q - G, q - G + 1


@njit
def is_member(st, g, tb, q, z):
    return st.fi[g, z, FI_KIND] == K_ZOMBIE and st.fi[g, z, FI_GROUP] == q


@njit
def unit_vector(x0, y0, x1, y1):
    """Unit vector from (x0, y0) towards (x1, y1); (1, 0) when the points coincide."""
    d = centre_distance(x0, y0, x1, y1)
    if d < 1e-12:
        return 1.0, 0.0
    return (x1 - x0) / d, (y1 - y0) / d


@njit
def horse_bolts(st, g, h):
    st.fi[g, h, FI_HORSE] = HORSE_NONE
    log_event(st, g, EK_HORSE_BOLT, h, -1, 0.0, 0.0, 0.0)
