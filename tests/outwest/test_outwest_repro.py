"""Reproducibility of Out West games: the same seed gives the same games, bit for bit, for any
batch size and with the JIT on or off (``NUMBA_DISABLE_JIT=1`` in a subprocess: the kernels as
plain Python), and the dice count is the stream's length."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from outwest_helpers import config, play

from sim.rulesets.outwest.config import POLICY_PRESETS, with_policy

ROOT = Path(__file__).resolve().parents[2]
CFG = dict(zombie_plague=True, zombie_gunslingers=True, start_gunslingers=1)
N_PLAIN = 30

PLAIN = """
import json, sys
sys.path[:0] = [{tests!r}, {shared!r}]  # outwest_helpers, and the shared tests/helpers.py
from outwest_helpers import config, play
from sim.rulesets.outwest.config import POLICY_PRESETS, with_policy
df, violations = play(with_policy(config(**{cfg!r}), POLICY_PRESETS[{policy!r}]), {n}, seed=7, batch=7, check=True)
print(json.dumps({{"frame": df.astype(str).to_dict("list"), "violations": violations}}))
"""


def _frame(df: pd.DataFrame) -> pd.DataFrame:
    return df.astype(str).reset_index(drop=True)


def test_batch_sizes_do_not_change_a_game():
    cfg = config(**CFG)
    one, _ = play(cfg, 60, seed=7, batch=1)
    odd, _ = play(cfg, 60, seed=7, batch=17)
    big, _ = play(cfg, 60, seed=7, batch=60)
    pd.testing.assert_frame_equal(one, odd)
    pd.testing.assert_frame_equal(one, big)


def test_a_game_depends_only_on_its_index():
    cfg = config(**CFG)
    whole, _ = play(cfg, 40, seed=7)
    from sim.ruleset import get

    rs = get("outwest")
    tables = rs.compile(cfg)
    state = rs.new_state(cfg, tables, 5)
    rng = np.empty(5, np.uint64)
    rs.play_batch(state, tables, np.uint64(7), np.int64(30), False, rng)
    part = rs.results(cfg, state, 30, np.asarray(whole.groupby("game")["dice"].first())[30:35])
    pd.testing.assert_frame_equal(_frame(part), _frame(whole[whole["game"].between(30, 34)]))


def played(policy: str):
    """The config of these tests, every man playing ``policy`` (random-legal play included)."""
    return with_policy(config(**CFG), POLICY_PRESETS[policy])


@pytest.mark.parametrize("policy", ["stand_and_shoot", "random"])
def test_jit_on_and_off_give_identical_games(policy):
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    here = Path(__file__).parent
    code = PLAIN.format(tests=str(here), shared=str(here.parent), cfg=CFG, n=N_PLAIN, policy=policy)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT,
                         timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    plain = json.loads(out.stdout.strip().splitlines()[-1])
    jit, violations = play(played(policy), N_PLAIN, seed=7, batch=7, check=True)
    assert plain["violations"] == violations == 0
    pd.testing.assert_frame_equal(pd.DataFrame(plain["frame"]), _frame(jit))


@pytest.mark.parametrize("policy", ["stand_and_shoot", "random"])
def test_the_shared_threaded_player_gives_the_same_games(policy):
    """sim.play.play runs batches on threads (numba's thread count): the same games as one
    thread playing them in order."""
    from sim.play import play as shared_play

    cfg = played(policy)
    threaded = shared_play(cfg, 200, 7, batch_size=37)
    alone, _ = play(cfg, 200, seed=7, batch=200)
    pd.testing.assert_frame_equal(_frame(threaded), _frame(alone))
