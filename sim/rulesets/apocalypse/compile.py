"""Compile a Zombie Apocalypse config into the tables its kernels read (design.md decision 2).

``compile_tables(config)`` builds every army (``sim.rulesets.apocalypse.armies``), the weapon table
of what they carry, the zombie profiles, the scalar parameters and the policies; ``sizes(config)``
gives the slot counts of a batch state (unit slots, model slots per unit, horde slots, special
slots, spawners).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kernels.apocalypse import columns as C
from kernels.apocalypse.state import N_GEAR, Tables
from kernels.w40k import columns as L
from sim.rulesets.apocalypse.armies import BuiltUnit, build_units
from sim.rulesets.apocalypse.catalogue import UNIT_TYPES, catalogue
from sim.rulesets.apocalypse.config import (
    TRAITS,
    ApocalypseConfig,
    ConfigError,
    PlayerConfig,
    Policy,
    check_player_army,
)
from sim.w40k.tables import model_flags, model_stats, weapon_table, wound_chart, ws_chart
from sim.w40k.vehicle_attack import VehicleRules

DEFAULT_MELEE = "Close combat weapon"
TRANSPORT_MOVE = 12  # V11: a Dedicated Transport moves up to 12" (the 7th-edition core's vehicle move) [C]
ROLES = {"trooper": C.ROLE_TROOPER, "character": C.ROLE_CHARACTER, "independent": C.ROLE_IC}


@dataclass(frozen=True)
class Sizes:
    """Slot counts of a batch state for a config."""

    players: int
    units: int
    models: int
    hordes: int
    specials: int
    spawners: int


FLYING = ("jump_infantry", "jet_pack_infantry", "jetbike")


def built_armies(config: ApocalypseConfig) -> list[tuple[BuiltUnit, ...]]:
    """Every player's army checked (§2: at the config's ``unit_costs``, within the points limit / its
    ``army_cost_factors``) and built from the catalogue: a model's points (``MI_COST``, read for the
    Warlord's Legendary Fighter, §7) are its printed ones, so prices that buy the same models
    compile the same tables (docs/apocalypse.md "Prices")."""
    cat = catalogue()
    out = []
    for k, p in enumerate(config.players):
        check_player_army(config, k, f"players[{k}] ({p.name})")
        try:
            army = build_units(p.army, cat)
        except ValueError as err:
            raise ConfigError(f"players[{k}] ({p.name}): {err}") from None
        for unit in army:
            if config.jump_packs == "refused" and unit.unit_type in FLYING:
                raise ConfigError(f"players[{k}] ({p.name}): A6 jump_packs = refused: {unit.datasheet!r} is "
                                  f"{unit.unit_type.replace('_', ' ')}; allowed: units that cannot fly")
        out.append(army)
    return out


def sizes(config: ApocalypseConfig, armies=None) -> Sizes:
    armies = armies if armies is not None else built_armies(config)
    n = config.n_players
    units = sum(len(a) for a in armies)
    biggest = max(len(u.models) for a in armies for u in a)
    models = sum(len(u.models) for a in armies for u in a)
    spawners = max(1, config.spawn_points or n)
    wrecks = sum(1 for a in armies for u in a if u.vehicle is not None)  # §10: each wreck may become a spawner
    return Sizes(n, units, biggest + n, 32 + 12 * n, models + 2, spawners + wrecks)


def sizes_of(config: ApocalypseConfig, tables: Tables) -> Sizes:
    """The slot counts of a config's compiled tables (without rebuilding its armies)."""
    n = config.n_players
    units, models = tables.ut_stats.shape[0], tables.ut_stats.shape[1]
    wrecks = int((tables.ut_info[:, 0, C.MI_VEHICLE] != C.VK_NONE).sum())
    return Sizes(n, units, models, 32 + 12 * n, int((tables.ut_wounds > 0).sum()) + 2,
                 max(1, int(tables.prm[C.P_SPAWN_POINTS])) + wrecks)


