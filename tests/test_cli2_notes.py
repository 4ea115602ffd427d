"""Beside every table of paired comparisons: the intervals are unadjusted, the stars Holm-adjusted
(issue 29, item 10), and cells that are the same games are named once."""

from __future__ import annotations

import numpy as np
import pandas as pd

from experiments import analyses
from experiments.findings import Played, View
from experiments.stats import TABLE_NOTE


def _section(outcomes: dict, options: dict) -> Played:
    frames = [pd.DataFrame({"cell": label, "axis_mods": label, "game": np.arange(len(won)), "player": 0,
                            "name": "Solo", "won": won, "turns": 10}) for label, won in outcomes.items()]
    spec = type("Spec", (), {"key": "s", "options": options})()
    experiment = type("Exp", (), {"axes": [type("Axis", (), {"name": "mods"})()]})()
    result = type("R", (), {"results": pd.concat(frames, ignore_index=True)})()
    return Played(spec, experiment, View("win"), result)


def test_a_paired_table_says_its_intervals_are_unadjusted_and_names_twins_once():
    rng = np.random.default_rng(4)
    base = rng.random(1500) < 0.4
    a = base.copy()
    a[:60] = ~a[:60]
    s = _section({"base": base, "tenacity": a, "p8_choice": a.copy()}, {"reference": "base"})
    analyses.paired(s)
    sentence = s.tables[0].sentence
    assert TABLE_NOTE in sentence and "unadjusted" in TABLE_NOTE and "Holm" in TABLE_NOTE
    assert "p8_choice plays the same games as tenacity (counted once in Holm's family)" in sentence


def test_a_head_to_head_says_it_too():
    rng = np.random.default_rng(5)
    base = rng.random(800) < 0.4
    s = _section({"base": base, "other": rng.random(800) < 0.45}, {"pair": ("other", "base")})
    analyses.head_to_head(s)
    assert TABLE_NOTE in s.tables[0].sentence


def test_each_comparison_shows_its_own_variance_ratio_and_no_median():
    """Item 9: the report's 'median variance ratio' mixed unlike comparisons; each row of a paired
    table now carries its own ratio, and the method note says sizes are planned as independent."""
    from experiments.report import PAIRING_NOTE, Part, method_notes

    rng = np.random.default_rng(6)
    base = rng.random(1500) < 0.4
    near = base.copy()
    near[:50] = ~near[:50]
    s = _section({"base": base, "near": near, "same": base.copy()}, {"reference": "base"})
    analyses.paired(s)
    frame = s.tables[0].frame.set_index("mods")
    expected = float(np.var(near.astype(float) - base) / (np.var(near.astype(float)) + np.var(base.astype(float))))
    assert frame.loc["near", "variance ratio"] == f"{expected:.2f}" and frame.loc["same", "variance ratio"] == "-"
    s.experiment.cells = lambda: []
    notes = method_notes(Part(ruleset=None, sections=[s]))
    assert PAIRING_NOTE in notes and "as if the cells were independent" in PAIRING_NOTE
    assert not any("median" in note for note in notes)
