"""Zombie Apocalypse armies (zombie-apocalypse §2): an army file, its points and the army check.

Each player brings one detachment of one faction, up to the points limit (400 by default)::

    name = "Ultramarines"
    faction = "Space Marines"

    [[units]]
    unit = "Captain"                    # a datasheet with a [[slot]] (sim/data/apocalypse/force_org.toml)
    swaps = ["Power sword"]             # weapon options of the datasheet

    [[units]]
    unit = "Tactical Marine"
    models = 10                         # within the datasheet's unit size
    leader = "Space Marine Sergeant"    # optional sergeant upgrade
    leader_options = ["Power sword"]
    swaps = ["Flamer", "Missile launcher"]   # each swap arms one more model (one model for an HQ)

``check_army`` raises `ArmyError` with one line naming the file, the rule (§2: Force
Organisation, points limit, Toughness and Wounds caps, vehicles, flight...) and what is allowed;
``build_army`` turns a legal army into the models that take the table, with Fearless removed from
every model that is not the HQ (§2, A5). The HQ model is the player's Warlord.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from sim.rulesets.apocalypse.catalogue import (
    SLOT_WORDS,
    TRANSPORT_SLOT,
    Slot,
    catalogue,
    slots,
    transport_datasheet,
    vehicles,
    walker_datasheet,
)
from sim.w40k.catalogue import Catalogue, UnitEntry, UnknownNameError, WargearOption
from sim.w40k.profiles import Profile
from sim.w40k.vehicles import VehicleEntry as Vehicle

POINTS_LIMIT = 400  # §2 [V]
FORCE_ORG = {"hq": (1, 1), "troops": (0, 10), "elites": (0, 6), "fast_attack": (0, 3),
             "heavy_support": (0, 3)}  # §2 [V]
T_CAP = 6  # §2: a model with T7 or more cannot be taken; one that reaches T7+ in play counts as T6 [V]
W_CAP = 4  # §2: a model with more than 4 W cannot be taken; in play it counts as 4 W [V]
DEFAULT_MELEE = "Close combat weapon"  # core-7th-edition §7.3: a model with no melee weapon fights with one


class ArmyError(ValueError):
    """An army that cannot be read, or that breaks a rule of §2; the message is one line."""


@dataclass(frozen=True)
class UnitChoice:
    """One unit of an army as its player bought it."""

    unit: str
    models: int = 0  # 0 = the datasheet's minimum size
    leader: str = ""
    leader_options: tuple[str, ...] = ()
    swaps: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "leader_options", tuple(self.leader_options))
        object.__setattr__(self, "swaps", tuple(self.swaps))


@dataclass(frozen=True)
class Army:
    """A player's detachment (§2)."""

    name: str
    faction: str
    units: tuple[UnitChoice, ...]
    source: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "units", tuple(self.units))


@dataclass(frozen=True)
class BuiltModel:
    """A model as it takes the table: its profile with every rule it keeps, its weapons."""

    profile: Profile
    weapons: tuple[str, ...]  # weapon profile names
    role: str = "trooper"  # trooper | character (a sergeant) | independent (an IC)
    cost: Fraction = Fraction(0)


@dataclass(frozen=True)
class BuiltUnit:
    """A unit as it deploys: its datasheet's slot and type, and its models (troopers first)."""

    datasheet: str
    slot: str
    unit_type: str
    models: tuple[BuiltModel, ...]
    vehicle: Vehicle | None = None  # a Walker: its datasheet (Armour Values, types; a unit of one model)

    @property
    def is_hq(self) -> bool:
        return self.slot == "hq"


# ------------------------------------------------------------------------------------ reading


def read_toml(path: Path, what: str = "army") -> dict:
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise ArmyError(f"{path}: no such {what} file") from None
    except tomllib.TOMLDecodeError as err:
        raise ArmyError(f"{path}: invalid TOML: {err}") from None


