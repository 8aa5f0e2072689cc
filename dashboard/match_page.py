"""The match page: live while its video runs, then for review; its inputs, corrections and exports.

Layout only (docs/style.md, point 9): every action is a call into ``dashboard.session``. A video run goes on
in a background thread of the server; the panel polls it once a second through a fragment, so the page never
waits for the pipeline.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import streamlit as st

from arbiter import contract as c
from arbiter.games import BilliardsSpec, GameSpec
from arbiter.tables import POCKET_IDS
from dashboard import forms
from dashboard import session as s
from dashboard import views as v
from dashboard.nav import flash, run_sample
from dashboard.team_desk import team_desk
from vision.calibration import TableCalibration
from vision.overlays import table_overlay

LIVE_REFRESH_S = 1.0  # how often the match panel polls a running video
LIVE_ROWS = 12  # timeline rows shown beside the live frame
DIAGRAM_PX = 640  # width of a shot diagram on the page
STILL_AFTER_S = 0.1  # the review still is taken this long after its event, so the event's caption is drawn


def _live_image(run: s.PipelineRun, spec: GameSpec | None) -> None:
    latest = run.latest_frame()
    if latest is None:
        st.caption("waiting for the first frame ...")
        return
    index, t, image = latest
    profile = run.out / "camera_profile.json"
    if profile.is_file() and isinstance(spec, BilliardsSpec):
        try:
            calib = TableCalibration.load(profile, game=spec.id, image_size=(image.shape[1], image.shape[0]))
            image = table_overlay(image, calib, calib.table)  # the size found
        except (ValueError, KeyError, OSError):
            pass  # a profile being written this instant: the plain frame this time
    st.image(v.rgb(image), caption=f"frame {index} at {t:.2f} s", width="stretch", output_format="JPEG")


def _progress(run: s.PipelineRun) -> s.Progress:
    """The run's progress bar and how it ended, with the lines the record refused."""
    progress = run.progress()
    fraction = progress.fraction
    st.progress(fraction if fraction is not None else 0.0, text=v.progress_text(progress))
    if progress.status == "failed":
        st.error(f"The run stopped: {progress.message}")
    elif progress.status == "source lost":
        st.warning(progress.message)
    elif not progress.active:
        st.success(f"Run {progress.status}: {progress.message}")
    for problem in run.problems[-3:]:
        st.warning(f"a line was not recorded: {problem}")
    return progress


def _review_image(desk: s.Desk, view: s.MatchView) -> None:
    """A still of the annotated video at the last pot (or contact), and the video itself."""
    video = desk.annotated_video(view.id)
    if video is None:
        if isinstance(view.spec, BilliardsSpec):
            st.caption("no annotated video for this match")
        return
    t = desk.review_time(view.id)
    still = v.read_frame_at(str(video), t + STILL_AFTER_S) if t is not None else None
    if still is not None:
        st.image(v.rgb(still), caption=f"annotated, at {t:.2f} s", width="stretch", output_format="JPEG")
    with st.expander("play the annotated video", expanded=still is None):
        st.video(str(video))


def _notices(notices: list[s.Notice]) -> None:
    """What the run said that a person must see before trusting its calls: an unsure calibration first,
    loud; each camera cut and the table found again (no event was made in between)."""
    warning = v.unsure_warning(notices)
    if warning:
        st.warning(warning, icon="⚠️")
    paused = v.pauses(notices)
    if paused:
        st.info(
            "The run paused at camera cuts, making no events until the table was found again:\n\n"
            + "\n\n".join(f"- {p}" for p in paused)
        )


def _panel(desk: s.Desk, match_id: int) -> None:
    """The live part of the match page: the run's notices, progress, the frame, the scoreboard and the
    latest timeline."""
    run = desk.run(match_id)
    view = desk.view(match_id)
    info = view.info
    notices = desk.notices(match_id)
    _notices(notices)
    st.caption(f"source: {info.source or 'none'} · status: {info.status} · {info.lines} recorded lines")
    progress = _progress(run) if run is not None else None
    left, right = st.columns([3, 2])
    with left:
        if run is not None and progress is not None and progress.active:
            _live_image(run, view.spec)
        else:
            _review_image(desk, view)
    with right:
        st.html(v.scoreboard_html(view.board))
        if view.board.last_call:
            st.caption(f"last call: {view.board.last_call}")
        if view.error:
            st.error(f"The rules stop at {view.error}. Correct the line (Correct tab) to go on.")
        st.html(v.timeline_html(view.rows, limit=LIVE_ROWS, spec=view.spec, notices=notices))


