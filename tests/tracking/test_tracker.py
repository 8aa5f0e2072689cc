"""The tracker's lifecycle frame by frame: born, hidden at rest, gone into a pocket, never swapped."""

from __future__ import annotations

import numpy as np
import pytest

from arbiter.balls import APPEARANCE_CLASSES
from arbiter.games import billiards
from tracking.tracker import BallTracker, TrackerConfig, TrackState
from vision.types import Detections

TABLE = billiards("snooker").table
WHITE, RED, YELLOW = (APPEARANCE_CLASSES.index(k) for k in ("white", "red", "yellow"))


def dets(*balls: tuple[int, float, float]) -> Detections:
    n = len(balls)
    return Detections(
        np.zeros((n, 2)),
        np.ones(n),
        np.array([b[0] for b in balls], dtype=np.int64),
        np.ones(n),
        np.array([[b[1], b[2]] for b in balls]).reshape(n, 2),
    )


def run(tracker, frames, fps=60.0):
    views = []
    for i, balls in enumerate(frames):
        views = tracker.update(i / fps, dets(*balls))
    return views


def test_a_ball_is_born_after_n_hits_and_named_by_its_look():
    tr = BallTracker(billiards("snooker"), TrackerConfig(n_init=3))
    assert run(tr, [[(YELLOW, 500.0, 500.0)]] * 2) == []
    (view,) = run(tr, [[(YELLOW, 500.0, 500.0)]])
    assert view.ball == "yellow" and view.state is TrackState.CONFIRMED


def test_reds_get_stable_numbered_ids():
    tr = BallTracker(billiards("snooker"))
    frames = [[(RED, 400.0, 900.0), (RED, 800.0, 900.0)]] * 5
    ids = {v.ball: v.xy_mm for v in run(tr, frames)}
    assert set(ids) == {"red:1", "red:2"}
    later = {v.ball: v.xy_mm for v in run(tr, frames)}
    assert later.keys() == ids.keys() and all(np.allclose(later[k], ids[k], atol=1) for k in ids)


def test_a_ball_at_rest_hidden_under_an_arm_is_not_lost():
    tr = BallTracker(billiards("snooker"))
    run(tr, [[(WHITE, 600.0, 600.0), (RED, 900.0, 900.0)]] * 10)
    views = run(tr, [[(WHITE, 600.0, 600.0)]] * 120)  # the red is under a hand for two seconds
    red = next(v for v in views if v.ball == "red:1")
    assert not red.measured and red.xy_mm == pytest.approx((900.0, 900.0), abs=1.0)
    assert tr.gone() == []


def test_a_moving_ball_that_vanishes_at_a_pocket_is_gone_there():
    tr = BallTracker(billiards("snooker"))
    mouth = TABLE.pocket("tr").mouth_xy_mm
    start = np.array(mouth) - np.array([400.0, 400.0])
    path = [start + (np.array(mouth) - start) * k / 20 for k in range(21)]
    run(tr, [[(RED, *p)] for p in path[:-1]] + [[]] * 10)
    (gone,) = tr.gone()
    assert gone.ball == "red:1" and gone.gone_near == "tr"


def test_two_balls_of_different_looks_crossing_are_never_swapped():
    tr = BallTracker(billiards("snooker"))
    frames = [[(WHITE, 500.0 + 10 * k, 1000.0), (YELLOW, 700.0 - 10 * k, 1000.0)] for k in range(21)]
    views = {v.ball: v.xy_mm for v in run(tr, frames)}
    assert views["white"][0] == pytest.approx(700.0, abs=2) and views["yellow"][0] == pytest.approx(
        500.0, abs=2
    )


@pytest.mark.parametrize(("field", "value"), [("n_init", 0), ("gate_mm", 0.0), ("max_misses_moving", 0)])
def test_bad_settings_are_refused_when_built(field, value):
    with pytest.raises(ValueError, match=field):
        TrackerConfig(**{field: value})
