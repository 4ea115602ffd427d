"""`shamble report`: the built-in balance suite, played and written as one page.

The suite is a set of sweeps of the two-player example (Guard, hunting power-ups, against Marines
dashing for the Escape Vehicle), each on common random numbers:

=============  ==================================================================================
section        cells
=============  ==================================================================================
mods           the base game and each playable mod of zombie40k §10 (T-Virus vs Hardcore too)
budget         points budgets 50-150, both teams refitted (sim.rulesets.zombie40k.teams.fit_team)
powerups       the base game and the game with one Power-Up result taken off the table
factions       four factions x four factions, both players on the "advance" policy
sensitivity    every chosen [C] number at its low and high plausible value
=============  ==================================================================================

Each section is a sweep in ``<out>/<name>/data/<section>/`` (checkpointed per cell, so an
interrupted report resumes); the page is ``<out>/<name>/index.html`` (self-contained: figures
embedded as base64 PNG), with ``README.md`` and the figures (PNG and SVG) beside it. Sizes are
fixed numbers of games (times ``scale``), never measured speeds, so a rerun is the same
experiment and resumes instead of starting over.
"""

from __future__ import annotations

import base64
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import pandas as pd
from jinja2 import Environment, FileSystemLoader, select_autoescape
from rich.console import Console

from experiments import charts
from experiments.compare import escape_turn_curves, paired_table, per_game
from experiments.experiment import EXAMPLES, Axis, Experiment, load_team_ref
from experiments.play import load_game_kernels
from experiments.sensitivity import sensitivity_experiment, sensitivity_table
from experiments.sweep import SweepResult, now, run_cell, run_meta, sweep, write_json, write_table
from sim.play import POWERUP_NAMES
from sim.rulesets.zombie40k.compile import compile_tables
from sim.rulesets.zombie40k.config import MODS, POLICY_PRESETS, ConfigError, GameConfig, load_config
from sim.rulesets.zombie40k.mods import MOD_BY_KEY

BASE_CONFIG = EXAMPLES / "configs" / "two_players.toml"
SEED = 2024
# games per cell at scale 1: about 2 minutes on 2 cores
GAMES = {"mods": 6000, "budget": 5000, "powerups": 3200, "factions": 1600, "sensitivity": 1200}
BUDGETS = (50, 75, 100, 125, 150)
FACTIONS = ("guard", "marines", "tau", "necrons")
HEAD_TO_HEAD = ("t_virus", "hardcore")
CALIBRATION_GAMES = 200
TEMPLATES = Path(__file__).resolve().parent / "templates"


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
class Section:
    """One part of the report: a sweep and what the page says about it."""

    key: str
    title: str
    intro: str
    experiment: Experiment | None
    analyse: Callable[[SweepResult, Section], None] | None = None
    notes: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    figures: list[Chart] = field(default_factory=list)
    result: SweepResult | None = None


# ---------------------------------------------------------------------------- words


def pct(rate: float) -> str:
    return f"{rate:.0%}"


def points(diff: float, halfwidth: float, more: str = "more often", less: str = "less often") -> str:
    """'9 points less often (±3)': a difference of rates in percentage points, in words."""
    size = abs(diff) * 100
    if size < 0.5:
        return f"about as often (±{halfwidth * 100:.0f})"
    return f"{size:.0f} point{'s' if round(size) != 1 else ''} {more if diff > 0 else less} (±{halfwidth * 100:.0f})"


def mod_title(mod: str) -> str:
    """'t_virus' -> 'T-Virus' (the mod's title in sim.rulesets.zombie40k.mods)."""
    return MOD_BY_KEY[mod].title if mod in MOD_BY_KEY else mod


def _pc(value: float) -> str:
    return f"{value:.1%}"


def _signed(value: float) -> str:
    return f"{value * 100:+.1f}"


# ---------------------------------------------------------------------------- the suite


def playable_mods(config: GameConfig) -> tuple[list[str], dict[str, str]]:
    """Mods the kernels can play now, and why each other one cannot."""
    ok, missing = [], {}
    for mod in MODS:
        try:
            compile_tables(replace(config, mods=frozenset({mod})))
            ok.append(mod)
        except ConfigError as err:
            missing[mod] = str(err)
    return ok, missing


def games_for(section: str, scale: float) -> int:
    return max(10, round(GAMES[section] * scale))


