"""The Shooting phase: survivors (zombie40k §5.4) and zombies (§6.3); Overwatch uses it too.

Each model fires one weapon, the one that is expected to do the most unsaved wounds to the
target from where it stands (range edge to edge; Rapid Fire doubled within half range; Heavy
and Salvo as Snap Shots or at half shots after moving unless Relentless or Slow and
Purposeful). One model may throw a grenade instead when that is better. Each model's shots
are one attack group (closest model of the target first). A unit locked in combat with
another squad is shot with every hit randomised among all models in that combat.
"""

from __future__ import annotations

from kernels.jit import njit
from kernels.rng import uniform
from kernels.w40k.attack_spec import shooting_spec, wound_removing_spec
from kernels.w40k.columns import (
    FNP,
    G_BLAST_SMALL_MODELS,
    HM_AUTO,
    INV,
    K_HEAVY,
    K_RAPID_FIRE,
    K_SALVO,
    MR_RELENTLESS,
    MR_SHROUDED,
    MR_SLOW_AND_PURPOSEFUL,
    MR_STEALTH,
    MR_ZOMBIE,
    N_OUT,
    NONE,
    OUT_BLIND_HITS,
    OUT_KILLED,
    OUT_ONES,
    OUT_UNSAVED,
    SP_AP,
    SP_AP_ON_6,
    SP_AUTO_WOUND_6,
    SP_EXTRA_REROLL,
    SP_GETS_HOT,
    SP_HIT_MODE,
    SP_HIT_ON,
    SP_HIT_ON2,
    SP_WOUND_ON,
    SV,
    W_BLAST,
    W_FLAGS,
    W_KIND,
    W_RANGE,
    W_SHOTS,
    W_SHOTS_FROM_A,
    W_SHOTS_STAT,
    W_TEMPLATE,
    WR_NO_DAMAGE,
    WR_PINNING,
    A,
    T,
)
from kernels.w40k.combat import first_alive, hits_of_die, resolve_attacks, roll_pass
from kernels.zombie40k.casualties import after_attack
from kernels.zombie40k.columns import (
    EK_GETS_HOT,
    EK_SHOOT,
    G_GRENADE,
    G_RANGED0,
    G_RANGED1,
    G_RANGED2,
    MP_DUCT_SHOT,
    MP_SHOTGUN,
    P_FREE_FIRE,
    P_GRUDGE_RANDOM,
    P_PVP,
    P_PVP_ZONE,
    P_RENDING_VS_ZOMBIES,
    P_SHOTGUN_HIT_ON,
    P_SHOTGUN_RANGE,
    P_SHOTGUN_SHOTS,
    PU_MEDPACKS,
    US_BLIND_HIT,
    US_BLINDED,
    US_FIRED_HEAVY,
    US_MOVED,
    US_NO_CHARGE,
    US_PIN_HIT,
    US_PINNED,
    US_SHOT_AT,
)
from kernels.zombie40k.geometry import edge_distance, ev_distance
from kernels.zombie40k.morale import blind_tests
from kernels.zombie40k.powerups import chuck_active, lend_defibrillators, settle_defibrillators
from kernels.zombie40k.state import ID_SHOTGUN, W_INTO_COMBAT, W_SHOOT, W_SPLIT
from kernels.zombie40k.terrain import terrain_cover
from kernels.zombie40k.units import (
    alive,
    any_has,
    attacked,
    cancel_event,
    close_event,
    combat_members,
    in_combat,
    is_squad,
    log_event,
    majority_stat,
    n_players,
    on_table,
    open_event,
    touch,
    unit_flags,
    version,
)

TEMPLATE_RANGE = 8.0


@njit
def is_blinded(st, g, u):
    """Blind (core §12): WS 1 and BS 1 until the end of the unit's next turn."""
    return st.ustate[g, u, US_BLINDED] != 0


@njit
def unit_gap(st, g, u, v):
    return edge_distance(st.pos[g, u, 0], st.pos[g, u, 1], st.radius[g, u], st.pos[g, v, 0], st.pos[g, v, 1],
                         st.radius[g, v])


# ------------------------------------------------------------------ who may shoot whom


