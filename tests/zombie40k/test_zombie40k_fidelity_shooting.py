"""Rules fidelity of the Shooting phase (issue 13): Morale and Pinning after shooting, shots
into a combat, the Shotgun power-up, grudges (core-7th-edition §6, §9; zombie40k §5.4, §6.3, §8,
A19, A20), on a table set up by hand with hand-fed dice (``dice``) or the real streams
(``nojit``). Each test is named after the rule it states.
"""

from __future__ import annotations

import pytest
from conftest import example_config as listed_config
from conftest import one_game, team_config
from fidelity_helpers import GL, L, clear_table, keep_models, locked_pair, put_unit, units

import kernels.zombie40k.morale
import kernels.zombie40k.shooting
import kernels.zombie40k.turn

morale = kernels.zombie40k.morale
shooting = kernels.zombie40k.shooting
turn = kernels.zombie40k.turn


def example_config(name: str = "two_players", **params):
    """The example config with each squad's models in the team file's order (policy ``removal =
    1``): these scenes name models by their place in the team file (the sergeant first)."""
    from dataclasses import replace

    config = listed_config(name, **params)
    return replace(config, players=tuple(replace(p, policy=replace(p.policy, removal=1)) for p in config.players))


# ------------------------------------------------------------------ core §9.1 falling back


def test_core_9_1_a_squad_shot_out_of_its_combat_falls_back_and_is_no_longer_locked(dice):
    """A squad locked in combat that zombie shooting breaks falls back 2D6" and leaves the
    combat: it is no longer locked (zombie40k §6.3; core §9.1, §9.3; issue item 5)."""
    st, tb, rng = one_game(example_config("two_players"))
    locked_pair(st, tb, 0, 2)
    before = units.alive(st, 0, 0)
    st.wounds[0, 0, :3] = 0  # 3 of 11 shot down: 25% or more
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    units.refresh_radius(st, 0, 0, tb)
    y = st.pos[0, 0, 1]
    dice.script(6, 6,  # Morale: failed
                3, 3)  # fall back 2D6 = 6"
    morale.leadership_after_shooting(st, 0, 0, before, False, tb, rng)
    dice.done()
    assert st.ustate[0, 0, GL.US_FALLING_BACK] == 1 and st.pos[0, 0, 1] == pytest.approx(y - 6.0)
    assert not units.in_combat(st, 0, 0) and not units.in_combat(st, 0, 2)


# ------------------------------------------------------------------ core §6.1 step 6: Morale at the phase's end


class KillingShots:
    """Stands in for ``shoot`` in the turn module: unit u's volley kills ``kills[u]`` models of
    its target (closest first) and rolls nothing."""

    def __init__(self, kills):
        self.kills = kills
        self.order = []

    def __call__(self, st, g, u, v, tb, rng, snap_all, overwatch, skip):
        self.order.append((int(u), int(v)))
        n = self.kills.get(int(u), 0)
        for m in range(st.wounds.shape[2]):
            if n and st.wounds[g, v, m] > 0:
                st.wounds[g, v, m] = 0
                st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
                n -= 1
        units.refresh_radius(st, g, v, tb)
        return 1, self.kills.get(int(u), 0), False


def _two_hordes_shoot(st, tb, models):
    """Squad 0 (Guard) with ``models`` models; hordes 2 and 3 (autoguns) 10" from it."""
    clear_table(st, keep=(0, 2, 3))
    keep_models(st, tb, 0, models)
    put_unit(st, tb, 0, 24.0, 20.0)
    put_unit(st, tb, 2, 24.0, 20.0 + st.radius[0, 0] + st.radius[0, 2] + 10.0)
    put_unit(st, tb, 3, 36.0, 20.0 + st.radius[0, 0] + st.radius[0, 3] + 8.0)


def test_core_6_1_morale_after_shooting_counts_the_whole_phase(dice, monkeypatch):
    """At the end of the Shooting phase a unit that lost 25% of the models it had at its start
    tests Morale: 2 of 9 and then 1 of 7 are, together, 3 of 9 (issue item 6)."""
    st, tb, rng = one_game(example_config("two_players"))
    _two_hordes_shoot(st, tb, 9)
    shots = KillingShots({2: 2, 3: 1})
    monkeypatch.setattr(turn, "shoot", shots)
    dice.script(6, 6,  # Morale: failed
                3, 3)  # fall back 6"
    turn.zombie_shooting(st, 0, tb, rng)
    dice.done()
    assert shots.order == [(2, 0), (3, 0)]
    assert st.ustate[0, 0, GL.US_FALLING_BACK] == 1


