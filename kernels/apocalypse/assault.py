"""The Fight sub-phase (core §7.3-§7.5, §16; zombie-apocalypse §5-§7): combats, Initiative steps,
combat resolution, sweeping advances, The Plague, consolidation.

A combat is a connected set of player units and hordes locked together. Friendly units within 2"
of one of its units fight in it too (Supporting the Team (a), §6): they strike, and their wounds
count for the combat's result, but zombies strike only the units they are locked with. Engaged
zombies: around each locked unit a ring of ``ring_places`` bases (base contact and the rank within
2" behind it) - a horde's special models and Juggernauts take their places first, then its plain
Zombies; the rest of a big horde waits its turn. Every player model of a combat strikes.
"""

from __future__ import annotations

from kernels.apocalypse.blind import horde_has_defensive_grenades
from kernels.apocalypse.columns import (
    EK_BRUTE,
    EK_FIGHT,
    HS_B,
    HS_CHARGED,
    HS_FZ,
    HS_J,
    HS_K,
    HS_LOCKED,
    HS_Z,
    MI_COST,
    MI_OWNER,
    MI_ROLE,
    MI_WARLORD,
    MI_ZW,
    MI_ZW_TURN,
    P_BRUTE_DW,
    P_CONSOLIDATE_DICE,
    P_ENGAGED_DEPTH,
    P_FZ_STACK,
    P_LF_COST,
    P_LF_MULT,
    P_PLAGUE_IC_ON,
    P_PLAGUE_ON,
    P_PRECISION,
    P_SUPPORT_JOIN,
    P_W_CAP,
    P_Z_SPACING,
    PR_BRUTES,
    PR_WL_FATE,
    PR_ZKILLED,
    R_BRUTES,
    R_SP0,
    ROLE_IC,
    ROLE_TROOPER,
    SK_BRUTE,
    SK_FIRST,
    SRC_BRUTE,
    ST_CONC_AGED,
    ST_FORCE,
    TRAIT_LEGENDARY,
    US_CHARGED,
    US_DIFFICULT_CHARGE,
    US_FALLING_BACK,
    US_FEAR_WS1,
    US_FOUGHT,
    US_SUPPORTED,
    US_WAS_CHARGED,
    WL_BRUTE,
    ZK_BRUTE,
    ZK_JUGGERNAUT,
    ZK_ZOMBIE,
)
from kernels.apocalypse.combat import zombie_attacks
from kernels.apocalypse.geometry import ring_places
from kernels.apocalypse.hordes import (
    add_special,
    horde_blind,
    horde_initiative,
    horde_models,
    is_alive,
    new_horde,
    remove_if_empty,
    settle_bonus,
)
from kernels.apocalypse.movement import fall_back, place_unit, plan_move, unit_goal
from kernels.apocalypse.state import OUT_SIXES, W_AUTO, W_FIGHT
from kernels.apocalypse.strike import majority_toughness, strike_horde, zombie_strength
from kernels.apocalypse.trace import log_event
from kernels.apocalypse.units import (
    is_fearless,
    is_stubborn,
    knows_no_fear,
    locate_warlords,
    majority,
    models_alive,
    offence_rerolls,
    refresh_traits,
    settle_unit,
    trait_of,
    unit_alive,
    unit_gap_horde,
    unit_gap_unit,
    unit_leadership,
    warlords_alive,
)
from kernels.dice import d3, sum_d6
from kernels.jit import njit
from kernels.rng import d6
from kernels.w40k.attack_spec import attack_strength, hammer_of_wrath_spec, melee_spec
from kernels.w40k.columns import (
    BS,
    FNP,
    HM_AUTO,
    INV_CC,
    K_MELEE,
    K_PISTOL,
    LD,
    MR_COUNTER_ATTACK,
    MR_HAMMER_OF_WRATH,
    MR_RAGE,
    NONE,
    OUT_HITS,
    OUT_KILLED,
    OUT_UNSAVED,
    RP,
    RR_FAILED,
    SP_AP,
    SP_AP_ON_6,
    SP_HIT_MODE,
    SP_INSTANT_DEATH,
    SP_MELEE,
    SP_NO_COVER,
    SP_STRENGTH,
    SP_WOUND_ON,
    SP_WOUND_REROLL,
    ST_CONCUSSED,
    W_AP,
    W_FLAGS,
    W_KIND,
    W_SMODE,
    W_SVAL,
    WR_FORCE,
    WR_SPECIALIST,
    WR_TWO_HANDED,
    WR_UNWIELDY,
    WS,
    A,
    I,
    S,
    T,
    W,
)
from kernels.w40k.combat import clear_out
from kernels.w40k.geometry import norm

INSANE_HEROISM = 2  # core §1: a Morale check of double 1 always passes

# ------------------------------------------------------------------ gathering a combat


@njit
def _locked(st, g, u):
    for h in range(st.lock.shape[2]):
        if st.lock[g, u, h] != 0:
            return True
    return False


