"""Set-up, the six-step turn, the game and ``play_batch`` (A4, A5, B3, B4; the spec's "Turn
procedure"). With ``check`` set, the invariants are counted in ``GameState.viol`` after every step.
"""

from __future__ import annotations

import numpy as np

from kernels.jit import by_ref, njit
from kernels.rng import stream_start, uniform
from kernels.zombies9.board import can_place, dx, dy, list_placements, open_edges, place_tile
from kernels.zombies9.cards import (
    after_move_window,
    brain_cramp_window,
    deal,
    draw_up,
    end_window,
    movement_roll,
    pre_turn_window,
    shuffle_deck,
    start_window,
)
from kernels.zombies9.combat import declare_win, graveyard_done, is_over
from kernels.zombies9.events import log_event
from kernels.zombies9.hand import hand_count
from kernels.zombies9.layout import (
    EK_FIRST,
    EK_HELI_RESHUFFLE,
    EK_LOST_TURN,
    EK_MAP_CLOSED,
    EK_POPULATE,
    EK_SNAP_P,
    EK_SNAP_Z,
    EK_STACK,
    EK_TILE,
    EK_TILE_DISCARD,
    EK_TIMEOUT,
    EK_TURN,
    EK_WIN,
    GS_ACTIVE,
    GS_AFS_END,
    GS_AFS_OWNER,
    GS_BOARD,
    GS_CEM_PLACED,
    GS_CEM_Z,
    GS_CLOSED,
    GS_CREM,
    GS_CREM_HELD,
    GS_DECK_N,
    GS_DISC_N,
    GS_ENTRANCE,
    GS_FIRST,
    GS_HELI,
    GS_HELI_GONE,
    GS_LOSE_TURN,
    GS_MARBLES_END,
    GS_N0,
    GS_N1,
    GS_NT,
    GS_OPEN0,
    GS_OPEN1,
    GS_POOL_ADULT,
    GS_POOL_DOG,
    GS_POOL_KID,
    GS_REASON,
    GS_RESPAWN,
    GS_ROUND,
    GS_STAMP,
    GS_TOP0,
    GS_TURN,
    GS_VER_CREM,
    GS_VER_HELI,
    GS_WINNER,
    ID_GRID,
    ID_HELIPAD,
    ID_N_BASE,
    ID_N_CARDS,
    ID_SET_ASIDE,
    ID_START,
    MAX_HAND,
    MODE_ALONE,
    MODE_BASE,
    MODE_MIXED,
    P_CEM_EMPTY,
    P_CREM_EMPTY,
    P_DEATH_AT_ONCE,
    P_DOG_STACK,
    P_DOGS_MIX,
    P_ENTRANCE_RESHUFFLE,
    P_FIRST_RANDOM,
    P_HAND,
    P_HELI_BOTTOM,
    P_HELI_MOST_KILLS,
    P_HELI_RESHUFFLE,
    P_KIDS_RULE,
    P_LIFE_CAP,
    P_MAX_ROUNDS,
    P_MODE,
    P_N_PLAYERS,
    P_POOL_ADULT,
    P_POOL_DOG,
    P_POOL_KID,
    P_POOL_LIMITED,
    P_QUICK,
    P_START_BULLETS,
    P_START_LIFE,
    P_TOKEN_CAP,
    PL_ADRENALINE,
    PL_AXE,
    PL_BULLETS,
    PL_CHAINSAW_ON,
    PL_CLAUS,
    PL_DEAD,
    PL_FEAR,
    PL_GOAL,
    PL_HAND,
    PL_KILLS,
    PL_LIFE,
    PL_MARBLES,
    PL_MOLOTOV_ON,
    PL_PARALYSED,
    PL_PLAYED,
    PL_SHOTGUN_CARD,
    PL_SQ,
    POL_STACK,
    PR_CREM_LAID,
    PR_HELI_LAID,
    PR_KILLS,
    PR_ORDER,
    PR_TILES,
    PR_TURNS_LOST,
    R_CREMATORIUM,
    R_ENTRANCE,
    R_HELIPAD,
    REASON_CEMETERIES,
    REASON_CREMATORIUM,
    REASON_NONE,
    REASON_TIMEOUT,
    RES_CREM_ROUND,
    RES_FIRST,
    RES_HELI_GONE,
    RES_HELI_ROUND,
    RES_REASON,
    RES_ROUNDS,
    RES_TILES,
    RES_TURNS,
    RES_WINNER,
    SQ_ADULT,
    SQ_BULLET,
    SQ_DOGS,
    SQ_KID,
    SQ_KIND,
    SQ_LIFE,
    SQ_PAWNS,
    STACK_BASE,
    STACK_GRAVEYARD,
    STACK_RANDOM,
    TI_CEMETERY,
    TI_ROLE,
    TI_TOWN_SIDE,
    TS_ROT,
    TS_TYPE,
    TS_X,
    TS_Y,
    TS_Z,
)
from kernels.zombies9.movement import fight_all, walk, zombie_phase
from kernels.zombies9.pieces import populate, set_pawn
from kernels.zombies9.policy import afs_on, choose_goal, choose_placement

