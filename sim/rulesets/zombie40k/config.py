"""Game configuration: players (team + policy) and every simulator parameter of zombie40k §12.

``GameConfig`` holds each number the spec names, with the spec's default; each field's
metadata carries its confidence tag ([V] verified, [I] inferred, [C] chosen - every [C] number
is here so that it can be changed and swept) and the spec section. Configs are TOML files::

    max_game_turns = 20
    mods = ["t_virus"]

    [params]            # any GameConfig field
    horde_size = 6

    [[players]]
    name = "Alice"
    team = "teams/guard.toml"    # a team file, relative to this file, or an inline table
    policy = "hunter"            # a preset, or a table of Policy fields

Errors are ``ConfigError`` with one line naming the file, the field and what is allowed.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, fields, replace
from difflib import get_close_matches
from pathlib import Path
from typing import Any

from kernels.zombie40k.state import MAX_TERRAIN
from sim.files import read_toml
from sim.rulesets.zombie40k.teams import Team, TeamError, load_team, team_from_dict
from sim.w40k.catalogue import exact_table
from sim.w40k.profiles import MODEL_RULES
from sim.w40k.tables import Geometry

RULESET = "zombie40k"


class ConfigError(ValueError):
    """A bad configuration; the message is one line naming the file, field and value."""


def _p(default: Any, tag: str, where: str, help_: str = "", choices: tuple = ()) -> Any:
    meta = {"tag": tag, "spec": where, "help": help_, "choices": choices}
    return field(default=default, metadata=meta)


def _h(default: Any, help_: str, range_: tuple = ()) -> Any:
    meta = {"help": help_, "range": range_} if range_ else {"help": help_}
    return field(default=default, metadata=meta)


DICE_RE = re.compile(r"^(\d*)D([36])(?:k(\d+))?$", re.IGNORECASE)


def parse_dice(text: str, name: str = "dice") -> tuple[int, int, int]:
    """'2D6' -> (2, 0, 0); '3D6k2' (keep the two highest) -> (3, 2, 0); 'D3' -> (1, 0, 1)."""
    match = DICE_RE.match(str(text).strip())
    if not match:
        raise ConfigError(f"{name} = {text!r}; allowed: dice like 'D6', '2D6', 'D3', '3D6k2'")
    count = int(match.group(1) or 1)
    keep = int(match.group(3) or 0)
    if not 1 <= count <= 8 or keep > count:
        raise ConfigError(f"{name} = {text!r}; allowed: 1-8 dice, keeping at most as many as rolled")
    return count, keep, int(match.group(2) == "3")


@dataclass(frozen=True)
class Policy:
    """How a player plays (docs/policies.md); every field is a number a sweep can vary."""

    hunt_radius_in: float = _h(0.0, "chase hordes within this many inches for their power-ups (0 = never)")
    run: int = _h(2, "0 never Run, 1 Run when nothing is in range to shoot (advance), 2 always Run (dash: the "
                     "default, issue 26)")
    target: int = _h(0, "0 shoot the nearest zombies, 1 the horde closest to being wiped out")
    pvp: int = _h(0, "0 leave rivals alone, 1 shoot rivals when the rules allow, 2 shoot and charge them")
    charge: int = _h(0, "0 never charge zombies, 1 hordes of at most charge_max models, 2 any")
    charge_max: int = _h(2, "largest horde that charge = 1 takes on")
    duct_tape: int = _h(0, "Duct Tape power-up: 0 +1 shot, 1 +1 Attack")
    mushroom: int = _h(0, "Speed Pack power-up: 0 use at once, 1 keep it for the turn it lets the squad embark")
    medpack: int = _h(0, "Medpacks (A33): 0 spent on a wound that would kill a model, 1 on any unsaved wound")
    defibrillator: int = _h(0, "Defibrillator (A33): 0 revive a dead model at the start of the turn, "
                               "1 keep it as a Medpack")
    removal: int = _h(0, "casualty order: 0 expendable models first, then special weapons, sergeants and rule "
                         "carriers last (as a player removes them); 1 as listed in the team file")
    decisions: int = _h(0, "0 the heuristics above; 1 random-legal baseline: moves, Runs, targets, charges and "
                           "power-up choices drawn uniformly among the legal ones (the fields above are then unused "
                           "but removal)", (0, 1))

    def __post_init__(self) -> None:
        limits = {"run": (0, 2), "target": (0, 1), "pvp": (0, 2), "charge": (0, 2), "charge_max": (0, 50),
                  "duct_tape": (0, 1), "mushroom": (0, 1), "medpack": (0, 1), "defibrillator": (0, 1),
                  "removal": (0, 1), "decisions": (0, 1)}
        for name, (lo, hi) in limits.items():
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
                raise ConfigError(f"policy: {name} = {value!r}; allowed: an integer {lo}-{hi}")
        if not isinstance(self.hunt_radius_in, int | float) or isinstance(self.hunt_radius_in, bool) \
                or not 0 <= self.hunt_radius_in <= 200:
            raise ConfigError(f"policy: hunt_radius_in = {self.hunt_radius_in!r}; allowed: 0-200 inches")


POLICY_PRESETS = {
    "dash": Policy(run=2),  # the default (Policy()): the strongest found (docs/policies.md, issue 26)
    "advance": Policy(run=1),
    "hunter": Policy(run=1, hunt_radius_in=12.0, target=1, charge=1, charge_max=2),
    "backstabber": Policy(run=1, pvp=2),
    "random": Policy(decisions=1),
}
DEFAULT_POLICY = "dash"  # a player with no policy, and a policy table's base (Policy()); advance was until issue 26


def policy_from(value: Any, where: str) -> Policy:
    if isinstance(value, Policy):
        return value
    if isinstance(value, str):
        if value.lower() not in POLICY_PRESETS:
            raise ConfigError(f"{where}: policy = {value!r}; allowed: {', '.join(POLICY_PRESETS)} or a table")
        return POLICY_PRESETS[value.lower()]
    if isinstance(value, dict):
        base = policy_from(value.get("preset", DEFAULT_POLICY), where)
        known = [f.name for f in fields(Policy)]
        unknown = set(value) - set(known) - {"preset"}
        if unknown:
            raise ConfigError(f"{where}: unknown policy field {sorted(unknown)[0]!r}; allowed: {', '.join(known)}")
        try:
            return replace(base, **{k: v for k, v in value.items() if k != "preset"})
        except ConfigError as err:
            raise ConfigError(f"{where}: {err}") from None
    raise ConfigError(f"{where}: policy must be a preset name or a table")


@dataclass(frozen=True)
class PlayerConfig:
    name: str
    team: Team
    policy: Policy = field(default_factory=Policy)


POWERUP_VALUES = {2: 0.0, 3: 0.5, 4: 3.0, 5: 2.0, 6: 3.0, 7: 3.0, 8: 3.0, 9: 5.0, 10: 3.5, 11: 4.0, 12: 4.5}
MODS = ("coop", "four_weeks_later", "dead_men_walking", "death_korps", "every_man_for_himself", "hardcore",
        "instant_death", "lore_friendly", "t_virus", "boss_variant", "killing_floor")


@dataclass(frozen=True)
class GameConfig:
    """One Zombie 40,000 game set-up: players and every rule parameter (zombie40k §12)."""

    players: tuple[PlayerConfig, ...]
    team_budget: int = _p(75, "V", "§2", "points each player may spend on a team (Killing Floor plays kf_budget "
                          "instead)")
    table_length_in: float = _p(72.0, "V", "§3.1", "inches from the player starting edge to the Escape Vehicle edge")
    table_width_in: float = _p(0.0, "C", "§3.1", "inches along the player starting edge and the Escape Vehicle edge")
    ev_width_in: float = _p(6.0, "C", "§3.2", "inches the Escape Vehicle covers along the middle of its edge")
    ev_depth_in: float = _p(4.0, "C", "§3.2", "inches the Escape Vehicle reaches into the table from its edge")
    deploy_depth_in: float = _p(6.0, "C", "§3.3", "squads deploy within this many inches of the player starting edge "
                                "(and respawn there when there is no other legal spot, A15)")
    deploy_separation_in: float = _p(12.0, "C", "§3.3", "inches each squad deploys from every other squad (closest "
                                     "models; less only when the edge has no room)")
    hordes_per_player: int = _p(2, "C", "§3.4", "zombie hordes per player: the table holds players x this many")
    horde_size: int = _p(5, "C", "§3.4", "Zombies in each horde, one with an autogun; a respawned horde comes back "
                         "at this size")
    respawn_margin_in: float = _p(12.0, "C", "§5.1", "a wiped-out squad comes back this many inches further from the "
                                  "EV than the squad furthest from it")
    pvp_zone_in: float = _p(18.0, "V", "§5.4", "rivals may shoot and charge a squad within this many inches of the "
                            "EV; the same zone triggers the catch-up push-back (A28) and Coop's EV-edge arrivals")
    consolidate_dice: str = _p("D6", "I", "§5.5 A21", "inches a unit consolidates after its combat ends, survivors "
                               "and zombies alike (7th edition: D3)")
    shamble_dice: str = _p("2D6", "I", "§6.2", "the one roll each Zombie Turn: inches every zombie unit shambles "
                           "(Four Weeks Later uses fwl_shamble_dice)")
    centre_scatter_dice: str = _p("2D6", "C", "§7 result 5", "Respawn result 5, deep strike at the table centre: "
                                  "scatter in inches: the sum of this many D6")
    pushback_dice: str = _p("D6", "C", "§8 catch-up", "leader catch-up: inches the squad closest to the EV is "
                            "pushed straight away from it")
    chainsaw_hit_on: int = _p(2, "C", "§8 result 6", "Chainsaw power-up: hits zombies on this D6 roll or more, "
                              "whatever the WS (a natural 1 empties it)")
    shotgun_powerup_range_in: float = _p(12.0, "I", "§8 result 8", "Shotgun power-up: range in inches against "
                                         "zombies (at rivals it fires as the catalogue Shotgun)")
    shotgun_powerup_hit_on: int = _p(2, "C", "§8 result 8", "Shotgun power-up: hits zombies on this D6 roll or "
                                     "more, whatever the BS")
    shotgun_powerup_shots: int = _p(2, "I", "§8 result 8, A34", "Shotgun power-up: shots it fires at zombies each "
                                    "Shooting phase")
    mushroom_move_bonus_in: float = _p(3.0, "C", "§8 result 9", "Speed Pack power-up: inches added to Move, Run "
                                       "and charge distances in the turn it is used")
    mushroom_init_bonus: int = _p(1, "C", "§8 result 9", "Speed Pack power-up: Initiative added in the turn it is "
                                  "used")
    boss_respawns: bool = _p(False, "A14", "§6.1", "a destroyed Boss returns like a destroyed horde: a D6 on the "
                             "Zombie Respawn Table in the next Zombie Respawning phase")
    boss_kill_gives_powerup: bool = _p(False, "A27", "§8", "the squad that kills the Boss rolls on the Power-Up "
                                       "table as for a wiped horde (false: no roll)")
    boss_guard_radius_in: float = _p(0.0, "A14", "§6.2", "the Boss guards the EV: it goes only for squads within "
                                     "this many inches of the EV (see boss_guard_reading)")
    boss_guard_reading: str = _p("intruders", "A14", "§6.2", "a guarding Boss (boss_guard_radius_in > 0): intruders: "
                                 "it goes for the nearest squad within the radius, whatever squads farther out are "
                                 "nearer to it, and with none there walks back to its post by the EV; nearest: it "
                                 "moves only when its nearest squad is within the radius and never walks back "
                                 "(docs/readings.md)", choices=("intruders", "nearest"))
    coop_no_respawn_radius_in: float = _p(12.0, "C", "§10.1", "Coop: a squad wiped out within this many inches of "
                                          "the EV is out for good")
    dk_start_t: int = _p(3, "C", "§10.4", "Death Korps: Toughness of horde zombies before their horde respawns")
    dk_start_fnp: int = _p(6, "C", "§10.4", "Death Korps: Feel No Pain of horde zombies before their horde "
                           "respawns")
    dk_max_t: int = _p(6, "C", "§10.4", "Death Korps: the highest Toughness a horde reaches (each respawn adds 1)")
    dk_max_fnp: int = _p(3, "C", "§10.4", "Death Korps: the best Feel No Pain a horde reaches (each respawn "
                         "improves it by 1)")
    dk_scope: str = _p("per_horde", "A37", "§10.4", "per_horde: a horde toughens each time it respawns; global: "
                       "each respawn toughens every horde (those on the table when they next come back)",
                       choices=("per_horde", "global"))
    emfh_radius_in: float = _p(6.0, "C", "§10.5", "Every Man For Himself: a squad within this many inches of "
                               "another squad (closest models) tests")
    emfh_fail_on: int = _p(4, "C", "§10.5", "Every Man For Himself: on a D6 of this or more the squad may not "
                           "move, cast, shoot, Run or charge that turn")
    emfh_scope: str = _p("active", "A38", "§10.5", "active: only the active squad tests, at the start of its own "
                         "turn; all: every squad near another tests at the start of each game turn",
                         choices=("active", "all"))
    tvirus_t: int = _p(4, "C", "§10.9", "T-Virus: Toughness of horde zombies (the Boss too with tvirus_boss)")
    tvirus_fnp: int = _p(4, "C", "§10.9", "T-Virus: Feel No Pain of horde zombies (the Boss too with tvirus_boss)")
    tvirus_boss: bool = _p(False, "I", "§10.9", "the Boss also gets the T-Virus profile")
    fwl_shamble_dice: str = _p("3D6k2", "I", "§10.2", "Four Weeks Later shamble: 3D6, the two highest")
    dmw_fnp: int = _p(5, "I", "§10.3 A36", "Feel No Pain a Dead Men Walking convert has at worst")
    boss_variant_unit: str = _p("Patriarch", "V", "§10.10", "the Boss the boss_variant mod fields (any zombies-side "
                                "unit, catalogue_files may add one)")
    kf_budget: int = _p(50, "C", "§10.11 A40", "Killing Floor: the points each team is refitted to, in place of "
                        "team_budget")
    kf_points_per_kill: int = _p(1, "I", "§10.11", "Killing Floor: shop points a squad earns for each zombie model "
                                 "it kills (the Boss counts as one)")
    kf_starting_wargear: tuple[str, ...] = _p(("Bolt pistol", "Close combat weapon", "Frag grenade"), "V", "§10.11",
                                              "every model's wargear under Killing Floor")
    kf_wishlist: tuple[str, ...] = _p(
        ("Assault cannon", "Heavy bolter", "Storm bolter", "Shotgun", "Power fist", "Power sword", "Hand flamer"),
        "policy", "§10.11 A41", "items a squad buys, best first (docs/mods.md)")
    kf_prices: tuple[tuple[str, int], ...] = _p((), "C", "§10.11", "price overrides: a table item = cost")
    max_respawns: int = _p(-1, "mods", "§10.6 §10.7", "times each squad may come back after being wiped out "
                           "(Hardcore sets 1, Instant Death 0)")
    powerups_enabled: bool = _p(True, "mods", "§10.6", "Hardcore switches power-ups off")
    usr_allowed: bool = _p(True, "mods", "§10.6", "Hardcore plays teams without their USR")
    zombie_t: int = _p(0, "mods", "§10.9 §11.1", "Toughness of horde zombies (T-Virus sets it)")
    zombie_fnp: int = _p(0, "mods", "§10.2 §10.9", "Feel No Pain of horde zombies (T-Virus and Four Weeks Later "
                         "set it)")
    zombie_rules: tuple[str, ...] = _p((), "mods", "§10.2", "special rules added to horde zombies")
    boss_unit: str = _p("Zombie Boss", "V", "§6 §10.10", "the zombies-side catalogue unit that is the Boss")
    boss_t: int = _p(0, "mods", "§10.9", "the Boss's Toughness (T-Virus with tvirus_boss sets it)")
    boss_fnp: int = _p(0, "mods", "§10.9", "the Boss's Feel No Pain (T-Virus with tvirus_boss sets it)")
    squad_wargear: tuple[str, ...] = _p((), "mods", "§10.11", "every survivor's wargear; empty = as the team is built")
    shop: tuple[str, ...] = _p((), "mods", "§10.11", "items squads buy with kill points, best first; empty = no shop")
    catalogue_files: tuple[str, ...] = _p((), "data", "sim/w40k/catalogue.py", "extra catalogue TOML files (e.g. a "
                                          "user-defined Boss)")
    unit_costs: tuple[tuple[str, str], ...] = _p(
        (), "data", "§2", "points per model of catalogue units, replacing the catalogue's (a table unit = cost, e.g. "
        "{Hormagaunt = 6, \"Grey Knight\" = \"93/5\"}; a `shamble rebalance` proposal); teams are checked at these "
        "costs, and refitted to them by the budget axis and a rebalance")
    team_cost_factors: tuple[tuple[str, str], ...] = _p(
        (), "data", "§2", "a multiplier of a team's cost by team name (a table team = factor, e.g. {Tyranids = 1.15}; "
        "a `shamble rebalance --mode multiplier` proposal): the team's points times it must fit team_budget")
    max_game_turns: int = _p(20, "A12", "§15", "the game ends with no winner (a timeout) after this many game turns "
                             "(the rules set no limit)")
    surrounded_ratio: float = _p(4.0, "A2", "§6.2", "surrounded_rule ratio: shambling zombies ignore a squad in "
                                 "combat once the zombie models locked with it are this many times its models")
    surrounded_rule: str = _p("ratio", "A2", "§6.2", "geometric: zombie bases fill the squad's circumference",
                              choices=("ratio", "geometric"))
    bile_corridor_in: float = _p(1.0, "A29", "§8 result 2", "width of the path test for Zombie Bile")
    zombie_deploy_band_in: float = _p(12.0, "A10", "§3.4", "hordes start at random points at least this many inches "
                                      "from both short edges")
    embark_any_model: bool = _p(False, "A6", "§5.2", "a squad embarks when any one model ends within 2\" of the EV "
                                "(false: every model must)")
    embark_on_run: bool = _p(False, "A6", "§5.2", "a squad may also embark at the end of a Run in the Shooting "
                             "phase (false: only by moving in the Movement phase)")
    order: str = _p("rolloff", "A7", "§4", "rolloff: a D6 roll-off each game turn, highest first; fixed: the "
                    "players in config order every turn; rotate: config order, starting one player later each "
                    "turn", choices=("rolloff", "fixed", "rotate"))
    shamble_prefers_unengaged: bool = _p(False, "A3", "§6.2", "zombies go for the nearest squad not in combat "
                                         "before any squad in combat (false: the nearest, in combat or not)")
    grudge_persistence: str = _p("until_death", "A19", "§5.4", "how long a squad may shoot a rival that shot it: "
                                 "until_death: until either squad is wiped out; game: all game; one_turn: to the "
                                 "end of the game turn", choices=("until_death", "game", "one_turn"))
    free_fire_into_zombie_combats: bool = _p(False, "A20", "§5.4", "zombies fighting a rival squad may always be "
                                             "shot, the hits going to random models of the whole combat (false: "
                                             "only when that rival may be shot)")
    edge_arrival: str = _p("place_then_shamble", "A23", "§6.5", "place_then_shamble: a horde from a table edge is "
                           "placed touching it, then shambles the full roll; move_on_from_edge: its first shamble "
                           "loses the horde's own depth, as if it walked on",
                           choices=("place_then_shamble", "move_on_from_edge"))
    result6_policy: str = _p("in_front_of_leader", "A26", "§7", "where the squad furthest from the EV aims "
                             "Respawn result 6: in_front_of_leader: result6_gap_in in front of the squad closest "
                             "to the EV (the next closest if that is the placer's own); random: anywhere on the "
                             "table; block_ev: just in front of the EV. Not under Coop Mode, where §10.1 "
                             "fixes it in front of the squad closest to the EV",
                             choices=("in_front_of_leader", "random", "block_ev"))
    result6_gap_in: float = _p(3.0, "C", "§7 A26", "Respawn result 6, in_front_of_leader: inches between the leading "
                               "squad and the horde aimed in front of it (edge to edge), before it scatters")
    catchup_policy: str = _p("push_if_leader_in_zone", "A28", "§8", "the squad furthest from the EV, rolling for "
                             "a power-up: push_if_leader_in_zone: pushes the squad closest to the EV back if it is "
                             "within pvp_zone_in of the EV, else rolls twice; roll_twice: always rolls twice and "
                             "keeps the result powerup_values rates higher; push: always pushes",
                             choices=("push_if_leader_in_zone", "roll_twice", "push"))
    rending_owner: str = _p("zombies", "A4", "§11.3", "zombies: the appendix's Rending (close combat); survivors: "
                            "every survivor attack on zombies, shot or blow, has Rending (the 2009 'headshots') and "
                            "the zombies none; none: nobody", choices=("zombies", "survivors", "none"))
    psychic_enabled: bool = _p(True, "A17", "§5.3", "psykers with a force weapon cast its Force power in the "
                               "Psychic phase and the zombies try to Deny it (false: no psychic powers at all)")
    model_spacing_in: float = _p(1.5, "C", "docs/space.md", "centre-to-centre spacing of models in a unit")
    base_radius_in: float = _p(0.5, "C", "docs/space.md", "25 mm base")
    geometry: Geometry = field(default_factory=Geometry, metadata={
        "tag": "C", "spec": "docs/space.md", "help": "how many models of a unit blasts and templates hit: models "
        "under a small and a large marker, their radii in inches, models under a template (a table)"})
    powerup_values: tuple[float, ...] = field(default=tuple(POWERUP_VALUES[k] for k in range(2, 13)), metadata={
        "tag": "policy", "spec": "§8 A28", "help": "how a squad rates the Power-Up results 2-12 (11 numbers, higher is "
        "better) when it rolls twice and keeps one"})
    powerups_removed: tuple[int, ...] = field(default=(), metadata={
        "tag": "ablation", "spec": "§8", "help": "2D6 results whose power-up is off the table (rolls give nothing)"})
    terrain_density: float = field(default=0.0, metadata={
        "tag": "C", "spec": "§3.1", "plausible": (0.0, 0.25),
        "help": "share of the table covered by random area terrain, ruins: difficult terrain, terrain_cover+ cover "
                "(a normal 40k amount is about 0.25)"})
    terrain_piece_radius_in: float = _p(3.0, "C", "§3.1", "radius of a piece of area terrain (a ruin about 6\" across)")
    terrain_cover: int = _p(4, "I", "§3.1, core §6.7", "cover save of a unit in area terrain (ruins 4+)")
    terrain_dangerous: float = _p(0.0, "C", "§3.1, core §5", "share of the terrain pieces that are also dangerous "
                                  "terrain")
    respawn_band: str = _p("curve", "I", "§5.1", "where a respawning squad is placed: curve: on the curve of points "
                           "whose nearest model is exactly the required distance from the EV hull (around its "
                           "corners, beside it where the table is wide enough); line: on the straight line at that "
                           "distance in front of the EV (docs/readings.md)", choices=("curve", "line"))
    sweep_rule: str = _p("each_free_winner", "I", "core §7.5", "each_free_winner: every winning unit not still "
                         "locked with another enemy rolls against the loser's one roll; highest_initiative: the "
                         "highest-Initiative enemy rolls, locked or not (docs/readings.md)",
                         choices=("each_free_winner", "highest_initiative"))
    grudge_from_random_hits: bool = _p(True, "A19", "§5.4", "a random hit of a shot into a combat sets the grudge of "
                                       "the squad it lands on (false: only the declared target's; docs/readings.md)")
    defib_revives: str = _p("as_built", "A33", "§8 result 10", "as_built: a revived model returns as the squad was "
                            "built, without what it carried when it fell (power-ups, Killing Floor items); as_fallen: "
                            "with them (docs/readings.md)", choices=("as_built", "as_fallen"))
    emfh_stops_fall_back: bool = _p(False, "A38", "§10.5", "a squad that loses its turn to Every Man For Himself also "
                                    "skips its Regroup test and fall-back (false: those are compulsory and still "
                                    "happen; docs/readings.md)")
    pushback_through_units: bool = _p(False, "A28", "§8", "the catch-up push-back moves through other units (false: it "
                                      "stops 1\" short of them, A28; docs/readings.md)")
    dk_escalates_on_failed_arrival: bool = _p(False, "A37", "§10.4", "a Death Korps horde that found no room on the "
                                              "table escalates again when it retries (false: one step per respawn)")
    move_planner: str = _p("detour", "I", "core §3, docs/space.md", "detour: a unit goes around what is in its "
                           "way (steps along the free heading closest to its goal); straight: one straight move on "
                           "a heading up to 60 degrees off, only if it gains ground (docs/readings.md)",
                           choices=("detour", "straight"))
    zombie_unit_gap_in: float = _p(0.0, "I", "core §3", "inches zombie units keep from each other when they "
                                   "move (the 1\" rule is for enemies; 1 = keep 1\" from friends too)")
    mods: frozenset[str] = field(default_factory=frozenset, metadata={
        "tag": "mods", "spec": "§10", "help": "optional rule variants switched on (see `shamble mods`); in a config "
        "file a top-level list, mods = [\"t_virus\"]"})

    def __post_init__(self) -> None:
        if not isinstance(self.players, list | tuple) or not all(isinstance(p, PlayerConfig) for p in self.players):
            raise ConfigError(f"players = {self.players!r}; allowed: a list of players (PlayerConfig)")
        object.__setattr__(self, "players", tuple(self.players))
        if isinstance(self.mods, str) or not isinstance(self.mods, list | tuple | set | frozenset) \
                or not all(isinstance(m, str) for m in self.mods):
            raise ConfigError(f"mods = {self.mods!r}; allowed: a list of mod names: {', '.join(MODS)}")
        object.__setattr__(self, "mods", frozenset(self.mods))
        for name in _NAME_LISTS:
            if isinstance(getattr(self, name), list):
                object.__setattr__(self, name, tuple(getattr(self, name)))
        if isinstance(self.kf_prices, dict):
            object.__setattr__(self, "kf_prices", tuple(sorted(self.kf_prices.items(), key=str)))
        for name in _COST_TABLES:
            object.__setattr__(self, name, cost_table(getattr(self, name), name))
        if not 1 <= len(self.players) <= 8:
            raise ConfigError(f"players: {len(self.players)} given; allowed: 1-8")
        # names identify players in every results table, where "A" and "A " print alike
        printed = [" ".join(p.name.split()) for p in self.players]
        twin = next((k for k, n in enumerate(printed) if n in printed[:k]), None)
        if twin is not None:
            first, second = self.players[printed.index(printed[twin])].name, self.players[twin].name
            named = repr(first) if first == second else f"{first!r} and {second!r} (alike but for spaces)"
            raise ConfigError(f"players: two players are named {named}; allowed: a different name for each player, "
                              f"by more than spaces")
        for f in fields(self):
            _validate_field(self, f)
        unknown = sorted(self.mods - set(MODS))
        if unknown:
            close = get_close_matches(unknown[0], MODS, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ConfigError(f"mods: unknown mod {unknown[0]!r}{hint}; allowed: {', '.join(MODS)}")
        if not isinstance(self.powerups_removed, list | tuple | set | frozenset) or not all(
                isinstance(r, int) and not isinstance(r, bool) and 2 <= r <= 12 for r in self.powerups_removed):
            raise ConfigError(f"powerups_removed = {self.powerups_removed!r}; allowed: a list of Power-Up results 2-12")
        object.__setattr__(self, "powerups_removed", tuple(sorted(set(self.powerups_removed))))
        if not isinstance(self.powerup_values, list | tuple) or len(self.powerup_values) != 11 \
                or not all(_is_number(v) for v in self.powerup_values):
            raise ConfigError(f"powerup_values = {self.powerup_values!r}; allowed: 11 numbers, for results 2-12")
        if not isinstance(self.geometry, Geometry):
            raise ConfigError(f"geometry = {self.geometry!r}; allowed: a table of Geometry fields")
        if self.terrain_pieces > MAX_TERRAIN:
            raise ConfigError(f"terrain_density = {self.terrain_density!r} with terrain_piece_radius_in = "
                              f"{self.terrain_piece_radius_in!r} makes {self.terrain_pieces} pieces; allowed: at most "
                              f"{MAX_TERRAIN} (larger pieces, or less terrain)")
        self._check_death_korps()

    def _check_death_korps(self) -> None:
        """zombie40k §10.4: each respawn makes a Death Korps horde tougher, so its ceiling may not lie
        below its start (the kernels would clamp the start silently)."""
        if self.dk_max_t < self.dk_start_t:
            raise ConfigError(f"dk_max_t = {self.dk_max_t} is below dk_start_t = {self.dk_start_t}; allowed: "
                              f"dk_max_t >= dk_start_t (each respawn adds 1 Toughness up to dk_max_t)")
        if self.dk_max_fnp > self.dk_start_fnp:
            raise ConfigError(f"dk_max_fnp = {self.dk_max_fnp} is worse than dk_start_fnp = {self.dk_start_fnp}; "
                              f"allowed: dk_max_fnp <= dk_start_fnp (each respawn improves Feel No Pain by 1 up to "
                              f"dk_max_fnp+)")

    @property
    def ruleset(self) -> str:
        """The id of the ruleset this config is for (``sim.ruleset``)."""
        return RULESET

    @property
    def n_players(self) -> int:
        return len(self.players)

    @property
    def terrain_pieces(self) -> int:
        """Pieces of area terrain on the table: ``terrain_density`` of its area in discs of
        ``terrain_piece_radius_in`` (zombie40k §3.1)."""
        if self.terrain_density <= 0 or self.terrain_piece_radius_in <= 0:
            return 0
        area = self.width * self.table_length_in
        return max(1, round(self.terrain_density * area / (math.pi * self.terrain_piece_radius_in ** 2)))

    @property
    def width(self) -> float:
        """zombie40k §3.1 (A8): 48" for up to 4 players, 60" for 5-6, 72" for 7-8."""
        if self.table_width_in > 0:
            return self.table_width_in
        return 48.0 if self.n_players <= 4 else (60.0 if self.n_players <= 6 else 72.0)


