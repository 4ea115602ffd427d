"""`shamble trace` tells a Zombie 40,000 game in the order it happened (issue 20 item 14): a
volley before the wipe and the power-up it causes, a fight before its deaths, a charge before the
Overwatch it draws; every line labelled with the phase it happened in; model counts and plurals.

The traces are real games (compiled kernels, seeded): the checks run over every event of 24 games,
so they hold for what happens, not for one hand-picked game.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from kernels.zombie40k import columns as GL
from sim.play import trace_game
from sim.ruleset import load_config
from sim.rulesets.zombie40k.trace import count, describe, narrative

ROOT = Path(__file__).resolve().parents[1]
PLAYER_PHASES = {GL.PH_RESPAWN, GL.PH_MOVEMENT, GL.PH_PSYCHIC, GL.PH_SHOOTING, GL.PH_ASSAULT}
ZOMBIE_PHASES = {GL.PH_Z_RESPAWN, GL.PH_SHAMBLE, GL.PH_Z_SHOOTING, GL.PH_Z_ASSAULT}


@pytest.fixture(scope="module")
def traces():
    out = []
    for name in ("two_players", "four_players"):
        config = load_config(ROOT / "examples" / "configs" / f"{name}.toml")
        for game in range(12):
            events, _ = trace_game(config, 5, game)
            out.append((config, events))
    return out


def kinds(events) -> np.ndarray:
    return events[:, GL.EV_KIND].astype(int)


def test_a_wipe_comes_after_the_volley_or_fight_that_caused_it(traces):
    """Every wipe by a unit in a shooting or assault phase has its cause (that unit's volley or
    fight, or a volley at it) earlier in the same phase, never after it."""
    checked = 0
    for _, ev in traces:
        k = kinds(ev)
        for i in np.flatnonzero(k == GL.EK_WIPE):
            killer, phase = int(ev[i, GL.EV_OTHER]), ev[i, GL.EV_PHASE]
            if killer < 0 or phase not in (GL.PH_SHOOTING, GL.PH_Z_SHOOTING):
                continue
            same = (ev[:, GL.EV_PHASE] == phase) & (ev[:, GL.EV_TURN] == ev[i, GL.EV_TURN])
            volleys = np.flatnonzero(same & (k == GL.EK_SHOOT) & (ev[:, GL.EV_UNIT] == killer))
            assert volleys.size and volleys.min() < i, f"wipe at {i} before its volley"
            checked += 1
    assert checked > 10


def test_a_power_up_for_a_wipe_comes_after_the_wipe(traces):
    for _, ev in traces:
        k = kinds(ev)
        for i in np.flatnonzero(k == GL.EK_POWERUP):
            if ev[i, GL.EV_PHASE] == GL.PH_RESPAWN:
                continue  # the catch-up roll of a respawned squad
            earlier = np.flatnonzero((k[:i] == GL.EK_WIPE) & (ev[:i, GL.EV_OTHER] == ev[i, GL.EV_UNIT]))
            assert earlier.size, f"power-up at {i} with no wipe before it"


def test_every_event_is_labelled_with_the_phase_it_happened_in(traces):
    """Player-side events of a player's turn fall in that player's phases; a squad falling back
    after the zombies' shooting or combat is in a zombie phase, not in [shooting]."""
    zombie_falls = 0
    for config, ev in traces:
        n_p = config.n_players
        for row in ev:
            kind, phase, unit = int(row[GL.EV_KIND]), row[GL.EV_PHASE], int(row[GL.EV_UNIT])
            if kind == GL.EK_RESPAWN:
                assert phase == GL.PH_RESPAWN
            if kind in (GL.EK_MOVE, GL.EK_RUN) and unit < n_p:
                assert phase in (GL.PH_MOVEMENT, GL.PH_SHOOTING)
            if kind == GL.EK_SHAMBLE:
                assert phase == GL.PH_SHAMBLE
            if kind == GL.EK_ZOMBIE_ARRIVE:
                assert phase == GL.PH_Z_RESPAWN
            if kind == GL.EK_DEPLOY:
                assert row[GL.EV_TURN] == 0 and phase == GL.PH_SETUP
            if kind == GL.EK_FALL_BACK and phase in ZOMBIE_PHASES:
                zombie_falls += 1
            if kind == GL.EK_SHOOT and unit >= n_p:
                assert phase in ZOMBIE_PHASES  # zombies shoot only in their own turn (and never Overwatch)
    assert zombie_falls > 0


def test_lines_show_model_counts_and_plurals(traces):
    config, ev = next((c, e) for c, e in traces if (kinds(e) == GL.EK_SHOOT).any())
    lines = narrative(config, ev)
    deploys = [line for line in lines if "deploys at" in line]
    assert deploys and all(" with " in line and " model" in line for line in deploys)
    volleys = [line for line in lines if " shoots " in line]
    assert all(line.rsplit("; ", 1)[-1].endswith(("left",)) for line in volleys)
    assert not any(re.search(r"(?<![\d.])1 (models|unsaved wounds|hits)", line) for line in lines)
    assert count(1, "model") == "1 model" and count(0, "model") == "0 models" and count(3, "hit") == "3 hits"


def test_a_cancelled_volley_is_not_told():
    row = np.zeros(GL.N_EV, np.float32)
    row[GL.EV_KIND] = GL.EK_NONE
    config = load_config(ROOT / "examples" / "configs" / "two_players.toml")
    assert describe(config, row) is None
