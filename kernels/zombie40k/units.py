"""Small helpers on one unit of one game: who is alive, its rules, its radius, combat links,
trace events. Units: squads 0..P-1, hordes P..U-2, the Zombie Boss U-1."""

from __future__ import annotations

from kernels.jit import as_float64, njit
from kernels.rng import switch_stream
from kernels.w40k.columns import LD, MR_UNIT_RULES, OUT_KILLED, SV, WS, I, T
from kernels.zombie40k.columns import (
    EK_NONE,
    EV_A,
    EV_B,
    EV_C,
    EV_KIND,
    EV_MODELS,
    EV_OTHER,
    EV_OTHER_MODELS,
    EV_PHASE,
    EV_TURN,
    EV_UNIT,
    NOW_PHASE,
    NOW_UNIT,
    P_PVP_ZONE,
    R_TURNS,
    SU_ALIVE,
    SU_ALL_RULES,
    SU_ANY_RULES,
    SU_FRESH,
    SU_I,
    SU_LD,
    SU_MAJORITY_FRESH,
    SU_SV,
    SU_T,
    SU_VERSION,
    SU_WS,
    US_FALLING_BACK,
    US_LOCKS,
    US_ON_TABLE,
    US_REACHED_ZONE,
    US_ROUNDS,
)
from kernels.zombie40k.geometry import ev_distance, unit_radius


@njit
def n_players(tb):
    return tb.policy.shape[0]


@njit
def boss_unit(st):
    return st.pos.shape[1] - 1


@njit
def is_squad(u, tb):
    return u < tb.policy.shape[0]


# ----------------------------------------------------------------- unit summaries (SU_*)
# What the rules ask of a unit over and over (models alive, its rules, its majority Toughness
# and Save) is kept in ``st.usum`` and recounted only when first read after a change: every
# kernel that writes a unit's Wounds, characteristics or rules calls ``touch``. Checked mode
# compares the kept values with a recount after every phase (``stale_summaries``).


@njit
def touch(st, g, u):
    """Unit u's models changed (Wounds, characteristics or rules): its summaries are stale."""
    st.usum[g, u, SU_FRESH] = 0
    st.usum[g, u, SU_MAJORITY_FRESH] = 0
    st.usum[g, u, SU_VERSION] += 1


@njit
def version(st, g, u):
    """How many times unit u's models have changed this game (``touch``)."""
    return st.usum[g, u, SU_VERSION]


@njit
def attacked(st, g, u, out, killed):
    """After ``resolve_attacks`` into unit u (``killed``: its ``out[OUT_KILLED]`` before): the
    summaries are stale only if a model died (wounds lost by survivors change none of them)."""
    if out[OUT_KILLED] != killed:
        touch(st, g, u)


@njit
def summary(st, g, u, col):
    """One kept summary of unit u (``SU_ALIVE`` .. ``SU_LD``), recounted first if stale."""
    if st.usum[g, u, SU_FRESH] == 0:
        summarise(st, g, u, st.usum, g, u)
    return st.usum[g, u, col]


@njit
def majority(st, g, u, col):
    """One kept majority value of unit u (``SU_WS`` .. ``SU_I``), counted first if stale."""
    if st.usum[g, u, SU_MAJORITY_FRESH] == 0:
        count_majorities(st, g, u, st.usum, g, u)
    return st.usum[g, u, col]


@njit
def summarise(st, g, u, out, i, j):
    """Count unit u's living models and their rules into ``out[i, j]`` (int64[..., ..., N_SU])."""
    n, any_rules, all_rules, ld = 0, 0, -1, 0
    for m in range(st.wounds.shape[2]):
        if st.wounds[g, u, m] > 0:
            n += 1
            any_rules |= st.mflags[g, u, m]
            all_rules &= st.mflags[g, u, m]
            ld = max(ld, st.stats[g, u, m, LD])
    out[i, j, SU_ALIVE], out[i, j, SU_ANY_RULES], out[i, j, SU_LD] = n, any_rules, ld
    out[i, j, SU_ALL_RULES] = all_rules if n else 0
    out[i, j, SU_FRESH] = 1


@njit
def count_majorities(st, g, u, out, i, j):
    """Unit u's majority WS, T, Sv and I into ``out[i, j]`` (core §3)."""
    out[i, j, SU_WS], out[i, j, SU_T] = _majority(st, g, u, WS), _majority(st, g, u, T)
    out[i, j, SU_SV], out[i, j, SU_I] = _majority(st, g, u, SV), _majority(st, g, u, I)
    out[i, j, SU_MAJORITY_FRESH] = 1


@njit
def stale_summaries(st, g, u, scratch):
    """Checked mode: 1 if unit u's kept summaries are fresh but differ from a recount (``scratch``:
    int64[1, 1, N_SU])."""
    bad = False
    if st.usum[g, u, SU_FRESH] != 0:
        summarise(st, g, u, scratch, 0, 0)
        for k in (SU_ALIVE, SU_ANY_RULES, SU_ALL_RULES, SU_LD):
            bad |= scratch[0, 0, k] != st.usum[g, u, k]
    if st.usum[g, u, SU_MAJORITY_FRESH] != 0:
        count_majorities(st, g, u, scratch, 0, 0)
        for k in (SU_WS, SU_T, SU_SV, SU_I):
            bad |= scratch[0, 0, k] != st.usum[g, u, k]
    return 1 if bad else 0