_INT_RANGES = {
    "team_budget": (1, 10_000), "hordes_per_player": (0, 8), "horde_size": (1, 30), "chainsaw_hit_on": (2, 6),
    "shotgun_powerup_hit_on": (2, 6), "shotgun_powerup_shots": (0, 10), "mushroom_init_bonus": (0, 5),
    "dk_start_t": (1, 10), "dk_start_fnp": (2, 7), "dk_max_t": (1, 10), "dk_max_fnp": (2, 7), "emfh_fail_on": (1, 7),
    "tvirus_t": (1, 10), "tvirus_fnp": (2, 7), "terrain_cover": (2, 6), "kf_budget": (1, 10_000),
    "kf_points_per_kill": (0, 100),
    "dmw_fnp": (2, 7), "max_respawns": (-1, 1000), "zombie_t": (0, 10), "zombie_fnp": (0, 7), "boss_t": (0, 10),
    "boss_fnp": (0, 7),
    "max_game_turns": (1, 500),
}


_NAME_LISTS = ("kf_starting_wargear", "kf_wishlist", "zombie_rules", "catalogue_files", "squad_wargear", "shop")


_PLAIN_D6 = ("centre_scatter_dice",)  # dice the kernel sums as plain D6 (no D3, no keep)
_SHARES = {"terrain_density": 0.5, "terrain_dangerous": 1.0}  # a share of the table or of its pieces: 0 to this


