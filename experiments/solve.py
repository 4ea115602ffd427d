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
   the games. Where the first fit was rough and the zoomed grid's crossing falls outside it, the
   window grows by its width toward the crossing (within ``[lo, hi]``) and the round is replayed.
4. **Interval.** A paired bootstrap over games: the same resampled game indices are used at every
   grid point (keeping the CRN pairing), the curve is refitted and ``x*`` recomputed; the 2.5% and
   97.5% percentiles of ``x*`` are the 95% interval.

A ruleset's numeric axis can be solved for as a parameter: Zombie 40,000's points budget
(``budget`` or ``team_budget``) refits every team. The search range defaults to the axis's, else
the parameter's plausible range (``shamble params``: x0.5 to x1.5 of its value, within its range).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from difflib import get_close_matches

import numpy as np
import pandas as pd
from scipy import optimize, special, stats

from experiments.compare import win_outcomes
from experiments.stats import wilson_interval
from experiments.sweep import run_cell
from sim.ruleset import AxisKind, Parameter, ruleset_of, with_params

BOOTSTRAP = 400
GRID = 7
MISFIT_P = 1e-3  # a logistic curve whose deviance has a smaller p-value does not describe the grid

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
    note: str = ""  # how to read the answer when the curve is not smooth
    steps: pd.DataFrame | None = None  # integer and step parameters: the distinct values around the answer

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
    window, r = (lo, hi), 0
    while r < rounds:
        x = _grid(*window, points, integer)
        outcomes = np.array([evaluate(v, games * 2**r) for v in x])
        if progress is not None:
            progress(len(x))
        wins, n = outcomes.sum(axis=1), outcomes.shape[1]
        _check_monotone(param, target, x, wins, n)
        a, b = fit_logistic(x, wins, np.full(len(x), n))
        value = crossing(a, b, target)
        misfit = not x[0] <= value <= x[-1]  # the grid this round played, never an extrapolation beyond it
        if misfit:
            wider = _widened(window, value, lo, hi) if r > 0 else None
            if wider is not None:
                window = wider  # the zoom missed the crossing (the first fit was rough): replay the round wider
                continue
            grid_step(param, target, x, wins / n)  # the grid's own rates: not reached, or not monotone, raise
        r += 1
        if misfit or logistic_misfit(x, wins, n, a, b) < MISFIT_P:
            found = _bracketed(param, target, x, wins, n, b, integer, lo, hi)
            window = (found.low, found.high)  # the next round looks between the two grid values
            if r == rounds or (integer and found.high - found.low <= 1):
                return found
            continue
        boot = _bootstrap(x, outcomes, target, x[0], x[-1], seed + r - 1)
        low, high = np.percentile(boot, [2.5, 97.5])
        step = (window[1] - window[0]) / (points - 1)
        window = (max(lo, low - step), min(hi, high + step))
        if integer:
            window = (np.floor(window[0]), np.ceil(window[1]))
            low, high = np.floor(low), np.ceil(high)  # an interval of values the parameter can take
    return Solution(param, target, value, float(low), float(high), _points_table(x, wins, n), b, integer, lo, hi)


def _widened(window: tuple, value: float, lo: float, hi: float) -> tuple | None:
    """The zoomed window grown by its width toward a crossing that fell outside it, within the
    search range; None when it already reaches that end."""
    width = window[1] - window[0]
    if value < window[0] and window[0] > lo:
        return max(lo, window[0] - width), window[1]
    if value > window[1] and window[1] < hi:
        return window[0], min(hi, window[1] + width)
    return None


def logistic_misfit(x, wins, n: int, a: float, b: float) -> float:
    """p-value of the logistic curve's deviance against the grid's binomial counts (chi-square with
    points - 2 degrees of freedom): small when the curve does not describe the rates."""
    fitted = n * special.expit(a + b * np.asarray(x, float))
    wins = np.asarray(wins, float)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(wins > 0, wins * np.log(wins / fitted), 0.0) + \
            np.where(n - wins > 0, (n - wins) * np.log((n - wins) / (n - fitted)), 0.0)
    return float(stats.chi2.sf(2 * terms.sum(), max(1, len(x) - 2)))


def _bracketed(param, target, x, wins, n, slope, integer, lo, hi) -> Solution:
    """The crossing between the two grid values around the target, when no logistic curve fits."""
    rates = np.asarray(wins) / n
    k = grid_step(param, target, x, rates, first=True)
    x0, x1, r0, r1 = float(x[k]), float(x[k + 1]), rates[k], rates[k + 1]
    value = x0 + (target - r0) / (r1 - r0) * (x1 - x0) if r1 != r0 else (x0 + x1) / 2
    note = (f"the rates do not follow a logistic curve (a step between {x0:g} and {x1:g}?): the answer lies between "
            f"those two values, where the rate goes from {r0:.1%} to {r1:.1%}")
    return Solution(param, target, value, x0, x1, _points_table(x, wins, n), slope, integer, lo, hi, note=note)


