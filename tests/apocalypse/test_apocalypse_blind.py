"""Defensive and psyk-out grenades' effects (core-7th-edition §8, §12; catalogue §3.2).

A defensive (photon) grenade is thrown as a Blind blast: a horde it hits tests Initiative at the end
of the phase (D6 <= its majority I, a 1 passes, a 6 fails); a failure makes every model WS 1 and
BS 1 until the end of the zombies' next turn. Blind zombies strike at WS 1 (Dull Witted: only 6s
against WS 2 or more) and are struck at WS 1; BS 1 is inert (BS 0, A21). Defensive grenades take
the chargers' +1 Attack: zombies never have it (Zombie!), a player unit charging a horde that holds
a Brute with defensive grenades loses it. Psyk-out grenades: an S2 blast; the core spec does not
define Psi-shock and there are no psykers among the zombies, so nothing more.

The Tau Sept of ``three_players`` (examples/apocalypse) carries photon grenades (Fire Warriors,
Pathfinders, the Cadre Fireblade). Hand-fed dice (the root conftest's ``dice`` fixture), and the
thrown grenade's Blind against ``sim.w40k.exact``'s blast oracle by chi-square at alpha 1e-4.
"""

from __future__ import annotations

import numpy as np
import pytest
from apocalypse_helpers import put_horde, put_unit, table
from helpers import assert_matches_pmf

import kernels.apocalypse.assault as assault
import kernels.apocalypse.blind as blind
import kernels.apocalypse.combat as combat
import kernels.apocalypse.hordes as hordes
import kernels.apocalypse.shooting as shooting
import kernels.apocalypse.units as units
from kernels.apocalypse import columns as C
from kernels.apocalypse.state import W_FIGHT
from kernels.jit import njit
from kernels.rng import stream_start
from kernels.w40k import columns as L
from sim.rulesets.apocalypse.catalogue import catalogue
from sim.rulesets.apocalypse.config import POLICY_PRESETS, ConfigError, Policy
from sim.w40k.exact import _blast_hits
from sim.w40k.exchange import Exchange
from sim.w40k.tables import weapon_row

FIRE_WARRIORS = 6  # the Sept's six Fire Warriors (template unit 6 of three_players: Ulthwe, Sept, Librarius)
TACTICAL = 10  # the Librarius' ten Tactical Marines


def _row(name):
    return weapon_row(catalogue().weapon(name))


def _slot(st, tb, u, m, name):
    for k in range(st.gear.shape[3]):
        w = st.gear[0, u, m, k]
        if w >= 0 and np.array_equal(tb.weapons[w], _row(name)):
            return k
    return -1


def _only(st, u, keep):
    for k in range(st.wounds.shape[2]):
        if k not in keep:
            st.wounds[0, u, k] = 0


def _apart(st, u, h, gap_in):
    st.upos[0, u, 1] = st.hpos[0, h, 1] - 30.0
    st.upos[0, u, 1] += units.unit_gap_horde(st, 0, u, h) - gap_in


def _tau(gap_in=5.0, zombies=20, **params):
    _, tb, st, rng = table("three_players", **params)
    u = put_unit(st, tb, FIRE_WARRIORS, 20.0, 10.0)
    h = put_horde(st, tb, 20.0, 10.0 + gap_in, zombies)
    _apart(st, u, h, gap_in)
    return tb, st, rng, u, h


# ------------------------------------------------------------------ the rules, pure


@pytest.mark.parametrize("die, initiative, fails", [(1, 2, False), (2, 2, False), (3, 2, True), (6, 2, True),
                                                    (6, 10, True), (1, 0, True), (3, 3, False), (4, 3, True)])
def test_an_initiative_test(die, initiative, fails):
    """core §1: pass on the characteristic or less; a 1 passes, a 6 fails, a characteristic of 0 fails."""
    assert blind.initiative_test_fails(die, initiative) is fails


@pytest.mark.parametrize("a, b, na, nb, merged", [
    (C.BLIND_PENDING, C.BLIND_NONE, 30, 5, C.BLIND_PENDING),  # the larger part's models are the majority
    (C.BLIND_NONE, C.BLIND_PENDING, 30, 5, C.BLIND_NONE),
    (C.BLIND_NONE, C.BLIND_THIS_TURN, 5, 30, C.BLIND_THIS_TURN),
    (C.BLIND_PENDING, C.BLIND_NONE, 10, 10, C.BLIND_NONE),  # a tie takes the highest WS (core §3)
    (C.BLIND_PENDING, C.BLIND_THIS_TURN, 10, 10, C.BLIND_PENDING),
])
def test_the_blind_of_a_merged_horde(a, b, na, nb, merged):
    assert hordes.merged_blind(a, b, na, nb) == merged


