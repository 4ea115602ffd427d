"""A rebalance's proposal proven on games the search never saw, and the record of a whole run.

**Validation.** The game at the start values ("before") and at the proposal ("after", read back
from the written ``proposal.toml``, so it plays exactly the patch) are replayed on a fresh seed
(``validate_seed``, ``validate_games`` per cell, by default four times the search's: a side must be shown within the
margin on them, so their intervals must be narrower than the search's): each side's rate with its 95% Wilson interval,
its deviation from the mean and the two one-sided tests against the margin, and a matchup table
(a side's rate in the games a given opponent played too). The proposal PASSES only when every side
is within the margin on those games; otherwise it is reported as FAILED (``shamble rebalance``
exits 1), whatever the search's own games said.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pandas as pd

from experiments.rebalance_evaluations import Evaluator, Standing
from experiments.rebalance_game import Game, Settings
from experiments.rebalance_search import Search
from experiments.stats import wilson_interval
from sim.ruleset import Price

# ---------------------------------------------------------------------------- validation


@dataclass
class Validation:
    """Before and after on the fresh games."""

    before: Standing
    after: Standing
    matchups_before: pd.DataFrame
    matchups_after: pd.DataFrame
    games: int  # games played for the validation (a proposal that changes nothing replays nothing)
    seed: int
    games_per_cell: int

    @property
    def passed(self) -> bool:
        return self.after.fair


def matchups(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """Each side's rate in the games a given opponent also played, with its 95% Wilson interval
    (side, opponent, games, wins, rate, ci_low, ci_high); pairs that never met are absent."""
    rows = pd.concat(frames, ignore_index=True)[["cell", "game", "side", "won"]]
    both = rows.merge(rows[["cell", "game", "side"]].rename(columns={"side": "opponent"}), on=["cell", "game"])
    both = both[both.side != both.opponent]
    table = both.groupby(["side", "opponent"]).won.agg(wins="sum", games="size").reset_index()
    table["rate"] = table.wins / table.games
    table["ci_low"], table["ci_high"] = wilson_interval(table.wins, table.games)
    return table[["side", "opponent", "games", "wins", "rate", "ci_low", "ci_high"]]


def validate(game: Game, proposal: Mapping[str, Fraction], settings: Settings, folder: Path | None = None,
             progress: Callable[[int], None] | None = None) -> Validation:
    """The start values and the proposal on the validation's games (module docstring)."""
    check = Evaluator(game, settings.check_seed, settings.check_games, settings.margin, folder, progress)
    before = check(game.start)
    frames_before, _ = check.frames(game.start)
    after = check(proposal)
    frames_after, _ = check.frames(proposal)
    return Validation(before, after, matchups(frames_before), matchups(frames_after), before.played + after.played,
                      settings.check_seed, settings.check_games)


# ---------------------------------------------------------------------------- the whole run


@dataclass
class Rebalance:
    """A rebalance: the game, the search, the validation and where it was written."""

    game: Game
    settings: Settings
    search: Search
    validation: Validation
    out: Path | None
    seconds: float
    source: str | None = None

    @property
    def passed(self) -> bool:
        return self.validation.passed

    @property
    def changes(self) -> list[tuple[Price, Fraction]]:
        return [(p, self.search.proposal[p.key]) for p in self.game.prices if self.search.proposal[p.key] != p.value]
