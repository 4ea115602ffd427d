"""Zombie Apocalypse's catalogue: the 7th-edition units and weapons (``sim/data/w40k``) with the
HQ characters, Elites, Fast Attack and Heavy Support of ``sim/data/apocalypse``, its Force
Organisation data (``[[slot]]``), the vehicle datasheets (``[[vehicle]]``, vehicles.toml: an army takes
Walkers, each a unit of one model, ``walker_datasheet``, and Dedicated Transports bought with a squad,
``transport_datasheet``, issue 32)
and the zombie side (zombie-apocalypse §2, §4).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

from sim.w40k.catalogue import (
    CORE,
    Catalogue,
    CatalogueError,
    Extension,
    UnitEntry,
    as_choice,
    as_text,
    load_catalogue,
    load_catalogue_file,
)
from sim.w40k.profiles import Profile
from sim.w40k.vehicles import VehicleEntry, read_vehicle

FOLDERS = (*CORE, "apocalypse")
SLOTS = ("hq", "troops", "elites", "fast_attack", "heavy_support")
SLOT_WORDS = {"hq": "HQ", "troops": "Troops", "elites": "Elites", "fast_attack": "Fast Attack",
              "heavy_support": "Heavy Support"}
UNIT_TYPES = ("infantry", "jump_infantry", "jet_pack_infantry", "bike", "jetbike", "monstrous_creature", "walker",
              "transport")
CHARACTERS = ("", "independent")


@dataclass(frozen=True)
class Slot:
    """One datasheet an army may take (zombie-apocalypse §2): its Force Organisation slot, unit
    size, unit type (movement and movement noise, §9.3), character status (core §16), how many
    weapon swaps it may take, and the source of these data."""

    unit: str
    slot: str
    min_models: int
    max_models: int
    unit_type: str = "infantry"
    character: str = ""
    max_swaps: int = 2
    source: str = ""


Vehicle = VehicleEntry  # a vehicle datasheet (sim.w40k.vehicles): catalogued, refused by the army check (issue 32)


def _count(fields, key: str, lo: int, hi: int, default=None) -> int:
    """An integer field lo-hi (one-line error naming the field)."""
    value = fields.get(key, lambda v: v, default) if default is not None else fields.get(key, lambda v: v)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise fields.fail(key, value, f"an integer {lo}-{hi}")
    return value


def _read_slot(fields, resolver) -> Slot:
    """One [[slot]] entry (force_org.toml)."""
    slot = Slot(
        unit=fields.get("unit", as_text),
        slot=fields.get("slot", as_choice(SLOTS)),
        min_models=_count(fields, "min_models", 1, 100),
        max_models=_count(fields, "max_models", 1, 100),
        unit_type=fields.get("unit_type", as_choice(UNIT_TYPES), "infantry"),
        character=fields.get("character", as_choice(CHARACTERS), ""),
        max_swaps=_count(fields, "max_swaps", 0, 20, 2),
        source=fields.get("source", as_text),
    )
    if slot.min_models > slot.max_models:
        raise fields.fail("max_models", slot.max_models, f"at least min_models ({slot.min_models})")
    return slot


SLOT = Extension("slot", "slot", _read_slot)
VEHICLE = Extension("vehicle", "vehicle", read_vehicle)
EXTENSIONS = (SLOT, VEHICLE)


def _checked(cat: Catalogue, where: str) -> Catalogue:
    """Every [[slot]] names a unit of the catalogue, once; every [[vehicle]] name is unique."""
    seen = set()
    for slot in cat.extra.get("slot", ()):
        if slot.unit not in cat.units:
            raise CatalogueError(f"{where}: slot {slot.unit!r}: no such unit in the catalogue")
        if slot.unit in seen:
            raise CatalogueError(f"{where}: slot {slot.unit!r}: given twice")
        seen.add(slot.unit)
    names = set()
    for v in cat.extra.get("vehicle", ()):
        if v.name in names or v.name in cat.units:
            raise CatalogueError(f"{where}: vehicle {v.name!r}: given twice, or also a unit")
        names.add(v.name)
    return cat


_CACHE: dict = {}


def catalogue() -> Catalogue:
    """The packaged Zombie Apocalypse catalogue (cached)."""
    if "packaged" not in _CACHE:
        _CACHE["packaged"] = _checked(load_catalogue(FOLDERS, EXTENSIONS), "apocalypse/force_org.toml")
    return _CACHE["packaged"]


def catalogue_at(unit_costs: tuple[tuple[str, str], ...] = ()) -> Catalogue:
    """The packaged catalogue with each unit of ``unit_costs`` ((name, exact cost as text) pairs,
    `config.ApocalypseConfig.unit_costs`) at that many points per model: its block cost is the cost
    x the block's models, exact (§2). Cached (a rebalance compiles many priced games)."""
    return _priced(tuple(unit_costs)) if unit_costs else catalogue()


