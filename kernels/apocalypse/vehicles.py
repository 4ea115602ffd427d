"""Vehicles in play: walkers (zombie-apocalypse §2, §7, §8, §10; the 7th-edition core V1-V10 of
docs/apocalypse.md, "Vehicles (7th-edition core)" and "Vehicles in play").

A vehicle is a unit of one model (``MI_VEHICLE`` of its slot 0): its Wounds slot holds its Hull
Points, its profile its WS, BS, S, I and A (a Walker fights as a model, V7), ``MI_AV_*`` its Armour
Values. Zombies strike a Walker's front armour (V7) at their Strength with the Hordes bonus (V9):
each hit rolls armour penetration and the damage table in ``kernels.w40k.vehicles`` (V3-V5) and
its result is applied here. A spawner's aura or death blast takes a Hull Point without a damage roll
(§10). Crew Shaken and Crew Stunned (and the aura) last to the end of the vehicle's next turn: the
game turn of that players' turn is kept (``MI_SNAP_UNTIL``, ``MI_STUN_UNTIL``). In a traced game every
Hull Point lost, damage result and wreck is an ``EK_VEHICLE`` event (no dice: untraced games are untouched).
"""

from __future__ import annotations

import math

from kernels.apocalypse.columns import (
    EK_VEHICLE,
    G_ACTIVE,
    G_FIRST,
    G_TURN,
    MI_AV_FRONT,
    MI_HP_LOST,
    MI_LAST_MOVE,
    MI_OPEN_TOPPED,
    MI_OWNER,
    MI_REPAIRS,
    MI_SNAP_UNTIL,
    MI_STUN_UNTIL,
    MI_VEHICLE,
    MI_VSTATUS,
    P_ASSAULT_ALL4,
    PH_ASSAULT,
    PH_Z_ASSAULT,
    POL_TRAIT,
    PR_HULL_LOST,
    PR_VEHICLES_LOST,
    SIDE_PLAYERS,
    TRAIT_DEFENCE,
    VEV_HULL,
    VEV_WRECKED,
    VK_NONE,
    VK_TRANSPORT,
    VST_EXPLODED,
    VST_IMMOBILISED,
    VST_WRECKED,
)
from kernels.apocalypse.trace import log_event
from kernels.jit import njit
from kernels.w40k import vehicles as V
from kernels.w40k.columns import K_MELEE, W_KIND
from kernels.w40k.combat import clear_out

FRONT, SIDE, REAR = 0, 1, 2  # facings: MI_AV_FRONT + facing
MOD_ARMOUR = 1  # §7 Master of Defence: +1 Armour Value on all facings [V]
ARMOUR_CAP = 14  # the highest Armour Value of the core (V1)


@njit
def is_vehicle(st, g, u):
    """Unit u is a vehicle (a unit of one vehicle model, slot 0)."""
    return st.minfo[g, u, 0, MI_VEHICLE] != VK_NONE


@njit
def next_players_turn(st, g):
    """The game turn of the players' next turn ("until the end of its next turn", V5; §10 "its next
    Shooting phase"): the next game turn during the players' own turn or if they went first, else
    this one (the zombies went first and the players' turn is still to come)."""
    t = st.gst[g, G_TURN]
    if st.gst[g, G_ACTIVE] == SIDE_PLAYERS or st.gst[g, G_FIRST] == SIDE_PLAYERS:
        return t + 1
    return t


@njit
def is_transport(st, g, u):
    """Unit u is a Dedicated Transport (a vehicle that is not a Walker, V7)."""
    return st.minfo[g, u, 0, MI_VEHICLE] == VK_TRANSPORT


@njit
def keep_last_moves(st, g):
    """Before the zombies' turn clears the turn's moves: each vehicle keeps the inches it moved in
    the players' turn (rounded up) for V7's close combat hits."""
    for u in range(st.ust.shape[1]):
        if is_vehicle(st, g, u):
            st.minfo[g, u, 0, MI_LAST_MOVE] = int(math.ceil(st.umoved[g, u] - 1e-9))


