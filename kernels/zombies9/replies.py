"""Cards played in reply to a card (D21): a stack, last played first resolved.

D21 (default): "a card played in response resolves first (last played, first resolved); the
active player gets the first chance to respond". No card of A11 or B7 names another card as its
trigger or cancels one (Brain Cramp answers a move, not a card); what makes replies possible is
A10's timing: "Cards may be played at any moment, including in the middle of combat or movement
and during other players' turns", within one card per round. So every card played opens a reply
round (``answered``), for the cards whose effect may take hold in the middle of another's action:

- Alternate Food Source (global: no fights until the end of its player's next turn);
- Hey, Look! A Shotgun! (a weapon in play for the next 3 combats);
- Hysterical Paralysis, Fear, Your Shoe's Untied, Claustrophobia on the answered card's player
  (they only set what the target's next turn or roll will suffer);
- a card with the ``cancel`` effect (the card it answers does nothing); none of the printed decks
  has one, a deck file may (D12, D23).

Not replies (the model's choice): Much Needed Rest, The Keys Are Still In It and Adrenaline Rush
(they replace or change one's own movement roll), Brain Cramp (its own trigger: a move), items
(put in play in their building on the holder's own moments), and the cards that move a pawn or
figures or take tokens from a player (Bad Sense of Direction, Where Did Everybody Go?, Butter
Fingers, I Don't Think They're Dead, the zombie cards): a reply never moves a pawn or a figure
in the middle of another action.

The round: the players are asked in turn order from the active player (D21; before a player's
turn that player is the active one), each with his round's card still unplayed; the first who
replies puts his card on the stack and the round starts again on it (a reply to the reply).
When every player has passed on the card on top, the stack resolves from the top down: a
cancelled card does nothing, and a cancel that resolves cancels the card beneath it. Whoever
plays a card has used his round's card, so the stack holds at most one card per player.

Reply policy (``POL_REPLY``, D21 / Q6): ``defend`` (default) answers a card that targets the
player: a cancel if held; against a forced move (Where Did Everybody Go?, Brain Cramp)
Alternate Food Source (no fights on the way), else the Shotgun. ``leader`` also answers any card
played by the player's leader when it is within ``POL_THREAT`` turns of a win: a cancel, else
Hysterical Paralysis, Fear or Your Shoe's Untied on it. ``never`` does not reply. The random
baseline replies with a uniformly drawn legal reply or passes. ``POL_REPLY_CHANCE`` is the
chance a chosen reply is made (1: always).
"""

from __future__ import annotations

from kernels.jit import njit
from kernels.rng import uniform
from kernels.zombies9.events import log_event
from kernels.zombies9.hand import (
    find_card,
    is_random,
    may_play,
    place_in_play,
    play_card,
    playable_item,
    random_choice,
)
from kernels.zombies9.layout import (
    CI_EFFECT,
    E_AFS,
    E_BRAIN_CRAMP,
    E_CANCEL,
    E_CLAUSTRO,
    E_EVERYBODY,
    E_FEAR,
    E_PARALYSIS,
    E_SHOE,
    E_SHOTGUN,
    EK_CANCELLED,
    EK_REPLY,
    GS_ACTIVE,
    GS_AFS_END,
    GS_AFS_OWNER,
    GS_TURN,
    MAX_HAND,
    MAX_STACK,
    P_N_PLAYERS,
    PL_CLAUS,
    PL_FEAR,
    PL_HAND,
    PL_PARALYSED,
    PL_SHOE,
    PL_SHOTGUN_CARD,
    POL_REPLY,
    POL_REPLY_CHANCE,
    POL_THREAT,
    PR_CANCELLED,
    PR_REPLIES,
    REPLY_LEADER,
    REPLY_NEVER,
    RS_CANCELLED,
    RS_CARD,
    RS_PLAYER,
    RS_TARGET,
)
from kernels.zombies9.pieces import to_discard
from kernels.zombies9.policy import ensure_fields, leader

# ---------------------------------------------------------------- the stack


