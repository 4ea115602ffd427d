"""Rules fidelity of the Assault phase (issue 13): charges, the fight, combat resolution,
Sweeping Advance, falling back and consolidation (core-7th-edition §7, §9, §12; zombie40k §5.5,
§6.4), on a table set up by hand with hand-fed dice (``dice``) or the real streams (``nojit``).

Every test is named after the rule it states; each failed on the code before its fix (or, for
rules that had no test, fails when the rule is broken on purpose).
"""

from __future__ import annotations

import pytest
from conftest import example_config, one_game, team_config
from fidelity_helpers import (
    GL,
    L,
    StrikeRecorder,
    clear_table,
    combat_arrays,
    keep_models,
    locked_pair,
    put_unit,
    units,
)

import kernels.zombie40k.assault
import kernels.zombie40k.movement
import kernels.zombie40k.turn

assault = kernels.zombie40k.assault
turn = kernels.zombie40k.turn


# ------------------------------------------------------------------ core §7.5 consolidation


def test_core_7_5_a_squad_that_falls_back_does_not_consolidate(dice):
    """Only a unit whose enemies are all destroyed or falling back consolidates: the horde
    does, the squad that broke and fell back does not (issue item 1)."""
    st, tb, rng = one_game(example_config("two_players"))
    locked_pair(st, tb, 0, 2)  # Guard (no ATSKNF) and a horde
    member, inflicted, suffered = combat_arrays(st, 0, 2)
    suffered[0], inflicted[2] = 3, 3
    y = st.pos[0, 0, 1]
    dice.script(6, 6,  # Morale at Ld - 3: failed
                6, 1,  # Sweeping Advance: Guard 6 + I3 beats the zombies' 1 + I1
                4, 3,  # fall back 2D6 = 7"
                2)  # the horde consolidates D6 = 2" (and nobody else rolls)
    assault.resolve_combat(st, 0, member, inflicted, suffered, tb, rng)
    assert st.ustate[0, 0, GL.US_CONSOLIDATE] == 0 and st.ustate[0, 2, GL.US_CONSOLIDATE] == 1
    turn._consolidations(st, 0, tb, rng)
    dice.done()
    assert st.pos[0, 0, 1] == pytest.approx(y - 7.0)  # the fall-back move only
    assert st.ustate[0, 0, GL.US_FALLING_BACK] == 1


# ------------------------------------------------------------------ core §7.3 the charge bonus


def _charge_then_shamble(dice, monkeypatch):
    """Guard charge a horde in their Assault phase, wipe it and consolidate; then
    another horde shambles into contact and the Zombie Assault phase is fought. Returns the
    state and the attack dice the Guard's models threw in each fight."""
    st, tb, rng = one_game(example_config("two_players", powerups_enabled=False))
    clear_table(st, keep=(0, 2, 3))
    keep_models(st, tb, 2, 2)  # the hunter policy charges hordes of at most 2
    put_unit(st, tb, 0, 24.0, 20.0)
    put_unit(st, tb, 2, 24.0, 20.0 + st.radius[0, 0] + st.radius[0, 2] + 3.0)
    put_unit(st, tb, 3, 40.0, 40.0)
    recorder = StrikeRecorder(wipe_on=units.alive(st, 0, 0))  # the last Guard to strike wipes the horde
    monkeypatch.setattr(assault, "_strike", recorder)
    dice.script(3, 3,  # charge 2D6 = 6" >= 3"
                1)  # the Guard consolidate D6 = 1"
    turn.assault_phase(st, 0, 0, tb, rng)
    dice.done()
    assert not units.on_table(st, 0, 2) and not units.in_combat(st, 0, 0)
    charge_dice = recorder.dice_of(0)
    put_unit(st, tb, 3, st.pos[0, 0, 0] + st.radius[0, 0] + st.radius[0, 3] + 2.0, st.pos[0, 0, 1])
    st.ustate[0, 0, GL.US_OVERWATCHED] = 1  # no Overwatch dice in this scene
    recorder.calls.clear()
    recorder.wipe_on = 0
    dice.script(2, 2)  # the Shamble roll: 4" >= 2": horde 3 charges the Guard
    kernels.zombie40k.movement.shamble_phase(st, 0, tb, rng)
    assert units.in_combat(st, 0, 0) and st.ustate[0, 3, GL.US_CHARGED] == 1
    turn.zombie_assault(st, 0, tb, rng)
    dice.done()
    return st, charge_dice, recorder.dice_of(0)


def test_core_7_3_the_charge_bonus_lasts_only_the_turn_of_the_charge(dice, monkeypatch):
    """A squad that charged, won and consolidated fights the horde that shambles into it the
    same game turn without the charge bonus: +1 Attack only in the turn it charged (issue item
    3)."""
    st, charge_dice, later_dice = _charge_then_shamble(dice, monkeypatch)
    assert len(later_dice) == len(charge_dice) == units.alive(st, 0, 0)
    assert sum(later_dice) == sum(charge_dice) - len(charge_dice)  # each model lost its +1


