"""The snooker engine: ``start`` and ``step``, the one entry for every line of the stream."""

from __future__ import annotations

from dataclasses import replace

from adjudication.billiards.shot import collect, noting_unsure_pots
from adjudication.billiards.snooker.inputs import (
    awaiting_message,
    check_ids,
    on_choice,
    on_concede,
    on_declare,
)
from adjudication.billiards.snooker.rules import GAME
from adjudication.billiards.snooker.state import State, start
from adjudication.billiards.snooker.stroke import decide
from adjudication.engine import Engine, RuleError
from arbiter.contract import (
    BallBall,
    Choice,
    Concede,
    Cushion,
    Decision,
    Declare,
    JsonLine,
    OffTable,
    PinDown,
    Pot,
    ShotEnd,
    ShotStart,
)


def step(state: State, event: JsonLine) -> tuple[State, tuple[Decision, ...]]:
    """Take one line; a ``shot_end`` gives the stroke's decision, a ``concede`` the frame's."""
    if state.over:
        raise RuleError(f"the match is over ({state.winner} won); no {event.TYPE} line is taken after it")
    if isinstance(event, Declare):
        return on_declare(state, event), ()
    if isinstance(event, Choice):
        return on_choice(state, event), ()
    if isinstance(event, Concede):
        return on_concede(state, event)
    if isinstance(event, PinDown):
        raise RuleError("snooker has no pins; a pin_down line belongs to five-pins")
    if isinstance(event, ShotStart | ShotEnd | BallBall | Cushion | Pot | OffTable):
        check_ids(state, event)
        if isinstance(event, ShotStart) and state.awaiting is not None:
            raise RuleError(awaiting_message(state))
        pending, shot = collect(state.pending, event)
        state = replace(state, pending=pending)
        if shot is None:
            return state, ()
        return noting_unsure_pots(shot, decide(state, shot))
    raise RuleError(
        "snooker takes shot_start, ball_ball, cushion, pocket, off_table and shot_end lines, and declare, "
        f"choice and concede; not a {event.TYPE!r} line"
    )


ENGINE = Engine(game=GAME, start=start, step=step)
