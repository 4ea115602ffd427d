"""Terrain beside the extraction zone (zombie-apocalypse §3.1 "Terrain as the core document
prescribes"; core-7th-edition §5, §6.7; kernels/apocalypse/terrain.py).

The core prescribes no layout: the default table has only the zone (``terrain = "none"``). The
options: ``"random"`` (``terrain_pieces`` ruins at uniform points clear of the zone) and ``"city"``
(eight ruins at fixed places). A ruin is difficult terrain (a move touching it is at most the
highest of 2D6, 3D6 with Move Through Cover; Zombie! is never slowed) and gives a horde standing
in it a 4+ cover save (Foggy: +2). Hand-fed dice for the set-up and the moves; a boltgun into a
horde in a ruin against ``sim.w40k.exact`` (cover 4+) by chi-square at alpha 1e-4.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from apocalypse_helpers import EXAMPLES, put_horde, put_unit, table
from helpers import assert_matches_pmf

import kernels.apocalypse.assault as assault
import kernels.apocalypse.movement as movement
import kernels.apocalypse.shooting as shooting
import kernels.apocalypse.terrain as terrain
import kernels.apocalypse.turn as turn
import kernels.apocalypse.units as units
import kernels.apocalypse.zombies as zombies
from kernels.apocalypse import columns as C
from kernels.apocalypse.hordes import new_horde
from kernels.apocalypse.state import MAX_TERRAIN, TR, TX, TY
from kernels.jit import njit
from kernels.rng import stream_start
from kernels.w40k import columns as L
from sim.rulesets.apocalypse.catalogue import catalogue
from sim.rulesets.apocalypse.config import ConfigError, config_from_dict
from sim.w40k.exact import exchange_odds
from sim.w40k.exchange import Exchange

TACTICAL = 1  # the Ultramarines' Tactical Squad (one_player)


def _pieces(st):
    return [(float(x), float(y), float(r)) for x, y, r in st.terrain[0] if r > 0]


def _ruin(st, k, x, y, r=3.0):
    st.terrain[0, k, TX], st.terrain[0, k, TY], st.terrain[0, k, TR] = x, y, r


# ------------------------------------------------------------------ set-up


def test_no_terrain_by_default_and_no_dice(dice):
    _, tb, st, rng = table()
    terrain.place_terrain(rng, 0, st, tb, C.PH_SETUP)
    dice.done()
    assert _pieces(st) == [] and tb.prm[C.P_TERRAIN_LAYOUT] == terrain.LAYOUT_NONE


def test_the_city_layout_is_eight_fixed_ruins_clear_of_the_zone(dice):
    _, tb, st, rng = table(terrain="city")
    terrain.place_terrain(rng, 0, st, tb, C.PH_SETUP)
    dice.done()  # no dice: a fixed table
    pieces = _pieces(st)
    assert len(pieces) == 8
    rounded = [(round(x, 2), round(y, 2), r) for x, y, r in pieces]
    assert rounded == [(14.4, 14.4, 3.0), (33.6, 14.4, 3.0), (14.4, 33.6, 3.0), (33.6, 33.6, 3.0),
                       (24.0, 9.12, 3.0), (9.12, 24.0, 3.0), (38.88, 24.0, 3.0), (24.0, 38.88, 3.0)]
    for x, y, r in pieces:
        assert terrain.fits(x, y, r, tb.prm)


def test_a_city_ruin_that_would_touch_a_large_zone_is_left_out(dice):
    _, tb, st, rng = table(terrain="city", zone_radius_in=11.0)
    terrain.place_terrain(rng, 0, st, tb, C.PH_SETUP)
    pieces = _pieces(st)
    assert len(pieces) == 4  # the diagonal ruins (13.6" from the centre) go, the edge ones (14.9") stay
    assert all(np.hypot(x - 24, y - 24) - 11.0 >= r for x, y, r in pieces)


def test_random_ruins_at_uniform_points_an_illegal_one_drawn_again(dice):
    """Piece 1: (0.5, 0.5) is the table centre, on the zone: drawn again at (0, 0) -> (3, 3), the
    nearest point with the whole ruin on the table. Piece 2 at once: (1, 0.25) -> (45, 13.5)."""
    _, tb, st, rng = table(terrain="random", terrain_pieces=2)
    dice.script(0.5, 0.5, 0.0, 0.0, 1.0, 0.25)
    terrain.place_terrain(rng, 0, st, tb, C.PH_SETUP)
    dice.done()
    assert _pieces(st) == [(3.0, 3.0, 3.0), (45.0, 13.5, 3.0)]


def test_terrain_options_are_validated():
    data = {"players": [{"name": "A", "army": "../armies/ultramarines.toml"}], "params": {"terrain": "jungle"}}
    with pytest.raises(ConfigError, match=r"terrain = 'jungle'; allowed: none, random, city$"):
        config_from_dict(data, "c.toml", EXAMPLES / "configs")
    data["params"] = {"terrain": "random", "terrain_pieces": MAX_TERRAIN + 1}
    with pytest.raises(ConfigError, match=rf"terrain_pieces = {MAX_TERRAIN + 1}; allowed: an integer 0-{MAX_TERRAIN}"):
        config_from_dict(data, "c.toml", EXAMPLES / "configs")


# ------------------------------------------------------------------ movement (core §5)


def _mover(**params):
    _, tb, st, rng = table(**params)
    u = put_unit(st, tb, TACTICAL, 4.0, 40.0)
    return tb, st, rng, u


def test_a_move_clear_of_the_ruins_rolls_nothing(dice):
    tb, st, rng, u = _mover()
    _ruin(st, 0, 30.0, 10.0)
    moved = movement.move_unit(rng, 0, st, u, 20.0, 40.0, 6.0, -1, True, tb, C.PH_MOVEMENT)
    dice.done()
    assert abs(moved - 6.0) < 1e-9


@pytest.mark.parametrize("dice_rolled, limit", [((2, 3), 3.0), ((6, 1), 6.0), ((1, 1), 1.0)])
def test_a_move_through_a_ruin_goes_the_highest_of_2d6(dice, dice_rolled, limit):
    tb, st, rng, u = _mover()
    _ruin(st, 0, 8.0 + st.urad[0, u], 40.0)
    dice.script(*dice_rolled)
    moved = movement.move_unit(rng, 0, st, u, 20.0, 40.0, 6.0, -1, True, tb, C.PH_MOVEMENT)
    dice.done()
    assert abs(moved - limit) < 1e-9


def test_move_through_cover_rolls_3d6(dice):
    tb, st, rng, u = _mover()
    _ruin(st, 0, 8.0 + st.urad[0, u], 40.0)
    st.mflags[0, u, 1] |= L.MR_MOVE_THROUGH_COVER
    dice.script(1, 2, 4)
    moved = movement.move_unit(rng, 0, st, u, 20.0, 40.0, 6.0, -1, True, tb, C.PH_MOVEMENT)
    dice.done()
    assert abs(moved - 4.0) < 1e-9


def test_a_run_is_not_slowed(dice):
    """core §6.10: difficult terrain does not reduce a Run (the run is a move with difficult off)."""
    tb, st, rng, u = _mover()
    _ruin(st, 0, 8.0 + st.urad[0, u], 40.0)
    moved = movement.move_unit(rng, 0, st, u, 20.0, 40.0, 5.0, -1, False, tb, C.PH_SHOOTING)
    dice.done()
    assert abs(moved - 5.0) < 1e-9


def test_zombies_are_never_slowed_by_ruins(dice):
    """Zombie! (§5): a horde crossing a ruin moves its 6" and its run in full."""
    tb, st, rng, u = _mover()
    h = put_horde(st, tb, 30.0, 40.0, 5)
    _ruin(st, 0, 25.0, 40.0)
    x0 = float(st.hpos[0, h, 0])
    dice.script(4)  # the run
    zombies.move_horde(rng, 0, st, h, tb)
    dice.done()
    assert abs(x0 - float(st.hpos[0, h, 0]) - 10.0) < 1e-9


