"""The first report's compile processes (`sim.play.warm_up_all`) end with the report that started them.

A report killed with SIGTERM runs no clean-up; its spawned compile processes must not go on
compiling for minutes (session 28's known wart). Each worker runs `_exit_with_parent`, a daemon
thread that ends the process once its parent is gone.
"""

from __future__ import annotations

import concurrent.futures
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from sim import play
from sim.ruleset import load_config

ROOT = Path(__file__).resolve().parents[1]

PARENT = textwrap.dedent("""
    import multiprocessing, os, sys, time
    from concurrent.futures import ProcessPoolExecutor
    from sim.play import _exit_with_parent

    def sleeper(path):
        with open(path, "w") as f:
            f.write(str(os.getpid()))
        time.sleep(120)

    if __name__ == "__main__":
        pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_exit_with_parent, initargs=(os.getpid(), 0.1))
        pool.submit(sleeper, sys.argv[1])
        time.sleep(120)
""")


def _gone(pid: int) -> bool:
    """The process has ended (reaped, or a zombie nobody reaped yet)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] == "Z"


def _wait(predicate, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


def test_a_compile_process_ends_when_its_parent_is_killed_with_sigterm(tmp_path):
    script, pid_file = tmp_path / "parent.py", tmp_path / "worker.pid"
    script.write_text(PARENT)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    parent = subprocess.Popen([sys.executable, str(script), str(pid_file)], env=env, cwd=tmp_path)
    try:
        assert _wait(lambda: pid_file.exists() and pid_file.read_text(), 60), "the worker never started"
        worker = int(pid_file.read_text())
        parent.send_signal(signal.SIGTERM)
        parent.wait(10)
        # the watcher looks every 0.1 s; 10 s allows for a loaded machine (the worker would
        # otherwise sleep 120 s)
        assert _wait(lambda: _gone(worker), 10), "the worker outlived its parent"
    finally:
        parent.kill()
        if pid_file.exists() and pid_file.read_text():
            try:
                os.kill(int(pid_file.read_text()), signal.SIGKILL)
            except ProcessLookupError:
                pass


def test_warm_up_all_starts_its_processes_with_the_watcher(monkeypatch):
    made = []

    class Pool:
        def __init__(self, *args, **kwargs):
            made.append(kwargs)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def submit(self, fn, *args):
            future = concurrent.futures.Future()
            future.set_exception(RuntimeError("not compiled here"))
            return future

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Pool)
    monkeypatch.setattr(play, "is_cached", lambda config: False)
    monkeypatch.setattr(play, "warm_up", lambda config: {"source": "compiled", "seconds": 1.0})
    configs = [load_config(ROOT / "examples" / "configs" / "two_players.toml"),
               load_config(ROOT / "examples" / "outwest" / "hold.toml")]
    play.warm_up_all(configs, processes=2)
    assert made and made[0]["initializer"] is play._exit_with_parent
    assert made[0]["initargs"] == (os.getpid(),)
