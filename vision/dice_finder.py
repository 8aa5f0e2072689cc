"""The die finder's input and output: a frame scaled down for the network, and its heatmap turned into boxes.

The finder (``models/dice_finder.onnx``, trained by ``evaluation.dice_finder``) is a one-class centre-heatmap
network in the manner of CenterNet: for every cell of a grid ``STRIDE`` input pixels apart it gives the
chance that a die's centre lies there, the die's log width and height in input pixels and the centre's
offset inside the cell. Peaks of the heatmap are dice, so two touching dice are two peaks: there are no
anchor boxes competing for them.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

STRIDE = 4  # input pixels per heatmap cell
PAD = 64  # the network's input sides are multiples of this (its coarsest level)
CHANNELS = 5  # heatmap logit, log w, log h, offset x, offset y


def finder_input(image: np.ndarray, long_side: int) -> tuple[np.ndarray, float]:
    """``image`` (BGR) scaled so its long side is ``long_side``, padded right and bottom to multiples of
    ``PAD``: (1, 3, H, W) float32 in 0..1, and the scale from frame to input pixels."""
    h, w = image.shape[:2]
    scale = long_side / max(h, w)
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    small = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_AREA)
    H, W = -(-nh // PAD) * PAD, -(-nw // PAD) * PAD
    if (nh, nw) != (H, W):
        small = cv2.copyMakeBorder(small, 0, H - nh, 0, W - nw, cv2.BORDER_REPLICATE)
    return small.astype(np.float32).transpose(2, 0, 1)[None] / 255.0, scale


def peaks(out: np.ndarray, min_score: float, max_dice: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Cells that are the highest of their 3x3 neighbourhood and score at least ``min_score``, best first:
    rows, columns and scores."""
    heat = 1.0 / (1.0 + np.exp(-out[0, 0]))
    top = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= min_score)
    ys, xs = np.nonzero(top)
    scores = heat[ys, xs]
    order = np.argsort(-scores, kind="stable")[:max_dice]
    return ys[order], xs[order], scores[order]


def decode(
    out: np.ndarray, scale: float, size: tuple[int, int], min_score: float = 0.05, max_dice: int = 100
) -> tuple[np.ndarray, np.ndarray]:
    """The finder's output (1, 5, h, w) -> boxes (N, 4) in frame pixels, clipped to the frame of ``size``
    (width, height), and their scores, best first; boxes of one die merged by ``nms``."""
    ys, xs, scores = peaks(out, min_score, max_dice)
    w = np.exp(np.clip(out[0, 1, ys, xs], -2, 8))
    h = np.exp(np.clip(out[0, 2, ys, xs], -2, 8))
    cx = (xs + out[0, 3, ys, xs]) * STRIDE
    cy = (ys + out[0, 4, ys, xs]) * STRIDE
    boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], 1).astype(np.float64) / scale
    boxes[:, [0, 2]] = boxes[:, [0, 2]].clip(0, size[0])
    boxes[:, [1, 3]] = boxes[:, [1, 3]].clip(0, size[1])
    keep = nms(boxes, scores, 0.5)
    return boxes[keep], scores[keep]


def iou_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Intersection over union of every box of ``a`` (N, 4) with every box of ``b`` (M, 4)."""
    ix = np.clip(np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0]), 0, None)
    iy = np.clip(np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1]), 0, None)
    inter = ix * iy
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    return np.asarray(inter / np.maximum(area_a[:, None] + area_b[None, :] - inter, 1e-9))


def nms(boxes: np.ndarray, scores: np.ndarray, iou: float) -> np.ndarray:
    """Indices of the boxes kept, best first: each box that overlaps a better kept one more than ``iou`` is
    the same die (dice never overlap much, even seen obliquely)."""
    order = np.argsort(-scores, kind="stable")
    overlap = iou_matrix(boxes[order], boxes[order]) if len(order) else np.zeros((0, 0))
    keep: list[int] = []
    for k in range(len(order)):
        if all(overlap[k, j] <= iou for j in keep):
            keep.append(k)
    return np.asarray(order[np.array(keep, dtype=int)])


def find_at(
    session: Any, image: np.ndarray, long_side: int, min_score: float
) -> tuple[np.ndarray, np.ndarray]:
    """One look of the finder (an ONNX Runtime session of it) at ``image`` scaled to ``long_side``: boxes
    (N, 4) in image pixels and their scores, best first."""
    h, w = image.shape[:2]
    x, scale = finder_input(image, long_side)
    return decode(session.run(None, {"image": x})[0], scale, (w, h), min_score)
