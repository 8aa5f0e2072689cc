"""A classical ball detector: cloth model, circles of the known ball size, identity by colour.

It is the baseline a trained detector must beat and the fallback when no weights are present, so it must
run at frame rate on a small CPU. Each frame is reduced by halvings to a coarse level (ball radius ~3 px)
where the cloth model (``vision.cloth``) marks foreground; each foreground blob is then looked at in its
own small window at a finer level:

- blobs of one ball's size, and *seeds* (a glint too small for a ball, over a disk darker than the cloth:
  a ball of the cloth's own colour, green on green), are fitted all at once, vectorised: a mean shift of
  the foreground centroid, then the centre with the best *radial-edge* vote nearby (a one-radius Hough
  transform over the colour structure tensor, sampled on a ring);
- bigger blobs (touching balls, a rack, a ball against the cue, a hand) are searched for circles by two
  votes that complement each other: *coverage*, the share of a disk that is foreground (it locates balls
  but is flat inside a rack), and the radial-edge vote (every ball keeps its outline and the shading of
  its rim, even inside a rack). Edge strength is compressed (square root) so that the faint seams between
  touching balls count next to the highlights' sharp rims; an opening first erases what is thinner than a
  ball (the cue, chalk lines). Blobs of rack size are searched at a finer level, where the seams show.

A circle is kept when it is covered, outlined all round (or packed between two kept balls, as inside a
rack), and shiny: every ball shows a glint above its body colour, which pocket mouths, sleeves, hands and
shadows do not. Blobs whose pixels have not changed since the last frame keep their circles, so balls at
rest, most of a match, cost almost nothing.

Identity is read from the pixels inside each circle, measured against the cloth brightness next to it
(both are lit by the same lamp): the shares of dark, white and coloured pixels (black ball, cue ball, pool
stripes) and the hue and strength of the most saturated ones. Each frame's balls are then assigned to the
game's classes respecting how many balls share each look (fifteen reds, one of each pool ball), which
settles look-alikes such as pool 3 and 7 by comparison rather than by absolute colour.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field

import cv2
import numpy as np

from arbiter.balls import APPEARANCE_CLASSES
from arbiter.games import BilliardsSpec

from .cloth import ClothConfig, ClothModel, Foreground, classify, find_table, score_patches
from .types import Detections

_SUM3 = np.ones((1, 3), np.float32)
_LUMA = np.array([0.114, 0.587, 0.299], np.float32)  # BGR -> luma (Rec. 601)
_EPS = 1e-6
_LEVEL_SLACK = 0.85  # a pyramid level may bring the ball radius this far under its target
# A coarse blob is one ball when its area (in ball areas) and its longest side (in radii) are within these;
# antialiasing and compression fringes make a lone ball's blob up to ~1.9 ball areas.
_SINGLE_AREA, _SINGLE_EXTENT = 2.3, 3.3
_ISOLATED_WINDOW = 1.8  # half-size of a lone ball's window, in radii
_SHIFT_REACH, _SHIFT_STEPS = 1.2, 2  # mean-shift disk (radii) and steps for a lone ball's centre
_CLUSTER_PAD = 1.5  # radii of context around a cluster's blob
_CLOSING = 0.2  # radii: holes this small in a ball's foreground (a glint, a number) are filled
_CROSS = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
_BOX3 = np.ones((3, 3), np.uint8)
_PACKED_OUTLINE = 0.5  # share of min_outline a ball packed between two found balls needs
_TOUCH = (1.7, 2.3)  # radii between the centres of touching balls (perspective, fit error)
_PACKED_ROUNDS = 3
_MAX_RACK = 30.0  # ball areas: no blob of touching balls is bigger than a rack with its fringes
_MIN_PIXELS = 3  # fewest coloured pixels a hue is read from
_SECTORS = 8  # the circle's outline is checked in this many sectors
_RING_SAMPLES = 32  # points of the ring where only a few centres are voted on
_SEARCH_STEPS = 3  # a lone ball's centre is searched +-1 px around its start, moving up to this often
_SEED_REACH = 0.55  # radii searched around a glint for the centre of its ball
# Sizes (of the nominal radius) tried for a lone ball, and how much better a vote must be to move off 1.
_SIZES = (1.0, 0.92, 1.08, 1.16)
_SIZE_MARGIN = 1.05
# A blob is unchanged when no coarse pixel in its box differs from the last frame's by more than this (8-bit
# levels, any channel): above sensor noise and compression at the coarse level, below a ball's edge moving
# a third of a coarse pixel. And its area may differ by at most this share.
_STATIC_PEAK = 28
_STATIC_AREA = 0.1
_SEED_PREFILTER = 0.6  # share of min_seed_coverage a glint's coarse neighbourhood needs to be examined

# Identity. Ball colours are compared with the cloth brightness next to them; a club cloth's luma is
# 55-110, so prototypes assume a typical one. A ball's well-lit pixels keep ~0.8 of its colour strength
# (shading, and chroma blurred by video compression), and its median pixel ~0.9 of its brightness.
_CLOTH_LUMA = 85.0
_COLOUR_KEPT, _LIGHT_KEPT = 0.8, 0.9
_STRENGTH_QUANTILE = 0.85  # a ball's colour strength: this quantile of its coloured pixels' chroma
# Expected shares of (dark, white, coloured) pixels on a ball's face. A stripe shows 20-55 % colour from
# above depending on how it lies, but compression bleeds colour into the white: measured ~0.3 white.
_SHARES_SOLID = (0.02, 0.03, 0.95)
_SHARES_STRIPE = (0.0, 0.3, 0.7)
_SHARES_WHITE = (0.0, 1.0, 0.0)
_SHARES_BLACK = (0.9, 0.1, 0.0)
_SHARES_EIGHT = (0.8, 0.15, 0.05)  # the pool 8: black with a white number disc
_SHARES_IVORY = (0.0, 0.6, 0.4)  # pyramid balls: ivory is pale enough to read partly as white
# Weights of the colour distance: pixel shares (L1, 0..2), hue (half-turns, 0..1), colour strength and
# brightness (absolute log ratios).
_W_SHARES, _W_HUE, _W_STRENGTH, _W_LIGHT = 1.0, 2.0, 0.5, 0.5
# A prototype colour greyer than this (saturation) has no hue; a grey one darker than this (relative to a
# typical cloth, after shading) is a black ball.
_GREY, _BLACK = 0.3, 0.45


@dataclass(frozen=True)
class ClassicalConfig:
    """Every threshold of the classical detector. Distances are in ball radii and colours relative to
    the local cloth, so one config serves any resolution, cloth and exposure; each comment says what the
    knob trades off."""

    cloth: ClothConfig = field(default_factory=ClothConfig)
    # Ball radius at the coarse level, where foreground blobs are found: smaller is faster but loses balls
    # that barely differ from the cloth (they shrink below a pixel of contrast).
    coarse_radius_px: float = 3.0
    # Ball radius at the fine level, where lone balls are fitted and colours read: larger places centres
    # more precisely, at a cost growing with its square.
    fine_radius_px: float = 6.0
    # Ball radius (at most) where clusters of touching balls are split: the seams between them are about a
    # pixel wide, so a finer level separates a rack better; clusters at rest are not refitted, so the cost
    # falls on frames where a cluster moves.
    cluster_radius_px: float = 10.0
    # How far past the table mask (radii) foreground is examined: balls near the cushions stick out of the
    # playing area in the image by perspective. Larger brings more of the cushions and pockets in.
    mask_margin: float = 1.0
    # How far inside the table mask's edge (radii) a ball centre must lie; negative: how far outside it may.
    # Perspective puts the centre of a ball touching a far cushion up to ~0.3 radii outside a mask drawn at
    # cloth level (inside one drawn at ball-centre height); pocket mouths are told apart by their lack of
    # a glint, not by the mask.
    centre_inset: float = -0.3
    # Smallest blob worth a look, as a share of a ball's area: chalk spots, pin heads and noise are smaller.
    min_blob_area: float = 0.25
    # Radius (radii) of the opening that clears thin foreground from clusters before circles are sought:
    # above half the cue's width relative to a ball (~0.55), below what is left of a ball whose shaded
    # side blends with the cloth.
    opening: float = 0.6
    # Share of the disk that must be foreground, for a lone ball and for a ball in a cluster. A lone blob
    # already has a ball's size, so the bar is low (a white ball's shaded side can match a grey cloth);
    # in a cluster it must be higher, as hands and sleeves are foreground everywhere.
    min_coverage: float = 0.4
    min_cluster_coverage: float = 0.7
    # For a glint seed, the share of the disk that is foreground or darker than the cloth (the shaded side
    # and shadow of a ball in the cloth's colour); pins' heads and chalk spots have < 0.25.
    min_seed_coverage: float = 0.5
    # Radial edge vote in a cluster (compressed edge strength around the circle, relative to a step as
    # high as the cloth is bright): balls in a rack score >= 0.35, the rims of hands and sleeves ~0.25.
    min_edge: float = 0.3
    # The outline must show all round: the edge vote in the second weakest eighth of the circle (one
    # eighth may be lost to a touching ball of the same colour). Balls score >= 0.2; a hand crossed by
    # the cue, whose edges come from the stick, ~0.15.
    min_outline: float = 0.2
    # Closest two centres may be (radii): touching balls are 2 apart; lower splits one ball into two.
    min_separation: float = 1.6
    # Every ball is shiny: its brightest pixel must stand this far (cloth brightnesses) above its median.
    # Pocket mouths, sleeves, hands and shadows stay below ~0.25; the dullest balls reach ~0.5.
    min_glint: float = 0.35
    # Colour is read inside this share of the radius: the rim picks up the cloth's reflection and shadow.
    colour_radius: float = 0.85
    # The brightest share of a ball's pixels is its specular highlight and is left out of its colour.
    highlight_share: float = 0.1
    # Pixel categories, brightness relative to the cloth: darker than ``dark`` and greyer than
    # ``dark_saturation`` is black (ball body, ink); brighter than ``white_luma`` and greyer than
    # ``white_saturation`` is white (cue ball, stripes' caps, number discs); the rest, if saturated, is
    # colour. Saturation is (max - min) / max of the channels.
    dark: float = 0.45
    dark_saturation: float = 0.6
    white_luma: float = 0.6
    white_saturation: float = 0.3
    # Blobs whose pixels have not changed since the last frame keep last frame's circles: balls at rest,
    # most of a match, then cost almost nothing. Off refits every blob in every frame (the worst case).
    reuse_still: bool = True
    # Colour distance at which confidence halves: smaller makes the confidence stricter about colour.
    colour_scale: float = 0.5

    def __post_init__(self) -> None:
        if not 1.5 <= self.coarse_radius_px <= self.fine_radius_px <= self.cluster_radius_px:
            raise ValueError(
                "need 1.5 <= coarse_radius_px <= fine_radius_px <= cluster_radius_px (got "
                f"{self.coarse_radius_px}, {self.fine_radius_px}, {self.cluster_radius_px})"
            )
        for name in (
            "min_coverage",
            "min_cluster_coverage",
            "min_seed_coverage",
            "min_blob_area",
            "colour_radius",
            "highlight_share",
            "dark",
            "dark_saturation",
            "white_saturation",
            "opening",
        ):
            v = getattr(self, name)
            if not 0.0 < v < 1.0:
                raise ValueError(f"ClassicalConfig.{name} must be in (0, 1), got {v}")
        if self.mask_margin < 0:
            raise ValueError(f"ClassicalConfig.mask_margin must be >= 0, got {self.mask_margin}")
        if not -2.0 <= self.centre_inset <= 1.0:
            raise ValueError(
                f"ClassicalConfig.centre_inset must be in [-2, 1] radii, got {self.centre_inset}"
            )
        if not 0.5 <= self.min_separation <= 2.0:
            raise ValueError(
                f"ClassicalConfig.min_separation must be in [0.5, 2] radii, got {self.min_separation}"
            )
        if (
            self.min_edge < 0
            or self.min_outline < 0
            or self.min_glint < 0
            or self.white_luma <= 0
            or self.colour_scale <= 0
        ):
            raise ValueError(
                "ClassicalConfig.min_edge, min_outline, min_glint must be >= 0; white_luma, colour_scale > 0"
            )


# ------------------------------------------------------------------------------------------------ kernels
def _disk_kernel(r: float) -> np.ndarray:
    """Normalised antialiased disk: correlation with it is the share of the disk that is foreground."""
    n = math.ceil(r) + 1
    yy, xx = np.mgrid[-n : n + 1, -n : n + 1].astype(np.float32)
    k = np.clip(r + 0.5 - np.hypot(xx, yy), 0.0, 1.0)
    return (k / k.sum()).astype(np.float32)


def _ring_kernels(r: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A one-pixel ring of radius ``r`` weighted by 1, cos 2t and sin 2t (t: the ring's normal angle), each
    divided by twice the ring's weight: correlated with the structure-tensor maps (E, E cos 2p, E sin 2p)
    they sum to the mean over the ring of E cos^2(p - t), the edge strength along the circle's normal."""
    n = math.ceil(r) + 2
    yy, xx = np.mgrid[-n : n + 1, -n : n + 1].astype(np.float32)
    w = np.clip(1.0 - np.abs(np.hypot(xx, yy) - r), 0.0, None)
    t = np.arctan2(yy, xx)
    s = 2.0 * w.sum()
    return tuple((w * k / s).astype(np.float32) for k in (1.0, np.cos(2 * t), np.sin(2 * t)))  # type: ignore[return-value]


