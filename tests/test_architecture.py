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
