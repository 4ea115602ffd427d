"""`shamble rebalance`: the costs that make every side fair, found by stochastic approximation on
common random numbers, and proven on games the search never saw.

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

**The search**: Robbins-Monro root finding of "every side at the mean", on common random numbers
(Kleinman, Spall & Naiman 1999: CRN in stochastic approximation). Each price ``j`` moves on a log
scale, ``x_j = ln(value / value at the start)``. Candidate ``k`` is the start values times
``exp(x_j)``, rounded to the steps the rule data can express (`sim.ruleset.Price.step`) within the
price's bounds; every candidate plays the same games ``0 .. games-1`` of the search seed in every
cell, so two candidates differ by their prices, never by their dice. Then each price whose sides
are not all within the margin (only those move) takes a step::

    g_j = mean over its sides s of (rate_s - mean) / mean            (relative deviation)
    x_j <- x_j + clip(a_k g_j, -MAX_STEP, MAX_STEP),   a_k = GAIN / (k + 1 + STABILITY) ** ALPHA

with GAIN 0.5, STABILITY 1 and ALPHA 0.602 (Spall 1998's practical exponent: the slowest decay
that keeps the Robbins-Monro conditions, sum a_k infinite, sum a_k^2 finite), MAX_STEP 0.25 (a
price moves by at most about a quarter in one step). A side that wins too often gets dearer, one
that wins too rarely cheaper: a side winning twice the mean rate rises by about a quarter of its
cost in the first step. A candidate whose cells all play games the run has played already (a
cost between two that buy the same models) costs no games: cells are keyed by the tables their
kernels read.

**Stopping rule.** The search stops at the first candidate whose sides are all within the margin
on its games, or when its game budget is spent (the games of the cells it played), or after
``iterations`` candidates.

**The proposal** is the best candidate: fewest sides outside the margin, then the smallest largest
deviation, then the fewest changed prices, then the earliest. The update assumes a dearer side
is a weaker one; where a side's rate is not monotone in its cost (past some size more models can
do worse: Zombie 40,000's Guard), the search can walk past the side's best value and never come
back. So, when the best candidate is not all within the margin:

0. *polish*: each price whose sides are not all within the margin tries the two nearest values
   either side of its own that play differently (`neighbours`: for a per-model price, one model
   more or fewer in the team, and two), on the search's games; a trial is kept when it brings the
   price's own sides nearer the mean and puts no more sides outside the margin.

Then, "as few costs changed by as little as possible":

1. *least change*: each changed price goes back toward its old value as far as it can while every
   cell still plays the very same game (the same compiled tables), in the data's steps; a price
   that can go all the way back is reverted without playing a game;
2. *reverts*: each remaining change, the smallest first, is reverted on trial (on the search's
   games); the revert is kept when no side that was within the margin leaves it and the change's
   own sides are within the margin after it, or no farther from the mean than with the change (a
   change that does not help its own sides is dropped).

**Validation.** The game at the start values ("before") and at the proposal ("after", read back
from the written ``proposal.toml``, so it plays exactly the patch) are replayed on a fresh seed
(``validate_seed``, ``validate_games`` per cell, by default four times the search's: a side must be shown within the
margin on them, so their intervals must be narrower than the search's): each side's rate with its 95% Wilson interval,
its deviation from the mean and the two one-sided tests against the margin, and a matchup table
(a side's rate in the games a given opponent played too). The proposal PASSES only when every side
is within the margin on those games; otherwise it is reported as FAILED (``shamble rebalance``
exits 1), whatever the search's own games said.

**Output folder** (``DIR``; rerunning the same command resumes, and gives the same proposal)::

    DIR/evaluations/<cell>-<hash>.parquet  each played cell, checkpointed as a sweep's cells are
                                           (stamp and checksum verified before reuse)
    DIR/proposal.toml         the patch: each changed cost with its old and new value (`load_patch`)
    DIR/before_after.csv      per side: what it fields, rate, 95% interval, deviation, verdict
    DIR/matchups_before.csv, DIR/matchups_after.csv   side x opponent rates (validation games)
    DIR/search.csv            per candidate and side: rate, deviation, within the margin
    DIR/search_prices.csv     per candidate and price: its value
    DIR/search.png, .svg      each side's rate over the search, with the margin's band
    DIR/summary.json          what ``--json`` prints; DIR/meta.json: settings, versions, wall time
"""

from __future__ import annotations

import hashlib
import json
import math
import shutil
import time
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from rich.console import Console

from experiments import charts
from experiments.analyses import equivalence
from experiments.experiment import Cell
from experiments.stats import wilson_interval
from experiments.sweep import _versions, read_checkpoint, run_cell, write_checkpoint, write_json, write_table
from sim.files import atomic_path
from sim.ruleset import Price, Pricing, Ruleset, pricing_of, rules_version, ruleset_of

