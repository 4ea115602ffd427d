"""Whole-game rules of zombie40k (§3-§9) on the game kernels run as plain Python.

Numba would take minutes to compile the whole game, so every test here runs the kernels'
``py_func``: ``nojit`` with the real random streams (whole games through ``sim.play.play``)
or ``dice`` with hand-fed dice (one rule at a time on a table set up by hand). Kernel
functions are looked up on their module at call time so the fixtures' swaps apply.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from conftest import clear_table, example_config, one_game, put_unit, team_config

import kernels.zombie40k.assault
import kernels.zombie40k.casualties
import kernels.zombie40k.geometry
import kernels.zombie40k.movement
import kernels.zombie40k.powerups
import kernels.zombie40k.shooting
import kernels.zombie40k.spawning
import kernels.zombie40k.turn
import kernels.zombie40k.units
import sim.play
from kernels.w40k import columns as L
from kernels.zombie40k import columns as GL

SEED = 2026
N_TWO, N_FOUR = 200, 50
_PLAYED: dict[tuple[str, int], pd.DataFrame] = {}


def _played(name: str, n: int) -> pd.DataFrame:
    """``n`` checked games of an example config at SEED, played once per test session."""
    if (name, n) not in _PLAYED:
        _PLAYED[name, n] = sim.play.play(example_config(name), n, SEED, check=True)
    return _PLAYED[name, n]


# ------------------------------------------------------------------ table helpers


_clear, _put = clear_table, put_unit


def _gap(st, u, v):
    return kernels.zombie40k.geometry.edge_distance(*st.pos[0, u], st.radius[0, u], *st.pos[0, v], st.radius[0, v])


def _ev_distance(st, tb, u):
    return kernels.zombie40k.geometry.ev_distance(*st.pos[0, u], st.radius[0, u], tb.prm)


def _hull_y(tb):
    return tb.prm[GL.P_TABLE_L] - tb.prm[GL.P_EV_D]


# ------------------------------------------------------------------ invariants over random games


@pytest.mark.parametrize(("name", "n"), [("two_players", N_TWO), ("four_players", N_FOUR)])
def test_random_games_keep_invariants(nojit, name, n):
    """Invariants after every phase (check=True) and one outcome per game (house style: pgx)."""
    config = example_config(name)
    df = _played(name, n)
    assert df.attrs["violations"] == 0
    assert len(df) == n * config.n_players
    assert not df.duplicated(["game", "player"]).any()
    assert sorted(df["game"].unique()) == list(range(n))
    per_game = df.groupby("game")
    assert (per_game["reason"].nunique() == 1).all()
    assert set(df["reason"]) <= {"escape", "timeout", "all_dead"}
    games = sim.play.games(df)
    assert ((games["game_winner"] != "") == (games["reason"] == "escape")).all()
    assert (per_game["won"].sum() == (games.set_index("game")["reason"] == "escape")).all()
    assert (df["turns"] >= 1).all() and (df["turns"] <= config.max_game_turns).all()
    assert (df.loc[df["reason"] == "timeout", "turns"] == config.max_game_turns).all()
    assert (df["models_left"] >= 0).all() and (df["models_lost"] >= 0).all()
    assert (df.loc[df["won"], "ev_distance_in"] == 0.0).all()  # the winner has embarked


def test_another_seed_plays_other_games(nojit):
    """Game i depends on (seed, i); batch sizes and first games: tests/test_ruleset_contract.py."""
    config = example_config("two_players")
    ref = _played("two_players", N_TWO)
    first20 = ref[ref["game"] < 20].reset_index(drop=True)
    other = sim.play.play(config, 20, SEED + 1)
    assert not other[["turns", "dice"]].equals(first20[["turns", "dice"]])


def test_plausible_game_lengths_and_escapes(nojit):
    games = sim.play.games(_played("two_players", N_TWO))
    assert (games["reason"] == "escape").sum() > 0
    assert 3.0 <= games["turns"].mean() <= 20.0


# ------------------------------------------------------------------ §3 setup


@pytest.mark.parametrize("name", ["two_players", "four_players"])
def test_s3_setup_places_squads_hordes_and_boss(nojit, name):
    config = example_config(name)
    for seed in range(5):
        st, tb, rng = one_game(config, seed)
        n_p = config.n_players
        n_u = st.pos.shape[1]
        assert n_u == n_p * (1 + config.hordes_per_player) + 1
        assert all(st.ustate[0, u, GL.US_ON_TABLE] == 1 for u in range(n_u))
        for u in range(n_u):  # §3.3, §3.4: more than 1" from every other unit
            for v in range(u + 1, n_u):
                assert _gap(st, u, v) > 1.0 - 1e-9, (seed, u, v)
        for p in range(n_p):  # §3.3: within 6" of the player edge (a blob wider than 6" touches it), full strength
            y, r = st.pos[0, p, 1], st.radius[0, p]
            assert y + r <= max(config.deploy_depth_in, 2 * r) + 1e-9
            assert kernels.zombie40k.units.alive(st, 0, p) == len(config.players[p].team.models)
        if n_p == 2:  # room for the 12" separation on a 48" edge
            assert _gap(st, 0, 1) >= config.deploy_separation_in - 1e-9
        band = config.zombie_deploy_band_in
        for h in range(n_p, n_u - 1):  # §3.4 (A10): 5 Zombies, the middle one with the autogun
            assert band - 1e-9 <= st.pos[0, h, 1] <= config.table_length_in - band + 1e-9
            assert kernels.zombie40k.units.alive(st, 0, h) == config.horde_size
            autoguns = st.gear[0, h, :, GL.G_RANGED0] == tb.ids[0]
            assert list(np.flatnonzero(autoguns)) == [config.horde_size // 2]
        boss = n_u - 1
        assert kernels.zombie40k.units.alive(st, 0, boss) == 1
        assert _ev_distance(st, tb, boss) <= 2.0 + 1e-9


# ------------------------------------------------------------------ §4 turn order


def test_s4_turn_order_is_a_permutation(nojit):
    config = example_config("four_players")
    st, tb, rng = one_game(config, 3)
    seen = set()
    for _ in range(50):
        kernels.zombie40k.turn.turn_order(st, 0, tb, rng)
        assert sorted(st.w_turn) == [0, 1, 2, 3]
        seen.add(int(st.w_turn[0]))
    assert seen == {0, 1, 2, 3}  # every player goes first sometimes (re-rolled each turn)
    _, fixed, _ = one_game(example_config("four_players", order="fixed"), 3)
    for _ in range(3):
        kernels.zombie40k.turn.turn_order(st, 0, fixed, rng)
        assert list(st.w_turn) == [0, 1, 2, 3]
    _, rotate, _ = one_game(example_config("four_players", order="rotate"), 3)
    st.res[0, GL.R_TURNS] = 3
    kernels.zombie40k.turn.turn_order(st, 0, rotate, rng)
    assert list(st.w_turn) == [2, 3, 0, 1]  # config order, starting two players later in turn 3


# ------------------------------------------------------------------ §5.1 respawning


def _wipe_squad(st, tb, rng, p, killer):
    for m in range(st.wounds.shape[2]):
        st.wounds[0, p, m] = 0
        st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    kernels.zombie40k.casualties.wipe(st, 0, p, killer, tb, rng)


def test_s5_1_respawn_behind_the_furthest_squad(nojit):
    config = example_config("two_players")
    st, tb, rng = one_game(config, 4)
    _clear(st, keep=(0, 1))
    _put(st, tb, 1, 24.0, 30.0)  # more than 18" from the EV: the respawner rolls twice (A28)
    st.pu[0, 0, GL.PU_MEDPACKS] = 2
    st.pu[0, 0, GL.PU_SHADES] = 1
    st.wounds[0, 0, 1:] = 0
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    _wipe_squad(st, tb, rng, 0, killer=2)
    assert not kernels.zombie40k.units.on_table(st, 0, 0)
    assert st.pu[0, 0].sum() == 0  # §8: power-ups are lost with the squad
    kernels.zombie40k.turn.respawning_phase(st, 0, 0, tb, rng)
    assert kernels.zombie40k.units.on_table(st, 0, 0)
    assert kernels.zombie40k.units.alive(st, 0, 0) == int((tb.squad_wounds[0] > 0).sum())  # full strength (A16)
    assert (st.wounds[0, 0] == tb.squad_wounds[0]).all() or st.pres[0, 0, GL.PR_POWERUP0 + GL.ORK_BOY] == 1
    assert _ev_distance(st, tb, 0) >= _ev_distance(st, tb, 1) + config.respawn_margin_in - 1e-9
    assert st.ustate[0, 0, GL.US_RESPAWNS] == 1 and st.pres[0, 0, GL.PR_RESPAWNS] == 1
    assert st.pres[0, 0, GL.PR_POWERUP0 + 2: GL.PR_POWERUP0 + 13].sum() == 1  # it rolled a power-up


def test_s5_1_respawn_at_the_start_edge_when_alone(nojit):
    config = example_config("two_players")
    st, tb, rng = one_game(config, 5)
    _clear(st, keep=(0, 2))
    _put(st, tb, 0, 30.0, 40.0)
    _wipe_squad(st, tb, rng, 0, killer=2)
    kernels.zombie40k.turn.respawning_phase(st, 0, 0, tb, rng)
    assert kernels.zombie40k.units.on_table(st, 0, 0)
    assert st.pos[0, 0, 1] + st.radius[0, 0] <= config.deploy_depth_in + 1e-9  # A15


def test_s5_1_respawn_when_no_band_is_left_goes_to_the_start_edge(nojit):
    config = example_config("two_players")
    st, tb, rng = one_game(config, 6)
    _clear(st, keep=(0, 1))
    _put(st, tb, 1, 10.0, 8.0)  # the furthest squad is already near the player edge
    _wipe_squad(st, tb, rng, 0, killer=2)
    kernels.zombie40k.turn.respawning_phase(st, 0, 0, tb, rng)
    assert st.pos[0, 0, 1] + st.radius[0, 0] <= config.deploy_depth_in + 1e-9
    assert _gap(st, 0, 1) > 1.0


# ------------------------------------------------------------------ §5.2 movement and embarking


def _near_hull(st, tb, p, reach):
    """Squad p straight in front of the EV with its farthest model ``reach`` inches from the hull."""
    _put(st, tb, p, 0.5 * tb.prm[GL.P_TABLE_W], _hull_y(tb) - (reach - st.radius[0, p]))


def test_s5_2_embark_when_every_model_can_reach(dice):
    st, tb, rng = one_game(example_config("two_players"))
    _clear(st, keep=(0,))
    _near_hull(st, tb, 0, 8.0 - 0.01)  # move 6" + 2"
    assert kernels.zombie40k.movement.squad_movement(st, 0, 0, tb, rng)
    assert st.ustate[0, 0, GL.US_EMBARKED] == 1 and not kernels.zombie40k.units.on_table(st, 0, 0)
    dice.done()


def test_s5_2_no_embark_just_out_of_reach(dice):
    st, tb, rng = one_game(example_config("two_players"))
    _clear(st, keep=(0,))
    _near_hull(st, tb, 0, 8.0 + 0.01)
    y = st.pos[0, 0, 1]
    assert not kernels.zombie40k.movement.squad_movement(st, 0, 0, tb, rng)
    assert st.ustate[0, 0, GL.US_EMBARKED] == 0 and kernels.zombie40k.units.on_table(st, 0, 0)
    assert st.pos[0, 0, 1] > y  # it moved towards the EV instead
    dice.done()


def test_s5_2_locked_squad_cannot_embark(dice):
    st, tb, rng = one_game(example_config("two_players"))
    _clear(st, keep=(0, 2))
    _near_hull(st, tb, 0, 3.0)
    _put(st, tb, 2, st.pos[0, 0, 0] - st.radius[0, 0] - st.radius[0, 2], st.pos[0, 0, 1])
    kernels.zombie40k.units.lock(st, 0, 0, 2)
    assert not kernels.zombie40k.movement.squad_movement(st, 0, 0, tb, rng)
    assert st.ustate[0, 0, GL.US_EMBARKED] == 0
    dice.done()


def test_s5_2_embark_any_model_loosens_the_reach(dice):
    st, tb, rng = one_game(example_config("two_players"))
    _clear(st, keep=(0,))
    r = st.radius[0, 0]
    _near_hull(st, tb, 0, 8.0 + 2 * r - 0.01)  # nearest model 8" - 0.01 away, farthest beyond
    assert not kernels.zombie40k.movement.can_embark(st, 0, 0, 6.0, tb)
    _, loose, _ = one_game(example_config("two_players", embark_any_model=True))
    assert kernels.zombie40k.movement.squad_movement(st, 0, 0, loose, rng)
    assert st.ustate[0, 0, GL.US_EMBARKED] == 1
    dice.done()


# ------------------------------------------------------------------ §5.4 shooting other players


def test_s5_4_may_attack_squad_only_near_the_ev_or_on_a_grudge(nojit):
    st, tb, rng = one_game(example_config("two_players"))
    _clear(st, keep=(0, 1))
    _put(st, tb, 0, 10.0, 20.0)
    _put(st, tb, 1, 30.0, 20.0)
    assert not kernels.zombie40k.shooting.may_attack_squad(st, 0, 0, 1, tb)
    _put(st, tb, 1, 24.0, _hull_y(tb) - 17.0 - st.radius[0, 1])  # 17" from the EV
    assert kernels.zombie40k.shooting.may_attack_squad(st, 0, 0, 1, tb)
    _put(st, tb, 1, 24.0, _hull_y(tb) - 19.0 - st.radius[0, 1])  # 19"
    assert not kernels.zombie40k.shooting.may_attack_squad(st, 0, 0, 1, tb)
    st.grudge[0, 0, 1] = 1
    assert kernels.zombie40k.shooting.may_attack_squad(st, 0, 0, 1, tb)
    assert not kernels.zombie40k.shooting.may_attack_squad(st, 0, 1, 0, tb)


def test_s5_4_grudge_set_by_shooting_and_cleared_by_a_wipe(nojit):
    st, tb, rng = one_game(example_config("two_players"))
    _clear(st, keep=(0, 1))
    _put(st, tb, 0, 24.0, _hull_y(tb) - 10.0)  # Guard near the EV: the Marines may shoot it
    _put(st, tb, 1, 24.0, _hull_y(tb) - 25.0)
    assert kernels.zombie40k.shooting.may_attack_squad(st, 0, 1, 0, tb)
    assert not kernels.zombie40k.shooting.may_attack_squad(st, 0, 0, 1, tb)
    kernels.zombie40k.shooting.shoot(st, 0, 1, 0, tb, rng, False, False, -1)
    assert st.grudge[0, 0, 1] == 1  # A19: the Guard may now shoot back
    assert kernels.zombie40k.shooting.may_attack_squad(st, 0, 0, 1, tb)
    if kernels.zombie40k.units.on_table(st, 0, 0):
        _wipe_squad(st, tb, rng, 0, killer=2)
    assert st.grudge[0].sum() == 0  # A19 default: grudges end when either squad is wiped out


# ------------------------------------------------------------------ §5.5 / §6.2 the Shamble


def _shamble_scene(st, tb, gap):
    """Squad 0 alone with horde 2, ``gap`` inches apart; Overwatch already spent this phase."""
    _clear(st, keep=(0, 2))
    _put(st, tb, 0, 24.0, 30.0)
    _put(st, tb, 2, 24.0, 30.0 + st.radius[0, 0] + st.radius[0, 2] + gap)
    st.ustate[0, 0, GL.US_OVERWATCHED] = 1


def test_s6_2_shamble_into_contact_is_a_charge(dice):
    st, tb, rng = one_game(example_config("two_players"))
    _shamble_scene(st, tb, 3.0)
    dice.script(3, 3)  # the 2D6 Shamble roll
    kernels.zombie40k.movement.shamble_phase(st, 0, tb, rng)
    dice.done()
    assert _gap(st, 0, 2) == pytest.approx(0.0, abs=1e-6)
    assert st.locked[0, 0, 2] == 1 and st.locked[0, 2, 0] == 1
    assert st.ustate[0, 2, GL.US_CHARGED] == 1


def test_s6_2_shamble_short_of_contact(dice):
    st, tb, rng = one_game(example_config("two_players"))
    _shamble_scene(st, tb, 3.0)
    dice.script(1, 1)
    kernels.zombie40k.movement.shamble_phase(st, 0, tb, rng)
    dice.done()
    assert _gap(st, 0, 2) == pytest.approx(1.0, abs=1e-6)  # moved the full 2"
    assert st.locked[0, 0, 2] == 0 and st.ustate[0, 2, GL.US_CHARGED] == 0


def test_s6_2_shamble_triggers_overwatch(nojit):
    st, tb, rng = one_game(example_config("two_players"))
    _shamble_scene(st, tb, 0.5)
    st.ustate[0, 0, GL.US_OVERWATCHED] = 0
    kernels.zombie40k.movement.shamble_phase(st, 0, tb, rng)
    assert st.ustate[0, 0, GL.US_OVERWATCHED] == 1  # §6.2 step 4: the target fired Overwatch


def _targeting_scene(st, tb):
    """Horde 2 at (24, 36); squad 1 4" from it, squad 0 10" from it on the other side."""
    _clear(st, keep=(0, 1, 2))
    _put(st, tb, 2, 24.0, 36.0)
    _put(st, tb, 1, 24.0 + st.radius[0, 2] + st.radius[0, 1] + 4.0, 36.0)
    _put(st, tb, 0, 24.0 - st.radius[0, 2] - st.radius[0, 0] - 10.0, 36.0)


def test_s6_2_zombies_pick_the_nearest_squad(nojit):
    st, tb, rng = one_game(example_config("two_players"))
    _targeting_scene(st, tb)
    assert kernels.zombie40k.movement.shamble_target(st, 0, 2, tb, rng) == 1


def test_s6_2_zombies_ignore_a_squad_wearing_shades(nojit):
    st, tb, rng = one_game(example_config("two_players"))
    _targeting_scene(st, tb)
    st.pu[0, 1, GL.PU_SHADES] = 1
    assert kernels.zombie40k.movement.shamble_target(st, 0, 2, tb, rng) == 0


def test_s6_2_zombies_go_for_the_bile_holder(nojit):
    st, tb, rng = one_game(example_config("two_players"))
    _targeting_scene(st, tb)
    st.pu[0, 0, GL.PU_BILE] = 1
    assert kernels.zombie40k.movement.shamble_target(st, 0, 2, tb, rng) == 0


def test_s6_2_bile_and_shades_end_after_the_shamble_phase(dice):
    st, tb, rng = one_game(example_config("two_players"))
    _shamble_scene(st, tb, 20.0)
    st.pu[0, 0, GL.PU_BILE] = 1
    st.pu[0, 1, GL.PU_SHADES] = 1
    dice.script(1, 1)
    kernels.zombie40k.movement.shamble_phase(st, 0, tb, rng)
    dice.done()
    assert st.pu[0, :, GL.PU_BILE].sum() == 0 and st.pu[0, :, GL.PU_SHADES].sum() == 0


def test_s6_2_surrounded_squad_is_ignored(nojit):
    st, tb, rng = one_game(example_config("two_players"))
    _targeting_scene(st, tb)
    st.wounds[0, 1, 1:] = 0  # one Marine left, locked with a horde of 5: surrounded (A2)
    st.usum[:] = 0  # models edited by hand: the kept unit summaries are stale (units.touch)
    kernels.zombie40k.units.refresh_radius(st, 0, 1, tb)
    kernels.zombie40k.spawning.build_horde(st, 0, 3, tb)
    _put(st, tb, 3, 40.0, 36.0)
    kernels.zombie40k.units.lock(st, 0, 1, 3)
    assert kernels.zombie40k.movement.surrounded(st, 0, 1, tb)
    assert kernels.zombie40k.movement.shamble_target(st, 0, 2, tb, rng) == 0


# ------------------------------------------------------------------ §6.4 zombie assault


def _combat(st, tb):
    """Squad 0 (Guard: no ATSKNF) locked with horde 2 in the middle of the table."""
    _clear(st, keep=(0, 2))
    _put(st, tb, 0, 24.0, 30.0)
    _put(st, tb, 2, 24.0, 30.0 + st.radius[0, 0] + st.radius[0, 2])
    kernels.zombie40k.units.lock(st, 0, 0, 2)
    n = st.pos.shape[1]
    member = np.zeros(n, np.bool_)
    member[[0, 2]] = True
    return member, np.zeros(n, np.int64), np.zeros(n, np.int64)


def test_s6_4_zombies_never_take_morale(dice):
    st, tb, rng = one_game(example_config("two_players"))
    member, inflicted, suffered = _combat(st, tb)
    inflicted[0], suffered[2] = 4, 4  # the zombies lose by 4
    kernels.zombie40k.assault.resolve_combat(st, 0, member, inflicted, suffered, tb, rng)
    dice.done()  # no die rolled: Fearless
    assert st.locked[0, 0, 2] == 1 and st.ustate[0, 2, GL.US_FALLING_BACK] == 0


def test_s6_4_losing_squad_falls_back(dice):
    st, tb, rng = one_game(example_config("two_players"))
    member, inflicted, suffered = _combat(st, tb)
    suffered[0], inflicted[2] = 3, 3
    y = st.pos[0, 0, 1]
    dice.script(6, 6,  # Morale at Ld - 3: failed
                6, 1,  # Sweeping Advance: the Guard D6 + I beats the zombies' D6 + I
                4, 3)  # fall back 2D6 = 7"
    kernels.zombie40k.assault.resolve_combat(st, 0, member, inflicted, suffered, tb, rng)
    dice.done()
    assert kernels.zombie40k.units.on_table(st, 0, 0) and st.ustate[0, 0, GL.US_FALLING_BACK] == 1
    assert not kernels.zombie40k.units.in_combat(st, 0, 0) and not kernels.zombie40k.units.in_combat(st, 0, 2)
    assert st.pos[0, 0, 1] == pytest.approx(y - 7.0)  # straight towards the player edge
    assert st.ustate[0, 2, GL.US_CONSOLIDATE] == 1


def test_s6_4_losing_squad_caught_by_the_sweeping_advance(dice):
    st, tb, rng = one_game(example_config("two_players"))
    member, inflicted, suffered = _combat(st, tb)
    suffered[0], inflicted[2] = 3, 3
    dice.script(6, 6, 1, 6)  # Morale failed; swept: zombies 6 + I >= Guard 1 + I
    kernels.zombie40k.assault.resolve_combat(st, 0, member, inflicted, suffered, tb, rng)
    dice.done()
    assert not kernels.zombie40k.units.on_table(st, 0, 0) and kernels.zombie40k.units.alive(st, 0, 0) == 0
    assert st.pres[0, 0, GL.PR_WIPES] == 1
    assert st.ustate[0, 2, GL.US_CONSOLIDATE] == 1


def test_s6_4_squad_that_passes_morale_stays_locked(dice):
    st, tb, rng = one_game(example_config("two_players"))
    member, inflicted, suffered = _combat(st, tb)
    suffered[0], inflicted[2] = 1, 1
    dice.script(2, 3)  # 5 <= Ld - 1
    kernels.zombie40k.assault.resolve_combat(st, 0, member, inflicted, suffered, tb, rng)
    dice.done()
    assert st.locked[0, 0, 2] == 1 and st.ustate[0, 0, GL.US_FALLING_BACK] == 0


# ------------------------------------------------------------------ §7 Zombie Respawn Table


def _respawn_scene(st, tb, squad_at=(10.0, 30.0)):
    """Only squad 0 on the table; horde 2 destroyed and ready to come back."""
    _clear(st, keep=(0,))
    _put(st, tb, 0, *squad_at)
    assert kernels.zombie40k.spawning.zombie_can_respawn(st, 0, 2, tb)


def _respawn(dice, st, tb, rng, *script):
    dice.script(*script)
    kernels.zombie40k.spawning.respawn_horde(st, 0, 2, tb, rng)
    dice.done()
    assert kernels.zombie40k.units.on_table(st, 0, 2) and kernels.zombie40k.units.alive(st, 0, 2) == tb.horde_size[0]
    return st.pos[0, 2], st.radius[0, 2]


def test_s7_result_1_player_edge(dice):
    st, tb, rng = one_game(example_config("two_players"))
    _respawn_scene(st, tb)
    (x, y), r = _respawn(dice, st, tb, rng, 1)
    assert y == pytest.approx(r) and x == pytest.approx(10.0)  # opposite the squad (§6.5)


def test_s7_result_2_left_edge(dice):
    st, tb, rng = one_game(example_config("two_players"))
    _respawn_scene(st, tb)
    (x, y), r = _respawn(dice, st, tb, rng, 2)
    assert x == pytest.approx(r) and y == pytest.approx(30.0)


def test_s7_result_3_right_edge(dice):
    st, tb, rng = one_game(example_config("two_players"))
    _respawn_scene(st, tb)
    (x, y), r = _respawn(dice, st, tb, rng, 3)
    assert x == pytest.approx(tb.prm[GL.P_TABLE_W] - r) and y == pytest.approx(30.0)


def test_s7_result_4_ev_edge(dice):
    st, tb, rng = one_game(example_config("two_players"))
    _respawn_scene(st, tb)
    (x, y), r = _respawn(dice, st, tb, rng, 4)
    assert y == pytest.approx(tb.prm[GL.P_TABLE_L] - r) and x == pytest.approx(10.0)


def test_s7_result_5_centre_deep_strike(dice):
    st, tb, rng = one_game(example_config("two_players"))
    _respawn_scene(st, tb)
    # result 5; a HIT (1) is re-rolled until an arrow (4) shows; direction 0 (along +x); 2D6 = 2 + 3
    (x, y), r = _respawn(dice, st, tb, rng, 5, 1, 4, 0.0, 2, 3)
    cx, cy = 0.5 * tb.prm[GL.P_TABLE_W], 0.5 * tb.prm[GL.P_TABLE_L]
    assert (x, y) == pytest.approx((cx + 5.0, cy))
    assert math.hypot(x - cx, y - cy) <= 12.0


def test_s7_result_6_in_front_of_the_leader(dice):
    st, tb, rng = one_game(example_config("two_players"))
    _respawn_scene(st, tb)
    _put(st, tb, 1, 24.0, 45.0)  # the leader, straight in front of the EV
    r_h = kernels.zombie40k.geometry.unit_radius(tb.horde_size[0], tb.prm)
    # result 6; scatter die HIT (no scatter) with its direction drawn anyway
    (x, y), r = _respawn(dice, st, tb, rng, 6, 2, 0.3)
    assert r == pytest.approx(r_h)
    assert (x, y) == pytest.approx((24.0, 45.0 + st.radius[0, 1] + r + 3.0))  # 3" in front (A26)


# ------------------------------------------------------------------ §8 power-ups


def _powerup(dice, result, p=0, times=1):
    st, tb, rng = one_game(example_config("two_players"))
    for _ in range(times):
        kernels.zombie40k.powerups.apply_powerup(st, 0, p, result, tb)
    dice.done()
    assert st.pres[0, p, GL.PR_POWERUP0 + result] == times
    return st, tb


def test_s8_bile(dice):
    st, tb = _powerup(dice, GL.BILE)
    assert st.pu[0, 0, GL.PU_BILE] == 1


def test_s8_banana_peel(dice):
    st, tb = _powerup(dice, GL.BANANA)
    assert st.pu[0, 0, GL.PU_BANANA] == st.res[0, GL.R_TURNS] + 1  # the player's next turn


def test_s8_ork_boy(dice):
    st, tb, rng = one_game(example_config("two_players"))
    before, r = kernels.zombie40k.units.alive(st, 0, 1), st.radius[0, 1]
    kernels.zombie40k.powerups.apply_powerup(st, 0, 1, GL.ORK_BOY, tb)
    dice.done()
    assert kernels.zombie40k.units.alive(st, 0, 1) == before + 1 and st.radius[0, 1] > r
    m = before  # the first empty slot
    assert (st.stats[0, 1, m] == tb.extra_stats[2]).all()


def test_s8_duct_tape(dice):
    st, tb = _powerup(dice, GL.DUCT_TAPE)
    bits = st.mpow[0, 0] & (GL.MP_DUCT_SHOT | GL.MP_DUCT_ATTACK)
    assert np.count_nonzero(bits) == 1


def test_s8_chainsaw(dice):
    st, tb = _powerup(dice, GL.CHAINSAW)
    assert np.count_nonzero(st.mpow[0, 0] & GL.MP_CHAINSAW) == 1


def test_s8_medpack(dice):
    st, tb = _powerup(dice, GL.MEDPACK, times=2)
    assert st.pu[0, 0, GL.PU_MEDPACKS] == 2  # any number may be carried


def test_s8_shotgun(dice):
    st, tb = _powerup(dice, GL.SHOTGUN)
    assert np.count_nonzero(st.mpow[0, 0] & GL.MP_SHOTGUN) == 1


def test_s8_mushroom(dice):
    st, tb = _powerup(dice, GL.MUSHROOM, times=2)
    assert st.pu[0, 0, GL.PU_MUSHROOM] == 1  # at most one


def test_s8_defibrillator(dice):
    st, tb = _powerup(dice, GL.DEFIB, times=2)
    assert st.pu[0, 0, GL.PU_DEFIBS] == 2


def test_s8_shades(dice):
    st, tb = _powerup(dice, GL.SHADES)
    assert st.pu[0, 0, GL.PU_SHADES] == 1


def test_s8_chuck_norris(dice):
    st, tb = _powerup(dice, GL.CHUCK)
    assert st.pu[0, 0, GL.PU_CHUCK] == st.res[0, GL.R_TURNS] + 1
    st.res[0, GL.R_TURNS] += 1
    assert kernels.zombie40k.powerups.chuck_active(st, 0, 0)  # through the squad's next turn


def test_s8_catch_up_pushes_the_leader_back(dice):
    st, tb, rng = one_game(example_config("two_players"))
    _clear(st, keep=(0, 1))
    _put(st, tb, 0, 10.0, 10.0)  # furthest from the EV: the roller
    _put(st, tb, 1, 24.0, 55.0)  # the leader, within 18" of the EV
    dice.script(4)  # the D6 push
    kernels.zombie40k.powerups.roll_powerup(st, 0, 0, tb, rng)
    dice.done()
    assert tuple(st.pos[0, 1]) == pytest.approx((24.0, 51.0))  # straight away from the EV
    assert st.pres[0, 0, GL.PR_POWERUP0:].sum() == 0  # no power-up instead


def test_s8_catch_up_rolls_twice_when_the_leader_is_far(dice):
    st, tb, rng = one_game(example_config("two_players"))
    _clear(st, keep=(0, 1))
    _put(st, tb, 0, 10.0, 10.0)
    _put(st, tb, 1, 24.0, 30.0)
    dice.script(1, 1, 5, 6)  # Bile (2) or Shades (11): keeps the one it values more (A28)
    kernels.zombie40k.powerups.roll_powerup(st, 0, 0, tb, rng)
    dice.done()
    assert st.pu[0, 0, GL.PU_SHADES] == 1 and st.pu[0, 0, GL.PU_BILE] == 0
    assert tuple(st.pos[0, 1]) == pytest.approx((24.0, 30.0))


# ------------------------------------------------------------------ §9 USRs


def test_s9_usr_reaches_the_model(nojit):
    config = team_config("guard", "marines", policies=[{"removal": 1}, {"removal": 1}])  # the sergeants first
    st, tb, rng = one_game(config)
    assert st.stats[0, 0, 0, L.FNP] == 5  # Feel No Pain on the Guard sergeant only
    assert (st.stats[0, 0, 1:, L.FNP][st.wounds[0, 0, 1:] > 0] == 7).all()
    assert st.mflags[0, 1, 0] & L.MR_COUNTER_ATTACK  # Counter-Attack on the Marine sergeant
    assert not st.mflags[0, 1, 1] & L.MR_COUNTER_ATTACK
    assert kernels.zombie40k.units.unit_flags(st, 0, 1, 1) & L.MR_COUNTER_ATTACK  # a unit rule: all attack with it


def test_a33_medpack_policy_spends_on_any_unsaved_wound(dice, rng):
    """A33 option: with medpack = 1 a Medpack is spent on an unsaved wound that leaves the model
    alive (the default keeps it for a wound that would kill)."""
    import numpy as np

    from kernels.w40k import columns as L
    from kernels.w40k import combat
    from sim.w40k.profiles import Profile
    from sim.w40k.tables import model_flags, model_stats

    boss = Profile("Boss", 5, 4, 5, 5, 3, 4, 3, 9)
    for mode, spent in ((0, 0), (1, 1)):
        spec = np.zeros(L.N_SPEC, np.int64)
        spec[L.SP_HIT_MODE], spec[L.SP_AUTO_WOUND], spec[L.SP_AP], spec[L.SP_AP_ON_6] = L.HM_AUTO, 1, 7, 7
        wounds = np.array([3], np.int16)
        medpacks = np.array([1, mode], np.int32)
        out = np.zeros(L.N_OUT, np.int64)
        combat.resolve_attacks(rng, 0, 1, spec, wounds, np.array([model_stats(boss)]), np.array([model_flags(boss)]),
                               np.zeros(1, np.int8), 7, 0, medpacks, out)
        assert out[L.OUT_CANCELLED] == spent and wounds[0] == 3 - (1 - spent)
    dice.done()


def test_a33_defibrillator_kept_as_a_medpack(dice, rng):
    import kernels.zombie40k.powerups as PU
    from kernels.zombie40k import columns as GL

    config = team_config("guard", "marines", policies=[{"defibrillator": 1}, {"defibrillator": 0}])
    st, tb, _ = one_game(config)
    PU.apply_powerup(st, 0, 0, GL.DEFIB, tb)
    PU.apply_powerup(st, 0, 1, GL.DEFIB, tb)
    assert (st.pu[0, 0, GL.PU_MEDPACKS], st.pu[0, 0, GL.PU_DEFIBS]) == (1, 0)
    assert (st.pu[0, 1, GL.PU_MEDPACKS], st.pu[0, 1, GL.PU_DEFIBS]) == (0, 1)
