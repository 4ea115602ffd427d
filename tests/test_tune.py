"""`shamble tune` (experiments/tune*.py): the search finds a best policy known exactly, the space
encodes integers, choices and numbers as documented, the validation says PASSED or NOT BETTER,
an interrupted run resumes to the same answer, tuned.toml plays as written, bad input is one line.

The game is Safecracker (tests/tune_toy_ruleset.py): a player opens his safe with probability
p(aim, stance, grip), best exactly at aim 7, stance "steady", grip 0.3; every policy plays the
same uniforms (common random numbers), so on any games a policy with a larger p wins every game a
smaller one wins. Tolerances: aim 6 or 8 loses 5 points of p, so the best aim wins more of 200
games unless none of them falls in a 5-point band (0.95^200, about 4e-5); grip within 0.1 of
0.3 (0.1 of grip is 3 points of p: 200 games all miss a 3-point band with odds 0.97^200, 0.2%).
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest
import tune_toy_ruleset as toy

from experiments import tune, tune_cli, tune_search
from experiments.tune_files import policy_table, write_tuned_toml
from experiments.tune_search import Side, resolve_side
from experiments.tune_space import SPAN, Dimension, TuneError, parse_fields, policy_space
from sim import ruleset as registry
from sim.ruleset import load_config

ROOT = Path(__file__).resolve().parents[1]
SOLO = """ruleset = "safecracker"

