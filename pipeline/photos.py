"""A folder of photos, each refereed on its own: the table found, the balls seen and named, written.

Photos are not a video. Between two photos the balls moved by any amount, and a photo may show another table
from another camera, so nothing is carried from one photo to the next but the table. Photos of one still
camera (``vision.picture_print.same_camera``: their edges in register, whatever the light) share it: up to
``AGREE_TRIES`` of them, spread over the folder, are calibrated, and the table most of them agree on is every
one of its photos' (``pipeline.fixed_camera``), so one photo's light, a hand or markers on the rails that
lead its own calibration astray do not move its table; a photo whose own calibration is sure and elsewhere
keeps its own. A camera whose photos agree on no table has each photo calibrated on its own. Each photo gets a
fresh detector on its calibration, as ``arbiter eval real-balls`` scores it, and its balls are named at once:
the game's ball set is the constraint (``BallTracker`` with ``n_init=1``: one id per ball, no more balls of
a look than the game has), never a track followed from the photo before. No event is made: a photo shows
where the balls are, not how they moved (``events.jsonl`` holds the header only).

``referee_photos`` writes what ``referee_video`` writes, photo by photo (each line also names its photo),
and an annotated copy of each photo (``annotated/``) with the table found and the balls named. Every photo's
calibration is said when it is new (a notice naming the photo and how many of its camera's photos agree on
it, loud when unsure), and so is a photo whose own calibration failed or differed and which takes its
camera's; a photo where no table is found is said (``no_table``) and written with no balls; the run goes on.
"""

from __future__ import annotations

import json
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
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
from vision.picture_print import PicturePrint, picture_print, same_camera
from vision.sources import FrameSource
from vision.types import Detections, Frame

from .annotate import annotate
from .billiards import RunOptions, RunResult, begin_stream, detections_line, sayer, sized_spec
from .fixed_camera import Agreement, agreed_view, chosen_for, same_view
from .table_watch import (
    TYPE_CORNERS,
    Found,
    Notice,
    TableChoice,
    find_table,
    frame_size,
    notice,
)

NAMED_AT_ONCE = TrackerConfig(n_init=1)  # a photo's balls are balls the moment they are seen
AGREE_TRIES = 7  # photos of one camera calibrated to agree on its table, spread over its photos
PINS_ON_PHOTOS = (
    "pins are not judged on photos: a pin's look is learnt over a video's first frames, standing; run a "
    "video of the table to have pins knocked down called"
)


Own = TableCalibration | str  # a photo's own calibration, or why it found no table


@dataclass
class _Camera:
    """The photos of one still camera: the first one's name and print, every one's index, the calibrations
    of those tried (``AGREE_TRIES``), and the table they agree on."""

    first: str
    print: PicturePrint
    members: list[int] = field(default_factory=list)
    tried: dict[int, Own] = field(default_factory=dict)
    agreed: Agreement | None = None


@dataclass
class _Photos:
    """The files a photo run writes into, and what it holds between photos."""

    tracks: IO[str]
    detections: IO[str]
    annotated: Path | None
    say: Callable[[Notice], None]
    cameras: dict[int, _Camera] = field(default_factory=dict)  # each photo's camera, by its index
    calib: TableCalibration | None = None  # the last photo's


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
        if options.calibration is None and options.corners is None:
            photos.cameras = _cameras(source.photos, options)
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
    detector = build_detector(options.detector, spec, calib, image.shape, options.model, at_rest=True)
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


def _cameras(paths: list[Path], options: RunOptions) -> dict[int, _Camera]:
    """Every readable photo's camera (``same_camera`` as the first photo of one), each camera's table agreed
    by up to AGREE_TRIES of its photos, spread over them, calibrated one by one. An unreadable photo has
    none (the run says so when it comes to it)."""
    cameras: list[_Camera] = []
    of: dict[int, _Camera] = {}
    for i, path in enumerate(paths):
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            continue
        mark = picture_print(image)
        camera = next((c for c in cameras if same_camera(c.print, mark)), None)
        if camera is None:
            camera = _Camera(path.name, mark)
            cameras.append(camera)
        camera.members.append(i)
        of[i] = camera
    for camera in cameras:
        picks = np.unique(np.linspace(0, len(camera.members) - 1, min(AGREE_TRIES, len(camera.members))))
        for k in picks.round().astype(int):
            i = camera.members[k]
            image = cv2.imread(str(paths[i]), cv2.IMREAD_COLOR)
            if image is not None:
                camera.tried[i] = _own(image, options)
        calibs = [c if isinstance(c, TableCalibration) else None for c in camera.tried.values()]
        camera.agreed = agreed_view(calibs)
    return of


def _own(image: np.ndarray, options: RunOptions) -> Own:
    """A photo's own automatic calibration, or why it found no table."""
    try:
        return calibrate_auto(image, options.spec.table, size=options.table_size)
    except (CalibrationError, cv2.error) as exc:
        return str(exc).split(";")[0]


def _calibration(frame: Frame, name: str, options: RunOptions, photos: _Photos) -> TableCalibration | None:
    """The photo's calibration: the one given (a profile, typed corners) when the photo is of its size;
    else its camera's agreed one (``chosen_for``), or its own where the camera's photos agree on none or
    its own is sure and elsewhere. Said when new, and where the photo's own failed or differed. None,
    said, when the photo shows no table."""
    if options.calibration is not None or options.corners is not None:
        return _given(frame, name, options, photos)
    camera = photos.cameras.get(frame.index)
    agreed = camera.agreed if camera is not None else None
    own = camera.tried.get(frame.index) if camera is not None else None
    if own is None and agreed is None:
        own = _own(frame.image, options)
    mine = own if isinstance(own, TableCalibration) else None
    calib = chosen_for(mine, agreed)
    if calib is None:
        why = str(own) if str(own).startswith("no table found") else f"no table found ({own})"
        photos.say(Notice(frame.t, "no_table", f"{name}: {why}; {TYPE_CORNERS}"))
        return None
    shared = agreed is not None and calib is agreed.calib
    held = photos.calib
    if held is None or not same_view(calib, held):
        agreeing = (agreed.agreeing, agreed.tried) if agreed is not None and shared else None
        photos.say(notice(Found(calib, frame, searched=False, agreed=agreeing), photo=name))
    if camera is not None and agreed is not None and shared and not _agrees(own, calib):
        photos.say(Notice(frame.t, "calibration", _taken_from_camera(name, camera, agreed, own)))
    return calib


def _agrees(own: Own | None, calib: TableCalibration) -> bool:
    """Whether a photo's own calibration (if it was made) puts the table where ``calib`` does."""
    return own is None or (isinstance(own, TableCalibration) and same_view(own, calib))


def _taken_from_camera(name: str, camera: _Camera, agreed: Agreement, own: Own | None) -> str:
    """What is said of a photo that takes its camera's table instead of its own."""
    alone = (
        f"no table found in it alone ({own})" if isinstance(own, str) else "alone it put the table elsewhere"
    )
    camera_of = f"photos of its camera (as {camera.first})"
    return f"{name}: {alone}; the table {agreed.agreeing} of {agreed.tried} {camera_of} agree on is used"


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
