"""Snooker geometry for the referee: snookers, touching balls and where a colour is re-spotted.

Pure functions over ball centres in table millimetres (docs/architecture.md: ``y`` from the bottom (baulk)
cushion to the top cushion, ``x`` across). The cue ball is the white; every ball has radius ``radius``, so
two balls touch when their centres are one diameter (``2 * radius``) apart.

Rule numbers are those of the WPBSA Official Rules of the Games of Snooker and English Billiards (November
2019), Section.Rule; docs/games/snooker.md maps them.

- Snookered (WPBSA 2.17): the cue ball is snookered when a direct stroke in a straight line to every ball on
  is wholly or partly obstructed by a ball not on; it is not snookered when at least one ball on can be
  struck at both extreme edges free of obstruction. The two extreme edges are the two thinnest hits: the cue
  ball's centre travels along the tangents from its start to the circle of radius ``2 * radius`` around the
  ball on. A cushion never snookers (WPBSA 2.17); pocket jaws are not modelled. With the cue ball in hand it
  is snookered only if it is snookered from every position in the D (WPBSA 2.17), checked on a grid of
  ``IN_HAND_STEP_MM`` plus the D's outline.
- A clear path to *any part* of a ball (what the miss rule asks, WPBSA 3.14) is checked on
  ``VISIBILITY_RAYS`` straight lines spread evenly between the two extreme edges; a full-ball contact (the
  three-miss rule) is the one line through the ball's centre.
- Touching (WPBSA 3.8): centres no more than a diameter plus ``TOUCH_TOLERANCE_MM`` apart, the allowance for
  the tracker's error on balls at rest.
- Re-spotting (WPBSA 3.7, 2.18): a spot is occupied when a ball placed on it would touch another ball. A
  colour goes on its own spot; if that is occupied, on the highest-value spot that is free; if none is, as
  near as possible to its own spot on the table's long axis toward the top cushion, and, where that line is
  full up to the cushion (WPBSA 3.7, written for pink and black and applied to every colour here), as near as
  possible below its spot. A ball placed that way keeps ``RESPOT_CLEARANCE_MM`` of air to its neighbours,
  more than the touching tolerance, so it never reads as touching. When several colours go back at once,
  those whose own spots are free go there first, then the others take free spots in order of value, highest
  first (WPBSA 3.7).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType

from arbiter.tables import XY, TableModel

TOUCH_TOLERANCE_MM = 1.0  # centres within a diameter plus this are touching: tracking error on still balls
RESPOT_CLEARANCE_MM = 1.5  # air kept around a ball re-spotted off its spot (above the touching tolerance)
IN_HAND_STEP_MM = 10.0  # grid of cue-ball positions tried in the D (a fifth of a ball's diameter)
VISIBILITY_RAYS = (
    65  # straight lines tried between the two extreme edges of a ball (about 1 degree apart up close)
)
_EPS = 1e-6  # mm: a path grazing a ball at exactly a diameter is not obstructed by it

# Spots in order of the value of their colours, highest first (WPBSA 3.7: "the highest value spot").
SPOT_PRECEDENCE: tuple[str, ...] = ("black", "pink", "blue", "brown", "green", "yellow")
_SPOT_RANK: Mapping[str, int] = MappingProxyType({c: i for i, c in enumerate(SPOT_PRECEDENCE)})


def distance(a: XY, b: XY) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def touching(a: XY, b: XY, radius: float, tol: float = TOUCH_TOLERANCE_MM) -> bool:
    """Whether balls centred at ``a`` and ``b`` touch: centres at most a diameter plus ``tol`` apart."""
    return distance(a, b) <= 2 * radius + tol


# --- straight paths of the cue ball ----------------------------------------------------------------------


def _blocks(start: XY, end: XY, obstacle: XY, radius: float) -> bool:
    """Whether a cue ball whose centre runs from ``start`` to ``end`` runs into the ball at ``obstacle``.

    A ball the cue ball rests against (or, by tracking error, seems to overlap) blocks only the paths that
    lead closer to it: playing away from a touching ball is always possible.
    """
    dx, dy = end[0] - start[0], end[1] - start[1]
    length2 = dx * dx + dy * dy
    if length2 == 0.0:
        return False
    t = ((obstacle[0] - start[0]) * dx + (obstacle[1] - start[1]) * dy) / length2
    if t <= 0.0:
        return False  # the path leads away from it
    t = min(t, 1.0)
    closest = distance((start[0] + t * dx, start[1] + t * dy), obstacle)
    return closest < 2 * radius - _EPS and closest < distance(start, obstacle) - _EPS


def path_clear(start: XY, end: XY, obstacles: Iterable[XY], radius: float) -> bool:
    """Whether the cue ball's centre can travel straight from ``start`` to ``end`` without touching a ball."""
    return not any(_blocks(start, end, o, radius) for o in obstacles)