EVALUATIONS = "evaluations"
GAIN, STABILITY, ALPHA, MAX_STEP = 0.5, 1.0, 0.602, 0.25  # the gain sequence (module docstring)
POLISH_REACH, POLISH_WALK = 2, 60  # the polish pass: distinct plays tried each way, lattice steps walked
MIN_MEAN = 0.01  # a mean rate below this is taken as this in the relative deviation
FAILED = 1  # the command's exit code when the proposal fails validation
MARGIN, GAMES, ITERATIONS, BUDGET = 0.03, 800, 40, 150_000  # the defaults: about 7 minutes on 2 busy cores
VALIDATE_FACTOR = 4  # validation games per cell, times the search's (half the interval width)


class RebalanceError(ValueError):
    """Bad input to a rebalance (nothing to price, a bad setting, a bad patch file): one line."""


# ---------------------------------------------------------------------------- settings


@dataclass(frozen=True)
class Settings:
    """How a rebalance searches and validates (module docstring)."""

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


# ---------------------------------------------------------------------------- standings


@dataclass
class Standing:
    """One candidate played: its values and each side's rate against the mean."""

    values: dict[str, Fraction]
    table: pd.DataFrame  # index side: wins, games, rate, deviation, low90/high90, low95/high95, equivalent, outside
    mean: float
    played: int = 0  # games this evaluation played that the run had not played before
    fields: dict[str, str] = field(default_factory=dict)  # side -> what it fields ("12 models, 72 points")

    @property
    def outside(self) -> list[str]:
        """Sides not shown within the margin."""
        return self.table.index[~self.table.equivalent].tolist()

    @property
    def fair(self) -> bool:
        return bool(self.table.equivalent.all())

    @property
    def worst(self) -> float:
        return float(self.table.deviation.abs().max())


def standing(values: Mapping[str, Fraction], wins: pd.Series, games: pd.Series, margin: float,
             played: int = 0) -> Standing:
    """Each side's rate (``wins / games``, per side) against the mean of the sides' rates, with
    the report's equivalence test (`experiments.analyses.equivalence`)."""
    wins, games = wins.astype(np.int64), games.astype(np.int64)
    rates = wins / games
    eq = equivalence(rates, wins, games, margin)
    low90, high90 = wilson_interval(wins, games, confidence=0.90)
    table = pd.DataFrame({"wins": wins, "games": games, "rate": rates, "deviation": eq.deviation,
                          "low90": low90, "high90": high90, "low95": eq.low95, "high95": eq.high95,
                          "equivalent": eq.equivalent, "outside": eq.outside})
    table.index.name = "side"
    return Standing(dict(values), table, float(eq.attrs["mean"]), played)


Evaluate = Callable[[Mapping[str, Fraction]], Standing]
SamePlay = Callable[[Mapping[str, Fraction], Mapping[str, Fraction]], bool]


# ---------------------------------------------------------------------------- evaluations


