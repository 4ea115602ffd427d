"""The verdict of a cooperative game (issue 29, item 12): the players win or lose together, so
fairness between seats says little; a designer asks instead

- **is the scenario winnable** at the spec's default (``winnable``): the side's rate in one cell
  against a target band (``--band``, default 30-70%), judged on the cell's 95% Wilson interval:
  *inside the band* when the interval lies within it, *too hard* below it, *too easy* above it,
  *undecided* when the interval straddles an edge;
- **who carries the team** (``carry``): per army or class, a share (an army's Warlord aboard at the
  extraction in the games won; a class's men alive at the end) and the zombies it kills, each
  leader tested against every other side on the same games (`stats.paired_mean_difference`,
  Holm-corrected over the other sides);
- **is the difficulty curve smooth** (``curve``): over a value axis (points, players, posse size),
  each step between neighbouring values on the same games with simultaneous 95% intervals
  (Bonferroni over the steps, Tango's interval): *not smooth* when a step is shown against the
  curve's direction (a reversal) or shown beyond ``--jump`` (default 20 points: a cliff between
  neighbouring grid points), *smooth* when every step is shown within ±jump and none is shown
  reversed, and *not shown smooth* otherwise; the step that breaks it is named.

Options (a section's ``options``):

- ``winnable``: ``cell`` (the label of the spec's default cell; required), ``at`` (the words of
  that cell: "the spec's 400 points, four players");
- ``carry``: ``by`` (the results column naming the side: ``army``, ``class``; required),
  ``cell`` (required), ``share`` (a 0/1 results column), ``share_words`` (what the share says:
  "Warlord aboard at the extraction"), ``given_win`` (count the share in the games won only),
  ``kills`` (a per-player count column), ``what`` ("army", "class"), ``at`` (the cell in words);
- ``curve``: ``axis`` (required), ``over`` (the curve in words), ``unit`` (" points").
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from experiments.compare import anyone
from experiments.findings import (
    Finding,
    Played,
    Table,
    capital,
    pct,
    possessive,
    rate_text,
    signed,
    the,
)
from experiments.stats import holm, paired_difference, paired_mean_difference, wilson_interval

BAND = (0.3, 0.7)  # the target band of a winnable scenario: the side wins 30-70% of its games
JUMP = 0.2  # the largest step between neighbouring grid points of a smooth curve: 20 points of rate
ALPHA = 0.05


def parse_band(value) -> tuple[float, float]:
    """``--band``: two rates 'lo,hi' with 0 <= lo < hi <= 1 ('0.3,0.7')."""
    try:
        low, high = (float(v) for v in str(value).replace(" ", "").split(","))
        if 0 <= low < high <= 1:
            return low, high
    except ValueError:
        pass
    raise ValueError(f"--band {value!r}; allowed: two rates lo,hi with 0 <= lo < hi <= 1 (0.3,0.7 = 30-70%)")


def parse_jump(value) -> float:
    """``--jump``: the largest smooth step in points of rate, above 0 and at most 1 (0.2 = 20 points)."""
    try:
        jump = float(value)
        if 0 < jump <= 1:
            return jump
    except ValueError:
        pass
    raise ValueError(f"--jump {value!r}; allowed: points of rate above 0 and at most 1 (0.2 = 20 points)")


def band_words(band: tuple[float, float]) -> str:
    return f"{band[0] * 100:g}-{band[1] * 100:g}%"


# ---------------------------------------------------------------------------- winnable


def band_verdict(low: float, high: float, band: tuple[float, float]) -> str:
    """'inside the band', 'too hard', 'too easy' or 'undecided' for a rate's 95% interval."""
    if high < band[0]:
        return "too hard"
    if low > band[1]:
        return "too easy"
    if band[0] <= low and high <= band[1]:
        return "inside the band"
    return "undecided"


WHY = {"too hard": "its whole 95% interval lies below the band", "too easy": "its whole 95% interval lies above "
       "the band", "inside the band": "its whole 95% interval lies inside the band",
       "undecided": "its 95% interval straddles an edge of the band; more games would tell"}


