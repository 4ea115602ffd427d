"""Exact odds of an exchange (the mathhammer): the oracle the kernels are tested against.

``exchange_odds(exchange)`` returns the exact joint distribution of (unsaved wounds, models
removed) when ``exchange.n_dice`` attack dice are resolved against the target unit, under the
same rules as ``kernels.w40k.combat`` but computed independently: no kernel code and no random
draw is used. The rules are read off the profiles here (to-hit tables of core-7th-edition
§6.3 and §7.3 and the wound chart of §6.5, transcribed as printed), and every die procedure
(re-rolls, BS 6+, the extra re-roll a ruleset may grant, scatter) is enumerated face by face.

Method: a die procedure becomes a small distribution of outcomes; the exchange is a Markov
chain over (closest living model, its Wounds left, unsaved wounds so far, cancels left),
advanced attack die by attack die and hit by hit (wound allocation of §6.6: the closest model
takes wounds until it dies). Probabilities are ``fractions.Fraction`` with ``exact=True``
(so a test can assert 8/27), floats otherwise.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from sim.w40k.exchange import Exchange
from sim.w40k.profiles import NO_AP, NO_SAVE, Profile

FACES = (1, 2, 3, 4, 5, 6)

# core-7th-edition §6.3 as printed: BS -> (first roll, roll after the BS re-roll or 0)
RANGED_TO_HIT = {1: (6, 0), 2: (5, 0), 3: (4, 0), 4: (3, 0), 5: (2, 0), 6: (2, 6), 7: (2, 5),
                 8: (2, 4), 9: (2, 3), 10: (2, 2)}
# core-7th-edition §6.5 by S - T: 2+ for +2 or more, ..., 6+ for -2 and -3, none below
WOUND_BY_DIFFERENCE = {1: 3, 0: 4, -1: 5, -2: 6, -3: 6}


def _wound_roll(strength: int, toughness: int) -> int:
    diff = strength - toughness
    if diff >= 2:
        return 2
    return WOUND_BY_DIFFERENCE.get(diff, NO_SAVE)


def _melee_to_hit(attacker_ws: int, defender_ws: int) -> int:
    """core-7th-edition §7.3: 3+ against a lower WS, 5+ against more than double, else 4+."""
    if defender_ws < attacker_ws:
        return 3
    return 5 if defender_ws > 2 * attacker_ws else 4


def _strength(text: str, user: int, bonus: int) -> int:
    t = text.strip().lower()
    if t in ("x", "-", "–"):
        return 0
    if t == "user":
        return min(10, user + bonus)
    if t[0] == "+":
        return min(10, user + int(t[1:]) + bonus)
    if t[0] in "x×":
        return min(10, user * int(t[1:]) + bonus)
    return int(t)


# ------------------------------------------------------------------ one die, face by face


def _reroll_procedure(success, rule_may_reroll, extra_reroll: bool, one):
    """Distribution {final face: p} of: roll; a failure the rule allows is re-rolled once;
    with the extra re-roll a still-failed die is re-rolled once more."""
    sixth = one / 6
    dist: dict[int, object] = defaultdict(lambda: 0 * one)

    def after_rule(face, p):
        if success(face) or not extra_reroll:
            dist[face] += p
            return
        for f in FACES:
            dist[f] += p * sixth

    for face in FACES:
        if success(face) or not rule_may_reroll(face):
            after_rule(face, sixth)
        else:
            for f in FACES:
                after_rule(f, sixth * sixth)
    return dist


@dataclass(frozen=True)
class _Rules:
    """Everything the chain needs, derived from the exchange's profiles."""

    hit_kind: str  # roll | template | d3 | blast | auto
    hit_dist: dict  # roll: {hits: p} per die
    wound_on: int
    wound_reroll: str  # none | ones | failed
    auto_six: bool
    ap: int
    ap_six: int
    strength: int
    instant_death: bool
    no_damage: bool


def _has(exchange: Exchange, rule: str) -> bool:
    return rule in exchange.weapon.rules


def _model_cc_rule(exchange: Exchange, rule: str) -> bool:
    """Model rules zombie40k §9 (and 7th edition) apply in close combat only."""
    return exchange.melee and rule in exchange.attacker.rules


