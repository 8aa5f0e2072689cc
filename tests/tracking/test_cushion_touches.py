"""Gentle cushion touches: a ball dying at a cushion, sampled at 60 fps with a detector's noise, touches it
once, on the right side, near the time it did; one that dies short of it, or rests against it, or rolls
along it, touches nothing; the event detector reports the touch once and in time order."""

from __future__ import annotations

import numpy as np
import pytest

from arbiter import contract as c
from arbiter.games import billiards
from tracking.cushion_sides import split_turns
from tracking.cushion_touches import TouchConfig, sample_noise, touch_at
from tracking.events import EventDetector
from tracking.track import TrackState, TrackView

SPEC = billiards("straight-pool")
TABLE = SPEC.table
R = TABLE.ball_radius_mm
FPS = 60.0
NOISE_MM = 1.0
ROLLING_MM_S2 = 100.0  # rolling resistance on cloth: about 0.01 g
Y_MM = 1200.0


def _dying(start_in_mm, speed_mm_s, restitution=0.8, seconds=2.5):
    """Samples every 1/FPS s of a ball rolling straight at the left cushion from ``start_in_mm`` in from
    its ball line, slowing at ROLLING_MM_S2; where it reaches the line it is reflected, losing a part of
    its speed. The true time of the touch (None when it stops short)."""
    x, v, dt = R + start_in_mm, -speed_mm_s, 1e-4
    samples, touched = [], None
    for n in range(round(seconds / dt) + 1):
        if n % round(1 / FPS / dt) == 0:
            samples.append((n * dt, x, Y_MM))
        if v == 0.0:
            continue
        step = ROLLING_MM_S2 * dt
        v = 0.0 if abs(v) <= step else v - np.sign(v) * step
        x += v * dt
        if x < R and v < 0:
            x, v, touched = 2 * R - x, -v * restitution, n * dt
    return samples, touched


def _noisy(samples, seed=0):
    rng = np.random.default_rng(seed)
    return [(t, x + rng.normal(0, NOISE_MM), y + rng.normal(0, NOISE_MM)) for t, x, y in samples]


def _touches(samples, config=None):
    cfg = config or TouchConfig()
    return [(touch.t, touch.side) for i in range(len(samples)) for touch in touch_at(samples, i, TABLE, cfg)]


def test_a_ball_dying_at_a_cushion_touches_it_once_near_the_time_it_did():
    samples, t_touch = _dying(60.0, 120.0)  # reaches the line at ~49 mm/s, draws back ~8 mm
    assert t_touch is not None
    seen = _noisy(samples)
    touches = _touches(seen)
    assert [side for _, side in touches] == ["left"]
    assert touches[0][0] == pytest.approx(t_touch, abs=0.05)
    # The side reading does not see it: too slow across the cushion for its lines.
    assert [turn for i in range(len(seen)) for turn in split_turns(seen, i, TABLE)] == []


@pytest.mark.parametrize("short_mm", [4.0, 10.0])
def test_a_ball_dying_short_of_a_cushion_touches_nothing(short_mm):
    speed = float(np.sqrt(2 * ROLLING_MM_S2 * (60.0 - short_mm)))  # stops short_mm in from the line
    samples, t_touch = _dying(60.0, speed)
    assert t_touch is None
    for seed in range(5):
        assert _touches(_noisy(samples, seed)) == []


def test_a_ball_at_rest_against_a_cushion_or_rolling_along_it_touches_nothing():
    resting = _noisy([(i / FPS, R + 1.0, Y_MM) for i in range(120)])
    rolling = _noisy([(i / FPS, R + 0.5, Y_MM + 80.0 * i / FPS) for i in range(120)], seed=1)
    assert _touches(resting) == []
    assert _touches(rolling) == []


def _glancing(in_mm_s=38.0, out_mm_s=4.5, along_mm_s=700.0, t_touch=0.6, seconds=1.2):
    """A ball running up the left cushion at a fine angle: across it, in at ``in_mm_s`` to its ball line at
    ``t_touch`` and back out at ``out_mm_s``; along it at ``along_mm_s``. Samples every 1/FPS s."""
    samples = []
    for n in range(round(seconds * FPS) + 1):
        t = n / FPS
        across = in_mm_s * (t_touch - t) if t < t_touch else out_mm_s * (t - t_touch)
        samples.append((t, R + across, 300.0 + along_mm_s * t))
    return samples


def _jittered(samples, noise_mm, seed):
    rng = np.random.default_rng(seed)
    return [(t, x + rng.normal(0, noise_mm), y + rng.normal(0, noise_mm)) for t, x, y in samples]


