"""Column layouts of the Zombie Apocalypse state and tables (house style: every field named).

``sim.rulesets.apocalypse.compile`` fills the tables with these indices; the kernels read them and
never see a Python object. Spec sections are those of ``shared/rules/zombie-apocalypse.md``.
"""

from __future__ import annotations

# ---- sides, end reasons -------------------------------------------------------------------
SIDE_PLAYERS, SIDE_ZOMBIES = 0, 1
REASON_NONE, REASON_EXTRACTED, REASON_WARLORDS_DEAD, REASON_TIME = 0, 1, 2, 3  # §13

# ---- unit types (force_org.toml unit_type) ------------------------------------------------
UT_INFANTRY, UT_JUMP, UT_JET_PACK, UT_BIKE, UT_JETBIKE, UT_MONSTER, UT_WALKER, UT_TRANSPORT = range(8)
# UT_TRANSPORT: a Dedicated Transport (§2; "Vehicles in play"): a vehicle model that moves 12" and never runs
# UT_WALKER: a Walker (§2 Vehicles; docs/apocalypse.md "Vehicles in play"): a unit of one vehicle model

# ---- model roles: GameState.minfo[..., MI_ROLE] -------------------------------------------------
ROLE_TROOPER, ROLE_CHARACTER, ROLE_IC = 0, 1, 2  # core §16: a sergeant is a Character, an HQ an IC

# ---- Warlord traits (§7); TRAIT_NONE is the no-trait baseline of the paired comparisons ----
(TRAIT_NONE, TRAIT_DEFENCE, TRAIT_OFFENCE, TRAIT_TENACITY, TRAIT_LEGENDARY, TRAIT_INSPIRING,
 TRAIT_PRIORITY) = range(7)

# ---- noise sources (§9.3) and spawn sources: GameState.res counters R_SP0 + source -------------
(SRC_DEPLOY, SRC_WAVE, SRC_EDGE, SRC_GRAVEYARD, SRC_PISTOL, SRC_ASSAULT, SRC_RAPID_FIRE, SRC_HEAVY,
 SRC_TEMPLATE, SRC_REROLL, SRC_PSYCHIC, SRC_OVERWATCH, SRC_MOVEMENT, SRC_BRUTE, SRC_HELD) = range(15)
N_SRC = 15

# ---- per-unit state: int32[n, U, N_US] ------------------------------------------------------
(US_ALIVE, US_OWNER, US_TYPE, US_DATASHEET, US_START, US_PHASE_START, US_MOVED, US_RAN, US_SHOT, US_NO_CHARGE,
 US_CHARGED, US_WAS_CHARGED, US_FALLING_BACK, US_AURA_WS1, US_FEAR_WS1, US_NOISE6, US_NOISE12, US_OVERWATCHED,
 US_SUPPORTED, US_ESCORT, US_FORCE, US_REROLLED, US_FOUGHT, US_REGROUPED, US_DIFFICULT_CHARGE, US_EMBARKED,
 US_DISEMBARKED) = range(27)
N_US = 27
# US_EMBARKED: the transport unit it rides in + 1 (0 = on the table; apocalypse V11, §8): not on the table, it
# fires from the hull; US_DISEMBARKED: it got out this turn and may not move further (no Run, no charge) [C]
# US_DIFFICULT_CHARGE: it charged through difficult terrain this turn without assault grenades: I1 (core §7.1)
# US_SHOT: the horde the unit shot at this turn + 1 (0 = none); US_WAS_CHARGED: zombies charged it this
# turn (Counter-attack); US_AURA_WS1 / US_FEAR_WS1: WS 1 from a spawner's Fear test (A18) / a Fear test

# ---- per-model info: int16[n, U, K, N_MI] ---------------------------------------------------
(MI_OWNER, MI_ROLE, MI_COST, MI_ID, MI_ZW, MI_ZW_TURN, MI_ML, MI_WARLORD, MI_VEHICLE, MI_AV_FRONT, MI_AV_SIDE,
 MI_AV_REAR, MI_OPEN_TOPPED, MI_SNAP_UNTIL, MI_STUN_UNTIL, MI_VSTATUS, MI_HP_LOST, MI_REPAIRS, MI_LAST_MOVE,
 MI_FIRE_POINTS) = range(20)
