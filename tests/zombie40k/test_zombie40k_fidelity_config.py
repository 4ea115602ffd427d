"""Rules fidelity of the options and the zombie side (issue 13): the Boss's respawn (A14), who
has Rending (A4), Coop Mode's 18" trigger (§10.1), Death Korps' escalation (§10.4), player names,
on a table set up by hand with hand-fed dice (``dice``) or the real streams (``nojit``). Each test
is named after the rule it states.
"""

from __future__ import annotations

import pytest
from conftest import EXAMPLES, example_config, one_game
from fidelity_helpers import GL, L, clear_table, put_unit, units

import kernels.zombie40k.casualties
import kernels.zombie40k.spawning
import kernels.zombie40k.turn

turn = kernels.zombie40k.turn


def _kill_the_boss(st, tb, rng, killer=0):
    boss = units.boss_unit(st)
    st.wounds[0, boss] = 0
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    kernels.zombie40k.casualties.wipe(st, 0, boss, killer, tb, rng)
    assert not units.on_table(st, 0, boss)
    return boss


# ------------------------------------------------------------------ A14 the Boss's respawn


def test_a14_boss_respawns_true_brings_the_boss_back_by_the_respawn_table(dice):
    """With ``boss_respawns`` a destroyed Boss returns in the next Zombie Respawning phase, like
    a destroyed horde: one D6 on the Zombie Respawn Table (zombie40k §6.1, §7; issue item 9)."""
    st, tb, rng = one_game(example_config("two_players", boss_respawns=True))
    boss = _kill_the_boss(st, tb, rng)
    dice.script(4)  # result 4: the Escape Vehicle edge
    turn.zombie_respawning(st, 0, tb, rng)
    dice.done()
    assert units.on_table(st, 0, boss) and units.alive(st, 0, boss) == 1
    assert st.wounds[0, boss, 0] == st.stats[0, boss, 0, L.W]  # at full Wounds
    assert st.pos[0, boss, 1] == pytest.approx(tb.prm[GL.P_TABLE_L] - st.radius[0, boss])


def test_a14_by_default_the_boss_stays_dead(dice):
    st, tb, rng = one_game(example_config("two_players"))
    boss = _kill_the_boss(st, tb, rng)
    turn.zombie_respawning(st, 0, tb, rng)
    dice.done()  # no roll
    assert not units.on_table(st, 0, boss)


# ------------------------------------------------------------------ A4 who has Rending


def _lasgun_at_an_untouchable_horde(dice, rending_owner):
    """A Guardsman's lasgun (S3) at a horde made T7 (S3 cannot wound T7): hit 6, wound 6."""
    import numpy as np

    from sim.rulesets.zombie40k.catalogue import catalogue
    from sim.rulesets.zombie40k.compile import weapon_index

    st, tb, rng = one_game(example_config("two_players", rending_owner=rending_owner))
    clear_table(st, keep=(0, 2))
    put_unit(st, tb, 0, 24.0, 20.0)
    put_unit(st, tb, 2, 24.0, 20.0 + st.radius[0, 0] + st.radius[0, 2] + 10.0)
    st.stats[0, 2, :, L.T] = 7
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    row = tb.weapons[weapon_index(catalogue())["Lasgun"]]
    spec, out = np.zeros_like(st.w_spec[0]), np.zeros_like(st.w_out[0])
    return lambda: kernels.zombie40k.shooting.fire_group(st, 0, 0, 1, 2, row, 1, False, False, tb, rng, spec, out)


def test_a4_rending_owner_survivors_gives_survivors_rending_against_zombies(dice):
    """``rending_owner = "survivors"`` (the 2009 "headshots"): a survivor's to-wound 6 against
    zombies wounds whatever their Toughness; the zombies lose their Rending (issue item 10)."""
    fire = _lasgun_at_an_untouchable_horde(dice, "survivors")
    dice.script(6, 6,  # hit; to wound: a 6 (Rending)
                1)  # the zombie's Feel No Pain (5+) fails
    assert fire() == 1
    dice.done()
    config = example_config("two_players", rending_owner="survivors")
    from sim.rulesets.zombie40k.compile import compile_tables

    tb = compile_tables(config)
    assert not tb.extra_flags[0] & L.MR_RENDING and tb.prm[GL.P_RENDING_VS_ZOMBIES] == 1


def test_a4_rending_owner_none_nobody_has_rending(dice):
    fire = _lasgun_at_an_untouchable_horde(dice, "none")
    dice.script(6, 6)  # hit; to wound: a 6, but S3 cannot wound T7
    assert fire() == 0
    dice.done()


