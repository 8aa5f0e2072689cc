"""Bluff: a hidden hand claimed, then called "Bluff!" or answered by a throw that must beat it.

The rules this engine applies, its inputs, options and fouls, and where it departs from the rules text are on
the game's page, docs/games/bluff.md; decisions cite its rules as "Bluff rule N". ``score`` is the stakes
each player holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType

from adjudication import options
from adjudication.dice import common
from adjudication.dice.common import FoulRule, Rule
from adjudication.dice.hands import Ranked, rank_hand
from adjudication.engine import Engine, RuleError
from arbiter.contract import Challenge, Claim, Decision, FrozenMap, JsonLine, Match, Roll, Stop
from arbiter.games import dice

SPEC = dice("bluff")
GAME = SPEC.id
NAME = "Bluff"
DICE = 5

# The rules as docs/games/bluff.md numbers them.
FIVE_DICE = Rule(NAME, 1, "each player uses five dice, shaken and thrown together")
THROWS = Rule(NAME, 2, "the number of throws is agreed beforehand")
IN_TURN = Rule(NAME, 4, "the leader throws, then the opponent")
CALL = Rule(NAME, 5, "on a call the leader shows the dice: a bluff loses, a true claim wins")
ANSWER = Rule(NAME, 6, "an answer must beat the claim")
STAKE = Rule(NAME, 8, "the loser of a round gives the winner a stake; the last with stakes wins")


class Reason(StrEnum):
    OUT_OF_TURN = common.OUT_OF_TURN
    WRONG_DICE = common.WRONG_DICE
    DIE_NOT_THROWN = common.DIE_NOT_THROWN
    EXTRA_THROW = common.EXTRA_THROW


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.OUT_OF_TURN: FoulRule(0, IN_TURN),
        Reason.WRONG_DICE: FoulRule(0, FIVE_DICE),
        Reason.DIE_NOT_THROWN: FoulRule(0, FIVE_DICE),
        Reason.EXTRA_THROW: FoulRule(0, THROWS),
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
    chosen = options.read_all(SPEC, match)
    options.check_players(SPEC, match)
    return State(
        players=match.players,
        stakes=(chosen["stakes"],) * len(match.players),
        throws=chosen["throws"],
        straights=chosen["straights"],
        leader=chosen["first"],
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
    notes.append(f"{loser} loses the round and gives {winner} a stake ({STAKE.ref})")
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
        notes.append(f"{loser} has no stakes left: {winner} wins ({STAKE.ref})")
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
        notes.append(f"{thrower} beats the claim ({ANSWER.ref})")
        state, points = _round_over(state, state.leader, notes)
        return state, (_decision(state, thrower, notes, points),)
    if state.thrown >= state.throws:
        notes.append(f"{thrower} has not beaten the claim in {state.throws} throw(s) ({ANSWER.ref})")
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
        return _challenge(state, event)
    if isinstance(event, Stop) and state.phase is Phase.REPLY and event.player == state.opponent:
        state = replace(state, shot=state.shot + 1)
        notes = [f"{event.player} stops without beating the claim ({ANSWER.ref})"]
        state, points = _round_over(state, event.player, notes)
        return state, (_decision(state, event.player, notes, points),)
    raise common.not_now(GAME, event, _accepted(state))


def _challenge(state: State, call: Challenge) -> tuple[State, tuple[Decision, ...]]:
    """The leader shows the dice: a bluff loses the round for the leader, a true claim for the caller."""
    claim = state.claim
    if claim is None:  # Phase.ANSWER always holds a claim
        raise RuleError(f"{GAME}: there is no claim to challenge")
    state = replace(state, shot=state.shot + 1)
    shown = f"{state.leader} claimed {_describe(state, claim)} and shows {_describe(state, state.hand)}"
    if state.ranked(state.hand) >= state.ranked(claim):
        notes = [f"{shown}: no bluff ({CALL.ref})"]
        state, points = _round_over(state, call.player, notes)
    else:
        notes = [f"{shown}: a bluff ({CALL.ref})"]
        state, points = _round_over(state, state.leader, notes)
    return state, (_decision(state, call.player, notes, points),)


ENGINE = Engine(game=GAME, start=start, step=step)
