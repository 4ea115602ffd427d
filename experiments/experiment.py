"""Experiments: a base game crossed with axes of variation into cells (design.md decision 7).

An experiment is a base config (of any ruleset: ``sim.ruleset``), a number of games per cell,
one seed and a list of axes. Each axis is a list of values; the cells are the cross product of
the axes, in the order the file lists them. The axes every ruleset has (the keys of ``[axes]``
in an experiment file)::

    players = [2, 4, 6]                     # player count: the players of the ruleset's example config
    horde_size = [4, 5, 6]                  # any parameter of the ruleset (see `shamble params`)
    params = [{}, {horde_size = 3}, {mods = ["t_virus"], tvirus_t = 5}]  # parameter sets, one at a time
    [axes.policy]                           # per player (name or 0-based index): presets or policy tables
    Marines = ["dash", "advance"]

and each ruleset adds its own (``Ruleset.axes``: Zombie 40,000's ``budget``, ``mods``,
``powerups_removed`` and per-player ``team``).

**Common random numbers.** Every cell plays games ``0 .. games-1`` of the *same* seed, and game
``i`` depends only on ``(seed, i)``: game 17 of the T-Virus cell starts from the same dice
stream as game 17 of the base cell, so two cells are compared game by game (a paired
comparison). The cell key is deliberately *not* mixed into the seed.

Each cell has a stable key: a short readable label and a hash of everything that decides its
games (its config, the seed and its number of games), e.g. ``budget=50,mods=t_virus-3f9a0c12d4``.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import re
from dataclasses import asdict, dataclass, fields, is_dataclass, replace
from difflib import get_close_matches
from pathlib import Path
from typing import Any

from sim.files import read_toml
from sim.ruleset import AxisKind, Ruleset, load_config, rules_version, ruleset_of

PARAM_ORDER = 4.5  # a single parameter's axis is applied after the parameter sets (4)


class ExperimentError(ValueError):
    """A bad experiment file or axis; one line naming the file and the axis."""


@dataclass(frozen=True)
class Axis:
    """One axis of an experiment: a name, the values it takes and a short label for each.

    ``kind`` says what the axis changes: ``players``, ``policy``, ``params``, ``param`` (one
    parameter, the axis name) or a ruleset's own axis; ``target`` is the player index of a
    per-player axis, else -1.
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

    def column_value(self, label: str) -> Any:
        """The value of the results' ``axis_<name>`` column for a label: a number on an axis of
        numbers (budget, a numeric parameter), else the label."""
        numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in self.values)
        if not numbers:
            return label
        value = self.values[self.labels.index(label)]
        return int(value) if all(isinstance(v, int) for v in self.values) else float(value)


@dataclass(frozen=True)
class Cell:
    """One cell of an experiment: its axis labels, its game config and its stable key."""

    coords: tuple[tuple[str, str], ...]  # (axis name, value label) in axis order
    config: Any
    key: str

    @property
    def label(self) -> str:
        return ",".join(f"{a}={v}" for a, v in self.coords) or "base"


@dataclass(frozen=True)
class Experiment:
    """A base game, games per cell, one seed (shared by every cell: CRN) and the axes."""

    name: str
    base: Any
    games: int = 1000
    seed: int = 1
    axes: tuple[Axis, ...] = ()
    description: str = ""
    target_halfwidth: float | None = None  # sequential sampling: games is then the cap per cell
    # with target_halfwidth (`experiments.sequential`): (cell label, its reference cell's label) of each
    # cell whose question is its paired difference from the reference; the outcomes the rule reads
    pairs: tuple[tuple[str, str], ...] = ()
    outcome: str = "seats"

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
        object.__setattr__(self, "pairs", tuple((str(a), str(b)) for a, b in self.pairs))
        kind = self.outcome.partition("=")[0]
        if kind not in ("seats", "anyone", "player", "reason"):
            raise ExperimentError(f"{self.name}: outcome {self.outcome!r}; allowed: seats, anyone, player=K, reason=R")

    @property
    def rule(self) -> str:
        """What the sequential rule compares, beyond the target (`experiments.sequential`): "" for the
        plain rule (every seat's Wilson half-width), so the keys of such experiments stay as they were."""
        if self.target_halfwidth is None or (not self.pairs and self.outcome == "seats"):
            return ""
        return json.dumps([self.outcome, sorted(self.pairs)])

    @property
    def ruleset(self) -> Ruleset:
        return ruleset_of(self.base)

    def cells(self) -> list[Cell]:
        """The cross product of the axes (the first axis varies slowest); one cell without axes."""
        return list(self._cells)

    @functools.cached_property
    def _cells(self) -> tuple[Cell, ...]:
        """Made once per experiment (a report asks for them a dozen times; building an Apocalypse
        cell builds its armies): the experiment is frozen, so its cells do not change."""
        return tuple(self._cell(combo) for combo in itertools.product(*(range(len(a.values)) for a in self.axes)))

    def _cell(self, combo: tuple[int, ...]) -> Cell:
        kinds = axis_kinds(self.ruleset)
        chosen = sorted(zip(self.axes, combo), key=lambda ac: kinds[ac[0].kind].order if ac[0].kind in kinds
                        else PARAM_ORDER)
        config = self.base
        for axis, k in chosen:
            try:
                config = apply_axis(config, axis, axis.values[k])
            except ValueError as err:
                raise ExperimentError(f"{self.name}: axes.{axis.name} = {axis.labels[k]}: {err}") from None
        coords = tuple((a.name, a.labels[k]) for a, k in zip(self.axes, combo))
        return Cell(coords, config, cell_key(coords, config, self.seed, self.games, self.target_halfwidth, self.rule))

    def resized(self, games: int | None = None, target_halfwidth: float | None = None) -> Experiment:
        """The experiment with another number of games per cell (the cap, with a target half-width)."""
        return replace(self, games=games or self.games, target_halfwidth=target_halfwidth or self.target_halfwidth)

    def fingerprint(self) -> str:
        """Hash of everything that decides the results: seed, games and every cell's config."""
        text = json.dumps([self.seed, self.games, self.target_halfwidth, [c.key for c in self.cells()]]
                          + ([self.rule] if self.rule else []))
        return hashlib.blake2b(text.encode(), digest_size=10).hexdigest()


