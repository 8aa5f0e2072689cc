"""Broadcast footage: cuts to another camera, and the graphics laid over every camera's picture.

A broadcast cuts from the main camera to close-ups and back; a calibration made on one camera is wrong on
the next, so the run must notice the cut, pause (no events across it), find the table again and resume.
``CutDetector`` says when the picture changed at once, from one frame to the next, in the table's region
(or the whole frame): its edges (cushions, pockets, rails, markings) are no longer where they were, or
most of its colour changed. A player or a cue over the table hides a few edges and adds some; a pan moves
them by a pixel or two a frame; a cut moves them all.

Score bars, logos and clocks stay put while the cameras cut and pan under them. ``StaticOverlay`` learns
them over frames: a pixel that keeps its colour across frames in which most of the picture changed is a
graphic. Its mask goes to ``calibrate_auto(..., ignore=mask)`` so that a bar over the bottom cushion is
never taken for the cushion (the side is fitted to what is seen beside it, or, hidden nearly whole, reported
hidden and the calibration unsure), and to the detectors so that its letters are never balls. The run's
first calibration learns it from the frames it searches (``pipeline.table_watch``). A fixed camera never
changes enough to tell a graphic from the table under it: the mask stays empty (``ready`` is False) until the
picture has changed enough times. Nor does one frame's look tell it well enough on the whole frame: a
detector of flat, lettered, screen-aligned bars was tried on the renders, and missed bars its letters cut
apart while marking a strip of a clean table. Once the table is known it does, over the table: the cloth
seen there is all cloth but a bar's wide, level-edged stretch (``vision.score_bar``).

Both work on a small copy of each frame (a few milliseconds) and hold their own state: one per source.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class CutConfig:
    """When a change between two frames is a cut. Each threshold trades missed cuts against false ones."""

    work_px: int = 128  # long side of the copy compared: the picture's layout, not its detail
    edge: float = 40.0  # Sobel magnitude of lightness (working copy) that is an edge
    # Share of the last frame's edges that must still be edges (within a working pixel) for no cut: an arm
    # over the table keeps ~98 %, a pan of 1 % of the frame ~99 %, a cut to another view 25-80 %.
    persist: float = 0.85
    # Lab distance a pixel must move to count as changed: above noise and compression, below the change a
    # ball, an arm or the light makes on the cloth.
    change: float = 18.0
    # Share of the region changed at once that is a cut whatever the edges say (a cut to a view of few
    # edges). A player over the table changes a fifth of it; a cut to another camera most of it.
    cut_share: float = 0.5

    def __post_init__(self) -> None:
        if self.work_px < 8:
            raise ValueError(f"CutConfig.work_px must be >= 8, got {self.work_px}")
        if self.change <= 0:
            raise ValueError(f"CutConfig.change must be > 0, got {self.change}")
        if not 0.0 < self.cut_share < 1.0 or not 0.0 < self.persist < 1.0:
            raise ValueError(
                f"CutConfig.cut_share and persist must be in (0, 1), got {self.cut_share}, {self.persist}"
            )


def _small_lab(frame: np.ndarray, work_px: int) -> np.ndarray:
    """A blurred Lab copy of a BGR frame, ``work_px`` on its long side (float32)."""
    if frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise ValueError(f"expected an H x W x 3 uint8 BGR frame, got {frame.shape} {frame.dtype}")
    s = work_px / max(frame.shape[:2])
    small = cv2.resize(frame, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(cv2.GaussianBlur(small, (3, 3), 0), cv2.COLOR_BGR2LAB).astype(np.float32)


def _edges(lab: np.ndarray, threshold: float) -> np.ndarray:
    """Where a Lab copy's lightness has an edge (bool)."""
    gx, gy = cv2.Sobel(lab[..., 0], cv2.CV_32F, 1, 0), cv2.Sobel(lab[..., 0], cv2.CV_32F, 0, 1)
    return np.asarray(np.hypot(gx, gy) > threshold)


