"""The Fate deck (outwest §3): shuffling, drawing, class action cards, the Joker, reshuffles.

Card ids (kernels.outwest.layout): characters ``0..H-1``, zombie groups ``H..H+G-1``, then the
class action cards Citizen..Legend, the Joker, "Extra zombie action", "And the dead shall rise".
The deck is ``st.deck[g, :GS_DECK_N]``, drawn from ``GS_DECK_POS`` on; drawn cards are discarded
(out of the deck until the reshuffle), held action cards and waiting zombie cards stay out of
the next deck (§3.2).
"""

from __future__ import annotations

from kernels.jit import njit
from kernels.outwest.figures import n_groups, n_humans
from kernels.outwest.layout import (
    GS_DECK_N,
    GS_DECK_POS,
    GS_EXTRA,
    GS_HELD,
    GS_RISE,
    GS_SHOWN,
)
from kernels.rng import uniform

WILD_BIT = 4  # bit of the wild Joker in GS_HELD / GS_SHOWN (W7 alternative)


@njit
def action_card(tb, c):
    """The class action card id of class c (0 Citizen .. 3 Legend)."""
    return n_humans(tb) + n_groups(tb) + c


@njit
def joker(tb):
    return n_humans(tb) + n_groups(tb) + 4


@njit
def extra_card(tb):
    return n_humans(tb) + n_groups(tb) + 5


@njit
def rise_card(tb):
    return n_humans(tb) + n_groups(tb) + 6


@njit
def card_count(tb):
    return n_humans(tb) + n_groups(tb) + 7


@njit
def random_below(rng, g, n):
    """A uniform integer 0..n-1."""
    return min(int(uniform(rng, g) * n), n - 1)


@njit
def is_out_of_deck(st, g, tb, c):
    """Cards that sit out of a new deck: held action cards (and a held wild Joker), waiting
    zombie cards (§3.2 Joker: "all cards except action cards held in hand are shuffled
    together"; waiting zombie cards stay waiting)."""
    held = st.gs[g, GS_HELD]
    first_action = action_card(tb, 0)
    if first_action <= c < first_action + 4:
        return (held >> (c - first_action)) & 1 == 1
    if c == joker(tb):
        return (held >> WILD_BIT) & 1 == 1
    if c == extra_card(tb):
        return st.gs[g, GS_EXTRA] != 0
    if c == rise_card(tb):
        return st.gs[g, GS_RISE] != 0
    return False


@njit
def reshuffle(st, g, tb, rng):
    """A new deck of every card not held or waiting, shuffled (Fisher-Yates); face-up action
    cards that nobody claimed go back into it."""
    st.gs[g, GS_SHOWN] = 0
    n = 0
    for c in range(card_count(tb)):
        if not is_out_of_deck(st, g, tb, c):
            st.deck[g, n] = c
            n += 1
    for i in range(n - 1, 0, -1):
        j = random_below(rng, g, i + 1)
        st.deck[g, i], st.deck[g, j] = st.deck[g, j], st.deck[g, i]
    st.gs[g, GS_DECK_N] = n
    st.gs[g, GS_DECK_POS] = 0


@njit
def draw(st, g):
    """The next card, or -1 when the deck is empty (the turn ends, §3.2)."""
    k = st.gs[g, GS_DECK_POS]
    if k >= st.gs[g, GS_DECK_N]:
        return -1
    st.gs[g, GS_DECK_POS] = k + 1
    return int(st.deck[g, k])


@njit
def claimable(shown, cls):
    """Bits of the face-up action cards a character of class ``cls`` claims: every card of a
    class at most his (§3.2: "at least as high"), and a wild Joker."""
    mask = (1 << (cls + 1)) - 1 | (1 << WILD_BIT)
    return shown & mask


@njit
def claim(st, g, cls):
    """A qualifying character card claims every face-up card it qualifies for; returns the bits."""
    got = claimable(st.gs[g, GS_SHOWN], cls)
    st.gs[g, GS_SHOWN] &= ~got
    st.gs[g, GS_HELD] |= got
    return got


@njit
def card_for(held, cls):
    """The held card a character of class ``cls`` would spend: the lowest class card at most his
    (a reading of §3.2: "of at least the card's class"), else the wild Joker; -1 none."""
    for c in range(cls + 1):
        if (held >> c) & 1:
            return c
    if (held >> WILD_BIT) & 1:
        return WILD_BIT
    return -1