def _contact_on_ray(cue: XY, ball: XY, offset_rad: float, radius: float) -> XY:
    """Where the cue ball's centre is when it meets ``ball``, travelling ``offset_rad`` off the centre line.

    ``offset_rad`` must lie within the extreme edges (``asin(2r / d)`` either side of the centre line).
    """
    d = distance(cue, ball)
    reach = 2 * radius
    base = math.atan2(ball[1] - cue[1], ball[0] - cue[0])
    ux, uy = math.cos(base + offset_rad), math.sin(base + offset_rad)
    side = d * math.sin(offset_rad)  # how far the ball's centre lies off this line
    travel = d * math.cos(offset_rad) - math.sqrt(max(0.0, reach * reach - side * side))
    return (cue[0] + travel * ux, cue[1] + travel * uy)


def extreme_edge_contacts(cue: XY, ball: XY, radius: float) -> tuple[XY, XY] | None:
    """The cue ball's centre at the two thinnest possible hits on ``ball`` (its two extreme edges).

    These are the tangent points from ``cue`` to the circle of radius ``2 * radius`` around ``ball``. None
    when the two balls touch or overlap: there is no straight approach, the ball is already in contact.
    """
    d = distance(cue, ball)
    reach = 2 * radius
    if d <= reach + _EPS:
        return None
    wx, wy = (cue[0] - ball[0]) / d, (cue[1] - ball[1]) / d
    cos_phi = reach / d
    sin_phi = math.sqrt(1.0 - cos_phi * cos_phi)
    return tuple(  # type: ignore[return-value]
        (
            ball[0] + reach * (cos_phi * wx - sign * sin_phi * wy),
            ball[1] + reach * (cos_phi * wy + sign * sin_phi * wx),
        )
        for sign in (1.0, -1.0)
    )


def both_edges_clear(cue: XY, ball: XY, obstacles: Sequence[XY], radius: float) -> bool:
    """Whether ``ball`` can be struck at both extreme edges in a straight line without touching an obstacle.

    A ball the cue ball already touches counts as clear (there is nothing in between).
    """
    contacts = extreme_edge_contacts(cue, ball, radius)
    if contacts is None:
        return True
    return all(path_clear(cue, p, obstacles, radius) for p in contacts)


def snookered(cue_xy: XY, ball_xy_list: Iterable[XY], obstacles: Iterable[XY], radius: float) -> bool:
    """WPBSA 2.17: no ball on (``ball_xy_list``) can be struck at both extreme edges free of obstruction by
    the balls not on (``obstacles``). False when there is no ball on at all (nothing to be snookered on)."""
    balls = list(ball_xy_list)
    blockers = list(obstacles)
    if not balls:
        return False
    return not any(both_edges_clear(cue_xy, b, blockers, radius) for b in balls)


def any_part_clear(
    cue: XY, ball: XY, obstacles: Sequence[XY], radius: float, rays: int = VISIBILITY_RAYS
) -> bool:
    """Whether some straight line from the cue ball reaches some part of ``ball`` unobstructed (WPBSA 3.14:
    "a clear path in a straight line to any part of any ball on"), tried on ``rays`` lines between edges."""
    d = distance(cue, ball)
    reach = 2 * radius
    if d <= reach + _EPS:
        return True
    half = math.asin(reach / d) * (1.0 - 1e-9)
    steps = max(rays, 2) - 1
    offsets = sorted((-half + 2 * half * k / steps for k in range(steps + 1)), key=abs)  # centre first
    return any(path_clear(cue, _contact_on_ray(cue, ball, a, radius), obstacles, radius) for a in offsets)


