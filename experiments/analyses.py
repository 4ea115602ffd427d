"""The analyses of a report section (``sim.ruleset.ReportSection.analyses``): a played sweep in,
tables, charts and one plain sentence each out, in the ruleset's words.

Each analysis is ``analyse(result, section, view)`` and appends `Table` and `Chart` records to
the section; ``view`` holds the ruleset's words (``win_word``: "escape"). The options each reads
from ``ReportSection.options`` (all optional unless said):

- ``outcomes``: ``value_label`` (the first column's title), ``charted`` (the cell labels drawn in
  the game-length and win-turn charts, default all), ``reference`` (the cell the sentence
  describes, default the first);
- ``paired``: ``reference`` (required), ``worth`` (True: reference minus cell, what a cell's
  removal costs), ``compare_label``, ``thing`` (what a cell removes, for the sentence),
  ``chart_title``;
- ``head_to_head``: ``pair`` = (a, b), both cell labels;
- ``by_value``: ``axis`` (required), ``value_label``, ``x_label``, ``chart_title``, ``unit``;
- ``matchups``: ``axes`` = (row axis, column axis), both per-player axes of seats 1 and 2;
  ``order`` (row/column labels), ``names`` (label -> shown name), ``row_label``;
- ``sensitivity``: ``enable`` (what may be switched on for a parameter to count: `experiments.
  sensitivity`), ``titles`` (what was switched on -> its title).

Every analysis may use ``titles`` (cell label -> shown title).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pandas as pd

from experiments import charts
from experiments.compare import paired_table, per_game, win_turn_curves
from experiments.sensitivity import sensitivity_table


@dataclass
class Chart:
    """A chart of the report: file stem, the matplotlib figure and its one-line explanation."""

    name: str
    figure: object
    sentence: str


@dataclass
class Table:
    """A table of the report (already formatted as text) and its one-line explanation."""

    frame: pd.DataFrame
    sentence: str


@dataclass
class View:
    """How a ruleset speaks of its results: "escape" (Zombie 40,000), "win", "survive"..."""

    win_word: str = "win"

    @property
    def rate(self) -> str:
        return f"{self.win_word} rate"


@dataclass
class Played:
    """A section being analysed: its spec, its sweep and what the page will show."""

    spec: object  # the ReportSection
    experiment: object
    view: View
    result: object = None  # the SweepResult
    tables: list[Table] = field(default_factory=list)
    figures: list[Chart] = field(default_factory=list)

    @property
    def options(self) -> dict:
        return dict(self.spec.options)

    def title(self, label: str) -> str:
        return self.options.get("titles", {}).get(label, label)

    def words(self, label: str) -> str:
        """A cell in a sentence: "the base game" for the base cell, else its title."""
        return "the base game" if label == "base" else self.title(label)

    @property
    def axis(self) -> str:
        """The results column of the experiment's first axis."""
        return f"axis_{self.experiment.axes[0].name}"


# ---------------------------------------------------------------------------- words


def pct(rate: float) -> str:
    return f"{rate:.0%}"


def points(diff: float, halfwidth: float, more: str = "more often", less: str = "less often") -> str:
    """'9 points less often (±3)': a difference of rates in percentage points, in words."""
    size = abs(diff) * 100
    if size < 0.5:
        return f"about as often (±{halfwidth * 100:.0f})"
    return f"{size:.0f} point{'s' if round(size) != 1 else ''} {more if diff > 0 else less} (±{halfwidth * 100:.0f})"


def _pc(value: float) -> str:
    return f"{value:.1%}"


def _signed(value: float) -> str:
    return f"{value * 100:+.1f}"


def rates_table(summary: pd.DataFrame, by: str, label: str, view: View) -> pd.DataFrame:
    shown = summary[[by, "name", "games", "rate", "ci_low", "ci_high"]].copy()
    shown["95% CI"] = [f"{_pc(lo)} - {_pc(hi)}" for lo, hi in zip(shown.ci_low, shown.ci_high)]
    shown["rate"] = shown.rate.map(_pc)
    return shown.drop(columns=["ci_low", "ci_high"]).rename(columns={by: label, "name": "player", "rate": view.rate})


def diff_table(table: pd.DataFrame, label: str) -> pd.DataFrame:
    """One row per label, per player the rate and the paired change with its 95% interval
    (points; * = flagged after Holm's correction)."""
    wide = pd.DataFrame({label: pd.unique(table.label)})
    for name, rows in table.groupby("name", sort=False):
        rows = rows.set_index("label").reindex(wide[label])
        wide[f"{name} rate"] = rows.rate.map(_pc).to_numpy()
        wide[f"{name} change"] = [f"{_signed(d)} ({_signed(lo)} to {_signed(hi)}){'*' if f else ''}"
                                  for d, lo, hi, f in zip(rows["diff"], rows.ci_low, rows.ci_high, rows.flagged)]
    return wide


