"""Square crops of dice from the full-resolution frame: what the face reader looks at.

The finder works on a small copy of the frame; reading pips needs the frame itself. A crop is a square of
``MARGIN`` times the die box's long side round the box's centre (the die's sides stay in view: in an oblique
view the top face is the one farther up the picture), sampled into ``CROP`` x ``CROP`` pixels.

Training (``evaluation.dice_faces``) and run time share ``square_transform`` and ``warp_crop``, so a crop
the network learnt from and one it reads are made the same way, rotation and perspective included.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

CROP = 40  # side of the face reader's input, pixels
MARGIN = 1.2  # crop side = MARGIN x the long side of the die's box
AREA_SHRINK = 1.5  # above this many frame pixels per crop pixel, shrink by area averaging first

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in frame pixels


def square_transform(
    cx: float,
    cy: float,
    side: float,
    out: int = CROP,
    angle_deg: float = 0.0,
    persp: tuple[float, float] = (0.0, 0.0),
) -> np.ndarray:
    """The homography from crop pixels (0..out) to frame pixels for a square of ``side`` centred on
    (cx, cy), turned by ``angle_deg``, with an optional small perspective term (training only)."""
    s = side / out
    a = np.deg2rad(angle_deg)
    c, si = np.cos(a) * s, np.sin(a) * s
    h = out / 2.0
    to_centre = np.array([[1, 0, -h], [0, 1, -h], [0, 0, 1]], np.float64)
    tilt = np.array([[1, 0, 0], [0, 1, 0], [persp[0] / out, persp[1] / out, 1]], np.float64)
    place = np.array([[c, -si, cx], [si, c, cy], [0, 0, 1]], np.float64)
    return place @ tilt @ to_centre


def warp_crop(image: np.ndarray, m: np.ndarray, out: int, scale: float) -> np.ndarray:
    """``image`` sampled through ``m`` (crop -> frame) into an ``out`` square. Where a crop pixel spans more
    than ``AREA_SHRINK`` frame pixels, the region is first shrunk by area averaging: plain bilinear sampling
    of a big die aliases its pips and the frame's noise into patterns the reader mistakes for pips."""
    if scale > AREA_SHRINK:
        f = float(np.floor(scale))
        corners = np.array([[0, 0, 1], [out, 0, 1], [0, out, 1], [out, out, 1]], np.float64) @ m.T
        corners = corners[:, :2] / corners[:, 2:]
        h, w = image.shape[:2]
        x0, y0 = np.clip(np.floor(corners.min(0)) - 2 * f, 0, [w - 1, h - 1]).astype(int)
        x1, y1 = np.clip(np.ceil(corners.max(0)) + 2 * f, [x0 + 1, y0 + 1], [w, h]).astype(int)
        nw, nh = max(1, round((x1 - x0) / f)), max(1, round((y1 - y0) / f))
        image = cv2.resize(image[y0:y1, x0:x1], (nw, nh), interpolation=cv2.INTER_AREA)
        sx, sy = nw / (x1 - x0), nh / (y1 - y0)
        m = np.array([[sx, 0, -x0 * sx], [0, sy, -y0 * sy], [0, 0, 1]], np.float64) @ m
    return cv2.warpPerspective(
        image, m, (out, out), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE
    )


def crop_side(box: Box, margin: float = MARGIN) -> float:
    x0, y0, x1, y1 = box
    return margin * max(x1 - x0, y1 - y0)


def crop_square(image: np.ndarray, box: Box, out: int = CROP, margin: float = MARGIN) -> np.ndarray:
    """The die in ``box`` as an ``out`` x ``out`` crop (BGR uint8)."""
    x0, y0, x1, y1 = box
    side = crop_side(box, margin)
    m = square_transform((x0 + x1) / 2, (y0 + y1) / 2, side, out)
    return warp_crop(image, m, out, side / out)


def crop_batch(image: np.ndarray, boxes: Sequence[Box] | np.ndarray, out: int = CROP) -> np.ndarray:
    """Crops of every box as the network's input: (N, 3, out, out) float32, BGR scaled to 0..1."""
    if len(boxes) == 0:
        return np.zeros((0, 3, out, out), np.float32)
    crops = np.stack(
        [crop_square(image, (float(b[0]), float(b[1]), float(b[2]), float(b[3])), out) for b in boxes]
    )
    return np.ascontiguousarray(crops.astype(np.float32).transpose(0, 3, 1, 2) / 255.0)


# The face reader also says where the die lies in its crop: offsets of the box's centre from the crop's
# centre and the box's log size, both in units of the crop's side (``box_target`` / ``box_from``).


def box_target(crop_box: Box, die: Box, margin: float = MARGIN) -> np.ndarray:
    """What the reader learns for ``die`` seen in the crop made for ``crop_box``: (dx, dy, log w, log h)."""
    side = crop_side(crop_box, margin)
    cx, cy = (crop_box[0] + crop_box[2]) / 2, (crop_box[1] + crop_box[3]) / 2
    x0, y0, x1, y1 = die
    return np.array(
        [((x0 + x1) / 2 - cx) / side, ((y0 + y1) / 2 - cy) / side, np.log((x1 - x0) / side),
         np.log((y1 - y0) / side)],
        np.float32,
    )  # fmt: skip


def box_from(crop_box: Box, t: Sequence[float], margin: float = MARGIN) -> Box:
    """The die's box in the frame from the reader's (dx, dy, log w, log h) for the crop of ``crop_box``."""
    side = crop_side(crop_box, margin)
    cx = (crop_box[0] + crop_box[2]) / 2 + float(t[0]) * side
    cy = (crop_box[1] + crop_box[3]) / 2 + float(t[1]) * side
    w, h = float(np.exp(np.clip(t[2], -4, 1))) * side, float(np.exp(np.clip(t[3], -4, 1))) * side
    return cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2
