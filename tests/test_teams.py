"""Zombie Survival Teams (zombie40k §2): the example teams, every team-building rule, exact
costs, what ``build_team`` puts on the table, and team files that cannot be read.

Each rule is broken once, alone, and must come back as exactly one problem; bad files must
give one ``TeamError`` line naming the file and the field; random dicts must give a Team or a
TeamError, never another exception.
"""

from __future__ import annotations

import string
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.rulesets.zombie40k.catalogue import catalogue, catalogue_file
from sim.rulesets.zombie40k.teams import (
    USR_CHOICES,
    ModelChoice,
    Team,
    TeamError,
    build_team,
    check_team,
    load_team,
    team_cost,
    team_from_dict,
    usr_key,
)

ROOT = Path(__file__).resolve().parents[1]
TEAMS = ROOT / "examples" / "teams"
CAT = catalogue()

# catalogue.md §6: file -> (points, models)
EXAMPLES = {
    "marines.toml": (66, 4),
    "marines_bolters.toml": (70, 5),
    "guard.toml": (75, 11),
    "boyz.toml": (72, 12),
    "eldar.toml": (65, 4),
    "tau.toml": (72, 8),
    "necrons.toml": (68, 4),
    "plague.toml": (72, 3),
    "tyranids.toml": (75, 15),
    "genestealers.toml": (70, 5),
    "dark_eldar.toml": (70, 7),
    "sisters.toml": (72, 6),
    "grey_knights.toml": (60, 3),
}


def team(*models: ModelChoice, usr: str = "", usr_model: int = 0) -> Team:
    return Team("test", models, usr, usr_model)


def many(n: int, unit: str, **kw) -> tuple[ModelChoice, ...]:
    return (ModelChoice(unit, **kw),) * n


def only_problem(t: Team, **kw) -> str:
    """The one rule the team breaks (each test breaks exactly one)."""
    problems = check_team(t, cat=CAT, **kw)
    assert len(problems) == 1, problems
    return problems[0]


# ------------------------------------------------------------------------------ example teams


def test_every_example_team_is_listed():
    assert sorted(p.name for p in TEAMS.glob("*.toml")) == sorted(EXAMPLES)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_team_is_legal_at_its_catalogue_points(name):
    points, n_models = EXAMPLES[name]
    t = load_team(TEAMS / name)
    assert check_team(t, cat=CAT) == []
    assert team_cost(t, CAT) == points
    assert len(t.models) == n_models
    assert t.usr in USR_CHOICES and 0 <= t.usr_model < n_models
    assert len(build_team(t, CAT)) == n_models


def test_example_teams_vary_their_usr():
    usrs = {load_team(TEAMS / name).usr for name in EXAMPLES}
    assert len(usrs) >= 10
    assert {"feel_no_pain", "counter_attack", "furious_charge", "hatred", "preferred_enemy", "stealth"} <= usrs


def test_example_team_upgrades_match_the_catalogue():
    def upgrades(name: str) -> list[tuple[str, str]]:
        return [(m.leader, m.swap) for m in load_team(TEAMS / name).models if m.leader or m.swap]

    assert upgrades("marines.toml") == [("Space Marine Sergeant", ""), ("", "Meltagun")]
    assert upgrades("guard.toml") == [("Sergeant", ""), ("", "Flamer"), ("", "Plasma gun")]
    assert upgrades("plague.toml") == [("Plague Champion", "")]
    assert upgrades("grey_knights.toml") == [("Justicar", "")]
    assert upgrades("boyz.toml") == []


# ------------------------------------------------------------------------------ zombie40k §2 rules


def test_over_budget():
    assert "costs 84 points; the budget is 75" in only_problem(team(*many(6, "Tactical Marine")))


def test_budget_is_a_parameter():
    guard = load_team(TEAMS / "guard.toml")
    assert check_team(guard, Fraction(75), CAT) == []
    assert "the budget is 74" in only_problem(guard, budget=Fraction(74))


def test_two_leaders():
    t = team(*many(2, "Tactical Marine", leader="Space Marine Sergeant"), ModelChoice("Tactical Marine"))
    assert "2 leaders; at most one" in only_problem(t)


