"""A source cut short in the middle of a shot: the shot stays open, and a resumed camera ends it once every
ball is seen at rest. Fed the bundled sample's true positions (a break-off: the white strikes at 0.8 s and
goes in off at 5.3 s, the reds roll until 9.9 s), with a detector's noise."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from arbiter import contract as c
from arbiter.games import billiards
from datasets.billiards.oracle import truth_detections
from tracking.events import EventDetector
from tracking.tracker import BallTracker

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "billiards" / "snooker" / "shot_000"
SPEC = billiards("snooker")
FPS = 30.0
STILL_S = 1.0  # how long a camera that comes back watches the table
NEAR_MM = 3.0  # a position seen against the truth: a few times the detections' noise


@pytest.fixture(scope="module")
def frames():
    return list(truth_detections(SAMPLE, SPEC.id, noise_mm=0.8))


@pytest.fixture(scope="module")
def truth():
    return c.read_stream(SAMPLE / "truth.jsonl")[1]


def _feed(frames, detector, shift_s=0.0):
    """The frames through a fresh tracker into ``detector``; the events released, the last views and t."""
    tracker = BallTracker(SPEC)
    out, views, t = [], [], 0.0
    for t_frame, dets in frames:
        t = t_frame - shift_s
        views = tracker.update(t, dets)
        out += detector.update(t, views, tracker.gone())
    return out, views, t


def _still(frames, seconds=STILL_S):
    """A camera back on the table once every ball rests: the last frame's balls, timed from 0."""
    dets = frames[-1][1]
    return [(i / FPS, dets) for i in range(round(seconds * FPS))]


def _kind(ball: str) -> str:
    return ball.split(":")[0]


def _near(seen, truth_positions) -> bool:
    """Every ball at rest in the truth seen within ``NEAR_MM`` by one of its kind (reds look alike), and as
    many of each kind."""
    kinds = sorted(map(_kind, seen))
    if kinds != sorted(map(_kind, truth_positions)):
        return False
    return all(
        any(_kind(b) == _kind(ball) and math.dist(xy, p) <= NEAR_MM for b, p in seen.items())
        for ball, xy in truth_positions.items()
    )


def test_a_source_cut_short_leaves_the_shot_open_where_its_end_closes_it(frames):
    cut = frames[:90]  # 3 s: the pack broken, the white rolling towards the bottom-left pocket
    detector = EventDetector(SPEC)
    seen, views, t = _feed(cut, detector)
    seen += detector.interrupt()
    assert isinstance(seen[0], c.ShotStart) and any(isinstance(e, c.BallBall) for e in seen)
    assert not any(isinstance(e, c.ShotEnd) for e in seen) and detector.in_shot
    # the same frames ending the source: a clip cut there, its shot closed with the balls where they are
    ended = EventDetector(SPEC)
    seen_too, views, t = _feed(cut, ended)
    seen_too += ended.finish(t, views)
    assert seen_too[: len(seen)] == seen and isinstance(seen_too[-1], c.ShotEnd) and not ended.in_shot


def test_a_camera_back_on_still_balls_ends_the_open_shot_with_the_positions_seen(frames, truth):
    detector = EventDetector(SPEC, shot_open=True)
    assert detector.in_shot
    seen, _, _ = _feed(_still(frames), detector)
    (end,) = seen
    assert isinstance(end, c.ShotEnd) and end.t == 0.0  # at rest already when first seen
    assert not detector.in_shot and detector.finish(STILL_S, []) == []
    assert "white" not in end.positions  # it went in off while the camera was away
    assert _near(end.positions, truth[-1].positions)
    # without an open shot, balls at rest are no event
    assert _feed(_still(frames), EventDetector(SPEC))[0] == []


def test_a_camera_back_while_balls_still_roll_ends_the_shot_when_they_rest(frames, truth):
    back = frames[200:]  # from 6.7 s: the white is in, reds still rolling (to 9.9 s), then still a while
    t_last, dets = back[-1]
    watched = [*back, *((t_last + (i + 1) / FPS, dets) for i in range(round(STILL_S * FPS)))]
    shift = back[0][0]  # the camera's clock starts again when it comes back
    detector = EventDetector(SPEC, shot_open=True)
    seen, _, _ = _feed(watched, detector, shift)
    ends = [e for e in seen if isinstance(e, c.ShotEnd)]
    assert len(ends) == 1 and not any(isinstance(e, c.ShotStart) for e in seen)
    assert ends[0].t + shift == pytest.approx(truth[-1].t, abs=0.1)
    assert _near(ends[0].positions, truth[-1].positions)
