"""Bad input, fuzzed (issue 7 part 1): team files, game configs and ``shamble`` arguments.

Hypothesis generates malformed or out-of-range inputs: wrong types, unknown units, weapons,
mods and fields, over-budget and forbidden teams, contradictory mods, truncated or garbled TOML,
missing files, a folder given as a file, an unwritable or missing output folder, bad suffixes,
negative or zero counts, unparsable option values. Each must be refused

* in the library with one of the project's errors (``ConfigError``, ``TeamError``,
  ``UnknownNameError``, ``CatalogueError``; all ``ValueError``) whose message is ONE line naming
  the place (the file, the field or the value) and what is allowed;
* on the command line (``experiments.cli.run``, the console script, called in-process) with exit
  code 2 (1 for a team ``roster check`` finds illegal), exactly one ``error: ...`` line on stderr,
  no traceback and no output file left behind.

Inputs that fail before any game is played are enough to reach every refusal; the kernels'
``play_batch`` is replaced by a tripwire so that a fuzzed input that slipped through fails the test
instead of compiling and playing a game. Every test is derandomized (the same inputs on every run)
and keeps no example database. The inputs refused are counted per test and the total, asserted to
be at least ``MIN_REFUSED``, is printed by the last test of the module.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import sys
import tempfile
from collections import Counter
from dataclasses import fields, replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import sim.play
import sim.ruleset
from experiments import cli
from experiments.bench import MAX_GAMES
from sim.rulesets.zombie40k.catalogue import catalogue, killing_floor
from sim.rulesets.zombie40k.cli import BROKEN_RULES
from sim.rulesets.zombie40k.compile import compile_tables
from sim.rulesets.zombie40k.config import (
    MODS,
    ConfigError,
    GameConfig,
    PlayerConfig,
    config_from_dict,
    load_config,
    make_config,
)
from sim.rulesets.zombie40k.mods import CONTRADICTIONS
from sim.rulesets.zombie40k.teams import TeamError, build_team, check_team, fit_team, load_team, team_from_dict
from sim.w40k.catalogue import CatalogueError, UnknownNameError

ROOT = Path(__file__).resolve().parents[1]
TEAMS = ROOT / "examples" / "teams"
CONFIGS = ROOT / "examples" / "configs"
TWO = CONFIGS / "two_players.toml"
CAT = catalogue()

PROJECT_ERRORS = (ConfigError, TeamError, UnknownNameError, CatalogueError)
MIN_REFUSED = 500
REFUSED: Counter = Counter()  # test name -> inputs refused as they should be
TRIED: Counter = Counter()  # test name -> inputs tried

FUZZ = settings(derandomize=True, database=None, deadline=None, print_blob=False,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                       HealthCheck.data_too_large])

# what an error says after naming the place: what is allowed, or why the value cannot be
ALLOWED = re.compile(r"allowed|closest|did you mean|must be|see `|no such|is a folder|not valid TOML|invalid TOML|"
                     r"cannot|buys no model|not a|does not exist|duplicate|not on the|has no|has leaders|zombie40k §",
                     re.IGNORECASE)
FIELD_NAMES = sorted({f.name for f in fields(GameConfig)} | {"players", "mods", "params", "policy", "team", "models",
                                                               "unit", "count", "leader", "options", "swap", "usr",
                                                               "usr_model", "name", "budget"})
PLACE = re.compile(r"'[^']*'|\"[^\"]*\"|\b(" + "|".join(FIELD_NAMES) + r")\b|\.toml|/")


def refused(err: BaseException, *places: str) -> str:
    """``err`` is a project error with one line naming one of ``places`` (or, with none given,
    some field or quoted value) and what is allowed."""
    message = str(err)
    assert isinstance(err, PROJECT_ERRORS), f"{type(err).__name__}: {message}"
    assert message.strip() and "\n" not in message and "\r" not in message, repr(message)
    if places:
        assert any(p in message for p in places), (message, places)
    else:
        assert PLACE.search(message), message
    assert ALLOWED.search(message), message
    return message


def count(test: str, was_refused: bool = True) -> None:
    TRIED[test] += 1
    REFUSED[test] += was_refused


# ------------------------------------------------------------------------------ values

JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(-20, 60),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8),
    st.lists(st.one_of(st.integers(-3, 13), st.text(max_size=4)), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(-3, 3), max_size=2),
)
UNITS = sorted(CAT.units)
SURVIVORS = [u.name for u in CAT.units.values() if u.side == "survivors"]
ZOMBIE_SIDE = [u.name for u in CAT.units.values() if u.side == "zombies"]
ITEMS = sorted(CAT.items)
KF_ITEMS = [k.item for k in killing_floor(CAT)]
LEADERS = sorted({lead.name for u in CAT.units.values() for lead in u.leaders})
OPTIONS = sorted({o.item for u in CAT.units.values() for lead in u.leaders for o in lead.options})
SWAPS = sorted({s.item for u in CAT.units.values() for s in u.swaps})


def _unknown(known: list[str]) -> st.SearchStrategy[str]:
    """A name that is none of ``known`` (case and spacing ignored, as the catalogue does)."""
    keys = {" ".join(k.split()).casefold() for k in known}
    return st.builds(lambda a, b: f"{a} {b}".strip(), st.sampled_from(["Nope", "Zombie Tank", "Lasgun Mk II", "x"]),
                     st.text("abcxyz -", max_size=5)).filter(lambda s: " ".join(s.split()).casefold() not in keys)


# ------------------------------------------------------------------------------ team dicts

MODEL_ROWS = st.fixed_dictionaries(  # the right types, names and counts that may be wrong
    {"unit": st.one_of(st.sampled_from(UNITS), st.sampled_from(SURVIVORS), _unknown(UNITS))},
    optional={"count": st.integers(1, 20), "leader": st.sampled_from(LEADERS + ["King"]),
              "options": st.lists(st.sampled_from(OPTIONS + ["Nuke"]), max_size=3),
              "swap": st.sampled_from(SWAPS + ["Nuke"])},
)
JUNK_ROWS = st.fixed_dictionaries(  # wrong types and out-of-range values
    {"unit": st.one_of(st.sampled_from(UNITS), JUNK)},
    optional={"count": st.one_of(st.integers(-5, 60), JUNK), "leader": JUNK, "options": JUNK, "swap": JUNK,
              "colour": JUNK},
)
USR_NAMES = st.sampled_from(["Feel No Pain", "Stealth", "Eternal Warrior", "", "Nope"])
TEAM_DICTS = st.one_of(
    st.fixed_dictionaries({"models": st.lists(MODEL_ROWS, min_size=1, max_size=4)},
                          optional={"name": st.text(max_size=8), "usr": USR_NAMES, "usr_model": st.integers(-3, 20)}),
    st.fixed_dictionaries(
        {"models": st.one_of(st.lists(st.one_of(MODEL_ROWS, JUNK_ROWS, JUNK), max_size=4), JUNK)},
        optional={"name": st.one_of(st.text(max_size=8), JUNK), "usr": st.one_of(USR_NAMES, JUNK),
                  "usr_model": st.one_of(st.integers(-3, 20), JUNK), "points": JUNK}),
)
BUDGETS = st.one_of(st.integers(-100, 20_000), st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=3),
                    st.none())


@settings(FUZZ, max_examples=150)
@given(TEAM_DICTS, st.integers(-50, 300), BUDGETS)
def test_team_dicts(data, budget, fit_budget):
    """team_from_dict, then check_team, build_team and fit_team on what it reads."""
    source = "fuzz_team.toml"
    try:
        team = team_from_dict(data, source)
    except TeamError as err:
        refused(err, source)
        return count("team_dicts")
    problems = check_team(team, budget)
    assert all(isinstance(p, str) and p and "\n" not in p for p in problems)
    try:
        built = build_team(team)
    except PROJECT_ERRORS as err:
        refused(err, source)
        assert problems, f"build_team refused a team check_team passes: {err}"
    else:
        assert len(built) == len(team.models)
    try:
        fit_team(team, fit_budget)
    except PROJECT_ERRORS as err:
        refused(err, source)
    count("team_dicts", bool(problems))


@settings(FUZZ, max_examples=60)
@given(st.lists(st.tuples(st.sampled_from(["models", "unit", "count", "leader", "options", "swap", "usr",
                                           "usr_model"]), JUNK), min_size=1, max_size=3))
def test_team_field_types(changes):
    """One field of a legal team given the wrong type or an out-of-range value."""
    plain, leader = {"unit": "Guardsman", "count": 3}, {"unit": "Guardsman", "leader": "Sergeant"}
    data = {"name": "Guard", "usr": "Stealth", "usr_model": 0, "models": [plain, leader]}
    for key, value in changes:
        (plain if key in ("unit", "count", "swap") else leader if key in ("leader", "options") else data)[key] = value
    try:
        team = team_from_dict(data, "typed.toml")
    except TeamError as err:
        refused(err, "typed.toml")
        return count("team_field_types")
    count("team_field_types", bool(check_team(team)))


# ------------------------------------------------------------------------------ files

TEAM_TEXTS = {p.name: p.read_text() for p in sorted(TEAMS.glob("*.toml"))}
CONFIG_TEXT = TWO.read_text()


@pytest.fixture(scope="module")
def scratch():
    folder = Path(tempfile.mkdtemp(prefix="shamble-fuzz-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _fresh(scratch: Path) -> Path:
    return Path(tempfile.mkdtemp(dir=scratch))


BAD_PATHS = ("missing", "folder", "through_a_file", "nul")


def _bad_path(kind: str, folder: Path) -> Path:
    """A path that names no readable file: ``kind`` of BAD_PATHS."""
    (folder / "afile.toml").write_text("x = 1\n")
    return {"missing": folder / "nope.toml", "folder": folder, "through_a_file": folder / "afile.toml" / "t.toml",
            "nul": folder / "a\x00b.toml"}[kind]


def _mangle(text: str, how: str, at: float, junk: str) -> bytes:
    """The text truncated, garbled (junk inserted), cut in the middle of a line, or not UTF-8."""
    k = int(len(text) * at)
    if how == "truncate":
        return text[:k].encode()
    if how == "garble":
        return (text[:k] + junk + text[k:]).encode()
    if how == "unquote":
        return text.replace('"', "", max(1, int(at * 5))).encode()
    return text[:k].encode() + b"\xff\xfe\x00" + text[k:].encode()


MANGLE = st.sampled_from(["truncate", "garble", "unquote", "binary"])
TOML_JUNK = st.text("=[]{}\"'#,.\n \t abc123\\", min_size=1, max_size=6)


@settings(FUZZ, max_examples=100)
@given(st.sampled_from(sorted(TEAM_TEXTS)), MANGLE, st.floats(0, 1), TOML_JUNK, st.sampled_from(BAD_PATHS + ("",)))
def test_team_files(scratch, name, how, at, junk, bad_path):
    """load_team on a mangled example team file, or on a path that names no file."""
    folder = _fresh(scratch)
    path = _bad_path(bad_path, folder) if bad_path else folder / name
    if not bad_path:
        path.write_bytes(_mangle(TEAM_TEXTS[name], how, at, junk))
    try:
        team = load_team(path)
    except TeamError as err:
        refused(err, str(path), repr(str(path)))
        return count("team_files")
    count("team_files", bool(check_team(team)))


@settings(FUZZ, max_examples=60)
@given(MANGLE, st.floats(0, 1), TOML_JUNK, st.sampled_from(BAD_PATHS + ("",) * 3))
def test_config_files(scratch, how, at, junk, bad_path):
    """load_config on a mangled example config (its teams beside it), or on no file at all."""
    folder = _fresh(scratch)
    (folder / "teams").mkdir()
    for name, text in TEAM_TEXTS.items():
        (folder / "teams" / name).write_text(text)
    path = _bad_path(bad_path, folder) if bad_path else folder / "config.toml"
    if not bad_path:
        path.write_bytes(_mangle(CONFIG_TEXT.replace("../teams/", "teams/"), how, at, junk))
    try:
        load_config(path)
    except ConfigError as err:
        refused(err, str(path), repr(str(path)))
        return count("config_files")
    count("config_files", False)


# ------------------------------------------------------------------------------ config dicts

TUNABLE = [f.name for f in fields(GameConfig) if f.name not in ("players", "mods")]
POLICY_FIELDS = ["hunt_radius_in", "run", "target", "pvp", "charge", "charge_max", "duct_tape", "mushroom",
                 "medpack", "defibrillator"]
MOD_NAMES = st.one_of(st.sampled_from(MODS + ("Nope", "T-Virus", "Death Korps", "coop mode", "")), JUNK)
PARAM_VALUES = st.one_of(JUNK, st.sampled_from(["D6", "2D6", "0D6", "9D6", "3D6k4", "D7", "per_horde", "global"]),
                         st.lists(st.sampled_from(ITEMS[:20] + ["Nope"]), max_size=3),
                         st.dictionaries(st.sampled_from(KF_ITEMS[:5] + ["Nope"]), JUNK, max_size=2),
                         st.lists(st.integers(-1, 14), max_size=4), st.lists(st.floats(0, 9), min_size=10, max_size=12))
PLAYER_ROWS = st.fixed_dictionaries(
    {"team": st.one_of(st.sampled_from(["../teams/guard.toml", "../teams/marines.toml", "nope.toml", ".", ""]),
                       TEAM_DICTS, JUNK)},
    optional={"name": st.one_of(st.text(max_size=6), JUNK),
              "policy": st.one_of(st.sampled_from(["hunter", "dash", "advance", "backstabber", "nope"]),
                                  st.dictionaries(st.sampled_from(POLICY_FIELDS + ["preset", "bogus"]),
                                                  st.one_of(st.integers(-2, 5), JUNK), max_size=3), JUNK),
              "colour": JUNK},
)
WELL_TYPED_PLAYERS = st.fixed_dictionaries(
    {"team": st.one_of(st.sampled_from(["../teams/guard.toml", "../teams/tau.toml", "../teams/boyz.toml"]),
                       st.fixed_dictionaries({"models": st.lists(MODEL_ROWS, min_size=1, max_size=3)}))},
    optional={"name": st.sampled_from(["Alice", "Bob"]), "policy": st.sampled_from(["hunter", "dash", "advance"])},
)
CONFIG_DICTS = st.one_of(
    st.fixed_dictionaries(  # the right shape: bad values, names and combinations of mods
        {"players": st.lists(WELL_TYPED_PLAYERS, min_size=1, max_size=3)},
        optional={"params": st.dictionaries(st.sampled_from(TUNABLE), PARAM_VALUES, max_size=2),
                  "mods": st.lists(st.sampled_from(MODS + ("Nope",)), max_size=3)}),
    st.fixed_dictionaries(  # anything anywhere
        {"players": st.one_of(st.lists(st.one_of(PLAYER_ROWS, JUNK), max_size=9), JUNK)},
        optional={"params": st.one_of(st.dictionaries(st.sampled_from(TUNABLE + ["bogus", "horde_sise"]),
                                                      PARAM_VALUES, max_size=3), JUNK),
                  "mods": st.one_of(st.lists(MOD_NAMES, max_size=3), JUNK),
                  "max_game_turns": st.one_of(st.integers(-5, 600), JUNK), "name": JUNK, "seed": JUNK}),
)


@settings(FUZZ, max_examples=150)
@given(CONFIG_DICTS)
def test_config_dicts(data):
    """config_from_dict, then compile_tables on what it reads (semantic errors: mods, names)."""
    source = "fuzz_config.toml"
    try:
        config = config_from_dict(data, source, CONFIGS)
    except ConfigError as err:
        refused(err, source)
        return count("config_dicts")
    try:
        compile_tables(config)
    except PROJECT_ERRORS as err:
        refused(err)
        return count("config_dicts")
    count("config_dicts", False)


FIELD_VALUES = st.one_of(JUNK, PARAM_VALUES, st.frozensets(st.text(max_size=5), max_size=2), st.just(("a", 1)),
                         st.lists(st.tuples(JUNK, JUNK), max_size=2))


@settings(FUZZ, max_examples=150)
@given(st.sampled_from([f.name for f in fields(GameConfig)]), FIELD_VALUES)
def test_game_config_fields(name, value):
    """dataclasses.replace(config, field=junk), as sweeps do: a ConfigError naming the field, or a
    config that compiles (or is refused by compile_tables with one line)."""
    base = load_config(TWO)
    try:
        config = replace(base, **{name: value})
    except ConfigError as err:
        refused(err, name)
        return count("game_config_fields")
    try:
        compile_tables(config)
    except PROJECT_ERRORS as err:
        refused(err)
        return count("game_config_fields")
    count("game_config_fields", False)


# ------------------------------------------------------------------------------ semantic errors


def _team(*rows: dict) -> dict:
    return {"name": "Fuzz", "models": list(rows)}


FAULTS = {  # fault -> strategy of (params, mods, team rows, the text the error must name)
    "squad_wargear": st.builds(lambda bad, ok: ({"squad_wargear": ok + [bad]}, [], None, bad),
                               _unknown(ITEMS), st.lists(st.sampled_from(ITEMS), max_size=2)),
    "kf_wishlist": st.builds(lambda bad: ({"kf_wishlist": ["Power fist", bad]}, ["killing_floor"], None, bad),
                             st.one_of(_unknown(KF_ITEMS), st.sampled_from(["Lasgun", "Guardsman"]))),
    "kf_starting_wargear": st.builds(lambda bad: ({"kf_starting_wargear": [bad]}, ["killing_floor"], None, bad),
                                     _unknown(ITEMS)),
    "kf_prices": st.builds(lambda bad, cost: ({"kf_prices": {bad: cost}}, [], None, bad), _unknown(KF_ITEMS),
                           st.integers(0, 1000)),
    "kf_price_value": st.builds(lambda item, cost: ({"kf_prices": {item: cost}}, [], None, "kf_prices"),
                                st.sampled_from(KF_ITEMS), st.one_of(st.integers(max_value=-1),
                                                                     st.integers(min_value=1001), st.text(max_size=3))),
    "boss_unit": st.builds(lambda bad: ({"boss_unit": bad}, [], None, bad),
                           st.one_of(_unknown(UNITS), st.sampled_from(SURVIVORS))),
    "boss_variant_unit": st.builds(lambda bad: ({"boss_variant_unit": bad}, ["boss_variant"], None, bad),
                                   st.one_of(_unknown(UNITS), st.sampled_from(SURVIVORS))),
    "zombie_rules": st.builds(lambda bad: ({"zombie_rules": ["rage", bad]}, [], None, bad),
                              st.sampled_from(["flying", "Feel No Pain", "eternal warrior", "nope"])),
    "contradiction": st.builds(lambda pair: ({}, sorted(pair), None, "cannot be combined"),
                               st.sampled_from(sorted(CONTRADICTIONS, key=sorted))),
    "unknown_mod": st.builds(lambda bad: ({}, ["coop", bad], None, "unknown mod"), _unknown(list(MODS))),
    "catalogue_files": st.builds(lambda name: ({"catalogue_files": [f"/nonexistent/{name}.toml"]}, [], None,
                                               "catalogue_files"), st.text("abc", min_size=1, max_size=4)),
    "team_unit": st.builds(lambda bad: ({}, [], _team({"unit": "Guardsman"}, {"unit": bad}), bad), _unknown(UNITS)),
    "team_leader": st.builds(lambda bad: ({}, [], _team({"unit": "Guardsman", "leader": bad}), bad),
                             _unknown(LEADERS)),
    "team_swap": st.builds(lambda bad: ({}, [], _team({"unit": "Guardsman", "swap": bad}), bad), _unknown(SWAPS)),
    "team_option": st.builds(lambda bad: ({}, [], _team({"unit": "Guardsman", "leader": "Sergeant",
                                                         "options": [bad]}), bad), _unknown(OPTIONS)),
    "team_usr": st.builds(lambda bad: ({}, [], {**_team({"unit": "Guardsman"}), "usr": bad}, "USR"),
                          st.sampled_from(["Eternal Warrior", "Flying", "nope"])),
    "team_usr_model": st.builds(lambda k: ({}, [], {**_team({"unit": "Guardsman", "count": 3}), "usr": "Stealth",
                                                    "usr_model": k}, "usr_model"),
                                st.one_of(st.integers(max_value=-1), st.integers(3, 100))),
    "lore_friendly": st.builds(lambda other: ({}, ["lore_friendly"], _team({"unit": "Guardsman"}, {"unit": other}),
                                              "Lore Friendly"), st.sampled_from(["Ork Boy", "Plague Marine"])),
}


@settings(FUZZ, max_examples=120)
@given(st.lists(st.sampled_from(sorted(FAULTS)), min_size=1, max_size=3, unique=True).flatmap(
    lambda keys: st.tuples(st.just(keys), st.tuples(*(FAULTS[k] for k in keys)))))
def test_semantic_errors(case):
    """A config that reads but cannot be played: make_config or compile_tables refuses it with one
    line that names the bad value (or its field)."""
    keys, faults = case
    params, mods, team, needles = {}, [], None, []
    for fault_params, fault_mods, fault_team, needle in faults:
        params.update(fault_params)
        mods += fault_mods
        team = fault_team or team
        needles.append(needle)
    assume(not ("lore_friendly" in keys and any(k.startswith("team_") for k in keys)))
    players = [PlayerConfig("Guard", load_team(TEAMS / "guard.toml"))]
    if team is not None:
        players.append(PlayerConfig("Fuzz", team_from_dict(team, "fuzz_team.toml")))
    with pytest.raises(PROJECT_ERRORS) as info:
        compile_tables(make_config(players, params, mods, "fuzz.toml"))
    refused(info.value, *needles, *(repr(n) for n in needles))
    count("semantic_errors")


# ------------------------------------------------------------------------------ the command line


class WouldPlay(Exception):
    """A fuzzed input reached the kernels: it should have been refused before."""


@pytest.fixture(scope="module")
def no_games():
    ruleset = sim.ruleset.get("zombie40k")
    real = ruleset.play_batch

    def tripwire(*args, **kwargs):
        raise WouldPlay("a game would be played")

    ruleset.play_batch = tripwire
    yield
    ruleset.play_batch = real


RUNNER = CliRunner()


def shamble(*args: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of the console script ``shamble ARGS`` (experiments.cli.run),
    in-process; an exception escaping it fails the test."""
    code = 0
    with RUNNER.isolation() as (out, err, _):
        try:
            cli.run([str(a) for a in args])
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            stdout, stderr = out.getvalue().decode(), err.getvalue().decode()
    return code, stdout, stderr


