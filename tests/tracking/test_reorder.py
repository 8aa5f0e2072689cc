"""The event stream's reorder buffer: released in time order; a contact found twice kept once with its
better timing; a shot start made for a contact (its strike unseen) kept before it."""

from __future__ import annotations

import math

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
