"""Sensitivity of the chosen numbers: which [C] parameter moves the win rate most?

Every parameter tagged "C" (a number the spec had to choose) with a plausible range (its
ruleset's ``Parameter.plausible``; ``shamble params``) is played at its low and its high value,
one at a time, everything else as in the base config, on common random numbers (the same games in
every cell); the base cell plays every default.

**The measure.** A number's *effect* is the largest change, from its default, of the rate that
*anyone* wins anywhere across its plausible range: ``rate(v) - rate(default)`` for whichever end
``v`` moves it more (an end equal to the default moves it by 0). The effect has a paired 95%
score interval and an exact McNemar p-value, Holm-adjusted over the numbers; the numbers are ranked by
``|effect|``, and each rank has a 95% interval from a bootstrap over games (the same resampled
games in every cell, keeping the pairing), so two numbers whose ranks overlap are not told apart.

**Not exercised.** A number whose low and high cells play exactly the base cell's games (every
result column, dice counts included) is read by nothing in this config (Out West's
``horse_move_dice`` with no horse in the posse): it is listed as "not exercised by this config",
after the ranked numbers, with no rank, effect or Holm p, instead of being ranked as measured and
unimportant.

A parameter that needs something switched on (``Parameter.enable``: Zombie 40,000's T-Virus
numbers need the T-Virus mod) counts only when that is on in the config, or asked for with
``enable``; then its cells, and a default cell of their own, play with it switched on.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
from scipy import stats

from experiments.compare import game_outcomes
from experiments.experiment import Axis, Experiment
from experiments.stats import holm, paired_difference
from sim.ruleset import Parameter, ruleset_of


def _switched(config, parameter: Parameter, enable: Mapping[str, tuple]) -> dict | None:
    """What must be added to the config for ``parameter`` to matter: ``{}`` (nothing), a dict
    of the fields to set, or None when it stays off. A set field (mods) is on when it holds the
    names; a number (terrain_density) when it is not 0."""
    extra = {}
    for key, names in parameter.enable.items():
        have = getattr(config, key, ())
        if not isinstance(have, frozenset | set | tuple | list):
            if have:
                continue
            if key not in enable:
                return None
            extra[key] = enable[key][0]
            continue
        if set(names) <= set(have):
            continue
        if not set(names) <= set(enable.get(key, ())):
            return None
        extra[key] = frozenset(have) | frozenset(names)
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
    """The base cell, a default cell for each set of switched-on extras, and two cells (low, high)
    per chosen parameter, all on the same games."""
    values, labels = [{}], ["base"]
    for parameter, extra in chosen_parameters(config, enable):
        prefix = _prefix(config, extra)
        if extra and f"{prefix}:default" not in labels:
            values.append(dict(extra))
            labels.append(f"{prefix}:default")
        for value in parameter.plausible:
            values.append(extra | {parameter.name: value})
            labels.append(f"{prefix + ':' if prefix else ''}{parameter.name}={value}")
    axis = Axis("params", "params", tuple(values), tuple(labels))
    return Experiment(name, config, games, seed, (axis,), "one [C] number at a time at its low and high value")


def _prefix(config, extra: dict) -> str:
    """'t_virus' for a mod switched on, 'terrain_density=0.25' for a number."""
    parts = []
    for key, value in extra.items():
        if isinstance(value, frozenset):
            parts += sorted(value - frozenset(getattr(config, key, ())))
        else:
            parts.append(f"{key}={value}")
    return "+".join(parts)


BOOTSTRAP = 200


def _cells(exp: Experiment) -> list[tuple[str, object, str, str, str]]:
    """(name, default value, prefix, low label, high label) per varied parameter, in axis order:
    the experiment lists each parameter's low and high cells one after the other."""
    axis = exp.axes[0]
    varied = [label for label in axis.labels if label != "base" and not label.endswith(":default")]
    out = []
    for low, high in zip(varied[::2], varied[1::2]):
        prefix, _, rest = low.rpartition(":")
        name = rest.split("=")[0]
        out.append((name, getattr(exp.base, name), prefix, low, high))
    return out


