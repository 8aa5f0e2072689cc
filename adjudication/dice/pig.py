"""Pig: one die, first to 100, a one wipes out the turn.

The rules this engine applies, its inputs, options and fouls, and where it departs from the rules text are on
the game's page, docs/games/pig.md; decisions cite its rules as "Pig rule N". A roll banks nothing (the
turn's total is in the notes and ``State.turn_total``); a stop's ``points`` is what it banked.
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
from arbiter.contract import Decision, FrozenMap, JsonLine, Match, Roll, Stop
from arbiter.games import dice

SPEC = dice("pig")
GAME = SPEC.id
NAME = "Pig"
DICE = 1
ONE = 1  # the face that loses the turn

# The rules as docs/games/pig.md numbers them.
ONE_DIE = Rule(NAME, 1, "one die is used")
IN_TURN = Rule(NAME, 2, "players throw in turn, passing to the left")
ONE_LOSES = Rule(NAME, 4, "a one loses the turn's total and ends the turn")
STOP_BANKS = Rule(NAME, 5, "a stop banks the turn's total")
EQUAL_TURNS = Rule(NAME, 6, "the round is played out: every player has the same number of turns")
PLAY_OFF = Rule(NAME, 7, "players tied for the lead play further rounds")


class Reason(StrEnum):
    OUT_OF_TURN = common.OUT_OF_TURN
    WRONG_DICE = common.WRONG_DICE


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.OUT_OF_TURN: FoulRule(0, IN_TURN),
        Reason.WRONG_DICE: FoulRule(0, ONE_DIE),
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
    chosen = options.read_all(SPEC, match)
    options.check_players(SPEC, match)
    return State(
        players=match.players,
        banked=(0,) * len(match.players),
        target=chosen["target"],
        playing=common.rotated(match.players, chosen["first"]),
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
        notes.append(f"round complete: {leaders[0]} wins with {top} ({EQUAL_TURNS.ref})")
        return replace(state, over=True, winner=leaders[0])
    tied = ", ".join(leaders)
    notes.append(f"round complete: {tied} tie on {top}; they play another round ({PLAY_OFF.ref})")
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
            notes = [f"1 thrown: the turn's {state.turn_total} points are lost ({ONE_LOSES.ref})"]
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
        notes = [f"{player} banks {gained} ({STOP_BANKS.ref})"]
        if banked[seat] >= state.target and not state.closing:
            state = replace(state, closing=True)
            notes.append(f"{player} reaches {state.target}: the round is played out ({EQUAL_TURNS.ref})")
        state = _end_turn(state, notes)
        return state, (_decision(state, player, notes, {player: gained}),)
    raise common.not_now(GAME, event, f"a roll or a stop by {player}")


ENGINE = Engine(game=GAME, start=start, step=step)
