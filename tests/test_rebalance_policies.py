"""`shamble rebalance --policies tuned.toml` (issue 28 item 4): the game's cells play the policies
of a tuned file, matched by player name, else by team; bad files are one line. Configs only: no
game is played."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from experiments import rebalance_game as rb_game
from experiments.cli import app
from sim.ruleset import get, load_config

ROOT = Path(__file__).resolve().parents[1]
TWO = ROOT / "examples" / "configs" / "two_players.toml"
TEAMS = ROOT / "examples" / "teams"


def tuned_file(tmp_path: Path, players: list[tuple[str, str, str]], ruleset: str = "zombie40k") -> Path:
    """A tuned.toml as `shamble tune` writes it: players with absolute team paths and a policy."""
    lines = [f'ruleset = "{ruleset}"']
    for name, team, policy in players:
        lines += ["[[players]]", f'name = "{name}"', f'team = "{TEAMS / team}.toml"', f'policy = "{policy}"']
    path = tmp_path / "tuned.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def _team(player) -> str:
    return player.team.name


def test_every_seat_of_a_tuned_team_plays_its_tuned_policy(tmp_path):
    """The standard game seats teams as "Seat 1", "Seat 2": the Guard's tuned policy reaches every
    seat fielding the Guard, in every lineup; the others keep the game's own policy."""
    presets = get("zombie40k").policy_presets()
    config = load_config(TWO)
    plain = rb_game.rebalance_game(config)
    path = tuned_file(tmp_path, [("Guard", "guard", "backstabber")])
    game = rb_game.rebalance_game(config, policies=path)
    assert [c.coords for c in game.cells] == [c.coords for c in plain.cells]
    guard = _team(load_config(path).players[0])
    seen = 0
    for before, after in zip(plain.cells, game.cells):
        for p, q in zip(before.config.players, after.config.players):
            if _team(q) == guard:
                seen += 1
                assert q.policy == presets["backstabber"] != p.policy
            else:
                assert q.policy == p.policy
    assert seen >= 2  # the Guard plays in both seats over the lineups
    assert "tuned.toml" in game.title


def test_as_is_matches_players_by_name(tmp_path):
    presets = get("zombie40k").policy_presets()
    path = tuned_file(tmp_path, [("Marines", "marines", "hunter")])
    game = rb_game.rebalance_game(load_config(TWO), as_is=True, policies=path)
    players = {p.name: p.policy for p in game.cells[0].config.players}
    assert players["Marines"] == presets["hunter"] and players["Guard"] == load_config(TWO).players[0].policy


@pytest.mark.parametrize("case, words", [
    ("missing", "--policies {path}: no such file"),
    ("ruleset", "--policies {path}: a outwest config; allowed: a tuned.toml of zombie40k"),
    ("unknown", "--policies {path}: player 'Nobody' (team "),
])
def test_bad_policies_files_are_one_line_exit_2(tmp_path, case, words):
    if case == "missing":
        path = tmp_path / "nowhere.toml"
    elif case == "ruleset":
        path = ROOT / "examples" / "outwest" / "hold.toml"
    else:  # a tau player in the two-player game as it is: neither his name nor his team plays
        path = tuned_file(tmp_path, [("Guard", "guard", "dash"), ("Nobody", "tau", "dash")])
    result = CliRunner().invoke(app, ["rebalance", str(TWO), "--as-is", "--policies", str(path),
                                      "--out", str(tmp_path / "o")])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: " + words.format(path=path)), result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "o").exists()
