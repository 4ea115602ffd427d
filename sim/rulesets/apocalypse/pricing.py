"""What ``shamble rebalance`` may price in Zombie Apocalypse (`sim.ruleset.Pricing`; zombie-apocalypse §2).

**The sides and their rate.** The players win or lose together (§13), so ``won`` is no rate of
one army. A side is the army a player fields (the results' ``army`` column); its rate is
``warlord=alive``: the player's Warlord is alive at the end of the game. The spec's own per-player
outcome, ``extracted`` (the Warlord on the zone at the end), is near zero for every army at the
spec's 400 points under every policy preset (measured, 1,000 games a lineup, seed 2024: at most
0.02% under ``staged``, 0.45-1.25% under ``stealth``), while a living Warlord is its
precondition, the thing the zombies' victory counts (they win when no Warlord lives, §13), and
twice as frequent (0.75-2.8% under ``stealth``). ``--margin`` is in points of that rate.

**The default game** (`game`, `lineups`): every example army (``examples/apocalypse/armies``:
seven armies of six factions) rotated through the config's seats, each once in every seat (lineup
``k`` seats armies ``k, k+1, ...``), every army refitted to the config's points limit (400 by
default, §2) as the ``points`` axis refits (`armies.fit_army`), every player on the ``stealth``
preset: under the spec's ``staged`` default nearly every game is lost by turn 4 (0-0.2% of the
Warlords alive at the end for every army), so the armies cannot differ there; ``stealth`` is the
preset under which they differ most (Goffs 2.8%, Tau Sept 0.75%). The config's rules (its
parameters) are kept.

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

**How prices reach the game.** A Zombie Apocalypse config has no price field: the compiled game
reads the armies (their models) and, of their points, only the Warlord's (Legendary Fighter). So
a priced config is the config with its refitted armies, and with ``points_limit`` raised to the
armies' cost at catalogue prices when that is higher (``points_limit`` is read only by the army
check of the config and of the compile, which price at the catalogue; the kernels never read it).
`apply` takes an unpriced config (its ``points_limit`` is the budget). Two prices that buy the
same armies give the same config, so a rebalance plays them once.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from sim.ruleset import Price, Pricing, ReportSection
from sim.rulesets.apocalypse.armies import Army, ArmyError, army_cost, check_army, fit_army
from sim.rulesets.apocalypse.catalogue import catalogue, slots
from sim.rulesets.apocalypse.config import POLICY_PRESETS, ApocalypseConfig, ConfigError
from sim.w40k.catalogue import Catalogue

PER_MODEL, MULTIPLIER = "per-model", "multiplier"
MODES = {
    PER_MODEL: "the points per model of each army's main unit (its Troops datasheet with the most models), in the "
               "steps the catalogue can price (1/block of a point for a unit sold in blocks)",
    MULTIPLIER: "one multiplier of each army's whole cost, in steps of 0.01",
}
COST_SPAN = 3  # a unit's cost stays within its catalogue cost / 3 and x 3 (as Zombie 40,000's)
MAX_COST = Fraction(1000)
FACTOR_STEP, FACTOR_RANGE = Fraction(1, 100), (Fraction(1, 2), Fraction(2))
SIDE = "army"  # the results column of a side
RATE = "warlord=alive"  # the results' rate of a side (module docstring)
RATE_WORD = "Warlord-alive"
PRESET = "stealth"  # the default game's policy (module docstring)
SEED = 2024
GAMES = 1500  # the section's games per cell: the -n of docs/apocalypse.md's run (the command's -n decides a run's)
ARMIES = Path(__file__).resolve().parents[3] / "examples" / "apocalypse" / "armies"


def _mode(mode: str) -> str:
    if mode not in MODES:
        raise ConfigError(f"--mode {mode!r}; allowed: {', '.join(MODES)}")
    return mode


def _on_grid(value: Fraction, step: Fraction, up: bool) -> Fraction:
    k = value / step
    return step * (math.ceil(k) if up else math.floor(k))


def main_unit(army: Army, cat: Catalogue | None = None) -> str:
    """The datasheet ``per-model`` prices in an army (module docstring): its Troops datasheet
    with the most models, the first listed on a tie; else its non-HQ one; else its HQ."""
    cat = cat or catalogue()
    table = slots(cat)
    models: dict[str, int] = {}
    kinds: dict[str, str] = {}
    for choice in army.units:
        entry = cat.unit(choice.unit)
        slot = table[entry.name]
        models[entry.name] = models.get(entry.name, 0) + (choice.models or slot.min_models)
        kinds[entry.name] = slot.slot
    for wanted in (lambda k: k == "troops", lambda k: k != "hq", lambda k: True):
        chosen = [name for name in models if wanted(kinds[name])]
        if chosen:
            return max(chosen, key=lambda name: models[name])  # max keeps the first of equals
    raise ConfigError(f"{army.source or army.name}: an army without units has nothing to price")


def priced_catalogue(values: Mapping[str, Fraction], cat: Catalogue | None = None) -> Catalogue:
    """The catalogue with each unit of ``values`` at that many points per model (its block cost
    = value x block models, exact)."""
    cat = cat or catalogue()
    if not values:
        return cat
    units = dict(cat.units)
    for key, value in values.items():
        entry = cat.unit(key)
        units[entry.name] = replace(entry, block_cost=Fraction(value) * entry.block_models)
    return replace(cat, units=units)


def prices(config: ApocalypseConfig, mode: str = PER_MODEL) -> list[Price]:
    """The prices of the config's armies, at the catalogue's costs (a multiplier starts at 1)."""
    if _mode(mode) == MULTIPLIER:
        armies = dict.fromkeys(p.army.name for p in config.players)
        return [Price(a, Fraction(1), FACTOR_STEP, *FACTOR_RANGE, (a,), "cost multiplier") for a in armies]
    cat = catalogue()
    sides: dict[str, list[str]] = {}
    for p in config.players:
        sides.setdefault(main_unit(p.army, cat), []).append(p.army.name)
    out = []
    for unit, armies in sides.items():
        entry = cat.unit(unit)
        cost, step = entry.cost_per_model, Fraction(1, entry.block_models)
        low = max(step, _on_grid(cost / COST_SPAN, step, up=True))
        high = min(_on_grid(MAX_COST, step, up=False), _on_grid(cost * COST_SPAN, step, up=False))
        out.append(Price(unit, cost, step, low, high, tuple(dict.fromkeys(armies))))
    return out


def refit(army: Army, mode: str, values: Mapping[str, Fraction], budget: int) -> Army:
    """One army at these prices, refitted to ``budget`` and checked (§2) at them."""
    if _mode(mode) == MULTIPLIER:
        factor = Fraction(values.get(army.name, 1))
        cat, points = catalogue(), Fraction(budget) / factor
    else:
        cat, points = priced_catalogue(values), Fraction(budget)
    try:
        fitted = fit_army(army, points, cat)
        check_army(fitted, points, cat)
    except ArmyError as err:
        raise ConfigError(f"{mode} prices {dict(values)}: {err}") from None
    return fitted


def apply(config: ApocalypseConfig, mode: str, values: Mapping[str, Fraction]) -> ApocalypseConfig:
    """The (unpriced) config at these prices: every army refitted to its points limit at them;
    ``points_limit`` raised to the armies' catalogue cost where that is higher (module docstring).
    Keys no army here fields (a unit, an army name) change nothing."""
    _mode(mode)
    budget = config.points_limit
    players = tuple(replace(p, army=refit(p.army, mode, values, budget)) for p in config.players)
    cat = catalogue()
    dearest = max(math.ceil(army_cost(p.army, cat)) for p in players)
    return replace(config, players=players, points_limit=max(budget, dearest))


def describe(config: ApocalypseConfig, mode: str, side: str) -> str | None:
    """What an army fields in a (priced) config: '44 models (30 Ork Boy), 399 catalogue points'
    (the points at the catalogue's prices, the config carrying no others: module docstring)."""
    cat = catalogue()
    for p in config.players:
        if p.army.name == side:
            unit = main_unit(p.army, cat)
            table = slots(cat)
            counts = {}
            for u in p.army.units:
                name = cat.unit(u.unit).name
                counts[name] = counts.get(name, 0) + (u.models or table[name].min_models)
            cost = army_cost(p.army, cat)
            points = str(cost) if cost.denominator == 1 else f"{float(cost):.1f}"
            return f"{sum(counts.values())} models ({counts[unit]} {unit}), {points} catalogue points"
    return None


def example_armies() -> list[Army]:
    """The example armies (examples/apocalypse/armies), by file name."""
    from sim.rulesets.apocalypse.armies import load_army

    return [load_army(path) for path in sorted(ARMIES.glob("*.toml"))]


def rotations(items: list, seats: int) -> list[list]:
    """Each item once in every seat: lineup k seats items k, k+1, ... (a cyclic design)."""
    return [[items[(k + s) % len(items)] for s in range(seats)] for k in range(len(items))]


def lineups(config: ApocalypseConfig) -> list[tuple[str, ApocalypseConfig]]:
    """The default game's cells (module docstring): (label, config) per lineup, each player named
    after its army, on the ``stealth`` preset, every army refitted to the points limit."""
    from sim.rulesets.apocalypse.axes import with_points

    out = []
    for seats in rotations(example_armies(), config.n_players):
        players = tuple(replace(p, name=army.name, army=army, policy=POLICY_PRESETS[PRESET])
                        for p, army in zip(config.players, seats))
        label = "+".join(a.name.replace(" ", "_") for a in seats)
        out.append((label, with_points(replace(config, players=players), config.points_limit)))
    return out


def game(config: ApocalypseConfig) -> ReportSection:
    """The default game as a report section: its base is the first lineup (no axis of Zombie
    Apocalypse rotates armies through seats, so the cells are `lineups`)."""
    cells = lineups(config)
    return ReportSection(
        "standard", "The standard game: every example army in every seat",
        f"Every example army, {config.n_players} to a table, each once in every seat ({len(cells)} lineups), "
        f"{config.points_limit} points, every player on the {PRESET} preset; the rate of an army is its Warlord "
        "alive at the end.", cells[0][1], GAMES, {}, ("sides", "seats"),
        {"side": SIDE, "what": "armies", "value_label": "lineup"}, SEED)


PRICING = Pricing(MODES, SIDE, prices, apply, game, describe, rate=RATE, rate_word=RATE_WORD, cells=lineups)
