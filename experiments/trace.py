"""`shamble trace`: one game told turn by turn and drawn, by its ruleset's trace renderer."""

from __future__ import annotations

from pathlib import Path

from sim.play import trace_game
from sim.ruleset import ruleset_of


def trace(config, seed: int, game: int, out_dir: Path | None,
          played: str | None = None) -> tuple[list[str], list[Path]]:
    """The narrative of game ``game`` of stream ``seed`` and, with ``out_dir`` (created), its pictures.
    ``played``: the line naming what was played (``shamble trace`` prints it first), which the
    pictures' headers carry (``result.attrs['played']``)."""
    events, result = trace_game(config, seed, game)
    if played:
        result.attrs["played"] = played
    if out_dir is not None:
        Path(out_dir).mkdir(parents=True, exist_ok=True)
    return ruleset_of(config).trace(config, events, result, None if out_dir is None else Path(out_dir))
