"""The report's two vehicle sections (issue 32): "Do walkers pay for their points?" (the Black Legion
as it is and with a Helbrute) and "Do transports pay for their points?" (the Ultramarines as they are
and with a Rhino carrying their Tactical Squad), each at the same points, stealth, paired on common
games, with a verdict line."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from experiments.findings import Played, View
from experiments.report import analyse
from experiments.sections import experiment_of
from experiments.sweep import sweep
from sim.rulesets.apocalypse import report as RS
from sim.rulesets.apocalypse.config import POLICY_PRESETS
from sim.rulesets.apocalypse.ruleset import RULESET


class Vehicle(NamedTuple):
    key: str
    noun: str  # the section's question: "Do {noun} pay for their points?"
    seat: str  # the seat whose army gains the vehicle
    labels: tuple[str, str]  # the army axis: as it is, with the vehicle
    army: str
    vehicle: str
    as_it_is: str  # how the reference reads in the table's sentence
    sentence: str  # how the finding names the change


WALKERS = Vehicle("walkers", "walkers", RS.WALKER_SEAT, ("black_legion", "black_legion_helbrute"), "Black Legion",
                  "Helbrute", "the Black Legion as it is", "with a Helbrute in the Black Legion the players")
TRANSPORTS = Vehicle("transports", "transports", RS.TRANSPORT_SEAT, ("ultramarines", "ultramarines_rhino"),
                     "Ultramarines", "Rhino", "the Ultramarines as they are",
                     "with a Rhino in the Ultramarines the players")


def _section(key: str, scale: float):
    return {s.key: s for s in RS.report_sections(scale)}[key]


def _fielded(exp, seat_name: str) -> dict[str, list[str]]:
    """Each cell's army in the seat: the units it fields."""
    fielded = {}
    for cell in exp.cells():
        config = cell[1] if isinstance(cell, tuple) else cell.config
        (seat,) = [p for p in config.players if p.name == seat_name]
        fielded[seat.army.name] = [u.unit for u in seat.army.units]
        assert config.points_limit == RS.RICH
    return fielded


@pytest.mark.parametrize("v", [WALKERS, TRANSPORTS], ids=lambda v: v.key)
def test_the_section_compares_the_same_army_with_and_without_its_vehicle(v):
    spec = _section(v.key, 1.0)
    assert spec.title == f"Do {v.noun} pay for their points?"
    assert {p.policy for p in spec.base.players} == {POLICY_PRESETS["stealth"]}  # as every judging section
    exp = experiment_of(spec)
    army, points = exp.axes
    assert army.labels == v.labels and points.labels == (str(RS.RICH),)
    assert spec.options["reference"] == v.labels[0] and "paired" in spec.analyses
    fielded = _fielded(exp, v.seat)
    with_it, without = fielded[f"{v.army} with a {v.vehicle}"], fielded[v.army]
    assert with_it.count(v.vehicle) == 1 and v.vehicle not in without  # refitting never copies a vehicle
    # modest: its games (two cells) are under a tenth of the Apocalypse part of the report
    total = sum(len(experiment_of(s).cells()) * s.games for s in RS.report_sections(1.0))
    assert len(exp.cells()) * spec.games <= total / 10


def test_the_rhino_is_still_bought_with_its_squad():
    with_rhino = _fielded(experiment_of(_section("transports", 1.0)), RS.TRANSPORT_SEAT)["Ultramarines with a Rhino"]
    assert with_rhino[with_rhino.index("Rhino") - 1] == "Tactical Marine"


@pytest.mark.parametrize("v", [WALKERS, TRANSPORTS], ids=lambda v: v.key)
def test_the_section_plays_at_scale_0_and_gives_its_verdict(v, tmp_path):
    spec = _section(v.key, 0)
    s = Played(spec, experiment_of(spec), View(RULESET.win_word))
    s.result = sweep(s.experiment, tmp_path / v.key, fresh=True)
    analyse(s)
    (table,) = s.tables
    assert f"the {v.army} with a {v.vehicle}" in table.frame.iloc[:, 0].tolist()
    assert v.as_it_is in table.sentence  # the reference the changes are against
    (finding,) = s.findings
    assert finding.what == v.key and finding.label in ("pays", "does not pay", "not shown")
    assert v.sentence in finding.sentence
    assert "95% CI" in finding.sentence and f"same {spec.games} games" in finding.sentence
