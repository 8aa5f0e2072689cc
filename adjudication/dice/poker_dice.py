"""Poker dice: five dice, up to three throws each, the best poker hand wins.

The rules this engine applies, its inputs, options and fouls, and where it departs from the rules text are on
the game's page, docs/games/poker-dice.md; decisions cite its rules as "Poker dice rule N". ``score`` is 1
for the winner once the game is won.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType

from adjudication import options
from adjudication.dice import common, hands
from adjudication.dice.common import FoulRule, Rule
from adjudication.engine import Engine
from arbiter.contract import Decision, FrozenMap, JsonLine, Match, Roll, Stop
from arbiter.games import dice

SPEC = dice("poker-dice")
GAME = SPEC.id
NAME = "Poker dice"
MAX_THROWS = 3

# The rules as docs/games/poker-dice.md numbers them.
IN_TURN = Rule(NAME, 1, "players throw in turn")
FIRST_THROW = Rule(NAME, 2, "the first throw is all five dice")
FIVE_DICE = Rule(NAME, 2, "five dice")
KEPT_STAY = Rule(NAME, 3, "kept dice stay as they lay")
LEFT_ALONE = Rule(NAME, 4, "dice left alone at the second throw may not be thrown again")
THREE_THROWS = Rule(NAME, 5, "three throws, then the turn passes")
HANDS = Rule(NAME, 6, "the hands, highest first", "the poker ranking")
BEST_WINS = Rule(NAME, 7, "the best hand wins; tied players play again")


class Reason(StrEnum):
    OUT_OF_TURN = common.OUT_OF_TURN
    EXTRA_THROW = common.EXTRA_THROW
    WRONG_DICE = common.WRONG_DICE
    DIE_NOT_THROWN = common.DIE_NOT_THROWN
    KEPT_DIE_THROWN = common.KEPT_DIE_THROWN
    KEPT_DIE_TURNED = hands.KEPT_DIE_TURNED


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.OUT_OF_TURN: FoulRule(0, IN_TURN),
        Reason.EXTRA_THROW: FoulRule(0, THREE_THROWS),
        Reason.WRONG_DICE: FoulRule(0, FIVE_DICE),
        Reason.DIE_NOT_THROWN: FoulRule(0, FIRST_THROW),
        Reason.KEPT_DIE_THROWN: FoulRule(0, LEFT_ALONE),
        Reason.KEPT_DIE_TURNED: FoulRule(0, KEPT_STAY),
    }
)


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    straights: bool
    order: tuple[str, ...]  # who plays this game (or play-off), in turn order
    seat: int = 0  # index into order of the player on turn
    throws: int = 0  # throws made this turn
    dice: tuple[tuple[str, int], ...] = ()  # the hand (die id, face) after the turn's last throw
    movable: frozenset[str] = frozenset()  # dice the next throw may move (those the last throw moved)
    stood: tuple[tuple[str, hands.Ranked], ...] = ()  # hands stood on in this game, in turn order
    closed: str | None = None  # who just had their third throw (a fourth is an extra throw)
    playoffs: int = 0
    won: str | None = None
    shot: int = 0
    over: bool = False
    winner: str | None = None

    @property
    def score(self) -> Mapping[str, int]:
        return FrozenMap((p, int(p == self.won)) for p in self.players)

    @property
    def on_turn(self) -> str | None:
        return None if self.over else self.order[self.seat]


def start(match: Match) -> State:
    chosen = options.read_all(SPEC, match)
    options.check_players(SPEC, match)
    return State(
        players=match.players,
        straights=chosen["straights"],
        order=common.rotated(match.players, chosen["first"]),
    )


def _foul(state: State, roll: Roll, reason: Reason, why: str) -> tuple[State, tuple[Decision, ...]]:
    return common.void_throw(state, roll, reason, FOULS[reason], why, next_player=state.on_turn)


def _stand(state: State, player: str, *, closed: bool) -> tuple[State, tuple[Decision, ...]]:
    """The turn ends on the hand as it lies; after the last turn the game (or a play-off) is settled."""
    ranked = hands.rank_hand([f for _, f in state.dice], straights=state.straights)
    played = (*state.stood, (player, ranked))
    notes = [f"{player} stands on {ranked.describe()} after {hands.throws_text(state.throws)} ({HANDS.ref})"]
    new = replace(
        state, stood=played, throws=0, dice=(), movable=frozenset(), closed=player if closed else None
    )
    points: dict[str, int] = {}
    if len(played) < len(state.order):
        new = replace(new, seat=state.seat + 1)
    else:
        best = hands.best_of(dict(played))
        if len(best) == 1:
            new = replace(new, won=best[0], over=True, winner=best[0], closed=None)
            points = {best[0]: 1}
            notes.append(f"{best[0]} has the best hand and wins ({BEST_WINS.ref})")
        else:
            new = replace(new, order=best, seat=0, stood=(), playoffs=state.playoffs + 1)
            notes.append(f"tie: {', '.join(best)} play again among themselves ({BEST_WINS.ref})")
    decision = common.turn_decision(new, player, notes, points)
    return new, (decision,)


def _roll(state: State, roll: Roll) -> tuple[State, tuple[Decision, ...]]:
    player = state.order[state.seat]
    why = common.wrong_thrower(roll, player)
    if why is not None:
        if roll.player == state.closed:
            return _foul(state, roll, Reason.EXTRA_THROW, f"{roll.player} has had {MAX_THROWS} throws; {why}")
        return _foul(state, roll, Reason.OUT_OF_TURN, why)
    problem = hands.throw_problem(roll, state.dice)
    if problem is not None:
        return _foul(state, roll, Reason(problem[0]), problem[1])
    if state.throws:
        why = common.kept_rethrown(roll, {i for i, _ in state.dice} - state.movable)
        if why is not None:
            return _foul(state, roll, Reason.KEPT_DIE_THROWN, why + " (left alone at the throw before)")
    new = replace(
        state,
        dice=tuple((d.id, d.value) for d in roll.dice),
        movable=frozenset(roll.thrown),
        throws=state.throws + 1,
        closed=None,
        shot=state.shot + 1,
    )
    if new.throws == MAX_THROWS:
        return _stand(new, player, closed=True)
    return new, ()


def _stop(state: State, stop: Stop) -> tuple[State, tuple[Decision, ...]]:
    player = state.order[state.seat]
    hands.check_turn_end(GAME, stop, player, state.throws, "stands on a hand after throwing it")
    return _stand(replace(state, shot=state.shot + 1), player, closed=False)


def step(state: State, event: JsonLine) -> tuple[State, tuple[Decision, ...]]:
    return hands.turn_step(GAME, state, event, on_roll=_roll, end=Stop, on_end=_stop)


ENGINE = Engine(game=GAME, start=start, step=step)