@njit
def alive(st, g, u):
    """Living models of unit u."""
    return summary(st, g, u, SU_ALIVE)


@njit
def on_table(st, g, u):
    return st.ustate[g, u, US_ON_TABLE] != 0


@njit
def refresh_radius(st, g, u, tb):
    st.radius[g, u] = unit_radius(alive(st, g, u), tb.prm)


@njit
def unit_flags(st, g, u, m):
    """Rules model m attacks with: its own, plus the unit rules any living model carries."""
    return st.mflags[g, u, m] | (summary(st, g, u, SU_ANY_RULES) & MR_UNIT_RULES)


@njit
def any_has(st, g, u, rule):
    """Some living model of the unit has the rule (unit rules, zombie40k §9)."""
    return (summary(st, g, u, SU_ANY_RULES) & rule) != 0


@njit
def all_have(st, g, u, rule):
    """Every living model has the rule (Fleet, 'Ere We Go!, Mob Rule); ``rule`` is one rule (one bit)."""
    return summary(st, g, u, SU_ALIVE) > 0 and (summary(st, g, u, SU_ALL_RULES) & rule) != 0


@njit
def best_stat(st, g, u, col):
    """Highest value among living models (Leadership: core-7th-edition §1)."""
    best = 0
    for m in range(st.wounds.shape[2]):
        if st.wounds[g, u, m] > 0:
            best = max(best, st.stats[g, u, m, col])
    return best


@njit
def majority_stat(st, g, u, col):
    """The value most living models share; ties go to the highest (core-7th-edition §3). Kept
    for WS, T, Sv and I; counted for the others."""
    if col == T:
        return majority(st, g, u, SU_T)
    if col == SV:
        return majority(st, g, u, SU_SV)
    if col == WS:
        return majority(st, g, u, SU_WS)
    if col == I:
        return majority(st, g, u, SU_I)
    return _majority(st, g, u, col)


@njit
def _majority(st, g, u, col):
    first, mixed = -1, False
    for m in range(st.wounds.shape[2]):
        if st.wounds[g, u, m] > 0:
            v = st.stats[g, u, m, col]
            if first < 0:
                first = v
            elif v != first:
                mixed = True
                break
    if not mixed:
        return max(first, 0)  # one value shared by every model (the usual case)
    return _majority_of_mixed(st, g, u, col)


@njit
def _majority_of_mixed(st, g, u, col):
    best, best_count = 0, 0
    for m in range(st.wounds.shape[2]):
        if st.wounds[g, u, m] <= 0:
            continue
        v = st.stats[g, u, m, col]
        count = 0
        for k in range(st.wounds.shape[2]):
            count += st.wounds[g, u, k] > 0 and st.stats[g, u, k, col] == v
        if count > best_count or (count == best_count and v > best):
            best, best_count = v, count
    return best


@njit
def leadership(st, g, u):
    return summary(st, g, u, SU_LD)


@njit
def in_combat(st, g, u):
    """Unit u is locked in combat (the count ``lock`` and ``unlock_all`` keep; checked mode
    compares it with ``st.locked``)."""
    return st.ustate[g, u, US_LOCKS] > 0


@njit
def locked_with_zombies(st, g, p, tb):
    """Is squad p locked in close combat with any zombie unit (core §13)?"""
    for v in range(n_players(tb), st.pos.shape[1]):
        if st.locked[g, p, v]:
            return True
    return False


@njit
def lock(st, g, u, v):
    """Units u and v are now locked in combat; a unit new to combat starts at round 0."""
    if not in_combat(st, g, u):
        st.ustate[g, u, US_ROUNDS] = 0
    if not in_combat(st, g, v):
        st.ustate[g, v, US_ROUNDS] = 0
    if st.locked[g, u, v] == 0:
        st.ustate[g, u, US_LOCKS] += 1
        st.ustate[g, v, US_LOCKS] += 1
    st.locked[g, u, v] = 1
    st.locked[g, v, u] = 1


@njit
def unlock_all(st, g, u):
    for v in range(st.locked.shape[1]):
        if st.locked[g, u, v] != 0:
            st.ustate[g, v, US_LOCKS] -= 1
        st.locked[g, u, v] = 0
        st.locked[g, v, u] = 0
    st.ustate[g, u, US_LOCKS] = 0


@njit
def locks(st, g, u):
    """Units u is locked with, counted from ``st.locked`` (checked mode: ``US_LOCKS`` equals it)."""
    n = 0
    for v in range(st.locked.shape[1]):
        n += st.locked[g, u, v] != 0
    return n