@functools.lru_cache(maxsize=256)
def _priced(unit_costs: tuple[tuple[str, str], ...]) -> Catalogue:
    cat = catalogue()
    units = dict(cat.units)
    for name, cost in unit_costs:
        entry = cat.unit(name)
        units[entry.name] = replace(entry, block_cost=Fraction(cost) * entry.block_models)
    return replace(cat, units=units)


def catalogue_file(*paths: str | Path) -> Catalogue:
    """The packaged catalogue with a user's TOML files (or folders of them) added."""
    return _checked(load_catalogue_file(*paths, base=FOLDERS, extensions=EXTENSIONS), str(paths[0]))


def slots(cat: Catalogue) -> dict[str, Slot]:
    """Datasheet name -> its Force Organisation entry."""
    return {s.unit: s for s in cat.extra.get("slot", ())}


def vehicles(cat: Catalogue) -> dict[str, Vehicle]:
    """Vehicle name -> its datasheet."""
    return {v.name: v for v in cat.extra.get("vehicle", ())}


# A Walker in play (docs/apocalypse.md "Vehicles in play"): a model whose Wounds are its Hull Points; its T
# and Ld are never read (zombies roll armour penetration, V3, and a vehicle takes no Leadership test);
# Fearless: a vehicle never tests Morale or Fear; Relentless: a vehicle fires every weapon after moving.
WALKER_T, WALKER_LD = 10, 10
WALKER_RULES = frozenset({"fearless", "relentless"})


def walker_datasheet(v: Vehicle) -> tuple[UnitEntry, Slot]:
    """A Walker as a datasheet of one model (§2: an army may take Walkers) and its slot (the
    vehicle's ``slot``, one model: a squadron of one)."""
    profile = Profile(v.name, v.ws, v.bs, v.s, WALKER_T, v.hull_points, v.i, v.a, WALKER_LD, rules=WALKER_RULES)
    entry = UnitEntry(faction=v.faction, name=v.name, side="survivors", unit_type="walker", block_cost=v.cost,
                      block_models=1, profile=profile, wargear=v.weapons, note=v.note)
    return entry, Slot(v.name, v.slot, 1, 1, "walker", "", 0, v.source)


TRANSPORT_SLOT = "dedicated_transport"  # §2: bought with a unit it can carry; no Force Organisation slot


def transport_datasheet(v: Vehicle) -> tuple[UnitEntry, Slot]:
    """A Dedicated Transport as a datasheet of one model (§2: allowed unless a Flyer): its Wounds are
    its Hull Points, WS, S, I, A 0 (it does not fight, V7), Fearless and Relentless as a Walker."""
    profile = Profile(v.name, v.ws, v.bs, v.s, WALKER_T, v.hull_points, v.i, 0, WALKER_LD, rules=WALKER_RULES)
    entry = UnitEntry(faction=v.faction, name=v.name, side="survivors", unit_type="transport", block_cost=v.cost,
                      block_models=1, profile=profile, wargear=v.weapons, note=v.note)
    return entry, Slot(v.name, TRANSPORT_SLOT, 1, 1, "transport", "", 0, v.source)
