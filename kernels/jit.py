"""The one place that sets the jit options (house style: numba-stats' ``_util``).

- ``njit``: every kernel; ``nogil``, no fastmath (bit-identical results), and no reference
  counting (numba's ``_nrt=False``): such a kernel may not allocate an array and may not return
  one (numba refuses the first; the second is the rule below).
- ``njit_alloc``: the same with numba's reference counting, for the few kernels that allocate
  scratch arrays, return them, or receive one from a callee.
- ``njit_parallel``: only the drivers that loop over games with ``prange``.

**Reference counting.** A game's state and tables are NamedTuples of many arrays, passed to every
helper; with reference counting numba increments and decrements, atomically, the count of every
array a helper touches at every call (over half the time of a game, once). The rule that keeps
the counts right: an array may be *passed* between the two kinds freely, but *returned* only
between kernels of the same kind. ``tests/test_kernel_memory.py`` checks that numba's allocator
frees exactly what it allocated over games of every mod.

**Compile time: one optimisation per entry point.** numba compiles every jitted function into a
code library of its own, links into it the libraries of everything it calls, then optimises and
generates machine code for the whole linked module: a kernel ten calls deep was optimised and
compiled ten times over, once inside each caller (230-450 s for a whole game). Here a kernel
called from another kernel is compiled *light*: typed and lowered to LLVM IR with the
function-level passes, but its module is neither optimised as a whole nor turned into machine
code, and it has no CPython or C wrapper; the entry point called from Python links every light
module it reaches and optimises and compiles the whole game once (the same LLVM pipeline, so the
same numbers to the last bit: no fastmath, no FMA contraction). A kernel called from Python
(``play_batch``, a test's driver, ``shooting_spec`` from ``sim``) runs through a *twin*: a full
compile of the same function, made on its first Python call and cached on disk. Set
``SHAMBLE_LIGHT_KERNELS=0`` to compile every kernel in full (numba's own way) when debugging.

**Linked once.** numba's own finalising of a library links into it the whole linked module of
every callee (each a copy of everything below it), so the copies grew with the depth of the call
tree. A light kernel's library links nothing: the entry point's gathers every light library it
reaches (`_reached`) and links each one's own module once (a library that is not an entry point,
numba's own, gets the whole linked module it expects). The functions, the passes and so the
numbers are the same; the linking's share of a cold compile fell from 9% to 1%.

**Where a cold compile's time goes** (Zombie 40,000's game, session 28: the wall time of each
step of numba's compiler, nested compiles subtracted, on a loaded 2-core machine; CPU 166 s before
linking once, 155 s after): LLVM's module passes over the entry point's linked module 26%,
numba's lowering to LLVM IR (Python) 22%, LLVM's function passes on each kernel 13%, the IR as
text, parsed and verified 9%, machine code 9-12%, the linking 9% (1% linked once), numba's
untyped passes and bytecode analysis 6%, typing 6%, the cache write under 1%. The entry point's
module is 15.5 MB of IR text in 389 functions before its passes (29 MB in 44 functions after
inlining): most of it moves a game's state and tables, some 600 scalars, in and out of every call
(the caller's ``extractvalue``s, the callee's ``insertvalue``s), and every step above grows with
it. Duplicate specialisations are few (``log_event`` 6, ``close_event`` 8: their numbers int,
float or bool; ``roll_pass`` 2): about 3% of the functions. Switching off LLVM's loop vectoriser
(SLP is off already) or running the light kernels' function passes at O1 saved nothing
measurable. The lever left is that IR: the state and tables passed as one pointer (below).

After by reference (session 30, the same breakdown: exclusive CPU seconds of each step, nested
compiles subtracted, a fresh process and an empty cache, 2 shared cores at load 5-8): Zombie 40,000
73.6 s, Apocalypse 106.5 s (two runs, 106.2 and 106.8; 80 s at load 1-2 in session 29: CPU seconds
grow with the load). Numba's own Python now holds two thirds of it: lowering to IR 28-31% (Zombie
40,000 - Apocalypse), typing 24-26%, untyped passes and bytecode 11%; LLVM the rest: the entry
point's module passes 12-14%, the kernels' function passes 8%, machine code 7%, IR text, parsing
and verifying 4%, linking 2-3%, the cache under 1%. The entry point's module is 3.8 MB of IR in 393
functions before its passes, 5.0 MB in 92 after (Apocalypse 4.3 MB in 449, 5.9 MB in 85). It is the
number and size of the kernels numba types and lowers that costs: 399 versions of 370 functions
(Apocalypse 446 of 393). Besides the entry point a first ``play`` compiles one twin,
``start_streams`` (6 functions, well under a second). Measured and not kept: the module passes'
level (the dumped module, one process: O3 8.5 s, O2 10.3 s, O1 8.0 s, O3 without numba's cheap
pre-pass 10.1 s, the pre-pass 0.25 s, machine code 4.2-5.2 s at every level: inlining and
simplifying cost the same at each level); the `ByRef` struct named in the IR (a kernel's IR text a
third as long, the linked module the same 3.8 MB since LLVM spells no pointee type, the compile no
faster within the noise); the `ByRef` type keyed by its name (hashing a game's state type takes 57
us; no change visible). Kept: one version per signed integer width (`_widened`: Apocalypse 446 ->
413 versions, 106.5 -> 99.3 s one after the other at load 6-7; with the flags below, side by side
with the base, 117.1 -> 107.7 s, wall 395 -> 377 s at load 4-6) and numba's flags hashed and
compared without their properties (`_fast_flags`: Zombie 40,000 compiled side by side with the
base, CPU 98.2 -> 94.7 s, typing 23.0 -> 20.2 s, wall the same 420 s at load 5-8); results
bit-identical, games/s one thread the same within the noise. A cProfile of the compile names what
is left: numba's IR analyses (``_rec_list_vars``), type hashing, the typing of ``@overload`` calls
and its event broadcasts, spread over every kernel; the next lever is fewer, smaller kernels
(``log_event``'s 6 and ``close_event``'s 8 versions take int, float or bool numbers) or numba's
pipeline itself.

Session 31 (numba 0.68.1): a cProfile of Zombie 40,000's cold compile (a fresh process, an empty
cache, wall-clock timer, load 6-7: 547 s profiled, 159 s CPU) by numba's passes, callees included:
typing 460 s (every nested compile inside it), lowering 294 s, then the bytecode's interpretation
27 s, the typed rewrites 18 s, inlining closures 17 s (there are none), SSA 13 s, the untyped
rewrites 8 s, legalising 7 s, stripping phis 6 s; by function: llvmlite's calls into LLVM 90 s own
time, numba recomputing the variables' lifetimes (``PostProcessor.run``, 9 times per kernel
version: 49 s, ``_rec_list_vars`` 34 s of it), type hashing 24 s (3.4 million recursive
``__hash__`` calls: a type hashes its key, a game's state type its hundreds of members), the event
broadcasts 20 s (numba times the LLVM lock at every call into LLVM, each broadcast to the timers of
every enclosing compile), ``@overload`` typing (``_get_impl`` 35 s, ``order_by_target_specificity``
9 s). Kept, measured side by side with the base (fresh processes, empty caches, CPU seconds of the
whole process, 2 shared cores): a light kernel's pipeline without the passes that cannot change its
IR (`_idle_passes`: numba's 27 passes -> 17 for a plain kernel; the same LLVM IR: Out West's 253
light kernel versions and its entry point's module compared as text, numba's version ids aside),
Zombie 40,000 89.1 -> 84.1 s (load 8-10), Apocalypse 107.9 -> 104.4 s (load 13-14); the trace's
numbers as ``float64`` (`as_float64`: ``log_event`` and ``close_event`` one version each, Out
West's 253 versions of 249 functions -> 249), with the first, two rounds, 90.9 -> 84.8 s and 94.0
-> 89.0 s (load 7-11: -7% and -5%; wall 548 -> 532 s and 678 -> 656 s). Results bit-identical.
Issue 30's 45 s is not met: the quiet machine's 71.9 s would be some 67 s. Not kept: numba's types
hashing once (``Type.__hash__`` kept in the type, left out of its pickle: no gain beyond the noise:
85.6 and 86.0 s with it in the same two rounds, and it patches numba's every type); dropping
numba's LLVM-lock events (they only feed numba's ``metadata["timers"]``: not the same semantics).
Left: the typed rewrites are skipped only for a kernel without reference counting or strings (an
array expression allocates); the untyped rewrites (constant getitems: they fire), SSA and the
lifetimes they recompute stay. A numba upgrade must recheck the pass classes `_idle_passes` names
and when each cannot change a kernel (tests/test_jit_passes.py compares the IR of both pipelines on
sample kernels).

Session 32 (numba 0.68.1): a cProfile of Zombie 40,000's cold compile (a fresh process, an empty
cache, CPU-time timer, load 6-9: 485 s profiled) by numba's functions, own time: the variables' uses
(``_rec_list_vars``) 25 s (41 s with callees, 24 s of it for the post-processing's lifetimes,
``PostProcessor.run`` 40 s in 2,074 runs: 5 per light kernel version, plus the one with ``del``s
before lowering), type hashing 21 s (41 s), the events' ``notify`` 10 s (the broadcasts 28 s with
callees), then the typing of calls to functions (``BaseFunction.get_call_type``, 13,591 calls, 88 s
with callees: 148,000 template ``apply``s, 134,000 failures recorded, 23 s of nested compiles of
``@overload`` implementations), ``lower_inst`` 142 s with callees, llvmlite's calls into LLVM 29 s
own time; bytecode to IR 34 s (``peep_hole_delete_with_exit`` 6 s). Kept, each the same IR as
numba's own (tests/test_jit_lifetimes.py, test_jit_call_types.py, test_jit_peephole.py,
test_jit_events.py): the lifetimes after a post-processing without ``del``s worked out when first
read (`_lazy_lifetimes`: ``compute_use_defs`` 5 -> 1 per light kernel version); the signature of a
typed call remembered per function type, argument types, flags and target (`_remembered_call_types`:
Out West's compile types 9,298 calls, 583 of them anew); the ``with``-exit peephole skipped for code
without ``with`` (`_with_less_peephole`); a ``TimingListener``'s book-keeping done in numba's event
broadcast (`_inline_timers`). Measured side by side with the base (fresh processes, empty caches,
CPU seconds of the whole process, 2 shared cores): Zombie 40,000, the lifetimes alone, 87.7 -> 85.7
s (load 10-11, wall 547 -> 536 s); all four, 96.0 -> 81.3 s (load 8-10, wall 524 -> 475 s) and 98.4
-> 87.3 s (load 6-7, wall 437 -> 412 s); Apocalypse, all four, 121.4 -> 103.5 s (load 8, wall 583 ->
496 s): -11 to -15% (the three after the lifetimes not measured one by one). Results bit-identical;
the sample kernels' IR the same as numba's, and games/s on one thread the same within the noise
(Zombie 40,000 four players, best of 3 x 2,000 games, two alternated rounds at load 4-5: 1,016 and
1,245 -> 1,188 and 1,167). Quiet, Zombie 40,000's 64 s would be some 55-57 s. Not a lever: Zombie
40,000 compiles 351 versions of 351 functions and Apocalypse 396 of 396 (no duplicate specialisation
left to merge). Left, by the same profile: type hashing (a game's state type hashes its hundreds of
members; session 31's cached hash did not pay), the lowering itself (``lower_inst``, llvmlite
building IR text), the typing of calls to kernels (the dispatcher's own template) and the LLVM
passes. Issue 30's 45 s is not met. A numba upgrade must recheck ``PostProcessor.run`` and the
readers of ``block_entry_vars``, ``BaseFunction.get_call_type`` and what its templates read,
``peep_hole_delete_with_exit`` and the opcodes that make ``$setup_with_exitfn``, ``event.broadcast``
and ``TimingListener``.

Session 33 (numba 0.68.1, llvmlite 0.50.0; a machine about twice as fast: quiet, Zombie 40,000
28.0 s, Apocalypse 37.3 s): a sampling profile (py-spy, 100 Hz, a fresh process, an empty cache,
load 4-5; each sample given to the innermost numba pass on its stack, LLVM's steps by their
caller) of Apocalypse's cold compile: numba's lowering to LLVM IR (Python) 29%, the entry point's
module passes 15%, typing 12%, the kernels' function passes 9.5%, machine code 7%, the IR as text
(llvmlite's Python) 6%, bytecode to IR 6%, start-up and imports 5.5%, numba's other passes 4.5%,
ABI sizes 2%, parsing the IR 2%, linking 1%, the cache write 1%; Zombie 40,000 (50 Hz, the same
way) much the same: lowering 30%, typing 13%, start-up 10%, function passes 9%, module passes 8%,
machine code 6%. Inside the lowering, array indexing (``getitem``/``setitem``) 8 points, calls to
kernels 4: spread over every instruction of every kernel. Kept, each with a test against numba's
or llvmlite's own: llvmlite's ABI size and alignment of a type remembered (`_remembered_abi_sizes`:
each ask wrote and parsed a module, a `ByRef` struct of some 600 members at every kernel's
argument, 2% of the profile); a `ByRef`'s hash worked out once (numba hashes it at every member's
typing and lowering lookup: most of the 1.5-2.5% in ``OverloadSelector.find``); entry points without
numba's C-callable wrapper (`_ENTRY`, 1.7-1.8%: lowered with every scalar of the state as an
argument); the kernels' function passes through one pass manager per module, declarations
skipped (`_ByRefLibrary._optimize_functions`, 0.8-1%). Measured side by side with the base (two
checkouts, fresh processes, empty caches, run at the same time, CPU seconds of the whole process,
2 shared cores, load 2-7), all four: Apocalypse 42.1 -> 39.5, 37.5 -> 34.6 and 43.4 -> 40.8 s
(-6%, -8%, -6%; means 41.0 -> 38.3 s, -7%), Zombie 40,000 34.5 -> 31.6, 31.6 -> 29.7 and 37.7 ->
35.4 s (-8%, -6%, -6%; means 34.6 -> 32.2 s, -7%), wall -4 to -11%; the first two alone,
Apocalypse 41.1 -> 38.5 s, Zombie 40,000 34.6 -> 32.5 s (-6% each). Results bit-identical; games/s
on one thread the same within the noise (Zombie 40,000 four players, best of 3 x 2,000 games, six
alternated pairs at load 3.4-4: base 1,416-1,798, mean 1,630; new 1,667-1,770, mean 1,729). Left
and not tried: numba's lowering formats every statement as text for a debug print that is off
(``str(inst)`` in ``Lower.lower_inst``, 0.5-0.9%), the LLVM-lock events (1-1.6%, see session 31),
the entry point's module cloned and written as bitcode for the cache (0.3-1%, needed when a kernel
compiled in full links it: ``SHAMBLE_LIGHT_KERNELS=0``). What is left is numba's Python per
statement (lowering, typing, bytecode: half of the compile) and LLVM's passes over the kernels'
IR. A numba or llvmlite upgrade must recheck ``Type.get_abi_size``/``get_abi_alignment``,
``CPUCodeLibrary._optimize_functions``, ``create_cfunc_wrapper`` and who uses it.

**By reference.** ``by_ref(st)`` in the entry point stores a game's state (or tables) once in a
slot of its stack and returns a `ByRef`: a numba type whose value is one pointer to that struct,
``ref.name`` loading the member through it. Passed down instead of the tuple, every kernel then
takes two pointers where it took some 500 scalars, and numba lowers no ``extractvalue`` or
``insertvalue`` for them; kernels are unchanged (``st.fi[g, f, FI_KIND]`` reads the same), only
the entry point wraps its tuples. A `ByRef` argument is marked ``noalias``, dereferenceable and
not captured (`_mark_by_ref`: true, the struct is written once before the call tree and never
after), so LLVM keeps the members it loads in registers across the array stores between them
and may load them ahead of a branch or a loop. Out West (session 29, 2 shared cores, load 4-5,
the same machine state, fresh processes, empty caches): the entry point's module 6.2 MB of IR
before its passes -> 2.3 MB (273 functions either way), cold compile CPU 74-76 s -> 42-48 s, wall
110-114 s -> 64-71 s; games/s on one thread the same within the machine's noise (kernel only,
five interleaved runs each: -3% to +1.5%); results bit-identical. Zombie 40,000 and Apocalypse
(session 29, base and new compiled side by side, fresh processes, empty caches): cold compile CPU
210 s -> 78 s (load 5-8) and 202 s -> 80 s (load 1-2), games/s on one thread as fast or faster
(four players: Zombie 40,000 1,130 -> 1,230 means of four alternated rounds, Apocalypse
1,139 -> 1,543 means of two), results bit-identical. To apply it to a ruleset: in
its ``play_batch``, ``state, tables = by_ref(st), by_ref(tb)`` and pass those down; a kernel that
builds a new tuple (``st._replace``) or returns the state cannot take a `ByRef` (numba types it
by attribute only: no indexing, unpacking or ``len``). The tests' drivers that call a kernel with
the tuple itself compile a tuple version of it, as before. Zombies!!! (session 30): the same
two lines alone slowed its games by 12-17% (session 29). perf (both bench configs, load 5-7)
showed where: with the tuples LLVM had inlined its distance-field search (``field_run``, some
300 calls a game) into ``steps_from`` and specialised it to unit steps (``field_run`` 22-24% of a
game, ``steps_from`` 20%); by reference it stayed one generic out-of-line search holding 45-47%,
and the Q7 ``hindrance`` (inlined before) became a call per square (8%). What paid (``alwaysinline``
not needed, not tried): the search reads its arrays into locals once, the unweighted fields run a
plain breadth-first search (least costs are unique: the same fields), and ``hindrance`` got one
caller (``hindrance_scores``), which LLVM inlines. Measured (two cold compiles side by side,
fresh processes, empty caches, load 7-9): cold compile CPU 106.5 and 112.0 s -> 67.4 and 69.1 s,
wall 372 and 408 s -> 252 and 288 s (issue 30's 45 s not met); games/s on one thread (3,000
games, best of 3, CPU time, fresh processes alternated both ways, five pairs, load 6-9): base game
1,037 -> 1,135 (means; higher in 4 pairs of 5), Ashes to Ashes mixed 655 -> 789 (higher in 4,
the same in 1); results bit-identical. The lesson for a ruleset by reference: profile it against
the tuples; a hot kernel that the tuples' call cost got inlined and specialised may need that
done by hand.

**Internal kernels.** numba links a callee into its caller as ``linkonce_odr`` (another module
may replace it), so LLVM must keep every callee's signature whole: a kernel that takes a game's
state and tables receives some 500 scalars (each array's pointer, shape and strides) at every
call, read or not. The entry point's library makes every kernel linked into it ``internal``
before its module passes: LLVM then drops the arguments a kernel never reads and inlines what it
calls once. Whole games ran 1.8 times (4 players) and 2.1 times (2 players) faster, to the same
results bit for bit (no fast-math is allowed either way).

**Cache.** Compiled entry points are cached on disk, one folder per kernels package (a ruleset's
``kernels/<id>/``, the shared core ``kernels/w40k/``, the generic modules at the top) named by a
hash of the sources of that package and of every kernels package it imports, sub-folders
included (design.md pitfall: numba's own cache does not notice edits in another file's callee).
The folder does not depend on where the sources live, so a second clone of the same commit loads
the first one's kernels; a playing user compiles only the ruleset in use. ``SHAMBLE_NUMBA_CACHE``
moves the root (default ``$XDG_CACHE_HOME/shamble/numba``, else ``~/.cache/shamble/numba``).

With ``NUMBA_DISABLE_JIT=1`` the kernels run as plain Python on numpy scalars, where unsigned
overflow is the intended wrap-around of the random generator: numpy's overflow warning is
switched off in that mode only.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import inspect
import os
import threading
from pathlib import Path

import numba
import numpy as np
from numba.core import (
    analysis,
    cgutils,
    codegen,
    compiler,
    event,
    interpreter,
    postproc,
    targetconfig,
    transforms,
    typed_passes,
    types,
    untyped_passes,
)
from numba.core.caching import CompileResultCacheImpl, FunctionCache, UserProvidedCacheLocator
from numba.core.registry import CPUDispatcher

llvm_ir = cgutils.ir  # llvmlite's IR classes, as numba imports them (kernels import numpy and numba only)

KERNELS_DIR = Path(__file__).resolve().parent
JIT_DISABLED = bool(numba.config.DISABLE_JIT)
LIGHT_KERNELS = os.environ.get("SHAMBLE_LIGHT_KERNELS", "1") != "0"
if JIT_DISABLED:
    np.seterr(over="ignore")

_OPTIONS = dict(nogil=True, fastmath=False, error_model="numpy", nopython=True, boundscheck=None)
_LIGHT = dict(no_cpython_wrapper=True, no_cfunc_wrapper=True)

# ---------------------------------------------------------------------------------- the cache


def cache_root() -> Path:
    root = os.environ.get("SHAMBLE_NUMBA_CACHE")
    if root:
        return Path(root)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "shamble" / "numba"


def package_of(path: str | Path) -> str:
    """The kernels package a source file belongs to: ``"w40k"``, a ruleset id, or ``""`` for the
    generic modules at the top of ``kernels/``."""
    parts = Path(path).resolve().relative_to(KERNELS_DIR).parts
    return parts[0] if len(parts) > 1 else ""


def _package_files(package: str) -> list[Path]:
    if package == "":
        return sorted(KERNELS_DIR.glob("*.py"))
    return sorted((KERNELS_DIR / package).rglob("*.py"))


def _imported_packages(path: Path) -> set[str]:
    """The kernels packages a source file imports (``kernels.w40k.combat`` -> ``"w40k"``)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_bytes())):
        names = [node.module or ""] if isinstance(node, ast.ImportFrom) else \
            [a.name for a in node.names] if isinstance(node, ast.Import) else []
        for name in names:
            parts = name.split(".")
            if parts[0] == "kernels" and len(parts) > 1 and (KERNELS_DIR / parts[1]).is_dir():
                found.add(parts[1])
    return found


