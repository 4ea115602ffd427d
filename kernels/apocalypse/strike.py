"""Attacks against hordes held as counts, and zombie attacks against the players' units.

**Into a horde** (``strike_horde``): the attack dice of one group (a spec of
``kernels.w40k.attack_spec``) roll to hit and to wound exactly as ``kernels.w40k.combat`` does
(the wound roll against the horde's majority Toughness, core §6.5); each wound is then allocated
to one model of the horde - a plain Zombie, a Juggernaut (a hurt one first) or a special model -
by the allocation rule (``P_ALLOC_RANDOM``: a model drawn at random, the default, since the
models' places in a horde are unknown; or plain Zombies first, then Juggernauts, then Brutes, the
First Zombie last), and saved against that model's own save: Resilience's invulnerable 6+ improved
by the horde's k (§5), the First Zombie's 5+, a Brute's armour. Unstoppable Juggernaut! gives every
model +1 T (not the Juggernauts themselves) and Feel No Pain (6+) while the ratio holds. A
Character's natural 6 to hit (a Precision Shot or Strike, core §16) goes to a Juggernaut, else to
the First Zombie (who passes it on by Look Out, Sir on a 2+).

**Into a unit**: the zombies' attacks go through the core's ``resolve_attacks`` on the unit's
slots (closest first), with Dull Witted making a Zombie or Brute hit only on a 6 when the unit's
WS is higher (§5); the Wounds each model loses to zombies are counted for The Plague.
"""

from __future__ import annotations

from kernels.apocalypse.columns import (
    HS_BLIND_HIT,
    HS_FZ,
    HS_J,
    HS_JH,
    HS_K,
    HS_Z,
    MI_ROLE,
    MI_WARLORD,
    MI_ZW,
    MI_ZW_TURN,
    P_ALLOC_RANDOM,
    P_FZ_STACK,
    P_JUGG_FNP,
    P_LOS_ON,
    P_PLAGUE_FNP,
    P_STR_CAP,
    P_T_CAP,
    R_FZ_KILLED,
    R_ZKILLED,
    ROLE_IC,
    ROLE_TROOPER,
    SK_BRUTE,
    SK_FIRST,
    ZK_JUGGERNAUT,
    ZK_ZOMBIE,
)
from kernels.apocalypse.hordes import fz_inv, horde_inv, horde_models, jugg_active, remove_special
from kernels.apocalypse.state import OUT_REROLLED, OUT_SIXES
from kernels.dice import d3, sum_d6
from kernels.jit import njit
from kernels.rng import d6, uniform
from kernels.w40k.columns import (
    FNP,
    HM_AUTO,
    HM_BLAST,
    HM_D3_HITS,
    HM_TEMPLATE,
    INV,
    INV_CC,
    MR_EW,
    NONE,
    OUT_BLIND_HITS,
    OUT_FNP,
    OUT_HITS,
    OUT_KILLED,
    OUT_ONES,
    OUT_UNSAVED,
    OUT_WOUNDS,
    SP_AP,
    SP_AP_ON_6,
    SP_AUTO_WOUND,
    SP_AUTO_WOUND_6,
    SP_BLAST_MODELS,
    SP_BLAST_RADIUS,
    SP_BLIND,
    SP_CONCUSSIVE,
    SP_EXTRA_REROLL,
    SP_GETS_HOT,
    SP_HIT_MODE,
    SP_HIT_ON,
    SP_HIT_ON2,
    SP_HIT_REROLL,
    SP_IGNORES_COVER,
    SP_INSTANT_DEATH,
    SP_MELEE,
    SP_NO_COVER,
    SP_NO_FNP,
    SP_NO_SAVES,
    SP_SCATTER_MINUS,
    SP_STRENGTH,
    SP_TEMPLATE_MODELS,
    SP_TESLA,
    SP_TWIN_LINKED,
    SP_WOUND_ON,
    SP_WOUND_REROLL,
    ST_CONCUSSED,
    SV,
    T,
    W,
)
from kernels.w40k.combat import (
    best_save,
    blast_hits,
    is_instant_death,
    is_wounded,
    may_reroll,
    roll_pass,
    roll_to_wound,
    wounds_lost,
)

