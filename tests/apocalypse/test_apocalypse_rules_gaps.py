"""Zombie Apocalypse rules that no mutant of tests/mutants/apocalypse.py reached before (issue 27):
the set-up (§3), the spawners and waves (§9, §10), the zombies' moves and charges (§5, §6, §11), the
Graveyard (§6), the Warlord traits (§7), Brutes (§4) and victory (§13). Each test names its rule and
the mutants it kills; scenes set up by hand (tests/apocalypse/apocalypse_helpers.py) with hand-fed
dice (the root conftest's ``dice``: a test fails if the code rolls more or fewer dice than scripted).
"""

from __future__ import annotations

import numpy as np
import pytest
from apocalypse_helpers import put_horde, put_unit, table, warlord

import kernels.apocalypse.assault as assault
import kernels.apocalypse.combat as combat
import kernels.apocalypse.hordes as hordes
import kernels.apocalypse.movement as movement
import kernels.apocalypse.setup as setup
import kernels.apocalypse.shooting as shooting
import kernels.apocalypse.strike as strike
import kernels.apocalypse.turn as turn
import kernels.apocalypse.units as units
import kernels.apocalypse.zombies as zombies
from kernels.apocalypse import columns as C
from kernels.apocalypse.state import N_OUT_A
from kernels.w40k import columns as L


def py(f):
    return getattr(f, "py_func", f)


def _n(tb):
    return int(tb.prm[C.P_N])


def _spawner(st, s, x, y):
    st.spos[0, s] = x, y
    st.sst[0, s, C.SS_ALIVE] = 1
    st.gst[0, C.G_N_SPAWNERS] = max(st.gst[0, C.G_N_SPAWNERS], s + 1)


def _hordes(st):
    return [int(h) for h in np.flatnonzero(st.hst[0, :, C.HS_ALIVE])]


# ------------------------------------------------------------------ set-up (§3)


def test_s3_4_a_tied_first_turn_roll_off_is_rolled_again(dice):
    """§3.4: the higher roll goes first, ties re-rolled (ap_first_turn_tie)."""
    _, tb, st, rng = table()
    dice.script(3, 3, 5, 2)
    assert setup.roll_off(rng, 0) == C.SIDE_PLAYERS
    dice.done()


def test_s3_3_a_spawn_point_never_on_the_zone_nor_within_6_of_a_player_model(dice):
    """§3.3 (ap_spawner_on_zone, ap_spawner_exclusion)."""
    cfg, tb, st, _ = table()
    c = 0.5 * tb.prm[C.P_TABLE]
    assert not setup.spawner_is_legal(st, 0, c, c, tb)
    x, y = 10.0, 38.0
    assert setup.spawner_is_legal(st, 0, x, y, tb)
    u = put_unit(st, tb, 1, 0, 0)
    reach = tb.prm[C.P_SPAWNER_R] + st.urad[0, u]
    st.upos[0, u] = x, y - reach - (cfg.exclusion_in - 1.0)
    assert not setup.spawner_is_legal(st, 0, x, y, tb)
    st.upos[0, u] = x, y - reach - (cfg.exclusion_in + 1.0)
    assert setup.spawner_is_legal(st, 0, x, y, tb)


def test_s3_3_a_spawn_point_scatters_3d6_plus_n_from_the_centre(dice):
    """§3.3: 3D6 + N inches along an arrow (ap_spawner_scatter_n)."""
    _, tb, st, rng = table()
    dice.script(6, 6, 6, 4, 0.0)  # 3D6 = 18; the scatter die an arrow; direction 0 (+x)
    x, y = setup.scatter_spawner(rng, 0, st, tb)
    dice.done()
    c = 0.5 * tb.prm[C.P_TABLE]
    assert (x, y) == pytest.approx((c + 18 + _n(tb), c))