def share_range(name: str) -> tuple[float, float] | None:
    """(0, most) of a parameter that is a share (of the table, of the terrain pieces), else None."""
    return (0.0, _SHARES[name]) if name in _SHARES else None


def _validate_field(cfg: GameConfig, f) -> None:
    value = getattr(cfg, f.name)
    choices = f.metadata.get("choices", ())
    if f.name in _SHARES:
        if not _is_number(value) or math.isnan(value) or not 0 <= value <= _SHARES[f.name]:
            raise ConfigError(f"{f.name} = {value!r}; allowed: a share of 0-{_SHARES[f.name]:g}")
    elif f.name in _INT_RANGES:
        lo, hi = _INT_RANGES[f.name]
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            raise ConfigError(f"{f.name} = {value!r}; allowed: an integer {lo}-{hi}")
    elif choices and value not in choices:
        raise ConfigError(f"{f.name} = {value!r}; allowed: {', '.join(choices)}")
    elif f.type in ("float", float) or (isinstance(f.default, float) and f.name.endswith("_in")):
        if not isinstance(value, int | float) or isinstance(value, bool) or not (0 <= value <= 1000) \
                or math.isnan(value):
            raise ConfigError(f"{f.name} = {value!r}; allowed: a number of inches 0-1000")
    elif isinstance(f.default, bool) and not isinstance(value, bool):
        raise ConfigError(f"{f.name} = {value!r}; allowed: true or false")
    elif f.name.endswith("_dice"):
        count, keep, d3 = parse_dice(value, f.name)
        if f.name in _PLAIN_D6 and (keep or d3):  # the kernel rolls that many D6 and adds them
            raise ConfigError(f"{f.name} = {value!r}; allowed: a number of D6 added up, 'D6' to '8D6'")
    elif f.name in _NAME_LISTS and (not isinstance(value, tuple) or not all(isinstance(v, str) and v for v in value)):
        raise ConfigError(f"{f.name} = {value!r}; allowed: a list of names")
    elif f.name == "zombie_rules" and set(value) - MODEL_RULES:
        bad = sorted(set(value) - MODEL_RULES)[0]
        raise ConfigError(f"zombie_rules: unknown special rule {bad!r}; allowed: {', '.join(sorted(MODEL_RULES))}")
    elif isinstance(f.default, str) and not (isinstance(value, str) and value):
        raise ConfigError(f"{f.name} = {value!r}; allowed: a name")
    elif f.name == "kf_prices" and not _is_price_list(value):
        shown = dict(value) if _is_pairs(value) else value
        raise ConfigError(f"kf_prices = {shown!r}; allowed: item = cost, a whole number of points 0-1000")
    if f.name == "surrounded_ratio" and (not isinstance(value, int | float) or value <= 0):
        raise ConfigError(f"surrounded_ratio = {value!r}; allowed: a number above 0")


