"""The experiment a report section plays: its sweep, or its sensitivity experiment. The report plays
every section this way, and a rebalance plays a pricing's game (a section) on its cells."""

from __future__ import annotations

from pathlib import Path

from experiments.experiment import Experiment, parse_axes
from experiments.sensitivity import sensitivity_experiment
from sim.ruleset import ReportSection


def experiment_of(spec: ReportSection) -> Experiment:
    """The experiment a report section plays."""
    if "sensitivity" in spec.analyses:
        return sensitivity_experiment(spec.base, spec.games, spec.seed, spec.key, spec.options.get("enable"))
    return Experiment(spec.key, spec.base, spec.games, spec.seed, tuple(parse_axes(dict(spec.axes), spec.base,
                                                                                   Path.cwd())))
