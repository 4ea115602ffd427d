"""`shamble mods --ruleset ID` and `shamble <ruleset> mods` for every ruleset (issue 29, item 2):
`--mod`'s help says "see `shamble <ruleset> mods`", so that command must exist for each."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from experiments.cli import app
from sim.ruleset import all_rulesets

RUNNER = CliRunner()
IDS = [rs.id for rs in all_rulesets() if rs.id in ("apocalypse", "outwest", "zombie40k", "zombies9")]


def invoke(*args: str) -> str:
    result = RUNNER.invoke(app, list(args), env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result.stdout


@pytest.mark.parametrize("ruleset", IDS)
def test_every_rulesets_mods_can_be_listed_both_ways(ruleset):
    rs = next(r for r in all_rulesets() if r.id == ruleset)
    for args in (["mods", "--ruleset", ruleset], [ruleset, "mods"]):
        listed = json.loads(invoke(*args, "--json"))
        assert [row["mod"] for row in listed] == list(rs.mods())
        text = invoke(*args)
        for name in rs.mods():
            assert name in text
        if not rs.mods():
            assert "has no mods" in text


def test_a_mods_parameters_are_listed_beside_it():
    listed = {row["mod"]: row for row in json.loads(invoke("mods", "--ruleset", "outwest", "--json"))}
    assert "plague_test" in listed["zombie_plague"]["params"]


def test_an_unknown_ruleset_is_one_line():
    result = RUNNER.invoke(app, ["mods", "--ruleset", "zombie9"])
    assert result.exit_code == 2 and "no such ruleset" in result.output and "Traceback" not in result.output


def test_the_mod_options_pointer_leads_to_a_command():
    help_text = RUNNER.invoke(app, ["play", "--help"], env={"COLUMNS": "200"}).stdout
    assert "shamble <ruleset> mods" in " ".join(help_text.split())
