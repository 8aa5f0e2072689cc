"""The table view: its mapping is exact both ways, and the warp puts the sample's balls where the truth is."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from arbiter.games import BILLIARDS_GAMES, billiards
from datasets.billiards.camera import Camera
from vision.table_view import VIEW_SIZE, TableView

GAMES = tuple(s.id for s in BILLIARDS_GAMES)

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "billiards" / "snooker" / "shot_000"


@pytest.mark.parametrize("game", GAMES)
def test_every_table_fits_the_view_with_its_rail(game):
    view = TableView(billiards(game).table)
    corners = np.array([[-60.0, -60.0], [view.table.width_mm + 60, view.table.length_mm + 60]])
    uv = view.mm_to_view(corners)
    w, h = VIEW_SIZE
    assert (uv >= -0.5).all() and (uv[:, 0] <= w - 0.5).all() and (uv[:, 1] <= h - 0.5).all()
    # a ball spans at least 9 view pixels: the smallest object the network is trained for
    assert view.table.ball_diameter_mm / view.mm_per_px >= 9.0


def test_view_and_table_millimetres_round_trip():
    view = TableView(billiards("snooker").table)
    xy = np.random.default_rng(0).uniform([0, 0], [1778, 3569], size=(50, 2))
    assert np.allclose(view.view_to_mm(view.mm_to_view(xy)), xy, atol=1e-9)
    # the table's long axis runs along the view's width
    a, b = view.mm_to_view(np.array([[889.0, 0.0], [889.0, 3569.0]]))
    assert abs(a[1] - b[1]) < 1e-9 and b[0] - a[0] == pytest.approx(3569.0 / view.mm_per_px)


def _mean_hsv(hsv: np.ndarray, u: int, v: int) -> tuple[float, float, float]:
    """The mean colour of the 3x3 pixels at (u, v). The hue is averaged as an angle: red sits at both ends of
    OpenCV's 0-180 hue, and a plain mean of 1 and 178 would be a blue."""
    patch = hsv[v - 1 : v + 2, u - 1 : u + 2].reshape(-1, 3).astype(float)
    angle = np.radians(patch[:, 0] * 2.0)
    hue = np.degrees(np.arctan2(np.sin(angle).mean(), np.cos(angle).mean())) / 2.0 % 180.0
    return float(hue), float(patch[:, 1].mean()), float(patch[:, 2].mean())


def test_warped_sample_frame_shows_each_ball_at_its_true_place():
    camera = Camera.from_dict(json.loads((SAMPLE / "camera.json").read_text()))
    table = billiards("snooker").table
    view = TableView(table)
    r = table.ball_radius_mm
    warp = view.rectifier(lambda xy: camera.project(np.c_[xy, np.full(len(xy), r)]))
    ok, image = cv2.VideoCapture(str(SAMPLE / "video.mp4")).read()
    assert ok
    top = warp(image)
    assert top.shape[:2] == (VIEW_SIZE[1], VIEW_SIZE[0])
    balls = json.loads((SAMPLE / "frames.jsonl").read_text().splitlines()[0])["balls"]
    hsv = cv2.cvtColor(top, cv2.COLOR_BGR2HSV)
    cloth = float(np.median(hsv[..., 2]))  # the view is mostly cloth; each clip has its own light and cloth
    for ball, want in (("white", "bright"), ("black", "dark"), ("red:4", "red")):
        u, v = np.rint(view.mm_to_view(np.array([balls[ball]["xy_mm"]]))[0]).astype(int)
        hue, sat, val = _mean_hsv(hsv, u, v)
        if want == "bright":
            assert val > cloth + 40 and sat < 90, (ball, hue, sat, val, cloth)
        elif want == "dark":
            assert val < 90, (ball, hue, sat, val)
        else:
            assert (hue < 12 or hue > 165) and sat > 110, (ball, hue, sat, val)
