"""Four dice: the Chevalier de Méré's bet on a six in four dice.

The rules this engine applies, its inputs, options and fouls, and where it departs from the rules text are on
the game's page, docs/games/four-dice.md; decisions cite its rules as "Four dice rule N". ``score`` is the
throws each player has won.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType

from adjudication import options
from adjudication.dice import common
from adjudication.dice.common import FoulRule, Rule
from adjudication.engine import Engine
from arbiter.contract import Decision, FrozenMap, JsonLine, Match, Roll
from arbiter.games import dice

SPEC = dice("four-dice")
GAME = SPEC.id
NAME = "Four dice"
DICE = 4
SIX = 6

# The rules as docs/games/four-dice.md numbers them.
FOUR_DICE = Rule(NAME, 1, "four dice, thrown together")
A_SIX = Rule(NAME, 2, "a six goes to the player who backs it, no six to the other")
IN_TURN = Rule(NAME, 3, "players throw in turn")
MATCH = Rule(NAME, 4, "more throws won wins the match")


class Reason(StrEnum):
    OUT_OF_TURN = common.OUT_OF_TURN
    WRONG_DICE = common.WRONG_DICE
    DIE_NOT_THROWN = common.DIE_NOT_THROWN


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.OUT_OF_TURN: FoulRule(0, IN_TURN),
        Reason.WRONG_DICE: FoulRule(0, FOUR_DICE),
        Reason.DIE_NOT_THROWN: FoulRule(0, FOUR_DICE),
    }
)


@dataclass(frozen=True)
class State:
    players: tuple[str, str]
    six: str  # the player who backs the six
    throws: int  # throws in the match
    turn: int = 0  # seat of the player to throw
    won: tuple[int, int] = (0, 0)
    shot: int = 0
    thrown: int = 0  # legal throws so far
    over: bool = False
    winner: str | None = None

    @property
    def score(self) -> Mapping[str, int]:
        return FrozenMap(zip(self.players, self.won, strict=True))

    @property
    def on_turn(self) -> str | None:
        return None if self.over else self.players[self.turn]


def start(match: Match) -> State:
    chosen = options.read_all(SPEC, match)
    options.check_players(SPEC, match)
    first = chosen["first"]
    players = (match.players[0], match.players[1])
    return State(players=players, six=first, throws=chosen["throws"], turn=players.index(first))


def _foul(state: State, roll: Roll, reason: Reason, why: str) -> tuple[State, tuple[Decision, ...]]:
    return common.void_throw(state, roll, reason, FOULS[reason], why, next_player=state.on_turn)


def step(state: State, event: JsonLine) -> tuple[State, tuple[Decision, ...]]:
    if state.over:
        raise common.game_over(GAME, event, state.winner)
    if not isinstance(event, Roll):
        raise common.not_now(GAME, event, f"a roll by {state.on_turn}")
    common.check_player(GAME, state.players, event)
    thrower = state.players[state.turn]
    problem = common.whole_throw_problem(event, DICE, thrower)
    if problem is not None:
        return _foul(state, event, Reason(problem[0]), problem[1])

    sixes = sum(1 for d in event.dice if d.value == SIX)
    other = state.players[1 - state.players.index(state.six)]
    taker = state.six if sixes else other
    won = tuple(w + (p == taker) for p, w in zip(state.players, state.won, strict=True))
    thrown = state.thrown + 1
    new = replace(
        state,
        won=(won[0], won[1]),
        shot=state.shot + 1,
        thrown=thrown,
        turn=1 - state.turn,
    )
    why = f"{sixes} six{'es' if sixes != 1 else ''}" if sixes else "no six"
    notes = [f"{why}: the throw goes to {taker} ({A_SIX.ref})"]
    if thrown == state.throws:
        a, b = new.won
        winner = None if a == b else new.players[0 if a > b else 1]
        new = replace(new, over=True, winner=winner)
        notes.append(f"match won by {winner} ({MATCH.ref})" if winner else f"match drawn ({MATCH.ref})")
    decision = common.turn_decision(new, thrower, notes, {taker: 1})
    return new, (decision,)


ENGINE = Engine(game=GAME, start=start, step=step)
