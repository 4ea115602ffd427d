"""Shared test helpers.

``dice`` runs the real kernel code as plain Python with hand-fed dice: every jitted function
of the kernel modules is swapped for its ``py_func`` and ``d6``/``uniform`` pop from a script,
so a test states the dice a rule sees and the rule's outcome (house style: hand-fed dice).
A test fails if the code rolls more dice than scripted, or fewer (``dice.done()``).

``nojit`` does the same swap with the real random streams (whole games as plain Python);
``one_game`` sets up one game with real dice (under either fixture) for a test to rearrange.
"""

from __future__ import annotations

import contextlib
import importlib
import pkgutil
import time
from pathlib import Path

import numba
import numpy as np
import pytest
from helpers import ScriptedDice

import kernels
import kernels.rng

TESTS = Path(__file__).resolve().parent


def pytest_collection_finish(session):
    """A run of several rulesets' test folders (tests/<ruleset id>/; the whole suite, CI, runs all
    four) compiles those rulesets' game kernels first, at once, in parallel processes
    (`sim.play.warm_up_all`: one per core, as the first `shamble report` on a fresh machine does),
    when the kernel cache lacks more than one of them; the tests then load them from the cache.
    Compiled one by one inside the tests they took their sum on one core (about 4 minutes for the
    four on 2 quiet cores) while the other core idled. Any other run compiles what it uses, as
    before. Nothing a test checks changes: a test that needs a fresh compile makes one in a cache of
    its own."""
    from kernels.jit import JIT_DISABLED
    from sim.play import is_cached, warm_up_all
    from sim.ruleset import all_rulesets

    if JIT_DISABLED or session.config.option.collectonly:
        return
    folders = {Path(item.path).relative_to(TESTS).parts[0] for item in session.items
               if Path(item.path).is_relative_to(TESTS)}
    chosen = [rs for rs in all_rulesets() if rs.id in folders]  # the rulesets whose test folder runs
    configs = [next(iter(rs.bench_configs().values())) for rs in chosen]
    cold = [rs.id for rs, config in zip(chosen, configs) if not is_cached(config)]
    if len(cold) < 2:
        return
    say = session.config.pluginmanager.get_plugin("terminalreporter")
    start = time.perf_counter()
    loaded = warm_up_all(configs)
    if say is not None:
        each = ", ".join(f"{rid} {loaded[rid]['seconds']:.0f} s" for rid in cold)
        say.write_line(f"conftest: compiled the game kernels of {each} in parallel processes, "
                       f"{time.perf_counter() - start:.0f} s in all; the tests load them from the cache")


_REAL_DICE = {name: getattr(getattr(kernels.rng, name), "py_func", getattr(kernels.rng, name))
              for name in ("d6", "uniform")}


def _kernel_modules():
    for info in pkgutil.walk_packages(kernels.__path__, "kernels."):
        yield importlib.import_module(info.name)


@pytest.fixture
def dice(monkeypatch):
    scripted = ScriptedDice()
    for module in _kernel_modules():
        for name, obj in list(vars(module).items()):
            if isinstance(obj, numba.core.registry.CPUDispatcher):
                monkeypatch.setattr(module, name, obj.py_func)
        if hasattr(module, "d6"):
            monkeypatch.setattr(module, "d6", scripted.d6)
        if hasattr(module, "uniform"):
            monkeypatch.setattr(module, "uniform", scripted.uniform)
    with np.errstate(over="ignore"):
        yield scripted


@pytest.fixture
def rng():
    """A one-game stream array for kernels that take (rng, g); hand-fed tests ignore it."""
    return np.zeros(1, dtype=np.uint64)


# ------------------------------------------------------------------ whole games as plain Python

EXAMPLES = TESTS.parent / "examples"


@pytest.fixture
def nojit(monkeypatch):
    """Every jitted kernel swapped for its ``py_func`` with the real random streams, so whole
    games (``sim.play.play``) run as plain Python without compiling the game (about 12 two-player
    or 4 four-player Zombie 40,000 games a second). Every registered ruleset's ``play_batch`` is
    swapped too, with the kernels of a ruleset defined outside ``kernels/`` (the test tree's)."""
    import sys

    from sim.ruleset import all_rulesets

    entries = {rs: getattr(rs.play_batch, "py_func", rs.play_batch) for rs in all_rulesets()}
    modules = {*_kernel_modules(), *(sys.modules[f.__module__] for f in entries.values())}
    for module in modules:
        for name, obj in list(vars(module).items()):
            if isinstance(obj, numba.core.registry.CPUDispatcher):
                monkeypatch.setattr(module, name, obj.py_func)
    for rs, plain in entries.items():
        monkeypatch.setattr(rs, "play_batch", plain)
    with np.errstate(over="ignore"):
        yield


# ------------------------------------------------------------------ Out West compiled afresh, twice at once


