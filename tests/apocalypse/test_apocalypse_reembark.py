"""Re-embarking (issue 32; docs/apocalypse.md "Dedicated Transports in play", V11 [C]): at the end of the
Movement phase's moves, a squad out of its transport embarks again when the transport lives, may move
and carries nobody, every model is within ``embark_within`` of the hull, the squad is off the zone, and
policy ``reembark`` N > 0 sees a horde of at least N models within ``threat_in``. Hand-fed: every kernel
runs as plain Python."""

from __future__ import annotations

import pytest
from apocalypse_helpers import RHINO_UNITS, put_unit, rhino_config_file, told, vehicle_game

import kernels.apocalypse.turn as turn
import kernels.apocalypse.units as units
import kernels.apocalypse.zombies as zombies
from kernels.apocalypse import columns as C
from sim.rulesets.apocalypse.config import ConfigError, Policy, load_config

CAPTAIN, TACTICAL, RHINO, DEVASTATORS = RHINO_UNITS


@pytest.fixture
def rhino_config(tmp_path):
    return rhino_config_file(tmp_path)


def _out_beside(st, tb, gap):
    """The Rhino at (10, 10), its squad out beside it, ``gap`` inches edge to edge."""
    v = put_unit(st, tb, RHINO, 10, 10)
    u = put_unit(st, tb, TACTICAL, 10, 10)
    units.refresh_radius(st, 0, u, tb)
    st.upos[0, u, 0] = 10 + st.urad[0, v] + st.urad[0, u] + gap
    return v, u


def test_the_reembark_policy_and_reach_compile_and_refuse_bad_values(rhino_config):
    tb, _, _ = vehicle_game(rhino_config)
    cfg = load_config(rhino_config)
    assert tb.policy[0, C.POL_REEMBARK] == cfg.players[0].policy.reembark
    assert tb.prm[C.P_EMBARK_WITHIN] == cfg.embark_within
    with pytest.raises(ConfigError, match="reembark = -1; allowed: an integer 0-500"):
        Policy(reembark=-1)


def test_a_squad_near_its_transport_embarks_when_a_horde_comes(nojit, rhino_config):
    """As plain Python (``nojit``: the same code and results, and no compiled twins of ``reembarks``
    and ``transports_moved`` called from Python with the tuples, a minute or more on a cold cache)."""
    tb, st, _ = vehicle_game(rhino_config)
    tb.policy[0, C.POL_REEMBARK] = 10
    v, u = _out_beside(st, tb, 0.0)  # ten marines' disc is wider than 2": edge to edge
    h = zombies.new_horde(st, 0, 10 - st.urad[0, v] - 10.0, 10, 12, 0, tb)
    assert turn.reembarks(st, 0, v, tb) == u
    turn.transports_moved(st, 0, tb)
    assert st.ust[0, u, C.US_EMBARKED] == v + 1 and not units.unit_alive(st, 0, u)
    assert tuple(st.upos[0, u]) == tuple(st.upos[0, v]) and st.urad[0, u] == st.urad[0, v]
    assert zombies.closest_unit(st, 0, h) == v


def test_no_reembark_too_far_too_few_zombies_policy_0_or_just_out(nojit, rhino_config):
    tb, st, _ = vehicle_game(rhino_config)
    tb.policy[0, C.POL_REEMBARK] = 10
    v, u = _out_beside(st, tb, 0.5)  # half an inch off the hull: beyond embark_within for a 5.7" disc
    zombies.new_horde(st, 0, 10 - st.urad[0, v] - 10.0, 10, 12, 0, tb)
    assert turn.reembarks(st, 0, v, tb) == -1
    st.upos[0, u, 0] -= 0.5
    assert turn.reembarks(st, 0, v, tb) == u
    tb.policy[0, C.POL_REEMBARK] = 13  # the horde has 12
    assert turn.reembarks(st, 0, v, tb) == -1
    tb.policy[0, C.POL_REEMBARK] = 0
    assert turn.reembarks(st, 0, v, tb) == -1
    tb.policy[0, C.POL_REEMBARK] = 10
    st.ust[0, u, C.US_DISEMBARKED] = 1
    assert turn.reembarks(st, 0, v, tb) == -1


def test_the_trace_tells_an_embarkation(rhino_config):
    names, text = told(rhino_config, C.EK_EMBARK, TACTICAL, RHINO, 9, 12.0, 13.5)
    assert text == f"{names.unit(TACTICAL)} (9 models) embarks on {names.unit(RHINO)} at (12.0, 13.5)"


@pytest.mark.slow
def test_squads_reembark_in_whole_games_without_breaking_an_invariant(rhino_config):
    """Compiled kernels, check mode, reembark at any horde (1) and getting out 12" from the goal."""
    from dataclasses import replace

    from sim.play import play

    cfg = load_config(rhino_config)
    cfg = replace(cfg, players=tuple(replace(p, policy=replace(p.policy, reembark=1, disembark_in=12.0))
                                     for p in cfg.players))
    df = play(cfg, 120, seed=4, batch_size=60, check=True)
    assert df.attrs["violations"] == 0 and len(df) == 120
