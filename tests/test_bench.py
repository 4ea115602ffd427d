"""``shamble bench`` runs end to end on tiny sizes and reports every figure (speed is never
asserted: only that the figures exist and are positive)."""

from __future__ import annotations

import json

import numba
import pytest
from typer.testing import CliRunner

from experiments.bench import BENCHMARKS, bench_dice, bench_games, bench_targets, run_bench
from experiments.cli import app

RUNNER = CliRunner()
POSITIVE = ("compile_s", "d6_per_s", "attacks_per_s", "attacks_per_d6", "jit_off_attacks_per_s", "jit_speedup",
            "dice_per_attack", "ceiling_share", "threads", "cpu_count", "attack_games", "jit_off_games")
TEXT = ("machine", "python", "numpy", "numba", "compile_source", "threading_layer", "attack_workload")


def test_bench_quick_json_has_every_figure():
    result = RUNNER.invoke(app, ["bench", "--quick", "--json", "--no-whole-games"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    for key in POSITIVE:
        assert isinstance(data[key], int | float) and data[key] > 0, key
    for key in TEXT:
        assert isinstance(data[key], str) and data[key], key
    assert data["numba"] == numba.__version__
    assert data["quick"] is True
    # ten boltgun shots at zombies: 1 to-hit die, 2/3 to-wound, 4/9 FNP per shot = 19/9 on average
    assert 1 <= data["dice_per_attack"] <= 3


def test_bench_table():
    result = RUNNER.invoke(app, ["bench", "--quick", "--games", "500", "--threads", "1", "--no-whole-games"])
    assert result.exit_code == 0, result.output
    assert "d6_per_s" in result.stdout and "jit_speedup" in result.stdout


def test_threads_and_games_are_used_and_restored():
    before = numba.get_num_threads()
    data = run_bench(quick=True, games=300, threads=1, benchmarks=BENCHMARKS[:3])
    assert data["threads"] == 1 and data["attack_games"] == 300
    assert numba.get_num_threads() == before


def test_more_benchmarks_plug_in_as_entries():
    def whole_games(settings, results):
        return {"games_per_s": 2 * results["d6_per_s"]}

    data = run_bench(quick=True, benchmarks=[("dice", bench_dice), ("games", whole_games)])
    assert data["games_per_s"] == 2 * data["d6_per_s"] > 0
    assert "attacks_per_s" not in data


@pytest.mark.parametrize(("args", "words"), [(["--threads", "0"], "threads = 0"), (["--games", "0"], "games = 0")])
def test_bad_bench_option_is_one_line(args, words):
    result = RUNNER.invoke(app, ["bench", "--quick", *args])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and words in result.stderr and len(result.stderr.splitlines()) == 1


def test_whole_games_benchmark_reports_its_figures(nojit, monkeypatch):
    """The whole-game entry (run as plain Python here: its code path, not its speed, so 8 games per
    timing instead of --quick's 64: a plain Python game takes about a quarter of a second)."""
    from experiments import bench

    monkeypatch.setattr(bench, "QUICK_GAMES", 8)
    data = run_bench(quick=True, threads=1, benchmarks=[("games", bench_games)])
    for key in ("games_per_s", "games_per_s_1_thread", "dice_per_game", "games_compile_s", "games_per_s_per_core"):
        assert data[key] > 0, key
    assert data["games_config"] == "zombie40k four_players_base"  # the default ruleset's first bench config


def test_goals_sit_beside_the_figures():
    figures = {"zombie40k_four_players_base_games_per_s_1_thread": 4_000.0,
               "zombie40k_two_players_base_games_per_s_1_thread": 700.0, "games_ceiling_share": 0.01,
               "scaling_flatness": 0.95, "scaling_memory_growth": 1.02, "scaling_10000_games_per_s": 1.0,
               "scaling_1000000_games_per_s": 1.0}
    rows = {row["figure"]: row for row in bench_targets(None, figures)["targets"]}
    assert [rows[f]["met"] for f in ("zombie40k_four_players_base_games_per_s_1_thread",
                                     "zombie40k_two_players_base_games_per_s_1_thread", "games_ceiling_share",
                                     "games_jit_speedup")] == [True, False, False, None]  # the last: not measured
    assert rows["zombie40k_four_players_base_games_per_s_1_thread"]["bound"] == 3_500.0
    assert rows["scaling_flatness"]["met"] is True and rows["scaling_memory_growth"]["met"] is True
    del figures["scaling_1000000_games_per_s"]  # scaling stopped short of 10^6 games: cannot tell
    rows = {row["figure"]: row for row in bench_targets(None, figures)["targets"]}
    assert rows["scaling_flatness"]["met"] is None and "10^6 not run" in rows["scaling_flatness"]["note"]
    rows = {row["figure"]: row for row in bench_targets(None, {**figures, "scaling_memory_growth": 1.5})["targets"]}
    assert rows["scaling_memory_growth"]["met"] is None


def test_every_ruleset_goal_names_a_bench_config():
    """A goal is read from the bench matrix's key for that config: a misspelt label would never be met."""
    from sim.ruleset import all_rulesets, bench_goals_of

    for rs in all_rulesets():
        assert set(bench_goals_of(rs)) <= set(rs.bench_configs()), rs.id


@pytest.mark.slow
def test_cold_compile_is_a_real_compile_in_a_fresh_cache(outwest_fresh_compiles):
    """What `shamble bench` reports as the cold compile: a fresh process, an empty cache, and a
    compile (not a cache load) of a ruleset's game kernels (its time is only reported). Out West's,
    the quickest to compile: the mechanism is the same for every ruleset. (``cold_compile("outwest")``
    runs beside tests/test_profile.py's end-to-end profile: conftest's ``outwest_fresh_compiles``.)"""
    cold = outwest_fresh_compiles["cold"].result()
    assert cold["source"] == "compiled" and 0 < cold["seconds"] <= cold["wall_s"] and cold["cpu_s"] > 0


@pytest.mark.slow
def test_bench_tune_runs_at_tiny_sizes_and_adds_its_goals():
    """`shamble bench --tune --quick` times both tunes at a few dozen games (speed not asserted:
    only that the figures exist, and the goals rows appear beside them)."""
    from experiments.bench import TUNE_TARGETS, bench_tune

    data = run_bench(quick=True, benchmarks=[("tune", bench_tune), ("targets", bench_targets)])
    for key in ("tune_outwest_hold_s", "tune_zombie40k_rounds_s", "tune_outwest_hold_games",
                "tune_zombie40k_rounds_games"):
        assert data[key] > 0, key
    assert 0 <= data["tune_outwest_hold_low"] <= data["tune_outwest_hold_rate"] <= data["tune_outwest_hold_high"] <= 1
    assert data["tune_outwest_hold_verdict"] in ("PASSED", "NOT BETTER")
    rows = {row["figure"]: row for row in data["targets"]}
    assert {t[0] for t in TUNE_TARGETS} <= set(rows)
    assert all(rows[t[0]]["met"] is None for t in TUNE_TARGETS)  # tiny sizes cannot meet or miss the goals


def test_bench_tune_option_is_inserted_before_the_targets(monkeypatch):
    from experiments import bench

    seen = []
    monkeypatch.setattr(bench, "bench_tune", lambda s, r: seen.append("tune") or {"tune_outwest_hold_s": 1.0})
    data = run_bench(quick=True, benchmarks=[("targets", lambda s, r: seen.append("targets") or {})], tune=True)
    assert seen == ["tune", "targets"] and data["tune_outwest_hold_s"] == 1.0