CLS_ZOMBIE, CLS_JUGGERNAUT, CLS_SPECIAL = 0, 1, 2

# ------------------------------------------------------------------ to hit


@njit
def roll_hit(rng, g, need, need2, reroll, extra_reroll, out):
    """The core's to-hit procedure (kernels.w40k.combat.roll_to_hit), counting the re-rolls made
    (Shhh!, §6: a unit that re-rolled to hit makes noise). Returns (final die, number needed)."""
    die = d6(rng, g)
    goal = need
    if die < goal:
        if may_reroll(die, reroll):
            out[OUT_REROLLED] += 1
            die = d6(rng, g)
        elif need2 > 0:
            goal = need2
            out[OUT_REROLLED] += 1
            die = d6(rng, g)
        if extra_reroll != 0 and die < goal:
            out[OUT_REROLLED] += 1
            die = d6(rng, g)
    return die, goal


@njit
def _blast_marker(rng, g, spec, alive):
    """One blast marker over a unit of ``alive`` models (core §6.4; docs/space.md): scatter die and
    2D6 minus BS, re-rolled (twin-linked, the extra re-roll) while it would leave models uncovered."""
    rerolls = int(spec[SP_TWIN_LINKED] != 0) + int(spec[SP_EXTRA_REROLL] != 0)
    while True:
        hit = d6(rng, g) <= 2
        distance = 0 if hit else max(0, sum_d6(rng, g, 2) - spec[SP_SCATTER_MINUS])
        if distance <= spec[SP_BLAST_RADIUS] or rerolls == 0:
            break
        rerolls -= 1
    return blast_hits(alive, spec[SP_BLAST_MODELS], spec[SP_BLAST_RADIUS], distance)


@njit
def hits_of_die(rng, g, spec, alive, out):
    """(hits, natural die) of one attack die against a unit of ``alive`` models, by hit mode."""
    mode = spec[SP_HIT_MODE]
    if mode == HM_AUTO:
        return 1, 0
    if mode == HM_TEMPLATE:
        return min(alive, spec[SP_TEMPLATE_MODELS]), 0
    if mode == HM_D3_HITS:
        return d3(rng, g), 0
    if mode == HM_BLAST:
        if spec[SP_GETS_HOT] != 0 and d6(rng, g) == 1:
            out[OUT_ONES] += 1
            return 0, 0
        return _blast_marker(rng, g, spec, alive), 0
    die, need = roll_hit(rng, g, spec[SP_HIT_ON], spec[SP_HIT_ON2], spec[SP_HIT_REROLL], spec[SP_EXTRA_REROLL], out)
    out[OUT_ONES] += die == 1
    if die < need or need >= NONE:
        return 0, die
    out[OUT_SIXES] += die == 6
    return 1 + spec[SP_TESLA] * (die == 6), die


# ------------------------------------------------------------------ a horde's models


@njit
def _nth_special(st, g, h, n, kind):
    """The n-th special model of horde h (of ``kind``; 0 = any), -1 if none."""
    for s in range(st.sh.shape[1]):
        if st.sh[g, s] == h and (kind == 0 or st.skind[g, s] == kind):
            if n == 0:
                return s
            n -= 1
    return -1


@njit
def _specials(st, g, h):
    n = 0
    for s in range(st.sh.shape[1]):
        n += st.sh[g, s] == h
    return n


@njit
def pick_model(rng, g, st, h, tb):
    """(class, special slot) of the model a wound is allocated to (module docstring)."""
    z, j = st.hst[g, h, HS_Z], st.hst[g, h, HS_J]
    n_s = _specials(st, g, h)
    if tb.prm[P_ALLOC_RANDOM] != 0:
        total = z + j + n_s
        classes = int(z > 0) + int(j > 0) + int(n_s > 0)  # (numpy adds two bools as a logical or)
        pick = int(uniform(rng, g) * total) if classes > 1 else 0
        if classes == 1:
            pick = 0 if z > 0 else (z if j > 0 else z + j)
        if pick < z:
            return CLS_ZOMBIE, -1
        if pick < z + j:
            return CLS_JUGGERNAUT, -1
        return CLS_SPECIAL, _nth_special(st, g, h, min(pick - z - j, n_s - 1), 0)
    if z > 0:
        return CLS_ZOMBIE, -1
    if j > 0:
        return CLS_JUGGERNAUT, -1
    s = _nth_special(st, g, h, 0, SK_BRUTE)
    return CLS_SPECIAL, s if s >= 0 else _nth_special(st, g, h, 0, 0)