def test_three_swaps():
    t = team(ModelChoice("Guardsman", swap="Flamer"), ModelChoice("Guardsman", swap="Meltagun"),
             ModelChoice("Guardsman", swap="Sniper rifle"), ModelChoice("Guardsman"))
    assert "3 weapon swaps; at most 2" in only_problem(t)


def test_two_swaps_and_a_leader_are_allowed():
    t = team(ModelChoice("Guardsman", leader="Sergeant"), ModelChoice("Guardsman", swap="Flamer"),
             ModelChoice("Guardsman", swap="Meltagun"))
    assert check_team(t, cat=CAT) == []


def test_leader_cannot_also_swap():
    t = team(ModelChoice("Guardsman", leader="Sergeant", swap="Flamer"))
    assert "a leader cannot also take a weapon swap" in only_problem(t)


def test_zombie_side_unit():
    assert "'Zombie' is on the zombies' side" in only_problem(team(ModelChoice("Zombie")))


def test_unknown_unit_names_the_closest():
    problem = only_problem(team(ModelChoice("Guardsmen")))
    assert "unknown unit 'Guardsmen'" in problem and "closest: 'Guardsman'" in problem


def test_swap_not_offered():
    problem = only_problem(team(ModelChoice("Guardsman", swap="Lascannon")))
    assert "weapon swap 'Lascannon' is not an option of 'Guardsman'" in problem
    assert "'Flamer'" in problem  # the allowed ones are listed


def test_leader_option_not_offered():
    problem = only_problem(team(ModelChoice("Guardsman", leader="Sergeant", options=("Power fist",))))
    assert "leader option 'Power fist' is not an option of 'Guardsman'" in problem


def test_leader_not_offered():
    assert "unknown leader 'Lord'" in only_problem(team(ModelChoice("Immortal", leader="Lord")))


def test_options_without_a_leader():
    assert "need a leader upgrade" in only_problem(team(ModelChoice("Guardsman", options=("Power sword",))))


def test_usr_not_in_the_list():
    assert "not in the zombie40k §9 list" in only_problem(team(ModelChoice("Immortal"), usr="Eternal Warrior"))


def test_usr_under_hardcore():
    t = team(ModelChoice("Immortal"), usr="Feel No Pain")
    assert check_team(t, cat=CAT) == []
    assert "no USR may be given under Hardcore Mode" in only_problem(t, allow_usr=False)


@pytest.mark.parametrize("usr_model", [2, -1, 10**6])
def test_usr_model_out_of_range(usr_model):
    t = team(*many(2, "Immortal"), usr="Stubborn", usr_model=usr_model)
    assert f"usr_model = {usr_model}; allowed: 0-1" in only_problem(t)


def test_no_models():
    assert check_team(Team("empty", ()), cat=CAT) == ["the team has no models"]


def test_usr_names_are_keys():
    assert usr_key("Feel No Pain") == "feel_no_pain"
    assert usr_key("Counter-Attack") == "counter_attack"
    assert usr_key("  And They Shall Know No Fear ") == "and_they_shall_know_no_fear"
    assert Team("t", (), "Preferred Enemy").usr == "preferred_enemy"


# ------------------------------------------------------------------------------ exact costs


def test_cultists_cost_a_tenth_of_their_block():
    assert team_cost(team(*many(8, "Chaos Cultist")), CAT) == 40
    assert team_cost(team(*many(3, "Tactical Marine")), CAT) == 42  # 70 / 5 each


def test_every_rule_broken_is_reported_not_only_the_first():
    """Over budget (16 Guardsmen: 80 points) and an illegal swap: both, the cost as a lower bound
    since the illegal model cannot be priced."""
    problems = check_team(team(ModelChoice("Guardsman", swap="Lascannon"), *many(16, "Guardsman")), cat=CAT)
    assert len(problems) == 2, problems
    assert "weapon swap 'Lascannon' is not an option" in problems[0]
    assert problems[1].startswith("costs at least 80 points; the budget is 75")


