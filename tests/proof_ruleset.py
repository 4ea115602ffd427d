"""A ruleset of the test tree's own, to prove the seam: Token Race.

Each player moves a token along a track of ``track_length`` squares: on its turn a player rolls a
D6 and moves that many squares (a "bold" player re-rolls a 1 once); a 6 with ``sixes_again`` rolls
again. The first token to reach the end wins; after ``max_turns`` game turns nobody does
(``timeout``). Nothing outside this file knows it: it registers itself with ``sim.ruleset``, its
kernel is compiled like any other (``kernels.jit``), and ``sim.play``, sweeps and the report play
it through the protocol alone.

## Result columns

Its own columns (``columns_doc`` names this file, as a ruleset's page ``docs/<id>.md`` would be):

| column | type | meaning |
|---|---|---|
| position | int | squares the player's token moved |
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from kernels.jit import njit, njit_alloc
from kernels.rng import d6, stream_start
from sim.ruleset import AxisKind, Parameter, ReportSection, RulesetDefaults, common_frame

ID = "token_race"
TIMEOUT, FINISH = 0, 1
REASONS = ("timeout", "finish")


# ---------------------------------------------------------------------------- the game


class GameState(NamedTuple):
    position: np.ndarray  # int64[n, P] squares moved
    winner: np.ndarray  # int64[n] the winner, -1 none
    turns: np.ndarray  # int64[n] game turns played
    viol: np.ndarray  # int32[n] invariant violations (checked mode)


class Tables(NamedTuple):
    prm: np.ndarray  # int64[3]: track length, max turns, sixes roll again
    bold: np.ndarray  # int64[P] 1 = re-roll a 1 once


@njit
def _roll(rng, g, bold):
    die = d6(rng, g)
    if bold != 0 and die == 1:
        die = d6(rng, g)
    return die


@njit
def _move(st, g, p, tb, rng):
    """One player's turn: roll and move; a 6 rolls again while sixes_again is on."""
    while True:
        die = _roll(rng, g, tb.bold[p])
        st.position[g, p] += die
        if die != 6 or tb.prm[2] == 0 or st.position[g, p] >= tb.prm[0]:
            return


@njit
def _play_game(st, g, tb, rng, check):
    st.position[g, :] = 0
    st.winner[g] = -1
    st.viol[g] = 0
    for turn in range(1, tb.prm[1] + 1):
        st.turns[g] = turn
        for p in range(st.position.shape[1]):
            _move(st, g, p, tb, rng)
            if check:
                st.viol[g] += st.position[g, p] < 0
            if st.position[g, p] >= tb.prm[0]:
                st.winner[g] = p
                return


@njit_alloc
def play_batch(st, tb, seed, first_game, check, rng):
    for g in range(st.position.shape[0]):
        rng[g] = stream_start(np.uint64(seed), np.uint64(first_game + g))
        _play_game(st, g, tb, rng, check)


# ---------------------------------------------------------------------------- configs


@dataclass(frozen=True)
class Policy:
    bold: int = field(default=0, metadata={"help": "1: re-roll a 1 once"})


@dataclass(frozen=True)
class Player:
    name: str
    policy: Policy = field(default_factory=Policy)


@dataclass(frozen=True)
class Config:
    players: tuple[Player, ...]
    track_length: int = field(default=20, metadata={"tag": "C", "spec": "§1"})
    max_turns: int = field(default=12, metadata={"tag": "V", "spec": "§2"})
    sixes_again: bool = field(default=False, metadata={"tag": "V", "spec": "§1"})

    def __post_init__(self) -> None:
        if not 1 <= self.track_length <= 1000:
            raise ValueError(f"track_length = {self.track_length!r}; allowed: 1-1000")
        if not 1 <= self.max_turns <= 100:
            raise ValueError(f"max_turns = {self.max_turns!r}; allowed: 1-100")

    @property
    def ruleset(self) -> str:
        return ID

    @property
    def n_players(self) -> int:
        return len(self.players)


PRESETS = {"steady": Policy(0), "bold": Policy(1)}


