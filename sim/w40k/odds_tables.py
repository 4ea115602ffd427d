"""The odds of one exchange as tables (a ruleset's ``odds`` command: ``shamble zombie40k odds``).

``odds_report(attacker, weapon, target, **situation)`` builds the exchange from catalogue names
(`sim.w40k.odds.build_exchange`) and returns `odds_table`'s dict: the exact distribution of unsaved
wounds and of models removed (`sim.w40k.exact`), each as pmf, mean and "at least x" column, and, when
asked, the mean of N games played in the kernels next to the exact one (a live check of the
kernels against the oracle). `render_odds`, `odds_json` and `plot_odds` print, serialise and draw
that dict; none of them computes anything.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

from kernels.w40k import columns as L
from sim.files import atomic_path
from sim.w40k.exact import Odds, exchange_odds
from sim.w40k.exchange import Exchange, simulate_exchange
from sim.w40k.odds import build_exchange, describe

MAX_SIMULATE = 10_000_000
PLOT_FORMATS = ("png", "svg", "pdf")
SHOWN_BELOW = 5e-5  # rows whose P(= x) and P(>= x) are both below this are left out of the table
DISTRIBUTIONS = (("unsaved", "unsaved wounds", L.OUT_UNSAVED), ("killed", "models removed", L.OUT_KILLED))


def odds_report(attacker: str, weapon: str | None, target: str, *, simulate: int = 0, seed: int = 0,
                **situation) -> dict:
    """`odds_table` of ``sim.w40k.odds.build_exchange(attacker, weapon, target, **situation)``."""
    exchange = build_exchange(attacker, weapon, target, **situation)
    return odds_table(exchange, simulate=simulate, seed=seed)


def _distribution(pmf: np.ndarray) -> dict:
    return {"pmf": pmf.tolist(), "mean": Odds.mean(pmf), "at_least": np.clip(Odds.at_least(pmf), 0, 1).tolist()}


def odds_table(exchange: Exchange, *, simulate: int = 0, seed: int = 0) -> dict:
    """Exact odds of the exchange (and optionally a Monte Carlo check).

    Parameters
    ----------
    exchange : Exchange
    simulate : int
        Games to play in the kernels (0: none).
    seed : int
        Seed of the simulated games (0 <= seed < 2**64).

    Returns
    -------
    dict
        ``exchange``: `sim.w40k.odds.describe`; ``n_dice``; ``unsaved`` and ``killed``: each
        ``pmf`` (list, index = count), ``mean`` and ``at_least`` (P(X >= x)); ``simulated``: None
        or {games, seed, unsaved: {mean, stderr, z}, killed: {...}} where z is the Monte Carlo
        mean's distance from the exact mean in standard errors.
    """
    if not isinstance(simulate, int) or isinstance(simulate, bool) or not 0 <= simulate <= MAX_SIMULATE:
        raise ValueError(f"simulate = {simulate!r}; allowed: an integer 0-{MAX_SIMULATE} (games)")
    odds = exchange_odds(exchange)
    result = {
        "exchange": describe(exchange),
        "n_dice": exchange.n_dice,
        "unsaved": _distribution(odds.unsaved),
        "killed": _distribution(odds.killed),
        "simulated": None,
    }
    if simulate:
        result["simulated"] = _simulated(exchange, simulate, seed, result)
    return result


def _simulated(exchange: Exchange, n_games: int, seed: int, exact: dict) -> dict:
    """Means of ``n_games`` kernel games with their standard errors and z against the exact mean."""
    out = simulate_exchange(exchange, n_games, seed)
    summary: dict = {"games": n_games, "seed": seed}
    for key, _label, column in DISTRIBUTIONS:
        values = out[:, column].astype(np.float64)
        mean = float(values.mean())
        stderr = float(values.std(ddof=1) / math.sqrt(n_games)) if n_games > 1 else math.nan
        gap = mean - exact[key]["mean"]
        z = gap / stderr if stderr > 0 else (0.0 if abs(gap) < 1e-12 else math.inf)
        summary[key] = {"mean": mean, "stderr": stderr, "z": z}
    return summary


def odds_json(result: dict) -> str:
    """The result as indented JSON (NaN and infinity written as null)."""
    return json.dumps(_finite(result), indent=2)


def _finite(value):
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value


# ----------------------------------------------------------------------------------------------
# Printing
# ----------------------------------------------------------------------------------------------


def _percent(p: float) -> str:
    if p <= 0:
        return "0"
    return "<0.01%" if p < 5e-5 else f"{100 * p:.2f}%"


def _shown_rows(result: dict) -> int:
    """Rows 0..n-1 carry every probability of at least SHOWN_BELOW."""
    last = 0
    for key, _label, _column in DISTRIBUTIONS:
        pmf, at_least = result[key]["pmf"], result[key]["at_least"]
        for x in range(len(pmf)):
            if pmf[x] >= SHOWN_BELOW or at_least[x] >= SHOWN_BELOW:
                last = max(last, x)
    return last + 1


def _cell(values: list[float], x: int) -> str:
    return _percent(values[x]) if x < len(values) else ""


def _distribution_table(result: dict) -> Table:
    table = Table(title="Exact odds", title_justify="left")
    table.add_column("x", justify="right")
    for _key, label, _column in DISTRIBUTIONS:
        table.add_column(f"P({label} = x)", justify="right")
        table.add_column(f"P({label} >= x)", justify="right")
    for x in range(_shown_rows(result)):
        cells = [str(x)]
        for key, _label, _column in DISTRIBUTIONS:
            cells += [_cell(result[key]["pmf"], x), _cell(result[key]["at_least"], x)]
        table.add_row(*cells)
    return table


def _means_table(result: dict) -> Table:
    sim = result["simulated"]
    table = Table(title="Means", title_justify="left")
    table.add_column("")
    table.add_column("exact", justify="right")
    if sim:
        table.add_column(f"Monte Carlo ({sim['games']:,} games, seed {sim['seed']})", justify="right")
        table.add_column("z", justify="right")
    for key, label, _column in DISTRIBUTIONS:
        row = [label, f"{result[key]['mean']:.4f}"]
        if sim:
            mc = sim[key]
            row += [f"{mc['mean']:.4f} ± {mc['stderr']:.4f}", f"{mc['z']:+.2f}"]
        table.add_row(*row)
    return table


def render_odds(result: dict, console: Console) -> None:
    """Print the exchange in words, the exact distribution and the means as rich tables."""
    words = result["exchange"]
    lines = [
        f"[bold]{words['attacker']}[/bold] ({words['attacker_profile']})",
        f"  {words['dice']} of {words['weapon']}",
        f"  at [bold]{words['target']}[/bold] ({words['target_profile']})",
        f"  to hit {words['to_hit']}",
        f"  to wound {words['to_wound']}",
        f"  save {words['save']}",
    ]
    if words["situation"]:
        lines.append("  " + ", ".join(words["situation"]))
    for line in lines:
        console.print(line, soft_wrap=True, highlight=False)
    console.print(_distribution_table(result))
    console.print(_means_table(result))


# ----------------------------------------------------------------------------------------------
# Plot
# ----------------------------------------------------------------------------------------------


def _plot_format(path: Path) -> str:
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in PLOT_FORMATS:
        endings = ", ".join("." + f for f in PLOT_FORMATS)
        raise ValueError(f"plot = {str(path)!r}; allowed: a file name ending in {endings}")
    if not path.parent.is_dir():
        raise FileNotFoundError(f"plot = {str(path)!r}: folder {str(path.parent)!r} does not exist")
    return fmt


def _draw(result: dict):
    """The figure: per distribution, bars of P(= x) and a line of P(>= x)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    words = result["exchange"]
    fig = Figure(figsize=(10, 4.2), layout="constrained")
    FigureCanvasAgg(fig)
    shown = _shown_rows(result)
    for ax, (key, label, _column) in zip(fig.subplots(1, 2), DISTRIBUTIONS):
        x = np.arange(min(shown, len(result[key]["pmf"])))
        ax.bar(x, np.asarray(result[key]["pmf"])[: x.size], color="#4c72b0", label=f"P({label} = x)")
        ax.plot(x, np.asarray(result[key]["at_least"])[: x.size], "o-", color="#dd8452", label=f"P({label} >= x)")
        ax.axvline(result[key]["mean"], color="0.3", linestyle="--", linewidth=1,
                   label=f"mean {result[key]['mean']:.3f}")
        ax.set_xlabel(label)
        ax.set_ylabel("probability")
        ax.set_ylim(0, 1.02)
        ax.legend(fontsize="small")
    fig.suptitle(f"{words['attacker']}: {words['dice']} of {words['weapon']} at {words['target']}", fontsize="medium")
    return fig


def plot_odds(result: dict, path: str | os.PathLike) -> Path:
    """Draw the two distributions to ``path`` (.png, .svg or .pdf), atomically: the figure is
    written to a temporary file in the same folder, then renamed over ``path``."""
    path = Path(path)
    fmt = _plot_format(path)
    fig = _draw(result)
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format=fmt, dpi=110)
    return path


# ----------------------------------------------------------------------------------------------
# Catalogue listings
# ----------------------------------------------------------------------------------------------


def render_rows(rows: list[dict], title: str, console: Console) -> None:
    """Print rows of strings (``sim.w40k.odds.unit_rows``, ``weapon_rows``) as one rich table."""
    table = Table(title=title, title_justify="left")
    for column in rows[0] if rows else ():
        table.add_column(column, overflow="fold")  # narrow terminals wrap; nothing is cut
    for row in rows:
        table.add_row(*(str(v) for v in row.values()))
    console.print(table)