def _ellipse(r: float) -> np.ndarray:
    """A disk-shaped structuring element of radius ``r`` (at least one pixel)."""
    n = max(1, round(r))
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * n + 1, 2 * n + 1))


def _disk_offsets(r: float) -> np.ndarray:
    """Integer pixel offsets (K, 2) within ``r`` of a centre: the pixels a ball's colour is read from."""
    n = math.ceil(r)
    yy, xx = np.mgrid[-n : n + 1, -n : n + 1]
    inside = xx * xx + yy * yy <= r * r
    return np.stack([xx[inside], yy[inside]], axis=1)


def _packed(xy: np.ndarray, candidate: np.ndarray, kept: np.ndarray, radius: float) -> np.ndarray:
    """Candidates that touch at least two kept balls (centres two radii apart): inside a rack a ball's
    outline is mostly seams with balls of its own colour, and its packed neighbours vouch for it. Spreads
    inwards over a few rounds."""
    kept = kept.copy()
    d = np.linalg.norm(xy[:, None, :] - xy[None, :, :], axis=2)
    touching = (d >= _TOUCH[0] * radius) & (d <= _TOUCH[1] * radius)
    for _ in range(_PACKED_ROUNDS):
        new = candidate & ~kept & ((touching & kept[None, :]).sum(axis=1) >= 2)
        if not new.any():
            break
        kept |= new
    return kept


def _halvings(radius: float, target: float) -> int:
    """How many halvings bring ``radius`` down to about ``target`` (at most 15 % below it)."""
    return max(0, math.floor(math.log2(radius / (_LEVEL_SLACK * target))))


