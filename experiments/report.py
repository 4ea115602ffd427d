"""`shamble report`: every ruleset's balance suite, played and written as one page.

Each ruleset supplies its sections as data (``Ruleset.report_sections``: an experiment's base,
axes and games per cell, and the analyses of ``experiments.analyses`` that read it). Each
section is a sweep in ``<out>/<name>/data/<ruleset>/<section>/`` (checkpointed per cell, so an
interrupted report resumes); the page is ``<out>/<name>/index.html`` (self-contained: figures
embedded as base64 PNG), with ``README.md``, the figures (PNG and SVG) and the tables (CSV,
``<ruleset>_<section>_tableN.csv``) beside it. Sizes are fixed numbers of games (times
``scale``), never measured speeds, so a rerun is the same experiment and resumes instead of
starting over.
"""

from __future__ import annotations

import base64
import contextlib
import time
from concurrent.futures import Future
from concurrent.futures import wait as futures_wait
from dataclasses import dataclass, field, replace
from pathlib import Path

import pandas as pd
from jinja2 import Environment, FileSystemLoader, select_autoescape
from rich.console import Console

from experiments import charts, findings
from experiments import strong_play as sp
from experiments.analyses import ANALYSES
from experiments.experiment import Experiment
from experiments.findings import MARGIN, Played, View, parse_margin
from experiments.progress import load_all_game_kernels, load_game_kernels
from experiments.sections import experiment_of, kind_of
from experiments.sequential import widest_paired
from experiments.sweep import now, run_cell, run_meta, sweep, threads, write_json, write_table
from sim.ruleset import ReportSection, Ruleset, all_rulesets, get, players_are_people_of, pricing_of, ruleset_of

CALIBRATION_GAMES = 200
TEMPLATES = Path(__file__).resolve().parent / "templates"


@dataclass
class Part:
    """One ruleset's part of the report: its sections, played and analysed, its verdict and the
    notes on how far its comparisons can be trusted."""

    ruleset: Ruleset
    sections: list[Played] = field(default_factory=list)
    findings: list = field(default_factory=list)  # findings.Finding, from every section
    notes: list[str] = field(default_factory=list)  # the method notes: pairing gain, shared games


def shared_games(part: Part) -> list[str]:
    """Cells of different sections that play the very same games (the same config and seed): their
    agreement is one measurement shown twice, not a replication."""
    from experiments.experiment import config_fingerprint

    seen: dict[tuple, list[str]] = {}
    for s in part.sections:
        for cell in s.experiment.cells():
            where = f"{s.spec.key} ({cell.label})"
            seen.setdefault((config_fingerprint(cell.config), s.experiment.seed), []).append(where)
    return [", ".join(cells) for cells in seen.values() if len({c.split(" ")[0] for c in cells}) > 1]


PAIRING_NOTE = ("Sample sizes are planned as if the cells were independent. Comparisons play both cells on the same "
                "games (common random numbers), which keeps them like for like, but narrows an interval only by the "
                "square root of that comparison's variance ratio var(a - b) / (var(a) + var(b)), printed beside each "
                "comparison (1 = no gain over two independent samples): the mods, budgets, policies and expansions "
                "measured 0.92-0.98, so expect intervals about as wide as two independent samples would give.")


def method_notes(part: Part) -> list[str]:
    """What the reader needs to weigh the comparisons: how much the pairing gained, which cells
    are the same games."""
    notes = []
    if any(s.ratios for s in part.sections):
        notes.append(PAIRING_NOTE)
    groups = shared_games(part)
    if groups:
        notes.append("Some cells of different sections play the very same games (the same config and seed): "
                     + "; ".join(f"[{g}]" for g in groups) + ". Where their figures agree, that is one measurement "
                     "shown twice, not a replication.")
    return notes


def suite(scale: float = 1.0, rulesets: list[Ruleset] | None = None) -> list[Part]:
    """The report's parts: each ruleset with its sections (not played yet)."""
    parts = []
    for rs in rulesets if rulesets is not None else all_rulesets():
        sections = rs.report_sections(scale)
        if sections:
            view = View(rs.win_word)
            parts.append(Part(rs, [Played(spec, experiment_of(spec, scale), view) for spec in sections]))
    return parts