_COST_TABLES = {"unit_costs": ("unit", "points per model", 1000), "team_cost_factors": ("team", "factor", 100)}


def cost_table(value: Any, name: str) -> tuple[tuple[str, str], ...]:
    """A ``unit_costs`` or ``team_cost_factors`` table as sorted (name, exact number as text)
    pairs: {"Hormagaunt": 6} -> (("Hormagaunt", "6"),); numbers may be fractions ("93/5").
    Anything else is a one-line ConfigError naming the field."""
    what, number, top = _COST_TABLES[name]
    allowed = f"a table of {what} = {number} (a number above 0, at most {top}, or a fraction such as \"93/5\")"
    return exact_table(value, name, allowed, top, ConfigError)


def _is_pairs(value: Any) -> bool:
    return isinstance(value, tuple) and all(isinstance(p, list | tuple) and len(p) == 2 for p in value)


def _is_price_list(value: Any) -> bool:
    return _is_pairs(value) and all(isinstance(k, str) and k and isinstance(c, int) and not isinstance(c, bool)
                                    and 0 <= c <= 1000 for k, c in value)


def int_range(name: str) -> tuple[int, int] | None:
    """(lowest, highest) allowed for an integer parameter, or None if it has no fixed range."""
    return _INT_RANGES.get(name)


