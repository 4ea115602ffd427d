"""A unit's points per model as a `sim.ruleset.Price` of ``shamble rebalance``: the grid both
7th-edition rulesets price it on (Zombie 40,000 and Zombie Apocalypse ``per-model`` modes).

The catalogue prices a unit per model (whole points) or per block of models (``block_cost /
block_models``), so a cost moves in steps of one point, or of 1/``block_models`` of a point; it
stays within its catalogue cost / ``COST_SPAN`` and x ``COST_SPAN``, and at most ``max_cost``.
"""

from __future__ import annotations

import math
from fractions import Fraction

from sim.ruleset import Price
from sim.w40k.catalogue import Catalogue

COST_SPAN = 3  # a unit's cost stays within its catalogue cost / 3 and x 3


def on_grid(value: Fraction, step: Fraction, up: bool) -> Fraction:
    """``value`` rounded up or down to a multiple of ``step``."""
    k = value / step
    return step * (math.ceil(k) if up else math.floor(k))


def unit_price(cat: Catalogue, base: Catalogue, unit: str, sides: tuple[str, ...], max_cost: Fraction) -> Price:
    """The price of ``unit`` at its cost in ``cat`` (the config's prices), bounded around its cost
    in ``base`` (the catalogue's own), changing the play of ``sides``."""
    entry, catalogue_cost = cat.unit(unit), base.unit(unit).cost_per_model
    step = Fraction(1, entry.block_models)
    low = max(step, on_grid(catalogue_cost / COST_SPAN, step, up=True))
    high = min(on_grid(max_cost, step, up=False), on_grid(catalogue_cost * COST_SPAN, step, up=False))
    return Price(unit, entry.cost_per_model, step, low, high, sides)
