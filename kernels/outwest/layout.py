"""Zombies Out West: the meaning of every column of the state and the tables (pgx style).

The kernels see integers only; this module names them. Figures are slots of one axis: the
posse's humans first (slot h = character h, whose card is card h), then the zombies of the
groups in group order. A human who rises (outwest §8, Zombie Plague) keeps his slot: its kind
becomes a zombie and its group ``n_groups + h`` is a group of one whose card is his character
card (§3.1).

Cards of one game (``H`` humans, ``G`` groups): ``0..H-1`` character cards, ``H..H+G-1`` zombie
group cards, then the four class action cards (Citizen, Gunman, Shootist, Legend), the Joker,
"Extra zombie action" and "And the dead shall rise" (§3.1): ``H + G + 7`` cards.
"""

from __future__ import annotations

# ------------------------------------------------------------------ figure kinds and states
K_NONE, K_HUMAN, K_ZOMBIE = 0, 1, 2
S_GONE, S_STANDING, S_DOWN, S_OUT = 0, 1, 2, 3  # off the table / standing / on the ground / unconscious
FATE_IN_PLAY, FATE_DEAD, FATE_DEVOURED, FATE_DESTROYED, FATE_ESCAPED = 0, 1, 2, 3, 4

# classes (§2.1), in the order of the class action cards
CITIZEN, GUNMAN, SHOOTIST, LEGEND = 0, 1, 2, 3
N_CLASSES = 4

# gun states (§4, §5.1)
GUN_READY, GUN_EMPTY, GUN_JAMMED, GUN_BROKEN = 0, 1, 2, 3
MELEE_LIMITED, MELEE_EFFECTIVE = 0, 1
HORSE_NONE, HORSE_RIDDEN, HORSE_LOOSE = 0, 1, 2

# ------------------------------------------------------------------ FigureState.fi columns (int32)
FI_KIND = 0  # K_*
FI_STATE = 1  # S_*
FI_FATE = 2  # FATE_*: why a figure left the table
FI_GROUP = 3  # zombie group (0..G-1; G + h for risen character h); -1 for humans
FI_CLASS = 4  # CITIZEN..LEGEND (humans; Citizens advance, §2.1); a gunslinger shoots as GUNMAN
FI_GUN0 = 5  # weapon-table row of the first gun, -1 none
FI_GUN1 = 6  # second gun, -1 none
FI_AMMO0 = 7  # GUN_* of the first gun
FI_AMMO1 = 8  # GUN_* of the second gun
FI_LEFT0 = 9  # shots left in the first gun (fixed-capacity ammunition, W4 alternative)
FI_LEFT1 = 10  # shots left in the second gun
FI_MELEE = 11  # MELEE_* (§2.2)
FI_BITES = 12  # bites carried (§7.2, §8)
FI_FLESH = 13  # flesh wounds carried
FI_SERIOUS = 14  # serious wounds carried (-1 shooting die each, -1 move die each)
FI_RECOVER = 15  # 1: must Recover before any other action (§4, §5.6, §9)
FI_DUCKED = 16  # 1: ducked back (cannot be shot; must Recover)
FI_ARMS = 17  # arms made useless (0-2, §5.6)
FI_NO_MOVE = 18  # 1: cannot move or turn for the rest of the game (§5.6)
FI_LEGS = 19  # movement dice lost to leg flesh wounds (§4)
FI_AIM = 20  # figure this human has aimed at, -1 none (§4 Aim)
FI_FEED = 21  # feeding-frenzy marker this zombie feeds at, -1 none (§6.5)
FI_GUNSLINGER = 22  # 1: a zombie gunslinger (§11)
FI_LAPSED = 23  # 1: unconscious from a bite (§8), not knocked out by a wound
FI_HORSE = 24  # HORSE_* (§10)
FI_ACTED = 25  # 1: this zombie began its action in contact or moved into contact (may attack, §6.1)
N_FI = 26

# FigureState.ff columns (float64)
FF_X, FF_Y = 0, 1  # centre, inches from the table's south-west corner (x east, y north)
FF_FACING = 2  # radians, 0 = east, counter-clockwise
FF_AIM_X, FF_AIM_Y = 3, 4  # where the aimed-at target stood when aimed at (it moved: the aim is lost)
FF_HORSE_X, FF_HORSE_Y = 5, 6  # a loose horse stands here
N_FF = 7

