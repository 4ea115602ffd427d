"""Zombie Apocalypse configuration: players (army, Warlord trait, policy) and every parameter of
``shared/rules/zombie-apocalypse.md``.

Every number the spec prints is a field tagged [V] with its section; every (default) of the spec's
ambiguity list is a field tagged with its entry (``A11``...) whose choices name the default reading
first and the alternative after; the numbers the simulator had to choose are tagged [C] with the
plausible range ``sensitivity`` plays. The players' behaviour (P3-P12) is a `Policy` of numbers.
Config files are TOML::

    ruleset = "apocalypse"
    [params]                 # any field of ApocalypseConfig
    foggy = false

    [[players]]
    name = "Ultramarines"
    army = "armies/ultramarines.toml"   # an army file, relative to this file, or an inline table
    trait = "tenacity"                  # a Warlord trait, "auto" (P8) or "none"
    policy = "staged"                   # a preset, or a table of Policy fields

Errors are ``ConfigError`` with one line naming the file, the field and what is allowed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from kernels.apocalypse.state import MAX_TERRAIN
from sim.rulesets.apocalypse.armies import (
    Army,
    ArmyError,
    army_from_dict,
    check_army,
    fit_army,
    load_army,
    read_toml,
)
from sim.rulesets.apocalypse.catalogue import catalogue, catalogue_at
from sim.w40k.catalogue import exact_table
from sim.w40k.tables import Geometry

RULESET_ID = "apocalypse"


class ConfigError(ValueError):
    """A bad configuration; the message is one line naming the file, the field and the value."""


def _p(default: Any, tag: str, spec: str, help_: str = "", choices: tuple = (), lo: float | None = None,
       hi: float | None = None, plausible: tuple | None = None) -> Any:
    meta = {"tag": tag, "spec": spec, "help": help_, "choices": choices, "range": None if lo is None else (lo, hi),
            "plausible": plausible}
    return field(default=default, metadata=meta)


# ---------------------------------------------------------------------------------- Warlord traits

TRAITS = ("none", "master_of_defence", "master_of_offence", "tenacity", "legendary_fighter", "inspiring_presence",
          "target_priority")  # index = kernels.apocalypse.columns TRAIT_*
TRAIT_TITLES = {"none": "no trait (baseline)", "master_of_defence": "Master of Defence",
                "master_of_offence": "Master of Offence", "tenacity": "Tenacity",
                "legendary_fighter": "Legendary Fighter", "inspiring_presence": "Inspiring Presence",
                "target_priority": "Target Priority"}


def trait_key(value: Any, where: str) -> str:
    """A trait name ("Tenacity", "master-of-defence", 3) as its key; "auto" stays "auto" (P8)."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(TRAITS):
        return TRAITS[value]
    key = str(value).strip().lower().replace("-", "_").replace(" ", "_")
    if key == "auto" or key in TRAITS:
        return key
    raise ConfigError(f"{where}: trait = {value!r}; allowed: auto, {', '.join(TRAITS)}")


# ---------------------------------------------------------------------------------- policies

PLANS = ("rush", "staged", "escort_first")


def _h(default: Any, text: str, range_: tuple = ()) -> Any:
    return field(default=default, metadata={"help": text, "range": range_} if range_ else {"help": text})


@dataclass(frozen=True)
class Policy:
    """How a player plays (P3-P12, docs/apocalypse.md); every field is a number a sweep can vary."""

    plan: int = _h(1, "P3: 0 rush to the zone, 1 staged (leave in time, Warlords last), 2 escort first (advance now)")
    warlord_plan: int = _h(-1, "P3 roles: the plan of the units holding a Warlord (-1 the player's plan; 0 rush, 1 "
                               "staged, 2 escort first): e.g. the army rushes as a screen, the Warlord runs in late")
    margin_turns: int = _h(1, "P3: whole turns of safety margin when staging")
    standoff_in: float = _h(2.0, "P3: how far outside the zone units wait for the escort to spring the Graveyard")
    aura_penalty_in: float = _h(6.0, "P3: inches of progress a move must gain for each model it leaves within 6\" of "
                                     "a spawner (aura_per_model = 1), or for ending there at all (0)")
    aura_per_model: int = _h(1, "P3: 1 the aura's cost counts every model that would take its wound (§10); 0 once "
                                "per spawner, whatever the models (the old cost)")
    run: int = _h(1, "P4: 0 never, 1 only when behind schedule, 2 always")
    shoot: int = _h(1, "P5: 0 never, 1 when expected kills beat expected noise or a horde threatens, 2 always")
    threat_in: float = _h(18.0, "P5, P12: a horde this close could charge next turn")
    fire_until: float = _h(1.5, "P5: models fire until their expected kills reach this x the horde (0 = all fire)")
    heavy_only_for_warlords: int = _h(1, "P5: heavy weapons fire only at hordes threatening a Warlord")
    reroll: int = _h(1, "P6: optional re-rolls to hit: 0 never, 1 at hordes within 12\" of a Warlord, 2 always")
    overwatch: int = _h(1, "P7: 0 never, 1 always when eligible")
    super_squad: int = _h(1, "P9: Warlords join one super squad once within reach")
    escort: int = _h(1, "P10: the non-Warlord unit with most Wounds enters the zone first")
    target: int = _h(1, "P12: 0 the closest horde; 1 closest to a Warlord, then Juggernaut bonus, then closest")
    charge: int = _h(0, "charge small hordes: 0 never, 1 hordes of at most charge_max models")
    charge_max: int = _h(5, "the largest horde a unit charges (with charge = 1)")
    bodyguard: int = _h(0, "1: the Warlord deploys joined to his detachment's biggest unit but the escort")
    force: int = _h(1, "psykers cast Force when a horde is within 12\"")
    merge: int = _h(1, "A3: two depleted units of one datasheet within 2\" of each other merge into one")
    grenade: int = _h(1, "core §6.1: one model throws a blast grenade instead of shooting: 0 never, 1 when its "
                         "expected kills beat its own weapon's, 2 whenever in range (8\")")
    removal: int = _h(1, "core §6.6: casualties taken 1 as a player would (plain troopers, then special weapons, the "
                         "sergeant, Independent Characters last), 0 in the order bought (weapon swaps first)")
    blind: int = _h(1, "core §8, §12: 1 a model with a defensive (Blind) grenade throws it at a horde within threat_in "
                       "that is not Blind yet; 0 a Blind grenade is weighed by its kills only")
    decisions: int = _h(0, "0 the rules above (P3-P12); 1 random-legal baseline: moves, shoot or Run, targets, "
                           "charges, Overwatch and Force drawn uniformly among the legal ones", (0, 1))
    disembark_in: float = _h(0.0, "V11: a squad gets out of its Dedicated Transport when the transport ends its move "
                                  "within this many inches of the squad's goal (or cannot move); 0: on the zone "
                                  "or at the standoff point")

    def __post_init__(self) -> None:
        limits = {"plan": (0, 2), "margin_turns": (0, 6), "run": (0, 2), "shoot": (0, 2),
                  "heavy_only_for_warlords": (0, 1), "reroll": (0, 2), "overwatch": (0, 1), "super_squad": (0, 1),
                  "escort": (0, 1), "target": (0, 1), "charge": (0, 1), "charge_max": (0, 500),
                  "bodyguard": (0, 1), "force": (0, 1), "merge": (0, 1), "grenade": (0, 2),
                  "blind": (0, 1), "aura_per_model": (0, 1), "removal": (0, 1),
                  "warlord_plan": (-1, 2), "decisions": (0, 1)}
        for name, (lo, hi) in limits.items():
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
                raise ConfigError(f"policy: {name} = {value!r}; allowed: an integer {lo}-{hi}")
        for name in ("standoff_in", "aura_penalty_in", "threat_in", "fire_until", "disembark_in"):
            value = getattr(self, name)
            if not isinstance(value, int | float) or isinstance(value, bool) or not 0 <= value <= 100:
                raise ConfigError(f"policy: {name} = {value!r}; allowed: 0-100 inches")


