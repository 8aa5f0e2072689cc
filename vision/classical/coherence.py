"""Outline coherence: how much of the edge energy on a circle runs along it, as a ball's rim does.

A ball's silhouette is a circle, so on a ring of its radius the colour edges are radial: the gradient points
along the ring's normal all round, whatever the ball's colour or the light (a blurred ball and an
over-exposed white one alike). The things that pass for balls elsewhere have edges in every direction on
that ring: a pocket's net, the squares of a printed marker or a checkerboard, the letters of a score bar,
the folds of a sleeve. The measure is the share of the ring's (compressed) edge energy that lies along the
normal: 1 for a perfect circle, 0.5 for edges in random directions.
"""

from __future__ import annotations

import math

import numpy as np

from .kernels import EPS, bound, edge_maps
from .levels import Scene


def ring_coherence(scene: Scene, xy: np.ndarray, radius: np.ndarray) -> np.ndarray:
    """Coherence (N,) of the circles at fine-level points ``xy`` (N, 2) with fine-level ``radius`` (N,):
    each is read on the ring of the fine sizes (``Pyramid.fine_sizes``) nearest its radius."""
    if len(xy) == 0:
        return np.zeros(0)
    sizes = scene.pyramid.fine_sizes
    half = max(math.ceil(k.radius) for k in sizes) + 3
    fine = scene.fine
    hf, wf = fine.shape[:2]
    base = np.round(xy).astype(np.int64)
    ar = np.arange(-half, half + 1)
    xs = bound(base[:, 0, None] + ar[None, :], 0, wf - 1)
    ys = bound(base[:, 1, None] + ar[None, :], 0, hf - 1)
    size = 2 * half + 1
    patch = fine[ys[:, :, None], xs[:, None, :]].astype(np.float32)  # N x S x S x 3
    maps = edge_maps(patch.reshape(-1, size, 3)).reshape(3, len(xy), size, size)
    nearest = np.abs(radius[:, None] - np.array([k.radius for k in sizes])[None, :]).argmin(axis=1)
    out = np.zeros(len(xy))
    flat = maps.reshape(3, -1)
    for index, kernels in enumerate(sizes):
        rows = np.nonzero(nearest == index)[0]
        if len(rows) == 0:
            continue
        ring = kernels.ring_pixels
        at = (rows[:, None] * size + half + ring.offsets[None, :, 1]) * size + half + ring.offsets[None, :, 0]
        # Beyond the frame's edge the patch repeats its last pixels: those are not the ball's rim.
        x = base[rows, 0, None] + ring.offsets[None, :, 0]
        y = base[rows, 1, None] + ring.offsets[None, :, 1]
        seen = ((x >= 0) & (x < wf) & (y >= 0) & (y < hf)).astype(np.float32)
        w0, wc, ws = ring.weights
        radial = (flat[0, at] * seen) @ w0 + (flat[1, at] * seen) @ wc + (flat[2, at] * seen) @ ws
        energy = 2.0 * ((flat[0, at] * seen) @ w0)
        out[rows] = radial / np.maximum(energy, EPS)
    return out