[[players]]
name = "Solo"
team = "Vault"
{policy}
"""


@pytest.fixture
def safecracker():
    registry.register(toy.RULESET)
    yield toy.RULESET
    registry.unregister(toy.ID)


def _file(tmp_path, policy: str = "", name: str = "toy.toml") -> Path:
    path = tmp_path / name
    path.write_text(SOLO.format(policy=policy))
    return path


def _tune(path, out, **kw):
    settings = {"budget": 30_000, "seed": 3, "games": 200, "validate_games": 3000, "progress": False} | kw
    return tune.run_tune(path, "Solo", out_dir=out, **settings)


# ---------------------------------------------------------------------------- the search


def test_search_finds_the_known_best_policy(safecracker, tmp_path):
    info = _tune(_file(tmp_path), tmp_path / "out")
    tuned = {f["name"]: f["tuned"] for f in info["fields"]}
    assert tuned["aim"] == toy.BEST["aim"] and tuned["stance"] == toy.BEST["stance"]
    assert abs(tuned["grip"] - toy.BEST["grip"]) <= 0.1
    assert info["verdict"] == tune.PASSED and info["uplift"]["low"] > 0.6  # p 0.07 -> at least 0.77
    assert info["default"]["search"]["rate"] == pytest.approx(0.07, abs=0.05)
    assert info["search"]["games"] <= 30_000 and info["search"]["games"] % 200 == 0
    assert info["search"]["seed"] != info["validation"]["seed"]


def test_only_the_fields_asked_are_searched(safecracker, tmp_path):
    info = _tune(_file(tmp_path), None, fields="aim", budget=6_000)
    assert [f["name"] for f in info["fields"]] == ["aim"]
    assert info["tuned_policy"] == {"preset": "default", "aim": 7}  # careful, grip 0.9 kept


def test_duplicate_policies_cost_no_games(safecracker):
    config = toy.RULESET.example_config(1)
    dims = policy_space(toy.RULESET, config.players[0].policy, parse_fields("stance"))
    calls = []

    def evaluate(keys):
        calls.extend(keys)
        return [int(toy.OPEN[k[0]] * 100) for k in keys]

    found = tune_search.search(dims, evaluate, 10_000, 100, 1)
    assert len(calls) == len(set(calls)) <= 3 and found.used == 100 * len(calls)
    assert found.best == ("steady",)


# ---------------------------------------------------------------------------- the space


def test_integers_are_cma_integers_within_half_bounds():
    d = Dimension("aim", "integer", 2, 0, 10)
    assert d.bounds == (-0.5, 10.5) and d.encode(2) == 2.0
    assert [d.decode(x) for x in (-0.5, 0.49, 0.5, 6.6, 10.5, 12.0)] == [0, 0, 1, 7, 10, 10]
    assert isinstance(d.decode(3.2), int)


def test_choices_are_a_continuous_coordinate_read_as_an_index():
    d = Dimension("stance", "choice", "careful", choices=("careful", "steady", "reckless"))
    assert d.bounds == (0.0, 3.0) and d.encode("steady") == 1.5
    assert [d.decode(x) for x in (0.0, 0.99, 1.0, 2.5, 3.0, -1.0)] == \
        ["careful", "careful", "steady", "reckless", "reckless", "careful"]
    assert all(d.decode(d.encode(c)) == c for c in d.choices)


def test_numbers_are_clipped_and_rounded_to_a_thousandth_of_their_range():
    d = Dimension("grip", "number", 0.9, 0.0, 1.0)
    assert d.decode(0.31649) == 0.316 and d.decode(1.7) == 1.0 and d.decode(-0.2) == 0.0


def test_ranges_from_metadata_limits_and_probing(safecracker):
    dims = {d.name: d for d in policy_space(toy.RULESET, toy.Policy())}
    assert dims["aim"].allowed == (0, 10) and dims["stance"].kind == "choice"
    assert dims["grip"].allowed == (0.0, 1.0)  # probed: only __post_init__ knows it
    outwest = {d.name: d for d in policy_space(registry.get("outwest"), registry.get("outwest").example_config()
                                               .players[0].policy)}
    assert outwest["fight_in_contact"].kind == "integer" and (outwest["fight_in_contact"].low,
                                                              outwest["fight_in_contact"].high) == (0, 2)
    start = registry.get("outwest").example_config().players[0].policy
    largest = max(p.keep_away_in for p in (start, *registry.get("outwest").policy_presets().values()))
    assert outwest["keep_away_in"].allowed == (0.0, 100.0) and outwest["keep_away_in"].high == SPAN * largest
    z40k = {d.name: d for d in policy_space(registry.get("zombie40k"), registry.get("zombie40k")
                                            .policy_presets()["advance"])}
    assert z40k["hunt_radius_in"].allowed == (0.0, 200.0) and z40k["charge_max"].allowed == (0, 50)


def test_fields_narrow_and_range_the_space(safecracker):
    dims = policy_space(toy.RULESET, toy.Policy(), parse_fields("grip=0.2:0.6, aim"))
    assert [(d.name, d.low, d.high) for d in dims] == [("grip", 0.2, 0.6), ("aim", 0, 10)]
    with pytest.raises(TuneError, match="allowed: within 0-1"):
        policy_space(toy.RULESET, toy.Policy(), parse_fields("grip=0:3"))
    with pytest.raises(TuneError, match="a range is for numbers"):
        policy_space(toy.RULESET, toy.Policy(), parse_fields("stance=0:1"))


# ---------------------------------------------------------------------------- sides


def test_sides_are_players_teams_and_shared_wins(safecracker):
    config = replace(toy.RULESET.example_config(2), players=(toy.Player("A", "Vault"), toy.Player("B", "Vault")))
    assert resolve_side(config, "A", 1) == Side("A", (0,), "player")
    assert resolve_side(config, "Vault", 1) == Side("Vault", (0, 1), "team")
    assert resolve_side(config, "crew", 1) == Side("crew", (0, 1), "shared")
    with pytest.raises(TuneError, match="allowed: A, B, Vault, crew"):
        resolve_side(config, "zombies", 1)


def test_a_shared_win_tunes_every_seat_and_counts_the_shared_word(safecracker, tmp_path):
    path = tmp_path / "crew.toml"
    path.write_text('ruleset = "safecracker"\n[[players]]\nname = "A"\n[[players]]\nname = "B"\n')
    info = tune.run_tune(path, "crew", budget=8_000, fields="aim,stance", seed=5, games=200, validate_games=2000,
                         out_dir=tmp_path / "out", progress=False)
    assert info["seats"] == ["A", "B"] and info["tuned_policy"] == {"preset": "default", "aim": 7, "stance": "steady"}
    tuned = load_config(tmp_path / "out" / "tuned.toml")
    assert [p.policy.p_open for p in tuned.players] == pytest.approx([0.62, 0.62])
    assert info["tuned"]["validation"]["rate"] == pytest.approx(0.62**2, abs=0.045)  # p^2, 4 SE


# ---------------------------------------------------------------------------- best responses


def test_best_responses_in_turn_adopt_only_validated_policies(safecracker, tmp_path, capsys):
    from experiments.tune_rounds import run_best_responses

    path = tmp_path / "pair.toml"
    path.write_text('ruleset = "safecracker"\n[[players]]\nname = "A"\n[[players]]\nname = "B"\n'
                    'policy = { aim = 7, stance = "steady", grip = 0.3 }\n')
    out = run_best_responses(path, rounds=2, budget=4_000, fields="aim,stance", seed=7, games=200,
                             validate_games=2000, out_dir=tmp_path / "out", progress=False)
    table = pd.DataFrame(out["table"]).set_index(["round", "player"])
    assert table.adopted[(1, "A")] and not table.adopted[(1, "B")]  # B starts at the best: NOT BETTER
    assert not table.adopted[(2, "A")]  # nothing left to gain in round 2
    assert table.rate[(1, "A")] > table.ci_high[(0, "A")] and table.rate[(1, "B")] == table.rate[(0, "B")]
    final = load_config(tmp_path / "out" / "tuned.toml")
    assert [p.policy.p_open for p in final.players] == pytest.approx([0.62, 0.8])  # grip 0.9 not searched
    assert (tmp_path / "out" / "round2-B" / "tune.json").exists()
    assert tune_cli.main([str(path), "--all-sides", "--rounds", "2", "--budget", "4000", "--fields", "aim,stance",
                      "--seed", "7", "--games", "200", "--validate-games", "2000", "--out", str(tmp_path / "out"),
                      "--quiet"]) == 0
    assert "round 2" in capsys.readouterr().out


# ---------------------------------------------------------------------------- validation


def test_not_better_when_the_default_is_already_best(safecracker, tmp_path):
    best = 'policy = { aim = 7, stance = "steady", grip = 0.3 }'
    info = _tune(_file(tmp_path, best), tmp_path / "out", budget=4_000)
    assert info["verdict"] == tune.NOT_BETTER and info["uplift"]["high"] >= 0 >= info["uplift"]["low"]
    assert tune.verdict_line(info).startswith("NOT BETTER: ")
    code = tune_cli.main([str(_file(tmp_path, best)), "--side", "Solo", "--budget", "4000", "--games", "200",
                      "--validate-games", "1000", "--seed", "3", "--out", str(tmp_path / "cli"), "--quiet"])
    assert code == 1


def test_passed_from_the_command_line(safecracker, tmp_path, capsys):
    code = tune_cli.main([str(_file(tmp_path)), "--side", "Vault", "--budget", "6000", "--games", "200", "--fields",
                      "aim,stance", "--validate-games", "1000", "--out", str(tmp_path / "cli"), "--quiet"])
    assert code == 0 and "PASSED: " in capsys.readouterr().out
    saved = json.loads((tmp_path / "cli" / "tune.json").read_text())
    assert saved["verdict"] == "PASSED" and saved["version"] and saved["search"]["seed"] == tune.SEED


# ---------------------------------------------------------------------------- resume


def test_an_interrupted_run_resumes_to_the_same_answer(safecracker, tmp_path, monkeypatch):
    path = _file(tmp_path)
    whole = _tune(path, tmp_path / "whole", budget=12_000)
    real, played = tune_search.score_here, []

    def interrupted(evaluator, key):
        if len(played) == 25:
            raise KeyboardInterrupt
        played.append(key)
        return real(evaluator, key)

    monkeypatch.setattr(tune_search, "score_here", interrupted)
    with pytest.raises(KeyboardInterrupt):
        _tune(path, tmp_path / "cut", budget=12_000)
    assert (tmp_path / "cut" / tune_search.CANDIDATES).exists()
    saved = len(pd.read_parquet(tmp_path / "cut" / tune_search.CANDIDATES))
    assert 0 < saved < 25  # the generation cut short was not saved
    played.clear()
    monkeypatch.setattr(tune_search, "score_here", lambda e, k: played.append(k) or real(e, k))
    resumed = _tune(path, tmp_path / "cut", budget=12_000)
    assert len(played) == whole["search"]["policies_played"] - saved  # the saved ones are not replayed
    for info in (whole, resumed):
        info.pop("seconds"), info.pop("tuned_toml")
    assert resumed == whole
    assert (tmp_path / "cut" / "search.csv").read_text() == (tmp_path / "whole" / "search.csv").read_text()


def test_a_checkpoint_of_another_run_is_refused(safecracker, tmp_path):
    path = _file(tmp_path)
    _tune(path, tmp_path / "out", budget=2_000)
    with pytest.raises(ValueError, match="checkpoint of another experiment"):
        _tune(path, tmp_path / "out", budget=2_000, seed=4)
    assert _tune(path, tmp_path / "out", budget=2_000, seed=4, resume=False)["search"]["seed"] == 4


# ---------------------------------------------------------------------------- tuned.toml


def test_tuned_toml_reads_back_as_the_tuned_config(safecracker, tmp_path):
    info = _tune(_file(tmp_path), tmp_path / "out", budget=4_000)
    loaded = load_config(tmp_path / "out" / "tuned.toml")
    assert loaded.players[0].policy == toy.policy_from(info["tuned_policy"], "tuned")
    assert (tmp_path / "out" / "tuned.toml").read_text().startswith("# shamble tune: ")


@pytest.mark.parametrize("example, seats", [("outwest/hold.toml", None), ("configs/two_players.toml", (1,)),
                                            ("zombies9/four_players_base.toml", (2,)),
                                            ("apocalypse/configs/two_players.toml", (0,))])
def test_tuned_toml_of_each_ruleset_layout(tmp_path, example, seats):
    """A posse-wide policy, [[players]] with team files relative to the config, a player count."""
    source = ROOT / "examples" / example
    config = load_config(source)
    rs = registry.ruleset_of(config)
    start = config.players[(seats or (0,))[0]].policy
    dims = policy_space(rs, start)
    moved = next(d for d in dims if d.kind == "integer" and d.high > d.start)
    policy = replace(start, **{moved.name: moved.start + 1})
    side = Side("x", seats or tuple(range(len(config.players))), "team")
    tuned = tune_search.with_side_policy(config, side, policy)
    path = write_tuned_toml(source, tuned, dict.fromkeys(side.seats, policy), tmp_path / "deep" / "tuned.toml",
                            "# header\n")
    assert load_config(path) == tuned
    table = policy_table(rs, policy)  # a preset's name, or the fields that differ from the nearest preset
    assert (table if isinstance(table, str) else table["preset"]) in rs.policy_presets()


def test_tuned_policies_reach_another_config_by_name_or_team(safecracker, tmp_path):
    from experiments.tune_files import with_tuned_policies

    path = tmp_path / "tuned.toml"
    path.write_text('ruleset = "safecracker"\n[[players]]\nname = "A"\nteam = "Vault"\npolicy = "sure"\n')
    other = replace(toy.RULESET.example_config(3), players=(toy.Player("A"), toy.Player("Z", "Vault"),
                                                            toy.Player("Q", "Bank")))
    played = with_tuned_policies(other, path)
    assert [p.policy for p in played.players] == [toy.PRESETS["sure"], toy.PRESETS["sure"], toy.Policy()]
    with pytest.raises(TuneError, match="no player or team of it plays in this config"):
        with_tuned_policies(toy.RULESET.example_config(1), path)
    with pytest.raises(TuneError, match="a safecracker config; allowed: a tuned.toml of outwest"):
        with_tuned_policies(registry.get("outwest").example_config(), path)


# ---------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("args, words", [
    (["--side", "Nobody"], "--side 'Nobody': no such player, team or shared win; allowed: Solo, Vault"),
    (["--side", "Solo", "--fields", "aim,luck"], "--fields 'luck' is no policy field; allowed: aim, stance, grip"),
    (["--side", "Solo", "--budget", "300", "--games", "200"], "--budget 300: too small to score two candidates"),
    (["--side", "Solo", "--budget", "-5"], "--budget -5; allowed: an integer 1 or more"),
    (["--budget", "10"], "give either --side NAME or --all-sides"),
    (["--side", "Solo", "--budget", "many"], "argument --budget: invalid int value: 'many'"),
    (["--all-sides", "--rounds", "0"], "--rounds 0; allowed: an integer 1 or more"),
])
def test_bad_input_is_one_line(safecracker, tmp_path, capsys, args, words):
    assert tune_cli.main([str(_file(tmp_path)), *args, "--out", str(tmp_path / "o"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and words in err


def test_a_side_the_file_cannot_hold_alone_is_refused_before_the_search(tmp_path, capsys):
    """Out West's hold.toml gives the whole posse one ``policy``: one character cannot be tuned alone."""
    assert tune_cli.main([str(ROOT / "examples" / "outwest" / "hold.toml"), "--side", "Legend", "--budget", "400",
                      "--games", "200", "--out", str(tmp_path / "o"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--side 'Legend': " in err and "cannot give this side alone" in err
    assert not (tmp_path / "o" / tune_search.CANDIDATES).exists()


def test_an_unknown_ruleset_is_one_line_from_the_module(tmp_path):
    path = tmp_path / "odd.toml"
    path.write_text('ruleset = "nope"\n')
    run = subprocess.run([sys.executable, "-m", "experiments.tune_cli", str(path), "--side", "x", "--out",
                          str(tmp_path / "o")], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 2 and run.stderr.count("\n") == 1
    assert "ruleset = 'nope': no such ruleset; allowed: apocalypse" in run.stderr


# ---------------------------------------------------------------------------- dask


@pytest.mark.slow
def test_dask_scores_the_candidates_an_in_process_run_scores(safecracker, tmp_path):
    """An in-process cluster of threads (the registered toy is known there) plays the candidates."""
    from distributed import LocalCluster

    path = _file(tmp_path)
    here = _tune(path, tmp_path / "here", budget=3_000)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        there = _tune(path, tmp_path / "there", budget=3_000, dask_address=cluster.scheduler_address)
    for info in (here, there):
        info.pop("seconds"), info.pop("tuned_toml")
    assert there == here
