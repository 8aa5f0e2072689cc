"""``arbiter eval cross-look``: the detectors scored on pooltool's own renders, and the views behind it."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from arbiter.balls import APPEARANCE_CLASSES
from arbiter.games import billiards
from cli.main import app
from datasets.billiards.camera import BroadcastRanges, broadcast_camera
from datasets.billiards.second_look.pooltool_looks import (
    KINDS,
    PooltoolView,
    TrueBall,
    arbiter_id,
    ball_class,
    read_views,
)
from evaluation.cross_look import (
    Counts,
    CrossLookReport,
    Truth,
    evaluate_cross_look,
    format_report,
    generate_views,
    score_frame,
    view_truth,
)
from vision.types import Detections

HAS_POOLTOOL = all(importlib.util.find_spec(m) is not None for m in ("pooltool", "panda3d"))
RED, WHITE = APPEARANCE_CLASSES.index("red"), APPEARANCE_CLASSES.index("white")


def test_pooltool_ids_name_arbiter_balls_and_classes() -> None:
    assert arbiter_id("snooker", "red_07") == "red:7"
    assert ball_class("snooker", "red_07") == "red"
    assert ball_class("pool", "cue") == "white" and ball_class("pool", "9") == "pool_9"
    assert ball_class("carom", "yellow") == "yellow"
    assert {k.game for k in KINDS.values()} == {"snooker", "straight-pool", "five-pins"}


def test_score_frame_counts_found_false_and_spares_the_balls_not_required() -> None:
    truth = Truth(
        xy_px=np.array([[100.0, 100.0], [200.0, 100.0], [300.0, 100.0]]),
        radius_px=np.full(3, 10.0),
        cls=np.array([RED, WHITE, RED]),
        required=np.array([True, True, False]),
    )
    det = Detections(
        xy_px=np.array([[102.0, 99.0], [203.0, 100.0], [301.0, 100.0], [500.0, 500.0]]),
        radius_px=np.full(4, 10.0),
        cls=np.array([RED, RED, RED, WHITE]),
        confidence=np.ones(4),
    )
    c = score_frame(det, truth)
    assert (c.truth, c.found, c.detections, c.false, c.class_right) == (2, 2, 3, 1, 1)
    d = c.as_dict()
    assert d["recall"] == 1.0 and d["precision"] == pytest.approx(2 / 3) and d["class_right"] == 0.5


def test_a_ball_behind_the_near_cushion_is_not_required() -> None:
    table = billiards("snooker").table
    ranges = BroadcastRanges(tilt_deg=(66.0, 68.0), far_end_probability=0.0, side_deg=0.0, yaw_deg=0.0)
    cam = broadcast_camera(table, 1280, 720, np.random.default_rng(4), ranges)
    r = table.ball_radius_mm
    balls = (
        TrueBall("red_01", "red", (table.width_mm / 2, table.length_mm / 2)),
        TrueBall("red_02", "red", (table.width_mm * 0.3, r * 0.2)),  # in the near cushion's shadow
    )
    view = PooltoolView("v", Path("v.jpg"), "snooker", "snooker", "broadcast", cam, table, balls, 0.0)
    truth = view_truth(view)
    assert truth.required.tolist() == [True, False]


def test_report_groups_by_view_and_kind(tmp_path: Path) -> None:
    table = billiards("snooker").table
    cam = broadcast_camera(table, 1280, 720, np.random.default_rng(0))
    view = PooltoolView("v", Path("v.jpg"), "snooker", "snooker", "broadcast", cam, table, (), 0.0)
    report = CrossLookReport("m.onnx", views=1)
    report.add("yolo", view, Counts(truth=4, found=3, detections=3, class_right=3, frames=1))
    text = format_report(report)
    assert "| yolo | broadcast (1) | 4 | 75.0 % | 100.0 % | 100.0 % |" in text
    assert "kind:snooker" in text and json.loads(json.dumps(report.to_dict()))["views"] == 1


def test_cli_says_when_the_cache_folder_is_empty(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["eval", "cross-look", "--views", str(tmp_path)])
    assert result.exit_code != 0
    assert "no pooltool views" in result.output and "--generate" in result.output


@pytest.mark.slow
@pytest.mark.skipif(
    not HAS_POOLTOOL, reason="pooltool's renderer needs the physics extra (pooltool, panda3d)"
)
def test_a_pooltool_view_renders_with_exact_truth_and_is_scored(tmp_path: Path) -> None:
    generate_views(tmp_path, scenes=1, views=1, first=3, log=lambda m: None)
    (view,) = read_views(tmp_path)
    assert view.image_path.exists() and view.balls
    assert view.projection_check_px < 0.05  # the OpenCV camera is panda3d's lens, to a twentieth of a pixel
    assert view.view in ("overhead", "broadcast")
    report = evaluate_cross_look(tmp_path).to_dict()
    assert set(report["detectors"]) == {"yolo", "classical"}
    assert report["detectors"]["yolo"]["all"]["frames"] == 1
    assert report["detectors"]["yolo"]["all"]["truth"] > 0
