"""Shared test fixtures: paths to the shared rules texts and a small synthetic world generated once."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


@pytest.fixture(autouse=True)
def _main_module_kept() -> Iterator[None]:
    """Streamlit's script runner, under ``AppTest``, installs the dashboard as ``sys.modules["__main__"]``
    and leaves it there; a later test that starts spawned processes (the review's local pool) would then
    start each of them by running the dashboard, which fails. The test process's own ``__main__`` is put
    back after every test."""
    main = sys.modules.get("__main__")
    yield
    if main is not None:
        sys.modules["__main__"] = main


@pytest.fixture(scope="session")
def seed_text() -> str:
    """The rules texts (Russian) the engines and tables follow."""
    seeds = sorted((SHARED / "seeds").glob("*.txt"))
    if not seeds:
        pytest.skip(f"rules texts not found under {SHARED / 'seeds'}")
    return "\n".join(p.read_text(encoding="utf-8") for p in seeds)
