"""Indices of the whole-game arrays: unit state, parameters, policies, power-ups, results.

Units of a game: squads ``0 .. P-1`` (one per player), hordes ``P .. P+H-1``, the Zombie
Boss ``P+H``. Coordinates are inches: x across the table (0 .. width), y along it from the
player starting edge (y = 0) to the Escape Vehicle edge (y = length); zombie40k §3.
"""

from __future__ import annotations

# ---- unit state: int32[n, U, N_US] -------------------------------------------------------
(US_ON_TABLE,  # 1 while the unit is on the table (not destroyed, not embarked)
 US_FALLING_BACK,  # 1 while falling back (core §9.3)
 US_CHARGED,  # 1 if the unit charged (or shambled into contact) this turn, not disordered
 US_ROUNDS,  # combat rounds fought in the current combat (Hatred: first round = 0)
 US_MOVED,  # 1 if it moved this turn (Heavy weapons fire Snap Shots)
 US_RAN,  # 1 if it ran this turn (no charge)
 US_NO_CHARGE,  # 1 if it fired a weapon that forbids charging, or may not charge for another reason
 US_SHOT_AT,  # unit it shot at this turn + 1 (0 = none): it may charge only that unit
 US_RESPAWNS,  # times the unit has come back
 US_OUT,  # 1 when the unit may never come back (mods; Boss by default)
 US_OVERWATCHED,  # 1 once it has fired Overwatch this phase
 US_BLINDED,  # Blind: 1 = WS1/BS1 and its next turn has not begun, 2 = that turn is under way, 0 = not
 US_PINNED,  # 1: Gone to Ground until the end of its next turn (Pinning)
 US_EMBARKED,  # 1 when embarked on the Escape Vehicle
 US_START_MODELS,  # models at full strength (Morale, Rampage)
 US_PHASE_MODELS,  # models at the start of the current Shooting phase (25% casualties, core §6.1)
 US_DK_LEVEL,  # Death Korps escalation steps taken (zombie40k §10.4)
 US_WIPED_BY,  # unit whose attack removed its last model + 1 (0 = not wiped)
 US_CONSOLIDATE,  # 1 if its combat ended this phase: it may consolidate
 US_KF_POINTS,  # Killing Floor points (squads)
 US_ARRIVED_EDGE,  # 1 if the horde arrived from a table edge this Zombie Turn (A23)
 US_BLIND_HIT,  # 1 if hit by a Blind attack this phase: tests Initiative at its end
 US_FORCE,  # game turn in which its Force weapons have Instant Death (psychic phase, A17)
 US_EMFH_LOST,  # game turn in which it lost its actions to Every Man For Himself (scope "all", A38)
 US_REGROUPED,  # 1 in the turn it regrouped: it counts as having moved, may not Run or charge (core §9.2)
 US_PIN_HIT,  # 1 if a Pinning weapon caused it unsaved wounds this Shooting phase (core §9.4)
 US_REACHED_ZONE,  # 1 once the squad has come within pvp_zone_in (18") of the EV (Coop Mode's trigger, §10.1)
 US_FIRED_HEAVY,  # 1 if it fired a Heavy weapon this turn (Battle Focus then forbids the Run, core §12)
 US_DRUGS,  # Combat Drugs result 1-6 rolled before the game (core §12); 0 = none
 US_CHARGED_COVER,  # 1 if it charged through difficult terrain without assault grenades: I1 this fight (core §7.1)
 US_LOCKS,  # units it is locked with (kept by units.lock / unlock_all: in_combat reads it)
 ) = range(31)
N_US = 31

