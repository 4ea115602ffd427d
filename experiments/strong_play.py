"""The report's section "Under stronger play" (issue 28 item 3): does a verdict survive tuned play?

Per ruleset, on the report's base game (its first section's base config: the game the fairness
sections play; standalone, ``Ruleset.example_config()``), at the report's scale:

- **Sides.** A game whose winner never names a player in the first ``PROBE_GAMES`` games
  (`experiments.tune_search.shared_words`: Out West's "posse", Zombie Apocalypse's "players") is
  cooperative: its one side is that shared win, every seat on one policy. Otherwise it is
  competitive and every player is a side (Zombie 40,000, Zombies!!!).
- **Tuned play.** Cooperative: `experiments.tune.run_tune` of the side. Competitive: one round of
  best responses in turn (`experiments.tune_rounds.run_best_responses`): each player tunes
  against the others' current policies and adopts the result only when it PASSED. The search
  plays a few policy fields that matter (``FIELDS``; a ruleset not listed: every field) with a
  small budget (``BUDGET`` games per tune at scale 1, about ``GENERATIONS`` generations of cma);
  each tuned policy is validated on fresh games as ``shamble tune`` does (PASSED / NOT BETTER).
- **Rates.** On ``FRESH`` games of seed ``SEED + 1`` (no search plays them), per side: the rate
  with the side on the ``random`` policy preset (random-legal play; a ruleset without that preset
  says "no random-legal baseline"), on the config as given ("default") and on the tuned policy
  the search found, the other sides on their default; each with its Wilson 95% interval, and the
  skill gaps tuned - random and tuned - default paired on the same games (Tango's interval,
  `experiments.stats.paired_difference`).
- **Verdicts.** Competitive: the fairness of the seats (and of the factions, where the players
  field different teams) judged by the fairness sections' own test (`experiments.analyses.
  equivalence`, two one-sided tests against the report's margin, ±3 points by default) on the
  standings of the config as given and after the round (every side on its adopted policy).
  Cooperative: whether the side's rate moves by more than the margin from default to tuned play
  (the paired uplift's interval wholly beyond it), stays within it (wholly inside) or neither;
  and the "winnable" verdict of `experiments.coop` (the rate's 95% interval against the target
  band, ``--band``) judged again on the fresh games under default and under tuned play.

Sizes are games, never measured speeds, times ``scale`` (at least ``MIN_FRESH`` fresh games and
``MIN_CANDIDATE`` games per candidate); at scale 1 the four rulesets play about 30,000 games
(48 s on 2 shared cores at a load of 8, compiled kernels: Out West 8, Apocalypse 6, Zombie
40,000 10, Zombies!!! 24).
The tunes are checkpointed in the section's folder (a rerun resumes them); the fresh games are
replayed.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from rich.console import Console

from experiments.analyses import _verdict_of, equivalence
from experiments.coop import BAND, band_verdict, band_words
from experiments.findings import (
    MARGIN,
    Finding,
    Played,
    Table,
    View,
    margin_points,
    margin_words,
    pct,
    possessive,
)
from experiments.stats import paired_difference, wilson_interval
from experiments.tune_search import CANDIDATES, PROBE_GAMES, Side, shared_words, team_of, with_side_policy
from experiments.tune_space import TuneError
from sim.play import play
from sim.ruleset import ReportSection, Ruleset, rules_version

KEY = "strong_play"
TITLE = "Under stronger play"
SEED = 2028  # the searches' seed; the fresh games play SEED + 1
RANDOM = "random"  # the policy preset of random-legal play
FIELDS = {  # the fields searched per ruleset: a few of those its presets differ in (chosen by hand); others: all
    "outwest": ("fight_in_contact", "keep_away_in", "fire_fraction"),
    "zombie40k": ("run", "target", "pvp", "charge"),
    "zombies9": ("goal", "fight_steps", "hunt"),
    "apocalypse": ("plan", "run", "shoot"),
}
BUDGET = {"outwest": 3000, "zombie40k": 1200, "zombies9": 900, "apocalypse": 1600}  # games of search per tune
FRESH = {"outwest": 1000, "zombie40k": 500, "zombies9": 300, "apocalypse": 500}  # fresh games per rate
DEFAULT_BUDGET, DEFAULT_FRESH = 1000, 400
GENERATIONS = 4  # games per candidate: about the budget over this many generations
MIN_FRESH, MIN_CANDIDATE = 20, 10


# ---------------------------------------------------------------------------- sizes and sides


@dataclass(frozen=True)
class Sizes:
    budget: int  # games of search per tune
    games: int  # games per candidate
    fresh: int  # fresh games per rate (and per validation)


def sizes(ruleset_id: str, scale: float, popsize: int) -> Sizes:
    """The section's sizes at ``scale`` (module docstring)."""
    budget = BUDGET.get(ruleset_id, DEFAULT_BUDGET) * scale
    games = max(MIN_CANDIDATE, round(budget / (GENERATIONS * popsize)))
    fresh = max(MIN_FRESH, round(FRESH.get(ruleset_id, DEFAULT_FRESH) * scale))
    return Sizes(max(round(budget), 2 * games), games, fresh)


