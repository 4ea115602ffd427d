"""The search space of `shamble tune`: a side's policy fields as the coordinates of CMA-ES.

A ruleset's policy is a frozen dataclass (what ``shamble policies --ruleset ID`` lists); every
field of it is a coordinate, of one of three kinds:

- **choice**: a field whose metadata lists ``choices`` (Zombies!!!'s ``goal``), or a bool. It is
  one continuous coordinate on ``[0, k]`` for ``k`` choices, read as the index ``floor(x)``
  (``k`` itself, the upper bound, reads as the last). CMA-ES treats it as a real number, so the
  choice a candidate plays changes only when the coordinate crosses a whole number, and the
  sampling distribution over the choices follows from the normal law of the coordinate. This is
  the plain encoding the cma documentation suggests for a categorical variable (an index of a
  continuous variable), with no integer handling so that a choice left behind can come back;
- **integer**: an ``int`` field (a code such as ``fight_in_contact`` 0-2, or a count). It goes to
  cma as an ``integer_variables`` coordinate with bounds ``[low - 0.5, high + 0.5]``, as cma's
  documentation recommends (its LB+IC integer handling, Marty et al. 2024: a lower bound on the
  coordinate's standard deviation so that it keeps mutating, integer centering, and bounds moved
  off the half so that a repaired value rounds into the range); cma hands back whole numbers;
- **number**: a ``float`` field, a plain bounded coordinate.

A string field without choices cannot be searched and is left out.

**Ranges.** The range a field *allows* comes from its metadata (``range``), from the policy
class's ``LIMITS`` table (Zombies Out West), or else by probing the policy's own validation
(``__post_init__``) with values either side of the start, by doubling then bisection (Zombie
40,000, Zombie Apocalypse). Many allowed ranges are far wider than play needs (0-100 inches on a
36" table), so the range *searched* is the allowed one when it is at most ``WIDE`` wide, else
it is cut at ``SPAN`` times the largest value any preset (or the start) gives the field, and at
least ``WIDE`` above its lowest value; the start value is always inside. ``--fields
name=low:high`` sets a field's searched range by hand (within the allowed one).

**Steps.** Each coordinate starts at the start policy's value with the standard deviation
``SIGMA0`` times its searched width (``CMA_stds``; cma's ``sigma0`` is 1).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields, is_dataclass, replace
from typing import Any

WIDE = 10.0  # a field allowing at most this width is searched whole
SPAN = 4.0  # else: up to this times the largest value the presets give it
SIGMA0 = 0.3  # each coordinate's first standard deviation, as a share of its searched width
PROBE_LIMIT = 1e6  # probing stops here: a field valid this far is taken as unbounded
RESOLUTION = 1000  # a number is rounded to about a thousandth of its searched width


class TuneError(ValueError):
    """Bad input to a tune (unknown side, field or range; a budget too small): one line."""


@dataclass(frozen=True)
class Dimension:
    """One policy field as a coordinate of the search (module docstring).

    ``kind`` is "choice", "integer" or "number"; ``low``/``high`` the searched range of a number
    or integer (``choices`` the values of a choice); ``allowed`` what the policy accepts;
    ``start`` the start policy's value.
    """

    name: str
    kind: str
    start: Any
    low: float = 0.0
    high: float = 0.0
    choices: tuple = ()
    allowed: tuple | None = None
    help: str = ""

    @property
    def bounds(self) -> tuple[float, float]:
        """The coordinate's bounds in cma's space."""
        if self.kind == "choice":
            return 0.0, float(len(self.choices))
        if self.kind == "integer":
            return self.low - 0.5, self.high + 0.5
        return float(self.low), float(self.high)

    @property
    def std(self) -> float:
        lo, hi = self.bounds
        return SIGMA0 * (hi - lo)

    def encode(self, value: Any) -> float:
        """The coordinate of a field value (a choice: the middle of its interval)."""
        if self.kind == "choice":
            return self.choices.index(value) + 0.5
        return float(value)

    def decode(self, x: float) -> Any:
        """The field value a coordinate plays (clipped into the searched range)."""
        if self.kind == "choice":
            return self.choices[min(max(int(math.floor(x)), 0), len(self.choices) - 1)]
        if self.kind == "integer":
            return int(min(max(math.floor(x + 0.5), self.low), self.high))
        width = self.high - self.low
        digits = max(0, math.ceil(-math.log10(width / RESOLUTION))) if width > 0 else 6
        return float(min(max(round(float(x), digits), self.low), self.high))

    def describe(self) -> dict:
        """JSON-able: name, kind, searched range or choices, allowed range, start, help."""
        out = {"name": self.name, "kind": self.kind, "start": self.start, "help": self.help}
        if self.kind == "choice":
            out["choices"] = list(self.choices)
        else:
            out["range"] = [self.low, self.high]
            out["allowed"] = None if self.allowed is None else list(self.allowed)
        return out


# ---------------------------------------------------------------------------- the space


def parse_fields(text: str | list | tuple | None) -> dict[str, tuple[float, float] | None]:
    """``"a,b=0:12,c"`` (or a list of such words) -> ``{"a": None, "b": (0, 12), "c": None}``."""
    if text is None:
        return {}
    words = text.split(",") if isinstance(text, str) else list(text)
    out: dict[str, tuple[float, float] | None] = {}
    for word in (str(w).strip() for w in words):
        if not word:
            continue
        name, equals, span = word.partition("=")
        if not equals:
            out[name.strip()] = None
            continue
        low, colon, high = span.partition(":")
        try:
            out[name.strip()] = (float(low), float(high))
        except ValueError:
            colon = ""
        if not colon or out[name.strip()][0] > out[name.strip()][1]:
            raise TuneError(f"--fields {word!r}: a range is written name=low:high with low <= high")
    if not out:
        raise TuneError(f"--fields {text!r}; allowed: policy field names, separated by commas")
    return out


def policy_space(ruleset, start: Any, chosen: Mapping[str, tuple[float, float] | None] | None = None,
                 ) -> list[Dimension]:
    """The coordinates of ``start``'s policy fields (``chosen``: only those, with the ranges given)."""
    if not is_dataclass(start):
        raise TuneError(f"{ruleset.id}: a policy that is not a table of fields cannot be tuned")
    presets = list(ruleset.policy_presets().values())
    help_ = ruleset.policy_help()
    dims = {f.name: _dimension(start, f, presets, help_.get(f.name, "")) for f in fields(start)}
    searchable = [name for name, d in dims.items() if d is not None]
    if not chosen:
        if not searchable:
            raise TuneError(f"{ruleset.id}: the policy has no field to tune")
        return [dims[name] for name in searchable]
    out = []
    for name, span in chosen.items():
        if name not in searchable:
            what = "cannot be searched (a text without choices)" if name in dims else "is no policy field"
            raise TuneError(f"--fields {name!r} {what}; allowed: {', '.join(searchable)}")
        out.append(dims[name] if span is None else _narrowed(dims[name], span))
    return out


