"""Counter-derived random streams: one per game (design.md decision 4).

Game ``i`` of a run is a pure function of ``(seed, i)``: its stream starts at
``stream_start(seed, i)`` and advances by SplitMix64 (Steele, Lea & Flood 2014), a 64-bit
counter whose output is a bijective mix of the counter. Nothing depends on the thread, the
chunk or the batch a game is played in, so results are bit-identical for any of them; and the
same game index sees the same dice in two cells of a sweep (common random numbers).

A stream is one ``uint64`` slot of an array (``rng[g]``): kernels pass ``(rng, g)`` and every
draw advances ``rng[g]`` in place.

**Streams by purpose.** A ruleset may give each purpose of a game its own stream, so that a
change of rules that rolls more dice in one phase leaves every other phase's dice as they were
(common random numbers that stay in step, not a single stream shifted by the first extra die):
``begin_streams`` at the start of a game, ``switch_stream(rng, g, streams, key)`` before the
dice of a purpose (``key``: any integer naming it, such as (game turn, phase, unit)), and
``end_streams`` at the end, which leaves ``rng[g]`` as if every draw had come from the game's
one stream, so ``draws_between`` still counts the dice rolled. The purpose's stream starts at
a mix of the game's stream start and the key: a pure function of (seed, game, key).
"""

from __future__ import annotations

import numpy as np

from kernels.jit import njit, njit_parallel, prange

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
GOLDEN_INVERSE = np.uint64(0xF1DE83E19937733D)  # GOLDEN * GOLDEN_INVERSE = 1 (mod 2**64)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_GAME_MUL = np.uint64(0xD1B54A32D192ED03)
_KEY_MUL = np.uint64(0xA0761D6478BD642F)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_S11 = np.uint64(11)
_SIX = np.uint64(6)
_TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53


@njit
def mix64(z):
    """SplitMix64 finaliser: a bijection of uint64 with good avalanche."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit
def stream_start(seed, game):
    """First counter of game ``game``'s stream under ``seed`` (both uint64)."""
    return mix64(mix64(seed + GOLDEN) ^ (game * _GAME_MUL + GOLDEN))


@njit
def next_u64(rng, g):
    """Advance stream ``g`` and return 64 random bits."""
    s = rng[g] + GOLDEN
    rng[g] = s
    return mix64(s)


@njit
def d6(rng, g):
    """One D6, 1-6 (Lemire's multiply-shift on the top 32 bits; bias below 2**-29)."""
    return np.int64(((next_u64(rng, g) >> _S32) * _SIX) >> _S32) + 1


@njit
def uniform(rng, g):
    """A float in [0, 1) with 53 random bits."""
    return np.float64(next_u64(rng, g) >> _S11) * _TO_UNIT


@njit
def begin_streams(rng, g, streams):
    """Start game g's streams by purpose from its stream start ``rng[g]``. ``streams`` is
    uint64[3] scratch: the game's start, the current purpose's start, the draws made before it."""
    streams[0] = rng[g]
    streams[1] = rng[g]
    streams[2] = np.uint64(0)


@njit
def switch_stream(rng, g, streams, key):
    """Roll game g's next dice from the stream of purpose ``key`` (a non-negative integer; each
    key names one purpose of the game, used once)."""
    streams[2] += (rng[g] - streams[1]) * GOLDEN_INVERSE
    start = mix64(streams[0] ^ mix64(np.uint64(key) * _KEY_MUL + GOLDEN))
    rng[g] = start
    streams[1] = start


@njit
def end_streams(rng, g, streams):
    """Leave ``rng[g]`` at the game's stream start plus one step per draw made, in every purpose's
    stream (what ``draws_between`` counts)."""
    total = streams[2] + (rng[g] - streams[1]) * GOLDEN_INVERSE
    rng[g] = streams[0] + total * GOLDEN


@njit_parallel
def start_streams(seed, first_game, out):
    """Fill ``out[k]`` with the stream start of game ``first_game + k``."""
    s = np.uint64(seed)
    for k in prange(out.shape[0]):
        out[k] = stream_start(s, np.uint64(first_game + k))


def new_streams(seed: int, n_games: int, first_game: int = 0) -> np.ndarray:
    """uint64[n_games]: the streams of games ``first_game .. first_game + n_games - 1``."""
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed = {seed}; allowed: an integer 0 <= seed < 2**64")
    out = np.empty(n_games, dtype=np.uint64)
    start_streams(np.uint64(seed), np.uint64(first_game), out)
    return out


def draws_between(start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """How many 64-bit draws took each stream from ``start`` to ``end`` (the counter advances
    by GOLDEN per draw, and GOLDEN is invertible mod 2**64)."""
    with np.errstate(over="ignore"):
        return ((end - start) * GOLDEN_INVERSE).astype(np.int64)
