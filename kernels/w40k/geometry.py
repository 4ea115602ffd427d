"""Plane geometry in inches shared by the 7th-edition rulesets (Zombie 40,000 and Zombie
Apocalypse): lengths and a point moving towards a disc. Each ruleset's own ``geometry`` holds
its table (the Escape Vehicle, the extraction zone) and how its units stand."""

from __future__ import annotations

import math

from kernels.jit import njit

INF = 1e18  # "never" for a travel or a distance


@njit
def norm(dx, dy):
    """Length of (dx, dy): sqrt of the sum of squares (glibc's overflow-safe ``hypot`` cost 7% of a
    whole game; inches never come near overflow)."""
    return math.sqrt(dx * dx + dy * dy)


@njit
def ray_circle(px, py, dx, dy, cx, cy, r):
    """First travel t >= 0 at which a point moving along the unit vector (dx, dy) comes within r of
    (cx, cy); INF if never. A point already inside may move away but not closer."""
    ox, oy = px - cx, py - cy
    c = ox * ox + oy * oy - r * r
    b = ox * dx + oy * dy
    if c < 0.0:
        return 0.0 if b < 0.0 else INF
    disc = b * b - c
    if b >= 0.0 or disc < 0.0:
        return INF
    return -b - math.sqrt(disc)