def suite(scale: float = 1.0, base: GameConfig | None = None) -> list[Section]:
    """The sections of the report, each with its experiment (not played yet)."""
    base = base or load_config(BASE_CONFIG)
    mods, missing = playable_mods(base)
    sets = [frozenset()] + [frozenset({m}) for m in mods]
    if all(m in mods for m in HEAD_TO_HEAD):
        sets.append(frozenset(HEAD_TO_HEAD))
    mod_axis = Axis("mods", "mods", tuple(sets), tuple("+".join(sorted(s)) or "base" for s in sets))
    removed = ((),) + tuple((r,) for r in POWERUP_NAMES)
    return [
        Section("mods", "The base game and the mods", _mods_intro(mods, missing),
                Experiment("mods", base, games_for("mods", scale), SEED, (mod_axis,)), _analyse_mods,
                notes=[f"Not playable in this build: {', '.join(missing)}."] if missing and mods else []),
        Section("budget", "Points budget", "Both teams are refitted to each budget (leader and weapon swaps kept, "
                "plain models added or dropped).",
                Experiment("budget", base, games_for("budget", scale), SEED,
                           (Axis("budget", "budget", BUDGETS, tuple(map(str, BUDGETS))),)), _analyse_budget),
        Section("powerups", "Power-up ablation", "Each cell takes one Power-Up result off the 2D6 table "
                "(a roll of it gives nothing); its value is how much the escape rate drops without it.",
                Experiment("powerups", base, games_for("powerups", scale), SEED,
                           (Axis("powerups_removed", "powerups_removed", removed,
                                 ("none",) + tuple(f"no_{n}" for n in POWERUP_NAMES.values())),)),
                _analyse_powerups),
        Section("factions", "Faction against faction", "Both players use the same policy (advance), so the "
                "teams are compared, not the ways of playing them; each pairing is played in both seats.",
                _faction_experiment(base, games_for("factions", scale)), _analyse_factions),
        Section("sensitivity", "Sensitivity of the chosen numbers", "The rules lost some numbers; Shamble "
                "chose them ([C] in zombie40k §12-§13). Each is played at a low and a high plausible value; a mod's "
                "numbers are played with that mod on.",
                sensitivity_experiment(base, games_for("sensitivity", scale), SEED, with_mods=mods),
                _analyse_sensitivity),
    ]


def _mods_intro(mods: list[str], missing: dict) -> str:
    return f"The base game against {len(mods)} mods, every cell on the same games (a paired comparison)."


def _faction_experiment(base: GameConfig, games: int) -> Experiment:
    teams = tuple(load_team_ref(t, EXAMPLES) for t in FACTIONS)
    players = tuple(replace(p, name=f"Player {k + 1}") for k, p in enumerate(base.players))
    neutral = replace(base, players=players)
    axes = tuple(Axis(f"team[Player {k + 1}]", "team", teams, FACTIONS, k) for k in range(2))
    neutral = replace(neutral, players=tuple(replace(p, policy=POLICY_PRESETS["advance"]) for p in neutral.players))
    return Experiment("factions", neutral, games, SEED, axes)


# ---------------------------------------------------------------------------- analyses


def _rates_table(summary: pd.DataFrame, by: str, label: str) -> pd.DataFrame:
    shown = summary[[by, "name", "games", "rate", "ci_low", "ci_high"]].copy()
    shown["95% CI"] = [f"{_pc(lo)} - {_pc(hi)}" for lo, hi in zip(shown.ci_low, shown.ci_high)]
    shown["rate"] = shown.rate.map(_pc)
    return shown.drop(columns=["ci_low", "ci_high"]).rename(columns={by: label, "name": "player",
                                                                      "rate": "escape rate"})


def _diff_table(table: pd.DataFrame, label: str) -> pd.DataFrame:
    """One row per label, per player the rate and the paired change with its 95% interval
    (points; * = flagged after Holm's correction)."""
    wide = pd.DataFrame({label: pd.unique(table.label)})
    for name, rows in table.groupby("name", sort=False):
        rows = rows.set_index("label").reindex(wide[label])
        wide[f"{name} rate"] = rows.rate.map(_pc).to_numpy()
        wide[f"{name} change"] = [f"{_signed(d)} ({_signed(lo)} to {_signed(hi)}){'*' if f else ''}"
                                  for d, lo, hi, f in zip(rows["diff"], rows.ci_low, rows.ci_high, rows.flagged)]
    return wide


