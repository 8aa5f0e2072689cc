"""Arbiter's dashboard: a Streamlit page, served on 127.0.0.1 by ``arbiter dashboard``.

Thin by design (docs/style.md, point 9): every action is a call into ``dashboard.session`` (which calls what
the command line calls), every view is laid out by ``dashboard.views``; no rule and no vision lives here.
This file routes between the pages: the match (``match_page``), a new match (``new_match``), the history,
and a game's rules page (``?rules=<game>``, where each call's rule links to).

Settings come from the environment (``arbiter dashboard`` sets them): ``ARBITER_DB`` the record (default
``out/arbiter.db``) and ``ARBITER_MATCH`` a match to open first (``arbiter dashboard --match``, ``--open``).
"""

from __future__ import annotations

import os
from pathlib import Path

import streamlit as st

from arbiter.games import UnknownGameError, game
from dashboard import session as s
from dashboard import views as v
from dashboard.match_page import match_page
from dashboard.nav import goto, run_sample
from dashboard.new_match import new_match_page

DB_ENV, MATCH_ENV = "ARBITER_DB", "ARBITER_MATCH"
PAGES = ("Match", "New match", "History")


@st.cache_resource(show_spinner=False)
def desk_for(db: str) -> s.Desk:
    """One desk per record file for the whole server: runs go on when a tab is closed or reloaded."""
    return s.Desk(Path(db))


def history_page(desk: s.Desk) -> None:
    st.subheader("Past matches")
    matches = desk.matches()
    if not matches:
        st.info("The record holds no match yet.")
    else:
        rows = []
        for m in matches:
            score = ", ".join(f"{p} {n}" for p, n in m.score.items()) if m.score else ""
            rows.append(
                {
                    "id": m.id,
                    "started (UTC)": m.started_at.strftime("%Y-%m-%d %H:%M"),
                    "game": m.game,
                    "players": ", ".join(m.players),
                    "status": m.status,
                    "lines": m.lines,
                    "score": score,
                    "winner": m.winner or ("a draw" if m.over else ""),
                    "source": m.source or "",
                }
            )
        st.table(rows)
        ids = [m.id for m in matches]
        pick = st.selectbox("match", ids, format_func=lambda i: f"match {i}", key="history_pick")
        if st.button("Open it", key="history_open"):
            goto("Match", pick)
            st.rerun()
    review_rows = desk.reviews()
    if review_rows:
        st.subheader("Reviews of an archive")
        st.table(review_rows)
    with st.expander("import a run folder (arbiter run / arbiter demo output)"):
        folder = st.text_input("folder", key="import_folder", placeholder="out/demo")
        if st.button("Import and open", key="import_go"):
            try:
                match_id = desk.open_folder(Path(folder))
            except s.DeskError as exc:
                st.error(str(exc))
            else:
                goto("Match", match_id)
                st.rerun()


def rules_page(game_id: str) -> None:
    """The rules a game is refereed by (``GameSpec.rules_page``), where each call on the timeline links to."""
    try:
        spec = game(game_id)
    except UnknownGameError as exc:
        st.error(str(exc))
        return
    st.subheader(f"The rules of {spec.title}")
    text = s.rules_text(spec)
    if text is None:
        st.info(f"{spec.rules_page} is not written yet: each call still names the rule it applied.")
        return
    st.caption(f"{spec.rules_page}: the rules Arbiter applies, and where it departs from them")
    st.markdown(text)


def _first_match(desk: s.Desk) -> None:
    """The match the command line asked to show, once per browser session."""
    if st.session_state.get("started"):
        return
    st.session_state["started"] = True
    try:
        if os.environ.get(MATCH_ENV):
            match_id = int(os.environ[MATCH_ENV])
            desk.info(match_id)
            goto("Match", match_id)
    except (s.DeskError, ValueError) as exc:
        st.session_state["flash"] = ("error", f"cannot open the match asked for: {exc}")


def main() -> None:
    st.set_page_config(page_title="Arbiter", layout="wide")
    st.html(v.CSS)
    rules = st.query_params.get("rules")
    if rules:
        rules_page(rules)
        return
    db = os.environ.get(DB_ENV) or str(s.DEFAULT_DB)
    try:
        desk = desk_for(db)
    except s.DeskError as exc:
        st.error(str(exc))
        st.stop()
    _first_match(desk)
    if "goto" in st.session_state:
        st.session_state["page"] = st.session_state.pop("goto")
    with st.sidebar:
        st.title("Arbiter")
        st.caption(f"record: {Path(db).name}", help=str(Path(db).resolve()))
        page = st.radio("page", PAGES, key="page")
        st.button("Run the bundled sample", key="sample_side", on_click=run_sample, args=(desk,))
    flash = st.session_state.pop("flash", None)
    if flash is not None:
        getattr(st, flash[0])(flash[1])
    if page == "Match":
        match_page(desk)
    elif page == "New match":
        new_match_page(desk)
    else:
        history_page(desk)


main()
