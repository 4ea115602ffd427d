"""The unit and weapon catalogue: TOML data files loaded into validated, frozen records.

Catalogue data lives in folders of ``sim/data/``: ``w40k/`` holds the 7th-edition units and
weapons (catalogue §2-§4), a ruleset's folder what it adds (Zombie 40,000's zombie side and
Killing Floor prices, zombie40k §10.10, §10.11, §11); a catalogue is loaded from one or more
folders. Each file may hold any of these top-level arrays and tables:

- ``[[weapon]]``: one weapon profile (`sim.w40k.profiles.Weapon`);
- ``[[item]]``: a wargear name standing for several profiles (a missile launcher: frag and krak)
  or for none (a vox-caster); every weapon profile is also an item of itself;
- ``[[unit]]`` with ``[[unit.leader]]``: a unit entry, its leader upgrades and weapon swaps;
- ``[option_lists]``: named option lists that leaders and swaps share;
- a ruleset's own arrays (`Extension`: Zombie 40,000's ``[[killing_floor]]`` price list), read
  by the ruleset's reader into ``Catalogue.extra``.

Points stay exact (`fractions.Fraction`): a unit bought as a block costs block price / models in
the block per model (zombie40k §2). Every name is validated and every cross reference (wargear,
options, a ruleset's entries) resolved at load time; bad data raises `CatalogueError` with one
line naming the file, the entry and the field. Name lookups ignore case and surrounding spaces;
an unknown name raises `UnknownNameError` with the closest names.
"""

from __future__ import annotations

import difflib
import functools
import math
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from sim.w40k.profiles import (
    MODEL_RULES,
    NO_AP,
    NO_SAVE,
    WEAPON_KINDS,
    WEAPON_RULES,
    Profile,
    Weapon,
    parse_strength,
)

SIDES = ("survivors", "zombies")  # zombie-side entries are the zombies' profiles, never bought
UNIT_TYPES = ("infantry",)  # the catalogue holds infantry (zombie40k §2 allows nothing else)
PROFILE_STATS = ("ws", "bs", "s", "t", "w", "i", "a", "ld", "sv", "inv", "inv_melee", "fnp")
_NO_STRENGTH_RULES = frozenset({"poisoned", "sniper", "graviton", "no_damage"})  # how S "X" wounds


class CatalogueError(ValueError):
    """Bad catalogue data; the message is one line naming the file, the entry and the field."""


class UnknownNameError(ValueError):
    """A unit, weapon, item or leader name that the catalogue does not hold (one-line message)."""


# ----------------------------------------------------------------------------------------------
# Records
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class WargearOption:
    """One purchasable option (catalogue §2.1-§2.2).

    ``replaces`` names the default weapons it takes the place of (empty: it is added);
    ``grants_rules`` are model rules it gives (biomorphs: toxin sacs -> poisoned).
    """

    item: str
    cost: Fraction
    replaces: tuple[str, ...] = ()
    grants_rules: frozenset[str] = frozenset()


@dataclass(frozen=True)
class LeaderOption:
    """A leader upgrade of one model (catalogue §2.1; zombie40k §2 "Sergeant").

    ``cost`` is paid on top of the model's cost (0 = "incl."); ``changes`` holds (field, value)
    pairs applied to the model's profile; ``wargear`` None means the model's own wargear;
    ``mastery_level`` None means the unit's.
    """

    name: str
    cost: Fraction
    changes: tuple[tuple[str, int], ...] = ()
    wargear: tuple[str, ...] | None = None
    options: tuple[WargearOption, ...] = ()
    note: str = ""
    grants_rules: frozenset[str] = frozenset()
    mastery_level: int | None = None