@njit
def answered(st, tb, rng, g, p, c, t):
    """Card c has just been played by p (on t; -1: no target): the reply round (D21, module
    docstring). Returns True if c resolves, False if a reply cancelled it (it then does nothing;
    the caller discards it)."""
    stk = st.w_reply
    stk[0, RS_PLAYER], stk[0, RS_CARD], stk[0, RS_TARGET], stk[0, RS_CANCELLED] = p, c, t, 0
    top = 0
    while top + 1 < MAX_STACK:
        o, slot = _first_reply(st, tb, rng, g, top)
        if o < 0:
            break
        e = tb.cards[st.w_pl[o, slot], CI_EFFECT]
        target = stk[top, RS_PLAYER] if reply_has_target(e) else -1
        rc = play_card(st, tb, g, o, slot, target)
        st.pres[g, o, PR_REPLIES] += 1
        log_event(st, g, EK_REPLY, o, rc, stk[top, RS_CARD], stk[top, RS_PLAYER], top + 1)
        top += 1
        stk[top, RS_PLAYER], stk[top, RS_CARD], stk[top, RS_TARGET], stk[top, RS_CANCELLED] = o, rc, target, 0
    for level in range(top, 0, -1):
        _resolve(st, tb, g, level)
    return stk[0, RS_CANCELLED] == 0


@njit
def _first_reply(st, tb, rng, g, top):
    """Turn order from the active player (D21): the first player who answers the card on top of
    the stack, and the hand slot of his reply; (-1, -1) when all pass."""
    n = int(tb.prm[P_N_PLAYERS])
    for k in range(n):
        o = (st.w_gs[GS_ACTIVE] + k) % n
        if o == st.w_reply[top, RS_PLAYER] or not may_play(st, tb, o):
            continue
        slot = choose_reply(st, tb, rng, g, o, top)
        if slot >= 0:
            return o, slot
    return -1, -1


@njit
def reply_has_target(e):
    """A reply aimed at the answered card's player (an attack, or a cancel of his card)."""
    return e == E_CANCEL or e == E_PARALYSIS or e == E_FEAR or e == E_SHOE or e == E_CLAUSTRO


@njit
def _resolve(st, tb, g, level):
    """The reply at ``level`` takes effect (unless cancelled) and goes to the discards (the
    Shotgun into play)."""
    stk = st.w_reply
    o, c, t = stk[level, RS_PLAYER], stk[level, RS_CARD], stk[level, RS_TARGET]
    e = tb.cards[c, CI_EFFECT]
    if stk[level, RS_CANCELLED]:
        to_discard(st, c)
        return
    if e == E_CANCEL:
        stk[level - 1, RS_CANCELLED] = 1
        st.pres[g, stk[level - 1, RS_PLAYER], PR_CANCELLED] += 1
        log_event(st, g, EK_CANCELLED, stk[level - 1, RS_PLAYER], stk[level - 1, RS_CARD], o, 0, 0)
    elif e == E_AFS:
        start_afs(st, tb, o)
    elif e == E_SHOTGUN:
        place_in_play(st, tb, o, c)
        return
    else:
        mark_next_turn(st, t, e)
    to_discard(st, c)


@njit
def mark_next_turn(st, t, e):
    """A card that spoils player t's next turn marks it (Hysterical Paralysis, Fear, Your Shoe's
    Untied, Claustrophobia); False if ``e`` is not one of them."""
    if e == E_PARALYSIS:
        st.w_pl[t, PL_PARALYSED] = 1
    elif e == E_FEAR:
        st.w_pl[t, PL_FEAR] = 1
    elif e == E_SHOE:
        st.w_pl[t, PL_SHOE] = 1
    elif e == E_CLAUSTRO:
        st.w_pl[t, PL_CLAUS] = 1
    else:
        return False
    return True


@njit
def start_afs(st, tb, o):
    """Alternate Food Source played by o in reply (A11): until the end of o's next turn (the
    active player's next turn is the one after this; a running one is never shortened)."""
    n = int(tb.prm[P_N_PLAYERS])
    a = st.w_gs[GS_ACTIVE]
    end = st.w_gs[GS_TURN] + (n if o == a else (o - a) % n)
    st.w_gs[GS_AFS_OWNER] = o
    st.w_gs[GS_AFS_END] = max(st.w_gs[GS_AFS_END], end)


# ---------------------------------------------------------------- who replies with what


