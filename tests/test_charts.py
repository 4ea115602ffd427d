"""The rule charts and Strength/BS helpers against the printed rules (core-7th-edition §2, §6.3,
§6.5, §7.3).

The two tables below are transcribed cell by cell from the printed tables of
core-7th-edition.md ("–" = cannot wound = 7), not computed from the formula: the test checks
the formula in ``sim.w40k.tables`` against the book.
"""

from __future__ import annotations

import numpy as np
import pytest

from kernels.w40k import attack_spec
from kernels.w40k.columns import NONE
from sim.w40k import tables
from sim.w40k.profiles import parse_strength

_ = NONE  # "–" in the printed wound chart

# core-7th-edition §6.5, rows S 1-10, columns T 1-10
PRINTED_WOUND_CHART = [
    [4, 5, 6, 6, _, _, _, _, _, _],
    [3, 4, 5, 6, 6, _, _, _, _, _],
    [2, 3, 4, 5, 6, 6, _, _, _, _],
    [2, 2, 3, 4, 5, 6, 6, _, _, _],
    [2, 2, 2, 3, 4, 5, 6, 6, _, _],
    [2, 2, 2, 2, 3, 4, 5, 6, 6, _],
    [2, 2, 2, 2, 2, 3, 4, 5, 6, 6],
    [2, 2, 2, 2, 2, 2, 3, 4, 5, 6],
    [2, 2, 2, 2, 2, 2, 2, 3, 4, 5],
    [2, 2, 2, 2, 2, 2, 2, 2, 3, 4],
]

# core-7th-edition §7.3, rows attacker WS 1-10, columns defender WS 1-10
PRINTED_WS_CHART = [
    [4, 4, 5, 5, 5, 5, 5, 5, 5, 5],
    [3, 4, 4, 4, 5, 5, 5, 5, 5, 5],
    [3, 3, 4, 4, 4, 4, 5, 5, 5, 5],
    [3, 3, 3, 4, 4, 4, 4, 4, 5, 5],
    [3, 3, 3, 3, 4, 4, 4, 4, 4, 4],
    [3, 3, 3, 3, 3, 4, 4, 4, 4, 4],
    [3, 3, 3, 3, 3, 3, 4, 4, 4, 4],
    [3, 3, 3, 3, 3, 3, 3, 4, 4, 4],
    [3, 3, 3, 3, 3, 3, 3, 3, 4, 4],
    [3, 3, 3, 3, 3, 3, 3, 3, 3, 4],
]


# ------------------------------------------------------------------------------ charts


def test_wound_chart_shape_and_unused_row_and_column():
    chart = tables.wound_chart()
    assert chart.shape == (11, 11)
    assert np.all(chart[0, :] == NONE) and np.all(chart[:, 0] == NONE)


@pytest.mark.parametrize("s", range(1, 11))
def test_wound_chart_row_matches_printed_table(s):
    chart = tables.wound_chart()
    for t in range(1, 11):
        assert chart[s, t] == PRINTED_WOUND_CHART[s - 1][t - 1], f"S{s} vs T{t}"


def test_ws_chart_shape():
    assert tables.ws_chart().shape == (11, 11)


@pytest.mark.parametrize("ws", range(1, 11))
def test_ws_chart_row_matches_printed_table(ws):
    chart = tables.ws_chart()
    for d in range(1, 11):
        assert chart[ws, d] == PRINTED_WS_CHART[ws - 1][d - 1], f"WS{ws} vs WS{d}"


def test_printed_charts_agree_with_the_printed_formulas():
    """§6.5 and §7.3 state both a table and a formula; the transcription satisfies both."""
    for s in range(1, 11):
        for t in range(1, 11):
            assert PRINTED_WOUND_CHART[s - 1][t - 1] == tables.wound_roll_needed(s, t)
    for a in range(1, 11):
        for d in range(1, 11):
            assert PRINTED_WS_CHART[a - 1][d - 1] == tables.ws_roll_needed(a, d)


# ------------------------------------------------------------------------ Strength modes


def strength(text: str, user_s: int, bonus: int = 0) -> int:
    mode, value = parse_strength(text)
    return int(attack_spec.attack_strength(mode, value, user_s, bonus))


@pytest.mark.parametrize(
    ("text", "user_s", "expected"),
    [
        ("User", 3, 3),
        ("User", 4, 4),
        ("+1", 4, 5),
        ("+2", 4, 6),
        ("+2", 9, 10),  # capped at 10
        ("x2", 4, 8),  # power fist on S4
        ("x2", 5, 10),
        ("x2", 6, 10),  # 12 capped at 10
        ("5", 3, 5),  # fixed Strength ignores the user's
        ("X", 4, 0),  # no Strength: wounds on a fixed roll
    ],
)
def test_attack_strength_modes(text, user_s, expected):
    assert strength(text, user_s) == expected


def test_furious_charge_bonus_is_added_after_the_multiplier():
    """core-7th-edition §2: multipliers first, then additions: S4 power fist + Furious Charge = 9."""
    assert strength("x2", 4, bonus=1) == 9


@pytest.mark.parametrize(("text", "user_s", "expected"), [("User", 4, 5), ("+1", 4, 6), ("x2", 5, 10)])
def test_furious_charge_bonus_on_user_strength(text, user_s, expected):
    assert strength(text, user_s, bonus=1) == expected


def test_fixed_and_no_strength_take_no_bonus():
    assert strength("5", 3, bonus=1) == 5
    assert strength("X", 4, bonus=1) == 0


# ------------------------------------------------------------------------ ranged to hit


@pytest.mark.parametrize(
    ("bs", "expected"),
    [
        (0, (NONE, 0)),  # cannot shoot
        (1, (6, 0)),
        (2, (5, 0)),
        (3, (4, 0)),
        (4, (3, 0)),
        (5, (2, 0)),
        (6, (2, 6)),  # 2+ / 6+
        (7, (2, 5)),
        (8, (2, 4)),
        (9, (2, 3)),
        (10, (2, 2)),
    ],
)
def test_hit_on_ranged_matches_bs_table(bs, expected):
    assert tuple(int(x) for x in attack_spec.hit_on_ranged(bs, False)) == expected


@pytest.mark.parametrize("bs", range(1, 11))
def test_snap_shots_hit_on_six_without_reroll(bs):
    assert tuple(int(x) for x in attack_spec.hit_on_ranged(bs, True)) == (6, 0)


def test_bs_zero_cannot_snap_shoot():
    assert int(attack_spec.hit_on_ranged(0, True)[0]) == NONE
