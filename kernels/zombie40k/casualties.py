"""What happens when models die: tallies, wiped-out units, power-up rolls, grudges cleared."""

from __future__ import annotations

from kernels.jit import njit
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
    US_KF_POINTS,
    US_OUT,
    US_WIPED_BY,
)
from kernels.zombie40k.geometry import ev_distance
from kernels.zombie40k.powerups import lose_powerups, roll_powerup
from kernels.zombie40k.units import alive, boss_unit, is_squad, log_event, refresh_radius, remove_unit


@njit
def after_attack(st, g, v, u, alive_before, tb, rng, phase):
    """Book the models unit u's attack removed from unit v; handle v being wiped out."""
    now = alive(st, g, v)
    lost = alive_before - now
    if lost <= 0:
        return
    refresh_radius(st, g, v, tb)
    if is_squad(v, tb):
        st.pres[g, v, PR_MODELS_LOST] += lost
    if u >= 0 and is_squad(u, tb):
        if is_squad(v, tb):
            st.pres[g, u, PR_RIVALS_KILLED] += lost
        else:
            st.pres[g, u, PR_ZOMBIES_KILLED] += lost
            if tb.prm[P_KF] != 0:
                st.ustate[g, u, US_KF_POINTS] += int(lost * tb.prm[P_KF_PER_KILL])
    if now == 0:
        wipe(st, g, v, u, tb, rng, phase)


@njit
def wipe(st, g, v, killer, tb, rng, phase):
    """Unit v is wiped out; a horde's destroyer rolls for a power-up (zombie40k §8)."""
    x, y, r = st.pos[g, v, 0], st.pos[g, v, 1], st.radius[g, v]
    log_event(st, g, phase, EK_WIPE, v, killer, x, y, 0)
    remove_unit(st, g, v)
    st.ustate[g, v, US_WIPED_BY] = killer + 1
    if is_squad(v, tb):
        _squad_wiped(st, g, v, x, y, r, tb)
        return
    if v == boss_unit(st):
        st.ustate[g, v, US_OUT] = 1 if tb.prm[P_BOSS_RESPAWNS] == 0 else 0
        if killer >= 0 and is_squad(killer, tb):
            st.pres[g, killer, PR_BOSS_KILLED] += 1
            if tb.prm[P_BOSS_KILL_POWERUP] != 0:
                roll_powerup(st, g, killer, tb, rng, phase)
        return
    if killer >= 0 and is_squad(killer, tb):
        st.pres[g, killer, PR_HORDES_KILLED] += 1
        roll_powerup(st, g, killer, tb, rng, phase)


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
