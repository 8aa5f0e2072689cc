"""A cue ball named as a stripe (straight pool seed 9612's shots 4 and 6): on a cloth of a stripe's colour the
cue ball's rim takes the cloth's tint and reads as that stripe (a green cloth's 14, a blue cloth's 10), while
the stripe itself, lying white side up, reads as the cue ball. Struck, the cue ball reads as itself again:
the tracker follows it under the stripe's name (a second ball of a unique look, seen moving as fast as a
struck ball, is a ball misread), and the event detector, seeing a stripe struck from rest before any shot
with nothing touching it, swaps the two names: the shot starts on the cue ball, and so does its first
contact."""

from __future__ import annotations

import numpy as np
from tracking_helper import dets

from arbiter import contract as c
from arbiter.balls import APPEARANCE_CLASSES
from arbiter.games import billiards
from tracking.events import EventDetector
from tracking.tracker import BallTracker
from vision.types import Detections

SPEC = billiards("straight-pool")
R = SPEC.table.ball_radius_mm
FPS = 60.0
WHITE, P14, P10, P15 = (APPEARANCE_CLASSES.index(k) for k in ("white", "pool_14", "pool_10", "pool_15"))
CUE_AT, TEN_AT, FIFTEEN_AT = (430.0, 900.0), (100.0, 2100.0), (430.0, 1690.0)
STRIKE = 45  # the frame the cue ball leaves rest


def _frames(speed: float, frames: int = 150) -> list[Detections]:
    """The cue ball at rest read as the 14 (0.22), the 10 white side up read as the cue ball (0.85) and the
    15 (0.7); from ``STRIKE`` the cue ball rolls up the table at ``speed`` mm/s, read as itself (0.8), into
    the 15, which it stops dead against (a stun); the 15 rolls on for a quarter of a second."""
    hit_y = FIFTEEN_AT[1] - 2 * R
    out = []
    for n in range(frames):
        moved = speed * max(n - STRIKE, 0) / FPS
        cue_y = min(CUE_AT[1] + moved, hit_y)
        past = max(CUE_AT[1] + moved - hit_y, 0.0)
        fifteen_y = FIFTEEN_AT[1] + min(past, speed * 0.25)
        cue = (P14, CUE_AT[0], cue_y, 0.22) if n < STRIKE else (WHITE, CUE_AT[0], cue_y, 0.8)
        out.append(dets(cue, (WHITE, *TEN_AT, 0.85), (P15, FIFTEEN_AT[0], fifteen_y, 0.7)))
    return out


def _referee(frames: list[Detections]) -> tuple[list, list]:
    """Tracker and event detector as the pipeline runs them, the names found swapped handed back."""
    tracker, detector = BallTracker(SPEC), EventDetector(SPEC)
    events, views, t = [], [], 0.0
    for n, detections in enumerate(frames):
        t = n / FPS
        views = tracker.update(t, detections)
        events += detector.update(t, views, tracker.gone())
        for a, b in detector.take_swaps():
            tracker.swap(a, b)
    return events + detector.finish(t, views), views


def test_a_struck_ball_named_as_a_stripe_is_the_cue_ball():
    events, views = _referee(_frames(3000.0))
    starts = [e for e in events if isinstance(e, c.ShotStart)]
    assert [(s.ball, round(s.t, 2)) for s in starts] == [("cue", round(STRIKE / FPS, 2))]
    assert [e.balls for e in events if isinstance(e, c.BallBall)] == [("cue", "15")]
    placed = {v.ball: v.xy_mm for v in views}
    assert np.allclose(placed["cue"], (CUE_AT[0], FIFTEEN_AT[1] - 2 * R), atol=5.0)
    # The stripe read as the cue ball takes the name the cue ball had: every read of it says "cue ball",
    # so which stripe it is stays unknown until one says otherwise.
    assert sorted(placed) == ["14", "15", "cue"] and np.allclose(placed["14"], TEN_AT, atol=1.0)


def test_the_tracker_follows_the_struck_cue_ball_under_the_stripes_name():
    """Before the event detector says anything: the 14's track follows the ball read as the cue ball once
    it moves; the 10, read as the cue ball at rest, keeps its place; no third white-looking ball is made."""
    tracker = BallTracker(SPEC)
    views = []
    for n, detections in enumerate(_frames(3000.0, frames=STRIKE + 8)):
        views = tracker.update(n / FPS, detections)
    placed = {v.ball: v.xy_mm for v in views}
    assert sorted(placed) == ["14", "15", "cue"]
    assert placed["14"][1] > CUE_AT[1] + 200.0
    assert np.allclose(placed["cue"], TEN_AT, atol=1.0)


def test_a_stripe_nudged_slowly_before_a_shot_keeps_its_name():
    """A hand or a sleeve that moves a stripe at 0.2 m/s is no strike: no shot starts, no names swap."""
    tracker, detector = BallTracker(SPEC), EventDetector(SPEC)
    events, swaps = [], []
    for n in range(120):
        t = n / FPS
        y = 1690.0 + 200.0 * max(n - 30, 0) / FPS if n < 60 else 1790.0
        views = tracker.update(t, dets((WHITE, *CUE_AT, 0.8), (P10, 700.0, y, 0.7)))
        events += detector.update(t, views, tracker.gone())
        swaps += detector.take_swaps()
    assert swaps == []
    assert not any(isinstance(e, c.ShotStart) for e in events)


def test_a_struck_stripe_with_no_cue_ball_on_the_table_is_the_cue_ball():
    """No ball was read as the cue ball at all (its white lost in a cloth's glare): the struck "10" is the
    cue ball, and the tracker names it so; no other ball's name changes."""
    frames = [
        dets((P10, CUE_AT[0], CUE_AT[1] + 3000.0 * max(n - STRIKE, 0) / FPS, 0.3), (P15, 1500.0, 300.0, 0.7))
        for n in range(STRIKE + 20)
    ]
    events, views = _referee(frames)
    assert [(e.ball, round(e.t, 2)) for e in events if isinstance(e, c.ShotStart)] == [("cue", 0.75)]
    assert sorted(v.ball for v in views) == ["15", "cue"]


def test_stripes_moved_together_before_a_shot_keep_their_names():
    """A rack pushed by hand moves its balls together, fast, touching nothing that moved before: no strike,
    so no ball is the cue ball for it, and no shot starts."""
    tracker, detector = BallTracker(SPEC), EventDetector(SPEC)
    events, swaps = [], []
    for n in range(120):
        t = n / FPS
        moved = min(max(n - 30, 0), 15) / FPS  # seconds pushed, a rack turning as it goes
        y = 1690.0 + 600.0 * moved
        racked = [
            (P10, 700.0 - 400.0 * moved, y, 0.7),
            (P15, 700.0 + 2 * R + 400.0 * moved, y, 0.7),
            (P14, 700.0 + R, y + 1.8 * R + 300.0 * moved, 0.7),
        ]
        views = tracker.update(t, dets((WHITE, *CUE_AT, 0.8), *racked))
        events += detector.update(t, views, tracker.gone())
        swaps += detector.take_swaps()
    assert swaps == []
    assert not any(isinstance(e, c.ShotStart) for e in events)
