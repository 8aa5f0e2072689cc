"""Stuck in the mud (seed 000 "Отложи мертвую", line 80): twos and fives are dead.

Five dice. A turn starts with a throw of all five. A throw with no two and no five adds the sum of its dice to
the thrower's score; a throw showing any two or five scores nothing, and every die showing a two or five is
dead and set aside. The same player throws the live dice again, and again, until all five are dead; then the
dice pass to the next player. Whoever has the most points wins.

The text does not say when the game ends; read literally ("the dice pass to the next player ... the winner is
who scores most") every player has one turn, which is the default. More rounds are an option. A tie for the
most points leaves ``winner`` null.

Inputs: ``roll`` lines only. A roll's ``thrown`` must be exactly the live dice (at a turn's start, five new
ones); dead dice may still be listed in ``dice`` as long as they are not thrown, and their faces are ignored.

Options:
- ``first`` (a player, default the first in the header): who throws first (the text draws lots for the order
  before play; the result is given here).
- ``rounds`` (int >= 1, default 1): turns each player has.

Decisions: one per roll, ``points`` what the throw scored (0 on a throw with a dead die), ``score`` the
totals.

Fouls: a void throw, penalty 0 (the text names none), the same player still to throw, for a roll by a player
not on turn, a roll that throws a dead die, a roll that leaves a live die unthrown, or a first throw of a turn
that is not five dice. Lines of any other type raise ``RuleError``.
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

GAME = "stuck-in-the-mud"
RULE = "seed 000 Отложи мертвую (l.80)"
DICE = 5
DEAD_FACES: frozenset[int] = frozenset({2, 5})
DEFAULT_ROUNDS = 1
OPTIONS: Mapping[str, str] = MappingProxyType(
    {"first": "the player who throws first", "rounds": "turns each player has (integer >= 1)"}
)


class Reason(StrEnum):
    OUT_OF_TURN = common.OUT_OF_TURN
    WRONG_DICE = common.WRONG_DICE
    DIE_NOT_THROWN = common.DIE_NOT_THROWN
    DEAD_DIE_THROWN = "dead_die_thrown"


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.OUT_OF_TURN: FoulRule(0, RULE + ": players throw in turn"),
        Reason.WRONG_DICE: FoulRule(0, RULE + ": a turn starts with all five dice"),
        Reason.DIE_NOT_THROWN: FoulRule(0, RULE + ": every live die is thrown again"),
        Reason.DEAD_DIE_THROWN: FoulRule(0, RULE + ": a dead die is set aside"),
    }
)


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    rounds: int
    turn: int  # seat of the player to throw
    totals: tuple[int, ...]
    turn_dice: frozenset[str] = frozenset()  # this turn's five dice (empty before its first throw)
    live: frozenset[str] = frozenset()
    turns_done: int = 0
    shot: int = 0
    over: bool = False
    winner: str | None = None

    @property
    def score(self) -> Mapping[str, int]:
        return FrozenMap(zip(self.players, self.totals, strict=True))

    @property
    def on_turn(self) -> str | None:
        return None if self.over else self.players[self.turn]


def start(match: Match) -> State:
    common.check_options(GAME, match, OPTIONS)
    first = common.player_option(GAME, match, "first")
    rounds = common.int_option(GAME, match, "rounds", DEFAULT_ROUNDS, minimum=1)
    return State(
        players=match.players,
        rounds=rounds,
        turn=match.players.index(first),
        totals=(0,) * len(match.players),
    )


def _foul(state: State, roll: Roll, reason: Reason, why: str) -> tuple[State, tuple[Decision, ...]]:
    return common.void_throw(state, roll, reason, FOULS[reason], why, next_player=state.on_turn)


def _illegal(state: State, roll: Roll) -> tuple[Reason, str] | None:
    """Why the roll cannot be the throw on turn, or None when it can."""
    thrower = state.players[state.turn]
    why = common.wrong_thrower(roll, thrower)
    if why is not None:
        return Reason.OUT_OF_TURN, why
    thrown = set(roll.thrown)
    if not state.live:  # a turn's first throw
        problem = common.whole_throw_problem(roll, DICE)
        return None if problem is None else (Reason(problem[0]), problem[1])
    dead = sorted(thrown & (state.turn_dice - state.live))
    if dead:
        return Reason.DEAD_DIE_THROWN, f"{', '.join(dead)} is dead and set aside"
    strangers = sorted(thrown - state.turn_dice)
    if strangers:
        return Reason.WRONG_DICE, f"{', '.join(strangers)} is not one of this turn's dice"
    kept = sorted(state.live - thrown)
    if kept:
        return Reason.DIE_NOT_THROWN, f"{', '.join(kept)} is live and must be thrown"
    return None


def step(state: State, event: JsonLine) -> tuple[State, tuple[Decision, ...]]:
    if state.over:
        raise common.game_over(GAME, event, state.winner)
    if not isinstance(event, Roll):
        raise common.not_now(GAME, event, f"a roll by {state.on_turn}")
    common.check_player(GAME, state.players, event)
    illegal = _illegal(state, event)
    if illegal is not None:
        return _foul(state, event, *illegal)

    thrower = state.players[state.turn]
    turn_dice = state.turn_dice if state.live else frozenset(d.id for d in event.dice)
    thrown = [d for d in event.dice if d.id in event.thrown]
    dead = [d for d in thrown if d.value in DEAD_FACES]
    scored = 0 if dead else sum(d.value for d in thrown)
    live = frozenset(d.id for d in thrown if d.value not in DEAD_FACES)
    totals = tuple(t + scored if i == state.turn else t for i, t in enumerate(state.totals))
    new = replace(state, totals=totals, turn_dice=turn_dice, live=live, shot=state.shot + 1)
    if dead:
        faces = ", ".join(str(d.value) for d in dead)
        notes = [f"dead: {len(dead)} ({faces}), the throw scores nothing; {len(live)} live ({RULE})"]
    else:
        notes = [f"no two or five: {scored} points; {len(live)} live ({RULE})"]
    if not live:
        turns_done = state.turns_done + 1
        new = replace(
            new, turn_dice=frozenset(), turns_done=turns_done, turn=(state.turn + 1) % len(state.players)
        )
        notes.append("all five dead: the dice pass on")
        if turns_done == state.rounds * len(state.players):
            best = max(totals)
            leaders = [p for p, t in zip(state.players, totals, strict=True) if t == best]
            winner = leaders[0] if len(leaders) == 1 else None
            new = replace(new, over=True, winner=winner)
            notes.append(
                f"{winner} has the most points" if winner else f"tie at {best}: {', '.join(leaders)}"
            )
    decision = common.turn_decision(new, thrower, notes, {thrower: scored})
    return new, (decision,)


ENGINE = Engine(game=GAME, start=start, step=step)
