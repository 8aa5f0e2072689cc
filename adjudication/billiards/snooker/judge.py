"""Judging one snooker stroke from its camera lines: what was on, the fouls and their values, the points.

The first step of a stroke's decision (``stroke.decide`` takes it on): which ball or balls were on (a
nominated colour, a free ball, the reds), what the white hit first and what dropped, and from those the fouls
(WPBSA 3.11) or, on a fair stroke, the points (WPBSA 3.3, 3.12). What the table looks like afterwards is
``table``'s business.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from adjudication.billiards import geometry
from adjudication.billiards.shot import Shot
from adjudication.billiards.snooker.fouls import Found, Reason, penalty
from adjudication.billiards.snooker.rules import (
    COLOUR,
    COLOURS,
    ORDER,
    PUSH_TOLERANCE_MM,
    RED,
    RULE_FREE_BALL,
    RULE_POT,
    RULE_TOUCHING,
    VALUES,
    WHITE,
    kind,
    value,
)
from adjudication.billiards.snooker.state import State, Table


@dataclass(frozen=True)
class Stroke:
    """What a stroke did, before the table and turn are worked out."""

    fouls: tuple[Found, ...]
    points: int
    notes: tuple[str, ...]
    on_balls: frozenset[str]  # the ball(s) that were on (for the snooker and miss checks)
    free: str | None


@dataclass(frozen=True)
class BallOn:
    """What the stroke had to hit first: ``targets``, with ``partners`` that may go with a free ball (the
    reds, or the ball on), worth ``value``; the free ball, the named colour or the colour deemed nominated."""

    targets: frozenset[str]
    partners: frozenset[str]
    value: int
    free: str | None
    named: str | None
    deemed: str | None

    def worth(self, ball: str) -> int:
        """A ball's value in a penalty: a free ball counts as the ball on (WPBSA 3.12)."""
        return self.value if ball == self.free else value(ball)


def judge(state: State, shot: Shot, potted: tuple[str, ...], off: tuple[str, ...]) -> Stroke:
    """The fouls of a stroke (highest first is not decided here) or, if none, its points and notes."""
    table = state.table
    gone = set(potted) | set(off)
    cue = shot.striker_ball
    first = shot.first_contacts(WHITE) if cue == WHITE else ()
    pushed = tuple(b for b in table.touching if cue == WHITE and moved(b, table, shot, gone))
    on = ball_on(state, first, pushed)
    found, notes = _contact_fouls(table, on, cue, first, pushed)
    found += _pot_fouls(table.on, on, potted, off)
    if found and table.on == COLOUR and state.nomination is None:
        found.insert(0, Found(Reason.NO_NOMINATION, 7, "no colour was nominated"))
    points = 0
    if not found:
        points, scored = _points(table.on, on, [b for b in potted if b != WHITE])
        notes += scored
    on_balls = on.targets if on.free is None else frozenset({on.free})
    return Stroke(tuple(found), points, tuple(notes), on_balls, on.free)


def ball_on(state: State, first: Sequence[str], pushed: Sequence[str]) -> BallOn:
    """The ball(s) on for this stroke. With a colour on after a red and no ``declare``, the colour the white
    hits first (or rests against, if it hits nothing) is deemed nominated, as a referee deems an obvious
    nomination; undeclared, any foul is the 7-point one."""
    table, nom = state.table, state.nomination
    on = table.on
    free = nom.ball if nom is not None and nom.free_ball else None
    named = nom.ball if nom is not None and not nom.free_ball else None
    reds = frozenset(b for b in table.balls if kind(b) == RED)
    deemed = None
    if on == COLOUR and named is None:
        resting = [b for b in table.touching if b in COLOURS and b not in pushed]
        if len(first) == 1 and first[0] in COLOURS:
            deemed = first[0]
        elif not first and resting:
            deemed = resting[0]
    if free is not None:
        partners = reds if on == RED else frozenset({on})
        return BallOn(frozenset({free}), partners, 1 if on == RED else VALUES[on], free, named, deemed)
    if on == RED:
        return BallOn(reds, frozenset(), 1, None, named, deemed)
    if on == COLOUR:
        choice = named or deemed
        targets = frozenset({choice}) if choice else frozenset(c for c in COLOURS if c in table.balls)
        return BallOn(targets, frozenset(), VALUES[named] if named else 7, None, named, deemed)
    return BallOn(frozenset({on}), frozenset(), VALUES[on], None, named, deemed)