@st.fragment(run_every=LIVE_REFRESH_S)
def _live_panel(desk: s.Desk, match_id: int) -> None:
    """The panel, redrawn every second while the video runs; once it has ended, the whole page once."""
    _panel(desk, match_id)
    if not desk.running(match_id):
        st.rerun()


def _tried(action: Callable[..., object], *args: object) -> None:
    """A button's action; its refusal shown, else the page drawn again."""
    try:
        action(*args)
    except s.DeskError as exc:
        st.error(str(exc))
    else:
        st.rerun()


def _controls(desk: s.Desk, view: s.MatchView, running: bool) -> None:
    """Stop a run; finish the match; resume a run that ended early."""
    info, match_id = view.info, view.id
    cols = st.columns(4)
    if running:
        cols[0].button("Stop the run", on_click=desk.stop, args=(match_id,))
        return
    if info.status == "finished":
        return
    if cols[0].button("Finish the match"):
        _tried(desk.finish, match_id)
    run = desk.run(match_id)
    ended_early = run is not None and run.progress().status in ("stopped", "failed", "source lost")
    resumable = (ended_early or info.status == "interrupted") and desk.folder(match_id) is not None
    if resumable and cols[1].button("Resume the run", help="a file: run again, skipping what is recorded"):
        _tried(desk.resume, match_id)


def _heading(view: s.MatchView) -> None:
    """Who plays what, with the options the match was started with and the rules it is refereed by."""
    header = view.header
    st.subheader(f"Match {view.id}: {header.game}, {' v '.join(header.players)}")
    options = ", ".join(f"{k.replace('_', ' ')} {v_}" for k, v_ in header.options.items())
    said = [f"options: {options}" if options else "the rules' default options"]
    if view.spec is not None:
        said.append(f"every call names its rule; [the rules of {view.spec.title}]({v.rules_href(view.spec)})")
    st.caption(" · ".join(said))


def match_page(desk: s.Desk) -> None:
    match_id = st.session_state.get("match")
    if match_id is None:
        st.info(
            "No match is open: start one under New match, run the bundled sample, or open one from History."
        )
        st.button(
            "Run the bundled sample", key="sample_empty", on_click=run_sample, args=(desk,), type="primary"
        )
        return
    try:
        view = desk.view(match_id)
    except s.DeskError as exc:
        st.error(str(exc))
        return
    _heading(view)
    running = desk.running(match_id)
    _controls(desk, view, running)
    if s.is_team(view.spec):
        _team_page(desk, view)
        return
    if running:
        _live_panel(desk, match_id)
    else:
        _panel(desk, match_id)
    tabs = st.tabs(["Timeline", "Shots", "Input", "Correct", "Export"])
    with tabs[0]:
        if running:
            st.caption("the whole timeline is drawn when the run ends; the latest lines are shown above")
        st.html(v.timeline_html(view.rows, spec=view.spec, notices=desk.notices(match_id)))
    with tabs[1]:
        _shots(desk, match_id, view)
    with tabs[2]:
        _inputs(desk, match_id, view)
    with tabs[3]:
        if view.info.status == "finished":
            st.caption("the match is finished: it takes no more lines, and corrections still apply")
        forms.corrections(desk, view)
    with tabs[4]:
        _exports(desk, match_id, view)


def _team_page(desk: s.Desk, view: s.MatchView) -> None:
    """A team match: the timekeeper's desk, then its timeline, corrections and exports."""
    team_desk(desk, view)
    tabs = st.tabs(["Timeline", "Correct", "Export"])
    with tabs[0]:
        st.html(v.timeline_html(view.rows, spec=view.spec))
    with tabs[1]:
        if view.info.status == "finished":
            st.caption("the match is finished: it takes no more lines, and corrections still apply")
        forms.corrections(desk, view)
    with tabs[2]:
        _exports(desk, view.id, view)


def _shots(desk: s.Desk, match_id: int, view: s.MatchView) -> None:
    if not isinstance(view.spec, BilliardsSpec):
        st.caption("shot diagrams are drawn for billiards")
        return
    diagrams = desk.shot_diagrams(match_id)
    if not diagrams:
        st.caption("no shot yet")
    for n, svg in enumerate(diagrams, start=1):
        # an image, not inline HTML: the page's HTML sanitiser would drop the SVG elements
        st.image(
            svg, caption=f"shot {n}: paths, contacts (white rings), cushion hits, pots", width=DIAGRAM_PX
        )
    video = desk.annotated_video(match_id)
    if video is not None:
        total = v.frame_count(str(video))
        if total > 1:
            t = desk.review_time(match_id)
            first = 0 if t is None else min(v.frame_index_at(str(video), t + STILL_AFTER_S), total - 1)
            index = st.slider("annotated frame", 0, total - 1, first, key=f"frame_{match_id}")
            image = v.read_frame(str(video), index)
            if image is not None:
                st.image(v.rgb(image), width="stretch", output_format="JPEG")


