"""Attack resolution: to hit, to wound, allocation, saves, Feel No Pain, removal.

One *attack group* is a number of identical attack dice (shots, close combat attacks, blast
markers or templates) of one weapon and one attacker profile at one target unit; its rules are
an int64 ``spec`` (kernels.w40k.columns SP_*), filled by ``shooting_spec`` / ``melee_spec`` from the
weapon table, the attacker's characteristics and the situation.

``resolve_attacks`` resolves the dice one attack at a time: the attack rolls to hit; each hit
rolls to wound against the unit's majority Toughness (core-7th-edition §6.5); each wound is
allocated to the closest living model (the lowest living slot: `sim` orders the slots closest
first, §6.6), which takes its best single save (§6.7), then Feel No Pain or Reanimation
Protocols (§6.8, §12), then loses one Wound or, against Instant Death, all of them (one with
Eternal Warrior). A model that has lost Wounds keeps taking wounds until it dies. Wounds left
when the unit is gone are lost. Because the dice are independent, resolving attack by attack
gives the same distribution as rolling every to-hit die, then every to-wound die; `sim.w40k.exact`
computes that distribution in closed form and the tests compare the two.

The pure helpers (``_roll_to_hit`` and co.) take the stream and return the final die; the
decisions (``is_wounded``, ``best_save``...) take rolled dice only, so tests feed them by hand.
"""

from __future__ import annotations

import numpy as np

from kernels.dice import d3, sum_d6
from kernels.jit import njit
from kernels.rng import d6
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
    OUT_CANCELLED,
    OUT_FNP,
    OUT_HITS,
    OUT_KILLED,
    OUT_ONES,
    OUT_UNSAVED,
    OUT_WOUNDS,
    RP,
    RR_FAILED,
    RR_ONES,
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
)

# ------------------------------------------------------------------ decisions on rolled dice


@njit
def clear_out(out):
    """Zero a row of outcome counters (each user's own row: shooting, fighting, a vehicle's)."""
    for k in range(out.shape[0]):
        out[k] = 0


@njit
def may_reroll(die, mode):
    """Whether a failed die may be re-rolled: mode 1 re-rolls only a 1, mode 2 any failure."""
    return mode == RR_FAILED or (mode == RR_ONES and die == 1)


@njit
def is_wounded(die, wound_on, auto_on_6):
    """A to-wound die succeeds on ``wound_on``+ (7 = cannot wound); a natural 1 always fails;
    with Rending/Gauss/Bladestorm/Sniper a 6 always wounds (core-7th-edition §6.5, §12)."""
    return die >= wound_on or (auto_on_6 != 0 and die == 6)


@njit
def best_save(ap, sv, inv, cover):
    """The best single save (core-7th-edition §6.7): armour only if AP is worse than the save
    (AP '-' = 7 never removes it); returns 7 when no save is allowed."""
    armour = sv if ap > sv else NONE
    return min(armour, inv, cover)


@njit
def is_instant_death(strength, toughness, weapon_id):
    """Instant Death: Strength at least double the Toughness, or a weapon with the rule (§6.8)."""
    return weapon_id != 0 or (strength > 0 and strength >= 2 * toughness)


@njit
def wounds_lost(instant_death, eternal_warrior, wounds_left):
    """Wounds an unsaved wound removes: all of them to Instant Death, one with Eternal Warrior."""
    if instant_death and not eternal_warrior:
        return wounds_left
    return 1


@njit
def blast_hits(models_alive, under_marker, radius, scatter):
    """Models hit by a blast marker (abstraction, docs/space.md): ``under_marker`` models of a
    tight unit lie under a marker centred on one of them; each inch of scatter beyond the
    marker's radius takes one of them out from under it."""
    return max(0, min(models_alive, under_marker) - max(0, scatter - radius))


# ------------------------------------------------------------------------ rolling helpers


@njit
def roll_to_hit(rng, g, hit_on, hit_on2, reroll, extra_reroll):
    """Final to-hit die and the number it had to reach (core-7th-edition §6.3).

    A failed die is re-rolled once: by the rule ``reroll`` when it applies, else at ``hit_on2``
    for BS 6+ (the high-BS re-roll); ``extra_reroll`` re-rolls a still-failed die once more (a
    re-roll of a re-roll, which a ruleset may grant)."""
    die = d6(rng, g)
    need = hit_on
    if die < need:
        if may_reroll(die, reroll):
            die = d6(rng, g)
        elif hit_on2 > 0:
            need = hit_on2
            die = d6(rng, g)
        if extra_reroll != 0 and die < need:
            die = d6(rng, g)
    return die, need


