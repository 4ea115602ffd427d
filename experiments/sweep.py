"""`shamble sweep`: play every cell of an experiment, checkpoint each cell, combine the results.

Layout of an output folder::

    DIR/meta.json            experiment hash, seed, versions, start/finish times
    DIR/cells/<key>.parquet  one file per finished cell (one row per game x player), written
                             atomically (temp file + rename) the moment the cell finishes
    DIR/results.parquet      every cell's rows, with the cell key and the axis values as columns
    DIR/summary.csv          one row per cell x player: win rate and its 95% Wilson interval

**Resume.** Rerunning the same command skips every cell whose checkpoint is present: each
checkpoint carries (in its parquet metadata) the experiment hash, its cell key, seed, games and
a checksum of its rows, and is verified before use; a corrupted file or one written by another
experiment is refused with a message, never silently reused. A finished cell's games depend only
on (seed, game index), so an interrupted and resumed sweep ends with the same tables as an
uninterrupted one. A changed experiment (another hash) is refused unless ``fresh``, which
deletes the old checkpoints first.

**Runners.** In-process (the default: numba threads, no services) or Dask distributed
(``dask="local"`` starts a LocalCluster of spawned worker processes; an address joins an
existing scheduler). Both call the same top-level task, ``run_cell``, so results are identical.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from rich.console import Console

from experiments import sequential
from experiments.experiment import Cell, Experiment, ExperimentError, experiment_summary
from experiments.progress import Bars, load_game_kernels
from experiments.stats import wilson_halfwidth, wilson_interval
from sim.files import atomic_path
from sim.play import play
from sim.ruleset import rules_version, ruleset_of

CELLS = "cells"
META_KEY = b"shamble"
DEPENDENCIES = ("numpy", "numba", "pandas", "scipy", "pyarrow", "dask", "distributed", "matplotlib", "jinja2")
BATCH = 512  # games per kernel call: small enough that Ctrl-C is felt within a second or two
FIRST_BATCH = sequential.FIRST_BATCH  # sequential sampling: games before the first look at the interval width


class CheckpointError(ExperimentError):
    """A checkpoint that cannot be trusted (corrupted, or written by another experiment)."""


# ---------------------------------------------------------------------------- the cell task


def run_cell(config, n_games: int, seed: int, first_game: int = 0,
             progress: Callable[[int], None] | None = None) -> pd.DataFrame:
    """Play games ``first_game .. first_game + n_games - 1`` of ``seed`` (the task of every runner).

    A top-level function, so Dask workers can import it; game ``i`` depends only on
    ``(seed, i)``, never on the runner, batch or thread count.
    """
    df = play(config, n_games, seed, batch_size=BATCH, first_game=first_game, progress=progress)
    df.attrs = {}
    return df


def run_cell_to_halfwidth(config, max_games: int, seed: int, target: float,
                          progress: Callable[[int], None] | None = None) -> pd.DataFrame:
    """Fixed-width sequential sampling: add games until every player's Wilson half-width <= target.

    Games are played in growing batches (``FIRST_BATCH``, then half again the games so far) from
    game 0 on, so the result is always a prefix of the same game stream and pairs with every
    other cell; ``max_games`` caps the cell. The rule looks at interval widths only (precision),
    never at a comparison (stats module docstring).
    """
    frames = []
    for first, step in sequential.schedule(max_games, FIRST_BATCH):
        frames.append(run_cell(config, step, seed, first_game=first, progress=progress))
        done = first + step
        wins = pd.concat(frames).groupby("player").won.sum().to_numpy()
        if np.all(wilson_halfwidth(wins, done) <= target):
            break
    return pd.concat(frames, ignore_index=True)


def _task(config, n_games: int, seed: int, target: float | None,
          progress: Callable[[int], None] | None = None) -> pd.DataFrame:
    if target is None:
        return run_cell(config, n_games, seed, progress=progress)
    return run_cell_to_halfwidth(config, n_games, seed, target, progress=progress)


# ---------------------------------------------------------------------------- checkpoints


def _checksum(df: pd.DataFrame) -> str:
    hashed = pd.util.hash_pandas_object(df, index=False).to_numpy()
    return hashlib.blake2b(hashed.tobytes(), digest_size=12).hexdigest()


_atomic = atomic_path  # a temp path beside the target, renamed onto it (sim.files)


def write_checkpoint(df: pd.DataFrame, path: Path, stamp: dict) -> None:
    """One cell's rows as parquet, with ``stamp`` and a checksum in the file's metadata."""
    table = pa.Table.from_pandas(df, preserve_index=False)
    meta = dict(table.schema.metadata or {})
    meta[META_KEY] = json.dumps(stamp | {"checksum": _checksum(df)}).encode()
    with _atomic(path) as tmp:
        pq.write_table(table.replace_schema_metadata(meta), tmp)


def read_checkpoint(path: Path, stamp: dict) -> pd.DataFrame:
    """A cell's rows, after checking the file is whole and belongs to this cell of this experiment."""
    try:
        table = pq.read_table(path)
        df = table.to_pandas()
        stored = json.loads((table.schema.metadata or {})[META_KEY])
    except (OSError, KeyError, ValueError, pa.ArrowException) as err:
        raise CheckpointError(f"{path}: corrupted checkpoint ({type(err).__name__}); delete it to replay "
                              "the cell, or rerun with --fresh") from None
    for name, value in stamp.items():
        if stored.get(name) != value:
            raise CheckpointError(f"{path}: checkpoint of another experiment ({name} {stored.get(name)!r}, "
                                  f"expected {value!r}); delete it or rerun with --fresh")
    if stored.get("checksum") != _checksum(df):
        raise CheckpointError(f"{path}: corrupted checkpoint (its rows do not match its checksum); "
                              "delete it to replay the cell, or rerun with --fresh")
    return df


