"""The search of `shamble tune`: which seats a side is, what its rate counts, and CMA-ES over its
policy on common seeds, checkpointed so that an interrupted search resumes to the same answer.

**Sides.** ``--side`` names (first match wins) a player (his seat; his rate is his ``won``), a
team or faction (a player's ``team``, ``army`` or ``faction``: every seat that plays it; a game
counts when any of them won), or a shared win: a word ``game_winner`` gives games that some seat
won and that names no player ("posse" in Zombies Out West, "players" in Zombie Apocalypse, "all
players" in Zombie 40,000's cooperative win; every seat; a game counts when ``game_winner`` says
the word). Shared-win words are read from the first ``PROBE_GAMES`` games of the search's seed
(games the default's own candidate plays again; never validation games), and, when the word is
not among them, from those games played by each policy preset on every seat. Every seat of the
side plays one tuned policy.

**Candidates.** Candidate ``k``'s policy plays games ``0 .. games-1`` of the search seed: every
candidate the same games (common random numbers), so two candidates differ by their policy, never
by their dice; its score is the side's rate on those games. Candidate 0 is the start policy (the
first seat's). Candidates that decode to the same policy (whole numbers and choices round many
points of cma's space onto one) are played once: only a new policy costs games. The search stops
when the next new policy would overspend the budget (the budget counts only the games played), or
when cma's own termination criteria fire.

**Checkpoint.** Every played candidate (its policy, as JSON, and its wins) is written after each
generation to ``DIR/candidates.parquet``, stamped and checksummed like a sweep's cells
(`experiments.sweep.write_checkpoint`). A resumed run replays cma from its seed and looks each
candidate up before playing it: cma sees the very same scores, so it asks the very same
candidates, and the resumed search ends where an uninterrupted one ends.

**Dask.** With an address (or "local"), the new candidates of a generation are played as tasks of
the cluster (`experiments.sweep.dask_client`, one client for the run); the task is `score`, so the
scores are those of an in-process run.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from experiments.sweep import at_once
from experiments.tune_space import Dimension, TuneError, apply, decode
from sim.play import play

PROBE_GAMES = 200  # games of the search seed read for the shared-win words a side may name
TEAM_FIELDS = ("team", "army", "faction")
CANDIDATES = "candidates.parquet"


# ---------------------------------------------------------------------------- sides


@dataclass(frozen=True)
class Side:
    """The seats a side plays and how a game counts for it: "player" or "team" (any of its seats
    won), "shared" (``game_winner`` says ``name``)."""

    name: str
    seats: tuple[int, ...]
    how: str


def team_of(player: Any) -> str | None:
    for attr in TEAM_FIELDS:
        value = getattr(player, attr, None)
        label = getattr(value, "name", value)
        if isinstance(label, str) and label:
            return label
    return None


def resolve_side(config, name: str, seed: int) -> Side:
    """The side ``name`` of ``config`` (module docstring); an unknown name is one line listing the
    sides there are."""
    names = [p.name for p in config.players]
    if name in names:
        return Side(name, (names.index(name),), "player")
    teams = [team_of(p) for p in config.players]
    if name in teams:
        return Side(name, tuple(k for k, t in enumerate(teams) if t == name), "team")
    words = shared_words(config, seed, name)
    if name in words:
        return Side(name, tuple(range(len(names))), "shared")
    allowed = list(dict.fromkeys([*names, *(t for t in teams if t), *words]))
    raise TuneError(f"--side {name!r}: no such player, team or shared win; allowed: {', '.join(allowed)}")


def shared_words(config, seed: int, wanted: str | None = None) -> list[str]:
    """The ``game_winner`` words of games some seat won that name no player, in the probe games:
    those of the config as given, then (until ``wanted`` is seen) of each policy preset on every
    seat, so that a shared win the config's own policy rarely reaches is still known."""
    from dataclasses import replace

    from sim.ruleset import ruleset_of

    names = {p.name for p in config.players}
    presets = ruleset_of(config).policy_presets().values()
    words: dict[str, None] = {}
    for probe in (config, *(replace(config, players=tuple(replace(p, policy=policy) for p in config.players))
                            for policy in presets)):
        rows = play(probe, PROBE_GAMES, seed)
        n_p = len(config.players)
        won = rows.won.to_numpy().reshape(-1, n_p).any(axis=1)
        words |= dict.fromkeys(w for w in rows.game_winner.to_numpy()[::n_p][won]
                               if isinstance(w, str) and w and w not in names)
        if wanted is None or wanted in words:
            break
    return list(words)


