"""`shamble tune`: a side's best policy found by CMA-ES on common seeds, and proven on fresh games.

``run_tune(CONFIG, side)`` searches the policy fields of one side of a game (a player, a team or
faction, or a shared win such as the Out West posse: `experiments.tune_search`) for the policy
that wins it most games, and says whether the policy found beats the config's own policy on
games the search never saw.

- **Space** (`experiments.tune_space`): every policy field `shamble policies --ruleset ID` lists,
  or those of ``fields``; integers as cma ``integer_variables`` within their bounds, choices as a
  continuous coordinate read as an index, numbers as bounded coordinates.
- **Search** (`experiments.tune_search.search`): CMA-ES (the ``cma`` package) maximising the
  side's rate on games ``0 .. games-1`` of ``seed``, the same games for every candidate; the
  budget is the games the candidates may play (``games`` per new policy; the start policy is the
  first). ``games`` defaults to about ``budget / (GENERATIONS x popsize)`` (between ``MIN_GAMES``
  and ``MAX_GAMES``), so the search runs about ``GENERATIONS`` generations.
- **Validation**: the best candidate and the config as given ("default") replay games ``0 ..
  validate_games-1`` of ``validate_seed`` (default ``seed + 1``; never the search's seed), each
  with its Wilson 95% interval, and the paired uplift (tuned minus default on the same games,
  Tango's score interval: `experiments.stats.paired_difference`). **PASSED** when the uplift's
  interval lies above 0 (the tuned policy is shown better on fresh games), **NOT BETTER**
  otherwise (`experiments.tune_cli.main` then exits 1, as `shamble rebalance` does on FAILED). The best of many
  candidates on the search's games is flattered by those games; the validation is the number to
  quote.

**Output folder** (``out_dir``; rerunning the same command resumes, and gives the same answer)::

    DIR/candidates.parquet  every policy played and its wins (the checkpoint: stamped, checksummed)
    DIR/validation.parquet  the validation's paired outcomes (checkpoint)
    DIR/search.csv          every candidate asked: generation, its fields, wins, rate, new or a repeat
    DIR/tuned.toml          the config file with the side's tuned policy, playable as it is
    DIR/tune.json           what `run_tune` returns: side, fields, rates with intervals, uplift,
                            games, seeds, verdict, versions
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from rich.console import Console

from experiments.progress import Bars
from experiments.stats import paired_difference, wilson_interval
from experiments.tune_files import policy_table, write_tuned_toml
from experiments.tune_search import (
    CANDIDATES,
    Evaluator,
    Found,
    Side,
    cma_popsize,
    resolve_side,
    search,
    side_outcomes,
    with_side_policy,
)
from experiments.tune_space import Dimension, TuneError, apply, parse_fields, policy_space
from sim.ruleset import load_config, rules_version, ruleset_of

BUDGET = 100_000  # games of search by default
VALIDATE_GAMES = 10_000  # fresh games of the validation (each policy)
GENERATIONS = 20  # the default games per candidate aim at about this many generations
MIN_GAMES, MAX_GAMES = 200, 2_000  # ... within these games per candidate
SEED = 2024
PASSED, NOT_BETTER = "PASSED", "NOT BETTER"
VALIDATION = "validation.parquet"


# ---------------------------------------------------------------------------- settings


def games_per_candidate(budget: int, popsize: int) -> int:
    """The default games per candidate (module docstring), in whole hundreds above 200."""
    games = budget // (GENERATIONS * popsize)
    games = min(max(games, MIN_GAMES), MAX_GAMES)
    return games // 100 * 100 if games >= 200 else games


def _check_int(name: str, value: Any, low: int, high: int = 2**63 - 1) -> int:
    if not isinstance(value, int | np.integer) or isinstance(value, bool) or not low <= value <= high:
        raise TuneError(f"--{name.replace('_', '-')} {value!r}; allowed: an integer {low} or more"
                        + (f" and below {high + 1}" if high < 2**63 - 1 else ""))
    return int(value)


def _config(config_path_or_config) -> tuple[Any, Path | None]:
    if isinstance(config_path_or_config, str | Path):
        path = Path(config_path_or_config)
        return load_config(path), path
    if not dataclasses.is_dataclass(config_path_or_config):
        raise TuneError(f"config = {config_path_or_config!r}; allowed: a config file or a config")
    return config_path_or_config, None


def run_key(config, side: Side, dims: list[Dimension], games: int, seed: int, popsize: int | None) -> str:
    """Hash of what decides a search's candidates: the config, the side, the space, the games, the
    seed, the rules' version and cma's version (checkpoints of another run are refused)."""
    import cma

    from experiments.experiment import canonical_config

    text = json.dumps([canonical_config(config), dataclasses.asdict(side), [d.describe() for d in dims], games, seed,
                       popsize, rules_version(config.ruleset), cma.__version__], default=str)
    return hashlib.blake2b(text.encode(), digest_size=10).hexdigest()


# ---------------------------------------------------------------------------- the run


def run_tune(config_path_or_config, side: str, budget: int = BUDGET, fields=None, seed: int = SEED,
             out_dir: str | Path | None = None, dask_address: str | None = None, resume: bool = True,
             progress: bool = True, games: int | None = None, validate_games: int = VALIDATE_GAMES,
             validate_seed: int | None = None, popsize: int | None = None,
             console: Console | None = None, outcomes: dict | None = None) -> dict:
    """Tune ``side``'s policy, validate it on fresh games, write the folder; returns tune.json.

    Parameters
    ----------
    config_path_or_config : path or config
        A game config file (any ruleset) or a config object (then no tuned.toml is written).
    side : str
        A player, a team or faction, or a shared win ("posse"): `experiments.tune_search`.
    budget : int
        Games the search may play (``games`` per new candidate; at least two candidates).
    fields : str or list, optional
        Policy fields to search (``"a,b=0:12"``: a range by hand); None: every field.
    seed, validate_seed : int
        The search's games and the validation's (default ``seed + 1``; never ``seed``).
    out_dir : path, optional
        The output folder (module docstring); None: nothing written, nothing resumed.
    dask_address : str, optional
        "local" or a scheduler address: candidates of a generation play on the cluster.
    resume : bool
        Reuse the folder's checkpoints (False: delete them first).
    outcomes : dict, optional
        Filled with the validation's games, ``{"tuned": bool[n], "default": bool[n]}`` (the
        report's strong-play section pairs them with its random-legal baseline).
    """
    started = time.perf_counter()
    config, source = _config(config_path_or_config)
    budget = _check_int("budget", budget, 1)
    seed = _check_int("seed", seed, 0, 2**62)
    validate_seed = seed + 1 if validate_seed is None else _check_int("validate_seed", validate_seed, 0, 2**62)
    if validate_seed == seed:
        raise TuneError(f"--validate-seed {validate_seed}: the search's own seed; allowed: another seed "
                        "(validation plays games the search never saw)")
    validate_games = _check_int("validate_games", validate_games, 1)
    rs = ruleset_of(config)
    chosen = parse_fields(fields)
    tuned_side = resolve_side(config, side, seed)
    start = config.players[tuned_side.seats[0]].policy
    dims = policy_space(rs, start, chosen)
    if games is None:
        games = games_per_candidate(budget, cma_popsize(dims, seed, popsize))
    games = _check_int("games", games, 1)
    if budget < 2 * games:
        raise TuneError(f"--budget {budget}: too small to score two candidates of {games} games; "
                        f"allowed: {2 * games} or more")
    folder = _folder(out_dir, resume)  # made only once every input is known good: nothing half-written
    if folder is not None and source is not None:
        _check_writable_layout(source, config, tuned_side, start, folder)
    stamp = {"tune": run_key(config, tuned_side, dims, games, seed, popsize)}
    console = console or Console(stderr=True)
    with Bars(console, progress) as bars, _client(dask_address) as client:  # the search's games, then the validation's
        bar = bars.add("search", total=budget)
        advance = functools.partial(bars.advance, bar)
        evaluate = Evaluator(config, tuned_side, dims, games, seed, stamp, folder, client, advance)
        found = search(dims, evaluate, budget, games, seed, popsize,
                       say=lambda f: bars.describe(bar, _best_line(f, games)))
        tuned_policy = apply(start, dims, found.best)
        tuned = with_side_policy(config, tuned_side, tuned_policy)
        bars.restart(bar, f"validation (seed {validate_seed})", total=2 * validate_games)
        a, b = _validation(config, tuned, tuned_side, validate_games, validate_seed, folder, stamp, found.best,
                           advance)
    if outcomes is not None:
        outcomes.update(tuned=a, default=b)
    info = summary(config, source, tuned_side, dims, found, games, seed, validate_seed, a, b, tuned_policy)
    info["seconds"] = round(time.perf_counter() - started, 1)
    if folder is not None:
        _write_outputs(folder, info, found, dims, games, config, tuned, source, tuned_side, tuned_policy)
    return info


@contextlib.contextmanager
def _client(address: str | None):
    """A dask client for the whole run ("local": a LocalCluster), or None: in this process."""
    if address is None:
        yield None
        return
    from experiments.sweep import dask_client

    with dask_client(address) as client:
        yield client


def _check_writable_layout(source: Path, config, side: Side, start, folder: Path) -> None:
    """Before any search: can tuned.toml give this side its own policy in this file's layout? (A
    posse-wide ``policy`` cannot give one character his own.) One line if not."""
    probe = folder / ".tuned-probe.toml"
    try:
        write_tuned_toml(source, with_side_policy(config, side, start), dict.fromkeys(side.seats, start), probe)
    except TuneError:
        raise TuneError(f"--side {side.name!r}: {source} gives its players their policies in a way tuned.toml cannot "
                        "give this side alone; tune a side of every player, or list the players as [[players]] "
                        "tables with their own policy") from None
    finally:
        probe.unlink(missing_ok=True)


def _folder(out_dir, resume: bool) -> Path | None:
    from sim.cli_errors import writable

    if out_dir is None:
        return None
    folder = Path(out_dir)
    writable("--out", folder)
    if not resume:
        for name in (CANDIDATES, VALIDATION):
            (folder / name).unlink(missing_ok=True)
    return folder


def _validation(default, tuned, side: Side, games: int, seed: int, folder: Path | None, stamp: dict, best: tuple,
                advance) -> tuple[np.ndarray, np.ndarray]:
    """(tuned, default) outcomes on games ``0 .. games-1`` of the validation seed (checkpointed)."""
    from experiments.sweep import at_once, read_checkpoint, write_checkpoint

    path = None if folder is None else folder / VALIDATION
    mark = stamp | {"validate_seed": seed, "validate_games": games, "best": json.dumps(list(best))}
    if path is not None and path.exists():
        df = read_checkpoint(path, mark)
        advance(2 * games)
        return df.tuned.to_numpy(bool), df.default.to_numpy(bool)
    a, b = at_once([(side_outcomes, tuned, games, seed, side, advance),
                    (side_outcomes, default, games, seed, side, advance)])  # both at once: each its own games
    if path is not None:
        write_checkpoint(pd.DataFrame({"tuned": a, "default": b}), path, mark)
    return a, b


# ---------------------------------------------------------------------------- the summary


def _rate(wins: int, games: int) -> dict:
    low, high = wilson_interval(wins, games)
    return {"rate": wins / games if games else 0.0, "low": float(low), "high": float(high), "wins": int(wins),
            "games": int(games)}


def summary(config, source, side: Side, dims, found: Found, games: int, seed: int, validate_seed: int,
            tuned_out: np.ndarray, default_out: np.ndarray, tuned_policy) -> dict:
    """What tune.json holds (module docstring)."""
    from sim.ruleset import played

    rs = ruleset_of(config)
    uplift = paired_difference(tuned_out, default_out)
    start = dict(zip([d.name for d in dims], found.history[0]["policy"]))
    best = dict(zip([d.name for d in dims], found.best))
    n_val = int(tuned_out.size)
    return {
        "ruleset": rs.id, "config": None if source is None else str(source), "side": side.name,
        "seats": [config.players[k].name for k in side.seats], "counts": _counts(side, rs.win_word),
        "fields": [d.describe() | {"tuned": best[d.name]} for d in dims],
        "changed": {k: {"default": start[k], "tuned": v} for k, v in best.items() if v != start[k]},
        "tuned_policy": policy_table(rs, tuned_policy),
        "default": {"search": _rate(found.history[0]["wins"], games),
                    "validation": _rate(int(default_out.sum()), n_val)},
        "tuned": {"search": _rate(found.best_wins, games), "validation": _rate(int(tuned_out.sum()), n_val)},
        "uplift": {"diff": uplift.diff, "low": uplift.low, "high": uplift.high, "p_value": uplift.p_value,
                   "tuned_only": uplift.a_only, "default_only": uplift.b_only, "games": n_val},
        "verdict": PASSED if uplift.low > 0 else NOT_BETTER,
        "search": {"seed": seed, "games_per_candidate": games, "candidates": len(found.history),
                   "policies_played": sum(h["new"] for h in found.history), "generations": found.generations,
                   "popsize": found.popsize, "games": found.used, "stop": found.stop},
        "validation": {"seed": validate_seed, "games": n_val},
        "games": found.used + 2 * n_val,
        "version": played(config, n_val, validate_seed)["shamble"], "rules_version": rules_version(rs.id),
        "cma": _cma_version(),
    }


def _cma_version() -> str:
    import cma

    return cma.__version__


def _counts(side: Side, win_word: str) -> str:
    if side.how == "shared":
        return f"games whose game_winner is {side.name!r}"
    if side.how == "team":
        return f"games any of the team's seats won ({win_word})"
    return f"games the player won ({win_word})"


def _write_outputs(folder: Path, info: dict, found: Found, dims, games: int, config, tuned, source, side,
                   policy) -> None:
    from experiments.sweep import write_json, write_table

    rows = [{"candidate": h["candidate"], "generation": h["generation"],
             **dict(zip([d.name for d in dims], h["policy"])), "wins": h["wins"], "rate": h["wins"] / games,
             "new": h["new"]} for h in found.history]
    write_table(pd.DataFrame(rows), folder / "search.csv")
    info["tuned_toml"] = None
    if source is not None:
        try:
            path = write_tuned_toml(source, tuned, dict.fromkeys(side.seats, policy), folder / "tuned.toml",
                                    header(info))
            info["tuned_toml"] = str(path)
        except TuneError as err:  # the layout was checked before the search; kept as a note, not lost work
            info["tuned_toml_error"] = str(err)
    write_json(info, folder / "tune.json")


# ---------------------------------------------------------------------------- words


def verdict_line(info: dict) -> str:
    """PASSED or NOT BETTER, in one sentence."""
    u, v = info["uplift"], info["validation"]
    d, t = info["default"]["validation"], info["tuned"]["validation"]
    games = f"{v['games']} fresh games, seed {v['seed']}, games the search never saw"
    uplift = f"{u['diff'] * 100:+.1f} points (95% CI {u['low'] * 100:+.1f} to {u['high'] * 100:+.1f})"
    if info["verdict"] == PASSED:
        return (f"PASSED: the tuned policy of {info['side']} wins {t['rate']:.1%} against the default's "
                f"{d['rate']:.1%} on {games}: {uplift}.")
    return (f"NOT BETTER: the tuned policy of {info['side']} is not shown better than the default on {games}: "
            f"{t['rate']:.1%} against {d['rate']:.1%}, {uplift}.")


def header(info: dict) -> str:
    """The comment lines on top of tuned.toml."""
    changed = ", ".join(f"{k} {v['default']} -> {v['tuned']}" for k, v in info["changed"].items()) or "none"
    return "\n".join([f"# shamble tune: {info['config']} with the policy of {info['side']} tuned "
                      f"({info['search']['games']} games of search, seed {info['search']['seed']}).",
                      f"# changed: {changed}", f"# {verdict_line(info)}", ""])


def render(info: dict, console: Console) -> None:
    """The changed fields, the rates and the verdict."""
    from rich.table import Table

    s = info["search"]
    console.print(f"{info['ruleset']} {info['config'] or ''}: side {info['side']} "
                  f"({', '.join(info['seats'])}; counts {info['counts']}); {len(info['fields'])} fields searched")
    console.print(f"search: {s['candidates']} candidates ({s['policies_played']} policies played) in "
                  f"{s['generations']} generations of {s['popsize']}, {s['games_per_candidate']} games each "
                  f"(seed {s['seed']}), {s['games']} games; stopped: {s['stop']}")
    table = Table(title="fields the tuned policy changes" if info["changed"] else "the tuned policy changes nothing")
    for col in ("field", "default", "tuned"):
        table.add_column(col, justify="left" if col == "field" else "right")
    for name, v in info["changed"].items():
        table.add_row(name, str(v["default"]), str(v["tuned"]))
    if info["changed"]:
        console.print(table)
    table = Table(title=f"validation: {info['validation']['games']} fresh games, seed {info['validation']['seed']}")
    for col in ("policy", "search rate", "fresh rate", "95% CI"):
        table.add_column(col, justify="left" if col == "policy" else "right")
    for name in ("default", "tuned"):
        r, f = info[name]["search"], info[name]["validation"]
        table.add_row(name, f"{r['rate']:.1%}", f"{f['rate']:.1%}", f"{f['low'] * 100:.1f}-{f['high'] * 100:.1f}")
    console.print(table)
    console.print(verdict_line(info))
    if info.get("tuned_toml"):
        console.print(f"wrote {info['tuned_toml']} and tune.json, search.csv beside it ({info['seconds']:.0f} s)")


def _best_line(found: Found, games: int) -> str:
    """Beside the search's bar: the generation and the best rate so far, with its interval."""
    r = _rate(found.best_wins, games)
    return f"search: generation {found.generations}, best {r['rate']:.1%} ({r['low'] * 100:.1f}-{r['high'] * 100:.1f})"


def _slug(text: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "_-" else "_" for ch in text)
