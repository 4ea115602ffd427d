"""The players' choices the rules leave open (spec "Policies" Q1-Q9), as numbers.

Every choice reads the chooser's row of ``Tables.pol`` (layout POL_*). The estimates behind
them: a pawn moves ``speed`` squares a turn (3.5, +2 on a Skateboard, 7 on two dice); a player
is ``turns_to_win`` turns from a win (steps to the Helipad / speed; missing kills times
POL_TURNS_PER_KILL; the Crematorium's or the Cemeteries' zombies likewise); the *leader* of a
player is the opponent with the fewest turns to win. Distances are unweighted steps on the
map (``F_HELI``, ``F_CREM`` are cached per map version), plans are weighted by fights (Q3).
"""

from __future__ import annotations

from kernels.jit import njit
from kernels.rng import uniform
from kernels.zombies9.board import (
    dx,
    dy,
    field_clear,
    field_run,
    has_exit,
    mid_square,
    open_edges,
    steps_from,
    steps_to_tile,
    zombies_at,
)
from kernels.zombies9.layout import (
    BIG,
    CI_ALT_BUILDING,
    CI_BUILDING,
    CI_EFFECT,
    CI_VALUE,
    E_AXE,
    E_CHAINSAW,
    E_FIRST_AID,
    E_GRENADE,
    E_MARBLES,
    E_MOLOTOV,
    E_SKATEBOARD,
    F_CREM,
    F_FROM_L,
    F_FROM_S,
    F_GOAL_L,
    F_HELI,
    F_PLAN,
    F_ROUTE,
    G_CEMETERY,
    G_CREMATORIUM,
    G_GATHER,
    G_HELIPAD,
    G_KILLS,
    GOAL_GREEDY,
    GOAL_HELIPAD,
    GOAL_KILLS,
    GS_AFS_END,
    GS_BOARD,
    GS_CEM_Z,
    GS_CREM,
    GS_HELI,
    GS_HELI_GONE,
    GS_N0,
    GS_N1,
    GS_NT,
    GS_TOP0,
    GS_TOP1,
    GS_TURN,
    GS_VER_CREM,
    GS_VER_HELI,
    GS_VERSION,
    MODE_ALONE,
    MODE_MIXED,
    P_ALONE_KILLS,
    P_ITEM_TILE,
    P_KILLS_TO_WIN,
    P_LIFE_CAP,
    P_MODE,
    P_N_PLAYERS,
    P_SKATEBOARD,
    P_TWO_DICE,
    PL_AXE,
    PL_BULLETS,
    PL_CHAINSAW,
    PL_FIRST_AID,
    PL_GOAL,
    PL_GRENADE,
    PL_HAND,
    PL_KILLS,
    PL_LIFE,
    PL_MARBLES,
    PL_MOLOTOV,
    PL_PLAYED,
    PL_SKATEBOARD,
    PL_SQ,
    POL_ATTACK_LIFE,
    POL_BLOCK_W,
    POL_CREM_FACTOR,
    POL_CREM_TURNS,
    POL_DETOUR,
    POL_FARM_KILLS,
    POL_FIGHT_STEPS,
    POL_GOAL,
    POL_HUNT,
    POL_MARGIN,
    POL_NEAR_W,
    POL_PLACE_RANDOM,
    POL_SCOUT,
    POL_SELF_W,
    POL_TURNS_PER_KILL,
    POL_V_CREM,
    POL_V_FRONT,
    POL_V_HELIPAD,
    POL_V_ITEM,
    POL_V_TOKEN,
    POL_V_ZOMBIE,
    R_CREMATORIUM,
    R_HELIPAD,
    SQ_BLD,
    SQ_BULLET,
    SQ_LIFE,
    STEP,
    TI_BULLETS,
    TI_LIFE,
    TI_ROLE,
    TS_ROT,
    TS_TYPE,
    TS_X,
    TS_Y,
    TS_Z,
)
from kernels.zombies9.pieces import is_cemetery_square

