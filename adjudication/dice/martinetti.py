"""Martinetti, or Ohio (seed 000 "Мартинетти или Огайо", line 62; rules-notes 7): three dice, fields 1 to 12.

Every player has a token that must pass the fields 1, 2, ..., 12 in order; the first to reach 12 wins. A
throw of three dice advances the token through the next numbers in sequence: each number is made by one die
or by the sum of several (three ones read as 1 + (1 + 1) make 1 and 2), each die serving one number, so one
throw can make up to three numbers (1, 2 and 3 at once). The player throws again while a throw advances the
token; a throw that cannot make the next number passes the dice to the left.

A player can overlook a number the throw makes ("проморгал"): then the dice pass, and any partner who needs
exactly that number may shout it and take it. If several shout at once, the one nearest the thrower to the
left has it.

Inputs:
- ``roll`` lines: three dice, all thrown, by the player on turn.
- ``{"type":"claim","player":"A","number":6}``: after a throw that can advance the thrower, the thrower says
  how far the token goes (the field reached, taking every number up to it). Short of the furthest field the
  throw allows, the thrower has overlooked the next number: the turn passes and that number is open.
- ``{"type":"stop","player":"A"}``: after such a throw, the thrower takes nothing (overlooks the next number)
  and passes the dice.
- ``{"type":"claim","player":"B","number":5}``: a partner takes the overlooked number ``5``, between the
  hand-over and the next throw. The partner must need exactly that number. The claim of the partner nearest
  the thrower (to the left) among those who need it is settled at once; another's waits for the next throw,
  since a nearer partner may still shout, and is settled then (the nearest claimant has it).

Options:
- ``auto_advance`` (bool, default false): move every thrower as far as the throw allows, with no claim lines
  and no overlooked numbers (a referee that plays perfectly for everyone).
- ``first`` (a player, default the first in the header): who throws first.

Decisions: one per legal roll, one per thrower's claim or stop, one per settled partner's claim (at the
next throw, before that throw's own decision). ``score`` is each token's field (0 before field 1),
``points`` the fields moved, ``on`` the number the next thrower needs, ``awaiting`` ``["claim", "stop"]``
while the thrower must say how far to move.

Readings where the text is silent: a thrower's claim beyond what the throw allows, or a partner's claim of
another number or by one who does not need it, raises ``RuleError`` (they are corrected, not penalised). A
partner takes the one overlooked number the text speaks of ("номер пропущенной комбинации") and keeps
their turn in the rotation. If a settled partner's claim ends the game at the next throw, that throw is not
played. The board is 1 to 12 as in the text (not the 1-12-1 of Centennial, rules-notes 7).

Fouls: a roll by a player not on turn (``out_of_turn``), one that shows other than three dice
(``wrong_dice``) or one in which a die lay still (``die_not_thrown``) is void: penalty 0, the same player
throws again. A roll by the thrower while a claim or stop is awaited raises ``RuleError``.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType

from adjudication.dice import common
from adjudication.dice.common import FoulRule
from adjudication.engine import Engine, RuleError
from arbiter.contract import Claim, Decision, FrozenMap, JsonLine, Match, Roll, Stop

GAME = "martinetti"
RULE = "seed 000 Мартинетти (l.62)"
DICE = 3
LAST_FIELD = 12
OPTIONS: Mapping[str, str] = MappingProxyType(
    {
        "auto_advance": "move every thrower as far as the throw allows, no claims (default false)",
        "first": "the player who throws first",
    }
)


class Reason(StrEnum):
    OUT_OF_TURN = common.OUT_OF_TURN
    WRONG_DICE = common.WRONG_DICE
    DIE_NOT_THROWN = common.DIE_NOT_THROWN


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.OUT_OF_TURN: FoulRule(0, RULE + ": the dice pass to the left"),
        Reason.WRONG_DICE: FoulRule(0, RULE + ": three dice are thrown"),
        Reason.DIE_NOT_THROWN: FoulRule(0, RULE + ": the three dice are thrown"),
    }
)


def makes(faces: Sequence[int], numbers: Sequence[int]) -> bool:
    """Whether the dice make every one of ``numbers``, each from its own dice (a die or a sum of dice)."""
    for groups in itertools.product(range(len(numbers) + 1), repeat=len(faces)):  # 0: die unused
        sums = [0] * len(numbers)
        for face, group in zip(faces, groups, strict=True):
            if group:
                sums[group - 1] += face
        if sums == list(numbers):
            return True
    return False


def furthest(field: int, faces: Sequence[int]) -> int:
    """The furthest field a throw takes a token on ``field`` to (``field`` itself: no move)."""
    for k in range(min(len(faces), LAST_FIELD - field), 0, -1):
        if makes(faces, range(field + 1, field + k + 1)):
            return field + k
    return field


@dataclass(frozen=True)
class Overlooked:
    """A number the thrower overlooked, open to partners until the next throw."""

    thrower: str
    number: int
    claimants: tuple[str, ...] = ()


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    fields: tuple[int, ...]  # by seat, header order; 0 = not yet on the board
    auto: bool
    turn: str
    reach: int | None = None  # the furthest field of a throw whose claim or stop is awaited
    faces: tuple[int, ...] = ()
    overlooked: Overlooked | None = None
    shot: int = 0
    over: bool = False
    winner: str | None = None

    @property
    def score(self) -> Mapping[str, int]:
        return FrozenMap(zip(self.players, self.fields, strict=True))

    def field(self, player: str) -> int:
        return self.fields[self.players.index(player)]

    def moved(self, player: str, to: int) -> State:
        fields = list(self.fields)
        fields[self.players.index(player)] = to
        state = replace(self, fields=tuple(fields))
        if to == LAST_FIELD:
            state = replace(state, over=True, winner=player)
        return state


def start(match: Match) -> State:
    common.check_options(GAME, match, OPTIONS)
    common.check_players(GAME, match, minimum=1)
    return State(
        players=match.players,
        fields=(0,) * len(match.players),
        auto=common.bool_option(GAME, match, "auto_advance", False),
        turn=common.player_option(GAME, match, "first"),
    )


def _decision(
    state: State, player: str, notes: list[str], points: Mapping[str, int] | None = None
) -> Decision:
    return Decision(
        shot=state.shot,
        player=player,
        points=points or {},
        score=state.score,
        next=None if state.over else state.turn,
        on=None if state.over else str(state.field(state.turn) + 1),
        over=state.over,
        winner=state.winner,
        awaiting=("claim", "stop") if state.reach is not None else (),
        notes=tuple(notes),
    )


def _foul(state: State, roll: Roll, reason: Reason, why: str) -> tuple[State, tuple[Decision, ...]]:
    return common.void_throw(
        state, roll, reason, FOULS[reason], why, next_player=state.turn, on=str(state.field(state.turn) + 1)
    )


def _take_overlooked(
    state: State, open_: Overlooked, partner: str, notes: list[str]
) -> tuple[State, Decision]:
    """``partner`` takes the overlooked number; the hand-over window closes."""
    number = open_.number
    state = replace(state.moved(partner, number), overlooked=None, shot=state.shot + 1)
    notes.append(f"{partner} takes the overlooked {number} ({RULE})")
    if state.over:
        notes.append(f"{partner} reaches {LAST_FIELD} and wins")
    return state, _decision(state, partner, notes, {partner: 1})


def _roll(state: State, roll: Roll) -> tuple[State, tuple[Decision, ...]]:
    if state.reach is not None and roll.player == state.turn:
        raise RuleError(
            f"{GAME}: {state.turn} must say how far the last throw moves the token (a claim of a field) "
            "or stop "
            "before throwing again"
        )
    problem = common.whole_throw_problem(roll, DICE, state.turn)
    if problem is not None:
        return _foul(state, roll, Reason(problem[0]), problem[1])
    settled: tuple[Decision, ...] = ()
    open_ = state.overlooked
    if open_ is not None and open_.claimants:  # the hand-over is past: the nearest claimant has it
        partner = common.nearest_to(state.players, open_.thrower, open_.claimants)
        notes = [f"claimed by {', '.join(open_.claimants)}; {partner} sits nearest to {open_.thrower}"]
        state, decision = _take_overlooked(state, open_, partner, notes)
        settled = (decision,)
        if state.over:
            return state, settled
    state = replace(state, overlooked=None)
    thrower = state.turn
    faces = common.faces(roll)
    field = state.field(thrower)
    reach = furthest(field, faces)
    state = replace(state, shot=state.shot + 1)
    dice = "-".join(map(str, faces))
    if reach == field:
        state = replace(state, turn=common.left_of(state.players, thrower))
        notes = [f"{dice} cannot make {field + 1}: the dice pass to {state.turn} ({RULE})"]
        return state, (*settled, _decision(state, thrower, notes))
    if state.auto:
        state = state.moved(thrower, reach)
        notes = [f"{dice} takes {thrower} from {field} to {reach} ({RULE}); {thrower} throws again"]
        if state.over:
            notes[-1] = f"{dice} takes {thrower} from {field} to {reach}: {thrower} wins"
        return state, (*settled, _decision(state, thrower, notes, {thrower: reach - field}))
    state = replace(state, reach=reach, faces=faces)
    notes = [f"{dice}: {thrower} can advance; awaiting {thrower}'s claim (the field moved to) or stop"]
    return state, (*settled, _decision(state, thrower, notes))


def _overlook(state: State, thrower: str, to: int, notes: list[str]) -> State:
    """The thrower stops short of the throw's reach: the turn passes and the next number is open."""
    number = to + 1
    state = replace(
        state, turn=common.left_of(state.players, thrower), overlooked=Overlooked(thrower, number)
    )
    notes.append(
        f"{thrower} overlooked {number}: the dice pass to {state.turn}; a partner who needs it may claim it"
    )
    return state


