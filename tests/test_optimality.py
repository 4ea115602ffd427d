"""Local optimality (experiments/optimality.py, issue 26 item 5): each policy field's one-step
neighbours, the sides of a game, the paired interval of each neighbour against the default on the
same games, a toy with a known answer (Token Race: a bold player re-rolls a 1), bad input, and
whole sweeps of Out West's Hold the town (compiled) and of Zombies!!! (plain Python)."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from pathlib import Path

import numpy as np
import proof_ruleset
import pytest
import typer
from typer.testing import CliRunner

from experiments import optimality as O
from experiments.stats import paired_difference
from sim import ruleset as registry
from sim.play import play

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------------------------- neighbours


@dataclass(frozen=True)
class Knobs:
    """A policy of every kind of field: declared by metadata, by LIMITS, or by validation alone."""

    flag: bool = True
    style: str = field(default="calm", metadata={"choices": ("calm", "wild", "random")})
    mode: int = field(default=0, metadata={"range": (0, 2)})  # a code: 3 values
    count: int = field(default=3, metadata={"range": (0, 3)})  # an integer at its top
    reach_in: float = 7.0  # LIMITS: 0-100
    share: float = field(default=1.0, metadata={"range": (0.0, 1.0)})
    radius_in: float = 0.0  # its range known only from validation: 0-200
    margin: float = field(default=0.5, metadata={"range": (0.0, 50.0)})

    LIMITS = {"reach_in": (0.0, 100.0)}

    def __post_init__(self) -> None:
        if not 0 <= self.radius_in <= 200:
            raise ValueError(f"policy: radius_in = {self.radius_in!r}; allowed: 0-200 inches")
        if self.count == 0 and self.mode == 0:
            raise ValueError("policy: count = 0 needs mode > 0")


def _neighbours(policy, name, step=None):
    f = next(f for f in fields(policy) if f.name == name)
    return O.neighbour_values(O.field_spec(policy, f), getattr(policy, name), step)


def test_a_bool_flips_and_a_choice_switches_to_each_other_choice():
    assert _neighbours(Knobs(), "flag") == [False]
    assert _neighbours(Knobs(), "style") == ["wild", "random"]


def test_an_integer_code_takes_every_other_value_and_an_integer_moves_one_within_its_range():
    assert _neighbours(Knobs(), "mode") == [1, 2]  # 0-2: a code, 2 is tried from 0 as well
    assert _neighbours(Knobs(), "count") == [2]  # 3 is the top of 0-3: only down
    assert _neighbours(Knobs(count=1), "count") == [0, 2]
    assert all(isinstance(v, int) for v in _neighbours(Knobs(count=1), "count"))


def test_a_number_moves_a_nice_step_from_its_size_and_range():
    assert _neighbours(Knobs(), "reach_in") == [5.0, 9.0]  # 7 / 4 = 1.75 -> 2 (LIMITS 0-100)
    assert _neighbours(Knobs(), "share") == [0.8]  # 1.0 / 4 -> 0.2; 1.2 is past the range
    assert _neighbours(Knobs(), "radius_in") == [2.0]  # 0: 1% of 0-200 (its validation's words); -2 -> 0
    assert _neighbours(Knobs(), "margin") == [0.4, 0.6]  # 0.5 / 4 = 0.125 -> 0.1 (not 1% of 0-50)
    assert _neighbours(Knobs(margin=0.3), "margin", step=0.5) == [0.0, 0.8]  # stops at the range's end
    assert _neighbours(Knobs(), "reach_in", step=0.5) == [6.5, 7.5]


@pytest.mark.parametrize("x, step", [(1.75, 2.0), (4.5, 5.0), (0.25, 0.2), (1.0, 1.0), (0.375, 0.5), (10.0, 10.0),
                                     (1.5, 2.0), (0.003, 0.002), (35.0, 50.0)])
def test_nice_is_the_nearest_one_two_or_five(x, step):
    assert O.nice(x) == pytest.approx(step)


def test_a_neighbour_the_policy_refuses_is_dropped():
    rows = O.policy_neighbours(Knobs(count=1), ["count"])
    assert [(name, default, value) for name, default, value, _ in rows] == [("count", 1, 2)]  # count 0 needs mode
    assert rows[0][3] == Knobs(count=2)


@pytest.mark.parametrize("path", ["examples/outwest/hold.toml", "examples/configs/two_players.toml",
                                  "examples/apocalypse/configs/two_players.toml",
                                  "examples/zombies9/four_players_base.toml"])
def test_every_field_of_every_ruleset_has_its_neighbours(path):
    """Each ruleset declares its fields' ranges one of the three ways; each field moves."""
    policy = registry.load_config(ROOT / path).players[0].policy
    rows = O.policy_neighbours(policy)
    assert {name for name, *_ in rows} == {f.name for f in fields(policy)}
    for name, default, value, moved in rows:
        assert value != default and getattr(moved, name) == value
        assert replace(moved, **{name: default}) == policy