def test_a4_survivors_rending_in_close_combat_against_zombies_only():
    """A survivor's close combat attacks have Rending against zombies, not against a rival."""
    import numpy as np

    import kernels.zombie40k.assault

    st, tb, _ = one_game(example_config("two_players", rending_owner="survivors"))
    spec = np.zeros_like(st.w_spec[0])
    ccw = tb.ids[1]
    kernels.zombie40k.assault._model_spec(st, 0, 0, 1, 2, ccw, tb, spec)
    assert spec[L.SP_AUTO_WOUND_6] == 1
    kernels.zombie40k.assault._model_spec(st, 0, 0, 1, 1, ccw, tb, spec)
    assert spec[L.SP_AUTO_WOUND_6] == 0


# ------------------------------------------------------------------ §10.1 Coop: once a squad has come within 18"


def _coop_scene(dice):
    """Coop Mode; only the Guard on the table, 20" from the EV, the Boss dead; horde 2 gone."""
    from dataclasses import replace

    import kernels.zombie40k.movement

    config = replace(example_config("two_players"), mods=frozenset({"coop"}))
    st, tb, rng = one_game(config, seed=5)
    clear_table(st, keep=(0,))
    hull = tb.prm[GL.P_TABLE_L] - tb.prm[GL.P_EV_D]
    put_unit(st, tb, 0, 24.0, hull - 20.0 - st.radius[0, 0])
    kernels.zombie40k.movement.squad_movement(st, 0, 0, tb, rng)  # 6" on: 14" from the EV
    return st, tb, rng


def _arrival_edge_y(dice, st, tb, rng):
    dice.script(1)  # result 1: the player starting edge, unless Coop's 18" trigger has fired
    assert kernels.zombie40k.spawning.respawn_horde(st, 0, 2, tb, rng)
    dice.done()
    return st.pos[0, 2, 1]


@pytest.mark.parametrize("then", ["pushed_back", "wiped", "boards"])
def test_s10_1_coop_once_a_squad_has_come_within_18_hordes_arrive_on_the_ev_edge(dice, then):
    """Coop Mode: once any squad has come within 18" of the EV, every later respawning horde
    arrives on the EV edge, even after that squad is pushed back, dies or boards (issue item 11)."""
    import kernels.zombie40k.movement
    import kernels.zombie40k.powerups

    st, tb, rng = _coop_scene(dice)
    if then == "pushed_back":
        kernels.zombie40k.powerups.push_back(st, 0, 0, 6.0, tb)  # 20" from the EV again
    elif then == "wiped":
        st.wounds[0, 0] = 0
        st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
        kernels.zombie40k.casualties.wipe(st, 0, 0, 2, tb, rng)
    else:
        hull = tb.prm[GL.P_TABLE_L] - tb.prm[GL.P_EV_D]
        put_unit(st, tb, 0, 24.0, hull - 2.0 - st.radius[0, 0])
        assert kernels.zombie40k.movement.squad_movement(st, 0, 0, tb, rng)
    y = _arrival_edge_y(dice, st, tb, rng)
    assert y == pytest.approx(tb.prm[GL.P_TABLE_L] - st.radius[0, 2])


def test_s10_1_coop_hordes_follow_the_table_until_a_squad_comes_within_18(dice):
    from dataclasses import replace

    config = replace(example_config("two_players"), mods=frozenset({"coop"}))
    st, tb, rng = one_game(config, seed=5)
    clear_table(st, keep=(0,))
    put_unit(st, tb, 0, 24.0, 30.0)
    assert _arrival_edge_y(dice, st, tb, rng) == pytest.approx(st.radius[0, 2])


# ------------------------------------------------------------------ player names identify players


def test_players_with_the_same_name_are_refused_in_one_line(tmp_path):
    """Names identify players in every table: a config with two players named "A" is refused
    with one line (issue item 15)."""
    from sim.rulesets.zombie40k.config import ConfigError, load_config

    path = tmp_path / "twins.toml"
    path.write_text(f'''
[[players]]
name = "A"
team = "{(EXAMPLES / 'teams' / 'guard.toml').as_posix()}"

[[players]]
name = "A"
team = "{(EXAMPLES / 'teams' / 'marines.toml').as_posix()}"
''')
    with pytest.raises(ConfigError) as err:
        load_config(path)
    message = str(err.value)
    assert "\\n" not in message and "'A'" in message and "players" in message


def test_players_named_alike_but_for_case_are_distinct_names():
    from dataclasses import replace

    config = example_config("two_players")
    players = (config.players[0], replace(config.players[1], name=config.players[0].name.upper()))
    assert replace(config, players=players).n_players == 2


# ------------------------------------------------------------------ §10.4 Death Korps


