"""The new-match page: the source, the game with its options as typed widgets, the players, and for a
billiards video the table found on its first frame, automatically or from corners clicked on the frame.

Layout only: the options are the game's own (``GameSpec.options``), checked by ``dashboard.session``; the
clicks come from ``streamlit-image-coordinates`` (its script ships in its wheel: nothing is fetched).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import streamlit as st
from streamlit_image_coordinates import streamlit_image_coordinates

from arbiter.games import GAMES, BilliardsSpec, DiceSpec, GameSpec, TeamSpec
from dashboard import forms
from dashboard import session as s
from dashboard import views as v
from dashboard.nav import goto, run_sample

UPLOAD_TYPES = ["mp4", "mov", "avi", "mkv", "m4v", "webm"]
CLICK_PX = 800  # width the first frame is shown at for clicking the corners
CLICK_JPEG = 90  # the frame is sent as a JPEG at this quality on every click (a PNG of 1280x720 is 3.7 MB)
FOUND_SIZE = "found from the balls"  # the table-size choice that leaves the size to the run

Corners = dict[str, tuple[float, float]]


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
        st.caption(
            "its images are refereed as the frames of one video, in name order at 30 fps; photos of "
            "different moments are refereed one by one with `arbiter run FOLDER --game GAME`"
        )
    try:
        return s.source_spec(kind, value), kind
    except s.DeskError as exc:
        if value or kind in ("sample", "manual"):
            st.warning(str(exc))
        return None, kind


def _first_frame(source: str) -> np.ndarray:
    """The source's first frame, read once per source in this browser session."""
    cached = st.session_state.get("first_frame")
    if cached is None or cached[0] != source:
        cached = (source, s.first_frame(source))
        st.session_state["first_frame"] = cached
    return cached[1]


def _clicks(source: str, size: tuple[int, int]) -> s.CornerClicks:
    stored = st.session_state.get("corner_clicks")
    if stored is None or stored[0] != source:
        return s.CornerClicks(size)
    clicks: s.CornerClicks = stored[1]
    return clicks


def _fit(
    source: str, spec: BilliardsSpec, out: Path, size: str | None, points: dict[str, Any] | None = None
) -> None:
    try:
        st.session_state["calib"] = (source, spec.id, size, s.calibrate(source, spec, out, points, size))
    except s.DeskError as exc:
        st.error(str(exc))


def _clicked_corners(source: str, spec: BilliardsSpec, out: Path, size: str | None) -> None:
    """The first frame to click the four corners on, each click named after the next corner missing."""
    try:
        frame = _first_frame(source)
    except s.DeskError as exc:
        st.error(str(exc))
        return
    clicks = _clicks(source, (frame.shape[1], frame.shape[0]))
    corner = clicks.next_corner
    st.caption(
        f"click {corner}: the {s.CORNER_NAMES[corner]} corner of the playing area (at the cushion noses)"
        if corner
        else "all four corners are clicked: fit the table to them, or clear them to click again"
    )
    shown = v.rgb(s.mark_corners(frame, clicks.points))
    click = streamlit_image_coordinates(
        shown,
        key="corner_click",
        width=CLICK_PX,
        cursor="crosshair",
        image_format="JPEG",
        jpeg_quality=CLICK_JPEG,
    )
    taken = clicks.add(click)
    if taken != clicks:
        st.session_state["corner_clicks"] = (source, taken)
        st.rerun()  # draw the new mark
    left, right = st.columns(2)
    if left.button("Clear the clicks", key="corners_clear"):
        st.session_state["corner_clicks"] = (source, clicks.cleared())
        st.rerun()
    if right.button("Fit the table to the clicked corners", disabled=not clicks.complete, key="corners_fit"):
        _fit(source, spec, out, size, dict(clicks.points))


def _typed_corners(source: str, spec: BilliardsSpec, out: Path, size: str | None) -> None:
    typed = {name: st.text_input(name, key=f"corner_{name}", placeholder="x, y") for name in s.CORNERS}
    if st.button("Fit the table to these corners"):
        try:
            points = {k: s.parse_point(val) for k, val in typed.items() if val.strip()}
            if len(points) < 4:
                raise s.DeskError("type all four corners: bl, br (bottom cushion), tl, tr (top cushion)")
        except s.DeskError as exc:
            st.error(str(exc))
            return
        _fit(source, spec, out, size, points)


def _table_size(spec: BilliardsSpec) -> str | None:
    """The table's size (``arbiter run --table``): one of the game's catalogue, or left to the run."""
    sizes = {FOUND_SIZE: FOUND_SIZE, **{t.name: f"{t.title} ({t.length_mm:.0f} x {t.width_mm:.0f} mm)"
                                        for t in spec.table.sizes}}  # fmt: skip
    chosen = st.selectbox("table size", list(sizes), key="table_size", format_func=sizes.__getitem__)
    return None if chosen == FOUND_SIZE else chosen


