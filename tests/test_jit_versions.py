"""kernels.jit compiles one version of a kernel per argument types as a caller's code sees them:
narrow signed integers widened to int64 (one version, not one per integer width), numba's flags
compared and hashed as numba does, faster."""

from __future__ import annotations

import numpy as np
import pytest
from numba.core import types
from numba.core.compiler import Flags

from kernels import jit
from kernels.jit import njit

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
