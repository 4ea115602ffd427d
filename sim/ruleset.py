"""Rulesets behind one seam (design.md "Rulesets behind one seam"; pgx / OpenSpiel registries).

Shamble plays several rule systems on one engine of dice, batches, results, experiments and
report. Each rule system is a **ruleset**: a package ``sim/rulesets/<id>/`` whose module
``RULESET`` attribute implements the `Ruleset` protocol below, with its kernels in
``kernels/<id>/`` and its data in ``sim/data/<id>/``. The shared layers (``sim.play``, the
experiments, the report, the command line) call only this protocol, so a new ruleset adds files
and edits none of the shared ones (nor another ruleset's).

Rulesets are found by discovery: every sub-package of ``sim.rulesets`` that defines ``RULESET``;
a ruleset defined elsewhere (the test tree's proof ruleset) joins with `register`. A config names
its ruleset (``ruleset = "<id>"`` in a file, the ``ruleset`` attribute of the object); a file
without one is a Zombie 40,000 config, so every existing file keeps working.

What a ruleset supplies (docs/rulesets.md: the members it must write, the `Ruleset` protocol, with
their contracts; `RulesetDefaults` supplies the rest, `DEFAULTED`):

- **identity**: ``id``, ``title``, ``description`` (a paragraph for listings and the report),
  ``spec`` (the spec files it implements), ``win_word`` (its
  own word for a win in tables: "escape", "survive"...), ``end_reasons`` (the values of the
  ``reason`` column);
- **parameters**: `Parameter` records (name, default, [V]/[I]/[C] tag, spec section, range,
  choices, help), what ``shamble params`` lists, ``sensitivity`` varies and ``solve`` solves for;
- **configs**: read a parsed file (``config_from_dict``), read a table of parameter changes
  against a config (``parse_params``: the validated ``{field: value}`` for
  ``dataclasses.replace``; `with_params` applies them), its policy presets and mods, example
  configs by player count;
- **the game**: ``compile`` (config -> the tables its kernels read), ``new_state`` (a batch of
  ``n`` games), ``head`` (its first ``k`` games), ``play_batch`` (the kernel entry point:
  ``play_batch(state, tables, seed, first_game, check, rng)`` plays game ``first_game + g`` of
  ``seed`` in slot ``g`` and leaves ``rng[g]`` at the stream's last counter), ``violations``
  (invariant breaks found in checked mode), ``results`` (one tidy row per game x player:
  `COMMON_COLUMNS` first, then its own), ``trace`` (one game told and drawn);
- **experiments**: its own axes (`AxisKind`: Zombie 40,000's budget, mods and power-ups), its
  report sections (`ReportSection`), its bench configs and, optionally, ``bench_goals()``
  (bench config label -> the whole games per second on one thread it aims at; `bench_goals_of`);
- **commands**: an optional ``typer.Typer`` of ruleset-only commands (``shamble zombie40k mods``);
- **prices** (optional, `OPTIONAL_MEMBERS`): ``pricing()`` returns a `Pricing` (what a rebalance
  may price: Zombie 40,000's points per model of a team's main unit, or one cost multiplier per
  team; how prices reach a config; the game a rebalance plays by default), or None when the game
  has nothing to price. A ruleset without the member is one without prices (`pricing_of`), so
  the default is "nothing to price" and no ruleset needs to say it.

**Configs.** A ruleset's config is a frozen dataclass with a ``ruleset`` property (its id) and a
``players`` tuple of frozen dataclasses that have at least ``name`` and ``policy``; the shared
layers change it only through ``dataclasses.replace`` and the ruleset's own methods, and hash it
(cell keys) from its fields. A config file is TOML; the shared reader takes its ``ruleset`` key
and hands the rest to ``config_from_dict``. Errors are ``ValueError`` subclasses with one line
naming the file, the field and what is allowed.

**Report analyses** (``ReportSection.analyses``, in ``experiments.analyses``): ``"outcomes"``
(each cell's win rate per player with its interval, the end reasons, game length and the turn
of the win), ``"paired"`` (each cell minus the ``reference`` cell on the same games, per player,
Holm-corrected; ``worth = True`` reports reference minus cell, the value of what a cell
removes), ``"head_to_head"`` (one cell against another: ``pair``), ``"by_value"`` (win rate
against a numeric ``axis``), ``"matchups"`` (the row side's win rate against the column side,
seat-balanced, from two per-player ``axes``) and ``"sensitivity"`` (every [C] parameter at its
plausible low and high value, ``enable``-d as its Parameter says; no ``axes``). The options each
reads are documented in that module.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import importlib
import pkgutil
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np
import pandas as pd

DEFAULT_RULESET = "zombie40k"  # the ruleset of a config file that names none
COMMON_COLUMNS = ("ruleset", "game", "player", "name", "won", "game_winner", "reason", "turns", "dice")
"""Every ruleset's result frame starts with these columns, one row per (game, player):

