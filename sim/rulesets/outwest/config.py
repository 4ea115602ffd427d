"""Zombies Out West configuration: the posse (characters + policies), the zombie groups, the
scenario and every number of shared/rules/zombies-out-west.md as a parameter.

Each parameter is a field of `OutwestConfig` whose metadata carries its tag: "V" stated in the
seed article [seed], "I" recovered from RWNN material [RWNN], "C" a simulator choice the spec
marks [default] (unconfirmed) - ``sensitivity`` varies these within ``plausible`` -, "A<n>" the
option of the spec's ambiguity W<n> (the other reading), "policy", "mods". Configs are TOML::

    ruleset = "outwest"
    scenario = "hold"            # hold | escape | cleanup (§12)
    groups = [5, 5, 5, 5]        # zombie group sizes, 3-6 each, one group per table edge in turn
    mods = ["zombie_plague"]     # the advanced rules: zombie_plague, zombie_gunslingers
    posse = "default"            # the default posse, a class mix ("LSGGC"), or [[players]] below
    policy = "stand_and_shoot"   # every character's policy (a preset or a table)

    [params]                     # any parameter (`shamble params`)
    max_turns = 12

    [[players]]                  # the characters, instead of posse = ...
    name = "Marshal"
    class = "legend"
    guns = ["pistol", "pistol"]
    melee = "sabre"
    horse = false
    policy = "rescue_everyone"

Errors are `OutwestConfigError`: one line naming the file, the field, the value and what is
allowed.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from difflib import get_close_matches
from pathlib import Path
from typing import Any

from sim.rulesets.outwest import data as D

RULESET_ID = "outwest"
CLASSES = ("citizen", "gunman", "shootist", "legend")
CLASS_LETTERS = {"C": "citizen", "G": "gunman", "S": "shootist", "L": "legend"}
SCENARIOS = ("hold", "escape", "cleanup")
EDGES = ("south", "east", "north", "west")
MODS = {"zombie_plague": "Zombie Plague (§7.4 plague table, §8 plague bites: the bitten die and rise)",
        "zombie_gunslingers": "Zombie Gunslingers (§11: risen characters above Citizen shoot as Gunmen)"}
MAX_HUMANS = 12
MAX_GROUPS = 12


class OutwestConfigError(ValueError):
    """A bad Out West configuration; the message is one line naming file, field and value."""


def _p(default: Any, tag: str, spec: str, help_: str, range_: tuple | None = None, choices: tuple = (),
       plausible: tuple | None = None, meaning: dict | None = None) -> Any:
    meta = {"param": True, "tag": tag, "spec": spec, "help": help_, "range": range_, "choices": choices,
            "plausible": plausible, "meaning": meaning or {}}
    return field(default=default, metadata=meta)


# ---------------------------------------------------------------------------------- policies (P1-P6)


@dataclass(frozen=True)
class Policy:
    """How a character plays (the spec's P1-P6), every field a number a sweep can vary."""

    reload_safe_in: float = 3.0  # P1: Reload (or Fix) only with no zombie within this many inches
    fight_in_contact: int = 1  # P1: 0 never Fight, 1 Fight in contact with an Effective weapon, 2 with any
    contact_fire: int = 1  # P1/W25: 1 Fire at point blank when in contact (and not fighting)
    fire_fraction: float = 1.0  # P1: Fire when the band gives at least this share of the gun's most dice
    aim_at_down: int = 1  # P1: 1 Aim at a zombie on the ground or feeding, then Fire
    keep_away_in: float = 7.0  # P1: moving, keep this far from every zombie (nearer: move away)
    retreat_in: float = 0.0  # fighting retreat: Move away from a zombie within this (0 = never)
    goal_radius_in: float = 6.0  # Hold the town: stay within this of the table centre
    advance_fire: int = 0  # 1: Move & Fire instead of Move when a zombie is in range
    target: int = 0  # P2: 0 the nearest zombie, 1 the one nearest a helpless or grappled human
    group_naming: int = 1  # P2: 1 Shootists and Legends name the zombie with most others near it
    blaze_min: int = 2  # P3: blaze away with a pistol when this many zombies are within blaze_radius (0 never)
    blaze_radius_in: float = 6.0  # P3
    blaze_min_class: int = 1  # P3: lowest class that blazes away (0 Citizen .. 3 Legend)
    rescue: int = 1  # P4: 1 carry an unconscious comrade in contact when no zombie touches the carrier
    rescue_seek_in: float = 0.0  # P4: walk to an unconscious comrade within this (0 = only in contact)
    spend_when: int = 0  # P5: spend action cards 0 after a zombie reaches a human, 1 at once, 2 never, 3 when useful
    spend_on: int = 0  # P5: 0 the threatened character, 1 the best shot
    duck_back_in: float = 0.0  # P6: duck back when a zombie gunslinger is within this (0 = never)
    ride: int = 1  # 1 stay mounted, 0 dismount (the horse is left loose)
    aim_idle: int = 1  # nothing to do: Aim at the nearest zombie
    move_first: int = 0  # 1: Move toward the goal before shooting (the Escape's "run for it")
    flee_clear: int = 0  # 1: run on the heading that keeps clearest of every zombie (0: straight away from the nearest)
    target_value: int = 0  # 1: name the zombie a hit is worth most on (threat x odds); 0: P2
    contact_standing: int = 0  # 1: in contact, shoot a standing zombie before one on the ground
    contact_odds: int = 0  # 1: in contact, Fight or Fire by the better odds of destroying it
    face_zombies: int = 0  # 1: nothing better to do, turn to face a zombie outside the front arc
    chores: int = 0  # 1: nothing better to do, Reload an empty or Fix a jammed gun whatever is near
    decisions: int = 0  # 0 the heuristic (every field above), 1 random-legal: each action drawn among the legal ones

    LIMITS = {"reload_safe_in": (0.0, 100.0), "fight_in_contact": (0, 2), "contact_fire": (0, 1),
              "fire_fraction": (0.0, 1.0), "aim_at_down": (0, 1), "keep_away_in": (0.0, 100.0),
              "retreat_in": (0.0, 100.0), "goal_radius_in": (0.0, 100.0), "advance_fire": (0, 1), "target": (0, 1),
              "group_naming": (0, 1), "blaze_min": (0, 50), "blaze_radius_in": (0.0, 100.0),
              "blaze_min_class": (0, 3), "rescue": (0, 1), "rescue_seek_in": (0.0, 100.0), "spend_when": (0, 3),
              "spend_on": (0, 1), "duck_back_in": (0.0, 100.0), "ride": (0, 1), "aim_idle": (0, 1),
              "move_first": (0, 1), "flee_clear": (0, 1), "target_value": (0, 1), "contact_standing": (0, 1),
              "contact_odds": (0, 1), "face_zombies": (0, 1), "chores": (0, 1), "decisions": (0, 1)}

    def __post_init__(self) -> None:
        for name, (lo, hi) in self.LIMITS.items():
            value = getattr(self, name)
            integer = isinstance(lo, int)
            ok = isinstance(value, int) if integer else isinstance(value, int | float)
            if not ok or isinstance(value, bool) or not lo <= value <= hi:
                kind = "an integer" if integer else "a number"
                raise OutwestConfigError(f"policy: {name} = {value!r}; allowed: {kind} {lo}-{hi}")

    def row(self) -> tuple[float, ...]:
        """The kernels' policy row (kernels.outwest.layout POL_*)."""
        return (self.reload_safe_in, self.fight_in_contact, self.contact_fire, self.fire_fraction, self.aim_at_down,
                self.keep_away_in, self.retreat_in, self.goal_radius_in, self.advance_fire, self.target,
                self.group_naming, self.blaze_min, self.blaze_radius_in, self.blaze_min_class, self.rescue,
                self.rescue_seek_in, self.spend_when, self.spend_on, self.duck_back_in, self.ride, self.aim_idle,
                self.move_first, self.flee_clear, self.target_value, self.contact_standing, self.contact_odds,
                self.face_zombies, self.chores, self.decisions)


POLICY_HELP = {
    "reload_safe_in": "P1: Reload (or Fix gun) only with no zombie within this many inches",
    "fight_in_contact": "P1: 0 never Fight, 1 Fight in contact with an Effective weapon, 2 with any weapon",
    "contact_fire": "P1/W25: 1 Fire at point blank when in contact and not fighting",
    "fire_fraction": "P1: Fire when the band gives at least this share of the gun's most dice (1: best band only)",
    "aim_at_down": "P1: 1 Aim at a zombie on the ground or feeding, then Fire",
    "keep_away_in": "P1: when moving, keep this far from every zombie (nearer: move straight away)",
    "retreat_in": "fighting retreat: Move away from a zombie within this many inches (0 = never)",
    "goal_radius_in": "Hold the town: stay within this of the table centre",
    "advance_fire": "1: Move & Fire instead of Move when a zombie is in range",
    "target": "P2: 0 the nearest zombie, 1 the zombie nearest a helpless or grappled human",
    "group_naming": "P2: 1 Shootists and Legends name the zombie with most others near it (§5.4)",
    "blaze_min": "P3: blaze away with a pistol when this many zombies are within blaze_radius_in (0 = never)",
    "blaze_radius_in": "P3: the blaze-away radius",
    "blaze_min_class": "P3: the lowest class that blazes away (0 Citizen, 1 Gunman, 2 Shootist, 3 Legend)",
    "rescue": "P4: 1 carry an unconscious comrade in contact when no zombie touches the carrier",
    "rescue_seek_in": "P4: walk to an unconscious comrade within this many inches (0 = only in contact)",
    "spend_when": "P5: spend held action cards on him 0 after a zombie reaches a human, 1 at once, 2 never, "
                  "3 when it helps (on a threatened man, else on one with a shot in his gun's best band)",
    "spend_on": "P5: 0 the threatened character, 1 the best shot",
    "duck_back_in": "P6: duck back when a zombie gunslinger is within this many inches (0 = never)",
    "ride": "§10: 1 stay mounted, 0 dismount (the horse is left loose)",
    "aim_idle": "with nothing else to do, 1 Aim at the nearest zombie",
    "move_first": "1: Move toward the scenario's goal before any shot (run for it: Escape)",
    "flee_clear": "1: a man who runs takes the heading that keeps clearest of every zombie that can reach him "
                  "(0: straight away from the nearest, P1)",
    "target_value": "1: name the zombie a hit is worth most on: the exact odds of destroying it (or knocking it over) "
                    "times its threat (touching a man, able to reach one, on the ground); 0: P2",
    "contact_standing": "1: in contact, shoot a standing zombie before one lying on the ground (0: the one he would "
                        "fight, P1)",
    "contact_odds": "1: in contact, Fight or Fire, whichever has the better exact odds of destroying the zombie "
                    "(0: P1's order, Fight with an Effective weapon)",
    "face_zombies": "1: with nothing better to do, turn (Reposition in place) to face the nearest standing zombie "
                    "that is outside his front arc",
    "chores": "1: with nothing better to do, Reload an empty gun or Fix a jammed one even with a zombie near",
    "decisions": "0: the heuristic above (P1-P6 and the fields that refine it); 1: random-legal baseline - each "
                 "action drawn uniformly among the legal kinds (§4), then its heading, distance, target or gun "
                 "uniformly; held action cards spent or kept at random (§3.2); every other field is ignored",
}

POLICY_PRESETS = {
    "stand_and_shoot": Policy(),
    "fighting_retreat": Policy(retreat_in=4.0, fire_fraction=0.0, keep_away_in=9.0, goal_radius_in=12.0,
                               fight_in_contact=0),
    "rescue_everyone": Policy(rescue_seek_in=12.0, target=1, spend_on=0, spend_when=1),
    # fire_fraction 0.5: a band worth less than half the gun's best dice is advanced through with
    # Move & Fire (at fire_fraction 0 he always stood to Fire, so he never moved and fired)
    "gunfighters": Policy(fire_fraction=0.5, blaze_min=1, blaze_min_class=0, advance_fire=1, aim_idle=0),
    "brawlers": Policy(fight_in_contact=2, contact_fire=0),
    "run_for_it": Policy(move_first=1, keep_away_in=0.0, rescue_seek_in=6.0, spend_when=1, spend_on=1),
    # the strongest found (issue 26): a fighting retreat that runs clear of every zombie, names
    # targets by what a hit is worth, shoots the zombie that attacks him, fights or fires by the
    # odds, spends action cards when they help, faces the zombies and keeps its guns working
    "veteran": Policy(retreat_in=10.0, fire_fraction=0.0, keep_away_in=12.0, goal_radius_in=12.0, fight_in_contact=1,
                      flee_clear=1, target_value=1, contact_standing=1, contact_odds=1, spend_when=3, face_zombies=1,
                      chores=1),
    # the random-legal baseline (issue 26): what the heuristics are worth is the gap to it
    "random": Policy(decisions=1),
}
DEFAULT_POLICY = "veteran"  # stand_and_shoot is the spec's P1


def policy_from(value: Any, where: str) -> Policy:
    """A preset name, a Policy, or a table of Policy fields (``preset`` names the base)."""
    if isinstance(value, Policy):
        return value
    if isinstance(value, str):
        key = value.strip().lower().replace("-", "_").replace(" ", "_")
        if key not in POLICY_PRESETS:
            raise OutwestConfigError(f"{where}: policy = {value!r}; allowed: {', '.join(POLICY_PRESETS)} or a table")
        return POLICY_PRESETS[key]
    if isinstance(value, dict):
        base = policy_from(value.get("preset", DEFAULT_POLICY), where)
        known = [f.name for f in fields(Policy)]
        unknown = set(value) - set(known) - {"preset"}
        if unknown:
            raise OutwestConfigError(f"{where}: unknown policy field {sorted(unknown)[0]!r}; "
                                     f"allowed: {', '.join(known)}")
        changes = {k: (float(v) if isinstance(Policy.LIMITS[k][0], float) and isinstance(v, int)
                       and not isinstance(v, bool) else v) for k, v in value.items() if k != "preset"}
        try:
            return replace(base, **changes)
        except OutwestConfigError as err:
            raise OutwestConfigError(f"{where}: {err}") from None
    raise OutwestConfigError(f"{where}: policy = {value!r}; allowed: a preset name or a table of policy fields")


def policy_name(policy: Policy) -> str:
    for name, preset in POLICY_PRESETS.items():
        if preset == policy:
            return name
    return "custom"


# ---------------------------------------------------------------------------------- characters


@dataclass(frozen=True)
class Character:
    """One human of the posse (§2): class, up to two guns, a melee weapon, a horse, a policy."""

    name: str
    cls: str = "gunman"
    guns: tuple[str, ...] = ("pistol",)
    melee: str = "fists"
    horse: bool = False
    policy: Policy = field(default_factory=Policy)

    def __post_init__(self) -> None:
        where = f"character {self.name!r}"
        if not isinstance(self.name, str) or not self.name.strip():
            raise OutwestConfigError(f"character: name = {self.name!r}; allowed: a non-empty string")
        if self.cls not in CLASSES:
            raise OutwestConfigError(f"{where}: class = {self.cls!r}; allowed: {', '.join(CLASSES)}")
        object.__setattr__(self, "guns", tuple(self.guns))
        weapons = D.weapons()
        if len(self.guns) > 2 or not all(isinstance(gun, str) and gun in weapons.guns for gun in self.guns):
            raise OutwestConfigError(f"{where}: guns = {list(self.guns)!r}; allowed: at most two of "
                                     f"{', '.join(weapons.guns)}")
        if self.melee not in weapons.melee:
            raise OutwestConfigError(f"{where}: melee = {self.melee!r}; allowed: {', '.join(weapons.melee)}")
        if not isinstance(self.horse, bool):
            raise OutwestConfigError(f"{where}: horse = {self.horse!r}; allowed: true or false")
        if not isinstance(self.policy, Policy):
            raise OutwestConfigError(f"{where}: policy must be a Policy")

    @property
    def letter(self) -> str:
        return {v: k for k, v in CLASS_LETTERS.items()}[self.cls]


def character_from(row: Any, where: str, policy: Policy) -> Character:
    if isinstance(row, Character):
        return row
    if not isinstance(row, dict):
        raise OutwestConfigError(f"{where}: must be a table with name, class, guns, melee, horse, policy")
    allowed = {"name", "class", "guns", "melee", "horse", "policy"}
    unknown = set(row) - allowed
    if unknown:
        raise OutwestConfigError(f"{where}: unknown field {sorted(unknown)[0]!r}; "
                                 f"allowed: {', '.join(sorted(allowed))}")
    cls = row.get("class", "gunman")
    kit = D.posse().kits.get(cls, {}) if isinstance(cls, str) else {}
    guns = row.get("guns", kit.get("guns", ("pistol",)))
    if not isinstance(guns, list | tuple):
        raise OutwestConfigError(f"{where}: guns = {guns!r}; allowed: a list of at most two gun names")
    try:
        return Character(name=row.get("name", str(cls).title()), cls=cls, guns=tuple(guns),
                         melee=row.get("melee", kit.get("melee", "fists")), horse=row.get("horse", False),
                         policy=policy_from(row["policy"], where) if "policy" in row else policy)
    except OutwestConfigError as err:
        raise OutwestConfigError(f"{where}: {err}") from None


def default_posse(policy: Policy | None = None) -> tuple[Character, ...]:
    """The posse of §2.2 [default]."""
    policy = policy or POLICY_PRESETS[DEFAULT_POLICY]
    return tuple(character_from(dict(row), f"posse.toml character {k}", policy)
                 for k, row in enumerate(D.posse().characters))


def posse_of_mix(mix: str, policy: Policy | None = None, where: str = "posse") -> tuple[Character, ...]:
    """A posse from class letters ("LSGGC": Legend, Shootist, Gunman, Gunman, Citizen), each with
    its class's kit (sim/data/outwest/posse.toml; every second Gunman carries the shotgun)."""
    policy = policy or POLICY_PRESETS[DEFAULT_POLICY]
    letters = str(mix).strip().upper()
    if not letters or len(letters) > MAX_HUMANS or any(c not in CLASS_LETTERS for c in letters):
        raise OutwestConfigError(f"{where} = {mix!r}; allowed: 1-{MAX_HUMANS} class letters of L, S, G, C "
                                 "(Legend, Shootist, Gunman, Citizen), or 'default'")
    kits = D.posse().kits
    out, counts = [], {}
    for letter in letters:
        cls = CLASS_LETTERS[letter]
        counts[cls] = counts.get(cls, 0) + 1
        kit = kits["gunman_alt"] if cls == "gunman" and counts[cls] % 2 == 0 else kits[cls]
        out.append(Character(f"{cls.title()} {counts[cls]}", cls, tuple(kit["guns"]), kit["melee"], False, policy))
    return tuple(out)


SIZE_ORDER = "LSGGCGCSGC"  # posse_size n: the first n of this order (then it repeats)


def posse_of_size(n: int, policy: Policy | None = None, where: str = "posse_size") -> tuple[Character, ...]:
    """A posse of n: the default posse's classes first (L S G G C), then G C S G C, repeating."""
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_HUMANS:
        raise OutwestConfigError(f"{where} = {n!r}; allowed: an integer 1-{MAX_HUMANS}")
    return posse_of_mix((SIZE_ORDER * 2)[:n], policy, where)


# ---------------------------------------------------------------------------------- the config


@dataclass(frozen=True)
class OutwestConfig:
    """One Out West game: posse, zombie groups, scenario, advanced rules and every parameter."""

    players: tuple[Character, ...] = field(default_factory=default_posse)
    groups: tuple[int, ...] = (5, 5, 5, 5)
    town: str = "default"  # "default" (sim/data/outwest/town.toml), "open" (no terrain) or a town file

    # ---- scenario and table (§1, §12)
    scenario: str = _p("hold", "W30", "§12", "the scenario: hold (the town, 10 turns), escape (N off an edge), "
                       "cleanup (no zombie left at the end of a turn)", choices=SCENARIOS)
    max_turns: int = _p(10, "C", "§12", "turns to hold the town; the turn limit of escape and cleanup",
                        (1, 100), plausible=(8, 12))
    escape_needed: int = _p(3, "scenario", "§12", "Escape: humans that must leave the table (carried "
                            "unconscious count)", (1, MAX_HUMANS), plausible=(2, 4))
    escape_edge: str = _p("north", "scenario", "§12", "Escape: the exit edge", choices=EDGES)
    graveyard: str = _p("random", "C", "§6.6, §12", "where 'And the dead shall rise' returns zombies: the middle of "
                        "a random edge, or of the named one", choices=("random", *EDGES))
    table_width_in: float = _p(36.0, "C", "§1", "table width, inches", (12.0, 120.0), plausible=(30.0, 48.0))
    table_height_in: float = _p(36.0, "C", "§1", "table depth, inches", (12.0, 120.0), plausible=(30.0, 48.0))
    base_radius_in: float = _p(0.5, "C", "§1", "radius of a figure's base, inches (25 mm bases)", (0.2, 1.5),
                               plausible=(0.4, 0.6))
    posse_start_radius_in: float = _p(6.0, "C", "§12", "the posse starts within this of the table centre",
                                      (1.0, 30.0), plausible=(4.0, 9.0))
    zombie_edge_depth_in: float = _p(2.0, "C", "§12", "zombies start within this of their table edge",
                                     (1.0, 12.0), plausible=(1.0, 4.0))

    # ---- advanced rules (mods)
    mods: frozenset = _p(frozenset(), "mods", "§7.4, §8, §11", "the advanced rules played: zombie_plague, "
                         "zombie_gunslingers", choices=tuple(MODS))
    start_gunslingers: int = _p(0, "V", "§11", "groups that start with one gunslinger (a pistol) under the Zombie "
                                "Gunslinger rule; 0: only risen characters", (0, MAX_GROUPS))

    # ---- shooting (§5)
    shooting_mechanic: str = _p("band_dice", "W1", "§5.1, W1", "band_dice: dice from the weapon's range band plus "
                                "the class modifier, each 6 hits; class_dice: dice by class, the band sets the "
                                "score needed", choices=("band_dice", "class_dice"))
    shoot_dice_citizen: int = _p(-1, "C", "§2.1", "shooting dice modifier of a Citizen", (-5, 5), plausible=(-2, 0))
    shoot_dice_gunman: int = _p(0, "C", "§2.1", "shooting dice modifier of a Gunman", (-5, 5), plausible=(-1, 1))
    shoot_dice_shootist: int = _p(1, "C", "§2.1", "shooting dice modifier of a Shootist", (-5, 5), plausible=(0, 2))
    shoot_dice_legend: int = _p(2, "C", "§2.1", "shooting dice modifier of a Legend", (-5, 5), plausible=(1, 3))
    band_point_blank_in: float = _p(2.0, "C", "§5.2, W2", "point blank: up to this", (0.0, 60.0), plausible=(1.0, 3.0))
    band_close_in: float = _p(6.0, "C", "§5.2, W2", "close (short): up to this", (0.0, 60.0), plausible=(4.0, 8.0))
    band_medium_in: float = _p(12.0, "C", "§5.2, W2", "medium: up to this", (0.0, 60.0), plausible=(9.0, 15.0))
    band_long_in: float = _p(18.0, "C", "§5.2, W2", "long: up to this", (0.0, 60.0), plausible=(15.0, 21.0))
    band_extreme_in: float = _p(24.0, "C", "§5.2, W2", "extreme: up to this", (0.0, 100.0), plausible=(21.0, 30.0))
    pistol_dice_point_blank: int = _p(3, "C", "§5.2", "pistol (and shotgun) dice at point blank", (-1, 10),
                                      plausible=(2, 4), meaning={-1: "out of range"})
    pistol_dice_close: int = _p(3, "C", "§5.2", "pistol dice at close range", (-1, 10), plausible=(2, 4),
                                meaning={-1: "out of range"})
    pistol_dice_medium: int = _p(2, "C", "§5.2", "pistol dice at medium range", (-1, 10), plausible=(1, 3),
                                 meaning={-1: "out of range"})
    pistol_dice_long: int = _p(1, "C", "§5.2", "pistol dice at long range", (-1, 10), plausible=(0, 2),
                               meaning={-1: "out of range"})
    pistol_dice_extreme: int = _p(-1, "C", "§5.2", "pistol dice at extreme range", (-1, 10), plausible=(-1, 1),
                                  meaning={-1: "out of range"})
    rifle_dice_point_blank: int = _p(1, "C", "§5.2", "rifle dice at point blank", (-1, 10), plausible=(0, 2),
                                     meaning={-1: "out of range"})
    rifle_dice_close: int = _p(2, "C", "§5.2", "rifle dice at close range", (-1, 10), plausible=(1, 3),
                               meaning={-1: "out of range"})
    rifle_dice_medium: int = _p(2, "C", "§5.2", "rifle dice at medium range", (-1, 10), plausible=(1, 3),
                                meaning={-1: "out of range"})
    rifle_dice_long: int = _p(2, "C", "§5.2", "rifle dice at long range", (-1, 10), plausible=(1, 3),
                              meaning={-1: "out of range"})
    rifle_dice_extreme: int = _p(1, "C", "§5.2", "rifle dice at extreme range", (-1, 10), plausible=(0, 2),
                                 meaning={-1: "out of range"})
    hit_on: int = _p(6, "C", "§5.1 step 3", "score a shooting die needs to hit under band_dice (each 6 is a hit)",
                     (2, 6), plausible=(5, 6))
    class_dice_citizen: int = _p(1, "W1", "W1", "class_dice: a Citizen's shooting dice", (0, 10))
    class_dice_gunman: int = _p(2, "W1", "W1", "class_dice: a Gunman's shooting dice", (0, 10))
    class_dice_shootist: int = _p(3, "W1", "W1", "class_dice: a Shootist's shooting dice", (0, 10))
    class_dice_legend: int = _p(4, "W1", "W1", "class_dice: a Legend's shooting dice", (0, 10))
    class_hit_on_point_blank: int = _p(4, "W1", "W1", "class_dice: score to hit at point blank", (2, 7))
    class_hit_on_close: int = _p(4, "W1", "W1", "class_dice: score to hit at close range", (2, 7))
    class_hit_on_medium: int = _p(5, "W1", "W1", "class_dice: score to hit at medium range", (2, 7))
    class_hit_on_long: int = _p(6, "W1", "W1", "class_dice: score to hit at long range", (2, 7))
    class_hit_on_extreme: int = _p(6, "W1", "W1", "class_dice: score to hit at extreme range", (2, 7))
    aim_bonus: int = _p(1, "C", "§5.3, W3", "dice for an aimed shot", (0, 6), plausible=(0, 2))
    blaze_bonus: int = _p(2, "C", "§5.3, W3", "dice for blazing away", (0, 6), plausible=(1, 3))
    cover_penalty: int = _p(1, "C", "§5.3", "dice lost when the target is in cover", (0, 6), plausible=(0, 2))
    move_fire_penalty: int = _p(1, "C", "§5.3", "dice lost by Move & Fire", (0, 6), plausible=(0, 2))
    serious_wound_penalty: int = _p(1, "C", "§5.3", "dice lost per serious wound of the shooter", (0, 6),
                                    plausible=(0, 2))
    ammo_model: str = _p("ones", "W4", "§5.1 step 5, W4", "ones: 1s rolled empty or jam a gun; capacity: a fixed "
                         "number of shots (sim/data/outwest/weapons.toml)", choices=("ones", "capacity"))
    out_of_ammo_ones: int = _p(2, "C", "§5.1, W4", "1s in one roll that empty the gun", (1, 20), plausible=(2, 3))
    jam_ones: int = _p(3, "C", "§5.1, W4", "1s in one blazing roll that jam the gun", (1, 20), plausible=(2, 4))
    muzzle_loader_effect: int = _p(2, "I", "§5.6", "effect-die bonus of a muzzle-loader", (-6, 6))
    shotgun_near_effect: int = _p(1, "I", "§5.6", "effect-die bonus of a shotgun at or under shotgun_near_in", (-6, 6))
    shotgun_near_in: float = _p(3.0, "I", "§5.6", "the shotgun's near distance", (0.0, 60.0))
    shotgun_far_effect: int = _p(-1, "I", "§5.6", "effect-die bonus of a shotgun beyond shotgun_far_in", (-6, 6))
    shotgun_far_in: float = _p(6.0, "I", "§5.6", "the shotgun's far distance", (0.0, 60.0))
    zombie_pistol_point_blank: int = _p(2, "V", "§5.7", "effect bonus of a pistol (or shotgun) at point blank "
                                        "against a zombie", (-6, 6))
    zombie_rifle_close: int = _p(1, "V", "§5.7", "effect bonus of a rifle at close range against a zombie", (-6, 6))
    rifle_close_bonus: str = _p("close", "C", "§5.7", "the seed's rifle +1 'at short range' against zombies: close: "
                                "over 2\" to 6\" only (the spec's band); close_and_point_blank: within 6\", point "
                                "blank included", choices=("close", "close_and_point_blank"))
    zombie_rwnn_effect_mods: bool = _p(False, "W22", "§5.7, W22", "the RWNN effect modifiers (§5.6) also apply to "
                                       "zombies")
    head_shot_on: int = _p(6, "V", "§5.7", "modified effect die that destroys a zombie", (1, 12))
    zombie_knocked_over_on: int = _p(5, "V", "§5.7", "modified effect die that knocks a zombie over", (1, 12))
    shot_knockdown_destroys_downed: bool = _p(False, "C", "§5.7", "a 'knocked over' shot destroys a zombie already "
                                              "down (as §7.5 does in melee)")
    share_shootist_in: float = _p(3.0, "V", "§5.4", "a Shootist shares hits among zombies within this of the named "
                                  "one", (0.0, 60.0))
    share_legend_in: float = _p(4.0, "V", "§5.4", "a Legend shares hits within this", (0.0, 60.0))
    group_hits: str = _p("sequential", "C", "§5.4", "sequential: hits go to the named zombie until it falls, then "
                         "the next nearest it; spread: one hit per zombie in turn", choices=("sequential", "spread"))
    splash_in: float = _p(1.0, "V", "§5.5", "musketoon splash reaches figures within this of the target", (0.0, 12.0))
    musketoon_splash: str = _p("roll", "W24", "§5.5, W24", "roll: one pistol shooting roll at each figure in the "
                               "splash; hit: one automatic hit", choices=("roll", "hit"))
    friendly_fire: bool = _p(True, "W26", "W26", "a shot at a zombie touching a human hits him on each die showing 1")
    contact_shooting: bool = _p(True, "W25", "W25", "humans may shoot a zombie in base contact, at point blank")

    # ---- melee (§7)
    zombie_attack: int = _p(4, "V", "§7.1", "a zombie's attack dice", (0, 12))
    zombie_defend: int = _p(4, "V", "§7.1", "a zombie's defend dice", (0, 12))
    effective_dice: int = _p(3, "V", "§7.1", "attack and defend dice with an Effective weapon", (0, 12))
    limited_dice: int = _p(2, "V", "§7.1", "attack and defend dice with a Limited weapon", (0, 12))
    ground_bonus: int = _p(3, "V", "§7.2", "dice against an opponent on the ground", (0, 12))
    per_bite_penalty: int = _p(1, "V", "§7.2", "dice lost per bite the human carries", (0, 12))
    side_penalty: int = _p(2, "V", "§7.2", "defend dice lost attacked from the side", (0, 12))
    behind_defence_penalty: int = _p(2, "V", "§7.2", "defend dice lost attacked from behind", (0, 12))
    behind_attack_bonus: int = _p(2, "V", "§7.2", "attack dice attacking from behind", (0, 12))
    melee_mod_citizen: int = _p(-1, "V", "§7.2", "melee dice of a Citizen", (-6, 6))
    melee_mod_gunman: int = _p(0, "V", "§7.2", "melee dice of a Gunman", (-6, 6))
    melee_mod_shootist: int = _p(1, "V", "§7.2", "melee dice of a Shootist", (-6, 6))
    melee_mod_legend: int = _p(2, "V", "§7.2", "melee dice of a Legend", (-6, 6))
    front_half_deg: float = _p(45.0, "C", "§1, W11", "the front arc: within this of straight ahead", (0.0, 90.0),
                               plausible=(30.0, 60.0))
    rear_half_deg: float = _p(45.0, "C", "§1, W11", "the rear arc: within this of straight behind", (0.0, 90.0),
                              plausible=(30.0, 60.0))
    push_back_in: float = _p(2.0, "V", "§7.4, §7.5", "a push-back, inches", (0.0, 12.0))
    club_long_guns: bool = _p(False, "C", "§2.2", "a rifle, shotgun or musketoon used as a club makes its carrier "
                              "Effective (the default posse says everyone but the Legend fights Limited)")

    # ---- movement (§4, §10)
    citizen_move_dice: int = _p(2, "I", "§2.1", "a Citizen's Move dice (he must move the whole roll)", (0, 10))
    move_dice: int = _p(3, "I", "§2.1", "Move dice of Gunmen, Shootists and Legends", (0, 10))
    move_fire_dice: int = _p(2, "I", "§4", "Move & Fire dice", (0, 10))
    reposition_in: float = _p(2.0, "I", "§4", "a Reposition, inches", (0.0, 12.0))
    move_heading: str = _p("any", "C", "§4", "a Move goes 'straight ahead': any: he picks his heading and moves "
                           "straight along it, ending facing it; ahead: only within his front arc - to go elsewhere he "
                           "Repositions (up to 2\", ending facing the way he wants) instead", choices=("any", "ahead"))
    fall_rule: str = _p("all_low", "W6", "§4, W6", "a non-Citizen falls over if all_low: every die shows 1-2; "
                        "two_ones: two or more 1s", choices=("all_low", "two_ones"))
    building_move_dice: int = _p(1, "I", "§4", "movement dice inside a building", (0, 10))
    dense_minus: int = _p(2, "I", "§4", "movement dice lost starting in dense terrain", (0, 10))
    loose_minus: int = _p(1, "I", "§4", "movement dice lost starting in loose terrain", (0, 10))
    terrain_stops: bool = _p(True, "I", "§4", "entering scrub, brush or woods stops a figure")
    horse_move_dice: int = _p(4, "C", "§10", "a rider's Move dice (RWNN's horse move was not recovered)", (0, 10),
                              plausible=(3, 5))

    # ---- zombies (§6)
    zombie_recover_on: int = _p(4, "V", "§6.3", "a fallen zombie gets up on this or more", (1, 7))
    feed_leave_on: int = _p(4, "V", "§6.5", "a feeding zombie leaves the marker on this or more", (1, 7))
    feed_radius_in: float = _p(3.0, "V", "§6.5", "zombies within this of a devoured victim join the feeding",
                               (0.0, 36.0))
    zombie_target: str = _p("helpless_first", "W16", "§6.4, W16", "which of the humans it touches a zombie attacks: "
                            "one on the ground first, then the fewest defend dice (weakest: the fewest defend dice "
                            "whoever stands)", choices=("helpless_first", "weakest"))
    fallen_zombies: str = _p("group_recover", "W14", "§6.3, W14", "a fallen zombie gets up: group_recover: only "
                             "when its group takes Recover / get up (W14: half the group down); get_up_each: also at "
                             "every Move and attack of its group it rolls to get up instead of moving",
                             choices=("group_recover", "get_up_each"))
    recover_fraction: float = _p(0.5, "W14", "§6.1, W14", "a group takes Recover when this share of it is down "
                                 "(above 1: never)", (0.0, 2.0))
    single_uses_waiting_cards: bool = _p(True, "C", "§3.2", "a risen character's card (a group of one) uses the "
                                         "waiting Extra action / Dead shall rise card")

    # ---- bites and recovery (§8, §9, §5.6)
    bite_lapse_on: int = _p(6, "V", "§8", "basic game: a bite test of this or more lapses into unconsciousness",
                            (1, 7))
    plague_test: str = _p("either", "W20", "§8, W20", "Zombie Plague bite test of 2 D6: either die a 6, or a total "
                          "of 6", choices=("either", "total"))
    plague_wake_on: int = _p(6, "V", "§8", "plague: an unconscious character wakes on this or more", (1, 7))
    plague_die_on: int = _p(1, "V", "§8", "plague: an unconscious character dies and rises on this or less", (0, 6))
    bite_can_kill: bool = _p(True, "W21", "§8, W21", "a bite's location roll may kill (off: it caps at a serious "
                             "wound)")
    bite_death_rises: bool = _p(False, "C", "§8", "under the plague, a human killed by a bite's wound rises too")
    knockout_wake_on: int = _p(6, "C", "§5.6, W10", "a knocked-out character comes round on this or more", (1, 7),
                               plausible=(5, 6))
    knockdown_needs_recover: bool = _p(True, "V", "§9", "a knocked-down human needs a Recover and a Get up")
    badly_wounded: str = _p("immobile", "C", "§9", "who is too badly wounded to walk and must be carried (seed: "
                            "'unconscious or badly wounded characters will need to be carried'): immobile: a 'no "
                            "move/turn' result or no movement dice left; serious: also any serious wound",
                            choices=("immobile", "serious"))
    serious_wounds_to_die: int = _p(0, "W9", "W9", "serious wounds that kill (0: only 'Dead' kills)", (0, 10))
    citizen_nerve: bool = _p(False, "W12", "W12", "Citizens test their nerve with a zombie near")
    nerve_radius_in: float = _p(3.0, "W12", "W12", "the nerve test's distance", (0.0, 36.0))
    nerve_fails_on: int = _p(2, "W12", "W12", "the nerve test fails on this or less", (0, 6))
    fix_broken_on: int = _p(2, "I", "§4", "Fix gun: broken on this or less", (0, 6))
    fix_cleared_on: int = _p(5, "I", "§4", "Fix gun: cleared on this or more", (1, 7))

    # ---- horses (§10)
    spook_radius_in: float = _p(5.0, "V", "§10", "a horse within this of a zombie is spooked", (0.0, 36.0))
    thrown_on: int = _p(5, "V", "§10", "a spooked horse throws its rider on this or more", (1, 7))

    # ---- the Fate deck (§3)
    joker: str = _p("end_turn", "W7", "§3.2, W7", "end_turn: the Joker ends the turn and the deck is reshuffled; "
                    "wild: a wild action card any character may claim", choices=("end_turn", "wild"))
    spend_timing: str = _p("between_draws", "W8", "§3.2, W8", "held action cards are spent between any two draws, "
                           "or only right after a character card", choices=("between_draws", "after_character"))
    zombies_claim: bool = _p(False, "W8", "§3.2, W8", "a zombie group card claims the face-up action cards (one more "
                             "action each)")

    @property
    def ruleset(self) -> str:
        return RULESET_ID

    @property
    def n_humans(self) -> int:
        return len(self.players)

    @property
    def zombie_plague(self) -> bool:
        return "zombie_plague" in self.mods

    @property
    def zombie_gunslingers(self) -> bool:
        return "zombie_gunslingers" in self.mods

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "mods", mod_set(self.mods, "mods"))
        object.__setattr__(self, "groups", tuple(self.groups))
        if not 1 <= len(self.players) <= MAX_HUMANS or not all(isinstance(p, Character) for p in self.players):
            raise OutwestConfigError(f"players: {len(self.players)} characters; allowed: 1-{MAX_HUMANS} characters")
        names = [p.name for p in self.players]
        if len(set(names)) != len(names):
            dup = next(n for n in names if names.count(n) > 1)
            raise OutwestConfigError(f"players: the name {dup!r} is used twice; allowed: distinct names")
        if not 1 <= len(self.groups) <= MAX_GROUPS or not all(
                isinstance(s, int) and not isinstance(s, bool) and 3 <= s <= 6 for s in self.groups):
            raise OutwestConfigError(f"groups = {list(self.groups)!r}; allowed: 1-{MAX_GROUPS} group sizes, each 3-6 "
                                     "(§6.1)")
        if not isinstance(self.town, str) or not self.town:
            raise OutwestConfigError(f"town = {self.town!r}; allowed: 'default', 'open' or a town file")
        for f in fields(self):
            if f.metadata.get("param") and f.name != "mods":
                check_param(f, getattr(self, f.name))
        edges = (self.band_point_blank_in, self.band_close_in, self.band_medium_in, self.band_long_in,
                 self.band_extreme_in)
        if any(b > a for a, b in zip(edges[1:], edges[:-1])):
            raise OutwestConfigError(f"band_*_in = {list(edges)}; allowed: range bands that do not shrink "
                                     "(point blank <= close <= medium <= long <= extreme)")
        if self.start_gunslingers > len(self.groups):
            raise OutwestConfigError(f"start_gunslingers = {self.start_gunslingers}; allowed: 0-{len(self.groups)} "
                                     "(one per group at most, §11)")
        if self.scenario == "escape" and self.escape_needed > len(self.players):
            raise OutwestConfigError(f"escape_needed = {self.escape_needed}; allowed: 1-{len(self.players)} "
                                     "(the posse's size)")


