"""kernels.jit runs numba's function passes over a kernel's module through one pass manager, on
the functions it defines (`_ByRefLibrary._optimize_functions`): the same LLVM IR as numba's own
(a pass manager built for every function, declarations included), from fewer pass managers."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import light_ir
from numba import types
from numba.core import codegen

from kernels import jit

pytestmark = pytest.mark.skipif(jit.JIT_DISABLED, reason="compiles kernels")


@jit.njit
def _clipped(x, hi):
    return min(max(x, 0.0), hi)


@jit.njit
def _scaled(x, k):
    return x * k if k > 0 else -x


def _calls(a, n):
    """Calls two kernels (declared in its module) and numpy's math."""
    t = 0.0
    for i in range(min(n, a.shape[0])):
        t += _clipped(a[i], 2.0) + _scaled(a[i], i) + np.sqrt(abs(a[i]))
    return t


SIG = (types.float64[::1], types.int64)


def _light(monkeypatch, own: bool) -> tuple[str, int]:
    """A light kernel's LLVM IR and how many function pass managers were built."""
    _clipped.get_call_template((types.float64, types.float64), {})  # the callees compiled before
    _scaled.get_call_template((types.float64, types.int64), {})
    built, build = [], codegen.CPUCodegen._function_pass_manager

    def counted(self, **kws):
        built.append(1)
        return build(self, **kws)

    monkeypatch.setattr(codegen.CPUCodegen, "_function_pass_manager", counted)
    if own:
        monkeypatch.setattr(jit._ByRefLibrary, "_optimize_functions", codegen.CPUCodeLibrary._optimize_functions)
    ir = light_ir(_calls, SIG)
    monkeypatch.undo()
    return ir, len(built)


def test_a_kernel_gets_the_same_ir_from_one_pass_manager(monkeypatch):
    own, own_built = _light(monkeypatch, own=True)
    ours, built = _light(monkeypatch, own=False)
    assert ours == own
    assert "declare" in own  # its callees
    assert (built, own_built > 3) == (1, True)  # numba's own: one per function declared or defined
