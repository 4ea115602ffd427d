"""Walkers in play (issue 32 part 2, step 1): the army check takes them (§2), zombies strike their
front armour at their Strength with the Hordes bonus (V7, V9) through kernels.w40k.vehicles (V3-V5),
the damage results act (V5, V10), spawners take Hull Points without a damage roll (§10), Master of
Defence adds 1 to every facing (§7), a vehicle that moves more than 6" makes 2D3 + 3 noise (§9), and
a walker fires every weapon. Hand-fed dice (the ``dice`` fixture): every kernel runs as plain Python."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from apocalypse_helpers import put_unit, vehicle_game

import kernels.apocalypse.combat as combat
import kernels.apocalypse.hordes as hordes
import kernels.apocalypse.noise as noise
import kernels.apocalypse.shooting as shooting
import kernels.apocalypse.units as units
import kernels.apocalypse.vehicles as vehicles
import kernels.apocalypse.zombies as zombies
from kernels.apocalypse import columns as C
from kernels.apocalypse.state import N_OUT_A
from kernels.w40k.columns import WS, A, I, S, T, W
from sim.rulesets.apocalypse.armies import Army, ArmyError, UnitChoice, build_units, check_army, load_army
from sim.rulesets.apocalypse.compile import sizes
from sim.rulesets.apocalypse.config import ConfigError, load_config

ROOT = Path(__file__).resolve().parents[2] / "examples" / "apocalypse"
HELBRUTE_CONFIG = ROOT / "vehicles" / "helbrute.toml"
CHAOS_LORD, BIG_SQUAD, SMALL_SQUAD, HELBRUTE = range(4)  # the army's units, HQ first
DEFF_DREAD, BOYZ = 3, 1  # units of vehicles/walkers.toml's Goffs


def game(path=HELBRUTE_CONFIG, **params):
    """(tables, state, rng) of one empty game of ``path``, game turn 1, the players' turn."""
    return vehicle_game(path, **params)


put = put_unit


def zombies_strike(st, tb, rng, u, n_dice, strength, kind=C.ZK_ZOMBIE):
    return combat.zombie_attacks(rng, 0, st, u, n_dice, tb.zstats[kind], tb.zflags[kind], tb.weapons[tb.ids[0]],
                                 strength, kind == C.ZK_ZOMBIE, False, False, False, tb, np.zeros(N_OUT_A, np.int64))


# ------------------------------------------------------------------ the army (§2)


def test_the_army_check_takes_a_walker_in_its_slot_and_refuses_the_other_vehicles():
    army = load_army(ROOT / "vehicles" / "armies" / "black_legion_helbrute.toml")
    check_army(army)
    helbrute = build_units(army)[HELBRUTE]
    assert helbrute.unit_type == "walker" and helbrute.slot == "elites" and len(helbrute.models) == 1
    profile = helbrute.models[0].profile
    assert (profile.ws, profile.bs, profile.s, profile.i, profile.a, profile.w) == (4, 4, 6, 4, 4, 3)
    assert "fearless" in profile.rules  # a vehicle takes no Morale test: §2's Fearless removal is not for it
    lord = Army("x", "Chaos Space Marines", (UnitChoice("Chaos Lord"),))
    with pytest.raises(ArmyError, match=r"§2 Dedicated Transport: 'Chaos Rhino' follows no infantry squad"):
        check_army(Army("x", "Chaos Space Marines", lord.units + (UnitChoice("Chaos Rhino"),)))
    with pytest.raises(ArmyError, match=r"'Stormraven' is a vehicle \(flyer\); allowed: Walkers"):
        check_army(Army("x", "Space Marines", (UnitChoice("Captain"), UnitChoice("Stormraven"))))
    too_many = Army("x", "Astra Militarum", (UnitChoice("Lord Commissar"),) + (UnitChoice("Scout Sentinel"),) * 4)
    with pytest.raises(ArmyError, match="§2 Force Organisation: 4 Fast Attack"):
        check_army(too_many)