@njit
def gather_combat(st, g, u0):
    """The units (``w_cu``) and hordes (``w_ch``) locked together with unit u0: (units, hordes)."""
    nu, nh = 1, 0
    st.w_cu[0] = u0
    st.w_mark_u[u0] = True
    i = j = 0
    while i < nu or j < nh:
        if i < nu:
            u = st.w_cu[i]
            i += 1
            for h in range(st.lock.shape[2]):
                if st.lock[g, u, h] != 0 and not st.w_mark_h[h] and is_alive(st, g, h):
                    st.w_mark_h[h] = True
                    st.w_ch[nh] = h
                    nh += 1
        else:
            h = st.w_ch[j]
            j += 1
            for u in range(st.lock.shape[1]):
                if st.lock[g, u, h] != 0 and not st.w_mark_u[u] and unit_alive(st, g, u):
                    st.w_mark_u[u] = True
                    st.w_cu[nu] = u
                    nu += 1
    return nu, nh


@njit
def add_supporters(st, g, nu, tb):
    """Supporting the Team (a): free friendly units within 2" of a unit of the combat fight in it.
    Returns the number of units with them (supporters after the ``nu`` locked units)."""
    n = nu
    for v in range(st.ust.shape[1]):
        if not unit_alive(st, g, v) or st.w_mark_u[v] or st.ust[g, v, US_SUPPORTED] != 0:
            continue
        if st.ust[g, v, US_FALLING_BACK] != 0 or _locked(st, g, v):
            continue
        for i in range(nu):
            if unit_gap_unit(st, g, v, st.w_cu[i]) <= 2.0:
                st.ust[g, v, US_SUPPORTED] = 1
                st.w_mark_u[v] = True
                st.w_cu[n] = v
                n += 1
                break
    return n


@njit
def join_supporters(st, g, nu, ns, nh):
    """Supporting the Team (a) read as joining (``supporting = "join"``): "as if they were a part of
    that assault" - the supporters are locked with every horde of the combat (struck, Fear, Morale,
    The Plague, not free to move or shoot). Returns the new count of locked units."""
    for i in range(nu, ns):
        v = st.w_cu[i]
        for j in range(nh):
            h = st.w_ch[j]
            if is_alive(st, g, h) and st.lock[g, v, h] == 0:
                st.lock[g, v, h] = 1
                st.hst[g, h, HS_LOCKED] += 1
    return ns


# ------------------------------------------------------------------ challenges (core §16)


CH_NONE, CH_REFUSED, CH_ACCEPTED = 0, 1, 2


@njit
def challenge_outcome(issuer_has_character, acceptor_has_character, acceptor_may_fight):
    """What a challenge comes to (core §16): none without a Character to issue it; refused when the
    other side has no Character that may fight one; accepted otherwise (the side accepts whenever it
    can: P11 leaves refusals to the players, who issue only when it favours them)."""
    if not issuer_has_character:
        return CH_NONE
    if not acceptor_has_character or not acceptor_may_fight:
        return CH_REFUSED
    return CH_ACCEPTED


@njit
def zombies_may_fight_challenge(st, g, nh):
    """No zombie model may fight a challenge: Brutes lose Character status (§4) and the First
    Zombie has No Guts, No Glory! (§5). So every challenge in this game is refused, and a refused
    challenge silences nobody (the First Zombie still strikes)."""
    return False


# ------------------------------------------------------------------ tests


@njit
def leadership_test(rng, g, ld):
    return sum_d6(rng, g, 2) <= ld


@njit
def fear_test(rng, g, st, u, tb):
    """Fear (core §9.4): a unit in base contact with zombies tests Ld at the start of each Fight
    sub-phase; a failure makes it WS 1 for the sub-phase. Fearless and ATSKNF pass."""
    if is_fearless(st, g, u) or knows_no_fear(st, g, u):
        return True
    return leadership_test(rng, g, unit_leadership(st, g, u, tb))


@njit
def morale_passes(d1, d2, ld, modifier, stubborn, fearless):
    """A Morale check on rolled dice (core §9.1): Ld minus the combat's difference (Stubborn ignores
    it); a double 1 always passes; Fearless always passes."""
    if fearless or (d1 == 1 and d2 == 1):
        return True
    return d1 + d2 <= ld - (0 if stubborn else modifier)


@njit
def plague_turns(die, ic, wounds_this_turn, on, ic_on):
    """The Plague (§5): a D6 of 5+ makes a Brute; an Independent Character adds 1 for every unsaved
    wound it took from zombies this turn after the first, and needs 6+."""
    if ic:
        return die + max(0, wounds_this_turn - 1) >= ic_on
    return die >= on


@njit
def sweep_caught(zombie_total, unit_total):
    """Sweeping Advance (core §7.5): the winner's D6 + I equal or higher destroys the loser."""
    return zombie_total >= unit_total


# ------------------------------------------------------------------ melee choices