# ---------------------------------------------------------------------------- analyses


def outcomes(s: Played) -> None:
    """Each cell's win rate per player, how games end, their length and the turn of the win."""
    res, summary, options, word = s.result.results, s.result.summary, s.options, s.view.win_word
    axis = s.axis
    reference = options.get("reference", str(summary[axis].iloc[0]))
    ref = summary[summary[axis].astype(str) == reference]
    games = per_game(res, axis)
    ref_games = games[games.label.astype(str) == reference]
    who = " and ".join(f"the {r.name} {word} in {pct(r.rate)} (±{r.halfwidth * 100:.0f})" for r in ref.itertuples())
    ends = ", ".join(f"{share:.0%} {reason}" for reason, share in ref_games.reason.value_counts(normalize=True).items())
    where = s.words(reference)
    s.tables.append(Table(rates_table(summary, axis, options.get("value_label", axis[5:]), s.view),
                          f"In {where} {who} of games; games end: {ends} (over "
                          f"{int(ref_games.turns.max())} turns at most)."))
    charted = options.get("charted") or list(pd.unique(games.label.astype(str)))
    shown = games[games.label.astype(str).isin(charted)]
    top = int(games.turns.max())
    others = "; ".join(f"under {s.title(str(label))} {rows.turns.mean():.1f}"
                       for label, rows in shown.groupby("label", sort=False) if str(label) != reference)
    s.figures.append(Chart(f"{s.spec.key}_game_length", charts.game_length(shown, "Game length"),
                           f"Games of {where} last {ref_games.turns.mean():.1f} turns on average (median "
                           f"{ref_games.turns.median():.0f}){'; ' + others if others else ''}."))
    curves = win_turn_curves(res[res[axis].astype(str).isin(charted)], axis, top)
    base = curves[curves.label.astype(str) == reference]
    half = base[base.share >= base.share.max() / 2]
    when = f"half of all wins have come by turn {int(half.turn.min())}" if base.share.max() > 0 else "nobody wins"
    s.figures.append(Chart(f"{s.spec.key}_win_turns", charts.win_curves(curves, f"{word.capitalize()}-turn curves"),
                           f"Each line is the share of games someone has won by the end of a turn; in {where} "
                           f"{when}."))


def paired(s: Played) -> None:
    """Each cell minus the reference cell on the same games, per player (Holm-corrected)."""
    options, res, word = s.options, s.result.results, s.view.win_word
    axis, reference = s.axis, options["reference"]
    labels = [v for v in pd.unique(res[axis].astype(str)) if v != reference]
    table = paired_table(res, axis, reference, labels)
    table["label"] = table.label.map(s.title)
    worth = options.get("worth", False)
    shown = table.assign(diff=-table["diff"], ci_low=-table.ci_high, ci_high=-table.ci_low) if worth else table
    big = shown.loc[(shown["diff"] if worth else shown["diff"].abs()).idxmax()]
    size = points(big["diff"], (big.ci_high - big.ci_low) / 2)
    if worth:
        sentence = (f"The {options.get('thing', 'cell')} worth most is {big.label} for the {big['name']}: with it "
                    f"they {word} {size} than without it.")
    else:
        sentence = f"Under {big.label} the {big['name']} {word} {size} (the largest change)."
    s.tables.append(Table(diff_table(table, options.get("compare_label", axis[5:])),
                          sentence + f" (Changes are in points against {s.words(reference)} on the same games, * = "
                          "significant after Holm.)"))
    title = options.get("chart_title", f"Against {s.words(reference)}")
    xlabel = (f"{s.view.rate} with it minus without it (points)" if worth
              else f"change in {s.view.rate} (points)")
    s.figures.append(Chart(f"{s.spec.key}_forest", charts.forest(shown, title, xlabel),
                           f"Each bar is a cell's change in {s.view.rate} against {s.words(reference)} on the same "
                           "games, with its 95% interval; a filled dot survives Holm's correction."
                           if not worth else f"Each bar is what a {options.get('thing', 'cell')} is worth: the "
                           f"{s.view.rate} with it minus the rate without it, on the same games."))


def head_to_head(s: Played) -> None:
    """One cell against another on the same games."""
    a, b = s.options["pair"]
    labels = set(pd.unique(s.result.results[s.axis].astype(str)))
    if a not in labels or b not in labels:
        return
    table = paired_table(s.result.results, s.axis, b, [a])
    word, ta, tb = s.view.win_word, s.title(a), s.title(b)
    words = " ".join(f"Against {tb}, {ta} lets the {r['name']} {word} {points(r['diff'], (r.ci_high - r.ci_low) / 2)}."
                     for _, r in table.iterrows())
    s.tables.append(Table(diff_table(table.assign(label=f"{ta} vs {tb}"), "head to head"), words))


