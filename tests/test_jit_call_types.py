"""kernels.jit remembers the signature numba's typing finds for a call to a function (``min``,
``abs``, an operator, a numpy function: `_remembered_call_types`): the same LLVM IR as numba's own
typing, each call's templates tried once per function, argument types and flags."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import light_ir
from numba.core import errors, types
from numba.core.types import functions

from kernels import jit

pytestmark = pytest.mark.skipif(jit.JIT_DISABLED, reason="compiles kernels")


def _calls(a, n):
    """The same builtins and operators called again and again with the same types."""
    t = 0.0
    k = min(n, a.shape[0])
    for i in range(k):
        t += abs(a[i]) + min(a[i], 1.0) + max(a[i], 0.0)
        t += min(a[i] * 2, 3.0) + abs(a[min(i + 1, k - 1)])
        t += np.sqrt(abs(a[i])) + int(a[i]) + np.floor(a[i])
    return t


SIG = (types.float64[::1], types.int64)


def _light(monkeypatch, remembered: bool):
    """A light kernel's LLVM IR and how many times numba's own typing of a call ran."""
    calls, own = [], jit._numba_call_type

    def counted(self, context, args, kws):
        calls.append(1)
        return own(self, context, args, kws)

    monkeypatch.setattr(jit, "_numba_call_type", counted)
    monkeypatch.setattr(jit, "_CALL_TYPES", {})
    if not remembered:
        monkeypatch.setattr(functions.BaseFunction, "get_call_type", counted)
    ir = light_ir(_calls, SIG)
    monkeypatch.undo()
    return ir, len(calls)


def test_a_kernel_gets_the_same_ir_from_fewer_typings_of_its_calls(monkeypatch):
    own, own_calls = _light(monkeypatch, remembered=False)
    remembered, remembered_calls = _light(monkeypatch, remembered=True)
    assert remembered == own
    assert remembered_calls < own_calls


def test_a_failed_call_type_is_not_remembered(monkeypatch):
    monkeypatch.setattr(jit, "_CALL_TYPES", {})
    from numba.core.registry import cpu_target

    context = cpu_target.typing_context
    context.refresh()
    fnty = context.resolve_value_type(abs)
    assert fnty.get_call_type(context, (types.float64,), {}).return_type == types.float64
    with pytest.raises(errors.TypingError):
        fnty.get_call_type(context, (types.unicode_type, types.int64), {})
    assert len(jit._CALL_TYPES) == 1
