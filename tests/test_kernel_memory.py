"""The kernels run without numba's reference counting (kernels.jit): nothing may leak and
nothing may be freed early. numba's allocator counts every allocation and every free; whole
games of every mod must leave the two counts equal, and the check must catch the mistake the
rule in kernels.jit forbids (a counted function returning a new array to an uncounted one).
"""

from __future__ import annotations

import numpy as np
import pytest
from numba.core.runtime import _nrt_python, rtsys
from test_invariants_scale import N_CONFIGS, random_config

from kernels.jit import njit, njit_alloc
from sim.play import play

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module", autouse=True)
def allocation_stats():
    was_on = _nrt_python.memsys_stats_enabled()
    _nrt_python.memsys_enable_stats()
    yield
    if not was_on:
        _nrt_python.memsys_disable_stats()


def _allocations(run) -> tuple[int, int]:
    """(allocations, frees) numba's allocator made while ``run()`` ran."""
    before = rtsys.get_allocation_stats()
    run()
    after = rtsys.get_allocation_stats()
    return after.alloc - before.alloc, after.free - before.free


@njit_alloc
def _new_array(n):
    return np.zeros(n)


@njit
def _drops_a_new_array(n):
    return _new_array(n)[0]  # uncounted: the array is never freed


@njit_alloc
def _keeps_count(n):
    return _new_array(n)[0]


def test_the_count_catches_a_leak():
    allocated, freed = _allocations(lambda: _drops_a_new_array(4))
    assert (allocated, freed) == (1, 0)
    allocated, freed = _allocations(lambda: _keeps_count(4))
    assert (allocated, freed) == (1, 1)


@pytest.mark.parametrize("seed", range(N_CONFIGS))
def test_whole_games_free_what_they_allocate(seed):
    config = random_config(seed)
    allocated, freed = _allocations(lambda: play(config, 30, 500 + seed, check=True))
    assert allocated == freed, (sorted(config.mods), allocated, freed)
