"""Plane geometry of a ball's path on the table (mm): whether it crosses a pocket's mouth, how far a point
lies from a stretch of path, how far each ball is from its nearest neighbour. Pure functions for the
tracker (``tracking.tracker``) and the event detector (``tracking.events``)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from itertools import pairwise

import numpy as np

from arbiter.tables import Pocket, TableModel

# A ball's path fitted to its first sightings: where it was at time t, its velocity then, and t.
StruckLine = tuple[np.ndarray, np.ndarray, float]

XY = tuple[float, float]
# Where a ball drops, in ball radii behind a pocket's mouth line (``Pocket.mouth_xy_mm``): a middle pocket's
# fall starts just behind the cushions' noses, a corner pocket's well behind its jaws. Read off the truth of
# rendered pots (the ball's last place before it drops: middle pockets 3-13 mm behind the line, corners
# 13-40 mm, slow balls the deepest), for timing a pot whose ball was lost before it dropped.
DROP_DEPTH_R = {"middle": 0.4, "corner": 1.3}
# No ball rests with its centre this many radii past a pocket's mouth line: it would drop. A new sighting
# there is a hand, a cue's ferrule or the pocket's leather (a bridge hand over a pyramid table's corner
# pocket, read as a ball from the first frame, was potted when the hand left).
NO_REST_BEHIND_MOUTH_R = 1.0
# A ball lost less than this after it left rest was struck on a pocket's lip: its speed is not yet measured,
# and it drops at once.
JUST_STRUCK_S = 0.1


def mouth_depth(pocket: Pocket, xy: XY) -> float:
    """How far ``xy`` lies inside the table from ``pocket``'s mouth line (mm; negative behind it)."""
    mx, my = pocket.mouth_xy_mm
    return (xy[0] - mx) * pocket.inward[0] + (xy[1] - my) * pocket.inward[1]


def in_pockets(table: TableModel, xy_mm: np.ndarray, radius_mm: float, behind_mm: float = 0.0) -> np.ndarray:
    """Which pockets each ball centre (N, 2 mm) is in (N, P bool, P the table's pockets): in the mouth (within
    half the opening and ``radius_mm`` of its middle) or past the mouth's line between the jaws
    (``mouth_depth`` below zero, along the line within half the opening and ``radius_mm`` of its middle).
    ``behind_mm``: only past the line by more than that (the mouth itself left out)."""
    xy = np.asarray(xy_mm, np.float64).reshape(-1, 2)
    if not table.pockets:  # a carom table
        return np.zeros((len(xy), 0), bool)
    mouths = np.array([p.mouth_xy_mm for p in table.pockets], np.float64)
    inward = np.array([p.inward for p in table.pockets], np.float64)
    reach = np.array([p.opening_mm / 2 for p in table.pockets]) + radius_mm
    off = xy[:, None, :] - mouths[None, :, :]  # (N, P, 2)
    depth = (off * inward[None]).sum(axis=2)
    along = off[..., 1] * inward[None, :, 0] - off[..., 0] * inward[None, :, 1]
    past = (depth < -behind_mm) & (np.abs(along) <= reach[None, :])
    if behind_mm > 0.0:
        return np.asarray(past)
    return np.asarray(past | (np.hypot(off[..., 0], off[..., 1]) <= reach[None, :]))


def where_no_ball_rests(table: TableModel, xy_mm: np.ndarray) -> np.ndarray:
    """The pocket (index into ``table.pockets``) each point (N, 2 mm) lies past the mouth line of by
    ``NO_REST_BEHIND_MOUTH_R`` radii (``in_pockets``), -1 where none: where no ball rests, and only a ball
    followed into the pocket is seen."""
    r = table.ball_radius_mm
    deep = in_pockets(table, xy_mm, r, NO_REST_BEHIND_MOUTH_R * r)
    if not deep.shape[1]:
        return np.full(len(deep), -1, np.int64)
    return np.where(deep.any(axis=1), deep.argmax(axis=1), -1).astype(np.int64)