HORIZON = 12  # squares ahead on a path that a zombie is worth blocking (Q7), about two turns
NEAR = 4  # squares around a pawn without a path goal where a zombie is in its way (Q7, POL_NEAR_W)


# ---------------------------------------------------------------- estimates


@njit
def speed(st, tb, p):
    base = 7.0 if tb.prm[P_TWO_DICE] != 0 and st.w_gs[GS_HELI] >= 0 else 3.5
    return base + (st.w_pl[p, PL_SKATEBOARD] >= 0) * tb.prm[P_SKATEBOARD]


@njit
def ensure_fields(st):
    """F_HELI and F_CREM for the map as it is (recomputed after a tile is laid)."""
    v = st.w_gs[GS_VERSION]
    if st.w_gs[GS_HELI] >= 0 and st.w_gs[GS_VER_HELI] != v:
        steps_from(st, F_HELI, 9 * st.w_gs[GS_HELI] + 4)
        st.w_gs[GS_VER_HELI] = v
    if st.w_gs[GS_CREM] >= 0 and st.w_gs[GS_VER_CREM] != v:
        steps_to_tile(st, F_CREM, st.w_gs[GS_CREM])
        st.w_gs[GS_VER_CREM] = v


@njit
def afs_on(st):
    """Alternate Food Source in force (A11): no fights until the end of its player's next turn."""
    return st.w_gs[GS_TURN] <= st.w_gs[GS_AFS_END]


@njit
def crematorium_open(st, tb):
    crem = st.w_gs[GS_CREM]
    return tb.prm[P_MODE] == MODE_MIXED and crem >= 0 and st.w_tile[crem, TS_Z] > 0


@njit
def turns_to_win(st, tb, o, p):
    """Player o's estimate of p's turns to a win, and that win's goal (G_*)."""
    pos = st.w_pl[p, PL_SQ]
    tpk = tb.pol[o, POL_TURNS_PER_KILL]
    best, kind = 1e9, G_GATHER
    if tb.prm[P_MODE] != MODE_ALONE or tb.prm[P_ALONE_KILLS] != 0:  # D28's option: 25 kills win alone too
        best, kind = (tb.prm[P_KILLS_TO_WIN] - st.w_pl[p, PL_KILLS]) * tpk, G_KILLS
    if st.w_gs[GS_HELI] >= 0 and st.w_field[F_HELI, pos] < BIG:
        t = st.w_field[F_HELI, pos] / speed(st, tb, p)
        if t < best:
            best, kind = t, G_HELIPAD
    if crematorium_open(st, tb) and st.w_field[F_CREM, pos] < BIG:
        t = st.w_field[F_CREM, pos] / speed(st, tb, p) + st.w_tile[st.w_gs[GS_CREM], TS_Z] * tpk
        if t < best:
            best, kind = t, G_CREMATORIUM
    if tb.prm[P_MODE] == MODE_ALONE:
        t = _cemetery_turns(st, tb, p, tpk)
        if t < best:
            best, kind = t, G_CEMETERY
    return best, kind


@njit
def _cemetery_turns(st, tb, p, tpk):
    """B8 / D27 (alone): no win before the graveyard stack is done (its tiles are laid one a
    player-turn), then p must reach the Cemetery zombies (F_GOAL_L, ``cemetery_field``) and the
    table must kill them (shared by the hunters: half each)."""
    n = tb.prm[P_N_PLAYERS]
    stack_rounds = max(0, st.w_gs[GS_N1] - st.w_gs[GS_TOP1]) / n
    reach = 0.0
    if st.w_gs[GS_CEM_Z] > 0:
        d = st.w_field[F_GOAL_L, st.w_pl[p, PL_SQ]]
        if d >= BIG:
            return 1e9
        reach = d / speed(st, tb, p)
    return max(stack_rounds, reach) + st.w_gs[GS_CEM_Z] * tpk / 2.0 + 1.0


