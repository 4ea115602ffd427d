"""`shamble play`: run a configuration and summarise it (win rates with Wilson intervals)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pandas as pd
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from experiments.stats import wilson_interval
from sim.play import games, play, warm_up
from sim.ruleset import get as ruleset_of_id
from sim.ruleset import ruleset_of


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of one proportion (``experiments.stats``; (0, 1) for no trials)."""
    if trials == 0:
        return 0.0, 1.0
    low, high = wilson_interval(successes, trials)
    return float(low), float(high)


def summarise(config, df: pd.DataFrame) -> dict:
    """Per player: wins, win rate with its 95% Wilson interval and the means per game of the
    ruleset's ``play_columns``; per run: game length, end reasons and dice per game. The keys of
    the rates are those of a sweep's ``summary.csv`` (wins, rate, ci_low, ci_high)."""
    rs = ruleset_of(config)
    per_game = games(df)
    n = len(per_game)
    players = []
    for p, player in enumerate(config.players):
        rows = df[df.player == p]
        wins = int(rows.won.sum())
        low, high = wilson(wins, n)
        row = {"player": player.name, **({"team": rows.team.iloc[0]} if "team" in df and n else {}),
               "wins": wins, "rate": wins / n if n else 0.0, "ci_low": low, "ci_high": high}
        for column in rs.play_columns:
            row[f"{column}_per_game"] = float(rows[column].mean()) if n else 0.0
        players.append(row)
    reasons = per_game.reason.value_counts().to_dict()
    return {
        "ruleset": rs.id, "games": n, "seed": df.attrs.get("seed"), "players": players,
        "mean_turns": float(per_game.turns.mean()) if n else 0.0,
        "reasons": {k: int(v) for k, v in reasons.items()},
        "mean_dice_per_game": float(per_game.dice.mean()) if n else 0.0,
    }


def load_game_kernels(config, console: Console | None = None) -> dict:
    """Compile the game kernels, or load them from numba's disk cache, under a status line on
    stderr (the first run on a machine compiles them for a few minutes); a compile is announced
    when it ends. Returns `sim.play.warm_up`'s dict."""
    console = console or Console(stderr=True)
    with console.status("loading the game kernels (the first run on a machine compiles them: "
                        "about 4 minutes on 2 cores, then they are cached)"):
        loaded = warm_up(config)
    if loaded["source"] == "compiled":
        console.print(f"compiled the game kernels in {loaded['seconds']:.0f} s; later runs load them from the cache")
    return loaded


def run_play(config, n_games: int, seed: int, show_progress: bool = True,
             batch_size: int = 2048) -> pd.DataFrame:
    """Play with a progress bar on stderr (rich) for long runs."""
    if show_progress:
        load_game_kernels(config)
    if not show_progress or n_games < 2 * batch_size:
        return play(config, n_games, seed, batch_size=batch_size)
    columns = (TextColumn("playing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("games", total=n_games)
        return play(config, n_games, seed, batch_size=batch_size, progress=lambda k: bar.advance(task, k))


def render_summary(summary: dict, console: Console) -> None:
    rs = ruleset_of_id(summary["ruleset"])
    table = Table(title=f"{summary['games']} games, seed {summary['seed']}")
    extra = [k for k in summary["players"][0] if k.endswith("_per_game")] if summary["players"] else []
    teams = ["team"] if summary["players"] and "team" in summary["players"][0] else []
    per_game = [k.removesuffix("_per_game").replace("_", " ") + "/game" for k in extra]
    columns = ["player", *teams, rs.win_word + " rate", "95% CI", *per_game]
    for col in columns:
        table.add_column(col, justify="left" if col in ("player", "team") else "right")
    for p in summary["players"]:
        table.add_row(p["player"], *([p["team"]] if "team" in p else []), f"{p['rate']:.1%}",
                      f"{p['ci_low']:.1%} - {p['ci_high']:.1%}", *(f"{p[k]:.2f}" for k in extra))
    console.print(table)
    reasons = ", ".join(f"{k} {v / summary['games']:.1%}" for k, v in summary["reasons"].items())
    console.print(f"mean game length {summary['mean_turns']:.2f} turns; ends: {reasons}; "
                  f"{summary['mean_dice_per_game']:.0f} dice per game")


def write_atomic(df: pd.DataFrame, path: Path) -> None:
    """Write parquet or CSV (by suffix) to a temp file in the same folder, then rename."""
    path = Path(path)
    if path.suffix not in (".parquet", ".csv"):
        raise ValueError(f"--out {path}: allowed suffixes: .parquet, .csv")
    if not path.parent.exists():
        raise ValueError(f"--out {path}: folder {path.parent} does not exist")
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        frame = df.copy()
        frame.attrs = {}
        if path.suffix == ".parquet":
            frame.to_parquet(tmp, index=False)
        else:
            frame.to_csv(tmp, index=False)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def summary_json(summary: dict) -> str:
    return json.dumps(summary, indent=2)
