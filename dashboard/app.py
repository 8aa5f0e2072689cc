"""Arbiter's dashboard: a Streamlit page, served on 127.0.0.1 by ``arbiter dashboard``.

Thin by design (docs/style.md, point 9): every action is a call into ``dashboard.session`` (which calls what
the command line calls), every view is laid out by ``dashboard.views``; no rule and no vision lives here.
A video run goes on in a background thread of the server; the match panel polls it once a second through a
fragment, so the page never waits for the pipeline.

Settings come from the environment (``arbiter dashboard`` sets them): ``ARBITER_DB`` the record (default
``out/arbiter.db``) and ``ARBITER_MATCH`` a match to open first (``arbiter dashboard --match``, ``--open``).
"""

from __future__ import annotations

import os
from pathlib import Path

import streamlit as st

from arbiter import contract as c
from arbiter import games
from arbiter.tables import POCKET_IDS
from dashboard import session as s
from dashboard import views as v
from vision.calibration import TableCalibration
from vision.overlays import table_overlay

DB_ENV, MATCH_ENV = "ARBITER_DB", "ARBITER_MATCH"
PAGES = ("Match", "New match", "History")
LIVE_REFRESH_S = 1.0  # how often the match panel polls a running video
LIVE_ROWS = 12  # timeline rows shown beside the live frame
DIAGRAM_PX = 640  # width of a shot diagram on the page
STILL_AFTER_S = 0.1  # the review still is taken this long after its event, so the event's caption is drawn
UPLOAD_TYPES = ["mp4", "mov", "avi", "mkv", "m4v", "webm"]


@st.cache_resource(show_spinner=False)
def desk_for(db: str) -> s.Desk:
    """One desk per record file for the whole server: runs go on when a tab is closed or reloaded."""
    return s.Desk(Path(db))


def _goto(page: str, match_id: int | None = None) -> None:
    """Switch page on the next run (a widget's value cannot change once it is drawn in this run)."""
    st.session_state["goto"] = page
    if match_id is not None:
        st.session_state["match"] = match_id


def _run_sample(desk: s.Desk) -> None:
    try:
        match_id = desk.start_sample()
    except s.DeskError as exc:
        st.session_state["flash"] = ("error", str(exc))
        return
    _goto("Match", match_id)


# --- the match: live and review --------------------------------------------------------------------------


def _live_image(desk: s.Desk, match_id: int, run: s.PipelineRun, game_id: str) -> None:
    latest = run.latest_frame()
    if latest is None:
        st.caption("waiting for the first frame ...")
        return
    index, t, image = latest
    profile = run.out / "camera_profile.json"
    if profile.is_file():
        try:
            calib = TableCalibration.load(profile, game=game_id, image_size=(image.shape[1], image.shape[0]))
            image = table_overlay(image, calib, games.billiards(game_id).table)
        except (ValueError, KeyError, OSError):
            pass  # a profile being written this instant: the plain frame this time
    st.image(v.rgb(image), caption=f"frame {index} at {t:.2f} s", width="stretch", output_format="JPEG")


def _panel(desk: s.Desk, match_id: int) -> None:
    """The live part of the match page: progress, the frame, the scoreboard and the latest timeline."""
    run = desk.run(match_id)
    view = desk.view(match_id)
    info = view.info
    st.caption(f"source: {info.source or 'none'} · status: {info.status} · {info.lines} recorded lines")
    progress = run.progress() if run is not None else None
    if progress is not None:
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
    left, right = st.columns([3, 2])
    with left:
        if progress is not None and progress.active:
            _live_image(desk, match_id, run, view.header.game)
        else:
            video = desk.annotated_video(match_id)
            if video is not None:
                t = desk.review_time(match_id)
                still = v.read_frame_at(str(video), t + STILL_AFTER_S) if t is not None else None
                if still is not None:
                    st.image(
                        v.rgb(still),
                        caption=f"annotated, at {t:.2f} s",
                        width="stretch",
                        output_format="JPEG",
                    )
                with st.expander("play the annotated video", expanded=still is None):
                    st.video(str(video))
            elif s.is_billiards(view.header.game):
                st.caption("no annotated video for this match")
    with right:
        st.html(v.scoreboard_html(view.board))
        if view.board.last_call:
            st.caption(f"last call: {view.board.last_call}")
        if view.error:
            st.error(f"The rules stop at {view.error}. Correct the line (Correct tab) to go on.")
        st.html(v.timeline_html(view.rows, limit=LIVE_ROWS))


