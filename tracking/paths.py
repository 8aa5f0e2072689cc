"""Plane geometry of a ball's path on the table (mm): whether it crosses a pocket's mouth, how far a point
lies from a stretch of path, how far each ball is from its nearest neighbour. Pure functions for the
tracker (``tracking.tracker``)."""

from __future__ import annotations

import math

import numpy as np

from arbiter.tables import Pocket

XY = tuple[float, float]


def into_mouth(pocket: Pocket, xy: XY, velocity: XY) -> bool:
    """Whether a ball at ``xy`` going straight on at ``velocity`` crosses the line between the pocket's jaws
    between them (its centre within half the opening of the mouth's middle)."""
    mx, my = pocket.mouth_xy_mm
    ix, iy = pocket.inward
    depth = (xy[0] - mx) * ix + (xy[1] - my) * iy  # how far inside the table, from the mouth's line
    toward = -(velocity[0] * ix + velocity[1] * iy)  # speed toward that line
    if toward <= 0:
        return False
    u = depth / toward  # seconds to the line
    return math.dist((xy[0] + velocity[0] * u, xy[1] + velocity[1] * u), (mx, my)) <= pocket.opening_mm / 2


def nearest_distance(xy: np.ndarray, places: np.ndarray, itself: bool = False) -> np.ndarray:
    """The distance from each point (N x 2) to the nearest of ``places`` (M x 2; inf when there are none).
    ``itself``: the places are the points, and none is its own nearest."""
    if not len(xy) or not len(places):
        return np.full(len(xy), np.inf)
    apart = np.linalg.norm(xy[:, None, :] - places[None, :, :], axis=2)
    if itself:
        np.fill_diagonal(apart, np.inf)
    return np.asarray(apart.min(axis=1))


def to_segment(p: XY, a: XY, b: XY) -> float:
    """The distance from ``p`` to the segment from ``a`` to ``b``."""
    ab = (b[0] - a[0], b[1] - a[1])
    length2 = ab[0] ** 2 + ab[1] ** 2
    f = 0.0 if length2 == 0 else ((p[0] - a[0]) * ab[0] + (p[1] - a[1]) * ab[1]) / length2
    f = min(1.0, max(0.0, f))
    return math.dist(p, (a[0] + f * ab[0], a[1] + f * ab[1]))