# ---------------------------------------------------------------- set-up (A4, B3, B4)


@njit
def _reset(st, tb):
    """Forget the previous game of this batch slot (its tiles, players, scalars)."""
    for k in range(st.w_gs[GS_NT]):
        st.w_grid[st.w_tile[k, TS_Y], st.w_tile[k, TS_X]] = -1
    stamp = st.w_gs[GS_STAMP]  # w_stamp keeps its marks: the stamp counter goes on across games
    st.w_gs[:] = 0
    st.w_gs[GS_STAMP] = stamp
    for key in (GS_WINNER, GS_HELI, GS_CREM, GS_ENTRANCE, GS_AFS_OWNER, GS_AFS_END, GS_MARBLES_END, GS_VER_HELI,
                GS_VER_CREM):
        st.w_gs[key] = -1
    st.w_gs[GS_POOL_ADULT] = int(tb.prm[P_POOL_ADULT])
    st.w_gs[GS_POOL_KID] = int(tb.prm[P_POOL_KID])
    st.w_gs[GS_POOL_DOG] = int(tb.prm[P_POOL_DOG])


@njit
def _shuffle_stack(st, rng, g, s, n):
    for i in range(n - 1, 0, -1):
        j = int(uniform(rng, g) * (i + 1))
        st.w_stack[s, i], st.w_stack[s, j] = st.w_stack[s, j], st.w_stack[s, i]


@njit
def _stacks(st, tb, rng, g):
    """A4.2 / B4: shuffle the stacks; the Helipad goes into the bottom half of the base stack
    (D1: at the very bottom under the first-edition option)."""
    for s in range(2):
        n = int(tb.ids[ID_N_BASE + s])
        for i in range(n):
            st.w_stack[s, i] = tb.stacks[s, i]
        _shuffle_stack(st, rng, g, s, n)
        st.w_gs[GS_N0 + 2 * s] = n
    heli = tb.ids[ID_HELIPAD]
    if heli < 0:
        return
    n = st.w_gs[GS_N0]
    pos = n if tb.prm[P_HELI_BOTTOM] != 0 else n - n // 2 + int(uniform(rng, g) * (n // 2 + 1))
    for i in range(n, pos, -1):
        st.w_stack[0, i] = st.w_stack[0, i - 1]
    st.w_stack[0, pos] = heli
    st.w_gs[GS_N0] = n + 1