def test_s3_3_each_spawn_point_starts_2d6_plus_n_zombies_the_first_zombie_nearest_the_centre(dice):
    """§3.3, A13: 2D6 + N zombies a spawn point; the First Zombie joins the horde of the spawn point
    nearest the table centre (ap_start_zombies_n, ap_first_zombie_first_spawner)."""
    _, tb, st, rng = table("two_players", exchange="none")
    _spawner(st, 0, 8.0, 40.0)
    _spawner(st, 1, 36.0, 24.0)
    dice.script(3, 4, 2, 2)
    setup.starting_zombies(rng, 0, st, tb)
    dice.done()
    assert st.res[0, C.R_SP0 + C.SRC_DEPLOY] == 7 + 4 + 2 * _n(tb) + 1  # the First Zombie counts too
    first = [h for h in _hordes(st) if st.hst[0, h, C.HS_FZ]]
    assert len(first) == 1 and st.hpos[0, first[0], 0] > 24.0


# ------------------------------------------------------------------ spawning (§9.1)


def test_s9_1_each_spawn_point_spawns_8_minus_t_d6_and_each_of_4_edges_d6_plus_n(dice):
    """§9.1, A35: 7D6 on the zombie side's first turn, D6 + N at each table edge (ap_wave_dice,
    ap_edge_wave_n, ap_edge_waves_three)."""
    cfg, tb, st, rng = table(exchange="none")
    wave = py(zombies.wave_dice)
    assert [wave(t, cfg.wave_start) for t in (1, 2, 7)] == [7, 6, 1]
    put_unit(st, tb, 1, 20, 20)
    _spawner(st, 0, 10.0, 38.0)
    st.gst[0, C.G_ZTURN] = 1
    dice.script(*([1] * 7))  # the spawn point's 7D6
    dice.script(1, 2, 3, 4)  # one D6 for each edge
    zombies.spawn_waves(rng, 0, st, tb)
    dice.done()
    assert st.res[0, C.R_SP0 + C.SRC_WAVE] == 7
    assert st.res[0, C.R_SP0 + C.SRC_EDGE] == 10 + 4 * _n(tb)


def test_s9_1_zombies_held_back_come_on_in_the_next_zombie_movement_phase(dice):
    """§9.1 (ap_held_back_stay)."""
    _, tb, st, _ = table(exchange="none")
    put_unit(st, tb, 1, 20, 20)
    st.gst[0, C.G_HELD] = 5
    zombies.place_held_back(st, 0, tb)
    assert st.gst[0, C.G_HELD] == 0
    assert [hordes.horde_models(st, 0, h) for h in _hordes(st)] == [5]


def test_s9_1_a_juggernaut_costs_three_zombies(dice):
    """§9.1: "3 Zombies may be given up to place 1 Juggernaut" (ap_exchange_free)."""
    cfg, tb, st, _ = table(exchange="maximise")
    h = hordes.spawn_batch(st, 0, 24.0, 10.0, 10, C.SRC_WAVE, True, tb, C.PH_Z_MOVEMENT)
    assert st.hst[0, h, C.HS_J] == 3 and st.hst[0, h, C.HS_Z] == 10 - 3 * 3


# ------------------------------------------------------------------ spawners in play (§10)


def test_s10_the_aura_wounds_only_the_models_within_6_and_spares_a_unit_in_combat(dice):
    """§10: each player model within 6" of a spawner, not locked in combat (ap_aura_every_model,
    ap_aura_locked)."""
    _, tb, st, rng = table()
    u = put_unit(st, tb, 1, 20, 20)  # ten Tactical Marines
    n = units.models_alive(st, 0, u)
    _spawner(st, 0, 20 + st.urad[0, u] + tb.prm[C.P_SPAWNER_R] + 1.0, 20)  # its edge 1" from the unit's
    h = put_horde(st, tb, 20 - st.urad[0, u] - 3.0, 20, 5)
    st.lock[0, u, h] = 1
    st.hst[0, h, C.HS_LOCKED] = 1
    zombies.spawner_aura(rng, 0, st, tb)
    assert units.models_alive(st, 0, u) == n and st.res[0, C.R_AURA_WOUNDS] == 0
    st.lock[0, u, h] = 0
    st.hst[0, h, C.HS_LOCKED] = 0
    dice.script(1, 1)  # the Fear test passes
    zombies.spawner_aura(rng, 0, st, tb)
    dice.done()
    assert 0 < st.res[0, C.R_AURA_WOUNDS] < n


