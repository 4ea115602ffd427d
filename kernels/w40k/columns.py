"""Column layouts of the integer arrays the kernels read (house style: every field documented).

``sim.w40k.tables`` fills these arrays from the frozen rule dataclasses; kernels index them with
the constants below and never see a Python object.
"""

from __future__ import annotations

# ---- per-model characteristics: int16[..., N_STATS] --------------------------------------
WS, BS, S, T, W, I, A, LD, SV, INV, INV_CC, FNP, RP = range(13)
N_STATS = 13
# SV/INV/INV_CC/FNP/RP hold the D6 roll needed (2 = 2+); 7 = none. W is the starting Wounds.
# RP: Reanimation Protocols roll (5 = 5+, one worse against Instant Death); 7 = none.
NONE = 7

# ---- per-model special rules: int64 bit mask ---------------------------------------------
# Unit rules (zombie40k §9: one model carries it, the whole unit benefits while it lives) and
# model rules share one mask; `sim.w40k.tables.UNIT_RULE_MASK` says which bits are unit-wide.
MR_EW = 1 << 0  # Eternal Warrior
MR_FEARLESS = 1 << 1
MR_ATSKNF = 1 << 2  # And They Shall Know No Fear
MR_COUNTER_ATTACK = 1 << 3
MR_CRUSADER = 1 << 4
MR_FURIOUS_CHARGE = 1 << 5
MR_HAMMER_OF_WRATH = 1 << 6
MR_HATRED = 1 << 7
MR_PREFERRED_ENEMY = 1 << 8
MR_RAGE = 1 << 9
MR_RAMPAGE = 1 << 10
MR_RELENTLESS = 1 << 11
MR_RENDING = 1 << 12  # close combat only (zombie40k §9)
MR_SHRED = 1 << 13  # close combat only
MR_SMASH = 1 << 14
MR_FLESHBANE = 1 << 15
MR_POISONED = 1 << 16  # Poisoned (4+), close combat only
MR_BLIND = 1 << 17  # close combat only
MR_SHROUDED = 1 << 18
MR_STEALTH = 1 << 19
MR_SLOW_AND_PURPOSEFUL = 1 << 20
MR_STUBBORN = 1 << 21
MR_MOVE_THROUGH_COVER = 1 << 22
MR_FLEET = 1 << 23
MR_BOUNDING_LEAP = 1 << 24
MR_ERE_WE_GO = 1 << 25
MR_IT_WILL_NOT_DIE = 1 << 26
MR_CONCUSSIVE = 1 << 27
MR_SPLIT_FIRE = 1 << 28
MR_SWEEP_ALLOWED = 1 << 29  # zombies may Sweeping Advance despite Slow and Purposeful
MR_BATTLE_FOCUS = 1 << 30
MR_MOB_RULE = 1 << 31
MR_SUPPORTING_FIRE = 1 << 32
MR_PSYKER = 1 << 33
MR_ZOMBIE = 1 << 34  # a zombie model (for the rules of a zombie game that act on zombies)
MR_LEADER = 1 << 35  # the squad's sergeant
MR_DODGE = 1 << 36
MR_COMBAT_DRUGS = 1 << 37
MR_POWER_FROM_PAIN = 1 << 38
MR_MANDIBLASTERS = 1 << 39
MR_VOTLW = 1 << 40  # Veterans of the Long War: Hatred (Space Marines); its +1 Ld is compiled into the profile
MR_SPACE_MARINE = 1 << 41  # a model of the Space Marines (Adeptus Astartes): what Hatred (Space Marines) hates

# ---- weapon table: int64[n_weapons, N_WFIELDS] --------------------------------------------
(W_RANGE, W_SMODE, W_SVAL, W_AP, W_KIND, W_SHOTS, W_SHOTS_STAT, W_BLAST, W_TEMPLATE, W_FLAGS,
 W_POISON_ON, W_SHOTS_FROM_A, W_SCHG_MODE, W_SCHG_VAL, W_AP_CHG) = range(15)
N_WFIELDS = 15
# W_SMODE / W_SCHG_MODE: strength modes (sim.w40k.profiles S_FIXED..S_NONE, same numbers)
S_FIXED, S_USER, S_PLUS, S_TIMES, S_NONE = 0, 1, 2, 3, 4
# W_KIND
K_ASSAULT, K_RAPID_FIRE, K_PISTOL, K_HEAVY, K_SALVO, K_MELEE, K_GRENADE = range(7)
# W_BLAST: 0 none, 1 small (3"), 2 large (5")

