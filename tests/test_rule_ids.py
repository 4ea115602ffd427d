"""Every rule id the code cites can be looked up in the clone: docs/ids/<page>.md lists it.

The ids are read from (a) each ruleset's parameters, their ``tag`` ("A19", "W8", "D23", "Q3")
and ``spec`` ("§5.1, W1", "core §8, §12", "A3/D2") as `shamble params` prints them, and (b) the
text of every source file under kernels/ and sim/ that belongs to one ruleset or to the shared
7th-edition code (comments, docstrings, help texts: `# outwest §12`, `core §7.3`, `(A19)`).

Which page an id belongs to:
- ``core §N`` / ``core-7th-edition §N`` / ``catalogue §N`` -> docs/ids/core.md (shared by Zombie
  40,000 and Zombie Apocalypse), ``zombie40k §N``, ``apocalypse §N``, ``zombie-apocalypse §N``,
  ``outwest §N`` -> that ruleset's page, wherever they are written;
- a bare ``§N`` -> the page of the folder's ruleset; in kernels/w40k and sim/w40k (the shared
  7th-edition code) the core rules; a ``§`` right after another (``core §8, §12``,
  ``§6.2-§6.4``) takes the first one's book;
- a reading id (a letter and a number) -> the folder's ruleset, for the letters its spec uses
  (``READING_LETTERS``); the shared 7th-edition folders cite none (their "A1" is an Attacks value).
A step of a section (``core §7.1.6``, step 6 of §7.1) is looked up as its section.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sim.ruleset import all_rulesets

ROOT = Path(__file__).resolve().parents[1]
IDS = ROOT / "docs" / "ids"
FOLDER_PAGE = {"zombie40k": "zombie40k", "apocalypse": "apocalypse", "outwest": "outwest",
               "zombies9": "zombies9", "w40k": "core"}
BOOK_PAGE = {"core": "core", "core-7th-edition": "core", "catalogue": "core", "zombie40k": "zombie40k",
             "apocalypse": "apocalypse", "zombie-apocalypse": "apocalypse", "outwest": "outwest"}
BOOK_KEY = {"core-7th-edition": "core"}  # how core.md names the book of an id (`core §6.5`)
READING_LETTERS = {"zombie40k": "A", "apocalypse": "APV", "outwest": "WP", "zombies9": "ABDQ", "core": ""}

SECTION = re.compile(r"(?:\b(?P<book>core-7th-edition|zombie-apocalypse|core|Core|catalogue|zombie40k|apocalypse"
                     r"|outwest)(?:\.md`*)?[\s(]+)?§(?P<number>\d+(?:\.\d+)*)")  # `catalogue.md`` §2` too
# what may stand between `§8` and `§12` of one book: `, `, ` and `, `-`, `core §6.1 step 6, §9.4`
CHAINED = re.compile(r"(?:[\s,;/&()-]|\band\b|\bor\b|\bto\b|\bstep \d+|\bresult \d+)*")
READING = re.compile(r"\b([A-Z])(\d{1,2})\b")
ENTRY = re.compile(r"^- \*\*(?P<key>(?:core |catalogue )?§\d+(?:\.\d+)?|[A-Z]\d{0,2})\*\*", re.M)


def page_keys(page: str) -> set[str]:
    """The ids docs/ids/<page>.md lists: a line each, `- **§6.2** ...`, `- **A19** ...`."""
    path = IDS / f"{page}.md"
    return set(ENTRY.findall(path.read_text(encoding="utf-8"))) if path.exists() else set()


def section_key(book: str, number: str) -> str:
    """'§7.1' from '7.1.6' (a step of §7.1); core.md keeps the book: 'core §6.5', 'catalogue §3.2'."""
    key = "§" + ".".join(number.split(".")[:2])
    return f"{BOOK_KEY.get(book, book)} {key}" if BOOK_PAGE[book] == "core" else key


def sections(text: str, page: str) -> list[tuple[str, str, int]]:
    """(page, id, offset) of each § citation of ``text``, whose bare §s belong to ``page``."""
    found, last_book, last_end = [], None, -1
    for m in SECTION.finditer(text):
        book = m["book"].lower() if m["book"] else None
        if book is None and last_book and CHAINED.fullmatch(text[last_end:m.start()]):
            book = last_book
        book = book or {"core": "core"}.get(page, page)
        found.append((BOOK_PAGE[book], section_key(book, m["number"]), m.start()))
        last_book, last_end = book, m.end()
    return found


def readings(text: str, page: str) -> list[tuple[str, str, int]]:
    """(page, id, offset) of each reading id (`A19`, `W26`, `Q3`) ``text`` cites for ``page``."""
    return [(page, m[0], m.start()) for m in READING.finditer(text) if m[1] in READING_LETTERS[page]]


def source_citations() -> list[tuple[str, str, str]]:
    """(page, id, 'file:line') of every citation in kernels/ and sim/ files of a ruleset."""
    cited = []
    for top in ("kernels", "sim/rulesets", "sim"):
        for folder, page in FOLDER_PAGE.items():
            for path in sorted((ROOT / top / folder).glob("**/*.py")):
                text = path.read_text(encoding="utf-8")
                for book, key, at in sections(text, page) + readings(text, page):
                    line = text.count("\n", 0, at) + 1
                    cited.append((book, key, f"{path.relative_to(ROOT)}:{line}"))
    return cited


def parameter_citations() -> list[tuple[str, str, str]]:
    """(page, id, 'ruleset parameter NAME') of every id in a parameter's tag or spec text."""
    cited = []
    for rs in all_rulesets():
        page = FOLDER_PAGE.get(rs.id)
        if page is None:
            continue
        for p in rs.parameters():
            where = f"{rs.id} parameter {p.name}"
            found = readings(p.tag, page) + sections(p.spec, page) + readings(p.spec, page)
            found += [(page, "C", 0)] if rs.id == "zombies9" and "C" in re.split(r"[/ ]", p.spec) else []
            cited += [(book, key, where) for book, key, _ in found]
    return cited


