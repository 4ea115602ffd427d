"""Local optimality of a config's policies (issue 26, item 5): does any one-field change a player
would try beat the default on the same games?

For each **side** of a config, every field of its policy is moved **one step** (its one-step
neighbours, below); the default and every neighbour are played on the same games (``sim.play.play``
with one seed: game ``i`` of every run starts from the same dice), and the side's rate under the
neighbour minus its rate under the default is given with its paired 95% interval (Tango's score
interval, `experiments.stats.paired_difference`). A neighbour **beats** the default when the
difference is above the threshold (1.5 points by default) and its interval lies above 0.

**Sides.** In a game of rivals (each player wins alone: Zombie 40,000, Zombies!!!) each player is
a side and its policy moves alone, the others keep theirs. In a game where the players share a
win (Zombies Out West's posse, Zombie Apocalypse's players: a won game's ``game_winner`` is a word
for them, not a player's name, or the game was lost to the zombies) the players who play the same
policy form one side and move together: Out West's posse-wide ``policy = "stand_and_shoot"`` is
one side of all five characters. A side's rate is its win: in a game of rivals the share of games
its player ``won``, in a shared win the share of games one of the players ``won`` (the posse held
the town), whoever's policy moved (``only_sides`` may name one player of a shared side: he moves
alone, and the rate is still the players' win).

**One-step neighbours** of a field, from what it declares (its dataclass metadata ``range`` and
``choices``, the policy class's ``LIMITS``, or else the range its own validation states when
refused a far-off value: "allowed: an integer 0-2"):

- a bool: flipped;
- a choice (a word with ``choices``): each other choice;
- an integer code (an integer whose declared range holds at most 3 values, "0 never, 1 ..., 2
  always"): each other value;
- an integer: one up and one down (step 1);
- a number: one step up and one down, the step being a quarter of the default's size (a default
  of 0: 1% of the declared range), rounded to the nearest 1, 2 or 5 x a power of ten
  (`float_step`: 7" -> 2", 18" -> 5", 12" -> 2", 1.0 -> 0.2, 1.5 -> 0.5, 0" on 0-100" -> 1"). The
  declared ranges are safety bounds (0-100" for most distances), too wide to scale a step from,
  hence the default's size; ``steps`` (``--step FIELD=STEP``) gives another step by field.

A step past the end of the declared range stops at the end (when the default is not already
there); a value the ruleset's own validation refuses is dropped. A neighbour whose games are
identical to the default's (every results column but the ``policy`` label, dice counts included)
is **not exercised** by the config: its difference is left blank.

Entry points: `run_optimality` (a tidy frame, one row per neighbour), `render_optimality` (a rich
table), and ``python -m experiments.optimality CONFIG [--games N] [--seed S] [--fields a,b]
[--threshold 1.5] [--json]``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import math
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import pandas as pd
import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from experiments.stats import paired_difference
from sim.play import play
from sim.ruleset import default_text, load_config, played, played_line, ruleset_of

MIN_GAMES = 100
THRESHOLD = 0.015  # 1.5 points (issue 26, item 5)
LABEL_COLUMNS = ("policy",)  # result columns that name the policy rather than tell the game
COLUMNS = ("side", "field", "default", "neighbour", "default_rate", "neighbour_rate", "diff", "ci_low", "ci_high",
           "beats", "exercised", "p_value", "games", "players")
ProgressFn = Callable[[int, int, str], None]  # (games played so far, games in the sweep, what is playing)


# ---------------------------------------------------------------------------------- fields


@dataclass(frozen=True)
class FieldSpec:
    """What a policy field declares: ``kind`` bool, choice, code, integer or number; ``low`` and
    ``high`` its range (None: not declared); ``choices`` its words or code values."""

    name: str
    kind: str
    low: float | None = None
    high: float | None = None
    choices: tuple = ()


_RANGE = re.compile(r"allowed:.*?(-?\d+(?:\.\d+)?)\s*-\s*(-?\d+(?:\.\d+)?)")


def _declared_range(policy: Any, f: dataclasses.Field) -> tuple[float, float] | None:
    """The field's range: its metadata ``range``, the class's ``LIMITS``, or the one its own
    validation names when refused a far-off value."""
    if f.metadata.get("range") is not None:
        return tuple(f.metadata["range"])
    limits = getattr(type(policy), "LIMITS", None)
    if isinstance(limits, Mapping) and f.name in limits:
        return tuple(limits[f.name])
    value = getattr(policy, f.name)
    far = 10**12 if isinstance(value, int) else 1e12
    try:
        dataclasses.replace(policy, **{f.name: far})
    except ValueError as err:
        match = _RANGE.search(str(err))
        if match:
            return float(match.group(1)), float(match.group(2))
    return None


def field_spec(policy: Any, f: dataclasses.Field) -> FieldSpec:
    """How a policy field may move (module docstring)."""
    value = getattr(policy, f.name)
    if isinstance(value, bool):
        return FieldSpec(f.name, "bool", choices=(False, True))
    if isinstance(value, str):
        choices = tuple(f.metadata.get("choices") or ())
        if not choices:
            raise ValueError(f"policy field {f.name!r} = {value!r}: declares no choices; allowed: fields with "
                             "choices (leave it out with --fields)")
        return FieldSpec(f.name, "choice", choices=choices)
    bounds = _declared_range(policy, f)
    low, high = bounds if bounds else (None, None)
    if isinstance(value, int):
        if bounds and high - low <= 2:
            return FieldSpec(f.name, "code", low, high, tuple(range(int(low), int(high) + 1)))
        return FieldSpec(f.name, "integer", low, high)
    if isinstance(value, float):
        return FieldSpec(f.name, "number", low, high)
    raise ValueError(f"policy field {f.name!r} = {value!r}: not a bool, word or number; allowed: those")


def nice(x: float) -> float:
    """The 1, 2 or 5 x a power of ten nearest ``x`` (on a log scale)."""
    exponent = math.floor(math.log10(x))
    candidates = [m * 10.0**e for e in (exponent - 1, exponent, exponent + 1) for m in (1, 2, 5)]
    return min(candidates, key=lambda c: abs(math.log10(c / x)))


def float_step(default: float, low: float | None, high: float | None) -> float:
    """A number's step: a quarter of the default's size (at 0: 1% of its range), made nice."""
    scale = abs(default) / 4 if default else (high - low) / 100 if low is not None and high is not None else 0.0
    if scale <= 0:
        raise ValueError("a number at 0 with no declared range has no step")
    return nice(scale)


def neighbour_values(spec: FieldSpec, value: Any, step: float | None = None) -> list:
    """The one-step neighbours of ``value`` (module docstring), before the ruleset's validation."""
    if spec.kind in ("bool", "choice", "code"):
        return [c for c in spec.choices if c != value]
    if spec.kind == "integer":
        step = int(step or 1)
        moved = [value - step, value + step]
    else:
        step = step or float_step(value, spec.low, spec.high)
        moved = [round(value - step, 10), round(value + step, 10)]
    lo = -math.inf if spec.low is None else spec.low
    hi = math.inf if spec.high is None else spec.high
    out = []
    for v in moved:
        v = min(max(v, lo), hi)
        v = type(value)(v)
        if v != value and v not in out:
            out.append(v)
    return out