def _stamp(exp_hash: str, cell: Cell, exp: Experiment) -> dict:
    return {"experiment": exp_hash, "cell": cell.key, "seed": exp.seed, "max_games": exp.games}


# ---------------------------------------------------------------------------- meta


def _git_commit() -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).parent, capture_output=True,
                             text=True, timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def _versions() -> dict:
    found = {}
    for name in ("shamble", *DEPENDENCIES):
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            found[name] = None
    return found


def run_meta(exp: Experiment, exp_hash: str) -> dict:
    """Everything needed to say what produced a folder of results."""
    return {
        "experiment_hash": exp_hash, "seed": exp.seed, "experiment": experiment_summary(exp),
        "rules_version": rules_version(exp.base.ruleset),
        "package_version": _versions()["shamble"], "git_commit": _git_commit(), "versions": _versions(),
        "python": sys.version.split()[0], "platform": platform.platform(), "cpus": os.cpu_count(),
        "started": now(), "finished": None,
    }


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def write_json(data: dict, path: Path) -> None:
    with _atomic(path) as tmp:
        tmp.write_text(json.dumps(data, indent=2, default=str) + "\n")


def _prepare_folder(out: Path, exp: Experiment, exp_hash: str, fresh: bool) -> dict:
    """Create or reuse ``out``: refuse another experiment's folder unless ``fresh``."""
    meta_path = out / "meta.json"
    if meta_path.exists() and not fresh:
        try:
            old = json.loads(meta_path.read_text())
        except ValueError:
            raise CheckpointError(f"{meta_path}: unreadable; rerun with --fresh to start over") from None
        rules = rules_version(exp.base.ruleset)
        if old.get("experiment_hash") != exp_hash and old.get("rules_version") not in (None, rules):
            raise ExperimentError(f"{out}: was played by other rules of {exp.base.ruleset} (version "
                                  f"{old['rules_version']}, now {rules}: the kernels or rule files changed); rerun "
                                  "with --fresh to replay it, or choose another --out")
        if old.get("experiment_hash") != exp_hash:
            raise ExperimentError(f"{out}: holds results of another experiment (hash {old.get('experiment_hash')}, "
                                  f"now {exp_hash}); rerun with --fresh to replace them, or choose another --out")
        return old | {"resumed": now()}
    if fresh and out.exists():
        shutil.rmtree(out / CELLS, ignore_errors=True)
        for name in ("results.parquet", "summary.csv", "meta.json"):
            (out / name).unlink(missing_ok=True)
    (out / CELLS).mkdir(parents=True, exist_ok=True)
    meta = run_meta(exp, exp_hash)
    write_json(meta, meta_path)
    return meta


