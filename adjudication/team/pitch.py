"""Futsal pitch geometry in the ground frame of architecture.md (metres, origin at a corner, ``y`` along).

The goal at ``y = 0`` is end 0, the goal at ``y = length`` end 1. ``depth`` is the distance from an end's
goal line into the pitch. The penalty area (Law 1) is bounded by quarter circles of 6 m radius centred on
the outside of each goalpost, joined by a 3.16 m line parallel to the goal line; on a pitch whose goal
line is 15-16 m long the radius is 4 m (Law 1, decision 1). The penalty mark is 6 m and the second penalty
mark 10 m from the middle of the goal.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

XY = tuple[float, float]

POST_HALF_SPAN_M = 1.58  # goal centre to the outside of a post: 3 m between posts + one 8 cm post
AREA_RADIUS_M = 6.0
SMALL_AREA_RADIUS_M = 4.0  # Law 1 decision 1: goal line 15 m to 16 m
SMALL_PITCH_WIDTH_M = (15.0, 16.0)
PENALTY_MARK_M = 6.0
SECOND_MARK_M = 10.0


@dataclass(frozen=True, slots=True)
class Pitch:
    width_m: float = 20.0
    length_m: float = 40.0

    @property
    def radius_m(self) -> float:
        lo, hi = SMALL_PITCH_WIDTH_M
        return SMALL_AREA_RADIUS_M if lo <= self.width_m <= hi else AREA_RADIUS_M

    @property
    def centre(self) -> XY:
        return (self.width_m / 2, self.length_m / 2)

    def end_of(self, xy: XY) -> int:
        """The end whose half ``xy`` lies in (the halfway line counts to end 0)."""
        return 0 if xy[1] <= self.length_m / 2 else 1

    def depth(self, xy: XY, end: int) -> float:
        return xy[1] if end == 0 else self.length_m - xy[1]

    def _at_depth(self, x: float, depth: float, end: int) -> XY:
        return (x, depth if end == 0 else self.length_m - depth)

    def in_area(self, xy: XY, end: int) -> bool:
        """Inside ``end``'s penalty area (its lines included)."""
        d = self.depth(xy, end)
        if d < 0 or d > self.radius_m:
            return False
        dx = abs(xy[0] - self.width_m / 2) - POST_HALF_SPAN_M
        return dx <= 0 or math.hypot(dx, d) <= self.radius_m

    def area_line_point(self, xy: XY, end: int) -> XY:
        """The point of ``end``'s penalty-area line nearest to ``xy`` (a point inside the area)."""
        cx = self.width_m / 2
        d = max(0.0, self.depth(xy, end))
        off = xy[0] - cx
        if abs(off) <= POST_HALF_SPAN_M:
            return self._at_depth(xy[0], self.radius_m, end)
        side = 1.0 if off > 0 else -1.0
        px = cx + side * POST_HALF_SPAN_M
        dx, dd = xy[0] - px, d
        r = math.hypot(dx, dd)
        ux, ud = (dx / r, dd / r) if r > 0 else (0.0, 1.0)
        return self._at_depth(px + ux * self.radius_m, ud * self.radius_m, end)

    def penalty_mark(self, end: int) -> XY:
        return self._at_depth(self.width_m / 2, PENALTY_MARK_M, end)

    def second_mark(self, end: int) -> XY:
        return self._at_depth(self.width_m / 2, SECOND_MARK_M, end)

    def corner(self, xy: XY, end: int) -> XY:
        """The corner of ``end``'s goal line nearest to ``xy``."""
        x = 0.0 if xy[0] <= self.width_m / 2 else self.width_m
        return self._at_depth(x, 0.0, end)

    def touch_point(self, xy: XY) -> XY:
        """The point of the nearer touch line level with ``xy`` (kick-in place, Law 10 and 16)."""
        x = 0.0 if xy[0] <= self.width_m / 2 else self.width_m
        return (x, min(max(xy[1], 0.0), self.length_m))

    def clamp(self, xy: XY) -> XY:
        return (min(max(xy[0], 0.0), self.width_m), min(max(xy[1], 0.0), self.length_m))
