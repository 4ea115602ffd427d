"""Configs of the Zombies!!! ruleset: the game's parameters, the players and their policies.

Every number and choice of the spec is a field with its tag (``Parameter.tag``): "V" a rule
confirmed by a rules text, the publisher or the Z9 seed ([base], [Z9]); "C" a number the spec
had to take from fan sources or choose ([fan], [default]: ``sensitivity`` varies these);
"Dn" the default of the spec's ambiguity n, the other reading an option; "mode", "data",
"option" (an optional rule of the books), "sim" (a simulator bound). Policies (Q1-Q9) are per
player (`Policy`), with presets.
"""

from __future__ import annotations

import math
from dataclasses import MISSING, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

MODES = ("base", "mixed", "alone")


MODS = {  # name -> (field, value, title): the optional rules of the books, switched on by name
    "kids": ("kid_rule", True, "Zombie kids share a square with an adult (Z9, B6)"),
    "dogs": ("pet_cemetery_dogs", True, "The Pet Cemetery populated with zombie dogs (Z9 + Z4, Part C)"),
    "any_door": ("enter_any_side", True, "Buildings entered from any adjacent road square (B9, D5)"),
    "two_dice": ("two_dice_after_helipad", True, "Movement on two dice once the Helipad is down (B9)"),
    "no_cards": ("event_cards", False, "No event cards at all"),
    "first_edition": ("helipad_position", "bottom", "The Helipad at the bottom of the stack (1st ed., D1)"),
}


class ConfigError(ValueError):
    """A bad zombies9 configuration; one line naming the file, the field, the value and what is
    allowed."""


def _p(default: Any, tag: str, spec: str, help_: str = "", choices: tuple = (), range_: tuple | None = None,
       plausible: tuple | None = None) -> Any:
    meta = {"tag": tag, "spec": spec, "help": help_, "choices": choices, "range": range_, "plausible": plausible}
    return field(default=default, metadata=meta)


def _validate(obj: Any, where: str = "") -> None:
    for f in fields(obj):
        meta = f.metadata
        if not meta or "tag" not in meta:
            continue
        value = getattr(obj, f.name)
        name = f"{where}{f.name}"
        d = f.default
        if isinstance(d, bool):
            if not isinstance(value, bool):
                raise ConfigError(f"{name} = {value!r}; allowed: true or false")
        elif isinstance(d, int):
            if not isinstance(value, int) or isinstance(value, bool):
                raise ConfigError(f"{name} = {value!r}; allowed: a whole number"
                                  + (f" {meta['range'][0]}-{meta['range'][1]}" if meta["range"] else ""))
        elif isinstance(d, float):
            if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
                raise ConfigError(f"{name} = {value!r}; allowed: a number"
                                  + (f" {meta['range'][0]}-{meta['range'][1]}" if meta["range"] else ""))
        elif isinstance(d, str) and not isinstance(value, str):
            raise ConfigError(f"{name} = {value!r}; allowed: " + (", ".join(meta["choices"]) or "a string"))
        if meta["choices"] and value not in meta["choices"]:
            raise ConfigError(f"{name} = {value!r}; allowed: {', '.join(map(str, meta['choices']))}")
        if meta["range"] and not isinstance(value, bool) and not meta["range"][0] <= value <= meta["range"][1]:
            raise ConfigError(f"{name} = {value!r}; allowed: {meta['range'][0]}-{meta['range'][1]}")


# ---------------------------------------------------------------------------------- policies


