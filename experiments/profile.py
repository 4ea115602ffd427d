"""Where a ruleset's game spends its time: ``shamble profile`` (issue 19).

numba's jitted code has no symbols, so ``perf`` shows it as hex addresses. The profile names it:

1. a worker process compiles the game afresh, in an empty temporary kernel cache (a library
   loaded from the cache has no LLVM module to read names from: 2-3 minutes for Zombie 40,000),
   on one thread (``numba.set_num_threads(1)``);
2. it walks the functions defined in the final LLVM module of the game's entry point
   (``kernels.jit.entry_point(ruleset.play_batch)``: every kernel of the game is linked into it),
   takes each one's address from the code library and writes ``/tmp/perf-<pid>.map``, perf's map
   of jitted code (``<hex start> <hex size> <name>``, sizes from the sorted addresses);
3. it runs under ``perf record -F 1500`` with the events switched off (``-D -1``) and switches them
   on only around the timed play (perf's ``--control`` fifos), so the compile is not sampled;
4. ``perf report`` lists the samples by shared object and symbol; only the samples in the game's
   code count: the jitted functions and the math library they call (``sincos``, ``atan2``: a row
   of their own). Python's samples (the batch loop, numpy between batches) are dropped and the rest
   normalised to 100%. The mangled names
   (``_ZN7kernels9zombie40k7assault16_initiative_stepB3v12...``) are decoded to a function and
   its module (``_initiative_step``, ``kernels.zombie40k.assault``).

LLVM inlines small functions into their callers: a row is a function with everything inlined
into it, not the function's own lines alone.

The pure parts (the name decoder, the map writer, the report parser and the summary) are
functions of their inputs, tested on canned text; `run_profile` runs perf.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path

PERF_FREQUENCY = 1500  # samples per second of the profiled thread
TARGET_SECONDS = 8.0  # default length of the profiled play, one thread
CALIBRATION_SECONDS = 0.5  # the untimed run that sizes the default play
MAX_GAMES = 10_000_000
MAX_TOP = 1000
LAST_SIZE = 4096  # bytes given to the highest-addressed function of the map (its end is unknown)
WORKER_TIMEOUT_S = 1800
PROFILE_SEED = 3
INLINING_NOTE = ("LLVM inlines small functions into their callers: a row is a function with everything "
                 "inlined into it.")
MATH_LIBRARIES = ("libm.so", "libm-", "libmvec", "libsvml")


class ProfileError(ValueError):
    """Bad input to the profile, or perf missing, not permitted or failing: one line."""


# ----------------------------------------------------------------------------------------------
# Pure parts: the name decoder, the map writer, the report parser, the summary
# ----------------------------------------------------------------------------------------------

_ESCAPES = {"_3clocals_3e": "<locals>", "_3clambda_3e": "<lambda>"}
_WRAPPERS = ("cpython", "cfunc")


def _mangled_parts(symbol: str) -> list[str]:
    """The length-prefixed name parts of an Itanium-mangled symbol (numba's ``_ZN7kernels...E``),
    or [] for a symbol that is not mangled."""
    if not symbol.startswith("_Z"):
        return []
    nested = symbol.startswith("_ZN")
    i, parts = 3 if nested else 2, []
    while i < len(symbol) and symbol[i].isdigit():
        j = i
        while j < len(symbol) and symbol[j].isdigit():
            j += 1
        length = int(symbol[i:j])
        if j + length > len(symbol):
            return []
        parts.append(symbol[j:j + length])
        i = j + length
        if not nested:
            break
    return parts


def _unescaped(part: str) -> str:
    for escaped, plain in _ESCAPES.items():
        part = part.replace(escaped, plain)
    return part


def decode_symbol(symbol: str) -> tuple[str, str]:
    """``(function, module)`` of a symbol perf reports.

    numba's mangled names give the function (with its enclosing function for a closure:
    ``outer.<locals>.inner``) and its module; a wrapper numba makes for Python
    (``cpython.``/``cfunc.``) is marked so. A symbol that is not mangled (a math library's
    ``__sincos_fma``) is its own function, with no module.

    >>> decode_symbol("_ZN7kernels9zombie40k7assault16_initiative_stepB3v12E5ArrayIyLi1E")
    ('_initiative_step', 'kernels.zombie40k.assault')
    """
    parts = [_unescaped(p) for p in _mangled_parts(symbol)]
    if not parts:
        return symbol, ""
    wrapper = parts[0] in _WRAPPERS and len(parts) > 1
    if wrapper:
        parts = parts[1:]
    first = parts.index("<locals>") - 1 if "<locals>" in parts[1:] else len(parts) - 1
    function, module = ".".join(parts[first:]), ".".join(parts[:first])
    return (f"{function} (wrapper for Python)" if wrapper else function), module


def perf_map_lines(symbols: Iterable[tuple[int, str]]) -> list[str]:
    """Lines of perf's map of jitted code, ``"<hex start> <hex size> <name>"``, from (address,
    name) pairs: sorted by address, one line per address (the first name given for it), each
    function's size running to the next address, the last one's `LAST_SIZE`; address 0 skipped."""
    first: dict[int, str] = {}
    for address, name in symbols:
        if address and address not in first:
            first[address] = name
    starts = sorted(first)
    ends = starts[1:] + [starts[-1] + LAST_SIZE] if starts else []
    return [f"{a:x} {e - a:x} {first[a]}" for a, e in zip(starts, ends, strict=True)]


def write_perf_map(symbols: Iterable[tuple[int, str]], path: Path) -> int:
    """Write perf's map of jitted code (`perf_map_lines`) to ``path``; returns the line count."""
    lines = perf_map_lines(symbols)
    path.write_text("".join(f"{line}\n" for line in lines))
    return len(lines)


