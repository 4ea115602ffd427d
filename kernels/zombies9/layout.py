"""Every index of the Zombies!!! kernels: state and table columns, parameters, policy fields,
card effects, event kinds (house style: pgx names each value of a state array).

The numbers are plain integers (numba freezes them as constants); the arrays they index are
kernel arguments (``kernels.zombies9.state``). ``sim.rulesets.zombies9`` fills the tables in
the same order, from the names below.
"""

from __future__ import annotations

BIG = 1_000_000  # a distance field's "unreachable"
STEP = 10  # cost of one square in a weighted distance field (Q3 costs are in tenths of a step)
MAX_HAND = 6  # hand slots per player (the rules' hand is 3, A10; a parameter may raise it)

# ---------------------------------------------------------------- squares and tiles (A2, A3)
K_BLOCKED, K_ROAD, K_BUILDING, K_DOOR = 0, 1, 2, 3  # square kinds; '#', 'R', 'B', 'D'
N, E, S, W = 0, 1, 2, 3  # directions; an exit bitmask has bit d set for a road exit on edge d
MID = (1, 5, 7, 3)  # the local square (row * 3 + column) in the middle of edge N, E, S, W

# roles of a tile type (Tables.tile_info[:, TI_ROLE])
R_PLAIN, R_START, R_HELIPAD, R_ENTRANCE, R_CREMATORIUM, R_FOURWAY = 0, 1, 2, 3, 4, 5

# Tables.tile_info columns
TI_ZOMBIES = 0  # printed Z (named building) or zombies placed (unnamed: one per road exit)
TI_LIFE = 1  # printed L
TI_BULLETS = 2  # printed B
TI_NAMED = 3  # 1: a named building tile (its B/D squares form one building)
TI_ROLE = 4  # R_*
TI_Z9 = 5  # 1: a Zombies!!! 9 tile (the graveyard, B4)
TI_CEMETERY = 6  # 1: "Cemetery" in the name (B8 terms; Pet Cemetery included)
TI_PET = 7  # 1: the Pet Cemetery (Part C dogs)
TI_TOWN_SIDE = 8  # the Graveyard Entrance's town edge in rotation 0 (B4), else -1
N_TI = 9

# Tables.cards columns
CI_EFFECT = 0  # E_*
CI_BUILDING = 1  # tile type of an item's building, -1 for other cards
CI_ALT_BUILDING = 2  # a second building (First Aid Kit in the Drug Store, D15), -1 none
CI_VALUE = 3  # Q8 discard ranking (higher = keep)
CI_AUTO = 4  # 1: an "Automatic" card (B5)
N_CI = 5

# card effects (A11, B7); the data files name them, sim.rulesets.zombies9.data maps the names
(E_ADRENALINE, E_MARBLES, E_AFS, E_BAD_SENSE, E_BRAIN_CRAMP, E_BUTTER, E_CHAINSAW, E_CLAUSTRO, E_FEAR,
 E_AXE, E_FIRST_AID, E_GRENADE, E_SHOTGUN, E_PARALYSIS, E_NOT_DEAD, E_WORSE, E_AMMO, E_MOLOTOV, E_REST,
 E_SKATEBOARD, E_MISCALC, E_KEYS, E_NOT_SO_BAD, E_SCREWED, E_EVERYBODY, E_SHOE, E_MASTER, E_DUST,
 E_PROBLEM, E_CANCEL) = range(30)
N_EFFECTS = 30
# E_CANCEL: "the card it answers does nothing" (D21's reply that cancels). No card of A11 or B7 has it;
# a deck file may give it to a card (D12, D23), which is then played only in reply (kernels.zombies9.replies)

# Tables.ids
ID_START = 0  # tile type the game starts on (Town Square; Graveyard Entrance alone, B3)
ID_HELIPAD = 1  # -1 when there is none (Z9 alone)
ID_ENTRANCE = 2  # the Graveyard Entrance (mixed: in the base stack, B4.2), -1 otherwise
ID_SET_ASIDE = 3  # the four-way tile set aside (mixed, B4.3), -1 otherwise
ID_N_BASE = 4  # tiles in the base stack before the Helipad goes in
ID_N_Z9 = 5  # tiles in the graveyard stack
ID_MAX_TILES = 6  # tile slots of a map
ID_GRID = 7  # side of the tile grid (cells)
ID_N_CARDS = 8  # cards in the event deck
N_IDS = 9

