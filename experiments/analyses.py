"""The analyses of a report section (``sim.ruleset.ReportSection.analyses``): a played sweep in,
tables, charts and one plain sentence each out, in the ruleset's words.

Each analysis is ``analyse(section)`` on a `Played` section and appends `Table` and `Chart`
records to it, and `Finding` records for the verdict at the head of the report. The options
each reads from ``ReportSection.options`` (all optional unless said):

- ``outcomes``: ``value_label`` (the first column's title), ``charted`` (the cell labels drawn in
  the game-length and win-turn charts, default all), ``reference`` (the cell the sentence
  describes, default the first). Also the outcome split: each cell's end reasons side by side;
- ``paired``: ``reference`` (required), ``worth`` (True: reference minus cell, what a cell's
  removal costs), ``compare_label``, ``thing`` (what a cell removes, for the sentence),
  ``chart_title``, ``who`` (a name: compare the rate that anyone wins, as one side of that name,
  instead of each seat's: a cooperative game's side); ``verdict`` = {``what``, ``cell``, ``words``}:
  one line of the verdict at the head of the report, the ``cell``'s paired change against the
  reference for the first side (``what``: the verdict's subject, "walkers"; ``words``: what the
  cell adds, "a Helbrute in the Black Legion"): "pays" when the change is positive after Holm's
  correction, "does not pay" when negative, else "not shown";
- ``head_to_head``: ``pair`` = (a, b), both cell labels;
- ``by_value``: ``axis`` (required), ``value_label``, ``x_label``, ``chart_title``, ``unit``,
  ``who`` (as for ``paired``);
- ``matchups``: ``axes`` = (row axis, column axis), both per-player axes of seats 1 and 2;
  ``order`` (row/column labels), ``names`` (label -> shown name), ``row_label``;
- ``sides``: each side's win rate pooled over the cells (``side``: the results column naming it,
  such as ``team`` or ``policy``), against the mean win rate, with an equivalence test against
  ``margin`` (default 0.03: ±3 points, as `shamble rebalance`; '20%': a share of the mean rate;
  the report's ``--margin`` overrides it); ``what`` names the sides in the verdict ("factions",
  "ways of playing"); ``strategies`` (default: ``side`` is ``policy``): the sides are ways of
  playing, and the verdict names the strongest instead of judging fairness;
- ``seats``: the win rate of each seat (player index) over every cell, with the same equivalence
  test, and each seat's share of the games one seat won alone, per player count, tested as one
  winner among k seats (`seat_table`; `matchups` adds it for two players, and `by_value` over a
  ``players`` or ``player_count`` axis, or with ``seats`` True, for each count it plays);
- ``sensitivity``: ``enable`` (what may be switched on for a parameter to count:
  `experiments.sensitivity`), ``titles`` (what was switched on -> its title), ``measure`` (the
  outcome it ranks by: ``"anyone"`` wins, the default; ``"player=K"``; ``"reason=R"``; a game
  somebody almost always wins needs one of the last two).

- ``winnable``, ``carry``, ``curve``: a cooperative game's verdict (`experiments.coop`: is the
  default scenario winnable against a target band, which army or class carries the team, is the
  difficulty curve smooth).

Every analysis may use ``titles`` (cell label -> shown title).

**Words.** Rates under 10% or over 90% get one decimal (1.4%), others none; a half-width under a
point gets one decimal; a change is signed in points with its 95% interval and, where a rate is
small, also as a relative change (-84%). A headline names a result that survives Holm's
correction, or says that none does.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from experiments import charts, coop
from experiments.compare import anyone, in_play_curves, outcome_words, paired_table, per_game, win_turn_curves
from experiments.findings import (
    MARGIN,
    Chart,
    Finding,
    Played,
    Table,
    View,
    capital,
    change_text,
    margin_points,
    margin_words,
    pct,
    points_text,
    possessive,
    rate_interval,
    rate_text,
    signed,
    the,
)
from experiments.sensitivity import sensitivity_table
from experiments.stats import TABLE_NOTE, one_winner_test, wilson_interval
from experiments.sweep import summarise_cells


def rates_table(summary: pd.DataFrame, by: str, label: str, view: View) -> pd.DataFrame:
    shown = summary[[by, "name", "games", "rate", "ci_low", "ci_high"]].copy()
    shown["95% CI"] = [f"{pct(lo)} - {pct(hi)}" for lo, hi in zip(shown.ci_low, shown.ci_high)]
    shown["rate"] = shown.rate.map(pct)
    return shown.drop(columns=["ci_low", "ci_high"]).rename(columns={by: label, "name": "player", "rate": view.rate})


def diff_table(table: pd.DataFrame, label: str, rate: str = "rate", change: str = "change") -> pd.DataFrame:
    """One row per label, per player the rate and the paired change with its 95% interval
    (points; * = flagged after Holm's correction; a cell that played the reference's games
    exactly: "no effect on play")."""
    wide = pd.DataFrame({label: pd.unique(table.label)})
    for name, rows in table.groupby("name", sort=False):
        rows = rows.set_index("label").reindex(wide[label])
        wide[f"{name} {rate}"] = rows.rate.map(pct).to_numpy()
        wide[f"{name} {change}"] = ["no effect on play" if same else
                                  f"{signed(d)} ({signed(lo)} to {signed(hi)}){'*' if f else ''}"
                                  for d, lo, hi, f, same in zip(rows["diff"], rows.ci_low, rows.ci_high, rows.flagged,
                                                                rows.no_effect)]
    if "variance_ratio" in table:
        wide["variance ratio"] = [ratio_text(rows.variance_ratio[~rows.no_effect])
                                  for _, rows in table.groupby("label", sort=False)]
    return wide


def ratio_text(ratios: pd.Series) -> str:
    """A row's variance ratios (one per player): '0.96' or '0.92-0.98'; '-' when nothing differs."""
    ratios = ratios.dropna()
    if ratios.empty:
        return "-"
    low, high = ratios.min(), ratios.max()
    return f"{low:.2f}" if f"{low:.2f}" == f"{high:.2f}" else f"{low:.2f}-{high:.2f}"