def test_leader_options_and_swaps_are_paid():
    nob = team(ModelChoice("Ork Boy", leader="Boss Nob", options=("Power klaw",)))
    assert team_cost(nob, CAT) == 6 + 10 + 25
    assert team_cost(team(ModelChoice("Guardsman", swap="Plasma gun")), CAT) == 5 + 15


@pytest.fixture(scope="module")
def militia_catalogue(tmp_path_factory):
    """The catalogue plus a unit whose block price does not divide: 50 points for 8 models (6.25 each),
    as the printed Chaos Cultist price (catalogue §2, check)."""
    path = tmp_path_factory.mktemp("cat") / "militia.toml"
    path.write_text(
        '[[unit]]\nfaction = "Test"\nname = "Militia"\nblock_cost = 50\nblock_models = 8\n'
        'profile = { ws = 3, bs = 3, s = 3, t = 3, w = 1, i = 3, a = 1, ld = 7, sv = 6 }\n'
        'wargear = ["Lasgun"]\n'
        '[[unit]]\nfaction = "Test"\nname = "Sevenths"\nblock_cost = 10\nblock_models = 7\n'
        'profile = { ws = 3, bs = 3, s = 3, t = 3, w = 1, i = 3, a = 1, ld = 7, sv = 6 }\n'
        'wargear = ["Lasgun"]\n'
    )
    return catalogue_file(path)


def test_fractional_costs_are_exact(militia_catalogue):
    cat = militia_catalogue
    assert team_cost(team(*many(3, "Militia")), cat) == Fraction(75, 4)
    assert check_team(team(*many(12, "Militia")), cat=cat) == []  # 12 x 6.25 = 75 exactly
    assert "costs 81.25 points" in check_team(team(*many(13, "Militia")), cat=cat)[0]
    # 10/7 points per model: seven cost 10 exactly; 52 cost 520/7 (74.29, legal), 53 cost 75.71
    assert team_cost(team(*many(7, "Sevenths")), cat) == 10
    assert team_cost(team(*many(52, "Sevenths")), cat) == Fraction(520, 7)
    assert check_team(team(*many(52, "Sevenths")), cat=cat) == []
    assert "costs 75.71 points" in check_team(team(*many(53, "Sevenths")), cat=cat)[0]


# ------------------------------------------------------------------------------ build_team


def test_guard_sergeant_gets_the_leader_profile_and_wargear():
    built = build_team(team(ModelChoice("Guardsman", leader="Sergeant"), ModelChoice("Guardsman")), CAT)
    sergeant, guardsman = built
    assert (sergeant.profile.a, sergeant.profile.ld, sergeant.is_leader) == (2, 8, True)
    assert (guardsman.profile.a, guardsman.profile.ld, guardsman.is_leader) == (1, 7, False)
    assert sergeant.weapons == ("Laspistol", "Close combat weapon", "Frag grenade")


def test_leader_option_replaces_its_weapon():
    built = build_team(team(ModelChoice("Guardsman", leader="Sergeant", options=("Power sword",))), CAT)
    assert built[0].weapons == ("Laspistol", "Frag grenade", "Power sword")


def test_flamer_replaces_the_lasgun():
    flamer, plain = build_team(team(ModelChoice("Guardsman", swap="Flamer"), ModelChoice("Guardsman")), CAT)
    assert "Flamer" in flamer.weapons and "Lasgun" not in flamer.weapons and "Frag grenade" in flamer.weapons
    assert plain.weapons == ("Lasgun", "Frag grenade")


def test_meltagun_replaces_the_boltgun_only():
    built = build_team(load_team(TEAMS / "marines.toml"), CAT)
    assert built[1].weapons == ("Bolt pistol", "Frag grenade", "Krak grenade", "Meltagun")
    assert built[2].weapons == ("Boltgun", "Bolt pistol", "Frag grenade", "Krak grenade")


def test_biomorph_swap_grants_its_rule():
    gaunt, plain = build_team(team(ModelChoice("Hormagaunt", swap="Toxin sacs"), ModelChoice("Hormagaunt")), CAT)
    assert gaunt.profile.has("poisoned") and not plain.profile.has("poisoned")