@njit
def cemetery_field(st, tb):
    """F_GOAL_L = unweighted steps to the nearest zombie on a Cemetery tile (alone mode)."""
    field_clear(st, F_GOAL_L)
    for q in range(9 * st.w_gs[GS_NT]):
        if zombies_at(st, q) > 0 and is_cemetery_square(st, tb, q):
            st.w_field[F_GOAL_L, q] = 0
    field_run(st, F_GOAL_L, 1, 0, False)


@njit
def leader(st, tb, o):
    """The opponent of o closest to a win (ties: the next in turn order): (seat, turns, goal)."""
    n = int(tb.prm[P_N_PLAYERS])
    best, who, kind = 1e18, -1, G_GATHER
    if tb.prm[P_MODE] == MODE_ALONE:
        cemetery_field(st, tb)  # Q6: who is closest to the Cemeteries' last zombie
    for k in range(1, n):
        p = (o + k) % n
        t, g = turns_to_win(st, tb, o, p)
        if t < best:
            best, who, kind = t, p, g
    return who, best, kind


@njit
def fight_cost(st, tb, p):
    """Q3: the weighted cost of a zombie square, from life and bullets (tenths of a step)."""
    if afs_on(st):
        return 0
    means = st.w_pl[p, PL_LIFE] / 2.0 + st.w_pl[p, PL_BULLETS] / 2.0
    return int(STEP * tb.pol[p, POL_FIGHT_STEPS] * 4.5 / max(means, 0.5))


# ---------------------------------------------------------------- Q1: the goal


@njit
def choose_goal(st, tb, p):
    """Q1 (module docstring): the goal p walks to this turn."""
    ensure_fields(st)
    if tb.prm[P_MODE] == MODE_ALONE:
        return _goal_alone(st, tb, p)
    rule = tb.pol[p, POL_GOAL]
    heli = st.w_gs[GS_HELI] >= 0 and st.w_field[F_HELI, st.w_pl[p, PL_SQ]] < BIG
    if rule == GOAL_HELIPAD:
        return G_HELIPAD if heli else G_GATHER
    if rule == GOAL_KILLS:  # while there are zombies to kill; then the Helipad
        return G_KILLS if st.w_gs[GS_BOARD] > 0 or not heli else G_HELIPAD
    if rule == GOAL_GREEDY:
        t, kind = turns_to_win(st, tb, p, p)
        return kind
    if crematorium_open(st, tb) and _crematorium_within_reach(st, tb, p):
        return G_CREMATORIUM
    farm = st.w_pl[p, PL_KILLS] >= tb.pol[p, POL_FARM_KILLS] and st.w_gs[GS_BOARD] > 0
    if heli:
        mine = st.w_field[F_HELI, st.w_pl[p, PL_SQ]] / speed(st, tb, p)
        if mine <= _best_opponent_eta(st, tb, p) + tb.pol[p, POL_MARGIN] or not farm:
            return G_HELIPAD
        return G_KILLS
    return G_KILLS if farm else G_GATHER


@njit
def _goal_alone(st, tb, p):
    """B8: the Cemeteries; with D28's option (`alone_kills_win`) kills when the collection is
    nearer its 25 than the Cemeteries are to being cleared (Q1's farm_kills threshold)."""
    if tb.prm[P_ALONE_KILLS] != 0 and st.w_gs[GS_BOARD] > 0 and st.w_pl[p, PL_KILLS] >= tb.pol[p, POL_FARM_KILLS]:
        return G_KILLS
    return G_CEMETERY if st.w_gs[GS_CEM_Z] > 0 else G_GATHER


@njit
def _best_opponent_eta(st, tb, p):
    n = int(tb.prm[P_N_PLAYERS])
    best = 1e9
    for o in range(n):
        if o != p:
            best = min(best, st.w_field[F_HELI, st.w_pl[o, PL_SQ]] / speed(st, tb, o))
    return best


