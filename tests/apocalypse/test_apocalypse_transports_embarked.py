"""Passengers of a Dedicated Transport (issue 32 part 2, step 2 item 2; docs/apocalypse.md "Dedicated
Transports in play"): the squad bought with a transport deploys inside it; aboard it is not on the
table (no target, no charge, no aura, no escort) and every model fires from the hull when the
transport has a fire point (§8); it gets out within 3" of the hull when the transport ends its move
within ``disembark_in`` of the squad's goal (V11, a policy), and may not move further that turn;
the passengers of a wreck get out, and of an explosion first take a Strength 4 hit each (V10).
Hand-fed dice (the ``dice`` fixture): every kernel runs as plain Python."""

from __future__ import annotations

import math

import numpy as np
import pytest
from apocalypse_helpers import RHINO_UNITS, rhino_config_file, rhino_with_squad, told, vehicle_game

import kernels.apocalypse.combat as combat
import kernels.apocalypse.geometry as geometry
import kernels.apocalypse.setup as setup
import kernels.apocalypse.shooting as shooting
import kernels.apocalypse.turn as turn
import kernels.apocalypse.units as units
import kernels.apocalypse.zombies as zombies
from kernels.apocalypse import columns as C
from kernels.apocalypse.state import N_OUT_A
from sim.rulesets.apocalypse.config import ConfigError, Policy, load_config

CAPTAIN, TACTICAL, RHINO, DEVASTATORS = RHINO_UNITS


@pytest.fixture
def rhino_config(tmp_path):
    return rhino_config_file(tmp_path)


aboard = rhino_with_squad


def zombies_strike(st, tb, rng, u, n_dice, strength):
    kind = C.ZK_ZOMBIE
    return combat.zombie_attacks(rng, 0, st, u, n_dice, tb.zstats[kind], tb.zflags[kind], tb.weapons[tb.ids[0]],
                                 strength, True, False, False, False, tb, np.zeros(N_OUT_A, np.int64))


# ------------------------------------------------------------------ deployment


def test_the_squad_bought_with_a_transport_deploys_inside_it(nojit, rhino_config):
    """As plain Python (``nojit``: the same code and results, and no compiled twins of ``deploy_player``
    and ``escort_and_bodyguard`` called from Python with the tuples, a minute on a cold cache)."""
    tb, st, _ = vehicle_game(rhino_config)
    assert list(tb.ut_carrier) == [-1, RHINO, -1, -1]
    setup.deploy_player(st, 0, 0, tb)
    setup.escort_and_bodyguard(st, 0, 0, tb)
    assert st.ust[0, TACTICAL, C.US_EMBARKED] == RHINO + 1
    assert tuple(st.upos[0, TACTICAL]) == tuple(st.upos[0, RHINO]) and st.urad[0, TACTICAL] == st.urad[0, RHINO]
    assert not units.unit_alive(st, 0, TACTICAL) and units.unit_exists(st, 0, TACTICAL)
    assert st.pres[0, 0, C.PR_MODELS_START] == 1 + 10 + 1 + 7  # the passengers count among the models
    assert st.ust[0, TACTICAL, C.US_ESCORT] == 0 and st.ust[0, DEVASTATORS, C.US_ESCORT] == 1  # aboard: no escort


def test_the_disembark_policy_compiles_and_refuses_bad_values(rhino_config):
    tb, _, _ = vehicle_game(rhino_config)
    assert tb.policy[0, C.POL_DISEMBARK] == load_config(rhino_config).players[0].policy.disembark_in
    with pytest.raises(ConfigError, match="disembark_in = -1; allowed: 0-100 inches"):
        Policy(disembark_in=-1)


# ------------------------------------------------------------------ not on the table


def test_zombies_neither_target_nor_charge_a_squad_aboard(rhino_config):
    """The horde's closest unit is the Rhino, never the (bigger) squad inside it, even at the same spot."""
    tb, st, _ = vehicle_game(rhino_config)
    v, u = aboard(st, tb, 20, 20)
    h = zombies.new_horde(st, 0, 20 + st.urad[0, v] + 4.0, 20, 12, 0, tb)
    assert zombies.closest_unit(st, 0, h) == v


