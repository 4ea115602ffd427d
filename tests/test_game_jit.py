"""Whole games in the compiled kernels: the same results as plain Python, for any thread count
and batch size, and the invariants over thousands of games.

The first test of this module compiles the whole game (several minutes on a fresh machine;
numba then keeps it in its disk cache, keyed by the kernels' sources).
"""

from __future__ import annotations

import numba
import pandas as pd
import pytest
from conftest import example_config

from sim.play import games, play

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def four():
    return example_config("four_players")


@pytest.fixture(scope="module")
def compiled_run(four):
    """120 games of the 4-player example with the JIT, invariants checked after every phase."""
    return play(four, 120, 31, check=True)


def test_jit_matches_plain_python(four, compiled_run, nojit):
    python = play(four, 6, 31, first_game=40)
    jit = compiled_run[compiled_run.game.between(40, 45)].reset_index(drop=True)
    pd.testing.assert_frame_equal(jit, python, check_dtype=False)


def test_one_thread_equals_all_threads(four, compiled_run):
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        single = play(four, 120, 31, check=True)
    finally:
        numba.set_num_threads(before)
    pd.testing.assert_frame_equal(single, compiled_run)


@pytest.mark.parametrize("batch_size", [1, 17, 4096])
def test_batch_size_never_changes_a_game(four, compiled_run, batch_size):
    pd.testing.assert_frame_equal(play(four, 120, 31, batch_size=batch_size, check=True), compiled_run)


@pytest.mark.parametrize("name", ["two_players", "four_players", "six_players"])
def test_invariants_hold_over_thousands_of_games(name):
    config = example_config(name)
    n = 3000
    df = play(config, n, 7, check=True)
    assert df.attrs["violations"] == 0
    per_game = games(df)
    assert len(per_game) == n and len(df) == n * config.n_players
    assert (per_game.turns <= config.max_game_turns).all() and (per_game.turns >= 1).all()
    escaped = per_game.reason == "escape"
    assert ((per_game.game_winner != "") == escaped).all()
    assert (df.groupby("game").won.sum() == escaped.astype(int).to_numpy()).all()
    assert (df.models_left >= 0).all() and (per_game.dice > 0).all()
