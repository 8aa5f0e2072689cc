"""The first table finder, kept as ``AutoConfig(finder="outline")`` and as the baseline the evaluation
prints beside the cloth-lines finder: the cloth is the dominant uniform colour over the middle of the frame,
compared by a fixed chromaticity tolerance; its region's outline is cut into four sides by a quadrilateral
and a histogram of distances. It suits the synthetic overhead views it was built on (whole table in view,
cloth in the middle of the frame) and finds no table in real photos, where ``vision.table_corners`` does.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.camera_fit import undistort
from vision.table_finder import (
    BRIGHTNESS_RANGE,
    CHROMA_TOLERANCE,
    MIN_CLOTH_LEVEL,
    CalibrationError,
    ClothColour,
    chroma_distance,
    no_table_error,
)

# --- the cloth colour ---
WORK_SIZE_PX = 480  # long side of the downscaled copy used to find the cloth: speed vs outline detail
# The cloth colour is voted on by a grid of windows over the middle of the frame (fractions of its size).
COLOUR_GRID, COLOUR_GRID_SPAN, COLOUR_WINDOW = 5, 0.25, 0.08
# Share of a window that must match its median colour to vote: below it the window is not one cloth
# (noise, a busy scene). Balls and markings take a few percent.
MIN_UNIFORM_SHARE = 0.6
MIN_AREA_SHARE = 0.12  # the cloth must cover this much of the frame: smaller is not an overhead view
MAX_BORDER_SHARE = 0.35  # outline share on the image border: above it the cloth runs out of the frame
MIN_SOLIDITY = 0.8  # cloth area / its convex hull: a table is convex up to pocket notches
CLOSE_KERNEL = 0.015  # closing of the cloth region (share of the frame): fills chalk lines, small notches
# Outline points kept per side, as fractions of its length: clear of the corners and of a middle pocket,
# within a band that a bowed (distorted) side stays inside.
SIDE_END_CLEAR, SIDE_MIDDLE_CLEAR = 0.1, 0.08
SIDE_SEARCH_BAND, SIDE_BIN = 0.15, 0.01  # a side's line is looked for this far either side of the quad's
SIDE_REFINE_BANDS = (0.03, 0.02, 0.012, 0.012)  # then the band narrows around the re-fitted side
MIN_SIDE_POINTS = 8
K1_SEARCH = 0.3  # |k1| range tried for the outline's straightness: wider than any lens ranged for


def cloth_colour(image: np.ndarray) -> ClothColour:
    """The dominant uniform colour over the middle of the frame, or CalibrationError.

    The middle is cut into a grid of windows; each window that is one lit, uniform colour votes for the
    windows of the same colour, and the colour with most votes is the cloth. A single central window would
    be fooled by an arm or a rack of balls in the middle of the table."""
    h, w = image.shape[:2]
    medians, dark = [], 0
    for cy in np.linspace(0.5 - COLOUR_GRID_SPAN, 0.5 + COLOUR_GRID_SPAN, COLOUR_GRID):
        for cx in np.linspace(0.5 - COLOUR_GRID_SPAN, 0.5 + COLOUR_GRID_SPAN, COLOUR_GRID):
            dy, dx = max(1, int(h * COLOUR_WINDOW / 2)), max(1, int(w * COLOUR_WINDOW / 2))
            y, x = int(cy * h), int(cx * w)
            window = image[y - dy : y + dy, x - dx : x + dx].reshape(-1, 3).astype(np.float32)
            cand = ClothColour(tuple(float(v) for v in np.median(window, axis=0)))  # type: ignore[arg-type]
            if cand.level < MIN_CLOTH_LEVEL:
                dark += 1
                continue
            if np.mean(_matches(window[None], cand, (0.8, 1.25))) >= MIN_UNIFORM_SHARE:
                medians.append(cand)
    if not medians:
        why = (
            "the middle of the image is dark; is the camera on and the table lit?"
            if dark > COLOUR_GRID**2 // 2
            else "no uniform colour in the middle of the image; is the camera looking down at the table?"
        )
        raise CalibrationError(
            f"no table cloth found: {why} use `--calibration FILE` or calibrate manually with four corner "
            "points"
        )
    bgr = np.array([m.bgr for m in medians], dtype=np.float32)
    votes = np.array([np.sum(_matches(bgr[None], m, (0.7, 1.4))) for m in medians])
    best = medians[int(np.argmax(votes))]
    same = _matches(bgr[None], best, (0.7, 1.4))[0]
    return ClothColour(tuple(float(v) for v in np.median(bgr[same], axis=0)))  # type: ignore[arg-type]


def _matches(bgr: np.ndarray, cloth: ClothColour, ratio_range: tuple[float, float]) -> np.ndarray:
    dist, level = chroma_distance(bgr, cloth)
    ratio = level / cloth.level
    return (dist < CHROMA_TOLERANCE) & (ratio > ratio_range[0]) & (ratio < ratio_range[1])


def cloth_mask(image: np.ndarray, cloth: ClothColour) -> np.ndarray:
    """uint8 mask (0/1) of pixels with the cloth's chromaticity and a plausible brightness."""
    dist, level = chroma_distance(image.astype(np.float32), cloth)
    ratio = level / cloth.level
    lo, hi = BRIGHTNESS_RANGE
    return ((dist < CHROMA_TOLERANCE) & (ratio > lo) & (ratio < hi)).astype(np.uint8)


