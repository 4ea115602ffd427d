"""Dedicated Transports in play (issue 32 part 2, step 2): the army check takes one bought with a
squad it can carry (§2, V1), a transport is a vehicle unit that is not a Walker: zombies hit it by
its last move and strike its rear armour (V7, ``vehicle_assault_hits``), it does not fight back nor
charge, moves up to 12" and never runs (V11), makes a vehicle's noise (§9.3) and fires every weapon
at its BS (V1). Hand-fed dice (the ``dice`` fixture): every kernel runs as plain Python."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from apocalypse_helpers import RHINO_ARMY, RHINO_UNITS, put_unit, rhino_config_file, vehicle_game

import kernels.apocalypse.assault as assault
import kernels.apocalypse.combat as combat
import kernels.apocalypse.hordes as hordes
import kernels.apocalypse.noise as noise
import kernels.apocalypse.shooting as shooting
import kernels.apocalypse.vehicles as vehicles
from kernels.apocalypse import columns as C
from kernels.apocalypse.state import N_OUT_A
from kernels.w40k.columns import BS, A, T, W
from sim.rulesets.apocalypse.armies import (
    Army,
    ArmyError,
    UnitChoice,
    build_units,
    check_army,
    fit_army,
    load_army,
    unit_size,
)
from sim.rulesets.apocalypse.catalogue import catalogue, slots
from sim.rulesets.apocalypse.compile import sizes
from sim.rulesets.apocalypse.config import ConfigError, load_config

ROOT = Path(__file__).resolve().parents[2] / "examples" / "apocalypse"
CAPTAIN, TACTICAL, RHINO, DEVASTATORS = RHINO_UNITS


@pytest.fixture
def rhino_config(tmp_path):
    return rhino_config_file(tmp_path)


game = vehicle_game
put = put_unit


def zombies_strike(st, tb, rng, u, n_dice, strength):
    kind = C.ZK_ZOMBIE
    return combat.zombie_attacks(rng, 0, st, u, n_dice, tb.zstats[kind], tb.zflags[kind], tb.weapons[tb.ids[0]],
                                 strength, True, False, False, False, tb, np.zeros(N_OUT_A, np.int64))


# ------------------------------------------------------------------ the army (§2)


def test_the_army_check_takes_a_transport_after_the_squad_it_can_carry():
    army = load_army(RHINO_ARMY)
    check_army(army)
    rhino = build_units(army)[RHINO]
    assert rhino.unit_type == "transport" and rhino.slot == "dedicated_transport" and len(rhino.models) == 1
    assert rhino.vehicle.capacity == 10 and rhino.models[0].profile.a == 0  # it does not fight (V7)
    units = list(army.units)
    captain_first = replace(army, units=(units[0], units[2], units[1], units[3]))  # bought with the Captain
    with pytest.raises(ArmyError, match=r"units\[1\]: §2 Dedicated Transport: 'Rhino' follows no infantry squad"):
        check_army(captain_first)
    razorback = replace(army, units=(units[0], units[1], UnitChoice("Razorback"), units[3]))
    with pytest.raises(ArmyError, match=r"'Razorback' carries 6 models; 'Tactical Marine' has 10; allowed: up to 6"):
        check_army(razorback)
    with pytest.raises(ArmyError, match=r"'Stormraven' is a vehicle \(flyer\); allowed: Walkers"):
        check_army(Army("x", "Space Marines", (UnitChoice("Captain"), UnitChoice("Stormraven"))))
    two = replace(army, units=(units[0], units[1], units[2], units[2], units[3]))
    with pytest.raises(ArmyError, match="follows no infantry squad"):  # one transport a squad
        check_army(two)


def test_fitting_keeps_a_squad_within_its_transports_capacity():
    """The points axis grows squads to their maximum size, but not past the transport bought with
    them, and never adds a copy of a transport (it takes no Force Organisation slot)."""
    cat = catalogue()
    small = Army("x", "Space Marines", (UnitChoice("Captain"), UnitChoice("Tactical Marine", models=5),
                                        UnitChoice("Razorback")))
    check_army(small)
    fitted = fit_army(small, 1000, cat)
    check_army(fitted, 1000, cat)
    tactical = slots(cat)["Tactical Marine"]
    assert tactical.max_models > 6
    assert unit_size(fitted.units[1], tactical) == 6
    assert sum(u.unit == "Razorback" for u in fitted.units) == 1


def test_a_transport_compiles_to_one_vehicle_model_that_is_no_walker(rhino_config):
    tb, _, _ = game(rhino_config)
    info, stats = tb.ut_info[RHINO, 0], tb.ut_stats[RHINO, 0]
    assert info[C.MI_VEHICLE] == C.VK_TRANSPORT and tb.ut_type[RHINO] == C.UT_TRANSPORT
    assert (info[C.MI_AV_FRONT], info[C.MI_AV_SIDE], info[C.MI_AV_REAR]) == (11, 11, 10)
    assert (stats[A], stats[W]) == (0, 3)
    assert tb.ut_wounds[RHINO, 1] == 0
    assert sizes(load_config(rhino_config)).spawners == 2  # one spawn point, one slot for its wreck (§10)


def test_vehicle_assault_hits_is_playable_where_a_transport_plays(rhino_config):
    cfg = load_config(rhino_config)
    assert replace(cfg, vehicle_assault_hits="all_4").vehicle_assault_hits == "all_4"
    helbrute = load_config(ROOT / "vehicles" / "helbrute.toml")  # a Walker is hit as a model: it does not read it
    with pytest.raises(ConfigError, match="vehicle_assault_hits = 'all_4'; allowed: auto_4_6 \\(no army here "
                                          "fields a Dedicated Transport"):
        replace(helbrute, vehicle_assault_hits="all_4")


# ------------------------------------------------------------------ zombies against a transport (V7, V9)


def test_zombies_hit_a_stationary_transport_automatically_on_its_rear_armour(dice, rhino_config):
    """V7: it did not move: every attack hits (no to-hit die), struck on the rear (10): S4 + 6 = 10
    glances it (on the front, 11, nothing). Dull Witted does not apply (no WS to compare)."""
    tb, st, rng = game(rhino_config)
    u = put(st, tb, RHINO, 20, 20)
    dice.script(6)  # penetration only: 10 = rear armour, glancing
    assert zombies_strike(st, tb, rng, u, 1, 4) == 1
    dice.done()
    assert st.wounds[0, u, 0] == 2 and st.pres[0, 0, C.PR_HULL_LOST] == 1
    dice.script(5)  # 4 + 5 = 9 < 10: nothing
    assert zombies_strike(st, tb, rng, u, 1, 4) == 0
    dice.done()


@pytest.mark.parametrize(("moved", "miss", "hit"), [(6.0, 3, 4), (6.5, 5, 6), (12.0, 5, 6)])
def test_a_transport_that_moved_is_hit_on_4_up_to_6_inches_else_on_6(dice, rhino_config, moved, miss, hit):
    """V7 auto_4_6: moved up to 6": 4+; more: 6+ (the zombies' turn reads the move kept from the
    players' turn, ``keep_last_moves``)."""
    tb, st, rng = game(rhino_config)
    u = put(st, tb, RHINO, 20, 20)
    st.umoved[0, u] = moved
    vehicles.keep_last_moves(st, 0)
    st.umoved[0, u] = 0.0  # the zombies' turn starts: this turn's moves are cleared
    st.gst[0, C.G_ACTIVE] = C.SIDE_ZOMBIES
    dice.script(miss)
    assert zombies_strike(st, tb, rng, u, 1, 4) == 0
    dice.done()
    dice.script(hit, 6)  # a hit, then 4 + 6 = 10: glancing
    assert zombies_strike(st, tb, rng, u, 1, 4) == 1
    dice.done()