def tunable_fields() -> list:
    """Every GameConfig field a user may set (and sweep), with its tag and spec section."""
    return [f for f in fields(GameConfig) if f.name not in ("players",)]


# ---------------------------------------------------------------------------- files


def config_from_dict(data: dict, source: str = "config", base_dir: Path | None = None) -> GameConfig:
    """A GameConfig from parsed TOML; relative team paths are read from ``base_dir``."""
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: a config must be a table")
    allowed_top = {"ruleset", "players", "params", "mods", "max_game_turns", "name", "description"}
    unknown = set(data) - allowed_top
    if unknown:
        raise ConfigError(f"{source}: unknown field {sorted(unknown)[0]!r}; allowed: {', '.join(sorted(allowed_top))}")
    if data.get("ruleset", RULESET) != RULESET:
        raise ConfigError(f"{source}: ruleset = {data['ruleset']!r}; this reader is for {RULESET!r} "
                          "(read config files with sim.ruleset.load_config)")
    players = data.get("players")
    if not isinstance(players, list) or not players:
        raise ConfigError(f"{source}: field 'players' must be a non-empty list of [[players]] tables")
    built = tuple(_player(row, f"{source}: players[{k}]", base_dir) for k, row in enumerate(players))
    params = data.get("params", {})
    if not isinstance(params, dict):
        raise ConfigError(f"{source}: field 'params' must be a table of parameters (see `shamble params`)")
    params = dict(params)
    if "max_game_turns" in data:
        params["max_game_turns"] = data["max_game_turns"]
    mods = data.get("mods", [])
    if not isinstance(mods, list):
        raise ConfigError(f"{source}: field 'mods' must be a list of mod names")
    return make_config(built, params, mods, source)


