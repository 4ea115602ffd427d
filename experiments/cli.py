"""The ``shamble`` command line (typer): parse, call one function, print.

The shared commands (play, trace, sweep, solve, sensitivity, report, bench, profile, params,
policies, rulesets) work for every ruleset: a config names its ruleset, and the commands that take no
config take ``--ruleset``. Each ruleset's own commands come from the ruleset (``Ruleset.cli``):
``shamble zombie40k mods``; the default ruleset's are also top-level commands (``shamble mods``).
Bad input (a value out of range, an unknown name, a path through a file) ends the command with
one line on stderr starting with ``error:`` and exit code 2 (``sim.cli_errors``).
"""

from __future__ import annotations

import contextlib
import json
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from typer.exceptions import TyperException

from experiments import optimality
from experiments.bench import SCALE_MAX, WITHOUT_GAMES, bench_json, render_bench, run_bench
from experiments.params import mods_json, params_json, policies_json, render_mods, render_params, render_policies
from sim.cli_errors import USAGE_ERROR, user_errors, writable
from sim.ruleset import DEFAULT_RULESET, all_rulesets, get, load_config

app = typer.Typer(
    name="shamble",
    help="Shamble: Monte Carlo balance simulator for zombie-survival tabletop games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


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


def _playable(config, seed: int, batch_size: int) -> None:
    """Refuse what ``sim.play`` would refuse, before a progress bar is drawn on stderr."""
    if not 0 <= seed < 2**63:
        raise ValueError(f"--seed {seed}; allowed: 0 to 2**63 - 1")
    if not 1 <= batch_size <= 1_000_000:
        raise ValueError(f"--batch-size {batch_size}; allowed: 1-1000000")
    get(config.ruleset).compile(config)


Int = int | None
RulesetOption = Annotated[str, typer.Option("--ruleset", help="Ruleset id (see `shamble rulesets`).")]


@app.command()
def bench(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    quick: Annotated[bool, typer.Option("--quick", help="Tiny sizes (tests).")] = False,
    games: Annotated[Int, typer.Option(help="Games of the attack benchmark (default: sized to ~0.25 s).")] = None,
    threads: Annotated[Int, typer.Option(help="numba threads.")] = None,
    whole_games: Annotated[bool, typer.Option("--whole-games/--no-whole-games",
                                              help="Also compile and time whole games of every ruleset.")] = True,
    scale_max: Annotated[int, typer.Option(help="Largest run of the scaling benchmark (10^3 .. this many games; "
                                                "10^6 is about 5 of the 15 minutes on 2 cores).")] = SCALE_MAX,
    tune: Annotated[bool, typer.Option("--tune", help="Also time shamble tune: Out West Hold the town at 300,000 "
                                                      "games of search, and Zombie 40,000's four players --all-sides "
                                                      "--rounds 2 (an estimated 10-20 more minutes on 2 "
                                                      "cores).")] = False,
) -> None:
    """Kernel speed on this machine: cold compile per ruleset, dice ceiling, attacks/s, whole games/s of every
    ruleset, scaling, memory, JIT speed-ups, and the speed goals beside them (about 15 minutes on 2 cores;
    --scale-max 100000: about 10)."""
    with user_errors(), Console(stderr=True).status("bench") as status:
        results = run_bench(games=games, quick=quick, threads=threads,
                            benchmarks=None if whole_games else WITHOUT_GAMES, scale_max=scale_max,
                            say=lambda what: status.update(f"bench: {what}"), tune=tune)
    if as_json:
        typer.echo(bench_json(results))
    else:
        render_bench(results, Console())


@app.command()
def profile(
    ruleset: RulesetOption = DEFAULT_RULESET,
    config: Annotated[str | None, typer.Option("--config", help="One of the ruleset's bench configs "
                                                                "(default: the first).")] = None,
    games: Annotated[Int, typer.Option(help="Games to play (default: sized to ~8 s on one thread).")] = None,
    top: Annotated[int, typer.Option(help="Rows of the table.")] = 15,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Where a ruleset's game spends its time: perf record of one thread's play, the jitted functions named
    (compiles the game afresh in a temporary kernel cache: 1-3 minutes; needs perf)."""
    from experiments.profile import profile_json, render_profile, run_profile

    with user_errors(), Console(stderr=True).status("profile") as status:
        result = run_profile(ruleset, config, games, top, say=lambda what: status.update(f"profile: {what}"))
    if as_json:
        typer.echo(profile_json(result))
    else:
        render_profile(result, Console())


@app.command()
def params(ruleset: RulesetOption = DEFAULT_RULESET,
           find: Annotated[str | None, typer.Option(help="Only the parameters whose name or help holds this word "
                                                         "(or whose spec section it is).")] = None,
           tag: Annotated[str | None, typer.Option(help="Only this tag: V, I, C (the numbers Shamble chose), "
                                                        "an ambiguity A12, mods, policy...")] = None,
           as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
    """List every parameter a config may set: default, range (and the pair `sensitivity` plays), confidence
    tag, spec section, help and choices."""
    from experiments.params import chosen, param_row

    with user_errors():
        rs = get(ruleset, "--ruleset")
        if (find or tag) and not chosen(rs, find, tag):
            raise ValueError(f"no {rs.id} parameter matches {find or ''!r}{f' with tag {tag}' if tag else ''}; "
                             f"`shamble params --ruleset {rs.id}` lists them all")
    if as_json:
        typer.echo(json.dumps([param_row(p) for p in chosen(rs, find, tag)], indent=2, ensure_ascii=False)
                   if find or tag else params_json(rs))
    else:
        render_params(rs, Console(), find, tag)


@app.command()
def policies(ruleset: RulesetOption = DEFAULT_RULESET,
             as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
    """List the policy presets (how a player plays) and their fields."""
    with user_errors():
        rs = get(ruleset, "--ruleset")
    if as_json:
        typer.echo(policies_json(rs))
    else:
        render_policies(rs, Console())


AsJson = Annotated[bool, typer.Option("--json", help="Print JSON.")]


def _own_mods_command(rs):
    """The ruleset's own `mods` command (Zombie 40,000's lists spec sections and clashes), or None."""
    sub = rs.cli()
    found = [c for c in (sub.registered_commands if sub is not None else ())
             if (c.name or c.callback.__name__) == "mods" and not getattr(c.callback, "generic", False)]
    return found[0].callback if found else None


def list_mods(rs, as_json: bool = False) -> None:
    own = _own_mods_command(rs)
    if own is not None:
        own(as_json=as_json)
    elif as_json:
        typer.echo(mods_json(rs))
    else:
        render_mods(rs, Console())


@app.command()
def mods(ruleset: RulesetOption = DEFAULT_RULESET, as_json: AsJson = False) -> None:
    """List a ruleset's mods (variants of the rules a config's `mods = [...]` or `--mod` switches on)."""
    with user_errors():
        rs = get(ruleset, "--ruleset")
    list_mods(rs, as_json)


@app.command()
def rulesets() -> None:
    """List the rulesets: id, game, spec, and what each one is."""
    from rich.table import Table

    table = Table(title="Rulesets (a config's `ruleset = \"<id>\"`; default " + DEFAULT_RULESET + ")",
                  title_justify="left")
    for column in ("id", "game", "spec", "what it is"):
        table.add_column(column, no_wrap=column == "id")
    for rs in all_rulesets():
        table.add_row(rs.id, rs.title, rs.spec, rs.description)
    Console().print(table)


ModOption = Annotated[list[str] | None, typer.Option(
    "--mod", help="A mod (variant of the rules) to play under; repeat for several; adds to the config's mods "
                  "(see `shamble <ruleset> mods`).")]


def _print_played(console: Console, config, path: Path, games: str, seed: int) -> None:
    """One unwrapped line of what was played (ruleset, config, mods, changed numbers, games, seed,
    version and commit), as `play` prints it."""
    console.print(played_text(config, path, games, seed), soft_wrap=True, highlight=False, markup=False)


def played_text(config, path: Path, games: str, seed: int) -> str:
    from sim.ruleset import played, played_line

    return played_line(played(config, 0, seed, str(path)), f"{games}, seed {seed}")


def _config(path: Path, extra_mods: list[str] | None = None):
    config = load_config(path)
    return get(config.ruleset).with_mods(config, extra_mods) if extra_mods else config


@app.command()
def play(
    config: Annotated[Path, typer.Argument(help="Game configuration (TOML), e.g. examples/configs/four_players.toml.")],
    games: Annotated[int, typer.Option("--games", "-n", help="Games to play.")] = 1000,
    seed: Annotated[int, typer.Option(help="Random seed: game i depends only on (seed, i).")] = 1,
    out: Annotated[Path | None, typer.Option(help="Write one row per (game, player): .parquet or .csv.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    batch_size: Annotated[int, typer.Option(help="Games per batch (memory), never changes results.")] = 2048,
    mod: ModOption = None,
    patch: Annotated[Path | None, typer.Option(
        help="A `shamble rebalance` proposal (proposal.toml): play its costs, every team refitted to its budget.")]
    = None,
) -> None:
    """Play a configuration: win rate per player with 95% Wilson intervals, game length, end reasons."""
    from experiments.play_summary import mean_interval, render_summary, run_play, summarise, summary_json, write_atomic
    from sim.play import games as games_of

    with user_errors():
        if games < 1:
            raise ValueError(f"--games {games}; allowed: 1 or more")
        cfg = _config(config, mod)
        if patch is not None:
            cfg = _patched(cfg, patch)
        if out is not None and out.suffix not in (".parquet", ".csv"):
            raise ValueError(f"--out {out}: allowed suffixes: .parquet, .csv")
        if out is not None:
            writable(f"--out {out}", out.parent, out)
        _playable(cfg, seed, batch_size)
        df = run_play(cfg, games, seed, show_progress=not as_json, batch_size=batch_size)
        summary = summarise(cfg, df, str(config))
        if out is not None:
            write_atomic(df, out, summary["played"])
    if as_json:
        typer.echo(summary_json(summary))
    else:
        render_summary(summary, Console(), mean_interval(games_of(df).turns) if len(df) else None)


def _patched(cfg, path: Path):
    """The config playing a proposal's costs; a proposal that FAILED its validation is played, with a warning."""
    from experiments.rebalance_patch import apply_patch, load_patch

    proposal = load_patch(path)
    if proposal.validated is False:
        typer.echo(f"warning: {path} FAILED its validation on fresh games (the teams it prices were not within the "
                   "margin); playing it anyway", err=True)
    return apply_patch(cfg, proposal)


