"""Zombie Apocalypse's own experiment axes (`sim.ruleset.AxisKind`)::

    points = [200, 400, 600]                # points level: every army refitted (armies.fit_army)
    trait = ["none", "tenacity"]            # every Warlord's trait (§7); "auto" is P8's choice
    points_players = ["400x1", "800x4"]     # a points level and the base config's first n players at once
    lineup = [["goffs", "cadians"], ["cadians", "goffs"]]   # which armies sit in which seats (refitted)
    [axes.warlord_trait]                    # per player (name or 0-based index)
    Ultramarines = ["tenacity", "legendary_fighter"]
    [axes.army]                             # per player: army files or example army names
    Goffs = ["goffs", "ulthwe"]

(The shared axes - ``players``, ``policy`` and every parameter such as ``foggy = [true, false]`` -
are the experiment layer's.)
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from sim.ruleset import AxisKind
from sim.rulesets.apocalypse.armies import Army, ArmyError, fit_army, load_army
from sim.rulesets.apocalypse.config import ApocalypseConfig, ConfigError, catalogue_of, cost_factor, trait_key

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "apocalypse"


def load_army_ref(value: Any, base_dir: Path) -> Army:
    """An army from a file path (relative to ``base_dir``) or an example army's name."""
    if not isinstance(value, str) or not value:
        raise ConfigError(f"{value!r}; allowed: an army file or an example army name")
    path = base_dir / value if value.endswith(".toml") else EXAMPLES / "armies" / f"{value}.toml"
    if not path.exists():
        names = sorted(p.stem for p in (EXAMPLES / "armies").glob("*.toml"))
        raise ConfigError(f"no army {value!r}; allowed: {', '.join(names)} or a .toml path")
    try:
        return load_army(path)
    except ArmyError as err:
        raise ConfigError(str(err)) from None


def with_players(config: ApocalypseConfig, players) -> ApocalypseConfig:
    """The config with these players; the cost factors of armies none of them fields are dropped
    (they price nothing here, and ``army_cost_factors`` names only fielded armies)."""
    fielded = {p.army.name for p in players}
    factors = tuple((k, v) for k, v in config.army_cost_factors if k in fielded)
    return replace(config, players=tuple(players), army_cost_factors=factors)


def with_player(config: ApocalypseConfig, p: int, **change) -> ApocalypseConfig:
    players = list(config.players)
    players[p] = replace(players[p], **change)
    return with_players(config, players)


def fitted(config: ApocalypseConfig, army: Army, points: int) -> Army:
    """``army`` refitted to ``points`` at the config's prices (§2: its ``unit_costs``, the points / the
    army's ``army_cost_factors``)."""
    try:
        return fit_army(army, Fraction(points) / cost_factor(config, army.name), catalogue_of(config))
    except ArmyError as err:
        raise ConfigError(str(err)) from None


def with_points(config: ApocalypseConfig, points: int) -> ApocalypseConfig:
    """Every army refitted to ``points`` at the config's prices and the points limit set to it (§2)."""
    players = tuple(replace(p, army=fitted(config, p.army, points)) for p in config.players)
    return replace(config, players=players, points_limit=int(points))


def with_trait(config: ApocalypseConfig, trait: str) -> ApocalypseConfig:
    return replace(config, players=tuple(replace(p, trait=trait) for p in config.players))


def _points(value: Any, *_) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 50 <= value <= 5000:
        raise ConfigError(f"{value!r}; allowed: a points level, an integer 50-5000")
    return value


def _trait(value: Any, *_) -> str:
    return trait_key(value, "trait")


def _stem(value: Any) -> str:
    return Path(value).stem if isinstance(value, str) else str(value)


AXES = {
    "points": AxisKind("points", _points, lambda c, v, p: with_points(c, v), str,
                       "points level: every army refitted (units grow or shrink, copies join)", order=3,
                       numeric=True, default_range=(150, 1500), aliases=("points_limit",)),
    "trait": AxisKind("trait", _trait, lambda c, v, p: with_trait(c, v), str,
                      "every Warlord's trait (§7): none, auto or a trait name", order=2),
    "warlord_trait": AxisKind("warlord_trait", _trait, lambda c, v, p: with_player(c, p, trait=v), str,
                              "one player's Warlord trait", per_player=True, order=2),
    "army": AxisKind("army", lambda v, base, base_dir, p: load_army_ref(v, base_dir),
                     lambda c, army, p: with_player(c, p, army=army), _stem,
                     "army files or example army names, per player", per_player=True, order=1),
}


