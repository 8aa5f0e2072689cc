"""Drawing primitives shared by the renderer's parts: colours, outlines in mm, sub-pixel OpenCV fills."""

from __future__ import annotations

import math
import zlib
from collections.abc import Sequence

import cv2
import numpy as np

XY = tuple[float, float]
RGB = tuple[int, int, int]
PIXEL_SHIFT = 4  # fractional bits of OpenCV drawing coordinates (1/16 px)


def bgr(rgb: tuple[int, int, int]) -> np.ndarray:
    return np.array(rgb[::-1], dtype=np.float32)


def gain_at(gain: np.ndarray, x: float, y: float) -> float:
    """The light at a pixel (clamped into the frame): what a ball or occluder there is lit by."""
    h, w = gain.shape
    return float(gain[min(max(int(y), 0), h - 1), min(max(int(x), 0), w - 1)])


def stable_hash(*parts: object) -> int:
    """A process-independent hash (Python's ``hash`` of str is salted per process)."""
    return zlib.crc32(repr(parts).encode())


def circle(c: XY | np.ndarray, r: float, n: int = 48) -> np.ndarray:
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return np.stack([c[0] + r * np.cos(a), c[1] + r * np.sin(a)], axis=1)


def rect(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float64)


def rounded_rect(x0: float, y0: float, x1: float, y1: float, r: float, n: int = 8) -> np.ndarray:
    pts = []
    for cx, cy, a0 in (
        (x1 - r, y0 + r, -90),
        (x1 - r, y1 - r, 0),
        (x0 + r, y1 - r, 90),
        (x0 + r, y0 + r, 180),
    ):
        for a in np.radians(np.linspace(a0, a0 + 90, n)):
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return np.array(pts)


def fixed(pts_px: np.ndarray) -> np.ndarray:
    """Pixel coordinates as OpenCV's fixed-point drawing coordinates (PIXEL_SHIFT fractional bits)."""
    return np.round(np.asarray(pts_px) * (1 << PIXEL_SHIFT)).astype(np.int32)


def fill(img: np.ndarray, polys_px: Sequence[np.ndarray], colour: np.ndarray | Sequence[float]) -> None:
    """Antialiased constant-colour polygons, drawn by OpenCV in place (sub-pixel vertices)."""
    pts = [fixed(p) for p in polys_px]
    cv2.fillPoly(img, pts, tuple(float(c) for c in colour), cv2.LINE_AA, PIXEL_SHIFT)


def blend_mask(img: np.ndarray, mask: np.ndarray, colour: np.ndarray, strength: float) -> None:
    """Blend ``colour`` into uint8 ``img`` by ``mask`` (uint8 coverage) x ``strength``, only where drawn."""
    ys, xs = np.nonzero(mask.any(axis=1))[0], np.nonzero(mask.any(axis=0))[0]
    if len(ys) == 0:
        return
    y0, y1, x0, x1 = ys[0], ys[-1] + 1, xs[0], xs[-1] + 1
    a = mask[y0:y1, x0:x1].astype(np.float32)[..., None] * (strength / 255.0)
    roi = img[y0:y1, x0:x1]
    roi[...] = np.clip(roi + a * (colour - roi), 0, 255).astype(np.uint8)


def stroke_mask(mask: np.ndarray, lines_px: Sequence[np.ndarray], width_px: float) -> None:
    pts = [fixed(p) for p in lines_px]
    cv2.polylines(mask, pts, False, 255, max(1, round(width_px)), cv2.LINE_AA, PIXEL_SHIFT)


def smooth_noise(
    rng: np.random.Generator, shape: tuple[int, int], cell: int, blur: tuple[float, float]
) -> np.ndarray:
    """About unit-variance noise with features ``cell`` texture pixels wide, optionally streaked by a
    blur (sigma x, y in cells). Drawn small and upsampled: cheap at any texture size."""
    h, w = shape
    small: np.ndarray = rng.standard_normal((max(2, h // cell + 2), max(2, w // cell + 2))).astype(np.float32)
    if blur != (0.0, 0.0):
        small = cv2.GaussianBlur(small, (0, 0), sigmaX=max(blur[0], 0.1), sigmaY=max(blur[1], 0.1))
    small /= float(small.std()) or 1.0
    big: np.ndarray = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    return big