def warlord_trait(player: PlayerConfig, hq_fnp: int) -> int:
    """P8: the chosen trait; "auto" takes Tenacity for a Warlord with no Feel No Pain, else Inspiring
    Presence."""
    if player.trait == "auto":
        return C.TRAIT_TENACITY if hq_fnp >= L.NONE else C.TRAIT_INSPIRING
    return TRAITS.index(player.trait)


def policy_row(policy: Policy, trait: int) -> np.ndarray:
    row = np.zeros(C.N_POL)
    row[C.POL_PLAN] = policy.plan
    row[C.POL_MARGIN] = policy.margin_turns
    row[C.POL_STANDOFF] = policy.standoff_in
    row[C.POL_AURA_PENALTY] = policy.aura_penalty_in
    row[C.POL_AURA_PER_MODEL] = policy.aura_per_model
    row[C.POL_WARLORD_PLAN] = policy.warlord_plan
    row[C.POL_RUN] = policy.run
    row[C.POL_SHOOT] = policy.shoot
    row[C.POL_THREAT] = policy.threat_in
    row[C.POL_FIRE_UNTIL] = policy.fire_until
    row[C.POL_HEAVY_WARLORD] = policy.heavy_only_for_warlords
    row[C.POL_REROLL] = policy.reroll
    row[C.POL_OVERWATCH] = policy.overwatch
    row[C.POL_SUPER] = policy.super_squad
    row[C.POL_ESCORT] = policy.escort
    row[C.POL_TARGET] = policy.target
    row[C.POL_CHARGE] = policy.charge
    row[C.POL_CHARGE_MAX] = policy.charge_max
    row[C.POL_BODYGUARD] = policy.bodyguard
    row[C.POL_FORCE] = policy.force
    row[C.POL_MERGE] = policy.merge
    row[C.POL_GRENADE] = policy.grenade
    row[C.POL_BLIND] = policy.blind
    row[C.POL_DECISIONS] = policy.decisions
    row[C.POL_DISEMBARK] = policy.disembark_in
    row[C.POL_TRAIT] = trait
    return row