def test_a_walker_compiles_to_one_model_with_its_armour_and_hull_points():
    tb, st, _ = game()
    info, stats = tb.ut_info[HELBRUTE, 0], tb.ut_stats[HELBRUTE, 0]
    assert info[C.MI_VEHICLE] == C.VK_WALKER and tb.ut_type[HELBRUTE] == C.UT_WALKER
    assert (info[C.MI_AV_FRONT], info[C.MI_AV_SIDE], info[C.MI_AV_REAR]) == (12, 12, 10)
    assert (stats[WS], stats[S], stats[I], stats[A], stats[W]) == (4, 6, 4, 4, 3)
    assert tb.ut_wounds[HELBRUTE, 1] == 0  # a unit of one model
    assert tb.ut_info[BIG_SQUAD, 0, C.MI_VEHICLE] == C.VK_NONE
    cfg = load_config(HELBRUTE_CONFIG)
    assert sizes(cfg).spawners == 2  # one spawn point, one slot for the Helbrute's wreck (§10)


def test_vehicle_readings_are_refused_only_where_no_walker_plays():
    from dataclasses import replace

    cfg = load_config(HELBRUTE_CONFIG)
    assert replace(cfg, vehicle_damage_table="6th").vehicle_damage_table == "6th"
    assert not replace(cfg, wreck_waves=False).wreck_waves
    with pytest.raises(ConfigError, match="vehicle_assault_hits = 'all_4'; allowed: auto_4_6"):
        replace(cfg, vehicle_assault_hits="all_4")
    plain = load_config(ROOT / "vehicles" / "black_legion.toml")
    with pytest.raises(ConfigError, match="vehicle_damage_table = '6th'; allowed: 7th \\(no army here fields"):
        replace(plain, vehicle_damage_table="6th")


# ------------------------------------------------------------------ zombies against a walker (V7, V9)


def test_zombies_strike_a_walkers_front_armour_with_their_hordes_strength(dice):
    """V7: a Walker is struck on its front armour (12), not its rear (10): S6 (a horde of 40, V9) and
    a 6 glance it; Dull Witted: a Zombie (WS2) hits the Helbrute (WS4) only on a 6 (§5)."""
    tb, st, rng = game()
    u = put(st, tb, HELBRUTE, 20, 20)
    dice.script(6, 6)  # to hit: 6; penetration 6 + S6 = 12 = front armour: glancing
    lost = zombies_strike(st, tb, rng, u, 1, 6)
    dice.done()
    assert lost == 1 and st.wounds[0, u, 0] == 2 and st.minfo[0, u, 0, C.MI_HP_LOST] == 1
    assert st.minfo[0, u, 0, C.MI_ZW] == 0  # a vehicle never becomes a Brute (The Plague counts no wound)
    dice.script(5)  # a 5 misses: Dull Witted
    assert zombies_strike(st, tb, rng, u, 1, 10) == 0
    dice.done()
    dice.script(6, 5)  # S6 + 5 = 11 < 12: nothing (on the rear armour, 10, it would penetrate)
    assert zombies_strike(st, tb, rng, u, 1, 6) == 0
    dice.done()
    assert st.pres[0, 0, C.PR_HULL_LOST] == 1


def test_a_penetrating_hit_rolls_on_the_damage_table_with_ap_minus_one(dice):
    """V4, V5: S7 + 6 = 13 > 12 penetrates: a Hull Point and a damage roll, AP '-' -1: a 4 reads 3,
    Crew Shaken (Snap Shots to the end of its next turn); a 5 reads 4, Crew Stunned (nor moves)."""
    tb, st, rng = game()
    u = put(st, tb, HELBRUTE, 20, 20)
    st.gst[0, C.G_ACTIVE] = C.SIDE_ZOMBIES
    st.gst[0, C.G_FIRST] = C.SIDE_ZOMBIES  # the players' next turn is this game turn's
    dice.script(6, 6, 4)
    assert zombies_strike(st, tb, rng, u, 1, 7) == 1
    dice.done()
    assert vehicles.snap_only(st, 0, u) and vehicles.may_move(st, 0, u)
    st.gst[0, C.G_TURN] = 2
    assert not vehicles.snap_only(st, 0, u)
    dice.script(6, 6, 5)
    zombies_strike(st, tb, rng, u, 1, 7)
    dice.done()
    assert vehicles.snap_only(st, 0, u) and not vehicles.may_move(st, 0, u)
    assert st.minfo[0, u, 0, C.MI_STUN_UNTIL] == 2