def side_games(s: Played, cell: str | None = None) -> pd.DataFrame:
    """One row per (cell, game): did the side win (anyone did)? Only ``cell``'s rows if given."""
    games = anyone(s.result.results)
    return games if cell is None else games[games[s.axis].astype(str) == str(cell)]


def winnable(s: Played) -> None:
    """The side's rate in the spec's default cell against the target band."""
    options, band = s.options["winnable"], s.band or s.options.get("band", BAND)
    games = side_games(s, options["cell"])
    wins, n = int(games.won.sum()), len(games)
    low, high = (float(x) for x in wilson_interval(wins, n))
    verdict = band_verdict(low, high, band)
    at = options.get("at", f"{options['cell']}")
    rate = wins / n if n else 0.0
    sentence = (f"Winnable at {at}: {verdict}. {capital(possessive(_who(s)))} {s.view.rate} is {pct(rate)} "
                f"({pct(low)}-{pct(high)}) over {n:,} games, against a target band of {band_words(band)} (--band): "
                f"{WHY[verdict]}.{_where_inside(s, band)}")
    s.findings.append(Finding("winnable", None, sentence, kind="winnable", word=verdict))
    s.tables.append(Table(pd.DataFrame({"at": [at], "games": [n], s.view.rate: [pct(rate)],
                                        "95% CI": [f"{pct(low)} - {pct(high)}"], "band": [band_words(band)],
                                        "verdict": [verdict]}), sentence))


def _where_inside(s: Played, band: tuple[float, float]) -> str:
    """' Of this section's cells, 1200 points lies inside the band (34%).': the cells whose whole
    interval lies in the band, or that none does."""
    games = side_games(s)
    cells = games.groupby(games[s.axis].astype(str), sort=False).won.agg(["sum", "size"])
    low, high = wilson_interval(cells["sum"], cells["size"])
    unit = s.options.get("unit", "")
    inside = [f"{label}{_unit(unit, label)} ({pct(k / m)})"
              for (label, (k, m)), lo, hi in zip(cells.iterrows(), low, high)
              if band_verdict(lo, hi, band) == "inside the band"]
    if not inside:
        return f" No cell of this section ({', '.join(cells.index)}{unit}) lies inside the band."
    return f" Of this section's cells, inside the band: {', '.join(inside)}."


def _who(s: Played) -> str:
    who = s.options.get("who")
    return the(who) if who else "the players"


# ---------------------------------------------------------------------------- who carries the team


def per_game_sides(rows: pd.DataFrame, by: str, column: str) -> pd.DataFrame:
    """float[game, side]: each side's mean of ``column`` in each game (a class of several men: their
    share or their mean)."""
    return rows.groupby(["game", by], sort=False)[column].mean().unstack(by).sort_index()


def leader_tests(table: pd.DataFrame) -> tuple[str, pd.DataFrame]:
    """The side with the highest mean and each other side's difference from it on the same games
    (games where both played), Holm-corrected: columns diff, low, high, p_holm, behind."""
    means = table.mean()
    leader = str(means.idxmax())
    rows = []
    for side in table.columns:
        if str(side) == leader:
            continue
        both = table[[leader, side]].dropna()
        d = paired_mean_difference(both[leader], both[side])
        rows.append({"side": str(side), "diff": d.diff, "low": d.low, "high": d.high, "p": d.p_value})
    tests = pd.DataFrame(rows, columns=["side", "diff", "low", "high", "p"]).set_index("side")
    tests["p_holm"] = holm(tests.p) if len(tests) else []
    tests["behind"] = (tests.p_holm < ALPHA) & (tests["diff"] > 0)
    return leader, tests