class CutDetector:
    """Call ``update`` once per frame; it returns True on the first frame of a new camera. ``region``
    (full-frame mask, nonzero = the table, e.g. ``TableCalibration.table_mask``) limits the comparison to
    the table, so that a crowd or a graphic moving round it is no cut; ``set_region(None)`` compares whole
    frames (before any calibration, and right after a cut)."""

    def __init__(self, config: CutConfig | None = None, region: np.ndarray | None = None) -> None:
        self.config = config or CutConfig()
        self._previous: np.ndarray | None = None
        self._region: np.ndarray | None = None
        self._full_region = region
        self.last_change = 0.0  # the share of the region whose colour changed at the last update
        self.last_persist = 1.0  # the share of the region's edges still in place at the last update

    def set_region(self, region: np.ndarray | None) -> None:
        """Compare only inside ``region`` (full-frame mask) from the next frame on."""
        self._full_region = region
        self._region = None

    def reset(self) -> None:
        """Forget the previous frame: the next one starts a new run (never a cut)."""
        self._previous = None

    def update(self, frame: np.ndarray) -> bool:
        lab = _small_lab(frame, self.config.work_px)
        previous, self._previous = self._previous, lab
        if previous is None:
            return False
        if previous.shape != lab.shape:  # a picture of another shape: another camera
            self.last_change, self.last_persist = 1.0, 0.0
            return True
        if self._region is None and self._full_region is not None:
            size = (lab.shape[1], lab.shape[0])
            self._region = (
                cv2.resize((self._full_region > 0).astype(np.uint8), size, interpolation=cv2.INTER_NEAREST)
                > 0
            )
        changed = np.linalg.norm(lab - previous, axis=2) > self.config.change
        where = self._region if self._region is not None and self._region.any() else np.ones_like(changed)
        self.last_change = float(changed[where].mean())
        before = _edges(previous, self.config.edge) & where
        now = cv2.dilate(_edges(lab, self.config.edge).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
        self.last_persist = float((before & now).sum() / before.sum()) if before.any() else 1.0
        return self.last_persist < self.config.persist or self.last_change >= self.config.cut_share


@dataclass(frozen=True)
class OverlayConfig:
    """What makes a pixel a graphic."""

    work_px: int = 480  # long side of the copy the mask is learnt on (graphics' edges need some detail)
    # Lab distance within which a pixel keeps its colour (compression and a semi-transparent bar's
    # background let it wander a little).
    still: float = 12.0
    # A frame is evidence when this share of the picture changed since the reference frame: a cut or a
    # pan. Only such frames tell a graphic (still) from the scene (changed).
    scene_change: float = 0.3
    min_evidence: int = 3  # evidence frames needed before the mask means anything
    # Share of the evidence frames in which a pixel must have kept its colour to be a graphic.
    keep_share: float = 0.9
    min_area: float = 0.0005  # a graphic covers at least this share of the frame (no speck is a logo)
    edge: float = 60.0  # Sobel magnitude of lightness (working copy) that is an edge: letters, a bar's border
    edge_share: float = 0.03  # a graphic's share of pixels on edges that stay put (text, borders)
    grow_px: int = 2  # the mask is grown by this many working pixels: a graphic's anti-aliased edge

    def __post_init__(self) -> None:
        if self.work_px < 16:
            raise ValueError(f"OverlayConfig.work_px must be >= 16, got {self.work_px}")
        if not 0.0 < self.scene_change < 1.0 or not 0.0 < self.keep_share <= 1.0:
            raise ValueError("OverlayConfig.scene_change must be in (0, 1) and keep_share in (0, 1]")
        if self.min_evidence < 1 or self.still <= 0:
            raise ValueError("OverlayConfig.min_evidence must be >= 1 and still > 0")


class StaticOverlay:
    """Learns the graphics laid over a broadcast. Call ``update`` with every frame (or every few);
    ``mask(shape)`` is the graphics (uint8, 255 = graphic) at a frame's size once ``ready``."""

    def __init__(self, config: OverlayConfig | None = None) -> None:
        self.config = config or OverlayConfig()
        self._reference: np.ndarray | None = None
        self._edges: np.ndarray | None = None  # the reference frame's edges (bool)
        self._kept: np.ndarray | None = None  # per pixel: evidence frames in which it kept its colour
        self.evidence = 0

    @property
    def ready(self) -> bool:
        return self.evidence >= self.config.min_evidence

    def update(self, frame: np.ndarray) -> None:
        lab = _small_lab(frame, self.config.work_px)
        if self._reference is None or self._kept is None or self._reference.shape != lab.shape:
            self._reference, self._kept, self.evidence = lab, np.zeros(lab.shape[:2], np.int32), 0
            self._edges = _edges(lab, self.config.edge)
            return
        distance = np.linalg.norm(lab - self._reference, axis=2)
        if float(np.mean(distance > self.config.still)) < self.config.scene_change:
            return  # the same picture: a still pixel here says nothing
        self._kept += distance <= self.config.still
        self.evidence += 1

    def mask(self, shape: tuple[int, ...]) -> np.ndarray:
        """The graphics at a frame of ``shape`` (H, W[, 3]): uint8, 255 on graphics, all 0 until ready."""
        h, w = int(shape[0]), int(shape[1])
        if not self.ready or self._kept is None or self._edges is None:
            return np.zeros((h, w), np.uint8)
        still = (self._kept >= self.config.keep_share * self.evidence).astype(np.uint8)
        n, comps, stats, _ = cv2.connectedComponentsWithStats(still, connectivity=8)
        # A graphic has edges (letters, its border) that stay where they are; a stretch of cloth or floor
        # that happens to look the same from two cameras has none.
        edges = np.bincount(comps[self._edges & (still > 0)], minlength=n)
        area = stats[:, cv2.CC_STAT_AREA]
        keep = (area >= self.config.min_area * still.size) & (edges >= self.config.edge_share * area)
        keep[0] = False
        graphic = keep[comps].astype(np.uint8)
        k = 2 * self.config.grow_px + 1
        graphic = cv2.morphologyEx(graphic, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
        graphic = cv2.dilate(graphic, np.ones((k, k), np.uint8))
        return cv2.resize(graphic * 255, (w, h), interpolation=cv2.INTER_NEAREST)
