"""kernels.jit.by_ref: a NamedTuple of arrays passed down the kernels as one pointer (``ByRef``)
reads and writes the very arrays of the tuple, at any depth, and is the tuple itself in plain
Python."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pytest

from kernels import jit
from kernels.jit import by_ref, njit, njit_alloc


class Pair(NamedTuple):
    a: np.ndarray  # float64[n]
    b: np.ndarray  # int32[n, 2]


@njit
def _bump(p, k):
    p.a[k] += p.b.shape[1] * p.b[k, 1]


@njit
def _total(p):
    s = 0.0
    for k in range(p.a.shape[0]):
        s += p.a[k]
    return s


@njit_alloc
def _drive(p):
    ref = by_ref(p)
    for k in range(ref.a.shape[0]):
        _bump(ref, k)
    return _total(by_ref(ref))  # by reference again: the same pointer


def _pair():
    return Pair(np.arange(5.0), np.arange(10, dtype=np.int32).reshape(5, 2))


def test_a_kernel_writes_and_reads_the_tuples_arrays_through_the_reference():
    pair = _pair()
    expected = pair.a + 2 * pair.b[:, 1]
    total = _drive(pair)
    assert np.array_equal(pair.a, expected)  # written in place, in the caller's array
    assert total == expected.sum()


@pytest.mark.skipif(jit.JIT_DISABLED, reason="numba's typing")
def test_inside_a_kernel_the_reference_is_typed_by_ref_and_its_members_as_the_tuples():
    import numba
    from numba.core.registry import cpu_target

    typing = cpu_target.typing_context
    tuple_type = numba.typeof(_pair())
    made = typing.resolve_function_type(typing.resolve_value_type(by_ref), (tuple_type,), {})
    assert isinstance(made.return_type, jit.ByRef) and made.return_type.tuple_type == tuple_type
    again = typing.resolve_function_type(typing.resolve_value_type(by_ref), (made.return_type,), {})
    assert again.return_type == made.return_type  # by reference twice: the same pointer
    for name, member in zip(tuple_type.fields, tuple_type.types):
        assert typing.resolve_getattr(made.return_type, name) == member


def test_in_plain_python_the_reference_is_the_tuple():
    pair = _pair()
    assert by_ref(pair) is pair
    drive = getattr(_drive, "py_func", _drive)  # with NUMBA_DISABLE_JIT=1 the function itself
    assert drive(Pair(np.zeros(2), np.ones((2, 2), np.int32))) == 4.0  # the callees get the tuple
