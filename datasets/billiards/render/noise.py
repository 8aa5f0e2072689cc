"""Sensor noise: a pre-drawn gaussian field that every frame views from its own offsets (cheap, and still a
deterministic function of the seed and the frame's time)."""

from __future__ import annotations

import math
import struct
import zlib

import cv2
import numpy as np

from .draw import stable_hash

NOISE_PAD = 64  # rows of noise beyond one frame; each frame views the field from its own offset
NOISE_ALIGN = 64  # offsets in bytes are multiples of this: aligned, vectorised adds


class SensorNoise:
    """The positive half of a gaussian noise field, flat and a few rows longer than a frame. A frame adds
    it at one offset and subtracts it at another: two contiguous saturating passes, symmetric zero-mean
    noise with standard deviation ``sigma`` (the scale undoes the halving)."""

    def __init__(self, width: int, height: int, sigma: float, seed: int) -> None:
        self.width, self.seed = width, seed
        self._field: np.ndarray | None = None
        if sigma > 0:
            rng = np.random.default_rng([seed, stable_hash("noise")])
            size = (height + NOISE_PAD) * width * 3
            scale = np.float32(sigma / math.sqrt(1.0 - 1.0 / math.pi))  # var(X+ - Y+) = (1 - 1/pi) var(X)
            n = np.rint(rng.standard_normal(size, dtype=np.float32) * scale)
            self._field = np.clip(n, 0, 255).astype(np.uint8)

    def add(self, img: np.ndarray, t: float) -> None:
        """Add the noise of the frame at time ``t`` to ``img`` in place."""
        if self._field is None:
            return
        h = zlib.crc32(struct.pack("<qd", self.seed, t))
        slots = NOISE_PAD * self.width * 3 // NOISE_ALIGN
        up, down = (h % slots) * NOISE_ALIGN, ((h // slots) % slots) * NOISE_ALIGN
        if up == down:
            down = (down + NOISE_ALIGN * (slots // 2)) % (slots * NOISE_ALIGN)
        n = img.size
        cv2.add(img, self._field[up : up + n].reshape(img.shape), dst=img)
        cv2.subtract(img, self._field[down : down + n].reshape(img.shape), dst=img)
