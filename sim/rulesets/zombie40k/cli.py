"""Zombie 40,000's own commands (``shamble zombie40k ...``; the default ruleset's, so also
``shamble odds``, ``units``, ``weapons``, ``mods`` and ``roster check``): parse, call one function,
print. Bad input is one ``error:`` line, exit code 2 (``sim.cli_errors``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from sim.cli_errors import user_errors, writable
from sim.rulesets.zombie40k.catalogue import catalogue
from sim.rulesets.zombie40k.odds import odds_situation
from sim.rulesets.zombie40k.roster import (
    mods_json,
    render_mods,
    render_roster,
    render_unit_card,
    roster_report,
    unit_card,
)
from sim.w40k.odds import unit_rows, weapon_rows
from sim.w40k.odds_tables import odds_json, odds_report, plot_odds, render_odds, render_rows

BROKEN_RULES = 1  # `roster check`: the team was read but breaks zombie40k §2

app = typer.Typer(name="zombie40k", help="Zombie 40,000: exact odds, the catalogue, teams and mods.",
                  no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)
roster_app = typer.Typer(help="Team files (zombie40k §2): check a team before it plays.", no_args_is_help=True)
app.add_typer(roster_app, name="roster")

Int = int | None


@app.command()
def odds(
    attacker: Annotated[str, typer.Argument(help="Attacking unit (see `shamble zombie40k units`).")],
    target: Annotated[str, typer.Option(help="Target unit.")] = "Zombie",
    weapon: Annotated[str | None, typer.Option(help="Weapon profile (default: the first ranged weapon).")] = None,
    models: Annotated[int, typer.Option(help="Attacking models.")] = 1,
    dice: Annotated[Int, typer.Option(help="Attack dice in total (default: from the rules).")] = None,
    target_models: Annotated[int, typer.Option(help="Target models.")] = 10,
    leader: Annotated[str | None, typer.Option(help="Attack with this leader upgrade's profile.")] = None,
    melee: Annotated[bool, typer.Option("--melee", help="Close combat.")] = False,
    charge: Annotated[bool, typer.Option("--charge", help="The attacker charged (close combat).")] = False,
    first_round: Annotated[bool, typer.Option("--first-round/--later-round", help="Round of the combat.")] = True,
    half_range: Annotated[bool, typer.Option("--half-range", help="Within half range (Rapid Fire).")] = False,
    moved: Annotated[bool, typer.Option("--moved", help="The attacker moved (Heavy, Salvo).")] = False,
    snap: Annotated[bool, typer.Option("--snap", help="Snap Shots.")] = False,
    overwatch: Annotated[bool, typer.Option("--overwatch", help="Overwatch.")] = False,
    cover: Annotated[Int, typer.Option(help="Target's cover save (2-6).")] = None,
    t: Annotated[Int, typer.Option("--t", help="Target Toughness.")] = None,
    sv: Annotated[Int, typer.Option("--sv", help="Target armour save (2-6, 7 = none).")] = None,
    inv: Annotated[Int, typer.Option("--inv", help="Target invulnerable save (2-6, 7 = none).")] = None,
    fnp: Annotated[Int, typer.Option("--fnp", help="Target Feel No Pain (2-6, 7 = none).")] = None,
    w: Annotated[Int, typer.Option("--w", help="Target Wounds.")] = None,
    chuck: Annotated[bool, typer.Option("--chuck", help="Blessing of Chuck Norris on the attacker.")] = False,
    defender_chuck: Annotated[bool, typer.Option("--defender-chuck", help="... on the target.")] = False,
    medpacks: Annotated[int, typer.Option(help="Medpacks the target holds.")] = 0,
    simulate: Annotated[int, typer.Option(help="Also play N games in the kernels.")] = 0,
    seed: Annotated[int, typer.Option(help="Seed of --simulate.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    plot: Annotated[Path | None, typer.Option(help="Draw the distributions to FILE.png.")] = None,
) -> None:
    """Exact odds of one shooting or close combat exchange (unsaved wounds, models removed)."""
    with user_errors():
        if plot is not None:
            writable(f"--plot {plot}", plot.parent, plot)
        result = odds_report(
            attacker, weapon, target, simulate=simulate, seed=seed, models=models, dice=dice,
            target_models=target_models, melee=melee, charge=charge, first_round=first_round,
            half_range=half_range, moved=moved, snap=snap, overwatch=overwatch, cover=cover, t=t, sv=sv,
            inv=inv, fnp=fnp, w=w, leader=leader, **odds_situation(chuck, defender_chuck, medpacks),
        )
        if plot is not None:
            plot_odds(result, plot)
    if as_json:
        typer.echo(odds_json(result))
    else:
        render_odds(result, Console())


@app.command()
def units(
    name: Annotated[str | None, typer.Argument(help="One unit: its leaders, swaps, costs and the USRs.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List the catalogue's units (faction, points per model, profile, wargear), or show what a team
    may make of one unit: `shamble units Guardsman`."""
    with user_errors():
        found = unit_rows(catalogue()) if name is None else unit_card(name)
    if as_json:
        typer.echo(json.dumps(found, indent=2, ensure_ascii=False))
    elif name is None:  # wargear and leaders are on each unit's card: the list fits 80 columns
        shown = [{k: v for k, v in row.items() if k not in ("wargear", "leaders")} for row in found]
        render_rows(shown, "Units (`shamble units NAME`: a unit's wargear, leaders, swaps, costs and USRs)", Console())
    else:
        render_unit_card(found, Console())


@app.command()
def weapons() -> None:
    """List the catalogue's weapon profiles (and the items that stand for several)."""
    with user_errors():
        rows = weapon_rows(catalogue())
    render_rows(rows, "Weapons", Console())


@roster_app.command("check")
def roster_check(
    file: Annotated[Path, typer.Argument(help="Team file (TOML; see examples/teams).")],
    budget: Annotated[int, typer.Option(help="Points the team may cost (zombie40k §2).")] = 75,
    hardcore: Annotated[bool, typer.Option("--hardcore", help="Hardcore Mode: no USR (zombie40k §10.6).")] = False,
) -> None:
    """Show a team (models, profiles, weapons, cost) and every team-building rule it breaks (exit 1)."""
    with user_errors():
        report = roster_report(file, budget=budget, hardcore=hardcore)
    render_roster(report, Console())
    if not report.is_legal:
        raise typer.Exit(BROKEN_RULES)


@app.command()
def mods(as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
    """List the mods (zombie40k §10): what each changes, its parameters and defaults, and clashes."""
    if as_json:
        typer.echo(mods_json())
    else:
        render_mods(Console())
