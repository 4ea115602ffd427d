"""`shamble config-ref`: what every config file of a ruleset accepts (issue 29, item 19).

Generated, never written by hand, so that it cannot drift from the code:

- each file's fields (a game config, a player table, an army or team file and its rows) come from
  each ruleset's ``config_files()`` (``sim/rulesets/<id>/config_files.py``), and
  ``tests/test_config_ref.py`` checks that they are exactly the fields the loader accepts (it feeds
  the loader an unknown field and reads its "allowed: ..." list);
- allowed words (classes, traits, presets, mods, factions) are read from the rulesets' own
  constants, and the default policy by loading a config that names none;
- the policy fields come from the ruleset's policy class (the default preset's values and
  ``policy_help``), the parameters from ``Ruleset.parameters()`` (as ``shamble params`` lists them).

``docs/config-reference.md`` is `render_all()`; the test checks that the committed page equals it.
"""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

from sim.config_files import Field, FileKind, words
from sim.ruleset import Parameter, all_rulesets, default_text, get, plain, value_word

DOC = Path(__file__).resolve().parents[1] / "docs" / "config-reference.md"


def files_of(ruleset_id: str) -> list[FileKind]:
    """A ruleset's config files (``Ruleset.config_files``; none for a ruleset without it)."""
    found = getattr(get(ruleset_id), "config_files", None)
    return list(found()) if found else []


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
        allowed = words(p.choices)
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
    kinds = files_of(rs.id)
    preset = next(f.default for k in kinds for f in k.fields if f.name == "policy" and f.default in
                  rs.policy_presets())
    out = [f"## {rs.title} (`{rs.id}`)\n"]
    for kind in kinds:
        out += [f"### {kind.title}\n", *([f"{kind.intro}\n"] if kind.intro else []), markdown(list(kind.fields))]
    out += ["### Policy table fields\n", f"A policy given as a table starts from `preset` (default `{preset}`) and "
            f"changes the fields it names; the presets: {words(rs.policy_presets())}. Defaults below are "
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
