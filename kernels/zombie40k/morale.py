"""Morale and Leadership (core-7th-edition §1, §6.1, §7.4, §9; zombie40k §5.2, A44)."""

from __future__ import annotations

from kernels.dice import sum_d6
from kernels.jit import njit
from kernels.rng import d6
from kernels.w40k.attack_spec import auto_hit_spec
from kernels.w40k.columns import MR_FEARLESS, MR_MOB_RULE, MR_STUBBORN, NONE, OUT_KILLED, OUT_UNSAVED, I, T
from kernels.w40k.combat import resolve_attacks
from kernels.zombie40k.casualties import after_attack, dangerous_terrain
from kernels.zombie40k.columns import (
    EK_FALL_BACK,
    EK_MOB_RULE,
    PU_MEDPACKS,
    US_BLIND_HIT,
    US_BLINDED,
    US_FALLING_BACK,
    US_PHASE_MODELS,
    US_PIN_HIT,
    US_PINNED,
)
from kernels.zombie40k.geometry import move_towards
from kernels.zombie40k.powerups import chuck_active, lend_defibrillators, settle_defibrillators
from kernels.zombie40k.state import W_MOB
from kernels.zombie40k.units import (
    alive,
    all_have,
    any_has,
    attacked,
    in_combat,
    is_squad,
    leadership,
    log_event,
    majority_stat,
    n_players,
    on_table,
    touch,
    unlock_all,
)


@njit
def leadership_test(st, g, u, modifier, tb, rng):
    """2D6 <= Ld + modifier (Stubborn ignores a negative one); a double 1 always passes;
    Fearless always passes (core §1, §9.1). Chuck Norris re-rolls a failure."""
    if any_has(st, g, u, MR_FEARLESS):
        return True
    ld = leadership(st, g, u) + (0 if any_has(st, g, u, MR_STUBBORN) else min(0, modifier))
    a, b = d6(rng, g), d6(rng, g)
    if a + b > ld and not (a == 1 and b == 1) and is_squad(u, tb) and chuck_active(st, g, u):
        a, b = d6(rng, g), d6(rng, g)
    return a + b <= ld or (a == 1 and b == 1)


@njit
def morale_check(st, g, u, modifier, tb, rng):
    """A Morale check or a Pinning test (core §9.1, §9.4): a Leadership test, then Mob Rule on
    a failure."""
    if leadership_test(st, g, u, modifier, tb, rng):
        return True
    return all_have(st, g, u, MR_MOB_RULE) and _mob_rule(st, g, u, tb, rng)


@njit
def _mob_rule(st, g, u, tb, rng):
    """Mob Rule (core §12; every model must have it, zombie40k §11.3): a D6; on a 1 the test
    passes only if the unit is locked in combat; on 2-6 the unit suffers D6 S4 AP- hits from
    its own mob and the test passes."""
    if d6(rng, g) == 1:
        return in_combat(st, g, u)
    hits = d6(rng, g)
    spec, out = st.w_spec[W_MOB], st.w_out[W_MOB]
    auto_hit_spec(spec, 4, NONE, majority_stat(st, g, u, T), tb.wound_chart)
    out[:] = 0
    squad = 1 if is_squad(u, tb) else 0  # only a squad holds Medpacks or the Blessing
    medpacks = st.pu[g, u * squad, PU_MEDPACKS: PU_MEDPACKS + 2 * squad]
    chuck = 1 if squad and chuck_active(st, g, u) else 0
    before = alive(st, g, u)
    killed = out[OUT_KILLED]
    lent = lend_defibrillators(st, g, u, tb)
    resolve_attacks(rng, g, hits, spec, st.wounds[g, u], st.stats[g, u], st.mflags[g, u], st.mstatus[g, u], NONE,
                    chuck, medpacks, out)
    settle_defibrillators(st, g, u, lent)
    attacked(st, g, u, out, killed)
    log_event(st, g, EK_MOB_RULE, u, -1, hits, out[OUT_UNSAVED], 0)
    after_attack(st, g, u, -1, before, tb, rng)
    return True


