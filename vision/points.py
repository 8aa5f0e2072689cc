"""Distances between sets of image or table points, shared by the detectors and the tracker."""

from __future__ import annotations

import numpy as np


def nearest_distance(xy: np.ndarray, places: np.ndarray, itself: bool = False) -> np.ndarray:
    """The distance from each point (N x 2) to the nearest of ``places`` (M x 2; inf when there are none).
    ``itself``: the places are the points, and none is its own nearest."""
    if not len(xy) or not len(places):
        return np.full(len(xy), np.inf)
    apart = np.linalg.norm(xy[:, None, :] - places[None, :, :], axis=2)
    if itself:
        np.fill_diagonal(apart, np.inf)
    return np.asarray(apart.min(axis=1))
