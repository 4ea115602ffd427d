"""Zombie 40,000 (``zombie40k.md``): its configs, teams, mods, compiled tables, results, report
sections, trace and commands; ``RULESET`` is what the shared layers see (``sim.ruleset``)."""

from sim.rulesets.zombie40k.ruleset import RULESET

__all__ = ["RULESET"]
