"""Zombie Apocalypse behind the seam: the `sim.ruleset.Ruleset` of ``zombie-apocalypse.md`` on the
7th-edition core (``core-7th-edition.md`` §16, ``catalogue.md``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from kernels.apocalypse.state import PER_GAME, new_state
from kernels.apocalypse.turn import play_batch
from sim.ruleset import RulesetDefaults
from sim.rulesets.apocalypse import config as cfg
from sim.rulesets.apocalypse.axes import AXES, EXAMPLES
from sim.rulesets.apocalypse.compile import compile_tables, sizes_of
from sim.rulesets.apocalypse.params import parameters, parse_params
from sim.rulesets.apocalypse.results import REASONS, results_frame

EXAMPLE_CONFIGS = {1: "one_player", 2: "two_players", 3: "three_players", 4: "four_players"}


class Apocalypse(RulesetDefaults):
    """Zombie Apocalypse: a cooperative last stand, Warlords to the extraction zone by turn 7."""

    id = cfg.RULESET_ID
    title = "Zombie Apocalypse"
    description = ("A cooperative Warhammer 40,000 scenario: every player brings a 400-point detachment to a "
                   "corner of a 48\" table; zombies pour from spawn points, from every table edge and from the "
                   "noise of every gun and every long move, merge into hordes that grow stronger by tens, and "
                   "turn the bitten into Brutes. The players win if every living Warlord stands on the central "
                   "extraction zone when game turn 7 ends. The report plays the four-player example.")
    spec = "zombie-apocalypse.md, core-7th-edition.md (§16), catalogue.md"
    win_word = "extract"
    end_reasons = tuple(REASONS.values())
    play_columns = ("models_lost", "zombies_killed", "noise", "brutes")
    per_game = PER_GAME
    play_batch = staticmethod(play_batch)

    # ---------------------------------------------------------------- parameters and configs

    def parameters(self):
        return parameters()

    def config_from_dict(self, data: dict, source: str, base_dir: Path | None):
        return cfg.config_from_dict(data, source, base_dir)

    def parse_params(self, config, params, source: str = "params") -> dict:
        return parse_params(config, dict(params) if isinstance(params, dict) else params, source)

    def with_mods(self, config, mods):
        if mods:
            raise cfg.ConfigError(f"mods {sorted(mods)}: Zombie Apocalypse has no mods (its switches are parameters: "
                                  "foggy, graveyard and the ambiguity options of `shamble params`)")
        return config

    def policy_presets(self) -> dict[str, Any]:
        return dict(cfg.POLICY_PRESETS)

    def policy_from(self, value, where: str):
        return cfg.policy_from(value, where)

    def example_config(self, n_players: int | None = None):
        n = 4 if n_players is None else n_players
        if n not in EXAMPLE_CONFIGS:
            raise cfg.ConfigError(f"{n!r}; allowed: a player count with an example config "
                                  f"({', '.join(map(str, EXAMPLE_CONFIGS))})")
        return cfg.load_config(EXAMPLES / "configs" / f"{EXAMPLE_CONFIGS[n]}.toml")

    # ---------------------------------------------------------------- the game

    def compile(self, config):
        return compile_tables(config)

    def new_state(self, config, tables, n_games: int, trace_events: int = 0):
        s = sizes_of(config, tables)
        return new_state(n_games, s.players, s.units, s.models, s.hordes, s.specials, s.spawners, trace_events)

    def results(self, config, state, first_game: int, dice: np.ndarray):
        return results_frame(config, state, first_game, dice)

    def trace(self, config, events, result, out_dir):
        """The narrative of one game and, with ``out_dir``, its pictures (``trace_draw.write_pictures``:
        ``turn_NN.png`` per game turn, ``game.gif``, ``contact_sheet.png``)."""
        from sim.rulesets.apocalypse.trace import told

        lines = told(config, events, result)
        if out_dir is None:
            return lines, []
        from sim.rulesets.apocalypse.trace_draw import write_pictures  # matplotlib only when pictures are drawn

        return lines, write_pictures(config, events, result, Path(out_dir))

    # ---------------------------------------------------------------- experiments, report, bench, commands

    def config_files(self):
        """What each config file accepts (`sim.config_files`; `shamble config-ref`)."""
        from sim.rulesets.apocalypse.config_files import config_files

        return config_files()

    def axes(self):
        return dict(AXES)

    def report_sections(self, scale: float = 1.0):
        from sim.rulesets.apocalypse.report import report_sections

        return report_sections(scale)

    def bench_configs(self) -> dict[str, Any]:
        """The 4-player default (the issue's figure: at least 300 games/s on one thread), then 1 and 2."""
        return {"four_players": self.example_config(4), "two_players": self.example_config(2),
                "one_player": self.example_config(1)}

    def bench_goals(self) -> dict[str, float]:
        """Games/s on one thread aimed at for the 4-player default."""
        return {"four_players": 300.0}

    def cli(self):
        from sim.rulesets.apocalypse.cli import app

        return app

    def pricing(self):
        """What `shamble rebalance` prices: each army's Troops points per model, or a multiplier of
        its cost; the rate of an army is its Warlord alive at the end (sim.rulesets.apocalypse.pricing)."""
        from sim.rulesets.apocalypse.pricing import PRICING

        return PRICING


RULESET = Apocalypse()
