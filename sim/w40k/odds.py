"""Build an exchange from catalogue names: what ``shamble odds`` asks about, in the game's words.

``build_exchange("Tactical Marine", "Boltgun", "Zombie", models=5, half_range=True)`` reads the
catalogue and the firing situation and returns the `sim.w40k.exchange.Exchange` that `sim.w40k.exact` and
the kernels resolve. The rules applied here are those that decide *how many* attack dice are
rolled and *which* weapon a model uses; everything after the dice leave the hand (to hit, to
wound, saves, Feel No Pain, wound allocation) is the exchange's business.

Number of attack dice per model (core-7th-edition §6.2, §7.3, §12):

- Rapid Fire: its shots, doubled within half range;
- Salvo X/Y: Y when stationary, X after moving (Relentless and Slow and Purposeful models fire as
  stationary);
- Heavy: its shots; after moving only Snap Shots (again not for Relentless / Slow and
  Purposeful); a Blast or Template cannot fire Snap Shots (Templates only in Overwatch);
- ``shots_from_attacks`` weapons (spinefists): the model's Attacks;
- Blasts and Templates: one marker or template per model;
- close combat: A, +1 on the charge (+2 with Rage), none of it when the charged unit carries
  defensive grenades (core-7th-edition §8). The +1 Attack for two close combat weapons is not
  inferred from the wargear: give the total with ``dice``.

Errors are `ValueError` (or the catalogue's `UnknownNameError`) with one line naming the option
and the values it allows.
"""

from __future__ import annotations

from dataclasses import replace

from sim.w40k.catalogue import Catalogue, UnitEntry, UnknownNameError, load_catalogue
from sim.w40k.exact import RANGED_TO_HIT, _derive, _model_fnp
from sim.w40k.exchange import MAX_DICE, MAX_MODELS, Exchange
from sim.w40k.profiles import NO_AP, NO_SAVE, Profile, Weapon
from sim.w40k.tables import ws_roll_needed

DEFAULT_MELEE_WEAPON = "Close combat weapon"  # core-7th-edition §7.3: every model has one
VEHICLE_ONLY = frozenset({"Melta bomb"})  # core-7th-edition §8: only matter against vehicles
MAX_CANCELS = 20
KIND_WORDS = {"assault": "Assault", "rapid_fire": "Rapid Fire", "pistol": "Pistol", "heavy": "Heavy",
              "salvo": "Salvo", "melee": "Melee", "grenade": "Grenade"}


# ----------------------------------------------------------------------------------------------
# Validation: one line naming the option and what it allows
# ----------------------------------------------------------------------------------------------


def _check_int(option: str, value: object, lo: int, hi: int, note: str = "") -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise ValueError(f"{option} = {value!r}; allowed: an integer {lo}-{hi}{note}")


def _check_optional(option: str, value: object, lo: int, hi: int, note: str = "") -> None:
    if value is not None:
        _check_int(option, value, lo, hi, note)


def _refuse(option: str, why: str) -> ValueError:
    return ValueError(f"{option}: {why}")


# ----------------------------------------------------------------------------------------------
# Weapons
# ----------------------------------------------------------------------------------------------


def resolve_weapon(cat: Catalogue, name: str) -> Weapon:
    """The weapon profile called ``name``; an item of one profile stands for it (a power klaw
    is a power fist), an item of several must be named by profile ('Missile launcher (krak)')."""
    try:
        return cat.weapon(name)
    except UnknownNameError as err:
        try:
            item = cat.item_name(name)
        except UnknownNameError:
            raise err from None
    profiles = cat.profiles_of(item)
    if len(profiles) == 1:
        return profiles[0]
    if not profiles:
        raise ValueError(f"weapon {item!r} has no weapon profile; allowed: a weapon (see `shamble weapons`)")
    said = ", ".join(repr(p.name) for p in profiles)
    raise ValueError(f"weapon {item!r} has several profiles; allowed: one of {said}")


def _wargear_profiles(cat: Catalogue, wargear: tuple[str, ...]) -> list[Weapon]:
    return [w for item in wargear for w in cat.profiles_of(item)]


def default_weapon(cat: Catalogue, wargear: tuple[str, ...], melee: bool) -> Weapon | None:
    """The first ranged weapon of the wargear (grenades count: the Zombie Boss throws Blight
    Grenades), or with ``melee`` its first close combat weapon, else a close combat weapon.
    None: the model has no ranged weapon."""
    profiles = _wargear_profiles(cat, wargear)
    if melee:
        usable = [w for w in profiles if w.is_melee and w.name not in VEHICLE_ONLY]
        return usable[0] if usable else cat.weapon(DEFAULT_MELEE_WEAPON)
    ranged = [w for w in profiles if not w.is_melee]
    return ranged[0] if ranged else None


