"""kernels.jit broadcasts numba's events with a timer's book-keeping in line (`_inline_timers`):
the same durations and depths as numba's own broadcast, other listeners notified as before."""

from __future__ import annotations

import itertools

import pytest
from numba.core import event

from kernels import jit

pytestmark = pytest.mark.skipif(jit.JIT_DISABLED, reason="patches numba's events")


def _timed(broadcast, monkeypatch) -> list:
    """Nested and repeated events under two timers (one installed midway) and a recorder."""
    clock = itertools.count(1.0, 0.5)
    monkeypatch.setattr(event, "timer", lambda: next(clock))
    monkeypatch.setattr(event, "broadcast", broadcast)
    kind = "shamble:test"
    outer, inner = event.TimingListener(), event.TimingListener()
    with event.install_listener(kind, outer), event.install_recorder(kind) as recorder:
        event.start_event(kind)
        event.start_event(kind)
        with event.install_listener(kind, inner):
            event.start_event(kind)
            event.end_event(kind)
            with event.trigger_event(kind):
                pass
        event.end_event(kind)
        event.end_event(kind)
    monkeypatch.undo()
    seen = [(evt.is_start, evt.is_end) for _, evt in recorder.buffer]
    return [outer.done, outer.duration, outer._depth, inner.done, inner.duration, inner._depth, seen]


def test_timers_and_recorders_see_what_numbas_broadcast_shows(monkeypatch):
    own = _timed(jit._numba_broadcast, monkeypatch)
    inlined = _timed(jit._broadcast, monkeypatch)
    assert inlined == own
    assert own[0] and own[3] and len(own[6]) == 8


def test_the_broadcast_is_kernels_jits():
    assert event.broadcast is jit._broadcast