@njit
def _players(st, tb, g, first):
    n = int(tb.prm[P_N_PLAYERS])
    for p in range(n):
        pl = st.w_pl[p]
        pl[:] = 0
        for col in range(PL_AXE, PL_MARBLES + 1):
            pl[col] = -1
        for i in range(PL_HAND, PL_HAND + MAX_HAND):
            pl[i] = -1
        pl[PL_SHOTGUN_CARD] = -1
        pl[PL_SQ] = -1
        set_pawn(st, p, st.w_gs[GS_RESPAWN])
        pl[PL_LIFE] = 2 * int(tb.prm[P_START_LIFE])
        pl[PL_BULLETS] = int(tb.prm[P_START_BULLETS])
        st.pres[g, p, :] = 0
        st.pres[g, p, PR_ORDER] = (p - first) % n


@njit
def setup(st, tb, rng, g):
    """A4 (B3 alone: the Graveyard Entrance is the start tile; D34 the respawn square)."""
    _reset(st, tb)
    st.n_events[g] = 0
    st.viol[g] = 0
    st.res[g, :] = 0
    c = int(tb.ids[ID_GRID]) // 2
    place_tile(st, tb, int(tb.ids[ID_START]), c, c, 0)
    st.w_gs[GS_RESPAWN] = 4
    _stacks(st, tb, rng, g)
    n = int(tb.prm[P_N_PLAYERS])
    first = min(n - 1, int(uniform(rng, g) * n)) if tb.prm[P_FIRST_RANDOM] != 0 else 0
    st.w_gs[GS_FIRST] = first
    _players(st, tb, g, first)
    if tb.prm[P_QUICK] != 0:
        quick_layout(st, tb, rng, g, first)  # B9 option: the map before the cards
    m = int(tb.ids[ID_N_CARDS])
    for i in range(m):
        st.w_deck[i] = tb.deck[i]
    st.w_gs[GS_DECK_N] = m
    shuffle_deck(st, rng, g)
    log_event(st, g, EK_FIRST, first, 0, 0, 0, 0)
    deal(st, tb, rng, g, first)
    st.res[g, RES_FIRST] = first
    st.res[g, RES_HELI_ROUND] = -1
    st.res[g, RES_CREM_ROUND] = -1


# ---------------------------------------------------------------- step 1: a map tile (A6, B4)


@njit
def choose_stack(st, tb, rng, g, p):
    """Which stack p draws from: the one of the mode; mixed, once the Graveyard Entrance is
    down, Q9 / D25 (default: the graveyard while neither the Crematorium nor the Helipad is on
    the map); an empty stack sends to the other (B4.5). -1: both are empty."""
    left0 = st.w_gs[GS_TOP0] < st.w_gs[GS_N0]
    left1 = st.w_gs[GS_TOP0 + 2] < st.w_gs[GS_N1]
    mode = tb.prm[P_MODE]
    want = 1 if mode == MODE_ALONE else 0
    if mode == MODE_MIXED and st.w_gs[GS_ENTRANCE] >= 0:
        rule = tb.pol[p, POL_STACK]
        if rule == STACK_BASE:
            want = 0
        elif rule == STACK_GRAVEYARD:
            want = 1
        elif rule == STACK_RANDOM:
            want = int(uniform(rng, g) * 2)
        else:
            want = 1 if st.w_gs[GS_CREM] < 0 and st.w_gs[GS_HELI] < 0 else 0
    elif mode == MODE_MIXED and not left0:
        want = 1
    if want == 0 and not left0:
        want = 1 if (left1 and mode != MODE_BASE) else -1
    elif want == 1 and not left1:
        want = 0 if (left0 and mode != MODE_ALONE) else -1
    return want


@njit
def _placer(st, tb, p, t):
    """D19: the Helipad is placed by its drawer, or by the player with most kills (option)."""
    if tb.tile_info[t, TI_ROLE] != R_HELIPAD or tb.prm[P_HELI_MOST_KILLS] == 0:
        return p
    n = int(tb.prm[P_N_PLAYERS])
    best, who = -1, p
    for k in range(n):
        o = (p + k) % n
        if st.w_pl[o, PL_KILLS] > best:
            best, who = st.w_pl[o, PL_KILLS], o
    return who