def test_blind_lasts_until_the_end_of_the_zombies_next_turn():
    _, tb, st, _ = table("three_players")
    h = put_horde(st, tb, 20.0, 20.0, 10)
    st.hst[0, h, C.HS_BLIND] = C.BLIND_PENDING  # blinded in the players' Shooting phase
    assert hordes.horde_blind(st, 0, h)
    blind.blind_turn_ends(st, 0)  # (an end of a zombie turn before its next one began: nothing)
    assert st.hst[0, h, C.HS_BLIND] == C.BLIND_PENDING
    blind.blind_turn_starts(st, 0)
    assert st.hst[0, h, C.HS_BLIND] == C.BLIND_THIS_TURN and hordes.horde_blind(st, 0, h)
    blind.blind_turn_ends(st, 0)
    assert st.hst[0, h, C.HS_BLIND] == C.BLIND_NONE and not hordes.horde_blind(st, 0, h)


def test_merging_keeps_the_larger_hordes_blind():
    _, tb, st, _ = table("three_players")
    big = put_horde(st, tb, 20.0, 20.0, 25)
    small = put_horde(st, tb, 20.0, 40.0, 4)
    st.hst[0, big, C.HS_BLIND] = C.BLIND_PENDING
    st.hst[0, small, C.HS_BLIND_HIT] = 1
    st.hpos[0, small] = st.hpos[0, big, 0], st.hpos[0, big, 1] + st.hrad[0, big] + st.hrad[0, small] + 1.0
    assert hordes.merge_hordes(st, 0, tb) == 1
    assert st.hst[0, big, C.HS_Z] == 29 and st.hst[0, big, C.HS_BLIND] == C.BLIND_PENDING
    assert st.hst[0, big, C.HS_BLIND_HIT] == 1  # the hit models still test


# ------------------------------------------------------------------ the throw and the test, hand-fed


def test_a_photon_grenade_that_wounds_nobody_still_blinds(dice):
    """One Fire Warrior 5" from 20 zombies throws his photon grenade (S1 blast): the marker hits
    (scatter die 1), three models under it, every wound roll fails (S1 v T2 needs 5+; 4, 4, 4): no
    kill, but the horde was hit and tests Initiative 2 at the end of the phase: 3 fails."""
    tb, st, rng, u, h = _tau()
    _only(st, u, (1,))
    tb.policy[1, C.POL_GRENADE] = 2
    m, k, _ev, _lost, _nz = shooting.choose_thrower(st, 0, u, h, 5.0, True, tb)
    assert m == 1 and k == _slot(st, tb, u, 1, "Defensive grenade")
    dice.script(1, 4, 4, 4)  # the throw's Assault noise is 2, no die (§9.3)
    killed, noise = shooting.fire_unit(rng, 0, st, u, h, False, tb, C.PH_SHOOTING)
    dice.done()
    assert killed == 0 and noise == 2 and st.hst[0, h, C.HS_Z] == 20
    assert st.hst[0, h, C.HS_BLIND_HIT] == 1 and st.hst[0, h, C.HS_BLIND] == C.BLIND_NONE
    dice.script(3)
    blind.blind_tests(rng, 0, st, tb, C.PH_SHOOTING)
    dice.done()
    assert st.hst[0, h, C.HS_BLIND] == C.BLIND_PENDING and st.hst[0, h, C.HS_BLIND_HIT] == 0


@pytest.mark.parametrize("die, blinded", [(1, False), (2, False), (3, True), (6, True)])
def test_the_initiative_test_at_the_end_of_the_phase(dice, die, blinded):
    tb, st, rng, u, h = _tau()
    st.hst[0, h, C.HS_BLIND_HIT] = 1
    dice.script(die)
    blind.blind_tests(rng, 0, st, tb, C.PH_SHOOTING)
    dice.done()
    assert bool(hordes.horde_blind(st, 0, h)) is blinded