class Evaluator:
    """Plays candidates on games ``0 .. games-1`` of one seed in every cell of a game; each cell
    played once per run (keyed by the tables its kernels read, so two prices that buy the same
    models share it) and checkpointed in ``folder`` (None: in memory only)."""

    def __init__(self, game: Game, seed: int, games: int, margin: float, folder: Path | None = None,
                 progress: Callable[[int], None] | None = None) -> None:
        self.game, self.seed, self.games, self.margin, self.folder = game, seed, games, margin, folder
        self.progress = progress
        self.memory: dict[str, pd.DataFrame] = {}
        self.fingerprints: dict[str, str] = {}
        self.configs: dict[tuple, Any] = {}  # (cell index, values) -> the priced config

    def cell_key(self, cell: Cell, config) -> str:
        """``<cell label>-<hash>``: the hash covers the tables, the sides seated, seed and games."""
        sides = [str(getattr(getattr(p, "team", None), "name", p.name)) for p in config.players]
        text = f"{self.fingerprint(config)}|{sides}|{self.seed}|{self.games}|{rules_version(config.ruleset)}"
        if self.game.pricing.rate != "won":  # another rate of the same games is another cell
            text += f"|{self.game.pricing.rate}"
        digest = hashlib.blake2b(text.encode(), digest_size=6).hexdigest()
        label = "".join(ch if ch.isalnum() or ch in "_.,=+-" else "_" for ch in cell.label)[:60]
        return f"{label}-{digest}"

    def fingerprint(self, config) -> str:
        from experiments.experiment import config_fingerprint
        from experiments.solve import tables_fingerprint

        key = config_fingerprint(config)
        if key not in self.fingerprints:
            self.fingerprints[key] = tables_fingerprint(config)
        return self.fingerprints[key]

    def frames(self, values: Mapping[str, Fraction]) -> tuple[list[pd.DataFrame], int]:
        """Each cell's rows at ``values`` (cell, game, player, side, won), and the games played now."""
        out, played = [], 0
        for k, cell in enumerate(self.game.cells):
            config = self.priced(k, values)
            key = self.cell_key(cell, config)
            if key not in self.memory:
                self.memory[key] = self._load_or_play(config, key).assign(cell=k)
                played += self.games
            out.append(self.memory[key])
        return out, played

    def fields(self, values: Mapping[str, Fraction], sides) -> dict[str, str]:
        """What each side fields at ``values`` (the pricing's ``describe``, in the first cell that seats it)."""
        found: dict[str, str] = {}
        for k in range(len(self.game.cells)):
            if len(found) == len(sides):
                break
            config = self.priced(k, values)
            for side in sides:
                if side not in found:
                    text = self.game.pricing.describe(config, self.game.mode, side)
                    if text is not None:
                        found[side] = text
        return found

    def _load_or_play(self, config, key: str) -> pd.DataFrame:
        path = None if self.folder is None else self.folder / f"{key}.parquet"
        stamp = {"rebalance_cell": key, "seed": self.seed, "games": self.games}
        if path is not None and path.exists():
            df = read_checkpoint(path, stamp)
            if self.progress is not None:
                self.progress(self.games)
            return df
        rows = run_cell(config, self.games, self.seed, progress=self.progress)
        df = rows[["game", "player", "name", self.game.side]].rename(columns={self.game.side: "side"})
        df["won"] = rate_of(rows, self.game.pricing.rate)  # the side's rate (a win, unless the pricing says)
        if path is not None:
            write_checkpoint(df, path, stamp)
        return df

    def __call__(self, values: Mapping[str, Fraction]) -> Standing:
        frames, played = self.frames(values)
        rows = pd.concat(frames, ignore_index=True)
        counts = rows.groupby("side", sort=False).won.agg(["sum", "size"])
        result = standing(values, counts["sum"], counts["size"], self.margin, played)
        result.fields = self.fields(values, list(counts.index))
        return result

    def priced(self, k: int, values: Mapping[str, Fraction]) -> Any:
        """Cell ``k``'s config at ``values`` (remembered: the least-change and polish passes ask
        for the same ones many times)."""
        key = (k, tuple(sorted(values.items())))
        if key not in self.configs:
            if len(self.configs) > 20_000:
                self.configs.clear()
            self.configs[key] = self.game.priced(self.game.cells[k], values)
        return self.configs[key]

    def same_play(self, a: Mapping[str, Fraction], b: Mapping[str, Fraction]) -> bool:
        """Whether two candidates play the very same games in every cell (equal configs, or equal
        tables)."""
        for k in range(len(self.game.cells)):
            ca, cb = self.priced(k, a), self.priced(k, b)
            if ca != cb and self.fingerprint(ca) != self.fingerprint(cb):
                return False
        return True


# ---------------------------------------------------------------------------- the search


@dataclass
class Search:
    """What the search evaluated and what it proposes."""

    history: list[Standing]  # every candidate of the search, in order (candidate 0: the start)
    stop: str  # "converged", "budget" or "iterations"
    best: int  # index of the best candidate in history
    proposal: dict[str, Fraction]  # after least change and reverts
    result: Standing  # the proposal on the search's games
    reverted: list[str] = field(default_factory=list)  # prices the revert pass put back
    search_games: int = 0  # games the candidates played
    revert_games: int = 0  # games the revert trials played
    polished: list[str] = field(default_factory=list)  # prices the polish pass moved
    polish_games: int = 0  # games the polish trials played

    @property
    def games(self) -> int:
        return self.search_games + self.polish_games + self.revert_games


def gain(k: int) -> float:
    """a_k of the module docstring."""
    return GAIN / (k + 1 + STABILITY) ** ALPHA


def candidate(prices: list[Price] | tuple[Price, ...], x: Mapping[str, float]) -> dict[str, Fraction]:
    """The values at log-offsets ``x`` from the start, rounded to each price's step within its bounds."""
    out = {}
    for p in prices:
        if x[p.key] == 0:
            out[p.key] = p.value
            continue
        k = math.floor(float(p.value) * math.exp(x[p.key]) / float(p.step) + 0.5)
        out[p.key] = min(max(p.step * k, p.low), p.high)
    return out


def push(result: Standing, price: Price) -> float | None:
    """g_j of the module docstring: the mean relative deviation of the price's sides, or None when
    they are all within the margin (the price stays)."""
    sides = [s for s in price.sides if s in result.table.index]
    if not sides or result.table.equivalent[sides].all():
        return None
    return float(result.table.deviation[sides].mean()) / max(result.mean, MIN_MEAN)


def _changed(values: Mapping[str, Fraction], prices) -> int:
    return sum(values[p.key] != p.value for p in prices)


def _rank(result: Standing, k: int, prices) -> tuple:
    return len(result.outside), round(result.worst, 12), _changed(result.values, prices), k


