"""A broadcast's score bar over the table, told from one frame once the table is known.

``vision.broadcast.StaticOverlay`` learns graphics from frames in which the picture changed under them; a
fixed camera never changes enough, so a run's score bar over the near cushion went unmasked and its
letters (round, white, shiny: an O, a B, a 5) were read as balls at rest: false contacts, pots held
because a "ball" lay on the path, a real ball's colour taken by a letter. One frame tells a bar from the
table where the table is known: inside the playing area everything is cloth but what lies on it (balls,
a cue, an arm, a shadow), and a bar is the one thing there that is not cloth over a wide, tall stretch
with a straight, screen-level edge toward the cloth and, on its other side, another such edge or the
table's end (it was laid over the frame, not set on the cloth). A cushion's shadow is too thin, an arm has
no straight edge, a pocket's throat is too narrow, a cluster of balls is round, a row of them no higher
than a ball. ``bar_over_table`` gives the bar's part of
the frame as a polygon (image px), which the calibration joins to the table the image does not show
(``unseen_outline``, kept as ``TableCalibration.unseen_px``): the detector never looks there.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.camera_profile import TableCalibration
from vision.cloth_colour import ClothColourModel, working_copy

MIN_WIDTH = 0.08  # share of the frame's width the bar covers over the table, at least
MIN_HEIGHT = 0.01  # share of the frame's height the bar covers over the table, at least
MIDDLE = 0.1  # the columns this share in from each end of the bar are left out of its edge (pockets' throats)
FLAT_PX = 1.5  # working px: a column's edge this near the bar's median edge is on the straight edge ...
LEVEL_SHARE = 0.7  # ... and at least this share of the columns must be (an arm, a cue, a ball over the rest)
FLAT_SHARE = 0.85  # the share of the columns along which a bar runs on the table's end
BALLS_HIGH = 1.4  # a bar over the cloth is more than this many of the balls' widths there high
FILLED = 0.85  # share of the table between the bar's edge and the table's end that is not cloth
REACH_PX = 2  # working px: the bar reaches this near the table's end in its columns
PAD_PX = 3.0  # image px the bar is grown by: its edge's blur and the letters' halo
# Printed matter is no cloth: a pixel this many grey levels off its surroundings (blurred over PRINT_SIGMA
# image px), averaged onto the working copy. A bar's white letters on its dark ground, averaged so, are as
# grey as a grey cloth (broadcast 9492's shot 5: the bar over the near end's right half read as cloth in its
# letters' rows, the bar unfound, and two of its digits followed as balls for the whole shot).
PRINTED = 25.0
PRINT_SIGMA = 2.0


def bar_over_table(image: np.ndarray, cloth: ClothColourModel, calib: TableCalibration) -> np.ndarray | None:
    """The part of the frame a score bar covers over the table, as a polygon (4, 2) in image px (on to the
    frame's edge where the bar runs past the table's end or side), or None where there is none. ``image``
    is the frame (BGR uint8), ``cloth`` its cloth's colour, ``calib`` the table in it. Only the cloth seen
    is looked at: the playing area at cloth level within its outline at the noses' height (a cushion's face,
    seen between its nose and the cloth under it, is no cloth and no bar; nor is a pocket's throat)."""
    small, scale = working_copy(image)
    h, w = small.shape[:2]
    seen = np.full(image.shape[:2], 255, np.uint8)
    for z_mm in (0.0, calib.table.cushion_height_mm):
        outline = calib.outline_px(z_mm)
        if not np.all(np.isfinite(outline)):
            return None  # a camera that puts the table behind it: nothing to look at
        reach = 4.0 * max(image.shape[:2])  # far past the frame is as good as anywhere past it
        within = np.zeros_like(seen)
        cv2.fillPoly(
            within, [np.round(np.clip(outline, -reach, reach) * 16).astype(np.int32)], 255, cv2.LINE_8, 4
        )
        seen &= within
    inside = cv2.resize((seen > 0).astype(np.uint8), (w, h), interpolation=cv2.INTER_NEAREST)
    inside = cv2.erode(inside, np.ones((3, 3), np.uint8))
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    not_cloth = _not_cloth(cloth.mask(lab) > 0, _printed(image, (w, h)) > PRINTED) & (inside > 0)
    off = cv2.morphologyEx(not_cloth.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, comps, stats, _ = cv2.connectedComponentsWithStats(off, connectivity=8)
    best: tuple[int, np.ndarray] | None = None
    for c in range(1, n):
        x, _, cw, ch, area = (int(v) for v in stats[c])
        if cw < MIN_WIDTH * w or ch < MIN_HEIGHT * h or (best is not None and area <= best[0]):
            continue
        edges = _bar_rows(comps[:, x : x + cw] == c, inside[:, x : x + cw] > 0)
        if edges is None or (all(map(math.isfinite, edges)) and _ball_high(calib, edges, x, cw, scale)):
            continue
        y0 = max(0.0, edges[0] / scale - PAD_PX)
        y1 = min(float(image.shape[0]), edges[1] / scale + PAD_PX)
        # Past the table's side the bar goes on unseen: over the rail, its letters beside the cushion.
        sides = _table_sides(inside, edges)
        x0 = 0.0 if x <= sides[0] + REACH_PX else x / scale - PAD_PX
        x1 = float(image.shape[1]) if x + cw - 1 >= sides[1] - REACH_PX else (x + cw) / scale + PAD_PX
        best = (area, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64))
    return None if best is None else best[1]


