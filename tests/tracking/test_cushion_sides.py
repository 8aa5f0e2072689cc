"""Cushion contacts read side by side: a ball reflected off cushions, sampled at 60 fps with a detector's
noise, some frames unseen; the contacts found on the right side at about the right time, inferred where
no sighting was within a frame of them, and none where the path went straight on or jumped."""

from __future__ import annotations

import numpy as np
import pytest
from bounces_helper import FPS, SPEC, TABLE, R, detect_cushions, noisy, reflected, unseen

from arbiter import contract as c
from arbiter.games import billiards
from tracking.cushion_sides import SideConfig, side_turns, split_turns, struck_into_cushion, two_impulses
from tracking.events import EventDetector
from tracking.track import TrackState, TrackView

TIME_TOL_S = 0.012  # under a frame: the lines meet within the split, close to the contact


def _all_turns(samples, config=None):
    return [turn for i in range(len(samples)) for turn in split_turns(samples, i, TABLE, config)]


def test_a_contact_unseen_for_a_blur_of_twelve_frames_is_inferred_at_its_cushion_and_time():
    samples, contacts = reflected((900, 1200), (4500, 1500), 0.5)
    (t_hit, side), *_ = contacts
    assert side == "right"
    seen = noisy(unseen(samples, t_hit - 0.1, t_hit + 0.1))
    turns = _all_turns(seen)
    assert [turn.side for turn in turns] == ["right"]
    assert turns[0].t == pytest.approx(t_hit, abs=TIME_TOL_S)
    assert turns[0].inferred


def test_a_contact_seen_is_found_and_not_inferred():
    samples, contacts = reflected((900, 1200), (-2000, 600), 0.6)
    turns = _all_turns(noisy(samples))
    assert [(turn.side, turn.inferred) for turn in turns] == [("left", False)]
    assert turns[0].t == pytest.approx(contacts[0][0], abs=TIME_TOL_S)


def test_a_straight_path_across_a_gap_turns_at_nothing():
    samples, contacts = reflected((400, 600), (1500, 2500), 0.5)
    assert contacts == []
    assert _all_turns(noisy(unseen(samples, 0.2, 0.35))) == []


def test_a_path_that_jumps_across_a_gap_is_no_contact():
    """A track that picks up another ball after a gap, where that ball's path and the lost one's both come
    near the same cushion: the lines along the cushion do not meet, so nothing is inferred."""
    samples, contacts = reflected((900, 1200), (4500, 1500), 0.5)
    t_hit = contacts[0][0]
    jumped = [(t, x, y + (300.0 if t > t_hit else 0.0)) for t, x, y in samples]
    assert _all_turns(noisy(unseen(jumped, t_hit - 0.1, t_hit + 0.1))) == []


def test_a_corner_struck_twice_in_a_frame_gives_both_cushions():
    """Two cushions 25 ms apart, one kink in the 2D track at 60 fps: one turn on each axis."""
    samples, contacts = reflected((300, 3200), (-2000, 2400), 0.45)
    (t1, s1), (t2, s2), *_ = contacts
    assert t2 - t1 < 0.04 and {s1, s2} == {"left", "top"}
    turns = sorted(_all_turns(noisy(samples)), key=lambda turn: turn.t)
    assert [turn.side for turn in turns] == [s1, s2]
    assert [turn.t for turn in turns] == pytest.approx([t1, t2], abs=TIME_TOL_S)


def test_a_ball_at_rest_against_a_cushion_turns_at_nothing():
    resting = noisy([(i / FPS, R + 1.0, 1500.0) for i in range(60)])
    assert _all_turns(resting) == []


def _jittering_along_the_right_cushion(seconds=1.0):
    line = TABLE.width_mm - R
    offsets = [0.0, 0.0, 6.0, 6.0, -1.0, -1.0, 5.0, 5.0]  # across the cushion, frame by frame, repeated
    return [
        (i / FPS, line - 35.0 + 0.25 * i + offsets[i % len(offsets)], 300.0 + 1.5 * i)
        for i in range(round(seconds * FPS))
    ]


def test_a_slow_ball_along_a_cushion_whose_centre_jitters_turns_at_nothing():
    """A striped ball rolling slowly along the right cushion, 20-35 mm from its ball line, its centre found
    up to 6 mm across the cushion every other pair of frames (the stripe turning; a blob refitted every
    second frame): over three samples that is a turn at 150-200 mm/s, over a tenth of a second none."""
    samples = _jittering_along_the_right_cushion()
    assert _all_turns(samples) == []
    # Read over the turn's own samples only, the jitter is a string of contacts.
    assert {turn.side for turn in _all_turns(samples, SideConfig(approach_s=1 / FPS))} == {"right"}


