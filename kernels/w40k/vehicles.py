"""Attacks against a vehicle: the armour penetration roll and the vehicle damage table (V3-V6).

The V ids are the 7th-edition vehicle rules of docs/apocalypse.md ("Vehicles (7th-edition core)"),
listed in docs/ids/apocalypse.md with their sources.

A hit on a vehicle rolls for armour penetration instead of to wound (V3): D6 + the
attack's Strength against the Armour Value of the facing hit; equal is a glancing hit, higher a
penetrating hit. Each glancing or penetrating hit removes one Hull Point; a penetrating hit also
rolls a D6 on the vehicle damage table, plus the modifiers of the attack's AP and of an
Open-topped vehicle (V4, V5). Melta at half range or less and Armourbane add a D6 to the
penetration roll, Rending adds a D3 for each penetration die that shows a 6, Lance counts an
Armour Value above 12 as 12, and a Haywire hit rolls a D6 instead (1 nothing, 2-5 glancing,
6 penetrating) (V6).

An attack is an int64 ``vspec`` (columns ``VS_*`` below), filled by ``vehicle_spec``; the
reading of the damage table and of the AP modifiers are arrays (``damage_table`` int64[8], the
result of a modified roll of 0..7+; ``ap_mods`` int64[8], the modifier of AP 1..7, index 7 =
AP '-'), which ``sim.w40k.vehicle_exact.VehicleRules`` compiles. Counters go to an int64 row of
``VO_*`` columns. The decisions (``penetration_kind``, ``haywire_kind``, ``damage_result``)
take rolled dice only, so tests feed them by hand; ``sim.w40k.vehicle_exact`` computes the same
distributions in closed form and the tests hold one against the other.
"""

from __future__ import annotations

from kernels.dice import d3
from kernels.jit import njit, njit_parallel, prange
from kernels.rng import d6

# ---- an attack against a vehicle: int64[N_VSPEC] -----------------------------------------
# VS_HIT_ON: D6 needed to hit (1 = hits automatically, 7 = cannot hit); VS_HIT_REROLL: 1 re-rolls a
# failed to-hit die once (twin-linked); VS_STRENGTH: the attack's S; VS_ARMOUR: the Armour Value
# it is rolled against (Lance already applied); VS_PEN_DICE: D6s of the penetration roll (1, or 2
# with Melta at half range or Armourbane); VS_RENDING, VS_HAYWIRE: 0/1; VS_AP: 1-6, 7 = '-';
# VS_OPEN_TOPPED: 1 when the target is Open-topped.
(VS_HIT_ON, VS_HIT_REROLL, VS_STRENGTH, VS_ARMOUR, VS_PEN_DICE, VS_RENDING, VS_HAYWIRE, VS_AP,
 VS_OPEN_TOPPED) = range(9)
N_VSPEC = 9

# ---- the kind of a hit, and the damage results (V4, V5) ------------------------------
HIT_NONE, HIT_GLANCING, HIT_PENETRATING = 0, 1, 2
DMG_NONE, DMG_CREW_SHAKEN, DMG_CREW_STUNNED, DMG_WEAPON_DESTROYED, DMG_IMMOBILISED, DMG_EXPLODES = range(6)
N_DAMAGE = 6
DAMAGE_NAMES = ("none", "Crew Shaken", "Crew Stunned", "Weapon Destroyed", "Immobilised", "Explodes!")
MAX_MODIFIED_ROLL = 7  # a modified damage roll of 7 or more reads as 7 (V5: "7+")

# ---- counters of one game: int64[N_VOUT] --------------------------------------------------
# VO_HITS hits scored; VO_GLANCING, VO_PENETRATING hits of each kind; VO_HULL_POINTS Hull Points
# removed (one a glancing or penetrating hit, uncapped: the caller compares with the vehicle's);
# VO_RESULT + r - 1: damage results r (DMG_CREW_SHAKEN..DMG_EXPLODES); VO_WORST the highest result.
VO_HITS, VO_GLANCING, VO_PENETRATING, VO_HULL_POINTS = range(4)
VO_RESULT = 4
VO_WORST = VO_RESULT + N_DAMAGE - 1
N_VOUT = VO_WORST + 1


# ------------------------------------------------------------------ decisions on rolled dice


@njit
def lance_armour(armour, lance):
    """Lance: an Armour Value above 12 counts as 12 (V6)."""
    return min(armour, 12) if lance else armour


@njit
def penetration_kind(total, armour):
    """D6 + S (+ extra dice) against the Armour Value: equal glancing, higher penetrating (V3)."""
    if total > armour:
        return HIT_PENETRATING
    return HIT_GLANCING if total == armour else HIT_NONE