@njit
def assault_hit_on(st, g, u, tb):
    """V7: the D6 a close combat attack needs to hit a vehicle that is not a Walker, by its last move
    (``vehicle_assault_hits = "auto_4_6"``: did not move automatic (1), up to 6" 4+, more 6+;
    ``"all_4"``: 4+). Its last move: this players' turn's in their turn, else the one kept."""
    if tb.prm[P_ASSAULT_ALL4] != 0:
        return 4
    moved = st.umoved[g, u] if st.gst[g, G_ACTIVE] == SIDE_PLAYERS else float(st.minfo[g, u, 0, MI_LAST_MOVE])
    if moved <= 1e-9:
        return 1
    return 4 if moved <= 6.0 + 1e-9 else 6


@njit
def snap_only(st, g, u):
    """Crew Shaken / Stunned or a spawner's aura: the vehicle fires only Snap Shots this turn (V5, §10)."""
    return is_vehicle(st, g, u) and st.gst[g, G_TURN] <= st.minfo[g, u, 0, MI_SNAP_UNTIL]


@njit
def may_move(st, g, u):
    """A vehicle that is Immobilised (V5) or Crew Stunned this turn does not move."""
    if not is_vehicle(st, g, u):
        return True
    if (st.minfo[g, u, 0, MI_VSTATUS] & VST_IMMOBILISED) != 0:
        return False
    return st.gst[g, G_TURN] > st.minfo[g, u, 0, MI_STUN_UNTIL]


@njit
def master_of_defence(st, g, u, tb):
    """§7 Master of Defence: while the Warlord lives and can repair vehicles, every vehicle of his
    detachment has +1 Armour Value on all facings."""
    p = st.minfo[g, u, 0, MI_OWNER]
    wu, wm = st.wl_unit[g, p], st.wl_slot[g, p]
    if wu < 0 or wm < 0 or tb.policy[p, POL_TRAIT] != TRAIT_DEFENCE:
        return False
    return st.wounds[g, wu, wm] > 0 and st.minfo[g, wu, wm, MI_REPAIRS] != 0


@njit
def armour(st, g, u, facing, tb):
    """The Armour Value of a facing (0 front, 1 side, 2 rear) in play (Master of Defence applied)."""
    av = st.minfo[g, u, 0, MI_AV_FRONT + facing]
    if master_of_defence(st, g, u, tb):
        av = min(ARMOUR_CAP, av + MOD_ARMOUR)
    return av


@njit
def lose_hull_points(st, g, u, n):
    """The vehicle loses ``n`` Hull Points; at 0 it is wrecked (V4). Returns the Hull Points lost."""
    left = st.wounds[g, u, 0]
    lost = min(n, left)
    if lost <= 0:
        return 0
    st.wounds[g, u, 0] = left - lost
    st.minfo[g, u, 0, MI_HP_LOST] += lost
    p = st.minfo[g, u, 0, MI_OWNER]
    st.pres[g, p, PR_HULL_LOST] += lost
    _log(st, g, u, VEV_HULL, lost)
    if st.wounds[g, u, 0] == 0:
        wreck(st, g, u)
    return lost


@njit
def _log(st, g, u, what, lost):
    """The trace's EK_VEHICLE event (a no-op unless game g is traced), told in the active side's
    assault phase (a spawner's aura, in the zombie movement, reads as the zombies' turn)."""
    phase = PH_ASSAULT if st.gst[g, G_ACTIVE] == SIDE_PLAYERS else PH_Z_ASSAULT
    log_event(st, g, phase, EK_VEHICLE, u, what, st.wounds[g, u, 0], float(lost), 0.0)


@njit
def wreck(st, g, u):
    st.wounds[g, u, 0] = 0
    if (st.minfo[g, u, 0, MI_VSTATUS] & VST_WRECKED) == 0:
        st.minfo[g, u, 0, MI_VSTATUS] |= VST_WRECKED
        st.pres[g, st.minfo[g, u, 0, MI_OWNER], PR_VEHICLES_LOST] += 1
        _log(st, g, u, VEV_WRECKED, 0)


@njit
def destroy_weapon(st, g, u, tb):
    """Weapon Destroyed (V5): the zombies' side picks - its first gun still working, else its first
    close combat weapon; none left: False (the result becomes Immobilised)."""
    for want_gun in (True, False):
        for k in range(st.gear.shape[3]):
            w = st.gear[g, u, 0, k]
            if w < 0:
                continue
            if (tb.weapons[w, W_KIND] != K_MELEE) == want_gun:
                st.gear[g, u, 0, k] = -1
                return True
    return False