def by_value(s: Played) -> None:
    """Win rate against a numeric axis."""
    options = s.options
    axis = f"axis_{options['axis']}"
    summary = s.result.summary.assign(value=pd.to_numeric(s.result.summary[axis]))
    lo, hi = summary.value.min(), summary.value.max()
    moves = "; ".join(f"the {name} from {pct(rows.rate.iloc[0])} to {pct(rows.rate.iloc[-1])}"
                      for name, rows in summary.sort_values("value").groupby("name", sort=False))
    unit = options.get("unit", f" {options.get('x_label', options['axis'])}").replace("points budget", "points")
    s.tables.append(Table(rates_table(summary, axis, options.get("value_label", options["axis"]), s.view),
                          f"Going from {lo:g} to {hi:g}{unit} moves {moves}."))
    s.figures.append(Chart(s.spec.key, charts.rate_vs_value(summary, "value", options.get(
        "chart_title", f"{s.view.rate.capitalize()} by {options['axis']}"), options.get("x_label", options["axis"]),
        s.view.rate), f"Each line is a side's {s.view.rate} at each value; the band is its 95% Wilson interval."))


def seat_balanced_matrix(summary: pd.DataFrame, row_axis: str, col_axis: str, order, names) -> pd.DataFrame:
    """Win rate of side A against side B: the mean of A in seat 1 (vs B) and A in seat 2 (vs B)."""
    one, two = f"axis_{row_axis}", f"axis_{col_axis}"
    seat1 = summary[summary.player == 0].pivot(index=one, columns=two, values="rate")
    seat2 = summary[summary.player == 1].pivot(index=two, columns=one, values="rate")
    order = [f for f in (order or seat1.index) if f in seat1.index]
    matrix = (seat1.loc[order, order] + seat2.loc[order, order]) / 2
    return matrix.rename(index=names or {}, columns=names or {})


def matchups(s: Played) -> None:
    """The row side's win rate against the column side, averaged over both seats."""
    options, word = s.options, s.view.win_word
    row_axis, col_axis = options["axes"]
    matrix = seat_balanced_matrix(s.result.summary, row_axis, col_axis, options.get("order"), options.get("names"))
    overall = matrix.mean(axis=1).sort_values(ascending=False)
    s.tables.append(Table(matrix.map(_pc).reset_index(names=options.get("row_label", "team (rows) vs opponent")),
                          f"The {overall.index[0]} {word} most often ({pct(overall.iloc[0])} averaged over "
                          f"opponents and seats), the {overall.index[-1]} least ({pct(overall.iloc[-1])})."))
    s.figures.append(Chart(s.spec.key, charts.heatmap(matrix, f"{s.view.rate.capitalize()} of the row side",
                                                       "opponent", "side"),
                           f"Each square is how often the row side {word}s against the column side, averaged "
                           "over both seats."))


def sensitivity(s: Played) -> None:
    """Every chosen number at its low and high value, ranked by the change in "anyone wins"."""
    table = sensitivity_table(s.result.results, s.experiment)
    if table.empty:
        return
    titles, word = s.options.get("titles", {}), s.view.win_word
    top = table.iloc[0]

    def under(m: str) -> str:
        return " + ".join(titles.get(x, x) for x in m.split("+")) if m else "base"

    shown = pd.DataFrame({"parameter": table.param, "under": table["mod"].map(under),
                          "default": table.default.astype(str), "low": table.low.astype(str),
                          "high": table.high.astype(str), "rate at low": table.rate_low.map(_pc),
                          "rate at high": table.rate_high.map(_pc), "high - low (points)": table["diff"].map(_signed),
                          "95% CI": [f"{_signed(a)} to {_signed(b)}" for a, b in zip(table.ci_low, table.ci_high)],
                          "Holm p": table.p_holm.map(lambda p: f"{p:.2g}")})
    where = f" under {under(top['mod'])}" if top["mod"] else ""
    s.tables.append(Table(shown, f"Of the chosen numbers, {top.param}{where} moves the chance that anyone "
                                 f"{word}s most: {pct(top.rate_low)} at {top.low} against {pct(top.rate_high)} "
                                 f"at {top.high} (±{(top.ci_high - top.ci_low) * 50:.0f} points)."))
    forest = table.assign(label=[f"{p} {lo}→{hi}" + (f" ({under(m)})" if m else "")
                                 for p, lo, hi, m in zip(table.param, table.low, table.high, table["mod"])],
                          name=f"anyone {word}s", flagged=table.p_holm < 0.05)
    s.figures.append(Chart(s.spec.key, charts.forest(forest, "Sensitivity of the chosen numbers",
                                                      "rate at high minus rate at low (points)"),
                           f"Each bar is how much the chance that anyone {word}s changes between a number's low "
                           "and high plausible value; the longest bars are the numbers worth pinning down."))


ANALYSES: dict[str, Callable[[Played], None]] = {
    "outcomes": outcomes, "paired": paired, "head_to_head": head_to_head, "by_value": by_value,
    "matchups": matchups, "sensitivity": sensitivity,
}