@functools.cache
def package_closure(package: str) -> tuple[str, ...]:
    """The package, the generic modules and every kernels package they import, transitively."""
    seen, todo = {"", package}, [package, ""]
    while todo:
        for path in _package_files(todo.pop()):
            for dep in _imported_packages(path) - seen:
                seen.add(dep)
                todo.append(dep)
    return tuple(sorted(seen))


@functools.cache
def source_hash(package: str) -> str:
    """Hash of every source file the compiled code of ``package`` is made of."""
    digest = hashlib.blake2b(digest_size=8)
    for dep in package_closure(package):
        for path in _package_files(dep):
            digest.update(path.relative_to(KERNELS_DIR).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def cache_dir(package: str) -> Path:
    """The folder of ``package``'s compiled kernels (``zombie40k-1a2b3c4d5e6f7a8b``)."""
    return cache_root() / f"{package or 'generic'}-{source_hash(package)}"


class _KernelCacheLocator(UserProvidedCacheLocator):
    """numba's cache locator with the folder of ``cache_dir``: independent of the clone's path."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = str(cache_dir(package_of(py_file)))

    @classmethod
    def from_function(cls, py_func, py_file):
        try:
            package_of(py_file)
        except ValueError:
            return None  # not a kernels source (a test's driver): numba's own locators
        self = cls(py_func, py_file)
        try:
            self.ensure_cache_path()
        except OSError:
            return None
        return self


class _KernelCacheImpl(CompileResultCacheImpl):
    _locator_classes = [_KernelCacheLocator, *CompileResultCacheImpl._locator_classes]


class _KernelCache(FunctionCache):
    _impl_class = _KernelCacheImpl


def cached_overloads(dispatcher) -> int:
    """Versions of a compiled-in-full kernel held in its disk cache for these sources (read from
    the cache's index, nothing loaded); 0 for any other callable."""
    try:
        return len(dispatcher._cache._cache_file._load_index())
    except Exception:  # noqa: BLE001 - no cache (a test's plain function), or an unreadable index
        return 0


# ---------------------------------------------------------------------------------- numba's flags


def _flag_values(self) -> dict:
    """numba's ``TargetConfig.values``, read from the dict its properties read."""
    values = self._values
    return {name: values.get(name, option._default) for name, option in self.options.items()}


def _flags_equal(self, other):
    if not isinstance(other, targetconfig.TargetConfig):
        return NotImplemented
    return self._values == other._values or self.values() == other.values()


@functools.cache
def _flags_hash(cls) -> int:
    return hash(tuple(sorted(cls.options)))


def _fast_flags() -> None:
    """numba keys each ``@overload``'s implementations by the compile's flags, hashed and compared
    at every typing of a call to one (``min``, ``int``, a numpy function): 68,000 times in a
    Zombie 40,000 compile, each building a dict of the 40-odd options through their properties.
    The same values and the same hash (numba hashes the option *names*, the same for every
    instance of a class), computed without the properties."""
    targetconfig.TargetConfig.values = _flag_values
    targetconfig.TargetConfig.__eq__ = _flags_equal
    targetconfig.TargetConfig.__hash__ = lambda self: _flags_hash(type(self))



# ---------------------------------------------------------------------------------- numba's lifetimes


class _EntryVars(dict):
    """numba's ``func_ir.block_entry_vars`` (the variables alive on entry to each block) as a
    post-processing without ``del``s leaves it (`_lazy_lifetimes`): the entries known before it
    (``before``, a plain dict), and the entries of the blocks it canonicalised, worked out when
    first read from their lifetimes (`postproc.VariableLifetime`, lazy in numba already). The
    next post-processing takes over the entries known (`_known`), not the ones never read: they
    were of blocks it works out again, or of blocks no longer in the IR, whose entries numba's
    readers never look up (they look up the IR's blocks)."""

    def __init__(self, before: dict, lifetime):
        super().__init__(before)
        self._lifetime, self._written = lifetime, {}

    def _fill(self):
        vlt, self._lifetime = self._lifetime, None
        if vlt is None:
            return
        entry = analysis.compute_live_variables(vlt.cfg, vlt._blocks, vlt.usedefs.defmap, vlt.deadmaps.combined)
        for offset, block in vlt._blocks.items():
            dict.__setitem__(self, block, entry[offset])
        dict.update(self, self._written)
        self._written = {}

    def _known(self) -> dict:
        """The entries known without working any out: those before it and those written since."""
        return dict(dict.items(self)) | self._written

    def __setitem__(self, block, names):
        if self._lifetime is None:
            dict.__setitem__(self, block, names)
        else:
            self._written[block] = names

    def __reduce__(self):
        self._fill()
        return dict, (dict(self),)


def _filled(name):
    method = getattr(dict, name)

    def filled(self, *args, **kws):
        self._fill()
        return method(self, *args, **kws)

    filled.__name__ = name
    return filled


for _name in ("__getitem__", "__contains__", "__iter__", "__len__", "__eq__", "__ne__", "__repr__", "__or__",
              "__ior__", "__reversed__", "__delitem__", "keys", "values", "items", "get", "copy", "pop", "popitem",
              "setdefault", "update", "clear"):
    setattr(_EntryVars, _name, _filled(_name))

_numba_post_process = postproc.PostProcessor.run


def _post_process(self, emit_dels: bool = False, extend_lifetimes: bool = False):
    """numba's ``PostProcessor.run``; without ``del``s and outside a generator, the lifetimes it
    records are worked out when first read (`_EntryVars`) instead of at once (`_lazy_lifetimes`)."""
    func_ir = self.func_ir
    known = func_ir.block_entry_vars
    if isinstance(known, _EntryVars):
        known = known._known()
    if emit_dels or func_ir.is_generator:
        func_ir.block_entry_vars = known  # numba's run writes every block's entry into it
        return _numba_post_process(self, emit_dels, extend_lifetimes)
    func_ir.blocks = transforms.canonicalize_cfg(func_ir.blocks)
    vlt = postproc.VariableLifetime(func_ir.blocks)
    func_ir.variable_lifetime = vlt
    func_ir.block_entry_vars = _EntryVars(known, vlt)
    func_ir.generator_info = None
    return None


def _lazy_lifetimes() -> None:
    """numba re-runs its post-processing of a function's IR (``PostProcessor.run``: the CFG
    canonicalised, every variable's uses and definitions, the live and dead maps, the variables
    alive on entry to each block) after most passes that may change the IR, some 5-9 times per
    kernel version, and again with ``del``s before lowering. Without ``del``s only the canonical
    CFG is used at once; the lifetimes (``func_ir.block_entry_vars``; ``variable_lifetime`` is
    lazy in numba already) are read by the generator analysis, numba's object-mode lowering and
    the loop and with lifting, each after a post-processing of its own (a generator's runs at
    once here, as in numba). So they are worked out when first read (`_EntryVars`): a light
    kernel's compile reads them never, and its post-processings before lowering cost the CFG
    only. A numba upgrade must recheck ``PostProcessor.run`` and the readers of
    ``block_entry_vars`` (tests/test_jit_lifetimes.py compares with numba's own)."""
    postproc.PostProcessor.run = _post_process


# ---------------------------------------------------------------------------------- numba's call typing

_numba_call_type = numba.core.types.functions.BaseFunction.get_call_type
_CALL_TYPES: dict = {}  # (function type, typing context, arguments, flags, target) -> signature


def _call_type(self, context, args, kws):
    """numba's ``BaseFunction.get_call_type``, its signature remembered (`_remembered_call_types`)."""
    from numba.core.target_extension import get_local_target

    key = (self, context, tuple(args), tuple(kws.items()), targetconfig.ConfigStack.top_or_none(),
           get_local_target(context))
    try:
        return _CALL_TYPES[key]
    except KeyError:
        pass
    except TypeError:  # an unhashable argument type
        return _numba_call_type(self, context, args, kws)
    sig = _CALL_TYPES[key] = _numba_call_type(self, context, args, kws)
    return sig


def _remembered_call_types() -> None:
    """numba types a call to a function (``min``, ``abs``, ``int``, an operator, a numpy
    function, an ``@overload``) by trying each of its typing templates in turn, every time the
    call is typed or lowered: 13,600 times in a Zombie 40,000 compile, with some 10 templates
    failing per call. The signature found depends only on the function type (interned: one object
    per set of templates), the typing context, the argument types (literal values included), the
    compile's flags and the target; so it is worked out once for each and remembered (a failure,
    which raises, is not). A numba upgrade must recheck ``BaseFunction.get_call_type`` and what its
    templates read (tests/test_jit_call_types.py compares with numba's own)."""
    numba.core.types.functions.BaseFunction.get_call_type = _call_type


# ---------------------------------------------------------------------------------- numba's bytecode

_numba_delete_with_exit = interpreter.peep_hole_delete_with_exit


def _delete_with_exit(func_ir):
    """numba's peephole that drops the variables of a ``with`` block's ``__exit__``; a function
    whose code has no ``with`` has none (`_with_less_peephole`)."""
    if _has_with(func_ir.func_id.code):
        return _numba_delete_with_exit(func_ir)
    return func_ir


@functools.cache
def _has_with(code) -> bool:
    import dis

    return any(ins.opname in _WITH_OPS for ins in dis.get_instructions(code))


def _with_less_peephole() -> None:
    """numba's interpreter runs ``peep_hole_delete_with_exit`` on every function it reads: it
    lists every statement's variables twice (44,600 ``list_vars`` calls, 1% of a Zombie 40,000
    compile) looking for the ``$setup_with_exitfn`` variables that only a ``with`` block's
    bytecode (``BEFORE_WITH``, ``SETUP_WITH``) makes, and otherwise rebuilds every block's body
    from the same statements in the same order. Skipped for code without ``with``: the same IR. A
    numba upgrade must recheck the peephole and which opcodes make its variables."""
    interpreter.peep_hole_delete_with_exit = _delete_with_exit


# ---------------------------------------------------------------------------------- numba's events

_numba_broadcast = event.broadcast


def _broadcast(evt):
    """numba's ``event.broadcast``, with a `TimingListener`'s ``notify`` done in line."""
    listeners = event._registered[evt.kind]
    status = evt._status
    for listener in listeners:
        if type(listener) is not event.TimingListener:
            listener.notify(evt)
        elif status == event.EventStatus.START:
            if listener._depth == 0:
                listener._ts = event.timer()
            listener._depth += 1
        elif status == event.EventStatus.END:
            listener._depth -= 1
            if listener._depth == 0:
                listener._duration = (event.timer() - listener._ts) + getattr(listener, "_duration", 0)
        else:
            raise AssertionError("unreachable")


def _inline_timers() -> None:
    """numba times its compiler and LLVM locks for every compile under way: each nested compile
    installs two ``TimingListener``s, and every call into LLVM (113,000 in a Zombie 40,000 compile)
    broadcasts a start and an end event to the timers of every enclosing compile (1.2 million
    ``notify`` calls, each through ``is_start``/``is_end`` and ``on_start``/``on_end``). The same
    book-keeping, done in the broadcast's loop for an exact ``TimingListener`` (any other listener
    is notified as before). A numba upgrade must recheck ``event.broadcast`` and
    ``TimingListener`` (tests/test_jit_events.py compares with numba's own)."""
    event.broadcast = _broadcast


# ---------------------------------------------------------------------------------- llvmlite's type sizes

_llvmlite_abi_size = llvm_ir.Type.get_abi_size
_llvmlite_abi_alignment = llvm_ir.Type.get_abi_alignment
_ABI: dict = {}  # (what, the type's text, target data) -> its ABI size or alignment


def _abi(what: str, measure):
    def cached(self, target_data, context=None):
        text = str(self)
        if context is not None or "%" in text:  # a named type: its body is its context's
            return measure(self, target_data, context)
        key = (what, text, target_data)
        try:
            return _ABI[key]
        except KeyError:
            value = _ABI[key] = measure(self, target_data)
            return value

    cached.__name__ = f"get_abi_{what}"
    return cached


def _remembered_abi_sizes() -> None:
    """llvmlite works out an LLVM type's ABI size or alignment by writing a module that holds a
    global of that type as text and parsing it (``Type._get_ll_global_value_type``), every time
    it is asked: numba asks at every variable's stack slot (``get_abi_sizeof``), and
    `_mark_by_ref` for every `ByRef` argument of every kernel, a struct of some 600 members
    written out and parsed each time (2-3% of Apocalypse's cold compile). A type written without
    a named (``%``) type is the same type whatever the module, so its size and alignment under
    one data layout are the same numbers: worked out once for its text and the target data (a
    named struct's body belongs to its context: asked anew). A numba or llvmlite upgrade must
    recheck ``Type.get_abi_size``/``get_abi_alignment`` (tests/test_jit_abi.py compares with
    llvmlite's own)."""
    llvm_ir.Type.get_abi_size = _abi("size", _llvmlite_abi_size)
    llvm_ir.Type.get_abi_alignment = _abi("alignment", _llvmlite_abi_alignment)


if not JIT_DISABLED:
    _fast_flags()
    _lazy_lifetimes()
    _remembered_call_types()
    _with_less_peephole()
    _inline_timers()
    _remembered_abi_sizes()

# ---------------------------------------------------------------------------------- light kernels


class _EnvIgnored:
    """The codegen as a light library shows it: a light kernel has no environment to set."""

    def __init__(self, real):
        self._real = real

    def set_env(self, env_name, env):
        pass

    def __getattr__(self, name):
        return getattr(self._real, name)


class _ByRefLibrary(codegen.JITCodeLibrary):
    """A code library whose functions' `ByRef` arguments are marked ``noalias`` (`_mark_by_ref`)."""

    def add_ir_module(self, ir_module):
        _mark_by_ref(ir_module, self._codegen._target_data)
        super().add_ir_module(ir_module)

    def _optimize_functions(self, ll_module):
        """numba's function passes on each function the module defines, through one pass manager
        for the module: numba builds a pass builder and manager for every function, declarations
        included (some 80 us each; a kernel's module declares every callee), and a declaration
        has no body to pass over (LLVM's own module pipeline skips them). The same passes, run on
        each function as LLVM's module pipeline runs one pipeline over every function. With
        numba's pass timings on, numba's own (it records them per function). A numba upgrade must
        recheck ``CPUCodeLibrary._optimize_functions`` (tests/test_jit_function_passes.py)."""
        if numba.config.LLVM_PASS_TIMINGS:
            return super()._optimize_functions(ll_module)
        ll_module.data_layout = self._codegen._data_layout
        passes = None
        for func in ll_module.functions:
            if not func.is_declaration:
                passes = passes or self._codegen._function_pass_manager()
                passes[0].run(func, passes[1])
        return None


class _LightLibrary(_ByRefLibrary):
    """The code library of a kernel called from another kernel: its IR (function passes done) is
    linked into its callers; the module passes and machine code are the entry point's.

    Its finalising links nothing: its module holds its own functions only, and the entry point
    links every light library it reaches once (`_EntryLibrary.finalize`). numba's own way links
    each callee's whole linked module into its caller's, so a kernel ten calls deep was copied
    and verified ten times over. A library that is not an entry point (numba's own, such as a
    ``prange`` body's) gets the whole linked module, made when it asks (`_get_module_for_linking`)."""

    def finalize(self):
        self._raise_if_finalized()
        for library in self._linking_libraries:
            self._reload_init.update(library._reload_init)
        self._finalize_dynamic_globals()
        self._finalized = True

    def _own_module_for_linking(self):
        """Its own functions, exported ones made ``linkonce_odr`` (numba's way of linking)."""
        return super()._get_module_for_linking()

    def _get_module_for_linking(self):
        whole = getattr(self, "_whole_module", None)
        if whole is None:
            whole = self._own_module_for_linking().clone()
            for library in _reached(self._linking_libraries):
                whole.link_in(_module_for_linking(library), preserve=True)
            self._whole_module = whole
        return whole

    def _optimize_final_module(self):
        pass

    def _finalize_final_module(self):
        self._finalize_dynamic_globals()
        self._finalized = True

    def get_pointer_to_function(self, name):
        self._ensure_finalized()
        return 0

    @property
    def codegen(self):
        return _EnvIgnored(self._codegen)


def _reached(libraries) -> list:
    """Every library reached from ``libraries``, each once, in the order found (depth first):
    through light libraries to what they link; any other library is finalised whole already."""
    seen, order, todo = set(), [], list(reversed(libraries))
    while todo:
        library = todo.pop()
        if id(library) in seen:
            continue
        seen.add(id(library))
        order.append(library)
        if isinstance(library, _LightLibrary):
            todo.extend(reversed(library._linking_libraries))
    return order


def _module_for_linking(library):
    if isinstance(library, _LightLibrary):
        return library._own_module_for_linking()
    return library._get_module_for_linking()


class _EntryLibrary(_ByRefLibrary):
    """The code library of an entry point: before the module passes, every kernel linked into it
    becomes internal to it, so that LLVM may drop the arguments a kernel never reads and promote
    the rest (a game's state and tables are some 500 scalars when passed whole)."""

    def finalize(self):
        reached = _reached(self._linking_libraries)
        self._linking_libraries = []  # linked here instead, each once
        for library in reached:
            self._reload_init.update(library._reload_init)
            self._final_module.link_in(_module_for_linking(library), preserve=True)
        return super().finalize()

    def _optimize_final_module(self):
        for function in self._final_module.functions:
            if not function.is_declaration and function.linkage.name == "linkonce_odr":
                function.linkage = "internal"
        super()._optimize_final_module()


def _entry_pipeline(qualname: str):
    class EntryCompiler(compiler.Compiler):
        def __init__(self, typingctx, targetctx, library, *args):
            if library is None:
                library = _EntryLibrary(targetctx.codegen(), qualname)
                library.enable_object_caching()  # as numba's own lowering does, for the disk cache
            super().__init__(typingctx, targetctx, library, *args)

    return EntryCompiler


def _light_pipeline(qualname: str):
    class LightCompiler(compiler.Compiler):
        def __init__(self, typingctx, targetctx, library, *args):
            super().__init__(typingctx, targetctx, library or _LightLibrary(targetctx.codegen(), qualname), *args)

        def define_pipelines(self):
            pipelines = super().define_pipelines()
            if self.state.flags.force_pyobject or not TRIM_PASSES:
                return pipelines
            idle = _idle_passes(self.state.func_id.func)
            if self.state.flags.nrt or _strings(self.state.func_id.func):
                idle -= {typed_passes.NopythonRewrites}
            return [_trimmed(pm, idle) for pm in pipelines]

    return LightCompiler


TRIM_PASSES = os.environ.get("SHAMBLE_TRIM_PASSES", "1") != "0"


def _trimmed(pm, idle: set):
    """numba's pass manager ``pm`` without the passes in ``idle``, and without a dead-branch
    pruning that directly follows an idle pass (it would prune what the one before it pruned)."""
    kept, previous = [], None
    for cls, desc in pm.passes:
        if not (cls in idle or (cls is untyped_passes.DeadBranchPrune and previous in idle)):
            kept.append((cls, desc))
        previous = cls
    pm.passes = kept
    pm.finalize()
    return pm


_WITH_OPS = frozenset({"BEFORE_WITH", "SETUP_WITH", "BEFORE_ASYNC_WITH", "SETUP_ASYNC_WITH"})


def _referenced(func) -> list:
    """What a function's code names: its globals, their attributes it reads (``np.int64``,
    ``units.alive``) and its closure's cells."""
    code, found = func.__code__, []
    names = set(code.co_names)
    for name in names:
        if name in func.__globals__:
            found.append(obj := func.__globals__[name])
            found.extend(getattr(obj, attr) for attr in names if isinstance(obj, type(os)) and hasattr(obj, attr))
    found.extend(cell.cell_contents for cell in func.__closure__ or () if cell.cell_contents is not None)
    return found


@functools.cache
def _idle_passes(func) -> frozenset:
    """The passes of numba's nopython pipeline that cannot change ``func``'s IR, by what its code
    holds; a light kernel's pipeline runs without them (`_light_pipeline`):

    - ``AnnotateTypes``: the types as text for ``inspect_types``, which a light kernel never
      shows (no twin is light; nothing is cached);
    - ``WithLifting``: no ``with`` block;
    - ``InlineClosureLikes`` and ``MakeFunctionToJitFunction``: no closure, lambda or
      comprehension (no ``MAKE_FUNCTION``), no ``reduce``, no list ``append`` (numba's inlined
      array comprehension), no stencil;
    - ``InlineInlinables`` and the dead-branch pruning that follows it (a repeat of the one before
      with nothing changed between): no callee compiled with ``inline=``;
    - ``FindLiterallyCalls``, ``LiteralUnroll``, ``LiteralPropagation``: no ``literally``,
      ``literal_unroll``, ``isinstance`` or ``hasattr``;
    - ``NopythonRewrites`` (dropped by `_light_pipeline` only without reference counting and
      without a string constant): its rewrites make array expressions and constant arrays, which
      allocate (a kernel without reference counting may not), and index by string literals; each
      run also recomputed the variables' lifetimes twice."""
    import dis

    from numba.stencils.stencil import StencilFunc

    code = func.__code__
    ops = {ins.opname for ins in dis.get_instructions(code)}
    objects = _referenced(func)
    refs = {id(obj) for obj in objects}
    idle = {typed_passes.AnnotateTypes}
    if not ops & _WITH_OPS:
        idle.add(untyped_passes.WithLifting)
    if "MAKE_FUNCTION" not in ops and not {"reduce", "append"} & set(code.co_names) and \
            not any(isinstance(obj, StencilFunc) for obj in objects):
        idle |= {untyped_passes.InlineClosureLikes, untyped_passes.MakeFunctionToJitFunction}
    if not any(getattr(obj, "targetoptions", {}).get("inline") not in (None, "never") for obj in objects
               if isinstance(getattr(obj, "targetoptions", None), dict)):
        idle.add(untyped_passes.InlineInlinables)
    if id(numba.literally) not in refs:
        idle.add(untyped_passes.FindLiterallyCalls)
    if id(numba.literal_unroll) not in refs:
        idle.add(untyped_passes.LiteralUnroll)
    if not {"isinstance", "hasattr"} & set(code.co_names):
        idle.add(untyped_passes.LiteralPropagationSubPipelinePass)
    idle.add(typed_passes.NopythonRewrites)  # kept for a kernel with reference counting or strings
    return frozenset(idle)


def _strings(func) -> bool:
    """Does ``func``'s code hold a string constant (its docstring aside)?"""
    consts = func.__code__.co_consts[1 if func.__doc__ is not None else 0:]
    return any(isinstance(const, str) for const in consts)


class _TypeDispatcher(CPUDispatcher):
    """A dispatcher that compiles one version per argument *types*: a call from a kernel with a
    constant (``log_event(..., PH_SHOOTING, ...)``) would otherwise compile a new version for
    each literal value, which multiplied the compile time of the whole game several times."""

    _as_float: frozenset = frozenset()  # the positions and names of its arguments `as_float64`

    def get_call_template(self, args, kws):
        floats = self._as_float
        args = tuple(_widened(a, i in floats) for i, a in enumerate(args))
        kws = {k: _widened(v, k in floats) for k, v in kws.items()}
        return super().get_call_template(args, kws)


def _widened(typ, as_float: bool = False):
    """An argument's type as a kernel is compiled for it: no literal value, and a signed integer
    narrower than 64 bits as ``int64`` (a value read from an ``int16`` or ``int32`` table), so
    that ``models_alive(st, g, u)`` compiles once, not once per integer width of ``u`` (Apocalypse:
    31 of its 446 versions). The call site converts the argument, value for value, as numba does
    for a literal; inside the kernel numba's arithmetic widens narrow integers to ``int64``
    anyway."""
    typ = types.unliteral(typ)
    if as_float and isinstance(typ, (types.Integer, types.Float, types.Boolean)):
        return types.float64
    if isinstance(typ, types.Integer) and typ.signed and typ.bitwidth < 64:
        return types.int64
    return typ


def as_float64(*names: str):
    """A kernel compiled for ``float64`` in the arguments ``names``, whatever number (an integer,
    a float, a bool) its caller passes: the call site converts it, and the kernel compiles once,
    not once per mix of number types (``log_event``'s numbers: 6 versions, ``close_event``'s 8).
    Only for an argument the kernel merely stores into a float array no wider than ``float64``
    (a trace event's numbers): an integer below 2**53 or a float32 converts exactly to
    ``float64``, and from there rounds once to the array's type, as it did directly. Put it
    above ``@njit``; with the JIT off it changes nothing."""

    def mark(kernel):
        if isinstance(kernel, _TypeDispatcher):
            params = list(inspect.signature(kernel.py_func).parameters)
            kernel._as_float = frozenset(names) | {params.index(name) for name in names}
        return kernel

    return mark


class _KernelDispatcher(_TypeDispatcher):
    """A kernel: light inside other kernels, its cached full ``twin`` when called from Python."""

    _twin_lock = threading.Lock()

    def __call__(self, *args, **kws):
        return self.twin(*args, **kws)

    @property
    def twin(self) -> CPUDispatcher:
        with self._twin_lock:
            if self._twin is None:
                self._twin = _full_dispatcher(self.py_func, self._full_options)
            return self._twin


_ENTRY = dict(no_cfunc_wrapper=True)


def _full_dispatcher(func, options: dict) -> CPUDispatcher:
    """A kernel compiled in full: an entry point called from Python (`_entry_pipeline`), cached on
    disk, without numba's C-callable wrapper (`_ENTRY`): that wrapper serves a kernel passed as a
    first-class function or taken as a C function pointer, which no caller here does (the Python
    wrapper calls the kernel, another kernel calls it directly); it was lowered, optimised and
    compiled to machine code for each entry point, with every scalar of a game's state and
    tables as its arguments. The kernel's own code and the Python wrapper are the same."""
    dispatcher = _TypeDispatcher(py_func=func, locals={}, targetoptions=options | _ENTRY,
                                 pipeline_class=_entry_pipeline(func.__qualname__))
    dispatcher._cache = _KernelCache(func)
    return dispatcher


def _decorator(light: bool = True, **extra):
    def wrap(func):
        if JIT_DISABLED:
            return func
        options = {**_OPTIONS, **extra}
        if not (light and LIGHT_KERNELS):
            return _full_dispatcher(func, options)
        kernel = _KernelDispatcher(py_func=func, locals={}, targetoptions=options | _LIGHT,
                                   pipeline_class=_light_pipeline(func.__qualname__))
        kernel._full_options, kernel._twin = options, None
        return kernel

    return wrap


def entry_point(kernel):
    """The dispatcher that runs when ``kernel`` is called from Python (for its ``signatures``
    and ``stats``); ``kernel`` itself when it is compiled in full or the JIT is off."""
    return getattr(kernel, "twin", kernel)


njit = _decorator(_nrt=False)
njit_alloc = _decorator(_nrt=True)  # explicit: an unset flag is inherited from the caller
njit_parallel = _decorator(light=False, parallel=True)
prange = numba.prange

# ---------------------------------------------------------------------------------- by reference


class ByRef(types.Type):
    """A NamedTuple (a game's state, its tables) passed by reference: one pointer to the tuple's
    struct, stored once on the stack of the kernel that made it (`by_ref`), instead of every
    array's meminfo, parent, size, data pointer, shape and strides as arguments of every call.
    ``ref.name`` reads the member from the struct; the reference lives no longer than the call
    of the kernel that made it (never returned, never stored)."""

    def __init__(self, tuple_type):
        self.tuple_type = tuple_type
        digest = hashlib.blake2b(str(tuple_type).encode(), digest_size=6).hexdigest()
        super().__init__(name=f"ByRef({tuple_type.instance_class.__name__}.{digest})")

    @property
    def key(self):
        return self.tuple_type

    def __hash__(self):
        """numba's hash of the type (its key's, the tuple type's: hundreds of members hashed),
        worked out once per instance: numba hashes a `ByRef` at every lookup of a member's
        lowering, data model or typing (`st.fi` in a kernel). Not pickled: a string's hash is
        not the same in another process."""
        try:
            return self._hash
        except AttributeError:
            self._hash = hash(self.tuple_type)
            return self._hash

    def __getstate__(self):
        state = dict(self.__dict__)
        state.pop("_hash", None)
        return state


_BY_REF_STRUCTS: set = set()  # the LLVM struct of every tuple type passed by reference


def _mark_by_ref(ir_module, target_data):
    """Every `ByRef` argument of the module's functions ``noalias`` and dereferenceable: the
    struct it points to is written once, before the call tree it is passed down, and only read
    after, so no store through another pointer (an array's data) touches it, and LLVM may keep
    its members in registers and load them ahead of a branch or a loop."""
    if not _BY_REF_STRUCTS:
        return
    for function in ir_module.functions:
        for argument in function.args:
            struct = getattr(argument.type, "pointee", None)
            if struct in _BY_REF_STRUCTS:
                argument.add_attribute("noalias")
                argument.add_attribute("captures(none)")
                argument.attributes.dereferenceable = struct.get_abi_size(target_data)
                argument.attributes.align = struct.get_abi_alignment(target_data)


def by_ref(tup):
    """A game's state or tables (a NamedTuple) by reference inside a kernel (`ByRef`), stored once
    in a slot of that kernel's stack; in plain Python (the JIT off, a test's ``py_func``) the
    tuple itself."""
    return tup


if not JIT_DISABLED:
    from numba.core.imputils import impl_ret_borrowed, lower_builtin, lower_getattr_generic
    from numba.core.typing.templates import AttributeTemplate, infer_getattr
    from numba.extending import models, register_model, type_callable

    @register_model(ByRef)
    class _ByRefModel(models.PrimitiveModel):
        def __init__(self, dmm, fe_type):
            struct = dmm.lookup(fe_type.tuple_type).get_value_type()
            _BY_REF_STRUCTS.add(struct)
            super().__init__(dmm, fe_type, struct.as_pointer())

    @infer_getattr
    class _ByRefAttributes(AttributeTemplate):
        key = ByRef

        def generic_resolve(self, typ, attr):
            fields = typ.tuple_type.fields
            return typ.tuple_type.types[fields.index(attr)] if attr in fields else None

    @lower_getattr_generic(ByRef)
    def _by_ref_getattr(context, builder, typ, value, attr):
        index = typ.tuple_type.fields.index(attr)
        member = builder.load(cgutils.gep_inbounds(builder, value, 0, index))
        return impl_ret_borrowed(context, builder, typ.tuple_type.types[index], member)

    @type_callable(by_ref)
    def _by_ref_type(context):
        def typer(tup):
            if isinstance(tup, ByRef):
                return tup
            if isinstance(tup, types.BaseNamedTuple):
                return ByRef(tup)
            return None

        return typer

    @lower_builtin(by_ref, types.BaseNamedTuple)
    def _by_ref_make(context, builder, sig, args):
        slot = cgutils.alloca_once(builder, context.get_value_type(sig.args[0]))
        builder.store(args[0], slot)
        return slot

    @lower_builtin(by_ref, ByRef)
    def _by_ref_again(context, builder, sig, args):
        return args[0]
