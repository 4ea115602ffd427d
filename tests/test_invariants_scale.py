"""Invariants at scale (issue 7): random legal configurations, every mod, the invariant checker
after every phase of every game.

Each configuration is drawn from a seeded generator: 1-6 players, example teams and policies,
a random set of mods that does not contradict itself (sim.rulesets.zombie40k.mods.CONTRADICTIONS), and random
values of a few [C] numbers inside their allowed ranges. ``SHAMBLE_INVARIANT_GAMES`` sets the
total games (10^4 in CI; run with 100000 for the slow run); the configs are spread evenly.
"""

from __future__ import annotations

import os
from itertools import combinations

import numpy as np
import pytest
from conftest import EXAMPLES

from sim.play import games, play
from sim.rulesets.zombie40k.config import MODS, POLICY_PRESETS, PlayerConfig, make_config
from sim.rulesets.zombie40k.mods import CONTRADICTIONS
from sim.rulesets.zombie40k.teams import load_team

pytestmark = pytest.mark.slow

TOTAL_GAMES = int(os.environ.get("SHAMBLE_INVARIANT_GAMES", "10000"))
N_CONFIGS = 50
TEAMS = sorted(p.stem for p in (EXAMPLES / "teams").glob("*.toml"))
LORE_UNFRIENDLY = {"plague"}  # Mark of Nurgle (zombie40k §10.8)


def _mods(rng: np.random.Generator) -> frozenset[str]:
    chosen: set[str] = set()
    for mod in rng.permutation(MODS):
        if rng.random() < 0.25 and all(frozenset({mod, m}) not in CONTRADICTIONS for m in chosen):
            chosen.add(str(mod))
    return frozenset(chosen)


def random_config(seed: int):
    """A legal configuration drawn from ``seed``: teams, policies, mods and a few [C] numbers."""
    rng = np.random.default_rng(seed)
    mods = _mods(rng)
    teams = [t for t in TEAMS if not ("lore_friendly" in mods and t in LORE_UNFRIENDLY)]
    players = [PlayerConfig(f"p{k}", load_team(EXAMPLES / "teams" / f"{rng.choice(teams)}.toml"),
                            POLICY_PRESETS[str(rng.choice(list(POLICY_PRESETS)))])
               for k in range(int(rng.integers(1, 7)))]
    params = {"horde_size": int(rng.integers(3, 9)), "hordes_per_player": int(rng.integers(1, 4)),
              "respawn_margin_in": float(rng.uniform(6, 18)), "max_game_turns": int(rng.integers(5, 25)),
              "tvirus_t": int(rng.integers(3, 6)), "kf_budget": int(rng.integers(30, 90)),
              "emfh_scope": str(rng.choice(["active", "all"])), "dk_scope": str(rng.choice(["per_horde", "global"]))}
    return make_config(players, params, sorted(mods))


def test_random_configs_cover_every_mod():
    seen = set().union(*(random_config(s).mods for s in range(N_CONFIGS)))
    assert seen == set(MODS)
    pairs = {frozenset(p) for s in range(N_CONFIGS) for p in combinations(sorted(random_config(s).mods), 2)}
    assert not pairs & set(CONTRADICTIONS)


@pytest.mark.parametrize("seed", range(N_CONFIGS))
def test_invariants_after_every_phase(seed):
    config = random_config(seed)
    n = TOTAL_GAMES // N_CONFIGS
    df = play(config, n, 1000 + seed, check=True)
    assert df.attrs["violations"] == 0, (seed, sorted(config.mods))
    per_game = games(df)
    assert len(per_game) == n
    assert per_game.turns.between(1, config.max_game_turns).all()
    assert per_game.reason.isin(["escape", "timeout", "all_dead", "coop_win"]).all()
    winners = df.groupby("game").won.sum()
    coop = per_game.set_index("game").reason == "coop_win"
    assert (winners[~coop] <= 1).all()  # one escape wins a free-for-all game
    assert (winners[per_game.set_index("game").reason == "escape"] == 1).all()