def carry(s: Played) -> None:
    """Which army or class carries the team: its share and its kills, each leader tested against
    every other side."""
    o = s.options["carry"]
    res = s.result.results
    rows = res[res[s.axis].astype(str) == str(o["cell"])]
    won = rows.groupby("game").won.any()
    shared = rows[rows.game.map(won)] if o.get("given_win") else rows
    shares = per_game_sides(shared, o["by"], o["share"]).astype(float).rename(columns=lambda c: capital(str(c)))
    kills = per_game_sides(rows, o["by"], o["kills"]).astype(float).rename(columns=lambda c: capital(str(c)))
    what, at = o.get("what", o["by"]), o.get("at", str(o["cell"]))
    if shares.empty:
        sentence = f"Who carries the team at {at}: no game was won, so no {what} is shown carrying it."
        s.findings.append(Finding("carry", None, sentence, kind="carry", word="no game won"))
        return
    lead, share_tests = leader_tests(shares)
    killer, kill_tests = leader_tests(kills)
    frame = carry_table(shares, kills, share_tests, kill_tests, lead, killer, o)
    sentence = carry_sentence(s, shares, kills, lead, share_tests, killer, kill_tests, o, len(won), int(won.sum()))
    carried = bool(share_tests.behind.all()) and len(share_tests) > 0
    s.findings.append(Finding("carry", None, sentence, kind="carry",
                              word=f"carried by {lead}" if carried else f"no single {what} carries it"))
    s.tables.append(Table(frame, sentence))


def carry_table(shares, kills, share_tests, kill_tests, lead, killer, o) -> pd.DataFrame:
    """Per side: men per game, the share (Wilson over games), its gap to the leader, kills per man."""
    n = shares.notna().sum()
    low, high = wilson_interval(shares.sum(), n)  # a class's share in a game counts as one game: conservative
    k_mean, k_se = kills.mean(), kills.std(ddof=1) / np.sqrt(kills.notna().sum())
    word = o.get("share_words", o["share"])
    out = pd.DataFrame({o.get("what", o["by"]): shares.columns.astype(str),
                        word: [f"{pct(v)} ({pct(a)} - {pct(b)})" for v, a, b in zip(shares.mean(), low, high)],
                        f"vs {lead} (points)": [_gap(share_tests, str(c), 100, 1) for c in shares.columns],
                        f"zombies killed a game {_per(o)}": [f"{m:.2f} (±{1.96 * e:.2f})"
                                                             for m, e in zip(k_mean, k_se)],
                        f"vs {killer}": [_gap(kill_tests, str(c), 1, 2) for c in shares.columns]})
    return out.iloc[np.argsort(-shares.mean().to_numpy(), kind="stable")].reset_index(drop=True)


def _per(o: dict) -> str:
    """'per man' (a class of several men) or 'per army' (one player a side)."""
    return f"per {o.get('per', 'man')}"


def _gap(tests: pd.DataFrame, side: str, scale: float, places: int) -> str:
    """'-31.2 (-34.0 to -28.4)*' (* = behind the leader after Holm), 'leader' for the leader."""
    if side not in tests.index:
        return "leader"
    r, f = tests.loc[side], f"+.{places}f"
    return (f"{-r['diff'] * scale:{f}} ({-r.high * scale:{f}} to {-r.low * scale:{f}})"
            f"{'*' if r.behind else ''}")


def carry_sentence(s, shares, kills, lead, share_tests, killer, kill_tests, o, games, won) -> str:
    what, word = o.get("what", o["by"]), o.get("share_words", o["share"])
    of = f"of the {won:,} game{'s' * (won != 1)} won" if o.get("given_win") else f"of {games:,} games"
    head = f"Who carries the team at {o.get('at', o['cell'])} ({games:,} games, {won:,} won): "
    top = f"the highest share with {word}: {lead}, {pct(shares[lead].mean())} {of}"
    if len(share_tests) and share_tests.behind.all():
        top += f", ahead of every other {what} on the same games (Holm-corrected paired tests)"
    elif len(share_tests):
        close = share_tests[~share_tests.behind].index
        top += f", but not shown ahead of {_list(close)} (Holm-corrected paired tests at 5%)"
    kill = f"the most zombies killed: {killer}, {kills[killer].mean():.2f} a game {_per(o)}"
    if len(kill_tests) and not kill_tests.behind.all():
        kill += f", not shown ahead of {_list(kill_tests[~kill_tests.behind].index)}"
    elif len(kill_tests):
        kill += f", ahead of every other {what}"
    return f"{head}{top}; {kill}. {s.view.rate.capitalize()} at this cell: {rate_text(won / games if games else 0)}."


