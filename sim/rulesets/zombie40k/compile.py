"""Zombie 40,000 (zombie40k.md): compile a GameConfig into the kernels' Tables.

A new rule system adds a module beside this one (``sim/rulesets/<id>.py``) with its own
``compile_tables`` and kernels; nothing here is shared state.
"""

from __future__ import annotations

import functools
from dataclasses import replace
from fractions import Fraction

import numpy as np

from kernels.w40k import columns as L
from kernels.zombie40k import columns as GL
from kernels.zombie40k.state import ID_AUTOGUN, ID_CCW, ID_SHOTGUN, N_IDS, X_BOSS, X_ORK_BOY, X_ZOMBIE, Tables
from sim.rulesets.zombie40k.catalogue import catalogue, catalogue_file
from sim.rulesets.zombie40k.config import ConfigError, GameConfig, parse_dice
from sim.rulesets.zombie40k.mods import KF_SLOTS, check_lore_friendly, kernel_flags, kf_prices, resolve
from sim.rulesets.zombie40k.teams import BuiltModel, build_team, check_team
from sim.w40k.catalogue import Catalogue
from sim.w40k.profiles import Profile
from sim.w40k.tables import model_flags, model_stats, weapon_table, wound_chart, ws_chart

RULESET = "zombie40k"
EXTRA_SLOTS = 3  # Ork Boy Tag-Along models a squad may gain (zombie40k §8 result 4)
DMW_SLOTS = 6  # survivors a horde may absorb under Dead Men Walking (zombie40k §10.3)
VEHICLE_ONLY = frozenset({"Melta bomb"})  # wargear that only matters against vehicles (core §8)
SPACE_MARINES = frozenset({"Space Marines", "Grey Knights"})  # what Hatred (Space Marines) hates (core §12 VotLW)


def weapon_index(cat: Catalogue) -> dict[str, int]:
    return {name: k for k, name in enumerate(cat.weapons)}


def _zombie_side(profile: Profile, config: GameConfig, t: int, fnp: int, extra: tuple[str, ...] = ()) -> Profile:
    """A zombies-side profile with the rule options (A4) and a mod's Toughness / FNP (0 = keep)."""
    rules = set(profile.rules) | set(extra)
    if config.rending_owner != "zombies":
        rules.discard("rending")
    if fnp == 7:
        rules.discard("feel_no_pain")
    elif fnp:
        rules.add("feel_no_pain")
    return replace(profile, rules=frozenset(rules), t=t or profile.t, fnp=fnp or profile.fnp)


def zombie_profile(config: GameConfig, cat: Catalogue) -> Profile:
    """The Zombie of zombie40k §11.1 as the config (and its mods, §10) make it."""
    return _zombie_side(cat.unit("Zombie").profile, config, config.zombie_t, config.zombie_fnp, config.zombie_rules)


def boss_entry(config: GameConfig, cat: Catalogue):
    try:
        entry = cat.unit(config.boss_unit)
    except ValueError as err:
        raise ConfigError(f"boss_unit: {err}") from None
    if entry.side != "zombies":
        raise ConfigError(f"boss_unit = {config.boss_unit!r}: not a zombies-side unit; allowed: "
                          + ", ".join(u.name for u in cat.units.values() if u.side == "zombies"))
    return entry


def boss_profile(config: GameConfig, cat: Catalogue) -> Profile:
    return _zombie_side(boss_entry(config, cat).profile, config, config.boss_t, config.boss_fnp)


def catalogue_for(config: GameConfig) -> Catalogue:
    """The packaged catalogue, plus the config's extra catalogue files, at the config's
    ``unit_costs`` (points per model replacing the catalogue's)."""
    if not config.catalogue_files:
        return _packaged_at(tuple(config.unit_costs))
    try:
        cat = catalogue_file(*config.catalogue_files)  # read afresh: the user may be editing it
    except ValueError as err:
        raise ConfigError(f"catalogue_files: {err}") from None
    return with_unit_costs(cat, config.unit_costs) if config.unit_costs else cat


