"""`shamble outwest ...`: commands of Zombies Out West only (the exact odds tables)."""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated

import typer

from sim.rulesets.outwest import exact
from sim.rulesets.outwest.config import CLASSES, OutwestConfig

app = typer.Typer(help="Zombies Out West: exact odds of a melee and of a shot.", no_args_is_help=True)


@app.callback()
def outwest() -> None:
    """Zombies Out West commands (a group, so that ``shamble outwest odds`` names its command)."""


def odds_lines(cls: str = "gunman", plague: bool = False) -> list[str]:
    """The exact odds tables as text lines."""
    c = replace(OutwestConfig(), mods=frozenset({"zombie_plague"} if plague else ()))
    lines = [f"A zombie attacks a {cls} from the front ({'Zombie Plague' if plague else 'basic game'}):"]
    for effective in (False, True):
        for on_ground in (False, True):
            human = exact.Fighter(zombie=False, effective=effective, cls=cls, on_ground=on_ground)
            a, d = exact.melee_dice(c, exact.Fighter(), human)
            fate = exact.zombie_attack_fate(c, a, d)
            weapon = "Effective" if effective else "Limited"
            where = "on the ground" if on_ground else "standing"
            shown = ", ".join(f"{k} {float(p):.1%}" for k, p in fate.items() if p)
            lines.append(f"  {weapon:9s} {where:13s} {a} v {d} dice: {shown}")
    lines.append(f"One Fire by a {cls} at a lone standing zombie (P destroyed / knocked over):")
    for gun in ("pistol", "rifle", "shotgun", "sawn_off", "musketoon"):
        cells = []
        for gap, band in ((1.0, "PB"), (4.0, "close"), (9.0, "medium"), (15.0, "long"), (21.0, "extreme")):
            fate = exact.shot_fate(c, gun, gap, cls)
            destroyed = sum(p for (f, _), p in fate.items() if f == "destroyed")
            down = sum(p for (f, _), p in fate.items() if f == "knocked over")
            cells.append(f"{band} {float(destroyed):.1%}/{float(down):.1%}" if exact.shot_dice(
                c, gun, exact.band_of(c, gap), cls) > 0 else f"{band} -")
        lines.append(f"  {gun:9s} " + "  ".join(cells))
    return lines


@app.command()
def odds(cls: Annotated[str, typer.Option("--class", help=f"one of {', '.join(CLASSES)}")] = "gunman",
         plague: Annotated[bool, typer.Option("--plague", help="the Zombie Plague hit table")] = False) -> None:
    """Exact odds of a zombie's attack and of one Fire at each range band."""
    if cls not in CLASSES:
        raise typer.BadParameter(f"--class {cls!r}; allowed: {', '.join(CLASSES)}")
    for line in odds_lines(cls, plague):
        typer.echo(line)
