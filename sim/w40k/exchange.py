"""One shooting or close combat exchange: N attack dice of one attacker and weapon at a unit.

``Exchange`` describes it; ``simulate_exchange`` plays it many times in the kernels (one game
per stream); ``sim.w40k.exact.exchange_odds`` computes its exact distribution. Both read the same
rule data (profiles, weapons, charts) and the tests hold one against the other.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from kernels.rng import new_streams
from kernels.w40k import columns as L
from kernels.w40k.attack_spec import melee_spec, shooting_spec
from kernels.w40k.exchange import attack_group_batch
from sim.w40k.profiles import NO_SAVE, Profile, Weapon
from sim.w40k.tables import Geometry, model_flags, model_stats, weapon_row, wound_chart, ws_chart

MAX_DICE = 400
MAX_MODELS = 60


def majority(values: list[int]) -> int:
    """The value shared by most models; on a tie the highest (core-7th-edition §3)."""
    counts = Counter(values)
    top = max(counts.values())
    return max(v for v, c in counts.items() if c == top)


@dataclass(frozen=True)
class Exchange:
    """``n_dice`` attack dice (shots, attacks, blast markers or templates) of ``weapon`` used by
    ``attacker`` against ``target`` (its models, closest first).

    ``wounds``: the target models' current Wounds (default: their full Wounds).
    ``cover``: the target's cover save (7 = none; ignored in close combat).
    ``melee``: close combat (WS vs WS, no cover); ``charged``: the attacker charged this turn;
    ``first_round``: the first round of the combat (Hatred). ``snap``: Snap Shots (BS 1);
    ``overwatch``: Overwatch (Snap Shots, templates D3 hits).
    ``extra_reroll``: every failed to-hit and to-wound die (and blast scatter) is re-rolled once
    more, after any rule's re-roll; ``save_reroll``: the target re-rolls failed saves, Feel No
    Pain and Reanimation rolls; ``cancels``: tokens the target holds that each cancel an
    unsaved wound that would remove a model (rulesets grant these: Zombie 40,000's power-ups).
    ``names``: a ruleset's words for these three in descriptions (``{"cancels": "Medpacks"}``).
    """

    attacker: Profile
    weapon: Weapon
    n_dice: int
    target: tuple[Profile, ...]
    wounds: tuple[int, ...] = ()
    cover: int = NO_SAVE
    melee: bool = False
    charged: bool = False
    first_round: bool = True
    snap: bool = False
    overwatch: bool = False
    extra_reroll: bool = False
    save_reroll: bool = False
    cancels: int = 0
    geometry: Geometry = field(default_factory=Geometry)
    names: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "target", tuple(self.target))
        if not self.wounds:
            object.__setattr__(self, "wounds", tuple(p.w for p in self.target))
        if not 0 <= self.n_dice <= MAX_DICE:
            raise ValueError(f"n_dice = {self.n_dice}; allowed: 0-{MAX_DICE}")
        if not 1 <= len(self.target) <= MAX_MODELS:
            raise ValueError(f"target has {len(self.target)} models; allowed: 1-{MAX_MODELS}")
        if len(self.wounds) != len(self.target):
            raise ValueError("wounds: one value per target model")
        for p, w in zip(self.target, self.wounds):
            if not 0 <= w <= p.w:
                raise ValueError(f"wounds = {w} for {p.name!r}; allowed: 0-{p.w}")
        if self.melee and not self.weapon.is_melee:
            raise ValueError(f"weapon {self.weapon.name!r} is not a close combat weapon")
        if not self.melee and self.weapon.is_melee:
            raise ValueError(f"weapon {self.weapon.name!r} is a close combat weapon: use melee")
        if not 2 <= self.cover <= NO_SAVE:
            raise ValueError(f"cover = {self.cover}; allowed: 2-6, or 7 for none")

    @property
    def target_t(self) -> int:
        return majority([p.t for p, w in zip(self.target, self.wounds) if w > 0] or [self.target[0].t])

    @property
    def target_ws(self) -> int:
        return majority([p.ws for p, w in zip(self.target, self.wounds) if w > 0] or [self.target[0].ws])

    @property
    def target_sv(self) -> int:
        return majority([p.sv for p, w in zip(self.target, self.wounds) if w > 0] or [self.target[0].sv])

    def spec(self) -> np.ndarray:
        """The kernels' int64 attack spec for this exchange."""
        spec = np.zeros(L.N_SPEC, dtype=np.int64)
        stats, aflags = model_stats(self.attacker), model_flags(self.attacker)
        row = weapon_row(self.weapon)
        if self.melee:
            melee_spec(spec, row, stats, aflags, self.target_ws, self.target_t, self.target_sv, self.charged,
                       self.first_round, int(self.extra_reroll), ws_chart(), wound_chart())
        else:
            shooting_spec(spec, row, stats, aflags, self.target_t, self.target_sv, self.snap or self.overwatch,
                          self.overwatch, int(self.extra_reroll), wound_chart(), self.geometry.array())
        return spec

    def target_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(wounds int16[m], stats int16[m, N_STATS], flags int64[m]) of the target."""
        stats = np.array([model_stats(p) for p in self.target], dtype=np.int16)
        flags = np.array([model_flags(p) for p in self.target], dtype=np.int64)
        return np.array(self.wounds, dtype=np.int16), stats, flags


def simulate_exchange(exchange: Exchange, n_games: int, seed: int, first_game: int = 0) -> np.ndarray:
    """Play the exchange once per game in the kernels.

    Returns
    -------
    int64[n_games, N_OUT]: per game the counters of kernels.w40k.columns (OUT_UNSAVED, OUT_KILLED...).
    """
    rng = new_streams(seed, n_games, first_game)
    wounds, stats, flags = exchange.target_arrays()
    out = np.zeros((n_games, L.N_OUT), dtype=np.int64)
    cancels = np.array([exchange.cancels], dtype=np.int64)
    cover = L.NONE if exchange.melee else exchange.cover
    attack_group_batch(rng, exchange.n_dice, exchange.spec(), wounds, stats, flags, cover,
                       int(exchange.save_reroll), cancels, out)
    return out
