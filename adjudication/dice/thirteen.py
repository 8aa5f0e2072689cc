"""Thirteen (seed 000 "Игра в 13", line 37): two dice, five throws a series, arithmetic to multiples of 13.

Two dice are thrown: an ordinary one (1..6) and one whose faces run 2..7. A player throws five times in a row
(a series). The first throw's sum starts the series' running total; for each later throw the player announces
what its sum does to the total: add it ("плюс"), subtract it ("минус"), add a half, a third or a quarter of
it ("беру половину / треть / четверть"), or add it multiplied by 2, 3 or 4 ("множу на 2, 3, 4"). Whenever
the total is a multiple of 13 the player scores a point per 13 in it (13: 1 point, 26: 2 points...). After
the fifth throw the dice pass to the left. The first to 10 points wins. The same game is played to 11 or 17
(``base``).

The text's example, as this engine plays it: 9; 12 "third" -> 13, 1 point; 3 "plus" -> 16; 5 "double" -> 26,
2 points (3 in the series).

Inputs:
- ``roll`` lines: the two dice, both thrown, by the player on turn.
- ``{"type":"operation","player":"A","op":"third"}`` after each throw but the first of a series; ``op`` is
  one of ``plus``, ``minus``, ``half``, ``third``, ``quarter``, ``double``, ``triple``, ``quadruple``.

Options:
- ``target`` (int >= 1, default 10 from the text): points that win.
- ``base`` (int >= 2, default 13; the text names 11 and 17 too): the number whose multiples score.
- ``shifted_die`` (a die id, default ``"d2"``): the die with faces 2..7. The contract gives every die a value
  1..6 (the face's place, 1 for its lowest face), so this die's value is read as value + 1.
- ``first`` (a player, default the first in the header): who throws first.

Decisions: one per legal roll and one per operation. ``points`` is what the throw scored, ``score`` the
points so far; the running total is in the notes and in ``State.total``. A roll that needs an operation has
``awaiting: ["operation"]``.

Readings where the text is silent: each series starts from a total of 0 (the first throw has no operation);
a half, third or quarter must divide the sum exactly (an operation that does not raises ``RuleError``, and the
player announces another); the total may go below 0, and only totals above 0 score; the game ends as soon as
a player reaches the target, in the middle of a series.

Fouls: a roll by a player not on turn (``out_of_turn``), one that shows other than two dice (``wrong_dice``)
or one in which a die lay still (``die_not_thrown``) is void: penalty 0, the same player throws again. A roll
while an operation is awaited, a roll without the shifted die, an operation by anyone else or when none is
awaited, and any other line raise ``RuleError``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType

from adjudication.dice import common
from adjudication.dice.common import FoulRule
from adjudication.engine import Engine, RuleError
from arbiter.contract import Decision, FrozenMap, JsonLine, Match, Op, Operation, Roll

GAME = "thirteen"
RULE = "seed 000 Игра в 13 (l.37)"
DICE = 2
THROWS_PER_SERIES = 5
DEFAULT_TARGET = 10
DEFAULT_BASE = 13
DEFAULT_SHIFTED_DIE = "d2"
SHIFT = 1  # the shifted die's faces are 2..7: value 1..6 + 1
OPTIONS: Mapping[str, str] = MappingProxyType(
    {
        "target": "points that win, integer >= 1 (default 10)",
        "base": "the number whose multiples score, integer >= 2 (default 13; also 11, 17)",
        "shifted_die": 'id of the die with faces 2..7 (default "d2")',
        "first": "the player who throws first",
    }
)


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
        Reason.OUT_OF_TURN: FoulRule(0, RULE + ": players throw in turn, five times each"),
        Reason.WRONG_DICE: FoulRule(0, RULE + ": two dice are thrown"),
        Reason.DIE_NOT_THROWN: FoulRule(0, RULE + ": both dice are thrown"),
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
    common.check_options(GAME, match, OPTIONS)
    common.check_players(GAME, match, minimum=1)
    shifted = match.options.get("shifted_die", DEFAULT_SHIFTED_DIE)
    if not isinstance(shifted, str) or not shifted:
        raise ValueError(f"{GAME} option shifted_die must be a die id such as 'd2' (got {shifted!r})")
    return State(
        players=match.players,
        points=(0,) * len(match.players),
        target=common.int_option(GAME, match, "target", DEFAULT_TARGET, minimum=1),
        base=common.int_option(GAME, match, "base", DEFAULT_BASE, minimum=2),
        shifted_die=shifted,
        turn=common.player_option(GAME, match, "first"),
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
        notes.append(f"{state.total} is {gained} x {state.base}: {gained} point(s) ({RULE})")
        if new_points[seat] >= state.target:
            notes.append(f"{player} reaches {state.target} points and wins")
            return replace(state, over=True, winner=player), points
    if state.throws == THROWS_PER_SERIES:
        notes.append(f"five throws made: the dice pass to {common.left_of(state.players, player)}")
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
        f"{state.total} {'+' if delta >= 0 else '-'} {abs(delta)} = {total}"
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
