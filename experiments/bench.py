"""Benchmarks of the kernels: ``shamble bench``.

Every figure comes from one run on this machine and is returned in one flat dict (printed as a
rich table, or as JSON). The benchmarks are a list of ``(name, function)`` pairs; a function
takes the `BenchSettings` and the results measured so far (so a ratio can use an earlier figure)
and returns new entries of the dict. Another benchmark (whole games) plugs in as one more pair.

- ``compile``: the first call of each kernel (a compile, or a load from numba's disk cache),
  kept out of every timing below;
- ``dice``: the dice ceiling, bare D6 per second over all threads (`kernels.batch.d6_ceiling`);
- ``attacks``: attack dice resolved per second by `kernels.w40k.exchange.attack_group_batch` (ten
  boltgun shots at ten Plague Marines per game), and their ratio to the dice ceiling;
- ``jit_off``: the same attacks with ``NUMBA_DISABLE_JIT=1`` in a subprocess on a small sample
  (the JIT speed-up), which also counts the dice an attack rolls: attacks/s x dice per attack /
  D6/s is the share of the dice ceiling the attack kernel reaches;
- ``game_compile``: the cold compile of every ruleset's game kernels (a fresh process with an
  empty kernel cache, one ruleset after another so each figure is its own; ``shamble report``
  compiles the rulesets the cache lacks at once, one process per core: `sim.play.warm_up_all`),
  and the headline kernels' first call here;
- ``games``: whole games of the headline config (the default ruleset's first bench config:
  Zombie 40,000's 4-player base game) on all threads and one, dice per game, the share of the
  dice ceiling and the JIT-off ratio; ``matrix``: the same for every ruleset's bench configs;
  ``scaling`` and ``memory``: the headline config from 10^3 to 10^6 games, and its memory;
- ``tune`` (opt-in: ``shamble bench --tune``, issue 28's speed goals): ``shamble tune
  examples/outwest/hold.toml --side posse --budget 300000`` timed, with the tuned posse's hold
  rate on the validation's fresh games; and Zombie 40,000's four players ``--all-sides --rounds 2``
  at the default budget per tune, timed (about 700,000 games: an estimated 10-20 minutes on 2
  quiet cores, not yet measured; ``--quick``: tiny);
- ``targets``: the speed goals beside the measured figures.

Each timing is the best of three runs sized to a few hundred milliseconds. Speed is never
asserted in the tests.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numba
import numpy as np
from rich.console import Console
from rich.table import Table

from kernels.batch import d6_ceiling
from kernels.jit import JIT_DISABLED, entry_point
from kernels.rng import new_streams
from kernels.w40k import columns as L
from kernels.w40k.exchange import attack_group_batch
from sim.w40k.catalogue import load_catalogue
from sim.w40k.exchange import Exchange
from sim.w40k.odds import build_exchange

SEED = 20_240_601
REPEATS = 3
MAX_GAMES = 2_000_000
JIT_OFF_GAMES = 200
QUICK_GAMES = 64  # whole games per timing of the headline config under --quick (tests may set fewer)
WORKLOAD = dict(attacker="Tactical Marine", weapon="Boltgun", target="Plague Marine", models=5, half_range=True,
                target_models=10)
WORKLOAD_WORDS = ("10 Boltgun shots (5 Tactical Marines at half range) at 10 Plague Marines (T5, Sv 3+, Feel No "
                  "Pain) per game: a roll to hit, wound, save and ignore the wound")


SCALE_MAX = 1_000_000  # the longest scaling run: about 13 minutes of the 20 a full bench takes on 2 cores


@dataclass(frozen=True)
class BenchSettings:
    """``games``: games of the attack benchmark (None: sized to ``target_s``); ``quick``: tiny
    sizes, for the tests; ``scale_max``: the largest run of the scaling benchmark; ``say``: told
    what is being measured (the command line shows it on a status line)."""

    games: int | None = None
    quick: bool = False
    scale_max: int = SCALE_MAX
    say: Callable[[str], None] = lambda what: None

    @property
    def target_s(self) -> float:
        """Length of one timed run."""
        return 0.005 if self.quick else 0.25

    @property
    def game_target_s(self) -> float:
        """Length of one timed run of whole games (longer: games vary in length)."""
        return 0.005 if self.quick else 2.0

    @property
    def jit_off_games(self) -> int:
        return 10 if self.quick else JIT_OFF_GAMES


Benchmark = Callable[[BenchSettings, dict], dict]


# ----------------------------------------------------------------------------------------------
# Timing
# ----------------------------------------------------------------------------------------------


def _best_time(run: Callable[[], object], repeats: int = REPEATS) -> float:
    """Shortest wall time of ``repeats`` calls, seconds."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def _sized(make_run: Callable[[int], Callable[[], object]], start: int, target_s: float, cap: int) -> int:
    """The smallest size (``start`` doubled) whose run takes at least ``target_s`` (at most ``cap``)."""
    size = start
    while size < cap:
        run = make_run(size)
        if _best_time(run, 1) >= target_s:
            break
        size *= 2
    return min(size, cap)


