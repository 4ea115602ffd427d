"""The report's budget by each section's question (experiments/sections.py): every section of every
ruleset keeps its games as the cap and gets the target of its kind; a paired section pairs each
cell with the cell its paired analysis compares it with; a sensitivity section each low and high
cell with its default cell. Builds the experiments only (nothing is played: tests/
test_experiment_sequential.py plays the rule)."""

from __future__ import annotations

import math

import pytest

from experiments import sections
from experiments.sensitivity import _cells
from sim.ruleset import all_rulesets

SECTIONS = [(rs.id, spec) for rs in all_rulesets() for spec in rs.report_sections(1.0)]


@pytest.mark.parametrize(("rid", "spec"), SECTIONS, ids=[f"{r}/{s.key}" for r, s in SECTIONS])
def test_each_section_is_sized_by_its_question_with_its_games_as_the_cap(rid, spec):
    exp = sections.experiment_of(spec, 1.0)
    plain = sections.experiment_of(spec)
    assert exp.games == spec.games == plain.games  # today's size is the cap
    assert [c.coords for c in exp.cells()] == [c.coords for c in plain.cells()]
    kind = sections.kind_of(spec)
    assert exp.target_halfwidth == spec.options.get("target", sections.TARGETS[kind])
    labels = {c.label for c in exp.cells()}
    pairs = dict(exp.pairs)
    assert set(pairs) <= labels and set(pairs.values()) <= labels
    if kind == "paired":  # every cell but the reference's, against the reference
        axis, reference = exp.axes[0].name, str(spec.options["reference"])
        others = {c.label for c in exp.cells() if dict(c.coords)[axis] != reference}
        assert set(pairs) == others
        assert {dict(c.coords)[axis] for c in exp.cells() if c.label in pairs.values()} == {reference}
        assert exp.outcome == ("anyone" if spec.options.get("who") and "carry" not in spec.analyses else "seats")
    elif kind == "sensitivity":  # each low and high cell against its own default cell
        expected = {}
        for _, _, prefix, low, high in _cells(exp):
            default = f"params={prefix}:default" if prefix else "params=base"
            expected |= {f"params={low}": default, f"params={high}": default}
        assert pairs == expected
        assert exp.outcome == spec.options.get("measure", "anyone")
    else:
        assert not pairs
        assert exp.outcome == ("anyone" if spec.options.get("who") and "carry" not in spec.analyses else "seats")


def test_targets_widen_as_a_fixed_size_would_at_a_smaller_scale():
    rid, spec = SECTIONS[0]
    assert sections.target_of(spec, 0.25) == pytest.approx(sections.target_of(spec, 1.0) / math.sqrt(0.25))
    assert sections.target_of(spec, 1e-6) < 0.5  # an allowed target at any scale


def test_a_sized_section_has_other_cell_keys_than_the_fixed_one():
    rid, spec = next((r, s) for r, s in SECTIONS if sections.kind_of(s) == "paired")
    sized, plain = sections.experiment_of(spec, 1.0), sections.experiment_of(spec)
    assert sized.rule and not plain.rule
    assert sized.fingerprint() != plain.fingerprint()
    assert {c.key for c in sized.cells()}.isdisjoint(c.key for c in plain.cells())  # no checkpoint mixes them