# ---------------------------------------------------------------------------- the sweep


@dataclass
class SweepResult:
    """What a sweep wrote and played."""

    out: Path
    results: pd.DataFrame  # one row per cell x game x player
    summary: pd.DataFrame  # one row per cell x player
    meta: dict
    played: int  # cells played by this call
    reused: int  # cells read from checkpoints
    base: object | None = None  # the experiment's base config


def check_playable(cells: list[Cell]) -> None:
    """Compile every cell's tables before playing any (a cell that cannot play stops the sweep)."""
    for cell in cells:
        try:
            ruleset_of(cell.config).compile(cell.config)
        except ValueError as err:
            raise ExperimentError(f"cell {cell.label}: {err}") from None


def sweep(exp: Experiment, out: Path, fresh: bool = False, dask: str | None = None,
          console: Console | None = None, show_progress: bool = True, label: str | None = None) -> SweepResult:
    """Play every unfinished cell of ``exp`` into ``out`` and write the combined tables.

    Parameters
    ----------
    exp : Experiment
    out : Path
        Output folder (created); see the module docstring for its layout and resume rules.
    fresh : bool
        Delete the folder's previous checkpoints first (required when the experiment changed).
    dask : str, optional
        ``"local"`` for a LocalCluster, or a scheduler address; None plays in this process.
    """
    out = Path(out)
    cells = exp.cells()
    check_playable(cells)
    exp_hash = exp.fingerprint()
    meta = _prepare_folder(out, exp, exp_hash, fresh)
    paths = {c.key: out / CELLS / f"{c.key}.parquet" for c in cells}
    done = {c.key: read_checkpoint(paths[c.key], _stamp(exp_hash, c, exp)) for c in cells if paths[c.key].exists()}
    pending = [c for c in cells if c.key not in done]

    def finished(cell: Cell, df: pd.DataFrame) -> None:
        write_checkpoint(df, paths[cell.key], _stamp(exp_hash, cell, exp))
        done[cell.key] = df

    if pending and show_progress and not dask:
        load_game_kernels(pending[0].config, console)
    with Bars(console, show_progress) as bars:
        cell_bars = _CellBars(bars, len(cells), len(cells) - len(pending), exp, len(pending), label)
        if exp.rule:
            _run_rounds(exp, cells, pending, done, finished, cell_bars, dask)
        else:
            runner = _run_dask if dask else _run_here
            runner(exp, pending, finished, cell_bars, dask)
    results = combine(exp, cells, done)
    summary = summarise_cells(results, exp)
    write_table(results, out / "results.parquet")
    write_table(summary, out / "summary.csv")
    meta["finished"] = now()
    write_json(meta, out / "meta.json")
    return SweepResult(out, results, summary, meta, len(pending), len(cells) - len(pending), exp.base)


def _float_text(x: float) -> str:
    """Six significant digits that read back as a float: 0.0, not 0 (docs/results.md types)."""
    return repr(float(f"{x:.6g}"))


def write_table(df: pd.DataFrame, path: Path) -> None:
    """Parquet or CSV by suffix, atomically; a CSV's float columns read back as floats."""
    with _atomic(path) as tmp:
        if path.suffix == ".csv":
            df.to_csv(tmp, index=False, float_format=_float_text)
        else:
            df.to_parquet(tmp, index=False)


class _CellBars:
    """A sweep's two progress bars (`experiments.progress.Bars`), cells and games."""

    def __init__(self, bars: Bars, n_cells: int, n_done: int, exp: Experiment, n_pending: int,
                 label: str | None = None) -> None:
        self.bars, self.per_cell, self.played = bars, exp.games, 0
        # a report names the section and ruleset being played beside its bars
        self.cells = bars.add(f"{label}: cells" if label else "cells", total=n_cells, completed=n_done)
        self.games = bars.add(f"{label}: games" if label else "games", total=exp.games * n_pending)

    def advance_games(self, k: int) -> None:
        self.played += k
        self.bars.advance(self.games, k)

    def advance_only(self, k: int) -> None:
        """Games played by a cell of interleaved rounds (`cell_stopped` settles the bar)."""
        self.bars.advance(self.games, k)

    def cell_stopped(self, games: int) -> None:
        """A cell of interleaved rounds stopped after ``games``: skip what it did not need."""
        self.bars.advance(self.cells)
        self.bars.advance(self.games, self.per_cell - games)

    def cell_done(self) -> None:
        """A cell finished: the games bar skips what sequential sampling did not need."""
        self.bars.advance(self.cells)
        self.bars.advance(self.games, self.per_cell - self.played)
        self.played = 0


