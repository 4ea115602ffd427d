"""kernels.jit remembers llvmlite's ABI size and alignment of an LLVM type (`_remembered_abi_sizes`):
the same numbers as llvmlite's own, worked out once per type text and data layout, the same LLVM IR
for a kernel that takes a `ByRef` (its ``dereferenceable`` size) and stores variables on its stack,
and a named type asked anew."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pytest
from helpers import light_ir
from llvmlite import ir as llvm_ir
from numba import typeof
from numba.core.registry import cpu_target

from kernels import jit

pytestmark = pytest.mark.skipif(jit.JIT_DISABLED, reason="compiles kernels")


class Wide(NamedTuple):
    a: np.ndarray  # float64[n]
    b: np.ndarray  # int16[n, 3]
    c: np.ndarray  # bool[n]


def _wide():
    return Wide(np.zeros(4), np.zeros((4, 3), np.int16), np.zeros(4, np.bool_))


def _reads(w, k):
    t = 0.0
    for i in range(w.a.shape[0]):
        t += w.a[i] * w.b[i, k] if w.c[i] else 1.5
    return t


def _counted(monkeypatch, remembered: bool) -> list:
    """llvmlite's own measures counted; ``remembered``: through `_remembered_abi_sizes`, emptied."""
    calls = []

    def counting(measure):
        def counted(self, target_data, context=None):
            calls.append(str(self))
            return measure(self, target_data, context)
        return counted

    size, alignment = counting(jit._llvmlite_abi_size), counting(jit._llvmlite_abi_alignment)
    monkeypatch.setattr(jit, "_ABI", {})
    if remembered:
        monkeypatch.setattr(llvm_ir.Type, "get_abi_size", jit._abi("size", size))
        monkeypatch.setattr(llvm_ir.Type, "get_abi_alignment", jit._abi("alignment", alignment))
    else:
        monkeypatch.setattr(llvm_ir.Type, "get_abi_size", size)
        monkeypatch.setattr(llvm_ir.Type, "get_abi_alignment", alignment)
    return calls


def _ir(monkeypatch, remembered: bool) -> tuple[str, int]:
    calls = _counted(monkeypatch, remembered)
    ref = jit.ByRef(typeof(_wide()))
    ir = light_ir(_reads, (ref, typeof(1)))
    monkeypatch.undo()
    return ir, len(calls)


def test_a_kernel_by_reference_gets_the_same_ir_from_fewer_measures(monkeypatch):
    own, own_calls = _ir(monkeypatch, remembered=False)
    remembered, calls = _ir(monkeypatch, remembered=True)
    assert remembered == own
    assert "dereferenceable" in own  # the ByRef argument's size, measured
    assert calls < own_calls


def test_the_numbers_are_llvmlites_own():
    target_data = cpu_target.target_context.target_data
    struct = llvm_ir.LiteralStructType([llvm_ir.IntType(8), llvm_ir.DoubleType(), llvm_ir.IntType(16)])
    for typ in (llvm_ir.IntType(1), llvm_ir.IntType(64), llvm_ir.DoubleType(), struct,
                llvm_ir.ArrayType(struct, 7), llvm_ir.LiteralStructType([struct, llvm_ir.IntType(8)])):
        for _ in range(2):  # the second from the dict
            assert typ.get_abi_size(target_data) == jit._llvmlite_abi_size(typ, target_data)
            assert typ.get_abi_alignment(target_data) == jit._llvmlite_abi_alignment(typ, target_data)


def test_a_named_type_is_measured_anew(monkeypatch):
    calls = _counted(monkeypatch, remembered=True)
    target_data = cpu_target.target_context.target_data
    module = llvm_ir.Module()
    named = module.context.get_identified_type("named_pair")
    named.set_body(llvm_ir.IntType(32), llvm_ir.IntType(32))
    plain = llvm_ir.LiteralStructType([llvm_ir.IntType(32), llvm_ir.IntType(64)])
    for _ in range(3):
        plain.get_abi_size(target_data)
        named.get_abi_size(target_data, module.context)
    assert calls.count(str(plain)) == 1
    assert calls.count(str(named)) == 3
