"""The detections that leave vision: their columns checked when built, kept through selection and merging."""

from __future__ import annotations

import numpy as np
import pytest

from vision.types import Detections


def _two(blurred=None) -> Detections:
    return Detections(
        np.array([[10.0, 20.0], [30.0, 40.0]]), np.array([5.0, 5.0]), np.array([0, 1]), np.array([0.9, 0.35]),
        blurred=blurred,
    )  # fmt: skip


def test_a_detection_is_not_blurred_unless_said() -> None:
    assert _two().blurred.tolist() == [False, False]
    assert Detections.empty().blurred.shape == (0,)


def test_blurred_is_kept_through_selection_placing_and_merging() -> None:
    d = _two(np.array([False, True]))
    assert d[d.blurred].xy_px.tolist() == [[30.0, 40.0]]
    assert d.with_xy_mm(np.ones((2, 2))).blurred.tolist() == [False, True]
    assert Detections.merge([d, _two()]).blurred.tolist() == [False, True, False, False]


def test_a_blurred_column_of_the_wrong_length_is_refused() -> None:
    with pytest.raises(ValueError, match="blurred"):
        _two(np.array([True]))