# ------------------------------------------------------------------ GameState.gs columns (int32)
GS_TURN = 0  # current turn (scenario clock, §3.2), 1-based
GS_CARDS = 1  # cards drawn in the game
GS_DECK_N = 2  # cards in the current deck
GS_DECK_POS = 3  # next card to draw
GS_EXTRA = 4  # 1: "Extra zombie action" is waiting (§3.2)
GS_RISE = 5  # 1: "And the dead shall rise" is waiting
GS_HELD = 6  # bit c: class action card c held in hand (bit 4: the wild Joker, W7 alternative)
GS_SHOWN = 7  # bit c: class action card c face up, waiting to be claimed (bit 4: wild Joker)
GS_WINNER = 8  # WIN_*
GS_REASON = 9  # REASON_*
GS_GRAVE = 10  # table edge of the graveyard (0 south, 1 east, 2 north, 3 west)
GS_BITTEN = 11  # humans bitten at least once
GS_RISEN = 12  # humans who rose as zombies
GS_DESTROYED = 13  # zombies destroyed
GS_RETURNED = 14  # destroyed zombies returned by "And the dead shall rise"
GS_ESCAPED = 15  # humans off the exit edge (Escape)
GS_OVER = 16  # 1: the game has ended
GS_THREAT = 17  # 1: the last zombie activation put a zombie in contact with a human (P5)
GS_DEVOURED = 18  # humans torn apart and devoured
GS_SHOTS = 19  # shooting rolls made by the posse
GS_CARD = 20  # the card being resolved (trace), -1 between cards
N_GS = 21

WIN_NONE, WIN_POSSE, WIN_ZOMBIES = 0, 1, 2
REASON_NONE, REASON_HELD, REASON_ESCAPED, REASON_CLEARED, REASON_OVERRUN, REASON_TIMEOUT = 0, 1, 2, 3, 4, 5

# ------------------------------------------------------------------ GameState.pres columns (int32), per human
PR_DESTROYED = 0  # zombies this human destroyed
PR_SHOTS = 1  # shooting rolls this human made (a shotgun's Fire is two)
PR_BITES = 2  # bites this human received
PR_RISEN = 3  # 1: rose as a zombie
PR_CLASS = 4  # class at the end (Citizens advance)
PR_ACTIONS = 5  # activations (card draws and spent action cards)
N_PR = 6

# ------------------------------------------------------------------ feeding markers mk[n, K, N_MK] (float64)
MK_X, MK_Y, MK_ON = 0, 1, 2
N_MK = 3

# ------------------------------------------------------------------ weapon table columns (int64)
W_PROFILE = 0  # PROFILE_*: row of the band-dice table
W_ROLLS = 1  # shooting rolls per Fire action (§2.2)
W_RELOAD = 2  # 1: empty after every Fire (§5.1 step 6)
W_BLAZE = 3  # 1: may blaze away
W_SHOTGUN = 4  # 1: a shotgun for the effect modifiers (§5.6: any shotgun at 3" or less +1)
W_MAX_BAND = 5  # furthest band it may fire at (sawn-offs and musketoons: Close)
W_TWO_HANDS = 6  # 1: needs both arms to fire or reload (§5.3 "cannot reload or fire a rifle")
W_SPLASH = 7  # 1: musketoon splash (§5.5)
W_MUZZLE = 8  # 1: muzzle-loader (+2 effect, §5.6)
W_CAPACITY = 9  # shots before a Reload under fixed capacity (W4 alternative)
W_PISTOL_MODS = 10  # 1: takes the pistol's effect modifiers against zombies (§5.7: shotguns count as pistols)
N_W = 11
PROFILE_PISTOL, PROFILE_RIFLE = 0, 1

# range bands (§5.2)
BAND_POINT_BLANK, BAND_CLOSE, BAND_MEDIUM, BAND_LONG, BAND_EXTREME = 0, 1, 2, 3, 4
N_BANDS = 5
OUT_OF_RANGE = 5