def outcomes(rows: pd.DataFrame, side: Side, n_players: int) -> np.ndarray:
    """bool[n_games]: whether each game counts for the side (rows in game, then seat order)."""
    if side.how == "shared":
        return rows.game_winner.to_numpy()[::n_players] == side.name
    return rows.won.to_numpy().reshape(-1, n_players)[:, list(side.seats)].any(axis=1)


def with_side_policy(config, side: Side, policy: Any):
    """``config`` with every seat of the side playing ``policy``."""
    from dataclasses import replace

    players = tuple(replace(p, policy=policy) if k in side.seats else p for k, p in enumerate(config.players))
    return replace(config, players=players)


def side_outcomes(config, games: int, seed: int, side: Side,
                  progress: Callable[[int], None] | None = None) -> np.ndarray:
    """Play games ``0 .. games-1`` of ``seed``; whether each counts for the side."""
    return outcomes(play(config, games, seed, progress=progress), side, len(config.players))


def score(config, games: int, seed: int, side: Side) -> int:
    """The side's wins in games ``0 .. games-1`` of ``seed`` (the task of every runner)."""
    return int(side_outcomes(config, games, seed, side).sum())


# ---------------------------------------------------------------------------- candidates


class Evaluator:
    """Plays candidates (tuples of field values) on the search's games, once each, remembering
    their wins in ``folder``'s checkpoint (None: in memory)."""

    def __init__(self, config, side: Side, dims: list[Dimension], games: int, seed: int, stamp: dict,
                 folder: Path | None = None, client=None, progress: Callable[[int], None] | None = None) -> None:
        self.config, self.side, self.dims, self.games, self.seed = config, side, dims, games, seed
        self.stamp, self.folder, self.client, self.progress = stamp, folder, client, progress
        self.start = config.players[side.seats[0]].policy
        self.wins: dict[tuple, int] = self._read()
        self.resumed = len(self.wins)

    def config_of(self, key: tuple):
        return with_side_policy(self.config, self.side, apply(self.start, self.dims, key))

    def __call__(self, keys: list[tuple]) -> list[int]:
        todo = [k for k in dict.fromkeys(keys) if k not in self.wins]
        for _ in range(len(set(keys)) - len(todo)):
            self._advance(self.games)  # replayed from the checkpoint
        if todo:
            # a generation's new candidates two at a time (`experiments.sweep.at_once`): each scores its own games
            found = self._dask(todo) if self.client is not None else at_once([(score_here, self, k) for k in todo])
            self.wins.update(zip(todo, found))
            self._write()
        return [self.wins[k] for k in keys]

    def _advance(self, games: int) -> None:
        if self.progress is not None:
            self.progress(games)

    def _dask(self, todo: list[tuple]) -> list[int]:
        """The generation's new policies as tasks of the cluster (one client for the whole run)."""
        from distributed import as_completed

        futures = {self.client.submit(score, self.config_of(k), self.games, self.seed, self.side, pure=False): k
                   for k in todo}
        found = {}
        for future in as_completed(futures):
            found[futures[future]] = future.result()
            self._advance(self.games)
        return [found[k] for k in todo]

    def _path(self) -> Path | None:
        return None if self.folder is None else self.folder / CANDIDATES

    def _read(self) -> dict[tuple, int]:
        from experiments.sweep import read_checkpoint

        path = self._path()
        if path is None or not path.exists():
            return {}
        df = read_checkpoint(path, self.stamp)
        return {tuple(json.loads(k)): int(w) for k, w in zip(df.policy, df.wins)}

    def _write(self) -> None:
        from experiments.sweep import write_checkpoint

        path = self._path()
        if path is not None:
            df = pd.DataFrame({"policy": [json.dumps(list(k)) for k in self.wins],
                               "wins": np.array(list(self.wins.values()), np.int64)})
            write_checkpoint(df, path, self.stamp)


