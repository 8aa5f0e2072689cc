"""The four cushion lines of a table from its cloth region: the outline cut into four sides, a RANSAC line
per side; ``vision.cushion_noses`` then moves each line inward to the cushion's nose where the image shows
one, and on to the bed's edge where the cushion's face shows.

RANSAC, not a least-squares fit: an arm, a cue, a player's body, a ball on the cushion or a pocket's notch
bends the outline for a stretch, and a line through the majority of the side's points ignores them. Where no
nose is found (cushions not cloth-coloured, a frame cut at the noses) the outline is taken as the nose, and
the side says so. Also here: the straightest lens bend of the sides (``straightest_k1``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision.camera_fit import undistort

RANSAC_ITERS = 300
RANSAC_TOL = 0.006  # inlier distance, share of the region's diagonal: occluders stand farther out
CORNER_CLEAR = 0.12  # outline points this share of a side's length from its ends are left out (pockets)
SIDE_REACH, SIDE_REACH_WIDE = (
    0.05,
    0.08,
)  # outline points this far from a side (share of the diagonal) are its
MIN_SIDE_POINTS = 8
MIN_SEEN_SHARE = 0.2  # a side is fitted beside a graphic when this share of it is seen (else it is hidden)
# A graphic's edge over part of a side, told from the outline alone (``flat_run``): the side within FLAT_DEG
# of the image's rows, a run of outline points along one row at least FLAT_RUN of the side's points, lying
# inward of the line the side's other points make beside it by FLAT_INWARD of the diagonal (a score bar
# hides the cushion and some cloth; a cushion tilted by a fraction of a degree steps along rows on the
# others' line).
FLAT_DEG, FLAT_RUN, FLAT_INWARD = 8.0, 0.15, 0.003
FLAT_ROWS = 1  # the run's rows either side of its commonest (an edge between two rows of the working copy)
# ... and the other points' line must be seen beside the run, on at least this share of the side's points: a
# bar over part of the cushion leaves the rest of it in view along the side; points behind the run (a rail,
# a pocket beyond a far cushion, cloth below a bar across the table) are no cushion to prefer to it.
FLAT_BESIDE = 0.2
K1_SEARCH, K1_STEPS = 0.3, 61  # |k1| range tried for the sides' straightness: wider than any lens's
STRAIGHT_TRIM = 0.7  # share of a side's outline points a line is fitted to when judging its straightness
STRAIGHT_GAIN = 0.6  # a k1 is taken only when it leaves less than this share of the sides' crookedness
BORDER_PX = 2  # outline points this close to the frame's edge are the frame's, not the table's
HIDDEN_PX = 2  # ... and this close to an ignored pixel (a graphic) are the graphic's


@dataclass(frozen=True)
class SideFit:
    """One side of the table in full-image pixels: a point, the unit direction, the inward unit normal;
    how much of its outline lies on the line (``inliers``), and of those points how many are the frame's
    edge (``on_border``) or a graphic's (``hidden``); whether it was moved to a nose edge, and the share of
    profiles that agreed on that edge; whether its line lies on the cloth (``on_the_bed``) rather than at
    the nose's height."""

    point: np.ndarray
    direction: np.ndarray
    inward: np.ndarray
    inliers: float
    on_border: float = 0.0
    hidden: float = 0.0
    nose_moved: bool = False
    nose_support: float = 0.0
    on_the_bed: bool = False  # its line lies on the cloth (the bed's edge seen, or placed), not at the nose
    outline: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)), repr=False)  # its outline points


def main_contour(mask: np.ndarray) -> np.ndarray | None:
    """The largest outer contour of a mask, (N, 2) float, or None."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    return max(contours, key=cv2.contourArea).reshape(-1, 2).astype(np.float64)


def quad_from_region(mask: np.ndarray) -> np.ndarray | None:
    """Four corners (4 x 2, mask px) approximating the region's convex hull, or None without a region."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    perimeter = cv2.arcLength(hull, True)
    for eps in np.linspace(0.01, 0.15, 40):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) == 4:
            return approx.reshape(4, 2).astype(np.float64)
        if len(approx) < 4:
            break
    return cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float64)


