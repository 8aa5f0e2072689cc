"""How big the balls are against the table, read in a top view of the bed (``table_geometry.top_view``),
before any camera is fitted: what tells a 6 ft table from a 12 ft one (``table_geometry.choose_size``).

A ball's size is the short axis of its outline. The outline is the outermost sharp edge round a blob off
the cloth, found along rays from its middle and fitted with an ellipse, for four reasons the blob's own
area (what was measured before, 20-35 % large on Arbiter's renders) gets wrong, each measured on Arbiter's
renders against their truth:

- a ball is a sphere, its middle a radius above the bed: seen off the camera's axis its outline is an
  ellipse stretched away from the point under the camera by about 1/cos of the angle off the axis. A wide
  lens over a long table stretches the balls at its ends by 30 %; the short axis, across that direction,
  keeps the ball's size, whichever way it lies in the view;
- a ball's contact shadow joins its blob (+8 % on the area's size): a shadow's edge is soft, a ball's
  outline sharp, so the sharpest edge on most rays is the ball's and the fit drops the rest;
- a blob was kept only when its box was big enough in the image (``MIN_BALL_PX``): on a table seen small
  that kept the stretched and shadowed balls and dropped the true-sized ones (+17 % more on a 12 ft
  snooker table 1100 px long). The size limit is now the median ball's, after measuring;
- a lens's barrel or pincushion swells or shrinks the middle of the table against its corners (+-3 %):
  the top view is made from the image straightened by the bend the finder saw (``TableCorners.k1``).

Read so, 32 renders of 12, 10, 9, 6 ft snooker and 9, 8, 7 ft pool tables (1280x720, lenses of 60-90
degrees) come out within -3 % and +6 % of their truth (1.6 % RMS), the first frames of 16 rendered
clips (video-compressed) within -8 % and 0 %, pooltool's overhead views within -4 % and 0 %. A ball
set of the cloth's own colour (red balls on a red cloth) shows only its highlights: an outline closed
round a highlight or a spot is smaller than any catalogue's ball and is not counted, so the other
colours measure the table; where nothing else is left, nothing is said.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.cloth_colour import ClothColourModel
from vision.points import nearest_distance

# Candidates: blobs off the cloth, inside the bed, about round, of a size some table could have.
BED_MARGIN = 0.03  # share of the width kept clear of the cushions and pockets
SIZE_RANGE = (1 / 120, 1 / 14)  # ball diameter as a share of the length, any table in any catalogue
ROUNDNESS = (0.8, 1.15)  # blob area / its bounding ellipse's: a disk ~1 (more in pixels), a pair ~0.5
CONTRAST = 20.0  # Lab units off the cloth that start a ball's blob
SHADOW_WEIGHT = 0.5  # darker than the cloth counts this much: contact shadows are not balls
# The outline: the strongest colour edge on each of OUTLINE_RAYS rays from the blob's middle, between
# OUTLINE_REACH of the blob's own radius, read every OUTLINE_STEP px of the view smoothed by EDGE_SIGMA px.
OUTLINE_RAYS = 48
OUTLINE_REACH = (0.3, 1.6)
OUTLINE_STEP = 0.25
EDGE_SIGMA = 0.7
AB_WEIGHT = 2.0  # colour (a*, b*) against lightness in the edge strength: a ball's shaded side is
# as dark as the cloth but not its colour, while its shading's terminator inside it is a lightness edge
EDGE_SHARE = 0.4  # an outline's edge is at least this share of the typical ray's strongest edge
OUTLINE_FIT = 0.12  # edge points this far (share of the radius) off the fitted ellipse are not the ball
MIN_OUTLINE = 0.5  # share of the rays that must agree on the outline
MAX_STRETCH = 1.6  # long axis over short: a sphere 50 degrees off the axis; more is two balls or a hand
# What the balls say: the largest group of outlines whose sizes agree within SPREAD of each other (the
# balls; a spot, a chalk mark or a ball half under a cue is an odd one out), read as its median. Nothing
# when that group holds fewer than MIN_BALLS or under MAJORITY of the outlines (the sizes disagree: a ball
# set of the cloth's own colour shows only highlights), or when its balls are under MIN_BALL_PX across in
# the image itself. Two balls are enough: a frame's end or a practice table holds few, and the game's own
# size taken silently in their place put a 6 ft table's two balls on a 12 ft table.
MIN_BALLS = 2
MAJORITY = 0.6
MIN_BALL_PX = 10.0
SPREAD = 0.2
# Pale balls on a cloth of their shade lit from one side (ivory balls on a light grey cloth) show their lit
# half and lose their shaded half against the cloth: the outline closes on the shading's terminator, a
# great circle seen as an ellipse as long as the ball is wide, so the short axis comes out 18-21 % small
# (a 10 ft table read as 12 ft, sure) and the long axis right. A camera stretches an outline too, away from
# the point under it, so the long axis of a ball at a table's end is the longer; the median outline of
# 104 rendered first frames of every catalogue size (overhead and projector rooms) was at most 1.19 times
# longer than wide where the short axis was right, 1.25 where it was not, and the real photos' 1.04-1.13.
# Past SHADED_STRETCH the size is read on the long axes and said to be unsure (``BallMeasure.shaded``).
SHADED_STRETCH = 1.22
# A ball's outline is read round it (``outline_scale``) where no other ball lies within this many of the
# radii expected: rays reach 1.6 of them, and should end on its own rim, not a neighbour's, were it 1.4
# times as big.
LONE_APART = 3.5


@dataclass(frozen=True)
class BallMeasure:
    """What the balls' outlines say: ``share`` the balls' diameter as a share of the table's length (None:
    nothing measurable), ``stretch`` the median outline's long axis over its short (None: no outline)."""

    share: float | None
    stretch: float | None = None

    @property
    def shaded(self) -> bool:
        """The outlines are longer than a camera stretches them: their shaded sides are lost."""
        return self.stretch is not None and self.stretch > SHADED_STRETCH