# ---------------------------------------------------------------- parameters (Tables.prm)
(P_N_PLAYERS, P_MODE, P_START_LIFE, P_START_BULLETS, P_LIFE_CAP, P_HAND, P_KILL_NUMBER, P_KILLS_TO_WIN,
 P_POOL_ADULT, P_POOL_KID, P_POOL_DOG, P_POOL_LIMITED, P_HELI_ZOMBIES, P_HELI_BOTTOM, P_HELI_RESHUFFLE,
 P_FIRST_RANDOM, P_TOKEN_CAP, P_POPULATE_RANDOM, P_ANY_SIDE, P_CONTINUE, P_PICKUP_PASSING, P_DEATH_ROUND_UP,
 P_DEATH_DISCARD_HAND, P_MOVE_SHARED, P_BUTTER_BULLETS, P_AMMO, P_ITEM_TILE, P_HELI_MOST_KILLS, P_SEPARATE,
 P_CREM_EMPTY, P_CEM_EMPTY, P_ALONE_KILLS, P_PROBLEM_ALL, P_KIDS_RULE, P_KIDS_AGGRESSIVE, P_KID_FIRST, P_DOGS,
 P_DOGS_MIX, P_DOG_KILL, P_DOG_MOVES, P_DOG_STACK, P_DOG_DAMAGE, P_TWO_DICE, P_MAX_ROUNDS, P_KEYS_MOVES,
 P_SHOTGUN_COMBATS, P_REST_LIFE, P_EVERYBODY_MOVES, P_SCREWED, P_MASTER, P_NOT_SO_BAD, P_NOT_DEAD_LOST,
 P_AXE, P_CHAINSAW, P_MOLOTOV, P_SHOTGUN, P_SKATEBOARD, P_BUTTER_LOST, P_GRENADE_LIFE,
 P_BAD_SENSE_LIFE, P_DEATH_AT_ONCE, P_QUICK, P_ENTRANCE_RESHUFFLE) = range(63)
N_PRM = 63
MODE_BASE, MODE_MIXED, MODE_ALONE = 0, 1, 2

# ---------------------------------------------------------------- policies (Tables.pol[p])
(POL_GOAL, POL_MARGIN, POL_FARM_KILLS, POL_CREM_TURNS, POL_CREM_FACTOR, POL_TURNS_PER_KILL, POL_PLACE_RANDOM,
 POL_V_TOKEN, POL_V_ZOMBIE, POL_V_HELIPAD, POL_V_ITEM, POL_V_CREM, POL_FIGHT_STEPS, POL_DETOUR, POL_COMBAT,
 POL_MULTI, POL_DANGER_LIFE, POL_CARDS, POL_THREAT, POL_REST_LIFE, POL_AFS_LIFE, POL_GRENADE_MIN, POL_ZOMBIES,
 POL_BLOCK_W, POL_SELF_W, POL_ATTACK_LIFE, POL_DISCARD, POL_DISCARD_BELOW, POL_STACK, POL_HUNT, POL_REPLY,
 POL_REPLY_CHANCE, POL_SCOUT, POL_NEAR_W, POL_V_FRONT) = range(35)
N_POL = 35
GOAL_HEURISTIC, GOAL_HELIPAD, GOAL_KILLS, GOAL_GREEDY = 0, 1, 2, 3  # POL_GOAL (Q1)
COMBAT_RULE, COMBAT_BULLETS, COMBAT_HEARTS = 0, 1, 2  # POL_COMBAT (Q4)
CARDS_HEURISTIC, CARDS_RANDOM, CARDS_NEVER = 0, 1, 2  # POL_CARDS (Q6)
STACK_DEFAULT, STACK_BASE, STACK_GRAVEYARD, STACK_RANDOM = 0, 1, 2, 3  # POL_STACK (Q9, D25)
REPLY_NEVER, REPLY_DEFEND, REPLY_LEADER = 0, 1, 2  # POL_REPLY (D21: when a card is answered, replies)

# goals a pawn walks to (Q1)
G_GATHER, G_HELIPAD, G_KILLS, G_CREMATORIUM, G_CEMETERY = 0, 1, 2, 3, 4

# ---------------------------------------------------------------- figures
Z_ADULT, Z_KID, Z_DOG = 0, 1, 2

