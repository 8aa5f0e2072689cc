"""The cloth's colour estimated from the image itself, and the cloth region it gives: no fixed colour ranges.

Tables are green, blue, red, grey, tan and teal, under lamps, daylight or a projector, so no colour can be
assumed. The cloth is the colour whose region looks most like a table: pixels of a small copy of the frame
are clustered (k-means on Lab, chroma weighted over lightness, because light varies and dye does not), and
of the clusters the cloth is the one whose main region holds the most centre-weighted area times its
solidity squared. Solidity is what keeps out the floor round a broadcast table (a frame with a hole) and
the walls of a room; the centre weighting what keeps out a second table at the edge of the view.

The model is the cluster's (a*, b*) mean and covariance and its median lightness. A pixel is cloth when its
chroma is within a few deviations (Mahalanobis: a grey cloth's spread is tiny, a lit green one's is long
along the lamp's tint) and its lightness within a loose band of the median, which lets lamp fall-off and
shadows in and keeps a black rail or dark floor of the same hue out.

A projector or a coloured lamp to one side tints the cloth more at one end of the frame than the other:
one mean and covariance for the whole cloth then stretches along that tint, and at the end where the cloth
is its own colour a carpet or a wall of a nearby hue comes within it (a real snooker table under a warm
ramp leaked into the carpet over its top rail and was placed 9.7 % off). Where a plane across the frame
explains most of the cloth's colour spread (``TREND_GAIN``), the mean follows it (``ClothColourModel.
ab_slope``, ``chroma_slope``) and the deviations are the cloth's round it; elsewhere the mean is one colour,
as before. A projector's picture tints the cloth by patches no plane follows: as the region grows, a pixel is
also cloth where its colour is the cloth's found nearby (``_like_the_cloth_nearby``), the colour carried
smoothly from the region as its lightness is, within a few of the cloth's own deviations from it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np

WORK_SIZE_PX = 480  # long side of the working copy: the cloth's colour and region need no detail
K_CLUSTERS = 5  # cloth, rails, floor, balls and markings, pockets: more splits a lit cloth in two
K_WITHIN = 3  # clusters inside a first region that ran off the frame: cloth, floor, what lies on them
KMEANS_ATTEMPTS = 3
CENTRE_SIGMA = 0.3  # centre weighting (share of the frame): broadcast tables sit low, overhead ones central
CHROMA_WEIGHT = 2.0  # a*, b* count this much more than L* in the clustering
BORDER_PENALTY = 0.75  # a cluster whose region runs all round the frame's edge scores this much less
MAX_MAHALANOBIS = 4.0  # chroma distance still cloth, in the cluster's deviations
MIN_AB_TOL = 4.0  # Lab units the (a*, b*) tolerance never goes below: noise, a lamp's tint on grey cloth
# The chroma tolerance never goes below this (a*, b* over L* + 16: 4 Lab units at mid-grey): noise and a
# lamp's tint on a grey cloth, whose own spread is tiny.
MIN_CHROMA_TOL = 0.06
L_RATIO = (0.45, 1.9)  # lightness relative to the cloth's median still cloth: fall-off, pools of lamp light
GROW_ROUNDS = 2  # times the region is grown with lightness judged against the cloth found nearby
GROW_SIGMA = 0.08  # share of the working copy over which the cloth's level and colour are carried outward
NEARBY_DEVIATIONS = 2.4  # a pixel within this many of the cloth's deviations from its colour nearby is cloth
NEARBY_SAMPLES = 8000  # the cloth's pixels its deviations from its colour nearby are measured on, at most
NEARBY_SHRINK = 4  # the colour nearby is carried on a copy this many times smaller (it is smooth)
NEARBY_GAIN = 0.8  # ... and judged where it leaves at most this share of the cloth's spread (noise: all)
NECKED_SHARE = 0.006  # a blob joined to the cloth by a neck under twice this share of the copy is not cloth
CLOSE_SHARE = 0.02  # closing of the region (share of the working copy): fills chalk lines, balls, a cue
MIN_SAMPLES = 50  # cloth pixels a model needs
# The cloth's colour follows a plane across the frame where that leaves at most this share of its spread's
# area (the determinant of its (a*, b*) covariance, each fitted to the pixels within TREND_INLIERS of it):
# the real photos under `arbiter eval real --lights`'s ramps leave 0.05-0.85 (median 0.3), as shot
# 0.27-1.37 (median 0.8; the renders as shot 0.33-1.29). Where the plane is taken, the corners are still
# found with one colour too, and the plane's kept only where it leaves fewer doubts (``table_corners``).
TREND_GAIN = 0.5
TREND_INLIERS = 3.0  # deviations from the first plane within which pixels fit the second
TREND_SAMPLES = 8000  # the cloth's pixels a plane is fitted to at most, evenly drawn (a plane needs few)
FINE_FACTOR = 2  # a leak is looked for on a copy this many times the working copy's size
NECK_SHARE = 0.009  # ... where a part joined through gaps under twice this share of its long side is split
LEAK_SHARE = 0.05  # parts split off are a leak above this share of the region (real walls: 0.28-0.49)
LEAK_SOLIDITY = 0.05  # ... each making the table this much less convex (walls 0.08-0.25, split cloth 0.01)


def chroma(lab: np.ndarray) -> np.ndarray:
    """(a*, b*) / (L* + 16) of OpenCV 8-bit Lab pixels (..., 3) -> (..., 2): the colour whatever the light.
    Dimming a colour scales L* + 16, a* and b* alike (all go with the cube root of the light), so a lamp's
    fall-off across the table, which takes Lab's a* and b* towards grey, leaves this alone."""
    lab = lab.astype(np.float32)
    return (lab[..., 1:3] - 128.0) / (lab[..., :1] * (100.0 / 255.0) + 16.0)


