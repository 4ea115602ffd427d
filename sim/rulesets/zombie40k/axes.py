"""Zombie 40,000's own experiment axes (`sim.ruleset.AxisKind`)::

    budget = [50, 75, 100]                  # points budget: every team refitted (teams.fit_team)
    mods = [[], ["t_virus"], ["hardcore"]]  # mod sets (zombie40k §10); [] is the base game
    powerups_removed = ["none", 7, "chuck_norris"]  # one Power-Up result taken off the table
    [axes.team]                             # per player (name or 0-based index): team files or names
    Guard = ["guard", "tau", "../teams/necrons.toml"]

    lineup = [["guard", "tau", "necrons", "boyz"], ["marines/dash", "marines/hunter"]]  # every seat at once

(The shared axes, ``players``, ``policy`` and the parameters, are the experiment layer's.)
"""

from __future__ import annotations

from dataclasses import replace
from difflib import get_close_matches
from fractions import Fraction
from pathlib import Path
from typing import Any

from sim.ruleset import AxisKind
from sim.rulesets.zombie40k.compile import catalogue_for, cost_factor
from sim.rulesets.zombie40k.config import MODS, ConfigError, GameConfig, PlayerConfig, mod_key, policy_from
from sim.rulesets.zombie40k.results import POWERUP_NAMES
from sim.rulesets.zombie40k.teams import Team, TeamError, fit_team, load_team

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
NO_REMOVAL = "none"
POWERUP_RESULTS = {name: r for r, name in POWERUP_NAMES.items()}


# ---------------------------------------------------------------------------- teams


def load_team_ref(value: Any, base_dir: Path) -> Team:
    """A team from a file path (relative to ``base_dir``) or an example team's name."""
    if not isinstance(value, str) or not value:
        raise ConfigError(f"{value!r}; allowed: a team file or an example team name")
    path = base_dir / value
    if not value.endswith(".toml"):
        path = EXAMPLES / "teams" / f"{value}.toml"
        if not path.exists():
            names = sorted(p.stem for p in (EXAMPLES / "teams").glob("*.toml"))
            raise ConfigError(f"no example team {value!r}; allowed: {', '.join(names)} or a .toml path")
    return load_team(path)


def with_player(config: GameConfig, p: int, **change) -> GameConfig:
    players = list(config.players)
    players[p] = replace(players[p], **change)
    return replace(config, players=tuple(players))


def _stem(value: Any) -> str:
    return Path(value).stem if isinstance(value, str) else str(value)


# ---------------------------------------------------------------------------- budget


def with_budget(config: GameConfig, budget: int) -> GameConfig:
    """Every player's team refitted to ``budget`` points, and the legality cap set to it.

    Teams are priced as the config prices them (its catalogue files and ``unit_costs``), and a
    team with a cost multiplier (``team_cost_factors``) is refitted to ``budget / factor``.
    """
    cat = catalogue_for(config)
    try:
        players = tuple(replace(p, team=fit_team(p.team, Fraction(budget) / cost_factor(config, p.team.name), cat))
                        for p in config.players)
    except TeamError as err:
        raise ConfigError(str(err)) from None
    return replace(config, players=players, team_budget=int(budget))


def _budget(value: Any, *_) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 10_000:
        raise ConfigError(f"{value!r}; allowed: a points budget, an integer 1-10000")
    return value


# ---------------------------------------------------------------------------- mods and power-ups


def mod_set(value: Any, *_) -> frozenset[str]:
    if not isinstance(value, list | tuple | set | frozenset):
        raise ConfigError(f"{value!r}; allowed: a list of mod names, e.g. [] or [\"t_virus\"]")
    mods = frozenset(mod_key(m) for m in value)
    unknown = sorted(mods - set(MODS))
    if unknown:
        close = get_close_matches(unknown[0], MODS, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ConfigError(f"unknown mod {unknown[0]!r}{hint}; allowed: {', '.join(MODS)}")
    return mods


def mods_label(value: Any) -> str:
    return "+".join(sorted(mod_set(value))) or "base"


def _removed(value: Any, *_) -> tuple[int, ...]:
    if value == NO_REMOVAL:
        return ()
    if isinstance(value, int) and not isinstance(value, bool) and value in POWERUP_NAMES:
        return (value,)
    if isinstance(value, str) and value in POWERUP_RESULTS:
        return (POWERUP_RESULTS[value],)
    raise ConfigError(f"{value!r}; allowed: \"none\", a Power-Up result 2-12 or a name "
                      f"({', '.join(POWERUP_RESULTS)})")


def removed_label(value: Any) -> str:
    if not isinstance(value, str):
        return f"no_{POWERUP_NAMES[value]}"
    return value if value == NO_REMOVAL else f"no_{value}"


# ---------------------------------------------------------------------------- lineups


def _lineup(value: Any, base: GameConfig, base_dir: Path, p: int) -> tuple:
    """Seats from a list of "team" or "team/policy" entries, one per player of the base config
    (its policies kept where an entry names none); the players are named "Seat 1", "Seat 2"..."""
    if not isinstance(value, list) or len(value) != base.n_players or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{value!r}; allowed: a list of {base.n_players} entries \"team\" or \"team/policy\"")
    seats = []
    for k, entry in enumerate(value):
        team, _, policy = entry.partition("/")
        chosen = policy_from(policy, f"lineup entry {entry!r}") if policy else base.players[k].policy
        seats.append(PlayerConfig(f"Seat {k + 1}", load_team_ref(team, base_dir), chosen))
    return tuple(seats)


def _lineup_label(value: Any) -> str:
    return "+".join(str(v).replace("/", "-") for v in value) if isinstance(value, list) else str(value)


AXES = {
    "lineup": AxisKind("lineup", _lineup, lambda c, seats, p: replace(c, players=seats), _lineup_label,
                       "every seat at once: a list of \"team\" or \"team/policy\" (players \"Seat 1\"...)",
                       order=0.5),
    "team": AxisKind("team", lambda v, base, base_dir, p: load_team_ref(v, base_dir),
                     lambda c, team, p: with_player(c, p, team=team), _stem,
                     "team files or example team names, per player", per_player=True, order=1),
    "budget": AxisKind("budget", _budget, lambda c, b, p: with_budget(c, b), str,
                       "points budget: every team refitted (leader and swaps kept)", order=3, numeric=True,
                       default_range=(30, 150), aliases=("team_budget",)),
    "mods": AxisKind("mods", mod_set, lambda c, mods, p: replace(c, mods=mods), mods_label,
                     "mod sets of zombie40k §10 ([] = the base game)", order=5),
    "powerups_removed": AxisKind("powerups_removed", _removed, lambda c, r, p: replace(c, powerups_removed=r),
                                 removed_label, "one Power-Up result taken off the table (\"none\" = the full "
                                 "table)", order=6),
}
