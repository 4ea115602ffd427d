"""Exact odds of Zombies Out West (the mathhammer): the oracle the kernels are tested against.

Computed from the rules as the spec states them and the config's numbers, independently of the
kernels: no kernel code and no random draw. Probabilities are ``fractions.Fraction``.

- ``melee_dice`` / ``melee_exchange``: the dice of a melee (§7.1, §7.2) and the exact
  distribution of its result (§7.3): the attacker knocked over, or 0, 1, 2... hits.
- ``zombie_attack_fate``: what one zombie's attack does to a human (§7.3, §7.4, §8 bites rolled
  on the §5.6 table), hit by hit.
- ``shot_dice`` / ``shot_fate``: the dice of a shooting roll at each range band (§5.2, §5.3) and
  the exact joint distribution of (the zombie's fate, the gun's state) after one Fire at a
  lone zombie (§5.1, §5.7, W4).
- ``shamble_pmf``: a zombie's move on the six rule (§6.2).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from sim.rulesets.outwest import data as D
from sim.rulesets.outwest.config import OutwestConfig

SIXTH = Fraction(1, 6)
BANDS = D.BANDS  # point_blank, close, medium, long, extreme
FATES = ("zombie knocked over", "nothing", "pushed back", "knocked down", "bitten", "killed", "risen", "devoured")
ZOMBIE_FATES = ("unharmed", "knocked over", "destroyed")
GUN_STATES = ("ready", "empty", "jammed")


def binomial_pmf(n: int, p: Fraction) -> list[Fraction]:
    return [comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]


# ------------------------------------------------------------------ melee (§7)


@dataclass(frozen=True)
class Fighter:
    """One side of a melee: a zombie, or a human with his weapon class, class and bites."""

    zombie: bool = True
    effective: bool = False
    cls: str = "gunman"
    bites: int = 0
    on_ground: bool = False
    unconscious: bool = False


def melee_dice(c: OutwestConfig, attacker: Fighter, defender: Fighter, arc: str = "front") -> tuple[int, int]:
    """(attack dice, defend dice) of §7.1 and §7.2; ``arc`` is where the attacker stands
    relative to the defender's facing (front, side, rear). Dice never go below 0; an
    unconscious defender rolls none."""

    def base(f: Fighter, attacking: bool) -> int:
        if f.zombie:
            return c.zombie_attack if attacking else c.zombie_defend
        value = c.effective_dice if f.effective else c.limited_dice
        mod = {"citizen": c.melee_mod_citizen, "gunman": c.melee_mod_gunman, "shootist": c.melee_mod_shootist,
               "legend": c.melee_mod_legend}[f.cls]
        return value + mod - c.per_bite_penalty * f.bites

    a = base(attacker, True) + (c.ground_bonus if defender.on_ground or defender.unconscious else 0)
    if arc == "rear":
        a += c.behind_attack_bonus
    d = base(defender, False) + (c.ground_bonus if attacker.on_ground else 0)
    d -= {"front": 0, "side": c.side_penalty, "rear": c.behind_defence_penalty}[arc]
    if defender.unconscious:
        d = 0
    return max(0, a), max(0, d)


def melee_exchange(attack: int, defend: int) -> dict:
    """§7.3: {"knocked over": p, 0: p, 1: p, ...}: more sixes for the defender knock the
    attacker over; otherwise each six beyond the defender's is a hit (ties: nothing)."""
    pa, pd = binomial_pmf(attack, SIXTH), binomial_pmf(defend, SIXTH)
    out: dict = defaultdict(Fraction)
    for i, p in enumerate(pa):
        for j, q in enumerate(pd):
            if j > i:
                out["knocked over"] += p * q
            else:
                out[i - j] += p * q
    return dict(out)


def location_death(c: OutwestConfig, modifier: int = 0) -> Fraction:
    """P(a location roll of §5.6 with this effect modifier is "Dead")."""
    table = D.result_tables().location
    dead = sum(1 for row in table for e in range(1, 7) if row[min(6, max(1, e + modifier)) - 1] & 256)
    return Fraction(dead, 36)