# ------------------------------------------------------------------ zombies move and charge (§5, §6, §11)


def test_s11_a_horde_moves_6_and_runs_d6_at_the_closest_player_model(dice):
    """§5 Zombie!, §11 (ap_horde_no_run)."""
    _, tb, st, rng = table()
    put_unit(st, tb, 1, 6, 6)
    h = put_horde(st, tb, 40, 6, 5)
    dice.script(3)
    zombies.move_horde(rng, 0, st, h, tb)
    dice.done()
    assert st.hpos[0, h, 0] == pytest.approx(40 - tb.prm[C.P_Z_MOVE] - 3)


def _charge_scene(tb, st, gap_in, models=5):
    tb.policy[:, C.POL_OVERWATCH] = 0  # no Overwatch: the charge alone
    u = put_unit(st, tb, 1, 20, 20)
    h = put_horde(st, tb, 0, 0, models)
    st.hpos[0, h] = 20 + st.urad[0, u] + st.hrad[0, h] + gap_in, 20
    return u, h


def test_core_7_1_a_charge_roll_equal_to_the_distance_succeeds(dice):
    """core §7.1, §11 (ap_charge_roll_strict)."""
    _, tb, st, rng = table()
    u, h = _charge_scene(tb, st, 7.0, models=1)
    st.urad[0, u] = 2.0  # radii and places that sum exactly: the gap is 7.0, no rounding either way
    st.hrad[0, h] = hordes.disc_radius(1, tb.prm[C.P_BASE_R], tb.prm[C.P_Z_SPACING])
    st.hpos[0, h] = st.upos[0, u, 0] + 2.0 + st.hrad[0, h] + 7.0, st.upos[0, u, 1]
    assert units.unit_gap_horde(st, 0, u, h) == 7.0
    dice.script(3, 4)
    assert zombies.charge(rng, 0, st, h, u, tb)
    dice.done()


def test_s5_a_split_group_and_the_horde_keep_20_each(dice):
    """§5 Hordes, A25: 30 zombies cannot split into two groups of 20 (ap_split_leaves_20)."""
    _, tb, st, rng = table()
    u, h = _charge_scene(tb, st, 4.0, models=30)
    put_unit(st, tb, 2, 20, 40)
    v = 2
    st.upos[0, v] = st.hpos[0, h, 0], st.hpos[0, h, 1] + st.hrad[0, h] + st.urad[0, v] + 4.0
    zombies.split_charges(rng, 0, st, h, u, tb)
    dice.done()
    assert _hordes(st) == [h] and hordes.horde_models(st, 0, h) == 30


def test_s6_b_a_friend_within_6_fires_overwatch_for_a_charged_unit(dice, monkeypatch):
    """§6 Supporting the Team (b) (ap_overwatch_support)."""
    _, tb, st, rng = table()
    u = put_unit(st, tb, 1, 20, 20)
    v = put_unit(st, tb, 2, 20, 20 + st.urad[0, u] + 5.0)
    h = put_horde(st, tb, 40, 20, 5)
    fired = []
    monkeypatch.setattr(zombies, "fire_overwatch", lambda rng, g, st, w, h, tb, ph: fired.append(w))
    zombies.overwatch_against(rng, 0, st, u, h, tb)
    assert sorted(fired) == sorted([u, v])


# ------------------------------------------------------------------ the Graveyard (§6)


