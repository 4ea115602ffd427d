"""Zombie Survival Teams (zombie40k §2): a team file, its cost and the rules it must keep.

A team is a list of models, each a catalogue unit, optionally the one leader upgrade (with
leader options) or one of the two weapon swaps, and one Universal Special Rule from §9 given
to one model. Team files are TOML::

    name = "Guard"
    usr = "Feel No Pain"          # optional; zombie40k §9
    usr_model = 0                 # which model gets it (index in the expanded list)

    [[models]]
    unit = "Guardsman"
    count = 9

    [[models]]
    unit = "Guardsman"
    leader = "Sergeant"
    options = ["Power sword"]     # leader options (catalogue §2.1)

    [[models]]
    unit = "Guardsman"
    swap = "Flamer"               # a weapon swap (catalogue §2.2)

``check_team`` returns every rule the team breaks (empty when legal); ``load_team`` raises
``TeamError`` with one line naming the file and what is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from difflib import get_close_matches
from fractions import Fraction
from pathlib import Path

from sim.files import read_toml
from sim.rulesets.zombie40k.catalogue import catalogue as load_catalogue
from sim.w40k.catalogue import Catalogue, UnitEntry, UnknownNameError, WargearOption
from sim.w40k.profiles import Profile, rule_name

# zombie40k §9: Unit Rules and Model Rules (snake_case as in sim.w40k.profiles.MODEL_RULES)
USR_CHOICES = (
    "and_they_shall_know_no_fear", "counter_attack", "crusader", "move_through_cover", "night_vision",
    "preferred_enemy", "shrouded", "slow_and_purposeful", "split_fire", "stealth", "stubborn",
    "blind", "feel_no_pain", "fleshbane", "furious_charge", "hammer_of_wrath", "hatred", "poisoned", "rage",
    "rampage", "relentless", "rending", "shred", "smash",
)
TEAM_FIELDS = ("name", "usr", "usr_model", "models")
MODEL_FIELDS = ("unit", "count", "leader", "options", "swap")
MAX_SWAPS = 2  # zombie40k §2: two other models may swap weapons
DEFAULT_BUDGET = Fraction(75)  # zombie40k §2 [V]
MAX_FIT_BUDGET = 10_000  # fit_team: as GameConfig.kf_budget


class TeamError(ValueError):
    """A team that cannot be read or built; the message is one line."""


def usr_key(text: str) -> str:
    """'Feel No Pain' -> 'feel_no_pain'; "'Ere We Go!" -> 'ere_we_go'."""
    cleaned = "".join(ch if ch.isalnum() else " " for ch in text.lower())
    return "_".join(cleaned.split())


@dataclass(frozen=True)
class ModelChoice:
    """One model of a team: its unit, and at most one of a leader upgrade or a weapon swap."""

    unit: str
    leader: str = ""
    options: tuple[str, ...] = ()  # leader options bought
    swap: str = ""  # weapon-swap option taken

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", tuple(self.options))


@dataclass(frozen=True)
class Team:
    """A Zombie Survival Team as its player built it."""

    name: str
    models: tuple[ModelChoice, ...]
    usr: str = ""
    usr_model: int = 0
    source: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "models", tuple(self.models))
        object.__setattr__(self, "usr", usr_key(self.usr) if self.usr else "")


@dataclass(frozen=True)
class BuiltModel:
    """A model as it takes the table: profile with every rule it gets, and its weapons."""

    profile: Profile
    weapons: tuple[str, ...]  # weapon profile names
    is_leader: bool = False


def _option(options: tuple[WargearOption, ...], item: str, what: str, unit: str) -> WargearOption:
    for opt in options:
        if opt.item.lower() == item.strip().lower():
            return opt
    allowed = ", ".join(repr(o.item) for o in options) or "none"
    raise TeamError(f"{what} {item!r} is not an option of {unit!r}; allowed: {allowed}")


def _apply_option(wargear: list[str], opt: WargearOption) -> list[str]:
    kept = [w for w in wargear if w.lower() not in {r.lower() for r in opt.replaces}]
    return kept + [opt.item]


def model_cost(choice: ModelChoice, cat: Catalogue) -> Fraction:
    """Points of one model: pts/model, its leader upgrade and options, or its swap."""
    entry = cat.unit(choice.unit)
    cost = entry.cost_per_model
    if choice.leader:
        lead = entry.leader(choice.leader)
        cost += lead.cost + sum((_option(lead.options, o, "leader option", entry.name).cost for o in choice.options),
                                Fraction(0))
    if choice.swap:
        cost += _option(entry.swaps, choice.swap, "weapon swap", entry.name).cost
    return cost


def team_cost(team: Team, cat: Catalogue | None = None) -> Fraction:
    cat = cat or load_catalogue()
    return sum((model_cost(m, cat) for m in team.models), Fraction(0))


def build_model(choice: ModelChoice, cat: Catalogue) -> BuiltModel:
    """The model's profile (leader changes, granted rules) and weapon profiles."""
    entry: UnitEntry = cat.unit(choice.unit)
    profile, wargear = entry.profile, list(entry.wargear)
    rules = set(profile.rules)
    if choice.leader:
        lead = entry.leader(choice.leader)
        profile, wargear = entry.leader_profile(choice.leader), list(entry.leader_wargear(choice.leader))
        rules |= profile.rules
        for item in choice.options:
            opt = _option(lead.options, item, "leader option", entry.name)
            wargear, rules = _apply_option(wargear, opt), rules | opt.grants_rules
    if choice.swap:
        opt = _option(entry.swaps, choice.swap, "weapon swap", entry.name)
        wargear, rules = _apply_option(wargear, opt), rules | opt.grants_rules
    weapons = tuple(w.name for item in wargear for w in cat.profiles_of(item))
    return BuiltModel(replace(profile, rules=frozenset(rules)), weapons, bool(choice.leader))


