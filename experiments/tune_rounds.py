"""`shamble tune --all-sides --rounds K`: best responses in turn, for competitive games.

Each round, every player in seat order tunes his policy (`experiments.tune.run_tune`, his player
name as the side) against the others' current policies; he adopts the tuned policy only when its
validation PASSED (shown better than his current one on fresh games), so a round never makes a
player's play worse by the search's noise. After each round every player's rate is measured on
the same fresh games (the standings seed, ``seed + 1``, which no search plays), each with its
Wilson 95% interval: the table of rates per round shows whether they settle. The last round's
standings are "balance under tuned play"; round 0 is the config as given.

Seeds: the tune of player ``j`` in round ``r`` (the ``i``-th tune, ``i = (r - 1) x players + j``)
searches seed ``seed + 2 + 2 i`` and validates on ``seed + 3 + 2 i``: each search and each
validation plays games no other step plays.

**Output folder**::

    DIR/round<r>-<player>/   each tune's own folder (`experiments.tune`: resumable)
    DIR/rounds.csv           round, player, rate, its interval, the policy played, adopted or not
    DIR/tuned.toml           the config file with every player's final policy
    DIR/rounds.json          what `run_best_responses` returns
"""

from __future__ import annotations

import time
from pathlib import Path

import pandas as pd
from rich.console import Console

from experiments.stats import wilson_interval
from experiments.tune import PASSED, SEED, VALIDATE_GAMES, _config, _slug, run_tune
from experiments.tune_files import policy_table, write_tuned_toml
from experiments.tune_space import TuneError
from sim.play import play
from sim.ruleset import ruleset_of

ROUNDS_BUDGET = 20_000  # games of search per tune by default: 2 rounds of 4 players in about 350,000 games


def standings(config, games: int, seed: int, round_: int, adopted: dict[str, bool]) -> list[dict]:
    """Every player's rate (his ``won``) on games ``0 .. games-1`` of ``seed``."""
    rs = ruleset_of(config)
    rows = play(config, games, seed)
    wins = rows.groupby("player", sort=True).won.sum().to_numpy()
    low, high = wilson_interval(wins, games)
    return [{"round": round_, "player": p.name, "rate": wins[k] / games, "ci_low": float(low[k]),
             "ci_high": float(high[k]), "policy": _words(policy_table(rs, p.policy)),
             "adopted": adopted.get(p.name, False)} for k, p in enumerate(config.players)]


def _words(table) -> str:
    return table if isinstance(table, str) else "; ".join(f"{k}={v}" for k, v in table.items())


def run_best_responses(config_path_or_config, rounds: int = 2, budget: int = ROUNDS_BUDGET, fields=None,
                       seed: int = SEED, out_dir: str | Path | None = None, dask_address: str | None = None,
                       resume: bool = True, progress: bool = True, games: int | None = None,
                       validate_games: int = VALIDATE_GAMES, console: Console | None = None) -> dict:
    """Best responses in turn for ``rounds`` rounds (module docstring); returns rounds.json."""
    started = time.perf_counter()
    config, source = _config(config_path_or_config)
    if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 1:
        raise TuneError(f"--rounds {rounds!r}; allowed: an integer 1 or more")
    names = [p.name for p in config.players]
    if len(set(names)) != len(names):
        raise TuneError(f"--all-sides: the players need distinct names to be tuned in turn; they are {names}")
    rs = ruleset_of(config)
    folder = None if out_dir is None else Path(out_dir)
    table = standings(config, validate_games, seed + 1, 0, {})
    tunes = []
    for r in range(1, rounds + 1):
        adopted = {}
        for j, name in enumerate(names):
            i = (r - 1) * len(names) + j
            sub = None if folder is None else folder / f"round{r}-{_slug(name)}"
            info = run_tune(config, name, budget, fields, seed=seed + 2 + 2 * i, out_dir=sub, dask_address=dask_address,
                            resume=resume, progress=progress, games=games, validate_games=validate_games,
                            validate_seed=seed + 3 + 2 * i, console=console)
            adopted[name] = info["verdict"] == PASSED
            if adopted[name]:
                policy = rs.policy_from(info["tuned_policy"], f"round {r}, {name}")
                config = _with_seat_policy(config, j, policy)
            tunes.append({"round": r, "player": name, "verdict": info["verdict"], "uplift": info["uplift"],
                          "validation": info["validation"], "changed": info["changed"], "games": info["games"],
                          "tuned_policy": info["tuned_policy"]})
        table += standings(config, validate_games, seed + 1, r, adopted)
    out = {"ruleset": rs.id, "config": None if source is None else str(source), "rounds": rounds, "budget": budget,
           "seed": seed, "standings_seed": seed + 1, "standings_games": validate_games, "table": table,
           "tunes": tunes, "final_policies": {p.name: policy_table(rs, p.policy) for p in config.players},
           "games": sum(t["games"] for t in tunes) + (rounds + 1) * validate_games,
           "seconds": round(time.perf_counter() - started, 1)}
    if folder is not None:
        _write(folder, out, source, config)
    return out


def _with_seat_policy(config, seat: int, policy):
    from dataclasses import replace

    players = list(config.players)
    players[seat] = replace(players[seat], policy=policy)
    return replace(config, players=tuple(players))


def _write(folder: Path, out: dict, source, config) -> None:
    from experiments.sweep import write_json, write_table

    folder.mkdir(parents=True, exist_ok=True)
    write_table(pd.DataFrame(out["table"]), folder / "rounds.csv")
    out["tuned_toml"] = None
    if source is not None:
        head = (f"# shamble tune --all-sides --rounds {out['rounds']}: {source} with every player's policy after "
                f"{out['rounds']} rounds of best responses ({out['budget']} games of search per tune).\n")
        path = write_tuned_toml(source, config, dict(enumerate(p.policy for p in config.players)),
                                folder / "tuned.toml", head)
        out["tuned_toml"] = str(path)
    write_json(out, folder / "rounds.json")


def render_rounds(out: dict, console: Console) -> None:
    """One row per player, one column per round: his rate with its interval (* adopted a tuned policy)."""
    from rich.table import Table

    df = pd.DataFrame(out["table"])
    table = Table(title=f"best responses in turn: each player's rate per round on {out['standings_games']} fresh "
                        f"games (seed {out['standings_seed']}); * = adopted a tuned policy that round")
    table.add_column("player")
    for r in range(out["rounds"] + 1):
        table.add_column("as given" if r == 0 else f"round {r}", justify="right")
    for name, rows in df.groupby("player", sort=False):
        table.add_row(name, *(f"{x.rate:.1%} ({x.ci_low * 100:.1f}-{x.ci_high * 100:.1f}){'*' * bool(x.adopted)}"
                              for x in rows.itertuples()))
    console.print(table)
    for name, policy in out["final_policies"].items():
        console.print(f"{name}: {_words(policy)}")
    if out.get("tuned_toml"):
        console.print(f"wrote {out['tuned_toml']}, rounds.csv and rounds.json beside it ({out['seconds']:.0f} s)")