def sides_of(config, seed: int) -> tuple[str, list[Side]]:
    """("cooperative", [the shared win]) or ("competitive", [each player]) (module docstring); a
    cooperative game whose shared win no probe shows has no side: ("cooperative", [])."""
    names = [p.name for p in config.players]
    rows = play(config, PROBE_GAMES, seed)
    if any(w in names for w in rows.game_winner.to_numpy()[:: len(names)]):
        return "competitive", [Side(n, (k,), "player") for k, n in enumerate(names)]
    words = shared_words(config, seed) or shared_words(config, seed, wanted="")  # "": every preset probed
    return "cooperative", [Side(w, tuple(range(len(names))), "shared") for w in words[:1]]


def fields_of(ruleset: Ruleset, config) -> tuple[str, ...] | None:
    """The fields searched: ``FIELDS``' that the policy has; None: every field."""
    from dataclasses import fields as dc_fields
    from dataclasses import is_dataclass

    policy = config.players[0].policy
    have = {f.name for f in dc_fields(policy)} if is_dataclass(policy) else set()
    chosen = tuple(f for f in FIELDS.get(ruleset.id, ()) if f in have)
    return chosen or None


def random_policy(ruleset: Ruleset):
    """The ruleset's random-legal preset, or None."""
    return ruleset.policy_presets().get(RANDOM)


# ---------------------------------------------------------------------------- the rows


@dataclass
class SideRates:
    """One side's fresh games under each play (bool arrays; ``random`` None without the preset)."""

    side: str
    default: np.ndarray
    tuned: np.ndarray
    random: np.ndarray | None
    verdict: str  # the tune's PASSED / NOT BETTER
    changed: dict = field(default_factory=dict)  # field -> {"default", "tuned"}
    uplift: dict = field(default_factory=dict)  # the tune's own validation: diff, low, high, games
    seed: int | None = None  # ... and its seed


def _seat_outcomes(config, games: int, seed: int) -> np.ndarray:
    """bool[games, players]: each player's ``won``."""
    return play(config, games, seed).won.to_numpy().reshape(games, len(config.players))


def _seat_policy(config, seat: int, policy):
    return with_side_policy(config, Side("", (seat,), "player"), policy)


# ---------------------------------------------------------------------------- playing


@dataclass
class Strong:
    """What the section played: the kind, the sizes, each side's rates, and (competitive) the
    standings before and after the round of best responses."""

    ruleset: Ruleset
    config: object
    kind: str
    sizes: Sizes
    fields: tuple[str, ...] | None
    rows: list[SideRates]
    standings: pd.DataFrame | None = None  # round, player, rate (tune_rounds' table)
    note: str = ""  # why nothing was tuned, if so
    seconds: float = 0.0


