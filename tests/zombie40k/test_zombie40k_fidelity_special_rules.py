"""The special rules the catalogue's units carry that the kernels once classed effective and did
nothing with (issue 13 item 13): Mob Rule, Battle Focus, Combat Drugs, Power from Pain,
Mandiblasters, Veterans of the Long War (core-7th-edition §12, catalogue §2), on a table set up
by hand with hand-fed dice. Each test is named after the rule it states.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import one_game, team_config
from fidelity_helpers import GL, L, StrikeRecorder, clear_table, combat_arrays, locked_pair, put_unit, units

import kernels.zombie40k.assault
import kernels.zombie40k.morale
import kernels.zombie40k.spawning
import kernels.zombie40k.turn
from sim.w40k import tables
from sim.w40k.profiles import Profile

assault = kernels.zombie40k.assault
morale = kernels.zombie40k.morale
spawning = kernels.zombie40k.spawning
turn = kernels.zombie40k.turn


# ------------------------------------------------------------------ Mob Rule


def _boyz_lose_a_combat(dice):
    st, tb, rng = one_game(team_config("boyz", "guard"))
    locked_pair(st, tb, 0, 2)
    member, inflicted, suffered = combat_arrays(st, 0, 2)
    suffered[0], inflicted[2] = 2, 2
    return st, tb, rng, member, inflicted, suffered


def test_core_12_mob_rule_a_failed_morale_check_costs_d6_s4_hits_and_passes(dice):
    """Mob Rule (every model has it): a failed Morale check rolls a D6; on 2-6 the unit suffers
    D6 S4 AP- hits and the check passes: the Boyz stay in the fight."""
    st, tb, rng, member, inflicted, suffered = _boyz_lose_a_combat(dice)
    boyz = units.alive(st, 0, 0)
    dice.script(6, 6,  # Morale at Ld 7 - 2: failed
                3,  # Mob Rule: 2-6
                2,  # D6 hits: 2
                4, 1,  # the first: wounds T4 on 4+, the 6+ save fails
                1)  # the second does not wound
    assault.resolve_combat(st, 0, member, inflicted, suffered, tb, rng)
    dice.done()
    assert units.alive(st, 0, 0) == boyz - 1
    assert st.locked[0, 0, 2] == 1 and st.ustate[0, 0, GL.US_FALLING_BACK] == 0


def test_core_12_mob_rule_a_1_passes_only_a_unit_locked_in_combat(dice):
    st, tb, rng, member, inflicted, suffered = _boyz_lose_a_combat(dice)
    dice.script(6, 6, 1)  # failed; Mob Rule 1: locked in combat, so it passes
    assault.resolve_combat(st, 0, member, inflicted, suffered, tb, rng)
    dice.done()
    assert st.locked[0, 0, 2] == 1 and st.ustate[0, 0, GL.US_FALLING_BACK] == 0
    clear_table(st, keep=(0,))  # shot at in the open: a 1 lets the failure stand
    put_unit(st, tb, 0, 24.0, 30.0)
    before = units.alive(st, 0, 0)
    st.wounds[0, 0, :3] = 0
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    units.refresh_radius(st, 0, 0, tb)
    dice.script(6, 6, 1, 2, 3)  # Morale failed; Mob Rule 1; fall back 5"
    morale.leadership_after_shooting(st, 0, 0, before, False, tb, rng)
    dice.done()
    assert st.ustate[0, 0, GL.US_FALLING_BACK] == 1


def test_core_12_mob_rule_needs_every_model(dice):
    """A Guardsman squad is not a mob: its failed check stands (Ork Boy power-up: only if every
    model has the rule, zombie40k §8 result 4)."""
    st, tb, rng = one_game(team_config("guard", "boyz"))
    locked_pair(st, tb, 0, 2)
    member, inflicted, suffered = combat_arrays(st, 0, 2)
    suffered[0], inflicted[2] = 2, 2
    dice.script(6, 6,  # failed
                6, 1,  # escapes the Sweeping Advance
                2, 2)  # falls back 4"
    assault.resolve_combat(st, 0, member, inflicted, suffered, tb, rng)
    dice.done()
    assert st.ustate[0, 0, GL.US_FALLING_BACK] == 1


# ------------------------------------------------------------------ Battle Focus


class _Shots:
    def __init__(self):
        self.calls = []

    def __call__(self, st, g, u, v, tb, rng, snap_all, overwatch, skip):
        self.calls.append((int(u), int(v)))
        return 1, 0, False


@pytest.mark.parametrize("policy", ["dash", "advance"])
def test_core_12_battle_focus_shoots_then_runs(dice, monkeypatch, policy):
    """Battle Focus: the unit may shoot and Run in the same Shooting phase. The Eldar dash (or
    advance) policy shoots at the horde in range, then Runs towards the EV."""
    st, tb, rng = one_game(team_config("eldar", "guard", policies=[policy, "advance"]))
    clear_table(st, keep=(0, 2))
    put_unit(st, tb, 0, 24.0, 20.0)
    put_unit(st, tb, 2, 36.0, 20.0)  # in range, beside the road to the EV
    shots = _Shots()
    monkeypatch.setattr(turn, "shoot", shots)
    y = st.pos[0, 0, 1]
    dice.script(5)  # the Run: 5" (Fleet re-rolls only 1-3)
    turn.shooting_phase(st, 0, 0, tb, rng)
    dice.done()
    assert shots.calls == [(0, 2)]
    assert st.ustate[0, 0, GL.US_RAN] == 1 and st.pos[0, 0, 1] > y + 4.0


# ------------------------------------------------------------------ Combat Drugs


@pytest.mark.parametrize(("roll", "column"), [(1, L.A), (2, L.S), (3, L.I), (4, L.T), (5, L.WS), (6, L.LD)])
def test_core_12_combat_drugs_roll_before_the_game_for_the_whole_unit(dice, roll, column):
    """Combat Drugs: before the game a D6 gives the unit +1 A, S, I, T, WS or Ld; a respawned
    squad is the squad as built (A16), drugs included."""
    st, tb, rng = one_game(team_config("dark_eldar", "guard"))
    dice.script(roll)
    spawning.roll_combat_drugs(st, 0, 0, tb, rng)
    dice.done()
    built = tb.squad_stats[0, 0]
    assert st.stats[0, 0, 0, column] == built[column] + 1
    assert all(st.stats[0, 0, 0, c] == built[c] for c in (L.A, L.S, L.I, L.T, L.WS, L.LD) if c != column)
    st.wounds[0, 0] = 0
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    kernels.zombie40k.casualties.wipe(st, 0, 0, 2, tb, rng)
    dice.script(*[0.5] * 40)
    spawning.respawn_squad(st, 0, 0, tb, rng)
    assert st.stats[0, 0, 0, column] == built[column] + 1


def test_core_12_combat_drugs_are_rolled_at_set_up_only_for_a_unit_with_them(dice):
    st, tb, rng = one_game(team_config("dark_eldar", "guard"))
    assert 1 <= st.ustate[0, 0, GL.US_DRUGS] <= 6 and st.ustate[0, 1, GL.US_DRUGS] == 0


# ------------------------------------------------------------------ Power from Pain


@pytest.mark.parametrize(("game_turn", "fnp", "gained"), [
    (1, 7, 0), (2, 6, 0), (3, 5, 0), (4, 5, L.MR_FURIOUS_CHARGE),
    (5, 5, L.MR_FURIOUS_CHARGE | L.MR_FEARLESS), (6, 5, L.MR_FURIOUS_CHARGE | L.MR_FEARLESS | L.MR_RAGE),
    (9, 5, L.MR_FURIOUS_CHARGE | L.MR_FEARLESS | L.MR_RAGE)])
def test_core_12_power_from_pain_grows_with_the_game_turn(game_turn, fnp, gained):
    """Power from Pain (the turn schedule): FNP 6+ from game turn 2, 5+ from 3, then Furious
    Charge, Fearless, Rage from turns 4, 5, 6."""
    st, tb, rng = one_game(team_config("dark_eldar", "guard"))
    st.res[0, GL.R_TURNS] = game_turn
    turn.start_game_turn(st, 0, tb)
    wych = 1  # not the model given the team's USR
    assert st.stats[0, 0, wych, L.FNP] == fnp
    assert st.mflags[0, 0, wych] & (L.MR_FURIOUS_CHARGE | L.MR_FEARLESS | L.MR_RAGE) == gained
    assert st.stats[0, 1, 0, L.FNP] == tb.squad_stats[1, 0, L.FNP]  # the Guard have no Power from Pain


def test_core_12_power_from_pain_is_back_at_once_after_a_respawn(dice):
    st, tb, rng = one_game(team_config("dark_eldar", "guard"))
    st.res[0, GL.R_TURNS] = 4
    st.wounds[0, 0] = 0
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    kernels.zombie40k.casualties.wipe(st, 0, 0, 2, tb, rng)
    dice.script(*[0.5] * 40)
    spawning.respawn_squad(st, 0, 0, tb, rng)
    assert st.stats[0, 0, 1, L.FNP] == 5 and st.mflags[0, 0, 1] & L.MR_FURIOUS_CHARGE


# ------------------------------------------------------------------ Mandiblasters


def test_core_12_mandiblasters_at_the_start_of_i10_a_4_plus_inflicts_a_wound(dice, monkeypatch):
    """Mandiblasters: at the start of Initiative 10 the model rolls a D6; on 4+ an engaged enemy
    unit suffers one Wound (saves and Feel No Pain allowed)."""
    st, tb, rng = one_game(team_config("eldar", "guard"))
    locked_pair(st, tb, 0, 2)
    recorder = StrikeRecorder()
    monkeypatch.setattr(assault, "_strike", recorder)
    dice.script(4)  # the Striking Scorpion's mandiblasters
    assault.fight(st, 0, 0, tb, rng)
    dice.done()
    assert recorder.calls[0] == (0, 2, 1)
    spec = recorder.specs[0]
    assert spec[L.SP_HIT_MODE] == L.HM_AUTO and spec[L.SP_AUTO_WOUND] == 1
    assert spec[L.SP_NO_SAVES] == 0 and spec[L.SP_NO_FNP] == 0
    assert len(recorder.calls) == 1 + units.alive(st, 0, 0) + units.alive(st, 0, 2)  # then everyone strikes


def test_core_12_mandiblasters_a_3_does_nothing(dice, monkeypatch):
    st, tb, rng = one_game(team_config("eldar", "guard"))
    locked_pair(st, tb, 0, 2)
    recorder = StrikeRecorder()
    monkeypatch.setattr(assault, "_strike", recorder)
    dice.script(3)
    assault.fight(st, 0, 0, tb, rng)
    dice.done()
    assert len(recorder.calls) == units.alive(st, 0, 0) + units.alive(st, 0, 2)


# ------------------------------------------------------------------ Veterans of the Long War


def test_core_12_veterans_of_the_long_war_give_plus_1_leadership():
    plain = Profile("Chaos Space Marine", 4, 4, 4, 4, 1, 4, 1, 8, sv=3)
    veteran = Profile("Chaos Space Marine", 4, 4, 4, 4, 1, 4, 1, 8, sv=3, rules=frozenset({"veterans_of_the_long_war"}))
    assert tables.model_stats(veteran)[L.LD] == tables.model_stats(plain)[L.LD] + 1
    assert tables.model_flags(veteran) & L.MR_VOTLW


def test_core_12_veterans_of_the_long_war_hate_space_marines_only():
    """Veterans of the Long War: Hatred (Space Marines): failed to-hit rolls re-rolled in the
    first round of a combat against Space Marines, not against zombies or other survivors."""
    st, tb, _ = one_game(team_config("guard", "marines"))
    st.mflags[0, 0, 1] |= L.MR_VOTLW
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    assert st.mflags[0, 1, 0] & L.MR_SPACE_MARINE and not st.mflags[0, 0, 0] & L.MR_SPACE_MARINE
    spec = np.zeros_like(st.w_spec[0])
    ccw = tb.ids[1]
    assault._model_spec(st, 0, 0, 1, 1, ccw, tb, spec)  # at the Marines, first round
    assert spec[L.SP_HIT_REROLL] == L.RR_FAILED
    assault._model_spec(st, 0, 0, 1, 2, ccw, tb, spec)  # at zombies
    assert spec[L.SP_HIT_REROLL] == L.RR_NONE
