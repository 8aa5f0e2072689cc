"""14.1 continuous: the rack area, spotting, and where balls go when a new rack is set up.

Geometry only, in table millimetres (docs/architecture.md): ``y`` runs from the head (bottom) cushion to the
foot (top) cushion, so the rack's apex points at the breaker and its back row lies toward the foot cushion.

- The rack (WPA 4.2): a tight triangle of 15 balls, apex on the foot spot. A re-rack of fourteen leaves the
  apex empty (WPA 4.2).
- The rack area is the outline of the triangle that holds the 15 balls (WPA 4.2, 4.8): a ball interferes with
  racking when its disc lies within or overlaps that outline.
- Spotting (WPA 1.4): on the long string, as close to the foot spot as possible between it and the foot
  cushion, frozen to any ball in the way; if that whole stretch is full, in front of the foot spot, as close
  to it as possible. Several balls are spotted in numerical order.
- Special racking (WPA 4.8): where the fifteenth ball and the cue ball go when the fourteen are re-racked, by
  where each one lies, laid out as the chart of the Russian rules text (a translation of the BCA chart). One
  cell of that chart is a transcription error and is not followed: with the fifteenth ball behind the head
  string and the cue ball in the rack, it prints "15th ball: to the foot spot, cue ball: to the head spot";
  the ball behind the head string does not touch the rack, and both WPA 4.8(d) and the BCA chart leave it
  where it is and spot only the cue ball on the head spot. Everywhere else the chart is followed, including
  its "blocking the head spot" row and column, which WPA words through the head string instead.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from arbiter.tables import XY, TableModel

CUE = "cue"
OBJECT_BALLS: tuple[str, ...] = tuple(str(n) for n in range(1, 16))
RACK_ROWS = 5  # 1 + 2 + 3 + 4 + 5 = 15 balls
APEX_SLOT = 0
# The one on the right and the five on the left of the back row, as the breaker sees it from the head end
# (right is +x): the Russian rules text ("единицей справа и пятеркой слева", as BCA); WPA 4.2 places
# neither. Slots are numbered row by row from the apex, left to right, so the back row is slots 10..14.
CORNER_SLOTS: Mapping[str, int] = MappingProxyType({"5": 10, "1": 14})
TOUCH_MM = 1e-6  # balls closer than a diameter by less than this are frozen together, not overlapping


def ball_number(ball: str) -> int:
    """The number of an object ball id (``"7"`` -> 7); spotting and racking go in numerical order."""
    return int(ball)


def rack_slots(table: TableModel) -> tuple[XY, ...]:
    """The 15 ball centres of a tight rack: slot 0 is the apex on the foot spot, then row by row toward the
    foot cushion, each row left to right."""
    d = table.ball_diameter_mm
    row_step = d * math.sqrt(3) / 2
    fx, fy = table.spots["foot"]
    return tuple((fx + (j - k / 2) * d, fy + k * row_step) for k in range(RACK_ROWS) for j in range(k + 1))


def rack_outline(table: TableModel) -> tuple[XY, XY, XY]:
    """The corners of the rack area (apex, back left, back right): the triangle that holds the 15 balls,
    each side one ball radius outside the line of centres (so each corner is two radii out along its
    bisector)."""
    slots = rack_slots(table)
    corners = (slots[APEX_SLOT], slots[10], slots[14])
    gx = sum(c[0] for c in corners) / 3
    gy = sum(c[1] for c in corners) / 3
    d = table.ball_diameter_mm  # two radii
    out: list[XY] = []
    for x, y in corners:
        n = math.hypot(x - gx, y - gy)
        out.append((x + d * (x - gx) / n, y + d * (y - gy) / n))
    return (out[0], out[1], out[2])


def _segment_distance(p: XY, a: XY, b: XY) -> float:
    ax, ay = a
    bx, by = b
    px, py = p
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def _cross(o: XY, a: XY, p: XY) -> float:
    return (a[0] - o[0]) * (p[1] - o[1]) - (a[1] - o[1]) * (p[0] - o[0])


def distance_to_rack_area(table: TableModel, xy_mm: XY) -> float:
    """How far a ball centre lies from the rack area (0 inside it)."""
    a, b, c = rack_outline(table)
    signs = (_cross(a, b, xy_mm), _cross(b, c, xy_mm), _cross(c, a, xy_mm))
    if all(s >= 0 for s in signs) or all(s <= 0 for s in signs):
        return 0.0
    return min(_segment_distance(xy_mm, a, b), _segment_distance(xy_mm, b, c), _segment_distance(xy_mm, c, a))


def in_rack_area(table: TableModel, xy_mm: XY) -> bool:
    """Whether a ball centred at ``xy_mm`` is within or overlaps the rack outline, so interferes with racking
    (WPA 4.8)."""
    return distance_to_rack_area(table, xy_mm) < table.ball_radius_mm - TOUCH_MM


def blocks_spot(table: TableModel, xy_mm: XY, spot: str) -> bool:
    """Whether a ball centred at ``xy_mm`` is in the way of a ball placed on ``spot`` (``"head"``,
    ``"centre"``, ``"foot"``): the two would overlap."""
    sx, sy = table.spots[spot]
    return math.hypot(xy_mm[0] - sx, xy_mm[1] - sy) < table.ball_diameter_mm - TOUCH_MM


def behind_head_string(table: TableModel, xy_mm: XY) -> bool:
    """Whether a ball's centre is behind the head string (in the kitchen, "в доме"); a ball on the string is
    not (WPA definitions)."""
    return xy_mm[1] < table.line("head_string").y_mm


def rack_layout(table: TableModel, balls: Iterable[str], *, apex_ball: str | None = None) -> dict[str, XY]:
    """Where each ball of a rack stands. Fifteen balls fill every slot; fourteen leave the apex empty.

    The 1 and the 5 take the back corners (the Russian text, as BCA) when they are racked, ``apex_ball`` (the
    fifteenth ball put back on the foot spot, WPA 4.8) takes the apex, and the rest fill the other slots in
    numerical order.
    """
    racked = sorted(set(balls), key=ball_number)
    if len(racked) not in (14, 15):
        raise ValueError(f"a 14.1 rack holds 14 or 15 balls (got {len(racked)}: {', '.join(racked)})")
    if apex_ball is not None and (len(racked) != 15 or apex_ball not in racked):
        raise ValueError(f"apex_ball {apex_ball!r} must be one of 15 racked balls")
    slots = rack_slots(table)
    free = list(range(len(slots))) if len(racked) == 15 else list(range(1, len(slots)))
    layout: dict[str, XY] = {}
    fixed = dict(CORNER_SLOTS)
    if apex_ball is not None:
        fixed = {b: s for b, s in fixed.items() if b != apex_ball}
        fixed[apex_ball] = APEX_SLOT
    for ball, slot in fixed.items():
        if ball in racked:
            layout[ball] = slots[slot]
            free.remove(slot)
    rest = iter(free)
    for ball in racked:
        if ball not in layout:
            layout[ball] = slots[next(rest)]
    return dict(sorted(layout.items(), key=lambda item: ball_number(item[0])))


def _clear_y(table: TableModel, occupied: Iterable[XY], x: float, start: float, stop: float) -> float | None:
    """The ``y`` nearest ``start`` (moving toward ``stop``) where a ball at ``x`` overlaps no ball."""
    d = table.ball_diameter_mm
    blocked: list[tuple[float, float]] = []
    for ox, oy in occupied:
        dx = abs(ox - x)
        if dx < d - TOUCH_MM:
            half = math.sqrt(d * d - dx * dx)
            blocked.append((oy - half, oy + half))
    up = stop >= start
    candidates = [start] + [hi if up else lo for lo, hi in blocked]
    lo_y, hi_y = (start, stop) if up else (stop, start)
    for y in sorted(candidates, key=lambda c: abs(c - start)):
        if lo_y <= y <= hi_y and not any(lo + TOUCH_MM < y < hi - TOUCH_MM for lo, hi in blocked):
            return y
    return None


def spot_balls(table: TableModel, balls: Iterable[str], occupied: Mapping[str, XY]) -> dict[str, XY]:
    """Spot ``balls`` (WPA 1.4): in numerical order, each on the long string as close to the foot spot as it
    goes, first between the foot spot and the foot cushion, else in front of the foot spot; ``occupied`` holds
    the balls already at rest, the cue ball included."""
    fx, fy = table.spots["foot"]
    r = table.ball_radius_mm
    to_spot = sorted(set(balls), key=ball_number)
    taken = [xy for b, xy in occupied.items() if b not in to_spot]
    out: dict[str, XY] = {}
    for ball in to_spot:
        y = _clear_y(table, taken, fx, fy, table.length_mm - r)
        if y is None:
            y = _clear_y(table, taken, fx, fy, r)
        if y is None:
            raise ValueError(f"no room on the long string to spot ball {ball}")
        out[ball] = (fx, y)
        taken.append((fx, y))
    return out


# --- special racking (WPA 4.8) ------------------------------------------------------------------------------


class Where15(StrEnum):
    """Where the fifteenth ball lies when the fourteenth has been pocketed: the rows of the chart."""

    POCKETED = "pocketed"
    IN_RACK = "in_rack"
    ON_HEAD_SPOT = "on_head_spot"  # in the way of a ball placed on the head spot
    IN_KITCHEN = "in_kitchen"  # behind the head string, not on the head spot
    ELSEWHERE = "elsewhere"


class WhereCue(StrEnum):
    """Where the cue ball lies at that moment: the columns of the chart."""

    IN_RACK = "in_rack"
    ON_HEAD_SPOT = "on_head_spot"
    ELSEWHERE = "elsewhere"


class Place(StrEnum):
    """What happens to the fifteenth ball or the cue ball."""

    STAYS = "stays"
    FOOT_SPOT = "foot_spot"  # the fifteenth ball on the apex: all fifteen are racked
    HEAD_SPOT = "head_spot"
    CENTRE_SPOT = "centre_spot"
    IN_HAND = "in_hand"  # cue ball in hand behind the head string


# (fifteenth ball, cue ball) -> (where the fifteenth goes, where the cue ball goes). Cells the chart leaves
# shaded (neither ball interferes) keep both balls where they are.
SPECIAL_RACKING: Mapping[tuple[Where15, WhereCue], tuple[Place, Place]] = MappingProxyType(
    {
        (Where15.IN_RACK, WhereCue.IN_RACK): (Place.FOOT_SPOT, Place.IN_HAND),
        (Where15.IN_RACK, WhereCue.ELSEWHERE): (Place.HEAD_SPOT, Place.STAYS),
        (Where15.IN_RACK, WhereCue.ON_HEAD_SPOT): (Place.CENTRE_SPOT, Place.STAYS),
        (Where15.POCKETED, WhereCue.IN_RACK): (Place.FOOT_SPOT, Place.IN_HAND),
        (Where15.POCKETED, WhereCue.ELSEWHERE): (Place.FOOT_SPOT, Place.STAYS),
        (Where15.POCKETED, WhereCue.ON_HEAD_SPOT): (Place.FOOT_SPOT, Place.STAYS),
        (Where15.IN_KITCHEN, WhereCue.IN_RACK): (
            Place.STAYS,
            Place.HEAD_SPOT,
        ),  # the chart's cell corrected (WPA 4.8(d))
        (Where15.IN_KITCHEN, WhereCue.ELSEWHERE): (Place.STAYS, Place.STAYS),
        (Where15.IN_KITCHEN, WhereCue.ON_HEAD_SPOT): (Place.STAYS, Place.STAYS),
        (Where15.ELSEWHERE, WhereCue.IN_RACK): (Place.STAYS, Place.IN_HAND),
        (Where15.ELSEWHERE, WhereCue.ELSEWHERE): (Place.STAYS, Place.STAYS),
        (Where15.ELSEWHERE, WhereCue.ON_HEAD_SPOT): (Place.STAYS, Place.STAYS),
        (Where15.ON_HEAD_SPOT, WhereCue.IN_RACK): (Place.STAYS, Place.CENTRE_SPOT),
        (Where15.ON_HEAD_SPOT, WhereCue.ELSEWHERE): (Place.STAYS, Place.STAYS),
        (Where15.ON_HEAD_SPOT, WhereCue.ON_HEAD_SPOT): (Place.STAYS, Place.STAYS),
    }
)
_SPOT_OF_PLACE: Mapping[Place, str] = MappingProxyType(
    {Place.FOOT_SPOT: "foot", Place.HEAD_SPOT: "head", Place.CENTRE_SPOT: "centre"}
)


def where_fifteenth(table: TableModel, xy_mm: XY | None) -> Where15:
    """The row of the table for the fifteenth ball (``None``: it was pocketed)."""
    if xy_mm is None:
        return Where15.POCKETED
    if in_rack_area(table, xy_mm):
        return Where15.IN_RACK
    if blocks_spot(table, xy_mm, "head"):
        return Where15.ON_HEAD_SPOT
    if behind_head_string(table, xy_mm):
        return Where15.IN_KITCHEN
    return Where15.ELSEWHERE


def where_cue(table: TableModel, xy_mm: XY | None) -> WhereCue:
    """The column of the table for the cue ball (``None``: not on the table, so in nobody's way)."""
    if xy_mm is None:
        return WhereCue.ELSEWHERE
    if in_rack_area(table, xy_mm):
        return WhereCue.IN_RACK
    if blocks_spot(table, xy_mm, "head"):
        return WhereCue.ON_HEAD_SPOT
    return WhereCue.ELSEWHERE


@dataclass(frozen=True)
class RackPlan:
    """A new rack: every racked ball with its place, and what became of the fifteenth ball and the cue ball.

    ``moved`` holds the fifteenth ball and/or the cue ball where either is spotted outside the rack; the cue
    ball is absent from it when it stays or goes in hand.
    """

    fifteenth: str | None
    where: tuple[Where15, WhereCue]
    fifteenth_place: Place
    cue_place: Place
    racked: Mapping[str, XY]
    moved: Mapping[str, XY]

    @property
    def full_rack(self) -> bool:
        return len(self.racked) == len(OBJECT_BALLS)

    @property
    def cue_in_hand(self) -> bool:
        return self.cue_place is Place.IN_HAND


def plan_rerack(table: TableModel, at_rest: Mapping[str, XY]) -> RackPlan:
    """The new rack once fourteen balls of a rack have been pocketed (WPA 4.4, 4.8).

    ``at_rest`` holds the balls still on the table: the cue ball (absent if it is not on the table) and at
    most one object ball, the fifteenth.
    """
    left = [b for b in at_rest if b != CUE]
    if len(left) > 1:
        raise ValueError(f"a re-rack leaves at most one object ball on the table (got {', '.join(left)})")
    fifteenth = left[0] if left else None
    where = (
        where_fifteenth(table, at_rest[fifteenth] if fifteenth else None),
        where_cue(table, at_rest.get(CUE)),
    )
    ball_place, cue_place = SPECIAL_RACKING[where]
    moved: dict[str, XY] = {}
    if ball_place is Place.FOOT_SPOT or fifteenth is None:
        racked = rack_layout(table, OBJECT_BALLS, apex_ball=fifteenth)
    else:
        racked = rack_layout(table, (b for b in OBJECT_BALLS if b != fifteenth))
        if ball_place in _SPOT_OF_PLACE:
            moved[fifteenth] = table.spots[_SPOT_OF_PLACE[ball_place]]
    if cue_place in _SPOT_OF_PLACE:
        moved[CUE] = table.spots[_SPOT_OF_PLACE[cue_place]]
    return RackPlan(
        fifteenth=fifteenth,
        where=where,
        fifteenth_place=ball_place,
        cue_place=cue_place,
        racked=MappingProxyType(racked),
        moved=MappingProxyType(moved),
    )