# ----------------------------------------------------------------------------------------------
# Number of dice
# ----------------------------------------------------------------------------------------------


def _fires_as_stationary(profile: Profile) -> bool:
    """Relentless and Slow and Purposeful: Heavy and Salvo weapons fire as if stationary (§12)."""
    return profile.has("relentless") or profile.has("slow_and_purposeful")


def _is_moving_heavy(weapon: Weapon, profile: Profile, moved: bool) -> bool:
    return weapon.kind == "heavy" and moved and not _fires_as_stationary(profile)


def shots_per_model(weapon: Weapon, profile: Profile, *, half_range: bool, moved: bool) -> int:
    """To-hit dice (or markers, or templates) one model fires (core-7th-edition §6.2)."""
    if weapon.template or weapon.blast:
        return 1
    if weapon.shots_from_attacks:
        return profile.a
    if weapon.kind == "rapid_fire":
        return weapon.shots * (2 if half_range else 1)
    if weapon.kind == "salvo":
        return weapon.shots if moved and not _fires_as_stationary(profile) else weapon.shots_stationary
    return weapon.shots


def attacks_per_model(profile: Profile, *, charge: bool, defensive_grenades: bool) -> int:
    """Close combat attacks (core-7th-edition §7.3): A, +1 on the charge, +2 instead with Rage;
    no charge bonus against defensive grenades (§8)."""
    if not charge or defensive_grenades:
        return profile.a
    return profile.a + (2 if profile.has("rage") else 1)


def _has_defensive_grenades(cat: Catalogue, entry: UnitEntry) -> bool:
    return any(w.has("defensive_grenade") for w in _wargear_profiles(cat, entry.wargear))


# ----------------------------------------------------------------------------------------------
# Target
# ----------------------------------------------------------------------------------------------


def _target_profile(profile: Profile, *, t, sv, inv, fnp, w) -> Profile:
    """The target's profile with the given characteristics replaced (a mod such as T-Virus)."""
    _check_optional("t", t, 1, 10)
    _check_optional("w", w, 1, 10)
    for option, value in (("sv", sv), ("inv", inv), ("fnp", fnp)):
        _check_optional(option, value, 2, NO_SAVE, " (the D6 roll needed; 7 = none)")
    changes = {k: v for k, v in dict(t=t, sv=sv, inv=inv, w=w).items() if v is not None}
    if fnp is not None:  # the Feel No Pain rule and its number agree (catalogue §2)
        rules = profile.rules - {"feel_no_pain"} if fnp == NO_SAVE else profile.rules | {"feel_no_pain"}
        changes.update(fnp=fnp, rules=rules)
    return replace(profile, **changes) if changes else profile


# ----------------------------------------------------------------------------------------------
# The exchange
# ----------------------------------------------------------------------------------------------


def _check_situation(melee, *, charge, first_round, half_range, moved, snap, overwatch, cover, why="") -> None:
    """Options of one kind of fight used with the other (``why``: how close combat was chosen)."""
    if melee:
        for option, value in (("half_range", half_range), ("moved", moved), ("snap", snap),
                              ("overwatch", overwatch)):
            if value:
                raise _refuse(option, f"a shooting option{why}; allowed in close combat: charge, first_round")
        if cover is not None:
            raise _refuse("cover", "no cover saves in close combat (core-7th-edition §7.3)")
        if charge and not first_round:
            raise _refuse("charge", "a charge is always the first round of a combat")
        return
    if charge:
        raise _refuse("charge", "a close combat option; allowed when shooting: half_range, moved, snap, overwatch")
    if not first_round:
        raise _refuse("first_round", "a close combat option; allowed when shooting: half_range, moved, snap")


def _attacker(entry: UnitEntry, leader: str | None) -> tuple[Profile, tuple[str, ...]]:
    if leader is None:
        return entry.profile, entry.wargear
    return entry.leader_profile(leader), entry.leader_wargear(leader)


def _pick_weapon(cat: Catalogue, name: str | None, wargear: tuple[str, ...], melee: bool) -> tuple[Weapon, bool]:
    """(weapon, melee): a named melee weapon means close combat; a model with no ranged weapon
    fights in close combat."""
    if name is not None:
        weapon = resolve_weapon(cat, name)
        if melee and not weapon.is_melee:
            hint = f" (a pistol counts as a {DEFAULT_MELEE_WEAPON!r})" if weapon.kind == "pistol" else ""
            raise ValueError(f"weapon {weapon.name!r} is not a close combat weapon; allowed with melee: "
                             f"a Melee weapon{hint}")
        return weapon, melee or weapon.is_melee
    weapon = default_weapon(cat, wargear, melee)
    if weapon is None:
        return default_weapon(cat, wargear, True), True
    return weapon, melee


