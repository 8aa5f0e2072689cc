"""The desk: one record, its video runs, inputs, corrections and exports, shared by every tab of one server.

It composes the rest of the controller: a match is started from a ``Setup`` (``setup``), its video runs in
a ``PipelineRun`` (``run``) recorded line by line by a ``record.recorder.Recorder``, inputs are tried on the
engine before they are recorded (``inputs``), corrections are kept in an ``OverrideStore`` beside the record
and every decision after them is recomputed (``view``), and exports are ``record.export``'s.
"""

from __future__ import annotations

import tempfile
import threading
from datetime import UTC, datetime
from pathlib import Path

from arbiter import contract as c
from arbiter.games import BilliardsSpec, TeamSpec
from dashboard.session import setup as setup_
from dashboard.session.override_store import OverrideStore
from dashboard.session.run import PipelineRun
from dashboard.session.setup import DEFAULT_DB, SAMPLE_SHOT, SAMPLE_VIDEO, DeskError, Setup, spec_of
from dashboard.session.view import MatchView, build_view
from pipeline.table_watch import Notice, read_notices
from record import export, overrides, reviews
from record.diagram import read_tracks, shot_svg, split_shots
from record.overrides import Override, OverrideError
from record.recorder import Recorder
from record.store import MatchInfo, MatchRecord, RecordError
from vision.sources import FrameSource, SourceError

BOOT_S = 1.0  # a roll typed by hand is timed this long after the last recorded line at the latest


