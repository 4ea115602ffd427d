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
from pathlib import Path
from typing import Any

from sim.files import read_toml
from sim.rulesets.zombie40k.teams import Team, TeamError, load_team, team_from_dict
from sim.w40k.profiles import MODEL_RULES
from sim.w40k.tables import Geometry

RULESET = "zombie40k"


class ConfigError(ValueError):
    """A bad configuration; the message is one line naming the file, field and value."""


def _p(default: Any, tag: str, where: str, help_: str = "", choices: tuple = ()) -> Any:
    meta = {"tag": tag, "spec": where, "help": help_, "choices": choices}
    return field(default=default, metadata=meta)


def _h(default: Any, help_: str) -> Any:
    return field(default=default, metadata={"help": help_})


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
    run: int = _h(1, "0 never Run, 1 Run when nothing is in range to shoot, 2 always Run (dash)")
    target: int = _h(0, "0 shoot the nearest zombies, 1 the horde closest to being wiped out")
    pvp: int = _h(0, "0 leave rivals alone, 1 shoot rivals when the rules allow, 2 shoot and charge them")
    charge: int = _h(0, "0 never charge zombies, 1 hordes of at most charge_max models, 2 any")
    charge_max: int = _h(2, "largest horde that charge = 1 takes on")
    duct_tape: int = _h(0, "Duct Tape power-up: 0 +1 shot, 1 +1 Attack")
    mushroom: int = _h(0, "Speed Pack power-up: 0 use at once, 1 keep it for the turn it lets the squad embark")
    medpack: int = _h(0, "Medpacks (A33): 0 spent on a wound that would kill a model, 1 on any unsaved wound")
    defibrillator: int = _h(0, "Defibrillator (A33): 0 revive a dead model at the start of the turn, "
                               "1 keep it as a Medpack")

    def __post_init__(self) -> None:
        limits = {"run": (0, 2), "target": (0, 1), "pvp": (0, 2), "charge": (0, 2), "charge_max": (0, 50),
                  "duct_tape": (0, 1), "mushroom": (0, 1), "medpack": (0, 1), "defibrillator": (0, 1)}
        for name, (lo, hi) in limits.items():
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
                raise ConfigError(f"policy: {name} = {value!r}; allowed: an integer {lo}-{hi}")
        if not isinstance(self.hunt_radius_in, int | float) or isinstance(self.hunt_radius_in, bool) \
                or not 0 <= self.hunt_radius_in <= 200:
            raise ConfigError(f"policy: hunt_radius_in = {self.hunt_radius_in!r}; allowed: 0-200 inches")


POLICY_PRESETS = {
    "dash": Policy(run=2),
    "advance": Policy(run=1),
    "hunter": Policy(hunt_radius_in=12.0, target=1, charge=1, charge_max=2),
    "backstabber": Policy(run=1, pvp=2),
}


