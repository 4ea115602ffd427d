"""The Assault phase: charges, Overwatch, the fight, combat resolution, Morale, Sweeping Advance,
falling back and consolidation (core-7th-edition §7, §9; zombie40k §5.5, §6.4).

A combat is the connected set of units locked with each other (core §7.6). Every model of a
unit in a combat is engaged (pile-in brings them in; docs/space.md). Each unit aims all its
attacks at one enemy unit locked with it: a squad at the enemy closest to being wiped out
(it wants the power-up), a zombie unit at the squad it is locked with. Initiative steps run
from 10 to 1; models of a step strike simultaneously, so every striker of the step is
counted before any wound is resolved.
"""

from __future__ import annotations

from kernels.dice import d3
from kernels.jit import njit
from kernels.rng import d6
from kernels.w40k.attack_spec import automatic_wound_spec, hammer_of_wrath_spec, melee_spec, wound_removing_spec
from kernels.w40k.columns import (
    FNP,
    K_MELEE,
    K_PISTOL,
    MR_ATSKNF,
    MR_COUNTER_ATTACK,
    MR_CRUSADER,
    MR_ERE_WE_GO,
    MR_FLEET,
    MR_HAMMER_OF_WRATH,
    MR_HATRED,
    MR_LEADER,
    MR_MANDIBLASTERS,
    MR_MOVE_THROUGH_COVER,
    MR_RAGE,
    MR_RAMPAGE,
    MR_SLOW_AND_PURPOSEFUL,
    MR_SPACE_MARINE,
    MR_VOTLW,
    MR_ZOMBIE,
    N_OUT,
    OUT_BLIND_HITS,
    OUT_KILLED,
    OUT_ONES,
    OUT_UNSAVED,
    SP_INSTANT_DEATH,
    ST_CONCUSSED,
    SV,
    W_AP,
    W_FLAGS,
    W_KIND,
    W_SMODE,
    WR_ASSAULT_GRENADE,
    WR_DEFENSIVE_GRENADE,
    WR_FORCE,
    WR_SPECIALIST,
    WR_TWO_HANDED,
    WR_UNWIELDY,
    WS,
    A,
    I,
    T,
    W,
)
from kernels.w40k.combat import resolve_attacks
from kernels.w40k.geometry import norm
from kernels.zombie40k.casualties import after_attack, dangerous_terrain, wipe
from kernels.zombie40k.columns import (
    C_BONUS,
    C_FLAGS,
    C_GEAR0,
    C_INIT,
    C_STEP,
    C_WEAPON,
    EK_CHARGE,
    EK_CHARGE_FAIL,
    EK_CONSOLIDATE,
    EK_CONVERT,
    EK_FIGHT,
    EK_MORALE,
    EK_OVERWATCH,
    EK_SWEEP,
    G_GRENADE,
    G_MELEE0,
    G_MELEE1,
    G_RANGED0,
    G_RANGED1,
    G_RANGED2,
    MP_CHAINSAW,
    MP_DUCT_ATTACK,
    MS_CONVERTED,
    P_CHAINSAW_HIT_ON,
    P_CONSOL_N,
    P_DMW,
    P_DMW_FNP,
    P_MUSH_INIT,
    P_MUSH_MOVE,
    P_SWEEP_HIGHEST,
    PU_BANANA,
    PU_MEDPACKS,
    PU_MUSHROOM_ON,
    R_TURNS,
    US_BLIND_HIT,
    US_CHARGED,
    US_CHARGED_COVER,
    US_CONSOLIDATE,
    US_FALLING_BACK,
    US_FORCE,
    US_NO_CHARGE,
    US_OVERWATCHED,
    US_PINNED,
    US_RAN,
    US_ROUNDS,
    US_SHOT_AT,
)
from kernels.zombie40k.geometry import ev_nearest_point, move_towards
from kernels.zombie40k.morale import blind_tests, fall_back, morale_check
from kernels.zombie40k.powerups import chuck_active, lend_defibrillators, settle_defibrillators
from kernels.zombie40k.shooting import headshots, is_blinded, shoot, unit_gap
from kernels.zombie40k.spawning import roll_expr_prm
from kernels.zombie40k.state import ID_CCW, W_FIGHT, W_HAMMER
from kernels.zombie40k.terrain import crosses_terrain, has_terrain
from kernels.zombie40k.units import (
    alive,
    all_have,
    any_has,
    attacked,
    boss_unit,
    close_event,
    combat_members,
    in_combat,
    is_squad,
    lock,
    log_event,
    majority_stat,
    n_players,
    note_ev_zone,
    on_table,
    open_event,
    refresh_radius,
    retell,
    touch,
    unit_flags,
    unlock_all,
)

CHARGE_RANGE = 12.0


# ------------------------------------------------------------------------- charging


