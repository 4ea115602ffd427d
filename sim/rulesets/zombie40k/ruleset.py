"""Zombie 40,000 behind the seam: the `sim.ruleset.Ruleset` of ``zombie40k.md`` on the 7th-edition
core (``core-7th-edition.md``, ``catalogue.md``)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from kernels.zombie40k.state import PER_GAME, new_state
from kernels.zombie40k.turn import play_batch
from sim.ruleset import RulesetDefaults
from sim.rulesets.zombie40k import config as cfg
from sim.rulesets.zombie40k.axes import AXES, EXAMPLES
from sim.rulesets.zombie40k.compile import compile_tables, n_units
from sim.rulesets.zombie40k.mods import MOD_LIST
from sim.rulesets.zombie40k.params import parameters
from sim.rulesets.zombie40k.results import REASONS, results_frame
from sim.rulesets.zombie40k.trace import narrative, result_line

EXAMPLE_CONFIGS = {2: "two_players", 4: "four_players", 6: "six_players"}


class Zombie40k(RulesetDefaults):
    """Zombie 40,000: a free-for-all race to the Escape Vehicle through respawning hordes."""

    id = cfg.RULESET
    title = "Zombie 40,000"
    description = ("A free-for-all race to the Escape Vehicle through respawning zombie hordes, on the Warhammer "
                   "40,000 7th-edition rules: each player's squad escapes or dies trying. The report plays the "
                   "four-player game: the standard game rotates every example team through the seats; the other "
                   "sections play the four-player example (Boyz advancing, Tau hunting, Genestealers dashing, "
                   "Dark Eldar backstabbing) unless they say otherwise.")
    spec = "zombie40k.md, core-7th-edition.md, catalogue.md"
    win_word = "escape"
    end_reasons = tuple(REASONS.values())
    play_columns = ("wipes", "hordes_killed")
    per_game = PER_GAME
    play_batch = staticmethod(play_batch)

    # ---------------------------------------------------------------- parameters and configs

    def parameters(self):
        return parameters()

    def config_from_dict(self, data: dict, source: str, base_dir: Path | None):
        return cfg.config_from_dict(data, source, base_dir)

    def parse_params(self, config, params, source: str = "params") -> dict:
        return cfg.parse_params(config, dict(params), source)

    def with_mods(self, config, mods):
        return cfg.with_mods(config, mods)

    def mods(self) -> dict[str, str]:
        return {m.key: m.title for m in MOD_LIST}

    def policy_presets(self) -> dict[str, Any]:
        return dict(cfg.POLICY_PRESETS)

    def policy_from(self, value, where: str):
        return cfg.policy_from(value, where)

    def example_config(self, n_players: int | None = None):
        n = 2 if n_players is None else n_players
        if n not in EXAMPLE_CONFIGS:
            raise cfg.ConfigError(f"{n!r}; allowed: a player count with an example config "
                                  f"({', '.join(map(str, EXAMPLE_CONFIGS))})")
        return cfg.load_config(EXAMPLES / "configs" / f"{EXAMPLE_CONFIGS[n]}.toml")

    # ---------------------------------------------------------------- the game

    def compile(self, config):
        return compile_tables(config)

    def new_state(self, config, tables, n_games: int, trace_events: int = 0):
        return new_state(n_games, config.n_players, n_units(config), tables.squad_wounds.shape[1], trace_events)

    def results(self, config, state, first_game: int, dice: np.ndarray):
        return results_frame(config, state, first_game, dice)

    def trace(self, config, events, result, out_dir):
        """The narrative of one game and, with ``out_dir``, its pictures (``trace_draw.write_pictures``:
        a PNG of the table per game turn, ``game.gif`` and ``contact_sheet.png``)."""
        lines = [*narrative(config, events), result_line(result)]
        if out_dir is None:
            return lines, []
        from sim.rulesets.zombie40k.trace_draw import write_pictures  # matplotlib only when pictures are drawn

        return lines, write_pictures(config, events, Path(out_dir), outcome=lines[-1].strip("= "),
                                     header=result.attrs.get("played", ""))  # set by `shamble trace`

    # ---------------------------------------------------------------- experiments, report, bench, commands

    def config_files(self):
        """What each config file accepts (`sim.config_files`; `shamble config-ref`)."""
        from sim.rulesets.zombie40k.config_files import config_files

        return config_files()

    def axes(self):
        return dict(AXES)

    def report_sections(self, scale: float = 1.0):
        from sim.rulesets.zombie40k.report import report_sections

        return report_sections(scale)

    def bench_configs(self) -> dict[str, Any]:
        """The 2-, 4- and 6-player examples under the base game, T-Virus and Four Weeks Later; the
        4-player base game first (the headline figures of ``shamble bench``)."""
        configs = {}
        for n in (4, 2, 6):
            base = self.example_config(n)
            for mods in ((), ("t_virus",), ("four_weeks_later",)):
                configs[f"{EXAMPLE_CONFIGS[n]}_{'+'.join(mods) or 'base'}"] = replace(base, mods=frozenset(mods))
        return configs

    def bench_goals(self) -> dict[str, float]:
        """Games/s on one thread aimed at (the second speed pass: five times the first's)."""
        return {"four_players_base": 3_500.0, "two_players_base": 8_000.0}

    def cli(self):
        from sim.rulesets.zombie40k.cli import app

        return app

    def pricing(self):
        """Points per model of each team's main unit, or a cost multiplier per team (pricing.py)."""
        from sim.rulesets.zombie40k.pricing import PRICING

        return PRICING


RULESET = Zombie40k()
