"""Sequential sampling by each cell's question (experiments/sequential.py): a cell compared with a
reference stops at the first round whose paired half-width reaches the target, and not before; a
reference plays as long as its longest cell; caps hold; the results do not depend on the batch size
or on a resume. The rounds are played on synthetic games (a fixed table of outcomes per game, so
the rule is checked against half-widths computed here), and once through `sweep` on Token Race
(tests/proof_ruleset.py)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import proof_ruleset
import pytest

from experiments import sequential
from experiments.experiment import Axis, Experiment
from experiments.stats import tango_interval, wilson_halfwidth
from sim import ruleset as registry


def _games(rate: float, n: int, seed: int, players: int = 2) -> pd.DataFrame:
    """Rows (game, player, won, reason) of ``n`` games: seat 0 wins with probability ``rate``."""
    rng = np.random.default_rng(seed)
    won0 = rng.random(n) < rate
    rows = pd.DataFrame({"game": np.repeat(np.arange(n), players), "player": np.tile(np.arange(players), n)})
    rows["won"] = np.where(rows.player == 0, np.repeat(won0, players), ~np.repeat(won0, players))
    rows["reason"] = "finish"
    return rows


def _flip(rows: pd.DataFrame, share: float, seed: int) -> pd.DataFrame:
    """The same games with a ``share`` of them decided the other way (a paired cell)."""
    flip = np.random.default_rng(seed).random(rows.game.max() + 1) < share
    return rows.assign(won=rows.won ^ flip[rows.game.to_numpy()])


class Stream:
    """A `play` for `play_rounds` over fixed tables; records every round asked for."""

    def __init__(self, tables: dict[str, pd.DataFrame]):
        self.tables, self.asked = tables, []

    def __call__(self, tasks):
        self.asked.append(tasks)
        return {label: self.tables[label][self.tables[label].game.between(first, first + n - 1)]
                for label, first, n in tasks}


def _paired_width(a: pd.DataFrame, b: pd.DataFrame, n: int) -> float:
    x = a[(a.player == 0) & (a.game < n)].won.to_numpy()
    y = b[(b.player == 0) & (b.game < n)].won.to_numpy()
    low, high = tango_interval(int(np.sum(x & ~y)), int(np.sum(~x & y)), n)
    return (high - low) / 2


CAP = 20_000


@pytest.fixture
def tables():
    ref = _games(0.5, CAP, 1)
    return {"ref": ref, "close": _flip(ref, 0.02, 2), "far": _flip(ref, 0.3, 3), "alone": _games(0.1, CAP, 4)}


def test_schedule_is_first_batch_then_half_again_up_to_the_cap():
    assert list(sequential.schedule(3000)) == [(0, 400), (400, 400), (800, 400), (1200, 600), (1800, 900),
                                               (2700, 300)]
    assert list(sequential.schedule(300)) == [(0, 300)]


def test_a_paired_cell_stops_when_its_difference_reaches_the_target_and_not_before(tables):
    target = 0.02
    pairs = {"close": "ref", "far": "ref"}
    stream = Stream(tables)
    done = sequential.play_rounds(list(tables), CAP, target, stream, pairs)
    ends = [first + n for first, n in sequential.schedule(CAP)]
    for label in ("close", "far"):
        n = done[label].game.nunique()
        assert n in ends
        k = ends.index(n)
        assert _paired_width(tables[label], tables["ref"], n) <= target or n == CAP
        assert k == 0 or _paired_width(tables[label], tables["ref"], ends[k - 1]) > target  # not before
    # a difference decided by few discordant games is narrow early; a far one needs more games
    assert done["close"].game.nunique() < done["far"].game.nunique()
    # the reference plays exactly as long as its longest cell; a cell on its own by its Wilson width
    assert done["ref"].game.nunique() == done["far"].game.nunique()
    n = done["alone"].game.nunique()
    assert wilson_halfwidth(int(done["alone"].query("player == 0").won.sum()), n) <= target
    # every cell's rows are the first n games of its stream, in order
    for label, rows in done.items():
        pd.testing.assert_frame_equal(rows.reset_index(drop=True),
                                      tables[label][tables[label].game < rows.game.nunique()].reset_index(drop=True))


def test_the_cap_holds_and_a_reference_waits_for_a_cell_that_reaches_it(tables):
    cap = 1800
    done = sequential.play_rounds(["ref", "far"], cap, 0.001, Stream(tables), {"far": "ref"})
    assert done["far"].game.nunique() == done["ref"].game.nunique() == cap


def test_a_resumed_reference_plays_as_long_as_its_finished_cells(tables):
    target, pairs = 0.02, {"close": "ref", "far": "ref"}
    whole = sequential.play_rounds(list(tables), CAP, target, Stream(tables), pairs)
    # the cells were checkpointed, the reference was not: it replays as far as the longest of them
    resumed = sequential.play_rounds(list(tables), CAP, target, Stream(tables), pairs,
                                     finished={k: whole[k] for k in ("close", "far", "alone")})
    pd.testing.assert_frame_equal(resumed["ref"], whole["ref"])
    # the reference was checkpointed, a cell was not: the cell replays to the same stop
    stream = Stream(tables)
    again = sequential.play_rounds(list(tables), CAP, target, stream, pairs,
                                   finished={k: whole[k] for k in ("ref", "far", "alone")})
    pd.testing.assert_frame_equal(again["close"], whole["close"])
    assert {label for tasks in stream.asked for label, _, _ in tasks} == {"close"}


def test_the_anyone_outcome_reads_one_column():
    rows = _games(0.3, 1000, 5, players=3)
    rows.loc[rows.player == 1, "won"] = False
    rows.loc[rows.player == 2, "won"] = False
    anyone = sequential.outcome_columns(rows, "anyone")
    assert list(anyone) == ["anyone"]
    np.testing.assert_array_equal(anyone["anyone"], rows[rows.player == 0].won.to_numpy())
    assert sorted(sequential.outcome_columns(rows, "seats")) == [0, 1, 2]


# ---------------------------------------------------------------------------- through a sweep


@pytest.fixture
def token_race():
    registry.register(proof_ruleset.RULESET)
    yield proof_ruleset.RULESET
    registry.unregister(proof_ruleset.ID)


def _race_experiment(token_race) -> Experiment:
    base = token_race.example_config(2)
    axis = Axis("track", "track", (20, 21, 40), ("20", "21", "40"))
    return Experiment("race", base, 600, 3, (axis,), target_halfwidth=0.06,
                      pairs=(("track=21", "track=20"), ("track=40", "track=20")))


def test_a_paired_sweep_is_the_same_for_any_batch_size_and_after_a_resume(token_race, tmp_path, monkeypatch):
    import experiments.sweep as sw

    monkeypatch.setattr(sequential, "FIRST_BATCH", 100)
    exp = _race_experiment(token_race)
    assert exp.rule and exp.fingerprint() != exp.resized(target_halfwidth=0.05).fingerprint()
    one = sw.sweep(exp, tmp_path / "one", show_progress=False)
    games = one.summary.groupby("axis_track").games.first()
    assert games.max() <= 600 and games[20] == games.max()  # the reference plays as long as its longest cell
    assert games.min() < games.max()  # a cell whose difference is narrow early stops early
    monkeypatch.setattr(sw, "BATCH", 37)
    other = sw.sweep(exp, tmp_path / "other", show_progress=False)
    pd.testing.assert_frame_equal(one.results, other.results)
    # an interrupted sweep: the reference's checkpoint lost, it replays to the same games
    (reference,) = [p for p in (tmp_path / "other" / "cells").iterdir() if p.name.startswith("track=20-")]
    reference.unlink()
    resumed = sw.sweep(exp, tmp_path / "other", show_progress=False)
    assert resumed.played == 1
    pd.testing.assert_frame_equal(one.results, resumed.results)