@njit
def combat_members(st, g, seed, member):
    """Fill ``member`` (bool[U]) with the units of seed's combat (the connected set of locked
    units), visiting each unit found once (``st.w_queue``)."""
    n, queue = st.locked.shape[1], st.w_queue
    for u in range(n):
        member[u] = False
    member[seed], queue[0] = True, seed
    head, tail = 0, 1
    while head < tail:
        u = queue[head]
        head += 1
        if st.ustate[g, u, US_LOCKS] == 0:
            continue  # locked with nobody: nothing to follow
        for v in range(n):
            if st.locked[g, u, v] and not member[v]:
                member[v], queue[tail] = True, v
                tail += 1


@njit
def remove_unit(st, g, u):
    """The unit leaves the table (destroyed, fled off the table or embarked)."""
    st.ustate[g, u, US_ON_TABLE] = 0
    st.ustate[g, u, US_FALLING_BACK] = 0
    unlock_all(st, g, u)
    for m in range(st.wounds.shape[2]):
        st.wounds[g, u, m] = 0
    touch(st, g, u)
    st.radius[g, u] = 0.0


@njit
def note_ev_zone(st, g, p, tb):
    """Remember a squad that stands within ``pvp_zone_in`` (18") of the Escape Vehicle: Coop
    Mode's trigger fires "once any squad has come within 18"" (zombie40k §10.1)."""
    if p < tb.policy.shape[0] and on_table(st, g, p) and \
            ev_distance(st.pos[g, p, 0], st.pos[g, p, 1], st.radius[g, p], tb.prm) <= tb.prm[P_PVP_ZONE]:
        st.ustate[g, p, US_REACHED_ZONE] = 1


@as_float64("a", "b", "c")  # stored as float32: one version for every number type
@njit
def log_event(st, g, kind, unit, other, a, b, c):
    """Append a trace event (only when the batch is traced), in the phase being played
    (``enter_phase``), with the models the unit and the other unit have after it."""
    k = open_event(st, g, kind, unit, other)
    close_event(st, g, k, a, b, c)


@njit
def open_event(st, g, kind, unit, other):
    """Reserve the next trace event for something that starts now and is told when it ends
    (``close_event``): a volley is told before the wipe and the power-up it causes. Returns the
    event's index, -1 when the batch is not traced or its trace is full."""
    if st.events.shape[0] == 0:
        return -1
    k = st.n_events[g]
    if k >= st.events.shape[1]:
        return -1
    ev = st.events[g, k]
    ev[EV_TURN], ev[EV_PHASE], ev[EV_KIND], ev[EV_UNIT] = st.res[g, R_TURNS], st.w_now[NOW_PHASE], kind, unit
    ev[EV_OTHER] = other
    st.n_events[g] = k + 1
    return k


@as_float64("a", "b", "c")  # stored as float32: one version for every number type
@njit
def close_event(st, g, k, a, b, c):
    """Fill in an opened event: its numbers and the models of its two units now."""
    if k < 0:
        return
    ev = st.events[g, k]
    ev[EV_A], ev[EV_B], ev[EV_C] = a, b, c
    unit, other = int(ev[EV_UNIT]), int(ev[EV_OTHER])
    n_units = st.wounds.shape[1]
    ev[EV_MODELS] = alive(st, g, unit) if 0 <= unit < n_units else -1
    ev[EV_OTHER_MODELS] = alive(st, g, other) if 0 <= other < n_units else -1


@njit
def retell(st, g, k, kind):
    """An opened event that turned out another kind (a charge that fell short)."""
    if k >= 0:
        st.events[g, k, EV_KIND] = kind


@njit
def cancel_event(st, g, k):
    """An opened event that did not happen after all (a volley with no model able to fire)."""
    if k >= 0:
        st.events[g, k, EV_KIND] = EK_NONE


@njit
def label_phase(st, g, phase, unit):
    """The phase (``PH_*``) now played, and the unit whose phase it is (-1: every unit's, as the
    Shamble): trace events are labelled with it."""
    st.w_now[NOW_PHASE] = phase
    st.w_now[NOW_UNIT] = unit


@njit
def enter_phase(st, g, rng, phase, unit):
    """Start a phase: its label, and its own dice (``dice_for(unit, 0)``)."""
    label_phase(st, g, phase, unit)
    dice_for(st, g, rng, unit, 0)


@njit
def dice_for(st, g, rng, unit, part):
    """Roll the next dice of game g from the stream of (game turn, phase, ``unit``, ``part``):
    common random numbers that stay in step (kernels.rng, streams by purpose). A rule that rolls
    more dice in one phase, for one unit, leaves the other phases' and units' dice as they were.
    ``unit`` -1 is the phase's own (one Shamble roll), ``part`` 0-7 a later step of the same unit
    in the phase (its Morale tests after the shooting, its consolidation)."""
    key = ((st.res[g, R_TURNS] * 16 + st.w_now[NOW_PHASE]) * 256 + unit + 1) * 8 + part
    switch_stream(rng, g, st.w_stream, key)
