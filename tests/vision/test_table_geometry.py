"""What four corners say before any camera: the view's focal length and the table's shape, which end is
the bottom, how far a pixel reaches at the far end, and the table's size from its balls (measured by
``vision.ball_size``: tests/vision/test_ball_size.py)."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from arbiter.games import billiards
from vision.table_geometry import (
    NOSE_REACH_MM,
    choose_size,
    corner_resolution,
    marking_evidence,
    name_corners,
    nose_reach_px,
    oblique,
    plane_view,
    too_close_to_tell,
    top_view,
    turned,
)

SIZE = (1280, 720)


def seen(f: float, tilt_deg: float, aspect: float = 2.0, pan_deg: float = 0.0) -> np.ndarray:
    """A table's four corners (quad order) seen by a pinhole ``f`` px, tilted ``tilt_deg`` about the
    table's x and panned ``pan_deg`` about the camera's y."""
    rot = (
        cv2.Rodrigues(np.array([0.0, math.radians(pan_deg), 0.0]))[0]
        @ cv2.Rodrigues(np.array([math.radians(tilt_deg), 0.0, 0.0]))[0]
    )
    table = np.array([[-aspect, -1, 0], [aspect, -1, 0], [aspect, 1, 0], [-aspect, 1, 0]], float) * 500
    cam = (table @ rot.T) + [0, 0, 4000]
    return cam[:, :2] / cam[:, 2:] * f + [SIZE[0] / 2, SIZE[1] / 2]


def test_a_tilted_view_gives_its_focal_length_and_the_tables_shape() -> None:
    view = plane_view(seen(1000.0, 30.0, pan_deg=15.0), SIZE)
    assert view.f_px == pytest.approx(1000.0, rel=0.02)
    assert max(view.aspect, 1 / view.aspect) == pytest.approx(2.0, rel=0.02)


def test_a_view_square_to_the_table_cannot_tell_its_focal_length() -> None:
    """A broadcast camera without roll: one vanishing point at infinity; a typical lens is assumed."""
    assert plane_view(seen(1000.0, 30.0), SIZE).f_px is None


def test_a_straight_down_view_keeps_its_shape_without_a_focal_length() -> None:
    view = plane_view(seen(1000.0, 0.0), SIZE)
    assert view.f_px is None
    assert max(view.aspect, 1 / view.aspect) == pytest.approx(2.0, rel=0.01)


def test_a_focal_length_shorter_than_any_camera_s_is_not_told() -> None:
    """A broadcast view behind one end (seed 10000's shot 18): its ends nearly parallel, a pixel swings their
    vanishing point to a focal length of a quarter of the frame's width, no camera's, whose aspect (0.86)
    made the long sides short; not told, a typical lens keeps the long sides long."""
    quad = np.array([[118.7, 599.4], [407.8, 102.3], [882.7, 109.1], [1160.0, 615.8]])
    view = plane_view(quad, SIZE)
    assert view.f_px is None
    named = name_corners(quad, view)
    assert abs(named["bl"][1] - named["br"][1]) < 20  # an end runs across the view, a long side up it


@pytest.mark.parametrize(
    ("quad", "bottom_is"),
    [
        (np.array([[100, 100], [1100, 100], [1100, 600], [100, 600]], float), "left"),  # along the width
        (np.array([[500, 50], [800, 50], [800, 650], [500, 650]], float), "bottom"),  # along the height
    ],
)
def test_the_bottom_end_by_convention(quad: np.ndarray, bottom_is: str) -> None:
    named = name_corners(quad, plane_view(quad, SIZE))
    bottom = (named["bl"] + named["br"]) / 2
    top = (named["tl"] + named["tr"]) / 2
    if bottom_is == "left":
        assert bottom[0] < top[0]
    else:
        assert bottom[1] > top[1]
    # standing at the bottom looking up the table, bl is on the left (seen from above, with image y down)
    up, across = top - bottom, named["br"] - named["bl"]
    assert up[0] * across[1] - up[1] * across[0] > 0
    assert turned(turned(named))["bl"] is named["bl"]


def test_the_far_end_of_a_tilted_view_is_coarser() -> None:
    flat, tilted = seen(1000.0, 0.0), seen(1000.0, 50.0)
    names = ("bl", "br", "tr", "tl")
    assert corner_resolution(dict(zip(names, tilted, strict=True)), 2.0) > 1.5 * corner_resolution(
        dict(zip(names, flat, strict=True)), 2.0
    )
    assert oblique(tilted) and not oblique(flat)


def drawn_table(balls_per_length: float, baulk_from_bottom: float | None = None) -> np.ndarray:
    """A top view of a green bed 1000 px long with round balls and, optionally, a chalk line."""
    view = np.full((1000, 500, 3), (40, 110, 30), np.uint8)
    r = 1000 / balls_per_length / 2
    for k, (x, y) in enumerate([(100, 150), (250, 300), (400, 450), (120, 700), (380, 820), (250, 600)]):
        colour = [(30, 30, 200), (20, 200, 230), (240, 240, 240), (20, 20, 20), (200, 60, 20), (30, 30, 200)][
            k
        ]
        cv2.circle(view, (x, y), round(r), colour, -1, cv2.LINE_AA)
    if baulk_from_bottom is not None:
        y = round(1000 * (1 - baulk_from_bottom))
        cv2.line(view, (0, y), (499, y), (230, 230, 230), 2)
    return view


def test_the_game_s_own_size_is_kept_within_what_a_ball_is_measured_to() -> None:
    """Balls 5 % off the game's own size keep it; 20 % off, the nearest size is named, and one too close
    to the game's own to tell apart (10 ft beside 12 ft) is doubted by the calibration (SIZE_TOO_CLOSE)."""
    snooker, pool = billiards("snooker").table, billiards("straight-pool").table
    assert choose_size(snooker, 1 / 65.0).size.name == "12ft"
    assert choose_size(pool, 1 / 42.5).size.name == "9ft"
    choice = choose_size(snooker, 1 / 57.0)
    assert choice.size.name == "10ft" and too_close_to_tell(snooker.table_size("12ft"), choice.size)
    assert choose_size(pool, 1 / 35.8).size.name == "7ft"  # a pooltool render of a 7 ft table


def test_the_nearest_size_is_named_where_the_game_s_own_is_kept() -> None:
    """Balls that measure an 8 ft pool table keep the game's own 9 ft (within what a ball is measured to)
    but name 8 ft as the nearest, for the calibration to doubt: the two cannot be told apart."""
    pool = billiards("straight-pool").table
    choice = choose_size(pool, 1 / 41.0)  # 8 ft: 40.9 diameters long, 9 ft: 44.4
    assert choice.size.name == "9ft" and choice.nearest is not None and choice.nearest.name == "8ft"
    assert choose_size(pool, None).nearest is None


def test_sizes_the_balls_cannot_tell_apart() -> None:
    """Calibration takes the game's own size, unsure, when the balls say one of these (vision.calibration)."""
    snooker, pool = billiards("snooker").table, billiards("straight-pool").table
    assert too_close_to_tell(snooker.table_size("12ft"), snooker.table_size("10ft"))
    assert too_close_to_tell(pool.table_size("9ft"), pool.table_size("8ft"))
    assert not too_close_to_tell(snooker.table_size("12ft"), snooker.table_size("6ft"))
    assert not too_close_to_tell(pool.table_size("9ft"), pool.table_size("7ft"))
    assert not too_close_to_tell(snooker.table_size("12ft"), snooker.table_size("12ft"))


def test_a_measure_between_two_near_sizes_names_both_even_where_the_nearest_is_the_game_s_own() -> None:
    """An 11 ft pyramid table (48.5 balls long) whose balls read 4 % small measures 50.7 balls long, nearest
    the game's 12 ft (52.5): both lie within what a ball is measured to, so both are named, for the
    calibration to doubt; a measure on a size alone names only it."""
    pyramid = billiards("pyramid").table
    per_ball = pyramid.ball_diameter_mm
    between = choose_size(pyramid, 1 / (3300.0 / per_ball * 1.045))
    assert between.size.name == between.nearest.name == "12ft"  # type: ignore[union-attr]
    assert sorted(s.name for s in between.within_band) == ["11ft", "12ft"]
    assert [s.name for s in choose_size(pyramid, 1 / (3569.0 / per_ball)).within_band] == ["12ft"]
    assert choose_size(pyramid, None).within_band == ()


@pytest.mark.parametrize("game", ["snooker", "five-pins"])
def test_a_one_ended_line_tells_the_bottom_end(game: str) -> None:
    table = billiards(game).table
    one_ended = next(ln.y_mm / table.length_mm for ln in table.lines if ln.name in ("baulk", "lag"))
    view = drawn_table(68.0, baulk_from_bottom=one_ended)
    assert marking_evidence(view, table) > 4
    assert marking_evidence(view[::-1].copy(), table) < -4


def test_pool_strings_mirror_each_other_and_tell_nothing() -> None:
    table = billiards("straight-pool").table
    assert marking_evidence(drawn_table(44.0, baulk_from_bottom=0.25), table) == 0.0


def test_the_top_view_puts_the_bottom_cushion_at_the_bottom() -> None:
    image = np.zeros((720, 1280, 3), np.uint8)
    corners = {"bl": np.array([100.0, 600]), "br": np.array([100.0, 100]), "tr": np.array([1100.0, 100])}
    corners["tl"] = np.array([1100.0, 600])
    cv2.circle(image, (150, 350), 20, (255, 255, 255), -1)  # near the bottom cushion
    view = top_view(image, corners, 2.0)
    assert view.shape[:2] == (1000, 500)
    ys = np.nonzero(view[..., 0] > 128)[0]
    assert ys.mean() > 900


def test_a_nose_is_looked_for_no_farther_in_than_a_cushion_or_so_and_less_far_where_the_end_is_far() -> None:
    """Straight down on an outline 0.25 px per mm, a nose may be up to NOSE_REACH_MM in: the same number of
    px on every side; seen at a slant, fewer px on the far side than on the near one."""
    table = billiards("snooker").table
    c = table.cushion_width_mm
    long, wide = table.length_mm + c, table.width_mm + c
    outer = np.array([[-c, -c], [long, -c], [long, wide], [-c, wide]])
    flat = outer * 0.25 + 100.0
    reach = nose_reach_px(flat, plane_view(flat, SIZE), table)
    np.testing.assert_allclose(reach, NOSE_REACH_MM * 0.25, rtol=1e-3)
    tilted = seen(1000.0, 55.0)  # the quad's side 0 is the long side nearer the camera, side 2 the farther
    reach = nose_reach_px(tilted, plane_view(tilted, SIZE), table)
    assert reach[0] > 1.3 * reach[2]
