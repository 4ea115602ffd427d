"""Shared test helpers.

``dice`` runs the real kernel code as plain Python with hand-fed dice: every jitted function
of the kernel modules is swapped for its ``py_func`` and ``d6``/``uniform`` pop from a script,
so a test states the dice a rule sees and the rule's outcome (house style: hand-fed dice).
A test fails if the code rolls more dice than scripted, or fewer (``dice.done()``).
"""

from __future__ import annotations

import importlib
import pkgutil

import numba
import numpy as np
import pytest

import kernels


def _kernel_modules():
    for info in pkgutil.iter_modules(kernels.__path__):
        yield importlib.import_module(f"kernels.{info.name}")


class ScriptedDice:
    """Dice that come from a list: ``script(1, 5, 6)``; D6 values 1-6, uniforms as floats."""

    def __init__(self) -> None:
        self._queue: list[float] = []
        self.rolled = 0

    def script(self, *values: float) -> ScriptedDice:
        self._queue.extend(values)
        return self

    def _pop(self) -> float:
        if not self._queue:
            raise AssertionError(f"the code rolled more dice than scripted (after {self.rolled})")
        self.rolled += 1
        return self._queue.pop(0)

    def d6(self, rng, g):
        value = self._pop()
        assert value in (1, 2, 3, 4, 5, 6), f"scripted D6 {value!r} is not 1-6"
        return int(value)

    def uniform(self, rng, g):
        return float(self._pop())

    def done(self) -> None:
        assert not self._queue, f"{len(self._queue)} scripted dice were not rolled: {self._queue}"


@pytest.fixture
def dice(monkeypatch):
    scripted = ScriptedDice()
    for module in _kernel_modules():
        for name, obj in list(vars(module).items()):
            if isinstance(obj, numba.core.registry.CPUDispatcher):
                monkeypatch.setattr(module, name, obj.py_func)
        if hasattr(module, "d6"):
            monkeypatch.setattr(module, "d6", scripted.d6)
        if hasattr(module, "uniform"):
            monkeypatch.setattr(module, "uniform", scripted.uniform)
    with np.errstate(over="ignore"):
        yield scripted


@pytest.fixture
def rng():
    """A one-game stream array for kernels that take (rng, g); hand-fed tests ignore it."""
    return np.zeros(1, dtype=np.uint64)
