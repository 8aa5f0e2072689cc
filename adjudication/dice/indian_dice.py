"""Indian dice: poker hands of five dice without straights, three rounds, the third for two players.

The rules this engine applies, its inputs, options and fouls, and where it departs from the rules text are on
the game's page, docs/games/indian-dice.md; decisions cite its rules as "Indian dice rule N". ``score``
counts the rounds each player decided (+1 a round won with ``final: strongest``, -1 a round lost with
``weakest``); ``State.loser`` names the loser of a ``weakest`` game.
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

SPEC = dice("indian-dice")
GAME = SPEC.id
NAME = "Indian dice"
MAX_THROWS = 3
ROUNDS = 3

# The rules as docs/games/indian-dice.md numbers them.
FIVE_DICE = Rule(NAME, 1, "five dice")
IN_TURN = Rule(NAME, 2, "players throw in turn")
FIRST_THROW = Rule(NAME, 3, "the first throw is all five dice")
KEPT_STAY = Rule(NAME, 3, "dice not thrown stay as they lay")
THROWS = Rule(NAME, 4, "no more throws than the round's first player made, three at most")
HANDS = Rule(NAME, 5, "poker hands without straights")
BEST_TAKES = Rule(NAME, 6, "the best hand takes the round; equal hands play off")
STRONGEST_FINAL = Rule(NAME, 7, "rounds one and two for all; the two winners play round three")
WEAKEST_FINAL = Rule(NAME, 8, "with final weakest: the worst hand loses the round; two lost rounds lose")


class Final(StrEnum):
    STRONGEST = "strongest"
    WEAKEST = "weakest"


# the rule that says who plays round three, and who wins or loses the game
FINAL_RULE: Mapping[Final, Rule] = MappingProxyType(
    {Final.STRONGEST: STRONGEST_FINAL, Final.WEAKEST: WEAKEST_FINAL}
)
# what a decided round is worth to the player it decides
ROUND_POINTS: Mapping[Final, int] = MappingProxyType({Final.STRONGEST: 1, Final.WEAKEST: -1})


class Reason(StrEnum):
    OUT_OF_TURN = common.OUT_OF_TURN
    EXTRA_THROW = common.EXTRA_THROW
    WRONG_DICE = common.WRONG_DICE
    DIE_NOT_THROWN = common.DIE_NOT_THROWN
    KEPT_DIE_TURNED = hands.KEPT_DIE_TURNED


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.OUT_OF_TURN: FoulRule(0, IN_TURN),
        Reason.EXTRA_THROW: FoulRule(0, THROWS),
        Reason.WRONG_DICE: FoulRule(0, FIVE_DICE),
        Reason.DIE_NOT_THROWN: FoulRule(0, FIRST_THROW),
        Reason.KEPT_DIE_TURNED: FoulRule(0, KEPT_STAY),
    }
)


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    first: str
    final: Final
    order: tuple[str, ...]  # who plays this round (or play-off), in turn order
    round: int = 1
    seat: int = 0  # index into order of the player on turn
    limit: int | None = None  # throws allowed after the round's first player stood (None: up to three)
    throws: int = 0
    dice: tuple[tuple[str, int], ...] = ()  # the hand (die id, face) after the turn's last throw
    stood: tuple[tuple[str, hands.Ranked], ...] = ()  # hands stood on in this round, in turn order
    closed: str | None = None  # who just used every throw allowed (one more is an extra throw)
    decided: tuple[str, ...] = ()  # the player each finished round decided (winner or loser by ``final``)
    loser: str | None = None
    shot: int = 0
    over: bool = False
    winner: str | None = None

    @property
    def score(self) -> Mapping[str, int]:
        worth = ROUND_POINTS[self.final]
        return FrozenMap((p, worth * self.decided.count(p)) for p in self.players)

    @property
    def on_turn(self) -> str | None:
        return None if self.over else self.order[self.seat]

    @property
    def allowed(self) -> int:
        return MAX_THROWS if self.limit is None else self.limit


def start(match: Match) -> State:
    chosen = options.read_all(SPEC, match)
    options.check_players(SPEC, match)
    first = chosen["first"]
    return State(
        players=match.players,
        first=first,
        final=Final(chosen["final"]),
        order=common.rotated(match.players, first),
    )


def _foul(state: State, roll: Roll, reason: Reason, why: str) -> tuple[State, tuple[Decision, ...]]:
    return common.void_throw(state, roll, reason, FOULS[reason], why, next_player=state.on_turn)


def _in_order(state: State, among: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(p for p in common.rotated(state.players, state.first) if p in among)


def _next_round(state: State, decided: tuple[str, ...]) -> tuple[State, list[str]]:
    """After a decided round: the next round, or the end of the game."""
    fresh = replace(state, decided=decided, seat=0, stood=(), limit=None)
    twice = [p for p in state.players if decided.count(p) == 2]
    if twice:  # two rounds to one player: always so after round three, whose players decided one each
        (settled,) = twice
        if state.final is Final.STRONGEST:
            return replace(fresh, over=True, winner=settled), [
                f"{settled} wins two rounds and the game ({STRONGEST_FINAL.ref})"
            ]
        others = [p for p in state.players if p != settled]
        winner = others[0] if len(others) == 1 else None
        note = f"{settled} loses two rounds and the game ({WEAKEST_FINAL.ref})"
        return replace(fresh, over=True, winner=winner, loser=settled), [note]
    if len(decided) == 1:
        return replace(fresh, round=2, order=_in_order(state, state.players)), []
    finalists = _in_order(state, decided)
    rule = FINAL_RULE[state.final]
    note = f"round {ROUNDS} is played by {' and '.join(finalists)}, the {state.final} ({rule.ref})"
    return replace(fresh, round=ROUNDS, order=finalists), [note]


def _stand(state: State, player: str, *, closed: bool) -> tuple[State, tuple[Decision, ...]]:
    """The turn ends on the hand as it lies; after the round's last turn the round is settled."""
    ranked = hands.rank_hand([f for _, f in state.dice], straights=False)
    played = (*state.stood, (player, ranked))
    limit = state.throws if state.seat == 0 else state.limit
    notes = [f"{player} stands on {ranked.describe()} after {hands.throws_text(state.throws)} ({HANDS.ref})"]
    if state.seat == 0 and len(state.order) > 1:
        notes.append(f"the others may make at most {hands.throws_text(limit)} ({THROWS.ref})")
    new = replace(state, stood=played, limit=limit, throws=0, dice=(), closed=player if closed else None)
    points: dict[str, int] = {}
    if len(played) < len(state.order):
        new = replace(new, seat=state.seat + 1)
    else:
        strongest = state.final is Final.STRONGEST
        tied = hands.best_of(dict(played)) if strongest else hands.worst_of(dict(played))
        what = "best" if strongest else "worst"
        if len(tied) > 1:
            new = replace(new, order=tied, seat=0, stood=(), limit=None)
            who = ", ".join(tied)
            notes.append(
                f"round {state.round}: {who} tie for the {what} hand and play off ({BEST_TAKES.ref})"
            )
        else:
            (taker,) = tied
            points = {taker: ROUND_POINTS[state.final]}
            rule = BEST_TAKES if strongest else WEAKEST_FINAL
            notes.append(f"round {state.round}: {taker} has the {what} hand ({rule.ref})")
            new, more = _next_round(new, (*state.decided, taker))
            notes.extend(more)
    decision = common.turn_decision(new, player, notes, points)
    return new, (decision,)