def _suppress(xy: np.ndarray, score: np.ndarray, distance: float) -> np.ndarray:
    """Indices (sorted) of the points kept by greedy non-maximum suppression: best first, none closer
    than ``distance`` to a kept one."""
    order = np.argsort(-score, kind="stable")
    close = ((xy[order, None, :] - xy[None, order, :]) ** 2).sum(axis=2) < distance * distance
    alive = np.ones(len(order), bool)
    for k in range(len(order)):
        if alive[k]:
            alive[k + 1 :] &= ~close[k, k + 1 :]
    return np.sort(order[alive])


def _subpixel(score: np.ndarray, x: int, y: int) -> tuple[float, float]:
    """Peak position refined by a parabola through the peak and its neighbours, per axis."""
    h, w = score.shape

    def offset(a: float, b: float, c: float) -> float:
        den = a - 2 * b + c
        return 0.0 if den >= 0 else float(np.clip(0.5 * (a - c) / den, -0.5, 0.5))

    dx = offset(score[y, x - 1], score[y, x], score[y, x + 1]) if 0 < x < w - 1 else 0.0
    dy = offset(score[y - 1, x], score[y, x], score[y + 1, x]) if 0 < y < h - 1 else 0.0
    return x + dx, y + dy


def _edge_maps(image: np.ndarray) -> np.ndarray:
    """Structure-tensor maps (3 x H x W) of a colour image: compressed edge strength E = sqrt|grad| and
    E cos 2p, E sin 2p (p: the gradient's direction). Compressed so that the highlights' sharp rims and a
    cluster's outline do not drown the faint seams between touching balls."""
    gx = cv2.Sobel(image, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(image, cv2.CV_32F, 0, 1, ksize=3)
    jxx = cv2.transform(gx * gx, _SUM3)
    jyy = cv2.transform(gy * gy, _SUM3)
    jxy = cv2.transform(gx * gy, _SUM3)
    energy = cv2.sqrt(jxx + jyy) + _EPS
    strength = cv2.sqrt(energy)
    per = strength / (energy * energy)
    return np.stack([strength, (jxx - jyy) * per, 2 * jxy * per])


def _parabola(vote: np.ndarray, rows: np.ndarray, by: np.ndarray, bx: np.ndarray, axis: int) -> np.ndarray:
    """Sub-cell offset of each row's peak ``vote[rows, by, bx]`` along ``axis`` (1: y, 2: x) from a parabola
    through it and its two neighbours (0 at the grid's edge)."""
    n = vote.shape[axis]
    pos = by if axis == 1 else bx
    lo = _bound(pos - 1, 0, n - 1)
    hi = _bound(pos + 1, 0, n - 1)
    if axis == 1:
        a, b, c = vote[rows, lo, bx], vote[rows, by, bx], vote[rows, hi, bx]
    else:
        a, b, c = vote[rows, by, lo], vote[rows, by, bx], vote[rows, by, hi]
    den = a - 2 * b + c
    off = np.where(den < 0, 0.5 * (a - c) / np.where(den < 0, den, -1.0), 0.0)
    return np.where((pos > 0) & (pos < n - 1), _bound(off, -0.5, 0.5), 0.0)


def _outline(sectors: np.ndarray) -> np.ndarray:
    """The second weakest sector vote of each row (K, 8)."""
    return np.sort(sectors, axis=1)[:, 1] if len(sectors) else np.zeros(0)


def _bound(a: np.ndarray, lo: float, hi: float | None) -> np.ndarray:
    """``np.clip`` without its per-call overhead (it dominates on the small arrays here); ``hi`` may be
    None for no upper bound."""
    a = np.maximum(a, lo)
    return a if hi is None else np.minimum(a, hi)


def _opponent(bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Red-green and yellow-blue opponent axes: their angle is the hue, unchanged by shading or by the
    white that compression bleeds into small coloured areas."""
    b, g, r = bgr[..., 0], bgr[..., 1], bgr[..., 2]
    return r - g, 0.5 * (r + g) - b


def _row_quantile(values: np.ndarray, mask: np.ndarray, q: float) -> np.ndarray:
    """Per row, the ``q`` quantile of ``values`` where ``mask`` (NaN-free, no warnings; 0 for empty rows)."""
    n = mask.sum(axis=1)
    ordered = np.sort(np.where(mask, values, np.inf), axis=1)
    k = _bound(np.floor(q * (n - 1)).astype(np.int64), 0, values.shape[1] - 1)
    return np.where(n > 0, ordered[np.arange(len(n)), k], 0.0)


@dataclass(frozen=True)
class _Kernels:
    """Everything that depends on the ball radius at one pyramid level."""

    radius: float
    disk: np.ndarray  # normalised disk: correlation = share of the disk that is foreground
    ring: tuple[np.ndarray, np.ndarray, np.ndarray]  # radial-edge vote kernels (see _ring_kernels)
    ring_pixels: tuple[
        np.ndarray, np.ndarray, np.ndarray
    ]  # the ring's offsets (J, 2), weights (3, J), sectors
    ring_points: tuple[np.ndarray, np.ndarray]  # a sparse ring: offsets (P, 2), weights (3, P)
    opening: np.ndarray
    closing: np.ndarray

    @classmethod
    def build(cls, radius: float, opening: float) -> _Kernels:
        ring = _ring_kernels(radius)
        k0, kc, ks = ring
        ring_y, ring_x = np.nonzero(k0)
        mid = k0.shape[0] // 2
        angle_px = np.arctan2(ring_y - mid, ring_x - mid)
        angle = 2 * np.pi * (np.arange(_RING_SAMPLES) + 0.5) / _RING_SAMPLES
        return cls(
            radius,
            _disk_kernel(radius),
            ring,
            (
                np.stack([ring_x - mid, ring_y - mid], axis=1),
                np.stack([k0[ring_y, ring_x], kc[ring_y, ring_x], ks[ring_y, ring_x]]).astype(np.float32),
                np.floor((angle_px + np.pi) / (2 * np.pi) * _SECTORS).astype(np.int64) % _SECTORS,
            ),
            (
                np.round(radius * np.stack([np.cos(angle), np.sin(angle)], axis=1)).astype(np.int64),
                (
                    np.stack([np.ones_like(angle), np.cos(2 * angle), np.sin(2 * angle)])
                    / (2 * _RING_SAMPLES)
                ).astype(np.float32),
            ),
            _ellipse(opening * radius),
            _ellipse(_CLOSING * radius),
        )


# ------------------------------------------------------------------------------------------------ identity
@dataclass(frozen=True)
class _BallSet:
    """A game's appearance classes: what each should measure as, and how many of the game's balls share
    it (the capacities of the per-frame assignment)."""

    cls: np.ndarray  # (P,) indices into APPEARANCE_CLASSES
    shares: np.ndarray  # (P, 3) expected dark, white, coloured shares
    hue: np.ndarray  # (P,) radians, opponent-colour angle
    strength: np.ndarray  # (P,) expected colour strength relative to the cloth
    light: np.ndarray  # (P,) log expected median brightness relative to the cloth
    coloured: np.ndarray  # (P,) bool: the class has a hue to compare
    count: np.ndarray  # (P,) balls of the game with this look

    @classmethod
    def for_game(cls, spec: BilliardsSpec) -> _BallSet:
        rows: dict[str, tuple] = {}
        counts: dict[str, int] = {}
        for look in spec.looks.values():
            counts[look.cls] = counts.get(look.cls, 0) + 1
            if look.cls in rows:
                continue
            bgr = np.array(look.rgb[::-1], np.float32)
            top = float(bgr.max())
            chroma = top - float(bgr.min())
            luma = float(_LUMA @ bgr)
            grey = chroma / max(top, _EPS) < _GREY
            if look.cls == "pyramid_ball":
                shares = _SHARES_IVORY
            elif grey:
                shares = _SHARES_BLACK if luma * _LIGHT_KEPT / _CLOTH_LUMA < _BLACK else _SHARES_WHITE
            elif look.number == 8:
                shares = _SHARES_EIGHT
            else:
                shares = _SHARES_STRIPE if look.striped else _SHARES_SOLID
            a, b = _opponent(bgr)
            rows[look.cls] = (
                APPEARANCE_CLASSES.index(look.cls),
                shares,
                math.atan2(float(b), float(a)),
                chroma * _COLOUR_KEPT / _CLOTH_LUMA,
                math.log(luma * _LIGHT_KEPT / _CLOTH_LUMA),
                shares[2] > 0.2,
            )
        values = list(rows.values())
        return cls(
            np.array([v[0] for v in values], np.int64),
            np.array([v[1] for v in values], np.float64),
            np.array([v[2] for v in values]),
            np.array([v[3] for v in values]),
            np.array([v[4] for v in values]),
            np.array([v[5] for v in values], bool),
            np.array([counts[k] for k in rows], np.int64),
        )

    def costs(self, colour: _Colour) -> np.ndarray:
        """Colour distance (N, P) of every ball to every class."""
        cost = _W_SHARES * np.abs(colour.shares[:, None, :] - self.shares[None, :, :]).sum(axis=2)
        turn = np.abs(np.angle(np.exp(1j * (colour.hue[:, None] - self.hue[None, :])))) / np.pi
        strength = np.abs(np.log(np.maximum(colour.strength[:, None], _EPS) / self.strength[None, :]))
        hued = np.where(colour.has_hue[:, None], _W_HUE * turn + _W_STRENGTH * strength, _W_HUE)
        light = _W_LIGHT * np.abs(colour.light[:, None] - self.light[None, :])
        return cost + np.where(self.coloured[None, :], hued, light)

    def assign(self, cost: np.ndarray) -> np.ndarray:
        """Class index (into this set) per ball: each ball's nearest class, then, while a class holds more
        balls than the game has, the ball that loses least by moving goes to its best class with room.
        When every class is full (more balls found than exist), the rest keep their nearest class."""
        choice = cost.argmin(axis=1)
        for _ in range(2 * len(choice)):
            held = np.bincount(choice, minlength=len(self.cls))
            over = np.nonzero(held > self.count)[0]
            room = held < self.count
            if len(over) == 0 or not room.any():
                break
            rows = np.nonzero(choice == over[0])[0]
            alt = np.where(room[None, :], cost[rows], np.inf)
            best = alt.argmin(axis=1)
            regret = alt[np.arange(len(rows)), best] - cost[rows, over[0]]
            k = int(regret.argmin())
            choice[rows[k]] = best[k]
        return choice


@dataclass(frozen=True)
class _Colour:
    """What the pixels inside each ball say (one row per ball)."""

    shares: np.ndarray  # (N, 3) dark, white, coloured
    hue: np.ndarray  # (N,) radians
    strength: np.ndarray  # (N,) colour strength of the most saturated pixels, relative to the cloth
    light: np.ndarray  # (N,) log median brightness relative to the cloth
    has_hue: np.ndarray  # (N,) bool
    glint: np.ndarray  # (N,) brightest pixel above the median, relative to the cloth

    _FIELDS = ("shares", "hue", "strength", "light", "has_hue", "glint")

    def subset(self, index: np.ndarray) -> _Colour:
        return _Colour(*(getattr(self, f)[index] for f in self._FIELDS))

    @classmethod
    def concat(cls, parts: list[_Colour]) -> _Colour:
        return cls(*(np.concatenate([getattr(p, f) for p in parts]) for f in cls._FIELDS))

    @classmethod
    def measure(cls, px: np.ndarray, cfg: ClassicalConfig) -> _Colour:
        """``px`` (N, K, 3): each ball's pixels divided by the cloth luma next to it."""
        p0, p1, p2 = px[..., 0], px[..., 1], px[..., 2]
        luma = _LUMA[0] * p0 + _LUMA[1] * p1 + _LUMA[2] * p2
        ordered = np.sort(luma, axis=1)
        k = luma.shape[1]
        median = ordered[:, k // 2]
        glint = ordered[:, -1] - median
        body = luma <= ordered[:, min(k - 1, int((1.0 - cfg.highlight_share) * (k - 1)))][:, None]
        top = np.maximum(np.maximum(p0, p1), p2)
        chroma = top - np.minimum(np.minimum(p0, p1), p2)
        sat = chroma / np.maximum(top, _EPS)
        dark = body & (luma < cfg.dark) & (sat < cfg.dark_saturation)
        white = body & (luma >= cfg.white_luma) & (sat < cfg.white_saturation)
        coloured = body & ~dark & (sat >= cfg.white_saturation)
        counts = np.stack([dark.sum(axis=1), white.sum(axis=1), coloured.sum(axis=1)], axis=1)
        shares = counts / np.maximum(counts.sum(axis=1), 1)[:, None]
        # Hue from the more saturated half of the coloured pixels: the pure body or band, not its fringes.
        strong = coloured & (chroma >= _row_quantile(chroma, coloured, 0.5)[:, None])
        w = strong.astype(np.float32)
        hue = np.arctan2(((0.5 * (p2 + p1) - p0) * w).sum(axis=1), ((p2 - p1) * w).sum(axis=1))
        strength = _row_quantile(chroma, coloured, _STRENGTH_QUANTILE)
        light = np.log(np.maximum(_row_quantile(luma, body, 0.5), 0.02))
        return cls(shares, hue, strength, light, strong.sum(axis=1) >= _MIN_PIXELS, glint)


# ------------------------------------------------------------------------------------------------ detector
@dataclass(frozen=True)
class _Candidates:
    """Circles found at the fine level, before identity: one row each."""

    xy: np.ndarray  # (N, 2) fine-level pixel coordinates
    coverage: np.ndarray  # (N,) share of the disk that is foreground
    edge: np.ndarray  # (N,) radial edge vote
    outline: np.ndarray  # (N,) the second weakest eighth of the edge vote: is the outline all round?
    cluster: np.ndarray  # (N,) bool, found in a blob of several balls
    seeded: np.ndarray  # (N,) bool, found from a glint alone (a ball of the cloth's colour)
    radius: np.ndarray  # (N,) fitted radius, fine-level pixels

    _FIELDS = ("xy", "coverage", "edge", "outline", "cluster", "seeded", "radius")

    @classmethod
    def empty(cls) -> _Candidates:
        return cls(
            np.zeros((0, 2)),
            np.zeros(0),
            np.zeros(0),
            np.zeros(0),
            np.zeros(0, bool),
            np.zeros(0, bool),
            np.zeros(0),
        )

    def subset(self, index: np.ndarray) -> _Candidates:
        return _Candidates(*(getattr(self, f)[index] for f in self._FIELDS))

    @classmethod
    def concat(cls, parts: list[_Candidates]) -> _Candidates:
        return cls(*(np.concatenate([getattr(p, f) for p in parts]) for f in cls._FIELDS))


class ClassicalDetector:
    """Finds the balls of one game in frames from one fixed camera.

    ``ball_radius_px`` is the apparent ball radius (from the calibration, at the table's centre: it varies
    by ~10 % over the table, which the thresholds absorb). ``table_mask`` (H x W, nonzero = playing area,
    drawn at cloth level or at ball-centre height, pocket mouths in or out) limits the search; without it
    the cloth is found in the first frame (``cloth.find_table``). Call ``detect`` once per frame and in
    order: the cloth model learns from every call and still blobs are recognised from the last frame.
    ``reset`` after a cut or a camera move."""

    def __init__(
        self,
        spec: BilliardsSpec,
        ball_radius_px: float,
        table_mask: np.ndarray | None = None,
        config: ClassicalConfig | None = None,
    ) -> None:
        config = config or ClassicalConfig()
        self._balls = _BallSet.for_game(spec)
        if not isinstance(ball_radius_px, numbers.Real) or not math.isfinite(ball_radius_px):
            raise ValueError(f"ball_radius_px must be a finite number, got {ball_radius_px!r}")
        if ball_radius_px < 2.0:
            raise ValueError(
                f"ball_radius_px must be at least 2 (a ball of {ball_radius_px} px cannot be told)"
            )
        if table_mask is not None:
            table_mask = np.asarray(table_mask)
            if table_mask.ndim != 2 or not table_mask.any():
                raise ValueError("table_mask must be a 2-D array (H x W) with at least one nonzero pixel")
        self.spec = spec
        self.radius = float(ball_radius_px)
        self.config = config
        self._table_mask = table_mask
        # Pyramid levels: halvings to the coarse level (blobs), the fine one (lone balls, colour) and the
        # cluster one (touching balls), with the kernels of the ball's radius there.
        self._coarse_levels = _halvings(self.radius, config.coarse_radius_px)
        self._fine_levels = min(self._coarse_levels, _halvings(self.radius, config.fine_radius_px))
        self._rc = self.radius / 2**self._coarse_levels
        self._rf = self.radius / 2**self._fine_levels
        self._cluster_levels = min(self._fine_levels, _halvings(self.radius, config.cluster_radius_px))
        self._fine = _Kernels.build(self._rf, config.opening)
        self._fine_sizes = [self._fine] + [_Kernels.build(self._rf * f, config.opening) for f in _SIZES[1:]]
        self._cluster = _Kernels.build(self.radius / 2**self._cluster_levels, config.opening)
        self._coarse_opening = _ellipse(config.opening * self._rc)
        self._colour_offsets = _disk_offsets(config.colour_radius * self._rf)
        self._geometry: _Geometry | None = None
        self._cloth: ClothModel | None = None
        # Last frame's coarse level, blobs (x, y, w, h, area), their circles and colours, for reuse.
        self._previous: np.ndarray | None = None
        self._cache_boxes = np.zeros((0, 5), np.int64)
        self._cache_found: list[_Candidates | None] = []
        self._colour_rows: dict[tuple[float, float], int] = {}
        self._colour_last: _Colour | None = None
        self._last: Detections | None = None
        # Every circle of the last frame with the measures it was judged on: for tuning and diagnosis.
        self.last_candidates: dict | None = None

    @property
    def _edge_scale(self) -> float:
        """Edge votes relative to a step as high as the cloth is bright (its Sobel response is ~4x the
        cloth level), taking the square-root compression into account."""
        if self._cloth is None:
            return 1.0
        return 1.0 / math.sqrt(4.0 * self._cloth.level)

    def reset(self) -> None:
        """Forget the cloth (a cut, a new table); the next frame relearns it."""
        if self._cloth is not None:
            self._cloth.reset()
        self._previous = None
        self._cache_boxes = np.zeros((0, 5), np.int64)
        self._cache_found = []
        self._colour_rows = {}
        self._colour_last = None
        self._last = None

    # --- per frame ---
    def detect(self, image: np.ndarray) -> Detections:
        """Every ball found in ``image`` (H x W x 3 BGR uint8). ``xy_mm`` is left NaN."""
        image = np.asarray(image)
        if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
            raise ValueError(f"detect needs an H x W x 3 uint8 BGR image, got {image.dtype} {image.shape}")
        cfg = self.config
        geo = self._geometry_for(image)
        levels = [image[geo.y0 : geo.y1, geo.x0 : geo.x1]]
        for _ in range(self._coarse_levels):
            levels.append(cv2.resize(levels[-1], None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA))
        moved = self._moved(levels[-1], geo)
        if moved is not None and self._last is not None and not moved.any():
            return self._last  # nothing on the table changed since the last frame looked at
        if self._cloth is None:
            self._cloth = ClothModel(geo.masks[-1], cfg.cloth)
        fg = self._cloth.update(levels[-1].astype(np.float32))
        cand = self._candidates(
            levels[-1], levels[self._fine_levels], levels[self._cluster_levels], geo, fg, moved
        )
        self.last_candidates = None
        self._last = self._judge(cand, levels[self._fine_levels], geo)
        return self._last

    def _moved(self, coarse: np.ndarray, geo: _Geometry) -> np.ndarray | None:
        """Coarse pixels of the table that changed since the last frame looked at in full (uint8 0/1), or
        None when there is nothing to compare with (or reuse is off)."""
        if not self.config.reuse_still or self._previous is None or self._previous.shape != coarse.shape:
            return None
        diff = cv2.split(cv2.absdiff(coarse, self._previous))
        moved = (cv2.max(cv2.max(diff[0], diff[1]), diff[2]) > _STATIC_PEAK).view(np.uint8)
        return cv2.bitwise_and(moved, geo.masks[-1])

    def _judge(self, cand: _Candidates, fine: np.ndarray, geo: _Geometry) -> Detections:
        """Keep the circles that are balls and name them."""
        cfg = self.config
        if len(cand.xy) == 0:
            return Detections.empty()
        q = 2 ** (self._coarse_levels - self._fine_levels)
        xy_full = 2**self._fine_levels * (cand.xy + 0.5) - 0.5 + np.array([geo.x0, geo.y0], np.float64)
        colour = self._colours(fine, cand.xy, q)
        min_cov = np.where(
            cand.cluster,
            cfg.min_cluster_coverage,
            np.where(cand.seeded, cfg.min_seed_coverage, cfg.min_coverage),
        )
        plausible = geo.centre_ok(xy_full) & (cand.coverage >= min_cov) & (cand.edge >= cfg.min_edge)
        plausible &= colour.glint >= cfg.min_glint
        keep = plausible & (cand.outline >= cfg.min_outline)
        keep |= _packed(
            cand.xy, plausible & (cand.outline >= _PACKED_OUTLINE * cfg.min_outline), keep, self._rf
        )
        self.last_candidates = {
            "xy_px": xy_full,
            "coverage": cand.coverage,
            "edge": cand.edge,
            "cluster": cand.cluster,
            "seeded": cand.seeded,
            "outline": cand.outline,
            "glint": colour.glint,
            "kept": keep,
        }
        if not keep.any():
            return Detections.empty()
        kept = colour.subset(keep)
        cost = self._balls.costs(kept)
        choice = self._balls.assign(cost)
        distance = cost[np.arange(len(choice)), choice]
        fit = _bound((cand.coverage[keep] - min_cov[keep]) / (1.0 - min_cov[keep] + _EPS), 0.0, 1.0)
        confidence = (0.5 + 0.5 * fit) * cfg.colour_scale / (cfg.colour_scale + distance)
        radius = cand.radius[keep] * 2**self._fine_levels
        return Detections(xy_full[keep], radius, self._balls.cls[choice], confidence)

    def _candidates(
        self,
        coarse: np.ndarray,
        fine: np.ndarray,
        cluster_level: np.ndarray,
        geo: _Geometry,
        fg: Foreground,
        moved: np.ndarray | None,
    ) -> _Candidates:
        """Circles in the coarse foreground, fitted at the fine level. A blob whose surroundings have not
        changed since the last frame (balls at rest: most of a match) keeps last frame's circles."""
        cfg = self.config
        blobs = cv2.bitwise_and(fg.mask, geo.masks[-1])
        n, labels, stats, centroids = cv2.connectedComponentsWithStatsWithAlgorithm(
            blobs, 8, cv2.CV_32S, cv2.CCL_GRANA
        )
        stats, centroids = stats[1:], centroids[1:]
        q = 2 ** (self._coarse_levels - self._fine_levels)
        area = stats[:, cv2.CC_STAT_AREA] / (math.pi * self._rc**2)
        extent = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]) / self._rc
        big_enough = area >= cfg.min_blob_area
        single = big_enough & (area <= _SINGLE_AREA) & (extent <= _SINGLE_EXTENT)
        # A bigger blob is worth the fine look only if something ball-thick survives an opening (after
        # filling pin-holes): chalk lines and the cue vanish.
        opened = cv2.morphologyEx(
            cv2.morphologyEx(blobs, cv2.MORPH_CLOSE, _CROSS), cv2.MORPH_OPEN, self._coarse_opening
        )
        cluster = big_enough & ~single & (np.bincount(labels[opened > 0], minlength=n)[1:] > 0)
        # A blob too small for a ball may be the glint of a ball of the cloth's own colour (green on green):
        # a seed, if enough of a ball-sized disk around it is darker than the lit cloth.
        seed = ~big_enough
        if seed.any():
            k = 2 * round(self._rc) + 1
            dark = cv2.blur((fg.cloth == 0).astype(np.float32) * geo.masks[-1], (k, k))
            at = np.round(centroids).astype(np.int64)
            seed &= dark[at[:, 1], at[:, 0]] >= _SEED_PREFILTER * cfg.min_seed_coverage
        lone = single | seed
        found: list[_Candidates | None] = [None] * len(stats)
        for i, old in self._unchanged(moved, stats, lone | cluster):
            found[i] = old
        todo = np.array([lone[i] and found[i] is None for i in range(len(stats))], bool)
        if todo.any():
            fitted = self._fit_isolated(fine, geo, q * (centroids[todo] + 0.5) - 0.5, seed[todo])
            for row, i in enumerate(np.nonzero(todo)[0]):
                found[i] = fitted.subset(np.array([row]))
        for i in np.nonzero(cluster)[0]:
            if found[i] is None:
                # Only the blob's ball-thick part is searched: not the length of a cue lying on the cloth.
                x, y, w, h = (int(v) for v in stats[i, :4])
                ys, xs = np.nonzero(opened[y : y + h, x : x + w] & (labels[y : y + h, x : x + w] == i + 1))
                box = (
                    x + int(xs.min()),
                    y + int(ys.min()),
                    int(xs.max() - xs.min()) + 1,
                    int(ys.max() - ys.min()) + 1,
                )
                # Splitting at the finer cluster level pays for a rack; a blob bigger than any rack (an arm)
                # is searched at the fine level.
                if area[i] <= _MAX_RACK:
                    found[i] = self._fit_cluster(cluster_level, self._cluster_levels, self._cluster, geo, box)
                else:
                    found[i] = self._fit_cluster(fine, self._fine_levels, self._fine, geo, box)
        keep = lone | cluster
        self._previous = coarse.copy()
        self._cache_boxes = stats[keep].astype(np.int64)
        self._cache_found = [f for f, k in zip(found, keep, strict=True) if k]
        parts = [f for f in self._cache_found if f is not None and len(f.xy)]
        if not parts:
            return _Candidates.empty()
        cand = _Candidates.concat(parts)
        return cand.subset(
            _suppress(cand.xy, cand.coverage * np.minimum(cand.edge, 1.0), cfg.min_separation * self._rf)
        )

    def _unchanged(
        self, moved: np.ndarray | None, stats: np.ndarray, wanted: np.ndarray
    ) -> list[tuple[int, _Candidates]]:
        """(blob index, last frame's circles) for the ``wanted`` blobs that match a blob of the last frame
        (same place and size) and under whose box no pixel has ``moved``."""
        if moved is None or len(self._cache_boxes) == 0:
            return []
        total = cv2.integral(moved)
        h, w = moved.shape
        x, y, bw, bh, a = (stats[:, k].astype(np.int64) for k in range(5))
        x0, y0 = np.maximum(x - 1, 0), np.maximum(y - 1, 0)
        x1, y1 = np.minimum(x + bw + 1, w), np.minimum(y + bh + 1, h)
        changes = total[y1, x1] - total[y0, x1] - total[y1, x0] + total[y0, x0]
        old = self._cache_boxes
        same = (
            (np.abs(x[:, None] - old[None, :, 0]) <= 1)
            & (np.abs(y[:, None] - old[None, :, 1]) <= 1)
            & (np.abs(x[:, None] + bw[:, None] - old[None, :, 0] - old[None, :, 2]) <= 1)
            & (np.abs(y[:, None] + bh[:, None] - old[None, :, 1] - old[None, :, 3]) <= 1)
            & (np.abs(a[:, None] - old[None, :, 4]) <= _STATIC_AREA * a[:, None])
        )
        ok = wanted & (changes == 0) & same.any(axis=1)
        match = same.argmax(axis=1)
        return [(int(i), self._cache_found[match[i]]) for i in np.nonzero(ok)[0]]

    # --- geometry ---
    def _geometry_for(self, image: np.ndarray) -> _Geometry:
        h, w = image.shape[:2]
        if self._geometry is not None and self._geometry.shape == (h, w):
            return self._geometry
        if self._table_mask is not None and self._table_mask.shape != (h, w):
            raise ValueError(f"table_mask is {self._table_mask.shape}, the image {h} x {w}: they must match")
        mask = self._table_mask if self._table_mask is not None else find_table(image)
        self._geometry = _Geometry.build(mask, self.radius, self.config, self._coarse_levels)
        self._cloth = None
        return self._geometry

    def _cloth_at(self, xy_fine: np.ndarray, q: int) -> np.ndarray:
        """Cloth colour (N, 3) at fine-level points, read from the coarse field."""
        if self._cloth is None:
            raise RuntimeError("the cloth model is learnt in detect(); no frame seen yet")
        cf = self._cloth.field
        h, w = cf.shape[:2]
        cx = _bound(np.round((xy_fine[:, 0] + 0.5) / q - 0.5).astype(np.int64), 0, w - 1)
        cy = _bound(np.round((xy_fine[:, 1] + 0.5) / q - 0.5).astype(np.int64), 0, h - 1)
        return cf[cy, cx]

    # --- circles ---
    def _fit_isolated(
        self, fine: np.ndarray, geo: _Geometry, xy0: np.ndarray, seeded: np.ndarray
    ) -> _Candidates:
        """Lone balls, all at once. Blobs of one ball's size start from their foreground centroid (a few
        mean-shift steps inside a disk a little wider than the ball); highlight seeds (a glint with little
        foreground around it: a ball of the cloth's own colour) start at the glint. Then the centre is
        the best radial-edge vote on a small grid around the start, and coverage is read there."""
        rf = self._rf
        hs = math.ceil(_ISOLATED_WINDOW * rf)
        ar = np.arange(-hs, hs + 1)
        size = len(ar)
        hf, wf = fine.shape[:2]
        base = np.round(xy0).astype(np.int64)
        xs = _bound(base[:, 0, None] + ar[None, :], 0, wf - 1)
        ys = _bound(base[:, 1, None] + ar[None, :], 0, hf - 1)
        patch = fine[ys[:, :, None], xs[:, None, :]].astype(np.float32)  # N x S x S x 3
        inside = geo.masks[self._fine_levels][ys[:, :, None], xs[:, None, :]] > 0
        score, ratio = score_patches(
            patch, self._cloth_at(xy0, 2 ** (self._coarse_levels - self._fine_levels)), self.config.cloth
        )
        fg = (score >= 1.0) & inside
        fgm = fg.astype(np.float32)
        # Mean shift in patch coordinates (the patch centre is ``base``).
        c = (xy0 - base + hs).astype(np.float32)
        g = np.arange(size, dtype=np.float32)
        reach2 = np.float32((_SHIFT_REACH * rf) ** 2)
        shift = ~seeded
        for _ in range(_SHIFT_STEPS):
            near = ((g[None, :] - c[:, 1, None]) ** 2)[:, :, None] + ((g[None, :] - c[:, 0, None]) ** 2)[
                :, None, :
            ] <= reach2
            w = fgm * near
            m = w.sum(axis=(1, 2))
            ok = shift & (m > 0)
            c[ok, 0] = (w.sum(axis=1) @ g)[ok] / m[ok]
            c[ok, 1] = (w.sum(axis=2) @ g)[ok] / m[ok]
        # Radial edges over a grid around the start: wider for seeds, whose glint is off the centre.
        tall = patch.reshape(-1, size, 3)
        maps = _edge_maps(tall).reshape(3, len(xy0), size, size)
        centre, edge = self._ring_search(maps, c, seeded, self._fine.ring_points)
        # The radius varies over the image (perspective, a wide lens: up to ~15 %); a ring of the wrong
        # size hugs one side of the ball. Try a few sizes from the centre found, keep the best vote.
        scale = np.zeros(len(c), np.int64)
        plain = np.zeros(len(c), bool)
        for k, kernels in enumerate(self._fine_sizes[1:], start=1):
            xy_k, edge_k = self._ring_search(maps, centre, plain, kernels.ring_points)
            better = (edge_k > edge * _SIZE_MARGIN) & ~seeded  # a glint's ball is too faint to size
            centre[better], edge[better], scale[better] = xy_k[better], edge_k[better], k
        radius = rf * np.array(_SIZES)[scale]
        dy = (g[None, :] - centre[:, 1, None].astype(np.float32)) ** 2
        dx = (g[None, :] - centre[:, 0, None].astype(np.float32)) ** 2
        disk = _bound(
            (radius + 0.5).astype(np.float32)[:, None, None] - np.sqrt(dy[:, :, None] + dx[:, None, :]),
            0.0,
            1.0,
        )
        area = disk.sum(axis=(1, 2))
        sectors = np.zeros((len(c), _SECTORS))
        for k, kernels in enumerate(self._fine_sizes):
            at = np.nonzero(scale == k)[0]
            if len(at):
                sectors[at] = self._sector_votes(maps, centre[at], at, kernels)
        outline = _outline(sectors)
        coverage = (fgm * disk).sum(axis=(1, 2)) / area
        if seeded.any():
            # A ball of the cloth's colour shows as its glint over a darker disk (shaded side and shadow).
            dark = fg[seeded] | ((ratio[seeded] < self.config.cloth.shadow) & inside[seeded])
            coverage[seeded] = (dark * disk[seeded]).sum(axis=(1, 2)) / area[seeded]
        return _Candidates(
            centre + base - hs, coverage, edge, outline, np.zeros(len(c), bool), seeded.copy(), radius
        )

    def _ring_search(
        self, maps: np.ndarray, start: np.ndarray, seeded: np.ndarray, ring: tuple[np.ndarray, np.ndarray]
    ) -> tuple[np.ndarray, np.ndarray]:
        """For each patch (maps: 3 x N x S x S edge maps), the centre near ``start`` (N, 2) with the best
        radial-edge vote and that vote: hill-climbing on a 3 x 3 grid (a lone ball's start is within a
        pixel or two; a glint may be half a radius from its ball's centre), then a parabola through the
        peak's neighbours for the sub-pixel position."""
        n, size = maps.shape[1], maps.shape[2]
        flat = maps.reshape(3, -1)
        offsets, weights = ring
        wflat = weights.reshape(-1)
        grid = np.array([-1, 0, 1])
        gy, gx = (v.ravel() for v in np.meshgrid(grid, grid, indexing="ij"))
        c = np.round(start).astype(np.int64)
        vote = np.zeros((n, 3, 3), np.float32)
        steps = np.full(n, _SEARCH_STEPS)
        active = np.nonzero(~seeded)[0]
        if seeded.any():
            # A glint is up to half a radius from its ball's centre, and the vote between them is not
            # monotonic: search the whole neighbourhood, then refine on the 3 x 3 grid around the best.
            m = max(1, math.ceil(_SEED_REACH * self._rf))
            wide = np.arange(-m, m + 1)
            wy, wx = (v.ravel() for v in np.meshgrid(wide, wide, indexing="ij"))
            idx = np.nonzero(seeded)[0]
            px = _bound(c[idx, 0, None, None] + wx[None, :, None] + offsets[None, None, :, 0], 0, size - 1)
            py = _bound(c[idx, 1, None, None] + wy[None, :, None] + offsets[None, None, :, 1], 0, size - 1)
            at = (idx[:, None, None] * size + py) * size + px
            wide_vote = flat[:, at].transpose(1, 2, 0, 3).reshape(len(idx), len(wx), -1) @ wflat
            best = wide_vote.argmax(axis=1)
            c[idx] += np.stack([wx[best], wy[best]], axis=1)
            steps[idx] = 1
            active = np.arange(n)
        for step in range(_SEARCH_STEPS):
            cx = c[active, 0, None] + gx[None, :]
            cy = c[active, 1, None] + gy[None, :]
            px = _bound(cx[:, :, None] + offsets[None, None, :, 0], 0, size - 1)
            py = _bound(cy[:, :, None] + offsets[None, None, :, 1], 0, size - 1)
            at = (active[:, None, None] * size + py) * size + px
            gathered = flat[:, at].transpose(1, 2, 0, 3).reshape(len(active), 9, -1)
            vote[active] = (gathered @ wflat).reshape(-1, 3, 3)
            best = vote[active].reshape(len(active), -1).argmax(axis=1)
            # A peak on the grid's rim may lie beyond it: step there and look again.
            moved = (best != 4) & (step + 1 < steps[active])
            c[active[moved]] += np.stack([gx[best[moved]], gy[best[moved]]], axis=1)
            active = active[moved]
            if len(active) == 0:
                break
        by, bx = np.divmod(vote.reshape(n, -1).argmax(axis=1), 3)
        rows = np.arange(n)
        xy = np.stack(
            [
                c[:, 0] + grid[bx] + _parabola(vote, rows, by, bx, axis=2),
                c[:, 1] + grid[by] + _parabola(vote, rows, by, bx, axis=1),
            ],
            axis=1,
        )
        return xy, vote[rows, by, bx].astype(np.float64) * self._edge_scale

    def _fit_cluster(
        self, level: np.ndarray, index: int, k: _Kernels, geo: _Geometry, box: tuple[int, ...]
    ) -> _Candidates:
        """Circles of the ball radius in one coarse blob bigger than a ball, searched in ``level`` (pyramid
        level ``index``, with its kernels ``k``): coverage times radial edge votes, then non-maximum
        suppression. Returns fine-level coordinates."""
        cfg = self.config
        q = 2 ** (self._coarse_levels - index)
        pad = math.ceil(_CLUSTER_PAD * k.radius) + 2
        x, y, w, h = box[:4]
        hl, wl = level.shape[:2]
        # Window aligned to whole coarse pixels, so the coarse cloth field upsamples onto it exactly.
        x0 = max(0, (x * q - pad) // q * q)
        y0 = max(0, (y * q - pad) // q * q)
        x1 = min(wl, -(-((x + w) * q + pad) // q) * q)
        y1 = min(hl, -(-((y + h) * q + pad) // q) * q)
        patch = level[y0:y1, x0:x1].astype(np.float32)
        ph, pw = patch.shape[:2]
        if self._cloth is None:
            return _Candidates.empty()
        cfield = self._cloth.field[y0 // q : -(-y1 // q), x0 // q : -(-x1 // q)]
        if q > 1:
            cfield = cv2.resize(cfield, None, fx=q, fy=q, interpolation=cv2.INTER_LINEAR)
        cfield = np.ascontiguousarray(cfield[:ph, :pw])
        fg = classify(patch, cfield, cv2.transform(cv2.multiply(cfield, cfield), _SUM3), cfg.cloth)
        # A closing fills the pin-holes a glint or a number leaves in a ball's foreground; then an opening
        # with a disk a little smaller than a ball erases what is thinner than a ball (the cue stick, chalk
        # lines, a ball's own streak) and keeps balls, however tightly packed.
        fgm = cv2.bitwise_and(fg.mask, geo.masks[index][y0:y1, x0:x1])
        fgm = cv2.morphologyEx(cv2.morphologyEx(fgm, cv2.MORPH_CLOSE, k.closing), cv2.MORPH_OPEN, k.opening)
        coverage = cv2.filter2D(fgm.astype(np.float32), -1, k.disk, borderType=cv2.BORDER_CONSTANT)
        maps = _edge_maps(patch)
        edge = cv2.filter2D(maps[0], -1, k.ring[0], borderType=cv2.BORDER_CONSTANT)
        edge += cv2.filter2D(maps[1], -1, k.ring[1], borderType=cv2.BORDER_CONSTANT)
        edge += cv2.filter2D(maps[2], -1, k.ring[2], borderType=cv2.BORDER_CONSTANT)
        edge *= self._edge_scale
        score = coverage * _bound(edge, 0, None)
        peaks = (
            (score >= cv2.dilate(score, _BOX3))
            & (coverage >= cfg.min_cluster_coverage)
            & (edge >= cfg.min_edge)
        )
        ys, xs = np.nonzero(peaks)
        if len(ys) == 0:
            return _Candidates.empty()
        kept = _suppress(
            np.stack([xs, ys], axis=1).astype(np.float64), score[ys, xs], cfg.min_separation * k.radius
        )
        ci, cj = ys[kept], xs[kept]
        sectors = self._sector_votes(
            maps[:, None], np.stack([cj, ci], axis=1), np.zeros(len(ci), np.int64), k
        )
        origin = np.array([x0, y0], np.float64)
        xy = np.array([_subpixel(score, int(px), int(py)) for px, py in zip(cj, ci, strict=True)]) + origin
        n = len(kept)
        return _Candidates(
            (xy + 0.5) / 2 ** (self._fine_levels - index) - 0.5,
            coverage[ci, cj].astype(np.float64),
            edge[ci, cj].astype(np.float64),
            _outline(sectors),
            np.ones(n, bool),
            np.zeros(n, bool),
            np.full(n, k.radius * 2 ** (index - self._fine_levels)),
        )

    def _sector_votes(
        self, maps: np.ndarray, centres: np.ndarray, which: np.ndarray, kernels: _Kernels
    ) -> np.ndarray:
        """Radial-edge vote (K, 8) in each eighth of the circle around integer ``centres`` (K, 2) of the
        patches ``which`` (K,) of ``maps`` (3 x N x S x S): where around the ball its outline shows. Each
        sector's vote is scaled to the whole ring, so it reads like the full vote."""
        _n, h, w = maps.shape[1:]
        offsets, weights, sector = kernels.ring_pixels
        c = np.round(centres).astype(np.int64)
        px = _bound(c[:, 0, None] + offsets[None, :, 0], 0, w - 1)
        py = _bound(c[:, 1, None] + offsets[None, :, 1], 0, h - 1)
        at = (which[:, None] * h + py) * w + px
        flat = maps.reshape(3, -1)
        vote = flat[0, at] * weights[0] + flat[1, at] * weights[1] + flat[2, at] * weights[2]  # K x J
        out = np.zeros((len(c), _SECTORS))
        total = weights[0].sum()
        for k in range(_SECTORS):
            sel = sector == k
            out[:, k] = vote[:, sel].sum(axis=1) * (total / max(weights[0, sel].sum(), _EPS))
        return out * self._edge_scale

    def _colours(self, fine: np.ndarray, xy: np.ndarray, q: int) -> _Colour:
        """Colour measurements of the circles at ``xy``; a circle kept from the last frame (same centre, to
        the bit) keeps its measurement too."""
        keys = [(x, y) for x, y in xy.tolist()]
        rows = np.array([self._colour_rows.get(k, -1) for k in keys], np.int64)
        known = rows >= 0
        if known.all() and self._colour_last is not None:
            colour = self._colour_last.subset(rows)
        else:
            fresh = _Colour.measure(self._colour_pixels(fine, xy[~known], q), self.config)
            if known.any() and self._colour_last is not None:
                both = _Colour.concat([self._colour_last.subset(rows[known]), fresh])
                order = np.concatenate([np.nonzero(known)[0], np.nonzero(~known)[0]])
                colour = both.subset(np.argsort(order, kind="stable"))
            else:
                colour = fresh
        self._colour_rows = {k: i for i, k in enumerate(keys)}
        self._colour_last = colour
        return colour

    def _colour_pixels(self, fine: np.ndarray, xy: np.ndarray, q: int) -> np.ndarray:
        """Every ball's pixels (N, K, 3) inside ``colour_radius``, divided by the cloth luma there."""
        hf, wf = fine.shape[:2]
        base = np.round(xy).astype(np.int64)
        off = self._colour_offsets
        xs = _bound(base[:, 0, None] + off[None, :, 0], 0, wf - 1)
        ys = _bound(base[:, 1, None] + off[None, :, 1], 0, hf - 1)
        cloth_luma = np.maximum(self._cloth_at(xy, q) @ _LUMA, 1.0)
        return fine[ys, xs].astype(np.float32) / cloth_luma[:, None, None]


@dataclass(frozen=True)
class _Geometry:
    """Per image size: the crop around the table (whole coarse pixels), the analysis mask at every
    pyramid level, and where ball centres may lie (full resolution)."""

    shape: tuple[int, int]
    x0: int
    y0: int
    x1: int
    y1: int
    masks: tuple[np.ndarray, ...]  # analysis mask per pyramid level, uint8 0/1
    centre_mask: np.ndarray  # full resolution, bool

    @classmethod
    def build(cls, table_mask: np.ndarray, radius: float, cfg: ClassicalConfig, levels: int) -> _Geometry:
        h, w = table_mask.shape
        table = (table_mask > 0).astype(np.uint8)

        def grown(r: float) -> np.ndarray:
            """The table grown by ``r`` px (shrunk when negative)."""
            n = round(abs(r))
            if n == 0:
                return table
            disk = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * n + 1, 2 * n + 1))
            return cv2.dilate(table, disk) if r > 0 else cv2.erode(table, disk)

        analysis = grown(cfg.mask_margin * radius)
        ys, xs = np.nonzero(analysis)
        f = 2**levels
        x0, y0 = int(xs.min()) // f * f, int(ys.min()) // f * f
        x1 = min(x0 + (w - x0) // f * f, x0 + -(-(int(xs.max()) + 1 - x0) // f) * f)
        y1 = min(y0 + (h - y0) // f * f, y0 + -(-(int(ys.max()) + 1 - y0) // f) * f)
        if x1 <= x0 or y1 <= y0:
            raise ValueError("the table mask is smaller than one coarse pixel; check the mask and the radius")
        masks = [analysis[y0:y1, x0:x1].astype(np.float32)]
        for _ in range(levels):
            masks.append(cv2.resize(masks[-1], None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA))
        return cls(
            (h, w),
            x0,
            y0,
            x1,
            y1,
            tuple((m >= 0.5).astype(np.uint8) for m in masks),
            grown(-cfg.centre_inset * radius).astype(bool),
        )

    def centre_ok(self, xy: np.ndarray) -> np.ndarray:
        h, w = self.shape
        xi = np.round(xy[:, 0]).astype(np.int64)
        yi = np.round(xy[:, 1]).astype(np.int64)
        inside = (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
        out = np.zeros(len(xy), bool)
        out[inside] = self.centre_mask[yi[inside], xi[inside]]
        return out
