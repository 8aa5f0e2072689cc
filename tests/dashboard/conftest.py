"""The dashboard tests' shared fixture: a fresh record for each test, named by ``ARBITER_DB``."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty record in the test's folder, and no match opened by the environment."""
    path = tmp_path / "arbiter.db"
    monkeypatch.setenv("ARBITER_DB", str(path))
    monkeypatch.delenv("ARBITER_MATCH", raising=False)
    return path