@njit
def lay(st, tb, rng, g, p, t, x, y, r):
    """Lay tile t for p and put its pieces on it (A3); the Helipad / Crematorium recorded."""
    k = place_tile(st, tb, t, x, y, r)
    st.pres[g, p, PR_TILES] += 1
    role = tb.tile_info[t, TI_ROLE]
    if role == R_HELIPAD:
        st.w_gs[GS_HELI] = k
        st.res[g, RES_HELI_ROUND] = st.w_gs[GS_ROUND]
        st.pres[g, p, PR_HELI_LAID] = 1
    elif role == R_CREMATORIUM:
        st.w_gs[GS_CREM] = k
        st.res[g, RES_CREM_ROUND] = st.w_gs[GS_ROUND]
        st.pres[g, p, PR_CREM_LAID] = 1
    elif role == R_ENTRANCE:
        st.w_gs[GS_ENTRANCE] = k
    st.w_gs[GS_CEM_PLACED] += tb.tile_info[t, TI_CEMETERY]
    log_event(st, g, EK_TILE, p, t, x, y, r)
    z = populate(st, tb, rng, g, k)
    log_event(st, g, EK_POPULATE, p, k, z, 0, 0)
    return k


@njit
def _attach_set_aside(st, tb, rng, g, p, k):
    """B4.4: the four-way set aside joins the Graveyard Entrance's graveyard side at once."""
    t = st.w_tile[k, TS_TYPE]
    d = (tb.tile_info[t, TI_TOWN_SIDE] + st.w_tile[k, TS_ROT] + 2) % 4
    x, y = st.w_tile[k, TS_X] + dx(d), st.w_tile[k, TS_Y] + dy(d)
    four = int(tb.ids[ID_SET_ASIDE])
    for r in range(4):
        if can_place(st, tb, four, x, y, r):
            lay(st, tb, rng, g, p, four, x, y, r)
            return


@njit
def _unplaceable(st, tb, rng, g, p, s, t):
    """A6: a tile that fits nowhere is discarded; the Helipad is shuffled back into what is
    left of its stack (the official ruling), or leaves the game if nothing is left (D20)."""
    role = tb.tile_info[t, TI_ROLE]
    if role == R_HELIPAD:
        if tb.prm[P_HELI_RESHUFFLE] != 0 and _shuffle_back(st, rng, g, p, s, t):
            return
        st.w_gs[GS_HELI_GONE] = 1
        st.res[g, RES_HELI_GONE] = 1
    if role == R_ENTRANCE and tb.prm[P_ENTRANCE_RESHUFFLE] != 0 and _shuffle_back(st, rng, g, p, s, t):
        return  # option entrance_reshuffle: the Graveyard Entrance like the Helipad
    log_event(st, g, EK_TILE_DISCARD, p, t, 0, 0, 0)


@njit
def _shuffle_back(st, rng, g, p, s, t):
    """Tile t goes back to a uniform place among the tiles left in stack s; False if none."""
    top_key, n_key = GS_TOP0 + 2 * s, GS_N0 + 2 * s
    left = st.w_gs[n_key] - st.w_gs[top_key]
    if left <= 0:
        return False
    top = st.w_gs[top_key] - 1
    st.w_gs[top_key] = top
    j = top + int(uniform(rng, g) * (left + 1))
    st.w_stack[s, top], st.w_stack[s, j] = st.w_stack[s, j], t
    log_event(st, g, EK_HELI_RESHUFFLE, p, left, t, 0, 0)
    return True


@njit
def tile_phase(st, tb, rng, g, p):
    """A5.1: draw a tile and lay it where p's policy likes it best (Q2). A placement that leaves
    no open road edge on the map costs the rest of the turn (A6)."""
    s = choose_stack(st, tb, rng, g, p)
    if s < 0:
        return
    if draw_and_lay(st, tb, rng, g, p, s) and open_edges(st) == 0 and st.w_gs[GS_CLOSED] == 0:
        st.w_gs[GS_CLOSED] = 1
        st.w_gs[GS_LOSE_TURN] = 1
        log_event(st, g, EK_MAP_CLOSED, p, 0, 0, 0, 0)