def test_weapon_destroyed_takes_a_gun_and_immobilised_twice_costs_a_hull_point(dice):
    """V5: 6 - 1 = 5 Weapon Destroyed (the first gun), 7 - 1 = 6 Immobilised (again: one more Hull
    Point, the 7th-edition core)."""
    tb, st, rng = game(vehicle_ap_modifiers="7th")
    u = put(st, tb, HELBRUTE, 20, 20)
    st.wounds[0, u, 0] = 9  # room for every result (the Hull Points are not what is tested)
    guns = [k for k in range(st.gear.shape[3]) if st.gear[0, u, 0, k] >= 0]
    dice.script(6, 6, 6)  # hit, 13 penetrates, damage 6 - 1 = 5
    zombies_strike(st, tb, rng, u, 1, 7)
    dice.done()
    left = [k for k in range(st.gear.shape[3]) if st.gear[0, u, 0, k] >= 0]
    assert len(left) == len(guns) - 1 and st.wounds[0, u, 0] == 8
    tb.v_ap_mods[7] = 0  # AP '-' read with no modifier so a 6 is Immobilised
    dice.script(6, 6, 6)
    zombies_strike(st, tb, rng, u, 1, 7)
    dice.done()
    assert st.minfo[0, u, 0, C.MI_VSTATUS] & C.VST_IMMOBILISED and st.wounds[0, u, 0] == 7
    assert not vehicles.may_move(st, 0, u)
    dice.script(6, 6, 6)
    zombies_strike(st, tb, rng, u, 1, 7)
    dice.done()
    assert st.wounds[0, u, 0] == 5  # the hit's Hull Point and the second Immobilised's


def test_explodes_wrecks_the_walker_and_hits_every_model_within_d6(dice):
    """V5 7+ Explodes!, V10: wrecked whatever its Hull Points; every model within D6" takes an S4
    AP- hit: the horde beside it (T2: wounded on 2+) loses models."""
    tb, st, rng = game(allocation="zombies_first")
    u = put(st, tb, HELBRUTE, 20, 20)
    tb.v_ap_mods[7] = 1  # so a damage roll of 6 reads 7: Explodes!
    h = hordes.new_horde(st, 0, 20 + st.urad[0, u] + 2.0, 20, 5, 0, tb)
    before = st.hst[0, h, C.HS_Z]
    far = put(st, tb, BIG_SQUAD, 40, 40)
    dice.script(6, 6, 6)  # hit, penetrate, Explodes!
    dice.script(3)  # the explosion's reach: 3"
    n = units.disc_within(before, st.hpos[0, h, 0], st.hpos[0, h, 1], st.hrad[0, h], 20, 20, st.urad[0, u], 3.0)
    assert n > 0
    # each hit: wound roll 2+ (a 6), then the zombie's save (Resilience 6+, a 1 fails); no hit reaches the far squad
    for _ in range(n):
        dice.script(6, 1)
    lost = zombies_strike(st, tb, rng, u, 1, 7)
    dice.done()
    assert lost == 3 and st.wounds[0, u, 0] == 0
    assert st.minfo[0, u, 0, C.MI_VSTATUS] & C.VST_EXPLODED and st.pres[0, 0, C.PR_VEHICLES_LOST] == 1
    assert st.hst[0, h, C.HS_Z] == before - n and st.pres[0, 0, C.PR_ZKILLED] == n
    assert units.models_alive(st, 0, far) == 10


