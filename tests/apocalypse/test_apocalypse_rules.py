"""Zombie Apocalypse rules with hand-fed dice (the root conftest's ``dice`` fixture runs every kernel
as plain Python and feeds ``d6``/``uniform`` from a script): Resilience, Hordes, Dull Witted, The
Plague, Unstoppable Juggernaut!, the Juggernaut exchange, the noise table, spawners, the Warlord
traits, morale and challenges (zombie-apocalypse §4-§10, core-7th-edition §16)."""

from __future__ import annotations

import numpy as np
import pytest
from apocalypse_helpers import put_horde, put_unit, table, warlord

import kernels.apocalypse.assault as assault
import kernels.apocalypse.combat as combat
import kernels.apocalypse.hordes as hordes
import kernels.apocalypse.movement as movement
import kernels.apocalypse.noise as noise
import kernels.apocalypse.strike as strike
import kernels.apocalypse.units as units
import kernels.apocalypse.zombies as zombies
import kernels.w40k.attack_spec as attack_spec
from kernels.apocalypse import columns as C
from kernels.apocalypse.state import N_OUT_A
from kernels.w40k import columns as L
from sim.rulesets.apocalypse.catalogue import catalogue
from sim.w40k.tables import weapon_row


def _row(name: str) -> np.ndarray:
    return weapon_row(catalogue().weapon(name))


def _out() -> np.ndarray:
    return np.zeros(N_OUT_A, np.int64)


def _shot_spec(tb, weapon: str, t: int = 2) -> np.ndarray:
    """A Tactical Marine's shooting spec with ``weapon`` at a unit of Toughness t."""
    spec = np.zeros(L.N_SPEC, np.int64)
    stats = np.array([4, 4, 4, 4, 1, 4, 1, 8, 3, 7, 7, 7, 7], np.int16)
    attack_spec.shooting_spec(spec, _row(weapon), stats, 0, t, L.NONE, False, False, 0, tb.wound_chart, tb.geom)
    return spec


# ------------------------------------------------------------------ Resilience and Hordes (§5)


@pytest.mark.parametrize("models, inv", [(9, 6), (10, 5), (20, 4), (30, 3), (40, 2), (75, 2)])
def test_resilience_improves_the_invulnerable_save_by_one_per_ten_models(dice, models, inv):
    _, tb, st, rng = table()
    h = put_horde(st, tb, 24, 24, models)
    assert st.hst[0, h, C.HS_K] == models // 10
    spec = _shot_spec(tb, "Boltgun")
    dice.script(inv)  # the save roll: exactly the needed number saves
    strike.wound_horde(rng, 0, spec, spec[L.SP_AP], st, h, strike.CLS_ZOMBIE, -1, L.NONE, tb, _out())
    assert st.hst[0, h, C.HS_Z] == models
    dice.script(inv - 1)  # one less fails: the Zombie is removed
    strike.wound_horde(rng, 0, spec, spec[L.SP_AP], st, h, strike.CLS_ZOMBIE, -1, L.NONE, tb, _out())
    dice.done()
    assert st.hst[0, h, C.HS_Z] == models - 1


def test_resilience_falls_only_at_the_end_of_the_phase(dice):
    _, tb, st, rng = table()
    h = put_horde(st, tb, 24, 24, 20)
    spec = _shot_spec(tb, "Boltgun")
    dice.script(3)  # 4+ needed: killed, 19 left
    strike.wound_horde(rng, 0, spec, spec[L.SP_AP], st, h, strike.CLS_ZOMBIE, -1, L.NONE, tb, _out())
    assert hordes.horde_inv(st, 0, h, tb) == 4  # still 4+ for the rest of the phase
    hordes.settle_bonus(st, 0, h, tb)
    assert hordes.horde_inv(st, 0, h, tb) == 5
    dice.done()


def test_growth_counts_at_once_and_hordes_within_2_inches_merge(dice):
    _, tb, st, _ = table()
    a = put_horde(st, tb, 10, 10, 9)
    b = put_horde(st, tb, 10 + hordes.disc_radius(9, 0.5, 1.25) + hordes.disc_radius(2, 0.5, 1.25) + 1.9, 10, 2)
    far = put_horde(st, tb, 40, 40, 5)
    assert st.hst[0, a, C.HS_K] == 0
    assert hordes.merge_hordes(st, 0, tb) == 1
    kept = a if hordes.is_alive(st, 0, a) else b
    assert hordes.horde_models(st, 0, kept) == 11 and st.hst[0, kept, C.HS_K] == 1  # Resilience at once
    assert hordes.is_alive(st, 0, far) and hordes.horde_models(st, 0, far) == 5