@njit
def _melee_ev(weapon, user_s, t, inv):
    strength = attack_strength(weapon[W_SMODE], weapon[W_SVAL], user_s, 0)
    wound = max(0.0, min(5.0, 7.0 - max(2, 4 + t - strength))) / 6.0 if strength > 0 else 0.5
    save = min(inv, NONE) if weapon[W_AP] > 6 else inv
    fail = min(1.0, (save - 1.0) / 6.0)
    return wound * fail


@njit
def melee_choice(st, g, u, m, target_t, target_inv, tb):
    """(weapon row, attacks, Initiative step) of model m in close combat: its best melee weapon (a
    pistol counts as a close combat weapon, core §6.2), +1 Attack for two melee weapons unless the
    chosen one is Two-handed or a lone Specialist weapon, striking at I1 with an Unwieldy weapon or
    while concussed (core §7.3, §12)."""
    best, best_ev, n_melee, n_special = tb.ids[0], -1.0, 0, 0
    for k in range(st.gear.shape[3]):
        w = st.gear[g, u, m, k]
        if w < 0:
            continue
        kind = tb.weapons[w, W_KIND]
        if kind != K_MELEE and kind != K_PISTOL:
            continue
        row = w if kind == K_MELEE else tb.ids[0]
        n_melee += 1
        n_special += (tb.weapons[row, W_FLAGS] & WR_SPECIALIST) != 0
        ev = _melee_ev(tb.weapons[row], st.stats[g, u, m, S], target_t, target_inv)
        if ev > best_ev + 1e-12:
            best, best_ev = row, ev
    flags = tb.weapons[best, W_FLAGS]
    attacks = st.stats[g, u, m, A]
    lone_specialist = (flags & WR_SPECIALIST) != 0 and n_special < 2
    if n_melee >= 2 and (flags & WR_TWO_HANDED) == 0 and not lone_specialist:
        attacks += 1
    init = st.stats[g, u, m, I]
    if (flags & WR_UNWIELDY) != 0 or (st.mstatus[g, u, m] & ST_CONCUSSED) != 0:
        init = 1
    return best, attacks, max(1, min(10, init))


@njit
def _fewest_models(st, g, u, nh, locked_only):
    best, best_n = -1, 1 << 30
    for j in range(nh):
        h = st.w_ch[j]
        if not is_alive(st, g, h) or (locked_only and st.lock[g, u, h] == 0):
            continue
        n = horde_models(st, g, h)
        if n < best_n:
            best, best_n = h, n
    return best


@njit
def prepare_strikes(st, g, nu, ns, nh, tb):
    """Each unit's target horde (the one closest to being wiped out, P-default) and each model's
    weapon, attacks and Initiative step for this combat."""
    for i in range(ns):
        u = st.w_cu[i]
        h = _fewest_models(st, g, u, nh, i < nu)
        st.w_mt[u] = h
        for m in range(st.wounds.shape[2]):
            st.w_mw[u, m] = -1
            if st.wounds[g, u, m] <= 0 or h < 0:
                continue
            w, attacks, init = melee_choice(st, g, u, m, tb.zstats[ZK_ZOMBIE, T], 6, tb)
            if st.ust[g, u, US_DIFFICULT_CHARGE] != 0:
                init = 1  # core §7.1.6: charged through difficult terrain without assault grenades
            charged = st.ust[g, u, US_CHARGED] != 0
            if charged and not horde_has_defensive_grenades(st, g, h, tb):  # core §8
                attacks += 2 if (st.mflags[g, u, m] & MR_RAGE) != 0 else 1
            if st.ust[g, u, US_WAS_CHARGED] != 0 and (st.mflags[g, u, m] & MR_COUNTER_ATTACK) != 0:
                attacks += 1
            st.w_mw[u, m], st.w_ma[u, m], st.w_mi[u, m] = w, attacks, init


# ------------------------------------------------------------------ striking


@njit
def _strike_target(st, g, u, nh):
    h = st.w_mt[u]
    if h >= 0 and is_alive(st, g, h) and horde_models(st, g, h) > 0:
        return h
    for j in range(nh):
        h2 = st.w_ch[j]
        if is_alive(st, g, h2) and horde_models(st, g, h2) > 0 and (st.lock[g, u, h2] != 0 or
                                                                      st.ust[g, u, US_SUPPORTED] != 0):
            st.w_mt[u] = h2
            return h2
    return -1


@njit
def _legendary_warlord(st, g, u, m, tb):
    """The player whose Legendary Fighter Warlord model m is, -1 if it is not one."""
    if st.minfo[g, u, m, MI_WARLORD] == 0:
        return -1
    p = st.minfo[g, u, m, MI_OWNER]
    return p if trait_of(tb, p) == TRAIT_LEGENDARY else -1