@njit
def haywire_kind(die):
    """Haywire's D6 instead of the penetration roll: 1 nothing, 2-5 glancing, 6 penetrating (V6)."""
    if die == 6:
        return HIT_PENETRATING
    return HIT_GLANCING if die >= 2 else HIT_NONE


@njit
def damage_modifier(ap, open_topped, ap_mods):
    """The damage roll's modifier: the attack's AP (``ap_mods[ap]``) and +1 against Open-topped (V5)."""
    return ap_mods[ap] + (1 if open_topped else 0)


@njit
def damage_result(die, modifier, damage_table):
    """The damage table's result for a D6 ``die`` plus ``modifier`` (0 or less reads as 0, 7+ as 7)."""
    roll = min(max(die + modifier, 0), MAX_MODIFIED_ROLL)
    return damage_table[roll]


# ------------------------------------------------------------------ dice at the edge


@njit
def vehicle_spec(vspec, hit_on, hit_reroll, strength, armour, ap, melta_half_range, armourbane, rending, haywire,
                 lance, open_topped):
    """Fill ``vspec`` for one attack against a vehicle (V3-V6)."""
    vspec[VS_HIT_ON] = hit_on
    vspec[VS_HIT_REROLL] = 1 if hit_reroll else 0
    vspec[VS_STRENGTH] = strength
    vspec[VS_ARMOUR] = lance_armour(armour, lance)
    vspec[VS_PEN_DICE] = 2 if (melta_half_range or armourbane) else 1
    vspec[VS_RENDING] = 1 if rending else 0
    vspec[VS_HAYWIRE] = 1 if haywire else 0
    vspec[VS_AP] = ap
    vspec[VS_OPEN_TOPPED] = 1 if open_topped else 0


@njit
def roll_hit(rng, g, hit_on, reroll):
    """Whether one attack hits: automatic for ``hit_on`` 1 or less, else a D6 (a failure re-rolled once)."""
    if hit_on <= 1:
        return True
    if d6(rng, g) >= hit_on:
        return True
    return reroll != 0 and d6(rng, g) >= hit_on


@njit
def roll_penetration(rng, g, vspec):
    """S + the penetration dice, each 6 adding a D3 with Rending (V3, V6)."""
    total = vspec[VS_STRENGTH]
    for _ in range(vspec[VS_PEN_DICE]):
        die = d6(rng, g)
        total += die
        if vspec[VS_RENDING] != 0 and die == 6:
            total += d3(rng, g)
    return total


@njit
def roll_hit_kind(rng, g, vspec):
    """Glancing, penetrating or nothing for one hit (Haywire rolls its own D6)."""
    if vspec[VS_HAYWIRE] != 0:
        return haywire_kind(d6(rng, g))
    return penetration_kind(roll_penetration(rng, g, vspec), vspec[VS_ARMOUR])


@njit
def resolve_vehicle_hit(rng, g, vspec, ap_mods, damage_table, out):
    """One hit on a vehicle: its kind, the Hull Point it removes and, if penetrating, the damage
    roll; adds to the counters ``out`` (int64[N_VOUT]) and returns the damage result (0: none)."""
    kind = roll_hit_kind(rng, g, vspec)
    if kind == HIT_NONE:
        return DMG_NONE
    out[VO_HULL_POINTS] += 1
    if kind == HIT_GLANCING:
        out[VO_GLANCING] += 1
        return DMG_NONE
    out[VO_PENETRATING] += 1
    result = damage_result(d6(rng, g), damage_modifier(vspec[VS_AP], vspec[VS_OPEN_TOPPED], ap_mods), damage_table)
    if result != DMG_NONE:
        out[VO_RESULT + result - 1] += 1
        out[VO_WORST] = max(out[VO_WORST], result)
    return result


@njit
def resolve_vehicle_attacks(rng, g, n_dice, vspec, ap_mods, damage_table, out):
    """``n_dice`` attacks of ``vspec`` at one vehicle: to hit, then each hit resolved."""
    for _ in range(n_dice):
        if roll_hit(rng, g, vspec[VS_HIT_ON], vspec[VS_HIT_REROLL]):
            out[VO_HITS] += 1
            resolve_vehicle_hit(rng, g, vspec, ap_mods, damage_table, out)


@njit_parallel
def vehicle_attacks_batch(rng, n_dice, vspec, ap_mods, damage_table, out):
    """For every game g: ``n_dice`` attacks of ``vspec`` at a vehicle, counters to ``out[g]``
    (int64[n, N_VOUT]); nothing depends on which thread plays a game."""
    for g in prange(rng.shape[0]):
        for k in range(N_VOUT):
            out[g, k] = 0
        resolve_vehicle_attacks(rng, g, n_dice, vspec, ap_mods, damage_table, out[g])
