"""Zombies, kids, dogs and tokens on squares; the figure pools; populating a new tile.

Square capacity (A2, B6, C): one adult zombie; with the kid rule one kid beside it; up to two
dogs, which share a square only with dogs unless ``P_DOGS_MIX`` (D36). Figures come from pools
(D11: when a pool is empty, a placement is skipped; ``P_POOL_LIMITED = 0`` makes them endless).
Killed figures go to the killer's collection; figures a collection loses go back to the adult
pool (the model keeps one count per collection, not one per figure kind).
"""

from __future__ import annotations

from kernels.jit import njit
from kernels.rng import uniform
from kernels.zombies9.layout import (
    GS_BOARD,
    GS_CEM_Z,
    GS_CREM,
    GS_CREM_HELD,
    GS_DISC_N,
    GS_POOL_ADULT,
    GS_POOL_DOG,
    GS_POOL_KID,
    K_ROAD,
    P_DOG_STACK,
    P_DOGS,
    P_DOGS_MIX,
    P_HELI_ZOMBIES,
    P_KIDS_AGGRESSIVE,
    P_KIDS_RULE,
    P_POOL_LIMITED,
    P_POPULATE_RANDOM,
    P_TOKEN_CAP,
    PL_SQ,
    R_HELIPAD,
    SQ_ADULT,
    SQ_BULLET,
    SQ_DOGS,
    SQ_KID,
    SQ_KIND,
    SQ_LIFE,
    SQ_PAWNS,
    TI_BULLETS,
    TI_CEMETERY,
    TI_LIFE,
    TI_PET,
    TI_ROLE,
    TI_ZOMBIES,
    TS_ROT,
    TS_TYPE,
    TS_Z,
    Z_ADULT,
    Z_DOG,
    Z_KID,
)


@njit
def figure_column(kind):
    return SQ_ADULT + (kind == Z_KID) * (SQ_KID - SQ_ADULT) + (kind == Z_DOG) * (SQ_DOGS - SQ_ADULT)


@njit
def pool_index(kind):
    kid, dog = kind == Z_KID, kind == Z_DOG
    return GS_POOL_ADULT + kid * (GS_POOL_KID - GS_POOL_ADULT) + dog * (GS_POOL_DOG - GS_POOL_ADULT)


@njit
def can_hold(st, tb, q, kind):
    """May a figure of this kind stand on (or enter) square q?"""
    if st.w_sq[q, SQ_KIND] == 0:
        return False
    a, k, dogs = st.w_sq[q, SQ_ADULT], st.w_sq[q, SQ_KID], st.w_sq[q, SQ_DOGS]
    mix = tb.prm[P_DOGS_MIX] != 0
    if kind == Z_DOG:
        return dogs < tb.prm[P_DOG_STACK] and (mix or a + k == 0)
    if dogs > 0 and not mix:
        return False
    if kind == Z_KID:
        return k == 0
    return a == 0 and (k == 0 or tb.prm[P_KIDS_RULE] != 0)