@njit
def precision_model(rng, g, st, h, tb):
    """A Precision Shot or Strike (core §16): a Juggernaut, else the First Zombie - who passes the
    wound on to another model by Look Out, Sir on a 2+ - else the normal allocation."""
    if st.hst[g, h, HS_J] > 0:
        return CLS_JUGGERNAUT, -1
    s = _nth_special(st, g, h, 0, SK_FIRST)
    if s >= 0:
        others = horde_models(st, g, h) - 1
        if others <= 0 or d6(rng, g) < tb.prm[P_LOS_ON]:
            return CLS_SPECIAL, s
    return pick_model(rng, g, st, h, tb)


@njit
def defence(st, g, h, cls, s, tb):
    """(armour, invulnerable, Toughness, Feel No Pain, Eternal Warrior, Wounds left) of a model."""
    bonus = jugg_active(st, g, h, tb)
    fnp = int(tb.prm[P_JUGG_FNP]) if bonus else NONE
    t_cap = int(tb.prm[P_T_CAP])
    if cls == CLS_ZOMBIE:
        return NONE, horde_inv(st, g, h, tb), min(t_cap, tb.zstats[ZK_ZOMBIE, T] + bonus), fnp, False, 1
    if cls == CLS_JUGGERNAUT:
        left = 1 if st.hst[g, h, HS_JH] > 0 else tb.zstats[ZK_JUGGERNAUT, W]
        return NONE, horde_inv(st, g, h, tb), tb.zstats[ZK_JUGGERNAUT, T], fnp, False, left
    stats = st.sstats[g, s]
    inv = fz_inv(st, g, h, tb) if st.skind[g, s] == SK_FIRST else min(stats[INV], horde_inv(st, g, h, tb))
    ew = (st.sflags[g, s] & MR_EW) != 0
    return stats[SV], inv, min(t_cap, stats[T] + bonus), min(fnp, stats[FNP]), ew, st.swounds[g, s]


@njit
def _remove_model(st, g, h, cls, s, out):
    out[OUT_KILLED] += 1
    st.res[g, R_ZKILLED] += 1
    if cls == CLS_ZOMBIE:
        st.hst[g, h, HS_Z] -= 1
    elif cls == CLS_JUGGERNAUT:
        st.hst[g, h, HS_J] -= 1
        if st.hst[g, h, HS_JH] > 0:
            st.hst[g, h, HS_JH] -= 1
    else:
        if st.skind[g, s] == SK_FIRST:
            st.res[g, R_FZ_KILLED] += 1
        remove_special(st, g, s)


@njit
def _damage(st, g, h, cls, s, lost, left, out):
    if lost >= left:
        _remove_model(st, g, h, cls, s, out)
    elif cls == CLS_JUGGERNAUT:
        st.hst[g, h, HS_JH] += 1
    else:
        st.swounds[g, s] -= lost


@njit
def wound_horde(rng, g, spec, ap, st, h, cls, s, cover, tb, out):
    """An allocated wound on one model of the horde: its save, Feel No Pain, then damage."""
    sv, inv, t, fnp, ew, left = defence(st, g, h, cls, s, tb)
    if spec[SP_MELEE] != 0 or spec[SP_IGNORES_COVER] != 0 or spec[SP_NO_COVER] != 0:
        cover = NONE
    need = NONE if spec[SP_NO_SAVES] != 0 else best_save(ap, sv, inv, cover)
    if roll_pass(rng, g, need, 0):
        return
    instant = is_instant_death(spec[SP_STRENGTH], t, spec[SP_INSTANT_DEATH])
    if spec[SP_NO_FNP] == 0 and fnp < NONE and not instant and roll_pass(rng, g, fnp, 0):
        out[OUT_FNP] += 1
        return
    out[OUT_UNSAVED] += 1
    _damage(st, g, h, cls, s, wounds_lost(instant, ew, left), left, out)


