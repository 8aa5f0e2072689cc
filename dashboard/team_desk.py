"""The timekeeper's desk of a team match (futsal, rugby-5, rugby-7): the board, and buttons to press in play.

Layout only (docs/style.md, point 9): each button builds one line of the contract in ``dashboard.session``
(``team_line``), stamped with the desk's time, and records it through ``Desk.add_input``, the path every
input of the table games takes: the engine tries it first, so a line the rules cannot use is refused with
their reason and nothing recorded is lost; a line the rules take and refuse in a decision (a time-out not
granted) is recorded and its reason shown. The board (``dashboard.team_views``) is redrawn every second
while the clock, a count or a timer runs.

The buttons act in callbacks, which run before the page is drawn again, so the time a line carries is the
time of the press. ``DESK_SHIFT`` in the session state moves the desk's clock (a test's simulated time).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import streamlit as st

from arbiter import contract as c
from arbiter.games import TeamSpec
from dashboard import session as s
from dashboard.nav import flash
from dashboard.team_views import TEAM_CSS, team_board_html

DESK_SHIFT = "desk_shift_s"  # seconds added to the desk's clock (tests simulate time passing with it)
REFRESH_S = 1.0  # the board is redrawn this often while something on it runs
NO_CARD = ""


def desk_now(desk: s.Desk, match_id: int) -> float:
    """The desk's time: seconds since the match was started (the stream's ``t``)."""
    return desk.now_t(match_id) + float(st.session_state.get(DESK_SHIFT, 0.0))


def _ready_key(match_id: int) -> str:
    return f"td_ready_{match_id}"


def _value(key: str, default: Any = None) -> Any:
    return st.session_state.get(key, default)


def _press(desk: s.Desk, match_id: int, kind: str, fields: dict[str, Any]) -> None:
    """Record the line of a button at the time of the press; say what was recorded, or why not."""
    view = desk.view(match_id)
    try:
        line = s.team_line(kind, s.stamp(desk_now(desk, match_id), view.team), fields)
        after = desk.add_input(match_id, line)
    except s.DeskError as exc:
        flash("error", f"not recorded: {exc}")
        return
    refused = s.refusals(view.decisions, after.decisions)
    if refused:
        flash("warning", "recorded, and refused by the rules: " + " · ".join(refused))
    else:
        flash("success", f"recorded: {c.to_json(line)}")
    if kind == "restart":
        st.session_state.pop(_ready_key(match_id), None)


def _button(
    label: str, key: str, desk: s.Desk, match_id: int, kind: str, fields: Callable[[], dict[str, Any]]
) -> None:
    """A desk button: ``fields`` is read when it is pressed (the page's selections at that moment)."""

    def pressed() -> None:
        _press(desk, match_id, kind, fields())

    st.button(label, key=key, on_click=pressed, width="stretch")


def _board(desk: s.Desk, match_id: int) -> None:
    view = desk.view(match_id)
    if view.team is None:
        st.error("the rules cannot read this match's header: correct it in the Correct tab")
        return
    now = desk_now(desk, match_id)
    state = s.desk_state(view.team, now, _value(_ready_key(match_id)))
    st.html(TEAM_CSS + team_board_html(state))
    if view.board.last_call:
        st.caption(f"last call: {view.board.last_call}")
    if view.error:
        st.error(f"The rules stop at {view.error}. Correct the line (Correct tab) to go on.")


def _ticking(view: s.MatchView) -> bool:
    board = view.team
    return (
        board is not None
        and not board.over
        and (
            board.running
            or board.timeout_ends_t is not None
            or bool(board.send_offs)
            or board.due is not None
        )
    )


def _restart_due(desk: s.Desk, match_id: int, due: c.RestartDue | None) -> None:
    """One press for the restart the rules say is due (its kind, team and place), when one is."""
    if due is None or due.team is None or due.kind == "kick_off":
        st.button("Restart as due", key="td_restart_due", disabled=True, width="stretch")
        return
    team, kind, xy = due.team, due.kind, due.xy_m

    def as_due() -> dict[str, Any]:
        return {"team": team, "kind": kind, "xy_m": xy, "ready_t": _value(_ready_key(match_id))}

    label = f"Restart: {kind.replace('_', ' ')} {team}"
    _button(label, "td_restart_due", desk, match_id, "restart", as_due)


def _ball_ready(desk: s.Desk, match_id: int) -> None:
    """The taker has the ball ready: the four seconds count from the press (kept until the restart)."""

    def ready() -> None:
        st.session_state[_ready_key(match_id)] = round(desk_now(desk, match_id), s.T_PLACES)

    help_ = "the taker has the ball ready: the four seconds count from now"
    st.button("Ball ready (4 s)", key="td_ready", on_click=ready, width="stretch", help=help_)


def _other_restart(desk: s.Desk, match_id: int, spec: TeamSpec, teams: tuple[str, ...]) -> None:
    """A restart other than the one due (the kicking team's choice, a dropped ball), and an injury."""
    left, mid, right = st.columns(3)
    left.selectbox("restart", spec.restarts, key="td_restart_kind")
    mid.selectbox("taken by", teams, key="td_restart_team")

    def other() -> dict[str, Any]:
        return {
            "team": _value("td_restart_team", teams[0]),
            "kind": _value("td_restart_kind", spec.restarts[0]),
            "ready_t": _value(_ready_key(match_id)),
        }

    with right:
        _button("Restart", "td_restart", desk, match_id, "restart", other)
        _button(
            "Whistle: injury", "td_whistle_injury", desk, match_id, "whistle", partial(dict, reason="injury")
        )


def _play_row(desk: s.Desk, view: s.MatchView, spec: TeamSpec) -> None:
    """Kick-off, the restart due (one press), ball ready, and the whistles."""
    match_id, teams = view.id, view.header.players
    cols = st.columns([1, 1, 2, 1, 1, 1])  # the restart due names its kind and team
    for col, team in zip(cols[:2], teams, strict=False):
        with col:
            _button(
                f"Kick-off {team}", f"td_kickoff_{team}", desk, match_id, "kickoff", partial(dict, team=team)
            )
    with cols[2]:
        _restart_due(desk, match_id, view.team.due if view.team is not None else None)
    with cols[3]:
        _ball_ready(desk, match_id)
    for col, reason in zip(cols[4:], ("stoppage", "period_end"), strict=False):
        with col:
            label = f"Whistle: {reason.replace('_', ' ')}"
            _button(label, f"td_whistle_{reason}", desk, match_id, "whistle", partial(dict, reason=reason))
    with st.expander("another restart, an injury"):
        _other_restart(desk, match_id, spec, teams)


def _out_row(desk: s.Desk, view: s.MatchView, spec: TeamSpec) -> None:
    """The ball out: over which line, how far along it, and who touched it last (one button per team)."""
    match_id, teams = view.id, view.header.players
    pitch = s.pitch_m(view.header, spec)
    cols = st.columns([3, 2, 2, 2])
    places = list(s.OUT_PLACES)
    cols[0].selectbox("ball out over", places, format_func=s.OUT_PLACES.__getitem__, key="td_out_place")
    cols[1].number_input("along it (m)", 0.0, max(pitch), pitch[1] / 2, 0.5, key="td_out_along")

    def out(last: str) -> dict[str, Any]:
        place = _value("td_out_place", places[0])
        line = "touch" if place.startswith("touch") else "goal"
        return {
            "line": line,
            "xy_m": s.out_xy(place, float(_value("td_out_along", 0.0)), pitch),
            "last": last,
        }

    for col, team in zip(cols[2:], teams, strict=False):
        with col:
            _button(
                f"Out, last touched {team}",
                f"td_out_{team}",
                desk,
                match_id,
                "ball_out",
                partial(out, team),
            )


def _scored(team: str) -> dict[str, Any]:
    return {"team": team, "by": _value("td_by"), "direct": _value("td_direct", False)}


def _kicked(team: str, good: bool, first_kind: str) -> dict[str, Any]:
    return {"team": team, "kind": _value("td_kick_kind", first_kind), "good": good}


def _score_row(desk: s.Desk, view: s.MatchView, spec: TeamSpec) -> None:
    """A goal or a try for each team (the scorer's number optional), and kicks at goal, good or missed."""
    match_id, teams = view.id, view.header.players
    cols = st.columns(4)
    cols[0].number_input("scorer's number", 0, 99, 0, key="td_by", help="0: not given")
    if spec.score_line == "goal":  # goals that may not be scored directly from some restarts
        cols[1].checkbox("straight from the restart", key="td_direct")
    for col, team in zip(cols[2:], teams, strict=False):
        with col:
            _button(
                f"{spec.score_line.capitalize()} {team}",
                f"td_{spec.score_line}_{team}",
                desk,
                match_id,
                spec.score_line,
                partial(_scored, team),
            )
    if not spec.kicks:
        return
    kick_cols = st.columns([2, 1, 1, 1, 1])
    kick_cols[0].selectbox("kick at goal", spec.kicks, key="td_kick_kind")
    buttons = [(team, good) for team in teams for good in (True, False)]
    for col, (team, good) in zip(kick_cols[1:], buttons, strict=False):
        with col:
            _button(
                f"{team} {'good' if good else 'missed'}",
                f"td_kick_{team}_{'good' if good else 'missed'}",
                desk,
                match_id,
                "kick_at_goal",
                partial(_kicked, team, good, spec.kicks[0]),
            )


def _foul_row(desk: s.Desk, view: s.MatchView, spec: TeamSpec) -> None:
    """A foul: its kind, the card, the player's number, where; one button per offending team."""
    match_id, teams = view.id, view.header.players
    width, length = s.pitch_m(view.header, spec)
    cols = st.columns([2, 2, 1, 1, 1, 1])
    cols[0].selectbox("foul", c.FOUL_KINDS, key="td_foul_kind")
    cols[1].selectbox("card", (NO_CARD, *c.CARDS), format_func=lambda v: v or "no card", key="td_foul_card")
    cols[2].number_input("player", 0, 99, 0, key="td_foul_player", help="shirt number; 0: not given")
    cols[3].number_input("x (m)", 0.0, width, width / 2, 0.5, key="td_foul_x")
    cols[4].number_input("y (m)", 0.0, length, length / 2, 0.5, key="td_foul_y")
    cols[5].checkbox("advantage", key="td_foul_advantage")

    def foul(team: str) -> dict[str, Any]:
        return {
            "team": team,
            "kind": _value("td_foul_kind", c.FOUL_KINDS[0]),
            "card": _value("td_foul_card", NO_CARD),
            "player": _value("td_foul_player"),
            "xy_m": (float(_value("td_foul_x", width / 2)), float(_value("td_foul_y", length / 2))),
            "advantage": _value("td_foul_advantage", False),
        }

    for col, team in zip(st.columns(4), teams, strict=False):
        with col:
            _button(f"Foul by {team}", f"td_foul_{team}", desk, match_id, "foul", partial(foul, team))


def _bench_row(desk: s.Desk, view: s.MatchView, spec: TeamSpec) -> None:
    """Time-outs (where the game has them) and substitutions."""
    match_id, teams = view.id, view.header.players
    cols = st.columns([1, 1, 1, 1, 1, 1])
    if spec.timeouts:
        for col, team in zip(cols[:2], teams, strict=False):
            with col:
                _button(
                    f"Time-out {team}",
                    f"td_timeout_{team}",
                    desk,
                    match_id,
                    "timeout",
                    partial(dict, team=team),
                )
    cols[2].selectbox("substitution for", teams, key="td_sub_team")
    cols[3].number_input("off", 0, 99, 0, key="td_sub_out", help="0: a player joins a team playing short")
    cols[4].number_input("on", 1, 99, 12, key="td_sub_in")
    with cols[5]:
        _button(
            "Substitution",
            "td_sub",
            desk,
            match_id,
            "substitution",
            lambda: {
                "team": _value("td_sub_team", teams[0]),
                "out": _value("td_sub_out"),
                "in": _value("td_sub_in"),
            },
        )


def team_desk(desk: s.Desk, view: s.MatchView) -> None:
    """The desk: the board (redrawn every second while something runs), then the buttons."""
    spec = view.spec
    if not isinstance(spec, TeamSpec):
        return
    if _ticking(view):
        st.fragment(_board, run_every=REFRESH_S)(desk, view.id)
    else:
        _board(desk, view.id)
    if view.info.status == "finished":
        st.info("This match is finished: correct it in the Correct tab.")
        return
    st.markdown("**Play**")
    _play_row(desk, view, spec)
    st.markdown("**Ball out**")
    _out_row(desk, view, spec)
    st.markdown(f"**{'Goals' if spec.score_line == 'goal' else 'Tries and kicks'}**")
    _score_row(desk, view, spec)
    st.markdown("**Fouls and cards**")
    _foul_row(desk, view, spec)
    st.markdown("**Bench**")
    _bench_row(desk, view, spec)
    with st.expander(
        "advanced: type any line of the stream as JSON (a ball on the ceiling, a restart's place)"
    ):
        _typed_line(desk, view.id)


def _typed_line(desk: s.Desk, match_id: int) -> None:
    """Any line of the contract, typed: recorded through the same checks as the buttons."""
    with st.form(f"td_json_{match_id}"):
        text = st.text_area(
            "line", placeholder='{"type":"ball_out","t":0,"line":"ceiling","xy_m":[10,12],"last":"Home"}'
        )
        submitted = st.form_submit_button("Record the line")
    if not submitted:
        return
    try:
        line = s.parse_input_line(text)
        desk.add_input(match_id, line)
    except s.DeskError as exc:
        st.error(str(exc))
        return
    flash("success", f"recorded: {c.to_json(line)}")
    st.rerun()