POLICY_PRESETS = {
    "staged": Policy(),
    "rush": Policy(plan=0, run=2, escort=0),
    "escort_first": Policy(plan=2),
    "quiet": Policy(shoot=0, reroll=0, run=0, overwatch=0),
    "gunline": Policy(shoot=2, heavy_only_for_warlords=0, reroll=2, fire_until=0.0),
    "stealth": Policy(plan=0, escort=0, shoot=0, reroll=0, overwatch=0, super_squad=0),
    "random": Policy(decisions=1),
}
PRESET_HELP = {
    "staged": "hold in the corners until the last safe turn; the escort springs the Graveyard, Warlords last (P3)",
    "rush": "every unit runs for the zone from turn 1, shooting only when worth its noise",
    "escort_first": "advance at once to the zone's edge; the escort goes in first, the Warlords after",
    "quiet": "staged, but never shoot, fire Overwatch or run: no noise but the jump packs'",
    "gunline": "shoot everything every turn, re-rolls included",
    "stealth": "head for the zone at once, never shoot nor fire Overwatch, Warlords apart (the best found)",
    "random": "random-legal baseline: moves, shoot or Run, targets, charges, Overwatch and Force drawn uniformly",
}


def policy_from(value: Any, where: str) -> Policy:
    if isinstance(value, Policy):
        return value
    if isinstance(value, str):
        key = value.strip().lower().replace("-", "_")
        if key not in POLICY_PRESETS:
            raise ConfigError(f"{where}: policy = {value!r}; allowed: {', '.join(POLICY_PRESETS)} or a table")
        return POLICY_PRESETS[key]
    if isinstance(value, dict):
        base = policy_from(value.get("preset", "staged"), where)
        known = [f.name for f in fields(Policy)]
        unknown = sorted(set(value) - set(known) - {"preset"})
        if unknown:
            raise ConfigError(f"{where}: unknown policy field {unknown[0]!r}; allowed: {', '.join(known)}")
        values = {k: (float(v) if isinstance(getattr(base, k), float) and isinstance(v, int) else v)
                  for k, v in value.items() if k != "preset"}
        try:
            return replace(base, **values)
        except ConfigError as err:
            raise ConfigError(f"{where}: {err}") from None
    raise ConfigError(f"{where}: policy must be a preset name or a table")


# ---------------------------------------------------------------------------------- players


@dataclass(frozen=True)
class PlayerConfig:
    """One player: a name, an army (§2), a Warlord trait (§7, P8) and a policy."""

    name: str
    army: Army
    trait: str = "auto"
    policy: Policy = field(default_factory=Policy)


# ---------------------------------------------------------------------------------- the config