def sensitivity_pairs(exp: Experiment) -> list[tuple[str, str]]:
    """(cell label, its default cell's label) of every low and high cell: the comparisons whose
    intervals the table reports (`experiments.sequential` sizes them)."""
    name = exp.axes[0].name
    pairs = []
    for _, _, prefix, low, high in _cells(exp):
        default = f"{name}={_default_label(prefix)}"
        pairs += [(f"{name}={low}", default), (f"{name}={high}", default)]
    return pairs


def _default_label(prefix: str) -> str:
    """The axis label of the cell every low and high value of a mod (``prefix``) is compared with."""
    return f"{prefix}:default" if prefix else "base"


def sensitivity_table(results: pd.DataFrame, exp: Experiment, seed: int = 0, measure: str = "anyone") -> pd.DataFrame:
    """Rank the parameters by the largest change from the default (module docstring) of the yes/no
    outcome ``measure`` (``experiments.compare.game_outcomes``: anyone wins by default)."""
    axis = exp.axes[0]
    value_of = dict(zip(axis.labels, axis.values))
    cells = _split(results)
    outcome = {label: game_outcomes(cells.get(label, results.iloc[:0]), measure) for label in axis.labels}
    rows, effects = [], []
    for name, default, prefix, low_label, high_label in _cells(exp):
        base_label = _default_label(prefix)
        base = outcome[base_label]
        lo_out, hi_out = outcome[low_label], outcome[high_label]
        n = min(len(base), len(lo_out), len(hi_out))
        base, lo_out, hi_out = base[:n], lo_out[:n], hi_out[:n]
        far_high = abs(hi_out.mean() - base.mean()) >= abs(lo_out.mean() - base.mean())
        far = hi_out if far_high else lo_out
        d = paired_difference(far, base)
        rows.append({"param": name, "mod": prefix, "default": default, "low": value_of[low_label][name],
                     "high": value_of[high_label][name], "rate_low": lo_out.mean(), "rate_default": base.mean(),
                     "rate_high": hi_out.mean(), "extreme": value_of[high_label if far_high else low_label][name],
                     "rate_at_extreme": far.mean(), "effect": d.diff, "effect_low": d.low, "effect_high": d.high,
                     "p_value": d.p_value, "p_exact": d.p_exact, "variance_ratio": d.variance_ratio, "games": n,
                     "exercised": not all(_same_games(results, base_label, cell, cells)
                                          for cell in (low_label, high_label))})
        effects.append((base, lo_out, hi_out))
    table = pd.DataFrame(rows)
    if table.empty:
        return table
    table["base_rate"] = outcome["base"].mean()
    live = table.exercised.to_numpy()
    order = np.concatenate([k[np.argsort(-table.effect.abs().to_numpy()[k], kind="stable")]
                            for k in (np.flatnonzero(live), np.flatnonzero(~live))])
    table = table.iloc[order].reset_index(drop=True)
    n_live = int(live.sum())
    table["p_holm"] = np.nan  # Holm over the numbers that change a game (exact McNemar p)
    table["rank"] = table["rank_low"] = table["rank_high"] = pd.array([pd.NA] * len(table), dtype="Int64")
    if n_live:
        table.loc[: n_live - 1, "p_holm"] = holm(table.p_exact.iloc[:n_live])
        rank, low, high = ranked([effects[k] for k in order[:n_live]], seed)
        table.loc[: n_live - 1, "rank"], table.loc[: n_live - 1, "rank_low"], table.loc[: n_live - 1, "rank_high"] = \
            rank, low, high
    return table


def _split(results: pd.DataFrame) -> dict:
    """label -> the rows of its cell (in their order), split once: a sensitivity sweep has dozens
    of cells, and selecting each by a comparison over every row costs a pass over the whole table."""
    return dict(iter(results.groupby("axis_params", sort=False, observed=True)))


