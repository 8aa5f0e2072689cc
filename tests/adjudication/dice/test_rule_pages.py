"""Each dice game's page (docs/games/<id>.md) against its engine: the rules its decisions cite are numbered
there, and its options (with the registry's defaults) and inputs are all described."""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import adjudication.dice as dice_package
from adjudication.dice.common import FoulRule, Rule
from arbiter.games import DICE_GAMES, DiceSpec, OptionKind

ROOT = Path(__file__).resolve().parents[3]
SECTIONS = (
    "## Rules",
    "## Inputs",
    "## Options",
    "## Fouls the camera sees",
    "## Decisions",
    "## Where Arbiter departs from the rules text",
)


def _engines() -> dict[str, ModuleType]:
    modules = (
        importlib.import_module(f"{dice_package.__name__}.{m.name}")
        for m in pkgutil.iter_modules(dice_package.__path__)
    )
    return {m.GAME: m for m in modules if hasattr(m, "ENGINE")}


ENGINES = _engines()


def _section(page: str, heading: str) -> str:
    start = page.index(heading + "\n")
    end = page.find("\n## ", start + len(heading))
    return page[start : end if end >= 0 else None]


def _cited(module: ModuleType) -> list[Rule]:
    """Every rule the module can cite: its ``Rule`` constants and its foul table's rules."""
    found: list[Rule] = []

    def walk(value: Any) -> None:
        if isinstance(value, Rule):
            found.append(value)
        elif isinstance(value, FoulRule):
            found.append(value.rule)
        elif isinstance(value, Mapping):
            for item in value.values():
                walk(item)
        elif isinstance(value, tuple | list):
            for item in value:
                walk(item)

    for name, value in vars(module).items():
        if not name.startswith("_"):
            walk(value)
    return found


def _default_text(kind: OptionKind, default: Any) -> str | None:
    if kind is OptionKind.PLAYER or default is None:
        return None
    if isinstance(default, bool):
        return str(default).lower()
    return str(default)


@pytest.mark.parametrize("spec", DICE_GAMES, ids=[s.id for s in DICE_GAMES])
def test_the_page_numbers_every_rule_the_engine_cites(spec: DiceSpec) -> None:
    module = ENGINES[spec.id]
    page = (ROOT / spec.rules_page).read_text(encoding="utf-8")
    title = page.splitlines()[0].removeprefix("# ")
    for heading in SECTIONS:
        assert heading + "\n" in page, f"{spec.rules_page} has no section {heading!r}"
    numbers = [int(n) for n in re.findall(r"^(\d+)\. ", _section(page, "## Rules"), flags=re.MULTILINE)]
    assert numbers == list(range(1, len(numbers) + 1)), f"{spec.rules_page}: rules numbered {numbers}"
    cited = _cited(module)
    assert cited, f"{spec.id} cites no rule"
    for rule in cited:
        assert rule.game == title, f"{rule} names the game {rule.game!r}; its page is titled {title!r}"
        assert 1 <= rule.number <= len(numbers), f"{rule}: {spec.rules_page} has rules 1..{len(numbers)}"
    assert spec.rules_page in (module.__doc__ or ""), f"{spec.id}'s docstring does not link its page"


@pytest.mark.parametrize("spec", DICE_GAMES, ids=[s.id for s in DICE_GAMES])
def test_the_page_lists_every_option_with_its_default_and_every_input(spec: DiceSpec) -> None:
    page = (ROOT / spec.rules_page).read_text(encoding="utf-8")
    rows = {
        m.group(1): m.group(2)
        for m in re.finditer(r"^\| `(\w+)` \| ([^|]*) \|", _section(page, "## Options"), flags=re.MULTILINE)
    }
    assert set(rows) == {o.name for o in spec.options}, f"{spec.rules_page} options: {sorted(rows)}"
    for option in spec.options:
        want = _default_text(option.kind, option.default)
        if want is not None:
            assert want in rows[option.name], f"{spec.rules_page}: {option.name} defaults to {want}"
    inputs = _section(page, "## Inputs")
    for name in ("roll", *spec.inputs):
        assert f"`{name}`" in inputs, f"{spec.rules_page} does not say when `{name}` is used"
