"""A ball that strikes a pocket's jaw on its way in: in the mouth the cushion's nose turns away from its ball
line into the pocket, so no ball line explains the turn, and the ball is gone a few frames later (straight
pool seed 9232's eighth shot: the 12 off the bottom jaw into the bottom right pocket)."""

from __future__ import annotations

import numpy as np
import pytest
from tracking_helper import dets

from arbiter import contract as c
from arbiter.balls import APPEARANCE_CLASSES
from arbiter.games import billiards
from tracking.cushion_sides import jaw_side
from tracking.events import EventDetector
from tracking.tracker import BallTracker

SPEC = billiards("snooker")
TABLE = SPEC.table
R = TABLE.ball_radius_mm
RED, WHITE = APPEARANCE_CLASSES.index("red"), APPEARANCE_CLASSES.index("white")
FPS = 60.0
MOUTH = np.array(TABLE.pocket("br").mouth_xy_mm)
IN_THE_MOUTH = MOUTH + np.array([-25.0, -12.0])


def test_a_kink_in_a_corner_pockets_mouth_is_the_jaw_it_was_pushed_out_of():
    # Into the bottom cushion, thrown along it: the bottom jaw.
    assert jaw_side(TABLE, IN_THE_MOUTH, np.array([220.0, -890.0]), np.array([675.0, -50.0])) == "bottom"
    # Into the right cushion, thrown along it: the right jaw.
    right = MOUTH + np.array([12.0, 25.0])
    assert jaw_side(TABLE, right, np.array([890.0, -220.0]), np.array([50.0, -675.0])) == "right"


def test_a_ball_slowing_along_the_pockets_axis_short_of_the_jaws_or_far_from_a_pocket_struck_no_jaw():
    slowing = jaw_side(TABLE, MOUTH, np.array([700.0, -700.0]), np.array([300.0, -300.0]))
    assert slowing is None  # its centre dragged by the pocket's shade as it drops
    short = MOUTH + np.array([-25.0, 20.0])  # inside the bottom cushion's ball line: its nose is straight
    assert jaw_side(TABLE, short, np.array([220.0, -890.0]), np.array([675.0, -50.0])) is None
    middle = np.array([TABLE.width_mm / 2, TABLE.length_mm / 3])
    assert jaw_side(TABLE, middle, np.array([220.0, -890.0]), np.array([675.0, -50.0])) is None


def _off_the_jaw(v0: np.ndarray, v1: np.ndarray, t_jaw: float = 1.0) -> list[c.Event]:
    """A red rolling at ``v0`` into the bottom right pocket's mouth, turned at ``t_jaw`` by the bottom jaw
    to ``v1``, seen until it is a ball's width past the mouth (then it drops); the events called."""
    tracker, events, out = BallTracker(SPEC), EventDetector(SPEC), []
    t = 0.0
    for n in range(int(3 * FPS)):
        t = n / FPS
        dt = t - t_jaw
        xy = IN_THE_MOUTH + (v0 * dt if dt < 0 else v1 * dt)
        balls = [(WHITE, 800.0, 2500.0)]
        if dt < 0 or xy[0] < MOUTH[0] + TABLE.ball_diameter_mm:
            balls.append((RED, float(xy[0]), float(xy[1])))
        views = tracker.update(t, dets(*balls))
        out += events.update(t, views, tracker.gone())
    return out + events.finish(t, views)


def test_a_ball_off_the_jaw_into_the_pocket_struck_that_cushion_and_was_potted():
    out = _off_the_jaw(np.array([220.0, -890.0]), np.array([675.0, -50.0]))
    cushions = [(e.ball, e.side, e.t) for e in out if isinstance(e, c.Cushion)]
    assert cushions == [("red:1", "bottom", pytest.approx(1.0, abs=1.5 / FPS))]
    assert [(e.ball, e.pocket) for e in out if isinstance(e, c.Pot)] == [("red:1", "br")]


def test_a_slow_ball_whose_centre_wobbles_in_a_pockets_mouth_struck_no_jaw():
    """A ball creeping into the bottom right pocket at 0.18 m/s whose centre steps 6 mm across the
    pocket's axis for three frames past the bottom cushion's ball line (a stripe turning as it rolls): a
    kink across the axis, never a lasting change."""
    tracker, events, out = BallTracker(SPEC), EventDetector(SPEC), []
    start, v = MOUTH + np.array([-30.0, 40.0]), np.array([0.0, -180.0])
    across = np.array([1.0, 1.0]) / np.sqrt(2.0)  # across the pocket's axis
    t = 0.0
    for n in range(int(2 * FPS)):
        t = n / FPS
        xy = start + v * t
        if 16 <= n <= 18:
            xy = xy + 6.0 * across
        balls = [(WHITE, 800.0, 2500.0)] + ([(RED, float(xy[0]), float(xy[1]))] if xy[1] > -R else [])
        views = tracker.update(t, dets(*balls))
        out += events.update(t, views, tracker.gone())
    out += events.finish(t, views)
    assert [e for e in out if isinstance(e, c.Cushion)] == []