def _analyse_mods(result: SweepResult, section: Section) -> None:
    res, summary = result.results, result.summary
    base = summary[summary.axis_mods == "base"]
    games = per_game(res, "axis_mods")
    base_games = games[games.label == "base"]
    timeout = (base_games.reason == "timeout").mean()
    who = " and ".join(f"the {r.name} in {pct(r.rate)} (±{r.halfwidth * 100:.0f})" for r in base.itertuples())
    section.tables.append(Table(_rates_table(summary, "axis_mods", "game"),
                                f"In the base game {who.replace(' in ', ' escape in ', 1)} of games; {pct(timeout)} "
                                f"of games reach the {int(base_games.turns.max())}-turn limit with nobody out."))
    top = int(games.turns.max())
    shown = ["base", *HEAD_TO_HEAD, "+".join(sorted(HEAD_TO_HEAD))]  # a readable chart: four lines at most
    games = games[games.label.isin(shown)]
    res = res[res.axis_mods.isin(shown)]
    others = "; ".join(f"under {' + '.join(mod_title(m) for m in label.split('+'))} {rows.turns.mean():.1f}"
                       for label, rows in games.groupby("label", sort=False) if label != "base")
    section.figures.append(Chart("game_length", charts.game_length(games, "Game length"),
                                  f"A base game lasts {base_games.turns.mean():.1f} turns on average (median "
                                  f"{base_games.turns.median():.0f}){'; ' + others if others else ''}."))
    curves = escape_turn_curves(res, "axis_mods", top)
    half = curves[(curves.label == "base") & (curves.share >= curves[curves.label == "base"].share.max() / 2)]
    section.figures.append(Chart("escape_turns", charts.escape_curves(curves, "Escape-turn curves"),
                                  f"Each line is the share of games someone has escaped by the end of a turn; in the "
                                  f"base game half of all escapes have happened by turn {int(half.turn.min())}."))
    if summary.axis_mods.nunique() > 1:
        _mod_comparison(result.results, section)


def _mod_comparison(res: pd.DataFrame, section: Section) -> None:
    mods = [m for m in pd.unique(res.axis_mods) if m != "base"]
    table = paired_table(res, "axis_mods", "base", mods)
    table["label"] = table.label.map(lambda m: " + ".join(mod_title(x) for x in m.split("+")))

    def words(r):
        return f"Under {r.label} the {r['name']} escape {points(r['diff'], (r.ci_high - r.ci_low) / 2)}."

    biggest = table.loc[table["diff"].abs().idxmax()]
    section.tables.append(Table(_diff_table(table, "mod"), words(biggest) + " (the largest change; changes are "
                                "in points against the base game on the same games, * = significant after Holm)"))
    section.figures.append(Chart("mods_forest", charts.forest(table, "Mods against the base game",
                                                                "change in escape rate (points)"),
                                  "Each bar is a mod's change in escape rate against the base game on the same "
                                  "games, with its 95% interval; a filled dot survives Holm's correction."))
    if all(m in pd.unique(res.axis_mods) for m in HEAD_TO_HEAD):
        _head_to_head(res, section)


def _head_to_head(res: pd.DataFrame, section: Section) -> None:
    a, b = HEAD_TO_HEAD
    table = paired_table(res, "axis_mods", b, [a])

    def words(r):
        return (f"Against {mod_title(b)}, {mod_title(a)} lets the {r['name']} escape "
                f"{points(r['diff'], (r.ci_high - r.ci_low) / 2)}.")

    section.tables.append(Table(_diff_table(table.assign(label=mod_title(a) + " vs " + mod_title(b)), "head to head"),
                                " ".join(words(r) for _, r in table.iterrows())))


def _analyse_budget(result: SweepResult, section: Section) -> None:
    summary = result.summary.assign(budget=result.summary.axis_budget.astype(int))
    lo, hi = summary.budget.min(), summary.budget.max()
    moves = "; ".join(f"the {name} from {pct(rows.rate.iloc[0])} to {pct(rows.rate.iloc[-1])}"
                      for name, rows in summary.sort_values("budget").groupby("name", sort=False))
    section.tables.append(Table(_rates_table(summary, "axis_budget", "budget"),
                                f"Going from {lo} to {hi} points moves {moves}."))
    section.figures.append(Chart("budget", charts.rate_vs_value(summary, "budget", "Escape rate by points budget",
                                                                 "points budget"),
                                  "Each line is a team's escape rate at each budget; the band is its 95% Wilson "
                                  "interval."))


def _analyse_powerups(result: SweepResult, section: Section) -> None:
    table = paired_table(result.results, "axis_powerups_removed", "none")
    table["label"] = table.label.str.removeprefix("no_").str.replace("_", " ")
    value = table.assign(diff=-table["diff"], ci_low=-table.ci_high, ci_high=-table.ci_low)
    best = value.loc[value["diff"].idxmax()]
    sentence = (f"The power-up worth most is {best.label} for the {best['name']}: with it on the table they escape "
                f"{points(best['diff'], (best.ci_high - best.ci_low) / 2)} than without it.")
    section.tables.append(Table(_diff_table(table, "power-up removed"), sentence + " (Changes are in points "
                                "against the full table on the same games, * = significant after Holm.)"))
    section.figures.append(Chart("powerups", charts.forest(value, "Value of each power-up",
                                                            "escape rate with it minus without it (points)"),
                                  "Each bar is what a power-up is worth: the escape rate with it on the table minus "
                                  "the rate without it, on the same games."))