def search(prices: list[Price] | tuple[Price, ...], evaluate: Evaluate, settings: Settings,
           same_play: SamePlay | None = None, say: Callable[[int, Standing], None] | None = None) -> Search:
    """Robbins-Monro on the prices until every side is within the margin or the budget is spent,
    then the least-change and revert passes (module docstring).

    Parameters
    ----------
    prices : list of Price
        What may change, at their start values.
    evaluate : callable
        ``evaluate(values)`` -> `Standing` of every side at those values, on the same games for
        every call (common random numbers); its ``played`` counts against the budget.
    same_play : callable, optional
        ``same_play(a, b)``: whether two candidates play the very same games (the least-change
        pass moves a price back only as far as that holds); None skips that pass.
    """
    x = {p.key: 0.0 for p in prices}
    bounds = {p.key: (math.log(p.low / p.value), math.log(p.high / p.value)) for p in prices}
    history, used, stop = [], 0, "iterations"
    for k in range(settings.iterations):
        result = evaluate(candidate(prices, x))
        used += result.played
        history.append(result)
        if say is not None:
            say(k, result)
        if result.fair:
            stop = "converged"
            break
        if used >= settings.budget:
            stop = "budget"
            break
        for p in prices:
            g = push(result, p)
            if g is not None:
                step = min(max(gain(k) * g, -MAX_STEP), MAX_STEP)
                x[p.key] = min(max(x[p.key] + step, bounds[p.key][0]), bounds[p.key][1])
    best = min(range(len(history)), key=lambda k: _rank(history[k], k, prices))
    proposal, polished, polish_games = history[best].values, [], 0
    if same_play is not None and not history[best].fair:
        proposal, _, polished, polish_games = polish(prices, proposal, history[best], evaluate, same_play)
    if same_play is not None:
        proposal = least_change(prices, proposal, same_play)
    result = evaluate(proposal)
    proposal, result, reverted, revert_games = revert_pass(prices, proposal, result, evaluate)
    return Search(history, stop, best, proposal, result, reverted, used, result.played + revert_games, polished,
                  polish_games)


def polish(prices, values: Mapping[str, Fraction], result: Standing, evaluate: Evaluate,
           same_play: SamePlay) -> tuple[dict[str, Fraction], Standing, list[str], int]:
    """Each price whose sides are not all within the margin tries the ``POLISH_REACH`` nearest
    values either side of its own that play differently (`neighbours`), on the search's games; a
    trial is kept when it brings its own sides nearer the mean and puts no more sides outside the
    margin (module docstring: the search assumes a dearer side is a weaker one)."""
    values, polished, games = dict(values), [], 0
    for p in prices:
        if push(result, p) is None:
            continue
        for value in neighbours(p, values, same_play):
            trial = evaluate(values | {p.key: value})
            games += trial.played
            if len(trial.outside) <= len(result.outside) and _local(trial, p) < _local(result, p):
                values, result = dict(trial.values), trial
                polished = [*dict.fromkeys([*polished, p.key])]
    return values, result, polished, games


def _local(result: Standing, price: Price) -> float:
    """The largest distance from the mean of the price's sides."""
    sides = [s for s in price.sides if s in result.table.index]
    return round(float(result.table.deviation[sides].abs().max()), 12)


def neighbours(price: Price, values: Mapping[str, Fraction], same_play: SamePlay,
               reach: int = POLISH_REACH, walk: int = POLISH_WALK) -> list[Fraction]:
    """Up to ``reach`` values each way from the price's value (on its steps, within its bounds,
    at most ``walk`` steps away) that each play differently from the one before (the first value
    of each run of equal plays), nearest first."""
    found = []
    for sign in (-1, 1):
        last, kept = dict(values), 0
        for i in range(1, walk + 1):
            value = values[price.key] + sign * i * price.step
            if not price.low <= value <= price.high or kept == reach:
                break
            trial = dict(values) | {price.key: value}
            if not same_play(trial, last):
                found.append(value)
                last, kept = trial, kept + 1
    return found


def least_change(prices, values: Mapping[str, Fraction], same_play: SamePlay) -> dict[str, Fraction]:
    """Each changed price moved back toward its old value as far as the game stays the same (in
    its steps; the plays of a price are an interval of values, so a bisection finds the end)."""
    out = dict(values)
    for p in prices:
        new = out[p.key]
        if new == p.value:
            continue
        if same_play(out | {p.key: p.value}, out):
            out[p.key] = p.value
            continue
        grid = _steps_between(p.value, new, p.step)
        lo, hi = 0, len(grid) - 1  # grid[hi] == new plays as new
        while lo < hi:
            mid = (lo + hi) // 2
            if same_play(out | {p.key: grid[mid]}, out):
                hi = mid
            else:
                lo = mid + 1
        out[p.key] = grid[hi]
    return out


def _steps_between(old: Fraction, new: Fraction, step: Fraction) -> list[Fraction]:
    """The values on the step lattice after ``old`` (exclusive) up to ``new`` (inclusive), from
    ``old``'s side; ``new`` is on the lattice."""
    if new > old:
        first = step * (math.floor(old / step) + 1)
        return [first + step * i for i in range(int((new - first) / step) + 1)]
    first = step * (math.ceil(old / step) - 1)
    return [first - step * i for i in range(int((first - new) / step) + 1)]