# ------------------------------------------------------------------ cover (core §6.7)


@pytest.mark.parametrize("foggy, inside, cover", [(False, True, 4), (False, False, L.NONE), (True, True, 2),
                                                  (True, False, 5)])
def test_a_horde_in_a_ruin_has_a_4_up_cover_save(foggy, inside, cover):
    _, tb, st, _ = table(terrain="city", foggy=foggy)
    h = put_horde(st, tb, 10.0, 40.0, 5)
    _ruin(st, 0, 10.0 if inside else 20.0, 40.0)
    assert shooting.horde_cover(st, 0, h, tb) == cover


def test_no_cover_from_ruins_on_the_default_table():
    _, tb, st, _ = table(foggy=False)
    h = put_horde(st, tb, 10.0, 40.0, 5)
    _ruin(st, 0, 10.0, 40.0)  # (a piece written by hand: the layout 'none' gives no cover)
    assert shooting.horde_cover(st, 0, h, tb) == L.NONE


@njit
def _volleys(st, tb, u, x, y, zombies_n, seed, killed, rng):
    for i in range(killed.shape[0]):
        rng[0] = stream_start(np.uint64(seed), np.uint64(i))
        for h in range(st.hst.shape[1]):
            st.hst[0, h, 0] = 0
        h = new_horde(st, 0, x, y, zombies_n, 0, tb)
        killed[i] = shooting.fire_unit(rng, 0, st, u, h, False, tb, C.PH_SHOOTING)[0]