def test_no_test_without_a_hit_and_none_when_blind_is_off(dice):
    tb, st, rng, u, h = _tau()
    blind.blind_tests(rng, 0, st, tb, C.PH_SHOOTING)  # not hit: no die
    tb.prm[C.P_BLIND_ON] = 0
    st.hst[0, h, C.HS_BLIND_HIT] = 1
    blind.blind_tests(rng, 0, st, tb, C.PH_SHOOTING)  # blind_effect = false: the hit only
    dice.done()
    assert not hordes.horde_blind(st, 0, h) and st.hst[0, h, C.HS_BLIND_HIT] == 0


# ------------------------------------------------------------------ who throws a Blind grenade


@pytest.mark.parametrize("mode, state, gap_in, throws", [
    (1, C.BLIND_NONE, 5.0, True),  # a horde 5" away could charge: blind it
    (0, C.BLIND_NONE, 5.0, False),  # weighed by kills only: an S1 blast never beats a pulse rifle
    (1, C.BLIND_PENDING, 5.0, False),  # already Blind
    (1, C.BLIND_NONE, 8.5, False),  # beyond the 8" throw
])
def test_the_blind_policy(mode, state, gap_in, throws):
    tb, st, _, u, h = _tau(gap_in)
    tb.policy[1, C.POL_BLIND] = mode
    st.hst[0, h, C.HS_BLIND] = state
    m, k, _ev, _lost, _nz = shooting.choose_thrower(st, 0, u, h, units.unit_gap_horde(st, 0, u, h), True, tb)
    assert (m >= 0) is throws
    if throws:
        assert k == _slot(st, tb, u, m, "Defensive grenade")


def test_the_blind_policy_field_is_validated_and_in_every_preset():
    assert Policy().blind == 1 and all(p.blind == 1 for p in POLICY_PRESETS.values())
    with pytest.raises(ConfigError, match="blind = 2"):
        Policy(blind=2)


# ------------------------------------------------------------------ what Blind does in close combat


def test_blind_zombies_hit_a_fire_warrior_only_on_a_six(dice):
    """Zombie WS 2 against a Fire Warrior's WS 2 hits on 4+ (core §7.3); blind, WS 1 < 2, and
    Dull Witted (§5) leaves only 6s: the 4 that hit before misses."""
    _, tb, st, rng = table("three_players")
    u = put_unit(st, tb, FIRE_WARRIORS, 20.0, 10.0)
    zs, ccw = tb.zstats[C.ZK_ZOMBIE], tb.weapons[tb.ids[C.ID_CCW]]
    out = np.zeros_like(st.w_out[0])
    dice.script(4, 1)  # hits on 4+, then wound S2 v T3 on 5+: 1 fails
    combat.zombie_attacks(rng, 0, st, u, 1, zs, tb.zflags[C.ZK_ZOMBIE], ccw, 2, True, False, False, False, tb, out)
    dice.done()
    assert out[L.OUT_HITS] == 1
    out[:] = 0
    dice.script(4)  # blind: needs a 6
    combat.zombie_attacks(rng, 0, st, u, 1, zs, tb.zflags[C.ZK_ZOMBIE], ccw, 2, True, False, False, True, tb, out)
    dice.done()
    assert out[L.OUT_HITS] == 0


def _combat(st, u, h):
    st.lock[0, u, h] = 1
    st.w_cu[0], st.w_ch[0] = u, h
    st.hst[0, h, C.HS_LOCKED] = 1


@pytest.mark.parametrize("blinded, script, hits", [(False, (3,), 0), (True, (3, 1), 1)])
def test_a_fire_warrior_hits_a_blind_horde_on_3s(dice, blinded, script, hits):
    """WS 2 against zombies' WS 2 needs 4+; against WS 1 (Blind) 3+ (core §7.3)."""
    _, tb, st, rng = table("three_players")
    u = put_unit(st, tb, FIRE_WARRIORS, 20.0, 10.0)
    _only(st, u, (1,))
    h = put_horde(st, tb, 20.0, 12.0, 12)
    _combat(st, u, h)
    if blinded:
        st.hst[0, h, C.HS_BLIND] = C.BLIND_THIS_TURN
    assault.prepare_strikes(st, 0, 1, 1, 1, tb)
    assert st.w_ma[u, 1] == 1  # A1, no charge
    dice.script(*script)  # then (a hit) the wound roll S3 v T2 on 3+: 1 fails
    assault.player_strikes(rng, 0, st, 1, 1, 1, int(st.stats[0, u, 1, L.I]), False, tb)
    dice.done()
    assert st.w_out[W_FIGHT][L.OUT_HITS] == hits