def cli_refused(args: list, folder: Path | None = None, code: int = 2) -> str:
    """``shamble ARGS`` ends with ``code``, one ``error:`` line, nothing on stdout, no traceback and
    (in ``folder``) no file it did not find there."""
    before = sorted(folder.rglob("*")) if folder else []
    exit_code, stdout, stderr = shamble(*args)
    assert "Traceback" not in stdout + stderr, stderr
    assert exit_code == code, (args, exit_code, stdout, stderr)
    lines = stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), (args, stderr)
    assert stdout == "", (args, stdout)
    if folder:
        assert sorted(folder.rglob("*")) == before, f"{args} left files behind"
    return lines[0]


INT_OPTIONS = {  # command line -> its integer options
    ("play", str(TWO)): ["--games", "-n", "--seed", "--batch-size"],
    ("trace", str(TWO)): ["--seed", "--game"],
    ("odds", "Guardsman"): ["--models", "--dice", "--target-models", "--cover", "--t", "--sv", "--inv", "--fnp", "--w",
                            "--medpacks", "--simulate", "--seed"],
    ("roster", "check", str(TEAMS / "guard.toml")): ["--budget"],
    ("bench",): ["--games", "--threads"],
}
ALL_OPTIONS = {o for opts in INT_OPTIONS.values() for o in opts} | {"--json", "--out", "--mod", "--png", "--plot",
                                                                     "--help", "--version", "--quick", "--hardcore"}
