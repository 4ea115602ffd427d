"""Noise (zombie-apocalypse §9.2-§9.3): zombies that gunfire, psychic powers, re-rolls and long
moves attract, and where they come on.

The amounts are pure helpers on rolled dice (``noise_of_weapon`` takes the stream only to roll its
D3s); a unit's noise of a phase is summed in ``GameState.w_noise`` and placed at the end of the phase
(overwatch noise: as soon as the charge is resolved) as one batch on the table edge closest to the
unit, as close to it as a legal spot allows, wholly within 3" of that edge (§9.2).
"""

from __future__ import annotations

from kernels.apocalypse.columns import (
    EK_NOISE,
    G_HELD,
    P_BASE_R,
    P_BIKE_NOISE_ADD,
    P_BIKE_NOISE_D3,
    P_EDGE_BAND,
    P_EXCHANGE_ALL,
    P_GRENADE_QUIET,
    P_INF_NOISE_PER,
    P_JUMP_NOISE_ADD,
    P_JUMP_NOISE_D3,
    P_NOISE6_IN,
    P_NOISE12_IN,
    P_NOISE_ASSAULT,
    P_NOISE_HEAVY_BONUS,
    P_NOISE_HEAVY_D3,
    P_NOISE_PISTOL,
    P_NOISE_PSY_UNTYPED,
    P_NOISE_RAPID_D3,
    P_NOISE_REROLL_D3,
    P_NOISE_TEMPLATE,
    P_OVER12_ADD,
    P_OVER12_D3,
    P_PSY_FULL,
    P_SALVO_HEAVY,
    P_TABLE,
    P_VEHICLE_NOISE_ADD,
    P_VEHICLE_NOISE_D3,
    P_Z_SPACING,
    PR_NOISE,
    R_SP0,
    SRC_ASSAULT,
    SRC_HEAVY,
    SRC_MOVEMENT,
    SRC_PISTOL,
    SRC_RAPID_FIRE,
    SRC_TEMPLATE,
    US_ALIVE,
    US_NOISE6,
    US_NOISE12,
    US_OWNER,
    US_TYPE,
    UT_BIKE,
    UT_JET_PACK,
    UT_JETBIKE,
    UT_JUMP,
    UT_TRANSPORT,
    UT_WALKER,
)
from kernels.apocalypse.geometry import along_edge, disc_radius, edge_point, gap, nearest_edge
from kernels.apocalypse.hordes import merge_hordes, spawn_batch
from kernels.apocalypse.trace import log_event
from kernels.dice import d3
from kernels.jit import njit
from kernels.w40k.columns import (
    K_ASSAULT,
    K_GRENADE,
    K_HEAVY,
    K_MELEE,
    K_PISTOL,
    K_RAPID_FIRE,
    K_SALVO,
    W_KIND,
    W_TEMPLATE,
)

# ------------------------------------------------------------------ amounts (§9.3)


@njit
def roll_d3s(rng, g, n):
    total = 0
    for _ in range(n):
        total += d3(rng, g)
    return total


@njit
def weapon_source(kind, template, salvo_as_heavy):
    """The noise line of a weapon: its type, or Template (type + 4). Salvo weapons are not in the
    seed's table: Heavy by default (``salvo_as_heavy``), else Rapid Fire; grenades are Assault 1."""
    if template:
        return SRC_TEMPLATE
    if kind == K_PISTOL:
        return SRC_PISTOL
    if kind == K_RAPID_FIRE or (kind == K_SALVO and not salvo_as_heavy):
        return SRC_RAPID_FIRE
    if kind == K_HEAVY or kind == K_SALVO:
        return SRC_HEAVY
    if kind == K_ASSAULT or kind == K_GRENADE:
        return SRC_ASSAULT
    return -1


