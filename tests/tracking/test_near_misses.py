"""A ball at rest pulled about by a passing ball's image, not struck (``tracking.near_misses``): a kink of
the passing ball beside it is no contact where the ball is back at its spot well after; a ball that leaves,
or one with a ball or a cushion at its back (a kick passed on), keeps the contact."""

from __future__ import annotations

from views_helper import run_frames, view

from arbiter import contract as c
from arbiter.games import billiards
from tracking.near_misses import pulled_not_struck

SPEC = billiards("snooker")
TABLE = SPEC.table
R = TABLE.ball_radius_mm
FPS = 60.0
WHITE = (1380.0, 1055.0)
PINK = (1380.0 + 2 * R + 0.9, 1900.0)  # 0.9 mm wide of the white's line (broadcast 9305, shot 4)


def _samples(places, t0):
    return [(t0 + i / FPS, float(x), float(y)) for i, (x, y) in enumerate(places)]


def _wiggle(rest, t_kink):
    """A ball at ``rest`` seen from 0.2 s before ``t_kink``, pulled 4 mm aside for two frames at it, back."""
    x, y = rest
    places = [rest] * 12 + [(x - 4.0, y), (x - 3.0, y)] + [(x + 0.5, y)] * 4
    return _samples(places, t_kink - 12 / FPS)


def test_a_ball_back_at_its_spot_where_the_kick_would_have_carried_it_away_was_not_struck():
    t = 1.0
    assert pulled_not_struck(_wiggle(PINK, t), PINK, t, 250.0, 3.0, [], TABLE)
    # A kick this weak would have moved it under twice the tolerance by its last sighting: undecided.
    assert not pulled_not_struck(_wiggle(PINK, t), PINK, t, 100.0, 3.0, [], TABLE)
    # Not seen long enough after the kink, or not seen at its spot before it: undecided.
    assert not pulled_not_struck(_wiggle(PINK, t)[:14], PINK, t, 250.0, 3.0, [], TABLE)
    assert not pulled_not_struck(_wiggle(PINK, t)[12:], PINK, t, 250.0, 3.0, [], TABLE)


def test_a_ball_that_left_or_has_a_ball_or_cushion_at_its_back_keeps_the_contact():
    t = 1.0
    left = _wiggle(PINK, t)[:14] + _samples([(PINK[0] + 6.0 * k, PINK[1]) for k in range(1, 5)], t + 2 / FPS)
    assert not pulled_not_struck(left, PINK, t, 250.0, 3.0, [], TABLE)
    frozen = _samples([(PINK[0] + 2 * R + 1.0, PINK[1])] * 30, t - 0.3)  # a Newton's cradle
    assert not pulled_not_struck(_wiggle(PINK, t), PINK, t, 250.0, 3.0, [frozen], TABLE)
    far = _samples([(PINK[0] + 4 * R, PINK[1])] * 30, t - 0.3)
    assert pulled_not_struck(_wiggle(PINK, t), PINK, t, 250.0, 3.0, [far], TABLE)
    on_cushion = (TABLE.width_mm - R - 2.0, PINK[1])
    assert not pulled_not_struck(_wiggle(on_cushion, t), on_cushion, t, 250.0, 3.0, [], TABLE)


def _pass_by(pink_away_per_mm=None, third=None):
    """The white runs up the table at 3 m/s past the pink; while their images merge the white's detection
    is pulled 5 mm towards the pink and the pink's 4 mm towards the white. The pink stays, or (``pink_away
    _per_mm``) leaves sideways as the white runs on; ``third``: a ball at rest elsewhere. The events."""
    still = [view("black", third, True)] if third else []
    frames = [[view("white", WHITE, True), view("pink", PINK, True), *still] for _ in range(30)]
    y, px = WHITE[1], PINK[0]
    while y < 3000.0:
        y += 50.0
        near = abs(y - PINK[1]) < 2 * R + 30.0
        px = PINK[0] - (4.0 if near else 0.0)
        if pink_away_per_mm is not None and y > PINK[1]:
            px = PINK[0] + pink_away_per_mm * (y - PINK[1])
        white = (WHITE[0] + (5.0 if near else 0.0), y)
        frames.append([view("white", white, True, (0.0, 3000.0)), view("pink", (px, PINK[1]), True), *still])
    frames += [[view("white", (WHITE[0], y), True), view("pink", (px, PINK[1]), True), *still]] * 150
    return [e.balls for e in run_frames(frames, SPEC, FPS) if isinstance(e, c.BallBall)]


def test_a_white_passing_a_hair_wide_of_the_pink_meets_nothing():
    """Broadcast 9305, shot 4: the white ran 0.9 mm wide of the pink, their images merged, the white's line
    bent and the pink's centre moved 4 mm and back; a contact (a foul's first contact) was called."""
    assert _pass_by() == []


def test_a_pink_that_leaves_as_the_white_passes_was_struck():
    assert _pass_by(pink_away_per_mm=0.3) == [("white", "pink")]


def test_a_pink_frozen_to_a_ball_behind_it_may_pass_the_kick_on_and_stay():
    behind = (PINK[0] + 2 * R + 1.0, PINK[1])
    assert _pass_by(third=behind) == [("white", "pink")]
