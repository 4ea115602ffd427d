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
from pathlib import Path

import numba
import numpy as np
import pytest
from helpers import ScriptedDice

import kernels
import kernels.rng

TESTS = Path(__file__).resolve().parent


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_setupnodes(config, specs):
    """Under pytest-xdist (`pytest -n auto`, the README's test command) the controller compiles
    the game kernels first, before its workers start (`_compile_first`; xdist calls this hook
    before it sets up any worker, after the terminal's header), for the ruleset folders its
    arguments cover; the workers then load them from the cache (two workers compiling the same
    kernels at once would each pay the compile)."""
    _compile_first(config, _folders_of_args(config))


def pytest_collection_finish(session):
    """A run without xdist compiles first for the ruleset folders of the tests it collected."""
    config = session.config
    if not _is_xdist_controller(config) and not hasattr(config, "workerinput"):
        _compile_first(config, {Path(item.path).relative_to(TESTS).parts[0] for item in session.items
                                if Path(item.path).is_relative_to(TESTS)})


def _compile_first(config, folders: set[str]) -> None:
    """A run of several rulesets' test folders (tests/<ruleset id>/; the whole suite, CI, runs all
    four) compiles those rulesets' game kernels first, at once, in parallel processes
    (`experiments.progress.load_all_game_kernels`: one per core, as the first `shamble report` on a
    fresh machine does), when the kernel cache lacks more than one of them; the tests then load
    them from the cache. Compiled one by one inside the tests they took their sum on one core
    (about 4 minutes for the four on 2 quiet cores) while the other core idled. Any other run
    compiles what it uses, as before. Nothing a test checks changes: a test that needs a fresh
    compile makes one in a cache of its own."""
    from experiments.progress import load_all_game_kernels
    from kernels.jit import JIT_DISABLED
    from sim.ruleset import all_rulesets

    if JIT_DISABLED or config.option.collectonly:
        return
    configs = [next(iter(rs.bench_configs().values())) for rs in all_rulesets() if rs.id in folders]
    load_all_game_kernels(configs, _ReporterConsole(config.pluginmanager.get_plugin("terminalreporter")))


class _ReporterConsole:
    """The ``print`` of a rich console, written as lines to pytest's terminal reporter."""

    def __init__(self, reporter) -> None:
        self.reporter = reporter

    def print(self, text: str, **_) -> None:
        if self.reporter is not None:
            self.reporter.write_line(f"conftest: {text}")


def _is_xdist_controller(config) -> bool:
    """Whether this process hands the tests to pytest-xdist workers (``-n 2``, ``-n auto``)."""
    return (not hasattr(config, "workerinput") and config.pluginmanager.hasplugin("xdist")
            and bool(getattr(config.option, "tx", None)) and getattr(config.option, "dist", "no") != "no")


def _folders_of_args(config) -> set[str]:
    """The top folders of tests/ that the command line's paths cover (the whole of tests/ for
    none: its ``testpaths``)."""
    folders = set()
    for arg in config.args:
        path = (config.invocation_params.dir / arg.split("::")[0]).resolve()
        if TESTS.is_relative_to(path):
            folders |= {p.name for p in TESTS.iterdir() if p.is_dir()}
        elif path.is_relative_to(TESTS) and path != TESTS:
            folders.add(path.relative_to(TESTS).parts[0])
    return folders


# The session fixtures worth making once a run, and the test files that use them: under xdist these
# files run on one worker (`pytest_xdist_make_scheduler`), so each fixture is made once.
SHARED_FIXTURES = {
    "tiny_report": ("tests/test_report.py", "tests/test_docs_commands.py"),
    "outwest_fresh_compiles": ("tests/test_bench.py", "tests/test_profile.py"),
}


def pytest_collection_modifyitems(config, items):
    """A test file that uses a shared session fixture must be listed with it in `SHARED_FIXTURES`
    (else two workers would each make it)."""
    for item in items:
        path = Path(item.path)
        file = path.relative_to(TESTS.parent).as_posix() if path.is_relative_to(TESTS) else None
        for name, files in SHARED_FIXTURES.items():
            if file and name in getattr(item, "fixturenames", ()) and file not in files:
                raise pytest.UsageError(f"tests/conftest.py: {file} uses the session fixture {name}: add it to "
                                        f"SHARED_FIXTURES[{name!r}] so that one worker runs the files that use it")


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """Under pytest-xdist (`pytest -n auto`, the README's test command) a worker runs a test file
    whole (its module fixtures and the kernels it compiles for itself made once), and the files of
    a shared session fixture together (`SHARED_FIXTURES`). (xdist's own ``--dist loadgroup``
    groups by a mark it writes into the node id, which pytest 9.2 no longer reads.)"""
    from xdist.scheduler import LoadFileScheduling

    group_of = {file: name for name, files in SHARED_FIXTURES.items() for file in files}

    class SharedFixtureScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            file = nodeid.split("::", 1)[0]
            return group_of.get(file, file)

    return SharedFixtureScheduling(config, log)


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
