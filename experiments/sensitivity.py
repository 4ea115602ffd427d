"""Sensitivity of the chosen numbers: which [C] parameter moves the escape rate most?

Every numeric GameConfig field tagged "C" (a number the spec had to choose, zombie40k §12-§13)
is played at a low and a high plausible value, one at a time, everything else at its default,
on common random numbers (the same games in every cell). The table ranks the parameters by
``|rate(high) - rate(low)|`` of the rate that *anyone* escapes, with a paired 95% interval and
a Holm-adjusted exact McNemar p-value.

**Plausible range rule.** The default ``x 0.5`` and ``x 1.5`` (integers rounded half up), clipped
to the validator's range, except where ``PLAUSIBLE`` gives a range with its reason: to-hit and
Feel No Pain rolls and Toughness move by one step, the lost single digits (the seed lost the
digits 1-6) stay within 1-6, dice expressions go one die size down and up. Parameters of a mod
(``sim.rulesets.zombie40k.mods``: T-Virus's ``tvirus_t``, Death Korps' ``dk_*``...) count only with their mod: on in the
config, or asked for with ``with_mods`` (then their cells play with the mod switched on).
"""

from __future__ import annotations

import math
from dataclasses import fields

import numpy as np
import pandas as pd

from experiments.compare import escape_outcomes
from experiments.experiment import Axis, Experiment
from experiments.stats import holm, paired_difference
from sim.rulesets.zombie40k.config import GameConfig, int_range
from sim.rulesets.zombie40k.mods import MOD_LIST

PLAUSIBLE = {  # name: (low, high), where x0.5 / x1.5 would not be plausible
    "table_width_in": (36.0, 60.0),  # default 0 = 48" for up to 4 players (§3.1 A8)
    "hordes_per_player": (1, 3),  # a lost digit: 1-6; 3 per player already crowds a 48" table
    "horde_size": (3, 6),  # a lost digit: 1-6 (zombie40k §13 #21)
    "chainsaw_hit_on": (2, 3), "shotgun_powerup_hit_on": (2, 3),  # one step of a D6 to-hit roll
    "mushroom_init_bonus": (0, 2),
    "model_spacing_in": (1.0, 2.0),  # bases touch at 1.0" (25 mm)
    "centre_scatter_dice": ("D6", "3D6"), "pushback_dice": ("D3", "2D6"),  # one die size down and up
    "tvirus_t": (3, 5), "tvirus_fnp": (3, 5), "dk_start_t": (2, 4), "dk_start_fnp": (5, 7),
    "dk_max_t": (5, 7), "dk_max_fnp": (2, 4), "emfh_fail_on": (3, 5),
    "terrain_density": (0.0, 0.25),  # default 0 = open table (§3.1); about 0.25 is a normal 40k amount
    "terrain_dangerous": (0.0, 0.5),  # default 0: no dangerous ruins (matters only with terrain_density)
}
MOD_OF = {name: mod.key for mod in MOD_LIST for name in mod.params}  # a mod's own parameters


def chosen_fields(config: GameConfig, mods=None) -> list:
    """The [C] fields (numbers and dice) that can move the games of ``config`` with ``mods`` on
    (default: the config's own mods); a mod's parameters need their mod."""
    mods = config.mods if mods is None else set(mods)
    found = []
    for f in fields(GameConfig):
        numeric = isinstance(f.default, int | float) and not isinstance(f.default, bool)
        if f.metadata.get("tag") != "C" or not (numeric or f.name.endswith("_dice")):
            continue
        if MOD_OF.get(f.name) is None or MOD_OF[f.name] in mods:
            found.append(f)
    return found


def plausible_range(name: str, default) -> tuple:
    """(low, high) of a parameter (module docstring: the range rule)."""
    if name in PLAUSIBLE:
        return PLAUSIBLE[name]
    if isinstance(default, int):
        lo, hi = int_range(name) or (0, 10**6)
        return max(lo, math.floor(default * 0.5 + 0.5)), min(hi, math.floor(default * 1.5 + 0.5))
    return default * 0.5, min(default * 1.5, 1000.0)


def sensitivity_experiment(config: GameConfig, games: int, seed: int, name: str = "sensitivity",
                           with_mods=()) -> Experiment:
    """One cell for the base and two (low, high) per chosen parameter, all on the same games; the
    parameters of the mods in ``with_mods`` are played with their mod switched on."""
    values, labels = [{}], ["base"]
    for f in chosen_fields(config, set(config.mods) | set(with_mods)):
        mod = MOD_OF.get(f.name)
        extra = {"mods": config.mods | {mod}} if mod and mod not in config.mods else {}
        for value in plausible_range(f.name, getattr(config, f.name)):
            values.append(extra | {f.name: value})
            labels.append(f"{mod + ':' if extra else ''}{f.name}={value}")
    axis = Axis("params", "params", tuple(values), tuple(labels))
    return Experiment(name, config, games, seed, (axis,), "one [C] number at a time at its low and high value")


def _varied(params: dict) -> tuple[str, object]:
    return next((k, v) for k, v in params.items() if k != "mods")


def sensitivity_table(results: pd.DataFrame, exp: Experiment) -> pd.DataFrame:
    """Rank the parameters by |rate(high) - rate(low)| of "anyone escapes" (paired, Holm)."""
    axis = exp.axes[0]
    outcome = {label: escape_outcomes(results[results.axis_params == label], None) for label in axis.labels}
    rows = []
    for k in range(1, len(axis.values), 2):
        (name, low), (_, high) = _varied(axis.values[k]), _varied(axis.values[k + 1])
        lo_out, hi_out = outcome[axis.labels[k]], outcome[axis.labels[k + 1]]
        d = paired_difference(hi_out, lo_out)
        mods = sorted(axis.values[k].get("mods", frozenset()) - exp.base.mods)
        rows.append({"param": name, "mod": "+".join(mods), "default": getattr(exp.base, name), "low": low, "high": high,
                     "rate_low": lo_out.mean(), "rate_high": hi_out.mean(), "diff": d.diff, "ci_low": d.low,
                     "ci_high": d.high, "p_value": d.p_value, "games": d.games})
    table = pd.DataFrame(rows)
    if table.empty:
        return table
    table["p_holm"] = holm(table.p_value)
    table["base_rate"] = outcome["base"].mean()  # (rows with a mod compare its low and high under that mod)
    return table.reindex(np.argsort(-table["diff"].abs().to_numpy(), kind="stable")).reset_index(drop=True)


def run_sensitivity(config: GameConfig, out, games: int = 1000, seed: int = 1, fresh: bool = False,
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


def render_sensitivity(table: pd.DataFrame, console) -> None:
    from rich.table import Table

    shown = Table(title="[C] numbers ranked by how much they move the rate that anyone escapes "
                        f"(base {table.base_rate.iloc[0]:.1%}, {int(table.games.iloc[0])} games per value)")
    for col in ("parameter", "low", "high", "rate low", "rate high", "high - low", "95% CI", "Holm p"):
        shown.add_column(col, justify="left" if col == "parameter" else "right")
    for r in table.itertuples():
        shown.add_row(r.param, str(r.low), str(r.high), f"{r.rate_low:.1%}", f"{r.rate_high:.1%}",
                      f"{r.diff:+.1%}", f"{r.ci_low:+.1%} to {r.ci_high:+.1%}", f"{r.p_holm:.3g}")
    console.print(shown)
