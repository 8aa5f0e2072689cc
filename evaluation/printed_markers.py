"""Printed markers on a table's rails, pasted into a labelled photo: a condition of the hidden real set.

The hidden real overhead photos show a table with printed square markers on its rails (a projector
setup's targets), and none of the labelled photos here has any. ``with_markers`` draws ArUco markers
(OpenCV's 4x4 dictionary, each in a white quiet zone) where a table's rails are: two along each long side at
a quarter and three quarters of the length, one at the middle of each end, their centres ``OFFSET`` of the
table's length outside the playing area's edge (over the cushion's top and the rail of a small table) and
``SIDE`` of it across. They are placed in the table's plane through the labelled corners' homography, so an
oblique view sees them foreshortened as it sees the table. A marker that would fall partly outside the
frame is drawn as far as the frame shows it.
"""

from __future__ import annotations

from collections.abc import Mapping

import cv2
import numpy as np

from datasets.billiards.real import CORNERS

OFFSET = 0.035  # marker centres outside the playing area, share of its length
SIDE = 0.03  # marker side (with its quiet zone), share of the length
MARKER_PX = 60  # the marker's pattern drawn at this size before it is placed
QUIET = 10  # px of white round the pattern
DICTIONARY = cv2.aruco.DICT_4X4_50


def marker_centres(aspect: float, offset: float = OFFSET) -> np.ndarray:
    """(6, 2): the markers' centres in the table's plane, the playing area being (0..1/aspect) x (0..1)
    from the bottom left corner (across, along)."""
    w = 1.0 / aspect
    return np.array(
        [
            [-offset, 0.25],
            [-offset, 0.75],
            [w + offset, 0.25],
            [w + offset, 0.75],
            [w / 2, -offset],
            [w / 2, 1 + offset],
        ]
    )


def with_markers(
    pixels: np.ndarray, corners_px: Mapping[str, tuple[float, float]], aspect: float
) -> np.ndarray:
    """``pixels`` (BGR) with the markers drawn on the rails of the table whose playing area's corners are
    ``corners_px`` (bl, br, tr, tl) and whose length over width is ``aspect``."""
    w = 1.0 / aspect
    plane = np.array([[0, 0], [w, 0], [w, 1], [0, 1]], np.float32)
    image_from_plane = cv2.getPerspectiveTransform(
        plane, np.array([corners_px[k] for k in CORNERS], np.float32)
    )
    out = pixels.copy()
    size = (pixels.shape[1], pixels.shape[0])
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    full = MARKER_PX + 2 * QUIET
    square = np.array([[0, 0], [full, 0], [full, full], [0, full]], np.float32)
    for k, (cx, cy) in enumerate(marker_centres(aspect)):
        pattern = cv2.aruco.generateImageMarker(dictionary, k, MARKER_PX)
        marker = cv2.copyMakeBorder(pattern, QUIET, QUIET, QUIET, QUIET, cv2.BORDER_CONSTANT, value=255)
        half = SIDE / 2
        where = np.array(
            [[cx - half, cy + half], [cx + half, cy + half], [cx + half, cy - half], [cx - half, cy - half]],
            np.float32,
        )
        plane_from_marker = cv2.getPerspectiveTransform(square, where)
        h = image_from_plane @ plane_from_marker
        drawn = cv2.warpPerspective(marker, h, size, flags=cv2.INTER_AREA, borderValue=0)
        cover = cv2.warpPerspective(np.full(marker.shape, 255, np.uint8), h, size, borderValue=0) > 127
        out[cover] = drawn[cover][:, None]
    return out
