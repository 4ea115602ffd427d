"""The jitted Out West kernels against the exact odds of sim.rulesets.outwest.exact.

Each case resolves one rule many times (kernels.outwest.samplers: trial k from stream
``stream_start(SEED, k)``) on a table set up by hand, and compares the histogram of outcomes
with the oracle's exact pmf: chi-square at alpha = 1e-4, bins pooled below an expected count
of 5 (tests/helpers.py). The oracle is computed from the rules and the config's numbers, not
from kernel code. Cases: a zombie's attack (the opposed sixes, then the §7.4 table and bites
rolled on §5.6) by arc, class, weapon, bites, ground and plague; a human's Fight (§7.5); one
Fire at every range band for every gun, with aim, blaze, cover, Move & Fire and a serious
wound; a zombie's move on the six rule (§6.2); the bite tests (§8).
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
from helpers import assert_matches_pmf
from outwest_helpers import Arena, config, human_fate_codes

from kernels.outwest import layout as L
from kernels.outwest import samplers as S
from sim.rulesets.outwest import exact as X
from sim.rulesets.outwest.config import Character, OutwestConfig

pytestmark = pytest.mark.slow  # statistical: 40,000 trials a case

SEED = 20_240_515
N = 40_000
CLASS_OF = {0: "legend", 1: "shootist", 2: "gunman", 3: "gunman", 4: "citizen"}  # the default posse
EFFECTIVE = {0: True, 1: False, 2: False, 3: False, 4: False}
ARC_SPOT = {"front": (1.0, 0.0), "side": (0.0, 1.0), "rear": (-1.0, 0.0)}  # attacker relative to a defender facing east


def _pmf(oracle: dict, keys) -> np.ndarray:
    return np.array([float(oracle.get(k, 0)) for k in keys])


# ------------------------------------------------------------------ a zombie attacks


ZOMBIE_CASES = [
    # id, human slot, arc, state, bites, config changes
    ("gunman-limited-front", 2, "front", L.S_STANDING, 0, {}),
    ("legend-effective-side", 0, "side", L.S_STANDING, 0, {}),
    ("citizen-rear", 4, "rear", L.S_STANDING, 0, {}),
    ("shootist-on-the-ground", 1, "front", L.S_DOWN, 0, {}),
    ("gunman-two-bites", 3, "front", L.S_STANDING, 2, {}),
    ("unconscious", 2, "side", L.S_OUT, 0, {}),
    ("plague-gunman", 2, "front", L.S_STANDING, 0, {"zombie_plague": True}),
    ("plague-legend-bites-cannot-kill", 0, "rear", L.S_STANDING, 1, {"zombie_plague": True, "bite_can_kill": False}),
    ("plague-bite-deaths-rise", 4, "front", L.S_STANDING, 0, {"zombie_plague": True, "bite_death_rises": True}),
]


def zombie_attack_arena(h: int, arc: str, state: int, bites: int, changes: dict) -> Arena:
    a = Arena(config(**changes), n_games=2, trace=64)
    a.put(h, 18.0, 18.0, 0.0, state)
    a.st.fi[0, h, L.FI_BITES] = bites
    dx, dy = ARC_SPOT[arc]
    z = a.put(a.zombie(0), 18.0 + dx, 18.0 + dy, math.atan2(-dy, -dx))
    a.template()
    return a, z


@pytest.mark.parametrize("case", ZOMBIE_CASES, ids=[c[0] for c in ZOMBIE_CASES])
def test_zombie_attack_matches_the_oracle(case):
    _, h, arc, state, bites, changes = case
    a, z = zombie_attack_arena(h, arc, state, bites, changes)
    out = np.zeros((N, 10), np.int64)
    S.sample_zombie_attack(a.st, a.tb, np.uint64(SEED), z, h, np.zeros(1, np.uint64), out)
    human = X.Fighter(zombie=False, effective=EFFECTIVE[h], cls=CLASS_OF[h], bites=bites,
                      on_ground=state == L.S_DOWN, unconscious=state == L.S_OUT)
    att, dfd = X.melee_dice(a.config, X.Fighter(), human, arc)
    exchange = X.melee_exchange(att, dfd)
    codes = np.where(out[:, 1] > out[:, 0], 0, out[:, 2] + 1)
    assert_matches_pmf(codes, [float(exchange.get("knocked over", 0))] +
                       [float(exchange.get(k, 0)) for k in range(att + 1)], f"{case[0]}: sixes")
    fate = X.zombie_attack_fate(a.config, att, dfd, starts_down=state != L.S_STANDING)
    codes = human_fate_codes(out, was_down=state != L.S_STANDING, bites=bites)
    assert_matches_pmf(codes, _pmf(fate, X.FATES), f"{case[0]}: fate")


def test_the_dice_of_a_zombie_attack_follow_the_modifiers():
    """§7.2 by hand: 4 v 2 in front; from behind +2 / -2; on the ground +3; bites -1 each."""
    c = OutwestConfig()
    gunman = X.Fighter(zombie=False, cls="gunman")
    assert X.melee_dice(c, X.Fighter(), gunman, "front") == (4, 2)
    assert X.melee_dice(c, X.Fighter(), gunman, "rear") == (6, 0)
    assert X.melee_dice(c, X.Fighter(), replace(gunman, on_ground=True), "side") == (7, 0)
    assert X.melee_dice(c, X.Fighter(), X.Fighter(zombie=False, cls="legend", effective=True, bites=1)) == (4, 4)


# ------------------------------------------------------------------ a human fights


HUMAN_CASES = [
    # id, human slot, arc of the zombie he stands in, zombie state, config changes
    ("legend-sabre-front", 0, "front", L.S_STANDING, {}),
    ("gunman-knife-behind", 2, "rear", L.S_STANDING, {}),
    ("shootist-club-on-a-downed-zombie", 1, "side", L.S_DOWN, {"club_long_guns": True}),
]


@pytest.mark.parametrize("case", HUMAN_CASES, ids=[c[0] for c in HUMAN_CASES])
def test_human_attack_matches_the_oracle(case):
    _, h, arc, zstate, changes = case
    a = Arena(config(**changes), n_games=2, trace=64)
    dx, dy = ARC_SPOT[arc]
    z = a.put(a.zombie(0), 18.0, 18.0, 0.0, zstate)
    a.put(h, 18.0 + dx, 18.0 + dy, math.atan2(-dy, -dx))
    a.template()
    out = np.zeros((N, 10), np.int64)
    S.sample_human_attack(a.st, a.tb, np.uint64(SEED), h, z, np.zeros(1, np.uint64), out)
    effective = EFFECTIVE[h] or a.config.club_long_guns
    human = X.Fighter(zombie=False, effective=effective, cls=CLASS_OF[h])
    att, dfd = X.melee_dice(a.config, human, X.Fighter(on_ground=zstate == L.S_DOWN), arc)
    fate = X.human_attack_fate(a.config, att, dfd, effective, zombie_down=zstate == L.S_DOWN)
    codes = np.full(N, 1)
    codes[out[:, 9] > 0] = 2
    if zstate == L.S_STANDING:
        codes[out[:, 6] == L.S_DOWN] = 3
    codes[out[:, 7] == L.FATE_DESTROYED] = 4
    codes[out[:, 3] == L.S_DOWN] = 0
    assert_matches_pmf(codes, _pmf(fate, X.HUMAN_ATTACK_FATES), case[0])


# ------------------------------------------------------------------ one Fire at each band


def gun_posse(*guns: str, cls: str = "gunman") -> tuple:
    return (Character("Shooter", cls, tuple(guns), "knife"),)


SHOT_CASES = [
    # id, guns of the shooter, class, gap, slot, aimed, blaze, moved, serious wounds, zombie in cover
    *[(f"pistol-{b}", ("pistol",), "gunman", gap, 0, 0, 0, 0, 0, False)
      for b, gap in (("point-blank", 1.0), ("close", 4.0), ("medium", 9.0), ("long", 15.0))],
    *[(f"rifle-{b}", ("rifle",), "gunman", gap, 0, 0, 0, 0, 0, False)
      for b, gap in (("point-blank", 1.0), ("close", 4.0), ("medium", 9.0), ("long", 15.0), ("extreme", 21.0))],
    *[(f"shotgun-{b}", ("shotgun",), "citizen", gap, 0, 0, 0, 0, 0, False)
      for b, gap in (("point-blank", 0.0), ("close", 3.0), ("medium", 8.0), ("long", 15.0), ("extreme", 21.0))],
    ("sawn-off-point-blank", ("sawn_off",), "gunman", 2.0, 0, 0, 0, 0, 0, False),
    ("sawn-off-close", ("sawn_off",), "shootist", 5.0, 0, 0, 0, 0, 0, False),
    ("musketoon-close", ("musketoon",), "gunman", 6.0, 0, 0, 0, 0, 0, False),
    ("legend-pistol-aimed", ("pistol",), "legend", 4.0, 0, 1, 0, 0, 0, False),
    ("gunman-pistol-blazing", ("pistol",), "gunman", 4.0, 0, 0, 1, 0, 0, False),
    ("rifle-move-and-fire-serious", ("rifle",), "shootist", 9.0, 0, 0, 0, 1, 1, False),
    ("rifle-zombie-in-cover", ("pistol", "rifle"), "gunman", 10.0, 1, 0, 0, 0, 0, True),
]


@pytest.mark.parametrize("case", SHOT_CASES, ids=[c[0] for c in SHOT_CASES])
def test_a_fire_matches_the_oracle(case):
    _, guns, cls, gap, slot, aimed, blaze, moved, serious, cover = case
    a = Arena(config(players=gun_posse(*guns, cls=cls), town="default"), n_games=2, trace=64)
    y = 22.0 if cover else 2.0  # the saloon is x 8-14, y 19-26; the south edge is open
    zx = 13.0 if cover else 30.0
    z = a.put(a.zombie(0), zx, y)
    a.put(0, zx - gap - 1.0, y, 0.0)
    a.st.fi[0, 0, L.FI_SERIOUS] = serious
    a.template()
    out = np.zeros((N, 5), np.int64)
    S.sample_fire(a.st, a.tb, np.uint64(SEED), 0, z, slot, aimed, blaze, moved, np.zeros(1, np.uint64), out)
    mods = dict(aimed=bool(aimed), blaze=bool(blaze), cover=cover, moved=bool(moved), serious=serious)
    gun = guns[slot]
    fate = X.shot_fate(a.config, gun, gap, cls, **mods)
    keys = [(f, s) for f in X.ZOMBIE_FATES for s in X.GUN_STATES]
    zfate = np.where(out[:, 3] == L.FATE_DESTROYED, 2, np.where(out[:, 2] == L.S_DOWN, 1, 0))
    assert_matches_pmf(zfate * 3 + out[:, 4], _pmf(fate, keys), f"{case[0]}: fate and gun")
    if X.shot_dice(a.config, gun, X.band_of(a.config, gap), cls, **mods) < 0:  # out of the gun's reach
        assert (out[:, :2] == -1).all(), f"{case[0]}: a gun out of reach rolls no shooting roll"
        return
    hits = X.hits_pmf(a.config, gun, gap, cls, **mods)
    assert (out[:, 1] == len(hits) - 1).all(), f"{case[0]}: dice"
    assert_matches_pmf(out[:, 0], [float(p) for p in hits], f"{case[0]}: hits of the first roll")


def test_the_class_dice_reading_of_shooting_matches_the_oracle():
    """W1's alternative: dice by class, the band sets the score (4+ point blank ... 6 extreme)."""
    c = config(players=gun_posse("rifle", cls="shootist"), shooting_mechanic="class_dice", town="open")
    a = Arena(c, n_games=2, trace=64)
    z = a.put(a.zombie(0), 30.0, 2.0)
    a.put(0, 30.0 - 10.0, 2.0, 0.0)
    a.template()
    out = np.zeros((N, 5), np.int64)
    S.sample_fire(a.st, a.tb, np.uint64(SEED), 0, z, 0, 0, 0, 0, np.zeros(1, np.uint64), out)
    assert (out[:, 1] == 3).all()
    assert_matches_pmf(out[:, 0], [float(p) for p in X.hits_pmf(c, "rifle", 9.0, "shootist")], "class dice hits")


