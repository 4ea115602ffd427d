"""``shamble odds`` end to end, and the rules of `sim.w40k.odds.build_exchange` that count the dice.

The CLI cases assert exact published odds (five marines double-tapping zombies: 10 x 8/27 models
removed), answer for every catalogue unit as attacker and as target, and check that bad input
ends in one ``error:`` line with exit code 2.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace
from functools import partial

import pytest
from typer.testing import CliRunner

from experiments.cli import app
from sim.rulesets.zombie40k.catalogue import catalogue
from sim.w40k import odds as core_odds
from sim.w40k.catalogue import UnknownNameError
from sim.w40k.odds import attacks_per_model, describe
from sim.w40k.odds_tables import odds_table, plot_odds
from sim.w40k.profiles import NO_SAVE

build_exchange = partial(core_odds.build_exchange, catalogue=catalogue())  # Zombie 40,000's units

RUNNER = CliRunner()
UNITS = list(catalogue().units)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def odds(*args: str) -> dict:
    result = RUNNER.invoke(app, ["odds", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def refused(*args: str) -> str:
    """stderr of a command that must fail on bad input: exit 2, one 'error:' line."""
    result = RUNNER.invoke(app, list(args))
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.output
    return lines[0]


# ---------------------------------------------------------------------------------- exact odds


def test_five_marines_double_tap_zombies():
    # 10 shots, each: hit 3+ (2/3) x wound S4 vs T3 on 3+ (2/3) x fail FNP 5+ (2/3) = 8/27
    data = odds("Tactical Marine", "--weapon", "Boltgun", "--models", "5", "--half-range", "--target", "Zombie")
    assert data["n_dice"] == 10
    assert abs(data["killed"]["mean"] - 10 * 8 / 27) < 1e-9
    assert abs(data["unsaved"]["mean"] - 10 * 8 / 27) < 1e-9
    assert abs(sum(data["killed"]["pmf"]) - 1) < 1e-12
    assert data["killed"]["at_least"][0] == pytest.approx(1)
    assert data["killed"]["pmf"][10] == pytest.approx((8 / 27) ** 10, rel=1e-9)


def test_t_virus_zombies():
    # T-Virus (zombie40k §10.9): T4, FNP 4+: 2/3 x 1/2 x 1/2 = 1/6 per shot
    data = odds("Tactical Marine", "--weapon", "Boltgun", "--models", "5", "--half-range", "--target", "Zombie",
                "--t", "4", "--fnp", "4")
    assert abs(data["killed"]["mean"] - 10 / 6) < 1e-9


def test_at_least_column_is_the_tail_sum():
    data = odds("Guardsman", "--models", "10", "--half-range")
    pmf, at_least = data["killed"]["pmf"], data["killed"]["at_least"]
    for x in range(len(pmf)):
        assert at_least[x] == pytest.approx(sum(pmf[x:]), abs=1e-12)


@pytest.mark.parametrize("unit", UNITS)
def test_every_unit_attacks_with_its_default_weapon(unit):
    data = odds(unit, "--target", "Zombie")
    assert sum(data["killed"]["pmf"]) == pytest.approx(1)
    assert 0 <= data["killed"]["mean"] <= 10


@pytest.mark.parametrize("unit", UNITS)
def test_every_unit_is_a_target(unit):
    data = odds("Tactical Marine", "--models", "5", "--target", unit)
    assert sum(data["unsaved"]["pmf"]) == pytest.approx(1)
    assert data["exchange"]["target"] == f"10 x {catalogue().unit(unit).name}"


def test_text_output_shows_the_rolls_and_the_tables():
    result = RUNNER.invoke(app, ["odds", "Tactical Marine", "--models", "5", "--half-range"])
    assert result.exit_code == 0, result.output
    for words in ("Boltgun", "to hit 3+", "to wound 3+", "Feel No Pain 5+", "Exact odds", "2.9630"):
        assert words in result.stdout


def test_simulate_agrees_with_the_exact_mean():
    data = odds("Tactical Marine", "--models", "5", "--half-range", "--simulate", "20000", "--seed", "7")
    sim = data["simulated"]
    assert sim["games"] == 20000 and sim["seed"] == 7
    for key in ("unsaved", "killed"):
        assert abs(sim[key]["z"]) < 4.5  # alpha about 1e-5
        assert sim[key]["mean"] == pytest.approx(data[key]["mean"], abs=5 * sim[key]["stderr"])


def test_simulate_is_reproducible():
    args = ("Ork Boy", "--melee", "--charge", "--models", "3", "--simulate", "500", "--seed", "3")
    assert odds(*args)["simulated"] == odds(*args)["simulated"]


# ---------------------------------------------------------------------------------- bad input


def test_misspelt_unit_names_the_closest():
    line = refused("odds", "Tactical Marne")
    assert "Tactical Marine" in line


def test_negative_models():
    line = refused("odds", "Tactical Marine", "--models", "-1")
    assert "models" in line and "1-400" in line


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--target", "Zombi Bos"], "Zombie Boss"),
        (["--weapon", "Boltgunn"], "Boltgun"),
        (["--weapon", "Missile launcher"], "Missile launcher (krak)"),
        (["--weapon", "Vox-caster"], "no weapon profile"),
        (["--weapon", "Boltgun", "--melee"], "not a close combat weapon"),
        (["--weapon", "Bolt pistol", "--melee"], "Close combat weapon"),
        (["--leader", "Boss Nob"], "Space Marine Sergeant"),
        (["--charge"], "charge"),
        (["--melee", "--half-range"], "half_range"),
        (["--melee", "--cover", "4"], "cover"),
        (["--melee", "--charge", "--later-round"], "first round"),
        (["--later-round"], "first_round"),
        (["--weapon", "Missile launcher (frag)", "--moved"], "a blast cannot fire Snap Shots"),
        (["--weapon", "Flamer", "--snap"], "template"),
        (["--cover", "9"], "cover = 9"),
        (["--t", "11"], "t = 11"),
        (["--fnp", "1"], "fnp = 1"),
        (["--w", "0"], "w = 0"),
        (["--target-models", "61"], "target_models"),
        (["--dice", "401"], "dice = 401"),
        (["--models", "400", "--half-range"], "800 dice"),
        (["--medpacks", "-1"], "medpacks"),
        (["--simulate", "-5"], "simulate = -5"),
        (["--simulate", "10", "--seed", "-1"], "seed = -1"),
    ],
)
def test_bad_option_is_one_line(args, words):
    line = refused("odds", "Tactical Marine", *args)
    assert words in line


def test_a_model_without_a_ranged_weapon_says_so():
    assert "Zombie has no ranged weapon" in refused("odds", "Zombie", "--half-range")


def test_zombies_cannot_fire_overwatch():
    assert "Slow and Purposeful" in refused("odds", "Zombie Boss", "--overwatch")


def test_plot_to_a_missing_folder_makes_it(tmp_path):
    result = RUNNER.invoke(app, ["odds", "Tactical Marine", "--plot", str(tmp_path / "new" / "odds.png")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "new" / "odds.png").read_bytes().startswith(PNG_SIGNATURE)


def test_plot_through_a_file_is_refused(tmp_path):
    (tmp_path / "file").write_text("x")
    line = refused("odds", "Tactical Marine", "--plot", str(tmp_path / "file" / "odds.png"))
    assert "is a file, not a folder" in line


def test_plot_with_an_unknown_format(tmp_path):
    assert ".png" in refused("odds", "Tactical Marine", "--plot", str(tmp_path / "odds.txt"))


# ---------------------------------------------------------------------------------- plot


def test_plot_writes_a_png_and_no_temp_file(tmp_path):
    path = tmp_path / "odds.png"
    result = RUNNER.invoke(app, ["odds", "Tactical Marine", "--models", "5", "--half-range", "--plot", str(path),
                                 "--json"])
    assert result.exit_code == 0, result.output
    assert path.read_bytes()[:8] == PNG_SIGNATURE
    assert sorted(tmp_path.iterdir()) == [path]


def test_plot_replaces_an_old_file(tmp_path):
    path = tmp_path / "odds.png"
    path.write_bytes(b"old")
    plot_odds(odds_table(build_exchange("Guardsman", None, "Zombie", models=3)), path)
    assert path.read_bytes()[:8] == PNG_SIGNATURE
    assert sorted(tmp_path.iterdir()) == [path]


# ---------------------------------------------------------------------------------- listings


def test_units_and_weapons_lists():
    units = RUNNER.invoke(app, ["units"])
    assert units.exit_code == 0 and "Tactical" in units.stdout
    weapons = RUNNER.invoke(app, ["weapons"])
    assert weapons.exit_code == 0 and "Boltgun" in weapons.stdout
    assert len(core_odds.unit_rows(catalogue())) == len(UNITS)
    rows = {r["weapon"]: r["profile"] for r in core_odds.weapon_rows(catalogue())}
    assert rows["Boltgun"] == '24" S4 AP5 Rapid Fire'
    assert "Missile launcher (frag)" in rows["Missile launcher"]


def test_version_and_help():
    version = RUNNER.invoke(app, ["--version"])
    assert version.exit_code == 0 and version.stdout.startswith("shamble ")
    helped = RUNNER.invoke(app, ["--help"])
    assert helped.exit_code == 0 and "odds" in helped.stdout and "bench" in helped.stdout


# ---------------------------------------------------------------------------------- dice rules


def n_dice(attacker: str, weapon: str | None = None, target: str = "Zombie", **options) -> int:
    return build_exchange(attacker, weapon, target, **options).n_dice


def test_rapid_fire_doubles_at_half_range():
    assert n_dice("Guardsman", models=10) == 10
    assert n_dice("Guardsman", models=10, half_range=True) == 20


def test_salvo_moving_and_stationary():
    # Grav-gun Salvo 2/3 (core-7th-edition §6.2)
    assert n_dice("Tactical Marine", "Grav-gun", models=2) == 6
    assert n_dice("Tactical Marine", "Grav-gun", models=2, moved=True) == 4


def test_heavy_after_moving_fires_snap_shots_unless_relentless():
    still = build_exchange("Tactical Marine", "Heavy bolter", "Zombie")
    moved = build_exchange("Tactical Marine", "Heavy bolter", "Zombie", moved=True)
    assert (still.n_dice, still.snap) == (3, False)
    assert (moved.n_dice, moved.snap) == (3, True)
    relentless = build_exchange("Patriarch", "Assault cannon", "Tactical Marine", moved=True)
    assert (relentless.n_dice, relentless.snap) == (4, False)


def test_blasts_and_templates_one_per_model():
    assert n_dice("Tactical Marine", "Missile launcher (frag)", models=3) == 3
    assert n_dice("Tactical Marine", "Flamer", models=2, half_range=True) == 2
    overwatch = build_exchange("Tactical Marine", "Flamer", "Zombie", overwatch=True)
    assert overwatch.overwatch and "D3 hits" in describe(overwatch)["dice"]


def test_spinefists_fire_the_models_attacks():
    assert n_dice("Termagant", "Spinefists", models=4) == 4
    assert n_dice("Hormagaunt", "Spinefists", models=4) == 8


def test_close_combat_attacks_and_the_charge():
    assert n_dice("Ork Boy", melee=True, models=3) == 6
    assert n_dice("Ork Boy", melee=True, models=3, charge=True) == 9
    assert n_dice("Ork Boy", "Choppa", models=3) == 6  # a melee weapon means close combat


def test_rage_gives_two_on_the_charge():
    guard = catalogue().unit("Guardsman").profile
    raging = replace(guard, rules=guard.rules | {"rage"})
    assert attacks_per_model(raging, charge=True, defensive_grenades=False) == 3
    assert attacks_per_model(raging, charge=False, defensive_grenades=False) == 1
    assert attacks_per_model(raging, charge=True, defensive_grenades=True) == 1


def test_defensive_grenades_cancel_the_charge_bonus():
    # Zombie Boss carries Blight Grenades: assault and defensive (zombie40k §11; core-7th-edition §8)
    assert n_dice("Ork Boy", melee=True, charge=True, target="Zombie Boss", target_models=1) == 2
    assert n_dice("Ork Boy", melee=True, charge=True, target="Zombie", target_models=1) == 3


def test_leader_profile_and_wargear():
    nob = build_exchange("Ork Boy", None, "Zombie", leader="Boss Nob", melee=True, charge=True)
    assert nob.attacker.name == "Boss Nob" and nob.n_dice == 4
    sergeant = build_exchange("Guardsman", None, "Zombie", leader="Sergeant")
    assert sergeant.weapon.name == "Laspistol"


def test_default_weapons():
    assert build_exchange("Zombie Boss", None, "Guardsman").weapon.name == "Blight grenade"
    fallback = build_exchange("Zombie", None, "Guardsman")  # no ranged weapon: close combat
    assert fallback.melee and fallback.weapon.name == "Close combat weapon"
    assert build_exchange("Tactical Marine", None, "Zombie", melee=True).weapon.name == "Close combat weapon"
    assert build_exchange("Fire Dragon", None, "Zombie", melee=True).weapon.name == "Close combat weapon"
    assert build_exchange("Plague Marine", None, "Zombie", melee=True).weapon.name == "Plague knife"
    assert build_exchange("Ork Boy", "Power klaw", "Zombie").weapon.name == "Power fist"


def test_target_overrides_keep_feel_no_pain_consistent():
    none = build_exchange("Tactical Marine", None, "Zombie", fnp=NO_SAVE).target[0]
    assert none.fnp == NO_SAVE and not none.has("feel_no_pain")
    some = build_exchange("Tactical Marine", None, "Guardsman", fnp=4, sv=NO_SAVE, inv=5, w=2, t=5).target[0]
    assert (some.fnp, some.sv, some.inv, some.w, some.t) == (4, NO_SAVE, 5, 2, 5) and some.has("feel_no_pain")


def test_unknown_leader_is_an_unknown_name():
    with pytest.raises(UnknownNameError):
        build_exchange("Guardsman", None, "Zombie", leader="Warboss")


def test_describe_in_words():
    words = describe(build_exchange("Tactical Marine", "Boltgun", "Zombie Boss", models=2, cover=4))
    assert words["to_hit"] == "3+ (BS 4)"
    assert words["to_wound"] == "5+ (S4 vs T5)"
    assert words["save"].startswith("2+ armour")
    assert "cover 4+" in words["situation"]
    assert not math.isnan(odds_table(build_exchange("Tactical Marine", None, "Zombie"))["killed"]["mean"])