@dataclass(frozen=True)
class Policy:
    """How one player plays (spec "Policies" Q1-Q9); every field a number or a choice."""

    goal: str = _p("heuristic", "policy", "Q1", "goal: heuristic (Q1 rule), helipad, kills, greedy (nearest win)",
                   ("heuristic", "helipad", "kills", "greedy"))
    margin_turns: float = _p(2.0, "policy", "Q1", "go for the Helipad if at most this many turns behind the best "
                             "opponent", range_=(0.0, 50.0))
    farm_kills: int = _p(18, "policy", "Q1", "else farm kills from this many zombies on", range_=(0, 25))
    crematorium_turns: float = _p(2.0, "policy", "Q1", "go for the Crematorium if reachable in this many turns",
                                  range_=(0.0, 50.0))
    crematorium_factor: float = _p(1.0, "policy", "Q1", "... and it holds <= factor x (life + bullets/2) zombies",
                                   range_=(0.0, 10.0))
    turns_per_kill: float = _p(1.0, "policy", "Q1/Q6", "estimated turns per kill (threat estimates)",
                               range_=(0.1, 10.0))
    placement: str = _p("heuristic", "policy", "Q2", "tile placement: heuristic or random (legal) baseline",
                        ("heuristic", "random"))
    token_value: float = _p(1.0, "policy", "Q2", "value of a tile's life/bullet token", range_=(-10.0, 10.0))
    zombie_value: float = _p(0.5, "policy", "Q2", "cost of a tile's zombie", range_=(-10.0, 10.0))
    helipad_value: float = _p(20.0, "policy", "Q2", "value of the Helipad near oneself", range_=(-100.0, 100.0))
    item_value: float = _p(2.0, "policy", "Q2", "value of the building of an item card in hand",
                           range_=(-10.0, 10.0))
    crematorium_value: float = _p(10.0, "policy", "Q2", "value of the Crematorium (mixed)", range_=(-100.0, 100.0))
    fight_steps: float = _p(3.0, "policy", "Q3", "path cost of a zombie square, in steps at 3 life + 3 bullets "
                            "(the spec's Q3: 2)",
                            range_=(0.0, 50.0))
    detour: int = _p(2, "policy", "Q3", "squares of detour for a token or an item building", range_=(0, 10))
    combat: str = _p("rule", "policy", "Q4", "failed roll: rule (Q4), bullets (first) or hearts (first)",
                     ("rule", "bullets", "hearts"))
    multi_zombies: int = _p(2, "policy", "Q5", "discard Chainsaw/Molotov when this many zombies are near",
                            range_=(0, 20))
    danger_life: int = _p(2, "policy", "Q5", "... or when life is at most this", range_=(0, 5))
    cards: str = _p("heuristic", "policy", "Q6", "card play: heuristic (Q6), random (legal) baseline, never",
                    ("heuristic", "random", "never"))
    threat_turns: float = _p(2.0, "policy", "Q6", "attack the leader when it is within this many turns of a win",
                             range_=(0.0, 1000.0))
    rest_life: int = _p(1, "policy", "Q6", "Much Needed Rest at this life or less", range_=(0, 5))
    afs_life: int = _p(1, "policy", "Q6", "Alternate Food Source at this life or less, zombies near", range_=(0, 5))
    grenade_zombies: int = _p(2, "policy", "Q6", "throw the Grenade at this many zombies", range_=(1, 20))
    zombies: str = _p("heuristic", "policy", "Q7", "zombie movement: heuristic (Q7) or random",
                      ("heuristic", "random"))
    block_weight: float = _p(1.0, "policy", "Q7", "weight of hindering the leader", range_=(0.0, 10.0))
    self_weight: float = _p(1.0, "policy", "Q7", "weight of clearing one's own path", range_=(0.0, 10.0))
    attack_life: int = _p(2, "policy", "Q7", "send zombies at a leader with this life or less (no path goal)",
                          range_=(0, 5))
    discard: str = _p("rule", "policy", "Q8", "discard: rule (Q8) or never", ("rule", "never"))
    discard_below: int = _p(5, "policy", "Q8", "discard the lowest card ranked below this at the end of the "
                            "turn (5: `shamble optimality` found each of 2, 3, 4 losing to the next)", range_=(0, 11))
    stack: str = _p("default", "policy", "Q9/D25", "mixed: which tile stack (default: graveyard first until the "
                    "Crematorium or the Helipad is down)", ("default", "base", "graveyard", "random"))
    hunt: bool = _p(False, "policy", "Q1", "before the Helipad, hunt zombies as well as tokens (the spec's Q1: true)")
    reply: str = _p("defend", "policy", "D21/Q6", "cards in reply to a card: defend (answer a card on oneself), "
                    "leader (also a card of the threatening leader), never", ("defend", "leader", "never"))
    reply_chance: float = _p(1.0, "policy", "D21/Q6", "chance that a chosen reply is played", range_=(0.0, 1.0))
    scout: bool = _p(True, "policy", "Q1/Q3", "before the Helipad, also head for the open road edges where it may "
                     "be laid")
    frontier_value: float = _p(0.0, "policy", "Q2", "before the Helipad, value of each road exit off the map a tile "
                               "opens (near oneself, far from the leader: where the Helipad may come)",
                               range_=(-10.0, 10.0))
    near_weight: float = _p(0.0, "policy", "Q7", "zombies moved near the leader and away from oneself when "
                            "neither has a path goal (weight per step within 4)", range_=(0.0, 10.0))

    def __post_init__(self) -> None:
        _validate(self)


