"""Game-level answers with intervals in `play` and `sweep` (issue 29, item 18)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from rich.console import Console
from scipy import stats

from experiments.play_summary import mean_interval, render_summary
from experiments.sweep import _turns_by_cell


def _summary() -> dict:
    """Out West's shape: 'survived/game' is the survive rate again; the posse held 777 of 1000."""
    players = [{"player": p, "name": n, "wins": w, "rate": w / 1000, "ci_low": 0.3, "ci_high": 0.4,
                "survived_per_game": w / 1000, "kills_per_game": 1.5 + p}
               for p, (n, w) in enumerate([("Legend", 364), ("Shootist", 300)])]
    played = {"ruleset": "outwest", "config": "x.toml", "players": [], "mods": [], "changed": {}, "games": 1000,
              "seed": 1, "shamble": "0.1.0", "commit": None}
    return {"ruleset": "outwest", "games": 1000, "seed": 1, "played": played, "players": players,
            "mean_turns": 14.57, "reasons": {"held": 777, "overrun": 223}, "mean_dice_per_game": 80.0}


def test_play_shows_no_column_twice_and_every_game_level_rate_with_its_interval():
    console = Console(record=True, width=200)
    render_summary(_summary(), console, (14.2, 14.9))
    text = console.export_text()
    assert "survived" not in text and "kills per game" in text  # the rate is not repeated as a mean
    low, high = stats.binomtest(777, 1000).proportion_ci(method="wilson")
    assert f"held 77.7% ({low:.1%}-{high:.1%})" in text
    assert "mean game length 14.57 turns (95% CI 14.20-14.90)" in text


def test_the_mean_interval_is_the_t_interval():
    values = np.random.default_rng(1).integers(5, 30, 400)
    low, high = mean_interval(values)
    expected = stats.t.interval(0.95, len(values) - 1, loc=values.mean(), scale=stats.sem(values))
    assert (low, high) == pytest.approx(expected)


def test_a_sweep_row_names_its_game_length_with_an_interval():
    rows = [{"cell": c, "game": g, "player": p, "turns": t + g % 3} for c, t in (("a", 10), ("b", 20))
            for g in range(30) for p in range(2)]
    lengths = _turns_by_cell(pd.DataFrame(rows))
    assert lengths["a"].startswith("11.0 (") and lengths["b"].startswith("21.0 (")


def test_at_80_columns_no_name_breaks_inside_a_word():
    """'Genesteale'/'rs', 'killed/gam'/'e' at 80 columns (review, ux 10)."""
    summary = _summary()
    names = ["Genestealers", "Backstabbers", "Tyranids", "Necrons"]
    summary["players"] = [dict(p, name=n, kills_per_game=1.0 + k, team=n)
                          for k, (p, n) in enumerate(zip(summary["players"] * 2, names))]
    console = Console(record=True, width=80)
    render_summary(summary, console, (14.2, 14.9))
    text = console.export_text()
    for word in ("Genestealers", "Backstabbers", "kills", "per"):
        assert word in text


def test_policy_presets_keep_their_names_at_120_and_80_columns():
    from experiments.params import render_policies
    from sim.ruleset import get

    rs = get("outwest")
    for width in (80, 120):
        console = Console(record=True, width=width)
        render_policies(rs, console)
        text = console.export_text()
        assert all(name in text for name in rs.policy_presets()) and "…" not in text
