"""Aces: get rid of your dice; whoever throws the last ace loses.

The rules this engine applies, its inputs, options and fouls, and where it departs from the rules text are on
the game's page, docs/games/aces.md; decisions cite its rules as "Aces rule N". ``score`` is the dice each
player holds (the fewer the better); ``State.loser`` names the loser.
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

SPEC = dice("aces")
GAME = SPEC.id
NAME = "Aces"

# The rules as docs/games/aces.md numbers them.
IN_TURN = Rule(NAME, 2, "players throw in turn")
ALL_IN_HAND = Rule(NAME, 3, "the player throws all the dice in hand at once")
PASSES_RULE = Rule(NAME, 4, "aces to the centre, twos to the left, fives to the right")
LAST_ACE = Rule(NAME, 6, "the player who throws the last ace loses")


class Reason(StrEnum):
    OUT_OF_TURN = common.OUT_OF_TURN
    WRONG_DICE = common.WRONG_DICE
    DIE_NOT_THROWN = common.DIE_NOT_THROWN


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.OUT_OF_TURN: FoulRule(0, IN_TURN),
        Reason.WRONG_DICE: FoulRule(0, ALL_IN_HAND),
        Reason.DIE_NOT_THROWN: FoulRule(0, ALL_IN_HAND),
    }
)


class Pass(StrEnum):
    CENTRE = "centre"
    LEFT = "left"
    RIGHT = "right"


# face -> where a die showing it goes (faces not listed stay with the thrower)
PASSES: Mapping[int, Pass] = MappingProxyType({1: Pass.CENTRE, 2: Pass.LEFT, 5: Pass.RIGHT})
# seat offset of each neighbour in turn order
OFFSET: Mapping[Pass, int] = MappingProxyType({Pass.LEFT: 1, Pass.RIGHT: -1})


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    held: tuple[int, ...]  # dice in hand, by seat
    centre: int
    turn: int  # seat of the player to throw
    shot: int = 0
    loser: str | None = None
    over: bool = False
    winner: str | None = None

    @property
    def score(self) -> Mapping[str, int]:
        return FrozenMap(zip(self.players, self.held, strict=True))

    @property
    def on_turn(self) -> str | None:
        return None if self.over else self.players[self.turn]


def start(match: Match) -> State:
    chosen = options.read_all(SPEC, match)
    options.check_players(SPEC, match)
    return State(
        players=match.players,
        held=(chosen["dice"],) * len(match.players),
        centre=0,
        turn=match.players.index(chosen["first"]),
    )


def _foul(state: State, roll: Roll, reason: Reason, why: str) -> tuple[State, tuple[Decision, ...]]:
    return common.void_throw(state, roll, reason, FOULS[reason], why, next_player=state.on_turn)


def step(state: State, event: JsonLine) -> tuple[State, tuple[Decision, ...]]:
    if state.over:
        raise common.game_over(GAME, event, state.winner)
    if not isinstance(event, Roll):
        raise common.not_now(GAME, event, f"a roll by {state.on_turn}")
    common.check_player(GAME, state.players, event)
    thrower = state.players[state.turn]
    problem = common.whole_throw_problem(event, state.held[state.turn], thrower)
    if problem is not None:
        return _foul(state, event, Reason(problem[0]), problem[1])

    held = list(state.held)
    moved = dict.fromkeys(Pass, 0)
    for die in event.dice:
        where = PASSES.get(die.value)
        if where is None:
            continue
        moved[where] += 1
        held[state.turn] -= 1
        if where is not Pass.CENTRE:
            held[(state.turn + OFFSET[where]) % len(held)] += 1  # a neighbour
    centre = state.centre + moved[Pass.CENTRE]
    points = {p: h - h0 for p, h, h0 in zip(state.players, held, state.held, strict=True) if h != h0}
    n = len(state.players)
    left, right = (state.players[(state.turn + OFFSET[p]) % n] for p in (Pass.LEFT, Pass.RIGHT))
    notes = [
        f"{moved[Pass.CENTRE]} ace(s) to the centre, {moved[Pass.LEFT]} two(s) to {left} on the left, "
        f"{moved[Pass.RIGHT]} five(s) to {right} on the right ({PASSES_RULE.ref})"
    ]
    new = replace(state, held=tuple(held), centre=centre, shot=state.shot + 1)
    if sum(held) == 0:
        others = [p for p in state.players if p != thrower]
        winner = others[0] if len(others) == 1 else None
        new = replace(new, loser=thrower, over=True, winner=winner)
        notes.append(f"{thrower} threw the last ace and loses ({LAST_ACE.ref})")
    else:
        empty = [p for p, h in zip(state.players, held, strict=True) if h == 0]
        new = replace(new, turn=state.players.index(common.left_of(state.players, thrower, out=empty)))
    decision = common.turn_decision(new, thrower, notes, points)
    return new, (decision,)


ENGINE = Engine(game=GAME, start=start, step=step)
