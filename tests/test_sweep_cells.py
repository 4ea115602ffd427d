"""A round of sequential sampling plays its cells two at a time (`experiments.sweep.play_cells`,
issue 30 item 5): each cell's rows are those it plays alone, whatever the threads; a sweep sized by
its question ends the same with cells played at once as one after the other. On Token Race
(tests/proof_ruleset.py: a compiled game of the test tree's own); `at_once`, which plays the
strong-play section's candidates, validations and fresh games two at a time."""

from __future__ import annotations

import threading
import time

import numpy as np
import pandas as pd
import proof_ruleset
import pytest

from experiments import sweep as sw
from experiments.experiment import Experiment, parse_axes
from sim import ruleset as registry


@pytest.fixture
def token_race():
    registry.register(proof_ruleset.RULESET)
    yield proof_ruleset.RULESET
    registry.unregister(proof_ruleset.ID)


def _configs(rs, lengths):
    from dataclasses import replace

    base = rs.example_config(2)
    return {f"track{n}": replace(base, track_length=n) for n in lengths}


def test_cells_play_at_once_and_each_plays_its_own_games(token_race, monkeypatch):
    configs = _configs(token_race, (8, 12, 20, 30))
    alone = {k: sw.run_cell(c, 300, 7, first_game=100) for k, c in configs.items()}
    threads, run_cell = set(), sw.run_cell

    def recorded(*args, **kwargs):
        threads.add(threading.current_thread().name)
        return run_cell(*args, **kwargs)

    monkeypatch.setattr(sw, "run_cell", recorded)
    played = sw.play_cells([(c, k, 100, 300) for k, c in configs.items()], 7)
    assert list(played) == list(configs)
    for k in configs:
        pd.testing.assert_frame_equal(played[k], alone[k])
    assert len(threads) == sw.CELLS_AT_ONCE > 1 and threading.current_thread().name not in threads


@pytest.mark.parametrize("paired", [False, True], ids=["each cell on its own", "paired rounds"])
def test_a_sweep_to_a_halfwidth_is_the_same_with_cells_at_once(token_race, tmp_path, monkeypatch, paired):
    """Both runners of sequential sampling: each cell on its own (`run_cell_to_halfwidth`, the
    plain rule) and cells in rounds (a paired question)."""
    base = token_race.example_config(2)
    axes = tuple(parse_axes({"track": [8, 12, 30, 50, 60]}, base, tmp_path))
    pairs = tuple((f"track={n}", "track=8") for n in (12, 30, 50, 60)) if paired else ()
    exp = Experiment("race", base, 3000, 3, axes, target_halfwidth=0.02, pairs=pairs)
    assert bool(exp.rule) == paired
    together = sw.sweep(exp, tmp_path / "together", show_progress=False)
    monkeypatch.setattr(sw, "CELLS_AT_ONCE", 1)
    apart = sw.sweep(exp, tmp_path / "apart", show_progress=False)
    pd.testing.assert_frame_equal(together.results, apart.results)
    pd.testing.assert_frame_equal(together.summary, apart.summary)
    assert together.results.groupby("cell").game.nunique().nunique() > 1  # cells stopped at different rounds


def test_at_once_keeps_the_order_and_the_callers_numpy_error_state():
    def seen(k: int) -> tuple:
        time.sleep(0.01 * (4 - k))  # the first call is the slowest
        return k, np.geterr()["over"], threading.current_thread().name

    with np.errstate(over="ignore"):
        got = sw.at_once([(seen, k) for k in range(4)])
    assert [k for k, _, _ in got] == [0, 1, 2, 3] and {over for _, over, _ in got} == {"ignore"}
    assert len({name for _, _, name in got}) == sw.CELLS_AT_ONCE


@pytest.mark.slow
def test_strong_play_is_the_same_with_its_games_at_once(monkeypatch):
    """A tune's candidates, its validation and the standings' fresh games play two at a time
    (`experiments.sweep.at_once`); Zombies!!! at the smallest sizes (a competitive round: every
    player tunes) writes the same tables as one at a time."""
    from experiments import strong_play as sp
    from sim.ruleset import get

    calls = []
    at_once = sw.at_once
    monkeypatch.setattr(sw, "at_once", lambda todo: calls.append(len(todo)) or at_once(todo))
    together = sp.strong_play_section(get("zombies9"), 0.01, None)
    assert max(calls) > 1
    monkeypatch.setattr(sw, "CELLS_AT_ONCE", 1)
    apart = sp.strong_play_section(get("zombies9"), 0.01, None)
    for a, b in zip(together.tables, apart.tables, strict=True):
        pd.testing.assert_frame_equal(a.frame, b.frame)
        assert a.sentence == b.sentence
