"""The kernels against exact odds, chi-square at a fixed seed, alpha 1e-4 (tests/helpers.py).

- A boltgun volley into a 25-model horde (Resilience: invulnerable 4+) through ``sim.w40k.exact``:
  the horde's counts resolver (``kernels.apocalypse.strike.strike_horde``) against the oracle's
  closed form for 25 one-Wound models with a 4+ invulnerable save.
- The same into 20 Zombies and 2 Juggernauts (Unstoppable Juggernaut!: +1 T and Feel No Pain 6+
  for the Zombies, the Juggernauts' printed T4 and 2 Wounds), wounds to plain Zombies first.
- A close combat round of Tactical Marines into a horde (WS 4 against WS 2).
- Dull Witted zombies against WS 4 Marines: hits ~ Binomial(n, 1/6), unsaved wounds by the
  product of the independent chances (each Marine has one Wound).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from apocalypse_helpers import put_unit, table
from helpers import assert_matches_pmf
from scipy import stats

from kernels.apocalypse import columns as C
from kernels.apocalypse.combat import zombie_attacks
from kernels.apocalypse.hordes import new_horde
from kernels.apocalypse.state import N_OUT_A
from kernels.apocalypse.strike import strike_horde
from kernels.jit import njit
from kernels.rng import stream_start
from kernels.w40k import columns as L
from sim.rulesets.apocalypse.catalogue import catalogue
from sim.w40k.exact import exchange_odds
from sim.w40k.exchange import Exchange
from sim.w40k.tables import model_flags, model_stats, weapon_row

pytestmark = pytest.mark.slow
GAMES = 60_000


@njit
def _volleys(st, tb, spec, n_dice, zombies, juggs, seed, killed, rng):
    """Game i: a fresh horde, ``n_dice`` dice of ``spec`` into it; the models it lost."""
    out = st.w_out[0]
    for i in range(killed.shape[0]):
        rng[0] = stream_start(np.uint64(seed), np.uint64(i))
        for h in range(st.hst.shape[1]):
            st.hst[0, h, 0] = 0
        h = new_horde(st, 0, 24.0, 24.0, zombies, juggs, tb)
        for c in range(out.shape[0]):
            out[c] = 0
        strike_horde(rng, 0, n_dice, spec, st, h, L.NONE, False, tb, out)
        killed[i] = out[L.OUT_KILLED]


@njit
def _zombie_rounds(st, tb, u, n_dice, stats, flags, weapon, strength, wounds0, seed, lost, hits, rng):
    out = st.w_out[0]
    for i in range(lost.shape[0]):
        rng[0] = stream_start(np.uint64(seed), np.uint64(i))
        for m in range(wounds0.shape[0]):
            st.wounds[0, u, m] = wounds0[m]
        for c in range(out.shape[0]):
            out[c] = 0
        lost[i] = zombie_attacks(rng, 0, st, u, n_dice, stats, flags, weapon, strength, True, False, False, False, tb,
                                 out)
        hits[i] = out[L.OUT_HITS]


def _marine():
    return catalogue().unit("Tactical Marine").profile


def _zombie(**changes):
    return replace(catalogue().unit("Zombie").profile, **changes)


def _spec(exchange: Exchange) -> np.ndarray:
    return exchange.spec()


def _kernel_killed(tb, st, spec, n_dice, zombies, juggs, seed=7):
    killed = np.zeros(GAMES, np.int64)
    _volleys(st, tb, spec, n_dice, zombies, juggs, np.uint64(seed), killed, np.zeros(1, np.uint64))
    return killed


def test_bolter_volley_into_a_25_model_horde_matches_the_oracle():
    _, tb, st, _ = table()
    target = tuple(_zombie(inv=4) for _ in range(25))  # Resilience: 6+ improved by 25 // 10 = 2
    exchange = Exchange(_marine(), catalogue().weapon("Boltgun"), 20, target)  # ten Marines at half range
    odds = exchange_odds(exchange)
    assert odds.killed.size == 26
    killed = _kernel_killed(tb, st, _spec(exchange), 20, 25, 0)
    assert_matches_pmf(killed, odds.killed, "boltgun volley, 25 zombies")
    assert abs(killed.mean() - odds.mean(odds.killed)) < 0.05


def test_volley_into_a_horde_with_the_juggernaut_bonus_matches_the_oracle():
    _, tb, st, _ = table(allocation="zombies_first")
    zombie = _zombie(t=3, inv=4, fnp=6, rules=_zombie().rules | {"feel_no_pain"})  # +1 T, FNP 6+ (22 models: 4++)
    jugg = replace(catalogue().unit("Juggernaut").profile, inv=4, fnp=6,
                   rules=catalogue().unit("Juggernaut").profile.rules | {"feel_no_pain"})
    exchange = Exchange(_marine(), catalogue().weapon("Boltgun"), 24, (zombie,) * 20 + (jugg,) * 2)
    odds = exchange_odds(exchange)
    assert exchange.target_t == 3  # the majority Toughness: the Zombies'
    assert_matches_pmf(_kernel_killed(tb, st, _spec(exchange), 24, 20, 2), odds.killed, "volley, 20 + 2 juggernauts")


def test_marines_in_close_combat_with_a_horde_match_the_oracle():
    _, tb, st, _ = table()
    target = tuple(_zombie(inv=5) for _ in range(18))  # 18 models: 5++
    exchange = Exchange(_marine(), catalogue().weapon("Chainsword"), 12, target, melee=True, first_round=False)
    assert_matches_pmf(_kernel_killed(tb, st, _spec(exchange), 12, 18, 0), exchange_odds(exchange).killed,
                       "close combat, 18 zombies")


def test_dull_witted_zombies_against_marines():
    """40 attacks at S4 (Hordes +2) on ten WS 4 Marines: hits only on 6 (1/6); S4 against T4 wounds on
    4+ (1/2); the 3+ armour save fails on 1-2 (1/3); each Marine has 1 Wound."""
    _, tb, st, _ = table()
    u = put_unit(st, tb, 1, 20, 20)
    wounds0 = st.wounds[0, u].copy()
    lost, hits = np.zeros(GAMES, np.int64), np.zeros(GAMES, np.int64)
    _zombie_rounds(st, tb, u, 40, tb.zstats[C.ZK_ZOMBIE], tb.zflags[C.ZK_ZOMBIE], tb.weapons[tb.ids[0]], 4,
                   wounds0, np.uint64(3), lost, hits, np.zeros(1, np.uint64))
    assert_matches_pmf(hits, stats.binom.pmf(np.arange(41), 40, 1 / 6), "Dull Witted hits")
    models = int((wounds0 > 0).sum())
    per_attack = stats.binom.pmf(np.arange(41), 40, 1 / 6 * 1 / 2 * 1 / 3)
    pmf = np.zeros(models + 1)
    pmf[:models] = per_attack[:models]
    pmf[models] = per_attack[models:].sum()
    assert_matches_pmf(lost, pmf, "Dull Witted unsaved wounds")


def test_the_oracle_sees_resilience_as_the_profile_s_invulnerable_save():
    """The oracle has no horde of its own: the tests hand it the horde's models with the saves the
    rules give them at that size (`kernels.apocalypse.hordes.resilience_inv`)."""
    from kernels.apocalypse.hordes import resilience_inv

    assert [resilience_inv(n // 10, 6, 2) for n in (9, 25, 30, 55)] == [6, 4, 3, 2]
    z = _zombie(inv=4)
    assert model_stats(z)[L.INV] == 4 and model_flags(z) & L.MR_FEARLESS
    assert weapon_row(catalogue().weapon("Boltgun"))[L.W_KIND] == L.K_RAPID_FIRE
    assert N_OUT_A > L.N_OUT
