"""The ``shamble`` command line (typer): parse, call one function, print.

Bad input (a value out of range, an unknown name, a missing folder) ends the command with one
line on stderr starting with ``error:`` and exit code 2; the errors are caught here, at the
edge, and nowhere below.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from typer.exceptions import TyperException

from experiments.bench import SCALE_MAX, WITHOUT_GAMES, bench_json, render_bench, run_bench
from experiments.odds import odds_json, odds_report, plot_odds, render_odds, render_rows
from experiments.roster import (
    mods_json,
    params_json,
    policies_json,
    render_mods,
    render_params,
    render_policies,
    render_roster,
    roster_report,
)
from sim.rulesets.zombie40k.catalogue import catalogue
from sim.rulesets.zombie40k.odds import odds_situation
from sim.w40k.odds import unit_rows, weapon_rows

app = typer.Typer(
    name="shamble",
    help="Shamble: Monte Carlo balance simulator for zombie-survival wargames (Zombie 40,000).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

USAGE_ERROR = 2
BROKEN_RULES = 1  # `roster check`: the team was read but breaks zombie40k §2

roster_app = typer.Typer(help="Team files (zombie40k §2): check a team before it plays.", no_args_is_help=True)
app.add_typer(roster_app, name="roster")


def _package_version() -> str:
    try:
        return version("shamble")
    except PackageNotFoundError:
        return "unknown"


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"shamble {_package_version()}")
        raise typer.Exit()


@app.callback()
def main(
    show_version: Annotated[
        bool, typer.Option("--version", callback=_show_version, is_eager=True, help="Show the version and exit.")
    ] = False,
) -> None:
    """Shamble: Monte Carlo balance simulator for zombie-survival wargames (Zombie 40,000)."""


@contextlib.contextmanager
def _user_errors():
    """Bad input -> 'error: ...' on one line of stderr, exit code 2, no traceback."""
    try:
        yield
    except (ValueError, FileNotFoundError) as err:  # UnknownNameError and CatalogueError are ValueErrors
        _fail(str(err) or type(err).__name__)
    except OSError as err:  # a folder that cannot be written, a path through a file
        _fail(f"{err.filename}: " * bool(err.filename) + (err.strerror or type(err).__name__))


def _fail(message: str, code: int = USAGE_ERROR):
    typer.echo(f"error: {' '.join(message.split())}", err=True)
    raise typer.Exit(code) from None


def _playable(config, seed: int, batch_size: int) -> None:
    """Refuse what ``sim.play`` would refuse, before a progress bar is drawn on stderr."""
    from sim.rulesets.zombie40k.compile import compile_tables

    if not 0 <= seed < 2**63:
        raise ValueError(f"--seed {seed}; allowed: 0 to 2**63 - 1")
    if not 1 <= batch_size <= 1_000_000:
        raise ValueError(f"--batch-size {batch_size}; allowed: 1-1000000")
    compile_tables(config)


def _writable(option: str, folder: Path, file: Path | None = None) -> None:
    """Refuse an output folder before the work, not after: it must exist and take a file."""
    allowed = "allowed: " + ("a file name in an existing, writable folder" if file else "an existing, writable folder")
    if file is not None and file.is_dir():
        raise ValueError(f"{option}: is a folder; {allowed}")
    if not folder.is_dir():
        raise ValueError(f"{option}: folder {folder} {'is a file' if folder.exists() else 'does not exist'}; {allowed}")
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".shamble-", suffix=".tmp")
        os.close(fd)
        os.unlink(probe)
    except OSError as err:
        raise ValueError(f"{option}: cannot write in folder {folder} ({err.strerror}); {allowed}") from None


Int = int | None


@app.command()
def odds(
    attacker: Annotated[str, typer.Argument(help="Attacking unit (see `shamble units`).")],
    target: Annotated[str, typer.Option(help="Target unit.")] = "Zombie",
    weapon: Annotated[str | None, typer.Option(help="Weapon profile (default: the first ranged weapon).")] = None,
    models: Annotated[int, typer.Option(help="Attacking models.")] = 1,
    dice: Annotated[Int, typer.Option(help="Attack dice in total (default: from the rules).")] = None,
    target_models: Annotated[int, typer.Option(help="Target models.")] = 10,
    leader: Annotated[str | None, typer.Option(help="Attack with this leader upgrade's profile.")] = None,
    melee: Annotated[bool, typer.Option("--melee", help="Close combat.")] = False,
    charge: Annotated[bool, typer.Option("--charge", help="The attacker charged (close combat).")] = False,
    first_round: Annotated[bool, typer.Option("--first-round/--later-round", help="Round of the combat.")] = True,
    half_range: Annotated[bool, typer.Option("--half-range", help="Within half range (Rapid Fire).")] = False,
    moved: Annotated[bool, typer.Option("--moved", help="The attacker moved (Heavy, Salvo).")] = False,
    snap: Annotated[bool, typer.Option("--snap", help="Snap Shots.")] = False,
    overwatch: Annotated[bool, typer.Option("--overwatch", help="Overwatch.")] = False,
    cover: Annotated[Int, typer.Option(help="Target's cover save (2-6).")] = None,
    t: Annotated[Int, typer.Option("--t", help="Target Toughness.")] = None,
    sv: Annotated[Int, typer.Option("--sv", help="Target armour save (2-6, 7 = none).")] = None,
    inv: Annotated[Int, typer.Option("--inv", help="Target invulnerable save (2-6, 7 = none).")] = None,
    fnp: Annotated[Int, typer.Option("--fnp", help="Target Feel No Pain (2-6, 7 = none).")] = None,
    w: Annotated[Int, typer.Option("--w", help="Target Wounds.")] = None,
    chuck: Annotated[bool, typer.Option("--chuck", help="Blessing of Chuck Norris on the attacker.")] = False,
    defender_chuck: Annotated[bool, typer.Option("--defender-chuck", help="... on the target.")] = False,
    medpacks: Annotated[int, typer.Option(help="Medpacks the target holds.")] = 0,
    simulate: Annotated[int, typer.Option(help="Also play N games in the kernels.")] = 0,
    seed: Annotated[int, typer.Option(help="Seed of --simulate.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    plot: Annotated[Path | None, typer.Option(help="Draw the distributions to FILE.png.")] = None,
) -> None:
    """Exact odds of one shooting or close combat exchange (unsaved wounds, models removed)."""
    with _user_errors():
        if plot is not None:
            _writable(f"--plot {plot}", plot.parent, plot)
        result = odds_report(
            attacker, weapon, target, simulate=simulate, seed=seed, models=models, dice=dice,
            target_models=target_models, melee=melee, charge=charge, first_round=first_round,
            half_range=half_range, moved=moved, snap=snap, overwatch=overwatch, cover=cover, t=t, sv=sv,
            inv=inv, fnp=fnp, w=w, leader=leader, **odds_situation(chuck, defender_chuck, medpacks),
        )
        if plot is not None:
            plot_odds(result, plot)
    if as_json:
        typer.echo(odds_json(result))
    else:
        render_odds(result, Console())


@app.command()
def bench(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    quick: Annotated[bool, typer.Option("--quick", help="Tiny sizes (tests).")] = False,
    games: Annotated[Int, typer.Option(help="Games of the attack benchmark (default: sized to ~0.25 s).")] = None,
    threads: Annotated[Int, typer.Option(help="numba threads.")] = None,
    whole_games: Annotated[bool, typer.Option("--whole-games/--no-whole-games",
                                              help="Also time whole games (sample configs, mods, scaling).")] = True,
    scale_max: Annotated[int, typer.Option(help="Largest run of the scaling benchmark (10^3 .. this many games; "
                                                "10^6 is about 13 of the 20 minutes on 2 cores).")] = SCALE_MAX,
) -> None:
    """Kernel speed on this machine: dice ceiling, attacks/s, whole games/s, scaling, memory, JIT speed-ups,
    and the goals of issue 6 beside them (about 20 minutes on 2 cores; --scale-max 100000: about 6)."""
    with _user_errors(), Console(stderr=True).status("bench") as status:
        results = run_bench(games=games, quick=quick, threads=threads,
                            benchmarks=None if whole_games else WITHOUT_GAMES, scale_max=scale_max,
                            say=lambda what: status.update(f"bench: {what}"))
    if as_json:
        typer.echo(bench_json(results))
    else:
        render_bench(results, Console())


@app.command()
def units() -> None:
    """List the catalogue's units: faction, points per model, profile, wargear."""
    with _user_errors():
        rows = unit_rows(catalogue())
    render_rows(rows, "Units", Console())


