"""A fast ball's prediction past a cushion comes back in at it (straight pool seed 9622's second shot: the 15
at 7 m/s along the left cushion into the top one, predicted 60 mm past the table's edge while its next
detections, read as the 8, lay inside it and were left to no ball); one past a pocket's mouth stays in the
pocket (straight pool seed 9470's third shot: the 6 at 0.85 m/s into the bottom-left corner, seen only
every other frame in the jaws, predicted 33 mm behind the mouth's line, thrown back onto the table with its
velocity turned out of the pocket, then held there as lost: its pot was never called)."""

from __future__ import annotations

import numpy as np
import pytest
from tracking_helper import dets

from arbiter.balls import APPEARANCE_CLASSES
from arbiter.games import billiards
from tracking.track import CUSHION_RESTITUTION, new_filter, reflect_at_cushions
from tracking.tracker import BallTracker

SPEC = billiards("straight-pool")
TABLE = SPEC.table
R = TABLE.ball_radius_mm
FPS = 60.0
CLS = {b: APPEARANCE_CLASSES.index(look.cls) for b, look in SPEC.looks.items()}


def test_a_prediction_past_a_cushion_heading_out_comes_back_in():
    right = TABLE.width_mm - R
    kf = new_filter((right + 30.0, 900.0), 2.0, (4000.0, 1000.0))
    reflect_at_cushions(kf, TABLE)
    assert kf.x[0, 0] == pytest.approx(right - CUSHION_RESTITUTION * 30.0)
    assert kf.x[2, 0] == pytest.approx(-CUSHION_RESTITUTION * 4000.0)
    assert (kf.x[1, 0], kf.x[3, 0]) == (900.0, 1000.0)


def test_a_prediction_heading_in_or_in_a_pockets_mouth_is_left_as_it_is():
    heading_in = new_filter((-5.0, 900.0), 2.0, (3000.0, 0.0))  # found outside, coming back: no flip
    reflect_at_cushions(heading_in, TABLE)
    assert (heading_in.x[0, 0], heading_in.x[2, 0]) == (-5.0, 3000.0)
    mouth = np.array(TABLE.pocket("tr").mouth_xy_mm)
    into = new_filter((mouth[0] + 10.0, mouth[1] + 10.0), 2.0, (2000.0, 2000.0))  # going in
    reflect_at_cushions(into, TABLE)
    assert (into.x[0, 0], into.x[1, 0]) == (mouth[0] + 10.0, mouth[1] + 10.0)


def test_a_prediction_past_a_corner_pockets_mouth_line_is_left_in_the_pocket():
    pocket = TABLE.pocket("bl")
    mouth, inward = np.array(pocket.mouth_xy_mm), np.array(pocket.inward)
    behind = mouth - 100.0 * inward  # past the mouth's line and beyond its middle's reach, off the table
    kf = new_filter(tuple(behind), 2.0, tuple(-900.0 * inward))
    reflect_at_cushions(kf, TABLE)
    assert (kf.x[0, 0], kf.x[1, 0]) == tuple(behind)
    assert (kf.x[2, 0], kf.x[3, 0]) == tuple(-900.0 * inward)


def test_a_prediction_run_along_a_cushion_into_a_corner_pocket_is_not_thrown_back():
    """Straight pool seed 9474's shot 5: the 7 runs up the left cushion into the top-left corner at 1 m/s
    and drops; carried on, its prediction lies past the top cushion's ball line 150 mm beyond the corner's
    mouth, but its path crossed that line in the mouth."""
    kf = new_filter((17.0, 2653.0), 2.0, (-200.0, 950.0))
    reflect_at_cushions(kf, TABLE)
    assert (kf.x[0, 0], kf.x[1, 0], kf.x[2, 0], kf.x[3, 0]) == (17.0, 2653.0, -200.0, 950.0)


def test_a_ball_seen_every_other_frame_into_a_corner_is_potted_not_thrown_back():
    """The 6 of seed 9470 (30 fps): seen, missed, seen, missed twice, seen in the jaws, then gone."""
    tracker, cue = BallTracker(SPEC), (CLS["cue"], 600.0, 1500.0)
    end, step = np.array([21.3, 19.7]), np.array([-10.0, -19.0])  # 0.64 m/s towards the corner's throat
    path = [end + step * (k - 30) for k in range(31)]
    seen = set(range(26)) | {26, 28}  # then missed at 27, 29 and seen at 30, in the jaws
    frames = [[(CLS["6"], *p), cue] if k in seen or k == 30 else [cue] for k, p in enumerate(path)]
    for n, balls in enumerate(frames + [[cue]] * 30):
        tracker.update(n / 30.0, dets(*[(int(b[0]), float(b[1]), float(b[2])) for b in balls]))
    assert [(g.ball, g.gone_near) for g in tracker.gone()] == [("6", "bl")]


def test_a_fast_ball_off_a_cushion_read_as_another_look_is_still_followed():
    """The 15 struck from rest at 6 m/s into the left cushion, seen as itself on the way in and as the 8
    for three frames on the way out (a blurred maroon stripe): those detections are the 15 misread, taken
    by the 15 from the first (predicted 50 mm past the cushion, it was lost for that frame)."""
    tracker, cue = BallTracker(SPEC), (CLS["cue"], 1000.0, 300.0)
    start, v, t_struck = np.array([1000.0, 1200.0]), np.array([-6000.0, 1500.0]), 0.5
    t_hit = t_struck + (start[0] - R) / -v[0]
    views = []
    for n in range(int(0.9 * FPS)):
        t = n / FPS
        xy = start + v * max(t - t_struck, 0.0)
        if t > t_hit:
            xy[0] = R + CUSHION_RESTITUTION * (R - xy[0])
        look = "8" if t_hit < t <= t_hit + 3 / FPS else "15"
        views = tracker.update(t, dets((CLS[look], float(xy[0]), float(xy[1])), cue))
        if t >= t_struck:  # each frame's detection is the 15's, wherever its filter lags
            (fifteen,) = [vw for vw in views if vw.ball == "15"]
            assert fifteen.measured and np.hypot(*(np.array(fifteen.xy_mm) - xy)) < R, (t, fifteen, xy)
    assert {vw.ball for vw in views} == {"15", "cue"}
