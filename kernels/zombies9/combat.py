"""Combat with a zombie (A8), kills, death, and the wins a kill can bring (A12, B8).

One combat: roll a D6 and add the weapon bonus; at the kill number or more (4; a dog 5, D37)
the zombie is killed. A failed roll is either bought with bullets (+1 each, up to the kill
number) or paid with a life token (a dog takes half of one, Part C) and re-rolled; a First Aid
Kit in play is discarded instead of the token. The fight goes on until a kill or the last life
is lost (D17: bullets can always buy a failed roll). ``choose_spend`` is the player's choice
(Q4) and ``combat_core`` the chain of rolls; ``sim.rulesets.zombies9.exact`` computes the same
chain exactly.
"""

from __future__ import annotations

import numpy as np

from kernels.jit import njit
from kernels.rng import d6, stream_start
from kernels.zombies9.events import log_event
from kernels.zombies9.layout import (
    COMBAT_BULLETS,
    COMBAT_HEARTS,
    EK_DEATH,
    EK_FIGHT,
    GS_CEM_Z,
    GS_CREM,
    GS_N1,
    GS_REASON,
    GS_RESPAWN,
    GS_TOP1,
    GS_WINNER,
    MODE_ALONE,
    MODE_MIXED,
    P_ALONE_KILLS,
    P_AXE,
    P_CEM_EMPTY,
    P_CHAINSAW,
    P_CREM_EMPTY,
    P_DEATH_AT_ONCE,
    P_DEATH_DISCARD_HAND,
    P_DEATH_ROUND_UP,
    P_DOG_DAMAGE,
    P_DOG_KILL,
    P_HAND,
    P_KILL_NUMBER,
    P_KILLS_TO_WIN,
    P_MODE,
    P_MOLOTOV,
    P_SHOTGUN,
    P_START_BULLETS,
    P_START_LIFE,
    PL_AXE,
    PL_BULLETS,
    PL_CHAINSAW,
    PL_CHAINSAW_ON,
    PL_DEAD,
    PL_FIRST_AID,
    PL_HAND,
    PL_KILLS,
    PL_LIFE,
    PL_MARBLES,
    PL_MOLOTOV,
    PL_MOLOTOV_ON,
    PL_SHOTGUN,
    PL_SHOTGUN_CARD,
    POL_COMBAT,
    POL_DANGER_LIFE,
    POL_MULTI,
    PR_BULLETS,
    PR_DEATHS,
    PR_FIGHTS,
    PR_HEARTS,
    PR_KILLED,
    PR_LOST,
    REASON_CEMETERIES,
    REASON_CREMATORIUM,
    REASON_KILLS,
    SQ_BLD,
    TI_CEMETERY,
    TS_TYPE,
    TS_Z,
    Z_ADULT,
    Z_DOG,
)
from kernels.zombies9.pieces import return_to_pool, set_pawn, take_zombie, to_discard

# ---------------------------------------------------------------- the chain of rolls (pure)


@njit
def choose_spend(short, life_h, bullets, kits, dmg, rule):
    """Q4 after a roll ``short`` below the kill number: True = spend ``short`` bullets and win,
    False = lose a life (or a First Aid Kit) and roll again. Life in halves; ``dmg`` halves a
    loss costs. Rule (default): spend if the bullets suffice and (life + kits <= 2 or the
    shortfall is 1); else re-roll while a life can be lost; bullets-first and hearts-first too."""
    if bullets < short:
        return False
    if rule == COMBAT_BULLETS:
        return True
    if rule == COMBAT_HEARTS:
        return not (kits > 0 or life_h > dmg)
    return life_h / 2.0 + kits <= 2.0 or short <= 1


@njit
def combat_core(rng, g, kill_n, bonus, dmg, life_h, bullets, kits, rule):
    """One combat to the end. Returns (won, life left, bullets left, kits left, rolls)."""
    rolls = 0
    while True:
        total = d6(rng, g) + bonus
        rolls += 1
        if total >= kill_n:
            return True, life_h, bullets, kits, rolls
        short = kill_n - total
        if choose_spend(short, life_h, bullets, kits, dmg, rule):
            return True, life_h, bullets - short, kits, rolls
        if kits > 0:
            kits -= 1
        else:
            life_h -= dmg
            if life_h <= 0:
                return False, 0, bullets, kits, rolls


