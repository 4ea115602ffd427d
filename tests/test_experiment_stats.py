"""Interval maths against scipy and hand computations; Holm against a hand-worked table."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from experiments.stats import games_for_halfwidth, holm, mcnemar_exact, paired_difference, wilson_interval


def scipy_wilson(k: int, n: int) -> tuple[float, float]:
    """The independent reference: scipy's Wilson interval."""
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    return float(ci.low), float(ci.high)


@pytest.mark.parametrize("k, n", [(0, 1), (0, 50), (1, 50), (17, 50), (50, 50), (333, 1000), (999, 1000), (7, 7)])
def test_wilson_equals_scipy(k, n):
    low, high = wilson_interval(k, n)
    assert (float(low), float(high)) == pytest.approx(scipy_wilson(k, n), abs=1e-12)


def test_wilson_ends_are_exact():
    """No successes: the interval starts at exactly 0 (scipy's); all successes: ends at exactly 1."""
    low, high = wilson_interval([0, 12, 0], [12, 12, 1])
    assert low[0] == 0.0 and high[1] == 1.0 and low[2] == 0.0 and low[0] <= 0 / 12 <= high[0]


def test_wilson_is_elementwise_and_empty_is_everything():
    low, high = wilson_interval([0, 5, 10], [0, 10, 10])
    assert low[0] == 0 and high[0] == 1
    assert low[1] == pytest.approx(scipy_wilson(5, 10)[0], abs=1e-12) and high[2] == pytest.approx(1.0)


def test_wilson_exact_coverage_is_near_95_percent():
    """Exact coverage (a sum over the binomial pmf, no simulation) of the 95% Wilson interval at
    n = 200 for p in 0.05..0.95: within 93%-97% (its known oscillation around the nominal level)."""
    n, k = 200, np.arange(201)
    low, high = wilson_interval(k, n)
    for p in np.linspace(0.05, 0.95, 19):
        coverage = stats.binom.pmf(k, n, p)[(low <= p) & (p <= high)].sum()
        assert 0.93 <= coverage <= 0.97, (p, coverage)


def test_paired_difference_by_hand():
    a = np.array([1, 1, 0, 0, 1, 1, 0, 1], bool)
    b = np.array([1, 0, 0, 1, 0, 1, 0, 0], bool)
    d = a.astype(float) - b
    result = paired_difference(a, b)
    half = stats.t.ppf(0.975, 7) * d.std(ddof=1) / np.sqrt(8)
    assert result.diff == pytest.approx(0.25) and (result.a_only, result.b_only) == (3, 1)
    assert (result.low, result.high) == pytest.approx((0.25 - half, 0.25 + half))
    assert result.p_value == pytest.approx(stats.binomtest(3, 4, 0.5).pvalue) == pytest.approx(0.625)


def test_identical_cells_differ_by_exactly_zero():
    a = np.array([1, 0, 1, 1], bool)
    result = paired_difference(a, a)
    assert (result.diff, result.low, result.high, result.p_value) == (0, 0, 0, 1.0)


def test_paired_interval_coverage_on_correlated_outcomes():
    """CRN-like data (B escapes whenever A does, plus 5% more): the 95% interval covers the true
    difference -0.05 in 93%-97% of 2000 simulated experiments of 400 games (seeded; binomial
    sd of the coverage estimate 0.5%)."""
    rng = np.random.default_rng(20240501)
    hits = 0
    for _ in range(2000):
        u = rng.random(400)
        result = paired_difference(u < 0.40, u < 0.45)
        hits += result.low <= -0.05 <= result.high
    assert 0.93 <= hits / 2000 <= 0.97


def test_paired_needs_the_same_games():
    with pytest.raises(ValueError, match="same games"):
        paired_difference([1, 0], [1, 0, 1])


def test_mcnemar_without_discordant_games():
    assert mcnemar_exact(0, 0) == 1.0
    assert mcnemar_exact(10, 0) == pytest.approx(2 * 0.5**10)


def test_holm_by_hand():
    """p = (0.01, 0.04, 0.03, 0.005), m = 4: sorted 0.005x4 = 0.02, 0.01x3 = 0.03, 0.03x2 = 0.06,
    0.04x1 = 0.04 -> running max 0.06; back in input order (0.03, 0.06, 0.06, 0.02)."""
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])


def test_holm_caps_at_one_and_keeps_ties_and_order():
    assert holm([0.5, 0.5, 0.9]) == pytest.approx([1.0, 1.0, 1.0])
    assert holm([0.2]) == pytest.approx([0.2])
    adjusted = holm([0.001, 0.2, 0.01, 0.03])
    assert adjusted == pytest.approx([0.004, 0.2, 0.03, 0.06])
    assert holm([]).size == 0


def test_holm_is_never_below_bonferroni_step_and_never_above_bonferroni():
    rng = np.random.default_rng(7)
    p = rng.random(30) ** 3
    adjusted = holm(p)
    assert (adjusted >= p).all() and (adjusted <= np.minimum(p * 30, 1) + 1e-15).all()


def test_games_for_halfwidth_matches_the_normal_approximation():
    n = games_for_halfwidth(0.5, 0.02)
    assert n == 2401
    low, high = wilson_interval(n // 2, n)
    assert (high - low) / 2 == pytest.approx(0.02, abs=2e-4)
