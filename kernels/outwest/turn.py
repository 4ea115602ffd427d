"""The game loop (outwest §13): set the scenario up, then turn cards of the Fate deck one at a
time until the scenario's victory (§12).

``play_batch`` is the entry point: game g of the batch is game ``first_game + g`` of the run,
played start to finish from its own stream ``rng[g]``, so results depend on neither threads nor
batch sizes. With ``check`` set, invariants are tested after the set-up and after every card
and violations counted in ``state.viol``.
"""

from __future__ import annotations

import math

import numpy as np

from kernels.jit import by_ref, njit, njit_alloc
from kernels.outwest.deck import (
    WILD_BIT,
    action_card,
    card_count,
    card_for,
    claim,
    draw,
    extra_card,
    joker,
    random_below,
    reshuffle,
    rise_card,
)
from kernels.outwest.figures import (
    EPS,
    centre_distance,
    face_towards,
    gap_between,
    is_conscious,
    is_human,
    is_zombie,
    log_event,
    n_groups,
    n_humans,
    touching,
)
from kernels.outwest.humans import wants_free_action
from kernels.outwest.layout import (
    DECIDE_HEURISTIC,
    EK_CARD,
    EK_CLAIM,
    EK_END,
    EK_GRAVE,
    EK_POS,
    EK_SETUP,
    EK_SPEND,
    EK_TURN_END,
    FATE_IN_PLAY,
    FF_FACING,
    FF_X,
    FF_Y,
    FI_AIM,
    FI_AMMO0,
    FI_AMMO1,
    FI_ARMS,
    FI_BITES,
    FI_CLASS,
    FI_FATE,
    FI_FEED,
    FI_GROUP,
    FI_GUN0,
    FI_GUN1,
    FI_GUNSLINGER,
    FI_HORSE,
    FI_KIND,
    FI_LAPSED,
    FI_LEFT0,
    FI_LEFT1,
    FI_MELEE,
    FI_STATE,
    GR_EDGE,
    GR_FIRST,
    GR_GUNSLINGER,
    GR_SIZE,
    GS_CARD,
    GS_CARDS,
    GS_DECK_N,
    GS_DECK_POS,
    GS_ESCAPED,
    GS_EXTRA,
    GS_GRAVE,
    GS_HELD,
    GS_OVER,
    GS_REASON,
    GS_RISE,
    GS_RISEN,
    GS_SHOWN,
    GS_THREAT,
    GS_TURN,
    GS_WINNER,
    GUN_READY,
    HORSE_RIDDEN,
    K_HUMAN,
    K_NONE,
    K_ZOMBIE,
    MK_ON,
    P_BASE_R,
    P_EDGE_DEPTH,
    P_ESCAPE_NEEDED,
    P_GRAVE_EDGE,
    P_JOKER_WILD,
    P_MAX_TURNS,
    P_SCENARIO,
    P_SPEND_OWN,
    P_START_RADIUS,
    P_TABLE_H,
    P_TABLE_W,
    P_ZOMBIES_CLAIM,
    PO_CLASS,
    PO_GUN0,
    PO_GUN1,
    PO_HORSE,
    PO_MELEE,
    POL_DECISIONS,
    POL_SPEND_ON,
    POL_SPEND_WHEN,
    PR_CLASS,
    PR_RISEN,
    REASON_CLEARED,
    REASON_ESCAPED,
    REASON_HELD,
    REASON_OVERRUN,
    REASON_TIMEOUT,
    S_GONE,
    S_OUT,
    S_STANDING,
    SCENARIO_CLEANUP,
    SCENARIO_ESCAPE,
    SCENARIO_HOLD,
    SPEND_AT_ONCE,
    SPEND_BEST_SHOT,
    SPEND_NEVER,
    SPEND_ON_CONTACT,
    SPEND_USEFUL,
    W_CAPACITY,
    WIN_NONE,
    WIN_POSSE,
    WIN_ZOMBIES,
)
from kernels.outwest.melee import clear_markers
from kernels.outwest.random_play import activate_player, spend_pair
from kernels.outwest.shooting import gun_usable
from kernels.outwest.zombies import group_card
from kernels.rng import stream_start, uniform

MAX_CARDS = 100_000  # a safety stop far beyond any game (a turn is at most the whole deck)

# ------------------------------------------------------------------ set-up (§12)


