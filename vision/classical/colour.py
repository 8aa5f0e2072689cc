"""Colour: what the pixels inside each circle say, measured against the cloth next to it (both are lit by
the same lamp): the shares of dark, white and coloured pixels (black ball, cue ball, pool stripes), the hue
and strength of the most saturated ones, the print on the face (a number disc: the cue ball has none), the
glint and how much room the sensor's white leaves it, and, for a face that shows no colour, the rim's hue (a
stripe turned white side up, read a level finer, clear of touching balls). A hue is read below the camera's
tone curve's shoulder (``headroom``): near full scale a bright orange reads yellow. Which ball each colour
names is ``identity``'s.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace

import numpy as np

from .balance import cloth_tint, white_gains, whitest
from .config import ClassicalConfig
from .kernels import EPS, LUMA, bound
from .levels import RIM_REACH, Scene
from .lighting import wrapped
from .rings import hollow

_MIN_PIXELS = 3  # fewest coloured pixels a hue is read from
# A pixel's hue counts fully below this raw level of its brightest channel, and not at all at full scale
# (``headroom``): the shoulder of a camera's tone curve.
_SHOULDER, _FULL_SCALE = 230.0, 255.0
_STRENGTH_QUANTILE = 0.85  # a ball's colour strength: this quantile of its coloured pixels' chroma
# A numbered solid shows its number disc white in the middle of its face when the disc faces up: up to
# _DISC_MAX of its face (the renders' yellow 1: 0.22; on the pool seeds' first frames the solids' white is
# under 0.15 in 95 % of them, a stripe's over 0.23 in 95 %). White only within _DISC_REACH of the face's
# middle, and under _DISC_OUTER beyond it, is that disc: a solid's colour, not a stripe's white. A stripe's
# white lies out in its caps.
_DISC_REACH, _DISC_MAX, _DISC_OUTER = 0.8, 0.3, 0.03
# A face's print (``markings``) is read inside this share of the colour radius: a small ball's edge is
# blurred with the cloth.
_MARKS_REACH = 0.75
# A ball whose face shows no hue (a stripe turned white side up) takes it from its rim, from pixels that
# are coloured and off every blend of grey and the cloth's colour by _RIM_FROM_CLOTH (opponent units,
# relative to the cloth's brightness): the cloth's reflection, its blur with a white rim and the ball's
# shadow are not its stripe.
_RIM_FROM_CLOTH = 0.15
_CLOTH_HUE_TURN = math.radians(20.0)  # ... and of another hue than the cloth's by this much, where some are
_RIM_DARK = 0.5  # ... and brighter than this share of a black pixel's bound: a rim is shaded, its noise not
# A face at least this white (a stripe turned white side up, the cue ball) takes no hue from pixels on a
# blend of white and the cloth: at its edge the cloth blurs into it (a render's 12 px ball on green cloth
# reads 6 % coloured pixels of the cloth's hue), and its rim then says its colour.
_PALE_FACE = 0.5
_BLURRED_IN = 0.15  # ... when this few of its pixels are coloured: more is a band, even in the cloth's hue,
# save in the face's outer ring (_BLURRED_RING of its radius out), where the cloth blurs in, and as bright as
# white and the cloth blended are (_BLEND_LUMA of the cloth's luma, shading allowed): a darker crescent
# there is the ball's band (the maroon 15 on a red cloth)
_BLURRED_RING, _BLEND_LUMA = 0.75, 0.85


def opponent(bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Red-green and yellow-blue opponent axes: their angle is the hue, unchanged by shading or by the
    white that compression bleeds into small coloured areas."""
    b, g, r = bgr[..., 0], bgr[..., 1], bgr[..., 2]
    return r - g, 0.5 * (r + g) - b


