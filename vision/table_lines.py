"""The four cushion lines of a table from its cloth region: the outline cut into four sides, a RANSAC line
per side, then each line moved inward to the cushion nose where the image shows one.

RANSAC, not a least-squares fit: an arm, a cue, a player's body, a ball on the cushion or a pocket's notch
bends the outline for a stretch, and a line through the majority of the side's points ignores them. The
cloth region usually takes in the cushion tops (the same cloth covers them), so its outline is the
cushions' outer edge; the playing area ends at the noses, a parallel step of brightness (the shaded face,
or its shadow line) a cushion's width inside. Where no such step is found (cushions not cloth-coloured,
a frame cut at the noses) the outline is taken as the nose, and the side says so.
"""

from __future__ import annotations

import math
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
NOSE_BAND = (0.004, 0.05)  # the nose is looked for this far inside the outline (share of the image diagonal)
NOSE_STEP_PX = 0.5  # sampling step across a side
PROFILES = 60  # profiles across each side for the nose search
MIN_SEEN_PROFILES = 8  # profiles clear of graphics needed to look for the nose at all
GRAPHIC_CLEAR = 0.04  # ... else profiles go this near the side's ends (a pocket's jaws), beside the graphic
MIN_NOSE_SUPPORT = 0.5  # share of profiles whose own strongest step agrees with the common one
NOSE_AGREE = 0.004  # ... within this share of the diagonal
NOSE_CONTRAST = 3.0  # the common step must be this many times the median step across the band
# ... and at least this many grey levels a sample: a cushion the cloth's colour under even light shows no
# nose at all, and a step of a few tenths of a level there is the cloth's shading (a broadcast render's far
# end moved 16 px onto the bed by one of 0.15)
MIN_NOSE_STEP = 0.3
NOSE_DIP = 0.3  # between the outline and the nose the step must fall below this share of the nose's
# A nose whose offset from the outline changes along the side (``_tilt``) is lined up where its common step
# is this many times that of the outline's parallel; shifts are tried in steps of TILT_STEP samples.
TILT_GAIN, TILT_STEP = 1.25, 2
# ... on a side that runs up the image at least this steeply (rows over columns: a long side seen from behind
# an end), agreed on by this share of the profiles
RECEDES, TILT_SUPPORT = 0.5, 0.75
NOSE_TOL = 0.0015  # RANSAC tolerance of the nose line through the profiles' steps (share of the diagonal)
# A bright line painted on the cloth (a baulk line, a head string) rises and falls within this many px, the
# fall at least this share of the rise: no nose, whose step is one way (and whose dark band is a valley).
PAINTED_PX, PAINTED_BALANCE = 4.0, 0.5
# ... and the brightness either side of it alike within this share of its height, and the cloth's (the
# cloth brightens or dims across the band) within the second
PAINTED_SIDES, PAINTED_CLOTH = 0.6, 1.0
PAINTED_NEAR = 0.12  # ... and within this share of the cloth's brightness (a rail or a shaded face is not)
PAINTED_EDGE = 0.2  # its rise and fall end where the step falls below this share of theirs
K1_SEARCH, K1_STEPS = 0.3, 61  # |k1| range tried for the sides' straightness: wider than any lens's
STRAIGHT_TRIM = 0.7  # share of a side's outline points a line is fitted to when judging its straightness
STRAIGHT_GAIN = 0.6  # a k1 is taken only when it leaves less than this share of the sides' crookedness
# The bed's edge inward of a nose: a band darker than BAND_DARK of the bed beyond it and of the cushion
# before it (the cushion's face and the nose's shadow, seen from inside the table's outline), starting
# within BAND_START of the nose and ending within BAND_REACH of it (shares of the image diagonal), its inner
# edge where the brightness is back half-way to the bed's; BAND_SUPPORT of the profiles must show one. A
# shaded cushion face under lamps is ~0.25-0.6 of the bed, the nose's shadow on a real bed ~0.6; the bed's
# own fall-off towards a cushion is a ramp from the nose, with no lit cushion before it. A fainter band, up
# to BAND_FAINT of the bed, counts where it is also darker than BAND_DIP of the nose before it: a broadcast
# camera's long cushion faces in soft light are ~0.7 of the bed after a nose at ~0.9; an overhead photo's
# cloth falling off towards a rail at the frame's edge is as dark before its "band" as in it. A long side
# seen from behind one end shows its face on the half nearer the camera only (0.6 of the profiles needed
# before issue 10's twenty-first round kept such sides at the nose); the line through that half is the
# bed's edge all along.
BAND_REACH, BAND_DARK, BAND_SUPPORT, BAND_START = 0.025, 0.65, 0.45, 0.002
BAND_FAINT, BAND_DIP = 0.78, 0.96
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


