"""kernels.jit compiles a kernel in full (an entry point called from Python) without numba's
C-callable wrapper (`_ENTRY`): the same kernel code and Python wrapper as numba's own compile, one
function fewer; the kernel still runs from Python."""

from __future__ import annotations

import re

import numpy as np
import pytest

from kernels import jit

pytestmark = pytest.mark.skipif(jit.JIT_DISABLED, reason="compiles kernels")


def _weighted(a, w):
    t = 0.0
    for i in range(a.shape[0]):
        t += a[i] * w[i] if w[i] > 0 else -a[i]
    return t


def _functions(monkeypatch, wrapped: bool) -> tuple[list[str], int]:
    """The optimised module's defined functions, sorted, numba's mangled names aside (they hold
    the compile's flags), and how many are C wrappers."""
    if wrapped:
        monkeypatch.setattr(jit, "_ENTRY", {})
    kernel = jit._full_dispatcher(_weighted, jit._OPTIONS)
    kernel._cache = jit.FunctionCache(_weighted)  # numba's own cache: nothing written
    kernel._cache.load_overload = lambda *a: None
    kernel._cache.save_overload = lambda *a: None
    a = np.linspace(-1.0, 1.0, 7)
    assert kernel(a, a[::-1].copy()) == _weighted(a, a[::-1].copy())
    monkeypatch.undo()
    text = next(iter(kernel.overloads.values())).library.get_llvm_str()
    groups = dict(re.findall(r"^attributes (#\d+) = (\{.*\})$", text, re.M))
    found, wrappers = [], 0
    for match in re.finditer(r"^define .*?^}", text, re.M | re.S):
        wrappers += "@cfunc." in match.group(0).splitlines()[0]
        # the attribute groups spelled out: their numbers shift with the functions in the module
        function = re.sub(r"#\d+\b", lambda m: groups.get(m.group(0), m.group(0)), match.group(0))
        found.append(re.sub(r"_ZN\w+", "@name", function))
    return sorted(found), wrappers


def test_an_entry_point_has_numbas_code_without_the_c_wrapper(monkeypatch):
    own, own_wrappers = _functions(monkeypatch, wrapped=True)
    entry, wrappers = _functions(monkeypatch, wrapped=False)
    assert (own_wrappers, wrappers) == (1, 0)
    assert len(entry) == len(own) - 1
    assert all(function in own for function in entry)