ruleset (id), game (index in the run), player (seat index), name (the player's name), won (this
player won the game; several may, in a cooperative win), game_winner (the winner's name, a
ruleset's word for a shared win such as "all players", or "" for none), reason (how the game
ended: one of the ruleset's ``end_reasons``), turns (game turns played), dice (random draws the
game used)."""


class RulesetError(ValueError):
    """An unknown ruleset or a broken registration; the message is one line."""


# ---------------------------------------------------------------------------------- records


@dataclass(frozen=True)
class Parameter:
    """One rule parameter of a ruleset, as ``shamble params`` lists it.

    ``tag`` is the spec's confidence tag: "V" verified, "I" inferred, "C" chosen (a number the
    spec had to choose; ``sensitivity`` varies these), or the kind of a simulator setting
    ("policy", "mods", "data", "ablation", an ambiguity "A12"). ``range`` is (lowest, highest)
    for numbers, ``choices`` the allowed words (strings). ``plausible`` is the (low, high) pair
    ``sensitivity`` plays (None: the default x0.5 and x1.5 within ``range``). ``enable`` names
    what must be switched on for the parameter to matter: names in a set field (a mod:
    ``{"mods": ("t_virus",)}``), or a value of a number that is off at 0 (``{"terrain_density":
    (0.25,)}``).
    """

    name: str
    default: Any
    tag: str
    spec: str
    help: str = ""
    range: tuple[float, float] | None = None
    choices: tuple = ()
    plausible: tuple | None = None
    enable: Mapping[str, tuple] = field(default_factory=dict)
    meaning: Mapping[Any, str] = field(default_factory=dict)  # special values: {0: "automatic"}

    @property
    def is_integer(self) -> bool:
        return isinstance(self.default, int) and not isinstance(self.default, bool)

    @property
    def is_numeric(self) -> bool:
        return isinstance(self.default, int | float) and not isinstance(self.default, bool)


@dataclass(frozen=True)
class AxisKind:
    """An experiment axis a ruleset adds (the ``[axes]`` keys beyond parameters).

    ``parse(value, base, base_dir, player)`` turns one TOML value into what ``apply(config,
    parsed, player)`` sets; ``label(value)`` is the short text of the value in tables and cell
    keys. ``per_player`` axes are written ``[axes.<name>]`` with one list per player (name or
    index). Axes are applied in ``order`` (lower first; parameters come at 4, after players,
    teams, policies and budget). A ``numeric`` axis (a points budget) can be solved for, within
    ``default_range``; ``aliases`` are parameter names that mean this axis when solving
    (Zombie 40,000's ``team_budget`` refits the teams as ``budget`` does).
    """

    name: str
    parse: Callable[..., Any]
    apply: Callable[..., Any]
    label: Callable[[Any], str]
    help: str = ""
    per_player: bool = False
    order: float = 6.0
    numeric: bool = False
    default_range: tuple[float, float] | None = None
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class ReportSection:
    """One section of the balance report, as data (the experiments layer plays and analyses it).

    The experiment is ``base`` crossed with ``axes`` (an experiment file's ``[axes]`` table, read
    by the same parser) at ``games`` games per cell (already scaled). ``analyses`` name the
    analyses of ``experiments.analyses`` that turn the sweep into tables, charts and sentences, in
    order; ``options`` are their settings (the reference cell of a paired comparison, the words of
    a value axis, titles of the cells' labels...); ``notes`` are printed under the section.
    """

    key: str
    title: str
    intro: str
    base: Any
    games: int
    axes: Mapping[str, Any]
    analyses: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 2024
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Price:
    """One cost a rebalance may change (`Pricing.prices`).

    ``key`` names it in a patch (a unit, "Hormagaunt"; a team, "Tyranids"); ``value`` is its cost
    now, exact; ``step`` the smallest change the rule data can express (1 point per model; 1/5 of
    a point for a unit priced per block of 5; 1/100 for a multiplier); ``low`` and ``high`` bound
    it; ``sides`` are the sides (values of the pricing's ``side`` column) whose play it changes;
    ``what`` says what the number is ("points per model", "cost multiplier").
    """

    key: str
    value: Fraction
    step: Fraction
    low: Fraction
    high: Fraction
    sides: tuple[str, ...]
    what: str = "points per model"


@dataclass(frozen=True)
class Pricing:
    """What a ruleset lets ``shamble rebalance`` price, and how (the optional ``pricing`` member).

    ``modes`` maps each way of pricing to its help, the default first (Zombie 40,000:
    ``per-model``, ``multiplier``). ``prices(config, mode)`` lists the `Price` records of the
    config's sides; ``apply(config, mode, values)`` is the config playing ``values`` (``{key:
    Fraction}``; keys it does not list keep their cost), with every side refitted to its budget;
    ``game(config)`` is the game a rebalance plays by default on the config's rules, as a
    `ReportSection` (its ``options["side"]`` names the results column of a side, its base and
    axes the cells; its ``options`` may name ``search_games`` and ``search_budget``, the sizes of
    `shamble report --rebalance`'s search at scale 1, `experiments.rebalance_game.game_sizes`).
    ``describe(config, mode, key)`` is a short text of what a price buys in a
    config (``"Tyranids: 15 models"``), for tables; None when there is nothing to say.

    ``rate`` is the results column a side's rate counts: ``"won"`` (a win), or ``"column=word"``
    for a column of words (Zombie Apocalypse, cooperative: ``"warlord=alive"``, the player's
    Warlord alive at the end); ``rate_word`` names it in tables ("" = the ruleset's ``win_word``).
    """

    modes: Mapping[str, str]
    side: str
    prices: Callable[[Any, str], list[Price]]
    apply: Callable[[Any, str, Mapping[str, Fraction]], Any]
    game: Callable[[Any], ReportSection]
    describe: Callable[[Any, str, str], str | None] = lambda config, mode, side: None
    rate: str = "won"
    rate_word: str = ""


# ---------------------------------------------------------------------------------- the protocol


@runtime_checkable
class Ruleset(Protocol):
    """The members a ruleset must write (docs/rulesets.md has their contracts); `RulesetDefaults`
    supplies the rest (`DEFAULTED`), `OPTIONAL_MEMBERS` may be left out."""

    id: str
    title: str
    description: str  # a paragraph: what the game is, and what its report sections play
    spec: str
    win_word: str
    end_reasons: tuple[str, ...]

    # parameters and configs
    def parameters(self) -> list[Parameter]: ...
    def config_from_dict(self, data: dict, source: str, base_dir: Path | None) -> Any: ...
    def parse_params(self, config: Any, params: Mapping[str, Any], source: str = "params") -> dict: ...
    def policy_presets(self) -> dict[str, Any]: ...  # name -> a policy (a frozen dataclass)
    def policy_from(self, value: Any, where: str) -> Any: ...
    def example_config(self, n_players: int | None = None) -> Any: ...

    # the game
    def compile(self, config: Any) -> Any: ...
    def new_state(self, config: Any, tables: Any, n_games: int, trace_events: int = 0) -> Any: ...
    play_batch: Callable[..., Any]
    def results(self, config: Any, state: Any | None, first_game: int, dice: np.ndarray) -> pd.DataFrame: ...
    def trace(self, config: Any, events: np.ndarray, result: pd.DataFrame,
              out_dir: Path | None) -> tuple[list[str], list[Path]]: ...

    # the report
    def report_sections(self, scale: float) -> list[ReportSection]: ...


class RulesetDefaults:
    """The members every ruleset has and most write alike: subclass it and write only what differs
    (the defaults are the contracts of docs/rulesets.md).

    ``play_columns`` (its own columns ``shamble play`` shows per player, as means per game): none.
    ``kernels_package`` (its folder under ``kernels/``: the cache folder of its compiled code and
    the sources of ``rules_version``): the ruleset's id. ``per_game``: the fields of its state that
    hold one row per game (axis 0), the others being per-batch scratch; None, every field.
    ``players_are_people``: the report names its players bare ("Cat", not "the Cat"): False, its
    players are factions or teams.
    """

    play_columns: tuple[str, ...] = ()
    per_game: tuple[str, ...] | None = None
    players_are_people: bool = False

    @property
    def kernels_package(self) -> str:
        return self.id

    def head(self, state: Any, count: int) -> Any:
        """The first ``count`` games of a batch: views of the ``per_game`` fields (`head_of`)."""
        return head_of(state, count, state._fields if self.per_game is None else self.per_game)

    def violations(self, state: Any) -> int:
        """The invariant breaks checked mode found: the sum of the state's ``viol`` (per game)."""
        return int(state.viol.sum())

    def events(self, state: Any) -> np.ndarray:
        """The traced game's events: game 0's rows of ``state.events`` [traced games, E, columns],
        ``state.n_events[0]`` of them; no rows when the state records none (``trace_events=0``)."""
        if state.events.shape[0] == 0:
            return np.zeros((0, state.events.shape[-1]), state.events.dtype)
        return state.events[0, : state.n_events[0]].copy()

    def mods(self) -> dict[str, str]:
        """name -> title of its variants of the rules; none."""
        return {}

    def with_mods(self, config: Any, mods: Iterable[str]) -> Any:
        """``config`` with ``mods`` switched on; with no mods, any name is refused in one line."""
        mods = list(mods)
        if mods:
            raise RulesetError(f"mods {sorted(mods)}: {self.title} has no mods")
        return config

    def policy_help(self) -> dict[str, str]:
        """policy field -> what it means: the ``help`` metadata of the presets' dataclass fields."""
        policy = next(iter(self.policy_presets().values()))
        return {f.name: f.metadata.get("help", "") for f in dataclasses.fields(policy)}

    def axes(self) -> dict[str, AxisKind]:
        """Its own experiment axes; none (the shared ones: players, policy, params, every parameter)."""
        return {}

    def bench_configs(self) -> dict[str, Any]:
        """label -> config ``shamble bench`` times; the example config."""
        return {"example": self.example_config()}

    def cli(self) -> Any:
        """A ``typer.Typer`` of its own commands (``shamble <id> ...``); None."""
        return None

    def config_files(self) -> tuple:
        """What its config files accept, as ``sim.config_files.FileKind`` records (``shamble config-ref``);
        none documented."""
        return ()


DEFAULTED = ("play_columns", "kernels_package", "head", "violations", "events", "mods", "with_mods", "policy_help",
             "axes", "bench_configs", "cli")
"""The members `RulesetDefaults` supplies (a ruleset not subclassing it writes them; ``per_game`` is
a setting of the default ``head``, not a member the shared layers call)."""

OPTIONAL_MEMBERS = ("pricing", "bench_goals", "config_files", "players_are_people")
"""Members a ruleset may leave out; `pricing_of`, `bench_goals_of` and `players_are_people_of` read
them with their defaults: ``pricing()`` (a `Pricing`, what a rebalance may price; absent = "nothing
to price"), ``bench_goals()`` (bench label -> games/s aimed at; absent = {}), ``config_files()``
(what its config files accept, for ``shamble config-ref``; absent = none documented, as
`RulesetDefaults`) and ``players_are_people`` (the report names its players bare; absent = False,
as `RulesetDefaults`)."""


def players_are_people_of(ruleset: Ruleset) -> bool:
    """The optional ``players_are_people``: True where the players are people ("Cat"), so the
    report names them bare; False (factions and teams, "the Boyz") for a ruleset without it."""
    return bool(getattr(ruleset, "players_are_people", False))


def pricing_of(ruleset: Ruleset) -> Pricing | None:
    """The ruleset's `Pricing`, or None when it has nothing to price (no ``pricing`` member, or
    one that returns None)."""
    member = getattr(ruleset, "pricing", None)
    return member() if callable(member) else None


# ---------------------------------------------------------------------------------- the registry


_REGISTRY: dict[str, Ruleset] = {}
_DISCOVERED = False


@functools.cache
def rules_version(ruleset_id: str) -> str:
    """A hash of every file that decides a ruleset's games: its kernels and the kernels packages
    they import (``kernels.jit.source_hash``), its own ``sim/rulesets/<id>/`` and ``sim/data/<id>/``
    and those of the shared core its kernels use (``sim/w40k``, ``sim/data/w40k``). A sweep's cell
    key contains it, so a checkpoint played by other rules is never resumed as this version's."""
    from kernels.jit import package_closure, source_hash

    root = Path(__file__).resolve().parent
    kernels = get(ruleset_id).kernels_package
    digest = hashlib.blake2b(source_hash(kernels).encode(), digest_size=8)
    for package in sorted({ruleset_id} | {p for p in package_closure(kernels) if p and p != kernels}):
        for folder in (root / "rulesets" / package, root / package, root / "data" / package):
            for path in sorted(folder.rglob("*")) if folder.is_dir() else ():
                if path.is_file() and path.suffix in (".py", ".toml"):
                    digest.update(path.relative_to(root).as_posix().encode())
                    digest.update(path.read_bytes())
    return digest.hexdigest()


def bench_goals_of(ruleset: Ruleset) -> dict[str, float]:
    """The optional ``bench_goals()``: bench config label -> games/s on one thread aimed at
    (``shamble bench`` prints them beside the measured figures); {} for a ruleset without any."""
    goals = getattr(ruleset, "bench_goals", None)
    return dict(goals()) if goals is not None else {}


def register(ruleset: Ruleset) -> Ruleset:
    """Add a ruleset (discovery does this for ``sim/rulesets/<id>/``; the tests for their own)."""
    missing = [name for name in _required_members() if not hasattr(ruleset, name)]
    if missing:
        defaults = [name for name in missing if name in DEFAULTED]
        hint = f" (sim.ruleset.RulesetDefaults supplies {', '.join(defaults)})" if defaults else ""
        raise RulesetError(f"ruleset {getattr(ruleset, 'id', ruleset)!r}: missing {', '.join(missing)}{hint}")
    _REGISTRY[ruleset.id] = ruleset
    return ruleset


def unregister(ruleset_id: str) -> None:
    _REGISTRY.pop(ruleset_id, None)


def _must_write() -> list[str]:
    """The members of the `Ruleset` protocol: what every ruleset writes itself."""
    return sorted(set(Ruleset.__annotations__) | {n for n, v in vars(Ruleset).items()
                                                   if callable(v) and not n.startswith("_")})


def _required_members() -> list[str]:
    """Every member the shared layers call: the protocol's and the `DEFAULTED` ones."""
    return sorted({*_must_write(), *DEFAULTED})


def _discover() -> None:
    global _DISCOVERED
    if _DISCOVERED:
        return
    import sim.rulesets

    for info in pkgutil.iter_modules(sim.rulesets.__path__):
        if info.ispkg:
            module = importlib.import_module(f"sim.rulesets.{info.name}")
            if hasattr(module, "RULESET") and module.RULESET.id not in _REGISTRY:
                register(module.RULESET)
    _DISCOVERED = True


def get(ruleset_id: str, where: str = "ruleset") -> Ruleset:
    """The ruleset ``ruleset_id``; an unknown id is one line naming ``where`` and the ids."""
    if ruleset_id not in _REGISTRY:
        _discover()
    if ruleset_id not in _REGISTRY:
        raise RulesetError(f"{where} = {ruleset_id!r}: no such ruleset; allowed: {', '.join(ids())}")
    return _REGISTRY[ruleset_id]


def ids() -> list[str]:
    _discover()
    return sorted(_REGISTRY)


def all_rulesets() -> list[Ruleset]:
    return [_REGISTRY[i] for i in ids()]


def ruleset_of(config: Any) -> Ruleset:
    """The ruleset a config belongs to (its ``ruleset`` attribute)."""
    return get(getattr(config, "ruleset", DEFAULT_RULESET))


# ---------------------------------------------------------------------------------- shared helpers


def with_params(config: Any, params: Mapping[str, Any], source: str = "params") -> Any:
    """``config`` with the parameters of ``params`` changed (validated by its ruleset)."""
    return dataclasses.replace(config, **ruleset_of(config).parse_params(config, params, source))


def load_config(path: str | Path) -> Any:
    """Read a game config file of any ruleset (its ``ruleset`` key; none: Zombie 40,000)."""
    from sim.files import read_toml

    path = Path(path)
    data = read_toml(path, "config", RulesetError)
    ruleset_id = data.pop("ruleset", DEFAULT_RULESET)
    if not isinstance(ruleset_id, str):
        raise RulesetError(f"{path}: ruleset = {ruleset_id!r}; allowed: one of {', '.join(ids())}")
    return get(ruleset_id, f"{path}: ruleset").config_from_dict(data, str(path), path.parent)


def changed_parameters(config: Any) -> dict[str, Any]:
    """The parameters a config sets away from their defaults (mods listed apart), JSON-able."""
    out = {}
    for p in ruleset_of(config).parameters():
        value = getattr(config, p.name, p.default)
        if p.name != "mods" and value != p.default:
            out[p.name] = plain(value)
    return out


def played(config: Any, n_games: int, seed: int, source: str | None = None) -> dict:
    """What a run played, for every table and file it writes: the ruleset, the config file, its
    players, mods and changed parameters, the games, the seed and the package version."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        shamble = version("shamble")
    except PackageNotFoundError:
        shamble = "unknown"
    players = []
    for p in config.players:
        row = {"name": p.name, "policy": _policy_words(config, p.policy)}
        if hasattr(p, "team"):
            row["team"] = getattr(p.team, "name", str(p.team))
        players.append(row)
    return {"ruleset": ruleset_of(config).id, "config": source, "players": players,
            "mods": sorted(getattr(config, "mods", ()) or ()), "changed": changed_parameters(config),
            "games": n_games, "seed": seed, "shamble": shamble, "commit": source_commit()}


@functools.lru_cache(maxsize=1)
def source_commit() -> str | None:
    """The checkout's commit (10 hex digits, '+' when files differ from it), or None outside a git
    checkout: with the version, which rules were played."""
    import subprocess

    try:
        here = Path(__file__).parent
        head = subprocess.run(["git", "rev-parse", "--short=10", "HEAD"], cwd=here, capture_output=True, text=True,
                              timeout=10)
        if head.returncode != 0:
            return None
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", "."],
                               cwd=here.parent, capture_output=True, text=True, timeout=10).stdout.strip()
        return head.stdout.strip() + ("+" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return None


def _policy_words(config: Any, policy: Any) -> str:
    presets = ruleset_of(config).policy_presets()
    return next((name for name, preset in presets.items() if preset == policy), "custom")


def played_line(info: dict, run: str | None = None) -> str:
    """`played` on one line: 'zombie40k x.toml, mods t_virus, horde_size=3; 2000 games, seed 1; shamble 0.1.0'.

    ``run`` says what was played in place of 'N games, seed S' ('game 3', 'one game',
    '4,000 games, seed 1'); by default the games and seed of ``info``."""
    parts = [f"{info['ruleset']} {info['config'] or ''}".strip()]
    if info["mods"]:
        parts.append("mods " + "+".join(info["mods"]))
    if info["changed"]:
        parts.append(", ".join(f"{k}={default_text(v)}" for k, v in info["changed"].items()))
    commit = f" (commit {info['commit']})" if info.get("commit") else ""
    run = run if run is not None else f"{info['games']} games, seed {info['seed']}"
    return f"{', '.join(parts)}; {run}; shamble {info['shamble']}{commit}"


def head_of(state: tuple, count: int, per_game: Iterable[str]) -> tuple:
    """The first ``count`` games of a batch state (a NamedTuple): views of its ``per_game``
    fields, the other fields (per-thread scratch) as they are."""
    return state._replace(**{name: getattr(state, name)[:count] for name in per_game})


def common_frame(ruleset_id: str, names: Iterable[str], first_game: int, n_games: int, won: np.ndarray,
                 winner_names: np.ndarray, reasons: np.ndarray, turns: np.ndarray, dice: np.ndarray) -> dict:
    """The `COMMON_COLUMNS` of ``n_games`` games x ``len(names)`` players, as columns.

    ``won`` is bool[n_games, n_players]; ``winner_names``, ``reasons``, ``turns`` and ``dice`` are
    per game.
    """
    names = np.array(list(names), dtype=object)
    n_p = len(names)
    return {
        "ruleset": np.full(n_games * n_p, ruleset_id, dtype=object),
        "game": np.repeat(np.arange(first_game, first_game + n_games), n_p),
        "player": np.tile(np.arange(n_p), n_games),
        "name": np.tile(names, n_games),
        "won": np.asarray(won, bool).reshape(n_games * n_p),
        "game_winner": np.repeat(np.asarray(winner_names, dtype=object), n_p),
        "reason": np.repeat(np.asarray(reasons, dtype=object), n_p),
        "turns": np.repeat(np.asarray(turns, np.int64), n_p),
        "dice": np.repeat(np.asarray(dice, np.int64), n_p),
    }


# ---------------------------------------------------------------------------------- words

TAGS = {"V": "verified", "I": "inferred", "C": "chosen: the spec had to pick the number (swept by `sensitivity`)"}


def tag_text(tag: str) -> str:
    """'V' -> '[V]' (the spec's confidence tags); 'A12' (an ambiguity of the spec) as is."""
    return f"[{tag}]" if tag in TAGS else tag


def plain(value: Any) -> Any:
    """A JSON-able form of a parameter's value: dataclasses as tables, sets as sorted lists."""
    if dataclasses.is_dataclass(value):
        return dataclasses.asdict(value)
    if isinstance(value, frozenset | set):
        return sorted(value)
    if isinstance(value, tuple):
        return [plain(v) for v in value]
    return value


AUTOMATIC = ("by ", "one per ", "the catalogue's", "the profile's", "automatic")  # meanings that say "worked out"


def value_word(p: Parameter, value: Any) -> str:
    """A parameter's value as a table shows it: a special value by its short meaning, 'auto' where
    the value means "worked out by the simulator" (``table_width_in`` 0: by player count), never
    '0.0' for it; other values as a config spells them."""
    meaning = next((text for key, text in p.meaning.items() if key == value and type(key) is not bool), None)
    if meaning is None:
        return default_text(plain(value))
    if meaning.startswith(AUTOMATIC):
        return "auto"
    short = meaning.split(" (")[0]
    return short if len(short) <= 16 else default_text(plain(value))


def default_text(value: Any) -> str:
    """A plain value as a config file would spell it."""
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items())
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value).lower() if isinstance(value, bool) else str(value)
