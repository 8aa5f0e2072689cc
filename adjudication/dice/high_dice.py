"""High dice (seed 000 "Хай Дайс", line 147): a banker and a punter, two dice each, the punter must beat it.

Each round the banker throws two dice first; then the punter throws two. A punter's total above the banker's
wins one stake from the banker; anything else (a tie included: "не удалось обыграть") pays the banker one
stake. By agreement the punter may have one or two extra throws: before each the punter "borrows" one more
stake from the banker, and a punter who fails on every throw made pays one stake per throw (two after two
throws, three after three).

Inputs:
- ``roll`` lines: two dice, both thrown; the banker's, then the punter's (and the punter's extra throws).
- ``{"type":"stop","player":"P"}``: after a failed throw with an extra throw still allowed, the punter takes
  no more and pays for the throws made.

Options:
- ``banker`` (a player, default the first in the header); the other player is the punter.
- ``extra_throws`` (int 0..2, default 0): extra throws the punter may take after a failed one (the text's
  "один или два дополнительных броска").
- ``stake`` (int >= 1, default 1): the units of one stake ("величину выплачиваемых ставок").
- ``rounds`` (int >= 1, default none): rounds in the match; without it the match never ends on its own.
  With it, the better balance after the last round wins (equal balances: no winner).

Decisions: one per legal throw and one per stop. ``points`` is what changed hands, ``score`` the balances.
The banker's throw and a failed punter throw with an extra throw left carry no points (the notes say what is
to beat and that an extra throw is open).

Reading where the text is silent: a punter who beats the banker on an extra throw wins one stake (the
borrowed stakes are given back), so extra throws favour the punter. This is what the text's last sentence
says of the three-throw game (the banker "не имеет шанса отыграться"); had a late win cost the borrowed
stakes, the banker would gain from them instead.

Fouls: a roll by the player whose throw it is not (``out_of_turn``), one that shows other than two dice
(``wrong_dice``) or one in which a die lay still (``die_not_thrown``) is void: penalty 0, the same player
throws again. A stop at any other moment, or any other line, raises ``RuleError``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType

from adjudication.dice import common
from adjudication.dice.common import FoulRule
from adjudication.engine import Engine
from arbiter.contract import Decision, FrozenMap, JsonLine, Match, Roll, Stop

GAME = "high-dice"
RULE = "seed 000 Хай Дайс (l.147)"
DICE = 2
MAX_EXTRA = 2
OPTIONS: Mapping[str, str] = MappingProxyType(
    {
        "banker": "the banker (default the first player); the other is the punter",
        "extra_throws": "extra throws the punter may take, integer 0..2 (default 0)",
        "stake": "units of one stake, integer >= 1 (default 1)",
        "rounds": "rounds in the match, integer >= 1 (default: no limit)",
    }
)


class Reason(StrEnum):
    OUT_OF_TURN = common.OUT_OF_TURN
    WRONG_DICE = common.WRONG_DICE
    DIE_NOT_THROWN = common.DIE_NOT_THROWN


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.OUT_OF_TURN: FoulRule(0, RULE + ": the banker throws first, then the punter"),
        Reason.WRONG_DICE: FoulRule(0, RULE + ": each throw is of two dice"),
        Reason.DIE_NOT_THROWN: FoulRule(0, RULE + ": both dice are thrown"),
    }
)


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    banker: str
    punter: str
    balance: tuple[int, ...]  # by seat, header order
    extra_throws: int
    stake: int
    rounds: int | None
    mark: int | None = None  # the banker's total this round; None: the banker is to throw
    punter_throws: int = 0  # throws the punter has made this round
    rounds_played: int = 0
    shot: int = 0
    over: bool = False
    winner: str | None = None

    @property
    def score(self) -> Mapping[str, int]:
        return FrozenMap(zip(self.players, self.balance, strict=True))

    @property
    def thrower(self) -> str:
        return self.banker if self.mark is None else self.punter


def start(match: Match) -> State:
    common.check_options(GAME, match, OPTIONS)
    common.check_players(GAME, match, minimum=2, maximum=2)
    banker = common.player_option(GAME, match, "banker")
    return State(
        players=match.players,
        banker=banker,
        punter=next(p for p in match.players if p != banker),
        balance=(0, 0),
        extra_throws=common.int_option(GAME, match, "extra_throws", 0, minimum=0, maximum=MAX_EXTRA),
        stake=common.int_option(GAME, match, "stake", 1, minimum=1),
        rounds=common.optional_int_option(GAME, match, "rounds", minimum=1),
    )


def _decision(state: State, player: str, notes: list[str], points: Mapping[str, int]) -> Decision:
    return Decision(
        shot=state.shot,
        player=player,
        points=points,
        score=state.score,
        next=None if state.over else state.thrower,
        over=state.over,
        winner=state.winner,
        notes=tuple(notes),
    )


def _foul(state: State, roll: Roll, reason: Reason, why: str) -> tuple[State, tuple[Decision, ...]]:
    return common.void_throw(state, roll, reason, FOULS[reason], why, next_player=state.thrower)


def _settle(state: State, punter_wins: int, notes: list[str]) -> tuple[State, dict[str, int]]:
    """Pay ``punter_wins`` units to the punter (negative: to the banker) and end the round."""
    points = {state.punter: punter_wins, state.banker: -punter_wins}
    balance = tuple(b + points[p] for p, b in zip(state.players, state.balance, strict=True))
    state = replace(state, balance=balance, mark=None, punter_throws=0, rounds_played=state.rounds_played + 1)
    if state.rounds is not None and state.rounds_played == state.rounds:
        best = max(balance)
        leaders = [p for p, b in zip(state.players, balance, strict=True) if b == best]
        state = replace(state, over=True, winner=leaders[0] if len(leaders) == 1 else None)
        notes.append(f"{state.rounds} rounds played: {state.winner or 'a tie, no winner'}")
    return state, points


def _punter_loses(state: State, notes: list[str]) -> tuple[State, dict[str, int]]:
    owed = state.stake * state.punter_throws
    notes.append(f"{state.punter} fails on {state.punter_throws} throw(s) and pays {owed} ({RULE})")
    return _settle(state, -owed, notes)


def step(state: State, event: JsonLine) -> tuple[State, tuple[Decision, ...]]:
    if state.over:
        raise common.game_over(GAME, event, state.winner)
    common.check_player(GAME, state.players, event)
    if isinstance(event, Stop):
        if event.player != state.punter or state.punter_throws == 0:
            raise common.not_now(
                GAME,
                event,
                f"a stop by the punter {state.punter} after a failed throw with an extra throw left",
            )
        state = replace(state, shot=state.shot + 1)
        notes = [f"{state.punter} takes no extra throw"]
        state, points = _punter_loses(state, notes)
        return state, (_decision(state, event.player, notes, points),)
    if not isinstance(event, Roll):
        raise common.not_now(GAME, event, f"a roll by {state.thrower}")
    problem = common.whole_throw_problem(event, DICE, state.thrower)
    if problem is not None:
        return _foul(state, event, Reason(problem[0]), problem[1])
    total = sum(common.faces(event))
    state = replace(state, shot=state.shot + 1)
    points: dict[str, int] = {}
    if state.mark is None:
        state = replace(state, mark=total)
        notes = [f"banker throws {total}: {state.punter} must throw more than {total} ({RULE})"]
    elif total > state.mark:
        notes = [f"{total} beats the banker's {state.mark}: the banker pays one stake ({RULE})"]
        state, points = _settle(state, state.stake, notes)
    else:
        state = replace(state, punter_throws=state.punter_throws + 1)
        notes = [f"{total} does not beat the banker's {state.mark}"]
        if state.punter_throws <= state.extra_throws:
            notes.append(
                f"extra throw {state.punter_throws} of {state.extra_throws} open: throw again on a borrowed "
                "stake, or stop"
            )
        else:
            state, points = _punter_loses(state, notes)
    return state, (_decision(state, event.player, notes, points),)


ENGINE = Engine(game=GAME, start=start, step=step)
