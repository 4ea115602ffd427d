"""``shamble roster check``, ``shamble params`` and ``shamble policies`` end to end.

roster check: exit 0 for a legal team (its points shown), 1 for a team that breaks zombie40k §2
(each problem listed), 2 with one ``error:`` line for a file it cannot read.
"""

from __future__ import annotations

import json
from dataclasses import asdict, fields
from pathlib import Path

import pytest
from typer.testing import CliRunner

from experiments.cli import app
from experiments.params import param_rows as ruleset_param_rows
from sim.ruleset import get
from sim.rulesets.zombie40k.config import POLICY_PRESETS, Policy, tunable_fields
from sim.rulesets.zombie40k.roster import roster_report, usr_text
from sim.rulesets.zombie40k.teams import USR_CHOICES, TeamError

ZOMBIE40K = get("zombie40k")


def param_rows():
    return ruleset_param_rows(ZOMBIE40K)

RUNNER = CliRunner()
ROOT = Path(__file__).resolve().parents[1]
TEAMS = ROOT / "examples" / "teams"
POINTS = {"marines": 66, "marines_bolters": 70, "guard": 75, "boyz": 72, "eldar": 65, "tau": 72, "necrons": 68,
          "plague": 72, "tyranids": 75, "genestealers": 70, "dark_eldar": 70, "sisters": 72, "grey_knights": 60}


def roster(*args: str, code: int) -> str:
    result = RUNNER.invoke(app, ["roster", "check", *args])
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    return result.stdout


def refused(*args: str) -> str:
    """stderr of a command that cannot read its input: exit 2, one 'error:' line."""
    result = RUNNER.invoke(app, list(args))
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.output and result.stdout == ""
    return lines[0]


def write(tmp_path: Path, text: str, name: str = "team.toml") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


# ------------------------------------------------------------------------------ roster check


@pytest.mark.parametrize("name", sorted(POINTS))
def test_example_team_is_legal(name):
    out = roster(str(TEAMS / f"{name}.toml"), code=0)
    assert f"{POINTS[name]} of 75 points" in out
    assert "legal: keeps every zombie40k §2 rule" in out


def test_roster_shows_each_model():
    out = roster(str(TEAMS / "guard.toml"), code=0)
    assert "Guard (" in out and "11 models, 75 of 75 points" in out
    assert "Guardsman, leader: Sergeant" in out and "WS3 BS3 S3 T3 W1 I3 A2 Ld8 Sv5+" in out
    assert "Laspistol, Close combat weapon, Frag grenade" in out
    assert "Guardsman, swap: Flamer" in out and "Frag grenade, Flamer" in out
    assert "Guardsman, swap: Plasma gun" in out
    assert "3-10  8 x Guardsman  [40 pts]" in out and "Lasgun, Frag grenade" in out
    assert "USR: Feel No Pain" in out


def test_roster_shows_the_usr_on_its_model():
    out = roster(str(TEAMS / "eldar.toml"), code=0)
    dire_avenger = out.split("      2  Dire Avenger")[1].split("      3  Dire Avenger")[0]
    assert "USR: Stealth" in dire_avenger
    assert out.count("USR:") == 1


def test_broken_team_lists_every_problem(tmp_path):
    path = write(tmp_path, 'usr = "Eternal Warrior"\n[[models]]\nunit = "Guardsman"\nswap = "Flamer"\n'
                           '[[models]]\nunit = "Guardsman"\nswap = "Meltagun"\n'
                           '[[models]]\nunit = "Guardsman"\nswap = "Plasma gun"\n'
                           '[[models]]\nunit = "Tactical Marine"\ncount = 4\n')
    out = roster(path, code=1)
    assert "illegal: breaks 3 rule(s):" in out
    assert "3 weapon swaps" in out and "costs 101 points; the budget is 75" in out and "§9 list" in out


def test_unknown_unit_is_a_broken_rule_with_a_hint(tmp_path):
    out = roster(write(tmp_path, '[[models]]\nunit = "Guardsmen"\n[[models]]\nunit = "Immortal"\n'), code=1)
    assert "unknown unit 'Guardsmen'; closest: 'Guardsman'" in out
    assert "?" in out  # the model that cannot be built or priced
    assert "WS4 BS4 S4 T4 W1 I2 A1 Ld10 Sv3+" in out  # the Immortal still shows


def test_zombie_team(tmp_path):
    out = roster(write(tmp_path, '[[models]]\nunit = "Zombie"\ncount = 5\n'), code=1)
    assert "on the zombies' side" in out


def test_budget_option():
    assert "the budget is 70" in roster(str(TEAMS / "guard.toml"), "--budget", "70", code=1)
    assert "72 of 80 points" in roster(str(TEAMS / "boyz.toml"), "--budget", "80", code=0)
    refused("roster", "check", str(TEAMS / "guard.toml"), "--budget", "0")


def test_hardcore_refuses_a_usr(tmp_path):
    out = roster(str(TEAMS / "guard.toml"), "--hardcore", code=1)
    assert "no USR may be given under Hardcore Mode" in out
    assert "USR: Feel No Pain" not in out
    assert "legal" in roster(write(tmp_path, '[[models]]\nunit = "Immortal"\n'), "--hardcore", code=0)


