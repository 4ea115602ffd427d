"""Zombie Apocalypse's random-legal baseline (policy ``decisions`` = 1, preset ``random``; issue 26
item 4): moves, shoot / Run / neither, targets, charges, Overwatch and Force drawn uniformly among
the legal ones from the game's own dice stream. Whole games (a few hundred, compiled once) check
that it keeps the rules, that a game depends only on (seed, game) and that the strongest default
beats it; scenes as plain Python (``nojit``) check that its choices are drawn, not the rules'."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from apocalypse_helpers import EXAMPLES, config, put_horde, put_unit, table
from helpers import ALPHA, assert_matches_pmf
from scipy import stats

import kernels.apocalypse.movement as movement
import kernels.apocalypse.shooting as shooting
import kernels.apocalypse.turn as turn
from kernels.apocalypse import columns as C
from sim.play import games, play
from sim.rulesets.apocalypse.config import POLICY_PRESETS, Policy, load_config

GAMES = 200
SEED = 26


def _all(cfg, preset):
    return replace(cfg, players=tuple(replace(p, policy=POLICY_PRESETS[preset]) for p in cfg.players))


@pytest.fixture(scope="module")
def four_random():
    cfg = _all(config("four_players"), "random")
    return cfg, play(cfg, GAMES, SEED, check=True)


def test_the_random_preset_is_the_random_decisions_and_the_others_draw_nothing():
    assert POLICY_PRESETS["random"].decisions == 1
    assert Policy().decisions == 0
    assert all(p.decisions == 0 for name, p in POLICY_PRESETS.items() if name != "random")


def test_random_play_keeps_every_rule(four_random):
    """Checked mode counts every invariant break (units, hordes, locks, models conserved): none."""
    cfg, df = four_random
    assert df.attrs["violations"] == 0
    assert (df.policy == "random").all() and len(games(df)) == GAMES


def test_random_play_depends_only_on_seed_and_game(four_random):
    """Any batch size, and a run that starts later, plays each game with the same draws."""
    cfg, df = four_random
    head = df[df.game < 60].reset_index(drop=True)
    pd.testing.assert_frame_equal(play(cfg, 60, SEED, batch_size=7, check=True), head, check_like=True)
    late = play(cfg, 30, SEED, first_game=30)
    pd.testing.assert_frame_equal(late.reset_index(drop=True),
                                  df[(df.game >= 30) & (df.game < 60)].reset_index(drop=True), check_like=True)


def test_the_strongest_default_extracts_more_than_random_play_on_paired_games(tmp_path):
    """Four players at 800 points (where `stealth`, the report's preset, extracts about a tenth of
    the games, docs/apocalypse.md) against the same table played at random, game for game: the games only `stealth`
    wins outnumber those only random play wins, by an exact one-sided sign test at ALPHA (1e-4)."""
    text = (EXAMPLES / "configs" / "four_players.toml").read_text().replace("../armies/", f"{EXAMPLES}/armies/")
    path = tmp_path / "four_800.toml"
    path.write_text(text + "\n[params]\npoints_limit = 800\n")
    cfg = load_config(path)
    default = play(_all(cfg, "stealth"), GAMES, SEED).groupby("game").won.any().to_numpy()
    rand = play(_all(cfg, "random"), GAMES, SEED).groupby("game").won.any().to_numpy()
    only_default, only_random = int((default & ~rand).sum()), int((rand & ~default).sum())
    p = stats.binomtest(only_default, only_default + only_random, 0.5, alternative="greater").pvalue
    assert p < ALPHA, (only_default, only_random, default.mean(), rand.mean())


# ------------------------------------------------------------------ scenes (plain Python)


def _scene():
    """A random player's Tactical unit at (20, 20) with a horde 8" east and one 10" north."""
    _, tb, st, rng = table()
    tb.policy[0, C.POL_DECISIONS] = 1
    u = put_unit(st, tb, 1, 20.0, 20.0)
    east = put_horde(st, tb, 20.0 + st.urad[0, u] + 8.0 + 1.5, 20.0, 5)
    north = put_horde(st, tb, 20.0, 20.0 + st.urad[0, u] + 10.0 + 1.5, 5)
    return tb, st, rng, u, east, north


def test_a_random_unit_draws_its_target_among_the_hordes_in_range(nojit):
    """Both hordes are in range: the rules (P12: the closest) always shoot the nearer one; the
    random unit picks each half the time (chi-square at ALPHA)."""
    tb, st, rng, u, east, north = _scene()
    picks = np.array([shooting.random_target(rng, 0, st, u, tb) for _ in range(400)])
    assert set(picks) == {east, north}
    assert_matches_pmf((picks == north).astype(int), np.array([0.5, 0.5]), "random target")
    assert {shooting.choose_target(st, 0, u, tb) for _ in range(5)} == {east}


def test_a_random_unit_charges_either_horde_or_none_on_even_odds(nojit):
    """Both hordes within 12": no charge, the east horde or the north one, a third each
    (chi-square at ALPHA); the rules' default (charge = 0) never charges."""
    tb, st, rng, u, east, north = _scene()
    picks = np.array([turn.random_charge(rng, 0, st, u, tb) for _ in range(600)])
    coded = np.select([picks == -1, picks == east, picks == north], [0, 1, 2], -1)
    assert (coded >= 0).all()
    assert_matches_pmf(coded, np.full(3, 1 / 3), "random charge")
    assert tb.policy[0, C.POL_CHARGE] == 0


def test_a_random_unit_moves_on_headings_round_the_compass(nojit):
    """From 12" off the zone, hordes far off, 400 times: each eighth of the compass equally
    often (chi-square at ALPHA), never beyond the 6" allowance, never within 1" of a horde."""
    tb, st, rng, u, east, north = _scene()
    for h in (east, north):
        st.hpos[0, h] = 2.0 + 3 * h, 2.0
    start = np.array([0.5 * tb.prm[C.P_TABLE] - 12.0, 0.5 * tb.prm[C.P_TABLE] + 12.0])
    sectors = []
    for _ in range(400):
        st.upos[0, u] = start
        moved = movement.wander(rng, 0, st, u, 6.0, False, tb, C.PH_MOVEMENT)
        dx, dy = st.upos[0, u] - start
        assert moved <= 6.0 + 1e-9 and math.isclose(math.hypot(dx, dy), moved, abs_tol=1e-9)
        if moved > 1e-6:
            sectors.append(int((math.atan2(dy, dx) % (2 * math.pi)) // (math.pi / 4)))
    assert_matches_pmf(np.array(sectors), np.full(8, 1 / 8), "random headings")