PRESETS: dict[str, Policy] = {
    "balanced": Policy(),
    "spec": Policy(hunt=True, scout=False, fight_steps=2.0, discard_below=2),
    "runner": Policy(goal="helipad", helipad_value=40.0, fight_steps=3.0, detour=1, hunt=False, threat_turns=2.0),
    "hunter": Policy(goal="kills", farm_kills=0, fight_steps=0.5, combat="hearts", multi_zombies=1,
                     helipad_value=5.0, zombie_value=-0.5),
    "saboteur": Policy(threat_turns=1000.0, block_weight=3.0, self_weight=0.5, attack_life=5, turns_per_kill=0.5),
    "random": Policy(placement="random", cards="random", zombies="random", stack="random"),
    "no_cards": Policy(cards="never"),
}
PRESET_HELP = {
    "balanced": "the default (issue 26's strongest found): the spec's Q1-Q9 but no hunting before the Helipad, "
                "scouting the road ends off the map instead, a zombie square costing 3 steps, discarding any "
                "card ranked below 5 (Q8)",
    "spec": "the spec's Q1-Q9 defaults as written (hunts zombies before the Helipad, no scouting)",
    "runner": "Helipad runner: always heads for the Helipad, avoids fights, gathers tokens only",
    "hunter": "zombie hunter: farms kills for the 25-zombie win, seeks fights",
    "saboteur": "plays every attack card on the leader at once, moves zombies hard against it",
    "random": "random-legal baseline: tiles, cards, zombie moves and stacks drawn uniformly",
    "no_cards": "the balanced player that never plays an event card",
}


def policy_from(value: Any, where: str) -> Policy:
    """A Policy from a preset name, a table (``preset`` plus fields), or a Policy."""
    if isinstance(value, Policy):
        return value
    if isinstance(value, str):
        if value not in PRESETS:
            raise ConfigError(f"{where}: policy = {value!r}; allowed: {', '.join(PRESETS)}")
        return PRESETS[value]
    if isinstance(value, dict):
        data = dict(value)
        base = policy_from(data.pop("preset", "balanced"), where)
        known = {f.name for f in fields(Policy)}
        unknown = sorted(set(data) - known, key=str)
        if unknown:
            raise ConfigError(f"{where}: policy field {unknown[0]!r} unknown; allowed: preset, "
                              + ", ".join(sorted(known)))
        data = {k: float(v) if isinstance(getattr(base, k), float) and isinstance(v, int) and not isinstance(v, bool)
                else v for k, v in data.items()}
        try:
            return replace(base, **data)
        except ConfigError as err:
            raise ConfigError(f"{where}: policy.{err}") from None
    raise ConfigError(f"{where}: policy = {value!r}; allowed: a preset name ({', '.join(PRESETS)}) or a table")


def preset_name(policy: Policy) -> str:
    for name, p in PRESETS.items():
        if p == policy:
            return name
    return "custom"


# ---------------------------------------------------------------------------------- the game


@dataclass(frozen=True)
class PlayerConfig:
    name: str
    policy: Policy = field(default_factory=Policy)


