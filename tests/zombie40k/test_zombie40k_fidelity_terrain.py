"""Random area terrain (zombie40k §3.1, A22; core-7th-edition §5, §6.7, §7.1; issue 13 item 14):
off by default; with ``terrain_density`` each game has its own ruins: difficult terrain with a
4+ cover save, optionally dangerous. Scenes set up by hand with hand-fed dice (``dice``); a
piece is placed by hand in ``st.terrain``. Each test is named after the rule it states.
"""

from __future__ import annotations

from dataclasses import fields

import numpy as np
import pytest
from conftest import example_config, one_game, team_config
from fidelity_helpers import GL, L, clear_table, put_unit, units

import kernels.zombie40k.assault
import kernels.zombie40k.movement
import kernels.zombie40k.shooting
import kernels.zombie40k.terrain
from sim.rulesets.zombie40k.compile import compile_tables
from sim.rulesets.zombie40k.config import GameConfig

assault = kernels.zombie40k.assault
movement = kernels.zombie40k.movement
shooting = kernels.zombie40k.shooting


def _with_terrain(config):
    """(state, tables, rng) of a game with terrain switched on and no piece on the table yet."""
    st, tb, rng = one_game(config)
    st.terrain[0] = 0.0
    return st, tb, rng


def _ruin(st, x, y, r=3.0, dangerous=False):
    k = int(np.argmin(st.terrain[0, :, 2] > 0))  # the first free row
    st.terrain[0, k] = x, y, r, 1.0 if dangerous else 0.0


def _fire(st, tb, rng, u, m, v, weapon):
    from sim.rulesets.zombie40k.catalogue import catalogue
    from sim.rulesets.zombie40k.compile import weapon_index

    row = tb.weapons[weapon_index(catalogue())[weapon]]
    spec, out = np.zeros_like(st.w_spec[0]), np.zeros_like(st.w_out[0])
    return shooting.fire_group(st, 0, u, m, v, row, 1, False, False, tb, rng, spec, out)


# ------------------------------------------------------------------ the option


def test_s3_1_terrain_is_off_by_default_and_on_the_sensitivity_list():
    """``terrain_density`` defaults to 0 (open table); it is a [C] number with a plausible
    range for the sensitivity report (issue item 14)."""
    config = example_config("two_players")
    assert config.terrain_density == 0 and config.terrain_pieces == 0
    assert compile_tables(config).prm[GL.P_TERRAIN_N] == 0
    meta = {f.name: f.metadata for f in fields(GameConfig)}["terrain_density"]
    assert meta["tag"] == "C" and meta["plausible"] == (0.0, 0.25) and meta["spec"] == "§3.1"


def test_s3_1_terrain_density_sets_up_random_ruins_for_each_game(nojit):
    config = example_config("two_players", terrain_density=0.25)
    st, tb, _ = one_game(config, seed=1)
    other, _, _ = one_game(config, seed=2)
    pieces = st.terrain[0, st.terrain[0, :, 2] > 0]
    assert len(pieces) == config.terrain_pieces == round(0.25 * 48 * 72 / (np.pi * 9))
    assert (pieces[:, 0] >= 3).all() and (pieces[:, 0] <= 45).all() and (pieces[:, 1] >= 3).all()
    x0, x1, y0, y1 = kernels.zombie40k.geometry.ev_rect(tb.prm)
    assert all(kernels.zombie40k.geometry.rect_distance(x, y, x0, x1, y0, y1) >= 3 for x, y, _, _ in pieces)
    assert not np.allclose(st.terrain, other.terrain)
    assert (pieces[:, 3] == 0).all()  # none dangerous unless terrain_dangerous says so


# ------------------------------------------------------------------ cover


def test_core_6_7_a_unit_in_ruins_has_a_4_plus_cover_save(dice):
    """A plasma gun (AP2) leaves a Marine no armour save; in a ruin its 4+ cover saves it."""
    st, tb, rng = _with_terrain(example_config("two_players", terrain_density=0.1))
    clear_table(st, keep=(0, 1))
    put_unit(st, tb, 0, 24.0, 20.0)
    put_unit(st, tb, 1, 24.0, 36.0)
    _ruin(st, 24.0, 36.0)
    dice.script(4, 2, 4)  # hit, wound, the 4+ cover save
    assert _fire(st, tb, rng, 0, 2, 1, "Plasma gun") == 0
    dice.done()


