"""The mods of Zombie 40,000 (zombie40k §10, A11, A36-A41): each mod's transformation of the
config or kernel flag, the contradictions rejected, Lore Friendly's team check, and each mod's
rule change observed on a table set up by hand in the kernels run as plain Python (``dice``:
hand-fed dice, ``nojit``: real dice; see conftest.py).

Statistical tests use the house gate ``assert_matches_pmf`` (chi-square, alpha = 1e-4, fixed
seeds): an honest kernel fails one run in 10,000.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from dataclasses import replace
from fractions import Fraction
from itertools import combinations
from math import comb
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import EXAMPLES, clear_table, example_config, one_game, put_unit, team_config
from helpers import assert_matches_pmf

import kernels.rng
import kernels.w40k.combat
import kernels.w40k.exchange
import kernels.zombie40k.assault
import kernels.zombie40k.casualties
import kernels.zombie40k.geometry
import kernels.zombie40k.movement
import kernels.zombie40k.powerups
import kernels.zombie40k.shooting
import kernels.zombie40k.shop
import kernels.zombie40k.spawning
import kernels.zombie40k.turn
import kernels.zombie40k.units
import sim.play
from kernels.w40k import columns as L
from kernels.w40k.attack_spec import shooting_spec
from kernels.zombie40k import columns as GL
from kernels.zombie40k.state import X_BOSS, X_ZOMBIE
from sim.rulesets.zombie40k.catalogue import catalogue, killing_floor
from sim.rulesets.zombie40k.compile import boss_profile, compile_tables, weapon_index, zombie_profile
from sim.rulesets.zombie40k.config import MODS, ConfigError, PlayerConfig, make_config, parse_dice, with_mods
from sim.rulesets.zombie40k.mods import CONTRADICTIONS, MOD_BY_KEY, MOD_LIST, contradiction, kernel_flags, resolve
from sim.rulesets.zombie40k.results import results_frame
from sim.rulesets.zombie40k.teams import ModelChoice, Team, build_team, team_cost
from sim.w40k.exact import exchange_odds
from sim.w40k.exchange import Exchange, simulate_exchange
from sim.w40k.odds import shots_per_model
from sim.w40k.tables import model_flags, model_stats, weapon_row, wound_chart

CAT = catalogue()
INDEX = weapon_index(CAT)
ROOT = Path(__file__).resolve().parents[1]
FOUR = ROOT / "examples" / "configs" / "four_players.toml"
TWO = ROOT / "examples" / "configs" / "two_players.toml"


def modded(*mods: str, name: str = "two_players", **params):
    """An example config with mods selected (and parameters replaced)."""
    return replace(example_config(name, **params), mods=frozenset(mods))


def _weapon(name: str) -> int:
    return INDEX[name]


# ------------------------------------------------------------------ table helpers (test_game.py style)


_clear, _put = clear_table, put_unit


def _hull_y(tb):
    return tb.prm[GL.P_TABLE_L] - tb.prm[GL.P_EV_D]


def _ev_distance(st, tb, u):
    return kernels.zombie40k.geometry.ev_distance(*st.pos[0, u], st.radius[0, u], tb.prm)


def _wipe_squad(st, tb, rng, p, killer):
    st.wounds[0, p] = 0
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    kernels.zombie40k.casualties.wipe(st, 0, p, killer, tb, rng)


def _kill_spec():
    """One automatic hit that wounds automatically, no save, no Feel No Pain, S1 (no Instant
    Death): each attack die removes one Wound and rolls no die."""
    spec = np.zeros(L.N_SPEC, np.int64)
    spec[L.SP_HIT_MODE], spec[L.SP_AUTO_WOUND], spec[L.SP_NO_SAVES], spec[L.SP_NO_FNP] = L.HM_AUTO, 1, 1, 1
    spec[L.SP_STRENGTH], spec[L.SP_AP], spec[L.SP_AP_ON_6], spec[L.SP_MELEE] = 1, 7, 7, 1
    return spec


def _strike(st, tb, rng, u, v, n_dice):
    n = st.pos.shape[1]
    out = np.zeros(L.N_OUT, np.int64)
    kernels.zombie40k.assault._strike(st, 0, u, v, n_dice, _kill_spec(), np.zeros(n, np.int64),
                                      np.zeros(n, np.int64), tb, rng, out)
    return out


# ================================================================== 1. transformations and flags


def test_s10_9_t_virus_gives_horde_zombies_t4_fnp4_and_leaves_the_boss():
    base, tv = compile_tables(modded()), compile_tables(modded("t_virus"))
    z, b = tv.extra_stats[X_ZOMBIE], tv.extra_stats[X_BOSS]
    assert (base.extra_stats[X_ZOMBIE, L.T], base.extra_stats[X_ZOMBIE, L.FNP]) == (3, 5)
    assert (z[L.T], z[L.FNP]) == (4, 4)
    others = [c for c in range(L.N_STATS) if c not in (L.T, L.FNP)]
    assert (z[others] == base.extra_stats[X_ZOMBIE, others]).all()
    assert (b == base.extra_stats[X_BOSS]).all()  # default: not the Boss (tvirus_boss = false)
    custom = compile_tables(modded("t_virus", tvirus_t=6, tvirus_fnp=3, tvirus_boss=True))
    assert (custom.extra_stats[X_ZOMBIE, L.T], custom.extra_stats[X_ZOMBIE, L.FNP]) == (6, 3)
    assert (custom.extra_stats[X_BOSS, L.T], custom.extra_stats[X_BOSS, L.FNP]) == (6, 3)


def test_s10_9_t_virus_zombies_in_a_game_have_the_compiled_profile(nojit):
    st, tb, _ = one_game(modded("t_virus"), seed=3)
    for h in (2, 3, 4, 5):
        living = st.wounds[0, h] > 0
        assert (st.stats[0, h, living, L.T] == 4).all() and (st.stats[0, h, living, L.FNP] == 4).all()
    assert st.stats[0, 6, 0, L.T] == 5  # the Boss keeps its profile


def test_s10_2_four_weeks_later_fast_zombies():
    base, fwl = compile_tables(modded()), compile_tables(modded("four_weeks_later"))
    z, flags = fwl.extra_stats[X_ZOMBIE], int(fwl.extra_flags[X_ZOMBIE])
    assert z[L.FNP] == L.NONE  # no Feel No Pain
    assert flags & L.MR_FURIOUS_CHARGE and flags & L.MR_RAGE
    assert not int(base.extra_flags[X_ZOMBIE]) & (L.MR_FURIOUS_CHARGE | L.MR_RAGE)
    assert (fwl.prm[GL.P_SHAMBLE_N], fwl.prm[GL.P_SHAMBLE_KEEP], fwl.prm[GL.P_SHAMBLE_D3]) == (3, 2, 0)
    assert (base.prm[GL.P_SHAMBLE_N], base.prm[GL.P_SHAMBLE_KEEP]) == (2, 0)
    assert parse_dice(modded().fwl_shamble_dice) == (3, 2, 0)  # 3D6, keep the two highest [I]
    assert z[L.T] == base.extra_stats[X_ZOMBIE, L.T]  # Toughness untouched
    assert (fwl.extra_stats[X_BOSS] == base.extra_stats[X_BOSS]).all()


@pytest.mark.parametrize(("mods", "script", "inches"), [((), (1, 5), 6.0), (("four_weeks_later",), (1, 5, 6), 11.0)])
def test_s10_2_four_weeks_later_shambles_3d6_keeping_the_two_highest(dice, mods, script, inches):
    st, tb, rng = one_game(modded(*mods))
    _clear(st, keep=(0, 2))
    _put(st, tb, 0, 24.0, 30.0)
    _put(st, tb, 2, 24.0, 30.0 + st.radius[0, 0] + st.radius[0, 2] + 20.0)
    dice.script(*script)
    kernels.zombie40k.movement.shamble_phase(st, 0, tb, rng)
    dice.done()
    gap = kernels.zombie40k.geometry.edge_distance(*st.pos[0, 0], st.radius[0, 0], *st.pos[0, 2], st.radius[0, 2])
    assert gap == pytest.approx(20.0 - inches)


def test_s10_6_hardcore_one_respawn_no_powerups_no_usr():
    config = resolve(modded("hardcore"))
    assert (config.max_respawns, config.powerups_enabled, config.usr_allowed) == (1, False, False)
    assert all(p.team.usr == "" for p in config.players)
    base, hard = compile_tables(_as_listed(modded())), compile_tables(_as_listed(modded("hardcore")))
    assert (hard.prm[GL.P_MAX_RESPAWNS], hard.prm[GL.P_POWERUPS]) == (1, 0)
    assert (base.prm[GL.P_MAX_RESPAWNS], base.prm[GL.P_POWERUPS]) == (-1, 1)
    # the Guard sergeant's Feel No Pain and the Marine sergeant's Counter-Attack are USRs: gone
    assert base.squad_stats[0, 0, L.FNP] == 5 and hard.squad_stats[0, 0, L.FNP] == L.NONE
    assert base.squad_flags[1, 0] & L.MR_COUNTER_ATTACK and not hard.squad_flags[1, 0] & L.MR_COUNTER_ATTACK
    assert (hard.squad_wounds > 0).sum() == (base.squad_wounds > 0).sum()  # same models otherwise


def test_s10_7_instant_death_no_respawns():
    assert resolve(modded("instant_death")).max_respawns == 0
    assert compile_tables(modded("instant_death")).prm[GL.P_MAX_RESPAWNS] == 0


def test_s10_10_boss_variant_fields_the_patriarch():
    tb = compile_tables(modded("boss_variant"))
    boss = tb.extra_stats[X_BOSS]
    ws, bs, s, t, w, i, a, ld = (boss[c] for c in (L.WS, L.BS, L.S, L.T, L.W, L.I, L.A, L.LD))
    assert (ws, bs, s, t, w, i, a, ld) == (5, 4, 6, 6, 6, 3, 4, 10)  # zombie40k §10.10 default [C]
    assert boss[L.SV] == L.NONE and boss[L.FNP] == 4
    flags = int(tb.extra_flags[X_BOSS])
    for rule in (L.MR_CONCUSSIVE, L.MR_EW, L.MR_FEARLESS, L.MR_IT_WILL_NOT_DIE, L.MR_RELENTLESS, L.MR_RENDING,
                 L.MR_ZOMBIE):
        assert flags & rule, rule
    gear = set(tb.extra_gear[X_BOSS][tb.extra_gear[X_BOSS] >= 0].tolist())
    assert _weapon("Assault cannon") in gear
    assert {_weapon("Missile launcher (frag)"), _weapon("Missile launcher (krak)")} & gear
    base = compile_tables(modded())
    assert _weapon("Manreaper") in base.extra_gear[X_BOSS] and _weapon("Manreaper") not in gear
    assert (tb.extra_stats[X_ZOMBIE] == base.extra_stats[X_ZOMBIE]).all()  # the hordes are unchanged
    assert boss_profile(resolve(modded("boss_variant")), CAT).name == "Patriarch"


def test_s10_10_boss_variant_unit_must_be_a_zombie():
    with pytest.raises(ConfigError, match="not a zombies-side unit"):
        compile_tables(modded("boss_variant", boss_variant_unit="Tactical Marine"))


def _kf_gear_row():
    return {_weapon("Bolt pistol"), _weapon("Close combat weapon"), _weapon("Frag grenade")}


def test_s10_11_killing_floor_refits_teams_and_wargear():
    config = resolve(modded("killing_floor"))
    assert config.team_budget == 50
    for player in config.players:
        team = player.team
        assert not any(m.leader or m.swap or m.options for m in team.models)
        cost = team_cost(team, CAT)
        each = CAT.unit(team.models[0].unit).cost_per_model
        assert cost <= 50 < cost + each  # as many plain models as 50 points buy
    tb = compile_tables(modded("killing_floor"))
    n_guard, n_marines = (tb.squad_wounds > 0).sum(axis=1)
    assert (n_guard, n_marines) == (10, 3)  # 10 Guardsmen at 5 points, 3 Tactical Marines at 14
    for p, n in ((0, n_guard), (1, n_marines)):
        for m in range(n):
            row = tb.squad_gear[p, m]
            assert set(row[row >= 0].tolist()) == _kf_gear_row(), (p, m)
            assert not tb.squad_flags[p, m] & L.MR_LEADER
    base = compile_tables(modded())
    assert (tb.squad_stats[0, 1] == base.squad_stats[0, 1]).all()  # profile and armour stay
    small = compile_tables(modded("killing_floor", kf_budget=30))
    assert (small.squad_wounds > 0).sum(axis=1).tolist() == [6, 2]


def test_s10_11_killing_floor_shop_table_in_wish_list_order():
    config = modded("killing_floor")
    tb = compile_tables(config)
    prices = {k.item: k for k in killing_floor(CAT)}
    assert tb.shop.shape == (len(config.kf_wishlist), GL.N_SHOP)
    for row, item in zip(tb.shop, config.kf_wishlist):
        entry = prices[item] if item in prices else \
            next(k for k in killing_floor(CAT) if k.item.lower() == item.lower())
        assert row[GL.SH_WEAPON] == _weapon(CAT.profiles_of(entry.item)[0].name)
        assert row[GL.SH_COST] == entry.cost
        assert row[GL.SH_PSYKER] == entry.psyker_only and row[GL.SH_SQUAD] == (entry.table == "grenades")
        expect_slot = {"pistols": GL.G_RANGED1, "basic": GL.G_RANGED2, "heavy": GL.G_RANGED2,
                       "melee": GL.G_MELEE1, "grenades": GL.G_GRENADE}[entry.table]
        assert row[GL.SH_SLOT] == expect_slot
    assert [int(r[GL.SH_COST]) for r in tb.shop] == [4, 2, 1, 1, 5, 3, 2]  # zombie40k §10.11 placeholders [C]
    cheap = compile_tables(modded("killing_floor", kf_prices={"Assault cannon": 9, "power FIST": 1},
                                  kf_wishlist=("Power fist", "Assault cannon", "Krak grenade", "Force sword")))
    assert cheap.shop[:, GL.SH_COST].tolist() == [1, 9, 2, 3]
    assert cheap.shop[:, GL.SH_WEAPON].tolist()[:2] == [_weapon("Power fist"), _weapon("Assault cannon")]
    assert cheap.shop[:, GL.SH_SQUAD].tolist() == [0, 0, 1, 0] and cheap.shop[:, GL.SH_PSYKER].tolist() == [0, 0, 0, 1]
    assert compile_tables(modded()).shop.shape[0] == 0  # no shop without the mod


def test_s10_11_killing_floor_price_list_errors():
    with pytest.raises(ConfigError, match="kf_prices"):
        compile_tables(modded("killing_floor", kf_prices={"Lascannon": 2}))
    with pytest.raises(ConfigError, match="kf_wishlist"):
        compile_tables(modded("killing_floor", kf_wishlist=("Lascannon",)))


@pytest.mark.parametrize(
    ("mod", "flags"),
    [
        ("coop", {GL.P_COOP: 1, GL.P_PVP: 0, GL.P_BOSS_BLOCKS_EV: 1, GL.P_EV_EDGE_ARRIVALS: 1}),
        ("dead_men_walking", {GL.P_DMW: 1}),
        ("death_korps", {GL.P_DK: 1}),
        ("every_man_for_himself", {GL.P_EMFH: 1}),
        ("killing_floor", {GL.P_KF: 1}),
    ],
)
def test_s10_kernel_flags_of_each_mod(mod, flags):
    base, tb = compile_tables(modded()), compile_tables(modded(mod))
    for key, value in flags.items():
        assert tb.prm[key] == value, (mod, key)
        assert base.prm[key] != value, (mod, key)  # the flag is off without the mod
    changed = set(np.flatnonzero(base.prm != tb.prm).tolist())
    assert changed == set(flags), (mod, changed ^ set(flags))  # nothing else changes


def test_s10_kernel_flags_carry_the_mod_parameters():
    config = example_config("four_players", dk_start_t=2, dk_start_fnp=7, dk_max_t=5, dk_max_fnp=4, dk_scope="global",
                            emfh_radius_in=4.0, emfh_fail_on=5, kf_points_per_kill=3, dmw_fnp=6,
                            coop_no_respawn_radius_in=9.0)
    tb = compile_tables(with_mods(config, ["death_korps", "killing_floor", "dead_men_walking", "coop"]))
    got = [tb.prm[k] for k in (GL.P_DK_START_T, GL.P_DK_START_FNP, GL.P_DK_MAX_T, GL.P_DK_MAX_FNP, GL.P_DK_GLOBAL,
                               GL.P_EMFH_RADIUS, GL.P_EMFH_FAIL_ON, GL.P_KF_PER_KILL, GL.P_DMW_FNP,
                               GL.P_COOP_NO_RESPAWN_RADIUS)]
    assert got == [2, 7, 5, 4, 1, 4.0, 5, 3, 6, 9.0]


def test_s10_mod_list_matches_the_spec():
    assert tuple(m.key for m in MOD_LIST) == MODS and len(MODS) == 11
    sections = [m.section for m in MOD_LIST]
    assert sections == [f"§10.{k}" for k in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)]
    flags = kernel_flags(modded("coop", "dead_men_walking", "death_korps", "killing_floor", "t_virus", "hardcore"))
    assert set(flags) == {GL.P_COOP, GL.P_PVP, GL.P_BOSS_BLOCKS_EV, GL.P_EV_EDGE_ARRIVALS, GL.P_DMW, GL.P_DK, GL.P_KF}
    assert kernel_flags(modded("t_virus", "hardcore", "instant_death", "lore_friendly")) == {}  # transforms only


@pytest.mark.parametrize(("removed", "mask"), [((), 0), ((7,), 1 << 7), ((2, 12, 4), (1 << 2) | (1 << 4) | (1 << 12))])
def test_s8_powerups_removed_bitmask(removed, mask):
    tb = compile_tables(modded(powerups_removed=removed))
    assert int(tb.prm[GL.P_PU_REMOVED]) == mask
    for r in range(2, 13):
        assert (tb.pu_value[r] < -1e8) == (r in removed)


# ================================================================== 2. contradictions


@pytest.mark.parametrize("pair", sorted(tuple(sorted(p)) for p in CONTRADICTIONS))
def test_s10_contradictory_mods_are_rejected_in_one_line(pair):
    with pytest.raises(ConfigError) as err:
        compile_tables(modded(*pair))
    message = str(err.value)
    assert "\n" not in message and pair[0] in message and pair[1] in message
    assert contradiction(set(pair) | {"lore_friendly"}) == message  # a third mod does not hide it


def test_s10_every_other_pair_of_mods_compiles():
    config = example_config("two_players")
    compiled = 0
    for a, b in combinations(MODS, 2):
        if frozenset({a, b}) in CONTRADICTIONS:
            continue
        tb = compile_tables(replace(config, mods=frozenset({a, b})))
        assert tb.prm.shape == (GL.N_PRM,), (a, b)
        compiled += 1
    assert compiled == comb(11, 2) - len(CONTRADICTIONS) == 50


def test_s10_contradictions_are_the_documented_ones():
    """T-Virus / Death Korps / Four Weeks Later each set Toughness or FNP; Hardcore (one
    respawn) vs Instant Death (none); Every Man For Himself vs Coop."""
    expected = {frozenset(p) for p in (("t_virus", "death_korps"), ("t_virus", "four_weeks_later"),
                                       ("death_korps", "four_weeks_later"), ("hardcore", "instant_death"),
                                       ("coop", "every_man_for_himself"))}
    assert set(CONTRADICTIONS) == expected


# ================================================================== 3. Lore Friendly


def _player(name: str, *units: str, usr: str = "") -> PlayerConfig:
    return PlayerConfig(name, Team(name, tuple(ModelChoice(u) for u in units), usr))


def _lore(*players: PlayerConfig):
    return make_config(players, {}, mods=["lore_friendly"])


def test_s10_8_lore_friendly_rejects_the_mark_of_nurgle():
    plague = team_config("plague", "marines")
    compile_tables(plague)  # legal without the mod
    with pytest.raises(ConfigError, match="Mark of Nurgle") as err:
        compile_tables(with_mods(plague, ["lore_friendly"]))
    assert "\n" not in str(err.value) and "plague" in str(err.value).lower()


def test_s10_8_lore_friendly_rejects_come_the_apocalypse():
    mixed = _player("Mixed", "Hormagaunt", "Hormagaunt", "Tactical Marine")
    compile_tables(make_config((mixed,), {}))
    with pytest.raises(ConfigError, match="come the apocalypse") as err:
        compile_tables(_lore(mixed))
    assert "Tyranids" in str(err.value) and "Space Marines" in str(err.value)


def test_s10_8_lore_friendly_rejects_desperate_allies():
    with pytest.raises(ConfigError, match="desperate allies"):
        compile_tables(_lore(_player("Odd", "Ork Boy", "Tactical Marine")))


def test_s10_8_lore_friendly_accepts_one_faction_and_battle_brothers():
    tb = compile_tables(with_mods(team_config("marines", "tyranids", "guard"), ["lore_friendly"]))
    assert tb.squad_wounds.shape[0] == 3
    imperial = _player("Imperial", "Tactical Marine", "Guardsman", "Guardsman")
    tb = compile_tables(_lore(imperial))
    assert (tb.squad_wounds[0] > 0).sum() == 3
    assert compile_tables(_lore(_player("Eldar", "Dire Avenger", "Guardsman")))  # Allies of Convenience


# ================================================================== 4. scenarios: Dead Men Walking


def _as_listed(config):
    """Each squad's models in the team file's order (policy ``removal = 1``): the scenes name the
    Guard sergeant as slot 0."""
    return replace(config, players=tuple(replace(p, policy=replace(p.policy, removal=1)) for p in config.players))


def _dmw_combat(config=None):
    """Guard (squad 0) locked with horde 2 in the middle of the table, nobody else about."""
    config = _as_listed(config or modded("dead_men_walking"))
    st, tb, rng = one_game(config, seed=2)
    _clear(st, keep=(0, 2))
    _put(st, tb, 0, 24.0, 30.0)
    _put(st, tb, 2, 24.0, 30.0 + st.radius[0, 0] + st.radius[0, 2])
    kernels.zombie40k.units.lock(st, 0, 0, 2)
    return st, tb, rng


def test_s10_3_dead_men_walking_slain_survivor_joins_the_horde(dice):
    st, tb, rng = _dmw_combat()
    sarge = st.stats[0, 0, 0].copy()
    sarge_flags, sarge_gear = int(st.mflags[0, 0, 0]), st.gear[0, 0, 0].copy()
    assert sarge_flags & L.MR_LEADER and sarge[L.FNP] == 5  # Feel No Pain USR (guard.toml)
    st.mpow[0, 0, 0] = GL.MP_CHAINSAW  # a power-up it holds is lost
    guard_before, horde_before = kernels.zombie40k.units.alive(st, 0, 0), kernels.zombie40k.units.alive(st, 0, 2)
    out = _strike(st, tb, rng, 2, 0, 1)  # the horde kills the sergeant (slot 0)
    dice.done()
    assert out[L.OUT_KILLED] == 1
    assert kernels.zombie40k.units.alive(st, 0, 0) == guard_before - 1 and st.wounds[0, 0, 0] == 0
    assert kernels.zombie40k.units.alive(st, 0, 2) == horde_before + 1
    k = horde_before  # the first free slot of the full horde
    assert st.wounds[0, 2, k] == sarge[L.W]
    expect = sarge.copy()
    expect[L.FNP] = min(sarge[L.FNP], 5)
    assert (st.stats[0, 2, k] == expect).all()
    assert int(st.mflags[0, 2, k]) == (sarge_flags | L.MR_ZOMBIE) & ~L.MR_LEADER
    assert (st.gear[0, 2, k] == sarge_gear).all() and st.mpow[0, 2, k] == 0
    assert st.radius[0, 2] == pytest.approx(kernels.zombie40k.geometry.unit_radius(horde_before + 1, tb.prm))


def test_s10_3_dead_men_walking_fnp_is_at_worst_dmw_fnp_and_wounds_are_full(dice):
    st, tb, rng = _dmw_combat()
    st.stats[0, 0, 1, L.FNP] = L.NONE  # a Guardsman without Feel No Pain
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    st.stats[0, 0, 2, L.FNP] = 4  # one with a better Feel No Pain keeps it
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    st.stats[0, 0, 2, L.W], st.wounds[0, 0, 2] = 3, 1  # wounded: it rises with its full 3 Wounds
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    st.wounds[0, 0, 0] = 0  # the sergeant is already dead
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    _strike(st, tb, rng, 2, 0, 2)
    dice.done()
    assert st.stats[0, 2, 5, L.FNP] == 5 and st.stats[0, 2, 6, L.FNP] == 4
    assert st.wounds[0, 2, 5] == 1 and st.wounds[0, 2, 6] == 3
    assert all(st.mflags[0, 2, k] & L.MR_ZOMBIE for k in (5, 6))


def test_s10_3_dead_men_walking_parameter_dmw_fnp(dice):
    st, tb, rng = _dmw_combat(modded("dead_men_walking", dmw_fnp=3))
    st.wounds[0, 0, 0] = 0
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    _strike(st, tb, rng, 2, 0, 1)
    dice.done()
    assert st.stats[0, 2, 5, L.FNP] == 3


def test_s10_3_no_conversion_without_the_mod(dice):
    st, tb, rng = _dmw_combat(modded())
    _strike(st, tb, rng, 2, 0, 2)
    dice.done()
    assert kernels.zombie40k.units.alive(st, 0, 2) == 5 and (st.wounds[0, 2, 5:] == 0).all()


def test_s10_3_no_conversion_when_the_horde_was_already_wiped(dice):
    st, tb, rng = _dmw_combat()
    kernels.zombie40k.units.remove_unit(st, 0, 2)  # wiped at this Initiative step; its counted attacks still strike
    guard_before = kernels.zombie40k.units.alive(st, 0, 0)
    _strike(st, tb, rng, 2, 0, 1)
    dice.done()
    assert kernels.zombie40k.units.alive(st, 0, 0) == guard_before - 1
    assert kernels.zombie40k.units.alive(st, 0, 2) == 0 and not kernels.zombie40k.units.on_table(st, 0, 2)


def test_s10_3_no_conversion_by_the_boss(dice):
    """Only a zombie *horde* takes a slain survivor (§10.3)."""
    st, tb, rng = _dmw_combat()
    boss = st.pos.shape[1] - 1
    kernels.zombie40k.spawning.build_boss(st, 0, tb)
    _put(st, tb, boss, 24.0, 20.0)
    before = kernels.zombie40k.units.alive(st, 0, boss)
    _strike(st, tb, rng, boss, 0, 1)
    dice.done()
    assert kernels.zombie40k.units.alive(st, 0, boss) == before and kernels.zombie40k.units.alive(st, 0, 2) == 5


def test_s10_3_survivor_shot_by_zombies_does_not_convert(nojit):
    st, tb, rng = _dmw_combat()
    kernels.zombie40k.units.unlock_all(st, 0, 0)
    _put(st, tb, 2, 24.0, 30.0 + st.radius[0, 0] + st.radius[0, 2] + 6.0)  # autogun at half range
    stats_before = st.stats[0, 2].copy()
    killed = 0
    for _ in range(60):
        before = kernels.zombie40k.units.alive(st, 0, 0)
        kernels.zombie40k.shooting.shoot(st, 0, 2, 0, tb, rng, False, False, -1)
        killed += before - kernels.zombie40k.units.alive(st, 0, 0)
        if killed >= 2 or not kernels.zombie40k.units.on_table(st, 0, 0):
            break
    assert killed >= 1  # the autogun did kill
    assert kernels.zombie40k.units.alive(st, 0, 2) == 5 and (st.wounds[0, 2, 5:] == 0).all()
    assert (st.stats[0, 2] == stats_before).all()


def test_s10_3_converted_models_do_not_come_back_on_respawn(dice):
    st, tb, rng = _dmw_combat()
    _strike(st, tb, rng, 2, 0, 3)
    assert kernels.zombie40k.units.alive(st, 0, 2) == 8
    kernels.zombie40k.units.remove_unit(st, 0, 2)
    kernels.zombie40k.units.unlock_all(st, 0, 0)
    dice.script(1)  # Zombie Respawn Table: the player edge
    assert kernels.zombie40k.spawning.respawn_horde(st, 0, 2, tb, rng)
    dice.done()
    assert kernels.zombie40k.units.alive(st, 0, 2) == tb.horde_size[0] == 5
    assert (st.wounds[0, 2, 5:] == 0).all()
    for m in range(5):
        assert (st.stats[0, 2, m] == tb.extra_stats[X_ZOMBIE]).all()
        assert not st.mflags[0, 2, m] & L.MR_LEADER


def test_s10_3_close_combat_kills_all_convert_with_real_dice(nojit):
    """Whole combat rounds (both sides strike, real dice): in the first round where Guardsmen
    fall, each of them rises in the horde with its profile (FNP 5+ at worst). The zombies are
    made unwoundable and fierce (T10, A3) so that they live to strike."""
    st, tb, rng = _dmw_combat()
    st.stats[0, 2, :5, L.T], st.stats[0, 2, :5, L.A] = 10, 3
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    guard = {m: st.stats[0, 0, m].copy() for m in range(11)}
    for _ in range(20):
        kernels.zombie40k.assault.fight(st, 0, 0, tb, rng)
        lost = [m for m in range(11) if st.wounds[0, 0, m] == 0]
        if lost:
            break
    assert lost and kernels.zombie40k.units.on_table(st, 0, 2)
    risen = [k for k in range(5, st.wounds.shape[2]) if st.wounds[0, 2, k] > 0]
    assert len(risen) == len(lost)
    for k, m in zip(risen, lost):
        expect = guard[m].copy()
        expect[L.FNP] = min(expect[L.FNP], 5)
        assert (st.stats[0, 2, k] == expect).all()
        assert st.mflags[0, 2, k] & L.MR_ZOMBIE and not st.mflags[0, 2, k] & L.MR_LEADER


# ================================================================== Death Korps


def _respawn_scene(config):
    st, tb, rng = one_game(config, seed=4)
    _clear(st, keep=(0,))
    _put(st, tb, 0, 10.0, 30.0)
    return st, tb, rng


def _respawn(dice, st, tb, rng, h):
    kernels.zombie40k.units.remove_unit(st, 0, h)
    dice.script(1)  # the player edge
    assert kernels.zombie40k.spawning.respawn_horde(st, 0, h, tb, rng)
    dice.done()


def _horde_t_fnp(st, h):
    living = st.wounds[0, h] > 0
    t, fnp = set(st.stats[0, h, living, L.T].tolist()), set(st.stats[0, h, living, L.FNP].tolist())
    assert len(t) == len(fnp) == 1
    return t.pop(), fnp.pop()


def test_s10_4_death_korps_escalates_per_respawn_to_the_caps(dice):
    config = modded("death_korps")
    st, tb, rng = _respawn_scene(config)
    seen = [_horde_t_fnp(one_game(config, seed=4)[0], 2)]  # as deployed at the start
    for _ in range(4):
        _respawn(dice, st, tb, rng, 2)
        seen.append(_horde_t_fnp(st, 2))
    c = config
    expected = [(min(c.dk_max_t, c.dk_start_t + n), max(c.dk_max_fnp, c.dk_start_fnp - n)) for n in range(5)]
    assert seen == expected == [(3, 6), (4, 5), (5, 4), (6, 3), (6, 3)]
    assert st.ustate[0, 2, GL.US_DK_LEVEL] == 4


def test_s10_4_death_korps_parameters(dice):
    config = modded("death_korps", dk_start_t=2, dk_start_fnp=7, dk_max_t=4, dk_max_fnp=5)
    st, tb, rng = _respawn_scene(config)
    seen = []
    for _ in range(4):
        _respawn(dice, st, tb, rng, 2)
        seen.append(_horde_t_fnp(st, 2))
    assert seen == [(3, 6), (4, 5), (4, 5), (4, 5)]


@pytest.mark.parametrize("params, message", [
    (dict(dk_start_t=4, dk_max_t=3), "dk_max_t = 3 is below dk_start_t = 4"),
    (dict(dk_start_fnp=5, dk_max_fnp=6), "dk_max_fnp = 6 is worse than dk_start_fnp = 5"),
])
def test_s10_4_death_korps_ceiling_below_its_start_is_refused(params, message):
    """A ceiling below the start would clamp the start silently: one line naming both fields."""
    with pytest.raises(ConfigError, match=message) as err:
        modded("death_korps", **params)
    assert "\n" not in str(err.value) and "allowed" in str(err.value)
    modded("death_korps", dk_start_t=4, dk_max_t=4, dk_start_fnp=5, dk_max_fnp=5)  # equal: no escalation, allowed


def test_s10_4_death_korps_fnp_is_rolled(dice, rng):
    """The escalated Feel No Pain is taken in the attack: a 4 saves a level-2 (FNP 4+) zombie
    and not a level-1 (FNP 5+) one."""
    config = modded("death_korps")
    st, tb, rng_ = _respawn_scene(config)
    spec = _kill_spec()
    spec[L.SP_NO_FNP] = 0
    for level, saved in ((1, 0), (2, 1)):
        _respawn(dice, st, tb, rng_, 2)
        wounds = st.wounds[0, 2].copy()
        out = np.zeros(L.N_OUT, np.int64)
        dice.script(4)
        kernels.w40k.combat.resolve_attacks(rng, 0, 1, spec, wounds, st.stats[0, 2], st.mflags[0, 2],
                                       np.zeros(wounds.shape[0], np.int8), 7, 0, np.zeros(0, np.int64), out)
        dice.done()
        assert out[L.OUT_FNP] == saved, level


def test_s10_4_death_korps_per_horde_scope(dice):
    st, tb, rng = _respawn_scene(modded("death_korps"))
    _respawn(dice, st, tb, rng, 2)
    _respawn(dice, st, tb, rng, 2)
    _respawn(dice, st, tb, rng, 3)
    assert _horde_t_fnp(st, 2) == (5, 4) and _horde_t_fnp(st, 3) == (4, 5)  # A37: per horde
    assert st.ustate[0, 4, GL.US_DK_LEVEL] == 0  # never respawned


def test_s10_4_death_korps_global_scope(dice):
    st, tb, rng = _respawn_scene(modded("death_korps", dk_scope="global"))
    _respawn(dice, st, tb, rng, 2)
    _respawn(dice, st, tb, rng, 2)
    _respawn(dice, st, tb, rng, 3)  # the third respawn of any horde
    assert _horde_t_fnp(st, 3) == (6, 3)
    assert all(st.ustate[0, h, GL.US_DK_LEVEL] == 3 for h in (2, 3, 4, 5))


def test_s10_4_death_korps_leaves_the_boss(nojit):
    st, tb, _ = one_game(modded("death_korps"), seed=1)
    boss = st.pos.shape[1] - 1
    assert st.stats[0, boss, 0, L.T] == 5 and st.stats[0, boss, 0, L.FNP] == 5


# ================================================================== Hardcore / Instant Death


def test_s10_6_hardcore_squad_respawns_once(nojit):
    st, tb, rng = one_game(modded("hardcore"), seed=7)
    _clear(st, keep=(0, 1))
    _put(st, tb, 1, 24.0, 30.0)
    _wipe_squad(st, tb, rng, 0, killer=2)
    kernels.zombie40k.turn.respawning_phase(st, 0, 0, tb, rng)
    assert kernels.zombie40k.units.on_table(st, 0, 0) and st.ustate[0, 0, GL.US_RESPAWNS] == 1
    assert st.pres[0, 0, GL.PR_POWERUP0:].sum() == 0  # Hardcore: no power-up roll after respawning
    _wipe_squad(st, tb, rng, 0, killer=2)
    for _ in range(3):
        kernels.zombie40k.turn.respawning_phase(st, 0, 0, tb, rng)
        assert not kernels.zombie40k.units.on_table(st, 0, 0)
    assert st.pres[0, 0, GL.PR_RESPAWNS] == 1


def test_s10_6_base_game_squad_respawns_every_time(nojit):
    """The control of the test above: without Hardcore the second wipe is followed by a respawn."""
    st, tb, rng = one_game(modded(), seed=7)
    _clear(st, keep=(0, 1))
    _put(st, tb, 1, 24.0, 30.0)
    for k in range(3):
        _wipe_squad(st, tb, rng, 0, killer=2)
        kernels.zombie40k.turn.respawning_phase(st, 0, 0, tb, rng)
        assert kernels.zombie40k.units.on_table(st, 0, 0) and st.ustate[0, 0, GL.US_RESPAWNS] == k + 1


def test_s10_6_hardcore_never_rolls_a_powerup(nojit):
    st, tb, rng = one_game(modded("hardcore"), seed=7)
    for _ in range(11):
        kernels.zombie40k.powerups.roll_powerup(st, 0, 0, tb, rng)
    assert st.pres[0, :, GL.PR_POWERUP0:].sum() == 0 and st.pu[0].sum() == 0


def test_s10_6_hardcore_games_have_no_powerups_and_one_respawn_at_most(nojit):
    hard = sim.play.play(modded("hardcore"), 10, 11, check=True)
    base = sim.play.play(modded(), 10, 11)
    pu = [c for c in hard.columns if c.startswith("pu_")]
    assert len(pu) == 11
    assert hard.attrs["violations"] == 0
    assert (hard[pu].to_numpy() == 0).all()
    assert base[pu].to_numpy().sum() > 0  # the same games without Hardcore do draw power-ups
    assert hard["hordes_killed"].sum() > 0  # hordes were destroyed: each would have been a roll
    assert (hard["respawns"] <= 1).all()


def test_s10_7_instant_death_wiped_squad_never_respawns(nojit):
    st, tb, rng = one_game(modded("instant_death"), seed=8)
    _wipe_squad(st, tb, rng, 0, killer=2)
    kernels.zombie40k.turn.respawning_phase(st, 0, 0, tb, rng)
    assert not kernels.zombie40k.units.on_table(st, 0, 0) and st.ustate[0, 0, GL.US_RESPAWNS] == 0
    assert not kernels.zombie40k.turn._game_over(st, 0, tb)  # squad 1 still plays


def test_s10_7_instant_death_all_dead_ends_with_no_winner(nojit):
    st, tb, rng = one_game(modded("instant_death"), seed=8)
    _wipe_squad(st, tb, rng, 0, killer=2)
    _wipe_squad(st, tb, rng, 1, killer=3)
    assert kernels.zombie40k.turn._game_over(st, 0, tb)
    assert st.res[0, GL.R_REASON] == GL.REASON_ALL_DEAD and st.res[0, GL.R_WINNER] == -1
    rows = results_frame(modded("instant_death"), st, 0, np.zeros(1, np.int64))
    assert (rows["reason"] == "all_dead").all() and not rows["won"].any()
    assert (rows["game_winner"] == "").all()


def test_s10_7_base_game_all_wiped_is_not_over(nojit):
    st, tb, rng = one_game(modded(), seed=8)
    _wipe_squad(st, tb, rng, 0, killer=2)
    _wipe_squad(st, tb, rng, 1, killer=3)
    assert not kernels.zombie40k.turn._game_over(st, 0, tb)  # they respawn in their next turns


def test_s10_7_instant_death_games(nojit):
    df = sim.play.play(modded("instant_death", name="four_players"), 6, 3, check=True)
    assert df.attrs["violations"] == 0
    assert (df["respawns"] == 0).all()
    games = sim.play.games(df)
    assert set(games["reason"]) <= {"escape", "timeout", "all_dead"}
    dead = df[df["reason"] == "all_dead"]
    assert not dead["won"].any() and (dead["models_left"] == 0).all()
    assert (df.groupby("game")["wipes"].max() <= 1).all()


def test_s10_7_instant_death_whole_game_ends_all_dead(nojit, monkeypatch):
    """Through ``play_game``: squads that are wiped out at once (set-up leaves them dead) never
    come back, and the game ends in game turn 1 with nobody winning; the base game plays on."""
    real = kernels.zombie40k.turn.setup_game

    def setup(st, g, tb, rng):
        real(st, g, tb, rng)
        for p in range(tb.policy.shape[0]):
            st.wounds[g, p] = 0
            st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
            kernels.zombie40k.casualties.wipe(st, g, p, tb.policy.shape[0], tb, rng)

    monkeypatch.setattr(kernels.zombie40k.turn, "setup_game", setup)
    df = sim.play.play(modded("instant_death"), 3, 5, check=True)
    assert df.attrs["violations"] == 0
    assert (df["reason"] == "all_dead").all() and (df["turns"] == 1).all()
    assert not df["won"].any() and (df["game_winner"] == "").all() and (df["respawns"] == 0).all()
    base = sim.play.play(modded(max_game_turns=2), 3, 5)
    assert (base["respawns"] >= 1).all() and (base["reason"] != "all_dead").all()


# ================================================================== Coop Mode


def _coop(seed=5, **params):
    config = modded("coop", **params)
    st, tb, rng = one_game(config, seed=seed)
    return config, st, tb, rng


def test_s10_1_coop_embarking_does_not_end_the_game(nojit):
    config, st, tb, rng = _coop()
    boss = st.pos.shape[1] - 1
    kernels.zombie40k.units.remove_unit(st, 0, boss)  # the Boss is dead: boarding allowed
    kernels.zombie40k.movement.embark(st, 0, 0, tb)
    assert not kernels.zombie40k.turn._game_over(st, 0, tb)  # squad 1 still on the table
    assert st.res[0, GL.R_REASON] == 0 and st.res[0, GL.R_WINNER] == -1


def test_s10_1_coop_win_when_every_playable_squad_is_embarked(nojit):
    config, st, tb, rng = _coop()
    boss = st.pos.shape[1] - 1
    kernels.zombie40k.units.remove_unit(st, 0, boss)
    kernels.zombie40k.movement.embark(st, 0, 0, tb)
    _wipe_squad(st, tb, rng, 1, killer=2)
    assert not kernels.zombie40k.turn._game_over(st, 0, tb)  # squad 1 may still respawn
    st.ustate[0, 1, GL.US_OUT] = 1  # out for good (wiped near the EV)
    assert kernels.zombie40k.turn._game_over(st, 0, tb)
    assert st.res[0, GL.R_REASON] == GL.REASON_COOP_WIN and st.res[0, GL.R_WINNER] == -1
    rows = results_frame(config, st, 0, np.zeros(1, np.int64))
    assert rows["reason"].tolist() == ["coop_win", "coop_win"]
    assert rows["won"].tolist() == [True, False]  # the embarked player wins, the dead one not
    assert (rows["game_winner"] == "all players").all()


def test_s10_1_coop_lost_when_nobody_is_left(nojit):
    config, st, tb, rng = _coop()
    for p in (0, 1):
        _wipe_squad(st, tb, rng, p, killer=2)
        st.ustate[0, p, GL.US_OUT] = 1
    assert kernels.zombie40k.turn._game_over(st, 0, tb)
    assert st.res[0, GL.R_REASON] == GL.REASON_ALL_DEAD and st.res[0, GL.R_WINNER] == -1


def test_s10_1_coop_both_embarked_both_win(nojit):
    config, st, tb, rng = _coop()
    kernels.zombie40k.units.remove_unit(st, 0, st.pos.shape[1] - 1)
    kernels.zombie40k.movement.embark(st, 0, 0, tb)
    kernels.zombie40k.movement.embark(st, 0, 1, tb)
    assert kernels.zombie40k.turn._game_over(st, 0, tb)
    assert results_frame(config, st, 0, np.zeros(1, np.int64))["won"].tolist() == [True, True]


def _both_squads_at_the_ev(monkeypatch):
    """Whole games whose set-up leaves only the two squads, each 4" from the EV hull, the Boss
    dead for good and no horde on the table: both can board in game turn 1."""
    real = kernels.zombie40k.turn.setup_game

    def setup(st, g, tb, rng):
        real(st, g, tb, rng)
        n_p = tb.policy.shape[0]
        for u in range(n_p, st.pos.shape[1]):
            kernels.zombie40k.units.remove_unit(st, g, u)
        st.ustate[g, st.pos.shape[1] - 1, GL.US_OUT] = 1
        for p, x in ((0, 19.0), (1, 29.0)):
            st.pos[g, p] = x, _hull_y(tb) - (4.0 - st.radius[g, p])

    monkeypatch.setattr(kernels.zombie40k.turn, "setup_game", setup)


def test_s10_1_coop_game_ends_coop_win_with_every_embarked_player_a_winner(nojit, monkeypatch):
    _both_squads_at_the_ev(monkeypatch)
    df = sim.play.play(modded("coop"), 3, 4, check=True)
    assert df.attrs["violations"] == 0
    assert (df["reason"] == "coop_win").all() and (df["turns"] == 1).all()
    assert df["won"].all() and (df["escaped"] == 1).all() and (df["game_winner"] == "all players").all()


def test_s10_1_base_game_first_to_board_escapes(nojit, monkeypatch):
    """The control of the test above: without Coop the first squad to board wins alone."""
    _both_squads_at_the_ev(monkeypatch)
    df = sim.play.play(modded(), 3, 4, check=True)
    assert (df["reason"] == "escape").all() and (df.groupby("game")["won"].sum() == 1).all()


def test_s10_1_nobody_embarks_while_the_boss_lives(nojit):
    config, st, tb, rng = _coop()
    boss = st.pos.shape[1] - 1
    _clear(st, keep=(1, boss))
    _put(st, tb, 1, 0.5 * tb.prm[GL.P_TABLE_W], _hull_y(tb) - (5.0 - st.radius[0, 1]))  # farthest model 5" away
    assert kernels.zombie40k.units.on_table(st, 0, boss)
    assert not kernels.zombie40k.movement.can_embark(st, 0, 1, 6.0, tb)
    assert not kernels.zombie40k.movement.squad_movement(st, 0, 1, tb, rng)
    assert st.ustate[0, 1, GL.US_EMBARKED] == 0
    base = compile_tables(modded())
    assert kernels.zombie40k.movement.can_embark(st, 0, 1, 6.0, base)  # base game: the Boss does not block
    kernels.zombie40k.units.remove_unit(st, 0, boss)
    assert kernels.zombie40k.movement.can_embark(st, 0, 1, 6.0, tb)  # the Boss is dead: board


def test_s10_1_embarked_squad_fires_from_the_vehicle(nojit, monkeypatch):
    config, st, tb, rng = _coop()
    boss = st.pos.shape[1] - 1
    _clear(st, keep=(1, 2))
    kernels.zombie40k.movement.embark(st, 0, 1, tb)  # the Marines, boltguns 24"
    _put(st, tb, 2, 24.0, _hull_y(tb) - 10.0)
    calls = []
    real = kernels.zombie40k.turn.shoot

    def spy(st_, g, u, v, *args):
        calls.append((u, v))
        return real(st_, g, u, v, *args)

    monkeypatch.setattr(kernels.zombie40k.turn, "shoot", spy)
    killed = 0
    for _ in range(5):
        before = kernels.zombie40k.units.alive(st, 0, 2)
        assert not kernels.zombie40k.turn.player_turn(st, 0, 1, tb, rng, False)
        killed += before - kernels.zombie40k.units.alive(st, 0, 2)
        if not kernels.zombie40k.units.on_table(st, 0, 2):
            break
    assert calls and all(c == (1, 2) for c in calls)
    assert killed >= 1 and st.pres[0, 1, GL.PR_ZOMBIES_KILLED] == killed
    assert st.ustate[0, 1, GL.US_EMBARKED] == 1 and not kernels.zombie40k.units.on_table(st, 0, 1)
    assert not kernels.zombie40k.units.on_table(st, 0, boss)


def test_s10_1_embarked_squad_does_not_fire_at_rivals(nojit, monkeypatch):
    config, st, tb, rng = _coop()
    _clear(st, keep=(0, 1))
    kernels.zombie40k.movement.embark(st, 0, 1, tb)
    _put(st, tb, 0, 24.0, _hull_y(tb) - 6.0)
    calls = []
    monkeypatch.setattr(kernels.zombie40k.turn, "shoot", lambda *a: calls.append(a) or (0, 0, False))
    kernels.zombie40k.turn.player_turn(st, 0, 1, tb, rng, False)
    assert calls == []


def test_s10_1_coop_no_shooting_other_squads(nojit):
    config, st, tb, rng = _coop()
    _clear(st, keep=(0, 1))
    _put(st, tb, 0, 10.0, _hull_y(tb) - 8.0)  # both inside the 18" zone
    _put(st, tb, 1, 30.0, _hull_y(tb) - 8.0)
    st.grudge[0, 0, 1] = st.grudge[0, 1, 0] = 1
    assert not kernels.zombie40k.shooting.may_attack_squad(st, 0, 0, 1, tb)
    assert not kernels.zombie40k.shooting.may_shoot_unit(st, 0, 1, 0, tb)
    base = compile_tables(modded())
    assert kernels.zombie40k.shooting.may_attack_squad(st, 0, 0, 1, base)  # the base game allows it here


def test_s10_1_coop_backstabbers_never_hurt_each_other(nojit):
    config = team_config("guard", "marines", policies=["backstabber", "backstabber"])
    df = sim.play.play(with_mods(config, ["coop"]), 8, 21, check=True)
    assert df.attrs["violations"] == 0
    assert (df["rivals_killed"] == 0).all()
    assert set(df["reason"]) <= {"coop_win", "timeout", "all_dead"}  # never "escape"
    won = df[df["reason"] == "coop_win"]
    assert (won["won"] == (won["escaped"] > 0)).all()


def test_s10_1_squad_wiped_near_the_ev_is_out_for_good(nojit):
    config, st, tb, rng = _coop()
    _clear(st, keep=(0, 1))
    _put(st, tb, 1, 24.0, 20.0)
    _put(st, tb, 0, 24.0, _hull_y(tb) - 11.0 - st.radius[0, 0])
    assert _ev_distance(st, tb, 0) == pytest.approx(11.0)
    _wipe_squad(st, tb, rng, 0, killer=2)
    assert st.ustate[0, 0, GL.US_OUT] == 1
    for _ in range(2):
        kernels.zombie40k.turn.respawning_phase(st, 0, 0, tb, rng)
        assert not kernels.zombie40k.units.on_table(st, 0, 0)


def test_s10_1_squad_wiped_beyond_12_inches_respawns(nojit):
    config, st, tb, rng = _coop()
    _clear(st, keep=(0, 1))
    _put(st, tb, 1, 24.0, 20.0)
    _put(st, tb, 0, 24.0, _hull_y(tb) - 13.0 - st.radius[0, 0])
    _wipe_squad(st, tb, rng, 0, killer=2)
    assert st.ustate[0, 0, GL.US_OUT] == 0
    kernels.zombie40k.turn.respawning_phase(st, 0, 0, tb, rng)
    assert kernels.zombie40k.units.on_table(st, 0, 0)


def test_s10_1_base_game_squad_wiped_near_the_ev_respawns(nojit):
    st, tb, rng = one_game(modded(), seed=5)
    _clear(st, keep=(0, 1))
    _put(st, tb, 1, 24.0, 20.0)
    _put(st, tb, 0, 24.0, _hull_y(tb) - 5.0 - st.radius[0, 0])
    _wipe_squad(st, tb, rng, 0, killer=2)
    assert st.ustate[0, 0, GL.US_OUT] == 0


def test_s10_1_coop_result_6_lands_in_front_of_the_squad_closest_to_the_ev(dice):
    config, st, tb, rng = _coop()
    _clear(st, keep=(0,))
    _put(st, tb, 0, 24.0, 30.0)  # alone: it is both the furthest and the closest squad
    dice.script(6, 2, 0.3)  # result 6; the scatter die shows a HIT (direction drawn anyway)
    assert kernels.zombie40k.spawning.respawn_horde(st, 0, 2, tb, rng)
    dice.done()
    r = st.radius[0, 2]
    assert tuple(st.pos[0, 2]) == pytest.approx((24.0, 30.0 + st.radius[0, 0] + r + 3.0))


def test_s10_1_coop_hordes_arrive_on_the_ev_edge_once_a_squad_is_within_18(dice):
    config, st, tb, rng = _coop()
    _clear(st, keep=(0,))
    _put(st, tb, 0, 24.0, _hull_y(tb) - 17.0 - st.radius[0, 0])  # 17" from the EV
    dice.script(1)  # result 1 (player edge) becomes the EV edge
    assert kernels.zombie40k.spawning.respawn_horde(st, 0, 2, tb, rng)
    dice.done()
    assert st.pos[0, 2, 1] == pytest.approx(tb.prm[GL.P_TABLE_L] - st.radius[0, 2])
    _put(st, tb, 0, 24.0, _hull_y(tb) - 19.0 - st.radius[0, 0])  # 19": the trigger has fired, it stays
    kernels.zombie40k.units.remove_unit(st, 0, 2)
    dice.script(1)
    assert kernels.zombie40k.spawning.respawn_horde(st, 0, 2, tb, rng)
    dice.done()
    assert st.pos[0, 2, 1] == pytest.approx(tb.prm[GL.P_TABLE_L] - st.radius[0, 2])
    config, st, tb, rng = _coop()  # a new game, the squad never within 18": the table's result stands
    _clear(st, keep=(0,))
    _put(st, tb, 0, 24.0, _hull_y(tb) - 19.0 - st.radius[0, 0])
    dice.script(1)
    assert kernels.zombie40k.spawning.respawn_horde(st, 0, 2, tb, rng)
    dice.done()
    assert st.pos[0, 2, 1] == pytest.approx(st.radius[0, 2])


def test_s10_1_coop_no_catch_up_for_the_furthest_squad(dice):
    config, st, tb, rng = _coop()
    _clear(st, keep=(0, 1))
    _put(st, tb, 0, 10.0, 10.0)  # furthest from the EV
    _put(st, tb, 1, 24.0, 55.0)  # the leader, in the 18" zone: no push-back in Coop
    dice.script(5, 6)  # one 2D6 roll: Shades (11)
    kernels.zombie40k.powerups.roll_powerup(st, 0, 0, tb, rng)
    dice.done()
    assert st.pu[0, 0, GL.PU_SHADES] == 1 and tuple(st.pos[0, 1]) == pytest.approx((24.0, 55.0))


# ================================================================== Every Man For Himself


def _emfh(policies=({"run": 0}, {"run": 0}), **params):
    config = team_config("guard", "marines", policies=list(policies), **params)
    st, tb, rng = one_game(with_mods(config, ["every_man_for_himself"]), seed=9)
    _clear(st, keep=(0, 1))
    _put(st, tb, 0, 20.0, 20.0)
    _put(st, tb, 1, 20.0 + st.radius[0, 0] + st.radius[0, 1] + 3.0, 20.0)  # 3" apart
    return st, tb, rng


def test_s10_5_emfh_fail_on_4_loses_the_turn(dice):
    st, tb, rng = _emfh()
    pos = st.pos[0, 0].copy()
    dice.script(4)
    assert not kernels.zombie40k.turn.player_turn(st, 0, 0, tb, rng, False)
    dice.done()
    assert (st.pos[0, 0] == pos).all()  # it did not move
    assert st.ustate[0, 0, GL.US_MOVED] == 0


def test_s10_5_emfh_roll_of_3_acts_normally(dice):
    st, tb, rng = _emfh()
    y = st.pos[0, 0, 1]
    dice.script(3)
    assert not kernels.zombie40k.turn.player_turn(st, 0, 0, tb, rng, False)
    dice.done()
    assert st.pos[0, 0, 1] > y + 5.0  # it moved (6" towards the EV)


def test_s10_5_emfh_no_roll_when_nobody_is_within_6_inches(dice):
    st, tb, rng = _emfh()
    _put(st, tb, 1, 40.0, 60.0)
    y = st.pos[0, 0, 1]
    assert not kernels.zombie40k.turn.player_turn(st, 0, 0, tb, rng, False)
    dice.done()  # no die rolled
    assert st.pos[0, 0, 1] > y + 5.0


def test_s10_5_emfh_parameters(dice):
    st, tb, rng = _emfh(emfh_fail_on=6, emfh_radius_in=2.0)
    assert not kernels.zombie40k.turn._every_man_for_himself(st, 0, 0, tb, rng)  # 3" apart: beyond 2"
    dice.done()
    st, tb, rng = _emfh(emfh_fail_on=6)
    dice.script(5, 6)
    assert not kernels.zombie40k.turn._every_man_for_himself(st, 0, 0, tb, rng)
    assert kernels.zombie40k.turn._every_man_for_himself(st, 0, 0, tb, rng)
    dice.done()


def _emfh_locked(fail_on):
    st, tb, rng = _emfh(emfh_fail_on=fail_on)
    _put(st, tb, 2, 20.0, 20.0 - st.radius[0, 0] - st.radius[0, 2])  # horde 2 in base contact, behind
    kernels.zombie40k.spawning.build_horde(st, 0, 2, tb)
    kernels.zombie40k.units.refresh_radius(st, 0, 2, tb)
    kernels.zombie40k.units.lock(st, 0, 0, 2)
    return st, tb, rng


def test_s10_5_emfh_control_squad_fights_its_combat(nojit):
    st, tb, rng = _emfh_locked(7)  # never fails
    kernels.zombie40k.turn.player_turn(st, 0, 0, tb, rng, False)
    assert st.ustate[0, 0, GL.US_ROUNDS] == 1 and st.ustate[0, 2, GL.US_ROUNDS] == 1  # one round fought


def test_s10_5_emfh_failed_squad_still_fights_its_combat(nojit):
    """A38: on a failed roll the squad may not move, manifest, shoot, Run or charge, but it
    still fights in close combat: its combat is fought in its Assault phase."""
    st, tb, rng = _emfh_locked(1)  # always fails
    pos = st.pos[0, 0].copy()
    kernels.zombie40k.turn.player_turn(st, 0, 0, tb, rng, False)
    assert (st.pos[0, 0] == pos).all()  # no move
    assert st.ustate[0, 0, GL.US_ROUNDS] == 1 and st.ustate[0, 2, GL.US_ROUNDS] == 1  # but its combat is fought


# ================================================================== Killing Floor


def _kf(seed=6, **params):
    config = modded("killing_floor", **params)
    st, tb, rng = one_game(config, seed=seed)
    return config, st, tb, rng


def _slot(tb, item):
    return {"pistols": GL.G_RANGED1, "basic": GL.G_RANGED2, "heavy": GL.G_RANGED2, "melee": GL.G_MELEE1,
            "grenades": GL.G_GRENADE}[next(k.table for k in killing_floor(CAT) if k.item.lower() == item.lower())]


def test_s10_11_kf_squads_start_with_the_kf_kit(nojit):
    config, st, tb, rng = _kf()
    for p in (0, 1):
        for m in np.flatnonzero(st.wounds[0, p] > 0):
            row = st.gear[0, p, m]
            assert set(row[row >= 0].tolist()) == _kf_gear_row()
    assert (st.ustate[0, :2, GL.US_KF_POINTS] == 0).all()


def test_s10_11_kf_points_per_zombie_killed(nojit):
    config, st, tb, rng = _kf(kf_points_per_kill=3)
    before = kernels.zombie40k.units.alive(st, 0, 2)
    st.wounds[0, 2, 0] = st.wounds[0, 2, 1] = 0
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    kernels.zombie40k.casualties.after_attack(st, 0, 2, 0, before, tb, rng)
    assert st.ustate[0, 0, GL.US_KF_POINTS] == 6 and st.pres[0, 0, GL.PR_ZOMBIES_KILLED] == 2
    boss = st.pos.shape[1] - 1
    st.wounds[0, boss, 0] = 0
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    kernels.zombie40k.casualties.after_attack(st, 0, boss, 1, 1, tb, rng)
    assert st.ustate[0, 1, GL.US_KF_POINTS] == 3  # the Boss counts as one kill
    before = kernels.zombie40k.units.alive(st, 0, 1)
    st.wounds[0, 1, 0] = 0  # a rival survivor is no zombie: no points
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    kernels.zombie40k.casualties.after_attack(st, 0, 1, 0, before, tb, rng)
    assert st.ustate[0, 0, GL.US_KF_POINTS] == 6


def test_s10_11_kf_no_points_without_the_mod(nojit):
    st, tb, rng = one_game(modded(kf_points_per_kill=3), seed=6)
    before = kernels.zombie40k.units.alive(st, 0, 2)
    st.wounds[0, 2, 0] = 0
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    kernels.zombie40k.casualties.after_attack(st, 0, 2, 0, before, tb, rng)
    assert st.ustate[0, 0, GL.US_KF_POINTS] == 0 and st.pres[0, 0, GL.PR_ZOMBIES_KILLED] == 1


def _first_alive(st, p):
    return int(np.flatnonzero(st.wounds[0, p] > 0)[0])


def test_s10_11_kf_shop_buys_the_first_affordable_item_for_the_first_model(dice):
    config, st, tb, rng = _kf()
    st.ustate[0, 0, GL.US_KF_POINTS] = 4
    kernels.zombie40k.shop.kf_shop(st, 0, 0, tb)
    dice.done()
    m = _first_alive(st, 0)
    assert st.gear[0, 0, m, GL.G_RANGED2] == _weapon("Assault cannon")  # wish list item 1, cost 4
    assert st.ustate[0, 0, GL.US_KF_POINTS] == 0
    others = [k for k in np.flatnonzero(st.wounds[0, 0] > 0) if k != m]
    assert all(st.gear[0, 0, k, GL.G_RANGED2] == -1 for k in others)


def test_s10_11_kf_shop_goes_down_the_wish_list(dice):
    config, st, tb, rng = _kf()
    st.ustate[0, 0, GL.US_KF_POINTS] = 3
    kernels.zombie40k.shop.kf_shop(st, 0, 0, tb)
    living = np.flatnonzero(st.wounds[0, 0] > 0)
    # model 1: the Assault cannon (4) is too dear, the Heavy bolter (2) is bought; model 2: the Storm bolter (1)
    assert st.gear[0, 0, living[0], GL.G_RANGED2] == _weapon("Heavy bolter")
    assert st.gear[0, 0, living[1], GL.G_RANGED2] == _weapon("Storm bolter")
    assert all(st.gear[0, 0, k, GL.G_RANGED2] == -1 for k in living[2:])
    assert st.ustate[0, 0, GL.US_KF_POINTS] == 0


def test_s10_11_kf_shop_sells_at_half_price_rounded_up(dice):
    """Heavy bolter priced 3: sold back for 2 (3 / 2 rounded up), so 2 points + 2 buy the
    Assault cannon (4); rounding down would leave 3 points, too few."""
    config, st, tb, rng = _kf(kf_prices={"Heavy bolter": 3})
    m = _first_alive(st, 0)
    st.gear[0, 0, m, GL.G_RANGED2] = _weapon("Heavy bolter")
    st.ustate[0, 0, GL.US_KF_POINTS] = 2
    for k in np.flatnonzero(st.wounds[0, 0] > 0)[1:]:
        st.wounds[0, 0, k] = 0  # the buyer alone
        st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    kernels.zombie40k.shop.kf_shop(st, 0, 0, tb)
    assert st.gear[0, 0, m, GL.G_RANGED2] == _weapon("Assault cannon")
    assert st.ustate[0, 0, GL.US_KF_POINTS] == 0
    assert [kernels.zombie40k.shop.sale_price(c) for c in (1, 2, 3, 4, 5, 6)] == [1, 1, 2, 2, 3, 3]


def test_s10_11_kf_shop_keeps_a_better_item(dice):
    config, st, tb, rng = _kf()
    m = _first_alive(st, 0)
    st.gear[0, 0, m, GL.G_RANGED2] = _weapon("Assault cannon")
    for k in np.flatnonzero(st.wounds[0, 0] > 0)[1:]:
        st.wounds[0, 0, k] = 0
        st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    st.ustate[0, 0, GL.US_KF_POINTS] = 2
    kernels.zombie40k.shop.kf_shop(st, 0, 0, tb)
    assert st.gear[0, 0, m, GL.G_RANGED2] == _weapon("Assault cannon")  # not swapped for a Heavy bolter
    assert st.gear[0, 0, m, GL.G_RANGED1] == _weapon("Hand flamer")  # a pistol in the pistol slot instead
    assert st.ustate[0, 0, GL.US_KF_POINTS] == 0


def test_s10_11_kf_psyker_only_items(dice):
    config, st, tb, rng = _kf(kf_wishlist=("Force sword", "Power sword"))
    living = np.flatnonzero(st.wounds[0, 0] > 0)
    st.mflags[0, 0, living[1]] |= L.MR_PSYKER
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    st.ustate[0, 0, GL.US_KF_POINTS] = 6
    kernels.zombie40k.shop.kf_shop(st, 0, 0, tb)
    assert st.gear[0, 0, living[0], GL.G_MELEE1] == _weapon("Power sword")  # not a psyker: skips the Force sword
    assert st.gear[0, 0, living[1], GL.G_MELEE1] == _weapon("Force sword")
    assert st.ustate[0, 0, GL.US_KF_POINTS] == 0


def test_s10_11_kf_grenades_for_the_whole_squad(dice):
    config, st, tb, rng = _kf(kf_wishlist=("Krak grenade",))
    st.ustate[0, 0, GL.US_KF_POINTS] = 5
    kernels.zombie40k.shop.kf_shop(st, 0, 0, tb)
    living = np.flatnonzero(st.wounds[0, 0] > 0)
    krak = _weapon(CAT.profiles_of("Krak grenade")[0].name)
    assert all(st.gear[0, 0, k, GL.G_GRENADE] == krak for k in living)
    assert st.ustate[0, 0, GL.US_KF_POINTS] == 3  # one price (2) for the squad


def test_s10_11_kf_items_are_lost_when_the_squad_is_wiped(nojit):
    config, st, tb, rng = _kf()
    st.ustate[0, 0, GL.US_KF_POINTS] = 20
    kernels.zombie40k.shop.kf_shop(st, 0, 0, tb)
    n = tb.squad_gear.shape[1]
    assert (st.gear[0, 0, :n] != tb.squad_gear[0]).any()  # it bought something
    _clear(st, keep=(0, 1))
    _put(st, tb, 1, 24.0, 30.0)
    _wipe_squad(st, tb, rng, 0, killer=2)
    kernels.zombie40k.turn.respawning_phase(st, 0, 0, tb, rng)
    assert kernels.zombie40k.units.on_table(st, 0, 0)
    living = np.flatnonzero((st.wounds[0, 0, :n] > 0) & (tb.squad_wounds[0] > 0))  # not an Ork Boy power-up
    assert (st.gear[0, 0, living] == tb.squad_gear[0, living]).all()
    for m in living:
        row = st.gear[0, 0, m]
        assert set(row[row >= 0].tolist()) == _kf_gear_row()


def test_s10_11_kf_shop_in_the_player_turn(dice):
    """The squad shops at the start of its Player Turn (A41)."""
    config = team_config("guard", "marines", policies=[{"run": 0}, {"run": 0}])
    st, tb, rng = one_game(with_mods(config, ["killing_floor"]), seed=6)
    _clear(st, keep=(0,))
    _put(st, tb, 0, 24.0, 10.0)
    st.ustate[0, 0, GL.US_KF_POINTS] = 1
    kernels.zombie40k.turn.player_turn(st, 0, 0, tb, rng, False)
    dice.done()
    assert st.gear[0, 0, _first_alive(st, 0), GL.G_RANGED2] == _weapon("Storm bolter")
    assert st.ustate[0, 0, GL.US_KF_POINTS] == 0


def test_s10_11_kf_games_run(nojit):
    df = sim.play.play(modded("killing_floor", name="four_players"), 4, 2, check=True)
    assert df.attrs["violations"] == 0 and len(df) == 16


# ================================================================== Power-up ablation


@pytest.mark.parametrize("result", list(range(2, 13)))
def test_s8_removed_powerup_gives_nothing(dice, result):
    config = modded(powerups_removed=[result])
    st, tb, rng = one_game(config, seed=1)
    pu, mpow, wounds = st.pu.copy(), st.mpow.copy(), st.wounds.copy()
    kernels.zombie40k.powerups.apply_powerup(st, 0, 1, result, tb)
    dice.done()
    assert st.pres[0, 1, GL.PR_POWERUP0:].sum() == 0
    assert (st.pu == pu).all() and (st.mpow == mpow).all() and (st.wounds == wounds).all()
    other = 2 if result != 2 else 11
    kernels.zombie40k.powerups.apply_powerup(st, 0, 1, other, tb)
    assert st.pres[0, 1, GL.PR_POWERUP0 + other] == 1  # the others still work


def _roll_twice(dice, removed, script):
    st, tb, rng = one_game(modded(powerups_removed=removed), seed=1)
    _clear(st, keep=(0, 1))
    _put(st, tb, 0, 10.0, 10.0)  # furthest from the EV: rolls twice (A28)
    _put(st, tb, 1, 24.0, 30.0)  # the leader, far from the 18" zone: no push-back
    dice.script(*script)
    kernels.zombie40k.powerups.roll_powerup(st, 0, 0, tb, rng)
    dice.done()
    return st


def test_s8_roll_twice_never_keeps_a_removed_result(dice):
    # Bile (2) or Shades (11): Shades is valued more, but it is off the table
    st = _roll_twice(dice, [11], (1, 1, 5, 6))
    assert st.pres[0, 0, GL.PR_POWERUP0 + 2] == 1 and st.pu[0, 0, GL.PU_BILE] == 1
    assert st.pres[0, 0, GL.PR_POWERUP0 + 11] == 0 and st.pu[0, 0, GL.PU_SHADES] == 0
    st = _roll_twice(dice, [11], (5, 6, 1, 1))  # the removed one first
    assert st.pu[0, 0, GL.PU_BILE] == 1 and st.pu[0, 0, GL.PU_SHADES] == 0
    st = _roll_twice(dice, [], (1, 1, 5, 6))  # control: nothing removed, Shades kept
    assert st.pu[0, 0, GL.PU_SHADES] == 1 and st.pu[0, 0, GL.PU_BILE] == 0


# ================================================================== 5. T-Virus and the exact odds


def _tvirus_target():
    config = modded("t_virus")
    tb = compile_tables(config)
    profile = zombie_profile(resolve(config), CAT)
    assert (np.array(model_stats(profile)) == tb.extra_stats[X_ZOMBIE]).all()  # the compiled profile
    return tb, profile


def _marines_at_half_range():
    marine, boltgun = CAT.unit("Tactical Marine").profile, CAT.weapon("Boltgun")
    return marine, boltgun, 5 * shots_per_model(boltgun, marine, half_range=True, moved=False)


def test_s10_9_t_virus_kills_per_boltgun_shot_exact():
    """5 Tactical Marines at half range: 10 boltgun shots; each hits on 3+ (2/3), S4 wounds T4 on
    4+ (1/2), FNP 4+ fails 1/2: 1/6 per shot, 10/6 zombies expected, binomial pmf."""
    tb, profile = _tvirus_target()
    marine, boltgun, shots = _marines_at_half_range()
    assert shots == 10
    odds = exchange_odds(Exchange(marine, boltgun, shots, (profile,) * 10), exact=True)
    killed = {}
    for (unsaved, k), p in odds.exact.items():
        assert unsaved == k or p == 0  # one Wound each: every unsaved wound kills
        killed[k] = killed.get(k, 0) + p
    p = Fraction(1, 6)
    for k in range(11):
        assert killed.get(k, 0) == comb(10, k) * p**k * (1 - p) ** (10 - k), k
    assert sum(k * q for k, q in killed.items()) == Fraction(10, 6)
    base = exchange_odds(Exchange(marine, boltgun, shots, (zombie_profile(modded(), CAT),) * 10), exact=True)
    assert sum(k * q for (_, k), q in base.exact.items()) == Fraction(80, 27)  # 8/27 per shot without T-Virus


def test_s10_9_t_virus_kernel_matches_the_exact_pmf():
    """The kernels' attack resolution on the compiled T-Virus zombie rows: 20,000 volleys of
    10 shots, chi-square against the exact pmf of zombies killed at alpha 1e-4."""
    tb, profile = _tvirus_target()
    marine, boltgun, shots = _marines_at_half_range()
    exchange = Exchange(marine, boltgun, shots, (profile,) * 10)
    odds = exchange_odds(exchange)
    n = 20_000
    spec = np.zeros(L.N_SPEC, np.int64)
    zombie = tb.extra_stats[X_ZOMBIE]
    shooting_spec(spec, weapon_row(boltgun), model_stats(marine), model_flags(marine), int(zombie[L.T]),
                  int(zombie[L.SV]), False, False, 0, wound_chart(), exchange.geometry.array())
    assert (spec == exchange.spec()).all()
    assert (exchange.target_arrays()[1] == tb.extra_stats[X_ZOMBIE]).all()  # the compiled T-Virus zombie
    out = simulate_exchange(exchange, n, 20260401)
    killed_pmf = odds.joint.sum(axis=0)
    assert_matches_pmf(out[:, L.OUT_KILLED], killed_pmf, what="T-Virus boltgun kills")
    assert out[:, L.OUT_KILLED].mean() == pytest.approx(10 / 6, abs=4 * math.sqrt(10 * (1 / 6) * (5 / 6) / n))


# ================================================================== 6. the command line


def shamble(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "COLUMNS": "250"}
    code = "from experiments.cli import app; app()"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=600,
                          cwd=ROOT)


def test_s10_cli_mods_json_lists_every_mod_with_parameters():
    result = shamble("mods", "--json")
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)
    assert [r["mod"] for r in rows] == list(MODS)
    by = {r["mod"]: r for r in rows}
    assert by["t_virus"]["params"]["tvirus_t"]["default"] == 4 and by["t_virus"]["params"]["tvirus_fnp"]["default"] == 4
    assert by["death_korps"]["params"]["dk_max_t"]["default"] == 6
    assert by["death_korps"]["params"]["dk_start_fnp"]["default"] == 6
    assert by["coop"]["params"]["coop_no_respawn_radius_in"]["default"] == 12
    assert by["killing_floor"]["params"]["kf_budget"]["default"] == 50
    assert by["every_man_for_himself"]["params"]["emfh_fail_on"]["default"] == 4
    assert by["dead_men_walking"]["params"]["dmw_fnp"]["default"] == 5
    for key, mod in MOD_BY_KEY.items():
        assert set(by[key]["params"]) == set(mod.params)
        assert by[key]["spec"] == mod.section
    assert sorted(by["t_virus"]["cannot_combine_with"]) == ["death_korps", "four_weeks_later"]
    assert by["hardcore"]["cannot_combine_with"] == ["instant_death"]


def test_s10_cli_mods_table_names_every_mod():
    result = shamble("mods")
    assert result.returncode == 0, result.stderr
    for key in MODS:
        assert key in result.stdout, key
    for param in ("tvirus_t", "dk_start_t", "kf_budget", "emfh_radius_in", "coop_no_respawn_radius_in"):
        assert param in result.stdout, param


def test_s10_cli_play_with_mods(tmp_path):
    out = tmp_path / "rows.csv"
    result = shamble("play", str(FOUR), "--mod", "t-virus", "--mod", "hardcore", "-n", "2", "--seed", "3",
                     "--json", "--out", str(out))
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["games"] == 2
    df = pd.read_csv(out)
    assert len(df) == 8
    assert (df[[c for c in df.columns if c.startswith("pu_")]].to_numpy() == 0).all()  # Hardcore applied
    assert (df["respawns"] <= 1).all()


@pytest.mark.parametrize(
    ("mods", "needles"),
    [
        (["nonsense"], ("unknown mod 'nonsense'",)),
        (["t-virus", "death-korps"], ("death_korps", "t_virus")),
        (["hardcore", "Instant Death"], ("hardcore", "instant_death")),
    ],
)
def test_s10_cli_bad_mods_are_one_error_line(mods, needles):
    args = [a for m in mods for a in ("--mod", m)]
    result = shamble("play", str(TWO), "-n", "1", *args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and "Traceback" not in result.stderr
    for needle in needles:
        assert needle in lines[0], needle


def test_s10_config_file_selects_mods(tmp_path):
    text = TWO.read_text().replace('description', 'mods = ["t-virus", "Hardcore"]\ndescription')
    text = text.replace("../teams/", str(ROOT / "examples" / "teams") + "/")
    path = tmp_path / "modded.toml"
    path.write_text(text)
    from sim.rulesets.zombie40k.config import load_config

    config = load_config(path)
    assert config.mods == {"t_virus", "hardcore"}
    tb = compile_tables(config)
    assert tb.extra_stats[X_ZOMBIE, L.T] == 4 and tb.prm[GL.P_MAX_RESPAWNS] == 1


def test_s10_build_team_without_usr_under_hardcore():
    team = team_config("guard").players[0].team
    assert team.usr == "feel_no_pain"
    built = build_team(resolve(with_mods(team_config("guard"), ["hardcore"])).players[0].team, CAT, allow_usr=False)
    assert built[0].profile.fnp == L.NONE


def test_s10_10_a_boss_of_your_own_from_a_catalogue_file():
    """zombie40k §10.10: a user-defined Boss profile with its weapons, from a catalogue file."""
    from sim.rulesets.zombie40k.compile import compile_tables

    path = str(EXAMPLES / "catalogue" / "abomination.toml")
    config = example_config("two_players", mods=frozenset({"boss_variant"}), catalogue_files=(path,),
                            boss_variant_unit="Abomination")
    boss = compile_tables(config).extra_stats[X_BOSS]
    assert (boss[L.T], boss[L.W], boss[L.A], boss[L.S], boss[L.FNP]) == (6, 8, 5, 6, 5)
    plain = compile_tables(replace(config, mods=frozenset())).extra_stats[X_BOSS]
    assert (plain[L.T], plain[L.W]) != (6, 8)  # without the mod the Boss is the Zombie Boss
    with pytest.raises(ConfigError, match="boss_unit"):
        compile_tables(replace(config, boss_variant_unit="Abominaton"))
