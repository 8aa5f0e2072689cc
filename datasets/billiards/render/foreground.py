"""What of the table stands between a camera and the balls: the near cushions and rails of a camera outside
the table's footprint (a broadcast camera behind one end), which hide the balls lying against them.

The background already draws those cushion tops where they cover the cloth (its cushion-height plane); the
balls are blended on top of it afterwards, so the pixels where a near cushion is in front are restored from
the background and counted as covered in the truth. A camera over the table (every overhead view) has no
near cushion: a ray that is off the bed at cushion height is still off it at the cloth.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from arbiter.tables import TableModel

from ..camera import Camera
from .draw import PIXEL_SHIFT, circle, fixed
from .table import pocket_shapes

RASTER_MM = 4.0  # cell of the map of what is solid at cushion height: finer than a pocket jaw's rounding
BAND_MM = 400.0  # the map reaches this far beyond the cushion noses: cushions, rails and a little floor


def _beyond_near_sides(table: TableModel, camera: Camera, p: np.ndarray) -> np.ndarray:
    """Points (N, 2) beyond a cushion-nose line on whose outer side the camera stands."""
    cx, cy = float(camera.centre_mm[0]), float(camera.centre_mm[1])
    out = np.zeros(len(p), bool)
    if cx < 0:
        out |= p[:, 0] < 0
    if cx > table.width_mm:
        out |= p[:, 0] > table.width_mm
    if cy < 0:
        out |= p[:, 1] < 0
    if cy > table.length_mm:
        out |= p[:, 1] > table.length_mm
    return out


def _open_at_cushion_height(table: TableModel) -> tuple[np.ndarray, float]:
    """A raster (1 = nothing there at cushion height: the pockets' holes and throats) over the table and a
    band around it, origin at ``(-BAND_MM, -BAND_MM)``, and its cells per millimetre."""
    s = 1.0 / RASTER_MM
    w = math.ceil((table.width_mm + 2 * BAND_MM) * s) + 1
    h = math.ceil((table.length_mm + 2 * BAND_MM) * s) + 1
    raster = np.zeros((h, w), np.uint8)

    def px(pts_mm: np.ndarray) -> np.ndarray:
        return fixed((np.asarray(pts_mm, np.float64) + BAND_MM) * s)

    for p in table.pockets:
        throat, centre, r = pocket_shapes(table, p)
        cv2.fillPoly(raster, [px(throat), px(circle(centre, r))], 1, cv2.LINE_8, PIXEL_SHIFT)
    return raster, s


def near_cushion_mask(table: TableModel, camera: Camera) -> np.ndarray | None:
    """Pixels (H x W bool) where a near cushion or rail hides the bed, or None when the camera is over the
    table (no cushion can be in front of a ball)."""
    cx, cy = float(camera.centre_mm[0]), float(camera.centre_mm[1])
    if 0.0 <= cx <= table.width_mm and 0.0 <= cy <= table.length_mm:
        return None
    w_img, h_img = camera.width, camera.height
    uu, vv = np.meshgrid(np.arange(w_img, dtype=np.float64), np.arange(h_img, dtype=np.float64))
    d = camera.rays(np.stack([uu.ravel(), vv.ravel()], axis=1), precise=False)
    down = d[:, 2] < -1e-9  # rays that reach the table at all
    c = camera.centre_mm
    reach = (table.cushion_height_mm - c[2]) / np.where(down, d[:, 2], -1.0)
    ph = c[None, :2] + reach[:, None] * d[:, :2]  # where each ray is at cushion height
    raster, s = _open_at_cushion_height(table)
    cells = np.round((ph + BAND_MM) * s).astype(np.int64)
    h_r, w_r = raster.shape
    in_raster = (cells[:, 0] >= 0) & (cells[:, 0] < w_r) & (cells[:, 1] >= 0) & (cells[:, 1] < h_r)
    cells = np.clip(cells, 0, [w_r - 1, h_r - 1])
    open_hole = in_raster & (raster[cells[:, 1], cells[:, 0]] > 0)
    mask = down & _beyond_near_sides(table, camera, ph) & ~open_hole
    out: np.ndarray = mask.reshape(h_img, w_img)
    return out if out.any() else None
