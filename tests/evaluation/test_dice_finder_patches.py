"""The finder's training patches: shrunk as the run-time input is (area-averaged), with their boxes where
the dice are drawn, stretched as exports at another shape draw them. The module needs torch (train extra)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

pytest.importorskip("torch", reason="the finder's training needs torch (pip install -e '.[train]')")

from evaluation.dice_recipes import FinderRecipe
from evaluation.train_dice_finder import area_warp, finder_sample


def _shrink(scale: float, turn: float = 5.0) -> np.ndarray:
    m = np.asarray(cv2.getRotationMatrix2D((800.0, 600.0), turn, scale), np.float64)
    m[:, 2] += 128 - np.array([800.0, 600.0])
    return m


def test_a_shrunk_patch_averages_a_fine_texture_as_the_run_time_input_does():
    checkers = (np.indices((1200, 1600)).sum(0) % 2 * 255).astype(np.uint8)[..., None].repeat(3, 2)
    m = _shrink(0.3)
    averaged = area_warp(checkers, m, 256, (0, 0, 0))
    sampled = cv2.warpAffine(checkers, m, (256, 256), flags=cv2.INTER_LINEAR)
    assert averaged.std() < 5 < 30 < sampled.std()
    assert abs(float(averaged.mean()) - 127.5) < 3


@pytest.mark.parametrize("scale", [0.3, 1.2])
def test_a_patch_draws_a_point_where_the_affine_puts_it(scale):
    image = np.zeros((1200, 1600, 3), np.uint8)
    cv2.circle(image, (850, 640), 20, (255, 255, 255), -1)
    m = _shrink(scale)
    patch = area_warp(image, m, 256, (0, 0, 0))
    ys, xs = np.nonzero(patch[..., 0] > 100)
    assert np.allclose([xs.mean(), ys.mean()], m[:, :2] @ [850, 640] + m[:, 2], atol=1.0)


def test_a_stretched_patch_keeps_its_box_on_the_die():
    image = np.zeros((600, 800, 3), np.uint8)
    cv2.rectangle(image, (380, 280), (419, 319), (255, 255, 255), -1)
    recipe = replace(FinderRecipe(), max_turn_deg=0.0, max_stretch=1.5, scale_range=(1.0, 1.0), die_share=1.0)
    rng = np.random.default_rng(3)
    shapes = []
    for _ in range(12):
        x, boxes = finder_sample(image, np.array([[3, 380, 280, 420, 320]], np.float32), recipe, rng)
        (x0, y0, x1, y1) = boxes[0]  # the die is what is bright near its box, whatever the light
        grey = (x.transpose(1, 2, 0).mean(2) * 255).astype(np.uint8)
        around = grey[max(0, int(y0) - 8) : int(y1) + 9, max(0, int(x0) - 8) : int(x1) + 9]
        ys, xs = np.nonzero(around > (int(around.min()) + int(around.max())) / 2)
        ys, xs = ys + max(0, int(y0) - 8), xs + max(0, int(x0) - 8)
        assert abs(xs.mean() - (x0 + x1) / 2) < 2 and abs(ys.mean() - (y0 + y1) / 2) < 2
        shapes.append((x1 - x0) / (y1 - y0))
    assert min(shapes) < 0.9 and max(shapes) > 1.1
