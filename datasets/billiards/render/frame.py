"""What a rendered frame is: the image and, for every ball and pin drawn, its truth and how much shows."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from .draw import XY

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Stroke:
    """The cue's strike that starts the shot, so the stick can be drawn before it and withdraw after it."""

    t: float  # strike time, seconds from the start of the clip
    xy_mm: XY  # cue ball centre at the strike
    aim_rad: float  # direction the cue ball is sent, from +x counter-clockwise (table frame)


@dataclass(frozen=True)
class RenderedObject:
    """Ground truth for one drawn ball or pin in one frame."""

    id: str
    cls: str  # appearance class (arbiter.balls.BallLook.cls) or "pin_standing" / "pin_down"
    xy_px: XY  # balls: projection of the centre (z = radius) at the middle sample; pins: see render()
    radius_px: float
    box_px: Box  # x0, y0, x1, y1 clipped to the image
    hidden: bool  # an occluder covers the centre or more than half of the disk
    visible_fraction: float  # share of the disk inside the image and not under an occluder


@dataclass(frozen=True)
class RenderedFrame:
    t: float  # truth time: the middle exposure sample
    image: np.ndarray  # H x W x 3 BGR uint8
    objects: tuple[RenderedObject, ...]


def exposure_times(t: float, fps: float, exposure: float, k: int) -> tuple[float, ...]:
    """Times of ``k`` samples spread over a shutter open for ``exposure`` of the frame interval, centred on
    ``t`` (midpoints of k equal slices: a box filter). Use odd ``k`` so the middle sample is at ``t``."""
    if k < 1 or fps <= 0 or not 0 < exposure <= 1:
        raise ValueError(
            f"need k >= 1, fps > 0 and 0 < exposure <= 1; got k={k}, fps={fps}, exposure={exposure}"
        )
    span = exposure / fps
    return tuple(t + ((i + 0.5) / k - 0.5) * span for i in range(k))


def jpeg_roundtrip(image: np.ndarray, quality: int) -> np.ndarray:
    """The image after JPEG encoding at ``quality`` (1..100) and decoding: exported stills' artefacts."""
    if not 1 <= quality <= 100:
        raise ValueError(f"JPEG quality must be 1..100, got {quality}")
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise ValueError("OpenCV could not encode the image as JPEG")
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    if decoded is None:
        raise ValueError("OpenCV could not decode its own JPEG")
    return decoded


def object_record(
    oid: str,
    cls: str,
    xy: Sequence[float],
    radius: float,
    half: Sequence[float],
    occ_mask: np.ndarray | None,
    size: tuple[int, int],
) -> RenderedObject:
    """The truth of an object drawn at ``xy`` with ``radius`` and half extents ``half`` (px) in an image of
    ``size`` (width, height) whose occluders cover ``occ_mask``."""
    w_img, h_img = size
    cx, cy = float(xy[0]), float(xy[1])
    hx, hy = float(half[0]), float(half[1])
    box = (
        min(max(cx - hx, 0.0), w_img),
        min(max(cy - hy, 0.0), h_img),
        min(max(cx + hx, 0.0), w_img),
        min(max(cy + hy, 0.0), h_img),
    )
    if (
        occ_mask is None
        and cx - radius >= 0
        and cy - radius >= 0
        and cx + radius < w_img
        and cy + radius < h_img
    ):
        return RenderedObject(oid, cls, (cx, cy), float(radius), box, False, 1.0)
    visible, hidden = visibility(cx, cy, radius, occ_mask, size)
    return RenderedObject(oid, cls, (cx, cy), float(radius), box, hidden, visible)


def visibility(
    cx: float, cy: float, r: float, occ_mask: np.ndarray | None, size: tuple[int, int]
) -> tuple[float, bool]:
    """Share of the disk in the frame and not occluded; hidden if the centre or half of it is covered."""
    w_img, h_img = size
    x0, x1 = math.floor(cx - r), math.ceil(cx + r) + 1
    y0, y1 = math.floor(cy - r), math.ceil(cy + r) + 1
    yy, xx = np.mgrid[y0:y1, x0:x1]
    disk = (xx - cx) ** 2 + (yy - cy) ** 2 <= r * r
    total = int(disk.sum())
    if total == 0:
        return 0.0, True
    inframe = disk & (xx >= 0) & (xx < w_img) & (yy >= 0) & (yy < h_img)
    covered = np.zeros_like(disk)
    centre_hidden = False
    if occ_mask is not None:
        cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, w_img), min(y1, h_img)
        if cx1 > cx0 and cy1 > cy0:
            covered[cy0 - y0 : cy1 - y0, cx0 - x0 : cx1 - x0] = occ_mask[cy0:cy1, cx0:cx1] > 0
        ix, iy = round(cx), round(cy)
        centre_hidden = 0 <= ix < w_img and 0 <= iy < h_img and bool(occ_mask[iy, ix])
    occluded = int((disk & covered).sum())
    visible = int((inframe & ~covered).sum()) / total
    hidden = centre_hidden or occluded > total / 2 or visible == 0.0
    return visible, hidden
