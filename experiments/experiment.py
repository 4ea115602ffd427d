"""Experiments: a base game crossed with axes of variation into cells (design.md decision 7).

An experiment is a base ``GameConfig``, a number of games per cell, one seed and a list of
axes. Each axis is a list of values; the cells are the cross product of the axes, in the order
the file lists them. Axes (the keys of ``[axes]`` in an experiment file)::

    budget = [50, 75, 100]                  # points budget: every team refitted (sim.rulesets.zombie40k.teams.fit_team)
    mods = [[], ["t_virus"], ["hardcore"]]  # mod sets (zombie40k §10); [] is the base game
    powerups_removed = ["none", 7, "chuck_norris"]  # one Power-Up result taken off the table
    players = [2, 4, 6]                     # player count: the players of examples/configs/<n>_players.toml
    horde_size = [4, 5, 6]                  # any GameConfig parameter (see `shamble params`)
    params = [{}, {horde_size = 3}, {mods = ["t_virus"], tvirus_t = 5}]  # parameter sets, one at a time
    [axes.team]                             # per player (name or 0-based index): team files or names
    Guard = ["guard", "tau", "../teams/necrons.toml"]
    [axes.policy]                           # per player: preset names or policy tables
    Marines = ["dash", "advance"]

**Common random numbers.** Every cell plays games ``0 .. games-1`` of the *same* seed, and game
``i`` depends only on ``(seed, i)``: game 17 of the T-Virus cell sees the same dice stream as
game 17 of the base cell, so two cells are compared game by game (a paired comparison, far
tighter than two independent samples). The cell key is deliberately *not* mixed into the seed.

Each cell has a stable key: a short readable label and a hash of everything that decides its
games (its config, the seed and its number of games), e.g. ``budget=50,mods=t_virus-3f9a0c12d4``.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from dataclasses import asdict, dataclass, fields, is_dataclass, replace
from difflib import get_close_matches
from pathlib import Path
from typing import Any

from sim.play import POWERUP_NAMES
from sim.rulesets.zombie40k.config import (
    MODS,
    ConfigError,
    GameConfig,
    PlayerConfig,
    load_config,
    make_config,
    policy_from,
)
from sim.rulesets.zombie40k.teams import Team, TeamError, fit_team, load_team, read_toml

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"
PLAYER_COUNT_CONFIGS = {2: "two_players", 4: "four_players", 6: "six_players"}
SPECIAL_AXES = ("players", "team", "policy", "budget", "params", "mods", "powerups_removed")
AXIS_ORDER = {name: k for k, name in enumerate(SPECIAL_AXES)}  # params come after team/policy/budget
NO_REMOVAL = "none"


class ExperimentError(ConfigError):
    """A bad experiment file or axis; one line naming the file and the axis."""


@dataclass(frozen=True)
class Axis:
    """One axis of an experiment: a name, the values it takes and a short label for each.

    ``kind`` says what the axis changes: one of SPECIAL_AXES or ``param``; ``target`` is the
    player index of a ``team``/``policy`` axis, else -1.
    """

    name: str
    kind: str
    values: tuple
    labels: tuple[str, ...]
    target: int = -1

    def __post_init__(self) -> None:
        if not self.values:
            raise ExperimentError(f"axes.{self.name}: needs at least one value")
        if len(set(self.labels)) != len(self.labels):
            raise ExperimentError(f"axes.{self.name}: a value is listed twice")


@dataclass(frozen=True)
class Cell:
    """One cell of an experiment: its axis labels, its game config and its stable key."""

    coords: tuple[tuple[str, str], ...]  # (axis name, value label) in axis order
    config: GameConfig
    key: str

    @property
    def label(self) -> str:
        return ",".join(f"{a}={v}" for a, v in self.coords) or "base"


@dataclass(frozen=True)
class Experiment:
    """A base game, games per cell, one seed (shared by every cell: CRN) and the axes."""

    name: str
    base: GameConfig
    games: int = 1000
    seed: int = 1
    axes: tuple[Axis, ...] = ()
    description: str = ""
    target_halfwidth: float | None = None  # sequential sampling: games is then the cap per cell

    def __post_init__(self) -> None:
        object.__setattr__(self, "axes", tuple(self.axes))
        if not isinstance(self.games, int) or isinstance(self.games, bool) or self.games < 1:
            raise ExperimentError(f"{self.name}: games = {self.games!r}; allowed: an integer 1 or more")
        if not isinstance(self.seed, int) or isinstance(self.seed, bool) or not 0 <= self.seed < 2**63:
            raise ExperimentError(f"{self.name}: seed = {self.seed!r}; allowed: an integer 0 <= seed < 2**63")
        names = [a.name for a in self.axes]
        if len(set(names)) != len(names):
            raise ExperimentError(f"{self.name}: axis {names[0]!r} is given twice")
        target = self.target_halfwidth
        if target is not None and not (isinstance(target, int | float) and 0 < target < 0.5):
            raise ExperimentError(f"{self.name}: target half-width {target!r}; allowed: a number above 0, below 0.5")

    def cells(self) -> list[Cell]:
        """The cross product of the axes (the first axis varies slowest); one cell without axes."""
        return [self._cell(combo) for combo in itertools.product(*(range(len(a.values)) for a in self.axes))]

    def _cell(self, combo: tuple[int, ...]) -> Cell:
        chosen = sorted(zip(self.axes, combo), key=lambda ac: AXIS_ORDER.get(ac[0].kind, len(AXIS_ORDER) - 2.5))
        config = self.base
        for axis, k in chosen:
            try:
                config = apply_axis(config, axis, axis.values[k])
            except ConfigError as err:
                raise ExperimentError(f"{self.name}: axes.{axis.name} = {axis.labels[k]}: {err}") from None
        coords = tuple((a.name, a.labels[k]) for a, k in zip(self.axes, combo))
        return Cell(coords, config, cell_key(coords, config, self.seed, self.games, self.target_halfwidth))

    def resized(self, games: int | None = None, target_halfwidth: float | None = None) -> Experiment:
        """The experiment with another number of games per cell (the cap, with a target half-width)."""
        return replace(self, games=games or self.games, target_halfwidth=target_halfwidth or self.target_halfwidth)

    def fingerprint(self) -> str:
        """Hash of everything that decides the results: seed, games and every cell's config."""
        text = json.dumps([self.seed, self.games, self.target_halfwidth, [c.key for c in self.cells()]])
        return hashlib.blake2b(text.encode(), digest_size=10).hexdigest()