def grid_step(param: str, target: float, x, rates, first: bool = False) -> int:
    """The index k of the grid step (x[k], x[k+1]) whose rates cross the target, from the rates
    themselves. No step crosses: the target is not reached on this grid (an error, never an
    extrapolation). Steps cross it both ways where no curve crosses it (``first`` False): the rate
    rises and falls, and the error names the sub-ranges that hold one crossing each. Where a curve
    crosses it but misfits (``first``), the first step is taken: near the target, noise crosses it
    both ways and `crossings` has already refused a grid whose sides differ beyond noise."""
    rates = np.asarray(rates, float)
    side = np.sign(rates - target)
    steps = [k for k in range(len(x) - 1) if side[k] == 0 or side[k] != side[k + 1]]
    if not steps:
        raise ValueError(f"{target:.0%} is not reached on this grid: the rate goes from {rates.min():.1%} to "
                         f"{rates.max():.1%} between {param} = {x[0]:g} and {x[-1]:g} (grid "
                         f"{_grid_text(param, x, rates)}); widen --lo/--hi or choose a target inside that span")
    rising = {bool(rates[k + 1] > rates[k]) for k in steps if rates[k + 1] != rates[k]}
    if len(rising) > 1 and not first:
        turn = int(np.argmax(rates) if rates[steps[0] + 1] > rates[steps[0]] else np.argmin(rates))
        raise ValueError(f"the rate is not monotone in {param}: it reaches {target:.0%} on this grid "
                         f"({'peak' if rates[turn] > target else 'low'} {rates[turn]:.1%} at {x[turn]:g}) and "
                         f"crosses it {len(steps)} times (grid {_grid_text(param, x, rates)}); solve on one side: "
                         f"--lo {x[0]:g} --hi {x[turn]:g} or --lo {x[turn]:g} --hi {x[-1]:g}")
    return steps[0]


def _points_table(x, wins, n) -> pd.DataFrame:
    low, high = wilson_interval(wins, n)
    return pd.DataFrame({"value": x, "games": n, "wins": wins, "rate": wins / n, "ci_low": low, "ci_high": high})


def _grid_text(param: str, x, rates) -> str:
    return f"{param} " + ", ".join(f"{v:g}: {r:.1%}" for v, r in zip(x, rates))


def crossings(x, wins, n: int, target: float) -> list[tuple[float, float, str]]:
    """Where the rate crosses ``target`` on a grid: (last value on one side, first on the other,
    "up" or "down"). A point is on a side when its 95% Wilson interval lies wholly above or below
    the target; points whose interval holds the target are skipped, so noise near it does not
    count as crossings."""
    low, high = wilson_interval(wins, n)
    sides = [(v, 1 if lo_ > target else -1) for v, lo_, hi_ in zip(x, low, high) if lo_ > target or hi_ < target]
    return [(a, b, "up" if sb > sa else "down") for (a, sa), (b, sb) in zip(sides, sides[1:]) if sa != sb]


def _check_monotone(param: str, target: float, x, wins, n: int) -> None:
    """Refuse a grid whose rate crosses the target both ways: the response is not monotone, and a
    monotone fit would report one crossing of several."""
    found = crossings(x, wins, n, target)
    if len({d for _, _, d in found}) > 1:
        where = "; ".join(f"{d} between {a:g} and {b:g}" for a, b, d in found)
        raise ValueError(f"the win rate is not monotone in {param}: it crosses {target:.0%} {len(found)} times "
                         f"({where}; grid {_grid_text(param, x, np.asarray(wins) / n)}); narrow --lo/--hi to one "
                         "crossing")


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
        raise ValueError(f"--param {name}: not a parameter; see `shamble params --ruleset {ruleset_of(config).id}`")
    if not found[name].is_numeric:
        raise ValueError(f"--param {name}: not a numeric parameter (default {found[name].default!r}); see "
                         f"`shamble params --ruleset {ruleset_of(config).id}`")
    return found[name]


def is_integer_param(config, name: str) -> bool:
    return _numeric_axis(config, name) is not None or _parameter(config, name).is_integer


