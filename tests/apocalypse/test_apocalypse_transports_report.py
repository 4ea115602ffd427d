"""The report's "Do transports pay for their points?" section (issue 32): the Ultramarines as they are
and with a Rhino carrying their Tactical Squad at the same points, stealth, paired on common games,
with a verdict line."""

from __future__ import annotations

from experiments.findings import Played, View
from experiments.report import analyse
from experiments.sections import experiment_of
from experiments.sweep import sweep
from sim.rulesets.apocalypse import report as RS
from sim.rulesets.apocalypse.config import POLICY_PRESETS
from sim.rulesets.apocalypse.ruleset import RULESET


def _section(scale: float):
    return {s.key: s for s in RS.report_sections(scale)}["transports"]


def test_the_transports_section_compares_the_same_army_with_and_without_its_rhino():
    spec = _section(1.0)
    assert spec.title == "Do transports pay for their points?"
    assert {p.policy for p in spec.base.players} == {POLICY_PRESETS["stealth"]}
    exp = experiment_of(spec)
    army, points = exp.axes
    assert army.labels == ("ultramarines", "ultramarines_rhino") and points.labels == (str(RS.RICH),)
    assert spec.options["reference"] == "ultramarines" and "paired" in spec.analyses
    fielded = {}
    for cell in exp.cells():
        config = cell[1] if isinstance(cell, tuple) else cell.config
        (seat,) = [p for p in config.players if p.name == RS.TRANSPORT_SEAT]
        fielded[seat.army.name] = [u.unit for u in seat.army.units]
        assert config.points_limit == RS.RICH
    with_rhino, without = fielded["Ultramarines with a Rhino"], fielded["Ultramarines"]
    assert with_rhino.count("Rhino") == 1 and "Rhino" not in without  # refitting never copies a transport
    assert with_rhino[with_rhino.index("Rhino") - 1] == "Tactical Marine"  # still bought with its squad
    total = sum(len(experiment_of(s).cells()) * s.games for s in RS.report_sections(1.0))
    assert len(exp.cells()) * spec.games <= total / 10  # modest, as the walkers section


def test_the_transports_section_plays_at_scale_0_and_gives_its_verdict(tmp_path):
    spec = _section(0)
    s = Played(spec, experiment_of(spec), View(RULESET.win_word))
    s.result = sweep(s.experiment, tmp_path / "transports", fresh=True)
    analyse(s)
    (table,) = s.tables
    assert "the Ultramarines with a Rhino" in table.frame.iloc[:, 0].tolist()
    assert "the Ultramarines as they are" in table.sentence
    (finding,) = s.findings
    assert finding.what == "transports" and finding.label in ("pays", "does not pay", "not shown")
    assert "with a Rhino in the Ultramarines the players" in finding.sentence
    assert "95% CI" in finding.sentence and f"same {spec.games} games" in finding.sentence
