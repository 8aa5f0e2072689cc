"""The plane geometry of a ball's path: where a struck ball leaves to, when a striker reaches a ball."""

from __future__ import annotations

import math

import numpy as np
import pytest

from arbiter.games import billiards
from tracking.paths import first_reach, struck_away, struck_unseen, where_no_ball_rests

D = 52.5


def test_a_full_hit_sends_the_ball_on_with_the_striker_s_velocity():
    assert struck_away((0.0, 0.0), (1000.0, 0.0), (500.0, 0.0), D) == pytest.approx((1000.0, 0.0))


def test_a_cut_sends_the_ball_along_the_line_of_centres_at_contact_with_the_speed_along_it():
    """The striker's path passes 30 mm beside the ball: the ghost ball's centre is where the path first
    comes a ball's width from it, and the ball leaves along the line from there through its centre."""
    vx, vy = struck_away((0.0, 30.0), (2000.0, 0.0), (500.0, 0.0), D)
    along = math.sqrt(D**2 - 30.0**2)
    n = (along / D, -30.0 / D)
    assert (vx, vy) == pytest.approx((2000.0 * n[0] * n[0], 2000.0 * n[0] * n[1]))


def test_a_striker_going_away_or_standing_strikes_nothing():
    assert struck_away((0.0, 0.0), (-1000.0, 0.0), (500.0, 0.0), D) is None
    assert struck_away((0.0, 0.0), (0.0, 0.0), (500.0, 0.0), D) is None


def test_a_striker_reaches_a_ball_when_its_centre_first_comes_within_reach_between_sightings():
    samples = [(0.0, 0.0, 0.0), (0.1, 100.0, 0.0), (0.2, 200.0, 0.0)]
    assert first_reach(samples, (250.0, 0.0), D, 0.0, 0.2) == pytest.approx(0.1 + (150.0 - D) / 100.0 * 0.1)
    assert first_reach(samples, (400.0, 0.0), D, 0.0, 0.2) == 0.2  # never within reach: its closest sighting
    assert first_reach(samples, (30.0, 0.0), D, 0.0, 0.2) == 0.0  # within reach at the first sighting
    assert first_reach(samples, (250.0, 0.0), D, 0.3, 0.4) is None


def _first_seen(rest, direction, speed, after_s):
    """A ball's first sightings' line: left ``rest`` along ``direction`` at ``speed`` at t = 1, seen first
    ``after_s`` later."""
    u = np.array(direction) / np.hypot(*direction)
    return (np.array(rest) + u * speed * after_s, u * speed, 1.0 + after_s)


def _rolling(start, velocity, t0=0.7, t1=1.3, fps=60.0):
    return [
        (t, start[0] + velocity[0] * (t - 1.0), start[1] + velocity[1] * (t - 1.0))
        for t in np.arange(t0, t1, 1 / fps)
    ]


def test_the_striker_of_a_ball_first_seen_moving_crossed_its_line_two_radii_behind_its_rest():
    line = _first_seen((500.0, 500.0), (1.0, 1.0), 1500.0, 0.1)
    ghost = np.array([500.0, 500.0]) - D * np.array([1.0, 1.0]) / math.sqrt(
        2
    )  # the striker's centre at contact
    found = struck_unseen(
        line, {"white": _rolling(ghost, (0.0, 2000.0)), "blue": _rolling((0.0, 0.0), (0.0, 0.0))}, D / 2, 0.3
    )
    assert found is not None and found[0] == "white" and found[1] == pytest.approx(1.0, abs=0.005)


def test_a_ball_crossing_the_line_going_the_other_way_or_far_too_early_struck_nothing():
    line = _first_seen((500.0, 500.0), (1.0, 1.0), 1500.0, 0.1)
    ghost = np.array([500.0, 500.0]) - D * np.array([1.0, 1.0]) / math.sqrt(2)
    assert struck_unseen(line, {"white": _rolling(ghost, (0.0, -2000.0))}, D / 2, 0.3) is None
    far_back = ghost - 400.0 * np.array([1.0, 1.0]) / math.sqrt(
        2
    )  # the ball would have crawled to its sighting
    assert struck_unseen(line, {"white": _rolling(far_back, (0.0, 2000.0))}, D / 2, 0.3) is None


def test_no_ball_rests_past_a_pockets_mouth_line_and_a_carom_table_has_none() -> None:
    """Past a corner's mouth line by more than a radius no ball rests (a hand over the pocket read as one);
    in the mouth, on the table, and anywhere on a table without pockets, one may."""
    table = billiards("snooker").table
    pocket = table.pocket("bl")
    mouth, inward = np.array(pocket.mouth_xy_mm), np.array(pocket.inward)
    points = np.array([mouth - 50.0 * inward, mouth - 10.0 * inward, mouth + 40.0 * inward, [900.0, 1700.0]])
    assert where_no_ball_rests(table, points).tolist() == [table.pockets.index(pocket), -1, -1, -1]
    assert where_no_ball_rests(billiards("five-pins").table, points).tolist() == [-1, -1, -1, -1]