# ------------------------------------------------------------------ hit-location results (§5.6), bit flags
R_GRAZE = 1
R_FLESH = 2
R_SERIOUS = 4
R_DOWN = 8
R_OUT = 16
R_ARM = 32
R_NO_MOVE = 64
R_LEG = 128
R_DEAD = 256

# zombie hits on humans (§7.4) and human hits on zombies (§7.5)
ZH_PUSH, ZH_DOWN, ZH_BITE, ZH_PLAGUE, ZH_DEVOUR = 0, 1, 2, 3, 4
HZ_PUSH, HZ_DOWN, HZ_DESTROY = 0, 1, 2

# terrain rows (x0, y0, x1, y1, kind)
T_X0, T_Y0, T_X1, T_Y1, T_KIND = 0, 1, 2, 3, 4
N_T = 5
TERRAIN_OPEN, TERRAIN_BUILDING, TERRAIN_DENSE, TERRAIN_LOOSE = 0, 1, 2, 3

# posse rows: each character as built (int64)
PO_CLASS, PO_GUN0, PO_GUN1, PO_MELEE, PO_HORSE = 0, 1, 2, 3, 4
N_PO = 5

# group rows (int64)
GR_FIRST, GR_SIZE, GR_EDGE, GR_GUNSLINGER = 0, 1, 2, 3
N_GR = 4

# ------------------------------------------------------------------ human actions (§4)
A_NONE, A_REPOSITION, A_MOVE, A_MOVE_FIRE, A_FIRE, A_AIM, A_RELOAD, A_RECOVER, A_GET_UP = 0, 1, 2, 3, 4, 5, 6, 7, 8
A_DUCK_BACK, A_FIX_GUN, A_MOUNT, A_DISMOUNT, A_FIGHT, A_CARRY = 9, 10, 11, 12, 13, 14
# zombie actions (§6.1)
ZA_MOVE, ZA_ATTACK, ZA_MOVE_ATTACK, ZA_RECOVER = 0, 1, 2, 3

# ------------------------------------------------------------------ trace events ev[n_traced, E, N_EV] (float32)
EV_TURN, EV_CARD, EV_KIND, EV_FIG, EV_OTHER, EV_A, EV_B, EV_C = range(8)
N_EV = 8
(EK_SETUP, EK_CARD, EK_ACTION, EK_MOVE, EK_SHOT, EK_HIT_HUMAN, EK_HIT_ZOMBIE, EK_MELEE, EK_ZOMBIE_HIT,
 EK_BITE, EK_DEVOURED, EK_FEED, EK_LEAVE_FEED, EK_BITE_TEST, EK_LAPSE, EK_WAKE, EK_RISE, EK_RETURN,
 EK_ZACTION, EK_ZMOVE, EK_FALL, EK_GET_UP, EK_PUSH, EK_AMMO, EK_CLAIM, EK_SPEND, EK_TURN_END, EK_END,
 EK_POS, EK_SPOOK, EK_ADVANCE, EK_SPLASH, EK_RETURN_FIRE, EK_ESCAPE, EK_GRAVE, EK_FIX, EK_HORSE_BOLT,
 EK_NERVE, EK_CARRY) = range(39)

