"""Cushions met while unseen, read by unfolding the table: a ball lost in its blur for a few tenths of a
second, meeting two or three cushions before it is seen again; the cushions found in order at about their
times where one mirror image of the line after continues the line before, nothing where none or two do."""

from __future__ import annotations

import numpy as np
import pytest
from bounces_helper import FPS, SPEC, TABLE, R, detect_cushions, noisy, reflected, unseen

from arbiter import contract as c
from tracking.cushion_sides import fit_line
from tracking.events import EventDetector
from tracking.track import TrackState, TrackView
from tracking.unfolding import Seen, UnfoldConfig, departure_cushions, gap_cushions, unseen_cushions

SLOWING = 400.0  # mm/s², a ball rolling on cloth
TIME_TOL_S = 0.03  # under two frames at 60 fps after a few tenths of a second unseen


def _ends(samples, t0, t1):
    """The lines a camera saw before ``t0`` and after ``t1``: three samples each."""
    before = [s for s in samples if s[0] < t0][-3:]
    after = [s for s in samples if s[0] > t1][:3]
    (a0, v0, _), (a1, v1, _) = fit_line(before, before[-1][0]), fit_line(after, after[0][0])
    return Seen(before[-1][0], a0, v0), Seen(after[0][0], a1, v1)


def test_three_cushions_unseen_are_read_in_order_and_in_time():
    samples, contacts = reflected((900, 2500), (3500, 2000), 1.2, restitution=0.85, slowing_mm_s2=SLOWING)
    assert [side for _, side in contacts[:3]] == ["right", "top", "left"]
    t0, t1 = contacts[0][0] - 0.1, contacts[2][0] + 0.05
    met = unseen_cushions(TABLE, *_ends(noisy(samples), t0, t1))
    assert met is not None
    assert [side for side, _ in met] == ["right", "top", "left"]
    assert [t for _, t in met] == pytest.approx([t for t, _ in contacts[:3]], abs=TIME_TOL_S)


def test_two_cushions_of_one_axis_unseen_are_both_read():
    """Across the table and back: the motion along the long axis goes on as before, and the lines either
    side of the gap turn at no cushion; unfolded, the path crossed the table twice."""
    samples, contacts = reflected((300, 1200), (4500, 500), 1.0, restitution=0.85, slowing_mm_s2=SLOWING)
    assert [side for _, side in contacts[:2]] == ["right", "left"]
    t0, t1 = contacts[0][0] - 0.08, contacts[1][0] + 0.08
    met = unseen_cushions(TABLE, *_ends(noisy(samples), t0, t1))
    assert met is not None
    assert [side for side, _ in met] == ["right", "left"]
    assert [t for _, t in met] == pytest.approx([t for t, _ in contacts[:2]], abs=TIME_TOL_S)


def test_a_straight_gap_meets_no_cushion():
    samples, contacts = reflected((400, 600), (1500, 2500), 0.6, slowing_mm_s2=SLOWING)
    assert contacts == []
    assert unseen_cushions(TABLE, *_ends(noisy(samples), 0.15, 0.45)) == []


def test_a_track_that_picked_up_another_ball_after_the_gap_meets_nothing():
    """The line after is another ball's: no image of it continues the line before."""
    samples, contacts = reflected((900, 2500), (3500, 2000), 1.2, restitution=0.85, slowing_mm_s2=SLOWING)
    t0, t1 = contacts[0][0] - 0.1, contacts[1][0] + 0.1
    jumped = [(t, x, y + (400.0 if t > t1 else 0.0)) for t, x, y in samples]
    assert unseen_cushions(TABLE, *_ends(noisy(jumped), t0, t1)) is None


def test_a_path_through_a_pocket_mouth_is_no_bounce():
    """A ball heading into a corner pocket does not come back out of it: the image that would have it
    reflected in the mouth is refused."""
    r = TABLE.ball_radius_mm
    corner = np.array([TABLE.width_mm - r, TABLE.length_mm - r])
    before = Seen(0.0, corner - np.array([300.0, 300.0]), np.array([2000.0, 2000.0]))
    after = Seen(0.3, corner - np.array([300.0, 300.0]), np.array([-1800.0, -1800.0]))
    assert unseen_cushions(TABLE, before, after) is None


def test_too_long_or_too_slow_a_gap_is_not_read():
    samples, contacts = reflected((900, 2500), (3500, 2000), 1.2, restitution=0.85, slowing_mm_s2=SLOWING)
    ends = _ends(noisy(samples), contacts[0][0] - 0.1, contacts[2][0] + 0.05)
    assert unseen_cushions(TABLE, *ends, UnfoldConfig(max_gap_s=0.3)) is None
    assert unseen_cushions(TABLE, *ends, UnfoldConfig(min_speed_mm_s=5000.0)) is None


@pytest.mark.parametrize(("field", "value"), [("max_gap_s", 0), ("max_cushions", 0), ("off_share", -0.1)])
def test_bad_settings_are_refused_when_built(field, value):
    with pytest.raises(ValueError, match=field):
        UnfoldConfig(**{field: value})


