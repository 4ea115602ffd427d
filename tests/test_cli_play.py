"""`shamble play` and `shamble trace` end to end, on tiny sizes.

They run in a subprocess with NUMBA_DISABLE_JIT=1: the same code as plain Python (game i depends
only on (seed, i), JIT or not), so these tests need no whole-game compile.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
TWO = ROOT / "examples" / "configs" / "two_players.toml"
FOUR = ROOT / "examples" / "configs" / "four_players.toml"


def shamble(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    code = "from experiments.cli import app; app()"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=600)


def test_play_json_summary_has_wilson_intervals_per_player():
    result = shamble("play", str(FOUR), "--games", "12", "--seed", "5", "--json")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["games"] == 12 and len(summary["players"]) == 4
    assert sum(summary["reasons"].values()) == 12
    for p in summary["players"]:
        assert 0.0 <= p["ci_low"] <= p["rate"] <= p["ci_high"] <= 1.0
    assert sum(p["wins"] for p in summary["players"]) == summary["reasons"].get("escape", 0)


def test_play_writes_parquet_atomically(tmp_path):
    out = tmp_path / "results.parquet"
    result = shamble("play", str(TWO), "--games", "6", "--seed", "2", "--out", str(out), "--json")
    assert result.returncode == 0, result.stderr
    df = pd.read_parquet(out)
    assert len(df) == 12 and set(df.game) == set(range(6))
    assert [p.name for p in tmp_path.iterdir()] == ["results.parquet"]


def test_results_files_say_what_was_played(tmp_path):
    parquet, csv = tmp_path / "r.parquet", tmp_path / "r.csv"
    for out in (parquet, csv):
        result = shamble("play", str(TWO), "--games", "4", "--seed", "9", "--out", str(out), "--json")
        assert result.returncode == 0, result.stderr
    import pyarrow.parquet as pq

    info = json.loads(pq.read_schema(parquet).metadata[b"shamble"])
    assert info == json.loads((tmp_path / "r.csv.meta.json").read_text())
    assert info == json.loads(result.stdout)["played"]
    assert (info["ruleset"], info["games"], info["seed"], info["config"]) == ("zombie40k", 4, 9, str(TWO))
    assert [p["name"] for p in info["players"]] and all(p["policy"] for p in info["players"])


def test_the_table_title_names_the_run_and_the_players_policies():
    result = shamble("play", str(TWO), "--games", "3", "--seed", "4")
    assert result.returncode == 0, result.stderr
    title = result.stdout.splitlines()[0]
    assert title.startswith(f"zombie40k {TWO}") and f"3 games, seed 4; shamble {version('shamble')}" in title
    from sim.ruleset import source_commit

    assert source_commit() is None or title.endswith(f"(commit {source_commit()})")  # which rules were played
    assert "policy" in result.stdout


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["play", "nope.toml"], "no such config file"),
        (["play", str(TWO), "--games", "0"], "--games"),
        (["play", str(TWO), "--games", "2", "--out", "x.txt"], "allowed suffixes"),
        (["trace", str(TWO), "--game", "-1"], "--game"),
    ],
)
def test_bad_input_is_one_line(args, needle):
    result = shamble(*args)
    assert result.returncode == 2
    assert needle in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_trace_tells_the_game_and_draws_each_turn(tmp_path):
    result = shamble("trace", str(TWO), "--seed", "3", "--game", "1", "--png", str(tmp_path))
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stdout.splitlines() if not line.startswith("wrote ")]
    assert lines[0].startswith(f"== zombie40k {TWO}") and "game 1, seed 3; shamble" in lines[0]  # what was played
    assert lines[1] == "== setup ==" and lines[-1].startswith("== result:")
    turns = [line for line in lines if line.startswith("== game turn")]
    pictures = sorted(tmp_path.glob("turn_*.png"))
    assert len(pictures) == len(turns) >= 1
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pictures)
    wrote = [line.removeprefix("wrote ") for line in result.stdout.splitlines() if line.startswith("wrote ")]
    assert wrote == [str(p) for p in [*pictures, tmp_path / "game.gif", tmp_path / "contact_sheet.png"]]
    assert (tmp_path / "game.gif").read_bytes()[:6] == b"GIF89a"  # a frame per turn: tests/test_trace_draw.py
    assert (tmp_path / "contact_sheet.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(("source", "said"), [("compiled", "compiled the game kernels in 3 s"), ("disk cache", "")])
def test_a_compile_is_announced_and_a_cache_load_is_quiet(monkeypatch, source, said):
    import io

    from rich.console import Console

    import experiments.progress as progress
    from sim.rulesets.zombie40k.config import load_config

    monkeypatch.setattr(progress, "warm_up", lambda config, tables=None: {"seconds": 3.0, "source": source})
    out = io.StringIO()
    assert progress.load_game_kernels(load_config(TWO), Console(file=out))["source"] == source
    assert out.getvalue().strip().startswith(said) and bool(out.getvalue()) == bool(said)


@pytest.mark.parametrize(("seconds", "shown"), [(0.0, False), (0.6, True)])
def test_the_compile_status_line_shows_only_when_loading_is_slow(monkeypatch, seconds, shown):
    import io
    import time

    from rich.console import Console

    import experiments.progress as progress
    from sim.rulesets.zombie40k.config import load_config

    def slow_warm_up(config, tables=None):
        time.sleep(seconds)
        return {"seconds": seconds, "source": "disk cache"}

    monkeypatch.setattr(progress, "warm_up", slow_warm_up)
    out = io.StringIO()
    console = Console(file=out, force_terminal=True)
    progress.load_game_kernels(load_config(TWO), console, quiet_for=0.2)
    assert ("compiling the game kernels" in out.getvalue()) == shown


def test_play_compiles_the_config_once(monkeypatch):
    """`shamble play` loads the kernels and plays on the same compiled tables (warm_up once)."""
    import experiments.play_summary as play_summary
    from sim.ruleset import get
    from sim.rulesets.zombie40k.config import load_config

    rs, calls = get("zombie40k"), []
    compile_tables = rs.compile
    monkeypatch.setattr(rs, "compile", lambda config: calls.append(config) or compile_tables(config))
    df = play_summary.run_play(load_config(TWO), 3, 1)
    assert len(calls) == 1 and df.game.nunique() == 3
