"""Moving between the page's views: a page switch on the next run, and the one-click sample."""

from __future__ import annotations

import streamlit as st

from dashboard import session as s


def goto(page: str, match_id: int | None = None) -> None:
    """Switch page on the next run (a widget's value cannot change once it is drawn in this run)."""
    st.session_state["goto"] = page
    if match_id is not None:
        st.session_state["match"] = match_id


def run_sample(desk: s.Desk) -> None:
    """The bundled sample clip, refereed live (the one-click button of every page)."""
    try:
        match_id = desk.start_sample()
    except s.DeskError as exc:
        st.session_state["flash"] = ("error", str(exc))
        return
    goto("Match", match_id)


def flash(kind: str, message: str) -> None:
    """A message shown at the top of the page on its next run (after ``st.rerun``)."""
    st.session_state["flash"] = (kind, message)