def _names(value: Any, where: str, key: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ArmyError(f"{where}: field {key!r} = {value!r}; allowed: a list of names")
    return tuple(v.strip() for v in value)


def _unit_choice(row: Any, where: str) -> UnitChoice:
    if not isinstance(row, dict):
        raise ArmyError(f"{where}: must be a table with unit, models, leader, leader_options, swaps")
    allowed = {"unit", "models", "leader", "leader_options", "swaps"}
    unknown = sorted(set(row) - allowed)
    if unknown:
        raise ArmyError(f"{where}: unknown field {unknown[0]!r}; allowed: {', '.join(sorted(allowed))}")
    unit = row.get("unit")
    if not isinstance(unit, str) or not unit.strip():
        raise ArmyError(f"{where}: field 'unit' = {unit!r}; allowed: a datasheet name (see `shamble units`)")
    models = row.get("models", 0)
    if not isinstance(models, int) or isinstance(models, bool) or not 0 <= models <= 100:
        raise ArmyError(f"{where}: field 'models' = {models!r}; allowed: an integer 1-100 (0 = the minimum size)")
    leader = row.get("leader", "")
    if not isinstance(leader, str):
        raise ArmyError(f"{where}: field 'leader' = {leader!r}; allowed: a leader name")
    return UnitChoice(unit.strip(), models, leader.strip(), _names(row.get("leader_options", []), where,
                                                                       "leader_options"),
                      _names(row.get("swaps", []), where, "swaps"))


def army_from_dict(data: Any, source: str = "army") -> Army:
    """An Army from parsed TOML (fields: name, faction, [[units]])."""
    if not isinstance(data, dict):
        raise ArmyError(f"{source}: an army must be a table")
    unknown = sorted(set(data) - {"name", "faction", "units", "description"})
    if unknown:
        raise ArmyError(f"{source}: unknown field {unknown[0]!r}; allowed: name, faction, units, description")
    name, faction = data.get("name", Path(source).stem), data.get("faction")
    if not isinstance(name, str) or not name.strip():
        raise ArmyError(f"{source}: field 'name' = {name!r}; allowed: a non-empty string")
    if not isinstance(faction, str) or not faction.strip():
        raise ArmyError(f"{source}: field 'faction' = {faction!r}; allowed: a faction name of the catalogue")
    rows = data.get("units")
    if not isinstance(rows, list) or not rows:
        raise ArmyError(f"{source}: field 'units' must be a non-empty list of [[units]] tables")
    units = tuple(_unit_choice(r, f"{source}: units[{k}]") for k, r in enumerate(rows))
    return Army(name.strip(), faction.strip(), units, source)


def load_army(path: str | Path) -> Army:
    """Read an army file (TOML); errors are one-line ArmyErrors."""
    path = Path(path)
    return army_from_dict(read_toml(path), str(path))


# ------------------------------------------------------------------------------------ pricing


def _option(options: tuple[WargearOption, ...], item: str, what: str, unit: str) -> WargearOption:
    for opt in options:
        if opt.item.lower() == item.strip().lower():
            return opt
    allowed = ", ".join(repr(o.item) for o in options) or "none"
    raise ArmyError(f"{what} {item!r} is not an option of {unit!r}; allowed: {allowed}")


def _entry(cat: Catalogue, name: str) -> tuple[UnitEntry, Slot]:
    for vname, v in vehicles(cat).items():
        if vname.lower() != name.lower():
            continue
        if v.kind == "walker" and v.slot:  # §2 Vehicles: only Walkers ...
            return walker_datasheet(v)
        if v.kind == "transport" and "flyer" not in v.types:  # ... and Dedicated Transports not Flyers
            return transport_datasheet(v)
        raise ArmyError(f"§2 Vehicles: {vname!r} is a vehicle ({v.kind}); allowed: Walkers, and Dedicated "
                        "Transports that are not Flyers")
    try:
        entry = cat.unit(name)
    except UnknownNameError as err:
        raise ArmyError(str(err)) from None
    slot = slots(cat).get(entry.name)
    if entry.side != "survivors" or slot is None:
        raise ArmyError(f"unit {entry.name!r} has no Force Organisation slot (sim/data/apocalypse/force_org.toml); "
                        "an army cannot take it")
    return entry, slot


def datasheet(cat: Catalogue, name: str) -> tuple[UnitEntry, Slot]:
    """The datasheet an army's unit names and its Force Organisation slot: a unit of the catalogue
    or a Walker (§2); ArmyError (one line) for anything an army cannot take."""
    return _entry(cat, name)


def unit_size(choice: UnitChoice, slot: Slot) -> int:
    return choice.models or slot.min_models


def unit_cost(choice: UnitChoice, cat: Catalogue) -> Fraction:
    """Points of one unit: models x pts/model, the leader upgrade and its options, the swaps."""
    entry, slot = _entry(cat, choice.unit)
    cost = entry.cost_per_model * unit_size(choice, slot)
    if choice.leader:
        lead = _leader(entry, choice.leader)
        cost += lead.cost + sum((_option(lead.options, o, "leader option", entry.name).cost
                                 for o in choice.leader_options), Fraction(0))
    cost += sum((_option(entry.swaps, s, "weapon swap", entry.name).cost for s in choice.swaps), Fraction(0))
    return cost


def army_cost(army: Army, cat: Catalogue | None = None) -> Fraction:
    cat = cat or catalogue()
    return sum((unit_cost(u, cat) for u in army.units), Fraction(0))


def _leader(entry: UnitEntry, name: str):
    try:
        return entry.leader(name)
    except UnknownNameError as err:
        raise ArmyError(str(err)) from None


# ------------------------------------------------------------------------------------ the check


def _fail(army: Army, text: str) -> ArmyError:
    return ArmyError(f"{army.source or army.name}: {text}")


def check_army(army: Army, points_limit: int | Fraction = POINTS_LIMIT, cat: Catalogue | None = None) -> None:
    """Raise ArmyError (one line naming the rule) unless ``army`` is legal under §2."""
    cat = cat or catalogue()
    counts = dict.fromkeys(FORCE_ORG, 0)
    for k, choice in enumerate(army.units):
        try:
            entry, slot = _entry(cat, choice.unit)
            _check_unit(choice, entry, slot, army.faction)
            unit_cost(choice, cat)
        except ArmyError as err:
            raise _fail(army, f"units[{k}]: {err}") from None
        if slot.slot == TRANSPORT_SLOT:  # §2: a Dedicated Transport takes no slot, it comes with its unit
            _check_transport(army, k, cat)
            continue
        counts[slot.slot] += 1
    for slot_name, (lo, hi) in FORCE_ORG.items():
        if not lo <= counts[slot_name] <= hi:
            allowed = f"exactly {lo}" if lo == hi else f"{lo}-{hi}"
            raise _fail(army, f"§2 Force Organisation: {counts[slot_name]} {SLOT_WORDS[slot_name]} choices; "
                              f"allowed: {allowed}")
    cost = army_cost(army, cat)
    if cost > points_limit:
        raise _fail(army, f"§2 Points limit: the army costs {_points(cost)} points; allowed: up to "
                          f"{_points(Fraction(points_limit))}")


PASSENGER_TYPES = ("infantry",)  # who rides in a transport (docs/apocalypse.md "Vehicles in play", V11)


def passengers_of(army: Army, k: int, cat: Catalogue) -> int:
    """The unit a Dedicated Transport at ``army.units[k]`` is bought with: the unit listed just before
    it (its index); -1 if there is none (the list's first, or another vehicle before it)."""
    if k == 0:
        return -1
    entry, slot = _entry(cat, army.units[k - 1].unit)
    return k - 1 if slot.unit_type in PASSENGER_TYPES and slot.character != "independent" else -1


def _check_transport(army: Army, k: int, cat: Catalogue) -> None:
    """§2 Dedicated Transport: bought with the unit listed just before it, an infantry unit (not an
    independent character) it can carry (its models, the leader included, no more than its capacity, V1)."""
    name = army.units[k].unit
    p = passengers_of(army, k, cat)
    if p < 0:
        raise _fail(army, f"units[{k}]: §2 Dedicated Transport: {name!r} follows no infantry squad; allowed: list "
                          "it right after the infantry squad it is bought with")
    capacity = vehicles(cat)[_entry(cat, name)[0].name].capacity
    size = unit_size(army.units[p], _entry(cat, army.units[p].unit)[1])
    if size > capacity:
        raise _fail(army, f"units[{k}]: §2 Dedicated Transport: {name!r} carries {capacity} models; "
                          f"{army.units[p].unit!r} has {size}; allowed: up to {capacity}")


def _points(cost: Fraction) -> str:
    return str(cost.numerator) if cost.denominator == 1 else f"{float(cost):.2f}"


def _check_unit(choice: UnitChoice, entry: UnitEntry, slot: Slot, faction: str) -> None:
    """One unit: its faction, the caps on T and W, flight, its size, leader and swaps."""
    if entry.faction != faction:
        raise ArmyError(f"§2 detachment: {entry.name!r} is a {entry.faction} unit; allowed: {faction} units "
                        "(one detachment per player)")
    if entry.profile.t > T_CAP and entry.unit_type not in ("walker", "transport"):  # a vehicle has Armour (V1)
        raise ArmyError(f"§2 Toughness cap: {entry.name!r} has T{entry.profile.t}; a model with T7 or more cannot "
                        "be taken")
    if entry.profile.w > W_CAP:
        raise ArmyError(f"§2 Wounds cap: {entry.name!r} has {entry.profile.w} W; a model with more than 4 W cannot "
                        "be taken")
    size = unit_size(choice, slot)
    if not slot.min_models <= size <= slot.max_models:
        raise ArmyError(f"unit size: {entry.name!r} with {size} models; allowed: {slot.min_models}-{slot.max_models} "
                        f"({slot.source})")
    if choice.leader_options and not choice.leader:
        raise ArmyError(f"leader_options of {entry.name!r} need a leader; allowed leaders: "
                        f"{', '.join(repr(lead.name) for lead in entry.leaders) or 'none'}")
    if len(choice.swaps) > slot.max_swaps:
        raise ArmyError(f"weapon swaps: {len(choice.swaps)} for {entry.name!r}; allowed: up to {slot.max_swaps}")
    plain = size - (1 if choice.leader else 0)
    if len(choice.swaps) > max(plain, 0) and size > 1:
        raise ArmyError(f"weapon swaps: {len(choice.swaps)} for {plain} models without the leader upgrade; "
                        "allowed: one swap per model")


# ------------------------------------------------------------------------------------ building


def _apply(wargear: list[str], opt: WargearOption) -> list[str]:
    gone = {r.lower() for r in opt.replaces}
    for name in gone:
        if name not in {w.lower() for w in wargear}:
            raise ArmyError(f"option {opt.item!r} replaces {name!r}, which the model no longer carries")
    return [w for w in wargear if w.lower() not in gone] + [opt.item]


def _weapons(wargear: list[str], cat: Catalogue) -> tuple[str, ...]:
    """Weapon profile names of the wargear items; a close combat weapon if none is melee."""
    profiles = [p for item in wargear for p in cat.profiles_of(item)]
    names = [p.name for p in profiles]
    if not any(p.is_melee or p.kind == "pistol" for p in profiles):
        names.append(DEFAULT_MELEE)
    return tuple(dict.fromkeys(names))


def _walker_weapons(wargear: list[str], cat: Catalogue) -> tuple[str, ...]:
    """A Walker's weapon profiles, one per weapon it carries (a Deff Dread's two big shootas both fire,
    V1); a close combat weapon if none is melee."""
    names = [p.name for item in wargear for p in cat.profiles_of(item)]
    if not any(p.is_melee or p.kind == "pistol" for item in wargear for p in cat.profiles_of(item)):
        names.append(DEFAULT_MELEE)
    return tuple(names)


def _strip_fearless(profile: Profile, is_hq: bool) -> Profile:
    """§2 (A5): Fearless is removed from every model that is not the HQ choice."""
    if is_hq or "fearless" not in profile.rules:
        return profile
    return replace(profile, rules=profile.rules - {"fearless"})


def build_unit(choice: UnitChoice, cat: Catalogue) -> BuiltUnit:
    """The models of one (checked) unit: troopers (with the swaps, in order), then the leader."""
    entry, slot = _entry(cat, choice.unit)
    size = unit_size(choice, slot)
    is_hq = slot.slot == "hq"
    role = "independent" if slot.character == "independent" else "trooper"
    per_model = entry.cost_per_model
    plain = size - (1 if choice.leader else 0)
    models = []
    for m in range(plain):
        wargear, cost = list(entry.wargear), per_model
        mine = choice.swaps if size == 1 else choice.swaps[m:m + 1]
        for item in mine:
            opt = _option(entry.swaps, item, "weapon swap", entry.name)
            wargear, cost = _apply(wargear, opt), cost + opt.cost
        # a Walker keeps its Fearless: no Leadership test is a vehicle's own (V1), not the special rule §2 removes
        keep = is_hq or entry.unit_type in ("walker", "transport")
        if entry.unit_type == "transport":  # V7: a transport does not fight, it has only its guns
            weapons = tuple(p.name for item in wargear for p in cat.profiles_of(item))
        elif entry.unit_type == "walker":
            weapons = _walker_weapons(wargear, cat)
        else:
            weapons = _weapons(wargear, cat)
        models.append(BuiltModel(_strip_fearless(entry.profile, keep), weapons, role, cost))
    if choice.leader:
        lead = _leader(entry, choice.leader)
        wargear, cost = list(entry.leader_wargear(lead.name)), per_model + lead.cost
        for item in choice.leader_options:
            opt = _option(lead.options, item, "leader option", entry.name)
            wargear, cost = _apply(wargear, opt), cost + opt.cost
        profile = _strip_fearless(entry.leader_profile(lead.name), is_hq)
        models.append(BuiltModel(profile, _weapons(wargear, cat), "character" if role == "trooper" else role, cost))
    return BuiltUnit(entry.name, slot.slot, slot.unit_type, tuple(models), vehicles(cat).get(entry.name))


def build_army(army: Army, points_limit: int | Fraction = POINTS_LIMIT,
               cat: Catalogue | None = None) -> tuple[BuiltUnit, ...]:
    """Check the army and build its units, the HQ first (the Warlord's unit)."""
    cat = cat or catalogue()
    check_army(army, points_limit, cat)
    return build_units(army, cat)


def build_units(army: Army, cat: Catalogue | None = None) -> tuple[BuiltUnit, ...]:
    """The units of an army checked already, the HQ first (the Warlord's unit)."""
    cat = cat or catalogue()
    try:
        built = [build_unit(u, cat) for u in army.units]
    except ArmyError as err:
        raise _fail(army, str(err)) from None
    keys = []
    for k, unit in enumerate(built):  # a Dedicated Transport stays right after its squad (V11: it carries it)
        transport = unit.vehicle is not None and not unit.vehicle.is_walker
        keys.append(keys[k - 1] if transport and k > 0 else not unit.is_hq)
    order = sorted(range(len(built)), key=lambda k: keys[k])
    return tuple(built[k] for k in order)


# ------------------------------------------------------------------------------------ fitting


_FITTED: dict[tuple, tuple[Catalogue, Army]] = {}  # (army, points, id(cat)) -> (cat, fitted): an experiment
# builds its cells again and again, and each cell refits every army (the catalogue is kept beside its
# id, so the id cannot name another catalogue while the entry lives)
MAX_FITTED = 4096


def fit_army(army: Army, points: int, cat: Catalogue | None = None) -> Army:
    """The army refitted to ``points`` (the points-level axis of experiments).

    Over the limit: units are dropped from the end of the list (never the HQ), then the last
    unit shrinks towards its minimum size. Under it: units grow in list order up to their
    maximum size while the points allow, then copies of its non-HQ units join (Force
    Organisation permitting). Swaps and leaders are kept."""
    cat = cat or catalogue()
    key = (army, Fraction(points), id(cat))
    kept = _FITTED.get(key)
    if kept is not None and kept[0] is cat:
        return kept[1]
    fitted = _fit_army(army, points, cat)
    if len(_FITTED) >= MAX_FITTED:
        _FITTED.clear()
    _FITTED[key] = (cat, fitted)
    return fitted


def _fit_army(army: Army, points: int, cat: Catalogue) -> Army:
    units = list(army.units)
    fitted = replace(army, units=tuple(units))
    while army_cost(fitted, cat) > points:
        fitted = _shrink(fitted, cat)
        if fitted is None:
            raise ArmyError(f"{army.source or army.name}: cannot fit {points} points (the HQ alone costs more)")
    return _grow(fitted, points, cat)


def _shrink(army: Army, cat: Catalogue) -> Army | None:
    units = list(army.units)
    for k in range(len(units) - 1, -1, -1):
        entry, slot = _entry(cat, units[k].unit)
        if slot.slot == "hq":
            continue
        size = unit_size(units[k], slot)
        if size > slot.min_models:
            units[k] = replace(units[k], models=size - 1)
        else:
            del units[k]
        return replace(army, units=tuple(units))
    return None


def _grow(army: Army, points: int, cat: Catalogue) -> Army:
    """Units grow in list order to their maximum size; then copies of the list's non-HQ units (at
    their size in the list) join while the points and the Force Organisation allow, and grow too."""
    units = _grown(list(army.units), army, points, cat)
    originals = [u for u in army.units if _entry(cat, u.unit)[1].slot not in ("hq", TRANSPORT_SLOT)]
    added = True
    while added and originals:
        added = False
        for choice in originals:
            slot = _entry(cat, choice.unit)[1].slot
            taken = sum(1 for u in units if _entry(cat, u.unit)[1].slot == slot)
            trial = units + [choice]
            if taken < FORCE_ORG[slot][1] and army_cost(replace(army, units=tuple(trial)), cat) <= points:
                units = _grown(trial, army, points, cat)
                added = True
    return replace(army, units=tuple(units))


def _grown(units: list[UnitChoice], army: Army, points: int, cat: Catalogue) -> list[UnitChoice]:
    units = list(units)
    for k, choice in enumerate(units):
        entry, slot = _entry(cat, choice.unit)
        most = slot.max_models
        if k + 1 < len(units) and _entry(cat, units[k + 1].unit)[1].slot == TRANSPORT_SLOT:
            most = min(most, vehicles(cat)[_entry(cat, units[k + 1].unit)[0].name].capacity)  # §2: it still fits
        while unit_size(units[k], slot) < most:
            bigger = replace(units[k], models=unit_size(units[k], slot) + 1)
            trial = replace(army, units=tuple(units[:k] + [bigger] + units[k + 1:]))
            if army_cost(trial, cat) > points:
                break
            units[k] = bigger
    return units