def test_a_spawners_aura_does_not_reach_a_squad_aboard(dice, rhino_config):
    """§10: the aura takes a Hull Point from the Rhino within 6"; the passengers lose nothing."""
    tb, st, rng = vehicle_game(rhino_config)
    v, u = aboard(st, tb, 20, 20)
    st.spos[0, 0] = 20 + st.urad[0, v] + 2.0, 20
    st.sst[0, 0, C.SS_ALIVE] = 1
    zombies.spawner_aura(rng, 0, st, tb)
    dice.done()  # no Fear test: nobody on the table took a wound
    assert st.wounds[0, v, 0] == 2
    assert (st.wounds[0, u, :10] == 1).all() and st.ust[0, u, C.US_EMBARKED] == v + 1


# ------------------------------------------------------------------ firing from the hull (§8)


def _record_fire(monkeypatch):
    fired = []

    def record(rng, g, st, u, h, overwatch, tb, phase):
        fired.append(u)
        return 0, 0

    monkeypatch.setattr(shooting, "fire_unit", record)
    return fired


def test_passengers_fire_from_the_hull_if_it_has_a_fire_point(dice, monkeypatch, rhino_config):
    """§8: every embarked model may fire (the range measured from the Rhino: its disc is the squad's);
    with no fire point, none."""
    tb, st, rng = vehicle_game(rhino_config)
    v, u = aboard(st, tb, 20, 20)
    tb.policy[0, C.POL_SHOOT] = 2  # always shoot
    h = zombies.new_horde(st, 0, 20 + st.urad[0, v] + 20.0, 20, 12, 0, tb)
    assert units.unit_gap_horde(st, 0, u, h) == pytest.approx(units.unit_gap_horde(st, 0, v, h))
    assert tb.ut_info[RHINO, 0, C.MI_FIRE_POINTS] == 2
    fired = _record_fire(monkeypatch)
    shooting.shooting_phase(rng, 0, st, tb)
    assert u in fired and v in fired
    st.minfo[0, v, 0, C.MI_FIRE_POINTS] = 0
    fired.clear()
    shooting.shooting_phase(rng, 0, st, tb)
    assert u not in fired and v in fired


def test_passengers_neither_run_nor_throw_grenades(nojit, rhino_config):
    """As plain Python (no compiled twin of ``run_decision``)."""
    tb, st, _ = vehicle_game(rhino_config)
    v, u = aboard(st, tb, 5, 5)
    tb.policy[0, C.POL_PLAN] = C.PLAN_RUSH
    tb.policy[0, C.POL_ESCORT] = 0
    tb.policy[0, C.POL_RUN] = 2
    tb.policy[0, C.POL_GRENADE] = 2
    assert not shooting.run_decision(st, 0, u, tb)
    h = zombies.new_horde(st, 0, 5 + st.urad[0, v] + 4.0, 5, 12, 0, tb)
    assert shooting.choose_thrower(st, 0, u, h, 4.0, True, tb)[0] == -1
    st.ust[0, u, C.US_EMBARKED] = 0
    assert shooting.run_decision(st, 0, u, tb)


# ------------------------------------------------------------------ driving and getting out (V11)