@app.command()
def weapons() -> None:
    """List the catalogue's weapon profiles (and the items that stand for several)."""
    with _user_errors():
        rows = weapon_rows(catalogue())
    render_rows(rows, "Weapons", Console())


@roster_app.command("check")
def roster_check(
    file: Annotated[Path, typer.Argument(help="Team file (TOML; see examples/teams).")],
    budget: Annotated[int, typer.Option(help="Points the team may cost (zombie40k §2).")] = 75,
    hardcore: Annotated[bool, typer.Option("--hardcore", help="Hardcore Mode: no USR (zombie40k §10.6).")] = False,
) -> None:
    """Show a team (models, profiles, weapons, cost) and every team-building rule it breaks (exit 1)."""
    with _user_errors():
        report = roster_report(file, budget=budget, hardcore=hardcore)
    render_roster(report, Console())
    if not report.is_legal:
        raise typer.Exit(BROKEN_RULES)


@app.command()
def params(as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
    """List every game parameter a config may set: default, confidence tag, spec section, choices."""
    if as_json:
        typer.echo(params_json())
    else:
        render_params(Console())


@app.command()
def policies(as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
    """List the policy presets (how a player plays) and their fields."""
    if as_json:
        typer.echo(policies_json())
    else:
        render_policies(Console())


@app.command()
def mods(as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
    """List the mods (zombie40k §10): what each changes, its parameters and defaults, and clashes."""
    if as_json:
        typer.echo(mods_json())
    else:
        render_mods(Console())


ModOption = Annotated[list[str] | None, typer.Option(
    "--mod", help="A mod to play under (repeat for several; adds to the config's mods; see `shamble mods`).")]


def _config(path: Path, extra_mods: list[str] | None = None):
    from sim.rulesets.zombie40k.config import load_config, with_mods

    return with_mods(load_config(path), extra_mods or ())


@app.command()
def play(
    config: Annotated[Path, typer.Argument(help="Game configuration (TOML), e.g. examples/configs/four_players.toml.")],
    games: Annotated[int, typer.Option("--games", "-n", help="Games to play.")] = 1000,
    seed: Annotated[int, typer.Option(help="Random seed: game i depends only on (seed, i).")] = 1,
    out: Annotated[Path | None, typer.Option(help="Write one row per (game, player): .parquet or .csv.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    batch_size: Annotated[int, typer.Option(help="Games per batch (memory), never changes results.")] = 2048,
    mod: ModOption = None,
) -> None:
    """Play a configuration: escape rate per player with 95% Wilson intervals, game length, end reasons."""
    from experiments.play import render_summary, run_play, summarise, summary_json, write_atomic

    with _user_errors():
        if games < 1:
            raise ValueError(f"--games {games}; allowed: 1 or more")
        cfg = _config(config, mod)
        if out is not None and out.suffix not in (".parquet", ".csv"):
            raise ValueError(f"--out {out}: allowed suffixes: .parquet, .csv")
        if out is not None:
            _writable(f"--out {out}", out.parent, out)
        _playable(cfg, seed, batch_size)
        df = run_play(cfg, games, seed, show_progress=not as_json, batch_size=batch_size)
        summary = summarise(cfg, df)
        if out is not None:
            write_atomic(df, out)
    if as_json:
        typer.echo(summary_json(summary))
    else:
        render_summary(summary, Console())


@app.command()
def trace(
    config: Annotated[Path, typer.Argument(help="Game configuration (TOML).")],
    seed: Annotated[int, typer.Option(help="Random seed of the run.")] = 1,
    game: Annotated[int, typer.Option(help="Which game of the run (0-based).")] = 0,
    png: Annotated[Path | None, typer.Option(help="Folder for one PNG of the table per game turn.")] = None,
    mod: ModOption = None,
) -> None:
    """Tell one game turn by turn (moves, shots, charges, kills, power-ups) and draw the table."""
    from experiments.trace import trace as trace_one

    with _user_errors():
        if not 0 <= game < 2**63:
            raise ValueError(f"--game {game}; allowed: 0 to 2**63 - 1")
        if png is not None:
            _writable(f"--png {png}", png)
        lines, pictures = trace_one(_config(config, mod), seed, game, png)
    typer.echo("\n".join(lines))
    for path in pictures:
        typer.echo(f"wrote {path}")


INTERRUPTED = 130  # the shell's code for Ctrl-C


@app.command()
def sweep(
    experiment: Annotated[Path, typer.Argument(help="Experiment file (TOML), e.g. examples/experiments/*.toml.")],
    out: Annotated[Path, typer.Option(help="Output folder: cells/, results.parquet, summary.csv, meta.json.")],
    fresh: Annotated[bool, typer.Option("--fresh", help="Delete the folder's old results first.")] = False,
    dask: Annotated[str | None, typer.Option(help="Run the cells on Dask: a scheduler address, or 'local'.")] = None,
    games: Annotated[Int, typer.Option("--games", "-n", help="Games per cell (overrides the file).")] = None,
    target_halfwidth: Annotated[float | None, typer.Option(
        help="Sequential sampling: play each cell until every 95% half-width <= X (games = the cap).")] = None,
) -> None:
    """Play every cell of an experiment (resumable: rerun the same command after an interruption)."""
    from experiments.sweep import render_sweep, sweep_file

    console = Console()
    with _user_errors(), _interruptible(out):
        result = sweep_file(experiment, out, games, target_halfwidth, fresh, dask, console)
    render_sweep(result, console)


@contextlib.contextmanager
def _interruptible(out: Path):
    """Ctrl-C -> one line saying the finished cells are kept, exit code 130."""
    try:
        yield
    except KeyboardInterrupt:
        typer.echo(f"interrupted: finished cells are kept in {out}; rerun the same command to resume", err=True)
        raise typer.Exit(INTERRUPTED) from None


@app.command()
def solve(
    config: Annotated[Path, typer.Argument(help="Game configuration (TOML).")],
    param: Annotated[str, typer.Option(help="Numeric parameter to solve for: budget or any `shamble params` number.")],
    target: Annotated[float, typer.Option(help="Target escape rate.")] = 0.5,
    player: Annotated[str | None, typer.Option(help="Whose escape rate (name or index; default: anyone's).")] = None,
    lo: Annotated[float | None, typer.Option(help="Low end of the search (default: the plausible range).")] = None,
    hi: Annotated[float | None, typer.Option(help="High end of the search.")] = None,
    games: Annotated[int, typer.Option("--games", "-n", help="Games per value in the first round.")] = 400,
    seed: Annotated[int, typer.Option(help="Seed: every value plays the same games.")] = 1,
) -> None:
    """Find the parameter value that gives a target escape rate (stochastic root-finding on CRN)."""
    from experiments.solve import render_solution
    from experiments.solve import solve as solve_param

    with _user_errors():
        if games < 10:
            raise ValueError(f"--games {games}; allowed: 10 or more")
        solution = solve_param(_config(config), param, target, player, lo, hi, games, seed)
    render_solution(solution, Console())


@app.command()
def sensitivity(
    config: Annotated[Path, typer.Argument(help="Game configuration (TOML).")],
    out: Annotated[Path, typer.Option(help="Output folder (a resumable sweep, plus sensitivity.csv).")],
    games: Annotated[int, typer.Option("--games", "-n", help="Games per value.")] = 1000,
    seed: Annotated[int, typer.Option(help="Seed: every value plays the same games.")] = 1,
    fresh: Annotated[bool, typer.Option("--fresh", help="Delete the folder's old results first.")] = False,
    dask: Annotated[str | None, typer.Option(help="Run the cells on Dask: a scheduler address, or 'local'.")] = None,
) -> None:
    """Rank the chosen ([C]) numbers by how much each moves the escape rate across its plausible range."""
    from experiments.sensitivity import render_sensitivity, run_sensitivity

    console = Console()
    with _user_errors(), _interruptible(out):
        table = run_sensitivity(_config(config), out, games, seed, fresh, dask, console)
    render_sensitivity(table, console)


@app.command()
def report(
    name: Annotated[str, typer.Option(help="Report name: the folder under --out.")] = "latest",
    out: Annotated[Path, typer.Option(help="Folder of reports.")] = Path("reports"),
    scale: Annotated[float, typer.Option(help="Games per cell times X (1 = about 2 min on 2 cores, compiled).")] = 1.0,
    fresh: Annotated[bool, typer.Option("--fresh", help="Replay every section from scratch.")] = False,
    dask: Annotated[str | None, typer.Option(help="Run the cells on Dask: a scheduler address, or 'local'.")] = None,
) -> None:
    """The balance report: base vs each mod, budgets, power-ups, factions, the chosen numbers (resumable)."""
    from experiments.report import run_report

    with _user_errors(), _interruptible(out / name):
        folder = run_report(name, out, scale, fresh, dask)
    typer.echo(f"{folder / 'index.html'}")


def run(args: list[str] | None = None) -> None:
    """The ``shamble`` console script: ``app`` with click's usage errors (a bad option value, an
    unknown option or command, a missing argument) on one ``error:`` line, exit code 2."""
    try:
        code = app(args, prog_name="shamble", standalone_mode=False)
    except TyperException as err:  # typer's click: UsageError, BadParameter, NoSuchOption, MissingParameter...
        if type(err).__name__ == "NoArgsIsHelpError":  # no arguments: the help, already printed (rich)
            if err.format_message():
                typer.echo(err.format_message())
            sys.exit(USAGE_ERROR)
        ctx = getattr(err, "ctx", None)
        where = f" (see `{ctx.command_path} --help`)" if ctx is not None else ""
        typer.echo(f"error: {' '.join(err.format_message().split())}{where}", err=True)
        code = err.exit_code
    except typer.Abort:
        typer.echo("error: aborted", err=True)
        code = 1
    sys.exit(code or 0)
