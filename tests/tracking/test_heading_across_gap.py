"""Where a ball lost in its blur and glimpsed again was heading: fitted across the gap where it ran on at
one speed (broadcast snooker seed 9303's shot 4: a red lost under the score bar's edge 0.13 s on its way to
the bottom left corner, glimpsed twice, the second time half hidden, then potted unseen), never where it
slowed in the gap (seed 9476's shot 0: a red that struck a corner's jaw while unseen and stayed there)."""

from __future__ import annotations

import numpy as np
from tracking_helper import dets

from arbiter import contract as c
from arbiter.balls import APPEARANCE_CLASSES
from arbiter.games import billiards
from tracking.events import EventDetector
from tracking.track import steady_velocity
from tracking.tracker import BallTracker

SPEC = billiards("snooker")
TABLE = SPEC.table
WHITE, RED = APPEARANCE_CLASSES.index("white"), APPEARANCE_CLASSES.index("red")
FPS = 60.0

# The tracker's sightings (t, x mm, y mm, measured) of the two reds named above, as replayed.
INTO_THE_CORNER = [(1.783, 409, 449, True), (1.8, 388, 425, True), (1.817, 367, 414, True),
                   (1.95, 204, 203, True), (1.967, 194, 226, True)]  # fmt: skip
STOPPED_AT_THE_JAW = [(1.667, 820, 1609, True), (1.7, 834, 1642, True), (1.733, 848, 1674, True),
                      (1.867, 861, 1768, True), (1.933, 868, 1764, True)]  # fmt: skip


def test_a_ball_that_ran_on_at_one_speed_is_fitted_across_its_gap():
    v = steady_velocity(INTO_THE_CORNER)
    assert v is not None
    assert np.hypot(*v) > 1400.0 and v[0] < 0 and v[1] < 0  # on towards the bottom left corner


def test_a_ball_that_slowed_while_unseen_is_not_fitted_across_its_gap():
    assert steady_velocity(STOPPED_AT_THE_JAW) is None


def test_too_few_sightings_either_side_of_the_gap_fit_nothing():
    assert steady_velocity(INTO_THE_CORNER[1:]) is not None
    assert steady_velocity(INTO_THE_CORNER[:4]) is None  # one sighting after the gap
    assert steady_velocity(INTO_THE_CORNER[2:]) is None  # one before it


def _run(glimpse_off_mm: float) -> list[c.Event]:
    """The white struck at 0.5 s from (800, 850), rolling at 1.6 m/s into the bottom left pocket's mouth;
    unseen for 0.13 s from 620 mm short of the mouth, glimpsed on two frames (the second
    ``glimpse_off_mm`` to its side, half hidden), then unseen till the end."""
    tracker, events, out = BallTracker(SPEC), EventDetector(SPEC), []
    mouth = np.array(TABLE.pocket("bl").mouth_xy_mm)
    start = np.array([800.0, 850.0])
    heading = (mouth - start) / np.linalg.norm(mouth - start)
    side = np.array([-heading[1], heading[0]])
    lost = int(((np.linalg.norm(mouth - start) - 620.0) / 1600.0 + 0.5) * FPS)  # the frame it is lost on
    t = 0.0
    for n in range(int(3 * FPS)):
        t = n / FPS
        balls = [(RED, 1400.0, 2500.0)]
        at = start + heading * 1600.0 * max(t - 0.5, 0.0)
        if n < lost:
            balls.append((WHITE, float(at[0]), float(at[1])))
        elif n in (lost + 8, lost + 9):
            at = at + side * (glimpse_off_mm if n == lost + 9 else 0.0)
            balls.append((WHITE, float(at[0]), float(at[1])))
        views = tracker.update(t, dets(*balls))
        out += events.update(t, views, tracker.gone())
    return out + events.finish(t, views)


def test_a_ball_glimpsed_after_a_gap_on_its_way_into_a_corner_is_potted():
    out = _run(glimpse_off_mm=20.0)
    assert [(e.ball, e.pocket) for e in out if isinstance(e, c.Pot)] == [("white", "bl")]