def test_s6_the_graveyard_locks_the_first_unit_in_with_20_plus_n_and_2_juggernauts_once(dice):
    """§6 Graveyard: the first unit to enter the zone, counted as charged; once a game
    (ap_graveyard_n, ap_graveyard_not_charged, ap_graveyard_twice)."""
    cfg, tb, st, rng = table()
    c = 0.5 * tb.prm[C.P_TABLE]
    u = put_unit(st, tb, 1, c, c)
    movement.check_graveyard(rng, 0, st, u, 6.0, 6.0, tb, C.PH_MOVEMENT)
    [h] = _hordes(st)
    assert st.hst[0, h, C.HS_Z] == cfg.graveyard_zombies + _n(tb) and st.hst[0, h, C.HS_J] == cfg.graveyard_juggernauts
    assert st.lock[0, u, h] == 1 and st.ust[0, u, C.US_WAS_CHARGED] == 1
    v = put_unit(st, tb, 2, c + 3.0, c)
    movement.check_graveyard(rng, 0, st, v, 6.0, 40.0, tb, C.PH_MOVEMENT)
    assert _hordes(st) == [h]


# ------------------------------------------------------------------ Warlord traits (§7)


def test_s7_master_of_offence_furious_charge_and_wound_re_rolls_unless_a_psyker(dice):
    """§7 trait 2 (ap_offence_fc, ap_offence_psyker)."""
    _, tb, st, _ = table()
    tb.policy[0, C.POL_TRAIT] = C.TRAIT_OFFENCE
    w = put_unit(st, tb, 0, 5, 5)
    u = put_unit(st, tb, 1, 20, 20)
    warlord(st, tb)
    assert st.mflags[0, u, 0] & L.MR_FURIOUS_CHARGE
    assert units.offence_rerolls(st, 0, w, tb)
    st.mflags[0, w, st.wl_slot[0, 0]] |= L.MR_PSYKER
    assert not units.offence_rerolls(st, 0, w, tb)


def test_s7_inspiring_presence_of_a_fearless_hq_makes_the_detachment_fearless(dice):
    """§7 trait 5 (ap_inspiring_fearless)."""
    _, tb, st, _ = table()
    tb.policy[0, C.POL_TRAIT] = C.TRAIT_INSPIRING
    w = put_unit(st, tb, 0, 5, 5)
    u = put_unit(st, tb, 1, 20, 20)
    warlord(st, tb)
    assert not st.mflags[0, u, 0] & L.MR_FEARLESS
    st.bflags[0, w, st.wl_slot[0, 0]] |= L.MR_FEARLESS
    warlord(st, tb)
    assert st.mflags[0, u, 0] & L.MR_FEARLESS


def test_s7_target_priority_re_rolls_ones_within_12_and_every_miss_at_bs_5(dice):
    """§7 trait 6, §6 Shhh!: re-roll 1s to hit within 12"; a BS 5+ Warlord every failed hit; without
    re-rolls (Shhh!, optional) none (ap_priority_ones, ap_priority_bs5, ap_shhh_forced)."""
    apply = py(shooting._apply_rerolls)
    spec = np.zeros(L.N_SPEC, np.int64)
    apply(spec, True, True, False)
    assert spec[L.SP_HIT_REROLL] == L.RR_ONES
    apply(spec, True, False, True)
    assert spec[L.SP_HIT_REROLL] == L.RR_FAILED
    apply(spec, False, False, True)
    assert spec[L.SP_HIT_REROLL] == L.RR_NONE
    _, tb, st, _ = table()
    tb.policy[0, C.POL_TRAIT] = C.TRAIT_PRIORITY
    w = put_unit(st, tb, 0, 5, 5)
    warlord(st, tb)
    st.stats[0, w, st.wl_slot[0, 0], L.BS] = 5
    assert shooting._priority(st, 0, w, 10.0, tb) == (True, True)
    st.stats[0, w, st.wl_slot[0, 0], L.BS] = 4
    assert shooting._priority(st, 0, w, 10.0, tb) == (True, False)