@pytest.fixture(scope="session")
def outwest_fresh_compiles():
    """Out West's game compiled afresh by two fresh processes with empty kernel caches, side by
    side: ``experiments.bench.cold_compile`` (tests/test_bench.py: the cold compile `shamble bench`
    reports) and ``shamble profile --ruleset outwest --games 300 --json`` as a user runs it
    (tests/test_profile.py: it compiles in its own temporary cache, under perf). Each is a compile of
    its own, as before; on 2 cores the pair takes about one compile's wall time instead of two.
    Returns ``{"cold": a future of cold_compile's dict (``.result()`` raises its error), "profile":
    the finished subprocess}``."""
    import subprocess
    import sys
    from concurrent.futures import ThreadPoolExecutor

    from experiments.bench import cold_compile

    code = "from experiments.cli import run; run()"
    with ThreadPoolExecutor(1) as pool:
        cold = pool.submit(cold_compile, "outwest")
        profile = subprocess.run([sys.executable, "-c", code, "profile", "--ruleset", "outwest", "--games", "300",
                                  "--json"], capture_output=True, text=True, timeout=600)
        cold.exception()  # waits for it
    return {"cold": cold, "profile": profile}


# ------------------------------------------------------------------ the tiny report

REPORT_SCALE = 0.004  # `shamble report --scale`: at least 10 games per cell


@pytest.fixture(scope="session")
def tiny_report(tmp_path_factory):
    """`shamble report` of every ruleset at ``REPORT_SCALE`` (``run_report("tiny", ...)``), played
    once a session: tests/test_report.py reads and reruns it, and the report commands of the docs
    (tests/test_docs_commands.py: the same games at the same scale) start from a copy of its
    checkpoints and resume them."""
    from experiments.report import run_report

    return run_report("tiny", tmp_path_factory.mktemp("reports"), scale=REPORT_SCALE)


def example_config(name: str = "two_players", **params):
    """An example config (examples/configs/<name>.toml) with parameters replaced."""
    from dataclasses import replace

    from sim.rulesets.zombie40k.config import load_config

    config = load_config(EXAMPLES / "configs" / f"{name}.toml")
    return replace(config, **params) if params else config


def team_config(*teams: str, policies=None, **params):
    """A GameConfig of example teams (examples/teams/<team>.toml), one player each."""
    from sim.rulesets.zombie40k.config import PlayerConfig, make_config, policy_from
    from sim.rulesets.zombie40k.teams import load_team

    policies = policies or ["advance"] * len(teams)
    players = [PlayerConfig(t, load_team(EXAMPLES / "teams" / f"{t}.toml"), policy_from(pol, t))
               for t, pol in zip(teams, policies)]
    return make_config(players, params)


def one_game(config, seed: int = 1, game: int = 0):
    """(state, tables, rng) of one game set up by ``kernels.zombie40k.spawning.setup_game`` (call it under
    ``nojit`` or ``dice``); a test then places units by hand."""
    import kernels.zombie40k.spawning
    from kernels.zombie40k import columns as GL
    from kernels.zombie40k.state import new_state
    from sim.rulesets.zombie40k.compile import compile_tables, n_units

    tables = compile_tables(config)
    st = new_state(1, config.n_players, n_units(config), tables.squad_wounds.shape[1])  # as the mods size it
    st.res[0, GL.R_WINNER] = -1
    start = getattr(kernels.rng.stream_start, "py_func", kernels.rng.stream_start)
    rng = np.array([start(np.uint64(seed), np.uint64(game))], np.uint64)
    with _real_dice():
        kernels.zombie40k.spawning.setup_game(st, 0, tables, rng)
    st.res[0, GL.R_TURNS] = 1  # game turn 1, as play_game sets it after setup
    return st, tables, rng


@contextlib.contextmanager
def _real_dice():
    """Real dice for a while, also under ``dice`` (the set-up of a hand-fed scenario)."""
    swapped = []
    for module in _kernel_modules():
        for name, real in _REAL_DICE.items():
            obj = getattr(module, name, None)
            if isinstance(getattr(obj, "__self__", None), ScriptedDice):
                swapped.append((module, name, obj))
                setattr(module, name, real)
    try:
        yield
    finally:
        for module, name, obj in swapped:
            setattr(module, name, obj)


def clear_table(st, keep=()):
    """Every unit but ``keep`` leaves the table (scenario tests, one game)."""
    import kernels.zombie40k.units

    for u in range(st.pos.shape[1]):
        if u not in keep:
            kernels.zombie40k.units.remove_unit(st, 0, u)


def put_unit(st, tb, u, x, y):
    """Unit u (its models as they are) stands with its centre at (x, y)."""
    import kernels.zombie40k.units
    from kernels.zombie40k import columns as GL

    st.pos[0, u] = x, y
    st.ustate[0, u, GL.US_ON_TABLE] = 1
    kernels.zombie40k.units.refresh_radius(st, 0, u, tb)
