"""What four table corners in an image say before any camera is fitted: the view's focal length and the
table's metric aspect, which sides are the long ones, which end is the bottom, how big the balls are
against the table, and so which size of table from the game's catalogue is in view.

All of it reads a top view of the bed made by the corners' homography: positions along the table's length
in it are right whatever aspect is assumed (a projective map of a rectangle keeps the ratios along each of
its axes), so a marking's place and a ball's size as shares of the length need no camera model.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import cv2
import numpy as np

from arbiter.tables import TableModel, TableSize
from vision.camera_fit import principal_point, undistort
from vision.table_lines import distort, quad_side

CORNER_NAMES = ("bl", "br", "tr", "tl")
SIDE_CORNERS = {"bottom": ("bl", "br"), "top": ("tl", "tr"), "left": ("bl", "tl"), "right": ("br", "tr")}
# A lens assumed where one view of a rectangle cannot give the focal length (a camera square to the table
# along one axis: straight down, or a broadcast camera without roll).
PRIOR_HFOV_DEG = 50.0
TABLE_ASPECTS = (1.6, 2.6)  # metric long over short of real tables (catalogues: 1.9-2.1) with a view's slack
FOCAL_SPAN = (0.3, 5.0)  # focal lengths a camera has, in image widths: a fisheye's to a long zoom's
FOCAL_TOLD = 0.2  # a focal length moving less than this share when a corner moves a pixel is told
TOP_VIEW_LENGTH_PX = 1000  # the top view's length: a 12 ft snooker ball is ~15 px across in it
# Markings: a line's evidence is the strongest row peak (of either polarity: chalk is white, some tables
# print dark lines) within this share of the length of where the table puts it, against the same at its
# mirror image, in robust noise units of the row profile.
MARKING_WINDOW = 0.03
MARKING_BAND = (0.1, 0.9)  # share of the width the row profile is read over (clear of the side cushions)
MARKING_SMOOTH = 0.006  # share of the length: the row profile's high-pass scale
# The band is read as this many evenly spaced columns, along lines sheared by up to MARKING_SHEAR_PX of the
# top view (1000 px long) from one side of the band to the other, either way, in steps of the second.
MARKING_COLUMNS = 100
MARKING_SHEAR_PX, MARKING_SHEAR_STEP_PX = 6.0, 1.0
# Evidence (noise units) that settles the bottom end. A one-ended line drawn on the cloth gives 89-650 from
# above, 14-1100 from a broadcast camera that shows it, 19 on the real phone photo of a small snooker table
# (17 in a 1280 px frame of it under blue light); a table with none (pyramid's home line is seldom drawn) up
# to 3.8 through the synthetic clips' H.264 (4.3 read along the rows, which at 4.0 once named a pyramid
# table's ends the wrong way round, sure: `docs/results.md`, issue 10's twenty-fifth and twenty-eighth
# rounds). A JPEG of quality 60 or less can still do so: its block edges read as rows across the table.
MARKING_SURE = 10.0
OBLIQUE = 0.15  # opposite sides' image lengths differing by more: too oblique to measure balls in a top view
# How far (log) the balls may read off the game's own size and it still be taken: what a ball is measured
# to (``vision.ball_size``: -3 % to +6 % on 32 of Arbiter's renders of 12, 10, 9, 6 ft snooker and 9, 8,
# 7 ft pool, -8 % to 0 on rendered clips' first frames, -4 % to 0 on pooltool's overhead views; on the
# real photos 0.89-1.00 of their hand-labelled radii, themselves good to a few %). Further off, the
# nearest size is taken.
SIZE_PRIOR = math.log(1.1)
# Sizes nearer each other than this (log) are not told apart by the balls (``too_close_to_tell``): twice
# what a ball is measured to on real photos, with room. Snooker's 10 ft and 12 ft (1.2) and pool's 8 ft
# and 9 ft (1.09) stay too close: the renders alone would allow 10 ft from 12 ft, three real photos do not.
TELL_APART = math.log(1.25)
SIZE_MISFIT = math.log(1.15)  # log-distance above which no catalogue size fits the balls measured
# What a measure of the balls cannot tell apart even where the nearest size is the game's own: sizes within
# this (log) of it. On 416 rendered first frames (``arbiter eval table-sizes``, seeds 9500-9700) the balls
# measured within -4 % and +6 % of their truth but for a few gross misreads; an 11 ft pyramid table's balls
# read 4 % small measure it as the 12 ft one (7.8 % longer), which was taken silently 5 times in 208 frames.
SIZE_BAND = math.log(1.05)
# Middle pockets: looked for in bands this wide (share of the length) outside the long cushions, within
# POCKET_SEARCH of the middle; a pocket stands POCKET_EVIDENCE noise units out of its band, is at most
# POCKET_MAX_WIDTH long (a player beside the table is longer) and both sides agree within POCKET_AGREE.
POCKET_BAND = 0.04
POCKET_SEARCH = 0.2
POCKET_SMOOTH = 0.004
POCKET_EVIDENCE = 6.0
POCKET_MAX_WIDTH = 0.08
POCKET_AGREE = 0.02
POCKET_COVER = 75  # percentile across a band's width: a pocket's hole covers part of it
POCKET_CANDIDATES = 3  # peaks kept per side

# The farthest a cushion's nose lies inside the cloth's outline, on the table (mm): the cushion's top is
# ~50 mm; noses found on the broadcast renders lie 35-170 mm in as the outline's homography measures it, a
# baulk line taken for a nose 230-450 mm.
NOSE_REACH_MM = 250.0


@dataclass(frozen=True)
class PlaneView:
    """What one rectangle seen in perspective gives: the focal length (None where the view cannot tell)
    and the metric ratio of side 0 (corner 0 to 1) to side 1 (corner 1 to 2)."""

    f_px: float | None
    aspect: float


def plane_view(quad_px: np.ndarray, image_size: tuple[int, int]) -> PlaneView:
    """The focal length (square pixels, principal point at the image centre) from the two vanishing points
    of a rectangle's image, and its metric aspect; a typical lens where the vanishing points cannot tell."""
    c = np.array([image_size[0] / 2, image_size[1] / 2])
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    h = cv2.getPerspectiveTransform(unit, (quad_px - c).astype(np.float32))
    h1, h2 = h[:, 0], h[:, 1]
    den = h1[2] * h2[2]
    f2 = -(h1[0] * h2[0] + h1[1] * h2[1]) / den if abs(den) > 1e-12 else -1.0
    diag = float(np.hypot(*image_size))
    # No camera has a focal length shorter than a fisheye's (FOCAL_SPAN): a broadcast view's ends, nearly
    # parallel, swing their vanishing point a pixel's worth to one that short, and its aspect turns the
    # table's long sides short.
    known = max(0.2 * diag, FOCAL_SPAN[0] * image_size[0]) < math.sqrt(max(f2, 0.0)) < 20 * diag
    f = math.sqrt(f2) if known else image_size[0] / (2 * math.tan(math.radians(PRIOR_HFOV_DEG / 2)))
    k_inv = np.diag([1 / f, 1 / f, 1.0])
    aspect = float(np.linalg.norm(k_inv @ h1) / np.linalg.norm(k_inv @ h2))
    return PlaneView(f if known else None, aspect)