def test_s7_legendary_fighter_one_hit_for_every_3_natural_sixes_of_the_unit(dice):
    """§7 trait 4, A31 (ap_legendary_sixes)."""
    _, tb, st, rng = table()
    tb.policy[0, C.POL_TRAIT] = C.TRAIT_LEGENDARY
    u = put_unit(st, tb, 0, 20, 20)
    h = put_horde(st, tb, 23, 20, 30)
    warlord(st, tb)
    st.w_cu[0], st.w_ch[0] = u, h
    st.lock[0, u, h] = 1
    st.w_mt[u] = h
    st.w_sixes[0] = 4
    dice.script(1)  # the one automatic hit's wound roll fails
    assault.legendary_unit_hits(rng, 0, st, 1, 1, tb)
    dice.done()
    assert st.w_sixes[0] == 1


# ------------------------------------------------------------------ Brutes (§4)


def test_s4_a_brute_has_half_its_hosts_wounds_rounded_up(dice):
    """§4 (ap_brute_wounds)."""
    _, tb, st, _ = table()
    u = put_unit(st, tb, 0, 20, 20)
    h = put_horde(st, tb, 30, 20, 5)
    st.bstats[0, u, 0, L.W] = 3
    assault.make_brute(st, 0, u, 0, h, tb, C.PH_ASSAULT)
    [s] = [s for s in range(st.sh.shape[1]) if st.sh[0, s] == h]
    assert st.swounds[0, s] == 2


# ------------------------------------------------------------------ victory (§13)


def test_s13_the_players_win_only_with_every_living_warlord_on_the_zone(dice):
    """§13 (ap_victory_one_on_zone, ap_victory_none_alive)."""
    _, tb, st, _ = table("two_players")
    c = 0.5 * tb.prm[C.P_TABLE]
    a, b = put_unit(st, tb, 0, c, c), put_unit(st, tb, 4, c + 1.0, c + 1.0)
    warlord(st, tb)

    def result():
        st.gst[0, C.G_OVER] = 0
        turn.end_of_game(st, 0, tb)
        return st.res[0, C.R_WINNER]

    assert result() == C.SIDE_PLAYERS
    st.upos[0, b] = 2.0, 2.0
    assert result() == C.SIDE_ZOMBIES
    for u in (a, b):
        st.wounds[0, u] = 0
        st.ust[0, u, C.US_ALIVE] = 0
    assert result() == C.SIDE_ZOMBIES


# ------------------------------------------------------------------ §2, §3.2, §11, §13 (second pass)


def test_s2_fearless_is_removed_from_every_model_but_the_hq(dice):
    """§2 (ap_fearless_hq)."""
    from dataclasses import replace

    from sim.rulesets.apocalypse.armies import _strip_fearless
    from sim.rulesets.apocalypse.catalogue import catalogue

    entry = next(iter(catalogue().units.values()))
    brave = replace(entry.profile, rules=frozenset(entry.profile.rules) | {"fearless"})
    assert "fearless" in _strip_fearless(brave, True).rules
    assert "fearless" not in _strip_fearless(brave, False).rules


def test_s3_2_units_deploy_wholly_within_10_of_their_corner(dice):
    """§3.2 (ap_deploy_corner)."""
    cfg, tb, _, _ = table()
    spot = setup.deploy_spot  # plain Python under ``dice``: nothing compiled
    for r in (1.0, 2.5, 4.0):
        for k in range(3):
            x, y = spot(0, k, 3, r, tb.prm)
            assert np.hypot(x, y) + r <= cfg.corner_in + 1e-9 and min(x, y) >= r - 1e-9


def test_s11_equally_close_units_the_horde_goes_for_the_one_with_more_models(dice):
    """§11, P1: the closest player model; ties to the unit with more models (ap_closest_tie)."""
    _, tb, st, _ = table()
    h = put_horde(st, tb, 24, 24, 5)
    a = put_unit(st, tb, 0, 0, 0)  # the lone Captain
    b = put_unit(st, tb, 1, 0, 0)  # ten Tactical Marines
    st.upos[0, a] = 24 - st.hrad[0, h] - st.urad[0, a] - 5.0, 24
    st.upos[0, b] = 24 + st.hrad[0, h] + st.urad[0, b] + 5.0, 24
    assert units.models_alive(st, 0, b) > units.models_alive(st, 0, a)
    assert zombies.closest_unit(st, 0, h) == b