def test_usr_lands_on_its_model_only():
    built = build_team(team(*many(4, "Guardsman"), usr="Feel No Pain", usr_model=2), CAT)
    assert [m.profile.has("feel_no_pain") for m in built] == [False, False, True, False]
    assert [m.profile.fnp for m in built] == [7, 7, 5, 7]  # zombie40k §9: Feel No Pain (5+)
    built = build_team(team(*many(3, "Ork Boy"), usr="Hatred", usr_model=0), CAT)
    assert [m.profile.has("hatred") for m in built] == [True, False, False]


def test_no_usr_under_hardcore():
    built = build_team(load_team(TEAMS / "guard.toml"), CAT, allow_usr=False)
    assert not any(m.profile.has("feel_no_pain") for m in built)


def test_usr_on_a_model_that_has_it_changes_nothing():
    built = build_team(load_team(TEAMS / "plague.toml"), CAT)
    assert all(m.profile.fnp == 5 and m.profile.has("feel_no_pain") for m in built)
    assert built[0].profile.has("furious_charge") and not built[1].profile.has("furious_charge")


# ------------------------------------------------------------------------------ team files


def write(tmp_path: Path, text: str, name: str = "team.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def refused(path: Path, *words: str) -> str:
    with pytest.raises(TeamError) as info:
        load_team(path)
    message = str(info.value)
    assert "\n" not in message and str(path) in message, message
    for word in words:
        assert word in message, message
    return message


GOOD = '[[models]]\nunit = "Guardsman"\ncount = 3\n'


def test_good_file_reads(tmp_path):
    t = load_team(write(tmp_path, GOOD, "squad.toml"))
    assert t.name == "squad" and len(t.models) == 3 and t.source.endswith("squad.toml")


def test_missing_file(tmp_path):
    refused(tmp_path / "nope.toml", "no such team file")


def test_folder(tmp_path):
    refused(tmp_path, "folder")


def test_truncated_toml(tmp_path):
    refused(write(tmp_path, '[[models]]\nunit = "Guards'), "not valid TOML")


def test_not_utf8(tmp_path):
    path = tmp_path / "team.toml"
    path.write_bytes(b'name = "\xff"\n')
    refused(path, "not valid TOML")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('colour = "red"\n' + GOOD, ("unknown field 'colour'", "allowed: name, usr, usr_model, models")),
        ('[[models]]\nunit = "Guardsman"\nsergeant = true\n', ("models[0]", "unknown field 'sergeant'")),
        ('[[models]]\nunit = "Guardsman"\ncount = 0\n', ("models[0]", "'count' = 0", "1-50")),
        ('[[models]]\nunit = "Guardsman"\ncount = 51\n', ("'count' = 51",)),
        ('[[models]]\nunit = "Guardsman"\ncount = "3"\n', ("'count' = '3'",)),
        ('[[models]]\nunit = "Guardsman"\ncount = true\n', ("'count' = True",)),
        ('[[models]]\nunit = "Guardsman"\ncount = 2.5\n', ("'count' = 2.5",)),
        ('[[models]]\ncount = 2\n', ("models[0]", "'unit' is missing")),
        ('[[models]]\nunit = 5\n', ("'unit' is missing",)),
        ('[[models]]\nunit = "Guardsman"\noptions = "Power sword"\n', ("'options' must be a list",)),
        ('[[models]]\nunit = "Guardsman"\noptions = [1]\n', ("'options' must be a list",)),
        ('[[models]]\nunit = "Guardsman"\nleader = true\n', ("'leader' must be a name",)),
        ('[[models]]\nunit = "Guardsman"\nswap = ["Flamer"]\n', ("'swap' must be a name",)),
        ('usr_model = "0"\n' + GOOD, ("'usr_model' = '0'",)),
        ('usr_model = true\n' + GOOD, ("'usr_model' = True",)),
        ('usr = 5\n' + GOOD, ("'usr' = 5",)),
        ('name = "x"\n', ("'models' must be a non-empty list",)),
        ('models = []\n', ("'models' must be a non-empty list",)),
        ('models = "Guardsman"\n', ("'models'",)),
        ('models = [1, 2]\n', ("models[0]", "must be a table")),
    ],
)
def test_bad_field(tmp_path, text, words):
    refused(write(tmp_path, text), *words)