def aspects_seen(quad_px: np.ndarray, image_size: tuple[int, int], focal_px: np.ndarray) -> np.ndarray:
    """The metric aspect (long over short, >= 1) of a rectangle imaged as ``quad_px`` by a pinhole of each
    focal length in ``focal_px`` (principal point at the image centre): what shapes some camera could
    make of it, where the quad itself cannot tell its focal length (a camera square behind one end)."""
    c = np.array([image_size[0] / 2, image_size[1] / 2])
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    h = cv2.getPerspectiveTransform(unit, (quad_px - c).astype(np.float32))
    h1, h2 = h[:, 0], h[:, 1]
    f = np.asarray(focal_px, np.float64)[:, None]
    n1 = np.hypot(np.hypot(h1[0] / f, h1[1] / f), h1[2])[:, 0]
    n2 = np.hypot(np.hypot(h2[0] / f, h2[1] / f), h2[2])[:, 0]
    ratio = n1 / np.maximum(n2, 1e-12)
    return np.asarray(np.maximum(ratio, 1.0 / np.maximum(ratio, 1e-12)))


def shaped_like_a_table(quad_px: np.ndarray, image_size: tuple[int, int]) -> bool:
    """Whether corners are a billiard table's shape (TABLE_ASPECTS) as their own vanishing points tell the
    focal length, or, where those cannot tell it (a camera square behind one end sees the ends nearly
    parallel: a pixel swings the estimate from a fisheye to a zoom), for some focal length a camera has
    (FOCAL_SPAN of the image's width). An end placed from the middle pockets right to 0.3 % came out a
    1.3:1 table at the 375 px its corners told for a 1,600 px broadcast lens."""
    if _table_shaped(plane_view(quad_px, image_size).aspect):
        return True
    if focal_told(quad_px, image_size):
        return False
    shapes = aspects_seen(quad_px, image_size, np.geomspace(FOCAL_SPAN[0], FOCAL_SPAN[1], 40) * image_size[0])
    return any(_table_shaped(float(a)) for a in shapes)