@njit
def reset_game(st, g):
    st.ff[g] = 0.0
    st.fi[g] = 0
    st.fi[g, :, FI_GROUP] = -1
    st.fi[g, :, FI_AIM] = -1
    st.fi[g, :, FI_FEED] = -1
    st.fi[g, :, FI_GUN0] = -1
    st.fi[g, :, FI_GUN1] = -1
    st.gs[g] = 0
    st.gs[g, GS_CARD] = -1
    st.deck[g] = 0
    st.mk[g] = 0.0
    st.pres[g] = 0
    st.n_events[g] = 0
    st.viol[g] = 0


@njit
def free_spot(st, g, tb, h, x, y):
    """No other human already placed overlaps a base at (x, y)."""
    for k in range(h):
        if centre_distance(x, y, st.ff[g, k, FF_X], st.ff[g, k, FF_Y]) < 2.0 * tb.prm[P_BASE_R] + 0.1:
            return False
    return True


@njit
def place_posse(st, g, tb, rng):
    """The posse starts within 6" of the table centre (§12), bases apart, facing outward."""
    cx, cy = 0.5 * tb.prm[P_TABLE_W], 0.5 * tb.prm[P_TABLE_H]
    reach = max(0.0, tb.prm[P_START_RADIUS] - tb.prm[P_BASE_R])
    for h in range(n_humans(tb)):
        x, y = cx, cy
        for _ in range(100):
            rad = reach * math.sqrt(uniform(rng, g))
            ang = 2.0 * math.pi * uniform(rng, g)
            x, y = cx + rad * math.cos(ang), cy + rad * math.sin(ang)
            if free_spot(st, g, tb, h, x, y):
                break
        st.ff[g, h, FF_X], st.ff[g, h, FF_Y] = x, y
        st.ff[g, h, FF_FACING] = math.atan2(y - cy, x - cx)
        arm_character(st, g, tb, h)


@njit
def arm_character(st, g, tb, h):
    """Character h as built (§2): class, guns loaded, melee weapon, horse."""
    st.fi[g, h, FI_KIND], st.fi[g, h, FI_STATE] = K_HUMAN, S_STANDING
    st.fi[g, h, FI_CLASS] = tb.posse[h, PO_CLASS]
    st.fi[g, h, FI_GUN0], st.fi[g, h, FI_GUN1] = tb.posse[h, PO_GUN0], tb.posse[h, PO_GUN1]
    st.fi[g, h, FI_AMMO0], st.fi[g, h, FI_AMMO1] = GUN_READY, GUN_READY
    if tb.posse[h, PO_GUN0] >= 0:
        st.fi[g, h, FI_LEFT0] = tb.weapons[tb.posse[h, PO_GUN0], W_CAPACITY]
    if tb.posse[h, PO_GUN1] >= 0:
        st.fi[g, h, FI_LEFT1] = tb.weapons[tb.posse[h, PO_GUN1], W_CAPACITY]
    st.fi[g, h, FI_MELEE] = tb.posse[h, PO_MELEE]
    if tb.posse[h, PO_HORSE]:
        st.fi[g, h, FI_HORSE] = HORSE_RIDDEN


@njit
def edge_spot(tb, edge, along, depth):
    """A point ``along`` inches along a table edge (0 south, 1 east, 2 north, 3 west),
    ``depth`` inches in from it."""
    w, h = tb.prm[P_TABLE_W], tb.prm[P_TABLE_H]
    if edge == 0:
        return along, depth
    if edge == 1:
        return w - depth, along
    if edge == 2:
        return along, h - depth
    return depth, along


@njit
def place_groups(st, g, tb, rng):
    """Each zombie group starts on its table edge (§12: one group per edge), in a rough line
    along a random stretch of the middle half of the edge, facing the centre."""
    r = tb.prm[P_BASE_R]
    cx, cy = 0.5 * tb.prm[P_TABLE_W], 0.5 * tb.prm[P_TABLE_H]
    for q in range(n_groups(tb)):
        edge, first, size = tb.groups[q, GR_EDGE], tb.groups[q, GR_FIRST], tb.groups[q, GR_SIZE]
        length = tb.prm[P_TABLE_W] if edge % 2 == 0 else tb.prm[P_TABLE_H]
        middle = length * (0.25 + 0.5 * uniform(rng, g))
        for k in range(size):
            z = first + k
            along = middle + (k - 0.5 * (size - 1)) * (2.0 * r + 0.5)
            depth = r + uniform(rng, g) * max(0.0, tb.prm[P_EDGE_DEPTH] - 2.0 * r)
            x, y = edge_spot(tb, edge, min(max(along, r), length - r), depth)
            st.ff[g, z, FF_X], st.ff[g, z, FF_Y] = x, y
            face_towards(st, g, z, cx, cy)
            st.fi[g, z, FI_KIND], st.fi[g, z, FI_STATE], st.fi[g, z, FI_GROUP] = K_ZOMBIE, S_STANDING, q
        if tb.groups[q, GR_GUNSLINGER] >= 0 and size > 0:  # §11: at most one per group
            st.fi[g, first, FI_GUN0] = tb.groups[q, GR_GUNSLINGER]
            st.fi[g, first, FI_GUNSLINGER] = 1