# ---------------------------------------------------------------- end of a game (RES_REASON)
REASON_NONE, REASON_HELIPAD, REASON_KILLS, REASON_CREMATORIUM, REASON_CEMETERIES, REASON_TIMEOUT = range(6)

# ---------------------------------------------------------------- per-game results (GameState.res)
RES_WINNER = 0  # seat of the winner, -1 none
RES_REASON = 1  # REASON_*
RES_ROUNDS = 2  # rounds played (every player one turn), the last one counted
RES_TURNS = 3  # player turns played
RES_FIRST = 4  # seat of the first player (A4)
RES_HELI_ROUND = 5  # round the Helipad was laid, -1 never
RES_TILES = 6  # tiles on the map at the end (the start tile included)
RES_HELI_GONE = 7  # 1: the Helipad could not be laid and left the game (A6, D20)
RES_CREM_ROUND = 8  # round the Crematorium was laid, -1 never
N_RES = 9

# per-player results (GameState.pres)
PR_KILLS = 0  # zombies in the collection at the end
PR_KILLED = 1  # zombies killed in the game (lost ones included)
PR_DEATHS = 2
PR_HEARTS = 3  # life tokens spent (lost in combat, on cards; halves count 0.5)
PR_BULLETS = 4  # bullets spent in combat
PR_CARDS = 5  # event cards played (items included; Automatic cards are not played, B5)
PR_TILES = 6  # map tiles laid
PR_ORDER = 7  # place in the turn order (0 = first player)
PR_FIGHTS = 8  # combats fought
PR_TOKENS = 9  # life and bullet tokens picked up
PR_LOST = 10  # zombies lost from the collection (death, I Don't Think They're Dead)
PR_TURNS_LOST = 11  # turns lost (Hysterical Paralysis, a map-closing placement)
PR_HELI_LAID = 12  # 1: this player laid the Helipad
PR_CREM_LAID = 13  # 1: this player laid the Crematorium
PR_REPLIES = 14  # cards played in reply to another card (D21; counted in PR_CARDS too)
PR_CANCELLED = 15  # this player's cards cancelled by a reply (D21)
N_PRES = 16

# ---------------------------------------------------------------- scratch: the map being played
# GameState.w_tile columns, one row per placed tile (slot = order laid)
TS_TYPE, TS_X, TS_Y, TS_ROT, TS_Z = 0, 1, 2, 3, 4  # TS_Z: zombie figures on the tile
N_TS = 5
# GameState.w_sq columns, one row per square (square = slot * 9 + row * 3 + column, north up)
SQ_KIND = 0  # K_*
SQ_BLD = 1  # slot of the named building the square belongs to, -1 none
SQ_ADULT = 2  # adult zombies (0/1)
SQ_KID = 3  # zombie kids (0/1; only with the kid rule, B6)
SQ_DOGS = 4  # zombie dogs (0-2, Part C)
SQ_LIFE = 5  # life tokens
SQ_BULLET = 6  # bullet tokens
SQ_PAWNS = 7  # pawns on the square
N_SQ = 8

# GameState.w_pl columns, one row per player
PL_SQ = 0  # square of the pawn
PL_LIFE = 1  # life tokens, in halves (dogs take half a token, Part C)
PL_BULLETS = 2
PL_KILLS = 3  # zombies in the collection
PL_PLAYED = 4  # 1: has played the card of this round (A10)
PL_PARALYSED = 5  # 1: loses the next turn (Hysterical Paralysis)
PL_FEAR = 6  # 1: cannot move on the next turn
PL_SHOE = 7  # 1: the next movement roll is halved
PL_CLAUS = 8  # 1: may not enter buildings on the next turn; 2: this turn
PL_SHOTGUN = 9  # combats left on "Hey, Look! A Shotgun!" in play
PL_SHOTGUN_CARD = 10  # its card, -1 none
PL_CHAINSAW_ON = 11  # 1: the Chainsaw was discarded for +2 this turn
PL_MOLOTOV_ON = 12  # slot of the building a Molotov burns this turn + 1, 0 none
PL_AXE = 13  # items in play: the card, -1 none (A10: one of each kind)
PL_CHAINSAW = 14
PL_MOLOTOV = 15
PL_FIRST_AID = 16
PL_GRENADE = 17
PL_SKATEBOARD = 18
PL_MARBLES = 19
PL_GOAL = 20  # G_* chosen this turn
PL_ADRENALINE = 21  # 1: movement doubled this turn
PL_DEAD = 22  # 1: died, has 0 life until the 3 life and 3 bullets of the next turn's start (A8.4)
PL_HAND = 23  # MAX_HAND slots: card ids, -1 empty
N_PL = PL_HAND + MAX_HAND

