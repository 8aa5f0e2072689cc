"""Indian dice (seed 000 "Индийские кости", line 58): poker hands of five dice, no straights, three rounds.

Hands, lowest first: one pair, two pairs, three of a kind, full house (3 + 2), four of a kind, five of a kind;
straights do not count (a run is nothing). In a round the first player has up to three throws and may stand
after the first or the second; every other player may make as many throws as the first player made and no more
(one, if the first stood on the first throw). The best hand takes the round.

Where the text is silent:
- Comparing hands: the tie-breaks of the same text's poker dice (``hands``): equal hands go to the higher
  points of the combination, two hands with no combination to the higher sum, and players still tied play the
  round again among themselves (a play-off, again with three throws for its first player).
- Throwing again: any of the five dice, as in Hoyle's Indian dice (the poker-dice text's rule that a die left
  alone may not be thrown later belongs to that game).
- The three rounds: the text says all play rounds one and two and only two players round three, the two
  strongest or the two weakest by agreement (``final``). Our reading, two rounds out of three: with
  ``strongest`` each round has a winner (the best hand), the winners of rounds one and two play the third, and
  whoever wins two rounds wins the game (one player winning both ends it after two); with ``weakest`` each
  round has a loser (the worst hand, ties for it played off the same way), the losers of rounds one and two
  play the third for the worst hand, and whoever loses two rounds loses the game. With two players both
  readings are best of three.
- Each round and play-off starts with the first of its players in turn order from ``first``.

Inputs: ``roll`` (the throws) and ``stop`` (the player on turn stands on the hand; a turn also ends by itself
when the player reaches the throws allowed).

Options:
- ``first`` (a player, default the first in the header): who throws first in every round.
- ``final`` (``"strongest"`` default, or ``"weakest"``): who plays the third round, and so whether the game
  names a winner or a loser.

Decisions: one per turn's end, naming the hand and the throws it took; the one that ends a round gives
``points`` to the round's winner (+1, ``strongest``) or loser (-1, ``weakest``) and ``score`` counts them.
When the game ends, ``winner`` is the player with two round wins (``strongest``), or with ``weakest`` the
other player of a two-player game, else null, ``State.loser`` naming the loser. One decision per void throw.

Fouls: a void throw, penalty 0 (the text names none), the hand as it was: a roll by a player not on turn
(``out_of_turn``), a throw beyond those allowed by the player whose turn just ended (``extra_throw``), a first
throw that is not five dice all thrown (``wrong_dice``, ``die_not_thrown``), other dice than the hand's five
(``wrong_dice``), a kept die on another face (``kept_die_turned``). ``RuleError``: a ``stop`` by a player not
on turn or before their first throw, and lines of any other type.
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

GAME = "indian-dice"
RULE = "seed 000 Индийские кости (l.58)"
HANDS_RULE = "seed 000 Игра кости комбинации (l.193)"
MAX_THROWS = 3
ROUNDS = 3


class Final(StrEnum):
    STRONGEST = "strongest"
    WEAKEST = "weakest"


OPTIONS: Mapping[str, str] = MappingProxyType(
    {"first": "the player who throws first", "final": f"who plays round three: {', '.join(Final)}"}
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
        Reason.OUT_OF_TURN: FoulRule(0, RULE + ": players throw in turn"),
        Reason.EXTRA_THROW: FoulRule(0, RULE + ": no more throws than the first player made, three at most"),
        Reason.WRONG_DICE: FoulRule(0, RULE + ": five dice"),
        Reason.DIE_NOT_THROWN: FoulRule(0, RULE + ": the first throw is all five dice"),
        Reason.KEPT_DIE_TURNED: FoulRule(0, RULE + ": kept dice stay as they lay"),
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
    common.check_options(GAME, match, OPTIONS)
    common.check_players(GAME, match, minimum=2)
    first = common.player_option(GAME, match, "first")
    final = common.choice_option(GAME, match, "final", Final.STRONGEST.value, [f.value for f in Final])
    return State(
        players=match.players, first=first, final=Final(final), order=common.rotated(match.players, first)
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
                f"{settled} wins two rounds and the game ({RULE})"
            ]
        others = [p for p in state.players if p != settled]
        winner = others[0] if len(others) == 1 else None
        note = f"{settled} loses two rounds and the game ({RULE})"
        return replace(fresh, over=True, winner=winner, loser=settled), [note]
    if len(decided) == 1:
        return replace(fresh, round=2, order=_in_order(state, state.players)), []
    finalists = _in_order(state, decided)
    note = f"round {ROUNDS} is played by {' and '.join(finalists)}, the {state.final} ({RULE})"
    return replace(fresh, round=ROUNDS, order=finalists), [note]


def _stand(state: State, player: str, *, closed: bool) -> tuple[State, tuple[Decision, ...]]:
    """The turn ends on the hand as it lies; after the round's last turn the round is settled."""
    ranked = hands.rank_hand([f for _, f in state.dice], straights=False)
    played = (*state.stood, (player, ranked))
    limit = state.throws if state.seat == 0 else state.limit
    notes = [f"{player} stands on {ranked.describe()} after {hands.throws_text(state.throws)} ({HANDS_RULE})"]
    if state.seat == 0 and len(state.order) > 1:
        notes.append(f"the others may make at most {hands.throws_text(limit)} ({RULE})")
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
            notes.append(
                f"round {state.round}: {', '.join(tied)} tie for the {what} hand and play off ({HANDS_RULE})"
            )
        else:
            (taker,) = tied
            points = {taker: ROUND_POINTS[state.final]}
            notes.append(f"round {state.round}: {taker} has the {what} hand ({RULE})")
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
