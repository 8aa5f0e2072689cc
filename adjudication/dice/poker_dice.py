"""Poker dice (seed 000 "Игра в кости 5 кубиков правила" and "Игра кости комбинации", lines 178-204).

Five dice. Each player in turn has up to three throws to make the best poker hand. The first throw is all five
dice; after it the player may stand or throw again any of them, one to five; after the second they may stand
or throw again, but only dice they threw at the second throw: a die left alone then may not be thrown later
(the text: those he did not touch he has no right to throw again). After the third throw the turn passes. When
everyone has played, the best hand wins (``hands``: a higher hand wins; equal hands go to the higher points of
the combination; two hands with no combination go to the higher sum). Players whose hands tie play again among
themselves (the text), in the order they played, until one wins.

Hands, highest first: five of a kind, four of a kind, full house, three of a kind, two pairs, one pair,
nothing. Departures: the text's list has no three of a kind, but read literally a three of a kind would then
count as a pair and lose to two pairs, which no poker ranking does and the same text's Indian dice does not;
it is ranked above two pairs, as in every poker game. The text counts no straights (a run is nothing, scored
by its sum); Hoyle's straights (little 1-5 below big 2-6, both between three of a kind and a full house) are
the ``straights`` option. The text's draw for the order (one die each, the highest opens) is held before the
stream and given as ``first``.

Inputs: ``roll`` (the throws) and ``stop`` (``{"type":"stop","player":"A"}``: the player on turn stands on the
hand after one or two throws; after the third throw the turn ends by itself).

Options:
- ``first`` (a player, default the first in the header): who throws first.
- ``straights`` (bool, default false from the text): whether 1-5 and 2-6 are straights.

Decisions: one per turn's end (the ``stop``, or the third throw), naming the hand; the one that ends the game
gives the winner ``points`` 1 (``score``: games won, 1 for the winner), and one per void throw.

Fouls: a void throw, penalty 0 (the text names none), the hand as it was: a roll by a player not on turn
(``out_of_turn``), a fourth throw by the player whose turn just ended (``extra_throw``), a first throw that is
not five dice all thrown (``wrong_dice``, ``die_not_thrown``), a throw of a die left alone at the throw before
(``kept_die_thrown``), other dice than the hand's five (``wrong_dice``), a kept die on another face
(``kept_die_turned``). ``RuleError``: a ``stop`` by a player not on turn or before their first throw, and
lines of any other type.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType

from adjudication.dice import common, hands
from adjudication.dice.common import FoulRule
from adjudication.engine import Engine
from arbiter.contract import Decision, FrozenMap, JsonLine, Match, Roll, Stop

GAME = "poker-dice"
RULE = "seed 000 Игра в кости 5 кубиков правила (l.178)"
HANDS_RULE = "seed 000 Игра кости комбинации (l.193)"
MAX_THROWS = 3
OPTIONS: Mapping[str, str] = MappingProxyType(
    {
        "first": "the player who throws first",
        "straights": "whether 1-5 and 2-6 count as straights (true/false)",
    }
)


class Reason(StrEnum):
    OUT_OF_TURN = common.OUT_OF_TURN
    EXTRA_THROW = common.EXTRA_THROW
    WRONG_DICE = common.WRONG_DICE
    DIE_NOT_THROWN = common.DIE_NOT_THROWN
    KEPT_DIE_THROWN = common.KEPT_DIE_THROWN
    KEPT_DIE_TURNED = hands.KEPT_DIE_TURNED


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.OUT_OF_TURN: FoulRule(0, RULE + ": players throw in turn"),
        Reason.EXTRA_THROW: FoulRule(0, RULE + ": three throws, then the turn passes"),
        Reason.WRONG_DICE: FoulRule(0, RULE + ": five dice"),
        Reason.DIE_NOT_THROWN: FoulRule(0, RULE + ": the first throw is all five dice"),
        Reason.KEPT_DIE_THROWN: FoulRule(0, RULE + ": dice left alone may not be thrown again"),
        Reason.KEPT_DIE_TURNED: FoulRule(0, RULE + ": kept dice stay as they lay"),
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
    common.check_options(GAME, match, OPTIONS)
    common.check_players(GAME, match, minimum=2)
    first = common.player_option(GAME, match, "first")
    straights = common.bool_option(GAME, match, "straights", False)
    return State(players=match.players, straights=straights, order=common.rotated(match.players, first))


def _foul(state: State, roll: Roll, reason: Reason, why: str) -> tuple[State, tuple[Decision, ...]]:
    return common.void_throw(state, roll, reason, FOULS[reason], why, next_player=state.on_turn)


def _stand(state: State, player: str, *, closed: bool) -> tuple[State, tuple[Decision, ...]]:
    """The turn ends on the hand as it lies; after the last turn the game (or a play-off) is settled."""
    ranked = hands.rank_hand([f for _, f in state.dice], straights=state.straights)
    played = (*state.stood, (player, ranked))
    notes = [f"{player} stands on {ranked.describe()} after {hands.throws_text(state.throws)} ({HANDS_RULE})"]
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
            notes.append(f"{best[0]} has the best hand and wins ({HANDS_RULE})")
        else:
            new = replace(new, order=best, seat=0, stood=(), playoffs=state.playoffs + 1)
            notes.append(f"tie: {', '.join(best)} play again among themselves ({HANDS_RULE})")
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