class Desk:
    """The dashboard's state, shared by every browser tab of one server (thread-safe): the record, the
    video runs in progress, and the recorder of each open match."""

    def __init__(self, db: Path = DEFAULT_DB, runs_root: Path | None = None) -> None:
        self.db = Path(db)
        try:
            self.record = MatchRecord.open(self.db)
        except RecordError as exc:
            raise DeskError(str(exc)) from None
        self.store = OverrideStore(self.db)
        self.runs_root = runs_root or self.db.parent / "dashboard"
        self._lock = threading.RLock()
        self._runs: dict[int, PipelineRun] = {}
        self._recorders: dict[int, Recorder] = {}
        self._views: dict[int, tuple[tuple[int, int, str], MatchView]] = {}

    def close(self) -> None:
        for run in list(self._runs.values()):
            run.stop()
            run.join(30)
        self.store.close()
        self.record.close()

    @property
    def reads_dice_from_video(self) -> bool:
        """Whether a dice game may be started from a video here (the dice reader is installed)."""
        return setup_.dice_video_available()

    # -- matches --

    def matches(self) -> list[MatchInfo]:
        """Every match of the record, newest first."""
        return list(reversed(self.record.matches()))

    def reviews(self) -> list[dict[str, object]]:
        """The archive reviews recorded into this file (``arbiter review``), newest first, as table rows."""
        return reviews.review_rows(self.record)

    def info(self, match_id: int) -> MatchInfo:
        try:
            return self.record.info(match_id)
        except RecordError as exc:
            raise DeskError(str(exc)) from None

    def folder(self, match_id: int) -> Path | None:
        """The run folder of the match (events.jsonl, tracks.jsonl, annotated.mp4), where it has one."""
        return self.store.folder(match_id)

    def annotated_video(self, match_id: int) -> Path | None:
        folder = self.folder(match_id)
        video = folder / "annotated.mp4" if folder else None
        return video if video is not None and video.is_file() and video.stat().st_size > 0 else None

    def review_time(self, match_id: int) -> float | None:
        """When the annotated video is worth a still: the last pot (its trail and caption on screen), else the
        last contact, else None."""
        rows = [r for r in self.view(match_id).rows if r.t is not None]
        for kinds in (("pocket",), ("ball_ball", "cushion", "pin_down")):
            found = [r.t for r in rows if r.type in kinds]
            if found:
                return found[-1]
        return None

    def notices(self, match_id: int) -> list[Notice]:
        """What the match's run said (``notices.jsonl``: an unsure calibration, a camera cut, the table found
        again), read as it is written; none for a match with no run folder."""
        folder = self.folder(match_id)
        return read_notices(folder / "notices.jsonl") if folder is not None else []

    def tracks(self, match_id: int) -> Path | None:
        folder = self.folder(match_id)
        path = folder / "tracks.jsonl" if folder else None
        return path if path is not None and path.is_file() else None

    def start(self, setup: Setup, spec: str | None, source_label: str | None = None) -> int:
        """A new match: with ``spec`` a video run in the background, without it a match typed by hand."""
        header = setup.header()
        game = spec_of(setup.game)
        if spec is not None and isinstance(game, TeamSpec):
            raise DeskError(
                f"{setup.game} is kept at the timekeeper's desk, not read from video yet; start it with no "
                "source and press its events as buttons"
            )
        if spec is not None and not isinstance(game, BilliardsSpec) and not self.reads_dice_from_video:
            raise DeskError(
                f"{setup.game} is a dice game and this installation does not read dice from video; "
                "choose 'no video' and enter the rolls by hand"
            )
        if spec is not None:
            try:
                FrameSource(spec)  # a wrong path, a busy camera: said now, before a match is recorded
            except SourceError as exc:
                raise DeskError(str(exc)) from None
        match_id = self.record.start_match(header, source_label or spec or "typed by hand")
        if spec is not None:
            folder = self.runs_root / f"match_{match_id}"
            self.store.set_folder(match_id, folder)
            run = PipelineRun(match_id, spec, setup, folder, self._record_line)
            with self._lock:
                self._runs[match_id] = run
            run.start()
        return match_id

    def start_sample(self) -> int:
        """The bundled sample clip, refereed as snooker between A and B (one click on the page)."""
        header = c.read_stream(SAMPLE_SHOT / "truth.jsonl")[0]
        setup = Setup(game=header.game, players=header.players, options=dict(header.options))
        return self.start(setup, str(SAMPLE_VIDEO))

    def open_folder(self, folder: Path) -> int:
        """A finished run folder (``arbiter run``/``demo`` output: ``events.jsonl`` beside ``tracks.jsonl``
        and ``annotated.mp4``) as a finished match of the record, refereed as it is recorded; the same folder
        with the same events is the same match (``make demo`` run twice shows one match)."""
        folder = Path(folder)
        events = folder / "events.jsonl" if folder.is_dir() else folder
        folder = events.parent
        if not events.is_file():
            raise DeskError(
                f"{events} not found: give a run folder written by 'arbiter run' or 'arbiter demo'"
            )
        try:
            header, lines = c.read_stream(events)
        except c.ContractError as exc:
            raise DeskError(f"{events}: {exc}") from None
        texts = [c.to_json(x) for x in lines if not isinstance(x, c.Decision)]
        source = str(folder.resolve())
        for info in self.record.matches():
            if info.source == source and self._event_texts(info.id) == texts:
                return info.id
        match_id = self.record.start_match(header, source)
        self.store.set_folder(match_id, folder.resolve())
        for line in lines:
            if not isinstance(line, c.Decision):
                self._record_line(match_id, line)
        self.finish(match_id)
        return match_id

    def resume(self, match_id: int, detector: str = "classical") -> PipelineRun:
        """Go on with a match whose video run ended early (stopped, or the server went down): a file is run
        again from its start and what was recorded is skipped (``record.Recorder``); a camera or stream goes
        on from now, its clock shifted past the last recorded time. The run's camera profile is reused. A
        shot left open by the stop is completed by the resumed run and judged once, whole."""
        info = self.info(match_id)
        if info.status == "finished":
            raise DeskError(f"match {match_id} is finished; start a new match to go on")
        if self.running(match_id):
            raise DeskError(f"match {match_id} is running already")
        spec = info.source or ""
        try:
            source = FrameSource(spec)
        except SourceError as exc:
            raise DeskError(f"cannot resume match {match_id} from its source: {exc}") from None
        header = self.record.header(match_id)
        if not isinstance(spec_of(header.game), BilliardsSpec):
            raise DeskError(f"match {match_id} was typed by hand: there is no video to resume")
        folder = self.folder(match_id) or self.runs_root / f"match_{match_id}"
        self.store.set_folder(match_id, folder)
        profile = folder / "camera_profile.json"
        setup = Setup(
            game=header.game,
            players=header.players,
            options=dict(header.options),
            detector=detector,
            calibration=profile if profile.is_file() else None,
            table_size=header.table,  # the table it was recorded on (None: the run's own calibration)
        )
        with self._lock:
            offset = (self.record.resume_point(match_id) or 0.0) if source.live else 0.0
            recorder = Recorder(self.record, match_id, skip_recorded=not source.live, t_offset=offset)
            recorder.catch_up()
            self._recorders[match_id] = recorder
            # A replayed file finds the open shot's start again; a camera cannot, so it is told of it.
            shot_open = source.live and recorder.shot_open
            run = PipelineRun(match_id, spec, setup, folder, self._record_line, shot_open=shot_open)
            self._runs[match_id] = run
        return run.start()

    def run(self, match_id: int) -> PipelineRun | None:
        with self._lock:
            return self._runs.get(match_id)

    def running(self, match_id: int) -> bool:
        run = self.run(match_id)
        return run is not None and run.progress().active

    def stop(self, match_id: int) -> None:
        run = self.run(match_id)
        if run is not None:
            run.stop()

    def finish(self, match_id: int) -> None:
        """Close the match: it takes no more lines (corrections still apply)."""
        if self.running(match_id):
            raise DeskError("the video run is still going: stop it first")
        with self._lock:
            self._recorders.pop(match_id, None)
        try:
            self.record.finish(match_id)
        except RecordError as exc:
            raise DeskError(str(exc)) from None

    # -- recording --

    def _recorder(self, match_id: int) -> Recorder:
        with self._lock:
            rec = self._recorders.get(match_id)
            if rec is None:
                rec = Recorder(self.record, match_id, skip_recorded=False)
                rec.catch_up()
                self._recorders[match_id] = rec
            return rec

    def _record_line(self, match_id: int, line: object) -> list[int]:
        """Record one line with the decisions it settles (the pipeline's ``on_event`` and every input)."""
        with self._lock:
            return self._recorder(match_id)(line)

    def _event_texts(self, match_id: int) -> list[str]:
        return [r.text for r in self.record.rows(match_id) if r.type != c.Decision.TYPE]

    def add_input(self, match_id: int, line: c.JsonLine) -> MatchView:
        """Record a player's input (or a typed event) after the lines recorded so far, once the engine has
        accepted it on the corrected stream; ``DeskError`` with the rule's reason when it refuses it."""
        info = self.info(match_id)
        if info.status == "finished":
            raise DeskError(
                f"match {match_id} is finished and takes no more lines; correct it with an override instead"
            )
        with self._lock:
            view = self.view(match_id)
            if view.error is None:
                ovs = list(view.overrides)
                base = [self.record.header_text(match_id), *self._event_texts(match_id)]
                trial = overrides.recompute([*base, c.to_json(line)], ovs)
                if trial.error is not None:
                    raise DeskError(f"the rules refuse it: {trial.error.message}")
            try:
                self._record_line(match_id, line)
            except RecordError as exc:
                raise DeskError(str(exc)) from None
        return self.view(match_id)

    def next_t(self, match_id: int) -> float:
        """A time for a line typed by hand that needs one (a roll): the seconds since the match started,
        and at least ``BOOT_S`` after the last timed line recorded."""
        info = self.info(match_id)
        last = max((r.t for r in self.record.rows(match_id) if r.t is not None), default=None)
        since = (datetime.now(UTC) - info.started_at).total_seconds()
        return round(since if last is None else max(since, last + BOOT_S), 3)

    def now_t(self, match_id: int) -> float:
        """The desk's time for a team match: seconds since the match was started (the stream's ``t``)."""
        since = (datetime.now(UTC) - self.info(match_id).started_at).total_seconds()
        return max(0.0, since)

    # -- corrections --

    def override(
        self, match_id: int, op: str, at: int, line: str | None = None, reason: str = ""
    ) -> MatchView:
        """Correct the match: delete, replace or insert a line (numbered as the timeline shows it), recompute
        every decision after it, and keep the correction in the record beside the original lines."""
        try:
            new = Override(op, int(at), line if op != "delete" else None, reason.strip())
        except ValueError as exc:
            raise DeskError(str(exc)) from None
        with self._lock:
            existing = self.store.overrides(match_id)
            base = [self.record.header_text(match_id), *self._event_texts(match_id)]
            try:
                overrides.check(base, [*existing, new])
            except OverrideError as exc:
                raise DeskError(str(exc)) from None
            self.store.add(match_id, new)
            self._views.pop(match_id, None)
        return self.view(match_id)

    def correct(
        self, match_id: int, op: str, at: int, line: c.JsonLine | None = None, reason: str = ""
    ) -> MatchView:
        """``override`` with the new line as the correction form built it (``line_from_fields``)."""
        return self.override(match_id, op, at, c.to_json(line) if line is not None else None, reason)

    # -- what the page shows --

    def view(self, match_id: int) -> MatchView:
        """The match as the page shows it; recomputed only when a line or a correction was added."""
        info = self.info(match_id)
        ovs = self.store.overrides(match_id)
        key = (info.lines, len(ovs), info.status)
        with self._lock:
            cached = self._views.get(match_id)
            if cached is not None and cached[0] == key:
                return cached[1]
        view = build_view(info, self.record.header_text(match_id), self._event_texts(match_id), ovs)
        with self._lock:
            self._views[match_id] = (key, view)
        return view

    def shot_diagrams(self, match_id: int, width_px: int = 420) -> list[str]:
        """One SVG per shot of the corrected stream, with the run's ball paths where it has tracks."""
        view = self.view(match_id)
        if not isinstance(view.spec, BilliardsSpec):
            return []
        table = view.spec
        tracks = self.tracks(match_id)
        frames = read_tracks(tracks) if tracks is not None else None
        return [
            shot_svg(table, shot, frames, width_px, title=f"shot {n}")
            for n, shot in enumerate(split_shots(view.lines), start=1)
        ]

    # -- exports --

    def export_text(self, match_id: int, fmt: str, corrected: bool | None = None) -> str:
        """The match as ``jsonl``, ``csv`` or ``html`` (the report), through ``record.export``. With
        corrections (``corrected`` None: when the match has any) the corrected stream and its recomputed
        decisions are exported; the original lines always are with ``corrected=False``."""
        if fmt not in export.FORMATS:
            raise DeskError(f"unknown export format {fmt!r}; one of {', '.join(export.FORMATS)}")
        view = self.view(match_id)
        if corrected is None:
            corrected = bool(view.overrides)
        tracks = self.tracks(match_id)
        if not corrected:
            if fmt == "html":
                return export.report_html(self.record, match_id, tracks)
            return export.FORMATS[fmt](self.record, match_id)
        with (
            tempfile.TemporaryDirectory(prefix="arbiter-corrected-") as tmp,
            MatchRecord.open(Path(tmp) / "corrected.db") as scratch,
        ):
            source = (
                f"{view.info.source or 'match'}; match {match_id} with {len(view.overrides)} correction(s)"
            )
            new_id = scratch.start_match(view.header, source)
            if view.lines:
                scratch.append_many(new_id, view.lines)
            if fmt == "html":
                return export.report_html(scratch, new_id, tracks)
            return export.FORMATS[fmt](scratch, new_id)