def analyse(section: Played) -> None:
    base = section.experiment.base
    findings.PEOPLE.clear()  # a ruleset whose players are people (`players_are_people`) names them bare
    if players_are_people_of(ruleset_of(base)):
        findings.PEOPLE.update(str(p.name) for p in base.players)
        findings.PEOPLE.update(str(v) for v in pd.unique(section.result.results.name))
    for name in section.spec.analyses:
        ANALYSES[name](section)


# ---------------------------------------------------------------------------- running


def calibrate(config) -> float:
    """Games per second of a base game on this machine (for the printed plan only)."""
    run_cell(config, 20, 1)  # loads the compiled kernels
    start = time.perf_counter()
    run_cell(config, CALIBRATION_GAMES, 1)
    return CALIBRATION_GAMES / (time.perf_counter() - start)


def plan_lines(parts: list[Part], rates: dict[str, float]) -> list[str]:
    lines, minutes = [], 0.0
    for part in parts:
        total = 0
        for s in part.sections:
            cells, games = len(s.experiment.cells()), s.experiment.games
            total += cells * games
            upto = f"up to {games:>5} games" if s.experiment.target_halfwidth else f"{games:>5} games"
            lines.append(f"  {part.ruleset.id + ' ' + s.spec.key:<24} {cells:>3} cells x {upto} = {cells * games:>7}")
        rate = rates[part.ruleset.id]
        minutes += total / rate / 60
        lines.append(f"  {part.ruleset.id + ' total':<24} {total:>32} games at most; up to about "
                     f"{total / rate / 60:.1f} min at {rate:.0f} games/s (its first base game; other cells may be "
                     "slower; a cell stops once its question's interval is narrow enough)")
    if len(parts) > 1:
        lines.append(f"  {'all':<24} about {minutes:.1f} min")
    return lines


