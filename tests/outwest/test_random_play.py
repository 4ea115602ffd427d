"""Random-legal play (issue 26 item 4, Out West): the ``random`` preset (``decisions = 1``) draws
each action among the legal ones (kernels.outwest.random_play), stays within the rules, keeps a
game a function of (seed, index), plays differently from the heuristic, and holds the town less
often than the default posse on the same games."""

from __future__ import annotations

from dataclasses import fields, replace
from pathlib import Path

import numpy as np
import outwest_helpers as H
import pandas as pd
import pytest
from outwest_helpers import Arena, config, play
from scipy.stats import binomtest, chisquare

import kernels.outwest.random_play as R
from kernels.outwest import layout as L
from sim.ruleset import get, load_config
from sim.rulesets.outwest.config import DEFAULT_POLICY, POLICY_PRESETS, Policy, default_posse, with_policy

ROOT = Path(__file__).resolve().parents[2]
GUNMAN = 2  # slot of the default posse's first Gunman (pistol and rifle)
ow_nojit = H.ow_nojit  # the fixture
ALPHA = 1e-4  # house alpha for a statistical test at a fixed seed
RANDOM = POLICY_PRESETS["random"]


def scene(**params) -> Arena:
    """The default posse, all random-legal, on the open table; the first Gunman at the centre
    facing east; nobody else on the table."""
    a = Arena(with_policy(config(town="open", **params), RANDOM))
    a.put(GUNMAN, 18.0, 18.0, 0.0)
    return a


def legal_kinds(a: Arena, h: int) -> set[int]:
    return {k for k in range(R.N_KINDS) if R.legal(a.st, 0, a.tb, h, k)}


def test_the_random_preset_is_named_random_and_only_switches_the_decisions():
    assert get("outwest").policy_presets()["random"] is RANDOM
    assert RANDOM.decisions == 1 and replace(RANDOM, decisions=Policy().decisions) == Policy()


def test_optimality_and_tune_see_the_decisions_as_a_0_1_choice():
    from experiments.optimality import field_spec
    from experiments.tune_space import policy_space

    pol = get("outwest").example_config().players[0].policy
    f = next(f for f in fields(pol) if f.name == "decisions")
    assert field_spec(pol, f).choices == (0, 1)
    dims = {d.name: d for d in policy_space(get("outwest"), pol)}
    assert (dims["decisions"].low, dims["decisions"].high) == (0, 1)


def test_out_of_contact_every_legal_kind_is_drawn_uniformly(ow_nojit):
    """A zombie 5" in front, both guns loaded: Reposition, Move, Move & Fire, Fire, Aim and Duck
    back are legal (nothing to reload, fix, fight, carry or mount); 1,200 draws of the kind are
    uniform over them (chi-square, alpha 1e-4)."""
    a = scene()
    a.put(a.zombie(0), 24.0, 18.0)
    want = {R.R_REPOSITION, R.R_MOVE, R.R_MOVE_FIRE, R.R_FIRE, R.R_AIM, R.R_DUCK}
    assert legal_kinds(a, GUNMAN) == want
    draws = [R.draw_kind(a.st, 0, a.tb, a.rng, GUNMAN) for _ in range(1200)]
    counts = np.array([draws.count(k) for k in sorted(want)])
    assert counts.sum() == 1200
    assert chisquare(counts).pvalue > ALPHA, counts


def test_in_contact_he_fights_or_shoots_only_the_zombie_touching_him(ow_nojit):
    """W25: in contact he may Fire only at a zombie touching him, at point blank, and never Move &
    Fire; he may Fight it; he may Aim at any zombie a gun reaches. Without contact shooting (the
    other reading of W25) Fire is not legal."""
    a = scene()
    touching = a.put(a.zombie(0), 19.0, 18.0)
    far = a.put(a.zombie(1), 18.0, 26.0)
    assert legal_kinds(a, GUNMAN) == {R.R_REPOSITION, R.R_MOVE, R.R_FIRE, R.R_AIM, R.R_FIGHT, R.R_DUCK}
    shots = {R.pick(a.st, 0, a.tb, a.rng, GUNMAN, R.OF_TARGETS) for _ in range(100)}
    aims = {R.pick(a.st, 0, a.tb, a.rng, GUNMAN, R.OF_AIMS) for _ in range(100)}
    assert shots == {touching} and aims == {touching, far}
    b = Arena(with_policy(config(town="open", contact_shooting=False), RANDOM))
    b.put(GUNMAN, 18.0, 18.0, 0.0)
    b.put(b.zombie(0), 19.0, 18.0)
    assert R.R_FIRE not in legal_kinds(b, GUNMAN) and R.R_FIGHT in legal_kinds(b, GUNMAN)


