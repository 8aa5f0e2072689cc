"""The five-pins engine: ``step`` takes each line of the stream; a shot is decided at its ``shot_end``."""

from __future__ import annotations

from dataclasses import replace

from adjudication.billiards.five_pins.decide import decide
from adjudication.billiards.five_pins.inputs import check_line, on_concede
from adjudication.billiards.five_pins.rules import GAME
from adjudication.billiards.five_pins.state import State, start
from adjudication.billiards.shot import collect, noting_unsure_pots
from adjudication.engine import Engine, RuleError
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

CAMERA_LINES = (ShotStart, BallBall, Cushion, OffTable, PinDown, ShotEnd)
TAKES = "shot_start, ball_ball, cushion, pin_down, off_table, shot_end and concede"


def step(state: State, event: JsonLine) -> tuple[State, tuple[Decision, ...]]:
    """Take one line; a ``shot_end`` gives the shot's decision, a ``concede`` the final one."""
    if state.over:
        raise RuleError(f"the game is over ({state.winner} won); no {event.TYPE} line is taken after the end")
    if isinstance(event, Concede):
        return on_concede(state, event)
    if not isinstance(event, CAMERA_LINES):
        extra = " (a five-pins table has no pockets)" if event.TYPE == "pocket" else ""
        raise RuleError(f"five-pins takes no {event.TYPE} lines{extra}; it reads {TAKES}")
    pending, shot = collect(state.pending, event)  # refuses lines outside a shot and shots inside shots
    check_line(state, event)
    state = replace(state, pending=pending)
    if shot is None:
        return state, ()
    return noting_unsure_pots(shot, decide(state, shot))


ENGINE = Engine(game=GAME, start=start, step=step)