def _table_shaped(aspect: float) -> bool:
    return TABLE_ASPECTS[0] <= max(aspect, 1.0 / max(aspect, 1e-9)) <= TABLE_ASPECTS[1]


def focal_told(quad_px: np.ndarray, image_size: tuple[int, int]) -> bool:
    """Whether a quad's vanishing points tell its focal length (``plane_view``): within FOCAL_TOLD wherever
    one of its corners moves a pixel."""
    focals = []
    for k in range(4):
        for step in ((1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)):
            nudged = np.array(quad_px, np.float64)
            nudged[k] += step
            focals.append(plane_view(nudged, image_size).f_px)
    known = [f for f in focals if f is not None]
    return len(known) == len(focals) and max(known) - min(known) < FOCAL_TOLD * max(known)


def corner_index(quad_px: np.ndarray, point: np.ndarray) -> int:
    """The corner of ``quad_px`` (4, 2) nearest ``point``."""
    return int(np.argmin(np.linalg.norm(quad_px - np.asarray(point), axis=1)))


def quad_sides(quad_px: np.ndarray, corners: Mapping[str, np.ndarray]) -> dict[str, int | None]:
    """Which side of ``quad_px`` (k: from corner k to corner k + 1) each named side (``bottom top left
    right``) is, its corners named in ``corners``; None where they are not neighbours in the quad."""
    index = {n: corner_index(quad_px, p) for n, p in corners.items()}
    out: dict[str, int | None] = {}
    for name, (a, b) in SIDE_CORNERS.items():
        i, j = index[a], index[b]
        out[name] = i if (i + 1) % 4 == j else j if (j + 1) % 4 == i else None
    return out


def name_corners(quad_px: np.ndarray, view: PlaneView) -> dict[str, np.ndarray]:
    """``bl, br, tr, tl`` from a quad: the long sides run along the table's y (the longer metric pair), and
    of the two ends the bottom is where the synthetic camera and a broadcast camera put it: +y pointing to
    the image's right, or up for a table along the image's height (the near end, behind which a broadcast
    camera stands). One-ended markings may turn it round (``marking_evidence``)."""
    long_first = view.aspect >= 1.0  # sides 0 and 2 are the long ones
    best: dict[str, np.ndarray] = {}
    best_score = -np.inf
    for k in range(4):
        c = quad_px[[(k + i) % 4 for i in range(4)]]
        # c[0] -> c[1] must be a short side (the bottom cushion), c[1] -> c[2] a long one.
        if (k % 2 == 0) == long_first:
            continue
        up = (c[2] + c[3] - c[0] - c[1]) / 2
        score = (up[0] - up[1]) / max(float(np.linalg.norm(up)), 1e-9)
        if score > best_score:
            best, best_score = _left_right(c), score
    return best


