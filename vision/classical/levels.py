"""The pyramid a frame is looked at in, the table's place at every level of it, and one frame as the fits
see it.

A frame is reduced by halvings to three levels chosen by the ball's apparent radius there: the *coarse* one
(radius ~3 px) where foreground blobs are found, the *fine* one (~6 px) where lone balls are fitted and
colours read, and the *cluster* one (~10 px) where touching balls are split. Everything that depends only on
the radius is built once (``Pyramid``); everything that depends on the image size once per size
(``Geometry``); a ``Scene`` is one frame's levels with the cloth learnt up to it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.cloth import ClothModel

from .config import ClassicalConfig
from .kernels import Kernels, bound, disk_offsets, ellipse, halvings, ring_offsets

# Sizes (of the nominal radius) tried for a lone ball: the radius varies over the image (perspective, a
# wide lens: up to ~15 %), and a ring of the wrong size hugs one side of the ball.
SIZES = (1.0, 0.92, 1.08, 1.16)
# A pale ball's rim is read out to this many radii: a stripe's band lies at the silhouette, and a fitted
# circle or motion blur can leave it just outside (the cloth there is told from it by colour).
RIM_REACH = 1.15


@dataclass(frozen=True)
class Pyramid:
    """The levels (halvings of the full image) for one apparent ball radius, and the kernels of the
    ball's radius at each."""

    radius: float  # full resolution
    coarse: int  # halvings to the coarse level
    fine: int
    cluster: int
    coarse_radius: float
    fine_radius: float
    fine_kernels: Kernels
    fine_sizes: tuple[Kernels, ...]  # the fine kernels at every one of ``SIZES``, nominal first
    cluster_kernels: Kernels
    coarse_opening: np.ndarray  # clears what is thinner than a ball from coarse blobs
    colour_offsets: np.ndarray  # (K, 2) fine-level pixels a ball's colour is read from
    rim_level: int  # the level a pale ball's rim is read at: one finer than ``fine`` (its band is thin)
    rim_offsets: np.ndarray  # (R, 2) rim-level pixels of the ring outside them, to just past the silhouette

    @classmethod
    def build(cls, radius: float, config: ClassicalConfig) -> Pyramid:
        coarse = halvings(radius, config.coarse_radius_px)
        fine = min(coarse, halvings(radius, config.fine_radius_px))
        cluster = min(fine, halvings(radius, config.cluster_radius_px))
        rc = radius / 2**coarse
        rf = radius / 2**fine
        rr = radius / 2 ** max(fine - 1, 0)
        fine_kernels = Kernels.build(rf, config.opening)
        return cls(
            radius,
            coarse,
            fine,
            cluster,
            rc,
            rf,
            fine_kernels,
            (fine_kernels, *(Kernels.build(rf * f, config.opening) for f in SIZES[1:])),
            Kernels.build(radius / 2**cluster, config.opening),
            ellipse(config.opening * rc),
            disk_offsets(config.colour_radius * rf),
            max(fine - 1, 0),
            ring_offsets(config.colour_radius * rr, RIM_REACH * rr),
        )

    @property
    def fine_per_coarse(self) -> int:
        """Fine-level pixels per coarse-level pixel, along each axis."""
        return int(2 ** (self.coarse - self.fine))


def _grown(table: np.ndarray, r: float) -> np.ndarray:
    """The table mask grown by ``r`` px (shrunk when negative)."""
    n = round(abs(r))
    if n == 0:
        return table
    disk = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * n + 1, 2 * n + 1))
    return cv2.dilate(table, disk) if r > 0 else cv2.erode(table, disk)


