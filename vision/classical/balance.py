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

One balance is one light. A projector's picture, or a lamp at one end and a window at the other, lights
the table in colours that change over the bed: the cloth, one colour everywhere, shows where and how much
(``cloth_tint``), and each ball is read through the tint of the cloth beside it before the white's balance.
"""

from __future__ import annotations

import numpy as np

from .kernels import EPS, LUMA

_HIGHLIGHT = 0.85  # body pixels: those below this quantile of a ball's brightness (the glint clips)
_WHITEST = 0.7  # of the body pixels, the whitest: above this quantile of their least channel
_MAX_TINT = 2.0  # a white ball whose channels differ more than this is more likely a misnamed coloured one
_GAIN_BOUNDS = (0.5, 2.0)
_NEUTRAL = 0.04  # gains within this of 1 are left alone
# A light's colour across the bed (``cloth_tint``): at most this far from the cloth's typical colour, channel
# by channel; and the cloth's own mottle under one light, which is no tint: the cloth beside the balls of the
# real photos differs from its typical colour by up to 0.05 (log units, one channel; 0.16 beside the red lines
# drawn on one; the pooltool renders' by up to 0.25, their lamps' sheen desaturating a green cloth).
_TINT_BOUNDS = (0.5, 2.0)
_TINT_MOTTLE = 0.06


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


def cloth_tint(cloth: np.ndarray, typical: np.ndarray) -> np.ndarray:
    """How the light tints the cloth (N, 3 BGR: its colour where each of N balls lies) against its colour
    over the bed (``typical``, 3), channel by channel (N, 3; 1 where the light is one colour everywhere).
    One cloth covers the bed: where it looks another colour, the light there is another colour (a
    projector's picture, a lamp at one end and a window at the other), and tints the balls there alike. The
    cloth's own mottle under one light is left alone (``_TINT_MOTTLE``)."""
    own = cloth / np.maximum(cloth @ LUMA, 1.0)[:, None]
    usual = typical / max(float(typical @ LUMA), 1.0)
    log = np.log(np.clip(own / np.maximum(usual, EPS)[None, :], *_TINT_BOUNDS))
    return np.asarray(np.exp(np.sign(log) * np.maximum(np.abs(log) - _TINT_MOTTLE, 0.0)))