def _not_cloth(cloth: np.ndarray, printed: np.ndarray) -> np.ndarray:
    """What is not cloth (bool, working px): off the cloth's colour, or printed matter no stretch of plain
    cloth touches (a bar's letters, specks of the cloth's grey among them; not the fringe its edge's
    contrast leaves on the cloth beside it, which would move the bar's edge a working pixel onto the
    cloth)."""
    square = np.ones((3, 3), np.uint8)
    plain = cv2.morphologyEx((cloth & ~printed).astype(np.uint8), cv2.MORPH_OPEN, square)  # no speck
    beside_plain = cv2.dilate(plain, square) > 0
    return np.asarray(~cloth | (printed & ~beside_plain))


def _printed(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """How far each pixel's grey level is from its surroundings' (blurred over ``PRINT_SIGMA`` px), averaged
    onto a working copy of ``size`` (w, h): high over letters and lines, near zero over cloth."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    detail = np.abs(grey - cv2.GaussianBlur(grey, (0, 0), PRINT_SIGMA))
    return np.asarray(cv2.resize(detail, size, interpolation=cv2.INTER_AREA))


def _bar_rows(part: np.ndarray, inside: np.ndarray) -> tuple[float, float] | None:
    """The rows between which a wide region ``part`` (bool, its columns) that is not cloth is a bar, or
    None where it is no bar: a straight, level edge toward the cloth on one side, and on the other another
    such edge with cloth beyond it (a bar floating over the table) or the table's end (a bar laid over
    it), the table between them filled with it. ``inside`` is the table (same columns). An end reached is
    given as -inf (toward the frame's top) or inf (its bottom)."""
    cols = np.nonzero(part.any(axis=0) & inside.any(axis=0))[0]
    cut = int(MIDDLE * len(cols))
    cols = cols[cut : len(cols) - cut]
    if len(cols) == 0:
        return None
    rows = np.arange(part.shape[0])[:, None]
    big = part.shape[0]
    top = np.where(part[:, cols], rows, big).min(axis=0)
    bottom = np.where(part[:, cols], rows, -1).max(axis=0)
    table_top = np.where(inside[:, cols], rows, big).min(axis=0)
    table_bottom = np.where(inside[:, cols], rows, -1).max(axis=0)
    upper, lower = _level(top, big), _level(bottom, big)
    at_top, at_bottom = _along(top, table_top), _along(bottom, table_bottom)
    if upper is not None and at_bottom:
        lo, hi = upper, math.inf
    elif lower is not None and at_top:
        lo, hi = -math.inf, lower
    elif upper is not None and lower is not None:
        lo, hi = upper, lower
    else:
        return None
    table = (rows >= lo) & (rows <= hi) & inside[:, cols]
    bar = part[:, cols] & table
    tall = np.median(np.minimum(hi, table_bottom) - np.maximum(lo, table_top)) >= MIN_HEIGHT * big
    return (lo, hi) if tall and bar.sum() >= FILLED * table.sum() else None


def _table_sides(inside: np.ndarray, rows: tuple[float, float]) -> tuple[int, int]:
    """The table's first and last columns (working px) over ``rows`` (the bar's)."""
    lo = 0 if rows[0] == -math.inf else math.floor(rows[0])
    hi = inside.shape[0] if rows[1] == math.inf else math.ceil(rows[1]) + 1
    cols = np.nonzero(inside[lo:hi].any(axis=0))[0]
    return (int(cols[0]), int(cols[-1])) if len(cols) else (0, inside.shape[1] - 1)


def _ball_high(calib: TableCalibration, rows: tuple[float, float], x: int, width: int, scale: float) -> bool:
    """Whether a stretch of ``rows`` (working px) over the columns from ``x`` is no higher than a ball is
    wide there: a row of touching balls, level at the working copy's scale, and no bar."""
    centre = np.array([[(x + width / 2) / scale, sum(rows) / 2 / scale]])
    at = calib.px_to_mm(centre, calib.table.ball_radius_mm)
    width_px = 2.0 * float(calib.radius_px(at, calib.table.ball_radius_mm)[0])
    return (rows[1] - rows[0]) / scale <= BALLS_HIGH * width_px


def _level(edge: np.ndarray, rows: int) -> float | None:
    """The row of a straight, level edge (a row per column) inside a frame of ``rows`` rows, or None where
    it is not one (the frame's own edge is none: a table cut by the frame is no graphic)."""
    level = float(np.median(edge))
    inside = 1.0 < level < rows - 2.0
    return level if inside and float(np.mean(np.abs(edge - level) <= FLAT_PX)) >= LEVEL_SHARE else None


def _along(edge: np.ndarray, end: np.ndarray) -> bool:
    """Whether an edge (a row per column) runs along the table's end (a row per column)."""
    return float(np.mean(np.abs(edge - end) <= REACH_PX)) >= FLAT_SHARE


def unseen_outline(strip: np.ndarray, bar: np.ndarray | None) -> tuple[tuple[float, float], ...]:
    """The table the image does not show: the strip between the cloth seen and an end placed beyond it,
    and a score bar over the table (``bar_over_table``); where there are both (the strip runs along the
    bar that cut the cloth), the one polygon that is their union, so the cloth seen between them (a ball
    just over the bar, beside the strip's slanted edge) stays in view; their hull where they lie apart."""
    parts = [np.asarray(p, np.float64).reshape(-1, 2) for p in (strip, bar) if p is not None and len(p)]
    if not parts:
        return ()
    outline = parts[0] if len(parts) == 1 else _union(parts)
    return tuple((float(x), float(y)) for x, y in outline)


_UNION_SCALE = 2  # the union is drawn at half a pixel
_UNION_MAX_PX = 40_000_000  # a union drawn larger than this (an end placed far off the frame) is their hull


def _union(polygons: list[np.ndarray]) -> np.ndarray:
    """The outline (N, 2) of the union of ``polygons`` that touch or overlap (drawn at half a pixel and
    traced);
    their convex hull where they lie apart or would be drawn too large."""
    points = np.vstack(polygons)
    hull = cv2.convexHull(points.astype(np.float32)).reshape(-1, 2).astype(np.float64)
    low = np.floor(points.min(axis=0)) - 2
    w, h = (np.ceil(points.max(axis=0)) - low + 2).astype(np.int64)
    scale = _UNION_SCALE
    if w * h * scale * scale > _UNION_MAX_PX:
        return hull
    mask = np.zeros((int(h) * scale, int(w) * scale), np.uint8)
    for polygon in polygons:  # one at a time: drawn together, their overlap would be a hole
        cv2.fillPoly(mask, [np.round((polygon - low) * scale).astype(np.int32)], 255)
    joined = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((2 * scale + 1, 2 * scale + 1), np.uint8))
    contours, _ = cv2.findContours(joined, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if len(contours) != 1:
        return hull
    traced = cv2.approxPolyDP(contours[0], scale / 2, True).reshape(-1, 2)
    return np.asarray(traced / scale + low, np.float64)
