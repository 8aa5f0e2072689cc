"""The lines a player enters (``choice``, ``concede``) and the checks on camera lines, each refused with
``RuleError`` saying what pyramid accepts there."""

from __future__ import annotations

from dataclasses import replace

from adjudication.billiards.pyramid.rules import (
    BALLS,
    CHOICES,
    CUE,
    OBJECT_BALLS,
    RULE_DYNAMIC_BREAK,
    RULE_GENERAL,
    InHand,
)
from adjudication.billiards.pyramid.state import State
from adjudication.engine import RuleError
from arbiter.contract import (
    BallBall,
    Choice,
    Concede,
    Cushion,
    Decision,
    FrozenMap,
    JsonLine,
    OffTable,
    Pot,
    ShotEnd,
    ShotStart,
)


def on_concede(state: State, event: Concede) -> tuple[State, tuple[Decision, ...]]:
    """Either player concedes between shots; the other wins."""
    if event.player not in state.players:
        raise RuleError(f"concede.player {event.player!r} is not a player ({', '.join(state.players)})")
    if state.pending.start is not None:
        raise RuleError(f"concede by {event.player} during a shot; concede between shots")
    winner = state.opponent(event.player)
    new = replace(state, over=True, winner=winner, chooser=None)
    decision = Decision(
        shot=state.shots,
        player=event.player,
        score=new.score,
        next=None,
        over=True,
        winner=winner,
        notes=(f"{event.player} concedes: {winner} wins ({RULE_GENERAL})",),
    )
    return new, (decision,)


def on_choice(state: State, event: Choice) -> State:
    """After a failed dynamic break the opponent plays the table or re-racks and breaks himself."""
    if state.chooser is None:
        raise RuleError(
            f"choice by {event.player}: no choice is awaited; pyramid asks for one only after a failed "
            "dynamic break"
        )
    if event.player != state.chooser:
        raise RuleError(f"choice by {event.player}: the choice is {state.chooser}'s")
    if event.option not in CHOICES:
        raise RuleError(
            f"choice {event.option!r}: after a failed break {state.chooser} may only play (the table as it "
            f"lies) or rebreak (re-rack and break himself) ({RULE_DYNAMIC_BREAK})"
        )
    if event.option == "play":
        return replace(state, chooser=None, turn=event.player)
    return replace(
        state,
        chooser=None,
        turn=event.player,
        breaking=True,
        in_hand=InHand.HOME,
        on_table=frozenset(OBJECT_BALLS),
        positions=FrozenMap(),
    )


def _check_ball(ball: str, where: str) -> None:
    if ball not in BALLS:
        raise RuleError(f"{where}: {ball!r} is not a pyramid ball; balls are cue and 1..15")


def check_shot_start(state: State, event: ShotStart) -> None:
    """No shot while a choice is awaited; the struck ball is on the table (or the cue ball in hand)."""
    if state.chooser is not None:
        raise RuleError(
            f"shot_start while {state.chooser}'s choice is awaited (choice play or rebreak first)"
        )
    _check_ball(event.ball, "shot_start.ball")
    in_hand = event.ball == CUE and state.in_hand is not None
    if event.ball not in state.on_table and not in_hand:
        raise RuleError(f"shot_start.ball {event.ball!r} is not on the table")


def check_camera_line(state: State, event: JsonLine, struck: str | None) -> None:
    """Every ball a camera line names is a pyramid ball; a ball leaves the table once, and only if it was
    on it (or was the struck ball)."""
    if isinstance(event, BallBall):
        for ball in event.balls:
            _check_ball(ball, "ball_ball.balls")
    elif isinstance(event, Cushion):
        _check_ball(event.ball, "cushion.ball")
    elif isinstance(event, Pot | OffTable):
        _check_ball(event.ball, f"{event.TYPE}.ball")
        if event.ball not in state.on_table and event.ball != struck:
            raise RuleError(f"{event.TYPE}: ball {event.ball!r} is not on the table")
        gone = [e.ball for e in state.pending.events if isinstance(e, Pot | OffTable)]
        if event.ball in gone:
            raise RuleError(f"{event.TYPE}: ball {event.ball!r} already left the table in this shot")
    elif isinstance(event, ShotEnd):
        for ball in event.positions:
            _check_ball(ball, "shot_end.positions")
