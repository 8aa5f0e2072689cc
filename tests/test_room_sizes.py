"""Small rooms: no function over 60 lines and no module over 600 lines in Arbiter's packages (tests aside).

A function that grows past a screen has stopped saying one thing; a module past 600 lines holds more than one
idea. Split them along their real seams (an algorithm's steps, a game's parts of the rules), not by chopping.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("arbiter", "vision", "tracking", "adjudication", "record", "pipeline", "datasets", "evaluation")
PACKAGES += ("dashboard", "cli")
MAX_FUNCTION_LINES = 60
MAX_MODULE_LINES = 600


def _modules() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


def test_every_package_is_measured() -> None:
    assert len(_modules()) > 200


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_a_module_and_its_functions_are_small(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    lines = source.count("\n")
    assert lines <= MAX_MODULE_LINES, f"{path.relative_to(ROOT)} has {lines} lines: split it along its seams"
    long = [
        f"{node.name} ({node.end_lineno - node.lineno + 1} lines, line {node.lineno})"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    ]
    assert not long, f"{path.relative_to(ROOT)}: functions over {MAX_FUNCTION_LINES} lines: {', '.join(long)}"