# ---------------------------------------------------------------------------- outcomes


def outcome_split(games: pd.DataFrame) -> pd.DataFrame:
    """Share of each cell's games per end reason (columns in order of frequency overall)."""
    split = pd.crosstab(games.label, games.reason, normalize="index").rename_axis(columns=None)  # no 'reason' row
    order = games.reason.value_counts().index
    return split[order].reindex(pd.unique(games.label))


def outcomes(s: Played) -> None:
    """Each cell's win rate per player (or of the one side ``who``), how its games end, their length
    and the turn of the win."""
    res, options, word = s.result.results, s.options, s.view.win_word
    summary = summarise_cells(_results(s)) if options.get("who") else s.result.summary
    axis = s.axis
    reference = options.get("reference", str(summary[axis].iloc[0]))
    ref = summary[summary[axis].astype(str) == reference]
    games = per_game(res, axis)
    games["label"] = games.label.astype(str)
    ref_games = games[games.label == reference]
    who = ", ".join(f"{the(r.name)} {rate_interval(r.rate, r.ci_low, r.ci_high)}" for r in ref.itertuples())
    where = s.words(reference)
    s.tables.append(Table(rates_table(summary, axis, options.get("value_label", axis[5:]), s.view),
                          f"In {where} the {s.view.rate}s are: {who}."))
    split = outcome_split(games)
    shown = split.map(pct).rename(index=s.title).reset_index(names=options.get("value_label", axis[5:]))
    s.tables.append(Table(shown, _split_sentence(split, s)))
    charted = options.get("charted") or list(pd.unique(games.label))
    chart_games = games[games.label.isin(charted)]
    top = int(games.turns.max())
    others = "; ".join(f"under {s.title(label)} {rows.turns.mean():.1f}"
                       for label, rows in list(chart_games.groupby("label", sort=False))[:5] if label != reference)
    s.figures.append(Chart(f"{s.spec.key}_game_length", charts.game_length(chart_games, "Game length"),
                           f"Games of {where} last {ref_games.turns.mean():.1f} turns on average (median "
                           f"{ref_games.turns.median():.0f}){'; ' + others if others else ''}."))
    won_on = pd.unique(games.turns[games.won])
    if len(won_on) == 1:  # every win on one turn: its curve is a single step; show the games still in play
        _in_play(s, res[res[axis].astype(str).isin(charted)], axis, top, int(won_on[0]), where, reference)
        return
    curves = win_turn_curves(res[res[axis].astype(str).isin(charted)], axis, top)
    base = curves[curves.label.astype(str) == reference]
    half = base[base.share >= base.share.max() / 2]
    when = f"half of all wins have come by turn {int(half.turn.min())}" if base.share.max() > 0 else "nobody wins"
    s.figures.append(Chart(f"{s.spec.key}_win_turns", charts.win_curves(curves, f"{word.capitalize()}-turn curves"),
                           f"Each line is the share of games someone has won by the end of a turn; in {where} "
                           f"{when}."))


