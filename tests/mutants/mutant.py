"""A named mutant: one small source patch that breaks one numbered rule of a ruleset's spec.

``rule`` cites the spec (``W12``, ``§5.4``, ``zombie40k §6.2``, ``core §7.3``, ``A25``, ``Q6``);
``path`` is relative to the repository root; ``old`` must occur exactly once in that file (else
the mutant is STALE: the code moved under it); ``new`` replaces it; ``breaks`` says in one line
what the patched code gets wrong.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Mutant:
    name: str
    rule: str
    path: str
    old: str
    new: str
    breaks: str

    def count(self, root: Path = ROOT) -> int:
        """How many times the snippet occurs in the file under ``root`` (1 = applicable)."""
        f = root / self.path
        return f.read_text().count(self.old) if f.is_file() else 0

    def apply(self, root: Path) -> str:
        """Patch the file under ``root``; returns the original text (to restore it)."""
        f = root / self.path
        text = f.read_text()
        f.write_text(text.replace(self.old, self.new, 1))
        return text
