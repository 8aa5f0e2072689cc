"""One billiards shot as the rules see it: the camera events between ``shot_start`` and ``shot_end``.

Every billiard engine keeps the lines of the shot in progress in its state (``Collecting``) and decides
the shot when its ``shot_end`` arrives, from a ``Shot``: who was struck, what it hit first, which balls
touched cushions, which were potted or left the table, which pins fell, and where everything came to rest.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TypeVar

from adjudication.engine import RuleError
from arbiter.contract import (
    BallBall,
    Cushion,
    Decision,
    JsonLine,
    OffTable,
    PinDown,
    Pot,
    ShotEnd,
    ShotStart,
)

_S = TypeVar("_S")
CameraEvent = BallBall | Cushion | Pot | OffTable | PinDown
CAMERA_EVENTS = (BallBall, Cushion, Pot, OffTable, PinDown)


@dataclass(frozen=True)
class Shot:
    """A finished shot. ``events`` keeps the camera events in stream order; the rest are views of them."""

    start: ShotStart
    events: tuple[CameraEvent, ...]
    end: ShotEnd

    @property
    def striker_ball(self) -> str:
        return self.start.ball

    @property
    def positions(self) -> Mapping[str, tuple[float, float]]:
        return self.end.positions

    def first_contact(self, ball: str | None = None) -> str | None:
        """The first ball that ``ball`` (default: the struck ball) ran into, or None if it hit none."""
        mover = ball or self.striker_ball
        for e in self.events:
            if isinstance(e, BallBall) and e.balls[0] == mover:
                return e.balls[1]
        return None

    def first_contacts(self, ball: str | None = None) -> tuple[str, ...]:
        """Every ball hit by ``ball`` at the same instant as its first contact (a split hit)."""
        mover = ball or self.striker_ball
        hits = [e for e in self.events if isinstance(e, BallBall) and e.balls[0] == mover]
        if not hits:
            return ()
        t0 = hits[0].t
        return tuple(e.balls[1] for e in hits if e.t == t0)

    def contacts(self) -> tuple[BallBall, ...]:
        return tuple(e for e in self.events if isinstance(e, BallBall))

    def cushions(self, ball: str | None = None) -> tuple[Cushion, ...]:
        return tuple(e for e in self.events if isinstance(e, Cushion) and (ball is None or e.ball == ball))

    def pots(self) -> tuple[Pot, ...]:
        return tuple(e for e in self.events if isinstance(e, Pot))

    def potted(self) -> tuple[str, ...]:
        return tuple(e.ball for e in self.pots())

    def off_table(self) -> tuple[str, ...]:
        return tuple(e.ball for e in self.events if isinstance(e, OffTable))

    def pins_down(self) -> tuple[PinDown, ...]:
        return tuple(e for e in self.events if isinstance(e, PinDown))

    def touched(self, ball: str) -> bool:
        """Whether ``ball`` took part in any contact (as mover or as the ball hit)."""
        return any(ball in e.balls for e in self.contacts())

    def cushion_after_first_contact(self) -> bool:
        """Whether any ball hit a cushion, or was potted, after the striker's first contact (the usual
        "after contact a ball must reach a cushion or be potted" requirement)."""
        mover = self.striker_ball
        first = next(
            (i for i, e in enumerate(self.events) if isinstance(e, BallBall) and e.balls[0] == mover), None
        )
        if first is None:
            return False
        return any(isinstance(e, Cushion | Pot) for e in self.events[first + 1 :])


@dataclass(frozen=True)
class Collecting:
    """The shot in progress: its ``shot_start`` (None between shots) and the camera events since."""

    start: ShotStart | None = None
    events: tuple[CameraEvent, ...] = ()


def collect(pending: Collecting, event: JsonLine) -> tuple[Collecting, Shot | None]:
    """Feed one camera line; returns the new pending shot and, at ``shot_end``, the finished ``Shot``.

    Raises ``RuleError`` for a camera event outside a shot or a shot that starts inside another.
    Non-camera lines are not this function's: engines handle them before calling it.
    """
    if isinstance(event, ShotStart):
        if pending.start is not None:
            raise RuleError(
                f"shot_start at t={event.t} while the shot that started at t={pending.start.t} "
                "has not ended; every shot ends with shot_end"
            )
        return Collecting(event, ()), None
    if isinstance(event, ShotEnd):
        if pending.start is None:
            raise RuleError(f"shot_end at t={event.t} without a shot_start before it")
        return Collecting(), Shot(pending.start, pending.events, event)
    if isinstance(event, CAMERA_EVENTS):
        if pending.start is None:
            raise RuleError(f"a {event.TYPE} line at t={event.t} outside a shot (no shot_start before it)")
        return Collecting(pending.start, (*pending.events, event)), None
    raise TypeError(f"collect() takes camera lines only, not {event.TYPE!r}")


def unsure_pot_notes(shot: Shot) -> tuple[str, ...]:
    """A note for every pot the camera marked ``unsure`` (architecture.md, the ``pocket.unsure``
    extension): the ball is gone from the table, so the rules count it, and the decision says so."""
    return tuple(
        f"the pot of {p.ball} in {p.pocket} is unsure (the camera lost it at the pocket without seeing it "
        "drop cleanly): it is counted; check it, and correct the record if the ball is still on the table"
        for p in shot.pots()
        if p.unsure
    )


def noting_unsure_pots(
    shot: Shot, decided: tuple[_S, tuple[Decision, ...]]
) -> tuple[_S, tuple[Decision, ...]]:
    """An engine's ``(state, decisions)`` for ``shot`` with the notes of its unsure pots added to every
    decision: what every billiards engine returns, so no unsure pot is ruled on silently."""
    state, decisions = decided
    notes = unsure_pot_notes(shot)
    if not notes:
        return decided
    return state, tuple(replace(d, notes=(*d.notes, *notes)) for d in decisions)