@app.command()
def trace(
    config: Annotated[Path, typer.Argument(help="Game configuration (TOML).")],
    seed: Annotated[int, typer.Option(help="Random seed of the run.")] = 1,
    game: Annotated[int, typer.Option(help="Which game of the run (0-based).")] = 0,
    png: Annotated[Path | None, typer.Option(help="Folder (made if missing) for the pictures of the game.")] = None,
    mod: ModOption = None,
) -> None:
    """Tell one game turn by turn and draw the table (the ruleset's trace)."""
    from experiments.trace import trace as trace_one

    with user_errors():
        if not 0 <= game < 2**63:
            raise ValueError(f"--game {game}; allowed: 0 to 2**63 - 1")
        if png is not None:
            writable(f"--png {png}", png)
        cfg = _config(config, mod)
        played = played_text(cfg, config, f"game {game}", seed)
        lines, pictures = trace_one(cfg, seed, game, png, played)
    typer.echo(f"== {played} ==")  # what was played, before the setup; the pictures' headers say it too
    typer.echo("\n".join(lines))
    for path in pictures:
        typer.echo(f"wrote {path}")


INTERRUPTED = 130  # the shell's code for Ctrl-C


@app.command()
def sweep(
    experiment: Annotated[Path, typer.Argument(help="Experiment file (TOML), e.g. examples/experiments/*.toml.")],
    out: Annotated[Path | None, typer.Option(help="Output folder: cells/, results.parquet, summary.csv, meta.json. "
                                                  "Default: sweeps/<experiment name>.")] = None,
    fresh: Annotated[bool, typer.Option("--fresh", help="Delete the folder's old results first.")] = False,
    dask: Annotated[str | None, typer.Option(help="Run the cells on Dask: a scheduler address, or 'local'.")] = None,
    games: Annotated[Int, typer.Option("--games", "-n", help="Games per cell (overrides the file).")] = None,
    target_halfwidth: Annotated[float | None, typer.Option(
        help="Sequential sampling: play each cell until every 95% half-width <= X (games = the cap).")] = None,
) -> None:
    """Play every cell of an experiment (resumable: rerun the same command after an interruption)."""
    from experiments.sweep import render_sweep, sweep_file

    console = Console()
    out = out if out is not None else Path("sweeps") / experiment.stem
    with user_errors(), _interruptible(out):
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
    target: Annotated[float, typer.Option(help="Target win rate.")] = 0.5,
    player: Annotated[str | None, typer.Option(help="Whose win rate (name or index; default: anyone's).")] = None,
    lo: Annotated[float | None, typer.Option(help="Low end of the search (default: the plausible range).")] = None,
    hi: Annotated[float | None, typer.Option(help="High end of the search.")] = None,
    games: Annotated[int, typer.Option("--games", "-n", help="Games per value in the first round.")] = 400,
    seed: Annotated[int, typer.Option(help="Seed: every value plays the same games.")] = 1,
    mod: ModOption = None,
) -> None:
    """Find the parameter value that gives a target win rate (stochastic root-finding on CRN)."""
    from experiments.solve import render_solution
    from experiments.solve import solve as solve_param

    with user_errors():
        if games < 10:
            raise ValueError(f"--games {games}; allowed: 10 or more")
        cfg = _config(config, mod)
        solution = solve_param(cfg, param, target, player, lo, hi, games, seed)
    console = Console()
    _print_played(console, cfg, config, f"{games}+ games per value", seed)
    render_solution(solution, console)