def zombie_attack_fate(c: OutwestConfig, attack: int, defend: int, starts_down: bool = False) -> dict:
    """The fate of a human after one zombie's attack (§7.3, §7.4): {FATES[k]: p}. Hits are rolled
    in order: "devoured" and (plague) "risen" end it; a bite rolls §5.6 and may kill (W21); the
    worst of the other results names the fate ("pushed back" only when nothing worse happened).
    A human already on the ground (``starts_down``) is not knocked down again."""
    row = D.result_tables().zombie_hits["plague" if c.zombie_plague else "basic"]
    words = D.ZOMBIE_HIT_WORDS
    p_dead = location_death(c) if c.bite_can_kill else Fraction(0)
    rank = {"nothing": 0, "pushed back": 1, "knocked down": 2, "bitten": 3}
    out: dict = defaultdict(Fraction)
    for hits, p in melee_exchange(attack, defend).items():
        if hits == "knocked over":
            out["zombie knocked over"] += p
            continue
        states = {"nothing": p}  # worst non-final result so far -> probability
        for _ in range(hits):
            nxt: dict = defaultdict(Fraction)
            for worst, q in states.items():
                for face in range(6):
                    word, r = words[row[face]], q * SIXTH
                    if word == "devour":
                        out["devoured"] += r
                    elif word == "plague":
                        out["risen"] += r
                    elif word == "bite":
                        killed = "risen" if (c.zombie_plague and c.bite_death_rises) else "killed"
                        out[killed] += r * p_dead
                        nxt[_worse(worst, "bitten", rank)] += r * (1 - p_dead)
                    elif word == "down" and starts_down:
                        nxt[worst] += r
                    else:
                        nxt[_worse(worst, "pushed back" if word == "push" else "knocked down", rank)] += r
            states = nxt
        for worst, q in states.items():
            out[worst] += q
    return {f: out.get(f, Fraction(0)) for f in FATES}


def _worse(a: str, b: str, rank: dict) -> str:
    return a if rank[a] >= rank[b] else b


HUMAN_ATTACK_FATES = ("human knocked over", "nothing", "pushed back", "knocked down", "destroyed")


def human_attack_fate(c: OutwestConfig, attack: int, defend: int, effective: bool,
                      zombie_down: bool = False) -> dict:
    """The fate of a zombie a human fights (§7.3, §7.5): {HUMAN_ATTACK_FATES[k]: p}. Hits are
    rolled in order; "destroyed" ends it, and so does "knocked down" on a zombie already on the
    ground (§7.5). A zombie pushed back and knocked down counts as knocked down."""
    row = D.result_tables().human_hits["effective" if effective else "limited"]
    words = D.HUMAN_HIT_WORDS
    out: dict = defaultdict(Fraction)
    for hits, p in melee_exchange(attack, defend).items():
        if hits == "knocked over":
            out["human knocked over"] += p
            continue
        states = {(zombie_down, False): p}  # (on the ground, pushed) -> probability
        for _ in range(hits):
            nxt: dict = defaultdict(Fraction)
            for (down, pushed), q in states.items():
                for face in range(6):
                    word, r = words[row[face]], q * SIXTH
                    if word == "destroy" or (word == "down" and down):
                        out["destroyed"] += r
                    elif word == "down":
                        nxt[(True, pushed)] += r
                    else:
                        nxt[(down, True)] += r
            states = nxt
        for (down, pushed), q in states.items():
            key = "knocked down" if down and not zombie_down else "pushed back" if pushed else "nothing"
            out[key] += q
    return {f: out.get(f, Fraction(0)) for f in HUMAN_ATTACK_FATES}


# ------------------------------------------------------------------ shooting (§5)


def band_of(c: OutwestConfig, gap: float) -> int:
    """§5.2: the band index of a gap (5 = out of range)."""
    edges = (c.band_point_blank_in, c.band_close_in, c.band_medium_in, c.band_long_in, c.band_extreme_in)
    for k, edge in enumerate(edges):
        if gap <= edge + 1e-6:
            return k
    return 5


