"""docs/results.md is the one schema of every output: these tests read its tables and hold each
ruleset's result frame, a sweep's results.parquet and summary.csv, and `play --json` to them."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from experiments.experiment import experiment_from_dict
from experiments.play import summarise
from experiments.sweep import sweep
from sim.play import play
from sim.ruleset import COMMON_COLUMNS

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "results.md").read_text()
CHECKS = {"int": pd.api.types.is_integer_dtype, "float": pd.api.types.is_float_dtype,
          "bool": pd.api.types.is_bool_dtype, "str": lambda d: pd.api.types.is_string_dtype(d)}


def table_under(heading: str) -> dict[str, str]:
    """column -> type of the first markdown table after ``heading``."""
    lines = DOC.split(heading + "\n", 1)[1].splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith("|"))
    out = {}
    for line in lines[start + 2:]:
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


def documented_columns(rs) -> dict[str, str]:
    """column -> type of a ruleset's frame, as documented: the common columns, then its own."""
    return table_under("The common columns come first, in this order, for every ruleset:") | table_under(
        f"### {rs.id}")


def test_the_common_columns_are_documented_in_order():
    assert tuple(table_under("The common columns come first, in this order, for every ruleset:")) == COMMON_COLUMNS


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
