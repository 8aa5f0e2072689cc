"""The throw clip made from real photos: every throw's truth (faces, thrown and kept dice) travels with
the dice, the dice kept are the ones asked for, and the clip is as long as its throws."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from datasets.dice.real import REAL_ROOT
from datasets.dice.real_clip import SlideshowRecipe, _free_spot, slideshow_clip

needs_real = pytest.mark.skipif(not REAL_ROOT.is_dir(), reason=f"real dice photos not found at {REAL_ROOT}")


@needs_real
def test_a_slideshow_of_real_throws_keeps_its_truth(tmp_path):
    recipe = SlideshowRecipe(photos=2, dice=5, size=(640, 360), hold_s=1.0, fade_s=0.2, slide_s=0.3, fps=15)
    video = slideshow_clip(tmp_path, recipe)
    truth = json.loads((tmp_path / "truth.json").read_text())
    throws = truth["throws"]
    assert len(throws) == 4 and len(truth["photos"]) == 2
    for first, second in zip(throws[::2], throws[1::2], strict=True):
        assert len(first["values"]) == 5 and first["thrown"] == [0, 1, 2, 3, 4]
        assert second["values"] == first["values"] and len(second["thrown"]) == 1  # one slid, four kept
        k = second["thrown"][0]
        assert second["centres_px"][k] != first["centres_px"][k]
        assert [c for i, c in enumerate(second["centres_px"]) if i != k] == [
            c for i, c in enumerate(first["centres_px"]) if i != k
        ]
    frames = int(cv2.VideoCapture(str(video)).get(cv2.CAP_PROP_FRAME_COUNT))
    assert frames == 15 + 2 * (3 + 15 + 4 + 15)  # empty tray; per photo: fade, hold, slide, hold


def test_a_slid_die_stays_a_side_inside_where_the_photo_s_dice_lie():
    """The free place is off the tray's rim and walls: a die's side inside the box round every die of the
    photo, clear of the others by a side; a lone die still has room to go."""
    boxes = [(100.0, 100.0, 120.0, 120.0), (300.0, 200.0, 320.0, 220.0), (180.0, 150.0, 200.0, 170.0)]
    floor = (100.0, 100.0, 320.0, 220.0)
    rng = np.random.default_rng(0)
    for moved in range(3):
        x, y = _free_spot(boxes, moved, rng, floor, (640, 480))
        assert 120 <= x <= 300 and 120 <= y <= 200  # the centre a side inside the box
        others = [((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for i, b in enumerate(boxes) if i != moved]
        assert min(np.hypot(x - ox, y - oy) for ox, oy in others) >= 40
    x, y = _free_spot([(100.0, 100.0, 120.0, 120.0)], 0, rng, (100.0, 100.0, 120.0, 120.0), (640, 480))
    assert np.hypot(x - 110, y - 110) > 20 and 80 <= x <= 140 and 80 <= y <= 140
