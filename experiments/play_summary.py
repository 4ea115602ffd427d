"""What `shamble play` shows of a run (`sim.play` plays the games): the summary of its results frame (win
rates with Wilson intervals, game length, end reasons), its table on the console, and the results file;
`run_play` plays a configuration with the kernels' status line and a progress bar on stderr."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from experiments.progress import load_game_kernels
from experiments.stats import wilson_interval
from sim.files import atomic_path
from sim.play import games, play
from sim.ruleset import get as ruleset_of_id
from sim.ruleset import played, played_line, ruleset_of


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of one proportion (``experiments.stats``; (0, 1) for no trials)."""
    if trials == 0:
        return 0.0, 1.0
    low, high = wilson_interval(successes, trials)
    return float(low), float(high)


def summarise(config, df: pd.DataFrame, source: str | None = None) -> dict:
    """What was played (``sim.ruleset.played``: ruleset, config file, players, mods, changed
    parameters, games, seed, version); per player: policy, wins, win rate with its 95% Wilson
    interval and the means per game of the ruleset's ``play_columns``; per run: game length, end
    reasons and dice per game. The keys are those of a sweep's ``summary.csv`` (player: the seat,
    name, team, wins, rate, ci_low, ci_high; docs/results.md)."""
    rs = ruleset_of(config)
    per_game = games(df)
    n = len(per_game)
    players = []
    for p, player in enumerate(config.players):
        rows = df[df.player == p]
        wins = int(rows.won.sum())
        low, high = wilson(wins, n)
        row = {"player": p, "name": player.name, **({"team": rows.team.iloc[0]} if "team" in df and n else {}),
               **({"policy": rows.policy.iloc[0]} if "policy" in df and n else {}),
               "wins": wins, "rate": wins / n if n else 0.0, "ci_low": low, "ci_high": high}
        for column in rs.play_columns:
            row[f"{column}_per_game"] = float(rows[column].mean()) if n else 0.0
        players.append(row)
    reasons = per_game.reason.value_counts().to_dict()
    return {
        "ruleset": rs.id, "games": n, "seed": df.attrs.get("seed"),
        "played": played(config, n, df.attrs.get("seed"), source), "players": players,
        "mean_turns": float(per_game.turns.mean()) if n else 0.0,
        "reasons": {k: int(v) for k, v in reasons.items()},
        "mean_dice_per_game": float(per_game.dice.mean()) if n else 0.0,
    }


def mean_interval(values) -> tuple[float, float]:
    """The 95% interval of a mean over games (Student t; game lengths are many and bounded)."""
    from scipy import stats

    values = pd.Series(values, dtype=float)
    n = len(values)
    if n < 2:
        return float(values.mean()), float(values.mean())
    half = float(stats.t.ppf(0.975, n - 1) * values.std(ddof=1) / n ** 0.5)
    return float(values.mean() - half), float(values.mean() + half)


def run_play(config, n_games: int, seed: int, show_progress: bool = True,
             batch_size: int = 2048) -> pd.DataFrame:
    """Play with a progress bar on stderr (rich) for long runs; the config is compiled once, for
    the kernels' load and the games."""
    tables = ruleset_of(config).compile(config)
    if show_progress:
        load_game_kernels(config, tables=tables)
    if not show_progress or n_games < 2 * batch_size:
        return play(config, n_games, seed, batch_size=batch_size, tables=tables)
    columns = (TextColumn("playing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("games", total=n_games)
        return play(config, n_games, seed, batch_size=batch_size, progress=lambda k: bar.advance(task, k),
                    tables=tables)


def render_summary(summary: dict, console: Console, turns_ci: tuple[float, float] | None = None) -> None:
    """What was played on one line (never wrapped by the console, so it reads the same at any
    width and in a pipe), then the players' table; nothing a user needs is cut (long names fold
    onto a second line)."""
    rs = ruleset_of_id(summary["ruleset"])
    rows = summary["players"]
    console.print(played_line(summary["played"]), soft_wrap=True, highlight=False, markup=False)
    table = Table()
    same_team = all(p.get("team") in (None, p["name"]) for p in rows)
    extra = [k for k in rows[0] if k.endswith("_per_game")] if rows else []
    extra = [k for k in extra if any(abs(p[k] - p["rate"]) > 1e-12 for p in rows)]  # not the rate again
    per_game = [k.removesuffix("_per_game").replace("_", " ") + " per game" for k in extra]
    columns = ["player", *([] if same_team else ["team"]), *(["policy"] if rows and "policy" in rows[0] else []),
               rs.win_word + " rate", "95% CI", *per_game]
    cells = [[p["name"], *([] if same_team else [p.get("team", "")]), *([p["policy"]] if "policy" in p else []),
              f"{p['rate']:.1%}", f"{p['ci_low']:.1%} - {p['ci_high']:.1%}", *(f"{p[k]:.2f}" for k in extra)]
             for p in rows]
    for k, col in enumerate(columns):  # wide enough for its longest word: names wrap between words, never inside
        longest = max(len(word) for text in [col, *(str(c[k]) for c in cells)] for word in str(text).split() or [""])
        table.add_column(col, justify="left" if col in ("player", "team", "policy") else "right", overflow="fold",
                         min_width=longest)
    for row in cells:
        table.add_row(*map(str, row))
    console.print(table)
    n = summary["games"]
    reasons = ", ".join(f"{k} {v / n:.1%} ({_interval(v, n)})" for k, v in summary["reasons"].items())
    length = f"mean game length {summary['mean_turns']:.2f} turns"
    if turns_ci is not None:
        length += f" (95% CI {turns_ci[0]:.2f}-{turns_ci[1]:.2f})"
    console.print(f"{length}; ends (of {n} games, 95% CI): {reasons}; {summary['mean_dice_per_game']:.0f} dice per "
                  "game", soft_wrap=True, highlight=False, markup=False)


def _interval(count: int, n: int) -> str:
    low, high = wilson(count, n)
    return f"{low:.1%}-{high:.1%}"


def write_atomic(df: pd.DataFrame, path: Path, info: dict | None = None) -> None:
    """Write parquet or CSV (by suffix) to a temp file in the same folder, then rename. ``info``
    (what was played) goes into the parquet file's metadata (key ``shamble``), or for a CSV file
    into ``<file>.meta.json`` beside it."""
    path = Path(path)
    if path.suffix not in (".parquet", ".csv"):
        raise ValueError(f"--out {path}: allowed suffixes: .parquet, .csv")
    if not path.parent.exists():
        raise ValueError(f"--out {path}: folder {path.parent} does not exist")
    frame = df.copy()
    frame.attrs = {}
    with atomic_path(path) as tmp:
        if path.suffix == ".parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq

            table = pa.Table.from_pandas(frame, preserve_index=False)
            meta = dict(table.schema.metadata or {}) | ({b"shamble": json.dumps(info).encode()} if info else {})
            pq.write_table(table.replace_schema_metadata(meta), tmp)
        else:
            frame.to_csv(tmp, index=False)
    if info and path.suffix == ".csv":
        with atomic_path(path.with_name(path.name + ".meta.json")) as tmp:
            tmp.write_text(json.dumps(info, indent=2) + "\n")


def summary_json(summary: dict) -> str:
    return json.dumps(summary, indent=2)
