"""Honest statistics for escape rates (design.md decision 8).

- **Wilson score intervals** (95%) on every rate: the closed form, vectorised; equal to scipy's
  ``binomtest(...).proportion_ci(method="wilson")`` (tested), and sane at 0 and 1 escapes.
- **Paired differences** between two cells on common random numbers: cell A's game ``i`` and
  cell B's game ``i`` start from the same dice, so the comparison works on the paired 0/1
  outcomes. The estimate is ``(b - c) / n`` (``b`` = games A won and B did not, ``c`` = the
  reverse). Its interval is **Tango's score interval** for a difference of paired proportions
  (Tango 1998): the differences ``Δ`` whose score statistic ``T(Δ) = (b - c - nΔ) / sqrt(n (2 p̃ +
  Δ - Δ²))`` (``p̃`` the constrained maximum-likelihood estimate of ``P(A lost, B won)``) stays within
  ±1.96. It keeps its coverage when only a handful of games disagree, where a t interval on the
  per-game differences covered 86-93% (tests/test_experiment_stats.py simulates it). The p-value is
  the same score test at ``Δ = 0`` (McNemar's z test), so the interval excludes 0 exactly when p <
  0.05; the **exact McNemar p** (a binomial test on the discordant games) is given beside it.
- **Variance ratio** of a paired comparison, ``var(a - b) / (var(a) + var(b))``: how much the
  pairing gains over two independent samples (1 = nothing, 0 = the games decide everything).
- **One winner among k seats** (`one_winner_test`): seat advantage is tested on the games one
  seat won alone, as one multinomial draw per game (exact binomial for two seats).
- **Holm's step-down correction** of a family of exact McNemar p-values (the report flags a cell
  as imbalanced only when its Holm-adjusted p-value is below 0.05; this controls the family-wise
  error rate). The printed intervals are not adjusted (`TABLE_NOTE` says so beside each table).
- **Fixed-width sequential sampling**: games are added to a cell in batches until the Wilson
  half-width of every rate is at most a target (or a cap is reached). The stopping rule looks at
  the *width* of the interval only, never at a difference or a p-value, so it targets precision
  and cannot "run until significant"; by the Chow-Robbins theorem the interval at the stopping
  time keeps its coverage as the target width shrinks.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import optimize, stats

CONFIDENCE = 0.95


def _z(confidence: float) -> float:
    return float(stats.norm.ppf(0.5 + confidence / 2))


def wilson_interval(successes, trials, confidence: float = CONFIDENCE) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval of a proportion, elementwise.

    Parameters
    ----------
    successes, trials : array_like of int
        Escapes and games (any matching shapes); ``trials = 0`` gives the interval (0, 1).
    confidence : float
        Coverage of the interval.

    Returns
    -------
    low, high : ndarray of float
    """
    k, n = np.asarray(successes, float), np.asarray(trials, float)
    z2 = _z(confidence) ** 2
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(n > 0, k / n, 0.0)
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = np.sqrt(z2) / (1 + z2 / n) * np.sqrt(p * (1 - p) / n + z2 / (4 * n**2))
    low = np.where((n > 0) & (k > 0), np.clip(centre - half, 0.0, 1.0), 0.0)  # exactly 0 at no successes
    high = np.where((n > 0) & (k < n), np.clip(centre + half, 0.0, 1.0), 1.0)  # exactly 1 at all successes
    return low, high


def wilson_halfwidth(successes, trials, confidence: float = CONFIDENCE) -> np.ndarray:
    """Half the width of the Wilson interval (the precision a cell has reached)."""
    low, high = wilson_interval(successes, trials, confidence)
    return (high - low) / 2


@dataclass(frozen=True)
class PairedDifference:
    """Rate of A minus rate of B on the same games (CRN)."""

    games: int
    diff: float  # (b - c) / n
    low: float  # Tango's score interval
    high: float
    a_only: int  # games where A won and B did not (McNemar's b)
    b_only: int  # the reverse (McNemar's c)
    p_value: float  # the score test at 0 (McNemar's z), two-sided: consistent with the interval
    p_exact: float = 1.0  # exact McNemar, two-sided
    variance_ratio: float = float("nan")  # var(a - b) / (var(a) + var(b)); nan when both are constant

    @property
    def halfwidth(self) -> float:
        return (self.high - self.low) / 2


def tango_score(b: int, c: int, n: int, delta: float) -> float:
    """Tango's score statistic for ``Δ = p(A won, B lost) - p(A lost, B won)`` at ``delta``."""
    big_b = b * (1 + delta) + c * (1 - delta) - 2 * n * delta
    p21 = (big_b + np.sqrt(max(big_b * big_b + 8 * n * c * delta * (1 - delta), 0.0))) / (4 * n)
    var = n * (2 * p21 + delta - delta * delta)
    gap = b - c - n * delta
    if var <= 0:
        return 0.0 if gap == 0 else np.sign(gap) * np.inf
    return gap / np.sqrt(var)