@dataclass(frozen=True)
class Zombies9Config:
    """One Zombies!!! game set-up: players (2-6, in seat order) and every rule parameter."""

    players: tuple[PlayerConfig, ...]
    mods: frozenset = frozenset()  # names of MODS switched on (each sets its field, see `resolved`)
    # the game played
    mode: str = _p("base", "mode", "B3/B4", "base game, Zombies!!! 9 mixed with it, or Zombies!!! 9 alone", MODES)
    event_cards: bool = _p(True, "option", "A10", "play with the event deck (false: no cards at all)")
    tiles_file: str = _p("", "data", "A3", "base tiles file (empty: the packaged sim/data/zombies9/tiles.toml)")
    z9_tiles_file: str = _p("", "data", "B2", "Z9 tiles file (empty: the packaged placeholder set)")
    cards_file: str = _p("", "data", "A11", "base event cards file (empty: packaged)")
    z9_cards_file: str = _p("", "data", "B7", "Z9 event cards file (empty: packaged)")
    z9_fillers: bool = _p(False, "D23", "D23", "add 28 Z9 filler cards copied in proportion from the base deck")
    # numbers of the rules
    start_life: int = _p(3, "V", "A4", "life tokens at the start and after a death", range_=(1, 10))
    start_bullets: int = _p(3, "V", "A4", "bullets at the start and after a death", range_=(0, 20))
    life_cap: int = _p(5, "V", "A4", "most life tokens a player holds", range_=(1, 10))
    hand_size: int = _p(3, "V", "A5", "event cards drawn up to", range_=(0, 6))
    kill_number: int = _p(4, "V", "A8", "a combat roll (with bonuses) of this or more kills a zombie", range_=(1, 7))
    kills_to_win: int = _p(25, "V", "A12", "zombies in the collection that win", range_=(1, 200))
    zombie_pool: int = _p(100, "V", "A1/D11", "plastic zombies", range_=(0, 1000))
    kid_pool: int = _p(25, "V", "B1/D11", "zombie kids (Z9)", range_=(0, 200))
    helipad_zombies: int = _p(9, "C", "A3/D2", "zombies on the Helipad when laid [fan]", range_=(0, 9),
                              plausible=(1, 9))
    token_cap: int = _p(1, "C", "A2/D4", "tokens on one square [default]", range_=(1, 9), plausible=(1, 2))
    lots_of_ammo: int = _p(3, "C", "A11/D14", "bullets from Lots of Ammo [unconfirmed]", range_=(0, 20),
                             plausible=(1, 5))
    keys_moves: int = _p(10, "C", "A11", "squares The Keys Are Still In It moves [fan]", range_=(0, 30),
                           plausible=(8, 12))
    shotgun_combats: int = _p(3, "C", "A11", "combats the Shotgun lasts [fan]", range_=(1, 10),
                                plausible=(2, 4))
    rest_life: int = _p(2, "C", "A11", "life tokens from Much Needed Rest [fan]", range_=(0, 5),
                        plausible=(1, 3))
    everybody_moves: int = _p(5, "C", "A11", "squares of Where Did Everybody Go? [fan]", range_=(0, 20),
                                plausible=(3, 7))
    screwed_zombies: int = _p(10, "C", "A11", "zombies of We're Screwed [fan]", range_=(0, 50),
                                plausible=(6, 14))
    master_zombies: int = _p(5, "C", "A11", "zombies of Zombie Master [fan]", range_=(0, 50),
                               plausible=(3, 7))
    not_so_bad_moves: int = _p(2, "C", "A11", "zombies This Isn't So Bad moves [fan]", range_=(0, 20),
                                 plausible=(1, 3))
    not_dead_lost: int = _p(2, "C", "A11", "zombies I Don't Think They're Dead takes back [fan]", range_=(0, 25),
                              plausible=(1, 3))
    axe_bonus: int = _p(1, "C", "A11", "Fire Axe combat bonus [fan]", range_=(0, 6),
                          plausible=(0, 2))
    chainsaw_bonus: int = _p(2, "C", "A11", "Chainsaw combat bonus [fan]", range_=(0, 6),
                               plausible=(1, 3))
    molotov_bonus: int = _p(2, "C", "A11", "Molotov Cocktail combat bonus [fan]", range_=(0, 6),
                              plausible=(1, 3))
    shotgun_bonus: int = _p(1, "C", "A11", "Shotgun combat bonus [fan]", range_=(0, 6),
                              plausible=(0, 2))
    skateboard_bonus: int = _p(2, "C", "A11", "Skateboard movement bonus [fan]", range_=(0, 12),
                                 plausible=(1, 3))
    bad_sense_life: int = _p(1, "C", "A11", "life tokens Bad Sense of Direction costs its player [fan]",
                             range_=(0, 5),
                               plausible=(0, 2))
    grenade_life: int = _p(1, "C", "A11", "life tokens the Grenade costs [fan]", range_=(0, 5),
                             plausible=(0, 2))
    butter_bullets_lost: int = _p(2, "C", "A11/D13", "bullets Butter Fingers takes (option) [fan]", range_=(0, 20))
    # ambiguities (D*) and optional rules
    helipad_position: str = _p("bottom_half", "D1", "A4/D1", "Helipad in the stack: bottom_half (2nd ed.) or bottom",
                               ("bottom_half", "bottom"))
    helipad_reshuffle: bool = _p(True, "C", "A6", "an unplaceable Helipad goes back into the stack [default]")
    entrance_reshuffle: bool = _p(False, "option", "A6/B4", "mixed: an unplaceable Graveyard Entrance goes back "
                                  "into the base stack like the Helipad (default: discarded, A6)")
    first_player: str = _p("random", "C", "A4", "first player: random [default], or seat0 (the seat axis)",
                           ("random", "seat0"))
    populate: str = _p("placer", "D4", "A3/D4", "starting pieces: placed by the placer's policy, or at random",
                       ("placer", "random"))
    enter_any_side: bool = _p(False, "D5", "A7/D5/B9", "buildings entered from any adjacent road square")
    continue_after_fight: bool = _p(True, "D6", "A7/D6", "keep moving with the points left after a won fight")
    pickup_passing: bool = _p(True, "D7", "A7/D7", "take tokens when only passing through")
    death_rounding: str = _p("up", "D8", "A8/D8", "half the kills lost on death, rounded up or down",
                             ("up", "down"))
    death_discards_hand: bool = _p(False, "D9", "A8/D9", "a death also discards the hand")
    death_tokens: str = _p("next_turn", "V", "A8", "a dead player has 0 life until the start of his next turn, "
                           "then 3 life and 3 bullets (next_turn, A8.4), or has them at once", ("next_turn", "at_once"))
    move_zombie_on_player: bool = _p(True, "D10", "A9/D10", "a zombie sharing a pawn's square may be moved")
    zombie_pool_limited: bool = _p(True, "D11", "A3/D11", "placements beyond the figures are skipped")
    butter_fingers_bullets: bool = _p(False, "D13", "A11/D13", "Butter Fingers takes bullets when no item")
    first_aid_drug_store: bool = _p(False, "D15", "A11/D15", "First Aid Kit also played in the Drug Store")
    item_anywhere_on_tile: bool = _p(False, "D16", "A10/D16", "items played anywhere on their building's tile")
    helipad_placer: str = _p("drawer", "D19", "A6/D19", "who places the Helipad", ("drawer", "most_kills"))
    graveyard_separate: bool = _p(False, "D24", "B4/D24", "mixed: base tiles may not touch Z9 tiles either (the "
                                  "spec's default; the seed restricts only Z9 tiles: false)")
    crematorium_trigger: str = _p("kill", "D26", "B8/D26", "Crematorium win: the emptying kill, or any empty moment",
                                  ("kill", "empty"))
    cemetery_trigger: str = _p("kill", "D27", "B8/D27", "alone: the emptying kill, or any empty moment",
                               ("kill", "empty"))
    alone_kills_win: bool = _p(False, "D28", "B8/D28", "alone: 25 kills also win")
    little_problem_scope: str = _p("cemetery", "D29", "B7/D29", "We Have a Little Problem: Cemetery tiles, or "
                                   "every Z9 tile", ("cemetery", "graveyard"))
    kid_rule: bool = _p(False, "option", "B6", "zombie kids share a square with an adult (Z9 modes)")
    kid_placement: str = _p("needed", "D32", "B6/D32", "kids used only when needed, or stacked aggressively",
                            ("needed", "aggressive"))
    kid_first: bool = _p(False, "C", "B6", "fight the kid before the adult [default: adult first]")
    pet_cemetery_dogs: bool = _p(False, "D35", "C/D35", "populate the Pet Cemetery with zombie dogs")
    dogs_mix: bool = _p(False, "D36", "C/D36", "dogs may share a square with an adult or a kid")
    dog_kill: int = _p(5, "C", "C/D37", "kill number of a dog [default 5+; the digest's table says 4+]",
                       range_=(1, 7), plausible=(4, 6))
    dog_moves: int = _p(2, "C", "C", "squares a dog moves when chosen [fan]", range_=(1, 2), plausible=(1, 2))
    dog_stack: int = _p(2, "C", "C", "dogs on one square [fan]", range_=(1, 2), plausible=(1, 2))
    dog_damage: float = _p(0.5, "C", "C", "life tokens a lost dog combat costs, in halves [fan]", range_=(0.5, 2.0),
                           plausible=(0.5, 1.0))
    dog_pool: int = _p(16, "C", "C/D11", "zombie dog figures [default, unconfirmed]", range_=(0, 100),
                         plausible=(8, 24))
    two_dice_after_helipad: bool = _p(False, "option", "B9", "movement on two dice once the Helipad is down")
    quick_game: bool = _p(False, "option", "B9", "quick game [unconfirmed]: the whole base stack (mixed: the Graveyard "
                          "Entrance too) laid out at the set-up, the seats in turn by their Q2 policy; base or mixed")
    max_rounds: int = _p(150, "sim", "-", "rounds before a game is called a timeout", range_=(1, 10000))

    def __post_init__(self) -> None:
        if not isinstance(self.players, tuple) or not 2 <= len(self.players) <= 6:
            n = len(self.players) if isinstance(self.players, tuple | list) else self.players
            raise ConfigError(f"players: {n!r} players; allowed: 2-6")
        names = [p.name for p in self.players]
        if len(set(names)) != len(names):
            raise ConfigError(f"players: the name {sorted(n for n in names if names.count(n) > 1)[0]!r} is used "
                              "twice; allowed: one name per player")
        if not isinstance(self.mods, frozenset) or not all(isinstance(m, str) and m in MODS for m in self.mods):
            shown = sorted(self.mods, key=str) if isinstance(self.mods, frozenset) else self.mods
            raise ConfigError(f"mods = {shown!r}; allowed: names among {', '.join(MODS)}")
        _validate(self)
        if self.quick_game and self.mode == "alone":
            raise ConfigError("quick_game = true with mode = 'alone'; allowed: quick_game with mode base or mixed "
                              "(Z9 alone has no base tiles to lay out)")
        if round(2 * self.dog_damage) != 2 * self.dog_damage:
            raise ConfigError(f"dog_damage = {self.dog_damage!r}; allowed: a multiple of 0.5 from 0.5 to 2")

    @property
    def ruleset(self) -> str:
        return "zombies9"

    @property
    def n_players(self) -> int:
        return len(self.players)


