"""Pins down, frame by frame: a fall needs the pin gone for a few frames and a ball that came near it."""

from __future__ import annotations

import numpy as np
import pytest

from arbiter.games import billiards
from tracking.pins import PinConfig, PinWatch
from tracking.track import TrackState, TrackView

TABLE = billiards("five-pins").table
SPOTS = {p.id: np.array(p.xy_mm) for p in TABLE.pins}
DT = 1 / 60


def _view(ball: str, xy) -> TrackView:
    return TrackView(ball, (float(xy[0]), float(xy[1])), (0.0, 0.0), TrackState.CONFIRMED, True, True)


def _standing(*missing: str) -> np.ndarray:
    return np.array([xy for pid, xy in SPOTS.items() if pid not in missing])


def _stood(watch: PinWatch, t_end: float, views: list[TrackView]) -> None:
    """All pins seen standing for PinConfig.stand_frames frames, ending at ``t_end``."""
    n = watch.config.stand_frames
    for k in range(n):
        assert watch.update(t_end - (n - 1 - k) * DT, _standing(), views) == []


def test_a_pin_hit_by_a_ball_falls_once_timed_when_it_touched():
    watch = PinWatch(TABLE)
    far = SPOTS["pin:c"] + [0.0, 600.0]
    _stood(watch, 0.0, [_view("red", far)])
    near = SPOTS["pin:n"] + [35.0, 0.0]  # the red brushes the north pin
    falls = []
    for k in range(1, 10):
        falls += watch.update(k * DT, _standing("pin:n"), [_view("red", near if k < 3 else far)])
    assert [(f.pin, f.by) for f in falls] == [("pin:n", "red")]
    assert falls[0].t == pytest.approx(DT, abs=DT / 10)  # it came to touch the pin in the first frame


def test_a_pin_hidden_with_no_ball_near_is_not_down():
    watch = PinWatch(TABLE)
    _stood(watch, 0.0, [_view("white", SPOTS["pin:c"] + [0.0, 900.0])])
    events = []
    for k in range(1, 30):  # an arm over the centre pin for half a second
        events += watch.update(k * DT, _standing("pin:c"), [_view("white", SPOTS["pin:c"] + [0.0, 900.0])])
    assert events == []


def test_a_flicker_shorter_than_down_frames_is_not_a_fall():
    watch = PinWatch(TABLE, PinConfig(down_frames=4))
    near = [_view("yellow", SPOTS["pin:e"] + [0.0, 40.0])]
    _stood(watch, 0.0, near)
    events = []
    for k, seen in enumerate([False, False, True, False, False, False, True], start=1):
        events += watch.update(k * DT, _standing() if seen else _standing("pin:e"), near)
    assert events == []


def test_a_pin_re_stood_is_watched_again():
    watch = PinWatch(TABLE)
    near = [_view("white", SPOTS["pin:w"] + [0.0, -30.0])]
    _stood(watch, 0.0, near)
    first = [f for k in range(1, 6) for f in watch.update(k * DT, _standing("pin:w"), near)]
    later = [f for k in range(6, 12) for f in watch.update(k * DT, _standing("pin:w"), near)]
    assert len(first) == 1 and later == []  # down once, not again while it lies there
    _stood(watch, 1.0, [])  # stood up for the next shot
    again = [f for k in range(1, 6) for f in watch.update(1.0 + k * DT, _standing("pin:w"), near)]
    assert [f.pin for f in again] == ["pin:w"]


def test_a_fallen_pin_seen_standing_for_a_frame_does_not_fall_twice():
    watch = PinWatch(TABLE)
    near = [_view("yellow", SPOTS["pin:s"] + [30.0, 0.0])]
    _stood(watch, 0.0, near)
    seen = [False] * 6 + [True, True] + [False] * 8  # down, then the lying pin looks upright for two frames
    falls = [
        f
        for k, up in enumerate(seen, start=1)
        for f in watch.update(k * DT, _standing() if up else _standing("pin:s"), near)
    ]
    assert [f.pin for f in falls] == ["pin:s"]


def test_bad_settings_are_refused():
    with pytest.raises(ValueError, match="down_frames"):
        PinConfig(down_frames=0)


def test_a_fall_seen_late_is_timed_when_the_ball_touched_it_and_held_for():
    """A ball over the pin hides it: the pin is first seen missing after the ball has moved on. The fall
    keeps the time the ball was nearest, and until it is called the event stream is told how far back it
    may come (``pending_from``)."""
    watch = PinWatch(TABLE)
    far = SPOTS["pin:c"] + [0.0, 600.0]
    _stood(watch, 0.0, [_view("white", far)])
    assert watch.pending_from() == float("inf")  # nothing near a pin: nothing pending
    path = [
        SPOTS["pin:e"] + [0.0, dy] for dy in (-120.0, -60.0, -5.0, 60.0, 120.0, 180.0, 240.0, 300.0, 360.0)
    ]
    falls, pending = [], []
    for k, xy in enumerate(path, start=1):
        seen = _standing() if k <= 4 else _standing("pin:e")  # read standing while the white covers it
        falls += watch.update(k * DT, seen, [_view("white", xy)])
        pending.append(watch.pending_from())
    assert [(f.pin, f.by) for f in falls] == [("pin:e", "white")]
    # It touched the pin (centres 36.25 mm apart) between frames 2 (60 mm) and 3 (5 mm): 2.43 frames.
    assert falls[0].t == pytest.approx((2 + (60.0 - 36.25) / 55.0) * DT, abs=1e-6)
    assert pending[1] == float("inf")  # 60 mm off: out of reach
    assert pending[2] == pytest.approx(3 * DT)  # within reach from frame 3 on: held from there
    assert pending[5] == pytest.approx(3 * DT)  # missing, not called yet: still held from frame 3
    assert pending[-1] == float("inf")  # called: nothing pending any more


def test_a_pin_hidden_long_holds_the_stream_back_no_more_than_the_memory():
    watch = PinWatch(TABLE)
    _stood(watch, 0.0, [])
    for k in range(1, 120):  # an arm over the centre pin for two seconds
        watch.update(k * DT, _standing("pin:c"), [])
    assert watch.pending_from() == pytest.approx(119 * DT - watch.config.memory_s)


def test_the_status_of_each_pin_follows_the_watch():
    watch = PinWatch(TABLE)
    assert set(watch.status().values()) == {"unknown"}  # not yet seen standing long enough
    near = [_view("white", SPOTS["pin:w"] + [0.0, -30.0])]
    _stood(watch, 0.0, near)
    assert set(watch.status().values()) == {"standing"}
    for k in range(1, 6):
        watch.update(k * DT, _standing("pin:w"), near)
    assert watch.status()["pin:w"] == "down" and watch.status()["pin:c"] == "standing"
    _stood(watch, 1.0, [])  # stood up for the next shot
    assert watch.status()["pin:w"] == "standing"
