"""A rebalance written and shown: its tables, its files (`experiments.rebalance`'s output folder), its
JSON, its chart and its words on the console.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict
from fractions import Fraction

import numpy as np
import pandas as pd
from rich.console import Console

from experiments import charts
from experiments.rebalance_evaluations import Standing
from experiments.rebalance_patch import percent, write_patch
from experiments.rebalance_search import ALPHA, GAIN, MAX_STEP, STABILITY, Search
from experiments.rebalance_validation import Rebalance
from experiments.sweep import _versions, write_json, write_table

# ---------------------------------------------------------------------------- tables and files


def _fraction_text(value: Fraction) -> str:
    return str(value) if value.denominator == 1 else f"{float(value):g} ({value})"


def changes_table(done: Rebalance) -> pd.DataFrame:
    """One row per changed price: key, what it is, old, new, change, the sides it prices."""
    rows = [{"price": p.key, "what": p.what, "old": str(p.value), "new": str(new),
             "old_value": float(p.value), "new_value": float(new), "change": percent(p.value, new),
             "sides": ", ".join(p.sides)} for p, new in done.changes]
    return pd.DataFrame(rows, columns=["price", "what", "old", "new", "old_value", "new_value", "change", "sides"])


def before_after(done: Rebalance) -> pd.DataFrame:
    """Per side, on the validation's games: what it fields, its rate with the 95% interval, its
    deviation from the mean and whether it is within the margin, before and after."""
    v, game = done.validation, done.game
    cells = {k: c for k, c in enumerate(game.cells)}
    fields = {}
    for name, values in (("before", game.start), ("after", done.search.proposal)):
        fields[name] = {}
        for cell in cells.values():
            config = game.priced(cell, values)
            for side in v.before.table.index:
                if side not in fields[name]:
                    text = game.pricing.describe(config, game.mode, side)
                    if text is not None:
                        fields[name][side] = text
    out = pd.DataFrame(index=v.before.table.index)
    for name, st in (("before", v.before), ("after", v.after)):
        t = st.table
        out[f"fields_{name}"] = [fields[name].get(s, "") for s in out.index]
        out[f"rate_{name}"] = t.rate
        out[f"ci_low_{name}"], out[f"ci_high_{name}"] = t.low95, t.high95
        out[f"deviation_{name}"] = t.deviation
        out[f"within_{name}"] = _verdict(t)
    out.insert(0, "games", v.after.table.games)
    return out.reset_index().sort_values("rate_before", ascending=False, ignore_index=True)


def _verdict(table: pd.DataFrame) -> list[str]:
    return np.where(table.equivalent, "yes", np.where(table.outside, "no", "not shown")).tolist()


def search_frames(found: Search) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(per candidate and side: rate, deviation, within; per candidate and price: value)."""
    sides, values = [], []
    for k, st in enumerate(found.history):
        t = st.table.reset_index()
        t["fields"] = [st.fields.get(side, "") for side in t.side]
        sides.append(t.assign(candidate=k, mean=st.mean, games_played=st.played)[
            ["candidate", "side", "fields", "games", "wins", "rate", "deviation", "low90", "high90", "equivalent",
             "mean", "games_played"]])
        values += [{"candidate": k, "price": key, "value": str(v), "value_float": float(v)}
                   for key, v in st.values.items()]
    return pd.concat(sides, ignore_index=True), pd.DataFrame(values)


def tried(found: Search, side: str) -> pd.DataFrame:
    """What the search tried for one side: per thing it fielded (``fields``), the candidates that
    fielded it and the deviation nearest the mean among them, on the search's games."""
    sides, _ = search_frames(found)
    rows = sides[sides.side == side].assign(distance=lambda t: t.deviation.abs())
    best = rows.loc[rows.groupby("fields", sort=False).distance.idxmin()]
    counts = rows.groupby("fields", sort=False).size()
    return pd.DataFrame({"fields": best.fields.to_numpy(), "candidates": counts[best.fields].to_numpy(),
                         "deviation": best.deviation.to_numpy(), "within": best.equivalent.to_numpy()})