def _list(names) -> str:
    names = [str(n) for n in names]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


# ---------------------------------------------------------------------------- the difficulty curve


def _unit(unit: str, value) -> str:
    """' players', but ' player' for 1 (and ' man' for 1 of ' men')."""
    if str(value) not in ("1", "1.0"):
        return unit
    return " man" if unit == " men" else unit.removesuffix("s")


def lines_of(s: Played, o: dict) -> list[tuple[str, list[tuple[float, np.ndarray]]]]:
    """The curves to judge, each (where, [(value, won per game)...] in order): one over a numeric
    axis; over a grid axis (``grid``: its two coordinates' units, the values pairs such as Apocalypse's
    (points, players)), one line along each coordinate at every value of the other."""
    games = side_games(s)
    column = f"axis_{o['axis']}"
    won = {str(label): rows.sort_values("game").won.to_numpy() for label, rows in games.groupby(column)}
    if "grid" not in o:
        return [("", sorted((float(v), won[v]) for v in won))]
    axis = next(a for a in s.experiment.axes if a.name == o["axis"])
    cells = {tuple(v): won[label] for v, label in zip(axis.values, axis.labels) if label in won}
    units, lines = o["grid"], []
    for k in (0, 1):
        for fixed in sorted({c[1 - k] for c in cells}):
            line = sorted((c[k], arr) for c, arr in cells.items() if c[1 - k] == fixed)
            if len(line) > 1:
                lines.append((f" ({_v(fixed)}{_unit(units[1 - k], fixed)})", [(v, a) for v, a in line], units[k]))
    return lines


def steps(s: Played, o: dict) -> pd.DataFrame:
    """Each step between neighbouring values of each line (`lines_of`): the side's rate before and
    after and the paired change on their common games, with simultaneous 95% intervals
    (Bonferroni over every step), and its word (`judge_steps`, along its own line)."""
    lines = lines_of(s, o)
    unit = o.get("unit", "")
    count = sum(len(line[1]) - 1 for line in lines)
    confidence = 1 - ALPHA / max(1, count)
    tables = []
    for where, points, *own in lines:
        if len(points) < 2:
            continue
        rows = []
        for (a, wa), (b, wb) in zip(points, points[1:]):
            n = min(len(wa), len(wb))
            d = paired_difference(wb[:n], wa[:n], confidence)
            rows.append({"name": f"{_v(a)} to {_v(b)}{own[0] if own else unit}{where}", "from": a, "to": b,
                         "rate_from": wa[:n].mean(), "rate_to": wb[:n].mean(), "diff": d.diff, "low": d.low,
                         "high": d.high, "games": n})
        tables.append(judge_steps(pd.DataFrame(rows), s.jump or s.options.get("jump", JUMP)))
    if not tables:
        return pd.DataFrame()
    out = pd.concat(tables, ignore_index=True)
    out.attrs["directions"] = [t.attrs["direction"] for t in tables]  # each line's own
    out.attrs["direction"] = float(np.sign(sum(out.attrs["directions"])))
    return out


def judge_steps(table: pd.DataFrame, jump: float) -> pd.DataFrame:
    """Each step's word: 'reversal' (shown against the curve's direction: the sign of last minus
    first, else of the largest step), 'jump' (shown beyond ±jump), 'within' (shown within ±jump),
    'not shown within' (its interval reaches past ±jump)."""
    direction = 0.0
    if len(table):
        total = table.rate_to.iloc[-1] - table.rate_from.iloc[0]
        direction = float(np.sign(total) or np.sign(table["diff"].iloc[int(table["diff"].abs().argmax())]))
    reversal = (table.high < 0) if direction > 0 else (table.low > 0) if direction < 0 else False
    jumped = (table.low > jump) | (table.high < -jump)
    within = (table.low >= -jump) & (table.high <= jump)
    word = np.where(reversal, "reversal", np.where(jumped, "jump", np.where(within, "within", "not shown within")))
    out = table.assign(step=word, direction=float(direction))
    out.attrs["direction"] = float(direction)
    return out


