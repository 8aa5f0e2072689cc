"""A side of the cloth that is a score bar's edge, told from one frame: the bar's edge runs on past the
table's corners with the bar's colour beyond it; a cushion's edge does not."""

from __future__ import annotations

import cv2
import numpy as np

from vision.graphic_edges import runs_past_the_corners
from vision.table_lines import SideFit

SIZE = (640, 360)
CLOTH = np.array([[200, 60], [440, 60], [520, 300], [120, 300]], np.int32)  # a broadcast view's trapezoid
RAIL = np.array([[180, 40], [460, 40], [550, 320], [90, 320]], np.int32)


def frame(bar: tuple[int, int, int, int] | None) -> tuple[np.ndarray, np.ndarray]:
    """A table seen from behind one end, with a score bar (x0, y0, x1, y1) over its near end: the image
    and its grey levels as the calibration reads them."""
    image = np.full((SIZE[1], SIZE[0], 3), 30, np.uint8)
    cv2.fillPoly(image, [RAIL], (40, 70, 110))
    cv2.fillPoly(image, [CLOTH], (50, 130, 45))
    if bar is not None:
        x0, y0, x1, y1 = bar
        cv2.rectangle(image, (x0, y0), (x1, y1), (40, 30, 140), -1)
        for x in range(x0 + 10, x1 - 20, 24):  # its letters
            cv2.rectangle(image, (x, y0 + 12), (x + 14, y1 - 10), (235, 235, 235), -1)
    gray = cv2.GaussianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32), (0, 0), 1.0)
    return image, gray


def side_at(y: float, inward: float) -> SideFit:
    return SideFit(np.array([320.0, y]), np.array([1.0, 0.0]), np.array([0.0, inward]), 1.0)


def ends_at(y: float) -> tuple[np.ndarray, np.ndarray]:
    """Where the cloth's slanted sides cross the line at height ``y``."""
    t = (y - 60.0) / 240.0
    return np.array([200.0 - 80.0 * t, y]), np.array([440.0 + 80.0 * t, y])


def test_a_score_bar_s_edge_runs_on_past_the_table_s_corner() -> None:
    image, gray = frame((100, 290, 620, 335))
    assert runs_past_the_corners(image, gray, side_at(290.0, -1.0), ends_at(290.0)) >= 0.8


def test_a_cushion_s_edge_ends_at_the_corners() -> None:
    image, gray = frame((100, 290, 620, 335))
    assert runs_past_the_corners(image, gray, side_at(60.0, 1.0), ends_at(60.0)) == 0.0
    _, plain = frame(None)
    assert runs_past_the_corners(image, plain, side_at(300.0, -1.0), ends_at(300.0)) <= 0.1


def test_an_edge_that_runs_on_in_another_colour_is_no_graphic_s() -> None:
    # Beyond the corner the line meets something else's edge (here a rail of another colour at the same
    # height): a step on the line, but not the colour inside it.
    image, gray = frame(None)
    cv2.rectangle(image, (530, 300), (630, 340), (200, 200, 60), -1)
    gray = cv2.GaussianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32), (0, 0), 1.0)
    assert runs_past_the_corners(image, gray, side_at(300.0, -1.0), ends_at(300.0)) <= 0.1
