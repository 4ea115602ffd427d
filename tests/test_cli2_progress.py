"""Progress you can see off a terminal (issue 29, item 21): the compile announced before it
starts, the section and ruleset beside the bars, and no blank lines of bars in a log file."""

from __future__ import annotations

import io
import time
from pathlib import Path

from rich.console import Console

from experiments import progress
from experiments.progress import Bars
from experiments.sweep import _CellBars
from sim.ruleset import load_config

TWO = Path(__file__).resolve().parents[1] / "examples" / "configs" / "two_players.toml"


def _log() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, force_terminal=False, width=100), out


def test_a_compile_is_announced_before_it_ends_off_a_terminal(monkeypatch):
    console, out = _log()
    said_before = []

    def slow_compile(config, tables=None):
        time.sleep(0.5)
        said_before.append(out.getvalue())
        return {"source": "compiled", "seconds": 0.5}

    monkeypatch.setattr(progress, "warm_up", slow_compile)
    monkeypatch.setattr(progress, "recorded_compile", lambda config: None)
    progress.load_game_kernels(load_config(TWO), console, quiet_for=0.05)
    assert "compiling the zombie40k game kernels" in said_before[0]  # said while it was compiling
    assert "compiled the game kernels in" in out.getvalue()


def test_a_cache_load_stays_quiet(monkeypatch):
    console, out = _log()
    monkeypatch.setattr(progress, "warm_up", lambda config, tables=None: {"source": "cache", "seconds": 0.01})
    progress.load_game_kernels(load_config(TWO), console, quiet_for=0.5)
    assert out.getvalue() == ""


def test_bars_draw_nothing_in_a_log_and_name_the_section_on_a_terminal():
    console, out = _log()
    with Bars(console) as bars:
        bar = bars.add("cells", total=3)
        bars.advance(bar, 3)
    assert out.getvalue().strip() == ""
    exp = type("Exp", (), {"games": 10})()
    with Bars(Console(file=io.StringIO(), force_terminal=True)) as bars:
        _CellBars(bars, 4, 1, exp, 3, "zombie40k/mods (3/9)")
        assert [t.description for t in bars.progress.tasks] == ["zombie40k/mods (3/9): cells",
                                                                 "zombie40k/mods (3/9): games"]


def test_a_search_bar_restarts_for_the_validation():
    """A tune's and a rebalance's one bar: the search's games, then the validation's from zero."""
    with Bars(Console(file=io.StringIO(), force_terminal=True)) as bars:
        bar = bars.add("search", total=100)
        bars.advance(bar, 60)
        bars.describe(bar, "search: candidate 3, 1 sides outside ±3")
        assert [(t.description, t.completed) for t in bars.progress.tasks] == [("search: candidate 3, 1 sides "
                                                                                 "outside ±3", 60)]
        bars.restart(bar, "validation (seed 2025)", total=40)
        bars.advance(bar, 5)
        assert [(t.description, t.completed, t.total) for t in bars.progress.tasks] == [("validation (seed 2025)", 5,
                                                                                          40)]


def test_no_bars_when_not_shown():
    with Bars(show=False) as bars:
        bar = bars.add("search", total=10)
        bars.advance(bar, 3)
        bars.restart(bar, "validation", total=4)
    assert bar is None and bars.progress is None


OUTWEST = Path(__file__).resolve().parents[1] / "examples" / "outwest" / "hold.toml"


def test_several_cold_rulesets_are_compiled_at_once_and_said_so(monkeypatch):
    """The first report on a fresh machine: the rulesets the cache lacks go to `warm_up_all` (one
    process per core), with a line before and after; a warm cache says nothing."""
    console, out = _log()
    configs = [load_config(TWO), load_config(OUTWEST)]
    asked = []
    monkeypatch.setattr(progress, "is_cached", lambda config: False)
    monkeypatch.setattr(progress, "warm_up_all", lambda cs: asked.append(cs) or {"zombie40k": {}, "outwest": {}})
    progress.load_all_game_kernels(configs, console)
    assert asked == [configs]
    text = out.getvalue()
    assert "compiling the game kernels of outwest, zombie40k in parallel processes" in text
    assert "compiled the game kernels of 2 rulesets in" in text
    console, out = _log()
    monkeypatch.setattr(progress, "is_cached", lambda config: True)
    assert progress.load_all_game_kernels(configs, console) == {} and out.getvalue() == ""


def test_warm_up_all_loads_one_config_per_ruleset_here_when_the_cache_holds_them(monkeypatch):
    from sim import play

    warmed = []
    monkeypatch.setattr(play, "is_cached", lambda config: True)
    monkeypatch.setattr(play, "warm_up", lambda config: warmed.append(config) or {"source": "disk cache",
                                                                                  "seconds": 0.1})
    two, four, hold = load_config(TWO), load_config(TWO.with_name("four_players.toml")), load_config(OUTWEST)
    done = play.warm_up_all([two, four, hold])
    assert warmed == [two, hold]  # one per ruleset, no process started
    assert done == {"zombie40k": {"source": "disk cache", "seconds": 0.1}, "outwest": {"source": "disk cache",
                                                                                       "seconds": 0.1}}


def test_the_compile_estimate_is_this_machines_last_compile_else_an_earlier_versions(monkeypatch, tmp_path):
    """A kernel edit moves the cache folder: the estimate then reads an earlier version's record of
    the same ruleset (the newest), never another ruleset's; with no record, the README's range."""
    import json

    from kernels.jit import cache_dir
    from sim.play import recorded_compile

    monkeypatch.setenv("SHAMBLE_NUMBA_CACHE", str(tmp_path))
    config = load_config(TWO)
    assert recorded_compile(config) is None
    assert progress.compile_estimate(config) == "45-90 s on 2 quiet cores, up to 2.5 minutes on a busy machine"
    folder = cache_dir("zombie40k")
    for name, seconds, when in (("zombie40k-0000000000000000", 150.0, "2026-12-06 10:00:00"),
                                ("zombie40k-1111111111111111", 140.0, "2026-12-07 10:00:00"),
                                ("outwest-2222222222222222", 57.0, "2026-12-08 10:00:00")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "compile.json").write_text(json.dumps({"seconds": seconds, "when": when}))
    assert recorded_compile(config) == {"seconds": 140.0, "when": "2026-12-07 10:00:00", "earlier": True}
    assert progress.compile_estimate(config) == "an earlier version's compile here took 140 s"
    folder.mkdir()
    (folder / "compile.json").write_text(json.dumps({"seconds": 143.4, "when": "2026-12-01 10:00:00"}))
    assert progress.compile_estimate(config) == "the last compile here took 143 s"
