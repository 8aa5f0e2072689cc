"""When a ball may have left rest: within a moment of its departure as read from its first line in motion,
or all along the time it was unseen where that line missed its spot (it met a cushion in its blur), and no
longer so once it has come to rest again."""

from __future__ import annotations

import pytest

from tracking.ball_path import BallPath

FPS = 60.0


def _left_after_a_gap() -> BallPath:
    """At rest at (500, 500) until 1.0 s, unseen until 1.6 s, seen moving from there."""
    at_rest = [(n / FPS, 500.0, 500.0) for n in range(61)]
    moving = [(1.6 + n / FPS, 900.0 - 40.0 * n, 300.0) for n in range(10)]
    return BallPath(samples=at_rest + moving, moving_from=len(at_rest))


def test_a_ball_leaves_within_a_moment_of_its_departure_as_read():
    path = _left_after_a_gap()
    assert path.left_rest_within(1.55, 0.2, 0.05) == pytest.approx((1.35, 1.6))


def test_a_ball_whose_first_line_missed_its_spot_may_have_left_all_along_the_gap():
    path = _left_after_a_gap()
    path.left_bent = True
    assert path.left_rest_within(1.55, 0.2, 0.05) == pytest.approx((1.0, 1.65))


def test_a_ball_at_rest_again_is_not_read_by_its_last_departure():
    path = _left_after_a_gap()
    path.left_bent = True
    path.samples += [(1.8 + n / FPS, 540.0, 300.0) for n in range(10)]
    path.maybe_rest(len(path.samples) - 1, 3, 25.0)
    assert path.rest is not None and not path.left_bent