# ---- unit summaries kept, not recomputed: int64[n, U, N_SU] (kernels.zombie40k.units) ------
# Filled from the unit's living models when first read after a change; every kernel that writes a
# unit's Wounds, characteristics or rules marks them stale (``units.touch``). Checked mode
# compares them with a recount after every phase (turn.count_violations).
(SU_FRESH,  # 1 while SU_ALIVE .. SU_LD hold for the unit's models now; 0 = stale
 SU_ALIVE,  # living models
 SU_ANY_RULES,  # OR of the living models' rules (MR_*)
 SU_ALL_RULES,  # AND of the living models' rules (0 when none lives)
 SU_LD,  # the highest Leadership (core §1; 0 when none lives)
 SU_MAJORITY_FRESH,  # 1 while SU_WS .. SU_I hold (counted apart, when first asked: a mixed unit's count is slower)
 SU_WS, SU_T, SU_SV, SU_I,  # the majority value of each (core §3: ties go to the highest; 0 when none lives)
 SU_VERSION,  # changes of the unit's models this game (``units.touch``): a choice made at one version holds at it
 ) = range(11)
N_SU = 11

# ---- model gear: int16[n, U, M, N_GEAR], weapon-table rows, -1 = none --------------------
G_RANGED0, G_RANGED1, G_RANGED2, G_MELEE0, G_MELEE1, G_GRENADE = range(6)
N_GEAR = 6

# ---- a model's melee choice, kept for the round: int64[U, M, N_CHOICE] (GameState.w_choice) --
# weapon row, bonus attack, step before Concussive, then who the model is (flags, the six gear
# rows, Initiative): a model placed in the slot during the round (a Dead Men Walking convert, an
# Ork Boy) is chosen for afresh
C_WEAPON, C_BONUS, C_STEP, C_FLAGS, C_GEAR0, C_INIT = 0, 1, 2, 3, 4, 10
N_CHOICE = 11

# ---- model status: GameState.mstatus bits beside kernels.w40k.columns.ST_CONCUSSED --------------
MS_CONCUSSION_ENDING = 2  # concussed before this Assault phase began: Initiative 1 ends with it (core §12)
MS_CONVERTED = 4  # a dead squad model that rose with a horde (Dead Men Walking): never revived (§10.3)

# ---- model power-ups: int8 bits ---------------------------------------------------------
MP_DUCT_ATTACK = 1  # Duct Tape +1 Attack
MP_DUCT_SHOT = 2  # Duct Tape +1 shot
MP_CHAINSAW = 4
MP_SHOTGUN = 8

# ---- squad power-ups held: int32[n, P, N_PU] ---------------------------------------------
(PU_BILE,  # Zombie Bile: 1 until the next Shamble phase ends
 PU_BANANA,  # Banana Peel: game turn in which the squad moves as through difficult terrain
 PU_MEDPACKS,  # Medpacks held
 PU_MEDPACK_ANY,  # policy: 1 spends a Medpack on any unsaved wound, 0 only on one that would kill
 PU_DEFIBS,  # Defibrillators held
 PU_MUSHROOM,  # Super Mushroom Speed Pack held (at most one)
 PU_MUSHROOM_ON,  # game turn in which the Speed Pack is active
 PU_SHADES,  # Sweet Aviator Shades: 1 until the next Shamble phase ends
 PU_CHUCK,  # the Blessing of Chuck Norris lasts until the end of the squad's turn in this game turn
 ) = range(9)
N_PU = 9

# power-up table results 2..12 (zombie40k §8)
BILE, BANANA, ORK_BOY, DUCT_TAPE, CHAINSAW, MEDPACK, SHOTGUN, MUSHROOM, DEFIB, SHADES, CHUCK = range(2, 13)

