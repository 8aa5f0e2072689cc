"""The detector's training set: labels in the table view agree with the truth, tiles cut them cleanly."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from arbiter.balls import APPEARANCE_CLASSES
from arbiter.games import billiards
from datasets.billiards.camera import Camera
from datasets.billiards.detector_data import (
    MIN_BOX_PX,
    TILE,
    DatasetRecipe,
    build,
    second_look_views,
    tile_lines,
    tiles,
)
from datasets.billiards.second_look.pooltool_looks import view_table
from vision.table_view import VIEW_SIZE, TableView


@pytest.fixture(scope="module")
def five_pins_set(tmp_path_factory):
    out = tmp_path_factory.mktemp("detector_data")
    recipe = DatasetRecipe(shots_per_game=1, frames_per_shot=2, val_shots_per_game=1, games=("five-pins",))
    return out, build(recipe, out)


def _labels(out, split):
    rows = []
    for f in sorted((out / "labels" / split).glob("*.txt")):
        rows += [list(map(float, line.split())) for line in f.read_text().splitlines()]
    return np.array(rows)


def test_the_set_has_both_splits_and_every_label_is_a_valid_box(five_pins_set):
    out, counts = five_pins_set
    assert counts["train"]["views"] == 2 and counts["train"]["tiles"] == 4
    assert counts["val"]["views"] == 2
    assert (out / "data.yaml").read_text().count("pin_standing") == 1
    rows = _labels(out, "train")
    assert len(rows) == counts["train"]["boxes"] > 0
    assert set(rows[:, 0].astype(int)) <= set(range(len(APPEARANCE_CLASSES)))
    assert (rows[:, 1:] > 0).all() and (rows[:, 1:3] < 1).all() and (rows[:, 3:] <= 1).all()


def test_balls_are_their_true_size_and_pins_are_labelled(five_pins_set):
    out, _ = five_pins_set
    rows = _labels(out, "train")
    view = TableView(billiards("five-pins").table)
    pin_classes = {APPEARANCE_CLASSES.index("pin_standing"), APPEARANCE_CLASSES.index("pin_down")}
    balls = rows[[int(c) not in pin_classes for c in rows[:, 0]]]
    whole = balls[(balls[:, 3] * TILE > MIN_BOX_PX - 1) & (balls[:, 4] * VIEW_SIZE[1] > MIN_BOX_PX - 1)]
    side = max(view.table.ball_diameter_mm / view.mm_per_px, MIN_BOX_PX)  # true size, or the minimum box
    assert len(whole) and np.allclose(whole[:, 3] * TILE, side, rtol=0.02)
    assert any(int(c) in pin_classes for c in rows[:, 0])


def test_a_box_cut_by_a_tile_edge_is_kept_only_if_mostly_inside():
    height = VIEW_SIZE[1]
    left, right = tiles(VIEW_SIZE[0])
    assert left == 0 and right == VIEW_SIZE[0] - TILE
    boxes = [(0, TILE - 4.0, 100.0, TILE + 6.0, 110.0), (1, TILE - 8.0, 200.0, TILE + 2.0, 210.0)]
    kept = tile_lines(boxes, 0, height)
    assert [int(line.split()[0]) for line in kept] == [1]


def test_second_look_views_are_rectified_and_labelled_from_their_truth(tmp_path: Path) -> None:
    """A pooltool view (here a blank image with its truth) becomes a table view with a box per ball seen."""
    table = view_table("snooker", 1746.5, 3544.5, 52.5, 36.0)
    cam = Camera.random(table, 960, 540, np.random.default_rng(2))
    r = table.ball_radius_mm
    balls = [("white", "white", (400.0, 900.0)), ("red_03", "red", (1200.0, 2500.0))]
    cv2.imwrite(str(tmp_path / "v.jpg"), np.full((540, 960, 3), 90, np.uint8))
    record = {
        "image": "v.jpg",
        "kind": "snooker",
        "game": "snooker",
        "table": {
            "width_mm": 1746.5,
            "length_mm": 3544.5,
            "ball_diameter_mm": 2 * r,
            "cushion_height_mm": 36.0,
        },
        "view": "overhead",
        "camera": cam.to_dict(),
        "projection_check_px": 0.0,
        "balls": [{"id": i, "cls": c, "xy_mm": list(xy)} for i, c, xy in balls],
    }
    (tmp_path / "v.json").write_text(json.dumps(record))
    recipe = DatasetRecipe(second_look=str(tmp_path))
    ((name, image, boxes, quality),) = list(second_look_views(recipe, tmp_path))
    view = TableView(table)
    assert name == "pooltool_v" and image.shape[:2] == view.size[::-1] and quality == 95
    assert [b[0] for b in boxes] == [APPEARANCE_CLASSES.index("white"), APPEARANCE_CLASSES.index("red")]
    centres = np.array([[(b[1] + b[3]) / 2, (b[2] + b[4]) / 2] for b in boxes])
    placed = view.view_to_mm(centres)
    assert np.all(np.linalg.norm(placed - np.array([xy for _, _, xy in balls]), axis=1) < 30.0)