def _in_play(s: Played, res: pd.DataFrame, axis: str, top: int, turn: int, where: str, reference: str) -> None:
    """The chart of games still in play by turn, for a game whose every win comes on one turn."""
    curves = in_play_curves(res, axis, top)
    base = curves[curves.label.astype(str) == reference]
    before = float(base[base.turn == turn - 1].share.iloc[0]) if turn > 1 and len(base) else 1.0
    s.figures.append(Chart(f"{s.spec.key}_in_play", charts.win_curves(curves, "Games still in play by turn",
                                                                        "games still in play"),
                           f"Every {s.view.win_word} comes on turn {turn}, so a win-turn curve would be one step; "
                           f"each line is instead the share of games still in play (not yet lost) at the end of "
                           f"a turn: in {where} {pct(before)} reach turn {turn}."))


def _split_sentence(split: pd.DataFrame, s: Played) -> str:
    """The most striking end of games: the largest share of a reason that is not the usual win."""
    usual = split.columns[0]
    others = split.drop(columns=[usual]) if split.shape[1] > 1 else split
    label, reason = others.stack().idxmax()
    return (f"How games end, cell by cell: games of {s.words(label)} end in {reason} {pct(split.loc[label, reason])} "
            f"of the time, the largest share of any end in any cell apart from {usual} (the most common end over "
            f"all cells; {pct(split.loc[label, usual])} of these games).")


# ---------------------------------------------------------------------------- paired comparisons


def _headline(table: pd.DataFrame, worth: bool, s: Played) -> str:
    """The largest significant change, or a sentence saying that none is significant."""
    word = s.view.win_word
    tested = table[~table.no_effect]
    if tested.empty:
        return "No cell changes a single game."
    key = tested["diff"] if worth else tested["diff"].abs()
    significant = tested[tested.flagged]
    if significant.empty:
        big = tested.loc[key.idxmax()]
        return (f"No change is significant after Holm's correction; the largest estimate is {big.label} for "
                f"{the(big['name'])} ({signed(big['diff'])} points, 95% CI {signed(big.ci_low)} to "
                f"{signed(big.ci_high)}).")
    big = significant.loc[key[significant.index].idxmax()]
    if worth:
        return (f"The {s.options.get('thing', 'cell')} worth most is {big.label} for {the(big['name'])}: with it they "
                f"{word} in {rate_text(big.reference_rate)} of games, without it in {rate_text(big.rate)} "
                f"({signed(big['diff'])} points, 95% CI {signed(big.ci_low)} to {signed(big.ci_high)}).")
    change = change_text(big.reference_rate, big.rate, big.ci_low, big.ci_high)
    return f"Under {big.label} {the(big['name'])} {word} {change}."


def _results(s: Played) -> pd.DataFrame:
    """The section's rows: per seat, or one side that wins when anyone does (option ``who``)."""
    who = s.options.get("who")
    return anyone(s.result.results, who) if who else s.result.results