@dataclass(frozen=True)
class ClothColourModel:
    """The cloth's colour, twice: the mean and inverse covariance of its Lab (a*, b*), and of its
    ``chroma``; its median lightness (OpenCV 8-bit Lab L, 0..255); and its BGR for the edge search
    (``vision.table_finder.ClothColour``). A lamp's pool of white light turns Lab's (a*, b*) little and
    ``chroma`` much (it adds white); its fall-off the other way round: a pixel is cloth when either says."""

    ab_mean: np.ndarray  # (2,)
    ab_icov: np.ndarray  # (2, 2) inverse covariance, regularised by MIN_AB_TOL
    chroma_mean: np.ndarray  # (2,)
    chroma_icov: np.ndarray  # (2, 2) inverse covariance, regularised by MIN_CHROMA_TOL
    l_median: float
    bgr: tuple[float, float, float]  # the cluster's median colour
    # How the means change across the frame: (2, 2), column k per unit of the frame's width (k = 0) and
    # height (k = 1) from its middle; zero for a cloth of one colour. The means are the frame's middle's.
    ab_slope: np.ndarray = field(default_factory=lambda: np.zeros((2, 2), np.float32))
    chroma_slope: np.ndarray = field(default_factory=lambda: np.zeros((2, 2), np.float32))

    @property
    def follows_tint(self) -> bool:
        """Whether the cloth's colour follows a tint across the frame (``TREND_GAIN``), not one colour."""
        return bool(self.ab_slope.any())

    @property
    def lab(self) -> np.ndarray:
        """The cloth's typical colour in OpenCV 8-bit Lab."""
        return np.array([self.l_median, *self.ab_mean], np.float32)

    def distance(self, lab: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per pixel of a Lab image of the whole frame (at any size): chroma distance (deviations, the
        nearer of the two models) and lightness ratio to the cloth."""
        d1 = lab[..., 1:3].astype(np.float32) - self.ab_mean
        d2 = chroma(lab) - self.chroma_mean
        if self.follows_tint:
            uv = frame_coordinates(*lab.shape[:2])
            d1 -= uv @ self.ab_slope.T
            d2 -= uv @ self.chroma_slope.T
        m1 = np.einsum("...i,ij,...j->...", d1, self.ab_icov, d1)
        m2 = np.einsum("...i,ij,...j->...", d2, self.chroma_icov, d2)
        dist = np.sqrt(np.maximum(np.minimum(m1, m2), 0.0))
        return dist, lab[..., 0].astype(np.float32) / max(self.l_median, 1.0)

    def mask(self, lab: np.ndarray) -> np.ndarray:
        """uint8 (0/1): the pixels of a Lab image that look like the cloth."""
        dist, ratio = self.distance(lab)
        return ((dist < MAX_MAHALANOBIS) & (ratio > L_RATIO[0]) & (ratio < L_RATIO[1])).astype(np.uint8)


def working_copy(image: np.ndarray, long_side: int = WORK_SIZE_PX) -> tuple[np.ndarray, float]:
    """A small, lightly blurred copy of a BGR image and its scale (working px per image px)."""
    s = long_side / max(image.shape[:2])
    small = cv2.resize(image, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (3, 3), 0), s


def frame_coordinates(h: int, w: int) -> np.ndarray:
    """(h, w, 2) float32: each pixel's place across the frame, from -0.5 to 0.5 left to right and top to
    bottom (a frame's working copies of any size share them)."""
    u = (np.arange(w, dtype=np.float32) + 0.5) / w - 0.5
    v = (np.arange(h, dtype=np.float32) + 0.5) / h - 0.5
    return np.stack(np.broadcast_arrays(u[None, :], v[:, None]), axis=-1)


def centre_weights(h: int, w: int) -> np.ndarray:
    ys, xs = np.mgrid[0:h, 0:w]
    r2 = ((xs / w - 0.5) ** 2 + (ys / h - 0.5) ** 2) / CENTRE_SIGMA**2
    return np.asarray(np.exp(-0.5 * r2).astype(np.float32))


def estimate(
    small: np.ndarray,
    ignore: np.ndarray | None = None,
    within: np.ndarray | None = None,
    seed: int = 0,
    trend: bool = True,
) -> ClothColourModel | None:
    """The cloth model of a working copy (BGR), or None when nothing in it is table-like. ``ignore``
    (uint8, nonzero = not the scene: score bars, logos) is left out of the clustering. ``within`` (uint8)
    clusters only inside a first region, in fewer clusters: a dark cloth and a dark floor that fell into
    one cluster of the whole frame come apart there. ``trend``: the cloth's colour may follow a plane
    across the frame (``TREND_GAIN``); without it, one colour."""
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    h, w = lab.shape[:2]
    use = np.ones(h * w, bool) if ignore is None else (ignore.reshape(-1) == 0)
    k = K_CLUSTERS if within is None else K_WITHIN
    if within is not None:
        use &= within.reshape(-1) > 0
    feat = lab.reshape(-1, 3) * np.array([1.0, CHROMA_WEIGHT, CHROMA_WEIGHT], np.float32)
    if use.sum() < k * MIN_SAMPLES:
        return None
    crit = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_MAX_ITER, 30, 0.5)
    cv2.setRNGSeed(seed)
    samples = np.ascontiguousarray(feat[use], dtype=np.float32)
    no_labels = np.zeros((len(samples), 1), np.int32)  # unused: kmeans++ seeds its own labels
    _, found, _ = cv2.kmeans(samples, k, no_labels, crit, KMEANS_ATTEMPTS, cv2.KMEANS_PP_CENTERS)
    labels = np.full(h * w, -1, np.int32)
    labels[use] = found.ravel()
    weights = centre_weights(h, w)
    scores = [_cluster_score((labels == c).reshape(h, w).astype(np.uint8), weights) for c in range(k)]
    best = int(np.argmax(scores))
    if scores[best] <= 0.0:
        return None
    px = lab.reshape(-1, 3)[labels == best]
    uv = frame_coordinates(h, w).reshape(-1, 2)[labels == best]
    ab_mean, ab_icov = _gaussian(px[:, 1:3], MIN_AB_TOL)
    chroma_mean, chroma_icov = _gaussian(chroma(px), MIN_CHROMA_TOL)
    bgr = np.median(small.reshape(-1, 3)[labels == best].astype(np.float32), axis=0)
    model = ClothColourModel(
        ab_mean,
        ab_icov,
        chroma_mean,
        chroma_icov,
        float(np.median(px[:, 0])),
        (float(bgr[0]), float(bgr[1]), float(bgr[2])),
    )
    return _with_trend(model, px, uv) if trend else model


def _gaussian(values: np.ndarray, floor: float) -> tuple[np.ndarray, np.ndarray]:
    """Median and inverse covariance of (N, 2) values, the covariance never tighter than ``floor``."""
    mean = np.median(values, axis=0)
    return mean.astype(np.float32), np.linalg.inv(_residual_cov(values - mean, floor)).astype(np.float32)


def _with_trend(model: ClothColourModel, px: np.ndarray, uv: np.ndarray) -> ClothColourModel:
    """``model`` with its means following a plane across the frame, where one explains the cloth's colour
    spread (``TREND_GAIN``), else ``model`` itself. ``px``: the cloth cluster's Lab pixels, ``uv`` their
    ``frame_coordinates``."""
    step = max(1, len(px) // TREND_SAMPLES)
    px, uv = px[::step], uv[::step]
    flat = np.ones((len(uv), 1))
    plane = np.column_stack([flat, uv])
    if len(uv) < MIN_SAMPLES or np.linalg.matrix_rank(plane) < 3:
        return model  # a cloth in one strip of the frame: no plane to tell
    _, one_colour, fit_one = _fitted(px[:, 1:3], flat, MIN_AB_TOL)
    ab_coef, ab_rest, fit_plane = _fitted(px[:, 1:3], plane, MIN_AB_TOL)
    if _area(ab_rest[fit_plane], MIN_AB_TOL) > TREND_GAIN * _area(one_colour[fit_one], MIN_AB_TOL):
        return model
    chroma_coef, chroma_rest, _ = _fitted(chroma(px), plane, MIN_CHROMA_TOL)
    _, ab_icov = _gaussian(ab_rest, MIN_AB_TOL)
    _, chroma_icov = _gaussian(chroma_rest, MIN_CHROMA_TOL)
    return replace(
        model,
        ab_mean=ab_coef[0].astype(np.float32),
        ab_icov=ab_icov,
        chroma_mean=chroma_coef[0].astype(np.float32),
        chroma_icov=chroma_icov,
        ab_slope=ab_coef[1:].T.astype(np.float32),
        chroma_slope=chroma_coef[1:].T.astype(np.float32),
    )


def _residual_cov(rest: np.ndarray, floor: float) -> np.ndarray:
    """The covariance (2, 2) of (N, 2) residuals, never tighter than ``floor`` (as ``_gaussian``'s): a cloth
    of one flat colour (a drawing, a clipped render) has none, and its residuals are noise."""
    cov = np.cov(rest.T) if len(rest) > 1 else np.zeros((2, 2))
    return np.asarray(cov + np.eye(2) * (floor / MAX_MAHALANOBIS) ** 2)


def _area(rest: np.ndarray, floor: float) -> float:
    """The area of (N, 2) residuals' spread: their covariance's determinant (``_residual_cov``)."""
    return float(np.linalg.det(_residual_cov(rest, floor)))


def _fitted(
    values: np.ndarray, design: np.ndarray, floor: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(N, 2) values fitted by least squares over the columns of ``design`` (N, K): the coefficients (K, 2),
    every value's residual (N, 2) and which values fit (N,). Fitted twice, the second time to the values
    within TREND_INLIERS deviations (``_residual_cov`` with ``floor``) of the first fit (what of another
    colour the cluster took in)."""
    values = values.astype(np.float64)
    keep = np.ones(len(values), bool)
    for _ in range(2):
        coef, *_ = np.linalg.lstsq(design[keep], values[keep], rcond=None)
        rest = values - design @ coef
        icov = np.linalg.inv(_residual_cov(rest[keep], floor))
        keep = np.einsum("ni,ij,nj->n", rest, icov, rest) < TREND_INLIERS**2
    return coef, rest, keep


def _cluster_score(mask: np.ndarray, weights: np.ndarray) -> float:
    """How much a colour cluster looks like a table's cloth: the centre weight of its main component times
    its solidity squared, less for a component round the frame's edge (a floor or a wall round the table
    touches most of the frame's border; a table's cloth, unless it fills the frame, little of it)."""
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, comps, _, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    if n <= 1:
        return 0.0
    per = np.bincount(comps.ravel(), weights=weights.ravel(), minlength=n)
    per[0] = 0
    main = (comps == int(np.argmax(per))).astype(np.uint8)
    hull = cv2.convexHull(cv2.findNonZero(main))
    solidity = float(main.sum()) / max(cv2.contourArea(hull), 1.0)
    border = np.concatenate([main[0], main[-1], main[1:-1, 0], main[1:-1, -1]])
    return float(per.max()) * min(solidity, 1.0) ** 2 * (1.0 - BORDER_PENALTY * float(border.mean()))


def region(
    small: np.ndarray, model: ClothColourModel, ignore: np.ndarray | None = None, cut_necks: bool = False
) -> np.ndarray:
    """The table's cloth region in a working copy (uint8 0/1): the cloth-coloured component with the most
    centre weight (``_grown``), closed over chalk lines, balls and a cue, its holes filled. ``ignore``
    pixels are never cloth, so a score bar over the cloth cuts the region (and ``vision.table_lines`` knows
    why). ``cut_necks``: less the blobs of the cloth's colour joined to it only through a neck
    (``_without_necked``: printed markers on a rail beside a grey cloth)."""
    main = _grown(small, model, ignore, cut_necks=cut_necks)
    k = max(3, int(CLOSE_SHARE * max(main.shape)) | 1)
    main = cv2.morphologyEx(main, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    contours, _ = cv2.findContours(main, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    cv2.drawContours(main, contours, -1, 1, -1)
    if ignore is not None:
        main[ignore > 0] = 0
    return main


def leak(
    image: np.ndarray, model: ClothColourModel, size: tuple[int, int], ignore: np.ndarray | None = None
) -> np.ndarray | None:
    """What lies beyond the table when a wall or a floor of the cloth's colour joins the cloth (uint8 0/1
    at the working copy's ``size``, width and height), or None when nothing does. Such a wall joins the
    cloth through the gaps of the rail between them (its sights, a glint, a pocket's rim) once the rail is
    a pixel or two wide, as it is in the working copy, so the region is grown again on a copy FINE_FACTOR
    times larger, where the rail is whole but for those gaps, and split where it narrows (``_split_off``).
    When a broad part split off is no table's, everything farther than a cushion's width beyond the
    table's convex hull is the leak: the wall and the fringes along the rail that join it to the cloth.
    ``ignore`` is at the image's size."""
    fine, _ = working_copy(image, FINE_FACTOR * WORK_SIZE_PX)
    fine_ignore = None
    if ignore is not None:
        fine_size = (fine.shape[1], fine.shape[0])
        fine_ignore = cv2.resize((ignore > 0).astype(np.uint8), fine_size, interpolation=cv2.INTER_NEAREST)
    beyond = _split_off(_grown(fine, model, fine_ignore, FINE_FACTOR))
    if beyond is None:
        return None
    return np.asarray(cv2.resize(beyond, size, interpolation=cv2.INTER_AREA) > 0, np.uint8)


def _split_off(grown: np.ndarray) -> np.ndarray | None:
    """Where a region (uint8 0/1) splits into the table and parts that are no table's: the image beyond
    the table's convex hull by the split's radius, or None. The region is eroded by a disk of NECK_SHARE
    of its long side; the core with the most centre weight, dilated back, is the table. Another core is
    such a part when it is broad (a cushion's top is a strip, and the erosion leaves none of it), lies
    outside the table's hull (cloth walled in by lines drawn on it lies inside), makes the table less
    convex by over LEAK_SOLIDITY joined to it (a wall or a floor juts out; the cloth beyond a chalk line
    across the table completes it), and all such parts hold over LEAK_SHARE of the region."""
    r = max(1, round(NECK_SHARE * max(grown.shape)))
    disk = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    n, cores = cv2.connectedComponents(cv2.erode(grown, disk), connectivity=4)
    if n <= 2:
        return None
    weight = np.bincount(cores.ravel(), weights=centre_weights(*grown.shape).ravel(), minlength=n)
    weight[0] = 0
    table = int(np.argmax(weight))
    kept = cv2.dilate((cores == table).astype(np.uint8), disk) & grown
    outside = np.ones_like(kept)
    cv2.fillConvexPoly(outside, cv2.convexHull(cv2.findNonZero(kept)), 0)
    solid = _solidity(kept)
    parts = np.zeros_like(kept)
    for c in range(1, n):
        part = cv2.dilate((cores == c).astype(np.uint8), disk) & grown & outside
        if c != table and part.any() and solid - _solidity(kept | part) > LEAK_SOLIDITY:
            parts |= part
    if parts.sum() <= LEAK_SHARE * grown.sum():
        return None
    return np.asarray(cv2.erode(outside, disk))


def _solidity(mask: np.ndarray) -> float:
    """A region's area over its convex hull's."""
    return float(mask.sum()) / max(cv2.contourArea(cv2.convexHull(cv2.findNonZero(mask))), 1.0)


def _grown(
    small: np.ndarray,
    model: ClothColourModel,
    ignore: np.ndarray | None,
    shrink: int = 1,
    cut_necks: bool = False,
) -> np.ndarray:
    """The cloth-coloured component with the most centre weight (uint8 0/1). Lightness is judged against
    the cloth nearby, not the cloth's median: the region is grown twice with the level of the cloth found
    so far carried outward, so the dim end of a table under one lamp stays in and a black rail beside it
    stays out. The level is carried on a copy ``shrink`` times smaller. ``cut_necks``: see ``region``."""
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    dist, ratio = model.distance(lab)
    hue = dist < MAX_MAHALANOBIS
    if ignore is not None:
        hue &= ignore == 0
    main = _main_component(hue & (ratio > L_RATIO[0]) & (ratio < L_RATIO[1]))
    core = main.astype(bool)  # the cloth of the model's own colour
    level = lab[..., 0].astype(np.float32)
    for _ in range(GROW_ROUNDS):
        if not main.any():
            break
        local = level / np.maximum(_spread(level, main, shrink), 1.0)
        cloth = hue | _like_the_cloth_nearby(lab, main, core, shrink)
        if ignore is not None:
            cloth &= ignore == 0
        main = _main_component(cloth & (local > L_RATIO[0]) & (local < L_RATIO[1]), cut_necks)
    return main


def _like_the_cloth_nearby(
    lab: np.ndarray, grown: np.ndarray, core: np.ndarray, shrink: int = 1
) -> np.ndarray:
    """Which pixels of a Lab copy (bool) are of the colour of the cloth found nearby: its (a*, b*) and
    ``chroma`` carried smoothly from the region ``grown`` (``_spread``, as its lightness is), a pixel within
    NEARBY_DEVIATIONS of it in either, the deviations those of the ``core``'s pixels (the model's own colour)
    from it. A projector's picture tints the cloth by patches that no plane across the frame follows (the grey
    9 ft table's left end under a red patch fell out of its region, and its side was fitted askew); the step
    to a rail's or a carpet's colour is one no smooth carry follows."""
    out = np.zeros(lab.shape[:2], bool)
    if not core.any():
        return out
    colour = np.concatenate([lab[..., 1:3].astype(np.float32), chroma(lab)], axis=-1)
    rest = colour - _spread(colour, grown, shrink * NEARBY_SHRINK)
    step = max(1, int(core.sum()) // NEARBY_SAMPLES)
    own, own_colour = rest[core][::step], colour[core][::step]
    for channels, floor in ((slice(0, 2), MIN_AB_TOL), (slice(2, 4), MIN_CHROMA_TOL)):
        one_colour = own_colour[:, channels] - np.median(own_colour[:, channels], axis=0)
        if _area(own[:, channels], floor) > NEARBY_GAIN * _area(one_colour, floor):
            continue  # the colour nearby explains little of the cloth's spread: noise, a busy scene
        icov = np.linalg.inv(_residual_cov(own[:, channels], floor)).astype(np.float32)
        d = rest[..., channels]
        out |= np.einsum("...i,ij,...j->...", d, icov, d) < NEARBY_DEVIATIONS**2
    return out


def _main_component(mask: np.ndarray, cut_necks: bool = False) -> np.ndarray:
    """The component (uint8 0/1) with the most centre weight of a mask, after a small closing (a chalk line
    must not cut the cloth in two) and opening (specks); with ``cut_necks``, less what only a neck joins to
    it (``_without_necked``)."""
    m = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    m = cv2.morphologyEx(m, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, comps, _, _ = cv2.connectedComponentsWithStats(m, connectivity=4)
    if n <= 1:
        return m
    score = np.bincount(comps.ravel(), weights=centre_weights(*m.shape).ravel(), minlength=n)
    score[0] = 0
    main = np.asarray((comps == int(np.argmax(score))).astype(np.uint8))
    return _without_necked(main) if cut_necks else main


def _without_necked(main: np.ndarray) -> np.ndarray:
    """``main`` less the blobs joined to it only through a neck narrower than NECKED_SHARE of its long side
    (uint8 0/1): a white marker printed on a rail beside a grey cloth is of the cloth's colour, and a glint
    on the cushion's rim joins it. The region opened by a disk of that width keeps its core whole; the
    parts within that width of the core's main component are kept (the cushions' tops along it)."""
    k = 2 * max(1, round(NECKED_SHARE * max(main.shape))) + 1
    disk = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    core = cv2.morphologyEx(main, cv2.MORPH_OPEN, disk)
    n, comps, _, _ = cv2.connectedComponentsWithStats(core, connectivity=4)
    if n <= 2:
        return main
    score = np.bincount(comps.ravel(), weights=centre_weights(*core.shape).ravel(), minlength=n)
    score[0] = 0
    kept = cv2.dilate((comps == int(np.argmax(score))).astype(np.uint8), disk)
    return np.asarray(main & kept, np.uint8)


def _spread(level: np.ndarray, where: np.ndarray, shrink: int = 1) -> np.ndarray:
    """``level`` (H x W, or H x W x C for up to four channels) known on ``where``, carried smoothly over the
    whole image (normalised convolution), on a copy ``shrink`` times smaller where that is enough (the result
    is smooth; a wide blur costs its width)."""
    h, w = level.shape[:2]
    sigma = GROW_SIGMA * max(h, w) / shrink
    den: np.ndarray = where.astype(np.float32)
    num: np.ndarray = level * (den if level.ndim == 2 else den[..., None])
    if shrink > 1:
        size = (max(1, w // shrink), max(1, h // shrink))
        num = cv2.resize(num, size, interpolation=cv2.INTER_AREA)
        den = cv2.resize(den, size, interpolation=cv2.INTER_AREA)
    den = np.maximum(cv2.GaussianBlur(den, (0, 0), sigma), 1e-6)
    out = cv2.GaussianBlur(num, (0, 0), sigma) / (den if level.ndim == 2 else den[..., None])
    return np.asarray(out if shrink == 1 else cv2.resize(out, (w, h), interpolation=cv2.INTER_LINEAR))


def uniformity(small: np.ndarray, model: ClothColourModel, where: np.ndarray) -> float:
    """The share of a region's pixels whose colour is the cloth's, or the cloth's found nearby within the
    region (``_like_the_cloth_nearby``: a projector's patches), a table's region ~0.9 and more (one dye,
    balls and markings on it), a busy scene's or noise's much less."""
    inside = where > 0
    if not inside.any():
        return 0.0
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    dist, _ = model.distance(lab)
    hue = dist < MAX_MAHALANOBIS
    cloth = hue | _like_the_cloth_nearby(lab, inside, inside & hue)
    return float(np.mean(cloth[inside]))