def revert_pass(prices, proposal: dict[str, Fraction], result: Standing,
                evaluate: Evaluate) -> tuple[dict[str, Fraction], Standing, list[str], int]:
    """Each change, the smallest first, reverted on trial; kept reverted when no side within the
    margin leaves it and the change's own sides are within the margin after it, or no farther
    from the mean (a change that does not help its sides is dropped; module docstring)."""
    changed = sorted((p for p in prices if proposal[p.key] != p.value),
                     key=lambda p: abs(math.log(proposal[p.key] / p.value)))
    reverted, games = [], 0
    for p in changed:
        trial = evaluate(proposal | {p.key: p.value})
        games += trial.played
        sides = [s for s in p.sides if s in trial.table.index]
        helps = _local(result, p) < _local(trial, p) and not trial.table.equivalent[sides].all()
        if not helps and set(trial.outside) <= set(result.outside):
            proposal, result = trial.values, trial
            reverted.append(p.key)
    return dict(proposal), result, reverted, games


# ---------------------------------------------------------------------------- patches


@dataclass(frozen=True)
class Patch:
    """A proposal read back: the ruleset and mode it prices, and the new values."""

    ruleset: str
    mode: str
    values: dict[str, Fraction]
    old: dict[str, Fraction]
    validated: bool | None = None


def patch_text(game: Game, proposal: Mapping[str, Fraction], settings: Settings, validated: bool | None,
               source: str | None) -> str:
    """proposal.toml: each changed price with its old and new value (exact: "93/5" is 18.6)."""
    word = {True: "passed", False: "FAILED", None: "not validated"}[validated]
    lines = [f"# shamble rebalance proposal for {source or 'a config'} ({game.title}): {word} validation "
             f"within ±{settings.margin * 100:g} points", "# apply it: shamble play CONFIG --patch proposal.toml",
             f'ruleset = "{game.ruleset.id}"', f'mode = "{game.mode}"', f"margin = {settings.margin!r}",
             *([] if validated is None else [f"validated = {'true' if validated else 'false'}"]), ""]
    for p in game.prices:
        if proposal[p.key] != p.value:
            sides = ", ".join(json.dumps(s) for s in p.sides)
            lines += ["[[change]]", f"key = {json.dumps(p.key)}", f'old = "{p.value}"', f'new = "{proposal[p.key]}"',
                      f"what = {json.dumps(p.what)}", f"sides = [{sides}]",
                      f"# {float(p.value):g} -> {float(proposal[p.key]):g} ({_percent(p.value, proposal[p.key])})", ""]
    return "\n".join(lines)


def _percent(old: Fraction, new: Fraction) -> str:
    return f"{(float(new) / float(old) - 1) * 100:+.0f}%"


def load_patch(path: str | Path) -> Patch:
    """Read a proposal.toml; anything wrong is one RebalanceError line naming the file."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, UnicodeDecodeError) as err:
        raise RebalanceError(f"{path}: cannot read the patch ({getattr(err, 'strerror', None) or err})") from None
    except tomllib.TOMLDecodeError as err:
        raise RebalanceError(f"{path}: invalid TOML: {err}") from None
    for name in ("ruleset", "mode"):
        if not isinstance(data.get(name), str):
            raise RebalanceError(f"{path}: field {name!r} is missing; a patch names its ruleset and mode")
    values, old = {}, {}
    for k, row in enumerate(data.get("change", [])):
        where = f"{path}: change[{k}]"
        if not isinstance(row, dict) or not isinstance(row.get("key"), str):
            raise RebalanceError(f"{where}: needs key, old and new")
        values[row["key"]], old[row["key"]] = _exact(row.get("new"), f"{where}.new"), _exact(row.get("old"),
                                                                                          f"{where}.old")
    return Patch(data["ruleset"], data["mode"], values, old, data.get("validated"))


def _exact(value: Any, where: str) -> Fraction:
    try:
        out = Fraction(str(value)) if isinstance(value, int | str) and not isinstance(value, bool) else None
    except (ValueError, ZeroDivisionError):
        out = None
    if out is None or out <= 0:
        raise RebalanceError(f"{where} = {value!r}; allowed: a number above 0 or a fraction such as \"93/5\"")
    return out


def apply_patch(config, patch: Patch | str | Path):
    """``config`` playing a proposal's costs (every side refitted to its budget), through its
    ruleset's `Pricing`; a patch of another ruleset is a one-line error."""
    patch = patch if isinstance(patch, Patch) else load_patch(patch)
    rs = ruleset_of(config)
    if patch.ruleset != rs.id:
        raise RebalanceError(f"the patch prices {patch.ruleset}; the config is {rs.id}")
    pricing = pricing_of(rs)
    if pricing is None:
        raise RebalanceError(f"{rs.id} has nothing to price")
    if patch.mode not in pricing.modes:
        raise RebalanceError(f"patch mode {patch.mode!r}; allowed: {', '.join(pricing.modes)}")
    return pricing.apply(config, patch.mode, patch.values)


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