def curve_verdict(table: pd.DataFrame, jump: float, over: str, path: str, word: str) -> Finding:
    """Smooth, not smooth (naming the step that breaks it) or not shown smooth."""
    limit = f"±{jump * 100:g} points between neighbouring values (--jump)"
    how = f"simultaneous 95% intervals, Bonferroni over {len(table)} steps"
    broken = table[table.step.isin(["reversal", "jump"])]
    if len(broken):
        r = broken.loc[broken["diff"].abs().idxmax()] if not (broken.step == "reversal").any() \
            else broken[broken.step == "reversal"].iloc[0]
        why = (f"the {word} rate goes the other way, {_step(r)}, where the curve "
               f"{'rises' if r.direction > 0 else 'falls'}" if r.step == "reversal"
               else f"{_step(r)}, a step shown beyond {limit}")
        return Finding("curve", False, f"Difficulty over {over}: not smooth at {r['name']}: {why}. The {word} rate "
                       f"{path} ({how}).", kind="curve", word="not smooth")
    unsure = table[table.step == "not shown within"]
    if len(unsure):
        r = unsure.loc[unsure["diff"].abs().idxmax()]
        return Finding("curve", None, f"Difficulty over {over}: not shown smooth: the step {r['name']}, {_step(r)}, "
                       f"reaches past {limit}; more games would tell. The {word} rate {path} ({how}).", kind="curve",
                       word="not shown smooth")
    big = table.loc[table["diff"].abs().idxmax()] if len(table) else None
    largest = f"; the largest step, {big['name']}, {_step(big)}" if big is not None else ""
    return Finding("curve", True, f"Difficulty over {over}: smooth: the {word} rate {path}, every step shown within "
                   f"{limit} and none shown against its curve ({how}{largest}).", kind="curve", word="smooth")


def _v(value) -> str:
    return f"{value:g}"


def _step(r) -> str:
    """'+31.0 points (27.1 to 34.8)'."""
    return f"{signed(r['diff'])} points ({signed(r.low)} to {signed(r.high)})"


def _path(table: pd.DataFrame, unit: str, lines: int) -> str:
    """'rises from 1.9% at 400 to 34% at 1200 points'; on a grid, 'rises along 6 lines of the grid'."""
    d = table.attrs["direction"]
    rises = "rises" if d > 0 else "falls" if d < 0 else "stays level"
    if lines > 1:
        same = sum(1 for x in table.attrs["directions"] if x == d)
        return f"{rises} along {same} of the grid's {lines} lines"
    return (f"{rises} from {rate_text(table.rate_from.iloc[0])} at {_v(table['from'].iloc[0])} to "
            f"{rate_text(table.rate_to.iloc[-1])} at {_v(table['to'].iloc[-1])}{_unit(unit, table['to'].iloc[-1])}")


def curve(s: Played) -> None:
    """Is the side's rate smooth over a value axis (or along every line of a grid)?"""
    o = s.options["curve"]
    jump = s.jump or s.options.get("jump", JUMP)
    table = steps(s, o)
    if table.empty:  # one value: no curve to judge
        return
    lines = 1 if "grid" not in o else len(lines_of(s, o))
    finding = curve_verdict(table, jump, o.get("over", o["axis"]), _path(table, o.get("unit", ""), lines),
                            s.view.win_word)
    s.findings.append(finding)
    frame = pd.DataFrame({"step": table["name"], "games": table.games, "rate before": table.rate_from.map(pct),
                          "rate after": table.rate_to.map(pct), "change (points)": table["diff"].map(signed),
                          "simultaneous 95% CI": [f"{signed(a)} to {signed(b)}" for a, b in zip(table.low,
                                                                                             table.high)],
                          f"within ±{jump * 100:g}": table.step})
    s.tables.append(Table(frame, finding.sentence))
