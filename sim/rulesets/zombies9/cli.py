"""``shamble zombies9 ...``: commands of this ruleset only (parse, call one function, print)."""

from __future__ import annotations

import typer

from sim.rulesets.zombies9.exact import combat_odds, odds_table

app = typer.Typer(help="Zombies!!! with Ashes to Ashes: ruleset commands.", no_args_is_help=True)


@app.callback()
def main() -> None:
    """Zombies!!! with Ashes to Ashes: ruleset commands."""


@app.command()
def odds(bullets: int = typer.Option(None, help="bullets (default: a table of 0-6)"),
         life: float = typer.Option(None, help="life tokens (default: a table of 1-5)"),
         bonus: int = typer.Option(0, help="weapon bonus"),
         kill: int = typer.Option(4, help="kill number (a dog: 5)"),
         damage: float = typer.Option(1.0, help="life tokens a lost roll costs (a dog: 0.5)"),
         first_aid: int = typer.Option(0, help="First Aid Kits in play"),
         rule: str = typer.Option("rule", help="failed rolls: rule (Q4), bullets, hearts")) -> None:
    """Exact odds of one combat (A8): the chance to win and the life and bullets it costs."""
    try:
        if bullets is not None and life is not None:
            o = combat_odds(bullets, life, bonus, kill, damage, first_aid, rule)
            typer.echo(f"win {float(o.win):.4f} ({o.win}); life spent {float(o.hearts_spent):.3f}; "
                       f"bullets spent {float(o.bullets_spent):.3f}; kits used {float(o.kits_used):.3f}")
            return
        rows = odds_table(bonus=bonus, kill_number=kill, rule=rule)
    except ValueError as err:
        raise typer.BadParameter(str(err)) from None
    typer.echo("life  " + "  ".join(f"b={b}  " for b in range(7)))
    for life_ in range(1, 6):
        cells = [r for r in rows if r["life"] == life_]
        typer.echo(f"{life_:>4}  " + "  ".join(f"{r['win']:.3f}" for r in cells))
