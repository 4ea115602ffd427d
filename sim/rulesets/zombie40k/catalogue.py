"""Zombie 40,000's catalogue: the 7th-edition units and weapons (``sim/data/w40k``) with the
zombie side and the Killing Floor price list (``sim/data/zombie40k``; zombie40k §10.10,
§10.11, §11).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from sim.w40k.catalogue import (
    CORE,
    Catalogue,
    Extension,
    as_choice,
    as_flag,
    as_points,
    as_text,
    load_catalogue,
    load_catalogue_file,
)

FOLDERS = (*CORE, "zombie40k")
KF_TABLES = ("pistols", "melee", "basic", "heavy", "grenades")  # zombie40k §10.11


@dataclass(frozen=True)
class KillingFloorItem:
    """One line of the Killing Floor price list (zombie40k §10.11); ``psyker_only`` = the '*'."""

    item: str
    table: str
    cost: Fraction
    psyker_only: bool = False


def _read_killing_floor(fields, resolver) -> KillingFloorItem:
    """One [[killing_floor]] line (zombie40k §10.11)."""
    return KillingFloorItem(
        item=resolver.item(fields, "item", fields.get("item", as_text)),
        table=fields.get("table", as_choice(KF_TABLES)),
        cost=fields.get("cost", as_points),
        psyker_only=fields.get("psyker_only", as_flag, False),
    )


KILLING_FLOOR = Extension("killing_floor", "killing-floor item", _read_killing_floor)
EXTENSIONS = (KILLING_FLOOR,)


def catalogue() -> Catalogue:
    """The packaged Zombie 40,000 catalogue (cached)."""
    return load_catalogue(FOLDERS, EXTENSIONS)


def catalogue_file(*paths: str | Path) -> Catalogue:
    """The packaged catalogue with a user's TOML files (or folders of them) added."""
    return load_catalogue_file(*paths, base=FOLDERS, extensions=EXTENSIONS)


def killing_floor(cat: Catalogue) -> tuple[KillingFloorItem, ...]:
    return cat.extra.get("killing_floor", ())
