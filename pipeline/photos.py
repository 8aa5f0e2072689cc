"""A folder of photos, each refereed on its own: the table found, the balls seen and named, written.

Photos are not a video. Between two photos the balls moved by any amount, and a photo may show another table
from another camera, so nothing is carried from one photo to the next but the calibration, and that only
while the next photo still fits it (``check_calibration``: a fixed camera over one table). Each photo gets a
fresh detector on its calibration, as ``arbiter eval real-balls`` scores it, and its balls are named at once:
the game's ball set is the constraint (``BallTracker`` with ``n_init=1``: one id per ball, no more balls of
a look than the game has), never a track followed from the photo before. No event is made: a photo shows
where the balls are, not how they moved (``events.jsonl`` holds the header only).

``referee_photos`` writes what ``referee_video`` writes, photo by photo (each line also names its photo),
and an annotated copy of each photo (``annotated/``) with the table found and the balls named. Every photo's
calibration is said when it is new (a notice naming the photo, loud when unsure); a photo where no table is
found is said (``no_table``) and written with no balls; the run goes on.
"""

from __future__ import annotations

import json
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO

import cv2
import numpy as np

from arbiter.games import BilliardsSpec
from tracking.track import TrackView
from tracking.tracker import BallTracker
from tracking.tracker_config import TrackerConfig
from vision.calibration import CalibrationError, TableCalibration, calibrate_auto
from vision.detectors import BallsTooSmallError, build_detector
from vision.overlays import table_overlay
from vision.sources import FrameSource
from vision.types import Detections, Frame

from .annotate import annotate
from .billiards import RunOptions, RunResult, begin_stream, detections_line, sayer, sized_spec
from .table_watch import (
    TYPE_CORNERS,
    Found,
    Notice,
    TableChoice,
    find_table,
    fits,
    frame_size,
    notice,
    same_view,
    worse,
)

NAMED_AT_ONCE = TrackerConfig(n_init=1)  # a photo's balls are balls the moment they are seen
PINS_ON_PHOTOS = (
    "pins are not judged on photos: a pin's look is learnt over a video's first frames, standing; run a "
    "video of the table to have pins knocked down called"
)


@dataclass
class _Photos:
    """The files a photo run writes into, and what it holds between photos."""

    tracks: IO[str]
    detections: IO[str]
    annotated: Path | None
    say: Callable[[Notice], None]
    calib: TableCalibration | None = None  # the last photo's, kept while the next photos fit it


def referee_photos(
    source: FrameSource,
    options: RunOptions,
    out: Path,
    on_frame: Callable[[int, float], None] | None = None,
    on_notice: Callable[[Notice], None] | None = None,
    keep_detections: bool = False,
) -> RunResult:
    """Every photo of ``source`` (an image folder, or one image) refereed on its own; writes
    ``tracks.jsonl`` (each photo's balls by id), ``detections.jsonl``, ``notices.jsonl``, an events file
    with the header only, ``annotated/NAME.jpg`` and the last photo's ``camera_profile.json``. A photo with
    no table found counts in ``RunResult.paused_frames`` and is written with no balls."""
    if source.photos is None:
        raise ValueError(f"{source.spec} is not a folder of photos: referee a video with referee_video")
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    result = RunResult()
    annotated = out / "annotated" if options.annotate else None
    if annotated is not None:
        annotated.mkdir(exist_ok=True)
    with (
        (out / "notices.jsonl").open("w") as notices_file,
        (out / "events.jsonl").open("w") as ev_file,
        (out / "tracks.jsonl").open("w") as tr_file,
        (out / "detections.jsonl").open("w") as det_file,
    ):
        say = sayer(result, notices_file, on_notice)
        begin_stream(ev_file, options, None)
        if options.spec.table.pins:
            say(Notice(0.0, "pins", PINS_ON_PHOTOS))
        photos = _Photos(tr_file, det_file, annotated, say)
        for frame in source:
            name = source.photos[frame.index].name
            _referee_photo(frame, name, options, photos, result, keep_detections)
            if on_frame is not None:
                on_frame(result.frames, result.frames / max(time.perf_counter() - started, 1e-9))
    result.calibration = photos.calib
    if photos.calib is not None:
        photos.calib.save(out / "camera_profile.json")
    result.bad_frames = source.stats.bad_frames
    result.seconds = time.perf_counter() - started
    return result


