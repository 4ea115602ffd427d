"""Blind and defensive grenades on hordes (core-7th-edition §8, §12; catalogue §3.2).

A defensive (photon) grenade is thrown as a Blind blast (core §8; ``kernels.apocalypse.shooting``
throws it). Core §12 Blind: "A unit hit by it takes an Initiative test at the end of the phase;
fail -> all its models are WS 1 and BS 1 until the end of their next turn." The USR table marks
Blind "(CC only)" as a model's own rule; the grenade's Blind is the weapon's, so a thrown
defensive grenade blinds in the Shooting phase as core §8 says.

For a horde: a hit (not a wound: an S1 grenade that wounds nobody still hits) marks it
(``HS_BLIND_HIT``, set in ``kernels.apocalypse.strike``); at the end of the phase it tests its
majority Initiative (Zombies I2, D6 <= I passes; a 1 always passes, a 6 always fails, core §1).
A failed test blinds it until the end of the zombies' next turn (``BLIND_PENDING`` becomes
``BLIND_THIS_TURN`` when that turn starts and ends with it). Blind zombies strike at WS 1 (Dull
Witted then hits every model of WS 2 or more only on a 6, §5) and are struck at WS 1 (a WS 2
attacker hits them on 3+); BS 1 is inert (zombies have BS 0 and never shoot, A21). A merged horde
keeps the state of its larger part (``hordes.merged_blind``).

Defensive grenades in close combat (core §8): "when a unit with them is charged, the chargers do
not get the +1 Attack for charging". Zombies never get that bonus (Zombie!, §5), so a player unit's
defensive grenades change nothing when hordes charge it; a horde holding a Brute that kept its
host's defensive grenades (§4) takes the +1 Attack from player units that charge it.
"""

from __future__ import annotations

from kernels.apocalypse.columns import (
    BLIND_NONE,
    BLIND_PENDING,
    BLIND_THIS_TURN,
    EK_BLIND,
    HS_BLIND,
    HS_BLIND_HIT,
    P_BLIND_ON,
    SK_BRUTE,
)
from kernels.apocalypse.hordes import horde_initiative, is_alive
from kernels.apocalypse.trace import log_event
from kernels.jit import njit
from kernels.rng import d6
from kernels.w40k.columns import W_FLAGS, WR_DEFENSIVE_GRENADE


@njit
def initiative_test_fails(die, initiative):
    """A characteristic test on one D6 (core §1): passed on the characteristic or less; a 1 always
    passes, a 6 always fails, a characteristic of 0 always fails."""
    return initiative <= 0 or die == 6 or (die > 1 and die > initiative)


@njit
def blind_tests(rng, g, st, tb, phase):
    """End of a phase: every horde hit by a Blind attack in it tests Initiative (core §12)."""
    for h in range(st.hst.shape[1]):
        if st.hst[g, h, HS_BLIND_HIT] == 0:
            continue
        st.hst[g, h, HS_BLIND_HIT] = 0
        if not is_alive(st, g, h) or tb.prm[P_BLIND_ON] == 0:
            continue
        die = d6(rng, g)
        failed = initiative_test_fails(die, horde_initiative(st, g, h, tb))
        if failed:
            st.hst[g, h, HS_BLIND] = BLIND_PENDING
        log_event(st, g, phase, EK_BLIND, h, die, int(failed), st.hpos[g, h, 0], st.hpos[g, h, 1])


@njit
def blind_turn_starts(st, g):
    """The zombies' turn begins: a Blind from before it lasts to this turn's end."""
    for h in range(st.hst.shape[1]):
        if st.hst[g, h, HS_BLIND] == BLIND_PENDING:
            st.hst[g, h, HS_BLIND] = BLIND_THIS_TURN


@njit
def blind_turn_ends(st, g):
    """The zombies' turn ends: 'until the end of their next turn' is over (a horde blinded during
    this turn stays pending until its next)."""
    for h in range(st.hst.shape[1]):
        if st.hst[g, h, HS_BLIND] == BLIND_THIS_TURN:
            st.hst[g, h, HS_BLIND] = BLIND_NONE


@njit
def horde_has_defensive_grenades(st, g, h, tb):
    """A Brute of horde h kept its host's defensive grenades (§4: Brutes keep their wargear and the
    rules it grants)."""
    for s in range(st.sh.shape[1]):
        if st.sh[g, s] != h or st.skind[g, s] != SK_BRUTE:
            continue
        for k in range(st.sgear.shape[2]):
            w = st.sgear[g, s, k]
            if w >= 0 and (tb.weapons[w, W_FLAGS] & WR_DEFENSIVE_GRENADE) != 0:
                return True
    return False