@pytest.mark.parametrize("base_s, k, first, stack, strength", [
    (2, 0, False, False, 2), (2, 3, False, False, 5), (2, 12, False, False, 10), (3, 4, False, False, 7),
    (4, 2, True, False, 6), (4, 2, True, True, 8),
])
def test_hordes_strength_bonus_is_capped_at_10(dice, base_s, k, first, stack, strength):
    _, tb, _, _ = table()
    assert strike.zombie_strength(base_s, k, stack, first, tb) == strength


@pytest.mark.parametrize("k, stack, inv", [(0, False, 5), (1, False, 4), (3, False, 2), (5, False, 2), (1, True, 3)])
def test_first_zombie_invulnerable_save(k, stack, inv):
    assert hordes.first_zombie_inv(k, 5, 2, stack) == inv


def test_resilience_cap_is_a_parameter():
    assert hordes.resilience_inv(9, 6, 2) == 2
    assert hordes.resilience_inv(9, 6, 3) == 3  # A22's alternative


# ------------------------------------------------------------------ Unstoppable Juggernaut! and the exchange (§5, §9.1)


@pytest.mark.parametrize("zombies, brutes, juggs, active", [
    (10, 0, 1, True), (11, 0, 1, False), (20, 0, 2, True), (15, 5, 2, True), (16, 5, 2, False), (0, 0, 0, False),
    (0, 0, 1, True),
])
def test_juggernaut_ratio(zombies, brutes, juggs, active):
    assert hordes.juggernaut_bonus(zombies, brutes, juggs, 10) == active


@pytest.mark.parametrize("batch, z, b, j, policy, juggs", [
    (10, 0, 0, 0, 2, 3),  # maximise: 3 Juggernauts + 1 Zombie
    (10, 0, 0, 0, 1, 1),  # keep the ratio: 1 Juggernaut for 7 Zombies
    (13, 0, 0, 0, 1, 1), (14, 0, 0, 0, 1, 2),
    (10, 30, 0, 3, 1, 1),  # joining 30 Zombies and 3 Juggernauts: 1 more keeps 4 x 10 >= 37
    (5, 0, 0, 2, 1, 0),  # the horde it joins already holds the ratio
    (10, 0, 0, 0, 0, 0),  # no exchange
    (2, 0, 0, 0, 2, 0),  # too few to give up 3
])
def test_juggernaut_exchange(batch, z, b, j, policy, juggs):
    got = hordes.exchange_juggernauts(batch, z, b, j, policy, 3, 10)
    assert got == juggs
    if policy == 1 and got:
        assert (j + got) * 10 >= z + b + batch - 3 * got and (j + got - 1) * 10 < z + b + batch - 3 * (got - 1)


def test_the_seed_example_ten_become_two_juggernauts_and_four_zombies():
    assert 10 - 3 * 2 == 4 and hordes.exchange_juggernauts(10, 0, 0, 0, 2, 3, 10) >= 2


def test_juggernaut_bonus_gives_every_model_plus_one_toughness_and_fnp_but_not_the_juggernauts(dice):
    _, tb, st, _ = table()
    h = put_horde(st, tb, 24, 24, 10, 1)
    sv, inv, t, fnp, ew, left = strike.defence(st, 0, h, strike.CLS_ZOMBIE, -1, tb)
    assert (t, fnp) == (3, 6)
    _, _, t, fnp, _, left = strike.defence(st, 0, h, strike.CLS_JUGGERNAUT, -1, tb)
    assert (t, fnp, left) == (4, 6, 2)  # printed T4 includes the +1
    st.hst[0, h, C.HS_Z] = 11  # 1 per 10 no longer holds
    _, _, t, fnp, _, _ = strike.defence(st, 0, h, strike.CLS_ZOMBIE, -1, tb)
    assert (t, fnp) == (2, L.NONE)