def play_strong(ruleset: Ruleset, scale: float, out: Path | None, fresh: bool = False,
                console: Console | None = None, config=None, progress: bool = False) -> Strong:
    """Tune and replay ``config`` (the report's base game; None: the example config)."""
    from experiments.tune_search import cma_popsize
    from experiments.tune_space import parse_fields, policy_space

    started = time.perf_counter()
    config = ruleset.example_config() if config is None else config
    chosen = fields_of(ruleset, config)
    kind, sides = sides_of(config, SEED)
    try:
        dims = policy_space(ruleset, config.players[0].policy, parse_fields(list(chosen) if chosen else None))
    except TuneError as err:
        return Strong(ruleset, config, kind, sizes(ruleset.id, scale, 2), chosen, [], note=str(err))
    size = sizes(ruleset.id, scale, cma_popsize(dims, SEED))
    if not sides:
        return Strong(ruleset, config, kind, size, chosen, [], note="no shared win was seen in the probe games under "
                      "any policy preset, so there is no side to tune")
    settings = {"fields": list(chosen) if chosen else None, "seed": SEED, "resume": not fresh, "progress": progress,
                "games": size.games, "validate_games": size.fresh, "console": console}
    try:
        if kind == "cooperative":
            rows, standings = [_cooperative(ruleset, config, sides[0], size, out, settings)], None
        else:
            rows, standings = _competitive(ruleset, config, size, out, settings)
    except ValueError as err:  # a tune refused (a policy file layout, a policy the ruleset cannot read back)
        return Strong(ruleset, config, kind, size, chosen, [], note=f"the tune stopped: {err}")
    return Strong(ruleset, config, kind, size, chosen, rows, standings, seconds=time.perf_counter() - started)


def _cooperative(ruleset: Ruleset, config, side: Side, size: Sizes, out: Path | None, settings: dict) -> SideRates:
    from experiments.tune import run_tune

    games: dict = {}
    info = run_tune(config, side.name, size.budget, out_dir=None if out is None else out / "tune",
                    validate_seed=SEED + 1, outcomes=games, **settings)
    rnd = random_policy(ruleset)
    random = None
    if rnd is not None:
        from experiments.tune_search import side_outcomes

        random = side_outcomes(with_side_policy(config, side, rnd), size.fresh, SEED + 1, side)
    return SideRates(side.name, games["default"], games["tuned"], random, info["verdict"], info["changed"],
                     info["uplift"], info["validation"]["seed"])


def _competitive(ruleset: Ruleset, config, size: Sizes, out: Path | None, settings: dict):
    """One round of best responses; each side's fresh rates against the others' default."""
    from experiments.tune_rounds import run_best_responses

    rounds = run_best_responses(config, 1, size.budget, out_dir=None if out is None else out / "rounds",
                                **settings)
    from experiments.sweep import at_once

    seed, games = rounds["standings_seed"], rounds["standings_games"]
    rnd = random_policy(ruleset)
    tuned = [_seat_policy(config, k, ruleset.policy_from(tune["tuned_policy"], f"the tuned policy of {p.name}"))
             for k, (p, tune) in enumerate(zip(config.players, rounds["tunes"]))]
    randoms = [] if rnd is None else [_seat_policy(config, k, rnd) for k in range(len(config.players))]
    # every config on the same fresh games, two at a time (`experiments.sweep.at_once`): each its own games
    default, *played = at_once([(_seat_outcomes, c, games, seed) for c in (config, *tuned, *randoms)])
    rows = []
    for k, (p, tune) in enumerate(zip(config.players, rounds["tunes"])):
        random = None if rnd is None else played[len(tuned) + k][:, k]
        rows.append(SideRates(p.name, default[:, k], played[k][:, k], random, tune["verdict"], tune["changed"],
                              tune["uplift"], tune["validation"]["seed"]))
    return rows, pd.DataFrame(rounds["table"])


# ---------------------------------------------------------------------------- words and tables