@dataclass(frozen=True)
class Neighbour:
    """One policy a side plays instead of its default: ``field`` moved to ``value``."""

    side: str
    players: tuple[int, ...]  # the seats that play the neighbour
    counted: tuple[int, ...]  # the seats whose win is the side's rate (a shared win: every seat)
    field: str
    default: Any
    value: Any
    policy: Any


def policy_neighbours(policy: Any, fields: Sequence[str] | None = None,
                      steps: Mapping[str, float] | None = None) -> list[tuple[str, Any, Any, Any]]:
    """(field, default value, neighbour value, neighbour policy) of every field of ``policy`` (or
    of ``fields``), in declared order; values the policy's validation refuses are dropped."""
    steps = dict(steps or {})
    out = []
    for f in dataclasses.fields(policy):
        if fields is not None and f.name not in fields:
            continue
        value = getattr(policy, f.name)
        for v in neighbour_values(field_spec(policy, f), value, steps.get(f.name)):
            with contextlib.suppress(ValueError):
                out.append((f.name, value, v, dataclasses.replace(policy, **{f.name: v})))
    return out


def check_fields(config: Any, fields: Sequence[str] | None, steps: Mapping[str, float] | None = None) -> None:
    """Refuse a field or a step that names no policy field (one line, with the allowed names)."""
    known = [f.name for f in dataclasses.fields(config.players[0].policy)]
    for name in [*(fields or ()), *(steps or {})]:
        if name not in known:
            raise ValueError(f"policy field {name!r}: unknown; allowed: {', '.join(known)}")
    for name, step in (steps or {}).items():
        if not (isinstance(step, int | float) and step > 0 and math.isfinite(step)):
            raise ValueError(f"step of {name} = {step!r}; allowed: a number above 0")


