"""Strong play (issue 26, Out West): the policy fields a competent player would use, each on a
hand-set scene with hand-fed dice, against the spec's P1 (``stand_and_shoot``) on the same scene."""

from __future__ import annotations

import math
from dataclasses import replace

import outwest_helpers as H
import pytest
from outwest_helpers import Arena, config

import kernels.outwest.humans as Hm
from kernels.outwest import layout as L
from sim.rulesets.outwest.config import POLICY_PRESETS, with_policy

GUNMAN, LEGEND, CITIZEN, SHOOTIST = 2, 0, 4, 1  # slots of the default posse
ow_dice, ow_nojit = H.ow_dice, H.ow_nojit  # the fixtures


def policy_config(preset: str = "stand_and_shoot", **fields):
    """The default config on the open table, every man playing ``preset`` with fields changed."""
    return with_policy(config(town="open"), replace(POLICY_PRESETS[preset], **fields))


def gap_to_zombies(a: Arena, f: int) -> float:
    x, y = a.pos(f)
    best = math.inf
    for z in range(a.H, a.st.fi.shape[1]):
        if a.fi(z, L.FI_KIND) == L.K_ZOMBIE and a.fi(z, L.FI_STATE) != L.S_GONE:
            zx, zy = a.pos(z)
            best = min(best, math.hypot(zx - x, zy - y) - 1.0)
    return best


def unarmed(a: Arena, h: int) -> None:
    a.st.fi[0, h, L.FI_AMMO0] = a.st.fi[0, h, L.FI_AMMO1] = L.GUN_BROKEN


# ------------------------------------------------------------------ a: running clear of every zombie


@pytest.mark.parametrize("flee_clear", [0, 1])
def test_a_man_who_runs_keeps_clear_of_every_zombie_not_only_the_nearest(ow_dice, flee_clear):
    """A zombie 2" west, another 5" east: straight away from the nearest (P1) runs him into the
    second; the clear heading (north or south) leaves him more than 6" from both."""
    a = Arena(policy_config(flee_clear=flee_clear))
    a.put(GUNMAN, 18.0, 18.0, 0.0)
    unarmed(a, GUNMAN)
    a.put(a.zombie(0), 15.0, 18.0)
    a.put(a.zombie(1), 24.0, 18.0)
    ow_dice.script(4, 4, 4)
    Hm.act(a.st, 0, a.tb, a.rng, GUNMAN, True)  # he must move away (a failed nerve test)
    ow_dice.done()
    if flee_clear:
        assert gap_to_zombies(a, GUNMAN) > 6.0
    else:
        assert gap_to_zombies(a, GUNMAN) == pytest.approx(0.0, abs=1e-5)  # P1: into the second zombie
