"""Stuck in the mud: five dice, twos and fives are dead.

The rules this engine applies, its inputs, options and fouls, and where it departs from the rules text are on
the game's page, docs/games/stuck-in-the-mud.md; decisions cite its rules as "Stuck in the mud rule N".
``points`` is what a throw scored, ``score`` the totals.
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

SPEC = dice("stuck-in-the-mud")
GAME = SPEC.id
NAME = "Stuck in the mud"
DICE = 5
DEAD_FACES: frozenset[int] = frozenset({2, 5})

# The rules as docs/games/stuck-in-the-mud.md numbers them.
IN_TURN = Rule(NAME, 1, "players throw in turn")
ALL_FIVE = Rule(NAME, 2, "a turn starts with all five dice")
SCORES = Rule(NAME, 3, "a throw with no two and no five scores its sum")
DEAD = Rule(NAME, 4, "a two or a five scores nothing; those dice are dead and set aside")
LIVE_AGAIN = Rule(NAME, 5, "every live die is thrown again, until all five are dead")
MOST = Rule(NAME, 6, "the most points wins")


class Reason(StrEnum):
    OUT_OF_TURN = common.OUT_OF_TURN
    WRONG_DICE = common.WRONG_DICE
    DIE_NOT_THROWN = common.DIE_NOT_THROWN
    DEAD_DIE_THROWN = "dead_die_thrown"


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.OUT_OF_TURN: FoulRule(0, IN_TURN),
        Reason.WRONG_DICE: FoulRule(0, ALL_FIVE),
        Reason.DIE_NOT_THROWN: FoulRule(0, LIVE_AGAIN),
        Reason.DEAD_DIE_THROWN: FoulRule(0, DEAD),
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
    chosen = options.read_all(SPEC, match)
    options.check_players(SPEC, match)
    return State(
        players=match.players,
        rounds=chosen["rounds"],
        turn=match.players.index(chosen["first"]),
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
        notes = [f"dead: {len(dead)} ({faces}), the throw scores nothing; {len(live)} live ({DEAD.ref})"]
    else:
        notes = [f"no two or five: {scored} points; {len(live)} live ({SCORES.ref})"]
    if not live:
        turns_done = state.turns_done + 1
        new = replace(
            new, turn_dice=frozenset(), turns_done=turns_done, turn=(state.turn + 1) % len(state.players)
        )
        notes.append(f"all five dead: the dice pass on ({LIVE_AGAIN.ref})")
        if turns_done == state.rounds * len(state.players):
            best = max(totals)
            leaders = [p for p, t in zip(state.players, totals, strict=True) if t == best]
            winner = leaders[0] if len(leaders) == 1 else None
            new = replace(new, over=True, winner=winner)
            notes.append(
                f"{winner} has the most points ({MOST.ref})"
                if winner
                else f"tie at {best}: {', '.join(leaders)} ({MOST.ref})"
            )
    decision = common.turn_decision(new, thrower, notes, {thrower: scored})
    return new, (decision,)


ENGINE = Engine(game=GAME, start=start, step=step)