@functools.lru_cache(maxsize=256)
def _packaged_at(unit_costs: tuple[tuple[str, str], ...]) -> Catalogue:
    """The packaged catalogue at these costs (cached: a rebalance compiles many priced games)."""
    return with_unit_costs(catalogue(), unit_costs) if unit_costs else catalogue()


def with_unit_costs(cat: Catalogue, unit_costs) -> Catalogue:
    """The catalogue with each named unit at a new cost per model (its block price = cost x models
    in the block, so points per model stay exact: zombie40k §2)."""
    units = dict(cat.units)
    for name, cost in unit_costs:
        try:
            entry = cat.unit(name)
        except ValueError as err:
            raise ConfigError(f"unit_costs: {err}") from None
        units[entry.name] = replace(entry, block_cost=Fraction(cost) * entry.block_models)
    return replace(cat, units=units)


def cost_factor(config: GameConfig, team_name: str) -> Fraction:
    """The multiplier of a team's cost (``team_cost_factors``; 1 for a team it does not name)."""
    return Fraction(dict(config.team_cost_factors).get(team_name, 1))


def _gear_row(weapon_names: tuple[str, ...], cat: Catalogue, index: dict[str, int]) -> np.ndarray:
    """Weapon-table rows per gear slot: up to three ranged, two melee, one grenade."""
    row = np.full(GL.N_GEAR, -1, np.int16)
    ranged, melee, grenades = [], [], []
    for name in weapon_names:
        w = cat.weapon(name)
        (melee if w.kind == "melee" else grenades if w.kind == "grenade" else ranged).append(w)
    grenades.sort(key=lambda w: (w.blast == "", -_grenade_strength(w)))
    for slot, w in zip((GL.G_RANGED0, GL.G_RANGED1, GL.G_RANGED2), ranged):
        row[slot] = index[w.name]
    melee = [w for w in melee if w.name not in VEHICLE_ONLY]
    for slot, w in zip((GL.G_MELEE0, GL.G_MELEE1), melee):
        row[slot] = index[w.name]
    if grenades:
        row[GL.G_GRENADE] = index[grenades[0].name]
    return row


def _grenade_strength(w) -> int:
    return int(w.strength) if w.strength.isdigit() else 0


def _model_row(model: BuiltModel, cat, index, extra_flags: int = 0):
    stats = model_stats(model.profile)
    flags = model_flags(model.profile) | extra_flags | (L.MR_LEADER if model.is_leader else 0)
    return stats, flags, _gear_row(model.weapons, cat, index)


def max_models(config: GameConfig, cat: Catalogue) -> int:
    squads = max(len(p.team.models) for p in config.players) + EXTRA_SLOTS
    return max(squads, config.horde_size + DMW_SLOTS)