@njit
def _auto_hits(rng, g, st, h, hits, spec, tb, out):
    """Automatic hits of a spec's profile (Legendary Fighter, A31): never rolled, so never 6s."""
    if hits <= 0:
        return
    auto = st.w_spec[W_AUTO]
    for c in range(auto.shape[0]):
        auto[c] = spec[c]
    auto[SP_HIT_MODE] = HM_AUTO
    strike_horde(rng, g, hits, auto, st, h, NONE, False, tb, out)


@njit
def player_strikes(rng, g, st, nu, ns, nh, step, first_round, tb):
    """Every player model of the combat whose Initiative step this is strikes its unit's horde."""
    spec, out = st.w_spec[W_FIGHT], st.w_out[W_FIGHT]
    for i in range(ns):
        u = st.w_cu[i]
        reroll_wounds = offence_rerolls(st, g, u, tb)
        for m in range(st.wounds.shape[2]):
            if st.wounds[g, u, m] <= 0 or st.w_mw[u, m] < 0 or st.w_mi[u, m] != step:
                continue
            h = _strike_target(st, g, u, nh)
            if h < 0:
                break  # this unit has no horde left to strike; the combat's other units still do
            weapon = tb.weapons[st.w_mw[u, m]]
            target_ws = 1 if horde_blind(st, g, h) else tb.zstats[ZK_ZOMBIE, WS]  # Blind: WS 1 (core §12)
            melee_spec(spec, weapon, st.stats[g, u, m], st.mflags[g, u, m], target_ws,
                       majority_toughness(st, g, h, tb), NONE, st.ust[g, u, US_CHARGED] != 0, first_round, 0,
                       tb.ws_chart, tb.wound_chart)
            if reroll_wounds:
                spec[SP_WOUND_REROLL] = RR_FAILED
            if (weapon[W_FLAGS] & WR_FORCE) != 0 and (st.mstatus[g, u, m] & ST_FORCE) != 0:
                spec[SP_INSTANT_DEATH] = 1
            clear_out(out)
            precise = tb.prm[P_PRECISION] != 0 and st.minfo[g, u, m, MI_ROLE] != ROLE_TROOPER
            strike_horde(rng, g, st.w_ma[u, m], spec, st, h, NONE, precise, tb, out)
            lf = _legendary_warlord(st, g, u, m, tb)
            if lf >= 0:
                if st.minfo[g, u, m, MI_COST] < tb.prm[P_LF_COST]:
                    _auto_hits(rng, g, st, h, st.w_ma[u, m], spec, tb, out)
                else:
                    _auto_hits(rng, g, st, h, out[OUT_HITS] * (int(tb.prm[P_LF_MULT]) - 1), spec, tb, out)
            _tally_player_blows(st, g, u, m, out)


@njit
def _tally_player_blows(st, g, u, m, out):
    st.w_dealt[0] += out[OUT_UNSAVED]
    st.pres[g, st.minfo[g, u, m, MI_OWNER], PR_ZKILLED] += out[OUT_KILLED]
    for p in range(st.wl_unit.shape[1]):
        if st.wl_unit[g, p] == u:
            st.w_sixes[p] += out[OUT_SIXES]



@njit
def legendary_unit_hits(rng, g, st, ns, nh, tb):
    """Legendary Fighter (§7 trait 4, A31): every 3 natural 6s to hit by the Warlord's unit give one
    automatic hit at the majority Strength of the unit's other models (the Warlord's if alone), AP -."""
    out = st.w_out[W_AUTO]
    for p in range(st.wl_unit.shape[1]):
        u = st.wl_unit[g, p]
        if u < 0 or trait_of(tb, p) != TRAIT_LEGENDARY or st.w_sixes[p] < 3:
            continue
        extra = st.w_sixes[p] // 3
        st.w_sixes[p] -= 3 * extra
        h = _strike_target(st, g, u, nh)
        if h < 0:
            continue
        strength = _majority_s_without(st, g, u, st.wl_slot[g, p])
        spec = st.w_spec[W_AUTO]
        auto_melee_spec(spec, strength, NONE, majority_toughness(st, g, h, tb), tb.wound_chart)
        clear_out(out)
        strike_horde(rng, g, extra, spec, st, h, NONE, False, tb, out)
        st.w_dealt[0] += out[OUT_UNSAVED]
        st.pres[g, p, PR_ZKILLED] += out[OUT_KILLED]


@njit
def _majority_s_without(st, g, u, skip):
    best_v, best_c = st.stats[g, u, skip, S], 0
    n = st.wounds.shape[2]
    for m in range(n):
        if m == skip or st.wounds[g, u, m] <= 0:
            continue
        v = st.stats[g, u, m, S]
        c = 0
        for q in range(n):
            c += q != skip and st.wounds[g, u, q] > 0 and st.stats[g, u, q, S] == v
        if c > best_c or (c == best_c and v > best_v):
            best_v, best_c = v, c
    return best_v