@njit
def can_overwatch(st, g, v):
    """core §7.2, §9.3: not locked, not falling back, not Slow and Purposeful, once a phase."""
    return (on_table(st, g, v) and not in_combat(st, g, v) and st.ustate[g, v, US_FALLING_BACK] == 0
            and st.ustate[g, v, US_OVERWATCHED] == 0 and not any_has(st, g, v, MR_SLOW_AND_PURPOSEFUL))


@njit
def overwatch(st, g, v, u, tb, rng):
    """Unit v fires Overwatch at charging unit u (Snap Shots; templates D3 hits)."""
    if not can_overwatch(st, g, v):
        return
    st.ustate[g, v, US_OVERWATCHED] = 1
    fired, unsaved, _ = shoot(st, g, v, u, tb, rng, True, True, -1)
    log_event(st, g, EK_OVERWATCH, v, u, fired, unsaved, 0)


@njit
def charge_roll(st, g, u, distance, tb, rng):
    """2D6 charge range (core §7.1): Fleet re-rolls both dice, 'Ere We Go! the lower one, the
    Blessing of Chuck Norris re-rolls a failure once more; Banana Peel -2", Speed Pack +3"."""
    a, b = d6(rng, g), d6(rng, g)
    bonus = _charge_bonus(st, g, u, tb)
    if a + b + bonus < distance and all_have(st, g, u, MR_FLEET):
        a, b = d6(rng, g), d6(rng, g)
    elif a + b + bonus < distance and all_have(st, g, u, MR_ERE_WE_GO):
        a = d6(rng, g) if a <= b else a
        b = b if a <= b else d6(rng, g)
    if a + b + bonus < distance and is_squad(u, tb) and chuck_active(st, g, u):
        a, b = d6(rng, g), d6(rng, g)
    return a + b + bonus


@njit
def _charge_bonus(st, g, u, tb):
    if not is_squad(u, tb):
        return 0.0
    bonus = 0.0
    if st.pu[g, u, PU_BANANA] == st.res[g, R_TURNS]:
        bonus -= 2.0  # A30: charges as through difficult terrain
    if st.pu[g, u, PU_MUSHROOM_ON] == st.res[g, R_TURNS]:
        bonus += tb.prm[P_MUSH_MOVE]
    return bonus


@njit
def can_charge(st, g, u):
    """core §7.1: not after a Run, a weapon that forbids it, while falling back, locked, or
    Gone to Ground (core §9.4)."""
    s = st.ustate[g, u]
    return (on_table(st, g, u) and not in_combat(st, g, u) and s[US_RAN] == 0 and s[US_NO_CHARGE] == 0
            and s[US_FALLING_BACK] == 0 and s[US_PINNED] == 0)


@njit
def may_charge_target(st, g, u, v, tb):
    """zombie40k §5.5: not a unit locked with another player's squad; it must be the unit u
    shot at, if it shot (core §7.1)."""
    if not on_table(st, g, v) or unit_gap(st, g, u, v) > CHARGE_RANGE:
        return False
    shot_at = st.ustate[g, u, US_SHOT_AT]
    if shot_at != 0 and shot_at != v + 1:
        return False
    for q in range(n_players(tb)):
        if q != u and st.locked[g, v, q]:
            return False
    if is_squad(v, tb):
        return not in_combat(st, g, v)
    return True


@njit
def make_charge(st, g, u, v, tb, rng):
    """Declare and resolve a charge of u at v. Returns True if u ends in base contact."""
    told = open_event(st, g, EK_CHARGE, u, v)  # declared before the Overwatch it draws
    if is_squad(v, tb):
        overwatch(st, g, v, u, tb, rng)
    if not on_table(st, g, u) or not on_table(st, g, v):
        close_event(st, g, told, 0, 0, 1)  # c = 1: the charge was stopped before its roll
        return False
    distance = unit_gap(st, g, u, v)
    cover = _charge_crosses_terrain(st, g, u, v, tb)
    penalty = 2.0 if cover and not any_has(st, g, u, MR_MOVE_THROUGH_COVER) else 0.0
    roll = charge_roll(st, g, u, distance + penalty, tb, rng) - penalty
    if roll < distance:
        retell(st, g, told, EK_CHARGE_FAIL)
        close_event(st, g, told, roll, distance, 0)
        return False
    ax, ay = st.pos[g, u, 0], st.pos[g, u, 1]
    move_into_contact(st, g, u, v, tb)
    st.ustate[g, u, US_CHARGED] = 1
    st.ustate[g, u, US_CHARGED_COVER] = 1 if cover else 0
    dangerous_terrain(st, g, u, ax, ay, tb, rng)
    close_event(st, g, told, roll, distance, 0)
    return on_table(st, g, u)


