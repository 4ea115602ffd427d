"""Honest statistics for escape rates (design.md decision 8).

- **Wilson score intervals** (95%) on every rate: the closed form, vectorised; equal to scipy's
  ``binomtest(...).proportion_ci(method="wilson")`` (tested), and sane at 0 and 1 escapes.
- **Paired differences** between two cells on common random numbers: cell A's game ``i`` and
  cell B's game ``i`` share their dice, so the comparison works on the per-game differences
  ``d_i = a_i - b_i`` of the 0/1 outcomes. The estimate is ``mean(d)``; its interval is the
  Student-t interval on the ``d_i`` (``mean ± t_{n-1} · sd(d)/√n``, a normal-theory interval that
  is accurate at the hundreds of games a cell plays); the p-value is the **exact McNemar test**
  (a two-sided binomial test on the discordant games, ``b`` = A escaped and B not, ``c`` = the
  reverse, ``b ~ Binomial(b + c, 1/2)`` under "no difference").
- **Holm's step-down correction** of a family of p-values (the report flags a cell as imbalanced
  only when its Holm-adjusted p-value is below 0.05; this controls the family-wise error rate).
- **Fixed-width sequential sampling**: games are added to a cell in batches until the Wilson
  half-width of every rate is at most a target (or a cap is reached). The stopping rule looks at
  the *width* of the interval only, never at a difference or a p-value, so it targets precision
  and cannot "run until significant"; by the Chow-Robbins theorem the interval at the stopping
  time keeps its coverage as the target width shrinks.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats

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
    diff: float  # mean of a_i - b_i
    low: float
    high: float
    a_only: int  # games where A escaped and B did not (McNemar's b)
    b_only: int  # the reverse (McNemar's c)
    p_value: float  # exact McNemar, two-sided

    @property
    def halfwidth(self) -> float:
        return (self.high - self.low) / 2


def paired_difference(a, b, confidence: float = CONFIDENCE) -> PairedDifference:
    """Paired difference of two 0/1 outcome arrays over the same games.

    Parameters
    ----------
    a, b : array_like of bool, shape (n_games,)
        Outcome of game ``i`` in cell A and in cell B (the same dice: common random numbers).

    Returns
    -------
    PairedDifference
        ``mean(a - b)`` with a Student-t interval on the per-game differences and the exact
        McNemar p-value.
    """
    a, b = np.asarray(a, bool), np.asarray(b, bool)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"paired outcomes need the same games: shapes {a.shape} and {b.shape}")
    n = a.size
    d = a.astype(float) - b.astype(float)
    a_only, b_only = int(np.sum(a & ~b)), int(np.sum(~a & b))
    if n < 2:
        return PairedDifference(n, float(d.mean()) if n else 0.0, -1.0, 1.0, a_only, b_only, 1.0)
    mean, se = float(d.mean()), float(d.std(ddof=1) / np.sqrt(n))
    half = float(stats.t.ppf(0.5 + confidence / 2, n - 1)) * se
    return PairedDifference(n, mean, max(mean - half, -1.0), min(mean + half, 1.0), a_only, b_only,
                            mcnemar_exact(a_only, b_only))


def mcnemar_exact(a_only: int, b_only: int) -> float:
    """Two-sided exact McNemar p-value from the discordant counts (1.0 when there are none)."""
    if a_only + b_only == 0:
        return 1.0
    return float(stats.binomtest(a_only, a_only + b_only, 0.5).pvalue)


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
