"""The readings of issue 27, each default against its other reading with hand-fed dice: Target
Priority's "must shoot" (§7, A34), the spawner aura's Fear test "even if fearless" (§10), Feel No
Pain and The Plague (§5, core §6.8), Supporting the Team (a) (§6)."""

from __future__ import annotations

import numpy as np
import pytest
from apocalypse_helpers import put_horde, put_unit, table, warlord

import kernels.apocalypse.assault as assault
import kernels.apocalypse.combat as combat
import kernels.apocalypse.shooting as shooting
import kernels.apocalypse.units as units
import kernels.apocalypse.zombies as zombies
from kernels.apocalypse import columns as C
from kernels.apocalypse.state import N_OUT_A


@pytest.mark.parametrize("reading, shoots", [("must_shoot", True), ("target_only", False)])
def test_target_priority_must_shoot_even_under_a_policy_that_never_shoots(dice, reading, shoots):
    """§7 trait 6: "if there is a unit within 12\" they must shoot at it". The Captain (Target
    Priority, policy shoot = 0) with a horde 8" away shoots it by default."""
    _, tb, st, _ = table(target_priority=reading)
    tb.policy[0, C.POL_TRAIT] = C.TRAIT_PRIORITY
    tb.policy[0, C.POL_SHOOT] = 0
    u = put_unit(st, tb, 0, 20, 20)
    warlord(st, tb)
    h = put_horde(st, tb, 20 + 8.0 + st.urad[0, u] + 1.0, 20, 5)
    assert shooting.choose_target(st, 0, u, tb) == h
    assert shooting.shooting_decision(st, 0, u, h, tb) == shoots
    far = put_horde(st, tb, 44, 44, 5)
    assert not shooting.shooting_decision(st, 0, u, far, tb)  # beyond 12": the policy decides


@pytest.mark.parametrize("reading, ws1", [("tests", 1), ("passes", 0)])
def test_spawner_aura_fear_is_tested_even_with_and_they_shall_know_no_fear(dice, reading, ws1):
    """§10: the aura's Fear test is taken "even if fearless, as ... even the mightiest warriors
    tremble": Tactical Marines (ATSKNF, Ld 8) fail it on 12 by default."""
    _, tb, st, rng = table(aura_fear_atsknf=reading)
    tb.policy[0, C.POL_TRAIT] = C.TRAIT_NONE
    u = put_unit(st, tb, 1, 20, 20)
    assert units.knows_no_fear(st, 0, u)
    st.spos[0, 0] = 20 + st.urad[0, u] + 2.5 + 1.0, 20
    st.sst[0, 0, C.SS_ALIVE] = 1
    dice.script(6, 6)
    zombies.spawner_aura(rng, 0, st, tb)
    dice.done()
    assert st.ust[0, u, C.US_AURA_WS1] == ws1


@pytest.mark.parametrize("reading, counted", [("counted", 1), ("ignored", 0)])
def test_a_wound_feel_no_pain_ignores_counts_for_the_plague(dice, reading, counted):
    """Core §6.8: Feel No Pain is rolled "for each unsaved Wound"; §5 The Plague rolls for "each
    model that suffered an unsaved wound". The Captain with Tenacity (FNP 5+) ignores one: it
    counts by default."""
    _, tb, st, rng = table(plague_fnp=reading)
    tb.policy[0, C.POL_TRAIT] = C.TRAIT_TENACITY
    u = put_unit(st, tb, 0, 20, 20)
    warlord(st, tb)
    dice.script(6, 4, 1, 6)  # hit on a 6, wound S4 v T4 on 4+, save failed, Feel No Pain 6
    out = combat.zombie_attacks(rng, 0, st, u, 1, tb.zstats[C.ZK_ZOMBIE], tb.zflags[C.ZK_ZOMBIE],
                                tb.weapons[tb.ids[0]], 4, True, False, False, False, tb,
                                np.zeros(N_OUT_A, np.int64))
    dice.done()
    assert out == 0 and st.wounds[0, u, 0] == 3
    assert st.minfo[0, u, 0, C.MI_ZW] == counted and st.minfo[0, u, 0, C.MI_ZW_TURN] == counted


def test_precision_strikes_count_a_feel_no_pain_wound_for_the_plague(dice):
    _, tb, st, rng = table()
    tb.policy[0, C.POL_TRAIT] = C.TRAIT_TENACITY
    u = put_unit(st, tb, 0, 20, 20)
    warlord(st, tb)
    dice.script(6, 4, 1, 6)
    combat.zombie_attacks(rng, 0, st, u, 1, tb.zstats[C.ZK_FIRST], tb.zflags[C.ZK_FIRST], tb.weapons[tb.ids[0]], 4,
                          False, True, False, False, tb, np.zeros(N_OUT_A, np.int64))
    dice.done()
    assert st.wounds[0, u, 0] == 3 and st.minfo[0, u, 0, C.MI_ZW] == 1


@pytest.mark.parametrize("reading", ["strike", "join"])
def test_supporting_the_team_strikes_by_default_and_joins_as_the_other_reading(dice, reading):
    """§6 Supporting the Team (a): a unit within 2" of one locked in combat fights in it. By
    default it strikes only; under ``supporting = "join"`` it is locked with the combat's hordes."""
    _, tb, st, _ = table(supporting=reading)
    a = put_unit(st, tb, 1, 20, 20)
    b = put_unit(st, tb, 3, 20, 20 + st.urad[0, a] + 1.5)
    h = put_horde(st, tb, 20 + st.urad[0, a] + 2.0, 20, 10)
    st.lock[0, a, h] = 1
    st.w_mark_u[:] = False
    st.w_cu[0], st.w_ch[0] = a, h
    st.w_mark_u[a] = True
    ns = assault.add_supporters(st, 0, 1, tb)
    assert ns == 2 and st.w_cu[1] == b and st.ust[0, b, C.US_SUPPORTED] == 1
    nu = assault.join_supporters(st, 0, 1, ns, 1) if tb.prm[C.P_SUPPORT_JOIN] != 0 else 1
    assert (nu, st.lock[0, b, h]) == ((2, 1) if reading == "join" else (1, 0))
