"""Naming a ball from its pixels: the print on a face tells the cue ball from a stripe turned white side up,
and such a stripe's colour is read from its rim, never from the cloth's reflection there."""

from __future__ import annotations

import numpy as np

from arbiter.games import billiards
from vision.classical import ClassicalConfig
from vision.classical.identity import BallSet, Colour, markings, with_rim
from vision.classical.kernels import LUMA, disk_offsets, ring_offsets

RADIUS = 12.0
CFG = ClassicalConfig()
FACE = disk_offsets(CFG.colour_radius * RADIUS)
RIM = ring_offsets(CFG.colour_radius * RADIUS, RADIUS)


def face(printed: bool) -> np.ndarray:
    """A white ball's face (K, 3) relative to the cloth: lit from one side, with a number disc's ring
    printed on it or plain."""
    x, y = FACE[:, 0] / RADIUS, FACE[:, 1] / RADIUS
    level = 1.6 - 0.4 * (x * x + y * y) + 0.2 * x
    if printed:
        d = np.hypot(x - 0.1, y + 0.1)
        level = np.where(np.abs(d - 0.3) < 0.07, 0.6 * level, level)
    return np.repeat(level[:, None], 3, axis=1)


def test_a_plain_white_face_has_no_marks_and_a_printed_one_has() -> None:
    px = np.stack([face(False), face(True)])
    luma = px @ LUMA
    marks = markings(luma, np.ones_like(luma, bool), FACE)
    assert marks[0] < 0.01 < 0.04 < marks[1]


def colour_of(px: np.ndarray) -> Colour:
    return Colour.measure(px, CFG, np.ones(len(px)), FACE)


def test_the_plain_ball_is_the_cue_ball_among_white_faces() -> None:
    balls = BallSet.for_game(billiards("straight-pool"))
    assert balls.white is not None
    colour = colour_of(np.stack([face(True), face(False), face(True)]))
    choice, _ = balls.name(colour)
    assert list(choice == balls.white) == [False, True, False]


def rim(rgb_rel: tuple[float, float, float], share: float) -> np.ndarray:
    """A rim (R, 3), BGR relative to the cloth luma: grey cloth reflected, and a crescent of a colour."""
    out = np.full((len(RIM), 3), 0.9)
    angle = np.arctan2(RIM[:, 1], RIM[:, 0])
    out[angle < -np.pi + 2 * np.pi * share] = np.array(rgb_rel[::-1])
    return out


def test_a_stripe_turned_white_side_up_takes_its_hue_from_its_rim() -> None:
    colour = colour_of(np.stack([face(True), face(True)]))
    assert not colour.has_hue.any()
    grey = np.array([[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]) / 1.0
    both = np.stack([rim((0.3, 0.3, 1.0), 0.3), rim((1.0, 0.2, 0.2), 0.3)])
    seen = with_rim(colour, np.arange(2), both, grey, CFG)
    assert seen.has_hue.all() and seen.rim.all()
    blue, red = (np.degrees(h) for h in seen.hue)
    assert -150 < blue < -60 and -30 < red < 45


def test_a_rim_of_the_cloth_s_own_colour_says_nothing() -> None:
    colour = colour_of(np.stack([face(True)]))
    green_cloth = np.array([[0.5, 1.4, 0.5]])  # BGR / luma
    seen = with_rim(colour, np.arange(1), np.stack([rim((0.5, 1.4, 0.5), 0.5)]), green_cloth, CFG)
    assert not seen.has_hue.any() and not seen.rim.any()


def test_a_white_rim_blurred_with_the_cloth_says_nothing() -> None:
    colour = colour_of(np.stack([face(True)]))
    green_cloth = np.array([[0.5, 1.4, 0.5]])  # BGR / luma
    blend = 0.5 * green_cloth[0] + 0.5 * np.array([1.6, 1.6, 1.6])
    seen = with_rim(colour, np.arange(1), np.tile(blend, (1, len(RIM), 1)), green_cloth, CFG)
    assert not seen.rim.any()
