"""Zombie Apocalypse's own commands (``shamble apocalypse ...``): the exact odds of attacks at a
vehicle. Parse, call one function, print; bad input is one ``error:`` line, exit code 2
(``sim.cli_errors``)."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from sim.cli_errors import user_errors
from sim.rulesets.apocalypse.odds import VEHICLE_MOVES, vehicle_odds_report

app = typer.Typer(help="Zombie Apocalypse: exact odds of attacks at a vehicle.", no_args_is_help=True,
                  add_completion=False, pretty_exceptions_enable=False)

Int = int | None


@app.callback()
def apocalypse() -> None:
    """Zombie Apocalypse commands (a group, so that ``shamble apocalypse odds`` names its command)."""


@app.command()
def odds(
    attacker: Annotated[str, typer.Argument(help="Attacking unit (`shamble units`), or Zombie for a horde.")],
    target: Annotated[str, typer.Option(help="The vehicle attacked (sim/data/apocalypse/vehicles.toml).")] = "Rhino",
    weapon: Annotated[str | None, typer.Option(help="Weapon profile (default: the first ranged weapon; "
                                                    "close combat: the model's own).")] = None,
    facing: Annotated[str | None, typer.Option(help="Facing shot at: front, side, rear (default front; close "
                                                    "combat strikes the rear, a Walker's front).")] = None,
    models: Annotated[int, typer.Option(help="Attacking models (a horde's size gives its Hordes bonus).")] = 1,
    dice: Annotated[Int, typer.Option(help="Attack dice in total (default: from the rules).")] = None,
    melee: Annotated[bool, typer.Option("--melee", help="Close combat.")] = False,
    charge: Annotated[bool, typer.Option("--charge", help="The attacker charged (close combat).")] = False,
    half_range: Annotated[bool, typer.Option("--half-range", help="Within half range (Rapid Fire, Melta).")] = False,
    moved: Annotated[bool, typer.Option("--moved", help="The attacker moved (Heavy, Salvo).")] = False,
    snap: Annotated[bool, typer.Option("--snap", help="Snap Shots.")] = False,
    vehicle_moved: Annotated[str, typer.Option(help=f"Close combat: the vehicle's last move ({', '.join(VEHICLE_MOVES)}"
                                                    "; V7).")] = "stationary",
    simulate: Annotated[int, typer.Option(help="Also play N games in the kernels.")] = 0,
    seed: Annotated[int, typer.Option(help="Seed of --simulate.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Exact odds of attacks at a vehicle: hits, Hull Points, damage results, P(wrecked) (V1-V9)."""
    with user_errors():
        result = vehicle_odds_report(attacker, target, simulate=simulate, seed=seed, weapon=weapon, facing=facing,
                                     models=models, dice=dice, melee=melee, charge=charge, half_range=half_range,
                                     moved=moved, snap=snap, vehicle_moved=vehicle_moved)
    if as_json:
        typer.echo(json.dumps(result, indent=2))
    else:
        render_vehicle_odds(result, Console())


def render_vehicle_odds(result: dict, console: Console) -> None:
    """The report of `vehicle_odds_report` as tables (computes nothing)."""
    hit = "automatic" if result["hit_on"] <= 1 else f"{result['hit_on']}+"
    console.print(f"{result['attacker']} at a {result['target']}'s {result['facing']} (Armour {result['armour']}, "
                  f"{result['hull_points']} Hull Points): dice {result['n_dice']}, to hit {hit}, S{result['strength']}"
                  f", AP{'-' if result['ap'] >= 7 else result['ap']}", soft_wrap=True, highlight=False)
    console.print(f"each die: glancing {result['p_glancing']:.1%}, penetrating {result['p_penetrating']:.1%}; "
                  f"wrecked {result['p_wrecked']:.1%}", highlight=False)
    table = Table(title="Hull Points removed")
    table.add_column("HP", justify="right")
    table.add_column("P(= HP)", justify="right")
    table.add_column("P(>= HP)", justify="right")
    pmf, hull = result["hull_points_removed"]["pmf"], result["hull_points"]
    for hp in range(min(hull, len(pmf) - 1) + 1):
        shown = f"{hp}+ wrecked" if hp == hull else str(hp)
        table.add_row(shown, f"{sum(pmf[hp:]) if hp == hull else pmf[hp]:.4f}", f"{min(1.0, sum(pmf[hp:])):.4f}")
    console.print(table)
    worst = Table(title="Damage results")
    worst.add_column("result")
    worst.add_column("P(worst)", justify="right")
    worst.add_column("mean count", justify="right")
    for name, p in result["worst"].items():
        worst.add_row(name, f"{p:.4f}", "-" if name == "none" else f"{result['expected_results'][name]:.3f}")
    console.print(worst)
    sim = result["simulated"]
    if sim:
        console.print(f"kernels, {sim['games']:,} games (seed {sim['seed']}): Hull Points {sim['hull_points_mean']:.3f}"
                      f" (z {sim['hull_points_z']:+.2f}), wrecked {sim['p_wrecked']:.2%} (z {sim['p_wrecked_z']:+.2f})",
                      highlight=False)