def _left_right(c: np.ndarray) -> dict[str, np.ndarray]:
    """Names for a quad whose c[0]-c[1] is the bottom side and c[2]-c[3] the top one. Standing at the
    bottom looking up the table, left is where image y points down: the viewer's left."""
    up = (c[2] + c[3] - c[0] - c[1]) / 2
    left = np.array([up[1], -up[0]])
    bl, br = (c[0], c[1]) if np.dot(c[0] - c[1], left) > 0 else (c[1], c[0])
    tl, tr = (c[3], c[2]) if np.dot(c[3] - c[2], left) > 0 else (c[2], c[3])
    return {"bl": bl, "br": br, "tr": tr, "tl": tl}


def quad_of(corners: Mapping[str, np.ndarray]) -> np.ndarray:
    """Named corners (``bl br tr tl``) as a 4 x 2 float64 array in CORNER_NAMES' order."""
    return np.array([corners[k] for k in CORNER_NAMES], np.float64)


def cloth_corners_mm(table: TableModel) -> np.ndarray:
    """The playing area's corners on the table (mm, 4 x 2), in CORNER_NAMES' order: bl, br, tr, tl."""
    w, length = table.width_mm, table.length_mm
    return np.array([[0.0, 0.0], [w, 0.0], [w, length], [0.0, length]])


def homography(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """The 3 x 3 homography taking four points ``src`` to ``dst`` (DLT in float64, exact)."""
    rows = []
    for (x, y), (u, v) in zip(src, dst, strict=True):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y, -u])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y, -v])
    return np.asarray(np.linalg.svd(np.array(rows, np.float64))[2][-1].reshape(3, 3))


def nose_reach_px(quad_px: np.ndarray, view: PlaneView, table: TableModel) -> list[float]:
    """How far (px) inward of each side of the cloth's outline ``quad_px`` (side k from corner k to corner
    k + 1) a cushion's nose may be: NOSE_REACH_MM on the table, as the outline's homography puts it (the
    outline taken as the cushions' outer edge) at the side's better-seen end. A far end seen at two px per
    percent of the length has its nose a few px in; the baulk line 20 % of the length inside it is none."""
    c = table.cushion_width_mm
    w, length = table.width_mm, table.length_mm
    outer = np.array([[-c, -c], [w + c, -c], [w + c, length + c], [-c, length + c]])
    to_table = np.linalg.inv(homography(outer, quad_of(name_corners(quad_px, view))))
    out = []
    for k in range(4):
        a, b, _, inward = quad_side(quad_px, k)
        reach = 0.0
        for t in (0.15, 0.85):  # clear of the corners' pockets
            at = a + t * (b - a)
            mm = apply_homography(to_table, np.array([at, at + inward]))  # one px inward, on the table
            per_px = float(np.linalg.norm(mm[1] - mm[0]))
            reach = max(reach, NOSE_REACH_MM / per_px if per_px > 0 and math.isfinite(per_px) else math.inf)
        out.append(reach)
    return out