@njit
def _charge_crosses_terrain(st, g, u, v, tb):
    """Does u's charge path into contact with v enter, leave or cross difficult terrain (core
    §7.1)? (The Shamble is never slowed: zombies ignore difficult terrain, A22.)"""
    if not has_terrain(tb):
        return False
    dx, dy = st.pos[g, u, 0] - st.pos[g, v, 0], st.pos[g, u, 1] - st.pos[g, v, 1]
    length = max(1e-9, norm(dx, dy))
    reach = st.radius[g, u] + st.radius[g, v]
    bx, by = st.pos[g, v, 0] + dx / length * reach, st.pos[g, v, 1] + dy / length * reach
    return crosses_terrain(st, g, st.pos[g, u, 0], st.pos[g, u, 1], bx, by, st.radius[g, u], tb, False)


@njit
def move_into_contact(st, g, u, v, tb):
    """Place u in base contact with v on the line between their centres, and lock them."""
    dx, dy = st.pos[g, u, 0] - st.pos[g, v, 0], st.pos[g, u, 1] - st.pos[g, v, 1]
    length = max(1e-9, norm(dx, dy))
    reach = st.radius[g, u] + st.radius[g, v]
    st.pos[g, u, 0] = st.pos[g, v, 0] + dx / length * reach
    st.pos[g, u, 1] = st.pos[g, v, 1] + dy / length * reach
    lock(st, g, u, v)
    note_ev_zone(st, g, u, tb)


# ------------------------------------------------------------------------- the fight


@njit
def _pick_target(st, g, u, tb):
    """The enemy unit locked with u that u attacks (see module docstring)."""
    best, best_n = -1, 1 << 30
    for v in range(st.locked.shape[1]):
        if st.locked[g, u, v] and on_table(st, g, v):
            n = alive(st, g, v)
            if not is_squad(u, tb):
                n = v  # zombies: the first squad they are locked with
            if n < best_n:
                best, best_n = v, n
    return best


@njit
def _melee_choice(st, g, u, m, tb):
    """(weapon row, bonus attack for two weapons) of model m (core §7.3)."""
    w0, w1 = st.gear[g, u, m, G_MELEE0], st.gear[g, u, m, G_MELEE1]
    pistol = -1
    for slot in (G_RANGED0, G_RANGED1, G_RANGED2):
        w = st.gear[g, u, m, slot]
        if w >= 0 and tb.weapons[w, W_KIND] == K_PISTOL:
            pistol = w
    if w0 < 0 and w1 < 0:
        return tb.ids[ID_CCW], 0  # core §7.3: the pistol is its one close combat weapon, not a second one
    main = w0 if w0 >= 0 else w1
    if w0 >= 0 and w1 >= 0 and _better(tb.weapons[w1], tb.weapons[w0]):
        main = w1
    second = (w1 if main == w0 else w0) if (w0 >= 0 and w1 >= 0) else pistol
    return main, _two_weapon_bonus(tb.weapons[main], tb.weapons[second] if second >= 0 else tb.weapons[main],
                                   second >= 0)


@njit
def _better(a, b):
    """A rough order of melee weapons: lower AP, then a Strength bonus."""
    return a[W_AP] < b[W_AP] or (a[W_AP] == b[W_AP] and a[W_SMODE] > b[W_SMODE])


@njit
def _two_weapon_bonus(main, second, has_second):
    """+1 Attack for two weapons; Specialist needs both Specialist, Two-handed never (§12)."""
    if not has_second:
        return 0
    if main[W_FLAGS] & WR_TWO_HANDED or second[W_FLAGS] & WR_TWO_HANDED:
        return 0
    if (main[W_FLAGS] & WR_SPECIALIST) != (second[W_FLAGS] & WR_SPECIALIST) and second[W_KIND] == K_MELEE:
        return 0
    if main[W_FLAGS] & WR_SPECIALIST and second[W_KIND] != K_MELEE:
        return 0
    return 1


@njit
def _charge_bonus_attacks(st, g, u, m, target, tb):
    """+1 Attack on the charge (Rage +2), lost against defensive grenades (core §7.3, §8)."""
    if st.ustate[g, u, US_CHARGED] == 0 or st.ustate[g, u, US_ROUNDS] != 0:
        return 0
    if target >= 0 and _has_defensive_grenades(st, g, target, tb):
        return 0
    return 2 if unit_flags(st, g, u, m) & MR_RAGE else 1


@njit
def _has_defensive_grenades(st, g, v, tb):
    for m in range(st.wounds.shape[2]):
        w = st.gear[g, v, m, G_GRENADE]
        if st.wounds[g, v, m] > 0 and w >= 0 and tb.weapons[w, W_FLAGS] & WR_DEFENSIVE_GRENADE:
            return True
    return False