@njit
def is_cemetery_square(st, tb, q):
    return tb.tile_info[st.w_tile[q // 9, TS_TYPE], TI_CEMETERY]


@njit
def _count(st, tb, q, delta):
    st.w_tile[q // 9, TS_Z] += delta
    if delta > 0 and q // 9 == st.w_gs[GS_CREM]:
        st.w_gs[GS_CREM_HELD] = 1  # D26 "empty": only a Crematorium that held zombies is won
    st.w_gs[GS_BOARD] += delta
    if is_cemetery_square(st, tb, q):
        st.w_gs[GS_CEM_Z] += delta


@njit
def kind_for(st, tb, q, kind):
    """Part C / D35: figures put on the Pet Cemetery are dogs when the option is on."""
    if tb.prm[P_DOGS] != 0 and tb.tile_info[st.w_tile[q // 9, TS_TYPE], TI_PET]:
        return Z_DOG
    return kind


@njit
def has_figure(st, tb, kind):
    return tb.prm[P_POOL_LIMITED] == 0 or st.w_gs[pool_index(kind)] > 0


@njit
def add_zombie(st, tb, q, kind):
    """Put a figure from its pool on q; False if the pool is empty or q is full (D11)."""
    if not has_figure(st, tb, kind) or not can_hold(st, tb, q, kind):
        return False
    st.w_gs[pool_index(kind)] -= 1
    st.w_sq[q, figure_column(kind)] += 1
    _count(st, tb, q, 1)
    return True


@njit
def take_zombie(st, tb, q, kind):
    """A figure leaves the board (killed: it joins a collection)."""
    st.w_sq[q, figure_column(kind)] -= 1
    _count(st, tb, q, -1)


@njit
def return_to_pool(st, kind, n):
    st.w_gs[pool_index(kind)] += n


@njit
def move_zombie(st, tb, a, b, kind):
    take_zombie(st, tb, a, kind)
    st.w_sq[b, figure_column(kind)] += 1
    _count(st, tb, b, 1)


@njit
def first_figure(st, tb, q, kid_first):
    """The figure a pawn on q fights next (B6: adult first by default; then the dogs), -1 none."""
    if st.w_sq[q, SQ_KID] > 0 and (kid_first or st.w_sq[q, SQ_ADULT] == 0):
        return Z_KID
    if st.w_sq[q, SQ_ADULT] > 0:
        return Z_ADULT
    if st.w_sq[q, SQ_DOGS] > 0:
        return Z_DOG
    return -1


@njit
def token_room(st, tb, q):
    return tb.prm[P_TOKEN_CAP] - st.w_sq[q, SQ_LIFE] - st.w_sq[q, SQ_BULLET]


# ---------------------------------------------------------------- populating a new tile (A3, B6, C)


@njit
def _order(st, tb, rng, g, k, which):
    """Local squares of slot k in the placer's order (D4) into ``w_pick``; shuffled under
    ``P_POPULATE_RANDOM``. Returns how many."""
    t, r = st.w_tile[k, TS_TYPE], st.w_tile[k, TS_ROT]
    n = 0
    for i in range(9):
        local = tb.tile_zorder[t, r, i] if which == 0 else tb.tile_torder[t, r, i]
        if local < 0:
            break
        st.w_pick[n] = 9 * k + local
        n += 1
    if tb.prm[P_POPULATE_RANDOM] != 0:
        for i in range(n - 1, 0, -1):
            j = int(uniform(rng, g) * (i + 1))
            st.w_pick[i], st.w_pick[j] = st.w_pick[j], st.w_pick[i]
    return n


@njit
def zombies_printed(st, tb, k):
    t = st.w_tile[k, TS_TYPE]
    if tb.tile_info[t, TI_ROLE] == R_HELIPAD:
        return int(tb.prm[P_HELI_ZOMBIES])  # D2
    return tb.tile_info[t, TI_ZOMBIES]


@njit
def populate(st, tb, rng, g, k):
    """A3: the new tile's zombies (one per square; kids beside adults per D32), then its life
    and bullet tokens (at most ``P_TOKEN_CAP`` per square). Returns the figures placed."""
    z = zombies_printed(st, tb, k)
    n = _order(st, tb, rng, g, k, 0)
    kids = _kids_wanted(tb, z, n)
    placed = 0
    for i in range(n):  # adults (or dogs) first, one per square
        if placed >= z - kids:
            break
        q = st.w_pick[i]
        placed += add_zombie(st, tb, q, kind_for(st, tb, q, Z_ADULT))
    for i in range(n * (tb.prm[P_KIDS_RULE] != 0)):  # then kids beside them (B6)
        if placed >= z:
            break
        placed += add_zombie(st, tb, st.w_pick[i], kind_for(st, tb, st.w_pick[i], Z_KID))
    _put_tokens(st, tb, rng, g, k)
    return placed


@njit
def _kids_wanted(tb, z, squares):
    """D32: kids only when the printed number exceeds the squares; aggressive: stack pairs."""
    if tb.prm[P_KIDS_RULE] == 0:
        return 0
    if tb.prm[P_KIDS_AGGRESSIVE] != 0:
        return z // 2
    return max(0, z - squares)


@njit
def _put_tokens(st, tb, rng, g, k):
    t = st.w_tile[k, TS_TYPE]
    life, bullets = tb.tile_info[t, TI_LIFE], tb.tile_info[t, TI_BULLETS]
    if life + bullets == 0:
        return
    n = _order(st, tb, rng, g, k, 1)
    for i in range(n):
        q = st.w_pick[i]
        while token_room(st, tb, q) > 0 and life + bullets > 0:
            if life > 0:
                st.w_sq[q, SQ_LIFE] += 1
                life -= 1
            else:
                st.w_sq[q, SQ_BULLET] += 1
                bullets -= 1


@njit
def free_for(st, tb, q, kind):
    """A legal empty square for a card's zombie (A11): walkable, no figure and no pawn on it
    (the model reads "empty" as both; Zombie Master says "not occupied by players")."""
    if not can_hold(st, tb, q, kind):
        return False
    return st.w_sq[q, SQ_ADULT] + st.w_sq[q, SQ_KID] + st.w_sq[q, SQ_DOGS] + st.w_sq[q, SQ_PAWNS] == 0


@njit
def is_road(st, q):
    return st.w_sq[q, SQ_KIND] == K_ROAD


@njit
def set_pawn(st, p, q):
    """Move player p's pawn to square q (pawn counts kept per square)."""
    from_q = st.w_pl[p, PL_SQ]
    if from_q >= 0:
        st.w_sq[from_q, SQ_PAWNS] -= 1
    st.w_pl[p, PL_SQ] = q
    st.w_sq[q, SQ_PAWNS] += 1


@njit
def to_discard(st, card):
    """A card leaves a hand or play for the event discard pile (A10)."""
    st.w_discard[st.w_gs[GS_DISC_N]] = card
    st.w_gs[GS_DISC_N] += 1
