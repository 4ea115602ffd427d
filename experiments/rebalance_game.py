"""What a rebalance plays (`shamble rebalance`, `experiments.rebalance`): its settings and its game.

**The game.** A ruleset with something to price supplies a `sim.ruleset.Pricing`
(`sim.ruleset.pricing_of`): its prices (Zombie 40,000: the points per model of each team's main
unit, or one cost multiplier per team), how prices reach a config (every team refitted to the
budget, as the budget axis does) and the game a rebalance plays by default, as a report section
(Zombie 40,000: the standard game, every example team rotated through the seats; Zombie
Apocalypse: its ``lineup`` axis, every example army in every seat; ``as_is`` plays the config's
own players instead). A **side** is a value of the
pricing's side column (a team, an army); its rate (the pricing's ``rate`` column, `rate_of`: a
win, or a cooperative game's per-player outcome such as Zombie Apocalypse's Warlord alive at the
end) is pooled over every cell and seat and judged as the report's ``sides`` analysis judges it
(`experiments.analyses.equivalence`): **within the margin** when its 90% Wilson interval lies
inside the mean of the sides' rates ± the margin (two one-sided tests at 5%).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from experiments.experiment import Cell
from sim.ruleset import Price, Pricing, Ruleset, pricing_of, ruleset_of

MARGIN, GAMES, ITERATIONS, BUDGET = 0.03, 800, 40, 150_000  # the defaults: about 7 minutes on 2 busy cores
VALIDATE_FACTOR = 4  # validation games per cell, times the search's (half the interval width)


class RebalanceError(ValueError):
    """Bad input to a rebalance (nothing to price, a bad setting, a bad patch file): one line."""


# ---------------------------------------------------------------------------- settings


@dataclass(frozen=True)
class Settings:
    """How a rebalance searches and validates (`experiments.rebalance_search`, `experiments.rebalance_validation`)."""

    margin: float = MARGIN  # practical margin: ± this around the mean win rate
    mode: str | None = None  # a mode of the ruleset's Pricing; None: its first (the default)
    games: int = GAMES  # games per cell for every candidate of the search
    iterations: int = ITERATIONS  # candidates the search may evaluate
    budget: int = BUDGET  # games the search may play (the revert pass may add a few cells more)
    seed: int = 2024  # the search's games
    validate_seed: int | None = None  # the validation's games; None: seed + 1
    validate_games: int | None = None  # games per cell of the validation; None: VALIDATE_FACTOR x ``games``
    as_is: bool = False  # play the config's own players (one cell), not the ruleset's default game
    policies: str | None = None  # a tuned.toml: every cell's players on its players' policies (`with_policies`)

    def __post_init__(self) -> None:
        _check(isinstance(self.margin, int | float) and not isinstance(self.margin, bool) and 0 < self.margin < 0.5,
               f"--margin {self.margin!r}; allowed: a number above 0 and below 0.5 (0.03 = ±3 points)")
        for name, low in (("games", 1), ("iterations", 1), ("budget", 0)):
            value = getattr(self, name)
            _check(isinstance(value, int) and not isinstance(value, bool) and value >= low,
                   f"--{name} {value!r}; allowed: an integer {low} or more")
        if self.validate_games is not None:
            _check(isinstance(self.validate_games, int) and self.validate_games >= 1,
                   f"--validate-games {self.validate_games!r}; allowed: an integer 1 or more")
        for name in ("seed", "validate_seed"):
            value = getattr(self, name)
            _check(value is None or (isinstance(value, int) and 0 <= value < 2**63),
                   f"--{name.replace('_', '-')} {value!r}; allowed: an integer 0 <= seed < 2**63")
        _check(self.validate_seed != self.seed, f"--validate-seed {self.validate_seed}: the search's own seed; "
               "allowed: another seed (validation plays games the search never saw)")

    @property
    def check_seed(self) -> int:
        return self.seed + 1 if self.validate_seed is None else self.validate_seed

    @property
    def check_games(self) -> int:
        return VALIDATE_FACTOR * self.games if self.validate_games is None else self.validate_games


def _check(ok: bool, message: str) -> None:
    if not ok:
        raise RebalanceError(message)


# ---------------------------------------------------------------------------- the game


@dataclass(frozen=True)
class Game:
    """What a rebalance plays: the cells, the prices of their sides and how to apply them."""

    ruleset: Ruleset
    pricing: Pricing
    mode: str
    cells: tuple[Cell, ...]
    prices: tuple[Price, ...]
    title: str
    games: int = GAMES  # the game's games per cell for the search (its section's ``search_games``)
    budget: int = BUDGET  # the game's search budget (its section's ``search_budget``)

    @property
    def start(self) -> dict[str, Fraction]:
        return {p.key: p.value for p in self.prices}

    @property
    def side(self) -> str:
        return self.pricing.side

    @property
    def word(self) -> str:
        """The rate's word in tables: the pricing's ``rate_word``, else the ruleset's win word."""
        return self.pricing.rate_word or self.ruleset.win_word

    def priced(self, cell: Cell, values: Mapping[str, Fraction]) -> Any:
        return self.pricing.apply(cell.config, self.mode, values)


