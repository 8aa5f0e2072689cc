"""Bank (seed 000 "Банк на костях", line 149): punters bet on a face, three dice pay by matches.

A banker plays against one punter (the text's two players) or several (it also speaks of "понтеры"). Before
each throw every punter bets a stake on a face 1..6. Then the three dice are thrown at once. For each die
showing a punter's face the banker pays that punter the stake (one die: the stake, two: twice, three: three
times); if none shows it, the punter loses the stake to the banker.

Inputs, before each throw, one per punter:
- ``{"type":"bet","player":"B","face":4,"stake":2}`` (``stake`` defaults to 1).
Then one ``roll`` of three dice by the banker.

Options:
- ``banker`` (a player, default the first in the header): the banker; every other player is a punter.
- ``rounds`` (int >= 1, default none): throws in the match. Without it the match never ends on its own and
  ``score`` is the running balance; with it the best balance after the last throw wins (a tie: no winner).

Decisions: one per legal throw, settling every bet: ``points`` is each player's win (+) or loss (-), the
banker's being the opposite of the punters' sum; ``score`` the balances; ``next`` the banker, who throws
again once the bets are in (``awaiting: ["bet"]``).

Readings where the text is silent: the banker throws (the text's "бросаются" names nobody; in banking dice
games the house throws); every punter bets on every throw, one bet each; the text sets no end, hence
``rounds``.

Fouls: a roll by anyone but the banker (``out_of_turn``), a roll that shows other than three dice
(``wrong_dice``) or one in which a die lay still (``die_not_thrown``: the three are thrown at once) is void:
bets stand, nothing is paid, penalty 0, and the banker throws again. A roll before every punter has bet, a
second bet by a punter, a bet by the banker, or any other line raises ``RuleError``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType

from adjudication.dice import common
from adjudication.dice.common import FoulRule
from adjudication.engine import Engine, RuleError
from arbiter.contract import Bet, Decision, FrozenMap, JsonLine, Match, Roll

GAME = "bank"
RULE = "seed 000 Банк на костях (l.149)"
DICE = 3
OPTIONS: Mapping[str, str] = MappingProxyType(
    {
        "banker": "the banker (default the first player); the others are punters",
        "rounds": "throws in the match, integer >= 1 (default: no limit)",
    }
)


class Reason(StrEnum):
    OUT_OF_TURN = common.OUT_OF_TURN
    WRONG_DICE = common.WRONG_DICE
    DIE_NOT_THROWN = common.DIE_NOT_THROWN


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.OUT_OF_TURN: FoulRule(0, RULE + ": the banker throws"),
        Reason.WRONG_DICE: FoulRule(0, RULE + ": three dice are thrown"),
        Reason.DIE_NOT_THROWN: FoulRule(0, RULE + ": the three dice are thrown at once"),
    }
)


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    banker: str
    balance: tuple[int, ...]  # by seat, header order
    rounds: int | None
    bets: Mapping[str, Bet] = FrozenMap()
    throws: int = 0
    shot: int = 0
    over: bool = False
    winner: str | None = None

    @property
    def score(self) -> Mapping[str, int]:
        return FrozenMap(zip(self.players, self.balance, strict=True))

    @property
    def punters(self) -> tuple[str, ...]:
        return tuple(p for p in self.players if p != self.banker)

    def missing_bets(self) -> tuple[str, ...]:
        return tuple(p for p in self.punters if p not in self.bets)


def start(match: Match) -> State:
    common.check_options(GAME, match, OPTIONS)
    common.check_players(GAME, match, minimum=2)
    return State(
        players=match.players,
        banker=common.player_option(GAME, match, "banker"),
        balance=(0,) * len(match.players),
        rounds=common.optional_int_option(GAME, match, "rounds", minimum=1),
    )


def _foul(state: State, roll: Roll, reason: Reason, why: str) -> tuple[State, tuple[Decision, ...]]:
    return common.void_throw(
        state, roll, reason, FOULS[reason], why, next_player=state.banker, note="throw void, bets stand"
    )


def _bet(state: State, bet: Bet) -> State:
    if bet.player == state.banker:
        raise RuleError(f"{GAME}: {bet.player} is the banker; only punters ({', '.join(state.punters)}) bet")
    if bet.player in state.bets:
        have = state.bets[bet.player]
        raise RuleError(
            f"{GAME}: {bet.player} has already bet {have.stake} on {have.face} for this throw; one bet each"
        )
    return replace(state, bets=FrozenMap({**state.bets, bet.player: bet}))


def _throw(state: State, roll: Roll) -> tuple[State, tuple[Decision, ...]]:
    missing = state.missing_bets()
    if missing:
        raise RuleError(
            f"{GAME}: the dice are thrown once every punter has bet; waiting for {', '.join(missing)}"
        )
    problem = common.whole_throw_problem(roll, DICE, state.banker)
    if problem is not None:
        return _foul(state, roll, Reason(problem[0]), problem[1])
    faces = common.faces(roll)
    points: dict[str, int] = {}
    notes: list[str] = []
    for punter in state.punters:
        bet = state.bets[punter]
        matches = faces.count(bet.face)
        won = bet.stake * matches if matches else -bet.stake
        points[punter] = won
        verdict = f"wins {won}" if matches else f"loses {bet.stake}"
        notes.append(f"{punter} on {bet.face}: {matches} of 3 show it, {verdict} ({RULE})")
    points[state.banker] = -sum(points.values())
    balance = tuple(b + points.get(p, 0) for p, b in zip(state.players, state.balance, strict=True))
    state = replace(state, balance=balance, bets=FrozenMap(), throws=state.throws + 1, shot=state.shot + 1)
    if state.rounds is not None and state.throws == state.rounds:
        best = max(balance)
        leaders = [p for p, b in zip(state.players, balance, strict=True) if b == best]
        state = replace(state, over=True, winner=leaders[0] if len(leaders) == 1 else None)
        notes.append(f"{state.rounds} throws played: {state.winner or 'a tie, no winner'}")
    decision = Decision(
        shot=state.shot,
        player=roll.player,
        points={p: v for p, v in points.items() if v},
        score=state.score,
        next=None if state.over else state.banker,
        over=state.over,
        winner=state.winner,
        awaiting=() if state.over else ("bet",),
        notes=tuple(notes),
    )
    return state, (decision,)


def step(state: State, event: JsonLine) -> tuple[State, tuple[Decision, ...]]:
    if state.over:
        raise common.game_over(GAME, event, state.winner)
    common.check_player(GAME, state.players, event)
    if isinstance(event, Bet):
        return _bet(state, event), ()
    if isinstance(event, Roll):
        return _throw(state, event)
    missing = state.missing_bets()
    accepted = (
        f"bets by {', '.join(missing)}"
        if missing
        else f"bank takes bet and roll lines; a roll by {state.banker}"
    )
    raise common.not_now(GAME, event, accepted)


ENGINE = Engine(game=GAME, start=start, step=step)
