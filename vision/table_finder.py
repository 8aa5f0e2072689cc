"""Sub-pixel cushion edges near where a camera model puts them, and the markings that say which end is the
bottom.

No camera model lives here: ``vision.calibration`` passes a projection (table mm -> pixels) and gets back
edge points where the image has them, near where its current model puts them. The same search serves the
automatic calibration once its finder has a starting model (``vision.table_corners``, or the first finder
``vision.table_outline``), the refinement of a manual one and the camera-moved check.

Edges are read on short profiles across the cushions and compared with the cloth's colour by chromaticity,
which survives uneven lamps and vignetting, plus a brightness ratio that keeps black rails and dark floors
out of a grey cloth. Each decision is made on the median of neighbouring profiles (a ball or a dark, noisy
frame spoils one profile, not seven), then refined on each profile alone.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np

from arbiter.tables import TableModel

# --- the cloth colour, as the edge search compares with it ---
MIN_CLOTH_LEVEL = 20.0  # mean 8-bit level of the cloth: darker is a black frame or a covered lens
# Chromaticity distance (channels / their mean) still counted as cloth: wide enough for lamp tint and
# noise, narrow enough to keep mahogany and cherry rails off a red cloth (their distance is ~0.35).
CHROMA_TOLERANCE = 0.2
# Brightness relative to the cloth at the centre still counted as cloth: lamp fall-off and vignetting
# darken the ends to ~0.5; black rails and floors sit near 0.25 of a grey cloth.
BRIGHTNESS_RANGE = (0.38, 2.5)
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
    """The cloth's colour (BGR, 8-bit levels) the edge search compares with: the cloth cluster's median
    (``vision.cloth_colour``), or the median where a model puts the middle of the bed."""

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
        dist, level = chroma_distance(bgr, self.cloth)
        return level, dist, bgr


def _luma(bgr: np.ndarray) -> np.ndarray:
    """Rec. 601 luma: what JPEG and H.264 keep at full resolution (colour is stored at half)."""
    return np.asarray(bgr @ np.array([0.114, 0.587, 0.299], dtype=bgr.dtype))


def chroma_distance(bgr: np.ndarray, cloth: ClothColour) -> tuple[np.ndarray, np.ndarray]:
    level = bgr.mean(axis=2)
    chroma = bgr / np.maximum(level, 1.0)[..., None]
    return np.linalg.norm(chroma - cloth.chroma, axis=2), level


def no_table_error(why: str) -> CalibrationError:
    """The error for an image without a usable table, saying what to do instead."""
    return CalibrationError(
        f"no table found: {why}; is the camera looking down at the whole table? use `--calibration FILE` "
        "or calibrate manually with four corner points"
    )


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
    return np.asarray(np.median(stack, axis=0))


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
    return np.asarray(offsets[k] + frac * PROFILE_STEP_PX)


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
    stays = np.asarray(np.stack([np.roll(off, -i, axis=1) for i in range(run)]).all(axis=0), bool)
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
        return np.asarray(ok)
    keep = ok.copy()
    for _ in range(4):
        coef = np.polyfit(along[keep], offsets[keep], 2)
        res = np.abs(offsets - np.polyval(coef, along))
        scale = max(1.4826 * float(np.median(res[keep])), tol_px / 3)
        keep = ok & (res < 3 * scale)
        if keep.sum() < 6:
            return np.asarray(ok)
    return np.asarray(keep)


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
