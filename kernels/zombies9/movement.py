"""Pawns and zombies on the move (A7, A9, Part C).

A pawn walks square by square down its route field (``policy.plan_route``, Q3); entering a
square with zombies it stops and fights them, then (D6) goes on with the points left; it takes
tokens on the way (D7) and puts an item in play on entering its building (Q6). Reaching the
Helipad centre with no zombie there wins (A12, D18). Zombie movement moves a D6's worth of
different figures one square each (a dog one or two, Part C) where they hinder the leader most
(Q7), or at random.
"""

from __future__ import annotations

from kernels.jit import njit
from kernels.rng import d6, uniform
from kernels.zombies9.board import field_run, is_inside, steps_from, zombies_at
from kernels.zombies9.combat import declare_win, fight, is_over
from kernels.zombies9.events import log_event
from kernels.zombies9.hand import pick_up
from kernels.zombies9.layout import (
    BIG,
    EK_MOVE,
    EK_ZMOVES,
    F_CREM,
    F_HELI,
    F_ROUTE,
    F_TMP,
    G_CEMETERY,
    G_CREMATORIUM,
    G_HELIPAD,
    G_KILLS,
    GS_HELI,
    GS_MARBLES_END,
    GS_NT,
    GS_TURN,
    K_ROAD,
    P_CONTINUE,
    P_DOG_MOVES,
    P_KID_FIRST,
    P_MOVE_SHARED,
    P_PICKUP_PASSING,
    PL_GOAL,
    PL_SQ,
    POL_ZOMBIES,
    REASON_HELIPAD,
    SQ_KIND,
    SQ_PAWNS,
    STEP,
    Z_DOG,
)
from kernels.zombies9.pieces import can_hold, figure_column, first_figure, move_zombie, set_pawn
from kernels.zombies9.policy import afs_on, fight_cost, hindrance_scores, plan_route
from kernels.zombies9.replies import try_items

MOVED, CHANGED, STOPPED, DIED, WON = 0, 1, 2, 3, 4  # what entering a square led to


# ---------------------------------------------------------------- a pawn enters a square


@njit
def fight_all(st, tb, rng, g, p, q):
    """Fight every figure on q, one after the other (B6, C); False if p died."""
    while not is_over(st):
        kind = first_figure(st, tb, q, tb.prm[P_KID_FIRST] != 0)
        if kind < 0:
            return True
        if not fight(st, tb, rng, g, p, q, kind, zombies_at(st, q)):
            return False
    return True


@njit
def check_helipad(st, p):
    """A12 / D18: p on the Helipad centre with no zombie on it (or under Alternate Food Source)."""
    heli = st.w_gs[GS_HELI]
    q = st.w_pl[p, PL_SQ]
    if heli >= 0 and q == 9 * heli + 4 and (zombies_at(st, q) == 0 or afs_on(st)):
        declare_win(st, p, REASON_HELIPAD)


@njit
def enter_square(st, tb, rng, g, p, q, last, always_continue):
    """p steps onto q: fights (A7), tokens (D7), the Helipad (A12), items (Q6)."""
    set_pawn(st, p, q)
    fought = False
    if zombies_at(st, q) > 0 and not afs_on(st):
        fought = True
        if not fight_all(st, tb, rng, g, p, q):
            return DIED
        if is_over(st):
            return WON
    changed = fought
    if tb.prm[P_PICKUP_PASSING] != 0 or last:
        changed |= pick_up(st, tb, g, p, q)
    check_helipad(st, p)
    if is_over(st):
        return WON
    changed |= try_items(st, tb, rng, g, p)
    if fought and tb.prm[P_CONTINUE] == 0 and not always_continue:
        return STOPPED
    return CHANGED if changed else MOVED


# ---------------------------------------------------------------- the pawn's own move


@njit
def _downhill(st, x, f, step, zc, no_buildings):
    """The step from x along a cheapest way down field f (cost of entering counted: the field
    satisfies f[x] = min over steps of f[y] + cost(y) except at its seeds), -1 none."""
    best, pick = st.w_field[f, x] + 1, -1
    for d in range(4):
        y = st.w_nb[x, d]
        if y < 0 or (no_buildings and is_inside(st, y)):
            continue
        c = st.w_field[f, y] + step + zc * zombies_at(st, y)
        if c < best:
            best, pick = c, y
    return pick