def full_ball_clear(cue: XY, ball: XY, obstacles: Sequence[XY], radius: float) -> bool:
    """Whether the cue ball can hit ``ball`` full in the face: the straight line through both centres is
    unobstructed up to the contact (the three-miss rule's "clear path to a full-ball contact", WPBSA 3.14)."""
    if distance(cue, ball) <= 2 * radius + _EPS:
        return True
    return path_clear(cue, _contact_on_ray(cue, ball, 0.0, radius), obstacles, radius)


# --- the cue ball in hand --------------------------------------------------------------------------------


def d_positions(table: TableModel, step: float = IN_HAND_STEP_MM) -> tuple[XY, ...]:
    """Cue-ball centres tried in the D: a square grid of ``step`` anchored on the D's centre, every point on
    or within the semicircle and the baulk line, plus points ``step`` apart along the arc itself."""
    arc = next(a for a in table.arcs if a.name == "D")
    cx, cy = arc.centre_xy_mm
    r = arc.radius_mm
    sign = -1.0 if arc.toward == "bottom" else 1.0
    n = int(r // step)
    points: list[XY] = [
        (cx + i * step, cy + sign * j * step)
        for j in range(n + 1)
        for i in range(-n, n + 1)
        if (i * step) ** 2 + (j * step) ** 2 <= r * r + _EPS
    ]
    m = max(2, math.ceil(math.pi * r / step))
    points.extend(
        (cx + r * math.cos(math.pi * k / m), cy + sign * r * math.sin(math.pi * k / m)) for k in range(m + 1)
    )
    return tuple(points)


def _from_hand(
    table: TableModel,
    others: Sequence[XY],
    radius: float,
    test: Callable[[XY], bool],
    step: float,
) -> bool:
    """Whether ``test`` holds from some place in the D where the cue ball can stand (overlapping no ball)."""
    for p in d_positions(table, step):
        if any(distance(p, o) < 2 * radius - _EPS for o in others):
            continue
        if test(p):
            return True
    return False


def snookered_in_hand(
    ball_xy_list: Iterable[XY],
    obstacles: Iterable[XY],
    table: TableModel,
    radius: float | None = None,
    step: float = IN_HAND_STEP_MM,
) -> bool:
    """Snookered with the cue ball in hand: snookered from every position in the D (WPBSA 2.17)."""
    balls = list(ball_xy_list)
    blockers = list(obstacles)
    r = table.ball_radius_mm if radius is None else radius
    if not balls:
        return False
    return not _from_hand(table, balls + blockers, r, lambda p: not snookered(p, balls, blockers, r), step)


def any_part_clear_in_hand(
    ball_xy_list: Iterable[XY],
    obstacles: Iterable[XY],
    table: TableModel,
    radius: float | None = None,
    step: float = IN_HAND_STEP_MM,
) -> bool:
    """Whether from some position in the D some part of some ball on can be reached in a straight line."""
    balls = list(ball_xy_list)
    blockers = list(obstacles)
    r = table.ball_radius_mm if radius is None else radius
    return _from_hand(
        table, balls + blockers, r, lambda p: any(any_part_clear(p, b, blockers, r) for b in balls), step
    )


def full_ball_clear_in_hand(
    ball_xy_list: Iterable[XY],
    obstacles: Iterable[XY],
    table: TableModel,
    radius: float | None = None,
    step: float = IN_HAND_STEP_MM,
) -> bool:
    """Whether from some position in the D some ball on can be hit full in the face."""
    balls = list(ball_xy_list)
    blockers = list(obstacles)
    r = table.ball_radius_mm if radius is None else radius
    return _from_hand(
        table, balls + blockers, r, lambda p: any(full_ball_clear(p, b, blockers, r) for b in balls), step
    )


# --- re-spotting -----------------------------------------------------------------------------------------


def spot_occupied(spot_xy: XY, others: Iterable[XY], radius: float, tol: float = TOUCH_TOLERANCE_MM) -> bool:
    """A spot is occupied if a ball placed on it would touch another ball (WPBSA 2.18)."""
    return any(touching(spot_xy, o, radius, tol) for o in others)


def _others(ball: str, positions: Mapping[str, XY]) -> list[XY]:
    return [xy for b, xy in positions.items() if b != ball]


def free_spot(ball: str, positions: Mapping[str, XY], table: TableModel) -> str | None:
    """The spot ``ball`` goes to: its own if free, else the free spot of highest value; None if every spot
    is occupied. ``positions`` are the balls on the table (``ball`` itself, if listed, is ignored)."""
    others = _others(ball, positions)
    r = table.ball_radius_mm
    for spot in (ball, *SPOT_PRECEDENCE):
        if not spot_occupied(table.spots[spot], others, r):
            return spot
    return None


def _nearest_on_line(spot: XY, others: Sequence[XY], radius: float, upward: bool, limit: float) -> XY | None:
    """The place nearest to ``spot`` on the line ``x = spot.x``, going up (or down) no further than
    ``limit``, where a ball keeps at least a diameter plus ``RESPOT_CLEARANCE_MM`` from every other ball."""
    x, y0 = spot
    need = 2 * radius + RESPOT_CLEARANCE_MM
    candidates = [y0]
    for ox, oy in others:
        dx = abs(ox - x)
        if dx < need:
            h = math.sqrt(need * need - dx * dx)
            candidates.append(oy + h if upward else oy - h)
    ahead = sorted((y for y in candidates if (y >= y0 if upward else y <= y0)), reverse=not upward)
    for y in ahead:
        if (y > limit) if upward else (y < limit):
            return None
        if all(distance((x, y), o) >= need - _EPS for o in others):
            return (x, y)
    return None


def respot_position(ball: str, positions: Mapping[str, XY], table: TableModel) -> XY:
    """Where colour ``ball`` is re-spotted among the balls at ``positions`` (see the module docstring)."""
    spot = free_spot(ball, positions, table)
    if spot is not None:
        return table.spots[spot]
    others = _others(ball, positions)
    r = table.ball_radius_mm
    own = table.spots[ball]
    place = _nearest_on_line(own, others, r, upward=True, limit=table.length_mm - r)
    if place is None:
        place = _nearest_on_line(own, others, r, upward=False, limit=r)
    if place is None:
        raise ValueError(f"no room anywhere on the long axis to re-spot {ball}")
    return place


def respot_positions(balls: Iterable[str], positions: Mapping[str, XY], table: TableModel) -> dict[str, XY]:
    """Where each colour of ``balls`` goes when they are re-spotted together (WPBSA 3.7): first every
    colour whose own spot is free, then the rest in order of value, highest first, each placed among the
    balls at ``positions`` and those already re-spotted. Returns ``{ball: xy}`` in the order placed."""
    todo = sorted(set(balls), key=_SPOT_RANK.__getitem__)
    placed: dict[str, XY] = {}
    table_now = {b: xy for b, xy in positions.items() if b not in todo}
    r = table.ball_radius_mm
    for ball in todo:
        own = table.spots[ball]
        if not spot_occupied(own, table_now.values(), r):
            placed[ball] = table_now[ball] = own
    for ball in todo:
        if ball not in placed:
            placed[ball] = table_now[ball] = respot_position(ball, table_now, table)
    return placed


__all__ = [
    "IN_HAND_STEP_MM",
    "RESPOT_CLEARANCE_MM",
    "SPOT_PRECEDENCE",
    "TOUCH_TOLERANCE_MM",
    "VISIBILITY_RAYS",
    "any_part_clear",
    "any_part_clear_in_hand",
    "both_edges_clear",
    "d_positions",
    "distance",
    "extreme_edge_contacts",
    "free_spot",
    "full_ball_clear",
    "full_ball_clear_in_hand",
    "path_clear",
    "respot_position",
    "respot_positions",
    "snookered",
    "snookered_in_hand",
    "spot_occupied",
    "touching",
]
