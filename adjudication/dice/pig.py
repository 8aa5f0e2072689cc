"""Pig (seed 000 "Свинья", line 64): one die, first to 100, a 1 wipes out the turn.

On a turn the player throws the die as often as they like, adding each face to the turn's total. A 1 loses
the turn's total and ends the turn. The player may stop at any time: the turn's total is banked and the die
passes to the left. Every player has the same number of turns ("все игроки имеют право на одинаковое
количество серий бросков"): once a player has banked the target, the round is played out to its end, and
then the highest score wins.

Inputs:
- ``roll`` lines: one die, thrown by the player on turn.
- ``{"type":"stop","player":"A"}``: the player on turn banks the turn's total (after at least one throw).

Options:
- ``target`` (int >= 1, default 100 from the text): the score that ends the game at the end of its round.
- ``first`` (a player, default the first in the header): who throws first. The text settles the order by one
  throw each (the lowest starts); that draw happens before the stream and its result is given here, as in
  every dice engine here.

Decisions: one per roll and one per stop. ``score`` is the banked score; ``points`` is what a stop banked
(a roll banks nothing: the turn's total is in the notes and in ``State.turn_total``).

Departures and readings (the text is silent):
- A tie for the lead at the end of the deciding round is played off: the tied players play further rounds
  among themselves, one turn each in turn order, until one leads at the end of a round.
- A stop before the turn's first throw raises ``RuleError``: it banks nothing and is not a turn.

Fouls: a roll by a player not on turn (``out_of_turn``) or a roll that shows other than one die
(``wrong_dice``) is void: nothing changes, penalty 0 (the text names none), the same player is on turn.
Lines of any other type raise ``RuleError``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType

from adjudication.dice import common
from adjudication.dice.common import FoulRule
from adjudication.engine import Engine, RuleError
from arbiter.contract import Decision, FrozenMap, JsonLine, Match, Roll, Stop

GAME = "pig"
RULE = "seed 000 Свинья (l.64)"
DICE = 1
ONE = 1  # the face that loses the turn
DEFAULT_TARGET = 100
OPTIONS: Mapping[str, str] = MappingProxyType(
    {"target": "score that ends the game, integer >= 1 (default 100)", "first": "the player who throws first"}
)


class Reason(StrEnum):
    OUT_OF_TURN = common.OUT_OF_TURN
    WRONG_DICE = common.WRONG_DICE


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.OUT_OF_TURN: FoulRule(0, RULE + ": players throw in turn"),
        Reason.WRONG_DICE: FoulRule(0, RULE + ": one die is used"),
    }
)


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    banked: tuple[int, ...]  # by seat, header order
    target: int
    playing: tuple[str, ...]  # who takes turns this round, in turn order (all, or the tied leaders)
    turn: int = 0  # index into ``playing``
    turn_total: int = 0
    throws_this_turn: int = 0
    closing: bool = False  # someone has banked the target: this round is the last (or a play-off)
    shot: int = 0
    over: bool = False
    winner: str | None = None

    @property
    def score(self) -> Mapping[str, int]:
        return FrozenMap(zip(self.players, self.banked, strict=True))

    @property
    def on_turn(self) -> str | None:
        return None if self.over else self.playing[self.turn]


def start(match: Match) -> State:
    common.check_options(GAME, match, OPTIONS)
    common.check_players(GAME, match, minimum=1)
    target = common.int_option(GAME, match, "target", DEFAULT_TARGET, minimum=1)
    first = common.player_option(GAME, match, "first")
    return State(
        players=match.players,
        banked=(0,) * len(match.players),
        target=target,
        playing=common.rotated(match.players, first),
    )


def _decision(
    state: State, player: str, notes: list[str], points: Mapping[str, int] | None = None
) -> Decision:
    return common.turn_decision(state, player, notes, points or {})


def _foul(state: State, roll: Roll, reason: Reason, why: str) -> tuple[State, tuple[Decision, ...]]:
    return common.void_throw(state, roll, reason, FOULS[reason], why, next_player=state.on_turn)


def _end_turn(state: State, notes: list[str]) -> State:
    """Pass the die on; at the end of a closing round, finish the game or play off a tie."""
    state = replace(state, turn=(state.turn + 1) % len(state.playing), turn_total=0, throws_this_turn=0)
    if not state.closing or state.turn != 0:
        return state
    score = state.score
    top = max(score[p] for p in state.playing)
    leaders = tuple(p for p in state.playing if score[p] == top)
    if len(leaders) == 1:
        notes.append(f"round complete: {leaders[0]} wins with {top} ({RULE}: equal turns for all)")
        return replace(state, over=True, winner=leaders[0])
    notes.append(f"round complete: {', '.join(leaders)} tie on {top}; they play another round")
    return replace(state, playing=leaders, turn=0)


def step(state: State, event: JsonLine) -> tuple[State, tuple[Decision, ...]]:
    if state.over:
        raise common.game_over(GAME, event, state.winner)
    common.check_player(GAME, state.players, event)
    player = state.playing[state.turn]
    if isinstance(event, Roll):
        why = common.wrong_thrower(event, player)
        if why:
            return _foul(state, event, Reason.OUT_OF_TURN, why)
        why = common.wrong_count(event, DICE)
        if why:
            return _foul(state, event, Reason.WRONG_DICE, why)
        face = event.dice[0].value
        state = replace(state, shot=state.shot + 1, throws_this_turn=state.throws_this_turn + 1)
        if face == ONE:
            notes = [f"1 thrown: the turn's {state.turn_total} points are lost ({RULE})"]
            state = _end_turn(state, notes)
            return state, (_decision(state, player, notes),)
        state = replace(state, turn_total=state.turn_total + face)
        notes = [f"{face}: turn total {state.turn_total}, throw again or stop"]
        return state, (_decision(state, player, notes),)
    if isinstance(event, Stop):
        if event.player != player:
            raise RuleError(f"{GAME}: {event.player} cannot stop: it is {player}'s turn")
        if state.throws_this_turn == 0:
            raise RuleError(
                f"{GAME}: {player} has not thrown this turn; stop banks a turn's total after a throw"
            )
        seat = state.players.index(player)
        banked = list(state.banked)
        banked[seat] += state.turn_total
        gained = state.turn_total
        state = replace(state, banked=tuple(banked), shot=state.shot + 1)
        notes = [f"{player} banks {gained} ({RULE})"]
        if banked[seat] >= state.target and not state.closing:
            state = replace(state, closing=True)
            notes.append(f"{player} reaches {state.target}: the round is played out")
        state = _end_turn(state, notes)
        return state, (_decision(state, player, notes, {player: gained}),)
    raise common.not_now(GAME, event, f"a roll or a stop by {player}")


ENGINE = Engine(game=GAME, start=start, step=step)
