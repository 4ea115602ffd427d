"""The one place that sets the jit options (house style: numba-stats' ``_util``).

- ``njit``: every kernel helper; cached on disk, ``nogil``, no fastmath (bit-identical results),
  and no reference counting (numba's ``_nrt=False``): such a helper may not allocate an array
  and may not return one (numba refuses the first; the second is the rule below).
- ``njit_alloc``: the same with numba's reference counting, for the few functions that allocate
  scratch arrays, return them, or receive one from a callee.
- ``njit_parallel``: only the drivers that loop over games with ``prange``.

Why: the state and the tables are NamedTuples of about 17 arrays each, passed to every helper.
With reference counting, numba increments and decrements (atomically) the count of every array
a helper touches, at every call: a profile of whole games put over half the time there.

The rule that keeps the counts right: an array may be *passed* between the two kinds freely, but
may be *returned* only between functions of the same kind (an ``njit_alloc`` function returning
a new array to an ``njit`` caller would leak it; an ``njit`` function returning a view to an
``njit_alloc`` caller would free it early). ``tests/test_kernel_memory.py`` plays games of every
mod and checks that numba's allocator frees exactly what it allocated.

The on-disk cache lives in a directory keyed by a hash of every source file in ``kernels/``
(design.md pitfall: numba's cache does not notice edits in another file's jitted callee), so an
edited kernel always recompiles. ``SHAMBLE_NUMBA_CACHE`` moves the root; ``NUMBA_CACHE_DIR`` set
by the user wins.

With ``NUMBA_DISABLE_JIT=1`` the kernels run as plain Python on numpy scalars, where unsigned
overflow is the intended wrap-around of the random generator: numpy's overflow warning is
switched off in that mode only.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy as np

_KERNELS_DIR = Path(__file__).resolve().parent


def kernels_source_hash() -> str:
    """Hash of every ``kernels/*.py`` source: the key of the compiled-code cache."""
    digest = hashlib.blake2b(digest_size=8)
    for path in sorted(_KERNELS_DIR.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _cache_dir() -> str:
    root = os.environ.get("SHAMBLE_NUMBA_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "shamble", "numba"
    )
    return os.path.join(root, kernels_source_hash())


if not os.environ.get("NUMBA_CACHE_DIR"):
    os.environ["NUMBA_CACHE_DIR"] = _cache_dir()

import numba  # noqa: E402  (after NUMBA_CACHE_DIR is set)

if not numba.config.CACHE_DIR:
    numba.config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]

from numba.core import types  # noqa: E402
from numba.core.registry import CPUDispatcher  # noqa: E402

JIT_DISABLED = bool(numba.config.DISABLE_JIT)
if JIT_DISABLED:
    np.seterr(over="ignore")

_OPTIONS = dict(nogil=True, fastmath=False, error_model="numpy", nopython=True, boundscheck=None)


class _TypeDispatcher(CPUDispatcher):
    """A dispatcher that compiles one version per argument *types*: a call from a kernel with a
    constant (``log_event(..., PH_SHOOTING, ...)``) would otherwise compile a new version for
    each literal value, which multiplied the compile time of the whole game several times."""

    def get_call_template(self, args, kws):
        args = tuple(types.unliteral(a) for a in args)
        kws = {k: types.unliteral(v) for k, v in kws.items()}
        return super().get_call_template(args, kws)


def _decorator(**extra):
    def wrap(func):
        if JIT_DISABLED:
            return func
        dispatcher = _TypeDispatcher(py_func=func, locals={}, targetoptions={**_OPTIONS, **extra})
        dispatcher.enable_caching()
        return dispatcher

    return wrap


njit = _decorator(_nrt=False)
njit_alloc = _decorator(_nrt=True)  # explicit: an unset flag is inherited from the caller
njit_parallel = _decorator(parallel=True)
prange = numba.prange