def test_missing_file():
    assert "no such team file" in refused("roster", "check", "no/such/team.toml")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('[[models]]\nunit = "Guards', "not valid TOML"),
        ('[[models]]\nunit = "Guardsman"\ncount = 0\n', "'count' = 0"),
        ('[[models]]\nunit = "Guardsman"\ncolour = "red"\n', "unknown field 'colour'"),
        ('[[models]]\nunit = "Guardsman"\ncout = 3\n', "unknown field 'cout' (did you mean 'count'?)"),
        ('usr_modle = 2\n[[models]]\nunit = "Guardsman"\n', "unknown field 'usr_modle' (did you mean 'usr_model'?)"),
        ('usr_model = "first"\n[[models]]\nunit = "Guardsman"\n', "'usr_model'"),
    ],
)
def test_unreadable_file(tmp_path, text, words):
    line = refused("roster", "check", write(tmp_path, text))
    assert words in line and "team.toml" in line


def test_folder(tmp_path):
    assert "folder" in refused("roster", "check", str(tmp_path))


def test_roster_report_refuses_a_bad_budget():
    with pytest.raises(TeamError, match="budget"):
        roster_report(TEAMS / "guard.toml", budget=-5)


def test_usr_text_spells_every_usr():
    """As the zombie40k §9 table writes them."""
    assert usr_text("counter_attack") == "Counter-Attack"
    assert usr_text("feel_no_pain") == "Feel No Pain"
    assert usr_text("and_they_shall_know_no_fear") == "And They Shall Know No Fear"
    assert usr_text("slow_and_purposeful") == "Slow and Purposeful" and usr_text("") == ""
    assert all(usr_text(u)[0].isupper() for u in USR_CHOICES)


def test_a_misspelt_usr_is_a_broken_rule_in_its_written_name_with_a_hint(tmp_path):
    out = roster(write(tmp_path, 'usr = "Feel No Paim"\n[[models]]\nunit = "Guardsman"\ncount = 5\n'), code=1)
    assert "USR 'Feel No Paim' is not in the zombie40k §9 list (did you mean 'Feel No Pain'?)" in out
    assert "feel_no_pain" not in out


# ------------------------------------------------------------------------------ units


def test_a_unit_card_lists_leaders_swaps_costs_and_usrs():
    result = RUNNER.invoke(app, ["units", "Guardsman", "--json"])
    assert result.exit_code == 0, result.output
    card = json.loads(result.stdout)
    assert (card["unit"], card["pts/model"]) == ("Guardsman", "5")
    sergeant = card["leaders"][0]
    assert sergeant["leader"] == "Sergeant" and "A2" in sergeant["profile"]
    assert "Power sword instead of Close combat weapon: +15 pts" in sergeant["options"]
    assert "Flamer instead of Lasgun: +5 pts" in card["swaps"]
    assert card["usr"] == [usr_text(u) for u in USR_CHOICES]
    text = RUNNER.invoke(app, ["units", "guardsman"]).stdout
    assert "Sergeant (incl.)" in text and "at most 2 models" in text and "Feel No Pain" in text


def test_an_unknown_unit_names_the_closest():
    assert "unknown unit 'Guardsmn'; closest: 'Guardsman'" in refused("units", "Guardsmn")


def test_the_unit_list_fits_a_narrow_terminal():
    result = CliRunner().invoke(app, ["units"], env={"COLUMNS": "80"})
    assert result.exit_code == 0 and "…" not in result.stdout and "..." not in result.stdout
    assert max(len(line) for line in result.stdout.splitlines()) <= 80


# ------------------------------------------------------------------------------ params, policies


def test_params_json_lists_every_field():
    result = RUNNER.invoke(app, ["params", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [r["name"] for r in rows] == [f.name for f in tunable_fields()]
    assert all(r["tag"] and r["spec"] for r in rows)
    by_name = {r["name"]: r for r in rows}
    keys = ("name", "default", "tag", "spec", "help", "choices", "range")
    expected = {"name": "team_budget", "default": 75, "tag": "[V]", "spec": "§2",
                "help": "points each player may spend on a team (Killing Floor plays kf_budget instead)", "choices": [],
                "range": [1, 10_000]}
    assert {k: by_name["team_budget"][k] for k in keys} == expected
    assert by_name["horde_size"]["plausible"] == [3, 6] and by_name["tvirus_t"]["needs"] == {"mods": ["t_virus"]}
    assert by_name["table_width_in"]["meaning"]["0.0"].startswith("by player count")
    assert by_name["max_game_turns"]["tag"] == "A12"
    assert by_name["order"]["choices"] == ["rolloff", "fixed", "rotate"]
    assert by_name["geometry"]["default"]["template_models"] == 4
    assert by_name["mods"]["default"] == [] and len(by_name["powerup_values"]["default"]) == 11


def test_params_table():
    result = RUNNER.invoke(app, ["params"], terminal_width=200)
    assert result.exit_code == 0, result.output
    for row in param_rows():
        assert row["name"] in result.stdout
    assert "[C]" in result.stdout and "A12" in result.stdout and "[params]" in result.stdout


def test_policies():
    result = RUNNER.invoke(app, ["policies"], terminal_width=200)
    assert result.exit_code == 0, result.output
    for name in [*POLICY_PRESETS, *(f.name for f in fields(Policy))]:
        assert name in result.stdout


def test_policies_json():
    result = RUNNER.invoke(app, ["policies", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert rows == [{"preset": name, **asdict(p)} for name, p in POLICY_PRESETS.items()]


def test_every_policy_field_is_explained():
    helps = ZOMBIE40K.policy_help()
    assert set(helps) == {f.name for f in fields(Policy)} and all(helps.values())


def test_help_lists_the_new_commands():
    result = RUNNER.invoke(app, ["--help"], terminal_width=200)
    assert result.exit_code == 0
    for command in ("roster", "params", "policies", "odds", "units"):
        assert command in result.stdout