@dataclass(frozen=True)
class ApocalypseConfig:
    """One Zombie Apocalypse set-up: players and every rule parameter (module docstring)."""

    players: tuple[PlayerConfig, ...]
    # §2-§3 armies, board, deployment (printed numbers)
    points_limit: int = _p(400, "V", "§2", "points per player", lo=50, hi=5000)
    fit_armies: bool = _p(True, "C", "§2", "a config file's [params] points_limit refits every army to it, as the "
                          "'points' axis does (and so do unit_costs and army_cost_factors there); false: the armies "
                          "play as listed, the limit only caps them")
    unit_costs: tuple[tuple[str, str], ...] = _p(
        (), "data", "§2", "points per model of catalogue units, replacing the catalogue's (a table unit = cost, e.g. "
        "{\"Ork Boy\" = 7, \"Tactical Marine\" = \"71/5\"}, in the unit's steps: 1/block of a point for a unit sold "
        "in blocks; a `shamble rebalance` proposal): armies are checked at these costs (what they may "
        "field; Legendary Fighter still reads the Warlord's printed points), and refitted to points_limit at them "
        "by a config file's [params] (fit_armies), the 'points' and 'lineup' axes and a rebalance")
    army_cost_factors: tuple[tuple[str, str], ...] = _p(
        (), "data", "§2", "a multiplier of an army's cost by army name (a table army = factor 0.5-2, e.g. "
        "{Goffs = 1.15}; a `shamble rebalance --mode multiplier` proposal): the army's points times it must fit "
        "points_limit; a budget, not a printed cost (Legendary Fighter reads the Warlord's own points)")
    game_turns: int = _p(7, "V", "§3.4",
                         "game turns played; the players' victory is checked at the end of the last (§13)", lo=1, hi=20)
    table_in: float = _p(48.0, "V", "§3.1", "the table is table_in x table_in", lo=24, hi=120)
    corner_in: float = _p(10.0, "V", "§3.2", "armies deploy wholly within this of their corner", lo=3, hi=30)
    scatter_dice: int = _p(3, "V", "§3.3", "spawn points scatter this many D6 (+ N) from the centre", lo=0, hi=8)
    exclusion_in: float = _p(6.0, "V", "§3.3", "no spawn point within this of a player model", lo=0, hi=24)
    start_dice: int = _p(2, "V", "§3.3", "starting zombies per spawn point: this many D6 (+ N)", lo=0, hi=8)
    # §9 spawning
    wave_start: int = _p(8, "V", "§9.1", "waves: (wave_start - t)D6 per spawn point on zombie turn t", lo=0, hi=20)
    edge_dice: int = _p(1, "V", "§9.1", "edge waves: this many D6 (+ N) per table edge", lo=0, hi=8)
    exchange_cost: int = _p(3, "V", "§9.1", "Zombies given up for one Juggernaut", lo=1, hi=20)
    noise_pistol: int = _p(1, "V", "§9.3", "zombies attracted by each Pistol that fires", lo=0, hi=20)
    noise_assault: int = _p(2, "V", "§9.3", "zombies attracted by each Assault weapon (or grenade) that fires",
                            lo=0, hi=20)
    noise_rapid_fire_d3: int = _p(1, "V", "§9.3", "Rapid Fire: this many D3", lo=0, hi=8)
    noise_heavy_d3: int = _p(2, "V", "§9.3", "Heavy: this many D3 (+ N)", lo=0, hi=8)
    noise_template: int = _p(4, "V", "§9.3", "a template adds this to its type's amount", lo=0, hi=20)
    noise_reroll_d3: int = _p(1, "V", "§9.3", "re-rolling to hit: + this many D3 per unit and phase", lo=0, hi=8)
    noise_psychic_untyped: int = _p(2, "V", "§9.3", "zombies attracted by a psychic power with no weapon type (Force)",
                                    lo=0, hi=20)
    infantry_noise_per: int = _p(2, "V", "§9.3", "infantry: 1 zombie per this many models that moved over 6\"",
                                 lo=1, hi=20)
    jump_noise_d3: int = _p(1, "V", "§9.3", "Jump Infantry moving over 6\": this many D3 + 2", lo=0, hi=8)
    bike_noise_d3: int = _p(3, "V", "§9.3", "bikes moving over 6\": this many D3 + 3", lo=0, hi=8)
    over12_noise_d3: int = _p(1, "V", "§9.3", "any unit moving over 12\": this many D3 + 2 more", lo=0, hi=8)
    # §5-§6, §10 rules
    graveyard: bool = _p(True, "mission", "§6", "the Graveyard mission rule")
    foggy: bool = _p(True, "mission", "§6", "the Foggy mission rule (Shrouded for every model)")
    graveyard_zombies: int = _p(20, "V", "§6", "Graveyard: this many Zombies (+ N)", lo=0, hi=200)
    graveyard_juggernauts: int = _p(2, "V", "§6", "Graveyard: this many Juggernauts join the ambush horde", lo=0, hi=50)
    aura_in: float = _p(6.0, "V", "§10", "spawner aura reach", lo=0, hi=24)
    aura_fear_modifier: int = _p(1, "V", "§10", "the aura's Fear test is at Ld minus this", lo=0, hi=10)
    spawner_blast_s: int = _p(5, "V", "§10", "Strength of the blast of a model removed by a spawner", lo=1, hi=10)
    merge_in: float = _p(2.0, "V", "§5", "hordes within this merge", lo=0, hi=12)
    bonus_per: int = _p(10, "V", "§5", "models per +1 of Hordes / Resilience / First Zombie", lo=1, hi=100)
    split_min: int = _p(20, "V", "§5", "each group of a split charge has at least this many zombies", lo=1, hi=200)
    plague_on: int = _p(5, "V", "§5", "The Plague: a model becomes a Brute on this D6", lo=2, hi=7)
    plague_ic_on: int = _p(6, "V", "§5", "an Independent Character: on this (+ wounds after the first)", lo=2, hi=12)
    resilience_inv: int = _p(6, "V", "§5",
                             "Resilience: a horde's invulnerable save, improved by 1 per bonus_per models", lo=2, hi=7)
    first_zombie_inv: int = _p(5, "V", "§5",
                               "the First Zombie's invulnerable save, improved by 1 per bonus_per models of his horde",
                               lo=2, hi=7)
    juggernaut_ratio: int = _p(10, "V", "§5", "Unstoppable Juggernaut!: 1 Juggernaut per this many", lo=1, hi=100)
    juggernaut_fnp: int = _p(6, "V", "§5",
                             "Unstoppable Juggernaut!: the Feel No Pain of every model of a horde with the bonus",
                             lo=2, hi=7)
    zombie_move_in: float = _p(6.0, "V", "§11 core §5",
                               "inches a zombie horde moves in its Movement phase (before its run)", lo=0, hi=24)
    zombie_run_dice: int = _p(1, "V", "§11 core §6.10",
                              "D6s a zombie horde runs after moving (Zombie!: it may still charge)", lo=0, hi=4)
    charge_range_in: float = _p(12.0, "V", "core §7.1",
                                "longest charge, in inches, either side declares (roll 2D6 to make it)", lo=0, hi=48)
    t_cap: int = _p(6, "V", "§2", "Toughness never above this in play (above 6 never binds: refused)", lo=1, hi=6)
    w_cap: int = _p(4, "V", "§2", "Wounds never above this in play (above 4 never binds: refused)", lo=1, hi=4)
    # ambiguities (the default reading first)
    players_bonus: str = _p("all", "A1", "§3.3 §9", "where '(+players)' adds N", ("all", "zombie_counts", "none"))
    free_units: str = _p("merge_same_datasheet", "A3", "§2", "models may regroup: depleted units of one datasheet "
                         "merge (policy 'merge'); 'purchased' keeps the units as bought (ICs still join)",
                         ("merge_same_datasheet", "purchased"))
    jump_packs: str = _p("ground", "A6", "§2", "jump and jet pack units move on the ground (Jump noise), or are "
                         "refused", ("ground", "refused"))
    zone_shape: str = _p("circle", "A7", "§3.1",
                         "the extraction zone: a circle of zone_radius_in, or a square of twice that side",
                         choices=("circle", "square"))
    zone_radius_in: float = _p(6.0, "C", "§3.1 A7", "radius (circle) or half side (square)", lo=2, hi=20,
                               plausible=(4.0, 8.0))
    corner_sharing: bool = _p(False, "A8", "§3.2", "more than four players share corners (default: refused)")
    spawners_after_players: bool = _p(True, "A9", "§3.2", "spawn points placed after every player (else in order)")
    spawn_points: int = _p(0, "C", "§3.3 A10", "number of spawn points", lo=0, hi=12,
                           plausible=(2, 6))
    illegal_scatter: str = _p("move_along_line", "A11", "§3.3",
                              "an illegal spawn point moves back along its scatter line, or scatters again",
                              choices=("move_along_line", "rescatter"))
    spawner_radius_in: float = _p(2.5, "C", "§3.3 A12", "spawner footprint radius", lo=0.5, hi=6,
                                  plausible=(1.5, 3.5))
    wreck_waves: bool = _p(True, "A14", "§9.1", "spawners from wrecked vehicles spawn waves (only true: no vehicle can "
                           "be fielded, so false would change nothing)")
    edge_position: str = _p("nearest", "A15", "§9.2",
                            "edge waves arrive nearest to the nearest player model, or at a random point of the edge",
                            choices=("nearest", "random"))
    noise_per: str = _p("weapon", "A16", "§9.3", "noise rolled once per weapon that fires, or once per shot",
                        choices=("weapon", "shot"))
    movement_noise: str = _p("move_and_run", "A17", "§9.3",
                             "moved over 6\": the Movement-phase move and the run, or the charge move too (players "
                             "charge with policy charge = 1)", choices=("move_and_run", "include_charges"))
    aura_fear_effect: str = _p("ws1", "A18", "§10",
                               "a failed spawner-aura Fear test: WS 1 to the end of the zombie turn, or fall back",
                               choices=("ws1", "fall_back"))
    psychic_noise: str = _p("half_type", "A19", "§9.3",
                            "a typed psychic power attracts half its weapon type's noise (rounded up), or all of it "
                            "(only half_type: Force, the one power cast, has no type)",
                            choices=("half_type", "full_type"))
    brutes_dull_witted: bool = _p(True, "A21", "§4",
                                  "Brutes are Dull Witted like Zombies (the First Zombie and Juggernauts never are)")
    brutes_shoot: bool = _p(False, "A21", "§4 §11", "Brutes keep guns but with BS 0 never fire (only False)")
    resilience_best: int = _p(2, "C", "§5 A22", "best Resilience invulnerable save (2 = 2+, the alternative 3)",
                              lo=2, hi=6, plausible=(2, 3))
    strength_cap: int = _p(10, "A22", "§5", "highest Strength a horde's +1 per bonus_per models (Hordes) can reach",
                           lo=1, hi=10)
    first_zombie_bonus: str = _p("replace", "A24", "§5",
                                 "the First Zombie's bonus replaces Resilience's, or both add (twice k)",
                                 choices=("replace", "stack"))
    split_charges: bool = _p(True, "A25", "§5", "hordes of 40+ split charges (groups of 20)")
    graveyard_trigger: str = _p("enter", "A27", "§6",
                                "Graveyard springs on a unit whose move crosses the zone, or only ending a move in it",
                                choices=("enter", "end_move"))
    extraction: str = _p("partly", "A29", "§13",
                         "a Warlord is on the zone with his base partly inside it, or only wholly inside",
                         choices=("partly", "wholly"))
    master_of_offence_scope: str = _p("melee", "A30", "§7",
                                      "Master of Offence's To Wound re-roll in close combat only, or in every phase",
                                      choices=("melee", "all"))
    legendary_multiplier: int = _p(3, "C", "§7 A31", "hits x this for a Warlord of legendary_cost pts or more (alt. 2; "
                                   "another value is refused unless some Warlord costs that much)",
                                   lo=1, hi=5, plausible=(2, 3))
    legendary_cost: int = _p(180, "V", "§7",
                             "Legendary Fighter: a Warlord of this many points or more multiplies his hits",
                             lo=0, hi=1000)
    target_priority: str = _p("must_shoot", "A34", "§7",
                              "Target Priority: with a unit within 12\" the Warlord's unit must shoot it (even a "
                              "policy that never shoots), or 'target_only': it only may not pick another target",
                              choices=("must_shoot", "target_only"))
    aura_fear_atsknf: str = _p("tests", "A18", "§10",
                               "the spawner aura's Fear test 'even if fearless': And They Shall Know No Fear tests "
                               "too, or 'passes' (its core auto-pass kept)", choices=("tests", "passes"))
    plague_fnp: str = _p("counted", "A23", "§5",
                         "The Plague: a wound Feel No Pain ignores was still an unsaved wound (core §6.8: FNP is "
                         "rolled for an unsaved wound) and counts, or 'ignored' as core §7.4's combat result does",
                         choices=("counted", "ignored"))
    supporting: str = _p("strike", "C", "§6 (a)",
                         "Supporting the Team (a): supporters within 2\" strike in the combat, or 'join': they are "
                         "locked in it (struck, Fear, Morale, The Plague)", ("strike", "join"))
    super_squad_timing: str = _p("movement", "A32", "§7",
                                 "Warlords join the super squad in the Movement phase only, or at any time",
                                 choices=("movement", "any"))
    hellhounds: bool = _p(False, "A36", "§4", "Hellhounds are excluded (the seed gives them no spawning rule)")
    max_zombies: int = _p(0, "A37", "§9.1 A4", "cap on zombie models on the table (more are held back)",
                          lo=0, hi=100000)
    first_zombie_at: str = _p("centre", "C", "§3.3", "the First Zombie's spawn point", ("centre", "last"))
    exchange: str = _p("keep_ratio", "P2", "§9.1",
                       "Juggernaut exchange: keep the horde's 1 per 10 ratio, never exchange, or as many as possible",
                       choices=("keep_ratio", "none", "maximise"))
    exchange_batches: str = _p("all", "C", "§9.1", "which spawn batches may exchange", ("all", "waves"))
    salvo_noise: str = _p("heavy", "C", "§9.3", "Salvo weapons are not in the noise table", ("heavy", "rapid_fire"))
    grenade_noise: str = _p("assault", "C", "§9.3 catalogue §3.2",
                            "a thrown grenade (catalogue: Assault 1) makes Assault noise, or none (thrown, not fired)",
                            ("assault", "none"))
    blind_effect: bool = _p(True, "V", "core §8, §12",
                            "Blind: a horde hit tests Initiative at the end of the phase, a failure makes it WS 1 and "
                            "BS 1 to the end of its next turn; false = the hits only (a baseline for comparisons)")
    terrain: str = _p("none", "C", "§3.1 core §5 §6.7",
                      "area terrain beside the zone: none (the core prescribes no layout), 'random' terrain_pieces "
                      "ruins, or 'city' (eight ruins at fixed places); ruins are difficult terrain with a "
                      "terrain_cover+ cover save", ("none", "random", "city"))
    terrain_pieces: int = _p(6, "C", "§3.1 core §5", "ruins on a 'random' table", lo=0, hi=MAX_TERRAIN,
                             plausible=(3, 9))
    terrain_piece_radius_in: float = _p(3.0, "C", "§3.1 core §5", "radius of a ruin (about 6\" across)", lo=0.5,
                                        hi=8, plausible=(2.0, 4.0))
    terrain_cover: int = _p(4, "C", "core §6.7", "cover save of a horde standing in a ruin (ruins 4+)", lo=2, hi=7,
                            plausible=(3, 5))
    # [C] numbers of the simulator (docs/apocalypse.md)
    zone_cover: int = _p(4, "C", "§3.1 core §6.7", "cover save of the zone (a ruin)", lo=2, hi=7, plausible=(3, 5))
    base_radius_in: float = _p(0.5, "C", "docs/apocalypse.md", "a 25 mm base", lo=0.2, hi=2)
    model_spacing_in: float = _p(1.5, "C", "docs/apocalypse.md", "players' models' spacing", lo=0.5, hi=4,
                                 plausible=(1.2, 2.0))
    zombie_spacing_in: float = _p(1.25, "C", "docs/apocalypse.md", "zombies' spacing in a horde", lo=0.5, hi=4,
                                  plausible=(1.0, 1.6))
    engaged_depth_in: float = _p(2.0, "C", "docs/apocalypse.md", "ring around a unit whose zombies fight", lo=0.5,
                                 hi=10, plausible=(1.0, 3.0))
    allocation: str = _p("random", "C", "docs/apocalypse.md", "which model of a horde a wound goes to",
                         ("random", "zombies_first"))
    # [C] readings of the 7th-edition vehicle core the sources reached do not confirm (docs/apocalypse.md,
    # "Vehicles (7th-edition core)"); Walkers play (issue 32): the damage table, AP modifiers and explosion are read
    vehicle_damage_table: str = _p("7th", "C", "V5", "vehicle damage table: 7th (1-3 Crew Shaken, 4 Crew Stunned, "
                                   "5 Weapon Destroyed, 6 Immobilised, 7+ Explodes!) or 6th (1-2, 3, 4, 5, 6+)",
                                   ("7th", "6th"))
    vehicle_ap_modifiers: str = _p("7th", "C", "V5", "damage roll modifiers by AP: 7th (AP1 +2, AP2 +1, AP- -1) or "
                                   "5th (AP1 +1, AP- -1)", ("7th", "5th"))
    vehicle_assault_hits: str = _p("auto_4_6", "C", "V7", "close combat hits on a non-walker vehicle: auto_4_6 (did "
                                   "not move: automatic, moved up to 6\": 4+, more: 6+) or all_4 (4+ whatever it did)",
                                   ("auto_4_6", "all_4"))
    vehicle_grenade_attacks: str = _p("one", "C", "V8", "grenade attacks of a model against a vehicle in close "
                                      "combat: one, or its Attacks", ("one", "attacks"))
    vehicle_explosion: str = _p("d6_s4", "C", "V10", "Explodes!: a Strength 4 (d6_s4) or 3 (d6_s3) AP- hit on every "
                                "model within D6\"", ("d6_s4", "d6_s3"))
    edge_band_in: float = _p(3.0, "V", "§9.2", "edge and noise zombies wholly within this of the edge", lo=1, hi=12)
    fall_back_dice: int = _p(2, "V", "core §9.3", "D6s of a falling-back unit's move towards its closest table edge",
                             lo=1, hi=4)
    consolidate_dice: int = _p(1, "V", "core §7.5", "D3s", lo=0, hi=4)
    precision: bool = _p(True, "V", "core §16", "Precision Shots and Strikes of Characters")
    look_out_sir_on: int = _p(2, "V", "core §16",
                              "Look Out, Sir passes a Precision wound on to another model on this D6 or more",
                              lo=2, hi=7)
    psychic: bool = _p(True, "V", "core §13", "the Psychic phase (Force)")
    geometry: Geometry = field(default_factory=Geometry, metadata={
        "tag": "C", "spec": "docs/space.md", "help": "how many models of a unit a blast or template hits: under a "
        "small marker (shooting), a large one (a spawner's blast), a template (a table)"})

    def __post_init__(self) -> None:
        if not isinstance(self.players, list | tuple) or not all(isinstance(p, PlayerConfig) for p in self.players):
            raise ConfigError(f"players = {self.players!r}; allowed: a list of players (PlayerConfig)")
        object.__setattr__(self, "players", tuple(self.players))
        if not 1 <= len(self.players) <= 8:
            raise ConfigError(f"players: {len(self.players)} given; allowed: 1-8")
        if len(self.players) > 4 and not self.corner_sharing:
            raise ConfigError(f"players: {len(self.players)} given; allowed: 1-4 (A8: set corner_sharing = true "
                              "for more)")
        for name in PRICE_TABLES:
            object.__setattr__(self, name, price_table(getattr(self, name), name))
        _check_prices(self)
        for f in fields(self):
            _validate(self, f)
        if self.hellhounds:
            raise ConfigError("hellhounds = true; allowed: false (A36: the seed gives Hellhounds no spawning rule, "
                              "so the simulator keeps them out)")
        if self.brutes_shoot:
            raise ConfigError("brutes_shoot = true; allowed: false (A21: a Brute has BS 0)")
        _refuse_inert(self)
        if not isinstance(self.geometry, Geometry):
            raise ConfigError(f"geometry = {self.geometry!r}; allowed: a table of Geometry fields")

    @property
    def ruleset(self) -> str:
        return RULESET_ID

    @property
    def has_terrain(self) -> bool:
        """Ruins beside the zone (``terrain`` not "none"): what the terrain's own numbers need to
        matter (their ``Parameter.enable``; sensitivity skips them on a table without terrain)."""
        return self.terrain != "none"

    @property
    def legendary_live(self) -> bool:
        """Some Warlord costs ``legendary_cost`` points or more, so Legendary Fighter's multiplying
        branch (A31) and ``legendary_multiplier`` can play (sensitivity skips the multiplier
        otherwise: ``Parameter.enable``)."""
        return max(warlord_points(self)) >= self.legendary_cost

    @property
    def n_players(self) -> int:
        return len(self.players)

    @property
    def bonus(self) -> tuple[int, int]:
        """(N added to rolls, N added to zombie counts) by A1."""
        n = self.n_players
        return {"all": (n, n), "zombie_counts": (0, n), "none": (0, 0)}[self.players_bonus]