def test_all_4_hits_a_transport_on_4_whatever_it_did(dice, rhino_config):
    tb, st, rng = game(rhino_config, vehicle_assault_hits="all_4")
    u = put(st, tb, RHINO, 20, 20)  # stationary: auto_4_6 would hit automatically
    dice.script(3)
    assert zombies_strike(st, tb, rng, u, 1, 4) == 0
    dice.done()
    st.umoved[0, u] = 12.0  # auto_4_6 would need a 6
    dice.script(4, 6)
    assert zombies_strike(st, tb, rng, u, 1, 4) == 1
    dice.done()


def test_a_transport_does_not_fight_back(rhino_config):
    tb, st, _ = game(rhino_config)
    u = put(st, tb, RHINO, 20, 20)
    _, attacks, _ = assault.melee_choice(st, 0, u, 0, tb.zstats[C.ZK_ZOMBIE, T], 6, tb)
    assert attacks == 0


def test_a_transport_never_charges(dice, rhino_config):
    """V7: it does not fight, so the charge phase passes it by even with a small horde in reach."""
    import kernels.apocalypse.turn as turn

    tb, st, rng = game(rhino_config)
    tb.policy[0, C.POL_CHARGE] = 1
    u = put(st, tb, RHINO, 20, 20)
    h = hordes.new_horde(st, 0, 20 + st.urad[0, u] + 3.0, 20, 2, 0, tb)
    assert turn.charge_target(st, 0, u, tb) == h  # the planner would pick it for a squad
    turn.player_charges(rng, 0, st, tb)  # no charge dice
    dice.done()
    assert st.ust[0, u, C.US_CHARGED] == 0 and st.lock[0, u, h] == 0


