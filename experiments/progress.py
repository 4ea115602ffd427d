"""What a user sees on stderr while something long runs: the game kernels' compile status."""

from __future__ import annotations

import threading

from rich.console import Console

from sim.play import recorded_compile, warm_up
from sim.ruleset import ruleset_of


def load_game_kernels(config, console: Console | None = None, quiet_for: float = 1.0, tables=None) -> dict:
    """Compile the game kernels, or load them from numba's disk cache. A load from the cache takes
    a fraction of a second and says nothing; a status line on stderr appears only when loading
    lasts longer than ``quiet_for`` seconds (a compile), and a compile is announced when it ends.
    ``tables``: the config's compiled tables, when the caller has them. Returns `sim.play.warm_up`'s
    dict."""
    console = console or Console(stderr=True)
    last = recorded_compile(config)
    took = f"the last compile here took {last['seconds']:.0f} s" if last else "about a minute on 2 cores"
    status = console.status(f"compiling the game kernels (once per machine, then they load from the cache; {took})")
    done, lock = [False], threading.Lock()

    def show() -> None:
        with lock:
            if not done[0]:
                if console.is_terminal:
                    status.start()
                else:  # no spinner off a terminal: say it once, before the minutes of compiling
                    console.print(f"compiling the {ruleset_of(config).id} game kernels (once per machine, then they "
                                  f"load from the cache; {took})", soft_wrap=True)

    timer = threading.Timer(quiet_for, show)
    timer.start()
    try:
        loaded = warm_up(config, tables)
    finally:
        with lock:
            done[0] = True
            timer.cancel()
            status.stop()
    if loaded["source"] == "compiled":
        console.print(f"compiled the game kernels in {loaded['seconds']:.0f} s; later runs load them from the cache")
    return loaded
