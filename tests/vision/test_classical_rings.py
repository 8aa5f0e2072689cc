"""A ring of light a projector draws on the cloth is no ball (``vision.classical.rings``): hollow, its middle
bare cloth inside a brighter band, where a ball lit from above is brightest in its middle."""

from __future__ import annotations

import numpy as np

from vision.classical.kernels import LUMA
from vision.classical.rings import hollow

# Samples over a face out to its sampled reach (a grid of offsets, as the colour measure takes them).
_G = np.linspace(-1.0, 1.0, 15)
OFFSETS = np.array([(x, y) for y in _G for x in _G if x * x + y * y <= 1.0])
REACH = np.hypot(OFFSETS[:, 0], OFFSETS[:, 1])
CLOTH = np.array([0.6, 1.2, 0.8])  # a green cloth's colour over its brightness (BGR)


def grey(level: np.ndarray) -> np.ndarray:
    """A face of grey pixels at ``level`` times the cloth's brightness, (K, 3)."""
    return np.repeat(level[:, None], 3, axis=1) / float(np.sum(LUMA))


def test_a_ring_of_light_round_bare_cloth_is_hollow() -> None:
    ring = np.where(REACH[:, None] >= 0.6, 1.5 * CLOTH, CLOTH)  # a band half as bright again round the cloth
    assert hollow(ring[None], OFFSETS, CLOTH[None]).tolist() == [True]


def test_balls_lit_from_above_are_not_hollow() -> None:
    shaded = np.sqrt(np.clip(1.0 - REACH**2, 0.0, 1.0))  # a sphere's brightness, brightest in its middle
    white = grey(0.3 + 1.9 * shaded)  # a white ball, twice the cloth's brightness on top
    cloth_coloured = (0.55 + 0.45 * shaded)[:, None] * CLOTH  # its middle as bright as the cloth
    dark = grey(0.1 + 0.3 * shaded)  # a black ball
    rows = np.stack([white, cloth_coloured, dark])
    assert hollow(rows, OFFSETS, np.repeat(CLOTH[None], 3, axis=0)).tolist() == [False, False, False]


def test_a_stripe_with_its_band_across_its_middle_is_not_hollow() -> None:
    """Seen with its band across its middle between its white caps, a stripe's middle can be as bright as
    the cloth inside a brighter rim, but it is the band's colour, not the cloth's."""
    blue_band = np.array([1.5, 0.9, 0.7])
    stripe = np.where(np.abs(OFFSETS[:, 1:2]) <= 0.45, blue_band, grey(np.full(len(OFFSETS), 1.8)))
    assert hollow(stripe[None], OFFSETS, CLOTH[None]).tolist() == [False]


def test_a_bare_patch_of_cloth_is_not_a_ring_and_no_cloth_known_tells_none() -> None:
    bare = np.repeat(CLOTH[None], len(OFFSETS), axis=0)
    assert hollow(bare[None], OFFSETS, CLOTH[None]).tolist() == [False]
    ring = np.where(REACH[:, None] >= 0.6, 1.5 * CLOTH, CLOTH)
    assert hollow(ring[None], OFFSETS, None).tolist() == [False]
    assert hollow(np.ones((0, len(OFFSETS), 3)), OFFSETS, np.ones((0, 3))).shape == (0,)
