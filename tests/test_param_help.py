"""`shamble params` help texts: every parameter of every ruleset says what it does, and a special
value (0 = automatic, 7 = none...) is said once, in ``Parameter.meaning``, not again in the help
(the table prints both). For zombie40k, the values that are not numbers of the game but
switches (a Feel No Pain or D6 roll of 7, a negative count, a Toughness of 0) are in ``meaning``.
"""

from __future__ import annotations

import re

import pytest

from sim.ruleset import all_rulesets, get

RULESETS = all_rulesets()
PARAMS = [(rs.id, p) for rs in RULESETS for p in rs.parameters()]
IDS = [f"{rs_id}.{p.name}" for rs_id, p in PARAMS]


def _number(value) -> str:
    """A special value as a help text would write it: 0.0 -> '0', 7 -> '7', -1 -> '-1'."""
    return f"{value:g}" if isinstance(value, float) else str(value)


@pytest.mark.parametrize(("rs_id", "p"), PARAMS, ids=IDS)
def test_every_parameter_has_one_line_of_help(rs_id, p):
    assert p.help.strip(), f"{rs_id}: {p.name} has no help text"
    assert "\n" not in p.help, f"{rs_id}: {p.name}: help is one line"


@pytest.mark.parametrize(("rs_id", "p"), PARAMS, ids=IDS)
def test_help_does_not_repeat_meaning(rs_id, p):
    for value, text in p.meaning.items():
        assert text.strip(), f"{rs_id}: {p.name}: meaning of {value!r} is empty"
        assert not re.search(rf"(?<!\w){re.escape(text)}(?!\w)", p.help, re.IGNORECASE), \
            f"{rs_id}: {p.name}: help repeats the meaning of {value!r}: {text!r}"
        if isinstance(value, int | float) and not isinstance(value, bool):
            said = rf"(?<![\w.-]){re.escape(_number(value))}(?:\.0)?\s*=(?!=)"
            assert not re.search(said, p.help), f"{rs_id}: {p.name}: help says what {_number(value)} means again"


@pytest.mark.parametrize(("rs_id", "p"), PARAMS, ids=IDS)
def test_special_values_lie_in_range(rs_id, p):
    if p.range is None:
        return
    lo, hi = p.range
    for value in p.meaning:
        if isinstance(value, int | float) and not isinstance(value, bool):
            assert lo <= value <= hi, f"{rs_id}: {p.name}: meaning of {value!r} outside its range {p.range}"


ZOMBIE40K = {p.name: p for p in get("zombie40k").parameters()}


def test_zombie40k_fnp_7_means_none():
    """A Feel No Pain of 7+ cannot pass: 7 switches it off."""
    fnp = [p for name, p in ZOMBIE40K.items() if name.endswith("_fnp") and p.range and p.range[0] <= 7 <= p.range[1]]
    assert {p.name for p in fnp} >= {"dk_start_fnp", "dk_max_fnp", "tvirus_fnp", "dmw_fnp", "zombie_fnp", "boss_fnp"}
    for p in fnp:
        assert p.meaning.get(7) == "none", p.name


def test_zombie40k_d6_roll_of_7_is_named():
    """A D6 roll needed (``*_fail_on``, ``*_hit_on``) that may be set to 7 says what 7 does."""
    rolls = [p for name, p in ZOMBIE40K.items() if name.endswith(("_fail_on", "_hit_on")) and p.range[1] >= 7]
    assert [p.name for p in rolls] == ["emfh_fail_on"]
    for p in rolls:
        assert 7 in p.meaning, p.name


def test_zombie40k_keep_the_profile_at_0():
    """A Toughness or Feel No Pain override that may be 0 means "keep the profile's" at 0."""
    keep = [p for name, p in ZOMBIE40K.items() if name.endswith(("_t", "_fnp")) and p.range and p.range[0] == 0]
    assert {p.name for p in keep} == {"zombie_t", "zombie_fnp", "boss_t", "boss_fnp"}
    for p in keep:
        assert 0 in p.meaning, p.name


def test_zombie40k_negative_counts_are_named():
    """An integer parameter whose range goes below 0 (-1 = unlimited) names its lowest value."""
    below = [p for p in ZOMBIE40K.values() if p.is_integer and p.range and p.range[0] < 0]
    assert [p.name for p in below] == ["max_respawns"]
    for p in below:
        assert p.range[0] in p.meaning, p.name


def test_zombie40k_table_width_0_is_by_player_count():
    p = ZOMBIE40K["table_width_in"]
    assert p.default == 0.0 and p.range[0] == 0.0
    assert p.meaning[0.0].startswith("by player count")
