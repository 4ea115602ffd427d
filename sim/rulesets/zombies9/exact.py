"""Exact odds of one Zombies!!! combat (A8, C): a small Markov chain, in exact fractions.

A state is (life in halves, bullets, First Aid Kits). Each roll of a D6 plus the weapon bonus
either reaches the kill number (the zombie dies), or falls short by ``s``: the player then
either spends ``s`` bullets (and wins) or loses a life (``damage`` tokens; a kit instead when
held) and rolls again, by the Q4 rule; losing the last life is death. Every path ends, since
each re-roll costs a kit or life. The chain is written here from the spec, independently of
the kernels (``kernels.zombies9.combat``), which the tests check against it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

RULES = ("rule", "bullets", "hearts")
SIXTH = Fraction(1, 6)


def buys_with_bullets(short: int, life_h: int, bullets: int, kits: int, damage_h: int, rule: str) -> bool:
    """Q4: after a roll ``short`` below the kill number, spend bullets (True) or pay a life and
    roll again (False). ``rule``: the spec's default ("rule": bullets when they suffice and
    life (kits counted) <= 2 or the shortfall is 1), "bullets" first, "hearts" first (re-roll
    while a loss is survivable)."""
    if bullets < short:
        return False
    if rule == "bullets":
        return True
    if rule == "hearts":
        survivable = kits > 0 or life_h > damage_h
        return not survivable
    return Fraction(life_h, 2) + kits <= 2 or short <= 1


@cache
def _end_states(kill_number: int, bonus: int, damage_h: int, life_h: int, bullets: int, kits: int,
                rule: str) -> tuple[tuple[tuple[int, int, int, int], Fraction], ...]:
    """((won, life_h left, bullets left, kits left), probability) of a combat from this state."""
    out: dict[tuple[int, int, int, int], Fraction] = {}
    for roll in range(1, 7):
        total = roll + bonus
        if total >= kill_number:
            _add(out, (1, life_h, bullets, kits), SIXTH)
            continue
        short = kill_number - total
        if buys_with_bullets(short, life_h, bullets, kits, damage_h, rule):
            _add(out, (1, life_h, bullets - short, kits), SIXTH)
        elif kits > 0:
            for end, p in _end_states(kill_number, bonus, damage_h, life_h, bullets, kits - 1, rule):
                _add(out, end, SIXTH * p)
        elif life_h - damage_h <= 0:
            _add(out, (0, 0, bullets, kits), SIXTH)
        else:
            for end, p in _end_states(kill_number, bonus, damage_h, life_h - damage_h, bullets, kits, rule):
                _add(out, end, SIXTH * p)
    return tuple(sorted(out.items()))


def _add(table: dict, key, p: Fraction) -> None:
    table[key] = table.get(key, Fraction(0)) + p


@dataclass(frozen=True)
class CombatOdds:
    """The exact outcome of one combat."""

    win: Fraction
    hearts_spent: Fraction  # expected life tokens lost (a death counts what was lost)
    bullets_spent: Fraction  # expected bullets spent
    kits_used: Fraction  # expected First Aid Kits discarded
    ends: tuple  # ((won, life_h left, bullets left, kits left), probability), exact


def combat_odds(bullets: int, life: float, bonus: int = 0, kill_number: int = 4, damage: float = 1.0,
                first_aid: int = 0, rule: str = "rule") -> CombatOdds:
    """Exact odds of a combat with ``bullets`` bullets and ``life`` life tokens (halves allowed),
    a weapon ``bonus``, the ``kill_number`` (4; a dog 5), ``damage`` tokens per lost roll (1;
    a dog 1/2) and ``first_aid`` kits."""
    if rule not in RULES:
        raise ValueError(f"rule = {rule!r}; allowed: {', '.join(RULES)}")
    life_h, damage_h = round(2 * life), round(2 * damage)
    if life_h < 1 or bullets < 0 or damage_h < 1 or first_aid < 0:
        raise ValueError(f"life = {life}, bullets = {bullets}, damage = {damage}, first_aid = {first_aid}; "
                         "allowed: life > 0, bullets >= 0, damage >= 1/2, first_aid >= 0")
    ends = _end_states(kill_number, bonus, damage_h, life_h, bullets, first_aid, rule)
    win = sum((p for (won, *_), p in ends if won), Fraction(0))
    hearts = sum((p * Fraction(life_h - lh, 2) for (_, lh, _, _), p in ends), Fraction(0))
    spent = sum((p * (bullets - b) for (_, _, b, _), p in ends), Fraction(0))
    kits = sum((p * (first_aid - k) for (_, _, _, k), p in ends), Fraction(0))
    return CombatOdds(win, hearts, spent, kits, ends)


def outcome_index(won: int, life_h: int, bullets: int, kits: int, max_life_h: int, max_bullets: int,
                  max_kits: int) -> int:
    """The flat numbering of end states the kernel sampler writes (``combat.outcome_index``)."""
    return ((won * (max_life_h + 1) + life_h) * (max_bullets + 1) + bullets) * (max_kits + 1) + kits


def outcome_pmf(odds: CombatOdds, life_h: int, bullets: int, kits: int) -> list[float]:
    """The exact end-state pmf in the sampler's numbering."""
    size = outcome_index(1, life_h, bullets, kits, life_h, bullets, kits) + 1
    pmf = [0.0] * size
    for (won, lh, b, k), p in odds.ends:
        pmf[outcome_index(won, lh, b, k, life_h, bullets, kits)] += float(p)
    return pmf