N_MI = 20
# MI_FIRE_POINTS: a transport's fire points (V1; §8: with at least one, every passenger may fire)
# MI_LAST_MOVE: inches (rounded up) a vehicle moved in its players' last turn, kept through the zombies' turn (V7)
# vehicles (§8, V1-V10): MI_VEHICLE 0 = a model, VK_WALKER; MI_AV_* its Armour Values as built; MI_SNAP_UNTIL /
# MI_STUN_UNTIL the last game turn whose players' turn it fires only Snap Shots / may not move (V5 Crew Shaken,
# Crew Stunned; §10 the aura); MI_VSTATUS bits VST_*; MI_HP_LOST Hull Points lost; MI_REPAIRS 1 = this model can
# repair vehicles (§7 Master of Defence)
VK_NONE, VK_WALKER, VK_TRANSPORT = 0, 1, 2
VST_IMMOBILISED, VST_WRECKED, VST_EXPLODED = 1, 2, 4
# MI_ZW: Wounds lost to zombie attacks in the current combat (The Plague, §5); MI_ZW_TURN this turn

# ---- per-horde state: int32[n, H, N_HS] -----------------------------------------------------
HS_ALIVE, HS_Z, HS_J, HS_JH, HS_B, HS_FZ, HS_K, HS_CHARGED, HS_LOCKED, HS_BORN, HS_BLIND_HIT, HS_BLIND = range(12)
N_HS = 12
# HS_Z plain Zombies, HS_J Juggernauts (HS_JH of them have lost a Wound), HS_B Brutes, HS_FZ the
# First Zombie (0/1), HS_K the Resilience/Hordes bonus in force (losses apply at the end of the
# phase or Initiative step, §5), HS_LOCKED player units it is locked with, HS_BORN game turn spawned,
# HS_BLIND_HIT 1 = hit by a Blind attack this phase (its Initiative test comes at the phase's end, core §12),
# HS_BLIND the Blind in force: BLIND_NONE, BLIND_PENDING (its next turn not begun), BLIND_THIS_TURN
BLIND_NONE, BLIND_PENDING, BLIND_THIS_TURN = 0, 1, 2

# ---- special zombie models (Brutes, the First Zombie): kinds ---------------------------------
SK_NONE, SK_BRUTE, SK_FIRST = 0, 1, 2

# ---- spawners: int32[n, SP, N_SS] ---------------------------------------------------------
SS_ALIVE, SS_FIRST_WAVE, SS_WRECK = range(3)
N_SS = 3  # SS_WRECK: 0 = a spawn point of the set-up; a wreck's spawner (§10): the first zombie turn it waves (A14)

# ---- whole game: int32[n, N_GS] -------------------------------------------------------------
(G_TURN, G_ZTURN, G_FIRST, G_GRAVEYARD, G_HELD, G_OVER, G_N_SPAWNERS, G_PHASE, G_ACTIVE) = range(9)
N_GS = 9

# ---- phases (trace, invariants) -----------------------------------------------------------
(PH_SETUP, PH_MOVEMENT, PH_PSYCHIC, PH_SHOOTING, PH_ASSAULT, PH_Z_MOVEMENT, PH_Z_ASSAULT, PH_END) = range(8)

# ---- results per game: int32[n, N_RES] ------------------------------------------------------
(R_WINNER, R_REASON, R_TURN, R_DICE, R_WARLORDS_LEFT, R_BRUTES, R_ZKILLED, R_JUGGERNAUTS, R_MAX_HORDE,
 R_FZ_KILLED, R_GRAVEYARD_TURN, R_OVERFLOW, R_SPAWNER_DEATHS, R_AURA_WOUNDS, R_HELD_MAX, R_ON_TABLE,
 R_EXCHANGED) = range(17)
R_SP0 = 17  # zombies spawned by source: R_SP0 + SRC_* (counted as rolled, before Juggernaut exchanges)
# R_EXCHANGED: models given up by Juggernaut exchanges (3 Zombies become 1 Juggernaut: 2 fewer models)
N_RES = R_SP0 + N_SRC

# ---- results per player: int32[n, P, N_PRES] ------------------------------------------------
(PR_WL_FATE, PR_WL_EXTRACTED, PR_MODELS_START, PR_MODELS_LOST, PR_ZKILLED, PR_NOISE, PR_BRUTES, PR_TRAIT,
 PR_GRENADES, PR_HULL_LOST, PR_VEHICLES_LOST, PR_WRECK_SPAWNERS, PR_HORDE_WRECKS, PR_PASSENGERS_LOST) = range(14)