@njit
def quick_layout(st, tb, rng, g, first):
    """B9 quick game (unconfirmed): every tile of the base stack is laid at the set-up, the
    seats laying in turn from the first player, each where its Q2 policy likes it, populated as
    usual; the Graveyard Entrance (mixed) gets its set-aside four-way at once ("place the
    expansion entrances"); a tile that fits nowhere is discarded, the Helipad shuffled back while
    tiles are left (A6). A closed map costs no turn here (no turn is being played)."""
    n = int(tb.prm[P_N_PLAYERS])
    k = 0
    while st.w_gs[GS_TOP0] < st.w_gs[GS_N0]:
        draw_and_lay(st, tb, rng, g, (first + k) % n, 0)
        k += 1
    if open_edges(st) == 0:
        st.w_gs[GS_CLOSED] = 1


@njit
def draw_and_lay(st, tb, rng, g, p, s):
    """Draw the top tile of stack s and lay it for p (Q2; the Helipad by its D19 placer), or
    deal with a tile that fits nowhere. Returns True if a tile was laid."""
    top_key = GS_TOP0 + 2 * s
    t = st.w_stack[s, st.w_gs[top_key]]
    st.w_gs[top_key] += 1
    log_event(st, g, EK_STACK, p, s, t, 0, 0)
    placer = _placer(st, tb, p, t)
    n = list_placements(st, tb, t)
    if n == 0:
        _unplaceable(st, tb, rng, g, p, s, t)
        return False
    i = choose_placement(st, tb, rng, g, placer, t, n)
    k = lay(st, tb, rng, g, placer, t, st.w_cand[i, 0], st.w_cand[i, 1], st.w_cand[i, 2])
    if tb.tile_info[t, TI_ROLE] == R_ENTRANCE and tb.prm[P_MODE] == MODE_MIXED:
        _attach_set_aside(st, tb, rng, g, placer, k)
    return True


# ---------------------------------------------------------------- the turn (A5)


@njit
def check_empty_wins(st, tb, p):
    """D26 / D27 alternatives: the active player wins whenever the tile(s) are empty."""
    mode = tb.prm[P_MODE]
    crem = st.w_gs[GS_CREM]
    if (mode == MODE_MIXED and tb.prm[P_CREM_EMPTY] != 0 and crem >= 0 and st.w_tile[crem, TS_Z] == 0
            and st.w_gs[GS_CREM_HELD] != 0):  # seed: "by killing all of the zombies": it had some
        declare_win(st, p, REASON_CREMATORIUM)
    if (mode == MODE_ALONE and tb.prm[P_CEM_EMPTY] != 0 and graveyard_done(st) and st.w_gs[GS_CEM_PLACED] > 0
            and st.w_gs[GS_CEM_Z] == 0):
        declare_win(st, p, REASON_CEMETERIES)


@njit
def start_turn(st, tb, p):
    """Start of turn: the round's card is free again (A10); "next turn" effects take hold; a
    player who died since his last turn starts it with 3 life and 3 bullets (A8.4)."""
    pl = st.w_pl[p]
    if pl[PL_DEAD]:
        pl[PL_DEAD] = 0
        pl[PL_LIFE] = 2 * int(tb.prm[P_START_LIFE])
        pl[PL_BULLETS] = int(tb.prm[P_START_BULLETS])
    pl[PL_PLAYED] = 0
    pl[PL_CHAINSAW_ON] = 0
    pl[PL_MOLOTOV_ON] = 0
    pl[PL_ADRENALINE] = 0
    if pl[PL_FEAR] == 1:
        pl[PL_FEAR] = 2
    if pl[PL_CLAUS] == 1:
        pl[PL_CLAUS] = 2


