"""Shared test helpers (house style: emcee): the chi-square gate, and dice scripted by hand.

``assert_matches_pmf`` is the chi-square goodness-of-fit gate used for every dice mechanic:
observed counts of a Monte Carlo histogram against an exact pmf, adjacent bins with an
expected count below 5 pooled (the usual validity condition of the chi-square
approximation), rejected when p < ALPHA. ALPHA = 1e-4: an honest kernel fails one run in
10,000 (a 0.05 gate would fail it one run in twenty), while a rule bug that shifts a
probability by a percent or more over 10^5 games gives p far below 1e-10.

``ScriptedDice`` feeds hand-chosen dice to the kernels (the ``dice`` fixture of tests/conftest.py,
Out West's ``ow_dice``).
"""

from __future__ import annotations

import numpy as np
from scipy import stats

ALPHA = 1e-4


def pooled_bins(observed: np.ndarray, expected: np.ndarray, min_expected: float = 5.0):
    """Merge adjacent bins until each expected count is at least ``min_expected``."""
    obs_out, exp_out = [], []
    o_acc = e_acc = 0.0
    for o, e in zip(observed, expected):
        o_acc += o
        e_acc += e
        if e_acc >= min_expected:
            obs_out.append(o_acc)
            exp_out.append(e_acc)
            o_acc = e_acc = 0.0
    if e_acc > 0 or o_acc > 0:
        if exp_out:
            obs_out[-1] += o_acc
            exp_out[-1] += e_acc
        else:
            obs_out.append(o_acc)
            exp_out.append(e_acc)
    return np.array(obs_out), np.array(exp_out)


def assert_matches_pmf(samples: np.ndarray, pmf: np.ndarray, what: str = "", alpha: float = ALPHA) -> float:
    """Chi-square test of integer ``samples`` (values 0..len(pmf)-1) against ``pmf``."""
    pmf = np.asarray(pmf, dtype=float)
    assert abs(pmf.sum() - 1.0) < 1e-9, f"{what}: the pmf sums to {pmf.sum()}"
    samples = np.asarray(samples)
    assert samples.min() >= 0 and samples.max() < pmf.size, f"{what}: a sample outside the pmf's support"
    # a value the exact pmf gives probability 0 must never be seen
    impossible = (pmf == 0) & (np.bincount(samples, minlength=pmf.size) > 0)
    assert not impossible.any(), f"{what}: impossible values {np.flatnonzero(impossible)} observed"
    observed = np.bincount(samples, minlength=pmf.size).astype(float)
    expected = pmf * samples.size
    obs, exp = pooled_bins(observed, expected)
    if obs.size < 2:
        return 1.0  # one pooled bin: nothing left to test beyond the support check above
    p = stats.chisquare(obs, exp).pvalue
    assert p >= alpha, f"{what}: chi-square p = {p:.3g} < {alpha} (observed {obs}, expected {exp.round(1)})"
    return p


def default_sigint() -> None:
    """``preexec_fn`` for a child that must stop on Ctrl-C even if a library in the test process
    set SIGINT to be ignored (a child inherits an ignored signal, and Python then never raises
    KeyboardInterrupt)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


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


def light_ir(function, signature) -> str:
    """The LLVM IR of ``function`` compiled by ``kernels.jit.njit`` as a caller's code compiles it
    (light: typed and lowered, not linked), its block names made comparable across compiles. Read
    it inside the monkeypatching a test compares, before undoing it."""
    import re

    from kernels import jit

    kernel = jit.njit(function)
    kernel.get_call_template(signature, {})
    cres = next(iter(kernel.overloads.values()))
    return re.sub(r"B\d+v\d+", "Bv", str(cres.library._final_module))