def _run_here(exp: Experiment, pending: list[Cell], finished, bars: _CellBars, _address=None) -> None:
    if len(pending) < 2 or CELLS_AT_ONCE < 2:
        for cell in pending:
            finished(cell, _task(cell.config, exp.games, exp.seed, exp.target_halfwidth, progress=bars.advance_games))
            bars.cell_done()
        return
    # ``CELLS_AT_ONCE`` cells at a time, as a round's (`play_cells`); each checkpointed as it finishes
    with threads(CELLS_AT_ONCE, "sweep-cells") as submit:
        futures = {submit(_task, c.config, exp.games, exp.seed, exp.target_halfwidth, bars.advance_only): c
                   for c in pending}
        for future in as_completed(futures):
            df = future.result()
            finished(futures[future], df)
            bars.cell_stopped(df.game.nunique())


def _run_dask(exp: Experiment, pending: list[Cell], finished, bars: _CellBars, address: str) -> None:
    from distributed import as_completed

    with dask_client(address) as client:
        futures = {client.submit(_task, c.config, exp.games, exp.seed, exp.target_halfwidth, key=f"cell-{c.key}",
                                 pure=False): c for c in pending}
        for future in as_completed(futures):
            finished(futures[future], future.result())
            bars.cell_done()


def _run_rounds(exp: Experiment, cells: list[Cell], pending: list[Cell], done: dict, finished, bars: _CellBars,
                address: str | None = None) -> None:
    """Sequential sampling by each cell's question (`experiments.sequential`): every pending cell
    plays the same rounds, in this process or on Dask, until its interval is narrow enough."""
    by_key = {c.key: c for c in cells}
    key_of = {c.label: c.key for c in cells}
    pairs = {key_of[a]: key_of[b] for a, b in exp.pairs if a in key_of and b in key_of}

    def stopped(key: str, df: pd.DataFrame) -> None:
        finished(by_key[key], df)
        bars.cell_stopped(df.game.nunique())

    def play_here(tasks):
        return play_cells([(by_key[k].config, k, first, n) for k, first, n in tasks], exp.seed, bars.advance_only)

    def rounds(play) -> None:
        sequential.play_rounds([c.key for c in pending], exp.games, exp.target_halfwidth, play, pairs, exp.outcome,
                               dict(done), stopped)

    if not address:
        rounds(play_here)
        return
    with dask_client(address) as client:
        def play_dask(tasks):
            futures = {k: client.submit(run_cell, by_key[k].config, n, exp.seed, first, pure=False)
                       for k, first, n in tasks}
            got = {k: f.result() for k, f in futures.items()}
            for df in got.values():
                bars.advance_only(df.game.nunique())
            return got

        rounds(play_dask)


CELLS_AT_ONCE = 2  # cells of a round played at once in this process (`play_cells`)


def play_cells(tasks: list[tuple], seed: int, progress: Callable[[int], None] | None = None) -> dict:
    """A round of sequential sampling in this process: ``tasks`` = [(config, key, first game,
    games)] -> {key: `run_cell`'s rows}, ``CELLS_AT_ONCE`` cells at a time in threads.

    The game kernels release the GIL and play on numba's threads; a cell's own work around them
    (its tables, states and result frame: pandas) holds one core. Played one after the other, the
    other core idles meanwhile; two at a time, one cell's Python work overlaps the other's games.
    A cell's rows are those it plays alone (game i depends only on (seed, i))."""
    rows = at_once([(run_cell, c, n, seed, first, progress) for c, _, first, n in tasks])
    return dict(zip([k for _, k, _, _ in tasks], rows))


