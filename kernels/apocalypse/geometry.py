"""The 48" x 48" table in inches (docs/apocalypse.md "Space"): units and hordes as discs.

A unit or a horde stands as a tight disc of its living models around its centre: radius
``disc_radius(n)`` (a base plus the hex-packing radius of n models at a spacing). "Within X" and
"closest" are measured edge to edge between discs (closest bases); base contact is a gap of 0. The
extraction zone is a circle (or a square, A7) at the table centre; spawners are circles (A12).
"""

from __future__ import annotations

import math

from kernels.apocalypse.columns import P_BASE_R, P_TABLE, P_ZONE_R, P_ZONE_SQUARE
from kernels.jit import njit
from kernels.w40k.geometry import norm


@njit
def disc_radius(n_models, base_r, spacing):
    """Radius of a disc of ``n_models`` 25 mm bases at ``spacing`` (0 models: 0)."""
    if n_models <= 0:
        return 0.0
    return base_r + spacing * math.sqrt((n_models - 1) * 0.2757)


@njit
def gap(ax, ay, ar, bx, by, br):
    """Distance between the closest bases of two discs (0 when they touch or overlap)."""
    return max(0.0, norm(ax - bx, ay - by) - ar - br)


@njit
def ring_places(radius, depth, spacing):
    """How many 25 mm bases fit in the ring of ``depth`` inches around a disc of ``radius``: the
    zombies that can be engaged with a unit (base contact and the rank within 2" behind it, core
    §7.3), at hex packing of ``spacing``."""
    outer = radius + depth
    area = math.pi * (outer * outer - radius * radius)
    return max(1, int(area / (0.866 * spacing * spacing)))


@njit
def segment_near(px, py, qx, qy, cx, cy, r):
    """Whether the segment p-q passes within r of (cx, cy)."""
    dx, dy = qx - px, qy - py
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 <= 1e-12 else max(0.0, min(1.0, ((cx - px) * dx + (cy - py) * dy) / length2))
    return norm(px + t * dx - cx, py + t * dy - cy) <= r


@njit
def clamp_on_table(x, y, r, prm):
    """The nearest centre at which a disc of radius r is wholly on the table."""
    side = prm[P_TABLE]
    r = min(r, 0.5 * side)
    return min(max(x, r), side - r), min(max(y, r), side - r)


@njit
def nearest_edge(x, y, prm):
    """(edge 0-3, distance): 0 = bottom (y = 0), 1 = right, 2 = top, 3 = left."""
    side = prm[P_TABLE]
    best, dist = 0, y
    if side - x < dist:
        best, dist = 1, side - x
    if side - y < dist:
        best, dist = 2, side - y
    if x < dist:
        best, dist = 3, x
    return best, dist


@njit
def edge_point(edge, along, inset, prm):
    """The point ``inset`` inches in from edge ``edge`` at ``along`` inches along it."""
    side = prm[P_TABLE]
    along = min(max(along, inset), side - inset)
    if edge == 0:
        return along, inset
    if edge == 1:
        return side - inset, along
    if edge == 2:
        return along, side - inset
    return inset, along


@njit
def along_edge(edge, x, y):
    """The coordinate of (x, y) along edge ``edge`` (its projection)."""
    return x if edge == 0 or edge == 2 else y


@njit
def zone_distance(x, y, prm):
    """Distance from a point to the extraction zone's footprint (0 inside; A7 circle or square)."""
    c = 0.5 * prm[P_TABLE]
    r = prm[P_ZONE_R]
    if prm[P_ZONE_SQUARE] != 0:
        return norm(max(abs(x - c) - r, 0.0), max(abs(y - c) - r, 0.0))
    return max(0.0, norm(x - c, y - c) - r)


@njit
def zone_depth(x, y, prm):
    """How far inside the zone a point is (negative outside): used for 'wholly within' (A29)."""
    c = 0.5 * prm[P_TABLE]
    r = prm[P_ZONE_R]
    if prm[P_ZONE_SQUARE] != 0:
        return r - max(abs(x - c), abs(y - c))
    return r - norm(x - c, y - c)


@njit
def disc_touches_zone(x, y, r, prm):
    """A disc of radius r is at least partly on the zone."""
    return zone_distance(x, y, prm) <= r


@njit
def base_on_zone(x, y, prm, wholly):
    """A model's base (radius P_BASE_R) at (x, y) is on the zone: partly (A29 default) or wholly."""
    if wholly:
        return zone_depth(x, y, prm) >= prm[P_BASE_R]
    return zone_distance(x, y, prm) <= prm[P_BASE_R]


@njit
def path_touches_zone(px, py, qx, qy, r, prm):
    """A disc of radius r moving from p to q enters or crosses the zone (A27 'enter')."""
    if prm[P_ZONE_SQUARE] != 0:
        steps = 8
        for k in range(steps + 1):
            t = k / steps
            if disc_touches_zone(px + t * (qx - px), py + t * (qy - py), r, prm):
                return True
        return False
    c = 0.5 * prm[P_TABLE]
    return segment_near(px, py, qx, qy, c, c, r + prm[P_ZONE_R])