def test_s10_4_a_horde_that_finds_no_room_does_not_escalate_when_it_retries(dice, monkeypatch):
    """Death Korps: a horde gains +1 T and better FNP each time it respawns; a horde that found no
    room on the table and comes back next turn respawns once (issue item 18; the other reading:
    dk_escalates_on_failed_arrival = true)."""
    from dataclasses import replace

    spawning = kernels.zombie40k.spawning
    config = replace(example_config("two_players"), mods=frozenset({"death_korps"}))
    st, tb, rng = one_game(config)
    clear_table(st, keep=(0,))
    put_unit(st, tb, 0, 24.0, 30.0)
    real = spawning._arrive.py_func if hasattr(spawning._arrive, "py_func") else spawning._arrive
    monkeypatch.setattr(spawning, "_arrive", lambda *args: False)  # no room anywhere
    dice.script(3)
    assert not spawning.respawn_horde(st, 0, 2, tb, rng)
    assert st.ustate[0, 2, GL.US_DK_LEVEL] == 0
    monkeypatch.setattr(spawning, "_arrive", real)
    dice.script(4)
    assert spawning.respawn_horde(st, 0, 2, tb, rng)
    dice.done()
    assert st.ustate[0, 2, GL.US_DK_LEVEL] == 1 and st.stats[0, 2, 0, L.T] == tb.prm[GL.P_DK_START_T] + 1


@pytest.mark.parametrize("policy", ["random", "block_ev"])
def test_s10_1_coop_result_6_lands_in_front_of_the_squad_closest_to_the_ev_whatever_result6_policy(dice, policy):
    """Coop Mode fixes Respawn result 6: the horde Deep Strikes in front of the squad closest to
    the EV; ``result6_policy`` (A26, the furthest player's choice) does not apply (zombie40k
    §10.1; issue 27 item 2). No die is rolled for the aim."""
    from dataclasses import replace

    config = replace(example_config("two_players", result6_policy=policy), mods=frozenset({"coop"}))
    st, tb, rng = one_game(config, seed=5)
    clear_table(st, keep=(0, 1))
    hull = tb.prm[GL.P_TABLE_L] - tb.prm[GL.P_EV_D]
    put_unit(st, tb, 0, 12.0, 20.0)
    put_unit(st, tb, 1, 36.0, hull - 24.0)  # the Marines lead
    dice.script()
    aim = kernels.zombie40k.spawning._result6_aim(st, 0, 2, tb, rng)
    dice.done()
    assert aim == pytest.approx(kernels.zombie40k.spawning._aim_in_front(st, 0, 2, 1, tb))


@pytest.mark.parametrize("death", ["wounds", "sweep"])
def test_s10_1_coop_no_respawn_radius_is_measured_to_the_nearest_model_however_the_squad_dies(dice, death):
    """Coop Mode: a squad wiped out within ``coop_no_respawn_radius_in`` (12") of the EV is out for
    good, the distance measured from the EV hull to the squad's nearest model (zombie40k §5.1's
    measure) whether the last models fall to wounds or to a Sweeping Advance (§10.1; issue 27
    item 4: wounds were measured from the squad's centre)."""
    from dataclasses import replace

    import kernels.zombie40k.casualties

    config = replace(example_config("two_players"), mods=frozenset({"coop"}))
    st, tb, rng = one_game(config, seed=5)
    clear_table(st, keep=(0, 2))
    hull = tb.prm[GL.P_TABLE_L] - tb.prm[GL.P_EV_D]
    r = st.radius[0, 0]
    assert r > 1.5  # the centre is more than 12" away
    put_unit(st, tb, 0, 24.0, hull - 11.0 - r)  # the nearest Guardsman 11" from the hull
    before = units.alive(st, 0, 0)
    if death == "wounds":
        st.wounds[0, 0] = 0
        st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
        kernels.zombie40k.casualties.after_attack(st, 0, 0, 2, before, tb, rng)
    else:
        kernels.zombie40k.casualties.wipe(st, 0, 0, 2, tb, rng)
    assert not units.on_table(st, 0, 0)
    assert st.ustate[0, 0, GL.US_OUT] == 1


def test_players_whose_names_differ_only_by_spaces_are_refused_in_one_line():
    """"A" and "A " print as one name in every results table, so they are refused in one line
    naming both (issue 27 item 8)."""
    from dataclasses import replace

    from sim.rulesets.zombie40k.config import ConfigError

    config = example_config("two_players")
    guard, marines = config.players
    for a, b in (("A", "A "), (" A", "A"), ("Red  Team", "Red Team")):
        with pytest.raises(ConfigError) as err:
            replace(config, players=(replace(guard, name=a), replace(marines, name=b)))
        message = str(err.value)
        assert "\n" not in message and repr(a) in message and repr(b) in message and "players" in message