@njit
def setup_game(st, g, tb, rng):
    place_posse(st, g, tb, rng)
    place_groups(st, g, tb, rng)
    grave = int(tb.prm[P_GRAVE_EDGE])
    st.gs[g, GS_GRAVE] = grave if grave >= 0 else random_below(rng, g, 4)
    st.gs[g, GS_TURN] = 1
    log_event(st, g, EK_SETUP, -1, -1, 0.0, 0.0, 0.0)
    log_event(st, g, EK_GRAVE, -1, -1, st.gs[g, GS_GRAVE], 0.0, 0.0)
    snapshot(st, g)
    reshuffle(st, g, tb, rng)


@njit
def snapshot(st, g):
    """Every figure's place, for the trace's map (only when traced)."""
    if st.events.shape[0] == 0:
        return
    for f in range(st.fi.shape[1]):
        if st.fi[g, f, FI_KIND] != K_NONE:
            log_event(st, g, EK_POS, f, st.fi[g, f, FI_KIND] * 10 + st.fi[g, f, FI_STATE],
                      st.ff[g, f, FF_X], st.ff[g, f, FF_Y], st.ff[g, f, FF_FACING])


# ------------------------------------------------------------------ cards (§3.2)


@njit
def resolve_card(st, g, tb, rng, c):
    """Resolve one card; True when it ends the turn (the Joker, W7 default)."""
    H, G = n_humans(tb), n_groups(tb)
    if c < H:
        if st.fi[g, c, FI_KIND] == K_HUMAN and st.fi[g, c, FI_STATE] != S_GONE:
            got = claim(st, g, st.fi[g, c, FI_CLASS])
            if got:
                log_event(st, g, EK_CLAIM, c, -1, got, 0.0, 0.0)
            activate_player(st, g, tb, rng, c)
        elif st.fi[g, c, FI_KIND] == K_ZOMBIE and st.fi[g, c, FI_STATE] != S_GONE:
            group_card(st, g, tb, rng, G + c)  # a zombified character's card (§3.1)
        return False
    if c < H + G:
        extra = zombies_claim(st, g, tb, c)
        for _ in range(1 + extra):
            group_card(st, g, tb, rng, c - H)
        return False
    if c < action_card(tb, 0) + 4:
        st.gs[g, GS_SHOWN] |= 1 << (c - action_card(tb, 0))
        return False
    if c == joker(tb):
        if tb.prm[P_JOKER_WILD] != 0:
            st.gs[g, GS_SHOWN] |= 1 << WILD_BIT
            return False
        return True
    if c == extra_card(tb):
        st.gs[g, GS_EXTRA] = 1
    elif c == rise_card(tb):
        st.gs[g, GS_RISE] = 1
    return False


@njit
def zombies_claim(st, g, tb, c):
    """W8 alternative (``P_ZOMBIES_CLAIM``): a zombie group card takes every face-up action card
    away from the posse and spends each on one more action of the group. Returns how many."""
    if tb.prm[P_ZOMBIES_CLAIM] == 0 or st.gs[g, GS_SHOWN] == 0:
        return 0
    shown = st.gs[g, GS_SHOWN]
    st.gs[g, GS_SHOWN] = 0
    n = 0
    for b in range(5):
        n += (shown >> b) & 1
    log_event(st, g, EK_CLAIM, c, 1, shown, 0.0, 0.0)
    return n


@njit
def threatened(st, g, tb, h):
    """A conscious human touched by a standing zombie."""
    if not is_conscious(st, g, h):
        return False
    for z in range(st.fi.shape[1]):
        if is_zombie(st, g, z) and st.fi[g, z, FI_STATE] == S_STANDING and touching(gap_between(st, g, tb, h, z)):
            return True
    return False


