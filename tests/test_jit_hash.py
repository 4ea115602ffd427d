"""kernels.jit.ByRef hashes its tuple type once (numba hashes the type at every lookup of a member's
lowering, data model or typing): numba's own hash, and not pickled (a string's hash is another
in another process)."""

from __future__ import annotations

import pickle
from typing import NamedTuple

import numpy as np
import pytest
from numba import typeof
from numba.core import types

from kernels import jit

pytestmark = pytest.mark.skipif(jit.JIT_DISABLED, reason="numba's types")


class Hashed(NamedTuple):
    a: np.ndarray  # float64[n]
    b: np.ndarray  # int32[n]


def test_a_reference_hashes_as_numba_hashes_it_once(monkeypatch):
    tuple_type = typeof(Hashed(np.zeros(2), np.zeros(2, np.int32)))
    ref = jit.ByRef(tuple_type)
    ref.__dict__.pop("_hash", None)  # as made, whatever hashed it before
    calls, own = [], types.NamedTuple.__hash__

    def counted(self):
        calls.append(1)
        return own(self)

    monkeypatch.setattr(types.NamedTuple, "__hash__", counted)
    assert hash(ref) == hash(tuple_type) == own(tuple_type)
    calls.clear()
    for _ in range(5):
        assert hash(ref) == own(tuple_type)
    assert calls == []


def test_the_hash_is_not_pickled():
    ref = jit.ByRef(typeof(Hashed(np.zeros(2), np.zeros(2, np.int32))))
    hash(ref)
    _, (_, _, state) = ref.__reduce__()
    assert "_hash" not in state
    assert pickle.loads(pickle.dumps(ref)) == ref
