"""The contract every ruleset keeps (docs/rulesets.md), checked on every registered one and on the
test tree's Token Race (tests/proof_ruleset.py), as OpenSpiel's and pgx's api tests check every
game: a new ruleset gets all of this by being registered.

A few games of its example config: the same rows for two batch sizes, an offset start, one or two
threads and with the JIT off; checked mode finds 0 violations; the trace tells and draws the very
game a batch plays; every report section and sensitivity config builds at scale 0; the results
frame is its documented one (an empty frame the same columns); `shamble params` and `shamble
policies` list it. Cheap on purpose: the compiled kernels the other tests load, a dozen games.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import proof_ruleset
import pytest
from test_results_schema import documented_columns, holds
from typer.testing import CliRunner

from experiments.cli import app
from experiments.report import suite
from experiments.sensitivity import sensitivity_experiment
from sim import ruleset as registry
from sim.play import play, run_batches, trace_game

GAMES, SEED = 8, 20261202
JIT_OFF_GAMES = 3  # plain Python: about a second a game for the largest example configs


@pytest.fixture(scope="module", params=[*registry.ids(), proof_ruleset.ID])
def rs(request):
    if request.param != proof_ruleset.ID:
        yield registry.get(request.param)
        return
    registry.register(proof_ruleset.RULESET)
    yield proof_ruleset.RULESET
    registry.unregister(proof_ruleset.ID)


@pytest.fixture(scope="module")
def config(rs):
    return rs.example_config()


@pytest.fixture(scope="module")
def played(rs, config):
    """GAMES games in batches of 3, invariants checked (the rows every other check compares)."""
    return play(config, GAMES, SEED, batch_size=3, check=True)


def _rows(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.reset_index(drop=True)


def test_one_row_per_game_and_player_and_no_violations(played, config):
    assert played.attrs["violations"] == 0
    per_game = played.groupby("game").player.apply(list)
    assert list(per_game.index) == list(range(GAMES))
    assert all(seats == list(range(len(seats))) and seats for seats in per_game)
    assert tuple(played.columns[:len(registry.COMMON_COLUMNS)]) == registry.COMMON_COLUMNS


def test_results_are_the_same_for_another_batch_size(played, config):
    pd.testing.assert_frame_equal(play(config, GAMES, SEED, batch_size=GAMES), played)


def test_a_game_is_the_same_from_an_offset_start(played, config):
    later = play(config, 3, SEED, first_game=GAMES - 3)
    pd.testing.assert_frame_equal(later, _rows(played[played.game >= GAMES - 3]))


@pytest.mark.parametrize("threads", [1, 2])
def test_results_are_the_same_on_one_or_two_threads(rs, played, config, threads):
    frames = [rs.results(config, st, start, dice)
              for start, st, dice in run_batches(config, GAMES, SEED, batch_size=2, threads=threads)]
    pd.testing.assert_frame_equal(pd.concat(frames, ignore_index=True), played)


def test_the_jit_off_plays_the_same_games(played, config, nojit):
    """The kernels as plain Python (the ``nojit`` fixture swaps every dispatcher, play_batch of every
    registered ruleset included, for its ``py_func``)."""
    plain = play(config, JIT_OFF_GAMES, SEED, check=True)
    assert plain.attrs["violations"] == 0
    pd.testing.assert_frame_equal(plain, _rows(played[played.game < JIT_OFF_GAMES]), check_dtype=False)


def test_no_games_is_an_empty_frame_of_the_same_columns(rs, played, config):
    empty = rs.results(config, None, 0, np.zeros(0, np.int64))
    assert list(empty.columns) == list(played.columns) and len(empty) == 0
    assert list(play(config, 0, SEED).columns) == list(played.columns)


def test_the_frame_is_the_documented_one(rs, played):
    assert holds(played, documented_columns(rs)) == []


def test_the_trace_tells_and_draws_the_game_a_batch_plays(rs, played, config, tmp_path):
    game = int(played.groupby("game").turns.first().idxmin())  # the shortest: the fewest pictures
    events, result = trace_game(config, SEED, game)
    pd.testing.assert_frame_equal(_rows(result), _rows(played[played.game == game]))
    lines, pictures = rs.trace(config, events, result, tmp_path)
    assert lines and all(isinstance(line, str) for line in lines)
    assert all(p.exists() and p.stat().st_size > 0 for p in pictures)
    assert rs.trace(config, events, result, None)[1] == []


def test_every_report_section_builds_at_scale_0(rs):
    parts = suite(0.0, [rs])
    sections = [played for part in parts for played in part.sections]
    assert len(sections) == len(rs.report_sections(0.0))
    for section in sections:
        assert section.spec.games >= 1 and section.spec.title, section.spec.key
        for cell in section.experiment.cells():
            rs.compile(cell.config)


def test_every_sensitivity_config_builds(rs, config):
    for cell in sensitivity_experiment(config, 10, SEED).cells():
        rs.compile(cell.config)


def test_params_lists_every_parameter_with_help(rs):
    out = CliRunner().invoke(app, ["params", "--ruleset", rs.id, "--json"])
    assert out.exit_code == 0, out.output
    assert out.output.count('"name"') >= len(rs.parameters())
    for p in rs.parameters():
        assert f'"{p.name}"' in out.output


def test_policies_lists_every_preset(rs):
    out = CliRunner().invoke(app, ["policies", "--ruleset", rs.id])
    assert out.exit_code == 0, out.output
    for name in rs.policy_presets():
        assert name in out.output
    assert set(rs.policy_help()) and all(isinstance(text, str) for text in rs.policy_help().values())
