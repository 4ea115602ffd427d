"""Zombie Apocalypse (``zombie-apocalypse.md``): its armies, configs, compiled tables, results, report
sections and trace; ``RULESET`` is what the shared layers see (``sim.ruleset``)."""

from sim.rulesets.apocalypse.ruleset import RULESET

__all__ = ["RULESET"]
