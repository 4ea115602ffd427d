"""Hands of event cards, items put in play, and token pick-up (A7, A10).

A hand holds up to ``P_HAND`` cards (3). Playing a card uses the player's one card of the round
(A10); an item is played only while the pawn is in its building (D16: or anywhere on its tile)
and then lies in front of the player (``PL_AXE`` ... ``PL_MARBLES``), one of each kind.
"""

from __future__ import annotations

from kernels.jit import njit
from kernels.rng import uniform
from kernels.zombies9.events import log_event
from kernels.zombies9.layout import (
    CARDS_NEVER,
    CARDS_RANDOM,
    CI_BUILDING,
    CI_EFFECT,
    E_AMMO,
    E_SHOTGUN,
    EK_CARD,
    EK_PICKUP,
    MAX_HAND,
    P_AMMO,
    P_HAND,
    P_LIFE_CAP,
    P_SHOTGUN_COMBATS,
    PL_BULLETS,
    PL_HAND,
    PL_LIFE,
    PL_PLAYED,
    PL_SHOTGUN,
    PL_SHOTGUN_CARD,
    PL_SQ,
    POL_CARDS,
    PR_CARDS,
    PR_TOKENS,
    SQ_BULLET,
    SQ_LIFE,
    TS_TYPE,
)
from kernels.zombies9.pieces import to_discard
from kernels.zombies9.policy import in_item_place, item_building, item_column, item_slot


@njit
def hand_count(st, tb, p):
    n = 0
    for i in range(PL_HAND, PL_HAND + MAX_HAND):
        n += st.w_pl[p, i] >= 0
    return n


@njit
def hand_add(st, tb, p, c):
    for i in range(PL_HAND, PL_HAND + int(tb.prm[P_HAND])):
        if st.w_pl[p, i] < 0:
            st.w_pl[p, i] = c
            return True
    return False


@njit
def find_card(st, tb, p, effect):
    """Hand slot (PL_* column) of a card with this effect, -1 none."""
    for i in range(PL_HAND, PL_HAND + MAX_HAND):
        c = st.w_pl[p, i]
        if c >= 0 and tb.cards[c, CI_EFFECT] == effect:
            return i
    return -1


@njit
def may_play(st, tb, p):
    """A10: one card per round; a player with the "never" card policy plays none."""
    return st.w_pl[p, PL_PLAYED] == 0 and tb.pol[p, POL_CARDS] != CARDS_NEVER


@njit
def is_random(tb, p):
    return tb.pol[p, POL_CARDS] == CARDS_RANDOM


@njit
def random_choice(rng, g, n):
    """The random-legal baseline (Q6): one of n legal plays or passing, uniformly; -1 = pass."""
    k = int(uniform(rng, g) * (n + 1))
    return k if k < n else -1


@njit
def play_card(st, tb, g, p, slot, target):
    """p plays the card in hand slot ``slot`` (the round's card); returns the card."""
    c = st.w_pl[p, slot]
    st.w_pl[p, slot] = -1
    st.w_pl[p, PL_PLAYED] = 1
    st.pres[g, p, PR_CARDS] += 1
    log_event(st, g, EK_CARD, p, c, target, tb.cards[c, CI_EFFECT], 0)
    return c


@njit
def put_in_play(st, tb, g, p, slot):
    """An item card (or the Shotgun) from the hand into play in front of p (no reply asked:
    ``replies.try_items`` is the play that other players may answer, D21)."""
    c = play_card(st, tb, g, p, slot, -1)
    place_in_play(st, tb, p, c)
    return c


@njit
def place_in_play(st, tb, p, c):
    """The played item card c lies in front of p (A10); Lots of Ammo is spent at once."""
    effect = tb.cards[c, CI_EFFECT]
    if effect == E_AMMO:  # spent at once (the model's choice): +3 bullets, then discarded
        st.w_pl[p, PL_BULLETS] += int(tb.prm[P_AMMO])
        to_discard(st, c)
    elif effect == E_SHOTGUN:
        st.w_pl[p, PL_SHOTGUN] = int(tb.prm[P_SHOTGUN_COMBATS])
        st.w_pl[p, PL_SHOTGUN_CARD] = c
    else:
        st.w_pl[p, item_column(effect)] = c


@njit
def playable_item(st, tb, p, slot):
    """Is the hand card in ``slot`` an item p may put in play where the pawn stands?"""
    c = st.w_pl[p, slot]
    if c < 0 or tb.cards[c, CI_BUILDING] < 0:
        return False
    q = st.w_pl[p, PL_SQ]
    k = q // 9  # the tile the pawn stands on: one of the card's buildings (D15: either of two)
    if item_slot(st, tb, p, c) < 0 or not item_building(tb, c, st.w_tile[k, TS_TYPE]):
        return False
    return in_item_place(st, tb, q, k)


@njit
def pick_up(st, tb, g, p, q):
    """A7: take the tokens of square q (life up to the cap of 5; bullets unlimited)."""
    room = 2 * int(tb.prm[P_LIFE_CAP]) - st.w_pl[p, PL_LIFE]
    life = min(st.w_sq[q, SQ_LIFE], max(0, room // 2))
    bullets = st.w_sq[q, SQ_BULLET]
    if life + bullets == 0:
        return False
    st.w_sq[q, SQ_LIFE] -= life
    st.w_sq[q, SQ_BULLET] = 0
    st.w_pl[p, PL_LIFE] += 2 * life
    st.w_pl[p, PL_BULLETS] += bullets
    st.pres[g, p, PR_TOKENS] += life + bullets
    log_event(st, g, EK_PICKUP, p, life, bullets, q, 0)
    return True
