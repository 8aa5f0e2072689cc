"""A score bar over the table told from one frame once the table is known: a wide, tall stretch that is not
cloth, with a straight, level edge toward the cloth and, on its other side, another such edge or the
table's end. Not a cushion's shadow, an arm, a row of balls, nor the frame cutting the table."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from arbiter.games import billiards
from datasets.billiards.look import ScoreBar
from datasets.billiards.render.graphics import draw_score_bar
from vision.calibration import calibrate_manual
from vision.camera_profile import TableCalibration
from vision.cloth_colour import estimate, working_copy
from vision.score_bar import bar_over_table, unseen_outline

SIZE = (1280, 720)
CORNERS = {"bl": (240.0, 660.0), "br": (1040.0, 660.0), "tr": (860.0, 80.0), "tl": (420.0, 80.0)}
GREEN = (50, 130, 45)


def table(corners: dict[str, tuple[float, float]] = CORNERS) -> tuple[np.ndarray, TableCalibration]:
    """A snooker table seen from behind one end (a broadcast view's trapezoid): the image, its calibration."""
    calib = calibrate_manual(corners, billiards("snooker").table, SIZE)
    cloth = calib.table_mask((SIZE[1], SIZE[0]))
    image = np.full((SIZE[1], SIZE[0], 3), 30, np.uint8)
    image[cv2.dilate(cloth, np.ones((61, 61), np.uint8)) > 0] = (40, 70, 110)  # the rails
    image[cloth > 0] = GREEN
    return image, calib


def draw_bar(image: np.ndarray, box: tuple[int, int, int, int], colour: tuple[int, int, int]) -> None:
    """A score bar (x0, y0, x1, y1) with white letters, round ones among them (they pass for balls)."""
    x0, y0, x1, y1 = box
    cv2.rectangle(image, (x0, y0), (x1, y1), colour, -1)
    for i, x in enumerate(range(x0 + 20, x1 - 30, 34)):
        if i % 2:
            cv2.circle(image, (x + 10, (y0 + y1) // 2), (y1 - y0) // 4, (235, 235, 235), 4)
        else:
            cv2.rectangle(image, (x, y0 + 12), (x + 16, y1 - 12), (235, 235, 235), 3)


def found(image: np.ndarray, calib: TableCalibration) -> np.ndarray | None:
    model = estimate(working_copy(image)[0])
    assert model is not None
    return bar_over_table(image, model, calib)


def covered(polygon: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    out = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(out, [np.round(polygon).astype(np.int32)], 1)
    return out > 0


@pytest.mark.parametrize(
    ("box", "colour"),
    [
        ((330, 600, 1180, 690), (40, 30, 140)),  # over the near cushion, past the table's end and corner
        ((500, 560, 900, 620), (90, 40, 20)),  # floating over the cloth near the end
        ((300, 520, 760, 680), (60, 60, 60)),  # a grey bar over one corner
    ],
)
def test_a_bar_over_the_table_is_found_whole(
    box: tuple[int, int, int, int], colour: tuple[int, int, int]
) -> None:
    image, calib = table()
    draw_bar(image, box, colour)
    bar = found(image, calib)
    assert bar is not None
    mask = calib.table_mask(image.shape)
    got = covered(bar, image.shape) & (mask > 0)
    truth = np.zeros_like(got)
    truth[box[1] : box[3] + 1, box[0] : box[2] + 1] = True
    truth &= mask > 0
    assert (got & truth).sum() >= 0.95 * truth.sum()  # the letters are all inside
    assert (got & ~truth).sum() <= 0.25 * truth.sum()  # and little cloth beyond it (its edge and blur)


def test_a_clean_table_has_no_bar() -> None:
    image, calib = table()
    for x, y in ((600, 300), (640, 400), (500, 640), (700, 120)):  # balls, one against the near cushion
        cv2.circle(image, (x, y), 11, (30, 30, 200), -1)
    band = np.array([[250, 650], [1030, 650], [1040, 660], [240, 660]], np.int32)  # the near cushion's shadow
    cv2.fillPoly(image, [band], (20, 50, 18))
    assert found(image, calib) is None


def test_a_row_of_balls_an_arm_and_a_cue_are_no_bar() -> None:
    image, calib = table()
    for k in range(6):  # the pack's back row: level tops, level bottoms
        cv2.circle(image, (560 + 24 * k, 200), 12, (30, 30, 200), -1)
    arm = np.array([[240, 420], [520, 470], [560, 520], [540, 560], [240, 520]], np.int32)
    cv2.fillPoly(image, [arm], (120, 150, 200))
    cv2.line(image, (500, 350), (900, 330), (120, 200, 230), 5)  # a cue, nearly level
    assert found(image, calib) is None


def test_the_frame_cutting_the_table_is_no_bar() -> None:
    image, calib = table({**CORNERS, "tr": (900.0, -60.0), "tl": (380.0, -60.0)})  # runs off the top
    image[:6, 300:980] = (40, 70, 110)  # the far rail's last pixels, inside the table at the frame's edge
    assert found(image, calib) is None


def test_the_strip_and_a_bar_over_it_are_left_out_as_their_union_not_their_hull() -> None:
    """An end strip whose upper edge slants across the frame and a bar over its left half (a broadcast's
    near end): the cloth seen between the strip's slanted edge and the bar's top stays in view, where a
    red sat just over the bar (seed 9305's second shot)."""
    strip = np.array([[811.0, 684.0], [294.0, 628.0], [307.0, 662.0]])
    bar = np.array([[0.0, 642.0], [691.0, 642.0], [691.0, 720.0], [0.0, 720.0]])
    outline = np.array(unseen_outline(strip, bar), np.float32)
    inside = [
        cv2.pointPolygonTest(outline, p, False) > 0 for p in ((359.0, 634.0), (300.0, 700.0), (700.0, 675.0))
    ]
    assert inside == [False, True, True]  # the red's centre seen; the bar and the strip not
    drawn = np.zeros((720, 1280), np.uint8)
    for part in (strip, bar):
        cv2.fillPoly(drawn, [np.round(part).astype(np.int32)], 1)
    assert cv2.contourArea(outline) == pytest.approx(int(drawn.sum()), rel=0.02)  # their union's area


def test_apart_the_strip_and_a_bar_are_left_out_as_their_hull_and_alone_as_they_are() -> None:
    strip = np.array([[300.0, 600.0], [900.0, 600.0], [900.0, 620.0], [300.0, 620.0]])
    bar = np.array([[0.0, 680.0], [500.0, 680.0], [500.0, 720.0], [0.0, 720.0]])
    hull = np.array(unseen_outline(strip, bar), np.float32)
    assert cv2.pointPolygonTest(hull, (450.0, 650.0), False) > 0  # between them: one polygon round both
    assert unseen_outline(strip, None) == tuple((x, y) for x, y in strip.tolist())
    assert unseen_outline(np.zeros((0, 2)), None) == ()


def test_a_see_through_bar_with_large_letters_over_a_grey_cloth_is_found() -> None:
    """Broadcast 9492's shot 5 (its look: a near-black bar at 0.76 opacity over the near end's right half,
    white letters most of its height, on a grey cloth). Averaged onto the working copy, its letters' rows
    are as grey as the cloth; read as cloth, they left a strip no higher than a ball and no bar was found
    (two of its digits were then followed as balls for the whole shot). The corner's last letters, over the
    throat's edge, may be left out."""
    corners = {"bl": (430.0, 707.0), "br": (863.0, 663.0), "tr": (752.0, 18.0), "tl": (411.0, 39.0)}
    image, calib = table(corners)
    image[calib.table_mask(image.shape) > 0] = (116, 111, 110)  # the grey cloth
    draw_score_bar(image, ScoreBar((0.467, 0.903, 0.978, 0.985), (16, 16, 18), 0.76, "EVANS 9 (84) 92 BRAVO"))
    polygon = found(image, calib)
    assert polygon is not None
    area = np.zeros(image.shape[:2], np.uint8)
    cv2.fillPoly(area, [np.round(calib.outline_px()).astype(np.int32)], 1)
    truth = np.zeros(image.shape[:2], bool)
    truth[650:709, 598:1251] = True  # the bar's box in the frame
    truth &= area > 0
    assert (covered(polygon, image.shape) & truth).sum() >= 0.8 * truth.sum()