def test_s13_the_zombies_win_at_once_when_no_warlord_lives(dice):
    """§13 (ap_zombies_win_now)."""
    _, tb, st, _ = table()
    u = put_unit(st, tb, 0, 20, 20)
    warlord(st, tb)
    assert not turn.zombies_win_now(st, 0)
    st.wounds[0, u] = 0
    st.ust[0, u, C.US_ALIVE] = 0
    assert turn.zombies_win_now(st, 0) and st.res[0, C.R_WINNER] == C.SIDE_ZOMBIES


# ------------------------------------------------------------------ combat resolution (core §7.4)


def _captain_locked(tb, st, trait):
    """The Captain (IC, Warlord, W3, T4, 3+ / 4++) locked with a horde of 15 Zombies."""
    tb.policy[0, C.POL_TRAIT] = trait
    u = put_unit(st, tb, 0, 20, 20)
    h = put_horde(st, tb, 24, 20, 15)
    warlord(st, tb)
    st.w_cu[0], st.w_ch[0] = u, h
    st.lock[0, u, h] = 1
    return u, h


def _zombie_blows(rng, st, tb, u, n, strength):
    """``n`` plain Zombies' attacks at unit u: what their side adds to the combat's result."""
    return combat.zombie_attacks(rng, 0, st, u, n, tb.zstats[C.ZK_ZOMBIE], tb.zflags[C.ZK_ZOMBIE],
                                 tb.weapons[tb.ids[0]], strength, True, False, False, False, tb,
                                 np.zeros(N_OUT_A, np.int64))


def test_core_7_4_an_instant_death_wound_is_one_unsaved_wound_in_the_combat_result(dice):
    """core §7.4: each side totals the unsaved Wounds it inflicted. One Instant Death wound (S8
    against the Captain's T4) takes his 3 Wounds but is one unsaved wound, as a player's Instant
    Death wound on a Brute counts one for the players (the old zombies' count: 3, the Wounds lost;
    ap_result_wounds_lost)."""
    _, tb, st, rng = table()
    u, _ = _captain_locked(tb, st, C.TRAIT_NONE)
    dice.script(6, 2, 1)  # hit on a 6 (Dull Witted), wound S8 v T4 on 2+, the 4++ fails on a 1
    assert _zombie_blows(rng, st, tb, u, 1, 8) == 1
    dice.done()
    assert st.wounds[0, u, 0] == 0


def test_core_7_4_a_wound_feel_no_pain_ignores_is_not_in_the_combat_result(dice):
    """core §7.4: "wounds ignored by Feel No Pain do not count" - though The Plague counts it
    (A23's default, core §6.8: it was an unsaved wound; ap_result_fnp_counts)."""
    _, tb, st, rng = table()
    u, _ = _captain_locked(tb, st, C.TRAIT_TENACITY)  # Tenacity: Feel No Pain 5+ (§7 trait 3)
    dice.script(6, 4, 1, 5, 6, 4, 1, 1)  # two blows: hit, wound S4 v T4, save failed; FNP 5 passes, 1 fails
    assert _zombie_blows(rng, st, tb, u, 2, 4) == 1
    dice.done()
    assert st.wounds[0, u, 0] == 2 and st.minfo[0, u, 0, C.MI_ZW_TURN] == 2


def test_core_7_4_the_players_count_unsaved_wounds_not_models_killed(dice):
    """core §7.4: a wound on a Juggernaut (W2) that does not kill it counts one for the players
    (ap_result_players_kills)."""
    _, tb, st, rng = table()
    u = put_unit(st, tb, 1, 20, 20)
    h = put_horde(st, tb, 24, 20, 0, juggernauts=1)
    spec = np.zeros(L.N_SPEC, np.int64)
    assault.auto_melee_spec(spec, 4, L.NONE, 4, tb.wound_chart)  # one automatic hit, S4 v T4, AP -
    out = np.zeros(N_OUT_A, np.int64)
    dice.script(4, 1, 1)  # wounds on a 4; its invulnerable save and its 6+ Feel No Pain (§5) fail
    strike.strike_horde(rng, 0, 1, spec, st, h, L.NONE, False, tb, out)
    dice.done()
    assert out[L.OUT_UNSAVED] == 1 and out[L.OUT_KILLED] == 0
    st.w_dealt[0] = 0
    assault._tally_player_blows(st, 0, u, 0, out)
    assert st.w_dealt[0] == 1


