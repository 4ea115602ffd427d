"""The table in inches: units as discs, the Escape Vehicle as a rectangle (docs/space.md).

A unit stands as a tight blob of its living models around its centre: a disc of radius
``unit_radius(n)`` (base radius plus the hex-packing radius of n models at ``spacing``).
"Within X" and "nearest" are measured edge to edge between discs (closest bases); base
contact is an edge distance of 0; "closest model removed first" is the slot order of the
unit's models. Movement is a straight line towards a goal, stopping 1" short of other units
(core-7th-edition §3 1" rule) or in base contact with a charge target; when the line is
blocked the unit goes around what is in the way in 0.5" steps (``_move_around``; the other
reading, ``_move_on_headings``, tries headings up to 60 degrees either side).

The planner keeps, for the whole of one move, the keep-away circles and the walls in its reach
(``near_circles``, ``walls_in_reach``), names the blocker from the straight try's own ray casts
and skips the detour headings that surely fail without their sine and cosine
(``_surely_blocked``): the same moves to the last bit, about a quarter less time (135 -> 102 µs
of a 950 µs four-player game; docs/space.md).
"""

from __future__ import annotations

import math

from kernels.jit import njit
from kernels.w40k.geometry import INF, norm, ray_circle
from kernels.zombie40k.columns import (
    P_BASE_R,
    P_EV_D,
    P_EV_W,
    P_FIRST_ZOMBIE,
    P_FRIENDLY_GAP,
    P_PLANNER_STRAIGHT,
    P_SPACING,
    P_TABLE_L,
    P_TABLE_W,
    US_ON_TABLE,
)

HEADINGS = (0.0, 0.35, -0.35, 0.7, -0.7, 1.05, -1.05)  # radians off the straight line (move_planner "straight")
DETOUR_STEP = 0.5  # inches of each step around what is in the way (move_planner "detour")
DETOUR_TURN = math.pi / 6.0  # the steps' headings: 30, 60 .. 180 degrees off the line to the goal
DETOUR_STEPS = 48
DETOUR_COS = tuple(math.cos(k * DETOUR_TURN) for k in range(7))  # to tell a blocked heading cheaply (_surely_blocked)
DETOUR_SIN = tuple(math.sin(k * DETOUR_TURN) for k in range(7))


@njit
def unit_radius(n_models, prm):
    """Radius of a blob of ``n_models`` in inches (0 models: 0)."""
    if n_models <= 0:
        return 0.0
    return prm[P_BASE_R] + prm[P_SPACING] * math.sqrt((n_models - 1) * 0.2757)


@njit
def ev_rect(prm):
    """(x0, x1, y0, y1) of the Escape Vehicle, touching the middle of the far short edge
    (zombie40k §3.2)."""
    half = 0.5 * prm[P_EV_W]
    mid = 0.5 * prm[P_TABLE_W]
    return mid - half, mid + half, prm[P_TABLE_L] - prm[P_EV_D], prm[P_TABLE_L]


@njit
def rect_distance(x, y, x0, x1, y0, y1):
    """Distance from a point to a rectangle (0 inside)."""
    return norm(max(x0 - x, 0.0, x - x1), max(y0 - y, 0.0, y - y1))


@njit
def ev_distance(x, y, radius, prm):
    """Distance from the unit's nearest model to the Escape Vehicle hull."""
    x0, x1, y0, y1 = ev_rect(prm)
    return max(0.0, rect_distance(x, y, x0, x1, y0, y1) - radius)


@njit
def ev_nearest_point(x, y, prm):
    x0, x1, y0, y1 = ev_rect(prm)
    return min(max(x, x0), x1), min(max(y, y0), y1)


@njit
def edge_distance(ax, ay, ar, bx, by, br):
    """Distance between the closest bases of two units."""
    return max(0.0, norm(ax - bx, ay - by) - ar - br)


@njit
def ray_box_exit(px, py, dx, dy, x0, x1, y0, y1):
    """Travel along (dx, dy) before leaving the box [x0, x1] x [y0, y1] (start inside)."""
    t = INF
    if dx > 1e-12:
        t = min(t, (x1 - px) / dx)
    elif dx < -1e-12:
        t = min(t, (x0 - px) / dx)
    if dy > 1e-12:
        t = min(t, (y1 - py) / dy)
    elif dy < -1e-12:
        t = min(t, (y0 - py) / dy)
    return max(0.0, t)


