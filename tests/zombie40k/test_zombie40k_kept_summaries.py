"""Kept, not recomputed (the speed pass): unit summaries in ``GameState.usum`` and a volley's
weapon choice kept across models that fire alike. Both must leave every game as it was: a kept
value is only ever a value a recount would give.

- The summaries equal a recount after every phase in checked mode (``turn.count_violations``);
  a write that forgets ``units.touch`` is caught there.
- A volley keeps one model's weapon choice for the next model that fires alike
  (``shooting.same_shooter``) while neither unit's models change (``units.version``); games with
  the kept choice equal games that choose afresh for every model.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from conftest import example_config, one_game

import kernels.zombie40k.shooting
import kernels.zombie40k.turn
import kernels.zombie40k.units
import sim.play
from kernels.w40k import columns as L
from kernels.zombie40k import columns as GL
from sim.ruleset import get


def _violations(st, tb) -> int:
    return int(kernels.zombie40k.turn.count_violations(st, 0, tb))


def test_a_rule_written_without_touch_is_caught_in_checked_mode(nojit):
    st, tb, _ = one_game(example_config("two_players"))
    assert not kernels.zombie40k.units.any_has(st, 0, 0, L.MR_FEARLESS)  # now kept, fresh
    assert _violations(st, tb) == 0
    st.mflags[0, 0, 0] |= L.MR_FEARLESS  # a rule written without units.touch
    assert _violations(st, tb) == 1
    kernels.zombie40k.units.touch(st, 0, 0)
    assert kernels.zombie40k.units.any_has(st, 0, 0, L.MR_FEARLESS)
    assert _violations(st, tb) == 0


def test_a_death_written_without_touch_is_caught_in_checked_mode(nojit):
    st, tb, _ = one_game(example_config("two_players"))
    before = kernels.zombie40k.units.alive(st, 0, 0)
    assert kernels.zombie40k.units.majority_stat(st, 0, 0, L.T) > 0  # the majorities kept too
    st.wounds[0, 0, 0] = 0  # a model removed without units.touch
    assert kernels.zombie40k.units.alive(st, 0, 0) == before  # stale, as a forgotten touch leaves it
    assert _violations(st, tb) >= 1
    kernels.zombie40k.units.touch(st, 0, 0)
    assert kernels.zombie40k.units.alive(st, 0, 0) == before - 1


def test_touch_counts_the_versions_of_a_unit(nojit):
    st, tb, _ = one_game(example_config("two_players"))
    v0 = kernels.zombie40k.units.version(st, 0, 1)
    kernels.zombie40k.units.touch(st, 0, 1)
    kernels.zombie40k.units.touch(st, 0, 1)
    assert kernels.zombie40k.units.version(st, 0, 1) == v0 + 2
    assert st.usum[0, 1, GL.SU_FRESH] == 0 and st.usum[0, 1, GL.SU_MAJORITY_FRESH] == 0


def test_the_kept_lock_count_follows_lock_and_unlock_and_a_stray_link_is_caught(nojit):
    """``in_combat`` reads the count of combat links that ``lock`` and ``unlock_all`` keep (the
    speed pass); checked mode compares it with ``st.locked``."""
    st, tb, _ = one_game(example_config("two_players"))
    units = kernels.zombie40k.units
    units.lock(st, 0, 0, 2)
    units.lock(st, 0, 0, 2)  # locked twice with the same unit: one link
    units.lock(st, 0, 1, 2)
    assert [int(st.ustate[0, u, GL.US_LOCKS]) for u in (0, 1, 2)] == [1, 1, 2]
    assert units.in_combat(st, 0, 0) and _violations(st, tb) == 0
    units.unlock_all(st, 0, 2)
    assert not any(units.in_combat(st, 0, u) for u in (0, 1, 2)) and _violations(st, tb) == 0
    st.locked[0, 0, 2] = st.locked[0, 2, 0] = 1  # a link written past units.lock
    assert _violations(st, tb) == 2 and not units.in_combat(st, 0, 0)


def test_kept_summaries_hold_after_every_phase_of_every_mod():
    """Checked mode over whole games of each mod (compiled): no phase ends with a kept summary
    that a recount contradicts (nor any other invariant broken)."""
    rs = get("zombie40k")
    base = example_config("four_players")
    for mod in ("dead_men_walking", "t_virus", "killing_floor", "hardcore"):
        df = sim.play.play(rs.with_mods(base, [mod]), 60, 11, check=True)
        assert df.attrs["violations"] == 0, mod


def test_kept_weapon_choice_gives_the_games_of_a_fresh_choice(nojit, monkeypatch):
    """Games 0-11 of seed 7 under Dead Men Walking (hordes of risen survivors with mixed
    wargear and grenades; a wrong kept choice once changed game 8) are the same when every
    model chooses its weapon afresh."""
    rs = get("zombie40k")
    config = rs.with_mods(example_config("four_players"), ["dead_men_walking"])
    kept = sim.play.play(config, 12, 7)
    monkeypatch.setattr(kernels.zombie40k.shooting, "same_shooter", lambda st, g, u, m, k: False)
    fresh = sim.play.play(config, 12, 7)
    pd.testing.assert_frame_equal(kept, fresh)
    assert np.any(kept["models_lost"] > 0)  # the games fought