def measure_balls(view: np.ndarray, cloth: ClothColourModel, length_px: float) -> BallMeasure:
    """The balls' diameter as a share of the table's length: the median short axis of the outlines of
    round blobs off the cloth in ``view`` (a top view whose height is the table's length) that agree with
    each other (``agreeing_sizes``); the long axes where the outlines are ``shaded``. No share with fewer
    than MIN_BALLS (two) agreeing, or under MAJORITY of the outlines, with a median ball under MIN_BALL_PX
    across in the image itself (``length_px`` is the table's length there): an empty table, or one too
    small in the frame, says nothing of its size."""
    diff = _cloth_difference(cv2.cvtColor(view, cv2.COLOR_BGR2LAB), cloth)
    h = diff.shape[0]
    edges = _edge_strength(view)
    outlines = []
    for centre, radius in _candidates(diff):
        axes = _outline_axes(edges, centre, radius)
        if axes is not None and axes[1] <= MAX_STRETCH * axes[0] and _ball_sized(axes[0], h):
            outlines.append(axes)
    if not outlines:
        return BallMeasure(None)
    stretch = float(np.median([long / short for short, long in outlines]))
    axis = 1 if stretch > SHADED_STRETCH else 0
    group = agreeing_sizes([axes[axis] / h for axes in outlines])
    if len(group) < max(MIN_BALLS, MAJORITY * len(outlines)):
        return BallMeasure(None, stretch)
    median = float(np.median(group))
    return BallMeasure(None if median * length_px < MIN_BALL_PX else median, stretch)


