"""Contacts the camera did not see happen (``tracking.unseen_contacts``): a striker lost in its blur from the
cue to the object ball, a ball struck from rest that is never seen moving (its detection taken by another
track of its look), and a ball seen at its spot well after a kink that did not strike it."""

from __future__ import annotations

import math

import numpy as np
from views_helper import run_frames, view

from arbiter import contract as c
from arbiter.games import billiards
from tracking.ball_path import BallPath
from tracking.events import STRUCK_UNSEEN_S
from tracking.unseen_contacts import (
    first_touch,
    moved_unseen_at,
    still_after,
    struck_by_unseen,
    struck_lost_from,
    unseen_since,
)

SPEC = billiards("snooker")
R = SPEC.table.ball_radius_mm
FPS = 30.0


def _path(*samples: tuple[float, float, float], rest: tuple[float, float] | None = None) -> BallPath:
    return BallPath(samples=list(samples), rest=rest)


def _run(frames):
    return run_frames(frames, SPEC, FPS)


def test_a_ball_moved_unseen_where_its_sightings_either_side_are_far_apart():
    white = [(0.9, 600.0, 3400.0), (0.933, 600.0, 3400.0), (1.133, 206.0, 2387.0), (1.167, 156.0, 2389.0)]
    assert moved_unseen_at(white, 1.1, 100.0)
    assert not moved_unseen_at(white, 1.133, 100.0)  # seen then
    assert not moved_unseen_at(white, 0.92, 100.0)  # between two sightings at rest
    assert not moved_unseen_at(white, 2.0, 100.0)  # after its last sighting
    assert unseen_since(white, 1.133, 100.0) == 0.933  # its strike unseen: from its last sighting before
    assert unseen_since(white, 0.92, 100.0) == 0.92


def test_a_striker_is_the_ball_seen_again_touching_the_spot_just_after():
    red_at = np.array([242.0, 2336.0])
    paths = {
        "white": _path((0.933, 631.0, 3395.0), (1.133, 206.0, 2387.0)),  # 62 mm from the red: touching
        "blue": _path((0.933, 900.0, 900.0), (1.133, 950.0, 950.0)),  # moving, far off
        "red:1": _path((1.067, *red_at), (1.1, 242.0, 2330.0)),
    }
    assert struck_by_unseen(paths, "red:1", 1.1, red_at, R, 30.0, 100.0) == ("white", 1.133)
    paths["white"].samples[-1] = (1.3, 206.0, 2387.0)  # seen again too late to have been just there
    assert struck_by_unseen(paths, "red:1", 1.1, red_at, R, 30.0, 100.0) is None


def test_a_fast_striker_seen_well_past_the_contact_is_run_back_along_its_line_to_it():
    """Held-out broadcast 9492, shot 9: the white, lost in its blur from its strike, cut the green and was
    first seen again 0.04 s later, 120 mm from the green's spot; its first line, run back to when the green
    left, touches the spot. The cue ball's first contact was lost."""
    green_at = np.array([591.0, 732.0])
    white = _path((0.567, 1022.0, 633.0), (0.6, 1022.0, 633.0), (0.8, 553.0, 847.0), (0.833, 484.0, 898.0))
    paths = {"white": white, "green": _path((0.733, *green_at))}
    assert struck_by_unseen(paths, "green", 0.76, green_at, R, 30.0, 150.0) == ("white", 0.76)
    white.samples[-1] = (0.833, 620.0, 898.0)  # running off the other way: its line misses the spot
    assert struck_by_unseen(paths, "green", 0.76, green_at, R, 30.0, 150.0) is None


