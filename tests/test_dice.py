"""The real, jitted dice against their exact distributions (core-7th-edition §1, §6.4).

Every test draws many dice from ``kernels.rng.new_streams`` streams at a fixed seed, counts
the outcomes and runs a chi-square goodness-of-fit test (``scipy.stats.chisquare``) against
the exact pmf, enumerated by icepool. The gate is alpha = 1e-4: an honest generator fails one
run in 10,000 (a p < 0.05 gate would fail an honest kernel one run in twenty). Bins whose
expected count is below 5 are pooled with their neighbours before the test. The seeds are
fixed, so a run is deterministic: a failure is a property of the kernel, not bad luck.

The kernels are called from small ``@numba.njit`` loops of this module, one stream per game
as in a real batch; no dice are hand-fed here. The gate is the shared ``tests/helpers.py``
``assert_matches_pmf``; continuous values (uniforms, scatter directions) are binned first.
"""

from __future__ import annotations

import math
from fractions import Fraction

import icepool
import numba
import numpy as np
import pytest
from helpers import ALPHA, assert_matches_pmf

from kernels import dice as kdice
from kernels import rng as krng

SEED = 20_240_917
N_STREAMS = 1_000
PER_STREAM = 200  # 200,000 draws per distribution

D6 = icepool.d6


# ---------------------------------------------------------------------------- the oracle


def pmf_of(die: icepool.Die) -> np.ndarray:
    """Exact pmf of an icepool die as float64[max outcome + 1], indexed by outcome."""
    pmf = np.zeros(max(die.outcomes()) + 1)
    for outcome, quantity in die.items():
        pmf[outcome] = float(Fraction(quantity, die.denominator()))
    return pmf


def uniform_pmf(n_bins: int) -> np.ndarray:
    return np.full(n_bins, 1.0 / n_bins)


def streams(seed: int = SEED, n: int = N_STREAMS) -> np.ndarray:
    return krng.new_streams(seed, n)


def test_alpha_is_one_in_ten_thousand():
    assert ALPHA == 1e-4


# ------------------------------------------------------------------ jitted draw loops


@numba.njit
def draw_d6(rng, per_stream):
    out = np.empty((rng.shape[0], per_stream), dtype=np.int64)
    for g in range(rng.shape[0]):
        for k in range(per_stream):
            out[g, k] = krng.d6(rng, g)
    return out


@numba.njit
def draw_uniform(rng, per_stream):
    out = np.empty((rng.shape[0], per_stream), dtype=np.float64)
    for g in range(rng.shape[0]):
        for k in range(per_stream):
            out[g, k] = krng.uniform(rng, g)
    return out


@numba.njit
def draw_d3(rng, per_stream):
    out = np.empty((rng.shape[0], per_stream), dtype=np.int64)
    for g in range(rng.shape[0]):
        for k in range(per_stream):
            out[g, k] = kdice.d3(rng, g)
    return out


@numba.njit
def draw_sum_d6(rng, per_stream, n):
    out = np.empty((rng.shape[0], per_stream), dtype=np.int64)
    for g in range(rng.shape[0]):
        for k in range(per_stream):
            out[g, k] = kdice.sum_d6(rng, g, n)
    return out


@numba.njit
def draw_highest_d6(rng, per_stream, n):
    out = np.empty((rng.shape[0], per_stream), dtype=np.int64)
    for g in range(rng.shape[0]):
        for k in range(per_stream):
            out[g, k] = kdice.highest_d6(rng, g, n)
    return out


@numba.njit
def draw_roll_expr(rng, per_stream, count, keep, is_d3):
    out = np.empty((rng.shape[0], per_stream), dtype=np.int64)
    for g in range(rng.shape[0]):
        for k in range(per_stream):
            out[g, k] = kdice.roll_expr(rng, g, count, keep, is_d3)
    return out


@numba.njit
def draw_scatter_die(rng, per_stream):
    hits = np.empty((rng.shape[0], per_stream), dtype=np.bool_)
    directions = np.empty((rng.shape[0], per_stream), dtype=np.float64)
    for g in range(rng.shape[0]):
        for k in range(per_stream):
            hit, direction = kdice.scatter_die(rng, g)
            hits[g, k] = hit
            directions[g, k] = direction
    return hits, directions


@numba.njit
def draw_scatter_distance(rng, per_stream, n_dice, minus):
    out = np.empty((rng.shape[0], per_stream), dtype=np.int64)
    for g in range(rng.shape[0]):
        for k in range(per_stream):
            out[g, k] = kdice.scatter_distance(rng, g, n_dice, minus)
    return out


# ------------------------------------------------------------------------ single dice


def test_d6_is_uniform():
    assert_matches_pmf(draw_d6(streams(), PER_STREAM).ravel(), pmf_of(D6), "D6")


def test_d3_is_uniform_on_one_to_three():
    assert_matches_pmf(draw_d3(streams(SEED + 1), PER_STREAM).ravel(), pmf_of(icepool.d3), "D3")


def test_uniform_is_uniform_on_unit_interval():
    values = draw_uniform(streams(SEED + 2), PER_STREAM).ravel()
    assert values.min() >= 0.0 and values.max() < 1.0
    assert_matches_pmf(np.floor(values * 20).astype(np.int64), uniform_pmf(20), "uniform, 20 bins")


# ---------------------------------------------------------------------- sums and highest