@njit
def auto_melee_spec(spec, strength, ap, target_t, wound_chart):
    """Automatic close combat hits at ``strength`` and ``ap`` (no special rules)."""
    for k in range(spec.shape[0]):
        spec[k] = 0
    spec[SP_HIT_MODE] = HM_AUTO
    spec[SP_AP] = ap
    spec[SP_AP_ON_6] = ap
    spec[SP_STRENGTH] = strength
    spec[SP_WOUND_ON] = max(2, wound_chart[min(max(strength, 1), 10), target_t])
    spec[SP_MELEE] = 1
    spec[SP_NO_COVER] = 1


@njit
def hammer_of_wrath(rng, g, st, ns, nh, tb):
    """Hammer of Wrath (core §12): a model that charged makes one automatic hit at I10, its
    unmodified S, AP -."""
    spec, out = st.w_spec[W_AUTO], st.w_out[W_AUTO]
    for i in range(ns):
        u = st.w_cu[i]
        if st.ust[g, u, US_CHARGED] == 0:
            continue
        for m in range(st.wounds.shape[2]):
            if st.wounds[g, u, m] <= 0 or (st.mflags[g, u, m] & MR_HAMMER_OF_WRATH) == 0:
                continue
            h = _strike_target(st, g, u, nh)
            if h < 0:
                break  # this unit has no horde left to hit; the combat's other units still do
            hammer_of_wrath_spec(spec, st.bstats[g, u, m], majority_toughness(st, g, h, tb), tb.wound_chart)
            clear_out(out)
            strike_horde(rng, g, 1, spec, st, h, NONE, False, tb, out)
            _tally_player_blows(st, g, u, m, out)


# ------------------------------------------------------------------ the zombies' blows


@njit
def engage(st, g, nu, nh, tb):
    """Engaged zombies per horde and locked unit (``w_eng[j, i]``: plain Zombies, Juggernauts,
    special models), filling the ring of places around each unit: specials first, then
    Juggernauts, then plain Zombies (module docstring)."""
    depth, spacing = tb.prm[P_ENGAGED_DEPTH], tb.prm[P_Z_SPACING]
    for i in range(nu):
        u = st.w_cu[i]
        st.w_cap[u] = ring_places(st.urad[g, u], depth, spacing) if unit_alive(st, g, u) else 0
    for j in range(nh):
        h = st.w_ch[j]
        specials = st.hst[g, h, HS_B] + st.hst[g, h, HS_FZ]
        juggs, zombies = st.hst[g, h, HS_J], st.hst[g, h, HS_Z]
        first = True
        for i in range(nu):
            u = st.w_cu[i]
            st.w_eng[j, i, 0] = st.w_eng[j, i, 1] = st.w_eng[j, i, 2] = 0
            if st.lock[g, u, h] == 0 or not is_alive(st, g, h) or st.w_cap[u] <= 0:
                continue
            if first:
                take = min(specials, st.w_cap[u])
                st.w_eng[j, i, 2] = specials  # specials strike the first unit they are locked with
                st.w_cap[u] -= take
                first = False
            take = min(juggs, st.w_cap[u])
            st.w_eng[j, i, 1] = take
            juggs -= take
            st.w_cap[u] -= take
            take = min(zombies, st.w_cap[u])
            st.w_eng[j, i, 0] = take
            zombies -= take
            st.w_cap[u] -= take


@njit
def _special_strike(st, g, s, tb):
    """(weapon row, attacks, Initiative step) of a special zombie model: its strongest close combat
    weapon, +1 Attack for two melee weapons (a pistol counts as one, core §6.2, §7.3) unless the
    chosen one is Two-handed or a lone Specialist weapon - a Brute keeps its host's wargear and the
    rules of that wargear (§4)."""
    best, best_s, n_melee, n_special = tb.ids[0], -1, 0, 0
    for k in range(st.sgear.shape[2]):
        w = st.sgear[g, s, k]
        if w < 0:
            continue
        kind = tb.weapons[w, W_KIND]
        if kind == K_PISTOL:
            n_melee += 1
            n_special += (tb.weapons[tb.ids[0], W_FLAGS] & WR_SPECIALIST) != 0
        elif kind == K_MELEE:
            n_melee += 1
            n_special += (tb.weapons[w, W_FLAGS] & WR_SPECIALIST) != 0
            sv = attack_strength(tb.weapons[w, W_SMODE], tb.weapons[w, W_SVAL], st.sstats[g, s, S], 0)
            if sv > best_s:
                best, best_s = w, sv
    flags = tb.weapons[best, W_FLAGS]
    attacks = st.sstats[g, s, A]
    lone_specialist = (flags & WR_SPECIALIST) != 0 and n_special < 2
    if n_melee >= 2 and (flags & WR_TWO_HANDED) == 0 and not lone_specialist:
        attacks += 1
    init = 1 if (flags & WR_UNWIELDY) != 0 else st.sstats[g, s, I]
    return best, attacks, max(1, min(10, init))