def test_a_slow_contact_is_found_over_the_longer_approach_too():
    """A ball at 200 mm/s across the cushion into it (just above ``approach_mm_s``) still turns."""
    samples, contacts = reflected((TABLE.width_mm - R - 60.0, 1200), (200, 400), 1.0)
    assert [side for _, side in contacts] == ["right"]
    turns = _all_turns(noisy(samples))
    assert [turn.side for turn in turns] == ["right"]
    assert turns[0].t == pytest.approx(contacts[0][0], abs=TIME_TOL_S)


def test_a_gap_too_long_is_not_bridged():
    samples, contacts = reflected((900, 1200), (2000, 500), 1.0)
    t_hit = contacts[0][0]
    cfg = SideConfig(max_gap_s=0.2)
    seen = noisy(unseen(samples, t_hit - 0.15, t_hit + 0.15))
    assert [turn for i in range(len(seen)) for turn in side_turns(seen, i, TABLE, cfg)] == []


@pytest.mark.parametrize(("field", "value"), [("span", 1), ("approach_mm_s", 0), ("tol_mm_per_s", -1)])
def test_bad_settings_are_refused_when_built(field, value):
    with pytest.raises(ValueError, match=field):
        SideConfig(**{field: value})


def test_the_event_detector_reports_a_contact_inferred_across_a_gap_once_and_in_time_order():
    samples, contacts = reflected((900, 1200), (4500, 1500), 0.6)
    t_hit = contacts[0][0]
    found = detect_cushions(noisy(unseen(samples, t_hit - 0.1, t_hit + 0.1)), 0.6)
    assert [(e.side, e.inferred) for e in found] == [("right", True)]
    assert found[0].t == pytest.approx(t_hit, abs=TIME_TOL_S)


def test_the_event_detector_reports_both_cushions_of_a_corner():
    samples, contacts = reflected((300, 3200), (-2000, 2400), 0.45)
    found = detect_cushions(noisy(samples), 0.45)
    assert [e.side for e in found] == [side for _, side in contacts[:2]]


def test_the_event_detector_calls_no_contact_from_a_centre_jittering_along_a_cushion():
    """Neither the side reading nor a kink (a velocity change of 150-200 mm/s every other pair of frames)
    makes a contact of a slow ball rolling along a cushion; a slow one that turns there is still called."""
    assert detect_cushions(_jittering_along_the_right_cushion(), 1.0) == []
    samples, contacts = reflected((TABLE.width_mm - R - 60.0, 1200), (200, 400), 1.0)
    found = detect_cushions(noisy(samples), 1.0)
    assert [e.side for e in found] == [side for _, side in contacts] == ["right"]


def test_the_event_detector_infers_nothing_across_a_straight_gap():
    samples, _ = reflected((400, 600), (1500, 2500), 0.5)
    assert detect_cushions(noisy(unseen(samples, 0.2, 0.35)), 0.5) == []


def test_a_memo_read_as_the_samples_arrive_finds_what_reading_each_split_afresh_finds():
    """``split_turns`` with a memo, fed as the event detector feeds it (one sample more each frame, each
    split read once its samples after it are there), returns the same turns as without: the corner, the
    gap, and a ball left at rest and struck again (its reading restarted from ``start``)."""
    samples, contacts = reflected((300, 300), (3000, -4000), 1.6)
    assert [side for _, side in contacts] == ["bottom", "right", "top", "left"]  # right at 0.48 s
    seen = noisy(unseen(samples, 0.45, 0.52), seed=3)
    span = SideConfig().span
    memo: dict = {}
    memoised, fresh = [], []
    for n in range(1, len(seen) + 1):
        i = n - span - 2  # the split whose span + 1 samples after it arrived with sample n
        if i < 0:
            continue
        start = 0 if i < 60 else 60  # as if it left rest again at sample 60 (1 s)
        if i == 60:
            memo.clear()
        memoised += split_turns(seen[:n], i, TABLE, None, start, memo)
        fresh += split_turns(seen[:n], i, TABLE, None, start)
    assert memoised == fresh
    assert [turn.side for turn in fresh] == ["bottom", "right", "top", "left"] and fresh[1].inferred
    assert len(memo) <= 3  # the readings behind are let go
    # A split read before the samples its neighbour needs are there (a ball gone: its last splits are read
    # on two samples a side): that neighbour's reading is not kept, since more samples may come.
    cfg, memo = SideConfig(span=2), {}
    split_turns(seen[:40], 37, TABLE, cfg, 0, memo)  # split 38 needs samples 37-40
    assert (37, 0, cfg) in memo and (38, 0, cfg) not in memo