def _profiles(
    image: np.ndarray,
    side: SideFit,
    ends: tuple[np.ndarray, np.ndarray],
    offsets: np.ndarray,
    clear: float = CORNER_CLEAR,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Profiles (PROFILES x len(offsets), and x 3 of a colour image) of ``image`` inward across a side,
    ``clear`` of its ends, their start points and every sample's place (PROFILES x len(offsets) x 2)."""
    a, b = ends
    ts = np.linspace(clear, 1 - clear, PROFILES)
    base = a[None] + ts[:, None] * (b - a)[None]
    xy = base[:, None, :] + offsets[None, :, None] * side.inward[None, None, :]
    prof = cv2.remap(
        image,
        xy[..., 0].astype(np.float32),
        xy[..., 1].astype(np.float32),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return prof, base, xy


def _seen_profiles(ignore: np.ndarray | None, xy: np.ndarray) -> np.ndarray:
    """Which profiles (rows of ``xy``, full-image px) cross no ignored pixel (a graphic over the view)."""
    if ignore is None:
        return np.ones(xy.shape[0], bool)
    h, w = ignore.shape[:2]
    lost = ~np.isfinite(xy).all(axis=(1, 2))  # a side without ends: nothing of it is seen
    xy = np.nan_to_num(xy, nan=0.0, posinf=0.0, neginf=0.0)
    x = np.clip(np.round(xy[..., 0]).astype(int), 0, w - 1)
    y = np.clip(np.round(xy[..., 1]).astype(int), 0, h - 1)
    return np.asarray(~(ignore[y, x] > 0).any(axis=1) & ~lost)


def move_to_nose(
    gray: np.ndarray,
    side: SideFit,
    ends: tuple[np.ndarray, np.ndarray],
    ignore: np.ndarray | None = None,
    reach_px: float = math.inf,
) -> SideFit:
    """The side moved inward to the nose: the strongest parallel brightness step within NOSE_BAND, when
    enough profiles agree on it (a player or a cue spoils some) and it is a step of its own, not the tail
    of the outline's edge (it steps the other way, or the brightness levels off between them). Otherwise
    the side unchanged. ``gray`` is the full image, float32, lightly blurred; ``ends`` are the side's corners
    on the outline; profiles crossing an ``ignore`` pixel (a graphic, full-image size) are left out, so a
    score bar over the cushion neither votes for its own edge nor against the nose beside it. No nose is
    looked for past ``reach_px`` inward (``table_geometry.nose_reach_px``)."""
    diag = float(np.hypot(*gray.shape[:2]))
    offsets = np.arange(0.0, NOSE_BAND[1] * diag + 2 * PAINTED_PX, NOSE_STEP_PX)  # a line's far edge too
    prof, base, xy = _profiles(gray, side, ends, offsets)
    seen = _seen_profiles(ignore, xy)
    if seen.sum() < MIN_SEEN_PROFILES:  # a graphic over most of the side: what is seen of it, to the pockets
        prof, base, xy = _profiles(gray, side, ends, offsets, GRAPHIC_CLEAR)
        seen = _seen_profiles(ignore, xy)
        if seen.sum() < MIN_SEEN_PROFILES:
            return side
    prof, base = prof[seen], base[seen]
    signed = np.gradient(prof, axis=1)
    grad = np.where(
        _painted(np.median(prof, axis=0), np.median(signed, axis=0))[None, :], 0.0, np.abs(signed)
    )
    first = int(np.searchsorted(offsets, NOSE_BAND[0] * diag))
    last = int(np.searchsorted(offsets, NOSE_BAND[1] * diag))
    within = int(np.searchsorted(offsets, min(NOSE_BAND[1] * diag, reach_px)))
    if within <= first:
        return side
    band, shift = (first, last, within), np.zeros(len(base), int)
    found = _nose_steps(grad, signed, shift, band, diag)
    if found is None or found[2] < MIN_NOSE_SUPPORT:  # none parallel to the outline: one seen in perspective?
        a, b = ends
        along = (base - a) @ (b - a) / max(float((b - a) @ (b - a)), 1e-9) - 0.5
        tilted = _tilt(grad, along, first, within, float(b[1] - a[1]) / max(abs(float(b[0] - a[0])), 1e-9))
        again = _nose_steps(grad, signed, tilted, band, diag) if tilted.any() else None
        if again is not None and again[2] >= TILT_SUPPORT:
            found, shift = again, tilted
    if found is None:
        return side
    own, agree, support = found
    if support < MIN_NOSE_SUPPORT:
        return replace(side, nose_support=support)
    pts = base[agree] + offsets[np.clip(own + shift, 0, len(offsets) - 1)[agree]][:, None] * side.inward[None]
    return replace(_through(side, pts, diag), nose_moved=True, nose_support=support)


def _nose_steps(
    grad: np.ndarray, signed: np.ndarray, shift: np.ndarray, band: tuple[int, int, int], diag: float
) -> tuple[np.ndarray, np.ndarray, float] | None:
    """The nose across the profiles (``grad``: their absolute steps, ``signed``: their steps, each moved by
    ``shift``; ``band``: the first, last and farthest sample searched): each profile's own step near the
    strongest common one, which profiles agree with it, and their share; None where the common step is
    weak or is the tail of the outline's edge (``_stands_apart``)."""
    first, last, within = band
    grad, signed = _shifted(grad, shift), _shifted(signed, shift)
    trend, common = np.median(signed, axis=0), np.median(grad, axis=0)
    k = first + int(np.argmax(common[first:within]))
    strong = common[k] >= max(NOSE_CONTRAST * float(np.median(common[first:last])), MIN_NOSE_STEP)
    if not strong or not _stands_apart(trend, k):
        return None
    reach = max(2, int(NOSE_AGREE * diag / NOSE_STEP_PX))
    lo, hi = max(first, k - reach), min(last, k + reach + 1)
    own = np.argmax(grad[:, lo:hi], axis=1) + lo
    agree = grad[np.arange(len(grad)), own] >= 0.5 * grad[:, first:last].max(axis=1)  # its own, not an echo
    return own, agree, float(agree.mean())


def _tilt(grad: np.ndarray, along: np.ndarray, first: int, within: int, rise: float) -> np.ndarray:
    """Each profile's shift (samples) that lines up a nose not parallel to the outline: seen from above and
    behind one end, a long side runs up the image (``rise``: its ends' rows apart over their columns apart,
    going the way ``along`` does, -0.5 to 0.5) and its cushion top is wider at its near, lower end than at
    its far one, so the nose's offset grows towards the lower end. Of such shifts linear in ``along``, up to
    the band's width end to end, the one whose common step (the profiles' median) is strongest, where it is
    TILT_GAIN times the outline's parallel's; none on a side across the view (``RECEDES``)."""

    def strongest(shift: np.ndarray) -> float:
        return float(np.median(_shifted(grad, shift)[:, first:within], axis=0).max())

    flat = np.zeros(len(along), int)
    if abs(rise) < RECEDES:
        return flat
    best, best_shift = strongest(flat), flat
    for slope in range(TILT_STEP, within - first + 1, TILT_STEP):
        shift = np.round(math.copysign(slope, rise) * along).astype(int)
        if (step := strongest(shift)) > best:
            best, best_shift = step, shift
    return best_shift if best >= TILT_GAIN * strongest(flat) else flat


def _shifted(rows: np.ndarray, shift: np.ndarray) -> np.ndarray:
    """``rows`` each moved left by its ``shift`` (sample j of row i is sample j + shift[i]), zero beyond."""
    n = rows.shape[1]
    j = np.arange(n)[None, :] + shift[:, None]
    inside = (j >= 0) & (j < n)
    return np.where(inside, np.take_along_axis(rows, np.clip(j, 0, n - 1), axis=1), 0.0)


def _painted(level: np.ndarray, trend: np.ndarray) -> np.ndarray:
    """Which samples of a profile inward across a side (``level``: its median brightness, ``trend``: its
    median step) are a line painted on the cloth parallel to the side: a rise and a fall within PAINTED_PX,
    the fall at least PAINTED_BALANCE of the rise, with the cloth's brightness either side of it (alike,
    and near the inner half of the band's; a cushion's thin lit top has the rail outside it and its shaded
    face inside, both darker than the bed).
    Snooker's baulk line, ~60 px inside the far cushion from a camera behind the black end, is sharper
    than the cushion's nose."""
    n = max(1, round(PAINTED_PX / NOSE_STEP_PX))
    cloth = float(np.median(level[len(level) // 2 :]))  # the inner half of the band is mostly cloth
    out = np.zeros(len(trend), bool)
    for j in np.nonzero(trend > 0)[0]:
        fall = trend[j + 1 : j + n + 1]
        if not len(fall) or -float(fall.min()) < PAINTED_BALANCE * trend[j]:
            continue
        lo, hi = j, j + 1 + int(np.argmin(fall))
        edge = PAINTED_EDGE * min(float(trend[j]), -float(trend[hi]))
        while lo > 0 and trend[lo - 1] > edge:  # the whole line: its rise ...
            lo -= 1
        while hi + 1 < len(trend) and trend[hi + 1] < -edge:  # ... and its fall
            hi += 1
        sides = np.array([level[max(lo - 1, 0)], level[min(hi + 1, len(level) - 1)]], np.float64)
        height = float(level[lo : hi + 1].max()) - float(sides.max())
        alike = abs(float(sides[0] - sides[1])) <= PAINTED_SIDES * height
        near = float(np.abs(sides - cloth).max()) <= min(PAINTED_CLOTH * height, PAINTED_NEAR * cloth)
        if height > 0 and alike and near:
            out[lo : hi + 1] = True
    return out


def to_the_bed(gray: np.ndarray, side: SideFit, ends: tuple[np.ndarray, ...]) -> SideFit:
    """The side moved inward from its nose to the bed's visible edge where a dark band lies between them
    (``BAND_REACH``): the cushion's face and the nose's shadow, which a camera inside the table's outline
    sees. The bed's edge is the cloth-level line the calibration models its corners on; the nose is a
    cushion's height above it. Otherwise the side unchanged. ``gray`` is the full image, float32."""
    diag = float(np.hypot(*gray.shape[:2]))
    reach = BAND_REACH * diag
    offsets = np.arange(0.0, 1.5 * reach, NOSE_STEP_PX)
    prof, base, _ = _profiles(gray, side, (ends[0], ends[1]), offsets)
    top = _profiles(gray, side, (ends[0], ends[1]), -np.arange(1.0, 4.0, NOSE_STEP_PX))[0].max(axis=1)
    inside = offsets <= reach
    bed = np.median(prof[:, ~inside], axis=1)
    low = prof[:, inside].min(axis=1)
    start = int(np.searchsorted(offsets, BAND_START * diag)) + 1
    found = np.full(len(base), np.nan)
    lit = top >= BAND_DARK * bed  # a nose lit before the band
    dark = (low < BAND_DARK * bed) | ((low < BAND_FAINT * bed) & (low < BAND_DIP * top))
    for i in np.nonzero(dark & lit)[0]:
        found[i] = _band_end(
            prof[i, : int(inside.sum()) + 1], offsets, 0.5 * (float(low[i]) + float(bed[i])), start
        )
    ok = np.isfinite(found)
    if ok.mean() < BAND_SUPPORT:
        return side
    pts = base[ok] + found[ok, None] * side.inward[None]
    return replace(_through(side, pts, diag), on_the_bed=True)


def _through(side: SideFit, pts: np.ndarray, diag: float) -> SideFit:
    """``side`` moved onto the RANSAC line through ``pts`` (image px), its inward normal kept on its side."""
    p, v, _ = ransac_line(pts, NOSE_TOL * diag, np.random.default_rng(0))
    inward = np.array([-v[1], v[0]])
    inward = inward if np.dot(inward, side.inward) > 0 else -inward
    return replace(side, point=p, direction=v, inward=inward)


def _band_end(prof: np.ndarray, offsets: np.ndarray, mid: float, start: int) -> float:
    """Where a profile inward from a nose comes back up through ``mid`` after the band below it that begins
    within its first ``start`` samples (px inward, interpolated), or NaN when it has no such band."""
    dark = prof < mid
    if not dark[:start].any():
        return float("nan")
    first = int(np.argmax(dark))
    up = np.nonzero(~dark[first:])[0]
    if not len(up):
        return float("nan")
    j = first + int(up[0]) - 1  # the band's last sample
    frac = float(np.clip((mid - prof[j]) / max(float(prof[j + 1] - prof[j]), 1e-6), 0.0, 1.0))
    return float(offsets[j] + frac * (offsets[j + 1] - offsets[j]))


def _stands_apart(trend: np.ndarray, k: int) -> bool:
    """Whether the step at ``k`` of a profile (median brightness derivative, inward) is apart from the
    outline's own edge at 0: between them the brightness levels off, or steps the other way (a bright
    cushion top between a dark rail and the nose's shadow)."""
    between, peak = trend[:k], abs(float(trend[k]))
    return len(between) > 0 and (
        float(np.min(np.abs(between))) < NOSE_DIP * peak
        or float(np.max(-np.sign(trend[k]) * between)) >= NOSE_DIP * peak
    )


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