def test_core_7_3_no_unit_is_a_charger_after_the_assault_phase(dice, monkeypatch):
    """The charged flag ends with the Assault phase: neither the squad nor the horde that
    shambled in fight as chargers in a later phase (issue item 3)."""
    st, _, _ = _charge_then_shamble(dice, monkeypatch)
    assert (st.ustate[0, :, GL.US_CHARGED] == 0).all()


# ------------------------------------------------------------------ core §12 Concussive


def _step(st, tb, u, m=0):
    """The Initiative step model m of unit u strikes at now (its melee choice made afresh)."""
    st.w_choice[u, m] = -1
    return assault._model_step(st, 0, u, m, tb, st.w_choice)


def test_core_12_concussive_lasts_until_the_end_of_the_next_assault_phase(dice, monkeypatch):
    """A model that suffers an unsaved Wound from a Concussive weapon in an Assault phase is
    Initiative 1 for the rest of it and until the end of the next Assault phase (issue item 4)."""
    st, tb, rng = one_game(example_config("two_players"))
    boss = units.boss_unit(st)
    locked_pair(st, tb, 0, boss)
    put_unit(st, tb, 1, 10.0, 10.0)  # the Marines, far from everything: their phase has no fight
    normal = _step(st, tb, boss)
    assert normal == st.stats[0, boss, 0, L.I] > 1

    def concussing_blow(st, g, u, v, dice, spec, inflicted, suffered, tb, rng, out):
        out[:] = 0
        if v == boss:
            st.mstatus[g, v, 0] |= L.ST_CONCUSSED  # an unsaved Wound from a power maul

    monkeypatch.setattr(assault, "_strike", concussing_blow)
    turn.zombie_assault(st, 0, tb, rng)  # the Guard's power maul hits the Boss in this phase
    dice.done()
    assert _step(st, tb, boss) == 1
    turn.assault_phase(st, 0, 1, tb, rng)  # the next Assault phase (the Marines'): still I1 in it
    assert _step(st, tb, boss) == normal  # over at its end


def test_core_12_concussive_from_a_shot_ends_with_the_coming_assault_phase(dice):
    """Concussed in a Shooting phase: Initiative 1 until the end of that turn's Assault phase."""
    st, tb, rng = one_game(example_config("two_players"))
    boss = units.boss_unit(st)
    clear_table(st, keep=(0, boss))
    put_unit(st, tb, 0, 10.0, 10.0)
    st.mstatus[0, boss, 0] |= L.ST_CONCUSSED  # a grav-gun wound in the Shooting phase
    assert _step(st, tb, boss) == 1
    turn.assault_phase(st, 0, 0, tb, rng)
    dice.done()
    assert _step(st, tb, boss) == st.stats[0, boss, 0, L.I]


# ------------------------------------------------------------------ core §9.4 Pinning


def test_core_9_4_a_pinned_squad_may_not_charge(dice):
    """A squad that has Gone to Ground may not move or charge in its next turn (issue item 12)."""
    st, tb, rng = one_game(example_config("two_players"))
    clear_table(st, keep=(0, 2))
    keep_models(st, tb, 2, 2)  # a horde the hunter policy would charge
    put_unit(st, tb, 0, 24.0, 20.0)
    put_unit(st, tb, 2, 24.0, 20.0 + st.radius[0, 0] + st.radius[0, 2] + 3.0)
    st.ustate[0, 0, GL.US_PINNED] = 1
    assert not assault.can_charge(st, 0, 0)
    turn.assault_phase(st, 0, 0, tb, rng)
    dice.done()  # no charge roll
    assert not units.in_combat(st, 0, 0)


# ------------------------------------------------------------------ core §7.5 Sweeping Advance


def _guard_lose_to(st, tb, *enemies):
    """The Guard (squad 0) locked with ``enemies``, having lost the combat by 2."""
    from fidelity_helpers import combat_arrays

    clear_table(st, keep=(0, *enemies, 1))
    put_unit(st, tb, 0, 24.0, 30.0)
    for k, v in enumerate(enemies):
        put_unit(st, tb, v, 24.0 + (8.0 if k else 0.0), 30.0 + st.radius[0, 0] + st.radius[0, v])
        units.lock(st, 0, 0, v)
    member, inflicted, suffered = combat_arrays(st, 0, *enemies)
    suffered[0] = 2
    return member, inflicted, suffered