# ----------------------------------------------------------------------------------------------
# The attack workload
# ----------------------------------------------------------------------------------------------


def workload_exchange() -> Exchange:
    """The attack benchmark's exchange: ten boltgun shots at ten Plague Marines (the 7th-edition core's
    catalogue)."""
    return build_exchange(**WORKLOAD, catalogue=load_catalogue())


def _attack_run(exchange: Exchange, n_games: int) -> Callable[[], object]:
    """One call of the attack kernel over ``n_games`` games (inputs prepared outside the timing)."""
    rng = new_streams(SEED, n_games)
    wounds, stats, flags = exchange.target_arrays()
    spec = exchange.spec()
    medpacks = np.zeros(1, dtype=np.int64)
    out = np.zeros((n_games, L.N_OUT), dtype=np.int64)

    def run():
        attack_group_batch(rng, exchange.n_dice, spec, wounds, stats, flags, L.NONE, 0, medpacks, out)

    return run


def _dice_run(n_streams: int, n_per_game: int) -> Callable[[], object]:
    rng = new_streams(SEED, n_streams)
    out = np.zeros(n_streams, dtype=np.int64)

    def run():
        d6_ceiling(rng, n_per_game, out)

    return run


# ----------------------------------------------------------------------------------------------
# Benchmarks: (settings, results so far) -> new entries
# ----------------------------------------------------------------------------------------------


def bench_compile(settings: BenchSettings, results: dict) -> dict:
    """First call of the kernels on tiny inputs: compile time, or the disk cache's load time."""
    kernels = tuple(entry_point(k) for k in (d6_ceiling, attack_group_batch))
    loaded = not JIT_DISABLED and all(k.signatures for k in kernels)
    start = time.perf_counter()
    _dice_run(2, 2)()
    _attack_run(workload_exchange(), 2)()
    elapsed = time.perf_counter() - start
    if JIT_DISABLED:
        source = "JIT disabled (NUMBA_DISABLE_JIT=1)"
    elif loaded:
        source = "already loaded"
    elif any(sum(k.stats.cache_hits.values()) for k in kernels):
        source = "disk cache"
    else:
        source = "compiled"
    return {"compile_s": elapsed, "compile_source": source, "threading_layer": _threading_layer()}


def _threading_layer() -> str:
    try:
        return numba.threading_layer()
    except ValueError:  # no parallel kernel has run (NUMBA_DISABLE_JIT)
        return "none"


def bench_dice(settings: BenchSettings, results: dict) -> dict:
    """The dice ceiling: D6 per second, every thread rolling its streams."""
    n_streams = 64 * numba.get_num_threads()
    per_game = _sized(lambda n: _dice_run(n_streams, n), 256, settings.target_s, 1 << 24)
    seconds = _best_time(_dice_run(n_streams, per_game))
    return {"d6_per_s": n_streams * per_game / seconds, "d6_per_run": n_streams * per_game}