# ---- scalar parameters: float64[N_PRM] ---------------------------------------------------
(P_TABLE_W, P_TABLE_L, P_EV_W, P_EV_D, P_DEPLOY_DEPTH, P_DEPLOY_SEP, P_RESPAWN_MARGIN, P_PVP_ZONE,
 P_CONSOL_N, P_CONSOL_KEEP, P_CONSOL_D3, P_SHAMBLE_N, P_SHAMBLE_KEEP, P_SHAMBLE_D3, P_CSCATTER_N,
 P_PUSH_N, P_PUSH_KEEP, P_PUSH_D3, P_CHAINSAW_HIT_ON, P_SHOTGUN_RANGE, P_SHOTGUN_HIT_ON, P_SHOTGUN_SHOTS,
 P_MUSH_MOVE, P_MUSH_INIT, P_BOSS_RESPAWNS, P_BOSS_KILL_POWERUP, P_MAX_TURNS, P_SURROUNDED_RATIO,
 P_ZOMBIE_BAND, P_EMBARK_ANY, P_EMBARK_ON_RUN, P_ORDER, P_SHAMBLE_PREFERS_UNENGAGED, P_GRUDGE,
 P_FREE_FIRE, P_EDGE_ARRIVAL, P_RESULT6, P_CATCHUP, P_BOSS_GUARD, P_SPACING, P_BASE_R, P_RESULT6_GAP,
 P_MAX_RESPAWNS, P_POWERUPS, P_PVP, P_DMW, P_DK, P_DK_START_T, P_DK_START_FNP, P_DK_MAX_T, P_DK_MAX_FNP,
 P_DK_GLOBAL, P_EMFH, P_EMFH_RADIUS, P_EMFH_FAIL_ON, P_EMFH_ALL, P_COOP, P_COOP_NO_RESPAWN_RADIUS,
 P_KF, P_KF_PER_KILL, P_BOSS_BLOCKS_EV, P_EV_EDGE_ARRIVALS, P_PSYCHIC, P_DMW_FNP, P_SURROUNDED_GEOMETRIC,
 P_BILE_CORRIDOR, P_PU_REMOVED, P_RENDING_VS_ZOMBIES, P_TERRAIN_N, P_TERRAIN_R, P_TERRAIN_COVER,
 P_TERRAIN_DANGEROUS, P_SWEEP_HIGHEST, P_GRUDGE_RANDOM, P_DEFIB_AS_FALLEN, P_EMFH_STOPS_FALL_BACK,
 P_PUSH_THROUGH, P_DK_FAILED_ARRIVALS, P_PLANNER_STRAIGHT, P_FRIENDLY_GAP, P_FIRST_ZOMBIE,
 P_BOSS_GUARD_NEAREST, P_RESPAWN_LINE,
 ) = range(83)
N_PRM = 83
# P_BOSS_GUARD_NEAREST 1 = a guarding Boss moves only when its nearest squad is within the guard radius
# and never walks back (A14 reading "nearest"); P_RESPAWN_LINE 1 = a respawning squad is placed on the
# straight line at the required EV distance in front of the EV, not on the curve of equal distance (§5.1)
# readings of the questionable rules (issue 13 items 16-20; docs/readings.md):
# P_SWEEP_HIGHEST 1 = the highest-Initiative enemy sweeps, locked or not (core §7.5);
# P_GRUDGE_RANDOM 1 (default) = random hits into a combat set the grudge of the squad they land on (A19);
# P_DEFIB_AS_FALLEN 1 = a revived model keeps what it carried when it fell (§8 result 10);
# P_EMFH_STOPS_FALL_BACK 1 = Every Man For Himself skips the fall-back and Regroup (§10.5);
# P_PUSH_THROUGH 1 = the push-back ignores other units (A28); P_DK_FAILED_ARRIVALS 1 = a horde
# that finds no room escalates again when it retries (§10.4); P_PLANNER_STRAIGHT 1 = moves only
# on headings that gain ground, within 60 degrees (docs/space.md); P_FRIENDLY_GAP: inches zombie
# units keep from each other (core §3: the 1" rule is for enemies); P_FIRST_ZOMBIE: unit index
# of the first horde (= players)  # P_PU_REMOVED: bit r set = Power-Up result r is off the table (ablation)
# P_RENDING_VS_ZOMBIES: 1 = survivors' attacks on zombies have Rending (A4 rending_owner = "survivors")
# P_TERRAIN_N pieces of area terrain of radius P_TERRAIN_R, cover P_TERRAIN_COVER+, a share
# P_TERRAIN_DANGEROUS of them dangerous (zombie40k §3.1; kernels.zombie40k.terrain)