@njit
def _crematorium_within_reach(st, tb, p):
    """Q1: its zombies <= factor x (life + bullets / 2) and it is reachable in POL_CREM_TURNS."""
    crem = st.w_gs[GS_CREM]
    means = st.w_pl[p, PL_LIFE] / 2.0 + st.w_pl[p, PL_BULLETS] / 2.0
    reach = st.w_field[F_CREM, st.w_pl[p, PL_SQ]] / speed(st, tb, p)
    return st.w_tile[crem, TS_Z] <= tb.pol[p, POL_CREM_FACTOR] * means and reach <= tb.pol[p, POL_CREM_TURNS]


@njit
def path_field(goal):
    """The cached unweighted field of a path goal (F_HELI, F_CREM), -1 for the others."""
    if goal == G_HELIPAD:
        return F_HELI
    if goal == G_CREMATORIUM:
        return F_CREM
    return -1


# ---------------------------------------------------------------- Q3: the route


@njit
def wants_token(st, tb, p, q):
    life = st.w_sq[q, SQ_LIFE] > 0 and st.w_pl[p, PL_LIFE] < 2 * tb.prm[P_LIFE_CAP]
    return life or st.w_sq[q, SQ_BULLET] > 0


@njit
def _hunting(st, tb, p):
    return tb.pol[p, POL_HUNT] > 0 and (st.w_pl[p, PL_LIFE] >= 4 or st.w_pl[p, PL_BULLETS] >= 2)


@njit
def item_slot(st, tb, p, card):
    """The first building slot (or tile, D16) where p may put item ``card`` in play, -1 none;
    with D15's option a card has two buildings (``item_building``)."""
    if tb.cards[card, CI_BUILDING] < 0 or item_in_play(st, p, tb.cards[card, CI_EFFECT]):
        return -1
    for k in range(st.w_gs[GS_NT]):
        if item_building(tb, card, st.w_tile[k, TS_TYPE]):
            return k
    return -1


@njit
def item_building(tb, card, t):
    """Is tile type t a building item ``card`` is played in (A10; D15: the First Aid Kit in the
    Hospital or the Drug Store)?"""
    return t == tb.cards[card, CI_BUILDING] or t == tb.cards[card, CI_ALT_BUILDING]


@njit
def item_column(effect):
    """The PL_* column an item card lies in when in play; -1 for other cards (Lots of Ammo is
    spent at once, so it has none)."""
    if effect == E_AXE:
        return PL_AXE
    if effect == E_CHAINSAW:
        return PL_CHAINSAW
    if effect == E_MOLOTOV:
        return PL_MOLOTOV
    if effect == E_FIRST_AID:
        return PL_FIRST_AID
    if effect == E_GRENADE:
        return PL_GRENADE
    if effect == E_SKATEBOARD:
        return PL_SKATEBOARD
    if effect == E_MARBLES:
        return PL_MARBLES
    return -1


@njit
def item_in_play(st, p, effect):
    """A10: only one item of each kind in play (Lots of Ammo is spent at once: never in play)."""
    col = item_column(effect)
    return col >= 0 and st.w_pl[p, col] >= 0


@njit
def in_item_place(st, tb, q, k):
    """Is square q where an item of building slot k is played (A10; D16 anywhere on the tile)?"""
    if tb.prm[P_ITEM_TILE] != 0:
        return q // 9 == k
    return st.w_sq[q, SQ_BLD] == k


@njit
def _seed_items(st, tb, p, f, value_of):
    """Item buildings of p's hand cards as seeds of field f (when a card may still be played)."""
    if st.w_pl[p, PL_PLAYED]:
        return
    for i in range(PL_HAND, PL_HAND + 6):
        c = st.w_pl[p, i]
        if c < 0 or tb.cards[c, CI_BUILDING] < 0:
            continue
        if item_slot(st, tb, p, c) < 0:
            continue
        for k in range(st.w_gs[GS_NT]):  # every building of the card (D15: two)
            if not item_building(tb, c, st.w_tile[k, TS_TYPE]):
                continue
            for j in range(9):
                q = 9 * k + j
                if in_item_place(st, tb, q, k):
                    _seed(st, f, q, value_of)