@njit
def _base_initiative(st, g, u, m, weapon, tb):
    """Initiative step of model m before any Concussive hit (which makes it 1): Unwieldy strikes
    at 1, else I (+1 with the Speed Pack, zombie40k §8), within 1..10."""
    if weapon[W_FLAGS] & WR_UNWIELDY or _slowed_by_cover(st, g, u, m, tb):
        return 1
    init = st.stats[g, u, m, I]
    if is_squad(u, tb) and st.pu[g, u, PU_MUSHROOM_ON] == st.res[g, R_TURNS]:
        init += int(tb.prm[P_MUSH_INIT])
    return min(10, max(1, init))


@njit
def _slowed_by_cover(st, g, u, m, tb):
    """A model that charged through difficult terrain this turn without assault grenades
    fights at Initiative 1 (core §7.1 step 6)."""
    if st.ustate[g, u, US_CHARGED_COVER] == 0 or st.ustate[g, u, US_CHARGED] == 0:
        return False
    w = st.gear[g, u, m, G_GRENADE]
    return w < 0 or (tb.weapons[w, W_FLAGS] & WR_ASSAULT_GRENADE) == 0


@njit
def _attacks_of(st, g, u, m, target, bonus2, rampage, tb):
    attacks = st.stats[g, u, m, A] + bonus2 + _charge_bonus_attacks(st, g, u, m, target, tb)
    if st.mpow[g, u, m] & MP_DUCT_ATTACK:
        attacks += 1
    flags = unit_flags(st, g, u, m)
    if flags & MR_COUNTER_ATTACK and st.ustate[g, u, US_CHARGED] == 0 and st.ustate[g, u, US_ROUNDS] == 0:
        attacks += 1  # Counter-attack: charged this turn and not already locked
    if flags & MR_RAMPAGE:
        attacks += rampage
    return attacks


@njit
def _side_models(st, g, u, member, tb, friendly):
    """Models on u's side (friendly) or against it in the combat."""
    n = 0
    for v in range(member.shape[0]):
        if member[v] and on_table(st, g, v):
            same = (v == u) or (not is_squad(u, tb) and not is_squad(v, tb))
            if same == friendly:
                n += alive(st, g, v)
    return n


@njit
def fight(st, g, seed, tb, rng):
    """Fight one round of seed's combat. Leaves the members in ``st.w_member`` and the unsaved
    wounds each unit inflicted and suffered in ``st.w_inflicted`` / ``st.w_suffered`` (for combat
    resolution)."""
    member, inflicted, suffered, target, rampage = st.w_member, st.w_inflicted, st.w_suffered, st.w_target, \
        st.w_rampage
    told = open_event(st, g, EK_FIGHT, seed, -1)  # told before the deaths it causes
    combat_members(st, g, seed, member)
    n = member.shape[0]
    for u in range(n):
        inflicted[u], suffered[u], target[u], rampage[u] = 0, 0, -1, 0
        if member[u] and on_table(st, g, u):
            target[u] = _pick_target(st, g, u, tb)
            if any_has(st, g, u, MR_RAMPAGE) and _side_models(st, g, u, member, tb, False) > \
                    _side_models(st, g, u, member, tb, True):
                rampage[u] = d3(rng, g)
    _hammer_of_wrath(st, g, member, target, inflicted, suffered, tb, rng)
    _mandiblasters(st, g, member, target, inflicted, suffered, tb, rng)
    fuel_out, choice = st.w_fuel_out, st.w_choice
    for u in range(n):  # only the members' kept choices and chainsaws are read
        if member[u]:
            choice[u] = -1
            fuel_out[u] = False
    steps = st.w_step
    step = _next_step(st, g, 11, member, target, tb, choice, steps)
    while step > 0:  # Initiative 10 down to 1 (core §7.3)
        _initiative_step(st, g, step, member, target, rampage, inflicted, suffered, fuel_out, tb, rng,
                         choice, steps, st.w_dice, st.w_weapon, st.w_spec[W_FIGHT], st.w_out[W_FIGHT])
        step = _next_step(st, g, step, member, target, tb, choice, steps)
    _discard_empty_chainsaws(st, g, member, fuel_out)
    blind_tests(st, g, rng)
    for u in range(n):
        if member[u]:
            st.ustate[g, u, US_ROUNDS] += 1
    close_event(st, g, told, inflicted[seed], suffered[seed], 0)