def odds_table(max_bullets: int = 6, max_life: int = 5, bonus: int = 0, kill_number: int = 4,
               rule: str = "rule") -> list[dict]:
    """Win chance and expected spend for every (bullets, life) start: rows for ``shamble zombies9 odds``."""
    rows = []
    for life in range(1, max_life + 1):
        for b in range(max_bullets + 1):
            o = combat_odds(b, life, bonus, kill_number, rule=rule)
            rows.append({"life": life, "bullets": b, "win": float(o.win), "hearts_spent": float(o.hearts_spent),
                         "bullets_spent": float(o.bullets_spent)})
    return rows


# ---------------------------------------------------------------- a whole fight on the board


FIGURES = ("adult", "kid", "dog")


@dataclass(frozen=True)
class FightStart:
    """A player about to fight one figure (A8, A10, A11, Q5, C): what the player holds and the
    numbers of the rules (their defaults the spec's)."""

    life: float
    bullets: int
    figure: str = "adult"  # adult, kid (B6: fought as an adult), dog (C)
    fire_axe: bool = False  # items in play (A11)
    chainsaw: bool = False
    molotov: bool = False
    in_building: bool = False  # the figure stands on a square of a named building (the Molotov's)
    shotgun: int = 0  # combats left on Hey, Look! A Shotgun!
    first_aid: bool = False
    ahead: int = 1  # zombies to be fought this turn (Q5)
    rule: str = "rule"  # Q4
    multi_zombies: int = 2  # Q5: discard the Chainsaw / Molotov at this many zombies ahead ...
    danger_life: int = 2  # ... or at this life or less
    kill_number: int = 4
    dog_kill: int = 5  # D37
    dog_damage: float = 0.5  # C
    axe_bonus: int = 1
    chainsaw_bonus: int = 2
    molotov_bonus: int = 2
    shotgun_bonus: int = 1


FIGHT_END = ("won", "life_h", "bullets", "first_aid", "fire_axe", "chainsaw", "chainsaw_on", "molotov", "molotov_on",
             "shotgun")


def fight_odds(s: FightStart) -> dict[tuple, Fraction]:
    """The exact end of one fight as games fight it, over ``FIGHT_END``: (won, life in halves,
    bullets, First Aid Kit held, Fire Axe held, Chainsaw held, Chainsaw burning this turn, Molotov
    held, Molotov burning this turn, Shotgun combats left) -> probability.

    From the rules, not the kernels: Q5 discards the Chainsaw for +2 this turn when ``ahead`` >=
    ``multi_zombies`` or life <= ``danger_life`` (else a Molotov, inside a building); A10 allows one
    weapon per combat, the best, plus the Shotgun's +1, whose charge is spent by the fight; the
    figure sets the kill number and the damage (a dog 5+ and half a token, a kid as an adult); the
    First Aid Kit is a lost roll's token (the chain); a lost fight is death (A8.4): every weapon
    and item in play is lost, life 0 until the next turn, bullets kept."""
    if s.figure not in FIGURES:
        raise ValueError(f"figure = {s.figure!r}; allowed: {', '.join(FIGURES)}")
    chainsaw, molotov, chainsaw_on, molotov_on = s.chainsaw, s.molotov, False, False
    if s.ahead >= s.multi_zombies or s.life <= s.danger_life:
        if chainsaw:
            chainsaw, chainsaw_on = False, True
        elif molotov and s.in_building:
            molotov, molotov_on = False, True
    weapon = max([0] + [s.axe_bonus] * s.fire_axe + [s.chainsaw_bonus] * chainsaw_on + [s.molotov_bonus] * molotov_on)
    bonus = weapon + (s.shotgun_bonus if s.shotgun > 0 else 0)
    dog = s.figure == "dog"
    kill, damage_h = (s.dog_kill, round(2 * s.dog_damage)) if dog else (s.kill_number, 2)
    ends = _end_states(kill, bonus, damage_h, round(2 * s.life), s.bullets, int(s.first_aid), s.rule)
    out: dict[tuple, Fraction] = {}
    for (won, life_h, bullets, kits), p in ends:
        if won:
            end = (1, life_h, bullets, kits > 0, s.fire_axe, chainsaw, chainsaw_on, molotov, molotov_on,
                   max(0, s.shotgun - 1))
        else:
            end = (0, 0, bullets, False, False, False, False, False, False, 0)
        end = tuple(int(x) for x in end)
        out[end] = out.get(end, Fraction(0)) + p
    return out