def test_core_7_4_equal_totals_are_a_draw_nobody_tests_morale(dice):
    """core §7.4: "equal totals = draw, the units stay locked": no Morale check is rolled
    (ap_result_draw_tests)."""
    _, tb, st, rng = table()
    u = put_unit(st, tb, 1, 20, 20)
    h = put_horde(st, tb, 24, 20, 15)
    st.w_cu[0], st.w_ch[0] = u, h
    st.lock[0, u, h] = 1
    st.w_dealt[0] = st.w_dealt[1] = 2
    assault.resolve_combat(rng, 0, st, 1, 1, tb, C.PH_Z_ASSAULT)
    dice.done()  # not a die rolled
    assert st.lock[0, u, h] == 1 and units.models_alive(st, 0, u) == 10


# -------------------------------------------------- the second pass's unmutated rules (§6, A15, A29, A37)


def test_s6_foggy_shrouds_every_model_5_in_the_open_2_in_a_ruin(dice):
    """§6 Foggy, core §6.7 Shrouded: +2 cover, at least 5+ in the open; the zone is a ruin (4+,
    §3.1) (ap_foggy_open, ap_foggy_ruin)."""
    from kernels.apocalypse.terrain import cover_at

    for foggy, open_, ruin in ((False, L.NONE, 4), (True, 5, 2)):
        _, tb, st, _ = table(foggy=foggy)
        c = 0.5 * tb.prm[C.P_TABLE]
        assert cover_at(st, 0, 2.0, 2.0, tb, L.NONE) == open_
        assert cover_at(st, 0, c, c, tb, L.NONE) == ruin


def test_a15_an_edge_wave_comes_on_level_with_the_player_model_nearest_that_edge(dice):
    """§9.2, A15: the wave's spot along an edge is that of the player model nearest to the edge
    (ap_edge_nearest_first)."""
    _, tb, st, _ = table()
    put_unit(st, tb, 0, 10.0, 30.0)
    b = put_unit(st, tb, 1, 30.0, 8.0)  # nearer the y = 0 edge
    assert zombies._nearest_unit_to_edge(st, 0, 0, tb) == st.upos[0, b, 0]
    assert zombies._nearest_unit_to_edge(st, 0, 3, tb) == 30.0  # the x = 0 edge: the Captain at x = 10


def test_a29_a_warlord_whose_base_is_partly_on_the_zone_is_extracted(dice):
    """A29: a base partly within the zone counts; ``extraction = "wholly"`` asks for all of it
    (ap_extraction_wholly)."""
    for wholly, winner in ((False, C.SIDE_PLAYERS), (True, C.SIDE_ZOMBIES)):
        _, tb, st, _ = table(extraction="wholly" if wholly else "partly")
        c = 0.5 * tb.prm[C.P_TABLE]
        put_unit(st, tb, 0, c + tb.prm[C.P_ZONE_R] + 0.5 * tb.prm[C.P_BASE_R], c)
        warlord(st, tb)
        turn.end_of_game(st, 0, tb)
        assert st.res[0, C.R_WINNER] == winner


def test_a37_max_zombies_caps_the_zombies_on_the_table(dice):
    """A4, A37: with a cap, only as many new zombies as leave the table at the cap are placed, the
    rest held back; 0 = no cap (ap_supply_cap_total)."""
    _, tb, st, _ = table(max_zombies=30)
    put_horde(st, tb, 24, 24, 25)
    assert hordes.room_on_table(st, 0, 10, tb) == 5
    tb.prm[C.P_MAX_ZOMBIES] = 0
    assert hordes.room_on_table(st, 0, 10, tb) == 10
