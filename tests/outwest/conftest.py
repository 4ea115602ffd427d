"""Fixtures of the Zombies Out West tests.

``ow_dice`` runs the real kernel code of ``kernels.outwest`` (and the generic dice modules) as
plain Python with hand-fed dice: every jitted function is swapped for its ``py_func`` and
``d6``/``uniform`` pop from a script (tests/conftest.py's ``dice`` covers the top-level kernel
modules only). ``arena`` builds a small table by hand: the figures named stand where the test
says, every other one is off the table.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path

import numba
import numpy as np
import pytest

import kernels
import kernels.outwest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from outwest_helpers import ScriptedDice  # noqa: E402


def _modules():
    for info in pkgutil.iter_modules(kernels.__path__):
        if not info.ispkg:
            yield importlib.import_module(f"kernels.{info.name}")
    for info in pkgutil.iter_modules(kernels.outwest.__path__):
        yield importlib.import_module(f"kernels.outwest.{info.name}")


@pytest.fixture
def ow_dice(monkeypatch):
    scripted = ScriptedDice()
    for module in _modules():
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
def ow_nojit(monkeypatch):
    """Every jitted kernel of kernels.outwest swapped for its ``py_func``, real random streams."""
    for module in _modules():
        for name, obj in list(vars(module).items()):
            if isinstance(obj, numba.core.registry.CPUDispatcher):
                monkeypatch.setattr(module, name, obj.py_func)
    with np.errstate(over="ignore"):
        yield