def outline_scale(image: np.ndarray, centres: np.ndarray, expected: np.ndarray) -> float | None:
    """How many times bigger the balls' outlines in ``image`` (BGR) are than ``expected`` (N,: the radius in
    px a calibration expects at each of ``centres``, N x 2 px, where balls were found): the median, over the
    lone balls (no other within LONE_APART of their expected radii: a rack's rays end on its neighbours'
    rims) whose ratios agree (``agreeing_sizes``), of half an outline's short axis over the radius expected
    there. Outlines are read as ``measure_balls`` reads them, in a window round each ball, out to
    OUTLINE_REACH of the radius expected, so a size up to about 1.5 times it is measured. None with fewer
    than MIN_BALLS agreeing, or under MAJORITY of the outlines found."""
    h, w = image.shape[:2]
    centres = np.asarray(centres, np.float64).reshape(-1, 2)
    expected = np.broadcast_to(np.asarray(expected, np.float64), len(centres))
    lone = nearest_distance(centres, centres, itself=True) > LONE_APART * expected
    ratios = []
    for (x, y), radius in zip(centres[lone], expected[lone], strict=True):
        half = math.ceil(OUTLINE_REACH[1] * radius) + 4
        x0, y0 = max(0, int(x) - half), max(0, int(y) - half)
        x1, y1 = min(w, int(x) + half + 1), min(h, int(y) + half + 1)
        if x1 - x0 < 2 * half or y1 - y0 < 2 * half:  # cut by the frame: its outline is not all there
            continue
        axes = _outline_axes(_edge_strength(image[y0:y1, x0:x1]), np.array([x - x0, y - y0]), radius)
        if axes is not None and axes[1] <= MAX_STRETCH * axes[0]:
            ratios.append(axes[0] / 2 / radius)
    group = agreeing_sizes(ratios)
    if len(group) < max(MIN_BALLS, MAJORITY * len(ratios)):
        return None
    return float(np.median(group))


def _ball_sized(short_axis: float, length_px: float) -> bool:
    """Whether an outline's short axis is the size some table's ball could have (``SIZE_RANGE``): a blob
    starts as one at its box, but the outline found round a spot or a ball's highlight alone (a red on a red
    cloth shows little else) closes smaller than any catalogue's ball."""
    return bool(SIZE_RANGE[0] * length_px <= short_axis <= SIZE_RANGE[1] * length_px)


def agreeing_sizes(sizes: list[float]) -> list[float]:
    """The largest group of ``sizes`` within SPREAD of each other (the largest-sized such group on a tie)."""
    ordered = sorted(sizes)
    best: list[float] = []
    for i, low in enumerate(ordered):
        group = [s for s in ordered[i:] if s <= low * (1 + SPREAD)]
        if len(group) >= len(best):
            best = group
    return best


def _cloth_difference(lab: np.ndarray, cloth: ClothColourModel) -> np.ndarray:
    """Lab distance from the cloth's colour, darker-than-cloth counted half (contact shadows are cloth)."""
    ab = lab[..., 1:3].astype(np.float32) - cloth.ab_mean
    dl = lab[..., 0].astype(np.float32) - cloth.l_median
    dl = np.where(dl > 0, dl, SHADOW_WEIGHT * dl)
    return np.asarray(np.sqrt(np.sum(ab * ab, axis=-1) + dl * dl))


