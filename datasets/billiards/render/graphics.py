"""What a broadcast lays over the picture after the camera: a score bar (``look.ScoreBar``). Static, so its
mask is made once per renderer; the balls under it are hidden in the truth like those under an arm."""

from __future__ import annotations

import cv2
import numpy as np

from ..look import ScoreBar
from .draw import bgr


def _box_px(bar: ScoreBar, size: tuple[int, int]) -> tuple[int, int, int, int]:
    w, h = size
    x0, y0, x1, y1 = bar.box
    return round(x0 * w), round(y0 * h), round(x1 * w), round(y1 * h)


def score_bar_mask(bar: ScoreBar | None, size: tuple[int, int]) -> np.ndarray | None:
    """Where the bar covers an image of ``size`` (width, height): 255, else 0; None without a bar."""
    if bar is None:
        return None
    x0, y0, x1, y1 = _box_px(bar, size)
    mask = np.zeros((size[1], size[0]), np.uint8)
    mask[max(y0, 0) : max(y1, 0), max(x0, 0) : max(x1, 0)] = 255
    return mask


def draw_score_bar(img: np.ndarray, bar: ScoreBar | None) -> None:
    """The bar, blended at its opacity, and its text in white or black, whichever stands out."""
    if bar is None:
        return
    h, w = img.shape[:2]
    x0, y0, x1, y1 = _box_px(bar, (w, h))
    roi = img[y0:y1, x0:x1]
    colour = bgr(bar.rgb)
    roi[:] = np.clip((1 - bar.opacity) * roi + bar.opacity * colour, 0, 255).astype(np.uint8)
    ink = (0, 0, 0) if sum(bar.rgb) > 3 * 150 else (255, 255, 255)
    scale = 0.7 * (y1 - y0) / 30.0
    cv2.putText(
        img, bar.text, (x0 + 8, y1 - (y1 - y0) // 4), cv2.FONT_HERSHEY_SIMPLEX, scale, ink, 2, cv2.LINE_AA
    )
