"""Bluff (seed 000 "Блеф", line 151): a hidden hand claimed, called "Bluff!" or answered by a throw.

Each player has five dice of their own. The leader throws under a hand or cup and claims a combination, true
or made up. The opponent either calls "Блеф!" or accepts and throws to answer. On a call the leader shows
the dice: a bluff loses the round for the leader, a true claim loses it for the caller. On an answer the
opponent must throw a better combination than the one claimed: a better one beats the leader, anything else
("так и не смог его обыграть") loses to the leader. The combinations are those of poker ("покерные
комбинации"), and the players agree beforehand how many throws each may make.

Inputs:
- ``roll`` lines: five dice. The leader throws (up to ``throws`` times, the first moving all five, later ones
  any of them), then claims; the answering player throws in the same way.
- ``{"type":"claim","player":"A","hand":[6,6,6,2,2]}``: the leader's claim, the five faces claimed.
- ``{"type":"challenge","player":"B"}``: the answering player calls "Блеф!" instead of throwing.
- ``{"type":"stop","player":"B"}``: with throws left, the answering player gives up the round.

Options:
- ``stakes`` (int >= 1, default 3): stakes each player starts with, as in Liar (seed 000, l.31): the text of
  Bluff sets none.
- ``throws`` (int 1..3, default 1): throws each player may make in a turn (the text leaves it to agreement).
- ``straights`` (bool, default false): whether straights count; the text's poker list (seed 000 "Игра кости
  комбинации") has none.
- ``first`` (a player, default the first in the header): the first leader.

Decisions: one per legal roll and one per challenge or stop. A round's end moves one stake from the loser to
the winner (``points``); ``score`` is the stakes each player holds. A player with none is out; the last one
with stakes wins.

Readings where the text is silent: the answer is compared with the leader's claim, which the opponent
accepted (the leader's real dice matter only on a call); the claim holds on a call when the dice are at
least as good as claimed; hands rank as in ``adjudication.dice.hands`` (combination by its points, odd dice
not counted, hands of nothing by their sum); an answer that beats the claim ends the round at once. With more
than two players (the text's "варианты ... для большего количества участников") the left neighbour answers,
and the answering player leads the next round (or the next player still in, to the left).

Fouls: a roll by a player whose throw it is not (``out_of_turn``), one that shows other than five dice
(``wrong_dice``), a turn's first throw that leaves a die lying (``die_not_thrown``) and a throw beyond
``throws`` (``extra_throw``) are void: penalty 0 (the text names none), the same player throws or claims.
A claim, challenge or stop out of its moment and any other line raise ``RuleError``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType

from adjudication.dice import common
from adjudication.dice.common import FoulRule
from adjudication.dice.hands import Ranked, rank_hand
from adjudication.engine import Engine, RuleError
from arbiter.contract import Challenge, Claim, Decision, FrozenMap, JsonLine, Match, Roll, Stop

GAME = "bluff"
RULE = "seed 000 Блеф (l.151)"
DICE = 5
DEFAULT_STAKES = 3
MAX_THROWS = 3
OPTIONS: Mapping[str, str] = MappingProxyType(
    {
        "stakes": "stakes each player starts with, integer >= 1 (default 3)",
        "throws": "throws a player may make in a turn, integer 1..3 (default 1)",
        "straights": "whether straights count, true or false (default false)",
        "first": "the first leader",
    }
)


class Reason(StrEnum):
    OUT_OF_TURN = common.OUT_OF_TURN
    WRONG_DICE = common.WRONG_DICE
    DIE_NOT_THROWN = common.DIE_NOT_THROWN
    EXTRA_THROW = common.EXTRA_THROW


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.OUT_OF_TURN: FoulRule(0, RULE + ": the leader throws, then the opponent"),
        Reason.WRONG_DICE: FoulRule(0, RULE + ": each player uses 5 dice"),
        Reason.DIE_NOT_THROWN: FoulRule(0, RULE + ": the dice are shaken and thrown together"),
        Reason.EXTRA_THROW: FoulRule(0, RULE + ": the number of throws is agreed beforehand"),
    }
)


class Phase(StrEnum):
    LEAD = "lead"  # the leader throws, then claims
    ANSWER = "answer"  # the claim stands: the opponent calls or throws
    REPLY = "reply"  # the opponent has thrown without beating the claim and has throws left


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    stakes: tuple[int, ...]  # by seat, header order
    throws: int
    straights: bool
    leader: str
    phase: Phase = Phase.LEAD
    hand: tuple[int, ...] = ()  # the leader's dice after the last legal throw
    claim: tuple[int, ...] | None = None
    thrown: int = 0  # throws made by the player now throwing
    shot: int = 0
    over: bool = False
    winner: str | None = None

    @property
    def score(self) -> Mapping[str, int]:
        return FrozenMap(zip(self.players, self.stakes, strict=True))

    @property
    def out(self) -> frozenset[str]:
        return frozenset(p for p, s in zip(self.players, self.stakes, strict=True) if s == 0)

    @property
    def opponent(self) -> str:
        return common.left_of(self.players, self.leader, out=self.out)

    @property
    def thrower(self) -> str:
        return self.leader if self.phase is Phase.LEAD else self.opponent

    def ranked(self, hand: tuple[int, ...]) -> Ranked:
        return rank_hand(hand, straights=self.straights)


def start(match: Match) -> State:
    common.check_options(GAME, match, OPTIONS)
    common.check_players(GAME, match, minimum=2)
    stakes = common.int_option(GAME, match, "stakes", DEFAULT_STAKES, minimum=1)
    return State(
        players=match.players,
        stakes=(stakes,) * len(match.players),
        throws=common.int_option(GAME, match, "throws", 1, minimum=1, maximum=MAX_THROWS),
        straights=common.bool_option(GAME, match, "straights", False),
        leader=common.player_option(GAME, match, "first"),
    )


def _describe(state: State, hand: tuple[int, ...]) -> str:
    return f"{state.ranked(hand).describe()} [{''.join(map(str, sorted(hand)))}]"


def _decision(
    state: State, player: str, notes: list[str], points: Mapping[str, int] | None = None
) -> Decision:
    awaiting = ("claim",) if state.phase is Phase.LEAD and state.thrown else ()
    return Decision(
        shot=state.shot,
        player=player,
        points=points or {},
        score=state.score,
        next=None if state.over else state.thrower,
        over=state.over,
        winner=state.winner,
        awaiting=awaiting,
        notes=tuple(notes),
    )


def _foul(state: State, roll: Roll, reason: Reason, why: str) -> tuple[State, tuple[Decision, ...]]:
    return common.void_throw(
        state,
        roll,
        reason,
        FOULS[reason],
        why,
        next_player=None if state.over else state.thrower,
        over=state.over,
        winner=state.winner,
        awaiting=("claim",) if state.phase is Phase.LEAD and state.thrown else (),
    )


def _round_over(state: State, loser: str, notes: list[str]) -> tuple[State, dict[str, int]]:
    """The loser gives the winner one stake; the opponent leads the next round."""
    winner = state.opponent if loser == state.leader else state.leader
    opponent = state.opponent
    stakes = dict(state.score)
    stakes[loser] -= 1
    stakes[winner] += 1
    notes.append(f"{loser} loses the round and gives {winner} a stake ({RULE})")
    state = replace(
        state,
        stakes=tuple(stakes[p] for p in state.players),
        phase=Phase.LEAD,
        hand=(),
        claim=None,
        thrown=0,
    )
    standing = [p for p in state.players if p not in state.out]
    if len(standing) == 1:
        notes.append(f"{loser} has no stakes left: {winner} wins")
        return replace(state, over=True, winner=winner), {loser: -1, winner: 1}
    if loser in state.out:
        notes.append(f"{loser} has no stakes left and is out")
    leader = opponent if opponent in standing else common.left_of(state.players, opponent, out=state.out)
    notes.append(f"{leader} leads the next round")
    return replace(state, leader=leader), {loser: -1, winner: 1}


def _roll(state: State, roll: Roll) -> tuple[State, tuple[Decision, ...]]:
    made = state.thrown  # 0 when a turn begins (the claim resets it for the answer)
    first = made == 0
    checks = [
        (Reason.OUT_OF_TURN, common.wrong_thrower(roll, state.thrower)),
        (Reason.EXTRA_THROW, f"{made} of {state.throws} throws made" if made >= state.throws else None),
        (Reason.WRONG_DICE, common.wrong_count(roll, DICE)),
        (Reason.DIE_NOT_THROWN, common.not_all_thrown(roll) if first else None),
    ]
    problem = common.first_problem(checks)
    if problem is not None:
        return _foul(state, roll, *problem)
    faces = common.faces(roll)
    thrower = roll.player
    state = replace(state, thrown=made + 1, shot=state.shot + 1)
    if state.phase is Phase.LEAD:
        left = state.throws - state.thrown
        more = f"; {left} more throw(s) allowed" if left else ""
        state = replace(state, hand=faces)
        return state, (_decision(state, thrower, [f"{thrower} throws under the cup: a claim is due{more}"]),)
    claim = state.claim
    if claim is None:  # Phase.ANSWER and Phase.REPLY always hold a claim
        raise RuleError(f"{GAME}: there is no claim to answer")
    notes = [f"{thrower} answers {_describe(state, claim)} with {_describe(state, faces)}"]
    if state.ranked(faces) > state.ranked(claim):
        notes.append(f"{thrower} beats the claim")
        state, points = _round_over(state, state.leader, notes)
        return state, (_decision(state, thrower, notes, points),)
    if state.thrown >= state.throws:
        notes.append(f"{thrower} has not beaten the claim in {state.throws} throw(s)")
        state, points = _round_over(state, thrower, notes)
        return state, (_decision(state, thrower, notes, points),)
    state = replace(state, phase=Phase.REPLY)
    notes.append(f"not better: {state.throws - state.thrown} more throw(s) allowed, or stop")
    return state, (_decision(state, thrower, notes),)


def _accepted(state: State) -> str:
    if state.phase is Phase.LEAD:
        return f"a roll by {state.leader}" + (f" or {state.leader}'s claim" if state.thrown else "")
    if state.phase is Phase.ANSWER:
        return f"a challenge or a roll by {state.opponent}"
    return f"a roll or a stop by {state.opponent}"


def step(state: State, event: JsonLine) -> tuple[State, tuple[Decision, ...]]:
    if state.over:
        raise common.game_over(GAME, event, state.winner)
    common.check_player(GAME, state.players, event)
    if isinstance(event, Roll):
        return _roll(state, event)
    if (
        isinstance(event, Claim)
        and state.phase is Phase.LEAD
        and state.thrown
        and event.player == state.leader
    ):
        if event.hand is None:
            raise RuleError(
                f"{GAME}: a claim names the five faces claimed, as hand (got number {event.number})"
            )
        return replace(state, claim=event.hand, phase=Phase.ANSWER, thrown=0), ()
    if isinstance(event, Challenge) and state.phase is Phase.ANSWER and event.player == state.opponent:
        claim = state.claim
        if claim is None:
            raise RuleError(f"{GAME}: there is no claim to challenge")
        state = replace(state, shot=state.shot + 1)
        shown = f"{state.leader} claimed {_describe(state, claim)} and shows {_describe(state, state.hand)}"
        if state.ranked(state.hand) >= state.ranked(claim):
            notes = [f"{shown}: no bluff"]
            state, points = _round_over(state, event.player, notes)
        else:
            notes = [f"{shown}: a bluff"]
            state, points = _round_over(state, state.leader, notes)
        return state, (_decision(state, event.player, notes, points),)
    if isinstance(event, Stop) and state.phase is Phase.REPLY and event.player == state.opponent:
        state = replace(state, shot=state.shot + 1)
        notes = [f"{event.player} stops without beating the claim"]
        state, points = _round_over(state, event.player, notes)
        return state, (_decision(state, event.player, notes, points),)
    raise common.not_now(GAME, event, _accepted(state))


ENGINE = Engine(game=GAME, start=start, step=step)