# ---------------------------------------------------------------------------- keys


def config_fingerprint(config: Any) -> str:
    """A stable hash of a game config (fields declared ``compare=False``, such as team file paths,
    excluded: only what plays counts)."""
    return hashlib.blake2b(canonical_config(config).encode(), digest_size=8).hexdigest()


def canonical_config(config: Any) -> str:
    """A config as canonical JSON text (``_plain``: only the fields that decide its games), the
    text every key and fingerprint of a config hashes."""
    return json.dumps(_plain(config), sort_keys=True, separators=(",", ":"))


def _plain(value: Any) -> Any:
    """A config as plain data, of the fields that decide its games: a dataclass field declared
    ``field(compare=False)`` takes no part in its value (where it was read from: Zombie 40,000's
    ``Team.source``, Apocalypse's ``Army.source``), so the same games keep one key wherever read."""
    if is_dataclass(value):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value) if f.compare}
    if isinstance(value, frozenset | set):
        return sorted(_plain(v) for v in value)
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def cell_key(coords, config: Any, seed: int, games: int, target: float | None = None, rule: str = "") -> str:
    """``<label>-<hash>``: the label is readable (``axis=value`` for each axis, joined by commas:
    ``budget=50,policy.Marines=dash``; file-name safe, at most 80 characters), the hash covers
    the config, seed and games and the version of the rules that play it (``rules_version``: an
    edited kernel or rule file gives new keys), so the key names exactly one set of results."""
    label = ",".join(f"{a}={v}" for a, v in coords) or "base"
    label = re.sub(r"[^A-Za-z0-9_.,=+-]", "_", label)[:80]
    text = f"{canonical_config(config)}|{seed}|{games}|{target}|{rules_version(config.ruleset)}"
    text += f"|{rule}" if rule else ""  # a paired or outcome rule (`Experiment.rule`)
    digest = hashlib.blake2b(text.encode(), digest_size=5).hexdigest()
    return f"{label}-{digest}"


# ---------------------------------------------------------------------------- axis kinds


def _players_parse(rs: Ruleset):
    def parse(value: Any, base: Any, base_dir: Path, p: int) -> tuple:
        if isinstance(value, str) and value.endswith(".toml"):
            return load_config(base_dir / value).players
        if isinstance(value, int) and not isinstance(value, bool):
            return rs.example_config(value).players
        raise ValueError(f"{value!r}; allowed: a player count (of the ruleset's example configs) or a config "
                         "file (.toml) whose players to use")

    return parse


def _with_player(config: Any, p: int, **change) -> Any:
    players = list(config.players)
    players[p] = replace(players[p], **change)
    return replace(config, players=tuple(players))


def _stem(value: Any) -> str:
    return Path(value).stem if isinstance(value, str) else str(value)


def _params_label(value: Any) -> str:
    if not isinstance(value, dict):
        return str(value)
    return ";".join(f"{k}={'+'.join(v) if k == 'mods' else v}" for k, v in value.items()) or "base"


def _policy_label(value: Any) -> str:
    return ";".join(f"{k}:{v}" for k, v in value.items()) if isinstance(value, dict) else str(value)


def axis_kinds(rs: Ruleset) -> dict[str, AxisKind]:
    """Every axis kind of an experiment on ``rs``: the shared ones and the ruleset's own."""
    shared = {
        "players": AxisKind("players", _players_parse(rs), lambda c, players, p: replace(c, players=players), _stem,
                            "player count (the ruleset's example config) or a config file", order=0),
        "policy": AxisKind("policy", lambda v, base, d, p: rs.policy_from(v, "policy"),
                           lambda c, policy, p: _with_player(c, p, policy=policy), _policy_label,
                           "policy presets or tables, per player", per_player=True, order=2),
        "params": AxisKind("params", lambda v, base, d, p: rs.parse_params(base, v, "value"),
                           lambda c, params, p: replace(c, **params), _params_label,
                           "parameter sets, one at a time ({} = the base)", order=4),
    }
    return shared | rs.axes()


