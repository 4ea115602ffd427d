"""docs/results.md is the one schema of every output: these tests read its tables and hold a sweep's
results.parquet and summary.csv and `play --json` to them; every ruleset documents its own columns
on its page (``documented_columns``, which tests/test_ruleset_contract.py holds its frame to)."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pandas as pd
import pytest

from experiments.experiment import experiment_from_dict
from experiments.play_summary import summarise
from experiments.sweep import sweep
from sim.play import play
from sim.ruleset import COMMON_COLUMNS, all_rulesets

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "results.md").read_text()
COMMON = "The common columns come first, in this order, for every ruleset:"
CHECKS = {"int": pd.api.types.is_integer_dtype, "float": pd.api.types.is_float_dtype,
          "bool": pd.api.types.is_bool_dtype, "str": lambda d: pd.api.types.is_string_dtype(d)}


class UndocumentedColumns(AssertionError):
    """A page without the table a test reads; the message is one line."""


def table_under(heading: str, text: str = DOC, page: str = "docs/results.md") -> dict[str, str]:
    """column -> type of the first markdown table after the line ``heading`` of ``text``."""
    if heading + "\n" not in text:
        raise UndocumentedColumns(f"{page}: no line {heading!r} with a | column | type | meaning | table under it")
    section = list(itertools.takewhile(lambda line: not line.startswith("#"),
                                       text.split(heading + "\n", 1)[1].splitlines()))
    start = next((k for k, line in enumerate(section) if line.startswith("|")), None)
    if start is None:
        raise UndocumentedColumns(f"{page}: no | column | type | meaning | table under {heading!r}")
    out = {}
    for line in section[start + 2:]:
        if not line.startswith("|"):
            break
        names, kind = (cell.strip() for cell in line.strip("|").split("|")[:2])
        out |= {name.strip(): kind for name in names.split(",")}
    return out


def holds(frame: pd.DataFrame, schema: dict[str, str]) -> list[str]:
    """The schema's complaints about a frame: columns missing, extra or of another type."""
    problems = [f"{c}: not written" for c in schema if c not in frame]
    problems += [f"{c}: not documented" for c in frame if c not in schema]
    for column, kind in schema.items():
        if column in frame and not any(CHECKS[k.strip()](frame[column].dtype) for k in kind.split(" or ")):
            problems.append(f"{column}: {frame[column].dtype}, documented {kind}")
    return problems


def columns_page(rs) -> Path:
    """Where a ruleset documents its own columns: ``docs/<id>.md``, or its ``columns_doc`` (a ruleset
    of the test tree names its own file)."""
    return Path(getattr(rs, "columns_doc", None) or ROOT / "docs" / f"{rs.id}.md")


def documented_columns(rs) -> dict[str, str]:
    """column -> type of a ruleset's frame, as documented: the common columns, then its own (under
    ``## Result columns`` on its page); a missing page or table is one line saying what to write."""
    page = columns_page(rs)
    shown = page.relative_to(ROOT) if page.is_relative_to(ROOT) else page
    if not page.is_file():
        raise UndocumentedColumns(f"ruleset {rs.id!r}: no {shown}; document its result columns there under "
                                  "'## Result columns' (docs/rulesets.md)")
    return table_under(COMMON) | table_under("## Result columns", page.read_text(), str(shown))


@pytest.mark.parametrize("rs", all_rulesets(), ids=lambda rs: rs.id)
def test_every_ruleset_documents_its_columns(rs):
    assert set(documented_columns(rs)) > set(COMMON_COLUMNS)


def test_a_missing_columns_table_is_one_line_saying_what_to_write(tmp_path):
    class Undocumented:
        id, columns_doc = "coinflip", tmp_path / "coinflip.md"

    for text in (None, "# Coin flip\n", "# Coin flip\n\n## Result columns\n\nnone yet\n\n## Rules\n| a | b |\n"):
        if text is not None:
            Undocumented.columns_doc.write_text(text)
        with pytest.raises(UndocumentedColumns) as err:
            documented_columns(Undocumented())
        assert "\n" not in str(err.value) and "coinflip" in str(err.value) and "Result columns" in str(err.value)


def test_the_common_columns_are_documented_in_order():
    assert tuple(table_under(COMMON)) == COMMON_COLUMNS


# every ruleset's frame against its documented columns: tests/test_ruleset_contract.py


def test_a_sweep_writes_typed_axes_documented_keys_and_summary(tmp_path):
    exp = experiment_from_dict({"base": "configs/two_players.toml", "games": 3, "seed": 1,
                                "axes": {"budget": [50, 75], "policy": {"Marines": ["dash", "advance"]}}},
                               ROOT / "examples")
    result = sweep(exp, tmp_path, show_progress=False)
    results, summary = pd.read_parquet(tmp_path / "results.parquet"), pd.read_csv(tmp_path / "summary.csv")
    assert results.axis_budget.dtype == "int64" and summary.axis_budget.dtype == "int64"
    assert list(results.columns[:3]) == ["cell", "axis_budget", "axis_policy.Marines"]
    assert set(results.cell) == set(summary.cell) and all(
        re.fullmatch(r"budget=\d+,policy\.Marines=[a-z]+-[0-9a-f]{10}", key) for key in summary.cell)
    schema = {c: k for c, k in table_under("## A sweep's `summary.csv`: one row per cell x player").items()
              if c != "axis_<name>"}
    axes = {c: "int or str" for c in summary if c.startswith("axis_")}
    assert holds(summary, schema | axes) == [] and holds(result.summary, schema | axes) == []
    assert summary.vs_first.notna().sum() == 2 * (len(summary.cell.unique()) - 1)


def test_play_json_uses_the_summary_names():
    from sim.ruleset import get

    rs = get("zombie40k")
    config = next(iter(rs.bench_configs().values()))
    out = summarise(config, play(config, 3, seed=1))
    csv_names = {"player", "name", "team", "wins", "rate", "ci_low", "ci_high"}
    for seat, row in enumerate(out["players"]):
        assert row["player"] == seat and csv_names <= set(row)
    assert set(out) == {"ruleset", "games", "seed", "played", "players", "mean_turns", "reasons",
                        "mean_dice_per_game"}
