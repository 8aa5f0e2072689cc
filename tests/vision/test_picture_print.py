"""Whether two pictures come from one still camera (``vision.picture_print``): the same real photo under a
projector's coloured ramps is; the same photo shifted by 1 % of its width, or turned, is not; two phone
photos of one table from two places are not; a flat frame matches nothing."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from datasets.billiards.real import photos
from evaluation.real_balls import LIGHTS, lit
from vision.picture_print import picture_print, same_camera


def _photo(name: str) -> np.ndarray:
    image = next(p for p in photos() if p.name == name).load()
    return cv2.resize(image, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)  # a phone photo, smaller


@pytest.fixture(scope="module")
def table() -> np.ndarray:
    return _photo("snooker-small-phone-2")


@pytest.mark.parametrize("light", list(LIGHTS))
def test_one_photo_under_any_light_is_one_camera(table: np.ndarray, light: str):
    assert same_camera(picture_print(table), picture_print(lit(table, light)))


def test_a_camera_moved_by_one_percent_of_the_width_or_turned_two_degrees_is_another(table: np.ndarray):
    h, w = table.shape[:2]
    shifted = cv2.warpAffine(
        table, np.float32([[1, 0, 0.01 * w], [0, 1, 0]]), (w, h), borderMode=cv2.BORDER_REFLECT
    )
    turned = cv2.warpAffine(
        table, cv2.getRotationMatrix2D((w / 2, h / 2), 2.0, 1.0), (w, h), borderMode=cv2.BORDER_REFLECT
    )
    base = picture_print(table)
    assert not same_camera(base, picture_print(shifted))
    assert not same_camera(base, picture_print(turned))


def test_two_photos_of_one_table_from_two_places_are_two_cameras(table: np.ndarray):
    other = _photo("snooker-small-phone-1")  # the same table, same size, taken closer
    assert other.shape == table.shape
    assert not same_camera(picture_print(table), picture_print(other))


def test_a_flat_frame_or_another_size_matches_nothing(table: np.ndarray):
    flat = np.full_like(table, 90)
    assert picture_print(flat).edges is None
    assert not same_camera(picture_print(flat), picture_print(flat))
    half = cv2.resize(table, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    assert not same_camera(picture_print(table), picture_print(half))
