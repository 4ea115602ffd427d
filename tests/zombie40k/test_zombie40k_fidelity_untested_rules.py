"""Rules that had no test that would fail if they broke (issue 13): the charge bonus, Rage and
defensive grenades, Initiative steps and simultaneous strikes, Counter-attack, Rampage, Regroup,
randomised shooting into a combat, Sweeping Advance against And They Shall Know No Fear, how
long It Will Not Die lasts, and the effects of Banana Peel, the Super Mushroom, Duct Tape and the
Defibrillator (core-7th-edition §7, §9, §12; zombie40k §5.2, §5.4, §8). Scenes set up by hand,
hand-fed dice; ``StrikeRecorder`` stands in for a strike to count the attack dice each model
throws. (Concussive and Blind: test_zombie40k_fidelity_assault / _shooting; the 25% Morale
check: test_zombie40k_fidelity_shooting.)
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from conftest import example_config as listed_config
from conftest import one_game, team_config
from fidelity_helpers import (
    GL,
    L,
    StrikeRecorder,
    clear_table,
    combat_arrays,
    keep_models,
    kill_spec,
    locked_pair,
    put_unit,
    units,
)

import kernels.zombie40k.assault
import kernels.zombie40k.movement
import kernels.zombie40k.powerups
import kernels.zombie40k.shooting
import kernels.zombie40k.turn

assault = kernels.zombie40k.assault
movement = kernels.zombie40k.movement
shooting = kernels.zombie40k.shooting
turn = kernels.zombie40k.turn


def example_config(name: str = "two_players", **params):
    """The example config with each squad's models in the team file's order (policy ``removal =
    1``): these scenes name models by their place in the team file (the sergeant first)."""
    from dataclasses import replace

    config = listed_config(name, **params)
    return replace(config, players=tuple(replace(p, policy=replace(p.policy, removal=1)) for p in config.players))


def _fight(monkeypatch, st, tb, rng, seed, wipe_on=0):
    recorder = StrikeRecorder(wipe_on)
    monkeypatch.setattr(assault, "_strike", recorder)
    assault.fight(st, 0, seed, tb, rng)
    return recorder


def _charged(st, u):
    st.ustate[0, u, GL.US_CHARGED], st.ustate[0, u, GL.US_ROUNDS] = 1, 0


# ------------------------------------------------------------------ core §7.3 the charge, Rage, defensive grenades


def test_core_7_3_a_charge_gives_each_model_plus_1_attack(dice, monkeypatch):
    st, tb, rng = one_game(example_config("two_players"))
    locked_pair(st, tb, 0, 2)
    standing = _fight(monkeypatch, st, tb, rng, 0).dice_of(0)
    _charged(st, 0)
    charging = _fight(monkeypatch, st, tb, rng, 0).dice_of(0)
    dice.done()
    assert len(charging) == units.alive(st, 0, 0) and charging == [d + 1 for d in standing]


def test_core_12_rage_gives_plus_2_attacks_on_the_charge(dice, monkeypatch):
    st, tb, rng = one_game(example_config("two_players"))
    locked_pair(st, tb, 0, 2)
    standing = _fight(monkeypatch, st, tb, rng, 0).dice_of(0)
    st.mflags[0, 0, 1] |= L.MR_RAGE
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    _charged(st, 0)
    charging = _fight(monkeypatch, st, tb, rng, 0).dice_of(0)
    assert charging[1] == standing[1] + 2 and charging[2] == standing[2] + 1


def test_core_8_chargers_of_a_unit_with_defensive_grenades_get_no_bonus_attack(dice, monkeypatch):
    """The Tau's photon grenades are defensive grenades: the Guard charging them get no +1."""
    st, tb, rng = one_game(team_config("guard", "tau"))
    locked_pair(st, tb, 0, 1)
    standing = _fight(monkeypatch, st, tb, rng, 0).dice_of(0)
    _charged(st, 0)
    assert _fight(monkeypatch, st, tb, rng, 0).dice_of(0) == standing


# ------------------------------------------------------------------ core §7.3 Initiative steps


def test_core_7_3_initiative_steps_from_10_down_to_1(dice, monkeypatch):
    """The Boss (I5) strikes before the Guard (I3), the Guard before the zombies (I1)."""
    st, tb, rng = one_game(example_config("two_players"))
    boss = units.boss_unit(st)
    locked_pair(st, tb, 0, 2, keep=(boss,))
    put_unit(st, tb, boss, 24.0 - st.radius[0, 0] - st.radius[0, boss], 30.0)
    units.lock(st, 0, 0, boss)
    order = [u for u, _, _ in _fight(monkeypatch, st, tb, rng, 0).calls]
    assert order == sorted(order, key=lambda u: {boss: 0, 0: 1, 2: 2}[u]) and {0, 2, boss} == set(order)