def paired(s: Played) -> None:
    """Each cell minus the reference cell on the same games, per player (Holm-corrected)."""
    options, res = s.options, _results(s)
    axis, reference = s.axis, options["reference"]
    labels = [v for v in pd.unique(res[axis].astype(str)) if v != reference]
    table = paired_table(res, axis, reference, labels)
    s.ratios += table.variance_ratio[~table.no_effect].dropna().tolist()
    table["label"] = table.label.map(s.title)
    worth = options.get("worth", False)
    shown = table.assign(diff=-table["diff"], ci_low=-table.ci_high, ci_high=-table.ci_low) if worth else table
    same = sorted(set(table.label[table.no_effect]))
    note = (f" {', '.join(same)}: no effect on play (every game as in {s.words(reference)}; left out of Holm's "
            "family).") if same else ""
    twins = table[~table.no_effect & table.same_as.notna()].drop_duplicates("label")
    note += "".join(f" {r.label} plays the same games as {s.title(r.same_as)} (counted once in Holm's family)."
                    for r in twins.itertuples())
    label = options.get("compare_label", axis[5:])
    if worth:  # one sign convention, the chart's: the rate with it minus the rate without it
        frame = diff_table(shown, label, f"{s.view.win_word} rate without it", "worth")
        how = (f" (Worth: the {s.view.rate} with it minus without it, in points, on the same games.) "
               f"{TABLE_NOTE}{note}")
    else:
        frame = diff_table(table, label)
        how = f" (Changes are in points against {s.words(reference)} on the same games.) {TABLE_NOTE}{note}"
    s.tables.append(Table(frame, _headline(shown, worth, s) + how))
    if "verdict" in options:
        s.findings.append(_worth_verdict(table, options["verdict"], s))
    title = options.get("chart_title", f"Against {s.words(reference)}")
    xlabel = (f"{s.view.rate} with it minus without it (points)" if worth
              else f"change in {s.view.rate} (points)")
    s.figures.append(Chart(f"{s.spec.key}_forest", charts.forest(shown[~shown.no_effect], title, xlabel),
                           f"Each bar is a cell's change in {s.view.rate} against {s.words(reference)} on the same "
                           "games, with its 95% interval; a filled dot survives Holm's correction."
                           if not worth else f"Each bar is what a {options.get('thing', 'cell')} is worth: the "
                           f"{s.view.rate} with it minus the rate without it, on the same games."))


def _worth_verdict(table: pd.DataFrame, verdict: dict, s: Played) -> Finding:
    """Does what a cell adds pay for its points? Its paired change against the reference (option
    ``paired.verdict``), for the first side."""
    what, cell = verdict["what"], s.title(verdict["cell"])
    rows = table[table.label == cell]
    if rows.empty or rows.no_effect.iloc[0]:
        return Finding(what, None, f"{capital(what)}: not shown: {verdict['words']} changes no game.", kind="worth",
                       word="not shown")
    r = rows.iloc[0]
    word = ("pays" if r["diff"] > 0 else "does not pay") if r.flagged else "not shown"
    change = change_text(r.reference_rate, r.rate, r.ci_low, r.ci_high)
    how = "" if r.flagged else " (not significant after Holm's correction)"
    return Finding(what, None, f"{capital(what)}: {word}: with {verdict['words']} {the(r['name'])} "
                   f"{s.view.win_word} {change}{how}, against the same points without it on the same {r.games} "
                   "games.", kind="worth", word=word)


def head_to_head(s: Played) -> None:
    """One cell against another on the same games."""
    a, b = s.options["pair"]
    labels = set(pd.unique(s.result.results[s.axis].astype(str)))
    if a not in labels or b not in labels:
        return
    table = paired_table(s.result.results, s.axis, b, [a])
    word, ta, tb = s.view.win_word, s.title(a), s.title(b)
    words = " ".join(f"Against {tb}, {ta} takes {possessive(the(r['name']))} {word} rate "
                     f"{change_text(r.reference_rate, r.rate, r.ci_low, r.ci_high)}"
                     f"{'' if r.flagged else ' (not significant after Holm)'}." for _, r in table.iterrows()) \
        + " " + TABLE_NOTE
    s.tables.append(Table(diff_table(table.assign(label=f"{ta} vs {tb}"), "head to head"), words))


# ---------------------------------------------------------------------------- values and sides


def by_value(s: Played) -> None:
    """Win rate against a numeric axis."""
    options = s.options
    axis = f"axis_{options['axis']}"
    summary = summarise_cells(_results(s)) if options.get("who") else s.result.summary
    summary = summary.assign(value=pd.to_numeric(summary[axis]))
    lo, hi = summary.value.min(), summary.value.max()
    unit = options.get("unit", f" {options.get('x_label', options['axis'])}")
    moves = "; ".join(_moves(name, rows, lo, hi, unit)
                      for name, rows in summary.sort_values("value").groupby("name", sort=False))
    s.tables.append(Table(rates_table(summary, axis, options.get("value_label", options["axis"]), s.view),
                          f"Going from {lo:g} to {hi:g}{unit} moves {moves}."))
    if options.get("seats", options["axis"] in ("players", "player_count")) and not options.get("who"):
        s.tables.append(seat_table(s.result.results, s))  # seat advantage at every player count played
    s.figures.append(Chart(s.spec.key, charts.rate_vs_value(summary, "value", options.get(
        "chart_title", f"{s.view.rate.capitalize()} by {options['axis']}"), options.get("x_label", options["axis"]),
        s.view.rate), f"Each line is a side's {s.view.rate} at each value; the band is its 95% Wilson interval."))