@njit
def may_attack_squad(st, g, p, q, tb):
    """zombie40k §5.4: a squad may shoot another only inside the 18" zone or on a grudge."""
    if tb.prm[P_PVP] == 0 or p == q:
        return False
    near_ev = ev_distance(st.pos[g, q, 0], st.pos[g, q, 1], st.radius[g, q], tb.prm) <= tb.prm[P_PVP_ZONE]
    return near_ev or st.grudge[g, p, q] != 0


@njit
def may_shoot_unit(st, g, u, v, tb):
    """May unit u shoot unit v? Squads obey the PvP test; zombies locked with another player's
    squad only when that squad may be shot (A20); zombies shoot only squads."""
    if not on_table(st, g, v) or u == v or st.locked[g, u, v]:
        return False
    if not is_squad(u, tb):
        return is_squad(v, tb)
    if is_squad(v, tb):
        return may_attack_squad(st, g, u, v, tb)
    for q in range(n_players(tb)):
        if st.locked[g, v, q] and q != u and tb.prm[P_FREE_FIRE] == 0 and not may_attack_squad(st, g, u, q, tb):
            return False
    return True


# ------------------------------------------------------------------- weapon choice


@njit
def shots_of(row, distance, moved, relentless, attacks):
    """(dice, snap) a model fires with a weapon row at ``distance``; dice 0 = out of range."""
    reach = TEMPLATE_RANGE if row[W_TEMPLATE] != 0 else row[W_RANGE]
    kind = row[W_KIND]
    if row[W_FLAGS] & WR_NO_DAMAGE or distance > reach:
        return 0, False
    if row[W_TEMPLATE] != 0 or row[W_BLAST] != 0:
        heavy_moved = kind == K_HEAVY and moved and not relentless
        return (0 if heavy_moved else 1), False  # a blast cannot fire Snap Shots
    shots = attacks if row[W_SHOTS_FROM_A] != 0 else row[W_SHOTS]
    if kind == K_RAPID_FIRE and distance <= 0.5 * reach:
        shots *= 2
    if kind == K_SALVO:
        if moved and not relentless:
            return (shots if distance <= 0.5 * reach else 0), False
        return row[W_SHOTS_STAT], False
    return shots, kind == K_HEAVY and moved and not relentless


@njit
def _expected(st, g, u, m, v, row, dice, snap, tb, spec):
    """Expected unsaved wounds of ``dice`` shots of a weapon (to pick the best weapon)."""
    return _expected_given(st, g, u, m, v, row, dice, snap, tb, spec, unit_flags(st, g, u, m),
                           majority_stat(st, g, v, T), majority_stat(st, g, v, SV))


@njit
def _expected_given(st, g, u, m, v, row, dice, snap, tb, spec, flags, toughness, save):
    """`_expected` with the firer's rules and the target's Toughness and Save worked out."""
    if dice == 0:
        return 0.0
    target = first_alive(st.wounds[g, v], 0)
    shooting_spec(spec, row, st.stats[g, u, m], flags, toughness, save, snap, False, 0, tb.wound_chart, tb.geom)
    p_hit = 1.0 if spec[SP_HIT_MODE] != 0 else max(0.0, (7 - spec[SP_HIT_ON]) / 6.0)
    if spec[SP_HIT_MODE] != 0:
        dice *= min(alive(st, g, v), tb.geom[G_BLAST_SMALL_MODELS])
    p_wound = max(0.0, (7 - spec[SP_WOUND_ON]) / 6.0)
    save = min(NONE if spec[SP_AP] <= st.stats[g, v, target, SV] else st.stats[g, v, target, SV],
               st.stats[g, v, target, INV])
    p_unsaved = min(1.0, (save - 1) / 6.0)
    p_fnp = (st.stats[g, v, target, FNP] - 1) / 6.0
    return dice * p_hit * p_wound * p_unsaved * min(1.0, p_fnp)


