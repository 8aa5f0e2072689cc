"""The event stream's reorder buffer: events are found out of time order (a kink ``window`` frames behind, a
pot once the tracker gives a ball up, a contact across a gap once the ball is seen again, a departure
timed from its first samples in motion), so they are held here and released in time order once nothing
earlier can come. Events of one time keep the order they were found in.

Three rules keep the stream consistent while events wait: a contact found twice (both balls kink; a ball
leaving rest times it better) is kept once, with its better timing; a shot start made for a contact (the
strike itself unseen) stays just before that contact when a better timing moves the contact earlier; and a
contact has a cause: until the struck ball's first contact every other ball is at rest, so a contact
between two others timed just before it (a pack struck at once, its balls' kinks timed a frame or two
apart) comes just after it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TypeAlias

from arbiter import contract as c

SeenEvent: TypeAlias = c.ShotStart | c.BallBall | c.Cushion | c.Pot | c.OffTable | c.PinDown | c.ShotEnd
"""The contract's events a camera sees (every one has a time); each is a ``c.Event``."""
# A shot start made for a contact lies this far before it; a contact that comes after another's, this far
# after it.
START_BEFORE_S = 1e-6
# A contact between two balls other than the struck one, this much or less before the struck ball's first
# contact, is that contact's consequence timed early (a few frames of kink timing).
CAUSE_S = 0.1


@dataclass(frozen=True)
class _Held:
    t: float
    seq: int  # the order it was found in: events of one time keep it
    event: SeenEvent
    priority: int  # of two timings of one contact, the higher is kept


class Reorder:
    """``push`` events as they are found; ``release`` those up to a time, in time order."""

    def __init__(self) -> None:
        self._held: list[_Held] = []
        self._seq = 0
        self.emitted_t = -math.inf  # the time of the last event released
        self._struck: str | None = None  # the shot's struck ball, until its first contact is released

    def push(self, t: float, event: SeenEvent, priority: int = 0) -> None:
        self._seq += 1
        self._held.append(_Held(t, self._seq, event, priority))

    def start_for(self, tc: float, ball: str) -> None:
        """A shot start just before a contact at ``tc``: its strike was unseen, or was the same moment (a ball
        frozen against the cue ball leaves rest with it)."""
        t = tc - START_BEFORE_S
        self.push(t, c.ShotStart(t=round(t, 6), ball=ball))

    def same_contact(self, tc: float, event: c.BallBall, priority: int, within_s: float) -> bool:
        """Whether a contact of the same two balls within ``within_s`` of ``tc`` is held: then it is kept
        once, with the timing of higher ``priority`` (and a shot start made after it moved just before it)."""
        pair = frozenset(event.balls)
        for i, h in enumerate(self._held):
            if not (
                isinstance(h.event, c.BallBall)
                and frozenset(h.event.balls) == pair
                and abs(h.t - tc) < within_s
            ):
                continue
            if priority > h.priority:
                self._held[i] = _Held(tc, h.seq, event, priority)
                self._start_before(tc)
            return True
        return False

    def _start_before(self, tc: float) -> None:
        t = tc - START_BEFORE_S
        for i, h in enumerate(self._held):
            if isinstance(h.event, c.ShotStart) and h.t >= tc:
                self._held[i] = replace(h, t=t, event=_retime(h.event, t))

    def latest(self) -> float:
        """The time of the last event held (-inf: none)."""
        return max((h.t for h in self._held), default=-math.inf)

    def release(self, until: float) -> list[SeenEvent]:
        """The held events up to ``until``, in time order. One known too late to keep its own time in
        order is stamped at the last time released."""
        self._held.sort(key=lambda h: (h.t, h.seq))
        out = []
        while self._held and self._held[0].t <= until:
            h = self._held.pop(0)
            if self._caused_later(h):
                continue
            self._follow_the_shot(h.event)
            t, event = h.t, h.event
            if t < self.emitted_t:
                t, event = self.emitted_t, _retime(event, self.emitted_t)
            self.emitted_t = t
            out.append(event)
        return out

    def _caused_later(self, h: _Held) -> bool:
        """Whether ``h``, a contact of two balls before the struck ball's first, was put back just after
        that contact (held, within CAUSE_S)."""
        if self._struck is None or not isinstance(h.event, c.BallBall) or self._struck in h.event.balls:
            return False
        cause = min(
            (
                o
                for o in self._held
                if isinstance(o.event, c.BallBall)
                and self._struck in o.event.balls
                and 0.0 <= o.t - h.t <= CAUSE_S
            ),
            key=lambda o: o.t,
            default=None,
        )
        if cause is None:
            return False
        t = cause.t + START_BEFORE_S
        self._held.append(_Held(t, h.seq, _retime(h.event, t), h.priority))
        self._held.sort(key=lambda x: (x.t, x.seq))
        return True

    def _follow_the_shot(self, event: SeenEvent) -> None:
        """Which ball was struck, until its first contact (or the shot's end) is released."""
        if isinstance(event, c.ShotStart):
            self._struck = event.ball
        elif isinstance(event, c.ShotEnd) or (isinstance(event, c.BallBall) and self._struck in event.balls):
            self._struck = None


def _retime(event: SeenEvent, t: float) -> SeenEvent:
    return replace(event, t=round(t, 6))
