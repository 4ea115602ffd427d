"""What a user sees on stderr while something long runs: the game kernels' compile status
(`load_game_kernels`) and progress bars (`Bars`: a sweep's cells and games, the games of a tune's
or a rebalance's search and then of its validation)."""

from __future__ import annotations

import threading
import time

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

from sim.play import is_cached, recorded_compile, warm_up, warm_up_all
from sim.ruleset import ruleset_of


def load_game_kernels(config, console: Console | None = None, quiet_for: float = 1.0, tables=None) -> dict:
    """Compile the game kernels, or load them from numba's disk cache. A load from the cache takes
    a fraction of a second and says nothing; a status line on stderr appears only when loading
    lasts longer than ``quiet_for`` seconds (a compile), and a compile is announced when it ends.
    ``tables``: the config's compiled tables, when the caller has them. Returns `sim.play.warm_up`'s
    dict."""
    console = console or Console(stderr=True)
    took = compile_estimate(config)
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


def compile_estimate(config) -> str:
    """How long the config's cold compile may take: the last one recorded on this machine (of its
    kernels, or of an earlier version of them), else the range measured on a quiet 2-core machine
    (README's quick start: 43-88 s a ruleset on 2 quiet cores, `shamble bench` at 3a8cbb7; up to
    2.5 minutes on a busy machine)."""
    last = recorded_compile(config)
    if last is None:
        return "45-90 s on 2 quiet cores, up to 2.5 minutes on a busy machine"
    whose = "an earlier version's compile" if last.get("earlier") else "the last compile"
    return f"{whose} here took {last['seconds']:.0f} s"


def load_all_game_kernels(configs, console: Console | None = None) -> dict:
    """The game kernels of several rulesets (the first ``shamble report`` on a fresh machine needs
    every ruleset's): when the disk cache lacks more than one ruleset's, they are compiled at once in
    parallel processes, one per core (`sim.play.warm_up_all`), with a line before and after; then
    loaded here. Returns ``{ruleset id: warm_up's dict}`` ({} when at most one ruleset needed a
    compile: `load_game_kernels` compiles it with its own status line)."""
    console = console or Console(stderr=True)
    cold = sorted({ruleset_of(c).id for c in configs if not is_cached(c)})
    if len(cold) < 2:
        return {}
    console.print(f"compiling the game kernels of {', '.join(cold)} in parallel processes (once per machine, then "
                  "they load from the cache)", soft_wrap=True)
    start = time.perf_counter()
    loaded = warm_up_all(configs)
    console.print(f"compiled the game kernels of {len(cold)} rulesets in {time.perf_counter() - start:.0f} s; "
                  "later runs load them from the cache", soft_wrap=True)
    return loaded


class Bars:
    """Progress bars on stderr (rich), drawn on a terminal only: in a log file or CI they draw
    nothing (no blank lines of bars; the caller prints a line per finished step). A bar is the
    handle `add` returns; without ``show`` there are no bars and every method does nothing.

    Examples
    --------
    >>> with Bars(show=False) as bars:
    ...     games = bars.add("search", total=100)
    ...     bars.advance(games, 10)
    ...     bars.restart(games, "validation", total=40)
    """

    def __init__(self, console: Console | None = None, show: bool = True) -> None:
        self.console, self.show = console, show
        self.progress: Progress | None = None

    def __enter__(self) -> Bars:
        if self.show:
            console = self.console or Console(stderr=True)
            self.progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                     TimeElapsedColumn(), console=console, transient=True,
                                     disable=not console.is_terminal)
            self.progress.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        if self.progress is not None:
            self.progress.__exit__(*exc)

    def add(self, description: str, total: int, completed: int = 0) -> TaskID | None:
        """A new bar of ``total`` steps, ``completed`` of them done already."""
        if self.progress is None:
            return None
        return self.progress.add_task(description, total=total, completed=completed)

    def advance(self, bar: TaskID | None, steps: int = 1) -> None:
        if self.progress is not None and bar is not None:
            self.progress.advance(bar, steps)

    def describe(self, bar: TaskID | None, description: str) -> None:
        """The words beside the bar (what is being played, the best so far)."""
        if self.progress is not None and bar is not None:
            self.progress.update(bar, description=description)

    def restart(self, bar: TaskID | None, description: str, total: int) -> None:
        """The same bar from zero, for the next stage (its clock restarts too)."""
        if self.progress is not None and bar is not None:
            self.progress.reset(bar, total=total, description=description)