# ---------------------------------------------------------------------------------- sides


def shared_win(config: Any, df: pd.DataFrame) -> bool:
    """The players share one win: some game's winner is not a player's name ("posse",
    "players", "zombies", "all players")."""
    names = {p.name for p in config.players}
    winners = set(df.game_winner.unique()) - {""}
    return bool(winners - names)


def sides(config: Any, shared: bool, only: Sequence[str] | None = None) -> list[tuple[str, tuple[int, ...]]]:
    """(name, player seats) of each side: each player, or, when the players share a win, the
    players of one policy together ("all players" when that is everyone). ``only`` keeps the
    sides of those names; a player's name there, in a shared win, is that player moving alone."""
    players = config.players
    if not shared:
        groups = [(p.name, (k,)) for k, p in enumerate(players)]
    else:
        seats: dict[Any, list[int]] = {}
        for k, p in enumerate(players):
            seats.setdefault(p.policy, []).append(k)
        groups = [(_group_name(config, s), tuple(s)) for s in seats.values()]
    if only is None:
        return groups
    check_sides(config, only)
    alone = [(p.name, (k,)) for k, p in enumerate(players) if p.name in only]
    return [g for g in groups if g[0] in only and g not in alone] + alone


def _group_name(config: Any, seats: Sequence[int]) -> str:
    if len(seats) == len(config.players):
        return "all players"
    return "+".join(config.players[k].name for k in seats)


def check_sides(config: Any, only: Sequence[str]) -> None:
    """Refuse a name that is neither a player's nor a side's (whichever way the win is shared)."""
    known = [p.name for p in config.players]
    known += [name for name, seats in sides(config, True) if len(seats) > 1]
    bad = [name for name in only if name not in known]
    if bad:
        raise ValueError(f"side {bad[0]!r}: unknown; allowed: {', '.join(known)}")


def with_side_policy(config: Any, seats: tuple[int, ...], policy: Any) -> Any:
    """The config with the players in ``seats`` playing ``policy``."""
    players = tuple(dataclasses.replace(p, policy=policy) if k in seats else p for k, p in enumerate(config.players))
    return dataclasses.replace(config, players=players)


def side_outcomes(df: pd.DataFrame, seats: tuple[int, ...]) -> np.ndarray:
    """bool[n_games]: one of the players of ``seats`` won game i (games in order)."""
    return df[df.player.isin(seats)].groupby("game", sort=True).won.any().to_numpy()


def same_games(a: pd.DataFrame, b: pd.DataFrame) -> bool:
    """Every game told the same (all columns but the policy's label)."""
    keep = [c for c in a.columns if c not in LABEL_COLUMNS]
    return list(a.columns) == list(b.columns) and a[keep].reset_index(drop=True).equals(b[keep].reset_index(drop=True))


# ---------------------------------------------------------------------------------- the sweep


def plan(config: Any, shared: bool, fields: Sequence[str] | None = None, steps: Mapping[str, float] | None = None,
         only_sides: Sequence[str] | None = None) -> list[Neighbour]:
    """Every neighbour of every side, in order (side, declared field, value)."""
    out = []
    everyone = tuple(range(len(config.players)))
    for name, seats in sides(config, shared, only_sides):
        policy = config.players[seats[0]].policy
        for field_name, default, value, moved in policy_neighbours(policy, fields, steps):
            out.append(Neighbour(name, seats, everyone if shared else seats, field_name, default, value, moved))
    return out


