"""What `shamble zombie40k roster check` and `shamble zombie40k mods` show.

``roster_report`` reads a team file and checks it against zombie40k §2 (``teams``); ``mod_rows``
lists the mods of zombie40k §10. The ``render_*`` functions print them; the CLI only parses and
calls.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from itertools import groupby
from pathlib import Path

from rich.console import Console
from rich.table import Table

from sim.ruleset import default_text, plain, tag_text
from sim.rulesets.zombie40k.catalogue import catalogue as load_catalogue
from sim.rulesets.zombie40k.params import parameters
from sim.rulesets.zombie40k.teams import (
    DEFAULT_BUDGET,
    MAX_SWAPS,
    USR_CHOICES,
    ModelChoice,
    Team,
    TeamError,
    build_model,
    check_team,
    load_team,
    model_cost,
)
from sim.w40k.catalogue import Catalogue, UnknownNameError, WargearOption
from sim.w40k.odds import points_text, profile_line
from sim.w40k.profiles import rule_name


@dataclass(frozen=True)
class RosterReport:
    """A team file as read, the rows that show its models, its cost and the rules it breaks."""

    team: Team
    rows: tuple[dict, ...]  # one per run of identical models: the strings `render_roster` prints
    cost: Fraction | None  # None when a model cannot be priced (unknown unit or option)
    budget: Fraction
    problems: tuple[str, ...]  # every zombie40k §2 rule broken; empty = legal
    hardcore: bool = False

    @property
    def is_legal(self) -> bool:
        return not self.problems


def roster_report(path: str | Path, budget: Fraction | int = DEFAULT_BUDGET, hardcore: bool = False,
                  cat: Catalogue | None = None) -> RosterReport:
    """Read and check one team file.

    Parameters
    ----------
    path : str or Path
        A team file (TOML, ``sim.rulesets.zombie40k.teams`` layout).
    budget : Fraction or int
        Points the team may cost (zombie40k §2: 75).
    hardcore : bool
        Hardcore Mode (zombie40k §10.6): no USR may be given.

    Raises
    ------
    TeamError
        The file cannot be read (missing, not TOML, a bad field): one line.
    """
    cat = cat or load_catalogue()
    team = load_team(path)
    budget = Fraction(budget)
    if budget <= 0:
        raise TeamError(f"budget = {budget}; allowed: more than 0 points")
    problems = tuple(check_team(team, budget, cat, allow_usr=not hardcore))
    costs = [_cost(m, cat) for m in team.models]
    cost = None if any(c is None for c in costs) else sum(costs, Fraction(0))
    return RosterReport(team, tuple(_rows(team, cat, hardcore)), cost, budget, problems, hardcore)


def _cost(m: ModelChoice, cat: Catalogue) -> Fraction | None:
    try:
        return model_cost(m, cat)
    except (TeamError, UnknownNameError):
        return None


def _rows(team: Team, cat: Catalogue, hardcore: bool) -> list[dict]:
    """Runs of identical models share a row; the model carrying the USR has its own."""
    usr_model = team.usr_model if team.usr and not hardcore else -1
    runs = groupby(enumerate(team.models), key=lambda km: (km[1], km[0] == usr_model))
    out = []
    for (choice, has_usr), members in runs:
        first = [k for k, _ in members]
        out.append(_row(choice, first[0], len(first), cat, team.usr if has_usr else ""))
    return out


def _row(m: ModelChoice, k: int, n: int, cat: Catalogue, usr: str) -> dict:
    try:
        built = build_model(m, cat)
        profile, weapons = profile_line(built.profile), ", ".join(dict.fromkeys(built.weapons))
    except (TeamError, UnknownNameError):
        profile, weapons = "?", "?"
    cost = _cost(m, cat)
    return {
        "models": str(k) if n == 1 else f"{k}-{k + n - 1}",
        "unit": m.unit if n == 1 else f"{n} x {m.unit}",
        "leader/swap": _upgrade(m),
        "profile": profile,
        "weapons": weapons,
        "USR": usr_text(usr),
        "pts": "?" if cost is None else points_text(cost * n),
    }


def _upgrade(m: ModelChoice) -> str:
    parts = []
    if m.leader:
        parts.append(f"leader: {m.leader}" + (f" ({', '.join(m.options)})" if m.options else ""))
    elif m.options:
        parts.append(f"options: {', '.join(m.options)}")
    if m.swap:
        parts.append(f"swap: {m.swap}")
    return "; ".join(parts)


def usr_text(key: str) -> str:
    """'feel_no_pain' -> 'Feel No Pain' (zombie40k §9 spelling); '' for none."""
    return rule_name(key) if key else ""


def render_roster(report: RosterReport, console: Console) -> None:
    """The team's models (a block each: unit and upgrade, profile, weapons), its cost, then
    'legal' or every rule it breaks. Lines are printed as they are: no markup, no wrapping."""
    def say(text: str) -> None:
        console.print(text, highlight=False, markup=False, soft_wrap=True)

    team = report.team
    cost = "?" if report.cost is None else points_text(report.cost)
    say(f"{team.name} ({team.source}): {len(team.models)} models, {cost} of {points_text(report.budget)} points")
    for row in report.rows:
        upgrade = f", {row['leader/swap']}" if row["leader/swap"] else ""
        say(f"  {row['models']:>5}  {row['unit']}{upgrade}  [{row['pts']} pts]")
        say(f"         {row['profile']}")
        say(f"         {row['weapons']}")
        if row["USR"]:
            say(f"         USR: {row['USR']}")
    if report.is_legal:
        say("legal: keeps every zombie40k §2 rule")
        return
    say(f"illegal: breaks {len(report.problems)} rule(s):")
    for problem in report.problems:
        say(f"  - {problem}")


# ---------------------------------------------------------------------------- unit cards


def _option_text(o: WargearOption) -> str:
    instead = f" instead of {', '.join(o.replaces)}" if o.replaces else " (added)"
    rules = f", gives {', '.join(rule_name(r) for r in sorted(o.grants_rules))}" if o.grants_rules else ""
    return f"{o.item}{instead}: +{points_text(Fraction(o.cost))} pts{rules}"


def unit_card(name: str, cat: Catalogue | None = None) -> dict:
    """What a team may make of one catalogue unit (zombie40k §2, catalogue §2): its cost,
    profile and rules, its wargear, each leader upgrade (cost, profile, wargear, options with
    their costs), the weapon swaps (two models of a team may take one, zombie40k §2) and the
    USRs of zombie40k §9 one model of the team may be given. Strings, as printed."""
    cat = cat or load_catalogue()
    unit = cat.unit(name)
    leaders = []
    for lead in unit.leaders:
        leaders.append({
            "leader": lead.name, "cost": "incl." if lead.cost == 0 else f"+{points_text(Fraction(lead.cost))} pts",
            "profile": profile_line(unit.leader_profile(lead.name)),
            "wargear": ", ".join(lead.wargear if lead.wargear is not None else unit.wargear),
            "options": [_option_text(o) for o in lead.options], "note": lead.note,
        })
    survivors = unit.side == "survivors"
    return {
        "unit": unit.name, "faction": unit.faction, "side": unit.side, "type": unit.unit_type,
        "pts/model": points_text(unit.cost_per_model) if survivors else "-",
        "block": f"{unit.block_models} models for {points_text(Fraction(unit.block_cost))} pts" if survivors else "-",
        "profile": profile_line(unit.profile),
        "rules": ", ".join(rule_name(r) for r in sorted(unit.profile.rules)) or "-",
        "wargear": ", ".join(unit.wargear), "leaders": leaders,
        "swaps": [_option_text(o) for o in unit.swaps],
        "usr": [rule_name(u) for u in USR_CHOICES] if survivors else [],
        "note": unit.note,
    }


def render_unit_card(card: dict, console: Console) -> None:
    """A unit card as lines: no markup, no wrapping of names."""
    def say(text: str) -> None:
        console.print(text, highlight=False, markup=False, soft_wrap=True)

    say(f"{card['unit']} ({card['faction']}, {card['side']}, {card['type']}): {card['pts/model']} pts per model"
        + (f"; {card['block']}" if card["block"] != "-" else ""))
    say(f"  profile  {card['profile']}")
    say(f"  rules    {card['rules']}")
    say(f"  wargear  {card['wargear']}")
    for lead in card["leaders"]:
        say(f"  leader   {lead['leader']} ({lead['cost']}): {lead['profile']}; {lead['wargear']}")
        for option in lead["options"]:
            say(f"             option: {option}")
    if card["swaps"]:
        say(f"  swaps    (at most {MAX_SWAPS} models of a team, zombie40k §2)")
        for swap in card["swaps"]:
            say(f"             {swap}")
    if card["usr"]:
        say("  USR      one model of the team may have one (zombie40k §9; none under Hardcore, §10.6):")
        say("             " + ", ".join(card["usr"]))
    if card["note"]:
        say(f"  note     {card['note']}")


# ---------------------------------------------------------------------------- mods


def mod_rows() -> list[dict]:
    """One row per mod of zombie40k §10: key, title, section, what it does, its parameters."""
    from sim.rulesets.zombie40k.mods import CONTRADICTIONS, MOD_LIST

    defaults = {p.name: p for p in parameters()}
    rows = []
    for mod in MOD_LIST:
        clashes = sorted(next(iter(pair - {mod.key})) for pair in CONTRADICTIONS if mod.key in pair)
        rows.append({
            "mod": mod.key, "title": mod.title, "spec": mod.section, "summary": mod.summary,
            "params": {p: {"default": plain(defaults[p].default), "tag": tag_text(defaults[p].tag)}
                       for p in mod.params},
            "cannot_combine_with": clashes,
        })
    return rows


def mods_json() -> str:
    return json.dumps(mod_rows(), indent=2, ensure_ascii=False)


def render_mods(console: Console) -> None:
    table = Table(title="Mods (zombie40k §10): select with --mod NAME or mods = [...] in a config",
                  title_justify="left", show_lines=True)
    for column in ("mod", "spec", "what it does", "parameters (default, tag)", "cannot combine with"):
        table.add_column(column, no_wrap=column == "mod")
    for row in mod_rows():
        params = "\n".join(f"{k} = {default_text(v['default'])} {v['tag']}" for k, v in row["params"].items())
        table.add_row(row["mod"], row["spec"], row["summary"], params or "-", ", ".join(row["cannot_combine_with"]))
    console.print(table, markup=False)