# ---------------------------------------------------------------- weapons (A10, A11, Q5)


@njit
def weapon_bonus(st, tb, p, q):
    """One weapon per combat, the best in play, plus the Shotgun's +1 (A10)."""
    pl = st.w_pl[p]
    best = 0.0
    if pl[PL_AXE] >= 0:
        best = tb.prm[P_AXE]
    if pl[PL_CHAINSAW_ON]:
        best = max(best, tb.prm[P_CHAINSAW])
    if pl[PL_MOLOTOV_ON] > 0 and st.w_sq[q, SQ_BLD] == pl[PL_MOLOTOV_ON] - 1:
        best = max(best, tb.prm[P_MOLOTOV])
    if pl[PL_SHOTGUN] > 0:
        best += tb.prm[P_SHOTGUN]
    return int(best)


@njit
def arm_for_fight(st, tb, p, q, ahead):
    """Q5: discard the Chainsaw (or a Molotov inside a building) for +2 this turn when
    ``ahead`` zombies are to be fought (>= POL_MULTI) or life is low (<= POL_DANGER_LIFE)."""
    pl = st.w_pl[p]
    want = ahead >= tb.pol[p, POL_MULTI] or pl[PL_LIFE] <= 2 * tb.pol[p, POL_DANGER_LIFE]
    if not want or pl[PL_CHAINSAW_ON] or pl[PL_MOLOTOV_ON] > 0:
        return
    if pl[PL_CHAINSAW] >= 0:
        to_discard(st, pl[PL_CHAINSAW])
        pl[PL_CHAINSAW] = -1
        pl[PL_CHAINSAW_ON] = 1
    elif pl[PL_MOLOTOV] >= 0 and st.w_sq[q, SQ_BLD] >= 0:
        to_discard(st, pl[PL_MOLOTOV])
        pl[PL_MOLOTOV] = -1
        pl[PL_MOLOTOV_ON] = st.w_sq[q, SQ_BLD] + 1


@njit
def _use_shotgun_charge(st, p):
    pl = st.w_pl[p]
    if pl[PL_SHOTGUN] > 0:
        pl[PL_SHOTGUN] -= 1
        if pl[PL_SHOTGUN] == 0:
            to_discard(st, pl[PL_SHOTGUN_CARD])
            pl[PL_SHOTGUN_CARD] = -1


# ---------------------------------------------------------------- a fight on the board


@njit
def fight(st, tb, rng, g, p, q, kind, ahead):
    """Player p fights one figure of ``kind`` on square q (A8). Returns True if it was killed;
    False: p died (``death`` has moved the pawn)."""
    arm_for_fight(st, tb, p, q, ahead)
    pl = st.w_pl[p]
    dog = kind == Z_DOG
    kill_n = int(tb.prm[P_DOG_KILL]) if dog else int(tb.prm[P_KILL_NUMBER])
    dmg = int(tb.prm[P_DOG_DAMAGE]) if dog else 2
    kits = 1 if pl[PL_FIRST_AID] >= 0 else 0
    bonus = weapon_bonus(st, tb, p, q)
    won, life_h, bullets, kits_left, _ = combat_core(rng, g, kill_n, bonus, dmg, pl[PL_LIFE], pl[PL_BULLETS],
                                                     kits, int(tb.pol[p, POL_COMBAT]))
    _use_shotgun_charge(st, p)
    pres = st.pres[g, p]
    pres[PR_FIGHTS] += 1
    pres[PR_HEARTS] += (pl[PL_LIFE] - life_h) / 2.0
    pres[PR_BULLETS] += pl[PL_BULLETS] - bullets
    log_event(st, g, EK_FIGHT, p, kind, won, (pl[PL_LIFE] - life_h) / 2.0, pl[PL_BULLETS] - bullets)
    pl[PL_LIFE], pl[PL_BULLETS] = life_h, bullets
    if kits_left < kits:
        to_discard(st, pl[PL_FIRST_AID])
        pl[PL_FIRST_AID] = -1
    if won:
        kill(st, tb, g, p, q, kind)
        return True
    death(st, tb, g, p)
    return False


