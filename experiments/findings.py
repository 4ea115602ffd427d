"""What a report section played and what it found, and the words the findings are written in.

`Played` is a section being analysed (its spec, its sweep, the tables, charts and findings it
collects); `Finding` one line of the verdict; `View` how a ruleset speaks of its results. The
words (`rate_text`, `change_text`, `rate_interval`, `the` ...) follow `experiments.analyses`'
rules of writing (its docstring); `experiments.analyses` and `experiments.coop` both build on
this module, which imports neither.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pandas as pd

MARGIN = 0.03  # practical margin of the verdict: ±3 points of the mean win rate, as `shamble rebalance`'s


def parse_margin(value) -> float | str:
    """A fairness margin as `--margin` takes it: a number below 0.5 is points of rate (0.03 = ±3
    points), 'N%' is N% of the mean rate (20% at a 15% mean = ±3 points)."""
    text = str(value).strip()
    try:
        if text.endswith("%") and 0 < float(text[:-1]) < 100:
            return f"{float(text[:-1]):g}%"
        if not text.endswith("%") and 0 < float(text) < 0.5:
            return float(text)
    except ValueError:
        pass
    raise ValueError(f"--margin {value!r}; allowed: points of rate above 0 and below 0.5 (0.03 = ±3 points) or a "
                     "share of the mean rate (20%)")


def margin_points(margin, mean: float) -> float:
    """The margin in rate (0.03) at a mean rate: a relative margin ('20%') scales with the mean."""
    margin = parse_margin(margin)
    return float(margin[:-1]) / 100 * mean if isinstance(margin, str) else margin


def margin_words(margin, mean: float, word: str = "win") -> str:
    """'±3 points of the mean win rate (16%)', '±20% of the mean win rate (16%: ±3.2 points)'."""
    margin = parse_margin(margin)
    if isinstance(margin, str):
        return f"±{margin} of the mean {word} rate ({rate_text(mean)}: ±{margin_points(margin, mean) * 100:.1f} points)"
    return f"±{margin * 100:g} points of the mean {word} rate ({rate_text(mean)})"


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
class Finding:
    """One line of the verdict: are the ``what`` (factions, seats, ways of playing) fair?"""

    what: str
    fair: bool | None  # True: equivalent within the margin; False: one side outside it; None: cannot tell
    sentence: str
    kind: str = "fairness"  # "strength": which way of playing is strongest (a choice, not an unfairness);
    # a cooperative game's "winnable", "carry", "curve" (experiments.coop); "worth": does a cell pay (paired)
    word: str | None = None  # the verdict's word where it is not fair / not fair / not shown ("too hard")

    @property
    def label(self) -> str:
        """The verdict's word: fair, not fair, not shown; 'strongest' for ways of playing; a
        cooperative verdict's own word."""
        if self.word is not None:
            return self.word
        if self.kind == "strength":
            return "strongest"
        return {True: "fair", False: "not fair", None: "not shown"}[self.fair]


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
    findings: list[Finding] = field(default_factory=list)
    ratios: list[float] = field(default_factory=list)  # variance ratios of the paired comparisons made
    margin: float | str | None = None  # the report's --margin (None: the section's own, else MARGIN)
    band: tuple[float, float] | None = None  # the report's --band (None: coop.BAND, 30-70%)
    jump: float | None = None  # the report's --jump (None: coop.JUMP, 20 points)

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


def rate_text(rate: float) -> str:
    """1.4% for a small or large rate, 34% otherwise."""
    return f"{rate:.1%}" if rate < 0.1 or rate > 0.9 else f"{rate:.0%}"


def points_text(halfwidth: float) -> str:
    """±0.3 under a point, ±2 above."""
    size = halfwidth * 100
    return f"±{size:.1f}" if size < 1 else f"±{size:.0f}"


def change_text(before: float, after: float, low: float, high: float) -> str:
    """'from 1.4% to 0.2% (-1.2 points, 95% CI -1.6 to -0.8; -84%)'."""
    diff = after - before
    relative = ""
    if before > 0 and min(before, after) < 0.1:  # a small rate: the relative change too, or the factor
        relative = f"; {diff / before:+.0%}" if abs(diff / before) < 10 else f"; ×{after / before:.0f}"
    return (f"from {rate_text(before)} to {rate_text(after)} ({diff * 100:+.1f} points, 95% CI {low * 100:+.1f} "
            f"to {high * 100:+.1f}{relative})")


def points(diff: float, halfwidth: float, more: str = "more often", less: str = "less often") -> str:
    """'9 points less often (±3)', '0.3 points more often (±0.2)': a difference of rates in words."""
    size = abs(diff) * 100
    amount = f"{size:.1f}" if size < 1 else f"{size:.0f}"
    plural = "" if amount in ("1", "1.0") else "s"
    return f"{amount} point{plural} {more if diff >= 0 else less} ({points_text(halfwidth)})"


PEOPLE: set[str] = set()  # players named as people (Zombies!!!'s Ann, Ben, Cat): no article


def the(name: str) -> str:
    """A player named in a sentence: "the Marines", "the posse" (a name that has its article
    keeps it); a seat ("Seat 1") and a person (`PEOPLE`: "Cat") take none."""
    if name.lower().startswith("the ") or re.fullmatch(r"(seat|player|p)\s*\d+", name.strip(), re.I) \
            or name in PEOPLE:
        return name
    return f"the {name}"


def capital(text: str) -> str:
    """A sentence's first letter up ("the posse" -> "The posse"), the rest as it is."""
    return text[:1].upper() + text[1:]


def possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def rate_interval(rate: float, low: float, high: float) -> str:
    """'34% (±2)' in the middle; near 0 or 1, where the interval is lopsided, the interval itself:
    '0.4% (0.2%-0.9%)', never '0.4% (±0.3)'."""
    if rate < 0.1 or rate > 0.9:
        return f"{rate_text(rate)} ({pct(low)}-{pct(high)})"
    return f"{rate_text(rate)} ({points_text((high - low) / 2)})"


def pct(value: float) -> str:
    """0.143 -> '14.3%'."""
    return f"{value:.1%}"


def signed(value: float) -> str:
    """A change of rate in signed points: 0.012 -> '+1.2'."""
    return f"{value * 100:+.1f}"