@njit
def _hit_horde(rng, g, spec, st, h, cover, precise, tb, out):
    """One hit: the to-wound roll (unless automatic), allocation, then the wound."""
    ap = spec[SP_AP]
    if spec[SP_AUTO_WOUND] == 0:
        die = roll_to_wound(rng, g, spec[SP_WOUND_ON], spec[SP_WOUND_REROLL], spec[SP_AUTO_WOUND_6],
                            spec[SP_EXTRA_REROLL])
        if not is_wounded(die, spec[SP_WOUND_ON], spec[SP_AUTO_WOUND_6]):
            return
        if die == 6 and spec[SP_AUTO_WOUND_6] != 0:
            ap = spec[SP_AP_ON_6]
    out[OUT_WOUNDS] += 1
    if precise:
        cls, s = precision_model(rng, g, st, h, tb)
    else:
        cls, s = pick_model(rng, g, st, h, tb)
    wound_horde(rng, g, spec, ap, st, h, cls, s, cover, tb, out)


@njit
def strike_horde(rng, g, n_dice, spec, st, h, cover, precision, tb, out):
    """Resolve ``n_dice`` attack dice of one group at horde h, in place (module docstring).

    ``cover``: the horde's cover save (7 = none); ``precision``: the attacker is a Character (its
    natural 6s to hit are Precision Shots or Strikes). ``out``: int64[N_OUT_A] counters, added to."""
    for _ in range(n_dice):
        alive = horde_models(st, g, h)
        if alive <= 0:
            return
        hits, die = hits_of_die(rng, g, spec, alive, out)
        for _h in range(hits):
            if horde_models(st, g, h) <= 0:
                break
            out[OUT_HITS] += 1
            if spec[SP_BLIND] != 0:  # core §12: a hit, wounding or not, makes the horde test at the phase's end
                out[OUT_BLIND_HITS] += 1
                st.hst[g, h, HS_BLIND_HIT] = 1
            _hit_horde(rng, g, spec, st, h, cover, precision and die == 6, tb, out)


@njit
def majority_toughness(st, g, h, tb):
    """The horde's majority Toughness (core §6.5, ties: the highest): plain Zombies, Juggernauts or
    (when they outnumber both) its special models' first."""
    bonus = jugg_active(st, g, h, tb)
    t_cap = int(tb.prm[P_T_CAP])
    z, j = st.hst[g, h, HS_Z], st.hst[g, h, HS_J]
    n_s = _specials(st, g, h)
    t_z = min(t_cap, tb.zstats[ZK_ZOMBIE, T] + bonus)
    t_j = tb.zstats[ZK_JUGGERNAUT, T]
    best_t, best_n = t_z, z
    if j > best_n or (j == best_n and t_j > best_t):
        best_t, best_n = t_j, j
    if n_s > best_n:
        s = _nth_special(st, g, h, 0, 0)
        best_t = min(t_cap, st.sstats[g, s, T] + bonus)
    return best_t


# ------------------------------------------------------------------ zombies attacking a unit


@njit
def zombie_strength(base_s, k, stack_first, is_first, tb):
    """Hordes: +k Strength in combat, at most 10 (§5, A22); the First Zombie's own +k replaces it
    unless A24's 'stack' reading is chosen."""
    bonus = k * (2 if (is_first and stack_first) else 1)
    return min(int(tb.prm[P_STR_CAP]), base_s + bonus)


@njit
def hits_only_on_six(dull_witted, attacker_ws, target_ws):
    """Dull Witted: a zombie hits a target of higher WS only on a 6 (§5)."""
    return dull_witted and target_ws > attacker_ws


@njit
def plague_wounds(st, g, u, m, n):
    """Model m of unit u suffered ``n`` unsaved wounds from zombies: The Plague counts them (§5: an
    Independent Character adds 1 for every unsaved wound that turn after the first - an Instant
    Death wound is one unsaved wound, however many Wounds it takes)."""
    if n > 0:
        st.minfo[g, u, m, MI_ZW] += n
        st.minfo[g, u, m, MI_ZW_TURN] += n


