"""The compiled-kernel cache (kernels/jit.py): one folder per kernels package keyed by its sources,
not by where they live, so a second clone of the same commit loads the first one's kernels."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from kernels import jit
from sim.play import warm_up
from sim.ruleset import load_config

ROOT = Path(__file__).resolve().parents[1]
LOAD = """
import json, sys, time
t = time.perf_counter()
import sim.play, sim.ruleset
config = sim.ruleset.load_config(sys.argv[1])
loaded = sim.play.warm_up(config)
print(json.dumps({**loaded, "process_s": time.perf_counter() - t, "file": sim.play.__file__}))
"""


def test_a_second_clone_in_another_folder_loads_the_kernels_from_the_cache(tmp_path):
    config = ROOT / "examples" / "configs" / "two_players.toml"
    warm_up(load_config(config))  # compiled (or loaded) in this process: the cache holds the kernels
    clone = tmp_path / "elsewhere" / "shamble"
    for package in ("kernels", "sim", "experiments"):
        shutil.copytree(ROOT / package, clone / package, ignore=shutil.ignore_patterns("__pycache__"))
    for path in (clone / "kernels").rglob("*.py"):
        os.utime(path, (1, 1))  # another checkout: other modification times
    env = dict(os.environ, PYTHONPATH=str(clone))
    done = subprocess.run([sys.executable, "-c", LOAD, str(config)], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=600, check=True)
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert loaded["file"].startswith(str(clone))
    assert loaded["source"] == "disk cache", loaded  # not "compiled"


def test_the_cache_folder_is_named_by_the_package_and_its_sources():
    folder = jit.cache_dir("zombie40k")
    assert folder.parent == jit.cache_root() and folder.name == f"zombie40k-{jit.source_hash('zombie40k')}"
    assert jit.package_closure("zombie40k") == ("", "w40k", "zombie40k")  # the generic modules and the core too
    assert jit.package_closure("w40k") == ("", "w40k")
    assert jit.source_hash("w40k") != jit.source_hash("zombie40k")


def test_a_helper_kernel_called_from_python_runs_its_compiled_twin():
    from kernels.w40k.combat import is_wounded

    assert is_wounded(6, 7, 1) and not is_wounded(5, 6, 0)
    twin = jit.entry_point(is_wounded)
    assert twin is not is_wounded and twin.signatures  # the full compile, made on the first Python call