@njit
def ray_box_entry(px, py, dx, dy, x0, x1, y0, y1):
    """Travel along (dx, dy) before entering the box; INF if never (slab method)."""
    t_in, t_out = -INF, INF
    for p, d, lo, hi in ((px, dx, x0, x1), (py, dy, y0, y1)):
        if abs(d) < 1e-12:
            if p < lo or p > hi:
                return INF
            continue
        a, b = (lo - p) / d, (hi - p) / d
        t_in, t_out = max(t_in, min(a, b)), min(t_out, max(a, b))
    if t_out < max(t_in, 0.0):
        return INF
    return max(t_in, 0.0)


@njit
def keep_away(u, v, target, prm):
    """The gap unit u keeps from unit v when it moves: none from the unit it charges, the 1"
    rule from enemies (core §3), ``P_FRIENDLY_GAP`` between zombie units (friends)."""
    if v == target:
        return 0.0
    first = prm[P_FIRST_ZOMBIE]
    if u >= first and v >= first:
        return prm[P_FRIENDLY_GAP]
    return 1.0


@njit
def near_circles(pos, radii, ustate, g, u, px, py, reach, target, prm, near):
    """Fill ``near`` (float64[U, 4]) with the keep-away circles (centre, radius, unit; ``keep_away``) of
    the units that a move of up to ``reach`` inches from (px, py) could touch, in unit order, and
    return how many. A circle farther than ``reach`` + 1" can only stop the move beyond its end,
    so leaving it out changes no move (a move of several steps never travels more than
    ``reach`` from where it started)."""
    ru, n = radii[u], 0
    for v in range(radii.shape[0]):
        if v == u or ustate[g, v, US_ON_TABLE] == 0:
            continue
        r = ru + radii[v] + keep_away(u, v, target, prm)
        if norm(pos[g, v, 0] - px, pos[g, v, 1] - py) - r <= reach + 1.0:
            near[n, 0], near[n, 1], near[n, 2], near[n, 3] = pos[g, v, 0], pos[g, v, 1], r, v
            n += 1
    return n


@njit
def walls_in_reach(px, py, ru, reach, prm):
    """(edges, ev): whether a move of up to ``reach`` inches by a unit of radius ``ru`` from
    (px, py) could meet the table edge, the Escape Vehicle. A wall farther than ``reach`` + 1" can
    only stop the move beyond its end (the travel to it along a unit heading is at least the
    distance to it, and a move of several steps never travels more than ``reach`` from where it
    started), so ``free_travel`` leaves it out and no move changes."""
    edges = min(px - ru, prm[P_TABLE_W] - ru - px, py - ru, prm[P_TABLE_L] - ru - py) <= reach + 1.0
    x0, x1, y0, y1 = ev_rect(prm)
    ev = rect_distance(px, py, x0 - ru, x1 + ru, y0 - ru, y1 + ru) <= reach + 1.0
    return edges, ev


@njit
def _wall_travel(ru, px, py, dx, dy, prm, edges, ev):
    """Travel before the table edge (when ``edges``) or the Escape Vehicle (when ``ev``) stops
    a unit of radius ``ru``; INF if neither."""
    t = INF
    if edges:
        t = ray_box_exit(px, py, dx, dy, ru, prm[P_TABLE_W] - ru, ru, prm[P_TABLE_L] - ru)
    if ev:
        x0, x1, y0, y1 = ev_rect(prm)
        t = min(t, ray_box_entry(px, py, dx, dy, x0 - ru, x1 + ru, y0 - ru, y1 + ru))
    return t


@njit
def free_travel(near, n, ru, px, py, dx, dy, prm, edges, ev):
    """How far a unit of radius ``ru`` may travel from (px, py) along (dx, dy): not into the
    first ``n`` keep-away circles of ``near`` (``near_circles``: not within 1" of enemy units,
    base contact allowed with its target), not into the Escape Vehicle (when ``ev``), not off the
    table (when ``edges``; ``walls_in_reach`` says which a move could meet)."""
    t = _wall_travel(ru, px, py, dx, dy, prm, edges, ev)
    for k in range(n):
        t = min(t, ray_circle(px, py, dx, dy, near[k, 0], near[k, 1], near[k, 2]))
    return t