def _moves(name: str, rows: pd.DataFrame, lo: float, hi: float, unit: str) -> str:
    """'the Cat from 34% at 3 to 17% at 6': a side's rate at the first and last value it plays
    (named when it does not play the whole range), and a peak or trough between them that both
    ends' intervals leave out ('peaking at 24% at 75')."""
    first, last = rows.iloc[0], rows.iloc[-1]
    text = f"{the(name)} from {rate_text(first.rate)} to {rate_text(last.rate)}"
    if len(rows) == 1:
        return f"{the(name)} {rate_text(first.rate)} at {first.value:g}{unit} (the only value it plays)"
    if first.value != lo or last.value != hi:
        text = (f"{the(name)} from {rate_text(first.rate)} at {first.value:g} to {rate_text(last.rate)} at "
                f"{last.value:g}{unit} (it plays only those)")
    inner = rows.iloc[1:-1]
    if len(inner):
        top, bottom = inner.loc[inner.rate.idxmax()], inner.loc[inner.rate.idxmin()]
        if top.ci_low > max(first.ci_high, last.ci_high):
            text += f", peaking at {rate_text(top.rate)} at {top.value:g}"
        elif bottom.ci_high < min(first.ci_low, last.ci_low):
            text += f", down to {rate_text(bottom.rate)} at {bottom.value:g}"
    return text


def equivalence(rates: pd.Series, wins: pd.Series, games: pd.Series, margin: float) -> pd.DataFrame:
    """Each side's rate against the mean of the sides, with two one-sided tests against ``margin``:
    ``equivalent`` when its 90% interval of the deviation lies inside ±margin (TOST at 5%),
    ``outside`` when its 95% interval lies wholly beyond it. The mean is taken as known (it pools
    every side)."""
    mean = float(rates.mean())
    spec, margin = margin, margin_points(margin, mean)
    low90, high90 = wilson_interval(wins, games, confidence=0.90)
    low95, high95 = wilson_interval(wins, games)
    out = pd.DataFrame({"rate": rates, "deviation": rates - mean, "low95": low95, "high95": high95,
                        "equivalent": (low90 - mean > -margin) & (high90 - mean < margin),
                        "outside": (low95 - mean > margin) | (high95 - mean < -margin)})
    out.attrs["mean"], out.attrs["margin"] = mean, spec
    return out


def _verdict_of(eq: pd.DataFrame, what: str, margin: float, word: str) -> Finding:
    mean = eq.attrs["mean"]
    worst = eq.deviation.abs().idxmax()
    row = eq.loc[worst]
    limits = margin_words(margin, mean, word)
    if bool(eq.outside.any()):
        out = eq[eq.outside]
        side = out.deviation.abs().idxmax()
        r = out.loc[side]
        return Finding(what, False, f"{what.capitalize()}: not fair. {side}: {word} rate {rate_text(r.rate)} "
                       f"({pct(r.low95)}-{pct(r.high95)}), outside {limits}.")
    if bool(eq.equivalent.all()):
        return Finding(what, True, f"{what.capitalize()}: fair within {limits}: every one is shown within it "
                       f"(two one-sided tests at 5%; the farthest, {worst}, {signed(row.deviation)} points).")
    unsure = eq[~eq.equivalent].deviation.abs().idxmax()
    return Finding(what, None, f"{what.capitalize()}: not shown fair within {limits}: {possessive(unsure)} interval "
                   f"({pct(eq.loc[unsure].low95)}-{pct(eq.loc[unsure].high95)}) reaches past it; more games would "
                   "tell.")


def sides(s: Played) -> None:
    """Each side's win rate over every cell and seat, against the mean, with an equivalence test."""
    res, options, word = s.result.results, s.options, s.view.win_word
    margin = s.margin if s.margin is not None else options.get("margin", MARGIN)
    grouped = res.assign(side=res[options.get("side", "team")].astype(str).map(s.title)).groupby("side") \
        .won.agg(["sum", "size"])
    rates = grouped["sum"] / grouped["size"]
    eq = equivalence(rates, grouped["sum"], grouped["size"], margin).sort_values("rate", ascending=False)
    what = options.get("what", "sides")
    shown = pd.DataFrame({"side": eq.index, "games": grouped["size"].reindex(eq.index).to_numpy(),
                          s.view.rate: eq.rate.map(pct).to_numpy(),
                          "95% CI": [f"{pct(a)} - {pct(b)}" for a, b in zip(eq.low95, eq.high95)],
                          "vs mean (points)": eq.deviation.map(signed).to_numpy(),
                          f"within {margin_words(margin, eq.attrs['mean']).split(' of ')[0]}":
                              np.where(eq.equivalent, "yes", np.where(eq.outside, "no", "not shown")).tolist()})
    strategies = options.get("strategies", options.get("side") == "policy")
    finding = _strongest(eq, what, word) if strategies else _verdict_of(eq, what, margin, word)
    s.findings.append(finding)
    s.tables.append(Table(shown, finding.sentence))


