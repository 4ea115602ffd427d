"""Imports flow one way: kernels <- sim <- experiments (design.md, style.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = {"kernels": 0, "sim": 1, "experiments": 2}
THIRD_PARTY_IN_KERNELS = {"numpy", "numba", "math", "__future__", "os", "hashlib", "pathlib", "functools", "typing",
                          "ast", "threading", "dis", "inspect"}
# the last four, kernels.jit's: the cache key, the twin lock, the bytecode `_idle_passes` reads and
# the argument names `as_float64` marks


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


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _import_graph() -> dict[str, set[str]]:
    """Each module of ours -> the modules of ours it imports, anywhere in the file (a function's
    import too: an import circle hidden in a function body is still a circle). ``from package
    import module`` is an edge to the module; ``from package import name``, to the package."""
    paths = {_module_name(p): p for layer in LAYERS for p in _sources(layer)}
    graph = {}
    for name, path in paths.items():
        found = set()
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found |= {f"{node.module}.{alias.name}" if f"{node.module}.{alias.name}" in paths else node.module
                          for alias in node.names}
        graph[name] = {m for m in found if m in paths and m != name}
    return graph


def _circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan), each a set of modules
    that import one another round a circle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


# Circles that were here before this test; each is to be broken, never added to. A broken one is
# taken off this list (session 28 broke the last two: analyses <-> coop, tune <-> tune_rounds).
KNOWN_CIRCLES: set[frozenset[str]] = set()


def test_the_circle_finder_finds_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert _circles(graph) == [frozenset({"a", "b", "c"})]


def test_no_new_import_circle():
    """No module of ours imports, even inside a function, a module that imports it back, directly
    or round a longer circle (issue 31: report <-> rebalance was one)."""
    circles = _circles(_import_graph())
    new = [sorted(c) for c in circles if c not in KNOWN_CIRCLES]
    assert new == [], f"import circles: {new}"
    gone = [sorted(c) for c in KNOWN_CIRCLES if c not in circles]
    assert gone == [], f"broken, so take them off KNOWN_CIRCLES: {gone}"