def moved(ball: str, table: Table, shot: Shot, gone: set[str]) -> bool:
    """Whether the ball the white rested against was moved by the stroke itself (a push, WPBSA 3.8)."""
    if ball in shot.first_contacts(WHITE):
        return True
    if any(ball in e.balls for e in shot.contacts()):
        return False  # something ran into it during the shot
    if ball in gone:
        return True
    before, after = table.positions.get(ball), shot.positions.get(ball)
    return before is not None and after is not None and geometry.distance(before, after) > PUSH_TOLERANCE_MM


def _found(reason: Reason, on: BallOn, concerned: Iterable[str], detail: str) -> Found:
    return Found(reason, penalty(reason, on.value, (on.worth(b) for b in concerned)), detail)


def _contact_fouls(
    table: Table, on: BallOn, cue: str, first: tuple[str, ...], pushed: tuple[str, ...]
) -> tuple[list[Found], list[str]]:
    """The fouls of the white's first contact (WPBSA 3.6, 3.8, 3.11), and the touching-ball note."""
    if cue != WHITE:
        return [_found(Reason.WRONG_CUE_BALL, on, (), f"{cue} was struck")], []
    found = [_found(Reason.PUSH_STROKE, on, (b,), f"the touching {b} was moved") for b in pushed]
    resting_on = [b for b in table.touching if b in on.targets and b not in pushed]
    if resting_on:
        return found, [f"touching {resting_on[0]} counts as hit ({RULE_TOUCHING})"]
    wrong = _first_contact_foul(table.on, on, first)
    return [*found, *([wrong] if wrong is not None else [])], []


def _first_contact_foul(on_kind: str, on: BallOn, first: tuple[str, ...]) -> Found | None:
    if not first:
        return _found(Reason.MISSED_ALL, on, (), "the white hit no ball")
    if on_kind == COLOUR and on.free is None and any(kind(b) == RED for b in first):
        return _found(Reason.PLAYED_AT_RED, on, first, f"first hit {', '.join(first)} with a colour on")
    if len(first) > 1:
        fair = (on.free is None and on_kind == RED and all(kind(b) == RED for b in first)) or (
            on.free is not None and on.free in first and all(b == on.free or b in on.partners for b in first)
        )
        if fair:
            return None
        return _found(Reason.TWO_BALLS_AT_ONCE, on, first, f"first hit {' and '.join(first)} at once")
    if first[0] not in on.targets:
        want = ", ".join(sorted(on.targets, key=ORDER.__getitem__)) if len(on.targets) <= 2 else on_kind
        return _found(Reason.WRONG_BALL_FIRST, on, first, f"first hit {first[0]}, the ball on was {want}")
    return None


def _pot_fouls(on_kind: str, on: BallOn, potted: tuple[str, ...], off: tuple[str, ...]) -> list[Found]:
    """The fouls of what dropped or left the table (WPBSA 2.14, 3.11)."""
    found = []
    if WHITE in potted:
        found.append(_found(Reason.IN_OFF, on, (), "the white was potted"))
    allowed = on.targets | on.partners
    bad = [b for b in potted if b != WHITE and b not in allowed]
    if bad:
        nominated_colour = on_kind == COLOUR and any(b in COLOURS for b in bad)
        reason = Reason.POT_NOT_NOMINATED if nominated_colour else Reason.POT_NOT_ON
        found.append(_found(reason, on, bad, f"potted {', '.join(bad)}"))
    for b in off:
        found.append(_found(Reason.OFF_TABLE, on, () if b == WHITE else (b,), f"{b} left the table"))
    return found


def _points(on_kind: str, on: BallOn, objects: list[str]) -> tuple[int, list[str]]:
    """What a fair stroke scores (WPBSA 3.3; a free ball, WPBSA 3.12), with a note for each pot."""
    notes = []
    if on_kind == COLOUR and on.deemed is not None:
        notes.append(f"nomination deemed: {on.deemed} (no declare)")
    free = on.free
    if on_kind == RED:
        for b in objects:
            what = f"free ball {b} as a red" if b == free else b
            notes.append(f"pot: {what}, 1 point ({RULE_POT})")
        return len(objects), notes
    if on_kind == COLOUR:
        if not objects:
            return 0, notes
        points = VALUES[objects[0]]
        notes.append(f"pot: {objects[0]}, {points} points ({RULE_POT})")
        return points, notes
    if on_kind in objects:
        points = VALUES[on_kind]
        notes.append(f"pot: {on_kind}, {points} points ({RULE_POT})")
        if free in objects:
            notes.append(f"free ball {free} potted too: only the ball on scores ({RULE_FREE_BALL})")
        return points, notes
    if free is not None and free in objects:
        points = VALUES[on_kind]
        notes.append(f"pot: free ball {free} as the {on_kind}, {points} points ({RULE_FREE_BALL})")
        return points, notes
    return 0, notes
