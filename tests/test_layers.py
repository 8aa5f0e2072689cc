"""The house reads one way: every import follows the flow of docs/architecture.md, and nothing hides.

Values flow sources -> vision -> tracking -> adjudication -> record -> surfaces (``cli``, ``dashboard``), with
``arbiter`` (the shared vocabulary) at the bottom importing nothing of ours, ``datasets`` (synthetic worlds
and real sets) beside the flow, and ``evaluation`` (scores, benchmarks, training) importing anything and
imported only by the command line. These tests read the code's own imports, so a change that runs against
the flow fails here, not in a review.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Each package and the packages it may import (besides itself and third-party code).
ALLOWED: dict[str, frozenset[str]] = {
    "arbiter": frozenset(),
    "vision": frozenset({"arbiter"}),
    "tracking": frozenset({"arbiter", "vision"}),
    "adjudication": frozenset({"arbiter"}),
    "record": frozenset({"arbiter", "adjudication"}),
    "pipeline": frozenset({"arbiter", "vision", "tracking", "adjudication", "record"}),
    "datasets": frozenset({"arbiter", "vision"}),
    "dashboard": frozenset({"arbiter", "vision", "tracking", "adjudication", "record", "pipeline"}),
    "evaluation": frozenset(
        {"arbiter", "vision", "tracking", "adjudication", "record", "pipeline", "datasets"}
    ),
    "cli": frozenset(
        {
            "arbiter",
            "vision",
            "tracking",
            "adjudication",
            "record",
            "pipeline",
            "datasets",
            "dashboard",
            "evaluation",
        }
    ),
}
PACKAGES = frozenset(ALLOWED)


def _modules() -> Iterator[tuple[str, Path]]:
    for package in sorted(PACKAGES):
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            yield name, path


MODULES = dict(_modules())


def _resolve(module: str, node: ast.ImportFrom) -> str:
    """The absolute module an ``ImportFrom`` names (relative imports resolved against ``module``)."""
    if node.level == 0:
        return node.module or ""
    is_package = MODULES[module].name == "__init__.py"
    base = module.split(".")[: len(module.split(".")) - node.level + (1 if is_package else 0)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _imports(module: str) -> Iterator[tuple[str, int, bool]]:
    """(imported module, line, at module level) for every import of ours in ``module``."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    top = {id(n) for n in tree.body}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(module, node)
            names = [f"{target}.{a.name}" if f"{target}.{a.name}" in MODULES else target for a in node.names]
        else:
            continue
        for name in names:
            if name.split(".")[0] in PACKAGES:
                yield name, node.lineno, id(node) in top


def _target_module(name: str) -> str:
    """The module file an imported name lives in (``arbiter.contract.Match`` -> ``arbiter.contract``)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_follow_the_flow(module: str) -> None:
    package = module.split(".")[0]
    against = [
        f"line {line}: {name}"
        for name, line, _ in _imports(module)
        if name.split(".")[0] not in ALLOWED[package] | {package}
    ]
    assert not against, (
        f"{module} imports against the flow ({package} may import {sorted(ALLOWED[package]) or 'nothing'}): "
        + "; ".join(against)
    )


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_import_hides_inside_a_function(module: str) -> None:
    hidden = [f"line {line}: {name}" for name, line, at_top in _imports(module) if not at_top]
    assert not hidden, f"{module} imports inside a function or block (a cycle dodged?): " + "; ".join(hidden)


def test_no_cycle_between_files() -> None:
    graph = {m: {_target_module(n) for n, _, _ in _imports(m)} - {m, ""} for m in MODULES}
    cycles = [c for c in _strongly_connected(graph) if len(c) > 1]
    circles = "; ".join(" <-> ".join(c) for c in cycles)
    assert not cycles, f"files that import each other in a circle: {circles}"


def test_the_allowed_table_has_no_cycle_between_packages() -> None:
    graph = {p: set(ALLOWED[p]) for p in PACKAGES}
    assert not [c for c in _strongly_connected(graph) if len(c) > 1]


def test_evaluation_is_imported_only_by_the_command_line() -> None:
    users = {
        m
        for m in MODULES
        if m.split(".")[0] not in ("evaluation", "cli")
        and any(n.startswith("evaluation") for n, _, _ in _imports(m))
    }
    assert not users, f"evaluation is imported by {sorted(users)}"


def _strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative: the strongly connected components of ``graph``."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                out.append(sorted(component))
    return out