def make_config(players, params: dict, mods=(), source: str = "config") -> GameConfig:
    kwargs = _coerced(params, source)
    try:
        return GameConfig(players=tuple(players), mods=frozenset(mod_key(m) for m in mods), **kwargs)
    except ConfigError as err:
        raise ConfigError(f"{source}: {err}") from None


def _coerced(params: dict, source: str, allowed_extra: tuple[str, ...] = ()) -> dict[str, Any]:
    """Each value of ``params`` read as its field's type (an unknown name: one line, with a hint)."""
    known = {f.name: f for f in fields(GameConfig)}
    settable = [k for k in known if k not in ("players", "mods")] + list(allowed_extra)
    kwargs: dict[str, Any] = {}
    for key, value in params.items():
        if key not in settable:
            from difflib import get_close_matches

            close = get_close_matches(str(key), settable, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ConfigError(f"{source}: unknown parameter {key!r}{hint}; see `shamble params`")
        kwargs[key] = _coerce(known[key], value, source)
    return kwargs


def parse_params(config: GameConfig, params: dict, source: str = "params") -> dict[str, Any]:
    """The fields ``params`` sets, read and validated against ``config``: ``{name: value}`` for
    ``dataclasses.replace``. A ``mods`` entry lists mods added to the config's own."""
    if not isinstance(params, dict):
        raise ConfigError(f"{source}: {params!r}; allowed: a table of parameters, e.g. {{horde_size = 3}}")
    plain = {k: v for k, v in params.items() if k != "mods"}
    kwargs = _coerced(plain, source)
    if "mods" in params:
        if not isinstance(params["mods"], list | tuple | set | frozenset):
            raise ConfigError(f"{source}: mods = {params['mods']!r}; allowed: a list of mod names")
        kwargs["mods"] = config.mods | {mod_key(m) for m in params["mods"]}
    try:
        changed = replace(config, **kwargs)
    except ConfigError as err:
        raise ConfigError(f"{source}: {err}") from None
    return {name: getattr(changed, name) for name in kwargs}


def with_mods(config: GameConfig, mods) -> GameConfig:
    """The config with more mods selected (names as in `shamble mods`, '-' or '_' alike)."""
    return replace(config, mods=config.mods | {mod_key(m) for m in mods}) if mods else config


def mod_key(name: Any) -> str:
    return str(name).strip().lower().replace("-", "_").replace(" ", "_")


def _coerce(f, value: Any, source: str) -> Any:
    if f.name == "mods":
        return frozenset(mod_key(m) for m in value) if isinstance(value, list | tuple | set | frozenset) else value
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
    if f.name in _COST_TABLES:
        try:
            return cost_table(value, f.name)
        except ConfigError as err:
            raise ConfigError(f"{source}: {err}") from None
    if f.name == "kf_prices":
        if not isinstance(value, dict) and not _is_pairs(tuple(value) if isinstance(value, list | tuple) else value):
            raise ConfigError(f"{source}: kf_prices = {value!r}; allowed: a table of item = cost")
        return tuple(sorted(dict(value).items(), key=str))
    if f.name in _NAME_LISTS:
        if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{source}: {f.name} = {value!r}; allowed: a list of names")
        return tuple(value)
    if f.name == "powerups_removed":
        if not isinstance(value, list | tuple):
            raise ConfigError(f"{source}: powerups_removed = {value!r}; allowed: a list of Power-Up results 2-12")
        return tuple(value)
    if f.name == "powerup_values":
        if not isinstance(value, list | tuple) or not all(_is_number(v) for v in value):
            raise ConfigError(f"{source}: powerup_values = {value!r}; allowed: a list of 11 numbers, for results 2-12")
        return tuple(float(v) for v in value)
    if isinstance(f.default, float) and isinstance(value, int) and not isinstance(value, bool):
        return float(value) if abs(value) <= 1e300 else value  # a huge int fails the range check, not float()
    return value


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and abs(value) <= 1e300


def _player(row: Any, where: str, base_dir: Path | None) -> PlayerConfig:
    if not isinstance(row, dict):
        raise ConfigError(f"{where}: must be a table with name, team and policy")
    unknown = set(row) - {"name", "team", "policy"}
    if unknown:
        raise ConfigError(f"{where}: unknown field {sorted(unknown)[0]!r}; allowed: name, team, policy")
    team = row.get("team")
    try:
        if isinstance(team, str):
            path = Path(team) if base_dir is None or Path(team).is_absolute() else base_dir / team
            team_obj = load_team(path)
        elif isinstance(team, dict):
            team_obj = team_from_dict(team, f"{where}.team")
        else:
            raise ConfigError(f"{where}: field 'team' must be a team file path or an inline team table")
    except TeamError as err:
        raise ConfigError(str(err) if isinstance(team, dict) else f"{where}: {err}") from None
    name = row.get("name", team_obj.name)
    if not isinstance(name, str) or not name.strip():
        raise ConfigError(f"{where}: field 'name' = {name!r}; allowed: a player name (a non-empty string)")
    return PlayerConfig(name, team_obj, policy_from(row.get("policy", DEFAULT_POLICY), where))


def load_config(path: str | Path) -> GameConfig:
    """Read a game config file (TOML); errors are one-line ConfigErrors."""
    path = Path(path)
    return config_from_dict(read_toml(path, "config", ConfigError), str(path), path.parent)