def warlord_points(cfg: ApocalypseConfig) -> list[int]:
    """Each player's Warlord's printed (catalogue) points: what Legendary Fighter reads (§7)."""
    from sim.rulesets.apocalypse.armies import build_units

    return [int(build_units(p.army, catalogue())[0].models[0].cost) for p in cfg.players]


def _refuse_inert(cfg: ApocalypseConfig) -> None:
    """Options that could change no game of this simulator are refused in one line (issue 27)."""
    if cfg.psychic_noise != "half_type":
        raise ConfigError(f"psychic_noise = {cfg.psychic_noise!r}; allowed: half_type (A19: only the Force power is "
                          "cast, core §13, and it has no weapon type, so a typed power's noise never plays)")
    if not cfg.wreck_waves and not fields_vehicles(cfg):
        raise ConfigError("wreck_waves = false; allowed: true (A14: no army here fields a vehicle, §2, so no wreck "
                          "ever becomes a spawner)")
    if cfg.legendary_multiplier != 3 and not cfg.legendary_live:
        raise ConfigError(f"legendary_multiplier = {cfg.legendary_multiplier}; allowed: 3 unless a Warlord costs "
                          f"legendary_cost = {cfg.legendary_cost} points or more (A31; the dearest here costs "
                          f"{max(warlord_points(cfg))}), else the multiplier never plays")
    for name in VEHICLE_READINGS:
        default = next(f for f in fields(cfg) if f.name == name).default
        if getattr(cfg, name) == default:
            continue
        if name in WALKER_READINGS and fields_vehicles(cfg):
            continue
        if name in TRANSPORT_READINGS and fields_vehicles(cfg, "transport"):
            continue
        why = ("no army here fields a vehicle" if name in WALKER_READINGS else
               "no army here fields a Dedicated Transport" if name in TRANSPORT_READINGS else
               "grenades are not thrown at vehicles yet, issue 32")
        raise ConfigError(f"{name} = {getattr(cfg, name)!r}; allowed: {default} ({why}, so another reading never "
                          "plays)")


