"""Scenario helpers of the Zombie Apocalypse tests: one game's state set up by hand.

Use them under the root conftest's ``dice`` fixture (hand-fed dice; every kernel runs as plain
Python) or ``nojit``-style plain Python: ``table(...)`` gives (config, tables, state, rng) of one
empty game; ``put_unit`` places an army's unit, ``put_horde`` a horde.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

import kernels.apocalypse.hordes as hordes
import kernels.apocalypse.setup as setup
from kernels.apocalypse import columns as C
from sim.rulesets.apocalypse.compile import compile_tables
from sim.rulesets.apocalypse.config import load_config
from sim.rulesets.apocalypse.ruleset import RULESET

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "apocalypse"


RHINO_ARMY = EXAMPLES / "vehicles" / "armies" / "ultramarines_rhino.toml"
RHINO_UNITS = range(4)  # CAPTAIN, TACTICAL, RHINO, DEVASTATORS: the army's units, HQ first


def rhino_config_file(tmp_path: Path) -> Path:
    """A one-player game config of the Ultramarines with their Rhino (the transport tests)."""
    path = tmp_path / "rhino.toml"
    path.write_text(f'ruleset = "apocalypse"\n\n[[players]]\nname = "Ultramarines"\narmy = "{RHINO_ARMY.as_posix()}"\n',
                    encoding="utf-8")
    return path


def rhino_with_squad(st, tb, x: float, y: float) -> tuple[int, int]:
    """The Rhino at (x, y) with the Tactical Squad embarked, as deployment leaves them: (rhino, squad)."""
    import kernels.apocalypse.units as units

    _, tactical, rhino, _ = RHINO_UNITS
    v = put_unit(st, tb, rhino, x, y)
    u = put_unit(st, tb, tactical, x, y)
    st.ust[0, u, C.US_EMBARKED] = v + 1
    units.refresh_radius(st, 0, u, tb)
    return v, u


def told(path: Path, kind: int, a: int, b: int, c: int, x: float, y: float):
    """(names, text): how the trace tells one event of kind ``kind`` (its A, B, C, X, Y) in the game of
    the config at ``path``."""
    from sim.rulesets.apocalypse.trace import Names, describe

    ev = np.zeros(C.N_EV, np.float32)
    ev[[C.EV_KIND, C.EV_A, C.EV_B, C.EV_C, C.EV_X, C.EV_Y]] = kind, a, b, c, x, y
    names = Names(load_config(path))
    return names, describe(names, ev)


def config(name: str = "one_player", **params):
    cfg = load_config(EXAMPLES / "configs" / f"{name}.toml")
    return replace(cfg, **params) if params else cfg


def table(name: str = "one_player", **params):
    """(config, tables, state, rng) of one game with nothing on the table, game turn 1."""
    cfg = config(name, **params)
    tb = compile_tables(cfg)
    st = RULESET.new_state(cfg, tb, 1)
    st.gst[0, C.G_TURN] = 1
    st.res[0, C.R_WINNER] = -1
    return cfg, tb, st, np.zeros(1, np.uint64)


def vehicle_game(path: Path, **params):
    """(tables, state, rng) of one empty game of the config at ``path``, game turn 1, the players'
    turn, no Warlord trait (the vehicle tests)."""
    cfg = load_config(path)
    cfg = replace(cfg, **params) if params else cfg
    tb = compile_tables(cfg)
    st = RULESET.new_state(cfg, tb, 1)
    st.gst[0, C.G_TURN] = 1
    st.gst[0, C.G_ACTIVE] = C.SIDE_PLAYERS
    st.res[0, C.R_WINNER] = -1
    tb.policy[0, C.POL_TRAIT] = C.TRAIT_NONE
    return tb, st, np.zeros(1, np.uint64)


def put_unit(st, tb, t: int, x: float, y: float, slot: int | None = None) -> int:
    """Template unit t (the t-th unit of the armies, HQs first) standing at (x, y)."""
    u = t if slot is None else slot
    setup._copy_template(st, 0, u, t, tb)
    st.upos[0, u] = x, y
    return u


def put_horde(st, tb, x: float, y: float, zombies: int, juggernauts: int = 0) -> int:
    return hordes.new_horde(st, 0, x, y, zombies, juggernauts, tb)


def warlord(st, tb, p: int = 0) -> None:
    import kernels.apocalypse.units as units

    units.locate_warlords(st, 0)
    units.refresh_traits(st, 0, tb)