@njit
def best_shot(st, g, tb):
    """The conscious, standing human of the highest class with a usable gun; -1 none."""
    best, who = -1, -1
    for h in range(n_humans(tb)):
        if is_human(st, g, h) and st.fi[g, h, FI_STATE] == S_STANDING and st.fi[g, h, FI_CLASS] > best \
                and (gun_usable(st, g, tb, h, 0) or gun_usable(st, g, tb, h, 1)):
            best, who = st.fi[g, h, FI_CLASS], h
    return who


@njit
def spend_one(st, g, tb, rng, h):
    """Spend the held card h qualifies for on a free action of his (§3.2); False if none."""
    card = card_for(st.gs[g, GS_HELD], st.fi[g, h, FI_CLASS])
    if card < 0:
        return False
    spend_card(st, g, tb, rng, h, card)
    return True


@njit
def spend_card(st, g, tb, rng, h, card):
    """Spend held card ``card`` (a class bit, or the wild Joker's) on a free action of h (§3.2)."""
    st.gs[g, GS_HELD] &= ~(1 << card)
    log_event(st, g, EK_SPEND, h, card, 0.0, 0.0, 0.0)
    activate_player(st, g, tb, rng, h)


@njit
def spend_random(st, g, tb, rng):
    """Random-legal play (``POL_DECISIONS``): between two draws the posse (one player, §3.2)
    keeps its held cards or spends one, drawn uniformly among keeping them and every legal (card,
    character of random-legal policy) pair; after a spend it chooses again. No draw when no such
    pair exists (a heuristic posse draws nothing here)."""
    for _ in range(WILD_BIT + 1):
        _, n = spend_pair(st, g, tb, 1 << 30)
        if n == 0 or st.gs[g, GS_OVER]:
            return
        k = random_below(rng, g, n + 1)
        if k == n:
            return  # keep them
        card, h = spend_pair(st, g, tb, k)
        spend_card(st, g, tb, rng, h, card)
        victory(st, g, tb)


@njit
def spend_useful(st, g, tb, rng):
    """``SPEND_USEFUL`` (P5): a held card goes to a man of that policy whom a standing zombie
    threatens first, then to one whose free action would help (humans.wants_free_action), one
    card at a time, until no such man holds a card he may spend."""
    for _ in range(5):
        who = -1
        for h in range(n_humans(tb)):
            if tb.pol[h, POL_SPEND_WHEN] == SPEND_USEFUL and tb.pol[h, POL_DECISIONS] == DECIDE_HEURISTIC \
                    and is_conscious(st, g, h) \
                    and card_for(st.gs[g, GS_HELD], st.fi[g, h, FI_CLASS]) >= 0:
                if threatened(st, g, tb, h):
                    who = h
                    break
                if who < 0 and wants_free_action(st, g, tb, h):
                    who = h
        if who < 0 or st.gs[g, GS_OVER] or not spend_one(st, g, tb, rng, who):
            return
        victory(st, g, tb)


@njit
def spend_cards(st, g, tb, rng, after_character):
    """P5: held action cards are spent between two draws (W8; ``P_SPEND_OWN``: only right after
    a character card). ``POL_SPEND_WHEN`` of a character: after a zombie activation that put a
    zombie in contact with a human (default), as soon as held, or never; ``POL_SPEND_ON``: the
    threatened character, or the best shot."""
    threat = st.gs[g, GS_THREAT] != 0
    st.gs[g, GS_THREAT] = 0
    if st.gs[g, GS_HELD] == 0 or (tb.prm[P_SPEND_OWN] != 0 and not after_character):
        return
    spend_useful(st, g, tb, rng)
    spend_random(st, g, tb, rng)
    for h in range(n_humans(tb)):
        if st.gs[g, GS_HELD] == 0 or st.gs[g, GS_OVER]:
            return
        when = tb.pol[h, POL_SPEND_WHEN]
        if when == SPEND_NEVER or when == SPEND_USEFUL or not is_conscious(st, g, h) \
                or tb.pol[h, POL_DECISIONS] != DECIDE_HEURISTIC:
            continue
        if when == SPEND_ON_CONTACT and not threat:
            continue
        if tb.pol[h, POL_SPEND_ON] == SPEND_BEST_SHOT:
            if best_shot(st, g, tb) == h and (threat or when == SPEND_AT_ONCE):
                spend_one(st, g, tb, rng, h)
        elif threatened(st, g, tb, h) or (when == SPEND_AT_ONCE and best_shot(st, g, tb) == h):
            spend_one(st, g, tb, rng, h)
        victory(st, g, tb)