def _calibration(
    desk: s.Desk, source: str, spec: BilliardsSpec, size: str | None
) -> tuple[Path | None, Corners | None]:
    """Table calibration over the first frame: automatic, or four corners clicked or typed. Returns the
    profile found (automatic) or the corners fitted (as ``arbiter run --corners``), when the run is to use
    them."""
    st.markdown("**Table calibration**")
    st.caption(
        "Left alone, the run finds the table on its first frames. Check it here first, or click the four "
        "corners of the playing area (cushion noses) on the frame where it is not found."
    )
    out = desk.runs_root / "calibration" / f"{spec.id}_{abs(hash(source)) % 10**8}.json"
    key = (source, spec.id, size)
    if st.button("Find the table on the first frame"):
        with st.spinner("finding the table ..."):
            _fit(source, spec, out, size)
    stored = st.session_state.get("calib")
    failed = stored is not None and stored[:3] == key and not stored[3].ok
    with st.expander("click the corners on the frame", expanded=failed):
        _clicked_corners(source, spec, out, size)
    with st.expander("type the corners (pixels x, y)"):
        _typed_corners(source, spec, out, size)
    stored = st.session_state.get("calib")
    if stored is None or stored[:3] != key:
        return None, None
    preview: s.CalibrationPreview = stored[3]
    sure = preview.ok and "UNSURE" not in preview.message
    (st.success if sure else st.warning)(preview.message)
    st.image(v.rgb(preview.image), width="stretch", output_format="JPEG")
    if preview.ok and st.checkbox("use this calibration for the run", value=True, key="use_calib"):
        return (None, dict(preview.corners)) if preview.corners else (preview.profile, None)
    return None, None


def _players(text: str) -> tuple[str, ...]:
    """The players as typed, for the options that name one (the typed text is checked at the start)."""
    try:
        return s.parse_players(text)
    except s.DeskError:
        return ("A", "B")


def _video_settings(desk: s.Desk, source: str | None, spec: GameSpec) -> dict[str, Any]:
    """For a video: the ball detector, the annotated video, the table's size and calibration (the ``Setup``
    fields they fill)."""
    detector, annotate = "classical", True
    table: dict[str, Any] = {}
    if source is None:
        return {"detector": detector, "annotate": annotate}
    if isinstance(spec, BilliardsSpec):
        detector = st.selectbox("ball detector", ("classical", "yolo"), key="detector")
        annotate = st.checkbox("write the annotated video", True, key="annotate")
        size = _table_size(spec)
        profile, corners = _calibration(desk, source, spec, size)
        table = {"table_size": size, "calibration": profile, "corners": corners}
    elif isinstance(spec, DiceSpec) and desk.reads_dice_from_video:
        annotate = st.checkbox("write the annotated video", True, key="annotate")
        doubt = st.slider(
            "doubt a reading whose face holds less than this share of the six faces' chance",
            0.5, 0.99, s.READER_DOUBT, 0.01, key="unsure_below",
            help="higher: fewer mistakes pass as sure, more throws are reported for the referee to read "
            "(docs/dice.md measures the trade)",
        )  # fmt: skip
        st.caption("dice are read by the trained dice reader; stops, claims and bets go in the Input tab")
        return {"detector": detector, "annotate": annotate, "unsure_below": doubt}
    else:
        st.info(
            f"{spec.id} is a dice game: this installation does not read dice from video; choose no video."
        )
    return {"detector": detector, "annotate": annotate, **table}


def new_match_page(desk: s.Desk) -> None:
    st.subheader("New match")
    st.button(
        "Run the bundled sample (snooker, A v B)",
        key="sample_new",
        on_click=run_sample,
        args=(desk,),
        type="primary",
    )
    source, kind = _source(desk)
    left, right = st.columns(2)
    names = {g: f"{GAMES[g].title} ({g})" for g in s.games()}
    spec = s.spec_of(left.selectbox("game", list(names), key="game", format_func=names.__getitem__))
    players_text = left.text_input("players, in turn order", "A, B", key="players")
    left.caption(
        f"[the rules of {spec.title}]({v.rules_href(spec)}): what the referee applies, and its options"
    )
    with right:
        st.markdown(f"**Options of {spec.title}**")
        values = forms.options_form(spec, _players(players_text))
    if isinstance(spec, TeamSpec):
        source, kind = None, "manual"  # the desk's buttons are the source
        st.info(
            f"{spec.title} is kept at the timekeeper's desk: name the two teams under players (the first "
            "defends the goal at y = 0 in the first period); the events are pressed as buttons on the match "
            "page"
        )
    video = _video_settings(desk, source, spec)
    if not st.button("Start the match", type="primary", key="start"):
        return
    try:
        players = s.parse_players(players_text)
        options = s.options_from_form(spec, values, players)
        setup = s.Setup(spec.id, players, options, **video)
        if source is None and kind != "manual":
            raise s.DeskError("choose a source first (or 'no video' to enter the events by hand)")
        match_id = desk.start(setup, source)
    except s.DeskError as exc:
        st.error(str(exc))
        return
    goto("Match", match_id)
    st.rerun()