def test_legal_file_with_an_illegal_team_loads(tmp_path):
    # reading and checking are separate: the file is fine, the team breaks §2
    t = load_team(write(tmp_path, '[[models]]\nunit = "Zombie"\n'))
    assert "zombies' side" in only_problem(t)


# ------------------------------------------------------------------------------ fuzz

NAMES = st.sampled_from(["Guardsman", "Tactical Marine", "Zombie", "Immortal", "Ork Boy", "Sergeant", "Flamer",
                         "Power sword", "Feel No Pain", "", "nonsense"])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), NAMES,
                    st.text(string.printable, max_size=12))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                      max_leaves=12)
MODEL_KEYS = st.sampled_from(["unit", "count", "leader", "options", "swap", "extra"])
MODEL_VALUES = st.one_of(NAMES, st.integers(-3, 60), st.lists(NAMES, max_size=3), VALUES)
MODEL_ROWS = st.one_of(st.dictionaries(MODEL_KEYS, MODEL_VALUES, max_size=5), VALUES)
UNITS = st.sampled_from(sorted(CAT.units) + ["Guardsmen", ""])
LEADERS = st.sampled_from(sorted({lead.name for u in CAT.units.values() for lead in u.leaders}) + ["", "Lord"])
ITEMS = st.sampled_from(sorted({o.item for u in CAT.units.values() for o in u.swaps}) + ["Power sword", "Laser"])
WELL_FORMED_ROWS = st.fixed_dictionaries(
    {"unit": UNITS},
    optional={"count": st.integers(1, 12), "leader": LEADERS, "swap": ITEMS, "options": st.lists(ITEMS, max_size=2)},
)
WELL_FORMED = st.fixed_dictionaries(
    {"models": st.lists(WELL_FORMED_ROWS, min_size=1, max_size=4)},
    optional={"name": st.text(max_size=8), "usr": st.sampled_from([*USR_CHOICES, "Feel No Pain", "Eternal Warrior"]),
              "usr_model": st.integers(-1, 12)},
)
TEAM_DICTS = st.one_of(
    WELL_FORMED,
    st.fixed_dictionaries(
        {"models": st.one_of(st.lists(MODEL_ROWS, max_size=4), VALUES)},
        optional={"name": VALUES, "usr": st.one_of(NAMES, VALUES), "usr_model": st.one_of(st.integers(-2, 20), VALUES)},
    ),
    st.dictionaries(st.one_of(st.sampled_from(["name", "usr", "usr_model", "models"]), st.text(max_size=6),
                              st.integers()), VALUES, max_size=5),
    VALUES,
)


@settings(max_examples=400, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEAM_DICTS)
def test_team_from_dict_gives_a_team_or_a_team_error(data):
    try:
        t = team_from_dict(data, "fuzz.toml")
    except TeamError as err:
        assert "\n" not in str(err) and str(err).startswith("fuzz.toml")
        return
    assert isinstance(t, Team)
    problems = check_team(t, cat=CAT)  # a team that reads is checked without raising
    assert all(isinstance(p, str) and "\n" not in p for p in problems)
    if not problems:
        assert team_cost(t, CAT) <= 75
        assert len(build_team(t, CAT)) == len(t.models)


@pytest.mark.parametrize(("usr", "usr_model"), [("Stubborn", -1), ("Stubborn", 2), ("Eternal Warrior", 0)])
def test_build_team_refuses_a_usr_check_team_refuses(usr, usr_model):
    # -1 would otherwise give the USR to the last model; 'eternal_warrior' is a model rule but not a §9 USR
    t = team(*many(2, "Immortal"), usr=usr, usr_model=usr_model)
    with pytest.raises(TeamError, match="usr_model|§9"):
        build_team(t, CAT)
    assert len(build_team(t, CAT, allow_usr=False)) == 2  # Hardcore: no USR is given at all