def _edge_strength(view: np.ndarray) -> np.ndarray:
    """How fast the colour changes at each pixel (Lab gradient magnitude, per px): a ball's outline is a
    step of its colour against the cloth's or its shadow's, the shadow's own edge a slow ramp."""
    weights = np.array([1.0, AB_WEIGHT, AB_WEIGHT], np.float32)
    lab = cv2.GaussianBlur(
        cv2.cvtColor(view, cv2.COLOR_BGR2LAB).astype(np.float32) * weights, (0, 0), EDGE_SIGMA
    )
    gx = cv2.Sobel(lab, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(lab, cv2.CV_32F, 0, 1, ksize=3)
    return np.asarray(np.sqrt(np.sum(gx * gx + gy * gy, axis=2)) / 8)


def _candidates(diff: np.ndarray) -> list[tuple[np.ndarray, float]]:
    """The middle and a first radius (px) of every round blob off the cloth of a size some table's balls
    could have: the centroid and area of the blob at half its own contrast (shadows and the outline's
    blur are sorted out by the outline itself)."""
    h, w = diff.shape
    m = max(1, int(BED_MARGIN * w))
    diff = diff.copy()
    diff[:m], diff[h - m :], diff[:, :m], diff[:, w - m :] = 0, 0, 0, 0
    off = cv2.morphologyEx((diff > CONTRAST).astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, comps, stats, _ = cv2.connectedComponentsWithStats(off, connectivity=8)
    lo, hi = SIZE_RANGE[0] * h, SIZE_RANGE[1] * h
    out = []
    for i in range(1, n):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        round_ = ROUNDNESS[0] <= area / (math.pi / 4 * bw * bh) <= ROUNDNESS[1]
        if not (lo <= max(bw, bh) and min(bw, bh) <= hi and max(bw, bh) <= 2 * min(bw, bh) and round_):
            continue
        y0, y1 = max(0, y - bh // 2), min(h, y + bh + bh // 2)
        x0, x1 = max(0, x - bw // 2), min(w, x + bw + bw // 2)
        window, inside = diff[y0:y1, x0:x1], comps[y0:y1, x0:x1] == i
        near = cv2.dilate(inside.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
        core = (window > 0.5 * float(np.percentile(window[inside], 90))) & near
        ys, xs = np.nonzero(core)
        if len(xs):
            out.append((np.array([xs.mean() + x0, ys.mean() + y0]), math.sqrt(len(xs) / math.pi)))
    return out


def _outline_axes(edges: np.ndarray, centre: np.ndarray, radius: float) -> tuple[float, float] | None:
    """The short and long axes (px) of the ellipse through the outermost strong edge on each ray from
    ``centre`` (``_outermost_edge``), after the rays that disagree with it are dropped (a shadow's edge,
    a highlight); the ellipse is fitted twice, the second time round its own middle. None when too few
    rays agree."""
    angles = np.linspace(0.0, 2 * math.pi, OUTLINE_RAYS, endpoint=False)
    reach = np.arange(OUTLINE_REACH[0] * radius, OUTLINE_REACH[1] * radius + 1.0, OUTLINE_STEP)
    axes = None
    for _ in range(2):
        px = (centre[0] + np.outer(np.cos(angles), reach)).astype(np.float32)
        py = (centre[1] + np.outer(np.sin(angles), reach)).astype(np.float32)
        strength = cv2.remap(edges, px, py, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        at = _outermost_edge(strength)
        rays = np.arange(OUTLINE_RAYS)
        points = np.stack([px[rays, at], py[rays, at]], axis=1)
        fitted = _fit_ellipse(points)
        if fitted is None:
            return None
        centre, axes = fitted
    return axes


def _outermost_edge(strength: np.ndarray) -> np.ndarray:
    """Per ray (a row of ``strength``), the outermost local peak of the edge strength at least EDGE_SHARE
    of the typical ray's strongest: a ball's outline, not the rim of its number disc or a stripe inside it
    (often stronger), nor its shadow's soft edge outside it (weaker)."""
    peak = np.zeros(strength.shape, bool)
    peak[:, 1:-1] = (strength[:, 1:-1] >= strength[:, :-2]) & (strength[:, 1:-1] >= strength[:, 2:])
    peak &= strength >= EDGE_SHARE * float(np.median(strength.max(axis=1)))
    last = strength.shape[1] - 1 - np.argmax(peak[:, ::-1], axis=1)
    return np.where(peak.any(axis=1), last, np.argmax(strength, axis=1))


def _fit_ellipse(points: np.ndarray) -> tuple[np.ndarray, tuple[float, float]] | None:
    """An ellipse through ``points``, refitted without those off it by more than OUTLINE_FIT: its middle
    and its (short, long) axes, or None when fewer than MIN_OUTLINE of the points are on it."""
    keep = np.ones(len(points), bool)
    for _ in range(2):
        if keep.sum() < max(6, MIN_OUTLINE * len(points)):
            return None
        (cx, cy), (a, b), angle = cv2.fitEllipse(points[keep].astype(np.float32))
        if min(a, b) <= 0:
            return None
        t = math.radians(angle)
        rot = np.array([[math.cos(t), math.sin(t)], [-math.sin(t), math.cos(t)]])
        q = (points - [cx, cy]) @ rot.T
        rho = np.sqrt((q[:, 0] / (a / 2)) ** 2 + (q[:, 1] / (b / 2)) ** 2)
        keep = np.abs(rho - np.median(rho[keep])) < OUTLINE_FIT
    if keep.sum() < max(6, MIN_OUTLINE * len(points)):
        return None
    return np.array([cx, cy]), (min(a, b), max(a, b))