@njit
def _seed(st, f, q, value_of):
    """Seed q at 0 (value_of < 0) or at field value_of's value less the detour allowance."""
    v = 0
    if value_of >= 0:
        v = st.w_field[value_of, q]
        if v >= BIG:
            return
    if v < st.w_field[f, q]:
        st.w_field[f, q] = v


@njit
def plan_route(st, tb, p, goal, no_buildings):
    """F_PLAN (weighted cost to the goal's squares) and F_ROUTE (the same with detours of up
    to POL_DETOUR squares for tokens and item buildings, Q3). Returns False if p has nowhere
    to go."""
    n = 9 * st.w_gs[GS_NT]
    field_clear(st, F_PLAN)
    seeds = 0
    heli = st.w_gs[GS_HELI]
    for q in range(n):
        z = zombies_at(st, q)
        hit = False
        if goal == G_HELIPAD:
            hit = q == 9 * heli + 4
        elif goal == G_CREMATORIUM:
            hit = q // 9 == st.w_gs[GS_CREM] and z > 0
        elif goal == G_CEMETERY:
            hit = z > 0 and is_cemetery_square(st, tb, q)
        elif goal == G_KILLS:
            hit = z > 0
        else:
            hit = (z > 0 and _hunting(st, tb, p)) or wants_token(st, tb, p, q)
        if hit:
            st.w_field[F_PLAN, q] = 0
            seeds += 1
    if goal == G_GATHER:
        _seed_items(st, tb, p, F_PLAN, -1)
        seeds += 1
        if tb.pol[p, POL_SCOUT] != 0 and heli < 0 and st.w_gs[GS_HELI_GONE] == 0:
            _seed_frontier(st, tb, F_PLAN)
    zc = 0 if goal == G_KILLS or goal == G_CEMETERY else fight_cost(st, tb, p)
    field_run(st, F_PLAN, STEP, zc, no_buildings)
    # the route: the plan, and tokens / item buildings seeded at their plan cost less the detour
    for q in range(n):
        st.w_field[F_ROUTE, q] = st.w_field[F_PLAN, q]
    detour = int(tb.pol[p, POL_DETOUR] * STEP)
    for q in range(n):
        if st.w_field[F_PLAN, q] < BIG and st.w_field[F_PLAN, q] > 0 and wants_token(st, tb, p, q):
            st.w_field[F_ROUTE, q] = max(0, st.w_field[F_PLAN, q] - detour)
    if goal != G_GATHER:
        _seed_items_detour(st, tb, p, detour)
    field_run(st, F_ROUTE, STEP, zc, no_buildings)
    return seeds > 0


@njit
def _seed_frontier(st, tb, f):
    """Seed (at 0) the road exits that lead off the map: where the next tiles, the Helipad among
    them, will join (A6)."""
    for k in range(st.w_gs[GS_NT]):
        t, x, y, r = st.w_tile[k, TS_TYPE], st.w_tile[k, TS_X], st.w_tile[k, TS_Y], st.w_tile[k, TS_ROT]
        for d in range(4):
            if has_exit(tb, t, r, d) and st.w_grid[y + dy(d), x + dx(d)] < 0:
                st.w_field[f, 9 * k + mid_square(d)] = 0


@njit
def _seed_items_detour(st, tb, p, detour):
    n = 9 * st.w_gs[GS_NT]
    for q in range(n):
        st.w_field[F_FROM_S, q] = BIG  # scratch: item squares at 0
    _seed_items(st, tb, p, F_FROM_S, -1)
    for q in range(n):
        if st.w_field[F_FROM_S, q] == 0 and st.w_field[F_PLAN, q] < BIG:
            st.w_field[F_ROUTE, q] = min(st.w_field[F_ROUTE, q], max(0, st.w_field[F_PLAN, q] - detour))