def build_team(team: Team, cat: Catalogue | None = None, allow_usr: bool = True) -> tuple[BuiltModel, ...]:
    """Every model of the team as it takes the table, the USR given to its model.

    A USR outside zombie40k §9, or a ``usr_model`` that is not a model of the team, is a
    TeamError (not a rule silently given to another model, or to the last one for -1).
    """
    cat = cat or load_catalogue()
    built = []
    for k, m in enumerate(team.models):
        try:
            built.append(build_model(m, cat))
        except (TeamError, UnknownNameError) as err:  # the same error, naming the team and the model
            raise type(err)(f"{team.source or team.name}: model {k}: {err}") from None
    if team.usr and allow_usr:
        problems = _usr_problems(team, allow_usr)
        if problems:
            raise TeamError(f"{team.source or team.name}: {problems[0]}")
        m = built[team.usr_model]
        rules = m.profile.rules | {team.usr}
        profile = replace(m.profile, rules=rules, fnp=5 if team.usr == "feel_no_pain" and m.profile.fnp == 7
                          else m.profile.fnp)
        built[team.usr_model] = replace(m, profile=profile)
    return tuple(built)


def check_team(team: Team, budget: Fraction = DEFAULT_BUDGET, cat: Catalogue | None = None,
               allow_usr: bool = True) -> list[str]:
    """Every zombie40k §2 rule the team breaks, one sentence each (empty: legal)."""
    cat = cat or load_catalogue()
    problems: list[str] = []
    if not team.models:
        return ["the team has no models"]
    for k, m in enumerate(team.models):
        try:
            entry = cat.unit(m.unit)
        except UnknownNameError as err:
            problems.append(f"model {k}: {err}")
            continue
        problems += _model_problems(k, m, entry, cat)
    leaders = sum(1 for m in team.models if m.leader)
    swaps = sum(1 for m in team.models if m.swap)
    if leaders > 1:
        problems.append(f"{leaders} leaders; at most one model may be upgraded (zombie40k §2)")
    if swaps > MAX_SWAPS:
        problems.append(f"{swaps} weapon swaps; at most {MAX_SWAPS} models may swap weapons (zombie40k §2)")
    costs = [_priced(m, cat) for m in team.models]
    known = sum((c for c in costs if c is not None), Fraction(0))
    if known > budget:
        least = "at least " if None in costs else ""  # the models that cannot be priced add to it
        problems.append(f"costs {least}{_points(known)} points; the budget is {_points(budget)} (zombie40k §2)")
    problems += _usr_problems(team, allow_usr)
    return problems


