"""The pyramid engine: ``step`` takes each line of the stream; a shot is decided at its ``shot_end``."""

from __future__ import annotations

from dataclasses import replace

from adjudication.billiards.pyramid.decide import decide
from adjudication.billiards.pyramid.inputs import check_camera_line, check_shot_start, on_choice, on_concede
from adjudication.billiards.pyramid.rules import GAME
from adjudication.billiards.pyramid.state import State, start
from adjudication.billiards.shot import collect, noting_unsure_pots
from adjudication.engine import Engine, RuleError
from arbiter.contract import (
    BallBall,
    Call,
    Choice,
    Concede,
    Cushion,
    Decision,
    JsonLine,
    OffTable,
    PinDown,
    Pot,
    ShotEnd,
    ShotStart,
)


def step(state: State, event: JsonLine) -> tuple[State, tuple[Decision, ...]]:
    """Take one line; a ``shot_end`` gives the shot's decision, a ``concede`` the final one."""
    if state.over:
        raise RuleError(f"the game is over ({state.winner} won); no line is taken after it")
    if isinstance(event, Concede):
        return on_concede(state, event)
    if isinstance(event, Choice):
        return on_choice(state, event), ()
    if isinstance(event, ShotStart | ShotEnd | BallBall | Cushion | Pot | OffTable):
        return _camera(state, event)
    if isinstance(event, PinDown):
        raise RuleError(
            "pin_down: pyramid has no pins; it takes ball_ball, cushion, pocket and off_table lines"
        )
    if isinstance(event, Call):
        raise RuleError(
            f"{state.rules.title} takes no called shots: every ball potted on a legal shot counts "
            f"({state.rules.scoring_rule})"
        )
    raise RuleError(
        f"pyramid does not take {event.TYPE!r} lines; it takes shot_start, ball_ball, cushion, pocket, "
        "off_table, shot_end, choice (after a failed dynamic break) and concede"
    )


def _camera(state: State, event: JsonLine) -> tuple[State, tuple[Decision, ...]]:
    if isinstance(event, ShotStart):
        check_shot_start(state, event)
    pending, shot = collect(state.pending, event)
    check_camera_line(state, event, pending.start.ball if pending.start is not None else None)
    state = replace(state, pending=pending)
    if shot is None:
        return state, ()
    return noting_unsure_pots(shot, decide(state, shot))


ENGINE = Engine(game=GAME, start=start, step=step)
