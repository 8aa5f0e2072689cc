"""White balance from the balls themselves: the white ball (the cue ball) is grey under a white light, so
its colour is the light's.

A projector's light, a warm lamp or a phone's white balance tints every ball the same way, enough to move
a brown to red or a purple to maroon. The cloth cannot say what white is (cloths are green, blue, red or
grey) but the white ball can, once the balls have been named as they look: the ball named white gives,
from its whitest body pixels (the glint left out: it clips), per-channel gains that make it grey, and every
ball's colour is read again through them. Under a strongly tinted light the white may be named as a
coloured ball (a white under magenta light reads as pink): then the whitest ball (``whitest``: the highest
least channel) is tried as the reference, and its balance is kept only if it names the whole frame no
worse (the detector's ``_name``); with the white potted, the palest coloured ball (a pink) as reference
makes every other ball worse, and is dropped. A reference tinted past ``_MAX_TINT`` is never believed.
"""

from __future__ import annotations

import numpy as np

from .kernels import EPS, LUMA

_HIGHLIGHT = 0.85  # body pixels: those below this quantile of a ball's brightness (the glint clips)
_WHITEST = 0.7  # of the body pixels, the whitest: above this quantile of their least channel
_MAX_TINT = 2.0  # a white ball whose channels differ more than this is more likely a misnamed coloured one
_GAIN_BOUNDS = (0.5, 2.0)
_NEUTRAL = 0.04  # gains within this of 1 are left alone


def whitest(px: np.ndarray) -> int:
    """Which of the balls (pixels ``px``: N, K, 3 raw BGR) is the whitest: the highest least channel over
    its whitest body pixels (a coloured ball has one channel low)."""
    luma = px @ LUMA
    body = luma <= np.quantile(luma, _HIGHLIGHT, axis=1, keepdims=True)
    least = np.where(body, px.min(axis=2), np.nan)
    return int(np.nanquantile(least, _WHITEST, axis=1).argmax())


def white_gains(px: np.ndarray) -> np.ndarray | None:
    """Per-channel gains (3,) that make the white ball grey, from its pixels ``px`` (K, 3, raw BGR); None
    when it is too tinted to be believed (or the light is white already)."""
    luma = px @ LUMA
    body = luma <= _at_quantile(luma, _HIGHLIGHT)
    least = px.min(axis=1)
    chosen = body & (least >= _at_quantile(least[body], _WHITEST))
    if not chosen.any():
        return None
    ref = px[chosen].mean(axis=0)
    if ref.max() > _MAX_TINT * max(float(ref.min()), EPS):
        return None
    gains = np.clip(ref.mean() / np.maximum(ref, EPS), *_GAIN_BOUNDS)
    if np.abs(gains - 1.0).max() < _NEUTRAL:
        return None
    return np.asarray(gains, np.float32)


def _at_quantile(values: np.ndarray, q: float) -> float:
    """The value at quantile ``q`` of ``values`` (1-D, not empty), nearest below: a partition, not a sort
    (this runs on every frame in which a ball moved)."""
    k = int(q * (len(values) - 1))
    return float(np.partition(values, k)[k])