@njit
def roll_to_wound(rng, g, wound_on, reroll, auto_on_6, extra_reroll):
    """Final to-wound die, with one rule re-roll and the extra one."""
    die = d6(rng, g)
    if not is_wounded(die, wound_on, auto_on_6):
        if may_reroll(die, reroll):
            die = d6(rng, g)
        if extra_reroll != 0 and not is_wounded(die, wound_on, auto_on_6):
            die = d6(rng, g)
    return die


@njit
def roll_pass(rng, g, need, reroll):
    """A D6 that passes on ``need``+ (saves, Feel No Pain); ``reroll`` re-rolls a failure."""
    if need >= NONE:
        return False
    die = d6(rng, g)
    if die < need and reroll != 0:
        die = d6(rng, g)
    return die >= need


@njit
def first_alive(wounds, start):
    """The closest living model at or after slot ``start``; -1 if the unit is gone."""
    for m in range(start, wounds.shape[0]):
        if wounds[m] > 0:
            return m
    return -1


@njit
def count_alive(wounds):
    n = 0
    for m in range(wounds.shape[0]):
        n += wounds[m] > 0
    return n


# ---------------------------------------------------------------------------- hits per die


@njit
def _blast_marker_hits(rng, g, spec, alive):
    """Hits of one blast marker: scatter die and 2D6 minus BS; twin-linked (or the extra re-roll)
    re-rolls both when the scatter would take models out from under the marker
    (core-7th-edition §6.4)."""
    rerolls = int(spec[SP_TWIN_LINKED] != 0) + int(spec[SP_EXTRA_REROLL] != 0)
    while True:
        hit = d6(rng, g) <= 2
        distance = 0 if hit else max(0, sum_d6(rng, g, 2) - spec[SP_SCATTER_MINUS])
        if distance <= spec[SP_BLAST_RADIUS] or rerolls == 0:
            break  # a scatter that still covers every model is kept (the re-roll is a "may")
        rerolls -= 1
    return blast_hits(alive, spec[SP_BLAST_MODELS], spec[SP_BLAST_RADIUS], distance)


@njit
def _hits_of_die(rng, g, spec, wounds, out):
    """Hits scored by one attack die on the unit whose Wounds are ``wounds`` (its living models
    are counted only for a blast marker or a template, the modes that cover some of them)."""
    mode = spec[SP_HIT_MODE]
    models = count_alive(wounds) if mode == HM_TEMPLATE or mode == HM_BLAST else 0
    return hits_of_die(rng, g, spec, models, out)


@njit
def hits_of_die(rng, g, spec, models, out):
    """Hits scored by one attack die, by hit mode, on ``models`` living models (a blast marker or
    template covers some of them); counts natural 1s (Gets Hot, chainsaw fuel)."""
    mode = spec[SP_HIT_MODE]
    if mode == HM_AUTO:
        return 1
    if mode == HM_TEMPLATE:
        return min(models, spec[SP_TEMPLATE_MODELS])
    if mode == HM_D3_HITS:  # a template fired in Overwatch: D3 automatic hits (§7.2)
        return d3(rng, g)
    if mode == HM_BLAST:
        if spec[SP_GETS_HOT] != 0 and d6(rng, g) == 1:  # Blast Gets Hot: roll before firing
            out[OUT_ONES] += 1
            return 0
        return _blast_marker_hits(rng, g, spec, models)
    die, need = roll_to_hit(rng, g, spec[SP_HIT_ON], spec[SP_HIT_ON2], spec[SP_HIT_REROLL], spec[SP_EXTRA_REROLL])
    out[OUT_ONES] += die == 1
    if die < need or need >= NONE:
        return 0
    return 1 + spec[SP_TESLA] * (die == 6)


# ------------------------------------------------------------------------- one wound


@njit
def _save_needed(spec, stats_m, cover, ap):
    if spec[SP_NO_SAVES] != 0:
        return NONE
    inv = stats_m[INV]
    if spec[SP_MELEE] != 0:
        inv = min(inv, stats_m[INV_CC])
        cover = NONE
    elif spec[SP_IGNORES_COVER] != 0 or spec[SP_NO_COVER] != 0:
        cover = NONE
    return best_save(ap, stats_m[SV], inv, cover)


@njit
def _wound_ignored(rng, g, spec, stats_m, instant_death, save_reroll):
    """Feel No Pain (not against Instant Death) or Reanimation Protocols (5+, 6+ against ID)."""
    if spec[SP_NO_FNP] != 0:
        return False
    if stats_m[FNP] < NONE:
        return not instant_death and roll_pass(rng, g, stats_m[FNP], save_reroll)
    if stats_m[RP] < NONE:
        return roll_pass(rng, g, stats_m[RP] + instant_death, save_reroll)
    return False