@njit
def _hammer_of_wrath(st, g, member, target, inflicted, suffered, tb, rng):
    """Each model with Hammer of Wrath that charged makes one hit at I10 (core §12)."""
    spec, out = st.w_spec[W_HAMMER], st.w_out[W_HAMMER]
    for u in range(member.shape[0]):
        v = target[u]
        if not member[u] or v < 0 or st.ustate[g, u, US_CHARGED] == 0 or st.ustate[g, u, US_ROUNDS] != 0 \
                or not any_has(st, g, u, MR_HAMMER_OF_WRATH):  # no model has it: none strikes
            continue
        for m in range(st.wounds.shape[2]):
            if st.wounds[g, u, m] > 0 and unit_flags(st, g, u, m) & MR_HAMMER_OF_WRATH and on_table(st, g, v):
                hammer_of_wrath_spec(spec, st.stats[g, u, m], majority_stat(st, g, v, T), tb.wound_chart)
                _strike(st, g, u, v, 1, spec, inflicted, suffered, tb, rng, out)


@njit
def _mandiblasters(st, g, member, target, inflicted, suffered, tb, rng):
    """At the start of Initiative 10 each model with Mandiblasters rolls a D6; on 4+ the enemy
    unit it fights suffers one Wound, saves and Feel No Pain allowed (core §12)."""
    spec, out = st.w_spec[W_HAMMER], st.w_out[W_HAMMER]
    for u in range(member.shape[0]):
        v = target[u]
        if not member[u] or v < 0 or not any_has(st, g, u, MR_MANDIBLASTERS):
            continue
        for m in range(st.wounds.shape[2]):
            if st.wounds[g, u, m] > 0 and st.mflags[g, u, m] & MR_MANDIBLASTERS and on_table(st, g, v):
                if d6(rng, g) >= 4:
                    automatic_wound_spec(spec)
                    _strike(st, g, u, v, 1, spec, inflicted, suffered, tb, rng, out)


@njit
def _strike(st, g, u, v, dice, spec, inflicted, suffered, tb, rng, out):
    for k in range(N_OUT):
        out[k] = 0
    before = alive(st, g, v)
    defender_chuck = 1 if is_squad(v, tb) and chuck_active(st, g, v) else 0
    medpacks = st.pu[g, v, PU_MEDPACKS:PU_MEDPACKS + 2] if is_squad(v, tb) else st.pu[g, 0, 0:0]
    converts = tb.prm[P_DMW] != 0 and is_squad(v, tb) and not is_squad(u, tb) and u != boss_unit(st) \
        and on_table(st, g, u)  # a horde wiped at this Initiative step still strikes, but takes no one
    was = st.w_was[:st.wounds.shape[2] if converts else 0]
    for m in range(was.shape[0]):
        was[m] = st.wounds[g, v, m]
    killed = out[OUT_KILLED]
    lent = lend_defibrillators(st, g, v, tb)
    resolve_attacks(rng, g, dice, spec, st.wounds[g, v], st.stats[g, v], st.mflags[g, v], st.mstatus[g, v],
                    7, defender_chuck, medpacks, out)
    settle_defibrillators(st, g, v, lent)
    attacked(st, g, v, out, killed)
    for m in range(was.shape[0]):
        if was[m] > 0 and st.wounds[g, v, m] == 0:
            join_horde(st, g, v, m, u, tb)
    inflicted[u] += out[OUT_UNSAVED]
    suffered[v] += out[OUT_UNSAVED]
    if out[OUT_BLIND_HITS] > 0:
        st.ustate[g, v, US_BLIND_HIT] = 1
    after_attack(st, g, v, u, before, tb, rng)


@njit
def _same_model(mflags, stats, gear, choice, g, u, m):
    """Is the model in slot (u, m) the one its kept choice was made for?"""
    if choice[u, m, C_WEAPON] < 0 or choice[u, m, C_FLAGS] != mflags[g, u, m] or \
            choice[u, m, C_INIT] != stats[g, u, m, I]:
        return False
    for k in range(gear.shape[3]):
        if choice[u, m, C_GEAR0 + k] != gear[g, u, m, k]:
            return False
    return True


@njit
def _choose_melee(st, g, u, m, tb, c):
    """Fill choice row ``c``: the model's melee weapon, two-weapon bonus and Initiative step
    (core §7.3), and who the model is."""
    w, bonus2 = _melee_choice(st, g, u, m, tb)
    c[C_WEAPON], c[C_BONUS], c[C_STEP] = w, bonus2, _base_initiative(st, g, u, m, tb.weapons[w], tb)
    c[C_FLAGS], c[C_INIT] = st.mflags[g, u, m], st.stats[g, u, m, I]
    for k in range(st.gear.shape[3]):
        c[C_GEAR0 + k] = st.gear[g, u, m, k]


@njit
def _model_step(st, g, u, m, tb, choice):
    """The Initiative step model m of unit u strikes at (its kept choice, 1 if Concussed)."""
    if not _same_model(st.mflags, st.stats, st.gear, choice, g, u, m):
        _choose_melee(st, g, u, m, tb, choice[u, m])
    return 1 if st.mstatus[g, u, m] & ST_CONCUSSED else choice[u, m, C_STEP]