def band_dice_of(c: OutwestConfig, profile: str, band: int) -> int:
    """The weapon profile's dice at a band (-1 = out of range), W1 either way."""
    if band >= 5:
        return -1
    name = BANDS[band]
    n = getattr(c, f"{profile}_dice_{name}")
    if c.shooting_mechanic == "class_dice":
        return 0 if n >= 0 else -1
    return n


def hit_score(c: OutwestConfig, band: int) -> int:
    if c.shooting_mechanic == "class_dice":
        return getattr(c, f"class_hit_on_{BANDS[band]}")
    return c.hit_on


def shot_dice(c: OutwestConfig, gun: str, band: int, cls: str = "gunman", aimed: bool = False, blaze: bool = False,
              cover: bool = False, moved: bool = False, serious: int = 0) -> int:
    """Dice of one shooting roll (§5.1 step 2, §5.3), at least 1; -1 if the gun cannot reach."""
    g = D.weapons().guns[gun]
    n = band_dice_of(c, g.profile, band)
    if n < 0 or band > BANDS.index(g.max_band):
        return -1
    if c.shooting_mechanic == "class_dice":
        n += getattr(c, f"class_dice_{cls}")
    else:
        n += getattr(c, f"shoot_dice_{cls}")
    n += c.aim_bonus * aimed + c.blaze_bonus * blaze
    n -= c.cover_penalty * cover + c.move_fire_penalty * moved + c.serious_wound_penalty * serious
    return max(1, n)


def zombie_effect_modifier(c: OutwestConfig, gun: str, band: int, gap: float) -> int:
    """§5.7: pistol (shotguns count as pistols) at point blank +2, rifle at close +1 (or within
    6", with ``rifle_close_bonus = "close_and_point_blank"``); W22 adds
    the RWNN modifiers of §5.6."""
    g = D.weapons().guns[gun]
    mod = 0
    if g.pistol_effect and band == 0:
        mod += c.zombie_pistol_point_blank
    rifle_band = band == 1 or (band == 0 and c.rifle_close_bonus == "close_and_point_blank")
    if g.profile == "rifle" and not g.pistol_effect and rifle_band:
        mod += c.zombie_rifle_close
    if c.zombie_rwnn_effect_mods:
        mod += c.muzzle_loader_effect * g.muzzle_loader
        if g.shotgun and gap <= c.shotgun_near_in + 1e-6:
            mod += c.shotgun_near_effect
        elif g.shotgun and gap > c.shotgun_far_in + 1e-6:
            mod += c.shotgun_far_effect
    return mod


def roll_pmf(n: int, hit_on: int) -> dict:
    """{(hits, ones): p} of n shooting dice (a die is a hit, a 1, or neither; never both)."""
    p_hit = Fraction(max(0, 7 - hit_on), 6)
    p_one = SIXTH if hit_on > 1 else Fraction(0)
    p_other = 1 - p_hit - p_one
    out: dict = defaultdict(Fraction)
    for h in range(n + 1):
        for o in range(n - h + 1):
            ways = comb(n, h) * comb(n - h, o)
            out[(h, o)] += ways * p_hit**h * p_one**o * p_other ** (n - h - o)
    return dict(out)