def run_optimality(config: Any, games: int, seed: int, fields: Sequence[str] | None = None,
                   threshold: float = THRESHOLD, progress: ProgressFn | None = None, *,
                   steps: Mapping[str, float] | None = None, only_sides: Sequence[str] | None = None) -> pd.DataFrame:
    """Play the config and every one-step neighbour of each side's policy on the same games.

    Parameters
    ----------
    config : a ruleset's config (``sim.ruleset.load_config``)
    games, seed : the games ``0 .. games-1`` of stream ``seed`` (at least `MIN_GAMES`)
    fields : policy fields to move (None: all)
    threshold : the gain (a share: 0.015 = 1.5 points) a neighbour must beat
    progress : called ``(games played, games in the sweep, label)`` as the runs go
    steps : a number field's step instead of `float_step`'s ({field: step})
    only_sides : side or player names to sweep (None: every side; a player of a shared side: him alone)

    Returns
    -------
    DataFrame, one row per neighbour: `COLUMNS` (side, field, default, neighbour, default_rate,
    neighbour_rate, diff = neighbour - default, ci_low, ci_high (paired 95%, Tango), beats,
    exercised (False: the games were identical, diff and interval NaN), p_value, games, players).
    ``attrs`` holds what was played, the threshold and whether the players share a win.
    """
    _check(config, games, seed, fields, threshold, steps, only_sides)
    tell = progress or (lambda done, total, label: None)
    tell(0, games, "default")
    base = play(config, games, seed, progress=_counter(tell, 0, games, "default"))
    shared = shared_win(config, base)
    todo = plan(config, shared, fields, steps, only_sides)
    total = games * (1 + len(todo))
    tell(games, total, "default")
    rows = []
    for k, n in enumerate(todo):
        label = f"{n.side}: {n.field} = {default_text(n.value)}"
        df = play(with_side_policy(config, n.players, n.policy), games, seed,
                  progress=_counter(tell, games * (k + 1), total, label))
        rows.append(_row(n, base, df, threshold, config))
    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    for column in ("default", "neighbour"):  # each value as its field has it (1, not 1.0; True; "rule")
        frame[column] = pd.Series([row[column] for row in rows], dtype=object)
    frame.attrs.update(played=played(config, games, seed), threshold=threshold, shared_win=shared)
    return frame


def _check(config, games, seed, fields, threshold, steps, only_sides=None) -> None:
    if not isinstance(games, int) or games < MIN_GAMES:
        raise ValueError(f"games = {games!r}; allowed: {MIN_GAMES} or more (paired intervals need them)")
    if not 0 <= seed < 2**63:
        raise ValueError(f"seed = {seed}; allowed: an integer 0 <= seed < 2**63")
    if not 0 <= threshold < 1:
        raise ValueError(f"threshold = {threshold!r}; allowed: a share 0 <= t < 1 (0.015 = 1.5 points)")
    check_fields(config, fields, steps)
    if only_sides is not None:
        check_sides(config, only_sides)


def _counter(tell: ProgressFn, start: int, total: int, label: str) -> Callable[[int], None]:
    done = [start]

    def advance(count: int) -> None:
        done[0] += count
        tell(done[0], total, label)

    return advance


def _row(n: Neighbour, base: pd.DataFrame, df: pd.DataFrame, threshold: float, config) -> dict:
    a, b = side_outcomes(df, n.counted), side_outcomes(base, n.counted)
    row = {"side": n.side, "field": n.field, "default": n.default, "neighbour": n.value,
           "default_rate": float(b.mean()), "neighbour_rate": float(a.mean()), "games": int(a.size),
           "players": ", ".join(config.players[k].name for k in n.players)}
    if same_games(base, df):
        return {**row, "diff": math.nan, "ci_low": math.nan, "ci_high": math.nan, "beats": False,
                "exercised": False, "p_value": math.nan}
    d = paired_difference(a, b)  # neighbour minus default, game by game
    return {**row, "diff": d.diff, "ci_low": d.low, "ci_high": d.high, "exercised": True, "p_value": d.p_value,
            "beats": bool(d.diff > threshold and d.low > 0)}


# ---------------------------------------------------------------------------------- output


def render_optimality(frame: pd.DataFrame, console: Console) -> None:
    """What was played on one line, one table row per neighbour (those that beat the default in
    bold), then a line naming them (or saying none does)."""
    info = frame.attrs.get("played")
    threshold = frame.attrs.get("threshold", THRESHOLD)
    if info:
        console.print(played_line(info), soft_wrap=True, highlight=False, markup=False)
    table = Table(title=f"one-step neighbours of each side's policy (beats: above +{threshold:.1%} and the "
                  "interval above 0)", title_justify="left")
    for column, justify in (("side", "left"), ("field", "left"), ("default", "right"), ("neighbour", "right"),
                            ("default rate", "right"), ("neighbour rate", "right"), ("diff", "right"),
                            ("95% CI", "right"), ("beats", "left")):
        table.add_column(column, justify=justify, overflow="fold")
    for r in frame.itertuples(index=False):
        cells = _cells(r)
        table.add_row(*cells, style="bold" if r.beats else None)
    console.print(table, markup=False)
    console.print(summary_line(frame), soft_wrap=True, highlight=False, markup=False)


def _cells(r) -> list[str]:
    if r.exercised:
        diff, ci = f"{r.diff * 100:+.2f}", f"{r.ci_low * 100:+.2f} .. {r.ci_high * 100:+.2f}"
    else:
        diff, ci = "not exercised", ""
    return [r.side, r.field, default_text(r.default), default_text(r.neighbour), f"{r.default_rate:.1%}",
            f"{r.neighbour_rate:.1%}", diff, ci, "BEATS" if r.beats else ""]