def run_report(name: str = "latest", out: Path = Path("reports"), scale: float = 1.0, fresh: bool = False,
               dask: str | None = None, console: Console | None = None, rulesets: list[str] | None = None,
               rebalance: bool = False, margin: float | str | None = None,
               band: tuple[float, float] | None = None, jump: float | None = None, strong_play: bool = True) -> Path:
    """Play the suite (resumable), analyse it and write the page; returns the report folder.
    With ``rebalance``, each ruleset that has prices gets a last section: `rebalance_section`.
    With ``strong_play``, each ruleset gets the section "Under stronger play" (`experiments.strong_play`).
    ``margin`` (`findings.parse_margin`) judges every fairness verdict, and the rebalance; None:
    each section's own, else ±3 points. ``band`` and ``jump`` judge a cooperative game's verdict
    (`experiments.coop`; None: 30-70% and 20 points)."""
    if not scale > 0:
        raise ValueError(f"--scale {scale}; allowed: a number above 0")
    margin = parse_margin(margin) if margin is not None else None
    console = console or Console(stderr=True)
    folder = Path(out) / name
    parts = suite(scale, [get(r, "--ruleset") for r in rulesets] if rulesets else None)
    rates = {}
    load_all_game_kernels([part.sections[0].experiment.base for part in parts], console)  # in parallel, when cold
    for part in parts:
        base = part.sections[0].experiment.base
        load_game_kernels(base, console)
        rates[part.ruleset.id] = calibrate(base)
    console.print(f"shamble report {name}: {sum(len(p.sections) for p in parts)} sweeps of "
                  f"{len(parts)} ruleset{'s' * (len(parts) != 1)}, scale {scale:g}")
    for line in plan_lines(parts, rates) + [sp.plan_line(p.ruleset, scale) for p in parts if strong_play]:
        console.print(line)
    started, meta = time.perf_counter(), run_meta(parts[0].sections[0].experiment, "")
    total, k = sum(len(p.sections) for p in parts) + len(parts) * strong_play, 0
    drawn: dict[str, tuple[bytes, bytes]] = {}  # chart stem -> its PNG and SVG, drawn by the analyst
    with Analyst() as analyst:
        for part in parts:
            for s in list(part.sections):
                k += 1
                s.margin, s.band, s.jump = margin, band, jump
                where = f"{part.ruleset.id}/{s.spec.key} ({k}/{total})"
                if not console.is_terminal:
                    console.print(f"playing {where}: {len(s.experiment.cells())} cells", soft_wrap=True)
                began = time.perf_counter()
                s.result = sweep(s.experiment, folder / "data" / part.ruleset.id / s.spec.key, fresh=fresh,
                                 dask=dask, console=console, label=where)
                analyst.submit(where, _analysed, s, part.ruleset.id, drawn)
                if not console.is_terminal:  # a line per finished section where no bar is drawn
                    console.print(f"finished {where}: {s.result.played} cells played, {s.result.reused} resumed, "
                                  f"{time.perf_counter() - began:.0f} s", soft_wrap=True)
            if rebalance and part.sections and pricing_of(part.ruleset) is not None:
                analyst.wait()  # its words read what the sections' analyses set (findings.PEOPLE)
                part.sections.append(rebalance_section(part, scale, folder / "data" / part.ruleset.id / "rebalance",
                                                       fresh, console, margin))
            if strong_play:
                k += 1
                where = f"{part.ruleset.id}/{sp.KEY} ({k}/{total})"
                strong, resumed = _strong_play(part, scale, folder, fresh, console, where)
                analyst.submit(where, _strong_section, part, strong, resumed, folder, margin, band, drawn)
        analyst.wait()
    for part in parts:
        part.findings = [f for s in part.sections for f in s.findings]
        part.notes = method_notes(part)
    elapsed = time.perf_counter() - started
    meta = _report_meta(meta, parts, scale, rates, elapsed) | {"margin": margin if margin is not None else MARGIN,
                                                                "margin_words": margin_text(margin)}
    write_pages(folder, parts, meta, drawn)
    console.print(f"wrote {folder / 'index.html'} and {folder / 'README.md'} ({elapsed:.0f} s of games and analysis)")
    return folder


class Analyst:
    """The report's analyses, in one background thread, while the next section's games play.

    The game kernels release the GIL and play on numba's threads; what a report does between
    them (a round's bookkeeping, a section's analysis: pandas, paired comparisons, charts drawn as
    PNG and SVG) runs on one core. Done here, a section's analysis fills the core its successor's
    games leave idle. Jobs run one at a time in the order submitted, so each sees what it would see
    played one after the other (``findings.PEOPLE``, set by each section's `analyse`), and every
    table is the same. A job that raised stops the report at the next `submit` or at `wait`: its
    own exception, with a note naming the section."""

    def __init__(self) -> None:
        self.jobs: list[tuple[str, Future]] = []
        self.stack = contextlib.ExitStack()

    def __enter__(self) -> Analyst:
        self.run = self.stack.enter_context(threads(1, "report-analyst"))  # `experiments.sweep.threads`
        return self

    def __exit__(self, *exc) -> None:
        self.stack.close()  # on an error: only the running job finishes

    def submit(self, where: str, job, *args) -> None:
        """Run ``job(*args)`` after the jobs before it (``where``: the section, for an error)."""
        self.check()
        self.jobs.append((where, self.run(job, *args)))

    def check(self) -> None:
        """Raise the error of the first finished job that failed."""
        for where, job in self.jobs:
            if job.done():
                _raise_from(where, job)

    def wait(self) -> None:
        """Wait for every job; raise the first error."""
        for where, job in self.jobs:
            futures_wait([job])
            _raise_from(where, job)


def _raise_from(where: str, job: Future) -> None:
    err = job.exception()
    if err is not None:
        if not any(where in note for note in getattr(err, "__notes__", ())):
            err.add_note(f"(while analysing {where} of the report)")
        raise err