def _strongest(eq: pd.DataFrame, what: str, word: str) -> Finding:
    """Ways of playing are a player's choice: the verdict names the strongest (and the weakest)
    against the mean of the ways, apart from the fairness of factions and seats."""
    best, worst = eq.rate.idxmax(), eq.rate.idxmin()
    b, w = eq.loc[best], eq.loc[worst]
    apart = "; a stronger way to play is not an unfairness of the game (factions and seats are judged apart)."
    if b.low95 <= eq.attrs["mean"] and w.high95 >= eq.attrs["mean"]:
        return Finding(what, None, f"{capital(what)}: no way is shown stronger or weaker than their mean "
                       f"({rate_text(eq.attrs['mean'])}); {best} is highest at {rate_text(b.rate)} "
                       f"({pct(b.low95)}-{pct(b.high95)}){apart}", kind="strength")
    return Finding(what, None, f"{capital(what)}: {best} is the strongest way to play ({signed(b.deviation)} points "
                   f"over the mean of the ways, {word} rate {rate_text(b.rate)}, {pct(b.low95)}-{pct(b.high95)}); "
                   f"{worst} the weakest ({signed(w.deviation)} points, {rate_text(w.rate)}){apart}",
                   kind="strength")


def one_winner_games(res: pd.DataFrame) -> pd.DataFrame:
    """One row per game (cell, game): how many seats played it, how many won, and the seat that
    won when one seat won alone (-1 otherwise)."""
    games = res.groupby(["cell", "game"], sort=False).agg(players=("player", "size"), winners=("won", "sum"))
    alone = res[res.won].groupby(["cell", "game"], sort=False).player.first()
    games["seat"] = alone.reindex(games.index).where(games.winners == 1, -1).fillna(-1).astype(int)
    return games.reset_index()


def seat_shares(res: pd.DataFrame) -> list[dict]:
    """Per player count: each seat's share of the games one seat won alone, with the test of one
    winner among k seats (`experiments.stats.one_winner_test`)."""
    out = []
    for k, games in one_winner_games(res).groupby("players"):
        alone = games[games.seat >= 0]
        counts = np.bincount(alone.seat, minlength=int(k))[: int(k)]
        out.append({"players": int(k), "games": len(games), "alone": len(alone), "counts": counts,
                    "p": one_winner_test(counts)})
    return out


def seat_sentence(found: dict) -> str:
    """'With 2 players, seat 1 takes 48.4% (47.5%-49.3%) of the 11,520 games one seat won alone
    (exact binomial test of equal seats: p = 0.004)'."""
    k, n, counts = found["players"], found["alone"], found["counts"]
    if n == 0:
        return f"With {k} players no game had one winner alone, so no seat test."
    if k == 2:
        low, high = wilson_interval(counts[0], n)
        return (f"With 2 players, seat 1 takes {pct(counts[0] / n)} ({pct(float(low))}-{pct(float(high))}) of the "
                f"{n:,} games one seat won alone (exact binomial test of equal seats: p = {found['p']:.2g}).")
    best, worst = int(np.argmax(counts)), int(np.argmin(counts))
    return (f"With {k} players, of the {n:,} games one seat won alone, seat {best + 1} took "
            f"{pct(counts[best] / n)} and seat {worst + 1} {pct(counts[worst] / n)} against {pct(1 / k)} each "
            f"for equal seats (goodness of fit of one winner among {k} seats: p = {found['p']:.2g}).")


