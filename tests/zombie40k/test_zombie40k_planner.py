"""The movement planner keeps what a move needs (issue 30 item 2; docs/space.md): its moves are the
plain planner's to the last bit. The plain planner (casting every wall and circle at every step,
the blocker cast again, the sine and cosine of every detour heading) is written out here in Python
over the kernels' own primitives (their Python functions): Python floats are the same IEEE doubles
and libm as the kernels' (no fast-math, no FMA contraction: kernels/jit.py), so the two agree
exactly or the planner changed a move.
"""

from __future__ import annotations

import math

import numpy as np
from conftest import example_config, one_game
from fidelity_helpers import GL

import kernels.w40k.geometry
import kernels.zombie40k.geometry
import kernels.zombie40k.turn
from kernels.jit import entry_point

geometry = kernels.zombie40k.geometry


def _plain(kernel):
    """A kernel's Python function (the primitives the planner casts with, unchanged by it)."""
    return getattr(kernel, "py_func", kernel)


_norm = _plain(kernels.w40k.geometry.norm)
_ray_circle = _plain(kernels.w40k.geometry.ray_circle)
_ray_box_exit = _plain(geometry.ray_box_exit)
_ray_box_entry = _plain(geometry.ray_box_entry)


class Plain:
    """The planner before it kept anything (session 28): every circle of the table, both walls, at
    every ray."""

    def __init__(self, pos, radii, on, u, target, prm):
        self.prm, self.ru = prm, radii[u]
        first = prm[GL.P_FIRST_ZOMBIE]
        self.circles = []
        for v in range(len(radii)):
            if v != u and on[v]:
                keep = 0.0 if v == target else (prm[GL.P_FRIENDLY_GAP] if u >= first and v >= first else 1.0)
                self.circles.append((pos[v, 0], pos[v, 1], radii[u] + radii[v] + keep, v))
        half, mid = 0.5 * prm[GL.P_EV_W], 0.5 * prm[GL.P_TABLE_W]
        self.ev = (mid - half, mid + half, prm[GL.P_TABLE_L] - prm[GL.P_EV_D], prm[GL.P_TABLE_L])

    def travel(self, px, py, dx, dy):
        ru, prm = self.ru, self.prm
        t = _ray_box_exit(px, py, dx, dy, ru, prm[GL.P_TABLE_W] - ru, ru, prm[GL.P_TABLE_L] - ru)
        x0, x1, y0, y1 = self.ev
        t = min(t, _ray_box_entry(px, py, dx, dy, x0 - ru, x1 + ru, y0 - ru, y1 + ru))
        for cx, cy, r, _ in self.circles:
            t = min(t, _ray_circle(px, py, dx, dy, cx, cy, r))
        return t

    def blocker(self, px, py, dx, dy):
        best, best_t = -1, 1e-6
        for cx, cy, r, v in self.circles:
            t = _ray_circle(px, py, dx, dy, cx, cy, r)
            if t <= best_t:
                best, best_t = v, t
        return best


def plain_move(pos, radii, on, u, gx, gy, budget, target, stop_at, prm):
    """(x, y, moved, detour steps) of the plain planner's move (``move_planner = "detour"``)."""
    plain = Plain(pos, radii, on, u, target, prm)
    x0, y0 = pos[u, 0], pos[u, 1]
    px, py, left, side, steps = x0, y0, budget, 0.0, 0
    for _ in range(geometry.DETOUR_STEPS):
        dist = _norm(gx - px, gy - py)
        if dist <= stop_at + 1e-9 or left <= 1e-9:
            break
        dx, dy = (gx - px) / dist, (gy - py) / dist
        want = min(left, dist - stop_at)
        t = min(want, plain.travel(px, py, dx, dy))
        if t > 1e-9:
            px, py, left = px + t * dx, py + t * dy, left - t
            if t >= want - 1e-9:
                break
            continue
        v = plain.blocker(px, py, dx, dy)
        if v < 0 or _norm(pos[v, 0] - gx, pos[v, 1] - gy) < 1e-6:
            break
        base = math.atan2(dy, dx)
        moved = False
        for k in range(1, 7):
            for sign in (1.0, -1.0):
                if side != 0.0 and sign != side:
                    continue
                turn = base + sign * k * geometry.DETOUR_TURN
                ax, ay = math.cos(turn), math.sin(turn)
                s = min(geometry.DETOUR_STEP, left, plain.travel(px, py, ax, ay))
                if s > 0.25 * geometry.DETOUR_STEP or (s > 1e-9 and s >= left - 1e-9):
                    px, py, left, side, moved = px + s * ax, py + s * ay, left - s, sign, True
                    steps += 1
                    break
            if moved:
                break
        if not moved:
            break
    if _norm(gx - px, gy - py) >= _norm(gx - x0, gy - y0) - 1e-9:
        return x0, y0, 0.0, steps
    return px, py, _norm(px - x0, py - y0), steps


