"""Rule data of Zombies Out West (sim/data/outwest/*.toml), read and validated once.

``weapons()`` (guns and melee weapons, §2.2), ``posse()`` (the default posse and the class kits),
``result_tables()`` (§5.6 location table, §7.4 and §7.5 hit tables) and ``town(path)`` (the
terrain rectangles). A bad file is one `DataError` line naming the file, the entry and what is
allowed.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "data" / "outwest"
BANDS = ("point_blank", "close", "medium", "long", "extreme")
GUN_FIELDS = {"profile": str, "rolls": int, "reload_after_fire": bool, "blaze": bool, "shotgun": bool,
              "max_band": str, "two_hands": bool, "splash": bool, "muzzle_loader": bool, "capacity": int,
              "pistol_effect": bool}
RESULT_WORDS = {"graze": 1, "flesh": 2, "serious": 4, "down": 8, "out": 16, "arm": 32, "no_move": 64, "leg": 128,
                "dead": 256}  # kernels.outwest.layout R_*
ZOMBIE_HIT_WORDS = ("push", "down", "bite", "plague", "devour")  # ZH_*
HUMAN_HIT_WORDS = ("push", "down", "destroy")  # HZ_*
TERRAIN_KINDS = ("open", "building", "dense", "loose")  # TERRAIN_*


class DataError(ValueError):
    """A bad rule-data file; one line."""


def _read(path: Path) -> dict:
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except OSError as err:
        raise DataError(f"{path}: cannot be read ({err.strerror})") from None
    except tomllib.TOMLDecodeError as err:
        raise DataError(f"{path}: not valid TOML ({err})") from None


@dataclass(frozen=True)
class Gun:
    name: str
    profile: str
    rolls: int
    reload_after_fire: bool
    blaze: bool
    shotgun: bool
    max_band: str
    two_hands: bool
    splash: bool
    muzzle_loader: bool
    capacity: int
    pistol_effect: bool


@dataclass(frozen=True)
class Weapons:
    guns: dict  # name -> Gun, in file order (the kernels' weapon rows)
    melee: dict  # name -> "effective" | "limited"


@functools.cache
def weapons(path: Path = DATA / "weapons.toml") -> Weapons:
    raw = _read(path)
    guns = {}
    for name, row in raw.get("guns", {}).items():
        where = f"{path.name}: guns.{name}"
        if not isinstance(row, dict) or set(row) != set(GUN_FIELDS):
            raise DataError(f"{where}: needs exactly the fields {', '.join(GUN_FIELDS)}")
        for key, kind in GUN_FIELDS.items():
            if not isinstance(row[key], kind) or (kind is int and isinstance(row[key], bool)):
                raise DataError(f"{where}: {key} = {row[key]!r}; allowed: {kind.__name__}")
        if row["profile"] not in ("pistol", "rifle"):
            raise DataError(f"{where}: profile = {row['profile']!r}; allowed: pistol, rifle")
        if row["max_band"] not in BANDS:
            raise DataError(f"{where}: max_band = {row['max_band']!r}; allowed: {', '.join(BANDS)}")
        if not 1 <= row["rolls"] <= 10 or not 1 <= row["capacity"] <= 100:
            raise DataError(f"{where}: rolls 1-10 and capacity 1-100 allowed")
        guns[name] = Gun(name, **row)
    melee = dict(raw.get("melee", {}))
    for name, kind in melee.items():
        if kind not in ("effective", "limited"):
            raise DataError(f"{path.name}: melee.{name} = {kind!r}; allowed: effective, limited")
    if not guns or not melee:
        raise DataError(f"{path.name}: needs [guns.<name>] tables and a [melee] table")
    return Weapons(guns, melee)


@dataclass(frozen=True)
class PosseData:
    characters: tuple  # the default posse, rows of posse.toml
    kits: dict  # class -> {"guns": [...], "melee": name}; "gunman_alt" for every second Gunman


@functools.cache
def posse(path: Path = DATA / "posse.toml") -> PosseData:
    raw = _read(path)
    rows = raw.get("character", [])
    kits = raw.get("kits", {})
    need = {"legend", "shootist", "gunman", "gunman_alt", "citizen"}
    if not rows or not need <= set(kits):
        raise DataError(f"{path.name}: needs [[character]] rows and kits for {', '.join(sorted(need))}")
    return PosseData(tuple(dict(r) for r in rows), {k: dict(v) for k, v in kits.items()})


def _result_bits(cell: str, where: str) -> int:
    bits = 0
    for word in str(cell).split("+"):
        if word.strip() not in RESULT_WORDS:
            raise DataError(f"{where}: result {word!r}; allowed: {', '.join(RESULT_WORDS)} joined by '+'")
        bits |= RESULT_WORDS[word.strip()]
    return bits


def _row(values, words, where: str) -> list[int]:
    if not isinstance(values, list) or len(values) != 6 or any(v not in words for v in values):
        raise DataError(f"{where}: needs 6 results (one per D6), each one of {', '.join(words)}")
    return [words.index(v) for v in values]


@dataclass(frozen=True)
class ResultTables:
    location_names: tuple  # location die 1-6
    location: tuple  # 6 rows of 6 result bit masks
    zombie_hits: dict  # "basic" / "plague" -> 6 ZH_* codes
    human_hits: dict  # "limited" / "effective" -> 6 HZ_* codes


@functools.cache
def result_tables(path: Path = DATA / "tables.toml") -> ResultTables:
    raw = _read(path)
    loc = raw.get("location", {})
    order = loc.get("order", [])
    if len(order) != 6:
        raise DataError(f"{path.name}: location.order must list the 6 locations, die 1 to 6")
    rows = []
    for name in order:
        cells = loc.get(name)
        if not isinstance(cells, list) or len(cells) != 6:
            raise DataError(f"{path.name}: location.{name} needs 6 results, one per effect die 1-6")
        rows.append(tuple(_result_bits(c, f"{path.name}: location.{name}") for c in cells))
    zh = {k: _row(raw.get("zombie_hits", {}).get(k), ZOMBIE_HIT_WORDS, f"{path.name}: zombie_hits.{k}")
          for k in ("basic", "plague")}
    hh = {k: _row(raw.get("human_hits", {}).get(k), HUMAN_HIT_WORDS, f"{path.name}: human_hits.{k}")
          for k in ("limited", "effective")}
    return ResultTables(tuple(order), tuple(rows), zh, hh)


@dataclass(frozen=True)
class Terrain:
    name: str
    kind: str
    rect: tuple  # x0, y0, x1, y1 inches


@functools.cache
def town(path: str = "default") -> tuple[Terrain, ...]:
    """The terrain of a town file ("default": the packaged town; "open": none)."""
    if path == "open":
        return ()
    file = DATA / "town.toml" if path == "default" else Path(path)
    raw = _read(file)
    out = []
    for k, row in enumerate(raw.get("terrain", [])):
        where = f"{file.name}: terrain[{k}]"
        if not isinstance(row, dict) or set(row) - {"name", "kind", "rect"} or "rect" not in row:
            raise DataError(f"{where}: needs name, kind and rect = [x0, y0, x1, y1]")
        rect = row["rect"]
        if not isinstance(rect, list) or len(rect) != 4 or not all(isinstance(v, int | float) for v in rect) \
                or rect[0] >= rect[2] or rect[1] >= rect[3]:
            raise DataError(f"{where}: rect = {rect!r}; allowed: [x0, y0, x1, y1] with x0 < x1 and y0 < y1")
        kind = row.get("kind", "building")
        if kind not in TERRAIN_KINDS[1:]:
            raise DataError(f"{where}: kind = {kind!r}; allowed: {', '.join(TERRAIN_KINDS[1:])}")
        out.append(Terrain(str(row.get("name", kind)), kind, tuple(float(v) for v in rect)))
    return tuple(out)