@njit
def _allocate_wound(rng, g, spec, ap, m, wounds, stats, flags, status, cover, save_reroll, cancels, out):
    """Allocate one wound to model ``m``: save, Feel No Pain, a cancel, then remove Wounds."""
    if roll_pass(rng, g, _save_needed(spec, stats[m], cover, ap), save_reroll):
        return
    instant_death = is_instant_death(spec[SP_STRENGTH], stats[m, T], spec[SP_INSTANT_DEATH])
    if _wound_ignored(rng, g, spec, stats[m], instant_death, save_reroll):
        out[OUT_FNP] += 1
        return
    lost = wounds_lost(instant_death, (flags[m] & MR_EW) != 0, wounds[m])
    spend = lost >= wounds[m] or (cancels.shape[0] > 1 and cancels[1] != 0)
    if spend and cancels.shape[0] > 0 and cancels[0] > 0:
        cancels[0] -= 1  # by default spent on a wound that would remove the model
        out[OUT_CANCELLED] += 1
        return
    out[OUT_UNSAVED] += 1
    wounds[m] -= min(lost, wounds[m])
    if wounds[m] == 0:
        out[OUT_KILLED] += 1
    elif spec[SP_CONCUSSIVE] != 0:
        status[m] |= ST_CONCUSSED


@njit
def _resolve_hit(rng, g, spec, m, wounds, stats, flags, status, cover, save_reroll, cancels, out):
    """One hit: the to-wound roll (unless it wounds automatically), then allocation."""
    ap = spec[SP_AP]
    if spec[SP_AUTO_WOUND] == 0:
        die = roll_to_wound(rng, g, spec[SP_WOUND_ON], spec[SP_WOUND_REROLL], spec[SP_AUTO_WOUND_6],
                            spec[SP_EXTRA_REROLL])
        if not is_wounded(die, spec[SP_WOUND_ON], spec[SP_AUTO_WOUND_6]):
            return
        if die == 6 and spec[SP_AUTO_WOUND_6] != 0:
            ap = spec[SP_AP_ON_6]
    out[OUT_WOUNDS] += 1
    _allocate_wound(rng, g, spec, ap, m, wounds, stats, flags, status, cover, save_reroll, cancels, out)


@njit
def resolve_attacks(rng, g, n_dice, spec, wounds, stats, flags, status, cover, save_reroll, cancels, out):
    """Resolve ``n_dice`` attack dice of one group against one target unit, in place.

    Parameters
    ----------
    rng, g : uint64[n_streams], int -- the game's random stream.
    n_dice : int -- shots, attacks, blast markers or templates.
    spec : int64[N_SPEC] -- the group's rules (``shooting_spec`` / ``melee_spec``).
    wounds : int8/int16[max_models] -- the target's current Wounds, closest model first; 0 = dead.
    stats : int16[max_models, N_STATS]; flags : int64[max_models]; status : int8[max_models].
    cover : int -- the target's cover save against this attack (7 = none).
    save_reroll : int -- 1 if the target re-rolls failed saves, Feel No Pain and Reanimation rolls.
    cancels : int array, length 0 (none), 1 (tokens the target holds that each cancel an unsaved
        wound; decremented), or 2 (and 1 to spend one on any unsaved wound, not only on one that
        would remove a model).
    out : int64[N_OUT] -- counters, incremented.
    """
    m = first_alive(wounds, 0)
    counts_ones = spec[SP_GETS_HOT] != 0 or spec[SP_AUTO_WOUND] != 0
    for _ in range(n_dice):
        if m < 0 and not counts_ones:
            return  # the unit is gone: the remaining dice cannot hurt it
        hits = _hits_of_die(rng, g, spec, wounds, out)
        for _h in range(hits):
            m = first_alive(wounds, max(m, 0)) if m >= 0 else -1
            if m < 0:
                break  # excess hits are lost
            out[OUT_HITS] += 1
            out[OUT_BLIND_HITS] += spec[SP_BLIND] != 0
            _resolve_hit(rng, g, spec, m, wounds, stats, flags, status, cover, save_reroll, cancels, out)
        if m >= 0:
            m = first_alive(wounds, m)


def no_cancels() -> np.ndarray:
    """The ``cancels`` argument for a target that holds none."""
    return np.zeros(0, dtype=np.int64)