def fields_vehicles(cfg: ApocalypseConfig, kind: str = "") -> bool:
    """Some player's army takes a vehicle (a Walker or a Dedicated Transport, issue 32; of ``kind`` if given)."""
    from sim.rulesets.apocalypse.armies import ArmyError, build_units

    try:
        return any(u.vehicle is not None and (not kind or u.vehicle.kind == kind)
                   for p in cfg.players for u in build_units(p.army, catalogue()))
    except ArmyError:  # the army check names the fault when the config compiles
        return False


# the [C] readings of the vehicle core (V5, V7, V8, V10), refused off their default when no vehicle they read plays
VEHICLE_READINGS = ("vehicle_damage_table", "vehicle_ap_modifiers", "vehicle_assault_hits", "vehicle_grenade_attacks",
                    "vehicle_explosion")
WALKER_READINGS = ("vehicle_damage_table", "vehicle_ap_modifiers", "vehicle_explosion")  # what any vehicle reads
TRANSPORT_READINGS = ("vehicle_assault_hits",)  # what only a transport reads (V7: a Walker is hit as a model)


PRICE_TABLES = {"unit_costs": ("unit", "points per model"), "army_cost_factors": ("army", "factor")}
MAX_UNIT_COST = Fraction(1000)
FACTOR_RANGE = (Fraction(1, 2), Fraction(2))