def test_the_transport_drives_its_squad_and_it_gets_out_near_its_goal(dice, rhino_config):
    """The Rhino drives 12" towards the squad's goal (the zone, rush plan); ending within disembark_in
    (here 6") of the zone, the squad gets out beside it on the zone's side, within 3" of the hull, and
    may not move further (no Run, no charge)."""
    tb, st, rng = vehicle_game(rhino_config)
    tb.policy[0, C.POL_PLAN] = C.PLAN_RUSH
    tb.policy[0, C.POL_ESCORT] = 0
    tb.policy[0, C.POL_DISEMBARK] = 6.0
    c = 0.5 * tb.prm[C.P_TABLE]
    far = c - tb.prm[C.P_ZONE_R] - 30.0  # 30" from the zone's edge: one move leaves it 18" away
    v, u = aboard(st, tb, far, c)
    dice.script(*([3] * 40))
    turn.movement_phase(rng, 0, st, tb)
    assert math.hypot(st.upos[0, v, 0] - far, st.upos[0, v, 1] - c) == pytest.approx(12.0)
    assert st.ust[0, u, C.US_EMBARKED] == v + 1 and tuple(st.upos[0, u]) == tuple(st.upos[0, v])
    assert st.ust[0, u, C.US_MOVED] == 1  # it moved with the Rhino (heavy weapons: Snap Shots)
    turn.start_turn(st, 0)
    turn.movement_phase(rng, 0, st, tb)  # 18" -> 6": within disembark_in
    assert geometry.zone_distance(st.upos[0, v, 0], st.upos[0, v, 1], tb.prm) == pytest.approx(6.0)
    assert st.ust[0, u, C.US_EMBARKED] == 0 and units.unit_alive(st, 0, u)
    assert st.upos[0, u, 0] > st.upos[0, v, 0]  # on the zone's side of the hull
    ru, rv = st.urad[0, u], st.urad[0, v]
    g = geometry.gap(st.upos[0, u, 0], st.upos[0, u, 1], ru, st.upos[0, v, 0], st.upos[0, v, 1], rv)
    assert g == pytest.approx(max(0.0, units.DISEMBARK_IN - 2 * ru))  # its far side within 3", or edge to edge
    tb.policy[0, C.POL_RUN] = 2
    assert not shooting.run_decision(st, 0, u, tb) and st.ust[0, u, C.US_NO_CHARGE] == 1
    turn.start_turn(st, 0)
    assert shooting.run_decision(st, 0, u, tb)  # the next turn it moves as any unit


def test_by_default_a_squad_rides_into_the_zone(dice, rhino_config):
    """The presets' disembark_in (measured best against 3", 6" and 12", docs/apocalypse.md): a transport
    that ends its move 3" short of the zone keeps its squad; once on the zone, the squad gets out."""
    tb, st, rng = vehicle_game(rhino_config)
    default = load_config(rhino_config).players[0].policy.disembark_in
    assert tb.policy[0, C.POL_DISEMBARK] == default
    tb.policy[0, C.POL_PLAN] = C.PLAN_RUSH
    tb.policy[0, C.POL_ESCORT] = 0
    c = 0.5 * tb.prm[C.P_TABLE]
    v, u = aboard(st, tb, c - tb.prm[C.P_ZONE_R] - 15.0, c)
    dice.script(*([3] * 40))
    turn.movement_phase(rng, 0, st, tb)  # 12" of 15": it ends 3" short of the zone
    assert geometry.zone_distance(st.upos[0, v, 0], st.upos[0, v, 1], tb.prm) == pytest.approx(3.0)
    assert st.ust[0, u, C.US_EMBARKED] == v + 1
    turn.start_turn(st, 0)
    turn.movement_phase(rng, 0, st, tb)
    assert st.ust[0, u, C.US_EMBARKED] == 0
    assert geometry.zone_distance(st.upos[0, u, 0], st.upos[0, u, 1], tb.prm) == 0.0  # it stands on the zone


def test_a_squad_stays_aboard_beyond_disembark_in(dice, rhino_config):
    tb, st, rng = vehicle_game(rhino_config)
    tb.policy[0, C.POL_PLAN] = C.PLAN_RUSH
    tb.policy[0, C.POL_ESCORT] = 0
    tb.policy[0, C.POL_DISEMBARK] = 5.0
    c = 0.5 * tb.prm[C.P_TABLE]
    v, u = aboard(st, tb, c - tb.prm[C.P_ZONE_R] - 18.0, c)
    dice.script(*([3] * 40))
    turn.movement_phase(rng, 0, st, tb)  # ends 6" from the zone: more than 5"
    assert st.ust[0, u, C.US_EMBARKED] == v + 1


def test_an_immobilised_transport_lets_its_squad_out(dice, rhino_config):
    tb, st, rng = vehicle_game(rhino_config)
    v, u = aboard(st, tb, 10, 10)
    st.minfo[0, v, 0, C.MI_VSTATUS] |= C.VST_IMMOBILISED
    dice.script(*([3] * 40))
    turn.movement_phase(rng, 0, st, tb)
    assert st.ust[0, u, C.US_EMBARKED] == 0 and tuple(st.upos[0, v]) == (10.0, 10.0)