def _analysed(s: Played, ruleset_id: str, drawn: dict) -> None:
    """A played section analysed and its charts drawn (the analyst's job)."""
    analyse(s)
    draw(s, ruleset_id, drawn)


def draw(s: Played, ruleset_id: str, drawn: dict) -> None:
    """The PNG and SVG of each of the section's charts, into ``drawn`` by file stem (`write_pages`
    writes them)."""
    for f in s.figures:
        drawn[f"{ruleset_id}_{f.name}"] = (charts.png_bytes(f.figure), charts.svg_bytes(f.figure))


def _strong_play(part: Part, scale: float, folder: Path, fresh: bool, console: Console,
                 where: str) -> tuple[sp.Strong, bool]:
    """The games of the section "Under stronger play" (its tunes and fresh games), with the progress
    lines of the other sections; whether its tunes resumed."""
    if not console.is_terminal:
        console.print(f"playing {where}: tuning the sides of the base game", soft_wrap=True)
    began, out = time.perf_counter(), folder / "data" / part.ruleset.id / sp.KEY
    resumed = sp.was_played(out, fresh)
    strong = sp.play_strong(part.ruleset, scale, out, fresh, console, part.sections[0].experiment.base,
                            progress=console.is_terminal)
    if not console.is_terminal:
        console.print(f"finished {where}: {time.perf_counter() - began:.0f} s", soft_wrap=True)
    return strong, resumed


def _strong_section(part: Part, strong: sp.Strong, resumed: bool, folder: Path, margin, band, drawn: dict) -> None:
    """The section "Under stronger play" written from its games, the part's last (the analyst's job)."""
    section = sp.section_of(strong, folder / "data" / part.ruleset.id / sp.KEY, resumed, margin, band)
    draw(section, part.ruleset.id, drawn)
    part.sections.append(section)


def margin_text(margin: float | str | None) -> str:
    """The verdict's margin in words, for the head of the verdict."""
    margin = MARGIN if margin is None else parse_margin(margin)
    if isinstance(margin, str):
        return f"±{margin} of the mean win rate (a share of it)"
    return f"±{margin * 100:g} points of the mean win rate"


def rebalance_section(part: Part, scale: float, out: Path, fresh: bool = False,
                      console: Console | None = None, margin: float | str | None = None) -> Played:
    """`shamble rebalance` of the ruleset's standard game on the rules of its first section, at
    the report's scale (the game's own games per candidate and search budget, `rebalance_game.game_sizes`,
    times ``scale``), as a section: the proposal, before and after on fresh games, the search's
    chart and a verdict. Its key (``experiment_hash``) covers every cell of the game, the seed and
    games of the validation and the proposal (`rebalance_game.fingerprint`)."""
    from experiments.findings import Chart, Finding, Table
    from experiments.rebalance import rebalance as run_rebalance
    from experiments.rebalance_game import Settings, fingerprint, rebalance_game
    from experiments.rebalance_output import before_after, changes_table, search_chart, verdict_line
    from experiments.sweep import SweepResult

    base = part.sections[0].experiment.base
    game = rebalance_game(base)
    sized = {"games": max(10, round(game.games * scale)), "budget": round(game.budget * scale)}
    if isinstance(margin, float):  # the verdict's margin (rebalance takes points of rate, not a share)
        sized["margin"] = margin
    settings = Settings(**sized)
    done = run_rebalance(base, settings, out, fresh, console=console, show_progress=True)
    v, margin, word = done.validation, settings.margin, done.game.word
    spec = ReportSection("rebalance", "Rebalance: the costs that would make the sides fair",
                         f"`shamble rebalance` searched the {done.game.mode} costs of {done.game.title.lower()} "
                         f"(stochastic approximation on the same {settings.games} games per cell for every candidate, "
                         f"{done.search.games} games) and replayed its proposal on fresh games (seed {v.seed}).",
                         base, v.games_per_cell, {}, ())
    experiment = replace(experiment_of(done.game.pricing.game(base)), name="rebalance", games=v.games_per_cell,
                         seed=v.seed)  # the validation's games
    key = fingerprint(done.game, done.search.proposal, v.seed, v.games_per_cell)
    halfwidth = (v.after.table.high95 - v.after.table.low95) / 2
    result = SweepResult(out, pd.DataFrame(), pd.DataFrame({"halfwidth": halfwidth}),
                         {"experiment_hash": key}, len(done.game.cells), 0, base)
    section = Played(spec, experiment, View(word), result)
    changes = changes_table(done).drop(columns=["old_value", "new_value"])
    section.tables.append(Table(changes if len(changes) else pd.DataFrame({"proposal": ["no change"]}),
                                verdict_line(done)))
    ba = before_after(done)
    shown = pd.DataFrame({
        "side": ba.side, "fields before": ba.fields_before, "before": ba.rate_before.map(lambda r: f"{r:.1%}"),
        "fields after": ba.fields_after, "after": ba.rate_after.map(lambda r: f"{r:.1%}"),
        "95% CI after": [f"{a:.1%} - {b:.1%}" for a, b in zip(ba.ci_low_after, ba.ci_high_after)],
        f"within ±{margin * 100:g} after": ba.within_after})
    section.tables.append(Table(shown, f"On the fresh games the {word} rates spread from "
                                       f"{v.before.table.rate.min():.1%} - {v.before.table.rate.max():.1%} before to "
                                       f"{v.after.table.rate.min():.1%} - {v.after.table.rate.max():.1%} after."))
    section.figures.append(Chart("rebalance_search", search_chart(done),
                                 "Each line is a side's rate on the search's games at each candidate; the band is the "
                                 f"mean ± {margin * 100:g} points, a dot a side shown within it."))
    section.findings.append(Finding("proposed costs", v.passed, verdict_line(done)))
    return section