def diagnosis(done: Rebalance) -> list[str]:
    """For each side not shown within the margin after: what the search tried for it (one line)."""
    lines = []
    for side in done.validation.after.outside:
        table = tried(done.search, side)
        if table.fields.eq("").all():
            continue
        shown = "; ".join(f"{r.fields}: {r.deviation * 100:+.1f}{' (within)' if r.within else ''}"
                          for r in table.itertuples())
        never = "" if table.within.any() else " (never within the margin on the search's games)"
        lines.append(f"{side}: {shown}{never}")
    return lines


def summary(done: Rebalance) -> dict:
    """The JSON of a rebalance (``--json``, summary.json)."""
    v, s = done.validation, done.search

    def spread(st: Standing) -> dict:
        return {"mean": st.mean, "lowest": float(st.table.rate.min()), "highest": float(st.table.rate.max()),
                "largest_deviation": st.worst, "outside": st.outside}

    return {
        "ruleset": done.game.ruleset.id, "config": done.source, "game": done.game.title, "mode": done.game.mode,
        "rate": done.game.pricing.rate,
        "margin": done.settings.margin, "passed": v.passed, "status": "passed" if v.passed else "FAILED",
        "changes": changes_table(done).drop(columns=["old_value", "new_value"]).to_dict("records"),
        "stop": s.stop, "candidates": len(s.history), "best_candidate": s.best, "polished": s.polished,
        "reverted": s.reverted, "search_games": s.search_games, "polish_games": s.polish_games,
        "revert_games": s.revert_games, "games": s.games + v.games,
        "validation": {"seed": v.seed, "games_per_cell": v.games_per_cell, "games": v.games,
                       "before": spread(v.before), "after": spread(v.after)},
        "sides": json.loads(before_after(done).to_json(orient="records")),
        "tried": diagnosis(done),
        "settings": {k: v for k, v in asdict(done.settings).items()} | {"validate_seed": v.seed,
                                                                       "validate_games": v.games_per_cell},
        "gain": {"gain": GAIN, "stability": STABILITY, "alpha": ALPHA, "max_step": MAX_STEP},
        "seconds": round(done.seconds, 1),
    }


def search_chart(done: Rebalance):
    sides, _ = search_frames(done.search)
    word = done.game.word
    return charts.search_path(sides, f"{word.capitalize()} rate of each side over the search", done.settings.margin,
                              f"{word} rate")


def write_outputs(done: Rebalance) -> None:
    """Every file of the output folder (`experiments.rebalance`), rewritten with the validation's verdict."""
    out = done.out
    write_patch(out / "proposal.toml", done.game, done.search.proposal, done.settings, done.passed, done.source)
    write_table(before_after(done), out / "before_after.csv")
    write_table(done.validation.matchups_before, out / "matchups_before.csv")
    write_table(done.validation.matchups_after, out / "matchups_after.csv")
    sides, values = search_frames(done.search)
    write_table(sides, out / "search.csv")
    write_table(values, out / "search_prices.csv")
    charts.save(search_chart(done), out / "search")
    info = summary(done)
    write_json(info, out / "summary.json")
    write_json({"settings": info["settings"], "gain": info["gain"], "versions": _versions(),
                "seconds": info["seconds"], "finished": time.strftime("%Y-%m-%dT%H:%M:%S")}, out / "meta.json")


# ---------------------------------------------------------------------------- words