def shot_fate(c: OutwestConfig, gun: str, gap: float, cls: str = "gunman", aimed: bool = False,
              blaze: bool = False, cover: bool = False, moved: bool = False, serious: int = 0) -> dict:
    """{(zombie fate, gun state): p} after one Fire of ``gun`` at a lone zombie ``gap`` inches
    away (standing at first): every shooting roll of the gun (§2.2), each hit one effect die
    (§5.7: modified 6 destroys, 5 knocks over); the rolls stop when it is destroyed. Gun state
    (W4): a shotgun, sawn-off or musketoon is empty after every Fire; otherwise two or more 1s in
    a roll empty it and, blazing away, three or more jam it."""
    g = D.weapons().guns[gun]
    band = band_of(c, gap)
    n = shot_dice(c, gun, band, cls, aimed, blaze, cover, moved, serious)
    if n < 0:
        return {("unharmed", "ready"): Fraction(1)}
    mod = zombie_effect_modifier(c, gun, band, gap)
    p_destroy = Fraction(min(6, max(0, 7 - (c.head_shot_on - mod))), 6)
    p_down = Fraction(min(6, max(0, 7 - (c.zombie_knocked_over_on - mod))), 6) - p_destroy
    rolls = roll_pmf(n, hit_score(c, band))
    states = {("unharmed", "ready"): Fraction(1)}  # before the first roll
    for _ in range(g.rolls):
        nxt: dict = defaultdict(Fraction)
        for (fate, gun_state), q in states.items():
            if fate == "destroyed":
                nxt[(fate, gun_state)] += q
                continue
            for (hits, ones), r in rolls.items():
                for new_fate, s in _hits_on_zombie(fate, hits, p_destroy, p_down, c).items():
                    nxt[(new_fate, _gun_after(c, g, gun_state, ones, blaze))] += q * r * s
        states = nxt
    if g.reload_after_fire:
        out: dict = defaultdict(Fraction)
        for (fate, _), q in states.items():
            out[(fate, "empty")] += q
        return dict(out)
    return dict(states)


def _hits_on_zombie(fate: str, hits: int, p_destroy: Fraction, p_down: Fraction, c: OutwestConfig) -> dict:
    states = {fate: Fraction(1)}
    for _ in range(hits):
        nxt: dict = defaultdict(Fraction)
        for f, q in states.items():
            if f == "destroyed":
                nxt[f] += q
                continue
            down_destroys = f == "knocked over" and c.shot_knockdown_destroys_downed
            nxt["destroyed"] += q * (p_destroy + (p_down if down_destroys else 0))
            nxt["knocked over"] += q * (0 if down_destroys else p_down)
            nxt[f] += q * (1 - p_destroy - p_down)
        states = nxt
    return states


def _gun_after(c: OutwestConfig, g, state: str, ones: int, blaze: bool) -> str:
    if g.reload_after_fire or state != "ready":
        return state
    if blaze and ones >= c.jam_ones:
        return "jammed"
    if ones >= c.out_of_ammo_ones:
        return "empty"
    return "ready"


def hits_pmf(c: OutwestConfig, gun: str, gap: float, cls: str = "gunman", **mods) -> list[Fraction]:
    """pmf of the hits of one shooting roll (§5.1)."""
    band = band_of(c, gap)
    n = shot_dice(c, gun, band, cls, **mods)
    if n < 0:
        return [Fraction(1)]
    p = Fraction(max(0, 7 - hit_score(c, band)), 6)
    return binomial_pmf(n, p)


# ------------------------------------------------------------------ zombie movement (§6.2)


def shamble_pmf() -> dict:
    """{(inches, fell over): p} of a zombie with nothing within reach: the group's D6 below 6 is
    the move; a 6 moves 6" and the zombie's own D6 more, or, on a second 6, 6" and a fall."""
    out: dict = defaultdict(Fraction)
    for r in range(1, 6):
        out[(r, False)] += SIXTH
    for own in range(1, 6):
        out[(6 + own, False)] += SIXTH * SIXTH
    out[(6, True)] += SIXTH * SIXTH
    return dict(out)


def bite_lapse_probability(c: OutwestConfig, bites: int) -> Fraction:
    """P(a character with ``bites`` bites lapses at an activation, §8): 1 D6 per bite (a 6) in
    the basic game; 2 D6 per bite under the Zombie Plague (W20: either a 6, or a total of 6)."""
    if c.zombie_plague:
        per = Fraction(5, 36) if c.plague_test == "total" else Fraction(11, 36)
    else:
        per = Fraction(max(0, 7 - c.bite_lapse_on), 6)
    return 1 - (1 - per) ** bites