def prepare_folder(out: Path, fresh: bool = False) -> Path:
    """The output folder (made), its evaluations deleted first with ``fresh``."""
    if fresh:
        shutil.rmtree(out / EVALUATIONS, ignore_errors=True)
    (out / EVALUATIONS).mkdir(parents=True, exist_ok=True)
    return out


def rebalance(config, settings: Settings | None = None, out: Path | None = None, fresh: bool = False,
              console: Console | None = None, show_progress: bool = False, source: str | None = None) -> Rebalance:
    """Search, write the patch, validate it on fresh games and write the tables (module docstring).

    Parameters
    ----------
    config
        A game config of a ruleset with something to price.
    settings : Settings
    out : Path, optional
        Output folder (resumable); None keeps everything in memory.
    """
    settings = settings or Settings()
    game = rebalance_game(config, settings.mode, settings.as_is, settings.policies)
    started = time.perf_counter()
    folder = None if out is None else prepare_folder(Path(out), fresh) / EVALUATIONS
    if show_progress:
        from experiments.progress import load_game_kernels

        load_game_kernels(game.cells[0].config, console)
    with _Bars(console, show_progress, settings, len(game.cells)) as bars:
        evaluate = Evaluator(game, settings.seed, settings.games, settings.margin, folder, bars.advance)
        found = search(game.prices, evaluate, settings, evaluate.same_play, say=bars.candidate)
        patch = None
        if out is not None:
            path = Path(out) / "proposal.toml"
            _write_text(path, patch_text(game, found.proposal, settings, None, source))
            patch = load_patch(path)  # the validation plays the file as written
        bars.validating()
        validation = validate(game, patch.values if patch else found.proposal, settings, folder, bars.advance)
    done = Rebalance(game, settings, found, validation, None if out is None else Path(out),
                     time.perf_counter() - started, source)
    if out is not None:
        write_outputs(done)
    return done


def _write_text(path: Path, text: str) -> None:
    with atomic_path(path) as tmp:
        tmp.write_text(text)


class _Bars:
    """The progress of a rebalance on stderr: games of the search (of its budget), then of the
    validation; the line says the candidate and how many sides are outside the margin."""

    def __init__(self, console: Console | None, show: bool, settings: Settings, n_cells: int) -> None:
        self.show, self.console, self.settings, self.n_cells = show, console, settings, n_cells
        self.bar = self.task = None

    def __enter__(self) -> _Bars:
        if self.show:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self.bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                TimeElapsedColumn(), console=self.console or Console(stderr=True), transient=True)
            self.bar.__enter__()
            self.task = self.bar.add_task("search: candidate 0", total=max(self.settings.budget, 1))
        return self

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)

    def advance(self, games: int) -> None:
        if self.bar is not None:
            self.bar.advance(self.task, games)

    def candidate(self, k: int, result: Standing) -> None:
        if self.bar is not None:
            self.bar.update(self.task, description=f"search: candidate {k + 1}, {len(result.outside)} sides outside "
                                                   f"±{self.settings.margin * 100:g}")

    def validating(self) -> None:
        if self.bar is not None:
            self.bar.remove_task(self.task)
            self.task = self.bar.add_task(f"validation (seed {self.settings.check_seed})",
                                          total=2 * self.n_cells * self.settings.check_games)


# ---------------------------------------------------------------------------- tables and files


def _fraction_text(value: Fraction) -> str:
    return str(value) if value.denominator == 1 else f"{float(value):g} ({value})"


def changes_table(done: Rebalance) -> pd.DataFrame:
    """One row per changed price: key, what it is, old, new, change, the sides it prices."""
    rows = [{"price": p.key, "what": p.what, "old": str(p.value), "new": str(new),
             "old_value": float(p.value), "new_value": float(new), "change": _percent(p.value, new),
             "sides": ", ".join(p.sides)} for p, new in done.changes]
    return pd.DataFrame(rows, columns=["price", "what", "old", "new", "old_value", "new_value", "change", "sides"])


