"""The Zombies!!! sections of the balance report, as data (``sim.ruleset.ReportSection``).

The experiments layer plays and analyses them. The questions (issue 16): which victory decides
games and is there a first-player advantage (``outcomes``, with the first player fixed at seat
0 so the seat is the turn order), does the expansion shorten or lengthen the game (``outcomes``
over the mode), how much do event cards swing it (``outcomes`` with and without the deck), how
does the player count change it (``by_value``), which policy wins (``matchups``), and how much
the unconfirmed numbers matter (``sensitivity`` over the parameters tagged C).
"""

from __future__ import annotations

from sim.ruleset import ReportSection
from sim.rulesets.zombies9.config import default_config


def _games(base: int, scale: float) -> int:
    return max(50, int(round(base * scale)))


def report_sections(scale: float = 1.0) -> list[ReportSection]:
    seat0 = default_config(4, first_player="seat0")
    return [
        ReportSection(
            key="zombies9_outcomes", title="Zombies!!!: which victory decides games, and the seat advantage",
            intro="Four balanced players, the first player in seat 0 (so a seat is a place in the turn order), "
                  "base game and Ashes to Ashes mixed in. End reasons: helipad, kills (25 zombies), crematorium "
                  "(mixed only), timeout.",
            base=seat0, games=_games(4000, scale), axes={"mode": ["base", "mixed"]}, analysis="outcomes",
        ),
        ReportSection(
            key="zombies9_expansion", title="Zombies!!!: the expansion off, alone, mixed in",
            intro="Game length and end reasons with Zombies!!! 9 off (base), played alone (the Cemeteries "
                  "victory) and mixed with the base set (three victories). The Z9 tiles are the spec's "
                  "placeholder set (D22).",
            base=seat0, games=_games(3000, scale), axes={"mode": ["base", "alone", "mixed"]}, analysis="outcomes",
        ),
        ReportSection(
            key="zombies9_cards", title="Zombies!!!: how much the event cards swing the game",
            intro="The same seats with the event deck and without it (every other rule unchanged).",
            base=seat0, games=_games(3000, scale), axes={"event_cards": [True, False]}, analysis="outcomes",
        ),
        ReportSection(
            key="zombies9_players", title="Zombies!!!: the player count",
            intro="The first player's win rate and the game's length from 2 to 6 players (the first player in "
                  "seat 0; 1/n is a fair share).",
            base=seat0, games=_games(3000, scale), axes={"players": [2, 3, 4, 5, 6]}, analysis="by_value",
            options={"axis": "players"},
        ),
        ReportSection(
            key="zombies9_policies", title="Zombies!!!: policies head to head",
            intro="Two players, seat-balanced: the Helipad runner, the zombie hunter, the saboteur, the balanced "
                  "player and the random-legal baseline.",
            base=default_config(2), games=_games(2000, scale),
            axes={"policy": {"Ann": ["balanced", "runner", "hunter", "saboteur", "random"],
                             "Ben": ["balanced", "runner", "hunter", "saboteur", "random"]}},
            analysis="matchups",
        ),
        ReportSection(
            key="zombies9_sensitivity", title="Zombies!!!: the unconfirmed numbers",
            intro="Every number the spec took from fan sources or chose ([fan], [default], tag C) at a plausible "
                  "low and high value, four balanced players, Ashes to Ashes mixed in.",
            base=default_config(4, mode="mixed", first_player="seat0"), games=_games(2000, scale), axes={},
            analysis="sensitivity",
        ),
    ]
