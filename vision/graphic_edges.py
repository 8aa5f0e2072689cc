"""A side of the cloth's outline that is a graphic's edge, told from the image alone.

A broadcast's score bar is laid over the near cushion: the cloth's region then ends at the bar's top edge,
and the side fitted there is the bar's, not the cushion's. Across frames a graphic shows itself by staying
put while the picture changes (``vision.broadcast.StaticOverlay``), but a first calibration has one frame,
and a fixed camera never changes enough. One frame still tells the two apart: a score bar is wider than
the table's end, so its edge runs on, straight and as sharp, past the table's corners, where a cushion's
nose turns into a pocket and a rail. ``runs_past_the_corners`` reads the side's own step across its middle
and looks for the same step on its line beyond each corner, with the same colour outside it: the bar's
(a cushion's line carried past its corner may meet the end rail's edge, but not in the cushion's colour).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.table_lines import SideFit

ACROSS_PX = np.arange(-8.0, 9.0, 1.0)  # the profile read across a side, inward positive
MIDDLE = (0.2, 0.8)  # the stretch of a side its own step is read on (clear of the pockets)
MIDDLE_SAMPLES = 25
BEYOND = (0.06, 0.3)  # the stretch beyond each corner, in shares of the side's length (past the pocket)
BEYOND_STEP_PX = 3.0
MIN_BEYOND = 8  # samples beyond a corner, inside the image, for that corner to say anything
MIN_STEP = 3.0  # grey levels a pixel: a side's own step weaker than this is no edge to follow
SAME_PLACE_PX = 1.5  # the step beyond lies this near the side's own across the line ...
SAME_STRENGTH = 0.5  # ... and is at least this share of its strength
MARGIN_PX = 10  # samples this near the frame's edge are not read
OUTSIDE_PX = np.arange(-7.0, -2.0, 1.0)  # the strip outside the step whose colour is compared
SAME_COLOUR = 12.0  # Lab distance of the outside strip's median colours: one graphic's


def _sample(image: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Bilinear samples of ``image`` (H x W, or H x W x C) at points (..., 2), float32."""
    shape = pts.shape[:-1]
    flat = pts.reshape(-1, 1, 2).astype(np.float32)
    out = cv2.remap(image, flat[..., 0], flat[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(out.reshape(*shape, *image.shape[2:]), np.float32)


def _steps(gray: np.ndarray, along: np.ndarray, inward: np.ndarray) -> np.ndarray:
    """The profile's step between neighbouring samples across the side at each point (N, len - 1)."""
    pts = along[:, None, :] + ACROSS_PX[None, :, None] * inward[None, None, :]
    return np.diff(_sample(gray, pts), axis=1)


def _outside_colour(image: np.ndarray, along: np.ndarray, inward: np.ndarray, at: float) -> np.ndarray:
    """The median Lab colour (3,) of the strip just outside (away from the cloth) a step ``at`` px across
    the side (along ``inward``) at each point ``along``."""
    pts = along[:, None, :] + (at + OUTSIDE_PX)[None, :, None] * inward[None, None, :]
    bgr = _sample(image, pts).reshape(1, -1, 3) / 255.0
    lab = cv2.cvtColor(bgr.astype(np.float32), cv2.COLOR_BGR2LAB).reshape(-1, 3)
    return np.asarray(np.median(lab, axis=0))


def runs_past_the_corners(
    image: np.ndarray, gray: np.ndarray, side: SideFit, ends: tuple[np.ndarray, np.ndarray]
) -> float:
    """The share of the line beyond one of the side's corners (``ends``, full-image px; the better of the
    two) on which the side's own step edge goes on, at the same place across it, at least half as strong
    and with the same colour outside it: near 1 for a score bar's edge, near 0 for a cushion's. ``image``
    is the full image (BGR uint8), ``gray`` its grey levels (float32)."""
    a, b = (np.asarray(e, np.float64) for e in ends)
    length = float(np.linalg.norm(b - a))
    if not np.isfinite(length) or length < 1.0:
        return 0.0
    d = (b - a) / length
    middle = a + np.linspace(MIDDLE[0] * length, MIDDLE[1] * length, MIDDLE_SAMPLES)[:, None] * d
    own = np.median(_steps(gray, middle, side.inward), axis=0)
    k = int(np.argmax(np.abs(own)))
    strength = float(abs(own[k]))
    if strength < MIN_STEP:
        return 0.0
    h, w = gray.shape[:2]
    edge_at = float(ACROSS_PX[k]) + 0.5
    within = _outside_colour(image, middle, side.inward, edge_at)
    best = 0.0
    for start, sign in ((a, -1.0), (b, 1.0)):
        t = np.arange(BEYOND[0] * length, BEYOND[1] * length, BEYOND_STEP_PX)
        pts = start + sign * t[:, None] * d
        inside = (pts[:, 0] >= MARGIN_PX) & (pts[:, 0] < w - MARGIN_PX)
        inside &= (pts[:, 1] >= MARGIN_PX) & (pts[:, 1] < h - MARGIN_PX)
        if inside.sum() < MIN_BEYOND:
            continue
        steps = np.abs(_steps(gray, pts[inside], side.inward))
        at = np.argmax(steps, axis=1)
        same = (np.abs(at - k) <= SAME_PLACE_PX) & (steps[np.arange(len(at)), at] >= SAME_STRENGTH * strength)
        if not same.any():
            continue
        beyond = _outside_colour(image, pts[inside][same], side.inward, edge_at)
        if float(np.linalg.norm(beyond - within)) <= SAME_COLOUR:
            best = max(best, float(same.mean()))
    return best