def test_chargers_lose_the_extra_attack_against_a_brute_with_defensive_grenades():
    """core §8: a unit with defensive grenades that is charged denies the chargers' +1 Attack; a
    Brute keeps its host's wargear (§4), so a horde holding a Tau Brute has them."""
    _, tb, st, _ = table("three_players")
    u = put_unit(st, tb, TACTICAL, 20.0, 10.0)
    h = put_horde(st, tb, 20.0, 14.0, 12)
    _combat(st, u, h)
    st.ust[0, u, C.US_CHARGED] = 1
    assault.prepare_strikes(st, 0, 1, 1, 1, tb)
    charged = st.w_ma[u].copy()
    fw = FIRE_WARRIORS
    s = hordes.add_special(st, 0, h, C.SK_BRUTE, tb.ut_stats[fw, 1], 0, 1, tb)
    st.sgear[0, s, : tb.ut_gear.shape[2]] = tb.ut_gear[fw, 1]
    assert blind.horde_has_defensive_grenades(st, 0, h, tb)
    assault.prepare_strikes(st, 0, 1, 1, 1, tb)
    alive = st.wounds[0, u] > 0
    assert (st.w_ma[u][alive] == charged[alive] - 1).all()
    st.sgear[0, s, _slot_of(tb, st.sgear[0, s], "Defensive grenade")] = -1  # without them: the bonus again
    assert not blind.horde_has_defensive_grenades(st, 0, h, tb)
    assault.prepare_strikes(st, 0, 1, 1, 1, tb)
    assert (st.w_ma[u][alive] == charged[alive]).all()


def _slot_of(tb, gear, name):
    return next(k for k, w in enumerate(gear) if w >= 0 and np.array_equal(tb.weapons[w], _row(name)))


def test_psyk_out_grenades_are_an_s2_blast_with_psi_shock_and_no_blind():
    row = _row("Psyk-out grenade")
    assert shooting.may_throw(row) and not shooting.is_blind_grenade(row)
    assert row[L.W_SVAL] == 2 and row[L.W_FLAGS] & L.WR_PSI_SHOCK
    assert shooting.is_blind_grenade(_row("Defensive grenade")) and not shooting.is_blind_grenade(_row("Frag grenade"))


# ------------------------------------------------------------------ exact odds of the Blind


@njit
def _throws(st, tb, u, x, y, zombies, seed, outcome, rng):
    """Game i: a fresh horde at (x, y); unit u throws its photon grenade; the end of the phase's
    test. outcome[i]: 0 not hit, 1 hit and passed, 2 blinded."""
    for i in range(outcome.shape[0]):
        rng[0] = stream_start(np.uint64(seed), np.uint64(i))
        for h in range(st.hst.shape[1]):
            st.hst[0, h, 0] = 0
        h = hordes.new_horde(st, 0, x, y, zombies, 0, tb)
        shooting.fire_unit(rng, 0, st, u, h, False, tb, C.PH_SHOOTING)
        hit = st.hst[0, h, C.HS_BLIND_HIT] != 0
        blind.blind_tests(rng, 0, st, tb, C.PH_SHOOTING)
        outcome[i] = 2 if hordes.horde_blind(st, 0, h) else int(hit)


@pytest.mark.slow
def test_a_thrown_photon_grenade_blinds_as_the_oracle_says():
    """P(hit) from the core's blast marker (scatter 2D6 - BS 3, three models under it: sim.w40k.exact),
    then the horde's Initiative 2 test: fails on 3-6 (4/6)."""
    tb, st, rng, u, h = _tau(5.0, 40)
    _only(st, u, (1,))
    tb.policy[1, C.POL_GRENADE] = 2
    assert shooting.choose_thrower(st, 0, u, h, 5.0, True, tb)[0] == 1
    x, y = float(st.hpos[0, h, 0]), float(st.hpos[0, h, 1])
    fw = catalogue().unit("Fire Warrior").profile
    target = tuple(catalogue().unit("Zombie").profile for _ in range(40))
    hits = _blast_hits(Exchange(fw, catalogue().weapon("Defensive grenade"), 1, target), 40, 1.0)
    p_hit = sum(p for k, p in hits.items() if k > 0)
    pmf = np.array([1.0 - p_hit, p_hit * 2 / 6, p_hit * 4 / 6])
    outcome = np.zeros(40_000, np.int64)
    _throws(st, tb, u, x, y, 40, np.uint64(5), outcome, rng)
    assert_matches_pmf(outcome, pmf, "photon grenade: not hit / passed / blinded")