def compile_tables(config: GameConfig, cat: Catalogue | None = None) -> Tables:
    """Everything the kernels need to play this configuration."""
    flags = kernel_flags(config)
    config = resolve(config)
    cat = cat or catalogue_for(config)
    check_lore_friendly(config, cat)
    index = weapon_index(cat)
    n_p, mm = config.n_players, max_models(config, cat)
    squad_stats = np.zeros((n_p, mm, L.N_STATS), np.int16)
    squad_wounds = np.zeros((n_p, mm), np.int16)
    squad_flags = np.zeros((n_p, mm), np.int64)
    squad_gear = np.full((n_p, mm, GL.N_GEAR), -1, np.int16)
    wargear = _weapons_of(config.squad_wargear, cat, "squad_wargear (kf_starting_wargear under killing_floor)")
    for p, player in enumerate(config.players):
        _check_team(p, player, config, cat)
        built = build_team(player.team, cat, allow_usr=config.usr_allowed)
        for m, k in enumerate(removal_order(player, built)):
            model = replace(built[k], weapons=wargear) if config.squad_wargear else built[k]
            marine = L.MR_SPACE_MARINE if cat.unit(player.team.models[k].unit).faction in SPACE_MARINES else 0
            squad_stats[p, m], squad_flags[p, m], squad_gear[p, m] = _model_row(model, cat, index, marine)
            squad_wounds[p, m] = model.profile.w
    extra_stats, extra_flags, extra_gear = _extras(config, cat, index)
    ids = np.zeros(N_IDS, np.int64)
    ids[ID_AUTOGUN], ids[ID_CCW] = index["Autogun"], index["Close combat weapon"]
    ids[ID_SHOTGUN] = index["Shotgun"]  # the Shotgun power-up against players (zombie40k §8 result 8)
    return Tables(
        weapons=weapon_table(cat.weapons.values()), wound_chart=wound_chart(), ws_chart=ws_chart(),
        geom=config.geometry.array(), prm=parameters(config, flags), policy=policies(config),
        squad_stats=squad_stats, squad_wounds=squad_wounds, squad_flags=squad_flags, squad_gear=squad_gear,
        extra_stats=extra_stats, extra_flags=extra_flags, extra_gear=extra_gear, ids=ids,
        pu_value=powerup_values(config), horde_size=np.array([config.horde_size]), shop=shop_table(config, cat, index),
    )


def removal_order(player, built: tuple[BuiltModel, ...]) -> list[int]:
    """The team's models (indices in the team file) in the squad's slots: slot 0 is the closest
    model, the first casualty (docs/space.md). Policy ``removal`` 0: expendable models first, then
    special weapons (a weapon swap), the sergeant and the carriers of a unit rule the others lack
    (whose rule the whole squad loses with them) last, as a player removes them (issue 26); a
    model rule (a Feel No Pain USR) stays with its model's place. 1: as listed."""
    n = len(built)
    if player.policy.removal == 1:
        return list(range(n))
    flags = [model_flags(b.profile) & L.MR_UNIT_RULES for b in built]
    shared = functools.reduce(lambda a, b: a & b, flags, ~0)
    team = player.team

    def rank(k: int) -> int:
        if built[k].is_leader or flags[k] & ~shared:
            return 2
        return 1 if team.models[k].swap else 0

    return sorted(range(n), key=lambda k: (rank(k), k))


def _check_team(p: int, player, config: GameConfig, cat: Catalogue) -> None:
    """zombie40k §2: a team that breaks a team-building rule does not play."""
    budget = Fraction(config.team_budget) / cost_factor(config, player.team.name)  # its points x factor fit
    problems = check_team(player.team, budget, cat, allow_usr=config.usr_allowed)
    if problems:
        where = player.team.source or player.team.name
        raise ConfigError(f"players[{p}] {player.name!r}: team {where}: {problems[0]} (see `shamble roster check`)")


def _weapons_of(items: tuple[str, ...], cat: Catalogue, field: str) -> tuple[str, ...]:
    try:
        return tuple(w.name for item in items for w in cat.profiles_of(item))
    except ValueError as err:
        raise ConfigError(f"{field}: {err}") from None


def powerup_values(config: GameConfig) -> np.ndarray:
    """float64[13]: how a squad rates each result when it rolls twice; a removed one never wins."""
    values = np.array((0.0, 0.0) + tuple(config.powerup_values))
    values[list(config.powerups_removed)] = -1e9
    return values


def shop_table(config: GameConfig, cat: Catalogue, index: dict[str, int]) -> np.ndarray:
    """int64[n_items, N_SHOP]: the Killing Floor wish list, best first (zombie40k §10.11)."""
    prices = kf_prices(config, cat)
    rows = np.zeros((len(config.shop), GL.N_SHOP), np.int64)
    by_lower = {name.lower(): name for name in prices}
    for k, item in enumerate(config.shop):
        if item.lower() not in by_lower:
            raise ConfigError(f"kf_wishlist: {item!r} is not on the Killing Floor list; allowed: {', '.join(prices)}")
        name = by_lower[item.lower()]
        table, cost, psyker = prices[name]
        profile = cat.profiles_of(name)[0]  # a two-profile item (missile launcher) uses its first
        rows[k] = (index[profile.name], KF_SLOTS[table], int(cost), psyker, table == "grenades")
    return rows


