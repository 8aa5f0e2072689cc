"""Finding a billiard table in an overhead image: the cloth, its outline, and sub-pixel cushion edges.

No camera model lives here: ``vision.calibration`` passes a projection (table mm -> pixels) and gets back
edge points where the image has them, near where its current model puts them. The same search serves the
automatic calibration, the refinement of a manual one and the camera-moved check.

The cloth is found by colour, not by a fixed hue: the dominant uniform colour over the middle of the frame
is taken as the cloth and every pixel is compared with it by chromaticity, which survives uneven lamps and
vignetting, plus a brightness ratio that keeps black rails and dark floors out of a grey cloth. Edges are
read on short profiles across the cushions; each decision is made on the median of neighbouring profiles
(a ball or a dark, noisy frame spoils one profile, not seven), then refined on each profile alone.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np

from arbiter.tables import TableModel

# --- the cloth colour ---
WORK_SIZE_PX = 480  # long side of the downscaled copy used to find the cloth: speed vs outline detail
# The cloth colour is voted on by a grid of windows over the middle of the frame (fractions of its size).
COLOUR_GRID, COLOUR_GRID_SPAN, COLOUR_WINDOW = 5, 0.25, 0.08
# Share of a window that must match its median colour to vote: below it the window is not one cloth
# (noise, a busy scene). Balls and markings take a few percent.
MIN_UNIFORM_SHARE = 0.6
MIN_CLOTH_LEVEL = 20.0  # mean 8-bit level of the cloth: darker is a black frame or a covered lens
# Chromaticity distance (channels / their mean) still counted as cloth: wide enough for lamp tint and
# noise, narrow enough to keep mahogany and cherry rails off a red cloth (their distance is ~0.35).
CHROMA_TOLERANCE = 0.2
# Brightness relative to the cloth at the centre still counted as cloth: lamp fall-off and vignetting
# darken the ends to ~0.5; black rails and floors sit near 0.25 of a grey cloth.
BRIGHTNESS_RANGE = (0.38, 2.5)
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
# --- edge search ---
PROFILE_STEP_PX = 0.5  # sampling step along an edge normal: sub-pixel peaks vs cost
SMOOTH_SIGMA_PX = 1.0  # pre-blur at 1920 px width (scaled with the image): noise vs edge sharpness
# Smallest drop of brightness per pixel, relative to the cloth beside it, taken as the cushion nose: above
# felt grain and sensor noise (~2 %/px after smoothing), below a shaded cushion face (>= 8 %/px).
MIN_NOSE_DROP = 0.05
NOISE_FACTOR = 5.0  # ... and this many noise deviations of the aggregated profile: no false edges on grain
RIM_DARKNESS = 0.35  # darker than this share of the nearby cloth is off the cloth (black rail, floor)
RIM_RUN_PX = 3.0  # ... and must stay off it this far: balls and chalk marks on the cushion are shorter
REFINE_REACH_PX = 1.5  # a profile's own peak is looked for this close to its neighbourhood's
NOISE_SPAN_PX = 8.0  # profiles start this far inside the nose window: the bed there gives the noise level
MIN_COLOUR_STEP = 3.0  # 8-bit levels per pixel of colour change taken as the cushion's outer edge
CENTROID_REACH_PX = 3.0  # the outer edge is the centroid of its step's gradient this close to the peak
# --- where to look on the table ---
POCKET_CLEAR = 0.6  # nose samples keep this many pocket openings clear of a pocket's jaws
OUTER_POCKET_CLEAR = 1.6  # outer-edge samples: the pocket's hole and plate cut the rail further out
# The first pass trusts its starting model to about a cushion width: it looks for the cloth's end this far
# beyond a cushion width either side, plus a share of the image width for the distortion left over.
FIRST_WINDOW_MM, FIRST_WINDOW_PX = 60.0, 0.004
MAX_PARALLAX_MM = 45.0  # most a cushion top can appear shifted outward: 37 mm high seen 2 m off, 1.7 m up
RIM_SLACK_MM = 10.0  # the nose is looked for up to this much closer to the cloth's end than a cushion width
# A search for the outer edges from a model fitted to the noses alone looks this far either side of a
# point this far beyond a cushion width, on the nose's plane (right whatever the focal length): it covers
# the cushion top's parallax (0 to ~40 mm) and stops short of the rail's sights.
OUTER_SEARCH_MM = 22.0
MARKING_LINE_MM = 2.5  # chalk line width: the orientation check reads the contrast across this


class CalibrationError(ValueError):
    """The table could not be found or fitted in an image; the message says what to do instead."""


@dataclass(frozen=True)
class ClothColour:
    """The cloth's colour (BGR, 8-bit levels) as the middle of the frame shows it."""

    bgr: tuple[float, float, float]

    @property
    def level(self) -> float:
        return float(np.mean(self.bgr))

    @property
    def chroma(self) -> np.ndarray:
        return np.asarray(self.bgr, dtype=np.float32) / max(self.level, 1e-3)


