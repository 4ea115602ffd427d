"""Flat Out (issue 32; docs/apocalypse.md "Dedicated Transports in play", V11 [C]): in the Shooting
phase a Dedicated Transport that does not fire may move up to ``flat_out_in`` more inches towards where
it drives (policy ``flat_out``); its passengers may not fire that turn; the move counts towards the
turn's moved distance, so §9.3's noise (rolled after the Shooting phase) sees the whole turn.
Hand-fed dice (the ``dice`` fixture): every kernel runs as plain Python."""

from __future__ import annotations

import math

import pytest
from apocalypse_helpers import RHINO_UNITS, rhino_config_file, rhino_with_squad, told, vehicle_game

import kernels.apocalypse.shooting as shooting
import kernels.apocalypse.turn as turn
import kernels.apocalypse.zombies as zombies
from kernels.apocalypse import columns as C
from sim.rulesets.apocalypse.config import ConfigError, Policy, load_config

CAPTAIN, TACTICAL, RHINO, DEVASTATORS = RHINO_UNITS


@pytest.fixture
def rhino_config(tmp_path):
    return rhino_config_file(tmp_path)


def _rushing(tb, mode):
    tb.policy[0, C.POL_PLAN] = C.PLAN_RUSH
    tb.policy[0, C.POL_ESCORT] = 0
    tb.policy[0, C.POL_SHOOT] = 0  # nobody fires (stealth's choice): the transport may go Flat Out
    tb.policy[0, C.POL_FLAT_OUT] = mode


def test_the_flat_out_policy_and_distance_compile_and_refuse_bad_values(rhino_config):
    tb, _, _ = vehicle_game(rhino_config)
    cfg = load_config(rhino_config)
    assert tb.policy[0, C.POL_FLAT_OUT] == cfg.players[0].policy.flat_out
    assert tb.prm[C.P_FLAT_OUT] == cfg.flat_out_in
    assert vehicle_game(rhino_config, flat_out_in=9.0)[0].prm[C.P_FLAT_OUT] == 9.0
    with pytest.raises(ConfigError, match="flat_out = 3; allowed: an integer 0-2"):
        Policy(flat_out=3)


def test_a_transport_that_does_not_fire_moves_flat_out_with_its_squad(dice, rhino_config):
    """flat_out 2: the Rhino, having moved 12" in the Movement phase, moves flat_out_in more towards
    the zone in the Shooting phase; its squad stays aboard where it is; the turn's move is 18"."""
    tb, st, rng = vehicle_game(rhino_config)
    _rushing(tb, 2)
    c = 0.5 * tb.prm[C.P_TABLE]
    far = c - tb.prm[C.P_ZONE_R] - 30.0
    v, u = rhino_with_squad(st, tb, far, c)
    dice.script(*([3] * 40))
    turn.movement_phase(rng, 0, st, tb)
    assert st.umoved[0, v] == pytest.approx(12.0)
    shooting.shooting_phase(rng, 0, st, tb)
    step = tb.prm[C.P_FLAT_OUT]
    assert math.hypot(st.upos[0, v, 0] - far, st.upos[0, v, 1] - c) == pytest.approx(12.0 + step)
    assert st.umoved[0, v] == pytest.approx(12.0 + step) and st.ust[0, v, C.US_RAN] == 1
    assert st.ust[0, u, C.US_EMBARKED] == v + 1 and tuple(st.upos[0, u]) == tuple(st.upos[0, v])


def test_never_flat_out_with_policy_0_or_when_immobilised_or_it_fires(nojit, rhino_config):
    """The decision as plain Python (``nojit``: the same code and results, and no compiled twin of
    ``flat_out_decision`` called from Python with the tuples, a minute or more on a cold cache)."""
    tb, st, _ = vehicle_game(rhino_config)
    _rushing(tb, 2)
    c = 0.5 * tb.prm[C.P_TABLE]
    v, _u = rhino_with_squad(st, tb, c - tb.prm[C.P_ZONE_R] - 30.0, c)
    assert shooting.flat_out_decision(st, 0, v, tb)
    tb.policy[0, C.POL_FLAT_OUT] = 0
    assert not shooting.flat_out_decision(st, 0, v, tb)
    tb.policy[0, C.POL_FLAT_OUT] = 2
    st.minfo[0, v, 0, C.MI_VSTATUS] |= C.VST_IMMOBILISED
    assert not shooting.flat_out_decision(st, 0, v, tb)
    st.minfo[0, v, 0, C.MI_VSTATUS] = 0
    tb.policy[0, C.POL_SHOOT] = 2  # it fires at a horde in range instead
    zombies.new_horde(st, 0, st.upos[0, v, 0] + st.urad[0, v] + 10.0, c, 12, 0, tb)
    assert not shooting.flat_out_decision(st, 0, v, tb)


