"""Contact shadows: a soft dark disc under each ball (and pin head), offset away from the light."""

from __future__ import annotations

import cv2
import numpy as np

from ..look import Look

SHADOW_SIZE = 1.05  # contact shadow radius, in ball radii, before blurring
SHADOW_MIN_BLUR_PX = 0.5


def shadow_blur(r_bin: np.ndarray | float, softness: float) -> np.ndarray:
    blur: np.ndarray = np.maximum(SHADOW_MIN_BLUR_PX, softness * np.asarray(r_bin, dtype=np.float64))
    return blur


def shadow_centre(r_bin: np.ndarray | float, softness: float) -> np.ndarray:
    """Centre index of a shadow sprite: the disc plus three blur sigmas."""
    centre: np.ndarray = np.ceil(
        np.asarray(r_bin, dtype=np.float64) * SHADOW_SIZE + 3 * shadow_blur(r_bin, softness)
    )
    return centre


def shadow_sprite(radius: float, softness: float) -> np.ndarray:
    """Soft disc of alpha for a ball's contact shadow."""
    blur = float(shadow_blur(radius, softness))
    size = 2 * int(shadow_centre(radius, softness)) + 1
    c = (size - 1) / 2
    a = np.zeros((size, size), np.float32)
    cv2.circle(a, (int(c), int(c)), round(radius * SHADOW_SIZE), 1.0, -1, cv2.LINE_AA)
    blurred: np.ndarray = cv2.GaussianBlur(a, (0, 0), blur)
    return blurred


class Shadows:
    """The shadow sprites of one look, per radius bin, stored as the factor of light they keep."""

    def __init__(self, look: Look) -> None:
        self.look = look
        self._sprites: dict[float, np.ndarray] = {}

    def blend(self, img: np.ndarray, box: list[int], mats: list[np.ndarray], r_bin: float, k: int) -> None:
        """Darken ``img`` under a ball's soft shadow (averaged over the sub-samples)."""
        x0, y0, x1, y1 = box
        if x1 <= x0 or y1 <= y0:
            return
        sprite = self._sprites.get(r_bin)
        if sprite is None:  # stored as the factor that keeps light: 1 - strength * coverage
            alpha = shadow_sprite(r_bin, self.look.shadow_softness)
            sprite = self._sprites[r_bin] = 1.0 - np.float32(self.look.shadow_strength) * alpha
        acc = np.zeros((y1 - y0, x1 - x0), np.float32)
        for m in mats:
            acc += cv2.warpAffine(
                sprite,
                m,
                (x1 - x0, y1 - y0),
                flags=cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_CONSTANT,
                borderValue=1.0,
            )
        if k > 1:
            acc *= 1.0 / k
        roi = img[y0:y1, x0:x1]
        cv2.multiply(roi, cv2.cvtColor(acc, cv2.COLOR_GRAY2BGR), dst=roi, dtype=cv2.CV_8U)
