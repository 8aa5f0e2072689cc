"""The learned detector at run time: the committed ONNX model finds the sample's balls where the truth is."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from arbiter.balls import APPEARANCE_CLASSES
from arbiter.games import billiards
from vision.calibration import calibrate_auto
from vision.detectors import build_detector
from vision.yolo import DEFAULT_MODEL, ModelError, OnnxNetwork, letterbox

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "billiards" / "snooker" / "shot_000"


def test_a_missing_or_corrupt_model_is_refused_with_what_to_do(tmp_path):
    with pytest.raises(ModelError, match="arbiter train detector"):
        OnnxNetwork(tmp_path / "nothing.onnx")
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not a network")
    with pytest.raises(ModelError, match="could not be loaded"):
        OnnxNetwork(bad)


def test_letterbox_keeps_the_aspect_and_pads_to_the_network_stride():
    image = np.zeros((1080, 1920, 3), np.uint8)
    out, scale = letterbox(image, 1280)
    assert out.shape == (736, 1280, 3) and scale == pytest.approx(1280 / 1920)


def test_the_committed_model_ships_with_its_record():
    assert DEFAULT_MODEL.exists(), "models/billiards_yolo11n.onnx is part of the repository"
    record = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())
    assert record["classes"] == list(APPEARANCE_CLASSES)
    assert record["command"].startswith("arbiter train detector")
    assert DEFAULT_MODEL.stat().st_size < 20 * 2**20


@pytest.fixture(scope="module")
def sample_calibration():
    ok, image = cv2.VideoCapture(str(SAMPLE / "video.mp4")).read()
    assert ok
    return calibrate_auto(image, billiards("snooker").table)


def _matched_to_truth(frame_index: int, calib) -> tuple[int, int, int, int]:
    """On one frame of the sample: the balls in play the detector found within a radius of their true place,
    how many of those it gave the right colour class, how many it detected, and how many are in play."""
    cap = cv2.VideoCapture(str(SAMPLE / "video.mp4"))
    cap.set(cv2.CAP_PROP_POS_FRAMES, frame_index)
    ok, image = cap.read()
    assert ok
    truth = json.loads((SAMPLE / "frames.jsonl").read_text().splitlines()[frame_index])["balls"]
    visible = {b: v["xy_mm"] for b, v in truth.items() if not v["pocketed"] and not v["hidden"]}
    dets = build_detector("yolo", billiards("snooker"), calib, image.shape).detect(image)
    radius = billiards("snooker").table.ball_radius_mm
    found, right_colour = 0, 0
    for ball, xy in visible.items():
        d = np.hypot(*(dets.xy_mm - np.array(xy)).T) if len(dets) else np.array([np.inf])
        k = int(np.argmin(d))
        if d[k] <= radius:
            found += 1
            right_colour += APPEARANCE_CLASSES[dets.cls[k]] == billiards("snooker").look(ball).cls
    return found, right_colour, len(dets), len(visible)


# The sample is a break-off: frame 150 has the reds still rolling after it, the last frame (311) all at rest.
@pytest.mark.parametrize("frame_index", [150, 311])
def test_the_sample_balls_are_found_on_the_table_with_their_colours(frame_index, sample_calibration):
    found, right_colour, detections, visible = _matched_to_truth(frame_index, sample_calibration)
    # measured: 19 of 22 on frame 150, 18 of 21 on the last (two touching reds and the green are missed)
    assert found >= 0.85 * visible, (found, visible)
    assert right_colour >= 0.85 * found  # measured: 17 of 19 and 16 of 18 (brown and black are the hard ones)
    assert detections <= visible + 1


RACKED = "known weakness: the fifteen racked reds, all touching, are not told apart"


@pytest.mark.xfail(strict=True, reason=RACKED)
def test_the_racked_pack_of_the_first_frame_is_found(sample_calibration):
    found, _, _, visible = _matched_to_truth(0, sample_calibration)
    assert found >= 0.85 * visible, (found, visible)  # measured: 9 of 22 (the classical detector: 22 of 22)


def test_an_unknown_detector_is_refused_naming_the_choices(sample_calibration):
    with pytest.raises(ValueError, match="unknown detector 'hough'; choose one of: classical, yolo"):
        build_detector("hough", billiards("snooker"), sample_calibration, (1080, 1920, 3))


def test_the_classical_detector_reads_pins_only_on_a_table_with_pins(sample_calibration):
    """The network looks for pins everywhere; the classical detector only on a five-pins table's spots
    (``vision.pin_looks``, tested in ``tests/vision/test_pin_looks.py``)."""
    ok, image = cv2.VideoCapture(str(SAMPLE / "video.mp4")).read()
    assert ok
    classical = build_detector("classical", billiards("snooker"), sample_calibration, image.shape)
    classical.detect(image)
    assert not classical.sees_pins and len(classical.last_pins.xy_mm) == 0
    assert build_detector("yolo", billiards("snooker"), sample_calibration, image.shape).sees_pins