def tango_interval(b: int, c: int, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Tango's (1998) score interval of a paired difference of proportions (b, c discordant of n)."""
    z = _z(confidence)
    estimate = (b - c) / n
    low = -1.0 if tango_score(b, c, n, -1.0 + 1e-12) <= z else \
        optimize.brentq(lambda d: tango_score(b, c, n, d) - z, -1.0 + 1e-12, estimate, xtol=1e-12)
    high = 1.0 if tango_score(b, c, n, 1.0 - 1e-12) >= -z else \
        optimize.brentq(lambda d: tango_score(b, c, n, d) + z, estimate, 1.0 - 1e-12, xtol=1e-12)
    return float(low), float(high)


def variance_ratio(a, b) -> float:
    """``var(a - b) / (var(a) + var(b))`` of two paired outcome arrays: 1 when the pairing gains
    nothing over independent samples, near 0 when the shared dice decide most games."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    denominator = a.var() + b.var()
    return float((a - b).var() / denominator) if denominator > 0 else float("nan")


def paired_difference(a, b, confidence: float = CONFIDENCE) -> PairedDifference:
    """Paired difference of two 0/1 outcome arrays over the same games.

    Parameters
    ----------
    a, b : array_like of bool, shape (n_games,)
        Outcome of game ``i`` in cell A and in cell B (the same dice: common random numbers).

    Returns
    -------
    PairedDifference
        ``(b - c) / n`` with Tango's score interval, its score-test p-value, the exact McNemar
        p-value and the variance ratio (module docstring).
    """
    a, b = np.asarray(a, bool), np.asarray(b, bool)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"paired outcomes need the same games: shapes {a.shape} and {b.shape}")
    n = a.size
    a_only, b_only = int(np.sum(a & ~b)), int(np.sum(~a & b))
    if n == 0:
        return PairedDifference(0, 0.0, -1.0, 1.0, 0, 0, 1.0)
    low, high = tango_interval(a_only, b_only, n, confidence)
    score = tango_score(a_only, b_only, n, 0.0)
    p_value = float(2 * stats.norm.sf(abs(score))) if np.isfinite(score) else 0.0
    return PairedDifference(n, (a_only - b_only) / n, low, high, a_only, b_only, p_value,
                            mcnemar_exact(a_only, b_only), variance_ratio(a, b))


@dataclass(frozen=True)
class MeanDifference:
    """Mean of A minus mean of B over the same games (a per-game share or count)."""

    games: int
    diff: float
    low: float  # normal interval of the mean of the per-game differences
    high: float
    p_value: float  # two-sided z test of a mean difference of 0


def paired_mean_difference(a, b, confidence: float = CONFIDENCE) -> MeanDifference:
    """Paired difference of two per-game measures (a class's share of men alive, zombies killed
    per man) over the same games: the mean of ``a - b`` with a normal interval (the games are
    independent draws; for hundreds of games the central limit theorem covers a bounded
    per-game difference) and the z test at 0. Identical columns give (0, 0, 0, p = 1); a difference
    the same in every game, where the normal interval collapses, gets the sign test's p (2 / 2^n:
    1 for one game)."""
    d = np.asarray(a, float) - np.asarray(b, float)
    n = d.size
    if n == 0:
        return MeanDifference(0, 0.0, -np.inf, np.inf, 1.0)
    mean, se = float(d.mean()), float(d.std(ddof=1) / np.sqrt(n)) if n > 1 else 0.0
    if se == 0:
        return MeanDifference(n, mean, mean, mean, 1.0 if mean == 0 else min(1.0, 2 * 0.5**n))
    half = _z(confidence) * se
    return MeanDifference(n, mean, mean - half, mean + half, float(2 * stats.norm.sf(abs(mean) / se)))


def mcnemar_exact(a_only: int, b_only: int) -> float:
    """Two-sided exact McNemar p-value from the discordant counts (1.0 when there are none)."""
    if a_only + b_only == 0:
        return 1.0
    return float(stats.binomtest(a_only, a_only + b_only, 0.5).pvalue)


def one_winner_test(wins_per_seat) -> float:
    """p-value of "every seat is as likely to be the one winner" from the games one seat won alone.

    A game has one winner, so the seats' wins are one multinomial draw per game, not independent
    binomials (a contingency test of wins and losses per seat treats them so, and over-rejects:
    11.5% at a nominal 5% in Zombies!!!). Two seats: the exact binomial test of seat 1's share
    against 1/2. More: Pearson's goodness of fit of the counts to equal shares (chi-square, seats
    - 1 degrees of freedom). 1.0 when no game had one winner.
    """
    counts = np.asarray(wins_per_seat, int)
    total = int(counts.sum())
    if total == 0 or counts.size < 2:
        return 1.0
    if counts.size == 2:
        return float(stats.binomtest(int(counts[0]), total, 0.5).pvalue)
    return float(stats.chisquare(counts).pvalue)


TABLE_NOTE = ("Intervals are 95% for each comparison on its own (unadjusted); * and Holm p are adjusted over the "
              "table (Holm's correction of exact McNemar p-values), so an interval can exclude 0 without a *.")


def holm(p_values) -> np.ndarray:
    """Holm's step-down adjusted p-values (family-wise error rate), in the input order.

    The i-th smallest p-value is multiplied by ``m - i`` (i from 0), a running maximum keeps the
    adjusted values in order, and they are capped at 1. Reject where adjusted < alpha.
    """
    p = np.asarray(p_values, float)
    m = p.size
    order = np.argsort(p, kind="stable")
    stepped = np.maximum.accumulate(p[order] * (m - np.arange(m)))
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(stepped, 1.0)
    return adjusted


def games_for_halfwidth(rate: float, halfwidth: float, confidence: float = CONFIDENCE) -> int:
    """Games a rate near ``rate`` needs for a normal-approximation half-width (for planning)."""
    p = min(max(rate, 0.01), 0.99)
    return int(np.ceil(_z(confidence) ** 2 * p * (1 - p) / halfwidth**2))