def before_after(done: Rebalance) -> pd.DataFrame:
    """Per side, on the validation's games: what it fields, its rate with the 95% interval, its
    deviation from the mean and whether it is within the margin, before and after."""
    v, game = done.validation, done.game
    cells = {k: c for k, c in enumerate(game.cells)}
    fields = {}
    for name, values in (("before", game.start), ("after", done.search.proposal)):
        fields[name] = {}
        for cell in cells.values():
            config = game.priced(cell, values)
            for side in v.before.table.index:
                if side not in fields[name]:
                    text = game.pricing.describe(config, game.mode, side)
                    if text is not None:
                        fields[name][side] = text
    out = pd.DataFrame(index=v.before.table.index)
    for name, st in (("before", v.before), ("after", v.after)):
        t = st.table
        out[f"fields_{name}"] = [fields[name].get(s, "") for s in out.index]
        out[f"rate_{name}"] = t.rate
        out[f"ci_low_{name}"], out[f"ci_high_{name}"] = t.low95, t.high95
        out[f"deviation_{name}"] = t.deviation
        out[f"within_{name}"] = _verdict(t)
    out.insert(0, "games", v.after.table.games)
    return out.reset_index().sort_values("rate_before", ascending=False, ignore_index=True)


def _verdict(table: pd.DataFrame) -> list[str]:
    return np.where(table.equivalent, "yes", np.where(table.outside, "no", "not shown")).tolist()


def search_frames(found: Search) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(per candidate and side: rate, deviation, within; per candidate and price: value)."""
    sides, values = [], []
    for k, st in enumerate(found.history):
        t = st.table.reset_index()
        t["fields"] = [st.fields.get(side, "") for side in t.side]
        sides.append(t.assign(candidate=k, mean=st.mean, games_played=st.played)[
            ["candidate", "side", "fields", "games", "wins", "rate", "deviation", "low90", "high90", "equivalent",
             "mean", "games_played"]])
        values += [{"candidate": k, "price": key, "value": str(v), "value_float": float(v)}
                   for key, v in st.values.items()]
    return pd.concat(sides, ignore_index=True), pd.DataFrame(values)


def tried(found: Search, side: str) -> pd.DataFrame:
    """What the search tried for one side: per thing it fielded (``fields``), the candidates that
    fielded it and the deviation nearest the mean among them, on the search's games."""
    sides, _ = search_frames(found)
    rows = sides[sides.side == side].assign(distance=lambda t: t.deviation.abs())
    best = rows.loc[rows.groupby("fields", sort=False).distance.idxmin()]
    counts = rows.groupby("fields", sort=False).size()
    return pd.DataFrame({"fields": best.fields.to_numpy(), "candidates": counts[best.fields].to_numpy(),
                         "deviation": best.deviation.to_numpy(), "within": best.equivalent.to_numpy()})


def diagnosis(done: Rebalance) -> list[str]:
    """For each side not shown within the margin after: what the search tried for it (one line)."""
    lines = []
    for side in done.validation.after.outside:
        table = tried(done.search, side)
        if table.fields.eq("").all():
            continue
        shown = "; ".join(f"{r.fields}: {r.deviation * 100:+.1f}{' (within)' if r.within else ''}"
                          for r in table.itertuples())
        never = "" if table.within.any() else " (never within the margin on the search's games)"
        lines.append(f"{side}: {shown}{never}")
    return lines


def summary(done: Rebalance) -> dict:
    """The JSON of a rebalance (``--json``, summary.json)."""
    v, s = done.validation, done.search

    def spread(st: Standing) -> dict:
        return {"mean": st.mean, "lowest": float(st.table.rate.min()), "highest": float(st.table.rate.max()),
                "largest_deviation": st.worst, "outside": st.outside}

    return {
        "ruleset": done.game.ruleset.id, "config": done.source, "game": done.game.title, "mode": done.game.mode,
        "rate": done.game.pricing.rate,
        "margin": done.settings.margin, "passed": v.passed, "status": "passed" if v.passed else "FAILED",
        "changes": changes_table(done).drop(columns=["old_value", "new_value"]).to_dict("records"),
        "stop": s.stop, "candidates": len(s.history), "best_candidate": s.best, "polished": s.polished,
        "reverted": s.reverted, "search_games": s.search_games, "polish_games": s.polish_games,
        "revert_games": s.revert_games, "games": s.games + v.games,
        "validation": {"seed": v.seed, "games_per_cell": v.games_per_cell, "games": v.games,
                       "before": spread(v.before), "after": spread(v.after)},
        "sides": json.loads(before_after(done).to_json(orient="records")),
        "tried": diagnosis(done),
        "settings": {k: v for k, v in asdict(done.settings).items()} | {"validate_seed": v.seed,
                                                                       "validate_games": v.games_per_cell},
        "gain": {"gain": GAIN, "stability": STABILITY, "alpha": ALPHA, "max_step": MAX_STEP},
        "seconds": round(done.seconds, 1),
    }


def search_chart(done: Rebalance):
    sides, _ = search_frames(done.search)
    word = done.game.word
    return charts.search_path(sides, f"{word.capitalize()} rate of each side over the search", done.settings.margin,
                              f"{word} rate")


