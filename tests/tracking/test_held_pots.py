"""A unique ball's pot held a moment: a ball lost in a pocket's mouth that comes back out onto the table was
not potted (broadcast snooker seed 9307's shot 5: the blue, 4.6 px across on a blue cloth at the far corner,
unseen for half a second after it bounced off the jaws, potted, then found again rolling away)."""

from __future__ import annotations

import numpy as np
from tracking_helper import dets

from arbiter import contract as c
from arbiter.balls import APPEARANCE_CLASSES
from arbiter.games import billiards
from tracking.ball_path import BallPath
from tracking.events import EventDetector
from tracking.held_pots import BACK_S, HOLD_S, HeldPots, came_back, unique_looks
from tracking.reorder import Reorder
from tracking.tracker import BallTracker

SPEC = billiards("snooker")
TABLE = SPEC.table
WHITE, RED = APPEARANCE_CLASSES.index("white"), APPEARANCE_CLASSES.index("red")
FPS = 60.0
MOUTH = np.array(TABLE.pocket("br").mouth_xy_mm)


def _run(comes_back: bool) -> list[c.Event]:
    """The white struck at 0.5 s from (1400, 500) into the bottom right pocket's mouth at 0.9 m/s, unseen from
    40 mm short of it; ``comes_back``: seen again 0.15 s later 150 mm out, rolling away at 0.2 m/s for a
    second, then at rest."""
    tracker, events, out = BallTracker(SPEC), EventDetector(SPEC), []
    start = np.array([1400.0, 500.0])
    heading = (MOUTH - start) / np.linalg.norm(MOUTH - start)
    t_lost = 0.5 + (np.linalg.norm(MOUTH - start) - 40.0) / 900.0
    back_at, back_from = t_lost + 0.15, MOUTH - heading * 150.0
    t = 0.0
    for n in range(int(5 * FPS)):
        t = n / FPS
        balls = [(RED, 600.0, 2500.0)]
        if t < t_lost:
            xy = start + heading * 900.0 * max(t - 0.5, 0.0)
            balls.append((WHITE, float(xy[0]), float(xy[1])))
        elif comes_back and t >= back_at:
            xy = back_from - heading * 200.0 * min(t - back_at, 1.0)
            balls.append((WHITE, float(xy[0]), float(xy[1])))
        views = tracker.update(t, dets(*balls))
        out += events.update(t, views, tracker.gone())
    return out + events.finish(t, views)


def test_a_ball_that_comes_back_out_of_a_pockets_mouth_was_not_potted():
    out = _run(comes_back=True)
    assert [e for e in out if isinstance(e, c.Pot)] == []
    assert [type(e) for e in out] == [c.ShotStart, c.ShotEnd]


def test_a_far_ball_unseen_for_more_than_a_second_after_the_jaws_threw_it_out_is_not_potted():
    """Broadcast seed 9475's tenth shot: a black 5 px across at the far corner bounced out of the jaws and
    went unseen for 1.6 s as it rolled back up the table while the shot went on; then it was followed."""
    pots, events = HeldPots(unique_looks(SPEC.looks)), Reorder()
    black = c.Pot(t=2.06, ball="black", pocket="bl")
    mx, my = TABLE.pocket("bl").mouth_xy_mm
    back = BallPath(samples=[(3.67 + k / FPS, mx + 300.0 + 5 * k, my + 800.0) for k in range(30)])
    pots.hold(black, events)
    for now in np.arange(2.1, 3.67, 0.1):  # the shot in play, the black unseen
        pots.release_into(events, {}, TABLE, now=float(now))
        assert pots.bound([], {}) < black.t
    pots.release_into(events, {"black": back}, TABLE, now=back.samples[-1][0])
    assert pots.bound([], {}) == np.inf and events.release(np.inf) == []


def test_a_ball_that_stays_gone_is_potted():
    out = _run(comes_back=False)
    assert [(e.ball, e.pocket) for e in out if isinstance(e, c.Pot)] == [("white", "br")]
    assert [type(e) for e in out] == [c.ShotStart, c.Pot, c.ShotEnd]


def test_only_a_ball_of_a_unique_look_is_held_and_taken_back_once_followed_away_from_the_mouth():
    pots, events = HeldPots(unique_looks(SPEC.looks)), Reorder()
    back = BallPath(samples=[(1.1 + k / FPS, 1600.0, 300.0) for k in range(int(2 * BACK_S * FPS))])
    blue, red = c.Pot(t=0.9, ball="blue", pocket="br"), c.Pot(t=0.9, ball="red:1", pocket="br")
    pots.hold(red, events)  # a red's id freed by its pot may be taken by another red: never held
    pots.hold(blue, events)
    assert pots.bound([], {}) < blue.t
    pots.release_into(events, {}, TABLE, now=blue.t + HOLD_S / 2)
    assert pots.bound([], {}) < blue.t  # still waiting for the blue
    pots.release_into(events, {"blue": back}, TABLE, now=blue.t + HOLD_S / 2)
    assert pots.bound([], {}) == np.inf and events.release(np.inf) == [red]  # the blue came back
    mouth = BallPath(samples=[(s[0], *MOUTH) for s in back.samples])  # a pocket's shadow read as a ball
    brief = BallPath(samples=back.samples[:3])
    assert not came_back(blue, mouth, TABLE) and not came_back(blue, brief, TABLE)
    # Found at once across the table (a dark sleeve read as the ball): nothing rolls out of a pocket so fast.
    far = BallPath(samples=[(t, x - 1000.0, y + 1000.0) for t, x, y in back.samples])
    assert not came_back(blue, far, TABLE)
    assert came_back(blue, BallPath(samples=[(t + 1.0, x, y) for t, x, y in far.samples]), TABLE)  # by then
    pots.hold(blue, events)
    pots.release_into(events, {"blue": brief}, TABLE, now=blue.t + 2 * HOLD_S)
    assert events.release(np.inf) == [blue]


def test_a_ball_seen_again_in_the_jaws_after_its_pot_and_dropping_then_is_potted_once():
    """Straight pool seed 9474's shot 4: the 15 crawls along the cushion into a corner's jaws, unseen for half
    a second (potted), shows again in the jaws for a quarter of a second creeping in, then drops: one pot,
    timed when it dropped, not two. A red rolls on meanwhile: the shot goes on."""
    tracker, events, out = BallTracker(SPEC), EventDetector(SPEC), []
    start = np.array([1400.0, 500.0])
    heading = (MOUTH - start) / np.linalg.norm(MOUTH - start)
    t_lost = 0.5 + (np.linalg.norm(MOUTH - start) - 40.0) / 900.0
    back_at, back_for = t_lost + 0.45, 0.25
    t = 0.0
    for n in range(int(5 * FPS)):
        t = n / FPS
        balls = [(RED, 600.0, 2500.0 - 200.0 * min(max(t - 0.6, 0.0), 2.4))]
        if t < t_lost:
            xy = start + heading * 900.0 * max(t - 0.5, 0.0)
            balls.append((WHITE, float(xy[0]), float(xy[1])))
        elif back_at <= t < back_at + back_for:
            xy = MOUTH - heading * (20.0 - 100.0 * (t - back_at))  # creeping in at 0.1 m/s
            balls.append((WHITE, float(xy[0]), float(xy[1])))
        views = tracker.update(t, dets(*balls))
        out += events.update(t, views, tracker.gone())
    out += events.finish(t, views)
    pots = [e for e in out if isinstance(e, c.Pot)]
    assert [(e.ball, e.pocket) for e in pots] == [("white", "br")]
    assert pots[0].t > back_at
