"""The annotated video of a billiards run: what the referee saw, to check it by eye.

Every ball is circled in its own colour (white while detected, amber while predicted or held hidden), with
its id and its recent trail; five-pins' pins are ringed on their spots while standing and crossed out once
called down; the latest events are captioned for a few seconds.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Mapping
from pathlib import Path

import cv2
import numpy as np

from arbiter.games import BilliardsSpec
from arbiter.narrate import describe
from tracking.reorder import SeenEvent
from tracking.track import TrackView
from vision.calibration import TableCalibration
from vision.video import VideoWriter

TRAIL_FRAMES = 20
CAPTIONS = 4  # the latest events shown
CAPTION_S = 3.0  # how long an event stays captioned
_WHITE = (255, 255, 255)
_HIDDEN_BGR = (0, 200, 255)  # the ring of a ball not detected in this frame
_PIN_STANDING_BGR = (80, 220, 80)
_PIN_DOWN_BGR = (60, 60, 230)

Trails = dict[str, deque[tuple[int, int]]]
Captions = deque[tuple[float, str]]


class Annotator:
    """Writes ``annotated.mp4`` frame by frame. The video is opened at the first frame, whose size it takes;
    ``close`` it at the end (also after an error, so the frames so far play)."""

    def __init__(self, path: Path, fps: float, calib: TableCalibration, spec: BilliardsSpec) -> None:
        self.path = path
        self.fps = fps
        self.calib = calib
        self.spec = spec
        self.trails: Trails = {}
        self.captions: Captions = deque(maxlen=CAPTIONS)
        self._writer: VideoWriter | None = None

    def caption(self, event: SeenEvent) -> None:
        """Show ``event`` in the frames that follow."""
        self.captions.append((event.t, describe(event)))

    def write(
        self, image: np.ndarray, views: list[TrackView], t: float, pins: Mapping[str, str] | None = None
    ) -> None:
        """One frame, its balls and, in five-pins, its pins (``PinWatch.status``)."""
        if self._writer is None:
            h, w = image.shape[:2]
            self._writer = VideoWriter(self.path, w, h, self.fps)
        drawn = annotate(
            image,
            views,
            self.calib,
            self.spec,
            self.trails,
            self.captions,
            t,
            self.spec.table.ball_radius_mm,
        )
        if pins:
            _draw_pins(drawn, pins, self.calib, self.spec)
        self._writer.write(drawn)

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()


def annotate(
    image: np.ndarray,
    views: list[TrackView],
    calib: TableCalibration,
    spec: BilliardsSpec,
    trails: Trails,
    captions: Captions,
    t: float,
    radius_mm: float,
) -> np.ndarray:
    """The frame with every ball circled in its colour, its id, its recent trail, and the latest events.
    ``trails`` are extended with this frame's positions."""
    img = image.copy()
    if not views:
        return img
    xy = calib.mm_to_px(np.array([v.xy_mm for v in views]), radius_mm)
    rad = calib.radius_px(np.array([v.xy_mm for v in views]), radius_mm)
    for v, p, rr in zip(views, xy, rad, strict=True):
        trail = trails.setdefault(v.ball, deque(maxlen=TRAIL_FRAMES))
        centre = (int(np.rint(p[0])), int(np.rint(p[1])))
        trail.append(centre)
        _draw_ball(img, v, centre, float(rr), _bgr(spec, v.ball), trail)
    y = 22
    for t_event, text in list(captions)[-CAPTIONS:]:
        if t - t_event < CAPTION_S:
            cv2.putText(img, text.strip(), (12, y), cv2.FONT_HERSHEY_SIMPLEX, 0.55, _WHITE, 2, cv2.LINE_AA)
            y += 22
    return img


def _draw_pins(
    img: np.ndarray, status: Mapping[str, str], calib: TableCalibration, spec: BilliardsSpec
) -> None:
    """A ring round each pin standing on its spot, a cross on the spot of each pin called down."""
    pins = [p for p in spec.table.pins if status.get(p.id) in ("standing", "down")]
    if not pins:
        return
    xy = calib.mm_to_px(np.array([p.xy_mm for p in pins]), 0.0)
    reach = max(3, round(float(calib.radius_px(np.array([pins[0].xy_mm]), spec.table.ball_radius_mm)[0]) / 3))
    for pin, p in zip(pins, xy, strict=True):
        x, y = int(np.rint(p[0])), int(np.rint(p[1]))
        if status[pin.id] == "standing":
            cv2.circle(img, (x, y), reach, _PIN_STANDING_BGR, 1, cv2.LINE_AA)
        else:
            cv2.line(img, (x - reach, y - reach), (x + reach, y + reach), _PIN_DOWN_BGR, 1, cv2.LINE_AA)
            cv2.line(img, (x - reach, y + reach), (x + reach, y - reach), _PIN_DOWN_BGR, 1, cv2.LINE_AA)


def _bgr(spec: BilliardsSpec, ball: str) -> tuple[int, int, int]:
    """The ball's colour in OpenCV's order (white for an id the game does not have)."""
    rgb = spec.looks[ball].rgb if ball in spec.looks else (255, 255, 255)
    return (int(rgb[2]), int(rgb[1]), int(rgb[0]))


def _draw_ball(
    img: np.ndarray,
    v: TrackView,
    centre: tuple[int, int],
    radius_px: float,
    colour: tuple[int, int, int],
    trail: deque[tuple[int, int]],
) -> None:
    if len(trail) > 1:
        cv2.polylines(img, [np.array(trail, np.int32)], False, colour, 1, cv2.LINE_AA)
    ring = _WHITE if v.measured else _HIDDEN_BGR
    cv2.circle(img, centre, math.ceil(radius_px) + 2, ring, 1, cv2.LINE_AA)
    label_at = (centre[0] + int(radius_px) + 2, centre[1] - int(radius_px))
    cv2.putText(img, v.ball, label_at, cv2.FONT_HERSHEY_SIMPLEX, 0.4, _WHITE, 1, cv2.LINE_AA)