def test_the_first_touch_is_by_a_ball_arriving_not_one_at_rest_beside():
    red_at = np.array([1350.0, 1996.0])
    paths = {
        "white": _path((0.867, 934.0, 1588.0), (1.0, 1298.0, 1982.0), (1.033, 1287.0, 2008.0)),
        "red:2": _path((0.967, 1350.0, 1996.0 + 2 * R), (1.0, 1350.0, 1996.0 + 2 * R)),  # frozen beside it
        "red:1": _path((0.967, *red_at)),
    }
    assert first_touch(paths, "red:1", red_at, (0.92, 1.07), R, 30.0, 100.0) == ("white", 1.0)
    assert first_touch(paths, "red:1", red_at, (1.01, 1.07), R, 30.0, 100.0) == ("white", 1.033)
    del paths["white"]
    assert first_touch(paths, "red:1", red_at, (0.92, 1.07), R, 30.0, 100.0) is None


def test_a_ball_still_at_its_spot_well_after_was_not_moved_then():
    red = [(0.9, 1544.0, 1732.0), (0.933, 1544.0, 1732.0), (0.967, 1544.0, 1732.5), (1.033, 1508.0, 1748.0)]
    assert still_after(red, 0.91, 0.05, 3.0)
    assert not still_after(red, 0.99, 0.03, 3.0)  # its next sighting is well away
    assert not still_after(red, 1.0, 0.05, 3.0)  # not seen after
    # A slow ball that reverses at a contact is where it was 0.07 s later, but was not at rest through it.
    slow = [(3.467, 1363.8, 3535.2), (3.5, 1366.3, 3531.0), (3.533, 1369.1, 3529.2), (3.567, 1369.4, 3526.6)]
    slow += [(3.6, 1368.0, 3527.2), (3.633, 1365.7, 3523.6)]
    assert not still_after(slow, 3.525, 0.05, 3.0)
    # Unseen across the kink and seen again 4 mm off: pushed slowly, not still.
    pushed = [(5.167, 214.9, 567.1), (5.2, 214.9, 567.1), (5.333, 214.3, 571.4), (5.4, 220.2, 569.7)]
    assert not still_after(pushed, 5.264, 0.05, 3.0)


def test_the_stream_waits_from_a_ball_given_up_as_struck():
    red = _path((0.9, 100.0, 100.0), (0.967, 100.0, 100.0), rest=(100.0, 100.0))
    other = _path((0.9, 500.0, 500.0), rest=(500.0, 500.0))
    assert struck_lost_from([red, other], 1.2, 2.0) == math.inf
    red.lost_at_rest()
    assert struck_lost_from([red, other], 1.2, 2.0) == 0.967
    assert struck_lost_from([red, other], 3.5, 2.0) == math.inf  # awaited long enough
    red.samples.append((1.3, 100.5, 100.0))
    red.still_at(2)  # seen again where it lay
    assert struck_lost_from([red, other], 1.4, 2.0) == math.inf


def _white_into(red_at, speed, t_strike, t_hit):
    """Where the white is at ``t``, and its velocity: at rest until ``t_strike``, then rolling straight up
    (+y) at ``speed`` into a ball at ``red_at``, touching it at ``t_hit``, and stopped dead there (a stun)."""

    def at(t: float) -> tuple[tuple[float, float], tuple[float, float]]:
        y = red_at[1] - 2 * R - speed * (t_hit - min(max(t, t_strike), t_hit))
        return (red_at[0], y), ((0.0, speed) if t_strike < t < t_hit else (0.0, 0.0))

    return at