def test_master_of_defence_adds_one_to_every_facing_if_the_warlord_repairs_vehicles(dice):
    """§7 trait 1: S7 + 6 = 13 penetrates AV12 but only glances AV13. No catalogued HQ can repair
    vehicles (the Chaos Lord cannot), so the test gives the Warlord the ability by hand."""
    tb, st, rng = game()
    lord = put(st, tb, CHAOS_LORD, 10, 10)
    u = put(st, tb, HELBRUTE, 20, 20)
    units.locate_warlords(st, 0)
    tb.policy[0, C.POL_TRAIT] = C.TRAIT_DEFENCE
    assert vehicles.armour(st, 0, u, vehicles.FRONT, tb) == 12  # he cannot repair: no bonus
    st.minfo[0, lord, 0, C.MI_REPAIRS] = 1
    assert [vehicles.armour(st, 0, u, f, tb) for f in range(3)] == [13, 13, 11]
    dice.script(6, 6)  # a glancing hit: no damage roll
    assert zombies_strike(st, tb, rng, u, 1, 7) == 1
    dice.done()
    st.wounds[0, lord, 0] = 0  # "while this Warlord lives"
    assert vehicles.armour(st, 0, u, vehicles.FRONT, tb) == 12


# ------------------------------------------------------------------ spawners (§10)


def test_a_spawner_aura_takes_a_hull_point_without_a_roll_and_snap_shots_no_fear(dice):
    tb, st, rng = game()
    u = put(st, tb, HELBRUTE, 20, 20)
    st.gst[0, C.G_ACTIVE] = C.SIDE_ZOMBIES
    st.spos[0, 0] = 20 + st.urad[0, u] + 2.5 + 1.0, 20
    st.sst[0, 0, C.SS_ALIVE] = 1
    zombies.spawner_aura(rng, 0, st, tb)  # no dice: no damage roll, no Fear test
    dice.done()
    assert st.wounds[0, u, 0] == 2 and st.ust[0, u, C.US_AURA_WS1] == 0
    st.gst[0, C.G_TURN] = 2  # the players went first: their next Shooting phase is game turn 2's
    assert vehicles.snap_only(st, 0, u)


def test_a_walker_destroyed_by_the_aura_becomes_a_spawner_that_waves_next_zombie_turn(dice):
    tb, st, rng = game()
    u = put(st, tb, HELBRUTE, 20, 20)
    st.wounds[0, u, 0] = 1
    st.gst[0, C.G_ZTURN] = 1
    st.spos[0, 0] = 20 + st.urad[0, u] + 2.5 + 1.0, 20
    st.sst[0, 0, C.SS_ALIVE] = 1
    zombies.spawner_aura(rng, 0, st, tb)
    assert not units.unit_alive(st, 0, u) and st.pres[0, 0, C.PR_WRECK_SPAWNERS] == 1
    assert st.sst[0, 1, C.SS_ALIVE] == 1 and tuple(st.spos[0, 1]) == (20.0, 20.0)
    assert st.sst[0, 1, C.SS_WRECK] == 2  # A14: it waves from the zombie side's next turn
    st.sst[0, 0, C.SS_ALIVE] = 0
    edges = int(tb.prm[C.P_EDGE_DICE])
    dice.script(*([1] * 4 * edges))  # this zombie turn: the four edges only, the wreck does not wave
    zombies.spawn_waves(rng, 0, st, tb)
    dice.done()
    st.gst[0, C.G_ZTURN] = 2
    wave = zombies.wave_dice(2, int(tb.prm[C.P_WAVE_START]))
    dice.script(*([1] * (wave + 4 * edges)))  # the next: its (8 - t)D6 too
    zombies.spawn_waves(rng, 0, st, tb)
    dice.done()


def test_wreck_waves_false_keeps_a_wrecks_spawner_quiet(dice):
    tb, st, rng = game(wreck_waves=False)
    st.spos[0, 1] = 20, 20
    st.sst[0, 1, C.SS_ALIVE], st.sst[0, 1, C.SS_WRECK] = 1, 1
    st.gst[0, C.G_ZTURN] = 3
    dice.script(*([1] * 4 * int(tb.prm[C.P_EDGE_DICE])))
    zombies.spawn_waves(rng, 0, st, tb)
    dice.done()


