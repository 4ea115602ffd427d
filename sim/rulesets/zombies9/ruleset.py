"""The Zombies!!! ruleset behind the seam (``sim.ruleset.Ruleset``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from kernels.zombies9.state import PER_GAME, Tables, new_state
from kernels.zombies9.turn import play_batch
from sim.ruleset import Parameter, ReportSection, RulesetDefaults
from sim.rulesets.zombies9.compile import compile_tables
from sim.rulesets.zombies9.config import (
    MODS,
    PRESETS,
    Zombies9Config,
    config_from_dict,
    default_config,
    game_fields,
    parse_params,
    policy_fields,
    policy_from,
    with_mods,
    with_params,
)
from sim.rulesets.zombies9.results import END_REASONS, results_frame

# [C] numbers `sensitivity` skips: they cannot move who wins (the first seat is a relabelling, a kid and an
# adult fight alike) or they act only under an option that is off (Butter Fingers' bullets, D13)
INERT = frozenset({"first_player", "kid_first", "butter_bullets_lost"})
DOG_ENABLE = {"mods": ("dogs",)}  # the numbers of an optional rule count only with it on (sensitivity)
KID_ENABLE = {"mods": ("kids",)}
ENABLES = {"dog_kill": DOG_ENABLE, "dog_moves": DOG_ENABLE, "dog_stack": DOG_ENABLE, "dog_damage": DOG_ENABLE,
           "dog_pool": DOG_ENABLE, "dogs_mix": DOG_ENABLE, "kid_first": KID_ENABLE, "kid_placement": KID_ENABLE}


def _parameter(f, prefix: str = "") -> Parameter:
    m = f.metadata
    plausible = m.get("plausible")
    if plausible is None and m["tag"] == "C" and f.name not in INERT:
        if isinstance(f.default, bool):
            plausible = (False, True)
        elif m["choices"]:
            plausible = tuple(m["choices"][:2])
    return Parameter(name=prefix + f.name, default=f.default, tag=m["tag"], spec=m["spec"], help=m["help"],
                     range=m["range"], choices=tuple(m["choices"]), plausible=plausible,
                     enable=ENABLES.get(f.name, {}))


# ---------------------------------------------------------------------------------- the ruleset


class Zombies9Ruleset(RulesetDefaults):
    """Zombies!!! (base game) with Zombies!!! 9: Ashes to Ashes (zombies-ashes-to-ashes.md)."""

    id = "zombies9"
    title = "Zombies!!! with Ashes to Ashes"
    description = ("Twilight Creations' tile-laying board game for 2-6 players: each turn a player lays a map tile, "
                   "fights the zombies on its square (a D6, 4+ kills; bullets buy a roll, hearts re-roll), draws "
                   "event cards, moves and moves zombies against the others; the Helipad or 25 zombies win, and the "
                   "Zombies!!! 9 expansion (its tiles a placeholder set) adds the Crematorium and the Cemeteries. "
                   "The report plays four balanced players, the first player in seat 1.")
    spec = "zombies-ashes-to-ashes.md"
    win_word = "win"
    players_are_people = True  # the report names them bare: "Cat", not "the Cat" (experiments.report.analyse)
    end_reasons = END_REASONS
    play_columns = ("kills", "deaths", "hearts_spent", "bullets_spent", "cards_played", "tiles_laid")
    per_game = PER_GAME
    play_batch = staticmethod(play_batch)

    # parameters and configs
    def parameters(self) -> list[Parameter]:
        return [_parameter(f) for f in game_fields()] + [_parameter(f, "policy_") for f in policy_fields()]

    def config_from_dict(self, data: dict, source: str = "config", base_dir: Path | None = None) -> Zombies9Config:
        return config_from_dict(data, source, base_dir)

    def parse_params(self, config: Zombies9Config, params: Mapping[str, Any], source: str = "params") -> dict:
        return parse_params(config, dict(params), source)

    def with_params(self, config: Zombies9Config, params: Mapping[str, Any], source: str = "params"):
        return with_params(config, dict(params), source)

    def with_mods(self, config: Zombies9Config, mods: Iterable[str]) -> Zombies9Config:
        return with_mods(config, mods)

    def mods(self) -> dict[str, str]:
        return {name: title for name, (_, _, title) in MODS.items()}

    def policy_presets(self) -> dict[str, Any]:
        return dict(PRESETS)

    def policy_help(self) -> dict[str, str]:
        return {f.name: f"{f.metadata['help']} [{f.metadata['spec']}]" for f in policy_fields()}

    def policy_from(self, value: Any, where: str):
        return policy_from(value, where)

    def example_config(self, n_players: int | None = None) -> Zombies9Config:
        return default_config(n_players or 4)

    # the game
    def compile(self, config: Zombies9Config) -> Tables:
        return compile_tables(config)

    def new_state(self, config: Zombies9Config, tables: Tables, n_games: int, trace_events: int = 0):
        return new_state(n_games, tables, trace_events)

    def results(self, config: Zombies9Config, state, first_game: int, dice: np.ndarray) -> pd.DataFrame:
        return results_frame(config, state, first_game, dice)

    def trace(self, config, events, result, out_dir):
        """The game told turn by turn; with ``out_dir`` also its pictures (``trace_draw.write_pictures``:
        ``turn_NN.png`` per round, ``game.gif``, ``contact_sheet.png``; it reads ``trace``, which
        never imports it back)."""
        from sim.rulesets.zombies9.trace import narrative

        lines = narrative(config, events)
        if out_dir is None:
            return lines, []
        from sim.rulesets.zombies9.trace_draw import write_pictures  # matplotlib only when pictures are drawn

        return lines, write_pictures(config, events, result, Path(out_dir))

    # experiments, report, bench, commands
    def config_files(self):
        """What each config file accepts (`sim.config_files`; `shamble config-ref`)."""
        from sim.rulesets.zombies9.config_files import config_files

        return config_files()

    def report_sections(self, scale: float) -> list[ReportSection]:
        from sim.rulesets.zombies9.report import report_sections

        return report_sections(scale)

    def bench_configs(self) -> dict[str, Any]:
        return {"4 players, base game": default_config(4),
                "4 players, Ashes to Ashes mixed": default_config(4, mode="mixed")}

    def bench_goals(self) -> dict[str, float]:
        """Games/s on one thread aimed at for the 4-player base game."""
        return {"4 players, base game": 500.0}

    def cli(self):
        from sim.rulesets.zombies9.cli import app

        return app