# ---------------------------------------------------------------- Q2: where a tile goes


@njit
def tile_value(st, tb, p, t):
    """How much p wants tile type t near itself (negative: near the leader instead)."""
    pol = tb.pol[p]
    v = pol[POL_V_TOKEN] * (tb.tile_info[t, TI_LIFE] + tb.tile_info[t, TI_BULLETS])
    role = tb.tile_info[t, TI_ROLE]
    z = tb.tile_info[t, 0]
    if role == R_HELIPAD:
        v += pol[POL_V_HELIPAD]
    if role == R_CREMATORIUM and tb.prm[P_MODE] == MODE_MIXED:
        v += pol[POL_V_CREM]
    for i in range(PL_HAND, PL_HAND + 6):
        c = st.w_pl[p, i]
        if c >= 0 and (tb.cards[c, CI_BUILDING] == t or tb.cards[c, CI_ALT_BUILDING] == t):
            v += pol[POL_V_ITEM]
    return v - pol[POL_V_ZOMBIE] * z


@njit
def _reach(st, f, t, tb, x, y, r):
    """Steps (field f) to the road exit the tile at (x, y) would join, +1."""
    best = BIG
    for d in range(4):
        k = st.w_grid[y + dy(d), x + dx(d)]
        if k >= 0 and has_exit(tb, t, r, d):
            best = min(best, st.w_field[f, 9 * k + mid_square((d + 2) % 4)] + 1)
    return best


@njit
def _new_ends(st, tb, t, x, y, r):
    """Road exits of tile t at (x, y), turned r, that would lead off the map."""
    ends = 0
    for d in range(4):
        ends += has_exit(tb, t, r, d) and st.w_grid[y + dy(d), x + dx(d)] < 0
    return ends


@njit
def _open_change(st, tb, t, x, y, r):
    """How the count of open road edges would change if tile t were laid at (x, y), turned r."""
    delta = 0
    for d in range(4):
        k = st.w_grid[y + dy(d), x + dx(d)]
        if has_exit(tb, t, r, d):
            delta += 1 if k < 0 else -1
    return delta


@njit
def choose_placement(st, tb, rng, g, p, t, n):
    """Q2 among the n candidates in ``w_cand``: maximise value x (leader's steps - own steps),
    never closing the map while another placement fits, ties broken at random; the random-legal
    baseline draws one uniformly."""
    if n == 1:
        return 0
    if tb.pol[p, POL_PLACE_RANDOM] != 0:
        return min(n - 1, int(uniform(rng, g) * n))
    ensure_fields(st)
    who, _, _ = leader(st, tb, p)
    steps_from(st, F_FROM_S, st.w_pl[p, PL_SQ])
    steps_from(st, F_FROM_L, st.w_pl[who, PL_SQ])
    v = tile_value(st, tb, p, t)
    front = tb.pol[p, POL_V_FRONT] if st.w_gs[GS_HELI] < 0 and st.w_gs[GS_HELI_GONE] == 0 else 0.0
    best, pick = -1e18, 0
    for i in range(n):
        x, y, r = st.w_cand[i, 0], st.w_cand[i, 1], st.w_cand[i, 2]
        d_self = min(_reach(st, F_FROM_S, t, tb, x, y, r), 60)
        d_lead = min(_reach(st, F_FROM_L, t, tb, x, y, r), 60)
        w = v + front * _new_ends(st, tb, t, x, y, r)  # issue 26: the frontier where the Helipad may come
        score = w * (d_lead - d_self) + 1e-3 * uniform(rng, g)
        if open_edges(st) + _open_change(st, tb, t, x, y, r) == 0:
            score -= 1e6  # A6: closing the map costs the rest of the turn; only when nothing else fits
        if score > best:
            best, pick = score, i
    return pick