_REPORT_LINE = re.compile(r"^\s*(?P<share>\d+(?:\.\d+)?)%\s+(?:(?P<samples>\d+)\s+)?(?P<dso>.*?)\s*"
                          r"\[(?P<level>[.kgu])\]\s+(?P<symbol>\S+)")


def parse_report(text: str) -> list[dict]:
    """Rows of ``perf report --stdio`` text: ``{"share", "samples", "dso", "symbol", "kernel"}``
    per line that has a share and a symbol (``12.5%  [.] sym``, with the sample count and shared
    object when the report has them, tab- or space-separated); headers and blank lines skipped.
    ``samples`` is None when the report has no sample column; ``kernel``: the operating system's
    code (``[k]``)."""
    rows = []
    for line in text.splitlines():
        if line.lstrip().startswith("#"):
            continue
        match = _REPORT_LINE.match(line)
        if match is None:
            continue
        samples = match["samples"]
        rows.append({"share": float(match["share"]), "samples": None if samples is None else int(samples),
                     "dso": match["dso"].strip(), "symbol": match["symbol"], "kernel": match["level"] == "k"})
    return rows


def is_math_library(dso: str) -> bool:
    return any(name in dso for name in MATH_LIBRARIES)


def is_game_code(row: dict) -> bool:
    """A sample of the game: in the jitted code (perf's ``[JIT]`` object, or a mangled name when
    the report has no object column) or in the math library it calls."""
    if row["kernel"]:
        return False
    dso = row["dso"]
    if dso:
        return dso.startswith("[JIT]") or is_math_library(dso)
    return bool(_mangled_parts(row["symbol"]))


def _weight(row: dict) -> float:
    return row["samples"] if row["samples"] is not None else row["share"]