@njit
def _fights(st, g, u, member, target):
    return member[u] and target[u] >= 0 and on_table(st, g, u)


@njit
def _next_step(st, g, below, member, target, tb, choice, steps):
    """The highest Initiative step under ``below`` at which some model strikes (0: none). Steps
    nobody strikes at are skipped: nothing changes in them. Leaves each living model's step in
    ``steps`` (of the units that fight) for the ``_initiative_step`` that follows."""
    best = 0
    for u in range(member.shape[0]):
        if not _fights(st, g, u, member, target):
            continue
        for m in range(st.wounds.shape[2]):
            steps[u, m] = 0
            if st.wounds[g, u, m] > 0:
                at = _model_step(st, g, u, m, tb, choice)
                steps[u, m] = at
                if best < at < below:
                    best = at
    return best


@njit
def _initiative_step(st, g, step, member, target, rampage, inflicted, suffered, fuel_out, tb, rng,
                     choice, steps, dice, weapon, spec, out):
    """Models striking at Initiative ``step`` are all counted first, then resolved (``steps``: each
    model's step, as ``_next_step`` found it just before)."""
    n, mm = member.shape[0], st.wounds.shape[2]
    for u in range(n):
        if not member[u]:
            continue
        dice[u], weapon[u] = 0, -1
        if not _fights(st, g, u, member, target):
            continue
        v = target[u]
        for m in range(mm):
            if st.wounds[g, u, m] <= 0 or steps[u, m] != step:
                continue
            w, bonus2 = choice[u, m, C_WEAPON], choice[u, m, C_BONUS]
            chainsaw = st.mpow[g, u, m] & MP_CHAINSAW and _is_zombie_unit(st, g, v)
            weapon[u, m] = -2 if chainsaw else w
            dice[u, m] = _attacks_of(st, g, u, m, v, 0 if chainsaw else bonus2, rampage[u], tb)
    for u in range(n):
        if not member[u]:
            continue
        v = target[u]
        kept = -1  # the model of u whose attacks ``spec`` holds, while no model has died since
        for m in range(mm):
            if dice[u, m] > 0 and v >= 0 and on_table(st, g, v):
                if kept < 0 or not _strikes_alike(st, g, u, m, kept, weapon):
                    _model_spec(st, g, u, m, v, weapon[u, m], tb, spec)
                _strike(st, g, u, v, dice[u, m], spec, inflicted, suffered, tb, rng, out)
                kept = m if out[OUT_KILLED] == 0 else -1
                if weapon[u, m] == -2 and out[OUT_ONES] > 0:
                    fuel_out[u, m] = True  # a natural 1: the chainsaw runs dry (zombie40k §8)


@njit
def _strikes_alike(st, g, u, m, k, weapon):
    """Do models m and k of unit u strike with the same attacks (``_model_spec``): the same
    weapon, profile and rules? While no model of either side has died, nothing else the spec
    reads has changed (a strike that kills nobody wipes no one, converts no one, awards no
    power-up), so a horde of like zombies builds its spec once."""
    if weapon[u, m] != weapon[u, k] or st.mflags[g, u, m] != st.mflags[g, u, k]:
        return False
    for c in range(st.stats.shape[3]):
        if st.stats[g, u, m, c] != st.stats[g, u, k, c]:
            return False
    return True


@njit
def join_horde(st, g, p, m, h, tb):
    """Dead Men Walking (zombie40k §10.3, A36): a survivor slain in close combat by a horde
    rises at once as a model of that horde, with its profile (full Wounds), wargear and rules,
    Feel No Pain (5+) at worst, and no power-ups. No free slot: it stays dead."""
    for k in range(st.wounds.shape[2]):
        if st.wounds[g, h, k] == 0:
            for c in range(st.stats.shape[3]):
                st.stats[g, h, k, c] = st.stats[g, p, m, c]
            st.stats[g, h, k, FNP] = min(st.stats[g, p, m, FNP], int(tb.prm[P_DMW_FNP]))
            st.mflags[g, h, k] = (st.mflags[g, p, m] | MR_ZOMBIE) & ~MR_LEADER
            st.mstatus[g, h, k] = 0
            st.mpow[g, h, k] = 0
            for s in range(st.gear.shape[3]):
                st.gear[g, h, k, s] = st.gear[g, p, m, s]
            st.wounds[g, h, k] = st.stats[g, h, k, W]
            touch(st, g, h)
            st.mstatus[g, p, m] |= MS_CONVERTED  # it is a zombie now, not a dead model of the squad
            refresh_radius(st, g, h, tb)
            log_event(st, g, EK_CONVERT, p, h, m, k, 0)
            return


