"""`shamble rebalance`: the costs that make every side fair, found by stochastic approximation on
common random numbers, and proven on games the search never saw.

Its jobs, one module each: what it plays and its settings (`experiments.rebalance_game`), the
candidates played and checkpointed (`experiments.rebalance_evaluations`), the search
(`experiments.rebalance_search`), the patch file (`experiments.rebalance_patch`), the validation
(`experiments.rebalance_validation`), the tables, files and words (`experiments.rebalance_output`);
this module runs them in order, with progress on stderr.

**Output folder** (``DIR``; rerunning the same command resumes, and gives the same proposal)::

    DIR/evaluations/<cell>-<hash>.parquet  each played cell, checkpointed as a sweep's cells are
                                           (stamp and checksum verified before reuse)
    DIR/proposal.toml         the patch: each changed cost with its old and new value (`load_patch`)
    DIR/before_after.csv      per side: what it fields, rate, 95% interval, deviation, verdict
    DIR/matchups_before.csv, DIR/matchups_after.csv   side x opponent rates (validation games)
    DIR/search.csv            per candidate and side: rate, deviation, within the margin
    DIR/search_prices.csv     per candidate and price: its value
    DIR/search.png, .svg      each side's rate over the search, with the margin's band
    DIR/summary.json          what ``--json`` prints; DIR/meta.json: settings, versions, wall time
"""

from __future__ import annotations

import functools
import shutil
import time
from pathlib import Path

from rich.console import Console

from experiments.progress import Bars, load_game_kernels
from experiments.rebalance_evaluations import Evaluator, Standing
from experiments.rebalance_game import Settings, rebalance_game
from experiments.rebalance_output import write_outputs
from experiments.rebalance_patch import load_patch, write_patch
from experiments.rebalance_search import search
from experiments.rebalance_validation import Rebalance, validate

EVALUATIONS = "evaluations"  # the folder of the played cells
FAILED = 1  # the command's exit code when the proposal fails validation


def prepare_folder(out: Path, fresh: bool = False) -> Path:
    """The output folder (made), its evaluations deleted first with ``fresh``."""
    if fresh:
        shutil.rmtree(out / EVALUATIONS, ignore_errors=True)
    (out / EVALUATIONS).mkdir(parents=True, exist_ok=True)
    return out


def rebalance(config, settings: Settings | None = None, out: Path | None = None, fresh: bool = False,
              console: Console | None = None, show_progress: bool = False, source: str | None = None) -> Rebalance:
    """Search, write the patch, validate it on fresh games and write the tables (module docstring).

    Parameters
    ----------
    config
        A game config of a ruleset with something to price.
    settings : Settings
    out : Path, optional
        Output folder (resumable); None keeps everything in memory.
    """
    settings = settings or Settings()
    game = rebalance_game(config, settings.mode, settings.as_is, settings.policies)
    started = time.perf_counter()
    folder = None if out is None else prepare_folder(Path(out), fresh) / EVALUATIONS
    if show_progress:
        load_game_kernels(game.cells[0].config, console)
    with Bars(console, show_progress) as bars:  # the games of the search (of its budget), then of the validation
        bar = bars.add("search: candidate 0", total=max(settings.budget, 1))
        advance = functools.partial(bars.advance, bar)
        evaluate = Evaluator(game, settings.seed, settings.games, settings.margin, folder, advance)
        found = search(game.prices, evaluate, settings, evaluate.same_play,
                       say=lambda k, result: bars.describe(bar, _candidate_line(k, result, settings)))
        patch = None
        if out is not None:
            path = Path(out) / "proposal.toml"
            write_patch(path, game, found.proposal, settings, None, source)
            patch = load_patch(path)  # the validation plays the file as written
        bars.restart(bar, f"validation (seed {settings.check_seed})", total=2 * len(game.cells) * settings.check_games)
        validation = validate(game, patch.values if patch else found.proposal, settings, folder, advance)
    done = Rebalance(game, settings, found, validation, None if out is None else Path(out),
                     time.perf_counter() - started, source)
    if out is not None:
        write_outputs(done)
    return done


def _candidate_line(k: int, result: Standing, settings: Settings) -> str:
    """Beside the search's bar: the candidate and how many sides are outside the margin."""
    return f"search: candidate {k + 1}, {len(result.outside)} sides outside ±{settings.margin * 100:g}"
