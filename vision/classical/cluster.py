"""Circle fits inside a blob of touching balls: a rack, two balls frozen together, a ball against the cue.

Two votes that complement each other find the balls: *coverage*, the share of a disk that is foreground (it
locates balls but is flat inside a rack), and the *radial-edge* vote (every ball keeps its outline and the
shading of its rim, even inside a rack). Edge strength is compressed (square root) so that the faint seams
between touching balls count next to the highlights' sharp rims; an opening first erases what is thinner
than a ball (the cue, chalk lines). Peaks of their product, apart by at least ``min_separation``, are the
circles.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.cloth import classify

from .candidates import Candidates
from .kernels import SUM3, Kernels, bound, edge_maps, outline, sector_votes, subpixel, suppress
from .levels import Scene

_CLUSTER_PAD = 1.5  # radii of context around a cluster's blob
_BOX3 = np.ones((3, 3), np.uint8)


@dataclass(frozen=True)
class _Window:
    """Where a cluster is searched in its level: aligned to whole coarse pixels, so the coarse cloth field
    upsamples onto it exactly."""

    x0: int
    y0: int
    x1: int
    y1: int
    q: int  # level pixels per coarse pixel


def fit_cluster(scene: Scene, index: int, k: Kernels, box: tuple[int, int, int, int]) -> Candidates:
    """Circles of the ball radius in one coarse blob bigger than a ball (``box``: x, y, w, h in coarse
    pixels), searched in pyramid level ``index`` with its kernels ``k``: coverage times radial edge votes,
    then non-maximum suppression. Returns fine-level coordinates."""
    cfg = scene.config
    level = scene.levels[index]
    win = _window(scene, index, k, box)
    patch = level[win.y0 : win.y1, win.x0 : win.x1].astype(np.float32)
    fgm = _foreground(scene, index, k, win, patch)
    coverage = cv2.filter2D(fgm.astype(np.float32), -1, k.disk, borderType=cv2.BORDER_CONSTANT)
    maps = edge_maps(patch)
    edge: np.ndarray = cv2.filter2D(maps[0], -1, k.ring[0], borderType=cv2.BORDER_CONSTANT)
    edge += cv2.filter2D(maps[1], -1, k.ring[1], borderType=cv2.BORDER_CONSTANT)
    edge += cv2.filter2D(maps[2], -1, k.ring[2], borderType=cv2.BORDER_CONSTANT)
    edge *= scene.edge_scale
    score = coverage * bound(edge, 0, None)
    ys, xs = _peaks(scene, index, win, coverage, edge, score)
    if len(ys) == 0:
        return Candidates.empty()
    kept = suppress(
        np.stack([xs, ys], axis=1).astype(np.float64), score[ys, xs], cfg.min_separation * k.radius
    )
    ci, cj = ys[kept], xs[kept]
    sectors = sector_votes(
        maps[:, None], np.stack([cj, ci], axis=1), np.zeros(len(ci), np.int64), k, scene.edge_scale
    )
    origin = np.array([win.x0, win.y0], np.float64)
    xy = np.array([subpixel(score, int(px), int(py)) for px, py in zip(cj, ci, strict=True)]) + origin
    n = len(kept)
    fine = scene.pyramid.fine
    return Candidates(
        (xy + 0.5) / 2 ** (fine - index) - 0.5,
        coverage[ci, cj].astype(np.float64),
        edge[ci, cj].astype(np.float64),
        outline(sectors),
        np.ones(n, bool),
        np.zeros(n, bool),
        np.full(n, k.radius * 2 ** (index - fine)),
        np.zeros(n, bool),
    )


def _peaks(
    scene: Scene, index: int, win: _Window, coverage: np.ndarray, edge: np.ndarray, score: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Rows and columns of the window's local maxima of ``score`` that are covered and outlined enough: in a
    pocket's jaws (``Geometry.in_jaws``) a ball's outline against the mouth's black is faint, and a weaker
    edge vote is looked at there (``min_jaw_edge``)."""
    cfg, geo = scene.config, scene.geo
    weakest = min(cfg.min_edge, cfg.min_jaw_edge) if len(geo.jaws) else cfg.min_edge
    peaks = (score >= cv2.dilate(score, _BOX3)) & (coverage >= cfg.min_cluster_coverage) & (edge >= weakest)
    ys, xs = np.nonzero(peaks)
    weak = edge[ys, xs] < cfg.min_edge
    if weak.any():
        at = np.stack([xs[weak] + win.x0, ys[weak] + win.y0], axis=1).astype(np.float64)
        full = 2**index * (at + 0.5) - 0.5 + np.array([geo.x0, geo.y0], np.float64)
        weak[weak] = ~geo.in_jaws(full, cfg.jaw_reach * scene.pyramid.radius)
    return ys[~weak], xs[~weak]


def _window(scene: Scene, index: int, k: Kernels, box: tuple[int, int, int, int]) -> _Window:
    """The blob's box in level ``index``, padded by some context and clamped to the level."""
    q = int(2 ** (scene.pyramid.coarse - index))
    pad = math.ceil(_CLUSTER_PAD * k.radius) + 2
    x, y, w, h = box
    hl, wl = scene.levels[index].shape[:2]
    return _Window(
        max(0, (x * q - pad) // q * q),
        max(0, (y * q - pad) // q * q),
        min(wl, -(-((x + w) * q + pad) // q) * q),
        min(hl, -(-((y + h) * q + pad) // q) * q),
        q,
    )


def _foreground(scene: Scene, index: int, k: Kernels, win: _Window, patch: np.ndarray) -> np.ndarray:
    """The window's foreground (uint8 0/1) against the cloth field upsampled to its level, cleaned: a
    closing fills the pin-holes a glint or a number leaves in a ball's foreground; then an opening with a
    disk a little smaller than a ball erases what is thinner than a ball (the cue stick, chalk lines, a
    ball's own streak) and keeps balls, however tightly packed."""
    q = win.q
    ph, pw = patch.shape[:2]
    cfield = scene.cloth_field[win.y0 // q : -(-win.y1 // q), win.x0 // q : -(-win.x1 // q)]
    if q > 1:
        cfield = cv2.resize(cfield, None, fx=q, fy=q, interpolation=cv2.INTER_LINEAR)
    cfield = np.ascontiguousarray(cfield[:ph, :pw])
    fg = classify(patch, cfield, cv2.transform(cv2.multiply(cfield, cfield), SUM3), scene.config.cloth)
    fgm = cv2.bitwise_and(fg.mask, scene.geo.masks[index][win.y0 : win.y1, win.x0 : win.x1])
    return cv2.morphologyEx(cv2.morphologyEx(fgm, cv2.MORPH_CLOSE, k.closing), cv2.MORPH_OPEN, k.opening)
