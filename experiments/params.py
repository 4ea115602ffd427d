"""What `shamble params` and `shamble policies` show: a ruleset's parameters (``Parameter``
records) and its policy presets, as JSON-able rows and rich tables."""

from __future__ import annotations

import json
from dataclasses import asdict, fields

from rich.console import Console
from rich.table import Table

from sim.ruleset import TAGS, Parameter, Ruleset, default_text, plain, tag_text, value_word


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


def range_text(p: Parameter) -> str:
    """The values a config may give: 'lo-hi' for a number (and the pair `sensitivity` plays), the
    words for a choice, '-' for a table or a list."""
    if p.range is not None:
        lo, hi = (f"{v:g}" if isinstance(v, float) else str(v) for v in p.range)
        shown = f"{lo} - {hi}"
        if p.plausible is not None and all(isinstance(v, int | float) for v in p.plausible):
            shown += " (plays " + " - ".join(f"{v:g}" if isinstance(v, float) else str(v) for v in p.plausible) + ")"
        return shown
    if p.choices:
        return "one of " + ", ".join(map(str, p.choices))
    return "-"


def _help_text(row: dict) -> str:
    parts = [row["help"]]
    if row["meaning"]:
        parts.append("; ".join(f"{k} = {v}" for k, v in row["meaning"].items()))
    if row["needs"]:
        parts.append("only with " + ", ".join(f"{k} {'+'.join(v)}" if all(isinstance(x, str) for x in v)
                                              else f"{k} > 0" for k, v in row["needs"].items()))
    return "; ".join(t for t in parts if t)


def chosen(rs: Ruleset, find: str | None = None, tag: str | None = None) -> list[Parameter]:
    """The parameters whose name, spec section or help holds ``find`` (any case) and whose tag is
    ``tag`` ('C' or '[C]', 'A12', 'mods'...)."""
    word = (find or "").lower()
    tag = tag.strip("[]") if tag else None
    return [p for p in rs.parameters() if (tag is None or p.tag == tag)
            and (not word or word in p.name.lower() or word in p.help.lower() or word == p.spec.lower())]


def render_params(rs: Ruleset, console: Console, find: str | None = None, tag: str | None = None) -> None:
    """The table of ``chosen`` parameters (all by default): name, default, range, tag, spec, help."""
    shown = chosen(rs, find, tag)
    narrowed = " whose " + " and ".join(t for t in (f"text holds {find!r}" if find else "",
                                                    f"tag is {tag}" if tag else "") if t) if find or tag else ""
    title = f"{rs.title}: {len(shown)} parameters{narrowed} (set them under [params] in a config)"
    if console.width < WIDE:
        _render_lines(shown, console, title)
    else:
        table = Table(title=title.replace("[params]", "\\[params]"), title_justify="left")
        table.add_column("name", no_wrap=True)
        for column in ("default", "range", "tag", "spec", "help"):
            table.add_column(column, overflow="fold")
        for p in shown:
            row = param_row(p)
            table.add_row(p.name, _default_cell(p), range_text(p), row["tag"], row["spec"], _help_text(row))
        console.print(table, markup=False)
    console.print(tag_legend(rs), markup=False)
    if not find and not tag:
        console.print(f"narrow the list: `shamble params --ruleset {rs.id} --find WORD` (a word of the name or "
                      "help) or `--tag C` (the numbers Shamble chose)", markup=False)


WIDE = 110  # narrower terminals (80 columns, a pipe) get two lines a parameter, not a table of broken words


def _default_cell(p: Parameter) -> str:
    text = value_word(p, p.default)
    return text if len(text) <= 40 else "a table (see --json)"


def _render_lines(shown: list[Parameter], console: Console, title: str) -> None:
    """A parameter per paragraph: `name = default  range  tag  spec`, then its help, indented."""
    import textwrap

    console.print(title, markup=False, soft_wrap=True)
    for p in shown:
        row = param_row(p)
        head = f"{p.name} = {_default_cell(p)}   range {range_text(p)}   {row['tag']} {row['spec']}"
        body = textwrap.fill(_help_text(row), width=max(40, console.width - 4), initial_indent="    ",
                             subsequent_indent="    ")
        console.print(head + "\n" + body, markup=False, soft_wrap=True)


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
    first = next(iter(presets.values()))
    if console.width < 20 + sum(min(len(name), 16) + 3 for name in presets) + 30:
        _policies_as_lines(rs, presets, console)  # too narrow for a column a preset: its name is never cut
        return
    table = Table(title=f"{rs.title} policy presets (a player's `policy`: a preset, or a table of fields that may "
                  "start from one with `preset`)", title_justify="left")
    table.add_column("field", no_wrap=True)
    for name in presets:  # a preset's name is typed into configs: never cut, at most folded
        table.add_column(name, justify="right", overflow="fold", min_width=min(len(name), 16))
    table.add_column("meaning")
    help_ = rs.policy_help()
    for f in fields(first):
        table.add_row(f.name, *(str(getattr(p, f.name)) for p in presets.values()), help_.get(f.name, ""))
    console.print(table)


def _policies_as_lines(rs: Ruleset, presets: dict, console: Console) -> None:
    """Each preset on its own paragraph (name, then its fields), then what each field means."""
    import textwrap

    console.print(f"{rs.title} policy presets (a player's `policy`: a preset, or a table of fields that may start "
                  "from one with `preset`)", markup=False, soft_wrap=True)
    width = max(40, console.width - 4)
    for name, policy in presets.items():
        values = ", ".join(f"{f.name}={getattr(policy, f.name)}" for f in fields(policy))
        console.print(name + "\n" + textwrap.fill(values, width, initial_indent="    ", subsequent_indent="    "),
                      markup=False, soft_wrap=True)
    console.print("fields:", markup=False)
    for field_name, meaning in rs.policy_help().items():
        console.print(textwrap.fill(f"{field_name}: {meaning}", width, initial_indent="  ", subsequent_indent="    "),
                      markup=False, soft_wrap=True)