@njit
def best_weapon(st, g, u, m, v, tb, spec, moved_override):
    """(weapon row, dice, snap, value) of the best ranged weapon model m can fire at v."""
    distance = unit_gap(st, g, u, v)
    moved = moved_override or st.ustate[g, u, US_MOVED] != 0
    flags = unit_flags(st, g, u, m)
    relentless = (flags & (MR_RELENTLESS | MR_SLOW_AND_PURPOSEFUL)) != 0
    toughness, save = -1, -1  # worked out at the first weapon that has a shot
    best, best_dice, best_snap, best_value = -1, 0, False, 0.0
    for slot in (G_RANGED0, G_RANGED1, G_RANGED2):
        w = st.gear[g, u, m, slot]
        if w < 0:
            continue
        dice, snap = shots_of(tb.weapons[w], distance, moved, relentless, st.stats[g, u, m, A])
        if dice > 0 and st.mpow[g, u, m] & MP_DUCT_SHOT and tb.weapons[w, W_TEMPLATE] == 0 \
                and tb.weapons[w, W_BLAST] == 0:
            dice += 1  # Duct Tape: one extra shot (A31)
        if dice > 0 and toughness < 0:
            toughness, save = majority_stat(st, g, v, T), majority_stat(st, g, v, SV)
        value = _expected_given(st, g, u, m, v, tb.weapons[w], dice, snap, tb, spec, flags, toughness, save)
        if value > best_value:
            best, best_dice, best_snap, best_value = w, dice, snap, value
    if st.mpow[g, u, m] & MP_SHOTGUN and not _is_zombie_unit(st, g, v):
        w = tb.ids[ID_SHOTGUN]  # the Shotgun power-up against a player: the appendix Shotgun (§8 result 8)
        dice, snap = shots_of(tb.weapons[w], distance, moved, relentless, st.stats[g, u, m, A])
        dice += 1 if dice > 0 and st.mpow[g, u, m] & MP_DUCT_SHOT else 0
        value = _expected(st, g, u, m, v, tb.weapons[w], dice, snap, tb, spec)
        if value > best_value:
            best, best_dice, best_snap, best_value = w, dice, snap, value
    return best, best_dice, best_snap, best_value


@njit
def _cover_of(st, g, v, tb):
    """Cover save of unit v: a ruin's 4+ (terrain) or none in the open, improved by Stealth +1,
    Shrouded +2, Gone to Ground +1 (so 6+, 5+... even in the open), 2+ at best (core §6.7, §9.4)."""
    base = terrain_cover(st, g, v, tb, NONE)
    bonus = 1 if any_has(st, g, v, MR_STEALTH) else 0
    bonus += 2 if any_has(st, g, v, MR_SHROUDED) else 0
    bonus += 1 if st.ustate[g, v, US_PINNED] != 0 else 0
    return max(2, base - bonus) if bonus > 0 else base


# ---------------------------------------------------------------------- firing


@njit
def fire_group(st, g, u, m, v, row, dice, snap, overwatch, tb, rng, spec, out):
    """Model m of unit u fires ``dice`` shots of a weapon at unit v (hits randomised if v is
    locked with another squad). Returns unsaved wounds."""
    chuck = 1 if is_squad(u, tb) and chuck_active(st, g, u) else 0
    shooting_spec(spec, row, st.stats[g, u, m], unit_flags(st, g, u, m), majority_stat(st, g, v, T),
                  majority_stat(st, g, v, SV), snap, overwatch, chuck, tb.wound_chart, tb.geom)
    if is_blinded(st, g, u):
        spec[SP_HIT_ON], spec[SP_HIT_ON2] = 6, 0  # Blind: BS 1
    for k in range(N_OUT):
        out[k] = 0
    pinning = (row[W_FLAGS] & WR_PINNING) != 0
    if _locked_with_other_squad(st, g, v, u, tb):
        _fire_into_combat(st, g, u, m, v, dice, spec, row, tb, rng, out, pinning)
    else:
        headshots(st, g, u, v, tb, spec)
        _resolve_on(st, g, u, v, dice, spec, tb, rng, out, pinning)
    if spec[SP_GETS_HOT] != 0:
        _gets_hot(st, g, u, m, out[OUT_ONES], tb, rng)
    if out[OUT_BLIND_HITS] > 0:
        st.ustate[g, v, US_BLIND_HIT] = 1
    if is_squad(v, tb) and is_squad(u, tb):
        st.grudge[g, v, u] = 1  # A19: v may now shoot u
    return out[OUT_UNSAVED]


