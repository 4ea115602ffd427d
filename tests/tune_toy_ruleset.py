"""A ruleset of the test tree whose best policy is known exactly, for ``shamble tune``: Safecracker.

Each player of a crew cracks a safe alone. A player opens his safe with probability

    p = OPEN[stance] - 0.05 |aim - 7| - 0.3 |grip - 0.3|     (clipped to 0.01 .. 0.99)

with OPEN = {"careful": 0.5, "steady": 0.8, "reckless": 0.6}: three policy fields, an integer
(``aim``, 0-10), a choice (``stance``) and a number (``grip``, 0-1). The best policy is exactly
aim = 7, stance = "steady", grip = 0.3 (p = 0.8); the default (aim 2, careful, grip 0.9) opens
with p = 0.07. A player ``won`` when he opens his safe; ``game_winner`` is "crew" when every
player opened his (a cooperative win), else "". Players may carry a ``team``.

Game ``g`` of ``seed`` draws one uniform per player (`uniforms`, a hash of the game's stream)
and player k opens when it is below his p: two policies are compared on the same uniforms (common
random numbers), so on any games a policy with a larger p opens every safe a smaller one opens.
The kernel is plain numpy; game g depends only on (seed, g).

``aim`` and ``stance`` carry their range and choices in field metadata (as Zombies!!!'s policy
does); ``grip`` is checked only in ``__post_init__`` (as Zombie 40,000's are), so the search
must find its range by probing.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from kernels.rng import new_streams
from sim.ruleset import Parameter, common_frame, head_of

ID = "safecracker"
OPEN = {"careful": 0.5, "steady": 0.8, "reckless": 0.6}
BEST = {"aim": 7, "stance": "steady", "grip": 0.3}
REASONS = ("opened", "failed")


class ToyError(ValueError):
    """A bad Safecracker config: one line."""


@dataclass(frozen=True)
class Policy:
    aim: int = field(default=2, metadata={"range": (0, 10)})
    stance: str = field(default="careful", metadata={"choices": tuple(OPEN)})
    grip: float = 0.9

    def __post_init__(self) -> None:
        if not isinstance(self.aim, int) or isinstance(self.aim, bool) or not 0 <= self.aim <= 10:
            raise ToyError(f"policy: aim = {self.aim!r}; allowed: an integer 0-10")
        if self.stance not in OPEN:
            raise ToyError(f"policy: stance = {self.stance!r}; allowed: {', '.join(OPEN)}")
        if not isinstance(self.grip, int | float) or isinstance(self.grip, bool) or not 0 <= self.grip <= 1:
            raise ToyError(f"policy: grip = {self.grip!r}; allowed: a number 0-1")

    @property
    def p_open(self) -> float:
        """The chance to open the safe (module docstring)."""
        p = OPEN[self.stance] - 0.05 * abs(self.aim - 7) - 0.3 * abs(self.grip - 0.3)
        return float(min(max(p, 0.01), 0.99))


PRESETS = {"default": Policy(), "sure": Policy(aim=6, stance="steady", grip=0.5)}
HELP = {"aim": "an integer 0-10 (best 7)", "stance": "careful, steady or reckless (best steady)",
        "grip": "a number 0-1 (best 0.3)"}


def policy_from(value: Any, where: str) -> Policy:
    if isinstance(value, Policy):
        return value
    if isinstance(value, str):
        if value not in PRESETS:
            raise ToyError(f"{where}: policy = {value!r}; allowed: {', '.join(PRESETS)} or a table")
        return PRESETS[value]
    if isinstance(value, dict):
        data = dict(value)
        base = policy_from(data.pop("preset", "default"), where)
        unknown = sorted(set(data) - {f.name for f in fields(Policy)})
        if unknown:
            raise ToyError(f"{where}: unknown policy field {unknown[0]!r}; allowed: aim, stance, grip")
        if isinstance(data.get("grip"), int) and not isinstance(data["grip"], bool):
            data["grip"] = float(data["grip"])
        try:
            return replace(base, **data)
        except ToyError as err:
            raise ToyError(f"{where}: {err}") from None
    raise ToyError(f"{where}: policy = {value!r}; allowed: a preset name or a table")


@dataclass(frozen=True)
class Player:
    name: str
    team: str = ""
    policy: Policy = field(default_factory=Policy)


@dataclass(frozen=True)
class Config:
    players: tuple[Player, ...]

    @property
    def ruleset(self) -> str:
        return ID


class GameState(NamedTuple):
    opened: np.ndarray  # bool[n, P] player p opened his safe in game g


class Tables(NamedTuple):
    p_open: np.ndarray  # float64[P] each player's chance to open


def uniforms(streams: np.ndarray, n_players: int) -> np.ndarray:
    """float64[n, P]: player p's uniform in each game, a splitmix64 hash of the game's stream
    (``kernels.rng.new_streams``: a function of (seed, game) only) and the seat."""
    with np.errstate(over="ignore"):
        z = streams[:, None] + np.uint64(0x9E3779B97F4A7C15) * (np.arange(n_players, dtype=np.uint64) + 1)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(11)).astype(np.float64) * 2.0**-53


def play_batch(st, tb, seed, first_game, check, rng):
    """Plain numpy: one uniform per player and game (module docstring)."""
    rng[:] = new_streams(int(seed), rng.shape[0], int(first_game))
    st.opened[:] = uniforms(rng, tb.p_open.size) < tb.p_open[None, :]


class Safecracker:
    id = ID
    title = "Safecracker"
    description = "A test-tree game whose best policy is known: each player opens a safe with a chance his policy sets."
    spec = "tests/tune_toy_ruleset.py"
    win_word = "open"
    end_reasons = REASONS
    play_columns = ()
    kernels_package = ""

    def __init__(self) -> None:
        self.play_batch = play_batch

    def parameters(self):
        return [Parameter("players", 1, "V", "§1")]

    def config_from_dict(self, data: dict, source: str, base_dir: Path | None):
        rows = data.get("players")
        if not isinstance(rows, list) or not rows:
            raise ToyError(f"{source}: players must be a list of [[players]] tables")
        return Config(tuple(Player(r["name"], r.get("team", ""), policy_from(r.get("policy", "default"),
                                                                             f"{source}: players[{k}]"))
                            for k, r in enumerate(rows)))

    def parse_params(self, config, params, source="params"):
        if params:
            raise ToyError(f"{source}: Safecracker has no parameters")
        return {}

    def with_mods(self, config, mods):
        if mods:
            raise ToyError("Safecracker has no mods")
        return config

    def mods(self):
        return {}

    def policy_presets(self):
        return dict(PRESETS)

    def policy_help(self):
        return dict(HELP)

    def policy_from(self, value, where):
        return policy_from(value, where)

    def example_config(self, n_players=None):
        return Config(tuple(Player(f"P{k + 1}") for k in range(n_players or 1)))

    def compile(self, config):
        return Tables(np.array([p.policy.p_open for p in config.players], np.float64))

    def new_state(self, config, tables, n_games, trace_events=0):
        return GameState(np.zeros((n_games, len(config.players)), bool))

    def head(self, state, count):
        return head_of(state, count, GameState._fields)

    def violations(self, state):
        return 0

    def results(self, config, state, first_game, dice):
        n_p = len(config.players)
        opened = np.zeros((0, n_p), bool) if state is None else state.opened
        n = opened.shape[0]
        crew = opened.all(axis=1)
        cols = common_frame(ID, [p.name for p in config.players], first_game, n, opened,
                            np.where(crew, "crew", ""), np.where(crew, "opened", "failed"),
                            np.ones(n, np.int64), np.asarray(dice)[:n])
        cols["team"] = np.tile(np.array([p.team for p in config.players], dtype=object), n)
        return pd.DataFrame(cols)

    def events(self, state):
        return state.opened[:1].copy()

    def trace(self, config, events, result, out_dir):
        return [f"opened {events.tolist()}"], []

    def axes(self):
        return {}

    def report_sections(self, scale=1.0):
        return []

    def bench_configs(self):
        return {}

    def cli(self):
        return None


RULESET = Safecracker()