def _analyse_factions(result: SweepResult, section: Section) -> None:
    matrix = seat_balanced_matrix(result.summary)
    overall = matrix.mean(axis=1).sort_values(ascending=False)
    section.tables.append(Table(matrix.map(_pc).reset_index(names="team (rows) vs opponent"),
                                f"The {overall.index[0]} escape most often ({pct(overall.iloc[0])} averaged over "
                                f"opponents and seats), the {overall.index[-1]} least ({pct(overall.iloc[-1])})."))
    section.figures.append(Chart("factions", charts.heatmap(matrix, "Escape rate of the row team", "opponent",
                                                             "team"),
                                  "Each square is how often the row team escapes against the column team, averaged "
                                  "over both seats."))


def seat_balanced_matrix(summary: pd.DataFrame) -> pd.DataFrame:
    """Escape rate of team A against team B, the mean of A in seat 1 (vs B) and A in seat 2 (vs B)."""
    one, two = "axis_team[Player 1]", "axis_team[Player 2]"
    seat1 = summary[summary.player == 0].pivot(index=one, columns=two, values="rate")
    seat2 = summary[summary.player == 1].pivot(index=two, columns=one, values="rate")
    order = [f for f in FACTIONS if f in seat1.index]
    matrix = (seat1.loc[order, order] + seat2.loc[order, order]) / 2
    names = {f: load_team_ref(f, EXAMPLES).name for f in order}
    return matrix.rename(index=names, columns=names)


def _analyse_sensitivity(result: SweepResult, section: Section) -> None:
    table = sensitivity_table(result.results, section.experiment)
    top = table.iloc[0]
    shown = pd.DataFrame({"parameter": table.param, "under": table["mod"].map(lambda m: mod_title(m) if m else "base"),
                          "default": table.default.astype(str), "low": table.low.astype(str),
                          "high": table.high.astype(str), "rate at low": table.rate_low.map(_pc),
                          "rate at high": table.rate_high.map(_pc), "high - low (points)": table["diff"].map(_signed),
                          "95% CI": [f"{_signed(a)} to {_signed(b)}" for a, b in zip(table.ci_low, table.ci_high)],
                          "Holm p": table.p_holm.map(lambda p: f"{p:.2g}")})
    under = f" under {mod_title(top['mod'])}" if top["mod"] else ""
    section.tables.append(Table(shown, f"Of the chosen numbers, {top.param}{under} moves the chance that anyone "
                                       f"escapes most: {pct(top.rate_low)} at {top.low} against {pct(top.rate_high)} "
                                       f"at {top.high} (±{(top.ci_high - top.ci_low) * 50:.0f} points)."))
    forest = table.assign(label=[f"{p} {lo}→{hi}" + (f" ({mod_title(m)})" if m else "")
                                 for p, lo, hi, m in zip(table.param, table.low, table.high, table["mod"])],
                          name="anyone escapes", flagged=table.p_holm < 0.05)
    section.figures.append(Chart("sensitivity", charts.forest(forest, "Sensitivity of the chosen numbers",
                                                               "rate at high minus rate at low (points)"),
                                  "Each bar is how much the chance that anyone escapes changes between a number's "
                                  "low and high plausible value; the longest bars are the numbers worth pinning down."))


# ---------------------------------------------------------------------------- running


def calibrate(config: GameConfig) -> float:
    """Games per second of the base game on this machine (for the printed plan only)."""
    run_cell(config, 20, SEED)  # loads the compiled kernels
    start = time.perf_counter()
    run_cell(config, CALIBRATION_GAMES, SEED)
    return CALIBRATION_GAMES / (time.perf_counter() - start)


def plan_lines(sections: list[Section], rate: float) -> list[str]:
    lines, total = [], 0
    for s in sections:
        cells, games = len(s.experiment.cells()), s.experiment.games
        total += cells * games
        lines.append(f"  {s.key:<12} {cells:>3} cells x {games:>5} games = {cells * games:>6}")
    lines.append(f"  {'total':<12} {total:>30} games; about {total / rate / 60:.1f} min at {rate:.0f} games/s "
                 "(two-player base game; mods and four-player cells may be slower)")
    return lines


