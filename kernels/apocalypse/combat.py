"""Attacks that land on the players' units: zombie attack groups (§4-§5), the spawner's blast
(§10), Gets Hot. Every one goes through the core's ``resolve_attacks`` on the unit's slots (or,
for the First Zombie's Precision Strikes, one die at a time); each model's unsaved wounds from
zombies are counted for The Plague, and the unit's for the combat's result (core §7.4).
"""

from __future__ import annotations

from kernels.apocalypse.columns import (
    G_ACTIVE,
    MI_OWNER,
    MI_VSTATUS,
    P_EXPLOSION_DICE,
    P_EXPLOSION_S,
    P_PLAGUE_FNP,
    P_TABLE,
    PH_ASSAULT,
    PH_Z_ASSAULT,
    PR_PASSENGERS_LOST,
    PR_ZKILLED,
    SIDE_PLAYERS,
    US_AURA_WS1,
    US_FEAR_WS1,
    VST_EXPLODED,
    ZK_BRUTE,
)
from kernels.apocalypse.hordes import horde_models, is_alive, remove_if_empty
from kernels.apocalypse.state import W_SPARE
from kernels.apocalypse.strike import (
    first_living,
    hits_only_on_six,
    majority_toughness,
    plague_wounds,
    precise_strikes,
    strike_horde,
)
from kernels.apocalypse.terrain import cover_at
from kernels.apocalypse.units import (
    DISEMBARK_IN,
    disc_within,
    disembark,
    majority,
    models_alive,
    models_within,
    passengers,
    settle_unit,
    unit_alive,
    unit_exists,
)
from kernels.apocalypse.vehicles import (
    FRONT,
    REAR,
    SIDE,
    assault_hit_on,
    hull_point_without_roll,
    is_transport,
    is_vehicle,
    strike_vehicle,
)
from kernels.dice import sum_d6
from kernels.jit import njit
from kernels.rng import d6
from kernels.w40k.attack_spec import melee_spec
from kernels.w40k.columns import (
    FNP,
    HM_AUTO,
    INV,
    MR_RENDING,
    NONE,
    OUT_FNP,
    OUT_KILLED,
    OUT_UNSAVED,
    SP_AP,
    SP_AP_ON_6,
    SP_HIT_MODE,
    SP_HIT_ON,
    SP_NO_COVER,
    SP_STRENGTH,
    SP_WOUND_ON,
    SV,
    W_FLAGS,
    WR_ARMOURBANE,
    WR_RENDING,
    WS,
    S,
    T,
)
from kernels.w40k.combat import best_save, clear_out, resolve_attacks, roll_pass


@njit
def target_ws(st, g, u):
    """The WS zombies roll against: the unit's majority, 1 after a failed Fear test (core §9.4) or
    the spawner aura's (A18)."""
    if st.ust[g, u, US_FEAR_WS1] != 0 or st.ust[g, u, US_AURA_WS1] != 0:
        return 1
    return majority(st, g, u, WS)


@njit
def auto_hit_spec(spec, strength, ap, target_t, wound_chart):
    """Automatic hits at ``strength`` and ``ap`` (no to-hit roll, no cover)."""
    for k in range(spec.shape[0]):
        spec[k] = 0
    spec[SP_HIT_MODE] = HM_AUTO
    spec[SP_AP] = ap
    spec[SP_AP_ON_6] = ap
    spec[SP_STRENGTH] = strength
    spec[SP_WOUND_ON] = max(2, wound_chart[min(strength, 10), target_t])
    spec[SP_NO_COVER] = 1


@njit
def blast_on_unit(rng, g, st, u, hits, strength, tb):
    """``hits`` automatic hits at ``strength``, AP -, on unit u (the spawner's large blast, §10). A
    Barrage is a shooting attack, so the unit's cover counts: Foggy gives every model Shrouded
    (5+ in the open, §6), a ruin 4+ (2+ with Foggy). A vehicle hit by it loses a Hull Point and
    rolls no damage (§10)."""
    if is_vehicle(st, g, u):
        lost = hull_point_without_roll(st, g, u) if hits > 0 and st.wounds[g, u, 0] > 0 else 0
        release_passengers(rng, g, st, u, tb)
        return lost
    spec, out = st.w_spec[W_SPARE], st.w_out[W_SPARE]
    clear_out(out)
    auto_hit_spec(spec, strength, NONE, majority(st, g, u, T), tb.wound_chart)
    spec[SP_NO_COVER] = 0
    cover = cover_at(st, g, st.upos[g, u, 0], st.upos[g, u, 1], tb, NONE)
    resolve_attacks(rng, g, hits, spec, st.wounds[g, u], st.stats[g, u], st.mflags[g, u], st.mstatus[g, u], cover,
                    0, st.w_dealt[:0], out)
    return out[OUT_UNSAVED]