def _policy(value: Any, where: str) -> Policy:
    if isinstance(value, Policy):
        return value
    if isinstance(value, dict):  # a table of fields from a preset, as `shamble tune` writes one
        data = dict(value)
        base = _policy(data.pop("preset", "steady"), where)
        if set(data) - {"bold"}:
            raise ValueError(f"{where}: policy fields {sorted(data)}; allowed: bold")
        return replace(base, **data)
    if value not in PRESETS:
        raise ValueError(f"{where}: policy = {value!r}; allowed: {', '.join(PRESETS)}")
    return PRESETS[value]


def _parse(config: Config, params, source: str) -> dict:
    known = {f.name for f in fields(Config)} - {"players"}
    for name in params:
        if name not in known:
            raise ValueError(f"{source}: unknown parameter {name!r}; allowed: {', '.join(sorted(known))}")
    changed = replace(config, **params)
    return {name: getattr(changed, name) for name in params}


# ---------------------------------------------------------------------------- the ruleset


class TokenRace(RulesetDefaults):
    """The members of the protocol; `RulesetDefaults` supplies head, violations, mods..."""

    id = ID
    title = "Token Race"
    description = "A test-tree game: tokens race along a track on D6 rolls."
    spec = "tests/proof_ruleset.py"
    win_word = "finish"
    end_reasons = REASONS
    play_columns = ("position",)
    kernels_package = ""  # its kernel is in this file, not under kernels/
    columns_doc = Path(__file__)  # its result columns: the module docstring
    play_batch = staticmethod(play_batch)

    def parameters(self):
        return [Parameter(f.name, f.default, f.metadata["tag"], f.metadata["spec"],
                          plausible=(10, 30) if f.name == "track_length" else None)
                for f in fields(Config) if f.name != "players"]

    def config_from_dict(self, data: dict, source: str, base_dir: Path | None):
        players = tuple(Player(p["name"], _policy(p.get("policy", "steady"), source)) for p in data["players"])
        return Config(players, **data.get("params", {}))

    def parse_params(self, config, params, source="params"):
        return _parse(config, dict(params), source)

    def policy_presets(self):
        return dict(PRESETS)

    def policy_help(self):
        return {"bold": "1: re-roll a 1 once"}

    def policy_from(self, value, where):
        return _policy(value, where)

    def example_config(self, n_players=None):
        return Config(tuple(Player(f"P{k + 1}") for k in range(n_players or 2)))

    def compile(self, config):
        prm = np.array([config.track_length, config.max_turns, int(config.sixes_again)], np.int64)
        return Tables(prm, np.array([p.policy.bold for p in config.players], np.int64))

    def new_state(self, config, tables, n_games, trace_events=0):
        n, p = n_games, config.n_players
        return GameState(
            np.zeros((n, p), np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int32))

    def results(self, config, state, first_game, dice):
        n = 0 if state is None else state.winner.shape[0]
        winner = np.zeros(0, np.int64) if state is None else state.winner
        names = np.array([p.name for p in config.players], dtype=object)
        won = winner[:, None] == np.arange(config.n_players)[None, :]
        cols = common_frame(ID, names, first_game, n, won, np.where(winner >= 0, names[np.maximum(winner, 0)], ""),
                            np.where(winner >= 0, "finish", "timeout"), np.zeros(0, np.int64) if state is None
                            else state.turns, np.asarray(dice)[:n])
        cols["position"] = np.zeros(0) if state is None else state.position.ravel()
        return pd.DataFrame(cols)

    def events(self, state):
        return state.position[:1].copy()

    def trace(self, config, events, result, out_dir):
        return [f"positions {events.tolist()}", f"winner {result.game_winner.iloc[0] or 'nobody'}"], []

    def axes(self):
        return {"track": AxisKind("track", lambda v, base, d, p: int(v), lambda c, v, p: replace(c, track_length=v),
                                  str, numeric=True, default_range=(6, 40))}

    def report_sections(self, scale=1.0):
        base = self.example_config(2)
        return [ReportSection("track", "Track length", "Longer tracks, more timeouts.", base,
                              max(10, round(200 * scale)), {"track": [10, 30]}, ("outcomes", "by_value"),
                              {"axis": "track", "value_label": "track"}, seed=5)]

    def bench_configs(self):
        return {"two_players": self.example_config(2)}


RULESET = TokenRace()