def _row_quantile(values: np.ndarray, mask: np.ndarray, q: float) -> np.ndarray:
    """Per row, the ``q`` quantile of ``values`` where ``mask`` (NaN-free, no warnings; 0 for empty rows)."""
    n = mask.sum(axis=1)
    ordered = np.sort(np.where(mask, values, np.inf), axis=1)
    k = bound(np.floor(q * (n - 1)).astype(np.int64), 0, values.shape[1] - 1)
    return np.where(n > 0, ordered[np.arange(len(n)), k], 0.0)


@dataclass(frozen=True)
class Colour:
    """What the pixels inside each ball say (one row per ball)."""

    shares: np.ndarray  # (N, 3) dark, white, coloured
    hue: np.ndarray  # (N,) radians
    strength: np.ndarray  # (N,) colour strength of the most saturated pixels, relative to the cloth
    light: np.ndarray  # (N,) log median brightness relative to the cloth
    has_hue: np.ndarray  # (N,) bool
    glint: np.ndarray  # (N,) brightest pixel above the median, relative to the cloth
    coherence: np.ndarray  # (N,) share of the outline's edge energy along the circle (``coherence``)
    marks: np.ndarray  # (N,) print on the face: brightness off its smooth shading (``markings``)
    rim: np.ndarray  # (N,) bool: hue and strength read from the rim (``with_rim``), not the face
    disc: np.ndarray  # (N,) share of the face white in its middle alone (a number disc facing up), else 0
    hollow: np.ndarray  # (N,) bool: a ring of light round bare cloth (``rings.hollow``), no ball
    room: np.ndarray  # (N,) how far the sensor's white lies above the median: the most glint it can show

    def subset(self, index: np.ndarray) -> Colour:
        return Colour(*(getattr(self, f.name)[index] for f in fields(self)))

    @classmethod
    def concat(cls, parts: list[Colour]) -> Colour:
        return cls(*(np.concatenate([getattr(p, f.name) for p in parts]) for f in fields(cls)))

    @classmethod
    def measure(
        cls,
        px: np.ndarray,
        cfg: ClassicalConfig,
        coherence: np.ndarray,
        offsets: np.ndarray,
        marks: np.ndarray | None = None,
        room: np.ndarray | None = None,
        cloth: np.ndarray | None = None,
        full_scale: np.ndarray | None = None,
    ) -> Colour:
        """``px`` (N, K, 3): each ball's pixels divided by the cloth luma next to it, at ``offsets`` (K, 2)
        from its centre; ``coherence`` (N,) its outline's; ``marks`` (N,) its print where already read
        (the same pixels through a white balance: print is a share of the ball's own brightness); ``room``
        (N, K) each pixel's ``headroom``, the weight of its hue (None: all count); ``cloth`` (N, 3) the
        cloth's colour beside each, relative to its luma, whose blends with white on a mostly white face
        are not its colour (None: not told apart); ``full_scale`` (N,) the sensor's white in the same units
        (None: out of reach)."""
        p0, p1, p2 = px[..., 0], px[..., 1], px[..., 2]
        luma = LUMA[0] * p0 + LUMA[1] * p1 + LUMA[2] * p2
        ordered = np.sort(luma, axis=1)
        k = luma.shape[1]
        median = ordered[:, k // 2]
        glint = ordered[:, -1] - median
        body = luma <= ordered[:, min(k - 1, int((1.0 - cfg.highlight_share) * (k - 1)))][:, None]
        top = np.maximum(np.maximum(p0, p1), p2)
        chroma = top - np.minimum(np.minimum(p0, p1), p2)
        sat = chroma / np.maximum(top, EPS)
        dark = body & (luma < cfg.dark) & ((sat < cfg.dark_saturation) | (chroma < cfg.dark_chroma))
        white = body & (luma >= cfg.white_luma) & (sat < cfg.white_saturation)
        coloured = body & ~dark & (sat >= cfg.white_saturation)
        counts = np.stack([dark.sum(axis=1), white.sum(axis=1), coloured.sum(axis=1)], axis=1)
        shares = counts / np.maximum(counts.sum(axis=1), 1)[:, None]
        own = coloured if cloth is None else _own_colour(px, coloured, shares, cloth, offsets)
        # Hue from the more saturated half of its own coloured pixels: the pure body or band, not its fringes.
        strong = own & (chroma >= _row_quantile(chroma, own, 0.5)[:, None])
        w = strong.astype(np.float32)
        if room is not None:  # below the tone curve's shoulder where a pixel's worth of them is
            below = w * room
            w = np.where((below.sum(axis=1) >= 1.0)[:, None], below, w)
        hue = np.arctan2(((0.5 * (p2 + p1) - p0) * w).sum(axis=1), ((p2 - p1) * w).sum(axis=1))
        strength = _row_quantile(chroma, own, _STRENGTH_QUANTILE)
        light = np.log(np.maximum(_row_quantile(luma, body, 0.5), 0.02))
        marks = markings(luma, body, offsets) if marks is None else marks
        has_hue = strong.sum(axis=1) >= _MIN_PIXELS
        rim = np.zeros(len(px), bool)
        disc = _disc(white, offsets, counts.sum(axis=1))
        ring = hollow(px, offsets, cloth)
        top_room = np.full(len(px), np.inf) if full_scale is None else full_scale - median
        return cls(shares, hue, strength, light, has_hue, glint, coherence, marks, rim, disc, ring, top_room)


def _disc(white: np.ndarray, offsets: np.ndarray, face: np.ndarray) -> np.ndarray:
    """Per ball (rows of ``white``, (N, K) at ``offsets`` from its centre; ``face`` (N,) its pixels told
    dark, white or coloured), the share of its face that is white within ``_DISC_REACH`` of the middle,
    where under ``_DISC_OUTER`` is white further out and it is at most ``_DISC_MAX``: a number disc facing
    up. 0 for any other white."""
    reach = np.hypot(offsets[:, 0], offsets[:, 1])
    middle = reach <= _DISC_REACH * max(float(reach.max()), EPS)
    n = np.maximum(face, 1)
    inner = (white & middle).sum(axis=1) / n
    outer = (white & ~middle).sum(axis=1) / n
    return np.where((outer <= _DISC_OUTER) & (inner <= _DISC_MAX), inner, 0.0)


def _own_colour(
    px: np.ndarray, coloured: np.ndarray, shares: np.ndarray, cloth: np.ndarray, offsets: np.ndarray
) -> np.ndarray:
    """Which of each ball's ``coloured`` pixels (N, K) are its own colour rather than the cloth blurred into
    a mostly white face: on a blend of white and the cloth's colour (``off_cloth``), all of them where the
    face shows few (``_BLURRED_IN``), else those in its outer ring (``_BLURRED_RING``) as bright as such a
    blend (``_BLEND_LUMA``). A band of the cloth's hue crosses the face (a blue stripe on a blue cloth), or
    shows at its edge darker than the cloth (a maroon stripe on a red cloth); the cloth blurs only into the
    edge, which on a render's ball 11 px across is a fifth of the face."""
    own = coloured.copy()
    pale = np.nonzero(shares[:, 1] >= _PALE_FACE)[0]
    if not len(pale):
        return own
    blend = ~off_cloth(px[pale], cloth[pale], white_point(px[pale]))
    radius = np.hypot(offsets[:, 0], offsets[:, 1])
    ring = radius >= _BLURRED_RING * max(float(radius.max()), EPS)
    few = shares[pale, 2] < _BLURRED_IN
    bright = px[pale] @ LUMA >= _BLEND_LUMA  # white and the cloth blend no darker than the cloth (shaded)
    own[pale] &= ~(blend & (few[:, None] | (ring[None, :] & bright)))
    return own


def off_cloth(px: np.ndarray, cloth: np.ndarray, white: np.ndarray | None = None) -> np.ndarray:
    """Which pixels (N, K, 3) lie off every blend of the ball's white and the cloth's colour (N, 3), both
    relative to the cloth luma: a ball's white, its shading and the cloth blurred into it lie on the
    segment from its white (``white``: N, 2 opponent units, its white pixels' tint under this light;
    None: grey) to the cloth's colour, a ball's own colour off it."""
    a, b = opponent(px)
    ca, cb = opponent(cloth)
    wa, wb = (np.zeros_like(ca), np.zeros_like(cb)) if white is None else (white[:, 0], white[:, 1])
    da, db = (ca - wa)[:, None], (cb - wb)[:, None]
    pa, pb = a - wa[:, None], b - wb[:, None]
    t = np.clip((pa * da + pb * db) / np.maximum(da * da + db * db, EPS), 0.0, 1.0)
    return np.asarray(np.hypot(pa - t * da, pb - t * db) >= _RIM_FROM_CLOTH)


def white_point(px: np.ndarray) -> np.ndarray:
    """The tint (N, 2 opponent units) of each ball's brighter pixels (``px``: N, K, 3 relative to the cloth
    luma): on a mostly white face, its white under this light. A white under a warm lamp, or a render's
    ivory white, is not grey, and a light that changes across the table tints it past what the white
    balance of another ball undoes."""
    luma = px @ LUMA
    w = (luma >= luma.mean(axis=1, keepdims=True)).astype(np.float32)
    n = np.maximum(w.sum(axis=1), 1.0)
    a, b = opponent(px)
    return np.stack([(a * w).sum(axis=1) / n, (b * w).sum(axis=1) / n], axis=1)


def with_rim(
    colour: Colour,
    rows: np.ndarray,
    rim: np.ndarray,
    cloth: np.ndarray,
    cfg: ClassicalConfig,
    clear: np.ndarray | None = None,
    white: np.ndarray | None = None,
) -> Colour:
    """``colour`` with the hue and strength of each ball's rim where its face shows too little colour to
    have a hue: ``rows`` (M,) the balls whose rims are given, ``rim`` (M, R, 3) their rims' pixels and
    ``cloth`` (M, 3) the cloth's colour beside each, both divided by the cloth luma."""
    if not len(rows):
        return colour
    top = rim.max(axis=2)
    chroma = top - rim.min(axis=2)
    sat = chroma / np.maximum(top, EPS)
    a, b = opponent(rim)
    stripe = (sat >= cfg.white_saturation) & (rim @ LUMA >= _RIM_DARK * cfg.dark)
    stripe &= off_cloth(rim, cloth, white)
    if clear is not None:
        stripe &= clear
    stripe = _unlike_the_cloth(stripe, a, b, cloth)
    ok = ~colour.has_hue[rows] & (stripe.sum(axis=1) >= _MIN_PIXELS)
    if not ok.any():
        return colour
    w = stripe.astype(np.float32)
    use = rows[ok]
    hue, strength, has_hue, from_rim = (
        colour.hue.copy(),
        colour.strength.copy(),
        colour.has_hue.copy(),
        colour.rim.copy(),
    )
    hue[use] = np.arctan2((b * w).sum(axis=1), (a * w).sum(axis=1))[ok]
    strength[use] = _row_quantile(chroma, stripe, _STRENGTH_QUANTILE)[ok]
    has_hue[use] = from_rim[use] = True
    return replace(colour, hue=hue, strength=strength, has_hue=has_hue, rim=from_rim)


def _unlike_the_cloth(stripe: np.ndarray, a: np.ndarray, b: np.ndarray, cloth: np.ndarray) -> np.ndarray:
    """Of each rim's ``stripe`` pixels (M, R; opponent axes ``a``, ``b``), those whose hue is not the
    cloth's (``cloth``: M, 3), where at least ``_MIN_PIXELS`` are: the cloth beside a ball can be lit more
    than the cloth it is measured against, off every blend of white and it but of its very hue, and four
    such pixels beside a maroon crescent's four once read a 15 as green. Where only pixels of the cloth's
    hue are coloured (a green stripe on a green cloth), they stay its colour."""
    ca, cb = opponent(cloth)
    turn = np.abs(wrapped(np.arctan2(b, a) - np.arctan2(cb, ca)[:, None]))
    unlike = stripe & (turn > _CLOTH_HUE_TURN)
    other = unlike.sum(axis=1) >= _MIN_PIXELS
    return np.where(other[:, None], unlike, stripe)


def markings(luma: np.ndarray, body: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """How much print a ball's face shows (N,): the mean distance of its pixels' brightness from the
    smooth shading that a lamp gives a plain sphere (a quadratic surface fitted to its ``body`` pixels,
    the highlight left out), over its median brightness. A cue ball and a white are plain (~0.02-0.04 on
    the real photos); a stripe turned to show mostly white still shows its number disc and the edges of
    its stripe (>= 0.08), which is what tells it from the cue ball when its colour hardly shows."""
    span = max(float(np.hypot(offsets[:, 0], offsets[:, 1]).max()), 1.0)
    x, y = offsets[:, 0] / span, offsets[:, 1] / span
    body = body & (np.hypot(x, y) <= _MARKS_REACH)[None, :]
    design = np.stack([np.ones_like(x), x, y, x * x, x * y, y * y], axis=1).astype(np.float32)  # (K, 6)
    w = body.astype(np.float32)
    outer = (design[:, :, None] * design[:, None, :]).reshape(len(design), 36)
    normal = (w @ outer).reshape(-1, 6, 6) + 1e-4 * np.eye(6, dtype=np.float32)
    rhs = (w * luma) @ design
    coef = np.linalg.solve(normal, rhs[..., None])[..., 0]
    resid = np.abs(luma - coef @ design.T)
    level = np.maximum(_row_quantile(luma, body, 0.5), EPS)
    return np.asarray((resid * w).sum(axis=1) / np.maximum(w.sum(axis=1), 1.0) / level)


def balanced(
    scene: Scene, xy: np.ndarray, colour: Colour, white: int | None, config: ClassicalConfig
) -> Colour | None:
    """The colour of the balls at fine-level points ``xy`` (N, 2), read again through the white balance
    that ball ``white`` gives (``balance``; None: the whitest of them); None when it gives none."""
    raw = _raw_pixels(scene, xy) / cloth_tint(scene.cloth_at(xy), scene.cloth_typical)[:, None, :]
    gains = white_gains(raw[whitest(raw) if white is None else white])
    if gains is None:
        return None
    return measured(scene, xy, colour.coherence, config, gains, colour.marks)


def measured(
    scene: Scene,
    xy: np.ndarray,
    coherence: np.ndarray,
    config: ClassicalConfig,
    gains: np.ndarray | None = None,
    marks: np.ndarray | None = None,
) -> Colour:
    """The colour of the balls at fine-level points ``xy`` (N, 2), their face's and, where it shows too
    little colour, their rim's (``with_rim``), through the white balance ``gains`` where given."""
    offsets = scene.pyramid.colour_offsets
    raw = _raw_pixels(scene, xy, offsets)
    here = scene.cloth_at(xy)
    light = np.maximum(here @ LUMA, 1.0)[:, None] * cloth_tint(here, scene.cloth_typical)  # (N, 3)
    px = _relative(raw, light, gains)
    cloth = _relative(here[:, None, :], light, gains)[:, 0, :]  # through the same balance
    full_scale = _relative(np.full((len(xy), 1, 3), _FULL_SCALE, np.float32), light, gains)[:, 0, :] @ LUMA
    face = Colour.measure(px, config, coherence, offsets, marks, headroom(raw), cloth, full_scale)
    pale = np.nonzero(~face.has_hue)[0]
    if not len(pale):
        return face
    rim, clear = _rim_pixels(scene, xy, pale, gains, light[pale])
    return with_rim(face, pale, rim, cloth[pale], config, clear, white_point(px[pale]))


def headroom(raw: np.ndarray) -> np.ndarray:
    """How far each pixel (..., 3 raw BGR) is from the top of the sensor's range, 0 (a channel at full
    scale) to 1 (every channel at or below ``_SHOULDER``): the weight of its hue. A camera's tone curve
    flattens towards full scale, so the brightest channel of a bright ball is held back while the next
    rises: an orange reads as yellow, a blue as cyan, where a lamp or the camera's exposure makes it
    bright (the grey overhead table's orange 5 reads 66-70 degrees over its face, 59-62 over the pixels
    below the shoulder; the catalogue's orange is 50, its yellow 75)."""
    top = raw.max(axis=-1)
    return np.asarray(np.clip((_FULL_SCALE - top) / (_FULL_SCALE - _SHOULDER), 0.0, 1.0), np.float32)


def _rim_pixels(
    scene: Scene, xy: np.ndarray, rows: np.ndarray, gains: np.ndarray | None, light: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The rims (M, R, 3) of the balls ``rows`` of the fine-level points ``xy``, read a level finer than
    their faces (a stripe turned white side up shows its band as a crescent a few pixels wide at the
    silhouette, blurred into the white and the cloth at the fine level), through ``gains`` and divided by
    the ``light`` where each lies (M, 3: ``_relative``); and which rim pixels are clear of every other
    ball (M, R): a touching ball's colour is not this ball's band."""
    pyr = scene.pyramid
    level = scene.levels[pyr.rim_level]
    centres = 2 ** (pyr.fine - pyr.rim_level) * (xy + 0.5) - 0.5
    at = np.round(centres[rows])[:, None, :] + pyr.rim_offsets[None, :, :]  # (M, R, 2)
    h, w = level.shape[:2]
    xs = bound(at[..., 0].astype(np.int64), 0, w - 1)
    ys = bound(at[..., 1].astype(np.int64), 0, h - 1)
    rim = _relative(level[ys, xs].astype(np.float32), light, gains)
    reach = RIM_REACH * pyr.radius / 2**pyr.rim_level
    gap = np.hypot(*(centres[rows][:, None, :] - centres[None, :, :]).transpose(2, 0, 1))  # (M, N)
    clear = np.ones(at.shape[:2], bool)
    for i, j in zip(*np.nonzero((gap > 0.0) & (gap < 2.0 * reach + 1.0)), strict=True):  # a few pairs
        off = at[i] - centres[j]
        clear[i] &= off[:, 0] * off[:, 0] + off[:, 1] * off[:, 1] > reach * reach
    return rim, clear


def _relative(raw: np.ndarray, light: np.ndarray, gains: np.ndarray | None) -> np.ndarray:
    """Raw pixels (N, K, 3) of N balls through the white balance ``gains`` (3,) where given, divided by the
    light where each lies (N, 3: the cloth's luma there times its tint, ``cloth_tint``)."""
    return np.asarray((raw if gains is None else raw * gains) / light[:, None, :])


def _raw_pixels(scene: Scene, xy: np.ndarray, offsets: np.ndarray | None = None) -> np.ndarray:
    """Every ball's pixels (N, K, 3, float32 BGR) at ``offsets`` (default: inside ``colour_radius``)."""
    fine = scene.fine
    hf, wf = fine.shape[:2]
    base = np.round(xy).astype(np.int64)
    off = scene.pyramid.colour_offsets if offsets is None else offsets
    xs = bound(base[:, 0, None] + off[None, :, 0], 0, wf - 1)
    ys = bound(base[:, 1, None] + off[None, :, 1], 0, hf - 1)
    return np.asarray(fine[ys, xs].astype(np.float32))
