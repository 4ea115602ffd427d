"""The Zombies Out West ruleset behind the seam of sim.ruleset (every member of the protocol)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from kernels.outwest.state import PER_GAME, GameState, Tables
from kernels.outwest.state import new_state as allocate
from kernels.outwest.turn import play_batch
from sim.ruleset import AxisKind, Parameter, ReportSection, RulesetDefaults
from sim.rulesets.outwest import config as C
from sim.rulesets.outwest import report, results, trace
from sim.rulesets.outwest.compile import compile_tables, n_figures

PLAGUE_ONLY = ("plague_test", "plague_wake_on", "plague_die_on", "bite_death_rises")
GUNSLINGERS_ONLY = ("start_gunslingers",)


def parameter_records() -> list[Parameter]:
    """Every parameter of `OutwestConfig` as `shamble params` lists it."""
    out = []
    for name, f in C.PARAM_FIELDS.items():
        m = f.metadata
        enable = {"mods": ("zombie_plague",)} if name in PLAGUE_ONLY else \
            {"mods": ("zombie_gunslingers",)} if name in GUNSLINGERS_ONLY else {}
        out.append(Parameter(name=name, default=f.default, tag=m["tag"], spec=m["spec"], help=m["help"],
                             range=m["range"], choices=tuple(m["choices"]), plausible=m["plausible"], enable=enable,
                             meaning=dict(m["meaning"])))
    return out


class OutwestRuleset(RulesetDefaults):
    """Zombies Out West (Lone Warrior #126) on The Rules With No Name."""

    id = C.RULESET_ID
    title = "Zombies Out West"
    description = ("A Wild West skirmish on The Rules With No Name: a posse of Citizens, Gunmen, Shootists and "
                   "Legends against groups of zombies that move D6\" (sixes roll on), fight by opposed dice "
                   "counting sixes and bite; the bitten may lapse, die and rise. Figures act as their cards come "
                   "up from the Fate deck. The report plays Hold the town: the default posse (Legend, Shootist, "
                   "two Gunmen, Citizen) against four groups of five for ten turns; a character 'survives' when "
                   "he is alive, conscious and human at the end of a won game.")
    spec = "zombies-out-west.md"
    win_word = "survive"
    end_reasons = results.END_REASONS
    play_columns = ("survived", "zombies_destroyed", "shots", "bites")
    per_game = PER_GAME
    play_batch = staticmethod(play_batch)

    # parameters and configs
    def parameters(self) -> list[Parameter]:
        return parameter_records()

    def config_from_dict(self, data: dict, source: str = "config", base_dir: Path | None = None) -> C.OutwestConfig:
        return C.config_from_dict(data, source, base_dir)

    def parse_params(self, config: C.OutwestConfig, params: Mapping[str, Any], source: str = "params") -> dict:
        return C.parse_params(config, dict(params), source)

    def with_mods(self, config: C.OutwestConfig, mods: Iterable[str]) -> C.OutwestConfig:
        return C.with_mods(config, list(mods))

    def mods(self) -> dict[str, str]:
        return dict(C.MODS)

    def policy_presets(self) -> dict[str, C.Policy]:
        return dict(C.POLICY_PRESETS)

    def policy_from(self, value: Any, where: str) -> C.Policy:
        return C.policy_from(value, where)

    def policy_help(self) -> dict[str, str]:
        return dict(C.POLICY_HELP)

    def example_config(self, n_players: int | None = None) -> C.OutwestConfig:
        """The default scenario (Hold the town, the default posse); ``n_players`` humans instead."""
        config = C.OutwestConfig()
        if n_players is None:
            return config
        players = C.posse_of_size(n_players)
        return replace(config, players=players, escape_needed=min(config.escape_needed, len(players)))

    # the game
    def compile(self, config: C.OutwestConfig) -> Tables:
        return compile_tables(config)

    def new_state(self, config: C.OutwestConfig, tables: Tables, n_games: int, trace_events: int = 0) -> GameState:
        return allocate(n_games, config.n_humans, len(config.groups), n_figures(config), trace_events)

    def results(self, config: C.OutwestConfig, state: GameState | None, first_game: int,
                dice: np.ndarray) -> pd.DataFrame:
        return results.results_frame(config, state, first_game, dice)

    def trace(self, config: C.OutwestConfig, events: np.ndarray, result: pd.DataFrame,
              out_dir: Path | None) -> tuple[list[str], list[Path]]:
        """The game told card by card, each character's tally last, and, with ``out_dir``, its
        pictures (``trace_draw.write_pictures``: ``turn_NN.png`` per turn, ``game.gif``,
        ``contact_sheet.png``; it reads ``trace``, which never imports it back)."""
        tally = trace.tally(result)
        lines = trace.trace_lines(config, events) + tally
        if out_dir is None:
            return lines, []
        from sim.rulesets.outwest.trace_draw import write_pictures  # matplotlib only when pictures are drawn

        last = [*trace.ending(config, events), *(t.strip() for t in tally)]
        return lines, write_pictures(config, events, result, Path(out_dir), last)

    # experiments, report, bench, commands
    def config_files(self):
        """What each config file accepts (`sim.config_files`; `shamble config-ref`)."""
        from sim.rulesets.outwest.config_files import config_files

        return config_files()

    def axes(self) -> dict[str, AxisKind]:
        return report.axis_kinds()

    def report_sections(self, scale: float) -> list[ReportSection]:
        return report.report_sections(scale)

    def bench_configs(self) -> dict[str, C.OutwestConfig]:
        return report.bench_configs()

    def bench_goals(self) -> dict[str, float]:
        """Games/s on one thread aimed at for the default scenario."""
        return {"hold_the_town": 1_000.0}

    def cli(self):
        from sim.rulesets.outwest.cli import app

        return app
