"""Attack specs: what one attack group needs to know, derived from the rule tables.

``shooting_spec`` and ``melee_spec`` turn a weapon row, the attacker's characteristics and
special rules, the target's characteristics and the situation (snap shots, charge, first
round of a combat, an extra re-roll a ruleset grants) into the int64 ``spec`` that
``kernels.w40k.combat.resolve_attacks`` reads. Charts (to wound: core-7th-edition §6.5; close
combat to hit: §7.3) are arguments built by ``sim.w40k.tables``.
"""

from __future__ import annotations

from kernels.jit import njit
from kernels.w40k.columns import (
    BS,
    G_BLAST_LARGE_MODELS,
    G_BLAST_LARGE_RADIUS,
    G_BLAST_SMALL_MODELS,
    G_BLAST_SMALL_RADIUS,
    G_TEMPLATE_MODELS,
    HM_AUTO,
    HM_BLAST,
    HM_D3_HITS,
    HM_ROLL,
    HM_TEMPLATE,
    MR_BLIND,
    MR_CONCUSSIVE,
    MR_FLESHBANE,
    MR_FURIOUS_CHARGE,
    MR_HATRED,
    MR_POISONED,
    MR_PREFERRED_ENEMY,
    MR_RENDING,
    MR_SHRED,
    MR_SMASH,
    NONE,
    RR_FAILED,
    RR_NONE,
    RR_ONES,
    S_FIXED,
    S_NONE,
    S_PLUS,
    S_TIMES,
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
    SP_GRAVITON,
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
    W_AP,
    W_AP_CHG,
    W_BLAST,
    W_FLAGS,
    W_POISON_ON,
    W_SCHG_MODE,
    W_SCHG_VAL,
    W_SMODE,
    W_SVAL,
    W_TEMPLATE,
    WR_BLADESTORM,
    WR_BLIND,
    WR_CONCUSSIVE,
    WR_FLESHBANE,
    WR_GAUSS,
    WR_GETS_HOT,
    WR_GRAVITON,
    WR_IGNORES_COVER,
    WR_INSTANT_DEATH,
    WR_NO_DAMAGE,
    WR_POISONED,
    WR_RENDING,
    WR_SHRED,
    WR_SNIPER,
    WR_TESLA,
    WR_TWIN_LINKED,
    WS,
    S,
)


@njit
def hit_on_ranged(bs, snap):
    """(to-hit roll, BS 6+ re-roll target) for shooting (core-7th-edition §6.3).
    Snap Shots hit on 6 whatever the BS (a BS 0 model cannot shoot at all)."""
    if bs <= 0:
        return NONE, 0
    if snap:
        return 6, 0
    if bs <= 5:
        return 7 - bs, 0
    return 2, 12 - min(bs, 10)


@njit
def attack_strength(mode, value, user_s, bonus):
    """Strength of an attack: the weapon's mode on the user's S, multipliers before
    additions (core-7th-edition §2), Furious Charge's +1 as ``bonus``, capped at 10.
    0 means "no Strength" (weapons that wound on a fixed roll)."""
    if mode == S_NONE:
        return 0
    if mode == S_FIXED:
        return value
    base = user_s
    if mode == S_TIMES:
        base = user_s * value
    elif mode == S_PLUS:
        base = user_s + value
    return min(10, base + bonus)


@njit
def _reroll_mode(failed, ones):
    if failed:
        return RR_FAILED
    return RR_ONES if ones else RR_NONE


@njit
def _fill_wound(spec, weapon, wflags, strength, target_t, target_sv, wound_chart):
    """To-wound number, re-roll and automatic-6 rules (core-7th-edition §6.5, §12)."""
    wound_on = wound_chart[strength, target_t] if strength > 0 else NONE
    reroll_failed = (wflags & WR_SHRED) != 0
    if wflags & WR_POISONED:  # Poisoned (X+): X+ unless S vs T needs less; S > T re-rolls
        wound_on = min(wound_on, weapon[W_POISON_ON])
        reroll_failed = reroll_failed or (strength > target_t)
    if wflags & WR_SNIPER:
        wound_on = 4
    if wflags & WR_FLESHBANE:
        wound_on = 2
    if wflags & WR_GRAVITON:  # wounds on the target's armour save (6+ if none)
        wound_on = target_sv if target_sv < NONE else 6
    if wflags & WR_NO_DAMAGE:
        wound_on = NONE
    spec[SP_WOUND_ON] = max(2, wound_on)
    spec[SP_WOUND_REROLL] = RR_FAILED if reroll_failed else RR_NONE
    ap_rule = WR_RENDING | WR_BLADESTORM | WR_SNIPER
    spec[SP_AUTO_WOUND_6] = (wflags & (ap_rule | WR_GAUSS)) != 0 and (wflags & WR_NO_DAMAGE) == 0
    spec[SP_AP_ON_6] = min(spec[SP_AP], 2) if wflags & ap_rule else spec[SP_AP]


