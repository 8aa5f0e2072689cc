"""Cushions a ball met while it was unseen, read by unfolding the table.

A ball lost in its blur for a few tenths of a second may strike two or three cushions before it is seen
again, and a split's two lines (``cushion_sides``) then turn at none of them: two cushions of one axis
leave the motion along it as it was, and a line carried that long may have met anything. Mirrored at each
cushion it met, the table unfolds the ball's path into one straight line (a cushion reflects only the part
of the velocity across it). Of the mirror images of the line seen after the gap, the one that continues
the line seen before it, in direction, in place and in the distance the ball could cover in the time
unseen, tells which cushions it met; where the straight path crosses each mirrored ball line is where and
when it met them.

A ball struck from rest and lost in its blur at once is read the same way from the spot it left and the
direction its striker sent it in, along the line of centres, at most as fast as its striker came
(``departure_cushions``).

A cushion takes some speed across it away (its restitution), so the real path bends a little at each; the
tolerances grow with the cushions met. An image is taken only where it is the one image that fits: two that
fit are two stories, and nothing is said.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from arbiter.tables import TableModel

from .cushion_sides import GAP_FRAMES, Sample, fit_line, off_line, velocity_before
from .paths import in_pockets, position_at


@dataclass(frozen=True)
class UnfoldConfig:
    """Settings of reading the cushions a ball met unseen. Each trades something off:

    - ``max_gap_s``: the longest time unseen read; longer, and the ball may have met another ball too (or
      slowed to a stop and been struck again) and the straight unfolded path is no longer its path.
    - ``max_cushions``: the most cushions one gap is read to have; more images fit by chance.
    - ``angle_deg`` / ``angle_per_cushion_deg``: how far the direction seen after may turn from the one
      seen before, unfolded: the fits' noise, and a cushion's restitution bending the path at each.
    - ``off_mm`` / ``off_share``: how far the unfolded line after may pass from the line before, plus a
      share of the path unseen (the same bend, carried along it).
    - ``speed_slack``: the mean speed over the gap (the unfolded path's length over the time) may lie this
      share outside the speeds seen before and after (a ball only slows, but each speed is a fit).
    - ``min_speed_mm_s``: slower than this before or after, no cushion is read unseen: a slow ball is seen.
    """

    max_gap_s: float = 1.0
    max_cushions: int = 4
    angle_deg: float = 8.0
    angle_per_cushion_deg: float = 5.0
    off_mm: float = 30.0
    off_share: float = 0.05
    speed_slack: float = 0.2
    min_speed_mm_s: float = 300.0

    def __post_init__(self) -> None:
        for name in ("max_gap_s", "angle_deg", "off_mm", "min_speed_mm_s"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive (got {getattr(self, name)})")
        for name in ("angle_per_cushion_deg", "off_share", "speed_slack"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must not be negative (got {getattr(self, name)})")
        if self.max_cushions < 1:
            raise ValueError(f"max_cushions must be at least 1 (got {self.max_cushions})")


@dataclass(frozen=True)
class Seen:
    """A ball's line at one end of a gap: where it was at ``t`` (mm) and its velocity (mm/s)."""

    t: float
    xy: np.ndarray
    v: np.ndarray


# The sides a path crosses going up each axis from inside the table (then alternating), and going down.
_UP = {0: ("right", "left"), 1: ("top", "bottom")}
_DOWN = {0: ("left", "right"), 1: ("bottom", "top")}


def _image(x: float, v: float, k: int, low: float, high: float) -> tuple[float, float]:
    """The coordinate and velocity along one axis after ``k`` mirrorings (``k`` > 0: first at ``high``,
    < 0: first at ``low``) of the ball lines ``low`` and ``high``."""
    w = high - low
    if k % 2 == 0:
        return x + k * w, v
    return 2 * high - x + (k - 1) * w, -v


def _crossings(x0: float, x1: float, k: int, low: float, high: float) -> list[float]:
    """The fractions of the way from ``x0`` to ``x1`` (unfolded) at which the ``|k|`` mirrored ball lines
    are crossed, in order."""
    w = high - low
    walls = [high + j * w for j in range(k)] if k > 0 else [low - j * w for j in range(-k)]
    return [(wall - x0) / (x1 - x0) for wall in walls]


def _angle_deg(a: np.ndarray, b: np.ndarray) -> float:
    cos = float(np.dot(a, b)) / (float(np.hypot(*a)) * float(np.hypot(*b)))
    return math.degrees(math.acos(max(-1.0, min(1.0, cos))))


def _time_at(share: float, before: Seen, after: Seen) -> float:
    """When a ball whose speed fell evenly in time from ``before``'s to ``after``'s had covered ``share`` of
    its path between them."""
    span = after.t - before.t
    u0, u1 = float(np.hypot(*before.v)), float(np.hypot(*after.v))
    # s(tau) / s(span) = (u0 tau + (u1 - u0) tau^2 / (2 span)) / ((u0 + u1) span / 2)
    a, b, c = (u1 - u0) / (2 * span), u0, -share * (u0 + u1) * span / 2
    tau = -c / b if abs(a) < 1e-09 else (-b + math.sqrt(max(b * b - 4 * a * c, 0.0))) / (2 * a)
    return before.t + min(max(tau, 0.0), span)


def unseen_cushions(
    table: TableModel,
    before: Seen,
    after: Seen,
    config: UnfoldConfig | None = None,
    struck_at_most: float | None = None,
) -> list[tuple[str, float]] | None:
    """The cushions (side, time) a ball met between its line ``before`` a gap and its line ``after`` it,
    read from the one mirror image of the line after that continues the line before; [] where the straight
    path is that one; None where no image fits, more than one does, or the gap is too long or too slow.

    ``struck_at_most``: the ball was struck from rest at ``before.xy`` at ``before.t`` by a ball going this
    fast (mm/s), and ``before.v`` is only the direction it was sent in (the push along the line of centres);
    its speed then is taken as what brings it to the image of ``after`` in the time, slowing evenly to
    ``after``'s speed, and an image it would need to go faster than its striker for is refused (a ball of
    the same mass takes at most the striker's speed)."""
    cfg = config or UnfoldConfig()
    span = after.t - before.t
    u0, u1 = float(np.hypot(*before.v)), float(np.hypot(*after.v))
    struck = struck_at_most is not None
    if not 0 < span <= cfg.max_gap_s or min(u1, np.inf if struck else u0) < cfg.min_speed_mm_s or u0 == 0:
        return None
    r = table.ball_radius_mm
    bounds = ((r, table.width_mm - r), (r, table.length_mm - r))
    n = cfg.max_cushions
    fits: list[tuple[Seen, Seen, tuple[int, int]]] = []
    for kx in range(-n, n + 1):
        for ky in range(-(n - abs(kx)), n - abs(kx) + 1):
            image = _unfolded(after, (kx, ky), bounds)
            start = _sent(before, image) if struck else before
            if struck and float(np.hypot(*start.v)) > (1 + cfg.speed_slack) * (struck_at_most or 0.0):
                continue
            if _fits(start, image, (kx, ky), bounds, cfg, table):
                fits.append((start, image, (kx, ky)))
    if len(fits) != 1:
        return None
    start, image, ks = fits[0]
    return sorted(
        ((side, _time_at(share, start, image)) for side, share in _crossed(start, image, ks, bounds)),
        key=lambda m: m[1],
    )


def _sent(before: Seen, image: Seen) -> Seen:
    """``before`` (a ball struck from rest, ``v`` its direction) with the speed that takes it to ``image``
    (the line seen after, unfolded) in the time, slowing evenly to its speed (not slower than it)."""
    mean = float(np.hypot(*(image.xy - before.xy))) / (image.t - before.t)
    u1 = float(np.hypot(*image.v))
    direction = before.v / float(np.hypot(*before.v))
    return Seen(before.t, before.xy, direction * max(2 * mean - u1, u1))


def _unfolded(after: Seen, ks: tuple[int, int], bounds: tuple[tuple[float, float], ...]) -> Seen:
    x, vx = _image(float(after.xy[0]), float(after.v[0]), ks[0], *bounds[0])
    y, vy = _image(float(after.xy[1]), float(after.v[1]), ks[1], *bounds[1])
    return Seen(after.t, np.array([x, y]), np.array([vx, vy]))


def _fits(
    before: Seen,
    image: Seen,
    ks: tuple[int, int],
    bounds: tuple[tuple[float, float], ...],
    cfg: UnfoldConfig,
    table: TableModel,
) -> bool:
    """Whether ``image``, the line seen after mirrored ``ks`` times along each axis, continues ``before``."""
    chord = image.xy - before.xy
    length = float(np.hypot(*chord))
    cushions = abs(ks[0]) + abs(ks[1])
    if length == 0:
        return False
    turn = cfg.angle_deg + cfg.angle_per_cushion_deg * cushions
    if _angle_deg(before.v, image.v) > turn or _angle_deg(before.v, chord) > turn:
        return False
    off = cfg.off_mm + cfg.off_share * length
    if off_line(image.xy, before.xy, before.v) > off or off_line(before.xy, image.xy, image.v) > off:
        return False
    u0, u1 = float(np.hypot(*before.v)), float(np.hypot(*image.v))
    mean = length / (image.t - before.t)
    if not (1 - cfg.speed_slack) * min(u0, u1) <= mean <= (1 + cfg.speed_slack) * max(u0, u1):
        return False
    crossed = _crossed(before, image, ks, bounds)
    if not crossed:
        return True
    # A ball line met in a pocket's mouth: there the ball drops, it does not come back.
    points = np.array([_folded(before.xy + share * chord, bounds) for _, share in crossed])
    return not bool(in_pockets(table, points, 0.0).any())


def _crossed(
    before: Seen, image: Seen, ks: tuple[int, int], bounds: tuple[tuple[float, float], ...]
) -> list[tuple[str, float]]:
    """The cushions the straight unfolded path from ``before`` to ``image`` crosses: each side, with the
    share of the way at which it does."""
    crossed = []
    for axis in (0, 1):
        k = ks[axis]
        sides = _UP[axis] if k > 0 else _DOWN[axis]
        shares = _crossings(float(before.xy[axis]), float(image.xy[axis]), k, *bounds[axis])
        crossed += [(sides[j % 2], share) for j, share in enumerate(shares)]
    return crossed


def _folded(p: np.ndarray, bounds: tuple[tuple[float, float], ...]) -> np.ndarray:
    """The point on the real table that the unfolded point ``p`` is an image of."""
    out = []
    for axis in (0, 1):
        low, high = bounds[axis]
        w = high - low
        u = (float(p[axis]) - low) % (2 * w)
        out.append(low + (u if u <= w else 2 * w - u))
    return np.array(out)


# The lines either side of a gap must fit their samples to this (mm, root mean square): a line through a
# contact is two lines.
LINE_RMS_MM = 8.0


def gap_cushions(
    samples: Sequence[Sample],
    i: int,
    table: TableModel,
    span: int,
    start: int = 0,
    config: UnfoldConfig | None = None,
) -> list[tuple[str, float]]:
    """The cushions a ball met unseen in the gap between samples ``i`` and ``i + 1`` (``unseen_cushions``),
    from the lines through the ``span`` samples either side (none before ``start``, where it left rest; two
    at least before); [] where the split is no gap, a line does not fit, or the unfolding says nothing."""
    before = samples[max(i - span + 1, start, 0) : i + 1]
    after = samples[i + 1 : i + 1 + span]
    if len(before) < 2 or len(after) < span:
        return []
    # Read at every split of every ball: the gap is told in plain Python, the lines fitted only across one.
    times = [x[0] for x in (*before, *after)]
    steps = [b - a for a, b in pairwise(times)]
    gap = steps.pop(len(before) - 1)
    frame = min(steps)  # the shortest step of the lines either side
    if gap <= GAP_FRAMES * frame or max(steps) > GAP_FRAMES * frame:
        return []
    lines = []
    for part, t in ((before, before[-1][0]), (after, after[0][0])):
        a, v, residual = fit_line(part, t)
        if residual > len(part) * LINE_RMS_MM**2:
            return []
        lines.append(Seen(t, a, v))
    return unseen_cushions(table, lines[0], lines[1], config) or []


def departure_cushions(
    samples: Sequence[Sample],
    k: int,
    rest: np.ndarray,
    striker: Sequence[Sample],
    t0: float,
    table: TableModel,
    span: int,
    window: int,
    config: UnfoldConfig | None = None,
) -> list[tuple[str, float]]:
    """The cushions a ball struck from rest at ``rest`` at ``t0`` by the ball of samples ``striker`` met
    before the first line it was seen moving on (``span`` samples in a row from sample ``k`` on, its first in
    motion, that fit one): a ball struck hard is lost in its blur at once, and seen again after a cushion or
    three. It was sent along the line of centres, at most as fast as its striker came (fitted to its last
    ``window + 1`` samples then). [] where it was seen moving at once, no such line comes within
    ``max_gap_s``, or the unfolding says nothing."""
    cfg = config or UnfoldConfig()
    times = np.array([x[0] for x in samples[k:]])
    q = position_at(striker, t0)
    if len(times) < span or q is None or float(np.hypot(*(rest - q))) == 0:
        return []
    direction = (rest - q) / float(np.hypot(*(rest - q)))
    steps = np.diff(times)
    frame = float(steps.min(initial=np.inf))
    for j in range(len(times) - span + 1):
        if times[j] - t0 > cfg.max_gap_s:
            return []
        if not np.all(steps[j : j + span - 1] <= GAP_FRAMES * frame):
            continue
        if j == 0 and times[0] - t0 <= GAP_FRAMES * frame:
            return []  # seen moving at once: its lines are read split by split
        part = samples[k + j : k + j + span]
        a, v, residual = fit_line(part, part[0][0])
        if residual > span * LINE_RMS_MM**2:
            return []
        fastest = float(np.hypot(*velocity_before(striker, t0, window)))
        sent = Seen(t0, np.asarray(rest, np.float64), direction)
        return unseen_cushions(table, sent, Seen(part[0][0], a, v), cfg, struck_at_most=fastest) or []
    return []