def bench_attacks(settings: BenchSettings, results: dict) -> dict:
    """Attack dice resolved per second (the workload), and their ratio to the dice ceiling."""
    exchange = workload_exchange()
    if settings.games is None:
        games = _sized(lambda n: _attack_run(exchange, n), 1024, settings.target_s, MAX_GAMES)
    else:
        games = settings.games
    seconds = _best_time(_attack_run(exchange, games))
    attacks_per_s = games * exchange.n_dice / seconds
    entries = {"attack_workload": WORKLOAD_WORDS, "attack_games": games, "attacks_per_s": attacks_per_s}
    if "d6_per_s" in results:
        entries["attacks_per_d6"] = attacks_per_s / results["d6_per_s"]
    return entries


def bench_jit_off(settings: BenchSettings, results: dict) -> dict:
    """The workload with NUMBA_DISABLE_JIT=1 in a subprocess: JIT speed-up and dice per attack."""
    probe = _run_jit_off_probe(settings.jit_off_games)
    entries = {"jit_off_games": probe["games"], "jit_off_attacks_per_s": probe["attacks_per_s"],
               "dice_per_attack": probe["dice_per_attack"]}
    if "attacks_per_s" in results:
        entries["jit_speedup"] = results["attacks_per_s"] / probe["attacks_per_s"]
        if "d6_per_s" in results:
            entries["ceiling_share"] = results["attacks_per_s"] * probe["dice_per_attack"] / results["d6_per_s"]
    return entries


JIT_OFF_WHOLE_GAMES = 6


def headline():
    """(ruleset, label, config) of the headline figures: the default ruleset's first bench config
    (Zombie 40,000's 4-player base game)."""
    from sim.ruleset import DEFAULT_RULESET, get

    rs = get(DEFAULT_RULESET)
    label, config = next(iter(rs.bench_configs().items()))
    return rs, label, config


def _games_run(config, n_games: int) -> Callable[[], object]:
    from sim.play import play

    def run():
        return play(config, n_games, SEED)

    return run


def _one_thread(run: Callable[[], object]) -> float:
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        return _best_time(run, 1)
    finally:
        numba.set_num_threads(before)


def bench_games(settings: BenchSettings, results: dict) -> dict:
    """Whole games of the headline config per second (all threads and one thread), the first
    call (a compile or a cache load), dice per game, the share of the dice ceiling, and the JIT-off
    ratio."""
    rs, label, config = headline()
    start = time.perf_counter()
    first = _games_run(config, 2)()
    compile_s = time.perf_counter() - start
    n = QUICK_GAMES if settings.quick else _sized(lambda k: _games_run(config, k), 256, settings.game_target_s, 1 << 20)
    df = _games_run(config, n)()
    dice_per_game = float(df.groupby("game").dice.first().mean())
    seconds = _best_time(_games_run(config, n), 1 if settings.quick else REPEATS)
    entries = {"games_config": f"{rs.id} {label}", "games_compile_s": compile_s, "games_per_run": n,
               "games_per_s": n / seconds, "dice_per_game": dice_per_game,
               "games_per_s_per_core": n / seconds / max(1, numba.get_num_threads())}
    entries["games_per_s_1_thread"] = n / _one_thread(_games_run(config, n))
    if "d6_per_s" in results:
        entries["games_ceiling_share"] = entries["games_per_s"] * dice_per_game / results["d6_per_s"]
    if not settings.quick and not JIT_DISABLED:
        off = _run_jit_off_games(rs.id, label, JIT_OFF_WHOLE_GAMES)
        entries["jit_off_games_per_s"] = off
        entries["games_jit_speedup"] = entries["games_per_s_1_thread"] / off
    del first
    return entries


def bench_matrix(settings: BenchSettings, results: dict) -> dict:
    """Whole games/s of every ruleset's bench configs (``Ruleset.bench_configs``), all threads
    and one thread, with dice per game; keys ``<ruleset>_<config>_...``."""
    from sim.ruleset import all_rulesets

    entries = {}
    for rs in all_rulesets():
        for label, config in rs.bench_configs().items():
            key = f"{rs.id}_{label}"
            settings.say(f"whole games: {rs.id} {label}")
            n = 32 if settings.quick else _sized(lambda k, c=config: _games_run(c, k), 128, settings.game_target_s,
                                                 1 << 18)
            df = _games_run(config, n)()
            seconds = _best_time(_games_run(config, n), 1 if settings.quick else 2)
            entries[f"{key}_games_per_s"] = n / seconds
            entries[f"{key}_games_per_s_1_thread"] = n / _one_thread(_games_run(config, n))
            entries[f"{key}_dice_per_game"] = float(df.groupby("game").dice.first().mean())
    return entries