# ------------------------------------------------------------------ moving, noise, shooting (V11, §9.3, V1)


def test_a_transport_moves_12_inches_through_the_planner_and_never_runs(dice, rhino_config):
    import kernels.apocalypse.movement as movement
    import kernels.apocalypse.turn as turn
    from kernels.w40k.geometry import norm

    tb, st, rng = game(rhino_config)
    tb.policy[0, C.POL_PLAN] = C.PLAN_RUSH
    u = put(st, tb, RHINO, 6, 6)
    squad = put(st, tb, TACTICAL, 6, 30)
    dice.script(*([3] * 20))  # movement noise past 6" (2D3 + 3) and any other die the phase rolls
    turn.movement_phase(rng, 0, st, tb)
    moved = norm(st.upos[0, u, 0] - 6, st.upos[0, u, 1] - 6)
    assert moved == pytest.approx(12.0)
    assert norm(st.upos[0, squad, 0] - 6, st.upos[0, squad, 1] - 30) == pytest.approx(6.0)
    assert not movement.may_run(C.UT_TRANSPORT) and movement.may_run(C.UT_WALKER)


def test_a_transport_moving_more_than_6_inches_makes_2d3_plus_3_noise(dice, rhino_config):
    tb, st, rng = game(rhino_config)
    dice.script(1, 6)  # 2D3: 1 + 3
    total, over6, over12 = noise.movement_noise(rng, 0, C.UT_TRANSPORT, 7.0, 1, False, False, tb)
    dice.done()
    assert (total, over6, over12) == (1 + 3 + 3, True, False)
    assert noise.movement_noise(rng, 0, C.UT_TRANSPORT, 6.0, 1, False, False, tb)[0] == 0


def test_a_transport_fires_its_weapons_at_its_bs(dice, monkeypatch, rhino_config):
    tb, st, rng = game(rhino_config)
    u = put(st, tb, RHINO, 20, 20)
    h = hordes.new_horde(st, 0, 20 + st.urad[0, u] + 8.0, 20, 30, 0, tb)
    fired = []

    def record(rng, g, st, u, m, h, k, shots, snap, *rest):
        fired.append((k, shots, snap))
        return 0, 0, 0

    monkeypatch.setattr(shooting, "_fire_weapon", record)
    shooting.fire_unit(rng, 0, st, u, h, False, tb, C.PH_SHOOTING)
    assert fired and not any(snap for *_, snap in fired) and all(shots > 0 for _, shots, _ in fired)
    assert st.stats[0, u, 0, BS] == 4  # BS4 (the Rhino's)


# ------------------------------------------------------------------ whole games


def test_transports_play_whole_games_without_breaking_an_invariant(rhino_config):
    """Transports move, shoot, are struck and wrecked in real games (compiled kernels, check mode)."""
    from sim.play import play

    cfg = load_config(rhino_config)
    df = play(cfg, 120, seed=4, batch_size=60, check=True)
    assert df.attrs["violations"] == 0 and len(df) == 120
    assert df.hull_points_lost.sum() > 0 and (df.vehicles_lost <= 1).all()
    assert (df.wreck_spawners <= df.vehicles_lost).all()
