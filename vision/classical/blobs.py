"""Candidate finding: the coarse foreground's blobs, each looked at in its own small window at a finer level.

Blobs of one ball's size, and *seeds* (a glint too small for a ball, over a disk darker than the cloth: a
ball of the cloth's own colour), are fitted as lone balls (``isolated``); bigger blobs (touching balls, a
rack, a ball against the cue, a hand) are searched for circles (``cluster``), at a finer level when they are
of rack size, where the seams between balls show. Blobs whose pixels have not changed since the last frame
keep their circles (``StillBlobs``), so balls at rest, most of a match, cost almost nothing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.cloth import Foreground

from .candidates import Candidates
from .cluster import fit_cluster
from .isolated import fit_isolated
from .kernels import suppress
from .levels import Geometry, Scene

# A coarse blob is one ball when its area (in ball areas) and its longest side (in radii) are within these;
# antialiasing and compression fringes make a lone ball's blob up to ~1.9 ball areas.
_SINGLE_AREA, _SINGLE_EXTENT = 2.3, 3.3
_CROSS = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
_MAX_RACK = 30.0  # ball areas: no blob of touching balls is bigger than a rack with its fringes
_SEED_PREFILTER = 0.4  # share of min_seed_coverage a glint's coarse neighbourhood needs to be examined
# A blob is unchanged when no coarse pixel in its box differs from the last frame's by more than this (8-bit
# levels, any channel): above sensor noise and compression at the coarse level, below a ball's edge moving
# a third of a coarse pixel. And its area may differ by at most this share.
_STATIC_PEAK = 28
_STATIC_AREA = 0.1

Found = list[Candidates | None]  # per blob: its circles, or None while it is still to be fitted


@dataclass(frozen=True)
class Blobs:
    """The coarse foreground's connected blobs (one row each) and what each is worth a fine look as."""

    labels: np.ndarray  # coarse level, int32: blob i is label i + 1
    stats: np.ndarray  # (N, 5) x, y, w, h, area (cv2.CC_STAT_*)
    centroids: np.ndarray  # (N, 2)
    area: np.ndarray  # (N,) in ball areas
    opened: np.ndarray  # the foreground with what is thinner than a ball cleared away, uint8
    single: np.ndarray  # (N,) bool: one ball's size
    cluster: np.ndarray  # (N,) bool: bigger, with something ball-thick in it
    seed: np.ndarray  # (N,) bool: a glint too small for a ball, over a dark disk

    @property
    def lone(self) -> np.ndarray:
        """Blobs fitted as one ball each."""
        lone: np.ndarray = self.single | self.seed
        return lone

    def thick_box(self, i: int) -> tuple[int, int, int, int]:
        """Blob ``i``'s box (x, y, w, h) around its ball-thick part only: not the length of a cue lying on
        the cloth."""
        x, y, w, h = (int(v) for v in self.stats[i, :4])
        part = self.opened[y : y + h, x : x + w] & (self.labels[y : y + h, x : x + w] == i + 1)
        ys, xs = np.nonzero(part)
        return (
            x + int(xs.min()),
            y + int(ys.min()),
            int(xs.max() - xs.min()) + 1,
            int(ys.max() - ys.min()) + 1,
        )


def find_blobs(scene: Scene, fg: Foreground) -> Blobs:
    """The blobs of the coarse foreground inside the table, sorted into lone balls, clusters and seeds."""
    cfg = scene.config
    rc = scene.pyramid.coarse_radius
    mask = scene.geo.masks[-1]
    blobs = cv2.bitwise_and(fg.mask, mask)
    n, labels, stats, centroids = cv2.connectedComponentsWithStatsWithAlgorithm(
        blobs, 8, cv2.CV_32S, cv2.CCL_GRANA
    )
    stats, centroids = stats[1:], centroids[1:]
    area = stats[:, cv2.CC_STAT_AREA] / (math.pi * rc**2)
    extent = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]) / rc
    big_enough = area >= cfg.min_blob_area
    single = big_enough & (area <= _SINGLE_AREA) & (extent <= _SINGLE_EXTENT)
    # A bigger blob is worth the fine look only if something ball-thick survives an opening (after
    # filling pin-holes): chalk lines and the cue vanish.
    opened = cv2.morphologyEx(
        cv2.morphologyEx(blobs, cv2.MORPH_CLOSE, _CROSS), cv2.MORPH_OPEN, scene.pyramid.coarse_opening
    )
    cluster = big_enough & ~single & (np.bincount(labels[opened > 0], minlength=n)[1:] > 0)
    # A blob too small for a ball may be the glint of a ball of the cloth's own colour (green on green):
    # a seed, if enough of a ball-sized disk around it is darker than the lit cloth.
    seed = ~big_enough
    if seed.any():
        k = 2 * round(rc) + 1
        dark = cv2.blur((fg.cloth == 0).astype(np.float32) * mask, (k, k))
        at = np.round(centroids).astype(np.int64)
        seed &= dark[at[:, 1], at[:, 0]] >= _SEED_PREFILTER * cfg.min_seed_coverage
    return Blobs(labels, stats, centroids, area, opened, single, cluster, seed)


