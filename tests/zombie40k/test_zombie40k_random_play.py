"""Zombie 40,000's random-legal baseline (policy ``decisions`` = 1, preset ``random``; issue 26
item 4): every choice the policy has is drawn uniformly among the legal ones, from the game's own
dice stream. Whole games (a few hundred, compiled once) check that it keeps the rules, that a game
depends only on (seed, game) and that the default beats it; scenes played as plain Python
(``nojit``) check that its targets, charges and headings are drawn, not the heuristic's."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from conftest import clear_table, example_config, one_game, put_unit, team_config
from helpers import ALPHA, assert_matches_pmf
from scipy import stats

import kernels.zombie40k.geometry
import kernels.zombie40k.movement
import kernels.zombie40k.turn
import kernels.zombie40k.units
from sim.play import games, play
from sim.rulesets.zombie40k.compile import policies
from sim.rulesets.zombie40k.config import POLICY_PRESETS, Policy

GAMES = 200
SEED = 26


def _all_random(config):
    return replace(config, players=tuple(replace(p, policy=POLICY_PRESETS["random"]) for p in config.players))


@pytest.fixture(scope="module")
def four_random():
    config = _all_random(example_config("four_players"))
    return config, play(config, GAMES, SEED, check=True)


def test_the_random_preset_is_the_random_decisions_and_the_default_draws_nothing():
    assert POLICY_PRESETS["random"].decisions == 1
    assert Policy().decisions == 0
    assert all(p.decisions == 0 for name, p in POLICY_PRESETS.items() if name != "random")


def test_random_play_keeps_every_rule(four_random):
    """Checked mode counts every invariant break (positions, locks, models, summaries): none."""
    config, df = four_random
    assert df.attrs["violations"] == 0
    per_game = games(df)
    assert len(per_game) == GAMES and (per_game.turns <= config.max_game_turns).all()
    assert (df.models_left >= 0).all()


def test_random_play_depends_only_on_seed_and_game(four_random):
    """Any batch size, and a run that starts later, plays each game with the same draws."""
    config, df = four_random
    head = df[df.game < 60].reset_index(drop=True)
    pd.testing.assert_frame_equal(play(config, 60, SEED, batch_size=7, check=True), head, check_like=True)
    late = play(config, 30, SEED, first_game=30)
    pd.testing.assert_frame_equal(late.reset_index(drop=True),
                                  df[(df.game >= 30) & (df.game < 60)].reset_index(drop=True), check_like=True)


def test_the_default_escapes_more_than_random_play_on_paired_games():
    """The two-player example (Guard hunter, Marines dash) against the same table played at
    random, game for game (same seed): the games only the default wins outnumber those only the
    random play wins, by an exact one-sided sign test at ALPHA (1e-4)."""
    config = example_config("two_players")
    default = games(play(config, GAMES, SEED)).reason.eq("escape").to_numpy()
    rand = games(play(_all_random(config), GAMES, SEED)).reason.eq("escape").to_numpy()
    only_default, only_random = int((default & ~rand).sum()), int((rand & ~default).sum())
    p = stats.binomtest(only_default, only_default + only_random, 0.5, alternative="greater").pvalue
    assert p < ALPHA, (only_default, only_random, default.mean(), rand.mean())


# ------------------------------------------------------------------ scenes (plain Python)


def _scene(policy):
    """Guard (``policy``) at the table's middle, a horde of 3 at 10" and the Boss at 5"."""
    st, tb, rng = one_game(team_config("guard", "marines", policies=[policy, "advance"]))
    boss = kernels.zombie40k.units.boss_unit(st)
    clear_table(st, keep=(0, 2, boss))
    st.wounds[0, 2, 3:] = 0
    st.usum[:] = 0
    put_unit(st, tb, 2, 24.0, 30.0)
    put_unit(st, tb, 0, 24.0, 30.0 - st.radius[0, 0] - st.radius[0, 2] - 10.0)
    put_unit(st, tb, boss, 24.0 - st.radius[0, 0] - st.radius[0, boss] - 5.0, st.pos[0, 0, 1])
    return st, tb, rng, boss


def test_a_random_squad_draws_its_target_among_those_it_may_shoot(nojit):
    """Both the horde and the Boss are in range: the hunter always shoots the horde (it gives a
    power-up); the random squad picks each half the time (chi-square at ALPHA)."""
    st, tb, rng, boss = _scene("random")
    picks = np.array([kernels.zombie40k.turn._target(st, 0, 0, tb, rng) for _ in range(400)])
    assert set(picks) == {2, boss}
    assert_matches_pmf((picks == boss).astype(int), np.array([0.5, 0.5]), "random target")
    hunter = tb._replace(policy=policies(team_config("guard", "marines", policies=["hunter", "advance"])))
    before = rng.copy()
    assert {kernels.zombie40k.turn._target(st, 0, 0, hunter, rng) for _ in range(20)} == {2}
    assert (rng == before).all()  # the heuristic draws nothing


def test_a_random_squad_charges_or_holds_on_even_odds(nojit):
    """The Boss at 5" may be charged, the horde at 10" too: no charge, the horde or the Boss,
    a third each (chi-square at ALPHA); the default (charge = 0) never charges."""
    st, tb, rng, boss = _scene("random")
    picks = np.array([kernels.zombie40k.turn._random_charge(st, 0, 0, tb, rng) for _ in range(600)])
    coded = np.select([picks == -1, picks == 2, picks == boss], [0, 1, 2], -1)
    assert (coded >= 0).all()
    assert_matches_pmf(coded, np.full(3, 1 / 3), "random charge")
    assert kernels.zombie40k.turn._charge_target(st, 0, 0, tb) == -1  # the policy's other fields: charge = 0


def test_a_random_squad_moves_on_headings_round_the_compass_to_legal_spots(nojit):
    """From the same spot 400 times: the random move's heading falls in each eighth of the
    compass equally often (chi-square at ALPHA), never beyond 6", always to a legal spot; the
    default ("advance") makes the same move towards the Escape Vehicle every time."""
    st, tb, rng, boss = _scene("random")
    clear_table(st, keep=(0,))
    start = st.pos[0, 0].copy()
    sectors, seen = [], set()
    for _ in range(400):
        st.pos[0, 0] = start
        kernels.zombie40k.movement.squad_movement(st, 0, 0, tb, rng)
        dx, dy = st.pos[0, 0] - start
        assert math.hypot(dx, dy) <= 6.0 + 1e-9
        assert kernels.zombie40k.geometry.is_legal_spot(st.pos, st.radius[0], st.ustate, 0, 0, *st.pos[0, 0], tb.prm)
        if math.hypot(dx, dy) > 1e-6:
            sectors.append(int((math.atan2(dy, dx) % (2 * math.pi)) // (math.pi / 4)))
    assert_matches_pmf(np.array(sectors), np.full(8, 1 / 8), "random headings")
    default = tb._replace(policy=policies(team_config("guard", "marines")))
    for _ in range(5):
        st.pos[0, 0] = start
        kernels.zombie40k.movement.squad_movement(st, 0, 0, default, rng)
        seen.add(tuple(np.round(st.pos[0, 0], 9)))
    assert len(seen) == 1 and next(iter(seen))[1] > start[1]  # towards the EV edge (y = table length)