def verdict_line(done: Rebalance) -> str:
    """PASSED or FAILED, in one sentence."""
    v, m = done.validation, done.settings.margin * 100
    n = len(done.changes)
    what = f"{n} change{'s' * (n != 1)}" if n else "no change"
    games = f"{v.games_per_cell} games per cell, seed {v.seed}, games the search never saw"
    if v.passed:
        return (f"PASSED: with {what}, every side's {done.game.word} rate is shown within ±{m:g} points of "
                f"the mean ({v.after.mean:.1%}) on fresh games ({games}).")
    outside = ", ".join(v.after.outside)
    return (f"FAILED: with {what}, {len(v.after.outside)} side{'s' * (len(v.after.outside) != 1)} "
            f"({outside}) {'is' if len(v.after.outside) == 1 else 'are'} not shown within ±{m:g} points of the mean "
            f"({v.after.mean:.1%}) on fresh games ({games}); the proposal is not a fix.")


def render(done: Rebalance, console: Console) -> None:
    """The proposal, the before/after table and the verdict."""
    from rich.table import Table

    s, v = done.search, done.validation
    word = done.game.word
    console.print(f"{done.game.ruleset.title}, {done.game.title}: {len(done.game.cells)} cells, "
                  f"{len(done.game.prices)} prices ({done.game.mode}); margin ±{done.settings.margin * 100:g} points")
    stops = {"converged": "every side within the margin on the search's games",
             "budget": "the game budget was spent", "iterations": "the last iteration was reached"}
    console.print(f"search: {len(s.history)} candidates on {done.settings.games} games per cell (seed "
                  f"{done.settings.seed}), {s.search_games} games; stopped: {stops[s.stop]}; proposal from candidate "
                  f"{s.best}{', polished ' + ', '.join(s.polished) if s.polished else ''}"
                  f"{', reverted ' + ', '.join(s.reverted) if s.reverted else ''} ({s.polish_games} games of polish "
                  f"and {s.revert_games} of revert trials; {s.games + v.games} games in all with the validation)")
    changes = changes_table(done)
    table = Table(title="proposal" if len(changes) else "proposal: no change")
    for col in ("price", "what", "old", "new", "change", "sides"):
        table.add_column(col, justify="right" if col in ("old", "new", "change") else "left")
    for row in changes.to_dict("records"):
        table.add_row(row["price"], row["what"], _fraction_text(Fraction(row["old"])),
                      _fraction_text(Fraction(row["new"])), row["change"], row["sides"])
    if len(changes):
        console.print(table)
    ba = before_after(done)
    table = Table(title=f"validation: {v.games_per_cell} games per cell, seed {v.seed} (mean {word} rate before "
                        f"{v.before.mean:.1%}, after {v.after.mean:.1%})")
    for col in ("side", "fields before", "before", "95% CI", f"±{done.settings.margin * 100:g}", "fields after",
                "after", "95% CI ", f"±{done.settings.margin * 100:g} "):
        table.add_column(col, justify="left" if col.startswith(("side", "fields")) else "right")
    for r in ba.to_dict("records"):
        table.add_row(r["side"], r["fields_before"], f"{r['rate_before']:.1%}",
                      f"{r['ci_low_before'] * 100:.1f}-{r['ci_high_before'] * 100:.1f}", r["within_before"],
                      r["fields_after"], f"{r['rate_after']:.1%}",
                      f"{r['ci_low_after'] * 100:.1f}-{r['ci_high_after'] * 100:.1f}", r["within_after"])
    console.print(table)
    console.print(f"spread of {word} rates: before {v.before.table.rate.min():.1%} - {v.before.table.rate.max():.1%}, "
                  f"after {v.after.table.rate.min():.1%} - {v.after.table.rate.max():.1%}")
    console.print(verdict_line(done))
    lines = diagnosis(done)
    if lines:
        console.print("what the search tried for each side not shown within the margin (what it fields: its deviation "
                      "nearest the mean, in points, on the search's games):")
        for line in lines:
            console.print(f"  {line}")
    if done.out is not None:
        console.print(f"wrote {done.out / 'proposal.toml'}, before_after.csv, matchups_before.csv, matchups_after.csv, "
                      f"search.csv, search.png in {done.out} ({done.seconds:.0f} s)")
