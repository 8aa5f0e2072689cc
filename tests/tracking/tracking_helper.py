"""Detections for the tracker's tests, built from (look class, x mm, y mm[, confidence]) per ball."""

from __future__ import annotations

import numpy as np

from vision.types import Detections


def dets(*balls: tuple[float, ...]) -> Detections:
    """(look class, x mm, y mm[, confidence, 1 where left out]) per ball."""
    n = len(balls)
    return Detections(
        np.zeros((n, 2)),
        np.ones(n),
        np.array([b[0] for b in balls], dtype=np.int64),
        np.array([b[3] if len(b) > 3 else 1.0 for b in balls]),
        np.array([[b[1], b[2]] for b in balls]).reshape(n, 2),
    )
