"""Thrown grenades (core-7th-edition §6.1-§6.2, §8; catalogue §3.2; zombie-apocalypse §9.3).

Instead of firing, one model per unit may throw one grenade, range 8": frag (and the other blast
grenades) as a small blast; krak grenades only matter against vehicles, of which the simulator has
none, so they are never thrown. The policy ``grenade`` says when (0 never, 1 when the throw's
expected kills beat the thrower's own weapon's, 2 whenever in range). A thrown grenade is an
Assault 1 weapon for the noise table (2 zombies), or makes none with ``grenade_noise = "none"``.

Hand-fed dice (the root conftest's ``dice`` fixture) for the choice, the throw and its noise; the
throw through ``fire_unit`` against ``sim.w40k.exact`` by chi-square at alpha 1e-4.
"""

from __future__ import annotations

import numpy as np
import pytest
from apocalypse_helpers import put_horde, put_unit, table
from helpers import assert_matches_pmf

import kernels.apocalypse.shooting as shooting
from kernels.apocalypse import columns as C
from kernels.apocalypse.hordes import new_horde
from kernels.apocalypse.units import unit_gap_horde
from kernels.jit import njit
from kernels.rng import stream_start
from kernels.w40k import columns as L
from sim.rulesets.apocalypse.catalogue import catalogue
from sim.rulesets.apocalypse.config import POLICY_PRESETS, ConfigError, Policy
from sim.w40k.exact import exchange_odds
from sim.w40k.exchange import Exchange
from sim.w40k.tables import weapon_row

TACTICAL = 1  # the Ultramarines' Tactical Squad (template unit 1; examples/apocalypse/armies)


def _row(name: str) -> np.ndarray:
    return weapon_row(catalogue().weapon(name))


def _one_marine(st, tb, x=10.0, y=4.0):
    """The Tactical Squad with one trooper (model 1) left standing at (x, y), far from the zone (a
    ruin; Foggy is on in the example, so a horde in the open has only a 5+ cover save): (unit, model)."""
    u = put_unit(st, tb, TACTICAL, x, y)
    m = 1
    assert st.minfo[0, u, m, C.MI_ROLE] == C.ROLE_TROOPER
    for k in range(st.wounds.shape[2]):
        if k != m:
            st.wounds[0, u, k] = 0
    return u, m


def _is(tb, w, name):
    return w >= 0 and np.array_equal(tb.weapons[w], _row(name))


def _grenade_slot(st, u, m, tb, name="Frag grenade"):
    for k in range(st.gear.shape[3]):
        if _is(tb, st.gear[0, u, m, k], name):
            return k
    raise AssertionError(f"no {name}")


# ------------------------------------------------------------------ which grenades are thrown


@pytest.mark.parametrize("name, thrown", [("Frag grenade", True), ("Plasma grenade", True),
                                          ("Defensive grenade", True), ("Krak grenade", False),
                                          ("Boltgun", False), ("Grenade launcher (frag)", False)])
def test_blast_grenades_are_thrown_krak_grenades_never(name, thrown):
    assert shooting.may_throw(_row(name)) is thrown


@pytest.mark.parametrize("mode, ev_throw, ev_weapon, throws", [
    (0, 2.0, 0.1, False),  # never
    (1, 1.2, 1.1, True), (1, 1.1, 1.1, False), (1, 0.8, 1.1, False),  # only when it beats the weapon
    (2, 0.8, 1.1, True), (2, 0.0, 1.1, False),  # whenever it can hurt the target
])
def test_throw_gain(mode, ev_throw, ev_weapon, throws):
    assert (shooting.throw_gain(mode, ev_throw, ev_weapon) >= 0.0) is throws


def test_policy_grenade_field_is_validated_and_in_every_preset():
    assert Policy().grenade == 1 and all(p.grenade == 1 for p in POLICY_PRESETS.values())
    with pytest.raises(ConfigError, match="grenade = 3"):
        Policy(grenade=3)


# ------------------------------------------------------------------ the choice (no dice)


def _apart(st, u, h, gap_in):
    """Move unit u along y so that it stands exactly ``gap_in`` inches from horde h."""
    st.upos[0, u, 1] = st.hpos[0, h, 1] - 30.0  # well clear first (a gap is never below 0)
    st.upos[0, u, 1] += unit_gap_horde(st, 0, u, h) - gap_in
    assert abs(unit_gap_horde(st, 0, u, h) - gap_in) < 1e-9