def with_policy(config: ApocalypseConfig, policy) -> ApocalypseConfig:
    return replace(config, players=tuple(replace(p, policy=policy) for p in config.players))


def _policy_all(value: Any, base, base_dir, p):
    from sim.rulesets.apocalypse.config import policy_from

    return policy_from(value, "policy_all")


AXES["policy_all"] = AxisKind("policy_all", _policy_all, lambda c, v, p: with_policy(c, v),
                              lambda v: v if isinstance(v, str) else "table",
                              "every player's policy: a preset name or a table", order=2)


def _count(value: Any, base, base_dir, p) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= len(base.players):
        raise ConfigError(f"{value!r}; allowed: a player count 1-{len(base.players)} (the base config's players)")
    return value


AXES["player_count"] = AxisKind("player_count", _count, lambda c, n, p: with_players(c, c.players[:n]), str,
                                "the base config's first n players (the same armies and policies)", order=0.5,
                                numeric=True, default_range=(1, 4))


def _points_players_value(value: Any) -> tuple[int, int]:
    """ "800x2" (or [800, 2]) as (points, players)."""
    parts = value.lower().split("x") if isinstance(value, str) else value
    try:
        points, n = (int(str(v).strip()) for v in parts)
    except (TypeError, ValueError):
        raise ConfigError(f"{value!r}; allowed: a points level and a player count, e.g. \"800x2\"") from None
    return points, n


def _points_players(value: Any, base, base_dir, p) -> tuple[int, int]:
    points, n = _points_players_value(value)
    return _points(points), _count(n, base, base_dir, p)


def _points_players_label(value: Any) -> str:
    points, n = _points_players_value(value)
    return f"{points} pts, {n} player{'s' if n > 1 else ''}"


def _with_points_players(config: ApocalypseConfig, value: tuple[int, int], p) -> ApocalypseConfig:
    refitted = with_points(config, value[0])
    return with_players(refitted, refitted.players[:value[1]])


AXES["points_players"] = AxisKind(
    "points_players", _points_players, _with_points_players, _points_players_label,
    "a points level and the base config's first n players together (\"800x2\"): a grid whose cells read as one "
    "label", order=0.5)


# ---------------------------------------------------------------------------------- lineups


def lineup_of(value: Any, base: ApocalypseConfig, base_dir: Path) -> tuple[Army, ...]:
    """A lineup: one army per seat of the base config (example army names or army files)."""
    if not isinstance(value, list | tuple) or len(value) != base.n_players:
        raise ConfigError(f"{value!r}; allowed: a list of {base.n_players} armies (example army names or army "
                          "files), one per seat")
    return tuple(load_army_ref(v, base_dir) for v in value)


def with_lineup(config: ApocalypseConfig, armies: tuple[Army, ...]) -> ApocalypseConfig:
    """Seat k fields army k, refitted to the points limit at the config's prices (as the 'points'
    axis refits), its player named after it; traits and policies stay with the seats."""
    players = [replace(p, name=army.name, army=fitted(config, army, config.points_limit))
               for p, army in zip(config.players, armies)]
    return with_players(config, players)


def lineup_label(value: Any) -> str:
    """'goffs+cadians+ulthwe+tau_sept': the seats' armies, in seat order."""
    return "+".join(_stem(v) for v in value) if isinstance(value, list | tuple) else str(value)


AXES["lineup"] = AxisKind(
    "lineup", lambda v, base, base_dir, p: lineup_of(v, base, base_dir), lambda c, v, p: with_lineup(c, v),
    lineup_label, "which armies sit in which seats: a list per lineup, one army per seat (example army names or "
    "army files), each refitted to the points limit and its player named after it", order=1)