@njit
def zombie_attacks(rng, g, st, u, n_dice, stats, flags, weapon, strength, dull, precise, first_round, blind, tb,
                   out):
    """``n_dice`` close combat attacks of one zombie profile (``stats``, ``flags``) at unit u with
    ``weapon`` (a weapon-table row) at ``strength`` (the Hordes bonus applied); ``blind``: its horde
    is Blind, WS 1 (core §12). Zombies! never get the charge bonus (§5). Returns the unsaved wounds
    unit u suffered, its side's count for the combat's result (core §7.4: an Instant Death wound is
    one however many Wounds it takes, a wound Feel No Pain ignores none), each also counted for The
    Plague."""
    if n_dice <= 0:
        return 0
    att = st.w_attacker
    for c in range(att.shape[0]):
        att[c] = stats[c]
    att[S] = strength
    if blind:
        att[WS] = 1
    spec = st.w_spec[W_SPARE]
    melee_spec(spec, weapon, att, flags, target_ws(st, g, u), majority(st, g, u, T), majority(st, g, u, SV),
               False, first_round, 0, tb.ws_chart, tb.wound_chart)
    if hits_only_on_six(dull, att[WS], target_ws(st, g, u)):
        spec[SP_HIT_ON] = 6
    if is_vehicle(st, g, u):  # apocalypse V7, V9: a Walker is hit as a model and struck on its front armour
        hit_on, facing = spec[SP_HIT_ON], FRONT
        if is_transport(st, g, u):  # apocalypse V7: any other vehicle is hit by its last move, on its rear
            hit_on, facing = assault_hit_on(st, g, u, tb), REAR
        lost, exploded = strike_vehicle(rng, g, st, u, n_dice, hit_on, spec[SP_STRENGTH], spec[SP_AP],
                                        (flags & MR_RENDING) != 0 or (weapon[W_FLAGS] & WR_RENDING) != 0,
                                        (weapon[W_FLAGS] & WR_ARMOURBANE) != 0, facing, tb)
        if exploded:
            vehicle_explosion(rng, g, st, u, tb)
        release_passengers(rng, g, st, u, tb)
        return lost  # apocalypse V4: each Hull Point lost counts for the combat's result
    before = out[OUT_UNSAVED]
    if precise:
        precise_strikes(rng, g, n_dice, spec, st, u, tb, out)
    else:
        _strike_unit(rng, g, st, u, n_dice, spec, tb, out)
    return out[OUT_UNSAVED] - before


@njit
def _strike_unit(rng, g, st, u, n_dice, spec, tb, out):
    """The core's ``resolve_attacks`` one die at a time (the same dice in the same order), so each
    model's unsaved wounds are counted for The Plague (§5): a close combat die scores at most one
    hit, which goes to the unit's first living model. A wound Feel No Pain ignores counts too
    (core §6.8: it was an unsaved wound; ``plague_fnp = "ignored"``: it does not)."""
    fnp = tb.prm[P_PLAGUE_FNP] != 0
    for _ in range(n_dice):
        m = first_living(st, g, u)
        before = out[OUT_UNSAVED] + (out[OUT_FNP] if fnp else 0)
        resolve_attacks(rng, g, 1, spec, st.wounds[g, u], st.stats[g, u], st.mflags[g, u], st.mstatus[g, u],
                        NONE, 0, st.w_dealt[:0], out)
        if m >= 0:
            plague_wounds(st, g, u, m, out[OUT_UNSAVED] + (out[OUT_FNP] if fnp else 0) - before)


@njit
def gets_hot(rng, g, st, u, m, n):
    """Gets Hot (core §6.9): each 1 to hit wounds the firer; armour or invulnerable save, then Feel
    No Pain."""
    for _ in range(n):
        if st.wounds[g, u, m] <= 0:
            return
        stats = st.stats[g, u, m]
        if roll_pass(rng, g, best_save(NONE, stats[SV], stats[INV], NONE), 0):
            continue
        if stats[FNP] < NONE and d6(rng, g) >= stats[FNP]:
            continue
        st.wounds[g, u, m] -= 1


