"""Exact odds of attacks at a vehicle, from catalogue names: ``shamble apocalypse odds ATTACKER --target Rhino``.

``vehicle_odds_report("Tactical Marine", "Rhino", weapon="Krak grenade", models=5, melee=True)``
builds the attack the rules describe and returns its exact odds (`sim.w40k.exact_vehicles`), and,
when asked, the same attack played in the kernels beside them:

- **Dice** (core-7th-edition §6.2, §7.3, §12): as `shamble odds` counts them (`sim.w40k.odds.build_exchange`:
  Rapid Fire, Salvo, Heavy, close combat Attacks and the charge); a grenade in close combat is one
  attack a model (V8, `vehicle_grenade_attacks = "one"`).
- **To hit**: shooting by BS (core §6.3; Snap Shots 6+); close combat against a vehicle that is not
  a Walker by how far it moved (V7, `vehicle_assault_hits = "auto_4_6"`: did not move automatic,
  up to 6" 4+, more 6+), against a Walker WS against WS (core §7.3; Dull Witted zombies only on a 6
  when the Walker's WS is higher, apocalypse §5).
- **Facing**: shooting strikes the facing the firer stands in (V2, ``facing``, default front);
  close combat strikes a non-walker's rear and a Walker's front (V7).
- **Strength**: the weapon's, with the Hordes bonus of a zombie horde of ``models`` in close
  combat (+1 a full ``bonus_per`` models, S 10 at most; apocalypse §5, V9).

Errors are `ValueError` with one line naming the option and what it allows.
"""

from __future__ import annotations

from kernels.w40k import vehicles as V
from sim.rulesets.apocalypse.catalogue import catalogue, vehicles
from sim.w40k.exact import RANGED_TO_HIT
from sim.w40k.exact_vehicles import vehicle_odds
from sim.w40k.odds import build_exchange, resolve_weapon
from sim.w40k.tables import ws_roll_needed
from sim.w40k.vehicle_attack import VehicleAttack, VehicleRules, simulate_vehicle_attacks, vehicle_attack
from sim.w40k.vehicles import FACINGS

ZOMBIES = ("Zombie", "Juggernaut", "First Zombie")  # apocalypse §4: the horde's models (Hordes, §5)
VEHICLE_MOVES = {"stationary": 1, "combat": 4, "fast": 6}  # V7 auto_4_6: to hit in close combat by its last move
BONUS_PER = 10  # apocalypse §5: +1 Strength a full ten models (the `bonus_per` parameter's default)
MAX_SIMULATE = 10_000_000


def _vehicle(target: str):
    found = vehicles(catalogue())
    allowed = sorted(name for name, v in found.items() if "flyer" not in v.types)  # apocalypse §2: no Flyer
    if target not in allowed:
        why = "a Flyer (apocalypse §2 refuses them)" if target in found else "not a vehicle of the catalogue"
        raise ValueError(f"--target {target!r}: {why}; allowed: {', '.join(allowed)}")
    return found[target]


def _hit_on(attacker, vehicle, *, melee: bool, snap: bool, vehicle_moved: str, zombie: bool) -> int:
    """The D6 an attack die needs to hit (1: automatic)."""
    if not melee:
        if snap:
            return 6
        need, need2 = RANGED_TO_HIT.get(attacker.bs, (7, 0))
        if need2:
            raise ValueError(f"BS {attacker.bs}: the re-roll of BS 6 or more is not in the vehicle odds; "
                             "allowed: BS 1-5")
        return need
    if vehicle.is_walker:  # V7: a Walker fights as a model
        need = ws_roll_needed(attacker.ws, vehicle.ws)
        return 6 if zombie and vehicle.ws > attacker.ws else need  # apocalypse §5 Dull Witted
    if vehicle_moved not in VEHICLE_MOVES:
        raise ValueError(f"--vehicle-moved {vehicle_moved!r}; allowed: {', '.join(VEHICLE_MOVES)}")
    return VEHICLE_MOVES[vehicle_moved]