@dataclass(frozen=True)
class Features:
    """The smoothed full-resolution image the edge search samples, and the cloth colour it compares
    with. Brightness and cloth likeness are computed on the samples only (a profile is a few hundred
    pixels; the frame is millions)."""

    bgr: np.ndarray  # H x W x 3 float32
    cloth: ClothColour

    def sample(
        self, centres_px: np.ndarray, normals: np.ndarray, offsets_px: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Profiles (N, M) of brightness and of chromaticity distance to the cloth, and colour (N, M, 3)."""
        bgr = profiles(self.bgr, centres_px, normals, offsets_px)
        dist, level = _chroma_distance(bgr, self.cloth)
        return level, dist, bgr


def _luma(bgr: np.ndarray) -> np.ndarray:
    """Rec. 601 luma: what JPEG and H.264 keep at full resolution (colour is stored at half)."""
    return bgr @ np.array([0.114, 0.587, 0.299], dtype=bgr.dtype)


def _chroma_distance(bgr: np.ndarray, cloth: ClothColour) -> tuple[np.ndarray, np.ndarray]:
    level = bgr.mean(axis=2)
    chroma = bgr / np.maximum(level, 1.0)[..., None]
    return np.linalg.norm(chroma - cloth.chroma, axis=2), level


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
    dist, level = _chroma_distance(bgr, cloth)
    ratio = level / cloth.level
    return (dist < CHROMA_TOLERANCE) & (ratio > ratio_range[0]) & (ratio < ratio_range[1])


def cloth_mask(image: np.ndarray, cloth: ClothColour) -> np.ndarray:
    """uint8 mask (0/1) of pixels with the cloth's chromaticity and a plausible brightness."""
    dist, level = _chroma_distance(image.astype(np.float32), cloth)
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
    return Outline(cloth, (quad + 0.5) * to_full - 0.5, sides)  # type: ignore[arg-type]


def no_table_error(why: str) -> CalibrationError:
    """The error for an image without a usable table, saying what to do instead."""
    return CalibrationError(
        f"no table found: {why}; is the camera looking down at the whole table? use `--calibration FILE` "
        "or calibrate manually with four corner points"
    )


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
    return clear & (np.abs((contour - origin) @ np.array([-u[1], u[0]], np.float64)) < dist)


def features(image: np.ndarray, cloth: ClothColour) -> Features:
    """The smoothed image the edge search reads. Smoothing scales with the image width so that the
    search behaves the same at 960 and 3840 px."""
    sigma = SMOOTH_SIGMA_PX * max(0.5, image.shape[1] / 1920)
    return Features(cv2.GaussianBlur(image.astype(np.float32), (0, 0), sigma), cloth)


def profiles(
    img: np.ndarray, centres_px: np.ndarray, normals: np.ndarray, offsets_px: np.ndarray
) -> np.ndarray:
    """Bilinear samples of ``img`` along each normal: (N, M) for one channel, (N, M, C) for more."""
    pts = centres_px[:, None, :] + offsets_px[None, :, None] * normals[:, None, :]
    maps = pts.astype(np.float32)
    # OpenCV's remap takes maps of fewer than 32767 rows: sample long lists of profiles in blocks.
    parts = [
        cv2.remap(img, block[..., 0], block[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        for block in (maps[i : i + REMAP_MAX_ROWS] for i in range(0, max(len(maps), 1), REMAP_MAX_ROWS))
    ]
    return np.concatenate(parts, axis=0) if len(parts) > 1 else parts[0]


REMAP_MAX_ROWS = 32000


def _block_median(values: np.ndarray, block: int) -> np.ndarray:
    """Median of each row with its ``block // 2`` neighbours on either side (rows are samples in order
    along one cushion): noise averages down, a ball on one profile does not move the result."""
    n = len(values)
    half = block // 2
    if n == 0 or half == 0:
        return values
    padded = np.concatenate([values[:1].repeat(half, 0), values, values[-1:].repeat(half, 0)])
    stack = np.stack([padded[i : i + n] for i in range(2 * half + 1)])
    return np.median(stack, axis=0)


def _derivative(p: np.ndarray) -> np.ndarray:
    """d/dt over +-1 px of profiles sampled every PROFILE_STEP_PX (zero at the ends)."""
    k = round(1.0 / PROFILE_STEP_PX)
    out = np.zeros_like(p)
    out[:, k:-k] = (p[:, 2 * k :] - p[:, : -2 * k]) / (2 * k * PROFILE_STEP_PX)
    return out


def _refine(
    score: np.ndarray, offsets: np.ndarray, j: np.ndarray, rows: np.ndarray, reach: int
) -> np.ndarray:
    """Sub-pixel peak of each row's own ``score`` near index ``j`` (within ``reach`` samples)."""
    m = score.shape[1]
    cols = np.clip(j[:, None] + np.arange(-reach, reach + 1)[None, :], 1, m - 2)
    k = cols[np.arange(len(rows)), np.argmax(score[rows[:, None], cols], axis=1)]
    a, b, c = score[rows, k - 1], score[rows, k], score[rows, k + 1]
    with np.errstate(invalid="ignore", divide="ignore"):
        den = a - 2 * b + c
        frac = np.where(np.isfinite(den) & (den < 0), np.clip(0.5 * (a - c) / den, -0.5, 0.5), 0.0)
    return offsets[k] + frac * PROFILE_STEP_PX


def nose_edges(
    feats: Features,
    centres_px: np.ndarray,
    normals: np.ndarray,
    lo_px: np.ndarray,
    hi_px: np.ndarray,
    block: int = 7,
) -> np.ndarray:
    """Offsets (N,) along each outward normal of the cushion nose: the strongest drop of brightness with
    cloth on its inner side (bed -> shaded cushion face) between offsets ``lo_px`` and ``hi_px`` (per
    point). The points must be in order along one cushion: the drop is found on the median of ``block``
    neighbouring profiles (dark, noisy frames; a ball on one profile), then refined on each profile.
    NaN where there is no clear drop."""
    n = len(centres_px)
    out = np.full(n, np.nan)
    if n == 0:
        return out
    lo_px, hi_px = np.asarray(lo_px, np.float64), np.asarray(hi_px, np.float64)
    start = float(np.min(lo_px)) - NOISE_SPAN_PX - 2.0
    offsets = np.arange(start, float(np.max(hi_px)) + 3.0 + PROFILE_STEP_PX, PROFILE_STEP_PX)
    level, chroma, bgr = feats.sample(centres_px, normals, offsets)
    k = round(1.0 / PROFILE_STEP_PX)
    ok_inside = (np.roll(chroma, 2 * k, axis=1) < CHROMA_TOLERANCE) & (
        np.roll(level, 2 * k, axis=1) / feats.cloth.level > BRIGHTNESS_RANGE[0]
    )  # cloth 1 px further in
    luma = _luma(bgr)  # edges on luma: compressed video blurs and shifts colour-only edges
    drop = np.where(ok_inside, -_derivative(luma) / np.maximum(np.roll(luma, 2 * k, axis=1), 1.0), 0.0)
    in_window = (offsets[None, :] >= lo_px[:, None]) & (offsets[None, :] <= hi_px[:, None])
    agg = np.where(in_window, _block_median(drop, block), -np.inf)
    # Noise of the aggregated derivative on the bed, inward of the window: the threshold adapts to dark,
    # grainy frames.
    bed = _block_median(drop, block)[:, : round(NOISE_SPAN_PX / PROFILE_STEP_PX)]
    noise = 1.4826 * float(np.median(np.abs(bed)))
    j = np.argmax(agg, axis=1)
    rows = np.nonzero(agg[np.arange(n), j] > max(MIN_NOSE_DROP, NOISE_FACTOR * noise))[0]
    own = np.where(in_window & ok_inside, drop, -np.inf)
    out[rows] = _refine(own, offsets, j[rows], rows, reach=round(REFINE_REACH_PX / PROFILE_STEP_PX))
    return out


def cloth_end(
    feats: Features, centres_px: np.ndarray, normals: np.ndarray, lo_px: float, hi_px: float, block: int = 7
) -> np.ndarray:
    """Offsets (N,) along each outward normal where the cloth colour ends for good: the cushions' outer
    edge (their tops are cloth-covered) where a rail or the floor begins. Read from colour and darkness
    relative to the cloth at the profile's inner end, not from edge strength, so that a strong nose
    shadow is not taken for it. NaN where the profile never leaves the cloth."""
    n = len(centres_px)
    out = np.full(n, np.nan)
    if n == 0:
        return out
    offsets = np.arange(lo_px, hi_px + PROFILE_STEP_PX, PROFILE_STEP_PX)
    level, chroma, _ = feats.sample(centres_px, normals, offsets)
    ref = np.median(level[:, : max(4, len(offsets) // 5)], axis=1, keepdims=True)
    q = _block_median(
        np.maximum(chroma / CHROMA_TOLERANCE, RIM_DARKNESS * ref / np.maximum(level, 1.0)), block
    )
    off = q > 1.0
    run = round(RIM_RUN_PX / PROFILE_STEP_PX)
    # Off the cloth from here on for RIM_RUN_PX: a ball or a marking is shorter than that.
    stays = np.stack([np.roll(off, -i, axis=1) for i in range(run)]).all(axis=0)
    stays[:, len(offsets) - run :] = False
    stays[:, 0] = False
    rows = np.nonzero(stays.any(axis=1))[0]
    j = np.argmax(stays, axis=1)[rows]
    a, b = q[rows, j - 1], q[rows, j]
    out[rows] = offsets[j] - PROFILE_STEP_PX * (b - 1.0) / np.maximum(b - a, 1e-6)
    return out


def outer_edges(
    feats: Features, centres_px: np.ndarray, normals: np.ndarray, half_px: np.ndarray, block: int = 7
) -> np.ndarray:
    """Offsets (N,) along each outward normal of the cushions' outer edge (cloth-covered top -> rail): the
    strongest colour change within ``+-half_px``, found on the median of neighbouring profiles like
    ``nose_edges``, then placed on each profile at the centroid of its step. NaN where the change is too
    weak."""
    n = len(centres_px)
    out = np.full(n, np.nan)
    if n == 0:
        return out
    r = float(np.max(half_px)) + 2.0
    offsets = np.arange(-r, r + PROFILE_STEP_PX, PROFILE_STEP_PX)
    _, _, bgr = feats.sample(centres_px, normals, offsets)
    grad = np.sqrt(sum(_derivative(bgr[..., c]) ** 2 for c in range(3)))
    grad[np.abs(offsets)[None, :] > half_px[:, None]] = 0.0
    agg = _block_median(grad, block)
    j = np.argmax(agg, axis=1)
    peak = agg[np.arange(n), j]
    rows = np.nonzero(peak > MIN_COLOUR_STEP)[0]
    # The centre of the half-maximum part of the step: a colour step blurred by compression (colour is
    # stored at half resolution) has a broad, flat top whose maximum wanders.
    w = np.maximum(grad[rows] - 0.5 * peak[rows, None], 0.0)
    near = np.abs(offsets[None, :] - offsets[j[rows], None]) <= CENTROID_REACH_PX
    w = np.where(near, w, 0.0)
    total = w.sum(axis=1)
    ok = total > 0
    out[rows[ok]] = (w[ok] @ offsets) / total[ok]
    return out


def line_contrast(feats: Features, points_px: np.ndarray, normals: np.ndarray, half_width_px: float) -> float:
    """How much brighter a thin marking (chalk line) along ``points_px`` is than the cloth beside it,
    relative to the cloth level: the median over the points, robust to balls lying on the line."""
    if len(points_px) == 0:
        return 0.0
    side = max(2.0, 3 * half_width_px)
    offsets = np.array([-side, -half_width_px / 2, 0.0, half_width_px / 2, side])
    p = feats.sample(points_px, normals, offsets)[0]
    centre = p[:, 1:4].max(axis=1)
    beside = 0.5 * (p[:, 0] + p[:, 4])
    return float(np.median((centre - beside) / np.maximum(beside, 1.0)))


# ---------------------------------------------------------------------------------------------- on the table
Project = Callable[[np.ndarray], np.ndarray]  # table points (N, 3) mm -> pixels (N, 2)
EdgeKind = Literal["nose", "outer"]
# The four cushions: name, the table axis their line is constant in, and the sign of their outward normal.
SIDES = (("left", 0, -1.0), ("right", 0, 1.0), ("bottom", 1, -1.0), ("top", 1, 1.0))


@dataclass(frozen=True)
class EdgePoints:
    """Edge points found in an image, each on a known table line: ``axis`` 0 means ``x = value``, 1 means
    ``y = value``, at height ``z_mm``; ``side`` indexes ``SIDES``; ``outer`` marks the cushions' outer
    edges (the rest are noses)."""

    xy_px: np.ndarray  # (N, 2)
    axis: np.ndarray  # (N,) int
    value_mm: np.ndarray  # (N,)
    z_mm: np.ndarray  # (N,)
    side: np.ndarray  # (N,) int
    outer: np.ndarray  # (N,) bool

    @classmethod
    def empty(cls) -> EdgePoints:
        i = np.zeros(0, np.int64)
        return cls(np.zeros((0, 2)), i, np.zeros(0), np.zeros(0), i, np.zeros(0, bool))

    @classmethod
    def concat(cls, parts: list[EdgePoints]) -> EdgePoints:
        if not parts:
            return cls.empty()
        return cls(
            *(
                np.concatenate([getattr(p, f) for p in parts])
                for f in ("xy_px", "axis", "value_mm", "z_mm", "side", "outer")
            )
        )

    def __len__(self) -> int:
        return len(self.xy_px)


def side_samples(
    table: TableModel, side: int, out_mm: float, z_mm: float, spacing_mm: float, kind: EdgeKind
) -> tuple[np.ndarray, np.ndarray]:
    """Sample points (N, 3) along one cushion (``SIDES`` index), ``out_mm`` outward of its nose line, and
    the outward unit normal (2,). Pocket mouths (outer edges: pocket plates) are left out."""
    _, axis, sign = SIDES[side]
    span = table.length_mm if axis == 0 else table.width_mm
    clear = POCKET_CLEAR if kind == "nose" else OUTER_POCKET_CLEAR
    corner = [p for p in table.pockets if p.corner]
    if corner:
        end = corner[0].opening_mm * (1 / math.sqrt(2) + clear) + (out_mm if kind == "outer" else 0.0)
    else:
        end = table.cushion_width_mm
    along = np.arange(end, span - end + 1e-9, spacing_mm)
    middle = [p for p in table.pockets if not p.corner]
    if axis == 0 and middle:
        along = along[np.abs(along - span / 2) > middle[0].opening_mm * (0.5 + clear)]
    xyz = np.zeros((len(along), 3))
    xyz[:, axis] = (0.0 if sign < 0 else (table.width_mm, table.length_mm)[axis]) + sign * out_mm
    xyz[:, 1 - axis] = along
    xyz[:, 2] = z_mm
    normal = np.zeros(2)
    normal[axis] = sign
    return xyz, normal


def image_normals(project: Project, xyz: np.ndarray, normal: np.ndarray) -> tuple[np.ndarray, ...]:
    """Pixels of table points, the image direction of the table's outward ``normal`` there, and the
    image scale along it (px per mm)."""
    step = 5.0
    p0 = project(xyz)
    d = project(xyz + np.array([normal[0] * step, normal[1] * step, 0.0])) - p0
    length = np.linalg.norm(d, axis=1)
    return p0, d / length[:, None], length / step


def trend_inliers(along: np.ndarray, offsets: np.ndarray, tol_px: float) -> np.ndarray:
    """Edge offsets that follow the cushion's smooth trend (a model's error along a cushion is a low-order
    curve); balls, the cue or an arm on the cushion give offsets off it."""
    ok = np.isfinite(offsets)
    if ok.sum() < 6:
        return ok
    keep = ok.copy()
    for _ in range(4):
        coef = np.polyfit(along[keep], offsets[keep], 2)
        res = np.abs(offsets - np.polyval(coef, along))
        scale = max(1.4826 * float(np.median(res[keep])), tol_px / 3)
        keep = ok & (res < 3 * scale)
        if keep.sum() < 6:
            return ok
    return keep


def _points(
    xyz: np.ndarray,
    p0: np.ndarray,
    nrm: np.ndarray,
    t: np.ndarray,
    scale: np.ndarray,
    side: int,
    value: float,
    z: float,
    outer: bool,
) -> EdgePoints:
    """The edge points found at offsets ``t`` along the normals, those off the cushion's trend dropped."""
    axis = SIDES[side][1]
    keep = trend_inliers(xyz[:, 1 - axis], t, float(np.median(scale)) * 2.0 + 1.0)
    n = int(keep.sum())
    return EdgePoints(
        p0[keep] + t[keep, None] * nrm[keep],
        np.full(n, axis),
        np.full(n, value),
        np.full(n, z),
        np.full(n, side),
        np.full(n, outer),
    )


def _line_value(table: TableModel, side: int, out_mm: float) -> float:
    _, axis, sign = SIDES[side]
    return (0.0 if sign < 0 else (table.width_mm, table.length_mm)[axis]) + sign * out_mm


def search_edges(
    feats: Features,
    project: Project,
    table: TableModel,
    kind: EdgeKind,
    nose_z_mm: float,
    spacing_mm: float,
    window_mm: float,
    on_cloth_plane: bool = False,
) -> EdgePoints:
    """Cushion noses (at ``nose_z_mm``) or the cushions' outer edges (a cushion width out, at cushion
    height) found within ``window_mm`` of where ``project`` puts them. ``on_cloth_plane`` looks for the
    outer edges around a point ``OUTER_SEARCH_MM`` beyond on the nose's plane instead: right for a model
    fitted to the noses alone, whatever its focal length."""
    parts = []
    out_mm = table.cushion_width_mm if kind == "outer" else 0.0
    z = table.cushion_height_mm if kind == "outer" else nose_z_mm
    for side in range(4):
        extra = OUTER_SEARCH_MM if on_cloth_plane else 0.0
        xyz, normal = side_samples(
            table, side, out_mm + extra, nose_z_mm if on_cloth_plane else z, spacing_mm, kind
        )
        if len(xyz) == 0:
            continue
        p0, nrm, scale = image_normals(project, xyz, normal)
        # A diverged camera model can put millions of pixels in a millimetre: never search wider than the
        # image, and give up on such a model instead of sampling it.
        diagonal = float(np.hypot(*feats.bgr.shape[:2]))
        if not np.all(np.isfinite(scale)) or not np.all(np.isfinite(p0)):
            raise CalibrationError("the camera fit diverged while looking for the cushion edges")
        win = np.minimum(window_mm * scale + 1.0, diagonal)
        t = outer_edges(feats, p0, nrm, win) if kind == "outer" else nose_edges(feats, p0, nrm, -win, win)
        parts.append(
            _points(xyz, p0, nrm, t, scale, side, _line_value(table, side, out_mm), z, kind == "outer")
        )
    return EdgePoints.concat(parts)


def first_noses(
    feats: Features, project: Project, table: TableModel, nose_z_mm: float, spacing_mm: float, width: int
) -> EdgePoints:
    """Nose points found from a model good to about a cushion width (the cloth's outline lies anywhere
    between the noses and the cushions' outer edges): each profile runs from well inside the bed to past
    the outline; where the cloth colour ends on it anchors the nose search a cushion width (plus
    parallax) further in, so that the rail's edge is never taken for the nose."""
    parts = []
    cw = table.cushion_width_mm
    for side in range(4):
        xyz, normal = side_samples(table, side, 0.0, nose_z_mm, spacing_mm, "nose")
        if len(xyz) == 0:
            continue
        p0, nrm, scale = image_normals(project, xyz, normal)
        reach = (cw + FIRST_WINDOW_MM) * float(np.median(scale)) + FIRST_WINDOW_PX * width + 1.0
        rim = cloth_end(feats, p0, nrm, -reach, reach)
        found = np.isfinite(rim)
        lo = np.where(found, np.clip(rim - (cw + MAX_PARALLAX_MM) * scale - 2.0, -reach, reach), 0.0)
        hi = np.where(found, np.clip(rim - (cw - RIM_SLACK_MM) * scale, -reach, reach), -1.0)
        t = nose_edges(feats, p0, nrm, lo, hi)
        parts.append(_points(xyz, p0, nrm, t, scale, side, _line_value(table, side, 0.0), nose_z_mm, False))
    return EdgePoints.concat(parts)


def marking_evidence(feats: Features, project: Project, table: TableModel) -> float:
    """How much more the table's one-ended markings (snooker's baulk line and D, five-pins' lag line) show
    where ``project`` puts them than at their mirror images, in shares of the cloth level: > 0 confirms
    the orientation, < 0 says the table is the other way round, ~0 says the markings cannot tell."""
    w, length = table.width_mm, table.length_mm
    mirrored = {round(length - ln.y_mm, 1) for ln in table.lines}
    curves = []
    for ln in table.lines:
        if round(ln.y_mm, 1) in mirrored:  # a symmetric pair (head and foot strings) says nothing
            continue
        xs = np.arange(0.05 * w, 0.95 * w, 10.0)
        up = np.tile([0.0, 1.0], (len(xs), 1))
        curves.append((np.stack([xs, np.full_like(xs, ln.y_mm)], 1), up))
    for arc in table.arcs:
        a0 = math.pi if arc.toward == "bottom" else 0.0
        a = np.linspace(a0 + 0.15, a0 + math.pi - 0.15, 48)
        radial = np.stack([np.cos(a), np.sin(a)], 1)
        curves.append((np.asarray(arc.centre_xy_mm) + arc.radius_mm * radial, radial))
    evidence = 0.0
    for pts, nrm in curves:
        for sign, p, n in ((1.0, pts, nrm), (-1.0, np.array([w, length]) - pts, -nrm)):
            xyz = np.concatenate([p, np.zeros((len(p), 1))], 1)
            p0 = project(xyz)
            d = project(xyz + np.concatenate([n, np.zeros((len(n), 1))], 1)) - p0
            scale = np.linalg.norm(d, axis=1)
            half = max(0.5, float(np.median(scale)) * MARKING_LINE_MM / 2)
            evidence += sign * line_contrast(feats, p0, d / scale[:, None], half)
    return evidence


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