def parameters(config: ApocalypseConfig) -> np.ndarray:
    """Tables.prm: every scalar the kernels read (kernels.apocalypse.columns P_*)."""
    c = config
    roll_n, count_n = c.bonus
    prm = np.zeros(C.N_PRM)
    values = {
        C.P_N: c.n_players, C.P_TURNS: c.game_turns, C.P_TABLE: c.table_in, C.P_CORNER: c.corner_in,
        C.P_ZONE_R: c.zone_radius_in, C.P_ZONE_SQUARE: c.zone_shape == "square",
        C.P_SPAWN_POINTS: c.spawn_points or c.n_players, C.P_SCATTER_DICE: c.scatter_dice,
        C.P_SCATTER_BONUS: roll_n, C.P_EXCLUSION: c.exclusion_in, C.P_SPAWNER_R: c.spawner_radius_in,
        C.P_RESCATTER: c.illegal_scatter == "rescatter", C.P_START_DICE: c.start_dice, C.P_START_BONUS: count_n,
        C.P_WAVE_START: c.wave_start, C.P_EDGE_DICE: c.edge_dice, C.P_EDGE_BONUS: count_n,
        C.P_EXCHANGE_COST: c.exchange_cost, C.P_EXCHANGE: {"none": 0, "keep_ratio": 1, "maximise": 2}[c.exchange],
        C.P_EXCHANGE_ALL: c.exchange_batches == "all", C.P_GRAVEYARD: c.graveyard,
        C.P_GRAVE_Z: c.graveyard_zombies, C.P_GRAVE_BONUS: count_n, C.P_GRAVE_J: c.graveyard_juggernauts,
        C.P_GRAVE_END_ONLY: c.graveyard_trigger == "end_move", C.P_FOGGY: c.foggy, C.P_AURA_R: c.aura_in,
        C.P_AURA_LD: c.aura_fear_modifier, C.P_AURA_MORALE: c.aura_fear_effect == "fall_back",
        C.P_SPAWNER_S: c.spawner_blast_s, C.P_MERGE: c.merge_in, C.P_BONUS_PER: c.bonus_per,
        C.P_SPLIT_MIN: c.split_min, C.P_PLAGUE_ON: c.plague_on, C.P_PLAGUE_IC_ON: c.plague_ic_on,
        C.P_RES_INV: c.resilience_inv, C.P_RES_BEST: c.resilience_best, C.P_FZ_INV: c.first_zombie_inv,
        C.P_FZ_STACK: c.first_zombie_bonus == "stack", C.P_JUGG_RATIO: c.juggernaut_ratio,
        C.P_JUGG_FNP: c.juggernaut_fnp, C.P_BRUTE_DW: c.brutes_dull_witted, C.P_STR_CAP: c.strength_cap,
        C.P_NOISE_PISTOL: c.noise_pistol, C.P_NOISE_ASSAULT: c.noise_assault,
        C.P_NOISE_RAPID_D3: c.noise_rapid_fire_d3, C.P_NOISE_HEAVY_D3: c.noise_heavy_d3,
        C.P_NOISE_HEAVY_BONUS: count_n, C.P_NOISE_TEMPLATE: c.noise_template,
        C.P_NOISE_REROLL_D3: c.noise_reroll_d3, C.P_NOISE_PSY_UNTYPED: c.noise_psychic_untyped,
        C.P_NOISE_PER_SHOT: c.noise_per == "shot", C.P_PSY_FULL: c.psychic_noise == "full_type",
        C.P_MOVE_NOISE_CHARGES: c.movement_noise == "include_charges", C.P_INF_NOISE_PER: c.infantry_noise_per,
        C.P_JUMP_NOISE_D3: c.jump_noise_d3, C.P_JUMP_NOISE_ADD: 2, C.P_BIKE_NOISE_D3: c.bike_noise_d3,
        C.P_BIKE_NOISE_ADD: 3, C.P_OVER12_D3: c.over12_noise_d3, C.P_OVER12_ADD: 2, C.P_NOISE6_IN: 6.0,
        C.P_NOISE12_IN: 12.0, C.P_Z_MOVE: c.zombie_move_in, C.P_Z_RUN_DICE: c.zombie_run_dice,
        C.P_CHARGE_RANGE: c.charge_range_in, C.P_T_CAP: c.t_cap, C.P_W_CAP: c.w_cap,
        C.P_BASE_R: c.base_radius_in, C.P_SPACING: c.model_spacing_in, C.P_Z_SPACING: c.zombie_spacing_in,
        C.P_ENGAGED_DEPTH: c.engaged_depth_in, C.P_ALLOC_RANDOM: c.allocation == "random",
        C.P_MAX_ZOMBIES: c.max_zombies, C.P_EDGE_RANDOM: c.edge_position == "random",
        C.P_WHOLLY: c.extraction == "wholly", C.P_MOO_ALL: c.master_of_offence_scope == "all",
        C.P_LF_MULT: c.legendary_multiplier, C.P_LF_COST: c.legendary_cost,
        C.P_SUPER_ANY: c.super_squad_timing == "any", C.P_LOS_ON: c.look_out_sir_on, C.P_PRECISION: c.precision,
        C.P_SPAWNERS_FIRST: not c.spawners_after_players, C.P_WRECK_WAVES: c.wreck_waves, C.P_INF_MOVE: 6.0,
        C.P_FAST_MOVE: 12.0, C.P_ZONE_COVER: c.zone_cover, C.P_DEPLOY_GAP: 0.0,
        C.P_FALLBACK_DICE: c.fall_back_dice, C.P_CONSOLIDATE_DICE: c.consolidate_dice,
        C.P_SALVO_HEAVY: c.salvo_noise == "heavy", C.P_FZ_AT_CENTRE: c.first_zombie_at == "centre",
        C.P_SPLIT_CHARGE: c.split_charges, C.P_EDGE_BAND: c.edge_band_in, C.P_SPAWNER_AVOID: 0.0,
        C.P_PSYCHIC: c.psychic, C.P_FREE_UNITS: c.free_units == "merge_same_datasheet",
        C.P_GRENADE_QUIET: c.grenade_noise == "none", C.P_BLIND_ON: c.blind_effect,
        C.P_TERRAIN_LAYOUT: ("none", "random", "city").index(c.terrain), C.P_TERRAIN_N: c.terrain_pieces,
        C.P_TERRAIN_R: c.terrain_piece_radius_in, C.P_TERRAIN_COVER: c.terrain_cover,
        C.P_PRIORITY_SHOOT: c.target_priority == "must_shoot", C.P_AURA_ATSKNF: c.aura_fear_atsknf == "passes",
        C.P_PLAGUE_FNP: c.plague_fnp == "counted", C.P_SUPPORT_JOIN: c.supporting == "join",
        C.P_EXPLOSION_S: {"d6_s4": 4, "d6_s3": 3}[c.vehicle_explosion], C.P_EXPLOSION_DICE: 1,
        C.P_VEHICLE_NOISE_D3: 2, C.P_VEHICLE_NOISE_ADD: 3,
        C.P_ASSAULT_ALL4: c.vehicle_assault_hits == "all_4", C.P_TRANSPORT_MOVE: TRANSPORT_MOVE,
    }
    for k, v in values.items():
        prm[k] = float(v)
    return prm


