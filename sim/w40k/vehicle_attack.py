"""Attacks against one vehicle: N attack dice of one profile at one facing (V3-V6).

``VehicleRules`` holds the readings of the rules text a ruleset chooses (the damage table and the
AP modifiers; docs/apocalypse.md, "Vehicles (7th-edition core)") and compiles them into the
kernels' arrays; ``VehicleAttack`` describes the attack; ``simulate_vehicle_attacks`` plays it
in the kernels (one game per stream); ``sim.w40k.exact_vehicles.vehicle_odds`` computes its exact
distribution, and the tests hold one against the other.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from kernels.rng import new_streams
from kernels.w40k import vehicles as V
from sim.w40k.profiles import NO_AP, Weapon, effective_strength
from sim.w40k.vehicles import VehicleEntry

# V5 as the 7th-edition rulebook prints it, and the 6th edition's table (the other reading):
# the result of a modified damage roll of 0, 1, ..., 7 or more
DAMAGE_TABLES = {
    "7th": (V.DMG_CREW_SHAKEN,) * 4 + (V.DMG_CREW_STUNNED, V.DMG_WEAPON_DESTROYED, V.DMG_IMMOBILISED,
                                       V.DMG_EXPLODES),
    "6th": (V.DMG_CREW_SHAKEN,) * 3 + (V.DMG_CREW_STUNNED, V.DMG_WEAPON_DESTROYED, V.DMG_IMMOBILISED,
                                       V.DMG_EXPLODES, V.DMG_EXPLODES),
}
# V5: the damage roll's modifier by the attack's AP (1-6, 7 = '-'); "5th" is the older +1/-1
AP_MODIFIERS = {
    "7th": {1: 2, 2: 1, NO_AP: -1},
    "5th": {1: 1, NO_AP: -1},
}
MAX_DICE = 400


@dataclass(frozen=True)
class VehicleRules:
    """The readings of V5 a ruleset plays: ``damage_table`` ("7th" or "6th") and
    ``ap_modifiers`` ("7th": AP1 +2, AP2 +1, AP- -1; "5th": AP1 +1, AP- -1)."""

    damage_table: str = "7th"
    ap_modifiers: str = "7th"

    def __post_init__(self) -> None:
        if self.damage_table not in DAMAGE_TABLES:
            raise ValueError(f"damage_table = {self.damage_table!r}; allowed: {', '.join(DAMAGE_TABLES)}")
        if self.ap_modifiers not in AP_MODIFIERS:
            raise ValueError(f"ap_modifiers = {self.ap_modifiers!r}; allowed: {', '.join(AP_MODIFIERS)}")

    def result(self, roll: int) -> int:
        """The damage result of a modified roll (0 or less reads as 0, 7 or more as 7)."""
        return DAMAGE_TABLES[self.damage_table][min(max(roll, 0), V.MAX_MODIFIED_ROLL)]

    def ap_modifier(self, ap: int) -> int:
        return AP_MODIFIERS[self.ap_modifiers].get(ap, 0)

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """(ap_mods int64[8] by AP 1..7, damage_table int64[8] by modified roll 0..7)."""
        ap_mods = np.array([0] + [self.ap_modifier(ap) for ap in range(1, NO_AP + 1)], dtype=np.int64)
        return ap_mods, np.array(DAMAGE_TABLES[self.damage_table], dtype=np.int64)


@dataclass(frozen=True)
class VehicleAttack:
    """``n_dice`` attacks (shots or close combat attacks) of Strength ``strength`` and AP ``ap``
    against a facing of Armour Value ``armour``.

    ``hit_on``: the D6 needed to hit (1 = automatic, 7 = cannot; V7 for close combat),
    ``hit_reroll``: a failed to-hit die is re-rolled once (twin-linked). ``melta_half_range``:
    Melta at half range or less; ``armourbane``, ``rending``, ``haywire``, ``lance``: the weapon's
    rules (V6); ``open_topped``: the target is Open-topped; ``hull_points``: the target's
    Hull Points left (for the chance to wreck it); ``facing``: the facing ``armour`` is (V2, V7;
    a label: the odds read ``armour``).
    """

    strength: int
    armour: int
    ap: int = NO_AP
    n_dice: int = 1
    hit_on: int = 1
    hit_reroll: bool = False
    melta_half_range: bool = False
    armourbane: bool = False
    rending: bool = False
    haywire: bool = False
    lance: bool = False
    open_topped: bool = False
    hull_points: int = 3
    facing: str = "front"
    rules: VehicleRules = field(default_factory=VehicleRules)

    def __post_init__(self) -> None:
        checks = (("strength", 1, 10), ("armour", 9, 14), ("ap", 1, NO_AP), ("n_dice", 0, MAX_DICE),
                  ("hit_on", 1, 7), ("hull_points", 1, 9))
        for name, lo, hi in checks:
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
                raise ValueError(f"{name} = {value!r}; allowed: an integer {lo}-{hi}")

    @property
    def armour_rolled(self) -> int:
        """The Armour Value the penetration roll is against (Lance: 12 at most)."""
        return min(self.armour, 12) if self.lance else self.armour

    @property
    def pen_dice(self) -> int:
        return 2 if (self.melta_half_range or self.armourbane) else 1

    def spec(self) -> np.ndarray:
        """The kernels' int64 vspec (kernels.w40k.vehicles VS_*)."""
        vspec = np.zeros(V.N_VSPEC, dtype=np.int64)
        V.vehicle_spec(vspec, self.hit_on, self.hit_reroll, self.strength, self.armour, self.ap,
                       self.melta_half_range, self.armourbane, self.rending, self.haywire, self.lance,
                       self.open_topped)
        return vspec