@njit
def kill(st, tb, g, p, q, kind):
    """The figure joins p's collection; a 25th zombie or a cleared tile may win (A12, B8)."""
    take_zombie(st, tb, q, kind)
    st.w_pl[p, PL_KILLS] += 1
    st.pres[g, p, PR_KILLED] += 1
    check_kill_wins(st, tb, g, p, q)


@njit
def declare_win(st, p, reason):
    if st.w_gs[GS_WINNER] < 0:
        st.w_gs[GS_WINNER] = p
        st.w_gs[GS_REASON] = reason


@njit
def is_over(st):
    return st.w_gs[GS_WINNER] >= 0


@njit
def kills_win_on(tb):
    return tb.prm[P_MODE] != MODE_ALONE or tb.prm[P_ALONE_KILLS] != 0


@njit
def graveyard_done(st):
    """B8 (alone): the last Zombies!!! 9 tile has been played (D27: the stack is empty)."""
    return st.w_gs[GS_TOP1] >= st.w_gs[GS_N1]


@njit
def check_kill_wins(st, tb, g, p, q):
    """After p's kill on square q: 25 zombies (A12); the Crematorium tile cleared (mixed, D26);
    every Cemetery cleared once the graveyard stack is done (alone, D27)."""
    if kills_win_on(tb) and st.w_pl[p, PL_KILLS] >= tb.prm[P_KILLS_TO_WIN]:
        declare_win(st, p, REASON_KILLS)
    mode = tb.prm[P_MODE]
    crem = st.w_gs[GS_CREM]
    if mode == MODE_MIXED and tb.prm[P_CREM_EMPTY] == 0 and crem >= 0 and q // 9 == crem and st.w_tile[crem, TS_Z] == 0:
        declare_win(st, p, REASON_CREMATORIUM)
    if (mode == MODE_ALONE and tb.prm[P_CEM_EMPTY] == 0 and graveyard_done(st) and st.w_gs[GS_CEM_Z] == 0
            and is_cemetery(st, tb, q)):
        declare_win(st, p, REASON_CEMETERIES)