def test_gap_cushions_reads_only_a_gap_between_lines_that_fit():
    samples, contacts = reflected((300, 1200), (4500, 500), 1.0, restitution=0.85, slowing_mm_s2=SLOWING)
    seen = noisy(unseen(samples, contacts[0][0] - 0.08, contacts[1][0] + 0.08))
    gap = next(i for i in range(len(seen) - 1) if seen[i + 1][0] - seen[i][0] > 1.5 / FPS)
    assert [side for side, _ in gap_cushions(seen, gap, TABLE, span=3)] == ["right", "left"]
    assert gap_cushions(seen, gap - 3, TABLE, span=3) == []  # no gap there


def test_the_event_detector_reports_the_cushions_met_unseen_once_each():
    samples, contacts = reflected((300, 1200), (4500, 500), 1.0, restitution=0.85, slowing_mm_s2=SLOWING)
    found = detect_cushions(noisy(unseen(samples, contacts[0][0] - 0.08, contacts[1][0] + 0.08)), 1.0)
    assert [(e.side, e.inferred) for e in found] == [("right", True), ("left", True)]
    assert [e.t for e in found] == pytest.approx([t for t, _ in contacts[:2]], abs=TIME_TOL_S)


def test_departure_cushions_reads_a_ball_struck_from_rest_and_seen_only_after_three_cushions():
    rest, push = np.array([900.0, 2500.0]), np.array([3500.0, 2000.0])
    moving, contacts = reflected(rest, push, 1.2, restitution=0.85, slowing_mm_s2=SLOWING)
    t0 = 0.5
    at_rest = [(n / FPS, *rest) for n in range(round(t0 * FPS))]
    seen = noisy(at_rest + [(t0 + t, x, y) for t, x, y in moving if t > contacts[2][0] + 0.05])

    def striker(velocity):  # the ball that came along the line of centres at ``velocity`` to touch it at t0
        touch = rest - 2 * R * np.asarray(velocity) / np.hypot(*velocity)
        return [(t, *(touch - np.asarray(velocity) * (t0 - t))) for t, _, _ in at_rest]

    met = departure_cushions(seen, len(at_rest), rest, striker(push), t0, TABLE, span=3, window=3)
    assert [side for side, _ in met] == ["right", "top", "left"]
    assert [t for _, t in met] == pytest.approx([t0 + t for t, _ in contacts[:3]], abs=TIME_TOL_S)
    # Sent the other way along the line of centres, it could not have come back on that line: nothing.
    assert departure_cushions(seen, len(at_rest), rest, striker(-push), t0, TABLE, span=3, window=3) == []
    # Nor by a striker too slow to send it that far so soon (a ball takes at most its striker's speed).
    slow = striker(push / 3.0)
    assert departure_cushions(seen, len(at_rest), rest, slow, t0, TABLE, span=3, window=3) == []


def _struck_and_lost(t_contact, lost_until):
    """The white driven at a resting red at ``t_contact`` (the red takes most of its speed along the line of
    centres, the white rolls on slowly after it; both meet cushions, ``reflected``); every frame's views,
    the red unseen from the contact until ``lost_until``; and the red's true cushions (time, side)."""
    rest, push = np.array([900.0, 2500.0]), np.array([3500.0, 2000.0])
    n = push / np.hypot(*push)
    red_path, contacts = reflected(rest, push, 1.2, restitution=0.85, slowing_mm_s2=SLOWING)
    white_path, _ = reflected(rest - 2 * R * n, (-push[1] * 0.2, push[0] * 0.2), 1.2, slowing_mm_s2=SLOWING)
    frames = []
    for k in range(round((t_contact + 1.2) * FPS)):
        t = k / FPS
        if t < t_contact:
            white, red, red_seen = rest - 2 * R * n - push * (t_contact - t), rest, True
        else:
            after = min(round((t - t_contact) * FPS), len(red_path) - 1)
            white, red = np.array(white_path[after][1:]), np.array(red_path[after][1:])
            red_seen = t > lost_until
        frames.append((t, {"white": (white, True), "red:1": (red, red_seen)}))
    return frames, [(t_contact + t, side) for t, side in contacts]


def test_the_event_detector_reads_the_cushions_of_a_ball_lost_in_its_blur_as_it_was_struck():
    frames, contacts = _struck_and_lost(0.5, 0.5 + 0.6)
    detector = EventDetector(SPEC)
    rng = np.random.default_rng(0)
    out, last, views = [], {}, []
    for t, balls in frames:
        views = []
        for b, (xy, seen) in balls.items():
            if seen:
                last[b] = (float(xy[0]) + rng.normal(0, 0.5), float(xy[1]) + rng.normal(0, 0.5))
            views.append(TrackView(b, last[b], (0.0, 0.0), TrackState.CONFIRMED, seen, True))
        out += detector.update(t, views, [])
    out += detector.finish(frames[-1][0], views)
    cushions = [(e.ball, e.side, e.t) for e in out if isinstance(e, c.Cushion) and e.t < 1.1]
    unseen = [("red:1", side, pytest.approx(t, abs=TIME_TOL_S)) for t, side in contacts if t < 1.1]
    assert cushions == unseen
    assert len(unseen) == 2
    assert [e.balls for e in out if isinstance(e, c.BallBall)] == [("white", "red:1")]