@njit
def _is_zombie_unit(st, g, v):
    for m in range(st.wounds.shape[2]):
        if st.wounds[g, v, m] > 0:
            return (st.mflags[g, v, m] & MR_ZOMBIE) != 0
    return False


@njit
def _model_spec(st, g, u, m, v, w, tb, spec):
    chuck = 1 if is_squad(u, tb) and chuck_active(st, g, u) else 0
    if w == -2:
        wound_removing_spec(spec, int(tb.prm[P_CHAINSAW_HIT_ON]), 1, False, chuck)
        return
    attacker = st.w_attacker
    for c in range(attacker.shape[0]):
        attacker[c] = st.stats[g, u, m, c]
    if is_blinded(st, g, u):
        attacker[WS] = 1
    charged = st.ustate[g, u, US_CHARGED] != 0 and st.ustate[g, u, US_ROUNDS] == 0
    flags = unit_flags(st, g, u, m)
    if flags & MR_VOTLW and any_has(st, g, v, MR_SPACE_MARINE):
        flags |= MR_HATRED  # Veterans of the Long War: Hatred (Space Marines) (core §12)
    melee_spec(spec, tb.weapons[w], attacker, flags, majority_stat(st, g, v, WS),
               majority_stat(st, g, v, T), majority_stat(st, g, v, SV), charged, st.ustate[g, u, US_ROUNDS] == 0,
               chuck, tb.ws_chart, tb.wound_chart)
    if tb.weapons[w, W_FLAGS] & WR_FORCE and _force_active(st, g, u):
        spec[SP_INSTANT_DEATH] = 1  # a manifested Force weapon (core §12, §13)
    headshots(st, g, u, v, tb, spec)


@njit
def _force_active(st, g, u):
    """Force lasts from the psychic phase it was manifested in until the unit's next one."""
    turn = st.res[g, R_TURNS]
    return st.ustate[g, u, US_FORCE] > 0 and turn - 1 <= st.ustate[g, u, US_FORCE] <= turn


@njit
def _discard_empty_chainsaws(st, g, member, fuel_out):
    for u in range(fuel_out.shape[0]):
        if not member[u]:
            continue  # only the combat's units struck (and cleared their chainsaws' marks)
        for m in range(fuel_out.shape[1]):
            if fuel_out[u, m]:
                st.mpow[g, u, m] &= ~MP_CHAINSAW


# ------------------------------------------------------------------ after the fight


@njit
def resolve_combat(st, g, member, inflicted, suffered, tb, rng):
    """core §7.4-§7.5 for every squad of the combat: the loser tests Morale at Ld minus the
    difference; a fail falls back, unless caught by a Sweeping Advance."""
    for p in range(n_players(tb)):
        if not member[p] or not on_table(st, g, p) or suffered[p] <= inflicted[p]:
            continue
        diff = suffered[p] - inflicted[p]
        passed = morale_check(st, g, p, -diff, tb, rng)
        log_event(st, g, EK_MORALE, p, -1, diff, passed, 0)
        if not passed:
            _break(st, g, p, tb, rng)
    _mark_consolidation(st, g, member)


@njit
def _sweeper(st, g, p, tb):
    """The other reading (``sweep_rule = "highest_initiative"``): the enemy locked with p with
    the highest Initiative sweeps, even one still locked with another unit."""
    best, best_i = -1, -1
    for v in range(st.locked.shape[1]):
        if _may_sweep(st, g, p, v, tb, False):
            i = majority_stat(st, g, v, I)
            if i > best_i:
                best, best_i = v, i
    return best


@njit
def _may_sweep(st, g, p, v, tb, free_only):
    """v, locked with p, may make a Sweeping Advance: zombies always may (zombie40k §6.4), a
    Slow and Purposeful squad may not; with ``free_only``, not a unit still locked with another
    enemy unit (core §7.5)."""
    if not st.locked[g, p, v] or not on_table(st, g, v):
        return False
    if is_squad(v, tb) and any_has(st, g, v, MR_SLOW_AND_PURPOSEFUL):
        return False
    if free_only:
        for w in range(st.locked.shape[1]):
            if w != p and st.locked[g, v, w]:
                return False
    return True


@njit
def sweep_initiative(st, g, u, tb):
    """A unit's Initiative in the Sweeping Advance roll: its majority Initiative, +1 for a squad
    whose Speed Pack is on (zombie40k §8 result 9)."""
    i = majority_stat(st, g, u, I)
    if is_squad(u, tb) and st.pu[g, u, PU_MUSHROOM_ON] == st.res[g, R_TURNS]:
        i += int(tb.prm[P_MUSH_INIT])
    return i