def with_param(config, name: str, value: float):
    """The config with one numeric parameter (or numeric axis) set."""
    axis = _numeric_axis(config, name)
    if axis is not None:
        if not float(value).is_integer():
            raise ValueError(f"--param {name} = {value}: a whole-number axis; allowed: an integer")
        return axis.apply(config, axis.parse(int(value), config, None, -1), -1)
    if is_integer_param(config, name):
        if not float(value).is_integer():
            raise ValueError(f"--param {name} = {value}: a whole-number parameter; allowed: an integer")
        value = int(value)
    else:
        value = float(value)
    return with_params(config, {name: value}, "--param")


def player_index(config, player: str | None) -> int | None:
    if player is None or player == "any":
        return None
    names = [p.name for p in config.players]
    if player in names:
        return names.index(player)
    if player.isdigit() and int(player) < len(names):
        return int(player)
    lowered = {n.lower(): n for n in names}
    close = get_close_matches(player.lower(), list(lowered), n=1, cutoff=0.6)
    hint = f" (did you mean {lowered[close[0]]!r}?)" if close else ""
    raise ValueError(f"--player {player!r}; allowed: any, {', '.join(names)} or 0-{len(names) - 1}{hint}")


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
    steps = distinct_steps(config, param, found, evaluate) if integer else None
    return replace(found, word=ruleset_of(config).win_word, steps=steps)


def tables_fingerprint(config) -> str:
    """A hash of the tables the kernels read: two configs with equal tables play the same games."""
    digest = hashlib.blake2b(digest_size=12)
    for array in ruleset_of(config).compile(config):
        digest.update(str(array.dtype).encode() + str(array.shape).encode())
        digest.update(np.ascontiguousarray(array).tobytes())
    return digest.hexdigest()


def distinct_steps(config, param: str, found: Solution, evaluate: Evaluate) -> pd.DataFrame:
    """For an integer parameter: the runs of values that play the same game (a budget changes a
    team only at some values) around the answer, and the rates of the two runs either side of it,
    on the last round's games."""
    first, last = max(int(np.floor(found.low)) - 1, int(found.lo)), min(int(np.ceil(found.high)) + 1, int(found.hi))
    runs: list[list[int]] = []
    previous = None
    for v in range(first, last + 1):
        key = tables_fingerprint(with_param(config, param, v))
        if key != previous:
            runs.append([v, v])
            previous = key
        else:
            runs[-1][1] = v
    k = max([i for i, (a, _) in enumerate(runs) if a <= found.value] or [0])  # the run the answer falls in
    chosen = runs[k:k + 2] if k + 1 < len(runs) else runs[max(0, k - 1):k + 1]
    n = int(found.points.games.iloc[0])
    wins = np.array([evaluate(a, n).sum() for a, _ in chosen])
    low, high = wilson_interval(wins, n)
    return pd.DataFrame({"from": [a for a, _ in chosen], "to": [b for _, b in chosen], "games": n, "wins": wins,
                         "rate": wins / n, "ci_low": low, "ci_high": high})


def render_solution(s: Solution, console) -> None:
    """The answer, its interval and the last round's grid."""
    from rich.table import Table

    whole = s.integer and not float(s.value).is_integer()
    shown = f"{s.value:.1f} (fitted between whole numbers; the values around it are below)" if whole \
        else f"{s.value:g}" if s.integer else f"{s.value:.3g}"
    clipped = " (the interval reaches the end of the search range: widen --lo/--hi)" \
        if s.low <= s.lo or s.high >= s.hi else ""
    how = s.note or f"95% interval {s.low:.3g} - {s.high:.3g}; paired bootstrap over {BOOTSTRAP} resamples"
    console.print(f"{s.param} = {shown} gives a {s.target:.0%} {s.word} rate ({how}){clipped}")
    if s.steps is not None and len(s.steps):
        runs = "; ".join(f"{r['from']}-{r['to']} play the same game: {r['rate']:.1%} ({r['ci_low']:.1%} - "
                         f"{r['ci_high']:.1%})" if r['from'] != r['to'] else
                         f"{r['from']}: {r['rate']:.1%} ({r['ci_low']:.1%} - {r['ci_high']:.1%})"
                         for r in s.steps.to_dict("records"))
        console.print(f"{s.param} is a whole number: the values around the answer that are really different: {runs}")
    table = Table(title=f"last round: {int(s.points.games.iloc[0])} games per value, the same games at every value")
    for col in (s.param, f"{s.word} rate", "95% CI"):
        table.add_column(col, justify="right")
    for row in s.points.itertuples():
        table.add_row(f"{row.value:g}", f"{row.rate:.1%}", f"{row.ci_low:.1%} - {row.ci_high:.1%}")
    console.print(table)
