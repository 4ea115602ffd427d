"""Sensitivity of the chosen numbers: which [C] parameter moves the win rate most?

Every parameter tagged "C" (a number the spec had to choose) with a plausible range (its
ruleset's ``Parameter.plausible``; ``shamble params``) is played at its low and its high value, one
at a time, everything else as in the base config, on common random numbers (the same games in
every cell). The table ranks the parameters by ``|rate(high) - rate(low)|`` of the rate that
*anyone* wins, with a paired 95% interval and a Holm-adjusted exact McNemar p-value.

A parameter that needs something switched on (``Parameter.enable``: Zombie 40,000's T-Virus
numbers need the T-Virus mod) counts only when that is on in the config, or asked for with
``enable`` (then its cells play with it switched on).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from experiments.compare import win_outcomes
from experiments.experiment import Axis, Experiment
from experiments.stats import holm, paired_difference
from sim.ruleset import Parameter, ruleset_of


def _switched(config, parameter: Parameter, enable: Mapping[str, tuple]) -> dict | None:
    """What must be added to the config for ``parameter`` to matter: ``{}`` (nothing), a dict
    of the fields to set, or None when it stays off."""
    extra = {}
    for key, names in parameter.enable.items():
        have = frozenset(getattr(config, key, ()))
        if set(names) <= have:
            continue
        if not set(names) <= set(enable.get(key, ())):
            return None
        extra[key] = have | frozenset(names)
    return extra


def chosen_parameters(config, enable: Mapping[str, tuple] | None = None) -> list[tuple[Parameter, dict]]:
    """The [C] parameters with a plausible range that can move the games of ``config`` (with
    ``enable`` switched on as needed), each with what its cells must add."""
    found = []
    for parameter in ruleset_of(config).parameters():
        if parameter.tag != "C" or parameter.plausible is None:
            continue
        extra = _switched(config, parameter, enable or {})
        if extra is not None:
            found.append((parameter, extra))
    return found


def sensitivity_experiment(config, games: int, seed: int, name: str = "sensitivity",
                           enable: Mapping[str, tuple] | None = None) -> Experiment:
    """One cell for the base and two (low, high) per chosen parameter, all on the same games."""
    values, labels = [{}], ["base"]
    for parameter, extra in chosen_parameters(config, enable):
        prefix = "+".join(n for names in extra.values() for n in sorted(set(names) - _have(config, extra)))
        for value in parameter.plausible:
            values.append(extra | {parameter.name: value})
            labels.append(f"{prefix + ':' if prefix else ''}{parameter.name}={value}")
    axis = Axis("params", "params", tuple(values), tuple(labels))
    return Experiment(name, config, games, seed, (axis,), "one [C] number at a time at its low and high value")


def _have(config, extra: dict) -> frozenset:
    return frozenset(n for key in extra for n in getattr(config, key, ()))


def _varied(params: dict) -> tuple[str, object]:
    return next(iter(params.items())) if len(params) == 1 else list(params.items())[-1]


def sensitivity_table(results: pd.DataFrame, exp: Experiment) -> pd.DataFrame:
    """Rank the parameters by |rate(high) - rate(low)| of "anyone wins" (paired, Holm)."""
    axis = exp.axes[0]
    outcome = {label: win_outcomes(results[results.axis_params == label], None) for label in axis.labels}
    rows = []
    for k in range(1, len(axis.values), 2):
        (name, low), (_, high) = _varied(axis.values[k]), _varied(axis.values[k + 1])
        lo_out, hi_out = outcome[axis.labels[k]], outcome[axis.labels[k + 1]]
        d = paired_difference(hi_out, lo_out)
        switched = sorted(n for key, v in axis.values[k].items() if key != name
                          for n in set(v) - set(getattr(exp.base, key, ())))
        rows.append({"param": name, "mod": "+".join(switched), "default": getattr(exp.base, name), "low": low,
                     "high": high, "rate_low": lo_out.mean(), "rate_high": hi_out.mean(), "diff": d.diff,
                     "ci_low": d.low, "ci_high": d.high, "p_value": d.p_value, "games": d.games})
    table = pd.DataFrame(rows)
    if table.empty:
        return table
    table["p_holm"] = holm(table.p_value)
    table["base_rate"] = outcome["base"].mean()  # (rows with a mod compare its low and high under that mod)
    return table.reindex(np.argsort(-table["diff"].abs().to_numpy(), kind="stable")).reset_index(drop=True)


def run_sensitivity(config, out, games: int = 1000, seed: int = 1, fresh: bool = False,
                    dask: str | None = None, console=None) -> pd.DataFrame:
    """`shamble sensitivity`: the sensitivity sweep (resumable, in ``out``) and its ranked table."""
    from experiments.sweep import sweep, write_table

    if games < 1:
        raise ValueError(f"--games {games}; allowed: 1 or more")
    exp = sensitivity_experiment(config, games, seed)
    result = sweep(exp, out, fresh=fresh, dask=dask, console=console, show_progress=console is not None)
    table = sensitivity_table(result.results, exp)
    write_table(table, out / "sensitivity.csv")
    return table


def render_sensitivity(table: pd.DataFrame, console, word: str = "win") -> None:
    from rich.table import Table

    shown = Table(title=f"[C] numbers ranked by how much they move the rate that anyone {word}s "
                        f"(base {table.base_rate.iloc[0]:.1%}, {int(table.games.iloc[0])} games per value)")
    for col in ("parameter", "low", "high", "rate low", "rate high", "high - low", "95% CI", "Holm p"):
        shown.add_column(col, justify="left" if col == "parameter" else "right")
    for r in table.itertuples():
        shown.add_row(r.param, str(r.low), str(r.high), f"{r.rate_low:.1%}", f"{r.rate_high:.1%}",
                      f"{r.diff:+.1%}", f"{r.ci_low:+.1%} to {r.ci_high:+.1%}", f"{r.p_holm:.3g}")
    console.print(shown)