@app.command()
def sensitivity(
    config: Annotated[Path, typer.Argument(help="Game configuration (TOML).")],
    out: Annotated[Path | None, typer.Option(help="Output folder (a resumable sweep, plus sensitivity.csv). "
                                                  "Default: sensitivity/<config name>.")] = None,
    games: Annotated[int, typer.Option("--games", "-n", help="Games per value.")] = 1000,
    seed: Annotated[int, typer.Option(help="Seed: every value plays the same games.")] = 1,
    fresh: Annotated[bool, typer.Option("--fresh", help="Delete the folder's old results first.")] = False,
    dask: Annotated[str | None, typer.Option(help="Run the cells on Dask: a scheduler address, or 'local'.")] = None,
    mod: ModOption = None,
) -> None:
    """Rank the chosen ([C]) numbers by how much each moves the win rate across its plausible range."""
    from experiments.sensitivity import render_sensitivity, run_sensitivity

    console = Console()
    out = out if out is not None else Path("sensitivity") / config.stem
    with user_errors(), _interruptible(out):
        cfg = _config(config, mod)
        table = run_sensitivity(cfg, out, games, seed, fresh, dask, console)
    _print_played(console, cfg, config, f"{games} games per value", seed)
    render_sensitivity(table, console, get(cfg.ruleset).win_word, cfg)
    console.print(f"wrote {out / 'sensitivity.csv'} (and the sweep's cells in {out})", soft_wrap=True,
                  highlight=False, markup=False)


