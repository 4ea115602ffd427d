"""Trace events of a game (only written when the batch is traced: ``GameState.events`` has rows)."""

from __future__ import annotations

from kernels.jit import as_float64, njit
from kernels.zombies9.layout import EV_A, EV_B, EV_C, EV_D, EV_KIND, EV_PLAYER, EV_ROUND, EV_TURN, GS_ROUND, GS_TURN


@as_float64("a", "b", "c", "d")  # stored as float32: one version for every number type
@njit
def log_event(st, g, kind, p, a, b, c, d):
    """Append one event: (turn, round, player, kind, a, b, c, d); layout EK_* says what a-d hold."""
    if g >= st.events.shape[0]:
        return
    k = st.n_events[g]
    if k >= st.events.shape[1]:
        return
    ev = st.events[g, k]
    ev[EV_TURN], ev[EV_ROUND], ev[EV_PLAYER], ev[EV_KIND] = st.w_gs[GS_TURN], st.w_gs[GS_ROUND], p, kind
    ev[EV_A], ev[EV_B], ev[EV_C], ev[EV_D] = a, b, c, d
    st.n_events[g] = k + 1