def test_a_spawner_death_blast_takes_one_hull_point_from_a_vehicle(dice):
    tb, st, rng = game()
    u = put(st, tb, HELBRUTE, 20, 20)
    assert combat.blast_on_unit(rng, 0, st, u, 3, 5, tb) == 1
    dice.done()  # no roll on the damage table
    assert st.wounds[0, u, 0] == 2


# ------------------------------------------------------------------ noise and shooting (§9, V1)


def test_a_walker_moving_more_than_6_inches_makes_2d3_plus_3_noise(dice):
    tb, st, rng = game()
    dice.script(1, 6)  # 2D3: 1 + 3
    total, over6, over12 = noise.movement_noise(rng, 0, C.UT_WALKER, 7.0, 1, False, False, tb)
    dice.done()
    assert (total, over6, over12) == (1 + 3 + 3, True, False)
    dice.script(2, 2, 5)  # 2D3 = 2, then the D3 + 2 past 12"
    total, _, over12 = noise.movement_noise(rng, 0, C.UT_WALKER, 13.0, 1, False, False, tb)
    dice.done()
    assert total == 2 + 3 + 3 + 2 and over12
    assert noise.movement_noise(rng, 0, C.UT_WALKER, 6.0, 1, False, False, tb)[0] == 0


def test_a_walker_fires_every_weapon_and_a_squad_model_one(dice, monkeypatch):
    """V1: a vehicle fires every weapon (the Deff Dread's two big shootas), a squad's model one."""
    tb, st, rng = game(ROOT / "vehicles" / "walkers.toml")
    u = put(st, tb, DEFF_DREAD, 20, 20)
    squad = put(st, tb, BOYZ, 5, 40)
    h = hordes.new_horde(st, 0, 20 + st.urad[0, u] + 8.0, 20, 30, 0, tb)
    fired = []

    def record(rng, g, st, u, m, h, k, shots, snap, *rest):
        fired.append((u, m, k, snap))
        return 0, 0, 0

    monkeypatch.setattr(shooting, "_fire_weapon", record)
    shooting.fire_unit(rng, 0, st, u, h, False, tb, C.PH_SHOOTING)
    guns = {k for k in range(st.gear.shape[3]) if st.gear[0, u, 0, k] >= 0
            and shooting.may_fire(tb.weapons[st.gear[0, u, 0, k]], False, False)}
    assert {k for (_, _, k, _) in fired} == guns and len(guns) >= 2
    assert not any(snap for *_, snap in fired)
    fired.clear()
    st.minfo[0, u, 0, C.MI_SNAP_UNTIL] = 1  # Crew Shaken: every weapon as Snap Shots
    shooting.fire_unit(rng, 0, st, u, h, False, tb, C.PH_SHOOTING)
    assert fired and all(snap for *_, snap in fired)
    fired.clear()
    h2 = hordes.new_horde(st, 0, 5 + st.urad[0, squad] + 8.0, 40, 30, 0, tb)
    shooting.fire_unit(rng, 0, st, squad, h2, False, tb, C.PH_SHOOTING)
    shooters = [m for (_, m, _, _) in fired]
    assert shooters and len(shooters) == len(set(shooters))  # one weapon a model (core §6.1)


def test_no_model_joins_a_walkers_unit():
    tb, st, _ = game()
    lord = put(st, tb, CHAOS_LORD, 10, 10)
    u = put(st, tb, HELBRUTE, 12, 10)
    assert units.move_model(st, 0, lord, 0, u, tb) == -1
    assert st.wounds[0, lord, 0] > 0


# ------------------------------------------------------------------ whole games