# weapon special rules: bits of W_FLAGS
WR_TWIN_LINKED = 1 << 0
WR_RENDING = 1 << 1
WR_POISONED = 1 << 2
WR_FLESHBANE = 1 << 3
WR_SHRED = 1 << 4
WR_GETS_HOT = 1 << 5
WR_SNIPER = 1 << 6
WR_GAUSS = 1 << 7
WR_BLADESTORM = 1 << 8
WR_TESLA = 1 << 9
WR_CONCUSSIVE = 1 << 10
WR_BLIND = 1 << 11
WR_INSTANT_DEATH = 1 << 12
WR_MELTA = 1 << 13
WR_GRAVITON = 1 << 14
WR_PINNING = 1 << 15
WR_FORCE = 1 << 16
WR_UNWIELDY = 1 << 17
WR_SPECIALIST = 1 << 18
WR_TWO_HANDED = 1 << 19
WR_ARMOURBANE = 1 << 20
WR_SOUL_BLAZE = 1 << 21
WR_DAEMONBANE = 1 << 22
WR_PSI_SHOCK = 1 << 23
WR_TARGET_ACQUIRED = 1 << 24
WR_IGNORES_COVER = 1 << 25
WR_ASSAULT_GRENADE = 1 << 26
WR_DEFENSIVE_GRENADE = 1 << 27
WR_NO_DAMAGE = 1 << 28

# ---- attack spec: int64[N_SPEC], one group of identical attacks at one unit ---------------
(SP_HIT_MODE, SP_HIT_ON, SP_HIT_ON2, SP_HIT_REROLL, SP_TESLA, SP_WOUND_ON, SP_WOUND_REROLL,
 SP_AUTO_WOUND_6, SP_AP, SP_AP_ON_6, SP_STRENGTH, SP_INSTANT_DEATH, SP_IGNORES_COVER,
 SP_NO_SAVES, SP_NO_FNP, SP_NO_COVER, SP_GETS_HOT, SP_EXTRA_REROLL, SP_MELEE, SP_CONCUSSIVE, SP_BLIND,
 SP_AUTO_WOUND, SP_BLAST_MODELS, SP_BLAST_RADIUS, SP_SCATTER_MINUS, SP_TWIN_LINKED,
 SP_TEMPLATE_MODELS, SP_GRAVITON) = range(28)
N_SPEC = 28
# SP_HIT_MODE: how each attack die becomes hits
HM_ROLL, HM_AUTO, HM_BLAST, HM_TEMPLATE, HM_D3_HITS = range(5)
# SP_HIT_REROLL / SP_WOUND_REROLL: 0 none, 1 re-roll ones, 2 re-roll failures
RR_NONE, RR_ONES, RR_FAILED = 0, 1, 2

# ---- per-model status bits: int8 (kernels set them during a game) -------------------------
ST_CONCUSSED = 1  # Initiative 1 until the end of the next Assault phase

# ---- outcome counters of an attack group: int64[N_OUT] ------------------------------------
(OUT_HITS, OUT_WOUNDS, OUT_UNSAVED, OUT_KILLED, OUT_ONES, OUT_FNP, OUT_CANCELLED,
 OUT_BLIND_HITS, OUT_PINNING) = range(9)
N_OUT = 9

# ---- geometry parameters of the attack abstraction: int64[N_GEOM] -------------------------
# (docs/space.md; zombie-independent [C] numbers of the simulator, swept like any other)
G_BLAST_SMALL_MODELS, G_BLAST_LARGE_MODELS, G_BLAST_SMALL_RADIUS, G_BLAST_LARGE_RADIUS, G_TEMPLATE_MODELS = range(5)
N_GEOM = 5

# zombie40k §9 "Unit Rules": one model carries it, the whole unit benefits while it lives.
MR_UNIT_RULES = (MR_ATSKNF | MR_COUNTER_ATTACK | MR_CRUSADER | MR_MOVE_THROUGH_COVER | MR_PREFERRED_ENEMY
                 | MR_SHROUDED | MR_SLOW_AND_PURPOSEFUL | MR_SPLIT_FIRE | MR_STEALTH | MR_STUBBORN | MR_FEARLESS)