@st.fragment(run_every=LIVE_REFRESH_S)
def _live_panel(desk: s.Desk, match_id: int) -> None:
    """The panel, redrawn every second while the video runs; once it has ended, the whole page once."""
    _panel(desk, match_id)
    if not desk.running(match_id):
        st.rerun()


def match_page(desk: s.Desk) -> None:
    match_id = st.session_state.get("match")
    if match_id is None:
        st.info(
            "No match is open: start one under New match, run the bundled sample, or open one from History."
        )
        st.button(
            "Run the bundled sample", key="sample_empty", on_click=_run_sample, args=(desk,), type="primary"
        )
        return
    try:
        view = desk.view(match_id)
    except s.DeskError as exc:
        st.error(str(exc))
        return
    info = view.info
    st.subheader(f"Match {info.id}: {view.header.game}, {' v '.join(view.header.players)}")
    running = desk.running(match_id)
    cols = st.columns(4)
    if running:
        cols[0].button("Stop the run", on_click=desk.stop, args=(match_id,))
    elif info.status != "finished":
        if cols[0].button("Finish the match"):
            try:
                desk.finish(match_id)
            except s.DeskError as exc:
                st.error(str(exc))
            else:
                st.rerun()
        run = desk.run(match_id)
        ended_early = run is not None and run.progress().status in ("stopped", "failed", "source lost")
        resumable = (ended_early or info.status == "interrupted") and desk.folder(match_id) is not None
        if resumable and cols[1].button(
            "Resume the run", help="a file: run again, skipping what is recorded"
        ):
            try:
                desk.resume(match_id)
            except s.DeskError as exc:
                st.error(str(exc))
            else:
                st.rerun()
    if running:
        _live_panel(desk, match_id)
    else:
        _panel(desk, match_id)
    tabs = st.tabs(["Timeline", "Shots", "Input", "Correct", "Export"])
    with tabs[0]:
        if running:
            st.caption("the whole timeline is drawn when the run ends; the latest lines are shown above")
        st.html(v.timeline_html(view.rows))
    with tabs[1]:
        _shots(desk, match_id, view)
    with tabs[2]:
        _inputs(desk, match_id, view)
    with tabs[3]:
        _corrections(desk, match_id, view)
    with tabs[4]:
        _exports(desk, match_id, view)


def _shots(desk: s.Desk, match_id: int, view: s.MatchView) -> None:
    if not s.is_billiards(view.header.game):
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


def _inputs(desk: s.Desk, match_id: int, view: s.MatchView) -> None:
    """What the camera cannot see: nominations, called pockets, choices, dice claims and bets."""
    if view.info.status == "finished":
        st.info("This match is finished: correct it in the Correct tab.")
        return
    spec = games.game(view.header.game)
    kinds = [*s.input_kinds(spec.id), "event (JSON line)"]
    kind = st.selectbox("input", kinds, key=f"input_kind_{match_id}")
    with st.form(f"input_{match_id}_{kind}", clear_on_submit=False):
        player = st.selectbox("player", view.header.players, index=_default_player(view))
        fields: dict = {}
        raw = ""
        balls = (
            list(spec.balls[1:]) if isinstance(spec, games.BilliardsSpec) else []
        )  # object balls: cue ball first
        if kind == "declare":
            fields["ball"] = st.selectbox("ball nominated", balls)
            fields["free_ball"] = st.checkbox("free ball")
        elif kind == "call":
            fields["ball"] = st.selectbox("ball called", ["", *balls])
            fields["pocket"] = st.selectbox("pocket", ["", *POCKET_IDS])
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
        elif kind.startswith("event"):
            raw = st.text_area("line", placeholder='{"type":"cushion","t":2.5,"ball":"white","side":"top"}')
        submitted = st.form_submit_button("Record it")
    if submitted:
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
            st.session_state["flash"] = ("success", f"recorded: {c.to_json(line)}")
            st.rerun()