def summarise(rows: list[dict], top: int) -> dict:
    """The game's share of the time by function: the rows of the game's code (`is_game_code`)
    merged by decoded (function, module), normalised to 100 and sorted; the first ``top`` in
    ``rows``, the others summed in ``rest_share`` (``rest_functions`` of them).

    Also ``game_samples_share``: the game's share of every sample of the timed play (the rest is
    Python and numpy between batches); ``unresolved_share``: samples at addresses no object or map
    names (jitted code outside the map would show there); ``samples``: all samples (None when the
    report has no sample column)."""
    total = sum(_weight(r) for r in rows)
    merged: dict[tuple[str, str], float] = {}
    for row in filter(is_game_code, rows):
        function, module = decode_symbol(row["symbol"])
        if not module and is_math_library(row["dso"]):
            module = f"{row['dso']} (math library)"
        merged[function, module] = merged.get((function, module), 0.0) + _weight(row)
    game = sum(merged.values())
    ranked = sorted(merged.items(), key=lambda item: (-item[1], item[0]))
    shares = [{"share": 100.0 * w / game, "function": f, "module": m} for (f, m), w in ranked] if game else []
    unresolved = sum(_weight(r) for r in rows if r["dso"] in ("[unknown]", "") and r["symbol"].startswith("0x"))
    counted = all(r["samples"] is not None for r in rows)
    return {"rows": shares[:top], "rest_share": sum(r["share"] for r in shares[top:]),
            "rest_functions": max(0, len(shares) - top), "functions": len(shares),
            "game_samples_share": 100.0 * game / total if total else 0.0,
            "unresolved_share": 100.0 * unresolved / total if total else 0.0,
            "samples": int(total) if counted and rows else None, "note": INLINING_NOTE}


# ----------------------------------------------------------------------------------------------
# Inputs, and perf itself
# ----------------------------------------------------------------------------------------------


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def resolve(ruleset_id: str | None, label: str | None):
    """(ruleset, label, config) of the profile: ``label`` one of the ruleset's bench configs (default:
    the first); the ruleset default: the project's default ruleset."""
    from sim.ruleset import DEFAULT_RULESET, get

    rs = get(ruleset_id or DEFAULT_RULESET, "--ruleset")
    configs = rs.bench_configs()
    if label is None:
        label = next(iter(configs))
    if label not in configs:
        raise ProfileError(f"--config {label!r}: not a bench config of {rs.id}; allowed: "
                           + ", ".join(repr(k) for k in configs))
    return rs, label, configs[label]


def check_sizes(games: int | None, top: int) -> None:
    if games is not None and (not _is_int(games) or not 1 <= games <= MAX_GAMES):
        raise ProfileError(f"--games {games!r}; allowed: an integer 1-{MAX_GAMES} (or none: sized to "
                           f"~{TARGET_SECONDS:g} s of play)")
    if not _is_int(top) or not 1 <= top <= MAX_TOP:
        raise ProfileError(f"--top {top!r}; allowed: an integer 1-{MAX_TOP}")


def paranoid_level(path: Path = Path("/proc/sys/kernel/perf_event_paranoid")) -> int | None:
    """The kernel's ``perf_event_paranoid`` (None where it cannot be read)."""
    try:
        return int(path.read_text().strip())
    except (OSError, ValueError):
        return None


def find_perf(which: Callable[[str], str | None] | None = None, paranoid: int | None = None,
              root: bool | None = None) -> str:
    """The path of ``perf``, or a `ProfileError` saying why it cannot profile this process's games:
    not installed, or not permitted (``perf_event_paranoid`` above 2 stops even a user's own
    processes, unless run as root)."""
    perf = (which or shutil.which)("perf")
    if perf is None:
        raise ProfileError("perf is not installed (no `perf` on PATH); allowed: install linux-perf "
                           "(Debian: apt-get install linux-perf)")
    paranoid = paranoid_level() if paranoid is None else paranoid
    root = (os.geteuid() == 0) if root is None else root
    if paranoid is not None and paranoid > 2 and not root:
        raise ProfileError(f"perf is not permitted: kernel.perf_event_paranoid = {paranoid}; allowed: 2 or "
                           "less (sudo sysctl kernel.perf_event_paranoid=2)")
    return perf


# ----------------------------------------------------------------------------------------------
# The worker (a fresh process under perf record)
# ----------------------------------------------------------------------------------------------


def jitted_symbols(kernel) -> list[tuple[int, str]]:
    """(address, name) of every function defined in the final LLVM module of each compiled
    overload of ``kernel``'s entry point (a compile of this process: a library loaded from the disk
    cache has no module, and gives none)."""
    from kernels.jit import entry_point

    found = []
    for cres in entry_point(kernel).overloads.values():
        library = cres.library
        module = getattr(library, "_final_module", None)
        if module is None:
            continue
        for function in module.functions:
            if function.is_declaration:
                continue
            try:
                address = library.get_pointer_to_function(function.name)
            except Exception:  # noqa: BLE001 - a function the engine did not emit (inlined away)
                continue
            if address:
                found.append((address, function.name))
    return found