def _zombie_rows(cat) -> tuple[np.ndarray, np.ndarray]:
    stats = np.zeros((C.N_ZK, L.N_STATS), np.int16)
    flags = np.zeros(C.N_ZK, np.int64)
    for row, name in ((C.ZK_ZOMBIE, "Zombie"), (C.ZK_JUGGERNAUT, "Juggernaut"), (C.ZK_FIRST, "First Zombie")):
        profile = cat.unit(name).profile
        stats[row] = model_stats(profile)
        flags[row] = model_flags(profile)
    stats[C.ZK_BRUTE, L.WS], stats[C.ZK_BRUTE, L.BS], stats[C.ZK_BRUTE, L.I], stats[C.ZK_BRUTE, L.LD] = 2, 0, 3, 5
    flags[C.ZK_BRUTE] = L.MR_FEARLESS  # §4: every zombie rule (Fearless is the one the kernels read)
    return stats, flags


REMOVAL_RANK = {"trooper": 0, "character": 1, "independent": 2}


def removal_order(unit, policy: Policy) -> list:
    """The unit's models in slot order, which is the order its casualties are taken (the kernels
    wound the lowest living slot: core §6.6's closest model, which the owner's formation decides).
    Policy ``removal`` 1:
    as a player would - plain troopers first, then the dearer ones (special and heavy weapons),
    then the sergeant, Independent Characters last; 0: the order bought (the models with weapon
    swaps first). An HQ unit keeps its order (its first model is the Warlord)."""
    if unit.is_hq or policy.removal == 0:
        return list(unit.models)
    order = sorted(range(len(unit.models)), key=lambda m: (REMOVAL_RANK[unit.models[m].role], unit.models[m].cost, m))
    return [unit.models[m] for m in order]


