"""The experiment a report section plays: its sweep, or its sensitivity experiment. The report plays
every section this way, and a rebalance plays a pricing's game (a section) on its cells.

**Sized by its question.** A section's ``games`` is the cap per cell; each cell stops as soon as the
interval of the question the section answers is narrow enough (`experiments.sequential`): a section
that compares cells with a reference on the same games (``"paired"``) by the half-width of each
paired difference it reports; a sensitivity section by the interval of each number's change from its
default; any other (a fairness grid, a curve over a value) by the Wilson half-width of each cell's
rates. The outcome read is each seat's win, or the side's (anyone wins) where the section compares a
side (option ``who``) and does not also ask which seat carries it (``carry``). ``TARGETS`` are those
half-widths at scale 1; at scale ``s`` they are divided by ``sqrt(s)``, as a fixed size's intervals
would be. A section's ``options["target"]`` overrides its kind's.
"""

from __future__ import annotations

import math
from pathlib import Path

from experiments.experiment import Experiment, parse_axes
from experiments.sensitivity import sensitivity_experiment, sensitivity_pairs
from sim.ruleset import ReportSection

TARGETS = {"paired": 0.02, "sensitivity": 0.03, "cell": 0.025}  # 95% half-widths at scale 1


def kind_of(spec: ReportSection) -> str:
    """Which question sizes the section: ``paired``, ``sensitivity`` or ``cell``."""
    if "sensitivity" in spec.analyses:
        return "sensitivity"
    return "paired" if "paired" in spec.analyses else "cell"


def target_of(spec: ReportSection, scale: float = 1.0) -> float:
    """The section's target half-width at ``scale`` (module docstring), below 0.5 (the loosest, 0.49,
    at scale 0: the suite's smallest sizes, as the ruleset contract builds them)."""
    target = spec.options.get("target", TARGETS[kind_of(spec)])
    return min(0.49, target / math.sqrt(scale)) if scale > 0 else 0.49


def experiment_of(spec: ReportSection, scale: float | None = None) -> Experiment:
    """The experiment a report section plays; with ``scale``, sized by its question (module
    docstring): ``spec.games`` is then the cap per cell."""
    if "sensitivity" in spec.analyses:
        exp = sensitivity_experiment(spec.base, spec.games, spec.seed, spec.key, spec.options.get("enable"))
    else:
        exp = Experiment(spec.key, spec.base, spec.games, spec.seed, tuple(parse_axes(dict(spec.axes), spec.base,
                                                                                     Path.cwd())))
    if scale is None:
        return exp
    kind = kind_of(spec)
    # a side's rate where the section compares a side (``who``), unless it also says who carries the side
    # (``carry``: each seat's share, so each seat's rate is the question too)
    who = bool(spec.options.get("who")) and "carry" not in spec.analyses
    if kind == "sensitivity":
        pairs, outcome = sensitivity_pairs(exp), spec.options.get("measure", "anyone")
    elif kind == "paired":
        pairs, outcome = reference_pairs(exp, str(spec.options["reference"])), "anyone" if who else "seats"
    else:
        pairs, outcome = (), "anyone" if who else "seats"
    return Experiment(exp.name, exp.base, exp.games, exp.seed, exp.axes, exp.description, target_of(spec, scale),
                      tuple(pairs), outcome)


def reference_pairs(exp: Experiment, reference: str) -> list[tuple[str, str]]:
    """(cell label, its reference's label): each cell against the cell with ``reference`` on the
    first axis and the same values on the others (the paired analysis' comparisons)."""
    cells = exp.cells()
    by_coords = {c.coords: c.label for c in cells}
    pairs = []
    for c in cells:
        (axis, value), rest = c.coords[0], c.coords[1:]
        ref = by_coords.get(((axis, reference), *rest))
        if value != reference and ref is not None:
            pairs.append((c.label, ref))
    return pairs
