"""Pots of a ball of a unique look held a moment: one the tracker gave up in a pocket's mouth and that is then
followed on the table again, away from the pocket, was not potted.

A ball of the cloth's colour far from the camera (a blue on a blue cloth at a broadcast's far corner, 4-5 px
across) can go unseen for half a second after it bounces off the jaws and rolls back out: the tracker,
which saw it last heading into the mouth, pots it, and finds it again on the table once it shows. Its pot
waits ``HOLD_S`` (the events after it with it) for the ball to be found and followed again; a look-alike's
pot (a red's) is not held: the id it frees may be taken by another red, lost and found again.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping

import numpy as np

from arbiter import contract as c
from arbiter.balls import BallLook
from arbiter.tables import TableModel

from .ball_path import BallPath
from .event_config import EventConfig
from .paths import JUST_STRUCK_S, time_to_drop
from .reorder import Reorder
from .track import Track, TrackView
from .tracker import POT_CONFIRM_MAX_S

# How long after its time a unique ball's pot waits for the ball to come back (it showed within 0.14 s and
# was followed by 0.4 s on seed 9307; a far black 5 px across, out of the jaws, went unseen for 1.6 s as
# it rolled back up a broadcast's table on seed 9475): the events after it wait as long, or to the shot's end.
HOLD_S = 2.0
# A ball potted and then followed again this long, seen at least this many times, at least a ball's width
# from the pocket's mouth, is on the table: a pocket's shadow read as a ball for a few frames is not.
BACK_S = 0.25
BACK_SAMPLES = 6
# ... and first seen again where a ball rolling out of the pocket could be by then: no faster than this
# (a dark sleeve over the far side of the table, read as the black a moment after it dropped, is not it).
BACK_SPEED_MM_S = 2000.0


class HeldPots:
    """The pots of balls of a unique look, each held ``HOLD_S`` (``release_into``)."""

    def __init__(self, unique: Iterable[str]) -> None:
        self.unique = frozenset(unique)  # the balls no other ball looks like: the one ball of their look
        self._pots: list[c.Pot] = []

    def hold(self, pot: c.Pot, events: Reorder) -> None:
        """Hold ``pot`` if its ball is of a unique look, else push it into ``events`` now. A pot of a ball
        whose earlier pot is still held replaces it: the ball was seen again in the jaws and went in then
        (one pot, timed when it dropped)."""
        if pot.ball in self.unique:
            self._pots = [p for p in self._pots if p.ball != pot.ball] + [pot]
        else:
            events.push(pot.t, pot)

    def bound(self, views: Iterable[TrackView], paths: Mapping[str, BallPath]) -> float:
        """Release nothing from the first pot held on, nor after a ball was last seen while the tracker
        still weighs whether it was potted (``TrackView.pot_pending``): its pot, if it comes, is timed
        then, and the stream stays in order."""
        pending = [paths[v.ball].samples[-1][0] for v in views if v.pot_pending and paths.get(v.ball)]
        return min([*pending, *(pot.t for pot in self._pots)], default=math.inf) - 1e-6

    def release_into(
        self, events: Reorder, paths: Mapping[str, BallPath], table: TableModel, now: float = math.inf
    ) -> None:
        """Into the stream (``events``) the pots held ``HOLD_S`` by ``now`` (every one, by default: the
        shot ended, the source did), or ``HOLD_S`` after their ball was last seen again (rattling in the
        jaws, it may drop again: its pot then replaces this one); a pot whose ball came back (``came_back``)
        is dropped at once."""
        kept = []
        for pot in self._pots:
            path = paths.get(pot.ball)
            if came_back(pot, path, table):
                continue
            last_seen = path.samples[-1][0] if path is not None and path.samples else pot.t
            if now - max(pot.t, last_seen) >= HOLD_S:
                events.push(pot.t, pot)
            else:
                kept.append(pot)
        self._pots = kept


def came_back(pot: c.Pot, path: BallPath | None, table: TableModel) -> bool:
    """Whether ``pot``'s ball was followed on the table after it (``path``: its samples since it was found
    again) for ``BACK_S`` at least, in ``BACK_SAMPLES`` sightings, first seen again where it could have
    rolled out of the pocket to by then (``BACK_SPEED_MM_S``), last seen a ball's width or more from the
    pocket's mouth."""
    if path is None:
        return False
    after = [s for s in path.samples if s[0] > pot.t]
    if len(after) < BACK_SAMPLES or after[-1][0] - after[0][0] < BACK_S:
        return False
    mouth, diameter = table.pocket(pot.pocket).mouth_xy_mm, table.ball_diameter_mm
    if math.dist(after[0][1:], mouth) > diameter + BACK_SPEED_MM_S * (after[0][0] - pot.t):
        return False
    return math.dist(after[-1][1:], mouth) >= diameter


def unique_looks(looks: Mapping[str, BallLook]) -> set[str]:
    """The balls whose look no other ball of the set shares (a snooker colour, a pool number, a cue ball)."""
    counts = Counter(look.cls for look in looks.values())
    return {ball for ball, look in looks.items() if counts[look.cls] == 1}


def drop_delay(
    tr: Track,
    measured: list[tuple[float, float, float, bool]],
    path: BallPath | None,
    table: TableModel,
    radius_mm: float,
    config: EventConfig,
) -> float:
    """How long after its last sighting (``measured``, its sightings) a ball lost going into ``tr.gone_near``
    dropped (``paths.time_to_drop``); a frame for one that left rest just before (struck off the lip)."""
    t_last, x, y, _ = measured[-1]
    velocity = path.velocity_into_pocket(t_last, config.window) if path else np.zeros(2)
    frame = (t_last - measured[-2][0]) if len(measured) > 1 else 0.0
    left = path.samples[min(path.moving_from, len(path.samples) - 1)][0] if path and path.samples else 0.0
    if float(np.hypot(*velocity)) < config.rest_mm_s or t_last - left < JUST_STRUCK_S:
        return frame
    drop = time_to_drop(table.pocket(str(tr.gone_near)), (x, y), (velocity[0], velocity[1]), radius_mm)
    return frame if drop is None else min(drop, POT_CONFIRM_MAX_S)