def _setup(gap_in, zombies, mode=1, **params):
    _, tb, st, rng = table(**params)
    tb.policy[0, C.POL_GRENADE] = mode
    u = put_unit(st, tb, TACTICAL, 20.0, 10.0)
    h = put_horde(st, tb, 20.0, 10.0 + gap_in, zombies)
    _apart(st, u, h, gap_in)
    return tb, st, rng, u, h


def test_a_marine_throws_frag_at_a_big_horde_within_8_inches():
    """S3 blast (0.6 x 3 models, wound T2 on 3+) beats a boltgun's two shots at half range (2 x 2/3 x 5/6)."""
    tb, st, _, u, h = _setup(5.0, 25)
    m, k, ev, lost, noise = shooting.choose_thrower(st, 0, u, h, unit_gap_horde(st, 0, u, h), True, tb)
    assert m >= 0 and _is(tb, st.gear[0, u, m, k], "Frag grenade")
    assert ev > lost > 0.0 and noise == 2.0  # the boltgun's D3 noise given up: mean 2


@pytest.mark.parametrize("gap_in, zombies, mode, throws", [
    (5.0, 25, 0, False),  # policy: never
    (8.5, 25, 2, False),  # beyond the 8" throw
    (5.0, 2, 1, False),  # two zombies under the marker: the boltgun does better
    (5.0, 2, 2, True),  # ... but policy 2 throws anyway
    (7.9, 25, 1, True),
])
def test_who_throws(gap_in, zombies, mode, throws):
    tb, st, _, u, h = _setup(gap_in, zombies, mode)
    m, _k, _ev, _lost, _noise = shooting.choose_thrower(st, 0, u, h, unit_gap_horde(st, 0, u, h), True, tb)
    assert (m >= 0) is throws


def test_a_model_without_a_blast_grenade_never_throws():
    tb, st, _, u, h = _setup(5.0, 25, 2)
    for m in range(st.gear.shape[2]):
        if st.wounds[0, u, m] > 0:
            st.gear[0, u, m, _grenade_slot(st, u, m, tb)] = -1  # the krak grenade stays
    assert shooting.choose_thrower(st, 0, u, h, 5.0, True, tb)[0] == -1


# ------------------------------------------------------------------ the throw, hand-fed


@pytest.mark.parametrize("quiet, noise", [("assault", 2), ("none", 0)])
def test_the_thrown_frag_grenade_is_a_blast_and_makes_assault_noise(dice, quiet, noise):
    _, tb, st, rng = table(grenade_noise=quiet)
    tb.policy[0, C.POL_GRENADE] = 2
    u, m = _one_marine(st, tb)
    h = put_horde(st, tb, 10.0, 14.0, 20)  # 20 zombies: Resilience 4++
    _apart(st, u, h, 6.0)
    # the marker: scatter die 1 = HIT (no 2D6), three models under it (Geometry.blast_small_models);
    # hit 1: wound 3 (S3 v T2: 3+), save 3 fails; hit 2: wound 2 fails; hit 3: wound 6, save 4 holds
    dice.script(1, 3, 3, 2, 6, 4)
    killed, made = shooting.fire_unit(rng, 0, st, u, h, False, tb, C.PH_SHOOTING)
    dice.done()
    assert (killed, made) == (1, noise)
    assert st.hst[0, h, C.HS_Z] == 19
    assert st.res[0, C.R_SP0 + C.SRC_ASSAULT] == noise and st.w_noise[u] == noise
    assert st.res[0, C.R_SP0 + C.SRC_RAPID_FIRE] == 0  # the boltgun did not fire
    assert st.ust[0, u, C.US_NO_CHARGE] == 0  # Assault 1: the unit may still charge
    assert st.pres[0, 0, C.PR_GRENADES] == 1  # the result column `grenades`


