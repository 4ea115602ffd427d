"""Play many games of a configuration and return tidy results (design.md decision 6).

``play(config, n_games, seed)`` plays games ``0 .. n_games-1`` of stream ``seed`` with the
config's ruleset (``sim.ruleset``) in batches (bounded memory) and returns one row per
(game, player): the common columns (``sim.ruleset.COMMON_COLUMNS``), then the ruleset's own.
Game i depends only on (seed, i): batch size and thread count never change a result.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import numba
import numpy as np
import pandas as pd

from kernels.jit import JIT_DISABLED, cache_dir, cached_overloads, entry_point
from kernels.rng import draws_between, new_streams
from sim.ruleset import Ruleset, ruleset_of

DEFAULT_BATCH = 2048
TRACE_EVENTS = 20_000


def _kernel(ruleset: Ruleset):
    """The dispatcher that runs a batch from Python (its compiled twin; the plain function
    when the JIT is off or the tests swapped in ``py_func``)."""
    return entry_point(ruleset.play_batch)


def warm_up(config, tables=None) -> dict:
    """Compile the config's game kernels (or load them from the disk cache) on an empty batch.

    Returns ``{"seconds", "source"}`` with source "compiled", "disk cache", "already loaded" or
    "JIT disabled". A compile's duration is recorded beside the cache (``compile.json``), so a
    later run can report the one-off compile time without paying it again (`recorded_compile`).
    """
    rs = ruleset_of(config)
    kernel = _kernel(rs)
    if JIT_DISABLED or not hasattr(kernel, "signatures"):  # the tests' plain-Python kernels
        return {"seconds": 0.0, "source": "JIT disabled"}
    if kernel.signatures:
        return {"seconds": 0.0, "source": "already loaded"}
    tables = rs.compile(config) if tables is None else tables
    state = rs.new_state(config, tables, 0)
    start = time.perf_counter()
    kernel(state, tables, np.uint64(1), np.int64(0), False, np.empty(0, np.uint64))
    seconds = time.perf_counter() - start
    compiled = sum(kernel.stats.cache_misses.values()) > 0
    if compiled:
        _record_compile(rs, seconds)
    return {"seconds": seconds, "source": "compiled" if compiled else "disk cache"}


def is_cached(config) -> bool:
    """Whether the disk cache holds the config's game kernels (compiled from these sources):
    `warm_up` would load them, not compile them. The plain-Python kernels count as cached."""
    kernel = _kernel(ruleset_of(config))
    if JIT_DISABLED or not hasattr(kernel, "signatures"):
        return True
    return bool(kernel.signatures) or cached_overloads(kernel) > 0


def _exit_with_parent(parent: int, every: float = 0.5) -> None:
    """A warm-up process's initializer: a daemon thread ends the process once its parent ``parent``
    is gone. A report killed by SIGTERM runs no clean-up, and its compiles would otherwise go on
    to their end (minutes) before writing the cache. Nothing is left half-written: numba writes
    each cache file under a temporary name and renames it."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def _warm_up_worker(config) -> dict:
    """A warm-up process's work: compile one ruleset's game kernels into the disk cache."""
    return warm_up(config)


def warm_up_all(configs, processes: int | None = None) -> dict[str, dict]:
    """Compile the game kernels of several rulesets at once, then load them here.

    The configs whose kernels the disk cache lacks (`is_cached`; one per ruleset) are compiled in
    fresh processes (spawned: design.md pitfall), at most ``processes`` at a time (default: one
    per core): a compile runs on one core, so the first run on a fresh machine, which compiles
    every ruleset, takes about as long as the slowest compiles per core rather than their sum.
    Every config is then warmed up in this process (`warm_up`: a load from the cache; a compile
    here if a process failed). Returns ``{ruleset id: warm_up's dict}``; a ruleset compiled in a
    process says ``"source": "compiled"`` with that process's compile time."""
    by_ruleset = {}
    for config in configs:
        by_ruleset.setdefault(ruleset_of(config).id, config)
    cold = {rid: c for rid, c in by_ruleset.items() if not is_cached(c)}
    compiled = {}
    workers = min(len(cold), processes or os.cpu_count() or 1)
    if workers > 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                 initializer=_exit_with_parent, initargs=(os.getpid(),)) as pool:
            futures = {rid: pool.submit(_warm_up_worker, c) for rid, c in cold.items()}
            for rid, future in futures.items():
                with contextlib.suppress(Exception):  # a failed process: compiled here below
                    compiled[rid] = future.result()
    loaded = {rid: warm_up(c) for rid, c in by_ruleset.items()}
    return {rid: compiled.get(rid, done) if done["source"] == "disk cache" else done for rid, done in loaded.items()}


def _record_compile(rs: Ruleset, seconds: float) -> None:
    path = cache_dir(rs.kernels_package) / "compile.json"
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"seconds": seconds, "when": time.strftime("%Y-%m-%d %H:%M:%S")}))
        os.replace(tmp, path)


def recorded_compile(config) -> dict | None:
    """The last recorded cold compile of the config's kernels (seconds, when), else the newest one
    recorded here for an earlier version of its kernels package (with ``"earlier": True``: an edit
    of the kernels changes the cache folder, not much the compile time), or None."""
    folder = cache_dir(ruleset_of(config).kernels_package)
    found = _read_record(folder / "compile.json")
    if found is not None:
        return found
    package = folder.name.rsplit("-", 1)[0]
    earlier = [r for r in map(_read_record, folder.parent.glob(f"{package}-*/compile.json")) if r is not None]
    return {**max(earlier, key=lambda r: str(r.get("when", ""))), "earlier": True} if earlier else None


