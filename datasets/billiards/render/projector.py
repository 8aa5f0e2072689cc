"""A projector's light over the whole picture (``look.Projector``): a colour cast that ramps across the frame
with a hot spot, falling on the cloth, the balls and an arm alike. Static, so its gains are made once per
renderer and each frame is multiplied by them before the sensor's noise."""

from __future__ import annotations

import math

import cv2
import numpy as np

from ..look import Projector


def projector_gains(projector: Projector | None, size: tuple[int, int]) -> np.ndarray | None:
    """Per-pixel BGR gains (H x W x 3, float32) of ``projector`` over an image of ``size`` (width, height);
    None without one."""
    if projector is None:
        return None
    w, h = size
    xs = (np.arange(w, dtype=np.float32) + 0.5) / w
    ys = (np.arange(h, dtype=np.float32) + 0.5) / h
    a = math.radians(projector.angle_deg)
    along = math.cos(a) * (xs[None, :] - 0.5) + math.sin(a) * (ys[:, None] - 0.5)
    span = 0.5 * (abs(math.cos(a)) + abs(math.sin(a)))  # the ramp runs 0..1 from one corner to the other
    t = np.clip(along / (2 * span) + 0.5, 0.0, 1.0)[..., None]
    start = np.array(projector.from_gain[::-1], np.float32)  # RGB -> BGR
    end = np.array(projector.to_gain[::-1], np.float32)
    gains = start + (end - start) * t
    sx, sy = projector.spot
    d2 = (xs[None, :] - sx) ** 2 + (ys[:, None] - sy) ** 2 * (h / w) ** 2
    spot = 1.0 + projector.spot_gain * np.exp(-d2 / (2 * projector.spot_sigma**2))
    out: np.ndarray = (gains * spot[..., None]).astype(np.float32)
    return out


def light_by_projector(img: np.ndarray, gains: np.ndarray | None) -> None:
    """``img`` (BGR uint8) lit by ``gains`` in place, clipped at white; nothing without gains."""
    if gains is None:
        return
    lit = cv2.multiply(img.astype(np.float32), gains)
    np.copyto(img, np.clip(lit + 0.5, 0, 255).astype(np.uint8))
