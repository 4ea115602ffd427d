"""The report's section "Under stronger play" (experiments/strong_play.py, issue 28 item 3): on
Safecracker (tests/tune_toy_ruleset.py: its best policy is known, it has no ``random`` preset),
on Zombies!!! at a tiny size (the compiled game; it has a ``random`` preset), and its verdict
words on made-up outcomes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import tune_toy_ruleset as toy

from experiments import strong_play as sp
from experiments.findings import MARGIN
from sim import ruleset as registry
from sim.ruleset import get


@pytest.fixture
def safecracker():
    registry.register(toy.RULESET)
    yield toy.RULESET
    registry.unregister(toy.ID)


def _columns(frame: pd.DataFrame, word: str) -> None:
    for col in (f"random-legal {word} rate", f"default {word} rate", f"tuned {word} rate", "tuned - random (points)",
                "tuned - default (points)", "tune on fresh games"):
        assert col in frame.columns, (col, list(frame.columns))


def test_cooperative_toy_shows_three_rates_the_gap_and_no_random_baseline(safecracker, tmp_path):
    """One safecracker: the crew (the shared win) is the side. The default opens with p = 0.07 and
    the best policy with 0.8 (module docstring of the toy), so a search of 1,000 games finds a
    policy whose paired uplift on 400 fresh games lies far beyond ±3 points; the toy has no
    ``random`` preset, so the section says so instead of a rate."""
    section = sp.strong_play_section(safecracker, 1.0, tmp_path / "sp")
    rates, head = section.tables
    _columns(rates.frame, "open")
    row = rates.frame.iloc[0]
    assert row["side"] == "crew" and row["tune on fresh games"].startswith("PASSED: +")
    # a cooperative tune is validated on the very games the rates show: its uplift is the shown gap
    assert row["tune on fresh games"].split(": ")[1].split(" on ")[0] == row["tuned - default (points)"]
    assert row["tune on fresh games"].endswith(f"on {section.spec.games:,} games of seed {sp.SEED + 1}")
    assert "judged on these same games" in rates.sentence
    assert row["random-legal open rate"] == "no random-legal baseline" == row["tuned - random (points)"]
    assert "no random-legal baseline" in rates.sentence
    assert head.frame.iloc[0]["moves by more than ±3.0 points"] == "yes"
    assert "moves by more than ±3 points" in head.sentence and "does not survive" in head.sentence
    (again,) = section.findings  # a cooperative game's one verdict re-judged: winnable, against the 30-70% band
    assert again.kind == "winnable" and "too hard under default play" in again.sentence
    assert again.sentence in head.sentence
    assert (tmp_path / "sp" / "tune" / "candidates.parquet").exists()  # the tune is checkpointed: a rerun resumes


def test_a_random_preset_gives_the_random_rate_and_the_paired_skill_gap(safecracker, monkeypatch):
    """With a ``random`` preset (aim 0, careful, grip 1: p = 0.01), the random-legal rate and the
    tuned - random gap are shown, paired on the same fresh games."""
    monkeypatch.setitem(toy.PRESETS, "random", toy.Policy(aim=0, stance="careful", grip=1.0))
    section = sp.strong_play_section(safecracker, 0.5, None)
    row = section.tables[0].frame.iloc[0]
    assert row["random-legal open rate"].endswith(")") and "%" in row["random-legal open rate"]
    gap = float(row["tuned - random (points)"].split(" ")[0])
    assert gap > 0  # the tuned policy opens every safe the random one opens (common uniforms), and more
    assert "Skill gap, tuned over random-legal play: crew +" in section.tables[0].sentence


def test_only_the_ruleset_fields_are_searched(safecracker, monkeypatch):
    monkeypatch.setitem(sp.FIELDS, toy.ID, ("aim", "no_such_field"))  # a field the policy lacks is dropped
    section = sp.strong_play_section(safecracker, 0.2, None)
    assert " per candidate; fields aim)" in section.tables[0].sentence
    changed = section.tables[0].frame.iloc[0]["fields changed"]
    assert "stance" not in changed and "grip" not in changed


@pytest.mark.slow
def test_zombies9_competitive_section_at_a_tiny_size(tmp_path):
    """Zombies!!! at the smallest sizes: every player a side with his three rates (it has the
    random preset), and the seats re-judged after one round of best responses."""
    section = sp.strong_play_section(get("zombies9"), 0.01, tmp_path / "z9")
    rates, fair = section.tables
    _columns(rates.frame, "win")
    assert list(rates.frame.side) == [p.name for p in get("zombies9").example_config().players]
    assert all("%" in v for v in rates.frame["random-legal win rate"])
    verdicts = rates.frame["tune on fresh games"]
    assert {v.split(":")[0] for v in verdicts} <= {"PASSED", "NOT BETTER"}
    # each tune is judged on a validation seed of its own, never the standings' games the rates show
    seeds = {int(v.rsplit("seed ", 1)[1]) for v in verdicts}
    assert len(seeds) == len(verdicts) and sp.SEED + 1 not in seeds
    assert "its own validation games" in rates.sentence
    assert list(fair.frame.judged) == ["seats"] and set(fair.frame["tuned play"]) <= {"fair", "not fair", "not shown"}
    assert [f.what for f in section.findings] == ["seats under tuned play"]
    assert (tmp_path / "z9" / "rounds" / "rounds.json").exists()


# ---------------------------------------------------------------------------- the words, on made-up outcomes


def _strong(default, tuned, kind="cooperative", standings=None, players=1) -> sp.Strong:
    from types import SimpleNamespace

    config = SimpleNamespace(players=tuple(SimpleNamespace(name=f"P{k + 1}") for k in range(players)))
    row = sp.SideRates("posse", np.asarray(default, bool), np.asarray(tuned, bool), None, "PASSED")
    return sp.Strong(None, config, kind, sp.Sizes(100, 10, len(default)), None, [row], standings)


def test_headline_moves_stays_or_is_not_shown_against_the_margin():
    n = 4000
    same = np.zeros(n, bool)
    same[: n // 2] = True
    up = same.copy()
    up[n // 2: n // 2 + n // 5] = True  # +20 points, paired: only ups
    assert "moves by more than ±3 points" in sp.headline(_strong(same, up), MARGIN, "win")
    assert "stays within ±3 points" in sp.headline(_strong(same, same), MARGIN, "win")
    few = np.zeros(50, bool)
    few_up = few.copy()
    few_up[:2] = True  # +4 points on 50 games: the interval reaches both sides of 3 points
    assert "is not shown to move" in sp.headline(_strong(few, few_up), MARGIN, "win")


def test_fairness_is_rejudged_on_the_tuned_standings():
    """Round 0: every seat at 25% on 4,000 games (fair within ±3 points); round 1: seat 1 at 45%
    (outside): the verdict changes and the table says so."""
    games = 4000
    table = pd.DataFrame({"round": [0] * 4 + [1] * 4, "player": ["A", "B", "C", "D"] * 2,
                          "rate": [0.25] * 4 + [0.45, 0.2, 0.2, 0.15]})
    strong = _strong(np.zeros(games), np.zeros(games), "competitive", table, players=4)
    frame, findings = sp.fairness(strong, MARGIN, "win")
    row = frame.iloc[0]
    assert (row["judged"], row["default play"], row["tuned play"], row["same verdict"]) == \
        ("seats", "fair", "not fair", "no")
    assert findings[0].fair is False and "seat 1" in findings[0].sentence


def test_the_winnable_verdict_is_judged_again_under_tuned_play():
    """Default 20% and tuned 50% of 2,000 games against the 30-70% band: 'too hard' becomes 'inside
    the band' (both intervals are about ±2 points wide, far from the edges); unchanged play holds."""
    n = 2000
    default, tuned = np.zeros(n, bool), np.zeros(n, bool)
    default[: n // 5], tuned[: n // 2] = True, True
    moved = sp.winnable_again(_strong(default, tuned), (0.3, 0.7), "hold")
    assert moved.word == "inside the band" and moved.kind == "winnable"
    assert "too hard under default play" in moved.sentence and "changes under tuned play" in moved.sentence
    held = sp.winnable_again(_strong(default, default), None, "hold")  # None: the report's default band
    assert held.word == "too hard" and "holds under tuned play" in held.sentence
    assert sp.winnable_again(_strong(tuned, tuned), (0.1, 0.4), "hold").word == "too easy"
