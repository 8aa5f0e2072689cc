"""The detector's training set: labels in the table view agree with the truth, tiles cut them cleanly."""

from __future__ import annotations

import numpy as np
import pytest

from arbiter.balls import APPEARANCE_CLASSES
from arbiter.games import billiards
from datasets.billiards.detector_data import MIN_BOX_PX, TILE, DatasetRecipe, build, tile_lines, tiles
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