def test_core_7_3_models_killed_before_their_step_never_strike(dice, monkeypatch):
    st, tb, rng = one_game(example_config("two_players", powerups_enabled=False))
    locked_pair(st, tb, 0, 2)
    recorder = _fight(monkeypatch, st, tb, rng, 0, wipe_on=1)  # the Guard's first blow wipes the horde
    assert recorder.dice_of(2) == [] and not units.on_table(st, 0, 2)


def test_core_7_3_models_of_one_initiative_step_strike_simultaneously(dice, monkeypatch):
    """Guard made I1: they and the zombies strike at the same step; the horde the Guard's first
    blow wipes out still strikes."""
    st, tb, rng = one_game(example_config("two_players", powerups_enabled=False))
    locked_pair(st, tb, 0, 2)
    st.stats[0, 0, :, L.I] = 1
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    recorder = _fight(monkeypatch, st, tb, rng, 0, wipe_on=1)
    assert not units.on_table(st, 0, 2) and len(recorder.dice_of(2)) == 5


# ------------------------------------------------------------------ core §12 Counter-attack


def _shambled_into_marines(st, tb, rounds=0):
    locked_pair(st, tb, 1, 2)  # the Marines carry Counter-Attack (their USR)
    _charged(st, 2)
    st.ustate[0, 1, GL.US_ROUNDS] = rounds


def test_core_12_counter_attack_plus_1_attack_when_charged(dice, monkeypatch):
    st, tb, rng = one_game(example_config("two_players"))
    _shambled_into_marines(st, tb)
    with_rule = _fight(monkeypatch, st, tb, rng, 1).dice_of(1)
    st.mflags[0, 1, :] &= ~L.MR_COUNTER_ATTACK
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    without = _fight(monkeypatch, st, tb, rng, 1).dice_of(1)
    assert with_rule == [d + 1 for d in without]


def test_core_12_no_counter_attack_for_a_unit_already_locked(dice, monkeypatch):
    st, tb, rng = one_game(example_config("two_players"))
    _shambled_into_marines(st, tb, rounds=1)
    with_rule = _fight(monkeypatch, st, tb, rng, 1).dice_of(1)
    st.mflags[0, 1, :] &= ~L.MR_COUNTER_ATTACK
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    assert _fight(monkeypatch, st, tb, rng, 1).dice_of(1) == with_rule


# ------------------------------------------------------------------ core §12 Rampage


def test_core_12_rampage_d3_attacks_when_outnumbered(dice, monkeypatch):
    """Rampage: at the start of the fight, if the combat holds more enemy than friendly models,
    the model gets +D3 Attacks (one roll for the unit)."""
    st, tb, rng = one_game(example_config("two_players"))
    locked_pair(st, tb, 0, 2)
    keep_models(st, tb, 0, 3)  # 3 Guardsmen against 5 zombies
    standing = _fight(monkeypatch, st, tb, rng, 0).dice_of(0)
    st.mflags[0, 0, 1] |= L.MR_RAMPAGE
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    dice.script(5)  # D3 = 3
    rampaging = _fight(monkeypatch, st, tb, rng, 0).dice_of(0)
    dice.done()
    assert rampaging == [standing[0], standing[1] + 3, standing[2]]


def test_core_12_no_rampage_when_not_outnumbered(dice, monkeypatch):
    st, tb, rng = one_game(example_config("two_players"))
    locked_pair(st, tb, 0, 2)  # 11 Guardsmen against 5 zombies
    standing = _fight(monkeypatch, st, tb, rng, 0).dice_of(0)
    st.mflags[0, 0, 1] |= L.MR_RAMPAGE
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    assert _fight(monkeypatch, st, tb, rng, 0).dice_of(0) == standing
    dice.done()  # no D3


# ------------------------------------------------------------------ zombie40k §5.2, core §9.2 Regroup


def test_s5_2_regroup_at_full_leadership_even_below_25_percent(dice):
    """Every unit regroups against its full Leadership, even below 25% of its models (the
    7th-edition double-1 restriction is removed)."""
    st, tb, rng = one_game(example_config("two_players"))
    clear_table(st, keep=(0,))
    keep_models(st, tb, 0, 1)  # 1 of 11 left
    put_unit(st, tb, 0, 24.0, 20.0)
    st.ustate[0, 0, GL.US_FALLING_BACK] = 1
    dice.script(4, 4)  # 8 <= Ld 8: regroups
    movement.squad_movement(st, 0, 0, tb, rng)
    dice.done()
    assert st.ustate[0, 0, GL.US_FALLING_BACK] == 0