def run_report(name: str = "latest", out: Path = Path("reports"), scale: float = 1.0, fresh: bool = False,
               dask: str | None = None, console: Console | None = None) -> Path:
    """Play the suite (resumable), analyse it and write the page; returns the report folder."""
    if not scale > 0:
        raise ValueError(f"--scale {scale}; allowed: a number above 0")
    console = console or Console(stderr=True)
    folder = Path(out) / name
    sections = suite(scale)
    load_game_kernels(sections[0].experiment.base, console)
    rate = calibrate(sections[0].experiment.base)
    console.print(f"shamble report {name}: {len(sections)} sweeps, seed {SEED}, scale {scale:g}")
    for line in plan_lines(sections, rate):
        console.print(line)
    started, meta = time.perf_counter(), run_meta(sections[0].experiment, "")
    for s in sections:
        s.result = sweep(s.experiment, folder / "data" / s.key, fresh=fresh, dask=dask, console=console)
        s.analyse(s.result, s)
    elapsed = time.perf_counter() - started
    write_pages(folder, sections, _report_meta(meta, sections, scale, rate, elapsed))
    console.print(f"wrote {folder / 'index.html'} and {folder / 'README.md'} ({elapsed:.0f} s of games and analysis)")
    return folder


def _report_meta(meta: dict, sections: list[Section], scale: float, rate: float, elapsed: float) -> dict:
    meta = {k: v for k, v in meta.items() if k not in ("experiment", "experiment_hash")} | {"finished": now()}
    return meta | {
        "scale": scale, "calibration_games_per_s": round(rate, 1), "wall_s": round(elapsed, 1),
        "sections": {s.key: {"experiment_hash": s.result.meta["experiment_hash"], "games_per_cell": s.experiment.games,
                             "cells": len(s.experiment.cells()), "played_now": s.result.played,
                             "max_halfwidth": round(float(s.result.summary.halfwidth.max()), 4)} for s in sections},
    }


# ---------------------------------------------------------------------------- pages


def write_pages(folder: Path, sections: list[Section], meta: dict) -> None:
    """index.html (self-contained), README.md, the figures (PNG + SVG), tables (CSV) and meta.json."""
    images = {}
    for s in sections:
        for f in s.figures:
            charts.save(f.figure, folder / f.name)
            images[f.name] = base64.b64encode(charts.png_bytes(f.figure)).decode()
        for k, t in enumerate(s.tables):
            write_table(t.frame, folder / f"{s.key}_table{k + 1}.csv")
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html"]),
                      trim_blocks=True, lstrip_blocks=True)
    context = {"sections": sections, "meta": meta, "images": images, "markdown": markdown_table}
    (folder / "index.html").write_text(env.get_template("report.html.j2").render(context))
    (folder / "README.md").write_text(env.get_template("report.md.j2").render(context))
    write_json(meta, folder / "meta.json")


def markdown_table(frame: pd.DataFrame) -> str:
    """A GitHub markdown table of a frame of text."""
    rows = [list(map(str, frame.columns))] + [[str(v) for v in row] for row in frame.itertuples(index=False)]
    lines = ["| " + " | ".join(r).replace("\n", " ") + " |" for r in rows]
    return "\n".join([lines[0], "|" + "---|" * len(frame.columns), *lines[1:]])


# ---------------------------------------------------------------------------- for notebooks


@dataclass
class ModComparison:
    """Mod sets played on the same games and compared with a reference set."""

    result: SweepResult | None
    table: pd.DataFrame  # paired_table rows: label, player, name, rate, reference_rate, diff, ci, p, p_holm
    unplayable: dict[str, str]  # mod -> why it cannot be played in this build


def compare_mods(config: GameConfig, mod_sets: list[list[str]], out: Path, games: int = 2000, seed: int = SEED,
                 reference: str = "base", show_progress: bool = False) -> ModComparison:
    """Play each playable mod set (``[]`` = the base game) on the same games and compare every set
    with ``reference`` (a label such as ``"base"`` or ``"hardcore"``); sets using a mod this build
    cannot play are left out and listed in ``unplayable``."""
    ok, missing = playable_mods(config)
    sets = [frozenset(s) for s in mod_sets if set(s) <= set(ok)]
    labels = tuple("+".join(sorted(s)) or "base" for s in sets)
    unplayable = {m: missing[m] for s in mod_sets for m in s if m in missing}
    if reference not in labels or len(sets) < 2:
        return ModComparison(None, pd.DataFrame(), unplayable)
    exp = Experiment("mods", config, games, seed, (Axis("mods", "mods", tuple(sets), labels),))
    result = sweep(exp, out, show_progress=show_progress)
    return ModComparison(result, paired_table(result.results, "axis_mods", reference), unplayable)
