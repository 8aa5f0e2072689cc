"""Driving the dashboard page with Streamlit's AppTest (no browser): the page, and reading what it shows."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = Path(__file__).resolve().parents[2] / "dashboard" / "app.py"
SCRIPT_TIMEOUT_S = 60


def page() -> AppTest:
    """The page, not run yet (a test sets its session state or query first)."""
    return AppTest.from_file(str(APP), default_timeout=SCRIPT_TIMEOUT_S)


def app() -> AppTest:
    """The page, run once, with no exception."""
    at = page()
    at.run()
    assert not at.exception, at.exception
    return at


def html(at: AppTest) -> str:
    """Every HTML block the page wrote, joined."""
    return "\n".join(h.value for h in at.get("html"))


def texts(at: AppTest, kind: str) -> list[str]:
    """The values of every element of one kind (``error``, ``warning``, ``markdown`` ...)."""
    return [e.value for e in getattr(at, kind)]
