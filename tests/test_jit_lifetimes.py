"""kernels.jit works out numba's variable lifetimes after a post-processing without ``del``s when
they are first read (`_lazy_lifetimes`): the same lifetimes and the same LLVM IR as numba's own
post-processing, and none worked out for a light kernel's compile."""

from __future__ import annotations

import pytest
from helpers import light_ir
from numba.core import analysis, compiler, postproc, types

from kernels import jit

pytestmark = pytest.mark.skipif(jit.JIT_DISABLED, reason="compiles kernels")


def _loops_and_branches(a, n):
    """Nested loops, a branch, a variable assigned twice and one defined in a branch only."""
    t = 0.0
    for i in range(n):
        if a[i] > 0:
            u = a[i] * 2
        else:
            u = -a[i]
        for j in range(i):
            t += u * a[j]
    while t > 100.0:
        t /= 2.0
    return t


SIG = (types.float64[::1], types.int64)


def _entry_vars(func_ir) -> dict:
    return {label: set(func_ir.get_block_entry_vars(block)) for label, block in func_ir.blocks.items()}


def _count_use_defs(monkeypatch) -> list:
    calls, use_defs = [], analysis.compute_use_defs
    monkeypatch.setattr(analysis, "compute_use_defs", lambda *args: calls.append(1) or use_defs(*args))
    return calls


def test_the_lifetimes_read_are_numbas_own(monkeypatch):
    lazy_ir = compiler.run_frontend(_loops_and_branches)
    postproc.PostProcessor(lazy_ir).run()
    monkeypatch.setattr(postproc.PostProcessor, "run", jit._numba_post_process)
    own_ir = compiler.run_frontend(_loops_and_branches)
    postproc.PostProcessor(own_ir).run()
    assert isinstance(lazy_ir.block_entry_vars, jit._EntryVars)
    assert not isinstance(own_ir.block_entry_vars, jit._EntryVars)
    assert list(lazy_ir.blocks) == list(own_ir.blocks)
    assert _entry_vars(lazy_ir) == _entry_vars(own_ir)
    assert any(_entry_vars(own_ir).values())  # something to compare
    assert len(lazy_ir.block_entry_vars) == len(own_ir.block_entry_vars)


def test_a_post_processing_with_dels_works_them_out_at_once(monkeypatch):
    func_ir = compiler.run_frontend(_loops_and_branches)
    calls = _count_use_defs(monkeypatch)
    postproc.PostProcessor(func_ir).run()
    assert calls == []  # not yet: nothing read them
    postproc.PostProcessor(func_ir).run(emit_dels=True)
    assert calls == [1]  # this one's only, not the one before it


def _light(monkeypatch, lazy: bool):
    """A light kernel's LLVM IR and how many times its compile worked out the variables' uses."""
    if not lazy:
        monkeypatch.setattr(postproc.PostProcessor, "run", jit._numba_post_process)
    calls = _count_use_defs(monkeypatch)
    ir = light_ir(_loops_and_branches, SIG)
    monkeypatch.undo()
    return ir, len(calls)


def test_a_light_kernel_gets_the_same_ir_and_works_out_lifetimes_once(monkeypatch):
    own, own_calls = _light(monkeypatch, lazy=False)
    lazy, lazy_calls = _light(monkeypatch, lazy=True)
    assert lazy == own
    assert own_calls >= 4  # numba's post-processings, each of them
    assert lazy_calls < own_calls