def _thrower_claim(state: State, reach: int, claim: Claim) -> tuple[State, tuple[Decision, ...]]:
    thrower, to = state.turn, claim.number
    field = state.field(thrower)
    dice = "-".join(map(str, state.faces))
    if to is None or not field < to <= reach:
        raise RuleError(
            f"{GAME}: {thrower} is on {field} and the throw {dice} reaches {reach}; a claim names a field "
            f"{field + 1}..{reach} (got {claim.number if to is not None else claim.hand})"
        )
    state = replace(state.moved(thrower, to), reach=None, faces=(), shot=state.shot + 1)
    notes = [f"{dice} takes {thrower} from {field} to {to} ({RULE})"]
    if state.over:
        notes.append(f"{thrower} reaches {LAST_FIELD} and wins")
    elif to == reach:
        notes.append(f"{thrower} throws again")
    else:
        state = _overlook(state, thrower, to, notes)
    return state, (_decision(state, thrower, notes, {thrower: to - field}),)


def _partner_claim(state: State, open_: Overlooked, claim: Claim) -> tuple[State, tuple[Decision, ...]]:
    partner = claim.player
    need = state.field(partner) + 1
    if claim.number != open_.number:
        raise RuleError(f"{GAME}: the overlooked number is {open_.number}; {partner} claimed {claim.number}")
    if need != open_.number:
        raise RuleError(f"{GAME}: {partner} needs {need}, not the overlooked {open_.number}; only a partner "
                        "who needs exactly that number may take it")  # fmt: skip
    if partner in open_.claimants:
        raise RuleError(f"{GAME}: {partner} has already claimed {open_.number}")
    eligible = [p for p in state.players if p != open_.thrower and state.field(p) + 1 == open_.number]
    if partner == common.nearest_to(state.players, open_.thrower, eligible):
        state, decision = _take_overlooked(state, open_, partner, [])
        return state, (decision,)
    return replace(state, overlooked=replace(open_, claimants=(*open_.claimants, partner))), ()


