"""Zombie Apocalypse's sections of the balance report, as data (``sim.ruleset.ReportSection``).

Every section plays the four-player example (Ultramarines, Cadians, Goffs, Black Legion at 400
points, every rule at the spec's default) on common random numbers:

============  ====================================================================================
section       cells
============  ====================================================================================
policies      the policy presets for every player: is shooting worth its noise (staged: the spec's
              P3-P12 defaults; quiet never shoots; gunline shoots everything; stealth: the best found)
points        points levels 200-1200, every army refitted (armies.fit_army)
players       one to four players (examples/apocalypse/configs)
traits        every Warlord with the same trait, each against no trait
missions      Foggy and the Graveyard on and off
sensitivity   every chosen [C] number at its low and high plausible value
============  ====================================================================================

The sections after ``policies`` play the ``stealth`` preset: under the spec's default policy the
players all but never win (docs/apocalypse.md), and a rate of 0 everywhere would say nothing about
points, players or traits. Every row also carries the zombies spawned by source (``spawned_*``)
and the turn the game ended, which move where the win rate cannot.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from sim.ruleset import ReportSection
from sim.rulesets.apocalypse.config import POLICY_PRESETS, TRAIT_TITLES, TRAITS, load_config

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "apocalypse"
BASE_CONFIG = EXAMPLES / "configs" / "four_players.toml"
SEED = 2024
GAMES = {"policies": 4000, "points": 3000, "players": 3000, "traits": 3000, "missions": 3000, "sensitivity": 2000}
POINTS = (200, 400, 600, 800, 1200)
PRESETS = ("staged", "rush", "escort_first", "quiet", "gunline", "stealth")
MISSIONS = ({}, {"foggy": False}, {"graveyard": False}, {"foggy": False, "graveyard": False})
MISSION_TITLES = {"base": "Foggy and Graveyard", "foggy=False": "no Foggy", "graveyard=False": "no Graveyard",
                  "foggy=False;graveyard=False": "neither"}


def games_for(section: str, scale: float) -> int:
    return max(10, round(GAMES[section] * scale))


def stealthy(config):
    return replace(config, players=tuple(replace(p, policy=POLICY_PRESETS["stealth"]) for p in config.players))


def report_sections(scale: float = 1.0) -> list[ReportSection]:
    """The sections of Zombie Apocalypse's report, not played yet."""
    base = load_config(BASE_CONFIG)
    sneaky = stealthy(base)
    traits = [t for t in TRAITS] + ["auto"]
    return [
        ReportSection(
            "apocalypse_policies", "Ways of playing: is shooting worth its noise?",
            "Every player on one preset: staged (the spec's P3-P12), rush, escort first, quiet (no shooting, "
            "no Overwatch), gunline (everything fires, re-rolls too) and stealth (rush, never shoot, Warlords "
            "apart). The zombies every cell spawns by source are in the result columns spawned_*.",
            base, games_for("policies", scale), {"policy_all": list(PRESETS)}, ("outcomes", "paired"),
            {"reference": "staged", "value_label": "policy", "compare_label": "policy",
             "chart_title": "Policies against the spec's defaults"}, SEED),
        ReportSection(
            "apocalypse_points", "Points level", "Every army refitted to each points level (units grow or "
            "shrink, copies of its units join), the stealth preset.", sneaky, games_for("points", scale),
            {"points": list(POINTS)}, ("by_value",),
            {"axis": "points", "value_label": "points", "x_label": "points per player",
             "chart_title": "Extraction rate by points level"}, SEED),
        ReportSection(
            "apocalypse_players", "Player count", "One to four players, the example armies, the stealth "
            "preset: more players bring more spawn points and more zombies per roll (+N), and more Warlords "
            "of whom one must live.", sneaky, games_for("players", scale), {"players": [1, 2, 3, 4]},
            ("by_value",), {"axis": "players", "value_label": "players", "x_label": "players",
                            "chart_title": "Extraction rate by player count"}, SEED),
        ReportSection(
            "apocalypse_traits", "The value of each Warlord trait", "Every Warlord takes the same trait; each "
            "cell against the same games without a trait (auto: P8's choice).", sneaky,
            games_for("traits", scale), {"trait": traits}, ("paired",),
            {"reference": "none", "compare_label": "trait", "thing": "trait",
             "titles": dict(TRAIT_TITLES) | {"auto": "P8's choice"}, "chart_title": "Value of each trait"}, SEED),
        ReportSection(
            "apocalypse_missions", "Foggy and the Graveyard", "Each mission rule off, then both, against "
            "the game with both.", sneaky, games_for("missions", scale), {"params": list(MISSIONS)}, ("paired",),
            {"reference": "base", "compare_label": "mission rules", "titles": MISSION_TITLES,
             "chart_title": "Mission rules against the full scenario"}, SEED),
        ReportSection(
            "apocalypse_sensitivity", "Sensitivity of the chosen numbers", "The spec's (default) numbers and "
            "the simulator's own ([C]): each at a low and a high plausible value.", sneaky,
            games_for("sensitivity", scale), {}, ("sensitivity",), {}, SEED),
    ]