def price_table(value: Any, name: str) -> tuple[tuple[str, str], ...]:
    """A ``unit_costs`` or ``army_cost_factors`` table as sorted (name, exact number as text)
    pairs: {"Ork Boy": 7} -> (("Ork Boy", "7"),); numbers may be fractions ("71/5"). A table that
    is not one of names and numbers above 0 is a one-line ConfigError naming the field."""
    what, number = PRICE_TABLES[name]
    allowed = f"a table of {what} = {number} (a number above 0 or a fraction such as \"71/5\")"
    return exact_table(value, name, allowed, None, ConfigError)


def _check_prices(cfg: ApocalypseConfig) -> None:
    """§2 prices: a cost of a catalogue unit, on its steps (1/block of a point), at most 1000 points
    per model; a factor of an army a player fields, within 0.5-2. Units are named as the catalogue
    spells them."""
    cat = catalogue()
    costs = {}
    for key, text in cfg.unit_costs:
        try:
            entry = cat.unit(key)
        except ValueError as err:
            raise ConfigError(f"unit_costs: {err}") from None
        cost, step = Fraction(text), Fraction(1, entry.block_models)
        if cost % step or cost > MAX_UNIT_COST:
            sold = f"sold {entry.block_models} for a block, " if entry.block_models > 1 else ""
            raise ConfigError(f"unit_costs: {entry.name} = {text}; allowed: {sold}a multiple of {step} above 0, at "
                              f"most {MAX_UNIT_COST} points per model")
        if entry.name in costs:
            raise ConfigError(f"unit_costs: {key!r} and {costs[entry.name]!r} name one unit ({entry.name}); allowed: "
                              "one cost per unit")
        costs[entry.name] = key
    object.__setattr__(cfg, "unit_costs", tuple(sorted((cat.unit(k).name, v) for k, v in cfg.unit_costs)))
    armies = list(dict.fromkeys(p.army.name for p in cfg.players))
    low, high = FACTOR_RANGE
    for key, text in cfg.army_cost_factors:
        if key not in armies:
            raise ConfigError(f"army_cost_factors: no player fields an army {key!r}; allowed: {', '.join(armies)}")
        if not low <= Fraction(text) <= high:
            raise ConfigError(f"army_cost_factors: {key} = {text}; allowed: a factor {low}-{high}")


