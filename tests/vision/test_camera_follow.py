"""A camera that moves a little is followed (``vision.camera_follow``): the calibration moves with the
picture to within a pixel, never moves while the camera is still, and says nothing where the frame cannot
tell (cushions hidden) or the move is no small one."""

from __future__ import annotations

import functools
from dataclasses import replace

import cv2
import numpy as np
import pytest

from arbiter.games import billiards
from cli.common import SAMPLE_SHOT
from datasets.billiards.camera import broadcast_camera
from datasets.billiards.look import Look
from datasets.billiards.render import TableRenderer
from datasets.billiards.scene import BallState, SceneSample
from vision.calibration import TableCalibration, calibrate_auto
from vision.camera_follow import MOST_FOLLOWED, CameraFollower, corner_shift
from vision.table_verdict import Note


@functools.cache
def frames() -> tuple[np.ndarray, np.ndarray]:
    """The sample's first frame, and one from later in the shot (balls moved, the camera still)."""
    video = cv2.VideoCapture(str(SAMPLE_SHOT / "video.mp4"))
    out = []
    for i in range(90):
        ok, image = video.read()
        assert ok
        if i in (0, 89):
            out.append(image)
    video.release()
    return out[0], out[1]


@functools.cache
def calibration() -> TableCalibration:
    return calibrate_auto(frames()[0], billiards("snooker").table)


def warped(image: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    h, w = image.shape[:2]
    return cv2.warpAffine(image, matrix, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def corners_moved(calib: TableCalibration, matrix: np.ndarray) -> np.ndarray:
    """Where the picture's affine move takes the calibration's corners."""
    p = np.array([calib.points[k] for k in ("bl", "br", "tr", "tl")])
    return p @ matrix[:, :2].T + matrix[:, 2]


def test_a_still_camera_is_never_moved() -> None:
    follower = CameraFollower(calibration())
    first, later = frames()
    for image in (first, later, first):
        followed = follower.follow(image)
        assert followed is not None
        assert corner_shift(calibration(), followed.calib) < 0.0006


@pytest.mark.parametrize(
    "matrix",
    [
        np.array([[1.0, 0.0, 9.0], [0.0, 1.0, -4.0]]),  # a knock: 9 px right, 4 up
        cv2.getRotationMatrix2D((640.0, 360.0), 0.4, 1.01),  # a slight turn and zoom about the centre
    ],
    ids=["shift", "turn-and-zoom"],
)
def test_the_calibration_moves_with_the_picture(matrix: np.ndarray) -> None:
    calib = calibration()
    follower = CameraFollower(calib)
    first, later = frames()
    follower.follow(first)  # the reference: where the camera was calibrated
    followed = follower.follow(warped(later, matrix))
    assert followed is not None
    want = corners_moved(calib, matrix)
    got = np.array([followed.calib.points[k] for k in ("bl", "br", "tr", "tl")])
    assert np.abs(got - want).max() < 0.8, (got, want)
    # Balls are placed where they are on the table: a pixel of the moved picture maps to the same mm.
    xy_mm = np.array([[300.0, 500.0], [1500.0, 3000.0], [889.0, 1778.0]])
    before_px = calib.mm_to_px(xy_mm, 26.25)
    after_px = before_px @ matrix[:, :2].T + matrix[:, 2]
    assert np.abs(followed.calib.px_to_mm(after_px, 26.25) - xy_mm).max() < 3.0


def test_cushions_hidden_tell_nothing() -> None:
    calib = calibration()
    follower = CameraFollower(calib)
    follower.follow(frames()[0])
    covered = frames()[1].copy()
    p = calib.points
    # Players' backs over the bottom and the left cushions (the image's left and top in the sample's view).
    covered[:, : int(max(p["bl"][0], p["br"][0])) + 40] = (35, 30, 40)
    covered[: int(max(p["bl"][1], p["tl"][1])) + 40] = (35, 30, 40)
    assert follower.follow(covered) is None


def test_a_large_move_is_not_followed() -> None:
    calib = calibration()
    follower = CameraFollower(calib)
    follower.follow(frames()[0])
    length = float(np.hypot(*np.subtract(calib.points["bl"], calib.points["tl"])))
    shift = 2.5 * MOST_FOLLOWED * length
    followed = follower.follow(warped(frames()[1], np.array([[1.0, 0.0, shift], [0.0, 1.0, 0.0]])))
    assert followed is None


@functools.cache
def broadcast_frames() -> tuple[TableCalibration, np.ndarray, np.ndarray]:
    """A broadcast main camera's view (steep, the calibration fitted to its corners alone), two frames of
    balls at rest, and its calibration."""
    table = billiards("snooker").table
    cam = broadcast_camera(table, 1280, 720, np.random.default_rng(4))
    renderer = TableRenderer(
        billiards("snooker"), cam, replace(Look(), cue=None, arm=None), seed=5, clip_s=1.0
    )
    balls = (BallState("white", (900.0, 700.0), False), BallState("black", table.spots["black"], False))
    first, later = (renderer.render([SceneSample(t, balls)]).image for t in (0.0, 0.5))
    return calibrate_auto(first, table), first, later


def test_a_broadcast_view_is_followed_by_the_picture_shift() -> None:
    """A view too oblique for the edge fit (its camera fitted to the corners alone, its noses not drawn by
    the model) is followed by the picture's shift."""
    calib, first, later = broadcast_frames()
    assert any(r.kind is Note.EDGE_FIT_SKIPPED for r in calib.verdict.notes)
    follower = CameraFollower(calib)
    assert follower.follow(first) is not None and follower.by_noses is False
    assert corner_shift(calib, follower.follow(later).calib) < 1e-9  # still: the answer stands
    matrix = np.array([[1.0, 0.0, 10.0], [0.0, 1.0, 4.0]])
    followed = follower.follow(warped(later, matrix))
    assert followed is not None
    want = corners_moved(calib, matrix)
    got = np.array([followed.calib.points[k] for k in ("bl", "br", "tr", "tl")])
    assert np.abs(got - want).max() < 1.0, (got, want)
