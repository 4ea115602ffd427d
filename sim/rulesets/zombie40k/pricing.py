"""What ``shamble rebalance`` may price in Zombie 40,000 (`sim.ruleset.Pricing`; zombie40k §2).

Two ways of pricing (``mode``):

- ``per-model`` (the default): the points per model of each team's **main unit**, the squad's
  plain models (`teams.fill_model`: the Hormagaunts, the Fire Warriors, the Guardsmen), written
  to the config's ``unit_costs``. The catalogue prices a unit per model (whole points) or per
  block of models (``block_cost / block_models``), so a new cost moves in steps of one point, or
  of 1/``block_models`` of a point for a unit sold in blocks (a Grey Knight may cost 93/5). A unit
  that is the main unit of two teams (the Tactical Marine: Marines and Marines (bolters)) is one
  price of both; its leader's and swaps' models pay it too (an upgrade costs the model plus the
  upgrade).
- ``multiplier``: one factor per team on its whole cost (``team_cost_factors``), in steps of
  1/100: the team's points times its factor must fit the budget.

Either way every team is then refitted to the budget (`axes.with_budget`: leader and swaps
kept, plain models added or dropped), as the budget axis does: a price changes a team only
where it changes how many models the budget buys.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction

from sim.ruleset import Price, Pricing, ReportSection
from sim.rulesets.zombie40k.axes import with_budget
from sim.rulesets.zombie40k.compile import catalogue_for, cost_factor
from sim.rulesets.zombie40k.config import ConfigError, GameConfig
from sim.rulesets.zombie40k.report import games_for, standard_section
from sim.rulesets.zombie40k.teams import fill_model, team_cost
from sim.w40k.prices import unit_price

PER_MODEL, MULTIPLIER = "per-model", "multiplier"
MODES = {
    PER_MODEL: "the points per model of each team's main unit (its plain models), in the steps the catalogue can "
               "price (whole points; 1/block of a point for a unit sold in blocks)",
    MULTIPLIER: "one multiplier of each team's whole cost, in steps of 0.01",
}
MAX_COST = Fraction(1000)
FACTOR_STEP, FACTOR_RANGE = Fraction(1, 100), (Fraction(1, 2), Fraction(2))


def _mode(mode: str) -> str:
    if mode not in MODES:
        raise ConfigError(f"--mode {mode!r}; allowed: {', '.join(MODES)}")
    return mode


def _unpriced(config: GameConfig) -> GameConfig:
    return replace(config, unit_costs=(), team_cost_factors=())


def prices(config: GameConfig, mode: str = PER_MODEL) -> list[Price]:
    """The prices of the config's teams, at their costs in the catalogue (the config's own
    ``unit_costs`` and ``team_cost_factors`` are the values now)."""
    if _mode(mode) == MULTIPLIER:
        teams = dict.fromkeys(p.team.name for p in config.players)
        return [Price(t, cost_factor(config, t), FACTOR_STEP, *FACTOR_RANGE, (t,), "cost multiplier") for t in teams]
    cat, base = catalogue_for(config), catalogue_for(_unpriced(config))
    sides: dict[str, list[str]] = {}
    for p in config.players:
        sides.setdefault(cat.unit(fill_model(p.team).unit).name, []).append(p.team.name)
    return [unit_price(cat, base, unit, tuple(dict.fromkeys(teams)), MAX_COST) for unit, teams in sides.items()]


def apply(config: GameConfig, mode: str, values: Mapping[str, Fraction]) -> GameConfig:
    """The config at these prices (only those of units its teams field, or of its teams: a price
    of a unit nobody here fields does not change the game, nor the config), every team refitted
    to the budget."""
    if _mode(mode) == MULTIPLIER:
        teams = {p.team.name for p in config.players}
        factors = dict(config.team_cost_factors) | {k: str(Fraction(v)) for k, v in values.items() if k in teams}
        config = replace(config, team_cost_factors={k: v for k, v in factors.items() if Fraction(v) != 1})
    else:
        base = catalogue_for(_unpriced(config))
        fielded = {base.unit(m.unit).name for p in config.players for m in p.team.models}
        costs = dict(config.unit_costs) | {k: str(Fraction(v)) for k, v in values.items() if k in fielded}
        config = replace(config, unit_costs={k: v for k, v in costs.items()
                                             if Fraction(v) != base.unit(k).cost_per_model})
    return with_budget(config, config.team_budget)


def describe(config: GameConfig, mode: str, side: str) -> str | None:
    """What a team fields in the config: '12 models, 72 points' (points before a multiplier)."""
    cat = catalogue_for(config)
    for p in config.players:
        if p.team.name == side:
            cost = team_cost(p.team, cat)
            points = str(cost) if cost.denominator == 1 else f"{float(cost):.1f}"
            return f"{len(p.team.models)} models, {points} points"
    return None


def game(config: GameConfig) -> ReportSection:
    """The standard game on the config's rules (`report.standard_section`): every example team
    rotated through the config's seats, every player on the default policy (dash)."""
    return standard_section(config, games_for("standard", 1.0))


PRICING = Pricing(MODES, "team", prices, apply, game, describe)