def test_core_7_5_an_enemy_still_locked_with_another_unit_does_not_sweep(dice):
    """Only a winning unit that is not still locked with another enemy unit attempts the
    Sweeping Advance: the Boss, also locked with the Marines, does not; the horde does (issue
    item 20)."""
    st, tb, rng = one_game(example_config("two_players"))
    boss = units.boss_unit(st)
    member, inflicted, suffered = _guard_lose_to(st, tb, 2, boss)
    put_unit(st, tb, 1, st.pos[0, boss, 0], st.pos[0, boss, 1] + st.radius[0, boss] + st.radius[0, 1])
    units.lock(st, 0, 1, boss)
    dice.script(6, 6,  # Morale failed
                3,  # the Guard: 3 + I3 = 6
                4,  # the horde: 4 + I1 = 5: the Guard get away (the Boss would have 4 + 5)
                2, 2)  # fall back 4"
    assault.resolve_combat(st, 0, member, inflicted, suffered, tb, rng)
    dice.done()
    assert units.on_table(st, 0, 0) and st.ustate[0, 0, GL.US_FALLING_BACK] == 1


def test_core_7_5_each_winning_unit_attempts_the_sweeping_advance(dice):
    """Each free winner rolls against the loser's one roll: the second horde catches them."""
    st, tb, rng = one_game(example_config("two_players"))
    member, inflicted, suffered = _guard_lose_to(st, tb, 2, 3)
    dice.script(6, 6,  # Morale failed
                1,  # the Guard: 1 + I3 = 4
                1,  # horde 2: 1 + 1 = 2
                3)  # horde 3: 3 + 1 = 4: caught
    assault.resolve_combat(st, 0, member, inflicted, suffered, tb, rng)
    dice.done()
    assert not units.on_table(st, 0, 0)


def test_core_7_5_sweep_rule_highest_initiative_is_the_other_reading(dice):
    st, tb, rng = one_game(example_config("two_players", sweep_rule="highest_initiative"))
    member, inflicted, suffered = _guard_lose_to(st, tb, 2, 3)
    dice.script(6, 6, 1, 1,  # one sweeper only: 2 < 4
                2, 2)  # fall back
    assault.resolve_combat(st, 0, member, inflicted, suffered, tb, rng)
    dice.done()
    assert units.on_table(st, 0, 0)


def test_s8_the_speed_pack_s_initiative_counts_in_the_sweep_roll(dice):
    """The Super Mushroom's +1 Initiative that turn is the squad's Initiative in the Sweeping
    Advance roll too (zombie40k §8 result 9; issue item 20)."""
    st, tb, rng = one_game(example_config("two_players"))
    member, inflicted, suffered = _guard_lose_to(st, tb, 2)
    st.pu[0, 0, GL.PU_MUSHROOM_ON] = st.res[0, GL.R_TURNS]
    dice.script(6, 6,  # Morale failed
                3,  # the Guard: 3 + I3 + 1 = 7 (6 without the Speed Pack)
                5,  # the horde: 5 + 1 = 6: they get away
                2, 2)  # fall back
    assault.resolve_combat(st, 0, member, inflicted, suffered, tb, rng)
    dice.done()
    assert units.on_table(st, 0, 0)


# ------------------------------------------------------------------ core §7.3 two weapons


def _melee_of(st, tb, u, m, melee=()):
    """(weapon row, two-weapons bonus) of model m of unit u, its melee slots set to ``melee``."""
    from sim.rulesets.zombie40k.catalogue import catalogue
    from sim.rulesets.zombie40k.compile import weapon_index

    index = weapon_index(catalogue())
    slots = (GL.G_MELEE0, GL.G_MELEE1)
    for slot in slots:
        st.gear[0, u, m, slot] = -1
    for slot, name in zip(slots, melee):
        st.gear[0, u, m, slot] = index[name]
    return assault._melee_choice(st, 0, u, m, tb)


def test_core_7_3_a_pistol_counts_as_one_of_the_two_close_combat_weapons(dice):
    """A Tactical Marine (boltgun, bolt pistol, frag grenades) fights with his pistol as his one
    close combat weapon: no +1 Attack; with a chainsword besides the pistol he has two (core
    §7.3 "a pistol counts as one"; issue 27 item 1)."""
    st, tb, rng = one_game(example_config("two_players"))

    def pistols(m):
        return [w for w in st.gear[0, 1, m, :GL.G_MELEE0] if w >= 0 and tb.weapons[w, L.W_KIND] == L.K_PISTOL]

    marine = next(m for m in range(units.alive(st, 0, 1))  # the Marines are squad 1
                  if len(pistols(m)) == 1 and (st.gear[0, 1, m, GL.G_MELEE0:GL.G_MELEE1 + 1] < 0).all())
    assert _melee_of(st, tb, 1, marine) == (tb.ids[1], 0)  # the close combat weapon (state.ID_CCW)
    assert _melee_of(st, tb, 1, marine, ("Chainsword",))[1] == 1


# ------------------------------------------------------------------ zombie40k §8 the Speed Pack