def _shooting_dice(weapon, profile, models, *, half_range, moved, snap, overwatch) -> tuple[int, bool]:
    """(dice, snap): dice of ``models`` firing ``weapon``, and whether they are Snap Shots."""
    if overwatch and profile.has("slow_and_purposeful"):
        raise _refuse("overwatch", "Slow and Purposeful models cannot fire Overwatch (core-7th-edition §12)")
    snap = snap or _is_moving_heavy(weapon, profile, moved)
    if weapon.blast and (snap or overwatch):
        raise ValueError("a blast cannot fire Snap Shots (core-7th-edition §6.2): not after moving with a "
                         "Heavy blast, not in Overwatch")
    if weapon.template and snap and not overwatch:
        raise ValueError("a template cannot fire Snap Shots except in Overwatch (core-7th-edition §6.2)")
    return models * shots_per_model(weapon, profile, half_range=half_range, moved=moved), snap


def build_exchange(
    attacker: str,
    weapon: str | None,
    target: str,
    *,
    models: int = 1,
    dice: int | None = None,
    target_models: int = 10,
    melee: bool = False,
    charge: bool = False,
    first_round: bool = True,
    half_range: bool = False,
    moved: bool = False,
    snap: bool = False,
    overwatch: bool = False,
    cover: int | None = None,
    t: int | None = None,
    sv: int | None = None,
    inv: int | None = None,
    fnp: int | None = None,
    w: int | None = None,
    extra_reroll: bool = False,
    save_reroll: bool = False,
    cancels: int = 0,
    leader: str | None = None,
    catalogue: Catalogue | None = None,
    names: dict[str, str] | None = None,
) -> Exchange:
    """The exchange of ``models`` ``attacker`` models using ``weapon`` on ``target_models``
    ``target`` models.

    Parameters
    ----------
    attacker, target : str
        Catalogue unit names (``shamble units``), case-insensitive.
    weapon : str or None
        A weapon profile (``shamble weapons``); None: the attacker's first ranged weapon, or its
        first close combat weapon with ``melee`` (also when the model has no ranged weapon).
    models : int
        Attacking models (all of the same profile: the unit's, or ``leader``'s).
    dice : int or None
        Attack dice in total, overriding the count derived from the rules (module docstring).
    target_models : int
        Target models, all of the target's profile with ``t``/``sv``/``inv``/``fnp``/``w``
        replaced (saves and FNP as the D6 roll needed, 7 = none).
    melee, charge, first_round : bool
        Close combat; the attacker charged this turn; the first round of the combat (Hatred).
    half_range, moved, snap, overwatch : bool
        Shooting situation: within half range (Rapid Fire); moved (Heavy, Salvo); Snap Shots;
        Overwatch (Snap Shots, templates D3 hits).
    cover : int or None
        The target's cover save (2-6), shooting only.
    extra_reroll, save_reroll : bool
        A second re-roll of failed hits and wounds for the attacker; re-rolls of failed saves and
        Feel No Pain for the target (``Exchange``).
    cancels : int
        Tokens the target holds that each cancel an unsaved wound that would remove a model.
    names : dict
        A ruleset's words for those three options in descriptions (``Exchange.names``).
    leader : str or None
        A leader upgrade of the attacker ('Boss Nob'): its profile and default wargear.
    catalogue : Catalogue or None
        Defaults to ``load_catalogue()``.

    Returns
    -------
    Exchange

    Raises
    ------
    ValueError
        An option out of range or not allowed in this situation (one line naming it).
    UnknownNameError
        A unit, weapon or leader name the catalogue does not hold (with the closest names).
    """
    cat = load_catalogue() if catalogue is None else catalogue
    _check_int("models", models, 1, MAX_DICE)
    _check_int("target_models", target_models, 1, MAX_MODELS)
    _check_optional("dice", dice, 0, MAX_DICE)
    _check_optional("cover", cover, 2, NO_SAVE, " (the D6 roll needed; 7 = none)")
    _check_int("cancels", cancels, 0, MAX_CANCELS)
    attacking, defending = cat.unit(attacker), cat.unit(target)
    profile, wargear = _attacker(attacking, leader)
    asked_melee = melee
    chosen, melee = _pick_weapon(cat, weapon, wargear, melee)
    fell_back = melee and not asked_melee and weapon is None
    why = f" ({profile.name} has no ranged weapon: close combat)" if fell_back else ""
    _check_situation(melee, charge=charge, first_round=first_round, half_range=half_range, moved=moved,
                     snap=snap, overwatch=overwatch, cover=cover, why=why)
    if melee:
        grenades = _has_defensive_grenades(cat, defending)
        n_dice = models * attacks_per_model(profile, charge=charge, defensive_grenades=grenades)
    else:
        n_dice, snap = _shooting_dice(chosen, profile, models, half_range=half_range, moved=moved, snap=snap,
                                      overwatch=overwatch)
    if dice is None and n_dice > MAX_DICE:
        raise ValueError(f"models = {models} roll {n_dice} dice; allowed: at most {MAX_DICE} dice in one exchange")
    hit = _target_profile(defending.profile, t=t, sv=sv, inv=inv, fnp=fnp, w=w)
    return Exchange(
        attacker=profile,
        weapon=chosen,
        n_dice=n_dice if dice is None else dice,
        target=(hit,) * target_models,
        cover=NO_SAVE if cover is None else cover,
        melee=melee,
        charged=charge,
        first_round=first_round,
        snap=snap,
        overwatch=overwatch,
        extra_reroll=extra_reroll,
        save_reroll=save_reroll,
        cancels=cancels,
        names=tuple(sorted((names or {}).items())),
    )