def test_chores_and_wounds_decide_what_is_legal(ow_nojit):
    """An empty gun and a jammed one: Reload and Fix gun are legal, no shot nor Aim; a man who may
    not move (§5.6) neither Moves nor Repositions."""
    a = scene()
    a.put(a.zombie(0), 24.0, 18.0)
    a.st.fi[0, GUNMAN, L.FI_AMMO0], a.st.fi[0, GUNMAN, L.FI_AMMO1] = L.GUN_EMPTY, L.GUN_JAMMED
    assert legal_kinds(a, GUNMAN) == {R.R_REPOSITION, R.R_MOVE, R.R_RELOAD, R.R_FIX, R.R_DUCK}
    a.st.fi[0, GUNMAN, L.FI_NO_MOVE] = 1
    assert legal_kinds(a, GUNMAN) == {R.R_RELOAD, R.R_FIX, R.R_DUCK}


def test_a_comrade_who_must_be_carried_is_carried_on_a_random_heading(ow_nojit):
    """§9: an unconscious comrade in base contact makes Carry legal; both move together (§4), so
    they stay in contact, and the carrier has moved."""
    a = scene()
    legend = a.put(0, 18.0, 19.0, 0.0, state=L.S_OUT)
    assert R.R_CARRY in legal_kinds(a, GUNMAN)
    before = a.pos(GUNMAN)
    R.perform(a.st, 0, a.tb, a.rng, GUNMAN, R.R_CARRY)
    (gx, gy), (lx, ly) = a.pos(GUNMAN), a.pos(legend)
    assert (gx, gy) != before and np.hypot(lx - gx, ly - gy) == pytest.approx(1.0)
    a.st.fi[0, legend, L.FI_STATE] = L.S_STANDING
    assert R.R_CARRY not in legal_kinds(a, GUNMAN)


def mounted_random_config():
    """Every advanced rule, a gunslinger at the start, the Gunmen on horses: every kind of
    action and every held card can come up."""
    posse = tuple(replace(p, horse=p.cls == "gunman") for p in default_posse(RANDOM))
    return config(players=posse, zombie_plague=True, zombie_gunslingers=True, start_gunslingers=1)


def test_random_games_break_no_rule_and_play_differently_from_the_heuristic():
    """300 checked games: no invariant violated; on the same games (seed, index) the heuristic
    posse's games differ from the random posse's in most games (activations or shots of some man)."""
    cfg = mounted_random_config()
    df, violations = play(cfg, 300, seed=11, check=True)
    assert violations == 0
    heuristic, _ = play(with_policy(cfg, POLICY_PRESETS[DEFAULT_POLICY]), 300, seed=11)
    cols = ["activations", "shots", "zombies_destroyed", "outcome"]
    same = (df[cols] == heuristic[cols]).all(axis=1).groupby(df["game"]).all()
    assert same.mean() < 0.5, same.mean()


def test_random_games_do_not_depend_on_the_batch():
    cfg = mounted_random_config()
    one, _ = play(cfg, 40, seed=5, batch=1)
    odd, _ = play(cfg, 40, seed=5, batch=17)
    whole, _ = play(cfg, 40, seed=5, batch=40)
    pd.testing.assert_frame_equal(one, odd)
    pd.testing.assert_frame_equal(one, whole)
    again, _ = play(cfg, 40, seed=5, batch=40)
    pd.testing.assert_frame_equal(whole, again)


@pytest.mark.slow
def test_the_default_posse_holds_more_often_than_the_random_one_on_paired_games():
    """examples/outwest/hold.toml, 400 paired games (the same seed and index under each policy):
    among the games only one of them holds, the default's share is above one half by a one-sided
    sign test (McNemar's exact test) at alpha 1e-4."""
    base = load_config(ROOT / "examples/outwest/hold.toml")
    default, _ = play(base, 400, seed=3)
    rand, _ = play(with_policy(base, RANDOM), 400, seed=3)
    held = default.groupby("game")["won"].any().to_numpy()
    held_random = rand.groupby("game")["won"].any().to_numpy()
    only_default, only_random = int((held & ~held_random).sum()), int((~held & held_random).sum())
    test = binomtest(only_default, only_default + only_random, 0.5, alternative="greater")
    assert test.pvalue < ALPHA, (only_default, only_random)
