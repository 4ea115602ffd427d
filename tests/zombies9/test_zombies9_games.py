"""Whole games: invariants after every step in checked mode, outcomes, reproducibility."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from kernels.zombies9 import layout as L
from sim import ruleset as registry
from sim.rulesets.zombies9.config import PRESETS, PlayerConfig, Zombies9Config, default_config

RS = registry.get("zombies9")
ROOT = Path(__file__).resolve().parents[2]


def play(config, n, seed=11, first_game=0, check=True, state=None, tables=None):
    tables = tables if tables is not None else RS.compile(config)
    st = state if state is not None else RS.new_state(config, tables, n)
    rng = np.zeros(n, np.uint64)
    RS.play_batch(st, tables, np.uint64(seed), np.int64(first_game), check, rng)
    return st, rng


def mixed_policies(n):
    names = ["balanced", "runner", "hunter", "saboteur", "random", "no_cards"]
    return tuple(PlayerConfig(f"P{k}", PRESETS[names[k % len(names)]]) for k in range(n))


CONFIGS = {
    "base": default_config(4),
    "mixed": Zombies9Config(players=mixed_policies(4), mode="mixed"),
    "alone": Zombies9Config(players=mixed_policies(3), mode="alone"),
    "everything": Zombies9Config(
        players=mixed_policies(6), mode="mixed", kid_rule=True, kid_placement="aggressive", pet_cemetery_dogs=True,
        dogs_mix=True, enter_any_side=True, two_dice_after_helipad=True, continue_after_fight=False,
        pickup_passing=False, death_rounding="down", death_discards_hand=True, move_zombie_on_player=False,
        butter_fingers_bullets=True, first_aid_drug_store=True, item_anywhere_on_tile=True,
        helipad_placer="most_kills", graveyard_separate=False, crematorium_trigger="empty",
        little_problem_scope="graveyard", kid_first=True, populate="random", token_cap=2, z9_fillers=True,
        helipad_position="bottom", max_rounds=60),
    "alone_options": Zombies9Config(players=mixed_policies(2), mode="alone", cemetery_trigger="empty",
                                    alone_kills_win=True, pet_cemetery_dogs=True, zombie_pool_limited=False),
    "two_players_no_cards": default_config(2, event_cards=False),
    "quick_base": default_config(4, quick_game=True, two_dice_after_helipad=True),  # B9 options
    "quick_mixed": Zombies9Config(players=mixed_policies(4), mode="mixed", quick_game=True, death_tokens="at_once"),
}
REASONS = {"base": {1, 2, 5}, "mixed": {1, 2, 3, 5}, "alone": {4, 5}, "everything": {1, 2, 3, 5},
           "alone_options": {2, 4, 5}, "two_players_no_cards": {1, 2, 5},
           "quick_base": {1, 2, 5}, "quick_mixed": {1, 2, 3, 5}}


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_invariants_hold_after_every_step(name):
    config = CONFIGS[name]
    n = 150
    st, rng = play(config, n)
    assert st.viol.sum() == 0, f"{name}: {st.viol.sum()} invariant violations in {np.count_nonzero(st.viol)} games"
    res = st.res
    winner, reason = res[:, L.RES_WINNER], res[:, L.RES_REASON]
    assert set(np.unique(reason)) <= REASONS[name]
    assert np.all((winner >= 0) == (reason != L.REASON_TIMEOUT))
    assert np.all(winner < config.n_players)
    assert np.all(res[:, L.RES_ROUNDS] <= config.max_rounds) and np.all(res[:, L.RES_ROUNDS] >= 1)
    assert np.all(res[:, L.RES_TURNS] <= res[:, L.RES_ROUNDS] * config.n_players)
    kills = st.pres[:, :, L.PR_KILLS]
    won_by_kills = reason == L.REASON_KILLS
    assert np.all(kills[won_by_kills, winner[won_by_kills]] >= config.kills_to_win)
    assert np.all(st.pres[:, :, L.PR_KILLED] >= kills)
    df = RS.results(config, st, 0, np.zeros(n, np.int64))
    assert list(df.columns[:9]) == list(registry.COMMON_COLUMNS)
    per_game = df.groupby("game")["won"].sum()
    assert set(per_game.unique()) <= {0, 1}
    assert (df.groupby("game")["turn_order"].apply(lambda s: sorted(s) == list(range(config.n_players)))).all()


def test_each_mode_has_its_victories():
    """Base: the Helipad and 25 kills; mixed adds the Crematorium; alone wins only by the
    Cemeteries (D28)."""
    seen = {}
    for mode in ("base", "mixed", "alone"):
        st, _ = play(default_config(4, mode=mode), 300, seed=3, check=False)
        seen[mode] = set(np.unique(st.res[:, L.RES_REASON]))
    assert L.REASON_HELIPAD in seen["base"] and L.REASON_CREMATORIUM not in seen["base"]
    assert L.REASON_CREMATORIUM in seen["mixed"]
    assert seen["alone"] <= {L.REASON_CEMETERIES, L.REASON_TIMEOUT} and L.REASON_CEMETERIES in seen["alone"]


def test_batch_sizes_and_reused_states_give_the_same_games():
    config = CONFIGS["mixed"]
    tables = RS.compile(config)
    whole, rng_whole = play(config, 60, seed=99, tables=tables, check=False)
    for size in (1, 17):
        st = RS.new_state(config, tables, size)
        for start in range(0, 60, size):
            count = min(size, 60 - start)
            part = RS.head(st, count)
            rng = np.zeros(count, np.uint64)
            RS.play_batch(part, tables, np.uint64(99), np.int64(start), False, rng)  # the state is reused
            assert np.array_equal(part.res, whole.res[start: start + count]), (size, start)
            assert np.array_equal(part.pres, whole.pres[start: start + count]), (size, start)
            assert np.array_equal(rng, rng_whole[start: start + count])


def test_same_game_in_a_traced_batch():
    config = CONFIGS["base"]
    plain, _ = play(config, 5, seed=4, check=False)
    tables = RS.compile(config)
    st = RS.new_state(config, tables, 1, trace_events=20_000)
    RS.play_batch(st, tables, np.uint64(4), np.int64(3), False, np.zeros(1, np.uint64))
    assert np.array_equal(st.res[0], plain.res[3])
    events = RS.events(st)
    assert events.shape[1] == L.N_EV and len(events) == st.n_events[0] > 0


CHILD = """
import json, sys
from test_zombies9_games import CONFIGS, play
st, rng = play(CONFIGS[sys.argv[1]], int(sys.argv[2]), seed=21, check=True)
print(json.dumps({"res": st.res.tolist(), "pres": st.pres.tolist(), "rng": [int(x) for x in rng],
                  "viol": int(st.viol.sum())}))
"""


@pytest.mark.slow
@pytest.mark.parametrize("name", ["mixed", "everything"])
def test_plain_python_gives_the_same_games(name):
    """NUMBA_DISABLE_JIT=1 (the debugging path) plays bit for bit the same games."""
    n = 6
    here = Path(__file__).resolve().parent
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=f"{ROOT}{os.pathsep}{here}{os.pathsep}{ROOT / 'tests'}")
    out = subprocess.run([sys.executable, "-c", CHILD, name, str(n)], env=env, capture_output=True, text=True,
                         timeout=600, check=True, cwd=here)
    child = json.loads(out.stdout.strip().splitlines()[-1])
    st, rng = play(CONFIGS[name], n, seed=21, check=True)
    assert child["viol"] == 0
    assert child["res"] == st.res.tolist()
    assert child["pres"] == st.pres.tolist()
    assert child["rng"] == [int(x) for x in rng]