@njit
def legal_reply(st, o, e):
    """May o play a card with effect e in reply (module docstring)?"""
    if e == E_SHOTGUN:
        return st.w_pl[o, PL_SHOTGUN_CARD] < 0
    return e == E_AFS or reply_has_target(e)


@njit
def choose_reply(st, tb, rng, g, o, top):
    """o's reply to the card on top of the stack: a hand slot, or -1 (POL_REPLY, POL_REPLY_CHANCE)."""
    if tb.pol[o, POL_REPLY] == REPLY_NEVER:
        return -1
    if is_random(tb, o):
        slot = _random_reply(st, tb, rng, g, o)
    else:
        stk = st.w_reply
        slot = heuristic_reply(st, tb, o, stk[top, RS_PLAYER], tb.cards[stk[top, RS_CARD], CI_EFFECT],
                               stk[top, RS_TARGET])
    chance = tb.pol[o, POL_REPLY_CHANCE]
    if slot >= 0 and chance < 1.0 and uniform(rng, g) >= chance:
        return -1
    return slot


@njit
def heuristic_reply(st, tb, o, pp, e, t):
    """``defend``: a card on o (effect e, played by pp) is cancelled, or a forced move met with
    Alternate Food Source or the Shotgun; ``leader``: a card of o's threatening leader is
    cancelled or answered with a next-turn attack."""
    if t == o:
        slot = find_card(st, tb, o, E_CANCEL)
        if slot < 0 and (e == E_EVERYBODY or e == E_BRAIN_CRAMP):
            slot = find_card(st, tb, o, E_AFS)
            if slot < 0 and st.w_pl[o, PL_SHOTGUN_CARD] < 0:
                slot = find_card(st, tb, o, E_SHOTGUN)
        if slot >= 0:
            return slot
    if tb.pol[o, POL_REPLY] != REPLY_LEADER:
        return -1
    slot = find_card(st, tb, o, E_CANCEL)
    for a in (E_PARALYSIS, E_FEAR, E_SHOE):
        if slot < 0:
            slot = find_card(st, tb, o, a)
    if slot < 0:
        return -1
    ensure_fields(st)
    who, turns, _ = leader(st, tb, o)
    return slot if who == pp and turns <= tb.pol[o, POL_THREAT] else -1


@njit
def _random_reply(st, tb, rng, g, o):
    """The random-legal baseline: one of o's legal replies or passing, uniformly."""
    n = 0
    for i in range(PL_HAND, PL_HAND + MAX_HAND):
        c = st.w_pl[o, i]
        n += c >= 0 and legal_reply(st, o, tb.cards[c, CI_EFFECT])
    if n == 0:
        return -1
    k = random_choice(rng, g, n)
    for i in range(PL_HAND, PL_HAND + MAX_HAND):
        c = st.w_pl[o, i]
        if c >= 0 and legal_reply(st, o, tb.cards[c, CI_EFFECT]):
            if k == 0:
                return i
            k -= 1
    return -1


# ---------------------------------------------------------------- items played, open to replies


@njit
def play_item(st, tb, rng, g, p, slot):
    """p plays the item (or the Shotgun) in ``slot``; unless a reply cancels it, it goes in play."""
    c = play_card(st, tb, g, p, slot, -1)
    if answered(st, tb, rng, g, p, c, -1):
        place_in_play(st, tb, p, c)
    else:
        to_discard(st, c)


@njit
def try_items(st, tb, rng, g, p):
    """Q6: an item goes in play as soon as the pawn is in its building (random baseline: a
    random legal item or none). Returns True if one was played."""
    if not may_play(st, tb, p):
        return False
    n = 0
    first = -1
    for i in range(PL_HAND, PL_HAND + MAX_HAND):
        if playable_item(st, tb, p, i):
            n += 1
            if first < 0:
                first = i
    if n == 0:
        return False
    if is_random(tb, p):
        k = random_choice(rng, g, n)
        if k < 0:
            return False
        for i in range(PL_HAND, PL_HAND + MAX_HAND):
            if playable_item(st, tb, p, i):
                if k == 0:
                    play_item(st, tb, rng, g, p, i)
                    return True
                k -= 1
    play_item(st, tb, rng, g, p, first)
    return True
