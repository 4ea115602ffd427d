"""Compile the rule dataclasses into the integer arrays the kernels read (design.md decision 2).

- ``wound_chart()`` / ``ws_chart()``: core-7th-edition §6.5 and §7.3 as 11 x 11 arrays.
- ``weapon_row`` / ``weapon_table``: a ``Weapon`` as int64[N_WFIELDS] (kernels.w40k.columns W_*).
- ``model_stats`` / ``model_flags``: a ``Profile`` as int16[N_STATS] and an int64 rule mask.
- ``Geometry``: the [C] numbers of the blast/template abstraction (docs/space.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import astuple, dataclass, fields

import numpy as np

from kernels.w40k import columns as L
from sim.w40k.profiles import BLAST_SIZES, WEAPON_KINDS, Profile, Weapon, parse_strength

NONE = L.NONE


def wound_roll_needed(strength: int, toughness: int) -> int:
    """core-7th-edition §6.5: d = S - T; d >= 2 -> 2+, 1 -> 3+, 0 -> 4+, -1 -> 5+, -2/-3 -> 6+,
    less -> cannot wound (7)."""
    d = strength - toughness
    if d >= 2:
        return 2
    if d <= -4:
        return NONE
    return {1: 3, 0: 4, -1: 5, -2: 6, -3: 6}[d]


def ws_roll_needed(attacker_ws: int, defender_ws: int) -> int:
    """core-7th-edition §7.3: 3+ if the attacker's WS is higher, 5+ if the defender's is more
    than double, else 4+."""
    if attacker_ws > defender_ws:
        return 3
    if defender_ws > 2 * attacker_ws:
        return 5
    return 4


def wound_chart() -> np.ndarray:
    """int64[11, 11]: to-wound roll by [S, T]; row/column 0 unused (7)."""
    chart = np.full((11, 11), NONE, dtype=np.int64)
    for s in range(1, 11):
        for t in range(1, 11):
            chart[s, t] = wound_roll_needed(s, t)
    return chart


def ws_chart() -> np.ndarray:
    """int64[11, 11]: close combat to-hit roll by [attacker WS, defender WS]."""
    chart = np.empty((11, 11), dtype=np.int64)
    for a in range(11):
        for d in range(11):
            chart[a, d] = ws_roll_needed(a, d)
    return chart


WEAPON_RULE_BITS = {
    "twin_linked": L.WR_TWIN_LINKED,
    "rending": L.WR_RENDING,
    "poisoned": L.WR_POISONED,
    "fleshbane": L.WR_FLESHBANE,
    "shred": L.WR_SHRED,
    "gets_hot": L.WR_GETS_HOT,
    "sniper": L.WR_SNIPER,
    "gauss": L.WR_GAUSS,
    "bladestorm": L.WR_BLADESTORM,
    "tesla": L.WR_TESLA,
    "concussive": L.WR_CONCUSSIVE,
    "blind": L.WR_BLIND,
    "instant_death": L.WR_INSTANT_DEATH,
    "melta": L.WR_MELTA,
    "graviton": L.WR_GRAVITON,
    "pinning": L.WR_PINNING,
    "force": L.WR_FORCE,
    "unwieldy": L.WR_UNWIELDY,
    "specialist": L.WR_SPECIALIST,
    "two_handed": L.WR_TWO_HANDED,
    "armourbane": L.WR_ARMOURBANE,
    "soul_blaze": L.WR_SOUL_BLAZE,
    "daemonbane": L.WR_DAEMONBANE,
    "psi_shock": L.WR_PSI_SHOCK,
    "target_acquired": L.WR_TARGET_ACQUIRED,
    "ignores_cover": L.WR_IGNORES_COVER,
    "assault_grenade": L.WR_ASSAULT_GRENADE,
    "defensive_grenade": L.WR_DEFENSIVE_GRENADE,
    "no_damage": L.WR_NO_DAMAGE,
}

MODEL_RULE_BITS = {
    "eternal_warrior": L.MR_EW,
    "fearless": L.MR_FEARLESS,
    "and_they_shall_know_no_fear": L.MR_ATSKNF,
    "counter_attack": L.MR_COUNTER_ATTACK,
    "crusader": L.MR_CRUSADER,
    "furious_charge": L.MR_FURIOUS_CHARGE,
    "hammer_of_wrath": L.MR_HAMMER_OF_WRATH,
    "hatred": L.MR_HATRED,
    "preferred_enemy": L.MR_PREFERRED_ENEMY,
    "rage": L.MR_RAGE,
    "rampage": L.MR_RAMPAGE,
    "relentless": L.MR_RELENTLESS,
    "rending": L.MR_RENDING,
    "shred": L.MR_SHRED,
    "smash": L.MR_SMASH,
    "fleshbane": L.MR_FLESHBANE,
    "poisoned": L.MR_POISONED,
    "blind": L.MR_BLIND,
    "shrouded": L.MR_SHROUDED,
    "stealth": L.MR_STEALTH,
    "slow_and_purposeful": L.MR_SLOW_AND_PURPOSEFUL,
    "stubborn": L.MR_STUBBORN,
    "move_through_cover": L.MR_MOVE_THROUGH_COVER,
    "fleet": L.MR_FLEET,
    "bounding_leap": L.MR_BOUNDING_LEAP,
    "ere_we_go": L.MR_ERE_WE_GO,
    "it_will_not_die": L.MR_IT_WILL_NOT_DIE,
    "concussive": L.MR_CONCUSSIVE,
    "split_fire": L.MR_SPLIT_FIRE,
    "sweeping_advance_allowed": L.MR_SWEEP_ALLOWED,
    "battle_focus": L.MR_BATTLE_FOCUS,
    "mob_rule": L.MR_MOB_RULE,
    "supporting_fire": L.MR_SUPPORTING_FIRE,
    "psyker": L.MR_PSYKER,
    "brotherhood_of_psykers": L.MR_PSYKER,
    "dodge": L.MR_DODGE,
    "combat_drugs": L.MR_COMBAT_DRUGS,
    "power_from_pain": L.MR_POWER_FROM_PAIN,
    "mandiblasters": L.MR_MANDIBLASTERS,
    "veterans_of_the_long_war": L.MR_VOTLW,
}

UNIT_RULE_MASK = L.MR_UNIT_RULES  # zombie40k §9: rules that benefit the whole unit


def weapon_row(weapon: Weapon) -> np.ndarray:
    """int64[N_WFIELDS]: one weapon as the kernels see it."""
    row = np.zeros(L.N_WFIELDS, dtype=np.int64)
    mode, value = parse_strength(weapon.strength, f"weapon {weapon.name!r}")
    row[L.W_RANGE] = int(round(weapon.range_in))
    row[L.W_SMODE], row[L.W_SVAL] = mode, value
    row[L.W_AP] = weapon.ap
    row[L.W_KIND] = WEAPON_KINDS.index(weapon.kind)
    row[L.W_SHOTS] = weapon.shots
    row[L.W_SHOTS_STAT] = weapon.shots_stationary
    row[L.W_BLAST] = BLAST_SIZES.index(weapon.blast)
    row[L.W_TEMPLATE] = int(weapon.template)
    row[L.W_FLAGS] = rule_mask(weapon.rules, WEAPON_RULE_BITS)
    row[L.W_POISON_ON] = weapon.poisoned_on
    row[L.W_SHOTS_FROM_A] = int(weapon.shots_from_attacks)
    row[L.W_SCHG_MODE], row[L.W_SCHG_VAL] = (-1, 0)
    if weapon.strength_on_charge:
        row[L.W_SCHG_MODE], row[L.W_SCHG_VAL] = parse_strength(weapon.strength_on_charge)
    row[L.W_AP_CHG] = weapon.ap_on_charge
    return row


def weapon_table(weapons: Iterable[Weapon]) -> np.ndarray:
    """int64[n_weapons, N_WFIELDS], one row per weapon in the given order."""
    rows = [weapon_row(w) for w in weapons]
    return np.array(rows, dtype=np.int64).reshape(len(rows), L.N_WFIELDS)


def rule_mask(rules: Iterable[str], bits: dict[str, int]) -> int:
    """OR of the bits of the rules the kernels act on (others have no kernel effect)."""
    mask = 0
    for rule in rules:
        mask |= bits.get(rule, 0)
    return mask


def model_stats(profile: Profile) -> np.ndarray:
    """int16[N_STATS]: a profile's characteristics, saves and Feel No Pain."""
    row = np.zeros(L.N_STATS, dtype=np.int16)
    for name, col in (("ws", L.WS), ("bs", L.BS), ("s", L.S), ("t", L.T), ("w", L.W),
                      ("i", L.I), ("a", L.A), ("ld", L.LD), ("sv", L.SV), ("inv", L.INV),
                      ("inv_melee", L.INV_CC), ("fnp", L.FNP)):
        row[col] = getattr(profile, name)
    row[L.RP] = 5 if profile.has("reanimation_protocols") else NONE
    if profile.has("feel_no_pain") and profile.fnp == NONE:
        row[L.FNP] = 5  # core-7th-edition §6.8: 5+ if no number
    if profile.has("shield_of_faith"):
        row[L.INV] = min(row[L.INV], 6)
    if profile.has("veterans_of_the_long_war"):
        row[L.LD] = min(10, row[L.LD] + 1)  # core §12: +1 Ld (and Hatred (Space Marines), a kernel rule)
    return row


def model_flags(profile: Profile) -> int:
    """int64 rule mask of a profile (kernels.w40k.columns MR_*)."""
    return rule_mask(profile.rules, MODEL_RULE_BITS)


@dataclass(frozen=True)
class Geometry:
    """How blasts and templates meet a unit in the unit abstraction (docs/space.md). [C]

    A 3" marker centred on one model of a unit in 2" coherency covers about 3 models, a 5"
    marker about 6; each inch of scatter beyond the marker's radius takes one model out from
    under it; a template covers about 4 models of a unit in its path.
    """

    blast_small_models: int = 3
    blast_large_models: int = 6
    blast_small_radius: int = 1
    blast_large_radius: int = 2
    template_models: int = 4

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 30:
                raise ValueError(f"geometry: {f.name} = {value!r}; allowed: an integer 0-30")

    def array(self) -> np.ndarray:
        return np.array(astuple(self), dtype=np.int64)
