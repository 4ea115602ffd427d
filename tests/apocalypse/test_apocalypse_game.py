"""Whole Zombie Apocalypse games through the seam (``sim.play``): invariants after every phase in
checked mode over a few hundred games of every example and option, the result columns, the same
results for any batch size and with the JIT off, the trace."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from apocalypse_helpers import config

from kernels.apocalypse import columns as C
from sim import ruleset as registry
from sim.play import play, trace_game
from sim.rulesets.apocalypse.config import POLICY_PRESETS
from sim.rulesets.apocalypse.results import NOISE, SOURCES

ROOT = Path(__file__).resolve().parents[2]
RS = registry.get("apocalypse")

OPTIONS = [
    {}, {"illegal_scatter": "rescatter"}, {"zone_shape": "square"}, {"allocation": "zombies_first"},
    {"edge_position": "random"}, {"exchange": "none"}, {"exchange": "maximise", "exchange_batches": "waves"},
    {"aura_fear_effect": "fall_back"}, {"first_zombie_bonus": "stack"}, {"noise_per": "shot"},
    {"extraction": "wholly"}, {"graveyard_trigger": "end_move"}, {"max_zombies": 60}, {"spawn_points": 6},
    {"foggy": False, "graveyard": False}, {"players_bonus": "zombie_counts"}, {"spawners_after_players": False},
    {"super_squad_timing": "any"}, {"resilience_best": 3, "split_charges": False},
    {"free_units": "purchased"}, {"movement_noise": "include_charges"}, {"master_of_offence_scope": "all"},
    {"terrain": "city"}, {"terrain": "random", "terrain_pieces": 9, "terrain_piece_radius_in": 4.0},
]


def _policies(cfg, name):
    return replace(cfg, players=tuple(replace(p, policy=POLICY_PRESETS[name]) for p in cfg.players))


def _check_frame(df: pd.DataFrame, n_games: int, n_players: int) -> None:
    assert df.attrs["violations"] == 0
    assert len(df) == n_games * n_players and list(df.columns[:9]) == list(registry.COMMON_COLUMNS)
    g = df.groupby("game")
    assert (g.won.nunique() == 1).all()  # a cooperative result: all players or none
    assert set(df.reason) <= set(RS.end_reasons) and df.turns.between(1, 7).all()
    assert ((df.reason == "extracted") == df.won).all() and ((df.game_winner == "players") == df.won).all()
    assert (df.loc[df.reason == "warlords_dead", "warlords_left"] == 0).all()
    assert (df.loc[df.won, "extracted"] == (df.loc[df.won, "warlord"] == "alive")).all()
    assert (df.spawned_total == df[[f"spawned_{s}" for s in SOURCES]].sum(axis=1)).all()
    assert (df.spawned_noise == df[[f"spawned_{s}" for s in NOISE]].sum(axis=1)).all()
    assert (df.slot_overflow == 0).all()
    assert (df.models_lost <= df.models_start).all() and (df.models_lost >= 0).all()


@pytest.mark.parametrize("name", ["one_player", "two_players", "three_players", "four_players"])
def test_invariants_hold_in_every_example(name):
    cfg = config(name)
    for policy in ("staged", "stealth", "gunline"):
        df = play(_policies(cfg, policy), 150, seed=5, batch_size=64, check=True)
        _check_frame(df, 150, cfg.n_players)


@pytest.mark.slow
@pytest.mark.parametrize("option", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_invariants_hold_under_every_option(option):
    cfg = replace(config("four_players"), **option)
    charging = replace(POLICY_PRESETS["staged"], charge=1, charge_max=10)
    cfg = replace(cfg, players=tuple(replace(p, policy=charging, trait=t) for p, t in zip(
        cfg.players, ("master_of_offence", "legendary_fighter", "target_priority", "auto"))))
    df = play(cfg, 100, seed=9, batch_size=50, check=True)
    _check_frame(df, 100, cfg.n_players)


@pytest.mark.parametrize("option", [{}, {"terrain": "city"}, {"blind_effect": False}, {"terrain": "random"}],
                         ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_invariants_hold_with_defensive_grenades_and_terrain(option):
    """The Tau Sept of three_players throws photon grenades (Blind, core §12) every game."""
    cfg = replace(config("three_players"), **option)
    df = play(_policies(cfg, "staged"), 150, seed=6, batch_size=64, check=True)
    _check_frame(df, 150, cfg.n_players)
    thrown = df[df.army == "Tau Sept"].grenades.sum()
    assert thrown > 0 if cfg.blind_effect else thrown == 0  # weighed by kills only, an S1 blast never wins


def test_the_dice_follow_the_seed_and_the_game_index():
    cfg = config("two_players")
    a = play(cfg, 30, seed=3)
    b = play(cfg, 10, seed=3, first_game=20)
    pd.testing.assert_frame_equal(a[a.game >= 20].reset_index(drop=True), b)
    assert not play(cfg, 30, seed=4).equals(a)


JIT_OFF_CODE = """
import json, sys
from sim.play import play
from sim.ruleset import load_config
df = play(load_config(sys.argv[1]), 3, seed=21)
print(json.dumps(df.drop(columns=["ruleset"]).to_dict(orient="list"), default=int))
"""


CITY = '''ruleset = "apocalypse"
[params]
terrain = "city"
[[players]]
name = "Ulthwe"
army = "{armies}/ulthwe.toml"
[[players]]
name = "Sept"
army = "{armies}/sept.toml"
'''


def test_jit_off_gives_the_same_games_on_a_city_table(tmp_path):
    """A table of ruins with the Tau's photon grenades (Blind); the example config's games:
    tests/test_ruleset_contract.py."""
    path = tmp_path / "city.toml"
    path.write_text(CITY.format(armies=(ROOT / "examples" / "apocalypse" / "armies").as_posix()))
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    done = subprocess.run([sys.executable, "-c", JIT_OFF_CODE, str(path)], capture_output=True, text=True, env=env,
                          cwd=ROOT, check=True, timeout=600)
    off = pd.DataFrame(json.loads(done.stdout.strip().splitlines()[-1]))
    on = play(registry.load_config(path), 3, seed=21).drop(columns=["ruleset"])
    on = pd.DataFrame(json.loads(json.dumps(on.to_dict(orient="list"), default=int)))
    pd.testing.assert_frame_equal(on, off, check_dtype=False)


def test_trace_tells_the_game_and_draws_the_table(tmp_path):
    cfg = config("two_players")
    events, result = trace_game(cfg, 2, 0)
    lines, pictures = RS.trace(cfg, events, result, tmp_path)
    text = "\n".join(lines)
    assert "== setup ==" in text and "spawn point 1 lands" in text and "== game turn 1 ==" in text
    assert "== result: the" in lines[-1]
    assert "the First Zombie joins horde" in text and "zombie models come on (deployment)" in text
    assert pictures and all(p.exists() and p.stat().st_size > 1000 for p in pictures)
    assert len(pictures) == int(result.turns.iloc[0]) + 2  # turn_NN.png per game turn, game.gif, the contact sheet
    # What the table drawings show: every spawn point, and each horde at the end of each turn with its models
    kinds = events[:, C.EV_KIND]
    assert (kinds == C.EK_SPAWNER).sum() == cfg.n_players  # A10: one spawn point per player
    snaps = events[kinds == C.EK_SNAP_HORDE]
    last = snaps[snaps[:, C.EV_TURN] == snaps[:, C.EV_TURN].max()]
    assert last[:, C.EV_B].sum() == result.zombies_on_table.iloc[0] > 0
    again, _ = trace_game(cfg, 2, 0)
    np.testing.assert_array_equal(events, again)
    batch = play(cfg, 1, seed=2)
    pd.testing.assert_frame_equal(batch, result.reset_index(drop=True))


def test_trace_draws_the_ruins_and_tells_the_blind(tmp_path):
    cfg = replace(config("three_players"), terrain="city")
    for game in range(12):
        events, result = trace_game(cfg, 4, game)
        if (events[:, C.EV_KIND] == C.EK_BLIND).any():
            break
    kinds = events[:, C.EV_KIND]
    assert (kinds == C.EK_TERRAIN).sum() == 8  # the city's eight ruins, set up before deployment (§3.2)
    assert (events[kinds == C.EK_TERRAIN][:, C.EV_TURN] == 0).all()
    lines, pictures = RS.trace(cfg, events, result, tmp_path)
    text = "\n".join(lines)
    assert text.count("a ruin (difficult terrain, cover) stands at") == 8
    assert "hit by Blind, tests Initiative" in text
    assert pictures and all(p.exists() and p.stat().st_size > 1000 for p in pictures)


def test_the_spec_defaults_lose_and_stealth_does_better():
    """Under the spec's default policy (P3-P12) the players all but never win the four-player game;
    the stealth preset (no gunfire, no Overwatch, straight to the zone, Warlords apart) wins some
    and lasts longer (docs/apocalypse.md: the noise table and the hordes' growth)."""
    cfg = config("four_players")
    staged = play(cfg, 300, seed=1)
    stealth = play(_policies(cfg, "stealth"), 300, seed=1)
    assert staged.groupby("game").won.first().mean() < 0.02
    assert stealth.turns.mean() > staged.turns.mean() + 0.5
    assert stealth.spawned_noise.mean() < 0.3 * staged.spawned_noise.mean()


def test_example_configs_for_one_to_four_players():
    for n in (1, 2, 3, 4):
        cfg = RS.example_config(n)
        assert cfg.n_players == n and cfg.ruleset == "apocalypse"
    with pytest.raises(ValueError, match="allowed: a player count"):
        RS.example_config(5)
