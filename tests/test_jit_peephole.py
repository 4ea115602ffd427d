"""kernels.jit skips numba's ``with``-exit peephole for code without ``with`` (`_with_less_peephole`):
the same IR, and the peephole still runs where there is a ``with`` block."""

from __future__ import annotations

import numba
import pytest
from numba.core import compiler, interpreter

from kernels import jit

pytestmark = pytest.mark.skipif(jit.JIT_DISABLED, reason="compiles kernels")


def _plain(a, n):
    t = 0.0
    for i in range(n):
        t += a[i] if a[i] > 0 else -a[i]
    return t


def _with_block(a, n):
    with numba.objmode(n="int64"):
        n += 1
    return n


def _frontend(func, monkeypatch, own: bool) -> tuple[str, int]:
    calls, numbas = [], jit._numba_delete_with_exit

    def counted(func_ir):
        calls.append(1)
        return numbas(func_ir)

    monkeypatch.setattr(jit, "_numba_delete_with_exit", counted)
    monkeypatch.setattr(interpreter, "peep_hole_delete_with_exit", counted if own else jit._delete_with_exit)
    text = compiler.run_frontend(func).dump_to_string()
    monkeypatch.undo()
    return text, len(calls)


@pytest.mark.parametrize("func", [_plain, _with_block])
def test_the_same_ir_without_the_peephole_where_there_is_no_with(func, monkeypatch):
    own, own_calls = _frontend(func, monkeypatch, own=True)
    skipped, calls = _frontend(func, monkeypatch, own=False)
    assert skipped == own
    assert own_calls == 1
    assert calls == (1 if func is _with_block else 0)