# ------------------------------------------------------------------ a wreck's passengers (V10, V11)


def test_the_passengers_of_a_wreck_get_out_towards_the_zone(dice, rhino_config):
    """Three glancing hits on the rear (S4 + 6 = 10) wreck the Rhino: the squad gets out unhurt."""
    tb, st, rng = vehicle_game(rhino_config)
    v, u = aboard(st, tb, 10, 10)
    dice.script(6, 6, 6)
    assert zombies_strike(st, tb, rng, v, 3, 4) == 3
    dice.done()
    assert st.wounds[0, v, 0] == 0 and st.ust[0, u, C.US_EMBARKED] == 0 and units.unit_alive(st, 0, u)
    assert (st.wounds[0, u, :10] == 1).all()
    assert st.upos[0, u, 0] > 10 and st.upos[0, u, 1] > 10  # the zone's side (the table's centre)


def test_the_passengers_of_an_explosion_take_a_strength_4_hit_each(dice, rhino_config):
    """Explodes! (V5 7+; V10): the blast's D6" around the wreck, then one S4 AP - hit per passenger:
    S4 against T4 wounds on 4+, a marine saves on 3+."""
    tb, st, rng = vehicle_game(rhino_config)
    v, u = aboard(st, tb, 10, 10)
    st.minfo[0, v, 0, C.MI_VSTATUS] |= C.VST_EXPLODED
    st.wounds[0, v, 0] = 0
    dice.script(*([4, 1] * 3 + [3] * 7))  # 3 wound and fail their save; 7 are not wounded
    assert combat.release_passengers(rng, 0, st, v, tb) == u
    dice.done()
    assert units.models_alive(st, 0, u) == 7 and st.ust[0, u, C.US_EMBARKED] == 0


# ------------------------------------------------------------------ whole games


@pytest.mark.slow
def test_passengers_ride_in_whole_games_without_breaking_an_invariant(rhino_config):
    """Compiled kernels, check mode: every invariant holds (a squad aboard stands on its living
    transport and is locked with nothing). That squads get out in real games is checked on a traced
    game of the Rhino example (test_apocalypse_transports_example)."""
    from sim.play import play

    cfg = load_config(rhino_config)
    df = play(cfg, 120, seed=4, batch_size=60, check=True)
    assert df.attrs["violations"] == 0 and len(df) == 120


def test_a_transport_the_aura_wrecks_lets_its_squad_out(dice, rhino_config):
    """§10: the aura takes the Rhino's last Hull Point and a spawner takes its place; the squad gets out."""
    tb, st, rng = vehicle_game(rhino_config)
    v, u = aboard(st, tb, 20, 20)
    st.wounds[0, v, 0] = 1
    st.spos[0, 0] = 20 + st.urad[0, v] + 2.0, 20
    st.sst[0, 0, C.SS_ALIVE] = 1
    zombies.spawner_aura(rng, 0, st, tb)
    assert st.wounds[0, v, 0] == 0 and st.ust[0, u, C.US_EMBARKED] == 0 and units.unit_alive(st, 0, u)


def test_a_spawners_blast_that_wrecks_a_transport_lets_its_squad_out(dice, rhino_config):
    tb, st, rng = vehicle_game(rhino_config)
    v, u = aboard(st, tb, 20, 20)
    st.wounds[0, v, 0] = 1
    assert combat.blast_on_unit(rng, 0, st, v, 1, 4, tb) == 1
    assert st.ust[0, u, C.US_EMBARKED] == 0 and (st.wounds[0, u, :10] == 1).all()


def test_the_trace_tells_who_gets_out_of_which_transport(rhino_config):
    names, text = told(rhino_config, C.EK_DISEMBARK, TACTICAL, RHINO, 10, 12.0, 13.5)
    assert text == f"{names.unit(TACTICAL)} (10 models) gets out of {names.unit(RHINO)} at (12.0, 13.5)"