# ---------------------------------------------------------------- Q7: where zombies hurt


@njit
def _on_path(st, f_from, f_goal, q, pos):
    return st.w_field[f_from, q] + st.w_field[f_goal, q] <= st.w_field[f_goal, pos] and st.w_field[f_from, q] <= HORIZON


@njit
def block_value(st, tb, p, who, goal_l, q):
    """How much a zombie on q hinders p's leader ``who`` (path goal field goal_l, -1 none)."""
    pos = st.w_pl[who, PL_SQ]
    if goal_l >= 0:
        v = 12.0 * (q == pos)
        if _on_path(st, F_FROM_L, goal_l, q, pos):
            v += HORIZON - st.w_field[F_FROM_L, q]
        return v
    near = tb.pol[p, POL_NEAR_W] * max(0, NEAR - st.w_field[F_FROM_L, q])  # in its way, whatever it does next
    if st.w_pl[who, PL_LIFE] <= 2 * tb.pol[p, POL_ATTACK_LIFE]:
        return 12.0 * (q == pos) + 6.0 * (st.w_field[F_FROM_L, q] == 1) + near
    return near


@njit
def own_value(st, tb, p, goal_s, q):
    """How much a zombie on q hinders the active player p (its own square and path; with no path
    goal, POL_NEAR_W x its nearness)."""
    pos = st.w_pl[p, PL_SQ]
    v = 12.0 * (q == pos)
    if goal_s >= 0 and _on_path(st, F_FROM_S, goal_s, q, pos):
        v += HORIZON - st.w_field[F_FROM_S, q]
    elif goal_s < 0:
        v += tb.pol[p, POL_NEAR_W] * max(0, NEAR - st.w_field[F_FROM_S, q])
    return v


@njit
def prepare_hindrance(st, tb, p):
    """Fields for block_value / own_value; returns (leader, leader's path field, own path field)."""
    ensure_fields(st)
    who, _, kind = leader(st, tb, p)
    steps_from(st, F_FROM_L, st.w_pl[who, PL_SQ])
    steps_from(st, F_FROM_S, st.w_pl[p, PL_SQ])
    return who, path_field(kind), path_field(st.w_pl[p, PL_GOAL])


@njit
def hindrance(st, tb, p, who, goal_l, goal_s, q):
    """Q7 score of a zombie standing on q, for the active player p."""
    return tb.pol[p, POL_BLOCK_W] * block_value(st, tb, p, who, goal_l, q) - tb.pol[p, POL_SELF_W] * own_value(
        st, tb, p, goal_s, q)


@njit
def hindrance_scores(st, tb, p):
    """w_score[q] = the Q7 hindrance of a zombie on q for player p, every square of the map;
    returns p's leader. The one caller of `hindrance` in a game, so LLVM inlines it here (with
    the state by reference it kept a call per square otherwise)."""
    who, goal_l, goal_s = prepare_hindrance(st, tb, p)
    for q in range(9 * st.w_gs[GS_NT]):
        st.w_score[q] = hindrance(st, tb, p, who, goal_l, goal_s, q)
    return who


@njit
def card_value_now(st, tb, p, c):
    """Q8: a card's discard ranking, 0 for an item whose building is gone for good."""
    b = tb.cards[c, CI_BUILDING]
    if b >= 0 and not building_available(st, tb, b, tb.cards[c, CI_ALT_BUILDING]):
        return 0
    return tb.cards[c, CI_VALUE]


@njit
def building_available(st, tb, b, alt):
    """The tile is on the map or still in a stack."""
    for k in range(st.w_gs[GS_NT]):
        t = st.w_tile[k, TS_TYPE]
        if t == b or t == alt:
            return True
    for s in range(2):
        top, n = st.w_gs[GS_TOP0 + 2 * s], st.w_gs[GS_N0 + 2 * s]
        for i in range(top, n):
            t = st.w_stack[s, i]
            if t == b or t == alt:
                return True
    return False
