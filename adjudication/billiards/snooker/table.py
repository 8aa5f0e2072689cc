"""The table after a snooker stroke: which balls go back and where, what is on next, what the white rests
against, and whether the next striker is snookered (WPBSA 2.17, 3.3, 3.7, 3.8, 3.12)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from adjudication.billiards import geometry
from adjudication.billiards.shot import Shot
from adjudication.billiards.snooker.fouls import Found, Reason, penalty
from adjudication.billiards.snooker.rules import (
    BALL_IDS,
    COLOUR,
    COLOURS,
    RADIUS,
    RED,
    RULE_TOUCHING,
    VALUES,
    WHITE,
    kind,
    lowest_colour,
    ordered,
)
from adjudication.billiards.snooker.state import Table
from adjudication.engine import RuleError
from arbiter.contract import FrozenMap
from arbiter.tables import XY, TableModel


def check_positions(table: Table, shot: Shot, gone: set[str]) -> None:
    """``shot_end.positions`` lists only snooker balls still on the table."""
    for ball in shot.positions:
        if ball not in BALL_IDS:
            raise RuleError(f"shot_end.positions names {ball!r}, not a snooker ball")
        if ball in gone:
            raise RuleError(f"shot_end.positions lists {ball}, which left the table during this shot")
        if ball != WHITE and ball not in table.balls:
            raise RuleError(f"shot_end.positions lists {ball}, which is not on the table")


def balls_on(table: Table, on: str) -> list[str]:
    """The balls that are on: every red, every colour (a colour to nominate), or the one colour."""
    if on == RED:
        return ordered(b for b in table.balls if kind(b) == RED)
    if on == COLOUR:
        return [c for c in COLOURS if c in table.balls]
    return [on] if on in table.balls else []


def views(table: Table, on_balls: Iterable[str]) -> tuple[list[XY], list[XY], XY | None] | None:
    """The known centres of the balls on, of the other object balls, and of the white (None: in hand);
    None when the white's place is unknown or no ball on has a known place."""
    on_set = set(on_balls)
    pos = table.positions
    targets = [pos[b] for b in on_set if b in pos]
    others = [xy for b, xy in pos.items() if b != WHITE and b not in on_set and b in table.balls]
    if not targets:
        return None
    if table.in_hand:
        return targets, others, None
    if WHITE not in pos:
        return None
    return targets, others, pos[WHITE]


def snookered(table: Table, on_balls: Iterable[str]) -> bool:
    """Whether the white is snookered on every ball of ``on_balls`` (WPBSA 2.17; from the D when in hand)."""
    view = views(table, on_balls)
    if view is None:
        return False
    targets, others, white = view
    if white is None:
        return geometry.snookered_in_hand(targets, others, table.layout)
    return geometry.snookered(white, targets, others, RADIUS)


def snookered_by_free_ball(table: Table, free: str, left: Table) -> Found | None:
    """WPBSA 3.12: after a fair stroke that scored nothing, the white must not be left snookered on every ball
    on by the free ball (the snooker must not vanish without it), unless only pink and black remain."""
    if left.balls == {"pink", "black"} or free not in left.balls:
        return None
    on_balls = balls_on(left, table.on)
    without = replace(
        left,
        balls=left.balls - {free},
        positions=FrozenMap({b: xy for b, xy in left.positions.items() if b != free}),
    )
    if not snookered(left, on_balls) or snookered(without, on_balls):
        return None
    reason = Reason.SNOOKERED_BY_FREE_BALL
    on_value = 1 if table.on == RED else VALUES[table.on]
    return Found(reason, penalty(reason, on_value, ()), f"the free ball {free} snookers every ball on")


def to_respot(table: Table, gone: set[str], foul: bool, free: str | None) -> list[str]:
    """Colours that go back (WPBSA 3.3, 3.7): all of them while reds are (or were just) on, on a foul, and a
    potted free ball; in the colours phase the ball on potted fairly stays down. Reds never go back."""
    return [b for b in ordered(gone) if b in COLOURS and (table.on in (RED, COLOUR) or foul or b == free)]


def respot_place(ball: str, xy: XY, layout: TableModel) -> str:
    """Where a re-spotted colour went on the table ``layout``, in words."""
    spots = layout.spots
    if xy == spots[ball]:
        return "on its own spot"
    spot = next((s for s in geometry.SPOT_PRECEDENCE if spots[s] == xy), None)
    if spot is not None:
        return f"on the {spot} spot (its own is occupied)"
    side = "above" if xy[1] > spots[ball][1] else "below"
    return f"as near its spot as possible, {side} it (every spot is occupied)"


def next_on(table: Table, gone: set[str], foul: bool, points: int, balls: frozenset[str]) -> str:
    """The ball on for the next stroke (WPBSA 3.3): a red while reds remain, else the lowest colour; a colour
    after a red potted; the same colour again after a miss in the colours phase."""
    reds = any(kind(b) == RED for b in balls)
    lowest = lowest_colour(balls) or "black"
    if foul:
        return RED if reds else lowest
    if table.on == RED:
        return COLOUR if points else (RED if reds else lowest)
    if table.on == COLOUR:
        return RED if reds else lowest
    return lowest if table.on in gone and points else table.on


def touching(positions: Mapping[str, XY]) -> tuple[str, ...]:
    """The balls the white rests against (WPBSA 3.8)."""
    white = positions.get(WHITE)
    return tuple(
        b
        for b in ordered(positions)
        if b != WHITE and white and geometry.touching(white, positions[b], RADIUS)
    )


def touching_notes(table: Table) -> list[str]:
    """What the next striker must do about each ball the white rests against (WPBSA 3.8)."""
    on_now = set(balls_on(table, table.on))
    notes = []
    for b in table.touching:
        if b in on_now:
            notes.append(f"touching ball: {b}; play away from it, it counts as hit ({RULE_TOUCHING})")
        else:
            notes.append(f"the white touches {b}, not on: play away and hit a ball on ({RULE_TOUCHING})")
    return notes