@njit
def _straight_travel(near, n, ru, px, py, dx, dy, prm, edges, ev):
    """(``free_travel``, the blocker): the travel, and the unit whose keep-away circle stops the
    move at once (the one entered first of those entered within 1e-6"; -1 if none: a wall, the
    Escape Vehicle or nothing), from one ray cast per circle."""
    t = _wall_travel(ru, px, py, dx, dy, prm, edges, ev)
    best, best_t = -1, 1e-6
    for k in range(n):
        tk = ray_circle(px, py, dx, dy, near[k, 0], near[k, 1], near[k, 2])
        t = min(t, tk)
        if tk <= best_t:
            best, best_t = int(near[k, 3]), tk
    return t, best


@njit
def move_towards(pos, radii, ustate, g, u, gx, gy, budget, target, stop_at, prm, near):
    """Move unit u up to ``budget`` inches towards the goal point (gx, gy), stopping when its
    centre is ``stop_at`` inches from the goal. Returns the distance from where it stood.
    ``near``: scratch for the keep-away circles in reach (``near_circles``)."""
    n = near_circles(pos, radii, ustate, g, u, pos[g, u, 0], pos[g, u, 1], budget, target, prm, near)
    if prm[P_PLANNER_STRAIGHT] != 0:
        return _move_on_headings(pos, radii, ustate, g, u, gx, gy, budget, target, stop_at, prm, near, n)
    return _move_around(pos, radii, ustate, g, u, gx, gy, budget, target, stop_at, prm, near, n)


@njit
def _move_on_headings(pos, radii, ustate, g, u, gx, gy, budget, target, stop_at, prm, near, n):
    """The other reading (``move_planner = "straight"``): one straight move, on the heading up
    to 60 degrees off the line to the goal that ends closest to it, if any gains ground."""
    px, py = pos[g, u, 0], pos[g, u, 1]
    dist = norm(gx - px, gy - py)
    if dist <= stop_at + 1e-9 or budget <= 0.0:
        return 0.0
    want = min(budget, dist - stop_at)
    base = math.atan2(gy - py, gx - px)
    edges, ev = walls_in_reach(px, py, radii[u], budget, prm)
    best_x, best_y, best_gain = px, py, 0.0
    k = 0
    for turn in HEADINGS:
        dx, dy = math.cos(base + turn), math.sin(base + turn)
        t = min(want, free_travel(near, n, radii[u], px, py, dx, dy, prm, edges, ev))
        nx, ny = px + t * dx, py + t * dy
        gain = dist - norm(gx - nx, gy - ny)
        if gain > best_gain + 1e-9:
            best_x, best_y, best_gain = nx, ny, gain
        if k == 0 and t >= want - 1e-9:
            break
        k += 1
    pos[g, u, 0], pos[g, u, 1] = best_x, best_y
    return norm(best_x - px, best_y - py)


@njit
def _surely_blocked(near, n, px, py, ax, ay, bound):
    """A detour heading that cannot be taken, told without its sine and cosine: (ax, ay) is the
    heading rotated from the line to the goal by the cosine and sine of its angle (within about
    1e-15 of the exact heading), and a ray along it that enters a keep-away circle shrunk by 1e-6"
    before ``bound``, moving inwards by more than 1e-9, puts the exact heading's ray inside the
    full circle by then: ``free_travel`` is below ``bound`` (the shrinking adds 2 r 1e-6 to the
    discriminant, against rounding errors near 1e-11 for a circle of radius r >= 1e-3 on a table
    of inches; a smaller one, possible with ``base_radius_in = 0``, is left to the exact cast).
    False when unsure: the exact heading is then cast."""
    for k in range(n):
        ox, oy = px - near[k, 0], py - near[k, 1]
        b = ox * ax + oy * ay
        if b >= -1e-9 or near[k, 2] < 1e-3:
            continue  # moving away or nearly along it, or a circle too small for the margin: unsure
        r = near[k, 2] - 1e-6
        c = ox * ox + oy * oy - r * r
        if c < 0.0:
            return True  # inside the shrunk circle and moving in: the exact heading stops at once
        disc = b * b - c
        if disc >= 0.0 and -b - math.sqrt(disc) < bound:
            return True
    return False