def missing(cited: list[tuple[str, str, str]]) -> list[str]:
    keys = {page: page_keys(page) for page in set(FOLDER_PAGE.values())}
    return sorted({f"{key} (cited by {where}) is not listed in docs/ids/{page}.md"
                   for page, key, where in cited if key not in keys[page]})


@pytest.mark.parametrize("page", sorted(set(FOLDER_PAGE.values())))
def test_each_ruleset_has_an_id_page(page):
    assert len(page_keys(page)) >= 10, f"docs/ids/{page}.md lists no rule ids (`- **§N** ...` lines)"


def test_parameter_ids_are_listed():
    """The tags and spec sections `shamble params` prints can be looked up."""
    cited = parameter_citations()
    assert len(cited) > 300, "the parameters cite fewer ids than they do: is the reader broken?"
    problems = missing(cited)
    assert not problems, "\n".join(problems)


def test_source_ids_are_listed():
    """The rule ids cited in kernels/ and sim/ (comments, docstrings, help) can be looked up."""
    cited = source_citations()
    assert len(cited) > 1000, "the code cites fewer ids than it does: is the reader broken?"
    problems = missing(cited)
    assert not problems, "\n".join(problems)


def test_the_reader_follows_books_and_chains():
    """`core §8, §12` is core twice; a bare § is the folder's book; `§7.1.6` is §7.1; `D6` is dice here."""
    assert [(p, k) for p, k, _ in sections("core §8, §12 and §6.2-§6.4", "apocalypse")] == [
        ("core", "core §8"), ("core", "core §12"), ("core", "core §6.2"), ("core", "core §6.4")]
    assert [k for _, k, _ in sections("(§3.1 A8), then core-7th-edition §7.1.6; later §2", "zombie40k")] == [
        "§3.1", "core §7.1", "§2"]
    assert [(p, k) for p, k, _ in sections("catalogue §3.2", "outwest")] == [("core", "catalogue §3.2")]
    assert [k for _, k, _ in readings("roll a D6 (A19, P2, W3)", "apocalypse")] == ["A19", "P2"]
    assert page_keys("no-such-page") == set()