def _stream(config, n_games: int, batch_size: int) -> float:
    """Seconds to play ``n_games`` without keeping a table of them: the memory of a run is one
    batch of state whatever its length."""
    from sim.play import run_batches

    start = time.perf_counter()
    for _ in run_batches(config, n_games, SEED, batch_size):
        pass
    return time.perf_counter() - start


def bench_scaling(settings: BenchSettings, results: dict) -> dict:
    """Games/s of the headline config at 10^3 .. ``scale_max`` games (streamed in batches), and
    how flat it is from 10^4 up: the slowest rate divided by the fastest."""
    from sim.play import DEFAULT_BATCH

    _, _, config = headline()
    sizes = [10**k for k in range(3, 7) if 10**k <= settings.scale_max] or [settings.scale_max]
    if settings.quick:
        sizes = [16, 64]
    entries, rates, peaks = {}, {}, {}
    for n in sizes:
        settings.say(f"scaling: {n:,} games")
        rates[n], peaks[n] = n / _stream(config, n, DEFAULT_BATCH), _peak_rss_mb()
        entries[f"scaling_{n}_games_per_s"] = rates[n]
    flat = [r for n, r in rates.items() if n >= 10_000] or list(rates.values())
    entries["scaling_flatness"] = min(flat) / max(flat)
    first = min((n for n in peaks if n >= 10_000), default=min(peaks))
    entries["scaling_memory_growth"] = peaks[max(peaks)] / peaks[first]
    return entries


def _peak_rss_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def bench_memory(settings: BenchSettings, results: dict) -> dict:
    """Bytes of game state per game in flight, the batch size, and this process's peak RSS."""
    from sim.play import DEFAULT_BATCH

    rs, _, config = headline()
    state = rs.new_state(config, rs.compile(config), DEFAULT_BATCH)
    per_game = sum(a.nbytes for a in state) / DEFAULT_BATCH
    in_flight = 2 * numba.get_num_threads()  # batches (sim.play.run_batches: two per thread)
    return {"state_bytes_per_game": per_game, "batch_size": DEFAULT_BATCH, "batches_in_flight": in_flight,
            "state_mb_in_flight": per_game * DEFAULT_BATCH * in_flight / 2**20,
            "peak_rss_mb": _peak_rss_mb()}


COLD_CODE = """
import json, os, sys, time
t0, c0 = time.perf_counter(), time.process_time()
from sim.ruleset import get
from sim.play import warm_up
rs = get(sys.argv[1])
config = next(iter(rs.bench_configs().values()))
loaded = warm_up(config)
print(json.dumps({"wall_s": time.perf_counter() - t0, "cpu_s": time.process_time() - c0, **loaded}))
"""


def cold_compile(ruleset_id: str) -> dict:
    """A cold compile of a ruleset's game kernels: a fresh process with an empty kernel cache
    (``SHAMBLE_NUMBA_CACHE`` in a temporary folder) plays its first bench config's first batch.
    Returns wall and CPU seconds of the whole process (imports included) and of the compile."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="shamble-cold-") as cache:
        env = dict(os.environ, SHAMBLE_NUMBA_CACHE=cache)
        done = subprocess.run([sys.executable, "-c", COLD_CODE, ruleset_id], env=env, capture_output=True,
                              text=True, timeout=1800, check=False)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(f"the cold compile of {ruleset_id} failed: {last}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def bench_game_compile(settings: BenchSettings, results: dict) -> dict:
    """The cold compile of every ruleset's game kernels (a fresh process, an empty cache), and the
    headline kernels' first call in this process (a compile, or a load from the disk cache)."""
    from sim.play import warm_up
    from sim.ruleset import all_rulesets

    entries = {}
    if not JIT_DISABLED:
        for rs in all_rulesets():
            settings.say(f"cold compile: {rs.id} (a fresh process, an empty cache)")
            cold = cold_compile(rs.id)
            entries[f"{rs.id}_cold_compile_s"] = cold["seconds"]
            entries[f"{rs.id}_cold_process_s"] = cold["wall_s"]
            entries[f"{rs.id}_cold_process_cpu_s"] = cold["cpu_s"]
    rs, _, config = headline()
    first = warm_up(config)
    entries |= {"game_load_s": first["seconds"], "game_load_source": first["source"]}
    return entries