def apply_homography(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Points (N, 2) through the homography ``h``."""
    p = np.c_[pts, np.ones(len(pts))] @ h.T
    return np.asarray(p[:, :2] / p[:, 2:3])


def turned(corners: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The same corners named from the other end of the table."""
    return {"bl": corners["tr"], "br": corners["tl"], "tr": corners["bl"], "tl": corners["br"]}


def top_view(
    image: np.ndarray, corners: dict[str, np.ndarray], aspect: float, k1: float = 0.0, f_px: float = 0.0
) -> np.ndarray:
    """The bed seen from above, TOP_VIEW_LENGTH_PX long: bottom cushion at the bottom, x across. ``k1``
    (normalised by ``f_px``, about the image's centre) is a lens's radial distortion the finder found
    (``TableCorners.k1``): the view is then made from the image straightened by it, in one resampling, so
    that lengths across the bed keep their shares of it (a bowed view shrinks or swells the balls in the
    middle of the table against its corners by several %)."""
    length = TOP_VIEW_LENGTH_PX
    width = max(8, round(length / max(aspect, 1.0)))
    src = np.array([corners[k] for k in ("tl", "tr", "br", "bl")], np.float64)
    dst = np.array([[0, 0], [width, 0], [width, length], [0, length]], np.float32)
    if k1 == 0.0:
        h = cv2.getPerspectiveTransform(src.astype(np.float32), dst)
        return cv2.warpPerspective(image, h, (width, length))
    centre = principal_point((image.shape[1], image.shape[0]))
    straight = centre + f_px * undistort((src - centre) / f_px, k1, 0.0)
    back = cv2.getPerspectiveTransform(dst, straight.astype(np.float32))
    grid = np.stack(np.meshgrid(np.arange(width, dtype=np.float32), np.arange(length, dtype=np.float32)), -1)
    flat = cv2.perspectiveTransform(grid.reshape(-1, 1, 2), back).reshape(length, width, 2)
    at = distort(flat, centre, f_px, k1).astype(np.float32)
    return cv2.remap(image, at[..., 0], at[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)


def marking_evidence(view: np.ndarray, table: TableModel) -> float:
    """How much more the table's one-ended lines (snooker's baulk line, five-pins' lag line) show where
    the naming puts them than at their mirror images, in noise units: > 0 confirms the bottom end, < 0
    says the table is the other way round, ~0 that the markings cannot tell (pool's head and foot strings
    mirror each other). The rows' profile is the median across the width, so players, cues and balls over
    part of a line do not hide it; and it is read along small shears of the view (``_sheared_rows``), the
    strongest taken: a line one or two pixels wide, tilted by a pixel or two across a view made from
    corners a fraction of a percent off, lies in no one row across most of the width (the small snooker
    table's dark baulk line in a 1280 px frame under blue light: 9.7 along the rows, 16.6 sheared)."""
    length = table.length_mm
    ys = {round(ln.y_mm, 1) for ln in table.lines}
    one_ended = [ln.y_mm / length for ln in table.lines if round(length - ln.y_mm, 1) not in ys]
    if not one_ended:
        return 0.0
    gray = cv2.cvtColor(view, cv2.COLOR_BGR2GRAY).astype(np.float32)
    evidence = 0.0
    for rows in _sheared_rows(gray):
        row = np.median(rows, axis=1)
        for polarity in (1.0, -1.0):
            e = _line_against_mirror(polarity * row, one_ended)
            evidence = e if abs(e) > abs(evidence) else evidence
    return evidence


def _sheared_rows(gray: np.ndarray) -> Iterator[np.ndarray]:
    """The top view's MARKING_BAND as MARKING_COLUMNS evenly spaced columns, every row read along lines
    sheared by -MARKING_SHEAR_PX to MARKING_SHEAR_PX (in steps of MARKING_SHEAR_STEP_PX) from the band's one
    side to its other, about its middle: (rows, columns) float32 each."""
    h, w = gray.shape
    xs = np.linspace(MARKING_BAND[0] * w, MARKING_BAND[1] * w - 1, MARKING_COLUMNS, dtype=np.float32)
    across = (xs - xs.mean()) / max(float(xs[-1] - xs[0]), 1.0)  # -0.5 .. 0.5
    map_x = np.broadcast_to(xs[None, :], (h, len(xs))).copy()
    rows_y = np.arange(h, dtype=np.float32)[:, None]
    for shear in np.arange(-MARKING_SHEAR_PX, MARKING_SHEAR_PX + 1e-6, MARKING_SHEAR_STEP_PX):
        map_y = (rows_y + np.float32(shear) * across[None, :]).astype(np.float32)
        yield cv2.remap(gray, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _line_against_mirror(row: np.ndarray, at_shares: list[float]) -> float:
    """A row profile's peaks where lines lie (``at_shares`` of its length from its bottom) less those at their
    mirror images, summed, in the profile's robust noise units (high-passed at MARKING_SMOOTH)."""
    h = len(row)
    smooth = cv2.GaussianBlur(row.reshape(-1, 1), (1, 0), sigmaX=0, sigmaY=MARKING_SMOOTH * h).ravel()
    hp = row - smooth
    noise = 1.4826 * float(np.median(np.abs(hp - np.median(hp)))) + 1e-3
    win = max(3, int(MARKING_WINDOW * h))

    def peak(share_from_top: float) -> float:
        c = int(share_from_top * h)
        return float(np.max(hp[max(0, c - win) : c + win + 1]))

    return sum(peak(1 - at) - peak(at) for at in at_shares) / noise


def corner_resolution(corners: dict[str, np.ndarray], aspect: float) -> float:
    """How much of the table's length one pixel spans at the worst-seen corner (the far end of a
    broadcast view): the largest stretch of the image-to-table homography at the four corners."""
    src = quad_of(corners)
    dst = np.array([[0, 0], [1 / aspect, 0], [1 / aspect, 1], [0, 1]], np.float64)
    h = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))

    def to_table(p: np.ndarray) -> np.ndarray:
        v = h @ np.array([p[0], p[1], 1.0])
        return np.asarray(v[:2] / v[2])

    worst = 0.0
    dx, dy = np.array([0.5, 0.0]), np.array([0.0, 0.5])
    for p in src:
        jac = np.stack([to_table(p + dx) - to_table(p - dx), to_table(p + dy) - to_table(p - dy)], 1)
        worst = max(worst, float(np.linalg.svd(jac, compute_uv=False)[0]))
    return worst


def oblique(quad_px: np.ndarray) -> bool:
    """Whether a table's image is too far from a straight-down view for the top view's balls to be
    measured (they stretch away from the camera): opposite sides differing by more than OBLIQUE."""
    lengths = [float(np.linalg.norm(quad_px[(k + 1) % 4] - quad_px[k])) for k in range(4)]
    return any(
        max(a, b) > (1 + OBLIQUE) * min(a, b) for a, b in ((lengths[0], lengths[2]), (lengths[1], lengths[3]))
    )


@dataclass(frozen=True)
class SizeChoice:
    """The catalogue size taken, and on what: ``measured`` when the balls were seen (else the game's own
    table is assumed); ``misfit`` the log-distance of the nearest size from what was measured."""

    size: TableSize
    measured: bool
    misfit: float
    balls_per_length: float | None
    nearest: TableSize | None = None  # the catalogue size nearest what was measured (None: not measured)
    within_band: tuple[TableSize, ...] = ()  # the catalogue sizes within SIZE_BAND of what was measured


def choose_size(table: TableModel, ball_share: float | None) -> SizeChoice:
    """The size of ``table``'s catalogue the balls measured say (the length in ball diameters: every size
    is about 2:1, so the aspect cannot tell them apart; the balls can, a 12 ft snooker table being 68 of
    them long and a 6 ft one 34): the game's own size unless the balls are off it by more than SIZE_PRIOR,
    then the nearest (a size too close to the game's own to tell apart, ``too_close_to_tell``, is the
    caller's to doubt, also where it is the nearest but within SIZE_PRIOR of the game's own). Without
    balls, the game's own size."""
    own = table.table_size(table.size) if table.sizes and table.size else None
    if own is None:
        own = TableSize(table.size, table.size, table.length_mm, table.width_mm, "the game's table")
    if ball_share is None or not table.sizes:
        return SizeChoice(own, False, 0.0, None)
    per_length = 1.0 / ball_share

    def misfit(s: TableSize) -> float:
        return abs(math.log(per_length * table.ball_diameter_mm / s.length_mm))

    nearest = min(table.sizes, key=misfit)
    best = own if misfit(own) <= SIZE_PRIOR else nearest
    band = tuple(s for s in table.sizes if misfit(s) <= SIZE_BAND)
    return SizeChoice(best, True, misfit(best), per_length, nearest, band)


def too_close_to_tell(a: TableSize, b: TableSize) -> bool:
    """Two sizes whose lengths differ by less than TELL_APART: the balls cannot tell them apart (snooker's
    10 ft and 12 ft, pool's 8 ft and 9 ft)."""
    return a.name != b.name and abs(math.log(a.length_mm / b.length_mm)) < TELL_APART


def middle_pockets(image: np.ndarray, corners: dict[str, np.ndarray], aspect: float) -> float | None:
    """Where the middle pockets are along the table, as a share of its length from the bottom, read in a
    top view of the bands just outside both long cushions: a pocket is a place where such a band is unlike
    the rest of it (a dark hole, a white net). None unless both sides show one at the same place (a cue or
    an arm crosses one side only). The corners' homography puts them at 0.5 when the corners are right; a
    cushion taken from a graphic's edge, or from the wrong edge, moves them."""
    sides = middle_pocket_sides(image, corners, aspect)
    return None if sides is None else (sides[0] + sides[1]) / 2


def middle_pocket_sides(
    image: np.ndarray, corners: dict[str, np.ndarray], aspect: float, agree: float = POCKET_AGREE
) -> tuple[float, float] | None:
    """``middle_pockets`` on each long side: the shares of the length from the bottom at which the left and
    the right middle pocket are seen (the strongest pair within ``agree`` of each other), or None."""
    length = TOP_VIEW_LENGTH_PX
    width = max(8, round(length / max(aspect, 1.0)))
    band = max(4, round(POCKET_BAND * length))
    src = np.array([corners[k] for k in ("tl", "tr", "br", "bl")], np.float32)
    dst = np.array([[band, 0], [band + width, 0], [band + width, length], [band, length]], np.float32)
    view = cv2.warpPerspective(
        image, cv2.getPerspectiveTransform(src, dst), (width + 2 * band, length), borderValue=(0, 0, 0)
    )
    left, right = _pocket_rows(view[:, :band]), _pocket_rows(view[:, band + width :])
    pairs = [(el + er, yl, yr) for yl, el in left for yr, er in right if abs(yl - yr) <= agree]
    if not pairs:
        return None
    _, yl, yr = max(pairs)
    return 1.0 - yl, 1.0 - yr  # rows run from the top cushion down


def _pocket_rows(band: np.ndarray) -> list[tuple[float, float]]:
    """Rows (share of the length from the top) where a band along a cushion is unlike itself, within
    POCKET_SEARCH of the middle, with their evidence in noise units: the strongest few peaks, each no
    longer than a pocket. Empty when the band is blank (out of view)."""
    lab = cv2.cvtColor(band, cv2.COLOR_BGR2LAB).astype(np.float32)
    if float(lab[..., 0].std()) < 1.0:
        return []
    # Each column against its own median along the band: a band that takes in two things (the cushion's
    # face and the rail, seen at a slant) is not itself a pocket all along.
    far = np.linalg.norm(lab - np.median(lab, axis=0, keepdims=True), axis=2)
    odd = np.percentile(far, POCKET_COVER, axis=1).astype(np.float32)  # a hole fills part of the band
    odd = cv2.GaussianBlur(odd.reshape(-1, 1), (1, 0), sigmaX=0, sigmaY=POCKET_SMOOTH * len(odd)).ravel()
    h = len(odd)
    base = float(np.median(odd))
    noise = 1.4826 * float(np.median(np.abs(odd - base))) + 1e-3
    lo, hi = int((0.5 - POCKET_SEARCH) * h), int((0.5 + POCKET_SEARCH) * h)
    reach = max(1, int(POCKET_AGREE * h))
    peaks = cv2.dilate(odd.reshape(-1, 1), np.ones((2 * reach + 1, 1), np.uint8)).ravel()
    rows = [k for k in range(lo, hi) if odd[k] >= peaks[k] and (odd[k] - base) / noise >= POCKET_EVIDENCE]
    out = []
    for k in sorted(rows, key=lambda r: -odd[r])[:POCKET_CANDIDATES]:
        below = np.nonzero(odd < base + 0.5 * (odd[k] - base))[0]  # the peak's extent at half its height
        j0 = int(below[below < k].max(initial=-1)) + 1
        j1 = int(below[below > k].min(initial=h)) - 1
        if (j1 - j0) / h <= POCKET_MAX_WIDTH:
            out.append(((j0 + j1) / 2 / h, (float(odd[k]) - base) / noise))
    return out