# ------------------------------------------------------------------ victory (§12)


@njit
def finish(st, g, tb, winner, reason):
    st.gs[g, GS_OVER] = 1
    st.gs[g, GS_WINNER] = winner
    st.gs[g, GS_REASON] = reason
    for h in range(n_humans(tb)):
        st.pres[g, h, PR_CLASS] = st.fi[g, h, FI_CLASS]
    snapshot(st, g)
    log_event(st, g, EK_END, winner, reason, st.gs[g, GS_TURN], 0.0, 0.0)


@njit
def victory(st, g, tb):
    """After every card: the posse escapes (Escape) or the zombies win as soon as no human is
    alive, conscious and not a zombie on the table."""
    if st.gs[g, GS_OVER]:
        return
    if tb.prm[P_SCENARIO] == SCENARIO_ESCAPE and st.gs[g, GS_ESCAPED] >= tb.prm[P_ESCAPE_NEEDED]:
        finish(st, g, tb, WIN_POSSE, REASON_ESCAPED)
        return
    for h in range(n_humans(tb)):
        if is_conscious(st, g, h):
            return
    finish(st, g, tb, WIN_ZOMBIES, REASON_OVERRUN)


@njit
def zombies_on_table(st, g):
    for z in range(st.fi.shape[1]):
        if is_zombie(st, g, z):
            return True
    return False


@njit
def end_turn(st, g, tb, rng):
    """The Joker or an empty deck ends the turn (§3.2): the scenario clock, then a reshuffle."""
    log_event(st, g, EK_TURN_END, -1, -1, st.gs[g, GS_TURN], 0.0, 0.0)
    snapshot(st, g)
    scenario = tb.prm[P_SCENARIO]
    last = st.gs[g, GS_TURN] >= tb.prm[P_MAX_TURNS]
    if scenario == SCENARIO_CLEANUP and not zombies_on_table(st, g):
        finish(st, g, tb, WIN_POSSE, REASON_CLEARED)
    elif last and scenario == SCENARIO_HOLD:
        finish(st, g, tb, WIN_POSSE, REASON_HELD)
    elif last:
        finish(st, g, tb, WIN_NONE, REASON_TIMEOUT)
    else:
        st.gs[g, GS_TURN] += 1
        reshuffle(st, g, tb, rng)


# ------------------------------------------------------------------ the game


@njit
def after_card(st, g, tb, rng, c, check):
    clear_markers(st, g)
    victory(st, g, tb)
    if not st.gs[g, GS_OVER]:
        spend_cards(st, g, tb, rng, 0 <= c < n_humans(tb))
        clear_markers(st, g)
    st.gs[g, GS_CARD] = -1
    if check:
        st.viol[g] += count_violations(st, g, tb)


@njit
def play_game(st, g, tb, rng, check):
    """Play game g of the batch from its stream ``rng[g]`` to the end (§13)."""
    reset_game(st, g)
    setup_game(st, g, tb, rng)
    if check:
        st.viol[g] += count_violations(st, g, tb)
    while st.gs[g, GS_OVER] == 0:
        c = draw(st, g)
        if c < 0:
            end_turn(st, g, tb, rng)
            continue
        st.gs[g, GS_CARDS] += 1
        st.gs[g, GS_CARD] = c
        log_event(st, g, EK_CARD, c, -1, 0.0, 0.0, 0.0)
        ends = resolve_card(st, g, tb, rng, c)
        after_card(st, g, tb, rng, c, check)
        if ends and st.gs[g, GS_OVER] == 0:
            end_turn(st, g, tb, rng)
        if st.gs[g, GS_CARDS] > MAX_CARDS:
            finish(st, g, tb, WIN_NONE, REASON_TIMEOUT)


@njit_alloc
def play_batch(st, tb, seed, first_game, check, rng):
    """Play every game of the batch; game g is game ``first_game + g`` of stream ``seed``.
    ``rng[g]`` is left at the stream's final counter (the caller counts the dice rolled)."""
    state, tables = by_ref(st), by_ref(tb)  # one pointer each down the call tree (kernels.jit.ByRef)
    for g in range(st.fi.shape[0]):
        rng[g] = stream_start(np.uint64(seed), np.uint64(first_game + g))
        play_game(state, g, tables, rng, check)