def ransac_line(
    pts: np.ndarray, tol: float, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The line through most of ``pts`` (within ``tol``), refitted to its inliers: point, unit direction
    and the inlier mask."""
    pairs = np.array([rng.choice(len(pts), 2, replace=False) for _ in range(RANSAC_ITERS)])
    d = pts[pairs[:, 1]] - pts[pairs[:, 0]]
    length = np.linalg.norm(d, axis=1)
    normal = np.stack([-d[:, 1], d[:, 0]], axis=1) / np.maximum(length, 1e-9)[:, None]
    # Every draw's inliers at once (draws x points); the first draw with the most wins, as drawn in turn.
    inliers = np.abs(np.einsum("knd,kd->kn", pts[None, :, :] - pts[pairs[:, 0]][:, None, :], normal)) < tol
    inliers[length < 1e-9] = False
    counts = inliers.sum(axis=1)
    best = inliers[int(np.argmax(counts))] if counts.max() > 0 else np.zeros(len(pts), bool)
    if best.sum() < 2:
        best[:] = True
    vx, vy, x0, y0 = cv2.fitLine(pts[best].astype(np.float32), cv2.DIST_L2, 0, 0.01, 0.01).ravel()
    return np.array([x0, y0], np.float64), np.array([vx, vy], np.float64), best


def _unseen(mask_shape: tuple[int, ...], ignore: np.ndarray | None) -> tuple[np.ndarray, np.ndarray | None]:
    """Masks (mask px) of where outline points are the frame's edge, and where they touch ignored pixels."""
    h, w = mask_shape[:2]
    border = np.zeros((h, w), np.uint8)
    border[:BORDER_PX, :] = border[-BORDER_PX:, :] = border[:, :BORDER_PX] = border[:, -BORDER_PX:] = 1
    if ignore is None or not ignore.any():
        return border, None
    k = 2 * HIDDEN_PX + 1
    return border, cv2.dilate((ignore > 0).astype(np.uint8), np.ones((k, k), np.uint8))


def _side_points(t: np.ndarray, reach: np.ndarray, on_graphic: np.ndarray) -> np.ndarray:
    """The outline points a side's line is fitted to (``t``: where along the side, ``reach``: how far from
    it, share of the diagonal): clear of the corners' pockets, else the whole side; and, where enough of
    them are seen, only those not along a graphic: a score bar over a cushion cuts the cloth region with a
    straight edge of its own, which RANSAC would take for the cushion where the bar covers most of it."""
    windows = (
        (t > CORNER_CLEAR) & (t < 1 - CORNER_CLEAR) & (reach < SIDE_REACH),
        (t > 0) & (t < 1) & (reach < SIDE_REACH_WIDE),
    )
    for sel in windows:
        seen = sel & ~on_graphic
        if seen.sum() >= max(MIN_SIDE_POINTS, MIN_SEEN_SHARE * sel.sum()):
            return np.asarray(seen)
    return windows[0] if windows[0].sum() >= MIN_SIDE_POINTS else windows[1]


def outline_sides(
    mask: np.ndarray,
    quad: np.ndarray,
    scale: float,
    ignore: np.ndarray | None = None,
    seed: int = 0,
    flat_runs: bool = False,
) -> list[SideFit]:
    """A RANSAC line per side of ``quad`` through the outline points near it, in full-image px (the mask is
    ``scale`` times the image). ``ignore`` marks pixels that are not the scene (graphics); with
    ``flat_runs``, so does a graphic's edge the outline shows over part of a side (``flat_run``)."""
    pts = main_contour(mask)
    if pts is None or len(pts) < 4 * MIN_SIDE_POINTS:
        return []
    border, hidden = _unseen(mask.shape, ignore)
    xi, yi = pts[:, 0].astype(int), pts[:, 1].astype(int)
    on_border = border[yi, xi] > 0
    on_graphic = hidden[yi, xi] > 0 if hidden is not None else np.zeros(len(pts), bool)
    diag = float(np.hypot(*mask.shape[:2]))
    rng = np.random.default_rng(seed)
    sides = []
    for k in range(4):
        a, b, d, n = quad_side(quad, k)
        t = (pts - a) @ d / max(float(np.linalg.norm(b - a)), 1e-9)
        dist = np.abs((pts - a) @ n)
        sel = _side_points(t, dist * (1 / diag), on_graphic)
        if sel.sum() < 2:
            return []
        flat = flat_run(pts, sel, n, diag, np.random.default_rng(seed + 1 + k)) if flat_runs else None
        if flat is not None and flat.any():
            sel, on_graphic = sel & ~flat, on_graphic | flat
        p, v, inl = ransac_line(pts[sel], RANSAC_TOL * diag, rng)
        inward = np.array([-v[1], v[0]])
        inward = inward if np.dot(inward, n) > 0 else -inward
        used = np.nonzero(sel)[0][inl]
        sides.append(
            SideFit(
                (p + 0.5) / scale - 0.5,
                v,
                inward,
                float(inl.mean()),
                float(on_border[used].mean()),
                float(on_graphic[used].mean()),
                outline=(pts[sel] + 0.5) / scale - 0.5,
            )
        )
    return sides


def quad_side(quad: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Side ``k`` of a quad (from corner k to corner k + 1): its ends, its unit direction and its unit normal
    towards the quad's middle."""
    a, b = quad[k], quad[(k + 1) % 4]
    along = (b - a) / max(float(np.linalg.norm(b - a)), 1e-9)
    inward = np.array([-along[1], along[0]])
    return a, b, along, inward if np.dot(quad.mean(axis=0) - a, inward) > 0 else -inward


def flat_run(
    pts: np.ndarray, sel: np.ndarray, inward: np.ndarray, diag: float, rng: np.random.Generator
) -> np.ndarray:
    """The outline points of a side (``pts[sel]``, ``inward`` its normal towards the cloth) that are a
    graphic's straight edge over part of it (FLAT_DEG, FLAT_RUN, FLAT_INWARD): a screen graphic's edge runs
    along the image's rows, and it lies inside the cushion the rest of the side shows. None (all False)
    where the side shows no such run, or too little of the rest to fit a line to."""
    none = np.zeros(len(pts), bool)
    if abs(float(inward[0])) > np.sin(np.radians(FLAT_DEG)):
        return none
    idx = np.nonzero(sel)[0]
    rows = np.round(pts[idx, 1]).astype(int)
    values, counts = np.unique(rows, return_counts=True)
    row = int(values[np.argmax(counts)])
    run = idx[np.abs(rows - row) <= FLAT_ROWS]
    rest = sel.copy()
    rest[run] = False
    if len(run) < FLAT_RUN * len(idx) or rest.sum() < max(MIN_SIDE_POINTS, MIN_SEEN_SHARE * len(idx)):
        return none
    p, v, inl = ransac_line(pts[rest], RANSAC_TOL * diag, rng)
    beside = pts[rest][inl]
    lo, hi = float(pts[run, 0].min()), float(pts[run, 0].max())
    apart = (beside[:, 0] < lo) | (beside[:, 0] > hi)  # along the side beside the run, not behind it
    if apart.sum() < max(MIN_SIDE_POINTS, FLAT_BESIDE * len(idx)):
        return none
    normal = np.array([-v[1], v[0]])
    normal = normal if np.dot(normal, inward) > 0 else -normal
    if float(np.median((pts[run] - p) @ normal)) < FLAT_INWARD * diag:
        return none
    out = none.copy()
    out[run] = True
    return out


def refined_sides(
    mask: np.ndarray,
    quad: np.ndarray,
    scale: float,
    ignore: np.ndarray | None = None,
    rounds: int = 2,
    flat_runs: bool = False,
) -> list[SideFit]:
    """``outline_sides`` repeated on the quad of its own lines: a first quad bent by a bright window or an
    arm gives some outline points to the wrong side; the majority's lines straighten it."""
    sides = outline_sides(mask, quad, scale, ignore, flat_runs=flat_runs)
    for _ in range(rounds):
        if len(sides) != 4:
            return sides
        q = (corners_of(sides) + 0.5) * scale - 0.5
        if not np.all(np.isfinite(q)):
            break
        again = outline_sides(mask, q, scale, ignore, flat_runs=flat_runs)
        if len(again) != 4:
            break
        sides = again
    return sides


def placed_side(quad: np.ndarray, k: int, side: SideFit) -> SideFit:
    """``side`` moved onto the quad's side ``k`` (from corner k to corner k + 1), placed, not seen (from a
    marking or the pockets): its outline (a graphic's or the frame's edge) is dropped, so it cannot bend the
    lens's k1 either, and it is neither cut nor hidden."""
    a, b = quad[k], quad[(k + 1) % 4]
    direction = (b - a) / float(np.linalg.norm(b - a))
    inward = np.array([-direction[1], direction[0]])
    inward = inward if np.dot(quad.mean(axis=0) - a, inward) > 0 else -inward
    return replace(
        side,
        point=a,
        direction=direction,
        inward=inward,
        on_border=0.0,
        hidden=0.0,
        outline=np.zeros((0, 2)),
        on_the_bed=True,
    )


def intersect(s1: SideFit, s2: SideFit) -> np.ndarray:
    """Where two sides' lines cross (NaN when parallel)."""
    return lines_cross(s1.point, s1.direction, s2.point, s2.direction)


def lines_cross(p1: np.ndarray, d1: np.ndarray, p2: np.ndarray, d2: np.ndarray) -> np.ndarray:
    """Where the line through ``p1`` along ``d1`` crosses the one through ``p2`` along ``d2`` (NaN when
    parallel)."""
    m = np.array([d1, -d2]).T
    if abs(np.linalg.det(m)) < 1e-9:
        return np.full(2, np.nan)
    t = np.linalg.solve(m, p2 - p1)[0]
    return np.asarray(p1 + t * d1)


def corners_of(sides: list[SideFit]) -> np.ndarray:
    """Corner k is where side k-1 meets side k (the quad's vertex order)."""
    return np.array([intersect(sides[k - 1], sides[k]) for k in range(4)])


def straightest_k1(sides: list[SideFit], centre: np.ndarray, f: float) -> float:
    """The radial distortion k1 (normalised by ``f``, about ``centre``) that makes the sides' outline
    points straightest: a wide lens bows the cushions, and straight lines through bowed sides miss the
    corners. Each side's cost is a trimmed mean (an arm or a cue on the cushion is not a bend). 0 unless
    the bend explains most of what is not straight (STRAIGHT_GAIN): pockets, rails and a cue make
    outlines ragged, and a k1 fitted to that would bend straight sides; 0 too where the straightest is at
    the end of the range tried (a score bar across an end bends its outline without end: a broadcast
    render's k1 of -0.006 was read as 0.3, and its near end came out 3.8 % short)."""
    if any(len(s.outline) < MIN_SIDE_POINTS for s in sides):
        return 0.0

    def cost(k1: float) -> float:
        total = 0.0
        for s in sides:
            xu = undistort((s.outline - centre) / f, k1, 0.0)
            keep = np.ones(len(xu), bool)
            for _ in range(2):  # fit, drop what lies off the line (a pocket's notch, an arm), fit again
                mean = xu[keep].mean(axis=0)
                normal = np.linalg.svd(xu[keep] - mean, full_matrices=False)[2][1]
                r2 = ((xu - mean) @ normal) ** 2
                keep = r2 <= np.quantile(r2, STRAIGHT_TRIM)
            total += float(np.median(r2))
        return total

    grid = np.linspace(-K1_SEARCH, K1_SEARCH, K1_STEPS)
    costs = np.array([cost(k) for k in grid])
    j = int(np.argmin(costs))
    if j in (0, len(grid) - 1):
        return 0.0  # still straighter beyond any lens's bend: the outline is bent by something else
    k1 = float(grid[j])
    if 0 < j < len(grid) - 1 and costs[j - 1] - 2 * costs[j] + costs[j + 1] > 0:
        a, b, c = costs[j - 1], costs[j], costs[j + 1]
        k1 += 0.5 * (a - c) / (a - 2 * b + c) * (grid[1] - grid[0])
    return k1 if cost(k1) < STRAIGHT_GAIN * cost(0.0) else 0.0


def distort(px: np.ndarray, centre: np.ndarray, f: float, k1: float) -> np.ndarray:
    """Where points of the straightened image (``undistorted``) lie in the image itself."""
    xn = (px - centre) / f
    return np.asarray(centre + f * xn * (1.0 + k1 * np.sum(xn * xn, axis=-1, keepdims=True)))


def undistorted(
    image: np.ndarray, centre: np.ndarray, f: float, k1: float, nearest: bool = False
) -> np.ndarray:
    """The image with its radial distortion ``k1`` taken out: straight cushions come out straight."""
    h, w = image.shape[:2]
    grid = np.stack(np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32)), axis=-1)
    src = distort(grid, centre.astype(np.float32), f, k1).astype(np.float32)
    mode = cv2.INTER_NEAREST if nearest else cv2.INTER_LINEAR
    return cv2.remap(image, src[..., 0], src[..., 1], mode, borderMode=cv2.BORDER_CONSTANT)