def _roll(state: State, roll: Roll) -> tuple[State, tuple[Decision, ...]]:
    player = state.order[state.seat]
    why = common.wrong_thrower(roll, player)
    if why is not None:
        if roll.player == state.closed:
            return _foul(state, roll, Reason.EXTRA_THROW, f"{roll.player} has had every throw allowed; {why}")
        return _foul(state, roll, Reason.OUT_OF_TURN, why)
    problem = hands.throw_problem(roll, state.dice)
    if problem is not None:
        return _foul(state, roll, Reason(problem[0]), problem[1])
    new = replace(
        state,
        dice=tuple((d.id, d.value) for d in roll.dice),
        throws=state.throws + 1,
        closed=None,
        shot=state.shot + 1,
    )
    if new.throws == state.allowed:
        return _stand(new, player, closed=True)
    return new, ()


def _stop(state: State, stop: Stop) -> tuple[State, tuple[Decision, ...]]:
    player = state.order[state.seat]
    hands.check_turn_end(GAME, stop, player, state.throws, "stands on a hand after throwing it")
    return _stand(replace(state, shot=state.shot + 1), player, closed=False)


def step(state: State, event: JsonLine) -> tuple[State, tuple[Decision, ...]]:
    return hands.turn_step(GAME, state, event, on_roll=_roll, end=Stop, on_end=_stop)


ENGINE = Engine(game=GAME, start=start, step=step)
