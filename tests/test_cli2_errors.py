"""Errors (issue 29, item 22): did-you-mean for policies and --player, --ruleset in the hints."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from experiments.cli import app
from experiments.solve import player_index, with_param
from sim.cli_errors import did_you_mean
from sim.ruleset import load_config

ROOT = Path(__file__).resolve().parents[1]
RUNNER = CliRunner()


def test_a_refused_word_gets_the_closest_allowed_one():
    message = "x.toml: players[0]: policy = 'huntr'; allowed: dash, advance, hunter, backstabber or a table"
    assert did_you_mean(message).endswith("(did you mean 'hunter'?)")
    assert did_you_mean("policy = 'zzzz'; allowed: dash, advance") == "policy = 'zzzz'; allowed: dash, advance"
    already = "--mod 't_virrus'; allowed: t_virus (did you mean 't_virus'?)"
    assert did_you_mean(already) == already


def test_a_policy_typo_in_a_config_gets_a_hint(tmp_path):
    text = (ROOT / "examples" / "configs" / "two_players.toml").read_text()
    bad = tmp_path / "bad.toml"
    text = text.replace('"../teams/', f'"{ROOT / "examples" / "teams"}/')
    bad.write_text(text.replace('policy = "hunter"', 'policy = "huntr"', 1))
    result = RUNNER.invoke(app, ["play", str(bad), "--games", "1"])
    assert result.exit_code == 2 and "did you mean 'hunter'?" in result.output


def test_a_player_typo_gets_a_hint():
    config = load_config(ROOT / "examples" / "configs" / "two_players.toml")
    names = [p.name for p in config.players]
    with pytest.raises(ValueError, match=rf"did you mean '{names[0]}'\?"):
        player_index(config, names[0][:-1])


def test_hints_that_need_a_ruleset_name_it():
    from sim.ruleset import ruleset_of

    config = load_config(ROOT / "examples" / "outwest" / "hold.toml")
    name = next(p.name for p in ruleset_of(config).parameters() if not p.is_numeric)
    with pytest.raises(ValueError, match=r"see `shamble params --ruleset outwest`"):
        with_param(config, name, 1)