N_PRES = 14  # PR_GRENADES: grenades this player's models threw (core §6.1)
# PR_HULL_LOST Hull Points its vehicles lost, PR_VEHICLES_LOST its vehicles wrecked, PR_WRECK_SPAWNERS its
# wrecks that became spawners (§10); PR_HORDE_WRECKS its transports wrecked at once by a charge of 30+ zombies
# (§8), PR_PASSENGERS_LOST its models lost aboard a transport (its explosion, §8's 30+ charge)
WL_ALIVE, WL_KILLED, WL_BRUTE, WL_SPAWNER, WL_FLED = range(5)  # PR_WL_FATE

# ---- scalar parameters: Tables.prm float64[N_PRM] -------------------------------------------
(P_N, P_TURNS, P_TABLE, P_CORNER, P_ZONE_R, P_ZONE_SQUARE, P_SPAWN_POINTS, P_SCATTER_DICE, P_SCATTER_BONUS,
 P_EXCLUSION, P_SPAWNER_R, P_RESCATTER, P_START_DICE, P_START_BONUS, P_WAVE_START, P_EDGE_DICE, P_EDGE_BONUS,
 P_EXCHANGE_COST, P_EXCHANGE, P_EXCHANGE_ALL, P_GRAVEYARD, P_GRAVE_Z, P_GRAVE_BONUS, P_GRAVE_J, P_GRAVE_END_ONLY,
 P_FOGGY, P_AURA_R, P_AURA_LD, P_AURA_MORALE, P_SPAWNER_S, P_MERGE, P_BONUS_PER, P_SPLIT_MIN, P_PLAGUE_ON,
 P_PLAGUE_IC_ON, P_RES_INV, P_RES_BEST, P_FZ_INV, P_FZ_STACK, P_JUGG_RATIO, P_JUGG_FNP, P_BRUTE_DW, P_STR_CAP,
 P_NOISE_PISTOL, P_NOISE_ASSAULT, P_NOISE_RAPID_D3, P_NOISE_HEAVY_D3, P_NOISE_HEAVY_BONUS, P_NOISE_TEMPLATE,
 P_NOISE_REROLL_D3, P_NOISE_PSY_UNTYPED, P_NOISE_PER_SHOT, P_PSY_FULL, P_MOVE_NOISE_CHARGES, P_INF_NOISE_PER,
 P_JUMP_NOISE_D3, P_JUMP_NOISE_ADD, P_BIKE_NOISE_D3, P_BIKE_NOISE_ADD, P_OVER12_D3, P_OVER12_ADD, P_NOISE6_IN,
 P_NOISE12_IN, P_Z_MOVE, P_Z_RUN_DICE, P_CHARGE_RANGE, P_T_CAP, P_W_CAP, P_BASE_R, P_SPACING, P_Z_SPACING,
 P_ENGAGED_DEPTH, P_ALLOC_RANDOM, P_MAX_ZOMBIES, P_EDGE_RANDOM, P_WHOLLY, P_MOO_ALL, P_LF_MULT, P_LF_COST,
 P_SUPER_ANY, P_LOS_ON, P_PRECISION, P_SPAWNERS_FIRST, P_WRECK_WAVES, P_INF_MOVE, P_FAST_MOVE, P_ZONE_COVER,
 P_DEPLOY_GAP, P_FALLBACK_DICE, P_CONSOLIDATE_DICE, P_SALVO_HEAVY, P_FZ_AT_CENTRE, P_SPLIT_CHARGE,
 P_EDGE_BAND, P_SPAWNER_AVOID, P_PSYCHIC, P_FREE_UNITS, P_GRENADE_QUIET, P_BLIND_ON, P_TERRAIN_N,
 P_TERRAIN_R, P_TERRAIN_COVER, P_TERRAIN_LAYOUT, P_PRIORITY_SHOOT, P_AURA_ATSKNF, P_PLAGUE_FNP,
 P_SUPPORT_JOIN, P_EXPLOSION_S, P_EXPLOSION_DICE, P_VEHICLE_NOISE_D3, P_VEHICLE_NOISE_ADD, P_ASSAULT_ALL4,
 P_TRANSPORT_MOVE) = range(113)
