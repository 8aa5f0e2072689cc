"""What a pyramid shot's camera lines show against the rules: its fouls, and whether a break was legal."""

from __future__ import annotations

from adjudication.billiards.pyramid.rules import (
    CUE,
    DYNAMIC_BREAK_CUSHION_BALLS,
    FREE_BREAK_CUSHION_BALLS,
    HOME_LINE,
    SIDE_CUSHIONS,
    XY,
    BreakTest,
    InHand,
    Reason,
)
from adjudication.billiards.pyramid.state import State
from adjudication.billiards.shot import Shot
from arbiter.contract import BallBall, Cushion
from arbiter.tables import TableModel


def in_home(xy: XY | None, layout: TableModel) -> bool:
    """Whether a ball lies in home: its centre on or behind the home line of the table ``layout``."""
    return xy is not None and xy[1] <= layout.line(HOME_LINE).y_mm


def all_in_home(state: State) -> bool:
    """Every object ball lies in home: the far end becomes a temporary home."""
    return all(in_home(state.positions.get(b), state.layout) for b in state.on_table if b != CUE)


def _home_ball_hit(state: State, shot: Shot, first: str) -> bool:
    """From hand from home: was the first ball hit one lying in home, before the cue ball left home?"""
    if not in_home(state.positions.get(first), state.layout):
        return False
    if all_in_home(state):
        return False  # every object ball in home: the far end is a temporary home
    for e in shot.events:
        if isinstance(e, BallBall) and e.balls[0] == shot.striker_ball:
            return True
        if isinstance(e, Cushion) and e.ball == shot.striker_ball and e.side == "top":
            return False  # the cue ball reached the top cushion, so it left home first
    return True


def break_ok(state: State, shot: Shot) -> bool:
    """A legal break: a ball potted or two object balls to a cushion (IPC General Rules 11-12); dynamic: a
    ball potted, three to side cushions, or two and a third beyond the centre line."""
    if any(b != CUE for b in shot.potted()):
        return True
    cushioned = {e.ball for e in shot.cushions() if e.ball != CUE}
    if state.rules.break_test is BreakTest.POT_OR_TWO_CUSHIONS:
        return len(cushioned) >= FREE_BREAK_CUSHION_BALLS
    sides = {e.ball for e in shot.cushions() if e.ball != CUE and e.side in SIDE_CUSHIONS}
    if len(sides) >= DYNAMIC_BREAK_CUSHION_BALLS:
        return True
    centre_y = state.layout.length_mm / 2  # the centre line
    crossed = {b for b, (_, y) in shot.positions.items() if b != CUE and b not in sides and y < centre_y}
    return len(sides) == DYNAMIC_BREAK_CUSHION_BALLS - 1 and bool(crossed)


def fouls_of(state: State, shot: Shot) -> list[Reason]:
    """Every foul of the shot, in ``Reason`` order (the break's own test is ``break_ok``)."""
    rules = state.rules
    struck = shot.striker_ball
    reasons: list[Reason] = []
    if struck != CUE and (state.breaking or not rules.any_ball_is_cue):
        reasons.append(Reason.WRONG_CUE_BALL)
    first = shot.first_contact()
    if first is None:
        reasons.append(Reason.NO_CONTACT)
    elif state.in_hand is InHand.HOME and struck == CUE and _home_ball_hit(state, shot, first):
        reasons.append(Reason.BALL_IN_HOME_HIT)
    if rules.no_cue_pot_from_hand and state.in_hand is InHand.ANYWHERE and CUE in shot.potted():
        reasons.append(Reason.CUE_BALL_POTTED_FROM_HAND)
    if shot.off_table():
        reasons.append(Reason.BALL_OFF_TABLE)
    if not state.breaking and first is not None and not shot.cushion_after_first_contact():
        reasons.append(Reason.NO_CUSHION)
    return reasons