def test_a_hurt_juggernaut_takes_the_next_wound(dice):
    _, tb, st, rng = table(allocation="zombies_first")
    h = put_horde(st, tb, 24, 24, 0, 2)
    spec = _shot_spec(tb, "Boltgun", t=4)
    dice.script(1, 1)  # no save; a 6+ Feel No Pain fails
    strike.wound_horde(rng, 0, spec, spec[L.SP_AP], st, h, strike.CLS_JUGGERNAUT, -1, L.NONE, tb, _out())
    assert (st.hst[0, h, C.HS_J], st.hst[0, h, C.HS_JH]) == (2, 1)
    dice.script(1)  # the ratio is gone with no Zombies? 2 x 10 >= 0: still active, FNP rolled
    dice.script(1)
    strike.wound_horde(rng, 0, spec, spec[L.SP_AP], st, h, strike.CLS_JUGGERNAUT, -1, L.NONE, tb, _out())
    dice.done()
    assert (st.hst[0, h, C.HS_J], st.hst[0, h, C.HS_JH]) == (1, 0)


# ------------------------------------------------------------------ Dull Witted (§5, A21)


def _marines(st, tb, x=20.0, y=20.0):
    return put_unit(st, tb, 1, x, y)  # the Tactical Squad of the one-player example (WS4, T4, 3+)


@pytest.mark.parametrize("dull, first_die, hits", [(True, 5, 0), (True, 6, 1), (False, 4, 1), (False, 3, 0)])
def test_dull_witted_zombies_hit_a_higher_ws_only_on_a_6(dice, dull, first_die, hits):
    _, tb, st, rng = table()
    u = _marines(st, tb)
    out = _out()
    dice.script(first_die)
    if hits:
        dice.script(1)  # the wound roll fails
    combat.zombie_attacks(rng, 0, st, u, 1, tb.zstats[C.ZK_ZOMBIE], tb.zflags[C.ZK_ZOMBIE], tb.weapons[tb.ids[0]], 2,
                          dull, False, False, False, tb, out)
    dice.done()
    assert out[L.OUT_HITS] == hits


def test_dull_witted_does_not_apply_against_an_equal_ws_nor_after_a_failed_fear_test(dice):
    assert not strike.hits_only_on_six(True, 2, 2) and not strike.hits_only_on_six(True, 2, 1)
    assert strike.hits_only_on_six(True, 2, 3) and not strike.hits_only_on_six(False, 2, 9)
    _, tb, st, rng = table()
    u = _marines(st, tb)
    st.ust[0, u, C.US_FEAR_WS1] = 1  # WS 1: zombies (WS 2) hit on 3+
    assert combat.target_ws(st, 0, u) == 1
    out = _out()
    dice.script(3, 1)
    combat.zombie_attacks(rng, 0, st, u, 1, tb.zstats[C.ZK_ZOMBIE], tb.zflags[C.ZK_ZOMBIE], tb.weapons[tb.ids[0]], 2,
                          True, False, False, False, tb, out)
    dice.done()
    assert out[L.OUT_HITS] == 1


def test_zombie_wounds_are_counted_for_the_plague(dice):
    _, tb, st, rng = table()
    u = _marines(st, tb)
    dice.script(6, 2)  # hit on a 6, wound S5 v T4 on 3+: a 2 fails
    out = _out()
    combat.zombie_attacks(rng, 0, st, u, 1, tb.zstats[C.ZK_ZOMBIE], tb.zflags[C.ZK_ZOMBIE], tb.weapons[tb.ids[0]], 5,
                          True, False, False, False, tb, out)
    dice.script(6, 3, 2)  # hit, wound on 3+, the 3+ armour save fails on a 2
    lost = combat.zombie_attacks(rng, 0, st, u, 1, tb.zstats[C.ZK_ZOMBIE], tb.zflags[C.ZK_ZOMBIE],
                                 tb.weapons[tb.ids[0]], 5, True, False, False, False, tb, out)
    dice.done()
    assert lost == 1 and st.wounds[0, u, 0] == 0
    assert st.minfo[0, u, 0, C.MI_ZW] == 1 and st.minfo[0, u, 0, C.MI_ZW_TURN] == 1


# ------------------------------------------------------------------ The Plague (§5, A23)


@pytest.mark.parametrize("die, ic, wounds, turns", [
    (5, False, 1, True), (4, False, 1, False), (6, True, 1, True), (5, True, 1, False), (5, True, 2, True),
    (4, True, 2, False), (3, True, 4, True), (1, True, 6, True),
])
def test_plague_roll(die, ic, wounds, turns):
    assert assault.plague_turns(die, ic, wounds, 5, 6) == turns


