"""A broadcast's score bar over the bottom cushion in the first calibration (issue 10: "a score bar over a
cushion: the cushion is still found"). A bar over most of the cushion's middle spoils a fit that takes its
edge for the cushion; the first calibration masks the graphics it learns from the cuts of the first seconds
(``pipeline.table_watch``), and the sides are fitted beside a masked graphic (``vision.table_lines``), so the
table is found within 1 %."""

from __future__ import annotations

import functools
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from arbiter.games import billiards
from datasets.billiards.camera import Camera
from datasets.billiards.look import Look
from datasets.billiards.render import TableRenderer
from datasets.billiards.scene import BallState, SceneSample
from evaluation.real_tables import corner_error
from pipeline.billiards import RunOptions, may_lie, referee_video
from vision.calibration import calibrate_auto
from vision.sources import FrameSource
from vision.video import VideoWriter

SPEC = billiards("snooker")
TABLE = SPEC.table
W, H, FPS = 960, 540, 30.0
BALLS = (
    BallState("white", (900.0, 700.0), False),
    BallState("red:2", (1200.0, 2400.0), False),
    BallState("black", TABLE.spots["black"], False),
)
BAR_PX, BAR_SPAN = 40, (0.2, 0.8)  # a bar 40 px high over the middle 60 % of the frame's width


@functools.cache
def camera(seed: int) -> Camera:
    return Camera.random(TABLE, W, H, np.random.default_rng(seed))


@functools.cache
def view(seed: int) -> np.ndarray:
    renderer = TableRenderer(SPEC, camera(seed), replace(Look(), cue=None, arm=None), seed=5, clip_s=0.1)
    return renderer.render([SceneSample(0.0, BALLS)]).image


def bar_box(seed: int) -> tuple[int, int, int, int]:
    """The score bar's box (x0, y0, x1, y1), centred on the bottom cushion's nose where the image shows it."""
    corners = camera(seed).project(
        np.array([[0, 0, 0], [TABLE.width_mm, 0, 0], [0, TABLE.length_mm, 0]], float)
    )
    bottom = int(max(corners[:, 1]))
    return int(BAR_SPAN[0] * W), bottom - BAR_PX // 2, int(BAR_SPAN[1] * W), bottom + BAR_PX // 2


def with_bar(image: np.ndarray, seed: int) -> np.ndarray:
    x0, y0, x1, y1 = bar_box(seed)
    out = image.copy()
    out[y0:y1, x0:x1] = (70, 25, 20)
    cv2.putText(out, "ALPHA 45 (87) 12 BRAVO", (x0 + 10, y0 + 26), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255,) * 3)
    return out


def crowd() -> np.ndarray:
    """A cut away from the table (the crowd, a player's face): a picture of other colours everywhere."""
    rng = np.random.default_rng(0)
    field = cv2.resize(
        rng.integers(60, 230, (9, 16, 3), dtype=np.uint8), (W, H), interpolation=cv2.INTER_CUBIC
    )
    return cv2.GaussianBlur(field, (0, 0), 3)


def error(seed: int, points: dict[str, tuple[float, float]]) -> float:
    truth_mm = {"bl": (0, 0), "br": (TABLE.width_mm, 0), "tr": (TABLE.width_mm, TABLE.length_mm),
                "tl": (0, TABLE.length_mm)}  # fmt: skip
    px = camera(seed).project(np.array([[x, y, 0.0] for x, y in truth_mm.values()]))
    truth = {k: (float(p[0]), float(p[1])) for k, p in zip(truth_mm, px, strict=True)}
    return corner_error(points, truth, TABLE.length_mm / TABLE.width_mm, either_end=True)


@pytest.mark.parametrize("seed", [3, 11])
def test_with_the_bar_masked_the_cushion_beside_it_is_found_within_1_percent(seed: int) -> None:
    x0, y0, x1, y1 = bar_box(seed)
    mask = np.zeros((H, W), np.uint8)
    mask[y0 - 2 : y1 + 2, x0 - 2 : x1 + 2] = 255
    calib = calibrate_auto(with_bar(view(seed), seed), TABLE, ignore=mask)
    assert calib.sure, calib.verdict.message()
    assert error(seed, calib.points) <= 0.01


def test_the_first_calibration_masks_the_graphics_learnt_from_the_first_cuts(tmp_path: Path) -> None:
    """Main camera, a cut to the crowd, the main camera again, the bar over every picture: the run's
    calibration, made on the main camera after the cut has shown what stays put, is sure and within 1 %."""
    seed = 11
    main = with_bar(view(seed), seed)
    close_up = with_bar(crowd(), seed)
    unmasked = calibrate_auto(main, TABLE)
    assert not unmasked.sure or error(seed, unmasked.points) > 0.01  # the bar spoils the fit on its own
    with VideoWriter(tmp_path / "clip.mp4", W, H, FPS) as video:
        for image in [main] * 15 + [close_up] * 20 + [main] * 40:
            video.write(image)
    result = referee_video(
        FrameSource(tmp_path / "clip.mp4"), RunOptions(spec=SPEC, annotate=False), tmp_path / "out"
    )
    calib = result.calibration
    assert calib is not None and calib.sure, [n.text for n in result.notices]
    assert error(seed, calib.points) <= 0.01
    assert not [n for n in result.notices if n.kind == "unsure"]


def test_a_detection_where_no_ball_s_centre_can_lie_is_no_ball():
    """A score bar's letter beside the table, placed 35 mm past the top cushion's nose (seed 9306's shot 1:
    read as the white, it held the white there while the real one rolled), is no ball; a ball against a
    cushion placed a little past its nose by the calibration, one dropping into a corner pocket, one in a
    middle pocket's mouth and an unplaced detection are kept."""
    table = billiards("snooker").table
    r, w, length = table.ball_radius_mm, table.width_mm, table.length_mm
    xy = np.array(
        [
            [1194.0, length + 35.0],  # the letter
            [600.0, length + 0.6 * r],  # against the top cushion, the calibration 15 mm off
            [-20.0, -20.0],  # dropping into the bottom-left pocket
            [w + 30.0, length / 2],  # in the middle right pocket's mouth
            [np.nan, np.nan],
            [-2 * r, length / 3],  # past the left cushion, between pockets: no ball
        ]
    )
    assert may_lie(table, xy).tolist() == [False, True, True, True, True, False]
