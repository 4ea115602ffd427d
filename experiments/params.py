"""What `shamble params` and `shamble policies` show: a ruleset's parameters (``Parameter``
records) and its policy presets, as JSON-able rows and rich tables."""

from __future__ import annotations

import json
from dataclasses import asdict, fields

from rich.console import Console
from rich.table import Table

from sim.ruleset import TAGS, Parameter, Ruleset, default_text, plain, tag_text


def param_row(p: Parameter) -> dict:
    return {"name": p.name, "default": plain(p.default), "tag": tag_text(p.tag), "spec": p.spec, "help": p.help,
            "choices": list(p.choices), "range": list(p.range) if p.range else None,
            "plausible": plain(p.plausible) if p.plausible else None,
            "meaning": {str(k): v for k, v in p.meaning.items()}, "needs": {k: list(v) for k, v in p.enable.items()}}


def param_rows(rs: Ruleset) -> list[dict]:
    """One row per parameter of ``rs``: name, default, tag, spec section, help, choices, range."""
    return [param_row(p) for p in rs.parameters()]


def params_json(rs: Ruleset) -> str:
    return json.dumps(param_rows(rs), indent=2, ensure_ascii=False)


def _help_text(row: dict) -> str:
    parts = [row["help"]]
    if row["meaning"]:
        parts.append("; ".join(f"{k} = {v}" for k, v in row["meaning"].items()))
    if row["choices"]:
        parts.append("choices: " + ", ".join(row["choices"]))
    if row["needs"]:
        parts.append("only with " + ", ".join(f"{k} {'+'.join(v)}" if all(isinstance(x, str) for x in v)
                                              else f"{k} > 0" for k, v in row["needs"].items()))
    return "; ".join(t for t in parts if t)


def render_params(rs: Ruleset, console: Console) -> None:
    table = Table(title=f"{rs.title} parameters (set them under \\[params] in a config)", title_justify="left")
    table.add_column("name", no_wrap=True)
    for column in ("default", "tag", "spec", "help"):
        table.add_column(column)
    for row in param_rows(rs):
        table.add_row(row["name"], default_text(row["default"]), row["tag"], row["spec"], _help_text(row))
    console.print(table, markup=False)
    console.print(tag_legend(rs), markup=False)


def tag_legend(rs: Ruleset) -> str:
    """What each tag of the table means, tags of the same kind together ('A2, A14: an
    ambiguity...'), in the order V, I, C, then the rest."""
    words: dict[str, list[str]] = {}
    for tag in sorted({p.tag for p in rs.parameters()}, key=_tag_order):
        words.setdefault(TAGS.get(tag) or _tag_word(tag), []).append(tag_text(tag))
    return "tags:\n" + "\n".join(f"  {', '.join(tags)}: {word}" for word, tags in words.items())


def _tag_order(tag: str) -> tuple:
    known = list(TAGS)
    if tag in known:
        return (0, known.index(tag), 0)
    number = tag[1:]
    return (1, tag[:1], int(number)) if tag[:1].isalpha() and number.isdigit() else (2, tag, 0)


def _tag_word(tag: str) -> str:
    if tag[:1].isalpha() and tag[1:].isdigit():
        return "an ambiguity the spec lists (by its number), read as the spec's default; the other reading is a choice"
    return {"mods": "set by a mod (or by hand)", "policy": "player behaviour", "data": "data files",
            "ablation": "for ablation studies: switch a rule off to measure it", "scenario": "the scenario played",
            "option": "an optional rule of the game", "mode": "which game is played",
            "sim": "a simulator setting, not a rule"}.get(tag, "")


# ---------------------------------------------------------------------------- mods


def mod_rows(rs: Ruleset) -> list[dict]:
    """One row per mod of ``rs``: its name, what it is, and the parameters that matter only with it."""
    params = rs.parameters()
    return [{"mod": name, "title": title,
             "params": {p.name: plain(p.default) for p in params if name in p.enable.get("mods", ())}}
            for name, title in rs.mods().items()]


def mods_json(rs: Ruleset) -> str:
    return json.dumps(mod_rows(rs), indent=2, ensure_ascii=False)


def render_mods(rs: Ruleset, console: Console) -> None:
    """The mods a config's `mods = [...]` (or `--mod NAME`) may switch on; a line when there are none."""
    rows = mod_rows(rs)
    if not rows:
        console.print(f"{rs.title} has no mods (`{rs.id}` plays its rules as the spec gives them; see "
                      f"`shamble params --ruleset {rs.id}` for the numbers a config may set)", markup=False)
        return
    table = Table(title=f"{rs.title} mods: select with --mod NAME or mods = [...] in a config", title_justify="left")
    table.add_column("mod", no_wrap=True)
    table.add_column("what it does")
    table.add_column("its parameters (default)")
    for row in rows:
        table.add_row(row["mod"], row["title"],
                      "\n".join(f"{k} = {default_text(v)}" for k, v in row["params"].items()) or "-")
    console.print(table, markup=False)


# ---------------------------------------------------------------------------- policies


def policy_rows(rs: Ruleset) -> list[dict]:
    """One row per policy preset of ``rs``: its name and every policy field."""
    return [{"preset": name, **asdict(policy)} for name, policy in rs.policy_presets().items()]


def policies_json(rs: Ruleset) -> str:
    return json.dumps(policy_rows(rs), indent=2, ensure_ascii=False)


def render_policies(rs: Ruleset, console: Console) -> None:
    """One column per preset, one row per policy field with what it means."""
    presets = rs.policy_presets()
    table = Table(title=f"{rs.title} policy presets (a player's `policy`: a preset, or a table of fields that may "
                  "start from one with `preset`)", title_justify="left")
    table.add_column("field", no_wrap=True)
    for name in presets:
        table.add_column(name, justify="right")
    table.add_column("meaning")
    help_ = rs.policy_help()
    first = next(iter(presets.values()))
    for f in fields(first):
        table.add_row(f.name, *(str(getattr(p, f.name)) for p in presets.values()), help_.get(f.name, ""))
    console.print(table)