# ----------------------------------------------------------------------------------------------
# Describing an exchange in words
# ----------------------------------------------------------------------------------------------


def _save_text(value: int, mark: str = "+") -> str:
    return "-" if value >= NO_SAVE else f"{value}{mark}"


def profile_line(p: Profile) -> str:
    """'WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+' (+ Inv, FNP where the model has them)."""
    line = f"WS{p.ws} BS{p.bs} S{p.s} T{p.t} W{p.w} I{p.i} A{p.a} Ld{p.ld or '-'} Sv{_save_text(p.sv)}"
    if p.inv < NO_SAVE:
        line += f" Inv{_save_text(p.inv, '++')}"
    if p.inv_melee < NO_SAVE:
        line += f" Inv{_save_text(p.inv_melee, '++')} in close combat"
    if _model_fnp(p) < NO_SAVE:
        line += f" FNP{_model_fnp(p)}+"
    return line


def weapon_line(wp: Weapon) -> str:
    """'Boltgun: 24" S4 AP5 Rapid Fire' (+ shots, blast, template and rules)."""
    reach = "melee" if wp.is_melee else f'{wp.range_in:g}"'
    kind = KIND_WORDS[wp.kind]
    if wp.kind == "salvo":
        kind += f" {wp.shots}/{wp.shots_stationary}"
    elif wp.kind in ("assault", "heavy") and not (wp.template or wp.blast):
        kind += " A" if wp.shots_from_attacks else f" {wp.shots}"
    extras = [b for b in (f"{wp.blast} blast" if wp.blast else "", "template" if wp.template else "") if b]
    extras += sorted(r.replace("_", " ") for r in wp.rules)
    ap = "-" if wp.ap == NO_AP else str(wp.ap)
    tail = f" ({', '.join(extras)})" if extras else ""
    strength = wp.strength if wp.strength.isdigit() else f" {wp.strength}"
    return f"{wp.name}: {reach} S{strength} AP{ap} {kind}{tail}"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _dice_words(x: Exchange) -> str:
    if x.melee:
        return _count(x.n_dice, "attack")
    if x.weapon.template:
        return _count(x.n_dice, "template") + (" (Overwatch: D3 hits each)" if x.overwatch else "")
    if x.weapon.blast:
        return _count(x.n_dice, f"{x.weapon.blast} blast marker")
    return _count(x.n_dice, "shot") + (" (Snap Shots)" if x.snap or x.overwatch else "")


def _to_hit_words(x: Exchange) -> str:
    a = x.attacker
    if x.weapon.template:
        return "automatic (template)"
    if x.weapon.blast:
        return f"blast marker: hits on a HIT, else scatters 2D6 - BS {a.bs}"
    if x.melee:
        return f"{ws_roll_needed(a.ws, x.target_ws)}+ (WS {a.ws} vs WS {x.target_ws})"
    if x.snap or x.overwatch:
        return "6+ (Snap Shots)"
    if a.bs <= 0:
        return "cannot hit (BS 0)"
    first, second = RANGED_TO_HIT[a.bs]
    again = f", re-roll a miss: {second}+" if second else ""
    twin = ", twin-linked: re-roll misses" if x.weapon.has("twin_linked") else ""
    return f"{first}+ (BS {a.bs}{again}{twin})"