@pytest.mark.parametrize("name", ["walkers", "helbrute"])
def test_walkers_play_whole_games_without_breaking_an_invariant(name):
    """Walkers move, shoot, are fought and wrecked in real games (compiled kernels, check mode)."""
    from sim.play import play

    cfg = load_config(ROOT / "vehicles" / f"{name}.toml")
    df = play(cfg, 120, seed=4, batch_size=60, check=True)
    assert df.attrs["violations"] == 0 and len(df) == 120 * cfg.n_players
    assert {"hull_points_lost", "vehicles_lost", "wreck_spawners"} <= set(df.columns)
    assert df.hull_points_lost.sum() > 0 and (df.vehicles_lost <= 2).all()
    assert (df.wreck_spawners <= df.vehicles_lost).all()
    plain = play(load_config(ROOT / "vehicles" / "black_legion.toml"), 4, seed=4)
    assert "hull_points_lost" not in plain.columns  # armies without vehicles keep their frame


def test_a_walker_fights_back_as_a_model_with_its_close_combat_weapons(dice):
    """V7: a Walker fights as a model: the Deff Dread (A3) strikes with a power klaw, +1 Attack for
    its second one (core §7.3), at I1 (the klaw is Unwieldy)."""
    import kernels.apocalypse.assault as assault

    tb, st, _ = game(ROOT / "vehicles" / "walkers.toml")
    u = put(st, tb, DEFF_DREAD, 20, 20)
    w, attacks, init = assault.melee_choice(st, 0, u, 0, tb.zstats[C.ZK_ZOMBIE, T], 6, tb)
    assert tb.weapons[w].tolist() != tb.weapons[tb.ids[0]].tolist()  # not the bare close combat weapon
    assert attacks == st.stats[0, u, 0, A] + 1 == 4 and init == 1


def test_the_vehicle_columns_are_documented():
    from sim.rulesets.apocalypse.results import VEHICLE_COLUMNS

    doc = (ROOT.parents[1] / "docs" / "apocalypse.md").read_text(encoding="utf-8")
    table = doc.split("| vehicle column | type | meaning |", 1)[1].split("\n\n", 1)[0]
    assert [line.split("|")[1].strip() for line in table.strip().splitlines()[1:]] == list(VEHICLE_COLUMNS.values())


@pytest.mark.parametrize("stunned", [False, True])
def test_a_walker_moves_6_inches_through_the_planner_unless_stunned(dice, stunned):
    """V11: a Walker moves as infantry, 6" towards the plan's goal; V5 Crew Stunned: it does not."""
    import kernels.apocalypse.turn as turn
    from kernels.w40k.geometry import norm

    tb, st, rng = game()
    tb.policy[0, C.POL_PLAN] = C.PLAN_RUSH
    u = put(st, tb, HELBRUTE, 6, 6)
    st.minfo[0, u, 0, C.MI_STUN_UNTIL] = 1 if stunned else 0
    turn.movement_phase(rng, 0, st, tb)
    moved = norm(st.upos[0, u, 0] - 6, st.upos[0, u, 1] - 6)
    assert moved == pytest.approx(0.0) if stunned else moved == pytest.approx(6.0)
    assert st.umoved[0, u] == pytest.approx(moved)


@pytest.mark.parametrize("immobilised", [False, True])
def test_the_random_baseline_runs_a_walker_only_if_it_may_move(dice, immobilised):
    """V5: an Immobilised walker does not move, so the random-legal baseline's Shooting phase may
    not draw a Run for it (with no target in range its choices are Run or neither, then only
    neither)."""
    tb, st, rng = game()
    tb.policy[:, C.POL_DECISIONS] = 1  # the random-legal baseline
    u = put(st, tb, HELBRUTE, 6, 6)
    if immobilised:
        st.minfo[0, u, 0, C.MI_VSTATUS] |= C.VST_IMMOBILISED
    # the draw among the legal choices (0.0: the first, Run if allowed), the Run's D6, its drawn course
    dice.script(0.0, 3, *[0.5] * 8)
    shooting._random_shooting(rng, 0, st, u, tb)
    assert bool(st.ust[0, u, C.US_RAN]) is not immobilised
    if immobilised:
        assert st.umoved[0, u] == 0.0