def _read_record(path: Path) -> dict | None:
    try:
        record = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) and isinstance(record.get("seconds"), int | float) else None


def run_batches(config, n_games: int, seed: int, batch_size: int = DEFAULT_BATCH, first_game: int = 0,
                check: bool = False, tables=None, progress: Callable[[int], None] | None = None,
                trace_events: int = 0, threads: int | None = None):
    """Yield (first game, state, dice) for each batch played, in game order (``dice``: the random
    draws of each game of the batch).

    Batches run on ``threads`` threads (default: numba's thread count), each batch with its own
    state and copy of the tables; at most two batches per thread are in flight, so memory is
    bounded whatever ``n_games``. A yielded state is reused once the caller asks for the next.
    """
    if n_games < 0:
        raise ValueError(f"n_games = {n_games}; allowed: 0 or more")
    if not 0 <= seed < 2**63:
        raise ValueError(f"seed = {seed}; allowed: an integer 0 <= seed < 2**63")
    if not 1 <= batch_size <= 1_000_000:
        raise ValueError(f"batch_size = {batch_size}; allowed: 1-1000000")
    rs = ruleset_of(config)
    tables = rs.compile(config) if tables is None else tables
    warm_up(config, tables)  # the one-off compile (recorded), outside any batch
    kernel, workers = _kernel(rs), _workers(rs, threads)
    size = _batch_size(n_games, batch_size, workers)
    chunks = [(first_game + k, min(size, n_games - k)) for k in range(0, n_games, size)] if n_games else []
    with ThreadPoolExecutor(max_workers=workers) as pool:
        free = [(rs.new_state(config, tables, size, trace_events), type(tables)(*(a.copy() for a in tables)))
                for _ in range(min(len(chunks), 2 * workers))]
        running: deque = deque()
        for start, count in chunks:
            if not free:
                yield _collect(running.popleft(), seed, progress, free)
            state, own = free.pop()
            st = state if count == size else rs.head(state, count)
            rng = np.empty(count, np.uint64)
            submit = pool.submit if workers > 1 else _at_once  # one thread: in this one (numpy error state)
            future = submit(kernel, st, own, np.uint64(seed), np.int64(start), check, rng)
            running.append((start, count, st, rng, future, (state, own)))
        while running:
            yield _collect(running.popleft(), seed, progress, free)


def _at_once(fn, *args) -> Future:
    done: Future = Future()
    done.set_result(fn(*args))
    return done


def _collect(item, seed: int, progress, free: list):
    start, count, st, rng, future, slot = item
    future.result()
    dice = draws_between(new_streams(seed, count, start), rng)
    if progress is not None:
        progress(count)
    free.append(slot)  # reused for a later batch only after the caller has moved on
    return start, st, dice


def _workers(rs: Ruleset, threads: int | None) -> int:
    if JIT_DISABLED or not hasattr(_kernel(rs), "signatures"):
        return 1  # plain-Python kernels hold the GIL
    return threads or numba.get_num_threads()


def _batch_size(n_games: int, batch_size: int, workers: int) -> int:
    """Batches of at most ``batch_size`` games, evened out so every thread gets the same share."""
    if n_games == 0:
        return 0
    rounds = -(-n_games // (workers * batch_size))
    return max(1, min(batch_size, -(-n_games // (workers * rounds))))


def play(config, n_games: int, seed: int, batch_size: int = DEFAULT_BATCH, first_game: int = 0,
         check: bool = False, progress: Callable[[int], None] | None = None, tables=None) -> pd.DataFrame:
    """Play ``n_games`` games; one row per (game, player): ``sim.ruleset.COMMON_COLUMNS`` (ruleset,
    game, player, name, won, game_winner, reason, turns, dice), then the ruleset's own columns.
    ``df.attrs`` holds the seed and, with ``check``, the invariant violations found. ``tables``:
    the config's compiled tables when the caller has them (None: compiled here).
    """
    rs = ruleset_of(config)
    frames, violations = [], 0
    for start, st, dice in run_batches(config, n_games, seed, batch_size, first_game, check, tables,
                                       progress=progress):
        frames.append(rs.results(config, st, start, dice))
        violations += rs.violations(st)
    df = pd.concat(frames, ignore_index=True) if frames else rs.results(config, None, 0, np.zeros(0, np.int64))
    df.attrs.update(ruleset=rs.id, seed=seed, n_games=n_games, first_game=first_game, violations=violations)
    return df


def games(df: pd.DataFrame) -> pd.DataFrame:
    """One row per game (winner, reason, turns, dice)."""
    return df.groupby("game", sort=True).first()[["game_winner", "reason", "turns", "dice"]].reset_index()


def trace_game(config, seed: int, game: int) -> tuple[np.ndarray, pd.DataFrame]:
    """Play game ``game`` of stream ``seed`` alone, recording every event (the ruleset's event
    columns). The game is the same as in any batch: its dice depend on (seed, game) only."""
    rs = ruleset_of(config)
    for start, st, dice in run_batches(config, 1, seed, 1, game, False, trace_events=TRACE_EVENTS):
        return rs.events(st), rs.results(config, st, start, dice)
    raise AssertionError("unreachable")