@njit
def _clear(spec):
    for k in range(spec.shape[0]):
        spec[k] = 0


@njit
def _fill_common(spec, wflags, strength, extra_reroll):
    spec[SP_STRENGTH] = strength
    spec[SP_INSTANT_DEATH] = (wflags & WR_INSTANT_DEATH) != 0
    spec[SP_IGNORES_COVER] = (wflags & WR_IGNORES_COVER) != 0
    spec[SP_GETS_HOT] = (wflags & WR_GETS_HOT) != 0
    spec[SP_CONCUSSIVE] = (wflags & WR_CONCUSSIVE) != 0
    spec[SP_BLIND] = (wflags & WR_BLIND) != 0
    spec[SP_TWIN_LINKED] = (wflags & WR_TWIN_LINKED) != 0
    spec[SP_EXTRA_REROLL] = extra_reroll


@njit
def _fill_hit_mode_ranged(spec, weapon, attacker, wflags, snap, overwatch, geom):
    """Template, blast or rolled shots (core-7th-edition §6.2-§6.4, §7.2)."""
    if weapon[W_TEMPLATE] != 0:
        spec[SP_HIT_MODE] = HM_D3_HITS if overwatch else HM_TEMPLATE
        spec[SP_TEMPLATE_MODELS] = geom[G_TEMPLATE_MODELS]
        return
    if weapon[W_BLAST] != 0:
        large = weapon[W_BLAST] == 2
        spec[SP_HIT_MODE] = HM_BLAST
        spec[SP_BLAST_MODELS] = geom[G_BLAST_LARGE_MODELS] if large else geom[G_BLAST_SMALL_MODELS]
        spec[SP_BLAST_RADIUS] = geom[G_BLAST_LARGE_RADIUS] if large else geom[G_BLAST_SMALL_RADIUS]
        spec[SP_SCATTER_MINUS] = attacker[BS]
        return
    spec[SP_HIT_MODE] = HM_ROLL
    hit_on, hit_on2 = hit_on_ranged(attacker[BS], snap)
    spec[SP_HIT_ON] = hit_on
    spec[SP_HIT_ON2] = hit_on2
    spec[SP_TESLA] = 2 if (wflags & WR_TESLA) != 0 and not snap else 0


@njit
def shooting_spec(spec, weapon, attacker, aflags, target_t, target_sv, snap, overwatch, extra_reroll, wound_chart,
                  geom):
    """Fill ``spec`` for shots of ``weapon`` (a weapon-table row) fired by a model with
    characteristics ``attacker`` and rules ``aflags`` (its own and its unit's) at a unit of
    majority Toughness ``target_t`` and armour save ``target_sv``.

    Blasts cannot be fired as Snap Shots: the caller does not fire them then (§6.2)."""
    _clear(spec)
    wflags = weapon[W_FLAGS]
    strength = attack_strength(weapon[W_SMODE], weapon[W_SVAL], attacker[S], 0)
    spec[SP_AP] = weapon[W_AP]
    _fill_common(spec, wflags, strength, extra_reroll)
    _fill_hit_mode_ranged(spec, weapon, attacker, wflags, snap, overwatch, geom)
    pe = (aflags & MR_PREFERRED_ENEMY) != 0
    spec[SP_HIT_REROLL] = _reroll_mode((wflags & WR_TWIN_LINKED) != 0, pe)
    _fill_wound(spec, weapon, wflags, strength, target_t, target_sv, wound_chart)
    if pe and spec[SP_WOUND_REROLL] == RR_NONE:
        spec[SP_WOUND_REROLL] = RR_ONES


@njit
def _melee_weapon_flags(weapon, aflags):
    """Weapon rules plus the model's close-combat-only USRs (zombie40k §9)."""
    wflags = weapon[W_FLAGS]
    if aflags & MR_RENDING:
        wflags |= WR_RENDING
    if aflags & MR_SHRED:
        wflags |= WR_SHRED
    if aflags & MR_POISONED:
        wflags |= WR_POISONED
    if aflags & MR_FLESHBANE:
        wflags |= WR_FLESHBANE
    if aflags & MR_BLIND:
        wflags |= WR_BLIND
    if aflags & MR_CONCUSSIVE:
        wflags |= WR_CONCUSSIVE
    return wflags