def _signal(ctl: str, ack: str, command: str) -> None:
    """Tell perf record (its ``--control`` fifos) to switch its events on or off, and wait for it."""
    with open(ctl, "w") as fifo:
        fifo.write(f"{command}\n")
    with open(ack) as fifo:
        fifo.readline()


def _play(config, games: int) -> float:
    """Seconds to play ``games`` games on one thread, keeping no table of them."""
    from sim.play import run_batches

    start = time.perf_counter()
    for _ in run_batches(config, games, PROFILE_SEED, threads=1):
        pass
    return time.perf_counter() - start


def _sized_games(config) -> int:
    """Games for ~`TARGET_SECONDS` of play: doubled from 16 until a run takes `CALIBRATION_SECONDS`."""
    games = 16
    while True:
        seconds = _play(config, games)
        if seconds >= CALIBRATION_SECONDS or games >= MAX_GAMES:
            return max(1, min(MAX_GAMES, round(games * TARGET_SECONDS / max(seconds, 1e-9))))
        games *= 2


def worker(ruleset_id: str, label: str, games: int | None, ctl: str, ack: str, out: str) -> None:
    """Subprocess entry, under ``perf record -D -1 --control fifo:ctl,ack``: compile the game (an
    empty kernel cache), write the perf map of its jitted code, size the play, play it with perf's
    events on, and write the figures to ``out`` (JSON)."""
    import numba

    from kernels.jit import JIT_DISABLED
    from sim.play import warm_up

    if JIT_DISABLED:
        raise ProfileError("the profile needs the JIT: unset NUMBA_DISABLE_JIT")
    numba.set_num_threads(1)
    rs, label, config = resolve(ruleset_id, label)
    Path(out).with_name("worker.pid").write_text(str(os.getpid()))  # the map's name, for its removal
    loaded = warm_up(config)
    n_symbols = write_perf_map(jitted_symbols(rs.play_batch), perf_map_path(os.getpid()))
    if n_symbols == 0:
        raise ProfileError(f"no jitted functions to name ({loaded['source']}): the kernel cache was not empty")
    _play(config, 2)  # the first run's one-off work outside the game (the batch loop's own kernels)
    games = _sized_games(config) if games is None else games
    _signal(ctl, ack, "enable")
    seconds = _play(config, games)
    _signal(ctl, ack, "disable")
    figures = {"ruleset": rs.id, "config": label, "games": games, "seconds": seconds, "games_per_s": games / seconds,
               "threads": 1, "compile_s": loaded["seconds"], "compile_source": loaded["source"],
               "map_functions": n_symbols, "pid": os.getpid()}
    Path(out).write_text(json.dumps(figures))


def perf_map_path(pid: int) -> Path:
    """Where perf reads the map of a process's jitted code."""
    return Path(f"/tmp/perf-{pid}.map")


def _remove_map(folder: Path) -> None:
    """Remove the worker's perf map (named in ``worker.pid`` of ``folder``), if it wrote one."""
    try:
        pid = int((folder / "worker.pid").read_text())
    except (OSError, ValueError):
        return
    perf_map_path(pid).unlink(missing_ok=True)


WORKER_CODE = "import sys, json; from experiments.profile import worker; worker(*json.loads(sys.argv[1]))"


# ----------------------------------------------------------------------------------------------
# Running it
# ----------------------------------------------------------------------------------------------


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip() and not line.startswith("[ perf record")]
    return lines[-1].strip() if lines else "no output"