def test_the_rest_of_the_unit_fires_as_before(dice):
    """Two Marines 5" from 25 zombies: one throws (policy 2), the other fires his boltgun twice."""
    _, tb, st, rng = table()
    tb.policy[0, C.POL_GRENADE] = 2
    u, m = _one_marine(st, tb)
    st.wounds[0, u, 2] = 1
    h = put_horde(st, tb, 10.0, 14.0, 25)
    _apart(st, u, h, 5.0)
    thrower = shooting.choose_thrower(st, 0, u, h, 5.0, True, tb)[0]
    assert thrower in (1, 2)
    # the thrower's marker scatters (die 3): 2D6 = 1 + 1 minus BS 4 = 0": still three hits, all fail
    # to wound (1s); the boltgun, die by die: hit 4, wound 2 (S4 v T2 on 2+), save 1 fails; hit 5,
    # wound 1
    script = [3, 1, 1, 1, 1, 1, 4, 2, 1, 5, 1]
    if thrower == 2:
        script = script[6:] + script[:6]
    dice.script(*script)
    dice.script(2)  # the boltgun's noise: D3 = 1 (a d6 of 1-2)
    killed, made = shooting.fire_unit(rng, 0, st, u, h, False, tb, C.PH_SHOOTING)
    dice.done()
    assert killed == 1 and made == 2 + 1
    assert st.res[0, C.R_SP0 + C.SRC_ASSAULT] == 2 and st.res[0, C.R_SP0 + C.SRC_RAPID_FIRE] == 1
    assert st.ust[0, u, C.US_NO_CHARGE] == 1  # the Rapid Fire boltgun fired


def test_no_grenade_is_thrown_in_overwatch(dice):
    _, tb, st, rng = table()
    tb.policy[0, C.POL_GRENADE] = 2
    u, m = _one_marine(st, tb)
    h = put_horde(st, tb, 10.0, 14.0, 20)
    _apart(st, u, h, 5.0)
    # Overwatch at full BS (§6): the boltgun, two shots within half range: hits on 3+ (1, 2 miss)
    dice.script(1, 2, 5)  # then its noise roll, halved by the caller
    killed, made = shooting.fire_unit(rng, 0, st, u, h, True, tb, C.PH_Z_ASSAULT)
    dice.done()
    assert killed == 0 and made == 3 and st.res[0, C.R_SP0 + C.SRC_ASSAULT] == 0
    assert st.pres[0, 0, C.PR_GRENADES] == 0


# ------------------------------------------------------------------ exact odds


@njit
def _throws(st, tb, u, h0, x, y, zombies, seed, killed, rng):
    """Game i: a fresh horde of ``zombies`` at (x, y); unit u (one Marine) throws at it."""
    for i in range(killed.shape[0]):
        rng[0] = stream_start(np.uint64(seed), np.uint64(i))
        for h in range(st.hst.shape[1]):
            st.hst[0, h, 0] = 0
        h = new_horde(st, 0, x, y, zombies, 0, tb)
        st.w_noise[u] = 0
        k, _noise = shooting.fire_unit(rng, 0, st, u, h, False, tb, C.PH_SHOOTING)
        killed[i] = k


@pytest.mark.slow
def test_a_thrown_frag_grenade_into_25_zombies_matches_the_oracle():
    """One Marine (BS 4) throws a frag grenade (S3, AP -, small blast) at 25 zombies (Resilience 4++,
    T2): the kernel's throw through ``fire_unit`` against ``sim.w40k.exact`` (scatter 2D6 - BS,
    models under the marker by the Geometry abstraction)."""
    _, tb, st, rng = table()
    tb.policy[0, C.POL_GRENADE] = 2
    u, m = _one_marine(st, tb)
    st.gear[0, u, m, _grenade_slot(st, u, m, tb, "Krak grenade")] = -1  # (never thrown anyway)
    h = put_horde(st, tb, 10.0, 14.0, 25)
    _apart(st, u, h, 5.0)
    assert shooting.choose_thrower(st, 0, u, h, unit_gap_horde(st, 0, u, h), True, tb)[0] == m
    x, y = float(st.hpos[0, h, 0]), float(st.hpos[0, h, 1])
    zombie = catalogue().unit("Zombie").profile
    from dataclasses import replace

    target = tuple(replace(zombie, inv=4) for _ in range(25))
    exchange = Exchange(catalogue().unit("Tactical Marine").profile, catalogue().weapon("Frag grenade"), 1, target)
    odds = exchange_odds(exchange)
    killed = np.zeros(60_000, np.int64)
    _throws(st, tb, u, h, x, y, 25, np.uint64(11), killed, rng)
    assert killed.max() <= 3  # a small blast over a horde covers three models
    assert_matches_pmf(killed, odds.killed, "thrown frag grenade, 25 zombies")
    assert abs(killed.mean() - odds.mean(odds.killed)) < 0.02
    assert L.K_GRENADE == int(_row("Frag grenade")[L.W_KIND])
