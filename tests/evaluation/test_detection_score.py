"""The detection scorer of ``arbiter eval shots``: a ball found in its own blur counts as found, not named."""

from __future__ import annotations

import numpy as np

from arbiter.balls import APPEARANCE_CLASSES
from arbiter.games import billiards
from evaluation.scoring import DetectionScore
from vision.types import Detections

WHITE, PINK = APPEARANCE_CLASSES.index("white"), APPEARANCE_CLASSES.index("pink")


def _ball(xy, moving):
    return {"xy_px": list(xy), "radius_px": 10.0, "moving": moving, "hidden": False}


def test_a_ball_found_as_a_streak_is_found_but_not_named() -> None:
    score = DetectionScore(billiards("snooker"))
    record = {"balls": {"white": _ball((100, 100), False), "pink": _ball((300, 200), True)}}
    found = Detections(
        np.array([[101.0, 100.0], [303.0, 201.0]]), np.full(2, 10.0), np.array([WHITE, WHITE]),
        np.array([0.9, 0.35]), blurred=np.array([False, True]),
    )  # fmt: skip
    score.add_frame(record, found)
    moving = score.as_dict()["moving"]
    assert moving["recall"] == 1.0 and moving["precision"] == 1.0
    assert moving["found_blurred"] == 1 and moving["class_accuracy"] is None  # none of it named
    assert score.as_dict()["rest"]["class_accuracy"] == 1.0