def _rate(out: np.ndarray | None) -> str:
    if out is None:
        return "-"
    low, high = wilson_interval(int(out.sum()), out.size)
    return f"{pct(out.mean())} ({pct(float(low))}-{pct(float(high))})"


def _gap(a: np.ndarray, b: np.ndarray | None) -> str:
    if b is None:
        return "no random-legal baseline"
    d = paired_difference(a, b)
    return f"{d.diff * 100:+.1f} ({d.low * 100:+.1f} to {d.high * 100:+.1f})"


def _verdict_cell(r: SideRates) -> str:
    """The tune's verdict with the evidence it was judged on: its own validation games."""
    if not r.uplift:
        return r.verdict
    u = r.uplift
    return (f"{r.verdict}: {u['diff'] * 100:+.1f} ({u['low'] * 100:+.1f} to {u['high'] * 100:+.1f}) on "
            f"{u['games']:,} games of seed {r.seed}")


def rates_table(strong: Strong, word: str) -> pd.DataFrame:
    """Per side: random-legal, default and tuned rates with intervals, the two gaps, the verdict."""
    return pd.DataFrame([{
        "side": r.side, f"random-legal {word} rate": _rate(r.random) if r.random is not None else
        "no random-legal baseline", f"default {word} rate": _rate(r.default), f"tuned {word} rate": _rate(r.tuned),
        "tuned - random (points)": _gap(r.tuned, r.random), "tuned - default (points)": _gap(r.tuned, r.default),
        "tune on fresh games": _verdict_cell(r),
        "fields changed": ", ".join(f"{k} {v['default']} -> {v['tuned']}" for k, v in r.changed.items()) or "none",
    } for r in strong.rows])


def rates_sentence(strong: Strong, word: str) -> str:
    """What the table says, honestly: which tunes beat the default, how big the skill gaps are."""
    passed = [r.side for r in strong.rows if r.verdict == "PASSED"]
    n = len(strong.rows)
    budget = (f"{strong.sizes.budget:,} games of search per tune ({strong.sizes.games} per candidate; fields "
              f"{', '.join(strong.fields) if strong.fields else 'all'})")
    if not passed:
        head = (f"With {budget}, tuning did not beat the default policy of any side on fresh games: at this budget "
                "the default stands as the strongest play found, and a larger --scale buys a longer search.")
    else:
        others = n - len(passed)
        head = (f"With {budget}, tuning beat the default on fresh games for {', '.join(passed)}"
                f"{'' if not others else f'; not for the other {others} side' + 's' * (others > 1)}.")
    gaps = []
    for r in strong.rows:
        if r.random is not None:
            d = paired_difference(r.tuned, r.random)
            gaps.append(f"{r.side} {d.diff * 100:+.1f} points ({d.low * 100:+.1f} to {d.high * 100:+.1f})")
    skill = (f" Skill gap, tuned over random-legal play: {'; '.join(gaps)}." if gaps else
             " This ruleset has no random policy preset: no random-legal baseline, so no tuned - random gap.")
    judged = (" Each tune is judged on its own validation games (the last column: the paired uplift, a seed of its "
              "own, the other players on the policies they held at that point of the round), so a PASSED tune's "
              "gap over the default in the rate columns, where every other player plays as given, may be smaller."
              if strong.kind == "competitive" else " The tune is judged on these same games (the last column).")
    return (f"{head}{skill} Rates on {strong.sizes.fresh} fresh games (seed {SEED + 1}) with their 95% intervals; "
            f"gaps are paired on the same games. A NOT BETTER tune's column is the search's best, not shown better "
            f"than the default ({word} rate).{judged}")


