"""What ``shamble rebalance`` may price in Zombie Apocalypse (`sim.ruleset.Pricing`; zombie-apocalypse §2).

**The sides and their rate.** The players win or lose together (§13), so ``won`` is no rate of
one army. A side is the army a player fields (the results' ``army`` column); its rate is
``warlord=alive``: the player's Warlord is alive at the end of the game. The spec's own per-player
outcome, ``extracted`` (the Warlord on the zone at the end), is near zero for every army at the
spec's 400 points under every policy preset (measured, 1,000 games a lineup, seed 2024: at most
0.02% under ``staged``, 0.45-1.25% under ``stealth``), while a living Warlord is its
precondition, the thing the zombies' victory counts (they win when no Warlord lives, §13), and
twice as frequent (0.75-2.8% under ``stealth``). ``--margin`` is in points of that rate.

**The default game** (`game`): every example army (``examples/apocalypse/armies``: seven armies
of six factions) rotated through the config's seats, each once in every seat (lineup ``k`` seats
armies ``k, k+1, ...``), as a report section: the config's rules with every player on the
``stealth`` preset, crossed with the ``lineup`` axis (`axes.with_lineup`: each army refitted to
the points limit, 400 by default (§2), at the config's prices, as the ``points`` axis refits;
each player named after its army). Under the spec's ``staged`` default nearly every game is lost
by turn 4 (0-0.2% of the Warlords alive at the end for every army), so the armies cannot differ
there; ``stealth`` is the preset under which they differ most (Goffs 2.8%, Tau Sept 0.75%). The
section carries the search's sizes for ``shamble report --rebalance`` (``options``:
``search_games``, ``search_budget``; `experiments.report.rebalance_section`).

**Two ways of pricing** (``mode``):

- ``per-model`` (the default): the points per model of each army's **main unit**, its Troops
  datasheet with the most models (ties: the first in the list; an army without Troops: its non-HQ
  datasheet with the most models), in the steps the catalogue can price (1/``block_models`` of a
  point: a Tactical Marine sold 5 for 70 moves in fifths), within its catalogue cost / 3 and x 3.
  A unit that is the main unit of two armies (the Tactical Marine: Ultramarines and Librarius) is
  one price of both, and every unit of that datasheet in an army pays it.
- ``multiplier``: one factor per army on its whole cost, in steps of 1/100 within 0.5-2: the
  army's points times its factor must fit the points limit. The factor is a budget, not a new
  printed cost: Legendary Fighter (§7) still reads the Warlord's catalogue points.

Either way every army is refitted to the points limit (`armies.fit_army`: over it, units are
dropped or shrunk from the end of the list; under it, units grow in list order, then copies
join, within the Force Organisation chart) and must pass the army check (§2) at the new prices.

**How prices reach the game**: as config fields (`config.ApocalypseConfig`), like Zombie
40,000's: ``unit_costs`` (unit -> exact points per model, replacing the catalogue's in the army check
of the config and of the compile: what an army may field) and
``army_cost_factors`` (army -> factor: its points times the factor must fit the limit; a budget,
not a printed cost). `apply` writes them (a price at its catalogue value, a factor of 1, is left
out) and refits every army to the unchanged ``points_limit`` at them (`config.refit_armies`), so
``shamble play --patch proposal.toml`` shows the prices it plays, and a config file's
``[params]`` with the same tables plays the same armies. The compiled game reads, of the
points, only the Warlord's (Legendary Fighter, §7), and reads his printed (catalogue) points
under either mode, so two prices that buy the same armies compile the same tables and a
rebalance (which keys its cells by the tables) plays them once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from sim.ruleset import Price, Pricing, ReportSection
from sim.rulesets.apocalypse.armies import Army, army_cost, datasheet
from sim.rulesets.apocalypse.catalogue import catalogue, catalogue_at
from sim.rulesets.apocalypse.config import (
    FACTOR_RANGE,
    MAX_UNIT_COST,
    POLICY_PRESETS,
    ApocalypseConfig,
    ConfigError,
    catalogue_of,
    check_player_army,
    cost_factor,
    refit_armies,
)
from sim.w40k.catalogue import Catalogue
from sim.w40k.prices import unit_price

PER_MODEL, MULTIPLIER = "per-model", "multiplier"
MODES = {
    PER_MODEL: "the points per model of each army's main unit (its Troops datasheet with the most models), in the "
               "steps the catalogue can price (1/block of a point for a unit sold in blocks)",
    MULTIPLIER: "one multiplier of each army's whole cost, in steps of 0.01",
}
MAX_COST = MAX_UNIT_COST
FACTOR_STEP = Fraction(1, 100)
SIDE = "army"  # the results column of a side
RATE = "warlord=alive"  # the results' rate of a side (module docstring)
RATE_WORD = "Warlord-alive"
PRESET = "stealth"  # the default game's policy (module docstring)
SEED = 2024
GAMES = 1500  # the section's games per cell: the -n of docs/apocalypse.md's run (the command's -n decides a run's)
BUDGET = 150_000  # the search's games in the report's section: the --budget of docs/apocalypse.md's run
ARMIES = Path(__file__).resolve().parents[3] / "examples" / "apocalypse" / "armies"


def _mode(mode: str) -> str:
    if mode not in MODES:
        raise ConfigError(f"--mode {mode!r}; allowed: {', '.join(MODES)}")
    return mode


def main_unit(army: Army, cat: Catalogue | None = None) -> str:
    """The datasheet ``per-model`` prices in an army (module docstring): its Troops datasheet
    with the most models, the first listed on a tie; else its non-HQ one; else its HQ."""
    cat = cat or catalogue()
    models: dict[str, int] = {}
    kinds: dict[str, str] = {}
    for choice in army.units:
        entry, slot = datasheet(cat, choice.unit)  # a Walker too (issue 32): it is no catalogue unit
        models[entry.name] = models.get(entry.name, 0) + (choice.models or slot.min_models)
        kinds[entry.name] = slot.slot
    for wanted in (lambda k: k == "troops", lambda k: k != "hq", lambda k: True):
        chosen = [name for name in models if wanted(kinds[name])]
        if chosen:
            return max(chosen, key=lambda name: models[name])  # max keeps the first of equals
    raise ConfigError(f"{army.source or army.name}: an army without units has nothing to price")


def priced_catalogue(values: Mapping[str, Fraction]) -> Catalogue:
    """The packaged catalogue with each unit of ``values`` at that many points per model (its
    block cost = value x block models, exact; `catalogue.catalogue_at`)."""
    return catalogue_at(tuple(sorted((catalogue().unit(k).name, str(Fraction(v))) for k, v in values.items())))


def prices(config: ApocalypseConfig, mode: str = PER_MODEL) -> list[Price]:
    """The prices of the config's armies; their values now are the config's own (``unit_costs``,
    ``army_cost_factors``), their bounds from the catalogue's costs."""
    if _mode(mode) == MULTIPLIER:
        armies = dict.fromkeys(p.army.name for p in config.players)
        return [Price(a, cost_factor(config, a), FACTOR_STEP, *FACTOR_RANGE, (a,), "cost multiplier") for a in armies]
    cat, base = catalogue_of(config), catalogue()
    sides: dict[str, list[str]] = {}
    for p in config.players:
        sides.setdefault(main_unit(p.army, base), []).append(p.army.name)
    return [unit_price(cat, base, unit, tuple(dict.fromkeys(armies)), MAX_COST) for unit, armies in sides.items()]