def _struck_beside_the_right_cushion(gap_mm, push, v0, by_ball, restitution=0.8):
    """A ball ``gap_mm`` inside the right cushion's ball line, moving at ``v0``, pushed at ``by_ball`` mm/s
    along ``push``; the velocity after, the cushion reflecting what goes into it."""
    n = np.asarray(push, float) / np.hypot(*push)
    between = np.asarray(v0, float) + by_ball * n
    after = between.copy()
    if after[0] > 0:
        after[0] = -restitution * after[0]
    return np.array([TABLE.width_mm - R - gap_mm, 1500.0]), n, np.asarray(v0, float), after


def test_a_ball_struck_into_the_cushion_beside_it_felt_both_pushes():
    p, n, v0, v1 = _struck_beside_the_right_cushion(3.0, (1, 1), (0, 0), 2000.0)
    split = two_impulses(TABLE, p, n, v0, v1, 25.0)
    assert split is not None and split.side == "right" and split.into
    assert split.by_ball == pytest.approx(2000.0)
    assert split.by_cushion == pytest.approx(1.8 * 2000.0 / np.sqrt(2))


def test_a_ball_struck_along_the_cushion_beside_it_felt_only_the_ball():
    p, n, v0, v1 = _struck_beside_the_right_cushion(3.0, (-1, 2), (0, 0), 1500.0)
    split = two_impulses(TABLE, p, n, v0, v1, 25.0)
    assert split is not None and split.by_ball == pytest.approx(1500.0)
    assert split.by_cushion == pytest.approx(0.0, abs=1e-6) and not split.into


def test_a_ball_struck_square_into_a_cushion_or_far_from_one_is_not_split():
    p, n, v0, v1 = _struck_beside_the_right_cushion(3.0, (1, 0.1), (0, 0), 2000.0)
    assert two_impulses(TABLE, p, n, v0, v1, 25.0) is None  # the two pushes nearly parallel
    p, n, v0, v1 = _struck_beside_the_right_cushion(60.0, (1, 1), (0, 0), 2000.0)
    assert two_impulses(TABLE, p, n, v0, v1, 25.0) is None


def _struck_from_rest_into_the_cushion(
    speed=1500.0,
    t_contact=0.4 + 0.4 / FPS,
    seconds=1.0,
    restitution=0.8,
    gap_mm=2.0,
    heading=(1.0, 1.0),
):
    """A red at rest ``gap_mm`` inside the right cushion's ball line, struck at ``t_contact`` by the white
    coming at ``speed`` along the line of centres ``heading`` (45 degrees to the cushion unless told; the
    red takes it all): the red is driven into the cushion, which throws it back out within a millisecond.
    Each ball's samples every 1/FPS s and the true contacts (t, ball, what)."""
    n = np.asarray(heading, float) / np.hypot(*heading)
    red = np.array([TABLE.width_mm - R - gap_mm, 1500.0])
    balls = {"red:1": [red, np.zeros(2)], "white": [red - 2 * R * n - speed * n * t_contact, speed * n]}
    hi = TABLE.width_mm - R
    dt, samples, contacts = 1e-4, {b: [] for b in balls}, []
    for k in range(round(seconds / dt) + 1):
        t = k * dt
        if k % round(1 / FPS / dt) == 0:
            for b, (p, _) in balls.items():
                samples[b].append((t, float(p[0]), float(p[1])))
        if abs(t - t_contact) < dt / 2:
            balls["red:1"][1], balls["white"][1] = balls["white"][1], np.zeros(2)
            contacts.append((t, "white", "red:1"))
        for b, (p, v) in balls.items():
            p += v * dt
            if p[0] > hi and v[0] > 0:
                p[0], v[0] = 2 * hi - p[0], -restitution * v[0]
                contacts.append((t, b, "right"))
    return samples, contacts


def _detect_struck(samples):
    """The events of every ball's ``samples`` (each seen every frame, 0.5 mm of noise)."""
    detector = EventDetector(SPEC)
    rng = np.random.default_rng(0)
    out, views, moving = [], [], set()
    for k in range(len(samples["red:1"])):
        t = samples["red:1"][k][0]
        moving |= {b for b, s in samples.items() if k and s[k][1:] != s[k - 1][1:]}
        views = [
            TrackView(b, (s[k][1] + rng.normal(0, 0.5), s[k][2] + rng.normal(0, 0.5)), (0.0, 0.0),
                      TrackState.CONFIRMED, True, b in moving)
            for b, s in samples.items()
        ]  # fmt: skip
        out += detector.update(t, views, [])
    return out + detector.finish(t, views)