def _priced(m: ModelChoice, cat: Catalogue) -> Fraction | None:
    """The model's cost, or None when its unit, leader or option cannot be priced (a rule broken)."""
    try:
        return model_cost(m, cat)
    except (TeamError, UnknownNameError):
        return None


def _model_problems(k: int, m: ModelChoice, entry: UnitEntry, cat: Catalogue) -> list[str]:
    out = []
    if entry.side != "survivors":
        out.append(f"model {k}: {entry.name!r} is on the zombies' side and cannot be bought")
    if entry.unit_type != "infantry":
        out.append(f"model {k}: {entry.name!r} is {entry.unit_type}; only Infantry is allowed (zombie40k §2)")
    if m.leader and m.swap:
        out.append(f"model {k}: a leader cannot also take a weapon swap (zombie40k §2)")
    if m.options and not m.leader:
        out.append(f"model {k}: options {list(m.options)} need a leader upgrade")
    try:
        model_cost(m, cat)
    except (TeamError, UnknownNameError) as err:
        out.append(f"model {k}: {err}")
    return out


def _usr_problems(team: Team, allow_usr: bool) -> list[str]:
    if not team.usr:
        return []
    if not allow_usr:
        return ["no USR may be given under Hardcore Mode (zombie40k §10.6)"]
    if team.usr not in USR_CHOICES:
        return [f"USR {rule_name(team.usr)!r} is not in the zombie40k §9 list{_did_you_mean(team.usr, USR_CHOICES)}; "
                f"allowed: {', '.join(rule_name(u) for u in USR_CHOICES)}"]
    if not 0 <= team.usr_model < len(team.models):
        return [f"usr_model = {team.usr_model}; allowed: 0-{len(team.models) - 1}"]
    return []


def _points(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.2f}"


def fit_team(team: Team, budget: int | Fraction, cat: Catalogue | None = None) -> Team:
    """The team resized to a points budget, for budget sweeps.

    The leader and the weapon swaps are kept; the squad's plain models (its most common unit
    without an upgrade) are dropped from the end or added at the end until one more would not
    fit. When even the upgraded models alone cost too much, swaps and then leader options are
    dropped. A budget that cannot buy one model is a TeamError.
    """
    cat = cat or load_catalogue()
    where = team.source or team.name
    try:
        budget = Fraction(budget)
    except (TypeError, ValueError, OverflowError):
        raise TeamError(f"{where}: budget = {budget!r}; allowed: a number of points 0-{MAX_FIT_BUDGET}") from None
    if not 0 <= budget <= MAX_FIT_BUDGET:
        raise TeamError(f"{where}: budget = {_points(budget)}; allowed: a number of points 0-{MAX_FIT_BUDGET}")
    if not team.models:
        raise TeamError(f"{where}: the team has no models to fit to a budget")
    try:
        return _fit(team, budget, cat)
    except (TeamError, UnknownNameError) as err:  # the same error, naming the team
        raise type(err)(f"{where}: {err}") from None


def fill_model(team: Team) -> ModelChoice:
    """The squad's plain model: its most common unit without an upgrade (the first model's unit
    when every model is upgraded), the one `fit_team` adds or drops; its unit is the team's main
    unit, the one a rebalance prices."""
    plain = [m for m in team.models if not (m.leader or m.swap)]
    return max(plain, key=plain.count) if plain else ModelChoice(team.models[0].unit)


