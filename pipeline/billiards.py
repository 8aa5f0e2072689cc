"""Wiring, and nothing more: source -> calibration -> detector -> tracker -> events -> files.

``referee_video`` is what ``arbiter run`` and ``arbiter eval`` call. It writes as it goes: every event is
appended and flushed to ``events.jsonl`` the moment it is certain, so a run that is killed loses nothing
already written; ``tracks.jsonl`` holds every frame's balls as tracked, ``detections.jsonl`` every frame's
balls as the detector saw them; ``annotated.mp4`` shows it all.

A run ends one of two ways. The source ends (a file played to its end, or cut by ``max_frames``): a shot
still in play is closed with the balls where they are, as a clip cut mid-shot shows it. Or the run is cut
short (a stop asked, a live source lost): a shot in play is left open, with no ``shot_end`` and so no
decision on half a shot, and the run that resumes completes it: a file is replayed from its start (what
was recorded is skipped, ``record.recorder``), a live source goes on with ``RunOptions.shot_open``.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Generator, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO

import numpy as np

from arbiter import contract as c
from arbiter.games import BilliardsSpec
from arbiter.tables import TableModel
from tracking.events import EventDetector
from tracking.pins import PinWatch
from tracking.reorder import SeenEvent
from tracking.track import TrackView
from tracking.tracker import BallTracker
from vision.calibration import CalibrationError, TableCalibration
from vision.camera_follow import corner_shift
from vision.detectors import Detector, build_detector
from vision.sources import FrameSource
from vision.types import Detections, Frame

from .annotate import Annotator
from .table_watch import Found, Notice, TableChoice, TableWatch, find_table, frame_size, notice


@dataclass(frozen=True)
class RunOptions:
    """What ``arbiter run`` was asked to do."""

    spec: BilliardsSpec
    players: tuple[str, ...] = ("A", "B")
    calibration: Path | None = None  # a saved camera profile; else found automatically
    corners: Mapping[str, tuple[float, float]] | None = None  # typed table points (px): the way round
    table_size: str | None = None  # a size of ``spec.table.sizes``; else the calibration's choice
    watch_cuts: bool = True  # watch for cuts to another camera and for broadcast graphics
    annotate: bool = True
    max_frames: int | None = None
    detector: str = "classical"  # vision.detectors.DETECTORS
    model: Path | None = None  # the yolo detector's ONNX file; default the committed one
    shot_open: bool = False  # a live source resumed mid-shot: that shot goes on, ended once all balls rest


@dataclass
class RunResult:
    frames: int = 0
    bad_frames: int = 0
    events: list[c.Event] = field(default_factory=list)  # as written, after the header
    seconds: float = 0.0
    calibration_seconds: float = 0.0  # of ``seconds``, finding the table before the first frame is refereed
    calibration: TableCalibration | None = None
    track_frames: list[tuple[float, dict[str, tuple[float, float]]]] = field(default_factory=list)
    detections: list[tuple[float, Detections]] = field(default_factory=list)
    latency_s: list[tuple[str, float]] = field(default_factory=list)  # (event type, emitted - happened)
    interrupted: bool = False  # stopped, or the live source lost: cut short, not ended
    shot_open: bool = False  # a shot was in play when it was cut short: left open for the resumed run
    notices: list[Notice] = field(
        default_factory=list
    )  # what the run said: calibration, cuts (notices.jsonl)
    paused_frames: int = 0  # frames not refereed: after a cut, until the table was found again

    @property
    def fps(self) -> float:
        return self.frames / self.seconds if self.seconds > 0 else 0.0

    @property
    def loop_fps(self) -> float:
        """Frames per second once the table was found: what a live camera is refereed at, the one-off
        calibration left out (``fps`` counts it, which weighs on a clip of a few seconds)."""
        loop = self.seconds - self.calibration_seconds
        return self.frames / loop if loop > 0 else 0.0


def _calibrate(
    source: FrameSource, options: RunOptions, say: Callable[[Notice], None]
) -> tuple[Found, list[Frame], Iterator[Frame], int]:
    """The table found (``table_watch.find_table``: its calibration, the frame it was found on, the
    broadcast graphics learnt while searching), the frames to referee first, the rest, and the unreadable
    frames read before them. A file searched past its first frame is replayed from its start, so that no
    frame goes unrefereed; a live source goes on from the frame the table was found on."""
    frames = _chain([], iter(source))  # a generator: closed (the file released) if the file is replayed
    profile = None
    if options.calibration is not None:
        first = next(frames, None)
        if first is None:
            raise CalibrationError("the source gave no frame")
        size = (first.image.shape[1], first.image.shape[0])
        profile = TableCalibration.load(options.calibration, game=options.spec.id, image_size=size)
        frames = _chain([first], frames)
    choice = TableChoice(profile, options.corners, options.table_size)
    found = find_table(frames, options.spec, choice, source.fps or 30.0)
    say(notice(found))
    if found.searched and not source.live:
        frames.close()
        return found, [], iter(source), source.stats.bad_frames
    return found, [found.frame], frames, 0


def referee_video(
    source: FrameSource,
    options: RunOptions,
    out: Path,
    on_frame: Callable[[int, float], None] | None = None,
    on_event: Callable[[c.Event], None] | None = None,
    keep_detections: bool = False,
    stop: Callable[[], bool] | None = None,
    on_notice: Callable[[Notice], None] | None = None,
    on_header: Callable[[c.Match], object] | None = None,
) -> RunResult:
    """Run the whole pipeline over ``source``; write ``events.jsonl``, ``tracks.jsonl``, ``detections.jsonl``,
    ``annotated.mp4``, ``camera_profile.json`` and ``notices.jsonl``.

    ``on_header(header)`` hears the header before any event (``begin_stream``), ``on_frame(frames, fps)``
    after every frame, ``on_event(event)`` as each event is written, ``on_notice(notice)`` as the run says
    something a person must know (the calibration and its verdict, a cut, the table found again);
    ``keep_detections`` keeps every frame's detections in the result (for
    scoring the detector); ``stop()`` is asked before every frame, and True cuts the run short (the
    dashboard's stop button)."""
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    result = RunResult()
    with (out / "notices.jsonl").open("w") as notices_file:
        say = sayer(result, notices_file, on_notice)
        found, head, frames, skipped = _calibrate(source, options, say)
        calib = found.calib
        result.calibration_seconds = time.perf_counter() - started
        calib.save(out / "camera_profile.json")
        result.calibration = calib
        options = replace(
            options, spec=sized_spec(options.spec, calib)
        )  # the run's spec: the table found or given
        fixed = options.calibration is not None or options.corners is not None
        watch = TableWatch(calib, say, fixed, found.graphics, found.frame) if options.watch_cuts else None
        annotator = (
            Annotator(out / "annotated.mp4", source.fps or 30.0, calib, options.spec)
            if options.annotate
            else None
        )
        with (
            (out / "events.jsonl").open("w") as ev_file,
            (out / "tracks.jsonl").open("w") as tr_file,
            (out / "detections.jsonl").open("w") as det_file,
        ):
            begin_stream(ev_file, options, on_header)
            files = _Files(ev_file, tr_file, det_file, annotator, on_event, say)
            run = _Run(options, calib, result, files, watch)
            try:
                _play(
                    run, _chain(head, frames), source.live, _Hooks(stop, on_frame, keep_detections, started)
                )
            finally:
                if annotator is not None:
                    annotator.close()
    result.bad_frames = source.stats.bad_frames - skipped
    result.seconds = time.perf_counter() - started
    return result


@dataclass(frozen=True)
class _Hooks:
    """What ``referee_video``'s caller gave for the frame loop: the stop asked before every frame, the
    progress told after it, whether to keep detections, and when the run started."""

    stop: Callable[[], bool] | None
    on_frame: Callable[[int, float], None] | None
    keep_detections: bool
    started: float


def _play(run: _Run, frames: Iterator[Frame], live: bool, hooks: _Hooks) -> None:
    """Every frame through ``run`` until the source ends, enough are refereed or a stop is asked; then the
    run finishes, or is interrupted when cut short (a stop, a live source lost)."""
    result = run.result
    for frame in frames:
        if _enough(run.options, result) or (hooks.stop is not None and hooks.stop()):
            break
        run.step(frame, hooks.keep_detections)
        if hooks.on_frame:
            hooks.on_frame(result.frames, result.frames / max(time.perf_counter() - hooks.started, 1e-9))
    stopped = hooks.stop is not None and hooks.stop()
    if stopped or (live and not _enough(run.options, result)):  # a live source ends when lost
        run.interrupt(live)
    else:
        run.finish()


def begin_stream(file: IO[str], options: RunOptions, on_header: Callable[[c.Match], object] | None) -> None:
    """The stream's header: it carries the table found or given (``Match.table``), so the engines judge on
    its spots and lines; ``on_header`` hears it first (a match record started before the calibration takes
    its table: ``record.recorder.Recorder``)."""
    header = c.Match(game=options.spec.id, players=options.players, table=options.spec.table.size or None)
    if on_header is not None:
        on_header(header)
    c.append_event(file, header)


def detections_line(index: int, t: float, dets: Detections, image: str | None = None) -> str:
    """One frame of ``detections.jsonl``: every ball the detector saw in it, before any tracking (the
    tracker takes a ball for one once seen in two frames): its look, centre (px, and table mm), radius
    (px), confidence, and whether it was seen only as its motion blur (placed, not named); ``image``: the
    photo's file name, where the frame is a photo (``pipeline.photos``)."""
    balls = [
        {
            "look": look,
            "xy_px": [round(float(p[0]), 2), round(float(p[1]), 2)],
            "xy_mm": [round(float(m[0]), 2), round(float(m[1]), 2)] if np.isfinite(m).all() else None,
            "radius_px": round(float(r), 2),
            "confidence": round(float(q), 3),
            **({"blurred": True} if b else {}),
        }
        for look, p, m, r, q, b in zip(
            dets.class_names,
            dets.xy_px,
            dets.xy_mm,
            dets.radius_px,
            dets.confidence,
            dets.blurred,
            strict=True,
        )
    ]
    named = {"image": image} if image is not None else {}
    return json.dumps({"frame": index, "t": round(t, 6), "balls": balls, **named}, separators=(",", ":"))


def sized_spec(spec: BilliardsSpec, calib: TableCalibration) -> BilliardsSpec:
    """The game's spec on the calibration's table: every geometry after vision is that table's."""
    return spec.resized(calib.table.size) if calib.table.size else spec


def sayer(
    result: RunResult, file: IO[str], on_notice: Callable[[Notice], None] | None
) -> Callable[[Notice], None]:
    """Keep, write (``notices.jsonl``, flushed) and pass on every notice of the run."""

    def say(notice: Notice) -> None:
        result.notices.append(notice)
        file.write(json.dumps(notice.to_dict()) + "\n")
        file.flush()
        if on_notice is not None:
            on_notice(notice)

    return say


# A camera followed this far (share of the table's length) from the calibration the detector was built on
# gets a detector built afresh; nearer, the detections are only placed by the followed calibration.
REBUILD_FROM = 0.004

_PINS_UNSEEN = (
    "the pins are not watched: the {} detector cannot see their heads in this view (too small, or out of "
    "the frame), so pins knocked down are not called; film the table closer or at a higher resolution, or "
    "run with --detector yolo"
)


@dataclass(frozen=True)
class _Stages:
    """The boxes of the flow for one run; pins are watched in five-pins when the detector sees them."""

    detector: Detector
    tracker: BallTracker
    events: EventDetector
    pins: PinWatch | None

    @classmethod
    def build(cls, options: RunOptions, calib: TableCalibration, image_shape: tuple[int, ...]) -> _Stages:
        spec = options.spec
        detector = build_detector(options.detector, spec, calib, image_shape, options.model)
        pins = PinWatch(spec.table) if spec.table.pins and detector.sees_pins else None
        return cls(detector, BallTracker(spec), EventDetector(spec, shot_open=options.shot_open), pins)


@dataclass(frozen=True)
class _Files:
    """Where a run writes as it goes."""

    events: IO[str]
    tracks: IO[str]
    detections: IO[str]
    annotator: Annotator | None
    on_event: Callable[[c.Event], None] | None
    say: Callable[[Notice], None]


class _Run:
    """One run between setup and its end: each ``step`` takes a frame through the stages and writes what it
    gave; ``finish`` flushes the events still held back at the end of the source, ``interrupt`` ends a run
    cut short. With a ``TableWatch``, a cut pauses it: what the stages held back is written, frames go
    unrefereed until the table is found again, and fresh stages take over (a shot in play at the cut goes on,
    and ends when the balls are seen at rest); a camera that moved a little is followed without a pause."""

    def __init__(
        self,
        options: RunOptions,
        calib: TableCalibration,
        result: RunResult,
        files: _Files,
        watch: TableWatch | None,
    ) -> None:
        self.options = options
        self.calib = calib
        self.stages: _Stages | None = None  # built on the first frame, when its size is known
        self.built = calib  # the calibration the stages' detector was built on (``calib`` may follow on)
        self.result = result
        self.files = files
        self.watch = watch
        self.t = 0.0  # the time of the last frame stepped
        self.views: list[TrackView] = []
        self.pins_seen: bool | None = None  # whether the last stages built watch the pins (None: none built)

    def step(self, frame: Frame, keep_detections: bool) -> None:
        self.t = t = frame.t
        if self._paused(frame):
            self._skip(frame, keep_detections)
            return
        if self.stages is None:
            self.stages = _Stages.build(self.options, self.calib, frame.image.shape)
            self.built = self.calib
            self._say_pins(t, self.stages.pins is not None)
        s = self.stages
        dets = self._in_view(self._placed(s.detector.detect(frame.image)), frame.image.shape)
        if keep_detections:
            self.result.detections.append((t, dets))
        self.files.detections.write(detections_line(frame.index, t, dets) + "\n")
        views = self.views = s.tracker.update(t, dets)
        falls = s.pins.update(t, s.detector.last_pins.standing_xy_mm, views) if s.pins else []
        pending = s.pins.pending_from() if s.pins else math.inf
        jumps = s.events.picture_jumps
        self._emit(s.events.update(t, views, s.tracker.gone(), falls, pending))
        for a, b in s.events.take_swaps():  # two balls the tracker named the wrong way round
            s.tracker.swap(a, b)
        if s.events.picture_jumps > jumps and self.watch is not None:
            self.watch.look_now()  # the balls all jumped at once: the camera was knocked
        self.result.track_frames.append((t, {v.ball: v.xy_mm for v in views}))
        positions = {v.ball: (round(v.xy_mm[0], 2), round(v.xy_mm[1], 2)) for v in views}
        line = {"frame": frame.index, "t": round(t, 6), "balls": positions}
        self.files.tracks.write(json.dumps(line, separators=(",", ":")) + "\n")
        if self.files.annotator is not None:
            self.files.annotator.write(frame.image, views, t, s.pins.status() if s.pins else None)
        self.result.frames += 1

    def _say_pins(self, t: float, seen: bool) -> None:
        """Say that five-pins' pins are not watched, once until a view after a cut watches them again."""
        if self.options.spec.table.pins and not seen and self.pins_seen is not False:
            self.files.say(Notice(t, "pins", _PINS_UNSEEN.format(self.options.detector)))
        self.pins_seen = seen

    def _paused(self, frame: Frame) -> bool:
        """Whether the watch has the run paused at this frame. At a cut what the stages held back is written
        and the stages are dropped; when the table is found again, fresh stages are built on it."""
        if self.watch is None:
            if frame_size(frame.image) != tuple(self.calib.image_size):
                (w, h), (cw, ch) = frame_size(frame.image), self.calib.image_size
                raise ValueError(
                    f"frame {frame.index} is {w}x{h} px, the calibration {cw}x{ch}: another camera; "
                    "run with cuts watched (RunOptions.watch_cuts, the default) to find the table "
                    "again at the new size"
                )
            return False
        paused = self.watch.update(frame)
        # A cut: paused, or the table found again at once on the cut's own frame (a new calibration all
        # the same, so the stages built on the old one go).
        if (paused or self.watch.resumed is not None) and self.stages is not None:
            self._emit(self.stages.events.interrupt())
            self.options = replace(self.options, shot_open=self.stages.events.in_shot)
            self.stages, self.views = None, []
        if self.watch.resumed is not None:
            self.calib, self.watch.resumed = self.watch.resumed, None
            if self.files.annotator is not None:
                self.files.annotator.calib = self.calib
        if self.watch.followed is not None:
            self._follow(self.watch.followed, frame.image.shape)
            self.watch.followed = None
        return paused

    def _follow(self, calib: TableCalibration, image_shape: tuple[int, ...]) -> None:
        """The camera moved a little and the watch followed it: the balls are placed on the table by the
        moved calibration, and once it has moved ``REBUILD_FROM`` from the one the detector was built on,
        a detector built on it takes over (its table mask and spots where the picture shows them now; it
        learns the cloth afresh). The tracker and the event detector go on, what they hold carried to where
        the moved calibration puts it (the balls were seen through the camera as it had moved since the
        last look: where they were is where it now says they were)."""
        before, self.calib = self.calib, calib
        if self.files.annotator is not None:
            self.files.annotator.calib = calib
        if self.stages is not None:
            r = self.options.spec.table.ball_radius_mm

            def moved(xy_mm: np.ndarray) -> np.ndarray:
                return calib.px_to_mm(before.mm_to_px(xy_mm, r), r)

            self.stages.tracker.carry(moved)
            self.stages.events.carry(moved)
        if self.stages is not None and corner_shift(self.built, calib) >= REBUILD_FROM:
            o = self.options
            detector = build_detector(o.detector, o.spec, calib, image_shape, o.model)
            self.stages, self.built = replace(self.stages, detector=detector), calib

    def _placed(self, dets: Detections) -> Detections:
        """The detections placed on the table by the run's calibration, where it has followed the camera
        since the detector was built (which placed them by its own)."""
        if self.calib is self.built or not len(dets):
            return dets
        return dets.with_xy_mm(self.calib.px_to_mm(dets.xy_px, self.options.spec.table.ball_radius_mm))

    def _skip(self, frame: Frame, keep_detections: bool) -> None:
        """A frame not refereed (paused): it still counts, and shows nothing."""
        if keep_detections:
            self.result.detections.append((frame.t, Detections.empty()))
        self.files.detections.write(detections_line(frame.index, frame.t, Detections.empty()) + "\n")
        self.result.track_frames.append((frame.t, {}))
        if self.files.annotator is not None:
            self.files.annotator.write(frame.image, [], frame.t)
        self.result.frames += 1
        self.result.paused_frames += 1

    def _in_view(self, dets: Detections, shape: tuple[int, ...]) -> Detections:
        """The detections where the image shows the table: not on a broadcast graphic (a score bar's letters
        are no balls), nor in the strip of the table the image does not show (``TableCalibration.unseen_px``:
        the classical detector never looks there, the trained one looks at the whole table view), nor where
        no ball's centre can lie (``may_lie``: a letter of a bar not found, beside the table)."""
        if not len(dets):
            return dets
        keep = np.ones(len(dets), bool)
        mask = self.watch.graphics(shape) if self.watch is not None else None
        if mask is not None:
            h, w = mask.shape
            x = np.clip(np.round(dets.xy_px[:, 0]).astype(int), 0, w - 1)
            y = np.clip(np.round(dets.xy_px[:, 1]).astype(int), 0, h - 1)
            keep &= mask[y, x] == 0
        return dets[keep & self.calib.shows(dets.xy_px) & may_lie(self.calib.table, dets.xy_mm)]

    def finish(self) -> None:
        if self.watch is not None:
            self.watch.finish(self.t)
        if self.stages is not None:
            self._emit(self.stages.events.finish(self.t, self.views))

    def interrupt(self, live: bool) -> None:
        """Cut short: a shot in play stays open. A file is replayed from its start when the run resumes, and
        the replay finds again, in the same order, what is held back now, so nothing more is written (written
        now, an event held back could land after one the replay finds later but timed before it). A live
        source cannot replay: what is held back is written now."""
        self.result.interrupted = True
        if self.stages is None:
            self.result.shot_open = self.options.shot_open
            return
        if live:
            self._emit(self.stages.events.interrupt())
        self.result.shot_open = self.stages.events.in_shot

    def _emit(self, new: list[SeenEvent]) -> None:
        for e in new:
            c.append_event(self.files.events, e)
            self.result.events.append(e)
            # How long after the frame that showed it the event was written, in video time.
            self.result.latency_s.append((e.TYPE, self.t - e.t))
            if self.files.annotator is not None:
                self.files.annotator.caption(e)
            if self.files.on_event:
                self.files.on_event(e)


def _enough(options: RunOptions, result: RunResult) -> bool:
    """Whether the run has taken the ``max_frames`` it was asked for (an end, as a clip cut there)."""
    return options.max_frames is not None and result.frames >= options.max_frames


def _chain(head: list[Frame], rest: Iterator[Frame]) -> Generator[Frame]:
    yield from head
    yield from rest


def may_lie(table: TableModel, xy_mm: np.ndarray) -> np.ndarray:
    """Where a ball's centre may be seen (N, 2 table mm -> N,): no more than a ball's radius past the
    cushions' noses (a ball against a cushion, placed by a calibration 1.5 % of the length off), or within
    two balls of a pocket's mouth (one dropping, or flying off over the jaws); an unplaced one (NaN) too."""
    xy = np.asarray(xy_mm, np.float64).reshape(-1, 2)
    on = np.array([table.on_table((float(x), float(y)), -table.ball_radius_mm) for x, y in xy], bool)
    for p in table.pockets:
        on |= np.hypot(*(xy - np.array(p.mouth_xy_mm)).T) < p.opening_mm / 2 + 2 * table.ball_diameter_mm
    return np.asarray(on | ~np.isfinite(xy).all(axis=1))