def summary_line(frame: pd.DataFrame) -> str:
    """'2 of 44 neighbours beat the default by more than 1.5 points: ...' or 'none of ...'."""
    threshold = frame.attrs.get("threshold", THRESHOLD)
    beats = frame[frame.beats]
    head = f"of {len(frame)} neighbours ({int((~frame.exercised).sum())} not exercised)"
    if beats.empty:
        return f"none {head} beats the default by more than {threshold * 100:g} points"
    names = "; ".join(f"{r.side}: {r.field} {default_text(r.default)} -> {default_text(r.neighbour)} "
                      f"{r.diff * 100:+.2f} [{r.ci_low * 100:+.2f}, {r.ci_high * 100:+.2f}]"
                      for r in beats.sort_values("diff", ascending=False).itertuples())
    return f"{len(beats)} {head} beat the default by more than {threshold * 100:g} points: {names}"


def frame_json(frame: pd.DataFrame) -> str:
    """The frame as JSON: what was played, the threshold and one object per neighbour (NaN: null)."""
    rows = [{k: _plain(v) for k, v in row.items()} for row in frame.to_dict("records")]
    return json.dumps({"played": frame.attrs.get("played"), "threshold": frame.attrs.get("threshold"),
                       "shared_win": frame.attrs.get("shared_win"), "neighbours": rows}, indent=2)


def _plain(v: Any) -> Any:
    if isinstance(v, np.generic):
        v = v.item()
    return None if isinstance(v, float) and math.isnan(v) else v


@contextlib.contextmanager
def progress_bar(console: Console | None = None) -> Iterator[ProgressFn]:
    """A rich progress bar on stderr (games over the whole sweep) as a `run_optimality` progress."""
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console or Console(stderr=True), transient=True) as bar:
        task = bar.add_task("default", total=None)
        yield lambda done, total, label: bar.update(task, completed=done, total=total, description=label)


# ---------------------------------------------------------------------------------- command line


def parse_steps(items: Sequence[str]) -> dict[str, float]:
    """``["keep_away_in=1", ...]`` -> {field: step}; a malformed item is one line."""
    out = {}
    for item in items:
        name, _, text = item.partition("=")
        try:
            out[name.strip()] = float(text)
        except ValueError:
            raise ValueError(f"--step {item!r}; allowed: FIELD=NUMBER (a number field's step)") from None
    return out


def main(
    config: Annotated[Path, typer.Argument(help="Game configuration (TOML) of any ruleset.")],
    games: Annotated[int, typer.Option("--games", "-n", help="Paired games per run (the default and each "
                                       "neighbour).")] = 10_000,
    seed: Annotated[int, typer.Option(help="Random seed: game i of every run starts from the same dice.")] = 1,
    fields: Annotated[str | None, typer.Option(help="Policy fields to move, comma-separated (default: all).")] = None,
    threshold: Annotated[float, typer.Option(help="Points a neighbour must gain to beat the default.")] = 1.5,
    side: Annotated[list[str] | None, typer.Option(help="Only this side or player (repeatable).")] = None,
    step: Annotated[list[str] | None, typer.Option(help="FIELD=STEP: a number field's step (repeatable).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of the table.")] = False,
) -> None:
    """Move each policy field of each side one step and play it against the default on the same
    games; print the paired differences and the neighbours that beat the default."""
    from experiments.progress import load_game_kernels
    from sim.cli_errors import user_errors

    with user_errors():
        cfg = load_config(config)
        chosen = [f.strip() for f in fields.split(",") if f.strip()] if fields is not None else None
        steps = parse_steps(step or [])
        if not 0 <= threshold < 100:
            raise ValueError(f"--threshold {threshold:g}; allowed: points 0 <= t < 100 (1.5: a gain of 1.5 points)")
        _check(cfg, games, seed, chosen, threshold / 100, steps, side)
        ruleset_of(cfg).compile(cfg)
        if not as_json:
            load_game_kernels(cfg)
        with progress_bar() as bar:
            frame = run_optimality(cfg, games, seed, chosen, threshold / 100, bar, steps=steps, only_sides=side)
        frame.attrs["played"] = played(cfg, games, seed, str(config))
    if as_json:
        typer.echo(frame_json(frame))
    else:
        render_optimality(frame, Console())


def cli() -> None:
    typer.run(main)


if __name__ == "__main__":
    cli()