def check_param(f, value: Any) -> None:
    meta = f.metadata
    default = f.default
    if isinstance(default, bool):
        ok, kind = isinstance(value, bool), "true or false"
    elif isinstance(default, int):
        ok, kind = isinstance(value, int) and not isinstance(value, bool), "an integer"
    elif isinstance(default, float):
        ok, kind = isinstance(value, int | float) and not isinstance(value, bool), "a number"
    else:
        ok, kind = isinstance(value, str), "one of " + ", ".join(meta["choices"])
    if ok and meta["choices"]:
        ok = value in meta["choices"]
    if ok and meta["range"] is not None:
        lo, hi = meta["range"]
        ok = lo <= value <= hi
        kind += f" {lo}-{hi}"
    if not ok:
        raise OutwestConfigError(f"{f.name} = {value!r}; allowed: {kind}")


PARAM_FIELDS = {f.name: f for f in fields(OutwestConfig) if f.metadata.get("param")}


def coerce(name: str, value: Any) -> Any:
    f = PARAM_FIELDS[name]
    if name == "mods":
        return mod_set(value, "mods")
    if isinstance(f.default, float) and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


def parse_params(config: OutwestConfig, params: dict, source: str = "params") -> dict:
    """The validated ``{field: value}`` of a table of parameter changes (names as `shamble
    params` lists them), checked against ``config`` (so that a change that breaks another field,
    such as range bands that shrink, is refused here)."""
    changes = {}
    for key, value in dict(params).items():
        if key not in PARAM_FIELDS:
            close = get_close_matches(str(key), list(PARAM_FIELDS), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise OutwestConfigError(f"{source}: unknown parameter {key!r}{hint}; see `shamble params`")
        changes[key] = coerce(key, value)
    try:
        replace(config, **changes)
    except OutwestConfigError as err:
        raise OutwestConfigError(f"{source}: {err}") from None
    return changes


def with_params(config: OutwestConfig, params: dict, source: str = "params") -> OutwestConfig:
    """The config with parameters replaced."""
    return replace(config, **parse_params(config, params, source))


def with_policy(config: OutwestConfig, policy: Policy) -> OutwestConfig:
    """Every character plays ``policy``."""
    return replace(config, players=tuple(replace(p, policy=policy) for p in config.players))


TOP_FIELDS = {"scenario", "groups", "mods", "posse", "policy", "players", "params", "town", "name", "description"}


def config_from_dict(data: dict, source: str = "config", base_dir: Path | None = None) -> OutwestConfig:
    """An OutwestConfig from a parsed TOML file (its ``ruleset`` key already taken off)."""
    if not isinstance(data, dict):
        raise OutwestConfigError(f"{source}: a config must be a table")
    data = {k: v for k, v in data.items() if k != "ruleset"}
    unknown = set(data) - TOP_FIELDS - set(PARAM_FIELDS)
    if unknown:
        key = sorted(unknown)[0]
        close = get_close_matches(key, sorted(TOP_FIELDS | set(PARAM_FIELDS)), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise OutwestConfigError(f"{source}: unknown field {key!r}{hint}; allowed: {', '.join(sorted(TOP_FIELDS))} "
                                 "or a parameter")
    policy = policy_from(data.get("policy", DEFAULT_POLICY), f"{source}: policy")
    players = _posse(data, source, policy)
    groups = data.get("groups", [5, 5, 5, 5])
    if not isinstance(groups, list | tuple):
        raise OutwestConfigError(f"{source}: groups = {groups!r}; allowed: a list of group sizes 3-6")
    mods = data.get("mods", [])
    params = dict(data.get("params", {}))
    params.update({k: v for k, v in data.items() if k in PARAM_FIELDS})
    town = data.get("town", "default")
    if isinstance(town, str) and town not in ("default", "open") and base_dir is not None \
            and not Path(town).is_absolute():
        town = str(base_dir / town)
    try:
        config = OutwestConfig(players=players, groups=tuple(groups), town=town)
    except OutwestConfigError as err:
        raise OutwestConfigError(f"{source}: {err}") from None
    config = with_mods(config, mod_set(mods, f"{source}: mods"), source)
    return with_params(config, params, source)


def _posse(data: dict, source: str, policy: Policy) -> tuple[Character, ...]:
    if "players" in data and "posse" in data:
        raise OutwestConfigError(f"{source}: give either posse = ... or [[players]], not both")
    if "players" in data:
        rows = data["players"]
        if not isinstance(rows, list) or not rows:
            raise OutwestConfigError(f"{source}: players must be a non-empty list of [[players]] tables")
        return tuple(character_from(row, f"{source}: players[{k}]", policy) for k, row in enumerate(rows))
    posse = data.get("posse", "default")
    if isinstance(posse, int) and not isinstance(posse, bool):
        return posse_of_size(posse, policy, f"{source}: posse")
    if posse == "default":
        return default_posse(policy)
    return posse_of_mix(posse, policy, f"{source}: posse")


def mod_key(name: Any) -> str:
    return str(name).strip().lower().replace("-", "_").replace(" ", "_")


def mod_set(mods: Any, source: str = "mods") -> frozenset:
    """A validated set of advanced rules (names of `MODS`, '-' or '_' alike)."""
    if isinstance(mods, str) or not isinstance(mods, list | tuple | set | frozenset):
        raise OutwestConfigError(f"{source} = {mods!r}; allowed: a list of {', '.join(MODS)}")
    keys = frozenset(mod_key(m) for m in mods)
    bad = sorted(keys - set(MODS))
    if bad:
        raise OutwestConfigError(f"{source}: mod {bad[0]!r}; allowed: {', '.join(MODS)}")
    return keys


def with_mods(config: OutwestConfig, mods, source: str = "mods") -> OutwestConfig:
    """The config with these advanced rules switched on as well."""
    return replace(config, mods=config.mods | mod_set(list(mods), source))


def with_exact_mods(config: OutwestConfig, mods, source: str = "mods") -> OutwestConfig:
    """The config with exactly these advanced rules."""
    return replace(config, mods=mod_set(list(mods), source))