# ------------------------------------------------------------------ invariants


@njit
def figure_violations(st, g, tb, f):
    """A figure's codes are in range; one on the table stands on it; a gone one has a fate; a
    zombie is never unconscious and feeds only at a marker that is down; wound counts are not
    negative; an unconscious-from-bites human is unconscious; an aim names a zombie."""
    bad = 0
    kind, state = st.fi[g, f, FI_KIND], st.fi[g, f, FI_STATE]
    r, w, h = tb.prm[P_BASE_R], tb.prm[P_TABLE_W], tb.prm[P_TABLE_H]
    bad += not (0 <= kind <= 2) or not (0 <= state <= 3)
    if kind == K_NONE:
        return bad
    if state != S_GONE:
        x, y = st.ff[g, f, FF_X], st.ff[g, f, FF_Y]
        bad += not (r - EPS <= x <= w - r + EPS and r - EPS <= y <= h - r + EPS)
        bad += st.fi[g, f, FI_FATE] != FATE_IN_PLAY
    else:
        bad += st.fi[g, f, FI_FATE] == FATE_IN_PLAY
    feed = st.fi[g, f, FI_FEED]
    if kind == K_ZOMBIE:
        bad += state == S_OUT
        bad += feed >= st.mk.shape[1] or (feed >= 0 and (state == S_GONE or st.mk[g, feed, MK_ON] == 0.0))
        bad += st.fi[g, f, FI_GROUP] < 0
    else:
        bad += feed != -1 or st.fi[g, f, FI_GROUP] != -1
        bad += st.fi[g, f, FI_BITES] < 0 or not (0 <= st.fi[g, f, FI_ARMS] <= 2)
        bad += st.fi[g, f, FI_LAPSED] != 0 and state != S_OUT
        aim = st.fi[g, f, FI_AIM]
        bad += aim >= st.fi.shape[1] or (aim >= 0 and st.fi[g, aim, FI_KIND] == K_HUMAN and aim >= n_humans(tb))
    bad += not (0 <= st.fi[g, f, FI_CLASS] <= 3)
    return bad


@njit
def deck_violations(st, g, tb):
    """Every card is in exactly one place: the rest of the deck, held, face up, waiting, or
    played this turn; no card is twice in the deck."""
    bad = 0
    n, pos = st.gs[g, GS_DECK_N], st.gs[g, GS_DECK_POS]
    bad += not (0 <= pos <= n <= card_count(tb))
    for i in range(pos, n):
        c = st.deck[g, i]
        bad += not (0 <= c < card_count(tb))
        for j in range(i + 1, n):
            bad += st.deck[g, j] == c
        first = action_card(tb, 0)
        if first <= c < first + 4:
            bad += (st.gs[g, GS_HELD] >> (c - first)) & 1 or (st.gs[g, GS_SHOWN] >> (c - first)) & 1
        bad += c == extra_card(tb) and st.gs[g, GS_EXTRA] != 0
        bad += c == rise_card(tb) and st.gs[g, GS_RISE] != 0
    bad += (st.gs[g, GS_HELD] & st.gs[g, GS_SHOWN]) != 0
    return bad


@njit
def count_violations(st, g, tb):
    bad = 0
    for f in range(st.fi.shape[1]):
        bad += figure_violations(st, g, tb, f)
    bad += deck_violations(st, g, tb)
    bad += not (1 <= st.gs[g, GS_TURN] <= tb.prm[P_MAX_TURNS])
    risen = 0
    for h in range(n_humans(tb)):
        risen += st.pres[g, h, PR_RISEN]
        bad += st.pres[g, h, PR_RISEN] != 0 and st.fi[g, h, FI_KIND] != K_ZOMBIE
        bad += st.fi[g, h, FI_KIND] == K_ZOMBIE and st.fi[g, h, FI_GROUP] != n_groups(tb) + h
    bad += risen != st.gs[g, GS_RISEN]
    for q in range(n_groups(tb)):
        for z in range(tb.groups[q, GR_FIRST], tb.groups[q, GR_FIRST] + tb.groups[q, GR_SIZE]):
            bad += st.fi[g, z, FI_KIND] != K_ZOMBIE or st.fi[g, z, FI_GROUP] != q
    for m in range(st.mk.shape[1]):
        bad += st.mk[g, m, MK_ON] != 0.0 and st.fi[g, m, FI_STATE] != S_GONE
    return bad
