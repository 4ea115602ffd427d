"""Dice streams by purpose (kernels.rng, issue 17 item 1): each purpose of a game rolls from its
own stream, a pure function of (seed, game, key); the game's dice count survives the switching;
and in a whole Zombie 40,000 game a rule that rolls more dice in one phase leaves the later
phases' dice in step (the turn-order roll-off of game turn 2 is the same game by game).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from helpers import ALPHA, assert_matches_pmf

from kernels import rng as krng
from kernels.zombie40k import columns as GL
from sim.play import trace_game
from sim.ruleset import load_config, with_params

ROOT = Path(__file__).resolve().parents[1]


def stream_of(seed: int, game: int) -> np.ndarray:
    return krng.new_streams(seed, 1, game)


def rolls_after(rng, streams, keys, n=3) -> list[list[int]]:
    out = []
    for key in keys:
        krng.switch_stream(rng, 0, streams, key)
        out.append([int(krng.d6(rng, 0)) for _ in range(n)])
    return out


def test_a_purpose_rolls_the_same_dice_whatever_came_before():
    rng = stream_of(7, 3)
    streams = np.zeros(3, np.uint64)
    krng.begin_streams(rng, 0, streams)
    first = rolls_after(rng, streams, [11, 12])
    rng = stream_of(7, 3)
    krng.begin_streams(rng, 0, streams)
    krng.d6(rng, 0)  # an extra die before any switch, then a purpose rolled in between
    second = rolls_after(rng, streams, [99, 11, 12])
    assert second[1:] == first


def test_purposes_and_games_roll_different_dice():
    rolls = {}
    for game in range(3):
        for key in range(3):
            rng = stream_of(7, game)
            streams = np.zeros(3, np.uint64)
            krng.begin_streams(rng, 0, streams)
            rolls[(game, key)] = tuple(rolls_after(rng, streams, [key], n=12)[0])
    assert len(set(rolls.values())) == len(rolls)


def test_the_dice_count_survives_the_switching():
    rng = stream_of(5, 0)
    start = rng.copy()
    streams = np.zeros(3, np.uint64)
    krng.begin_streams(rng, 0, streams)
    krng.d6(rng, 0)
    rolls_after(rng, streams, [4, 2, 9], n=5)
    krng.end_streams(rng, 0, streams)
    assert krng.draws_between(start, rng)[0] == 1 + 3 * 5


def test_a_purpose_stream_is_uniform():
    """Chi-square at alpha 1e-4 of the first die of 60,000 purposes of one game (keys 0..59,999):
    the key mixing leaves no bias across purposes."""
    rng = stream_of(11, 0)
    streams = np.zeros(3, np.uint64)
    krng.begin_streams(rng, 0, streams)
    faces = np.array([r[0] for r in rolls_after(rng, streams, range(60_000), n=1)])
    assert_matches_pmf(faces - 1, np.full(6, 1 / 6), "first die of each purpose", ALPHA)


def rolloff_of_turn(events: np.ndarray, turn: int) -> tuple[int, int] | None:
    rows = events[(events[:, GL.EV_KIND] == GL.EK_ORDER) & (events[:, GL.EV_TURN] == turn)]
    return None if len(rows) == 0 else (int(rows[0, GL.EV_UNIT]), int(rows[0, GL.EV_OTHER]))


def test_more_shamble_dice_leave_the_next_turn_order_in_step():
    """3D6 instead of 2D6 for the Shamble roll changes the dice count of the zombies' turn 1; the
    roll-off of game turn 2 rolls from its own stream, so it is the same in every game (with one
    stream for the whole game it would agree only by chance)."""
    base = load_config(ROOT / "examples" / "configs" / "four_players.toml")
    more = with_params(base, {"centre_scatter_dice": "3D6"})
    pairs = []
    for game in range(16):
        a, _ = trace_game(base, 1, game)
        b, _ = trace_game(more, 1, game)
        pairs.append((rolloff_of_turn(a, 2), rolloff_of_turn(b, 2)))
    played = [(x, y) for x, y in pairs if x is not None and y is not None]
    assert len(played) >= 12
    assert all(x == y for x, y in played)
