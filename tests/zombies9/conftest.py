"""Fixtures of the Zombies!!! tests.

``z9dice`` runs the ``kernels.zombies9`` code as plain Python with hand-fed dice: every jitted
function of those modules is swapped for its ``py_func`` and ``d6``/``uniform`` pop from a
script (``z9dice.script(4, 1, 6)``; D6 values 1-6, uniforms as floats in [0, 1)). Outside a
``z9dice.real()`` block a test fails if the code rolls more dice than scripted
(``z9dice.done()`` checks none are left). ``game`` sets up one game (real dice) for a test to
rearrange: ``st, tb, rng = game(config)``.
"""

from __future__ import annotations

import contextlib
import importlib
import pkgutil

import numba
import numpy as np
import pytest

import kernels.rng
import kernels.zombies9

_REAL = {name: getattr(getattr(kernels.rng, name), "py_func", getattr(kernels.rng, name)) for name in ("d6", "uniform")}


def z9_modules():
    for info in pkgutil.iter_modules(kernels.zombies9.__path__):
        yield importlib.import_module(f"kernels.zombies9.{info.name}")


class Dice:
    """Scripted dice (see the module docstring)."""

    def __init__(self) -> None:
        self.queue: list[float] = []
        self.rolled = 0
        self._real = 0

    def script(self, *values: float) -> Dice:
        self.queue.extend(values)
        return self

    @contextlib.contextmanager
    def real(self):
        self._real += 1
        try:
            yield
        finally:
            self._real -= 1

    def _pop(self):
        if not self.queue:
            raise AssertionError(f"the code rolled more dice than scripted (after {self.rolled})")
        self.rolled += 1
        return self.queue.pop(0)

    def d6(self, rng, g):
        if self._real:
            return _REAL["d6"](rng, g)
        value = self._pop()
        assert value in (1, 2, 3, 4, 5, 6), f"scripted D6 {value!r} is not 1-6"
        return int(value)

    def uniform(self, rng, g):
        if self._real:
            return _REAL["uniform"](rng, g)
        value = float(self._pop())
        assert 0.0 <= value < 1.0, f"scripted uniform {value!r} is not in [0, 1)"
        return value

    def done(self) -> None:
        assert not self.queue, f"{len(self.queue)} scripted dice were not rolled: {self.queue}"


def _swap(monkeypatch, dice: Dice | None) -> None:
    for module in z9_modules():
        for name, obj in list(vars(module).items()):
            if isinstance(obj, numba.core.registry.CPUDispatcher):
                monkeypatch.setattr(module, name, obj.py_func)
        if dice is not None:
            if hasattr(module, "d6"):
                monkeypatch.setattr(module, "d6", dice.d6)
            if hasattr(module, "uniform"):
                monkeypatch.setattr(module, "uniform", dice.uniform)
        else:
            for name in ("d6", "uniform", "stream_start"):
                if hasattr(module, name):
                    obj = getattr(kernels.rng, name)
                    monkeypatch.setattr(module, name, getattr(obj, "py_func", obj))


@pytest.fixture
def z9dice(monkeypatch):
    dice = Dice()
    _swap(monkeypatch, dice)
    with np.errstate(over="ignore"):
        yield dice


@pytest.fixture
def z9nojit(monkeypatch):
    """The kernels as plain Python with the real random streams."""
    _swap(monkeypatch, None)
    with np.errstate(over="ignore"):
        yield


@pytest.fixture
def game(z9dice):
    """``game(config, seed=1)`` -> (state, tables, rng) of one game after its set-up (real dice)."""
    from kernels.zombies9 import turn
    from kernels.zombies9.state import new_state
    from sim.rulesets.zombies9.compile import compile_tables

    def make(config, seed: int = 1, trace: int = 0):
        tb = compile_tables(config)
        st = new_state(1, tb, trace)
        rng = np.array([_REAL_START(np.uint64(seed), np.uint64(0))], np.uint64)
        with z9dice.real():
            turn.setup(st, tb, rng, 0)
        return st, tb, rng

    return make


_REAL_START = getattr(kernels.rng.stream_start, "py_func", kernels.rng.stream_start)