# ---------------------------------------------------------------------------- keys


def config_fingerprint(config: GameConfig) -> str:
    """A stable hash of a game config (team file paths excluded: only what plays counts)."""
    return hashlib.blake2b(_canonical(config).encode(), digest_size=8).hexdigest()


def _canonical(config: GameConfig) -> str:
    return json.dumps(_plain(config), sort_keys=True, separators=(",", ":"))


def _plain(value: Any) -> Any:
    if is_dataclass(value):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value) if f.name != "source"}
    if isinstance(value, frozenset | set):
        return sorted(_plain(v) for v in value)
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def cell_key(coords, config: GameConfig, seed: int, games: int, target: float | None = None) -> str:
    """``<label>-<hash>``: the label is readable (``axis=value`` for one axis, the values joined by
    commas for several; file-name safe, at most 60 characters), the
    hash covers the config, seed and games, so the key names exactly one set of results."""
    label = ",".join(f"{a}={v}" for a, v in coords) if len(coords) == 1 else ",".join(v for _, v in coords)
    label = label or "base"
    label = re.sub(r"[^A-Za-z0-9_.,=+-]", "_", label)[:60]
    digest = hashlib.blake2b(f"{_canonical(config)}|{seed}|{games}|{target}".encode(), digest_size=5).hexdigest()
    return f"{label}-{digest}"


# ---------------------------------------------------------------------------- applying axes


def apply_axis(config: GameConfig, axis: Axis, value: Any) -> GameConfig:
    """The config with one axis value applied (values are already parsed by ``parse_axis``)."""
    if axis.kind == "players":
        return replace(config, players=value)
    if axis.kind == "team":
        return _replace_player(config, axis.target, team=value)
    if axis.kind == "policy":
        return _replace_player(config, axis.target, policy=value)
    if axis.kind == "budget":
        return with_budget(config, value)
    if axis.kind == "params":
        return replace(config, **value)
    if axis.kind == "mods":
        return replace(config, mods=value)
    if axis.kind == "powerups_removed":
        return replace(config, powerups_removed=value)
    return replace(config, **{axis.name: value})


def with_budget(config: GameConfig, budget: int) -> GameConfig:
    """Every player's team refitted to ``budget`` points, and the legality cap set to it."""
    try:
        players = tuple(replace(p, team=fit_team(p.team, budget)) for p in config.players)
    except TeamError as err:
        raise ConfigError(str(err)) from None
    return replace(config, players=players, team_budget=int(budget))


