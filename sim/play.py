"""Play many games of a configuration and return tidy results (design.md decision 6).

``play(config, n_games, seed)`` plays games ``0 .. n_games-1`` of stream ``seed`` in batches
(bounded memory: one batch of state at a time) and returns one row per (game, player).
Game i depends only on (seed, i): batch size and thread count never change a result.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

import numba
import numpy as np
import pandas as pd

from kernels.jit import JIT_DISABLED, cache_dir, entry_point
from kernels.rng import draws_between, new_streams
from kernels.zombie40k import columns as GL
from kernels.zombie40k.state import GameState, Tables, head, new_state
from kernels.zombie40k.turn import play_batch
from sim.rulesets.zombie40k.compile import compile_tables, n_units
from sim.rulesets.zombie40k.config import GameConfig

REASONS = {GL.REASON_ESCAPE: "escape", GL.REASON_TIMEOUT: "timeout", GL.REASON_ALL_DEAD: "all_dead",
           GL.REASON_COOP_WIN: "coop_win"}
POWERUP_NAMES = {2: "zombie_bile", 3: "banana_peel", 4: "ork_boy", 5: "duct_tape", 6: "chainsaw", 7: "medpack",
                 8: "shotgun", 9: "mushroom", 10: "defibrillator", 11: "shades", 12: "chuck_norris"}
PLAYER_COLUMNS = {
    GL.PR_WIPES: "wipes", GL.PR_RESPAWNS: "respawns", GL.PR_ZOMBIES_KILLED: "zombies_killed",
    GL.PR_HORDES_KILLED: "hordes_killed", GL.PR_BOSS_KILLED: "boss_killed", GL.PR_MODELS_LOST: "models_lost",
    GL.PR_MODELS_LEFT: "models_left", GL.PR_EV_DISTANCE: "ev_distance_in", GL.PR_RIVALS_KILLED: "rivals_killed",
    GL.PR_EMBARKED: "escaped",
}
DEFAULT_BATCH = 2048


def warm_up(config: GameConfig, tables: Tables | None = None) -> dict:
    """Compile the game kernels (or load them from numba's disk cache) on an empty batch.

    Returns ``{"seconds", "source"}`` with source "compiled", "disk cache", "already loaded" or
    "JIT disabled". A compile's duration is recorded beside the cache (``compile.json``), so a
    later run can report the one-off compile time without paying it again (`recorded_compile`).
    """
    entry = entry_point(play_batch)
    if JIT_DISABLED or not hasattr(entry, "signatures"):  # the tests' plain-Python kernels
        return {"seconds": 0.0, "source": "JIT disabled"}
    if entry.signatures:
        return {"seconds": 0.0, "source": "already loaded"}
    tables = tables or compile_tables(config)
    state = new_state(0, config.n_players, n_units(config), tables.squad_wounds.shape[1])
    start = time.perf_counter()
    play_batch(state, tables, np.uint64(1), np.int64(0), False, np.empty(0, np.uint64))
    seconds = time.perf_counter() - start
    compiled = sum(entry.stats.cache_misses.values()) > 0
    if compiled:
        _record_compile(seconds)
    return {"seconds": seconds, "source": "compiled" if compiled else "disk cache"}


def _record_compile(seconds: float) -> None:
    path = cache_dir("") / "compile.json"
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"seconds": seconds, "when": time.strftime("%Y-%m-%d %H:%M:%S")}))
        os.replace(tmp, path)


def recorded_compile() -> dict | None:
    """The last recorded cold compile of these kernels (seconds, when), or None."""
    try:
        return json.loads((cache_dir("") / "compile.json").read_text())
    except (OSError, ValueError):
        return None


def run_batches(config: GameConfig, n_games: int, seed: int, batch_size: int = DEFAULT_BATCH,
                first_game: int = 0, check: bool = False, tables: Tables | None = None,
                progress: Callable[[int], None] | None = None, trace_events: int = 0,
                threads: int | None = None):
    """Yield (first game, GameState) for each batch played, in game order.

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
    tables = tables or compile_tables(config)
    warm_up(config, tables)  # the one-off compile (recorded), outside any batch
    workers = _workers(threads)
    size = _batch_size(n_games, batch_size, workers)
    shape = (config.n_players, n_units(config), tables.squad_wounds.shape[1], trace_events)
    chunks = [(first_game + k, min(size, n_games - k)) for k in range(0, n_games, size)] if n_games else []
    with ThreadPoolExecutor(max_workers=workers) as pool:
        free = [(new_state(size, *shape[:3], shape[3]), Tables(*(a.copy() for a in tables)))
                for _ in range(min(len(chunks), 2 * workers))]
        running: deque = deque()
        for start, count in chunks:
            if not free:
                yield _collect(running.popleft(), seed, progress, free)
            state, own = free.pop()
            st = state if count == size else head(state, count)
            rng = np.empty(count, np.uint64)
            submit = pool.submit if workers > 1 else _at_once  # one thread: in this one (numpy error state)
            future = submit(play_batch, st, own, np.uint64(seed), np.int64(start), check, rng)
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
    st.res[:, GL.R_DICE] = draws_between(new_streams(seed, count, start), rng)
    if progress is not None:
        progress(count)
    free.append(slot)  # reused for a later batch only after the caller has moved on
    return start, st


def _workers(threads: int | None) -> int:
    if JIT_DISABLED or not hasattr(entry_point(play_batch), "signatures"):
        return 1  # plain-Python kernels hold the GIL
    return threads or numba.get_num_threads()


def _batch_size(n_games: int, batch_size: int, workers: int) -> int:
    """Batches of at most ``batch_size`` games, evened out so every thread gets the same share."""
    if n_games == 0:
        return 0
    rounds = -(-n_games // (workers * batch_size))
    return max(1, min(batch_size, -(-n_games // (workers * rounds))))


def play(config: GameConfig, n_games: int, seed: int, batch_size: int = DEFAULT_BATCH, first_game: int = 0,
         check: bool = False, progress: Callable[[int], None] | None = None) -> pd.DataFrame:
    """Play ``n_games`` games; one row per (game, player).

    Columns: game, player, name, team, winner (this player escaped; in Coop Mode every embarked
    player of a won game), game_winner (name, "all players" for a Coop win, or ""),
    reason (escape / timeout / all_dead / coop_win), turns, dice (dice rolled in the game), escaped,
    the tallies of PLAYER_COLUMNS and ``pu_<power-up>`` counts of power-ups drawn.
    ``df.attrs`` holds the seed and, with ``check``, the invariant violations found.
    """
    frames, violations = [], 0
    for start, st in run_batches(config, n_games, seed, batch_size, first_game, check, progress=progress):
        frames.append(results_frame(config, st, start))
        violations += int(st.viol.sum())
    df = pd.concat(frames, ignore_index=True) if frames else results_frame(config, None, 0)
    df.attrs.update(seed=seed, n_games=n_games, first_game=first_game, violations=violations)
    return df


def results_frame(config: GameConfig, st: GameState | None, first_game: int) -> pd.DataFrame:
    """The tidy (game, player) rows of one played batch."""
    n_p = config.n_players
    n = 0 if st is None else st.res.shape[0]
    res = np.zeros((0, GL.N_RES), np.int32) if st is None else st.res
    pres = np.zeros((0, n_p, GL.N_PRES)) if st is None else st.pres
    names = np.array([p.name for p in config.players], dtype=object)
    winner = res[:, GL.R_WINNER]
    cols = {
        "game": np.repeat(np.arange(first_game, first_game + n), n_p),
        "player": np.tile(np.arange(n_p), n),
        "name": np.tile(names, n),
        "team": np.tile(np.array([p.team.name for p in config.players], dtype=object), n),
        "game_winner": np.repeat(np.where(winner >= 0, names[np.maximum(winner, 0)], ""), n_p),
        "reason": np.repeat(np.array([REASONS.get(int(r), "?") for r in res[:, GL.R_REASON]], dtype=object), n_p),
        "turns": np.repeat(res[:, GL.R_TURNS], n_p),
        "dice": np.repeat(res[:, GL.R_DICE].astype(np.int64) & 0xFFFFFFFF, n_p),
    }
    coop_win = np.repeat(res[:, GL.R_REASON] == GL.REASON_COOP_WIN, n_p)
    cols["winner"] = (np.repeat(winner, n_p) == cols["player"]) | (coop_win & (pres[:, :, GL.PR_EMBARKED].ravel() > 0))
    cols["game_winner"] = np.where(coop_win, "all players", cols["game_winner"])
    for k, name in PLAYER_COLUMNS.items():
        cols[name] = pres[:, :, k].ravel()
    for r, name in POWERUP_NAMES.items():
        cols[f"pu_{name}"] = pres[:, :, GL.PR_POWERUP0 + r].ravel().astype(np.int64)
    return pd.DataFrame(cols)


def games(df: pd.DataFrame) -> pd.DataFrame:
    """One row per game (winner, reason, turns, dice)."""
    return df.groupby("game", sort=True).first()[["game_winner", "reason", "turns", "dice"]].reset_index()


TRACE_EVENTS = 20_000


def trace_game(config: GameConfig, seed: int, game: int) -> tuple[np.ndarray, pd.DataFrame]:
    """Play game ``game`` of stream ``seed`` alone, recording every event (kernels.zombie40k.columns
    EV_* columns). The game is the same as in any batch: its dice depend on (seed, game) only."""
    for _, st in run_batches(config, 1, seed, 1, game, False, trace_events=TRACE_EVENTS):
        events = st.events[0, : st.n_events[0]].copy()
        return events, results_frame(config, st, game)
    raise AssertionError("unreachable")