def test_core_6_7_stealth_improves_a_ruin_s_cover():
    st, tb, _ = _with_terrain(example_config("two_players", terrain_density=0.1))
    put_unit(st, tb, 1, 24.0, 36.0)
    assert shooting._cover_of(st, 0, 1, tb) == L.NONE
    _ruin(st, 24.0, 36.0)
    assert shooting._cover_of(st, 0, 1, tb) == 4
    st.mflags[0, 1, 0] |= L.MR_STEALTH
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    assert shooting._cover_of(st, 0, 1, tb) == 3


# ------------------------------------------------------------------ difficult terrain


def _squad_before_a_ruin(st, tb, y=20.0):
    clear_table(st, keep=(1,))
    put_unit(st, tb, 1, 24.0, y)
    _ruin(st, 24.0, y + st.radius[0, 1] + 4.0)  # 1" ahead of it on its road to the EV


def test_core_5_a_move_into_difficult_terrain_is_2d6_pick_the_highest(dice):
    st, tb, rng = _with_terrain(example_config("two_players", terrain_density=0.1))
    _squad_before_a_ruin(st, tb)
    y = st.pos[0, 1, 1]
    dice.script(2, 3)  # 2D6, the highest: 3"
    movement.squad_movement(st, 0, 1, tb, rng)
    dice.done()
    assert st.pos[0, 1, 1] == pytest.approx(y + 3.0)


def test_core_5_move_through_cover_rolls_3d6_for_difficult_terrain(dice):
    st, tb, rng = _with_terrain(example_config("two_players", terrain_density=0.1))
    _squad_before_a_ruin(st, tb)
    st.mflags[0, 1, 0] |= L.MR_MOVE_THROUGH_COVER
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    y = st.pos[0, 1, 1]
    dice.script(2, 3, 5)
    movement.squad_movement(st, 0, 1, tb, rng)
    dice.done()
    assert st.pos[0, 1, 1] == pytest.approx(y + 5.0)


def test_core_5_a_move_in_the_open_is_6_inches(dice):
    st, tb, rng = _with_terrain(example_config("two_players", terrain_density=0.1))
    _squad_before_a_ruin(st, tb)
    st.terrain[0] = 0.0
    y = st.pos[0, 1, 1]
    movement.squad_movement(st, 0, 1, tb, rng)
    dice.done()  # no die
    assert st.pos[0, 1, 1] == pytest.approx(y + 6.0)


def test_a22_zombies_shamble_through_difficult_terrain_unslowed(dice):
    st, tb, rng = _with_terrain(example_config("two_players", terrain_density=0.1))
    clear_table(st, keep=(0, 2))
    put_unit(st, tb, 0, 24.0, 20.0)
    put_unit(st, tb, 2, 24.0, 40.0)
    _ruin(st, 24.0, 34.0)
    y = st.pos[0, 2, 1]
    dice.script(4, 4)  # the Shamble: 8", straight through the ruin
    movement.shamble_phase(st, 0, tb, rng)
    dice.done()
    assert st.pos[0, 2, 1] == pytest.approx(y - 8.0)


# ------------------------------------------------------------------ charging through difficult terrain


def _charge_scene(teams, gap=5.0, ruin=True):
    config = team_config(*teams, policies=[{"charge": 2}, "advance"], terrain_density=0.1)
    st, tb, rng = _with_terrain(config)
    clear_table(st, keep=(0, 2))
    put_unit(st, tb, 0, 24.0, 20.0)
    put_unit(st, tb, 2, 24.0, 20.0 + st.radius[0, 0] + st.radius[0, 2] + gap)
    if ruin:
        _ruin(st, 24.0, st.pos[0, 2, 1], r=3.0)  # the horde stands in a ruin
    return st, tb, rng