def test_declared_ranges_are_read_from_each_kind_of_declaration():
    z40k = registry.load_config(ROOT / "examples/configs/two_players.toml").players[0].policy
    f = next(f for f in fields(z40k) if f.name == "hunt_radius_in")
    assert O.field_spec(z40k, f) == O.FieldSpec("hunt_radius_in", "number", 0.0, 200.0)
    outwest = registry.load_config(ROOT / "examples/outwest/hold.toml").players[0].policy
    f = next(f for f in fields(outwest) if f.name == "fight_in_contact")  # LIMITS: 0-2, a code
    assert O.field_spec(outwest, f) == O.FieldSpec("fight_in_contact", "code", 0, 2, (0, 1, 2))
    f = next(f for f in fields(outwest) if f.name == "spend_when")  # LIMITS: 0-3 since issue 26, an integer
    assert O.field_spec(outwest, f) == O.FieldSpec("spend_when", "integer", 0, 3)


# ---------------------------------------------------------------------------------- the toy


@dataclass(frozen=True)
class RacePolicy:
    """Token Race's policy with fields its kernel never reads (patience, style): not exercised."""

    bold: int = field(default=0, metadata={"range": (0, 1)})
    patience: float = field(default=2.0, metadata={"range": (0.0, 10.0)})
    style: str = field(default="calm", metadata={"choices": ("calm", "wild")})


@pytest.fixture
def token_race():
    registry.register(proof_ruleset.RULESET)
    yield proof_ruleset.RULESET
    registry.unregister(proof_ruleset.ID)


def _race(track: int = 20, turns: int = 12):
    players = tuple(proof_ruleset.Player(name, RacePolicy()) for name in ("Hare", "Tortoise"))
    return proof_ruleset.Config(players, track_length=track, max_turns=turns)


def _die(bold: int) -> np.ndarray:
    """P(die = 1..6): a bold player re-rolls a 1 once (tests/proof_ruleset.py)."""
    p = np.full(6, Fraction(1, 6))
    if bold:
        p = np.array([Fraction(1, 36)] + [Fraction(1, 6) + Fraction(1, 36)] * 5)
    return p


def _finish_by_turn(track: int, turns: int, bold: int) -> list[Fraction]:
    """P(the token has reached the end by turn t), t = 0..turns (exact)."""
    die, at = _die(bold), {0: Fraction(1)}
    done, out = Fraction(0), [Fraction(0)]
    for _ in range(turns):
        nxt: dict[int, Fraction] = {}
        for pos, q in at.items():
            for face in range(1, 7):
                if pos + face >= track:
                    done += q * die[face - 1]
                else:
                    nxt[pos + face] = nxt.get(pos + face, Fraction(0)) + q * die[face - 1]
        at = nxt
        out.append(done)
    return out


def exact_wins(bold_first: int, bold_second: int, track: int = 20, turns: int = 12) -> tuple[float, float]:
    """P(each player wins), exact: the first wins on turn t when he reaches the end then and the
    second has not before; the second, when he reaches it on turn t and the first has not by t."""
    a, b = _finish_by_turn(track, turns, bold_first), _finish_by_turn(track, turns, bold_second)
    first = sum((a[t] - a[t - 1]) * (1 - b[t - 1]) for t in range(1, turns + 1))
    second = sum((b[t] - b[t - 1]) * (1 - a[t]) for t in range(1, turns + 1))
    return float(first), float(second)