def _report_meta(meta: dict, parts: list[Part], scale: float, rates: dict, elapsed: float) -> dict:
    meta = {k: v for k, v in meta.items() if k not in ("experiment", "experiment_hash")} | {"finished": now()}
    return meta | {
        "scale": scale, "calibration_games_per_s": {k: round(v, 1) for k, v in rates.items()},
        "wall_s": round(elapsed, 1),
        "sections": {f"{p.ruleset.id}/{s.spec.key}": {
            "experiment_hash": s.result.meta["experiment_hash"], "seed": s.experiment.seed,
            "games_per_cell": s.experiment.games, "cells": len(s.experiment.cells()), "played_now": s.result.played,
            "max_halfwidth": round(float(s.result.summary.halfwidth.max()), 4)} | _sized(s)
            for p in parts for s in p.sections},
    }


def _sized(s: Played) -> dict:
    """How a section sized by its question (`experiments.sections`) came out: its target, the games
    its cells played and the widest half-width of its paired differences."""
    exp, cells = s.experiment, len(s.experiment.cells())
    fixed = {"size_text": f"{exp.games} games per cell, {cells} cells"}
    if exp.target_halfwidth is None or not len(s.result.results):
        return fixed
    played = int(s.result.results.groupby("cell").game.nunique().sum())
    paired = widest_paired(s.result.results, exp)
    what = QUESTION_WORDS[kind_of(s.spec)]
    return {"target_halfwidth": round(exp.target_halfwidth, 4), "outcome": exp.outcome, "games": played,
            "size_text": f"up to {exp.games} games per cell, each stopping once {what} is within "
                         f"±{exp.target_halfwidth * 100:.1f} points; {played} games in {cells} cells"} | \
        ({"max_paired_halfwidth": round(paired, 4)} if paired is not None else {})


QUESTION_WORDS = {"paired": "its paired difference from the reference", "cell": "each rate",
                  "sensitivity": "its change from the default"}


# ---------------------------------------------------------------------------- pages


