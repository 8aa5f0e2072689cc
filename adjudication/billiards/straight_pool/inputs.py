"""The lines a player enters (``call``, ``choice``, ``concede``) and the checks on camera lines, each refused
with ``RuleError`` saying what 14.1 accepts there."""

from __future__ import annotations

from dataclasses import replace

from adjudication.billiards.rack import CUE, OBJECT_BALLS, ball_number
from adjudication.billiards.straight_pool.state import BALLS, Phase, State, full_rack
from adjudication.engine import RuleError
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

RULE_CONCEDE = "WPA General Rules, Concession"


def _check_player_turn(state: State, player: str, what: str) -> None:
    if player != state.turn:
        raise RuleError(f"{what} by {player}, but {state.turn} is at the table; only {state.turn} may {what}")


def on_call(state: State, call: Call) -> State:
    """A called ball and pocket, or a safety, before the shot (WPA 1.6, 4.5)."""
    if state.phase is Phase.CHOICE:
        raise RuleError(
            f"a call while a choice is awaited from {state.opponent(state.turn)} (play or rebreak)"
        )
    if state.pending.start is not None:
        raise RuleError("a call during a shot; the call comes before the shot's shot_start")
    _check_player_turn(state, call.player, "call")
    if not call.safety:
        if call.ball not in OBJECT_BALLS:
            raise RuleError(f"call names ball {call.ball!r}; 14.1 calls an object ball 1..15 (or a safety)")
        if call.ball not in state.table:
            on = ", ".join(sorted((b for b in state.table if b != CUE), key=ball_number))
            raise RuleError(f"call names ball {call.ball}, which is not on the table; on the table: {on}")
        if call.pocket is None:
            raise RuleError(f"call names ball {call.ball} but no pocket; 14.1 calls a ball and a pocket")
    return replace(state, call=call)


def on_choice(state: State, choice: Choice) -> State:
    """After a breaking foul the opponent accepts the table or has the breaker break again (WPA 4.3)."""
    if state.phase is not Phase.CHOICE:
        raise RuleError(f"a choice ({choice.option}) but none is awaited; a choice follows a breaking foul")
    chooser = state.opponent(state.turn)
    if choice.player != chooser:
        raise RuleError(f"choice by {choice.player}, but the choice after the breaking foul is {chooser}'s")
    if choice.option == "play":
        return replace(state, turn=chooser, phase=Phase.PLAY, call=None)
    if choice.option == "rebreak":
        return replace(state, phase=Phase.BREAK, table=full_rack(state.layout), cue_in_hand=True, call=None)
    raise RuleError(
        f"choice {choice.option!r}: after a breaking foul the options are play (accept the table) or "
        "rebreak (the breaker breaks again) (WPA 4.3)"
    )


def on_concede(state: State, concede: Concede) -> tuple[State, tuple[Decision, ...]]:
    """A concession loses the game; it gives the final decision."""
    if state.pending.start is not None:
        raise RuleError("a concession during a shot; concede between shots")
    winner = state.opponent(concede.player)
    new = replace(state, phase=Phase.OVER, winner=winner, call=None)
    decision = Decision(
        shot=state.shots,
        player=concede.player,
        score=state.score,
        next=None,
        over=True,
        winner=winner,
        notes=(f"{concede.player} concedes: {winner} wins (a concession loses the game, {RULE_CONCEDE})",),
    )
    return new, (decision,)


def check_ids(event: JsonLine) -> None:
    """Every ball a camera line names is a 14.1 ball, and a shot strikes the cue ball."""
    if isinstance(event, ShotStart) and event.ball != CUE:
        raise RuleError(f"shot_start ball {event.ball!r}: in 14.1 every shot strikes the cue ball ('cue')")
    if isinstance(event, PinDown):
        raise RuleError("pin_down: 14.1 has no pins")
    if isinstance(event, BallBall):
        balls: tuple[str, ...] = event.balls
    elif isinstance(event, Cushion | Pot | OffTable):
        balls = (event.ball,)
    elif isinstance(event, ShotEnd):
        balls = tuple(event.positions)
    else:
        balls = ()
    for ball in balls:
        if ball not in BALLS:
            raise RuleError(f"{event.TYPE}: ball {ball!r} is not in 14.1; its balls are cue and 1..15")


def check_shot_start(state: State) -> None:
    """A shot waits for the choice after a breaking foul, and for a call (WPA 4.5) except on a break."""
    if state.phase is Phase.CHOICE:
        raise RuleError(
            f"a shot while a choice is awaited from {state.opponent(state.turn)}: play or rebreak first"
        )
    if state.phase is Phase.PLAY and state.call is None and state.pending.start is None:
        raise RuleError(
            f"shot without a call: {state.turn} must call a ball and pocket, or a safety, before the shot "
            f'(e.g. {{"type":"call","player":"{state.turn}","ball":"7","pocket":"tl"}})'
        )