@njit
def zombie_strikes(rng, g, st, nu, nh, step, first_round, tb):
    """Every engaged zombie model whose Initiative step this is strikes (engagement as it stood at
    the start of the step: blows of one step are simultaneous)."""
    out = st.w_out[W_FIGHT]
    ccw = tb.weapons[tb.ids[0]]
    zs, js = tb.zstats[ZK_ZOMBIE], tb.zstats[ZK_JUGGERNAUT]
    stack = tb.prm[P_FZ_STACK] != 0
    for j in range(nh):
        h = st.w_ch[j]
        k = st.hst[g, h, HS_K]
        blind = horde_blind(st, g, h)
        for i in range(nu):
            u = st.w_cu[i]
            if not unit_alive(st, g, u) or models_alive(st, g, u) == 0:
                continue
            clear_out(out)
            if zs[I] == step and st.w_eng[j, i, 0] > 0:
                st.w_dealt[1] += zombie_attacks(rng, g, st, u, st.w_eng[j, i, 0] * zs[A], zs, tb.zflags[ZK_ZOMBIE],
                                                ccw, zombie_strength(zs[S], k, stack, False, tb), True, False,
                                                first_round, blind, tb, out)
            if js[I] == step and st.w_eng[j, i, 1] > 0:
                st.w_dealt[1] += zombie_attacks(rng, g, st, u, st.w_eng[j, i, 1] * js[A], js,
                                                tb.zflags[ZK_JUGGERNAUT], ccw, zombie_strength(js[S], k, stack, False,
                                                                                                tb),
                                                False, False, first_round, blind, tb, out)
            if st.w_eng[j, i, 2] > 0:
                _special_strikes(rng, g, st, h, u, k, step, first_round, blind, tb, out)


@njit
def _special_strikes(rng, g, st, h, u, k, step, first_round, blind, tb, out):
    stack = tb.prm[P_FZ_STACK] != 0
    for s in range(st.sh.shape[1]):
        if st.sh[g, s] != h:
            continue
        w, attacks, init = _special_strike(st, g, s, tb)
        if init != step:
            continue
        first = st.skind[g, s] == SK_FIRST
        strength = zombie_strength(st.sstats[g, s, S], k, stack, first, tb)
        dull = (not first) and tb.prm[P_BRUTE_DW] != 0
        precise = first and tb.prm[P_PRECISION] != 0
        st.w_dealt[1] += zombie_attacks(rng, g, st, u, attacks, st.sstats[g, s], st.sflags[g, s], tb.weapons[w],
                                        strength, dull, precise, first_round, blind, tb, out)


# ------------------------------------------------------------------ one combat


@njit
def _settle_step(st, g, nu, ns, nh, tb, phase):
    """End of an Initiative step: dead models go, Resilience falls with losses (§5)."""
    for j in range(nh):
        h = st.w_ch[j]
        if is_alive(st, g, h):
            settle_bonus(st, g, h, tb)
            remove_if_empty(st, g, h)
    for i in range(ns):
        settle_unit(st, g, st.w_cu[i], tb, phase)


@njit
def _first_round(st, g, nu, nh):
    """Hatred's first round: some unit of the combat charged or was charged this turn."""
    for i in range(nu):
        u = st.w_cu[i]
        if st.ust[g, u, US_CHARGED] != 0 or st.ust[g, u, US_WAS_CHARGED] != 0:
            return True
    for j in range(nh):
        if st.hst[g, st.w_ch[j], HS_CHARGED] != 0:
            return True
    return False


@njit
def fight_combat(rng, g, st, nu, nh, tb, phase):
    """One combat: Fear tests, the Initiative steps 10 to 1, the result, The Plague (A23), and
    consolidation. Returns True if a Warlord fell in it."""
    before = warlords_alive(st, g)
    st.w_dealt[0] = st.w_dealt[1] = 0
    for p in range(st.w_sixes.shape[0]):
        st.w_sixes[p] = 0
    ns = add_supporters(st, g, nu, tb)
    if tb.prm[P_SUPPORT_JOIN] != 0:
        nu = join_supporters(st, g, nu, ns, nh)
    for i in range(nu):
        u = st.w_cu[i]
        st.ust[g, u, US_FEAR_WS1] = 0 if fear_test(rng, g, st, u, tb) else 1
        st.ust[g, u, US_FOUGHT] = 1
    first_round = _first_round(st, g, nu, nh)
    prepare_strikes(st, g, nu, ns, nh, tb)
    for step in range(10, 0, -1):
        if step == 10:
            hammer_of_wrath(rng, g, st, ns, nh, tb)
        engage(st, g, nu, nh, tb)
        player_strikes(rng, g, st, nu, ns, nh, step, first_round, tb)
        zombie_strikes(rng, g, st, nu, nh, step, first_round, tb)
        legendary_unit_hits(rng, g, st, ns, nh, tb)
        _settle_step(st, g, nu, ns, nh, tb, phase)
    log_event(st, g, phase, EK_FIGHT, st.w_cu[0], nh, st.w_dealt[0], float(st.w_dealt[1]), float(nu))
    resolve_combat(rng, g, st, nu, nh, tb, phase)
    plague(rng, g, st, nu, nh, tb, phase)
    for i in range(nu):
        st.ust[g, st.w_cu[i], US_FEAR_WS1] = 0
    _after_combat(rng, g, st, nu, ns, nh, tb, phase)
    locate_warlords(st, g)
    if warlords_alive(st, g) != before:
        refresh_traits(st, g, tb)
        return True
    return False


