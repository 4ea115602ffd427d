"""Experiments: axes crossed into cells, stable keys, common random numbers, one-line errors.

Nothing here plays a game except the CRN test (a few games as plain Python).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import EXAMPLES

from experiments.experiment import Experiment, ExperimentError, experiment_from_dict, load_experiment, parse_axis
from sim.rulesets.zombie40k.config import load_config
from sim.rulesets.zombie40k.teams import team_cost

TWO = EXAMPLES / "configs" / "two_players.toml"


def experiment(axes: dict, **top) -> Experiment:
    return experiment_from_dict({"base": str(TWO), "games": 10, "seed": 3, "axes": axes} | top, Path("."))


def test_axes_cross_into_cells_first_axis_slowest():
    cells = experiment({"budget": [50, 100], "horde_size": [4, 5, 6]}).cells()
    assert [c.coords for c in cells[:4]] == [
        (("budget", "50"), ("horde_size", "4")), (("budget", "50"), ("horde_size", "5")),
        (("budget", "50"), ("horde_size", "6")), (("budget", "100"), ("horde_size", "4"))]
    assert len(cells) == 6 and len({c.key for c in cells}) == 6
    assert cells[5].config.horde_size == 6 and cells[5].config.team_budget == 100


def test_no_axes_is_one_base_cell():
    (cell,) = experiment({}).cells()
    assert cell.label == "base" and cell.config == load_config(TWO)


def test_cells_are_made_once_and_a_resized_experiment_makes_its_own():
    exp = experiment({"budget": [50, 100]})
    first, again = exp.cells(), exp.cells()
    assert first == again and first is not again and all(a is b for a, b in zip(first, again))
    first.clear()  # a caller's list is its own: the experiment's cells are untouched
    assert len(exp.cells()) == 2
    resized = exp.resized(games=20)  # another experiment: other keys (the games are in each key)
    assert [c.coords for c in resized.cells()] == [c.coords for c in again]
    assert not {c.key for c in resized.cells()} & {c.key for c in again}
    assert exp == experiment({"budget": [50, 100]})  # the made cells are no part of its equality


def test_budget_refits_every_team_within_the_budget():
    for cell in experiment({"budget": [40, 75, 120]}).cells():
        budget = cell.config.team_budget
        assert all(team_cost(p.team) <= budget for p in cell.config.players)
    big = experiment({"budget": [120]}).cells()[0].config
    assert len(big.players[0].team.models) > len(load_config(TWO).players[0].team.models)


def test_mods_powerups_players_teams_policies_and_params():
    exp = experiment({
        "mods": [[], ["T-Virus", "hardcore"]], "powerups_removed": ["none", 12, "medpack"], "players": [2, 4],
        "team": {"Guard": ["tau"], "1": ["necrons"]}, "policy": {"Marines": ["hunter", {"preset": "dash", "run": 1}]},
        "tvirus_t": [5], "surrounded_ratio": [3],
    })
    cells = exp.cells()
    assert len(cells) == 2 * 3 * 2 * 2
    last = cells[-1].config
    assert last.mods == {"t_virus", "hardcore"} and last.powerups_removed == (7,)
    assert last.n_players == 4 and last.players[0].team.name == "Tau" and last.players[1].team.name == "Necrons"
    assert last.players[1].policy.run == 1 and last.tvirus_t == 5
    assert isinstance(last.surrounded_ratio, float)
    labels = dict(cells[-1].coords)
    assert labels["mods"] == "hardcore+t_virus" and labels["powerups_removed"] == "no_medpack"
    assert labels["team.Guard"] == "tau" and labels["policy.Marines"] == "preset:dash;run:1"


def test_keys_are_stable_and_name_the_games():
    a, b = experiment({"horde_size": [4, 5]}), experiment({"horde_size": [4, 5]})
    assert [c.key for c in a.cells()] == [c.key for c in b.cells()]
    assert a.fingerprint() == b.fingerprint()
    assert a.cells()[0].key.startswith("horde_size=4-")
    other_seed = experiment({"horde_size": [4, 5]}, seed=4)
    assert a.cells()[0].key != other_seed.cells()[0].key and a.fingerprint() != other_seed.fingerprint()
    assert a.fingerprint() != a.resized(games=11).fingerprint()
    assert a.fingerprint() != a.resized(target_halfwidth=0.05).fingerprint()


def test_team_file_paths_do_not_change_keys(tmp_path):
    """Only what plays counts: the same team read from another path gives the same key."""
    (tmp_path / "g.toml").write_text((EXAMPLES / "teams" / "guard.toml").read_text())
    by_name = experiment({"team": {"Guard": ["guard"]}}).cells()[0].key
    by_path = experiment_from_dict({"base": str(TWO), "games": 10, "seed": 3,
                                    "axes": {"team": {"Guard": ["g.toml"]}}}, tmp_path).cells()[0].key
    assert by_name.split("-")[-1] == by_path.split("-")[-1]  # the label shows the file name, the hash the team


def test_every_cell_shares_the_seed(nojit):
    """CRN: no cell key in the seed, so two identical configs in two cells play identical games."""
    from experiments.sweep import run_cell

    exp = experiment({"emfh_radius_in": [6, 9]})  # an Every Man For Himself number: no effect without the mod
    first, second = (run_cell(c.config, 3, exp.seed) for c in exp.cells())
    assert first.equals(second)


@pytest.mark.parametrize("axes, message", [
    ({"hord_size": [4]}, "unknown axis 'hord_size' (did you mean 'horde_size'?)"),
    ({"horde_size": [0]}, "axes.horde_size: value: horde_size = 0; allowed: an integer 1-30"),
    ({"horde_size": []}, "axes.horde_size: must be a non-empty list"),
    ({"horde_size": 5}, "axes.horde_size: must be a non-empty list"),
    ({"horde_size": [5, 5]}, "axes.horde_size: a value is listed twice"),
    ({"mods": [["t_virrus"]]}, "axes.mods: unknown mod 't_virrus' (did you mean 't_virus'?)"),
    ({"mods": ["t_virus"]}, "axes.mods: 't_virus'; allowed: a list of mod names"),
    ({"powerups_removed": [13]}, "axes.powerups_removed: 13; allowed: \"none\", a Power-Up result 2-12"),
    ({"budget": [0]}, "axes.budget: 0; allowed: a points budget"),
    ({"budget": [3]}, "buys no model"),
    ({"players": [3]}, "axes.players: 3; allowed: a player count with an example config (2, 4, 6)"),
    ({"team": {"Gaurd": ["tau"]}}, "axes.team.Gaurd: no player 'Gaurd'; allowed: Guard, Marines or 0-1"),
    ({"team": {"Guard": ["elves"]}}, "axes.team.Guard: no example team 'elves'"),
    ({"team": ["tau"]}, "axes.team: must be a table of player = [values]"),
    ({"policy": {"Guard": ["sprint"]}}, "axes.policy.Guard: policy: policy = 'sprint'; allowed: dash"),
    ({"order": ["random"]}, "order = 'random'; allowed: rolloff, fixed, rotate"),
])
def test_bad_axes_are_one_line_errors(axes, message):
    with pytest.raises(ExperimentError) as err:
        experiment(axes).cells()
    assert message in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("text, message", [
    ('base = "missing.toml"', "missing.toml: no such config file"),
    ('games = 10', "field 'base' is missing"),
    ('base = "BASE"\ngames = 0', "games = 0; allowed: an integer 1 or more"),
    ('base = "BASE"\nseed = -1', "seed = -1"),
    ('base = "BASE"\ncolour = 1', "unknown field 'colour'"),
    ('base = "BASE"\naxes = 3', "field 'axes' must be a table"),
    ('base = "BASE"\n[axes]\nhorde_size = [4, 4]', "a value is listed twice"),
    ('base = [', "not valid TOML"),
])
def test_bad_files_name_the_file(tmp_path, text, message):
    path = tmp_path / "exp.toml"
    path.write_text(text.replace("BASE", str(TWO)))
    with pytest.raises(ExperimentError) as err:
        load_experiment(path)
    assert str(err.value).startswith(str(path)) and message in str(err.value)


def test_example_experiments_load():
    for path in sorted((EXAMPLES / "experiments").glob("*.toml")):
        exp = load_experiment(path)
        assert exp.cells() and exp.games >= 1000, path


def test_parse_axis_names_the_player_it_targets():
    base = load_config(TWO)
    axis = parse_axis("team", ["marines", "tau"], base, Path("."), target="1")
    assert axis.name == "team.Marines" and axis.target == 1 and axis.labels == ("marines", "tau")


def test_parameter_sets_may_switch_a_mod_on():
    exp = experiment({"params": [{}, {"mods": ["t_virus"], "tvirus_t": 5}, {"horde_size": 3}]})
    base, virus, small = (c.config for c in exp.cells())
    assert base.mods == frozenset() and virus.mods == {"t_virus"} and virus.tvirus_t == 5 and small.horde_size == 3
    assert [label for _, label in (c.coords[0] for c in exp.cells())] == ["base", "mods=t_virus;tvirus_t=5",
                                                                           "horde_size=3"]
    with pytest.raises(ExperimentError, match="axes.params: value: unknown parameter 'hord_size' \\(did you mean"):
        experiment({"params": [{"hord_size": 3}]}).cells()


def test_cells_that_cannot_play_stop_the_sweep_before_any_game(tmp_path):
    from experiments.sweep import sweep

    exp = experiment({"mods": [[], ["t_virus", "death_korps"]]})
    with pytest.raises(ExperimentError, match="cell mods=death_korps\\+t_virus: .*cannot be combined"):
        sweep(exp, tmp_path / "out", show_progress=False)
    assert not (tmp_path / "out").exists()


def test_the_cell_hash_leaves_out_the_fields_outside_equality():
    """A field declared compare=False (where a team was read from) does not change a config's key;
    every other field does, whatever its name."""
    from dataclasses import dataclass, field, replace

    from experiments.experiment import config_fingerprint

    @dataclass(frozen=True)
    class Side:
        name: str
        source: str = field(default="", compare=False)
        origin: str = ""

    side = Side("Marines", "a.toml")
    assert config_fingerprint(replace(side, source="b.toml")) == config_fingerprint(side)
    assert config_fingerprint(replace(side, origin="b.toml")) != config_fingerprint(side)
    team = load_config(EXAMPLES / "configs" / "two_players.toml").players[0].team
    assert team.source and config_fingerprint(replace(team, source="elsewhere.toml")) == config_fingerprint(team)
