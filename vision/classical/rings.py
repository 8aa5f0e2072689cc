"""A ring of light on the cloth is no ball.

A projector that draws a game's interface over the table draws rings: round a target, round where a ball
should go. A ring a ball's size is as round as only a ball is (a drawn circle: coherence 0.997) and outlined
all round, so it passes the tests a ball without a glint is kept by. But it is hollow: its middle is bare
cloth, as bright as the cloth beside it, inside a band brighter than that. A ball lit from above is
brightest in its middle and darker towards its rim (on the real photos its middle is 0.92-2.7 times its
band), and where its middle is as bright as the cloth its rim is no brighter.
"""

from __future__ import annotations

import numpy as np

from .kernels import EPS, LUMA

RING_MIDDLE = 0.4  # a face's middle: within this share of its sampled reach
RING_BAND = 0.65  # its band: beyond this share
MIDDLE_CLOTH = 0.1  # a middle whose median is within this of the cloth's brightness and colour is bare cloth
BAND_OVER_MIDDLE = 1.2  # ... and a band this many times brighter than it is light drawn round it


def hollow(px: np.ndarray, offsets: np.ndarray, cloth: np.ndarray | None) -> np.ndarray:
    """Per face (rows of ``px``, (N, K, 3), each pixel over the cloth's brightness beside it, at ``offsets``
    (K, 2) from its centre; ``cloth`` (N, 3) the cloth's colour beside each, the same way; None: not
    known, and no face is told hollow): whether it is a ring of light round bare cloth (bool, N). The
    middle must be the cloth's colour too: a stripe seen with its band across its middle, between its
    white caps, has a band as bright as the cloth inside a brighter rim."""
    if cloth is None or px.shape[0] == 0:
        return np.zeros(px.shape[0], bool)
    reach = np.hypot(offsets[:, 0], offsets[:, 1])
    far = max(float(reach.max()), EPS)
    inner = reach <= RING_MIDDLE * far
    luma = px @ LUMA
    middle = np.median(luma[:, inner], axis=1)
    band = np.median(luma[:, reach >= RING_BAND * far], axis=1)
    bare = np.abs(np.median(px[:, inner, :], axis=1) - cloth).max(axis=1) <= MIDDLE_CLOTH
    return np.asarray(bare & (np.abs(middle - 1.0) <= MIDDLE_CLOTH) & (band >= BAND_OVER_MIDDLE * middle))