def build_vehicle_attack(attacker: str, target: str, *, weapon: str | None = None, facing: str | None = None,
                         models: int = 1, dice: int | None = None, melee: bool = False, charge: bool = False,
                         half_range: bool = False, moved: bool = False, snap: bool = False,
                         vehicle_moved: str = "stationary", rules: VehicleRules | None = None) -> VehicleAttack:
    """The `VehicleAttack` of ``models`` ``attacker`` models (``weapon``) at ``target`` (module docstring)."""
    vehicle = _vehicle(target)
    cat = catalogue()
    if melee and facing is not None:
        raise ValueError("--facing: close combat strikes a vehicle's rear, a Walker's front (V7); give it only "
                         "when shooting")
    if facing is not None and facing not in FACINGS:
        raise ValueError(f"--facing {facing!r}; allowed: {', '.join(FACINGS)}")
    facing = facing or _facing(vehicle, melee)
    zombie = attacker in ZOMBIES
    chosen = resolve_weapon(cat, weapon) if weapon is not None else None
    if melee and chosen is not None and chosen.kind == "grenade":  # V8: one grenade attack a model
        unit = cat.unit(attacker)
        n_dice, used, profile = (dice if dice is not None else models), chosen, unit.profile
    else:
        charge = charge and not zombie  # apocalypse §5 Zombie!: never the +1 Attack for charging
        exchange = build_exchange(attacker, weapon, "Zombie", models=models, dice=dice, melee=melee, charge=charge,
                                  half_range=half_range, moved=moved, snap=snap, catalogue=cat)
        n_dice, used, profile = exchange.n_dice, exchange.weapon, exchange.attacker
    hit_on = _hit_on(profile, vehicle, melee=melee, snap=snap, vehicle_moved=vehicle_moved, zombie=zombie)
    bonus = models // BONUS_PER if zombie and melee else 0  # apocalypse §5 Hordes, V9
    return vehicle_attack(used, profile.s, vehicle, facing, n_dice, hit_on, half_range=half_range,
                          strength_bonus=bonus, rules=rules)


def vehicle_odds_report(attacker: str, target: str, *, simulate: int = 0, seed: int = 0, **situation) -> dict:
    """The exact odds of `build_vehicle_attack(attacker, target, **situation)`, and, with ``simulate``,
    the means of that many kernel games beside them (z: their distance in standard errors)."""
    if not isinstance(simulate, int) or isinstance(simulate, bool) or not 0 <= simulate <= MAX_SIMULATE:
        raise ValueError(f"--simulate {simulate!r}; allowed: an integer 0-{MAX_SIMULATE} (games)")
    attack = build_vehicle_attack(attacker, target, **situation)
    odds = vehicle_odds(attack)
    hull = odds.hull_points_array()
    result = {
        "attacker": attacker, "target": target,
        "facing": attack.facing,
        "armour": attack.armour, "strength": attack.strength, "ap": attack.ap, "n_dice": attack.n_dice,
        "hit_on": attack.hit_on, "hull_points": attack.hull_points,
        "p_glancing": float(odds.p_glancing), "p_penetrating": float(odds.p_penetrating),
        "hull_points_removed": {"pmf": hull.tolist(), "mean": float((hull * range(len(hull))).sum())},
        "worst": dict(zip(V.DAMAGE_NAMES, odds.worst_array().tolist(), strict=True)),
        "expected_results": dict(zip(V.DAMAGE_NAMES, (float(x) for x in odds.expected_results), strict=True)),
        "p_wrecked": float(odds.p_wrecked), "simulated": None,
    }
    if simulate:
        result["simulated"] = _simulated(attack, simulate, seed, result)
    return result


def _facing(vehicle, melee: bool) -> str:
    """The facing struck when none is given: shooting the front (V2: where the firer stands);
    close combat a Walker's front and any other vehicle's rear (V7)."""
    return "front" if not melee or vehicle.is_walker else "rear"


def _simulated(attack: VehicleAttack, n_games: int, seed: int, exact: dict) -> dict:
    """The kernels' Hull Points removed and P(wrecked) over ``n_games``, with z against the exact values."""
    out = simulate_vehicle_attacks(attack, n_games, seed)
    hp = out[:, V.VO_HULL_POINTS].astype(float)
    wrecked = (hp >= attack.hull_points) | (out[:, V.VO_WORST] == V.DMG_EXPLODES)
    p = exact["p_wrecked"]
    pmf = exact["hull_points_removed"]["pmf"]
    mean = exact["hull_points_removed"]["mean"]
    sd = sum(q * (k - mean) ** 2 for k, q in enumerate(pmf)) ** 0.5
    return {"games": n_games, "seed": seed,
            "hull_points_mean": float(hp.mean()), "hull_points_z": _z(hp.mean(), mean, sd, n_games),
            "p_wrecked": float(wrecked.mean()), "p_wrecked_z": _z(wrecked.mean(), p, (p * (1 - p)) ** 0.5, n_games)}


def _z(got: float, want: float, sd: float, n: int) -> float:
    return 0.0 if sd == 0 else float((got - want) / (sd / n ** 0.5))
