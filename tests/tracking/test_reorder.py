"""The event stream's reorder buffer: released in time order; a contact found twice kept once with its
better timing; a shot start made for a contact (its strike unseen) kept before it."""

from __future__ import annotations

import math

import pytest

from arbiter import contract as c
from tracking.reorder import Reorder

WITHIN_S = 0.05


def _contact(t: float) -> c.BallBall:
    return c.BallBall(t=t, balls=("white", "green"))


def test_events_are_released_in_time_order_up_to_the_time_asked():
    r = Reorder()
    r.push(2.0, c.Cushion(t=2.0, ball="white", side="left"))
    r.push(1.0, _contact(1.0))
    assert [e.t for e in r.release(1.5)] == [1.0]
    assert [e.t for e in r.release(math.inf)] == [2.0]


def test_an_event_known_too_late_is_stamped_at_the_last_time_released():
    r = Reorder()
    r.push(2.0, _contact(2.0))
    r.release(math.inf)
    r.push(1.9, c.Cushion(t=1.9, ball="white", side="left"))
    assert [e.t for e in r.release(math.inf)] == [2.0]


def test_a_contact_found_twice_is_kept_once_with_the_better_timing():
    r = Reorder()
    r.push(1.82, _contact(1.82), priority=0)
    assert r.same_contact(1.80, _contact(1.80), 1, WITHIN_S)  # a ball leaving rest times it better
    assert r.same_contact(1.81, _contact(1.81), 0, WITHIN_S)  # a worse timing changes nothing
    assert not r.same_contact(1.90, _contact(1.90), 1, WITHIN_S)  # too far apart: another contact
    assert [e.t for e in r.release(math.inf)] == [1.80]


def test_a_shot_start_made_for_a_contact_stays_before_it_when_the_contact_is_timed_earlier():
    """Broadcast seed 9301's eighth shot: the table found while the white already rolled, the shot start
    was made for its contact with the green (found by the white's kink at 1.818 s); the green leaving rest
    then timed the contact at 1.801 s, and the stream had the contact before the shot: no first contact."""
    r = Reorder()
    r.start_for(1.818, "white")
    r.push(1.818, _contact(1.818))
    r.same_contact(1.801, _contact(1.801), 1, WITHIN_S)
    out = r.release(math.inf)
    assert [type(e) for e in out] == [c.ShotStart, c.BallBall]
    assert out[0].t < out[1].t == 1.801 and out[0].ball == "white"


def test_a_contact_of_two_balls_at_rest_before_the_struck_ball_s_first_comes_just_after_it():
    # A break-off into the pack: its reds' kinks timed a frame or two before the cue ball's own contact.
    r = Reorder()
    r.push(0.89, c.ShotStart(t=0.89, ball="white"))
    r.push(1.27, c.BallBall(t=1.27, balls=("red:10", "red:5")))
    r.push(1.28, c.BallBall(t=1.28, balls=("white", "red:4")))
    r.push(1.30, c.BallBall(t=1.30, balls=("red:4", "red:8")))
    out = r.release(math.inf)
    assert [(type(e).__name__, getattr(e, "balls", None)) for e in out][1:3] == [
        ("BallBall", ("white", "red:4")),
        ("BallBall", ("red:10", "red:5")),
    ]
    assert [e.t for e in out] == sorted(e.t for e in out) and out[2].t == pytest.approx(1.28, abs=1e-5)


def test_a_contact_of_two_others_long_before_the_struck_ball_s_first_keeps_its_time():
    r = Reorder()
    r.push(0.50, c.ShotStart(t=0.50, ball="white"))
    r.push(1.00, c.BallBall(t=1.00, balls=("red:1", "red:2")))
    r.push(1.50, c.BallBall(t=1.50, balls=("white", "red:3")))
    assert [e.t for e in r.release(math.inf)] == [0.50, 1.00, 1.50]
    # after the struck ball's first contact, any two balls may meet at any time
    r.push(2.00, c.ShotStart(t=2.00, ball="white"))
    r.push(2.40, c.BallBall(t=2.40, balls=("white", "red:3")))
    r.push(2.45, c.BallBall(t=2.45, balls=("red:3", "red:4")))
    assert [e.t for e in r.release(math.inf)] == [2.00, 2.40, 2.45]