def test_core_6_1_one_morale_check_per_shooting_phase(dice, monkeypatch):
    """2 of 8 and then 2 of 6: one Morale check at the end of the phase, not one per firing
    unit (issue item 6)."""
    st, tb, rng = one_game(example_config("two_players"))
    _two_hordes_shoot(st, tb, 8)
    monkeypatch.setattr(turn, "shoot", KillingShots({2: 2, 3: 2}))
    dice.script(1, 2)  # one Morale check: passed
    turn.zombie_shooting(st, 0, tb, rng)
    dice.done()
    assert st.ustate[0, 0, GL.US_FALLING_BACK] == 0


def test_core_6_1_fewer_than_25_percent_in_the_phase_no_morale_check(dice, monkeypatch):
    st, tb, rng = one_game(example_config("two_players"))
    _two_hordes_shoot(st, tb, 9)
    monkeypatch.setattr(turn, "shoot", KillingShots({2: 1, 3: 1}))  # 2 of 9
    turn.zombie_shooting(st, 0, tb, rng)
    dice.done()  # no die rolled
    assert st.ustate[0, 0, GL.US_FALLING_BACK] == 0


def _fire(st, tb, rng, u, m, v, weapon, dice=1):
    """Model m of unit u fires ``dice`` shots of the named weapon at unit v (fire_group)."""
    import numpy as np

    from sim.rulesets.zombie40k.catalogue import catalogue
    from sim.rulesets.zombie40k.compile import weapon_index

    row = tb.weapons[weapon_index(catalogue())[weapon]]
    spec, out = np.zeros_like(st.w_spec[0]), np.zeros_like(st.w_out[0])
    return shooting.fire_group(st, 0, u, m, v, row, dice, False, False, tb, rng, spec, out)


def test_core_9_4_a_pinning_weapon_s_unsaved_wound_tests_pinning_at_the_phase_end(dice):
    """A unit suffering unsaved Wounds from a Pinning weapon takes a Leadership test at the end
    of the phase; a fail Goes to Ground."""
    st, tb, rng = one_game(example_config("two_players"))
    clear_table(st, keep=(0, 2))
    put_unit(st, tb, 0, 24.0, 20.0)
    put_unit(st, tb, 2, 24.0, 20.0 + st.radius[0, 0] + st.radius[0, 2] + 10.0)
    morale.begin_shooting_phase(st, 0, tb)
    dice.script(5, 2,  # a zombie's pulse carbine: hits on 5+ (BS2), wounds T3 on 2+; AP5: no Guard save
                1)  # the sergeant's Feel No Pain (the team's USR) fails
    assert _fire(st, tb, rng, 2, 0, 0, "Pulse carbine") == 1
    dice.script(6, 6)  # 1 of 11 lost: no Morale check; Pinning test failed
    morale.end_shooting_phase(st, 0, tb, rng)
    dice.done()
    assert st.ustate[0, 0, GL.US_PINNED] == 1 and st.ustate[0, 0, GL.US_FALLING_BACK] == 0


# ------------------------------------------------------------------ zombie40k §5.4: shots into a combat


def _melee_in_the_zone(st, tb):
    """Horde 2 locked with the Marines (squad 1); the Guard (squad 0) 10" away."""
    locked_pair(st, tb, 1, 2, y=40.0, keep=(0,))
    put_unit(st, tb, 0, 24.0, st.pos[0, 2, 1] + st.radius[0, 2] + st.radius[0, 0] + 10.0)


def _fire_out(st, tb, rng, u, m, v, weapon, dice=1):
    import numpy as np

    from sim.rulesets.zombie40k.catalogue import catalogue
    from sim.rulesets.zombie40k.compile import weapon_index

    row = tb.weapons[weapon_index(catalogue())[weapon]]
    spec, out = np.zeros_like(st.w_spec[0]), np.zeros_like(st.w_out[0])
    shooting.fire_group(st, 0, u, m, v, row, dice, False, False, tb, rng, spec, out)
    return out


