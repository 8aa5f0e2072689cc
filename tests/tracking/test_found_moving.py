"""A ball never found at rest and found only once struck (a far cue ball on a broadcast, 5 px across, seed
9306's second shot): first read as another look for a few weak frames, it becomes the ball its detections
say once they say it twice over (the tracker renames it, the event detector's path follows), and the shot
starts where the cue ball was first seen, already moving as fast as a struck ball."""

from __future__ import annotations

import math

import numpy as np
from tracking_helper import dets

from arbiter import contract as c
from arbiter.balls import APPEARANCE_CLASSES
from arbiter.games import billiards
from tracking.events import EventDetector
from tracking.track import TrackState, TrackView
from tracking.tracker import BallTracker
from vision.types import Detections

SPEC = billiards("snooker")
R = SPEC.table.ball_radius_mm
FPS = 60.0
WHITE, RED, PINK, YELLOW = (APPEARANCE_CLASSES.index(k) for k in ("white", "red", "pink", "yellow"))


def _far_white(first_look: int, weak_frames: int = 8, frames: int = 60) -> list[Detections]:
    """The red at rest throughout; a ball rolling from the far end at 2.4 m/s, read as ``first_look`` at
    0.11 for ``weak_frames`` frames, then as the white at 0.5."""
    out = []
    for n in range(frames):
        look, conf = (first_look, 0.11) if n < weak_frames else (WHITE, 0.5)
        out.append(dets((RED, 400.0, 2000.0, 0.9), (look, 900.0, 300.0 + 40.0 * n, conf)))
    return out


def test_a_cue_ball_first_read_as_another_look_becomes_the_white():
    tracker = BallTracker(SPEC)
    renamed, views = [], []
    for n, detections in enumerate(_far_white(PINK)):
        views = tracker.update(n / FPS, detections)
        renamed += [(v.was, v.ball) for v in views if v.was is not None]
    assert renamed == [("pink", "white")]
    assert sorted(v.ball for v in views) == ["red:1", "white"] and tracker.gone() == []


def test_a_ball_long_seen_as_its_own_look_keeps_its_name_when_misread():
    """The yellow, seen at rest for a second, is read as the white (not on the table) for half a second as
    it rolls: it stays the yellow; no white is made of it."""
    tracker = BallTracker(SPEC)
    views = []
    for n in range(90):
        look = YELLOW if n < 60 else WHITE
        views = tracker.update(n / FPS, dets((look, 900.0, 300.0 + 20.0 * max(n - 60, 0), 0.6)))
        assert all(v.was is None for v in views)
    assert [v.ball for v in views] == ["yellow"]


def _view(
    ball: str, xy: tuple[float, float], velocity: tuple[float, float], was: str | None = None
) -> TrackView:
    moving = math.hypot(*velocity) > 15.0
    return TrackView(ball, xy, velocity, TrackState.CONFIRMED, True, moving, was=was)


def _run(frames: list[list[TrackView]]) -> list:
    detector, out, views, t = EventDetector(SPEC), [], [], 0.0
    for n, views in enumerate(frames):
        t = n / FPS
        out += detector.update(t, views, [])
    return out + detector.finish(t, views)


def _rolling_into_the_red(speed: float, renamed_at: int | None = None) -> list[list[TrackView]]:
    """A ball first seen at frame 30 rolling at ``speed`` mm/s straight into the red at rest (a stun: the red
    goes on for half a second), named the pink until ``renamed_at`` (then the white), or the white
    throughout."""
    red, start, frames = (900.0, 1500.0), 30, []
    hit = start + int((red[1] - 2 * R - 500.0) / speed * FPS)
    for n in range(hit + 200):
        red_v = speed if hit <= n < hit + 30 else 0.0
        views = [_view("red:1", (red[0], red[1] + speed * min(max(n - hit, 0), 30) / FPS), (0.0, red_v))]
        if n >= start:
            y = min(500.0 + speed * (n - start) / FPS, red[1] - 2 * R)
            name = "white" if renamed_at is None or n >= renamed_at else "pink"
            was = "pink" if n == renamed_at else None
            views.append(_view(name, (900.0, y), (0.0, speed if n < hit else 0.0), was))
        frames.append(views)
    return frames