def test_a_striker_lost_in_its_blur_struck_the_ball_it_is_seen_touching():
    """A power shot: the white struck at 0.5 s at 5 m/s into a red 1.1 m off, unseen in its blur until the
    contact; it stuns dead, the red goes on at its speed, its detection pulled a frame before it is seen
    moving. The shot starts at the white's last sighting, and the white struck the red."""
    speed, red_at, t_strike = 5000.0, (600.0, 1500.0 + 2 * R), 0.5
    t_hit = round((t_strike + 1100.0 / speed) * FPS) / FPS  # seen again at the contact's frame
    white = _white_into(red_at, speed, t_strike, t_hit)
    frames = []
    for n in range(int(3.0 * FPS)):
        t = n / FPS
        (wxy, wv), ry = white(t), red_at[1] + speed * max(t - t_hit, 0.0)
        pulled = -4.0 if abs(t - (t_hit - 1 / FPS)) < 1e-6 else 0.0
        red_v = (0.0, speed if t > t_hit else 0.0)
        red = view("red:1", (red_at[0], min(ry + pulled, 3300.0)), ry < 3300.0, red_v)
        frames.append([view("white", wxy, t <= t_strike or t >= t_hit, wv), red])
    events = _run(frames)
    start = next(e for e in events if isinstance(e, c.ShotStart))
    contacts = [e for e in events if isinstance(e, c.BallBall)]
    assert start.ball == "white" and start.t <= t_strike + 1 / FPS
    assert [e.balls for e in contacts] == [("white", "red:1")]
    assert abs(contacts[0].t - t_hit) <= 1.5 / FPS


def test_a_ball_given_up_as_struck_and_never_seen_again_was_struck_by_the_ball_touching_it():
    """The white, unseen in its blur from the cue, strikes a red and glances off sideways; the red's
    detection goes to another red's track at once: it is never seen again, and given up as struck (lost)
    five frames on. It left when the white was first seen touching it, struck by the white."""
    red_at, t_strike, t_hit = (1350.0, 2000.0), 0.5, 1.0
    white = _white_into(red_at, 3000.0, t_strike, t_hit)
    frames = []
    for n in range(int(4.0 * FPS)):
        t = n / FPS
        (wx, wy), wv = white(t)
        if t > t_hit:
            wx, wv = wx + 800.0 * (t - t_hit), (800.0, 0.0)
        frames.append(
            [
                view("white", (wx, wy), not t_strike < t < t_hit, wv),
                view("red:1", red_at, t < t_hit, lost=t > t_hit + 5 / FPS),
                view("red:2", (red_at[0] + 4 * R, red_at[1] + 4 * R), True),
            ]
        )
    contacts = [e for e in _run(frames) if isinstance(e, c.BallBall)]
    assert [e.balls for e in contacts] == [("white", "red:1")]
    assert abs(contacts[0].t - t_hit) <= 1.5 / FPS


def test_the_contact_with_a_ball_seen_again_late_keeps_its_place_in_the_stream():
    """The white strikes a red at 1 s that is lost in its blur (given up as struck) and found again 0.8 s
    later far away, and a second red at 1.4 s. The first contact comes first in the stream, at its time."""
    t_strike, t_hit, t_second, speed = 0.5, 1.0, 1.4, 1500.0
    first_at = (800.0 + 1.5 * R, 1000.0)  # a half-ball hit: the white goes on nearly straight
    white_y = first_at[1] - math.sqrt(4 - 1.5**2) * R + speed * (t_second - t_hit)
    frames = []
    for n in range(int(5.0 * FPS)):
        t = n / FPS
        moving = t_strike < t < t_second
        white = (800.0, white_y - speed * (t_second - min(max(t, t_strike), t_second)))
        red1_seen = t < t_hit or t >= t_hit + 0.8
        red1 = (first_at[0] + 2000.0 * (t - t_hit), first_at[1]) if t >= t_hit + 0.8 else first_at
        frames.append(
            [
                view("white", white, True, (0.0, speed) if moving else (0.0, 0.0)),
                view("red:1", red1, red1_seen, lost=not red1_seen and t > t_hit + 5 / FPS),
                view("red:2", (800.0, white_y + 2 * R + speed * max(t - t_second, 0.0)), True),
            ]
        )
    contacts = [e for e in _run(frames) if isinstance(e, c.BallBall)]
    assert [e.balls for e in contacts][:2] == [("white", "red:1"), ("white", "red:2")]
    assert abs(contacts[0].t - t_hit) <= 1.5 / FPS
    assert STRUCK_UNSEEN_S > 0.8
