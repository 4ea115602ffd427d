"""`shamble config-ref`: what every config file of a ruleset accepts (issue 29, item 19).

Generated, never written by hand, so that it cannot drift from the code:

- each file's fields (a game config, a player table, an army or team file and its rows) come from
  `FILES` below, and ``tests/test_config_ref.py`` checks that they are exactly the fields the
  loader accepts (it feeds the loader an unknown field and reads its "allowed: ..." list);
- allowed words (classes, traits, presets, mods, factions) are read from the rulesets' own
  constants, and the default policy by loading a config that names none;
- the policy fields come from the ruleset's policy class (the default preset's values and
  ``policy_help``), the parameters from ``Ruleset.parameters()`` (as ``shamble params`` lists them).

``docs/config-reference.md`` is `render_all()`; the test checks that the committed page equals it.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path

from sim.ruleset import Parameter, all_rulesets, default_text, get, plain, value_word

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
DOC = Path(__file__).resolve().parents[1] / "docs" / "config-reference.md"


@dataclass(frozen=True)
class Field:
    """One field of a config file: its name, type, allowed values, default and meaning."""

    name: str
    type: str
    allowed: str
    default: str
    meaning: str


@dataclass(frozen=True)
class FileKind:
    """A file (or a table of one) a ruleset reads; ``probe(extra)`` loads one with the unknown field
    ``extra`` (the loader refuses it, naming the fields it allows)."""

    title: str
    intro: str
    fields: tuple[Field, ...]
    probe: Callable[[str], object]


def _words(names) -> str:
    return ", ".join(str(n) for n in names)


def _toml(path: Path) -> dict:
    return tomllib.loads(path.read_text())


def _heading(ruleset_id: str) -> tuple[Field, ...]:
    """The fields every game config has: ruleset, name, description."""
    return (Field("ruleset", "string", f'"{ruleset_id}"', f'"{ruleset_id}"', "which rules the file is for"),
            Field("name", "string", "any", "-", "the config's title"),
            Field("description", "string", "any", "-", "free text"))


def default_policy(ruleset_id: str, data: dict, base_dir: Path | None = None) -> str:
    """The preset a config that names no policy plays (read by loading it)."""
    rs = get(ruleset_id)
    config = rs.config_from_dict(data, "probe", base_dir)
    policy = config.players[0].policy
    return next((name for name, preset in rs.policy_presets().items() if preset == policy), "custom")


# ---------------------------------------------------------------------------- Zombie 40,000


def _zombie40k() -> list[FileKind]:
    from sim.rulesets.zombie40k import teams as T

    rs = get("zombie40k")
    team = _toml(EXAMPLES / "teams" / "marines.toml")
    game = {"players": [{"team": "../teams/marines.toml"}]}
    base = EXAMPLES / "configs"
    policy = default_policy("zombie40k", game, base)
    return [
        FileKind("Game config file", "`shamble play examples/configs/two_players.toml`: the players and the rules.", (
            *_heading("zombie40k"),
            Field("players", "list of [[players]] tables", "1-8 players (see below)", "required",
                  "the players, in seat order"),
            Field("mods", "list of strings", _words(rs.mods()), "[]", "optional rules (`shamble mods`)"),
            Field("max_game_turns", "integer", "as the parameter", "as the parameter",
                  "a shortcut for [params] max_game_turns"),
            Field("params", "table", "any parameter below", "{}", "rule numbers (`shamble params`)"),
        ), lambda extra: rs.config_from_dict(game | {extra: 1}, "probe", base)),
        FileKind("[[players]] (each player of a game config)", "", (
            Field("name", "string", "non-empty", "the team's name", "the player's name in tables"),
            Field("team", "string or table", "a team file path (relative to the config) or an inline team table",
                  "required", "the player's models (see the team file)"),
            Field("policy", "string or table", f"{_words(rs.policy_presets())}, or a table of policy fields "
                  "(`preset = ...` plus fields)", policy, "how the player plays (`shamble policies`)"),
        ), lambda extra: rs.config_from_dict({"players": [{"team": "../teams/marines.toml", extra: 1}]}, "probe",
                                             base)),
        FileKind("Team file", "`examples/teams/marines.toml`: one player's models (zombie40k §2).", (
            Field("name", "string", "any", "the file's stem", "the team's name"),
            Field("usr", "string", _words(T.USR_CHOICES), '""', "the team's Unit Rule (zombie40k §9)"),
            Field("usr_model", "integer", "a model index", "0", "the model that carries the Unit Rule"),
            Field("models", "list of [[models]] tables", "1 or more", "required", "the models, in removal order"),
        ), lambda extra: T.team_from_dict(team | {extra: 1}, "probe")),
        FileKind("[[models]] (each model row of a team file)", "", (
            Field("unit", "string", "a catalogue unit (`shamble units`)", "required", "the model's datasheet"),
            Field("count", "integer", "1-50", "1", "how many of this model"),
            Field("leader", "string", "the unit's leader", '""', "make this model the unit's leader"),
            Field("options", "list of strings", "the datasheet's wargear options", "[]", "wargear bought"),
            Field("swap", "string", f"a weapon of the team (at most {T.MAX_SWAPS} swaps a team, zombie40k §2)", '""',
                  "swap weapons with another model"),
        ), lambda extra: T.team_from_dict(team | {"models": [dict(team["models"][0]) | {extra: 1}]}, "probe")),
    ]


# ---------------------------------------------------------------------------- Zombies!!!


def _zombies9() -> list[FileKind]:
    from sim.rulesets.zombies9 import config as C

    rs = get("zombies9")
    policy = default_policy("zombies9", {"players": [{"name": "A"}, {"name": "B"}]})
    return [
        FileKind("Game config file", "`shamble play examples/zombies9/four_players_base.toml`: the players and the "
                 "rules.", (
            *_heading("zombies9"),
            Field("players", "integer or list of [[players]] tables", "2-6", "4",
                  f"a count (named {_words(C.DEFAULT_NAMES)}) or the players in seat order"),
            Field("mods", "list of strings", _words(C.MODS), "[]", "optional rules of the books (`shamble mods "
                  "--ruleset zombies9`)"),
            Field("params", "table", "any parameter below; `policy_<field>` sets a policy field of every player",
                  "{}", "rule numbers and data files (`shamble params --ruleset zombies9`)"),
        ), lambda extra: rs.config_from_dict({"players": 2, extra: 1}, "probe", None)),
        FileKind("[[players]] (the player table)", "", (
            Field("name", "string", "non-empty", "Ann, Ben, ... by seat", "the player's name"),
            Field("policy", "string or table", f"{_words(rs.policy_presets())}, or a table of policy fields", policy,
                  "how the player plays (`shamble policies --ruleset zombies9`)"),
        ), lambda extra: rs.config_from_dict({"players": [{"name": "A", extra: 1}, {"name": "B"}]}, "probe", None)),
    ]


# ---------------------------------------------------------------------------- Zombie Apocalypse


def _apocalypse() -> list[FileKind]:
    from sim.rulesets.apocalypse import armies as A
    from sim.rulesets.apocalypse import config as C

    rs = get("apocalypse")
    army = _toml(EXAMPLES / "apocalypse" / "armies" / "ultramarines.toml")
    base = EXAMPLES / "apocalypse" / "configs"
    game = {"players": [{"army": "../armies/ultramarines.toml"}]}
    policy = default_policy("apocalypse", game, base)
    return [
        FileKind("Game config file", "`shamble play examples/apocalypse/configs/four_players.toml`.", (
            *_heading("apocalypse"),
            Field("players", "list of [[players]] tables", "1-4 (1-8 with corner_sharing)", "required",
                  "the players, one corner each (§3)"),
            Field("params", "table", "any parameter below", "{}", "rule numbers (`shamble params --ruleset "
                  "apocalypse`); points_limit refits every army (fit_armies)"),
        ), lambda extra: rs.config_from_dict(game | {extra: 1}, "probe", base)),
        FileKind("[[players]] (each player of a game config)", "", (
            Field("name", "string", "non-empty", "the army's name", "the player's name"),
            Field("army", "string or table", "an army file path (relative to the config) or an inline army table",
                  "required", "the player's detachment (see the army file)"),
            Field("trait", "string", f"auto, {_words(C.TRAITS)}", "auto", "the Warlord trait (auto: P8's choice)"),
            Field("policy", "string or table", f"{_words(rs.policy_presets())}, or a table of policy fields", policy,
                  "how the player plays (`shamble policies --ruleset apocalypse`)"),
        ), lambda extra: rs.config_from_dict({"players": [game["players"][0] | {extra: 1}]}, "probe", base)),
        FileKind("Army file", "`examples/apocalypse/armies/ultramarines.toml`: one detachment (§2).", (
            Field("name", "string", "non-empty", "the file's stem", "the army's name"),
            Field("faction", "string", "a faction of the catalogue", "required", "the army's faction"),
            Field("description", "string", "any", "-", "free text"),
            Field("units", "list of [[units]] tables", "1 or more", "required", "the units"),
        ), lambda extra: A.army_from_dict(army | {extra: 1}, "probe")),
        FileKind("[[units]] (each unit of an army file)", "", (
            Field("unit", "string", "a datasheet with a Force Organisation slot (no vehicles, §2)", "required",
                  "the unit"),
            Field("models", "integer", "1-100 (0 = the minimum size)", "0", "models in the unit"),
            Field("leader", "string", "the unit's leader upgrade", '""', "the leader model"),
            Field("leader_options", "list of strings", "the leader's wargear options", "[]", "the leader's wargear"),
            Field("swaps", "table", "weapon = replacement of the datasheet's options", "{}", "weapons swapped"),
        ), lambda extra: A.army_from_dict(army | {"units": [dict(army["units"][0]) | {extra: 1}]}, "probe")),
    ]


# ---------------------------------------------------------------------------- Zombies Out West


def _outwest() -> list[FileKind]:
    from sim.rulesets.outwest import config as C
    from sim.rulesets.outwest import data as D

    rs = get("outwest")
    weapons, kits = D.weapons(), D.posse().kits
    policy = default_policy("outwest", {})
    size = len(C.default_posse())
    return [
        FileKind("Game config file", "`shamble play examples/outwest/hold.toml`: the posse, the zombies and the "
                 "scenario. Any parameter may also be written at the top level.", (
            *_heading("outwest"),
            Field("scenario", "string", _words(C.SCENARIOS), "hold", "the scenario (§12; also a parameter)"),
            Field("groups", "list of integers", f"1-{C.MAX_GROUPS} group sizes, each 3-6", "[5, 5, 5, 5]",
                  "zombie groups, one per table edge in turn"),
            Field("town", "string", "default, open or a town file (relative to the config)", "default",
                  "the buildings and fences"),
            Field("mods", "list of strings", _words(C.MODS), "[]", "the advanced rules (§7.4, §8, §11)"),
            Field("posse", "string or integer", f"default; class letters (1-{C.MAX_HUMANS} of L S G C, each with "
                  f"its class kit); or a size n (the first n of {C.SIZE_ORDER}, repeating)", "default",
                  f"the posse (the default: {size} men, L S G G C). Not with [[players]]. The experiment axes "
                  "`posse_size` and `class_mix` replace it (and [[players]]) in every cell, keeping the first "
                  "character's policy; `posse_size` caps escape_needed at the posse's size"),
            Field("policy", "string or table", f"{_words(rs.policy_presets())}, or a table of policy fields", policy,
                  "every character's policy unless his row names one (`shamble policies --ruleset outwest`)"),
            Field("players", "list of [[players]] tables", f"1-{C.MAX_HUMANS} characters, distinct names",
                  "the posse above", "the characters, instead of posse = ..."),
            Field("params", "table", "any parameter below", "{}", "rule numbers (`shamble params --ruleset "
                  "outwest`)"),
        ), lambda extra: rs.config_from_dict({extra: 1}, "probe", None)),
        FileKind("[[players]] (each character)", "", (
            Field("name", "string", "non-empty, distinct", "the class, titled", "the character's name"),
            Field("class", "string", _words(C.CLASSES), "gunman", "his class (§2.1)"),
            Field("guns", "list of strings", f"at most two of {_words(weapons.guns)}", _kit(kits, "guns"),
                  "his guns (§2.2)"),
            Field("melee", "string", _words(weapons.melee), _kit(kits, "melee"), "his hand weapon (§2.2)"),
            Field("horse", "boolean", "true, false", "false", "mounted"),
            Field("policy", "string or table", "as the config's policy", "the config's policy", "his own policy"),
        ), lambda extra: rs.config_from_dict({"players": [{"name": "A", extra: 1}]}, "probe", None)),
    ]


def _kit(kits: dict, item: str) -> str:
    """'the class kit (legend: pistol + pistol; ...)'."""
    def shown(value) -> str:
        return " + ".join(value) if isinstance(value, list | tuple) else str(value)
    return "the class kit (" + "; ".join(f"{cls}: {shown(kit[item])}" for cls, kit in kits.items() if item in kit) + ")"


FILES: dict[str, Callable[[], list[FileKind]]] = {"zombie40k": _zombie40k, "zombies9": _zombies9,
                                                  "apocalypse": _apocalypse, "outwest": _outwest}


# ---------------------------------------------------------------------------- generated tables


def policy_fields(ruleset_id: str, preset: str) -> list[Field]:
    """The fields of a policy table: type, the default preset's value and the ruleset's help."""
    rs = get(ruleset_id)
    policy, help_ = rs.policy_presets()[preset], rs.policy_help()
    return [Field(f.name, type(getattr(policy, f.name)).__name__, "", default_text(plain(getattr(policy, f.name))),
                  help_.get(f.name, "")) for f in fields(policy)]


def parameter_field(p: Parameter) -> Field:
    """A parameter as a row of the reference: its range or choices, its default as `shamble params`
    shows it, its spec reference and meaning."""
    if p.choices:
        allowed = _words(p.choices)
    elif p.range is not None:
        allowed = f"{plain(p.range[0])}-{plain(p.range[1])}"
    else:
        allowed = "true, false" if isinstance(p.default, bool) else "-"
    special = "; ".join(f"{plain(k)}: {v}" for k, v in p.meaning.items())
    meaning = f"{p.help} ({p.spec}, {p.tag})" + (f"; {special}" if special else "")
    return Field(p.name, type(p.default).__name__, allowed, value_word(p, p.default), meaning)


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


TYPES = {"str": "string", "int": "integer", "float": "number", "bool": "boolean", "frozenset": "list of strings",
         "tuple": "list", "Fraction": "number"}


def markdown(rows: list[Field]) -> str:
    """A table of fields (without the allowed column when no row fills it)."""
    allowed = any(r.allowed for r in rows)
    columns = ("field", "type", *(("allowed",) if allowed else ()), "default", "meaning")
    head = "| " + " | ".join(columns) + " |\n|" + "---|" * len(columns) + "\n"
    return head + "\n".join("| " + " | ".join(_cell(v) for v in (
        f"`{r.name}`", TYPES.get(r.type, r.type), *((r.allowed,) if allowed else ()), r.default, r.meaning)) + " |"
        for r in rows) + "\n"


def _span(bounds) -> str:
    return f", solvable over {plain(bounds[0])}-{plain(bounds[1])}" if bounds else ""


def write(path: Path = DOC) -> Path:
    """Write the whole reference (docs/config-reference.md by default)."""
    path.write_text(render_all())
    return path


def render(ruleset_id: str) -> str:
    """One ruleset's reference (markdown)."""
    rs = get(ruleset_id, "--ruleset")
    kinds = FILES[rs.id]()
    preset = next(f.default for k in kinds for f in k.fields if f.name == "policy" and f.default in
                  rs.policy_presets())
    out = [f"## {rs.title} (`{rs.id}`)\n"]
    for kind in kinds:
        out += [f"### {kind.title}\n", *([f"{kind.intro}\n"] if kind.intro else []), markdown(list(kind.fields))]
    out += ["### Policy table fields\n", f"A policy given as a table starts from `preset` (default `{preset}`) and "
            f"changes the fields it names; the presets: {_words(rs.policy_presets())}. Defaults below are "
            f"`{preset}`'s.\n", markdown(policy_fields(rs.id, preset))]
    axes = rs.axes()
    out += ["### Experiment axes (`[axes]` of an experiment file)\n", "Beside every parameter, `mods` and `params`, an "
            f"experiment file's `[axes]` takes these {rs.title} axes (`shamble sweep`); an axis replaces what it "
            "names in every cell of the sweep.\n",
            markdown([Field(a.name, "per player" if a.per_player else "one value a cell",
                            "" if not a.numeric else f"numeric{_span(a.default_range)}", "-", a.help)
                      for a in axes.values()])]
    params = rs.parameters()
    out += ["### Parameters (`[params]`)\n", f"{len(params)} parameters, as `shamble params --ruleset {rs.id}` "
            "lists them (the spec's section and tag in brackets).\n", markdown([parameter_field(p) for p in params])]
    return "\n".join(out)


def render_all() -> str:
    """docs/config-reference.md: every ruleset's reference."""
    head = ("# Config reference\n\nGenerated by `shamble config-ref --write` from the config classes and loaders "
            "(`experiments/config_ref.py`); do not edit by hand: `tests/test_config_ref.py` fails when this page "
            "and the code disagree. One ruleset: `shamble config-ref --ruleset ID`.\n")
    return "\n".join([head, *(render(rs.id) for rs in all_rulesets())])
