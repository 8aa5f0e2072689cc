"""Chicago: eleven rounds, the target rising from 2 to 12.

The rules this engine applies, its inputs, options and fouls, and where it departs from the rules text are on
the game's page, docs/games/chicago.md; decisions cite its rules as "Chicago rule N". ``on`` is the target
to throw next.
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

SPEC = dice("chicago")
GAME = SPEC.id
NAME = "Chicago"
DICE = 2
TARGETS: tuple[int, ...] = tuple(range(2, 13))  # round k (from 0) is won by a total of TARGETS[k]


class Variant(StrEnum):
    RACE = "race"
    HOYLE = "hoyle"


# The rules as docs/games/chicago.md numbers them.
TWO_DICE = Rule(NAME, 1, "two dice, both thrown")
TARGET = Rule(NAME, 2, "a throw of the round's target scores it")
IN_TURN = Rule(NAME, 3, "players throw in turn, one throw a turn")
MOST = Rule(NAME, 5, "the most points after eleven rounds wins")


class Reason(StrEnum):
    OUT_OF_TURN = common.OUT_OF_TURN
    WRONG_DICE = common.WRONG_DICE
    DIE_NOT_THROWN = common.DIE_NOT_THROWN


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.OUT_OF_TURN: FoulRule(0, IN_TURN),
        Reason.WRONG_DICE: FoulRule(0, TWO_DICE),
        Reason.DIE_NOT_THROWN: FoulRule(0, TWO_DICE),
    }
)


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    variant: Variant
    turn: int  # seat of the player to throw
    totals: tuple[int, ...]
    round: int = 0  # index into TARGETS
    throws_in_round: int = 0  # hoyle: throws made in this round
    shot: int = 0
    over: bool = False
    winner: str | None = None

    @property
    def score(self) -> Mapping[str, int]:
        return FrozenMap(zip(self.players, self.totals, strict=True))

    @property
    def on_turn(self) -> str | None:
        return None if self.over else self.players[self.turn]

    @property
    def target(self) -> int | None:
        return None if self.over else TARGETS[self.round]


def start(match: Match) -> State:
    chosen = options.read_all(SPEC, match)
    options.check_players(SPEC, match)
    return State(
        players=match.players,
        variant=Variant(chosen["variant"]),
        turn=match.players.index(chosen["first"]),
        totals=(0,) * len(match.players),
    )


def _foul(state: State, roll: Roll, reason: Reason, why: str) -> tuple[State, tuple[Decision, ...]]:
    return common.void_throw(
        state, roll, reason, FOULS[reason], why, next_player=state.on_turn, on=str(state.target)
    )


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

    target = TARGETS[state.round]
    total = sum(d.value for d in event.dice)
    scored = target if total == target else 0
    totals = tuple(t + scored if i == state.turn else t for i, t in enumerate(state.totals))
    n = len(state.players)
    throws_in_round = state.throws_in_round + 1
    round_over = scored > 0 if state.variant is Variant.RACE else throws_in_round == n
    new = replace(state, totals=totals, turn=(state.turn + 1) % n, shot=state.shot + 1)
    if scored:
        notes = [f"round {state.round + 1}: {total} is the target, {scored} points ({TARGET.ref})"]
    else:
        notes = [f"round {state.round + 1}: {total}, not the target {target} ({TARGET.ref})"]
    if round_over and state.round + 1 == len(TARGETS):
        best = max(totals)
        leaders = [p for p, t in zip(state.players, totals, strict=True) if t == best]
        winner = leaders[0] if len(leaders) == 1 else None
        new = replace(new, over=True, winner=winner)
        result = f"{winner} has the most points" if winner else f"tie at {best}: {', '.join(leaders)}"
        notes.append(f"{result} ({MOST.ref})")
    elif round_over:
        new = replace(new, round=state.round + 1, throws_in_round=0)
    else:
        new = replace(new, throws_in_round=throws_in_round)
    decision = common.turn_decision(
        new, thrower, notes, {thrower: scored}, on=None if new.over else str(new.target)
    )
    return new, (decision,)


ENGINE = Engine(game=GAME, start=start, step=step)