def test_s5_4_a_blast_into_a_combat_scatters_like_any_blast(dice):
    """A Blast fired into a combat hits the models under the marker as normal: the scatter die
    and 2D6 minus BS move it (here 12 - 3 = 9": off every model, no hit; issue item 7)."""
    st, tb, rng = one_game(example_config("two_players"))
    _melee_in_the_zone(st, tb)
    dice.script(5,  # the scatter die: an arrow
                6, 6)  # 2D6 = 12" - BS 3 = 9" of scatter
    out = _fire_out(st, tb, rng, 0, 1, 2, "Frag grenade")
    dice.done()
    assert out[L.OUT_HITS] == 0 and units.alive(st, 0, 2) == 5


def test_s5_4_a_template_into_a_combat_covers_the_template_s_models(dice):
    """A Template into a combat hits ``template_models`` (4) models of the combat, each a random
    model of it (issue item 7)."""
    st, tb, rng = one_game(example_config("two_players"))
    _melee_in_the_zone(st, tb)
    dice.script(*[0.99, 1] * 4)  # each hit: a random model (the horde's), a failed wound roll
    out = _fire_out(st, tb, rng, 0, 1, 2, "Flamer")
    dice.done()
    assert out[L.OUT_HITS] == 4


def test_s5_4_shots_into_a_combat_re_roll_to_hit_with_chuck_norris(dice):
    """The Blessing of Chuck Norris re-rolls a failed to-hit roll of a shot into a combat too
    (zombie40k §8 result 12; issue item 8)."""
    st, tb, rng = one_game(example_config("two_players"))
    _melee_in_the_zone(st, tb)
    st.pu[0, 0, GL.PU_CHUCK] = st.res[0, GL.R_TURNS]
    dice.script(1, 6,  # to hit (BS3): a 1, re-rolled: 6
                0.99,  # the hit goes to a model of the horde
                1, 1)  # to wound: a 1, re-rolled by the Blessing: 1
    out = _fire_out(st, tb, rng, 0, 1, 2, "Lasgun")
    dice.done()
    assert out[L.OUT_HITS] == 1 and out[L.OUT_UNSAVED] == 0


def test_s5_4_shots_into_a_combat_wound_with_the_firing_model_s_rules(dice):
    """A shot into a combat wounds with the rules of the model that fired it, not those of the
    squad's first model slot (dead here, with Preferred Enemy: no re-roll of the 1; issue item
    8)."""
    st, tb, rng = one_game(example_config("two_players"))
    _melee_in_the_zone(st, tb)
    st.mflags[0, 0, 0] |= L.MR_PREFERRED_ENEMY
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    st.wounds[0, 0, 0] = 0  # the sergeant is dead
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    units.refresh_radius(st, 0, 0, tb)
    dice.script(6, 0.99, 1)  # hit; the horde; to wound: a 1, not re-rolled
    out = _fire_out(st, tb, rng, 0, 1, 2, "Lasgun")
    dice.done()
    assert out[L.OUT_HITS] == 1


def test_s8_the_shotgun_power_up_into_a_combat_randomises_its_hits(dice):
    """The Shotgun power-up fired at a horde locked with another squad: each hit goes to a
    random model of the combat; on a zombie it removes a Wound, on a survivor it is the
    appendix Shotgun (S3 AP-; zombie40k §5.4, §8 result 8; issue item 8)."""
    st, tb, rng = one_game(example_config("two_players"))
    _melee_in_the_zone(st, tb)
    keep_models(st, tb, 0, 1)  # only the sergeant fires: the shotgun
    put_unit(st, tb, 0, 24.0, st.pos[0, 2, 1] + st.radius[0, 2] + st.radius[0, 0] + 10.0)
    st.mpow[0, 0, 0] |= GL.MP_SHOTGUN
    marines = units.alive(st, 0, 1)
    dice.script(2, 2,  # two shots hit on 2+
                0.0, 1,  # the first hit: a Marine; the appendix Shotgun wounds T4 on 5+: a 1
                0.99)  # the second: a zombie, which loses its Wound
    shooting.shoot(st, 0, 0, 2, tb, rng, False, False, -1)
    dice.done()
    assert units.alive(st, 0, 2) == 4 and units.alive(st, 0, 1) == marines


