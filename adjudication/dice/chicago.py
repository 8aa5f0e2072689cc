"""Chicago (seed 000 "Чикаго", line 85): eleven rounds, the target rising from 2 to 12.

Two dice. In round one the target is a total of 2, in round two 3, and so on to 12 in round eleven; a throw
whose total is the round's target scores that many points. Most points after eleven rounds wins; a tie leaves
``winner`` null.

The text ("whoever first does it scores two points") makes each round a race, which is the default ``variant:
"race"``: players throw in turn, one throw a turn, and the first to hit the round's target scores it and ends
the round. Turns keep going round the table across rounds (the text does not say who opens a round, so nobody
gains by it). Hoyle's Chicago, where each player has exactly one throw per round and everyone who hits the
target scores, is ``variant: "hoyle"``.

Inputs: ``roll`` lines only, each the two dice, both thrown.

Options:
- ``variant`` (``"race"`` default, from the text; or ``"hoyle"``).
- ``first`` (a player, default the first in the header): who throws first.

Decisions: one per roll (every throw ends its turn). ``on`` is the target to throw next (``"2"`` .. ``"12"``),
``points`` what the throw scored, ``score`` the totals.

Fouls: a roll by a player not on turn, or a roll that is not exactly two dice both thrown, is void (penalty 0,
the text names none) and the same player is still to throw. Lines of any other type raise ``RuleError``.
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

GAME = "chicago"
RULE = "seed 000 Чикаго (l.85)"
DICE = 2
TARGETS: tuple[int, ...] = tuple(range(2, 13))  # round k (from 0) is won by a total of TARGETS[k]


class Variant(StrEnum):
    RACE = "race"
    HOYLE = "hoyle"


OPTIONS: Mapping[str, str] = MappingProxyType(
    {"variant": f"one of {', '.join(Variant)}", "first": "the player who throws first"}
)


class Reason(StrEnum):
    OUT_OF_TURN = common.OUT_OF_TURN
    WRONG_DICE = common.WRONG_DICE
    DIE_NOT_THROWN = common.DIE_NOT_THROWN


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.OUT_OF_TURN: FoulRule(0, RULE + ": players throw in turn"),
        Reason.WRONG_DICE: FoulRule(0, RULE + ": the game is played with two dice"),
        Reason.DIE_NOT_THROWN: FoulRule(0, RULE + ": both dice are thrown"),
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
    common.check_options(GAME, match, OPTIONS)
    variant = common.choice_option(GAME, match, "variant", Variant.RACE.value, [v.value for v in Variant])
    first = common.player_option(GAME, match, "first")
    return State(
        players=match.players,
        variant=Variant(variant),
        turn=match.players.index(first),
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
        notes = [f"round {state.round + 1}: {total} is the target, {scored} points ({RULE})"]
    else:
        notes = [f"round {state.round + 1}: {total}, not the target {target} ({RULE})"]
    if round_over and state.round + 1 == len(TARGETS):
        best = max(totals)
        leaders = [p for p, t in zip(state.players, totals, strict=True) if t == best]
        winner = leaders[0] if len(leaders) == 1 else None
        new = replace(new, over=True, winner=winner)
        notes.append(f"{winner} has the most points" if winner else f"tie at {best}: {', '.join(leaders)}")
    elif round_over:
        new = replace(new, round=state.round + 1, throws_in_round=0)
    else:
        new = replace(new, throws_in_round=throws_in_round)
    decision = common.turn_decision(
        new, thrower, notes, {thrower: scored}, on=None if new.over else str(new.target)
    )
    return new, (decision,)


ENGINE = Engine(game=GAME, start=start, step=step)
