"""The Ruleset seam (sim.ruleset): a ruleset defined in the test tree (tests/proof_ruleset.py, Token
Race) is registered, played through ``sim.play``, swept and reported with no shared file knowing
it; the registry's errors; the common result columns of every ruleset."""

from __future__ import annotations

import json

import numpy as np
import proof_ruleset
import pytest
from scipy import stats

from experiments.experiment import Experiment, parse_axes
from experiments.report import run_report
from experiments.sweep import sweep
from sim import ruleset as registry
from sim.play import play, trace_game


@pytest.fixture
def token_race():
    registry.register(proof_ruleset.RULESET)
    yield proof_ruleset.RULESET
    registry.unregister(proof_ruleset.ID)


def _config(tmp_path, text: str):
    path = tmp_path / "race.toml"
    path.write_text(text)
    return registry.load_config(path)


RACE = """ruleset = "token_race"
params = { track_length = 12 }
[[players]]
name = "Hare"
policy = "bold"
[[players]]
name = "Tortoise"
"""


def test_a_config_file_names_its_ruleset(token_race, tmp_path):
    config = _config(tmp_path, RACE)
    assert config.ruleset == "token_race" and config.track_length == 12
    assert [p.policy.bold for p in config.players] == [1, 0]


def test_play_gives_the_common_columns_then_its_own(token_race, tmp_path):
    df = play(_config(tmp_path, RACE), 300, seed=3, batch_size=64)
    assert list(df.columns) == [*registry.COMMON_COLUMNS, "position"]
    assert (df.ruleset == "token_race").all() and len(df) == 600
    per_game = df.groupby("game")
    assert (per_game.won.sum() <= 1).all() and set(df.reason) <= set(token_race.end_reasons)
    assert ((df.reason == "finish") == df.groupby("game").won.transform("any")).all()
    assert (df.dice > 0).all() and (df.loc[df.won, "position"] >= 12).all()


def test_first_mover_wins_as_often_as_the_exact_race_says(token_race, tmp_path):
    """A 12-square race of two steady tokens, one D6 each per turn, the first player moving first:
    P(first wins) by exact dynamic programming over the positions, against 20,000 games (binomial
    test at alpha 1e-4: an honest kernel fails once in 10,000 runs)."""
    config = _config(tmp_path, RACE.replace('policy = "bold"', 'policy = "steady"'))
    df = play(config, 20_000, seed=11)
    first = int(df[df.player == 0].won.sum())
    finished = int(df.groupby("game").won.any().sum())
    assert stats.binomtest(first, finished, _p_first_wins(12, config.max_turns)).pvalue > 1e-4


def _p_first_wins(track: int, max_turns: int) -> float:
    """P(player 0 finishes first | somebody finishes within max_turns), exactly."""
    d = np.zeros(track + 1)
    d[0] = 1.0  # distribution of a token's squares, capped at the finish
    reach = []  # P(finished by the end of turn t)
    for _ in range(max_turns):
        nxt = np.zeros(track + 1)
        for pos in range(track):
            for die in range(1, 7):
                nxt[min(track, pos + die)] += d[pos] / 6
        nxt[track] += d[track]
        d = nxt
        reach.append(d[track])
    first = sum((reach[t] - (reach[t - 1] if t else 0.0)) * (1 - (reach[t - 1] if t else 0.0))
                for t in range(max_turns))
    second = sum((reach[t] - (reach[t - 1] if t else 0.0)) * (1 - reach[t]) for t in range(max_turns))
    return first / (first + second)


def test_two_cell_sweep_and_a_report_section(token_race, tmp_path):
    config = _config(tmp_path, RACE)
    exp = Experiment("race", config, 50, 2, tuple(parse_axes({"track": [8, 80]}, config, tmp_path)))
    result = sweep(exp, tmp_path / "sweep", show_progress=False)
    rates = result.summary.groupby("axis_track").rate.sum()
    assert set(result.summary.axis_track) == {8, 80} and rates[8] > rates[80]  # long tracks time out; a number axis
    folder = run_report("proof", tmp_path / "reports", scale=0.05, rulesets=["token_race"])
    readme = (folder / "README.md").read_text()
    assert "## Token Race" in readme and "finish rate" in readme
    assert (folder / "data" / "token_race" / "track" / "results.parquet").exists()
    assert json.loads((folder / "meta.json").read_text())["sections"]["token_race/track"]["cells"] == 2


def test_trace_goes_through_the_ruleset(token_race, tmp_path):
    events, result = trace_game(_config(tmp_path, RACE), 3, 7)
    lines, pictures = token_race.trace(None, events, result, None)
    assert lines[0].startswith("positions") and pictures == []


def test_an_unknown_ruleset_is_one_line(tmp_path):
    path = tmp_path / "x.toml"
    path.write_text('ruleset = "zombie400k"\n')
    with pytest.raises(registry.RulesetError) as err:
        registry.load_config(path)
    message = str(err.value)
    assert "\n" not in message and str(path) in message and "zombie400k" in message and "zombie40k" in message


def test_a_registration_lacking_a_member_is_refused():
    class Half:
        id = "half"

    with pytest.raises(registry.RulesetError, match="ruleset 'half': missing .*play_batch"):
        registry.register(Half())


NAMES = ("id", "title", "description", "spec", "win_word", "kernels_package")


@pytest.mark.parametrize("rs", registry.all_rulesets(), ids=lambda rs: rs.id)
def test_every_discovered_ruleset_implements_the_protocol(rs):
    """Each member is of its kind (register checks only that it exists): names are words, the
    methods callable, the end reasons words, the per-game fields its state's, the shown columns
    its frame's."""
    assert all(isinstance(getattr(rs, name), str) for name in NAMES) and rs.id.isidentifier() and rs.title
    assert all(callable(getattr(rs, name)) for name in registry._required_members()
               if name not in (*NAMES, "end_reasons", "play_columns"))
    assert rs.end_reasons and all(isinstance(reason, str) for reason in rs.end_reasons)
    config = rs.example_config()
    state = rs.new_state(config, rs.compile(config), 0)
    assert getattr(rs, "per_game", None) is None or set(rs.per_game) <= set(state._fields)
    empty = rs.results(config, None, 0, np.zeros(0, np.int64))
    assert config.ruleset == rs.id and empty.columns[:9].tolist() == list(registry.COMMON_COLUMNS)
    assert set(rs.play_columns) <= set(empty.columns)
