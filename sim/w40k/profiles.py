"""Model profiles and weapon profiles: the rules as validated, frozen data.

Everything the kernels know about a model or a weapon starts here. The catalogue
(`sim.w40k.catalogue`) loads these from TOML files; mods and configs derive new ones with
`dataclasses.replace`; `sim.w40k.tables` compiles them into integer arrays for the kernels.

Conventions (core-7th-edition §1-§2):
- characteristics are integers 0-10; a Leadership of 0 means "-" (none);
- saves are the number needed on a D6 (2 = 2+); ``NO_SAVE`` (7) means "-" (none);
- AP is 1-6, ``NO_AP`` (7) means "-";
- strength is a string as printed: "4", "User", "+1", "x2", or "X" (no strength: the weapon
  wounds on a fixed roll, e.g. Poisoned or Sniper).
"""

from __future__ import annotations

from dataclasses import dataclass, field

NO_SAVE = 7
NO_AP = 7

# Special rules a model may have (core-7th-edition §12, zombie40k §9 and §11.3). Rules that
# the simulator knows but that have no effect in Zombie 40,000 are listed too, so that a
# catalogue entry can name them without error; see MODEL_RULES_IGNORED.
_EFFECTIVE_MODEL_RULES = frozenset(
    {
        "and_they_shall_know_no_fear",
        "blind",
        "concussive",
        "counter_attack",
        "crusader",
        "eternal_warrior",
        "fearless",
        "feel_no_pain",
        "fleshbane",
        "furious_charge",
        "hammer_of_wrath",
        "hatred",
        "it_will_not_die",
        "move_through_cover",
        "night_vision",
        "poisoned",
        "preferred_enemy",
        "rage",
        "rampage",
        "relentless",
        "rending",
        "shred",
        "shrouded",
        "slow_and_purposeful",
        "smash",
        "split_fire",
        "stealth",
        "stubborn",
        "battle_focus",
        "bounding_leap",
        "brotherhood_of_psykers",
        "combat_drugs",
        "dodge",
        "ere_we_go",
        "fleet",
        "mob_rule",
        "power_from_pain",
        "reanimation_protocols",
        "shield_of_faith",
        "supporting_fire",
        "mandiblasters",
        "veterans_of_the_long_war",
        "mark_of_nurgle",
        "psyker",
        "sweeping_advance_allowed",
    }
)

MODEL_RULES_IGNORED = frozenset(
    {
        "chapter_tactics",
        "combat_squads",
        "doctrines",
        "ancient_doom",
        "infiltrate",
        "scout",
        "outflank",
        "deep_strike",
        "instinctive_behaviour",
        "champion_of_chaos",
        "the_aegis",
        "acts_of_faith",
        "objective_secured",
        "night_vision",
    }
)
MODEL_RULES = _EFFECTIVE_MODEL_RULES | MODEL_RULES_IGNORED

# Special rules a weapon may have (core-7th-edition §6.2, §12; catalogue §3).
WEAPON_RULES = frozenset(
    {
        "twin_linked",
        "rending",
        "poisoned",
        "fleshbane",
        "shred",
        "gets_hot",
        "sniper",
        "gauss",
        "bladestorm",
        "tesla",
        "concussive",
        "blind",
        "instant_death",
        "melta",
        "graviton",
        "pinning",
        "force",
        "unwieldy",
        "specialist",
        "two_handed",
        "armourbane",
        "soul_blaze",
        "daemonbane",
        "psi_shock",
        "target_acquired",
        "ignores_cover",
        "assault_grenade",
        "defensive_grenade",
        "no_damage",
    }
)

WEAPON_KINDS = ("assault", "rapid_fire", "pistol", "heavy", "salvo", "melee", "grenade")
BLAST_SIZES = ("", "small", "large")


_SMALL_WORDS = frozenset({"and", "of", "the", "to"})
_WRITTEN = {"counter_attack": "Counter-Attack", "it_will_not_die": "It Will Not Die!"}  # zombie40k §9 table


def rule_name(key: str) -> str:
    """A special rule as the rulebook writes it: 'feel_no_pain' -> 'Feel No Pain',
    'and_they_shall_know_no_fear' -> 'And They Shall Know No Fear', 'hammer_of_wrath' ->
    'Hammer of Wrath' (core, Special Rules)."""
    if key in _WRITTEN:
        return _WRITTEN[key]
    words = key.split("_")
    return " ".join(w.capitalize() if k == 0 or w not in _SMALL_WORDS else w for k, w in enumerate(words))