def _referee_photo(
    frame: Frame, name: str, options: RunOptions, photos: _Photos, result: RunResult, keep_detections: bool
) -> None:
    """One photo: its calibration, its balls detected and named, its lines and annotated copy written."""
    calib = _calibration(frame, name, options, photos)
    result.frames += 1
    if calib is None:
        result.paused_frames += 1
        _write(frame, name, Detections.empty(), [], photos, result, keep_detections)
        return
    photos.calib = calib
    spec = sized_spec(options.spec, calib)
    try:
        dets, views = photo_balls(frame.image, calib, spec, options)
    except BallsTooSmallError as exc:  # this photo is too small a picture of the table: said, the next go on
        photos.say(Notice(frame.t, "too_small", f"{name}: {exc}"))
        _write(frame, name, Detections.empty(), [], photos, result, keep_detections)
        return
    _write(frame, name, dets, views, photos, result, keep_detections)
    if photos.annotated is not None:
        drawn = table_overlay(frame.image, calib, spec.table)
        drawn = annotate(drawn, views, calib, spec, {}, deque(), frame.t, spec.table.ball_radius_mm)
        cv2.imwrite(str(photos.annotated / f"{Path(name).stem}.jpg"), drawn)


def photo_balls(
    image: np.ndarray, calib: TableCalibration, spec: BilliardsSpec, options: RunOptions
) -> tuple[Detections, list[TrackView]]:
    """A photo's balls on its calibration: what a fresh detector sees where the image shows the table, and
    those detections named at once under the game's ball set (``spec``: on the calibration's table)."""
    detector = build_detector(options.detector, spec, calib, image.shape, options.model)
    dets = detector.detect(image)
    dets = dets[calib.shows(dets.xy_px)] if len(dets) else dets
    return dets, BallTracker(spec, NAMED_AT_ONCE).update(0.0, dets)


def _write(
    frame: Frame,
    name: str,
    dets: Detections,
    views: list[TrackView],
    photos: _Photos,
    result: RunResult,
    keep_detections: bool,
) -> None:
    """The photo's lines: its detections, and its balls by id (``tracks.jsonl``), each naming the photo."""
    photos.detections.write(detections_line(frame.index, frame.t, dets, image=name) + "\n")
    balls = {v.ball: (round(v.xy_mm[0], 2), round(v.xy_mm[1], 2)) for v in views}
    tracked = {"frame": frame.index, "t": round(frame.t, 6), "image": name, "balls": balls}
    photos.tracks.write(json.dumps(tracked, separators=(",", ":")) + "\n")
    result.track_frames.append((frame.t, {v.ball: v.xy_mm for v in views}))
    if keep_detections:
        result.detections.append((frame.t, dets))


def _calibration(frame: Frame, name: str, options: RunOptions, photos: _Photos) -> TableCalibration | None:
    """The photo's calibration: the one given (a profile, typed corners) when the photo is of its size;
    else the last photo's while this one fits it and it is sure; else found in this photo (said when it is
    a new view; an unsure one kept from the photos before is kept unless this photo gives a sure one, or an
    unsure one with fewer doubts: a hand over the first photo's cushion does not spoil the photos after).
    None, said, when the photo shows no table."""
    held = photos.calib
    if options.calibration is not None or options.corners is not None:
        return _given(frame, name, options, photos)
    kept = held is not None and fits(held, frame.image)
    if held is not None and kept and held.sure:
        return held
    try:
        calib = calibrate_auto(frame.image, options.spec.table, size=options.table_size)
    except (CalibrationError, cv2.error) as exc:
        if held is not None and kept:
            return held
        photos.say(
            Notice(frame.t, "no_table", f"{name}: no table found ({str(exc).split(';')[0]}); {TYPE_CORNERS}")
        )
        return None
    if held is not None and kept and not calib.sure and not worse(held, calib):
        return held
    if held is None or not same_view(calib, held):
        photos.say(notice(Found(calib, frame, searched=False), photo=name))
    return calib


def _given(frame: Frame, name: str, options: RunOptions, photos: _Photos) -> TableCalibration | None:
    """The calibration the run was given, made on the first photo; a photo of another size has no table
    (said): the profile or the typed corners are of another camera."""
    held = photos.calib
    if held is None:
        choice = TableChoice(None, options.corners, options.table_size)
        if options.calibration is not None:
            size = frame_size(frame.image)
            profile = TableCalibration.load(options.calibration, game=options.spec.id, image_size=size)
            choice = replace(choice, profile=profile)
        found = find_table(iter([frame]), options.spec, choice, 1.0)
        photos.say(notice(found, photo=name))
        return found.calib
    if frame_size(frame.image) != tuple(held.image_size):
        (w, h), (cw, ch) = frame_size(frame.image), held.image_size
        text = f"{name}: no table: the photo is {w}x{h} px, the calibration given is for {cw}x{ch}"
        photos.say(Notice(frame.t, "no_table", text))
        return None
    return held