def mouths_at(table: TableModel, xy: XY) -> list[int]:
    """The pockets (indices) a ball at ``xy`` may be going into: in a mouth, within a ball's width of its
    middle's reach, or past its line."""
    return [int(j) for j in np.flatnonzero(in_pockets(table, np.array(xy), table.ball_diameter_mm)[0])]


def into_mouth(pocket: Pocket, xy: XY, velocity: XY) -> bool:
    """Whether a ball at ``xy`` going straight on at ``velocity`` crosses the line between the pocket's jaws
    between them (its centre within half the opening of the mouth's middle)."""
    mx, my = pocket.mouth_xy_mm
    ix, iy = pocket.inward
    depth = mouth_depth(pocket, xy)
    toward = -(velocity[0] * ix + velocity[1] * iy)  # speed toward that line
    if toward <= 0:
        return False
    u = depth / toward  # seconds to the line
    return math.dist((xy[0] + velocity[0] * u, xy[1] + velocity[1] * u), (mx, my)) <= pocket.opening_mm / 2


def time_to_drop(pocket: Pocket, xy: XY, velocity: XY, radius_mm: float) -> float | None:
    """The seconds a ball at ``xy`` takes at ``velocity`` to the fall behind ``pocket``'s mouth
    (``DROP_DEPTH_R``), or None when it is not going toward the pocket. At its speed, not the share of it
    toward the pocket: a ball running along the mouth drops once it is over the hole (a pool ball rattling
    along a middle pocket's far jaw); a slow one lost in the jaws' shadow rolls on unseen until it drops
    (a black into a black pocket, a ball crawling into a middle pocket)."""
    if velocity[0] * pocket.inward[0] + velocity[1] * pocket.inward[1] >= 0:
        return None
    fall = DROP_DEPTH_R["corner" if pocket.corner else "middle"] * radius_mm
    return max(0.0, mouth_depth(pocket, xy) + fall) / math.hypot(*velocity)


def struck_away(point: XY, velocity: XY, rest: XY, diameter_mm: float) -> XY | None:
    """The velocity (mm/s) a ball at rest at ``rest`` leaves with when struck by a ball of its mass coming
    along the line through ``point`` at ``velocity``: the striker's velocity along the line of their centres
    at contact, where the striker's path first comes ``diameter_mm`` from ``rest`` (the ghost ball; where
    the path passes further off, its nearest point: a thin touch the fit missed). None when the striker was
    not coming towards it."""
    vx, vy = velocity
    speed2 = vx * vx + vy * vy
    if speed2 == 0.0:
        return None
    dx, dy = rest[0] - point[0], rest[1] - point[1]
    ahead = (dx * vx + dy * vy) / speed2  # seconds along the path to its nearest point to ``rest``
    miss2 = dx * dx + dy * dy - ahead * ahead * speed2  # that nearest distance, squared
    back = math.sqrt(max(0.0, diameter_mm * diameter_mm - miss2) / speed2)
    cx, cy = point[0] + vx * (ahead - back), point[1] + vy * (ahead - back)
    apart = math.dist((cx, cy), rest)
    if ahead <= 0.0 or apart == 0.0:
        return None
    n = ((rest[0] - cx) / apart, (rest[1] - cy) / apart)
    along = vx * n[0] + vy * n[1]
    return (along * n[0], along * n[1]) if along > 0.0 else None


def first_reach(
    samples: Sequence[tuple[float, float, float]], point: XY, reach: float, t_from: float, t_to: float
) -> float | None:
    """When a ball's samples (t, x, y) first come within ``reach`` of ``point`` between ``t_from`` and
    ``t_to``, interpolated between the sightings either side (a striker's centre two radii from the ball it
    strikes: the contact); at its closest sighting there where it never does; None without sightings."""
    seen = [(s[0], math.dist((s[1], s[2]), point)) for s in samples if t_from <= s[0] <= t_to]
    if not seen:
        return None
    for (ta, da), (tb, db) in zip([(math.nan, math.inf), *seen], seen, strict=False):
        if db <= reach:
            return tb if not da > reach or math.isnan(ta) else ta + (da - reach) / (da - db) * (tb - ta)
    return min(seen, key=lambda s: s[1])[0]


