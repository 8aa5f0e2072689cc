"""Bank: punters bet on a face, the banker throws three dice, and each die showing the face pays.

The rules this engine applies, its inputs, options and fouls, and where it departs from the rules text are on
the game's page, docs/games/bank.md; decisions cite its rules as "Bank rule N". ``points`` is each player's
win or loss on a throw (the banker's the opposite of the punters' sum), ``score`` the balances.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType

from adjudication import options
from adjudication.dice import common
from adjudication.dice.common import FoulRule, Rule
from adjudication.engine import Engine, RuleError
from arbiter.contract import Bet, Decision, FrozenMap, JsonLine, Match, Roll
from arbiter.games import dice

SPEC = dice("bank")
GAME = SPEC.id
NAME = "Bank"
DICE = 3

# The rules as docs/games/bank.md numbers them.
BANKER_THROWS = Rule(NAME, 3, "the banker throws the three dice at once")
PAYS = Rule(NAME, 4, "each die showing the face pays the stake; none loses it")
MATCH = Rule(NAME, 5, "the best balance after the last throw wins")


class Reason(StrEnum):
    OUT_OF_TURN = common.OUT_OF_TURN
    WRONG_DICE = common.WRONG_DICE
    DIE_NOT_THROWN = common.DIE_NOT_THROWN


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.OUT_OF_TURN: FoulRule(0, BANKER_THROWS),
        Reason.WRONG_DICE: FoulRule(0, BANKER_THROWS),
        Reason.DIE_NOT_THROWN: FoulRule(0, BANKER_THROWS),
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
    chosen = options.read_all(SPEC, match)
    options.check_players(SPEC, match)
    return State(
        players=match.players,
        banker=chosen["banker"],
        balance=(0,) * len(match.players),
        rounds=chosen["rounds"],
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
        notes.append(f"{punter} on {bet.face}: {matches} of 3 show it, {verdict} ({PAYS.ref})")
    points[state.banker] = -sum(points.values())
    balance = tuple(b + points.get(p, 0) for p, b in zip(state.players, state.balance, strict=True))
    state = replace(state, balance=balance, bets=FrozenMap(), throws=state.throws + 1, shot=state.shot + 1)
    if state.rounds is not None and state.throws == state.rounds:
        best = max(balance)
        leaders = [p for p, b in zip(state.players, balance, strict=True) if b == best]
        state = replace(state, over=True, winner=leaders[0] if len(leaders) == 1 else None)
        notes.append(f"{state.rounds} throws played: {state.winner or 'a tie, no winner'} ({MATCH.ref})")
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