def game_fields() -> list:
    return [f for f in fields(Zombies9Config) if f.name not in ("players", "mods")]


def resolved(config: Zombies9Config) -> Zombies9Config:
    """The config with its mods applied to the fields they switch on."""
    changes = {MODS[m][0]: MODS[m][1] for m in sorted(config.mods)}
    return replace(config, mods=frozenset(), **changes) if changes else config


def mod_key(name: Any) -> str:
    return str(name).strip().lower().replace("-", "_").replace(" ", "_")


def with_mods(config: Zombies9Config, mods) -> Zombies9Config:
    """The config with more mods switched on (names as in `shamble zombies9 mods`)."""
    names = {mod_key(m) for m in mods}
    unknown = sorted(names - set(MODS))
    if unknown:
        raise ConfigError(f"mods: {unknown[0]!r} is not a zombies9 mod; allowed: {', '.join(MODS)}")
    return replace(config, mods=config.mods | names) if names else config


def policy_fields() -> list:
    return list(fields(Policy))


DEFAULT_NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")


def make_players(n: int, policy: Policy | None = None) -> tuple[PlayerConfig, ...]:
    return tuple(PlayerConfig(DEFAULT_NAMES[k] if k < len(DEFAULT_NAMES) else f"P{k + 1}", policy or Policy())
                 for k in range(n))


