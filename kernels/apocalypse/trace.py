"""Trace events of a game (``shamble trace``): one float32 row per event, written only for traced
games (``GameState.events`` has a row block per traced game; an untraced batch has none)."""

from __future__ import annotations

from kernels.apocalypse.columns import EV_A, EV_B, EV_C, EV_KIND, EV_PHASE, EV_TURN, EV_X, EV_Y, G_TURN
from kernels.jit import as_float64, njit


@as_float64("a", "b", "c", "x", "y")  # stored as float32: one version for every number type
@njit
def log_event(st, g, phase, kind, a, b, c, x, y):
    """Record one event of game g (kernels.apocalypse.columns EK_*); a no-op unless g is traced."""
    if g >= st.events.shape[0]:
        return
    k = st.n_events[g]
    if k >= st.events.shape[1]:
        return
    row = st.events[g, k]
    row[EV_TURN] = st.gst[g, G_TURN]
    row[EV_PHASE] = phase
    row[EV_KIND] = kind
    row[EV_A] = a
    row[EV_B] = b
    row[EV_C] = c
    row[EV_X] = x
    row[EV_Y] = y
    st.n_events[g] = k + 1
