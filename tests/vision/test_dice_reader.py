"""The dice reader's run-time parts without its networks: crops from the full-resolution frame, the finder's
heatmap turned into boxes, the face reader's box in its crop, readings, and the gate that skips frames
that did not change."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.dice import (
    READER_CLASSES,
    DiceReaderConfig,
    jittered_boxes,
    pool_finds,
    reading_confidence,
    reading_unsure,
    readings_from,
)
from vision.dice_crops import CROP, MARGIN, box_from, box_target, crop_batch, crop_square
from vision.dice_finder import STRIDE, decode, finder_input, iou_matrix, nms
from vision.dice_motion import ChangeGate, GateConfig


def test_a_crop_is_the_square_round_the_box_with_its_margin():
    image = np.zeros((200, 300, 3), np.uint8)
    cv2.rectangle(image, (100, 50), (139, 89), (255, 255, 255), -1)  # a 40 px white die
    crop = crop_square(image, (100.0, 50.0, 140.0, 90.0))
    assert crop.shape == (CROP, CROP, 3)
    inside = crop[:, :, 0] > 127
    side = inside.sum(1).max()  # the die fills 1/MARGIN of the crop
    assert abs(side - CROP / MARGIN) <= 2
    batch = crop_batch(image, np.array([[100.0, 50.0, 140.0, 90.0]] * 2))
    assert batch.shape == (2, 3, CROP, CROP) and batch.dtype == np.float32 and batch.max() <= 1.0


def test_a_big_crop_is_area_averaged_not_aliased():
    rng = np.random.default_rng(0)
    noise = rng.integers(0, 2, (800, 800), dtype=np.uint8) * 255  # one-pixel salt and pepper
    image = cv2.cvtColor(noise, cv2.COLOR_GRAY2BGR)
    crop = crop_square(image, (100.0, 100.0, 700.0, 700.0))
    assert abs(float(crop.mean()) - 127.5) < 10 and float(crop.std()) < 25  # averaged to grey


@pytest.mark.parametrize("shift", [(0.0, 0.0), (6.0, -4.0), (-9.0, 7.0)])
def test_the_box_in_the_crop_leads_back_to_the_die(shift):
    die = (100.0, 80.0, 150.0, 126.0)
    found = (die[0] + shift[0], die[1] + shift[1], die[2] + shift[0] + 8, die[3] + shift[1])
    assert box_from(found, box_target(found, die)) == pytest.approx(die, abs=1e-3)


def _heatmap(h, w, dice):
    out = np.full((1, 5, h, w), -8.0, np.float32)  # logit: nothing anywhere
    for (cx, cy), (bw, bh), score in dice:
        iy, ix = int(cy // STRIDE), int(cx // STRIDE)
        out[0, 0, iy, ix] = np.log(score / (1 - score))
        out[0, 1:3, iy, ix] = np.log(bw), np.log(bh)
        out[0, 3:5, iy, ix] = cx / STRIDE - ix, cy / STRIDE - iy
    return out


def test_heatmap_peaks_become_boxes_in_frame_pixels():
    out = _heatmap(32, 48, [((60.0, 40.0), (20.0, 16.0), 0.9), ((150.0, 90.0), (30.0, 30.0), 0.6)])
    boxes, scores = decode(out, scale=0.5, size=(400, 300), min_score=0.1)
    assert scores == pytest.approx([0.9, 0.6], abs=1e-5)
    assert boxes[0] == pytest.approx([100.0, 64.0, 140.0, 96.0], abs=1e-3)  # twice the input's pixels
    assert boxes[1] == pytest.approx([270.0, 150.0, 330.0, 210.0], abs=1e-3)
    assert len(decode(out, 0.5, (400, 300), min_score=0.7)[0]) == 1


def test_two_touching_dice_are_two_finds():
    """Two small dice side by side (16 input pixels each, touching): each has its own peak of the heatmap
    (blobs as the finder learnt them, ``evaluation.train_dice_finder.targets``), so the peak step and the
    finder's merge keep both."""
    out = _heatmap(32, 48, [((60.0, 40.0), (16.0, 16.0), 0.8), ((76.0, 40.0), (16.0, 16.0), 0.5)])
    yy, xx = np.mgrid[0:32, 0:48]
    heat = np.zeros((32, 48))
    for (cx, cy), score in (((60.0, 40.0), 0.8), ((76.0, 40.0), 0.5)):
        heat = np.maximum(heat, score * np.exp(-((xx - cx // STRIDE) ** 2 + (yy - cy // STRIDE) ** 2) / 2))
    out[0, 0] = np.log(np.clip(heat, 1e-4, 0.999) / (1 - np.clip(heat, 1e-4, 0.999)))
    boxes, scores = decode(out, scale=1.0, size=(192, 128), min_score=0.1)
    assert scores == pytest.approx([0.8, 0.5], abs=1e-3)
    assert boxes == pytest.approx(np.array([[52, 32, 68, 48], [68, 32, 84, 48]]), abs=1e-3)


def test_the_finders_input_is_scaled_and_padded():
    x, scale = finder_input(np.zeros((720, 1280, 3), np.uint8), 512)
    assert scale == pytest.approx(0.4) and x.shape == (1, 3, 320, 512) and x.dtype == np.float32


def test_overlapping_boxes_keep_the_best():
    boxes = np.array([[0, 0, 10, 10], [1, 1, 11, 11], [20, 20, 30, 30]], np.float64)
    assert list(nms(boxes, np.array([0.5, 0.9, 0.4]), 0.5)) == [1, 2]
    assert iou_matrix(boxes[:1], boxes[:1])[0, 0] == pytest.approx(1.0)


def test_not_a_die_and_overlaps_leave_no_reading():
    probs = np.zeros((3, len(READER_CLASSES)))
    probs[0, 2] = 0.97
    probs[1, 2] = 0.6  # the same die, found twice: the weaker box goes
    probs[2, -1] = 0.99  # a magnet
    probs[:, -1] += 1 - probs.sum(1)
    boxes = np.array([[10, 10, 50, 50], [12, 11, 51, 50], [100, 100, 140, 140]], np.float64)
    readings = readings_from(boxes, np.array([0.9, 0.9, 0.9]), probs, (640, 480), DiceReaderConfig())
    assert [(r.value, r.unsure) for r in readings] == [(3, False)]


def test_the_face_readers_doubt_that_it_is_a_die_weighs_on_the_confidence():
    """Same finder score, same face: the crop the reader doubts is a die (a token with dots, P(die) 0.9)
    falls far below the one it is sure of (0.99); with ``die_power`` 0 only the face's probability counts."""
    die = np.zeros((2, 7))
    die[0, 4], die[1, 4] = 0.99, 0.9  # each row sums to the chance it is a die at all
    scores = np.array([0.3, 0.3])
    assert reading_confidence(scores, die, 0.0) == pytest.approx([0.297, 0.27])
    assert reading_confidence(scores, die, 16.0) == pytest.approx([0.297 * 0.99**16, 0.27 * 0.9**16])
    probs = np.concatenate([die, 1 - die.sum(1, keepdims=True)], 1)
    boxes = np.array([[10, 10, 50, 50], [100, 100, 140, 140]], np.float64)
    kept = readings_from(boxes, scores, probs, (640, 480), DiceReaderConfig(confidence=0.19, die_power=16))
    assert [r.box_px for r in kept] == [(10, 10, 50, 50)]
    both = readings_from(boxes, scores, probs, (640, 480), DiceReaderConfig(confidence=0.19, die_power=0))
    assert len(both) == 2


@pytest.mark.parametrize(
    ("given", "unsure"),
    [
        ((0, 0, 0, 0, 0.89, 0, 0.11), False),  # a plain 5 with one chance in nine of leaning: a 5
        ((0, 0, 0, 0, 0.89, 0.11, 0), True),  # a 5 with one chance in nine of being a 6: not sure
        ((0, 0, 0, 0, 0.7, 0, 0.3), True),  # a 5 that may well be cocked
        ((0.01, 0, 0, 0, 0.95, 0, 0.04), False),
        ((0, 0, 0, 0, 0.2, 0, 0.8), True),  # read cocked, but not sure of it
        ((0, 0, 0, 0, 0.05, 0, 0.95), False),  # plainly cocked
    ],
)
def test_a_reading_is_doubted_where_another_face_competes_or_the_die_may_be_cocked(given, unsure):
    assert reading_unsure(np.array(given, float), DiceReaderConfig()) is unsure


def test_bad_reader_settings_are_refused():
    with pytest.raises(ValueError, match="multiple of 32"):
        DiceReaderConfig(long_side=500)
    with pytest.raises(ValueError, match="confidence"):
        DiceReaderConfig(confidence=1.5)
    with pytest.raises(ValueError, match="refine"):
        DiceReaderConfig(refine=-1)
    with pytest.raises(ValueError, match="coarse_long_side must be a multiple of 32"):
        DiceReaderConfig(coarse_long_side=300)
    with pytest.raises(ValueError, match="jitter"):
        DiceReaderConfig(jitter=0.3)  # further than the face reader's crops ever moved in training
    with pytest.raises(ValueError, match="die_power"):
        DiceReaderConfig(die_power=-1)
    with pytest.raises(ValueError, match="cocked_doubt"):
        DiceReaderConfig(cocked_doubt=1.5)


def test_the_jittered_reads_move_the_crop_up_and_down_by_a_share_of_the_long_side() -> None:
    boxes = np.array([[100, 50, 140, 100], [0, 0, 30, 20]], np.float64)  # long sides 50 and 30
    up, down = jittered_boxes(boxes, 0.1)
    assert up.tolist() == [[100, 45, 140, 95], [0, -3, 30, 17]]
    assert down.tolist() == [[100, 55, 140, 105], [0, 3, 30, 23]]


def test_two_looks_of_the_finder_are_pooled_one_box_per_die() -> None:
    fine = (np.array([[10, 10, 30, 30], [100, 100, 120, 120]], np.float64), np.array([0.3, 0.8]))
    coarse = (np.array([[11, 9, 31, 29], [200, 50, 300, 150]], np.float64), np.array([0.6, 0.5]))
    boxes, scores = pool_finds([fine, coarse])
    assert scores.tolist() == [0.8, 0.6, 0.5]  # the die seen twice keeps its better look
    assert boxes[1].tolist() == [11, 9, 31, 29]


def test_the_gate_reads_changes_and_the_frames_after_them_then_skips_still_ones():
    gate = ChangeGate(GateConfig(hold_s=0.2, max_skip=100))
    still = np.full((240, 320, 3), 90, np.uint8)
    moved = still.copy()
    cv2.rectangle(moved, (100, 100), (130, 130), (255, 255, 255), -1)
    noisy = np.clip(still.astype(int) + np.random.default_rng(0).integers(-2, 3, still.shape), 0, 255)
    seen = [
        gate.changed(img, t)
        for t, img in [(0.0, still), (0.1, noisy.astype(np.uint8)), (0.2, still), (0.3, moved), (0.4, moved)]
    ]
    assert seen == [True, True, False, True, True]  # first, held after it, still, change, held
    assert gate.changed(moved, 0.6) is False
    with pytest.raises(ValueError, match="hold_s"):
        GateConfig(hold_s=-1)


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
def test_pips_are_counted_on_a_plain_die_seen_from_above(value):
    from dice_fakes import webcam_photo

    from vision.dice_pips import count_pips

    spread = {
        1: [],
        2: [(-1, -1), (1, 1)],
        3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    }
    spread[5] = [*spread[4], (0, 0)]
    spread[6] = [*spread[4], (-1, 0), (1, 0)]
    image, _ = webcam_photo(dice=())
    cv2.rectangle(image, (165, 205), (235, 275), (235, 240, 242), -1)
    for dx, dy in spread[value] or [(0, 0)]:
        cv2.circle(image, (200 + dx * 20, 240 + dy * 20), 6, (20, 20, 20), -1)
    assert count_pips(image, (165.0, 205.0, 236.0, 276.0)) == value
    assert count_pips(np.full((100, 100, 3), 128, np.uint8), (20.0, 20.0, 80.0, 80.0)) is None