@dataclass(frozen=True)
class Outline:
    """The cloth region's outline: a coarse quadrilateral (4 x 2 pixels, shoelace-negative order in image
    axes, i.e. counter-clockwise on screen) and, per side ``i`` (from corner ``i`` to ``i + 1``), the outline
    points along its middle part, clear of corner and middle pockets. The outline lies somewhere between the
    cushion noses and the cushions' outer edges (cushion tops share the cloth's colour): a starting point
    for the edge search, not a measurement."""

    cloth: ClothColour
    quad_px: np.ndarray
    sides_px: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def find_outline(image: np.ndarray) -> Outline:
    """The cloth colour and outline, or CalibrationError saying why there is no table in the image."""
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise ValueError(f"expected an H x W x 3 uint8 BGR image, got {image.shape} {image.dtype}")
    h, w = image.shape[:2]
    scale = WORK_SIZE_PX / max(h, w)
    size = (max(8, round(w * scale)), max(8, round(h * scale)))
    small = cv2.GaussianBlur(cv2.resize(image, size, interpolation=cv2.INTER_AREA), (3, 3), 0)
    sh, sw = small.shape[:2]
    cloth = cloth_colour(small)
    mask = cloth_mask(small, cloth)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    n, labels, _, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    y0, y1 = int(sh * (0.5 - COLOUR_GRID_SPAN)), int(sh * (0.5 + COLOUR_GRID_SPAN)) + 1
    x0, x1 = int(sw * (0.5 - COLOUR_GRID_SPAN)), int(sw * (0.5 + COLOUR_GRID_SPAN)) + 1
    centre = labels[y0:y1, x0:x1].ravel()
    centre = centre[centre > 0]
    if n < 2 or len(centre) == 0:
        raise no_table_error("no cloth-coloured region in the middle of the image")
    k = max(3, round(CLOSE_KERNEL * max(sh, sw)) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    region = cv2.morphologyEx(
        (labels == int(np.bincount(centre).argmax())).astype(np.uint8), cv2.MORPH_CLOSE, kernel
    )
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    contour = max(contours, key=cv2.contourArea).reshape(-1, 2)
    area = cv2.contourArea(contour)
    if area < MIN_AREA_SHARE * sh * sw:
        raise no_table_error(f"the cloth-coloured region covers only {area / (sh * sw):.0%} of the frame")
    on_border = np.mean(
        (contour[:, 0] <= 1) | (contour[:, 1] <= 1) | (contour[:, 0] >= sw - 2) | (contour[:, 1] >= sh - 2)
    )
    if on_border > MAX_BORDER_SHARE:
        raise no_table_error(
            f"the cloth-coloured region runs off the frame ({on_border:.0%} of its outline is on the image "
            "border); the whole table with its cushions must be in view"
        )
    hull = cv2.convexHull(contour)
    solidity = area / max(cv2.contourArea(hull), 1.0)
    if solidity < MIN_SOLIDITY:
        raise no_table_error(f"the cloth-coloured region is not table-shaped (solidity {solidity:.2f})")
    quad = _quadrilateral(hull.reshape(-1, 2).astype(np.float64))
    if quad is None:
        raise no_table_error("the cloth-coloured region has no four clear sides")
    if _shoelace(quad) > 0:
        quad = quad[::-1].copy()
    to_full = np.array([w / sw, h / sh])
    sides = tuple((pts + 0.5) * to_full - 0.5 for pts in _side_points(quad, contour.astype(np.float64)))
    return Outline(cloth, (quad + 0.5) * to_full - 0.5, sides)


def _shoelace(poly: np.ndarray) -> float:
    x, y = poly[:, 0], poly[:, 1]
    return float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y) / 2)


def _quadrilateral(hull: np.ndarray) -> np.ndarray | None:
    """Four vertices simplifying the convex hull: Douglas-Peucker with a tolerance growing from a tiny
    share of the perimeter up to one that would flatten a table's short side."""
    perimeter = cv2.arcLength(hull.astype(np.float32), True)
    for frac in np.linspace(0.005, 0.12, 40):
        approx = cv2.approxPolyDP(hull.astype(np.float32), frac * perimeter, True).reshape(-1, 2)
        if len(approx) == 4:
            return approx.astype(np.float64)
        if len(approx) < 4:
            return None
    return None


