"""The plane geometry of a ball's path: where a struck ball leaves to, when a striker reaches a ball."""

from __future__ import annotations

import math

import pytest

from tracking.paths import first_reach, struck_away

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
