"""Drawings over a camera frame that check the vision by eye: the fitted table."""

from __future__ import annotations

import cv2
import numpy as np

from arbiter.tables import TableModel
from vision.calibration import TableCalibration

OUTLINE_BGR = (0, 255, 255)
POCKET_BGR = (0, 0, 255)


def table_overlay(image_bgr: np.ndarray, calib: TableCalibration, table: TableModel) -> np.ndarray:
    """The fitted table over the frame, as ``arbiter calibrate`` draws it: the playing area's outline at the
    cushion noses and a ring at each pocket mouth, to check by eye."""
    overlay = image_bgr.copy()
    corners = np.array([[0, 0], [table.width_mm, 0], [table.width_mm, table.length_mm], [0, table.length_mm]])
    cv2.polylines(overlay, [calib.mm_to_px(corners).astype(np.int32)], True, OUTLINE_BGR, 2, cv2.LINE_AA)
    for p in table.pockets:
        cx, cy = calib.mm_to_px(np.array([p.mouth_xy_mm]))[0]
        cv2.circle(overlay, (int(cx), int(cy)), 6, POCKET_BGR, 2, cv2.LINE_AA)
    return overlay