@njit
def wound_model(rng, g, spec, st, u, m, tb, out):
    """One hit on model m of unit u (the core's sequence: wound roll, save, Feel No Pain, damage)."""
    ap = spec[SP_AP]
    if spec[SP_AUTO_WOUND] == 0:
        die = roll_to_wound(rng, g, spec[SP_WOUND_ON], spec[SP_WOUND_REROLL], spec[SP_AUTO_WOUND_6],
                            spec[SP_EXTRA_REROLL])
        if not is_wounded(die, spec[SP_WOUND_ON], spec[SP_AUTO_WOUND_6]):
            return
        if die == 6 and spec[SP_AUTO_WOUND_6] != 0:
            ap = spec[SP_AP_ON_6]
    out[OUT_WOUNDS] += 1
    stats = st.stats[g, u, m]
    inv = min(stats[INV], stats[INV_CC]) if spec[SP_MELEE] != 0 else stats[INV]
    need = NONE if spec[SP_NO_SAVES] != 0 else best_save(ap, stats[SV], inv, NONE)
    if roll_pass(rng, g, need, 0):
        return
    instant = is_instant_death(spec[SP_STRENGTH], stats[T], spec[SP_INSTANT_DEATH])
    if spec[SP_NO_FNP] == 0 and stats[FNP] < NONE and not instant and roll_pass(rng, g, stats[FNP], 0):
        out[OUT_FNP] += 1
        if tb.prm[P_PLAGUE_FNP] != 0:  # core §6.8: an unsaved wound, then ignored (The Plague, §5)
            plague_wounds(st, g, u, m, 1)
        return
    out[OUT_UNSAVED] += 1
    plague_wounds(st, g, u, m, 1)
    left = st.wounds[g, u, m]
    lost = wounds_lost(instant, (st.mflags[g, u, m] & MR_EW) != 0, left)
    st.wounds[g, u, m] = left - min(lost, left)
    if st.wounds[g, u, m] == 0:
        out[OUT_KILLED] += 1
    elif spec[SP_CONCUSSIVE] != 0:
        st.mstatus[g, u, m] |= ST_CONCUSSED


@njit
def first_living(st, g, u):
    for m in range(st.wounds.shape[2]):
        if st.wounds[g, u, m] > 0:
            return m
    return -1


@njit
def character_target(st, g, u):
    """The Character a Precision Strike picks: the unit's Warlord, else an IC, else a sergeant."""
    best, rank = -1, 0
    for m in range(st.wounds.shape[2]):
        if st.wounds[g, u, m] <= 0 or st.minfo[g, u, m, MI_ROLE] == ROLE_TROOPER:
            continue
        r = 3 if st.minfo[g, u, m, MI_WARLORD] != 0 else (2 if st.minfo[g, u, m, MI_ROLE] == ROLE_IC else 1)
        if r > rank:
            best, rank = m, r
    return best


@njit
def precise_strikes(rng, g, n_dice, spec, st, u, tb, out):
    """A Character's attacks at a unit, one die at a time, its natural 6s to hit allocated to the
    unit's Warlord or Character, who passes them on by Look Out, Sir on a 2+ (core §16)."""
    for _ in range(n_dice):
        m = first_living(st, g, u)
        if m < 0:
            return
        die, need = roll_hit(rng, g, spec[SP_HIT_ON], spec[SP_HIT_ON2], spec[SP_HIT_REROLL], spec[SP_EXTRA_REROLL],
                             out)
        if die < need or need >= NONE:
            continue
        out[OUT_HITS] += 1
        if die == 6:
            c = character_target(st, g, u)
            if c >= 0 and c != m and d6(rng, g) < tb.prm[P_LOS_ON]:
                m = c
        wound_model(rng, g, spec, st, u, m, tb, out)


@njit
def fz_bonus_stacks(tb):
    return tb.prm[P_FZ_STACK] != 0


@njit
def horde_k(st, g, h):
    return st.hst[g, h, HS_K]


@njit
def has_first_zombie(st, g, h):
    return st.hst[g, h, HS_FZ] > 0
