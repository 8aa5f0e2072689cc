"""Thirteen: two dice (one with faces 2..7), five throws a series, arithmetic to multiples of 13.

The rules this engine applies, its inputs, options and fouls, and where it departs from the rules text are on
the game's page, docs/games/thirteen.md; decisions cite its rules as "Thirteen rule N". The series' running
total is in the notes and ``State.total``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType

from adjudication import options
from adjudication.dice import common
from adjudication.dice.common import FoulRule, Rule
from adjudication.engine import Engine, RuleError
from arbiter.contract import Decision, FrozenMap, JsonLine, Match, Op, Operation, Roll
from arbiter.games import dice

SPEC = dice("thirteen")
GAME = SPEC.id
NAME = "Thirteen"
DICE = 2
THROWS_PER_SERIES = 5
SHIFT = 1  # the shifted die's faces are 2..7: value 1..6 + 1

# The rules as docs/games/thirteen.md numbers them.
TWO_DICE = Rule(NAME, 1, "two dice, both thrown")
SERIES = Rule(NAME, 2, "players throw in turn, five throws a series")
OPERATION = Rule(NAME, 4, "the player announces what each later throw does to the total")
MULTIPLE = Rule(NAME, 5, "a total that is a multiple of 13 scores a point per 13")
TARGET = Rule(NAME, 6, "the first to 10 points wins")


@dataclass(frozen=True)
class Arithmetic:
    """What an operation adds to the total: ``sum * times / divide`` (``divide`` must go exactly)."""

    times: int
    divide: int
    words: str


OPERATIONS: Mapping[Op, Arithmetic] = MappingProxyType(
    {
        Op.PLUS: Arithmetic(1, 1, "плюс"),
        Op.MINUS: Arithmetic(-1, 1, "минус"),
        Op.HALF: Arithmetic(1, 2, "беру половину"),
        Op.THIRD: Arithmetic(1, 3, "беру треть"),
        Op.QUARTER: Arithmetic(1, 4, "беру четверть"),
        Op.DOUBLE: Arithmetic(2, 1, "множу на 2"),
        Op.TRIPLE: Arithmetic(3, 1, "множу на 3"),
        Op.QUADRUPLE: Arithmetic(4, 1, "множу на 4"),
    }
)


class Reason(StrEnum):
    OUT_OF_TURN = common.OUT_OF_TURN
    WRONG_DICE = common.WRONG_DICE
    DIE_NOT_THROWN = common.DIE_NOT_THROWN


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.OUT_OF_TURN: FoulRule(0, SERIES),
        Reason.WRONG_DICE: FoulRule(0, TWO_DICE),
        Reason.DIE_NOT_THROWN: FoulRule(0, TWO_DICE),
    }
)


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    points: tuple[int, ...]  # by seat, header order
    target: int
    base: int
    shifted_die: str
    turn: str
    throws: int = 0  # throws made in the current series
    total: int = 0  # the series' running total
    pending: int | None = None  # the sum of a throw whose operation is awaited
    shot: int = 0
    over: bool = False
    winner: str | None = None

    @property
    def score(self) -> Mapping[str, int]:
        return FrozenMap(zip(self.players, self.points, strict=True))


def start(match: Match) -> State:
    chosen = options.read_all(SPEC, match)
    options.check_players(SPEC, match)
    return State(
        players=match.players,
        points=(0,) * len(match.players),
        target=chosen["target"],
        base=chosen["base"],
        shifted_die=chosen["shifted_die"],
        turn=chosen["first"],
    )


def _foul(state: State, roll: Roll, reason: Reason, why: str) -> tuple[State, tuple[Decision, ...]]:
    return common.void_throw(state, roll, reason, FOULS[reason], why, next_player=state.turn)


def _throw_sum(state: State, roll: Roll) -> int:
    faces = common.face_of(roll)
    if state.shifted_die not in faces:
        raise RuleError(
            f"{GAME}: the roll must hold the die with faces 2..7, {state.shifted_die!r} "
            "(option shifted_die); "
            f"it holds {', '.join(faces)}"
        )
    return sum(faces.values()) + SHIFT


def _score_total(state: State, player: str, notes: list[str]) -> tuple[State, dict[str, int]]:
    """Score the running total if it is a multiple of the base; end the series or the game as due."""
    points: dict[str, int] = {}
    if state.total > 0 and state.total % state.base == 0:
        gained = state.total // state.base
        seat = state.players.index(player)
        new_points = list(state.points)
        new_points[seat] += gained
        state = replace(state, points=tuple(new_points))
        points = {player: gained}
        notes.append(f"{state.total} is {gained} x {state.base}: {gained} point(s) ({MULTIPLE.ref})")
        if new_points[seat] >= state.target:
            notes.append(f"{player} reaches {state.target} points and wins ({TARGET.ref})")
            return replace(state, over=True, winner=player), points
    if state.throws == THROWS_PER_SERIES:
        notes.append(
            f"five throws made: the dice pass to {common.left_of(state.players, player)} ({SERIES.ref})"
        )
        state = replace(state, turn=common.left_of(state.players, player), throws=0, total=0)
    return state, points


def _decision(state: State, player: str, notes: list[str], points: Mapping[str, int]) -> Decision:
    return Decision(
        shot=state.shot,
        player=player,
        points=points,
        score=state.score,
        next=None if state.over else state.turn,
        over=state.over,
        winner=state.winner,
        awaiting=("operation",) if state.pending is not None else (),
        notes=tuple(notes),
    )


def _roll(state: State, roll: Roll) -> tuple[State, tuple[Decision, ...]]:
    problem = common.whole_throw_problem(roll, DICE, state.turn)
    if problem is not None:
        return _foul(state, roll, Reason(problem[0]), problem[1])
    if state.pending is not None:
        raise RuleError(
            f"{GAME}: {state.turn} must announce an operation for the throw of {state.pending} "
            "before throwing "
            f"again ({', '.join(Op)})"
        )
    total = _throw_sum(state, roll)
    player = state.turn
    state = replace(state, throws=state.throws + 1, shot=state.shot + 1)
    if state.throws == 1:
        state = replace(state, total=total)
        notes = [f"throw 1 of 5: {total} starts the total"]
        state, points = _score_total(state, player, notes)
        return state, (_decision(state, player, notes, points),)
    state = replace(state, pending=total)
    notes = [f"throw {state.throws} of 5: {total}; total {state.total}, an operation is awaited"]
    return state, (_decision(state, player, notes, {}),)


def _operation(state: State, line: Operation) -> tuple[State, tuple[Decision, ...]]:
    if state.pending is None or line.player != state.turn:
        awaited = f"a roll by {state.turn}" if state.pending is None else f"an operation by {state.turn}"
        raise common.not_now(GAME, line, awaited)
    arithmetic = OPERATIONS[Op(line.op)]
    thrown = state.pending
    if thrown % arithmetic.divide:
        raise RuleError(
            f"{GAME}: {line.op} of {thrown} is not a whole number; {state.turn} announces another operation"
        )
    delta = thrown * arithmetic.times // arithmetic.divide
    total = state.total + delta
    notes = [
        f'"{arithmetic.words}" ({line.op}) {thrown}: '
        f"{state.total} {'+' if delta >= 0 else '-'} {abs(delta)} = {total} ({OPERATION.ref})"
    ]
    state = replace(state, total=total, pending=None, shot=state.shot + 1)
    state, points = _score_total(state, line.player, notes)
    return state, (_decision(state, line.player, notes, points),)


def step(state: State, event: JsonLine) -> tuple[State, tuple[Decision, ...]]:
    if state.over:
        raise common.game_over(GAME, event, state.winner)
    common.check_player(GAME, state.players, event)
    if isinstance(event, Roll):
        return _roll(state, event)
    if isinstance(event, Operation):
        return _operation(state, event)
    awaited = f"a roll by {state.turn}" if state.pending is None else f"an operation by {state.turn}"
    raise common.not_now(GAME, event, awaited)


ENGINE = Engine(game=GAME, start=start, step=step)