def _combat(st, units_, hordes_):
    st.w_cu[:len(units_)] = units_
    st.w_ch[:len(hordes_)] = hordes_
    for u in units_:
        for h in hordes_:
            st.lock[0, u, h] = 1


def test_a_killed_model_that_passes_the_plague_rises_as_a_brute(dice):
    _, tb, st, rng = table()
    u = _marines(st, tb)
    h = put_horde(st, tb, 24, 20, 15)
    _combat(st, [u], [h])
    st.wounds[0, u, 0] = 0  # killed by zombies this combat
    st.minfo[0, u, 0, C.MI_ZW] = st.minfo[0, u, 0, C.MI_ZW_TURN] = 1
    st.minfo[0, u, 1, C.MI_ZW] = st.minfo[0, u, 1, C.MI_ZW_TURN] = 1  # wounded, killed too
    st.wounds[0, u, 1] = 0
    dice.script(5, 4)  # the first rises, the second does not
    assault.plague(rng, 0, st, 1, 1, tb, C.PH_Z_ASSAULT)
    dice.done()
    assert st.hst[0, h, C.HS_B] == 1 and st.res[0, C.R_BRUTES] == 1
    s = int(np.flatnonzero(st.skind[0] == C.SK_BRUTE)[0])
    brute = st.sstats[0, s]
    assert (brute[L.WS], brute[L.BS], brute[L.I], brute[L.LD]) == (2, 0, 3, 5)
    assert (brute[L.S], brute[L.T], brute[L.SV], brute[L.W]) == (4, 4, 3, 1)  # host's S, T, armour; half W (1)
    assert st.sh[0, s] == h and list(st.sgear[0, s]) == list(st.gear[0, u, 0])  # keeps its wargear
    assert st.sflags[0, s] == tb.zflags[C.ZK_BRUTE]  # none of the host's rules (ATSKNF gone)
    assert st.minfo[0, u, 0, C.MI_ZW] == 0 and st.minfo[0, u, 1, C.MI_ZW] == 0


def test_an_independent_character_adds_the_wounds_after_the_first(dice):
    _, tb, st, rng = table()
    u = put_unit(st, tb, 0, 20, 20)  # the Captain (an IC, the Warlord, W3)
    h = put_horde(st, tb, 24, 20, 15)
    _combat(st, [u], [h])
    warlord(st, tb)
    st.wounds[0, u, 0] = 1  # alive, two unsaved wounds from zombies this turn
    st.minfo[0, u, 0, C.MI_ZW] = st.minfo[0, u, 0, C.MI_ZW_TURN] = 2
    dice.script(5)  # 5 + 1 = 6: he rises
    assault.plague(rng, 0, st, 1, 1, tb, C.PH_Z_ASSAULT)
    dice.done()
    assert st.wounds[0, u, 0] == 0 and st.pres[0, 0, C.PR_WL_FATE] == C.WL_BRUTE
    s = int(np.flatnonzero(st.skind[0] == C.SK_BRUTE)[0])
    assert st.swounds[0, s] == 2 and st.sstats[0, s, L.INV] == 4  # half of 3 W rounded up; iron halo kept


# ------------------------------------------------------------------ the noise table (§9.3)


def test_noise_of_each_weapon_type(dice):
    _, tb, _, rng = table()  # one player: N = 1
    assert noise.noise_of_weapon(rng, 0, _row("Bolt pistol"), tb) == (1, C.SRC_PISTOL)
    assert noise.noise_of_weapon(rng, 0, _row("Storm bolter"), tb) == (2, C.SRC_ASSAULT)
    dice.script(5)  # D3 = 3
    assert noise.noise_of_weapon(rng, 0, _row("Boltgun"), tb) == (3, C.SRC_RAPID_FIRE)
    dice.script(1, 6)  # 2D3 = 1 + 3, + N
    assert noise.noise_of_weapon(rng, 0, _row("Heavy bolter"), tb) == (5, C.SRC_HEAVY)
    assert noise.noise_of_weapon(rng, 0, _row("Flamer"), tb) == (6, C.SRC_TEMPLATE)  # Assault 2 + 4
    assert noise.noise_of_weapon(rng, 0, _row("Hand flamer"), tb) == (5, C.SRC_TEMPLATE)  # Pistol 1 + 4
    dice.script(2, 3)  # Salvo counts as Heavy by default: 2D3 + N
    assert noise.noise_of_weapon(rng, 0, _row("Grav-gun"), tb) == (4, C.SRC_HEAVY)
    assert noise.noise_of_weapon(rng, 0, _row("Chainsword"), tb) == (0, -1)
    dice.done()


