"""The report's "Do walkers pay for their points?" section (issue 32): the Black Legion as it is and
with a Helbrute at the same points, stealth, paired on common games, with a verdict line."""

from __future__ import annotations

from experiments.findings import Played, View
from experiments.report import analyse
from experiments.sections import experiment_of
from experiments.sweep import sweep
from sim.rulesets.apocalypse import report as RS
from sim.rulesets.apocalypse.config import POLICY_PRESETS
from sim.rulesets.apocalypse.ruleset import RULESET


def _section(scale: float):
    return {s.key: s for s in RS.report_sections(scale)}["walkers"]


def test_the_walkers_section_compares_the_same_army_with_and_without_its_helbrute():
    spec = _section(1.0)
    assert spec.title == "Do walkers pay for their points?"
    assert {p.policy for p in spec.base.players} == {POLICY_PRESETS["stealth"]}  # as every judging section
    exp = experiment_of(spec)
    army, points = exp.axes
    assert army.labels == ("black_legion", "black_legion_helbrute") and points.labels == (str(RS.RICH),)
    assert spec.options["reference"] == "black_legion" and "paired" in spec.analyses
    fielded = {}
    for cell in exp.cells():
        config = cell[1] if isinstance(cell, tuple) else cell.config
        (legion,) = [p for p in config.players if p.name == RS.WALKER_SEAT]
        fielded[legion.army.name] = {u.unit for u in legion.army.units}
        assert config.points_limit == RS.RICH
    assert "Helbrute" in fielded["Black Legion with a Helbrute"] and "Helbrute" not in fielded["Black Legion"]
    # modest: its games (two cells) are under a tenth of the Apocalypse part of the report
    total = sum(len(experiment_of(s).cells()) * s.games for s in RS.report_sections(1.0))
    assert len(exp.cells()) * spec.games <= total / 10


def test_the_walkers_section_plays_at_scale_0_and_gives_its_verdict(tmp_path):
    spec = _section(0)
    s = Played(spec, experiment_of(spec), View(RULESET.win_word))
    s.result = sweep(s.experiment, tmp_path / "walkers", fresh=True)
    analyse(s)
    (table,) = s.tables
    assert "the Black Legion with a Helbrute" in table.frame.iloc[:, 0].tolist()
    assert "the Black Legion as it is" in table.sentence  # the reference the changes are against
    (finding,) = s.findings
    assert finding.what == "walkers" and finding.label in ("pays", "does not pay", "not shown")
    assert "with a Helbrute in the Black Legion the players" in finding.sentence
    assert "95% CI" in finding.sentence and f"same {spec.games} games" in finding.sentence