def fairness(strong: Strong, margin, word: str) -> tuple[pd.DataFrame, list[Finding]]:
    """Competitive: the seats' (and factions') verdicts before and after the round of best
    responses, by the fairness sections' test."""
    table, findings, rows = strong.standings, [], []
    games = strong.sizes.fresh
    teams = [team_of(p) for p in strong.config.players]
    groups = [("seats", [f"seat {k + 1}" for k in range(len(teams))])]
    if None not in teams and len(set(teams)) > 1:  # the players field different teams
        groups.append(("factions", teams))
    for what, labels in groups:
        verdicts = {}
        for round_, label in ((0, "default play"), (1, "tuned play")):
            rates = table[table["round"] == round_].rate.to_numpy()
            wins = pd.Series(np.rint(rates * games), index=labels).groupby(level=0, sort=False).sum()
            n = pd.Series(games, index=labels).groupby(level=0, sort=False).sum()
            eq = equivalence(wins / n, wins, n, margin)
            verdicts[label] = _verdict_of(eq, what, margin, word)
        before, after = verdicts["default play"], verdicts["tuned play"]
        rows.append({"judged": what, "default play": before.label, "tuned play": after.label,
                     "same verdict": "yes" if before.label == after.label else "no"})
        alone = " Each faction holds one seat here: the same games as the seats." \
            if what == "factions" and len(set(labels)) == len(labels) else ""
        findings.append(Finding(f"{what} under tuned play", after.fair,
                                f"Under tuned play (one round of best responses): {after.sentence} "
                                f"(Default play: {before.label}.){alone}"))
    return pd.DataFrame(rows), findings


def headline(strong: Strong, margin, word: str) -> str:
    """Cooperative: does the side's rate move by more than the margin from default to tuned play?"""
    r = strong.rows[0]
    d = paired_difference(r.tuned, r.default)
    m = margin_points(margin, float(r.default.mean()))
    limits = margin_words(margin, float(r.default.mean()), word).replace("of the mean", "of the default")
    if d.low > m or d.high < -m:
        verdict = f"moves by more than {limits}: the section's headline does not survive stronger play"
    elif -m < d.low and d.high < m:
        verdict = f"stays within {limits}: the headline survives stronger play"
    else:
        verdict = f"is not shown to move by more than {limits}, nor to stay within it; more games would tell"
    who = possessive("the " + r.side).capitalize()
    return (f"{who} {word} rate goes from {pct(r.default.mean())} (default) to {pct(r.tuned.mean())} "
            f"(tuned), {d.diff * 100:+.1f} points (95% CI {d.low * 100:+.1f} to {d.high * 100:+.1f}): it {verdict}.")


def _band_of(games: np.ndarray, band: tuple[float, float]) -> str:
    low, high = (float(x) for x in wilson_interval(int(games.sum()), games.size))
    return band_verdict(low, high, band)


def winnable_again(strong: Strong, band: tuple[float, float] | None, word: str) -> Finding:
    """Cooperative: the winnable verdict (`experiments.coop.winnable`) under default and tuned play."""
    band = band or BAND
    r = strong.rows[0]
    before, after = _band_of(r.default, band), _band_of(r.tuned, band)
    holds = "holds under tuned play" if before == after else "changes under tuned play"
    sentence = (f"Winnable under stronger play (the report's base game): {after}. Against the target band "
                f"{band_words(band)} (--band), {possessive('the ' + r.side)} {word} rate is {before} under default "
                f"play ({_rate(r.default)}) and {after} under tuned play ({_rate(r.tuned)}): the verdict {holds}.")
    return Finding("winnable under stronger play", None, sentence, kind="winnable", word=after)


def headline_table(strong: Strong, margin, word: str) -> pd.DataFrame:
    """Cooperative: the side's rate default and tuned, the paired change, beyond the margin or not."""
    r = strong.rows[0]
    d = paired_difference(r.tuned, r.default)
    m = margin_points(margin, float(r.default.mean()))
    beyond = "yes" if d.low > m or d.high < -m else "no" if -m < d.low and d.high < m else "not shown"
    return pd.DataFrame({"side": [r.side], f"default {word} rate": [_rate(r.default)],
                         f"tuned {word} rate": [_rate(r.tuned)],
                         "tuned - default (points)": [_gap(r.tuned, r.default)],
                         f"moves by more than ±{m * 100:.1f} points": [beyond]})