def test_heavy_noise_adds_the_player_count(dice):
    _, tb, _, rng = table("four_players")
    dice.script(1, 1)
    assert noise.noise_of_weapon(rng, 0, _row("Heavy bolter"), tb) == (6, C.SRC_HEAVY)
    _, tb, _, rng = table("four_players", players_bonus="none")
    dice.script(1, 1)
    assert noise.noise_of_weapon(rng, 0, _row("Heavy bolter"), tb) == (2, C.SRC_HEAVY)
    dice.done()


def test_reroll_psychic_and_overwatch_noise(dice):
    _, tb, _, rng = table()
    dice.script(3)
    assert noise.reroll_noise(rng, 0, tb) == 2
    assert noise.psychic_noise(rng, 0, 0, False, tb) == 2  # no weapon type: 2
    dice.script(6)  # a Rapid Fire power: half of D3 = 3, rounded up
    assert noise.psychic_noise(rng, 0, L.K_RAPID_FIRE, True, tb) == 2
    assert noise.psychic_noise(rng, 0, L.K_ASSAULT, True, tb) == 1
    assert [noise.overwatch_noise(t) for t in (0, 1, 4, 5, 11)] == [0, 1, 2, 3, 6]
    dice.done()


@pytest.mark.parametrize("utype, moved, models, script, expected", [
    (C.UT_INFANTRY, 6.0, 10, (), 0), (C.UT_INFANTRY, 7.0, 7, (), 4), (C.UT_INFANTRY, 9.5, 10, (), 5),
    (C.UT_JUMP, 12.0, 5, (6,), 5), (C.UT_JUMP, 12.5, 5, (6, 1), 8), (C.UT_BIKE, 12.0, 3, (1, 1, 1), 6),
    (C.UT_INFANTRY, 13.0, 10, (3,), 9),
])
def test_movement_noise(dice, utype, moved, models, script, expected):
    _, tb, _, rng = table()
    dice.script(*script)
    amount, done6, done12 = noise.movement_noise(rng, 0, utype, moved, models, False, False, tb)
    dice.done()
    assert amount == expected and done6 == (moved > 6) and done12 == (moved > 12)


def test_each_movement_threshold_makes_noise_once_a_turn(dice):
    _, tb, _, rng = table()
    assert noise.movement_noise(rng, 0, C.UT_JUMP, 12.0, 5, True, False, tb)[0] == 0


def test_noise_comes_on_at_the_closest_edge_near_the_unit(dice):
    _, tb, st, _ = table(exchange="none")
    u = _marines(st, tb, 10.0, 30.0)
    found, x, y = noise.edge_spot(st, 0, 3, 30.0, 4, tb)  # the left edge
    assert found and x <= 3.0 and abs(y - 30.0) < 1e-9
    st.w_noise[u] = 4
    noise.place_phase_noise(st, 0, tb, C.PH_SHOOTING)
    h = int(np.flatnonzero(st.hst[0, :, C.HS_ALIVE])[0])
    assert hordes.horde_models(st, 0, h) == 4 and st.hpos[0, h, 0] <= 3.0 and abs(st.hpos[0, h, 1] - 30.0) < 1e-9


# ------------------------------------------------------------------ spawners (§10)


def test_a_model_stopping_in_a_spawner_is_removed_and_never_rises(dice):
    _, tb, st, rng = table()
    u = put_unit(st, tb, 0, 30, 30)  # the lone Captain, the Warlord
    warlord(st, tb)
    st.spos[0, 0] = 30, 30
    st.sst[0, 0, C.SS_ALIVE] = 1
    movement.spawner_deaths(rng, 0, st, u, tb, C.PH_MOVEMENT)  # no dice: no saves, no blast on an empty unit
    dice.done()
    assert not units.unit_alive(st, 0, u) and st.pres[0, 0, C.PR_WL_FATE] == C.WL_SPAWNER
    assert st.res[0, C.R_SPAWNER_DEATHS] == 1 and st.res[0, C.R_BRUTES] == 0


