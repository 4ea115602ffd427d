"""Helpers of the Zombies Out West tests: scripted dice and the ``ow_dice`` / ``ow_nojit`` fixtures,
hand-built tables (``Arena``), outcome codes, and ``play`` through the ruleset's protocol."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from helpers import ScriptedDice

from kernels.outwest import layout as L
from kernels.outwest.state import new_state
from sim.rulesets.outwest.compile import compile_tables, n_figures
from sim.rulesets.outwest.config import POLICY_PRESETS, OutwestConfig, default_posse


def config(**params) -> OutwestConfig:
    """The default config with fields replaced, the posse playing the spec's P1
    (``stand_and_shoot``: the rules tests script its choices); ``zombie_plague`` /
    ``zombie_gunslingers`` = True switch those advanced rules on."""
    mods = {m for m in ("zombie_plague", "zombie_gunslingers") if params.pop(m, False)}
    if mods:
        params["mods"] = frozenset(mods) | params.get("mods", frozenset())
    params.setdefault("players", default_posse(POLICY_PRESETS["stand_and_shoot"]))
    return replace(OutwestConfig(), **params)


def _py(kernel):
    return getattr(kernel, "py_func", kernel)


class Arena:
    """A hand-built table: ``st`` (n games), ``tb``, ``rng``; game ``g`` is the one set up."""

    def __init__(self, cfg: OutwestConfig | None = None, n_games: int = 1, g: int = 0, trace: int = 0) -> None:
        import kernels.outwest.turn as T

        self.config = cfg or config()
        c = self.config
        self.tb = compile_tables(c)
        self.st = new_state(n_games, c.n_humans, len(c.groups), n_figures(c), trace)
        self.g = g
        self.rng = np.zeros(n_games, np.uint64)
        st, tb = self.st, self.tb
        _py(T.reset_game)(st, g)
        for h in range(c.n_humans):
            _py(T.arm_character)(st, g, tb, h)
            st.fi[g, h, L.FI_STATE], st.fi[g, h, L.FI_FATE] = L.S_GONE, L.FATE_DEAD
        for q in range(len(c.groups)):
            first, size = tb.groups[q, L.GR_FIRST], tb.groups[q, L.GR_SIZE]
            for z in range(first, first + size):
                st.fi[g, z, L.FI_KIND], st.fi[g, z, L.FI_GROUP] = L.K_ZOMBIE, q
                st.fi[g, z, L.FI_STATE], st.fi[g, z, L.FI_FATE] = L.S_GONE, L.FATE_DESTROYED
        st.gs[g, L.GS_TURN] = 1
        st.gs[g, L.GS_GRAVE] = 0
        self.H = c.n_humans

    def zombie(self, k: int, group: int = 0) -> int:
        """Slot of the k-th zombie of a group."""
        return int(self.tb.groups[group, L.GR_FIRST]) + k

    def put(self, f: int, x: float, y: float, facing: float = 0.0, state: int = L.S_STANDING) -> int:
        st, g = self.st, self.g
        st.ff[g, f, L.FF_X], st.ff[g, f, L.FF_Y], st.ff[g, f, L.FF_FACING] = x, y, facing
        st.fi[g, f, L.FI_STATE], st.fi[g, f, L.FI_FATE] = state, L.FATE_IN_PLAY
        return f

    def fi(self, f: int, col: int) -> int:
        return int(self.st.fi[self.g, f, col])

    def pos(self, f: int) -> tuple[float, float]:
        return float(self.st.ff[self.g, f, L.FF_X]), float(self.st.ff[self.g, f, L.FF_Y])

    def template(self) -> None:
        """For the samplers: game 1 becomes the table set up in game 0."""
        st = self.st
        for name in ("ff", "fi", "gs", "mk", "pres"):
            getattr(st, name)[1] = getattr(st, name)[0]

    def violations(self) -> int:
        import kernels.outwest.turn as T

        return int(_py(T.count_violations)(self.st, self.g, self.tb))


def human_fate_codes(out: np.ndarray, was_down: bool = False, bites: int = 0) -> np.ndarray:
    """Classify sample_zombie_attack records into sim.rulesets.outwest.exact.FATES indices."""
    a_state, b_kind, b_state, b_fate = out[:, 3], out[:, 5], out[:, 6], out[:, 7]
    b_bites, b_moved = out[:, 8], out[:, 9]
    codes = np.full(out.shape[0], 1)  # nothing
    codes[b_moved > 0] = 2
    if not was_down:
        codes[b_state == L.S_DOWN] = 3
    codes[b_bites > bites] = 4
    codes[b_fate == L.FATE_DEAD] = 5
    codes[b_kind == L.K_ZOMBIE] = 6
    codes[b_fate == L.FATE_DEVOURED] = 7
    codes[a_state == L.S_DOWN] = 0
    return codes


# ------------------------------------------------------------------ fixtures
# (not a conftest.py: the test tree imports its root conftest as the module "conftest", and a
# second one would take that name; test modules pick these up with ``ow_dice = H.ow_dice``)


def _modules():
    import importlib
    import pkgutil

    import kernels
    import kernels.outwest

    for info in pkgutil.iter_modules(kernels.__path__):
        if not info.ispkg:
            yield importlib.import_module(f"kernels.{info.name}")
    for info in pkgutil.iter_modules(kernels.outwest.__path__):
        yield importlib.import_module(f"kernels.outwest.{info.name}")


def _plain_python(monkeypatch):
    import numba

    for module in _modules():
        for name, obj in list(vars(module).items()):
            if isinstance(obj, numba.core.registry.CPUDispatcher):
                monkeypatch.setattr(module, name, obj.py_func)


@pytest.fixture
def ow_dice(monkeypatch):
    """The real kernel code of kernels.outwest (and the generic dice modules) as plain Python with
    hand-fed dice: every jitted function swapped for its ``py_func``, ``d6``/``uniform`` popped
    from a script (tests/conftest.py's ``dice`` covers the top-level kernel modules only)."""
    scripted = ScriptedDice()
    _plain_python(monkeypatch)
    for module in _modules():
        if hasattr(module, "d6"):
            monkeypatch.setattr(module, "d6", scripted.d6)
        if hasattr(module, "uniform"):
            monkeypatch.setattr(module, "uniform", scripted.uniform)
    with np.errstate(over="ignore"):
        yield scripted


@pytest.fixture
def ow_nojit(monkeypatch):
    """Every jitted kernel of kernels.outwest swapped for its ``py_func``, real random streams."""
    _plain_python(monkeypatch)
    with np.errstate(over="ignore"):
        yield


def play(cfg: OutwestConfig, n_games: int, seed: int = 1, batch: int = 512, check: bool = False):
    """Play games 0..n-1 through the ruleset's protocol (compile -> new_state -> play_batch ->
    results), as sim.play does: (results frame, invariant violations)."""
    import pandas as pd

    from kernels.rng import draws_between, new_streams
    from sim.ruleset import get

    rs = get("outwest")
    tables = rs.compile(cfg)
    frames, violations = [], 0
    for first in range(0, n_games, batch):
        count = min(batch, n_games - first)
        state = rs.new_state(cfg, tables, count)
        rng = np.empty(count, np.uint64)
        rs.play_batch(state, tables, np.uint64(seed), np.int64(first), check, rng)
        dice = draws_between(new_streams(seed, count, first), rng)
        frames.append(rs.results(cfg, state, first, dice))
        violations += rs.violations(state)
    return pd.concat(frames, ignore_index=True), violations