@njit
def _end_turn(st, p):
    pl = st.w_pl[p]
    if pl[PL_FEAR] == 2:
        pl[PL_FEAR] = 0
    if pl[PL_CLAUS] == 2:
        pl[PL_CLAUS] = 0
    pl[PL_CHAINSAW_ON] = 0
    pl[PL_MOLOTOV_ON] = 0


@njit
def player_turn(st, tb, rng, g, p, check):
    """A5: tile, fight, draw, move, zombies, discard (module docstring of ``cards`` for when
    cards are played)."""
    start_turn(st, tb, p)
    log_event(st, g, EK_TURN, p, st.w_pl[p, PL_LIFE], st.w_pl[p, PL_BULLETS], st.w_pl[p, PL_KILLS],
              st.w_pl[p, PL_SQ])
    if st.w_pl[p, PL_PARALYSED]:  # Hysterical Paralysis: the whole turn, step 2 included
        st.w_pl[p, PL_PARALYSED] = 0
        st.pres[g, p, PR_TURNS_LOST] += 1
        log_event(st, g, EK_LOST_TURN, p, 0, 0, 0, 0)
        _end_turn(st, p)
        return
    tile_phase(st, tb, rng, g, p)
    _check(st, tb, g, check)
    if st.w_gs[GS_LOSE_TURN]:
        st.w_gs[GS_LOSE_TURN] = 0
        st.pres[g, p, PR_TURNS_LOST] += 1
        log_event(st, g, EK_LOST_TURN, p, 1, 0, 0, 0)
        _end_turn(st, p)
        return
    start_window(st, tb, rng, g, p)
    alive = True
    if not is_over(st) and not afs_on(st):
        alive = fight_all(st, tb, rng, g, p, st.w_pl[p, PL_SQ])  # A5.2
    _check(st, tb, g, check)
    if is_over(st):
        return
    draw_up(st, tb, rng, g, p)  # A5.3
    _check(st, tb, g, check)
    if alive:
        _movement(st, tb, rng, g, p)  # A5.4
        _check(st, tb, g, check)
        if is_over(st):
            return
        after_move_window(st, tb, rng, g, p)
        check_empty_wins(st, tb, p)
        if is_over(st):
            return
    zombie_phase(st, tb, rng, g, p)  # A5.5
    check_empty_wins(st, tb, p)
    _check(st, tb, g, check)
    end_window(st, tb, rng, g, p)  # A5.6
    _end_turn(st, p)
    _check(st, tb, g, check)


@njit
def _movement(st, tb, rng, g, p):
    goal = choose_goal(st, tb, p)
    st.w_pl[p, PL_GOAL] = goal
    points = movement_roll(st, tb, rng, g, p, goal, st.w_pl[p, PL_FEAR] == 2)
    if points <= 0:
        return
    if brain_cramp_window(st, tb, rng, g, p, points):
        return
    walk(st, tb, rng, g, p, points, goal, st.w_pl[p, PL_CLAUS] == 2)


# ---------------------------------------------------------------- the game


@njit
def play_game(st, tb, rng, g, check):
    """One game from set-up to a win or the round limit; results into ``res[g]``, ``pres[g]``."""
    setup(st, tb, rng, g)
    _check(st, tb, g, check)
    n = int(tb.prm[P_N_PLAYERS])
    first = st.w_gs[GS_FIRST]
    limit = int(tb.prm[P_MAX_ROUNDS])
    rounds = 0
    while not is_over(st) and rounds < limit:
        rounds += 1
        st.w_gs[GS_ROUND] = rounds
        for k in range(n):
            p = (first + k) % n
            st.w_gs[GS_TURN] += 1
            st.w_gs[GS_ACTIVE] = p  # D21: the active player answers first (from the window before the turn)
            pre_turn_window(st, tb, rng, g, p)
            _check(st, tb, g, check)
            if not is_over(st):
                player_turn(st, tb, rng, g, p, check)
            if is_over(st):
                break
        if st.events.shape[0] > g and not is_over(st) and rounds < limit:
            _snapshot_figures(st, g)  # the trace's map of this round (_finish logs the last round's)
    _finish(st, tb, g, rounds)