# ------------------------------------------------------------------ the result (core §7.4-§7.5)


@njit
def _sweeping_horde(st, g, u, nh):
    """A horde locked with unit u and with no other unit: it may make a Sweeping Advance."""
    for j in range(nh):
        h = st.w_ch[j]
        if not is_alive(st, g, h) or st.lock[g, u, h] == 0:
            continue
        others = 0
        for v in range(st.lock.shape[1]):
            others += v != u and st.lock[g, v, h] != 0 and unit_alive(st, g, v)
        if others == 0:
            return h
    return -1


@njit
def resolve_combat(rng, g, st, nu, nh, tb, phase):
    """The side that caused more unsaved wounds wins; each locked player unit of a losing side takes
    a Morale check at Ld minus the difference and, failing it, is caught by a Sweeping Advance or
    falls back (zombies are Fearless and never fall back)."""
    diff = st.w_dealt[1] - st.w_dealt[0]
    if diff <= 0:
        return
    for i in range(nu):
        u = st.w_cu[i]
        if not unit_alive(st, g, u) or not _locked(st, g, u):
            continue
        d1, d2 = d6(rng, g), d6(rng, g)
        if morale_passes(d1, d2, unit_leadership(st, g, u, tb), diff, is_stubborn(st, g, u), is_fearless(st, g, u)):
            continue
        h = _sweeping_horde(st, g, u, nh)
        if h >= 0:
            zombie_total = d6(rng, g) + horde_initiative(st, g, h, tb)
            if sweep_caught(zombie_total, d6(rng, g) + majority(st, g, u, I)):
                if not knows_no_fear(st, g, u):
                    for m in range(st.wounds.shape[2]):
                        st.wounds[g, u, m] = 0  # destroyed; The Plague still rolls for them (§5)
                continue
        fall_back(rng, g, st, u, tb, phase)


# ------------------------------------------------------------------ The Plague (§5, A23)


