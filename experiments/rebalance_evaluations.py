"""The candidates of a rebalance played: each side's rate against the mean (`Standing`), on games
``0 .. games-1`` of one seed in every cell of the game (`Evaluator`), each cell played once per run
and checkpointed in the output folder's ``evaluations/`` as a sweep's cells are.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from experiments.analyses import equivalence
from experiments.experiment import Cell
from experiments.rebalance_game import Game, rate_of
from experiments.stats import wilson_interval
from experiments.sweep import read_checkpoint, run_cell, write_checkpoint
from sim.ruleset import rules_version

# ---------------------------------------------------------------------------- standings


@dataclass
class Standing:
    """One candidate played: its values and each side's rate against the mean."""

    values: dict[str, Fraction]
    table: pd.DataFrame  # index side: wins, games, rate, deviation, low90/high90, low95/high95, equivalent, outside
    mean: float
    played: int = 0  # games this evaluation played that the run had not played before
    fields: dict[str, str] = field(default_factory=dict)  # side -> what it fields ("12 models, 72 points")

    @property
    def outside(self) -> list[str]:
        """Sides not shown within the margin."""
        return self.table.index[~self.table.equivalent].tolist()

    @property
    def fair(self) -> bool:
        return bool(self.table.equivalent.all())

    @property
    def worst(self) -> float:
        return float(self.table.deviation.abs().max())


def standing(values: Mapping[str, Fraction], wins: pd.Series, games: pd.Series, margin: float,
             played: int = 0) -> Standing:
    """Each side's rate (``wins / games``, per side) against the mean of the sides' rates, with
    the report's equivalence test (`experiments.analyses.equivalence`)."""
    wins, games = wins.astype(np.int64), games.astype(np.int64)
    rates = wins / games
    eq = equivalence(rates, wins, games, margin)
    low90, high90 = wilson_interval(wins, games, confidence=0.90)
    table = pd.DataFrame({"wins": wins, "games": games, "rate": rates, "deviation": eq.deviation,
                          "low90": low90, "high90": high90, "low95": eq.low95, "high95": eq.high95,
                          "equivalent": eq.equivalent, "outside": eq.outside})
    table.index.name = "side"
    return Standing(dict(values), table, float(eq.attrs["mean"]), played)


Evaluate = Callable[[Mapping[str, Fraction]], Standing]
SamePlay = Callable[[Mapping[str, Fraction], Mapping[str, Fraction]], bool]


# ---------------------------------------------------------------------------- evaluations


class Evaluator:
    """Plays candidates on games ``0 .. games-1`` of one seed in every cell of a game; each cell
    played once per run (keyed by the tables its kernels read, so two prices that buy the same
    models share it) and checkpointed in ``folder`` (None: in memory only)."""

    def __init__(self, game: Game, seed: int, games: int, margin: float, folder: Path | None = None,
                 progress: Callable[[int], None] | None = None) -> None:
        self.game, self.seed, self.games, self.margin, self.folder = game, seed, games, margin, folder
        self.progress = progress
        self.memory: dict[str, pd.DataFrame] = {}
        self.fingerprints: dict[str, str] = {}
        self.configs: dict[tuple, Any] = {}  # (cell index, values) -> the priced config

    def cell_key(self, cell: Cell, config) -> str:
        """``<cell label>-<hash>``: the hash covers the tables, the sides seated, seed and games."""
        sides = [str(getattr(getattr(p, "team", None), "name", p.name)) for p in config.players]
        text = f"{self.fingerprint(config)}|{sides}|{self.seed}|{self.games}|{rules_version(config.ruleset)}"
        if self.game.pricing.rate != "won":  # another rate of the same games is another cell
            text += f"|{self.game.pricing.rate}"
        digest = hashlib.blake2b(text.encode(), digest_size=6).hexdigest()
        label = "".join(ch if ch.isalnum() or ch in "_.,=+-" else "_" for ch in cell.label)[:60]
        return f"{label}-{digest}"

    def fingerprint(self, config) -> str:
        from experiments.experiment import config_fingerprint
        from experiments.solve import tables_fingerprint

        key = config_fingerprint(config)
        if key not in self.fingerprints:
            self.fingerprints[key] = tables_fingerprint(config)
        return self.fingerprints[key]

    def frames(self, values: Mapping[str, Fraction]) -> tuple[list[pd.DataFrame], int]:
        """Each cell's rows at ``values`` (cell, game, player, side, won), and the games played now."""
        out, played = [], 0
        for k, cell in enumerate(self.game.cells):
            config = self.priced(k, values)
            key = self.cell_key(cell, config)
            if key not in self.memory:
                self.memory[key] = self._load_or_play(config, key).assign(cell=k)
                played += self.games
            out.append(self.memory[key])
        return out, played

    def fields(self, values: Mapping[str, Fraction], sides) -> dict[str, str]:
        """What each side fields at ``values`` (the pricing's ``describe``, in the first cell that seats it)."""
        found: dict[str, str] = {}
        for k in range(len(self.game.cells)):
            if len(found) == len(sides):
                break
            config = self.priced(k, values)
            for side in sides:
                if side not in found:
                    text = self.game.pricing.describe(config, self.game.mode, side)
                    if text is not None:
                        found[side] = text
        return found

    def _load_or_play(self, config, key: str) -> pd.DataFrame:
        path = None if self.folder is None else self.folder / f"{key}.parquet"
        stamp = {"rebalance_cell": key, "seed": self.seed, "games": self.games}
        if path is not None and path.exists():
            df = read_checkpoint(path, stamp)
            if self.progress is not None:
                self.progress(self.games)
            return df
        rows = run_cell(config, self.games, self.seed, progress=self.progress)
        df = rows[["game", "player", "name", self.game.side]].rename(columns={self.game.side: "side"})
        df["won"] = rate_of(rows, self.game.pricing.rate)  # the side's rate (a win, unless the pricing says)
        if path is not None:
            write_checkpoint(df, path, stamp)
        return df

    def __call__(self, values: Mapping[str, Fraction]) -> Standing:
        frames, played = self.frames(values)
        rows = pd.concat(frames, ignore_index=True)
        counts = rows.groupby("side", sort=False).won.agg(["sum", "size"])
        result = standing(values, counts["sum"], counts["size"], self.margin, played)
        result.fields = self.fields(values, list(counts.index))
        return result

    def priced(self, k: int, values: Mapping[str, Fraction]) -> Any:
        """Cell ``k``'s config at ``values`` (remembered: the least-change and polish passes ask
        for the same ones many times)."""
        key = (k, tuple(sorted(values.items())))
        if key not in self.configs:
            if len(self.configs) > 20_000:
                self.configs.clear()
            self.configs[key] = self.game.priced(self.game.cells[k], values)
        return self.configs[key]

    def same_play(self, a: Mapping[str, Fraction], b: Mapping[str, Fraction]) -> bool:
        """Whether two candidates play the very same games in every cell (equal configs, or equal
        tables)."""
        for k in range(len(self.game.cells)):
            ca, cb = self.priced(k, a), self.priced(k, b)
            if ca != cb and self.fingerprint(ca) != self.fingerprint(cb):
                return False
        return True
