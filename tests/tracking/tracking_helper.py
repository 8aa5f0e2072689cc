"""Detections for the tracker's tests, built from (look class, x mm, y mm) per ball."""

from __future__ import annotations

import numpy as np

from vision.types import Detections


def dets(*balls: tuple[int, float, float]) -> Detections:
    n = len(balls)
    return Detections(
        np.zeros((n, 2)),
        np.ones(n),
        np.array([b[0] for b in balls], dtype=np.int64),
        np.ones(n),
        np.array([[b[1], b[2]] for b in balls]).reshape(n, 2),
    )
