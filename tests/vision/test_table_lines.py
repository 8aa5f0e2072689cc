"""A far cushion seen from a broadcast camera's height: the cloth's edge is the foot of its shaded face, and
the line is moved past the face to the nose; a cushion top merely in shade is not a face."""

from __future__ import annotations

import numpy as np
import pytest

from vision.cloth_colour import estimate, working_copy
from vision.table_lines import SideFit, past_the_face

CLOTH = (40, 150, 40)  # BGR
NOSE_Y, FOOT_Y = 100, 107


def far_cushion(face_level: float) -> np.ndarray:
    """A 640 x 360 frame: the bed below FOOT_Y, the face between NOSE_Y and FOOT_Y at ``face_level`` of
    the cloth, the cloth-covered cushion top above it, a wooden rail above that."""
    img = np.zeros((360, 640, 3), np.uint8)
    img[:] = (40, 70, 110)
    img[60:, 60:580] = CLOTH
    img[85:NOSE_Y, 60:580] = CLOTH
    img[NOSE_Y:FOOT_Y, 60:580] = (np.array(CLOTH) * face_level).astype(np.uint8)
    return img


def side_at_foot() -> SideFit:
    return SideFit(np.array([300.0, FOOT_Y - 0.5]), np.array([1.0, 0.0]), np.array([0.0, 1.0]), 1.0)


@pytest.mark.parametrize(("level", "moved"), [(0.25, True), (0.6, False), (1.0, False)])
def test_the_far_cushion_s_nose_is_past_its_shaded_face(level: float, moved: bool) -> None:
    img = far_cushion(level)
    cloth = estimate(working_copy(img)[0])
    assert cloth is not None
    ends = (np.array([100.0, FOOT_Y - 0.5]), np.array([540.0, FOOT_Y - 0.5]))
    out = past_the_face(img, cloth, side_at_foot(), ends)
    y = float(out.point[1] + (300.0 - out.point[0]) * out.direction[1] / out.direction[0])
    if moved:
        assert out.nose_moved and abs(y - (NOSE_Y - 0.5)) < 1.0
    else:
        assert y == pytest.approx(FOOT_Y - 0.5)
