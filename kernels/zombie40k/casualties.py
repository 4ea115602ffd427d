"""What happens when models die: tallies, wiped-out units, power-up rolls, grudges cleared."""

from __future__ import annotations

from kernels.jit import njit
from kernels.rng import d6
from kernels.w40k.attack_spec import automatic_wound_spec
from kernels.w40k.columns import MR_MOVE_THROUGH_COVER, OUT_KILLED, SP_AP
from kernels.w40k.combat import resolve_attacks
from kernels.zombie40k.columns import (
    EK_WIPE,
    P_BOSS_KILL_POWERUP,
    P_BOSS_RESPAWNS,
    P_COOP,
    P_COOP_NO_RESPAWN_RADIUS,
    P_GRUDGE,
    P_KF,
    P_KF_PER_KILL,
    PR_BOSS_KILLED,
    PR_HORDES_KILLED,
    PR_MODELS_LOST,
    PR_RIVALS_KILLED,
    PR_WIPES,
    PR_ZOMBIES_KILLED,
    US_BLINDED,
    US_KF_POINTS,
    US_OUT,
    US_WIPED_BY,
)
from kernels.zombie40k.geometry import ev_distance
from kernels.zombie40k.powerups import chuck_active, lose_powerups, roll_powerup
from kernels.zombie40k.state import W_DANGER
from kernels.zombie40k.terrain import crosses_terrain, has_terrain
from kernels.zombie40k.units import (
    alive,
    any_has,
    attacked,
    boss_unit,
    is_squad,
    log_event,
    refresh_radius,
    remove_unit,
)


@njit
def after_attack(st, g, v, u, alive_before, tb, rng):
    """Book the models unit u's attack removed from unit v; handle v being wiped out."""
    now = alive(st, g, v)
    lost = alive_before - now
    if lost <= 0:
        return
    if is_squad(v, tb):
        st.pres[g, v, PR_MODELS_LOST] += lost
    if u >= 0 and is_squad(u, tb):
        if is_squad(v, tb):
            st.pres[g, u, PR_RIVALS_KILLED] += lost
        else:
            st.pres[g, u, PR_ZOMBIES_KILLED] += lost
            if tb.prm[P_KF] != 0:
                st.ustate[g, u, US_KF_POINTS] += int(lost * tb.prm[P_KF_PER_KILL])
    if now == 0:  # measured as it stood, from its nearest model, as a sweep measures it (zombie40k §5.1, §10.1)
        wipe(st, g, v, u, tb, rng)
        return
    refresh_radius(st, g, v, tb)


@njit
def wipe(st, g, v, killer, tb, rng):
    """Unit v is wiped out; a horde's destroyer rolls for a power-up (zombie40k §8)."""
    x, y, r = st.pos[g, v, 0], st.pos[g, v, 1], st.radius[g, v]
    log_event(st, g, EK_WIPE, v, killer, x, y, 0)
    remove_unit(st, g, v)
    st.ustate[g, v, US_WIPED_BY] = killer + 1
    st.ustate[g, v, US_BLINDED] = 0  # the unit that comes back is not blind
    if is_squad(v, tb):
        _squad_wiped(st, g, v, x, y, r, tb)
        return
    if v == boss_unit(st):
        st.ustate[g, v, US_OUT] = 1 if tb.prm[P_BOSS_RESPAWNS] == 0 else 0
        if killer >= 0 and is_squad(killer, tb):
            st.pres[g, killer, PR_BOSS_KILLED] += 1
            if tb.prm[P_BOSS_KILL_POWERUP] != 0:
                roll_powerup(st, g, killer, tb, rng)
        return
    if killer >= 0 and is_squad(killer, tb):
        st.pres[g, killer, PR_HORDES_KILLED] += 1
        roll_powerup(st, g, killer, tb, rng)


@njit
def _squad_wiped(st, g, p, x, y, r, tb):
    st.pres[g, p, PR_WIPES] += 1
    lose_powerups(st, g, p)
    for q in range(st.grudge.shape[1]):
        if tb.prm[P_GRUDGE] == 0:  # A19 default: grudges end when either squad is wiped out
            st.grudge[g, p, q] = 0
            st.grudge[g, q, p] = 0
    if tb.prm[P_COOP] != 0 and ev_distance(x, y, r, tb.prm) <= tb.prm[P_COOP_NO_RESPAWN_RADIUS]:
        st.ustate[g, p, US_OUT] = 1  # Coop Mode: wiped out near the EV, out for good (§10.1)


@njit
def dangerous_terrain(st, g, u, ax, ay, tb, rng):
    """Unit u has moved from (ax, ay) to where it stands: if the move entered, left or crossed
    dangerous terrain each model tests, a 1 is a Wound with no armour or cover save
    (invulnerable saves and Feel No Pain allowed; Move Through Cover passes; core §5; zombies
    test too, A22). The Wounds go to the closest models (docs/space.md)."""
    if not has_terrain(tb) or any_has(st, g, u, MR_MOVE_THROUGH_COVER):
        return
    if not crosses_terrain(st, g, ax, ay, st.pos[g, u, 0], st.pos[g, u, 1], st.radius[g, u], tb, True):
        return
    ones, blessed = 0, is_squad(u, tb) and chuck_active(st, g, u)
    for m in range(st.wounds.shape[2]):
        if st.wounds[g, u, m] > 0 and d6(rng, g) == 1 and not (blessed and d6(rng, g) != 1):
            ones += 1  # Chuck Norris re-rolls a failed test once (zombie40k §8, A35)
    if ones == 0:
        return
    spec, out = st.w_spec[W_DANGER], st.w_out[W_DANGER]
    automatic_wound_spec(spec)
    spec[SP_AP] = 1  # no armour save
    out[:] = 0
    before = alive(st, g, u)
    killed = out[OUT_KILLED]
    resolve_attacks(rng, g, ones, spec, st.wounds[g, u], st.stats[g, u], st.mflags[g, u], st.mstatus[g, u], 7, 0,
                    st.pu[g, 0, 0:0], out)
    attacked(st, g, u, out, killed)
    after_attack(st, g, u, -1, before, tb, rng)