def _side_points(quad: np.ndarray, contour: np.ndarray) -> list[np.ndarray]:
    """Outline points along each side of the quadrilateral, away from its ends and its middle (corner and
    middle pockets cut the outline there). The hull's vertices sit on pocket notches, so a side may run
    some way inside the outline, and a cue or an arm adds outline of its own: the side's points are those
    at the most common distance from the quadrilateral's side (a histogram mode), then the side is
    re-fitted to the points near it with a narrowing band."""
    out = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        length = float(np.linalg.norm(b - a))
        u = (b - a) / length
        s = (contour - a) @ u / length
        off = (contour - a) @ np.array([-u[1], u[0]])
        clear = (s > SIDE_END_CLEAR) & (s < 1 - SIDE_END_CLEAR) & (np.abs(s - 0.5) > SIDE_MIDDLE_CLEAR)
        clear &= np.abs(off) < SIDE_SEARCH_BAND * length
        if clear.sum() < MIN_SIDE_POINTS:
            out.append(contour[:0])
            continue
        edges = np.arange(-SIDE_SEARCH_BAND, SIDE_SEARCH_BAND + SIDE_BIN, SIDE_BIN) * length
        hist = np.convolve(np.histogram(off[clear], bins=edges)[0], [1, 2, 1], mode="same")
        mode = 0.5 * (edges[np.argmax(hist)] + edges[np.argmax(hist) + 1])
        keep = clear & (np.abs(off - mode) < SIDE_REFINE_BANDS[0] * length)
        for band in SIDE_REFINE_BANDS:
            if keep.sum() < MIN_SIDE_POINTS:
                break
            vx, vy, x0, y0 = cv2.fitLine(
                contour[keep].astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01
            ).ravel()
            narrower = _near(contour, clear, np.array([x0, y0]), np.array([vx, vy]), band * length)
            if narrower.sum() < MIN_SIDE_POINTS:
                break
            keep = narrower
        out.append(contour[keep])
    return out


def _near(
    contour: np.ndarray, clear: np.ndarray, origin: np.ndarray, u: np.ndarray, dist: float
) -> np.ndarray:
    """Outline points (among ``clear``) within ``dist`` of the line through ``origin`` along ``u``."""
    return np.asarray(clear & (np.abs((contour - origin) @ np.array([-u[1], u[0]], np.float64)) < dist))


def label_corners(quad_px: np.ndarray) -> np.ndarray:
    """Indices (4,) of an outline's corners taken as ``bl, br, tr, tl``. The long sides run along the
    table's y. Of the two labellings left, the one with +y pointing right (or up, for a table along the
    image height) wins: the synthetic camera's convention; markings may turn it round later."""
    best, best_score = [0, 1, 2, 3], -np.inf
    for k in range(4):
        idx = [(k + i) % 4 for i in range(4)]
        c = quad_px[idx]
        short = np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[3] - c[2])
        long_ = np.linalg.norm(c[2] - c[1]) + np.linalg.norm(c[0] - c[3])
        if short > long_:
            continue
        d = (c[2] + c[3] - c[0] - c[1]) / 2
        score = (d[0] - d[1]) / max(float(np.linalg.norm(d)), 1e-9)
        if score > best_score:
            best, best_score = idx, score
    return np.array(best)


def straight_sides(outline: Outline, centre: np.ndarray, f: float) -> tuple[float, np.ndarray]:
    """The k1 that makes the outline's sides straightest, and its corners as intersections of the
    straightened sides (ideal normalised coordinates): the distortion guess the first edge search needs."""

    def lines(k1: float) -> tuple[float, list[tuple[np.ndarray, np.ndarray]]]:
        cost, out = 0.0, []
        for pts in outline.sides_px:
            xu = undistort((pts - centre) / f, k1, 0.0)
            mean = xu.mean(axis=0)
            _, sv, vt = np.linalg.svd(xu - mean, full_matrices=False)
            cost += float(sv[-1] ** 2) / len(xu)
            out.append((mean, vt[0]))
        return cost, out

    k1 = 0.0
    if min(len(p) for p in outline.sides_px) >= 4:
        grid = np.linspace(-K1_SEARCH, K1_SEARCH, 61)
        costs = np.array([lines(k)[0] for k in grid])
        j = int(np.argmin(costs))
        k1 = float(grid[j])
        if 0 < j < len(grid) - 1 and costs[j - 1] - 2 * costs[j] + costs[j + 1] > 0:
            a, b, c = costs[j - 1], costs[j], costs[j + 1]
            k1 += 0.5 * (a - c) / (a - 2 * b + c) * (grid[1] - grid[0])
    else:
        raise no_table_error("a side of the cloth's outline is missing")
    _, side_lines = lines(k1)
    corners = []
    for i in range(4):
        (p, u), (q, v) = side_lines[i - 1], side_lines[i]
        m = np.array([u, -v]).T
        if abs(np.linalg.det(m)) < 1e-9:
            raise no_table_error("two neighbouring sides of the cloth are parallel")
        corners.append(p + np.linalg.solve(m, q - p)[0] * u)
    return k1, np.array(corners)