@njit
def _resolve_on(st, g, u, v, dice, spec, tb, rng, out, pinning):
    """Resolve ``dice`` of a group on unit v; a Pinning weapon's unsaved wounds mark v for its
    Pinning test at the end of the phase (core §9.4)."""
    before, unsaved = alive(st, g, v), out[OUT_UNSAVED]
    defender_chuck = 1 if is_squad(v, tb) and chuck_active(st, g, v) else 0
    squad = 1 if v < st.pu.shape[1] else 0  # only a squad holds Medpacks
    medpacks = st.pu[g, v * squad, PU_MEDPACKS: PU_MEDPACKS + 2 * squad]
    killed = out[OUT_KILLED]
    lent = lend_defibrillators(st, g, v, tb)
    resolve_attacks(rng, g, dice, spec, st.wounds[g, v], st.stats[g, v], st.mflags[g, v], st.mstatus[g, v],
                    _cover_of(st, g, v, tb), defender_chuck, medpacks, out)
    settle_defibrillators(st, g, v, lent)
    attacked(st, g, v, out, killed)
    if pinning and out[OUT_UNSAVED] > unsaved:
        st.ustate[g, v, US_PIN_HIT] = 1
    after_attack(st, g, v, u, before, tb, rng)


@njit
def _locked_with_other_squad(st, g, v, u, tb):
    for q in range(n_players(tb)):
        if q != u and q != v and st.locked[g, v, q]:
            return True
    return v < n_players(tb) and in_combat(st, g, v)


@njit
def _combat_models(st, g, v):
    """Fill ``st.w_combat`` with v's combat (the connected set of locked units) and return its
    living models."""
    combat_members(st, g, v, st.w_combat)
    n = 0
    for w in range(st.w_combat.shape[0]):
        if st.w_combat[w]:
            n += alive(st, g, w)
    return n


@njit
def _random_hit_grudge(st, g, u, w, tb):
    """A19: a random hit of squad u's shot into a combat that lands on squad w gives w its
    grudge: w may now shoot u (with ``grudge_from_random_hits``)."""
    if tb.prm[P_GRUDGE_RANDOM] != 0 and is_squad(u, tb) and is_squad(w, tb) and w != u:
        st.grudge[g, w, u] = 1


@njit
def _random_combat_unit(st, g, rng):
    """The unit of a random living model of the combat in ``st.w_combat`` (one model per hit)."""
    total = 0
    for w in range(st.w_combat.shape[0]):
        if st.w_combat[w]:
            total += alive(st, g, w)
    if total == 0:
        return -1
    pick = int(total * uniform(rng, g))
    for w in range(st.w_combat.shape[0]):
        if st.w_combat[w]:
            pick -= alive(st, g, w)
            if pick < 0:
                return w
    return -1


@njit
def _hits_into_combat(st, g, v, dice, spec, rng, out):
    """The hits of ``dice`` shots at v's combat, rolled against the models of the whole combat
    (zombie40k §5.4)."""
    models = _combat_models(st, g, v)
    hits = 0
    for _ in range(dice):
        hits += hits_of_die(rng, g, spec, models, out)
    return hits


@njit
def _fire_into_combat(st, g, u, m, v, dice, spec, row, tb, rng, out, pinning):
    """zombie40k §5.4: shots into v's combat roll to hit as any shot (a blast marker scatters and
    covers, a template covers, the models of the whole combat); each hit goes to a random model
    of the combat and wounds with the firing model's profile (docs/space.md)."""
    hits = _hits_into_combat(st, g, v, dice, spec, rng, out)
    tspec = st.w_spec[W_INTO_COMBAT]
    for _ in range(hits):
        w = _random_combat_unit(st, g, rng)
        if w < 0:
            return
        shooting_spec(tspec, row, st.stats[g, u, m], unit_flags(st, g, u, m), majority_stat(st, g, w, T),
                      majority_stat(st, g, w, SV), False, False, spec[SP_EXTRA_REROLL], tb.wound_chart, tb.geom)
        tspec[SP_HIT_MODE] = HM_AUTO
        headshots(st, g, u, w, tb, tspec)
        _resolve_on(st, g, u, w, 1, tspec, tb, rng, out, pinning)
        _random_hit_grudge(st, g, u, w, tb)