def fit_blobs(scene: Scene, blobs: Blobs, found: Found) -> Found:
    """Every blob's circles: ``found`` (from the last frame) where given, else fitted now. Lone balls are
    fitted all at once; a cluster of rack size at the finer cluster level, where the seams show, and a blob
    bigger than any rack (an arm) at the fine level."""
    p = scene.pyramid
    found = list(found)
    todo = np.array([blobs.lone[i] and found[i] is None for i in range(len(blobs.stats))], bool)
    if todo.any():
        q = p.fine_per_coarse
        fitted = fit_isolated(scene, q * (blobs.centroids[todo] + 0.5) - 0.5, blobs.seed[todo])
        for row, i in enumerate(np.nonzero(todo)[0]):
            found[i] = fitted.subset(np.array([row]))
    for i in np.nonzero(blobs.cluster)[0]:
        if found[i] is None:
            box = blobs.thick_box(int(i))
            if blobs.area[i] <= _MAX_RACK:
                found[i] = fit_cluster(scene, p.cluster, p.cluster_kernels, box)
            else:
                found[i] = fit_cluster(scene, p.fine, p.fine_kernels, box)
    return found


def merged(found: Found, separation: float) -> Candidates:
    """All blobs' circles as one set, none closer than ``separation`` (fine-level pixels) to a better one."""
    parts = [f for f in found if f is not None and len(f.xy)]
    if not parts:
        return Candidates.empty()
    cand = Candidates.concat(parts)
    return cand.subset(suppress(cand.xy, cand.coverage * np.minimum(cand.edge, 1.0), separation))


class StillBlobs:
    """The last frame's coarse level, blobs and their circles: a blob that has not changed keeps them.

    "Not changed" is measured against the frame its circles were fitted on, not merely the last one: a ball
    rolling slowly to a stop changes its box by less than ``_STATIC_PEAK`` from one frame to the next, and
    compared only with the last frame it would keep the circles of where it was first thought still (a white
    left 30 mm short of where it stopped). Where circles are kept, so are that frame's pixels and box."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.reset()

    def reset(self) -> None:
        self._previous: np.ndarray | None = None
        self._boxes = np.zeros((0, 5), np.int64)
        self._found: Found = []
        self._recalled: dict[int, int] = {}  # blob of the frame being looked at -> the kept blob it reuses

    def moved(self, coarse: np.ndarray, geo: Geometry) -> np.ndarray | None:
        """Coarse pixels of the table that changed since the last frame looked at in full, or under a kept
        blob since the frame its circles were fitted on (uint8 0/1); None when there is nothing to compare
        with (or reuse is off)."""
        if not self.enabled or self._previous is None or self._previous.shape != coarse.shape:
            return None
        diff = cv2.split(cv2.absdiff(coarse, self._previous))
        moved = (cv2.max(cv2.max(diff[0], diff[1]), diff[2]) > _STATIC_PEAK).view(np.uint8)
        return cv2.bitwise_and(moved, geo.masks[-1])

    def recall(self, moved: np.ndarray | None, blobs: Blobs) -> Found:
        """Per blob, last frame's circles if it is a blob worth fitting that matches a blob of the last frame
        (same place and size) and under whose box no pixel has ``moved``; else None."""
        found: Found = [None] * len(blobs.stats)
        self._recalled = {}
        if moved is None or len(self._boxes) == 0:
            return found
        stats = blobs.stats
        total = cv2.integral(moved)
        h, w = moved.shape
        x, y, bw, bh, a = (stats[:, k].astype(np.int64) for k in range(5))
        x0, y0 = np.maximum(x - 1, 0), np.maximum(y - 1, 0)
        x1, y1 = np.minimum(x + bw + 1, w), np.minimum(y + bh + 1, h)
        changes = total[y1, x1] - total[y0, x1] - total[y1, x0] + total[y0, x0]
        old = self._boxes
        same = (
            (np.abs(x[:, None] - old[None, :, 0]) <= 1)
            & (np.abs(y[:, None] - old[None, :, 1]) <= 1)
            & (np.abs(x[:, None] + bw[:, None] - old[None, :, 0] - old[None, :, 2]) <= 1)
            & (np.abs(y[:, None] + bh[:, None] - old[None, :, 1] - old[None, :, 3]) <= 1)
            & (np.abs(a[:, None] - old[None, :, 4]) <= _STATIC_AREA * a[:, None])
        )
        ok = (blobs.lone | blobs.cluster) & (changes == 0) & same.any(axis=1)
        match = same.argmax(axis=1)
        for i in np.nonzero(ok)[0]:
            found[i] = self._found[match[i]]
            self._recalled[int(i)] = int(match[i])
        return found

    def remember(self, coarse: np.ndarray, blobs: Blobs, found: Found) -> None:
        """Keep this frame's coarse level and the circles of its blobs worth fitting, for the next; where a
        blob's circles were reused (``recall``), the pixels and box of the frame they were fitted on."""
        keep = blobs.lone | blobs.cluster
        reference = coarse.copy()
        boxes = blobs.stats.astype(np.int64)
        if self._previous is not None and self._previous.shape == coarse.shape:
            h, w = coarse.shape[:2]
            for i, j in self._recalled.items():
                x, y, bw, bh, _ = self._boxes[j]
                y0, y1, x0, x1 = max(y - 2, 0), min(y + bh + 2, h), max(x - 2, 0), min(x + bw + 2, w)
                reference[y0:y1, x0:x1] = self._previous[y0:y1, x0:x1]
                boxes[i] = self._boxes[j]
        self._previous = reference
        self._boxes = boxes[keep]
        self._found = [f for f, k in zip(found, keep, strict=True) if k]