def _run_jit_off_games(ruleset_id: str, label: str, games: int) -> float:
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    code = (f"import time; from sim.ruleset import get; from sim.play import play; "
            f"c = get({ruleset_id!r}).bench_configs()[{label!r}]; t = time.perf_counter(); play(c, {games}, {SEED}); "
            f"print({games} / (time.perf_counter() - t))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    return float(out.stdout.strip().splitlines()[-1])


# The speed goals, for the headline config: (figure, ">=" or "<=", bound, what); each ruleset adds
# its own whole games/s on one thread (``Ruleset.bench_goals``, ``sim.ruleset.bench_goals_of``)
TARGETS = (
    ("games_ceiling_share", ">=", 0.15, "share of the dice ceiling (games/s x dice per game / D6/s)"),
    ("games_jit_speedup", ">=", 300.0, "times the JIT-off run (one thread)"),
    ("scaling_flatness", ">=", 0.90, "games/s flat within 10% from 10^4 to 10^6 games (slowest / fastest)"),
    ("scaling_memory_growth", "<=", 1.10, "peak memory after the longest run / after 10^4 games (bounded)"),
)


def ruleset_targets() -> tuple:
    """Every ruleset's games/s goals on one thread, as rows of ``TARGETS`` (the figures of
    ``bench_matrix``)."""
    from sim.ruleset import all_rulesets, bench_goals_of

    return tuple((f"{rs.id}_{label}_games_per_s_1_thread", ">=", float(bound), f"whole games/s, one thread: "
                  f"{rs.id} {label}") for rs in all_rulesets() for label, bound in bench_goals_of(rs).items())


def bench_targets(settings: BenchSettings, results: dict) -> dict:
    """The measured figures beside the goals: ``targets`` is a list of {figure, what, measured,
    bound, op, met, note}. ``met`` is None where this run cannot tell (a figure not measured, or
    the scaling run not taken up to 10^6 games)."""
    runs = sorted(int(k.split("_")[1]) for k in results if k.startswith("scaling_") and k.endswith("_games_per_s"))
    short = bool(runs) and runs[-1] < 10**6
    rows = []
    tune = TUNE_TARGETS if "tune_outwest_hold_s" in results else ()  # only when --tune measured them
    for figure, op, bound, what in ruleset_targets() + TARGETS + tune:
        measured = results.get(figure)
        met = None if measured is None else bool(measured >= bound if op == ">=" else measured <= bound)
        note = ""
        if figure.startswith("scaling_") and runs:
            note = f"10^4 to {runs[-1]:,} games" + ("; 10^6 not run (--scale-max 1000000)" if short else "")
            met = None if short else met
        if figure.startswith("tune_") and results.get("quick"):  # tiny tunes say nothing of the goal's run
            met, note = None, "tiny sizes (--quick), not the goal's run"
        rows.append({"figure": figure, "what": what, "measured": measured, "op": op, "bound": bound, "met": met,
                     "note": note})
    return {"targets": rows}


TUNE_HOLD = ("examples/outwest/hold.toml", "posse", 300_000)  # config, side, games of search
TUNE_ROUNDS = ("examples/configs/four_players.toml", 2)  # config, rounds of best responses (default budget)
TUNE_TARGETS = (
    ("tune_outwest_hold_s", "<=", 120.0, "shamble tune Out West Hold the town, 300,000 games of search, s"),
    ("tune_outwest_hold_rate", ">=", 0.90, "the tuned posse's hold rate on the validation's fresh games"),
    ("tune_zombie40k_rounds_s", "<=", 900.0, "Zombie 40,000 four players --all-sides --rounds 2, s"),
)


def bench_tune(settings: BenchSettings, results: dict) -> dict:
    """``shamble tune`` timed at issue 28's sizes (``--quick``: a few hundred games, one field)."""
    from experiments.tune import run_tune
    from experiments.tune_rounds import ROUNDS_BUDGET, run_best_responses

    root = Path(__file__).resolve().parents[1]
    config, side, budget = TUNE_HOLD
    tiny = {"games": 20, "validate_games": 20} if settings.quick else {}
    settings.say("tune: Out West, Hold the town")
    start = time.perf_counter()
    info = run_tune(root / config, side, 60 if settings.quick else budget, progress=False,
                    fields="fight_in_contact" if settings.quick else None, **tiny)
    hold_s = time.perf_counter() - start
    fresh = info["tuned"]["validation"]
    config, rounds = TUNE_ROUNDS
    settings.say("tune: Zombie 40,000, four players, best responses")
    start = time.perf_counter()
    done = run_best_responses(root / config, 1 if settings.quick else rounds, 40 if settings.quick else ROUNDS_BUDGET,
                              fields="run" if settings.quick else None, progress=False, **tiny)
    return {"tune_outwest_hold_s": round(hold_s, 1), "tune_outwest_hold_games": info["games"],
            "tune_outwest_hold_rate": fresh["rate"], "tune_outwest_hold_low": fresh["low"],
            "tune_outwest_hold_high": fresh["high"], "tune_outwest_hold_default": info["default"]["validation"]["rate"],
            "tune_outwest_hold_verdict": info["verdict"],
            "tune_zombie40k_rounds_s": round(time.perf_counter() - start, 1),
            "tune_zombie40k_rounds_games": done["games"]}


BENCHMARKS: list[tuple[str, Benchmark]] = [
    ("compile", bench_compile),
    ("dice", bench_dice),
    ("attacks", bench_attacks),
    ("jit_off", bench_jit_off),
    ("game_compile", bench_game_compile),
    ("games", bench_games),
    ("matrix", bench_matrix),
    ("scaling", bench_scaling),
    ("memory", bench_memory),
    ("targets", bench_targets),
]
GAME_BENCHMARKS = ("game_compile", "games", "matrix", "scaling", "memory")
WITHOUT_GAMES = [b for b in BENCHMARKS if b[0] not in GAME_BENCHMARKS]


# ----------------------------------------------------------------------------------------------
# The JIT-off subprocess
# ----------------------------------------------------------------------------------------------


def _run_jit_off_probe(games: int) -> dict:
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    code = f"from experiments.bench import jit_off_probe; jit_off_probe({games})"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600,
                          check=False)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(f"the NUMBA_DISABLE_JIT=1 benchmark failed: {last}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _count_dice(run: Callable[[], object]) -> int:
    """Dice (D6 and uniforms) rolled by ``run``, counted by wrapping the draws of the kernel
    modules already imported (JIT off: the kernels are plain Python reading module globals)."""
    count = [0]
    swapped = []
    loaded = [m for n, m in list(sys.modules.items()) if n.startswith("kernels.") and n != "kernels.rng"]
    for module in loaded:
        for name in ("d6", "uniform"):
            draw = getattr(module, name, None)
            if draw is not None:
                swapped.append((module, name, draw))
                setattr(module, name, _counted(draw, count))
    try:
        run()
    finally:
        for module, name, draw in swapped:
            setattr(module, name, draw)
    return count[0]


def _counted(draw, count):
    def counted(rng, g):
        count[0] += 1
        return draw(rng, g)

    return counted


def jit_off_probe(games: int) -> None:
    """Subprocess entry (run with NUMBA_DISABLE_JIT=1): print the workload's attacks per second
    without the JIT and its dice per attack, as one JSON line."""
    if not JIT_DISABLED:
        raise RuntimeError("jit_off_probe needs NUMBA_DISABLE_JIT=1")
    exchange = workload_exchange()
    seconds = _best_time(_attack_run(exchange, games))
    dice = _count_dice(_attack_run(exchange, games))
    attacks = games * exchange.n_dice
    print(json.dumps({"games": games, "attacks_per_s": attacks / seconds, "dice_per_attack": dice / attacks}))


# ----------------------------------------------------------------------------------------------
# Running and printing
# ----------------------------------------------------------------------------------------------


def machine_info() -> dict:
    """Where the figures were measured."""
    return {
        "machine": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
    }


def _check_threads(threads: int | None) -> None:
    most = numba.config.NUMBA_NUM_THREADS
    if threads is not None and (not isinstance(threads, int) or isinstance(threads, bool) or not 1 <= threads <= most):
        raise ValueError(f"threads = {threads!r}; allowed: an integer 1-{most} (NUMBA_NUM_THREADS)")


def run_bench(*, games: int | None = None, quick: bool = False, threads: int | None = None,
              benchmarks: list[tuple[str, Benchmark]] | None = None, scale_max: int = SCALE_MAX,
              say: Callable[[str], None] | None = None, tune: bool = False) -> dict:
    """Run the benchmarks once and return every figure in one flat dict.

    Parameters
    ----------
    games : int or None
        Games of the attack benchmark (None: sized to a few hundred milliseconds).
    quick : bool
        Tiny sizes (tests).
    threads : int or None
        numba threads (None: numba's default, NUMBA_NUM_THREADS); restored afterwards.
    benchmarks : list of (name, function) or None
        Defaults to `BENCHMARKS`.
    scale_max : int
        Largest run of the scaling benchmark (10^3 .. scale_max games, powers of ten).
    say : callable or None
        Told the name of each benchmark as it starts (and each run length of the scaling one).
    tune : bool
        Also `bench_tune` (before the targets).
    """
    _check_threads(threads)
    if games is not None and (not isinstance(games, int) or isinstance(games, bool) or not 1 <= games <= MAX_GAMES):
        raise ValueError(f"games = {games!r}; allowed: an integer 1-{MAX_GAMES}")
    if not isinstance(scale_max, int) or isinstance(scale_max, bool) or not 1_000 <= scale_max <= 10_000_000:
        raise ValueError(f"scale_max = {scale_max!r}; allowed: an integer 1000-10000000")
    before = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(threads)
    try:
        settings = BenchSettings(games=games, quick=quick, scale_max=scale_max, say=say or (lambda what: None))
        results: dict = {**machine_info(), "threads": numba.get_num_threads(), "quick": quick}
        chosen = list(BENCHMARKS if benchmarks is None else benchmarks)
        if tune:
            at = next((k for k, (name, _) in enumerate(chosen) if name == "targets"), len(chosen))
            chosen.insert(at, ("tune", bench_tune))
        for name, benchmark in chosen:
            settings.say(name)
            results.update(benchmark(settings, results))
    finally:
        numba.set_num_threads(before)
    return results


MEANINGS = {
    "machine": "platform",
    "processor": "processor",
    "cpu_count": "logical CPUs",
    "python": "Python version",
    "numpy": "numpy version",
    "numba": "numba version",
    "quick": "tiny sizes (--quick)",
    "threads": "numba threads used",
    "threading_layer": "numba threading layer",
    "compile_s": "first call of the kernels, s (excluded from the timings)",
    "compile_source": "what the first call did",
    "d6_per_s": "dice ceiling: bare D6 per second, all threads",
    "d6_per_run": "D6 per timed run",
    "attack_workload": "attack benchmark",
    "attack_games": "games per timed run",
    "attacks_per_s": "attack dice resolved per second",
    "attacks_per_d6": "attacks/s divided by D6/s",
    "jit_off_games": "games per timed run with NUMBA_DISABLE_JIT=1",
    "jit_off_attacks_per_s": "attacks per second with NUMBA_DISABLE_JIT=1",
    "jit_speedup": "attacks/s JIT on / JIT off",
    "dice_per_attack": "dice rolled per attack (counted, JIT off)",
    "ceiling_share": "attacks/s x dice per attack / D6/s",
    "games_config": "whole-game benchmark configuration",
    "games_compile_s": "first whole-game call, s (compile or cache load; excluded)",
    "games_per_run": "games per timed run",
    "games_per_s": "whole games per second, all threads",
    "games_per_s_per_core": "whole games per second per thread",
    "games_per_s_1_thread": "whole games per second, one thread",
    "dice_per_game": "dice rolled per game",
    "games_ceiling_share": "games/s x dice per game / D6/s",
    "jit_off_games_per_s": "whole games per second with NUMBA_DISABLE_JIT=1",
    "games_jit_speedup": "games/s (1 thread) JIT on / JIT off",
    "game_load_s": "first call of the game kernels in this process, s",
    "game_load_source": "what that first call did",
    "scaling_flatness": "slowest / fastest games/s from 10^4 games up (1 = flat)",
    "state_bytes_per_game": "bytes of game state per game in flight",
    "batch_size": "games per batch",
    "batches_in_flight": "batches held at once (two per thread); longer runs stream",
    "state_mb_in_flight": "MiB of game state in flight",
    "peak_rss_mb": "peak resident memory of this process, MiB",
    "scaling_memory_growth": "peak memory after the longest scaling run / after 10^4 games (1 = bounded)",
    "tune_outwest_hold_s": "shamble tune Out West Hold the town --side posse, 300,000 games of search, s",
    "tune_outwest_hold_games": "games it played (search and validation)",
    "tune_outwest_hold_rate": "the tuned posse's hold rate on the validation's fresh games",
    "tune_outwest_hold_low": "its 95% Wilson interval, low",
    "tune_outwest_hold_high": "its 95% Wilson interval, high",
    "tune_outwest_hold_default": "the default posse's hold rate on the same fresh games",
    "tune_outwest_hold_verdict": "the validation's verdict",
    "tune_zombie40k_rounds_s": "shamble tune Zombie 40,000 four players --all-sides --rounds 2, s",
    "tune_zombie40k_rounds_games": "games it played (searches, validations, standings)",
}


def meaning(key: str) -> str:
    """What a figure means (the matrix and scaling keys are built from their parts)."""
    if key in MEANINGS:
        return MEANINGS[key]
    if key.startswith("scaling_"):
        return f"games/s over a run of {key.split('_')[1]} games (streamed)"
    if key.endswith("_cold_compile_s"):
        return f"cold compile of {key.removesuffix('_cold_compile_s')}'s game kernels, s (fresh process, empty cache)"
    if key.endswith("_cold_process_cpu_s"):
        return "that process's CPU time, s (what the compile costs on an idle machine)"
    if key.endswith("_cold_process_s"):
        return "that fresh process from start to first batch, s (imports, compile, cache write)"
    for suffix, words in (("_games_per_s_1_thread", "whole games/s, one thread"), ("_games_per_s", "whole games/s, "
                          "all threads"), ("_dice_per_game", "dice per game")):
        if key.endswith(suffix):
            ruleset, _, label = key.removesuffix(suffix).partition("_")
            return f"{words}: {ruleset} {label.replace('_', ' ')}"
    return ""


def _shown(value) -> str:
    if isinstance(value, float):
        return f"{value:,.3g}" if abs(value) < 1000 else f"{value:,.0f}"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return str(value)


def render_bench(results: dict, console: Console) -> None:
    """Print the figures as a rich table (name, value, meaning)."""
    table = Table(title="shamble bench", title_justify="left")
    table.add_column("figure")
    table.add_column("value", justify="right")
    table.add_column("meaning")
    for key, value in results.items():
        if key != "targets":
            table.add_row(key, _shown(value), meaning(key))
    console.print(table)
    if results.get("targets"):
        goals = Table(title=f"speed goals, {results.get('games_config', 'the headline config')}", title_justify="left")
        for column in ("figure", "measured", "goal", "met", "note"):
            goals.add_column(column, justify="right" if column in ("measured", "goal") else "left")
        for row in results["targets"]:
            shown = "not measured" if row["measured"] is None else _shown(row["measured"])
            met = {True: "yes", False: "no", None: "cannot tell"}[row["met"]]
            goals.add_row(row["figure"], shown, f"{row['op']} {_shown(row['bound'])}", met, row["note"])
        console.print(goals)


def bench_json(results: dict) -> str:
    return json.dumps(results, indent=2)