def _hit_distribution(exchange: Exchange, one):
    """{hits: p} for one rolled attack die (shooting or close combat)."""
    a = exchange.attacker
    pe = "preferred_enemy" in a.rules
    if exchange.melee:
        need, need2 = _melee_to_hit(a.ws, exchange.target_ws), 0
        failed = exchange.first_round and "hatred" in a.rules
    elif a.bs <= 0:
        return {0: one}
    elif exchange.snap or exchange.overwatch:
        need, need2, failed = 6, 0, _has(exchange, "twin_linked")
    else:
        need, need2 = RANGED_TO_HIT[a.bs]
        failed = _has(exchange, "twin_linked")
    tesla = 2 if _has(exchange, "tesla") and not (exchange.snap or exchange.overwatch) else 0
    return _hits_from_faces(need, need2, failed, pe, exchange.extra_reroll, tesla, one)


def hit_probability(need: int, reroll_failed: bool, one):
    """P(one D6 hits on ``need``+, a failed die re-rolled once when ``reroll_failed``): the hit
    roll of an exchange without its special rules (a vehicle attack's, for one)."""
    hits = _hits_from_faces(need, 0, reroll_failed, False, False, 0, one)
    return sum((p for h, p in hits.items() if h), 0 * one)


def _hits_from_faces(need, need2, failed, ones, extra_reroll, tesla, one):
    sixth = one / 6
    hits: dict[int, object] = defaultdict(lambda: 0 * one)
    for first in FACES:
        if first >= need:
            hits[1 + tesla * (first == 6)] += sixth
            continue
        rule_reroll = failed or (ones and first == 1)
        target = need if rule_reroll else (need2 or None)
        seconds = FACES if target is not None else (first,)
        for second in seconds:
            p = sixth * (sixth if target is not None else 1)
            goal = target if target is not None else need
            finals = [second] if second >= goal or not extra_reroll else list(FACES)
            q = p if len(finals) == 1 else p * sixth
            for final in finals:
                hits[(1 + tesla * (final == 6)) if final >= goal else 0] += q
    return dict(hits)


def _wound_rules(exchange: Exchange, strength: int):
    """(wound_on, re-roll, auto six, AP on a six) for the weapon and the model's CC rules."""
    w = exchange.weapon
    rule = lambda r: _has(exchange, r) or _model_cc_rule(exchange, r)  # noqa: E731
    t = exchange.target_t
    wound_on = _wound_roll(strength, t) if strength > 0 else NO_SAVE
    reroll = "failed" if rule("shred") else "none"
    if rule("poisoned"):
        wound_on = min(wound_on, w.poisoned_on if _has(exchange, "poisoned") else 4)
        if strength > t:
            reroll = "failed"
    if rule("sniper"):
        wound_on = 4
    if rule("fleshbane"):
        wound_on = 2
    if rule("graviton"):
        sv = exchange.target_sv
        wound_on = sv if sv < NO_SAVE else 6
    if reroll == "none" and "preferred_enemy" in exchange.attacker.rules:
        reroll = "ones"
    rends = rule("rending") or _has(exchange, "bladestorm") or _has(exchange, "sniper")
    return wound_on, reroll, rends or _has(exchange, "gauss"), rends


def _derive(exchange: Exchange, one) -> _Rules:
    a, w = exchange.attacker, exchange.weapon
    charged = exchange.melee and exchange.charged
    bonus = 1 if charged and "furious_charge" in a.rules else 0
    s_text = w.strength_on_charge if charged and w.strength_on_charge else w.strength
    strength = _strength(s_text, a.s, bonus)
    ap = w.ap_on_charge if charged and w.ap_on_charge else w.ap
    if exchange.melee and "smash" in a.rules:
        ap = min(ap, 2)
    wound_on, reroll, auto_six, rends = _wound_rules(exchange, strength)
    if w.template:
        kind = "d3" if exchange.overwatch else "template"
    elif w.blast:
        kind = "blast"
    else:
        kind = "roll"
    return _Rules(kind, _hit_distribution(exchange, one) if kind == "roll" else {}, max(2, wound_on), reroll,
                  auto_six, ap, min(ap, 2) if rends else ap, strength, _has(exchange, "instant_death"),
                  _has(exchange, "no_damage"))


def _wound_outcomes(rules: _Rules, extra_reroll: bool, one) -> tuple[object, object]:
    """(P(wound at normal AP), P(wound at the six's AP)) for one hit."""
    if rules.no_damage:
        return 0 * one, 0 * one

    def wounds(face):
        return face >= rules.wound_on or (rules.auto_six and face == 6)

    def may(face):
        return rules.wound_reroll == "failed" or (rules.wound_reroll == "ones" and face == 1)

    dist = _reroll_procedure(wounds, may, extra_reroll, one)
    six = dist[6] if rules.auto_six else 0 * one
    normal = sum((p for f, p in dist.items() if wounds(f)), 0 * one) - six
    return normal, six