def _check_range(owner: str, name: str, value: int, lo: int, hi: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise ValueError(f"{owner}: {name} = {value!r}; allowed: an integer {lo}-{hi}")


def _check_rules(owner: str, rules: frozenset[str], allowed: frozenset[str]) -> None:
    unknown = sorted(set(rules) - allowed)
    if unknown:
        from difflib import get_close_matches

        hints = [get_close_matches(r, allowed, n=1) for r in unknown]
        said = ", ".join(f"{r!r}" + (f" (did you mean {h[0]!r}?)" if h else "") for r, h in zip(unknown, hints))
        raise ValueError(f"{owner}: unknown special rule {said}")


@dataclass(frozen=True)
class Profile:
    """A model's characteristics (core-7th-edition §2) and its special rules."""

    name: str
    ws: int
    bs: int
    s: int
    t: int
    w: int
    i: int
    a: int
    ld: int
    sv: int = NO_SAVE  # armour save X+; 7 = none
    inv: int = NO_SAVE  # invulnerable save X++; 7 = none
    inv_melee: int = NO_SAVE  # invulnerable only in close combat (Dodge 4++); 7 = none
    fnp: int = NO_SAVE  # Feel No Pain X+; 7 = none
    rules: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        owner = f"profile {self.name!r}"
        for stat in ("ws", "bs", "s", "i", "a", "ld"):
            _check_range(owner, stat, getattr(self, stat), 0, 10)
        _check_range(owner, "t", self.t, 1, 10)
        _check_range(owner, "w", self.w, 1, 10)
        for stat in ("sv", "inv", "inv_melee", "fnp"):
            _check_range(owner, stat, getattr(self, stat), 2, NO_SAVE)
        object.__setattr__(self, "rules", frozenset(self.rules))
        _check_rules(owner, self.rules, MODEL_RULES)

    def has(self, rule: str) -> bool:
        return rule in self.rules


@dataclass(frozen=True)
class Weapon:
    """A weapon profile (catalogue §3; core-7th-edition §6.2).

    ``shots`` is the number of to-hit dice per model: for Rapid Fire the count at long range
    (1; doubled within half range), for Salvo X/Y the moving count X (``shots_stationary`` = Y),
    for templates and blasts 1 (one template or marker). ``shots_from_attacks`` makes the
    shot count the firer's Attacks (spinefists).
    """

    name: str
    range_in: float  # inches; 0 for melee-only weapons
    strength: str  # "4", "User", "+N", "xN", or "X"
    ap: int = NO_AP  # 1-6; 7 = "-"
    kind: str = "assault"
    shots: int = 1
    shots_stationary: int = 0  # Salvo only
    blast: str = ""  # "", "small" (3"), "large" (5")
    template: bool = False
    rules: frozenset[str] = field(default_factory=frozenset)
    poisoned_on: int = 4  # Poisoned (X+), used when "poisoned" is in rules
    shots_from_attacks: bool = False
    strength_on_charge: str = ""  # power lance: "+1" on the charge
    ap_on_charge: int = 0  # power lance: AP3 on the charge; 0 = same as ap

    def __post_init__(self) -> None:
        owner = f"weapon {self.name!r}"
        if self.kind not in WEAPON_KINDS:
            raise ValueError(f"{owner}: kind = {self.kind!r}; allowed: {', '.join(WEAPON_KINDS)}")
        if self.blast not in BLAST_SIZES:
            raise ValueError(f"{owner}: blast = {self.blast!r}; allowed: '', 'small', 'large'")
        parse_strength(self.strength, owner)
        if self.strength_on_charge:
            parse_strength(self.strength_on_charge, owner)
        _check_range(owner, "ap", self.ap, 1, NO_AP)
        _check_range(owner, "ap_on_charge", self.ap_on_charge, 0, NO_AP)
        _check_range(owner, "shots", self.shots, 0, 20)
        _check_range(owner, "shots_stationary", self.shots_stationary, 0, 20)
        _check_range(owner, "poisoned_on", self.poisoned_on, 2, 6)
        if not (isinstance(self.range_in, int | float) and 0 <= self.range_in <= 120):
            raise ValueError(f"{owner}: range_in = {self.range_in!r}; allowed: 0-120 inches")
        if self.kind == "salvo" and self.shots_stationary < 1:
            raise ValueError(f"{owner}: a salvo weapon needs shots_stationary >= 1")
        object.__setattr__(self, "rules", frozenset(self.rules))
        _check_rules(owner, self.rules, WEAPON_RULES)

    @property
    def is_melee(self) -> bool:
        return self.kind == "melee"

    def has(self, rule: str) -> bool:
        return rule in self.rules


# Strength modes, as the kernels see them (sim.w40k.tables compiles Weapon.strength into these).
S_FIXED, S_USER, S_PLUS, S_TIMES, S_NONE = 0, 1, 2, 3, 4


def parse_strength(text: str, owner: str = "weapon") -> tuple[int, int]:
    """``"4"`` -> (S_FIXED, 4); ``"User"`` -> (S_USER, 0); ``"+2"`` -> (S_PLUS, 2);
    ``"x2"`` -> (S_TIMES, 2); ``"X"`` -> (S_NONE, 0)."""
    t = str(text).strip()
    low = t.lower()
    if low == "user":
        return S_USER, 0
    if low in ("x", "-", "–"):
        return S_NONE, 0
    try:
        if low.startswith("+"):
            return S_PLUS, int(low[1:])
        if low.startswith(("x", "×")):
            return S_TIMES, int(low[1:])
        value = int(low)
        if 1 <= value <= 10:
            return S_FIXED, value
    except ValueError:
        pass
    raise ValueError(f"{owner}: strength = {text!r}; allowed: 1-10, 'User', '+N', 'xN' or 'X'")


def effective_strength(weapon_strength: str, user_s: int) -> int:
    """The Strength an attack is made at (core-7th-edition §7.3: 'x2' = double S, max 10).

    Returns 0 for a weapon with no Strength ("X")."""
    mode, value = parse_strength(weapon_strength)
    if mode == S_FIXED:
        return value
    if mode == S_USER:
        return min(10, user_s)
    if mode == S_PLUS:
        return min(10, user_s + value)
    if mode == S_TIMES:
        return min(10, user_s * value)
    return 0