def test_a_cue_ball_found_only_once_struck_starts_the_shot_where_first_seen():
    events = _run(_rolling_into_the_red(2400.0, renamed_at=40))
    starts = [e for e in events if isinstance(e, c.ShotStart)]
    assert [(s.ball, round(s.t, 3)) for s in starts] == [("white", 0.5)]
    contacts = [e for e in events if isinstance(e, c.BallBall)]
    assert [e.balls for e in contacts] == [("white", "red:1")]


def test_a_cue_ball_first_seen_moving_slowly_starts_no_shot():
    """Carried in a hand (a ball in hand placed) is no strike: no shot starts until it is struck."""
    events = _run(_rolling_into_the_red(300.0))
    starts = [e for e in events if isinstance(e, c.ShotStart)]
    assert all(s.t > 1.0 for s in starts)


def _cut_into_an_unseen_red(seen_from: int) -> list[list[TrackView]]:
    """The white rolls up the table at 2 m/s and cuts a red it meets at (900, 1500) off at 45 degrees at
    frame 60 (the red never seen at rest, first seen at ``seen_from``), then runs on into the green at rest
    further up; the red rolls away at 1.4 m/s."""
    speed, hit = 2000.0, 60
    u = np.array([math.sqrt(0.5), math.sqrt(0.5)])  # the line of centres, white to red
    red_rest = np.array([900.0, 1500.0])
    white_at_hit = red_rest - 2 * R * u
    green = white_at_hit + np.array([0.0, 400.0])
    frames, t_green = [], (400.0 - 2 * R) / speed  # the white stops dead on the green, which goes on
    for n in range(hit + 200):
        t = (n - hit) / FPS
        white = white_at_hit + np.array([0.0, speed * min(t, t_green)])
        green_y = green[1] + speed * min(max(t - t_green, 0.0), 0.5)
        views = [
            _view("white", tuple(white), (0.0, speed if t < t_green else 0.0)),
            _view("green", (green[0], green_y), (0.0, speed if t_green <= t < t_green + 0.5 else 0.0)),
        ]
        if n >= seen_from:
            red = red_rest + u * 1400.0 * min(t, 1.0)
            views.append(_view("red:1", tuple(red), tuple(u * 1400.0) if t < 1.0 else (0.0, 0.0)))
        frames.append(views)
    return frames


def test_a_ball_found_only_once_struck_was_struck_by_the_ball_that_crossed_its_line():
    contacts = [e for e in _run(_cut_into_an_unseen_red(seen_from=66)) if isinstance(e, c.BallBall)]
    assert [e.balls for e in contacts][:2] == [("white", "red:1"), ("white", "green")]
    assert abs(contacts[0].t - 1.0) < 1.5 / FPS


def test_a_ball_first_seen_long_after_the_line_was_crossed_is_no_contact():
    """Seen first 0.5 s after the white crossed its line (it may have been struck by anything since): the
    first contact is the white's with the green."""
    contacts = [e for e in _run(_cut_into_an_unseen_red(seen_from=90)) if isinstance(e, c.BallBall)]
    assert contacts and contacts[0].balls == ("white", "green")


def test_a_ball_seen_in_two_frames_only_holds_no_event_back():
    """A red seen in two frames and then hidden (held where it was) has too few sightings to read: after
    ``FIRST_READ_WAIT_S`` the events wait on it no longer, and the shot's start is out while it is played."""
    detector, live = EventDetector(SPEC), []
    for n in range(150):
        white_y = 500.0 + 1500.0 * max(n - 60, 0) / FPS
        views = [
            _view("white", (900.0, white_y), (0.0, 1500.0 if n > 60 else 0.0)),
            TrackView("red:1", (300.0, 300.0), (0.0, 0.0), TrackState.CONFIRMED, n in (10, 11), False),
        ]
        live += detector.update(n / FPS, views, [])
    assert any(isinstance(e, c.ShotStart) and e.ball == "white" for e in live)