@njit
def _melee_profile(weapon, attacker, aflags, charged):
    """(Strength, AP) of a close combat attack: weapon on the user's S, Furious Charge and the
    power lance on the charge, Smash makes it AP2 (core-7th-edition §7.3, §12)."""
    mode, value, ap = weapon[W_SMODE], weapon[W_SVAL], weapon[W_AP]
    if charged and weapon[W_SCHG_MODE] >= 0:
        mode, value = weapon[W_SCHG_MODE], weapon[W_SCHG_VAL]
    if charged and weapon[W_AP_CHG] > 0:
        ap = weapon[W_AP_CHG]
    bonus = 1 if charged and (aflags & MR_FURIOUS_CHARGE) != 0 else 0
    if aflags & MR_SMASH:
        ap = min(ap, 2)
    return attack_strength(mode, value, attacker[S], bonus), ap


@njit
def melee_spec(spec, weapon, attacker, aflags, target_ws, target_t, target_sv, charged, first_round, extra_reroll,
               ws_chart, wound_chart):
    """Fill ``spec`` for close combat attacks with ``weapon`` against a unit of majority WS
    ``target_ws`` and Toughness ``target_t``. ``charged``: the attacker charged this turn (not
    a disordered charge); ``first_round``: the first round of this combat (Hatred)."""
    _clear(spec)
    wflags = _melee_weapon_flags(weapon, aflags)
    strength, ap = _melee_profile(weapon, attacker, aflags, charged)
    spec[SP_AP] = ap
    spec[SP_MELEE] = 1
    spec[SP_NO_COVER] = 1
    _fill_common(spec, wflags, strength, extra_reroll)
    spec[SP_HIT_MODE] = HM_ROLL
    spec[SP_HIT_ON] = ws_chart[attacker[WS], target_ws]
    hatred = first_round and (aflags & MR_HATRED) != 0
    pe = (aflags & MR_PREFERRED_ENEMY) != 0
    spec[SP_HIT_REROLL] = _reroll_mode(hatred, pe)
    _fill_wound(spec, weapon, wflags, strength, target_t, target_sv, wound_chart)
    if pe and spec[SP_WOUND_REROLL] == RR_NONE:
        spec[SP_WOUND_REROLL] = RR_ONES


@njit
def hammer_of_wrath_spec(spec, attacker, target_t, wound_chart):
    """Hammer of Wrath: one automatic hit at the model's unmodified S, AP -, no special
    rules (core-7th-edition §12)."""
    _clear(spec)
    spec[SP_HIT_MODE] = HM_AUTO
    spec[SP_AP] = NONE
    spec[SP_AP_ON_6] = NONE
    spec[SP_MELEE] = 1
    spec[SP_NO_COVER] = 1
    spec[SP_STRENGTH] = attacker[S]
    spec[SP_WOUND_ON] = max(2, wound_chart[attacker[S], target_t])


@njit
def auto_hit_spec(spec, strength, ap, target_t, wound_chart):
    """Automatic hits at a fixed Strength and AP, wounding on the chart, no special rules, no
    cover (a unit's own mob, Mob Rule; core-7th-edition §12)."""
    _clear(spec)
    spec[SP_HIT_MODE] = HM_AUTO
    spec[SP_AP] = ap
    spec[SP_AP_ON_6] = ap
    spec[SP_MELEE] = 1
    spec[SP_NO_COVER] = 1
    spec[SP_STRENGTH] = strength
    spec[SP_WOUND_ON] = max(2, wound_chart[strength, target_t])


@njit
def automatic_wound_spec(spec):
    """One Wound suffered with no hit or wound roll; armour and invulnerable saves and Feel No
    Pain as usual, no cover (Mandiblasters; core-7th-edition §12)."""
    _clear(spec)
    spec[SP_HIT_MODE] = HM_AUTO
    spec[SP_AUTO_WOUND] = 1
    spec[SP_AP] = NONE
    spec[SP_AP_ON_6] = NONE
    spec[SP_MELEE] = 1
    spec[SP_NO_COVER] = 1


@njit
def wound_removing_spec(spec, hit_on, melee, allow_saves, extra_reroll):
    """Attacks that hit on ``hit_on``+ whatever the WS or BS and remove a Wound per hit, with no
    wound roll, no Feel No Pain and no cover; armour and invulnerable saves only with
    ``allow_saves`` (special weapons of a ruleset)."""
    _clear(spec)
    spec[SP_HIT_MODE] = HM_ROLL
    spec[SP_HIT_ON] = hit_on
    spec[SP_AUTO_WOUND] = 1
    spec[SP_AP] = NONE
    spec[SP_AP_ON_6] = NONE
    spec[SP_NO_FNP] = 1
    spec[SP_NO_COVER] = 1
    spec[SP_NO_SAVES] = 0 if allow_saves else 1
    spec[SP_MELEE] = melee
    spec[SP_EXTRA_REROLL] = extra_reroll
    spec[SP_GRAVITON] = 0
