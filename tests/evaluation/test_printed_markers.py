"""Printed markers pasted on a labelled table's rails (the hidden real set's tables carry them): readable
markers where the rails are, the playing area left as it was, and rows of their own in `arbiter eval real`."""

from __future__ import annotations

import functools

import cv2
import numpy as np
import pytest

from datasets.billiards.real import CORNERS, photos, with_corners
from datasets.billiards.second_look import renders
from evaluation.printed_markers import DICTIONARY, with_markers
from evaluation.real_tables import TOLERANCE, Row, evaluate_real_tables, format_report


def test_the_markers_lie_on_the_rails_readable_and_the_playing_area_is_untouched() -> None:
    image = next(i for i in with_corners(photos()) if i.name == "snooker-small-phone-2")
    assert image.corners_px is not None
    shot = image.load()
    marked = with_markers(shot, image.corners_px, image.aspect)
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    detector = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())
    found, ids, _ = detector.detectMarkers(cv2.cvtColor(marked, cv2.COLOR_BGR2GRAY))
    assert ids is not None and sorted(ids.ravel().tolist()) == [0, 1, 2, 3, 4, 5]
    area = np.array([image.corners_px[k] for k in CORNERS], np.float32)
    for quad in found:
        centre = quad.reshape(4, 2).mean(axis=0)
        assert cv2.pointPolygonTest(area, (float(centre[0]), float(centre[1])), False) < 0  # outside: a rail
    area_mask = np.zeros(shot.shape[:2], np.uint8)
    cv2.fillConvexPoly(area_mask, np.round(area).astype(np.int32), 1)
    inside = cv2.erode(area_mask, np.ones((5, 5), np.uint8)) > 0
    assert np.array_equal(marked[inside], shot[inside])


def test_a_report_with_markers_has_each_light_twice() -> None:
    image = next(i for i in renders() if i.name == "pt-pool-overhead-a")
    report = evaluate_real_tables([image], markers=True)
    assert [r.light for r in report.rows] == ["as shot", "as shot, printed markers"]
    assert report.rows[1].new.right(report.tolerance), report.rows[1]
    assert "Second-look renders (1, printed markers)" in format_report(report)


@functools.cache
def small_table_with_markers_under_a_warm_ramp() -> Row:
    image = next(i for i in with_corners(photos()) if i.name == "snooker-small-phone-2")
    row = evaluate_real_tables([image], lights=("warm ramp",), markers=True).rows[1]
    assert row.light == "warm ramp, printed markers"
    return row


def test_the_small_snooker_table_with_markers_under_a_warm_ramp_is_never_sure_and_wrong() -> None:
    row = small_table_with_markers_under_a_warm_ramp()
    assert not row.new.sure_but_wrong(TOLERANCE), row


@pytest.mark.xfail(
    strict=True,
    reason="known weakness: with printed markers on its rails the small snooker table under a warm ramp is "
    "found 7.7 % off (unsure): its cloth region reaches the carpet over the top rail (docs/results.md)",
)
def test_the_small_snooker_table_with_markers_under_a_warm_ramp_is_found_within_one_percent() -> None:
    row = small_table_with_markers_under_a_warm_ramp()
    assert row.new.right(TOLERANCE), row


def test_the_small_table_with_markers_under_a_warm_ramp_in_a_1280_px_frame_is_never_sure_and_wrong() -> None:
    """Its top side is put at the rail's edge, where a cushion top of the cloth's colour meets the wood, 4.1 %
    off, and a 6 ft table's shape fits; the other sides lie about 4 % of the length inside the cloth's
    outline, that one 0.7 %: doubted (``Doubt.SHORT_INSET``), never sure."""
    image = next(i for i in with_corners(photos()) if i.name == "snooker-small-phone-2")
    row = evaluate_real_tables([image], lights=("warm ramp",), markers=True, long_side=1280).rows[1]
    assert row.light == "warm ramp, printed markers"
    assert not row.new.sure_but_wrong(TOLERANCE), row.new
