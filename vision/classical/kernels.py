"""The array primitives the circle fits share: disk and ring kernels of a ball's radius, the colour
structure tensor, sector votes, sub-pixel peaks and non-maximum suppression.

The fits run on many small arrays per frame, so these are written for numpy's per-call overhead as much as
for its arithmetic (``bound`` instead of ``np.clip``, one gather instead of a loop over balls).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

SUM3 = np.ones((1, 3), np.float32)  # cv2.transform kernel: sum of the three channels
LUMA = np.array([0.114, 0.587, 0.299], np.float32)  # BGR -> luma (Rec. 601)
EPS = 1e-6
SECTORS = 8  # the circle's outline is checked in this many sectors
MAX_CUT_SECTORS = 2  # eighths of a ball's outline the frame's edge may cut and the ball still be judged
_LEVEL_SLACK = 0.85  # a pyramid level may bring the ball radius this far under its target
_CLOSING = 0.2  # radii: holes this small in a ball's foreground (a glint, a number) are filled
_RING_SAMPLES = 32  # points of the ring where only a few centres are voted on


def bound(a: np.ndarray, lo: float, hi: float | None) -> np.ndarray:
    """``np.clip`` without its per-call overhead (it dominates on the small arrays here); ``hi`` may be
    None for no upper bound."""
    a = np.maximum(a, lo)
    return a if hi is None else np.minimum(a, hi)


def disk_kernel(r: float) -> np.ndarray:
    """Normalised antialiased disk: correlation with it is the share of the disk that is foreground."""
    n = math.ceil(r) + 1
    yy, xx = np.mgrid[-n : n + 1, -n : n + 1].astype(np.float32)
    k = np.clip(r + 0.5 - np.hypot(xx, yy), 0.0, 1.0)
    disk: np.ndarray = (k / k.sum()).astype(np.float32)
    return disk


def ring_kernels(r: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A one-pixel ring of radius ``r`` weighted by 1, cos 2t and sin 2t (t: the ring's normal angle), each
    divided by twice the ring's weight: correlated with the structure-tensor maps (E, E cos 2p, E sin 2p)
    they sum to the mean over the ring of E cos^2(p - t), the edge strength along the circle's normal."""
    n = math.ceil(r) + 2
    yy, xx = np.mgrid[-n : n + 1, -n : n + 1].astype(np.float32)
    w = np.clip(1.0 - np.abs(np.hypot(xx, yy) - r), 0.0, None)
    t = np.arctan2(yy, xx)
    s = 2.0 * w.sum()
    k0, kc, ks = ((w * k / s).astype(np.float32) for k in (1.0, np.cos(2 * t), np.sin(2 * t)))
    return k0, kc, ks


def ellipse(r: float) -> np.ndarray:
    """A disk-shaped structuring element of radius ``r`` (at least one pixel)."""
    n = max(1, round(r))
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * n + 1, 2 * n + 1))


def disk_offsets(r: float) -> np.ndarray:
    """Integer pixel offsets (K, 2) within ``r`` of a centre: the pixels a ball's colour is read from."""
    n = math.ceil(r)
    yy, xx = np.mgrid[-n : n + 1, -n : n + 1]
    inside = xx * xx + yy * yy <= r * r
    return np.stack([xx[inside], yy[inside]], axis=1)


def ring_offsets(inner: float, outer: float) -> np.ndarray:
    """Integer pixel offsets (R, 2) farther than ``inner`` and within ``outer`` of a centre: a ball's rim,
    where a stripe turned away from the camera still shows."""
    n = math.ceil(outer)
    yy, xx = np.mgrid[-n : n + 1, -n : n + 1]
    d2 = xx * xx + yy * yy
    ring = (d2 > inner * inner) & (d2 <= outer * outer)
    return np.stack([xx[ring], yy[ring]], axis=1)


def halvings(radius: float, target: float) -> int:
    """How many halvings bring ``radius`` down to about ``target`` (at most 15 % below it)."""
    return max(0, math.floor(math.log2(radius / (_LEVEL_SLACK * target))))


