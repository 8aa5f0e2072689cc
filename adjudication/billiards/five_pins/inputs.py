"""The one line a player enters (``concede``) and the checks on camera lines, each refused with
``RuleError`` saying what five-pins accepts there."""

from __future__ import annotations

from dataclasses import replace

from adjudication.billiards.five_pins.rules import BALLS, PINS, RULES
from adjudication.billiards.five_pins.state import State
from adjudication.engine import RuleError
from arbiter.contract import (
    BallBall,
    Concede,
    Cushion,
    Decision,
    JsonLine,
    OffTable,
    PinDown,
    ShotEnd,
    ShotStart,
)


def on_concede(state: State, event: Concede) -> tuple[State, tuple[Decision, ...]]:
    """A player who walks out loses the game (UMB 5-pin 9.1)."""
    if event.player not in state.players:
        raise RuleError(f"concede by {event.player!r}, who is not a player ({', '.join(state.players)})")
    if state.pending.start is not None:
        raise RuleError(f"concede by {event.player} during a shot; a player concedes between shots")
    winner = state.other(event.player)
    state = replace(state, over=True, winner=winner)
    decision = Decision(
        shot=state.shots,
        player=event.player,
        score=state.score,
        next=None,
        over=True,
        winner=winner,
        notes=(f"{event.player} concedes: {winner} wins the game ({RULES} 9.1)",),
    )
    return state, (decision,)


def _ball(what: str, ball: str) -> None:
    if ball not in BALLS:
        raise RuleError(f"{what} {ball!r} is not a five-pins ball; the balls are {', '.join(BALLS)}")


def check_line(state: State, event: JsonLine) -> None:
    """Ids and pins of one camera line, against the shot so far (``state.pending``, before this line)."""
    if isinstance(event, ShotStart | Cushion | OffTable):
        _ball(f"{event.TYPE}.ball", event.ball)
    elif isinstance(event, BallBall):
        for b in event.balls:
            _ball("ball_ball.balls", b)
    elif isinstance(event, PinDown):
        _check_pin_down(state, event)
    elif isinstance(event, ShotEnd):
        for b in event.positions:
            _ball("shot_end.positions key", b)
        gone = {e.ball for e in state.pending.events if isinstance(e, OffTable)}
        missing = [b for b in BALLS if b not in event.positions and b not in gone]
        if missing:
            raise RuleError(
                f"shot_end.positions lacks {', '.join(missing)}, which did not leave the table (no off_table "
                "line); every ball on the table must have a position"
            )


def _check_pin_down(state: State, event: PinDown) -> None:
    """A standing pin falls once per shot, knocked by a ball or by a pin already down (UMB 5-pin 12.3)."""
    down = {e.pin for e in state.pending.events if isinstance(e, PinDown)}
    if event.pin not in PINS:
        raise RuleError(f"pin_down.pin {event.pin!r} is not a pin; the pins are {', '.join(PINS)}")
    if event.pin not in state.standing:
        raise RuleError(
            f"pin_down for {event.pin}, which the referee took off before this shot: a ball stands on "
            f"its spot ({RULES} 12.7); standing: {', '.join(sorted(state.standing)) or 'none'}"
        )
    if event.pin in down:
        raise RuleError(f"pin_down for {event.pin} twice in one shot; a pin falls once per shot")
    if event.by in PINS:
        if event.by not in down:
            raise RuleError(
                f"pin_down.by {event.by} knocked {event.pin} but is not down in this shot; "
                "by is a ball, or a pin already down in this shot"
            )
    elif event.by not in BALLS:
        raise RuleError(
            f"pin_down.by {event.by!r} is neither a ball ({', '.join(BALLS)}) nor a pin ({', '.join(PINS)})"
        )
