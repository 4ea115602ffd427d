"""Power-Ups (zombie40k §8): the 2D6 table, the leader catch-up and each result's effect.

A squad rolls when its attack removes the last model of a zombie horde, and after it
respawns. The squad furthest from the Escape Vehicle may instead roll twice and keep one, or
push the squad closest to the EV D6" back (A28: default push when that squad is within the
18" zone, else roll twice and keep the one its ``pu_value`` ranks higher).
"""

from __future__ import annotations

from kernels.dice import sum_d6
from kernels.jit import njit
from kernels.w40k.columns import BS, K_MELEE, N_STATS, W_BLAST, W_KIND, W_SHOTS, W_TEMPLATE, A, W
from kernels.w40k.geometry import norm, ray_circle
from kernels.zombie40k.choices import coin, plays_random
from kernels.zombie40k.columns import (
    BANANA,
    BILE,
    CHAINSAW,
    CHUCK,
    DEFIB,
    DUCT_TAPE,
    EK_POWERUP,
    EK_PUSHBACK,
    G_RANGED0,
    MEDPACK,
    MP_CHAINSAW,
    MP_DUCT_ATTACK,
    MP_DUCT_SHOT,
    MP_SHOTGUN,
    MUSHROOM,
    ORK_BOY,
    P_CATCHUP,
    P_COOP,
    P_POWERUPS,
    P_PU_REMOVED,
    P_PUSH_N,
    P_PUSH_THROUGH,
    P_PVP_ZONE,
    P_TABLE_L,
    P_TABLE_W,
    POL_DEFIB,
    POL_DUCT,
    PR_POWERUP0,
    PU_BANANA,
    PU_BILE,
    PU_CHUCK,
    PU_DEFIBS,
    PU_MEDPACK_ANY,
    PU_MEDPACKS,
    PU_MUSHROOM,
    PU_SHADES,
    R_TURNS,
    SHADES,
    SHOTGUN,
)
from kernels.zombie40k.geometry import ev_distance, ev_nearest_point, ray_box_exit
from kernels.zombie40k.spawning import furthest_squad, roll_expr_prm
from kernels.zombie40k.state import X_ORK_BOY
from kernels.zombie40k.units import log_event, n_players, note_ev_zone, on_table, refresh_radius, touch


@njit
def _leader(st, g, tb):
    best, best_d = -1, 1e18
    for p in range(n_players(tb)):
        if on_table(st, g, p):
            d = ev_distance(st.pos[g, p, 0], st.pos[g, p, 1], st.radius[g, p], tb.prm)
            if d < best_d:
                best, best_d = p, d
    return best, best_d


@njit
def is_furthest(st, g, p, tb):
    """Squad p is the furthest from the EV (a tie counts for each tied squad, A28, A45)."""
    mine = ev_distance(st.pos[g, p, 0], st.pos[g, p, 1], st.radius[g, p], tb.prm)
    q = furthest_squad(st, g, tb)
    other = ev_distance(st.pos[g, q, 0], st.pos[g, q, 1], st.radius[g, q], tb.prm)
    return q >= 0 and mine >= other - 0.1


@njit
def roll_powerup(st, g, p, tb, rng):
    """Squad p rolls on the Power-Up table (or takes the catch-up alternative)."""
    if tb.prm[P_POWERUPS] == 0 or not on_table(st, g, p):
        return
    if tb.prm[P_COOP] == 0 and n_players(tb) > 1 and is_furthest(st, g, p, tb):
        leader, leader_d = _leader(st, g, tb)
        policy = int(tb.prm[P_CATCHUP])
        push = policy == 2 or (policy == 0 and leader_d <= tb.prm[P_PVP_ZONE])
        if push and leader >= 0 and leader != p:
            push_back(st, g, leader, roll_expr_prm(rng, g, tb.prm, P_PUSH_N), tb)
            return
        first, second = sum_d6(rng, g, 2), sum_d6(rng, g, 2)
        _take_powerup(st, g, p, first if tb.pu_value[first] >= tb.pu_value[second] else second, tb, rng)
        return
    _take_powerup(st, g, p, sum_d6(rng, g, 2), tb, rng)


@njit
def _take_powerup(st, g, p, result, tb, rng):
    """Apply the result; a random player (kernels.zombie40k.choices) picks the use of Duct Tape
    (+1 shot or +1 Attack) and of a Defibrillator (revive or Medpack) on a coin."""
    choice = -1
    if plays_random(tb, p) and (result == DUCT_TAPE or result == DEFIB):
        choice = coin(rng, g)
    apply_chosen(st, g, p, result, tb, choice)