def seat_table(res: pd.DataFrame, s: Played) -> Table:
    """Each seat's rate and its share of the one-winner games, for every player count played."""
    found = seat_shares(res)
    counted = res.assign(k=res.groupby(["cell", "game"]).player.transform("size"))
    rows = []
    for f in found:
        of = counted[counted.k == f["players"]].groupby("player").won.agg(["sum", "size"])
        low, high = wilson_interval(of["sum"], of["size"])
        for seat, (wins, games), lo, hi in zip(of.index, of.itertuples(index=False), low, high):
            rows.append({"players": f["players"], "seat": f"seat {seat + 1}", s.view.rate: pct(wins / games),
                         "95% CI": f"{pct(lo)} - {pct(hi)}",
                         "share of one-winner games": pct(f["counts"][seat] / f["alone"]) if f["alone"] else "-"})
    return Table(pd.DataFrame(rows), "Seat advantage: " + " ".join(seat_sentence(f) for f in found))


def seats(s: Played) -> None:
    """Each seat's win rate over every cell (a seat is a player's place in the config's order), and
    the seats' shares of the games one seat won alone, tested as one winner among k seats."""
    res, options, word = s.result.results, s.options, s.view.win_word
    margin = s.margin if s.margin is not None else options.get("margin", MARGIN)
    grouped = res.groupby("player").won.agg(["sum", "size"])
    rates = grouped["sum"] / grouped["size"]
    eq = equivalence(rates, grouped["sum"], grouped["size"], margin)
    eq.index = [f"seat {p + 1}" for p in eq.index]
    finding = _verdict_of(eq, "seats", margin, word)
    s.findings.append(finding)
    table = seat_table(res, s)
    gap = eq.rate.max() - eq.rate.min()
    s.tables.append(Table(table.frame, f"{table.sentence} The best seat {word}s {gap * 100:.1f} points more often "
                          f"than the worst. {finding.sentence}"))


def seat_balanced_matrix(summary: pd.DataFrame, row_axis: str, col_axis: str, order, names,
                         value: str = "rate") -> pd.DataFrame:
    """Side A against side B: the mean of A in seat 1 (vs B) and A in seat 2 (vs B)."""
    one, two = f"axis_{row_axis}", f"axis_{col_axis}"
    seat1 = summary[summary.player == 0].pivot(index=one, columns=two, values=value)
    seat2 = summary[summary.player == 1].pivot(index=two, columns=one, values=value)
    order = [f for f in (order or seat1.index) if f in seat1.index]
    matrix = (seat1.loc[order, order] + seat2.loc[order, order]) / 2
    return matrix.rename(index=names or {}, columns=names or {})


def matchups(s: Played) -> None:
    """The row side's win rate against the column side, averaged over both seats, with intervals,
    and the share of decisive games (games anyone won) of each pairing."""
    options, word = s.options, s.view.win_word
    row_axis, col_axis = options["axes"]
    summary = s.result.summary.assign(hw2=s.result.summary.halfwidth ** 2)
    args = (row_axis, col_axis, options.get("order"), options.get("names"))
    matrix = seat_balanced_matrix(summary, *args)
    halfwidth = np.sqrt(seat_balanced_matrix(summary, *args, value="hw2") * 2) / 2  # of a mean of two rates
    decided = s.result.results.groupby("cell").won.sum() / s.result.results.groupby("cell").game.nunique()
    summary["decisive"] = summary.cell.map(decided)
    decisive = seat_balanced_matrix(summary, *args, value="decisive")
    overall = matrix.mean(axis=1).sort_values(ascending=False)
    cells = matrix.map(pct) + " (" + halfwidth.map(points_text) + ")"
    most, least = overall.index[0], overall.index[-1]
    s.tables.append(Table(cells.reset_index(names=options.get("row_label", "team (rows) vs opponent")),
                          f"{capital(the(most))} {word} most often ({rate_text(overall.iloc[0])} averaged over "
                          f"opponents and seats), {the(least)} least ({rate_text(overall.iloc[-1])}); "
                          "each cell with its 95% half-width in points."))
    s.tables.append(seat_table(s.result.results, s))  # the seat advantage the seat-averaged matrix hides
    s.tables.append(Table(decisive.map(pct).reset_index(names="share of decisive games"),
                          f"Share of games somebody wins, per pairing: from {rate_text(float(decisive.min().min()))} "
                          f"to {rate_text(float(decisive.max().max()))}; the rest end without a winner."))
    s.figures.append(Chart(s.spec.key, charts.heatmap(matrix, f"{s.view.rate.capitalize()} of the row side",
                                                       "opponent", "side", halfwidth),
                           f"Each square is how often the row side {word}s against the column side, averaged "
                           "over both seats, with its 95% half-width in points."))


