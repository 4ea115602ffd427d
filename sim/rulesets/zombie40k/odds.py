"""Zombie 40,000's power-ups in an exchange of the 7th-edition core (``shamble odds``).

The core knows an extra re-roll, a save re-roll and wound cancels; Zombie 40,000 grants them as
power-ups: the Blessing of Chuck Norris on the attacker or the target (zombie40k §8 result 12,
A35) and Medpacks (§8 result 7, A33).
"""

from __future__ import annotations

from sim.rulesets.zombie40k.catalogue import catalogue
from sim.w40k.odds import MAX_CANCELS

NAMES = {"extra_reroll": "Blessing of Chuck Norris (attacker)", "save_reroll": "Blessing of Chuck Norris (target)",
         "cancels": "Medpacks"}


def odds_situation(chuck: bool = False, defender_chuck: bool = False, medpacks: int = 0) -> dict:
    """The keyword arguments of ``sim.w40k.odds.build_exchange`` for Zombie 40,000: its
    catalogue and these power-ups."""
    if not isinstance(medpacks, int) or isinstance(medpacks, bool) or not 0 <= medpacks <= MAX_CANCELS:
        raise ValueError(f"medpacks = {medpacks!r}; allowed: an integer 0-{MAX_CANCELS}")
    return {"extra_reroll": chuck, "save_reroll": defender_chuck, "cancels": medpacks, "names": NAMES,
            "catalogue": catalogue()}