def test_the_toy_finds_the_better_field_and_what_is_not_exercised(token_race):
    """Known answer: a bold player (re-rolls a 1) beats a steady one; patience and style are read
    by nothing. Rates are checked against the exact odds at 4 sigma (alpha about 6e-5)."""
    n = 2000
    frame = O.run_optimality(_race(), n, seed=11)
    assert list(frame.columns) == list(O.COLUMNS)
    assert frame.attrs["shared_win"] is False
    assert list(frame.side.unique()) == ["Hare", "Tortoise"]
    bold = frame[frame.field == "bold"].set_index("side")
    assert bold.beats.all() and bold.exercised.all()
    lazy = frame[frame.field != "bold"]
    assert len(lazy) == 2 * (2 + 1) and not lazy.exercised.any() and not lazy.beats.any()
    assert lazy["diff"].isna().all()
    exact = {"Hare": (exact_wins(0, 0)[0], exact_wins(1, 0)[0]), "Tortoise": (exact_wins(0, 0)[1], exact_wins(0, 1)[1])}
    for side, (before, after) in exact.items():
        row = bold.loc[side]
        for rate, p in ((row.default_rate, before), (row.neighbour_rate, after)):
            assert abs(rate - p) <= 4 * np.sqrt(p * (1 - p) / n), (side, rate, p)
        assert row["diff"] > 0.015 and row.ci_low > 0
        assert abs(row["diff"] - (after - before)) <= 4 / 1.96 * (row.ci_high - row.ci_low) / 2


def test_each_neighbour_is_the_paired_interval_of_stats_on_the_same_games(token_race):
    """The row is `paired_difference(neighbour, default)` of two runs of the same seed, game by
    game (and not of shuffled or independent games)."""
    config = _race(track=14)
    frame = O.run_optimality(config, 300, seed=4, fields=["bold"], only_sides=["Tortoise"])
    assert len(frame) == 1
    row = frame.iloc[0]
    base = play(config, 300, seed=4)
    moved = play(O.with_side_policy(config, (1,), RacePolicy(bold=1)), 300, seed=4)
    a = moved[moved.player == 1].sort_values("game").won.to_numpy()
    b = base[base.player == 1].sort_values("game").won.to_numpy()
    d = paired_difference(a, b)
    assert (row["diff"], row.ci_low, row.ci_high, row.p_value) == (d.diff, d.low, d.high, d.p_value)
    assert (row.default_rate, row.neighbour_rate) == (b.mean(), a.mean())
    independent = paired_difference(a, np.roll(b, 1))
    assert (independent.low, independent.high) != (d.low, d.high)


def test_players_who_share_a_win_and_a_policy_are_one_side():
    @dataclass(frozen=True)
    class P:
        name: str
        policy: RacePolicy

    @dataclass(frozen=True)
    class C:
        players: tuple

    config = C((P("A", RacePolicy()), P("B", RacePolicy(bold=1)), P("C", RacePolicy())))
    assert O.sides(config, shared=True) == [("A+C", (0, 2)), ("B", (1,))]
    assert O.sides(config, shared=False) == [("A", (0,)), ("B", (1,)), ("C", (2,))]
    assert O.sides(config, shared=True, only=["A+C"]) == [("A+C", (0, 2))]
    assert O.sides(config, shared=True, only=["C", "A+C"]) == [("A+C", (0, 2)), ("C", (2,))]  # C moves alone too
    same = C(tuple(P(n, RacePolicy()) for n in "AB"))
    assert O.sides(same, shared=True) == [("all players", (0, 1))]
    with pytest.raises(ValueError, match="side 'Z': unknown; allowed: A, B, C, A\\+C$"):
        O.sides(config, shared=True, only=["Z"])
    with pytest.raises(ValueError, match="side 'A\\+B': unknown; allowed: A, B, all players$"):
        O.sides(same, shared=False, only=["A+B"])


# ---------------------------------------------------------------------------------- bad input


def test_bad_input_is_one_line_naming_what_is_allowed(token_race):
    config = _race()
    with pytest.raises(ValueError, match=r"^policy field 'boldness': unknown; allowed: bold, patience, style$"):
        O.run_optimality(config, 200, 1, fields=["boldness"])
    with pytest.raises(ValueError, match=r"^games = 99; allowed: 100 or more"):
        O.run_optimality(config, 99, 1)
    with pytest.raises(ValueError, match=r"^step of patience = -1.0; allowed: a number above 0$"):
        O.run_optimality(config, 200, 1, steps={"patience": -1.0})
    with pytest.raises(ValueError, match=r"^threshold = 1.5; allowed: a share 0 <= t < 1 \(0.015 = 1.5 points\)$"):
        O.run_optimality(config, 200, 1, threshold=1.5)


def _module(*args: str, env: dict | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "experiments.optimality", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout, env=env)