# ------------------------------------------------------------------ zombie movement, bite tests


def test_a_zombie_moves_on_the_six_rule():
    a = Arena(config(town="open"), n_games=2, trace=64)
    a.put(0, 35.0, 35.0)
    z = a.put(a.zombie(0), 2.0, 2.0, 0.0)
    a.template()
    out = np.zeros((N, 2), np.int64)
    S.sample_shamble(a.st, a.tb, np.uint64(SEED), z, np.zeros(1, np.uint64), out)
    assert np.all(out[:, 0] % 1000 == 0), "moves are whole inches straight at the target"
    oracle = X.shamble_pmf()
    codes = (out[:, 0] // 1000) * 2 + (out[:, 1] == L.S_DOWN)
    pmf = np.zeros(24)
    for (inches, fell), p in oracle.items():
        pmf[inches * 2 + fell] = float(p)
    assert_matches_pmf(codes, pmf, "six rule")


@pytest.mark.parametrize("bites,changes", [(1, {}), (3, {}), (1, {"zombie_plague": True}),
                                           (2, {"zombie_plague": True}),
                                           (2, {"zombie_plague": True, "plague_test": "total"})])
def test_bite_tests_lapse_as_the_oracle_says(bites, changes):
    a = Arena(config(**changes), n_games=2, trace=64)
    a.put(2, 18.0, 18.0)
    a.st.fi[0, 2, L.FI_BITES] = bites
    a.template()
    out = np.zeros((N, 3), np.int64)
    S.sample_activation_checks(a.st, a.tb, np.uint64(SEED), 2, np.zeros(1, np.uint64), out)
    p = float(X.bite_lapse_probability(a.config, bites))
    lapsed = (out[:, 1] == L.S_OUT).astype(int)
    assert (lapsed == 1 - out[:, 0]).all(), "a lapse ends the activation"
    assert_matches_pmf(lapsed, [1 - p, p], f"{bites} bites {changes}")