def _extras(config, cat, index):
    stats = np.zeros((3, L.N_STATS), np.int16)
    flags = np.zeros(3, np.int64)
    gear = np.full((3, GL.N_GEAR), -1, np.int16)
    rows = {
        X_ZOMBIE: (zombie_profile(config, cat), ("Close combat weapon",), L.MR_ZOMBIE),
        X_BOSS: (boss_profile(config, cat), boss_entry(config, cat).wargear, L.MR_ZOMBIE),
        X_ORK_BOY: (cat.unit("Ork Boy (power-up)").profile, cat.unit("Ork Boy (power-up)").wargear, 0),
    }
    for k, (profile, wargear, extra) in rows.items():
        weapons = tuple(w.name for item in wargear for w in cat.profiles_of(item))
        stats[k], flags[k], gear[k] = _model_row(BuiltModel(profile, weapons), cat, index, extra)
    return stats, flags, gear


def _dice(prm: np.ndarray, base: int, text: str, name: str) -> None:
    prm[base: base + 3] = parse_dice(text, name)


def parameters(config: GameConfig, flags: dict[int, float] | None = None) -> np.ndarray:
    """float64[N_PRM]: the scalar parameters (kernels.zombie40k.columns P_*), then the mods' kernel flags."""
    prm = np.zeros(GL.N_PRM)
    c = config
    scalars = {
        GL.P_TABLE_W: c.width, GL.P_TABLE_L: c.table_length_in, GL.P_EV_W: c.ev_width_in,
        GL.P_EV_D: c.ev_depth_in, GL.P_DEPLOY_DEPTH: c.deploy_depth_in, GL.P_DEPLOY_SEP: c.deploy_separation_in,
        GL.P_RESPAWN_MARGIN: c.respawn_margin_in, GL.P_PVP_ZONE: c.pvp_zone_in,
        GL.P_CHAINSAW_HIT_ON: c.chainsaw_hit_on, GL.P_SHOTGUN_RANGE: c.shotgun_powerup_range_in,
        GL.P_SHOTGUN_HIT_ON: c.shotgun_powerup_hit_on, GL.P_SHOTGUN_SHOTS: c.shotgun_powerup_shots,
        GL.P_MUSH_MOVE: c.mushroom_move_bonus_in, GL.P_MUSH_INIT: c.mushroom_init_bonus,
        GL.P_BOSS_RESPAWNS: c.boss_respawns, GL.P_BOSS_KILL_POWERUP: c.boss_kill_gives_powerup,
        GL.P_MAX_TURNS: c.max_game_turns, GL.P_SURROUNDED_RATIO: c.surrounded_ratio,
        GL.P_ZOMBIE_BAND: c.zombie_deploy_band_in, GL.P_EMBARK_ANY: c.embark_any_model,
        GL.P_EMBARK_ON_RUN: c.embark_on_run, GL.P_ORDER: ("rolloff", "fixed", "rotate").index(c.order),
        GL.P_SHAMBLE_PREFERS_UNENGAGED: c.shamble_prefers_unengaged,
        GL.P_GRUDGE: ("until_death", "game", "one_turn").index(c.grudge_persistence),
        GL.P_FREE_FIRE: c.free_fire_into_zombie_combats,
        GL.P_EDGE_ARRIVAL: ("place_then_shamble", "move_on_from_edge").index(c.edge_arrival),
        GL.P_RESULT6: ("in_front_of_leader", "random", "block_ev").index(c.result6_policy),
        GL.P_CATCHUP: ("push_if_leader_in_zone", "roll_twice", "push").index(c.catchup_policy),
        GL.P_BOSS_GUARD: c.boss_guard_radius_in, GL.P_SPACING: c.model_spacing_in, GL.P_BASE_R: c.base_radius_in,
        GL.P_RESULT6_GAP: c.result6_gap_in, GL.P_MAX_RESPAWNS: c.max_respawns,
        GL.P_POWERUPS: c.powerups_enabled, GL.P_PVP: 1, GL.P_PU_REMOVED: sum(1 << r for r in c.powerups_removed),
        GL.P_DK_START_T: c.dk_start_t, GL.P_DK_START_FNP: c.dk_start_fnp, GL.P_DK_MAX_T: c.dk_max_t,
        GL.P_DK_MAX_FNP: c.dk_max_fnp, GL.P_DK_GLOBAL: c.dk_scope == "global", GL.P_EMFH_RADIUS: c.emfh_radius_in,
        GL.P_EMFH_FAIL_ON: c.emfh_fail_on, GL.P_EMFH_ALL: c.emfh_scope == "all",
        GL.P_COOP_NO_RESPAWN_RADIUS: c.coop_no_respawn_radius_in, GL.P_KF_PER_KILL: c.kf_points_per_kill,
        GL.P_PSYCHIC: c.psychic_enabled, GL.P_DMW_FNP: c.dmw_fnp,
        GL.P_SURROUNDED_GEOMETRIC: c.surrounded_rule == "geometric",
        GL.P_BILE_CORRIDOR: c.bile_corridor_in, GL.P_RENDING_VS_ZOMBIES: c.rending_owner == "survivors",
        GL.P_TERRAIN_N: c.terrain_pieces, GL.P_TERRAIN_R: c.terrain_piece_radius_in,
        GL.P_TERRAIN_COVER: c.terrain_cover, GL.P_TERRAIN_DANGEROUS: c.terrain_dangerous,
        GL.P_PLANNER_STRAIGHT: c.move_planner == "straight", GL.P_FRIENDLY_GAP: c.zombie_unit_gap_in,
        GL.P_FIRST_ZOMBIE: c.n_players,
        GL.P_EMFH_STOPS_FALL_BACK: c.emfh_stops_fall_back, GL.P_PUSH_THROUGH: c.pushback_through_units,
        GL.P_DK_FAILED_ARRIVALS: c.dk_escalates_on_failed_arrival,
        GL.P_DEFIB_AS_FALLEN: c.defib_revives == "as_fallen",
        GL.P_GRUDGE_RANDOM: c.grudge_from_random_hits,
        GL.P_SWEEP_HIGHEST: c.sweep_rule == "highest_initiative",
        GL.P_BOSS_GUARD_NEAREST: c.boss_guard_reading == "nearest", GL.P_RESPAWN_LINE: c.respawn_band == "line",
    }
    for key, value in (scalars | (flags or {})).items():
        prm[key] = float(value)
    _dice(prm, GL.P_CONSOL_N, c.consolidate_dice, "consolidate_dice")
    _dice(prm, GL.P_SHAMBLE_N, c.shamble_dice, "shamble_dice")
    prm[GL.P_CSCATTER_N] = parse_dice(c.centre_scatter_dice, "centre_scatter_dice")[0]
    _dice(prm, GL.P_PUSH_N, c.pushback_dice, "pushback_dice")
    return prm


def policies(config: GameConfig) -> np.ndarray:
    """float64[P, N_POL] (kernels.zombie40k.columns POL_*)."""
    out = np.zeros((config.n_players, GL.N_POL))
    for p, player in enumerate(config.players):
        pol = player.policy
        out[p] = (pol.hunt_radius_in, pol.run, pol.target, pol.pvp, pol.charge, pol.charge_max, pol.duct_tape,
                  pol.mushroom, pol.medpack, pol.defibrillator, pol.decisions)
    return out


def n_units(config: GameConfig) -> int:
    """Squads, hordes and the Boss."""
    return config.n_players * (1 + config.hordes_per_player) + 1

