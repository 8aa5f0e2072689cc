"""Liar (seed 000 "Лжец", line 30): five dice under a cup, claims that must rise, "Liar!" and its payments.

Every player starts with three stakes. The first player throws all five dice under the cup and claims a
combination, true or not. The neighbour to the left either calls "Лжец!" or accepts. On a call the cup is
lifted: if the dice hold the claim, the caller puts one stake in the centre; if not, the claimant puts one
in the centre and gives one to the caller. Either way the caller starts the next round with a fresh throw of
all five. On acceptance the cup passes to the neighbour, who throws again all the dice or some of them (the
rest stay as they lie) and must claim more than the claim accepted. A player with no stakes left is out; the
last player holding any wins, and takes the stakes in the centre.

Inputs:
- ``roll`` lines: five dice; a round's first throw moves all five, an accepting player's throw any of them.
- ``{"type":"claim","player":"A","hand":[3,3,3,2,2]}`` after each throw: the five faces claimed.
- ``{"type":"challenge","player":"B"}``: the left neighbour of the claimant calls "Лжец!". Acceptance needs no
  line: the neighbour's throw is it.

Options:
- ``stakes`` (int >= 1, default 3 from the text): stakes each player starts with.
- ``first`` (a player, default the first in the header): who throws first.

Decisions: one per legal roll (``awaiting: ["claim"]``) and one per challenge, which settles the stakes.
``score`` is the stakes each player holds; ``points`` the stakes won (+) or paid (-); the centre's stakes are
in the notes and ``State.pot``, and go to the winner in the last decision.

Combinations: the text refers to the list of the game General, which is not in the text; General's list is
that of poker dice with straights (the text's Indian dice section says so), so hands are ranked as in
``adjudication.dice.hands`` with straights: nothing, pair, two pairs, three of a kind, straight, full house,
four, five of a kind; equal combinations by the points of the combination, odd dice not counted.

Readings where the text is silent: a claim holds when the dice make a hand at least as good as the one
claimed (the usual rule of liar dice), so a claim can be "true" on better dice; a claim that does not beat the
claim accepted raises ``RuleError`` (the player claims again); a claimant who has only one stake left when
caught pays it to the centre (the first payment the text names) and the caller gets nothing; when the caller
is out after paying, the next player still in to the left starts the round.

Fouls: a roll by a player whose throw it is not (``out_of_turn``), one that shows other than five dice
(``wrong_dice``), a round's first throw that leaves a die lying (``die_not_thrown``) and a second throw
before the claim (``extra_throw``) are void: penalty 0 (the text names none), the claim is judged on the
legal throw, and the same player throws or claims. A challenge by anyone but the claimant's left neighbour,
a claim out of its moment, and any other line raise ``RuleError``.
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
from arbiter.contract import Challenge, Claim, Decision, FrozenMap, JsonLine, Match, Roll

GAME = "liar"
RULE = "seed 000 Лжец (l.30)"
DICE = 5
STRAIGHTS = True  # General's list counts straights (seed 000 "Индийские кости", l.59)
DEFAULT_STAKES = 3
OPTIONS: Mapping[str, str] = MappingProxyType(
    {
        "stakes": "stakes each player starts with, integer >= 1 (default 3)",
        "first": "the player who throws first",
    }
)


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
        Reason.OUT_OF_TURN: FoulRule(0, RULE + ": the cup passes to the left"),
        Reason.WRONG_DICE: FoulRule(0, RULE + ": five dice are used"),
        Reason.DIE_NOT_THROWN: FoulRule(0, RULE + ": a round starts with all five dice shaken"),
        Reason.EXTRA_THROW: FoulRule(0, RULE + ": one throw, then the claim"),
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
    common.check_options(GAME, match, OPTIONS)
    common.check_players(GAME, match, minimum=2)
    stakes = common.int_option(GAME, match, "stakes", DEFAULT_STAKES, minimum=1)
    return State(
        players=match.players,
        stakes=(stakes,) * len(match.players),
        turn=common.player_option(GAME, match, "first"),
    )


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
    claimant, caller, claim = state.claimant, call.player, state.claim
    if claimant is None or claim is None:  # Phase.ANSWER always has both
        raise RuleError(f"{GAME}: there is no claim to challenge")
    before = state.score
    stakes = dict(before)
    pot = state.pot
    holds = _ranked(state.hand) >= _ranked(claim)
    shown = f"{claimant} claimed {describe(claim)}; the cup shows {describe(state.hand)}"
    if holds:
        stakes[caller] -= 1
        pot += 1
        notes = [f"{shown}: the claim holds, {caller} puts a stake in the centre ({RULE})"]
    else:
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
        notes = [f"{shown}: a lie, {claimant} pays {' and '.join(paid)} ({RULE})"]
    for p in state.players:
        if stakes[p] == 0 and state.stakes[state.players.index(p)] > 0:
            notes.append(f"{p} has no stakes left and is out")
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
    standing = [p for p in state.players if p not in state.out]
    if len(standing) == 1:
        winner = standing[0]
        notes.append(f"{winner} is the last with stakes and takes the {state.pot} in the centre")
        stakes[winner] += state.pot
        state = replace(
            state, stakes=tuple(stakes[p] for p in state.players), pot=0, over=True, winner=winner
        )
    else:
        state = replace(state, turn=caller if caller in standing else state.left_of(caller))
        notes.append(f"{state.turn} starts the next round; the centre holds {state.pot}")
    points = {p: state.score[p] - before[p] for p in state.players if state.score[p] != before[p]}
    decision = Decision(
        shot=state.shot,
        player=caller,
        points=points,
        score=state.score,
        next=None if state.over else state.turn,
        over=state.over,
        winner=state.winner,
        notes=tuple(notes),
    )
    return state, (decision,)


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