def _replace_player(config: GameConfig, p: int, **change) -> GameConfig:
    players = list(config.players)
    players[p] = replace(players[p], **change)
    return replace(config, players=tuple(players))


# ---------------------------------------------------------------------------- parsing


def parse_axis(name: str, values: Any, base: GameConfig, base_dir: Path, target: str | None = None) -> Axis:
    """An Axis from a TOML value list; errors are ExperimentErrors naming the axis."""
    where = f"axes.{name}" if target is None else f"axes.{name}.{target}"
    if not isinstance(values, list) or not values:
        raise ExperimentError(f"{where}: must be a non-empty list of values")
    kind = name if name in SPECIAL_AXES else "param"
    if kind == "param":
        _check_param(name)
    p = -1 if target is None else _player_index(target, base, where)
    try:
        parsed = [_parse_value(kind, name, v, base, base_dir, p) for v in values]
    except (ConfigError, TeamError) as err:
        raise ExperimentError(f"{where}: {err}") from None
    labels = tuple(_label(kind, v) for v in values)
    return Axis(name if target is None else f"{name}[{base.players[p].name}]", kind, tuple(parsed), labels, p)


def _check_param(name: str, what: str = "axis") -> None:
    known = [f.name for f in fields(GameConfig) if f.name not in ("players", "mods", "geometry")]
    if name not in known:
        choices = known + list(SPECIAL_AXES) if what == "axis" else known
        close = get_close_matches(name, choices, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        allowed = f"{', '.join(SPECIAL_AXES)} or a parameter" if what == "axis" else "a parameter"
        raise ExperimentError(f"axes: unknown {what} {name!r}{hint}; allowed: {allowed} of `shamble params`")


def _player_index(target: str, base: GameConfig, where: str) -> int:
    names = [p.name for p in base.players]
    if str(target).isdigit() and int(target) < len(names):
        return int(target)
    if target in names:
        return names.index(target)
    raise ExperimentError(f"{where}: no player {target!r}; allowed: {', '.join(names)} or 0-{len(names) - 1}")


def _parse_value(kind: str, name: str, value: Any, base: GameConfig, base_dir: Path, p: int) -> Any:
    if kind == "players":
        return _players_of(value, base_dir)
    if kind == "team":
        return load_team_ref(value, base_dir)
    if kind == "policy":
        return policy_from(value, "policy")
    if kind == "budget":
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 10_000:
            raise ConfigError(f"{value!r}; allowed: a points budget, an integer 1-10000")
        return value
    if kind == "params":
        return _param_set(value, base)
    if kind == "mods":
        return _mod_set(value)
    if kind == "powerups_removed":
        return _removed(value)
    return getattr(make_config(base.players, {name: value}, (), "value"), name)


def _players_of(value: Any, base_dir: Path) -> tuple[PlayerConfig, ...]:
    if isinstance(value, int) and not isinstance(value, bool) and value in PLAYER_COUNT_CONFIGS:
        return load_config(EXAMPLES / "configs" / f"{PLAYER_COUNT_CONFIGS[value]}.toml").players
    if isinstance(value, str) and value.endswith(".toml"):
        return load_config(base_dir / value).players
    counts = ", ".join(map(str, PLAYER_COUNT_CONFIGS))
    raise ConfigError(f"{value!r}; allowed: a player count ({counts}) or a config file (.toml) whose players to use")


def load_team_ref(value: Any, base_dir: Path) -> Team:
    """A team from a file path (relative to the experiment file) or an example team's name."""
    if not isinstance(value, str) or not value:
        raise ConfigError(f"{value!r}; allowed: a team file or an example team name")
    path = base_dir / value
    if not value.endswith(".toml"):
        path = EXAMPLES / "teams" / f"{value}.toml"
        if not path.exists():
            names = sorted(p.stem for p in (EXAMPLES / "teams").glob("*.toml"))
            raise ConfigError(f"no example team {value!r}; allowed: {', '.join(names)} or a .toml path")
    return load_team(path)


def _param_set(value: Any, base: GameConfig) -> dict:
    """Parameters set together (``mods`` may be one of them: the mods added to the base's)."""
    if not isinstance(value, dict):
        raise ConfigError(f"{value!r}; allowed: a table of parameters, e.g. {{horde_size = 3}} ({{}} = the base)")
    params = {k: v for k, v in value.items() if k != "mods"}
    for name in params:
        _check_param(name, "parameter")
    made = make_config(base.players, params, (), "value")
    mods = {"mods": base.mods | _mod_set(value["mods"])} if "mods" in value else {}
    return {name: getattr(made, name) for name in params} | mods


def _mod_set(value: Any) -> frozenset[str]:
    if not isinstance(value, list):
        raise ConfigError(f"{value!r}; allowed: a list of mod names, e.g. [] or [\"t_virus\"]")
    mods = frozenset(str(m).strip().lower().replace("-", "_").replace(" ", "_") for m in value)
    unknown = sorted(mods - set(MODS))
    if unknown:
        close = get_close_matches(unknown[0], MODS, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ConfigError(f"unknown mod {unknown[0]!r}{hint}; allowed: {', '.join(MODS)}")
    return mods


POWERUP_RESULTS = {name: r for r, name in POWERUP_NAMES.items()}


def _removed(value: Any) -> tuple[int, ...]:
    if value == NO_REMOVAL:
        return ()
    if isinstance(value, int) and not isinstance(value, bool) and value in POWERUP_NAMES:
        return (value,)
    if isinstance(value, str) and value in POWERUP_RESULTS:
        return (POWERUP_RESULTS[value],)
    raise ConfigError(f"{value!r}; allowed: \"none\", a Power-Up result 2-12 or a name "
                      f"({', '.join(POWERUP_RESULTS)})")


def _label(kind: str, value: Any) -> str:
    if kind == "mods":
        return "+".join(sorted(_mod_set(value))) or "base"
    if kind == "params":
        return ";".join(f"{k}={'+'.join(v) if k == 'mods' else v}" for k, v in value.items()) or "base"
    if kind == "powerups_removed" and not isinstance(value, str):
        return f"no_{POWERUP_NAMES[value]}"
    if kind == "powerups_removed":
        return value if value == NO_REMOVAL else f"no_{value}"
    if kind in ("team", "players") and isinstance(value, str):
        return Path(value).stem
    if isinstance(value, dict):
        return ";".join(f"{k}:{v}" for k, v in value.items())
    return str(value)


# ---------------------------------------------------------------------------- files


EXPERIMENT_FIELDS = ("name", "description", "base", "games", "seed", "axes")


def load_experiment(path: str | Path) -> Experiment:
    """Read an experiment file (TOML); every error is one ExperimentError line naming the file."""
    path = Path(path)
    data = read_toml(path, "experiment", ExperimentError)
    try:
        return experiment_from_dict(data, path.parent, path.stem)
    except ConfigError as err:
        raise ExperimentError(f"{path}: {err}") from None


def experiment_from_dict(data: dict, base_dir: Path, default_name: str = "experiment") -> Experiment:
    """An Experiment from parsed TOML; ``base`` (a config file) is read relative to ``base_dir``."""
    unknown = sorted(set(data) - set(EXPERIMENT_FIELDS))
    if unknown:
        raise ExperimentError(f"unknown field {unknown[0]!r}; allowed: {', '.join(EXPERIMENT_FIELDS)}")
    if not isinstance(data.get("base"), str):
        raise ExperimentError("field 'base' is missing: the game config file (TOML) the axes vary")
    base = load_config(base_dir / data["base"])
    raw_axes = data.get("axes", {})
    if not isinstance(raw_axes, dict):
        raise ExperimentError("field 'axes' must be a table of axis = [values]")
    axes = [axis for name, values in raw_axes.items() for axis in _axes_of(name, values, base, base_dir)]
    return Experiment(str(data.get("name", default_name)), base, data.get("games", 1000), data.get("seed", 1),
                      tuple(axes), str(data.get("description", "")))


def _axes_of(name: str, values: Any, base: GameConfig, base_dir: Path) -> list[Axis]:
    if name in ("team", "policy"):
        if not isinstance(values, dict) or not values:
            raise ExperimentError(f"axes.{name}: must be a table of player = [values] ([axes.{name}])")
        return [parse_axis(name, v, base, base_dir, target=str(k)) for k, v in values.items()]
    return [parse_axis(name, values, base, base_dir)]


def experiment_summary(exp: Experiment) -> dict:
    """A JSON-able description of an experiment (stored in meta.json)."""
    return {
        "name": exp.name, "description": exp.description, "games": exp.games, "seed": exp.seed,
        "target_halfwidth": exp.target_halfwidth,
        "axes": {a.name: list(a.labels) for a in exp.axes}, "base": json.loads(_canonical(exp.base)),
        "base_players": [asdict(p.policy) | {"name": p.name, "team": p.team.name} for p in exp.base.players],
    }