@njit
def push_back(st, g, q, inches, tb):
    """Move squad q (and the zombies locked with it) straight away from the EV (A28)."""
    note_ev_zone(st, g, q, tb)  # where it had come to counts for Coop Mode's trigger (§10.1)
    ex, ey = ev_nearest_point(st.pos[g, q, 0], st.pos[g, q, 1], tb.prm)
    dx, dy = st.pos[g, q, 0] - ex, st.pos[g, q, 1] - ey
    length = norm(dx, dy)
    if length < 1e-9:
        dx, dy, length = 0.0, -1.0, 1.0
    ux, uy = dx / length, dy / length
    if tb.prm[P_PUSH_THROUGH] == 0:
        inches = min(float(inches), _group_travel(st, g, q, ux, uy, tb))
    dx, dy = ux * inches, uy * inches
    _shift(st, g, q, dx, dy, tb)
    for v in range(st.pos.shape[1]):
        if st.locked[g, q, v]:
            _shift(st, g, v, dx, dy, tb)
    log_event(st, g, EK_PUSHBACK, q, -1, inches, st.pos[g, q, 0], st.pos[g, q, 1])


@njit
def _in_group(st, g, q, v):
    return v == q or st.locked[g, q, v] != 0


@njit
def _group_travel(st, g, q, ux, uy, tb):
    """How far squad q and the units locked with it may move together along (ux, uy): stopping
    1" short of every other unit (A28), on the table, off the Escape Vehicle."""
    t = 1e18
    for u in range(st.pos.shape[1]):
        if not _in_group(st, g, q, u) or not on_table(st, g, u):
            continue
        px, py, ru = st.pos[g, u, 0], st.pos[g, u, 1], st.radius[g, u]
        t = min(t, ray_box_exit(px, py, ux, uy, ru, tb.prm[P_TABLE_W] - ru, ru, tb.prm[P_TABLE_L] - ru))
        for v in range(st.pos.shape[1]):
            if not _in_group(st, g, q, v) and on_table(st, g, v):
                t = min(t, ray_circle(px, py, ux, uy, st.pos[g, v, 0], st.pos[g, v, 1], ru + st.radius[g, v] + 1.0))
    return max(0.0, t)


@njit
def _shift(st, g, u, dx, dy, tb):
    r = st.radius[g, u]
    st.pos[g, u, 0] = min(max(st.pos[g, u, 0] + dx, r), tb.prm[P_TABLE_W] - r)
    st.pos[g, u, 1] = min(max(st.pos[g, u, 1] + dy, r), tb.prm[P_TABLE_L] - r)


@njit
def apply_powerup(st, g, p, result, tb):
    """The effect of Power-Up table result 2-12 on squad p (zombie40k §8), used as the policy says."""
    apply_chosen(st, g, p, result, tb, -1)


@njit
def apply_chosen(st, g, p, result, tb, choice):
    """The effect of Power-Up table result 2-12 on squad p (zombie40k §8); a result taken off
    the table (ablation, ``powerups_removed``) gives nothing. ``choice``: the use of Duct Tape
    (POL_DUCT) or of a Defibrillator (POL_DEFIB), -1: the policy's."""
    if (int(tb.prm[P_PU_REMOVED]) >> result) & 1:
        return
    st.pres[g, p, PR_POWERUP0 + result] += 1
    log_event(st, g, EK_POWERUP, p, -1, result, 0, 0)
    turn = st.res[g, R_TURNS]
    pu = st.pu[g, p]
    if result == BILE:
        pu[PU_BILE] = 1
    elif result == BANANA:
        pu[PU_BANANA] = turn + 1
    elif result == ORK_BOY:
        add_ork_boy(st, g, p, tb)
    elif result == DUCT_TAPE:
        _duct_tape(st, g, p, tb.policy[p, POL_DUCT] if choice < 0 else choice, tb)
    elif result == CHAINSAW:
        _give_model(st, g, p, MP_CHAINSAW, _most_attacks(st, g, p, MP_CHAINSAW))
    elif result == MEDPACK:
        pu[PU_MEDPACKS] += 1
    elif result == SHOTGUN:
        _give_model(st, g, p, MP_SHOTGUN, _worst_shot(st, g, p))
    elif result == MUSHROOM:
        pu[PU_MUSHROOM] = 1  # a squad may hold at most one
    elif result == DEFIB:  # counts as a Medpack, or revives a model (policy, A33)
        medpack = tb.policy[p, POL_DEFIB] == 1 if choice < 0 else choice == 1
        pu[PU_MEDPACKS if medpack else PU_DEFIBS] += 1
    elif result == SHADES:
        pu[PU_SHADES] = 1
    elif result == CHUCK:
        pu[PU_CHUCK] = turn + 1