def test_a_steadily_tracked_ball_glancing_off_a_cushion_touches_it():
    """It draws back under 2 mm in the half second after (the side reading's lines see nothing at 38 mm/s
    in): a rebound that stands well above a steady track's noise (0.2 mm) counts."""
    for seed in range(5):
        touches = _touches(_jittered(_glancing(), 0.2, seed))
        assert [side for _, side in touches] == ["left"]
        assert touches[0][0] == pytest.approx(0.6, abs=0.05)


@pytest.mark.parametrize("noise_mm", [0.2, 1.0, 2.0])
def test_the_samples_noise_is_read_through_a_turn(noise_mm):
    t = np.arange(60) / FPS
    turn = np.abs(t - 0.5) * 300.0  # in and out of a cushion at 300 mm/s
    rng = np.random.default_rng(1)
    assert sample_noise(turn + rng.normal(0, noise_mm, len(t))) == pytest.approx(noise_mm, rel=0.3)


@pytest.mark.parametrize("noise_mm", [1.5, 2.0])
def test_a_noisy_ball_dying_short_of_a_cushion_touches_nothing(noise_mm):
    """The rebound asked for grows with the samples' noise: the wobble of a noisy track that stops 2 mm
    short is no touch (a fixed 2 mm made 1-3 false touches in 60 tracks at this noise, a fixed 1 mm 8-13)."""
    speed = float(np.sqrt(2 * ROLLING_MM_S2 * 58.0))  # stops 2 mm in from the line
    samples, t_touch = _dying(60.0, speed)
    assert t_touch is None
    for seed in range(60):
        assert _touches(_jittered(samples, noise_mm, seed)) == []


@pytest.mark.parametrize(("field", "value"), [("approach_mm", 0), ("rebound_s", -1), ("smooth", 4)])
def test_bad_settings_are_refused_when_built(field, value):
    with pytest.raises(ValueError, match=field):
        TouchConfig(**{field: value})


def _events(paths, t_end):
    """Balls' samples (ball -> samples at every frame) fed to the event detector as the tracker gives
    them; every event it reports."""
    detector = EventDetector(SPEC)
    out, views = [], []
    for n in range(round(t_end * FPS) + 1):
        views = [
            TrackView(ball, samples[n][1:], (0.0, 0.0), TrackState.CONFIRMED, True, True)
            for ball, samples in paths.items()
            if n < len(samples)
        ]
        out += detector.update(n / FPS, views, [])
    return out + detector.finish(t_end, views)


def test_the_event_detector_reports_a_touch_once_and_in_time_order():
    samples, t_touch = _dying(60.0, 120.0)
    # The cue ball rests, then is struck: a shot is in play (the object ball is rolling already).
    cue = [(t, 600.0 + float(np.clip(t - 0.3, 0.0, 0.2)) * 500.0, 400.0) for t, _, _ in samples]
    events = _events({"cue": cue, "1": _noisy(samples)}, samples[-1][0])
    cushions = [e for e in events if isinstance(e, c.Cushion)]
    assert [(e.ball, e.side) for e in cushions] == [("1", "left")]
    assert cushions[0].t == pytest.approx(t_touch, abs=0.05)
    times = [e.t for e in events]
    assert times == sorted(times)


def test_a_slow_ball_struck_away_near_a_cushion_touched_nothing():
    """A ball rolling slowly at a cushion is struck away from it by the cue ball 10 mm from its ball line:
    it came nearer and drew back, but a ball did that, not the cushion."""
    t_hit = 0.6
    n = np.array([0.4, 0.92]) / np.hypot(0.4, 0.92)  # from the cue ball's centre to the struck ball's
    struck_at = np.array([R + 10.0, Y_MM])
    cue_at = struck_at - 2 * R * n
    times = [i / FPS for i in range(round(1.5 * FPS))]
    struck, cue = [], []
    for t in times:
        if t < t_hit:
            struck.append((t, struck_at[0] + 50.0 * (t_hit - t), Y_MM))
            cue.append((t, cue_at[0], cue_at[1] - 1500.0 * (t_hit - t)))
        else:
            p, q = struck_at + n * 900.0 * (t - t_hit), cue_at + np.array([0.0, 500.0]) * (t - t_hit)
            struck.append((t, float(p[0]), float(p[1])))
            cue.append((t, float(q[0]), float(q[1])))
    assert _touches(_noisy(struck)) != []  # the motion alone looks like a touch
    cue = [(t, x, y) if t >= 0.3 else (t, *cue[round(0.3 * FPS)][1:]) for t, x, y in cue]  # rests, is struck
    events = _events({"cue": cue, "1": _noisy(struck)}, times[-1])
    assert [e.balls for e in events if isinstance(e, c.BallBall)] == [("cue", "1")]
    assert [e for e in events if isinstance(e, c.Cushion)] == []
