"""Zombie Apocalypse's sections of the balance report, as data (``sim.ruleset.ReportSection``).

Every section plays the four-player example (Ultramarines, Cadians, Goffs, Black Legion, every
rule at the spec's default) on common random numbers:

============  ====================================================================================
section       cells
============  ====================================================================================
policies      the policy presets for every player at 800 points: is shooting worth its noise?
              (staged: the spec's P3-P12 defaults; quiet never shoots; gunline shoots everything;
              stealth: the strongest preset on the example configs, docs/apocalypse.md); every
              cell names its preset, and the base config is stealth's, so "Under stronger play",
              which starts from the first section's base, tunes the strongest preset
points        points levels 200-1200, every army refitted (armies.fit_army), the stealth preset
players       the first one to four players of the example at 800 points, stealth
grid          points 400 / 800 / 1200 x one, two and four players, stealth (one axis,
              ``points_players``, so each cell reads as one label)
traits        every Warlord with the same trait, each against no trait (800 points, stealth)
missions      Foggy and the Graveyard on and off (800 points, rush: under stealth nobody fires,
              and Foggy, which shrouds the targets of shooting and of a spawner's blast, would
              change hardly a game)
sensitivity   every chosen [C] number at its low and high plausible value (800 points, stealth)
walkers       the Black Legion as it is and with a Helbrute instead of its Raptors and Havocs at the
              same points (800 points, refitted, stealth): do walkers pay for their points?
transports    the Ultramarines as they are and with a Rhino carrying their Tactical Squad instead of
              their Assault Squad at the same points (800 points, refitted, stealth): do transports
              pay for their points?
============  ====================================================================================

At the spec's 400 points the players all but never win under any policy (docs/apocalypse.md), and
a rate near 0 everywhere would say nothing about players, traits or rules: those sections play at
800 points, where the stealth preset extracts about a quarter of the time. Every row also carries
the zombies spawned by source (``spawned_*``) and the turn the game ended. The players win or lose
together, so the rates are the players' (option ``who``), one row per cell.

The cooperative verdict (experiments.coop) reads these games too: the points section's 400 points
(the spec's default) against the target band, the smoothness of the points, players and grid
curves, and the traits section's P8 cell for the army that carries the team.

Sizes: about 49,000 games in all, about 1.5 minutes on two shared cores at scale 1 (the other
rulesets' parts are 2-3 minutes each).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from sim.ruleset import ReportSection
from sim.rulesets.apocalypse.axes import with_points
from sim.rulesets.apocalypse.config import POLICY_PRESETS, TRAIT_TITLES, TRAITS, load_config

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "apocalypse"
BASE_CONFIG = EXAMPLES / "configs" / "four_players.toml"
SEED = 2024
GAMES = {"policies": 900, "points": 720, "players": 720, "grid": 360, "traits": 1800, "missions": 900,
         "sensitivity": 360, "walkers": 2000, "transports": 2000}
POINTS = (200, 400, 600, 800, 1000, 1200)
GRID_POINTS = (400, 800, 1200)
GRID_PLAYERS = (1, 2, 4)
WHO = "players"  # the analyses write "the players"
SPEC_POINTS = 400  # apocalypse §2: the scenario's points per player, judged winnable or not (a points cell)
RICH = 800  # the points level of the sections that compare policies, traits and rules
PRESETS = ("staged", "rush", "escort_first", "quiet", "gunline", "stealth")
MISSIONS = ({}, {"foggy": False}, {"graveyard": False}, {"foggy": False, "graveyard": False})
WALKER_SEAT = "Black Legion"  # fields the walker or not (as examples/apocalypse/experiments/walkers.toml)
WALKER_ARMIES = {"black_legion": EXAMPLES / "armies" / "black_legion.toml",
                 "black_legion_helbrute": EXAMPLES / "vehicles" / "armies" / "black_legion_helbrute.toml"}
WALKER_TITLES = {"black_legion": "the Black Legion as it is",
                 "black_legion_helbrute": "the Black Legion with a Helbrute"}
TRANSPORT_SEAT = "Ultramarines"  # fields the transport or not (the Rhino example's army, issue 32)
TRANSPORT_ARMIES = {"ultramarines": EXAMPLES / "armies" / "ultramarines.toml",
                    "ultramarines_rhino": EXAMPLES / "vehicles" / "armies" / "ultramarines_rhino.toml"}
TRANSPORT_TITLES = {"ultramarines": "the Ultramarines as they are",
                    "ultramarines_rhino": "the Ultramarines with a Rhino"}
MISSION_TITLES = {"base": "Foggy and Graveyard", "foggy=False": "no Foggy", "graveyard=False": "no Graveyard",
                  "foggy=False;graveyard=False": "neither"}


def games_for(section: str, scale: float) -> int:
    return max(10, round(GAMES[section] * scale))


def stealthy(config, preset: str = "stealth"):
    return replace(config, players=tuple(replace(p, policy=POLICY_PRESETS[preset]) for p in config.players))


def report_sections(scale: float = 1.0) -> list[ReportSection]:
    """The sections of Zombie Apocalypse's report, not played yet."""
    base = load_config(BASE_CONFIG)
    rich = with_points(base, RICH)
    sneaky = stealthy(base)
    rich_sneaky = stealthy(rich)
    rich_rush = stealthy(rich, "rush")
    traits = [t for t in TRAITS] + ["auto"]
    return [
        ReportSection(
            "policies", "Ways of playing: is shooting worth its noise?",
            f"Every player on one preset, at {RICH} points: staged (the spec's P3-P12), rush, escort first, "
            "quiet (no shooting, no Overwatch), gunline (everything fires, re-rolls too) and stealth (rush, "
            "never shoot, Warlords apart). The zombies each cell spawns by source are the result columns "
            "spawned_*.", rich_sneaky, games_for("policies", scale), {"policy_all": list(PRESETS)},
            ("outcomes", "paired"),
            {"reference": "staged", "value_label": "policy", "compare_label": "policy", "who": WHO,
             "chart_title": "Policies against the spec's defaults"}, SEED),
        ReportSection(
            "points", "Points level", "Every army refitted to each points level (units grow or shrink, copies "
            "of its units join), the stealth preset.", sneaky, games_for("points", scale), {"points": list(POINTS)},
            ("by_value", "winnable", "curve"),
            {"axis": "points", "value_label": "points", "x_label": "points per player", "unit": " points", "who": WHO,
             "chart_title": "Extraction rate by points level",
             "winnable": {"cell": str(SPEC_POINTS), "at": f"the spec's {SPEC_POINTS} points, four players (stealth, "
                                                         "the strongest preset)"},
             "curve": {"axis": "points", "over": "points (four players, stealth)", "unit": " points"}}, SEED),
        ReportSection(
            "players", "Player count", f"The example's first one to four players at {RICH} points, stealth: "
            "each player adds a spawn point and +1 to most zombie rolls, an army to split the hordes, and a "
            "Warlord of whom one must live.", rich_sneaky, games_for("players", scale),
            {"player_count": [1, 2, 3, 4]}, ("by_value", "curve"),
            {"axis": "player_count", "value_label": "players", "x_label": "players", "unit": " players",
             "who": WHO, "chart_title": "Extraction rate by player count",
             "curve": {"axis": "player_count", "over": f"players ({RICH} points, stealth)", "unit": " players"}},
            SEED),
        ReportSection(
            "grid", "Points level and player count", "Where the scenario becomes winnable, stealth.", sneaky,
            games_for("grid", scale), {"points_players": [f"{pts}x{n}" for pts in GRID_POINTS for n in GRID_PLAYERS]},
            ("outcomes", "curve"), {"value_label": "points, players", "curve": {
                "axis": "points_players", "grid": (" points", " players"),
                "over": "the grid of points and players (stealth)"}}, SEED),
        ReportSection(
            "traits", "The value of each Warlord trait", f"Every Warlord takes the same trait ({RICH} points, "
            "stealth); each cell against the same games without a trait (auto: P8's choice).", rich_sneaky,
            games_for("traits", scale), {"trait": traits}, ("paired", "carry"),
            {"reference": "none", "compare_label": "trait", "thing": "trait", "who": WHO,
             "titles": dict(TRAIT_TITLES) | {"auto": "P8's choice"}, "chart_title": "Value of each trait",
             "carry": {"by": "army", "cell": "auto", "share": "extracted", "given_win": True, "what": "army",
                       "share_words": "its Warlord aboard at the extraction", "kills": "zombies_killed", "per": "army",
                       "at": f"{RICH} points, four players, stealth, P8's traits"}}, SEED),
        ReportSection(
            "missions", "Foggy and the Graveyard", f"Each mission rule off, then both, against the game with "
            f"both ({RICH} points, rush: it shoots when the kills beat the noise, and Foggy's Shrouded acts only "
            "on the targets of shooting and a spawner's blast - under stealth nobody fires and Foggy would change "
            "hardly a game).", rich_rush,
            games_for("missions", scale), {"params": list(MISSIONS)},
            ("paired",), {"reference": "base", "compare_label": "mission rules", "titles": MISSION_TITLES, "who": WHO,
                          "chart_title": "Mission rules against the full scenario"}, SEED),
        ReportSection(
            "sensitivity", "Sensitivity of the chosen numbers", f"The spec's (default) numbers and the "
            f"simulator's own ([C]), each at a low and a high plausible value ({RICH} points, stealth).",
            rich_sneaky, games_for("sensitivity", scale), {}, ("sensitivity",), {}, SEED),
        ReportSection(
            "walkers", "Do walkers pay for their points?", f"The Black Legion as it is (Raptors and Havocs) and "
            "with a Helbrute and three more Chaos Space Marines instead, at the same points (every army refitted "
            f"to {RICH} points, stealth), on the same games: the players' win rate with the walker minus "
            "without it.", sneaky, games_for("walkers", scale),
            {"army": {WALKER_SEAT: [str(path) for path in WALKER_ARMIES.values()]}, "points": [RICH]},
            ("paired",), {"reference": "black_legion", "worth": False, "compare_label": "army",
                          "titles": WALKER_TITLES, "who": WHO, "chart_title": "The Helbrute against the same points "
                          "without it", "verdict": {"what": "walkers", "cell": "black_legion_helbrute",
                                                    "words": "a Helbrute in the Black Legion"}}, SEED),
        ReportSection(
            "transports", "Do transports pay for their points?", "The Ultramarines as they are (Tactical, Assault "
            "and Devastator Squads) and with a Rhino carrying their Tactical Squad and two more Devastators instead "
            f"of the Assault Squad, at the same points (every army refitted to {RICH} points, stealth), on the same "
            "games: the players' win rate with the transport minus without it.", sneaky,
            games_for("transports", scale),
            {"army": {TRANSPORT_SEAT: [str(path) for path in TRANSPORT_ARMIES.values()]}, "points": [RICH]},
            ("paired",), {"reference": "ultramarines", "worth": False, "compare_label": "army",
                          "titles": TRANSPORT_TITLES, "who": WHO, "chart_title": "The Rhino against the same points "
                          "without it", "verdict": {"what": "transports", "cell": "ultramarines_rhino",
                                                    "words": "a Rhino in the Ultramarines"}}, SEED),
    ]