@njit
def _gets_hot(st, g, u, m, ones, tb, rng):
    """Gets Hot: each natural 1 to hit wounds the firer; armour or invulnerable save (core §6.9)."""
    for _ in range(ones):
        if st.wounds[g, u, m] <= 0:
            return
        if roll_pass(rng, g, min(st.stats[g, u, m, SV], st.stats[g, u, m, INV]), 0):
            continue
        if roll_pass(rng, g, st.stats[g, u, m, FNP], 0):
            continue
        before = alive(st, g, u)
        st.wounds[g, u, m] -= 1
        touch(st, g, u)
        log_event(st, g, EK_GETS_HOT, u, m, 0, 0, 0)
        after_attack(st, g, u, -1, before, tb, rng)


@njit
def _fire_shotgun(st, g, u, m, v, tb, rng, spec, out):
    """The Shotgun power-up at zombies: 2+ to hit, each hit removes a Wound, no Feel No Pain
    and no cover, armour and invulnerable saves allowed (zombie40k §8 result 8, A34). Fired at
    zombies locked with another squad, each hit goes to a random model of the combat (§5.4). It
    fires in Overwatch too, at 2+ (it ignores the firer's BS, so Snap Shots do not lower it);
    Duct Tape's extra shot counts (A31)."""
    chuck = 1 if chuck_active(st, g, u) else 0
    _shotgun_spec(spec, tb, chuck)
    for k in range(N_OUT):
        out[k] = 0
    shots = int(tb.prm[P_SHOTGUN_SHOTS]) + (1 if st.mpow[g, u, m] & MP_DUCT_SHOT else 0)  # Duct Tape (A31)
    if _locked_with_other_squad(st, g, v, u, tb):
        _shotgun_into_combat(st, g, u, m, v, shots, spec, chuck, tb, rng, out)
    else:
        _resolve_on(st, g, u, v, shots, spec, tb, rng, out, False)
    return out[OUT_UNSAVED]


@njit
def _shotgun_spec(spec, tb, chuck):
    wound_removing_spec(spec, int(tb.prm[P_SHOTGUN_HIT_ON]), 0, True, chuck)
    spec[SP_AP] = NONE


@njit
def _shotgun_into_combat(st, g, u, m, v, shots, spec, chuck, tb, rng, out):
    """Each hit on a random model of the combat: a zombie loses a Wound, a survivor takes a hit
    of the appendix Shotgun (S3 AP-) from the firer (zombie40k §5.4, §8 result 8)."""
    hits = _hits_into_combat(st, g, v, shots, spec, rng, out)
    tspec = st.w_spec[W_INTO_COMBAT]
    for _ in range(hits):
        w = _random_combat_unit(st, g, rng)
        if w < 0:
            return
        if _is_zombie_unit(st, g, w):
            _shotgun_spec(tspec, tb, chuck)
        else:
            shooting_spec(tspec, tb.weapons[tb.ids[ID_SHOTGUN]], st.stats[g, u, m], unit_flags(st, g, u, m),
                          majority_stat(st, g, w, T), majority_stat(st, g, w, SV), False, False, chuck,
                          tb.wound_chart, tb.geom)
        tspec[SP_HIT_MODE] = HM_AUTO
        _resolve_on(st, g, u, w, 1, tspec, tb, rng, out, False)
        _random_hit_grudge(st, g, u, w, tb)


@njit
def headshots(st, g, u, v, tb, spec):
    """A4 ``rending_owner = "survivors"`` (the 2009 "headshots"): a survivor's attack on
    zombies has Rending, a to-wound 6 wounds whatever the Toughness, at AP2 (core §12)."""
    if tb.prm[P_RENDING_VS_ZOMBIES] != 0 and is_squad(u, tb) and _is_zombie_unit(st, g, v):
        spec[SP_AUTO_WOUND_6] = 1
        spec[SP_AP_ON_6] = min(spec[SP_AP_ON_6], 2)