def at_once(calls: list[tuple]) -> list:
    """``fn(*args)`` of each call ``(fn, *args)``, ``CELLS_AT_ONCE`` at a time in threads (`threads`),
    their results in order: what plays games in numba's threads (`play_cells`, a tune's candidates)
    overlaps one call's Python work with another's games. On an error or Ctrl-C the calls not
    started are dropped; those started finish."""
    if len(calls) < 2 or CELLS_AT_ONCE < 2:
        return [fn(*args) for fn, *args in calls]
    with threads(CELLS_AT_ONCE, "at-once") as submit:
        futures = [submit(*call) for call in calls]
        return [future.result() for future in futures]


@contextlib.contextmanager
def threads(n: int, name: str):
    """A pool of ``n`` threads named ``name``, as its ``submit(fn, *args) -> Future``: each call
    runs in a copy of the submitting thread's context (numpy's error state is a context variable:
    the plain-Python kernels run under the caller's). On leaving, the calls not started are
    dropped (an error, a Ctrl-C) and those started finish."""
    pool = ThreadPoolExecutor(n, thread_name_prefix=name)
    try:
        yield lambda fn, *args: pool.submit(contextvars.copy_context().run, fn, *args)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


@contextlib.contextmanager
def dask_client(address: str):
    """A dask.distributed Client: ``"local"`` starts a LocalCluster (one single-threaded spawned
    worker process per core), anything else is a scheduler address."""
    from distributed import Client, LocalCluster

    if address != "local":
        with Client(address) as client:
            yield client
        return
    workers = max(1, min(os.cpu_count() or 1, 8))
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                      env={"NUMBA_NUM_THREADS": "1"}) as cluster, Client(cluster) as client:
        yield client


# ---------------------------------------------------------------------------- tables