def _default_player(view: s.MatchView) -> int:
    players = list(view.header.players)
    nxt = view.board.next
    return players.index(nxt) if nxt in players else 0


def _input_fields(kind: str, spec: GameSpec | None) -> dict[str, object]:
    """The widgets of one input, from the game's own vocabulary (its balls, the table's pockets)."""
    fields: dict[str, object] = {}
    balls = list(spec.balls[1:]) if isinstance(spec, BilliardsSpec) else []  # object balls: cue ball first
    pockets = [p.id for p in spec.table.pockets] if isinstance(spec, BilliardsSpec) else list(POCKET_IDS)
    if kind == "declare":
        fields["ball"] = st.selectbox("ball nominated", balls)
        fields["free_ball"] = st.checkbox("free ball")
    elif kind == "call":
        fields["ball"] = st.selectbox("ball called", ["", *balls])
        fields["pocket"] = st.selectbox("pocket", ["", *pockets])
        fields["safety"] = st.checkbox("a safety")
    elif kind == "choice":
        fields["option"] = st.selectbox("choice", c.CHOICE_OPTIONS)
    elif kind == "roll":
        fields["faces"] = st.text_input("faces", placeholder="3 5 5 1 6")
        fields["thrown"] = st.text_input("dice thrown (ids; empty: all)", placeholder="d1 d2 d3 d4 d5")
    elif kind == "choose":
        fields["category"] = st.text_input("category", placeholder="full_house")
    elif kind == "claim":
        fields["hand"] = st.text_input("hand claimed (five faces)", placeholder="3 3 3 2 2")
        fields["number"] = st.text_input("or a field number (Martinetti)", placeholder="")
    elif kind == "bet":
        fields["face"] = st.number_input("face", 1, 6, 1)
        fields["stake"] = st.number_input("stake", 1, 1000, 1)
    elif kind == "operation":
        fields["op"] = st.selectbox("operation", [o.value for o in c.Op])
    return fields


def _inputs(desk: s.Desk, match_id: int, view: s.MatchView) -> None:
    """What the camera cannot see: nominations, called pockets, choices, dice claims and bets."""
    if view.info.status == "finished":
        st.info("This match is finished: correct it in the Correct tab.")
        return
    kinds = [*(s.input_kinds(view.spec) if view.spec is not None else ()), "event (JSON line)"]
    kind = st.selectbox("input", kinds, key=f"input_kind_{match_id}")
    with st.form(f"input_{match_id}_{kind}", clear_on_submit=False):
        player = st.selectbox("player", view.header.players, index=_default_player(view))
        raw = ""
        if kind.startswith("event"):
            fields: dict[str, object] = {}
            raw = st.text_area("line", placeholder='{"type":"cushion","t":2.5,"ball":"white","side":"top"}')
        else:
            fields = _input_fields(kind, view.spec)
        submitted = st.form_submit_button("Record it")
    if not submitted:
        return
    try:
        if kind.startswith("event"):
            line = s.parse_input_line(raw)
        else:
            t = desk.next_t(match_id) if kind == "roll" else None
            line = s.make_input(kind, player, t=t, **fields)
        desk.add_input(match_id, line)
    except s.DeskError as exc:
        st.error(str(exc))
    else:
        flash("success", f"recorded: {c.to_json(line)}")
        st.rerun()


def _exports(desk: s.Desk, match_id: int, view: s.MatchView) -> None:
    corrected = False
    if view.overrides:
        which = st.radio(
            "export",
            (f"as corrected ({len(view.overrides)} correction(s))", "as recorded"),
            horizontal=True,
            key=f"export_which_{match_id}",
        )
        corrected = which.startswith("as corrected")
    stem = f"arbiter_match_{match_id}" + ("_corrected" if corrected else "")
    cols = st.columns(4)
    formats = (("jsonl", "JSON Lines", "application/x-ndjson"), ("csv", "CSV", "text/csv"))
    for col, (fmt, label, mime) in zip(
        cols, (*formats, ("html", "report (HTML)", "text/html")), strict=False
    ):
        col.download_button(
            f"Download {label}",
            data=partial(desk.export_text, match_id, fmt, corrected),
            file_name=f"{stem}.{fmt}",
            mime=mime,
            key=f"dl_{fmt}_{match_id}",
            on_click="ignore",
        )
    video = desk.annotated_video(match_id)
    if video is not None:
        cols[3].download_button(
            "Download the annotated video",
            data=video.read_bytes,
            file_name=f"{stem}.mp4",
            mime="video/mp4",
            key=f"dl_mp4_{match_id}",
            on_click="ignore",
        )