def priced(config: ApocalypseConfig, mode: str, values: Mapping[str, Fraction]) -> ApocalypseConfig:
    """The config with these prices written to its tables (no refit): a unit's cost only for a
    unit its armies field, a factor only for an army it fields; a cost at the catalogue's, a
    factor of 1, is left out."""
    if _mode(mode) == MULTIPLIER:
        armies = {p.army.name for p in config.players}
        factors = dict(config.army_cost_factors) | {k: str(Fraction(v)) for k, v in values.items() if k in armies}
        return replace(config, army_cost_factors=tuple((k, v) for k, v in factors.items() if Fraction(v) != 1))
    cat = catalogue()
    fielded = {datasheet(cat, u.unit)[0].name for p in config.players for u in p.army.units}
    costs = dict(config.unit_costs) | {k: str(Fraction(v)) for k, v in values.items() if k in fielded}
    return replace(config, unit_costs=tuple((k, v) for k, v in costs.items()
                                            if Fraction(v) != cat.unit(k).cost_per_model))


def apply(config: ApocalypseConfig, mode: str, values: Mapping[str, Fraction]) -> ApocalypseConfig:
    """The config at these prices (`priced`), every army refitted to the unchanged points limit at
    them (`config.refit_armies`) and checked (§2). Keys no army here fields change nothing."""
    config = priced(config, mode, values)
    try:
        out = refit_armies(config, "prices")
        for k in range(out.n_players):
            check_player_army(out, k)
    except ConfigError as err:
        raise ConfigError(f"{mode} prices {dict(values)}: {err}") from None
    return out


def describe(config: ApocalypseConfig, mode: str, side: str) -> str | None:
    """What an army fields in a (priced) config: '44 models (30 Ork Boy), 399 points' (at the
    config's costs; a factor other than 1 follows: '352 points x 23/20')."""
    cat = catalogue_of(config)
    for p in config.players:
        if p.army.name == side:
            unit = main_unit(p.army, cat)
            counts = {}
            for u in p.army.units:
                entry, slot = datasheet(cat, u.unit)
                counts[entry.name] = counts.get(entry.name, 0) + (u.models or slot.min_models)
            cost, factor = army_cost(p.army, cat), cost_factor(config, side)
            points = str(cost) if cost.denominator == 1 else f"{float(cost):.1f}"
            times = "" if factor == 1 else f" x {factor}"
            return f"{sum(counts.values())} models ({counts[unit]} {unit}), {points} points{times}"
    return None


def example_names() -> list[str]:
    """The example armies (examples/apocalypse/armies) by file stem, sorted: what a lineup names."""
    return sorted(path.stem for path in ARMIES.glob("*.toml"))


def rotations(items: list, seats: int) -> list[list]:
    """Each item once in every seat: lineup k seats items k, k+1, ... (a cyclic design)."""
    return [[items[(k + s) % len(items)] for s in range(seats)] for k in range(len(items))]


def game(config: ApocalypseConfig) -> ReportSection:
    """The default game as a report section (module docstring): the config's rules with every
    player on the ``stealth`` preset, crossed with the ``lineup`` axis (every example army once in
    every seat)."""
    base = replace(config, players=tuple(replace(p, policy=POLICY_PRESETS[PRESET]) for p in config.players))
    lineups = rotations(example_names(), config.n_players)
    return ReportSection(
        "standard", "The standard game: every example army in every seat",
        f"Every example army, {config.n_players} to a table, each once in every seat ({len(lineups)} lineups), "
        f"{config.points_limit} points, every player on the {PRESET} preset; the rate of an army is its Warlord "
        "alive at the end.", base, GAMES, {"lineup": lineups}, ("sides", "seats"),
        {"side": SIDE, "what": "armies", "value_label": "lineup", "search_games": GAMES, "search_budget": BUDGET},
        SEED)


PRICING = Pricing(MODES, SIDE, prices, apply, game, describe, rate=RATE, rate_word=RATE_WORD)
