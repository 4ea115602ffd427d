"""The map tiles and event cards as editable TOML (``sim/data/zombies9/``), validated.

``load_tiles(path)`` and ``load_cards(path)`` read a file into frozen `Tile` / `Card` records;
every problem is a one-line `DataError` naming the file, the entry and the field, the value and
what is allowed. The packaged files are the spec's tables (A3, A11, B2, B7), placeholders
flagged as such.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "zombies9"
BASE_TILES = DATA_DIR / "tiles.toml"
Z9_TILES = DATA_DIR / "z9_tiles.toml"
BASE_CARDS = DATA_DIR / "cards.toml"
Z9_CARDS = DATA_DIR / "z9_cards.toml"

SQUARES = {"#": 0, "R": 1, "B": 2, "D": 3}  # kernels.zombies9.layout K_*
EDGES = "NESW"
ROLES = ("plain", "start", "helipad", "entrance", "crematorium", "fourway")  # layout R_*
TAGS = ("base", "fan", "default", "Z9")
EFFECTS = (  # kernels.zombies9.layout E_*, in order
    "adrenaline_rush", "all_the_marbles", "alternate_food_source", "bad_sense_of_direction", "brain_cramp",
    "butter_fingers", "chainsaw", "claustrophobia", "fear", "fire_axe", "first_aid_kit", "grenade", "shotgun",
    "hysterical_paralysis", "not_dead", "could_not_get_worse", "lots_of_ammo", "molotov_cocktail",
    "much_needed_rest", "skateboard", "slight_miscalculation", "keys_still_in_it", "this_isnt_so_bad",
    "were_screwed", "where_did_everybody_go", "shoe_untied", "zombie_master", "dust_to_dust", "little_problem",
    "cancel",  # D21: played only in reply, the card it answers does nothing (no printed card has it)
)
ITEM_EFFECTS = frozenset({"all_the_marbles", "chainsaw", "fire_axe", "first_aid_kit", "grenade", "lots_of_ammo",
                          "molotov_cocktail", "skateboard"})
AUTOMATIC_EFFECTS = frozenset({"dust_to_dust", "little_problem"})
CARD_TYPES = ("self", "opponent", "zombies", "global", "item", "automatic", "reply")


class DataError(ValueError):
    """A bad tile or card file; the message is one line."""


@dataclass(frozen=True)
class Tile:
    """One map tile type (A3, B2): its printed numbers, layout (rows north first) and role."""

    name: str
    count: int
    zombies: int
    life: int
    bullets: int
    exits: str
    layout: tuple[str, str, str]
    role: str = "plain"
    town_side: str = ""
    tag: str = "fan"
    layout_tag: str = "fan"
    placeholder: bool = False
    z9: bool = False

    @property
    def named(self) -> bool:
        """A named building tile: its B and D squares form one building (A2)."""
        return any(ch in row for row in self.layout for ch in "BD")

    @property
    def cemetery(self) -> bool:
        """B8 terms: a tile with "Cemetery" in its name (the Pet Cemetery included)."""
        return "cemetery" in self.name.lower()

    @property
    def pet(self) -> bool:
        return self.name.lower() == "pet cemetery"

    def square(self, row: int, col: int) -> int:
        return SQUARES[self.layout[row][col]]


@dataclass(frozen=True)
class Card:
    """One event card kind (A11, B7)."""

    name: str
    copies: int
    effect: str
    value: int
    type: str = "self"
    building: str = ""
    also_building: str = ""
    automatic: bool = False
    tag: str = "fan"
    placeholder: bool = False
    text: str = ""


def read_toml(path: Path, kind: str) -> dict:
    try:
        return tomllib.loads(Path(path).read_text())
    except FileNotFoundError:
        raise DataError(f"{path}: no such {kind} file") from None
    except IsADirectoryError:
        raise DataError(f"{path}: is a folder, not a {kind} file") from None
    except OSError as err:
        raise DataError(f"{path}: cannot be read ({err.strerror or type(err).__name__})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise DataError(f"{path}: not valid TOML ({str(err).splitlines()[0]})") from None
    except ValueError:
        raise DataError(f"{str(path)!r}: not a usable file name") from None


def _field(row: dict, name: str, kind, where: str, default=None, low: int | None = None, high: int | None = None):
    if name not in row:
        if default is None:
            raise DataError(f"{where}: field {name!r} is missing")
        return default
    value = row[name]
    if kind is int and (not isinstance(value, int) or isinstance(value, bool)):
        raise DataError(f"{where}: {name} = {value!r}; allowed: a whole number")
    if kind is bool and not isinstance(value, bool):
        raise DataError(f"{where}: {name} = {value!r}; allowed: true or false")
    if kind is str and not isinstance(value, str):
        raise DataError(f"{where}: {name} = {value!r}; allowed: a string")
    if kind is int and ((low is not None and value < low) or (high is not None and value > high)):
        raise DataError(f"{where}: {name} = {value!r}; allowed: {low}-{high}")
    return value


TILE_FIELDS = {"name", "count", "zombies", "life", "bullets", "exits", "layout", "role", "town_side", "tag",
               "layout_tag", "placeholder"}
CARD_FIELDS = {"name", "copies", "type", "effect", "value", "building", "also_building", "automatic", "tag",
               "placeholder", "text"}


def _entries(data: dict, key: str, source: str, allowed: set[str]) -> list[tuple[str, dict]]:
    unknown = set(data) - {key}
    if unknown:
        raise DataError(f"{source}: unknown table {sorted(unknown)[0]!r}; allowed: [[{key}]]")
    rows = data.get(key)
    if not isinstance(rows, list) or not rows:
        raise DataError(f"{source}: no [[{key}]] entries")
    out = []
    for k, row in enumerate(rows):
        name = row.get("name") if isinstance(row, dict) else None
        where = f"{source}: {key}[{k}]" + (f" {name!r}" if isinstance(name, str) else "")
        if not isinstance(row, dict):
            raise DataError(f"{where}: must be a table")
        extra = set(row) - allowed
        if extra:
            raise DataError(f"{where}: unknown field {sorted(extra)[0]!r}; allowed: {', '.join(sorted(allowed))}")
        out.append((where, row))
    return out


def _tile(where: str, row: dict, z9: bool) -> Tile:
    name = _field(row, "name", str, where)
    layout = row.get("layout")
    if not (isinstance(layout, list) and len(layout) == 3
            and all(isinstance(r, str) and len(r) == 3 and set(r) <= set(SQUARES) for r in layout)):
        raise DataError(f"{where}: layout = {layout!r}; allowed: three rows of three of R B D #")
    exits = _field(row, "exits", str, where)
    if not exits or set(exits) - set(EDGES) or len(set(exits)) != len(exits):
        raise DataError(f"{where}: exits = {exits!r}; allowed: edges among N E S W, each once")
    role = _field(row, "role", str, where, "plain")
    if role not in ROLES:
        raise DataError(f"{where}: role = {role!r}; allowed: {', '.join(ROLES)}")
    tile = Tile(
        name=name, count=_field(row, "count", int, where, low=0, high=20),
        zombies=_field(row, "zombies", int, where, low=0, high=9),
        life=_field(row, "life", int, where, low=0, high=9), bullets=_field(row, "bullets", int, where, low=0, high=9),
        exits=exits, layout=tuple(layout), role=role, town_side=_field(row, "town_side", str, where, ""),
        tag=_field(row, "tag", str, where, "fan"), layout_tag=_field(row, "layout_tag", str, where, "fan"),
        placeholder=_field(row, "placeholder", bool, where, False), z9=z9,
    )
    _check_tile(where, tile)
    return tile


def _check_tile(where: str, t: Tile) -> None:
    for tag_field in ("tag", "layout_tag"):
        if getattr(t, tag_field) not in TAGS:
            raise DataError(f"{where}: {tag_field} = {getattr(t, tag_field)!r}; allowed: {', '.join(TAGS)}")
    middles = {"N": (0, 1), "E": (1, 2), "S": (2, 1), "W": (1, 0)}
    for edge, (r, c) in middles.items():
        if (edge in t.exits) != (t.layout[r][c] == "R"):
            raise DataError(f"{where}: exits = {t.exits!r} but the middle of edge {edge} is "
                            f"{t.layout[r][c]!r}; allowed: a road exit exactly where that square is R")
    squares = [(r, c) for r in range(3) for c in range(3) if t.layout[r][c] in "BD"]
    if squares and not any(t.layout[r][c] == "D" for r, c in squares):
        raise DataError(f"{where}: a named building without a door; allowed: at least one D square")
    for r, c in squares:
        if t.layout[r][c] == "D" and not any(t.layout[rr][cc] == "R" for rr, cc in _around(r, c)):
            raise DataError(f"{where}: the door at row {r + 1}, column {c + 1} touches no road square")
    if squares and _unreachable(t, squares):
        raise DataError(f"{where}: building squares not joined to a door; allowed: every B reachable from a D")
    places = len(squares) if t.named else sum(ch == "R" for row in t.layout for ch in row)
    if t.zombies > 2 * places:
        raise DataError(f"{where}: zombies = {t.zombies} on {places} {'building' if t.named else 'road'} squares; "
                        "allowed: at most two each (an adult and a kid, B6)")
    if t.role == "entrance" and (len(t.town_side) != 1 or t.town_side not in t.exits
                                 or _opposite(t.town_side) not in t.exits):
        raise DataError(f"{where}: town_side = {t.town_side!r}; allowed: an exit edge whose opposite edge is an exit")
    if t.cemetery and t.exits != "NESW" and set(t.exits) != set(EDGES):
        raise DataError(f"{where}: a Cemetery tile with exits {t.exits!r}; allowed: NESW (Cemetery tiles are "
                        "four-way, B3)")
    if t.role == "fourway" and set(t.exits) != set(EDGES):
        raise DataError(f"{where}: a four-way tile with exits {t.exits!r}; allowed: NESW")


def _around(r: int, c: int):
    for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= rr < 3 and 0 <= cc < 3:
            yield rr, cc


def _opposite(edge: str) -> str:
    return EDGES[(EDGES.index(edge) + 2) % 4]


def _unreachable(t: Tile, squares) -> bool:
    todo = [(r, c) for r, c in squares if t.layout[r][c] == "D"]
    seen = set(todo)
    while todo:
        r, c = todo.pop()
        for rr, cc in _around(r, c):
            if (rr, cc) not in seen and t.layout[rr][cc] in "BD":
                seen.add((rr, cc))
                todo.append((rr, cc))
    return len(seen) != len(squares)


@cache
def load_tiles(path: str | Path, z9: bool = False) -> tuple[Tile, ...]:
    """The tiles of a file (``z9``: they are Zombies!!! 9 tiles, the graveyard)."""
    source = str(path)
    tiles = tuple(_tile(where, row, z9) for where, row in _entries(read_toml(Path(path), "tile"), "tile", source,
                                                                      TILE_FIELDS))
    names = [t.name for t in tiles]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise DataError(f"{source}: tile {sorted(dup)[0]!r} is listed twice; allowed: one entry per name (use count)")
    return tiles


def _card(where: str, row: dict) -> Card:
    effect = _field(row, "effect", str, where)
    if effect not in EFFECTS:
        raise DataError(f"{where}: effect = {effect!r}; allowed: {', '.join(EFFECTS)}")
    typ = _field(row, "type", str, where, "self")
    if typ not in CARD_TYPES:
        raise DataError(f"{where}: type = {typ!r}; allowed: {', '.join(CARD_TYPES)}")
    card = Card(
        name=_field(row, "name", str, where), copies=_field(row, "copies", int, where, low=0, high=60),
        effect=effect, value=_field(row, "value", int, where, low=0, high=10), type=typ,
        building=_field(row, "building", str, where, ""), also_building=_field(row, "also_building", str, where, ""),
        automatic=_field(row, "automatic", bool, where, False), tag=_field(row, "tag", str, where, "fan"),
        placeholder=_field(row, "placeholder", bool, where, False), text=_field(row, "text", str, where, ""),
    )
    if card.tag not in TAGS:
        raise DataError(f"{where}: tag = {card.tag!r}; allowed: {', '.join(TAGS)}")
    if (effect in ITEM_EFFECTS) != bool(card.building):
        need = "a building (an item card)" if effect in ITEM_EFFECTS else "no building (not an item)"
        raise DataError(f"{where}: building = {card.building!r} with effect {effect!r}; allowed: {need}")
    if (effect in AUTOMATIC_EFFECTS) != card.automatic:
        raise DataError(f"{where}: automatic = {card.automatic} with effect {effect!r}; allowed: "
                        f"{str(effect in AUTOMATIC_EFFECTS).lower()}")
    return card


@cache
def load_cards(path: str | Path) -> tuple[Card, ...]:
    source = str(path)
    cards = tuple(_card(where, row) for where, row in _entries(read_toml(Path(path), "card"), "card", source,
                                                                 CARD_FIELDS))
    names = [c.name for c in cards]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise DataError(f"{source}: card {sorted(dup)[0]!r} is listed twice; allowed: one entry per name (use copies)")
    return cards
