"""kernels.jit compiles a light kernel with numba's nopython pipeline less the passes that cannot
change its IR (`_idle_passes`): the same LLVM IR as numba's whole pipeline, fewer passes."""

from __future__ import annotations

import re

import numba
import pytest
from numba.core import typed_passes, types, untyped_passes

from kernels import jit

pytestmark = pytest.mark.skipif(jit.JIT_DISABLED, reason="compiles kernels")

LIMIT = 3
CHECKED = True


def _branches_and_raises(a, n):
    """A branch on a global constant, a variable assigned twice, a loop and a raise: what the
    dead-branch prunings, the SSA and the raise rewrites work on."""
    m = n
    if not CHECKED:
        m = 0
    t = 0.0
    for i in range(min(m, a.shape[0])):
        if a[i] < 0:
            raise ValueError("negative")
        t += a[i] * 2 if i < LIMIT else a[i]
    return t


def _closure(a, n):
    scale = 2.0

    def twice(x):
        return x * scale

    return twice(a[n])


def _with_isinstance(a, n):
    return a[n] if isinstance(n, int) else a[0]


SIG = (types.float64[::1], types.int64)


def _light_ir(func, trim: bool, monkeypatch) -> tuple[str, list]:
    monkeypatch.setattr(jit, "TRIM_PASSES", trim)
    # one with reference counting: numba's rewrites after typing kept
    kernel = (jit.njit_alloc if func is _branches_and_raises else jit.njit)(func)
    kernel.get_call_template(SIG, {})  # compiled as a caller's code compiles it: light
    cres = next(iter(kernel.overloads.values()))
    ir = re.sub(r"B\d+v\d+", "Bv", str(cres.library._final_module))  # numba's unique id of a version
    return ir, [name.split("_", 1)[1] for name in cres.metadata["pipeline_times"]["nopython"]]


@pytest.mark.parametrize("func", [_branches_and_raises, _closure, _with_isinstance])
def test_a_light_kernel_gets_the_same_ir_from_fewer_passes(func, monkeypatch):
    whole, all_passes = _light_ir(func, False, monkeypatch)
    trimmed, passes = _light_ir(func, True, monkeypatch)
    assert trimmed == whole
    assert "annotate_types" in all_passes and "annotate_types" not in passes
    assert len(passes) < len(all_passes)
    assert ("nopython_rewrites" in passes) == (func is _branches_and_raises)


def test_a_plain_kernel_skips_the_passes_for_closures_with_blocks_and_literals(monkeypatch):
    _, passes = _light_ir(_branches_and_raises, True, monkeypatch)
    for name in ("with_lifting", "inline_closure_likes", "inline_inlinables", "find_literally",
                 "literal_unroll", "LiteralPropagation"):
        assert name not in passes
    assert passes.count("dead_branch_prune") == 2  # of numba's 3: the one after inlining goes with it


def test_a_pass_stays_where_the_code_needs_it():
    assert untyped_passes.InlineClosureLikes not in jit._idle_passes(_closure)
    assert untyped_passes.MakeFunctionToJitFunction not in jit._idle_passes(_closure)
    assert untyped_passes.LiteralPropagationSubPipelinePass not in jit._idle_passes(_with_isinstance)

    def unrolled(t):
        for x in numba.literal_unroll(t):
            print(x)

    def with_block(a):
        with numba.objmode():
            print(a)

    assert untyped_passes.LiteralUnroll not in jit._idle_passes(unrolled)
    assert untyped_passes.WithLifting not in jit._idle_passes(with_block)
    inlined = numba.njit(inline="always")(lambda x: x)

    def calls_inlined(x):
        return inlined(x)

    assert untyped_passes.InlineInlinables not in jit._idle_passes(calls_inlined)
    assert typed_passes.AnnotateTypes in jit._idle_passes(calls_inlined)
    assert untyped_passes.InlineInlinables in jit._idle_passes(_branches_and_raises)
