"""Imports flow one way: kernels <- sim <- experiments (design.md, style.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = {"kernels": 0, "sim": 1, "experiments": 2}
THIRD_PARTY_IN_KERNELS = {"numpy", "numba", "math", "__future__", "os", "hashlib", "pathlib", "functools", "typing",
                          "ast", "threading"}  # the last two: the cache key and the twin lock of kernels.jit


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def _sources(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_imports_flow_one_way(package):
    for path in _sources(package):
        for name in _imports(path):
            if name in LAYERS:
                assert LAYERS[name] <= LAYERS[package], f"{path.relative_to(ROOT)} imports {name}"


def test_kernels_import_only_numpy_and_numba():
    for path in _sources("kernels"):
        foreign = _imports(path) - THIRD_PARTY_IN_KERNELS - {"kernels"}
        assert not foreign, f"{path.relative_to(ROOT)} imports {sorted(foreign)}"


CORES = {"w40k"}  # shared cores a ruleset may build on (kernels/w40k, sim/w40k)


def _ruleset_packages() -> list[str]:
    return sorted(p.name for p in (ROOT / "sim" / "rulesets").iterdir() if (p / "__init__.py").exists())


def _modules(path: Path) -> set[str]:
    """Full dotted names this file imports."""
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def _ruleset_of_module(name: str) -> str | None:
    parts = name.split(".")
    if parts[:2] == ["sim", "rulesets"] and len(parts) > 2:
        return parts[2]
    if parts[0] == "kernels" and len(parts) > 1 and (ROOT / "kernels" / parts[1]).is_dir() and parts[1] not in CORES:
        return parts[1]
    return None


def test_zombie40k_lives_in_its_own_packages():
    assert "zombie40k" in _ruleset_packages()
    assert (ROOT / "kernels" / "zombie40k" / "turn.py").exists() and (ROOT / "kernels" / "w40k" / "combat.py").exists()


@pytest.mark.parametrize("ruleset", _ruleset_packages())
def test_no_ruleset_imports_another(ruleset):
    for path in [*(ROOT / "sim" / "rulesets" / ruleset).rglob("*.py"), *(ROOT / "kernels" / ruleset).rglob("*.py")]:
        for name in _modules(path):
            other = _ruleset_of_module(name)
            assert other in (None, ruleset), f"{path.relative_to(ROOT)} imports {name} (ruleset {other})"


def test_the_shared_layers_import_no_ruleset():
    """The generic kernels, the 7th-edition core, the generic sim modules and the experiments layer
    reach a ruleset only through sim.ruleset (its registry), never by importing it."""
    shared = [*(ROOT / "kernels").glob("*.py"), *(ROOT / "kernels" / "w40k").rglob("*.py"),
              *(ROOT / "sim").glob("*.py"), *(ROOT / "sim" / "w40k").rglob("*.py"),
              *(ROOT / "experiments").rglob("*.py")]
    for path in shared:
        for name in _modules(path):
            assert _ruleset_of_module(name) is None, f"{path.relative_to(ROOT)} imports {name}"