@dataclass(frozen=True)
class UnitEntry:
    """One model type a team may field (catalogue §2), or a zombie-side profile (zombie40k §11)."""

    faction: str
    name: str
    side: str
    unit_type: str
    block_cost: Fraction
    block_models: int
    profile: Profile
    wargear: tuple[str, ...]
    leaders: tuple[LeaderOption, ...] = ()
    swaps: tuple[WargearOption, ...] = ()
    mastery_level: int = 0
    note: str = ""

    @property
    def cost_per_model(self) -> Fraction:
        """Points per model: block price / models in the block, exact (zombie40k §2)."""
        return Fraction(self.block_cost) / self.block_models

    def leader(self, name: str) -> LeaderOption:
        """The leader upgrade called ``name`` (case-insensitive)."""
        by_key = {_key(lead.name): lead for lead in self.leaders}
        if _key(name) in by_key:
            return by_key[_key(name)]
        hint = ", ".join(repr(lead.name) for lead in self.leaders) or "none"
        raise UnknownNameError(
            _unknown(
                "leader",
                name,
                [lead.name for lead in self.leaders],
                f"unit {self.name!r} has leaders: {hint}",
            )
        )

    def leader_profile(self, name: str) -> Profile:
        """The model's profile with the leader's changes and granted rules applied."""
        lead = self.leader(name)
        return replace(
            self.profile, name=lead.name, rules=self.profile.rules | lead.grants_rules, **dict(lead.changes)
        )

    def leader_wargear(self, name: str) -> tuple[str, ...]:
        """The leader's default wargear (the model's own unless the upgrade changes it)."""
        lead = self.leader(name)
        return self.wargear if lead.wargear is None else lead.wargear


@dataclass(frozen=True)
class Extension:
    """A top-level array of a ruleset's own (``[[killing_floor]]``): ``read(fields, resolver)``
    turns one table into a record (``fields`` reads and checks the table's fields, ``resolver``
    resolves wargear names: `Fields` and `Resolver`); the records land in
    ``Catalogue.extra[key]`` in file order. ``noun`` names an entry in error messages."""

    key: str
    noun: str
    read: Callable[[Any, Any], Any]


@dataclass(frozen=True)
class Catalogue:
    """Every unit entry, weapon profile and item of a catalogue, and a ruleset's own entries.

    ``items`` maps a wargear name to its profile names (every weapon is an item of itself);
    ``notes`` keeps the free-text note of weapons and items that have one; ``extra`` holds the
    records of each `Extension` by its key.
    """

    units: Mapping[str, UnitEntry]
    weapons: Mapping[str, Weapon]
    items: Mapping[str, tuple[str, ...]]
    extra: Mapping[str, tuple] = field(default_factory=dict)
    notes: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("units", "weapons", "items", "notes", "extra"):
            object.__setattr__(self, name, MappingProxyType(dict(getattr(self, name))))

    def unit(self, name: str) -> UnitEntry:
        """The unit entry called ``name`` (case-insensitive)."""
        return self.units[_resolve("unit", name, self.units, "see `shamble units`")]

    def weapon(self, name: str) -> Weapon:
        """The weapon profile called ``name`` (case-insensitive)."""
        return self.weapons[_resolve("weapon", name, self.weapons, "see `shamble weapons`")]

    def item_name(self, name: str) -> str:
        """The catalogue spelling of a weapon or item name."""
        return _resolve("item", name, self.items, "see `shamble weapons`")

    def profiles_of(self, item: str) -> tuple[Weapon, ...]:
        """The weapon profiles an item stands for (empty for an item with no profile)."""
        return tuple(self.weapons[p] for p in self.items[self.item_name(item)])

    def factions(self, side: str | None = None) -> list[str]:
        """Faction names in catalogue order, of one side ("survivors", "zombies") or all."""
        found = [u.faction for u in self.units.values() if side is None or u.side == side]
        return list(dict.fromkeys(found))


# ----------------------------------------------------------------------------------------------
# Names
# ----------------------------------------------------------------------------------------------


def exact_number(value: Any) -> Fraction | None:
    """A points cost or factor as written in a config: an int, a float (as written: 1.15 is 23/20) or a
    fraction string as a Fraction; else None."""
    if isinstance(value, bool):
        return None
    try:
        if isinstance(value, float):
            return Fraction(repr(value)) if math.isfinite(value) else None
        if isinstance(value, int | str | Fraction):
            return Fraction(value.strip() if isinstance(value, str) else value)
    except (ValueError, ZeroDivisionError):
        return None