# GameState.w_gs: the game's scalars
(GS_NT, GS_TURN, GS_ROUND, GS_ACTIVE, GS_FIRST, GS_POOL_ADULT, GS_POOL_KID, GS_POOL_DOG, GS_BOARD, GS_HELI,
 GS_CREM, GS_ENTRANCE, GS_TOP0, GS_N0, GS_TOP1, GS_N1, GS_DECK_N, GS_DISC_N, GS_AFS_OWNER, GS_AFS_END,
 GS_MARBLES_END, GS_OPEN0, GS_OPEN1, GS_CLOSED, GS_HELI_GONE, GS_VERSION, GS_VER_HELI, GS_VER_CREM, GS_WINNER,
 GS_REASON, GS_RESPAWN, GS_CEM_PLACED, GS_CEM_Z, GS_LOSE_TURN, GS_IN_PLAY, GS_COLLECTED, GS_STAMP,
 GS_FIELD_FOR, GS_BUSY, GS_CREM_HELD, GS_FC_NEXT, GS_FC_KEY) = range(42)
N_FC = 4  # cached unweighted fields (board.steps_from): a cache of 4 serves about half of a game's ~200 searches
N_GS = GS_FC_KEY + N_FC
# GS_CREM_HELD: 1 once a zombie has stood on the Crematorium (seed: won "by killing all of the zombies")
# GS_FIELD_FOR: which player F_PLAN was computed for and at which GS_VERSION (not cached: always recomputed)
# GS_FC_KEY + i: 1 + GS_VERSION x squares + source square of the field in row F_CACHE + i, 0 none (0 after _reset);
# GS_FC_NEXT: the cache row the next new field goes in (round robin)

# GameState.w_field rows (distance fields over the squares)
F_HELI = 0  # unweighted steps to the Helipad centre (cached per map version)
F_CREM = 1  # unweighted steps to the Crematorium tile (cached per map version)
F_PLAN = 2  # weighted cost to the active player's goal (Q3)
F_ROUTE = 3  # F_PLAN with token detours (Q3)
F_FROM_L = 4  # unweighted steps from the leader's pawn
F_FROM_S = 5  # unweighted steps from the active pawn
F_GOAL_L = 6  # alone: unweighted steps to the nearest Cemetery zombie (policy.cemetery_field)
F_GOAL_S = 7  # unweighted steps to the active player's goal
F_TMP = 8
F_CACHE = 9  # N_FC rows: fields kept by board.steps_from, keyed by GS_FC_KEY
N_F = F_CACHE + N_FC

# ---------------------------------------------------------------- trace events (GameState.events)
EV_TURN, EV_ROUND, EV_PLAYER, EV_KIND, EV_A, EV_B, EV_C, EV_D = range(8)
N_EV = 8
(EK_FIRST, EK_TILE, EK_TILE_DISCARD, EK_HELI_RESHUFFLE, EK_MAP_CLOSED, EK_POPULATE, EK_FIGHT, EK_MOVE,
 EK_PICKUP, EK_DEATH, EK_CARD, EK_AUTO, EK_ZMOVES, EK_DISCARD, EK_WIN, EK_LOST_TURN, EK_GRENADE, EK_ITEM,
 EK_SNAP_Z, EK_SNAP_P, EK_DRAW, EK_ROLL, EK_STACK, EK_TIMEOUT, EK_REST, EK_NOT_DEAD, EK_TURN,
 EK_DEAL, EK_REPLY, EK_CANCELLED) = range(30)
# EK_REPLY: a = the reply card, b = the card answered, c = the answered card's player, d = stack level
# EK_CANCELLED: player = the cancelled card's player, a = that card, b = the cancelling player

# ---------------------------------------------------------------- the response stack (D21, GameState.w_reply)
MAX_STACK = 8  # the card played and its replies (one card per player and round: at most 1 + 5 replies)
RS_PLAYER, RS_CARD, RS_TARGET, RS_CANCELLED = 0, 1, 2, 3  # w_reply columns; RS_TARGET -1: no target
N_RS = 4
