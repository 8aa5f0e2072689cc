"""Wiring, and nothing more: source -> calibration -> detector -> tracker -> events -> files.

``referee_video`` is what ``arbiter run`` and ``arbiter eval`` call. It writes as it goes: every event is
appended and flushed to ``events.jsonl`` the moment it is certain, so a run that is killed loses nothing
already written; ``tracks.jsonl`` holds every frame's balls; ``annotated.mp4`` shows it all.
"""

from __future__ import annotations

import json
import math
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from arbiter import contract as c
from arbiter.games import BilliardsSpec
from arbiter.narrate import describe
from tracking.events import EventDetector
from tracking.pins import PinWatch
from tracking.tracker import BallTracker, TrackView
from vision.calibration import CalibrationError, TableCalibration, calibrate_auto
from vision.detectors import build_detector
from vision.sources import FrameSource
from vision.types import Detections, Frame
from vision.video import VideoWriter
from vision.yolo import YoloDetector

TRAIL_FRAMES = 20
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


@dataclass
class RunResult:
    frames: int = 0
    bad_frames: int = 0
    events: list[object] = field(default_factory=list)
    seconds: float = 0.0
    calibration: TableCalibration | None = None
    track_frames: list[tuple[float, dict[str, tuple[float, float]]]] = field(default_factory=list)
    detections: list[tuple[float, Detections]] = field(default_factory=list)
    latency_s: list[tuple[str, float]] = field(default_factory=list)  # (event type, emitted - happened)

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
    on_event: Callable[[object], None] | None = None,
    keep_detections: bool = False,
) -> RunResult:
    """Run the whole pipeline over ``source``; write ``events.jsonl``, ``tracks.jsonl``, ``annotated.mp4``."""
    spec = options.spec
    table = spec.table
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    frames = iter(source)
    calib, head = _calibrate(frames, options)
    calib.save(out / "camera_profile.json")
    r = table.ball_radius_mm
    detector = build_detector(options.detector, spec, calib, head[0].image.shape, options.model)
    tracker = BallTracker(spec)
    events = EventDetector(table, spec.cue_balls)
    pins = PinWatch(table) if table.pins and isinstance(detector, YoloDetector) else None
    result = RunResult(calibration=calib)
    trails: dict[str, deque] = {}
    captions: deque[tuple[float, str]] = deque(maxlen=4)
    writer = None
    header = c.Match(game=spec.id, players=options.players)
    with (out / "events.jsonl").open("w") as ev_file, (out / "tracks.jsonl").open("w") as tr_file:
        c.append_event(ev_file, header)

        def emit(new: list[object]) -> None:
            for e in new:
                c.append_event(ev_file, e)
                result.events.append(e)
                # How long after the frame that showed it the event was written, in video time.
                if getattr(e, "t", None) is not None:
                    result.latency_s.append((e.TYPE, t - e.t))  # type: ignore[attr-defined]
                captions.append((getattr(e, "t", 0.0), describe(e)))
                if on_event:
                    on_event(e)

        views: list[TrackView] = []
        t = 0.0
        try:
            for frame in _chain(head, frames):
                if options.max_frames is not None and result.frames >= options.max_frames:
                    break
                t = frame.t
                dets = detector.detect(frame.image)
                if keep_detections:
                    result.detections.append((t, dets))
                views = tracker.update(t, dets)
                falls = pins.update(t, detector.last_pins.standing_xy_mm, views) if pins else []
                emit(events.update(t, views, tracker.gone(), falls))
                positions = {v.ball: (round(v.xy_mm[0], 2), round(v.xy_mm[1], 2)) for v in views}
                result.track_frames.append((t, {v.ball: v.xy_mm for v in views}))
                tr_file.write(
                    json.dumps(
                        {"frame": frame.index, "t": round(t, 6), "balls": positions}, separators=(",", ":")
                    )
                    + "\n"
                )
                if options.annotate:
                    if writer is None:
                        h, w = frame.image.shape[:2]
                        writer = VideoWriter(out / "annotated.mp4", w, h, source.fps or 30.0)
                    writer.write(annotate(frame.image, views, calib, spec, trails, captions, t, r))
                result.frames += 1
                if on_frame:
                    on_frame(result.frames, result.frames / max(time.perf_counter() - started, 1e-9))
            emit(events.finish(t, views))
        finally:
            if writer is not None:
                writer.close()
    result.bad_frames = source.stats.bad_frames
    result.seconds = time.perf_counter() - started
    return result


def _chain(head: list[Frame], rest: Iterator[Frame]) -> Iterator[Frame]:
    yield from head
    yield from rest


def annotate(
    image: np.ndarray,
    views: list[TrackView],
    calib: TableCalibration,
    spec: BilliardsSpec,
    trails: dict[str, deque],
    captions: deque,
    t: float,
    radius_mm: float,
) -> np.ndarray:
    """The frame with every ball circled in its colour, its id, its recent trail, and the latest events."""
    img = image.copy()
    if not views:
        return img
    xy = calib.mm_to_px(np.array([v.xy_mm for v in views]), radius_mm)
    rad = calib.radius_px(np.array([v.xy_mm for v in views]), radius_mm)
    for v, p, rr in zip(views, xy, rad, strict=True):
        trail = trails.setdefault(v.ball, deque(maxlen=TRAIL_FRAMES))
        centre = (int(np.rint(p[0])), int(np.rint(p[1])))
        trail.append(centre)
        rgb = spec.looks[v.ball].rgb if v.ball in spec.looks else (255, 255, 255)
        colour = (int(rgb[2]), int(rgb[1]), int(rgb[0]))
        if len(trail) > 1:
            cv2.polylines(img, [np.array(trail, np.int32)], False, colour, 1, cv2.LINE_AA)
        cv2.circle(
            img,
            centre,
            math.ceil(float(rr)) + 2,
            (255, 255, 255) if v.measured else (0, 200, 255),
            1,
            cv2.LINE_AA,
        )
        cv2.putText(
            img,
            v.ball,
            (centre[0] + int(rr) + 2, centre[1] - int(rr)),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.4,
            (255, 255, 255),
            1,
            cv2.LINE_AA,
        )
    y = 22
    for t_event, text in list(captions)[-4:]:
        if t - t_event < 3.0:
            cv2.putText(
                img, text.strip(), (12, y), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (255, 255, 255), 2, cv2.LINE_AA
            )
            y += 22
    return img