def policy_from(value: Any, where: str) -> Policy:
    if isinstance(value, Policy):
        return value
    if isinstance(value, str):
        if value.lower() not in POLICY_PRESETS:
            raise ConfigError(f"{where}: policy = {value!r}; allowed: {', '.join(POLICY_PRESETS)} or a table")
        return POLICY_PRESETS[value.lower()]
    if isinstance(value, dict):
        base = policy_from(value.get("preset", "advance"), where)
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
    team_budget: int = _p(75, "V", "§2")
    table_length_in: float = _p(72.0, "V", "§3.1")
    table_width_in: float = _p(0.0, "C", "§3.1", "0 = by player count: 48 for P<=4, 60 for 5-6, 72 for 7+")
    ev_width_in: float = _p(6.0, "C", "§3.2")
    ev_depth_in: float = _p(4.0, "C", "§3.2")
    deploy_depth_in: float = _p(6.0, "C", "§3.3")
    deploy_separation_in: float = _p(12.0, "C", "§3.3")
    hordes_per_player: int = _p(2, "C", "§3.4")
    horde_size: int = _p(5, "C", "§3.4")
    respawn_margin_in: float = _p(12.0, "C", "§5.1")
    pvp_zone_in: float = _p(18.0, "V", "§5.4")
    consolidate_dice: str = _p("D6", "I", "§5.5 A21")
    shamble_dice: str = _p("2D6", "I", "§6.2")
    centre_scatter_dice: str = _p("2D6", "C", "§7 result 5")
    pushback_dice: str = _p("D6", "C", "§8 catch-up")
    chainsaw_hit_on: int = _p(2, "C", "§8 result 6")
    shotgun_powerup_range_in: float = _p(12.0, "I", "§8 result 8")
    shotgun_powerup_hit_on: int = _p(2, "C", "§8 result 8")
    shotgun_powerup_shots: int = _p(2, "I", "§8 result 8, A34")
    mushroom_move_bonus_in: float = _p(3.0, "C", "§8 result 9")
    mushroom_init_bonus: int = _p(1, "C", "§8 result 9")
    boss_respawns: bool = _p(False, "A14", "§6.1")
    boss_kill_gives_powerup: bool = _p(False, "A27", "§8")
    boss_guard_radius_in: float = _p(0.0, "A14", "§6.2", "0 = the Boss shambles like any zombie unit")
    coop_no_respawn_radius_in: float = _p(12.0, "C", "§10.1")
    dk_start_t: int = _p(3, "C", "§10.4")
    dk_start_fnp: int = _p(6, "C", "§10.4")
    dk_max_t: int = _p(6, "C", "§10.4")
    dk_max_fnp: int = _p(3, "C", "§10.4")
    dk_scope: str = _p("per_horde", "A37", "§10.4", choices=("per_horde", "global"))
    emfh_radius_in: float = _p(6.0, "C", "§10.5")
    emfh_fail_on: int = _p(4, "C", "§10.5")
    emfh_scope: str = _p("active", "A38", "§10.5", choices=("active", "all"))
    tvirus_t: int = _p(4, "C", "§10.9")
    tvirus_fnp: int = _p(4, "C", "§10.9")
    tvirus_boss: bool = _p(False, "I", "§10.9", "the Boss also gets the T-Virus profile")
    fwl_shamble_dice: str = _p("3D6k2", "I", "§10.2", "Four Weeks Later shamble: 3D6, the two highest")
    dmw_fnp: int = _p(5, "I", "§10.3 A36", "Feel No Pain a Dead Men Walking convert has at worst")
    boss_variant_unit: str = _p("Patriarch", "V", "§10.10", "the Boss the boss_variant mod fields (any zombies-side "
                                "unit, catalogue_files may add one)")
    kf_budget: int = _p(50, "C", "§10.11 A40")
    kf_points_per_kill: int = _p(1, "I", "§10.11")
    kf_starting_wargear: tuple[str, ...] = _p(("Bolt pistol", "Close combat weapon", "Frag grenade"), "V", "§10.11",
                                              "every model's wargear under Killing Floor")
    kf_wishlist: tuple[str, ...] = _p(
        ("Assault cannon", "Heavy bolter", "Storm bolter", "Shotgun", "Power fist", "Power sword", "Hand flamer"),
        "policy", "§10.11 A41", "items a squad buys, best first (docs/mods.md)")
    kf_prices: tuple[tuple[str, int], ...] = _p((), "C", "§10.11", "price overrides: a table item = cost")
    max_respawns: int = _p(-1, "mods", "§10.6 §10.7", "-1 = unlimited (Hardcore sets 1, Instant Death 0)")
    powerups_enabled: bool = _p(True, "mods", "§10.6", "Hardcore switches power-ups off")
    usr_allowed: bool = _p(True, "mods", "§10.6", "Hardcore plays teams without their USR")
    zombie_t: int = _p(0, "mods", "§10.9 §11.1", "horde Toughness; 0 = the catalogue's (T-Virus sets it)")
    zombie_fnp: int = _p(0, "mods", "§10.2 §10.9", "horde Feel No Pain; 0 = the catalogue's, 7 = none")
    zombie_rules: tuple[str, ...] = _p((), "mods", "§10.2", "special rules added to horde zombies")
    boss_unit: str = _p("Zombie Boss", "V", "§6 §10.10", "the zombies-side catalogue unit that is the Boss")
    boss_t: int = _p(0, "mods", "§10.9", "the Boss's Toughness; 0 = its profile's")
    boss_fnp: int = _p(0, "mods", "§10.9", "the Boss's Feel No Pain; 0 = its profile's, 7 = none")
    squad_wargear: tuple[str, ...] = _p((), "mods", "§10.11", "every survivor's wargear; empty = as the team is built")
    shop: tuple[str, ...] = _p((), "mods", "§10.11", "items squads buy with kill points, best first; empty = no shop")
    catalogue_files: tuple[str, ...] = _p((), "data", "sim/w40k/catalogue.py", "extra catalogue TOML files (e.g. a "
                                          "user-defined Boss)")
    max_game_turns: int = _p(20, "A12", "§15")
    surrounded_ratio: float = _p(4.0, "A2", "§6.2")
    surrounded_rule: str = _p("ratio", "A2", "§6.2", "geometric: zombie bases fill the squad's circumference",
                              choices=("ratio", "geometric"))
    bile_corridor_in: float = _p(1.0, "A29", "§8 result 2", "width of the path test for Zombie Bile")
    zombie_deploy_band_in: float = _p(12.0, "A10", "§3.4")
    embark_any_model: bool = _p(False, "A6", "§5.2")
    embark_on_run: bool = _p(False, "A6", "§5.2")
    order: str = _p("rolloff", "A7", "§4", choices=("rolloff", "fixed", "rotate"))
    shamble_prefers_unengaged: bool = _p(False, "A3", "§6.2")
    grudge_persistence: str = _p("until_death", "A19", "§5.4", choices=("until_death", "game", "one_turn"))
    free_fire_into_zombie_combats: bool = _p(False, "A20", "§5.4")
    edge_arrival: str = _p("place_then_shamble", "A23", "§6.5", choices=("place_then_shamble", "move_on_from_edge"))
    result6_policy: str = _p("in_front_of_leader", "A26", "§7",
                             choices=("in_front_of_leader", "random", "block_ev"))
    result6_gap_in: float = _p(3.0, "C", "§7 A26")
    catchup_policy: str = _p("push_if_leader_in_zone", "A28", "§8",
                             choices=("push_if_leader_in_zone", "roll_twice", "push"))
    rending_owner: str = _p("zombies", "A4", "§11.3", choices=("zombies", "survivors", "none"))
    psychic_enabled: bool = _p(True, "A17", "§5.3")
    model_spacing_in: float = _p(1.5, "C", "docs/space.md", "centre-to-centre spacing of models in a unit")
    base_radius_in: float = _p(0.5, "C", "docs/space.md", "25 mm base")
    geometry: Geometry = field(default_factory=Geometry, metadata={"tag": "C", "spec": "docs/space.md"})
    powerup_values: tuple[float, ...] = field(default=tuple(POWERUP_VALUES[k] for k in range(2, 13)),
                                              metadata={"tag": "policy", "spec": "§8 A28"})
    powerups_removed: tuple[int, ...] = field(default=(), metadata={
        "tag": "ablation", "spec": "§8", "help": "2D6 results whose power-up is off the table (rolls give nothing)"})
    mods: frozenset[str] = field(default_factory=frozenset, metadata={"tag": "mods", "spec": "§10"})

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
        if not 1 <= len(self.players) <= 8:
            raise ConfigError(f"players: {len(self.players)} given; allowed: 1-8")
        for f in fields(self):
            _validate_field(self, f)
        unknown = sorted(self.mods - set(MODS))
        if unknown:
            raise ConfigError(f"mods: unknown mod {unknown[0]!r}; allowed: {', '.join(MODS)}")
        if not isinstance(self.powerups_removed, list | tuple | set | frozenset) or not all(
                isinstance(r, int) and not isinstance(r, bool) and 2 <= r <= 12 for r in self.powerups_removed):
            raise ConfigError(f"powerups_removed = {self.powerups_removed!r}; allowed: a list of Power-Up results 2-12")
        object.__setattr__(self, "powerups_removed", tuple(sorted(set(self.powerups_removed))))
        if not isinstance(self.powerup_values, list | tuple) or len(self.powerup_values) != 11 \
                or not all(_is_number(v) for v in self.powerup_values):
            raise ConfigError(f"powerup_values = {self.powerup_values!r}; allowed: 11 numbers, for results 2-12")
        if not isinstance(self.geometry, Geometry):
            raise ConfigError(f"geometry = {self.geometry!r}; allowed: a table of Geometry fields")

    @property
    def ruleset(self) -> str:
        """The id of the ruleset this config is for (``sim.ruleset``)."""
        return RULESET

    @property
    def n_players(self) -> int:
        return len(self.players)

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
    "tvirus_t": (1, 10), "tvirus_fnp": (2, 7), "kf_budget": (1, 10_000), "kf_points_per_kill": (0, 100),
    "dmw_fnp": (2, 7), "max_respawns": (-1, 1000), "zombie_t": (0, 10), "zombie_fnp": (0, 7), "boss_t": (0, 10),
    "boss_fnp": (0, 7),
    "max_game_turns": (1, 500),
}


_NAME_LISTS = ("kf_starting_wargear", "kf_wishlist", "zombie_rules", "catalogue_files", "squad_wargear", "shop")


def _validate_field(cfg: GameConfig, f) -> None:
    value = getattr(cfg, f.name)
    choices = f.metadata.get("choices", ())
    if f.name in _INT_RANGES:
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
        parse_dice(value, f.name)
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
    return PlayerConfig(name, team_obj, policy_from(row.get("policy", "advance"), where))


def load_config(path: str | Path) -> GameConfig:
    """Read a game config file (TOML); errors are one-line ConfigErrors."""
    path = Path(path)
    return config_from_dict(read_toml(path, "config", ConfigError), str(path), path.parent)