def rebalance_game(config, mode: str | None = None, as_is: bool = False, policies: str | Path | None = None) -> Game:
    """The game a rebalance of ``config`` plays: the ruleset's default game on the config's rules,
    or (``as_is``) the config's own players, with the policies of a tuned.toml (``policies``:
    `with_policies`); a ruleset without prices is a one-line error."""
    rs = ruleset_of(config)
    pricing = pricing_of(rs)
    if pricing is None:
        raise RebalanceError(f"{rs.id} has nothing to price")
    mode = mode or next(iter(pricing.modes))
    if mode not in pricing.modes:
        raise RebalanceError(f"--mode {mode!r}; allowed: {', '.join(pricing.modes)}")
    spec = pricing.game(config)
    if as_is:
        cells, title = (Cell((), config, "base"),), "the config's players"
    else:
        cells, title = _game_cells(spec), spec.title
    if policies is not None:
        cells = with_policies(cells, config, policies)
        title = f"{title}, the players on the policies of {Path(policies).name}"
    prices = _merged([p for cell in cells for p in pricing.prices(cell.config, mode)])
    if not prices:
        raise RebalanceError(f"{rs.id}: the sides of this game have nothing to price")
    games, budget = game_sizes(spec)
    return Game(rs, pricing, mode, cells, tuple(prices), title, games, budget)


def with_policies(cells: tuple[Cell, ...], config, path: str | Path) -> tuple[Cell, ...]:
    """The cells with each player on the policy of a tuned.toml's player (``shamble tune``'s
    tuned.toml, issue 28 item 4): of the same name, else of the first one fielding his team or
    army (`experiments.tune_files.take_policies`: the standard game seats every team under its own
    player names). One line for a missing file, a file of another ruleset, or a player of the file
    whose name and team play in no cell."""
    from experiments.tune_files import load_tuned, take_policies
    from experiments.tune_search import team_of
    from experiments.tune_space import TuneError

    if not Path(path).is_file():
        raise RebalanceError(f"--policies {path}: no such file; allowed: a tuned.toml of `shamble tune`")
    try:
        tuned = load_tuned(config, path)
    except TuneError as err:
        raise RebalanceError(f"--policies {err}") from None
    out, used = [], set()
    for cell in cells:
        played, took = take_policies(cell.config, tuned)
        out.append(replace(cell, config=played))
        used |= took
    unknown = [p for k, p in enumerate(tuned.players) if k not in used]
    if unknown:
        p = unknown[0]
        names = sorted({str(q.name) for c in cells for q in c.config.players}
                       | {str(team_of(q)) for c in cells for q in c.config.players if team_of(q)})
        raise RebalanceError(f"--policies {path}: player {p.name!r}{f' (team {team_of(p)})' if team_of(p) else ''} "
                             f"plays in no cell of this game, by name or team; allowed: {', '.join(names)}")
    return tuple(out)


def game_sizes(spec) -> tuple[int, int]:
    """(games per cell, game budget) of a search of a ruleset's game at scale 1, for ``shamble report
    --rebalance``: its section's ``options`` ``search_games`` and ``search_budget``, else the
    command's defaults (``GAMES``, ``BUDGET``). The command's own ``--games`` and ``--budget``
    decide a command's run."""
    return int(spec.options.get("search_games", GAMES)), int(spec.options.get("search_budget", BUDGET))


def fingerprint(game: Game, proposal: Mapping[str, Fraction], seed: int, games: int) -> str:
    """Hash of what a validation plays: the ruleset, the mode, every cell of the game (its key at
    this seed and games per cell: its config, seed, games and rules version) and the proposal's
    changed prices."""
    from experiments.experiment import cell_key

    changed = sorted((p.key, str(proposal[p.key])) for p in game.prices if proposal.get(p.key, p.value) != p.value)
    text = json.dumps([game.ruleset.id, game.mode, seed, games,
                       [cell_key(c.coords, c.config, seed, games) for c in game.cells], changed])
    return hashlib.blake2b(text.encode(), digest_size=10).hexdigest()


def _game_cells(spec) -> tuple[Cell, ...]:
    """The default game's cells: those of its report section's experiment (base x axes)."""
    from experiments.sections import experiment_of

    return tuple(experiment_of(spec).cells())


def rate_of(rows: pd.DataFrame, rate: str) -> np.ndarray:
    """The rate column of results rows as booleans: ``"won"`` as is, ``"column=word"`` where the
    column says the word (`sim.ruleset.Pricing.rate`)."""
    column, equals, word = rate.partition("=")
    if column not in rows.columns:
        raise RebalanceError(f"rate {rate!r}: the results have no column {column!r}")
    values = rows[column].to_numpy()
    return (values.astype(str) == word) if equals else values.astype(bool)


def _merged(prices: list[Price]) -> list[Price]:
    """One price per key, its sides from every cell (a unit two teams field is one price)."""
    found: dict[str, Price] = {}
    for p in prices:
        seen = found.get(p.key)
        found[p.key] = p if seen is None else replace(seen, sides=tuple(dict.fromkeys(seen.sides + p.sides)))
    return list(found.values())
