"""The lines a player enters between strokes (``declare``, ``choice``, ``concede``) and the ids the camera
lines may name; each is checked against the state and refused with ``RuleError`` saying what is allowed."""

from __future__ import annotations

from dataclasses import replace

from adjudication.billiards.snooker.rules import BALL_IDS, COLOUR, COLOURS, RULE_END, WHITE, kind
from adjudication.billiards.snooker.state import State, end_frame, fresh_rack, other
from adjudication.engine import RuleError
from arbiter.contract import (
    BallBall,
    Choice,
    Concede,
    Cushion,
    Decision,
    Declare,
    JsonLine,
    OffTable,
    Pot,
    ShotStart,
)


def awaiting_message(state: State) -> str:
    aw = state.awaiting
    if aw is None:
        return "no choice is awaited"
    who = aw.chooser if aw.chooser is not None else "the winner of the lot (either player)"
    return f"a choice is awaited first: {who} chooses {' or '.join(aw.options)}"


def _check_ball(state: State, ball: str, where: str) -> None:
    if ball not in BALL_IDS:
        raise RuleError(
            f"{where} {ball!r} is not a snooker ball; ids are white, red:1..red:15, {', '.join(COLOURS)}"
        )
    if ball != WHITE and ball not in state.table.balls:
        raise RuleError(f"{where} {ball!r} is not on the table (potted or off the table before)")


def check_ids(state: State, event: JsonLine) -> None:
    """Every ball a camera line names is a snooker ball still on the table (or the white)."""
    if isinstance(event, ShotStart):
        _check_ball(state, event.ball, "shot_start.ball")
    elif isinstance(event, BallBall):
        for b in event.balls:
            _check_ball(state, b, "ball_ball.balls")
    elif isinstance(event, Cushion | Pot | OffTable):
        _check_ball(state, event.ball, f"{event.TYPE}.ball")


def _between_shots(state: State, what: str) -> None:
    if state.pending.start is not None:
        raise RuleError(
            f"{what} comes between shots, not during one (the shot from t={state.pending.start.t} goes on)"
        )


def on_declare(state: State, d: Declare) -> State:
    """The striker nominates the colour on after a red, or a free ball (WPBSA 2.12, 3.12)."""
    _between_shots(state, "a declare")
    if state.awaiting is not None:
        raise RuleError(awaiting_message(state))
    if d.player != state.striker:
        raise RuleError(
            f"{d.player} declared, but {state.striker} is the striker; only the striker nominates"
        )
    table = state.table
    if d.ball not in BALL_IDS or d.ball == WHITE:
        raise RuleError(
            f"declare.ball {d.ball!r} is not an object ball; nominate a colour ({', '.join(COLOURS)})"
        )
    if d.free_ball:
        if not table.free_ball:
            raise RuleError(
                "no free ball: one is nominated only after a foul that leaves the incoming player "
                "snookered, when that player chose to play"
            )
        if d.ball not in table.balls:
            raise RuleError(f"the free ball {d.ball} is not on the table")
        if d.ball == table.on or kind(d.ball) == table.on:
            raise RuleError(f"the free ball must be a ball other than the ball on ({table.on}) (WPBSA 2.13)")
        return replace(state, nomination=d)
    if table.on != COLOUR:
        raise RuleError(
            f"a colour is nominated only when a colour is on after a red (the ball on is {table.on}); "
            "after a foul that calls a free ball, declare with free_ball true"
        )
    if d.ball not in COLOURS:
        raise RuleError(f"a colour is on: nominate one of {', '.join(COLOURS)} (got {d.ball!r})")
    return replace(state, nomination=d)


def on_choice(state: State, c: Choice) -> State:
    """The non-offender's choice after a foul (WPBSA 3.13, 3.14), or the lot's for the re-spotted black."""
    _between_shots(state, "a choice")
    aw = state.awaiting
    if aw is None:
        raise RuleError("no choice is awaited: a choice follows a foul, or the lot for a re-spotted black")
    if aw.chooser is not None and c.player != aw.chooser:
        raise RuleError(f"{c.player} cannot choose: the choice is {aw.chooser}'s ({' or '.join(aw.options)})")
    if c.option not in aw.options:
        raise RuleError(
            f"choice {c.option!r} is not open here; {c.player} may choose {' or '.join(aw.options)}"
        )
    base = replace(state, awaiting=None, nomination=None)
    if aw.kind == "lot":
        return replace(base, striker=c.player if c.option == "play" else other(state, c.player))
    chooser, offender = aw.chooser or c.player, aw.offender or other(state, c.player)
    if c.option == "play":
        return replace(base, striker=chooser, table=replace(state.table, free_ball=aw.free_ball), misses=0)
    if c.option == "pass":
        return replace(base, striker=offender, table=replace(state.table, free_ball=False), misses=0)
    if c.option == "replace":  # a miss is only called on a stroke with a table before it
        return replace(base, striker=offender, table=state.replay or state.table, replayed=True)
    return replace(
        base, striker=offender, table=fresh_rack(state.table.layout), misses=0, replay=None
    )  # rebreak


def on_concede(state: State, c: Concede) -> tuple[State, tuple[Decision, ...]]:
    """Either player concedes the frame between strokes; the decision gives the frame to the other."""
    _between_shots(state, "a concession")
    winner = other(state, c.player)
    note = f"{c.player} concedes frame {state.frame_no} ({RULE_END})"
    after, next_player, on, notes = end_frame(state, winner, state.score, [note])
    decision = Decision(
        shot=state.shot,
        player=c.player,
        score=state.score,
        next=next_player,
        on=on,
        over=after.over,
        winner=after.winner,
        notes=tuple(notes),
    )
    return after, (decision,)