def default_config(n_players: int = 4, **params) -> Zombies9Config:
    return Zombies9Config(players=make_players(n_players), **params)


# ---------------------------------------------------------------------------------- files


def _coerce(f, value: Any) -> Any:
    if isinstance(f.default, float) and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


def with_params(config: Zombies9Config, params: dict, source: str = "params") -> Zombies9Config:
    """Change game parameters; ``policy_<field>`` sets that policy field for every player."""
    return replace(config, **parse_params(config, params, source))


def parse_params(config: Zombies9Config, params: dict, source: str = "params") -> dict:
    """The fields ``params`` sets, validated against ``config``: ``{name: value}`` for
    ``dataclasses.replace``. ``policy_<field>`` sets a policy field of every player (the
    ``players`` entry); ``mods`` lists mods added to the config's own."""
    if not isinstance(params, dict):
        raise ConfigError(f"{source}: {params!r}; allowed: a table of parameters, e.g. {{mode = \"mixed\"}}")
    known = {f.name: f for f in game_fields()}
    pol_known = {f.name: f for f in policy_fields()}
    game, pol = {}, {}
    for key, value in params.items():
        if key == "mods":
            if not isinstance(value, list | tuple | set | frozenset):
                raise ConfigError(f"{source}: mods = {value!r}; allowed: a list of mod names ({', '.join(MODS)})")
            try:
                game["mods"] = with_mods(config, value).mods
            except ConfigError as err:
                raise ConfigError(f"{source}: {err}") from None
        elif key in known:
            game[key] = _coerce(known[key], value)
        elif key.startswith("policy_") and key[7:] in pol_known:
            pol[key[7:]] = _coerce(pol_known[key[7:]], value)
        else:
            from difflib import get_close_matches

            close = get_close_matches(str(key), list(known) + [f"policy_{k}" for k in pol_known], n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ConfigError(f"{source}: unknown parameter {key!r}{hint}; see `shamble params`")
    try:
        if pol:
            game["players"] = tuple(replace(p, policy=replace(p.policy, **pol)) for p in config.players)
        replace(config, **game)  # validates
    except ConfigError as err:
        raise ConfigError(f"{source}: {err}") from None
    return game


def config_from_dict(data: dict, source: str = "config", base_dir: Path | None = None) -> Zombies9Config:
    """A config from parsed TOML: ``players`` (a list of tables with name and policy, or a
    count), ``[params]``; data file paths are relative to ``base_dir``."""
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: a config must be a table")
    allowed = {"ruleset", "players", "params", "mods", "name", "description"}
    unknown = set(data) - allowed
    if unknown:
        raise ConfigError(f"{source}: unknown field {sorted(unknown)[0]!r}; allowed: {', '.join(sorted(allowed))}")
    if data.get("ruleset", "zombies9") != "zombies9":
        raise ConfigError(f"{source}: ruleset = {data['ruleset']!r}; allowed: zombies9")
    players = _players(data.get("players", 4), source)
    params = data.get("params", {})
    if not isinstance(params, dict):
        raise ConfigError(f"{source}: field 'params' must be a table of parameters (see `shamble params`)")
    params = dict(params)
    for key in ("tiles_file", "z9_tiles_file", "cards_file", "z9_cards_file"):
        if isinstance(params.get(key), str) and params[key] and base_dir is not None:
            path = Path(params[key])
            params[key] = str(path if path.is_absolute() else base_dir / path)
    if "mods" in data:
        params["mods"] = data["mods"]
    try:
        base = Zombies9Config(players=players)
    except ConfigError as err:
        raise ConfigError(f"{source}: {err}") from None
    return with_params(base, params, source)


def _players(value: Any, source: str) -> tuple[PlayerConfig, ...]:
    if isinstance(value, int) and not isinstance(value, bool):
        if not 2 <= value <= 6:
            raise ConfigError(f"{source}: players = {value}; allowed: 2-6 (or a list of [[players]] tables)")
        return make_players(value)
    if not isinstance(value, list) or not value:
        raise ConfigError(f"{source}: field 'players' must be a count 2-6 or a list of [[players]] tables")
    out = []
    for k, row in enumerate(value):
        where = f"{source}: players[{k}]"
        if not isinstance(row, dict):
            raise ConfigError(f"{where}: must be a table with name and policy")
        extra = set(row) - {"name", "policy"}
        if extra:
            raise ConfigError(f"{where}: unknown field {sorted(extra)[0]!r}; allowed: name, policy")
        name = row.get("name", DEFAULT_NAMES[k] if k < len(DEFAULT_NAMES) else f"P{k + 1}")
        if not isinstance(name, str) or not name.strip():
            raise ConfigError(f"{where}: name = {name!r}; allowed: a non-empty string")
        out.append(PlayerConfig(name, policy_from(row.get("policy", "balanced"), where)))
    return tuple(out)


def field_default(f) -> Any:
    return f.default if f.default is not MISSING else None
