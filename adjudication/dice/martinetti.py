"""Martinetti, or Ohio: three dice, a token over the fields 1 to 12, overlooked numbers for the partners.

The rules this engine applies, its inputs, options and fouls, and where it departs from the rules text are on
the game's page, docs/games/martinetti.md; decisions cite its rules as "Martinetti rule N". ``score`` is
each token's field (0 before field 1), ``on`` the number the next thrower needs.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType

from adjudication import options
from adjudication.dice import common
from adjudication.dice.common import FoulRule, Rule
from adjudication.engine import Engine, RuleError
from arbiter.contract import Claim, Decision, FrozenMap, JsonLine, Match, Roll, Stop
from arbiter.games import dice

SPEC = dice("martinetti")
GAME = SPEC.id
NAME = "Martinetti"
DICE = 3
LAST_FIELD = 12

# The rules as docs/games/martinetti.md numbers them.
THREE_DICE = Rule(NAME, 1, "three dice, all thrown")
TWELVE = Rule(NAME, 2, "the first token to reach 12 wins")
NUMBERS = Rule(NAME, 3, "a throw makes the next numbers in sequence, each die serving one")
DICE_PASS = Rule(
    NAME, 4, "the thrower throws on while the throw advances; otherwise the dice pass to the left"
)
OVERLOOKED = Rule(NAME, 5, "a partner who needs an overlooked number may take it")


class Reason(StrEnum):
    OUT_OF_TURN = common.OUT_OF_TURN
    WRONG_DICE = common.WRONG_DICE
    DIE_NOT_THROWN = common.DIE_NOT_THROWN


FOULS: Mapping[Reason, FoulRule] = MappingProxyType(
    {
        Reason.OUT_OF_TURN: FoulRule(0, DICE_PASS),
        Reason.WRONG_DICE: FoulRule(0, THREE_DICE),
        Reason.DIE_NOT_THROWN: FoulRule(0, THREE_DICE),
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
    chosen = options.read_all(SPEC, match)
    options.check_players(SPEC, match)
    return State(
        players=match.players,
        fields=(0,) * len(match.players),
        auto=chosen["auto_advance"],
        turn=chosen["first"],
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
    notes.append(f"{partner} takes the overlooked {number} ({OVERLOOKED.ref})")
    if state.over:
        notes.append(f"{partner} reaches {LAST_FIELD} and wins ({TWELVE.ref})")
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
        notes = [f"{dice} cannot make {field + 1}: the dice pass to {state.turn} ({DICE_PASS.ref})"]
        return state, (*settled, _decision(state, thrower, notes))
    if state.auto:
        state = state.moved(thrower, reach)
        notes = [f"{dice} takes {thrower} from {field} to {reach} ({NUMBERS.ref}); {thrower} throws again"]
        if state.over:
            notes[-1] = f"{dice} takes {thrower} from {field} to {reach}: {thrower} wins ({TWELVE.ref})"
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
        f"{thrower} overlooked {number}: the dice pass to {state.turn}; a partner who needs it may claim it "
        f"({OVERLOOKED.ref})"
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
    notes = [f"{dice} takes {thrower} from {field} to {to} ({NUMBERS.ref})"]
    if state.over:
        notes.append(f"{thrower} reaches {LAST_FIELD} and wins ({TWELVE.ref})")
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
