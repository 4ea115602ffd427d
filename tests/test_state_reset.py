"""Every per-game array of Zombie 40,000's GameState is cleared before a game is played in its
slot (turn._reset_game), so no game inherits the one before it in the batch: a field added to the
state without a reset fails here before it fails a batch-size test by chance."""

from __future__ import annotations

import inspect
from pathlib import Path

from kernels.zombie40k import turn
from sim.ruleset import get, load_config

ROOT = Path(__file__).resolve().parents[1]
N = 5  # games in the state: no other dimension of the example's state has this length


def test_every_per_game_field_is_reset():
    rs = get("zombie40k")
    config = load_config(ROOT / "examples" / "configs" / "four_players.toml")
    state = rs.new_state(config, rs.compile(config), N)
    arrays = {f: getattr(state, f) for f in state._fields if f != "events"}  # events: the trace's buffer
    per_game = [f for f, a in arrays.items() if a.ndim and a.shape[0] == N]
    assert {"pos", "wounds", "res", "n_events"} <= set(per_game)
    source = inspect.getsource(getattr(turn._reset_game, "py_func", turn._reset_game))
    assert [f for f in per_game if f"st.{f}[g]" not in source] == []