@njit
def brute_changes(stats, tb):
    """A Brute's WS, BS, I and Ld replace its host's (§4): row ZK_BRUTE of the zombie table."""
    return tb.zstats[ZK_BRUTE]


@njit
def vehicle_explosion(rng, g, st, u, tb):
    """apocalypse V10 Explodes!: every model within D6" of the wrecked vehicle u takes a hit at
    Strength 4 (``P_EXPLOSION_S``), AP -, no cover: the players' units (the disc abstraction counts
    the models within, ``models_within``; another vehicle rolls armour penetration on its side, its
    own Explodes! not chained) and the hordes (their saves). Kills count for u's player."""
    reach = float(sum_d6(rng, g, int(tb.prm[P_EXPLOSION_DICE])))
    x, y, r = st.upos[g, u, 0], st.upos[g, u, 1], st.urad[g, u]
    strength = int(tb.prm[P_EXPLOSION_S])
    spec, out = st.w_spec[W_SPARE], st.w_out[W_SPARE]
    for v in range(st.ust.shape[1]):
        if v == u or not unit_alive(st, g, v):
            continue
        n = models_within(st, g, v, x, y, r, reach)
        if n == 0:
            continue
        if is_vehicle(st, g, v):
            strike_vehicle(rng, g, st, v, n, 1, strength, NONE, False, False, SIDE, tb)
            release_passengers(rng, g, st, v, tb)
        else:
            clear_out(out)
            auto_hit_spec(spec, strength, NONE, majority(st, g, v, T), tb.wound_chart)
            resolve_attacks(rng, g, n, spec, st.wounds[g, v], st.stats[g, v], st.mflags[g, v], st.mstatus[g, v],
                            NONE, 0, st.w_dealt[:0], out)
        settle_unit(st, g, v, tb, 0)
    owner = st.minfo[g, u, 0, MI_OWNER]
    for h in range(st.hst.shape[1]):
        if not is_alive(st, g, h):
            continue
        n = disc_within(horde_models(st, g, h), st.hpos[g, h, 0], st.hpos[g, h, 1], st.hrad[g, h], x, y, r, reach)
        if n == 0:
            continue
        clear_out(out)
        auto_hit_spec(spec, strength, NONE, majority_toughness(st, g, h, tb), tb.wound_chart)
        strike_horde(rng, g, n, spec, st, h, NONE, False, tb, out)
        st.pres[g, owner, PR_ZKILLED] += out[OUT_KILLED]
        remove_if_empty(st, g, h)


@njit
def release_passengers(rng, g, st, v, tb):
    """apocalypse V10, V11: transport v wrecked, its passengers get out within 3" of the wreck on the side
    facing the extraction zone (choice) and may not move further this turn; if it exploded each of them
    first takes a hit at the explosion's Strength (``P_EXPLOSION_S``), AP -, no cover. Returns the unit."""
    if not is_transport(st, g, v) or st.wounds[g, v, 0] > 0:
        return -1
    u = passengers(st, g, v)
    if u < 0:
        return -1
    if (st.minfo[g, v, 0, MI_VSTATUS] & VST_EXPLODED) != 0:
        spec, out = st.w_spec[W_SPARE], st.w_out[W_SPARE]
        clear_out(out)
        auto_hit_spec(spec, int(tb.prm[P_EXPLOSION_S]), NONE, majority(st, g, u, T), tb.wound_chart)
        before = models_alive(st, g, u)
        resolve_attacks(rng, g, before, spec, st.wounds[g, u], st.stats[g, u], st.mflags[g, u],
                        st.mstatus[g, u], NONE, 0, st.w_dealt[:0], out)
        st.pres[g, st.minfo[g, v, 0, MI_OWNER], PR_PASSENGERS_LOST] += before - models_alive(st, g, u)
        settle_unit(st, g, u, tb, 0)
        if not unit_exists(st, g, u):
            return u
    c = 0.5 * tb.prm[P_TABLE]
    phase = PH_ASSAULT if st.gst[g, G_ACTIVE] == SIDE_PLAYERS else PH_Z_ASSAULT
    disembark(st, g, u, v, c, c, DISEMBARK_IN, phase, tb)
    return u