def test_a_ball_struck_from_rest_into_the_cushion_beside_it_gives_the_contact_and_the_cushion():
    samples, contacts = _struck_from_rest_into_the_cushion()
    assert [what for _, _, what in contacts] == ["red:1", "right"]
    out = _detect_struck(samples)
    # Timed within 20 ms: the red's path after both pushes, run back to its spot, meets it early.
    t_contact = contacts[0][0]
    assert [(e.balls, e.t) for e in out if isinstance(e, c.BallBall)] == [
        (("white", "red:1"), pytest.approx(t_contact, abs=0.02))
    ]
    cushions = [(e.ball, e.side, e.t) for e in out if isinstance(e, c.Cushion)]
    assert cushions[:1] == [("red:1", "right", pytest.approx(t_contact, abs=0.02))]


@pytest.mark.parametrize(
    ("gap_mm", "heading", "speed"),
    [(30.0, (1.0, 1.0), 5000.0), (40.0, (1.0, 0.3), 4000.0), (12.0, (1.0, 0.05), 2500.0)],
    ids=["45-degrees", "steep", "square"],
)
def test_a_ball_struck_from_rest_to_a_cushion_and_back_before_it_is_seen_moving(gap_mm, heading, speed):
    samples, contacts = _struck_from_rest_into_the_cushion(
        speed=speed, gap_mm=gap_mm, heading=heading, t_contact=0.4 + 0.1 / FPS
    )
    t_contact, t_cushion = contacts[0][0], contacts[1][0]
    assert [what for _, _, what in contacts[:2]] == ["red:1", "right"]
    assert t_cushion < 0.4 + 1 / FPS  # there and back between two frames: no sample on the way in
    out = _detect_struck(samples)
    cushions = [(e.ball, e.side, e.t) for e in out if isinstance(e, c.Cushion)]
    assert cushions[:1] == [("red:1", "right", pytest.approx(t_cushion, abs=0.01))]
    assert [e.balls for e in out if isinstance(e, c.BallBall)] == [("white", "red:1")]
    assert t_contact <= cushions[0][2]


def test_a_ball_struck_from_rest_away_from_a_cushion_near_it_touches_none():
    samples, contacts = _struck_from_rest_into_the_cushion(
        speed=4000.0, gap_mm=30.0, heading=(-1.0, 1.0), t_contact=0.4 + 0.1 / FPS, seconds=0.6
    )
    assert [what for _, _, what in contacts] == ["red:1"]
    out = _detect_struck(samples)
    assert [e for e in out if isinstance(e, c.Cushion)] == []


@pytest.mark.parametrize(
    ("speed", "gap_mm", "heading"),
    [(1200.0, 25.0, (1.0, 0.5)), (2000.0, 45.0, (1.0, 0.2)), (1500.0, 30.0, (1.0, 0.3))],
    ids=["slow", "fast", "between"],
)
def test_a_struck_ball_turns_at_a_cushion_before_its_second_sample_in_motion(speed, gap_mm, heading):
    """Seen once on its way in and then on its way out: the line through its last sample at rest and its
    first in motion meets the line after at the cushion (its lines in motion alone are one sample before)."""
    samples, contacts = _struck_from_rest_into_the_cushion(
        speed=speed, gap_mm=gap_mm, heading=heading, t_contact=0.4 + 0.1 / FPS, seconds=0.8
    )
    (t_contact, _, struck), (t_cushion, _, side) = contacts[:2]
    assert (struck, side) == ("red:1", "right")
    assert t_contact + 1 / FPS < t_cushion < t_contact + 2 / FPS  # between its first two samples in motion
    out = _detect_struck(samples)
    cushions = [(e.ball, e.side, e.t) for e in out if isinstance(e, c.Cushion)]
    assert cushions == [("red:1", "right", pytest.approx(t_cushion, abs=0.004))]


def test_a_red_seen_once_on_its_way_into_the_cushion_beside_it_met_it_between_its_first_two_samples():
    """A 6 ft table's red at rest 28 mm off the left cushion's ball line (snooker 9476, shot 5, the
    tracker's samples at 30 fps), struck towards it: seen once on its way in, once on its way out, and
    then glancing off another red; no line of three samples either side of the turn, so the side reading
    sees nothing. Its two samples after the first, run back, meet the cushion where the push took it."""
    table = billiards("snooker").resized("6ft").table
    rest, push = np.array([54.1, 1201.2]), np.array([-33.5, -38.2])  # from the striker's centre to its own
    first = [(1.3, 35.6, 1187.3), (1.3333, 44.5, 1171.8), (1.3667, 56.8, 1163.9)]
    hit = struck_into_cushion(table, rest, push, 1.295, 1.2667, first, 25.0, 120.0, 100.0)
    assert hit is not None
    assert hit[0] == "left"
    assert hit[1] == pytest.approx(1.306, abs=0.02)  # the truth's time
    # The same samples after a push away from that cushion: no way in, so no cushion.
    assert struck_into_cushion(table, rest, -push, 1.295, 1.2667, first, 25.0, 120.0, 100.0) is None