@njit
def _sweeping_advance(st, g, p, tb, rng):
    """core §7.5: the loser rolls D6 + Initiative once; each winning unit not still locked with
    another enemy rolls D6 + Initiative (+D3 Crusader); the first to equal or beat the loser
    catches it. Returns that unit, or -1."""
    if tb.prm[P_SWEEP_HIGHEST] != 0:
        v = _sweeper(st, g, p, tb)
        if v < 0:
            return -1
        caught, _, _ = _sweep_roll(st, g, v, p, _flee_roll(st, g, p, tb, rng), False, tb, rng)
        return v if caught else -1
    mine, rerolled = -1, False
    for v in range(st.locked.shape[1]):
        if _may_sweep(st, g, p, v, tb, True):
            if mine < 0:
                mine = _flee_roll(st, g, p, tb, rng)
            caught, mine, rerolled = _sweep_roll(st, g, v, p, mine, rerolled, tb, rng)
            if caught:
                return v
    return -1


@njit
def _flee_roll(st, g, p, tb, rng):
    return d6(rng, g) + sweep_initiative(st, g, p, tb)


@njit
def _blessed(st, g, u, tb):
    """A squad under the Blessing of Chuck Norris re-rolls every failed roll once (zombie40k §8, A35)."""
    return is_squad(u, tb) and chuck_active(st, g, u)


@njit
def _sweep_roll(st, g, v, p, mine, rerolled, tb, rng):
    """Sweeper v's D6 + Initiative (+D3 Crusader) against the loser's ``mine``. Under the Blessing
    of Chuck Norris (A35) a sweeping squad re-rolls its D6 if it falls short, and the loser its D6
    if caught (once in the Sweeping Advance, ``rerolled``). Returns (caught, mine, rerolled)."""
    bonus = sweep_initiative(st, g, v, tb)
    theirs = d6(rng, g) + bonus
    crusade = d3(rng, g) if any_has(st, g, v, MR_CRUSADER) else 0
    theirs += crusade
    if theirs < mine and _blessed(st, g, v, tb):
        theirs = d6(rng, g) + bonus + crusade
    if theirs >= mine and not rerolled and _blessed(st, g, p, tb):
        mine, rerolled = _flee_roll(st, g, p, tb, rng), True
    log_event(st, g, EK_SWEEP, v, p, theirs, mine, 0)
    return theirs >= mine, mine, rerolled


@njit
def _break(st, g, p, tb, rng):
    """A squad that failed its Morale check: caught by a Sweeping Advance it is destroyed (with
    And They Shall Know No Fear it stays locked), else it falls back (core §7.5)."""
    v = _sweeping_advance(st, g, p, tb, rng)
    if v >= 0:
        if any_has(st, g, p, MR_ATSKNF):
            return  # caught, but And They Shall Know No Fear: stays locked
        wipe(st, g, p, v, tb, rng)
        return
    for w in range(st.locked.shape[1]):
        if st.locked[g, p, w]:
            st.ustate[g, w, US_CONSOLIDATE] = 1
    unlock_all(st, g, p)
    fall_back(st, g, p, tb, rng)


@njit
def _mark_consolidation(st, g, member):
    """Units whose enemies are all gone (destroyed or falling back) may consolidate; a unit
    that falls back does not (core §7.5)."""
    for u in range(member.shape[0]):
        if member[u] and on_table(st, g, u) and not in_combat(st, g, u) and \
                st.ustate[g, u, US_FALLING_BACK] == 0:
            st.ustate[g, u, US_CONSOLIDATE] = 1


@njit
def consolidate(st, g, u, gx, gy, tb, rng):
    """D6" (zombie40k §5.5, A21) towards the goal, never into base contact (1" away). A unit that
    fell back after it was flagged (two squads that lose one melee) does not (core §7.5)."""
    st.ustate[g, u, US_CONSOLIDATE] = 0
    if not on_table(st, g, u) or in_combat(st, g, u) or st.ustate[g, u, US_FALLING_BACK] != 0:
        return
    distance = float(_roll_consolidation(st, g, tb, rng))
    ax, ay = st.pos[g, u, 0], st.pos[g, u, 1]
    moved = move_towards(st.pos, st.radius[g], st.ustate, g, u, gx, gy, distance, -1, 0.0, tb.prm, st.w_near)
    note_ev_zone(st, g, u, tb)
    dangerous_terrain(st, g, u, ax, ay, tb, rng)
    log_event(st, g, EK_CONSOLIDATE, u, -1, moved, st.pos[g, u, 0], st.pos[g, u, 1])


@njit
def _roll_consolidation(st, g, tb, rng):
    return roll_expr_prm(rng, g, tb.prm, P_CONSOL_N)


@njit
def squad_consolidation_goal(st, g, p, tb):
    """Squads consolidate towards the Escape Vehicle (the race is on)."""
    return ev_nearest_point(st.pos[g, p, 0], st.pos[g, p, 1], tb.prm)