def test_s8_the_shotgun_power_up_is_the_appendix_shotgun_against_players(dice):
    """Against another player's squad the Shotgun power-up is the appendix Shotgun (12" S3 AP-
    Assault 2, the firer's BS): a sergeant's laspistol gives way to it (issue item 8)."""
    import numpy as np

    from sim.rulesets.zombie40k.catalogue import catalogue
    from sim.rulesets.zombie40k.compile import weapon_index

    st, tb, rng = one_game(example_config("two_players"))
    clear_table(st, keep=(0, 1))
    put_unit(st, tb, 0, 24.0, 40.0)
    put_unit(st, tb, 1, 24.0, 40.0 + st.radius[0, 0] + st.radius[0, 1] + 8.0)
    spec = np.zeros_like(st.w_spec[0])
    index = weapon_index(catalogue())
    assert shooting.best_weapon(st, 0, 0, 0, 1, tb, spec, False)[0] == index["Laspistol"]
    st.mpow[0, 0, 0] |= GL.MP_SHOTGUN
    w, shots, _, _ = shooting.best_weapon(st, 0, 0, 0, 1, tb, spec, False)
    assert w == index["Shotgun"] and shots == 2


# ------------------------------------------------------------------ core §9.4 Going to Ground


def test_core_9_4_a_squad_gone_to_ground_has_a_6_plus_cover_save(dice):
    """A pinned squad Goes to Ground: +1 cover save, 6+ in the open (issue item 12). A plasma gun
    (AP2) leaves a Marine no armour save, and the 6+ saves it."""
    st, tb, rng = one_game(example_config("two_players"))
    clear_table(st, keep=(0, 1))
    put_unit(st, tb, 0, 24.0, 20.0)
    put_unit(st, tb, 1, 24.0, 20.0 + st.radius[0, 0] + st.radius[0, 1] + 10.0)
    st.ustate[0, 1, GL.US_PINNED] = 1
    dice.script(4, 2,  # the plasma gun hits (BS3: 4+) and wounds T4 on 2+
                6)  # the cover save of a squad gone to ground: 6+
    assert _fire(st, tb, rng, 0, 2, 1, "Plasma gun") == 0
    dice.done()
    assert units.alive(st, 0, 1) == 4


def test_core_9_4_in_the_open_a_squad_not_gone_to_ground_has_no_cover(dice):
    st, tb, rng = one_game(example_config("two_players"))
    clear_table(st, keep=(0, 1))
    put_unit(st, tb, 0, 24.0, 20.0)
    put_unit(st, tb, 1, 24.0, 20.0 + st.radius[0, 0] + st.radius[0, 1] + 10.0)
    dice.script(4, 2)  # no save at all
    assert _fire(st, tb, rng, 0, 2, 1, "Plasma gun") == 1
    dice.done()


# ------------------------------------------------------------------ A19 grudges


@pytest.mark.parametrize(("random_hits_count", "grudge"), [(True, 1), (False, 0)])
def test_a19_a_random_hit_on_a_rival_in_a_combat_sets_its_grudge(dice, random_hits_count, grudge):
    """A19: a grudge is set when any hit roll is made against you, random hits from shooting into
    a combat included: the Guard shoot the horde fighting the Marines and a hit lands on a Marine,
    so the Marines may shoot the Guard (issue item 19; the other reading:
    grudge_from_random_hits = false)."""
    st, tb, rng = one_game(example_config("two_players", grudge_from_random_hits=random_hits_count))
    _melee_in_the_zone(st, tb)
    dice.script(6,  # the lasgun hits
                0.0,  # on a Marine
                1)  # and does not wound
    _fire_out(st, tb, rng, 0, 1, 2, "Lasgun")
    dice.done()
    assert st.grudge[0, 1, 0] == grudge and st.grudge[0, 0, 1] == 0


# ------------------------------------------------------------------ core §12 Blind: until the end of their next turn