def _to_wound_words(x: Exchange) -> str:
    rules = _derive(x, 1.0)
    if rules.no_damage:
        return "no damage"
    if rules.wound_on >= NO_SAVE:
        return f"cannot wound (S{rules.strength} vs T{x.target_t})"
    versus = f"S{rules.strength} vs T{x.target_t}" if rules.strength else "fixed roll"
    return f"{rules.wound_on}+ ({versus})"


def _save_words(x: Exchange) -> str:
    rules = _derive(x, 1.0)
    m = x.target[0]
    inv = min(m.inv, 6) if m.has("shield_of_faith") else m.inv
    inv = min(inv, m.inv_melee) if x.melee else inv
    armour = m.sv if rules.ap > m.sv or rules.ap == NO_AP else NO_SAVE
    cover = NO_SAVE if x.melee or x.weapon.has("ignores_cover") else x.cover
    best = sorted((v, kind) for v, kind in ((armour, "armour"), (inv, "invulnerable"), (cover, "cover")))[0]
    ap = "-" if rules.ap == NO_AP else rules.ap
    words = f"{best[0]}+ {best[1]}" if best[0] < NO_SAVE else "none"
    words += f" (AP{ap} vs Sv{_save_text(m.sv)})"
    if rules.ap_six != rules.ap:
        words += f", AP{rules.ap_six} on a wound roll of 6"
    fnp = _model_fnp(m)
    if fnp < NO_SAVE:
        words += f"; Feel No Pain {fnp}+"
    elif m.has("reanimation_protocols"):
        words += "; Reanimation Protocols 5+"
    return words


def _situation_words(x: Exchange) -> list[str]:
    names = dict(x.names)
    flags = [("close combat", x.melee), ("charged", x.charged), ("later round", x.melee and not x.first_round),
             ("Overwatch", x.overwatch), (f"cover {x.cover}+", x.cover < NO_SAVE and not x.melee),
             (names.get("extra_reroll", "extra re-roll (attacker)"), x.extra_reroll),
             (names.get("save_reroll", "save re-roll (target)"), x.save_reroll),
             (f"{x.cancels} {names.get('cancels', 'wound cancels')}", x.cancels > 0)]
    return [words for words, on in flags if on]


def describe(exchange: Exchange) -> dict:
    """The exchange in words, for printing: who, with what, at whom, and the rolls needed.

    Returns
    -------
    dict of str (and a list of str under "situation")
        attacker, attacker_profile, weapon, dice, target, target_profile, to_hit, to_wound,
        save, situation.
    """
    x = exchange
    names = [p.name for p in x.target]
    target = f"{len(names)} x {names[0]}" if len(set(names)) == 1 else ", ".join(names)
    return {
        "attacker": x.attacker.name,
        "attacker_profile": profile_line(x.attacker),
        "weapon": weapon_line(x.weapon),
        "dice": _dice_words(x),
        "target": target,
        "target_profile": profile_line(x.target[0]),
        "to_hit": _to_hit_words(x),
        "to_wound": _to_wound_words(x),
        "save": _save_words(x),
        "situation": _situation_words(x),
    }


# ----------------------------------------------------------------------------------------------
# Catalogue listings (``shamble units`` / ``shamble weapons``)
# ----------------------------------------------------------------------------------------------


def points_text(points) -> str:
    """Exact points as printed: '14', or '25/4 (6.25)' for a block price shared by its models."""
    if points.denominator == 1:
        return str(points.numerator)
    return f"{points.numerator}/{points.denominator} ({float(points):.2f})"


def unit_rows(catalogue: Catalogue | None = None) -> list[dict]:
    """One row per catalogue unit: faction, name, side, pts/model, profile, wargear, leaders."""
    cat = load_catalogue() if catalogue is None else catalogue
    return [
        {
            "faction": u.faction,
            "unit": u.name,
            "side": u.side,
            "pts/model": points_text(u.cost_per_model) if u.side == "survivors" else "-",
            "profile": profile_line(u.profile),
            "wargear": ", ".join(u.wargear),
            "leaders": ", ".join(lead.name for lead in u.leaders),
        }
        for u in cat.units.values()
    ]


def weapon_rows(catalogue: Catalogue | None = None) -> list[dict]:
    """One row per weapon profile, then one per item that stands for several profiles."""
    cat = load_catalogue() if catalogue is None else catalogue
    rows = [{"weapon": w.name, "profile": weapon_line(w).split(": ", 1)[1]} for w in cat.weapons.values()]
    for item, profiles in cat.items.items():
        if profiles != (item,) and len(profiles) > 1:
            rows.append({"weapon": item, "profile": "name a profile: " + ", ".join(profiles)})
    return rows
