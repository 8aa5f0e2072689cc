"""Craps: the pass line of two dice, shooter by shooter.

The rules this engine applies (the casino pass-line rule), its inputs, options and fouls, and where it departs
from the rules text are on the game's page, docs/games/craps.md; decisions cite its rules as "Craps rule N".
``score`` is each player's net pass-line result; ``on`` the point while one stands.
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

SPEC = dice("craps")
GAME = SPEC.id
NAME = "Craps"
DICE = 2
SEVEN = 7

# The rules as docs/games/craps.md numbers them (rules 2 and 3 are the casino pass-line rule).
TWO_DICE = Rule(NAME, 1, "two dice, both thrown by the shooter; a die that does not move is no roll")
PASS_LINE = "the casino pass line"
COME_OUT_RULE = Rule(NAME, 2, "a come-out 7 or 11 wins, 2, 3 or 12 loses, else a point", PASS_LINE)
POINT_RULE = Rule(NAME, 3, "the point before a 7 wins; a 7 first loses and the dice pass", PASS_LINE)
SHOOTER = Rule(NAME, 4, "the shooter throws until a seven-out")
MATCH_END = Rule(NAME, 6, "the match ends when every player has had their turns as shooter")


class ComeOut(StrEnum):
    NATURAL = "natural"
    CRAPS = "craps"
    POINT = "point"


# come-out total -> what it does (the casino pass line; the text's "2, 8, 12" is a misprint for 2, 3, 12)
COME_OUT: Mapping[int, ComeOut] = MappingProxyType(
    {
        2: ComeOut.CRAPS,
        3: ComeOut.CRAPS,
        12: ComeOut.CRAPS,
        7: ComeOut.NATURAL,
        11: ComeOut.NATURAL,
        **dict.fromkeys((4, 5, 6, 8, 9, 10), ComeOut.POINT),
    }
)


class Reason(StrEnum):
    OUT_OF_TURN = common.OUT_OF_TURN
    WRONG_DICE = common.WRONG_DICE
    DIE_NOT_THROWN = common.DIE_NOT_THROWN


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.OUT_OF_TURN: FoulRule(0, SHOOTER),
        Reason.WRONG_DICE: FoulRule(0, TWO_DICE),
        Reason.DIE_NOT_THROWN: FoulRule(0, TWO_DICE),
    }
)


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    net: tuple[int, ...]  # by seat, header order
    stake: int
    turns_left: int  # seven-outs still to come before the match ends
    shooter: str
    point: int | None = None
    shot: int = 0
    over: bool = False
    winner: str | None = None

    @property
    def score(self) -> Mapping[str, int]:
        return FrozenMap(zip(self.players, self.net, strict=True))


def start(match: Match) -> State:
    chosen = options.read_all(SPEC, match)
    options.check_players(SPEC, match)
    return State(
        players=match.players,
        net=(0,) * len(match.players),
        stake=chosen["stake"],
        turns_left=chosen["turns"] * len(match.players),
        shooter=chosen["first"],
    )


def _foul(state: State, roll: Roll, reason: Reason, why: str) -> tuple[State, tuple[Decision, ...]]:
    return common.void_throw(
        state,
        roll,
        reason,
        FOULS[reason],
        why,
        next_player=state.shooter,
        on=None if state.point is None else str(state.point),
    )


def _settle(state: State, won: bool) -> tuple[State, dict[str, int]]:
    seat = state.players.index(state.shooter)
    delta = state.stake if won else -state.stake
    net = list(state.net)
    net[seat] += delta
    return replace(state, net=tuple(net), point=None), {state.shooter: delta}


def step(state: State, event: JsonLine) -> tuple[State, tuple[Decision, ...]]:
    if state.over:
        raise common.game_over(GAME, event, state.winner)
    common.check_player(GAME, state.players, event)
    if not isinstance(event, Roll):
        raise common.not_now(
            GAME, event, f"a roll by the shooter {state.shooter} (craps takes roll lines only)"
        )
    problem = common.whole_throw_problem(event, DICE, state.shooter)
    if problem is not None:
        return _foul(state, event, Reason(problem[0]), problem[1])
    shooter = state.shooter
    total = sum(common.faces(event))
    state = replace(state, shot=state.shot + 1)
    points: dict[str, int] = {}
    if state.point is None:
        outcome = COME_OUT[total]
        if outcome is ComeOut.POINT:
            state = replace(state, point=total)
            notes = [f"come-out {total}: the point is {total} ({COME_OUT_RULE.ref})"]
        else:
            state, points = _settle(state, outcome is ComeOut.NATURAL)
            word = "wins" if outcome is ComeOut.NATURAL else "loses"
            notes = [f"come-out {total}: {outcome} - {shooter} {word} ({COME_OUT_RULE.ref})"]
    elif total == state.point:
        state, points = _settle(state, True)
        notes = [f"{total}: the point is made - {shooter} wins ({POINT_RULE.ref})"]
    elif total == SEVEN:
        state, points = _settle(state, False)
        notes = [f"7 before the point: seven out - {shooter} loses and the dice pass ({POINT_RULE.ref})"]
        state = replace(state, turns_left=state.turns_left - 1)
        if state.turns_left == 0:
            best = max(state.net)
            leaders = [p for p, n in zip(state.players, state.net, strict=True) if n == best]
            winner = leaders[0] if len(leaders) == 1 else None
            state = replace(state, over=True, winner=winner)
            notes.append(
                f"every shooter has had their turns: {winner or 'a tie, no winner'} ({MATCH_END.ref})"
            )
        else:
            state = replace(state, shooter=common.left_of(state.players, shooter))
    else:
        notes = [f"{total}: neither the point {state.point} nor 7, throw again"]
    decision = Decision(
        shot=state.shot,
        player=shooter,
        points=points,
        score=state.score,
        next=None if state.over else state.shooter,
        on=None if state.point is None else str(state.point),
        over=state.over,
        winner=state.winner,
        notes=tuple(notes),
    )
    return state, (decision,)


ENGINE = Engine(game=GAME, start=start, step=step)
