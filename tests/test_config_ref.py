"""The config reference (issue 29, item 19) is generated from the code and cannot drift: the
committed page equals the generated text, and every file's documented fields are exactly the
fields its loader accepts (read from the loader's own refusal of an unknown field)."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from experiments import config_ref
from experiments.cli import app

UNKNOWN = "zz_not_a_field"


def test_the_committed_reference_is_the_generated_one():
    """After changing a config class or loader: `shamble config-ref --write`, and commit the page."""
    assert config_ref.DOC.read_text() == config_ref.render_all()


def _allowed(probe) -> set[str]:
    with pytest.raises(ValueError) as err:
        probe(UNKNOWN)
    message = str(err.value)
    assert UNKNOWN in message, message
    words = re.search(r"; allowed: (.*)$", message).group(1).removesuffix(" or a parameter")
    return {w.strip() for w in words.split(",")}


RULESETS = ("apocalypse", "outwest", "zombie40k", "zombies9")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_file_documents_exactly_the_fields_its_loader_accepts(ruleset):
    kinds = config_ref.files_of(ruleset)
    assert len(kinds) >= 2
    for kind in kinds:
        documented = {f.name for f in kind.fields}
        # Out West takes `ruleset` off before it checks the rest, so its list does not name it
        assert documented - {"ruleset"} == _allowed(kind.probe) - {"ruleset"}, kind.title
        assert all(f.type and f.default and f.meaning for f in kind.fields), kind.title


def test_the_reference_says_what_a_player_table_and_posse_size_do():
    outwest = config_ref.render("outwest")
    posse = next(line for line in outwest.splitlines() if line.startswith("| `posse` |"))
    assert "`posse_size`" in posse and "replace it" in posse and "escape_needed" in posse
    zombies9 = config_ref.render("zombies9")
    assert "### [[players]] (the player table)" in zombies9 and "| `policy` |" in zombies9
    for ruleset in RULESETS:
        text = config_ref.render(ruleset)
        assert "### Policy table fields" in text and "### Parameters (`[params]`)" in text


def test_config_ref_command():
    runner = CliRunner()
    shown = runner.invoke(app, ["config-ref", "--ruleset", "apocalypse"])
    assert shown.exit_code == 0 and shown.output.strip() == config_ref.render("apocalypse").strip()
    bad = runner.invoke(app, ["config-ref", "--ruleset", "zombie9"])
    assert bad.exit_code == 2 and "allowed: apocalypse, outwest, zombie40k, zombies9" in bad.output