# ---------------------------------------------------------------------------- the section


def key_of(strong: Strong) -> str:
    from experiments.experiment import canonical_config

    text = json.dumps([KEY, canonical_config(strong.config), strong.sizes.__dict__, strong.fields, SEED,
                       rules_version(strong.ruleset.id)], default=str)
    return hashlib.blake2b(text.encode(), digest_size=10).hexdigest()


def strong_play_section(ruleset: Ruleset, scale: float, out: Path | None, fresh: bool = False,
                        console: Console | None = None, margin=None, config=None,
                        band: tuple[float, float] | None = None) -> Played:
    """The section (module docstring) as a played report section."""
    console = console or Console(stderr=True)
    resumed = was_played(out, fresh)
    strong = play_strong(ruleset, scale, out, fresh, console, config, progress=console.is_terminal)
    return section_of(strong, out, resumed, margin, band)


def was_played(out: Path | None, fresh: bool = False) -> bool:
    """Whether the section's folder holds tunes that a rerun resumes (their search's checkpoints)."""
    return out is not None and not fresh and any(Path(out).rglob(CANDIDATES))


def section_of(strong: Strong, out: Path | None, resumed: bool, margin=None,
               band: tuple[float, float] | None = None) -> Played:
    """What `play_strong` played, as a report section: its tables and verdicts (no games played
    here; `strong_play_section` plays and writes it in one call)."""
    from experiments.experiment import Experiment
    from experiments.sweep import SweepResult

    ruleset = strong.ruleset
    margin = MARGIN if margin is None else margin
    word = ruleset.win_word
    who = "every player tunes in turn against the others (one round of best responses)" \
        if strong.kind == "competitive" else "the side every seat plays for tunes one policy for all its seats"
    spec = ReportSection(KEY, TITLE, f"Does a verdict survive stronger play? On the report's base game {who}; each "
                         f"side's {word} rate under random-legal play, as given (default) and on the policy `shamble "
                         "tune` found on other games, each tune checked on fresh games (PASSED / NOT BETTER).",
                         strong.config, strong.sizes.fresh, {}, ())
    experiment = Experiment(KEY, strong.config, strong.sizes.fresh, SEED + 1, ())
    halfwidth = [float(np.diff(wilson_interval(int(r.tuned.sum()), r.tuned.size), axis=0)[0]) / 2
                 for r in strong.rows] or [0.0]
    result = SweepResult(out, pd.DataFrame(), pd.DataFrame({"halfwidth": halfwidth}),
                         {"experiment_hash": key_of(strong)}, int(not resumed), int(resumed), strong.config)
    section = Played(spec, experiment, View(word), result, margin=margin)
    if not strong.rows:
        section.tables.append(Table(pd.DataFrame({"side": ["-"], "why not tuned": [strong.note]}),
                                    f"Nothing tuned: {strong.note}."))
        return section
    section.tables.append(Table(rates_table(strong, word), rates_sentence(strong, word)))
    if strong.kind == "competitive":
        table, findings = fairness(strong, margin, word)
        section.findings += findings
        section.tables.append(Table(table, " ".join(f.sentence for f in findings)))
    else:
        again = winnable_again(strong, band, word)
        section.findings.append(again)
        section.tables.append(Table(headline_table(strong, margin, word),
                                    headline(strong, margin, word) + " " + again.sentence))
    return section


def plan_line(ruleset: Ruleset, scale: float) -> str:
    """The section's line of the report's printed plan."""
    budget = round(BUDGET.get(ruleset.id, DEFAULT_BUDGET) * scale)
    fresh = max(MIN_FRESH, round(FRESH.get(ruleset.id, DEFAULT_FRESH) * scale))
    return f"  {ruleset.id + ' ' + KEY:<24} {budget:>5} games of search per tune, {fresh} fresh games per rate"
