"""A ruleset of the test tree with something to price, for ``shamble rebalance``: Runner Race.

Each player fields a team of runners bought from a points budget: ``budget // cost`` runners,
where ``cost`` is its team's points per runner (``costs``, a table team = cost; 4 for a team it
does not name). Every game turn all tokens move at once, each by the highest D6 of its team's
runners; at the end of the first turn some token reaches ``track_length``, the furthest token
wins (a tie for furthest: nobody wins, "tie"); after ``max_turns`` nobody does ("timeout"). The
seats are symmetric, so the fair costs are known: the race is fair exactly when every team fields
as many runners as the others.

Its `Pricing` prices each team's cost per runner, in whole points; its default game is the
config as it is (one cell). The kernel is plain numpy (no numba): game ``g`` draws its dice from
``numpy.random.default_rng([seed, g])``, so game g depends only on (seed, g).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from kernels.rng import new_streams
from sim.ruleset import Parameter, Price, Pricing, ReportSection, common_frame, head_of

ID = "runner_race"
DEFAULT_COST = 4
REASONS = ("timeout", "finish", "tie")


class GameState(NamedTuple):
    winner: np.ndarray  # int64[n] the winner's seat, -1 none
    turns: np.ndarray  # int64[n] game turns played
    reason: np.ndarray  # int64[n] index into REASONS
    position: np.ndarray  # int64[n, P] squares moved


class Tables(NamedTuple):
    prm: np.ndarray  # int64[2]: track length, max turns
    runners: np.ndarray  # int64[P] runners of each seat's team


def play_batch(st, tb, seed, first_game, check, rng):
    """Plain numpy: the race of module docstring, game by game."""
    track, turns = int(tb.prm[0]), int(tb.prm[1])
    top = max(1, int(tb.runners.max()))
    rng[:] = new_streams(int(seed), rng.shape[0], int(first_game))
    for g in range(st.winner.shape[0]):
        dice = np.random.default_rng([int(seed), int(first_game) + g]).integers(1, 7, (turns, tb.runners.size, top))
        mask = np.arange(top)[None, None, :] < tb.runners[None, :, None]
        steps = np.where(mask, dice, 0).max(axis=2)
        pos = np.cumsum(steps, axis=0)
        done = np.flatnonzero((pos >= track).any(axis=1))
        t = int(done[0]) if done.size else turns - 1
        st.turns[g], st.position[g] = t + 1, pos[t]
        best = np.flatnonzero(pos[t] == pos[t].max())
        if not done.size:
            st.winner[g], st.reason[g] = -1, 0
        elif best.size > 1:
            st.winner[g], st.reason[g] = -1, 2
        else:
            st.winner[g], st.reason[g] = int(best[0]), 1


@dataclass(frozen=True)
class Policy:
    pass


@dataclass(frozen=True)
class Player:
    name: str
    team: str
    policy: Policy = field(default_factory=Policy)


def cost_table(value: Any) -> tuple[tuple[str, str], ...]:
    pairs = value.items() if isinstance(value, dict) else value
    out = {}
    for team, cost in pairs:
        exact = Fraction(str(cost))
        if not isinstance(team, str) or exact <= 0:
            raise ValueError(f"costs: {team} = {cost!r}; allowed: team = a cost above 0")
        out[team] = str(exact)
    return tuple(sorted(out.items()))


@dataclass(frozen=True)
class Config:
    players: tuple[Player, ...]
    budget: int = field(default=12, metadata={"tag": "V", "spec": "§1"})
    costs: tuple[tuple[str, str], ...] = field(default=(), metadata={"tag": "data", "spec": "§1"})
    track_length: int = field(default=20, metadata={"tag": "V", "spec": "§2"})
    max_turns: int = field(default=30, metadata={"tag": "V", "spec": "§2"})

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "costs", cost_table(self.costs))
        if not 1 <= self.budget <= 1000:
            raise ValueError(f"budget = {self.budget!r}; allowed: 1-1000")

    @property
    def ruleset(self) -> str:
        return ID

    @property
    def n_players(self) -> int:
        return len(self.players)

    def cost(self, team: str) -> Fraction:
        return Fraction(dict(self.costs).get(team, DEFAULT_COST))

    def runners(self, team: str) -> int:
        return int(self.budget // self.cost(team))


# ---------------------------------------------------------------------------- pricing


def _prices(config: Config, mode: str) -> list[Price]:
    teams = dict.fromkeys(p.team for p in config.players)
    return [Price(t, config.cost(t), Fraction(1), Fraction(1), Fraction(config.budget), (t,), "points per runner")
            for t in teams]


def _apply(config: Config, mode: str, values) -> Config:
    teams = {p.team for p in config.players}
    costs = dict(config.costs) | {k: str(Fraction(v)) for k, v in values.items() if k in teams}
    return replace(config, costs={k: v for k, v in costs.items() if Fraction(v) != DEFAULT_COST})


def _game(config: Config) -> ReportSection:
    return ReportSection("race", "the race as configured", "The config's players.", config, 200, {}, ())


def _describe(config: Config, mode: str, side: str) -> str | None:
    return f"{config.runners(side)} runners" if side in {p.team for p in config.players} else None


PRICING = Pricing({"per-model": "points per runner of each team"}, "team", _prices, _apply, _game, _describe)


# ---------------------------------------------------------------------------- the ruleset


class RunnerRace:
    id = ID
    title = "Runner Race"
    description = "A test-tree game with prices: teams of runners bought from a budget race along a track."
    spec = "tests/priced_ruleset.py"
    win_word = "win"
    end_reasons = REASONS
    play_columns = ("position",)
    kernels_package = ""

    def __init__(self) -> None:
        self.play_batch = play_batch

    def parameters(self):
        return [Parameter(f.name, f.default, f.metadata["tag"], f.metadata["spec"])
                for f in fields(Config) if f.name != "players"]

    def config_from_dict(self, data: dict, source: str, base_dir: Path | None):
        players = tuple(Player(p["name"], p["team"]) for p in data["players"])
        return Config(players, **data.get("params", {}))

    def parse_params(self, config, params, source="params"):
        changed = replace(config, **dict(params))
        return {name: getattr(changed, name) for name in params}

    def with_mods(self, config, mods):
        if mods:
            raise ValueError("Runner Race has no mods")
        return config

    def mods(self):
        return {}

    def policy_presets(self):
        return {"run": Policy()}

    def policy_help(self):
        return {}

    def policy_from(self, value, where):
        return Policy()

    def example_config(self, n_players=None):
        return Config(tuple(Player(f"P{k + 1}", "ABCDEFGH"[k]) for k in range(n_players or 4)))

    def compile(self, config):
        return Tables(np.array([config.track_length, config.max_turns], np.int64),
                      np.array([config.runners(p.team) for p in config.players], np.int64))

    def new_state(self, config, tables, n_games, trace_events=0):
        n, p = n_games, config.n_players
        return GameState(
            np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros((n, p), np.int64))

    def head(self, state, count):
        return head_of(state, count, GameState._fields)

    def violations(self, state):
        return 0

    def results(self, config, state, first_game, dice):
        n = 0 if state is None else state.winner.shape[0]
        winner = np.zeros(0, np.int64) if state is None else state.winner
        names = np.array([p.name for p in config.players], dtype=object)
        won = winner[:, None] == np.arange(config.n_players)[None, :]
        reasons = np.array(REASONS, dtype=object)[np.zeros(0, np.int64) if state is None else state.reason]
        cols = common_frame(ID, names, first_game, n, won, np.where(winner >= 0, names[np.maximum(winner, 0)], ""),
                            reasons, np.zeros(0, np.int64) if state is None else state.turns, np.asarray(dice)[:n])
        cols["team"] = np.tile(np.array([p.team for p in config.players], dtype=object), n)
        cols["position"] = np.zeros(0) if state is None else state.position.ravel()
        return pd.DataFrame(cols)

    def events(self, state):
        return state.position[:1].copy()

    def trace(self, config, events, result, out_dir):
        return [f"positions {events.tolist()}"], []

    def axes(self):
        return {}

    def report_sections(self, scale=1.0):
        return []

    def bench_configs(self):
        return {"four": self.example_config(4)}

    def cli(self):
        return None

    def pricing(self):
        return PRICING


RULESET = RunnerRace()