def suppress(xy: np.ndarray, score: np.ndarray, distance: float) -> np.ndarray:
    """Indices (sorted) of the points kept by greedy non-maximum suppression: best first, none closer
    than ``distance`` to a kept one."""
    order = np.argsort(-score, kind="stable")
    close = ((xy[order, None, :] - xy[None, order, :]) ** 2).sum(axis=2) < distance * distance
    alive = np.ones(len(order), bool)
    for k in range(len(order)):
        if alive[k]:
            alive[k + 1 :] &= ~close[k, k + 1 :]
    return np.sort(order[alive])


def _peak_offset(a: float, b: float, c: float) -> float:
    """Where a parabola through three neighbouring values peaks, relative to the middle one (+-0.5)."""
    den = a - 2 * b + c
    return 0.0 if den >= 0 else float(np.clip(0.5 * (a - c) / den, -0.5, 0.5))


def subpixel(score: np.ndarray, x: int, y: int) -> tuple[float, float]:
    """Peak position refined by a parabola through the peak and its neighbours, per axis."""
    h, w = score.shape
    dx = _peak_offset(score[y, x - 1], score[y, x], score[y, x + 1]) if 0 < x < w - 1 else 0.0
    dy = _peak_offset(score[y - 1, x], score[y, x], score[y + 1, x]) if 0 < y < h - 1 else 0.0
    return x + dx, y + dy


def parabola(vote: np.ndarray, rows: np.ndarray, by: np.ndarray, bx: np.ndarray, axis: int) -> np.ndarray:
    """Sub-cell offset of each row's peak ``vote[rows, by, bx]`` along ``axis`` (1: y, 2: x) from a parabola
    through it and its two neighbours (0 at the grid's edge)."""
    n = vote.shape[axis]
    pos = by if axis == 1 else bx
    lo = bound(pos - 1, 0, n - 1)
    hi = bound(pos + 1, 0, n - 1)
    if axis == 1:
        a, b, c = vote[rows, lo, bx], vote[rows, by, bx], vote[rows, hi, bx]
    else:
        a, b, c = vote[rows, by, lo], vote[rows, by, bx], vote[rows, by, hi]
    den = a - 2 * b + c
    off = np.where(den < 0, 0.5 * (a - c) / np.where(den < 0, den, -1.0), 0.0)
    return np.where((pos > 0) & (pos < n - 1), bound(off, -0.5, 0.5), 0.0)