def _same_games(results: pd.DataFrame, label: str, other: str, cells: dict | None = None) -> bool:
    """Whether two cells played identical games: every result column (dice counts included) but
    the cell's own labels equal row for row. A number whose low and high cells both play the base
    cell's games is **not exercised** by this config (nothing in it reads that number). ``cells``:
    `_split` of ``results``, when the caller has it."""
    cells = _split(results) if cells is None else cells
    columns = [c for c in results.columns if c != "cell" and not c.startswith("axis_")]
    a, b = (cells.get(x, results.iloc[:0])[columns].reset_index(drop=True) for x in (label, other))
    return a.equals(b)


def ranked(effects: list, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each number's rank by the size of its effect (ties share the best rank) and the 95% interval
    of that rank (`_bootstrap_ranks`), widened where needed so that it holds the rank itself."""
    rank = stats.rankdata(-_sizes(effects), method="min").astype(int)
    low, high = _bootstrap_ranks(effects, seed)
    return rank, np.minimum(low, rank), np.maximum(high, rank)


def _sizes(effects: list, idx=slice(None)) -> np.ndarray:
    return np.asarray([max(abs(hi[idx].mean() - base[idx].mean()), abs(lo[idx].mean() - base[idx].mean()))
                       for base, lo, hi in effects])


def _bootstrap_ranks(effects: list, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """95% intervals of each parameter's rank by |effect| over games resampled (the same games in
    every cell). Ranks are counted as the table counts them (ties share the best rank: numbers that
    move no game all rank after the others, together), and the percentiles are ranks that occurred."""
    n = min(len(e[0]) for e in effects)
    rng = np.random.default_rng(seed)
    ranks = np.empty((BOOTSTRAP, len(effects)), int)
    for b in range(BOOTSTRAP):
        ranks[b] = stats.rankdata(-_sizes(effects, rng.integers(0, n, n)), method="min")
    return (np.percentile(ranks, 2.5, axis=0, method="lower").astype(int),
            np.percentile(ranks, 97.5, axis=0, method="higher").astype(int))


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


def render_sensitivity(table: pd.DataFrame, console, word: str = "win", config=None) -> None:
    from rich.table import Table

    from experiments.stats import TABLE_NOTE

    shown = Table(title=f"[C] numbers ranked by the largest change from the default of the rate that anyone "
                        f"{word}s (base {table.base_rate.iloc[0]:.1%}, {int(table.games.iloc[0])} games per value)",
                  caption="rank (95% interval of ranks, bootstrap over games; tied numbers share a rank). "
                          + TABLE_NOTE)
    for col in ("rank", "parameter", "low", "default", "high", "rate low", "rate default", "rate high", "effect",
                "95% CI", "Holm p", "var. ratio"):
        shown.add_column(col, justify="left" if col == "parameter" else "right", overflow="fold",
                         min_width=max(len(p) + len(m) + 3 * bool(m) for p, m in zip(table.param, table["mod"]))
                         if col == "parameter" else None)  # a name the user types is never cut
    for r in table.itertuples():
        values = (_value(config, r.param, v) for v in (r.low, r.default, r.high))
        name = r.param + (f" ({r.mod})" if r.mod else "")
        if not r.exercised:
            shown.add_row("-", name, *values, "", f"{r.rate_default:.1%}", "", "not exercised by this config",
                          "", "", "")
            continue
        shown.add_row(f"{r.rank} ({r.rank_low}-{r.rank_high})", name, *values,
                      f"{r.rate_low:.1%}", f"{r.rate_default:.1%}",
                      f"{r.rate_high:.1%}", f"{r.effect:+.1%}", f"{r.effect_low:+.1%} to {r.effect_high:+.1%}",
                      f"{r.p_holm:.3g}", "-" if pd.isna(r.variance_ratio) else f"{r.variance_ratio:.2f}")
    console.print(shown)
    idle = table.param[~table.exercised].tolist()
    if idle:
        console.print(f"not exercised by this config (every game identical at its low, default and high value, so "
                      f"not ranked): {', '.join(idle)}", soft_wrap=True, highlight=False, markup=False)


def _value(config, name: str, value) -> str:
    """A value as `shamble params` shows it: 'auto' for a 0 that means worked out (table_width_in)."""
    from sim.ruleset import value_word

    found = {p.name: p for p in ruleset_of(config).parameters()} if config is not None else {}
    return value_word(found[name], value) if name in found else str(value)