@njit
def apply_damage(st, g, u, result, tb):
    """A damage result on vehicle u (V5). Returns True for Explodes! (the caller resolves the blast,
    V10). Immobilised on an Immobilised vehicle costs one more Hull Point (the 7th-edition core)."""
    if result == V.DMG_CREW_SHAKEN:
        st.minfo[g, u, 0, MI_SNAP_UNTIL] = max(st.minfo[g, u, 0, MI_SNAP_UNTIL], next_players_turn(st, g))
    elif result == V.DMG_CREW_STUNNED:
        t = next_players_turn(st, g)
        st.minfo[g, u, 0, MI_SNAP_UNTIL] = max(st.minfo[g, u, 0, MI_SNAP_UNTIL], t)
        st.minfo[g, u, 0, MI_STUN_UNTIL] = max(st.minfo[g, u, 0, MI_STUN_UNTIL], t)
    elif result == V.DMG_WEAPON_DESTROYED:
        if not destroy_weapon(st, g, u, tb):
            immobilise(st, g, u)
    elif result == V.DMG_IMMOBILISED:
        immobilise(st, g, u)
    elif result == V.DMG_EXPLODES:
        st.minfo[g, u, 0, MI_VSTATUS] |= VST_EXPLODED
        lose_hull_points(st, g, u, st.wounds[g, u, 0])
        return True
    return False


@njit
def immobilise(st, g, u):
    if (st.minfo[g, u, 0, MI_VSTATUS] & VST_IMMOBILISED) != 0:
        lose_hull_points(st, g, u, 1)
    else:
        st.minfo[g, u, 0, MI_VSTATUS] |= VST_IMMOBILISED


@njit
def strike_vehicle(rng, g, st, u, n_dice, hit_on, strength, ap, rending, armourbane, facing, tb):
    """``n_dice`` close combat attacks at vehicle u's ``facing`` (V7: a Walker's front), each hit
    rolled for armour penetration and, if penetrating, on the damage table (V3-V5) through
    ``kernels.w40k.vehicles``. Returns (Hull Points lost, exploded)."""
    vspec, vout = st.w_vspec, st.w_vout
    clear_out(vout)
    V.vehicle_spec(vspec, hit_on, False, min(10, strength), armour(st, g, u, facing, tb), ap, False, armourbane,
                   rending, False, False, st.minfo[g, u, 0, MI_OPEN_TOPPED] != 0)
    start, exploded = st.wounds[g, u, 0], False
    for _ in range(n_dice):
        if st.wounds[g, u, 0] <= 0:
            break
        if not V.roll_hit(rng, g, vspec[V.VS_HIT_ON], vspec[V.VS_HIT_REROLL]):
            continue
        vout[V.VO_HITS] += 1
        before = vout[V.VO_HULL_POINTS]
        result = V.resolve_vehicle_hit(rng, g, vspec, tb.v_ap_mods, tb.v_damage, vout)
        lose_hull_points(st, g, u, vout[V.VO_HULL_POINTS] - before)
        if result != V.DMG_NONE and st.wounds[g, u, 0] > 0 and apply_damage(st, g, u, result, tb):
            exploded = True
    return start - st.wounds[g, u, 0], exploded


@njit
def hull_point_without_roll(st, g, u):
    """§10: a spawner's death blast or aura takes one Hull Point, no roll on the damage table."""
    return lose_hull_points(st, g, u, 1)


@njit
def aura_on_vehicle(st, g, u):
    """§10: the aura's automatic penetrating hit: 1 Hull Point without a damage roll, and Snap Shots
    in the vehicle's next Shooting phase. Returns True if it wrecked the vehicle (a spawner takes
    its place, §10)."""
    hull_point_without_roll(st, g, u)
    st.minfo[g, u, 0, MI_SNAP_UNTIL] = max(st.minfo[g, u, 0, MI_SNAP_UNTIL], next_players_turn(st, g))
    return st.wounds[g, u, 0] == 0