def step(state: State, event: JsonLine) -> tuple[State, tuple[Decision, ...]]:
    if state.over:
        raise common.game_over(GAME, event, state.winner)
    common.check_player(GAME, state.players, event)
    if isinstance(event, Roll):
        return _roll(state, event)
    awaiting = state.reach is not None
    if isinstance(event, Claim) and state.reach is not None and event.player == state.turn:
        return _thrower_claim(state, state.reach, event)
    if isinstance(event, Stop) and awaiting and event.player == state.turn:
        state = replace(state, reach=None, faces=(), shot=state.shot + 1)
        field = state.field(event.player)
        notes = [f"{event.player} takes nothing from the throw"]
        state = _overlook(state, event.player, field, notes)
        return state, (_decision(state, event.player, notes),)
    open_ = state.overlooked
    if isinstance(event, Claim) and not awaiting and open_ is not None and event.player != open_.thrower:
        return _partner_claim(state, open_, event)
    if awaiting:
        accepted = f"a claim (the field moved to) or a stop by {state.turn}"
    elif state.overlooked is not None:
        accepted = f"a roll by {state.turn}, or a partner's claim of the overlooked {state.overlooked.number}"
    else:
        accepted = f"a roll by {state.turn}"
    raise common.not_now(GAME, event, accepted)


ENGINE = Engine(game=GAME, start=start, step=step)