def plain_straight_move(pos, radii, on, u, gx, gy, budget, target, stop_at, prm):
    """(x, y, moved) of the plain planner's move under ``move_planner = "straight"``."""
    plain = Plain(pos, radii, on, u, target, prm)
    px, py = pos[u, 0], pos[u, 1]
    dist = _norm(gx - px, gy - py)
    if dist <= stop_at + 1e-9 or budget <= 0.0:
        return px, py, 0.0
    want = min(budget, dist - stop_at)
    base = math.atan2(gy - py, gx - px)
    best_x, best_y, best_gain = px, py, 0.0
    for k, turn in enumerate(geometry.HEADINGS):
        dx, dy = math.cos(base + turn), math.sin(base + turn)
        t = min(want, plain.travel(px, py, dx, dy))
        nx, ny = px + t * dx, py + t * dy
        gain = dist - _norm(gx - nx, gy - ny)
        if gain > best_gain + 1e-9:
            best_x, best_y, best_gain = nx, ny, gain
        if k == 0 and t >= want - 1e-9:
            break
    return best_x, best_y, _norm(best_x - px, best_y - py)


def _moves(seeds, n_moves):
    """Moves on the tables of real games at their end: random units, goals (a point, or another unit
    it goes for), budgets and stops. Yields (st, tb, u, gx, gy, budget, target, stop_at)."""
    gen = np.random.default_rng(30)
    for seed in seeds:
        st, tb, rng = one_game(example_config("four_players"), seed=seed)
        # the game played by its own entry point (compiled once, cached: no twin of play_game)
        entry_point(kernels.zombie40k.turn.play_batch)(st, tb, np.uint64(seed), np.int64(0), False, rng)
        on = [u for u in range(st.pos.shape[1]) if st.ustate[0, u, GL.US_ON_TABLE]]
        for _ in range(n_moves):
            u = int(gen.choice(on))
            budget = float(gen.uniform(0.5, 12.0))
            target, stop_at = -1, 0.0
            if gen.random() < 0.5 and len(on) > 1:
                target = int(gen.choice([v for v in on if v != u]))
                gx, gy = st.pos[0, target]
            else:
                gx, gy = gen.uniform(0.0, tb.prm[GL.P_TABLE_W]), gen.uniform(0.0, tb.prm[GL.P_TABLE_L])
                stop_at = float(gen.choice([0.0, 1.0, 3.0]))
            yield st, tb, u, float(gx), float(gy), budget, target, stop_at


def test_the_planner_makes_the_plain_planners_moves_to_the_last_bit():
    """Walls out of reach left out, the blocker found in the straight try's casts and the detour
    headings that surely fail told without their sine and cosine change no move: on the tables of
    six real games, 1,800 moves end where the plain planner's end, bit for bit, and enough of them
    go around something (at least a tenth, with three detour steps or more) to test the detour."""
    detours = total = 0
    for st, tb, u, gx, gy, budget, target, stop_at in _moves(range(1, 7), 300):
        on = st.ustate[0, :, GL.US_ON_TABLE] != 0
        x, y, moved, steps = plain_move(st.pos[0], st.radius[0], on, u, gx, gy, budget, target, stop_at, tb.prm)
        pos = st.pos.copy()
        near = np.zeros((pos.shape[1], 4))
        got = geometry.move_towards(pos, st.radius[0], st.ustate, 0, u, gx, gy, budget, target, stop_at, tb.prm,
                                    near)
        assert (pos[0, u, 0], pos[0, u, 1], got) == (x, y, moved), (u, gx, gy, budget, target, stop_at)
        detours += steps >= 3
        total += 1
    assert detours >= total // 10


def test_the_straight_planner_makes_the_plain_planners_moves_to_the_last_bit():
    """``move_planner = "straight"`` leaves out the walls out of reach too: the same moves, bit for
    bit, on the tables of two real games (600 moves)."""
    for st, tb, u, gx, gy, budget, target, stop_at in _moves(range(1, 3), 300):
        prm = tb.prm.copy()
        prm[GL.P_PLANNER_STRAIGHT] = 1
        on = st.ustate[0, :, GL.US_ON_TABLE] != 0
        x, y, moved = plain_straight_move(st.pos[0], st.radius[0], on, u, gx, gy, budget, target, stop_at, prm)
        pos = st.pos.copy()
        near = np.zeros((pos.shape[1], 4))
        got = geometry.move_towards(pos, st.radius[0], st.ustate, 0, u, gx, gy, budget, target, stop_at, prm, near)
        assert (pos[0, u, 0], pos[0, u, 1], got) == (x, y, moved)


def test_walls_out_of_reach_stop_no_move():
    """``walls_in_reach``: from random points of a real table, on random headings, a straight
    move of up to ``reach`` is as far with the walls it leaves out as with both (exact equality),
    and it does leave some out (else this would test nothing)."""
    st, tb, rng = one_game(example_config("four_players"))
    gen = np.random.default_rng(8)
    near = np.zeros((st.pos.shape[1], 4))
    left_out = 0
    for _ in range(600):
        ru = float(gen.uniform(0.5, 4.0))
        x = float(gen.uniform(ru, tb.prm[GL.P_TABLE_W] - ru))
        y = float(gen.uniform(ru, tb.prm[GL.P_TABLE_L] - ru))
        reach = float(gen.uniform(0.5, 12.0))
        a = gen.uniform(0.0, 2 * np.pi)
        edges, ev = geometry.walls_in_reach(x, y, ru, reach, tb.prm)
        left_out += (not edges) + (not ev)
        cap = float(gen.uniform(0.0, reach))
        assert min(cap, geometry.free_travel(near, 0, ru, x, y, np.cos(a), np.sin(a), tb.prm, edges, ev)) == \
            min(cap, geometry.free_travel(near, 0, ru, x, y, np.cos(a), np.sin(a), tb.prm, True, True))
    assert left_out > 0