def test_the_spawner_blast_hits_the_rest_of_the_unit(dice):
    _, tb, st, rng = table()
    u = _marines(st, tb, 30, 30)
    st.spos[0, 0] = 30 + st.urad[0, u] + 2.5 - 0.2, 30  # just touching: one model inside
    st.sst[0, 0, C.SS_ALIVE] = 1
    dice.script(*([1] * 6))  # the blast: 6 automatic hits at S5 (of the 9 left), every wound roll fails
    movement.spawner_deaths(rng, 0, st, u, tb, C.PH_MOVEMENT)
    dice.done()
    assert units.models_alive(st, 0, u) == 9


def test_spawner_aura_wounds_with_no_save_and_tests_fear(dice):
    _, tb, st, rng = table("three_players")  # Ulthwe's Guardians: no ATSKNF, Ld 8
    u = put_unit(st, tb, 2, 20, 20)
    st.spos[0, 0] = 20 + st.urad[0, u] + 2.5 + 1.0, 20  # the spawner's edge 1" from the unit
    st.sst[0, 0, C.SS_ALIVE] = 1
    n = units.models_alive(st, 0, u)
    dice.script(6, 3)  # Fear on Ld 8 - 1: 9 fails
    zombies.spawner_aura(rng, 0, st, tb)
    dice.done()
    hit = st.res[0, C.R_AURA_WOUNDS]
    assert 0 < hit <= n and units.models_alive(st, 0, u) == n - hit  # 1-W models: one dies per wound
    assert st.ust[0, u, C.US_AURA_WS1] == 1


def test_aura_fear_passes_with_atsknf_even_at_ld_minus_one():
    assert zombies.aura_fear_passes(12, 8, 1, True)
    assert not zombies.aura_fear_passes(8, 8, 1, False) and zombies.aura_fear_passes(7, 8, 1, False)


# ------------------------------------------------------------------ Warlord traits (§7)


def test_tenacity_gives_the_warlords_unit_feel_no_pain(dice):
    assert units.tenacity_fnp(L.NONE) == 5 and units.tenacity_fnp(5) == 4 and units.tenacity_fnp(6) == 4
    _, tb, st, _ = table()
    u = put_unit(st, tb, 0, 20, 20)
    tb.policy[0, C.POL_TRAIT] = C.TRAIT_TENACITY
    warlord(st, tb)
    assert st.stats[0, u, 0, L.FNP] == 5
    tb.policy[0, C.POL_TRAIT] = C.TRAIT_NONE
    warlord(st, tb)
    assert st.stats[0, u, 0, L.FNP] == L.NONE


def test_master_of_defence_gives_the_detachment_counter_attack_while_the_warlord_lives(dice):
    _, tb, st, _ = table()
    w = put_unit(st, tb, 0, 5, 5)
    u = _marines(st, tb)
    tb.policy[0, C.POL_TRAIT] = C.TRAIT_DEFENCE
    warlord(st, tb)
    assert st.mflags[0, u, 0] & L.MR_COUNTER_ATTACK
    st.wounds[0, w, 0] = 0
    st.ust[0, w, C.US_ALIVE] = 0
    warlord(st, tb)
    assert not st.mflags[0, u, 0] & L.MR_COUNTER_ATTACK


def test_inspiring_presence_lends_the_warlords_leadership_within_12(dice):
    _, tb, st, _ = table("two_players")  # Cadians: Lord Commissar (Ld 10) and Guardsmen (Ld 8 sergeant)
    w = put_unit(st, tb, 4, 20, 20)
    u = put_unit(st, tb, 5, 20 + 10, 20)
    tb.policy[1, C.POL_TRAIT] = C.TRAIT_INSPIRING
    warlord(st, tb)
    assert st.ust[0, w, C.US_OWNER] == 1 and units.unit_leadership(st, 0, u, tb) == 10
    st.upos[0, u] = 45, 45
    assert units.unit_leadership(st, 0, u, tb) == 8


def test_legendary_fighter_adds_an_automatic_hit_per_attack(dice):
    _, tb, st, rng = table()
    u = put_unit(st, tb, 0, 20, 20)  # the Captain: A3, +1 for chainsword and pistol... power sword here
    h = put_horde(st, tb, 20 + 3, 20, 30)
    tb.policy[0, C.POL_TRAIT] = C.TRAIT_LEGENDARY
    warlord(st, tb)
    _combat(st, [u], [h])
    assault.prepare_strikes(st, 0, 1, 1, 1, tb)
    attacks = st.w_ma[u, 0]
    step = st.w_mi[u, 0]
    dice.script(*([1] * attacks))  # every attack misses: the automatic hits still land
    dice.script(*([1] * attacks))  # and each fails to wound
    assault.player_strikes(rng, 0, st, 1, 1, 1, step, False, tb)
    dice.done()
    assert attacks == 4  # A3, +1 for two melee weapons (power sword and bolt pistol)