def _pass(need: int, extra_reroll: bool, one):
    """P(a D6 roll of ``need``+), re-rolling a failure with ``extra_reroll``."""
    if need >= NO_SAVE:
        return 0 * one
    p = Fraction(7 - need, 6) if isinstance(one, Fraction) else (7 - need) / 6
    return p + (1 - p) * p if extra_reroll else p


def _model_fnp(p: Profile) -> int:
    if p.fnp < NO_SAVE:
        return p.fnp
    return 5 if "feel_no_pain" in p.rules else NO_SAVE


def _unsaved_split(exchange: Exchange, rules: _Rules, model: Profile, ap: int, one):
    """For a wound at ``ap`` on ``model``: (P(unsaved, counts), instant death?)."""
    inv = min(model.inv, 6) if "shield_of_faith" in model.rules else model.inv
    cover = exchange.cover
    if exchange.melee:
        inv, cover = min(inv, model.inv_melee), NO_SAVE
    elif _has(exchange, "ignores_cover"):
        cover = NO_SAVE
    armour = model.sv if ap > model.sv or ap == NO_AP else NO_SAVE
    save = min(armour, inv, cover)
    p_fail = 1 - _pass(save, exchange.save_reroll, one)
    instant = rules.instant_death or (rules.strength > 0 and rules.strength >= 2 * model.t)
    fnp = _model_fnp(model)
    if fnp < NO_SAVE:
        ignore = 0 * one if instant else _pass(fnp, exchange.save_reroll, one)
    elif "reanimation_protocols" in model.rules:
        ignore = _pass(5 + int(instant), exchange.save_reroll, one)
    else:
        ignore = 0 * one
    return p_fail * (1 - ignore), instant


# ------------------------------------------------------------------------ the chain


@dataclass(frozen=True)
class Odds:
    """Exact distribution of an exchange's result.

    ``joint[u, k]`` = P(u unsaved wounds and k models removed); ``unsaved`` and ``killed`` are
    its marginals (numpy float64 arrays); ``exact`` holds the Fractions when asked for.
    """

    joint: np.ndarray
    exact: dict | None = None

    @property
    def unsaved(self) -> np.ndarray:
        return self.joint.sum(axis=1)

    @property
    def killed(self) -> np.ndarray:
        return self.joint.sum(axis=0)

    @staticmethod
    def mean(pmf: np.ndarray) -> float:
        return float(np.dot(np.arange(pmf.size), pmf))

    @staticmethod
    def at_least(pmf: np.ndarray) -> np.ndarray:
        """P(X >= x) for x = 0..len-1."""
        return pmf[::-1].cumsum()[::-1]


def _next_alive(wounds: tuple[int, ...], start: int) -> int:
    for m in range(start, len(wounds)):
        if wounds[m] > 0:
            return m
    return len(wounds)


