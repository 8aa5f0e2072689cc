"""Shared test fixtures: paths to the shared rules texts and a small synthetic world generated once."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


@pytest.fixture(scope="session")
def seed_text() -> str:
    """The rules texts (Russian) the engines and tables follow."""
    seeds = sorted((SHARED / "seeds").glob("*.txt"))
    if not seeds:
        pytest.skip(f"rules texts not found under {SHARED / 'seeds'}")
    return "\n".join(p.read_text(encoding="utf-8") for p in seeds)
