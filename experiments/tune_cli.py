"""The command line of `shamble tune` (``python -m experiments.tune_cli``): one side
(`experiments.tune.run_tune`) or every side in rounds of best responses
(`experiments.tune_rounds.run_best_responses`). It sits above both, so neither imports the other's
caller."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.console import Console

from experiments.tune import BUDGET, PASSED, SEED, VALIDATE_GAMES, _slug, render, run_tune
from experiments.tune_rounds import ROUNDS_BUDGET, render_rounds, run_best_responses
from experiments.tune_space import TuneError
from sim.ruleset import RulesetError


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, as sim.cli_errors says, not argparse's usage block
        raise TuneError(message)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m experiments.tune_cli", description="Tune a side's policy (CMA-ES on common seeds).")
    p.add_argument("config", type=Path)
    p.add_argument("--side", default=None)
    p.add_argument("--all-sides", action="store_true", help="every player in turn (competitive games)")
    p.add_argument("--rounds", type=int, default=2, help="with --all-sides: rounds of best responses")
    p.add_argument("--budget", type=int, default=None, help=f"games of search (default {BUDGET}; with "
                   "--all-sides, per tune: experiments.tune_rounds.ROUNDS_BUDGET)")
    p.add_argument("--fields", default=None)
    p.add_argument("--seed", type=int, default=SEED)
    p.add_argument("--out", type=Path, default=None)
    p.add_argument("--dask", default=None)
    p.add_argument("--games", type=int, default=None)
    p.add_argument("--validate-games", type=int, default=VALIDATE_GAMES)
    p.add_argument("--fresh", action="store_true", help="start over: delete the folder's checkpoints")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def main(argv: list[str] | None = None) -> int:
    """``python -m experiments.tune_cli CONFIG --side NAME [...]``: 0 PASSED, 1 NOT BETTER, 2 bad input;
    ``--all-sides --rounds K`` (`experiments.tune_rounds`): 0 when done, 2 bad input."""
    from sim.cli_errors import USAGE_ERROR

    try:
        args = _parser().parse_args(argv)
        if args.all_sides == (args.side is not None):
            raise TuneError("give either --side NAME or --all-sides")
        out = args.out if args.out is not None else \
            Path("tune") / f"{args.config.stem}-{_slug(args.side or 'all-sides')}"
        settings = {"fields": args.fields, "seed": args.seed, "out_dir": out, "dask_address": args.dask,
                    "resume": not args.fresh, "progress": not args.quiet, "games": args.games,
                    "validate_games": args.validate_games}
        if args.all_sides:
            budget = ROUNDS_BUDGET if args.budget is None else args.budget
            rounds = run_best_responses(args.config, args.rounds, budget, **settings)
        else:
            info = run_tune(args.config, args.side, BUDGET if args.budget is None else args.budget, **settings)
    except (ValueError, FileNotFoundError, RulesetError) as err:
        print(f"error: {' '.join((str(err) or type(err).__name__).split())}", file=sys.stderr)
        return USAGE_ERROR
    except OSError as err:  # a folder that cannot be written, a path through a file
        print(f"error: {err.filename}: " * bool(err.filename) + (err.strerror or type(err).__name__), file=sys.stderr)
        return USAGE_ERROR
    if args.all_sides:
        render_rounds(rounds, Console())
        return 0
    render(info, Console())
    return 0 if info["verdict"] == PASSED else 1


if __name__ == "__main__":
    sys.exit(main())