@njit
def _exit_building(st, tb, rng, g, p, points):
    """Claustrophobia (A11): leave the building by the shortest way; returns points left, or
    -1 if the move ended."""
    n = 9 * st.w_gs[GS_NT]
    for q in range(n):
        st.w_field[F_TMP, q] = 0 if st.w_sq[q, SQ_KIND] == K_ROAD else BIG
    field_run(st, F_TMP, 1, 0, False)
    while points > 0 and is_inside(st, st.w_pl[p, PL_SQ]):
        x = st.w_pl[p, PL_SQ]
        y = _downhill(st, x, F_TMP, 1, 0, False)
        if y < 0:
            return -1
        points -= 1
        status = enter_square(st, tb, rng, g, p, y, points == 0, False)
        if status >= STOPPED:
            return -1
    return points


@njit
def walk(st, tb, rng, g, p, points, goal, no_buildings):
    """p moves up to ``points`` squares towards ``goal`` (A7). Returns squares moved."""
    start = st.w_pl[p, PL_SQ]
    st.w_pl[p, PL_GOAL] = goal
    total = points
    if no_buildings and is_inside(st, start):
        points = _exit_building(st, tb, rng, g, p, points)
        if points < 0 or is_over(st):
            return total
    zc = 0 if goal == G_KILLS or goal == G_CEMETERY else fight_cost(st, tb, p)
    plan_route(st, tb, p, goal, no_buildings)
    while points > 0:
        y = _downhill(st, st.w_pl[p, PL_SQ], F_ROUTE, STEP, zc, no_buildings)
        if y < 0:
            break
        points -= 1
        status = enter_square(st, tb, rng, g, p, y, points == 0, False)
        if status >= STOPPED:
            break
        if status == CHANGED:
            zc = 0 if goal == G_KILLS or goal == G_CEMETERY else fight_cost(st, tb, p)
            plan_route(st, tb, p, goal, no_buildings)
    if tb.prm[P_PICKUP_PASSING] == 0 and not is_over(st):
        pick_up(st, tb, g, p, st.w_pl[p, PL_SQ])
    log_event(st, g, EK_MOVE, p, start, st.w_pl[p, PL_SQ], total - points, goal)
    return total - points


# ---------------------------------------------------------------- moved by an opponent


@njit
def hostile_move(st, tb, rng, g, o, t, budget, fight_through):
    """Player o moves t up to ``budget`` squares (Brain Cramp, Where Did Everybody Go?): to the
    reachable square farthest from t's path goal (or from where t stands), t fighting the
    zombies met. Returns squares moved."""
    pos = st.w_pl[t, PL_SQ]
    steps_from(st, F_TMP, pos)
    goal_f = F_HELI if st.w_pl[t, PL_GOAL] == G_HELIPAD and st.w_gs[GS_HELI] >= 0 else \
        F_CREM if st.w_pl[t, PL_GOAL] == G_CREMATORIUM else -1
    best, dest = -1.0, pos
    for q in range(9 * st.w_gs[GS_NT]):
        d = st.w_field[F_TMP, q]
        if d > budget:
            continue
        score = (st.w_field[goal_f, q] * 100.0 + d) if goal_f >= 0 else d
        if score > best:
            best, dest = score, q
    n = _path_to(st, pos, dest)
    moved = 0
    for i in range(n - 1, -1, -1):
        moved += 1
        status = enter_square(st, tb, rng, g, t, st.w_pick[i], i == 0, fight_through)
        if status >= STOPPED:
            break
    log_event(st, g, EK_MOVE, t, pos, st.w_pl[t, PL_SQ], moved, -1 - o)
    return moved


@njit
def _path_to(st, pos, dest):
    """The squares from dest back to (not including) pos along F_TMP, into ``w_pick``."""
    n = 0
    q = dest
    while q != pos:
        st.w_pick[n] = q
        n += 1
        d = st.w_field[F_TMP, q]
        for k in range(4):
            y = st.w_nb[q, k]
            if y >= 0 and st.w_field[F_TMP, y] == d - 1:
                q = y
                break
    return n


# ---------------------------------------------------------------- zombie movement (A9)