def apply_axis(config: Any, axis: Axis, value: Any) -> Any:
    """The config with one axis value applied (values are already parsed by ``parse_axis``)."""
    kinds = axis_kinds(ruleset_of(config))
    if axis.kind in kinds:
        return kinds[axis.kind].apply(config, value, axis.target)
    return replace(config, **{axis.name: value})


# ---------------------------------------------------------------------------- parsing


def parse_axis(name: str, values: Any, base: Any, base_dir: Path, target: str | None = None) -> Axis:
    """An Axis from a TOML value list; errors are ExperimentErrors naming the axis."""
    where = f"axes.{name}" if target is None else f"axes.{name}.{target}"
    if not isinstance(values, list) or not values:
        raise ExperimentError(f"{where}: must be a non-empty list of values")
    rs = ruleset_of(base)
    kinds = axis_kinds(rs)
    kind = kinds.get(name)
    if kind is None:
        _check_param(rs, name, kinds)
    p = -1 if target is None else _player_index(target, base, where)
    try:
        if kind is None:
            parsed = [rs.parse_params(base, {name: v}, "value")[name] for v in values]
        else:
            parsed = [kind.parse(v, base, base_dir, p) for v in values]
    except ValueError as err:
        raise ExperimentError(f"{where}: {err}") from None
    labels = tuple(kind.label(v) if kind is not None else str(v) for v in values)
    axis_name = name if target is None else f"{name}.{base.players[p].name}"  # the file's key: axes.policy.Marines
    return Axis(axis_name, name if kind is not None else "param", tuple(parsed), labels, p)


def _check_param(rs: Ruleset, name: str, kinds: dict) -> None:
    known = [p.name for p in rs.parameters() if p.name not in ("mods", "geometry")]
    if name not in known:
        close = get_close_matches(name, known + list(kinds), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ExperimentError(f"axes: unknown axis {name!r}{hint}; allowed: {', '.join(kinds)} or a parameter "
                              f"of `shamble params --ruleset {rs.id}`")


def _player_index(target: str, base: Any, where: str) -> int:
    names = [p.name for p in base.players]
    if str(target).isdigit() and int(target) < len(names):
        return int(target)
    if target in names:
        return names.index(target)
    raise ExperimentError(f"{where}: no player {target!r}; allowed: {', '.join(names)} or 0-{len(names) - 1}")


# ---------------------------------------------------------------------------- files


EXPERIMENT_FIELDS = ("name", "description", "base", "games", "seed", "axes")


def load_experiment(path: str | Path) -> Experiment:
    """Read an experiment file (TOML); every error is one ExperimentError line naming the file."""
    path = Path(path)
    data = read_toml(path, "experiment", ExperimentError)
    try:
        return experiment_from_dict(data, path.parent, path.stem)
    except ValueError as err:
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
    return Experiment(str(data.get("name", default_name)), base, data.get("games", 1000), data.get("seed", 1),
                      tuple(parse_axes(raw_axes, base, base_dir)), str(data.get("description", "")))


def parse_axes(raw_axes: dict, base: Any, base_dir: Path) -> list[Axis]:
    """The axes of an ``[axes]`` table (an experiment file's, or a report section's)."""
    return [axis for name, values in raw_axes.items() for axis in _axes_of(name, values, base, base_dir)]


def _axes_of(name: str, values: Any, base: Any, base_dir: Path) -> list[Axis]:
    kind = axis_kinds(ruleset_of(base)).get(name)
    if kind is not None and kind.per_player:
        if not isinstance(values, dict) or not values:
            raise ExperimentError(f"axes.{name}: must be a table of player = [values] ([axes.{name}])")
        return [parse_axis(name, v, base, base_dir, target=str(k)) for k, v in values.items()]
    return [parse_axis(name, values, base, base_dir)]


def experiment_summary(exp: Experiment) -> dict:
    """A JSON-able description of an experiment (stored in meta.json)."""
    return {
        "name": exp.name, "description": exp.description, "games": exp.games, "seed": exp.seed,
        "target_halfwidth": exp.target_halfwidth, **({"pairs": dict(exp.pairs), "outcome": exp.outcome} if exp.rule
                                                     else {}),
        "axes": {a.name: list(a.labels) for a in exp.axes}, "base": json.loads(canonical_config(exp.base)),
        "ruleset": ruleset_of(exp.base).id,
        "base_players": [_player_summary(p) for p in exp.base.players],
    }


def _player_summary(player: Any) -> dict:
    """A player's name, policy fields and, where the ruleset has them, its team's name."""
    out = asdict(player.policy) if is_dataclass(player.policy) else {"policy": str(player.policy)}
    out["name"] = player.name
    if hasattr(player, "team"):
        out["team"] = getattr(player.team, "name", str(player.team))
    return out