# ------------------------------------------------------------------ morale, sweeps, challenges (core §7, §16)


@pytest.mark.parametrize("d1, d2, ld, mod, stubborn, fearless, passes", [
    (4, 4, 10, 2, False, False, True), (5, 4, 10, 2, False, False, False), (5, 4, 10, 2, True, False, True),
    (1, 1, 2, 9, False, False, True), (6, 6, 2, 9, False, True, True),
])
def test_morale(d1, d2, ld, mod, stubborn, fearless, passes):
    assert assault.morale_passes(d1, d2, ld, mod, stubborn, fearless) == passes


def test_sweeping_advance_ties_go_to_the_winner():
    assert assault.sweep_caught(7, 7) and not assault.sweep_caught(6, 7)


def test_challenges_are_refused_when_no_zombie_may_fight_one():
    assert assault.challenge_outcome(False, True, True) == assault.CH_NONE
    assert assault.challenge_outcome(True, False, True) == assault.CH_REFUSED
    assert assault.challenge_outcome(True, True, False) == assault.CH_REFUSED  # No Guts, No Glory!
    assert assault.challenge_outcome(True, True, True) == assault.CH_ACCEPTED
    assert not assault.zombies_may_fight_challenge(None, 0, 0)


def test_precision_strikes_go_to_the_warlord_unless_look_out_sir(dice):
    _, tb, st, rng = table()
    w = put_unit(st, tb, 0, 5, 5)
    u = _marines(st, tb)
    movement.move_model(st, 0, w, 0, u, tb)  # the Captain joins the Tactical Squad (its last slot)
    tb.policy[0, C.POL_TRAIT] = C.TRAIT_NONE  # (auto would take Tenacity: a Feel No Pain roll)
    warlord(st, tb)
    c = strike.character_target(st, 0, u)
    assert st.minfo[0, u, c, C.MI_WARLORD] == 1
    spec = np.zeros(L.N_SPEC, np.int64)
    attack_spec.melee_spec(spec, tb.weapons[tb.ids[0]], tb.zstats[C.ZK_FIRST], tb.zflags[C.ZK_FIRST], 4, 4, 3,
                           False, False, 0, tb.ws_chart, tb.wound_chart)
    out = _out()
    dice.script(6, 1, 6, 1)  # a 6 to hit; Look Out, Sir fails on a 1; a 6 to wound (Rending: AP2); the 4++ fails
    strike.precise_strikes(rng, 0, 1, spec, st, u, tb, out)
    dice.done()
    assert st.wounds[0, u, c] == 2 and st.wounds[0, u, 0] == 1


def test_falling_back_off_the_closest_edge_removes_the_unit(dice):
    _, tb, st, rng = table()
    u = _marines(st, tb, 4.0, 24.0)  # radius about 3": its nearest model 1" from the left edge
    warlord(st, tb)
    dice.script(6, 6)  # 12": every model goes past the edge
    movement.fall_back(rng, 0, st, u, tb, C.PH_ASSAULT)
    dice.done()
    assert not units.unit_alive(st, 0, u)


def test_falling_back_to_the_edge_loses_the_models_that_go_past_it(dice):
    _, tb, st, rng = table()
    u = _marines(st, tb, 12.0, 24.0)
    r = st.urad[0, u]
    dice.script(6, 5)  # 11": the disc's near side 12 - r from the edge
    movement.fall_back(rng, 0, st, u, tb, C.PH_ASSAULT)
    dice.done()
    expected = movement.models_off_table(10, r, 12.0 - r, 11.0)
    assert 0 < expected < 10 and units.models_alive(st, 0, u) == 10 - expected
    assert abs(st.upos[0, u, 0] - st.urad[0, u]) < 1e-9  # the rest stop at the edge


@pytest.mark.parametrize("n, r, gap, roll, gone", [(10, 3.0, 1.0, 0.5, 0), (10, 3.0, 1.0, 7.0, 10), (10, 3.0, 1.0,
                                                                                                      4.0, 5),
                                                  (1, 0.5, 2.0, 2.5, 1), (10, 3.0, 0.0, 0.1, 1)])
def test_models_off_table(n, r, gap, roll, gone):
    assert movement.models_off_table(n, r, gap, roll) == gone
