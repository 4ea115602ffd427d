"""Readings of Zombies Out West decided for issue 27 (docs/outwest.md, "Readings"): each default
and its other reading, with hand-fed dice."""

from __future__ import annotations

import math

import outwest_helpers as H
import pytest
from outwest_helpers import Arena, config

import kernels.outwest.humans as Hm
import kernels.outwest.shooting as S
import kernels.outwest.zombies as Z
from kernels.outwest import layout as L
from sim.rulesets.outwest.compile import weapon_rows
from sim.rulesets.outwest.exact import zombie_effect_modifier

GUNMAN, LEGEND, CITIZEN, SHOOTIST = 2, 0, 4, 1  # slots of the default posse
ow_dice, ow_nojit = H.ow_dice, H.ow_nojit  # the fixtures


@pytest.mark.parametrize("heading,moved", [("any", 9.0), ("ahead", 2.0)])
def test_a_move_straight_ahead_is_any_heading_by_default_or_the_front_arc_only(ow_dice, heading, moved):
    """§4 Move "straight ahead": by default he picks his heading (and ends facing it); with
    move_heading = "ahead" a Gunman facing east who wants to go west Repositions 2" instead."""
    a = Arena(config(town="open", move_heading=heading))
    a.put(GUNMAN, 18.0, 18.0, 0.0)
    if heading == "any":
        ow_dice.script(3, 3, 3)
    Hm.move_along(a.st, 0, a.tb, a.rng, GUNMAN, -1.0, 0.0, 1e9, L.A_MOVE)
    ow_dice.done()
    assert a.pos(GUNMAN) == pytest.approx((18.0 - moved, 18.0))
    assert abs(a.st.ff[0, GUNMAN, L.FF_FACING]) == pytest.approx(math.pi)


def test_under_ahead_a_move_within_the_front_arc_is_a_move(ow_dice):
    a = Arena(config(town="open", move_heading="ahead"))
    a.put(GUNMAN, 18.0, 18.0, 0.0)
    ow_dice.script(3, 3, 3)
    Hm.move_along(a.st, 0, a.tb, a.rng, GUNMAN, math.cos(0.5), math.sin(0.5), 1e9, L.A_MOVE)  # 29 degrees off
    ow_dice.done()
    assert a.pos(GUNMAN) == pytest.approx((18.0 + 9.0 * math.cos(0.5), 18.0 + 9.0 * math.sin(0.5)))


@pytest.mark.parametrize("reading,bonus", [("close", 0), ("close_and_point_blank", 1)])
def test_the_rifles_plus_one_at_short_range_and_point_blank(ow_nojit, reading, bonus):
    """§5.7 "rifle at short range +1": by default the Close band only (over 2" to 6"); the other
    reading counts point blank as short range too. The kernel and the oracle agree."""
    cfg = config(rifle_close_bonus=reading)
    a = Arena(cfg)
    rifle = weapon_rows()[0].index("rifle")
    assert S.zombie_effect_mod(a.tb, rifle, L.BAND_POINT_BLANK, 1.0) == bonus
    assert S.zombie_effect_mod(a.tb, rifle, L.BAND_CLOSE, 4.0) == 1
    assert zombie_effect_modifier(cfg, "rifle", 0, 1.0) == bonus


@pytest.mark.parametrize("reading", ["group_recover", "get_up_each"])
def test_a_fallen_zombie_of_a_group_with_few_down_gets_up_only_under_the_other_reading(ow_dice, reading):
    """W14: one of three zombies down (less than half): the group moves; by default the fallen
    one lies there; with fallen_zombies = "get_up_each" it rolls 4+ to get up instead of moving."""
    a = Arena(config(town="open", groups=(3,), fallen_zombies=reading))
    a.put(GUNMAN, 30.0, 30.0)
    down = a.put(a.zombie(0), 5.0, 5.0, 0.0, L.S_DOWN)
    a.put(a.zombie(1), 5.0, 8.0)
    a.put(a.zombie(2), 8.0, 5.0)
    ow_dice.script(3)  # the group's move
    if reading == "get_up_each":
        ow_dice.script(4)  # it gets up
    Z.zombie_action(a.st, 0, a.tb, a.rng, 0)
    ow_dice.done()
    assert a.fi(down, L.FI_STATE) == (L.S_STANDING if reading == "get_up_each" else L.S_DOWN)
    assert a.pos(down) == (5.0, 5.0)


# ------------------------------------------------------------------ options the default posse never reaches


def test_the_musket_makes_muzzle_loader_effect_live(ow_nojit):
    """§5.6 muzzle-loader +2: the musket is one (sim/data/outwest/weapons.toml); the option moves
    the effect of its hits on men (friendly fire, W26; a gunslinger's shot)."""
    musket = weapon_rows()[0].index("musket")
    for bonus in (2, -3):
        a = Arena(config(muzzle_loader_effect=bonus))
        assert S.human_effect_mod(a.tb, musket, 4.0) == bonus
    assert a.tb.weapons[musket, L.W_RELOAD] == 1 and a.tb.weapons[musket, L.W_BLAZE] == 0


def test_the_frontier_example_exercises_horses_and_muskets():
    import tomllib
    from pathlib import Path

    from sim.rulesets.outwest.config import config_from_dict

    path = Path(__file__).resolve().parents[2] / "examples" / "outwest" / "frontier.toml"
    cfg = config_from_dict(tomllib.loads(path.read_text()), str(path))
    assert any(p.horse for p in cfg.players)
    assert any("musket" in p.guns for p in cfg.players)