@njit
def _give_model(st, g, p, bit, m):
    if m >= 0:
        st.mpow[g, p, m] |= bit


@njit
def add_ork_boy(st, g, p, tb):
    """Ork Boy Tag-Along: one more model in the first empty slot (none if the squad is full)."""
    for m in range(st.wounds.shape[2]):
        if st.wounds[g, p, m] == 0 and tb.squad_wounds[p, m] == 0:
            st.wounds[g, p, m] = tb.extra_stats[X_ORK_BOY, W]
            st.mflags[g, p, m] = tb.extra_flags[X_ORK_BOY]
            st.mpow[g, p, m] = 0
            for k in range(N_STATS):
                st.stats[g, p, m, k] = tb.extra_stats[X_ORK_BOY, k]
            for k in range(st.gear.shape[3]):
                st.gear[g, p, m, k] = tb.extra_gear[X_ORK_BOY, k]
            touch(st, g, p)
            refresh_radius(st, g, p, tb)
            return


@njit
def _most_attacks(st, g, p, without):
    best, best_a = -1, -1
    for m in range(st.wounds.shape[2]):
        if st.wounds[g, p, m] > 0 and not st.mpow[g, p, m] & without and st.stats[g, p, m, A] > best_a:
            best, best_a = m, st.stats[g, p, m, A]
    return best


@njit
def _worst_shot(st, g, p):
    """The living model without a shotgun with the lowest BS (it gains the most)."""
    best, best_bs = -1, 99
    for m in range(st.wounds.shape[2]):
        if st.wounds[g, p, m] > 0 and not st.mpow[g, p, m] & MP_SHOTGUN and st.stats[g, p, m, BS] < best_bs:
            best, best_bs = m, st.stats[g, p, m, BS]
    return best


@njit
def _duct_tape(st, g, p, use, tb):
    """+1 shot on the model with the most shots of a weapon that can take one (A31), or +1
    Attack (``use`` 1, policy POL_DUCT, or no such weapon)."""
    if use == 0:
        best, best_shots = -1, 0
        for m in range(st.wounds.shape[2]):
            w = st.gear[g, p, m, G_RANGED0]
            if st.wounds[g, p, m] > 0 and w >= 0 and not st.mpow[g, p, m] & MP_DUCT_SHOT:
                row = tb.weapons[w]
                if row[W_TEMPLATE] == 0 and row[W_BLAST] == 0 and row[W_KIND] != K_MELEE and row[W_SHOTS] > best_shots:
                    best, best_shots = m, row[W_SHOTS]
        if best >= 0:
            st.mpow[g, p, best] |= MP_DUCT_SHOT
            return
    _give_model(st, g, p, MP_DUCT_ATTACK, _most_attacks(st, g, p, MP_DUCT_ATTACK))


@njit
def lend_defibrillators(st, g, p, tb):
    """A Defibrillator kept for reviving (defibrillator = 0) also counts as a Medpack (zombie40k §8
    result 10): while squad p is attacked its Defibrillators join its Medpacks (spent after them,
    ``settle_defibrillators``), on a wound that would remove a model only. Returns how many."""
    if p >= n_players(tb) or tb.policy[p, POL_DEFIB] != 0 or st.pu[g, p, PU_MEDPACK_ANY] != 0:
        return 0
    lent = st.pu[g, p, PU_DEFIBS]
    st.pu[g, p, PU_MEDPACKS] += lent
    return lent


@njit
def settle_defibrillators(st, g, p, lent):
    """After the attack: the Medpacks were spent first, the rest of what was spent came from the
    Defibrillators lent."""
    if lent <= 0:
        return
    pool = st.pu[g, p, PU_MEDPACKS]
    st.pu[g, p, PU_DEFIBS] = min(lent, pool)
    st.pu[g, p, PU_MEDPACKS] = pool - min(lent, pool)


@njit
def chuck_active(st, g, p):
    return st.pu[g, p, PU_CHUCK] >= st.res[g, R_TURNS]


@njit
def lose_powerups(st, g, p):
    """A wiped-out squad loses every power-up it held (zombie40k §8)."""
    for k in range(st.pu.shape[2]):
        st.pu[g, p, k] = 0