@pytest.mark.parametrize("n", [2, 3])
def test_sum_d6_matches_nd6(n):
    values = draw_sum_d6(streams(SEED + 10 + n), PER_STREAM, n).ravel()
    assert_matches_pmf(values, pmf_of(n @ D6), f"{n}D6")


@pytest.mark.parametrize("n", [2, 3])
def test_highest_d6_matches_highest_of_n(n):
    values = draw_highest_d6(streams(SEED + 20 + n), PER_STREAM, n).ravel()
    assert_matches_pmf(values, pmf_of(D6.highest(n)), f"highest of {n}D6")


@pytest.mark.parametrize(
    ("expr", "die"),
    [
        ((3, 2, 0), D6.pool(3).highest(2).sum()),  # 3D6 keep the two highest
        ((2, 0, 0), 2 @ D6),  # 2D6
        ((1, 0, 1), icepool.d3),  # D3
        ((2, 1, 0), D6.highest(2)),  # 2D6 pick the highest
    ],
    ids=["3D6k2", "2D6", "D3", "2D6k1"],
)
def test_roll_expr_matches_its_dice_expression(expr, die):
    count, keep, is_d3 = expr
    values = draw_roll_expr(streams(SEED + 30 + count + keep), PER_STREAM, count, keep, is_d3).ravel()
    assert_matches_pmf(values, pmf_of(die), f"roll_expr{expr}")


def test_three_d6_keep_two_highest_has_printed_mean():
    """core-7th-edition §14: "3D6 keep two highest" has mean 8.46 (oracle sanity check)."""
    assert round(float(D6.pool(3).highest(2).sum().mean()), 2) == 8.46


# ----------------------------------------------------------------------------- scatter


def test_scatter_die_shows_hit_one_time_in_three():
    hits, _ = draw_scatter_die(streams(SEED + 40), PER_STREAM)
    assert_matches_pmf(hits.ravel().astype(np.int64), np.array([2 / 3, 1 / 3]), "scatter HIT")


def test_scatter_die_direction_is_uniform_on_the_circle():
    _, directions = draw_scatter_die(streams(SEED + 41), PER_STREAM)
    directions = directions.ravel()
    assert directions.min() >= 0.0 and directions.max() < 2.0 * math.pi
    bins = np.floor(directions / (2.0 * math.pi) * 12).astype(np.int64)
    assert_matches_pmf(bins, uniform_pmf(12), "scatter direction, 12 bins")


@pytest.mark.parametrize("bs", [3, 4])
def test_scatter_distance_is_2d6_minus_bs_at_least_zero(bs):
    values = draw_scatter_distance(streams(SEED + 50 + bs), PER_STREAM, 2, bs).ravel()
    exact = (2 @ D6 - bs).map(lambda v: max(0, v))
    assert_matches_pmf(values, pmf_of(exact), f"scatter distance 2D6 - BS{bs}")


# ------------------------------------------------------------------------ independence


def test_successive_d6_of_one_stream_are_independent():
    """Non-overlapping pairs (x[2k], x[2k+1]) of one long stream: 36 equally likely cells."""
    values = draw_d6(krng.new_streams(SEED + 60, 1), 2 * 200_000).ravel()
    cells = (values[0::2] - 1) * 6 + (values[1::2] - 1)
    assert_matches_pmf(cells, uniform_pmf(36), "successive D6 pairs")


def test_first_d6_of_neighbouring_games_are_independent():
    """Game g and game g + 1 start from neighbouring counters; their first dice must not agree."""
    first = draw_d6(streams(SEED + 61, 400_001), 1).ravel()
    cells = (first[:-1:2] - 1) * 6 + (first[1::2] - 1)
    assert_matches_pmf(cells, uniform_pmf(36), "first D6 of games (2k, 2k+1)")


# ----------------------------------------------------------------------------- streams


def test_streams_of_different_games_are_distinct():
    starts = krng.new_streams(SEED, 100_000)
    assert np.unique(starts).size == starts.size
    first_dice = draw_d6(krng.new_streams(SEED, 2_000), 24)  # 6**24 sequences: collisions ~ 0
    assert len({tuple(row) for row in first_dice.tolist()}) == first_dice.shape[0]


def test_streams_differ_between_seeds():
    assert not np.any(krng.new_streams(SEED, 1_000) == krng.new_streams(SEED + 1, 1_000))


@pytest.mark.parametrize(("n", "k"), [(1, 0), (5, 3), (100, 1), (257, 1_000)])
def test_new_streams_first_game_is_a_slice_of_the_full_run(n, k):
    part = krng.new_streams(SEED, n, first_game=k)
    full = krng.new_streams(SEED, n + k)
    assert part.dtype == np.uint64 and full.dtype == np.uint64
    assert np.array_equal(part, full[k:])


def test_same_seed_gives_the_same_dice():
    a = draw_d6(streams(), 50)
    b = draw_d6(streams(), 50)
    assert np.array_equal(a, b)


def test_draws_advance_the_stream_in_place():
    rng = streams(n=3)
    before = rng.copy()
    draw_d6(rng, 1)
    assert np.all(rng != before)


@pytest.mark.parametrize("seed", [-1, -(2**63)])
def test_new_streams_rejects_a_negative_seed(seed):
    with pytest.raises(ValueError, match=f"seed = {seed}"):
        krng.new_streams(seed, 4)


def test_new_streams_accepts_the_largest_seed():
    assert krng.new_streams(2**64 - 1, 2).shape == (2,)