def write_outputs(done: Rebalance) -> None:
    """Every file of the module docstring's folder, rewritten with the validation's verdict."""
    out = done.out
    _write_text(out / "proposal.toml", patch_text(done.game, done.search.proposal, done.settings, done.passed,
                                                  done.source))
    write_table(before_after(done), out / "before_after.csv")
    write_table(done.validation.matchups_before, out / "matchups_before.csv")
    write_table(done.validation.matchups_after, out / "matchups_after.csv")
    sides, values = search_frames(done.search)
    write_table(sides, out / "search.csv")
    write_table(values, out / "search_prices.csv")
    charts.save(search_chart(done), out / "search")
    info = summary(done)
    write_json(info, out / "summary.json")
    write_json({"settings": info["settings"], "gain": info["gain"], "versions": _versions(),
                "seconds": info["seconds"], "finished": time.strftime("%Y-%m-%dT%H:%M:%S")}, out / "meta.json")


# ---------------------------------------------------------------------------- words


def verdict_line(done: Rebalance) -> str:
    """PASSED or FAILED, in one sentence."""
    v, m = done.validation, done.settings.margin * 100
    n = len(done.changes)
    what = f"{n} change{'s' * (n != 1)}" if n else "no change"
    games = f"{v.games_per_cell} games per cell, seed {v.seed}, games the search never saw"
    if v.passed:
        return (f"PASSED: with {what}, every side's {done.game.word} rate is shown within ±{m:g} points of "
                f"the mean ({v.after.mean:.1%}) on fresh games ({games}).")
    outside = ", ".join(v.after.outside)
    return (f"FAILED: with {what}, {len(v.after.outside)} side{'s' * (len(v.after.outside) != 1)} "
            f"({outside}) {'is' if len(v.after.outside) == 1 else 'are'} not shown within ±{m:g} points of the mean "
            f"({v.after.mean:.1%}) on fresh games ({games}); the proposal is not a fix.")


def render(done: Rebalance, console: Console) -> None:
    """The proposal, the before/after table and the verdict."""
    from rich.table import Table

    s, v = done.search, done.validation
    word = done.game.word
    console.print(f"{done.game.ruleset.title}, {done.game.title}: {len(done.game.cells)} cells, "
                  f"{len(done.game.prices)} prices ({done.game.mode}); margin ±{done.settings.margin * 100:g} points")
    stops = {"converged": "every side within the margin on the search's games",
             "budget": "the game budget was spent", "iterations": "the last iteration was reached"}
    console.print(f"search: {len(s.history)} candidates on {done.settings.games} games per cell (seed "
                  f"{done.settings.seed}), {s.search_games} games; stopped: {stops[s.stop]}; proposal from candidate "
                  f"{s.best}{', polished ' + ', '.join(s.polished) if s.polished else ''}"
                  f"{', reverted ' + ', '.join(s.reverted) if s.reverted else ''} ({s.polish_games} games of polish "
                  f"and {s.revert_games} of revert trials; {s.games + v.games} games in all with the validation)")
    changes = changes_table(done)
    table = Table(title="proposal" if len(changes) else "proposal: no change")
    for col in ("price", "what", "old", "new", "change", "sides"):
        table.add_column(col, justify="right" if col in ("old", "new", "change") else "left")
    for row in changes.to_dict("records"):
        table.add_row(row["price"], row["what"], _fraction_text(Fraction(row["old"])),
                      _fraction_text(Fraction(row["new"])), row["change"], row["sides"])
    if len(changes):
        console.print(table)
    ba = before_after(done)
    table = Table(title=f"validation: {v.games_per_cell} games per cell, seed {v.seed} (mean {word} rate before "
                        f"{v.before.mean:.1%}, after {v.after.mean:.1%})")
    for col in ("side", "fields before", "before", "95% CI", f"±{done.settings.margin * 100:g}", "fields after",
                "after", "95% CI ", f"±{done.settings.margin * 100:g} "):
        table.add_column(col, justify="left" if col.startswith(("side", "fields")) else "right")
    for r in ba.to_dict("records"):
        table.add_row(r["side"], r["fields_before"], f"{r['rate_before']:.1%}",
                      f"{r['ci_low_before'] * 100:.1f}-{r['ci_high_before'] * 100:.1f}", r["within_before"],
                      r["fields_after"], f"{r['rate_after']:.1%}",
                      f"{r['ci_low_after'] * 100:.1f}-{r['ci_high_after'] * 100:.1f}", r["within_after"])
    console.print(table)
    console.print(f"spread of {word} rates: before {v.before.table.rate.min():.1%} - {v.before.table.rate.max():.1%}, "
                  f"after {v.after.table.rate.min():.1%} - {v.after.table.rate.max():.1%}")
    console.print(verdict_line(done))
    lines = diagnosis(done)
    if lines:
        console.print("what the search tried for each side not shown within the margin (what it fields: its deviation "
                      "nearest the mean, in points, on the search's games):")
        for line in lines:
            console.print(f"  {line}")
    if done.out is not None:
        console.print(f"wrote {done.out / 'proposal.toml'}, before_after.csv, matchups_before.csv, matchups_after.csv, "
                      f"search.csv, search.png in {done.out} ({done.seconds:.0f} s)")