def write_pages(folder: Path, parts: list[Part], meta: dict, drawn: dict | None = None) -> None:
    """index.html (self-contained), README.md, the figures (PNG + SVG), tables (CSV) and meta.json.
    ``drawn``: chart stem -> (PNG, SVG) already drawn (`draw`); the others are drawn here."""
    images, written, drawn = {}, set(), drawn or {}
    for part in parts:
        for s in part.sections:
            for f in s.figures:
                stem = f"{part.ruleset.id}_{f.name}"
                png, svg = drawn[stem] if stem in drawn else (charts.png_bytes(f.figure), None)
                written.update(charts.save(f.figure, folder / stem, png, svg))
                images[stem] = base64.b64encode(png).decode()
            for k, t in enumerate(s.tables):
                path = folder / f"{part.ruleset.id}_{s.spec.key}_table{k + 1}.csv"
                write_table(t.frame, path)
                written.add(path)
    remove_stale(folder, written)
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html"]),
                      trim_blocks=True, lstrip_blocks=True)
    context = {"parts": parts, "meta": meta, "images": images, "markdown": markdown_table}
    (folder / "index.html").write_text(env.get_template("report.html.j2").render(context))
    (folder / "README.md").write_text(env.get_template("report.md.j2").render(context))
    write_json(meta, folder / "meta.json")


STALE = ("*.png", "*.svg", "*_table*.csv")  # what write_pages writes at the top of a report folder


def remove_stale(folder: Path, written: set[Path]) -> list[Path]:
    """Delete the charts and tables an earlier report left in ``folder`` that this one did not
    write (a section or chart since renamed or dropped), so the folder holds only what its pages
    show; ``data/`` (the resumable sweeps) is never touched. Returns the files removed."""
    keep = {Path(p).resolve() for p in written}
    stale = sorted(p for pattern in STALE for p in folder.glob(pattern) if p.resolve() not in keep)
    for path in stale:
        path.unlink()
    return stale


def markdown_table(frame: pd.DataFrame) -> str:
    """A GitHub markdown table of a frame of text."""
    rows = [list(map(str, frame.columns))] + [[str(v) for v in row] for row in frame.itertuples(index=False)]
    lines = ["| " + " | ".join(r).replace("\n", " ") + " |" for r in rows]
    return "\n".join([lines[0], "|" + "---|" * len(frame.columns), *lines[1:]])


# ---------------------------------------------------------------------------- for notebooks


@dataclass
class Comparison:
    """The values of one axis played on the same games, each compared with a reference cell."""

    result: object | None  # the SweepResult (None: fewer than two playable cells)
    table: pd.DataFrame  # paired_table rows: label, player, name, rate, reference_rate, diff, ci, p, p_holm
    unplayable: dict[str, str]  # label -> why the cell cannot be played


def compare_cells(config, axis: str, values: list, out: Path, games: int = 2000, seed: int = 2024,
                  reference: str = "base", show_progress: bool = False) -> Comparison:
    """Play each value of ``axis`` (an experiment axis: ``"mods"``, a parameter...) on the same
    games and compare every cell with ``reference`` (its label, such as ``"base"``); cells that
    cannot be played are left out and listed in ``unplayable``."""
    from experiments.compare import paired_table
    from experiments.experiment import Axis, parse_axis
    from sim.ruleset import ruleset_of

    parsed = parse_axis(axis, list(values), config, Path.cwd())
    keep, unplayable = [], {}
    for value, label in zip(parsed.values, parsed.labels):
        try:
            ruleset_of(config).compile(Experiment("probe", config, 1, seed, (Axis(parsed.name, parsed.kind, (value,),
                                                                                  (label,)),)).cells()[0].config)
            keep.append((value, label))
        except ValueError as err:
            unplayable[label] = str(err)
    labels = tuple(label for _, label in keep)
    if reference not in labels or len(keep) < 2:
        return Comparison(None, pd.DataFrame(), unplayable)
    exp = Experiment(axis, config, games, seed, (Axis(parsed.name, parsed.kind, tuple(v for v, _ in keep), labels),))
    result = sweep(exp, out, show_progress=show_progress)
    return Comparison(result, paired_table(result.results, f"axis_{parsed.name}", reference), unplayable)
