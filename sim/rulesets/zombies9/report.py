"""The Zombies!!! sections of the balance report, as data (``sim.ruleset.ReportSection``).

The experiments layer plays and analyses them; every section plays four balanced players named
by their seat, the first player in seat 1 (``first_player = "seat0"``), so a player's win rate is
its seat's:

=============  ==================================================================================
section        cells
=============  ==================================================================================
victories      the base game and Ashes to Ashes mixed in: which victory decides games, the seats
expansion      the expansion off (base), alone, mixed in: length and victories
cards          with and without the event deck, on the same games
players        2 to 6 players: the seats' win rates against 1/n, the game's length
policies       two players, the five presets against each other in both seats
sensitivity    every [fan]/[default] number (tag C) at its plausible low and high value, mixed in,
               the zombie-dog numbers with the dogs on
=============  ==================================================================================

Sizes are fixed games per cell at scale 1 (about half a minute of games on 2 cores).
"""

from __future__ import annotations

from dataclasses import replace

from sim.ruleset import ReportSection
from sim.rulesets.zombies9.config import PRESETS, PlayerConfig, Policy, Zombies9Config

SEED = 2024
GAMES = {"victories": 3600, "expansion": 2700, "cards": 2700, "players": 1800, "policies": 900,
         "sensitivity": 900}
POLICIES = ("balanced", "spec", "runner", "hunter", "saboteur", "random")


def seats(n: int, **params) -> Zombies9Config:
    """n balanced players named by their seat, the first player in seat 1."""
    players = tuple(PlayerConfig(f"Seat {k + 1}", Policy()) for k in range(n))
    return Zombies9Config(players=players, first_player="seat0", **params)


def games_for(section: str, scale: float) -> int:
    return max(10, round(GAMES[section] * scale))


def report_sections(scale: float = 1.0) -> list[ReportSection]:
    base = seats(4)
    two = replace(seats(2), players=(PlayerConfig("Seat 1", PRESETS["balanced"]),
                                     PlayerConfig("Seat 2", PRESETS["balanced"])))
    return [
        ReportSection(
            "victories", "Zombies!!!: which victory decides games, and the seats",
            "Four balanced players, the first player in seat 1. The base game is won at the Helipad or with 25 "
            "zombies; Ashes to Ashes mixed in adds the Crematorium (its Z9 tiles are the spec's placeholder set).",
            base, games_for("victories", scale), {"mode": ["base", "mixed"]}, ("outcomes", "seats"),
            {"value_label": "game", "reference": "base", "titles": {"mixed": "Ashes to Ashes mixed in"}}, SEED),
        ReportSection(
            "expansion", "Zombies!!!: the expansion off, alone, mixed in",
            "The same four seats with Zombies!!! 9 off, played alone (the Cemeteries victory only) and mixed "
            "with the base set (two tile stacks, three victories).",
            base, games_for("expansion", scale), {"mode": ["base", "alone", "mixed"]}, ("outcomes",),
            {"value_label": "game", "reference": "base",
             "titles": {"alone": "Ashes to Ashes alone", "mixed": "Ashes to Ashes mixed in"}}, SEED),
        ReportSection(
            "cards", "Zombies!!!: how much the event cards swing it",
            "The base game with the event deck and without it, every other rule unchanged, on the same games.",
            base, games_for("cards", scale), {"event_cards": [True, False]}, ("outcomes", "paired"),
            {"value_label": "event cards", "reference": "True", "compare_label": "event cards",
             "titles": {"True": "the game with event cards", "False": "the game without event cards"},
             "thing": "deck", "chart_title": "Without the event deck"}, SEED),
        ReportSection(
            "players", "Zombies!!!: the player count",
            "Two to six balanced players (the example configs), the first player in seat 1: the win rate of each "
            "seat against a fair 1/n, and the game's length.",
            base, games_for("players", scale), {"players": [2, 3, 4, 5, 6]},
            ("by_value",), {"axis": "players", "value_label": "players", "x_label": "players",
                            "chart_title": "Win rate by player count"}, SEED),
        ReportSection(
            "policies", "Zombies!!!: the policies against each other",
            "Two players, each pairing of the presets played in both seats: the Helipad runner, the zombie "
            "hunter, the saboteur who plays every attack card on the leader, the balanced player (the default: "
            "the strongest found, issue 26), the spec's Q1-Q9 player as written and the random-legal baseline.",
            two, games_for("policies", scale),
            {"policy": {"Seat 1": list(POLICIES), "Seat 2": list(POLICIES)}}, ("matchups",),
            {"axes": ("policy.Seat 1", "policy.Seat 2"), "order": list(POLICIES),
             "row_label": "policy (rows) vs opponent"}, SEED),
        ReportSection(
            "sensitivity", "Zombies!!!: the unconfirmed numbers",
            "Every number the spec took from fan sources or chose ([fan], [default]: tag C) at a plausible low and "
            "high value, Ashes to Ashes mixed in; the zombie-dog numbers are played with the Pet Cemetery's dogs on.",
            seats(4, mode="mixed"), games_for("sensitivity", scale), {}, ("sensitivity",),
            {"enable": {"mods": ("dogs", "kids")}, "titles": {"dogs": "zombie dogs", "kids": "zombie kids"},
             "measure": "reason=helipad"}, SEED),
    ]