def exact_table(value: Any, name: str, allowed: str, top: Fraction | int | None,
                error: type[Exception]) -> tuple[tuple[str, str], ...]:
    """A config's table of names and numbers above 0 (at most ``top``, if given) as sorted (name,
    exact number as text) pairs: {"Ork Boy": 7} -> (("Ork Boy", "7"),); numbers may be fractions
    ("71/5"). Anything else raises ``error`` in one line naming the field and ``allowed``."""
    pairs = value.items() if isinstance(value, dict) else value
    if not isinstance(pairs, list | tuple | type({}.items())) or not all(
            isinstance(p, list | tuple) and len(p) == 2 and isinstance(p[0], str) and p[0] for p in pairs):
        raise error(f"{name} = {value!r}; allowed: {allowed}")
    out = {}
    for key, number in pairs:
        exact = exact_number(number)
        if exact is None or exact <= 0 or (top is not None and exact > top):
            raise error(f"{name}: {key} = {number!r}; allowed: {allowed}")
        out[key] = str(exact)
    return tuple(sorted(out.items()))
    return None


def _key(name: str) -> str:
    return " ".join(str(name).split()).casefold()


def _closest(name: str, choices: Iterable[str]) -> list[str]:
    by_key = {_key(c): c for c in choices}
    return [by_key[k] for k in difflib.get_close_matches(_key(name), list(by_key), n=3)]


def _unknown(kind: str, name: str, choices: Iterable[str], hint: str) -> str:
    close = _closest(name, choices)
    said = "closest: " + ", ".join(repr(c) for c in close) if close else hint
    return f"unknown {kind} {name!r}; {said}"


def _resolve(kind: str, name: str, table: Mapping[str, Any], hint: str) -> str:
    """The key of ``table`` that ``name`` spells, ignoring case and spaces."""
    if name in table:
        return name
    for known in table:
        if _key(known) == _key(name):
            return known
    raise UnknownNameError(_unknown(kind, name, table, hint))


# ----------------------------------------------------------------------------------------------
# Field readers: each converter returns the value or raises _Bad(allowed)
# ----------------------------------------------------------------------------------------------


class _Bad(Exception):
    def __init__(self, allowed: str, shown: Any = None) -> None:
        super().__init__(allowed)
        self.allowed, self.shown = allowed, shown


_MISSING = object()


class _Fields:
    """Reads the fields of one TOML table; errors name ``ctx`` (file: entry) and the field."""

    def __init__(self, ctx: str, table: Any) -> None:
        if not isinstance(table, dict):
            raise CatalogueError(f"{ctx}: expected a table, got {table!r}")
        self.ctx, self.table, self.used = ctx, table, set()

    def get(self, key: str, convert: Callable[[Any], Any], default: Any = _MISSING) -> Any:
        self.used.add(key)
        if key not in self.table:
            if default is _MISSING:
                raise CatalogueError(f"{self.ctx}: missing field {key!r}")
            return default
        try:
            return convert(self.table[key])
        except _Bad as bad:
            shown = self.table[key] if bad.shown is None else bad.shown
            raise CatalogueError(f"{self.ctx}: field {key!r} = {shown!r}; allowed: {bad.allowed}") from None

    def done(self) -> None:
        extra = sorted(set(self.table) - self.used)
        if extra:
            raise CatalogueError(
                f"{self.ctx}: unknown field {extra[0]!r}; allowed: {', '.join(sorted(self.used))}"
            )

    def fail(self, key: str, value: Any, allowed: str) -> CatalogueError:
        return CatalogueError(f"{self.ctx}: field {key!r} = {value!r}; allowed: {allowed}")


