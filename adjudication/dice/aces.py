"""Aces (seed 000 "Тузы", line 76): get rid of your dice; whoever throws the last ace loses.

Every player starts with the same number of dice. On a turn the player throws all the dice they hold at once:
each one (an ace) goes to the centre of the table, each two to the left neighbour (the next player in turn
order, play going clockwise as in the text's other games), each five to the right neighbour (the previous
player); other faces stay with the thrower. A player whose dice are all gone is not out, since neighbours can
pass dice back; their turns are skipped while they hold none. The game ends when every die is in the centre,
and the player whose throw sent the last ace there loses.

Inputs: ``roll`` lines only. A roll lists the dice the thrower held, all of them thrown.

Options:
- ``dice`` (int >= 1, default 5 from the text): dice each player starts with.
- ``first`` (a player, default the first in the header): who throws first. The text settles the order by a
  throw of one die each (lowest first, a tie to whoever threw it first); that draw happens before the stream
  and its result is given here.

Decisions: one per roll. ``score`` is the dice each player holds (the fewer the better), ``points`` the dice
each player gained (+) or gave away (-) with the throw. With two players the one who did not throw the last
ace is the ``winner``; with more the text names only a loser, so ``winner`` stays null and the note and
``State.loser`` name the loser.

Fouls (a throw the camera sees that the rules do not allow): a roll by a player not on turn, or a roll that is
not exactly the thrower's dice all thrown together, is void: nothing moves, penalty 0 (the text names none),
and the same player is still to throw. Lines of any other type raise ``RuleError``.
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

GAME = "aces"
RULE = "seed 000 Тузы (l.76)"
DEFAULT_DICE = 5
OPTIONS: Mapping[str, str] = MappingProxyType(
    {"dice": "dice each player starts with (integer >= 1)", "first": "the player who throws first"}
)


class Reason(StrEnum):
    OUT_OF_TURN = common.OUT_OF_TURN
    WRONG_DICE = common.WRONG_DICE
    DIE_NOT_THROWN = common.DIE_NOT_THROWN


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.OUT_OF_TURN: FoulRule(0, RULE + ": players throw in turn"),
        Reason.WRONG_DICE: FoulRule(0, RULE + ": the player throws all the dice in hand"),
        Reason.DIE_NOT_THROWN: FoulRule(0, RULE + ": all the dice in hand are thrown at once"),
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
    common.check_options(GAME, match, OPTIONS)
    common.check_players(GAME, match, minimum=2)
    dice = common.int_option(GAME, match, "dice", DEFAULT_DICE, minimum=1)
    first = common.player_option(GAME, match, "first")
    return State(
        players=match.players,
        held=(dice,) * len(match.players),
        centre=0,
        turn=match.players.index(first),
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
        f"{moved[Pass.RIGHT]} five(s) to {right} on the right ({RULE})"
    ]
    new = replace(state, held=tuple(held), centre=centre, shot=state.shot + 1)
    if sum(held) == 0:
        others = [p for p in state.players if p != thrower]
        winner = others[0] if len(others) == 1 else None
        new = replace(new, loser=thrower, over=True, winner=winner)
        notes.append(f"{thrower} threw the last ace and loses ({RULE})")
    else:
        empty = [p for p, h in zip(state.players, held, strict=True) if h == 0]
        new = replace(new, turn=state.players.index(common.left_of(state.players, thrower, out=empty)))
    decision = common.turn_decision(new, thrower, notes, points)
    return new, (decision,)


ENGINE = Engine(game=GAME, start=start, step=step)
