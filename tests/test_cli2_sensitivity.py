"""Sensitivity ranks (issue 29, item 5): a rank's interval holds the rank it is about, and numbers
that move the rate equally (most often: not at all) share a rank, as the bootstrap counts them."""

from __future__ import annotations

import numpy as np

from experiments.sensitivity import ranked


def test_tied_numbers_share_a_rank_and_every_interval_holds_its_rank():
    """Three numbers move the rate (by 20, 10 and 5 points), three move no game at all. The old
    table numbered the three ties 4, 5, 6 while the bootstrap ranked them all 4, so rank 5 and 6
    came out as '5 (4-4)' and '6 (4-4)': intervals that leave out their own rank."""
    rng = np.random.default_rng(5)
    n = 2000
    base = rng.random(n) < 0.3
    u = rng.random(n)
    effects = []
    for push in (0.2, 0.1, 0.05, 0.0, 0.0, 0.0):
        high = base | (u < push)  # a rate push points higher on the same games
        effects.append((base, base.copy(), high))
    rank, low, high = ranked(effects, seed=0)
    assert list(rank) == [1, 2, 3, 4, 4, 4]
    assert (low <= rank).all() and (rank <= high).all()
    assert list(low[3:]) == [4, 4, 4] and list(high[:1]) == [1]  # the big effect is told apart
