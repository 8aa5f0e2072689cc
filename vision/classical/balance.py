"""White balance from the balls themselves: the whitest ball on the table (the cue ball, or the white of a
pool stripe) is grey under a white light, so its colour is the light's.

A projector's light, a warm lamp or a phone's white balance tints every ball the same way, enough to move
a brown to red or a purple to maroon. The cloth cannot say what white is (cloths are green, blue, red or
grey) but the white ball can: its least-lit channel is still high where every coloured ball has one low
channel. Its body pixels (the glint left out: it clips) give per-channel gains that make it grey; every
ball's colour is then read through them.
"""

from __future__ import annotations

import numpy as np

from .kernels import EPS, LUMA

_HIGHLIGHT = 0.85  # body pixels: those below this quantile of a ball's brightness (the glint clips)
_WHITEST = 0.7  # of a ball's body pixels, the whitest share above this quantile of the least channel
_MAX_TINT = 2.2  # a reference whose channels differ more than this is a coloured ball: no white in view
_GAIN_BOUNDS = (0.5, 2.0)
_NEUTRAL = 0.04  # gains within this of 1 are left alone


def white_gains(px: np.ndarray) -> np.ndarray | None:
    """Per-channel gains (3,) that make the whitest of the balls grey, from their pixels ``px`` (N, K, 3,
    raw BGR); None when no ball is white enough to tell (or the light is white already)."""
    if len(px) == 0:
        return None
    luma = px @ LUMA
    body = luma <= np.quantile(luma, _HIGHLIGHT, axis=1, keepdims=True)
    least = np.where(body, px.min(axis=2), -np.inf)
    cut = np.nanquantile(np.where(body, least, np.nan), _WHITEST, axis=1, keepdims=True)
    chosen = body & (least >= cut)
    weight = chosen.astype(np.float64)
    count = np.maximum(weight.sum(axis=1), 1.0)
    whiteness = np.where(chosen, least, 0.0).sum(axis=1) / count
    best = int(whiteness.argmax())
    ref = (px[best] * weight[best, :, None]).sum(axis=0) / count[best]
    if ref.max() > _MAX_TINT * max(float(ref.min()), EPS):
        return None
    gains = np.clip(ref.mean() / np.maximum(ref, EPS), *_GAIN_BOUNDS)
    if np.abs(gains - 1.0).max() < _NEUTRAL:
        return None
    return np.asarray(gains, np.float32)
