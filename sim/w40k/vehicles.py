"""Vehicle datasheets of the 7th-edition core (docs/apocalypse.md, "Vehicles (7th-edition core)";
its V ids are listed in docs/ids/apocalypse.md).

A vehicle's profile is its Ballistic Skill, its Armour Values (Front, Side, Rear), its Hull
Points and its types (Tank, Transport, Fast, Skimmer, Walker, Open-topped...); a Walker also has
WS, S, I and A (V1). `VehicleEntry` is one datasheet as the catalogue holds it (a
``[[vehicle]]`` table, read by `read_vehicle` as a ruleset's `sim.w40k.catalogue.Extension`):
the profile, its points, its default weapons (catalogue names), a transport's capacity and fire
points, and the source of the numbers. Bad data raise `CatalogueError` in one line naming the
file, the entry and the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from sim.w40k.catalogue import as_choice, as_points, as_text

# V1: the vehicle types a profile may list (Flyer and Hover only to be refused by a ruleset)
VEHICLE_TYPES = ("tank", "transport", "fast", "skimmer", "walker", "open_topped", "flyer", "hover")
# a ruleset's word for what a datasheet is in an army (zombie-apocalypse §2: walkers and transports)
VEHICLE_KINDS = ("walker", "transport", "tank", "flyer")
FACINGS = ("front", "side", "rear")
WALKER_STATS = ("ws", "s", "i", "a")
SLOTS = ("elites", "fast_attack", "heavy_support")  # a walker's Force Organisation slot (optional field)
_MISSING = object()


@dataclass(frozen=True)
class VehicleEntry:
    """One vehicle datasheet (V1).

    ``front``/``side``/``rear`` are Armour Values (10-14), ``hull_points`` its Hull Points;
    ``ws``/``s``/``i``/``a`` are 0 for a vehicle that is not a Walker. ``capacity`` is the number
    of models a transport carries (0 for none), ``fire_points`` how many may fire out of it.
    ``weapons`` are catalogue weapon or item names; ``cost`` its points with those weapons.
    """

    name: str
    faction: str
    kind: str
    cost: Fraction
    bs: int = 0
    front: int = 0
    side: int = 0
    rear: int = 0
    hull_points: int = 0
    types: frozenset[str] = frozenset()
    ws: int = 0
    s: int = 0
    i: int = 0
    a: int = 0
    capacity: int = 0
    fire_points: int = 0
    weapons: tuple[str, ...] = ()
    source: str = ""
    note: str = ""
    slot: str = ""  # the Force Organisation slot a ruleset's army takes it in ("" for a dedicated transport)

    @property
    def is_walker(self) -> bool:
        return "walker" in self.types

    @property
    def open_topped(self) -> bool:
        return "open_topped" in self.types

    def armour(self, facing: str) -> int:
        """The Armour Value of ``facing`` (front, side, rear)."""
        if facing not in FACINGS:
            raise ValueError(f"facing = {facing!r}; allowed: {', '.join(FACINGS)}")
        return getattr(self, facing)


def _number(fields, key: str, lo: int, hi: int, default: Any = _MISSING) -> int:
    """An integer field lo-hi (one-line error naming the field)."""
    value = fields.get(key, lambda v: v) if default is _MISSING else fields.get(key, lambda v: v, default)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise fields.fail(key, value, f"an integer {lo}-{hi}")
    return value


def _types(fields) -> frozenset[str]:
    value = fields.get("types", lambda v: v)
    if not isinstance(value, list) or not value or not all(v in VEHICLE_TYPES for v in value):
        raise fields.fail("types", value, f"a non-empty list of {', '.join(VEHICLE_TYPES)}")
    return frozenset(value)


def _walker_stats(fields, walker: bool) -> dict[str, int]:
    """WS, S, I, A: required for a Walker (V1), absent otherwise."""
    out = {}
    for stat in WALKER_STATS:
        if walker:
            out[stat] = _number(fields, stat, 1, 10)
        elif fields.get(stat, lambda v: v, None) is not None:
            raise fields.fail(stat, fields.table[stat], "only for a vehicle whose types list 'walker'")
    return out


def _weapons(fields, resolver) -> tuple[str, ...]:
    names = fields.get("weapons", lambda v: v, [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise fields.fail("weapons", names, "a list of weapon names of the catalogue")
    return tuple(resolver.item(fields, "weapons", n) for n in names)


def read_vehicle(fields, resolver) -> VehicleEntry:
    """One ``[[vehicle]]`` table -> `VehicleEntry` (an `Extension` reader)."""
    kind = fields.get("kind", as_choice(VEHICLE_KINDS))
    types = _types(fields)
    if kind in ("walker", "transport", "flyer") and kind not in types:
        raise fields.fail("types", sorted(types), f"a list holding {kind!r} (kind = {kind!r})")
    entry = VehicleEntry(
        name=fields.get("name", as_text), faction=fields.get("faction", as_text), kind=kind,
        cost=fields.get("cost", as_points), bs=_number(fields, "bs", 0, 10),
        front=_number(fields, "front", 9, 14), side=_number(fields, "side", 9, 14),
        rear=_number(fields, "rear", 9, 14), hull_points=_number(fields, "hull_points", 1, 9), types=types,
        capacity=_number(fields, "capacity", 0, 40, 0), fire_points=_number(fields, "fire_points", 0, 40, 0),
        weapons=_weapons(fields, resolver), source=fields.get("source", as_text),
        note=fields.get("note", lambda v: v if isinstance(v, str) else "", ""),
        slot=fields.get("slot", as_choice(SLOTS), ""),
        **_walker_stats(fields, "walker" in types))
    if ("transport" in types) != (entry.capacity > 0):
        raise fields.fail("capacity", entry.capacity, "more than 0 for a transport, 0 (or absent) otherwise")
    return entry