def edge_maps(image: np.ndarray) -> np.ndarray:
    """Structure-tensor maps (3 x H x W) of a colour image: compressed edge strength E = sqrt|grad| and
    E cos 2p, E sin 2p (p: the gradient's direction). Compressed so that the highlights' sharp rims and a
    cluster's outline do not drown the faint seams between touching balls."""
    gx = cv2.Sobel(image, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(image, cv2.CV_32F, 0, 1, ksize=3)
    jxx = cv2.transform(gx * gx, SUM3)
    jyy = cv2.transform(gy * gy, SUM3)
    jxy = cv2.transform(gx * gy, SUM3)
    energy = cv2.sqrt(jxx + jyy) + EPS
    strength = cv2.sqrt(energy)
    per = strength / (energy * energy)
    return np.stack([strength, (jxx - jyy) * per, 2 * jxy * per])


def outline(sectors: np.ndarray, seen: np.ndarray | None = None) -> np.ndarray:
    """The second weakest sector vote of each row (K, 8): one eighth of a ball's outline may be lost to a
    touching ball of its own colour, two may not. Sectors not ``seen`` (K, 8: beyond the frame's edge,
    ``seen_sectors``) do not count, as long as at most ``MAX_CUT_SECTORS`` are cut."""
    if not len(sectors):
        return np.zeros(0)
    if seen is None:
        return np.sort(sectors, axis=1)[:, 1]
    ordered = np.sort(np.where(seen, sectors, np.inf), axis=1)
    return np.where(seen.sum(axis=1) >= SECTORS - MAX_CUT_SECTORS, ordered[:, 1], 0.0)


def seen_sectors(centres: np.ndarray, kernels: Kernels, shape: tuple[int, ...]) -> np.ndarray:
    """(K, 8) bool: the eighths of the ring around each centre (K, 2, px of an image of ``shape``) that lie
    mostly inside that image. A ball against the frame's edge shows no outline beyond it."""
    ring = kernels.ring_pixels
    c = np.round(centres).astype(np.int64)
    out = np.ones((len(c), SECTORS), bool)
    reach = int(np.abs(ring.offsets).max()) + 1
    near = (
        (c[:, 0] < reach) | (c[:, 1] < reach) | (c[:, 0] >= shape[1] - reach) | (c[:, 1] >= shape[0] - reach)
    )
    if not near.any():
        return out
    x = c[near, 0, None] + ring.offsets[None, :, 0]
    y = c[near, 1, None] + ring.offsets[None, :, 1]
    inside = ((x >= 0) & (x < shape[1]) & (y >= 0) & (y < shape[0])).astype(np.float32)
    member = (ring.sector[:, None] == np.arange(SECTORS)[None, :]).astype(np.float32)  # (J, 8)
    counts = member.sum(axis=0)
    out[near] = (inside @ member >= 0.5 * counts) | (counts == 0)
    return out


@dataclass(frozen=True)
class RingPixels:
    """A ring kernel as a list of pixels, for voting at a few centres: offsets (J, 2), weights (3, J) and
    the sector (J,) of the circle each pixel lies in."""

    offsets: np.ndarray
    weights: np.ndarray
    sector: np.ndarray


@dataclass(frozen=True)
class Kernels:
    """Everything that depends on the ball radius at one pyramid level."""

    radius: float
    disk: np.ndarray  # normalised disk: correlation = share of the disk that is foreground
    ring: tuple[np.ndarray, np.ndarray, np.ndarray]  # radial-edge vote kernels (see ring_kernels)
    ring_pixels: RingPixels
    ring_points: tuple[np.ndarray, np.ndarray]  # a sparse ring: offsets (P, 2), weights (3, P)
    opening: np.ndarray
    closing: np.ndarray

    @classmethod
    def build(cls, radius: float, opening: float) -> Kernels:
        ring = ring_kernels(radius)
        k0, kc, ks = ring
        ring_y, ring_x = np.nonzero(k0)
        mid = k0.shape[0] // 2
        angle_px = np.arctan2(ring_y - mid, ring_x - mid)
        angle = 2 * np.pi * (np.arange(_RING_SAMPLES) + 0.5) / _RING_SAMPLES
        return cls(
            radius,
            disk_kernel(radius),
            ring,
            RingPixels(
                np.stack([ring_x - mid, ring_y - mid], axis=1),
                np.stack([k0[ring_y, ring_x], kc[ring_y, ring_x], ks[ring_y, ring_x]]).astype(np.float32),
                np.floor((angle_px + np.pi) / (2 * np.pi) * SECTORS).astype(np.int64) % SECTORS,
            ),
            (
                np.round(radius * np.stack([np.cos(angle), np.sin(angle)], axis=1)).astype(np.int64),
                (
                    np.stack([np.ones_like(angle), np.cos(2 * angle), np.sin(2 * angle)])
                    / (2 * _RING_SAMPLES)
                ).astype(np.float32),
            ),
            ellipse(opening * radius),
            ellipse(_CLOSING * radius),
        )


def sector_votes(
    maps: np.ndarray, centres: np.ndarray, which: np.ndarray, kernels: Kernels, edge_scale: float
) -> np.ndarray:
    """Radial-edge vote (K, 8) in each eighth of the circle around integer ``centres`` (K, 2) of the
    patches ``which`` (K,) of ``maps`` (3 x N x S x S): where around the ball its outline shows. Each
    sector's vote is scaled to the whole ring, so it reads like the full vote."""
    _n, h, w = maps.shape[1:]
    ring = kernels.ring_pixels
    offsets, weights = ring.offsets, ring.weights
    c = np.round(centres).astype(np.int64)
    px = bound(c[:, 0, None] + offsets[None, :, 0], 0, w - 1)
    py = bound(c[:, 1, None] + offsets[None, :, 1], 0, h - 1)
    at = (which[:, None] * h + py) * w + px
    flat = maps.reshape(3, -1)
    vote = flat[0, at] * weights[0] + flat[1, at] * weights[1] + flat[2, at] * weights[2]  # K x J
    out = np.zeros((len(c), SECTORS))
    total = weights[0].sum()
    for k in range(SECTORS):
        sel = ring.sector == k
        out[:, k] = vote[:, sel].sum(axis=1) * (total / max(weights[0, sel].sum(), EPS))
    return out * edge_scale
