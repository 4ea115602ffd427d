"""The Zombies!!! ruleset behind the seam (``sim.ruleset.Ruleset``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from kernels.zombies9.state import PER_GAME, Tables, new_state
from kernels.zombies9.turn import play_batch
from sim.ruleset import AxisKind, Parameter, ReportSection, head_of
from sim.rulesets.zombies9.compile import compile_tables
from sim.rulesets.zombies9.config import (
    DEFAULT_NAMES,
    PRESET_HELP,
    PRESETS,
    ConfigError,
    PlayerConfig,
    Zombies9Config,
    config_from_dict,
    default_config,
    game_fields,
    policy_fields,
    policy_from,
    preset_name,
    with_params,
)
from sim.rulesets.zombies9.results import END_REASONS, results_frame

MODS = {  # name -> (field, value, title): the optional rules of the books, switched on
    "kids": ("kid_rule", True, "Zombie kids share a square with an adult (Z9, B6)"),
    "dogs": ("pet_cemetery_dogs", True, "The Pet Cemetery populated with zombie dogs (Z9 + Z4, Part C)"),
    "any_door": ("enter_any_side", True, "Buildings entered from any adjacent road square (B9, D5)"),
    "two_dice": ("two_dice_after_helipad", True, "Movement on two dice once the Helipad is down (B9)"),
    "no_cards": ("event_cards", False, "No event cards at all"),
    "first_edition": ("helipad_position", "bottom", "The Helipad at the bottom of the stack (1st ed., D1)"),
}
DOG_ENABLE = {"pet_cemetery_dogs": (True,), "mode": ("mixed",)}
ENABLES = {"dog_kill": DOG_ENABLE, "dog_moves": DOG_ENABLE, "dog_stack": DOG_ENABLE, "dog_damage": DOG_ENABLE,
           "dog_pool": DOG_ENABLE, "dogs_mix": DOG_ENABLE, "kid_first": {"kid_rule": (True,), "mode": ("mixed",)},
           "kid_placement": {"kid_rule": (True,), "mode": ("mixed",)}}


def _parameter(f, prefix: str = "") -> Parameter:
    m = f.metadata
    plausible = m.get("plausible")
    if plausible is None and m["tag"] == "C":
        if isinstance(f.default, bool):
            plausible = (False, True)
        elif m["choices"]:
            plausible = tuple(m["choices"][:2])
    return Parameter(name=prefix + f.name, default=f.default, tag=m["tag"], spec=m["spec"], help=m["help"],
                     range=m["range"], choices=tuple(m["choices"]), plausible=plausible,
                     enable=ENABLES.get(f.name, {}))


# ---------------------------------------------------------------------------------- axes


def _parse_players(value: Any, base: Any, base_dir: Path | None, player: Any = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 2 <= value <= 6:
        raise ConfigError(f"axes.players = {value!r}; allowed: a player count 2-6")
    return value


def set_players(config: Zombies9Config, n: int, player: Any = None) -> Zombies9Config:
    """``n`` players: the config's own first ones, then more with the first player's policy."""
    kept = list(config.players[:n])
    used = {p.name for p in kept}
    names = [x for x in DEFAULT_NAMES + tuple(f"P{k}" for k in range(1, 7)) if x not in used]
    while len(kept) < n:
        kept.append(PlayerConfig(names.pop(0), config.players[0].policy))
    return replace(config, players=tuple(kept))


def _parse_policy(value: Any, base: Any, base_dir: Path | None, player: Any = None):
    return policy_from(value, f"axes.policy[{player}]")


def _seat(config: Zombies9Config, player: Any) -> int:
    if isinstance(player, int) and not isinstance(player, bool) and 0 <= player < config.n_players:
        return player
    for k, p in enumerate(config.players):
        if p.name == player:
            return k
    raise ConfigError(f"axes.policy: player {player!r}; allowed: "
                      + ", ".join([p.name for p in config.players] + [str(k) for k in range(config.n_players)]))


def set_policy(config: Zombies9Config, policy, player: Any) -> Zombies9Config:
    k = _seat(config, player)
    players = list(config.players)
    players[k] = replace(players[k], policy=policy)
    return replace(config, players=tuple(players))


def _policy_label(value: Any) -> str:
    return value if isinstance(value, str) else preset_name(policy_from(value, "policy"))


AXES = {
    "players": AxisKind("players", _parse_players, set_players, str, help="player count 2-6 (A1)", order=1.0,
                        numeric=True, default_range=(2, 6)),
    "policy": AxisKind("policy", _parse_policy, set_policy, _policy_label, per_player=True, order=2.0,
                       help="a player's policy: a preset (" + ", ".join(PRESETS) + ") or a table"),
}


# ---------------------------------------------------------------------------------- the ruleset


class Zombies9Ruleset:
    """Zombies!!! (base game) with Zombies!!! 9: Ashes to Ashes (zombies-ashes-to-ashes.md)."""

    id = "zombies9"
    title = "Zombies!!! with Ashes to Ashes"
    spec = "rules/zombies-ashes-to-ashes.md"
    win_word = "win"
    end_reasons = END_REASONS
    kernels_package = "kernels.zombies9"
    play_batch = staticmethod(play_batch)

    # parameters and configs
    def parameters(self) -> list[Parameter]:
        return [_parameter(f) for f in game_fields()] + [_parameter(f, "policy_") for f in policy_fields()]

    def config_from_dict(self, data: dict, source: str = "config", base_dir: Path | None = None) -> Zombies9Config:
        return config_from_dict(data, source, base_dir)

    def with_params(self, config: Zombies9Config, params: Mapping[str, Any], source: str = "params"):
        return with_params(config, dict(params), source)

    def with_mods(self, config: Zombies9Config, mods: Iterable[str]) -> Zombies9Config:
        changes = {}
        for m in mods:
            key = str(m).strip().lower().replace("-", "_")
            if key not in MODS:
                raise ConfigError(f"mods: {m!r} is not a zombies9 mod; allowed: {', '.join(MODS)}")
            changes[MODS[key][0]] = MODS[key][1]
        return replace(config, **changes) if changes else config

    def mods(self) -> dict[str, str]:
        return {name: title for name, (_, _, title) in MODS.items()}

    def policy_presets(self) -> dict[str, Any]:
        return dict(PRESETS)

    def policy_help(self) -> dict[str, str]:
        return dict(PRESET_HELP)

    def policy_from(self, value: Any, where: str):
        return policy_from(value, where)

    def example_config(self, n_players: int | None = None) -> Zombies9Config:
        return default_config(n_players or 4)

    # the game
    def compile(self, config: Zombies9Config) -> Tables:
        return compile_tables(config)

    def new_state(self, config: Zombies9Config, tables: Tables, n_games: int, trace_events: int = 0):
        return new_state(n_games, tables, trace_events)

    def head(self, state, count: int):
        return head_of(state, count, PER_GAME)

    def violations(self, state) -> int:
        return int(state.viol.sum())

    def results(self, config: Zombies9Config, state, first_game: int, dice: np.ndarray) -> pd.DataFrame:
        return results_frame(config, state, first_game, dice)

    def events(self, state) -> np.ndarray:
        return state.events[0, : state.n_events[0]] if state.events.shape[0] else state.events.reshape(0, 8)

    def trace(self, config, events, result, out_dir):
        from sim.rulesets.zombies9.trace import trace

        return trace(config, events, result, out_dir)

    # experiments, report, bench, commands
    def axes(self) -> dict[str, AxisKind]:
        return dict(AXES)

    def report_sections(self, scale: float) -> list[ReportSection]:
        from sim.rulesets.zombies9.report import report_sections

        return report_sections(scale)

    def bench_configs(self) -> dict[str, Any]:
        return {"4 players, base game": default_config(4),
                "4 players, Ashes to Ashes mixed": default_config(4, mode="mixed")}

    def cli(self):
        from sim.rulesets.zombies9.commands import app

        return app
