"""Four dice (seed 000 "Четыре кубика", line 78): the Chevalier de Méré's bet on a six in four dice.

Two players. The four dice are thrown together; if at least one shows a six the first player (the one who
backs the six) wins the throw, otherwise the other player does. The text describes a single throw; a match of
several throws is an option, the players throwing in turn (the text says only "players throw"), and each throw
is worth one point to whoever it goes to, however many sixes show.

Inputs: ``roll`` lines only, each the four dice, all thrown.

Options:
- ``first`` (a player, default the first in the header): the player who backs the six and throws first.
- ``throws`` (int >= 1, default 1 from the text): throws in the match. With an even number the match can be
  drawn (``winner`` null).

Decisions: one per roll, ``points`` one point to the player the throw goes to, ``score`` throws won.

Fouls: a roll by the player not on turn, or a roll that is not exactly four dice all thrown, is void (penalty
0, the text names none) and the same player is still to throw. Lines of any other type raise ``RuleError``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType

from adjudication.dice import common
from adjudication.dice.common import FoulRule
from adjudication.engine import Engine
from arbiter.contract import Decision, FrozenMap, JsonLine, Match, Roll

GAME = "four-dice"
RULE = "seed 000 Четыре кубика (l.78)"
DICE = 4
SIX = 6
DEFAULT_THROWS = 1
OPTIONS: Mapping[str, str] = MappingProxyType(
    {"first": "the player who backs the six and throws first", "throws": "throws in the match (integer >= 1)"}
)


class Reason(StrEnum):
    OUT_OF_TURN = common.OUT_OF_TURN
    WRONG_DICE = common.WRONG_DICE
    DIE_NOT_THROWN = common.DIE_NOT_THROWN


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.OUT_OF_TURN: FoulRule(0, RULE + ": players throw in turn"),
        Reason.WRONG_DICE: FoulRule(0, RULE + ": four dice are thrown"),
        Reason.DIE_NOT_THROWN: FoulRule(0, RULE + ": the four dice are thrown together"),
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
    common.check_options(GAME, match, OPTIONS)
    common.check_players(GAME, match, minimum=2, maximum=2)
    first = common.player_option(GAME, match, "first")
    throws = common.int_option(GAME, match, "throws", DEFAULT_THROWS, minimum=1)
    players = (match.players[0], match.players[1])
    return State(players=players, six=first, throws=throws, turn=players.index(first))


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
    notes = [f"{why}: the throw goes to {taker} ({RULE})"]
    if thrown == state.throws:
        a, b = new.won
        winner = None if a == b else new.players[0 if a > b else 1]
        new = replace(new, over=True, winner=winner)
        notes.append(f"match won by {winner}" if winner else "match drawn")
    decision = common.turn_decision(new, thrower, notes, {taker: 1})
    return new, (decision,)


ENGINE = Engine(game=GAME, start=start, step=step)