def sighting_times(
    paths: Sequence[Sequence[tuple[float, float, float]]], t_from: float, t_to: float, but: float
) -> list[float]:
    """The times (in order, each once) the balls of ``paths`` (samples t, x, y) were seen after ``t_from``
    up to ``t_to``, ``but`` left out."""
    return sorted({s[0] for samples in paths for s in samples if t_from < s[0] <= t_to and s[0] != but})


def struck_unseen(
    line: StruckLine,
    strikers: Mapping[str, Sequence[tuple[float, float, float]]],
    radius_mm: float,
    within_s: float,
) -> tuple[str, float] | None:
    """Which ball struck a ball first seen already moving (found only once struck), and when: ``line`` is
    the struck ball's path fitted to its first sightings (where it was at time ``t``, its velocity, ``t``).
    A struck ball leaves along the line of centres, so at the contact the striker's centre lay on that line,
    two radii behind where the ball rested: the striker is the one whose path (``strikers``: samples of
    t, x, y) crossed the line behind the ball, moving along it, at most ``within_s`` before its first
    sighting, at a time that has the ball roll from its rest to its first sighting at 0.7 to 2.5 times its
    speed then (it slows as it goes); of several, the one whose time fits that speed best. None where none.
    """
    a, v, t_ref = line
    speed = float(np.hypot(*v))
    if speed <= 0:
        return None
    u = v / speed
    best: tuple[float, str, float] | None = None
    for ball, samples in strikers.items():
        near = [p for p in samples if t_ref - within_s <= p[0] <= t_ref]
        for (t1, *q1), (t2, *q2) in pairwise(near):
            d1, d2 = (float(u[0] * (q[1] - a[1]) - u[1] * (q[0] - a[0])) for q in (q1, q2))
            if d1 * d2 > 0 or d1 == d2 or float(np.dot(np.subtract(q2, q1), u)) <= 0:
                continue
            share = d1 / (d1 - d2)
            tc = t1 + share * (t2 - t1)
            rested = float(np.dot(np.add(q1, share * np.subtract(q2, q1)) - a, u)) + 2 * radius_mm
            if rested >= 0 or tc >= t_ref:
                continue
            ratio = -rested / (t_ref - tc) / speed
            if 0.7 <= ratio <= 2.5 and (best is None or abs(math.log(ratio)) < best[0]):
                best = (abs(math.log(ratio)), ball, tc)
    return None if best is None else (best[1], best[2])


def to_segment(p: XY, a: XY, b: XY) -> float:
    """The distance from ``p`` to the segment from ``a`` to ``b``."""
    ab = (b[0] - a[0], b[1] - a[1])
    length2 = ab[0] ** 2 + ab[1] ** 2
    f = 0.0 if length2 == 0 else ((p[0] - a[0]) * ab[0] + (p[1] - a[1]) * ab[1]) / length2
    f = min(1.0, max(0.0, f))
    return math.dist(p, (a[0] + f * ab[0], a[1] + f * ab[1]))


def position_at(samples: Sequence[tuple[float, float, float]], t: float) -> np.ndarray | None:
    """Where a ball's samples (t, x, y) put it at ``t``: between two, on the line joining them; before the
    first or after the last, there, within 0.1 s (None further off)."""
    if not samples or t < samples[0][0] - 0.1:
        return None
    times = np.fromiter((x[0] for x in samples), float, len(samples))
    i = int(np.searchsorted(times, t))
    if i <= 0:
        return np.array(samples[0][1:])
    if i >= len(samples):
        return np.array(samples[-1][1:]) if t - samples[-1][0] < 0.1 else None
    (t0, x0, y0), (t1, x1, y1) = samples[i - 1], samples[i]
    f = (t - t0) / (t1 - t0) if t1 > t0 else 0.0
    return np.array([x0 + f * (x1 - x0), y0 + f * (y1 - y0)])
