"""The example config with a Rhino (issue 32 part 2, step 2 item 4): it plays in check mode without
an invariant violation, and its trace draws the transport with "(N aboard)" while its squad rides."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kernels.apocalypse import columns as C
from sim.rulesets.apocalypse.config import load_config
from sim.rulesets.apocalypse.trace import Names
from sim.rulesets.apocalypse.trace_draw import scenes, unit_label

RHINO_CONFIG = Path(__file__).resolve().parents[2] / "examples" / "apocalypse" / "vehicles" / "rhino.toml"
CAPTAIN, TACTICAL, RHINO, DEVASTATORS = range(4)


def _event(turn, kind, a, b, c, x, y):
    ev = np.zeros(C.N_EV, np.float32)
    ev[[C.EV_TURN, C.EV_PHASE, C.EV_KIND, C.EV_A, C.EV_B, C.EV_C, C.EV_X, C.EV_Y]] = (turn, C.PH_END, kind, a, b, c,
                                                                                      x, y)
    return ev


def test_the_trace_draws_a_transport_with_its_passengers_aboard():
    cfg = load_config(RHINO_CONFIG)
    names = Names(cfg)
    events = np.array([
        _event(0, C.EK_UNIT, RHINO, 0, 1, 10.0, 10.0),
        _event(1, C.EK_ABOARD, RHINO, 10, TACTICAL, 20.0, 20.0),
        _event(1, C.EK_SNAP_UNIT, RHINO, 1, 0, 20.0, 20.0),
        _event(2, C.EK_DISEMBARK, TACTICAL, RHINO, 9, 22.0, 20.0),
        _event(2, C.EK_SNAP_UNIT, RHINO, 1, 0, 20.0, 20.0),
        _event(2, C.EK_SNAP_UNIT, TACTICAL, 9, 0, 22.0, 20.0),
    ])
    first, second = scenes(cfg, events, names)
    (rhino,) = first.units
    assert unit_label(names, rhino) == "Rhino 3/3 HP (10 aboard)"
    labels = {unit_label(names, m) for m in second.units}
    assert labels == {"Rhino 3/3 HP", "Tactical Marine (9)"}
    from sim.rulesets.apocalypse.trace_draw import Board

    legend = [h.get_label() for h in Board(cfg, events, names, "", 2).legend(first)]
    assert "a vehicle (Hull Points left; models aboard)" in legend and "unit lost (vehicle wrecked) this turn" in legend


@pytest.mark.slow
def test_the_rhino_example_plays_in_check_mode_and_its_trace_tells_who_rides():
    from sim.play import play
    from sim.rulesets.apocalypse.trace import narrative

    cfg = load_config(RHINO_CONFIG)
    df = play(cfg, 200, seed=1, check=True)
    assert df.attrs["violations"] == 0 and {"transports_wrecked_by_horde", "passengers_lost"} <= set(df.columns)
    from sim.play import trace_game

    events, _ = trace_game(cfg, 1, 0)
    kinds = events[:, C.EV_KIND]
    assert (kinds == C.EK_ABOARD).any()
    assert any("gets out of" in line for line in narrative(Names(cfg), events)) == (kinds == C.EK_DISEMBARK).any()