# ---- player policies: float64[P, N_POL] (docs/policies.md) -------------------------------
(POL_HUNT_RADIUS,  # chase a horde within this many inches for its power-up (0 = never)
 POL_RUN,  # 0 never run, 1 run when nothing is in range to shoot, 2 always run (dash)
 POL_TARGET,  # 0 shoot the nearest zombies, 1 the horde closest to being wiped out
 POL_PVP,  # 0 leave rivals alone, 1 shoot rivals when allowed, 2 shoot and charge them
 POL_CHARGE,  # 0 never charge zombies, 1 charge hordes of at most POL_CHARGE_MAX models, 2 any
 POL_CHARGE_MAX,
 POL_DUCT,  # Duct Tape: 0 +1 shot, 1 +1 Attack
 POL_MUSHROOM,  # Speed Pack: 0 use at once, 1 keep it for the turn it lets the squad embark
 POL_MEDPACK,  # A33: 0 spend a Medpack on a wound that would kill a model, 1 on any unsaved wound
 POL_DEFIB,  # A33: 0 a Defibrillator revives a dead model at the start of the turn, 1 it is a Medpack
 POL_DECISIONS,  # 0 the heuristics above; 1 the random-legal baseline (kernels.zombie40k.choices)
 ) = range(11)
N_POL = 11

# ---- Killing Floor shop: int64[n_items, N_SHOP], rows in the wish list's order (best first) ------
SH_WEAPON, SH_SLOT, SH_COST, SH_PSYKER, SH_SQUAD = range(5)  # weapon row, gear slot, points, psykers only, whole squad
N_SHOP = 5

# ---- results: int32[n, N_RES] and float64[n, P, N_PRES] ----------------------------------
R_WINNER, R_REASON, R_TURNS = range(3)  # the dice rolled are counted from the stream (sim.play)
N_RES = 3
REASON_ESCAPE, REASON_TIMEOUT, REASON_ALL_DEAD, REASON_COOP_WIN = range(4)
(PR_WIPES, PR_RESPAWNS, PR_ZOMBIES_KILLED, PR_HORDES_KILLED, PR_BOSS_KILLED, PR_MODELS_LOST,
 PR_MODELS_LEFT, PR_EV_DISTANCE, PR_EMBARKED, PR_RIVALS_KILLED) = range(10)
PR_POWERUP0 = 10  # + result 2..12 -> columns 12..22
N_PRES = 23

# ---- trace events: float32[n, E, N_EV] ---------------------------------------------------
EV_TURN, EV_PHASE, EV_KIND, EV_UNIT, EV_OTHER, EV_A, EV_B, EV_C, EV_MODELS, EV_OTHER_MODELS = range(10)
N_EV = 10  # EV_MODELS / EV_OTHER_MODELS: models the unit / the other unit has after the event (-1: not a unit)
NOW_PHASE, NOW_UNIT = 0, 1  # GameState.w_now: the phase being played and whose it is (-1 everyone's)
N_NOW = 2
(PH_SETUP, PH_ROLLOFF, PH_RESPAWN, PH_MOVEMENT, PH_PSYCHIC, PH_SHOOTING, PH_ASSAULT,
 PH_Z_RESPAWN, PH_SHAMBLE, PH_Z_SHOOTING, PH_Z_ASSAULT, PH_END) = range(12)
(EK_DEPLOY, EK_ORDER, EK_RESPAWN, EK_MOVE, EK_RUN, EK_EMBARK, EK_SHOOT, EK_KILL, EK_WIPE, EK_CHARGE,
 EK_CHARGE_FAIL, EK_FIGHT, EK_OVERWATCH, EK_MORALE, EK_FALL_BACK, EK_SWEEP, EK_POWERUP, EK_ZOMBIE_ARRIVE,
 EK_SHAMBLE, EK_CONSOLIDATE, EK_REGROUP, EK_PUSHBACK, EK_SNAPSHOT, EK_GETS_HOT, EK_PSYCHIC, EK_MEDPACK,
 EK_DEFIB, EK_END, EK_CONVERT, EK_SHOP, EK_MOB_RULE, EK_TERRAIN) = range(32)
EK_NONE = -1  # an opened event that did not happen (units.cancel_event)