def test_core_9_2_and_they_shall_know_no_fear_regroups_and_acts_normally(dice):
    """ATSKNF: always regroups, with no 3" move and no restriction: a full move, and it may Run."""
    st, tb, rng = one_game(example_config("two_players"))
    clear_table(st, keep=(1,))
    put_unit(st, tb, 1, 24.0, 20.0)
    st.ustate[0, 1, GL.US_FALLING_BACK] = 1
    y = st.pos[0, 1, 1]
    movement.squad_movement(st, 0, 1, tb, rng)
    dice.done()  # no Regroup roll
    assert st.ustate[0, 1, GL.US_FALLING_BACK] == 0 and st.pos[0, 1, 1] == pytest.approx(y + 6.0)
    assert movement.may_run(st, 0, 1)


# ------------------------------------------------------------------ zombie40k §5.4 randomised shooting into a combat


def test_s5_4_a_hit_into_a_combat_goes_to_a_random_model_of_the_whole_combat(dice):
    """Each hit picks a model of the combat at random: its unit in proportion to its living
    models, every unit of the connected combat counted (4 Marines, 5 zombies, 3 more zombies
    fighting the Marines)."""
    st, tb, rng = one_game(example_config("two_players"))
    locked_pair(st, tb, 1, 2, keep=(3,))
    keep_models(st, tb, 3, 3)
    put_unit(st, tb, 3, 10.0, 30.0)
    units.lock(st, 0, 1, 3)
    assert shooting._combat_models(st, 0, 2) == 4 + 5 + 3
    picks = []
    for u in (3.99, 4.01, 8.99, 9.01):
        dice.script(u / 12)
        picks.append(shooting._random_combat_unit(st, 0, rng))
    dice.done()
    assert picks == [1, 2, 2, 3]


# ------------------------------------------------------------------ core §12 ATSKNF and the Sweeping Advance


def test_core_12_atsknf_caught_by_a_sweeping_advance_stays_locked(dice):
    """And They Shall Know No Fear: a unit caught by a Sweeping Advance is not destroyed; it
    stays locked in combat."""
    st, tb, rng = one_game(example_config("two_players"))
    locked_pair(st, tb, 1, 2)
    member, inflicted, suffered = combat_arrays(st, 1, 2)
    suffered[1] = 2
    marines = units.alive(st, 0, 1)
    dice.script(6, 6,  # Morale failed
                1, 6)  # caught: zombies 6 + 1 >= Marines 1 + 4
    assault.resolve_combat(st, 0, member, inflicted, suffered, tb, rng)
    dice.done()
    assert units.alive(st, 0, 1) == marines and st.locked[0, 1, 2] == 1
    assert st.ustate[0, 1, GL.US_FALLING_BACK] == 0


# ------------------------------------------------------------------ core §12 It Will Not Die


def _patriarch(dice):
    config = replace(example_config("two_players"), mods=frozenset({"boss_variant"}))
    st, tb, rng = one_game(config)
    boss = units.boss_unit(st)
    assert st.mflags[0, boss, 0] & L.MR_IT_WILL_NOT_DIE
    clear_table(st, keep=(2, 3, 4, 5, boss))  # no squad: a quiet Zombie Turn
    st.wounds[0, boss, 0] = st.stats[0, boss, 0, L.W] - 2
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    return st, tb, rng, boss


@pytest.mark.parametrize(("die", "regained"), [(5, 1), (4, 0)])
def test_core_12_it_will_not_die_at_the_end_of_each_of_its_turns_a_5_plus_regains_a_wound(dice, die, regained):
    st, tb, rng, boss = _patriarch(dice)
    w = st.wounds[0, boss, 0]
    dice.script(1, 1,  # the Shamble roll
                die)  # It Will Not Die
    turn.zombie_turn(st, 0, tb, rng, False)
    dice.done()
    assert st.wounds[0, boss, 0] == w + regained


def test_core_12_it_will_not_die_not_at_the_end_of_another_s_turn(dice):
    st, tb, rng, boss = _patriarch(dice)
    put_unit(st, tb, 0, 10.0, 10.0)
    st.wounds[0, 0] = tb.squad_wounds[0]
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    turn._end_player_turn(st, 0, 0, rng)
    dice.done()  # no roll for the Boss


# ------------------------------------------------------------------ zombie40k §8 the power-ups' effects


def test_s8_banana_peel_moves_as_through_difficult_terrain(dice):
    """Banana Peel: in the next turn the squad moves as through difficult terrain (2D6, the
    highest) and charges 2" shorter (A30)."""
    st, tb, rng = one_game(example_config("two_players"))
    clear_table(st, keep=(1, 2))
    put_unit(st, tb, 1, 24.0, 20.0)
    put_unit(st, tb, 2, 40.0, 20.0)
    st.pu[0, 1, GL.PU_BANANA] = st.res[0, GL.R_TURNS]
    y = st.pos[0, 1, 1]
    dice.script(2, 5)
    movement.squad_movement(st, 0, 1, tb, rng)
    assert st.pos[0, 1, 1] == pytest.approx(y + 5.0)
    put_unit(st, tb, 2, 24.0, st.pos[0, 1, 1] + st.radius[0, 1] + st.radius[0, 2] + 5.0)
    dice.script(3, 3)  # 6", less 2": short of 5"
    assert not assault.make_charge(st, 0, 1, 2, tb, rng)
    dice.done()


