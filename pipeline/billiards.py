"""Wiring, and nothing more: source -> calibration -> detector -> tracker -> events -> files.

``referee_video`` is what ``arbiter run`` and ``arbiter eval`` call. It writes as it goes: every event is
appended and flushed to ``events.jsonl`` the moment it is certain, so a run that is killed loses nothing
already written; ``tracks.jsonl`` holds every frame's balls; ``annotated.mp4`` shows it all.

A run ends one of two ways. The source ends (a file played to its end, or cut by ``max_frames``): a shot
still in play is closed with the balls where they are, as a clip cut mid-shot shows it. Or the run is cut
short (a stop asked, a live source lost): a shot in play is left open, with no ``shot_end`` and so no
decision on half a shot, and the run that resumes completes it: a file is replayed from its start (what
was recorded is skipped, ``record.recorder``), a live source goes on with ``RunOptions.shot_open``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import cv2

from arbiter import contract as c
from arbiter.games import BilliardsSpec
from tracking.events import EventDetector, SeenEvent
from tracking.pins import PinWatch
from tracking.tracker import BallTracker, TrackView
from vision.calibration import CalibrationError, TableCalibration, calibrate_auto
from vision.detectors import Detector, build_detector
from vision.sources import FrameSource
from vision.types import Detections, Frame

from .annotate import Annotator

CALIBRATION_ATTEMPTS = 30  # frames tried for automatic calibration before giving up


@dataclass(frozen=True)
class RunOptions:
    """What ``arbiter run`` was asked to do."""

    spec: BilliardsSpec
    players: tuple[str, ...] = ("A", "B")
    calibration: Path | None = None  # a saved camera profile; else found automatically
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
    calibration: TableCalibration | None = None
    track_frames: list[tuple[float, dict[str, tuple[float, float]]]] = field(default_factory=list)
    detections: list[tuple[float, Detections]] = field(default_factory=list)
    latency_s: list[tuple[str, float]] = field(default_factory=list)  # (event type, emitted - happened)
    interrupted: bool = False  # stopped, or the live source lost: cut short, not ended
    shot_open: bool = False  # a shot was in play when it was cut short: left open for the resumed run

    @property
    def fps(self) -> float:
        return self.frames / self.seconds if self.seconds > 0 else 0.0


def _calibrate(frames: Iterator[Frame], options: RunOptions) -> tuple[TableCalibration, list[Frame]]:
    """The camera profile given, or one found automatically on the first frames that show the table."""
    if options.calibration is not None:
        first = next(frames, None)
        if first is None:
            raise CalibrationError("the source gave no frame")
        calib = TableCalibration.load(
            options.calibration, game=options.spec.id, image_size=(first.image.shape[1], first.image.shape[0])
        )
        return calib, [first]
    seen: list[Frame] = []
    error: Exception | None = None
    for frame in frames:
        seen.append(frame)
        try:
            return calibrate_auto(frame.image, options.spec.table), seen
        except (CalibrationError, cv2.error) as exc:  # one frame that fails is no reason to stop trying
            error = exc
        if len(seen) >= CALIBRATION_ATTEMPTS:
            break
    raise CalibrationError(
        f"could not find the table in the first {len(seen)} frames ({error}); "
        "calibrate by hand: arbiter calibrate SOURCE --game GAME --points 'bl=x,y;br=x,y;tl=x,y;tr=x,y', "
        "then run with --calibration camera_profile.json"
    )


def referee_video(
    source: FrameSource,
    options: RunOptions,
    out: Path,
    on_frame: Callable[[int, float], None] | None = None,
    on_event: Callable[[c.Event], None] | None = None,
    keep_detections: bool = False,
    stop: Callable[[], bool] | None = None,
) -> RunResult:
    """Run the whole pipeline over ``source``; write ``events.jsonl``, ``tracks.jsonl``, ``annotated.mp4``.

    ``on_frame(frames, fps)`` after every frame, ``on_event(event)`` as each event is written;
    ``keep_detections`` keeps every frame's detections in the result (for scoring the detector); ``stop()``
    is asked before every frame, and True cuts the run short (the dashboard's stop button)."""
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    frames = iter(source)
    calib, head = _calibrate(frames, options)
    calib.save(out / "camera_profile.json")
    stages = _Stages.build(options, calib, head[0].image.shape)
    result = RunResult(calibration=calib)
    annotator = (
        Annotator(out / "annotated.mp4", source.fps or 30.0, calib, options.spec)
        if options.annotate
        else None
    )
    with (out / "events.jsonl").open("w") as ev_file, (out / "tracks.jsonl").open("w") as tr_file:
        c.append_event(ev_file, c.Match(game=options.spec.id, players=options.players))
        run = _Run(stages, result, ev_file, tr_file, annotator, on_event)
        try:
            for frame in _chain(head, frames):
                if _enough(options, result) or (stop is not None and stop()):
                    break
                run.step(frame, keep_detections)
                if on_frame:
                    on_frame(result.frames, result.frames / max(time.perf_counter() - started, 1e-9))
            stopped = stop is not None and stop()
            if stopped or (source.live and not _enough(options, result)):  # a live source ends only when lost
                run.interrupt(source.live)
            else:
                run.finish()
        finally:
            if annotator is not None:
                annotator.close()
    result.bad_frames = source.stats.bad_frames
    result.seconds = time.perf_counter() - started
    return result


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


class _Run:
    """One run between setup and its end: each ``step`` takes a frame through the stages and writes what it
    gave; ``finish`` flushes the events still held back at the end of the source, ``interrupt`` ends a run
    cut short."""

    def __init__(
        self,
        stages: _Stages,
        result: RunResult,
        events_file: IO[str],
        tracks_file: IO[str],
        annotator: Annotator | None,
        on_event: Callable[[c.Event], None] | None,
    ) -> None:
        self.stages = stages
        self.result = result
        self.events_file = events_file
        self.tracks_file = tracks_file
        self.annotator = annotator
        self.on_event = on_event
        self.t = 0.0  # the time of the last frame stepped
        self.views: list[TrackView] = []

    def step(self, frame: Frame, keep_detections: bool) -> None:
        s, t = self.stages, frame.t
        self.t = t
        dets = s.detector.detect(frame.image)
        if keep_detections:
            self.result.detections.append((t, dets))
        views = self.views = s.tracker.update(t, dets)
        falls = s.pins.update(t, s.detector.last_pins.standing_xy_mm, views) if s.pins else []
        self._emit(s.events.update(t, views, s.tracker.gone(), falls))
        self.result.track_frames.append((t, {v.ball: v.xy_mm for v in views}))
        positions = {v.ball: (round(v.xy_mm[0], 2), round(v.xy_mm[1], 2)) for v in views}
        line = {"frame": frame.index, "t": round(t, 6), "balls": positions}
        self.tracks_file.write(json.dumps(line, separators=(",", ":")) + "\n")
        if self.annotator is not None:
            self.annotator.write(frame.image, views, t)
        self.result.frames += 1

    def finish(self) -> None:
        self._emit(self.stages.events.finish(self.t, self.views))

    def interrupt(self, live: bool) -> None:
        """Cut short: a shot in play stays open. A file is replayed from its start when the run resumes, and
        the replay finds again, in the same order, what is held back now, so nothing more is written (written
        now, an event held back could land after one the replay finds later but timed before it). A live
        source cannot replay: what is held back is written now."""
        if live:
            self._emit(self.stages.events.interrupt())
        self.result.interrupted = True
        self.result.shot_open = self.stages.events.in_shot

    def _emit(self, new: list[SeenEvent]) -> None:
        for e in new:
            c.append_event(self.events_file, e)
            self.result.events.append(e)
            # How long after the frame that showed it the event was written, in video time.
            self.result.latency_s.append((e.TYPE, self.t - e.t))
            if self.annotator is not None:
                self.annotator.caption(e)
            if self.on_event:
                self.on_event(e)


def _enough(options: RunOptions, result: RunResult) -> bool:
    """Whether the run has taken the ``max_frames`` it was asked for (an end, as a clip cut there)."""
    return options.max_frames is not None and result.frames >= options.max_frames


def _chain(head: list[Frame], rest: Iterator[Frame]) -> Iterator[Frame]:
    yield from head
    yield from rest
