"""`shamble solve`: the value of one numeric parameter that gives a target win rate.

Stochastic root-finding on common random numbers:

1. **Grid on CRN.** The parameter is set to each point of a grid over ``[lo, hi]`` (integers for
   integer parameters) and every point plays the *same* games ``0 .. n-1`` of one seed, so the
   differences between points are not blurred by different dice.
2. **Monotone fit.** A logistic curve ``rate(x) = 1 / (1 + exp(-(a + b x)))`` is fitted to all
   points by maximum likelihood (scipy.optimize); the answer is where it crosses the target,
   ``x* = (logit(target) - a) / b``. A target the fitted curve does not reach inside ``[lo, hi]``
   is an error, not an extrapolation.
3. **Refine.** A second round zooms the grid onto the first answer's interval and plays twice
   the games.
4. **Interval.** A paired bootstrap over games: the same resampled game indices are used at every
   grid point (keeping the CRN pairing), the curve is refitted and ``x*`` recomputed; the 2.5% and
   97.5% percentiles of ``x*`` are the 95% interval.

A ruleset's numeric axis can be solved for as a parameter: Zombie 40,000's points budget
(``budget`` or ``team_budget``) refits every team. The search range defaults to the axis's, else
the parameter's plausible range (``shamble params``: x0.5 to x1.5 of its value, within its range).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
from scipy import optimize, special

from experiments.compare import win_outcomes
from experiments.stats import wilson_interval
from experiments.sweep import run_cell
from sim.ruleset import AxisKind, Parameter, ruleset_of, with_params

BOOTSTRAP = 400
GRID = 7

Evaluate = Callable[[float, int], np.ndarray]  # (value, games) -> bool[games], the same games every call


@dataclass(frozen=True)
class Solution:
    """Where the win rate crosses the target."""

    param: str
    target: float
    value: float  # the crossing of the fitted curve
    low: float  # 95% bootstrap interval of the crossing
    high: float
    points: pd.DataFrame  # value, games, wins, rate, ci_low, ci_high (the last round's grid)
    slope: float  # change of the log-odds per unit of the parameter
    integer: bool
    lo: float  # the search range
    hi: float
    word: str = "win"  # the ruleset's word for a win ("escape")

    @property
    def nearest(self) -> pd.DataFrame:
        """The two evaluated values around the answer, with their rates."""
        order = (self.points.value - self.value).abs().sort_values().index[:2]
        return self.points.loc[sorted(order)]


# ---------------------------------------------------------------------------- the fit


def fit_logistic(x: np.ndarray, wins: np.ndarray, games: np.ndarray) -> tuple[float, float]:
    """Maximum-likelihood (a, b) of ``logit(rate) = a + b x`` from binomial counts."""
    centre, scale = float(np.mean(x)), float(np.ptp(x)) or 1.0
    u = (np.asarray(x, float) - centre) / scale

    def nll(theta):
        eta = theta[0] + theta[1] * u
        return float(np.sum(games * np.logaddexp(0, eta) - wins * eta))

    def grad(theta):
        r = games * special.expit(theta[0] + theta[1] * u) - wins
        return np.array([r.sum(), (r * u).sum()])

    a, b = optimize.minimize(nll, np.zeros(2), jac=grad, method="BFGS").x
    return float(a - b * centre / scale), float(b / scale)


def crossing(a: float, b: float, target: float) -> float:
    """Where ``logit(rate) = a + b x`` equals the target (inf when the curve is flat)."""
    return (float(special.logit(target)) - a) / b if b != 0 else np.inf


def _grid(lo: float, hi: float, points: int, integer: bool) -> np.ndarray:
    grid = np.linspace(lo, hi, points)
    return np.unique(np.round(grid).astype(int)) if integer else grid


def _bootstrap(x: np.ndarray, outcomes: np.ndarray, target: float, lo: float, hi: float, seed: int) -> np.ndarray:
    """Crossings refitted on resampled games (the same games at every point: CRN kept)."""
    rng = np.random.default_rng(seed)
    n = outcomes.shape[1]
    found = np.empty(BOOTSTRAP)
    for k in range(BOOTSTRAP):
        wins = outcomes[:, rng.integers(0, n, n)].sum(axis=1)
        found[k] = np.clip(crossing(*fit_logistic(x, wins, np.full(len(x), n)), target), lo, hi)
    return found


def solve_curve(evaluate: Evaluate, lo: float, hi: float, target: float, games: int, integer: bool = False,
                rounds: int = 2, points: int = GRID, seed: int = 0, param: str = "x",
                progress: Callable[[int], None] | None = None) -> Solution:
    """Stochastic root-finding of a monotone rate (module docstring).

    Parameters
    ----------
    evaluate : callable
        ``evaluate(value, n)`` -> bool array of the outcomes of games ``0 .. n-1`` at ``value``;
        it must use the same games for every value (common random numbers).
    lo, hi : float
        The search interval; the fitted curve must cross ``target`` inside it.
    games : int
        Games per grid point in the first round (doubled each later round).
    """
    if not 0 < target < 1:
        raise ValueError(f"--target {target}; allowed: a rate strictly between 0 and 1")
    if not lo < hi:
        raise ValueError(f"--lo {lo} --hi {hi}; allowed: lo < hi")
    window = (lo, hi)
    for r in range(rounds):
        x = _grid(*window, points, integer)
        outcomes = np.array([evaluate(v, games * 2**r) for v in x])
        if progress is not None:
            progress(len(x))
        wins, n = outcomes.sum(axis=1), outcomes.shape[1]
        a, b = fit_logistic(x, wins, np.full(len(x), n))
        value = crossing(a, b, target)
        if not lo <= value <= hi:
            raise ValueError(_not_bracketed(param, target, x, wins / n))
        boot = _bootstrap(x, outcomes, target, lo, hi, seed + r)
        low, high = np.percentile(boot, [2.5, 97.5])
        step = (window[1] - window[0]) / (points - 1)
        window = (max(lo, low - step), min(hi, high + step))
        if integer:
            window = (np.floor(window[0]), np.ceil(window[1]))
    return Solution(param, target, value, float(low), float(high), _points_table(x, wins, n), b, integer, lo, hi)


def _points_table(x, wins, n) -> pd.DataFrame:
    low, high = wilson_interval(wins, n)
    return pd.DataFrame({"value": x, "games": n, "wins": wins, "rate": wins / n, "ci_low": low, "ci_high": high})


def _not_bracketed(param: str, target: float, x, rates) -> str:
    return (f"the win rate goes from {rates[0]:.1%} at {param} = {x[0]:g} to {rates[-1]:.1%} at {x[-1]:g}: "
            f"the target {target:.0%} is not crossed in between; widen --lo/--hi")


# ---------------------------------------------------------------------------- real games


def _numeric_axis(config, name: str) -> AxisKind | None:
    for axis in ruleset_of(config).axes().values():
        if axis.numeric and (axis.name == name or name in axis.aliases):
            return axis
    return None


def _parameter(config, name: str) -> Parameter:
    found = {p.name: p for p in ruleset_of(config).parameters()}
    if name not in found:
        with_params(config, {name: 0}, "--param")  # raises the unknown-parameter error with its close-match hint
        raise ValueError(f"--param {name}: not a parameter; see `shamble params`")
    if not found[name].is_numeric:
        raise ValueError(f"--param {name}: not a numeric parameter (default {found[name].default!r}); see "
                         "`shamble params`")
    return found[name]


def is_integer_param(config, name: str) -> bool:
    return _numeric_axis(config, name) is not None or _parameter(config, name).is_integer


def with_param(config, name: str, value: float):
    """The config with one numeric parameter (or numeric axis) set."""
    axis = _numeric_axis(config, name)
    if axis is not None:
        return axis.apply(config, axis.parse(int(value), config, None, -1), -1)
    value = int(value) if is_integer_param(config, name) else float(value)
    return with_params(config, {name: value}, "--param")


def player_index(config, player: str | None) -> int | None:
    if player is None or player == "any":
        return None
    names = [p.name for p in config.players]
    if player in names:
        return names.index(player)
    if player.isdigit() and int(player) < len(names):
        return int(player)
    raise ValueError(f"--player {player!r}; allowed: any, {', '.join(names)} or 0-{len(names) - 1}")


def default_range(config, name: str) -> tuple[float, float]:
    """The search range of ``name`` (module docstring)."""
    axis = _numeric_axis(config, name)
    if axis is not None and axis.default_range is not None:
        return axis.default_range
    parameter, value = _parameter(config, name), getattr(config, name)
    if parameter.plausible is not None and value == parameter.default:
        return parameter.plausible
    if parameter.is_integer:
        lo, hi = parameter.range or (0, 10**6)
        return max(lo, math.floor(value * 0.5 + 0.5)), min(hi, math.floor(value * 1.5 + 0.5))
    return value * 0.5, min(value * 1.5, (parameter.range or (0, 1000.0))[1])


def solve(config, param: str, target: float = 0.5, player: str | None = None,
          lo: float | None = None, hi: float | None = None, games: int = 400, seed: int = 1,
          rounds: int = 2, progress: Callable[[int], None] | None = None) -> Solution:
    """`shamble solve` on real games: the ``param`` value where ``player``'s win rate (or the
    rate that anyone wins) equals ``target``."""
    integer = is_integer_param(config, param)
    p = player_index(config, player)
    default = default_range(config, param)
    lo, hi = (default[0] if lo is None else lo), (default[1] if hi is None else hi)
    for value in (lo, hi):
        with_param(config, param, value)  # a value out of the parameter's range fails now, in one line

    def evaluate(value: float, n: int) -> np.ndarray:
        return win_outcomes(run_cell(with_param(config, param, value), n, seed), p)

    found = solve_curve(evaluate, lo, hi, target, games, integer, rounds, seed=seed, param=param, progress=progress)
    return replace(found, word=ruleset_of(config).win_word)


def render_solution(s: Solution, console) -> None:
    """The answer, its interval and the last round's grid."""
    from rich.table import Table

    shown = f"{s.value:.1f}" if s.integer else f"{s.value:.3g}"
    clipped = " (the interval reaches the end of the search range: widen --lo/--hi)" \
        if s.low <= s.lo or s.high >= s.hi else ""
    console.print(f"{s.param} = {shown} gives a {s.target:.0%} {s.word} rate "
                  f"(95% interval {s.low:.3g} - {s.high:.3g}; paired bootstrap over {BOOTSTRAP} resamples){clipped}")
    table = Table(title=f"last round: {int(s.points.games.iloc[0])} games per value, the same games at every value")
    for col in (s.param, f"{s.word} rate", "95% CI"):
        table.add_column(col, justify="right")
    for row in s.points.itertuples():
        table.add_row(f"{row.value:g}", f"{row.rate:.1%}", f"{row.ci_low:.1%} - {row.ci_high:.1%}")
    console.print(table)
