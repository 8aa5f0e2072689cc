"""The table watch's decision at a change of the picture: a table found again where it was is no cut (a
player or the cue hid the cushions from the check); one found elsewhere is a cut, said, and the run goes on
with it from the same frame. After a cut, a new unsure table elsewhere is taken once the camera has
settled there (a camera knocked for good), and only if it doubts nothing the run's did not; a replayed
video whose first frame is not the one the table was found on is watched as a cut from its start. The
search of a video's first seconds, where no frame is sure, takes the least doubted calibration, and of those
equally doubted the one frames under the most lights agree on."""

from __future__ import annotations

import functools
from dataclasses import replace

import cv2
import numpy as np
import pytest

from arbiter.games import billiards
from cli.common import SAMPLE_SHOT
from pipeline.fixed_camera import SAME_VIEW
from pipeline.table_watch import SETTLED_S, Notice, TableChoice, TableWatch, find_table
from vision.calibration import TableCalibration, calibrate_auto
from vision.table_verdict import CalibrationVerdict, Doubt, Reason
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
    monkeypatch.setattr(watch, "_found_again", lambda frame: again)  # the table, found again on this frame
    assert watch.update(Frame(0, 1.0, first_frame())) is False  # never paused: found on the frame itself
    assert [n.kind for n in said] == (["cut", "resumed"] if cut else [])
    assert (watch.resumed is again) == cut and watch.calib is (again if cut else calib)


def doubting(calib: TableCalibration, *doubts: Doubt, residual: float = 1.0) -> TableCalibration:
    verdict = CalibrationVerdict(tuple(Reason(d, "a test's doubt") for d in doubts))
    return replace(calib, verdict=verdict, reprojection_error_px=residual)


@pytest.mark.parametrize(
    ("doubts", "taken"), [((Doubt.FAR_END,), True), ((Doubt.FAR_END, Doubt.SHAPE), False)]
)
def test_a_camera_knocked_for_good_is_followed_to_its_new_place_once_settled(
    doubts: tuple[Doubt, ...], taken: bool, monkeypatch
) -> None:
    """A real table's calibrations are unsure: after a cut to a new, still view, the table found there on
    every try for SETTLED_S resumes the run, said to be unsure; one doubting what the run's did not (its
    shape: placed wrongly from the new place) never does."""
    calib = doubting(calibration(), Doubt.FAR_END)
    said: list[Notice] = []
    watch = TableWatch(calib, said.append, fixed=False)
    elsewhere = doubting(moved(calib, 5 * SAME_VIEW), *doubts)
    monkeypatch.setattr(watch.cuts, "update", lambda small: True)  # every frame changed at once ...
    monkeypatch.setattr(watch, "_fits", lambda image: False)  # ... and none fits the run's calibration
    monkeypatch.setattr("pipeline.table_watch.calibrate_auto", lambda *args, **kwargs: elsewhere)
    paused = [watch.update(Frame(i, 1.0 + i / 8.0, first_frame())) for i in range(16)]
    kinds = [n.kind for n in said]
    if taken:
        resumed_at = paused.index(False) / 8.0
        assert kinds == ["cut", "unsure", "resumed"] and watch.calib is elsewhere
        assert SETTLED_S <= resumed_at <= SETTLED_S + 0.25 and "settled at a new place" in said[1].text
    else:
        assert kinds == ["cut"] and all(paused) and watch.calib is calib


def test_a_replayed_video_starting_in_another_view_is_paused_until_the_table_is_found() -> None:
    """The table was found on a later frame (``Found.frame``) and the file is replayed from its start: a
    first frame that is another picture (here: the found frame turned upside down) is a cut from the
    start, so it is not refereed on the later view's table; the found frame itself is no cut."""
    calib = calibration()
    seen = Frame(30, 1.0, first_frame())
    said: list[Notice] = []
    other = TableWatch(calib, said.append, fixed=True, seen=seen)
    assert other.update(Frame(0, 0.0, np.ascontiguousarray(first_frame()[::-1]))) is True
    assert [n.kind for n in said] == ["cut"] and "starts in another view" in said[0].text
    said.clear()
    same = TableWatch(calib, said.append, fixed=True, seen=seen)
    assert same.update(Frame(0, 0.0, first_frame().copy())) is False and said == []


def searched(calibs: list[TableCalibration], gains: list[float], monkeypatch) -> TableCalibration:
    """The calibration the search of a video takes whose frames calibrate one by one as ``calibs``, each
    frame the first frame's picture with its red channel times its ``gains`` (a light)."""
    given = iter(calibs)
    monkeypatch.setattr("pipeline.table_watch.calibrate_auto", lambda *args, **kwargs: next(given))
    image = first_frame().astype(np.float32)
    lit = [np.clip(image * np.array([1.0, 1.0, g], np.float32), 0, 255).astype(np.uint8) for g in gains]
    frames = (Frame(i, i / 4.0, picture) for i, picture in enumerate(lit))
    return find_table(frames, billiards("snooker"), TableChoice(), fps=4.0).calib


def test_of_equally_doubted_frames_the_one_most_lights_agree_on_is_taken(monkeypatch) -> None:
    """A projector's light leads one frame 5 % astray with as many doubts as the others and a smaller
    residual: the table the frames under the three other lights agree on is taken."""
    calib = calibration()
    astray = doubting(moved(calib, 5 * SAME_VIEW), Doubt.SHAPE, residual=0.2)
    right = [doubting(moved(calib, share * SAME_VIEW), Doubt.OWN_SHAPE) for share in (0.0, 0.2, 0.4)]
    taken = searched([astray, *right], [1.0, 0.6, 0.8, 1.3], monkeypatch)
    assert taken in right


def test_frames_under_one_light_are_one_look_and_the_residual_decides(monkeypatch) -> None:
    """On a broadcast most frames of one view can place an end alike and wrongly: under one light their
    agreement counts once, and the smaller residual is taken, as before."""
    calib = calibration()
    alike = [doubting(moved(calib, 5 * SAME_VIEW), Doubt.FAR_END)] * 3
    seen = doubting(calib, Doubt.FAR_END, residual=0.3)
    assert searched([*alike, seen], [1.0, 1.01, 0.99, 1.0], monkeypatch) is seen


def test_a_less_doubted_frame_outranks_the_lights_that_agree(monkeypatch) -> None:
    calib = calibration()
    alike = [doubting(moved(calib, 5 * SAME_VIEW), Doubt.FAR_END, Doubt.SHAPE) for _ in range(3)]
    seen = doubting(calib, Doubt.FAR_END)
    assert searched([*alike, seen], [1.0, 0.6, 0.8, 1.3], monkeypatch) is seen


def test_of_a_view_the_lights_agree_on_the_table_size_they_agree_on_is_taken(monkeypatch) -> None:
    """One light's calibration puts the corners within 1 % of the others' but names a smaller table, with
    as many doubts and a smaller residual: the size the frames under most lights name is taken."""
    calib = doubting(calibration(), Doubt.SHAPE)
    smaller = replace(doubting(calib, Doubt.CUT_BY_FRAME, residual=0.2), table=calib.table.resized("10ft"))
    alike = [doubting(moved(calib, share * SAME_VIEW), Doubt.SHAPE) for share in (0.0, 0.2, 0.4)]
    taken = searched([*alike, smaller], [1.0, 0.6, 0.8, 1.3], monkeypatch)
    assert taken in alike and taken.table.size == calib.table.size
