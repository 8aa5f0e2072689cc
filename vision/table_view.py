"""The table seen from straight above: a fixed-size image in which pixels are table millimetres.

The learned detector works here rather than in the camera frame, because here a ball has the same size
wherever it lies and whatever the camera (Arbiter knows the ball diameter in millimetres), the table fills
the image, and nothing off the table is fed to the network. The view is drawn at the height of ball centres,
so a ball appears as a disc of its true diameter centred on its true position, and lens distortion is undone
by the same map.

Layout: the view's horizontal axis runs along the table's length (its ``y``), the vertical axis across
(``x``), with ``margin_mm`` of rail beyond the cushion noses so pocket mouths and balls in the jaws are in
view. Every game's table fits the same ``VIEW_SIZE`` image, so one network serves all four games.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from arbiter.tables import TableModel

VIEW_SIZE = (640, 352)  # width, height in pixels: multiples of 32 (the network's largest stride)
MARGIN_MM = 70.0  # rail shown beyond the cushion noses: the pocket mouths and balls in the jaws

MmToPx = Callable[[np.ndarray], np.ndarray]  # (N, 2) table mm at ball-centre height -> (N, 2) image px


@dataclass(frozen=True)
class TableView:
    """The mapping between view pixels ``(u, v)`` and table millimetres ``(x, y)`` for one table."""

    table: TableModel
    size: tuple[int, int] = VIEW_SIZE
    margin_mm: float = MARGIN_MM

    @property
    def mm_per_px(self) -> float:
        w, h = self.size
        along = (self.table.length_mm + 2 * self.margin_mm) / w
        across = (self.table.width_mm + 2 * self.margin_mm) / h
        return max(along, across)

    @property
    def _origin_mm(self) -> tuple[float, float]:
        """Table ``(x, y)`` at view pixel (0, 0)'s corner, chosen so the table sits centred in the view."""
        w, h = self.size
        s = self.mm_per_px
        return (self.table.width_mm / 2 - h * s / 2, self.table.length_mm / 2 - w * s / 2)

    def mm_to_view(self, xy_mm: np.ndarray) -> np.ndarray:
        xy = np.asarray(xy_mm, dtype=np.float64).reshape(-1, 2)
        x0, y0 = self._origin_mm
        s = self.mm_per_px
        return np.stack([(xy[:, 1] - y0) / s - 0.5, (xy[:, 0] - x0) / s - 0.5], axis=1)

    def view_to_mm(self, uv: np.ndarray) -> np.ndarray:
        uv = np.asarray(uv, dtype=np.float64).reshape(-1, 2)
        x0, y0 = self._origin_mm
        s = self.mm_per_px
        return np.stack([x0 + (uv[:, 1] + 0.5) * s, y0 + (uv[:, 0] + 0.5) * s], axis=1)

    def grid_mm(self) -> np.ndarray:
        """Table mm of every view pixel centre, (H, W, 2)."""
        w, h = self.size
        u, v = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
        return self.view_to_mm(np.stack([u.ravel(), v.ravel()], axis=1)).reshape(h, w, 2)

    def rectifier(self, mm_to_px: MmToPx) -> Rectifier:
        """A warper from camera images to this view, given the camera's mapping at ball-centre height."""
        w, h = self.size
        px = mm_to_px(self.grid_mm().reshape(-1, 2)).reshape(h, w, 2).astype(np.float32)
        return Rectifier(self, np.ascontiguousarray(px[..., 0]), np.ascontiguousarray(px[..., 1]))


@dataclass(frozen=True)
class Rectifier:
    """Warps camera images into a ``TableView`` with precomputed maps (one ``cv2.remap``, ~1 ms)."""

    view: TableView
    map_x: np.ndarray
    map_y: np.ndarray

    def __call__(self, image: np.ndarray) -> np.ndarray:
        return cv2.remap(
            image, self.map_x, self.map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0
        )