def apply(policy: Any, dims: list[Dimension], values: tuple) -> Any:
    """``policy`` with each dimension's field set to its value."""
    return replace(policy, **{d.name: v for d, v in zip(dims, values)})


def decode(dims: list[Dimension], x) -> tuple:
    """The field values a point of cma's space plays (a candidate's key)."""
    return tuple(d.decode(float(xi)) for d, xi in zip(dims, x))


def _narrowed(d: Dimension, span: tuple[float, float]) -> Dimension:
    if d.kind == "choice":
        raise TuneError(f"--fields {d.name}={span[0]:g}:{span[1]:g}: {d.name} is a choice "
                        f"({', '.join(map(str, d.choices))}); a range is for numbers")
    lo, hi = d.allowed
    if not lo <= span[0] <= span[1] <= hi:
        raise TuneError(f"--fields {d.name}={span[0]:g}:{span[1]:g}; allowed: within {lo:g}-{hi:g}")
    low, high = (math.ceil(span[0]), math.floor(span[1])) if d.kind == "integer" else span
    if low > high:
        raise TuneError(f"--fields {d.name}={span[0]:g}:{span[1]:g}: no whole number in the range")
    return replace(d, low=low, high=high)


def _dimension(start: Any, f, presets: list, help_: str) -> Dimension | None:
    value = getattr(start, f.name)
    choices = tuple(f.metadata.get("choices", ()) or ())
    if choices:
        return Dimension(f.name, "choice", value, choices=choices, help=help_)
    if isinstance(value, bool):
        return Dimension(f.name, "choice", value, choices=(False, True), help=help_)
    if not isinstance(value, int | float):
        return None
    integer = isinstance(value, int)
    allowed = _allowed(start, f, integer)
    low, high = _searched(allowed, value, [getattr(p, f.name, value) for p in presets], integer)
    return Dimension(f.name, "integer" if integer else "number", value, low, high, allowed=allowed, help=help_)


def _allowed(start: Any, f, integer: bool) -> tuple[float, float]:
    limits = getattr(type(start), "LIMITS", None)
    if f.metadata.get("range"):
        return tuple(f.metadata["range"])
    if isinstance(limits, Mapping) and f.name in limits:
        return tuple(limits[f.name])
    value = getattr(start, f.name)
    return _edge(start, f.name, value, -1, integer), _edge(start, f.name, value, 1, integer)


def _valid(policy: Any, name: str, value: Any) -> bool:
    try:
        replace(policy, **{name: value})
    except (ValueError, TypeError):
        return False
    return True


def _edge(policy: Any, name: str, start: float, sign: int, integer: bool) -> float:
    """The last valid value from ``start`` toward ``sign`` (doubling, then bisection); +-inf when
    the field is valid beyond ``PROBE_LIMIT``."""
    good, step = start, 1
    while step <= PROBE_LIMIT:
        trial = start + sign * (step if integer else float(step))
        if not _valid(policy, name, trial):
            break
        good, step = trial, step * 2
    else:
        return sign * math.inf
    bad = start + sign * (step if integer else float(step))
    while abs(bad - good) > (1 if integer else 1e-9 * max(1.0, abs(bad))):
        mid = (good + bad) // 2 if integer else (good + bad) / 2
        if mid in (good, bad):
            break
        good, bad = (mid, bad) if _valid(policy, name, mid) else (good, mid)
    if not integer and _valid(policy, name, round(good, 6)):
        good = round(good, 6)
    return good


def _searched(allowed: tuple[float, float], start: float, preset_values: list, integer: bool) -> tuple:
    """The searched range of a number or integer (module docstring: ``WIDE``, ``SPAN``)."""
    lo, hi = allowed
    largest = max([abs(v) for v in preset_values if isinstance(v, int | float)] + [abs(start)])
    if hi - lo > WIDE:
        floor = lo if math.isfinite(lo) else -max(WIDE, SPAN * largest)
        hi = min(hi, max(floor + WIDE, SPAN * largest))
        lo = floor
    lo, hi = min(lo, start), max(hi, start)
    return (math.ceil(lo), math.floor(hi)) if integer else (float(lo), float(hi))
