"""kernels.jit compiles one version of a kernel per argument types as a caller's code sees them:
narrow signed integers widened to int64 (one version, not one per integer width), numba's flags
compared and hashed as numba does, faster."""

from __future__ import annotations

import numpy as np
import pytest
from numba.core import types
from numba.core.compiler import Flags

from kernels import jit
from kernels.jit import as_float64, njit

pytestmark = pytest.mark.skipif(jit.JIT_DISABLED, reason="compiles kernels")


@njit
def _twice(x):
    return x * 2


@njit
def _mixed(a16, a32, a64, u8):
    return _twice(a16) + _twice(a32) + _twice(a64) + _twice(u8)


@njit
def _thrice(x):
    return x * 3


@as_float64("a")
@njit
def _store(out, i, a):
    out[i] = a


@njit
def _store_all(out, i16, i64, u64, f32, f64, flag):
    _store(out, 0, i16)
    _store(out, 1, i64)
    _store(out, 2, u64)
    _store(out, 3, f32)
    _store(out, 4, f64)
    _store(out, 5, flag)
    _store(out, 6, 7)


def test_a_kernel_called_with_signed_integers_of_every_width_compiles_once_for_int64():
    # typed as a caller's code types a call (light kernels are never cached on disk)
    for width in (types.int16, types.int32, types.int64, types.IntegerLiteral(5)):
        _thrice.get_call_template((width,), {})
    assert _thrice.signatures == [(types.int64,)]
    _thrice.get_call_template((types.uint8,), {})  # unsigned kept as it is (numba's mixed-sign rules)
    assert _thrice.signatures == [(types.int64,), (types.uint8,)]


def test_a_narrow_integer_reaches_the_int64_version_value_for_value():
    assert _mixed(np.int16(-1), np.int32(2**31 - 1), np.int64(3), np.uint8(255)) == \
        2 * (-1 + 2**31 - 1 + 3 + 255)


def test_widened_keeps_bool_float_and_unsigned_and_drops_literals():
    assert jit._widened(types.boolean) == types.boolean
    assert jit._widened(types.float32) == types.float32
    assert jit._widened(types.uint32) == types.uint32
    assert jit._widened(types.IntegerLiteral(7)) == types.int64
    assert jit._widened(types.int8) == types.int64


def test_flags_compare_and_hash_as_numbas_own():
    a, b, c, d = Flags(), Flags(), Flags(), Flags()
    b.nrt = True
    c.nrt = False  # set to its default: equal to unset, as numba's values() says
    d.nrt = True
    for x in (a, b, c, d):
        assert x.values() == {k: getattr(x, k) for k in x.options}
        assert hash(x) == hash(tuple(sorted({k: getattr(x, k) for k in x.options})))
    assert a == c and b == d and a != b and c != d


def test_numbers_marked_as_float64_compile_once_and_store_as_they_did():
    out = np.zeros(7, np.float32)
    values = (np.int16(-3), np.int64(2**40 + 1), np.uint64(2**53 - 1), np.float32(0.1), 0.1, True)
    _store_all(out, *values)  # the driver may come from numba's disk cache: typed again below
    for number in (types.int16, types.int64, types.uint64, types.float32, types.float64, types.boolean):
        _store.get_call_template((types.float32[::1], types.int64, number), {})
    assert _store.signatures == [(types.float32[::1], types.int64, types.float64)]
    expected = np.array([*values, 7], dtype=object)  # each number to float32 directly, numpy's way
    assert out.tobytes() == np.array([np.float32(v) for v in expected]).tobytes()