def test_s8_super_mushroom_plus_3_inches_to_moves_runs_and_charges_and_plus_1_initiative(dice):
    st, tb, rng = one_game(example_config("two_players"))
    clear_table(st, keep=(1, 2))
    put_unit(st, tb, 1, 24.0, 20.0)
    put_unit(st, tb, 2, 44.0, 60.0)
    st.pu[0, 1, GL.PU_MUSHROOM_ON] = st.res[0, GL.R_TURNS]
    y = st.pos[0, 1, 1]
    movement.squad_movement(st, 0, 1, tb, rng)
    assert st.pos[0, 1, 1] == pytest.approx(y + 9.0)
    dice.script(2)  # Run D6 = 2, +3"
    assert movement.run_distance(st, 0, 1, tb, rng) == 5.0
    put_unit(st, tb, 2, 24.0, st.pos[0, 1, 1] + st.radius[0, 1] + st.radius[0, 2] + 8.0)
    dice.script(2, 3)  # 5" + 3" reaches 8"
    assert assault.make_charge(st, 0, 1, 2, tb, rng)
    dice.done()
    st.w_choice[1, 1] = -1
    assert assault._model_step(st, 0, 1, 1, tb, st.w_choice) == st.stats[0, 1, 1, L.I] + 1


def test_s8_duct_tape_plus_1_attack(dice, monkeypatch):
    st, tb, rng = one_game(example_config("two_players"))
    locked_pair(st, tb, 0, 2)
    standing = _fight(monkeypatch, st, tb, rng, 0).dice_of(0)
    st.mpow[0, 0, 3] |= GL.MP_DUCT_ATTACK
    taped = _fight(monkeypatch, st, tb, rng, 0).dice_of(0)
    assert taped[3] == standing[3] + 1 and taped[:3] == standing[:3]


def test_s8_duct_tape_plus_1_shot(dice):
    """Duct Tape "+1 shot": one more shot of the model's weapon (a lasgun at long range: 2)."""
    st, tb, rng = one_game(example_config("two_players"))
    clear_table(st, keep=(0, 2))
    put_unit(st, tb, 0, 24.0, 20.0)
    put_unit(st, tb, 2, 24.0, 20.0 + st.radius[0, 0] + st.radius[0, 2] + 20.0)
    spec = np.zeros_like(st.w_spec[0])
    plain = shooting.best_weapon(st, 0, 0, 3, 2, tb, spec, False)
    st.mpow[0, 0, 3] |= GL.MP_DUCT_SHOT
    taped = shooting.best_weapon(st, 0, 0, 3, 2, tb, spec, False)
    assert plain[1] == 1 and taped[1] == 2 and taped[0] == plain[0]


def test_s8_a_defibrillator_kept_as_a_medpack_ignores_a_wound(dice):
    """The Defibrillator counts as a Medpack (policy ``defibrillator = 1``): it cancels the wound
    that would remove a model."""
    config = team_config("guard", "marines", policies=[{"defibrillator": 1}, "advance"])
    st, tb, rng = one_game(config)
    kernels.zombie40k.powerups.apply_powerup(st, 0, 0, GL.DEFIB, tb)
    assert st.pu[0, 0, GL.PU_MEDPACKS] == 1 and st.pu[0, 0, GL.PU_DEFIBS] == 0
    locked_pair(st, tb, 0, 2)
    before = units.alive(st, 0, 0)
    n = st.pos.shape[1]
    out = np.zeros_like(st.w_out[0])
    assault._strike(st, 0, 2, 0, 1, kill_spec(), np.zeros(n, np.int64), np.zeros(n, np.int64), tb, rng, out)
    dice.done()
    assert units.alive(st, 0, 0) == before and st.pu[0, 0, GL.PU_MEDPACKS] == 0


def test_s8_a_defibrillator_revives_a_dead_model_at_the_start_of_the_turn(dice):
    st, tb, rng = one_game(team_config("guard", "marines", policies=[{"run": 0}, {"run": 0}]))
    clear_table(st, keep=(0,))
    put_unit(st, tb, 0, 24.0, 20.0)
    st.wounds[0, 0, 4] = 0
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    units.refresh_radius(st, 0, 0, tb)
    st.pu[0, 0, GL.PU_DEFIBS] = 1
    turn.player_turn(st, 0, 0, tb, rng, False)
    dice.done()
    assert st.wounds[0, 0, 4] == 1 and units.alive(st, 0, 0) == 11