def _text(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _Bad("a non-empty string")
    return " ".join(value.split())


def _note(value: Any) -> str:
    if not isinstance(value, str):
        raise _Bad("a string")
    return value


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _Bad("true or false")
    return value


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _integer(lo: int, hi: int, dash: int | None = None) -> Callable[[Any], int]:
    """An integer lo-hi; with ``dash``, "-" stands for that value (none)."""
    allowed = f"an integer {lo}-{hi}" + (" or '-'" if dash is not None else "")

    def convert(value: Any) -> int:
        if dash is not None and value in ("-", "–"):
            return dash
        if not _is_int(value) or not lo <= value <= hi:
            raise _Bad(allowed)
        return value

    return convert


def _save(value: Any) -> int:
    """A save X+ as the number X (2-6), or "-" / 7 for none (core-7th-edition §6.7)."""
    return _integer(2, NO_SAVE, dash=NO_SAVE)(value)


def _points(value: Any) -> Fraction:
    allowed = "a non-negative integer or a fraction string such as '25/4'"
    if _is_int(value) and value >= 0:
        return Fraction(value)
    if isinstance(value, str):
        try:
            points = Fraction(value.strip())
        except (ValueError, ZeroDivisionError):
            raise _Bad(allowed) from None
        if points >= 0:
            return points
    raise _Bad(allowed)


def _inches(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 120:
        raise _Bad("a number of inches 0-120")
    return value


def _strength(value: Any) -> str:
    text = str(value) if _is_int(value) else value
    try:
        parse_strength(text)
    except (ValueError, TypeError, AttributeError):
        raise _Bad("1-10, 'User', '+N', 'xN' or 'X'") from None
    return text


def _choice(choices: Iterable[str]) -> Callable[[Any], str]:
    choices = tuple(choices)

    def convert(value: Any) -> str:
        if value not in choices:
            raise _Bad(", ".join(repr(c) for c in choices))
        return value

    return convert


def _names(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise _Bad("a list of names")
    return tuple(_text(v) for v in value)


def _rules(allowed: frozenset[str], label: str) -> Callable[[Any], frozenset[str]]:
    """A list of special-rule names, each one of ``allowed`` (sim.w40k.profiles.<label>)."""

    def convert(value: Any) -> frozenset[str]:
        for rule in _names(value):
            if rule not in allowed:
                close = _closest(rule, allowed)
                hint = f" (closest: {close[0]!r})" if close else ""
                raise _Bad(f"a name of {label}{hint}", shown=rule)
        return frozenset(value)

    return convert


def _table(value: Any) -> dict:
    if not isinstance(value, dict):
        raise _Bad("a table such as { a = 2, ld = 9 }")
    return value


def _tables(value: Any) -> list[dict]:
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise _Bad("a list of tables")
    return value


# ----------------------------------------------------------------------------------------------
# Entries
# ----------------------------------------------------------------------------------------------

_SUFFIX_KINDS = {"weapon": "weapon", "item": "item", "unit": "unit"}


def _entry_ctx(label: str, kind: str, table: Any, index: int) -> str:
    """ "units.toml: unit 'Guardsman'" (or "#3" when the entry has no usable name)."""
    name = table.get("name", table.get("item")) if isinstance(table, dict) else None
    return f"{label}: {kind} {name!r}" if isinstance(name, str) else f"{label}: {kind} #{index + 1}"


def _read_weapon(ctx: str, table: dict) -> tuple[Weapon, str]:
    """One [[weapon]] table (catalogue §3) -> (Weapon, note)."""
    f = _Fields(ctx, table)
    kind = f.get("kind", _choice(WEAPON_KINDS))
    kw = dict(
        name=f.get("name", _text),
        range_in=f.get("range_in", _inches),
        strength=f.get("strength", _strength),
        ap=f.get("ap", _integer(1, 6, dash=NO_AP), NO_AP),
        kind=kind,
        shots=f.get("shots", _integer(0, 20), 0 if kind == "melee" else 1),
        shots_stationary=f.get("shots_stationary", _integer(0, 20), 0),
        blast=f.get("blast", _choice(("", "small", "large")), ""),
        template=f.get("template", _flag, False),
        rules=f.get("rules", _rules(WEAPON_RULES, "WEAPON_RULES"), frozenset()),
        poisoned_on=f.get("poisoned_on", _integer(2, 6), 4),
        shots_from_attacks=f.get("shots_from_attacks", _flag, False),
        strength_on_charge=f.get("strength_on_charge", _strength, ""),
        ap_on_charge=f.get("ap_on_charge", _integer(0, 6, dash=NO_AP), 0),
    )
    note = f.get("note", _note, "")
    f.done()
    _check_weapon(f, kw)
    return _build(ctx, Weapon, kw), note


def _check_weapon(f: _Fields, kw: dict) -> None:
    """Cross-field sanity: melee has no range, a template is one 8" shot, S "X" needs a rule."""
    if (kw["kind"] == "melee") != (kw["range_in"] == 0):
        raise f.fail("range_in", kw["range_in"], "0 for a melee weapon, more than 0 otherwise")
    if kw["template"] and (kw["shots"] != 1 or kw["range_in"] != 8):
        raise f.fail("template", True, "a template weapon has shots = 1 and range_in = 8")
    if kw["strength"].upper() == "X" and not kw["rules"] & _NO_STRENGTH_RULES:
        raise f.fail("strength", "X", f"'X' only with one of {', '.join(sorted(_NO_STRENGTH_RULES))}")


def _build(ctx: str, cls: type, kw: dict) -> Any:
    try:
        return cls(**kw)
    except ValueError as err:
        raise CatalogueError(f"{ctx}: {err}") from None


def _read_item(ctx: str, table: dict) -> tuple[str, tuple[str, ...], str]:
    """One [[item]] table -> (name, profile names, note)."""
    f = _Fields(ctx, table)
    name, profiles, note = f.get("name", _text), f.get("profiles", _names), f.get("note", _note, "")
    f.done()
    return name, profiles, note


def _read_stats(f: _Fields, required: bool) -> dict[str, int]:
    """Profile characteristics (core-7th-edition §2); saves "-" = none, Ld "-" = none (0)."""
    convert = {"t": _integer(1, 10), "w": _integer(1, 10), "ld": _integer(0, 10, dash=0)}
    out = {}
    for stat in PROFILE_STATS:
        conv = _save if stat in ("sv", "inv", "inv_melee", "fnp") else convert.get(stat, _integer(0, 10))
        optional = not required or stat in ("sv", "inv", "inv_melee", "fnp")
        value = f.get(stat, conv, None if optional else _MISSING)
        if value is not None:
            out[stat] = value
    f.done()
    return out


class _Resolver:
    """Resolves wargear names to their catalogue spelling while reading units."""

    def __init__(self, items: Mapping[str, tuple[str, ...]], option_lists: Mapping[str, list]) -> None:
        self.items, self.option_lists = items, option_lists
        self.by_key = {_key(name): name for name in items}

    def item(self, f: _Fields, key: str, name: str) -> str:
        if _key(name) in self.by_key:
            return self.by_key[_key(name)]
        close = _closest(name, self.items)
        hint = f" (closest: {close[0]!r})" if close else ""
        raise f.fail(key, name, f"a weapon or item of the catalogue{hint}")

    def items_of(self, f: _Fields, key: str, default: Any = _MISSING) -> tuple[str, ...] | None:
        names = f.get(key, _names, default)
        return None if names is None else tuple(self.item(f, key, n) for n in names)

    def option_tables(self, f: _Fields, inline_key: str, lists_key: str) -> list[tuple[str, dict]]:
        """Inline option tables plus those of the named option lists, each with its context."""
        found = [(_entry_ctx(f.ctx, "option", t, i), t) for i, t in enumerate(f.get(inline_key, _tables, []))]
        for name in f.get(lists_key, _names, ()):
            if name not in self.option_lists:
                raise f.fail(lists_key, name, f"a name of [option_lists]: {', '.join(self.option_lists)}")
            ctx = f"{f.ctx}: option list {name!r}"
            found += [(_entry_ctx(ctx, "option", t, i), t) for i, t in enumerate(self.option_lists[name])]
        return found

    def options(
        self, f: _Fields, inline_key: str, lists_key: str, wargear: tuple[str, ...]
    ) -> tuple[WargearOption, ...]:
        opts = tuple(self.option(ctx, t, wargear) for ctx, t in self.option_tables(f, inline_key, lists_key))
        seen = [o.item for o in opts]
        dupes = sorted({i for i in seen if seen.count(i) > 1})
        if dupes:
            raise f.fail(inline_key, dupes[0], "each item at most once")
        return opts

    def option(self, ctx: str, table: dict, wargear: tuple[str, ...]) -> WargearOption:
        """One option (catalogue §2.1-§2.2); what it replaces must be in the default wargear."""
        f = _Fields(ctx, table)
        item = self.item(f, "item", f.get("item", _text))
        cost = f.get("cost", _points)
        replaces = self.items_of(f, "replaces", ())
        grants = f.get("grants_rules", _rules(MODEL_RULES, "MODEL_RULES"), frozenset())
        f.done()
        for name in replaces:
            if name not in wargear:
                raise f.fail("replaces", name, f"a name of the default wargear: {', '.join(wargear)}")
        return WargearOption(item, cost, replaces, grants)


def _read_leader(ctx: str, table: dict, unit: UnitEntry, res: _Resolver) -> LeaderOption:
    """One [[unit.leader]] table (catalogue §2.1)."""
    f = _Fields(ctx, table)
    name, cost = f.get("name", _text), f.get("cost", _points)
    changes = _read_stats(_Fields(ctx, f.get("changes", _table, {})), required=False)
    grants = f.get("grants_rules", _rules(MODEL_RULES, "MODEL_RULES"), frozenset())
    mastery = f.get("mastery_level", _integer(0, 4), None)
    wargear = res.items_of(f, "wargear", None)
    options = res.options(f, "options", "option_lists", unit.wargear if wargear is None else wargear)
    note = f.get("note", _note, "")
    f.done()
    lead = LeaderOption(name, cost, tuple(sorted(changes.items())), wargear, options, note, grants, mastery)
    ml = unit.mastery_level if mastery is None else mastery
    profile = _build(
        ctx, _changed, dict(profile=unit.profile, name=name, rules=unit.profile.rules | grants, **changes)
    )
    _check_profile(f, profile, ml)
    return lead


def _changed(profile: Profile, **changes: Any) -> Profile:
    return replace(profile, **changes)


def _check_profile(f: _Fields, p: Profile, mastery_level: int) -> None:
    """Rules and values that must agree: psyker <-> ML, Feel No Pain <-> fnp, Dodge <-> inv_melee."""
    if p.has("psyker") != (mastery_level > 0):
        raise f.fail("mastery_level", mastery_level, "1-4 for a psyker (rule 'psyker'), 0 otherwise")
    if p.has("feel_no_pain") != (p.fnp != NO_SAVE):
        raise f.fail("fnp", p.fnp, "a value 2-6 with the rule 'feel_no_pain', '-' without it")
    if p.has("dodge") != (p.inv_melee != NO_SAVE):
        raise f.fail("inv_melee", p.inv_melee, "a value 2-6 with the rule 'dodge', '-' without it")


def _read_unit(ctx: str, table: dict, res: _Resolver) -> UnitEntry:
    """One [[unit]] table (catalogue §2; zombie40k §11)."""
    f = _Fields(ctx, table)
    name = f.get("name", _text)
    stats = _read_stats(_Fields(ctx, f.get("profile", _table)), required=True)
    rules = f.get("rules", _rules(MODEL_RULES, "MODEL_RULES"), frozenset())
    wargear = res.items_of(f, "wargear")
    unit = UnitEntry(
        faction=f.get("faction", _text),
        name=name,
        side=f.get("side", _choice(SIDES), "survivors"),
        unit_type=f.get("unit_type", _choice(UNIT_TYPES), "infantry"),
        block_cost=f.get("block_cost", _points),
        block_models=f.get("block_models", _integer(1, 100), 1),
        profile=_build(ctx, Profile, dict(name=name, rules=rules, **stats)),
        wargear=wargear,
        swaps=res.options(f, "swaps", "swap_lists", wargear),
        mastery_level=f.get("mastery_level", _integer(0, 4), 0),
        note=f.get("note", _note, ""),
    )
    _check_profile(f, unit.profile, unit.mastery_level)
    leaders = [
        _read_leader(_entry_ctx(ctx, "leader", t, i), t, unit, res)
        for i, t in enumerate(f.get("leader", _tables, []))
    ]
    f.done()
    return replace(unit, leaders=tuple(leaders))


def _read_extension(ext: Extension, ctx: str, table: dict, res: _Resolver) -> Any:
    f = _Fields(ctx, table)
    record = ext.read(f, res)
    f.done()
    return record


# ----------------------------------------------------------------------------------------------
# Assembling a catalogue from TOML sources
# ----------------------------------------------------------------------------------------------

_TOP_LEVEL = ("weapon", "item", "unit", "option_lists")


def _parse(sources: Iterable[tuple[str, str]], extra_keys: tuple[str, ...] = ()) -> dict[str, list]:
    """(label, TOML text) pairs -> {top-level key: [(label, index, value), ...]}."""
    found: dict[str, list] = {key: [] for key in _TOP_LEVEL + extra_keys}
    for label, text in sources:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as err:
            raise CatalogueError(f"{label}: invalid TOML: {err}") from None
        for key, value in data.items():
            if key not in found:
                raise CatalogueError(
                    f"{label}: unknown top-level key {key!r}; allowed: {', '.join(found)}"
                )
            values = [value] if key == "option_lists" else value
            if not isinstance(values, list):
                raise CatalogueError(f"{label}: {key!r} must be an array of tables ([[{key}]])")
            found[key] += [(label, i, v) for i, v in enumerate(values)]
    return found


def _add(ctx: str, table: dict, name: str, value: Any, what: str = "name") -> None:
    """Insert name -> value, refusing a second entry of the same name (ignoring case)."""
    if any(_key(k) == _key(name) for k in table):
        raise CatalogueError(f"{ctx}: duplicate {what} {name!r}")
    table[name] = value


def _read_weapons(found: dict) -> tuple[dict, dict, dict]:
    """Weapons, items (each profile an item of itself) and notes."""
    weapons, items, notes = {}, {}, {}
    for label, i, table in found["weapon"]:
        ctx = _entry_ctx(label, "weapon", table, i)
        weapon, note = _read_weapon(ctx, table)
        _add(ctx, weapons, weapon.name, weapon)
        items[weapon.name] = (weapon.name,)
        notes.update({weapon.name: note} if note else {})
    res = _Resolver(weapons, {})
    for label, i, table in found["item"]:
        ctx = _entry_ctx(label, "item", table, i)
        name, profiles, note = _read_item(ctx, table)
        f = _Fields(ctx, table)
        _add(ctx, items, name, tuple(res.item(f, "profiles", p) for p in profiles), "weapon or item name")
        notes.update({name: note} if note else {})
    return weapons, items, notes


def _read_option_lists(found: dict) -> dict[str, list]:
    lists: dict[str, list] = {}
    for label, _, table in found["option_lists"]:
        for name, value in table.items():
            if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
                raise CatalogueError(f"{label}: option list {name!r}: expected a list of tables")
            _add(f"{label}: option list {name!r}", lists, name, value, "option list")
    return lists


def _assemble(sources: Iterable[tuple[str, str]], extensions: tuple[Extension, ...] = ()) -> Catalogue:
    found = _parse(sources, tuple(ext.key for ext in extensions))
    weapons, items, notes = _read_weapons(found)
    res = _Resolver(items, _read_option_lists(found))
    units: dict[str, UnitEntry] = {}
    for label, i, table in found["unit"]:
        ctx = _entry_ctx(label, "unit", table, i)
        unit = _read_unit(ctx, table, res)
        _add(ctx, units, unit.name, unit)
    extra = {ext.key: tuple(_read_extension(ext, _entry_ctx(label, ext.noun, t, i), t, res)
                            for label, i, t in found[ext.key]) for ext in extensions}
    return Catalogue(units=units, weapons=weapons, items=items, extra=extra, notes=notes)


CORE = ("w40k",)  # the 7th-edition units and weapons (catalogue §2-§3)


def _folder_sources(folder: str) -> list[tuple[str, str]]:
    """The (file name, text) pairs of ``sim/data/<folder>/*.toml``, read as package data."""
    data = resources.files("sim") / "data"
    folders = sorted(p.name for p in data.iterdir() if p.is_dir())
    if folder not in folders:
        raise UnknownNameError(_unknown("catalogue folder", folder, folders, f"allowed: {', '.join(folders)}"))
    files = sorted((p for p in (data / folder).iterdir() if p.name.endswith(".toml")), key=lambda p: p.name)
    return [(f"{folder}/{p.name}", p.read_text(encoding="utf-8")) for p in files]


def _sources(folders: tuple[str, ...]) -> list[tuple[str, str]]:
    return [source for folder in folders for source in _folder_sources(folder)]


def load_catalogue(folders: tuple[str, ...] = CORE, extensions: tuple[Extension, ...] = ()) -> Catalogue:
    """Load and validate a catalogue from packaged data folders (cached: one object each).

    Parameters
    ----------
    folders : tuple of str
        Folders under ``sim/data``, read in this order (the default: the 7th-edition core).
    extensions : tuple of Extension
        A ruleset's own top-level arrays.

    Returns
    -------
    Catalogue
        Frozen units, weapons, items and the extensions' records.

    Raises
    ------
    CatalogueError
        Bad data: the one-line message names the file, the entry and the field.
    UnknownNameError
        No such folder.
    """
    return _load_cached(tuple(folders), tuple(extensions))


@functools.cache
def _load_cached(folders: tuple[str, ...], extensions: tuple[Extension, ...]) -> Catalogue:
    return _assemble(_sources(folders), extensions)


def load_catalogue_file(*paths: str | Path, base: tuple[str, ...] | None = CORE,
                        extensions: tuple[Extension, ...] = ()) -> Catalogue:
    """Load a user catalogue: TOML files (or folders of them) added to packaged data folders.

    Parameters
    ----------
    *paths : str or Path
        TOML files, or folders whose ``*.toml`` files are read in name order. They use the
        layout of ``sim/data/w40k`` and may refer to the base folders' weapons and items.
    base : tuple of str or None
        Packaged folders to extend; None loads the given files alone.
    extensions : tuple of Extension
        A ruleset's own top-level arrays.

    Returns
    -------
    Catalogue

    Raises
    ------
    CatalogueError
        Bad data, or a name that the base already holds.
    """
    sources = _sources(tuple(base)) if base is not None else []
    for path in map(Path, paths):
        files = sorted(path.glob("*.toml")) if path.is_dir() else [path]
        if not files or not all(p.is_file() for p in files):
            raise CatalogueError(f"{path}: no such TOML file or folder of TOML files")
        sources += [(str(p), p.read_text(encoding="utf-8")) for p in files]
    return _assemble(sources, tuple(extensions))


# What a ruleset's `Extension` reader uses: ``fields.get(name, as_text)`` reads and checks one
# field of the table (``fields.get(name, convert, default)``), ``resolver.item(fields, name,
# value)`` resolves a wargear name to the catalogue's spelling.
Fields, Resolver = _Fields, _Resolver
as_text, as_choice, as_points, as_flag = _text, _choice, _points, _flag