@njit
def is_cemetery(st, tb, q):
    return tb.tile_info[st.w_tile[q // 9, TS_TYPE], TI_CEMETERY] != 0


@njit
def lose_kills(st, tb, g, p, n):
    """p's collection loses n zombies (at most all), back to the pool."""
    n = min(n, st.w_pl[p, PL_KILLS])
    st.w_pl[p, PL_KILLS] -= n
    return_to_pool(st, Z_ADULT, n)
    st.pres[g, p, PR_LOST] += n
    return n


@njit
def death(st, tb, g, p):
    """A8.4: the pawn goes to the centre of the start tile; half the collection is lost (D8:
    rounded up), every weapon and item in play too (D9: the hand is kept). "You start your next
    turn with 3 life and 3 bullet tokens": until then the player has no life token (PL_DEAD;
    ``turn.start_turn`` gives the 3 and 3) and keeps his bullets; under the option
    ``death_tokens = "at_once"`` he has 3 and 3 at once."""
    pl = st.w_pl[p]
    k = pl[PL_KILLS]
    lost = lose_kills(st, tb, g, p, (k + 1) // 2 if tb.prm[P_DEATH_ROUND_UP] != 0 else k // 2)
    st.pres[g, p, PR_DEATHS] += 1
    for col in range(PL_AXE, PL_MARBLES + 1):
        if pl[col] >= 0:
            to_discard(st, pl[col])
            pl[col] = -1
    if pl[PL_SHOTGUN_CARD] >= 0:
        to_discard(st, pl[PL_SHOTGUN_CARD])
    pl[PL_SHOTGUN_CARD], pl[PL_SHOTGUN], pl[PL_CHAINSAW_ON], pl[PL_MOLOTOV_ON] = -1, 0, 0, 0
    if tb.prm[P_DEATH_DISCARD_HAND] != 0:
        for i in range(PL_HAND, PL_HAND + int(tb.prm[P_HAND])):
            if pl[i] >= 0:
                to_discard(st, pl[i])
                pl[i] = -1
    set_pawn(st, p, st.w_gs[GS_RESPAWN])
    if tb.prm[P_DEATH_AT_ONCE] != 0:
        pl[PL_LIFE] = 2 * int(tb.prm[P_START_LIFE])
        pl[PL_BULLETS] = int(tb.prm[P_START_BULLETS])
    else:
        pl[PL_LIFE] = 0
        pl[PL_DEAD] = 1
    log_event(st, g, EK_DEATH, p, lost, st.w_gs[GS_RESPAWN], tb.prm[P_DEATH_AT_ONCE], 0)
    return lost


@njit
def lose_life(st, tb, g, p, halves):
    """A card costs life (Bad Sense of Direction, Grenade): death if none is left."""
    st.w_pl[p, PL_LIFE] -= halves
    st.pres[g, p, PR_HEARTS] += halves / 2.0
    if st.w_pl[p, PL_LIFE] <= 0:
        death(st, tb, g, p)
        return False
    return True


# ---------------------------------------------------------------- sampling (tests, `odds`)


@njit
def outcome_index(won, life_h, bullets, kits, max_life_h, max_bullets, max_kits):
    """The number of a combat's end state (won, life, bullets, kits left) in a flat table."""
    return ((won * (max_life_h + 1) + life_h) * (max_bullets + 1) + bullets) * (max_kits + 1) + kits


@njit
def sample_combats(seed, kill_n, bonus, dmg, life_h, bullets, kits, rule, rng, out):
    """Fight ``out.shape[0]`` independent combats (combat i on stream i of ``seed``) from the same
    start; ``out[i]`` = ``outcome_index`` of its end state; ``rng`` is a one-slot scratch."""
    for i in range(out.shape[0]):
        rng[0] = stream_start(np.uint64(seed), np.uint64(i))
        won, life_left, bullets_left, kits_left, _ = combat_core(rng, 0, kill_n, bonus, dmg, life_h, bullets, kits,
                                                                 rule)
        out[i] = outcome_index(int(won), life_left, bullets_left, kits_left, life_h, bullets, kits)


@njit
def sample_fights(st, tb, seed, p, q, kind, ahead, saved_pl, saved_sq, saved_tile, saved_gs, rng, out):
    """Fight ``out.shape[0]`` independent fights of p against a figure of ``kind`` on q (fight i
    on stream i of ``seed``), each from the position saved in ``saved_*`` (copies of ``w_pl``,
    ``w_sq``, ``w_tile``, ``w_gs``), through ``fight`` as games call it; ``out[i]`` = the end
    (``sim.rulesets.zombies9.exact.FIGHT_END``); ``rng`` is a one-slot scratch."""
    for i in range(out.shape[0]):
        _restore(st.w_pl, saved_pl)
        _restore(st.w_sq, saved_sq)
        _restore(st.w_tile, saved_tile)
        for k in range(saved_gs.shape[0]):
            st.w_gs[k] = saved_gs[k]
        rng[0] = stream_start(np.uint64(seed), np.uint64(i))
        won = fight(st, tb, rng, 0, p, q, kind, ahead)
        pl = st.w_pl[p]
        row = out[i]
        row[0], row[1], row[2], row[3] = won, pl[PL_LIFE], pl[PL_BULLETS], pl[PL_FIRST_AID] >= 0
        row[4], row[5], row[6] = pl[PL_AXE] >= 0, pl[PL_CHAINSAW] >= 0, pl[PL_CHAINSAW_ON]
        row[7], row[8], row[9] = pl[PL_MOLOTOV] >= 0, pl[PL_MOLOTOV_ON] > 0, pl[PL_SHOTGUN]


@njit
def _restore(dst, src):
    for i in range(src.shape[0]):
        for j in range(src.shape[1]):
            dst[i, j] = src[i, j]