def _blind(dice, st, u):
    st.ustate[0, u, GL.US_BLIND_HIT] = 1
    dice.script(6)  # the Initiative test: a 6 always fails
    morale.blind_tests(st, 0, None)
    assert shooting.is_blinded(st, 0, u)


def test_core_12_zombies_blinded_in_a_player_turn_recover_after_their_zombie_turn(dice):
    """Blind: WS 1 and BS 1 until the end of the unit's next turn; for a horde blinded in a
    Player Turn that is the Zombie Turn of the same game turn."""
    st, tb, rng = one_game(example_config("two_players"))
    clear_table(st, keep=(2, 3, 4, 5, units.boss_unit(st)))  # no squad: the Zombie Turn is quiet
    _blind(dice, st, 2)
    dice.script(1, 1)  # the Shamble roll (nobody to shamble at)
    turn.zombie_turn(st, 0, tb, rng, False)
    dice.done()
    assert not shooting.is_blinded(st, 0, 2)


def test_core_12_a_squad_blinded_in_the_zombie_turn_stays_blind_through_its_next_turn(dice):

    st, tb, rng = one_game(team_config("guard", "marines", policies=[{"run": 0}, {"run": 0}]))
    clear_table(st, keep=(0,))
    put_unit(st, tb, 0, 24.0, 20.0)
    _blind(dice, st, 0)  # in the Zombie Turn of game turn 1
    st.res[0, GL.R_TURNS] = 2
    assert shooting.is_blinded(st, 0, 0)  # in the Marines' turn before its own
    turn.player_turn(st, 0, 0, tb, rng, False)
    dice.done()
    assert not shooting.is_blinded(st, 0, 0)


def test_core_6_1_losing_exactly_25_percent_in_a_shooting_phase_tests_morale(dice, monkeypatch):
    """25% or more: 2 of 8 is enough; the failed test makes the squad fall back."""
    st, tb, rng = one_game(example_config("two_players"))
    _two_hordes_shoot(st, tb, 8)
    monkeypatch.setattr(turn, "shoot", KillingShots({2: 2}))
    dice.script(6, 6,  # the Morale check: failed
                3, 3)  # fall back 6"
    turn.zombie_shooting(st, 0, tb, rng)
    dice.done()
    assert st.ustate[0, 0, GL.US_FALLING_BACK] == 1


def _shotgun_sergeant(st, tb, gap_in):
    """The Guard sergeant alone holds the Shotgun power-up, ``gap_in`` from a horde of 5 in the open."""
    clear_table(st, keep=(0, 2))
    keep_models(st, tb, 0, 1)
    put_unit(st, tb, 2, 24.0, 40.0)
    put_unit(st, tb, 0, 24.0, 40.0 - st.radius[0, 2] - st.radius[0, 0] - gap_in)
    st.mpow[0, 0, 0] |= GL.MP_SHOTGUN


def test_s8_duct_tape_s_extra_shot_counts_for_the_shotgun_power_up(dice):
    """Duct Tape's "+1 shot" on the Shotgun holder: the Shotgun fires 3 shots, not 2 (zombie40k
    §8 results 5 and 8, A31; issue 27 item 3)."""
    st, tb, rng = one_game(example_config("two_players"))
    _shotgun_sergeant(st, tb, 10.0)
    st.mpow[0, 0, 0] |= GL.MP_DUCT_SHOT
    dice.script(2, 2, 2)  # three shots hit on 2+; each hit removes a zombie's Wound
    shooting.shoot(st, 0, 0, 2, tb, rng, False, False, -1)
    dice.done()
    assert units.alive(st, 0, 2) == 2


def test_s8_the_shotgun_power_up_fires_overwatch(dice):
    """In Overwatch the Shotgun holder fires the Shotgun (2 shots at 2+: it ignores the firer's BS,
    so Snap Shots do not lower it), not his laspistol (zombie40k §8 result 8; issue 27 item 3)."""
    st, tb, rng = one_game(example_config("two_players"))
    _shotgun_sergeant(st, tb, 6.0)
    dice.script(2, 2)  # two shots hit on 2+; each removes a zombie's Wound
    shooting.shoot(st, 0, 0, 2, tb, rng, True, True, -1)
    dice.done()
    assert units.alive(st, 0, 2) == 3