def _fit(team: Team, budget: Fraction, cat: Catalogue) -> Team:
    fill = fill_model(team)
    kept = [m for m in team.models if m != fill]
    while kept and team_cost(replace(team, models=tuple(kept)), cat) > budget:
        kept = _strip_one_upgrade(kept)
    each = cat.unit(fill.unit).cost_per_model
    room = budget - team_cost(replace(team, models=tuple(kept)), cat) if kept else budget
    n_fill = int(room // each) if each > 0 else sum(1 for m in team.models if m == fill)
    models = tuple(kept) + (fill,) * n_fill
    if not models:
        raise TeamError(f"a budget of {_points(budget)} points buys no model")
    usr_model = team.usr_model if team.usr_model < len(models) else 0
    return replace(team, models=models, usr_model=usr_model)


def _strip_one_upgrade(models: list[ModelChoice]) -> list[ModelChoice]:
    """Drop the last weapon swap, else the leader's last option, else the leader upgrade."""
    for k in range(len(models) - 1, -1, -1):
        if models[k].swap:
            return models[:k] + [replace(models[k], swap="")] + models[k + 1:]
    for k in range(len(models) - 1, -1, -1):
        if models[k].options:
            return models[:k] + [replace(models[k], options=models[k].options[:-1])] + models[k + 1:]
        if models[k].leader:
            return models[:k] + [replace(models[k], leader="")] + models[k + 1:]
    return models[:-1]


# ---------------------------------------------------------------------------- files


def team_from_dict(data: dict, source: str = "team") -> Team:
    """A Team from parsed TOML (or a dict); one-line TeamError on a bad field."""
    if not isinstance(data, dict):
        raise TeamError(f"{source}: a team must be a table")
    unknown = set(data) - set(TEAM_FIELDS)
    if unknown:
        first = sorted(unknown, key=str)[0]
        raise TeamError(f"{source}: unknown field {first!r}{_did_you_mean(first, TEAM_FIELDS)}; "
                        f"allowed: {', '.join(TEAM_FIELDS)}")
    models = data.get("models")
    if not isinstance(models, list) or not models:
        raise TeamError(f"{source}: field 'models' must be a non-empty list of [[models]] tables")
    expanded: list[ModelChoice] = []
    for k, row in enumerate(models):
        expanded += _model_rows(row, f"{source}: models[{k}]")
    name = data.get("name", Path(source).stem)
    if not isinstance(name, str):
        raise TeamError(f"{source}: field 'name' = {name!r}; allowed: a team name (a string)")
    usr_model = data.get("usr_model", 0)
    if not isinstance(usr_model, int) or isinstance(usr_model, bool):
        raise TeamError(f"{source}: field 'usr_model' = {usr_model!r}; allowed: a model index")
    usr = data.get("usr", "")
    if not isinstance(usr, str):
        raise TeamError(f"{source}: field 'usr' = {usr!r}; allowed: a USR name from zombie40k §9")
    return Team(name, tuple(expanded), usr, usr_model, source)


def _model_rows(row: object, where: str) -> list[ModelChoice]:
    if not isinstance(row, dict):
        raise TeamError(f"{where}: must be a table with a 'unit'")
    unknown = set(row) - set(MODEL_FIELDS)
    if unknown:
        first = sorted(unknown, key=str)[0]
        raise TeamError(f"{where}: unknown field {first!r}{_did_you_mean(first, MODEL_FIELDS)}; "
                        f"allowed: {', '.join(MODEL_FIELDS)}")
    unit, count = row.get("unit"), row.get("count", 1)
    if not isinstance(unit, str) or not unit:
        raise TeamError(f"{where}: field 'unit' is missing (got {unit!r}); allowed: a catalogue unit name, "
                        "see `shamble units`")
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 50:
        raise TeamError(f"{where}: field 'count' = {count!r}; allowed: an integer 1-50")
    options = row.get("options", [])
    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        raise TeamError(f"{where}: field 'options' must be a list of item names")
    for name in ("leader", "swap"):
        if not isinstance(row.get(name, ""), str):
            raise TeamError(f"{where}: field {name!r} must be a name")
    choice = ModelChoice(unit, row.get("leader", ""), tuple(options), row.get("swap", ""))
    return [choice] * count


def _did_you_mean(name: object, choices) -> str:
    close = get_close_matches(str(name), list(choices), n=1)
    return f" (did you mean {rule_name(close[0]) if close[0] in USR_CHOICES else close[0]!r}?)" if close else ""


def load_team(path: str | Path) -> Team:
    """Read a team file; a missing file or bad TOML is a one-line TeamError."""
    return team_from_dict(read_toml(path, "team", TeamError), str(path))