@njit
def _move_around(pos, radii, ustate, g, u, gx, gy, budget, target, stop_at, prm, near, n):
    """Straight at the goal while the way is free; where a unit's keep-away circle (or a wall)
    stops it, it steps ``DETOUR_STEP`` inches in the free direction closest to the goal's, always
    turning to the same side, and tries straight again: it goes around what is in the way
    (docs/space.md). The move is made only if it ends closer to the goal.

    What the planner keeps for the whole move, with the same moves as casting everything at every
    step: the keep-away circles in reach (``near_circles``), which walls are in reach
    (``walls_in_reach``); a straight try finds the blocker in the same ray casts
    (``_straight_travel``); a detour heading that surely fails is told without its sine and
    cosine (``_surely_blocked``)."""
    x0, y0 = pos[g, u, 0], pos[g, u, 1]
    ru = radii[u]
    edges, ev = walls_in_reach(x0, y0, ru, budget, prm)
    px, py, left, side = x0, y0, budget, 0.0
    for _ in range(DETOUR_STEPS):
        dist = norm(gx - px, gy - py)
        if dist <= stop_at + 1e-9 or left <= 1e-9:
            break
        dx, dy = (gx - px) / dist, (gy - py) / dist
        want = min(left, dist - stop_at)
        travel, v = _straight_travel(near, n, ru, px, py, dx, dy, prm, edges, ev)
        t = min(want, travel)
        if t > 1e-9:
            px, py, left = px + t * dx, py + t * dy, left - t
            if t >= want - 1e-9:
                break
            continue
        if v < 0 or norm(pos[g, v, 0] - gx, pos[g, v, 1] - gy) < 1e-6:
            break  # a wall, the Escape Vehicle, or the unit it goes for: as close as it may come
        base = math.atan2(dy, dx)
        bound = min(0.25 * DETOUR_STEP, left) - 1e-6  # a step shorter than this is not taken
        moved = False
        for k in range(1, 7):  # 30 .. 180 degrees off the line to the goal
            for sign in (1.0, -1.0):
                if side != 0.0 and sign != side:
                    continue
                cs, sn = DETOUR_COS[k], sign * DETOUR_SIN[k]
                if _surely_blocked(near, n, px, py, dx * cs - dy * sn, dx * sn + dy * cs, bound):
                    continue
                ax, ay = math.cos(base + sign * k * DETOUR_TURN), math.sin(base + sign * k * DETOUR_TURN)
                s = min(DETOUR_STEP, left, free_travel(near, n, ru, px, py, ax, ay, prm, edges, ev))
                if s > 0.25 * DETOUR_STEP or (s > 1e-9 and s >= left - 1e-9):
                    px, py, left, side, moved = px + s * ax, py + s * ay, left - s, sign, True
                    break
            if moved:
                break
        if not moved:
            break
    if norm(gx - px, gy - py) >= norm(gx - x0, gy - y0) - 1e-9:
        return 0.0  # no way round that gains ground this time: it stays
    pos[g, u, 0], pos[g, u, 1] = px, py
    return norm(px - x0, py - y0)


@njit
def is_legal_spot(pos, radii, ustate, g, u, x, y, prm):
    """A unit of radius radii[u] may stand at (x, y): on the table, off the Escape Vehicle,
    more than 1" from every other unit on the table."""
    r = radii[u]
    if x < r or x > prm[P_TABLE_W] - r or y < r or y > prm[P_TABLE_L] - r:
        return False
    x0, x1, y0, y1 = ev_rect(prm)
    if rect_distance(x, y, x0, x1, y0, y1) < r:
        return False
    for v in range(radii.shape[0]):
        if v != u and ustate[g, v, US_ON_TABLE] != 0:
            if norm(x - pos[g, v, 0], y - pos[g, v, 1]) < r + radii[v] + 1.0:
                return False
    return True