COMMANDS = ["odds", "bench", "profile", "units", "weapons", "roster", "params", "policies", "mods", "play", "trace"]


def _not_an_int(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return True
    return False


USAGE = st.one_of(
    st.sampled_from(sorted(INT_OPTIONS)).flatmap(
        lambda c: st.sampled_from(INT_OPTIONS[c]).map(lambda o: ("value", c, o))),
    st.tuples(st.sampled_from(sorted(INT_OPTIONS) + [("params",), ("mods",), ("policies",), ("units",)]),
              st.text("abcdefghijklmnopqrstuvwxyz-", min_size=1, max_size=8)).map(lambda t: ("option", *t)),
    st.tuples(st.sampled_from([("params",), ("mods",), ("policies",), ("units",), ("weapons",), ("bench",)]),
              st.text("abcxyz.0123", min_size=1, max_size=6)).map(lambda t: ("extra", *t)),
    st.sampled_from([("play",), ("trace",), ("odds",), ("roster", "check")]).map(lambda t: ("missing", t)),
    st.text("abcdefghijklmnopqrstuvwxyz-", min_size=1, max_size=8).map(lambda t: ("command", t)),
)


@settings(FUZZ, max_examples=100)
@given(USAGE, st.text(min_size=1, max_size=6).filter(_not_an_int))
def test_cli_usage_errors(no_games, case, word):
    """Click's usage errors (an unparsable value, an unknown option or command, an extra or a missing
    argument) come out as one line too, not a box."""
    kind = case[0]
    if kind == "value":  # a value that is not an integer for an integer option
        args = [*case[1], case[2], word]
    elif kind == "option":
        option = "--" + case[2].lstrip("-")
        assume(option not in ALL_OPTIONS and option != "--")
        args = [*case[1], option]
    elif kind == "extra":
        args = [*case[1], case[2]]
    elif kind == "missing":
        args = list(case[1])
    else:
        assume(case[1] not in COMMANDS and not case[1].startswith("-"))
        args = [case[1]]
    cli_refused(args)
    count("cli_usage_errors")


BAD_CONFIG_TEXTS = [
    '[[players]]\nteam = "{teams}/guard.toml"\n[params]\nhorde_size = 99\n',
    '[[players]]\nteam = "{teams}/guard.toml"\n[params]\nhorde_sise = 5\n',
    '[[players]]\nteam = "{teams}/guard.toml"\nmods = ["zombies_with_hats"]\n',
    'mods = ["t_virus", "death_korps"]\n[[players]]\nteam = "{teams}/guard.toml"\n',
    'mods = ["hardcore", "instant_death"]\n[[players]]\nteam = "{teams}/guard.toml"\n',
    '[[players]]\nteam = "{teams}/nope.toml"\n',
    '[[players]]\nteam = {{ models = [{{ unit = "Rhino" }}] }}\n',
    '[[players]]\nteam = {{ models = [{{ unit = "Guardsman", swap = "Nuke" }}] }}\n',
    '[[players]]\nteam = "{teams}/guard.toml"\npolicy = "berserk"\n',
    '[[players]]\nteam = "{teams}/guard.toml"\n[params]\nsquad_wargear = ["Bolter of Doom"]\n',
    '[[players]]\nteam = "{teams}/guard.toml"\n[params]\nboss_unit = "Guardsman"\n',
    '[[players]]\nteam = "{teams}/guard.toml"\n[params]\nkf_prices = {{ Nope = 3 }}\n',
    '[[players]]\nteam = "{teams}/guard.toml"\n[params]\npowerups_removed = [1, 13]\n',
    '[[players]]\nteam = "{teams}/guard.toml"\n[params]\nshamble_dice = "2D7"\n',
    'players = []\n',
    '',
]
CONFIG_FAULTS = ("missing", "folder", "through_a_file", "mangled", "bad_content")
PLAY_FAULTS = CONFIG_FAULTS + ("games", "seed", "batch_size", "out_suffix", "out_through_a_file",
                               "out_unwritable", "out_folder", "mod", "mods_contradict")
TRACE_FAULTS = CONFIG_FAULTS + ("seed", "game", "png_file", "png_unwritable", "mod", "mods_contradict")
# (a missing output folder is not a fault: `--out`, `--png` and `--plot` make it; a path through a file is)


def _can_write(folder: Path) -> bool:
    try:
        fd, probe = tempfile.mkstemp(dir=folder)
    except OSError:
        return False
    os.close(fd)
    os.unlink(probe)
    return True


@functools.cache
def _unwritable_folder(scratch: Path) -> Path | None:
    """A folder this process cannot write in: /sys (sysfs, even for root), else a read-only folder
    of ours (not for root); None where there is none (that fault is then not drawn)."""
    locked = scratch / "locked"
    locked.mkdir(mode=0o500)
    return next((f for f in (Path("/sys"), locked) if f.is_dir() and not _can_write(f)), None)


def _unwritable(scratch: Path) -> Path:
    folder = _unwritable_folder(scratch)
    assume(folder is not None)
    return folder


def _config_arg(fault: str, folder: Path, data) -> str:
    if fault in ("missing", "folder", "through_a_file"):
        return str(_bad_path(fault, folder))
    path = folder / "config.toml"
    if fault == "mangled":
        text = CONFIG_TEXT.replace("../teams", str(TEAMS))
        path.write_bytes(_mangle(text, data.draw(MANGLE), data.draw(st.floats(0, 0.97)), data.draw(TOML_JUNK)))
        assume(_unreadable(path))
    else:
        path.write_text(data.draw(st.sampled_from(BAD_CONFIG_TEXTS)).format(teams=TEAMS))
    return str(path)


def _unreadable(path: Path) -> bool:
    try:
        load_config(path)
    except ConfigError:
        return True
    return False


def _faulty_args(command: str, faults: list[str], folder: Path, data, scratch: Path) -> list[str]:
    """``shamble play`` or ``trace`` arguments with each fault of ``faults`` and nothing else wrong."""
    config = next((f for f in faults if f in CONFIG_FAULTS), None)
    args = [command, _config_arg(config, folder, data) if config else str(TWO)]
    out_of_range = st.one_of(st.integers(max_value=-1), st.integers(min_value=2**63))

    def out_folder():
        (folder / "results.csv").mkdir()
        return ["--out", folder / "results.csv"]

    options = {
        "games": lambda: ["--games", data.draw(st.integers(max_value=0))],
        "seed": lambda: ["--seed", data.draw(out_of_range)],
        "batch_size": lambda: ["--batch-size", data.draw(st.one_of(st.integers(max_value=0),
                                                                   st.integers(min_value=10**6 + 1)))],
        "game": lambda: ["--game", data.draw(out_of_range)],
        "out_suffix": lambda: ["--out", folder / ("results" + data.draw(st.sampled_from(["", ".txt", ".csv.bak",
                                                                                         ".CSV", ".parq"])))],
        "out_through_a_file": lambda: ["--out", _bad_path("through_a_file", folder).with_suffix(".csv")],
        "out_unwritable": lambda: ["--out", _unwritable(scratch) / "results.parquet"],
        "out_folder": out_folder,
        "png_file": lambda: ["--png", _bad_path("through_a_file", folder).parent],
        "png_unwritable": lambda: ["--png", _unwritable(scratch)],
        "mod": lambda: ["--mod", data.draw(_unknown(list(MODS)))],
        "mods_contradict": lambda: [x for m in sorted(data.draw(st.sampled_from(sorted(CONTRADICTIONS, key=sorted))))
                                    for x in ("--mod", m)],
    }
    for fault in faults:
        if fault not in CONFIG_FAULTS:
            args += [str(a) for a in options[fault]()]
    if command == "play" and "games" not in faults:
        args += ["--games", "3"]
    return args


@settings(FUZZ, max_examples=120)
@given(st.sampled_from(["play", "trace"]), st.data())
def test_cli_play_and_trace(no_games, scratch, command, data):
    """`shamble play` and `shamble trace` with one to three faults: refused before any game."""
    faults = data.draw(st.lists(st.sampled_from(PLAY_FAULTS if command == "play" else TRACE_FAULTS), min_size=1,
                                max_size=3, unique=True))
    assume(sum(f in CONFIG_FAULTS for f in faults) <= 1)
    folder = _fresh(scratch)
    args = _faulty_args(command, faults, folder, data, scratch)
    cli_refused(args, folder)
    count("cli_play_and_trace")


ODDS_RANGES = {"--models": (1, 400), "--target-models": (1, 60), "--dice": (0, 400), "--cover": (2, 7),
               "--t": (1, 10), "--w": (1, 10), "--sv": (2, 7), "--inv": (2, 7), "--fnp": (2, 7),
               "--medpacks": (0, 20), "--simulate": (0, 10_000_000)}


@settings(FUZZ, max_examples=80)
@given(st.data())
def test_cli_odds(no_games, scratch, data):
    """`shamble odds` with an unknown name, an option out of range, options that cannot go
    together, or a plot it cannot write."""
    folder = _fresh(scratch)
    fault = data.draw(st.sampled_from(["attacker", "target", "weapon", "leader", "range", "clash", "plot_suffix",
                                       "plot_unwritable", "plot_through_a_file"]))
    args = ["odds", "Tactical Marine"]
    if fault == "attacker":
        args = ["odds", data.draw(_unknown(UNITS))]
    elif fault in ("target", "weapon", "leader"):
        args += [f"--{fault}", data.draw(_unknown(UNITS + ITEMS + LEADERS))]
    elif fault == "range":
        option = data.draw(st.sampled_from(sorted(ODDS_RANGES)))
        lo, hi = ODDS_RANGES[option]
        args += [option, str(data.draw(st.one_of(st.integers(max_value=lo - 1), st.integers(min_value=hi + 1))))]
    elif fault == "clash":
        args += data.draw(st.sampled_from([["--melee", "--snap"], ["--melee", "--cover", "4"], ["--charge"],
                                           ["--melee", "--overwatch"], ["--melee", "--half-range"],
                                           ["--later-round"]]))
    elif fault == "plot_suffix":
        args += ["--plot", str(folder / ("odds" + data.draw(st.sampled_from(["", ".txt", ".jpeg", ".png.bak"]))))]
    elif fault == "plot_unwritable":
        args += ["--plot", str(_unwritable(scratch) / "odds.png")]
    else:
        args += ["--plot", str(_bad_path("through_a_file", folder).with_suffix(".png"))]
    cli_refused(args, folder)
    count("cli_odds")


ROSTER_BREAKS = {  # a team file that reads but breaks zombie40k §2 -> `roster check` exit 1
    "over_budget": st.builds(lambda n: _team({"unit": "Guardsman", "count": n}), st.integers(16, 50)),
    "zombie_side": st.builds(lambda u: _team({"unit": u}), st.sampled_from(ZOMBIE_SIDE)),
    "two_leaders": st.just(_team({"unit": "Guardsman", "leader": "Sergeant", "count": 2})),
    "three_swaps": st.builds(lambda s: _team({"unit": "Guardsman", "swap": s, "count": 3}),
                             st.sampled_from(["Flamer", "Meltagun"])),
    "unknown_unit": st.builds(lambda u: _team({"unit": u}), _unknown(UNITS)),
    "unknown_swap": st.builds(lambda s: _team({"unit": "Guardsman", "swap": s}), _unknown(SWAPS)),
    "options_without_leader": st.just(_team({"unit": "Guardsman", "options": ["Power sword"]})),
    "leader_and_swap": st.just(_team({"unit": "Guardsman", "leader": "Sergeant", "swap": "Flamer"})),
    "usr": st.builds(lambda u: {**_team({"unit": "Guardsman"}), "usr": u}, st.sampled_from(["Eternal Warrior", "x"])),
}


def _toml(team: dict) -> str:
    """A team dict (strings, ints, lists) as TOML."""
    lines = [f"{k} = {json.dumps(v, ensure_ascii=False)}" for k, v in team.items() if k != "models"]
    for row in team["models"]:
        lines += ["[[models]]"] + [f"{k} = {json.dumps(v, ensure_ascii=False)}" for k, v in row.items()]
    return "\n".join(lines) + "\n"


@settings(FUZZ, max_examples=80)
@given(st.data())
def test_cli_roster_check(no_games, scratch, data):
    """`roster check`: a file it cannot read is exit 2 with one error line; a team that breaks
    zombie40k §2 is exit 1 with every problem listed."""
    folder = _fresh(scratch)
    kind = data.draw(st.sampled_from(["unreadable", "budget", "hardcore"] + sorted(ROSTER_BREAKS)))
    path = folder / "team.toml"
    if kind == "unreadable":
        how = data.draw(st.sampled_from(BAD_PATHS[:3] + ("mangled", "field")))
        if how == "mangled":
            path.write_bytes(_mangle(TEAM_TEXTS["guard.toml"], data.draw(MANGLE), data.draw(st.floats(0, 0.95)),
                                     data.draw(TOML_JUNK)))
            try:
                load_team(path)
            except TeamError:
                pass
            else:
                assume(False)
        elif how == "field":
            path.write_text(data.draw(st.sampled_from(['[[models]]\nunit = "Guardsman"\ncount = 0\n', 'models = 3\n',
                                                       '[[models]]\nunit = 7\n', 'colour = "red"\n',
                                                       '[[models]]\nunit = "Guardsman"\noptions = "x"\n'])))
        else:
            path = _bad_path(how, folder)
        cli_refused(["roster", "check", path], folder)
    elif kind == "budget":
        budget = data.draw(st.integers(max_value=0))
        cli_refused(["roster", "check", TEAMS / "guard.toml", "--budget", budget], folder)
    else:
        team = ({**_team({"unit": "Guardsman"}), "usr": "Stealth"} if kind == "hardcore"
                else data.draw(ROSTER_BREAKS[kind]))
        path.write_text(_toml(team))
        exit_code, stdout, stderr = shamble("roster", "check", path, *(["--hardcore"] if kind == "hardcore" else []))
        assert "Traceback" not in stdout + stderr
        assert exit_code == BROKEN_RULES and stderr == "" and "illegal: breaks" in stdout, (team, stdout, stderr)
    count("cli_roster_check")


@settings(FUZZ, max_examples=30)
@given(st.sampled_from(["--games", "--threads"]), st.data())
def test_cli_bench(no_games, option, data):
    """`shamble bench` with a game count or a thread count out of range, refused before timing."""
    import numba

    hi = MAX_GAMES if option == "--games" else numba.config.NUMBA_NUM_THREADS
    value = data.draw(st.one_of(st.integers(max_value=0), st.integers(min_value=hi + 1)))
    assert option.lstrip("-") in cli_refused(["bench", "--quick", option, value])
    count("cli_bench")


def test_fuzz_count(request, capsys):
    """The total of refused inputs (each fuzz test of this module must have run first)."""
    tests = [name.removeprefix("test_") for name, obj in globals().items()
             if name.startswith("test_") and hasattr(obj, "hypothesis")]
    missing = [t for t in tests if not TRIED[t]]
    if missing:
        pytest.skip(f"run the whole module to count: {', '.join(missing)} did not run")
    total, tried = sum(REFUSED.values()), sum(TRIED.values())
    with capsys.disabled():
        per_test = ", ".join(f"{t} {REFUSED[t]}/{TRIED[t]}" for t in tests)
        print(f"\nfuzz: {total} bad inputs refused with one line, of {tried} tried ({per_test})")
    assert total >= MIN_REFUSED, (total, dict(REFUSED))