def compile_tables(config: ApocalypseConfig) -> Tables:
    """The Tables of one configuration (validated; errors are one-line ConfigErrors)."""
    cat = catalogue()
    armies = built_armies(config)
    size = sizes(config, armies)
    names = sorted({w for a in armies for u in a for m in u.models for w in m.weapons} | {DEFAULT_MELEE})
    weapons = weapon_table(cat.weapon(n) for n in names)
    row_of = {n: k for k, n in enumerate(names)}
    datasheets = sorted({u.datasheet for a in armies for u in a})
    t_count, k_slots = size.units, size.models
    ut_owner = np.zeros(t_count, np.int64)
    ut_type = np.zeros(t_count, np.int64)
    ut_sheet = np.zeros(t_count, np.int64)
    ut_stats = np.zeros((t_count, k_slots, L.N_STATS), np.int16)
    ut_wounds = np.zeros((t_count, k_slots), np.int16)
    ut_flags = np.zeros((t_count, k_slots), np.int64)
    ut_gear = np.full((t_count, k_slots, N_GEAR), -1, np.int16)
    ut_info = np.zeros((t_count, k_slots, C.N_MI), np.int16)
    ut_carrier = np.full(t_count, -1, np.int64)
    policy = np.zeros((config.n_players, C.N_POL))
    t = 0
    for p, (player, army) in enumerate(zip(config.players, armies)):
        hq = army[0].models[0].profile
        policy[p] = policy_row(player.policy, warlord_trait(player, model_stats(hq)[L.FNP]))
        model_id = 0
        for unit in army:
            ut_owner[t], ut_type[t] = p, UNIT_TYPES.index(unit.unit_type)
            if unit.vehicle is not None and not unit.vehicle.is_walker:  # V11: its squad, listed just before it
                ut_carrier[t - 1] = t
            ut_sheet[t] = datasheets.index(unit.datasheet)
            ml = 0 if unit.vehicle is not None else cat.unit(unit.datasheet).mastery_level
            for m, model in enumerate(removal_order(unit, player.policy)):
                stats = model_stats(model.profile)
                stats[L.T] = min(stats[L.T], config.t_cap)
                stats[L.W] = min(stats[L.W], config.w_cap)
                ut_stats[t, m], ut_wounds[t, m] = stats, stats[L.W]
                ut_flags[t, m] = model_flags(model.profile)
                if len(model.weapons) > N_GEAR:
                    raise ConfigError(f"players[{p}]: a {unit.datasheet} carries {len(model.weapons)} weapon "
                                      f"profiles; allowed: up to {N_GEAR}")
                for k, w in enumerate(model.weapons):
                    ut_gear[t, m, k] = row_of[w]
                info = ut_info[t, m]
                info[C.MI_OWNER], info[C.MI_ROLE] = p, ROLES[model.role]
                info[C.MI_COST], info[C.MI_ID] = int(model.cost), model_id
                info[C.MI_ML] = ml if "psyker" in model.profile.rules else 0
                info[C.MI_WARLORD] = int(unit.is_hq and m == 0)
                if unit.vehicle is not None:  # V1: a vehicle's Armour Values (docs/apocalypse.md "Vehicles in play")
                    v = unit.vehicle
                    info[C.MI_VEHICLE] = C.VK_WALKER if v.is_walker else C.VK_TRANSPORT
                    info[C.MI_AV_FRONT], info[C.MI_AV_SIDE], info[C.MI_AV_REAR] = v.front, v.side, v.rear
                    info[C.MI_OPEN_TOPPED] = int(v.open_topped)
                    info[C.MI_FIRE_POINTS] = v.fire_points
                model_id += 1
            t += 1
    zstats, zflags = _zombie_rows(cat)
    ids = np.zeros(C.N_IDS, np.int64)
    ids[C.ID_CCW] = row_of[DEFAULT_MELEE]
    v_ap_mods, v_damage = VehicleRules(config.vehicle_damage_table, config.vehicle_ap_modifiers).arrays()
    return Tables(weapons=weapons, wound_chart=wound_chart(), ws_chart=ws_chart(), geom=config.geometry.array(),
                  prm=parameters(config), policy=policy, ut_owner=ut_owner, ut_type=ut_type, ut_datasheet=ut_sheet,
                  ut_stats=ut_stats, ut_wounds=ut_wounds, ut_flags=ut_flags, ut_gear=ut_gear, ut_info=ut_info,
                  ut_carrier=ut_carrier,
                  zstats=zstats, zflags=zflags, ids=ids, v_ap_mods=v_ap_mods, v_damage=v_damage)