def catalogue_of(config: ApocalypseConfig):
    """The catalogue at the config's ``unit_costs`` (the catalogue's own costs for the others)."""
    return catalogue_at(config.unit_costs)


def cost_factor(config: ApocalypseConfig, army_name: str) -> Fraction:
    """The multiplier of an army's cost (``army_cost_factors``; 1 for an army it does not name)."""
    return Fraction(dict(config.army_cost_factors).get(army_name, 1))


def army_budget(config: ApocalypseConfig, army_name: str) -> Fraction:
    """The points an army may cost at the config's prices: ``points_limit`` / its factor (§2)."""
    return Fraction(config.points_limit) / cost_factor(config, army_name)


def check_player_army(config: ApocalypseConfig, k: int, where: str | None = None) -> None:
    """§2 for player ``k``: its army checked at the config's prices and within its budget; a
    one-line ConfigError naming the player (``where``: "players[k]") and the factor, if any."""
    army = config.players[k].army
    try:
        check_army(army, army_budget(config, army.name), catalogue_of(config))
    except ArmyError as err:
        raise ConfigError(f"{where or f'players[{k}]'}: {factor_words(config, army.name)}{err}") from None


def factor_words(config: ApocalypseConfig, army_name: str) -> str:
    """'army_cost_factors: Goffs = 3/2 (limit 400): ' before an army error, or '' without a factor."""
    factor = cost_factor(config, army_name)
    return "" if factor == 1 else f"army_cost_factors: {army_name} = {factor} (limit {config.points_limit}): "


CAP_WHY = {"t_cap": " (§2: a model of T7+ cannot be taken and nothing raises T in play past 6, so a higher cap "
                    "never binds)",
           "w_cap": " (§2: a model of 5+ W cannot be taken and nothing raises W in play, so a higher cap never "
                    "binds)"}


