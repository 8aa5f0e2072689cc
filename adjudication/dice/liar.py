"""Liar dice: five dice under a cup, claims that must rise, "Liar!" and its payments.

The rules this engine applies, its inputs, options and fouls, and where it departs from the rules text are on
the game's page, docs/games/liar.md; decisions cite its rules as "Liar dice rule N". ``score`` is the stakes
each player holds; the centre's stakes are in ``State.pot`` and go to the winner in the last decision.
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
from arbiter.contract import Challenge, Claim, Decision, FrozenMap, JsonLine, Match, Roll
from arbiter.games import dice

SPEC = dice("liar")
GAME = SPEC.id
NAME = "Liar dice"
DICE = 5
STRAIGHTS = True  # General's list counts straights (rule 7)

# The rules as docs/games/liar.md numbers them.
FIVE_DICE = Rule(NAME, 1, "five dice are used")
ROUND_OPENS = Rule(NAME, 2, "a round starts with all five dice shaken")
THEN_CLAIM = Rule(NAME, 3, "one throw, then the claim")
TO_THE_LEFT = Rule(NAME, 4, "the left neighbour answers the claim; play passes to the left")
CALL_SETTLES = Rule(NAME, 5, "a call lifts the cup: the loser of the call pays")
OUT = Rule(NAME, 8, "a player with no stakes is out; the last with stakes wins the centre")


class Payee(StrEnum):
    CENTRE = "centre"
    CALLER = "caller"


# What a caught claimant pays, one stake each, in the text's order: to the centre, then to the caller.
CAUGHT_PAYS: tuple[Payee, ...] = (Payee.CENTRE, Payee.CALLER)


class Reason(StrEnum):
    OUT_OF_TURN = common.OUT_OF_TURN
    WRONG_DICE = common.WRONG_DICE
    DIE_NOT_THROWN = common.DIE_NOT_THROWN
    EXTRA_THROW = common.EXTRA_THROW


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.OUT_OF_TURN: FoulRule(0, TO_THE_LEFT),
        Reason.WRONG_DICE: FoulRule(0, FIVE_DICE),
        Reason.DIE_NOT_THROWN: FoulRule(0, ROUND_OPENS),
        Reason.EXTRA_THROW: FoulRule(0, THEN_CLAIM),
    }
)


class Phase(StrEnum):
    OPEN = "open"  # ``turn`` starts a round: throws all five
    CLAIM = "claim"  # ``turn`` has thrown and must claim
    ANSWER = "answer"  # ``turn`` (the claimant's left neighbour) challenges or throws


def describe(hand: tuple[int, ...]) -> str:
    return f"{rank_hand(hand, straights=STRAIGHTS).describe()} [{''.join(map(str, sorted(hand)))}]"


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    stakes: tuple[int, ...]  # by seat, header order
    turn: str
    phase: Phase = Phase.OPEN
    pot: int = 0
    hand: tuple[int, ...] = ()  # the dice under the cup after the last legal throw
    claim: tuple[int, ...] | None = None  # the standing claim this round
    claimant: str | None = None
    shot: int = 0
    over: bool = False
    winner: str | None = None

    @property
    def score(self) -> Mapping[str, int]:
        return FrozenMap(zip(self.players, self.stakes, strict=True))

    @property
    def out(self) -> frozenset[str]:
        return frozenset(p for p, s in zip(self.players, self.stakes, strict=True) if s == 0)

    def left_of(self, player: str) -> str:
        return common.left_of(self.players, player, out=self.out)


def start(match: Match) -> State:
    chosen = options.read_all(SPEC, match)
    options.check_players(SPEC, match)
    return State(players=match.players, stakes=(chosen["stakes"],) * len(match.players), turn=chosen["first"])


def _ranked(hand: tuple[int, ...]) -> Ranked:
    return rank_hand(hand, straights=STRAIGHTS)


def _foul(state: State, roll: Roll, reason: Reason, why: str) -> tuple[State, tuple[Decision, ...]]:
    return common.void_throw(
        state,
        roll,
        reason,
        FOULS[reason],
        why,
        next_player=state.turn,
        awaiting=("claim",) if state.phase is Phase.CLAIM else (),
    )


def _roll(state: State, roll: Roll) -> tuple[State, tuple[Decision, ...]]:
    checks = [
        (Reason.OUT_OF_TURN, common.wrong_thrower(roll, state.turn)),
        (
            Reason.EXTRA_THROW,
            f"{state.turn} has thrown and claims next" if state.phase is Phase.CLAIM else None,
        ),
        (Reason.WRONG_DICE, common.wrong_count(roll, DICE)),
    ]
    if state.phase is Phase.OPEN:
        checks.append((Reason.DIE_NOT_THROWN, common.not_all_thrown(roll)))
    problem = common.first_problem(checks)
    if problem is not None:
        return _foul(state, roll, *problem)
    accepting = state.phase is Phase.ANSWER
    state = replace(state, phase=Phase.CLAIM, hand=common.faces(roll), shot=state.shot + 1)
    if accepting:
        note = (
            f"{roll.player} accepts {state.claimant}'s claim and throws {len(roll.thrown)} dice; "
            "a higher claim is due"
        )
    else:
        note = f"{roll.player} throws all five under the cup; a claim is due"
    decision = Decision(
        shot=state.shot,
        player=roll.player,
        score=state.score,
        next=state.turn,
        awaiting=("claim",),
        notes=(note,),
    )
    return state, (decision,)


def _claim(state: State, claim: Claim) -> State:
    if state.phase is not Phase.CLAIM or claim.player != state.turn:
        raise common.not_now(GAME, claim, _accepted(state))
    if claim.hand is None:
        raise RuleError(f"{GAME}: a claim names the five faces claimed, as hand (got number {claim.number})")
    if state.claim is not None and _ranked(claim.hand) <= _ranked(state.claim):
        raise RuleError(
            f"{GAME}: each claim must beat the one accepted: {state.claimant} claimed "
            f"{describe(state.claim)}, {claim.player} claims {describe(claim.hand)}; "
            f"{claim.player} claims again"
        )
    return replace(
        state, claim=claim.hand, claimant=claim.player, phase=Phase.ANSWER, turn=state.left_of(claim.player)
    )


def _challenge(state: State, call: Challenge) -> tuple[State, tuple[Decision, ...]]:
    if state.phase is not Phase.ANSWER or call.player != state.turn:
        raise common.not_now(GAME, call, _accepted(state))
    claimant, claim = state.claimant, state.claim
    if claimant is None or claim is None:  # Phase.ANSWER always has both
        raise RuleError(f"{GAME}: there is no claim to challenge")
    before = state.score
    stakes, pot, notes = _pay(state, claimant, call.player, claim)
    for p in state.players:
        if stakes[p] == 0 and before[p] > 0:
            notes.append(f"{p} has no stakes left and is out ({OUT.ref})")
    state = replace(
        state,
        stakes=tuple(stakes[p] for p in state.players),
        pot=pot,
        claim=None,
        claimant=None,
        hand=(),
        phase=Phase.OPEN,
        shot=state.shot + 1,
    )
    state = _next_round(state, call.player, notes)
    points = {p: state.score[p] - before[p] for p in state.players if state.score[p] != before[p]}
    decision = Decision(
        shot=state.shot,
        player=call.player,
        points=points,
        score=state.score,
        next=None if state.over else state.turn,
        over=state.over,
        winner=state.winner,
        notes=tuple(notes),
    )
    return state, (decision,)


def _pay(
    state: State, claimant: str, caller: str, claim: tuple[int, ...]
) -> tuple[dict[str, int], int, list[str]]:
    """The cup is lifted: the stakes and the centre after the loser of the call has paid, and a note."""
    stakes, pot = dict(state.score), state.pot
    shown = f"{claimant} claimed {describe(claim)}; the cup shows {describe(state.hand)}"
    if _ranked(state.hand) >= _ranked(claim):
        stakes[caller] -= 1
        return (
            stakes,
            pot + 1,
            [f"{shown}: the claim holds, {caller} puts a stake in the centre ({CALL_SETTLES.ref})"],
        )
    paid = []
    for to in CAUGHT_PAYS:
        if stakes[claimant] == 0:
            break
        stakes[claimant] -= 1
        if to is Payee.CENTRE:
            pot += 1
            paid.append("one to the centre")
        else:
            stakes[caller] += 1
            paid.append(f"one to {caller}")
    return stakes, pot, [f"{shown}: a lie, {claimant} pays {' and '.join(paid)} ({CALL_SETTLES.ref})"]


def _next_round(state: State, caller: str, notes: list[str]) -> State:
    """After a call: the last player with stakes takes the centre and wins, or the caller (or the next player
    still in, to the left) starts the next round."""
    standing = [p for p in state.players if p not in state.out]
    if len(standing) == 1:
        winner = standing[0]
        notes.append(f"{winner} is the last with stakes and takes the {state.pot} in the centre ({OUT.ref})")
        stakes = tuple(
            s + state.pot if p == winner else s for p, s in zip(state.players, state.stakes, strict=True)
        )
        return replace(state, stakes=stakes, pot=0, over=True, winner=winner)
    state = replace(state, turn=caller if caller in standing else state.left_of(caller))
    notes.append(f"{state.turn} starts the next round; the centre holds {state.pot}")
    return state


def _accepted(state: State) -> str:
    if state.phase is Phase.OPEN:
        return f"a roll of all five dice by {state.turn}"
    if state.phase is Phase.CLAIM:
        return f"a claim by {state.turn}"
    return f"a challenge or a roll by {state.turn}, left of the claimant {state.claimant}"


def step(state: State, event: JsonLine) -> tuple[State, tuple[Decision, ...]]:
    if state.over:
        raise common.game_over(GAME, event, state.winner)
    common.check_player(GAME, state.players, event)
    if isinstance(event, Roll):
        return _roll(state, event)
    if isinstance(event, Claim):
        return _claim(state, event), ()
    if isinstance(event, Challenge):
        return _challenge(state, event)
    raise common.not_now(GAME, event, _accepted(state))


ENGINE = Engine(game=GAME, start=start, step=step)