N_PRM = 113
# P_ASSAULT_ALL4: vehicle_assault_hits = "all_4" (V7; 0 = auto / 4+ / 6+ by the last move); P_TRANSPORT_MOVE its move
# P_EXPLOSION_S, P_EXPLOSION_DICE: a vehicle's Explodes! hits every model within that many D6" at that Strength (V10)
# P_BLIND_ON: Blind's Initiative test and WS 1 / BS 1 (core §12; 0 = hits only, the comparison's baseline);
# P_TERRAIN_*: area terrain other than the zone (§3.1, core §5, §6.7; kernels.apocalypse.terrain)
# readings of issue 27 (docs/apocalypse.md): P_PRIORITY_SHOOT Target Priority obliges its unit to shoot (A34);
# P_AURA_ATSKNF the aura's Fear test passes for ATSKNF (§10); P_PLAGUE_FNP a wound Feel No Pain ignores still
# counts for The Plague (§5); P_SUPPORT_JOIN supporters join the combat (locked), not only strike (§6 (a))

# ---- player policies: Tables.policy float64[P, N_POL] (docs/apocalypse.md, P3-P12) -----------
(POL_PLAN, POL_MARGIN, POL_STANDOFF, POL_RUN, POL_SHOOT, POL_THREAT, POL_HEAVY_WARLORD, POL_REROLL, POL_OVERWATCH,
 POL_SUPER, POL_ESCORT, POL_TARGET, POL_CHARGE, POL_CHARGE_MAX, POL_BODYGUARD, POL_MERGE, POL_FORCE, POL_TRAIT,
 POL_AURA_PENALTY, POL_FIRE_UNTIL, POL_GRENADE, POL_BLIND, POL_AURA_PER_MODEL, POL_WARLORD_PLAN,
 POL_DECISIONS, POL_DISEMBARK) = range(26)
N_POL = 26  # POL_DECISIONS 1: the random-legal baseline (kernels.apocalypse.choices)
# POL_DISEMBARK: passengers get out when their transport ends its move within this many inches of their goal
PLAN_RUSH, PLAN_STAGED, PLAN_ESCORT = 0, 1, 2

# ---- zombie profiles: Tables.zstats int16[N_ZK, N_STATS] -------------------------------------
ZK_ZOMBIE, ZK_JUGGERNAUT, ZK_FIRST, ZK_BRUTE = range(4)  # ZK_BRUTE: WS, BS, I, Ld of a Brute
N_ZK = 4

# ---- model status bits (GameState.mstatus), beyond kernels.w40k.columns.ST_CONCUSSED ------------
ST_FORCE = 2  # the psyker's Force weapon has Instant Death until its next Psychic phase (core §13)
ST_CONC_AGED = 4  # concussed in an earlier Assault phase: lasts to the end of this one (core §12 Concussive)

# ---- weapon-table ids the kernels need: Tables.ids int64[N_IDS] ------------------------------
ID_CCW, N_IDS = 0, 1

# ---- trace events: float32[n_traced, E, N_EV] -----------------------------------------------
EV_TURN, EV_PHASE, EV_KIND, EV_A, EV_B, EV_C, EV_X, EV_Y = range(8)
N_EV = 8
(EK_UNIT, EK_SPAWNER, EK_HORDE, EK_SPAWN, EK_MOVE, EK_CHARGE, EK_FIGHT, EK_BRUTE, EK_UNIT_LOST, EK_WARLORD,
 EK_NOISE, EK_GRAVEYARD, EK_SHOOT, EK_FALL_BACK, EK_END, EK_ORDER, EK_AURA, EK_SPAWNER_DEATH, EK_JOIN,
 EK_PSYCHIC, EK_SNAP_UNIT, EK_SNAP_HORDE, EK_HMOVE, EK_FIRST_ZOMBIE, EK_BLIND, EK_TERRAIN, EK_VEHICLE,
 EK_DISEMBARK, EK_ABOARD) = range(29)
# EK_DISEMBARK (kernels.apocalypse.units.disembark): a = the squad, b = its transport, c = its models, x, y = where
# EK_ABOARD (the turn's snapshot): a = a transport, b = the models aboard it, c = their unit
# EK_VEHICLE (kernels.apocalypse.vehicles): a = the unit, b = what befell it (VEV_*, or a damage result
# of kernels.w40k.vehicles DMG_CREW_SHAKEN..DMG_EXPLODES), c = its Hull Points left, x = Hull Points lost
VEV_HULL, VEV_WRECKED = 0, 9