@njit
def zombie_phase(st, tb, rng, g, p):
    """A9: roll a D6 and move that many different figures one square each (dogs 1-2, C);
    nothing under All the Marbles. Returns the figures moved."""
    if st.w_gs[GS_TURN] <= st.w_gs[GS_MARBLES_END]:
        return 0
    k = d6(rng, g)
    n = 9 * st.w_gs[GS_NT]
    st.w_moved[:n, :] = 0
    if tb.pol[p, POL_ZOMBIES] != 0:
        moved = _random_moves(st, tb, rng, g, p, k)
    else:
        hindrance_scores(st, tb, p)
        moved = 0
        for _ in range(k):
            if not _best_move(st, tb, p):
                break
            moved += 1
    log_event(st, g, EK_ZMOVES, p, k, moved, 0, 0)
    return moved


@njit
def _movable(st, tb, q, kind):
    """Unmoved figures of this kind on q that may be moved (D10: also beside a pawn)."""
    if tb.prm[P_MOVE_SHARED] == 0 and st.w_sq[q, SQ_PAWNS] > 0:
        return 0
    return st.w_sq[q, figure_column(kind)] - st.w_moved[q, kind]


@njit
def _best_move(st, tb, p):
    """Q7: apply the one move (figure, 1-2 steps) that raises the hindrance score the most."""
    best = -1e18
    bq, bt, bkind = -1, -1, -1
    dog_steps = int(tb.prm[P_DOG_MOVES])
    for q in range(9 * st.w_gs[GS_NT]):
        if zombies_at(st, q) == 0:
            continue
        for kind in range(3):
            if _movable(st, tb, q, kind) <= 0:
                continue
            h0 = st.w_score[q]
            for d in range(4):
                t = st.w_nb[q, d]
                if t < 0 or not can_hold(st, tb, t, kind):
                    continue
                if st.w_score[t] - h0 > best:
                    best, bq, bt, bkind = st.w_score[t] - h0, q, t, kind
                if kind == Z_DOG and dog_steps >= 2:
                    for e in range(4):
                        u = st.w_nb[t, e]
                        if u >= 0 and u != q and can_hold(st, tb, u, kind) and st.w_score[u] - h0 > best:
                            best, bq, bt, bkind = st.w_score[u] - h0, q, u, kind
    if bq < 0:
        return False
    move_zombie(st, tb, bq, bt, bkind)
    st.w_moved[bt, bkind] += 1
    return True


@njit
def _random_moves(st, tb, rng, g, p, k):
    """The random baseline of Q7: k times a uniformly drawn legal move (figure, destination:
    one square, a dog also two, Part C)."""
    moved = 0
    for _ in range(k):
        count = _count_moves(st, tb, -1)
        if count == 0:
            break
        _count_moves(st, tb, int(uniform(rng, g) * count))
        moved += 1
    return moved


@njit
def _count_moves(st, tb, pick):
    """Count the legal moves (each figure kind on a square to each destination it can reach:
    one square; a dog also two, Part C, each destination once); with pick >= 0 apply move
    number ``pick``."""
    count = 0
    dog_steps = int(tb.prm[P_DOG_MOVES])
    for q in range(9 * st.w_gs[GS_NT]):
        if zombies_at(st, q) == 0:
            continue
        for kind in range(3):
            if _movable(st, tb, q, kind) <= 0:
                continue
            for d in range(4):
                t = st.w_nb[q, d]
                if t < 0 or not can_hold(st, tb, t, kind):
                    continue
                if count == pick:
                    return _apply(st, tb, q, t, kind, count)
                count += 1
                if kind != Z_DOG or dog_steps < 2:
                    continue
                for e in range(4):
                    u = st.w_nb[t, e]
                    if u < 0 or u == q or not can_hold(st, tb, u, kind) or _reached_before(st, tb, q, u, kind, d):
                        continue
                    if count == pick:
                        return _apply(st, tb, q, u, kind, count)
                    count += 1
    return count


@njit
def _reached_before(st, tb, q, u, kind, d):
    """Is u two steps from q by a first step in a direction before d (listed already)?"""
    for d2 in range(d):
        t = st.w_nb[q, d2]
        if t >= 0 and can_hold(st, tb, t, kind):
            for e in range(4):
                if st.w_nb[t, e] == u:
                    return True
    return False


@njit
def _apply(st, tb, q, t, kind, count):
    move_zombie(st, tb, q, t, kind)
    st.w_moved[t, kind] += 1
    return count
