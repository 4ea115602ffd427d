"""`shamble params`: the range column its help, the README and the guide promise, 'auto' for a 0
that means automatic, and a listing that reads at 80 columns (issue 29, items 4, 14, 20)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from experiments.cli import app
from sim.ruleset import all_rulesets, get

RUNNER = CliRunner()


def params(*args: str, width: int) -> str:
    result = RUNNER.invoke(app, ["params", *args], terminal_width=width, env={"COLUMNS": str(width)})
    assert result.exit_code == 0, result.output
    return result.stdout


def test_the_table_has_a_range_column_with_the_pair_sensitivity_plays():
    text = params(width=200)
    header = next(line for line in text.splitlines() if "name" in line and "default" in line)
    assert "range" in header
    row = next(line for line in text.splitlines() if "hordes_per_player" in line)
    assert "0 - 8 (plays 1 - 3)" in row
    assert "one of rolloff, fixed, rotate" in next(line for line in text.splitlines() if line.split()[1:2] == ["order"])


def test_a_zero_that_means_automatic_shows_as_auto():
    row = next(line for line in params(width=200).splitlines() if "table_width_in" in line)
    assert "│ auto " in row and "0.0 " not in row.split("│")[2]


@pytest.mark.parametrize("ruleset", [rs.id for rs in all_rulesets()])
def test_at_80_columns_every_name_is_whole_and_the_list_is_short(ruleset):
    text = params("--ruleset", ruleset, width=80)
    names = [p.name for p in get(ruleset).parameters()]
    heads = [line.split(" = ")[0] for line in text.splitlines() if " = " in line and not line.startswith(" ")]
    assert set(names) <= set(heads)
    assert len(text.splitlines()) < 4 * len(names) + 30  # a paragraph of about three lines a parameter, not 1,307


def test_a_word_or_a_tag_narrows_the_list():
    text = params("--find", "width", width=80)
    assert "table_width_in" in text and "team_budget" not in text
    chosen = params("--tag", "C", "--ruleset", "apocalypse", width=80)
    assert all("[C]" in line for line in chosen.splitlines()[1:] if " = " in line and not line.startswith(" "))
    result = RUNNER.invoke(app, ["params", "--find", "zzzz"])
    assert result.exit_code == 2 and "no zombie40k parameter matches 'zzzz'" in result.output


def test_solve_and_sensitivity_say_what_they_played(tmp_path, nojit):
    """Item 17: `solve` and `sensitivity` printed neither config nor seed, and `sensitivity` did not
    say where it wrote."""
    from pathlib import Path

    two = str(Path(__file__).resolve().parents[1] / "examples" / "configs" / "two_players.toml")
    out = tmp_path / "sens"
    result = RUNNER.invoke(app, ["sensitivity", two, "--out", str(out), "--games", "2", "--seed", "5"],
                           env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert f"zombie40k {two}" in result.stdout and "2 games per value, seed 5; shamble" in result.stdout
    assert f"wrote {out / 'sensitivity.csv'}" in " ".join(result.stdout.split())