@njit
def _is_zombie_unit(st, g, v):
    return (st.mflags[g, v, first_alive(st.wounds[g, v], 0)] & MR_ZOMBIE) != 0


@njit
def _uses_shotgun(st, g, u, m, v, tb):
    return (st.mpow[g, u, m] & MP_SHOTGUN) != 0 and _is_zombie_unit(st, g, v) \
        and unit_gap(st, g, u, v) <= tb.prm[P_SHOTGUN_RANGE]


@njit
def shoot(st, g, u, v, tb, rng, snap_all, overwatch, skip):
    """Every living model of unit u (but model ``skip``, -1 for none) fires at unit v; one may
    throw a grenade instead. Returns (models that fired, unsaved wounds, a Pinning weapon hit)."""
    spec, out = st.w_spec[W_SHOOT], st.w_out[W_SHOOT]
    out[:] = 0
    told = open_event(st, g, EK_SHOOT, u, v)  # told before the wipes and power-ups it causes
    thrower = -1 if overwatch or snap_all else _grenadier(st, g, u, v, tb, spec, skip)
    fired, unsaved, pinning = 0, 0, False
    chosen, at_u, at_v = -1, -1, -1  # the model whose weapon choice is kept, at the two units' versions
    w, dice, snap = -1, 0, False
    for m in range(st.wounds.shape[2]):
        if st.wounds[g, u, m] <= 0 or not on_table(st, g, v) or m == skip:
            continue
        if m == thrower:
            grenade = st.gear[g, u, m, G_GRENADE]
            unsaved += fire_group(st, g, u, m, v, tb.weapons[grenade], 1, False, False, tb, rng, spec, out)
            fired += 1
            continue
        if is_squad(u, tb) and _uses_shotgun(st, g, u, m, v, tb):  # ignores BS: Snap Shots too (docs/readings.md)
            unsaved += _fire_shotgun(st, g, u, m, v, tb, rng, spec, out)
            fired += 1
            continue
        if not (chosen >= 0 and at_u == version(st, g, u) and at_v == version(st, g, v)
                and same_shooter(st, g, u, m, chosen)):
            w, dice, snap, _ = best_weapon(st, g, u, m, v, tb, spec, False)
            chosen, at_u, at_v = m, version(st, g, u), version(st, g, v)
        if w < 0 or (overwatch and tb.weapons[w, W_BLAST] != 0):
            continue
        unsaved += fire_group(st, g, u, m, v, tb.weapons[w], dice, snap or snap_all, overwatch, tb, rng,
                              spec, out)
        pinning = pinning or (tb.weapons[w, W_FLAGS] & WR_PINNING) != 0
        fired += 1
        _mark_no_charge(st, g, u, m, tb.weapons[w])
    blind_tests(st, g, rng)
    if fired > 0:
        close_event(st, g, told, fired, unsaved, overwatch)
        st.ustate[g, u, US_SHOT_AT] = v + 1
    else:
        cancel_event(st, g, told)
    return fired, unsaved, pinning


@njit
def same_shooter(st, g, u, m, k):
    """Models m and k of unit u choose alike (``best_weapon``): the same ranged weapons, profile,
    rules and power-ups. While neither unit's models change (``units.version``), the choice of
    the one is the choice of the other: a squad of ten boltguns picks once."""
    for slot in (G_RANGED0, G_RANGED1, G_RANGED2):
        if st.gear[g, u, m, slot] != st.gear[g, u, k, slot]:
            return False
    if st.mflags[g, u, m] != st.mflags[g, u, k] or st.mpow[g, u, m] != st.mpow[g, u, k]:
        return False
    for c in range(st.stats.shape[3]):
        if st.stats[g, u, m, c] != st.stats[g, u, k, c]:
            return False
    return True