@njit
def make_brute(st, g, u, m, h, tb, phase):
    """Model m of unit u rises as a Zombie Brute in horde h (§4): WS 2, BS 0, I 3, Ld 5, half its
    Wounds (rounded up, at most the cap), its wargear, none of its own rules, every zombie rule."""
    host = st.bstats[g, u, m]
    bz = tb.zstats[ZK_BRUTE]
    att = st.w_attacker
    for c in range(att.shape[0]):
        att[c] = host[c]
    att[WS], att[BS], att[I], att[LD] = bz[WS], bz[BS], bz[I], bz[LD]
    att[W] = min(int(tb.prm[P_W_CAP]), (host[W] + 1) // 2)
    att[FNP] = NONE
    att[RP] = NONE
    att[INV_CC] = NONE
    s = add_special(st, g, h, SK_BRUTE, att, tb.zflags[ZK_BRUTE], att[W], tb)
    if s >= 0:
        for c in range(st.sgear.shape[2]):
            st.sgear[g, s, c] = st.gear[g, u, m, c]
    owner = st.minfo[g, u, m, MI_OWNER]
    if st.minfo[g, u, m, MI_WARLORD] != 0:
        st.pres[g, owner, PR_WL_FATE] = WL_BRUTE
    st.wounds[g, u, m] = 0
    st.pres[g, owner, PR_BRUTES] += 1
    st.res[g, R_BRUTES] += 1
    st.res[g, R_SP0 + SRC_BRUTE] += 1
    log_event(st, g, phase, EK_BRUTE, u, m, h, st.hpos[g, h, 0], st.hpos[g, h, 1])


@njit
def _brute_horde(st, g, u, nh, tb):
    """The horde a new Brute joins: one of the combat locked with its unit, else any of the combat,
    else a new horde where its unit stands."""
    fallback = -1
    for j in range(nh):
        h = st.w_ch[j]
        if is_alive(st, g, h):
            if st.lock[g, u, h] != 0:
                return h
            fallback = h if fallback < 0 else fallback
    if fallback >= 0:
        return fallback
    return new_horde(st, g, st.upos[g, u, 0], st.upos[g, u, 1], 0, 0, tb)


@njit
def plague(rng, g, st, nu, nh, tb, phase):
    """At the end of the combat every model of its locked units that lost a Wound to a zombie in it
    rolls - killed or not (§5, A23); wounds are counted from all zombie attacks of the combat."""
    for i in range(nu):
        u = st.w_cu[i]
        for m in range(st.wounds.shape[2]):
            if st.minfo[g, u, m, MI_ZW] <= 0:
                continue
            st.minfo[g, u, m, MI_ZW] = 0
            ic = st.minfo[g, u, m, MI_ROLE] == ROLE_IC
            if plague_turns(d6(rng, g), ic, st.minfo[g, u, m, MI_ZW_TURN], int(tb.prm[P_PLAGUE_ON]),
                            int(tb.prm[P_PLAGUE_IC_ON])):
                make_brute(st, g, u, m, _brute_horde(st, g, u, nh, tb), tb, phase)


# ------------------------------------------------------------------ after the combat


@njit
def recount_locks(st, g):
    for h in range(st.hst.shape[1]):
        n = 0
        alive = is_alive(st, g, h)
        for u in range(st.lock.shape[1]):
            if st.lock[g, u, h] != 0 and (not alive or not unit_alive(st, g, u)):
                st.lock[g, u, h] = 0
            n += st.lock[g, u, h]
        st.hst[g, h, HS_LOCKED] = n


@njit
def _after_combat(rng, g, st, nu, ns, nh, tb, phase):
    for i in range(ns):
        settle_unit(st, g, st.w_cu[i], tb, phase)
    for j in range(nh):
        h = st.w_ch[j]
        if is_alive(st, g, h):
            settle_bonus(st, g, h, tb)
            remove_if_empty(st, g, h)
    recount_locks(st, g)
    for j in range(nh):
        h = st.w_ch[j]
        if is_alive(st, g, h) and st.hst[g, h, HS_LOCKED] == 0:
            consolidate_horde(rng, g, st, h, tb)
    for i in range(nu):
        u = st.w_cu[i]
        if unit_alive(st, g, u) and not _locked(st, g, u) and st.ust[g, u, US_FALLING_BACK] == 0:
            consolidate_unit(rng, g, st, u, tb, phase)


@njit
def _consolidate_roll(rng, g, tb):
    return sum_d3(rng, g, int(tb.prm[P_CONSOLIDATE_DICE]))


@njit
def sum_d3(rng, g, n):
    total = 0
    for _ in range(n):
        total += d3(rng, g)
    return total


@njit
def consolidate_horde(rng, g, st, h, tb):
    """A horde with no enemy left consolidates D3" towards the closest player model, stopping 1"
    short (core §7.5)."""
    from_x, from_y = st.hpos[g, h, 0], st.hpos[g, h, 1]
    best, best_d = -1, 1e18
    for u in range(st.ust.shape[1]):
        if unit_alive(st, g, u):
            d = unit_gap_horde(st, g, u, h)
            if d < best_d:
                best, best_d = u, d
    roll = float(_consolidate_roll(rng, g, tb))
    if best < 0:
        return
    travel = min(roll, max(0.0, best_d - 1.0))
    dx, dy = st.upos[g, best, 0] - from_x, st.upos[g, best, 1] - from_y
    d = norm(dx, dy)
    if d > 1e-9:
        st.hpos[g, h, 0] = from_x + dx / d * travel
        st.hpos[g, h, 1] = from_y + dy / d * travel


@njit
def consolidate_unit(rng, g, st, u, tb, phase):
    """A unit with no horde left consolidates D3" towards its goal (P3), not into a horde."""
    roll = float(_consolidate_roll(rng, g, tb))
    hold, gx, gy = unit_goal(st, g, u, tb)
    if hold:
        return
    px, py = st.upos[g, u, 0], st.upos[g, u, 1]
    x, y = plan_move(st, g, u, gx, gy, roll, -1, tb)
    place_unit(rng, g, st, u, px, py, x, y, tb, phase)


# ------------------------------------------------------------------ the Fight sub-phase


@njit
def fight_phase(rng, g, st, tb, phase):
    """Every combat on the table is fought (core §7.6). Returns True if a Warlord fell."""
    for u in range(st.ust.shape[1]):
        st.w_mark_u[u] = False
        st.ust[g, u, US_SUPPORTED] = 0
        st.ust[g, u, US_FOUGHT] = 0
    for h in range(st.hst.shape[1]):
        st.w_mark_h[h] = False
    recount_locks(st, g)
    fell = False
    for u in range(st.ust.shape[1]):
        if unit_alive(st, g, u) and not st.w_mark_u[u] and _locked(st, g, u):
            nu, nh = gather_combat(st, g, u)
            if fight_combat(rng, g, st, nu, nh, tb, phase):
                fell = True
    age_concussion(st, g)
    return fell


@njit
def age_concussion(st, g):
    """Concussive: Initiative 1 until the end of the next Assault phase (core §12)."""
    for u in range(st.ust.shape[1]):
        for m in range(st.wounds.shape[2]):
            status = st.mstatus[g, u, m]
            if status & ST_CONC_AGED:
                st.mstatus[g, u, m] = status & ~(ST_CONCUSSED | ST_CONC_AGED)
            elif status & ST_CONCUSSED:
                st.mstatus[g, u, m] = status | ST_CONC_AGED