@app.command()
def rebalance(
    config: Annotated[Path, typer.Argument(help="Game configuration (TOML): the rules to rebalance; the game is its "
                                                "ruleset's standard game (Zombie 40,000: every example team rotated "
                                                "through its seats; Apocalypse: every example army) unless --as-is.")],
    margin: Annotated[float, typer.Option(help="Practical margin around the sides' mean rate (win rate; Apocalypse: "
                                                     "Warlords alive) (0.03 = ±3 points; the report's verdict uses the "
                                                     "same default).")]
    = 0.03,
    mode: Annotated[str | None, typer.Option(help="What to price: per-model (the points per model of each side's "
                                                  "main unit, the default) or multiplier (one cost factor per side).")]
    = None,
    games: Annotated[int, typer.Option("--games", "-n", help="Games per cell for every candidate of the search.")]
    = 800,
    iterations: Annotated[int, typer.Option(help="Candidates the search may evaluate.")] = 40,
    budget: Annotated[int, typer.Option(help="Games the search may play (cells it replays cost nothing).")]
    = 150_000,
    seed: Annotated[int, typer.Option(help="Seed of the search's games (every candidate plays the same games).")]
    = 2024,
    validate_seed: Annotated[Int, typer.Option(help="Seed of the validation's fresh games (default: seed + 1).")]
    = None,
    validate_games: Annotated[Int, typer.Option(help="Games per cell of the validation (default: four times --games).")]
    = None,
    out: Annotated[Path | None, typer.Option(help="Output folder (resumable): proposal.toml, tables, chart, "
                                                  "evaluations/. Default: rebalance/<config name>.")] = None,
    as_is: Annotated[bool, typer.Option("--as-is", help="Play the config's own players (one cell) instead of the "
                                                        "ruleset's standard game.")] = False,
    fresh: Annotated[bool, typer.Option("--fresh", help="Delete the folder's played cells first.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    mod: ModOption = None,
    policies: Annotated[Path | None, typer.Option(help="A tuned.toml of `shamble tune`: every player on the policy of "
                                                       "its player of the same name, else of his team.")] = None,
) -> None:
    """Propose the costs that make every side fair (stochastic approximation on common random numbers), and
    validate them on fresh games: exit 0 when they pass, 1 when they FAIL (resumable: rerun the same command)."""
    from experiments.rebalance import FAILED
    from experiments.rebalance import rebalance as run_rebalance
    from experiments.rebalance_game import Settings, rebalance_game
    from experiments.rebalance_output import render, summary

    folder = out if out is not None else Path("rebalance") / config.stem
    console = Console()
    with user_errors(), _interruptible(folder):
        cfg = _config(config, mod)
        settings = Settings(margin, mode, games, iterations, budget, seed, validate_seed, validate_games, as_is,
                            None if policies is None else str(policies))
        # nothing to price, a bad mode, a bad --policies file: one line, before work
        rebalance_game(cfg, settings.mode, settings.as_is, settings.policies)
        writable(f"--out {folder}", folder)
        done = run_rebalance(cfg, settings, folder, fresh, console=Console(stderr=True), show_progress=not as_json,
                             source=str(config))
    if as_json:
        typer.echo(json.dumps(summary(done), indent=2, default=str))
    else:
        render(done, console)
    if not done.passed:
        raise typer.Exit(FAILED)


@app.command()
def tune(
    config: Annotated[Path, typer.Argument(help="Game configuration (TOML) of any ruleset.")],
    side: Annotated[str | None, typer.Option(help="The side to tune: a player, a team or faction, or the side a "
                                                  "cooperative game's winner names (posse, players).")] = None,
    all_sides: Annotated[bool, typer.Option("--all-sides", help="Best responses in turn: every player tunes "
                                                                "against the others' current policies.")] = False,
    rounds: Annotated[int, typer.Option(help="With --all-sides: rounds of best responses.")] = 2,
    budget: Annotated[Int, typer.Option(help="Games of search (default 100,000; with --all-sides 20,000 per "
                                             "tune).")] = None,
    fields: Annotated[str | None, typer.Option(help="Policy fields to search, comma-separated (default: every field "
                                                    "`shamble policies` lists; NAME=LOW:HIGH sets a range).")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the search's games (validation plays seed + 1).")] = 2024,
    out: Annotated[Path | None, typer.Option(help="Output folder (resumable): tuned.toml, tune.json, checkpoints. "
                                                  "Default: tune/<config>-<side>.")] = None,
    dask: Annotated[str | None, typer.Option(help="Score the candidates on Dask: a scheduler address, or "
                                                  "'local'.")] = None,
    games: Annotated[Int, typer.Option(help="Games per candidate (default: from the budget and cma's "
                                            "population).")] = None,
    validate_games: Annotated[int, typer.Option(help="Fresh games of the validation, per policy.")] = 10_000,
    fresh: Annotated[bool, typer.Option("--fresh", help="Start over: delete the folder's checkpoints.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar.")] = False,
) -> None:
    """Find a side's best play (CMA-ES over its policy fields on common seeds) and validate it against the
    default on fresh games: exit 0 when the tuned policy PASSED, 1 when it is NOT BETTER (resumable)."""
    from experiments.tune_cli import main as tune_main

    argv = [str(config), "--rounds", str(rounds), "--seed", str(seed), "--validate-games", str(validate_games)]
    options = {"--side": side, "--budget": budget, "--fields": fields, "--out": out, "--dask": dask, "--games": games}
    argv += [text for name, value in options.items() if value is not None for text in (name, str(value))]
    argv += [flag for flag, on in (("--all-sides", all_sides), ("--fresh", fresh), ("--quiet", quiet)) if on]
    code = tune_main(argv)
    if code:
        raise typer.Exit(code)


@app.command()
def report(
    name: Annotated[str, typer.Option(help="Report name: the folder under --out.")] = "latest",
    out: Annotated[Path, typer.Option(help="Folder of reports.")] = Path("reports"),
    scale: Annotated[float, typer.Option(help="Games per cell times X (1 = about 4 min on 2 cores, compiled).")] = 1.0,
    fresh: Annotated[bool, typer.Option("--fresh", help="Replay every section from scratch.")] = False,
    dask: Annotated[str | None, typer.Option(help="Run the cells on Dask: a scheduler address, or 'local'.")] = None,
    ruleset: Annotated[list[str] | None, typer.Option(
        "--ruleset", help="Only this ruleset's sections (repeat for several; default: every ruleset).")] = None,
    with_rebalance: Annotated[bool, typer.Option(
        "--rebalance", help="Add a rebalance section for each ruleset with prices (`shamble rebalance` of its "
                            "standard game at the report's scale; minutes more).")] = False,
    margin: Annotated[str, typer.Option(help="Fairness margin of the verdict: points of rate (0.03 = ±3 points, "
                                             "as `shamble rebalance`) or a share of the mean rate (20%).")] = "0.03",
    band: Annotated[str, typer.Option(help="Target band of a cooperative game's rate at the spec's default: "
                                           "lo,hi (0.3,0.7 = 30-70%): inside, too hard, too easy or undecided.")]
    = "0.3,0.7",
    jump: Annotated[str, typer.Option(help="Largest step of a smooth difficulty curve between neighbouring grid "
                                           "points, in rate (0.2 = 20 points).")] = "0.2",
) -> None:
    """The balance report: every ruleset's suite of sweeps, analysed on one page (resumable)."""
    from experiments.coop import parse_band, parse_jump
    from experiments.findings import parse_margin
    from experiments.report import run_report

    with user_errors(), _interruptible(out / name):
        chosen = parse_margin(margin)
        folder = run_report(name, out, scale, fresh, dask, rulesets=ruleset, rebalance=with_rebalance,
                            margin=chosen, band=parse_band(band), jump=parse_jump(jump))
    typer.echo(f"{folder / 'index.html'}")


@app.command("config-ref")
def config_ref(
    ruleset: Annotated[str | None, typer.Option(help="One ruleset's reference (default: every ruleset's).")] = None,
    write: Annotated[bool, typer.Option("--write", help="Write docs/config-reference.md of the checkout instead "
                                                        "of printing.")] = False,
) -> None:
    """What every config file accepts (a game config, a player table, an army or team file, policies,
    parameters): field, type, allowed values, default and meaning, generated from the code."""
    from experiments import config_ref as ref

    with user_errors():
        if write:
            typer.echo(ref.write())
            return
        typer.echo(ref.render(ruleset) if ruleset else ref.render_all())


@app.command()
def notebooks(
    out: Annotated[Path, typer.Option(help="Folder of the executed copies (the tracked notebooks are never "
                                           "rewritten).")] = Path("notebooks/out"),
    games: Annotated[int | None, typer.Option(help="Games per cell (the notebooks' own default: 2000).")] = None,
    only: Annotated[list[str] | None, typer.Option(help="Only the notebooks whose name starts with this "
                                                        "(repeat for several).")] = None,
) -> None:
    """Run the notebooks end to end (nbclient) into copies under --out; exit 1 if a cell fails."""
    from experiments.notebooks import run_notebooks

    with user_errors():
        done = run_notebooks(out, games, only, typer.echo)
    if any(error for _, error in done):
        raise typer.Exit(1)


def _mods_of(rs):
    def mods(as_json: AsJson = False) -> None:
        list_mods(rs, as_json)
    mods.generic = True  # the listing below, not the ruleset's own
    return mods


app.command("optimality")(optimality.main)  # issue 26 item 5: does a one-field change beat the default?


def _mount_rulesets() -> None:
    """Each ruleset's own commands under its id; the default ruleset's also at the top level."""
    taken = {c.name or c.callback.__name__ for c in app.registered_commands}
    for rs in all_rulesets():
        sub = rs.cli() or typer.Typer(no_args_is_help=True)
        if not any((c.name or c.callback.__name__) == "mods" for c in sub.registered_commands):
            # `shamble <ruleset> mods`, as `--mod`'s help says, for every ruleset
            sub.command("mods", help=f"List {rs.title}'s mods (the same as `shamble mods --ruleset {rs.id}`).")(
                _mods_of(rs))
        app.add_typer(sub, name=rs.id, help=f"{rs.title}: its own commands.")
        if rs.id == DEFAULT_RULESET:
            for command in sub.registered_commands:
                if (command.name or command.callback.__name__) not in taken:
                    app.registered_commands.append(command)
            for group in sub.registered_groups:
                if group.name not in taken:
                    app.registered_groups.append(group)


def _hide_flag_types() -> None:
    """typer's help shows ``<bool>`` beside a flag as if it took a value: show nothing there."""
    from typer.core import TyperOption

    shown = TyperOption.display_type_rich

    def display_type_rich(self, ctx):
        return None if self.is_flag else shown(self, ctx)

    TyperOption.display_type_rich = display_type_rich


_mount_rulesets()
_hide_flag_types()


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