@njit
def _finish(st, tb, g, rounds):
    res = st.res[g]
    res[RES_WINNER] = st.w_gs[GS_WINNER]
    res[RES_REASON] = st.w_gs[GS_REASON] if st.w_gs[GS_WINNER] >= 0 else REASON_TIMEOUT
    res[RES_ROUNDS] = rounds
    res[RES_TURNS] = st.w_gs[GS_TURN]
    res[RES_TILES] = st.w_gs[GS_NT]
    for p in range(int(tb.prm[P_N_PLAYERS])):
        st.pres[g, p, PR_KILLS] = st.w_pl[p, PL_KILLS]
    if st.events.shape[0] > g:
        _snapshot(st, tb, g)


@njit
def _snapshot_figures(st, g):
    """The zombie figures and the tokens on every square, for the trace's map (rolls no dice)."""
    for q in range(9 * st.w_gs[GS_NT]):
        s = st.w_sq[q]
        if s[SQ_ADULT] + s[SQ_KID] + s[SQ_DOGS] + s[SQ_LIFE] + s[SQ_BULLET] > 0:
            log_event(st, g, EK_SNAP_Z, -1, q, s[SQ_ADULT] + 10 * s[SQ_KID] + 100 * s[SQ_DOGS], s[SQ_LIFE],
                      s[SQ_BULLET])


@njit
def _snapshot(st, tb, g):
    """The end position for the trace's map: figures, tokens and pawns."""
    _snapshot_figures(st, g)
    for p in range(int(tb.prm[P_N_PLAYERS])):
        log_event(st, g, EK_SNAP_P, p, st.w_pl[p, PL_SQ], st.w_pl[p, PL_KILLS], st.w_pl[p, PL_LIFE], 0)
    if st.w_gs[GS_WINNER] >= 0:
        log_event(st, g, EK_WIN, st.w_gs[GS_WINNER], st.w_gs[GS_REASON], 0, 0, 0)
    else:
        log_event(st, g, EK_TIMEOUT, -1, REASON_TIMEOUT, 0, 0, 0)


@njit
def play_batch(st, tb, seed, first_game, check, rng):
    """Play every game of the batch; game g is game ``first_game + g`` of stream ``seed``, and
    ``rng[g]`` is left at the stream's last counter (the caller counts the dice)."""
    state, tables = by_ref(st), by_ref(tb)  # one pointer each down the call tree (kernels.jit.ByRef)
    for g in range(st.res.shape[0]):
        rng[g] = stream_start(np.uint64(seed), np.uint64(first_game + g))
        play_game(state, tables, rng, g, check)


# ---------------------------------------------------------------- invariants (checked mode)


@njit
def _check(st, tb, g, check):
    if check:
        st.viol[g] += count_violations(st, tb)


@njit
def count_violations(st, tb):
    """Broken invariants of the game in play (each counts 1)."""
    return _map_violations(st, tb) + _figure_violations(st, tb) + _player_violations(st, tb) + \
        _card_violations(st, tb)


@njit
def _map_violations(st, tb):
    v = 0
    for k in range(st.w_gs[GS_NT]):
        v += st.w_grid[st.w_tile[k, TS_Y], st.w_tile[k, TS_X]] != k
        z = 0
        for i in range(9):
            z += st.w_sq[9 * k + i, SQ_ADULT] + st.w_sq[9 * k + i, SQ_KID] + st.w_sq[9 * k + i, SQ_DOGS]
        v += z != st.w_tile[k, TS_Z]
        for i in range(9):  # steps are mutual
            q = 9 * k + i
            for d in range(4):
                y = st.w_nb[q, d]
                v += y >= 0 and st.w_nb[y, (d + 2) % 4] != q
    v += st.w_gs[GS_OPEN0] < 0
    v += st.w_gs[GS_OPEN1] < 0
    return v


