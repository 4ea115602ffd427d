"""The players' play of issue 26 (P3 and the removal order): a move keeps clear of a spawner's aura
when every model it would leave there dies to the aura's wound (§10), and a unit loses its
expendable models first."""

from __future__ import annotations

from dataclasses import replace

import pytest
from apocalypse_helpers import config, put_unit, table

import kernels.apocalypse.movement as movement
import kernels.apocalypse.units as units
from kernels.apocalypse import columns as C

SPAWNERS = ((7.1, 22.0), (16.2, 8.6))  # four_players, stealth, seed 1, game 0 (the review's trace)


def _fenced_corner(per_model: int, template: int = 2, at=(4.8, 6.3)):
    _, tb, st, _ = table(spawn_points=2)
    tb.policy[0, C.POL_AURA_PER_MODEL] = per_model
    u = put_unit(st, tb, template, *at)
    for s, (x, y) in enumerate(SPAWNERS):
        st.spos[0, s] = x, y
        st.sst[0, s, C.SS_ALIVE] = 1
    return tb, st, u


def _in_auras(st, tb, u, x, y):
    n = units.models_alive(st, 0, u)
    return max(units.disc_within(n, x, y, st.urad[0, u], sx, sy, tb.prm[C.P_SPAWNER_R], tb.prm[C.P_AURA_R])
               for sx, sy in SPAWNERS)


def test_a_jump_squad_does_not_end_its_move_in_a_spawner_aura(dice):
    """P3 ("avoids ending ... within 6\" of a spawner"): the Assault Squad (5 models, 1 Wound each)
    12" from the corner could gain 8.8" by ending 1.5" from spawner 1, where all five would die to
    the aura's wounds. It keeps clear; the old flat cost (6") let it in."""
    tb, st, u = _fenced_corner(1)
    x, y = movement.plan_move(st, 0, u, 24.0, 24.0, 12.0, -1, tb)
    assert _in_auras(st, tb, u, x, y) == 0
    tb.policy[0, C.POL_AURA_PER_MODEL] = 0
    x, y = movement.plan_move(st, 0, u, 24.0, 24.0, 12.0, -1, tb)
    assert _in_auras(st, tb, u, x, y) == 5


@pytest.mark.parametrize("gain_needed, enters", [(6.0, True), (30.0, False)])
def test_a_lone_model_pays_the_aura_once(dice, gain_needed, enters):
    """A lone Captain (one model, W3) pays aura_penalty_in once: on the same 12" of travel he ends in
    the aura when that gains more than the cost (8.8" against 6"), not against 30"."""
    tb, st, u = _fenced_corner(1, template=0)
    tb.policy[0, C.POL_AURA_PENALTY] = gain_needed
    x, y = movement.plan_move(st, 0, u, 24.0, 24.0, 12.0, -1, tb)
    assert (_in_auras(st, tb, u, x, y) == 1) == enters


def _devastator_slots(removal: int):
    """(has a missile launcher, role) of each slot of the one-player example's Devastator Squad
    (four Marines, the first bought with a missile launcher, and a Sergeant)."""
    from sim.rulesets.apocalypse.compile import DEFAULT_MELEE, built_armies, compile_tables
    from sim.rulesets.apocalypse.config import Policy

    cfg = config()
    cfg = replace(cfg, players=(replace(cfg.players[0], policy=Policy(removal=removal)),))
    tb = compile_tables(cfg)
    names = sorted({w for a in built_armies(cfg) for u in a for m in u.models for w in m.weapons} | {DEFAULT_MELEE})
    t = 3
    launcher = [any(names[w].startswith("Missile launcher") for w in tb.ut_gear[t, m] if w >= 0) for m in range(5)]
    return launcher, list(tb.ut_info[t, :5, C.MI_ROLE])


def test_casualties_are_taken_from_the_expendable_models_first():
    """Issue 26: a player removes plain troopers first, then the special weapons, the sergeant last
    (the kernels wound the lowest living slot). removal = 0 keeps the order bought: the missile
    launcher first."""
    launcher, roles = _devastator_slots(1)
    assert launcher == [False, False, False, True, False]
    assert roles == [C.ROLE_TROOPER] * 4 + [C.ROLE_CHARACTER]
    launcher, roles = _devastator_slots(0)
    assert launcher == [True, False, False, False, False] and roles[4] == C.ROLE_CHARACTER


def test_the_warlord_can_run_in_late_while_the_army_rushes(dice):
    """Issue 26 roles: ``warlord_plan`` gives the units holding a Warlord a plan of their own. The
    army rushes (plan 0) while the Captain, staged (1), holds in his corner until his departure
    turn; -1 (the default) is the player's plan for every unit."""
    _, tb, st, _ = table()
    tb.policy[0, C.POL_PLAN] = C.PLAN_RUSH
    tb.policy[0, C.POL_ESCORT] = 0
    w = put_unit(st, tb, 0, 5, 5)
    u = put_unit(st, tb, 1, 8, 8)
    units.locate_warlords(st, 0)
    assert movement.unit_goal(st, 0, w, tb) == (False, 24.0, 24.0)
    tb.policy[0, C.POL_WARLORD_PLAN] = C.PLAN_STAGED
    assert movement.unit_goal(st, 0, w, tb)[0]  # holds: turn 1 is before his departure turn
    assert movement.unit_goal(st, 0, u, tb) == (False, 24.0, 24.0)
    st.gst[0, C.G_TURN] = 6
    assert not movement.unit_goal(st, 0, w, tb)[0]
