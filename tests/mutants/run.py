"""The mutation harness (issue 27): do a ruleset's rules tests fail when a rule breaks?

    python tests/mutants/run.py RULESET [--only NAME ...] [--jobs N] [--list] [--min-score F]

RULESET is outwest, zombies9, zombie40k or apocalypse; its mutants are in tests/mutants/RULESET.py
(``MUTANTS``, a list of ``Mutant``) with the rules tests that must kill them (``TESTS``). Each job
copies ``kernels/ sim/ tests/ examples/ pyproject.toml`` into a scratch directory (tempfile) once;
then, mutant by mutant, it patches one file there, runs ``TESTS`` with ``NUMBA_DISABLE_JIT=1`` and
``-x -q -p no:cacheprovider`` under a timeout, and restores the file. First the unpatched copy must
pass (the baseline), or every mutant would look killed.

A mutant is KILLED when the tests fail (or time out), SURVIVED when they pass, STALE when its
snippet is not found exactly once in today's source (others edit the kernels: it is neither). The
last line is ``mutants killed: K/N`` (N counts the mutants that ran). The exit code is 0 unless the
harness itself fails (2) or ``--min-score`` is given and K/N is below it (1).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from mutant import ROOT, Mutant  # noqa: E402

RULESETS = ("outwest", "zombies9", "zombie40k", "apocalypse")
COPIED = ("kernels", "sim", "tests", "examples", "pyproject.toml")
PYTEST_ARGS = ("-x", "-q", "-p", "no:cacheprovider")


def load(ruleset: str):
    """The ruleset's mutant module (tests/mutants/RULESET.py): MUTANTS, TESTS, TIMEOUT."""
    if ruleset not in RULESETS:
        raise SystemExit(f"ruleset: {ruleset!r} is not one of {', '.join(RULESETS)}")
    spec = importlib.util.spec_from_file_location(f"mutants_{ruleset}", HERE / f"{ruleset}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def scratch_copy(root: Path = ROOT) -> Path:
    """A fresh copy of what the tests need (no bytecode caches, no venv)."""
    dest = Path(tempfile.mkdtemp(prefix="shamble-mutant-"))
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache", "*.nbi", "*.nbc")
    for name in COPIED:
        src = root / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=ignore)
        elif src.is_file():
            shutil.copy2(src, dest / name)
    return dest


def run_tests(where: Path, tests: list[str], timeout: float) -> tuple[str, float, str]:
    """Run the tests in ``where``: ('pass' | 'fail' | 'timeout', seconds, last lines of output)."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONDONTWRITEBYTECODE="1",
               PYTHONPATH=os.pathsep.join([str(where), str(where / "tests")]))
    t0 = time.monotonic()
    try:
        out = subprocess.run([sys.executable, "-m", "pytest", *PYTEST_ARGS, *tests], cwd=where, env=env,
                             capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", time.monotonic() - t0, ""
    tail = "\n".join((out.stdout + out.stderr).strip().splitlines()[-6:])
    if out.returncode == 0:
        return "pass", time.monotonic() - t0, tail
    if out.returncode in (1, 2):  # 1 = a test failed; 2 = collection (import) error under the mutant
        return "fail", time.monotonic() - t0, tail
    return f"error {out.returncode}", time.monotonic() - t0, tail


def check_copy_is_used(where: Path) -> None:
    """The scratch copy's kernels are the ones imported (not the editable install's)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(where), str(where / "tests")]))
    out = subprocess.run([sys.executable, "-c", "import kernels; print(kernels.__file__)"], cwd=where, env=env,
                         capture_output=True, text=True, check=True)
    if not Path(out.stdout.strip()).resolve().is_relative_to(where.resolve()):
        raise SystemExit(f"harness: the scratch copy's kernels are not imported ({out.stdout.strip()})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ruleset", choices=RULESETS)
    ap.add_argument("--only", nargs="+", metavar="NAME", help="run only these mutants")
    ap.add_argument("--jobs", type=int, default=1, help="mutants run at once (default 1: the machine is shared)")
    ap.add_argument("--list", action="store_true", help="list the mutants (and which are stale) and stop")
    ap.add_argument("--min-score", type=float, default=None, help="exit 1 when killed/ran is below this (0-1)")
    ap.add_argument("--timeout", type=float, default=None, help="seconds per mutant (default: the ruleset's)")
    ap.add_argument("--no-baseline", action="store_true", help="skip the run of the unpatched copy")
    ap.add_argument("--tests", nargs="+", help="run these test files instead of the ruleset's TESTS")
    a = ap.parse_args(argv)
    module = load(a.ruleset)
    mutants: list[Mutant] = list(module.MUTANTS)
    if a.only:
        unknown = sorted(set(a.only) - {m.name for m in mutants})
        if unknown:
            raise SystemExit(f"--only: no mutant named {', '.join(unknown)} in {a.ruleset}")
        mutants = [m for m in mutants if m.name in a.only]
    tests = a.tests or list(module.TESTS)
    timeout = a.timeout or getattr(module, "TIMEOUT", 600.0)
    if a.jobs < 1:
        raise SystemExit(f"--jobs: {a.jobs} is not allowed (at least 1)")

    stale = [m for m in mutants if m.count() != 1]
    live = [m for m in mutants if m.count() == 1]
    if a.list:
        for m in mutants:
            flag = "" if m.count() == 1 else f"  STALE (found {m.count()}x)"
            print(f"{m.name:40s} {m.rule:18s} {m.path}{flag}\n    {m.breaks}")
        print(f"{len(mutants)} mutants, {len(stale)} stale")
        return 0

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(2))  # scratch copies are removed on the way out
    t_start = time.monotonic()
    copies: list[Path] = []
    lock = threading.Lock()
    results: dict[str, tuple[str, float, str]] = {}
    try:
        base = scratch_copy()
        copies.append(base)
        check_copy_is_used(base)
        if not a.no_baseline:
            verdict, secs, tail = run_tests(base, tests, timeout)
            print(f"baseline (unpatched): {verdict} in {secs:.0f}s", flush=True)
            if verdict != "pass":
                print(tail)
                print("harness: the rules tests fail on the unpatched code; no score", file=sys.stderr)
                return 2
        pool_copies = [base] + [scratch_copy() for _ in range(min(a.jobs, max(1, len(live))) - 1)]
        copies[:] = pool_copies
        free = list(pool_copies)

        def one(m: Mutant) -> None:
            with lock:
                where = free.pop()
            original = m.apply(where)
            try:
                results[m.name] = run_tests(where, tests, timeout)
            finally:
                (where / m.path).write_text(original)
                with lock:
                    free.append(where)
            verdict, secs, _ = results[m.name]
            word = "SURVIVED" if verdict == "pass" else "killed" + ("" if verdict == "fail" else f" ({verdict})")
            print(f"  {m.name:40s} {word:18s} {secs:5.0f}s", flush=True)

        with ThreadPoolExecutor(max_workers=a.jobs) as ex:
            list(ex.map(one, live))
    finally:
        for c in copies:
            shutil.rmtree(c, ignore_errors=True)

    survivors = [m for m in live if results[m.name][0] == "pass"]
    for m in stale:
        print(f"STALE    {m.name} ({m.rule}, {m.path}): snippet found {m.count()}x")
    for m in survivors:
        print(f"SURVIVED {m.name} ({m.rule}, {m.path}): {m.breaks}")
    killed = len(live) - len(survivors)
    print(f"time: {time.monotonic() - t_start:.0f}s, {len(stale)} stale")
    print(f"mutants killed: {killed}/{len(live)}")
    if a.min_score is not None and live and killed / len(live) < a.min_score:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