@njit
def _figure_violations(st, tb):
    v = 0
    board = cem = pawns = 0
    mix = tb.prm[P_DOGS_MIX] != 0
    for q in range(9 * st.w_gs[GS_NT]):
        s = st.w_sq[q]
        a, kid, dogs = s[SQ_ADULT], s[SQ_KID], s[SQ_DOGS]
        board += a + kid + dogs
        cem += (a + kid + dogs) * tb.tile_info[st.w_tile[q // 9, TS_TYPE], TI_CEMETERY]
        pawns += s[SQ_PAWNS]
        v += a < 0 or a > 1 or kid < 0 or kid > 1 or dogs < 0 or dogs > tb.prm[P_DOG_STACK]
        v += kid > 0 and tb.prm[P_KIDS_RULE] == 0
        v += dogs > 0 and a + kid > 0 and not mix
        v += s[SQ_KIND] == 0 and (a + kid + dogs + s[SQ_PAWNS] + s[SQ_LIFE] + s[SQ_BULLET]) > 0
        v += s[SQ_LIFE] < 0 or s[SQ_BULLET] < 0 or s[SQ_LIFE] + s[SQ_BULLET] > tb.prm[P_TOKEN_CAP]
    v += board != st.w_gs[GS_BOARD]
    v += cem != st.w_gs[GS_CEM_Z]
    v += pawns != tb.prm[P_N_PLAYERS]
    if tb.prm[P_POOL_LIMITED] != 0:
        kills = 0
        for p in range(int(tb.prm[P_N_PLAYERS])):
            kills += st.w_pl[p, PL_KILLS]
        pools = st.w_gs[GS_POOL_ADULT] + st.w_gs[GS_POOL_KID] + st.w_gs[GS_POOL_DOG]
        v += pools + board + kills != tb.prm[P_POOL_ADULT] + tb.prm[P_POOL_KID] + tb.prm[P_POOL_DOG]
        v += st.w_gs[GS_POOL_ADULT] < 0 or st.w_gs[GS_POOL_KID] < 0 or st.w_gs[GS_POOL_DOG] < 0
    return v


@njit
def _player_violations(st, tb):
    v = 0
    for p in range(int(tb.prm[P_N_PLAYERS])):
        pl = st.w_pl[p]
        v += (pl[PL_LIFE] < 0 if pl[PL_DEAD] else pl[PL_LIFE] <= 0) or pl[PL_LIFE] > 2 * tb.prm[P_LIFE_CAP]
        v += pl[PL_DEAD] != 0 and tb.prm[P_DEATH_AT_ONCE] != 0
        v += pl[PL_BULLETS] < 0 or pl[PL_KILLS] < 0
        v += pl[PL_SQ] < 0 or pl[PL_SQ] >= 9 * st.w_gs[GS_NT] or st.w_sq[pl[PL_SQ], SQ_KIND] == 0
        v += hand_count(st, tb, p) > tb.prm[P_HAND]
        v += pl[PL_GOAL] < 0
    v += st.w_gs[GS_WINNER] >= tb.prm[P_N_PLAYERS]
    v += (st.w_gs[GS_WINNER] >= 0) != (st.w_gs[GS_REASON] != REASON_NONE)
    return v


@njit
def _card_violations(st, tb):
    held = st.w_gs[GS_DECK_N] + st.w_gs[GS_DISC_N]
    for p in range(int(tb.prm[P_N_PLAYERS])):
        held += hand_count(st, tb, p)
        for col in range(PL_AXE, PL_MARBLES + 1):
            held += st.w_pl[p, col] >= 0
        held += st.w_pl[p, PL_SHOTGUN_CARD] >= 0
    return held != tb.ids[ID_N_CARDS]
