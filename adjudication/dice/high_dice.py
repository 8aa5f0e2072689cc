"""High dice: a banker and a punter, two dice each; the punter must beat the banker.

The rules this engine applies, its inputs, options and fouls, and where it departs from the rules text are on
the game's page, docs/games/high-dice.md; decisions cite its rules as "High dice rule N". ``points`` is what
changed hands, ``score`` the balances.
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
from arbiter.contract import Decision, FrozenMap, JsonLine, Match, Roll, Stop
from arbiter.games import dice

SPEC = dice("high-dice")
GAME = SPEC.id
NAME = "High dice"
DICE = 2

# The rules as docs/games/high-dice.md numbers them.
TWO_DICE = Rule(NAME, 1, "each throw is of two dice, both thrown")
BANKER_FIRST = Rule(NAME, 2, "the banker throws first, then the punter")
BEAT = Rule(NAME, 3, "a punter who throws more wins a stake; anything else pays one")
EXTRA = Rule(NAME, 4, "an extra throw is on a borrowed stake; a punter who fails pays one a throw")
MATCH = Rule(NAME, 5, "the better balance after the last round wins")


class Reason(StrEnum):
    OUT_OF_TURN = common.OUT_OF_TURN
    WRONG_DICE = common.WRONG_DICE
    DIE_NOT_THROWN = common.DIE_NOT_THROWN


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.OUT_OF_TURN: FoulRule(0, BANKER_FIRST),
        Reason.WRONG_DICE: FoulRule(0, TWO_DICE),
        Reason.DIE_NOT_THROWN: FoulRule(0, TWO_DICE),
    }
)


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    banker: str
    punter: str
    balance: tuple[int, ...]  # by seat, header order
    extra_throws: int
    stake: int
    rounds: int | None
    mark: int | None = None  # the banker's total this round; None: the banker is to throw
    punter_throws: int = 0  # throws the punter has made this round
    rounds_played: int = 0
    shot: int = 0
    over: bool = False
    winner: str | None = None

    @property
    def score(self) -> Mapping[str, int]:
        return FrozenMap(zip(self.players, self.balance, strict=True))

    @property
    def thrower(self) -> str:
        return self.banker if self.mark is None else self.punter


def start(match: Match) -> State:
    chosen = options.read_all(SPEC, match)
    options.check_players(SPEC, match)
    banker = chosen["banker"]
    return State(
        players=match.players,
        banker=banker,
        punter=next(p for p in match.players if p != banker),
        balance=(0, 0),
        extra_throws=chosen["extra_throws"],
        stake=chosen["stake"],
        rounds=chosen["rounds"],
    )


def _decision(state: State, player: str, notes: list[str], points: Mapping[str, int]) -> Decision:
    return Decision(
        shot=state.shot,
        player=player,
        points=points,
        score=state.score,
        next=None if state.over else state.thrower,
        over=state.over,
        winner=state.winner,
        notes=tuple(notes),
    )


def _foul(state: State, roll: Roll, reason: Reason, why: str) -> tuple[State, tuple[Decision, ...]]:
    return common.void_throw(state, roll, reason, FOULS[reason], why, next_player=state.thrower)


def _settle(state: State, punter_wins: int, notes: list[str]) -> tuple[State, dict[str, int]]:
    """Pay ``punter_wins`` units to the punter (negative: to the banker) and end the round."""
    points = {state.punter: punter_wins, state.banker: -punter_wins}
    balance = tuple(b + points[p] for p, b in zip(state.players, state.balance, strict=True))
    state = replace(state, balance=balance, mark=None, punter_throws=0, rounds_played=state.rounds_played + 1)
    if state.rounds is not None and state.rounds_played == state.rounds:
        best = max(balance)
        leaders = [p for p, b in zip(state.players, balance, strict=True) if b == best]
        state = replace(state, over=True, winner=leaders[0] if len(leaders) == 1 else None)
        notes.append(f"{state.rounds} rounds played: {state.winner or 'a tie, no winner'} ({MATCH.ref})")
    return state, points


def _punter_loses(state: State, notes: list[str]) -> tuple[State, dict[str, int]]:
    owed = state.stake * state.punter_throws
    rule = BEAT if state.punter_throws == 1 else EXTRA
    notes.append(f"{state.punter} fails on {state.punter_throws} throw(s) and pays {owed} ({rule.ref})")
    return _settle(state, -owed, notes)


def step(state: State, event: JsonLine) -> tuple[State, tuple[Decision, ...]]:
    if state.over:
        raise common.game_over(GAME, event, state.winner)
    common.check_player(GAME, state.players, event)
    if isinstance(event, Stop):
        return _stop(state, event)
    if not isinstance(event, Roll):
        raise common.not_now(GAME, event, f"a roll by {state.thrower}")
    return _roll(state, event)


def _stop(state: State, stop: Stop) -> tuple[State, tuple[Decision, ...]]:
    """The punter takes no more of the extra throws allowed and pays for the throws made."""
    if stop.player != state.punter or state.punter_throws == 0:
        raise common.not_now(
            GAME, stop, f"a stop by the punter {state.punter} after a failed throw with an extra throw left"
        )
    state = replace(state, shot=state.shot + 1)
    notes = [f"{state.punter} takes no extra throw"]
    state, points = _punter_loses(state, notes)
    return state, (_decision(state, stop.player, notes, points),)


def _roll(state: State, roll: Roll) -> tuple[State, tuple[Decision, ...]]:
    problem = common.whole_throw_problem(roll, DICE, state.thrower)
    if problem is not None:
        return _foul(state, roll, Reason(problem[0]), problem[1])
    total = sum(common.faces(roll))
    state = replace(state, shot=state.shot + 1)
    points: dict[str, int] = {}
    if state.mark is None:
        state = replace(state, mark=total)
        notes = [f"banker throws {total}: {state.punter} must throw more than {total} ({BEAT.ref})"]
    elif total > state.mark:
        notes = [f"{total} beats the banker's {state.mark}: the banker pays one stake ({BEAT.ref})"]
        state, points = _settle(state, state.stake, notes)
    else:
        state = replace(state, punter_throws=state.punter_throws + 1)
        notes = [f"{total} does not beat the banker's {state.mark}"]
        if state.punter_throws <= state.extra_throws:
            notes.append(
                f"extra throw {state.punter_throws} of {state.extra_throws} open: throw again on a borrowed "
                f"stake, or stop ({EXTRA.ref})"
            )
        else:
            state, points = _punter_loses(state, notes)
    return state, (_decision(state, roll.player, notes, points),)


ENGINE = Engine(game=GAME, start=start, step=step)
