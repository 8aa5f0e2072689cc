"""Foul and a miss (WPBSA 3.14), the objective reading an automatic referee can apply.

A foul in which the white fails to hit a ball on first is also a miss when, from where the white lay before
the stroke (anywhere in the D when in hand), there was a straight path to some part of a ball that was or
could be on, and neither player needed snookers before the stroke nor after it. After the balls were
replaced, a failure with a full-ball contact open is a miss whatever the score; the third one in a row
awards the frame to the opponent.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from adjudication.billiards import geometry
from adjudication.billiards.snooker.fouls import FAILED_TO_HIT, Found
from adjudication.billiards.snooker.judge import Stroke
from adjudication.billiards.snooker.rules import (
    COLOUR,
    COLOURS,
    COLOURS_TOTAL,
    RADIUS,
    RED,
    VALUES,
    kind,
)
from adjudication.billiards.snooker.state import State, Table
from adjudication.billiards.snooker.table import balls_on, views


def remaining(on: str, balls: frozenset[str], respotted_black: bool) -> int:
    """The most points still to be scored on the table (for "needs snookers", WPBSA 3.14)."""
    if respotted_black:
        return 7
    reds = sum(1 for b in balls if kind(b) == RED)
    extra = 7 if on == COLOUR else 0  # the colour after the red just potted
    if reds:
        return extra + 8 * reds + COLOURS_TOTAL
    if on == COLOUR:
        return extra + COLOURS_TOTAL
    return sum(VALUES[c] for c in COLOURS if c in balls)


def needs_snookers(score: Mapping[str, int], left: int) -> bool:
    lo, hi = sorted(score.values())
    return hi - lo >= left and hi != lo


def clear_paths(table: Table, on_balls: Iterable[str]) -> tuple[bool, bool] | None:
    """(a straight path to some part of some ball on, a full-ball path to one), or None when not known."""
    view = views(table, on_balls)
    if view is None:
        return None
    targets, others, white = view
    if white is None:
        return (
            geometry.any_part_clear_in_hand(targets, others, table.layout),
            geometry.full_ball_clear_in_hand(targets, others, table.layout),
        )
    return (
        any(geometry.any_part_clear(white, t, others, RADIUS) for t in targets),
        any(geometry.full_ball_clear(white, t, others, RADIUS) for t in targets),
    )


def miss_count(
    state: State, stroke: Stroke, found: Iterable[Found], score: Mapping[str, int], left: Table
) -> int:
    """0 when the foul is not a miss, else how many misses in a row from the same position (WPBSA 3.14).

    No miss on the opening stroke (the re-break is offered instead), on the last or re-spotted black, or
    where the balls' places before the stroke are unknown."""
    table = state.table
    if table.opening or table.respotted_black or table.on == "black":
        return 0
    if not any(f.reason in FAILED_TO_HIT for f in found):
        return 0
    could_be_on = balls_on(table, COLOUR) if table.on == COLOUR and stroke.free is None else stroke.on_balls
    paths = clear_paths(table, could_be_on)
    if paths is None:
        return 0
    any_part, full = paths
    if state.replayed and state.misses >= 1 and full:
        return state.misses + 1  # from the replaced position with a full ball in view: whatever the score
    needs = needs_snookers(state.score, remaining(table.on, table.balls, False)) or needs_snookers(
        score, remaining(left.on, left.balls, False)
    )
    return 1 if any_part and not needs else 0