@njit
def type_noise(rng, g, kind, salvo_as_heavy, tb):
    """Zombies a weapon of ``kind`` attracts when fired (§9.3): Pistol 1, Assault 2, Rapid Fire
    D3, Heavy 2D3 + N."""
    if kind == K_PISTOL:
        return int(tb.prm[P_NOISE_PISTOL])
    if kind == K_RAPID_FIRE or (kind == K_SALVO and not salvo_as_heavy):
        return roll_d3s(rng, g, int(tb.prm[P_NOISE_RAPID_D3]))
    if kind == K_HEAVY or kind == K_SALVO:
        return roll_d3s(rng, g, int(tb.prm[P_NOISE_HEAVY_D3])) + int(tb.prm[P_NOISE_HEAVY_BONUS])
    if kind == K_ASSAULT or kind == K_GRENADE:
        return int(tb.prm[P_NOISE_ASSAULT])
    return 0


@njit
def noise_of_weapon(rng, g, weapon, tb):
    """(zombies, source) one weapon attracts by firing (§9.3; a template: its type's amount + 4). A
    thrown grenade is Assault 1 (catalogue §3.2): Assault noise, or none with ``P_GRENADE_QUIET``."""
    kind = weapon[W_KIND]
    if kind == K_MELEE or (kind == K_GRENADE and tb.prm[P_GRENADE_QUIET] != 0):
        return 0, -1  # grenade_noise = "none": a grenade is thrown, not fired
    salvo_heavy = tb.prm[P_SALVO_HEAVY] != 0
    amount = type_noise(rng, g, kind, salvo_heavy, tb)
    template = weapon[W_TEMPLATE] != 0
    if template:
        amount += int(tb.prm[P_NOISE_TEMPLATE])
    return amount, weapon_source(kind, template, salvo_heavy)


@njit
def reroll_noise(rng, g, tb):
    """+D3 for a unit that re-rolled to-hit rolls in the phase (§9.3, Shhh!)."""
    return roll_d3s(rng, g, int(tb.prm[P_NOISE_REROLL_D3]))


@njit
def psychic_noise(rng, g, kind, typed, tb):
    """A psychic power cast: half the amount of its weapon type, rounded up (A19; the whole amount
    with ``P_PSY_FULL``); a power with no weapon type: 2."""
    if not typed:
        return int(tb.prm[P_NOISE_PSY_UNTYPED])
    amount = type_noise(rng, g, kind, tb.prm[P_SALVO_HEAVY] != 0, tb)
    return amount if tb.prm[P_PSY_FULL] != 0 else (amount + 1) // 2


@njit
def overwatch_noise(total):
    """Overwatch: half of the total of the unit's spawn rolls, rounded up (§6, §9.3)."""
    return (total + 1) // 2