def _command() -> typer.Typer:
    app = typer.Typer()
    app.command()(O.main)
    return app


@pytest.mark.parametrize("args, words", [
    (["--fields", "keep_away, nope"], "error: policy field 'keep_away': unknown; allowed: reload_safe_in,"),
    (["--step", "keep_away_in=far"], "error: --step 'keep_away_in=far'; allowed: FIELD=NUMBER"),
    (["--side", "Wyatt"], "error: side 'Wyatt': unknown; allowed: Legend, Shootist,"),
    (["--threshold", "150"], "error: --threshold 150; allowed: points 0 <= t < 100"),
])
def test_the_command_refuses_bad_input_on_one_line(args, words):
    out = CliRunner().invoke(_command(), [str(ROOT / "examples/outwest/hold.toml"), "--games", "100", *args])
    assert out.exit_code == 2 and out.stdout == ""
    assert out.stderr.startswith(words) and out.stderr.count("\n") == 1


def test_python_m_runs_the_module_and_refuses_too_few_games():
    out = _module(str(ROOT / "examples/outwest/hold.toml"), "--games", "50")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == "error: games = 50; allowed: 100 or more (paired intervals need them)\n"


# ---------------------------------------------------------------------------------- whole sweeps


def test_out_west_hold_sweeps_every_field_of_the_posse():
    """Compiled kernels, 200 games: the posse is one side; the fields the Hold does not exercise
    (no horses, no zombie gunslingers, no Escape goal) say so."""
    config = registry.load_config(ROOT / "examples/outwest/hold.toml")
    seen = []
    frame = O.run_optimality(config, 200, seed=3, progress=lambda done, total, label: seen.append((done, total)))
    assert frame.attrs["shared_win"] is True and set(frame.side) == {"all players"}
    spend = frame[frame.field == "spend_when"]
    default = config.players[0].policy.spend_when  # an integer 0-3: its neighbours are one step either side
    assert list(spend.neighbour) == [v for v in (default - 1, default + 1) if 0 <= v <= 3]
    assert all(type(v) is int for v in spend.neighbour)
    assert set(frame.field) == {f.name for f in fields(config.players[0].policy)}
    assert frame.default_rate.nunique() == 1 and frame.games.eq(200).all()
    idle = set(frame[~frame.exercised].field)
    assert {"duck_back_in", "ride"} <= idle  # P6 needs zombie gunslingers; the default posse has no horses
    assert frame[frame.exercised]["diff"].notna().all()
    assert seen[-1] == (200 * (1 + len(frame)),) * 2
    played = frame[frame.exercised]
    assert (played.ci_low <= played["diff"]).all() and (played["diff"] <= played.ci_high).all()
    alone = O.run_optimality(config, 200, seed=3, fields=["contact_fire"], only_sides=["Legend"])
    assert list(alone.side) == ["Legend"] and list(alone.players) == ["Legend"]
    assert alone.default_rate.iloc[0] == frame.default_rate.iloc[0]  # the rate is still the posse's win


def test_a_zombies_sweep_moves_one_seat_and_prints_json():
    """Compiled kernels (plain Python, NUMBA_DISABLE_JIT=1, takes about 90 CPU seconds for these 200
    games of four players: too slow here). A rivals' game: each seat is a side; Ann alone moves."""
    out = CliRunner().invoke(_command(), [str(ROOT / "examples/zombies9/four_players_base.toml"), "--games", "200",
                                          "--fields", "hunt,cards", "--side", "Ann", "--json"])
    assert out.exit_code == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["played"]["ruleset"] == "zombies9" and data["threshold"] == 0.015 and data["shared_win"] is False
    config = registry.load_config(ROOT / "examples/zombies9/four_players_base.toml")
    hunt = next(p.policy.hunt for p in config.players if p.name == "Ann")
    rows = data["neighbours"]
    assert [(r["side"], r["field"], r["default"], r["neighbour"]) for r in rows] == [
        ("Ann", "cards", "heuristic", "random"), ("Ann", "cards", "heuristic", "never"),
        ("Ann", "hunt", hunt, not hunt)]
    for r in rows:
        assert r["exercised"] and r["games"] == 200 and r["players"] == "Ann"
        assert r["ci_low"] <= r["diff"] <= r["ci_high"]
        assert r["neighbour_rate"] - r["default_rate"] == pytest.approx(r["diff"])