@pytest.mark.slow
def test_a_boltgun_into_a_horde_in_a_ruin_matches_the_oracle():
    """One Marine's boltgun, two shots at half range, into nine Zombies (Resilience 6++) standing in
    a ruin, Foggy off: each wound saved on the ruin's 4+ (core §6.7) - ``sim.w40k.exact`` with
    cover 4."""
    _, tb, st, rng = table(terrain="city", foggy=False)
    tb.policy[0, C.POL_GRENADE] = 0
    u = put_unit(st, tb, TACTICAL, 14.4, 4.0)
    for k in range(st.wounds.shape[2]):
        if k != 1:
            st.wounds[0, u, k] = 0
    _ruin(st, 0, 14.4, 14.4)
    h = put_horde(st, tb, 14.4, 14.4, 9)
    assert shooting.horde_cover(st, 0, h, tb) == 4
    assert shooting.best_weapon(st, 0, u, 1, h, 6.0, False, True, tb)[1] == 2  # two shots within 12"
    marine = catalogue().unit("Tactical Marine").profile
    target = tuple(replace(catalogue().unit("Zombie").profile, inv=6) for _ in range(9))
    odds = exchange_odds(Exchange(marine, catalogue().weapon("Boltgun"), 2, target, cover=4))
    killed = np.zeros(60_000, np.int64)
    _volleys(st, tb, u, 14.4, 14.4, 9, np.uint64(3), killed, rng)
    assert_matches_pmf(killed, odds.killed, "boltgun into 9 zombies in a ruin (cover 4+)")
    open_odds = exchange_odds(Exchange(marine, catalogue().weapon("Boltgun"), 2, target))
    assert odds.mean(odds.killed) < open_odds.mean(open_odds.killed)  # the cover matters


# ------------------------------------------------------------------ charging through difficult terrain (core §7.1)


@pytest.mark.parametrize("roll, through, mtc, reach", [(7, False, False, 7), (7, True, False, 5), (7, True, True, 7),
                                                       (2, True, False, 0)])
def test_a_charge_through_difficult_terrain_is_2_inches_shorter(roll, through, mtc, reach):
    assert turn.charge_reach(roll, through, mtc) == reach


def _charger(ruin_x, **params):
    """A Tactical Squad at (4, 40) set to charge a horde of five 8" to its right; a ruin at ruin_x."""
    tb, st, rng, u = _mover(**params)
    tb.policy[0, C.POL_CHARGE] = 1
    h = put_horde(st, tb, 30.0, 40.0, 5)
    st.hpos[0, h, 0] = 4.0 + st.urad[0, u] + st.hrad[0, h] + 8.0
    if ruin_x is not None:
        _ruin(st, 0, ruin_x, 40.0)
    return tb, st, rng, u, h


@pytest.mark.parametrize("ruin_x, roll, charged", [(None, (4, 4), True), (12.0, (4, 4), False), (12.0, (5, 5), True),
                                                   (30.0, (4, 4), True)])
def test_player_charges_lose_2_inches_through_a_ruin(dice, ruin_x, roll, charged):
    tb, st, rng, u, h = _charger(ruin_x)
    assert abs(units.unit_gap_horde(st, 0, u, h) - 8.0) < 1e-9
    dice.script(*roll)
    turn.player_charges(rng, 0, st, tb)
    dice.done()
    assert bool(st.lock[0, u, h]) is charged
    # Marines carry frag grenades (assault grenades, core §8): no Initiative 1 penalty
    assert st.ust[0, u, C.US_DIFFICULT_CHARGE] == 0


def test_without_assault_grenades_a_charge_through_a_ruin_fights_at_initiative_1(dice):
    tb, st, rng, u, h = _charger(12.0)
    for m in range(st.gear.shape[2]):
        for k in range(st.gear.shape[3]):
            w = st.gear[0, u, m, k]
            if w >= 0 and tb.weapons[w, L.W_FLAGS] & L.WR_ASSAULT_GRENADE:
                st.gear[0, u, m, k] = -1
    dice.script(5, 5)
    turn.player_charges(rng, 0, st, tb)
    dice.done()
    assert st.lock[0, u, h] == 1 and st.ust[0, u, C.US_DIFFICULT_CHARGE] == 1
    st.w_cu[0], st.w_ch[0] = u, h
    assault.prepare_strikes(st, 0, 1, 1, 1, tb)
    alive = st.wounds[0, u] > 0
    assert (st.w_mi[u][alive] == 1).all()