@njit
def infantry_noise(models_over, per):
    """Infantry that moved more than 6": 1 zombie per 2 such models, halves rounded up (§9.3, A17)."""
    return -(-models_over // per)


@njit
def movement_noise(rng, g, unit_type, moved, n_models, done6, done12, tb):
    """(zombies, over-6 counted, over-12 counted) for a unit that moved ``moved`` inches this turn;
    each threshold makes noise once a turn (A17)."""
    total = 0
    over6 = moved > tb.prm[P_NOISE6_IN] + 1e-9
    over12 = moved > tb.prm[P_NOISE12_IN] + 1e-9
    if over6 and not done6:
        if unit_type == UT_BIKE or unit_type == UT_JETBIKE:
            total += roll_d3s(rng, g, int(tb.prm[P_BIKE_NOISE_D3])) + int(tb.prm[P_BIKE_NOISE_ADD])
        elif unit_type == UT_WALKER or unit_type == UT_TRANSPORT:  # apocalypse §9.3: a vehicle 2D3 + 3
            total += roll_d3s(rng, g, int(tb.prm[P_VEHICLE_NOISE_D3])) + int(tb.prm[P_VEHICLE_NOISE_ADD])
        elif unit_type == UT_JUMP or unit_type == UT_JET_PACK:
            total += roll_d3s(rng, g, int(tb.prm[P_JUMP_NOISE_D3])) + int(tb.prm[P_JUMP_NOISE_ADD])
        else:
            total += infantry_noise(n_models, int(tb.prm[P_INF_NOISE_PER]))
    if over12 and not done12:
        total += roll_d3s(rng, g, int(tb.prm[P_OVER12_D3])) + int(tb.prm[P_OVER12_ADD])
    return total, over6 or done6, over12 or done12


# ------------------------------------------------------------------ making and placing noise


@njit
def make_noise(st, g, u, amount, source):
    """Unit u attracts ``amount`` zombies of ``source`` (placed at the end of the phase)."""
    if amount <= 0:
        return
    st.w_noise[u] += amount
    st.res[g, R_SP0 + source] += amount
    st.pres[g, st.ust[g, u, US_OWNER], PR_NOISE] += amount


@njit
def unit_movement_noise(rng, g, st, u, n_models, tb):
    """Movement noise of unit u after its moves this turn (§9.3, A17)."""
    amount, d6_, d12 = movement_noise(rng, g, st.ust[g, u, US_TYPE], st.umoved[g, u], n_models,
                                      st.ust[g, u, US_NOISE6] != 0, st.ust[g, u, US_NOISE12] != 0, tb)
    st.ust[g, u, US_NOISE6] = int(d6_)
    st.ust[g, u, US_NOISE12] = int(d12)
    make_noise(st, g, u, amount, SRC_MOVEMENT)


@njit
def spot_is_free(st, g, x, y, r):
    """Zombies may be placed here: not within 1" of a player unit (core §3)."""
    for u in range(st.upos.shape[1]):
        if st.ust[g, u, US_ALIVE] != 0 and gap(x, y, r, st.upos[g, u, 0], st.upos[g, u, 1], st.urad[g, u]) < 1.0:
            return False
    return True


@njit
def edge_spot(st, g, edge, along, count, tb):
    """(found, x, y): the legal spot wholly within 3" of ``edge`` nearest to ``along`` (§9.2)."""
    r = disc_radius(count, tb.prm[P_BASE_R], tb.prm[P_Z_SPACING])
    inset = max(tb.prm[P_BASE_R], min(r, tb.prm[P_EDGE_BAND] - tb.prm[P_BASE_R]))
    side = int(tb.prm[P_TABLE])
    for step in range(2 * side + 1):
        offset = (step + 1) // 2 * (1 if step % 2 == 1 else -1)
        a = along + offset
        if a < 0.0 or a > side:
            continue
        x, y = edge_point(edge, a, inset, tb.prm)
        if spot_is_free(st, g, x, y, r):
            return True, x, y
    return False, 0.0, 0.0


@njit
def place_near_unit(st, g, u, count, source, tb, phase):
    """Noise of unit u comes on at the closest table edge, as close to u as possible (§9.2)."""
    edge, _ = nearest_edge(st.upos[g, u, 0], st.upos[g, u, 1], tb.prm)
    found, x, y = edge_spot(st, g, edge, along_edge(edge, st.upos[g, u, 0], st.upos[g, u, 1]), count, tb)
    if not found:
        st.gst[g, G_HELD] += count  # held back until a later zombie Movement phase (§9.1)
        return -1
    log_event(st, g, phase, EK_NOISE, u, count, source, x, y)
    return spawn_batch(st, g, x, y, count, -1, tb.prm[P_EXCHANGE_ALL] != 0, tb, phase)


@njit
def place_phase_noise(st, g, tb, phase):
    """End of a phase: every unit's noise comes on, then hordes within 2" merge (§9.3, A26)."""
    placed = False
    for u in range(st.w_noise.shape[0]):
        if st.w_noise[u] > 0:
            place_near_unit(st, g, u, st.w_noise[u], -1, tb, phase)
            st.w_noise[u] = 0
            placed = True
    if placed:
        merge_hordes(st, g, tb)
