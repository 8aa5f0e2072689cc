"""The table watch's decision at a change of the picture: a table found again where it was is no cut (a
player or the cue hid the cushions from the check); one found elsewhere is a cut, said, and the run goes on
with it from the same frame."""

from __future__ import annotations

import functools
from dataclasses import replace

import cv2
import numpy as np
import pytest

from arbiter.games import billiards
from cli.common import SAMPLE_SHOT
from pipeline.table_watch import SAME_VIEW, Notice, TableWatch
from vision.calibration import TableCalibration, calibrate_auto
from vision.types import Frame


@functools.cache
def first_frame() -> np.ndarray:
    video = cv2.VideoCapture(str(SAMPLE_SHOT / "video.mp4"))
    ok, image = video.read()
    video.release()
    assert ok
    return image


@functools.cache
def calibration() -> TableCalibration:
    return calibrate_auto(first_frame(), billiards("snooker").table)


def moved(calib: TableCalibration, share: float) -> TableCalibration:
    """The calibration with every named point moved along the image's x by ``share`` of the table's length."""
    p = calib.points
    length = float(np.hypot(*np.subtract(p["bl"], p["tl"])))
    dx = share * length
    return replace(calib, points_px=tuple((k, (x + dx, y)) for k, (x, y) in calib.points_px))


@pytest.mark.parametrize(("share", "cut"), [(0.3 * SAME_VIEW, False), (5 * SAME_VIEW, True)])
def test_a_table_found_again_where_it_was_is_no_cut(share: float, cut: bool, monkeypatch) -> None:
    calib = calibration()
    said: list[Notice] = []
    watch = TableWatch(calib, said.append, fixed=False)
    again = moved(calib, share)
    monkeypatch.setattr(watch.cuts, "update", lambda small: True)  # the picture changed at once ...
    monkeypatch.setattr(watch, "_fits", lambda image: False)  # ... and the cushions are not where they were
    monkeypatch.setattr(watch, "_found_again", lambda image: again)  # the table, found again on this frame
    assert watch.update(Frame(0, 1.0, first_frame())) is False  # never paused: found on the frame itself
    assert [n.kind for n in said] == (["cut", "resumed"] if cut else [])
    assert (watch.resumed is again) == cut and watch.calib is (again if cut else calib)
