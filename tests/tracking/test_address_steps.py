"""A ball's centre stepping off its spot while nothing strikes it (``tracking.address_steps``): the cue at
the address shifts the cue ball's detected centre and back, which is no stroke; a cue ball moved by the
cue and left there is one; a cue ball stunned into a ball frozen to it left at once."""

from __future__ import annotations

import numpy as np
import pytest
from views_helper import run_frames, view

from arbiter import contract as c
from arbiter.games import billiards
from tracking.address_steps import HOLD_S, Step, is_step, places_about, read_step

SPEC = billiards("snooker")
R = SPEC.table.ball_radius_mm
FPS = 60.0
SPOT = (1380.0, 1055.0)
RED = (1380.0, 1900.0)


def _samples(places, t0=0.0):
    return [(t0 + i / FPS, float(x), float(y)) for i, (x, y) in enumerate(places)]


def test_a_step_that_stays_still_near_the_spot_with_no_ball_touching_is_one():
    stepped = _samples([(1380.0, 1065.0)] * 4 + [(1380.3, 1065.4)] * 4)
    assert is_step(stepped, 0, 3, SPOT, [np.array(RED)], R)
    rolling = _samples([(1380.0, 1065.0 + 4.0 * i) for i in range(8)])  # struck: runs on
    assert not is_step(rolling, 0, 3, SPOT, [np.array(RED)], R)
    far = _samples([(1380.0, 1100.0)] * 8)  # more than a covered ball's shift
    assert not is_step(far, 0, 3, SPOT, [np.array(RED)], R)
    frozen = np.array([SPOT[0], SPOT[1] + 2 * R + 1.0])  # a ball frozen to it: stunned, not a step
    assert not is_step(stepped, 0, 3, SPOT, [frozen], R)


def test_a_ball_touched_just_before_it_stepped_was_struck_not_covered():
    """Broadcast 9475: a red 15 mm off a cushion, struck into it by another red that touched it 0.17 s
    before its step was seen, thrown back near its spot. A ball that touched it that lately could have
    struck it; one that touched it half a second before could not."""
    stepped = _samples([(1380.0, 1065.0)] * 8, t0=1.0)

    def striker(t_touch):  # touching the stepped ball at t_touch, then running off at 1 m/s
        return [(t_touch + i / FPS, SPOT[0], SPOT[1] - 2 * R - 1000.0 * i / FPS) for i in range(60)]

    assert not is_step(stepped, 0, 3, SPOT, places_about([striker(0.83)], 1.0), R)
    assert is_step(stepped, 0, 3, SPOT, places_about([striker(0.5)], 1.0), R)


def test_a_step_reads_as_back_on_stayed_or_undecided():
    step = [(1380.0, 1065.0)] * 10
    back = _samples(step + [(1380.2, 1055.3)] * 5)
    assert read_step(back, 0, SPOT, 3.0, 3) == (Step.BACK, 10)
    on = _samples(step + [(1380.0, 1065.0 + 20.0 * i) for i in range(1, 6)])
    assert read_step(on, 0, SPOT, 3.0, 3) == (Step.ON, 10)
    staying = _samples([(1380.0, 1065.0)] * round(FPS * HOLD_S * 1.2))
    assert read_step(staying, 0, SPOT, 3.0, 3) == (Step.STAYED, 0)
    assert read_step(staying[: round(FPS * HOLD_S / 2)], 0, SPOT, 3.0, 3) == (Step.WAIT, 0)


def _shot(white_places):
    """The white's places frame by frame (then it runs at the red), the red at rest far off; the events."""
    frames = []
    for xy in white_places:
        frames.append([view("white", xy, True), view("red:1", RED, True)])
    x, y = white_places[-1]
    while y + 50.0 < RED[1] - 2 * R:
        y += 50.0
        frames.append([view("white", (x, y), True, (0.0, 3000.0)), view("red:1", RED, True)])
    for k in range(1, 40):
        frames.append(
            [view("white", (x, y), True), view("red:1", (RED[0], RED[1] + 40.0 * k), True, (0.0, 2400.0))]
        )
    frames += [[view("white", (x, y), True), view("red:1", (RED[0], RED[1] + 40.0 * 40), True)]] * 150
    return run_frames(frames, SPEC, FPS)


def test_the_cue_at_the_address_shifting_the_white_and_back_is_no_stroke():
    """Broadcast 9304, shot 7: the white's centre stepped 10 mm while the cue covered part of it, back, and
    again, before the stroke; the shot was read as started at the first step, 0.6 s early."""
    still, stepped = [SPOT] * 30, [(SPOT[0], SPOT[1] + 10.0)] * 15
    places = still + stepped + still + stepped
    out = _shot(places)
    starts = [e.t for e in out if isinstance(e, c.ShotStart)]
    assert starts == [pytest.approx(len(places) / FPS, abs=2 / FPS)]
    assert [e.balls for e in out if isinstance(e, c.BallBall)] == [("white", "red:1")]


def test_a_white_moved_by_the_cue_and_left_there_was_struck_when_it_moved():
    """A cue touching the ball at the address plays a stroke: moved 10 mm and still there a second later,
    the shot started when it moved (and a second one when it is played)."""
    places = [SPOT] * 30 + [(SPOT[0], SPOT[1] + 10.0)] * round(FPS * HOLD_S * 1.5)
    out = _shot(places)
    starts = [e.t for e in out if isinstance(e, c.ShotStart)]
    assert starts[0] == pytest.approx(30 / FPS, abs=2 / FPS)