def test_s8_the_speed_pack_lasts_only_for_that_player_turn(nojit):
    """The Super Mushroom's +1 Initiative and +3" count "for that turn", the player's: after the
    squad's player turn its Initiative in the Zombie Assault phase and the sweep is its own again
    (zombie40k §8 result 9; issue 27 item 5)."""
    st, tb, rng = one_game(example_config("two_players"))
    clear_table(st, keep=(0,))
    tb.policy[0, GL.POL_MUSHROOM] = 0  # use it at once
    st.pu[0, 0, GL.PU_MUSHROOM] = 1
    initiative = assault.sweep_initiative(st, 0, 0, tb)
    ccw = tb.ids[1]
    step = assault._base_initiative(st, 0, 0, 1, tb.weapons[ccw], tb)
    turn.player_turn(st, 0, 0, tb, rng, False)
    assert st.pu[0, 0, GL.PU_MUSHROOM] == 0  # it was used this turn
    assert assault.sweep_initiative(st, 0, 0, tb) == initiative
    assert assault._base_initiative(st, 0, 0, 1, tb.weapons[ccw], tb) == step


# ------------------------------------------------------------------ A35 Chuck Norris


def test_a35_chuck_norris_re_rolls_the_sweeping_advance_roll(dice):
    """Under the Blessing of Chuck Norris every failed roll is re-rolled (A35): the Guard caught
    by the horde's Sweeping Advance re-roll their D6 and get away (issue 27 item 6)."""
    st, tb, rng = one_game(example_config("two_players"))
    member, inflicted, suffered = _guard_lose_to(st, tb, 2)
    st.pu[0, 0, GL.PU_CHUCK] = st.res[0, GL.R_TURNS]
    dice.script(6, 6, 6, 6,  # Morale failed, and failed again on the re-roll
                1,  # the Guard: 1 + I3 = 4
                5,  # the horde: 5 + I1 = 6: caught...
                6,  # ...the Guard re-roll: 6 + 3 = 9: they get away
                2, 2)  # fall back 4"
    assault.resolve_combat(st, 0, member, inflicted, suffered, tb, rng)
    dice.done()
    assert units.on_table(st, 0, 0) and st.ustate[0, 0, GL.US_FALLING_BACK] == 1


def test_a35_a_sweeping_squad_under_chuck_norris_re_rolls_a_short_roll(dice):
    """A squad under the Blessing sweeping a rival squad re-rolls its D6 when it falls short
    (A35; core §7.5; issue 27 item 6)."""
    st, tb, rng = one_game(example_config("two_players"))
    member, inflicted, suffered = _guard_lose_to(st, tb, 1)
    st.pu[0, 1, GL.PU_CHUCK] = st.res[0, GL.R_TURNS]
    dice.script(6, 6,  # Morale failed
                4,  # the Guard: 4 + I3 = 7
                2,  # the Marines: 2 + I4 = 6, short...
                5)  # ...re-rolled: 5 + 4 = 9: caught
    assault.resolve_combat(st, 0, member, inflicted, suffered, tb, rng)
    dice.done()
    assert not units.on_table(st, 0, 0)


# ------------------------------------------------------------------ core §7.5 no consolidation after falling back


def test_core_7_5_a_squad_that_fell_back_from_a_shared_melee_does_not_consolidate(dice):
    """Two squads locked together and with a horde both break: the first to break leaves the
    second flagged to consolidate, but the second falls back too and a unit that falls back
    never consolidates (core §7.5; issue 27 item 7)."""
    config = team_config("guard", "tau")
    st, tb, rng = one_game(config)
    clear_table(st, keep=(0, 1, 2))
    put_unit(st, tb, 2, 24.0, 30.0)
    put_unit(st, tb, 0, 24.0, 30.0 - st.radius[0, 0] - st.radius[0, 2])
    put_unit(st, tb, 1, 24.0 + st.radius[0, 1] + st.radius[0, 2], 30.0)
    for u, v in ((0, 2), (1, 2), (0, 1)):
        units.lock(st, 0, u, v)
    dice.script(3, 3)  # the Guard break: nobody free to sweep; fall back 6"
    assault._break(st, 0, 0, tb, rng)
    assert st.ustate[0, 1, GL.US_CONSOLIDATE] == 1  # flagged while the Tau still fought on
    dice.script(6,  # the Tau break: 6 + I2 = 8
                1,  # the horde: 1 + I1 = 2: they get away
                2, 2)  # fall back 4"
    assault._break(st, 0, 1, tb, rng)
    x, y = st.pos[0, 1].copy()
    dice.script(2)  # the horde consolidates 2"; the Tau roll nothing
    turn._consolidations(st, 0, tb, rng)
    dice.done()
    assert tuple(st.pos[0, 1]) == pytest.approx((x, y))
    assert st.ustate[0, 1, GL.US_FALLING_BACK] == 1
