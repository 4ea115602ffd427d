"""Interval maths against scipy and hand computations; Holm against a hand-worked table."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import optimize, stats

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
    result = paired_difference(a, b)
    assert result.diff == pytest.approx(0.25) and (result.a_only, result.b_only) == (3, 1)
    assert result.p_exact == pytest.approx(stats.binomtest(3, 4, 0.5).pvalue) == pytest.approx(0.625)
    assert result.p_value == pytest.approx(2 * stats.norm.sf(2 / np.sqrt(4)))  # McNemar's z = (b - c) / sqrt(b + c)
    d = a.astype(float) - b
    assert result.variance_ratio == pytest.approx(d.var() / (a.var() + b.var()))


def _score_by_search(b: int, c: int, n: int, delta: float) -> float:
    """Tango's statistic with the constrained maximum-likelihood estimate found numerically (an
    independent route to the closed form of experiments.stats)."""
    lo, hi = max(0.0, -delta) + 1e-12, (1 - delta) / 2 - 1e-12  # p21 >= 0, p12 >= 0, p22 >= 0

    def nll(x):
        p12, rest = x + delta, 1 - 2 * x - delta
        return -(b * np.log(p12) + c * np.log(x) + (n - b - c) * np.log(rest))

    x = optimize.minimize_scalar(nll, bounds=(lo, hi), method="bounded", options={"xatol": 1e-13}).x
    return (b - c - n * delta) / np.sqrt(n * (2 * x + delta - delta**2))


@pytest.mark.parametrize("b, c, n", [(3, 1, 8), (7, 2, 200), (20, 35, 400), (1, 0, 1000), (12, 12, 150)])
def test_tango_interval_inverts_the_score_test(b, c, n):
    """At each end of the interval the score statistic, computed with the constrained MLE found by
    numerical search, is +-1.96 (to within the search's precision)."""
    from experiments.stats import tango_interval

    low, high = tango_interval(b, c, n)
    z = stats.norm.ppf(0.975)
    assert low < (b - c) / n < high
    assert _score_by_search(b, c, n, low) == pytest.approx(z, abs=2e-3)
    assert _score_by_search(b, c, n, high) == pytest.approx(-z, abs=2e-3)


def test_the_interval_and_the_test_agree():
    """The interval excludes 0 exactly when the p-value is below 0.05 (the score test it inverts)."""
    for b in range(0, 16):
        for c in range(0, 16):
            a = np.r_[np.ones(b), np.zeros(c), np.ones(10), np.zeros(60)].astype(bool)
            other = np.r_[np.zeros(b), np.ones(c), np.ones(10), np.zeros(60)].astype(bool)
            r = paired_difference(a, other)
            assert (r.low > 0 or r.high < 0) == (r.p_value < 0.05), (b, c, r)


def test_paired_interval_keeps_its_coverage_with_a_handful_of_discordant_games():
    """1,000 games with P(A only) = 0.2% and P(B only) = 0.1% (about 3 discordant games): the 95%
    score interval covers the true +0.1 points in at least 93% of 4,000 seeded experiments (a t
    interval on the per-game differences covers about 85% here; the binomial sd of the estimate is
    0.3%)."""
    rng = np.random.default_rng(20261201)
    hits = 0
    for _ in range(4000):
        b, c, _ = rng.multinomial(1000, [0.002, 0.001, 0.997])
        a = np.r_[np.ones(b), np.zeros(c), np.zeros(1000 - b - c)].astype(bool)
        other = np.r_[np.zeros(b), np.ones(c), np.zeros(1000 - b - c)].astype(bool)
        r = paired_difference(a, other)
        hits += r.low <= 0.001 <= r.high
    assert hits / 4000 >= 0.93


def test_identical_cells_differ_by_exactly_zero():
    a = np.array([1, 0, 1, 1], bool)
    result = paired_difference(a, a)
    assert result.diff == 0 and result.low < 0 < result.high and result.p_value == 1.0 and result.p_exact == 1.0
    assert result.variance_ratio == 0.0


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