def _record(perf: str, args: list, folder: Path) -> tuple[dict, Path]:
    """Run the worker under perf record in ``folder``; its figures and the perf.data path."""
    ctl, ack, out, data = (folder / n for n in ("ctl.fifo", "ack.fifo", "figures.json", "perf.data"))
    os.mkfifo(ctl)
    os.mkfifo(ack)
    env = dict(os.environ, SHAMBLE_NUMBA_CACHE=str(folder / "kernel-cache"))
    env.pop("NUMBA_DISABLE_JIT", None)
    command = [perf, "record", "-F", str(PERF_FREQUENCY), "-D", "-1", "--control", f"fifo:{ctl},{ack}",
               "-o", str(data), "--", sys.executable, "-c", WORKER_CODE, json.dumps([*args, str(ctl), str(ack),
                                                                                      str(out)])]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=WORKER_TIMEOUT_S, check=False)
    if done.returncode != 0 or not out.exists():
        why = _last_line(done.stderr)
        if "perf_event_paranoid" in done.stderr or "Permission" in why or "not permitted" in why:
            raise ProfileError(f"perf is not permitted here: {why}")
        raise ProfileError(f"the profiled play failed: {why}")
    return json.loads(out.read_text()), data


def _report(perf: str, data: Path) -> str:
    command = [perf, "report", "-i", str(data), "--no-children", "--quiet", "--show-nr-samples",
               "--field-separator", "\t", "--sort", "dso,symbol", "-F", "overhead,sample,dso,sym", "--stdio"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    if done.returncode != 0:
        raise ProfileError(f"perf report failed: {_last_line(done.stderr)}")
    return done.stdout


def run_profile(ruleset_id: str | None = None, label: str | None = None, games: int | None = None, top: int = 15,
                say: Callable[[str], None] | None = None) -> dict:
    """Profile the game of a ruleset's bench config on one thread (see the module's docstring).

    Parameters
    ----------
    ruleset_id : str or None
        A ruleset id (None: the default ruleset).
    label : str or None
        One of the ruleset's ``bench_configs()`` (None: the first).
    games : int or None
        Games to play under the profiler (None: sized to ~8 s of play on one thread).
    top : int
        Rows of the table (the others are summed in ``rest_share``).
    say : callable or None
        Told what is happening (the command line shows it on a status line).

    Returns
    -------
    dict
        The play's figures (ruleset, config, games, seconds, games_per_s, compile_s, ...) and the
        summary of `summarise` (rows of share %, function and module).
    """
    rs, label, _ = resolve(ruleset_id, label)
    check_sizes(games, top)
    perf = find_perf()
    say = say or (lambda what: None)
    say(f"compiling the {rs.id} game afresh in a temporary kernel cache (1-3 minutes), then playing "
        f"{'~8 s of' if games is None else f'{games:,}'} games under perf record")
    with tempfile.TemporaryDirectory(prefix="shamble-profile-") as folder:
        try:
            figures, data = _record(perf, [rs.id, label, games], Path(folder))
            say("reading the profile (perf report)")
            text = _report(perf, data)
        finally:
            _remove_map(Path(folder))
    figures.pop("pid")
    return {**figures, **summarise(parse_report(text), top)}


# ----------------------------------------------------------------------------------------------
# Printing
# ----------------------------------------------------------------------------------------------


def render_profile(result: dict, console) -> None:
    """Print the rows as a rich table (share, function, module) and the play's figures."""
    from rich.table import Table

    title = f"shamble profile: {result['ruleset']} {result['config']}, share of the game's time (one thread)"
    table = Table(title=title, title_justify="left", caption=result["note"], caption_justify="left")
    table.add_column("share", justify="right")
    table.add_column("function")
    table.add_column("module")
    for row in result["rows"]:
        table.add_row(f"{row['share']:.1f}%", row["function"], row["module"])
    if result["rest_functions"]:
        table.add_row(f"{result['rest_share']:.1f}%", f"({result['rest_functions']} other functions)", "")
    console.print(table)
    samples = "" if result["samples"] is None else f" of {result['samples']:,} samples"
    console.print(f"played {result['games']:,} games in {result['seconds']:.2f} s on one thread: "
                  f"{result['games_per_s']:,.0f} games/s (under perf record -F {PERF_FREQUENCY}); the game's "
                  f"code holds {result['game_samples_share']:.1f}%{samples} (the rest: Python between batches), "
                  f"unresolved addresses {result['unresolved_share']:.1f}%; compile {result['compile_s']:.0f} s "
                  f"({result['compile_source']}, a fresh kernel cache)")


def profile_json(result: dict) -> str:
    return json.dumps(result, indent=2)