def _corrections(desk: s.Desk, match_id: int, view: s.MatchView) -> None:
    """The referee's override: delete, replace or insert a line; every decision after it is recomputed."""
    if view.overrides:
        st.markdown("**Corrections made** (the recorded lines are kept as they were):")
        for n, o in enumerate(view.overrides, start=1):
            st.markdown(f"{n}. `{o.describe()}`")
    if view.override_error:
        st.error(view.override_error)
    last = view.stream_length
    with st.form(f"override_{match_id}"):
        op = st.radio("correction", ("replace", "delete", "insert"), horizontal=True)
        at = st.number_input("line (as numbered in the timeline)", 2, last + 1, min(2, last + 1))
        line = st.text_area(
            "new line (replace, insert: one JSON line of the contract)",
            placeholder='{"type":"pocket","t":2.617,"ball":"red:12","pocket":"tl"}',
        )
        reason = st.text_input("why (kept with the correction)")
        submitted = st.form_submit_button("Apply the correction")
    current = {row.line_no: row for row in view.rows}
    with st.expander("the lines as they stand, to copy one into the box"):
        st.code(
            "\n".join(f"{n}: {current[n].json}" for n in sorted(current)) or "(no lines)", language="json"
        )
    if submitted:
        before = view.decisions
        try:
            after = desk.override(match_id, op, int(at), line if op != "delete" else None, reason)
        except s.DeskError as exc:
            st.error(str(exc))
        else:
            changed = sum(1 for a, b in zip(before, after.decisions, strict=False) if a != b)
            changed += abs(len(before) - len(after.decisions))
            st.session_state["flash"] = (
                "success",
                f"corrected; {changed} decision(s) recomputed differently",
            )
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
            data=lambda fmt=fmt: desk.export_text(match_id, fmt, corrected),
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


# --- a new match -----------------------------------------------------------------------------------------


def _source(desk: s.Desk) -> tuple[str | None, str | None]:
    """The source box: (FrameSource spec or None for a match typed by hand, a label for the record)."""
    kind = st.radio(
        "source",
        list(s.SOURCE_KINDS),
        format_func=lambda k: s.SOURCE_KINDS[k],
        key="source_kind",
        horizontal=True,
    )
    value = ""
    if kind == "upload":
        upload = st.file_uploader("video", type=UPLOAD_TYPES, key="upload")
        if upload is None:
            return None, "upload"
        folder = desk.runs_root / "uploads"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / Path(upload.name).name
        if not path.exists() or path.stat().st_size != upload.size:
            path.write_bytes(upload.getbuffer())
        value = str(path)
    elif kind == "file":
        value = st.text_input("video file", key="source_file", placeholder="/path/to/match.mp4")
    elif kind == "camera":
        value = str(st.number_input("camera index", 0, 16, 0, key="source_camera"))
    elif kind == "rtsp":
        value = st.text_input("stream URL", key="source_url", placeholder="rtsp://host:554/stream")
    elif kind == "folder":
        value = st.text_input("image folder", key="source_folder")
    try:
        return s.source_spec(kind, value), kind
    except s.DeskError as exc:
        if value or kind in ("sample", "manual"):
            st.warning(str(exc))
        return None, kind


def _calibration(desk: s.Desk, spec: str, game: str) -> Path | None:
    """Table calibration over the first frame: automatic, or four typed corners (``calibrate_manual``)."""
    st.markdown("**Table calibration**")
    st.caption(
        "Left alone, the run finds the table on its first frames. Check it here first, or type the pixel "
        "coordinates of the corners of the playing area (cushion noses) where it is not found."
    )
    out = desk.runs_root / "calibration" / f"{game}_{abs(hash(spec)) % 10**8}.json"
    auto, manual = st.columns(2)
    if auto.button("Find the table on the first frame"):
        with st.spinner("finding the table ..."):
            try:
                st.session_state["calib"] = (spec, game, s.calibrate(spec, game, out))
            except s.DeskError as exc:
                st.error(str(exc))
    with manual.expander("type the corners (pixels x, y)"):
        typed = {name: st.text_input(name, key=f"corner_{name}", placeholder="x, y") for name in s.CORNERS}
        if st.button("Fit the table to these corners"):
            try:
                points = {k: s.parse_point(val) for k, val in typed.items() if val.strip()}
                if len(points) < 4:
                    raise s.DeskError("type all four corners: bl, br (bottom cushion), tl, tr (top cushion)")
                st.session_state["calib"] = (spec, game, s.calibrate(spec, game, out, points))
            except s.DeskError as exc:
                st.error(str(exc))
    stored = st.session_state.get("calib")
    if stored is None or stored[:2] != (spec, game):
        return None
    preview: s.CalibrationPreview = stored[2]
    (st.success if preview.ok else st.warning)(preview.message)
    st.image(v.rgb(preview.image), width="stretch", output_format="JPEG")
    if preview.ok and st.checkbox("use this calibration for the run", value=True, key="use_calib"):
        return preview.profile
    return None