def score_here(evaluator: Evaluator, key: tuple) -> int:
    """One candidate played in this process, its games shown on the progress bar as they finish."""
    rows = side_outcomes(evaluator.config_of(key), evaluator.games, evaluator.seed, evaluator.side,
                         progress=evaluator._advance)
    return int(rows.sum())


# ---------------------------------------------------------------------------- the search


@dataclass
class Found:
    """What the search played: every candidate asked (in order), the best and why it stopped."""

    history: list[dict] = field(default_factory=list)  # candidate, generation, policy key, wins, new
    best: tuple = ()
    best_wins: int = 0
    stop: str = "budget"
    used: int = 0  # games played (new policies only)
    generations: int = 0
    popsize: int = 0


def cma_options(dims: list[Dimension], seed: int, popsize: int | None) -> dict:
    """cma's options: the bounds, per-coordinate steps, integer coordinates and the seed; quiet.
    One field gets a second coordinate that nothing reads (cma does not run in one dimension)."""
    lows, highs = zip(*(d.bounds for d in dims), *([(-1.0, 1.0)] if len(dims) == 1 else []))
    stds = [d.std for d in dims] + [0.6] * (len(dims) == 1)
    options = {"bounds": [list(lows), list(highs)], "CMA_stds": stds,
               "integer_variables": [i for i, d in enumerate(dims) if d.kind == "integer"],
               "seed": 1 + seed % (2**31 - 2), "verbose": -9, "verb_log": 0, "verb_disp": 0,
               "tolfun": 0, "tolfunhist": 0, "tolflatfitness": 20, "tolx": 0}
    if popsize is not None:
        options["popsize"] = popsize
    return options


def cma_popsize(dims: list[Dimension], seed: int, popsize: int | None = None) -> int:
    """The population cma will use for this space (its default grows with the dimension and the
    integer coordinates)."""
    import cma

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x0 = [d.encode(d.start) for d in dims] + [0.0] * (len(dims) == 1)
        return int(cma.CMAEvolutionStrategy(x0, 1.0, cma_options(dims, seed, popsize)).popsize)


def search(dims: list[Dimension], evaluate: Callable[[list[tuple]], list[int]], budget: int, games: int,
           seed: int, popsize: int | None = None, say: Callable[[Found], None] | None = None) -> Found:
    """CMA-ES maximising the side's wins on the search games (module docstring).

    ``evaluate(keys)`` -> the wins of each policy key (the same games for every key); ``budget``
    caps the games of new policies; ``say(found)`` is called after each generation.
    """
    import cma

    x0 = [d.encode(d.start) for d in dims] + [0.0] * (len(dims) == 1)  # cma needs 2 coordinates: one unread
    found = Found()
    score_of: dict[tuple, int] = {}

    def take(keys: list[tuple], generation: int) -> bool:
        """Play the new policies among ``keys`` the budget allows; False when it cut some."""
        new = [k for k in dict.fromkeys(keys) if k not in score_of]
        played = new[:max(0, (budget - found.used) // games)]
        if played:
            score_of.update(zip(played, evaluate(played)))
            found.used += games * len(played)
        fresh = set(played)
        for k in (k for k in keys if k in score_of):
            found.history.append({"candidate": len(found.history), "generation": generation, "policy": k,
                                  "wins": score_of[k], "new": k in fresh})
            fresh.discard(k)
            if not found.best or score_of[k] > found.best_wins:
                found.best, found.best_wins = k, score_of[k]
        return len(played) == len(new)

    take([decode(dims, x0)], 0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # cma's notes on its own settings are not the user's business
        es = cma.CMAEvolutionStrategy(x0, 1.0, cma_options(dims, seed, popsize))
        found.popsize = es.popsize
        while found.used + games <= budget:
            if es.stop():
                found.stop = "converged: " + ", ".join(sorted(es.stop()))
                break
            xs = es.ask()
            keys = [decode(dims, x) for x in xs]
            found.generations += 1
            if not take(keys, found.generations):
                break
            es.tell(xs, [-score_of[k] / games for k in keys])
            if say is not None:
                say(found)
    return found