def combine(exp: Experiment, cells: list[Cell], frames: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Every cell's rows in cell order, with ``cell`` and one column per axis in front."""
    parts, axes = [], {a.name: a for a in exp.axes}
    for cell in cells:
        df = frames[cell.key].copy()
        front = {"cell": cell.key} | {f"axis_{a}": axes[a].column_value(v) for a, v in cell.coords}
        for k, (name, value) in enumerate(front.items()):
            df.insert(k, name, value)
        parts.append(df)
    return pd.concat(parts, ignore_index=True)


def summarise_cells(results: pd.DataFrame, exp: Experiment | None = None) -> pd.DataFrame:
    """One row per cell x player: games, wins, rate, 95% Wilson interval and half-width, mean
    game length (and the player's team, where the ruleset has teams); and, for every cell after
    the first, the paired comparison with the first cell on their common games: the difference
    ``vs_first`` with its 95% score interval, its score-test p-value and the variance ratio of
    the pairing (1 = the shared games gain nothing over independent samples)."""
    axes = [c for c in results.columns if c.startswith("axis_")]
    keys = ["cell", *axes, "player", "name", *(["team"] if "team" in results.columns else [])]
    grouped = results.groupby(keys, sort=False, dropna=False)
    table = grouped.agg(games=("game", "size"), wins=("won", "sum"), mean_turns=("turns", "mean"))
    table = table.reset_index()
    table["rate"] = table.wins / table.games
    low, high = wilson_interval(table.wins, table.games)
    table["ci_low"], table["ci_high"] = low, high
    table["halfwidth"] = (high - low) / 2
    return table.merge(_versus_first(results), on=["cell", "player"], how="left")


def _versus_first(results: pd.DataFrame) -> pd.DataFrame:
    from experiments.compare import paired_table

    cells = list(pd.unique(results.cell))
    columns = ["cell", "player", "vs_first", "vs_first_low", "vs_first_high", "vs_first_p", "variance_ratio"]
    seats = results.groupby("cell", sort=False).apply(lambda r: tuple(sorted(set(zip(r["player"], r["name"])))),
                                                      include_groups=False)
    first = set(seats[cells[0]])
    # a seat-by-seat pairing of the seats a cell shares with the first (the same place and player:
    # a posse_size sweep's Legend in every cell), the others blank
    shared = [c for c in cells[1:] if set(seats[c]) & first]
    if not shared:
        return pd.DataFrame(columns=columns)
    paired = paired_table(results, "cell", cells[0], shared)
    name_of = {c: dict(seats[c]) for c in shared}
    paired = paired[[(p, name_of[c].get(p)) in first for c, p in zip(paired.label, paired.player)]]
    return paired.rename(columns={"label": "cell", "diff": "vs_first", "ci_low": "vs_first_low",
                                  "ci_high": "vs_first_high", "p_value": "vs_first_p"})[columns]


# ---------------------------------------------------------------------------- command line


def sweep_file(path: Path, out: Path, games: int | None = None, target_halfwidth: float | None = None,
               fresh: bool = False, dask: str | None = None, console: Console | None = None,
               show_progress: bool = True) -> SweepResult:
    """`shamble sweep`: read an experiment file, resize it as asked, print the plan, sweep."""
    from experiments.experiment import load_experiment

    if games is not None and games < 1:
        raise ValueError(f"--games {games}; allowed: 1 or more")
    exp = load_experiment(path).resized(games, target_halfwidth)
    if console is not None:
        how = f"up to {exp.games} games until every half-width <= {exp.target_halfwidth:g}" \
            if exp.target_halfwidth else f"{exp.games} games"
        console.print(f"{exp.name}: {len(exp.cells())} cells x {how}, seed {exp.seed} (the same games in "
                      f"every cell), {'dask ' + dask if dask else 'in-process'} -> {out}")
    return sweep(exp, out, fresh=fresh, dask=dask, console=console, show_progress=show_progress)


def _turns_by_cell(results: pd.DataFrame | None) -> dict:
    """cell -> '14.6 (14.3-14.8)': the mean game length of the cell's games with its 95% interval."""
    from experiments.play_summary import mean_interval

    if results is None or not len(results):
        return {}
    per_game = results.groupby(["cell", "game"], sort=False).turns.first()
    out = {}
    for cell, turns in per_game.groupby(level=0, sort=False):
        low, high = mean_interval(turns.to_numpy())
        out[cell] = f"{turns.mean():.1f} ({low:.1f}-{high:.1f})"
    return out


def render_sweep(result: SweepResult, console: Console) -> None:
    """The summary table: one row per cell x player."""
    from rich.table import Table

    summary = result.summary
    same_games = summary.games.nunique() == 1
    one_player = summary.player.nunique() == 1
    per_cell = f", {int(summary.games.iloc[0])} games each" if same_games and len(summary) else ""
    table = Table(title=f"{len(summary.cell.unique())} cells{per_cell} ({result.played} played now, "
                        f"{result.reused} resumed from checkpoints)")
    axes = [c for c in summary.columns if c.startswith("axis_")]
    rate = f"{ruleset_of(result.base).win_word} rate" if result.base is not None else "win rate"
    numbers = (*(() if same_games else ("games",)), rate, "95% CI", "vs first", "pairing", "turns (95% CI)")
    length = _turns_by_cell(result.results)
    for col in (*[a[5:] for a in axes], *(() if one_player else ("player",)), *numbers):
        table.add_column(col, justify="right" if col in numbers else "left", overflow="fold")
    for row in summary.to_dict("records"):
        versus = "" if pd.isna(row["vs_first"]) else \
            f"{row['vs_first'] * 100:+.1f} ({row['vs_first_low'] * 100:+.1f}, {row['vs_first_high'] * 100:+.1f})"
        pairing = "" if pd.isna(row["variance_ratio"]) else f"{row['variance_ratio']:.2f}"
        table.add_row(*[str(row[a]) for a in axes], *(() if one_player else (row["name"],)),
                      *(() if same_games else (str(row["games"]),)), f"{row['rate']:.1%}",
                      f"{row['ci_low'] * 100:.1f}-{row['ci_high'] * 100:.1f}%", versus, pairing,
                      length.get(row["cell"], ""))
    console.print(table)
    console.print("vs first: the paired difference from the first cell on the same games, in points, with its "
                  "95% interval (blank: the first cell has no such player in that seat); pairing: the variance ratio "
                  "var(a - b) / (var(a) + var(b)) (1 = the shared games gain nothing); turns: the mean game length "
                  "with its 95% interval", soft_wrap=True, highlight=False, markup=False)
    console.print(f"wrote {result.out / 'results.parquet'}, {result.out / 'summary.csv'}, {result.out / 'meta.json'}")
