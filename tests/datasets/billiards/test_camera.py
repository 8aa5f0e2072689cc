"""The simulated camera: projection and back-projection invert each other, records round-trip exactly, and a
random camera frames the whole table."""

from __future__ import annotations

import json

import numpy as np
import pytest

from arbiter.games import BILLIARDS_GAMES, billiards
from datasets.billiards.camera import Camera

GAMES = tuple(s.id for s in BILLIARDS_GAMES)

SEEDS = (0, 1, 2, 3)


def _grid(table, n: int = 15) -> np.ndarray:
    xs, ys = np.meshgrid(np.linspace(0, table.width_mm, n), np.linspace(0, table.length_mm, 2 * n))
    return np.stack([xs.ravel(), ys.ravel()], axis=1)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_project_and_px_to_table_invert_each_other(game: str, seed: int) -> None:
    table = billiards(game).table
    cam = Camera.random(table, 1280, 720, np.random.default_rng(seed))
    z = table.ball_radius_mm
    xy = _grid(table)
    px = cam.project(np.c_[xy, np.full(len(xy), z)])
    back = cam.px_to_table(px, z)
    assert np.abs(back - xy).max() < 0.05  # mm
    again = cam.project(np.c_[back, np.full(len(back), z)])
    assert np.abs(again - px).max() < 0.05  # px
    # The fast (raster) path is still far below a pixel.
    assert np.abs(cam.px_to_table(px, z, precise=False) - xy).max() < 0.5


@pytest.mark.parametrize("seed", SEEDS)
def test_record_round_trips_exactly_through_json(seed: int) -> None:
    cam = Camera.random(billiards("snooker").table, 1280, 720, np.random.default_rng(seed))
    again = Camera.from_dict(json.loads(json.dumps(cam.to_dict())))
    assert again == cam
    pts = np.array([[100.0, 200.0, 0.0], [889.0, 1784.5, 26.25]])
    assert np.array_equal(again.project(pts), cam.project(pts))


def test_same_rng_state_gives_the_same_camera() -> None:
    table = billiards("straight-pool").table
    a = Camera.random(table, 1280, 720, np.random.default_rng(7))
    b = Camera.random(table, 1280, 720, np.random.default_rng(7))
    c = Camera.random(table, 1280, 720, np.random.default_rng(8))
    assert a == b
    assert a != c


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("size", [(1280, 720), (640, 480)])
def test_random_camera_frames_corners_and_pockets(game: str, seed: int, size: tuple[int, int]) -> None:
    table = billiards(game).table
    w, h = size
    cam = Camera.random(table, w, h, np.random.default_rng(seed))
    c = table.cushion_width_mm
    corners = [
        (-c, -c),
        (table.width_mm + c, -c),
        (-c, table.length_mm + c),
        (table.width_mm + c, table.length_mm + c),
    ]
    pts = np.array([[x, y, 0.0] for x, y in corners] + [[*p.mouth_xy_mm, 0.0] for p in table.pockets])
    px = cam.project(pts)
    assert np.all(px >= 0) and np.all(px[:, 0] < w) and np.all(px[:, 1] < h)
    # The long axis (y) runs along the image width.
    ends = cam.project(np.array([[table.width_mm / 2, 0.0, 0.0], [table.width_mm / 2, table.length_mm, 0.0]]))
    d = np.abs(ends[1] - ends[0])
    assert d[0] > 5 * d[1]
    # Moderate distortion, principal point near the centre, looking down.
    assert abs(cam.dist[0]) <= 0.08
    assert abs(cam.K[0][2] - w / 2) < 0.05 * w and abs(cam.K[1][2] - h / 2) < 0.05 * h
    assert cam.centre_mm[2] > 1000


def test_apparent_radius_matches_pinhole_scale_near_the_axis() -> None:
    table = billiards("snooker").table
    cam = Camera.random(table, 1280, 720, np.random.default_rng(0))
    r = table.ball_radius_mm
    # The point the optical axis meets the cloth: scale there is f / depth.
    centre_px = np.array([[cam.K[0][2], cam.K[1][2]]])
    xy = cam.px_to_table(centre_px, r)
    p = np.c_[xy, [r]]
    depth = float((cam.rotation @ p[0] + np.asarray(cam.tvec))[2])
    expected = cam.K[0][0] * r / depth
    assert cam.radius_px(p, r)[0] == pytest.approx(expected, rel=0.01)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"K": ((0.0, 0.0, 1.0), (0.0, 1.0, 1.0), (0.0, 0.0, 1.0))}, "focal"),
        ({"dist": (0.0, 0.0, 0.0)}, "dist"),
        ({"width": 0}, "size"),
    ],
)
def test_bad_camera_records_raise(change: dict, message: str) -> None:
    d = Camera.random(billiards("pyramid").table, 320, 240, np.random.default_rng(0)).to_dict()
    d.update(change)
    with pytest.raises(ValueError, match=message):
        Camera.from_dict(d)


def test_record_missing_a_field_raises() -> None:
    d = Camera.random(billiards("pyramid").table, 320, 240, np.random.default_rng(0)).to_dict()
    del d["rvec"]
    with pytest.raises(ValueError, match="rvec"):
        Camera.from_dict(d)