def _validate(cfg: ApocalypseConfig, f) -> None:
    if f.name in ("players", "geometry") or f.name in PRICE_TABLES:
        return
    value, meta = getattr(cfg, f.name), f.metadata
    choices, rng = meta.get("choices", ()), meta.get("range")
    if isinstance(f.default, bool):
        if not isinstance(value, bool):
            raise ConfigError(f"{f.name} = {value!r}; allowed: true or false")
    elif choices:
        if value not in choices:
            raise ConfigError(f"{f.name} = {value!r}; allowed: {', '.join(choices)}")
    elif isinstance(f.default, int):
        lo, hi = rng
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            why = CAP_WHY.get(f.name, "") if isinstance(value, int) and value > hi else ""
            raise ConfigError(f"{f.name} = {value!r}; allowed: an integer {lo}-{hi}{why}")
    elif isinstance(f.default, float):
        lo, hi = rng
        if not isinstance(value, int | float) or isinstance(value, bool) or math.isnan(value) or not lo <= value <= hi:
            raise ConfigError(f"{f.name} = {value!r}; allowed: a number {lo}-{hi}")


def tunable_fields() -> list:
    return [f for f in fields(ApocalypseConfig) if f.name != "players"]


# ---------------------------------------------------------------------------------- files


def _coerce(f, value: Any, source: str) -> Any:
    if f.name == "geometry":
        if not isinstance(value, dict):
            raise ConfigError(f"{source}: geometry must be a table of Geometry fields")
        names = [g.name for g in fields(Geometry)]
        unknown = sorted(set(value) - set(names), key=str)
        if unknown:
            raise ConfigError(f"{source}: geometry: unknown field {unknown[0]!r}; allowed: {', '.join(names)}")
        try:
            return Geometry(**value)
        except (TypeError, ValueError) as err:
            raise ConfigError(f"{source}: geometry: {err}") from None
    if isinstance(f.default, float) and isinstance(value, int) and not isinstance(value, bool) and abs(value) < 1e300:
        return float(value)
    return value


def make_config(players, params: dict, source: str = "config") -> ApocalypseConfig:
    known = {f.name: f for f in fields(ApocalypseConfig) if f.name != "players"}
    kwargs = {}
    for key, value in params.items():
        if key not in known:
            from difflib import get_close_matches

            close = get_close_matches(str(key), list(known), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ConfigError(f"{source}: unknown parameter {key!r}{hint}; see `shamble params --ruleset apocalypse`")
        kwargs[key] = _coerce(known[key], value, source)
    try:
        config = ApocalypseConfig(players=tuple(players), **kwargs)
    except ConfigError as err:
        raise ConfigError(f"{source}: {err}") from None
    if config.fit_armies and {"points_limit", *PRICE_TABLES} & set(params):
        config = refit_armies(config, source)
    for k in range(config.n_players):
        try:
            check_player_army(config, k)
        except ConfigError as err:
            raise ConfigError(f"{source}: {err}") from None
    return config


def refit_armies(config: ApocalypseConfig, source: str = "config") -> ApocalypseConfig:
    """Every army refitted to the config's ``points_limit`` at its prices (§2; ``armies.fit_army``
    at ``unit_costs``, to the limit / the army's factor), as the 'points' axis does."""
    players, cat = [], catalogue_of(config)
    for k, p in enumerate(config.players):
        try:
            players.append(replace(p, army=fit_army(p.army, army_budget(config, p.army.name), cat)))
        except ArmyError as err:
            raise ConfigError(f"{source}: players[{k}]: points_limit = {config.points_limit}: {err}") from None
    return replace(config, players=tuple(players))


def _player(row: Any, where: str, base_dir: Path | None) -> PlayerConfig:
    if not isinstance(row, dict):
        raise ConfigError(f"{where}: must be a table with name, army, trait and policy")
    unknown = sorted(set(row) - {"name", "army", "trait", "policy"})
    if unknown:
        raise ConfigError(f"{where}: unknown field {unknown[0]!r}; allowed: name, army, trait, policy")
    army = row.get("army")
    try:
        if isinstance(army, str):
            path = Path(army) if base_dir is None or Path(army).is_absolute() else base_dir / army
            army_obj = load_army(path)
        elif isinstance(army, dict):
            army_obj = army_from_dict(army, f"{where}.army")
        else:
            raise ConfigError(f"{where}: field 'army' must be an army file path or an inline army table")
    except ArmyError as err:
        raise ConfigError(f"{where}: {err}") from None
    name = row.get("name", army_obj.name)
    if not isinstance(name, str) or not name.strip():
        raise ConfigError(f"{where}: field 'name' = {name!r}; allowed: a player name (a non-empty string)")
    return PlayerConfig(name, army_obj, trait_key(row.get("trait", "auto"), where),
                        policy_from(row.get("policy", "staged"), where))


def config_from_dict(data: dict, source: str = "config", base_dir: Path | None = None) -> ApocalypseConfig:
    """An ApocalypseConfig from parsed TOML; relative army paths are read from ``base_dir``."""
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: a config must be a table")
    allowed = {"players", "params", "name", "description", "ruleset"}
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise ConfigError(f"{source}: unknown field {unknown[0]!r}; allowed: {', '.join(sorted(allowed))}")
    if data.get("ruleset", RULESET_ID) != RULESET_ID:
        raise ConfigError(f"{source}: ruleset = {data['ruleset']!r}; allowed: {RULESET_ID!r} here")
    rows = data.get("players")
    if not isinstance(rows, list) or not rows:
        raise ConfigError(f"{source}: field 'players' must be a non-empty list of [[players]] tables")
    players = tuple(_player(r, f"{source}: players[{k}]", base_dir) for k, r in enumerate(rows))
    params = data.get("params", {})
    if not isinstance(params, dict):
        raise ConfigError(f"{source}: field 'params' must be a table of parameters")
    return make_config(players, params, source)


def load_config(path: str | Path) -> ApocalypseConfig:
    path = Path(path)
    try:
        data = read_toml(path, "config")
    except ArmyError as err:
        raise ConfigError(str(err)) from None
    return config_from_dict(data, str(path), path.parent)