def vehicle_attack(weapon: Weapon, user_s: int, vehicle: VehicleEntry, facing: str, n_dice: int = 1,
                   hit_on: int = 1, *, half_range: bool = False, strength_bonus: int = 0,
                   rules: VehicleRules | None = None) -> VehicleAttack:
    """``n_dice`` attacks of a catalogue ``weapon`` (its user's S ``user_s``, plus ``strength_bonus``
    such as the Hordes bonus, V9; 10 at most) at ``facing`` of ``vehicle`` (V1-V6): Melta counts
    at ``half_range``, Armourbane, Rending and twin-linked are the weapon's, Open-topped the
    vehicle's. A weapon of no Strength (S 'X') cannot hurt a vehicle: ValueError."""
    strength = effective_strength(weapon.strength, user_s)
    if strength <= 0:
        raise ValueError(f"{weapon.name!r} has no Strength (S 'X'): it cannot hurt a vehicle")
    return VehicleAttack(strength=min(10, strength + strength_bonus), armour=vehicle.armour(facing), ap=weapon.ap,
                         n_dice=n_dice, hit_on=hit_on, hit_reroll="twin_linked" in weapon.rules,
                         melta_half_range=half_range and "melta" in weapon.rules,
                         armourbane="armourbane" in weapon.rules, rending="rending" in weapon.rules,
                         open_topped=vehicle.open_topped, hull_points=vehicle.hull_points, facing=facing,
                         rules=rules or VehicleRules())


def simulate_vehicle_attacks(attack: VehicleAttack, n_games: int, seed: int, first_game: int = 0) -> np.ndarray:
    """Play the attack once per game in the kernels.

    Returns
    -------
    int64[n_games, N_VOUT]: per game the counters of kernels.w40k.vehicles (VO_HULL_POINTS...).
    """
    rng = new_streams(seed, n_games, first_game)
    ap_mods, table = attack.rules.arrays()
    out = np.zeros((n_games, V.N_VOUT), dtype=np.int64)
    V.vehicle_attacks_batch(rng, attack.n_dice, attack.spec(), ap_mods, table, out)
    return out