@njit
def fall_back(st, g, p, tb, rng):
    """2D6" straight towards the player starting edge; off the table, the unit is lost (A44).
    A unit that falls back leaves any combat it was locked in (core §9.1, §9.3)."""
    unlock_all(st, g, p)
    st.ustate[g, p, US_FALLING_BACK] = 1
    distance = sum_d6(rng, g, 2)
    log_event(st, g, EK_FALL_BACK, p, -1, distance, 0, 0)
    if st.pos[g, p, 1] - distance < 0.0:
        before = alive(st, g, p)
        for m in range(st.wounds.shape[2]):
            st.wounds[g, p, m] = 0
        touch(st, g, p)
        after_attack(st, g, p, -1, before, tb, rng)
        return
    ax, ay = st.pos[g, p, 0], st.pos[g, p, 1]
    move_towards(st.pos, st.radius[g], st.ustate, g, p, st.pos[g, p, 0], -1.0e3, float(distance), -1, 0.0, tb.prm,
                 st.w_near)
    dangerous_terrain(st, g, p, ax, ay, tb, rng)  # not slowed by difficult terrain (core §9.3)


@njit
def begin_shooting_phase(st, g, tb):
    """Count every squad's models at the start of a Shooting phase (core §6.1 step 6)."""
    for p in range(n_players(tb)):
        st.ustate[g, p, US_PHASE_MODELS] = alive(st, g, p) if on_table(st, g, p) else 0
        st.ustate[g, p, US_PIN_HIT] = 0


@njit
def end_shooting_phase(st, g, tb, rng):
    """At the end of a Shooting phase each squad that lost 25% of the models it had at its
    start tests Morale, one hit by a Pinning weapon tests Pinning (core §6.1 step 6, §9.4)."""
    for p in range(n_players(tb)):
        before = st.ustate[g, p, US_PHASE_MODELS]
        leadership_after_shooting(st, g, p, before, st.ustate[g, p, US_PIN_HIT] != 0, tb, rng)
        st.ustate[g, p, US_PHASE_MODELS] = 0
        st.ustate[g, p, US_PIN_HIT] = 0


@njit
def leadership_after_shooting(st, g, v, before, pinning, tb, rng):
    """core §6.1 step 6 and §9.4: a squad that lost 25% of its models in the phase tests
    Morale (fail: falls back); one hit by a Pinning weapon tests Ld (fail: Goes to Ground)."""
    if not on_table(st, g, v) or before <= 0:
        return
    if 4 * (before - alive(st, g, v)) >= before and not morale_check(st, g, v, 0, tb, rng):
        fall_back(st, g, v, tb, rng)
    elif pinning and on_table(st, g, v) and not morale_check(st, g, v, 0, tb, rng):
        st.ustate[g, v, US_PINNED] = 1


BLIND_PENDING, BLIND_THIS_TURN = 1, 2  # US_BLINDED: blinded, its next turn not begun / under way


@njit
def blind_turn_starts(st, g, u):
    """The unit's turn begins (a player's turn for a squad, the Zombie Turn for zombies): a
    blindness from before it lasts until this turn's end."""
    if st.ustate[g, u, US_BLINDED] == BLIND_PENDING:
        st.ustate[g, u, US_BLINDED] = BLIND_THIS_TURN


@njit
def blind_turn_ends(st, g, u):
    if st.ustate[g, u, US_BLINDED] == BLIND_THIS_TURN:
        st.ustate[g, u, US_BLINDED] = 0


@njit
def blind_tests(st, g, rng):
    """Blind (core §12): each unit hit by it this phase takes an Initiative test (D6 <= I; a 6
    fails, a 1 passes); a fail makes it WS 1 and BS 1 until the end of its next turn
    (``blind_turn_starts`` / ``blind_turn_ends``)."""
    for u in range(st.pos.shape[1]):
        if st.ustate[g, u, US_BLIND_HIT] == 0:
            continue
        st.ustate[g, u, US_BLIND_HIT] = 0
        if not on_table(st, g, u):
            continue
        die = d6(rng, g)
        if die == 6 or (die > 1 and die > majority_stat(st, g, u, I)):
            st.ustate[g, u, US_BLINDED] = BLIND_PENDING