# ------------------------------------------------------------------ scalar parameters prm[N_PRM] (float64)
(P_N_HUMANS, P_N_GROUPS, P_TABLE_W, P_TABLE_H, P_BASE_R, P_START_RADIUS, P_EDGE_DEPTH, P_MAX_TURNS,
 P_SCENARIO, P_ESCAPE_NEEDED, P_ESCAPE_EDGE, P_GRAVE_EDGE,
 P_AIM_BONUS, P_BLAZE_BONUS, P_COVER_PENALTY, P_MOVE_FIRE_PENALTY, P_SERIOUS_PENALTY,
 P_AMMO_MODEL, P_AMMO_ONES, P_JAM_ONES,
 P_FX_MUZZLE, P_FX_SHOTGUN_NEAR, P_FX_SHOTGUN_NEAR_IN, P_FX_SHOTGUN_FAR, P_FX_SHOTGUN_FAR_IN,
 P_Z_PISTOL_PB, P_Z_RIFLE_CLOSE, P_Z_RWNN_MODS, P_Z_DESTROY_ON, P_Z_DOWN_ON,
 P_SHARE_SHOOTIST, P_SHARE_LEGEND, P_SPLASH_IN, P_SPLASH_AUTO, P_FRIENDLY_FIRE, P_CONTACT_SHOOTING,
 P_Z_ATTACK, P_Z_DEFEND, P_EFF_DICE, P_LIM_DICE, P_GROUND, P_PER_BITE, P_SIDE, P_BEHIND_DEF, P_BEHIND_ATT,
 P_FRONT_HALF, P_REAR_HALF, P_PUSH_IN,
 P_Z_RECOVER_ON, P_FEED_LEAVE_ON, P_FEED_RADIUS, P_RECOVER_FRACTION,
 P_SPOOK_RADIUS, P_THROWN_ON, P_HORSE_DICE,
 P_PLAGUE, P_GUNSLINGERS, P_BITE_LAPSE_ON, P_PLAGUE_TOTAL, P_PLAGUE_WAKE_ON, P_PLAGUE_DIE_ON,
 P_BITE_CAN_KILL, P_KO_WAKE_ON, P_JOKER_WILD, P_SPEND_OWN, P_ZOMBIES_CLAIM, P_SERIOUS_KILL, P_FALL_TWO_ONES,
 P_CITIZEN_NERVE, P_NERVE_RADIUS, P_NERVE_ON, P_KD_NEEDS_RECOVER, P_CLUB_LONG_GUNS, P_BITE_DEATH_RISES,
 P_GROUP_HITS_SPREAD, P_FIX_BREAK_ON, P_FIX_CLEAR_ON, P_BUILDING_DICE, P_DENSE_MINUS, P_LOOSE_MINUS,
 P_CIT_MOVE_DICE, P_MOVE_DICE, P_MOVE_FIRE_DICE, P_REPOSITION_IN, P_SINGLE_USES_CARDS,
 P_TERRAIN_STOPS, P_SHOT_DOWN_DESTROYS, P_Z_TARGET_HELPLESS, P_BADLY_SERIOUS, P_MOVE_AHEAD, P_RIFLE_PB_BONUS,
 P_FALLEN_GET_UP) = range(92)
N_PRM = 92

SCENARIO_HOLD, SCENARIO_ESCAPE, SCENARIO_CLEANUP = 0, 1, 2
AMMO_ONES, AMMO_CAPACITY = 0, 1

# per-class rows of the class table cls[N_CLASSES, N_CL] (int64)
CL_SHOOT_DICE, CL_MELEE_MOD, CL_MOVE_DICE = 0, 1, 2
N_CL = 3

# ------------------------------------------------------------------ policy columns pol[H, N_POL] (float64, P1-P6)
(POL_RELOAD_SAFE, POL_FIGHT_IN_CONTACT, POL_CONTACT_FIRE, POL_FIRE_FRACTION, POL_AIM_AT_DOWN,
 POL_KEEP_AWAY, POL_RETREAT, POL_GOAL_RADIUS, POL_ADVANCE_FIRE,
 POL_TARGET, POL_GROUP_NAMING,
 POL_BLAZE_MIN, POL_BLAZE_RADIUS, POL_BLAZE_MIN_CLASS,
 POL_RESCUE, POL_RESCUE_SEEK,
 POL_SPEND_WHEN, POL_SPEND_ON,
 POL_DUCK_BACK, POL_RIDE, POL_AIM_IDLE, POL_MOVE_FIRST,
 POL_FLEE_CLEAR, POL_TARGET_VALUE, POL_CONTACT_STANDING, POL_CONTACT_ODDS, POL_FACE, POL_CHORES,
 POL_DECISIONS) = range(29)
N_POL = 29
TARGET_NEAREST, TARGET_THREAT = 0, 1
SPEND_ON_CONTACT, SPEND_AT_ONCE, SPEND_NEVER, SPEND_USEFUL = 0, 1, 2, 3
SPEND_THREATENED, SPEND_BEST_SHOT = 0, 1
DECIDE_HEURISTIC, DECIDE_RANDOM = 0, 1