@dataclass(frozen=True)
class Geometry:
    """Per image size: the crop around the table (whole coarse pixels), the analysis mask at every
    pyramid level, where ball centres may lie and the middles of the pockets' mouths (full resolution)."""

    shape: tuple[int, int]
    x0: int
    y0: int
    x1: int
    y1: int
    masks: tuple[np.ndarray, ...]  # analysis mask per pyramid level, uint8 0/1
    centre_mask: np.ndarray  # full resolution, bool
    # (P, 2) full resolution: the middle of each pocket's mouth, where a ball hangs in its jaws
    jaws: np.ndarray

    @classmethod
    def build(
        cls,
        table_mask: np.ndarray,
        radius: float,
        cfg: ClassicalConfig,
        levels: int,
        jaws: np.ndarray | None = None,
    ) -> Geometry:
        h, w = table_mask.shape
        table = (table_mask > 0).astype(np.uint8)
        analysis = _grown(table, cfg.mask_margin * radius)
        ys, xs = np.nonzero(analysis)
        f = 2**levels
        x0, y0 = int(xs.min()) // f * f, int(ys.min()) // f * f
        x1 = min(x0 + (w - x0) // f * f, x0 + -(-(int(xs.max()) + 1 - x0) // f) * f)
        y1 = min(y0 + (h - y0) // f * f, y0 + -(-(int(ys.max()) + 1 - y0) // f) * f)
        if x1 <= x0 or y1 <= y0:
            raise ValueError("the table mask is smaller than one coarse pixel; check the mask and the radius")
        masks: list[np.ndarray] = [analysis[y0:y1, x0:x1].astype(np.float32)]
        for _ in range(levels):
            masks.append(cv2.resize(masks[-1], None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA))
        return cls(
            (h, w),
            x0,
            y0,
            x1,
            y1,
            tuple((m >= 0.5).astype(np.uint8) for m in masks),
            _grown(table, -cfg.centre_inset * radius).astype(bool),
            np.zeros((0, 2)) if jaws is None else np.asarray(jaws, np.float64).reshape(-1, 2),
        )

    def in_jaws(self, xy: np.ndarray, reach: float) -> np.ndarray:
        """Whether each full-resolution point (N, 2) is within ``reach`` px of a pocket's mouth."""
        if not len(self.jaws) or not len(xy):
            return np.zeros(len(xy), bool)
        apart = np.linalg.norm(xy[:, None, :] - self.jaws[None, :, :], axis=2).min(axis=1)
        return np.asarray(apart <= reach)

    def centre_ok(self, xy: np.ndarray) -> np.ndarray:
        """Whether each full-resolution point (N, 2) may be a ball's centre."""
        h, w = self.shape
        xi = np.round(xy[:, 0]).astype(np.int64)
        yi = np.round(xy[:, 1]).astype(np.int64)
        inside = (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
        out = np.zeros(len(xy), bool)
        out[inside] = self.centre_mask[yi[inside], xi[inside]]
        return out


@dataclass(frozen=True)
class Scene:
    """One frame as the fits see it: its levels (the table's crop at full resolution, then each halving),
    where the table lies in them, and the cloth learnt up to this frame."""

    levels: tuple[np.ndarray, ...]
    geo: Geometry
    pyramid: Pyramid
    config: ClassicalConfig
    cloth_field: np.ndarray  # coarse level, H x W x 3 float32
    edge_scale: float
    cloth_typical: np.ndarray  # (3,) the cloth's colour over the table (``ClothModel.typical``)

    @classmethod
    def of(
        cls,
        levels: tuple[np.ndarray, ...],
        geo: Geometry,
        pyramid: Pyramid,
        config: ClassicalConfig,
        cloth: ClothModel,
    ) -> Scene:
        # Edge votes are read relative to a step as high as the cloth is bright (its Sobel response is ~4x
        # the cloth level), taking the square-root compression into account.
        edge_scale = 1.0 / math.sqrt(4.0 * cloth.level)
        return cls(levels, geo, pyramid, config, cloth.field, edge_scale, cloth.typical)

    @property
    def coarse(self) -> np.ndarray:
        return self.levels[self.pyramid.coarse]

    @property
    def fine(self) -> np.ndarray:
        return self.levels[self.pyramid.fine]

    def cloth_at(self, xy_fine: np.ndarray) -> np.ndarray:
        """Cloth colour (N, 3) at fine-level points, read from the coarse field."""
        q = self.pyramid.fine_per_coarse
        cf = self.cloth_field
        h, w = cf.shape[:2]
        cx = bound(np.round((xy_fine[:, 0] + 0.5) / q - 0.5).astype(np.int64), 0, w - 1)
        cy = bound(np.round((xy_fine[:, 1] + 0.5) / q - 0.5).astype(np.int64), 0, h - 1)
        colour: np.ndarray = cf[cy, cx]
        return colour
