"""Whole Out West games: invariants after every card over hundreds of random games of every
variant (checked mode), the scenario's victory, and the results table's bookkeeping."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from outwest_helpers import config, play

from sim.ruleset import COMMON_COLUMNS
from sim.rulesets.outwest.config import POLICY_PRESETS, Character, posse_of_mix, with_policy
from sim.rulesets.outwest.results import COLUMNS, END_REASONS, OUTCOMES

RIDERS = (Character("Rider", "legend", ("pistol", "pistol"), "sabre", True),
          Character("Walker", "gunman", ("pistol", "rifle"), "knife", False),
          Character("Hand", "citizen", ("sawn_off",), "club", True),
          Character("Gunner", "shootist", ("musketoon", "pistol"), "tomahawk", False))

VARIANTS = {
    "default": {},
    "advanced": {"zombie_plague": True, "zombie_gunslingers": True, "start_gunslingers": 2},
    "escape": {"scenario": "escape", "max_turns": 15, "escape_needed": 2},
    "cleanup": {"scenario": "cleanup", "max_turns": 12, "groups": (3, 3)},
    "deck-readings": {"joker": "wild", "zombies_claim": True, "spend_timing": "after_character"},
    "other-readings": {"shooting_mechanic": "class_dice", "ammo_model": "capacity", "fall_rule": "two_ones",
                       "serious_wounds_to_die": 2, "citizen_nerve": True, "club_long_guns": True,
                       "group_hits": "spread", "musketoon_splash": "hit", "friendly_fire": False,
                       "zombie_rwnn_effect_mods": True, "bite_can_kill": False, "plague_test": "total",
                       "zombie_plague": True, "bite_death_rises": True, "shot_knockdown_destroys_downed": True},
    "horses-and-odd-guns": {"players": RIDERS, "graveyard": "north"},
    "big": {"players": posse_of_mix("LLSSSGGGGCCC"), "groups": (6,) * 8},
    "lone": {"players": posse_of_mix("G"), "groups": (3,)},
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(VARIANTS))
def test_invariants_hold_after_every_card(name):
    cfg = config(**VARIANTS[name])
    df, violations = play(cfg, 300, seed=11, check=True)
    assert violations == 0
    games = df.groupby("game").first()
    assert len(games) == 300 and set(games["reason"]) <= set(END_REASONS)
    assert (games["turns"] <= cfg.max_turns).all() and (games["turns"] >= 1).all()
    assert_bookkeeping(df, cfg)


@pytest.mark.parametrize("policy", list(POLICY_PRESETS))
def test_every_policy_preset_plays_clean_games(policy):
    cfg = with_policy(config(zombie_plague=True, zombie_gunslingers=True), POLICY_PRESETS[policy])
    df, violations = play(cfg, 200, seed=5, check=True)
    assert violations == 0
    assert_bookkeeping(df, cfg)


def assert_bookkeeping(df, cfg) -> None:
    """The results agree with themselves and with the scenario's victory (§12)."""
    assert tuple(df.columns[: len(COMMON_COLUMNS)]) == COMMON_COLUMNS and tuple(df.columns) == COLUMNS
    assert set(df["outcome"]) <= set(OUTCOMES)
    per_game = df.groupby("game")
    counts = per_game["outcome"].value_counts().unstack(fill_value=0).reindex(columns=OUTCOMES, fill_value=0)
    first = per_game.first()
    assert (counts["devoured"] == first["humans_devoured"]).all()
    assert (counts["risen"] == first["zombies_risen"]).all()
    assert (counts["escaped"] == first["humans_escaped"]).all()
    assert ((per_game["bites"].sum() > 0) == (first["humans_bitten"] > 0)).all()
    assert (per_game["zombies_destroyed"].sum() <= first["game_zombies_destroyed"]).all()
    alive = counts["survived"]
    held = first["reason"] == "held"
    assert (alive[held] > 0).all() and (alive[first["reason"] == "overrun"] == 0).all()
    assert (first.loc[first["reason"].isin(["held", "escaped", "cleared"]), "game_winner"] == "posse").all()
    assert (first.loc[first["reason"] == "overrun", "game_winner"] == "zombies").all()
    assert (first.loc[first["reason"] == "timeout", "game_winner"] == "").all()
    if cfg.scenario == "hold":
        assert set(first["reason"]) <= {"held", "overrun"}
        assert (first.loc[held, "turns"] == cfg.max_turns).all()
    if cfg.scenario == "escape":
        assert (counts.loc[first["reason"] == "escaped", "escaped"] >= cfg.escape_needed).all()
    won = df["won"]
    assert (df.loc[won, "game_winner"] == "posse").all()
    wanted = "escaped" if cfg.scenario == "escape" else "survived"
    assert (df.loc[df["game_winner"] == "posse", "won"] == (df.loc[df["game_winner"] == "posse", "outcome"]
                                                            == wanted)).all()
    assert (df.loc[df["class"] == "citizen", "class_end"].isin(["citizen", "gunman"])).all()
    advanced = (df["class"] == "citizen") & (df["class_end"] == "gunman")
    assert (df.loc[advanced, "zombies_destroyed"] > 0).all()  # §2.1: only by destroying a zombie
    assert (df["dice"] > 0).all() and (df["cards"] > 0).all()


@pytest.mark.slow
def test_a_bigger_posse_survives_more_often():
    """A rule-level sanity check with an effect far beyond the noise: 1 Gunman alone against
    four groups rarely holds the town; eight men usually do."""
    lone, _ = play(replace(config(), players=posse_of_mix("G")), 600, seed=3)
    posse, _ = play(replace(config(), players=posse_of_mix("LSGGCGCS")), 600, seed=3)
    held = lambda df: (df.groupby("game")["reason"].first() == "held").mean()  # noqa: E731
    assert held(lone) + 0.3 < held(posse)


@pytest.mark.slow
def test_the_zombie_plague_raises_the_dead_and_costs_the_posse():
    basic, _ = play(config(), 1500, seed=9)
    plague, _ = play(config(zombie_plague=True), 1500, seed=9)
    assert basic["zombies_risen"].sum() == 0 and plague["zombies_risen"].sum() > 0
    survived = lambda df: df["survived"].mean()  # noqa: E731
    assert survived(plague) < survived(basic)


def test_seeds_change_the_games():
    a, _ = play(config(), 50, seed=1)
    b, _ = play(config(), 50, seed=2)
    assert not np.array_equal(a["dice"].to_numpy(), b["dice"].to_numpy())