@pytest.mark.parametrize(("ruin", "contact"), [(True, False), (False, True)])
def test_core_7_1_a_charge_through_difficult_terrain_is_2_inches_shorter(dice, ruin, contact):
    st, tb, rng = _charge_scene(("guard", "marines"), ruin=ruin)
    dice.script(3, 3)  # 6" for a 5" gap: short by the 2" of difficult terrain
    assert assault.make_charge(st, 0, 0, 2, tb, rng) == contact
    dice.done()


def test_core_7_1_chargers_through_difficult_terrain_without_assault_grenades_strike_at_i1(dice):
    """Genestealers have no grenades: through a ruin they strike at Initiative 1; the Guard's
    frag grenades are assault grenades: they keep their Initiative."""
    for team, step in (("genestealers", 1), ("guard", None)):
        st, tb, rng = _charge_scene((team, "marines"))
        dice.script(6, 6)
        assert assault.make_charge(st, 0, 0, 2, tb, rng)
        st.w_choice[0, 1] = -1
        assert assault._model_step(st, 0, 0, 1, tb, st.w_choice) == (step or st.stats[0, 0, 1, L.I])
    dice.done()


# ------------------------------------------------------------------ dangerous terrain


def test_core_5_each_model_moving_through_dangerous_terrain_tests_a_1_is_a_wound(dice):
    """Dangerous terrain: each model that moves through it rolls a D6, a 1 is a Wound with no
    armour save (the Marines' 3+ does not help)."""
    st, tb, rng = _with_terrain(example_config("two_players", terrain_density=0.1, terrain_dangerous=0.5))
    clear_table(st, keep=(1,))
    put_unit(st, tb, 1, 24.0, 20.0)
    _ruin(st, 24.0, 20.0 + st.radius[0, 1] + 4.0, dangerous=True)
    marines = units.alive(st, 0, 1)
    dice.script(2, 3,  # difficult: 3"
                1, 6, 6, 6)  # one model rolls a 1
    movement.squad_movement(st, 0, 1, tb, rng)
    dice.done()
    assert units.alive(st, 0, 1) == marines - 1


def test_core_5_move_through_cover_passes_dangerous_terrain(dice):
    st, tb, rng = _with_terrain(example_config("two_players", terrain_density=0.1, terrain_dangerous=0.5))
    clear_table(st, keep=(1,))
    put_unit(st, tb, 1, 24.0, 20.0)
    _ruin(st, 24.0, 20.0 + st.radius[0, 1] + 4.0, dangerous=True)
    st.mflags[0, 1, 0] |= L.MR_MOVE_THROUGH_COVER
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    marines, (x, y) = units.alive(st, 0, 1), st.pos[0, 1]
    dice.script(2, 3, 4)  # difficult (3D6): no dangerous test
    movement.squad_movement(st, 0, 1, tb, rng)
    dice.done()
    assert st.pos[0, 1, 1] == pytest.approx(y + 4.0)  # the highest of 3D6, into the ruin
    assert kernels.zombie40k.terrain.crosses_terrain(st, 0, x, y, *st.pos[0, 1], st.radius[0, 1], tb, True)
    assert units.alive(st, 0, 1) == marines  # passed: no model tested, none lost


def test_a35_chuck_norris_re_rolls_a_failed_dangerous_terrain_test(dice):
    """Under the Blessing of Chuck Norris each dangerous-terrain 1 is re-rolled (A35, every failed
    roll; core §5; issue 27 item 6): the re-roll passes and no model is hurt."""
    st, tb, rng = _with_terrain(example_config("two_players", terrain_density=0.1, terrain_dangerous=0.5))
    clear_table(st, keep=(1,))
    put_unit(st, tb, 1, 24.0, 20.0)
    _ruin(st, 24.0, 20.0 + st.radius[0, 1] + 4.0, dangerous=True)
    st.pu[0, 1, GL.PU_CHUCK] = st.res[0, GL.R_TURNS]
    marines = units.alive(st, 0, 1)
    dice.script(2, 3,  # difficult: 3"
                1, 4,  # a 1, re-rolled: 4
                6, 6, 6)
    movement.squad_movement(st, 0, 1, tb, rng)
    dice.done()
    assert units.alive(st, 0, 1) == marines