@njit
def _mark_no_charge(st, g, u, m, row):
    """Rapid Fire, Heavy and Salvo forbid a charge unless Relentless / Slow and Purposeful; a
    Heavy weapon fired forbids Battle Focus's Run (core §12)."""
    kind = row[W_KIND]
    if kind == K_HEAVY:
        st.ustate[g, u, US_FIRED_HEAVY] = 1
    if kind == K_RAPID_FIRE or kind == K_HEAVY or kind == K_SALVO:
        if not unit_flags(st, g, u, m) & (MR_RELENTLESS | MR_SLOW_AND_PURPOSEFUL):
            st.ustate[g, u, US_NO_CHARGE] = 1


@njit
def _grenadier(st, g, u, v, tb, spec, skip):
    """The model whose thrown grenade beats its own best shot (the Shotgun power-up's too) by the
    most; -1 for none."""
    best, gain = -1, 0.0
    if unit_gap(st, g, u, v) > TEMPLATE_RANGE:
        return -1
    chosen, own, thrown = -1, 0.0, 0.0  # nothing changes here: a model like the last one weighed weighs the same
    for m in range(st.wounds.shape[2]):
        w = st.gear[g, u, m, G_GRENADE]
        if st.wounds[g, u, m] <= 0 or w < 0 or m == skip:
            continue
        if not (chosen >= 0 and st.gear[g, u, m, G_GRENADE] == st.gear[g, u, chosen, G_GRENADE]
                and same_shooter(st, g, u, m, chosen)):
            own = best_weapon(st, g, u, m, v, tb, spec, False)[3]
            thrown = _expected(st, g, u, m, v, tb.weapons[w], 1, False, tb, spec)
            chosen = m
        alternative = max(own, _shotgun_expected(st, g, u, m, v, tb)) if _uses_shotgun(st, g, u, m, v, tb) else own
        if thrown - alternative > gain:
            best, gain = m, thrown - alternative
    return best


@njit
def _shotgun_expected(st, g, u, m, v, tb):
    """Expected Wounds the Shotgun power-up removes from horde v: shots x 2+ to hit x the
    armour/invulnerable save failed (no Feel No Pain, no cover; zombie40k §8 result 8, A34)."""
    shots = tb.prm[P_SHOTGUN_SHOTS] + (1 if st.mpow[g, u, m] & MP_DUCT_SHOT else 0)
    p_hit = (7.0 - tb.prm[P_SHOTGUN_HIT_ON]) / 6.0
    save = min(majority_stat(st, g, v, SV), majority_stat(st, g, v, INV))
    return shots * p_hit * min(1.0, (save - 1) / 6.0)


@njit
def max_reach(st, g, u, tb):
    """Longest range among the unit's ranged weapons (8" templates, shotgun power-up)."""
    reach = 0.0
    for m in range(st.wounds.shape[2]):
        if st.wounds[g, u, m] <= 0:
            continue
        for slot in (G_RANGED0, G_RANGED1, G_RANGED2, G_GRENADE):
            w = st.gear[g, u, m, slot]
            if w >= 0 and not tb.weapons[w, W_FLAGS] & WR_NO_DAMAGE:
                reach = max(reach, TEMPLATE_RANGE if tb.weapons[w, W_TEMPLATE] else float(tb.weapons[w, W_RANGE]))
        if st.mpow[g, u, m] & MP_SHOTGUN:
            reach = max(reach, tb.prm[P_SHOTGUN_RANGE])
    return reach


@njit
def split_fire(st, g, u, v, second, tb, rng, snap_all):
    """Split Fire (core §12): the model that does best against ``second`` shoots it before the
    rest of the unit fires at v. Returns that model (-1: nobody had a shot)."""
    spec, out = st.w_spec[W_SPLIT], st.w_out[W_SPLIT]
    out[:] = 0
    best, best_value = -1, 0.0
    for m in range(st.wounds.shape[2]):
        if st.wounds[g, u, m] > 0:
            value = best_weapon(st, g, u, m, second, tb, spec, False)[3]
            if value > best_value:
                best, best_value = m, value
    if best < 0:
        return -1
    w, dice, snap, _ = best_weapon(st, g, u, best, second, tb, spec, False)
    fire_group(st, g, u, best, second, tb.weapons[w], dice, snap or snap_all, False, tb, rng, spec, out)
    _mark_no_charge(st, g, u, best, tb.weapons[w])
    return best