def test_policy_1_goes_flat_out_only_behind_schedule(nojit, rhino_config):
    """flat_out 1 (P4's Run as the model): the zone farther than the transport's 12" moves to come
    (as plain Python, as the test above)."""
    tb, st, _ = vehicle_game(rhino_config)
    _rushing(tb, 1)
    c = 0.5 * tb.prm[C.P_TABLE]
    v, _u = rhino_with_squad(st, tb, c - tb.prm[C.P_ZONE_R] - 30.0, c)  # 30" from the zone
    turns = int(tb.prm[C.P_TURNS])
    st.gst[0, C.G_TURN] = turns - 2  # two moves to come: 24" < 30"
    assert shooting.flat_out_decision(st, 0, v, tb)
    st.gst[0, C.G_TURN] = turns - 3  # three: 36" >= 30"
    assert not shooting.flat_out_decision(st, 0, v, tb)


def test_passengers_of_a_transport_flat_out_do_not_fire(dice, monkeypatch, rhino_config):
    """§8 lets them fire from the hull; not when the Rhino moved Flat Out (V11)."""
    tb, st, rng = vehicle_game(rhino_config)
    c = 0.5 * tb.prm[C.P_TABLE]
    v, u = rhino_with_squad(st, tb, 20, c)
    tb.policy[0, C.POL_SHOOT] = 2
    zombies.new_horde(st, 0, 20 + st.urad[0, v] + 20.0, c, 12, 0, tb)
    fired = []
    monkeypatch.setattr(shooting, "fire_unit", lambda rng, g, st, u, h, ow, tb, ph: fired.append(u) or (0, 0))
    monkeypatch.setattr(shooting, "flat_out_decision", lambda st, g, w, tb: False)
    dice.script(*([3] * 40))
    shooting.shooting_phase(rng, 0, st, tb)
    assert u in fired and v in fired
    fired.clear()
    monkeypatch.setattr(shooting, "flat_out_decision", lambda st, g, w, tb: w == v)
    shooting.shooting_phase(rng, 0, st, tb)
    assert st.ust[0, v, C.US_RAN] == 1 and fired == []


def test_the_noise_counts_the_flat_out_move(dice, rhino_config):
    """§9.3: 12" in the Movement phase makes 2D3 + 3 (over 6"); Flat Out takes the turn past 12" and the
    noise rolled after the Shooting phase adds D3 + 2."""
    tb, st, rng = vehicle_game(rhino_config)
    _rushing(tb, 2)
    c = 0.5 * tb.prm[C.P_TABLE]
    v, _u = rhino_with_squad(st, tb, c - tb.prm[C.P_ZONE_R] - 30.0, c)
    dice.script(*([3] * 40))
    turn.movement_phase(rng, 0, st, tb)
    assert st.ust[0, v, C.US_NOISE6] == 1 and st.ust[0, v, C.US_NOISE12] == 0
    before = int(st.pres[0, 0, C.PR_NOISE])
    shooting.shooting_phase(rng, 0, st, tb)
    turn.movement_noise_all(rng, 0, st, tb)
    assert st.ust[0, v, C.US_NOISE12] == 1
    added = int(st.pres[0, 0, C.PR_NOISE]) - before
    assert 3 <= added <= 5  # D3 + 2, and no second 2D3 + 3


def test_the_trace_tells_a_flat_out_move(rhino_config):
    names, text = told(rhino_config, C.EK_FLAT_OUT, RHINO, TACTICAL, 18, 30.0, 36.0)
    assert text == (f"{names.unit(RHINO)} moves Flat Out to (30.0, 36.0), 18\" this turn; "
                    f"{names.unit(TACTICAL)} aboard does not fire")


@pytest.mark.slow
def test_transports_flat_out_in_whole_games_without_breaking_an_invariant(rhino_config):
    """Compiled kernels, check mode, every transport going Flat Out whenever it does not fire."""
    from dataclasses import replace

    from sim.play import play

    cfg = load_config(rhino_config)
    cfg = replace(cfg, players=tuple(replace(p, policy=replace(p.policy, flat_out=2)) for p in cfg.players))
    df = play(cfg, 120, seed=4, batch_size=60, check=True)
    assert df.attrs["violations"] == 0 and len(df) == 120
