"""Tracks as the tracker hands them to the event detector, frame by frame, for the event detector's tests."""

from __future__ import annotations

import math

from arbiter.games import BilliardsSpec
from tracking.events import EventDetector
from tracking.reorder import SeenEvent
from tracking.track import TrackState, TrackView


def view(ball, xy, measured, velocity=(0.0, 0.0), lost=False) -> TrackView:
    """A confirmed ball's view: seen (``measured``) or predicted, moving above 15 mm/s, or given up."""
    moving = math.hypot(*velocity) > 15.0
    return TrackView(ball, xy, velocity, TrackState.CONFIRMED, measured, moving, lost=lost)


def run_frames(frames, spec: BilliardsSpec, fps: float) -> list[SeenEvent]:
    """``frames``: per frame, the views; the events the detector calls, to the end."""
    detector, out, views, t = EventDetector(spec), [], [], 0.0
    for n, views in enumerate(frames):
        t = n / fps
        out += detector.update(t, views, [])
    return out + detector.finish(t, views)