class _Chain:
    """States (m, wounds left on m, unsaved, cancels) -> probability."""

    def __init__(self, exchange: Exchange, rules: _Rules, one):
        self.x, self.rules, self.one = exchange, rules, one
        self.n = len(exchange.target)
        self.wound_p = _wound_outcomes(rules, exchange.extra_reroll, one)
        self._split_cache: dict = {}

    def split(self, m: int, ap: int):
        key = (m, ap)
        if key not in self._split_cache:
            self._split_cache[key] = _unsaved_split(self.x, self.rules, self.x.target[m], ap, self.one)
        return self._split_cache[key]

    def alive(self, m: int) -> int:
        return sum(1 for k in range(m, self.n) if self.x.wounds[k] > 0)

    def hit(self, state, p, out):
        """One hit on the closest model: wound, save, FNP, a cancel, damage."""
        m, left, unsaved, med = state
        if m >= self.n:
            out[state] += p
            return
        normal, six = self.wound_p
        out[state] += p * (1 - normal - six)
        for p_wound, ap in ((normal, self.rules.ap), (six, self.rules.ap_six)):
            if p_wound == 0:
                continue
            p_unsaved, instant = self.split(m, ap)
            out[state] += p * p_wound * (1 - p_unsaved)
            self._damage(state, p * p_wound * p_unsaved, instant, out)

    def _damage(self, state, p, instant, out):
        m, left, unsaved, med = state
        model = self.x.target[m]
        lost = left if instant and "eternal_warrior" not in model.rules else 1
        if lost >= left and med > 0:
            out[(m, left, unsaved, med - 1)] += p
            return
        left -= lost
        if left > 0:
            out[(m, left, unsaved + 1, med)] += p
            return
        nxt = _next_alive(self.x.wounds, m + 1)
        out[(nxt, self.x.wounds[nxt] if nxt < self.n else 0, unsaved + 1, med)] += p

    def hits_per_die(self, m: int) -> dict:
        rules, one = self.rules, self.one
        alive = self.alive(m)
        if rules.hit_kind == "roll":
            return rules.hit_dist
        if rules.hit_kind == "template":
            return {min(alive, self.x.geometry.template_models): one}
        if rules.hit_kind == "d3":
            return _add([((f + 1) // 2, one / 6) for f in FACES], one)
        return _blast_hits(self.x, alive, one)

    def attack_die(self, states):
        out = defaultdict(lambda: 0 * self.one)
        for state, p in states.items():
            if state[0] >= self.n:
                out[state] += p
                continue
            for hits, q in self.hits_per_die(state[0]).items():
                current = {state: p * q}
                for _ in range(hits):
                    current = self._hit_all(current)
                for s, r in current.items():
                    out[s] += r
        return out

    def _hit_all(self, states):
        out = defaultdict(lambda: 0 * self.one)
        for state, p in states.items():
            self.hit(state, p, out)
        return out


def _add(pairs, one) -> dict:
    """{key: summed p} of (key, p) pairs."""
    out: dict = defaultdict(lambda: 0 * one)
    for k, v in pairs:
        out[k] += v
    return dict(out)


def _blast_hits(exchange: Exchange, alive: int, one) -> dict:
    """{hits: p} of one blast marker (core-7th-edition §6.4; abstraction docs/space.md)."""
    g = exchange.geometry
    large = exchange.weapon.blast == "large"
    under = g.blast_large_models if large else g.blast_small_models
    radius = g.blast_large_radius if large else g.blast_small_radius
    rerolls = int("twin_linked" in exchange.weapon.rules) + int(exchange.extra_reroll)
    distance = _scatter_distance(exchange.attacker.bs, rerolls, radius, one)
    out: dict = defaultdict(lambda: 0 * one)
    if "gets_hot" in exchange.weapon.rules:
        out[0] += one / 6
        distance = {d: p * 5 / 6 for d, p in distance.items()}
    for d, p in distance.items():
        out[max(0, min(alive, under) - max(0, d - radius))] += p
    return dict(out)


def _scatter_distance(bs: int, rerolls: int, radius: int, one) -> dict:
    """{inches: p}: HIT (1/3) is 0, else 2D6 - BS (at least 0); a scatter beyond the marker's
    radius is re-rolled while re-rolls last (twin-linked, the extra re-roll)."""
    attempt: dict = defaultdict(lambda: 0 * one)
    attempt[0] += one / 3
    for a in FACES:
        for b in FACES:
            attempt[max(0, a + b - bs)] += one * 2 / 3 / 36
    result: dict = defaultdict(lambda: 0 * one)
    carry = one
    for k in range(rerolls + 1):
        for d, p in attempt.items():
            if d <= radius or k == rerolls:
                result[d] += carry * p
        carry *= sum((p for d, p in attempt.items() if d > radius), 0 * one)
    return dict(result)


def exchange_odds(exchange: Exchange, exact: bool = False) -> Odds:
    """Exact distribution of (unsaved wounds, models removed) for the exchange."""
    one = Fraction(1) if exact else 1.0
    rules = _derive(exchange, one)
    chain = _Chain(exchange, rules, one)
    first = _next_alive(exchange.wounds, 0)
    left = exchange.wounds[first] if first < chain.n else 0
    states = {(first, left, 0, exchange.cancels): one}
    for _ in range(exchange.n_dice):
        states = chain.attack_die(states)
    return _collect(exchange, states, exact)


def _collect(exchange: Exchange, states: dict, exact: bool) -> Odds:
    alive_before = sum(1 for w in exchange.wounds if w > 0)
    max_unsaved = max((s[2] for s in states), default=0)
    joint = np.zeros((max_unsaved + 1, alive_before + 1))
    fractions: dict = defaultdict(Fraction) if exact else None
    for (m, _left, unsaved, _med), p in states.items():
        killed = alive_before - sum(1 for k in range(m, len(exchange.wounds)) if exchange.wounds[k] > 0)
        joint[unsaved, killed] += float(p)
        if exact:
            fractions[(unsaved, killed)] += p
    return Odds(joint, dict(fractions) if exact else None)