def new_match_page(desk: s.Desk) -> None:
    st.subheader("New match")
    st.button(
        "Run the bundled sample (snooker, A v B)",
        key="sample_new",
        on_click=_run_sample,
        args=(desk,),
        type="primary",
    )
    spec, kind = _source(desk)
    left, right = st.columns(2)
    games = list(s.games())
    game = left.selectbox("game", games, key="game")
    players_text = left.text_input("players, in turn order", "A, B", key="players")
    target = s.target_option(game)
    target_value = 0
    if target is not None:
        label = "best of (frames)" if target == "frames" else "target score"
        target_value = left.number_input(f"{label} (0: the rules' default)", 0, 10_000, 0, key="target")
    options_help = s.game_options(game)
    options_text = right.text_area(
        "other options (JSON)",
        "",
        key="options",
        placeholder='{"first": "B"}',
        help="; ".join(f"{k}: {d}" if d else k for k, d in options_help.items())
        or "this game has no options",
    )
    billiards = s.is_billiards(game)
    detector, annotate, profile = "classical", True, None
    if billiards and spec is not None:
        detector = right.selectbox("ball detector", ("classical", "yolo"), key="detector")
        annotate = right.checkbox("write the annotated video", True, key="annotate")
        profile = _calibration(desk, spec, game)
    elif not billiards and spec is not None:
        if s.dice_video_available():
            annotate = right.checkbox("write the annotated video", True, key="annotate")
            st.caption("dice are read by the trained dice reader; stops, claims and bets go in the Input tab")
        else:
            st.info(
                f"{game} is a dice game: this installation does not read dice from video; choose no video."
            )
    if st.button("Start the match", type="primary", key="start"):
        try:
            options = s.parse_options(options_text)
            if target is not None and target_value:
                options[target] = int(target_value)
            setup = s.Setup(
                game=game,
                players=s.parse_players(players_text),
                options=options,
                detector=detector,
                annotate=annotate,
                calibration=profile,
            )
            if spec is None and kind not in ("manual",):
                raise s.DeskError("choose a source first (or 'no video' to enter the events by hand)")
            match_id = desk.start(setup, spec)
        except s.DeskError as exc:
            st.error(str(exc))
        else:
            _goto("Match", match_id)
            st.rerun()


# --- history ---------------------------------------------------------------------------------------------


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
            _goto("Match", pick)
            st.rerun()
    with st.expander("import a run folder (arbiter run / arbiter demo output)"):
        folder = st.text_input("folder", key="import_folder", placeholder="out/demo")
        if st.button("Import and open", key="import_go"):
            try:
                match_id = desk.open_folder(Path(folder))
            except s.DeskError as exc:
                st.error(str(exc))
            else:
                _goto("Match", match_id)
                st.rerun()


# --- the page --------------------------------------------------------------------------------------------


def _first_match(desk: s.Desk) -> None:
    """The match the command line asked to show, once per browser session."""
    if st.session_state.get("started"):
        return
    st.session_state["started"] = True
    try:
        if os.environ.get(MATCH_ENV):
            match_id = int(os.environ[MATCH_ENV])
            desk.info(match_id)
            _goto("Match", match_id)
    except (s.DeskError, ValueError) as exc:
        st.session_state["flash"] = ("error", f"cannot open the match asked for: {exc}")


def main() -> None:
    st.set_page_config(page_title="Arbiter", layout="wide")
    st.html(v.CSS)
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
        st.button("Run the bundled sample", key="sample_side", on_click=_run_sample, args=(desk,))
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