# ---------------------------------------------------------------------------- sensitivity


def shown_value(s: Played, name: str, value) -> str:
    """A parameter's value as `shamble params` shows it ('auto' where 0 means worked out)."""
    from sim.ruleset import ruleset_of, value_word

    found = {p.name: p for p in ruleset_of(s.experiment.base).parameters()}
    return value_word(found[name], value) if name in found else str(value)


def sensitivity(s: Played) -> None:
    """Every chosen number at its low, default and high value, ranked by the largest change from
    the default over its plausible range."""
    measure = s.options.get("measure", "anyone")
    table = sensitivity_table(s.result.results, s.experiment, measure=measure)
    idle = table.param[~table.exercised].tolist() if not table.empty else []
    table = table[table.exercised].reset_index(drop=True) if not table.empty else table
    unread = (f" Not exercised by this config (every game identical at the number's low, default and high value, "
              f"so not ranked): {', '.join(idle)}.") if idle else ""
    if table.empty:
        if idle:
            s.tables.append(Table(pd.DataFrame({"parameter": idle, "effect": "not exercised by this config"}),
                                  unread.strip()))
        return
    s.ratios += table.variance_ratio.dropna().tolist()
    titles, word = s.options.get("titles", {}), s.view.win_word
    what = outcome_words(measure, word)
    top = table.iloc[0]

    def under(m: str) -> str:
        return " + ".join(titles.get(x, x) for x in m.split("+")) if m else "base"

    shown = pd.DataFrame({
        "rank": [f"{r} ({lo}-{hi})" for r, lo, hi in zip(table["rank"], table.rank_low, table.rank_high)],
        "parameter": table.param, "under": table["mod"].map(under),
        **{column: [shown_value(s, p, v) for p, v in zip(table.param, table[column])]
           for column in ("default", "low", "high")}, "rate at low": table.rate_low.map(pct),
        "rate at default": table.rate_default.map(pct), "rate at high": table.rate_high.map(pct),
        "effect (points)": table.effect.map(signed),
        "95% CI": [f"{signed(a)} to {signed(b)}" for a, b in zip(table.effect_low, table.effect_high)],
        "Holm p": table.p_holm.map(lambda p: f"{p:.2g}"), "variance ratio": table.variance_ratio.map(
            lambda r: "-" if pd.isna(r) else f"{r:.2f}")})
    where = f" under {under(top['mod'])}" if top["mod"] else ""
    s.tables.append(Table(shown, f"Of the chosen numbers, {top.param}{where} matters most: the chance that {what} "
                                 f"goes from {rate_text(top.rate_default)} at its default "
                                 f"{shown_value(s, top.param, top.default)} to "
                                 f"{rate_text(top.rate_at_extreme)} at {shown_value(s, top.param, top.extreme)} "
                                 f"({signed(top.effect)} points, "
                                 f"95% CI {signed(top.effect_low)} to {signed(top.effect_high)}). Numbers are ranked "
                                 "by the largest change from the default across their plausible range; the rank's 95% "
                                 "interval is in brackets (a bootstrap over games). " + TABLE_NOTE + unread))
    forest = table.assign(label=[f"{p} {shown_value(s, p, d)}→{shown_value(s, p, x)}" + (f" ({under(m)})" if m else "")
                                 for p, d, x, m in zip(table.param, table.default, table.extreme, table["mod"])],
                          name=what, flagged=table.p_holm < 0.05, diff=table.effect,
                          ci_low=table.effect_low, ci_high=table.effect_high)
    s.figures.append(Chart(s.spec.key, charts.forest(forest, "Sensitivity of the chosen numbers",
                                                      "largest change from the default (points)"),
                           f"Each bar is how much the chance that {what} moves when a number goes from its "
                           "default to the farther end of its plausible range; the longest bars are the numbers worth "
                           "pinning down."))


def _cooperative(name: str) -> Callable[[Played], None]:
    """A cooperative game's verdict (`experiments.coop`)."""
    def analyse(s: Played) -> None:
        getattr(coop, name)(s)
    analyse.__name__ = name
    return analyse


ANALYSES: dict[str, Callable[[Played], None]] = {
    "outcomes": outcomes, "paired": paired, "head_to_head": head_to_head, "by_value": by_value,
    "matchups": matchups, "sides": sides, "seats": seats, "sensitivity": sensitivity,
    **{name: _cooperative(name) for name in ("winnable", "carry", "curve")},
}
